"""The ``chessfed`` command line."""

from __future__ import annotations

import time

_STARTED = time.perf_counter()  # the program's start, for the run's timings

import argparse  # noqa: E402 - after the clock
import atexit  # noqa: E402
import contextlib  # noqa: E402
import datetime as dt  # noqa: E402
import gc  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import os  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import urllib.request  # noqa: E402
import uuid  # noqa: E402
from collections.abc import Callable, Iterator  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import IO  # noqa: E402

from flows.cli import pair as pair_cli  # noqa: E402


@dataclass
class OwnServer:
    """The Prefect server a run started for itself (:func:`start_server`): its process, the
    file its error stream goes to, and its API's URL."""

    proc: subprocess.Popen
    err: IO[bytes]
    url: str

    def said(self) -> str:
        """The last lines the server wrote on its error stream."""
        self.err.seek(0)
        return " / ".join(self.err.read().decode("utf-8", "replace").strip().splitlines()[-5:])

    def stop(self) -> None:
        """SIGTERM, as a user's Ctrl-C would end it (killed after 10 s)."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.err.close()


OWN_SERVERS: list[OwnServer] = []
"""The servers this process started (stopped on SIGTERM too: :func:`stop_on_sigterm`)."""


def stop_on_sigterm() -> None:
    """``chessfed`` ended by SIGTERM (``kill``, a scheduler or service manager stopping it):
    the run's own Prefect server (:data:`OWN_SERVERS`) is stopped before the process ends, as
    after Ctrl-C — Python's default ends this process alone (no ``atexit``) and left the
    server running for good (found: a benchmark stopped with ``pkill``). Nothing else needs
    the exit: outputs are switched in one step (:mod:`flows.pipeline.publish_folder`), the
    mail ledger survives a kill, the renderers end with this process
    (tests/servers/test_crash_safety.py, tests/publish/test_renderers.py)."""
    def stop(signum: int, frame: object) -> None:
        for server in OWN_SERVERS:
            server.stop()
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, stop)


OWN_SERVER_SERVICES = {
    "PREFECT_SERVER_SERVICES_TASK_RUN_RECORDER_ENABLED": "true",
    "PREFECT_SERVER_SERVICES_EVENT_PERSISTER_ENABLED": "false",
    "PREFECT_SERVER_SERVICES_TRIGGERS_ENABLED": "false",
    "PREFECT_SERVER_SERVICES_SCHEDULER_ENABLED": "false",
    "PREFECT_SERVER_SERVICES_LATE_RUNS_ENABLED": "false",
    "PREFECT_SERVER_SERVICES_FOREMAN_ENABLED": "false",
    "PREFECT_SERVER_SERVICES_CANCELLATION_CLEANUP_ENABLED": "false",
    "PREFECT_SERVER_SERVICES_PAUSE_EXPIRATIONS_ENABLED": "false",
    "PREFECT_SERVER_SERVICES_REPOSSESSOR_ENABLED": "false",
    "PREFECT_SERVER_SERVICES_CLEANUP_RECONCILER_ENABLED": "false",
    "PREFECT_SERVER_SERVICES_DB_VACUUM_ENABLED": "false",
}
"""The background services of the run's own server (:func:`start_server`), through Prefect's
documented ``PREFECT_SERVER_SERVICES_*_ENABLED`` settings (``prefect server services ls``):
the task run recorder only. In Prefect 3 a flow's task runs reach the database through it
(the client sends each task run's states as events; the recorder writes the task runs), so
without it the Prefect UI shows each event's flow run with "0 task runs". The others have
nothing to do in a server that lives for one run, and are off: the event persister (the UI's
event feed, not its task runs), automations (triggers and actions), the scheduler and late
runs (deployments: the office's server), the foreman, cancellation cleanup, pause
expirations, the repossessor, the cleanup reconciler and the database vacuum ("false": events
only, which needs the persister). They win over the environment: this server is the run's."""


def start_server(env: dict[str, str] | os._Environ) -> OwnServer | None:
    """Without ``PREFECT_API_URL``: a Prefect server of the run's own, started as a user starts
    one (``prefect server start``, on a free port of 127.0.0.1, without the UI; of the
    background services the task run recorder only, :data:`OWN_SERVER_SERVICES`; its state in
    PREFECT_HOME), at once in a process of its own so that it boots while this process reads
    the events; ``PREFECT_API_URL`` then names it and it stops when the run does, once it has
    recorded the run's task runs (:func:`wait_for_task_runs`). Returns None where a URL is set
    (the office's server: nothing is started)."""
    if env.get("PREFECT_API_URL"):
        return None
    if importlib.util.find_spec("prefect") is None:
        return None
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    err = tempfile.TemporaryFile()  # noqa: SIM115 - open for the server's life (OwnServer.stop)
    proc = subprocess.Popen(
        [sys.executable, "-m", "prefect", "server", "start", "--host", "127.0.0.1",
         "--port", str(port), "--no-ui", "--log-level", "error"],
        env={**env, **OWN_SERVER_SERVICES}, stdout=subprocess.DEVNULL, stderr=err)
    server = OwnServer(proc, err, f"http://127.0.0.1:{port}/api")
    atexit.register(server.stop)
    OWN_SERVERS.append(server)
    env["PREFECT_API_URL"] = server.url
    return server


@contextlib.contextmanager
def own_server_settings(server: OwnServer | None) -> Iterator[None]:
    """Prefect's settings for the flow runs of a run on its own server (:func:`start_server`):
    no flow run heartbeats (``PREFECT_FLOWS_HEARTBEAT_FREQUENCY``, 180 s by default). They let
    a long-lived server notice a crashed flow run; this server ends with the run, and each flow
    run's heartbeat thread, which sleeps in steps of one second, cost up to a second at its end
    (measured on the demo's Swiss: 0.85 and 0.9 s for the run's two flow runs). Through
    Prefect's documented ``temporary_settings``; on the office's server (PREFECT_API_URL) the
    heartbeats stay as configured."""
    if server is None:
        yield
        return
    from prefect.settings import PREFECT_FLOWS_HEARTBEAT_FREQUENCY, temporary_settings

    with temporary_settings(updates={PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None}):
        yield


def wait_for_server(server: OwnServer | None, timeout: float = 180) -> None:
    """Until the server :func:`start_server` started answers; if it ended instead, the run stops
    and says what the server said."""
    if server is None:
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise SystemExit("chessfed run: `prefect server start` ended before it answered: "
                             + server.said())
        try:
            with urllib.request.urlopen(server.url + "/health", timeout=2):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"chessfed run: the run's Prefect server did not answer within {timeout:.0f} s")


def wait_for_task_runs(api_url: str, flow_run_id: uuid.UUID, events: list[str],
                       patience: float = 10.0) -> float | None:
    """Until the Prefect server at ``api_url`` has recorded every task run of the run's flow
    run ``flow_run_id`` and of its event flow runs, each in a final state: a server that ends
    with the run (its own, or Prefect's ephemeral one) would otherwise stop with the last task
    runs not written, and the Prefect UI would show their flow runs without them. Prefect's
    client sends a task run's states as events, in the background (its last ones as this
    process ends, before the server is stopped: atexit); the server's task run recorder
    writes them as they come, two at a time in the order they arrived, and drops those it
    had not taken when the server stops. Done when every event's ``event-<folder>`` task run
    (:func:`flows.pipeline.events.run_event`: its process sends its last state after every
    state of the event's own flow run) is recorded, every recorded task run is final, and
    nothing changed since the previous look 0.1 s before (a write under way). Gives up with a
    warning after ``patience`` seconds without progress. Returns the seconds it waited (None:
    it gave up)."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import (
        FlowRunFilter,
        FlowRunFilterId,
        FlowRunFilterParentFlowRunId,
    )
    from prefect.client.schemas.sorting import TaskRunSort
    from prefect.settings import PREFECT_API_URL, temporary_settings

    from flows.pipeline.run_index import event_task_run

    t0 = last_change = time.monotonic()
    runs = FlowRunFilter(operator="or_", id=FlowRunFilterId(any_=[flow_run_id]),
                         parent_flow_run_id=FlowRunFilterParentFlowRunId(any_=[flow_run_id]))
    markers = {event_task_run(name) for name in events}
    seen: dict[uuid.UUID, str] = {}
    with temporary_settings(updates={PREFECT_API_URL: api_url}), \
            get_client(sync_client=True) as client:
        while True:
            found: dict[uuid.UUID, str] = {}
            names: set[str] = set()
            while True:  # every task run, 200 at a time (the server's default limit)
                page = client.read_task_runs(flow_run_filter=runs, sort=TaskRunSort.ID_DESC,
                                             limit=200, offset=len(found))
                found |= {t.id: t.state_type.value if t.state_type else "" for t in page}
                names |= {t.name for t in page}
                if len(page) < 200:
                    break
            final = all(s in ("COMPLETED", "FAILED", "CANCELLED", "CRASHED") for s in found.values())
            if final and markers <= names and found == seen:
                return time.monotonic() - t0
            if found != seen:
                seen, last_change = found, time.monotonic()
            elif time.monotonic() - last_change > patience:
                print(f"chessfed run: Prefect's server had not recorded every task run of the "
                      f"run after {time.monotonic() - t0:.0f} s: the Prefect UI may miss steps",
                      file=sys.stderr)
                return None
            time.sleep(0.1)


def history_recorded(server: OwnServer | None, ephemeral: bool, flow_run_id: uuid.UUID | None,
                     events: list[str]) -> None:
    """The task runs of the run's flow run ``flow_run_id`` recorded (:func:`wait_for_task_runs`)
    before the server that ends with the run stops: its own (``server``) or Prefect's ephemeral
    one (``ephemeral``), both stopped as this process ends (atexit). The office's server
    (PREFECT_API_URL) lives on and records them in its own time: no wait there."""
    if flow_run_id is None:
        return
    if server is not None:
        url = server.url
    elif ephemeral:
        from prefect.client.orchestration import get_client

        url = str(get_client(sync_client=True).api_url)  # the ephemeral server, still running
    else:
        return
    wait_for_task_runs(url, flow_run_id, events)


def _run(args: argparse.Namespace) -> int:
    """Exit status (``flows.pipeline.run_index.EXIT_CODES``): 0 clean, 1 published with rejected input
    rows, 2 an event failed or the command was wrong, 3 an event held back at its last good
    state (or published in part), 4 letters pending or failed."""
    inputs = Path(args.inputs)
    if not inputs.is_dir():
        print(f"chessfed run: {inputs} is not a folder", file=sys.stderr)
        return 2
    from flows.pipeline.run_index import event_folders

    known = [p.name for p in event_folders(inputs)]
    unknown = sorted(set(args.only or []) - set(known))
    if unknown:
        print(f"chessfed run: no event folder {', '.join(unknown)} under {inputs} "
              f"(there are: {', '.join(known) or 'none'})", file=sys.stderr)
        return 2
    progress = logging.getLogger("chessfed.progress")
    handler = ProgressHandler()
    handler.setFormatter(logging.Formatter("%(message)s"))
    if not args.quiet:
        progress.addHandler(handler)  # (its records go on to Prefect's: its API and console)
    try:
        return _run_folders(args, inputs)
    finally:  # (a caller that runs again in this process gets one handler, not two)
        progress.removeHandler(handler)


class ProgressHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """The run's progress lines on the standard error of the moment (``sys.stderr`` when the
    record is written, not when the run began: a caller may have replaced it since)."""

    @property  # type: ignore[override]
    def stream(self) -> IO[str]:
        return sys.stderr

    @stream.setter
    def stream(self, value: IO[str]) -> None:
        pass


def _run_folders(args: argparse.Namespace, inputs: Path) -> int:
    """:func:`_run` once its folder is checked: every event checked, the changed ones built."""
    from flows.pipeline.run_index import event_folders

    folders = [f for f in event_folders(inputs) if not args.only or f.name in args.only]
    from flows.pipeline import unchanged

    unchanged.SKIPPED.clear()
    checked: dict[str, str] = {}
    changed: list[str] = []
    server: OwnServer | None = None
    started = False

    def start() -> None:  # at the first event to build, while the check goes on
        nonlocal server, started
        if not started and not args.prefect_ephemeral:
            server = start_server(os.environ)
        started = True

    if not args.rebuild and folders:
        t_check = time.perf_counter()
        checked, changed = unchanged_events(folders, Path(args.out), args.as_of,
                                            not args.dry_run_mail, first_to_build=start)
        if len(checked) == len(folders):
            return _report_unchanged(args, checked, t_check)
    # The run's own server stops when this process ends (atexit: after Prefect has sent the
    # run's last logs and events to it, which Python's shutdown does first). Decision: it
    # starts at the first event the check finds to build, so that a run with nothing changed
    # starts no Prefect at all, and the rest of the check runs while it boots.
    start()
    from flows.pipeline import workers

    if not args.quiet and (note := workers.slow_pairing_note()):
        print(f"chessfed run: {note}", file=sys.stderr)
    if local_renderers(args):  # they start while the server boots and the pipeline is imported
        if not args.quiet and (note := workers.slow_fonts_note()):
            print(f"chessfed run: {note}", file=sys.stderr)

        threading.Thread(target=workers.warm_up, name="chessfed-renderers", daemon=True).start()
    return _run_events(args, inputs, server, [f for f in folders if f.name not in checked],
                       changed, checked)


def unchanged_events(folders: list[Path], out: Path, as_of: dt.date | None, send_mail: bool,
                     first_to_build: Callable[[], None] = lambda: None,
                     ) -> tuple[dict[str, str], list[str]]:
    """The events (folder -> event name) whose published outputs still stand
    (:mod:`flows.pipeline.unchanged`), each checked under its event's lock; and the folders the
    check found changed (their flows build them without checking again: the check reads every
    input and output that may have changed). ``first_to_build`` is called at the first event
    to build (the run starts Prefect's server then, while the check goes on). An event another
    run is writing is neither (the flow checks it again and reports it busy). Only the events
    to build become task runs of the run's flow: at 500 events with one changed, the flow has
    one task, not 500 that each check again (measured in docs/benchmarks.md). Had another run
    published an event found changed meanwhile, building it again makes the same files and
    sends no letter twice."""
    from flows.pipeline import publish_folder, standing
    from flows.pipeline.counted_in import siblings_fixed
    from flows.pipeline.manifest import manifest_head
    from flows.pipeline.unchanged import program_fixed

    found: dict[str, str] = {}
    changed: list[str] = []
    with program_fixed(), siblings_fixed():
        for folder in folders:
            try:
                with publish_folder.event_lock(out / folder.name):
                    reason = standing.must_build(folder, out / folder.name, as_of, send_mail)
            except publish_folder.Busy:
                first_to_build()
                continue
            if reason is not None:
                first_to_build()
                changed.append(folder.name)
                continue
            found[folder.name] = manifest_head(out / folder.name).get("name") or folder.name
    return found, changed


def _report_unchanged(args: argparse.Namespace, names: dict[str, str], t_check: float) -> int:
    """Every event of the run is unchanged: Prefect is not started; the run's index is written
    again (only if it would differ), then ``run.json`` and the exit status, as after a run."""
    from flows.io import atomic_write
    from flows.pipeline import unchanged
    from flows.pipeline.run_index import exit_status, listed_events, outcome, site_index

    out = Path(args.out)
    status = {name: "ok" for name in names}
    index = site_index(out, listed_events(out, list(names)), status, names)
    path = out / "index.html"
    if not path.exists() or path.read_text(encoding="utf-8") != index:
        atomic_write(path, index)
    t_end = time.perf_counter()
    for name, s in status.items():
        print(outcome(out, name, s, unchanged=True).line)
    summary = run_summary(out, status, started=_STARTED, imported=t_check, waited=t_end,
                          flow_started=t_end, ended=t_end, unchanged=dict(unchanged.SKIPPED))
    summary |= {"jobs": args.jobs, "task_runner": args.task_runner,
                "prefect": "not started: every event unchanged"}
    atomic_write(out / "run.json", json.dumps(summary, indent=2) + "\n")
    if not args.quiet:
        print(f"run: {summary['wall_s']:.1f} s; every event unchanged, Prefect not started — "
              f"{out / 'run.json'}", file=sys.stderr)
    return exit_status(out, status)


def local_renderers(args: argparse.Namespace) -> bool:
    """Whether this run renders its PDFs (and pairs its audit) in renderers of its own process
    (:func:`flows.pipeline.workers.warm_up`), not on a Dask cluster."""
    return args.task_runner == "threads" and not args.dask_address


def _run_events(args: argparse.Namespace, inputs: Path, server: OwnServer | None,
                to_build: list[Path], changed: list[str] | None = None,
                found_unchanged: dict[str, str] | None = None) -> int:
    """The run once Prefect is needed: the flow of every event (:func:`flows.pipeline.events.run_events`)
    on the task runner asked for, once the run's own server answers (``server``; none with
    PREFECT_API_URL or ``--prefect-ephemeral``, where Prefect starts its own ephemeral server
    when the flow starts); then, on a server that ends with the run, until it has recorded the
    run's task runs (:func:`history_recorded`). ``changed``: the event folders this run's check
    found to build (:func:`unchanged_events`: not checked again); ``found_unchanged``: those it
    found unchanged (folder -> event name: no task run, reported unchanged)."""
    t0 = time.perf_counter()
    from flows.pipeline import unchanged
    from flows.pipeline.events import events_flow, statuses
    from flows.pipeline.run_index import exit_status

    t_wait = time.perf_counter()
    wait_for_server(server)
    t_call = time.perf_counter()
    called_at = time.time()  # the wall clock, to compare with the manifests' times
    local = local_renderers(args)
    run = events_flow(args.task_runner, args.jobs, args.dask_address, events=len(to_build))
    with own_server_settings(server):
        state = run(inputs, Path(args.out), args.as_of, args.only or None, not args.dry_run_mail,
                    renderer="local" if local else "dask", rebuild=args.rebuild,
                    changed=changed or [], found_unchanged=found_unchanged or {},
                    return_state=True)
    try:
        status = statuses(state)
    except RuntimeError as e:  # the flow itself crashed: no event status to report
        history_recorded(server, args.prefect_ephemeral, state.state_details.flow_run_id, [])
        print(f"chessfed run: {e}", file=sys.stderr)
        return 2
    # the events this run built (a task run each); those its check found unchanged have none
    history_recorded(server, args.prefect_ephemeral, state.state_details.flow_run_id,
                     [name for name in status if name not in (found_unchanged or {})])
    t_end = time.perf_counter()
    from flows.pipeline.run_index import outcome

    for name, s in status.items():
        print(outcome(Path(args.out), name, s, unchanged=name in unchanged.SKIPPED).line)
    summary = run_summary(Path(args.out), status, started=_STARTED, imported=t0, waited=t_wait,
                          flow_started=t_call, ended=t_end,
                          unchanged=dict(unchanged.SKIPPED) if local else
                          not_built(Path(args.out), status, called_at))
    summary |= {"jobs": args.jobs, "task_runner": args.task_runner,
                "prefect": ("the run's own server (prefect server start)" if server is not None
                            else "Prefect's ephemeral server" if args.prefect_ephemeral
                            else "the server at PREFECT_API_URL")}
    from flows.io import atomic_write

    atomic_write(Path(args.out) / "run.json", json.dumps(summary, indent=2) + "\n")
    if not args.quiet:
        print(f"run: {summary['wall_s']:.1f} s; Prefect: the server's start "
              f"{summary['prefect_start_s']:.1f} s (while chessfed started: "
              f"{summary['program_start_s']:.1f} s), in the events "
              f"{summary['prefect_in_events_s']:.1f} s — {Path(args.out) / 'run.json'}",
              file=sys.stderr)
    return exit_status(Path(args.out), status)


def run_summary(out: Path, status: dict[str, str], *, started: float, imported: float,
                waited: float, flow_started: float, ended: float,
                unchanged: dict[str, float | None] | None = None) -> dict[str, object]:
    """How a run's time divides (``outputs/run.json``): the program's own start (Python,
    imports, reading the events: ``program_start_s``, the run's own Prefect server booting
    meanwhile), the wait for that server beyond it (``prefect_start_s``), and the run's flow
    (``flow_s``: from its call to its end, Prefect's creation of the flow runs included). Each
    event's entry comes from its manifest's timings: its flow's body (``total_s``), its steps
    (``work_s``) and the rest, Prefect's part inside its flow (``orchestration_s``: task runs,
    states, logs). An event found unchanged (``unchanged``: name -> seconds its check took, None
    when not known here) was not built: its entry says so (its manifest's timings are those of
    the run that built it). ``prefect_in_events_s``: the flow's time beyond the longest event's
    steps (the events run side by side)."""
    from flows.pipeline.manifest import manifest_head, manifest_table

    events: dict[str, dict[str, object]] = {}
    for name in status:
        if unchanged and name in unchanged:
            events[name] = {"unchanged": True, "check_s": unchanged[name]}
            continue
        t = manifest_table(manifest_head(out / name), "timings")
        if not t:
            continue
        events[name] = {k: t[k] for k in ("total_s", "work_s", "orchestration_s") if k in t}
    wall = ended - started
    flow_s = ended - flow_started
    longest = max((float(e.get("work_s", 0.0)) for e in events.values()), default=0.0)
    return {"wall_s": round(wall, 3), "program_start_s": round(waited - started, 3),
            "imports_s": round(waited - imported, 3),
            "prefect_start_s": round(flow_started - waited, 3),
            "flow_s": round(flow_s, 3),
            "prefect_in_events_s": round(max(flow_s - longest, 0.0), 3),
            "events": events}


def not_built(out: Path, status: dict[str, str], since: float) -> dict[str, float | None]:
    """The events of a run on a cluster that were found unchanged there (the check ran in a
    worker's process, whose :data:`flows.pipeline.unchanged.SKIPPED` this process does not see): those
    that ended "ok" with a manifest written before the run (``since``, wall clock). Their check's
    time is not known here (None)."""
    from flows.pipeline.manifest import manifest_path

    found: dict[str, float | None] = {}
    for name, s in status.items():
        path = manifest_path(out / name)
        with contextlib.suppress(OSError):
            if s == "ok" and path.stat().st_mtime < since:
                found[name] = None
    return found


def _serve(args: argparse.Namespace) -> int:
    """Scheduled operation: serve the top-level flow as a deployment with a cron schedule
    against a Prefect server (``prefect server start``; PREFECT_API_URL points at it)."""
    from flows.pipeline.events import run_events

    run_events.serve(name=args.name, cron=args.cron,
                     parameters={"inputs": str(Path(args.inputs).resolve()),
                                 "out": str(Path(args.out).resolve())})
    return 0


def _deploy(args: argparse.Namespace) -> int:
    from flows.cli.deploy import deploy

    try:
        names = deploy(Path(args.inputs), Path(args.out), pool=args.pool, cron=args.cron or "",
                       timezone=args.timezone or "")
    except ValueError as e:
        print(f"chessfed deploy: {e}", file=sys.stderr)
        return 2
    for name in names:
        print(f"deployed {name} (work pool {args.pool}): start a worker with "
              f"`prefect worker start --pool {args.pool}`")
    return 0


def _import_trf(args: argparse.Namespace) -> int:
    """Exit status: 0 written, 2 the file cannot be taken over (the error names the file, line,
    column, value and reason; nothing written). Prints the files written, then every value of
    event.toml with where it comes from: a record of the file, the games of round 1, or
    assumed."""
    from flows.cli.import_trf import take_over_trf
    from transforms.core.errors import ChessfedError

    try:
        done = take_over_trf(Path(args.trf), Path(args.event), category=args.category)
    except (ChessfedError, OSError, UnicodeDecodeError) as e:
        print(f"chessfed import-trf: {e}", file=sys.stderr)
        return 2
    for path in done.written:
        print(path)
    print("event.toml exists and is kept as it is; what the file gives, to compare with it:"
          if done.toml_kept else
          "what event.toml took from the file and what it assumed (also at its top):")
    for setting in done.settings:
        print(f"  {setting}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="chessfed", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run every event under a folder (or one event folder)")
    r.add_argument("inputs", nargs="?", default="inputs")
    r.add_argument("--out", default="outputs")
    r.add_argument("--as-of", type=dt.date.fromisoformat, default=None,
                   help="date the run is as of (default: event.toml's as_of, else today)")
    r.add_argument("--only", action="append", help="run only this event folder (repeatable)")
    r.add_argument("--dry-run-mail", action="store_true",
                   help="build everything and write the outbox, send nothing over SMTP")
    r.add_argument("--jobs", "-j", type=int, default=None,
                   help="events run at once (default: one per core)")
    r.add_argument("--task-runner", choices=("threads", "dask"), default="threads",
                   help="threads (this process) or dask (prefect-dask: a LocalCluster, or the "
                        "cluster at --dask-address)")
    r.add_argument("--dask-address", default=None,
                   help="the scheduler of a running Dask cluster, e.g. tcp://10.0.0.5:8786")
    r.add_argument("--rebuild", action="store_true",
                   help="build every event again, also those unchanged since their last run")
    r.add_argument("--quiet", "-q", action="store_true",
                   help="no progress lines (each event's status only)")
    r.add_argument("--prefect-ephemeral", action="store_true",
                   help="let Prefect start its own ephemeral server when the flow starts "
                        "(default: chessfed starts `prefect server start` first, so that it "
                        "boots meanwhile)")
    r.set_defaults(func=_run)
    d = sub.add_parser("deploy", help="a deployment per event on a Prefect server, with the "
                       "event's [schedule] (PREFECT_API_URL names the server)")
    d.add_argument("inputs", nargs="?", default="inputs")
    d.add_argument("--out", default="outputs")
    d.add_argument("--pool", default="chessfed", help="the process work pool (created if missing)")
    d.add_argument("--cron", help="the schedule of every event (default: each event's [schedule] cron)")
    d.add_argument("--timezone", help="the time zone of --cron (default: [schedule] timezone, else UTC)")
    d.set_defaults(func=_deploy)
    s = sub.add_parser("serve", help="run every event on a cron schedule (needs a Prefect server)")
    s.add_argument("inputs", nargs="?", default="inputs")
    s.add_argument("--out", default="outputs")
    s.add_argument("--cron", default="0 18 * * *", help="schedule (default: daily at 18:00)")
    s.add_argument("--name", default="chessfed-scheduled")
    s.set_defaults(func=_serve)
    t = sub.add_parser("import-trf", help="start or take over an event from a TRF file (a Swiss, a round "
                       "robin, or a team event from a TRF-2026 team file)")
    t.add_argument("trf")
    t.add_argument("event", help="the event folder to write players.csv and results.csv into "
                   "(a team file: teams.csv, rosters.csv and results.csv)")
    t.add_argument("--category", default="open")
    t.set_defaults(func=_import_trf)
    from flows.cli import berger, check_trf, input_reference, new, server
    from flows.cli import mail as mail_cli
    from flows.cli import norms as norms_cli
    from flows.cli import rating_list as rating_list_cli
    from flows.cli import season_check as season_check_cli
    from flows.cli import standings as standings_cli
    from flows.verify import crosscheck, generate

    for module in (pair_cli, standings_cli, norms_cli, rating_list_cli, season_check_cli, crosscheck, generate, check_trf,
                   input_reference, mail_cli, berger, server, new):
        module.add_parser(sub)
    return p


PROJECT = Path(__file__).resolve().parents[2]


def prefect_settings(env: dict[str, str] | os._Environ, *, verbose: bool = False) -> dict[str, str]:
    """The project's Prefect settings (what ``prefect.toml`` says, which Prefect reads only
    from the current folder) as environment defaults, so that ``chessfed`` behaves the same
    from any folder: state in the project's ``.prefect/``, analytics off, 180 s for an
    ephemeral server's first start, patience with a busy SQLite server (its lock waited 60 s,
    the client retrying a "503 Service Unavailable" 10 times — measured: a 50-event season on a
    Dask LocalCluster of this 2-core machine failed on a 503 when creating an event's flow
    run), INFO logs with chessfed's own to the server. On the terminal of ``chessfed run``
    Prefect's console handler shows warnings only (chessfed prints its own progress lines;
    ``-v``: Prefect's INFO lines too). A value already in the environment wins (e.g.
    ``PREFECT_API_URL`` of a real server); returns what was set."""
    defaults = {"PREFECT_HOME": str(PROJECT / ".prefect"),
                "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
                "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "180",
                "PREFECT_SERVER_DATABASE_TIMEOUT": "60",
                "PREFECT_SERVER_DATABASE_CONNECTION_TIMEOUT": "30",
                "PREFECT_CLIENT_MAX_RETRIES": "10",
                "PREFECT_LOGGING_LEVEL": "INFO",
                "PREFECT_LOGGING_EXTRA_LOGGERS": "chessfed",
                "PREFECT_LOGGING_TO_API_WHEN_MISSING_FLOW": "ignore",
                "PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL": "INFO" if verbose else "WARNING"}
    if verbose:
        env["PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL"] = "INFO"
    added = {k: v for k, v in defaults.items() if k not in env}
    env.update(added)
    return added


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["pair"]:
        # the pairing engine's interface (JaVaFo/bbpPairings), called once per round by
        # arbiters' tools: the same arguments, without loading the rest of chessfed
        return pair_cli.main(argv[1:])
    verbose = bool(argv[:1]) and argv[0] in ("-v", "--verbose")
    if verbose:
        argv = argv[1:]
    prefect_settings(os.environ, verbose=verbose)
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


def console() -> int:
    """The ``chessfed`` command: :func:`main`, then the objects the run made are frozen
    (``gc.freeze``) before Python ends: its last collection then skips them and the system
    takes the memory back at once. Measured at 3,000 players, a changed result: the process
    ended 0.6 s after its work was done, most of it that collection of the run's 400 MB of
    objects. SIGTERM stops the run's own Prefect server too (:func:`stop_on_sigterm`). (Not
    in :func:`main`, which tests call in their own process.)"""
    stop_on_sigterm()
    code = main()
    gc.freeze()
    return code


if __name__ == "__main__":
    sys.exit(console())

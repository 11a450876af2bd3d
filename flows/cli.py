"""The ``chessfed`` command line."""

from __future__ import annotations

import time

_STARTED = time.perf_counter()  # the program's start, for the run's timings

import argparse  # noqa: E402 - after the clock
import atexit  # noqa: E402
import contextlib  # noqa: E402
import datetime as dt  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import os  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
import urllib.request  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

from flows.commands import pair as pair_cli  # noqa: E402

LOCAL_SERVER_SETTINGS = {"PREFECT_SERVER_REGISTER_BLOCKS_ON_START": "false",
                         "PREFECT_SERVER_MEMOIZE_BLOCK_AUTO_REGISTRATION": "false"}
"""The run's own server registers no block types at its start (chessfed uses no blocks; a
server started on the same PREFECT_HOME for its UI registers them itself): measured 4.7 s to
answer instead of 5.5-6.4 s (the registration imports every installed Prefect collection,
prefect-dask and Dask with it, even when nothing is to register)."""


def start_local_server(env: dict[str, str] | os._Environ) -> subprocess.Popen | None:
    """Without ``PREFECT_API_URL``: Prefect's server of the ephemeral kind (no UI, no
    background services; state in PREFECT_HOME) started at once in a process of its own, the
    way Prefect starts it (uvicorn on its application factory, with the replay of requests
    that met a locked database: :mod:`flows.local_server`), so that it boots while this
    process imports and reads the events; ``PREFECT_API_URL`` then names it and it stops when
    chessfed does. Returns None (Prefect then starts its own, later) where a URL is set."""
    if env.get("PREFECT_API_URL"):
        return None
    if importlib.util.find_spec("prefect") is None:
        return None
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--app-dir", str(PROJECT), "--factory",
         "flows.local_server:create_app", "--host", "127.0.0.1", "--port", str(port),
         "--log-level", "error", "--lifespan", "on"],
        env={**env, "PREFECT_UI_ENABLED": "0", "PREFECT__SERVER_EPHEMERAL": "1",
             "PREFECT__SERVER_FINAL": "1", **LOCAL_SERVER_SETTINGS})
    atexit.register(_stop, proc)
    env["PREFECT_API_URL"] = f"http://127.0.0.1:{port}/api"
    return proc


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def wait_for_server(proc: subprocess.Popen | None, env: dict[str, str] | os._Environ,
                    timeout: float = 180) -> None:
    """Until the server :func:`start_local_server` started answers; if it ended instead, the
    run goes on with Prefect's own ephemeral server."""
    if proc is None:
        return
    url = env["PREFECT_API_URL"] + "/health"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            env.pop("PREFECT_API_URL", None)
            return
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"chessfed run: the local Prefect server did not answer within {timeout:.0f} s")


def _run(args: argparse.Namespace) -> int:
    """Exit status (``flows.run_index.EXIT_CODES``): 0 clean, 1 published with rejected input
    rows, 2 an event failed or the command was wrong, 3 an event held back at its last good
    state (or published in part), 4 letters pending or failed."""
    inputs = Path(args.inputs)
    if not inputs.is_dir():
        print(f"chessfed run: {inputs} is not a folder", file=sys.stderr)
        return 2
    from flows.run_index import event_folders

    known = [p.name for p in event_folders(inputs)]
    unknown = sorted(set(args.only or []) - set(known))
    if unknown:
        print(f"chessfed run: no event folder {', '.join(unknown)} under {inputs} "
              f"(there are: {', '.join(known) or 'none'})", file=sys.stderr)
        return 2
    if not args.quiet:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        progress = logging.getLogger("chessfed.progress")
        progress.addHandler(handler)
        progress.setLevel(logging.INFO)
        progress.propagate = False
    folders = [f for f in event_folders(inputs) if not args.only or f.name in args.only]
    checked: dict[str, str] = {}
    if not args.rebuild and folders:
        t_check = time.perf_counter()
        checked = unchanged_events(folders, Path(args.out), args.as_of, not args.dry_run_mail)
        if len(checked) == len(folders):
            return _report_unchanged(args, checked, t_check)
    own = not os.environ.get("PREFECT_API_URL")  # a server of this run's own, not the office's
    server = start_local_server(os.environ) if not args.prefect_ephemeral else None
    try:
        return _run_events(args, inputs, server, own,
                           [f for f in folders if f.name not in checked])
    finally:
        if server is not None:
            _stop(server)
            os.environ.pop("PREFECT_API_URL", None)


def unchanged_events(folders: list[Path], out: Path, as_of: dt.date | None,
                     send_mail: bool) -> dict[str, str]:
    """The events (folder -> event name) whose published outputs still stand
    (:mod:`flows.unchanged`), checked one after another, each under its event's lock, until
    the first that must be built (the run then starts Prefect and builds what needs it; an
    event another run is writing counts as one to build, and the flow reports it busy)."""
    from flows import mailing, progress, publish_folder, unchanged
    from flows.run_index import manifest_of

    found: dict[str, str] = {}
    for folder in folders:
        t = time.perf_counter()
        try:
            with publish_folder.event_lock(out / folder.name):
                reason = unchanged.check(folder, out / folder.name, as_of, send_mail, mail=False)
                due = unchanged.mail_due(out / folder.name) if reason is None and send_mail else 0
                cfg = mailing.event_config(folder, out / folder.name) if due else None
                if cfg is not None:
                    d = mailing.send_stored(folder, out / folder.name, cfg)
                    progress.LOGGER.info("%s: unchanged; %d of %d letters still to send went now",
                                         folder.name, d.sent, due)
                elif due:
                    reason = "letters still to send"
        except publish_folder.Busy:
            return found
        if reason is not None:
            progress.LOGGER.info("%s: to build (%s)", folder.name, reason)
            return found
        progress.LOGGER.info("%s: unchanged since its last run, not built again (checked in "
                             "%.2f s)", folder.name, time.perf_counter() - t)
        found[folder.name] = manifest_of(out / folder.name).get("name") or folder.name
    return found


def _report_unchanged(args: argparse.Namespace, names: dict[str, str], t_check: float) -> int:
    """Every event of the run is unchanged: Prefect is not started; the run's index is written
    again (only if it would differ), then ``run.json`` and the exit status, as after a run."""
    from flows import unchanged
    from flows.io import atomic_write
    from flows.run_index import exit_status, listed_events, outcome, site_index

    out = Path(args.out)
    status = {name: "ok" for name in names}
    index = site_index(out, listed_events(out, list(names)), status, names)
    path = out / "index.html"
    if not path.exists() or path.read_text(encoding="utf-8") != index:
        atomic_write(path, index)
    t_end = time.perf_counter()
    for name, s in status.items():
        print(outcome(out, name, s, unchanged=True).line)
    summary = run_summary(out, status, started=_STARTED, imported=t_check, waited=t_check,
                          flow_started=t_check, flow_ended=t_end, ended=t_end,
                          unchanged=dict(unchanged.SKIPPED))
    summary |= {"jobs": args.jobs, "task_runner": args.task_runner,
                "prefect": "not started: every event unchanged"}
    atomic_write(out / "run.json", json.dumps(summary, indent=2) + "\n")
    if not args.quiet:
        print(f"run: {summary['wall_s']:.1f} s; every event unchanged, Prefect not started — "
              f"{out / 'run.json'}", file=sys.stderr)
    return exit_status(out, status)


def _run_events(args: argparse.Namespace, inputs: Path, server: subprocess.Popen | None,
                own: bool, to_build: list[Path]) -> int:
    """The run once Prefect is needed. While the local server starts, the events are assembled
    (:mod:`flows.prepare`; the events run in this process only with the threads runner). On a server of the run's own (``own``: no PREFECT_API_URL was given) the flow runs
    send no heartbeats: they let a server's services mark a crashed run, and this server has
    none and ends with the run; each flow run's end would wait up to 1 s for the heartbeat
    thread (Prefect 3.9 sleeps it in 1 s steps)."""
    t0 = time.perf_counter()
    from flows import handover, prepare, unchanged
    from flows.events import CLOCK, EVENT_CLOCK, exit_status, run_events

    t_wait = time.perf_counter()
    local = args.task_runner == "threads" and not args.dask_address
    if local:
        from flows.publish import render
    preparer = None
    if server is not None and local and to_build:
        preparer = prepare.Preparer(to_build, Path(args.out), args.as_of, then=render.warm_up)
        handover.PREPARER = preparer.start()
    wait_for_server(server, os.environ)
    t_ready = time.perf_counter()
    if preparer is not None:
        preparer.close()
    if local:
        # the renderers start (in a thread: their fork server first imports WeasyPrint) once
        # the events are prepared, in the rest of the wait for the server (the preparer's
        # ``then``), else now, while Prefect creates the run's flow run; started at once, they
        # would take a core from the server's start, which is on the way to the first event
        threading.Thread(target=render.warm_up, name="chessfed-renderers", daemon=True).start()
    t_call = time.perf_counter()
    called_at = time.time()  # the wall clock, to compare with the manifests' times
    unchanged.SKIPPED.clear()
    try:
        with no_heartbeats() if own else contextlib.nullcontext():
            status = run_events(inputs, Path(args.out), args.as_of, args.only or None,
                                not args.dry_run_mail, jobs=args.jobs, task_runner=args.task_runner,
                                dask_address=args.dask_address, rebuild=args.rebuild)
    finally:
        handover.PREPARER = None
    t_end = time.perf_counter()
    from flows.run_index import outcome

    for name, s in status.items():
        print(outcome(Path(args.out), name, s, unchanged=name in unchanged.SKIPPED).line)
    summary = run_summary(Path(args.out), status, started=_STARTED, imported=t0, waited=t_wait,
                          flow_started=CLOCK.get("flow_started", t_call),
                          flow_ended=CLOCK.get("flow_ended", t_end), ended=t_end,
                          unchanged=dict(unchanged.SKIPPED) if local else
                          not_built(Path(args.out), status, called_at),
                          prepared=preparer.busy_between(t_wait, t_ready) if preparer else 0.0,
                          clocks=EVENT_CLOCK if local else None)
    summary |= {"jobs": args.jobs, "task_runner": args.task_runner}
    from flows.io import atomic_write

    atomic_write(Path(args.out) / "run.json", json.dumps(summary, indent=2) + "\n")
    if not args.quiet:
        print(f"run: {summary['wall_s']:.1f} s; orchestration {summary['orchestration_s']:.1f} s "
              f"({summary['orchestration_share']:.0%}: Prefect's start {summary['prefect_start_s']:.1f} s, "
              f"in the events {summary['prefect_in_events_s']:.1f} s, end "
              f"{summary['prefect_end_s']:.1f} s) — {Path(args.out) / 'run.json'}", file=sys.stderr)
    return exit_status(Path(args.out), status)


def run_summary(out: Path, status: dict[str, str], *, started: float, imported: float,
                waited: float, flow_started: float, flow_ended: float,
                ended: float, unchanged: dict[str, float | None] | None = None, prepared: float = 0.0,
                clocks: dict[str, dict[str, float]] | None = None) -> dict[str, object]:
    """How a run's time divides (``outputs/run.json``): the program's own start (Python,
    imports, reading the events), Prefect's start (waiting for the local server beyond that,
    less the time the events were being assembled meanwhile, ``prepared``, then the flow
    run's creation up to the flow's first line; with ``--prefect-ephemeral`` Prefect's own
    server start falls there too), the events, and Prefect's end. Orchestration = Prefect's
    start + its part in the events + its end.

    Prefect's part of an event: where its task ran in this process (``clocks``, from
    :data:`flows.events.EVENT_CLOCK`), the task's time (from its submission, for the events that
    did not wait for a thread) less the event's steps done in it — so the creation and end of
    the event's flow run count, and events side by side count each in full; elsewhere (a Dask
    worker) its manifest's ``orchestration_s``. An event found unchanged (``unchanged``: name ->
    seconds its check took) was not built: its entry says so (its manifest's timings are those
    of the run that built it)."""
    events: dict[str, dict[str, object]] = {}
    for name in status:
        clock = (clocks or {}).get(name, {})
        task_s = (clock["ended"] - clock.get("submitted", clock["started"])
                  if "started" in clock and "ended" in clock else None)
        if unchanged and name in unchanged:
            events[name] = {"unchanged": True, "check_s": unchanged[name]}
            if task_s is not None and unchanged[name] is not None:
                events[name]["orchestration_s"] = round(max(task_s - unchanged[name], 0.0), 3)
            continue
        try:
            t = json.loads((out / name / "manifest.json").read_text(encoding="utf-8"))["timings"]
        except (OSError, ValueError, KeyError):
            continue
        events[name] = {k: t[k] for k in ("total_s", "work_s", "prepared_s", "orchestration_s")
                        if k in t}
        if task_s is not None and "work_s" in t:
            inside = float(t["work_s"]) - float(t.get("prepared_s", 0.0))
            events[name] |= {"task_s": round(task_s, 3),
                             "orchestration_s": round(max(task_s - inside, 0.0), 3)}
    wall = ended - started
    prefect_start = (flow_started - waited) - prepared
    prefect_end = ended - flow_ended
    inside = sum(float(e.get("orchestration_s", 0.0)) for e in events.values())
    orchestration = prefect_start + inside + prefect_end
    return {"wall_s": round(wall, 3), "program_start_s": round(waited - started, 3),
            "imports_s": round(waited - imported, 3), "prefect_start_s": round(prefect_start, 3),
            "prepared_while_starting_s": round(prepared, 3),
            "events_s": round(flow_ended - flow_started, 3),
            "prefect_in_events_s": round(inside, 3), "prefect_end_s": round(prefect_end, 3),
            "orchestration_s": round(orchestration, 3),
            "orchestration_share": round(orchestration / wall, 3) if wall > 0 else 0.0,
            "events": events}


def not_built(out: Path, status: dict[str, str], since: float) -> dict[str, float | None]:
    """The events of a run on a cluster that were found unchanged there (the check ran in a
    worker's process, whose :data:`flows.unchanged.SKIPPED` this process does not see): those
    that ended "ok" with a manifest written before the run (``since``, wall clock). Their check's
    time is not known here (None)."""
    found: dict[str, float | None] = {}
    for name, s in status.items():
        path = out / name / "manifest.json"
        with contextlib.suppress(OSError):
            if s == "ok" and path.stat().st_mtime < since:
                found[name] = None
    return found


@contextlib.contextmanager
def no_heartbeats() -> Iterator[None]:
    """Prefect's flow-run heartbeats off for what runs inside (threads it starts included)."""
    from prefect.settings import PREFECT_FLOWS_HEARTBEAT_FREQUENCY, temporary_settings

    with temporary_settings(updates={PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None}):
        yield


def _serve(args: argparse.Namespace) -> int:
    """Scheduled operation: serve the top-level flow as a deployment with a cron schedule
    against a Prefect server (``prefect server start``; PREFECT_API_URL points at it)."""
    from flows.events import run_events

    run_events.serve(name=args.name, cron=args.cron,
                     parameters={"inputs": str(Path(args.inputs).resolve()),
                                 "out": str(Path(args.out).resolve())})
    return 0


def _deploy(args: argparse.Namespace) -> int:
    from flows.commands.deploy import deploy

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
    column, value and reason; nothing written)."""
    from flows.commands.demo_inputs import import_trf
    from transforms.core.errors import ChessfedError

    try:
        written = import_trf(Path(args.trf), Path(args.event), category=args.category)
    except (ChessfedError, OSError, UnicodeDecodeError) as e:
        print(f"chessfed import-trf: {e}", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    return 0


def _demo_inputs(args: argparse.Namespace) -> int:
    from flows.commands.demo_inputs import write_demo_inputs

    for path in write_demo_inputs(Path(args.folder)):
        print(path)
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
                   help="let Prefect start its ephemeral server when the flow starts (default: "
                        "chessfed starts the same kind of server first, so it boots meanwhile)")
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
    t = sub.add_parser("import-trf", help="start or take over a Swiss event from a TRF file")
    t.add_argument("trf")
    t.add_argument("event", help="the event folder to write players.csv and results.csv into")
    t.add_argument("--category", default="open")
    t.set_defaults(func=_import_trf)
    d = sub.add_parser("demo-inputs", help="regenerate the committed demo inputs (seeded)")
    d.add_argument("folder", nargs="?", default="inputs")
    d.set_defaults(func=_demo_inputs)
    from flows.commands import berger, check_trf, crosscheck, generate, input_reference, simulate
    from flows.commands import mail as mail_cli
    from flows.commands import standings as standings_cli

    for module in (pair_cli, standings_cli, simulate, crosscheck, generate, check_trf,
                   input_reference, mail_cli, berger):
        module.add_parser(sub)
    return p


PROJECT = Path(__file__).resolve().parents[1]


def prefect_settings(env: dict[str, str] | os._Environ, *, verbose: bool = False) -> dict[str, str]:
    """The project's Prefect settings (what ``prefect.toml`` says, which Prefect reads only
    from the current folder) as environment defaults, so that ``chessfed`` behaves the same
    from any folder: state in the project's ``.prefect/``, analytics and telemetry off, 180 s
    for the ephemeral server's first start, warnings only (``-v``: info), and patience with a
    busy local server: its SQLite database waits 60 s for a lock (not 10) and the client retries
    a "503 Service Unavailable" 10 times (not 5) — measured: a 50-event season on a Dask
    LocalCluster of this 2-core machine (load 7) failed on a 503 when creating an event's flow
    run. A value already in the environment wins (e.g. ``PREFECT_API_URL`` of a real server);
    returns what was set."""
    defaults = {"PREFECT_HOME": str(PROJECT / ".prefect"),
                "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
                "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "180",
                "PREFECT_SERVER_DATABASE_TIMEOUT": "60",
                "PREFECT_SERVER_DATABASE_CONNECTION_TIMEOUT": "30",
                "PREFECT_CLIENT_MAX_RETRIES": "10",
                "PREFECT_LOGGING_LEVEL": "INFO" if verbose else "WARNING"}
    if verbose:
        env["PREFECT_LOGGING_LEVEL"] = "INFO"
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


if __name__ == "__main__":
    sys.exit(main())

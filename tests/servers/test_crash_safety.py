"""Crash safety (issue 14): an event's outputs switch whole (``flows/pipeline/publish_folder.py``). A run
killed at any moment — while its PDFs render, while it writes, while it sends mail — leaves
the previous complete outputs (or, once switched, the new complete ones) in place, and the next
run completes normally; a second run on the same outputs is refused. With real processes:
``chessfed run`` killed with SIGKILL, and a process that dies in the middle of writing."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from flows.mail.outbox import LEDGER, read_ledger
from flows.pipeline import publish_folder
from tests.conftest import output_files, tiny_event
from tests.smtp_servers import Inbox, start

BIN = Path(sys.executable).parent
ROUND_1 = "round,board,white_id,black_id,result\n1,1,A,C,1-0\n1,2,D,B,0-1\n"


def complete(folder: Path) -> bool:
    """Every output the event's manifest lists is there with its checksum: one run's set."""
    import hashlib

    manifest = json.loads((folder / "manifest.json").read_text())
    return all((folder / o["path"]).exists()
               and hashlib.sha256((folder / o["path"]).read_bytes()).hexdigest() == o["sha256"]
               for o in manifest["outputs"] if "sha256" in o)


@pytest.fixture(scope="module")
def api(prefect_harness):
    """The session's Prefect server, for the ``chessfed`` processes started here (so that each
    does not start a server of its own)."""
    from prefect.client.orchestration import get_client

    return str(get_client(sync_client=True).api_url)


def chessfed(api: str, *args: str, **kw) -> subprocess.Popen:
    env = {**os.environ, "PREFECT_API_URL": api, "PREFECT_LOGGING_LEVEL": "WARNING"}
    return subprocess.Popen([str(BIN / "chessfed"), "run", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kw)


def kill_when(proc: subprocess.Popen, seen, timeout: float = 120) -> None:
    """SIGKILL ``proc`` (and its renderers) as soon as ``seen()`` is true."""
    deadline = time.monotonic() + timeout
    while not seen():
        assert proc.poll() is None, f"the run ended before the moment to kill it: {proc.stderr.read()}"
        assert time.monotonic() < deadline, "the moment to kill never came"
        time.sleep(0.002)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


@pytest.fixture
def published(api, tmp_path):
    """An event published once (round 1 paired); round 1's results then entered, so that the
    next run changes pages and PDFs."""
    event = tiny_event(tmp_path / "inputs" / "tiny")
    out = tmp_path / "out"
    proc = chessfed(api, str(tmp_path / "inputs"), "--out", str(out), "-q")
    assert proc.wait(timeout=300) == 0, proc.stderr.read()
    before = output_files(out / "tiny")
    (event / "results.csv").write_text(ROUND_1)
    return tmp_path / "inputs", out, before


def test_killed_while_rendering_pdfs_the_previous_outputs_stay(api, published):
    inputs, out, before = published
    proc = chessfed(api, str(inputs), "--out", str(out), start_new_session=True)
    lines: list[str] = []

    def rendering() -> bool:  # the pages are built: the PDFs are rendering now
        line = proc.stderr.readline()
        lines.append(line)
        return "tiny: pages" in line

    kill_when(proc, rendering)
    assert output_files(out / "tiny") == before
    assert complete(out / "tiny")
    rerun = chessfed(api, str(inputs), "--out", str(out), "-q")
    assert rerun.wait(timeout=300) == 0, rerun.stderr.read()
    after = output_files(out / "tiny")
    assert after != before and complete(out / "tiny")
    assert "standings/round-01.pdf" in after
    assert not (out / publish_folder.WORK / "staging" / "tiny").exists()


def _die_while_writing(out_dir: str, after: int) -> None:
    """A process that stages the event, writes ``after`` files and dies on the spot (no
    cleanup, like SIGKILL)."""
    from flows import io
    from flows.pipeline import outputs

    real = io.atomic_write
    count = [0]

    def dying(path, data):
        if count[0] == after:
            os._exit(9)
        count[0] += 1
        return real(path, data)

    io.atomic_write = dying
    staging = publish_folder.stage(Path(out_dir))
    files = {f"page-{i}.html": f"new {i}" for i in range(10)} | {"index.html": "new home"}
    outputs.write_files(staging, files)
    publish_folder.publish(staging, Path(out_dir))


@pytest.mark.parametrize("after", [0, 3, 10])
def test_a_process_dying_in_the_middle_of_writing_leaves_the_previous_outputs(tmp_path, after):
    out_dir = tmp_path / "out" / "event"
    out_dir.mkdir(parents=True)
    for i in range(10):
        (out_dir / f"page-{i}.html").write_text(f"old {i}")
    (out_dir / "index.html").write_text("old home")
    before = output_files(out_dir)
    p = multiprocessing.get_context("spawn").Process(target=_die_while_writing, args=(str(out_dir), after))
    p.start()
    p.join(60)
    assert p.exitcode == 9
    assert output_files(out_dir) == before
    # the next run clears what the dead one left and switches whole
    staging = publish_folder.stage(out_dir)
    (staging / "index.html").unlink()
    (staging / "index.html").write_text("next home")
    publish_folder.publish(staging, out_dir)
    assert (out_dir / "index.html").read_text() == "next home"
    assert (out_dir / "page-3.html").read_text() == "old 3"
    assert not (tmp_path / "out" / publish_folder.WORK / "staging" / "event").exists()


def test_the_switch_without_an_exchange_of_folders_is_recovered(tmp_path, monkeypatch):
    """Where the file system cannot swap two folders, the switch is two renames; a run killed
    between them leaves the previous outputs parked, and the next run puts them back."""
    out_dir = tmp_path / "out" / "event"
    out_dir.mkdir(parents=True)
    (out_dir / "index.html").write_text("old")
    monkeypatch.setattr(publish_folder, "exchange", lambda a, b: False)
    staging = publish_folder.stage(out_dir)
    (staging / "index.html").unlink()
    (staging / "index.html").write_text("new")
    publish_folder.publish(staging, out_dir)
    assert (out_dir / "index.html").read_text() == "new"
    # killed between the two renames: the event folder is parked in old/
    parked = tmp_path / "out" / publish_folder.WORK / "old" / "event"
    parked.parent.mkdir(parents=True, exist_ok=True)
    os.rename(out_dir, parked)
    publish_folder.recover(out_dir)
    assert (out_dir / "index.html").read_text() == "new"


def test_the_folders_are_exchanged_in_one_step_here(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "x").write_text("a")
    (b / "x").write_text("b")
    assert publish_folder.exchange(a, b)
    assert (a / "x").read_text() == "b" and (b / "x").read_text() == "a"


def test_a_second_run_on_the_same_outputs_is_refused(api, published):
    inputs, out, before = published
    with publish_folder.event_lock(out / "tiny"):
        proc = chessfed(api, str(inputs), "--out", str(out), "-q")
        assert proc.wait(timeout=300) == 2
        stdout = proc.stdout.read()
    assert "tiny: failed:" in stdout and "is being written by another run (pid" in stdout, stdout
    assert output_files(out / "tiny") == before


def test_killed_while_sending_the_new_outputs_are_whole_and_nothing_goes_twice(api, published):
    inputs, out, _ = published
    inbox = Inbox()

    class Slow(Inbox):
        async def handle_DATA(self, server, session, envelope):
            time.sleep(0.3)
            return await inbox.handle_DATA(server, session, envelope)

    ctl = start(Slow())
    try:
        toml = (inputs / "tiny" / "event.toml").read_text()
        toml = toml.replace("[publish]\n", f"[publish]\nsmtp_host = \"127.0.0.1\"\nsmtp_port = {ctl.port}\n"
                                           "smtp_rate_per_minute = 0\n")
        (inputs / "tiny" / "event.toml").write_text(toml)
        players = (inputs / "tiny" / "players.csv").read_text().splitlines()
        (inputs / "tiny" / "players.csv").write_text("\n".join(
            [players[0]] + [f"{row}p{i}@example.org" for i, row in enumerate(players[1:])]) + "\n")
        proc = chessfed(api, str(inputs), "--out", str(out), "-q", start_new_session=True)
        kill_when(proc, lambda: len(inbox.received) >= 1)
        assert complete(out / "tiny")  # switched before the mail: the new outputs, whole
        sent_before = len(inbox.received)
        rerun = chessfed(api, str(inputs), "--out", str(out), "-q")
        code = rerun.wait(timeout=300)
        rows = read_ledger(out / "tiny" / LEDGER)
        unknown = [k for k, r in rows.items() if r["status"] == "unknown"]
        # killed while the server had a letter (DATA): its fate is unknown, never sent again,
        # and the rerun says so by its exit status (4) until the office resolves it
        assert code == (4 if unknown else 0) or (code == 1 and not unknown), (code, unknown,
                                                                             rerun.stderr.read())
        assert all(rows[k]["status"] in ("sent", "unknown") for k in rows), rows
        keys = [e.content.split(b"\r\n\r\n")[0] for e in inbox.received]
        subjects = [next((h for h in k.split(b"\r\n") if h.startswith(b"Subject:")), b"") + b"|" +
                    next((h for h in k.split(b"\r\n") if h.startswith(b"To:")), b"") for k in keys]
        assert len(subjects) == len(set(subjects)), "a message was sent twice"
        assert len(inbox.received) > sent_before
    finally:
        ctl.stop()


def _children(pid: int) -> dict[int, str]:
    """The processes ``pid`` started: pid -> command line."""
    out = {}
    for p in Path("/proc").iterdir():
        try:
            if p.name.isdigit() and (p / "stat").read_text().rsplit(")", 1)[1].split()[1] == str(pid):
                out[int(p.name)] = (p / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError):
            continue
    return out


def test_a_run_stopped_by_sigterm_stops_its_own_prefect_server(tmp_path):
    """``kill`` (SIGTERM: a scheduler or service manager stopping the job) ends the run and the
    Prefect server it started for itself — not the run alone, leaving its server running for
    good (flows/cli/main.py ``stop_on_sigterm``)."""
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    proc = subprocess.Popen([str(BIN / "chessfed"), "run", str(Path(__file__).parents[2] / "inputs"),
                             "--only", "club-open-2025", "--out", str(tmp_path / "out"), "-q",
                             "--dry-run-mail"], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    server = None
    while server is None and time.monotonic() < deadline and proc.poll() is None:
        server = next((c for c, cmd in _children(proc.pid).items() if "prefect server start" in cmd),
                      None)
        time.sleep(0.05)
    assert server is not None, "the run started no server of its own"
    try:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 128 + signal.SIGTERM
        deadline = time.monotonic() + 30
        while running(server) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not running(server), "the run's server outlived it"
    finally:
        if running(server):
            os.kill(server, signal.SIGKILL)


def running(pid: int) -> bool:
    """Whether process ``pid`` is there and not a zombie."""
    try:
        return (Path(f"/proc/{pid}") / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False

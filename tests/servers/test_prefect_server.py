"""Scheduled operation against a real Prefect server (``prefect server start`` with SQLite in a
temporary PREFECT_HOME, a free port): ``chessfed deploy`` creates the work pool and the event's
deployment with its cron and time zone from ``[schedule]``; a run of it, executed by
``prefect worker start``, writes the same outputs as ``chessfed run`` (all but the manifest's
timings). Slow by nature (the server starts in about 20 s): one test."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import TIMED, output_files, tiny_event
from tests.smtp_servers import free_port

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent

SCHEDULE = '[schedule]\ncron = "0 21 * * *"\ntimezone = "Asia/Kolkata"\n'


def wait_until_up(proc: subprocess.Popen, port: int, log: Path, timeout: float) -> None:
    """Until the server ``proc`` started answers on ``port``; the test fails with the end of its
    log if it ends or does not answer within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2):
                return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"{' '.join(map(str, proc.args[:3]))} did not start: "
                            f"{log.read_text()[-3000:]}")
            time.sleep(0.5)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    home = tmp_path_factory.mktemp("prefect-home")
    port = free_port()
    env = {**os.environ, "PREFECT_HOME": str(home), "PREFECT_API_URL": f"http://127.0.0.1:{port}/api",
           "PREFECT_SERVER_ANALYTICS_ENABLED": "false", "PREFECT_LOGGING_LEVEL": "WARNING"}
    for k in ("PREFECT_API_KEY", "PREFECT_PROFILES_PATH"):
        env.pop(k, None)
    log = open(home / "server.log", "w")  # noqa: SIM115 - open for the server's whole life
    proc = subprocess.Popen([str(BIN / "prefect"), "server", "start", "--host", "127.0.0.1",
                             "--port", str(port)], env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_until_up(proc, port, home / "server.log", timeout=180)
        yield env
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def run(args: list[str], env: dict, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run(args, env=env, cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def test_a_deployed_event_runs_on_a_worker_and_publishes_what_chessfed_run_does(server, tmp_path):
    tiny_event(tmp_path / "inputs" / "tiny", extra_toml=SCHEDULE)
    scheduled, direct = tmp_path / "scheduled", tmp_path / "direct"

    r = run([str(BIN / "chessfed"), "deploy", str(tmp_path / "inputs"), "--out", str(scheduled),
             "--pool", "chessfed-test"], server)
    assert r.returncode == 0, r.stderr
    assert "deployed chessfed-run/tiny" in r.stdout
    r = run([str(BIN / "prefect"), "--no-prompt", "deployment", "inspect", "chessfed-run/tiny"], server)
    assert "'cron': '0 21 * * *'" in r.stdout and "'timezone': 'Asia/Kolkata'" in r.stdout

    r = run([str(BIN / "prefect"), "--no-prompt", "deployment", "run", "chessfed-run/tiny"], server)
    assert r.returncode == 0, r.stderr
    r = run([str(BIN / "prefect"), "--no-prompt", "worker", "start", "--pool", "chessfed-test", "--run-once"],
            server)
    assert r.returncode == 0, r.stdout + r.stderr
    manifest = json.loads((scheduled / "tiny" / "manifest.json").read_text())
    assert manifest["event"] == "tiny"
    req = urllib.request.Request(server["PREFECT_API_URL"] + "/flow_runs/filter", method="POST",
                                 data=b"{}", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        # the run asked for above; not one the scheduler made because the test runs at 21:00 in
        # Kolkata (the worker then takes that one too, and the event's lock refuses it)
        states = [fr["state"]["type"] for fr in json.loads(resp.read()) if fr.get("deployment_id")
                  and fr["state"]["type"] != "SCHEDULED" and not fr.get("auto_scheduled")]
    assert states == ["COMPLETED"]

    r = run([str(BIN / "chessfed"), "run", str(tmp_path / "inputs"), "--out", str(direct)], server)
    assert r.returncode == 0, r.stderr
    assert output_files(scheduled, TIMED) == output_files(direct, TIMED)
    assert "pairings/round-01.html" in {k.removeprefix("tiny/") for k in output_files(direct, TIMED)}


# --- the office's server: PostgreSQL (chessfed server / make server), two workers, four events ---

POSTGRES = any(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
STEPS = {"read-config", "read-inputs", "validate", "standings", "audit", "pairing", "pages",
         "pdfs", "messages", "publish", "mail"}
"""The task runs every Swiss event's flow run has (flows/pipeline/tasks.py event_flow, flows/kinds/swiss/flow.py)."""


def api(env: dict, path: str, body: dict | None = None) -> object:
    """One call of the server's REST API (POST with a JSON body, else GET)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(env["PREFECT_API_URL"] + path, data=data,
                                 method="GET" if body is None else "POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read() or b"null")


@pytest.fixture(scope="module")
def office_server(tmp_path_factory):
    """``chessfed server`` (PostgreSQL in a folder of its own, ``prefect server start`` on it)."""
    if not POSTGRES:
        if os.environ.get("CHESSFED_REQUIRE_POSTGRES"):
            pytest.fail("PostgreSQL is not installed (CHESSFED_REQUIRE_POSTGRES is set)")
        pytest.skip("PostgreSQL is not installed (Debian's postgresql)")
    home = tmp_path_factory.mktemp("prefect-office")
    port = free_port()
    env = {**os.environ, "PREFECT_HOME": str(home), "PREFECT_API_URL": f"http://127.0.0.1:{port}/api",
           "PREFECT_SERVER_ANALYTICS_ENABLED": "false", "PREFECT_WORKER_QUERY_SECONDS": "1"}
    for k in ("PREFECT_API_KEY", "PREFECT_PROFILES_PATH"):
        env.pop(k, None)
    # the cluster's folder where PostgreSQL's own user can reach it (it runs as postgres when
    # this is root; pytest's folders are closed to other users)
    pg = Path(tempfile.mkdtemp(prefix="chessfed-postgres-"))
    pg.chmod(0o755)
    log = open(home / "server.log", "w")  # noqa: SIM115 - open for the server's whole life
    proc = subprocess.Popen([str(BIN / "chessfed"), "server", "--folder", str(pg / "cluster"),
                             "--port", str(port)], env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_until_up(proc, port, home / "server.log", timeout=240)
        yield env
    finally:
        proc.terminate()  # SIGTERM: the server, then PostgreSQL
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
    assert proc.returncode is not None
    assert not list((pg / "cluster" / "data").glob("postmaster.pid")), "PostgreSQL still runs"
    shutil.rmtree(pg, ignore_errors=True)


def test_the_office_server_runs_four_events_on_two_workers_as_chessfed_run_does(office_server,
                                                                                 tmp_path):
    """Issue 25's check: a PostgreSQL-backed server, ``chessfed deploy``, two workers, four
    events at once. Every run completes with its steps as named task runs, chessfed's lines in
    the server's logs, the final state of each event named by its outcome, an artifact per
    event, and the outputs of ``chessfed run``; a worker stops cleanly on SIGTERM."""
    env = office_server
    inputs = tmp_path / "inputs"
    names = [f"tiny-{i}" for i in range(1, 5)]
    for name in names:
        tiny_event(inputs / name, event_id=name, extra_toml=SCHEDULE)
    players = inputs / "tiny-4" / "players.csv"
    players.write_text(players.read_text() + "X9,Bad Row,open,Q,2006-13-01,IND,TN,,abc,,quota,,"
                       "2024-08-01T10:00,2000,true,\n")  # rows rejected: a named final state
    scheduled, direct = tmp_path / "scheduled", tmp_path / "direct"
    r = run([str(BIN / "chessfed"), "deploy", str(inputs), "--out", str(scheduled),
             "--pool", "office"], env)
    assert r.returncode == 0, r.stderr
    workers = [subprocess.Popen([str(BIN / "prefect"), "worker", "start", "--pool", "office",
                                 "--name", f"worker-{i}"], env=env, cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
               for i in (1, 2)]
    try:
        runs = []
        for name in names:
            dep = api(env, f"/deployments/name/chessfed-run/{name}")
            runs.append(api(env, f"/deployments/{dep['id']}/create_flow_run", {})["id"])
        deadline = time.monotonic() + 600
        while True:
            found = api(env, "/flow_runs/filter", {"flow_runs": {"id": {"any_": runs}}})
            if all(fr["state"]["type"] in ("COMPLETED", "FAILED", "CRASHED", "CANCELLED")
                   for fr in found) and len(found) == len(runs):
                break
            assert time.monotonic() < deadline, [fr["state"] for fr in found]
            time.sleep(1)
        assert [fr["state"]["type"] for fr in found] == ["COMPLETED"] * 4
        assert len({fr["work_queue_name"] for fr in found}) == 1
        events = api(env, "/flow_runs/filter", {"flow_runs": {"parent_task_run_id": {"is_null_": False}}})
        by_name = {fr["name"]: fr for fr in events if fr["name"] in names}
        assert set(by_name) == set(names)  # each event's flow run named by its folder
        assert {n: fr["state"]["name"] for n, fr in by_name.items()} == {
            "tiny-1": "Completed", "tiny-2": "Completed", "tiny-3": "Completed",
            "tiny-4": "Rejected rows"}
        assert "rejected" in by_name["tiny-4"]["state"]["message"]
        for name, fr in by_name.items():
            for _ in range(60):  # task runs reach the server as events, the last ones (publish,
                # mail) at times after the flow run's final state (seen once in `make test`)
                tasks = api(env, "/task_runs/filter", {"flow_runs": {"id": {"any_": [fr["id"]]}}})
                steps = {t["name"].rsplit("-", 1)[0] for t in tasks}  # "validate-a1b": its step
                if steps >= STEPS:
                    break
                time.sleep(0.5)
            assert steps >= STEPS, (name, sorted(steps))
            lines: list[str] = []
            for _ in range(60):  # a flow run's last lines reach the server as its process ends
                logs = api(env, "/logs/filter", {"logs": {"flow_run_id": {"any_": [fr["id"]]}},
                                                 "limit": 200})
                lines = [x["message"] for x in logs]
                if any(m.startswith(f"{name}: done in ") for m in lines):
                    break
                time.sleep(0.5)
            assert any(m.startswith(f"{name}: pages ") for m in lines), lines
            assert any(m.startswith(f"{name}: done in ") for m in lines), lines
        keys = {a["key"] for a in api(env, "/artifacts/filter", {})}
        assert {f"chessfed-{n}" for n in names} <= keys
        workers[1].send_signal(signal.SIGTERM)
        assert workers[1].wait(timeout=60) == 0, workers[1].stdout.read()[-3000:]
    finally:
        for w in workers:
            if w.poll() is None:
                w.send_signal(signal.SIGTERM)
                try:
                    w.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    w.kill()
    r = run([str(BIN / "chessfed"), "run", str(inputs), "--out", str(direct)], env)
    assert r.returncode == 1, r.stderr  # published, with tiny-4's rejected rows
    for name in names:
        assert output_files(scheduled / name, TIMED) == output_files(direct / name, TIMED), name


# --- what the office finds in Prefect's history after `chessfed run` (issue "Step 19") ---

def read_history(home: Path, env: dict, flow_run: str) -> dict[str, str]:
    """Prefect's history of the event ``flow_run`` as the office opens it: ``prefect server
    start`` on the Prefect home a run used (a free port, no services: it only reads), then
    Prefect's client. Returns each task run's step (its name without the suffix Prefect
    gives each run: "validate-a1b" -> "validate") -> its state's type."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId, FlowRunFilterName
    from prefect.settings import PREFECT_API_URL, temporary_settings

    port = free_port()
    log = open(home / "history-server.log", "w")  # noqa: SIM115 - open for the server's life
    proc = subprocess.Popen([str(BIN / "prefect"), "server", "start", "--host", "127.0.0.1",
                             "--port", str(port), "--no-services", "--no-ui"], env=env, cwd=ROOT,
                            stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_until_up(proc, port, home / "history-server.log", timeout=180)
        with temporary_settings({PREFECT_API_URL: f"http://127.0.0.1:{port}/api"}), \
                get_client(sync_client=True) as client:
            runs = client.read_flow_runs(flow_run_filter=FlowRunFilter(
                name=FlowRunFilterName(any_=[flow_run])))
            assert [r.state_type.value for r in runs] == ["COMPLETED"], runs
            tasks = client.read_task_runs(flow_run_filter=FlowRunFilter(
                id=FlowRunFilterId(any_=[runs[0].id])))
            return {t.name.rsplit("-", 1)[0]: t.state_type.value for t in tasks}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.mark.parametrize("mode", [[], ["--prefect-ephemeral"]], ids=["own-server", "ephemeral"])
def test_chessfed_run_leaves_every_step_of_its_event_as_a_finished_task_run_in_prefects_history(
        mode, tmp_path):
    """A plain ``chessfed run`` (its own ``prefect server start``, stopped when it ends) and one
    on Prefect's ephemeral server: the same Prefect home opened afterwards shows the event's
    flow run with every step as a task run in a final state, not "0 task runs" (Prefect 3
    records task runs from the events the client sends, in the server's task run recorder)."""
    home = tmp_path / "prefect-home"
    home.mkdir()
    env = {**os.environ, "PREFECT_HOME": str(home), "PREFECT_SERVER_ANALYTICS_ENABLED": "false"}
    for k in ("PREFECT_API_URL", "PREFECT_API_KEY", "PREFECT_PROFILES_PATH"):
        env.pop(k, None)
    tiny_event(tmp_path / "inputs" / "tiny")
    r = run([str(BIN / "chessfed"), "run", str(tmp_path / "inputs"), "--out", str(tmp_path / "out"),
             *mode], env)
    assert r.returncode == 0, r.stderr

    steps = read_history(home, env, "tiny")
    from transforms.swiss.event import RULE_STEPS

    assert set(steps) >= STEPS | {name for name, _ in RULE_STEPS}, sorted(steps)
    assert {s: t for s, t in steps.items() if t != "COMPLETED"} == {}

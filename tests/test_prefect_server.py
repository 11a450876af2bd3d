"""Scheduled operation against a real Prefect server (``prefect server start`` with SQLite in a
temporary PREFECT_HOME, a free port): ``chessfed deploy`` creates the work pool and the event's
deployment with its cron and time zone from ``[schedule]``; a run of it, executed by
``prefect worker start``, writes the same outputs as ``chessfed run`` (all but the manifest's
timings). Slow by nature (the server starts in about 20 s): one test."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import TIMED, output_files, tiny_event
from tests.smtp_servers import free_port

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

SCHEDULE = '[schedule]\ncron = "0 21 * * *"\ntimezone = "Asia/Kolkata"\n'


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
        deadline = time.monotonic() + 180
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the Prefect server did not start: {(home / 'server.log').read_text()[-2000:]}")
                time.sleep(0.5)
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
        states = [fr["state"]["type"] for fr in json.loads(resp.read()) if fr.get("deployment_id")
                  and fr["state"]["type"] != "SCHEDULED"]
    assert states == ["COMPLETED"]

    r = run([str(BIN / "chessfed"), "run", str(tmp_path / "inputs"), "--out", str(direct)], server)
    assert r.returncode == 0, r.stderr
    assert output_files(scheduled, TIMED) == output_files(direct, TIMED)
    assert "pairings/round-01.html" in {k.removeprefix("tiny/") for k in output_files(direct, TIMED)}

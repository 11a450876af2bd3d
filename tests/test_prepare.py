"""What `chessfed run` does while Prefect's local server starts (issue 13, orchestration that
costs little): the events assembled beforehand (flows/prepare.py, flows/handover.py) publish
byte for byte what the flows publish alone; a preparation made from other inputs, for another
date or folder, or that failed, is not used; the server's replay of requests that met a locked
database and its warm start (flows/local_server.py); no task cache; the run's accounting of Prefect's share (flows/cli.py
`run_summary`); no heartbeats on the run's own server."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from pathlib import Path

import pytest

from flows import handover, unchanged
from flows.cli import no_heartbeats, run_summary
from flows.local_server import WARM_UP, RetryLocked, WarmStart
from flows.prepare import Preparer, prepare_event
from tests.conftest import TIMED, output_files, tiny_event


def test_a_prepared_run_publishes_what_the_flows_publish_alone(demo_run, tmp_path):
    """The demo events (and the malformed one) prepared before their flows start: every
    output but the timed ones equal to the unprepared run's first run, and each good event's
    manifest says its work was prepared (the flows took it: without the handover this fails)."""
    from flows.events import run_events

    base, out, status, first, _s2, _second = demo_run
    fresh = tmp_path / "out"
    folders = sorted(p for p in (base / "inputs").iterdir() if (p / "event.toml").exists())
    preparer = Preparer(folders, fresh, None).start()
    preparer.wait()
    handover.PREPARER = preparer
    try:
        status2 = run_events(base / "inputs", fresh)
    finally:
        handover.PREPARER = None
    assert status2 == status
    expected = {str(k): v for k, v in first.items() if Path(k).name not in TIMED}
    assert output_files(fresh, skip=TIMED) == expected
    for event in ("golden-knights-2019", "national-junior-2024"):
        timings = json.loads((fresh / event / "manifest.json").read_text())["timings"]
        assert timings["prepared_s"] > 0 and timings["pages_s"] > 0


def test_a_preparation_is_used_only_for_the_same_inputs_date_folder_and_renderer(tmp_path):
    folder = tiny_event(tmp_path / "in" / "tiny").resolve()
    out = tmp_path / "out" / "tiny"
    sha = unchanged.inputs_fingerprint(folder)

    def prepared() -> Preparer:
        p = Preparer([folder], tmp_path / "out", None).start()
        p.wait()
        return p

    assert prepared().take(folder, sha, None, out, "local") is not None
    p = prepared()
    assert p.take(folder, sha, None, out, "local") is not None
    assert p.take(folder, sha, None, out, "local") is None  # handed over once
    assert prepared().take(folder, sha, dt.date(2024, 9, 20), out, "local") is None
    assert prepared().take(folder, sha, None, tmp_path / "elsewhere" / "tiny", "local") is None
    assert prepared().take(folder, sha, None, out, "dask") is None
    p = prepared()
    (folder / "results.csv").write_text("round,board,white_id,black_id,result\n")
    assert p.take(folder, unchanged.inputs_fingerprint(folder), None, out, "local") is None
    assert Preparer([folder], tmp_path / "out", None).take(folder, sha, None, out, "local") is None


def test_a_preparation_that_fails_leaves_the_event_to_its_flow(tmp_path):
    folder = tiny_event(tmp_path / "in" / "tiny").resolve()
    (folder / "event.toml").write_text("[event\n")  # not TOML: the flow reports it
    p = Preparer([folder], tmp_path / "out", None).start()
    p.wait()
    assert p.take(folder, unchanged.inputs_fingerprint(folder), None, tmp_path / "out" / "tiny",
                  "local") is None


def test_once_closed_the_preparer_starts_no_new_event_and_then_runs_its_follow_up(tmp_path):
    folders = [tiny_event(tmp_path / "in" / n, n).resolve() for n in ("a", "b")]
    ran: list[str] = []
    closed = Preparer(folders, tmp_path / "out", None, then=lambda: ran.append("closed"))
    closed.close()
    closed.start().wait()
    assert closed.take(folders[0], unchanged.inputs_fingerprint(folders[0]), None,
                       tmp_path / "out" / "a", "local") is None
    assert ran == []  # the server answered first: the command line starts the renderers itself
    both = Preparer(folders, tmp_path / "out", None, then=lambda: ran.append("done"))
    both.start().wait()
    assert ran == ["done"]
    for f in folders:
        assert both.take(f, unchanged.inputs_fingerprint(f), None, tmp_path / "out" / f.name,
                         "local") is not None


def test_a_prepared_event_carries_its_steps_and_what_ran_before_its_flow(tmp_path):
    folder = tiny_event(tmp_path / "in" / "tiny").resolve()
    done = prepare_event(folder, tmp_path / "out" / "tiny", None)
    assert done.date == dt.date(2024, 9, 20) and done.pub.files and done.letters
    cfg, date, pub, letters, step = done.handed_over(done.ended + 5)
    assert pub.timings["prepared_s"] == round(done.ended - done.started, 3)
    assert {"read_s", "validate_s", "pages_s"} <= set(pub.timings)
    assert step.timings is pub.timings and date == done.date
    # a flow that started while the preparation was still going: only the part before counts
    half = (done.ended - done.started) / 2
    done.handed_over(done.started + half)
    assert pub.timings["prepared_s"] == round(half, 3) < round(done.ended - done.started, 3)


class Locked:
    """An ASGI app answering 503 ``locked`` times (raising afterwards, as Starlette does after
    its error handler answered), then 200 with the body it read."""

    def __init__(self, locked: int) -> None:
        self.locked = locked
        self.bodies: list[bytes] = []
        self.paths: list[str] = []

    async def __call__(self, scope, receive, send):
        self.paths.append(scope["path"])
        message = await receive()
        self.bodies.append(message["body"])
        scope["path"] = "/rewritten"  # routing rewrites the scope: a replay must not see it
        status = 503 if len(self.bodies) <= self.locked else 200
        await send({"type": "http.response.start", "status": status, "headers": []})
        await send({"type": "http.response.body", "body": message["body"]})
        if status == 503:
            raise RuntimeError("database is locked")


def call(app, body: bytes = b'{"name": "x"}', chunks: int = 2):
    sent: list[dict] = []
    parts = [body[: len(body) // 2], body[len(body) // 2:]] if chunks == 2 else [body]
    incoming = [{"type": "http.request", "body": b, "more_body": i < len(parts) - 1}
                for i, b in enumerate(parts)]

    async def receive():
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    asyncio.run(app({"type": "http", "path": "/api/task_runs/"}, receive, send))
    return sent


def test_the_server_replays_a_request_that_met_a_locked_database():
    app = Locked(locked=2)
    sent = call(RetryLocked(app, delays=(0.0, 0.0, 0.0)))
    assert [m.get("status") for m in sent] == [200, None]
    assert sent[1]["body"] == b'{"name": "x"}' and app.bodies == [b'{"name": "x"}'] * 3
    assert app.paths == ["/api/task_runs/"] * 3


def test_after_its_replays_the_server_answers_the_503_and_its_error():
    app = Locked(locked=5)
    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request", "body": b"{}", "more_body": False}

    with pytest.raises(RuntimeError):
        asyncio.run(RetryLocked(app, delays=(0.0,))({"type": "http", "path": "/x"}, receive, send))
    assert len(app.bodies) == 2 and sent[0]["status"] == 503 and app.paths == ["/x", "/x"]


def test_other_answers_and_other_scopes_pass_through_once():
    app = Locked(locked=0)
    assert [m.get("status") for m in call(RetryLocked(app), chunks=1)] == [200, None]
    assert len(app.bodies) == 1
    seen = []

    async def lifespan(scope, receive, send):
        seen.append(scope["type"])

    asyncio.run(RetryLocked(lifespan)({"type": "lifespan"}, None, None))
    assert seen == ["lifespan"]


class Booting:
    """An ASGI app with a lifespan (start, then stop) that logs, in order, its start and each
    HTTP request it answers (200; ``fail``: a path whose request raises)."""

    def __init__(self, fail: str = "") -> None:
        self.fail = fail
        self.log: list[str] = []

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            assert (await receive())["type"] == "lifespan.startup"
            self.log.append("started")
            await send({"type": "lifespan.startup.complete"})
            assert (await receive())["type"] == "lifespan.shutdown"
            await send({"type": "lifespan.shutdown.complete"})
            return
        if scope["path"] == self.fail:
            raise RuntimeError("cold")
        self.log.append(f"{scope['method']} {scope['path']}")
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})


def boot(app: WarmStart) -> list[tuple[str, list[str]]]:
    """The lifespan messages the server (uvicorn) gets, each with the app's log at that time."""
    inner = app.app
    messages = [{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}]
    told: list[tuple[str, list[str]]] = []

    async def receive():
        return messages.pop(0)

    async def send(message):
        told.append((message["type"], list(inner.log)))

    asyncio.run(app({"type": "lifespan"}, receive, send))
    return told


def test_the_server_makes_its_first_requests_before_it_says_it_has_started():
    """Regression (session 8): the run's first requests met a cold server (0.39 s for the
    first request, 0.24 s for the first database read) on the way to its first flow run; the
    warm-up makes them while the server starts, before uvicorn is told it may answer."""
    app = WarmStart(Booting())
    told = boot(app)
    warm = [f"{m} {p}" for m, p, _ in WARM_UP]
    assert told[0] == ("lifespan.startup.complete", ["started", *warm])
    assert told[1][0] == "lifespan.shutdown.complete"
    assert app.answers == [200] * len(WARM_UP)


def test_a_failed_warm_up_request_does_not_stop_the_server_from_starting():
    app = WarmStart(Booting(fail=WARM_UP[0][1]))
    told = boot(app)
    assert told[0][0] == "lifespan.startup.complete"
    assert app.answers == [0] + [200] * (len(WARM_UP) - 1)
    seen = []

    async def echo(scope, receive, send):
        seen.append(scope["type"])

    asyncio.run(WarmStart(echo)({"type": "http", "path": "/api/health"}, None, None))
    assert seen == ["http"]  # requests pass through untouched


def test_no_chessfed_task_hashes_its_inputs():
    """Prefect's default cache policy would pickle and hash every input of every task (an
    event's pages and PDFs: 12 MB for the demo's Swiss event) for a cache chessfed never
    reads; every task of the run has none."""
    from prefect import Task
    from prefect.cache_policies import NO_CACHE

    from flows import events, tasks

    found = [t for m in (tasks, events) for t in vars(m).values() if isinstance(t, Task)]
    assert {t.name for t in found} >= {"event", "read_config", "read_inputs", "render_pdfs",
                                       "write_outputs"}
    assert [t.name for t in found if t.cache_policy is not NO_CACHE] == []


def manifest(out: Path, name: str, **timings) -> None:
    (out / name).mkdir(parents=True)
    (out / name / "manifest.json").write_text(json.dumps({"timings": timings}))


def test_prefects_share_counts_its_waits_not_the_work_done_meanwhile(tmp_path):
    """The wait for the server counts less what was prepared meanwhile; an event's part is its
    task's time (from its submission) less its steps done inside it (so its flow run's creation
    and end count); an event without a clock (a Dask worker) keeps its manifest's figure."""
    manifest(tmp_path, "a", total_s=5.0, work_s=9.0, prepared_s=4.5, orchestration_s=0.5)
    manifest(tmp_path, "b", total_s=6.0, work_s=6.0, orchestration_s=0.0)
    manifest(tmp_path, "c", total_s=2.0, work_s=1.5, orchestration_s=0.5)
    clocks = {"a": {"submitted": 10.0, "started": 10.2, "ended": 16.0},
              "b": {"started": 10.5, "ended": 17.0}}
    s = run_summary(tmp_path, {"a": "ok", "b": "ok", "c": "ok"}, started=0.0, imported=0.5,
                    waited=2.0, flow_started=8.0, flow_ended=17.5, ended=18.0,
                    prepared=3.0, clocks=clocks)
    assert s["prefect_start_s"] == 3.0  # 6 s from the wait to the flow's first line, 3 s prepared
    assert s["events"]["a"]["orchestration_s"] == 1.5  # 6.0 - (9.0 - 4.5)
    assert s["events"]["b"]["orchestration_s"] == 0.5  # 6.5 - 6.0
    assert s["events"]["c"]["orchestration_s"] == 0.5
    assert s["prefect_in_events_s"] == 2.5 and s["prefect_end_s"] == 0.5
    assert s["orchestration_s"] == 6.0 and s["orchestration_share"] == round(6.0 / 18.0, 3)


def test_flow_runs_on_the_runs_own_server_send_no_heartbeats():
    from prefect.settings import get_current_settings

    before = get_current_settings().flows.heartbeat_frequency
    with no_heartbeats():
        assert get_current_settings().flows.heartbeat_frequency is None
    assert get_current_settings().flows.heartbeat_frequency == before is not None

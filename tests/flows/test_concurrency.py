"""Many events at once (issue 13): the events of a run are independent flow runs executed
side by side (``jobs`` bounded), on threads or on a Dask cluster (prefect-dask); the outputs
are byte for byte those of one event after another, and one event's crash stays its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import TIMED, output_files, tiny_event


@pytest.fixture(scope="module")
def season(tmp_path_factory) -> Path:
    """Three small Swiss events and one that crashes while it is read (its players.csv is a
    folder: the read task fails after its retries)."""
    base = tmp_path_factory.mktemp("season") / "inputs"
    for name in ("east", "north", "west"):
        tiny_event(base / name, event_id=name)
    crash = tiny_event(base / "crash", event_id="crash")
    (crash / "players.csv").unlink()
    (crash / "players.csv").mkdir()
    return base


def event_runs(out: Path) -> list[tuple[str, float, float]]:
    """(task run, start, end) of every ``event`` task of the run that wrote into ``out``: when
    each event was being worked on (its thread or Dask worker picked it up)."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import (
        FlowFilter,
        FlowFilterName,
        FlowRunFilter,
        FlowRunFilterId,
    )

    with get_client(sync_client=True) as client:
        runs = [r for r in client.read_flow_runs(
            flow_filter=FlowFilter(name=FlowFilterName(any_=["chessfed-run"])), limit=200)
            if str(r.parameters.get("out")) == str(out)]
        assert len(runs) == 1, runs
        tasks = client.read_task_runs(flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[runs[0].id])))
    return sorted((t.name, t.start_time.timestamp(), t.end_time.timestamp())
                  for t in tasks if t.name.startswith("event") and t.start_time and t.end_time)


def overlapping(runs: list[tuple[str, float, float]]) -> bool:
    return any(a[1] < b[2] and b[1] < a[2] for i, a in enumerate(runs) for b in runs[i + 1:])


@pytest.fixture(scope="module")
def one_by_one(prefect_harness, season, tmp_path_factory):
    from flows.pipeline.events import events_flow, statuses

    out = tmp_path_factory.mktemp("sequential") / "out"
    return out, statuses(events_flow(jobs=1)(season, out, return_state=True))


def test_one_event_after_another_when_jobs_is_1(one_by_one):
    out, status = one_by_one
    assert {k: v == "ok" for k, v in status.items()} == {"crash": False, "east": True,
                                                          "north": True, "west": True}
    assert "players.csv" in status["crash"]
    assert not overlapping(event_runs(out))


def test_events_run_side_by_side_with_the_same_outputs(one_by_one, season, tmp_path):
    from flows.pipeline.events import events_flow, statuses

    seq_out, seq_status = one_by_one
    out = tmp_path / "out"
    status = statuses(events_flow(jobs=3)(season, out, return_state=True))
    assert status == seq_status  # the crash is the crashing event's alone
    assert len(event_runs(out)) == 4
    assert overlapping(event_runs(out)), "jobs=3: the events should be worked on at the same time"
    assert output_files(out, TIMED) == output_files(seq_out, TIMED)
    assert not (out / "crash" / "manifest.json").exists()  # never published
    assert "east/pairings/round-01.html" in output_files(out, TIMED)


def test_a_dask_cluster_gives_the_same_outputs_byte_for_byte(one_by_one, season, tmp_path,
                                                             monkeypatch):
    """The events are tasks of a Dask LocalCluster (worker processes: the scheduler's task
    list shows them; started as ``chessfed run --task-runner dask`` starts them, processes that
    may start processes), each worker one event at a time with its PDFs rendered in a renderer
    process of its own and by itself while it waits — no other task on the cluster, never more
    events at once than workers (when the PDFs were tasks of the cluster, an event waiting on
    them left its worker's thread pool and every event of a season ran at once); the outputs
    equal the local run's."""
    import dask
    import distributed
    from prefect.client.orchestration import get_client

    from flows.pipeline.events import events_flow, statuses

    seq_out, seq_status = one_by_one
    # the workers, started below, find this session's Prefect server
    monkeypatch.setenv("PREFECT_API_URL", str(get_client(sync_client=True).api_url))
    with dask.config.set({"distributed.worker.daemon": False}), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                     dashboard_address=None) as cluster:
        out = tmp_path / "out"
        status = statuses(events_flow(dask_address=cluster.scheduler_address)(
            season, out, renderer="dask", return_state=True))
        prefixes = set(cluster.scheduler.task_prefixes)
    assert status == seq_status
    assert output_files(out, TIMED) == output_files(seq_out, TIMED)
    assert prefixes == {"run_event"}, prefixes
    runs = event_runs(out)
    assert overlapping(runs)
    assert max(sum(1 for r in runs if r[1] <= t < r[2]) for _, t, _ in runs) <= 2, runs

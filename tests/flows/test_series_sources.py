"""A series' events read by the pipeline (flows/pipeline/tasks.py ``read_source``): a
crosstable inside the series' folder (issue 47)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from transforms.kinds import event_result

KESHMAT = Path(__file__).resolve().parents[1] / "data" / "series" / "keshmat"
AS_OF = dt.date(2026, 6, 30)



def test_a_series_reads_a_crosstable_inside_its_folder_and_refuses_a_broken_one(tmp_path):
    """read_source: an ``.xlsx`` inside the series' folder is read as its cells (with its
    checksum, for the next run), a file that is no workbook is the event's error, not a crash;
    a name leading outside the folder is refused by the configuration."""
    import shutil

    from flows.pipeline.tasks import read_source
    from transforms.core.results import source_name_ok

    series = tmp_path / "circuit"
    (series / "events").mkdir(parents=True)
    shutil.copy(KESHMAT / "may.xlsx", series / "events" / "may.xlsx")
    (series / "events" / "june.xlsx").write_bytes(b"not a zip")
    got = read_source(series, tmp_path / "out" / "circuit", "events/may.xlsx")
    assert got.rows is not None and got.digest and not got.error
    assert event_result(got, AS_OF).finishes[0].name == "Kaloust Giorgio"
    bad = read_source(series, tmp_path / "out" / "circuit", "events/june.xlsx")
    assert bad.rows is None and "not an Excel workbook" in bad.error
    assert read_source(series, tmp_path / "out", "events/july.xlsx").missing
    assert source_name_ok("events/may.xlsx") and not source_name_ok("../may.xlsx")


def test_an_event_folders_files_are_read_when_first_asked_for(tmp_path):
    """read_source: a series' event folder comes with its files unread (``EventFiles``): a
    result the series takes from its last run reads only players.csv (the addresses); what is
    read is what ``read_files`` reads, file by file, under the event's limits."""
    import shutil

    from flows.pipeline.tasks import read_files, read_source

    root = Path(__file__).resolve().parents[2] / "inputs"
    shutil.copytree(root / "riverside-rapid-2026-03", tmp_path / "inputs" / "rapid")
    got = read_source(tmp_path / "inputs" / "circuit", tmp_path / "out" / "circuit", "rapid")
    assert got.digest and not got.error and got.config is not None
    assert got.raw.read == {}  # type: ignore[attr-defined]
    assert "players.csv" in got.raw and "results.csv" in got.raw
    players = got.raw["players.csv"]
    assert list(got.raw.read) == ["players.csv"]  # type: ignore[attr-defined]
    whole = read_files(tmp_path / "inputs" / "rapid", list(got.config.files))
    assert set(got.raw) == set(whole)
    assert players[0].equals(whole["players.csv"][0])
    assert all(got.raw[n][0].equals(whole[n][0]) for n in whole)

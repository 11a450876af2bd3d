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

"""A folder ``chessfed new`` started runs as it is, through the real flows, for every kind and
every rules part the registry has (Step 19, "every kind shows itself"): the event publishes its
home with nothing entered yet, no traceback, no rejected row (the empty players' or members'
file is one warning). Parametrized over the registry, so that a kind registered tomorrow is run
here without a line more. (The folder itself: tests/cli/test_new_event.py.)"""

from __future__ import annotations

import csv
import datetime as dt

import pytest

from flows.cli.new import new_event
from transforms.kinds import KINDS

DAY = dt.date(2026, 3, 14)
EVERY_KIND_AND_PART = [pytest.param(k.kind.value, None, id=k.kind.value) for k in KINDS.values()] + [
    pytest.param(k.kind.value, p, id=f"{k.kind.value}-{p}") for k in KINDS.values() for p in k.parts]


@pytest.mark.parametrize(("kind", "part"), EVERY_KIND_AND_PART)
def test_a_new_folder_runs_untouched_and_publishes_the_events_home(prefect_harness, tmp_path,
                                                                   kind, part):
    from flows.pipeline.events import run_events
    from flows.pipeline.run_index import exit_status

    folder = tmp_path / "inputs" / "new-event"
    new_event(kind, folder, rules=part, today=DAY)
    out = tmp_path / "out"
    status = run_events(folder, out, as_of=DAY)
    assert status == {"new-event": "ok"} and exit_status(out, status) == 0
    home = (out / "new-event" / "index.html").read_text(encoding="utf-8")
    assert "New Event" in home and "to be completed" in home  # the placeholders, as printed
    with open(out / "new-event" / "office" / "validation.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert rows and {r["severity"] for r in rows} == {"warning"}
    if new_files(kind, part):
        assert {r["reason"] for r in rows} == {"the file has a header and no rows"}
    else:  # a series reads no file of its own: its events are not there yet
        assert [r["column"] for r in rows] == ["series.events"]


def new_files(kind: str, part: str | None) -> bool:
    """Whether ``chessfed new`` writes input files for the kind (a series has none of its own)."""
    from transforms.kinds import KINDS, PARTS, EventKind

    return bool(KINDS[EventKind(kind)].schemas or (part and PARTS[part].schemas))

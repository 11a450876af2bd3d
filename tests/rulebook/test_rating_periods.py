"""FIDE B.02: an event longer than 30 days reports its results by rating period (the month a
list is valid), each period's report as its rounds are complete — the demo's club open (seven
Tuesdays from 2 September to 14 October 2025) played to its end: September's five rounds and
October's two, each its own report, its rounds numbered from 1 (transforms/fide/rating_report.py
``rating_periods``, ``period_report``; transforms/swiss/exports.py ``period_rating_reports``)."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from flows import io
from flows.devtools.simulate import simulate
from transforms.core.errors import Severity
from transforms.fide.rating_report import rating_periods
from transforms.fide.trf import parse_trf
from transforms.kinds import parse_event_config
from transforms.swiss.event import run_swiss

ROOT = Path(__file__).resolve().parents[2]
D = dt.date


def test_a_month_is_a_period_and_thirty_days_one_report():
    tuesdays = tuple(D(2025, 9, 2) + dt.timedelta(days=7 * i) for i in range(7))
    assert rating_periods(tuesdays) == [(D(2025, 9, 1), (1, 2, 3, 4, 5)), (D(2025, 10, 1), (6, 7))]
    short = (D(2025, 9, 20), D(2025, 10, 20))  # 30 days: one report, whatever the months
    assert rating_periods(short) == [(D(2025, 9, 1), (1, 2))]
    assert rating_periods(short[:1] + (D(2025, 10, 21),)) == [(D(2025, 9, 1), (1,)),
                                                             (D(2025, 10, 1), (2,))]


@pytest.fixture(scope="module")
def club_open(tmp_path_factory) -> Path:
    event = tmp_path_factory.mktemp("periods") / "club-open"
    shutil.copytree(ROOT / "inputs" / "club-open-2025", event)
    simulate(event)  # to its last round
    return event


def run(event: Path, through: int | None = None):
    cfg = parse_event_config((event / "event.toml").read_text(encoding="utf-8"))
    raw = {n: io.read_csv_strings(event / n) for n in cfg.files if (event / n).exists()}
    if through is not None:
        frame, found = raw["results.csv"]
        raw["results.csv"] = (frame.filter(frame["round"].cast(int) <= through), found)
    return run_swiss(cfg, raw, D(2025, 11, 1))


def test_each_period_is_reported_with_its_rounds_numbered_from_one(club_open):
    c = run(club_open).categories[0]
    assert [m for m, _ in c.period_reports] == [D(2025, 9, 1), D(2025, 10, 1)]
    full = c.rating_report.tournament
    for (month, part), rounds in zip(c.period_reports, ((1, 2, 3, 4, 5), (6, 7)), strict=True):
        t = parse_trf(part.text)
        assert t.total_rounds == len(rounds) and t.header.start.startswith(f"{month:%Y/%m}")
        assert sorted({r for r, *_ in t.card_rows}) == list(range(1, len(rounds) + 1))
        for p in t.players:  # each player's points are those of the period's rounds
            mine = [pts for rnd, sno, _, _, pts, _ in full.card_rows if sno == p.sno and rnd in rounds]
            assert p.points == sum(mine)
        assert sorted(p.rank for p in t.players) == list(range(1, len(t.players) + 1))
        # FIDE's check finds nothing in a part that the whole report does not have
        whole = {f.reason.split(":")[0] for f in c.rating_report.findings}
        assert {f.reason.split(":")[0] for f in part.findings
                if f.severity is Severity.ERROR} <= whole


def test_a_period_is_reported_once_its_rounds_are_complete(club_open):
    assert [m for m, _ in run(club_open, through=4).categories[0].period_reports] == []
    assert [m for m, _ in run(club_open, through=6).categories[0].period_reports] == [D(2025, 9, 1)]

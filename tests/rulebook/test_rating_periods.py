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


def test_a_list_in_force_from_a_later_round_rates_that_rounds_games_and_its_period_report(club_open, tmp_path):
    """An October list in force from round 6 (ratings.csv ``from_round``) for Aerts (1561 at
    the start, 1600 on it) and Wouters (1450, then unrated): October's report carries those
    ratings, September's the start's; every game of rounds 6-7 is rated with them (Aerts' own
    rating, and his opponents' expected scores against him); rounds 1-5 are as before."""
    event = tmp_path / "club-open"
    shutil.copytree(club_open, event)
    (event / "ratings.csv").write_text("fide_id,rating,from_round\n2513830,1600,6\n2545506,,6\n",
                                       encoding="utf-8")
    before, after = run(club_open).categories[0], run(event).categories[0]
    assert not [f for f in run(event).findings if f.file == "ratings.csv"]
    sno = dict(zip(after.players["player_id"], after.players["sno"], strict=True))
    aerts, wouters = sno["P28"], sno["P32"]
    (_, sept), (_, octo) = after.period_reports
    rating = {m: {p.sno: p.rating for p in parse_trf(r.text).players} for m, r in
              (("sep", sept), ("oct", octo))}
    assert rating["sep"][aerts] == 1561 and rating["oct"][aerts] == 1600
    assert rating["sep"][wouters] == 1450 and rating["oct"][wouters] == 0
    games = after.ratings["FIDE"].games
    mine = games.filter(games["sno"] == aerts).sort("round")
    assert mine.filter(mine["round"] <= 5)["rating"].unique().to_list() == [1561]
    assert mine.filter(mine["round"] >= 6)["rating"].to_list() == [1600, 1600]
    against = games.filter((games["opponent"] == aerts) & (games["round"] >= 6))
    assert against["opponent_rating"].to_list() == [1600, 1600]
    old = before.ratings["FIDE"].games
    early = lambda g: g.filter(g["round"] <= 5).sort("sno", "round")  # noqa: E731
    assert early(games).equals(early(old))


def test_a_leagues_division_is_reported_month_by_month_with_its_players_games_only():
    """The demo's league (rounds from 2 October 2025, a round a fortnight or three weeks) after
    four rounds: October's two rounds and November's two, each a report of its own with its
    rounds numbered from 1, every player with the points of those rounds; no team record (the
    full report has them: they describe the whole event's rounds); the office keeps each."""
    from flows.kinds.team.flow import publish
    from flows.site.pages import Publication, event_context
    from transforms.team.event import RULE_STEPS
    from transforms.team.event import prepare as team_prepare

    league = ROOT / "inputs" / "district-league-2025"
    cfg = parse_event_config((league / "event.toml").read_text(encoding="utf-8"))
    raw = {n: io.read_csv_strings(league / n) for n in cfg.files if (league / n).exists()}
    run = team_prepare(cfg, raw, cfg.event.as_of)
    for _, rule in RULE_STEPS:
        rule(run)
    for g in run.groups:
        assert g.done == 4 and [m for m, _ in g.period_reports] == [D(2025, 10, 1), D(2025, 11, 1)]
        full = parse_trf(g.report)
        assert "\n310 " in g.report
        for (month, text), rounds in zip(g.period_reports, ((1, 2), (3, 4)), strict=True):
            t = parse_trf(text)
            assert "\n310 " not in text and "\n330 " not in text
            assert t.total_rounds == 2 and t.header.start.startswith(f"{month:%Y/%m}")
            assert sorted({r for r, *_ in t.card_rows}) <= [1, 2]
            for p in t.players:
                mine = [pts for rnd, sno, _, _, pts, _ in full.card_rows if sno == p.sno and rnd in rounds]
                assert p.points == sum(mine)
    pub = Publication(Path("league"), ctx=event_context(cfg, cfg.event.as_of))
    publish(pub, cfg, run, cfg.event.as_of)
    assert {r for r in pub.files if r.startswith("office/fide/team-report-premier")} == {
        "office/fide/team-report-premier.trf", "office/fide/team-report-premier-2025-10.trf",
        "office/fide/team-report-premier-2025-11.trf"}


def test_a_leagues_list_in_force_from_a_later_round_rates_those_games_and_its_month(tmp_path):
    """The demo league with a November list in force from round 3 (``ratings.csv``
    ``from_round``, as the season's lists give it) for Dupont, Arthur (2286 at the start,
    2320 on it): his games of rounds 3-4 are rated with 2320 (his own and his opponents'
    expected scores), rounds 1-2 with 2286; October's report carries 2286, November's 2320; a
    player the list does not name keeps the start's in both."""
    from transforms.team.event import RULE_STEPS
    from transforms.team.event import prepare as team_prepare

    league = tmp_path / "league"
    shutil.copytree(ROOT / "inputs" / "district-league-2025", league)
    (league / "ratings.csv").write_text("fide_id,rating,from_round\n2300017,2320,3\n", encoding="utf-8")
    cfg = parse_event_config((league / "event.toml").read_text(encoding="utf-8"))
    raw = {n: io.read_csv_strings(league / n) for n in cfg.files if (league / n).exists()}
    run = team_prepare(cfg, raw, cfg.event.as_of)
    for _, rule in RULE_STEPS:
        rule(run)
    assert not [f for f in run.findings if f.file == "ratings.csv"]
    g = next(g for g in run.groups if "RIV1-01" in g.players["player_id"].to_list())
    pno = dict(zip(g.players["player_id"], g.players["pno"], strict=True))
    arthur, other = pno["RIV1-01"], pno["RIV1-02"]
    games = g.ratings.games
    mine = games.filter(games["sno"] == arthur).sort("round")
    assert mine["round"].to_list() == [1, 2, 3, 4]
    assert mine["rating"].to_list() == [2286, 2286, 2320, 2320]
    against = games.filter(games["opponent"] == arthur).sort("round")
    assert against["opponent_rating"].to_list() == [2286, 2286, 2320, 2320]
    (_, october), (_, november) = g.period_reports
    rating = {m: {p.sno: p.rating for p in parse_trf(text).players}
              for m, text in (("oct", october), ("nov", november))}
    assert rating["oct"][arthur] == 2286 and rating["nov"][arthur] == 2320
    assert rating["oct"][other] == rating["nov"][other] == 1999

"""The series' rulebook (transforms/series/event.py, issue 47): who is who across the events,
the points each event gives, the best N, the tie-breaks, the categories and the prizes; the
events read by their own kind's rulebook or from a TRF (two real club events of one season,
tests/data/series/SOURCE.md)."""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io as text_io
from pathlib import Path

import polars as pl
import pytest

from flows import io
from transforms.core.config import EventConfig
from transforms.core.errors import ConfigError, Severity
from transforms.core.results import EventResult, Finish, RoundResult, Source
from transforms.fide.trf_results import trf_event_result
from transforms.kinds import event_result, parse_event_config
from transforms.series.event import counting, event_points, run_series

DATA = Path(__file__).resolve().parents[1] / "data" / "series"
ROOT = Path(__file__).resolve().parents[2]
AS_OF = dt.date(2026, 6, 30)

HEAD = """
[event]
id = "circuit"
name = "Test Circuit"
kind = "series"
start = 2026-01-01
end = 2026-12-31
venue = "Club"
organiser = "Club"
currency = "EUR"
contact = "Club"

[publish]
sender = "Club <club@example.org>"

[series]
"""


def config(series: str) -> EventConfig:
    return parse_event_config(HEAD + series)


def f(key: str, name: str, rank: int | None, points: float = 0.0, *, fed: str = "BEL",
      fide: str = "", member: str = "", rating: int | None = None, sex: str = "", born: int | None = None,
      games: int = 1, section: str = "", rounds: tuple[RoundResult, ...] = ()) -> Finish:
    played = rounds or tuple(RoundResult(r + 1, None, 0.0, True) for r in range(games))
    return Finish(key=key, name=name, section=section, rank=rank, points=points, rounds=played,
                  rating=rating, fide_id=fide, member_id=member, federation=fed, sex=sex,
                  birth_year=born)


def event(source: str, *finishes: Finish, done: int = 5, rounds: int = 5) -> EventResult:
    return EventResult(source=source, name=source.upper(), start=None, end=None, rounds=rounds,
                       done=done, finishes=finishes)


def run_of(series: str, *events: EventResult, missing: tuple[str, ...] = ()):
    cfg = config(series)
    by = {e.source: e for e in events}
    sources = [Source(e.source, text="") for e in events]

    def read(s: Source, as_of: dt.date) -> EventResult:
        return by[s.name]

    return run_series(cfg, sources + [Source(m, missing=True) for m in missing], AS_OF, read)


def row(run, name: str) -> dict:
    return next(r for r in run.standings.iter_rows(named=True) if r["name"] == name)


# ---- points -------------------------------------------------------------------------------

def test_game_points_sum_over_every_event_by_default():
    run = run_of('events = ["a", "b"]', event("a", f("1", "Lee, Ann", 1, 4.0)),
                 event("b", f("1", "Lee, Ann", 2, 3.5)))
    assert row(run, "Lee, Ann")["points"] == 7.5


def test_place_points_beyond_the_table_give_nothing_but_the_bonus():
    rules = config('events = ["a"]\npoints = "place"\nplace_points = [10, 6, 4]\nbonus = 1').tables["series"]
    e = event("a", f("1", "A", 1), f("2", "B", 4), f("3", "C", 2, games=0))
    assert [event_points(rules, e, x) for x in e.finishes] == [11.0, 1.0, 6.0]


def test_field_points_count_the_players_finished_ahead_of_plus_one():
    rules = config('events = ["a"]\npoints = "field"').tables["series"]
    e = event("a", f("1", "A", 1), f("2", "B", 2), f("3", "C", 3), f("4", "D", 1, section="girls"))
    assert [event_points(rules, e, x) for x in e.finishes] == [3.0, 2.0, 1.0, 1.0]


def test_best_n_counts_the_highest_the_earlier_first_among_equals():
    run = run_of('events = ["a", "b", "c"]\nbest = 2',
                 event("a", f("1", "Lee, Ann", 1, 3.0)), event("b", f("1", "Lee, Ann", 1, 5.0)),
                 event("c", f("1", "Lee, Ann", 1, 3.0)))
    s = run.scores.sort("event")
    assert s["counted"].to_list() == [True, True, False]
    assert row(run, "Lee, Ann")["points"] == 8.0


def test_drop_counts_all_but_the_worst_of_the_events_held_and_one_at_least():
    rules = config('events = ["a", "b", "c", "d"]\ndrop = 2').tables["series"]
    assert [counting(rules, held) for held in (1, 2, 3, 4)] == [1, 1, 1, 2]
    assert counting(config('events = ["a"]').tables["series"], 3) is None


def test_drop_of_the_most_played_counts_all_but_the_worst_of_the_most_anyone_played():
    """keshmat/circuit's rule: the best N, N the most events any player played less one."""
    rules = config('events = ["a", "b", "c", "d"]\ndrop = 1\ndrop_of = "most-played"').tables["series"]
    assert [counting(rules, 4, most) for most in (4, 3, 1)] == [3, 2, 1]
    run = run_of('events = ["a", "b", "c"]\ndrop = 1\ndrop_of = "most-played"\ntiebreaks = ["average"]',
                 event("a", f("1", "A", 1, 5.0), f("2", "B", 2, 3.0)),
                 event("b", f("1", "A", 1, 4.0), f("2", "B", 2, 1.0)),
                 event("c", f("1", "C", 1, 6.0)))
    # A and B played two events, the most: each counts its best one
    assert run.standings.select("name", "points", "played", "counted").rows() == [
        ("C", 6.0, 1, 1), ("A", 5.0, 2, 1), ("B", 3.0, 2, 1)]


def test_split_shares_the_points_of_the_shared_places_each_does_not():
    e = event("a", f("1", "A", 1), f("2", "B", 2), f("3", "C", 2), f("4", "D", 4))
    split = config('events = ["a"]\npoints = "place"\nplace_points = [10, 6, 4, 2]\n'
                   'shared_places = "split"').tables["series"]
    each = config('events = ["a"]\npoints = "place"\nplace_points = [10, 6, 4, 2]').tables["series"]
    assert [event_points(split, e, x) for x in e.finishes] == [10.0, 5.0, 5.0, 2.0]
    assert [event_points(each, e, x) for x in e.finishes] == [10.0, 6.0, 6.0, 2.0]


def test_the_same_total_reached_by_shared_places_is_a_tie_for_the_tie_breaks():
    """86/3 + 86/3 and 30 + 82/3 are the same 57.333333 (in floating point they differ in the
    last digit, and ranked the members apart before the tie-breaks were asked)."""
    split = 'points = "place"\nplace_points = [30, 29, 27, 26]\nshared_places = "split"\nbest = 2\n'
    apq = [f("a", "Alpha", 1), f("p", "Papa", 1), f("q", "Quebec", 1)]
    run = run_of('events = ["e1", "e2", "e3", "e4"]\n' + split + 'tiebreaks = ["best-single"]',
                 event("e1", *apq, f("b", "Bravo", 4)), event("e2", *apq, f("b", "Bravo", 4)),
                 event("e3", f("b", "Bravo", 1)),
                 event("e4", f("z", "Zulu", 1), f("b", "Bravo", 2), f("y", "Yankee", 2),
                       f("w", "Whisky", 2)))
    top = run.standings.head(4)
    assert top["name"].to_list() == ["Bravo", "Alpha", "Papa", "Quebec"]
    assert top["rank_label"].to_list() == ["1", "2-4", "2-4", "2-4"]
    assert top["points"].to_list() == [57.333333] * 4


def test_a_shared_place_in_an_event_is_shown_as_shared():
    """A member's place in an event where players share it reads "1-2" (its pages and letters
    say "1-2 of 3"), not "1"."""
    run = run_of('events = ["a"]', event("a", f("1", "A", 1, 2.0), f("2", "B", 1, 2.0), f("3", "C", 3)))
    got = dict(run.scores.select("member", "place_label").iter_rows())
    assert sorted(got.values()) == ["1-2", "1-2", "3"]


def test_min_played_and_weights():
    rules = config('events = ["a", "b"]\nmin_played = 0.5\nweights = { b = 2 }').tables["series"]
    a = event("a", f("1", "A", 1, 3.0, games=3), f("2", "B", 2, 2.0, games=2))  # of 5 rounds
    b = event("b", f("1", "A", 1, 3.0, games=5))
    assert [event_points(rules, a, x) for x in a.finishes] == [3.0, 0.0]
    assert event_points(rules, b, b.finishes[0]) == 6.0
    with pytest.raises(ConfigError) as err:
        config('events = ["a"]\nweights = { z = 2 }')
    assert err.value.key == "series.weights.z"


def test_an_event_in_play_or_to_come_does_not_count():
    run = run_of('events = ["a", "b", "c"]', event("a", f("1", "Lee, Ann", 1, 4.0)),
                 event("b", f("1", "Lee, Ann", 1, 2.0), done=3), missing=("c",))
    assert [e.state for e in run.events] == ["counted", "in play", "to come"]
    assert row(run, "Lee, Ann")["points"] == 4.0 and run.held == 1 and not run.complete
    assert run.findings == []  # the last events still to come: nothing to say


def test_an_event_missing_before_one_that_is_there_is_a_warning():
    run = run_of('events = ["a", "b", "c"]', event("c", f("1", "Lee, Ann", 1, 4.0)),
                 missing=("a", "b"))
    assert [(x.column, x.value) for x in run.findings] == [("series.events[0]", "a"),
                                                         ("series.events[1]", "b")]
    nothing = run_of('events = ["a"]', missing=("a",))
    assert [x.column for x in nothing.findings] == ["series.events"]


def test_the_last_event_missing_after_the_series_ended_is_a_warning():
    """A misspelt last event (``"rr-2026-3"``) would otherwise wait "to come" for good."""
    ended = run_of('events = ["a", "b"]', event("a", f("1", "Lee, Ann", 1, 4.0)), missing=("b",))
    assert [(x.column, x.value) for x in ended.findings] == []     # AS_OF 2026-06-30: not yet
    cfg = config('events = ["a", "b"]')
    cfg = dataclasses.replace(cfg, event=dataclasses.replace(cfg.event, end=dt.date(2026, 5, 31)))
    run = run_series(cfg, [Source("a", text=""), Source("b", missing=True)], AS_OF,
                     lambda s, d: event("a", f("1", "Lee, Ann", 1, 4.0)))
    assert [(x.column, x.value) for x in run.findings] == [("series.events[1]", "b")]
    assert "ended on 2026-05-31" in run.findings[0].reason


# ---- identity -----------------------------------------------------------------------------

def test_a_name_in_another_order_and_case_is_the_same_member():
    run = run_of('events = ["a", "b"]\nidentity = ["name", "federation"]',
                 event("a", f("1", "Sharma, Aarav", 1, 4.0, fed="IND")),
                 event("b", f("7", "Aarav SHARMA", 1, 3.0, fed="IND")))
    assert len(run.members) == 1 and run.standings["points"].to_list() == [7.0]


def test_another_federation_is_another_member_by_name_and_federation_with_a_warning():
    run = run_of('events = ["a", "b"]\nidentity = ["name", "federation"]',
                 event("a", f("1", "Smith, John", 1, 4.0, fed="ENG")),
                 event("b", f("1", "Smith, John", 1, 3.0, fed="SCO")))
    assert len(run.members) == 2
    # a real club's files spell one federation VIC in February and AUS in April
    assert [x.file for x in run.findings if "the same name, federation" in x.reason] == ["b"]


def test_a_player_without_id_joins_the_one_member_with_an_id_of_the_same_name():
    run = run_of('events = ["a", "b"]',
                 event("a", f("1", "Lee, Ann", 1, 4.0, fide="1503014")),
                 event("b", f("3", "Ann Lee", 2, 3.0)))
    assert list(run.members) == ["f-1503014"]
    assert run.members["f-1503014"].finishes[1][1].key == "3"


def test_a_fide_id_leads_to_the_member_id_the_same_player_carries_elsewhere():
    run = run_of('events = ["a", "b"]',
                 event("a", f("1", "Lee, Ann", 1, 4.0, fide="1503014", member="M7")),
                 event("b", f("1", "Lee, Ann", 1, 3.0, fide="1503014")))
    assert list(run.members) == ["m-M7"]


def test_ids_the_office_leaves_out_of_identity_are_not_used():
    run = run_of('events = ["a", "b"]\nidentity = ["name"]',
                 event("a", f("1", "Lee, Ann", 1, 4.0, fide="1503014")),
                 event("b", f("1", "Lee, Ann", 1, 3.0, fide="99")))
    assert len(run.members) == 1


def test_a_name_shared_by_two_members_with_ids_is_kept_apart_with_a_warning():
    run = run_of('events = ["a", "b"]',
                 event("a", f("1", "Lee, Ann", 1, 4.0, member="M1"), f("2", "Lee, Ann", 2, 3.0, member="M2")),
                 event("b", f("1", "Lee, Ann", 1, 3.0)))
    assert len(run.members) == 3
    assert any("kept apart" in x.reason and x.severity is Severity.WARNING for x in run.findings)


def test_two_players_of_one_event_are_never_one_member():
    run = run_of('events = ["a"]\nidentity = ["name", "federation"]',
                 event("a", f("1", "Smith, John", 1, 4.0), f("2", "Smith, John", 2, 3.0)))
    assert len(run.members) == 2
    assert any("same event" in x.reason for x in run.findings)


def test_a_near_same_name_that_never_met_is_a_probable_duplicate():
    run = run_of('events = ["a", "b"]',
                 event("a", f("1", "Janssens, Pieter", 1, 4.0)),
                 event("b", f("1", "Janssen, Pieter", 1, 3.0)))
    assert len(run.members) == 2
    warned = [x for x in run.findings if "probably the member" in x.reason]
    assert len(warned) == 1 and warned[0].file == "b" and warned[0].value == "Janssen, Pieter"


def test_a_renamed_member_recognised_by_id_is_a_warning():
    run = run_of('events = ["a", "b", "c"]',
                 event("a", f("1", "Peeters, Julie", 1, 4.0, member="M1")),
                 event("b", f("1", "Peeters, Julie", 1, 4.0, member="M1")),
                 event("c", f("1", "Claes, Julie", 1, 3.0, member="M1")))
    assert run.members["m-M1"].name == "Peeters, Julie"
    assert [x.value for x in run.findings if "spell" in x.reason] == ["Claes, Julie"]


# ---- tie-breaks ---------------------------------------------------------------------------

def test_best_single_breaks_a_tie_then_events():
    run = run_of('events = ["a", "b"]\ntiebreaks = ["best-single", "events"]',
                 event("a", f("1", "A", 1, 6.0), f("2", "B", 2, 3.0), f("3", "C", 3, 1.0)),
                 event("b", f("2", "B", 1, 2.0), f("3", "C", 1, 4.0)))
    assert run.standings["name"].to_list() == ["A", "C", "B"]
    assert run.standings["rank_label"].to_list() == ["1", "2", "3"]


def test_head_to_head_counts_the_games_between_the_tied_only():
    a_beats_b = (RoundResult(1, "2", 1.0, True), RoundResult(2, "3", 0.0, True))
    b_loses = (RoundResult(1, "1", 0.0, True), RoundResult(2, "3", 1.0, True))
    c = (RoundResult(1, None, 1.0, False), RoundResult(2, "1", 1.0, True))
    run = run_of('events = ["a"]\ntiebreaks = ["head-to-head"]',
                 event("a", f("1", "A", 2, 1.0, rounds=a_beats_b), f("2", "B", 3, 1.0, rounds=b_loses),
                       f("3", "C", 1, 2.0, rounds=c)))
    assert run.standings["name"].to_list() == ["C", "A", "B"]
    assert row(run, "A")["head-to-head"] == 1.0 and row(run, "B")["head-to-head"] == 0.0


def test_members_equal_after_every_tie_break_share_the_place():
    run = run_of('events = ["a"]\ntiebreaks = ["events"]',
                 event("a", f("1", "B", 1, 3.0), f("2", "A", 2, 3.0), f("3", "C", 3, 1.0)))
    assert run.standings.select("name", "rank_label").rows() == [("A", "1-2"), ("B", "1-2"), ("C", "3")]


# ---- categories and prizes ----------------------------------------------------------------

CATS = '''
[[series.categories]]
id = "u1600"
name = "Under 1600"
rating_max = 1599

[[series.categories]]
id = "u16"
name = "Under 16"
under = 16

[[series.categories]]
id = "women"
name = "Women"
sex = "F"
'''


def test_categories_by_first_rating_birth_year_and_sex():
    run = run_of('events = ["a", "b"]\n' + CATS,
                 event("a", f("1", "A", 1, 4.0, rating=1590, born=2010, sex="F"),
                       f("2", "B", 2, 3.0, rating=1700, born=2009),
                       f("3", "C", 3, 1.0)),
                 event("b", f("1", "A", 1, 4.0, rating=1650, born=2010, sex="F")))
    assert run.categories["u1600"]["name"].to_list() == ["A", "C"]   # first rating; unrated as 0
    assert run.categories["u16"]["name"].to_list() == ["A"]          # 2026 - 16 = 2010 or later
    assert run.categories["women"]["name"].to_list() == ["A"]
    assert run.categories["u1600"]["rank"].to_list() == [1, 2]


def test_prizes_wait_for_the_last_event_then_one_prize_each_and_min_events():
    series = ('events = ["a", "b"]\nprizes = [100, 50]\nmin_events = 2\n'
              '[[series.categories]]\nid = "u1600"\nname = "U1600"\nrating_max = 1599\nprizes = [30]\n')
    a = event("a", f("1", "A", 1, 5.0, rating=1500), f("2", "B", 2, 4.0, rating=1500),
              f("3", "C", 3, 3.0, rating=1500), f("4", "D", 4, 2.0, rating=1500))
    half = run_of(series, a, event("b", f("1", "A", 1, 1.0, rating=1500), done=2))
    assert half.prizes is None
    full = run_of(series, a, event("b", f("1", "A", 1, 1.0, rating=1500), f("2", "B", 2, 1.0, rating=1500),
                                   f("3", "C", 3, 1.0, rating=1500), f("4", "X", 4, 9.0, rating=1500)))
    got = full.prizes.select("standings", "place", "name").rows()
    # X played one event (min_events 2); A and B take the series' prizes; C the category's
    assert got == [("", 1, "A"), ("", 2, "B"), ("u1600", 1, "C")]


# ---- reading the events -------------------------------------------------------------------

def test_an_event_whose_results_cannot_be_read_holds_the_standings():
    cfg = config('events = ["a", "b"]')

    def read(s: Source, as_of: dt.date) -> EventResult:
        if s.name == "b":
            raise ValueError("results.csv has errors")
        return event("a", f("1", "A", 1, 1.0))

    run = run_series(cfg, [Source("a", text=""), Source("b", text="")], AS_OF, read)
    assert run.blocked and run.standings is None
    bad = [x for x in run.findings if x.severity is Severity.ERROR]
    assert [(x.file, x.column, x.value) for x in bad] == [("event.toml", "series.events[1]", "b")]


def test_an_unreadable_event_counts_as_its_last_good_publication_shows_it():
    cfg = config('events = ["a"]')
    good = Source("a", text="good", published="2026-03-01")

    def read(s: Source, as_of: dt.date) -> EventResult:
        if s.text != "good":
            raise ValueError("results.csv has errors")
        return event("a", f("1", "A", 1, 4.0))

    run = run_series(cfg, [Source("a", text="bad", fallback=good)], AS_OF, read)
    assert not run.blocked and run.standings["points"].to_list() == [4.0]
    assert [x.severity for x in run.findings] == [Severity.WARNING]
    assert "2026-03-01" in run.findings[0].reason


@pytest.mark.parametrize("series, key", [
    ('events = ["../other"]', "series.events[0]"),
    ('events = ["/etc/x.trf"]', "series.events[0]"),
    ('events = ["events/../../x.trf"]', "series.events[0]"),
    ('events = ["a", "a"]', "series.events"),
    ('events = ["a"]\npoints = "place"', "series.place_points"),
    ('events = ["a"]\nbest = 3\ndrop = 1', "series.drop"),
    ('events = ["a"]\nidentity = ["shoe_size"]', "series.identity[0]"),
])
def test_bad_series_configuration_names_the_key(series, key):
    with pytest.raises(ConfigError) as e:
        config(series)
    assert e.value.key.startswith(key)


def test_a_real_trf_gives_the_places_and_points_its_program_published():
    r = trf_event_result((DATA / "hbcc_2025_april_blitz.trf").read_text(), source="april.trf")
    assert (len(r.finishes), r.rounds, r.done, r.complete) == (44, 9, 9, True)
    first = min(r.finishes, key=lambda x: x.rank or 99)
    assert (first.name, first.points, first.rank) == ("Hogg,Dean", 8.5, 1)  # Vega's standings
    assert sorted(x.rank for x in r.finishes) == list(range(1, 45))


def test_two_real_club_events_of_one_season_as_a_series():
    texts = {n: (DATA / f"hbcc_2025_{n}_blitz.trf").read_text() for n in ("february", "april")}
    results = {f"{n}.trf": trf_event_result(t, source=f"{n}.trf") for n, t in texts.items()}
    run = run_of('events = ["february.trf", "april.trf"]\nidentity = ["name", "federation"]',
                 *results.values())
    names = {n: {(" ".join(sorted(x.name.lower().replace(",", " ").split())), x.federation)
                 for x in r.finishes} for n, r in results.items()}
    both = names["february.trf"] & names["april.trf"]
    assert len(run.members) == len(names["february.trf"] | names["april.trf"])
    assert sum(r["played"] == 2 for r in run.standings.iter_rows(named=True)) == len(both) > 5
    # game points: each member's total is the sum of the points both files publish
    pts = {}
    for r in results.values():
        for x in r.finishes:
            k = (" ".join(sorted(x.name.lower().replace(",", " ").split())), x.federation)
            pts[k] = pts.get(k, 0.0) + x.points
    assert sorted(run.standings["points"].to_list(), reverse=True) == sorted(pts.values(), reverse=True)


def test_a_chessfed_event_gives_the_standings_its_own_pages_publish():
    folder = ROOT / "inputs" / "riverside-rapid-2026-03"
    cfg = parse_event_config((folder / "event.toml").read_text())
    raw = {n: io.read_csv_strings(folder / n) for n in cfg.files if (folder / n).exists()}
    r = event_result(Source("riverside-rapid-2026-03", cfg, raw), AS_OF)
    assert r.complete and r.site == "../riverside-rapid-2026-03/"
    assert sorted(x.rank for x in r.finishes) == list(range(1, len(r.finishes) + 1))
    assert all(x.points == sum(g.points for g in x.rounds) and len(x.rounds) == 5 for x in r.finishes)
    assert all(x.member_id for x in r.finishes)


# ---- the season's member registry ---------------------------------------------------------

REGISTRY = ("member_id,name,fide_id,birth_date,valid_from,valid_to\n"
            "M1,\"Claes, Julie\",1503014,2001-04-02,2026-01-01,\n"
            "M2,\"Janssens, Pieter\",,1990-01-01,2025-01-01,2026-02-28\n")


def registry(text: str = REGISTRY):
    """members.csv as the pipeline reads it (every cell a string, with its line)."""
    rows = list(csv.DictReader(text_io.StringIO(text)))
    frame = pl.DataFrame(rows, schema={h: pl.String for h in rows[0]}).with_row_index(
        "line", 2).with_columns(pl.col("line").cast(pl.Int64))
    return {"members.csv": (frame, [])}


def test_the_registry_names_a_renamed_member_and_finds_players_without_ids():
    cfg = config('events = ["a", "b"]')
    events = {"a": event("a", f("1", "Peeters, Julie", 1, 4.0, fide="1503014", born=2001,
                                 rounds=(RoundResult(1, None, 1.0, True),)),
                         f("2", "Janssens, Pieter", 2, 3.0)),
              "b": event("b", f("1", "Claes, Julie", 1, 3.0), f("2", "Pieter JANSSENS", 2, 1.0))}
    events["b"] = dataclasses.replace(events["b"], start=dt.date(2026, 3, 5))

    def read(s: Source, as_of: dt.date) -> EventResult:
        return events[s.name]

    run = run_series(cfg, [Source("a", text=""), Source("b", text="")], AS_OF, read, registry())
    assert sorted(run.members) == ["m-M1", "m-M2"]
    assert run.members["m-M1"].name == "Claes, Julie"   # the registry's name, after a marriage
    status = dict(run.membership.select("member_id", "status").rows())
    assert status == {"M1": "member", "M2": "lapsed"}   # M2's membership ended in February
    assert run.membership.filter(run.membership["member_id"] == "M2")["events_lapsed"][0] == "B"


def test_categories_take_the_registrys_birth_date_and_sex_where_the_events_give_none():
    """A member the registry knows is in the age and sex categories its birth date and sex
    say, though the events' players.csv leave them empty (and the registry's win over an
    event's that differs: that event's validation says so)."""
    text = ("member_id,name,birth_date,sex\n"
            "M1,\"Novak, Eva\",2012-05-05,F\n"
            "M2,\"Berg, Tom\",1970-01-01,M\n")
    cfg = config('events = ["a"]\n' + CATS)
    a = event("a", f("1", "Novak, Eva", 1, 3.0, member="M1"),
              f("2", "Berg, Tom", 2, 2.0, member="M2", born=2012, sex="F"))
    run = run_series(cfg, [Source("a", text="")], AS_OF, lambda s, d: a, registry(text))
    assert run.categories["u16"]["name"].to_list() == ["Novak, Eva"]
    assert run.categories["women"]["name"].to_list() == ["Novak, Eva"]


def test_a_member_id_the_registry_does_not_have_is_shown_in_the_members_report():
    cfg = config('events = ["a"]')
    a = event("a", f("1", "Okafor, Chidi", 1, 3.0, member="M99"))
    run = run_series(cfg, [Source("a", text="")], AS_OF, lambda s, d: a, registry())
    assert run.membership.select("member_id", "status").rows() == [("M99", "unknown member id")]


def test_a_bad_registry_row_is_a_row_of_the_series_validation_naming_the_file():
    bad = REGISTRY + "M3,,,,,\n"
    cfg = config('events = ["a"]')
    run = run_series(cfg, [Source("a", text="")], AS_OF, lambda s, d: event("a", f("1", "A", 1, 1.0)),
                     registry(bad))
    assert [(x.file, x.line, x.column) for x in run.findings] == [("../members.csv", 4, "name")]


# ---- a real circuit from its published crosstables ------------------------------------------

KESHMAT = DATA / "keshmat"
KESHMAT_EVENTS = ("july", "august", "december", "january", "february", "march", "april", "may")


def test_a_real_circuit_from_its_crosstables_equals_its_published_standings():
    """The Keshmat Circuit 2024-25 (tests/data/series/SOURCE.md): its eight rapids read from
    chess-results' crosstable exports, as a series of game points with all but one of the most
    anyone played counted (``drop = 1``, ``drop_of = "most-played"``), members recognised by
    name and federation, ties by the average per event counted — every player's rapids played,
    counted and total equal the organisers' published standings, and so does the order, up
    to the players they tie on total and average (their own reading of the crosstables left
    out the rows of shared places: so is this one, to compare)."""
    from transforms.core.crosstable import crosstable_event_result

    results = {f"{m}.xlsx": crosstable_event_result(io.xlsx_rows((KESHMAT / f"{m}.xlsx").read_bytes()),
                                                    source=f"{m}.xlsx") for m in KESHMAT_EVENTS}
    assert all(r.complete and r.rounds == 7 for r in results.values())
    assert [len(r.finishes) for r in results.values()] == [91, 107, 100, 85, 73, 55, 67, 53]
    # The organisers' reading left out every row whose place is blank (a place shared with the
    # row above: 12 results of July, August and December; SOURCE.md): read as they did.
    shared = {n: {f.key for f, before in zip(r.finishes[1:], r.finishes, strict=False)
                  if f.rank == before.rank} for n, r in results.items()}
    assert sum(map(len, shared.values())) == 12
    results = {n: dataclasses.replace(r, finishes=tuple(f for f in r.finishes if f.key not in shared[n]))
               for n, r in results.items()}
    names = ", ".join(f'"{n}"' for n in results)
    run = run_of(f'events = [{names}]\npoints = "game-points"\ndrop = 1\ndrop_of = "most-played"\n'
                 'identity = ["name", "federation"]\ntiebreaks = ["average"]', *results.values())
    published = list(csv.DictReader((KESHMAT / "keshmat_leaderboard.csv").open(encoding="utf-8")))
    ours = {(" ".join(sorted(r["name"].split())), r["federation"]): r
            for r in run.standings.iter_rows(named=True)}
    assert len(ours) == len(published) == 255
    order = []
    for p in published:
        r = ours[(" ".join(sorted(p["Name"].split())), p["Federation"])]
        assert (r["played"], r["counted"], r["points"]) == (
            int(p["Tournaments Played"]), int(p["Tournaments Counted"]), float(p["Total Points"])), p
        order.append((r["rank"], float(p["Total Points"]), p["Avg Points"]))
    # the published order, with the players tied on total and average sharing our place
    for (rank_a, total_a, avg_a), (rank_b, total_b, avg_b) in zip(order, order[1:]):
        assert rank_a == rank_b if (total_a, avg_a) == (total_b, avg_b) else rank_a < rank_b


def test_a_crosstable_s_cells_are_read_as_published():
    """crosstable_event_result on a small table: a blank place shared with the row above,
    opponents by row, a bye with its point, forfeits unplayed, an empty round no game, the
    title column, a rating 0 none, "after 2 Rounds" of 3 round columns not complete; a cell
    that is no result, and a sheet without the table, are errors naming line, column and value."""
    from transforms.core.crosstable import crosstable_event_result

    rows = [("From the Tournament-Database of Chess-Results http://chess-results.com", ""),
            ("Club Rapid 3 ",), ("Date : 2026/03/07",), ("Final Ranking crosstable after 2 Rounds",),
            ("Rk.", "", "Name", "Rtg", "FED", "1.Rd", "2.Rd", "3.Rd", "Pts. ", "TB1"),
            ("1", "FM", "Adams Ann ", "2100", "eng", "  3w1", "  2b½", "", "1.5", "0"),
            ("", "", "Brown Bob", "0", "ENG", "  4b+", "  1w½", "", "1.5", "0"),
            ("3", "", "Cole Cy", "1500", "ENG", "  1b0", " -1", "", "1", "0"),
            ("4", "", "Dunn Di", "1400", "ENG", "  2w-", "0", "", "0", "0"),
            ("",), ("You find all details …",)]
    r = crosstable_event_result(rows, source="events/rapid-3.xlsx")
    assert (r.name, r.start, r.rounds, r.done, r.complete) == ("Club Rapid 3", dt.date(2026, 3, 7), 3, 2, False)
    got = {f.key: (f.name, f.rank, f.points, f.rating, f.title, f.federation) for f in r.finishes}
    assert got == {"1": ("Adams Ann", 1, 1.5, 2100, "FM", "ENG"), "2": ("Brown Bob", 1, 1.5, None, "", "ENG"),
                   "3": ("Cole Cy", 3, 1.0, 1500, "", "ENG"), "4": ("Dunn Di", 4, 0.0, 1400, "", "ENG")}
    rounds = {f.key: [(x.round, x.opponent, x.points, x.played) for x in f.rounds] for f in r.finishes}
    assert rounds == {"1": [(1, "3", 1.0, True), (2, "2", 0.5, True)],
                      "2": [(1, "4", 1.0, False), (2, "1", 0.5, True)],
                      "3": [(1, "1", 0.0, True), (2, None, 1.0, False)],
                      "4": [(1, "2", 0.0, False)]}
    broken = [*rows[:6], ("", "", "Brown Bob", "0", "ENG", "  4b?", "", "", "1", "0")]
    with pytest.raises(ValueError, match=r"rapid-3.xlsx: line 7, column 1.Rd: '4b\?': not a round's result"):
        crosstable_event_result(broken, source="rapid-3.xlsx")
    with pytest.raises(ValueError, match="no header row with 'Rk.' and 'Name'"):
        crosstable_event_result(rows[:4], source="rapid-3.xlsx")


def ranking_only(rows: list[tuple]) -> list[tuple]:
    """A crosstable export as chess-results' "Final Ranking" export of the same event has it:
    the round columns left out, the title line without "crosstable"."""
    head = next(i for i, r in enumerate(rows) if "Rk." in r)
    keep = [j for j, c in enumerate(rows[head]) if not c.strip().endswith(".Rd")]
    return [tuple(c.replace("Ranking crosstable", "Ranking") for c in r) if i < head
            else tuple(r[j] for j in keep if j < len(r)) for i, r in enumerate(rows)]


def test_a_ranking_without_rounds_is_read_with_its_places_and_points_and_no_round():
    """Decision: chess-results' "Final Ranking" export (no round columns) is an event of a
    series too — places, points, ratings, federations, no round; it must say its rounds
    ("Number of rounds") and how many are complete (its title line), else it is refused."""
    from transforms.core.crosstable import crosstable_event_result

    rows = [("Club Rapid 4",), ("Number of rounds : 5",), ("Date : 2026/04/04",),
            ("Final Ranking after 5 Rounds",),
            ("Rk.", "SNo", "", "Name", "FED", "Rtg", "Club/City", "Pts. ", "TB1"),
            ("1", "2", "FM", "Adams Ann", "ENG", "2100", "Leeds", "4.5", "12"),
            ("2", "1", "", "Brown Bob", "ENG", "0", "", "3", "11")]
    r = crosstable_event_result(rows, source="rapid-4.xlsx")
    assert (r.rounds, r.done, r.complete, r.ranking_only) == (5, 5, True, True)
    assert [(f.key, f.name, f.rank, f.points, f.rating, f.title, f.rounds) for f in r.finishes] == [
        ("1", "Adams Ann", 1, 4.5, 2100, "FM", ()), ("2", "Brown Bob", 2, 3.0, None, "", ())]
    in_play = [*rows[:3], ("Ranking after Round 3",), *rows[4:]]
    r = crosstable_event_result(in_play, source="rapid-4.xlsx")
    assert (r.rounds, r.done, r.complete) == (5, 3, False)
    with pytest.raises(ValueError, match="must say how many rounds"):
        crosstable_event_result([rows[0], *rows[2:]], source="rapid-4.xlsx")
    with pytest.raises(ValueError, match="must say how many rounds"):
        crosstable_event_result([*rows[:3], *rows[4:]], source="rapid-4.xlsx")


def test_a_real_circuit_from_its_rankings_without_rounds_equals_the_one_from_its_crosstables():
    """The Keshmat Circuit's eight rapids as "Final Ranking" exports (the crosstables without
    their round columns): the same standings — game points, best of the most played but one,
    the average — as from the crosstables; the participation bonus counts every listed player;
    ``min_played`` cannot be applied and is a warning naming the event."""
    from transforms.core.crosstable import crosstable_event_result

    def results(shape) -> list:
        return [crosstable_event_result(shape(list(io.xlsx_rows((KESHMAT / f"{m}.xlsx").read_bytes()))),
                                        source=f"{m}.xlsx") for m in KESHMAT_EVENTS]
    full, bare = results(lambda rows: rows), results(ranking_only)
    assert all(r.ranking_only and r.complete and r.rounds == 7 and not any(f.rounds for f in r.finishes)
               for r in bare)
    names = ", ".join(f'"{m}.xlsx"' for m in KESHMAT_EVENTS)
    rules = (f'events = [{names}]\npoints = "game-points"\ndrop = 1\ndrop_of = "most-played"\n'
             'identity = ["name", "federation"]\ntiebreaks = ["average"]')
    columns = ["rank", "name", "federation", "played", "counted", "points"]
    a, b = run_of(rules, *full), run_of(rules, *bare)
    assert a.standings.height == 260 and a.standings.select(columns).equals(b.standings.select(columns))
    assert not any("a ranking without rounds" in x.reason for x in b.findings)
    c = run_of(rules + "\nbonus = 1\nmin_played = 0.5", *bare)
    said = [x for x in c.findings if "a ranking without rounds" in x.reason]
    assert [x.value for x in said] == [f"{m}.xlsx" for m in KESHMAT_EVENTS]
    assert all(x.severity is Severity.WARNING and "min_played (0.5)" in x.reason for x in said)
    with_bonus = b.standings.select("name", "federation", (pl.col("points") + pl.col("counted")).alias("p"))
    assert with_bonus.join(c.standings, on=["name", "federation"]).filter(
        pl.col("p") != pl.col("points")).height == 0


def test_a_correspondence_event_gives_each_entry_its_place_by_weighted_points_and_its_games():
    """The demo's Golden Knights 2019 (complete) as a series reads it: every entry of its
    standings, the place by weighted points (rule 6; equal points share it), game points over
    the stages it played, each game in stage order with its opponent entry (a forfeit not
    over the board), the member id; complete, its three stages its "rounds". A series over two
    such events (the second a copy) counts each member twice."""
    from transforms.golden_knights.event import compute

    gk = ROOT / "inputs" / "golden-knights-2019"
    cfg = parse_event_config((gk / "event.toml").read_text(encoding="utf-8"))
    raw = {n: io.read_csv_strings(gk / n) for n in cfg.files if (gk / n).exists()}
    r = event_result(Source("golden-knights-2019", cfg, raw), cfg.event.as_of)
    assert (r.rounds, r.done, r.complete) == (3, 3, True)
    from transforms.core.ingest import validate_files
    from transforms.golden_knights.schemas import REQUIRED, SCHEMAS
    typed, _ = validate_files(raw, SCHEMAS, REQUIRED)
    res = compute(cfg, typed, cfg.event.as_of)
    st = res.standings.with_columns(pl.col("weighted_points").fill_null(0.0))
    many = st.group_by("member_id").len().filter(pl.col("len") > 1)
    assert many.height == 29  # members with more than one entry (GK rule 1): their best counts
    assert len(r.finishes) == st["member_id"].n_unique() == len({x.member_id for x in r.finishes})
    by = {x.key: x for x in r.finishes}
    for e in st.iter_rows(named=True):
        place = 1 + st.filter(pl.col("weighted_points") > e["weighted_points"]).height
        x = by.get(e["entry_id"])
        if x is None:  # a member's other entry: the counted one is placed at least as well
            kept = next(f for f in r.finishes if f.member_id == e["member_id"])
            assert (kept.rank or 0) <= place
            continue
        assert x.rank == place
        assert x.points == sum(e[s] or 0.0 for s in ("preliminary", "semifinal", "final"))
        assert x.member_id == e["member_id"]
        mine = res.scorecard.filter((pl.col("entry_id") == e["entry_id"]) & pl.col("points").is_not_null())
        assert len(x.rounds) == mine.height and all(g.opponent in by for g in x.rounds)
        assert sum(g.points for g in x.rounds) == x.points
        assert sum(not g.played for g in x.rounds) == mine.filter(pl.col("kind") != "played").height
    twice = run_of('events = ["a", "b"]\nidentity = ["member_id"]',
                   dataclasses.replace(r, source="a"), dataclasses.replace(r, source="b"))
    top = twice.standings.sort("rank").row(0, named=True)
    assert top["played"] == 2 and top["points"] == 2 * max(x.points for x in r.finishes)
    assert twice.standings.height == len(r.finishes) and (twice.standings["played"] == 2).all()
    assert not [f for f in twice.findings if "same member" in f.reason]


def test_a_team_event_gives_each_player_their_board_results_and_no_place():
    """A team league (the demo's district league) as a series reads it: every player who
    played a board of a finished match, with each game's opponent (by their number in the
    division), board points and forfeits, the sum their points, no place, one section per
    division; a series by game points counts them once the league is complete."""
    from transforms.team.event import RULE_STEPS as TEAM_STEPS
    from transforms.team.event import prepare as team_prepare

    folder = ROOT / "inputs" / "district-league-2025"
    cfg = parse_event_config((folder / "event.toml").read_text())
    raw = {n: io.read_csv_strings(folder / n) for n in cfg.files if (folder / n).exists()}
    r = event_result(Source("district-league-2025", cfg, raw), AS_OF)
    run = team_prepare(cfg, raw, AS_OF)
    for _, step in TEAM_STEPS:  # the event's own rulebook, as its flow runs it
        step(run)
    assert r.sections == tuple((g.id, g.name) for g in run.groups) and not r.complete
    games = {(g.id, p): [] for g in run.groups for p in g.players["pno"].to_list()}
    for g in run.groups:
        for x in g.games.iter_rows(named=True):
            games[(g.id, x["pno"])].append((x["round"], x["points"], x["kind"] == "played"))
    assert len(r.finishes) == sum(1 for v in games.values() if v) > 20
    for f in r.finishes:
        mine = sorted(games[(f.section, int(f.key))])
        assert f.rank is None and f.points == sum(p for _, p, _ in mine)
        assert sorted((x.round, x.points, x.played) for x in f.rounds) == mine
    done = dataclasses.replace(r, done=r.rounds)  # as if its last round were complete
    series = run_of('events = ["district-league-2025"]\nidentity = ["name"]', done)
    top = max(r.finishes, key=lambda f: f.points)
    assert row(series, top.name)["points"] == top.points

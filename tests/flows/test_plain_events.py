"""The office's next events (issue 24): a plain FIDE Swiss needs only an id, a name and a rating
per player; a round robin is paired by the Berger tables; any real TRF becomes an event whose
standings are the file's points; the National Junior's rules are a part an event chooses, and
a table of one kind or part in another is an error. Through the rulebook, and end to end
through the flows for a plain Swiss and a round robin."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from flows import io
from flows.cli.import_trf import import_trf
from transforms.core.errors import ConfigError, Severity
from transforms.fide.tiebreaks import explain_tiebreaks
from transforms.fide.trf import parse_trf
from transforms.kinds import EventKind, parse_event_config
from transforms.national_junior.entries import JuniorEntryRules
from transforms.national_junior.part import NationalJuniorPlay
from transforms.round_robin.berger import berger_table
from transforms.round_robin.config import RoundRobinConfig
from transforms.swiss.config import SwissConfig
from transforms.swiss.event import run_swiss, tiebreak_detail

DATA = Path(__file__).resolve().parents[1] / "data"
DAY = dt.date(2026, 1, 10)

PLAIN_TOML = """
[event]
id = "club-open"
name = "Club Open"
kind = "swiss"
start = 2026-01-10
end = 2026-01-11
venue = "Club"
organiser = "The club"
currency = "EUR"
contact = "The arbiter"

[publish]
sender = "results@club.example"

[swiss]
rounds = 5
categories = [{ id = "open", name = "Open", prizes = [100, 50] }]
"""

RR_TOML = """
[event]
id = "club-rr"
name = "Club Championship"
kind = "round_robin"
start = 2026-01-10
end = 2026-03-10
venue = "Club"
organiser = "The club"
currency = "EUR"
contact = "The arbiter"

[publish]
sender = "results@club.example"

[round_robin]
draw_seed = 42
categories = [{ id = "a", name = "Group A", prizes = [100, 50] }]
"""


def event(folder: Path, toml: str, players: str, results: str = "round,board,white_id,black_id,result\n"
          ) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "event.toml").write_text(toml)
    (folder / "players.csv").write_text(players)
    (folder / "results.csv").write_text(results)
    return folder


def rulebook(folder: Path):
    cfg = parse_event_config((folder / "event.toml").read_text())
    raw = {n: io.read_csv_strings(folder / n) for n in cfg.files if (folder / n).exists()}
    return run_swiss(cfg, raw, DAY)


def test_a_plain_swiss_needs_only_an_id_a_name_and_a_rating(tmp_path):
    players = "player_id,name,rating\n" + "".join(f"p{i},Player {i},{2000 - 10 * i}\n" for i in range(1, 8))
    run = rulebook(event(tmp_path / "ev", PLAIN_TOML, players))
    assert run.findings == [] and not run.blocked and run.entries is None
    (c,) = run.categories
    assert c.players.height == 7 and set(c.players["section"]) == {"open"}  # the one category
    assert c.pairing is not None and c.pairing.round == 1 and len(c.pairing.boards) == 4  # a bye


def test_a_plain_swiss_reads_federation_and_sex_and_needs_a_section_only_with_categories(tmp_path):
    players = ("player_id,name,rating,federation,sex,club,email\n"
               "a,\"Ng, Ann\",1800,eng,F,Leeds,ann@x.example\nb,Bob,,GER,M,,\n")
    run = rulebook(event(tmp_path / "one", PLAIN_TOML, players))
    (c,) = run.categories
    assert run.findings == []
    got = dict(zip(c.players["player_id"], c.players["nationality"]))
    assert got == {"a": "ENG", "b": "GER"}  # a federation read in capitals
    assert dict(zip(c.players["player_id"], c.players["gender"])) == {"a": "F", "b": "M"}
    two = PLAIN_TOML.replace('categories = [{ id = "open", name = "Open", prizes = [100, 50] }]',
                             'categories = [{ id = "open", name = "Open" }, { id = "u12", name = "U12" }]')
    run = rulebook(event(tmp_path / "two", two, players))
    rows = [(f.file, f.line, f.column, f.severity) for f in run.findings]
    assert rows == [("players.csv", 2, "section", Severity.ERROR), ("players.csv", 3, "section", Severity.ERROR)]
    assert "several categories" in run.findings[0].reason


def test_the_entry_rules_are_a_part_an_event_chooses_and_only_there(tmp_path):
    nj = (Path(__file__).resolve().parents[2] / "inputs" / "national-junior-2024" / "event.toml").read_text()
    cfg = parse_event_config(nj)
    assert cfg.require(JuniorEntryRules).rules == "national-junior-2024" and cfg.require(NationalJuniorPlay).last_round_same_state
    assert [type(p).__name__ for p in cfg.rule_parts()] == ["JuniorEntryRules", "NationalJuniorPlay"]
    assert "associations.csv" in cfg.files and "associations.csv" in cfg.required_files
    plain = parse_event_config(PLAIN_TOML)
    assert plain.table(JuniorEntryRules) is None and plain.rule_parts() == [] and "associations.csv" not in plain.files
    with pytest.raises(ConfigError, match=r"entries\.rules.*missing required key.*national-junior-2024"):
        parse_event_config(PLAIN_TOML + "[entries]\nquota_per_category = 4\n")
    with pytest.raises(ConfigError, match="a rules part this event does not choose"):
        parse_event_config(PLAIN_TOML + "[national_junior]\nlast_round_same_state = true\n")
    with pytest.raises(ConfigError, match=r"\[golden_knights\].*a table of 'correspondence' events"):
        parse_event_config(PLAIN_TOML + "[golden_knights]\nsection_size = 7\n")
    with pytest.raises(ConfigError, match=r"event\.kind.*'knockout' is not one of 'swiss', 'round_robin', "
                                          r"'correspondence'"):
        parse_event_config(PLAIN_TOML.replace('kind = "swiss"', 'kind = "knockout"'))


RR_PLAYERS = ("player_id,name,rating\np1,\"Alpha, Ann\",2100\np2,\"Beta, Bob\",2000\n"
              "p3,\"Gamma, Cy\",1900\np4,\"Delta, Di\",1800\np5,\"Eps, Ed\",0\n")


def test_a_round_robin_is_paired_by_the_berger_table_of_its_start_numbers(tmp_path):
    run = rulebook(event(tmp_path / "rr", RR_TOML, RR_PLAYERS))
    (c,) = run.categories
    assert run.findings == [] and c.rounds == 5  # 5 players: 5 rounds, a bye as number 6
    # the start numbers drawn by lot from the seed: the same seed, the same numbers
    again = rulebook(event(tmp_path / "again", RR_TOML, RR_PLAYERS))
    assert c.players.select("player_id", "sno").equals(again.categories[0].players.select("player_id", "sno"))
    assert sorted(c.players["sno"].to_list()) == [1, 2, 3, 4, 5]
    table = [(b.white, b.black) for b in berger_table(5) if b.round == 1 and 0 not in (b.white, b.black)]
    assert c.pairing.boards == table == [(2, 5), (3, 4)]  # C.05 Annex 1, 3-4 / 5-6 player table


def test_a_round_robin_needs_start_numbers_given_or_drawn(tmp_path):
    toml = RR_TOML.replace("draw_seed = 42\n", "")
    run = rulebook(event(tmp_path / "none", toml, RR_PLAYERS))
    assert "draw_seed" in run.blocked and run.findings[-1].column == "start_no"
    given = "player_id,name,rating,start_no\n" + "".join(
        f"p{i},P{i},{1500 + i},{6 - i}\n" for i in range(1, 6))
    run = rulebook(event(tmp_path / "given", toml, given))
    assert not run.blocked
    assert dict(zip(run.categories[0].players["player_id"], run.categories[0].players["sno"])) == {
        "p1": 5, "p2": 4, "p3": 3, "p4": 2, "p5": 1}


def test_a_round_robin_ranks_with_its_tie_breaks_and_audits_a_pairing_off_the_table(tmp_path):
    run = rulebook(event(tmp_path / "rr", RR_TOML, RR_PLAYERS))
    ids = dict(zip(run.categories[0].players["sno"], run.categories[0].players["player_id"]))
    # round 1 as the table pairs it (2-5, 3-4), then round 2 with a board off the table
    results = ("round,board,white_id,black_id,result\n"
               f"1,1,{ids[2]},{ids[5]},1-0\n1,2,{ids[3]},{ids[4]},1/2-1/2\n"
               f"2,1,{ids[5]},{ids[3]},0-1\n2,2,{ids[2]},{ids[1]},1-0\n")
    run = rulebook(event(tmp_path / "played", RR_TOML, RR_PLAYERS, results))
    (c,) = run.categories
    assert c.done == 2
    assert {"DE", "WIN", "SB", "KS"} <= set(c.rankings[2].columns)
    table2 = {(b.white, b.black) for b in berger_table(5) if b.round == 2 and 0 not in (b.white, b.black)}
    assert table2 == {(5, 3), (1, 2)}
    assert [d["round"] for d in c.audit] == [2]  # 2-1 recorded where the table has 1-2


def test_a_double_round_robin_plays_the_second_cycle_with_colours_reversed(tmp_path):
    run = rulebook(event(tmp_path / "rr", RR_TOML.replace("draw_seed = 42", "draw_seed = 42\ncycles = 2"),
                         "player_id,name,rating\n" + "".join(f"p{i},P{i},{1500 + i}\n" for i in range(1, 5))))
    (c,) = run.categories
    assert c.rounds == 6
    first = {(b.white, b.black) for b in berger_table(4, double=True) if b.round <= 3}
    second = {(b.white, b.black) for b in berger_table(4, double=True) if b.round > 3}
    assert second == {(b, w) for w, b in first}


REFERENCE_TRFS = sorted((DATA / "tiebreak").rglob("*.trf")) + sorted((DATA / "dutch").rglob("*.trf"))[3::20]
"""The TRFs of ../shared/reference as tests/data copies them (SOURCE.md beside each): every
real event's (Vega's exports, FIDE TEC's exercises, a round robin) and one in 20 of the engine
cross-check tournaments (no birth dates, no federations; some with no round played yet)."""


@pytest.mark.parametrize("trf", REFERENCE_TRFS, ids=lambda p: str(p.relative_to(DATA)))
def test_import_trf_makes_an_event_whose_standings_are_the_files_points(tmp_path, trf):
    import_trf(trf, tmp_path / "ev")
    run = rulebook(tmp_path / "ev")
    assert [f for f in run.findings if f.severity is Severity.ERROR] == [] and not run.blocked
    t = parse_trf(trf.read_text(encoding="utf-8-sig"))
    (c,) = run.categories
    assert c.done == int(t.scorecard["round"].max() or 0)
    if c.done:
        got = dict(zip(c.rankings[c.done]["sno"], c.rankings[c.done]["points"]))
        assert got == {p.sno: pytest.approx(p.points) for p in t.players}
    else:  # nothing played yet: round 1 is paired
        assert c.pairing is not None and c.pairing.round == 1


def test_import_trf_of_a_round_robin_file_writes_the_round_robin_kind(tmp_path):
    trf = DATA / "tiebreak" / "fide_held_exercises" / "held_round_robin.trf"
    import_trf(trf, tmp_path / "ev")
    cfg = parse_event_config((tmp_path / "ev" / "event.toml").read_text())
    assert cfg.event.kind is EventKind.ROUND_ROBIN and cfg.require(RoundRobinConfig).cycles == 1
    players = pl.read_csv(tmp_path / "ev" / "players.csv", infer_schema_length=0)
    assert players.columns == ["player_id", "name", "rating", "section", "fide_id", "title",
                               "federation", "sex", "birth_date", "start_no"]


def test_a_plain_swiss_and_a_round_robin_publish_end_to_end(prefect_harness, tmp_path):
    from flows.pipeline.events import run_events
    from flows.pipeline.run_index import exit_status

    inputs = tmp_path / "inputs"
    players = "player_id,name,rating,email\n" + "".join(
        f"p{i},\"Player, No {i}\",{2000 - 10 * i},p{i}@club.example\n" for i in range(1, 7))
    event(inputs / "club-open", PLAIN_TOML, players)
    event(inputs / "club-rr", RR_TOML, RR_PLAYERS)
    out = tmp_path / "out"
    status = run_events(inputs, out, as_of=DAY)
    assert status == {"club-open": "ok", "club-rr": "ok"} and exit_status(out, status) == 0
    assert (out / "club-open" / "pairings" / "round-01.html").exists()
    assert not list((out / "club-open").glob("statistics.html"))  # no state associations
    letters = sorted(p.name for p in (out / "club-open" / "outbox").glob("player-*.eml"))
    assert len(letters) == 6  # every player with an email gets their board
    assert "Dear No 1 Player," in (out / "club-open" / "outbox" / letters[0]).read_text()
    rr = (out / "club-rr" / "pairings" / "round-01.html").read_text()
    assert "free: no game in the Berger table" in rr
    assert "Round robin, FIDE Berger tables (C.05 Annex 1)" in (out / "club-rr" / "index.html").read_text()


def test_a_round_robins_tie_break_contributions_are_those_its_standings_were_ranked_from(tmp_path):
    """FIDE C.07 §15.2: the contributions the standings' explanation and the players' pages show
    (tiebreak_detail) are those of the round robin's own evaluation, not a Swiss's."""
    run = rulebook(event(tmp_path / "rr", RR_TOML, RR_PLAYERS))
    ids = dict(zip(run.categories[0].players["sno"], run.categories[0].players["player_id"]))
    results = ("round,board,white_id,black_id,result\n"
               f"1,1,{ids[2]},{ids[5]},1-0\n1,2,{ids[3]},{ids[4]},1/2-1/2\n"
               f"2,1,{ids[5]},{ids[3]},0-1\n2,2,{ids[1]},{ids[2]},1-0\n")
    run = rulebook(event(tmp_path / "played", RR_TOML, RR_PLAYERS, results))
    (c,) = run.categories
    s = run.cfg.table(SwissConfig)
    as_played = {rr: explain_tiebreaks(c.card, c.players.select("sno", "rating"), s.tiebreaks,
                                       edition=s.tiebreak_edition, rounds=c.done, round_robin=rr)
                 for rr in (True, False)}
    assert not as_played[True].equals(as_played[False])  # §15.2 counts the byes otherwise
    assert tiebreak_detail(run, c).equals(as_played[True])
    c.tiebreak_detail = None  # not kept from the ranking: evaluated again, the same
    assert tiebreak_detail(run, c).equals(as_played[True])

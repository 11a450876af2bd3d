"""A team league (issue 45): ``kind = "team_round_robin"`` — divisions of teams, each a round
robin by the FIDE Berger tables; board results make matches (game points, match points, a
match lost by forfeit when a team fields fewer than half its boards); the rosters, the line-ups
and the fixtures are checked row by row; the standings rank by the primary score and FIDE's
team tie-breaks after every complete round."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path

import polars as pl
import pytest

from flows import io
from transforms.core.errors import ConfigError, Severity
from transforms.kinds import EventKind, parse_event_config
from transforms.team.config import TeamRules
from transforms.team.event import TeamRun, league_fixtures, prepare, standings
from transforms.team.matches import board_colour

DAY = dt.date(2025, 12, 1)

TOML = """
[event]
id = "league"
name = "County League"
kind = "team_round_robin"
start = 2025-10-01
end = 2026-03-31
venue = "Clubs"
organiser = "County association"
currency = "EUR"
contact = "League secretary"

[publish]
sender = "league@county.example"

[team]
boards = 4
{team}

[team_round_robin]
draw_seed = 7
{league}

[[team_round_robin.divisions]]
id = "one"
name = "Division One"
relegated = 1
"""

TEAMS = ("team_id,name,division,captain,captain_email,start_no\n"
         "A,Alpha,one,Ann,ann@a.example,1\nB,Bravo,one,Bob,,2\nC,Charlie,one,Cy,,3\n"
         "D,Delta,one,Di,,4\n")


def roster(teams: str = "ABCD", size: int = 6) -> str:
    rows = ["team_id,board,player_id,name,rating"]
    for t in teams:
        rows += [f"{t},{b},{t}{b},\"{t}, Player {b}\",{2100 - 50 * b}" for b in range(1, size + 1)]
    return "\n".join(rows) + "\n"


def match(rnd: int, a: str, b: str, results: str, players_a: str = "1234", players_b: str = "1234") -> str:
    """The four board rows of a match: ``results`` one character a board (``1`` team A's player
    won, ``0`` lost, ``=`` drew, ``+``/``-`` a forfeit, ``x`` neither fielded); ``players_*``
    the roster boards fielded, ``.`` for an empty board."""
    code = {"1": "1-0", "0": "0-1", "=": "1/2-1/2", "+": "+/-", "-": "-/+", "x": "-/-"}
    rows = []
    for board, (res, pa, pb) in enumerate(zip(results, players_a, players_b, strict=True), start=1):
        rows.append(f"{rnd},{a},{b},{board},{a + pa if pa != '.' else ''},"
                    f"{b + pb if pb != '.' else ''},{code[res]}")
    return "\n".join(rows) + "\n"


HEADER = "round,team_a,team_b,board,player_a,player_b,result\n"


def league(tmp_path: Path, results: str = "", *, team: str = "", league_toml: str = "",
           teams: str = TEAMS, rosters: str | None = None) -> TeamRun:
    folder = tmp_path / "league"
    folder.mkdir(exist_ok=True)
    (folder / "teams.csv").write_text(teams)
    (folder / "rosters.csv").write_text(rosters if rosters is not None else roster())
    (folder / "results.csv").write_text(HEADER + results)
    cfg = parse_event_config(TOML.format(team=team, league=league_toml))
    raw = {name: io.read_csv_strings(folder / name) for name in ("teams.csv", "rosters.csv", "results.csv")}
    run = prepare(cfg, raw, DAY)
    standings(run)
    return run


def errors(run: TeamRun, severity: Severity = Severity.ERROR) -> list[tuple[str, int | None, str, str]]:
    return [(f.file, f.line, f.column, f.value) for f in run.findings if f.severity is severity]


# Round 1 of four teams numbered 1-4 (Berger): 1-4, 2-3; round 2: 4-3, 1-2; round 3: 2-4, 3-1.
ROUND_1 = match(1, "A", "D", "1=10") + match(1, "B", "C", "==0=")
ROUND_2 = match(2, "D", "C", "0011") + match(2, "A", "B", "1111")


def test_the_kind_and_its_tables_are_read_and_checked():
    cfg = parse_event_config(TOML.format(team="", league=""))
    assert cfg.event.kind is EventKind.TEAM_ROUND_ROBIN
    rules = cfg.require(TeamRules)
    assert rules.match_points == (2, 1, 0) and rules.primary.code == "MP"
    for bad, key in ((
            "match_points = [1, 1, 0]", "match_points"), ("tiebreaks = [\"NOPE\"]", "NOPE"),
            ("boards = 0", "boards")):
        with pytest.raises(ConfigError, match=key):
            parse_event_config(TOML.format(team=bad, league="").replace("boards = 4\nboards = 0", "boards = 0"))
    swiss = TOML.format(team="", league="").replace('kind = "team_round_robin"', 'kind = "swiss"')
    swiss += '[swiss]\nrounds = 5\ncategories = [{ id = "open", name = "Open" }]\n'
    with pytest.raises(ConfigError, match="a table of 'team_round_robin' and 'team_swiss' events"):
        parse_event_config(swiss)


def test_a_division_is_a_berger_round_robin_of_its_teams_home_and_away_reversed_in_the_second_cycle():
    """FIDE C.05 Annex 1 on teams: every pair meets once a cycle, each team one match a round
    (with an odd number one team has no match), the second cycle the first with home and away
    reversed."""
    for n in (4, 5, 6):
        single = league_fixtures(n, 1)
        assert single["round"].max() == n - 1 + n % 2
        played = single.filter(pl.col("black") != 0)
        pairs = Counter(frozenset(p) for p in zip(played["white"], played["black"], strict=True))
        assert len(pairs) == n * (n - 1) // 2 and set(pairs.values()) == {1}
        for _, g in played.group_by("round"):
            teams = g["white"].to_list() + g["black"].to_list()
            assert len(teams) == len(set(teams))
        double = league_fixtures(n, 2).filter(pl.col("black") != 0)
        first = {(r["white"], r["black"]) for r in double.iter_rows(named=True) if r["round"] <= n - 1 + n % 2}
        second = {(r["black"], r["white"]) for r in double.iter_rows(named=True) if r["round"] > n - 1 + n % 2}
        assert first == second


def test_team_a_has_white_on_board_one_and_the_colours_alternate():
    """FIDE C.04.6: the first-named team's player has White on the odd boards."""
    assert [board_colour(b) for b in range(1, 7)] == ["w", "b", "w", "b", "w", "b"]


def test_a_match_scores_its_boards_and_match_points_by_the_leagues_table(tmp_path):
    run = league(tmp_path, ROUND_1)
    assert errors(run) == []
    g = run.groups[0]
    m = {(r["white"], r["black"]): r for r in g.matches.iter_rows(named=True)}
    assert (m[(1, 4)]["white_gp"], m[(1, 4)]["black_gp"], m[(1, 4)]["white_mp"]) == (2.5, 1.5, 2.0)
    assert (m[(2, 3)]["white_gp"], m[(2, 3)]["black_mp"], m[(2, 3)]["white_mp"]) == (1.5, 2.0, 0.0)
    ranking = g.rankings[1]
    assert ranking["name"].to_list()[:2] == ["Alpha", "Charlie"]
    three = league(tmp_path, ROUND_1, team="match_points = [3, 1, 0]").groups[0].rankings[1]
    assert three.filter(pl.col("name") == "Alpha")["mp"].item() == 3.0


def test_a_drawn_match_scores_the_draws_match_points(tmp_path):
    run = league(tmp_path, match(1, "A", "D", "1=0=") + match(1, "B", "C", "1111"))
    r = run.groups[0].rankings[1]
    assert r.filter(pl.col("name").is_in(["Alpha", "Delta"]))["mp"].to_list() == [1.0, 1.0]


def test_a_team_fielding_fewer_than_half_its_boards_loses_the_match_by_forfeit(tmp_path):
    """Team regulations (``[team] forfeit_below_half``): Alpha fields one of four boards and
    wins that game; Delta fields two (half: enough). On the boards it is 1 - 1, but Alpha loses
    the match; without the rule it is a drawn match."""
    results = match(1, "A", "D", "1-xx", "1...", "12..") + match(1, "B", "C", "====")
    run = league(tmp_path, results)
    g = run.groups[0]
    m = g.matches.filter(pl.col("white") == 1).row(0, named=True)
    assert (m["white_gp"], m["black_gp"], m["status"]) == (1.0, 1.0, "forfeit_white")
    assert (m["white_mp"], m["black_mp"]) == (0.0, 2.0)
    assert g.card.filter(pl.col("sno") == 1)["kind"].item() == "forfeit_loss"
    lenient = league(tmp_path, results, team="forfeit_below_half = false").groups[0]
    m = lenient.matches.filter(pl.col("white") == 1).row(0, named=True)
    assert (m["white_mp"], m["black_mp"], m["status"]) == (1.0, 1.0, "played")


def test_game_points_first_ranks_by_the_boards(tmp_path):
    """``[team] primary = "game_points"``: the sum of the boards ranks first."""
    results = match(1, "A", "D", "1000") + match(1, "B", "C", "1===")
    mp = league(tmp_path, results).groups[0].rankings[1]
    gp = league(tmp_path, results, team='primary = "game_points"').groups[0].rankings[1]
    assert mp["name"][0] in ("Bravo", "Delta") and mp.filter(pl.col("name") == "Delta")["rank"].item() == 1
    assert gp["name"][0] == "Delta" and gp.filter(pl.col("name") == "Bravo")["rank"].item() == 2


def test_standings_wait_for_a_round_to_be_complete(tmp_path):
    run = league(tmp_path, ROUND_1 + match(2, "D", "C", "0011"))
    g = run.groups[0]
    assert g.done == 1 and sorted(g.rankings) == [1] and g.next_round == 2
    unfinished = ROUND_1.replace("1,B,C,4,B4,C4,1/2-1/2", "1,B,C,4,B4,C4,")
    assert league(tmp_path, unfinished).groups[0].done == 0


def test_a_player_plays_for_the_team_whose_roster_lists_them_once_a_round(tmp_path):
    """Team regulations: a player on another team's roster, one playing twice in a round, a
    board beyond ``[team] boards``: each an error naming the line and the column."""
    results = ROUND_1.replace("1,A,D,2,A2,D2", "1,A,D,2,B2,D2").replace("1,B,C,2,B2,C2", "1,B,C,2,B5,C2")
    results += "1,B,C,5,B6,C6,1-0\n"
    results = results.replace("1,A,D,4,A4,D4,0-1", "1,A,D,4,,D4,0-1")
    run = league(tmp_path, results)
    got = errors(run)
    assert ("results.csv", 3, "player_a", "B2") in got
    assert ("results.csv", 5, "result", "0-1") in got  # a game over the board needs two players
    assert ("results.csv", 10, "board", "5") in got
    assert len(got) == 3
    assert run.blocked and not run.groups[0].rankings


def test_a_team_is_on_one_roster_row_per_player_and_at_most_boards_plus_reserves(tmp_path):
    rosters = roster() + "B,7,A1,\"Alpha, Player 1\",2050\nC,7,C7,\"Charlie, Seven\",1500\n"
    run = league(tmp_path, "", rosters=rosters)
    got = {(f.line, f.column): f.reason for f in run.findings if f.severity is Severity.ERROR}
    assert "one team per player" in got[(26, "player_id")]
    assert "more than 6 players" in got[(27, "player_id")]


def test_the_board_order_and_empty_boards_are_checked_as_warnings(tmp_path):
    """Team regulations (``[team] board_order = "roster"``, ``empty_boards_at_bottom``): a
    player above one listed before them, an empty board above a fielded one: warnings on the
    row; the result stands."""
    results = match(1, "A", "D", "1=10", "2134", "1234") + match(1, "B", "C", "==-=", "12.4", "1234")
    run = league(tmp_path, results)
    warned = {(f.line, f.column) for f in run.findings if f.severity is Severity.WARNING}
    assert (3, "player_a") in warned  # A1 on board 2 below A2 on board 1
    assert (8, "player_a") in warned  # B's board 3 empty above board 4
    assert errors(run) == [] and run.groups[0].done == 1
    by_rating = league(tmp_path, results, team='board_order = "rating"\nrating_tolerance = 100')
    assert (3, "player_a") not in {(f.line, f.column) for f in by_rating.findings
                                   if f.severity is Severity.WARNING}


def test_a_match_is_played_as_the_fixtures_say_home_team_first(tmp_path):
    """FIDE C.05 Annex 1: a match the round's fixtures do not have is an error; the message
    says when the teams are only the other way round."""
    swapped = match(1, "D", "A", "1=10") + match(1, "B", "C", "==0=")
    got = [f for f in league(tmp_path, swapped).findings if f.severity is Severity.ERROR]
    assert len(got) == 1 and got[0].line == 2 and "the other way round" in got[0].reason
    wrong = match(1, "A", "B", "1=10") + match(1, "D", "C", "==0=")
    assert len([f for f in league(tmp_path, wrong).findings if f.severity is Severity.ERROR]) == 2


def test_a_team_of_an_unknown_division_is_named_with_its_line(tmp_path):
    teams = TEAMS + "E,Echo,two,,,\n"
    run = league(tmp_path, "", teams=teams)
    assert ("teams.csv", 6, "division", "two") in errors(run)
    assert run.groups[0].teams.height == 4


def test_the_direct_encounter_breaks_a_tie_of_two_teams_that_met(tmp_path):
    """FIDE C.07 6 (DE) after match and game points: Alpha and Bravo end the single round
    robin equal on both (4 match points, 7 game points); Bravo won their match, so ranks
    first; without DE they share the place."""
    results = (match(1, "A", "D", "1=10") + match(1, "B", "C", "==0=")
               + match(2, "D", "C", "1=10") + match(2, "A", "B", "0=0=")
               + match(3, "B", "D", "1=10") + match(3, "C", "A", "0=00"))
    run = league(tmp_path, results, team='tiebreaks = ["GPTS", "DE"]')
    assert errors(run) == [] and run.groups[0].done == 3
    top = run.groups[0].rankings[3].head(2)
    assert top["name"].to_list() == ["Bravo", "Alpha"] and top["rank"].to_list() == [1, 2]
    assert top["mp"].to_list() == [4.0, 4.0] and top["gp"].to_list() == [7.0, 7.0]
    shared = league(tmp_path, results, team='tiebreaks = ["GPTS"]').groups[0].rankings[3].head(2)
    assert shared["rank"].to_list() == [1, 1] and shared["tied_after_all"].all()


def test_a_team_without_a_match_in_an_odd_division_scores_nothing_that_round(tmp_path):
    """FIDE C.05 Annex 1 (five teams: the Berger table of six, the team paired with 6 has no
    match): round 1's team 1 (A) sits out — on the card an unplayed round without points
    (``absent``), the round complete once the two matches are in (docs/decisions.md)."""
    teams = TEAMS + "E,Echo,one,Ed,,5\n"
    results = match(1, "B", "E", "1=10") + match(1, "C", "D", "==0=")
    run = league(tmp_path, results, teams=teams, rosters=roster("ABCDE"))
    (g,) = run.groups
    assert g.fixtures.filter(pl.col("round") == 1).filter(pl.col("black") == 0)["white"].to_list() == [1]
    assert g.done == 1
    a = g.card.filter((pl.col("round") == 1) & (pl.col("sno") == 1)).row(0, named=True)
    assert (a["kind"], a["mp"], a["gp"], a["opponent"]) == ("absent", 0.0, 0.0, None)
    assert g.rankings[1].filter(pl.col("sno") == 1)["mp"].item() == 0.0

"""Team regulations (line-ups, issue 45): lineups.csv, the line-up a captain sends before a
round — checked against the roster and the board-order rule, the expected line-up of every team
of the next round (the roster's order where none was sent), and a result that fields another
player than the line-up named (transforms/team/lineups.py)."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from flows import io
from tests.rulebook.test_team_league import DAY, HEADER, ROUND_1, TEAMS, TOML, roster
from transforms.core.errors import Severity
from transforms.kinds import parse_event_config
from transforms.team.event import RULE_STEPS, TeamRun, prepare

LINEUP_HEADER = "round,team_id,board,player_id\n"


def league_with(tmp_path: Path, lineups: str, results: str = ROUND_1) -> TeamRun:
    folder = tmp_path / "league"
    folder.mkdir(exist_ok=True)
    (folder / "teams.csv").write_text(TEAMS)
    (folder / "rosters.csv").write_text(roster())
    (folder / "results.csv").write_text(HEADER + results)
    (folder / "lineups.csv").write_text(LINEUP_HEADER + lineups)
    cfg = parse_event_config(TOML.format(team="", league=""))
    raw = {n: io.read_csv_strings(folder / n)
           for n in ("teams.csv", "rosters.csv", "results.csv", "lineups.csv")}
    run = prepare(cfg, raw, DAY)
    for _, step in RULE_STEPS:
        step(run)
    return run


def found(run: TeamRun, severity: Severity) -> set[tuple[str, int | None, str, str]]:
    return {(f.file, f.line, f.column, f.value) for f in run.findings if f.severity is severity}


def test_a_sent_line_up_is_the_teams_line_up_for_the_next_round(tmp_path):
    """Round 2 (after round 1): A sent its line-up with a reserve on board 4; B did not: B's
    expected line-up is its roster's first four, in order."""
    run = league_with(tmp_path, "2,A,1,A1\n2,A,2,A2\n2,A,3,A3\n2,A,4,A5\n")
    (g,) = run.groups
    assert g.next_round == 2
    a = g.lineups.filter(pl.col("sno") == 1).sort("board")
    assert a["player_id"].to_list() == ["A1", "A2", "A3", "A5"] and a["sent"].all()
    b = g.lineups.filter(pl.col("sno") == 2).sort("board")
    assert b["player_id"].to_list() == ["B1", "B2", "B3", "B4"] and not b["sent"].any()
    assert found(run, Severity.ERROR) == set() and found(run, Severity.WARNING) == set()


def test_a_line_up_row_that_cannot_be_is_an_error_naming_its_cell(tmp_path):
    run = league_with(tmp_path, "2,A,1,B1\n2,A,5,A1\n2,A,2,A2\n2,A,2,A3\n2,A,3,A2\n2,Z,1,Z1\n9,A,4,A4\n")
    errors = found(run, Severity.ERROR)
    assert ("lineups.csv", 2, "player_id", "B1") in errors      # not on A's roster
    assert ("lineups.csv", 3, "board", "5") in errors           # four boards
    assert ("lineups.csv", 5, "board", "2") in errors           # board 2 twice
    assert ("lineups.csv", 6, "player_id", "A2") in errors      # A2 twice in round 2
    assert ("lineups.csv", 7, "team_id", "Z") in errors         # no such team
    assert ("lineups.csv", 8, "round", "9") in errors           # four teams, once: three rounds


def test_a_line_up_out_of_roster_order_or_with_a_gap_is_a_warning(tmp_path):
    run = league_with(tmp_path, "2,A,1,A2\n2,A,2,A1\n2,A,4,A3\n")
    warnings = found(run, Severity.WARNING)
    assert ("lineups.csv", 3, "player_id", "A1") in warnings    # roster board 1 below board 2
    assert ("lineups.csv", 4, "board", "4") in warnings         # board 3 empty above board 4


def test_a_result_that_fields_another_player_than_the_line_up_is_a_warning(tmp_path):
    """Round 1 recorded with A's roster order; A's line-up for round 1 had A5 on board 4."""
    run = league_with(tmp_path, "1,A,1,A1\n1,A,2,A2\n1,A,3,A3\n1,A,4,A5\n")
    warnings = [f for f in run.findings if f.severity is Severity.WARNING and f.file == "results.csv"]
    assert [(f.column, f.value) for f in warnings] == [("player_a", "A4")]
    assert "names A5" in warnings[0].reason and warnings[0].line == 5  # header, then boards 1-4

"""The individual side of a team league (issue 45): each player's games from the board results
(colours alternating down the boards), their FIDE rating change as in an individual event
(B.02), and the board prizes by performance with a minimum of games."""

from __future__ import annotations

import polars as pl

from tests.rulebook.test_team_league import ROUND_1, ROUND_2, league, match
from transforms.core.model import Kind
from transforms.team.event import individual_results
from transforms.team.players import board_prizes, player_boards


def run_with_players(tmp_path, results, team=""):
    run = league(tmp_path, results, team=team)
    individual_results(run)
    return run.groups[0]


def pno(group, player_id: str) -> int:
    return group.players.filter(pl.col("player_id") == player_id)["pno"].item()


def test_each_board_gives_both_players_a_game_in_the_colour_of_the_board(tmp_path):
    """FIDE C.04.6: team A (Alpha, home) has White on boards 1 and 3, Black on 2 and 4."""
    g = run_with_players(tmp_path, ROUND_1)
    games = g.games
    a2 = games.filter(pl.col("pno") == pno(g, "A2")).row(0, named=True)
    d2 = games.filter(pl.col("pno") == pno(g, "D2")).row(0, named=True)
    assert (a2["colour"], d2["colour"]) == ("b", "w")
    assert a2["opponent_pno"] == pno(g, "D2") and a2["team_sno"] == 1 and a2["opponent_team_sno"] == 4
    a3 = games.filter(pl.col("pno") == pno(g, "A3")).row(0, named=True)
    assert (a3["colour"], a3["points"], a3["kind"]) == ("w", 1.0, Kind.PLAYED.value)
    assert games.height == 16  # two matches of four boards, two players a board


def test_a_board_won_by_forfeit_is_a_forfeit_win_of_the_player_fielded_only(tmp_path):
    g = run_with_players(tmp_path, match(1, "A", "D", "1+==", "1234", "1.34") + match(1, "B", "C", "===="))
    a2 = g.games.filter(pl.col("pno") == pno(g, "A2")).row(0, named=True)
    assert (a2["kind"], a2["points"], a2["opponent_pno"]) == (Kind.FORFEIT_WIN.value, 1.0, None)
    assert g.games.filter(pl.col("opponent_team_sno") == 1).height == 3  # D fielded three


def test_the_rating_change_is_the_individual_events(tmp_path):
    """FIDE B.02 8.3: Alpha's board 1 (2050) beats Delta's (2050) — a game between equal
    ratings is worth K x 0.5: +10 with K 20."""
    g = run_with_players(tmp_path, ROUND_1)
    a1 = g.ratings.players.filter(pl.col("sno") == pno(g, "A1")).row(0, named=True)
    assert (a1["rating"], a1["games"], a1["k"], a1["change"]) == (2050, 1, 20, 10)
    d1 = g.ratings.players.filter(pl.col("sno") == pno(g, "D1")).row(0, named=True)
    assert d1["change"] == -10


def test_a_players_board_is_the_one_they_played_most_the_higher_on_a_tie(tmp_path):
    """Team regulations (board prizes): A5 plays board 4 twice and board 1 once: board 4; A2
    boards 2 and 1 once each: board 1."""
    results = (match(1, "A", "D", "====", "5234", "1234") + match(1, "B", "C", "====")
               + match(2, "D", "C", "====") + match(2, "A", "B", "====", "2345", "1234")
               + match(3, "B", "D", "====") + match(3, "C", "A", "====", "1234", "1365"))
    g = run_with_players(tmp_path, results)
    boards = dict(player_boards(g.games).iter_rows())
    assert boards[pno(g, "A5")] == 4 and boards[pno(g, "A2")] == 1


def test_board_prizes_go_by_performance_among_players_with_enough_games(tmp_path):
    """Team regulations ([team] board_prize_min_games), FIDE B.02 8.1.1: after two rounds the
    board-1 players with two games are ranked by performance; with three games needed nobody
    qualifies; 0 games: no board prizes."""
    g = run_with_players(tmp_path, ROUND_1 + ROUND_2)
    prizes = board_prizes(g.games, g.ratings, 2)
    first = prizes.filter(pl.col("board") == 1).sort("place")
    perf = dict(zip(g.ratings.players["sno"].to_list(), g.ratings.players["performance"].to_list(), strict=True))
    assert first["performance"].to_list() == sorted(first["performance"].to_list(), reverse=True)
    assert all(perf[p] == v for p, v in zip(first["pno"].to_list(), first["performance"].to_list(), strict=True))
    assert first["pno"][0] == pno(g, "A1")  # two wins
    assert board_prizes(g.games, g.ratings, 3).height == 0
    assert board_prizes(g.games, g.ratings, 0).height == 0

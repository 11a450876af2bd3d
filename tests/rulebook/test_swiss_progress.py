"""The numbers of a player's page, the prize list and the statistics by state association
(transforms/swiss/progress.py, transforms/swiss/statistics.py), on small events drawn below."""

from __future__ import annotations

import polars as pl
import pytest

from transforms.core.model import SCORECARD_SCHEMA
from transforms.fide.standings import rank_players
from transforms.swiss.progress import EQUAL_AFTER_ALL, round_by_round, tiebreak_separation
from transforms.swiss.statistics import state_statistics, total_by_state


def card(rows: list[tuple]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=SCORECARD_SCHEMA, orient="row")


def game(rnd: int, white: int, black: int, white_points: float, kind: str = "played",
         black_kind: str | None = None) -> list[tuple]:
    return [(rnd, white, black, "w", white_points, kind),
            (rnd, black, white, "b", 1 - white_points, black_kind or kind)]


def test_round_by_round_gives_points_and_rank_after_every_round_as_the_standings_print_them():
    #        r1       r2
    # 1   2w1      3w1     2 points
    # 2   1b0      4w½     ½
    # 3   4w1      1b0     1
    # 4   3b0      2b½     ½
    # After round 1, 1 and 3 are equal on points and Buchholz (0 each): "1-2"; so are 2 and 4.
    sc = card(game(1, 1, 2, 1) + game(1, 3, 4, 1) + game(2, 1, 3, 1) + game(2, 2, 4, 0.5))
    players = pl.DataFrame({"sno": [1, 2, 3, 4], "name": list("abcd"), "rating": [0] * 4})
    rankings = {r: rank_players(sc.filter(pl.col("round") <= r), players, ["BH"], edition="fide-2024",
                                rounds=r) for r in (1, 2)}
    got = round_by_round(sc, rankings)
    rows = {(r["sno"], r["round"]): (r["points"], r["total"], r["rank_label"]) for r in got.iter_rows(named=True)}
    assert rows[(1, 1)] == (1.0, 1.0, "1-2") and rows[(3, 1)] == (1.0, 1.0, "1-2")
    assert rows[(2, 1)] == (0.0, 0.0, "3-4")
    assert rows[(1, 2)] == (1.0, 2.0, "1")
    assert rows[(3, 2)] == (0.0, 1.0, "2")
    # 2 and 4 both have ½; Buchholz 2: 2 + ½, 4: 1 + ½
    assert rows[(2, 2)] == (0.5, 0.5, "3") and rows[(4, 2)] == (0.5, 0.5, "4")
    assert got.columns == ["round", "sno", "opponent", "colour", "kind", "points", "total", "rank", "rank_label"]


def test_round_by_round_leaves_total_and_rank_empty_for_a_round_without_standings():
    sc = card(game(1, 1, 2, 1) + game(2, 1, 2, 0.5))
    players = pl.DataFrame({"sno": [1, 2], "name": ["a", "b"], "rating": [0, 0]})
    rankings = {1: rank_players(sc.filter(pl.col("round") == 1), players, ["BH"], edition="fide-2024", rounds=1)}
    got = round_by_round(sc, rankings).filter(pl.col("round") == 2)
    assert got["total"].to_list() == [None, None] and got["rank"].to_list() == [None, None]


def ranking(rows: list[tuple]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema={"rank": pl.Int32, "sno": pl.Int32, "points": pl.Float64,
                                      "BH": pl.Float64, "DE": pl.Float64, "WIN": pl.Float64},
                        orient="row")


def test_separation_names_the_first_tiebreak_that_differs_with_both_values():
    frame = ranking([(1, 5, 3.0, 6, None, 2), (2, 7, 2.5, 7, 1, 2), (3, 2, 2.5, 7, 2, 2),
                     (4, 9, 2.5, 7, None, 2), (5, 4, 2.5, 5, None, 1), (5, 6, 2.5, 5, None, 1)])
    got = {r["sno"]: (r["next_sno"], r["by"], r["value"], r["next_value"])
           for r in tiebreak_separation(frame, ["BH", "DE", "WIN"]).iter_rows(named=True)}
    assert got[5] == (7, "points", 3.0, 2.5)
    assert got[7] == (2, "DE", 1.0, 2.0)        # BH equal, DE places 1 and 2
    # Decision: a value against no value (DE outside a group it decides) separates them
    assert got[2] == (9, "DE", 2.0, None)
    assert got[9] == (4, "BH", 7.0, 5.0)
    assert got[4] == (6, EQUAL_AFTER_ALL, None, None)   # shared rank 5: the arbiter decides
    assert got[6] == (None, None, None, None)           # the last player has no next one


def test_separation_follows_the_ranking_order_not_the_frame_order():
    frame = ranking([(2, 7, 2.5, 5, None, 1), (1, 5, 2.5, 6, None, 2)])
    got = tiebreak_separation(frame, ["BH", "DE", "WIN"]).row(0, named=True)
    assert (got["sno"], got["next_sno"], got["by"]) == (5, 7, "BH")


def three_rounds() -> tuple[pl.DataFrame, pl.DataFrame]:
    #           r1            r2                 r3
    # 1 TN   2w1           3w+ (forfeit win)   5w½
    # 2 TN   1b0           5w0                 4w1
    # 3 KA   4w½           1b− (forfeit loss)  absent (withdrawn)
    # 4 --   3b½           HPB                 2b0
    # 5 KA   PAB           2b1                 1b½
    sc = card(game(1, 1, 2, 1) + game(1, 3, 4, 0.5) + [(1, 5, None, None, 1.0, "PAB")]
              + game(2, 1, 3, 1, "forfeit_win", "forfeit_loss") + game(2, 2, 5, 0)
              + [(2, 4, None, None, 0.5, "HPB")]
              + game(3, 1, 5, 0.5) + game(3, 2, 4, 1) + [(3, 3, None, None, 0.0, "absent")])
    players = pl.DataFrame({"sno": [1, 2, 3, 4, 5], "state": ["TN", "TN", "KA", None, "KA"]})
    return sc, players


def test_statistics_by_state_count_games_over_the_board_and_unplayed_rounds_apart():
    sc, players = three_rounds()
    got = {r["state"]: r for r in state_statistics(sc, players).iter_rows(named=True)}
    tn, ka, none = got["TN"], got["KA"], got[""]
    assert (tn["players"], tn["rounds"], tn["points"], tn["games"], tn["wins"], tn["draws"],
            tn["losses"], tn["unplayed"]) == (2, 6, 3.5, 5, 2, 1, 2, 1)
    # the forfeit win is a point, not a game won (FIDE C.04.1)
    assert tn["score_pct"] == pytest.approx(58.3)
    # Decision: the withdrawn player's absent round is not counted (5 rounds, not 6); his
    # forfeit loss is (he was paired); the PAB is an unplayed round worth its point
    assert (ka["players"], ka["rounds"], ka["points"], ka["games"], ka["wins"], ka["draws"],
            ka["losses"], ka["unplayed"], ka["score_pct"]) == (2, 5, 3.0, 3, 1, 2, 0, 2, 60.0)
    assert (none["players"], none["rounds"], none["points"], none["games"], none["unplayed"],
            none["score_pct"]) == (1, 3, 1.0, 2, 1, pytest.approx(33.3))
    assert state_statistics(sc, players)["state"].to_list() == ["TN", "KA", ""]  # by points


def test_statistics_over_all_categories_add_up_and_take_the_percentage_from_the_sums():
    sc, players = three_rounds()
    one = state_statistics(sc, players)
    # a second category where TN scores 0 of 3 with one player
    other = state_statistics(card([(1, 1, 2, "w", 0.0, "played"), (1, 2, 1, "b", 1.0, "played"),
                                   (2, 1, None, None, 0.0, "ZPB"), (2, 2, None, None, 1.0, "PAB"),
                                   (3, 1, 2, "b", 0.0, "played"), (3, 2, 1, "w", 1.0, "played")]),
                             pl.DataFrame({"sno": [1, 2], "state": ["TN", "UP"]}))
    total = {r["state"]: r for r in total_by_state([one, other]).iter_rows(named=True)}
    assert (total["TN"]["players"], total["TN"]["rounds"], total["TN"]["points"]) == (3, 9, 3.5)
    assert total["TN"]["score_pct"] == pytest.approx(38.9)   # 3.5 / 9, not (58.3 + 0) / 2
    assert total["UP"]["score_pct"] == 100.0
    assert total_by_state([]).height == 0

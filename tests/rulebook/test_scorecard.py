"""The scorecard: one row per player per round, derived from results.csv."""

import polars as pl

from transforms.core.model import Kind
from transforms.swiss.scorecard import (
    assign_start_numbers,
    complete_rounds,
    crosstable,
    points,
    points_ranking,
    scorecard_from_results,
)


def players():
    return pl.DataFrame({
        "player_id": ["a", "b", "c", "d"], "name": ["Ann", "Bob", "Cid", "Dan"],
        "section": ["open"] * 4, "rating": [2000, 2100, None, 2100],
        "title": [None, "FM", None, None],
    }, schema_overrides={"title": pl.String})


def results(*rows):
    return pl.DataFrame(rows, schema={"round": pl.Int64, "white_id": pl.String,
                                      "black_id": pl.String, "result": pl.String}, orient="row")


def test_start_numbers_follow_rating_then_title_then_name():
    # FIDE C.04.2 A.2: rating, then title (Bob FM before Dan), then name; unrated last
    p = assign_start_numbers(players())
    assert p.sort("sno")["player_id"].to_list() == ["b", "d", "a", "c"]


def test_each_player_gets_one_row_per_round_with_kind_and_points():
    #        r1          r2
    #  b  w d 1-0     w a +/-
    #  d  b b 0-1     PAB
    #  a  HPB         b b -/+  (forfeit loss)
    #  c  absent      absent
    p = assign_start_numbers(players())
    card = scorecard_from_results(results((1, "b", "d", "1-0"), (1, "a", None, "HPB"),
                                          (2, "b", "a", "+/-"), (2, "d", None, "PAB")),
                                  p.select("player_id", "sno"), through_round=2, pab_points=1.0)
    assert card.height == 8
    row = {(r["sno"], r["round"]): r for r in card.iter_rows(named=True)}
    b, d, a, c = 1, 2, 3, 4
    assert row[(b, 2)]["kind"] == Kind.FORFEIT_WIN and row[(b, 2)]["colour"] == "w"
    assert row[(a, 2)]["kind"] == Kind.FORFEIT_LOSS and row[(a, 2)]["points"] == 0
    assert row[(a, 1)]["kind"] == Kind.HPB and row[(a, 1)]["points"] == 0.5
    assert row[(d, 2)]["kind"] == Kind.PAB and row[(d, 2)]["opponent"] is None
    assert row[(c, 1)]["kind"] == Kind.ABSENT and row[(c, 2)]["points"] == 0
    assert dict(points(card).iter_rows()) == {b: 2.0, d: 1.0, a: 0.5, c: 0.0}


def test_double_forfeit_is_a_forfeit_loss_for_both():
    p = assign_start_numbers(players())
    card = scorecard_from_results(results((1, "a", "c", "-/-")), p.select("player_id", "sno"),
                                  through_round=1)
    both = card.filter(pl.col("opponent").is_not_null())
    assert both["kind"].to_list() == ["forfeit_loss", "forfeit_loss"]
    assert both["points"].sum() == 0


def test_a_round_is_complete_only_when_every_board_has_a_result():
    r = results((1, "a", "b", "1-0"), (2, "a", "c", None), (2, "b", "d", "0-1"), (3, "a", "d", "1-0"))
    assert complete_rounds(r) == 1


def test_crosstable_cells_show_opponent_rank_colour_and_result():
    p = assign_start_numbers(players())
    card = scorecard_from_results(results((1, "b", "d", "1/2-1/2"), (1, "a", "c", "-/+")),
                                  p.select("player_id", "sno"), through_round=1)
    ranking = points_ranking(card, p)
    cross = crosstable(card, ranking)
    cells = dict(zip(cross["name"], cross["r1"]))
    rank = dict(zip(ranking["name"], ranking["rank"]))
    assert cells["Bob"] == f"{rank['Dan']}w½"
    assert cells["Cid"] == f"{rank['Ann']}b+"
    assert cells["Ann"] == f"{rank['Cid']}w-"


def test_start_numbers_from_a_trf_takeover_are_kept():
    p = players().with_columns(pl.Series("start_no", [4, 3, 2, 1]))
    assert assign_start_numbers(p).sort("sno")["player_id"].to_list() == ["d", "c", "b", "a"]


def test_a_category_without_players_has_an_empty_scorecard():
    # every entry of the category rejected (e.g. birth dates missing): no crash, no rows
    none = pl.DataFrame(schema={"player_id": pl.String, "sno": pl.Int32})
    card = scorecard_from_results(results(), none, through_round=0)
    assert card.height == 0

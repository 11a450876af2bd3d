"""GK rules 4, 5, 6 — weighted points, prizes scaled by entries, tie sharing to the cent, awards."""

from __future__ import annotations

from decimal import Decimal

import polars as pl
import pytest

from transforms.core.config import from_table
from transforms.core.errors import ConfigError
from transforms.golden_knights.prizes import (
    rule_4_awards,
    rule_5_prizes,
    rule_6_prize_split,
    rule_6_stage_record,
    rule_6_weighted_points,
    scaled_prize_table,
    share_prize_places,
)
from transforms.golden_knights.rules import GKRules

RULES = GKRules()
C = Decimal


def card(rows: list[tuple[str, str, float, str]]) -> pl.DataFrame:
    """rows: (entry_id, stage, points, kind)."""
    return pl.DataFrame(rows, orient="row", schema={"entry_id": pl.String, "stage": pl.String,
                                                    "points": pl.Float64, "kind": pl.String})


def standings(weighted: dict[str, float], ineligible: set[str] = frozenset()) -> pl.DataFrame:
    ids = list(weighted)
    return pl.DataFrame({
        "entry_id": ids, "member_id": [f"M{e}" for e in ids], "name": [f"Player {e}" for e in ids],
        "weighted_cents": [round(weighted[e] * 100) for e in ids],
        "weighted_points": [weighted[e] for e in ids],
        "prize_eligible": [e not in ineligible for e in ids],
    })


def amounts(prizes: pl.DataFrame) -> dict[str, Decimal]:
    return dict(prizes.select("entry_id", "amount").iter_rows())


def test_gk_rule_6_eighteen_wins_make_the_perfect_46_20():
    rows = [("P", st, 1.0, "played") for st in ("preliminary", "semifinal", "final") for _ in range(6)]
    wp = rule_6_weighted_points(RULES, card(rows))
    assert wp.select("weighted_cents", "weighted_points").row(0) == (4620, 46.2)


def test_gk_rule_6_draws_count_half_and_forfeit_wins_count_as_wins():
    rows = [("P", "preliminary", 0.5, "played"), ("P", "semifinal", 0.5, "played"), ("P", "final", 0.5, "played"),
            ("P", "final", 1.0, "forfeit_win"), ("P", "final", 0.0, "forfeit_loss"), ("P", "semifinal", None, None)]
    wp = rule_6_weighted_points(RULES, card(rows))
    # 0.5 + 1.1 + 2.25 + 4.5
    assert wp["weighted_cents"][0] == 835


def test_gk_rule_5_prize_fund_for_200_entries_is_the_table():
    assert scaled_prize_table(RULES, 200) == [80000, 50000, 30000] + [10000] * 7


def test_gk_rule_5_prize_fund_scales_with_entries_assigned():
    assert scaled_prize_table(RULES, 203) == [81200, 50750, 30450] + [10150] * 7
    assert scaled_prize_table(RULES, 189)[:4] == [75600, 47250, 28350, 9450]


def test_gk_rule_5_each_scaled_prize_is_rounded_half_up_to_the_cent():
    rules = GKRules(prize_table=(C("1.01"), C("1.03")), prize_base_entries=200, max_entries_per_member=10)
    # 1.01 × 100/200 = 0.505 → 0.51; 1.03 × 100/200 = 0.515 → 0.52
    assert scaled_prize_table(rules, 100) == [51, 52]


def test_gk_rule_5_only_pin_holders_take_prizes_and_places_close_up():
    st = standings({"A": 40.0, "B": 30.0, "C": 20.0}, ineligible={"A"})
    p = rule_5_prizes(RULES, st, 200)
    assert p.select("place", "entry_id", "amount").rows() == [(1, "B", C("800.00")), (2, "C", C("500.00"))]


def test_gk_rule_6_two_tied_for_second_share_the_second_and_third_prizes():
    st = standings({f"P{i:02d}": 30.0 - i for i in range(12)} | {"P01": 28.0, "P02": 28.0})
    p = rule_5_prizes(RULES, st, 200)
    a = amounts(p)
    assert a["P01"] == a["P02"] == C("400.00")
    assert dict(p.select("entry_id", "place").iter_rows())["P02"] == 2
    assert a["P03"] == C("100.00")  # the 4th prize
    assert sum(a.values()) == C("2300.00")


def test_gk_rule_6_three_tied_for_first_share_1600_with_the_odd_cent_to_the_first_entry_id():
    st = standings({"Z": 40.0, "A": 40.0, "M": 40.0} | {f"Q{i}": 10.0 - i * 0.5 for i in range(8)})
    a = amounts(rule_5_prizes(RULES, st, 200))
    # 800 + 500 + 300 = 1600.00 / 3 = 533.333… → 533.34, 533.33, 533.33
    assert (a["A"], a["M"], a["Z"]) == (C("533.34"), C("533.33"), C("533.33"))
    assert sum(a.values()) == C("2300.00")


def test_gk_rule_6_a_tie_across_the_last_money_place_shares_only_the_prizes_that_exist():
    # places 1-8 distinct, three tied for 9th: places 9, 10, 11 → 100 + 100 + 0 shared by three
    w = {f"P{i}": 40.0 - i for i in range(1, 9)} | {"T1": 20.0, "T2": 20.0, "T3": 20.0, "X": 1.0}
    a = amounts(rule_5_prizes(RULES, standings(w), 200))
    assert (a["T1"], a["T2"], a["T3"]) == (C("66.67"), C("66.67"), C("66.66"))
    assert "X" not in a
    assert sum(a.values()) == C("2300.00")


def test_gk_rule_6_tie_for_tenth_with_scaled_prizes_preserves_the_total_to_the_cent():
    # 187 entries: tenth prize 93.50 shared by three: 31.17, 31.17, 31.16
    w = {f"P{i}": 40.0 - i for i in range(1, 10)} | {"T1": 5.0, "T2": 5.0, "T3": 5.0}
    p = rule_5_prizes(RULES, standings(w), 187)
    a = amounts(p)
    assert (a["T1"], a["T2"], a["T3"]) == (C("31.17"), C("31.17"), C("31.16"))
    assert sum(a.values()) == C("2150.50") == sum(C(c) for c in scaled_prize_table(RULES, 187)) / 100


def test_gk_rule_6_ties_are_exact_on_weighted_points_not_floats():
    # 2.2 × 3 = 6.6 and 1.1 × 6 = 6.6: both 660 cents — tied
    rows = [("A", "semifinal", 1.0, "played")] * 3 + [("B", "semifinal", 0.5, "played")] * 6
    wp = rule_6_weighted_points(RULES, card(rows))
    assert wp.sort("entry_id")["weighted_cents"].to_list() == [660, 660]


def test_gk_rule_4_awards_gift_certificate_framing_certificate_pin_and_title():
    q = pl.DataFrame({"stage": ["preliminary", "preliminary", "preliminary", "semifinal", "semifinal"],
                      "section": ["P01"] * 3 + ["S01"] * 2, "entry_id": ["A", "B", "C", "A", "D"],
                      "member_id": ["MA", "MB", "MC", "MA", "MD"], "score": [5.0, 2.0, 4.0, 5.0, 1.0],
                      "qualified": [True, False, None, True, False], "basis": [""] * 5})
    st = standings({"A": 30.0, "E": 20.0}, ineligible={"E"})
    p = rule_5_prizes(RULES, st, 200)
    aw = rule_4_awards(RULES, q, st, p)
    assert sorted(aw.select("entry_id", "award", "value").rows()) == [
        ("A", "champion_title_and_plaque", ""), ("A", "golden_knights_pin", ""),
        ("B", "gift_certificate", "7.00"), ("D", "framing_certificate", ""),
    ]


@pytest.mark.parametrize("table, key", [
    ({"section_size": 8}, "golden_knights.section_size"),
    ({"entry_deadlines": [[1, [12, 31]], [2, [9, 30]]]}, "golden_knights.entry_deadlines"),
    ({"stage_weights": [1.0, 2.21, 4.5]}, "golden_knights.stage_weights"),
    ({"gift_certificate": "seven"}, "golden_knights.gift_certificate"),
])
def test_gk_rules_config_errors_name_the_file_and_the_full_key(table, key):
    with pytest.raises(ConfigError) as e:
        from_table(GKRules, table, file="gk/event.toml", key="golden_knights")
    assert (e.value.file, e.value.key) == ("gk/event.toml", key)


def test_gk_rule_5_players_tied_for_first_are_co_champions_with_title_and_plaque_each():
    st = standings({"A": 30.0, "B": 30.0, "C": 20.0})
    p = rule_5_prizes(RULES, st, 200)
    assert amounts(p) == {"A": C("650.00"), "B": C("650.00"), "C": C("300.00")}
    aw = rule_4_awards(RULES, pl.DataFrame(schema={"stage": pl.String, "entry_id": pl.String,
                                                   "member_id": pl.String, "qualified": pl.Boolean}), st, p)
    assert aw.filter(pl.col("award") == "champion_title_and_plaque")["entry_id"].to_list() == ["A", "B"]


def test_gk_rule_6_share_prize_places_gives_last_place_sum_share_and_leftover_cents():
    table = [80000, 50000, 30000] + [10000] * 7
    assert share_prize_places(table, 1, 3) == (3, 160000, 53333, 1)  # 1600.00 / 3
    assert share_prize_places(table, 4, 1) == (4, 10000, 10000, 0)
    # three tied for 9th: only places 9 and 10 have a prize
    assert share_prize_places(table, 9, 3) == (10, 20000, 6666, 2)


def test_gk_rule_6_prize_split_explains_every_money_place_and_adds_up_to_the_prizes():
    # 187 entries (prizes 748.00, 467.50, 280.50, 93.50 x 7); Z, A, M tied for 1st, T1-T3 for 10th
    w = {"Z": 40.0, "A": 40.0, "M": 40.0} | {f"P{i}": 30.0 - i for i in range(4, 10)} \
        | {"T1": 5.0, "T2": 5.0, "T3": 5.0}
    st = standings(w)
    split = rule_6_prize_split(RULES, st, 187)
    prizes = rule_5_prizes(RULES, st, 187)
    first = split.filter(pl.col("place") == 1).row(0, named=True)
    assert (first["last_place"], first["players"], first["pot"], first["share"], first["leftover_cents"],
            first["extra_cent"]) == (3, 3, C("1496.00"), C("498.66"), 2, ["A", "M"])
    tenth = split.filter(pl.col("place") == 10).row(0, named=True)
    # places 10-12 tied, only the 10th prize exists: 93.50 / 3 = 31.16, 2 cents left over
    assert (tenth["last_place"], tenth["pot"], tenth["share"], tenth["extra_cent"]) == (
        10, C("93.50"), C("31.16"), ["T1", "T2"])
    for s in split.iter_rows(named=True):
        got = prizes.filter(pl.col("place") == s["place"])
        assert got["amount"].sum() == s["pot"] == s["share"] * s["players"] + C(s["leftover_cents"]) / 100
        for e, amount in got.select("entry_id", "amount").iter_rows():
            assert amount == s["share"] + (C("0.01") if e in s["extra_cent"] else 0)
    assert split["pot"].sum() == C(sum(scaled_prize_table(RULES, 187))) / 100


def test_gk_rules_2_6_stage_record_counts_colours_results_and_adds_up_to_the_weighted_points():
    rows = [("preliminary", "w", 1.0, "played"), ("preliminary", "b", 1.0, "forfeit_win"),
            ("preliminary", "w", 0.5, "played"), ("preliminary", "b", 0.0, "played"),
            ("preliminary", "w", 0.0, "forfeit_loss"), ("preliminary", "b", None, None),
            ("semifinal", "w", 0.5, "played")]
    c = pl.DataFrame([("E", st, "S", col, pts, k) for st, col, pts, k in rows], orient="row",
                     schema={"entry_id": pl.String, "stage": pl.String, "section": pl.String,
                             "colour": pl.String, "points": pl.Float64, "kind": pl.String})
    rec = rule_6_stage_record(RULES, c)
    pre = rec.filter(pl.col("stage") == "preliminary").row(0, named=True)
    assert (pre["games"], pre["finished"], pre["whites"], pre["blacks"]) == (6, 5, 3, 3)
    assert (pre["wins"], pre["forfeit_wins"], pre["draws"], pre["losses"], pre["forfeit_losses"]) == (1, 1, 1, 1, 1)
    assert (pre["points"], pre["weight_cents"], pre["weighted_cents"]) == (2.5, 100, 250)
    assert rec["stage"].to_list() == ["preliminary", "semifinal"]
    assert rec["weighted_cents"].sum() == rule_6_weighted_points(RULES, c)["weighted_cents"][0] == 250 + 110

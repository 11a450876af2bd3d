"""One test per FIDE C.07 rule on small hand-made crosstables (drawn in the comments).

Crosstable notation: ``3w1`` = beat 3 with White, ``2b½`` = drew with 2 as Black,
``4w0`` = lost to 4 with White, ``+4b`` / ``-4w`` = forfeit win / loss against 4,
``PAB`` ``FPB`` ``HPB`` ``ZPB`` = byes, ``--`` = absent (not paired).
"""

from __future__ import annotations

import polars as pl
import pytest

from tests.crosstables import card
from transforms.core.errors import ConfigError
from transforms.fide.tiebreaks import (
    REGISTRY,
    Modifier,
    UnknownTiebreak,
    apply_cuts,
    compute_tiebreaks,
    dp_from_p,
    expected_hundredths,
    explain_tiebreaks,
    parse_code,
)


def players(sc: pl.DataFrame, ratings: dict[int, int] | None = None) -> pl.DataFrame:
    snos = sorted(sc["sno"].unique().to_list())
    return pl.DataFrame({"sno": snos, "rating": [(ratings or {}).get(s, 0) for s in snos]},
                        schema={"sno": pl.Int32, "rating": pl.Int32})


def tb(table: str, codes: list[str], edition: str = "fide-2024", **kw) -> dict[str, dict[int, float]]:
    sc = card(table)
    out = compute_tiebreaks(sc, players(sc, kw.pop("ratings", None)), codes, edition=edition, **kw)
    return {c: dict(zip(out["sno"].to_list(), out[c].to_list(), strict=True)) for c in codes}


# A 4-player, 3-round Swiss with no unplayed rounds:
#   1: 2w1 3b1 4w½  = 2.5
#   2: 1b0 4w1 3b1  = 2.0
#   3: 4w1 1w0 2w0  = 1.0
#   4: 3b0 2b0 1b½  = 0.5
PLAIN = """
1: 2w1 3b1 4w½
2: 1b0 4w1 3b1
3: 4w1 1w0 2w0
4: 3b0 2b0 1b½
"""


def test_buchholz_is_the_sum_of_the_opponents_scores_C07_8_1():
    assert tb(PLAIN, ["BH"])["BH"] == {1: 3.5, 2: 4.0, 3: 5.0, 4: 5.5}


def test_sonneborn_berger_multiplies_opponent_score_by_points_scored_C07_9_1():
    # 1: 2.0*1 + 1.0*1 + 0.5*0.5 = 3.25
    assert tb(PLAIN, ["SB"])["SB"] == {1: 3.25, 2: 1.5, 3: 0.5, 4: 1.25}


def test_points_column_is_the_total_score():
    sc = card(PLAIN)
    out = compute_tiebreaks(sc, players(sc), [], edition="fide-2024")
    assert out.columns == ["sno", "points"]
    assert out["points"].to_list() == [2.5, 2.0, 1.0, 0.5]


# Withdrawal: 4 stops after round 1 (ZPB, then absent).
#   1: 4w1 2b½ 3w1 = 2.5     3: 2w0 PAB 1b0 = 1.0
#   2: 3b1 1w½ PAB = 2.5     4: 1b0 ZPB --  = 0.0
WITHDRAWN = """
1: 4w1 2b½ 3w1
2: 3b1 1w½ PAB
3: 2w0 PAB 1b0
4: 1b0 ZPB --
"""


def test_opponent_requested_byes_after_withdrawal_count_as_draws_C07_16_3_2():
    # 4's adjusted score = 0 + ½ + ½ = 1.0, so 1's BH = 1.0 (4) + 2.5 (2) + 1.0 (3) = 4.5
    assert tb(WITHDRAWN, ["BH"])["BH"][1] == 4.5


def test_requested_bye_followed_by_a_played_round_counts_as_awarded_C07_16_3_1():
    #   1: 2w1 ZPB 3w1 = 2.0   (ZPB followed by a game: category 16.2.3 -> 0 for the opponents)
    #   2: 1b0 3w½ PAB = 1.5
    #   3: PAB 2b½ 1b0 = 1.5
    t = """
    1: 2w1 ZPB 3w1
    2: 1b0 3w½ PAB
    3: PAB 2b½ 1b0
    """
    # 2's BH: 1 (adjusted 2.0, the ZPB stays 0) + 3 (1.5) + dummy for PAB (own 1.5) = 5.0
    assert tb(t, ["BH"])["BH"][2] == 5.0


def test_own_unplayed_round_counts_a_dummy_with_own_score_C07_16_4_fide_2024():
    # 2's PAB in round 3 (WITHDRAWN): dummy = 2's own score 2.5
    # 2's BH = 3 (1.0) + 1 (2.5) + dummy 2.5 = 6.0; SB = 1.0*1 + 2.5*0.5 + 2.5*1 = 4.75
    r = tb(WITHDRAWN, ["BH", "SB"])
    assert (r["BH"][2], r["SB"][2]) == (6.0, 4.75)


def test_bye_dummy_is_capped_at_draws_times_rounds_C07_16_4_2_fide_2026():
    # 2 scored 2.5 of 3 -> the PAB's dummy is capped at 0.5 * 3 = 1.5
    r = tb(WITHDRAWN, ["BH"], edition="fide-2026")
    assert r["BH"][2] == 1.0 + 2.5 + 1.5


def test_forfeit_dummy_is_capped_by_the_scheduled_opponents_adjusted_score_C07_16_4_1():
    #   1: 2w1 3b1 +4w = 3.0      4 forfeits to 1 in round 3 and scores 0 overall
    #   2: 1b0 4w1 3b½ = 1.5
    #   3: 4b1 1w0 2w½ = 1.5
    #   4: 3w0 2b0 -1b = 0.0
    t = """
    1: 2w1 3b1 +4w
    2: 1b0 4w1 3b½
    3: 4b1 1w0 2w½
    4: 3w0 2b0 -1b
    """
    r24, r26 = tb(t, ["BH"])["BH"], tb(t, ["BH"], edition="fide-2026")["BH"]
    assert r24[1] == 1.5 + 1.5 + 3.0  # 2024: dummy = own score 3.0
    assert r26[1] == 1.5 + 1.5 + 0.0  # 2026: capped by 4's adjusted score 0.0


def test_cut1_drops_the_vur_rather_than_the_lowest_opponent_C07_16_5():
    #   1: 2w1 HPB 3w1 4b0 = 2.5   (HPB is a VUR; its dummy = 2.5)
    #   2: 1b0 3b1 4w1 PAB = 3.0
    #   3: 4w½ 2w0 1b0 PAB = 1.5
    #   4: 3b½ PAB 2b0 1w1 = 2.5
    t = """
    1: 2w1 HPB 3w1 4b0
    2: 1b0 3b1 4w1 PAB
    3: 4w½ 2w0 1b0 PAB
    4: 3b½ PAB 2b0 1w1
    """
    r = tb(t, ["BH", "BH-C1"])
    # BH(1) = 3.0 + 2.5 (dummy) + 1.5 + 2.5 = 9.5; Cut-1 cuts the VUR (2.5), not 3 (1.5)
    assert r["BH"][1] == 9.5
    assert r["BH-C1"][1] == 7.0


def test_cut1_for_sb_cuts_the_higher_of_vur_and_least_significant_C07_16_5_1():
    # Same table: SB(1) elements: 2 (3.0x1=3.0), dummy (2.5x0.5=1.25, VUR), 3 (1.5x1=1.5), 4 (0)
    # least significant value = lowest opponent score (3: 1.5 -> 1.5); VUR contribution 1.25
    # is lower, so the least significant value (1.5) is cut: 5.75 - 1.5 = 4.25
    t = """
    1: 2w1 HPB 3w1 4b0
    2: 1b0 3b1 4w1 PAB
    3: 4w½ 2w0 1b0 PAB
    4: 3b½ PAB 2b0 1w1
    """
    r = tb(t, ["SB", "SB-C1"])
    assert (r["SB"][1], r["SB-C1"][1]) == (5.75, 4.25)


def test_sb_cut1_among_equal_lowest_opponents_drops_the_lowest_contribution_C07_14_1_1_d():
    # PLAIN: 1 met 2 (2.0, won), 3 (1.0, won), 4 (0.5, drew) -> least significant = 4 (0.25)
    # 2 met 1 (2.5, lost: 0), 4 (0.5, won: 0.5), 3 (1.0, won: 1.0) -> cut 4's 0.5
    r = tb(PLAIN, ["SB-C1"])["SB-C1"]
    assert r == {1: 3.0, 2: 1.0, 3: 0.0, 4: 1.25}


def test_median1_cuts_the_lowest_and_the_highest_C07_14_3():
    assert tb(PLAIN, ["BH-M1"])["BH-M1"] == {1: 1.0, 2: 1.0, 3: 2.0, 4: 2.0}


def test_cut2_repeats_the_vur_exception_C07_16_5_2():
    #   1: HPB ZPB 2w1 3w1 = 2.5   two VURs (dummies 2.5: HPB 1.25... BH counts 2.5 each)
    #   2: 3b1 PAB 1b0 PAB = 3.0
    #   3: 2w0 PAB PAB 1b0 = 2.0
    t = """
    1: HPB ZPB 2w1 3w1
    2: 3b1 PAB 1b0 PAB
    3: 2w0 PAB PAB 1b0
    """
    r = tb(t, ["BH", "BH-C2"])
    assert r["BH"][1] == 2.5 + 2.5 + 3.0 + 2.0
    assert r["BH-C2"][1] == 5.0  # both VURs cut, although 3 (2.0) is the lowest opponent


def test_virtual_opponent_for_own_unplayed_rounds_fide_2009():
    # C.02 13.15 (GA 2009): Svon = SPR + (1 - SfPR) + 0.5 (n - R)
    #   1: 2w1 +2w  --          2: 1b0 -1b --
    # After 2 rounds: BH(1) = 2's score with unplayed as draws (0 + ½) + virtual (1 + 0 + 0) = 1.5
    t2 = """
    1: 2w1 +2w
    2: 1b0 -1b
    """
    assert tb(t2, ["BH"], edition="fide-2009")["BH"] == {1: 1.5, 2: 2.5}
    # After 3 rounds, both absent in round 3:
    # BH(1) = 1.0 + (1 + 0 + 0.5) + (2 + 1 + 0) = 5.5; BH(2) = 2.0 + (0 + 1 + 0.5) + (0 + 1) = 4.5
    t3 = """
    1: 2w1 +2w --
    2: 1b0 -1b --
    """
    assert tb(t3, ["BH"], edition="fide-2009")["BH"] == {1: 5.5, 2: 4.5}


def test_opponents_unplayed_rounds_are_draws_fide_2009():
    # 2 has a PAB (counted as a draw for 1's BH) and then beats 3.
    #   1: 2w1 3b1 PAB = 3.0   2: 1b0 PAB 3w1 = 2.0   3: PAB 1w0 2b0 = 1.0
    t = """
    1: 2w1 3b1 PAB
    2: 1b0 PAB 3w1
    3: PAB 1w0 2b0
    """
    r = tb(t, ["BH"], edition="fide-2009")["BH"]
    # 2 adjusted = 0 + ½ + 1 = 1.5; 3 adjusted = ½ + 0 + 0 = 0.5; PAB in round 3:
    # virtual = 2 + (1 - 1) + 0 = 2.0 -> 1.5 + 0.5 + 2.0
    assert r[1] == 4.0


def test_cut1_has_no_vur_exception_under_fide_2009():
    t = """
    1: 2w1 HPB 3w1 4b0
    2: 1b0 3b1 4w1 PAB
    3: 4w½ 2w0 1b0 PAB
    4: 3b½ PAB 2b0 1w1
    """
    r = tb(t, ["BH", "BH-C1"], edition="fide-2009")
    # 2009: the lowest element (3: adjusted 0.5 + 0 + 0 + 0.5 = 1.0) is cut, not the HPB
    assert r["BH"][1] - r["BH-C1"][1] == 1.0


def test_fore_buchholz_counts_last_round_games_as_draws_C07_8_3():
    # PLAIN with round 3 drawn everywhere: 1 = 2.5, 2 = 1.5, 3 = 1.5, 4 = 0.5
    # (BH was 3.5, 4.0, 5.0, 5.5: 2 and 3 swap half a point each)
    assert tb(PLAIN, ["FB"])["FB"] == {1: 3.5, 2: 4.5, 3: 4.5, 4: 5.5}


def test_wins_count_forfeit_wins_and_full_point_byes_but_won_does_not_C07_7_1_7_2():
    t = """
    1: 2w1 +3b PAB
    2: 1b0 3w1 FPB
    3: --  -1w 2b0
    """
    r = tb(t, ["WIN", "WON"])
    assert r["WIN"] == {1: 3.0, 2: 2.0, 3: 0.0}
    assert r["WON"] == {1: 1.0, 2: 1.0, 3: 0.0}


def test_black_games_and_black_wins_are_over_the_board_only_C07_7_3_7_4():
    t = """
    1: 2b1 +3b 3b0
    2: 1w0 3b½ PAB
    3: PAB -1w 1w1
    """
    r = tb(t, ["BPG", "BWG"])
    assert r["BPG"] == {1: 2.0, 2: 1.0, 3: 0.0}
    assert r["BWG"] == {1: 1.0, 2: 0.0, 3: 0.0}


def test_rounds_elected_to_play_exclude_requested_byes_and_forfeit_losses_C07_7_6():
    t = """
    1: 2w1 HPB +3b PAB
    2: 1b0 ZPB --  3w1
    3: PAB PAB -1w 2b0
    """
    assert tb(t, ["REP"])["REP"] == {1: 3.0, 2: 2.0, 3: 3.0}
    assert parse_code("GE")[0] == "REP"


def test_progressive_score_and_its_cut1_C07_7_5():
    # 1: running 1, 2, 2.5 -> 5.5; Cut-1 drops the first running score -> 4.5
    assert tb(PLAIN, ["PS", "PS-C1"]) == {"PS": {1: 5.5, 2: 3.0, 3: 3.0, 4: 0.5},
                                         "PS-C1": {1: 4.5, 2: 3.0, 3: 2.0, 4: 0.5}}


def test_aro_is_rounded_half_up_over_games_played_C07_10_1():
    #   1: 2w1 3b1 4w½     (forfeits are no games for ratings, C.07 15.2)
    #   2: 1b0 +4w 3b1
    #   3: 4w1 1w0 2w0
    #   4: 3b0 -2b 1b½
    t = """
    1: 2w1 3b1 4w½
    2: 1b0 +4w 3b1
    3: 4w1 1w0 2w0
    4: 3b0 -2b 1b½
    """
    ratings = {1: 2001, 2: 1900, 3: 1901, 4: 1800}
    r = tb(t, ["ARO", "ARO-C1"], ratings=ratings)
    assert r["ARO"][1] == 1867.0  # (1900 + 1901 + 1800) / 3 = 1867.0
    assert r["ARO"][2] == 1951.0  # (2001 + 1901) / 2 = 1951; the forfeit against 4 is no game
    assert r["ARO-C1"][1] == 1901.0  # 1900.5 rounds half up
    # a player whose only game is cut has no ARO-C1
    t1 = """
    1: 2w1
    2: 1b0
    """
    assert tb(t1, ["ARO-C1"], ratings={1: 2000, 2: 1800})["ARO-C1"] == {1: None, 2: None}


def test_rating_tiebreaks_need_every_participant_rated_C07_10():
    # Decision pinned: with an unrated participant (rating 0) ARO is not applicable (null for
    # everybody) unless the rules give unrated participants a rating.
    ratings = {1: 2000, 2: 1900, 3: 1800, 4: 0}
    assert set(tb(PLAIN, ["ARO", "TPR"], ratings=ratings)["ARO"].values()) == {None}
    r = tb(PLAIN, ["ARO"], ratings=ratings, unrated_rating=1000)["ARO"]
    assert r[1] == round((1900 + 1800 + 1000) / 3)


def test_dp_and_expected_score_tables_FIDE_B02_8_1():
    assert [dp_from_p(p) for p in (100, 80, 75, 70, 67, 62, 50, 38, 0)] == \
        [800, 240, 193, 149, 125, 87, 0, -87, -800]
    assert [expected_hundredths(d) for d in (0, 3, 4, 412, 411, 735, 736, -38)] == \
        [50, 50, 51, 93, 92, 99, 100, 45]


def test_tpr_is_aro_plus_dp_and_ptp_the_lowest_rating_reaching_the_score_C07_10_2_10_3():
    # 1 scores 1.5/2 against 1800 and 2000: ARO 1900, p = .75 -> dp 193 -> TPR 2093
    t = """
    1: 2w1 3b½
    2: 1b0 3w½
    3: 2b½ 1w½
    """
    r = tb(t, ["TPR", "PTP"], ratings={1: 1900, 2: 1800, 3: 2000})
    assert r["TPR"][1] == 2093.0
    ptp = r["PTP"][1]

    def e(rating: float) -> int:
        return expected_hundredths(int(rating) - 1800) + expected_hundredths(int(rating) - 2000)

    assert e(ptp) >= 150 > e(ptp - 1)


def test_direct_encounter_is_empty_for_players_alone_on_their_score_C07_6():
    # PLAIN: nobody tied on points -> DE does not apply to anybody (no place, null)
    assert tb(PLAIN, ["DE"])["DE"] == {1: None, 2: None, 3: None, 4: None}


def test_unknown_code_is_a_config_error_naming_the_key():
    sc = card(PLAIN)
    with pytest.raises(UnknownTiebreak) as e:
        compute_tiebreaks(sc, players(sc), ["BH", "XYZ"], edition="fide-2024")
    assert isinstance(e.value, ConfigError)
    assert e.value.key == "swiss.tiebreaks" and "'XYZ'" in str(e.value)
    with pytest.raises(UnknownTiebreak, match="DE-C1"):
        parse_code("DE-C1")  # DE takes no modifier
    with pytest.raises(ConfigError, match="edition"):
        compute_tiebreaks(sc, players(sc), ["BH"], edition="fide-2019")
    with pytest.raises(ConfigError, match="listed twice"):
        compute_tiebreaks(sc, players(sc), ["BH", "bh"], edition="fide-2024")


def test_codes_are_canonicalised_and_vega_slashes_accepted():
    assert parse_code("bh/c1")[0] == "BH-C1"
    sc = card(PLAIN)
    out = compute_tiebreaks(sc, players(sc), ["sb", "BH/C1"], edition="fide-2024")
    assert out.columns == ["sno", "points", "SB", "BH-C1"]


def test_registry_covers_the_codes_the_office_uses():
    assert {"BH", "SB", "DE", "WIN", "WON", "BPG", "BWG", "PS", "FB", "ARO", "AOB", "REP", "TPR",
            "PTP", "APRO", "APPO", "KS"} <= set(REGISTRY)


def test_missing_rounds_are_absences():
    # Decision: a player with no row for round 2 is absent there (ZPB-like, 16.1.1).
    full = card("""
    1: 2w1 --
    2: 1b0 --
    """)
    gappy = full.filter(pl.col("round") == 1)
    a = compute_tiebreaks(full, players(full), ["BH", "SB"], edition="fide-2024", rounds=2)
    b = compute_tiebreaks(gappy, players(full), ["BH", "SB"], edition="fide-2024", rounds=2)
    assert a.equals(b)
    # last-round absences are 16.2.5 draws for the opponent; own dummy = own score
    assert a["BH"].to_list() == [0.5 + 1.0, 1.5 + 0.0]


def test_rounds_limits_the_rounds_counted():
    r = tb(PLAIN, ["BH"], rounds=1)["BH"]
    assert r == {1: 0.0, 2: 1.0, 3: 0.0, 4: 1.0}


def test_double_forfeit_is_a_forfeit_loss_for_both_C07_16_2_4():
    #   1: -2w 3b1 = 1.0    2: -1b 3w½ = 0.5    3: PAB 2b½ ... 1w0
    t = """
    1: -2w 3b1
    2: -1b 3w½
    3: PAB 2b½
    """
    sc = card(t).with_columns(pl.when((pl.col("round") == 1) & (pl.col("sno") == 3))
                              .then(pl.lit(1.0)).otherwise(pl.col("points")).alias("points"))
    r24 = compute_tiebreaks(sc, players(sc), ["BH", "REP"], edition="fide-2024")
    r26 = compute_tiebreaks(sc, players(sc), ["BH"], edition="fide-2026")
    # 1: dummy 1.0 (own) + 3 (1.5) in 2024; 2026 caps the dummy by 2's adjusted score 0.5
    assert r24["BH"][0] == 2.5 and r26["BH"][0] == 2.0
    assert r24["REP"].to_list() == [1.0, 1.0, 2.0]


def test_explanation_lists_every_contribution_and_the_cut():
    t = """
    1: 2w1 HPB 3w1 4b0
    2: 1b0 3b1 4w1 PAB
    3: 4w½ 2w0 1b0 PAB
    4: 3b½ PAB 2b0 1w1
    """
    sc = card(t)
    why = explain_tiebreaks(sc, players(sc), ["BH-C1"], edition="fide-2024")
    assert why.columns == ["sno", "code", "round", "opponent_sno", "opponent", "value",
                           "dropped_by_cut", "note"]
    mine = why.filter(pl.col("sno") == 1).sort("round")
    assert mine["opponent"].to_list() == ["2", "dummy", "3", "4"]
    assert mine["dropped_by_cut"].to_list() == [False, True, False, False]
    assert mine.filter(~pl.col("dropped_by_cut"))["value"].sum() == 7.0
    assert "16.4" in mine["note"][1]


def test_de_explanation_names_the_group_and_the_rule_used_C07_6_3():
    # 1, 2, 3 and 6 on 1.0 after two rounds; 1 beat 2, 3 and 6 met neither of them.
    t = """
    1: 2w1 4b0
    2: 1b0 5w1
    3: 6w1 4w0
    4: 5b1 1w1
    5: 4w0 2b0
    6: 3b0 PAB
    """
    sc = card(t)
    why = explain_tiebreaks(sc, players(sc), ["DE"], edition="fide-2024")
    summary = why.filter(pl.col("round").is_null() & (pl.col("sno") == 1))
    assert summary["note"][0].startswith("tie group 1, 2, 3, 6: not all met: C.07 6.3")
    assert summary["note"][0].endswith("DE does not apply")
    assert summary["value"][0] == 1.0  # the separate standings: 1 point against 2


def test_vur_with_the_lowest_contribution_is_the_one_cut_C07_16_5_1():
    # Decision pinned: 16.5.1 says "the lowest contribution coming from such rounds". Under the
    # 2026 caps two VURs can have different dummies: an HPB (dummy 3.0, x 0.5 = 1.5) and a
    # forfeit loss (dummy 3.5, x 0 = 0). The forfeit loss (0) is cut, not the HPB; the least
    # significant value (a loss to a 2.0 opponent, 0) is not lower than it.
    el = pl.DataFrame({
        "sno": [1] * 6, "round": [1, 2, 3, 4, 5, 6],
        "opp_score": [3.0, 3.5, 4.0, 4.0, 4.0, 2.0],
        "sb": [1.5, 0.0, 4.0, 4.0, 4.0, 0.0],
        "vur": [True, True, False, False, False, False],
    })
    cut = apply_cuts(el, Modifier(1, 0), sig="opp_score", val="sb", vur_exception=True)
    assert cut.filter(pl.col("dropped_by_cut"))["round"].to_list() == [2]


def test_perfect_performance_of_full_and_zero_scores_C07_10_3():
    # 0% -> lowest opponent - 800 (§10.3); 100% -> the lowest rating whose table expectation
    # reaches 2/2: more than 735 above the highest opponent (as FIDE TEC's calculator has it)
    t = """
    1: 2w1 3b1
    2: 1b0 3w0
    3: 2b1 1w0
    """
    r = tb(t, ["PTP"], ratings={1: 1900, 2: 1800, 3: 2000})["PTP"]
    assert (r[1], r[2]) == (2736.0, 1100.0)


def test_repeated_meetings_count_as_their_average_in_direct_encounter_C07_6_1_2():
    # 6.1.2: 1 and 2 (both 1.5) met twice: 1-0 and ½-½ -> 0.75 and 0.25 in the separate
    # standings, so DE places 1 and 2; 3 and 4 are alone on their scores (no DE)
    t = """
    1: 2w1 2b½ 3w0
    2: 1b0 1w½ 4b1
    3: PAB PAB 1b1
    4: PAB PAB 2w0
    """
    sc = card(t)
    out = compute_tiebreaks(sc, players(sc), ["DE"], edition="fide-2024")
    assert out["DE"].to_list() == [1.0, 2.0, None, None]
    why = explain_tiebreaks(sc, players(sc), ["DE"], edition="fide-2024")
    assert why.filter(pl.col("round").is_null()).sort("sno")["value"].to_list() == [0.75, 0.25]


# ----------------------------------------------------------------------------- DE (art. 6)
# The DE column is an order: the place inside the tie group where DE decides, else null.


def test_direct_encounter_places_a_group_that_all_met_by_their_games_C07_6_2():
    # 1, 2, 3 on 2.0, all met: among them 1 scored 1.5 (beat 2, drew 3), 2 scored 1 (beat 3),
    # 3 scored ½ -> places 1, 2, 3 (not the points 1.5, 1, 0.5)
    t = """
    1: 2w1 3b½ HPB --
    2: 1b0 PAB 3w1 --
    3: PAB 1w½ 2b0 HPB
    """
    assert tb(t, ["DE"])["DE"] == {1: 1.0, 2: 2.0, 3: 3.0}


def test_direct_encounter_places_one_player_alone_at_the_top_C07_6_3():
    # 1, 2, 3 on 2.0; 1 beat 2 and 3, who never met. 1 scored 2, the others can reach at most
    # 1 whatever their missing game: 1 is placed first; 2 and 3 stay equal (place 2, shared).
    t = """
    1: 2w1 3b1 --
    2: 1b0 PAB PAB
    3: PAB 1w0 PAB
    """
    assert tb(t, ["DE"])["DE"] == {1: 1.0, 2: 2.0, 3: 2.0}


def test_direct_encounter_is_empty_where_nobody_is_alone_at_the_top_C07_6_3():
    # 1, 2, 3 on 1.0; 1 beat 2; 3 met neither: 3 could reach 2 points, more than 1's 1 ->
    # nobody can be placed, DE does not apply (null, not 1 / 0 / 0)
    t = """
    1: 2w1 4b0
    2: 1b0 PAB
    3: 4w1 --
    4: 3b0 1w1
    """
    assert tb(t, ["DE"])["DE"] == {1: None, 2: None, 3: None, 4: None}

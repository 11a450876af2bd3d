"""FIDE B.02 rating changes (transforms/fide/ratings.py): one test per article on small
hand-made crosstables, the arithmetic in the comments, and hypothesis properties.

Crosstable notation (as tests/rulebook/test_tiebreaks.py): ``2w1`` = beat 2 with White, ``3b½`` =
drew with 3 as Black, ``+2w`` / ``-2b`` = forfeit win / loss against 2, ``PAB`` ``HPB`` =
byes, ``--`` = absent.

Table rows used below (B.02 8.1.2, D: PD H / PD L): 0-3 .50/.50, 4-10 .51/.49,
189-197 .75/.25, 198-206 .76/.24, 392-411 .92/.08, 485-517 .96/.04.
"""

from __future__ import annotations

import itertools

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.crosstables import card
from transforms.fide import tiebreaks
from transforms.fide.ratings import (
    FIDE_2024,
    FIDE_2025_10,
    FIDE_DP_TABLE,
    FIDE_PD_TABLE,
    GAME_SCHEMA,
    PLAYER_SCHEMA,
    RatingEdition,
    RatingRules,
    capped_difference,
    capped_k,
    dp_from_p,
    expected_hundredths,
    game_change,
    initial_rating,
    is_rated,
    k_factor,
    performance_rating,
    rating_changes,
    rounded_change,
    rules_for,
)
from transforms.swiss.scorecard import scorecard_from_results

PROPS = {"deadline": None, "derandomize": True, "database": None,
         "suppress_health_check": [HealthCheck.too_slow]}


def people(ratings: dict[int, int | None], **columns: dict[int, object]) -> pl.DataFrame:
    """players: sno, rating and any optional column given as {sno: value}."""
    snos = sorted(ratings)
    data: dict[str, list] = {"sno": snos, "rating": [ratings[s] for s in snos]}
    for name, values in columns.items():
        data[name] = [values.get(s) for s in snos]
    return pl.DataFrame(data)


KNOWN = {"games_before": 100, "reached_2400": False, "reached_2300": False,
         "other_period_games": 0, "birth_year": 1980}
"""Everything FIDE knows, for a plain adult player (no assumption needed)."""


def known(ratings: dict[int, int | None], **override: dict[int, object]) -> pl.DataFrame:
    cols = {c: dict.fromkeys(ratings, v) for c, v in KNOWN.items()}
    for c, vals in override.items():
        cols[c] = cols.get(c, {}) | vals
    return people(ratings, **cols)


def by_sno(frame: pl.DataFrame, column: str) -> dict[int, object]:
    return dict(zip(frame["sno"].to_list(), frame[column].to_list()))


# --------------------------------------------------------------------------- the tables


def test_b02_8_1_1_dp_table_holds_the_handbook_entries():
    # spot entries read off table 8.1.1: p 1.0 -> 800, .99 -> 677, .92 -> 401, .75 -> 193,
    # .57 -> 50, .51 -> 7, .50 -> 0, .43 -> -50, .21 -> -230, .00 -> -800
    assert [dp_from_p(p) for p in (100, 99, 92, 75, 57, 51, 50, 43, 21, 0)] == \
        [800, 677, 401, 193, 50, 7, 0, -50, -230, -800]
    assert len(FIDE_DP_TABLE) == 101


def test_b02_8_1_1_dp_table_is_the_mirror_image_and_rises():
    # "the two tables are effectively mirror-images" (8.1): dp(1 - p) = -dp(p)
    assert all(dp_from_p(100 - p) == -dp_from_p(p) for p in range(101))
    assert all(a < b for a, b in itertools.pairwise(FIDE_DP_TABLE))


def test_b02_8_1_1_p_outside_0_to_1_is_refused():
    with pytest.raises(ValueError):
        dp_from_p(101)


def test_b02_8_1_2_pd_table_band_edges():
    # 0-3 .50, 4-10 .51, 392-411 .92, 412-432 .93, 620-735 .99, > 735 1.0; below 0 column L
    assert [expected_hundredths(d) for d in (0, 3, 4, 10, 11, 411, 412, 735, 736, 2000)] == \
        [50, 50, 51, 51, 52, 92, 93, 99, 100, 100]
    assert [expected_hundredths(d) for d in (-3, -4, -411, -412, -736)] == [50, 49, 8, 7, 0]


def test_b02_8_1_2_pd_h_and_l_of_every_band_add_up_to_one():
    assert len(FIDE_PD_TABLE) == 51
    assert all(h + low == 100 for _, h, low in FIDE_PD_TABLE)
    assert all(expected_hundredths(d) + expected_hundredths(-d) == 100 for d in range(0, 800))


def test_the_tiebreaks_use_the_same_b02_tables():
    # TPR/PTP (C.07 10.2/10.3) read the tables moved here: one table, not two
    assert tiebreaks.dp_from_p is dp_from_p
    assert tiebreaks.expected_hundredths is expected_hundredths


def test_rules_need_a_whole_dp_table_and_rising_pd_bands():
    with pytest.raises(ValueError, match="101 entries"):
        RatingRules(name="X", edition="x", dp_table=FIDE_DP_TABLE[:-1])
    with pytest.raises(ValueError, match="bands"):
        RatingRules(name="X", edition="x", pd_table=FIDE_PD_TABLE[:-1])


# --------------------------------------------------------------------------- editions


def test_b02_editions_are_named_and_unknown_ones_refused():
    assert rules_for("fide-2024-03") is FIDE_2024
    assert rules_for(RatingEdition.FIDE_2025_10) is FIDE_2025_10
    with pytest.raises(ValueError, match="fide-2024-03"):
        rules_for("fide-2022")


# --------------------------------------------------------------------------- 8.3.1


def test_b02_8_3_1_a_difference_over_400_counts_as_400_for_every_player_2024_03():
    # 2800 v 2300: D 500 -> 400 for both sides (no 2650 exemption before 1 October 2025)
    assert capped_difference(2800, 2300) == 400
    assert capped_difference(2300, 2800) == -400
    assert capped_difference(2300, 2100) == 200


def test_b02_8_3_1_players_rated_2650_and_above_use_the_full_difference_2025_10():
    # from 1 October 2025 the 2800 player uses D 500 (PD .96), the 2300 player still -400
    assert capped_difference(2800, 2300, FIDE_2025_10) == 500
    assert capped_difference(2649, 2100, FIDE_2025_10) == 400
    assert capped_difference(2300, 2800, FIDE_2025_10) == -400
    assert expected_hundredths(capped_difference(2800, 2300, FIDE_2025_10)) == 96


def test_b02_8_3_1_the_400_rule_applies_to_every_game_of_an_event():
    # the 2024 text has no "only one upgrade" per event: both games of 1 are capped
    g, _ = rating_changes(card("1: 2w1 3b1\n2: 1b0 --\n3: -- 1w0"),
                          known({1: 2500, 2: 2000, 3: 2050}), period_year=2026)
    mine = g.filter(pl.col("sno") == 1)
    assert mine["difference"].to_list() == [400, 400]
    assert mine["expected"].to_list() == [0.92, 0.92]


def test_b02_8_3_1_games_against_unrated_opponents_do_not_count_for_a_rated_player():
    # 1 (2100) beats unrated 3 and draws 2 (2100): only the draw counts, change 0
    g, p = rating_changes(card("1: 3w1 2b½\n2: -- 1w½\n3: 1b0 --"),
                          known({1: 2100, 2: 2100, 3: None}), period_year=2026)
    assert by_sno(p, "games")[1] == 1
    assert by_sno(p, "change")[1] == 0
    first = g.filter((pl.col("sno") == 1) & (pl.col("round") == 1)).row(0, named=True)
    assert not first["counts"] and "opponent unrated" in first["note"]
    assert first["change"] is None


def test_b02_5_1_forfeits_and_byes_are_not_counted():
    # 1 wins by forfeit against 2, has a PAB, then beats 2 over the board (2000 v 2000):
    # only round 3 counts: 20 x (1 - .50) = +10
    g, p = rating_changes(card("1: +2w PAB 2b1\n2: -1b -- 1w0"),
                          known({1: 2000, 2: 2000}), period_year=2026)
    assert by_sno(p, "games") == {1: 1, 2: 1}
    assert by_sno(p, "change") == {1: 10, 2: -10}
    forfeit = g.filter((pl.col("sno") == 1) & (pl.col("round") == 1)).row(0, named=True)
    assert not forfeit["counts"] and "5.1" in forfeit["note"] and forfeit["score"] is None
    assert g.filter(pl.col("round") == 2).is_empty()  # a bye has no opponent: no game row


def test_b02_7_2_1_a_rating_below_1400_counts_as_unrated():
    assert not is_rated(1399) and is_rated(1400)
    assert not is_rated(None) and not is_rated(0)
    _, p = rating_changes(card("1: 2w1\n2: 1b0"), known({1: 1800, 2: 1350}), period_year=2026)
    assert by_sno(p, "rated") == {1: True, 2: False}
    assert by_sno(p, "games")[1] == 0  # 2 is unrated: the game does not count for 1


# --------------------------------------------------------------------------- 8.3.2 / 8.3.4


def test_b02_8_3_2_the_change_of_a_game_is_k_times_score_minus_pd():
    # 2100 beats 1900: D 200 -> PD .76; 20 x (1 - .76) = +4.8; the loser 20 x (0 - .24) = -4.8
    g, p = rating_changes(card("1: 2w1\n2: 1b0"), known({1: 2100, 2: 1900}), period_year=2026)
    assert by_sno(g, "change") == {1: 4.8, 2: -4.8}
    assert by_sno(g, "expected") == {1: 0.76, 2: 0.24}
    assert by_sno(p, "change") == {1: 5, 2: -5}
    assert by_sno(p, "new_rating") == {1: 2105, 2: 1895}
    assert game_change(0.5, 76, 20) == pytest.approx(-5.2)  # a draw: 20 x (.5 - .76)


def test_b02_8_3_4_the_event_change_is_rounded_once_not_per_game():
    # Decision: 2000 draws three times with 1993: D 7 -> PD .51, each 20 x (.5 - .51) = -0.2;
    # the sum -0.6 rounds to -1 (rounding each game would give 0 + 0 + 0)
    table = "1: 2w½ 3b½ 4w½\n2: 1b½ -- --\n3: -- 1w½ --\n4: -- -- 1b½"
    g, p = rating_changes(card(table), known({1: 2000, 2: 1993, 3: 1993, 4: 1993}),
                          period_year=2026)
    assert g.filter(pl.col("sno") == 1)["change"].to_list() == [-0.2, -0.2, -0.2]
    assert by_sno(p, "change_exact")[1] == pytest.approx(-0.6)
    assert by_sno(p, "change")[1] == -1


def test_b02_8_3_4_a_half_is_rounded_away_from_zero():
    # changes in hundredths: -2.50 -> -3, 2.50 -> 3, 2.49 -> 2, -0.50 -> -1, 0.49 -> 0
    assert [rounded_change(c) for c in (-250, 250, 249, -249, -50, 49, 0)] == \
        [-3, 3, 2, -2, -1, 0, 0]
    # 2400 (K 10) draws with 2210: D 190 -> PD .75; 10 x (.5 - .75) = -2.5 -> -3
    _, p = rating_changes(card("1: 2w½\n2: 1b½"), known({1: 2400, 2: 2210}), period_year=2026)
    assert by_sno(p, "change_exact")[1] == -2.5
    assert by_sno(p, "change")[1] == -3


def test_b02_8_3_2_b_the_score_is_read_from_both_sides_points():
    # Decision: an event scoring 3 for a win and 1 for a draw is still rated 1 / 0.5 / 0
    sc = card("1: 2w1 3b½\n2: 1b0 --\n3: -- 1w½").with_columns(
        pl.col("points").replace_strict({1.0: 3.0, 0.5: 1.0, 0.0: 0.0}))
    g, p = rating_changes(sc, known({1: 2000, 2: 2000, 3: 2000}), period_year=2026)
    assert g.filter(pl.col("sno") == 1)["score"].to_list() == [1.0, 0.5]
    assert by_sno(p, "score")[1] == 1.5
    assert by_sno(p, "change")[1] == 10  # 20 x (1 - .5) + 20 x (.5 - .5)


# --------------------------------------------------------------------------- 8.3.3 K


def test_b02_8_3_3_k_is_40_for_a_new_player_until_30_games():
    assert k_factor(1800, period_year=2026, games_before=29).k == 40
    assert k_factor(1800, period_year=2026, games_before=30).k == 20


def test_b02_8_3_3_k_is_40_until_the_year_of_the_18th_birthday_below_2300():
    # born 2008: 18 in 2026 -> K 40 through the end of 2026, 20 from 2027
    k = k_factor(2250, period_year=2026, birth_year=2008, games_before=100,
                 reached_2400=False, reached_2300=False)
    assert k == (40, "K 40: born 2008, under 2300, until the end of 2026 (B.02 8.3.3)", ())
    assert k_factor(2250, period_year=2027, birth_year=2008, games_before=100).k == 20
    assert k_factor(2300, period_year=2026, birth_year=2008, games_before=100).k == 20
    # "as long as their rating remains under 2300": once 2300 was reached, no longer 40
    assert k_factor(2250, period_year=2026, birth_year=2008, games_before=100,
                    reached_2300=True).k == 20


def test_b02_8_3_3_k_is_20_under_2400_and_10_once_2400_was_reached():
    assert k_factor(2399, period_year=2026, games_before=100).k == 20
    assert k_factor(2400, period_year=2026).k == 10
    # "remains at that level subsequently, even if the rating drops below 2400"
    assert k_factor(2350, period_year=2026, games_before=100, reached_2400=True).k == 10


def test_b02_8_3_3_k_lines_apply_2400_then_junior_then_new():
    # Decision: a junior who once reached 2400 keeps K 10; a junior with 12 games has K 40
    assert k_factor(2250, period_year=2026, birth_year=2010, reached_2400=True).k == 10
    assert k_factor(2350, period_year=2026, birth_year=2010, games_before=12).k == 40
    # a player past 18 with 12 games: new to the list, K 40
    assert k_factor(2350, period_year=2026, birth_year=1990, games_before=12).k == 40


def test_b02_8_3_3_missing_inputs_are_returned_as_assumptions():
    # Decision: nothing known about a 2100 player -> K 20, with every reading that could change it
    k = k_factor(2100, period_year=2026)
    assert k.k == 20
    assert k.assumptions == ("2400 never reached assumed (not given)",
                             "past the year of the 18th birthday assumed (birth year not given)",
                             "30 or more games so far assumed (not given)")
    full = k_factor(2100, period_year=2026, games_before=100, birth_year=1980,
                    reached_2400=False, reached_2300=False)
    assert full == (20, "K 20: rating under 2400 (B.02 8.3.3)", ())


def test_b02_8_3_3_k_times_games_may_not_exceed_700():
    # K 20 x 39 games = 780 > 700 -> 17 (17 x 39 = 663, 18 x 39 = 702)
    assert capped_k(20, 39) == (17, "K 17: 20 x 39 games exceeds 700 (B.02 8.3.3)", ())
    assert capped_k(20, 35).k == 20  # 700 does not exceed 700
    assert capped_k(20, 36).k == 19  # 720 > 700; 19 x 36 = 684
    assert capped_k(40, 18).k == 38  # 720 > 700; 38 x 18 = 684, 39 x 18 = 702


def test_b02_8_3_3_the_700_rule_counts_the_other_games_of_the_rating_period():
    # Decision: n = 3 games here + 15 elsewhere in the period = 18; K 40 x 18 = 720 -> 38
    table = "1: 2w1 3b1 4w1\n2: 1b0 -- --\n3: -- 1w0 --\n4: -- -- 1b0"
    g, p = rating_changes(card(table), known({1: 1800, 2: 1800, 3: 1800, 4: 1800},
                                             games_before={1: 5}, other_period_games={1: 15}),
                          period_year=2026)
    assert by_sno(p, "k")[1] == 38
    assert by_sno(p, "change")[1] == 57  # 38 x 3 x (1 - .50) = 57
    assert g.filter(pl.col("sno") == 1)["k"].to_list() == [38, 38, 38]
    assert "K 38: 40 x 18 games exceeds 700" in by_sno(p, "note")[1]


def test_b02_8_3_3_a_k_override_is_still_capped_by_the_700_rule():
    # Decision: the K given (e.g. FIDE's published K) is the K "as defined above"
    assert k_factor(2100, period_year=2026, k_override=40, games_before=100).k == 40
    _, p = rating_changes(card("1: 2w1\n2: 1b0"),
                          known({1: 2000, 2: 2000}, k_override={1: 40},
                                other_period_games={1: 19}), period_year=2026)
    assert by_sno(p, "k") == {1: 35, 2: 20}  # 40 x 20 = 800 > 700 -> 35 (35 x 20 = 700)


def test_b02_8_3_3_k_is_decided_before_the_event():
    # Decision: 29 games before and 2 in the event: still K 40 for the whole event
    _, p = rating_changes(card("1: 2w1 2b1\n2: 1b0 1w0"),
                          known({1: 1800, 2: 1800}, games_before={1: 29}), period_year=2026)
    assert by_sno(p, "k") == {1: 40, 2: 20}


def test_assumptions_of_a_player_with_nothing_known_reach_the_frame():
    _, p = rating_changes(card("1: 2w1\n2: 1b0"), people({1: 2000, 2: 2000}), period_year=2026)
    a = by_sno(p, "assumptions")[1]
    assert "30 or more games so far assumed (not given)" in a
    assert "n = the event's 1 games: no other games in the rating period assumed (not given)" in a
    _, p = rating_changes(card("1: 2w1\n2: 1b0"), known({1: 2000, 2: 2000}), period_year=2026)
    assert by_sno(p, "assumptions") == {1: [], 2: []}


# --------------------------------------------------------------------------- unrated players


def test_b02_8_2_2_a_published_first_rating_with_two_hypothetical_draws_against_1800():
    # A first rating FIDE published (as recorded by a public verification of B.02 2024):
    # 5 games, 3 points, opponents summing to 9507. Ra = (9507 + 2 x 1800) / 7 = 1872.43;
    # p = (3 + 1) / 7 = .571 -> .57 -> dp 50; Ru = 1922.43 -> 1922
    first = initial_rating(5, 3.0, 9507)
    assert first.rating == 1922
    assert first.p == 57
    assert first.ra == pytest.approx(13107 / 7)


def test_b02_8_2_3_first_rating_of_an_unrated_player_from_the_event():
    # 6 (unrated) scores 4/5 against 1600..2000: Ra = (9000 + 3600) / 7 = 1800;
    # p = (4 + 1) / 7 = .714 -> .71 -> dp 158; Ru = 1958. Performance (no hypothetical
    # games): ARO 1800, p .80 -> dp 240 -> 2040
    table = """
    1: 6w0 -- -- -- --
    2: -- 6b1 -- -- --
    3: -- -- 6w0 -- --
    4: -- -- -- 6b0 --
    5: -- -- -- -- 6w0
    6: 1b1 2w0 3b1 4w1 5b1
    """
    g, p = rating_changes(card(table), known({1: 1600, 2: 1700, 3: 1800, 4: 1900, 5: 2000,
                                              6: None}), period_year=2026)
    six = p.filter(pl.col("sno") == 6).row(0, named=True)
    assert six["initial_rating"] == 1958
    assert six["performance"] == 2040 and six["aro"] == 1800
    assert six["k"] is None and six["change"] is None and six["games"] == 5
    assert six["note"] == "first rating 1958: Ra 1800.00 + dp 158 (p 0.71) (B.02 8.2.3)"
    rows = g.filter(pl.col("sno") == 6)
    assert rows["counts"].all() and rows["change"].is_null().all()


def test_b02_7_1_4_a_first_rating_needs_5_games_against_rated_opponents():
    # 3 games against rated opponents, one against an unrated one: needs 2 more
    table = "1: 5w½ -- -- --\n2: -- 5b1 -- --\n3: -- -- 5w0 --\n4: -- -- -- 5b0\n" \
            "5: 1b½ 2w0 3b1 4w1"
    _, p = rating_changes(card(table), known({1: 1800, 2: 1800, 3: 1800, 4: None, 5: None}),
                          period_year=2026)
    five = p.filter(pl.col("sno") == 5).row(0, named=True)
    assert five["initial_rating"] is None and five["needs_games"] == 2
    assert five["note"] == "no rating yet: 3 games against rated opponents, needs 2 more " \
                           "(B.02 7.1.4)"


def test_b02_7_1_4_earlier_results_are_pooled():
    # 3 earlier games (2 points, ratings summing to 5400) + 2 losses here against 1800s:
    # 5 games, 2 points, sum 9000: Ra = 12600 / 7 = 1800; p = 3 / 7 = .43 -> -50; Ru 1750
    table = "1: 3w1 --\n2: -- 3b1\n3: 1b0 2w0"
    _, p = rating_changes(card(table), known({1: 1800, 2: 1800, 3: None},
                                             pool_games={3: 3}, pool_points={3: 2.0},
                                             pool_rating_sum={3: 5400}), period_year=2026)
    three = p.filter(pl.col("sno") == 3).row(0, named=True)
    assert three["initial_rating"] == 1750 and three["needs_games"] == 0
    assert three["assumptions"] == []


def test_b02_8_2_1_a_zero_score_in_a_first_event_is_disregarded():
    # 0/5 in what is taken as the first event: disregarded, so still 5 games needed
    table = "\n".join(f"{s}: " + " ".join("6b1" if r == s else "--" for r in range(1, 6))
                      for s in range(1, 6)) + "\n6: 1w0 2b0 3w0 4b0 5w0"
    _, p = rating_changes(card(table), known({1: 2000, 2: 2000, 3: 2000, 4: 2000, 5: 2000,
                                              6: None}), period_year=2026)
    six = p.filter(pl.col("sno") == 6).row(0, named=True)
    assert six["initial_rating"] is None and six["needs_games"] == 5
    assert six["note"].startswith("zero score in a first event disregarded (B.02 8.2.1)")
    assert any("8.2.1" in a for a in six["assumptions"])


def test_b02_8_2_3_the_maximum_initial_rating_is_2200():
    # 5/5 against 2200s: Ra = (11000 + 3600) / 7 = 2085.71; p = 6/7 = .86 -> 309;
    # Ru = 2394.71 -> 2395 -> 2200
    first = initial_rating(5, 5.0, 11000)
    assert (first.rating, first.ru) == (2200, 2395)


def test_b02_7_1_4_a_first_rating_under_1400_is_not_published():
    # 0.5/5 against 1400s: Ra = (7000 + 3600) / 7 = 1514.29; p = 1.5/7 = .21 -> -230;
    # Ru = 1284.29 -> 1284 < 1400
    first = initial_rating(5, 0.5, 7000)
    assert first.rating is None and first.ru == 1284
    assert first.note == "no rating: Ru 1284 below 1400 (B.02 7.1.4)"


def test_b02_8_1_1_performance_is_aro_plus_dp():
    # 1900 scores 1.5/2 against 1800 and 2000: ARO 1900, p .75 -> 193 -> 2093 (as C.07 TPR)
    assert performance_rating([1800, 2000], 1.5) == 2093
    assert performance_rating([1800, 2000, 2000], 2.0) == 1933 + 125  # ARO 1933.3, p .67
    assert performance_rating([], 0.0) is None


# --------------------------------------------------------------------------- other lists


def test_a_national_list_is_configured_not_coded():
    # a list with K 32 under 2400, a 350-point cap, no 700 rule and a floor of 1000
    nat = RatingRules(name="NAT", edition="nat-2026", k_standard=32, max_difference=350,
                      k_games_cap=None, floor=1000)
    assert capped_difference(2000, 1500, nat) == 350
    # 1 (1600) beats 2 (1200): D 400 -> 350 -> PD .89 (345-357); 32 x (1 - .89) = 3.52 -> 4
    _, p = rating_changes(card("1: 2w1\n2: 1b0"), known({1: 1600, 2: 1200}), period_year=2026,
                          rules=nat)
    assert by_sno(p, "rated") == {1: True, 2: True}
    assert by_sno(p, "k") == {1: 32, 2: 32}
    assert by_sno(p, "change_exact")[1] == pytest.approx(3.52)
    assert by_sno(p, "change")[1] == 4
    assert by_sno(p, "note")[1] == "K 32: rating under 2400 (NAT 8.3.3)"


# --------------------------------------------------------------------------- the frames


def test_rating_changes_from_a_scorecard_of_results():
    results = pl.DataFrame({"round": [1, 1, 2, 2], "white_id": ["a", "c", "b", "a"],
                            "black_id": ["b", "d", "c", "d"],
                            "result": ["1-0", "1/2-1/2", "0-1", "+/-"]})
    snos = pl.DataFrame({"player_id": ["a", "b", "c", "d"], "sno": [1, 2, 3, 4]})
    sc = scorecard_from_results(results, snos, through_round=2)
    g, p = rating_changes(sc, known({1: 2000, 2: 1900, 3: 1800, 4: 1700}), period_year=2026)
    assert g.schema == pl.Schema(GAME_SCHEMA) and p.schema == pl.Schema(PLAYER_SCHEMA)
    # round 1: 1 (2000) beats 2 (1900): D 100 -> .64, 20 x .36 = +7.2 / -7.2;
    #          3 (1800) draws 4 (1700): 20 x (.5 - .64) = -2.8 / +2.8
    # round 2: 3 beats 2: 20 x (1 - .36) = +12.8 / 20 x (0 - .64) = -12.8; 1's forfeit win
    #          against 4 does not count
    assert by_sno(p, "change_exact") == pytest.approx({1: 7.2, 2: -20.0, 3: 10.0, 4: 2.8})
    assert by_sno(p, "change") == {1: 7, 2: -20, 3: 10, 4: 3}
    assert by_sno(p, "games") == {1: 1, 2: 2, 3: 2, 4: 1}


@pytest.fixture
def empty_event():
    return card("1: --\n2: --"), known({1: 2000, 2: None})


def test_an_event_without_games_changes_nobody(empty_event):
    g, p = rating_changes(*empty_event, period_year=2026)
    assert g.is_empty() and g.schema == pl.Schema(GAME_SCHEMA)
    assert by_sno(p, "change") == {1: 0, 2: None}
    assert by_sno(p, "needs_games") == {1: None, 2: 5}


# --------------------------------------------------------------------------- properties

results = st.sampled_from(["1", "½", "0"])
ratings = st.integers(1400, 2900)
_OPPOSITE = {"1": "0", "½": "½", "0": "1"}


@settings(max_examples=150, **PROPS)
@given(ratings, ratings, results, st.sampled_from([10, 20, 40]))
def test_the_changes_of_one_game_sum_to_zero_when_the_k_are_equal(a, b, res, k):
    # B.02 8.1.2: PD H + PD L = 1 in every band, and 8.3.1 caps both sides alike (2024-03)
    table = f"1: 2w{res}\n2: 1b{_OPPOSITE[res]}"
    g, p = rating_changes(card(table), known({1: a, 2: b}, k_override={1: k, 2: k}),
                          period_year=2026)
    assert sum(g["change"]) == pytest.approx(0.0, abs=1e-9)
    assert sum(p["change_exact"]) == pytest.approx(0.0, abs=1e-9)


@settings(max_examples=60, **PROPS)
@given(st.lists(ratings, min_size=3, max_size=6), st.data())
def test_a_round_robin_is_zero_sum_and_the_player_change_sums_its_games(rs, data):
    n = len(rs)
    rows = {s: [] for s in range(1, n + 1)}
    for x, y in itertools.combinations(range(1, n + 1), 2):  # one pairing a round
        res = data.draw(results)
        for s in rows:
            rows[s].append(f"{y}w{res}" if s == x else f"{x}b{_OPPOSITE[res]}" if s == y else "--")
    table = "\n".join(f"{s}: " + " ".join(e) for s, e in rows.items())
    r = dict(enumerate(rs, start=1))
    g, p = rating_changes(card(table), known(r, k_override=dict.fromkeys(r, 20)),
                          period_year=2026)
    assert sum(p["change_exact"]) == pytest.approx(0.0, abs=1e-9)
    per_game = g.group_by("sno").agg(pl.col("change").sum())
    assert by_sno(per_game, "change") == pytest.approx(by_sno(p, "change_exact"))
    assert all(rounded_change(round(x * 100)) == c
               for x, c in zip(p["change_exact"], p["change"]))


def test_from_october_2025_a_2650_player_and_his_opponent_do_not_sum_to_zero():
    # 2800 beats 2300 with K 10 each: 2800 uses D 500 -> .96: +0.4; 2300 uses -400 -> .08:
    # -0.8. Under 2024-03 both use 400: +0.8 and -0.8
    g, _ = rating_changes(card("1: 2w1\n2: 1b0"), known({1: 2800, 2: 2300},
                                                        k_override={1: 10, 2: 10}),
                          period_year=2026, rules=FIDE_2025_10)
    assert by_sno(g, "change") == pytest.approx({1: 0.4, 2: -0.8})
    g, _ = rating_changes(card("1: 2w1\n2: 1b0"), known({1: 2800, 2: 2300},
                                                        k_override={1: 10, 2: 10}),
                          period_year=2026)
    assert by_sno(g, "change") == pytest.approx({1: 0.8, 2: -0.8})


# --------------------------------------------------------------------------- an event of several rating periods

def later(rows: list[tuple[int, int, int | None]]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema={"sno": pl.Int32, "from_round": pl.Int32, "rating": pl.Int32},
                        orient="row")


def test_each_game_is_rated_with_the_ratings_in_force_in_its_round():
    """Decision (FIDE's checklist for tournament programs, events longer than 30 days): Carol
    1800 loses to Alice 2000 in round 1 (D 200: PD .24), a list in force from round 3 rates
    Carol 1850 and she beats Alice then (D 150: PD .30): expected .54, not .48; Alice's own
    games use 2000 both times and Carol's later 1850 as her opponent's rating. K stays the
    start's; the new rating is the later list's 1850 plus the change of round 3's game."""
    table = "1: 2b1 -- 2w0\n2: 1w0 -- 1b1"
    ratings = known({1: 2000, 2: 1800})
    g, p = rating_changes(card(table), ratings, period_year=2026, later=later([(2, 3, 1850)]))
    carol = g.filter(pl.col("sno") == 2).sort("round")
    assert carol["rating"].to_list() == [1800, 1850] and carol["expected"].to_list() == [0.24, 0.30]
    assert by_sno(p, "expected")[2] == pytest.approx(0.54)
    assert g.filter(pl.col("sno") == 1)["opponent_rating"].to_list() == [1800, 1850]
    assert by_sno(p, "k") == {1: 20, 2: 20}
    assert by_sno(p, "change")[2] == round(20 * (1 - 0.54))  # 9.2 -> 9
    assert by_sno(p, "new_rating")[2] == 1850 + round(20 * (1 - 0.30))  # 14
    assert "from round 3: 1850" in by_sno(p, "note")[2]
    _, same = rating_changes(card(table), ratings, period_year=2026)
    assert by_sno(same, "expected")[2] == pytest.approx(0.48) and by_sno(same, "new_rating")[2] == 1800 + 10


def test_an_opponent_rated_only_on_a_later_list_counts_from_its_round():
    """Dave is unrated at the start and 1700 on the list in force from round 2: Alice's game
    against him in round 1 does not count (8.3.1), the one in round 2 does; Dave stays an
    unrated player of the event (his first rating, not a change)."""
    table = "1: 2w1 2b1\n2: 1b0 1w0"
    g, p = rating_changes(card(table), known({1: 2000, 2: None}), period_year=2026,
                          later=later([(2, 2, 1700)]))
    alice = g.filter(pl.col("sno") == 1).sort("round")
    assert alice["counts"].to_list() == [False, True] and alice["opponent_rating"].to_list() == [None, 1700]
    assert by_sno(p, "rated") == {1: True, 2: False}


def test_the_new_rating_is_the_last_lists_whatever_its_value():
    """Review finding: a later list giving the start's rating, or two later lists giving one
    rating, still begin a period of their own — the new rating is the last list's plus the
    change of the games since it came into force, and the note names its first round."""
    table = "1: 2b1 2w0 2b1\n2: 1w0 1b1 1w0"
    ratings = known({1: 2000, 2: 1800})
    # a list from round 2 that gives Carol 1800 again: the new rating is 1800 + rounds 2-3
    _, p = rating_changes(card(table), ratings, period_year=2026, later=later([(2, 2, 1800)]))
    assert by_sno(p, "new_rating")[2] == 1800 + round(20 * (1 - 2 * 0.24))  # 1 point from 2 games
    assert "from round 2: 1800" in by_sno(p, "note")[2]
    # two lists of 1850 from rounds 2 and 3: only round 3's game follows the last one
    _, p = rating_changes(card(table), ratings, period_year=2026,
                          later=later([(2, 2, 1850), (2, 3, 1850)]))
    assert by_sno(p, "new_rating")[2] == 1850 + round(20 * (0 - 0.30))
    assert "from round 3: 1850" in by_sno(p, "note")[2]

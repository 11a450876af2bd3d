"""GK rule 3 — 4½ or more advance; else the section's 4-pointers; 4-pointers fill the last section."""

from __future__ import annotations

import polars as pl

from transforms.golden_knights.advancement import rule_3_advancement
from transforms.golden_knights.rules import GKRules

RULES = GKRules()


def scores(sections: dict[str, list[tuple[str, float]]], complete: bool = True) -> pl.DataFrame:
    rows = [("preliminary", s, e, sc, complete) for s, players in sections.items() for e, sc in players]
    return pl.DataFrame(rows, orient="row", schema={"stage": pl.String, "section": pl.String, "entry_id": pl.String,
                                                    "score": pl.Float64, "section_complete": pl.Boolean})


def people(ratings: dict[str, int | None]) -> pl.DataFrame:
    return pl.DataFrame({"entry_id": list(ratings), "member_id": [f"M{e}" for e in ratings],
                         "rating": list(ratings.values())}, schema={"entry_id": pl.String, "member_id": pl.String,
                                                                    "rating": pl.Int64})


def advance(sc, ratings=None, *, complete=False, placed=(), director=None):
    ids = sc["entry_id"].to_list()
    ppl = people({e: (ratings or {}).get(e, 1500) for e in ids})
    q = rule_3_advancement(RULES, "preliminary", sc, ppl, stage_complete=complete,
                           next_stage_entries=set(placed), director=director or {})
    return {r["entry_id"]: r["qualified"] for r in q.iter_rows(named=True)}, q


# Section A: 5, 4½, 4, 3, 2½, 2, 0 (21 points)
A = [("A1", 5.0), ("A2", 4.5), ("A3", 4.0), ("A4", 3.0), ("A5", 2.5), ("A6", 2.0), ("A7", 0.0)]
# Section B: nobody reaches 4½: 4, 4, 4, 3½, 2½, 2, 1
B = [("B1", 4.0), ("B2", 4.0), ("B3", 4.0), ("B4", 3.5), ("B5", 2.5), ("B6", 2.0), ("B7", 1.0)]


def test_gk_rule_3_four_and_a_half_or_more_advance():
    q, rows = advance(scores({"P01": A}))
    assert [e for e, v in q.items() if v] == ["A1", "A2"]
    assert q["A4"] is False and q["A7"] is False
    assert rows.filter(pl.col("entry_id") == "A4")["basis"][0] == "scored below 4½"
    assert "4½ or more" in rows.filter(pl.col("entry_id") == "A2")["basis"][0]


def test_gk_rule_3_four_pointers_advance_when_nobody_reaches_four_and_a_half():
    q, rows = advance(scores({"P02": B}))
    assert sorted(e for e, v in q.items() if v) == ["B1", "B2", "B3"]
    assert q["B4"] is False
    assert "nobody in the section reached 4½" in rows.filter(pl.col("entry_id") == "B1")["basis"][0]


def test_gk_rule_3_a_four_pointer_beside_a_four_and_a_half_waits_for_the_fill_while_the_stage_runs():
    q, rows = advance(scores({"P01": A}), complete=False)
    assert q["A3"] is None
    assert "may fill" in rows.filter(pl.col("entry_id") == "A3")["basis"][0]


def test_gk_rule_3_last_section_filled_with_four_pointers_highest_rated_first():
    # three sections like A: 6 regular qualifiers; one more is needed to make 7
    sc = scores({"P01": A, "P02": [(e.replace("A", "C"), s) for e, s in A],
                 "P03": [(e.replace("A", "D"), s) for e, s in A]})
    q, rows = advance(sc, {"A3": 1700, "C3": 1900, "D3": None}, complete=True)
    assert sum(1 for v in q.values() if v) == 7
    assert q["C3"] is True and q["A3"] is False and q["D3"] is False
    assert "rating 1900" in rows.filter(pl.col("entry_id") == "C3")["basis"][0]
    assert "not needed" in rows.filter(pl.col("entry_id") == "A3")["basis"][0]


def test_gk_rule_3_fill_tie_on_rating_goes_to_the_lower_entry_id_and_unrated_come_last():
    sc = scores({"P01": A, "P02": [(e.replace("A", "C"), s) for e, s in A],
                 "P03": [(e.replace("A", "D"), s) for e, s in A]})
    q, _ = advance(sc, {"A3": 1800, "C3": 1800, "D3": None}, complete=True)
    assert (q["A3"], q["C3"], q["D3"]) == (True, False, False)
    q, _ = advance(sc, {"A3": None, "C3": None, "D3": 900}, complete=True)
    assert (q["A3"], q["C3"], q["D3"]) == (False, False, True)


def test_gk_rule_3_a_four_pointer_the_director_already_placed_fills_first():
    sc = scores({"P01": A, "P02": [(e.replace("A", "C"), s) for e, s in A],
                 "P03": [(e.replace("A", "D"), s) for e, s in A]})
    q, rows = advance(sc, {"A3": 1700, "C3": 1900, "D3": 1000}, complete=True, placed={"D3"})
    assert (q["A3"], q["C3"], q["D3"]) == (False, False, True)
    assert "as published" in rows.filter(pl.col("entry_id") == "D3")["basis"][0]


def test_gk_rule_3_no_fill_when_the_qualifiers_already_make_whole_sections():
    # A gives 2, B gives 3 (5), plus a section E with two 5-pointers: 7 in all
    E = [("E1", 5.0), ("E2", 5.0), ("E3", 4.0), ("E4", 3.0), ("E5", 2.0), ("E6", 1.5), ("E7", 0.5)]
    q, _ = advance(scores({"P01": A, "P02": B, "P03": E}), complete=True)
    assert sum(1 for v in q.values() if v) == 7
    assert q["A3"] is False and q["E3"] is False


def test_gk_rule_3_director_advance_override_counts_before_the_fill():
    sc = scores({"P01": A, "P02": [(e.replace("A", "C"), s) for e, s in A],
                 "P03": [(e.replace("A", "D"), s) for e, s in A]})
    q, rows = advance(sc, {"A3": 1700, "C3": 1900}, complete=True, director={"A4": (True, "appeal upheld")})
    assert q["A4"] is True and q["C3"] is False  # 7 without a fill
    assert rows.filter(pl.col("entry_id") == "A4")["basis"][0] == "director's decision (rule 7): appeal upheld"


def test_gk_rule_3_scores_are_game_points_of_complete_sections_only():
    q, _ = advance(scores({"P01": A}, complete=False))
    assert q == {}


def test_gk_rule_3_with_too_few_four_pointers_every_one_fills_and_the_last_section_stays_short():
    # A gives two 4½+ qualifiers and one 4-pointer: all three advance, 4 seats stay empty
    q, _ = advance(scores({"P01": A}), complete=True)
    assert sorted(e for e, v in q.items() if v) == ["A1", "A2", "A3"]

"""GK rules 7, 11, 12 and section results — rulings on time oversteps, forfeits to two
opponents, the director's adjudications, crosstables of sections in progress."""

from __future__ import annotations

import datetime as dt

import polars as pl

from transforms.golden_knights.event import run_golden_knights
from transforms.golden_knights.rules import GKRules
from transforms.golden_knights.sections import section_schedule

RULES = GKRules()
Y = 2019
D = dt.date
IDS = [f"E{i}" for i in range(1, 8)]  # seats 1-7


def lines(df: pl.DataFrame) -> pl.DataFrame:
    return df.with_columns(line=pl.int_range(2, pl.len() + 2, dtype=pl.Int64))


def base(n: int = 7):
    ids = [f"E{i}" for i in range(1, n + 1)]
    m = lines(pl.DataFrame({
        "member_id": [f"M{i}" for i in range(1, n + 1)], "name": [f"Player {i}" for i in range(1, n + 1)],
        "email": ["p@example.org"] * n, "membership_expires": [D(2030, 1, 1)] * n, "country": ["US"] * n,
        "region": ["NY"] * n, "apo_fpo": [False] * n, "rating": [2000 - 100 * i for i in range(n)],
    }))
    e = lines(pl.DataFrame({"entry_id": ids, "member_id": [f"M{i}" for i in range(1, n + 1)],
                            "received": [D(Y, 1, 2)] * n, "channel": ["online"] * n, "fee_paid": [25.0] * n}))
    return m, e


def section(stage: str = "preliminary", name: str = "P01", ids: list[str] = IDS) -> pl.DataFrame:
    return pl.DataFrame({"stage": [stage] * len(ids), "section": [name] * len(ids), "entry_id": ids,
                         "seat": list(range(1, len(ids) + 1))})


def games(sec: pl.DataFrame, results: dict[tuple[str, str], str] | None = None, default: str | None = "1/2-1/2"):
    """All games of the section by the schedule; ``results`` overrides by (white, black)."""
    s = section_schedule(RULES, sec)
    res = [(results or {}).get((w, b), default) for w, b in s.select("white", "black").rows()]
    return lines(s.with_columns(result=pl.Series(res, dtype=pl.String), ended=pl.lit(D(Y, 6, 1))))


def oversteps(*rows: tuple) -> pl.DataFrame:
    """rows: (stage, section, entry_id, opponent, reported)."""
    return lines(pl.DataFrame(rows, orient="row", schema={
        "stage": pl.String, "section": pl.String, "entry_id": pl.String, "opponent": pl.String,
        "reported": pl.Date}))


END_OF_YEAR = D(Y, 12, 1)


def run(sec, g, ov=None, overrides=None, as_of=END_OF_YEAR):
    m, e = base()
    return run_golden_knights(RULES, m, e, lines(sec.drop("seat")), g, ov, overrides, event_year=Y, as_of=as_of)


def score(res, eid: str, stage: str = "preliminary") -> float:
    return res.crosstables.filter((pl.col("entry_id") == eid) & (pl.col("stage") == stage))["score"][0]


# Schedule of a section of 7 (seat i has White against seats i+1..i+3):
# E1-E2, E1-E3, E1-E4, E2-E3, E2-E4, E2-E5, E3-E4, ... ; all games drawn unless stated.

def test_gk_rule_12_first_overstep_in_preliminaries_is_a_five_day_penalty_only():
    sec = section()
    res = run(sec, games(sec), oversteps(("preliminary", "P01", "E1", "E2", D(Y, 3, 1))))
    assert res.rulings.select("entry_id", "offense", "ruling").rows() == [("E1", 1, "reflection_time_penalty")]
    assert score(res, "E1") == 3.0 and score(res, "E2") == 3.0


def test_gk_rule_12_second_overstep_in_preliminaries_loses_that_game():
    sec = section()
    res = run(sec, games(sec), oversteps(
        ("preliminary", "P01", "E1", "E3", D(Y, 4, 1)),  # reported later: the second offence
        ("preliminary", "P01", "E1", "E2", D(Y, 3, 1)),
    ))
    assert res.rulings.select("opponent", "offense", "ruling", "result_before", "result_after").rows() == [
        ("E2", 1, "reflection_time_penalty", "1/2-1/2", "1/2-1/2"),
        ("E3", 2, "loss_of_game", "1/2-1/2", "0-1"),
    ]
    assert score(res, "E1") == 2.5 and score(res, "E3") == 3.5
    # every ruling is listed for the director, and so is the recorded draw it replaced
    assert res.director_review.filter(pl.col("rule") == "12")["detail"].to_list() == [
        "overstep 1 against E2 reported 2019-03-01: 5-day reflection-time penalty",
        "overstep 2 against E3 reported 2019-04-01: loss of game",
        "overstep against E3: recorded 1/2-1/2 replaced by 0-1 (loss of game)",
    ]
    # a time loss is not a forfeit loss (rule 4) and counts as a win for the opponent (rule 6)
    card = res.scorecard.filter((pl.col("entry_id") == "E3") & (pl.col("opponent") == "E1"))
    assert card.select("points", "kind").rows() == [(1.0, "played")]


def test_gk_rule_12_overstep_count_restarts_in_the_semifinal():
    sec_p, sec_s = section(), section("semifinal", "S01")
    g = pl.concat([games(sec_p), games(sec_s)]).drop("line")
    res = run(pl.concat([sec_p, sec_s]), lines(g), oversteps(
        ("preliminary", "P01", "E1", "E2", D(Y, 3, 1)),
        ("semifinal", "S01", "E1", "E2", D(Y + 2, 3, 1)),
    ), as_of=D(Y + 3, 1, 1))
    assert res.rulings["ruling"].to_list() == ["reflection_time_penalty", "reflection_time_penalty"]


def test_gk_rule_12_in_the_final_every_overstep_loses_the_game():
    sec = section("final", "F01")
    res = run(sec, games(sec), oversteps(("final", "F01", "E2", "E1", D(Y, 3, 1))))
    assert res.rulings.select("offense", "ruling", "result_after").rows() == [(1, "loss_of_game", "1-0")]
    assert score(res, "E1", "final") == 3.5 and score(res, "E2", "final") == 2.5


def test_gk_rule_12_loss_of_game_finishes_a_game_still_in_progress():
    sec = section("final", "F01")
    res = run(sec, games(sec, default=None), oversteps(("final", "F01", "E1", "E2", D(Y, 3, 1))))
    assert res.rulings["result_before"].to_list() == [None]
    ct = res.crosstables.filter(pl.col("entry_id") == "E2")
    assert ct["c1"][0] == "1" and ct["finished"][0] == 1 and not ct["section_complete"][0]
    assert res.director_review.filter(pl.col("rule") == "12").height == 1  # the ruling, no conflict


def test_gk_rule_12_overstep_without_such_a_game_is_a_finding():
    sec = section()
    res = run(sec, games(sec), oversteps(("preliminary", "P01", "E1", "E9", D(Y, 3, 1))))
    assert [(f.file, f.line, f.column) for f in res.findings if f.file == "time_oversteps.csv"] == [
        ("time_oversteps.csv", 2, "opponent")]


def test_gk_rule_11_forfeits_to_two_opponents_in_one_section_are_listed_for_the_director():
    sec = section()
    # E4 loses by forfeit to E1 (E1 White) and to E2 (E2 White); E5 forfeits only once
    res = run(sec, games(sec, {("E1", "E4"): "+/-", ("E2", "E4"): "+/-", ("E2", "E5"): "+/-"}))
    r11 = res.director_review.filter(pl.col("rule") == "11")
    assert r11["entry_id"].to_list() == ["E4"]
    st = res.standings.filter(pl.col("entry_id") == "E4")
    assert st["forfeit_losses"][0] == 2


def test_gk_rule_11_a_double_forfeit_is_a_forfeit_loss_for_both():
    sec = section()
    res = run(sec, games(sec, {("E1", "E2"): "-/-", ("E1", "E3"): "-/-"}))
    assert res.director_review.filter(pl.col("rule") == "11")["entry_id"].to_list() == ["E1"]
    assert dict(res.standings.select("entry_id", "forfeit_losses").iter_rows())["E2"] == 1


def test_gk_rule_7_director_result_wins_over_the_record_and_the_ruling():
    sec = section()
    ov = pl.DataFrame([{"kind": "result", "stage": "preliminary", "section": "P01", "entry_id": "E2",
                        "opponent": "E1", "value": "1-0", "note": "adjudicated", "line": 2}])
    res = run(sec, games(sec), oversteps(
        ("preliminary", "P01", "E2", "E3", D(Y, 2, 1)), ("preliminary", "P01", "E2", "E1", D(Y, 3, 1))), ov)
    # rule 12 made E2 lose to E1; the director's adjudication (E2 won) is final
    assert score(res, "E2") == 3.5 and score(res, "E1") == 2.5
    g = res.games.filter((pl.col("white") == "E1") & (pl.col("black") == "E2"))
    assert g.select("result", "source").rows() == [("0-1", "rule 7")]
    assert res.applied_overrides.select("kind", "previous", "applied").rows() == [("result", "1-0", "0-1")]
    assert not res.director_review.filter(pl.col("rule") == "7").is_empty()


def test_gk_rule_2_crosstable_shows_a_section_in_progress():
    sec = section()
    g = games(sec, {("E1", "E2"): "1-0", ("E1", "E3"): "+/-"}, default=None)
    res = run(sec, g)
    ct = res.crosstables.filter(pl.col("section") == "P01").sort("seat")
    assert ct.filter(pl.col("seat") == 1).select("c1", "c2", "c3", "c4").row(0) == ("X", "1", "+", "*")
    assert ct.filter(pl.col("seat") == 3)["c1"][0] == "-"
    assert ct["section_complete"].unique().to_list() == [False]
    assert ct.filter(pl.col("seat") == 1)["score"][0] == 2.0
    # nobody qualifies from an unfinished section
    assert res.qualifiers.is_empty()

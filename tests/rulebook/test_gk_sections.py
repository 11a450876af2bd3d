"""GK rule 2 — sections of seven of varying strengths, a member never twice in one section,
six games each with three Whites; published sections are never reshuffled."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import polars as pl

from transforms.golden_knights.event import run_golden_knights
from transforms.golden_knights.rules import GKRules
from transforms.golden_knights.sections import propose_sections, section_schedule

RULES = GKRules()
Y = 2019
D = dt.date


def lines(df: pl.DataFrame) -> pl.DataFrame:
    return df.with_columns(line=pl.int_range(2, pl.len() + 2, dtype=pl.Int64))


def event(n: int, *, member_of=lambda i: f"M{i:03d}", rating=lambda i: 2000 - 10 * i):
    """n entries E000…, one member each unless member_of says otherwise."""
    mids = sorted({member_of(i) for i in range(n)})
    m = lines(pl.DataFrame({
        "member_id": mids, "name": [f"Player {x}" for x in mids], "email": ["p@example.org"] * len(mids),
        "membership_expires": [D(2030, 1, 1)] * len(mids), "country": ["US"] * len(mids),
        "region": ["NY"] * len(mids), "apo_fpo": [False] * len(mids),
        "rating": [rating(int(x[1:])) if x[1:].isdigit() else 1500 for x in mids],
    }))
    e = lines(pl.DataFrame({
        "entry_id": [f"E{i:03d}" for i in range(n)], "member_id": [member_of(i) for i in range(n)],
        "received": [D(Y, 1, 2)] * n, "channel": ["online"] * n, "fee_paid": [25.0] * n,
    }))
    return m, e


def test_gk_rule_2_schedule_gives_each_player_six_games_three_with_white_each_pair_once():
    sec = pl.DataFrame({"stage": ["preliminary"] * 7, "section": ["P01"] * 7,
                        "entry_id": list("ABCDEFG"), "seat": list(range(1, 8))})
    s = section_schedule(RULES, sec)
    assert s.height == 21
    whites, blacks = Counter(s["white"].to_list()), Counter(s["black"].to_list())
    assert all(whites[p] == 3 and blacks[p] == 3 for p in "ABCDEFG")
    pairs = {frozenset(p) for p in s.select("white", "black").rows()}
    assert len(pairs) == 21


def test_gk_rule_2_proposed_sections_span_the_rating_range():
    pool = pl.DataFrame({"entry_id": [f"E{i:02d}" for i in range(14)], "member_id": [f"M{i}" for i in range(14)],
                         "rating": [2000 - 50 * i for i in range(14)]})
    prop, waiting = propose_sections(RULES, "preliminary", pool, existing_names=[])
    assert waiting.is_empty()
    by = prop.join(pool, on="entry_id").group_by("section").agg(pl.col("rating").sort(descending=True))
    for ratings in by["rating"].to_list():
        assert len(ratings) == 7
        # one from each pot of two: the k-th strongest of a section is rank 2k or 2k+1 overall
        assert all(2000 - 50 * (2 * k + 1) <= r <= 2000 - 50 * (2 * k) for k, r in enumerate(ratings))


def test_gk_rule_2_a_member_is_never_twice_in_one_proposed_section():
    # ranks 0 and 3 belong to one member: the serpentine order would put both in section 1
    member = {0: "X", 3: "X"}
    pool = pl.DataFrame({"entry_id": [f"E{i:02d}" for i in range(14)],
                         "member_id": [member.get(i, f"M{i}") for i in range(14)],
                         "rating": [2000 - 50 * i for i in range(14)]})
    prop, waiting = propose_sections(RULES, "preliminary", pool, existing_names=[])
    assert waiting.is_empty() and prop.height == 14
    x = prop.join(pool, on="entry_id").filter(pl.col("member_id") == "X")
    assert x["section"].n_unique() == 2


def test_gk_rule_2_member_with_more_entries_than_sections_waits_rather_than_meeting_himself():
    # 15 entries, two sections; member X has three entries: one of them must wait, and the
    # seat it leaves is taken by the 15th (lowest) entry
    pool = pl.DataFrame({"entry_id": [f"E{i:02d}" for i in range(15)],
                         "member_id": ["X"] * 3 + [f"M{i}" for i in range(3, 15)],
                         "rating": [1500] * 15})
    prop, waiting = propose_sections(RULES, "preliminary", pool, existing_names=[])
    counts = prop.join(pool, on="entry_id").group_by("section", "member_id").len()
    assert counts["len"].max() == 1
    assert prop.height == 14
    assert waiting["entry_id"].to_list() == ["E02"]


def test_gk_rule_2_published_sections_are_kept_and_only_unplaced_entries_are_proposed():
    m, e = event(15)
    published = lines(pl.DataFrame({"stage": ["preliminary"] * 7, "section": ["P01"] * 7,
                                    "entry_id": [f"E{i:03d}" for i in (14, 2, 5, 7, 9, 11, 13)]}))
    res = run_golden_knights(RULES, m, e, published, None, None, None, event_year=Y, as_of=D(Y, 3, 1))
    prop = res.proposed_sections
    assert prop["section"].unique().to_list() == ["P02"]
    assert set(prop["entry_id"]) & set(published["entry_id"]) == set()
    assert prop.height == 7
    assert res.waiting["entry_id"].len() == 1
    # the published section keeps its players and its file order as seats
    ct = res.crosstables.filter(pl.col("section") == "P01")
    assert ct["entry_id"].to_list() == published["entry_id"].to_list()
    assert ct["c1"].to_list()[1:] == ["*"] * 6 and ct["c1"][0] == "X"


def test_gk_rule_9_no_sections_are_proposed_before_pairings_begin_on_jan_1():
    m, e = event(7)
    e = e.with_columns(received=pl.lit(D(Y - 1, 12, 10)))
    before = run_golden_knights(RULES, m, e, None, None, None, None, event_year=Y, as_of=D(Y - 1, 12, 31))
    after = run_golden_knights(RULES, m, e, None, None, None, None, event_year=Y, as_of=D(Y, 1, 1))
    assert before.proposed_sections.is_empty()
    assert after.proposed_sections.height == 7


def test_gk_rule_2_member_twice_in_a_published_section_is_an_error_finding():
    m, e = event(7, member_of=lambda i: "M000" if i in (0, 1) else f"M{i:03d}")
    published = lines(pl.DataFrame({"stage": ["preliminary"] * 7, "section": ["P01"] * 7,
                                    "entry_id": [f"E{i:03d}" for i in range(7)]}))
    res = run_golden_knights(RULES, m, e, published, None, None, None, event_year=Y, as_of=D(Y, 3, 1))
    hits = [f for f in res.findings if f.file == "sections.csv" and "twice" in f.reason]
    assert [(f.line, f.value) for f in hits] == [(3, "E001")]


def test_gk_rule_2_games_outside_the_section_or_recorded_twice_are_findings():
    m, e = event(14)
    published = lines(pl.DataFrame({"stage": ["preliminary"] * 14, "section": ["P01"] * 7 + ["P02"] * 7,
                                    "entry_id": [f"E{i:03d}" for i in range(14)]}))
    games = lines(pl.DataFrame({
        "stage": ["preliminary"] * 3, "section": ["P01"] * 3,
        "white": ["E000", "E001", "E000"], "black": ["E001", "E000", "E010"],
        "result": ["1-0", "0-1", "1-0"], "ended": [D(Y, 5, 1)] * 3,
    }))
    res = run_golden_knights(RULES, m, e, published, games, None, None, event_year=Y, as_of=D(Y, 6, 1))
    got = sorted((f.line, f.column) for f in res.findings if f.file == "games.csv")
    assert got == [(3, "black"), (4, "black")]
    assert "twice" in next(f for f in res.findings if f.line == 3 and f.file == "games.csv").reason
    # only the first row counts
    assert res.crosstables.filter(pl.col("entry_id") == "E000")["score"][0] == 1.0

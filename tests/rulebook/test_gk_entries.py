"""GK rules 1, 8, 9 — entries: eligibility, fee, number of entries, deadlines, carry forward."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from transforms.golden_knights.entries import judge_entries, membership_flags
from transforms.golden_knights.event import run_golden_knights
from transforms.golden_knights.rules import GKRules

RULES = GKRules()
Y = 2019
D = dt.date


def members(*rows: dict) -> pl.DataFrame:
    base = {"name": "A Player", "email": "a@example.org", "membership_expires": D(2030, 1, 1),
            "country": "US", "region": "NY", "apo_fpo": False, "rating": 1500}
    df = pl.DataFrame([{**base, **r} for r in rows], schema={
        "member_id": pl.String, "name": pl.String, "email": pl.String, "membership_expires": pl.Date,
        "country": pl.String, "region": pl.String, "apo_fpo": pl.Boolean, "rating": pl.Int64})
    return df.with_columns(line=pl.int_range(2, pl.len() + 2, dtype=pl.Int64))


def entries(*rows: tuple) -> pl.DataFrame:
    """rows: (entry_id, member_id, received[, fee_paid])."""
    full = [(r[0], r[1], r[2], "online", r[3] if len(r) > 3 else 25.0) for r in rows]
    df = pl.DataFrame(full, orient="row", schema={
        "entry_id": pl.String, "member_id": pl.String, "received": pl.Date, "channel": pl.String,
        "fee_paid": pl.Float64})
    return df.with_columns(line=pl.int_range(2, pl.len() + 2, dtype=pl.Int64))


def status(judged: pl.DataFrame) -> dict[str, str]:
    return dict(judged.select("entry_id", "status").iter_rows())


# (k, deadline of the k-th entry) from rule 9
DEADLINES = [(1, D(Y, 12, 31)), (2, D(Y, 9, 30)), (3, D(Y, 8, 31)), (4, D(Y, 8, 31)), (5, D(Y, 7, 31)),
             (6, D(Y, 7, 31)), (7, D(Y, 7, 31)), (8, D(Y, 6, 30)), (9, D(Y, 6, 30)), (10, D(Y, 6, 30))]


@pytest.mark.parametrize("k,deadline", DEADLINES)
@pytest.mark.parametrize("late", [False, True])
def test_gk_rule_9_kth_entry_received_on_its_deadline_is_accepted_a_day_later_carried_forward(k, deadline, late):
    received = deadline + dt.timedelta(days=1 if late else 0)
    rows = [(f"E{i}", "M1", D(Y, 1, 10)) for i in range(1, k)] + [(f"E{k}", "M1", received)]
    judged, _ = judge_entries(RULES, members({"member_id": "M1"}), entries(*rows), event_year=Y)
    st = status(judged)
    assert all(st[f"E{i}"] == "accepted" for i in range(1, k))
    assert st[f"E{k}"] == ("carried_forward" if late else "accepted")


def test_gk_rule_9_second_entry_on_sep_30_accepted_on_oct_1_carried_forward_first_entry_unaffected():
    judged, _ = judge_entries(RULES, members({"member_id": "M1"}, {"member_id": "M2"}), entries(
        ("A1", "M1", D(Y, 2, 1)), ("A2", "M1", D(Y, 9, 30)),
        ("B1", "M2", D(Y, 2, 1)), ("B2", "M2", D(Y, 10, 1)),
    ), event_year=Y)
    assert status(judged) == {"A1": "accepted", "A2": "accepted", "B1": "accepted", "B2": "carried_forward"}
    reason = judged.filter(pl.col("entry_id") == "B2")["reason"][0]
    assert "2019-09-30" in reason and "next year" in reason


def test_gk_rule_9_entries_are_numbered_by_received_date_not_file_order():
    # the file lists the October entry first; it is still the member's 2nd entry
    judged, _ = judge_entries(RULES, members({"member_id": "M1"}), entries(
        ("LATE", "M1", D(Y, 10, 15)), ("EARLY", "M1", D(Y, 3, 1)),
    ), event_year=Y)
    assert status(judged) == {"LATE": "carried_forward", "EARLY": "accepted"}
    assert dict(judged.select("entry_id", "rank").iter_rows()) == {"LATE": 2, "EARLY": 1}


def test_gk_rule_9_entries_rejected_for_another_reason_are_not_numbered():
    # the underpaid first entry does not make the October entry a member's 2nd
    judged, _ = judge_entries(RULES, members({"member_id": "M1"}), entries(
        ("POOR", "M1", D(Y, 3, 1), 20.0), ("OCT", "M1", D(Y, 10, 5)),
    ), event_year=Y)
    assert status(judged) == {"POOR": "rejected", "OCT": "accepted"}


def test_gk_rule_8_eleventh_entry_of_a_member_is_rejected_not_carried_forward():
    rows = [(f"E{i:02d}", "M1", D(Y, 1, i)) for i in range(1, 12)]
    judged, _ = judge_entries(RULES, members({"member_id": "M1"}), entries(*rows), event_year=Y)
    st = status(judged)
    assert [st[f"E{i:02d}"] for i in range(1, 11)] == ["accepted"] * 10
    assert st["E11"] == "rejected"
    assert "more than 10" in judged.filter(pl.col("entry_id") == "E11")["reason"][0]


@pytest.mark.parametrize("fee,expected", [(25.0, "accepted"), (30.0, "accepted"), (24.99, "rejected"), (None, "rejected")])
def test_gk_rule_8_fee_of_25_dollars_per_entry(fee, expected):
    judged, _ = judge_entries(RULES, members({"member_id": "M1"}), entries(("E1", "M1", D(Y, 2, 1), fee)),
                              event_year=Y)
    assert status(judged)["E1"] == expected


@pytest.mark.parametrize("country,region,apo,expected", [
    ("US", "NY", False, "accepted"),
    ("US", "HI", False, "accepted"),  # Hawaii, named by rule 1
    ("CA", "ON", False, "accepted"),
    ("MX", "", False, "accepted"),
    ("PR", "", False, "accepted"),  # an island of North America
    ("GB", "", False, "rejected"),
    ("DE", "", True, "accepted"),  # APO/FPO address
    ("US", "AE", True, "accepted"),
    ("US", "GU", False, "rejected"),  # Guam: a US territory outside North America
])
def test_gk_rule_1_residence_north_america_islands_hawaii_or_apo_fpo(country, region, apo, expected):
    m = members({"member_id": "M1", "country": country, "region": region, "apo_fpo": apo})
    judged, _ = judge_entries(RULES, m, entries(("E1", "M1", D(Y, 2, 1))), event_year=Y)
    assert status(judged)["E1"] == expected


@pytest.mark.parametrize("expires,expected", [(D(Y, 2, 1), "accepted"), (D(Y, 1, 31), "rejected")])
def test_gk_rule_1_membership_current_on_the_day_the_entry_is_received(expires, expected):
    m = members({"member_id": "M1", "membership_expires": expires})
    judged, _ = judge_entries(RULES, m, entries(("E1", "M1", D(Y, 2, 1))), event_year=Y)
    assert status(judged)["E1"] == expected


def test_gk_rule_1_unknown_member_is_rejected():
    judged, _ = judge_entries(RULES, members({"member_id": "M1"}), entries(("E1", "NOPE", D(Y, 2, 1))), event_year=Y)
    assert status(judged)["E1"] == "rejected"


def test_gk_rule_9_entries_are_received_from_dec_1_of_the_previous_year_not_before():
    judged, _ = judge_entries(RULES, members({"member_id": "M1"}, {"member_id": "M2"}), entries(
        ("NOV30", "M1", D(Y - 1, 11, 30)), ("DEC1", "M2", D(Y - 1, 12, 1)),
    ), event_year=Y)
    assert status(judged) == {"NOV30": "rejected", "DEC1": "accepted"}
    assert "2018-12-01" in judged.filter(pl.col("entry_id") == "NOV30")["reason"][0]


def test_gk_rule_9_carried_in_entries_count_as_received_on_the_opening_date_at_no_extra_cost():
    # last year's 2nd entry, postmarked 15 Oct 2018, paid last year's fee of $20
    carried = entries(("CF", "M1", D(Y - 1, 10, 15), 20.0))
    judged, findings = judge_entries(RULES, members({"member_id": "M1"}), entries(
        ("CF", "M1", D(Y - 1, 10, 15), 20.0), ("NEW", "M1", D(Y, 9, 30)),
    ), event_year=Y, carried_in=carried)
    assert status(judged) == {"CF": "accepted", "NEW": "accepted"}  # CF is entry 1, NEW entry 2
    assert judged["file"].to_list() == ["carried_in.csv", "entries.csv"]
    assert [(f.file, f.line, f.severity) for f in findings] == [("entries.csv", 2, "warning")]


def test_gk_rule_9_entries_received_from_dec_1_of_the_previous_year_count_for_this_year():
    judged, _ = judge_entries(RULES, members({"member_id": "M1"}), entries(
        ("E1", "M1", D(Y - 1, 12, 1)), ("E2", "M1", D(Y - 1, 12, 2)),
    ), event_year=Y)
    assert status(judged) == {"E1": "accepted", "E2": "accepted"}


def test_gk_rule_9_carried_forward_entries_are_accepted_by_next_years_run():
    m = members({"member_id": "M1"})
    e = entries(("E1", "M1", D(Y, 1, 5)), ("E2", "M1", D(Y, 11, 2)))
    res = run_golden_knights(RULES, m, e, None, None, None, None, event_year=Y, as_of=D(Y, 12, 1))
    cf = res.carried_forward
    assert cf.columns == ["entry_id", "member_id", "received", "channel", "fee_paid"]
    assert cf["entry_id"].to_list() == ["E2"]
    # next year: E2 arrived before the 2020 opening (1 Dec 2019): judged as received then, a 1st entry
    cf_in = cf.with_columns(line=pl.lit(2, pl.Int64))
    nxt = run_golden_knights(RULES, m, entries(("F1", "M1", D(Y + 1, 2, 1))), None, None, None, None,
                             event_year=Y + 1, as_of=D(Y + 1, 3, 1), carried_in=cf_in)
    assert status(nxt.entries) == {"E2": "accepted", "F1": "accepted"}
    # without the carried_in file the same row would be too early for 2020
    judged, _ = judge_entries(RULES, m, cf_in, event_year=Y + 1)
    assert status(judged) == {"E2": "rejected"}


def test_gk_rule_9_duplicate_entry_id_is_a_finding_with_its_line():
    judged, findings = judge_entries(RULES, members({"member_id": "M1"}), entries(
        ("E1", "M1", D(Y, 2, 1)), ("E1", "M1", D(Y, 2, 2)),
    ), event_year=Y)
    assert [(f.file, f.line, f.column) for f in findings] == [("entries.csv", 3, "entry_id")]
    assert judged.sort("line")["status"].to_list() == ["accepted", "rejected"]


def test_gk_rule_1_membership_flags_lapsed_and_lapsing_within_the_window():
    as_of = D(2021, 6, 1)
    m = members({"member_id": "LAPSED", "membership_expires": D(2021, 5, 31)},
                {"member_id": "EDGE", "membership_expires": as_of + dt.timedelta(days=90)},
                {"member_id": "SAFE", "membership_expires": as_of + dt.timedelta(days=91)})
    active = pl.DataFrame({"entry_id": ["e1", "e2", "e3"], "member_id": ["LAPSED", "EDGE", "SAFE"]})
    flags = membership_flags(RULES, m, active, as_of=as_of)
    assert dict(flags.select("member_id", "flag").iter_rows()) == {"LAPSED": "lapsed", "EDGE": "lapses_soon"}
    assert dict(flags.select("member_id", "days_left").iter_rows()) == {"LAPSED": -1, "EDGE": 90}


def test_gk_rule_7_director_entry_status_override_wins_and_is_recorded():
    m = members({"member_id": "M1"})
    e = entries(("E1", "M1", D(Y, 10, 1)), ("E2", "M1", D(Y, 10, 2)))
    ov = pl.DataFrame([{"kind": "entry_status", "stage": None, "section": None, "entry_id": "E2",
                        "opponent": None, "value": "accepted", "note": "placement possible", "line": 2}])
    res = run_golden_knights(RULES, m, e, None, None, None, ov, event_year=Y, as_of=D(Y, 12, 1))
    assert status(res.entries) == {"E1": "accepted", "E2": "accepted"}
    assert res.applied_overrides.select("kind", "entry_id", "previous", "applied").rows() == [
        ("entry_status", "E2", "carried_forward", "accepted")]

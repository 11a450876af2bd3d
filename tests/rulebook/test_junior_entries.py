"""NJ 2024 entries, eligibility, fees, boarding and the draw-agreement check.

Seed 004 (53rd National Junior U-19 / 38th National Junior Girls U-19, 2024). Every test
builds a tiny players.csv frame inline; ``entry()`` is one valid, on-time Tamil Nadu quota
entry in the Open section, and each test changes only what it is about.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from transforms.core.config import from_table
from transforms.core.errors import ConfigError, Severity
from transforms.national_junior.draw_agreement import flag_early_draws
from transforms.national_junior.entries import (
    EntryType,
    JuniorEntryRules,
    SeedReason,
    evaluate_entries,
)

RULES = JuniorEntryRules()

PLAYER_SCHEMA = {
    "line": pl.Int64,
    "player_id": pl.String,
    "name": pl.String,
    "section": pl.String,
    "gender": pl.String,
    "birth_date": pl.Date,
    "nationality": pl.String,
    "state": pl.String,
    "fide_id": pl.String,
    "rating": pl.Int64,
    "title": pl.String,
    "entry_type": pl.String,
    "seed_reason": pl.String,
    "registered_at": pl.Datetime("us"),
    "fee_paid": pl.Float64,
    "aicf_registered": pl.Boolean,
    "email": pl.String,
}

ON_TIME = datetime(2024, 8, 20, 10, 0)


def entry(pid: str, **changes: object) -> dict[str, object]:
    row: dict[str, object] = {
        "player_id": pid,
        "name": f"Player {pid}",
        "section": "open",
        "gender": "M",
        "birth_date": date(2006, 5, 1),
        "nationality": "IND",
        "state": "TN",
        "fide_id": "",
        "rating": 1800,
        "title": "",
        "entry_type": "quota",
        "seed_reason": "",
        "registered_at": ON_TIME,
        "fee_paid": 2000.0,
        "aicf_registered": True,
        "email": "",
    }
    row.update(changes)
    return row


def players(*rows: dict[str, object]) -> pl.DataFrame:
    """players.csv as the ingest hands it over: line 2 is the first data row."""
    return pl.DataFrame([{"line": i + 2, **r} for i, r in enumerate(rows)], schema=PLAYER_SCHEMA)


def associations(arrears: dict[str, bool] | None = None) -> pl.DataFrame:
    states = {
        "TN": "Tamil Nadu",
        "HR": "Haryana",
        "TG": "Telangana",
        "RJ": "Rajasthan",
        "UP": "Uttar Pradesh",
        "MH": "Maharashtra",
        "WB": "West Bengal",
        "KA": "Karnataka",
    }
    arrears = arrears or {}
    return pl.DataFrame(
        {
            "state": list(states),
            "name": list(states.values()),
            "arrears_cleared": [arrears.get(s, True) for s in states],
            "email": [f"{s.lower()}@example.org" for s in states],
        }
    )


def decide(
    *rows: dict[str, object], rules: JuniorEntryRules = RULES, assoc: pl.DataFrame | None = None
):
    return evaluate_entries(players(*rows), associations() if assoc is None else assoc, rules)


def status(result, pid: str) -> str:
    return result.decisions.filter(pl.col("player_id") == pid)["status"].item()


def reasons(result, pid: str) -> str:
    return result.decisions.filter(pl.col("player_id") == pid)["reasons"].item()


def money(result, pid: str, column: str) -> Decimal:
    return result.decisions.filter(pl.col("player_id") == pid)[column].item()


def statuses(result) -> dict[str, str]:
    return dict(result.decisions.select("player_id", "status").iter_rows())


# --- Age Limit -------------------------------------------------------------------------------


def test_age_limit_born_2005_01_01_is_in_and_2004_12_31_is_out():
    r = decide(
        entry("in", birth_date=date(2005, 1, 1)), entry("out", birth_date=date(2004, 12, 31))
    )
    assert status(r, "in") == "accepted"
    assert status(r, "out") == "rejected"
    assert reasons(r, "out") == "born 2004-12-31, before the age limit 2005-01-01"


def test_age_limit_applies_to_seeded_players_too():
    r = decide(
        entry(
            "gm",
            entry_type="seeded",
            seed_reason="title_gm_im",
            title="GM",
            birth_date=date(2004, 12, 31),
        )
    )
    assert status(r, "gm") == "rejected"
    assert "age limit" in reasons(r, "gm")


def test_age_limit_missing_birth_date_is_rejected():
    r = decide(entry("x", birth_date=None))
    assert reasons(r, "x") == "birth date missing"


# --- Indian nationals, AICF registration -----------------------------------------------------


def test_indian_nationals_only():
    r = decide(entry("ind"), entry("npl", nationality="NPL"))
    assert statuses(r) == {"ind": "accepted", "npl": "rejected"}
    assert reasons(r, "npl") == "nationality 'NPL' is not IND"


@pytest.mark.parametrize(
    "registered, expected", [(True, "accepted"), (False, "rejected"), (None, "rejected")]
)
def test_aicf_registration_required_missing_counts_as_not_registered(registered, expected):
    r = decide(entry("p", aicf_registered=registered))
    assert status(r, "p") == expected


# --- Categories and gender -------------------------------------------------------------------


def test_known_category_rejects_other_sections():
    r = decide(entry("p", section="u17"))
    assert reasons(r, "p") == "unknown section 'u17' (expected one of open, girls)"


def test_girls_section_female_male_rejected_girl_in_open_accepted():
    r = decide(
        entry("boy", section="girls", gender="M"),
        entry("girl_open", section="open", gender="F"),
        entry("girl", section="girls", gender="F"),
    )
    assert statuses(r) == {"boy": "rejected", "girl_open": "accepted", "girl": "accepted"}
    assert reasons(r, "boy") == "gender 'M' may not enter the girls section"


def test_girls_in_open_use_the_states_open_quota():
    # Decision: a girl entering Open on the quota takes one of the state's four Open seats.
    rows = [entry(f"b{i}", registered_at=datetime(2024, 8, 1, 10, i)) for i in range(4)]
    r = decide(*rows, entry("g", gender="F", registered_at=datetime(2024, 8, 2)))
    assert status(r, "g") == "rejected"
    assert reasons(r, "g").startswith("no seat left: quota of 'TN' in open (4 allowed)")


def test_codes_compare_case_blind():
    r = decide(
        entry("g", section="girls", gender="f", nationality="ind"),
        entry("s", entry_type="seeded", seed_reason="title_gm_im", title="im"),
    )
    assert set(statuses(r).values()) == {"accepted"}
    [f] = decide(entry("b", section="girls", gender="m")).findings
    assert (f.value, f.reason) == ("m", "gender 'm' may not enter the girls section")


def test_known_entry_type_rejection_lists_the_entry_types():
    r = decide(entry("p", entry_type="wildcard"))
    assert reasons(r, "p") == (
        "unknown entry type 'wildcard' (accepted: quota, seeded, special, host, secretary, "
        "no_association, medal_bonus, odd_fill)"
    )


# --- Through the State Association, arrears --------------------------------------------------


def test_through_state_association_quota_needs_an_affiliated_state():
    r = decide(entry("none", state=""), entry("zz", state="ZZ"))
    assert reasons(r, "none") == "quota entries must come through an affiliated State Association"
    assert reasons(r, "zz") == "state 'ZZ' is not an affiliated association"


def test_through_state_association_special_entry_needs_an_association():
    r = decide(entry("sp", entry_type="special", state="", fee_paid=7500.0))
    assert status(r, "sp") == "rejected"


def test_through_state_association_no_association_entry_must_have_none():
    r = decide(
        entry("na", entry_type="no_association", state=""),
        entry("tn", entry_type="no_association", state="TN"),
    )
    assert statuses(r) == {"na": "accepted", "tn": "rejected"}


def test_through_state_association_configured_no_association_code():
    rules = JuniorEntryRules(no_association_codes=frozenset({"", "AN"}))
    r = decide(entry("an", entry_type="no_association", state="AN"), rules=rules)
    assert status(r, "an") == "accepted"
    assert status(decide(entry("an", entry_type="no_association", state="AN")), "an") == "rejected"


def test_through_state_association_secretary_seat_with_or_without_state():
    r = decide(
        entry("s1", entry_type="secretary", state=""),
        entry("s2", entry_type="secretary", state="KA", section="girls", gender="F"),
    )
    assert statuses(r) == {"s1": "accepted", "s2": "accepted"}


def test_arrears_cleared_rejects_every_entry_the_association_submits():
    assoc = associations({"KA": False})
    r = decide(
        entry("q", state="KA"),
        entry("sp", state="KA", entry_type="special", fee_paid=7500.0),
        entry("sd", state="KA", entry_type="seeded", seed_reason="nj2023_top4_open"),
        entry("tn", state="TN"),
        assoc=assoc,
    )
    assert statuses(r) == {"q": "rejected", "sp": "rejected", "sd": "rejected", "tn": "accepted"}
    assert reasons(r, "q") == "association 'KA' has not cleared its arrears"


def test_arrears_cleared_does_not_touch_the_secretarys_seat():
    # Decision: the Secretary's seat is AICF's, not the association's entry.
    r = decide(entry("s", state="KA", entry_type="secretary"), assoc=associations({"KA": False}))
    assert status(r, "s") == "accepted"


def test_arrears_cleared_missing_value_counts_as_arrears():
    assoc = associations().with_columns(
        pl.when(pl.col("state") == "KA")
        .then(None)
        .otherwise(pl.col("arrears_cleared"))
        .alias("arrears_cleared")
    )
    assert status(decide(entry("q", state="KA"), assoc=assoc), "q") == "rejected"


# --- Seeded routes ---------------------------------------------------------------------------


def test_seeded_route_must_be_named():
    r = decide(entry("s", entry_type="seeded", seed_reason=""))
    assert reasons(r, "s") == "seeded entry without a seed_reason"
    [f] = r.findings
    assert (f.column, f.value, f.severity, f.line) == ("seed_reason", "", Severity.ERROR, 2)


def test_seeded_route_unknown_reason_is_rejected_listing_the_accepted_codes():
    r = decide(entry("s", entry_type="seeded", seed_reason="club_champion"))
    assert reasons(r, "s") == (
        "unknown seed_reason 'club_champion' (accepted: " + ", ".join(ROUTE_CATEGORY) + ")"
    )
    [f] = r.findings
    assert (f.file, f.line, f.column, f.value, f.severity) == (
        "players.csv", 2, "seed_reason", "club_champion", Severity.ERROR)


ROUTE_CATEGORY = {
    # "Top four players from 2023 National Junior (Under-19) Open & Girls Chess Championships
    # are eligible to participate as seeded players in their respective categories"
    "nj2023_top4_open": {"open"},
    "nj2023_top4_girls": {"girls"},
    # "The top two players from 2023 National U-17 Open and Girls Championships ... in their
    # respective categories."
    "nu17_2023_top2_open": {"open"},
    "nu17_2023_top2_girls": {"girls"},
    # "The Champions from 2023 National Under-15 Open & Girls ... in their respective category."
    "nu15_2023_champion_open": {"open"},
    "nu15_2023_champion_girls": {"girls"},
    # "World Champion in any over the board category from the year 2023", "2023 World No.2 & 3
    # Under-18 and Under-20 categories", "2023 Asian U-20 top three rankers", "2023 Asian
    # Under-18 Champion". Decision: the category of the title earned, as the national routes.
    "world_champion_2023_open": {"open"},
    "world_champion_2023_girls": {"girls"},
    "world_u18_u20_2_3_open": {"open"},
    "world_u18_u20_2_3_girls": {"girls"},
    "asian_u20_top3_open": {"open"},
    "asian_u20_top3_girls": {"girls"},
    "asian_u18_champion_open": {"open"},
    "asian_u18_champion_girls": {"girls"},
    # The only two Girls titles that lead to the Open section.
    "ng19_2023_top2_open": {"open"},
    "ngu17_2023_champion_open": {"open"},
    # "Current National Over the Board Champion in any higher category"
    "national_champion_higher_open": {"open"},
    "national_champion_higher_girls": {"girls"},
    # "All GMs / IMs are seeded in Open Section and all WGMs / WIMs are seeded in Girls Section"
    "title_gm_im": {"open"},
    "title_wgm_wim": {"girls"},
}
"""Every seed route and the categories the seed text lets it seed into."""


def test_every_seed_route_is_in_the_table_of_categories():
    assert list(ROUTE_CATEGORY) == [r.value for r in SeedReason]
    assert {r: set(c) for r, c in RULES.seed_routes.items()} == ROUTE_CATEGORY


@pytest.mark.parametrize("section", ["open", "girls"])
@pytest.mark.parametrize("route, into", ROUTE_CATEGORY.items())
def test_seeded_route_seeds_into_the_categories_the_text_allows_only(route, into, section):
    title = {"title_gm_im": "IM", "title_wgm_wim": "WIM"}.get(route, "")
    r = decide(
        entry("p", section=section, gender="F", entry_type="seeded", seed_reason=route, title=title)
    )
    if section in into:
        assert (status(r, "p"), reasons(r, "p")) == ("accepted", "")
    else:
        assert status(r, "p") == "rejected"
        assert reasons(r, "p") == (
            f"seed route {route} does not seed into the {section} section "
            f"(it seeds into {', '.join(into)})"
        )
        [f] = r.findings
        assert (f.line, f.column, f.value) == (2, "seed_reason", route)


@pytest.mark.parametrize(
    "route", ["world_champion_2023", "world_u18_u20_2_3", "asian_u20_top3",
              "asian_u18_champion", "national_champion_higher"])
def test_world_asian_and_champion_routes_carry_the_category_of_the_title(route):
    # Decision: a title of an open category seeds into Open (whoever earned it); a title of a
    # girls' category into Girls only: no Girls title but the two named ones leads to Open.
    r = decide(
        entry("boy_open", entry_type="seeded", seed_reason=f"{route}_open"),
        entry("girl_open", gender="F", entry_type="seeded", seed_reason=f"{route}_open"),
        entry("girl_girls", section="girls", gender="F", entry_type="seeded",
              seed_reason=f"{route}_girls"),
        entry("girls_title_in_open", gender="F", entry_type="seeded", seed_reason=f"{route}_girls"),
        entry("boy_girls_title", section="girls", entry_type="seeded", seed_reason=f"{route}_girls"),
    )
    assert statuses(r) == {"boy_open": "accepted", "girl_open": "accepted",
                           "girl_girls": "accepted", "girls_title_in_open": "rejected",
                           "boy_girls_title": "rejected"}
    assert reasons(r, "girls_title_in_open") == (
        f"seed route {route}_girls does not seed into the open section (it seeds into girls)")


def test_a_girls_title_seeds_a_girl_into_open_only_by_the_two_named_routes():
    girls_titles = [r for r, c in ROUTE_CATEGORY.items() if c == {"girls"}]
    rows = [entry(r, gender="F", entry_type="seeded", seed_reason=r, title="WIM")
            for r in girls_titles]
    rows += [entry(r, gender="F", entry_type="seeded", seed_reason=r)
             for r in ("ng19_2023_top2_open", "ngu17_2023_champion_open")]
    r = decide(*rows)
    assert {p for p, s in statuses(r).items() if s == "accepted"} == {
        "ng19_2023_top2_open", "ngu17_2023_champion_open"}


def test_a_route_earned_in_a_girls_championship_needs_a_girl():
    # Decision: a boy cannot hold a Girls title, whichever section the route seeds into.
    r = decide(
        entry("boy_open", entry_type="seeded", seed_reason="ng19_2023_top2_open"),
        entry("girl_open", gender="F", entry_type="seeded", seed_reason="ng19_2023_top2_open"),
        entry("boy_top4", entry_type="seeded", seed_reason="nj2023_top4_open"),
        entry("boy_girls", section="girls", entry_type="seeded", seed_reason="nj2023_top4_girls"),
    )
    assert statuses(r) == {"boy_open": "rejected", "girl_open": "accepted",
                           "boy_top4": "accepted", "boy_girls": "rejected"}
    assert reasons(r, "boy_open") == (
        "seed route ng19_2023_top2_open is earned in a Girls championship; gender is 'M'"
    )
    # In the Girls section the Girls-section rule says it once; no second reason.
    assert reasons(r, "boy_girls") == "gender 'M' may not enter the girls section"


@pytest.mark.parametrize("old, choices", [
    ("nj2023_top4", "nj2023_top4_open or nj2023_top4_girls"),
    ("nu17_2023_top2", "nu17_2023_top2_open or nu17_2023_top2_girls"),
    ("nu15_2023_champion", "nu15_2023_champion_open or nu15_2023_champion_girls"),
])
@pytest.mark.parametrize("section", ["open", "girls"])
def test_former_route_code_without_a_category_is_rejected_naming_its_replacements(
    old, choices, section
):
    # Decision: the former code covered the Open and the Girls title of one championship;
    # which one it means is not in the file, so it is not guessed.
    r = decide(entry("p", section=section, gender="F", entry_type="seeded", seed_reason=old))
    assert reasons(r, "p") == (
        f"seed_reason '{old}' names no category: write {choices}, the category of the "
        "championship the route was earned in"
    )
    [f] = r.findings
    assert (f.line, f.column, f.value, f.severity) == (2, "seed_reason", old, Severity.ERROR)


def test_seeded_route_titles_gm_im_open_wgm_wim_girls():
    r = decide(
        entry("im", entry_type="seeded", seed_reason="title_gm_im", title="IM"),
        entry("fm", entry_type="seeded", seed_reason="title_gm_im", title="FM"),
        entry(
            "wim",
            entry_type="seeded",
            seed_reason="title_wgm_wim",
            title="WIM",
            section="girls",
            gender="F",
        ),
        entry(
            "wgm_open",
            entry_type="seeded",
            seed_reason="title_wgm_wim",
            title="WGM",
            gender="F",
        ),
        # Decision: literal reading — a GM/IM title is not a Girls-section seed route.
        entry(
            "im_girls",
            entry_type="seeded",
            seed_reason="title_wgm_wim",
            title="IM",
            section="girls",
            gender="F",
        ),
    )
    assert statuses(r) == {
        "im": "accepted",
        "fm": "rejected",
        "wim": "accepted",
        "wgm_open": "rejected",
        "im_girls": "rejected",
    }
    assert reasons(r, "fm") == "seed route title_gm_im needs title GM/IM, has 'FM'"


def test_seeded_players_do_not_use_the_state_quota():
    rows = [entry(f"q{i}") for i in range(4)]
    r = decide(*rows, entry("s", entry_type="seeded", seed_reason="nj2023_top4_open"))
    assert set(statuses(r).values()) == {"accepted"}


def test_odd_number_fill_counts_the_seeded_players_each_category_accepts():
    # Open: 2 quota + nj2023_top4_open = 3 (odd) -> the fill is accepted; the Girls title
    # in the Open section is rejected and does not count (with the former one code for both
    # titles it would have made 4, and the fill would have been rejected).
    # Girls: 1 quota + nj2023_top4_girls = 2 (even) -> the fill is rejected; the Open title
    # in the Girls section does not count.
    r = decide(
        entry("oq1"),
        entry("oq2"),
        entry("os", entry_type="seeded", seed_reason="nj2023_top4_open"),
        entry("og", gender="F", entry_type="seeded", seed_reason="nj2023_top4_girls"),
        entry("ofill", state="HR", entry_type="odd_fill"),
        entry("gq", section="girls", gender="F"),
        entry("gs", section="girls", gender="F", entry_type="seeded",
              seed_reason="nj2023_top4_girls"),
        entry("go", section="girls", gender="F", entry_type="seeded",
              seed_reason="nu17_2023_top2_open"),
        entry("gfill", section="girls", gender="F", state="HR", entry_type="odd_fill"),
    )
    assert statuses(r) == {"oq1": "accepted", "oq2": "accepted", "os": "accepted",
                           "og": "rejected", "ofill": "accepted", "gq": "accepted",
                           "gs": "accepted", "go": "rejected", "gfill": "rejected"}
    assert reasons(r, "gfill") == (
        "category has an even number (2) of other entries; no odd-number fill")


# --- Host, Secretary, no-association, medal-state seats -------------------------------------


def test_host_entries_from_host_only():
    r = decide(
        entry("tn", entry_type="host", state="TN"), entry("hr", entry_type="host", state="HR")
    )
    assert statuses(r) == {"tn": "rejected", "hr": "accepted"}
    assert reasons(r, "tn") == "host entries are the host's (HR), not 'TN'"


def test_host_additional_entries_two_per_category_on_top_of_quota():
    rows = [entry(f"q{i}", state="HR") for i in range(4)]
    hosts = [
        entry(f"h{i}", state="HR", entry_type="host", registered_at=datetime(2024, 8, 1, i))
        for i in range(3)
    ]
    girls = [
        entry(f"g{i}", state="HR", entry_type="host", section="girls", gender="F") for i in range(2)
    ]
    r = decide(*rows, *hosts, *girls)
    rejected = [p for p, s in statuses(r).items() if s == "rejected"]
    assert rejected == ["h2"]
    assert reasons(r, "h2") == (
        "no seat left: host's additional seats of 'HR' in open (2 allowed); "
        "this is entry no. 3 by registered_at, then player_id"
    )


def test_secretary_seat_one_per_category():
    r = decide(
        entry("s1", entry_type="secretary", registered_at=datetime(2024, 8, 1)),
        entry("s2", entry_type="secretary", registered_at=datetime(2024, 8, 2)),
        entry("sg", entry_type="secretary", section="girls", gender="F"),
    )
    assert statuses(r) == {"s1": "accepted", "s2": "rejected", "sg": "accepted"}


def test_no_association_seats_two_per_category_in_all_not_per_area():
    rules = JuniorEntryRules(no_association_codes=frozenset({"", "AN", "LD"}))
    r = decide(
        entry("a", entry_type="no_association", state="AN", registered_at=datetime(2024, 8, 1)),
        entry("b", entry_type="no_association", state="LD", registered_at=datetime(2024, 8, 2)),
        entry("c", entry_type="no_association", state="", registered_at=datetime(2024, 8, 3)),
        rules=rules,
    )
    assert statuses(r) == {"a": "accepted", "b": "accepted", "c": "rejected"}


def test_medal_bonus_entries_follow_the_2023_table():
    open_tg = [
        entry(f"tg{i}", state="TG", entry_type="medal_bonus", registered_at=datetime(2024, 8, 1, i))
        for i in range(4)
    ]
    r = decide(
        *open_tg,
        entry("rj1", state="RJ", entry_type="medal_bonus", registered_at=datetime(2024, 8, 1)),
        entry("rj2", state="RJ", entry_type="medal_bonus", registered_at=datetime(2024, 8, 2)),
        entry("up", state="UP", entry_type="medal_bonus", section="girls", gender="F"),
        entry("tg_girls", state="TG", entry_type="medal_bonus", section="girls", gender="F"),
        entry("ka", state="KA", entry_type="medal_bonus"),
    )
    assert statuses(r) == {
        "tg0": "accepted",
        "tg1": "accepted",
        "tg2": "accepted",
        "tg3": "rejected",
        "rj1": "accepted",
        "rj2": "rejected",
        "up": "accepted",
        "tg_girls": "rejected",
        "ka": "rejected",
    }
    assert reasons(r, "tg_girls") == "state 'TG' has no medal-state entries in the girls section"


def test_medal_bonus_entries_do_not_use_the_quota():
    rows = [entry(f"q{i}", state="TN") for i in range(4)]
    r = decide(
        *rows,
        entry("m1", state="TN", entry_type="medal_bonus"),
        entry("m2", state="TN", entry_type="medal_bonus"),
    )
    assert set(statuses(r).values()) == {"accepted"}


# --- Quota overflow --------------------------------------------------------------------------


def test_quota_per_association_fifth_entry_rejected_by_registered_at_then_player_id():
    # Input order is shuffled: the seat order is registered_at, then player_id.
    t = datetime(2024, 8, 10, 12, 0)
    r = decide(
        entry("late", registered_at=datetime(2024, 8, 11)),
        entry("tie_b", registered_at=t),
        entry("early", registered_at=datetime(2024, 8, 1)),
        entry("tie_a", registered_at=t),
        entry("tie_c", registered_at=t),
        entry("other_state", state="KA", registered_at=datetime(2024, 8, 30)),
    )
    assert statuses(r) == {
        "late": "rejected",
        "tie_b": "accepted",
        "early": "accepted",
        "tie_a": "accepted",
        "tie_c": "accepted",
        "other_state": "accepted",
    }
    assert reasons(r, "late") == (
        "no seat left: quota of 'TN' in open (4 allowed); "
        "this is entry no. 5 by registered_at, then player_id"
    )
    t2 = decide(*[entry(p, registered_at=t) for p in ("e", "d", "c", "b", "a")])
    assert [p for p, s in statuses(t2).items() if s == "rejected"] == ["e"]


def test_quota_per_association_rejected_entry_takes_no_seat():
    rows = [entry(f"q{i}", registered_at=datetime(2024, 8, 1, i)) for i in range(5)]
    rows[0]["birth_date"] = date(2004, 6, 1)
    r = decide(*rows)
    assert statuses(r) == {
        "q0": "rejected",
        "q1": "accepted",
        "q2": "accepted",
        "q3": "accepted",
        "q4": "accepted",
    }
    assert "no seat left" not in reasons(r, "q0")


def test_quota_per_association_counts_each_category_separately():
    rows = [entry(f"o{i}") for i in range(4)] + [
        entry(f"g{i}", section="girls", gender="F") for i in range(4)
    ]
    assert set(statuses(decide(*rows)).values()) == {"accepted"}


def test_special_entries_are_not_limited_by_the_quota():
    rows = [entry(f"q{i}") for i in range(4)]
    r = decide(*rows, *[entry(f"s{i}", entry_type="special", fee_paid=7500.0) for i in range(3)])
    assert set(statuses(r).values()) == {"accepted"}


# --- Closing time and late fee ---------------------------------------------------------------


@pytest.mark.parametrize(
    "registered, expected",
    [
        (datetime(2024, 9, 9, 16, 59), "accepted"),
        (datetime(2024, 9, 9, 17, 0), "accepted"),  # Decision: "up to 17:00 hrs" includes 17:00
        (datetime(2024, 9, 9, 17, 0, 1), "rejected"),
        (datetime(2024, 9, 9, 17, 1), "rejected"),
        (datetime(2024, 9, 10, 9, 0), "rejected"),
    ],
)
def test_closing_time_boundaries_around_17_00_on_9_september(registered, expected):
    r = decide(entry("p", registered_at=registered, fee_paid=2250.0))
    assert status(r, "p") == expected


def test_closing_time_reason_and_finding():
    r = decide(entry("p", registered_at=datetime(2024, 9, 9, 17, 1)))
    assert reasons(r, "p") == "registered 2024-09-09T17:01, after the closing time 2024-09-09T17:00"
    [f] = r.findings
    assert (f.column, f.value, f.line) == ("registered_at", "2024-09-09T17:01", 2)


def test_closing_time_missing_registration_time_rejected():
    assert reasons(decide(entry("p", registered_at=None)), "p") == "registration time missing"


@pytest.mark.parametrize(
    "registered, late",
    [
        (datetime(2024, 9, 2, 0, 0), Decimal(0)),
        (datetime(2024, 9, 2, 23, 59), Decimal(0)),  # Decision: all of 2 September is in time
        (datetime(2024, 9, 3, 0, 0), Decimal(250)),
        (datetime(2024, 9, 9, 17, 0), Decimal(250)),
    ],
)
def test_late_fee_after_2_september(registered, late):
    r = decide(entry("p", registered_at=registered, fee_paid=2250.0))
    assert money(r, "p", "late_fee") == late
    assert money(r, "p", "balance") == Decimal(250) - late


def test_late_fee_applies_to_special_entries_too():
    r = decide(
        entry("sp", entry_type="special", registered_at=datetime(2024, 9, 5), fee_paid=7750.0)
    )
    assert (money(r, "sp", "fee_due"), money(r, "sp", "late_fee"), money(r, "sp", "balance")) == (
        Decimal(7500),
        Decimal(250),
        Decimal(0),
    )


def test_late_fee_not_charged_to_rejected_entries():
    r = decide(entry("p", registered_at=datetime(2024, 9, 9, 17, 1), fee_paid=2250.0))
    assert money(r, "p", "late_fee") == 0 and money(r, "p", "fee_due") == 0
    assert money(r, "p", "balance") == Decimal(2250)  # owed back to the association


# --- Odd-number fill -------------------------------------------------------------------------


def test_odd_number_fill_accepted_when_the_category_is_odd():
    r = decide(
        entry("a"),
        entry("b", state="KA"),
        entry("c", state="RJ"),
        entry("fill", state="HR", entry_type="odd_fill"),
    )
    assert status(r, "fill") == "accepted"
    cat = r.by_category_state.filter(pl.col("section") == "open")["accepted"].sum()
    assert cat == 4


def test_odd_number_fill_rejected_when_the_category_is_even():
    r = decide(entry("a"), entry("b", state="KA"), entry("fill", state="HR", entry_type="odd_fill"))
    assert status(r, "fill") == "rejected"
    assert (
        reasons(r, "fill") == "category has an even number (2) of other entries; no odd-number fill"
    )


def test_odd_number_fill_counts_only_accepted_entries_of_its_category():
    r = decide(
        entry("a"),
        entry("b", state="KA"),
        entry("too_old", state="RJ", birth_date=date(2004, 1, 1)),
        entry("g", section="girls", gender="F"),
        entry("fill", state="HR", entry_type="odd_fill"),
    )
    assert status(r, "fill") == "rejected"  # open has 2 accepted; the girls entry is elsewhere


def test_odd_number_fill_at_most_one_per_category():
    r = decide(
        entry("a"),
        entry("f1", state="HR", entry_type="odd_fill", registered_at=datetime(2024, 9, 15)),
        entry("f2", state="HR", entry_type="odd_fill", registered_at=datetime(2024, 9, 16)),
    )
    assert statuses(r) == {"a": "accepted", "f1": "accepted", "f2": "rejected"}


def test_odd_number_fill_only_by_the_host():
    r = decide(entry("a"), entry("fill", state="TN", entry_type="odd_fill"))
    assert reasons(r, "fill") == "odd_fill entries are the host's (HR), not 'TN'"


def test_odd_number_fill_is_exempt_from_closing_time_and_late_fee():
    # Decision: the host adds it at the start of the championship, after entries close.
    r = decide(
        entry("a"),
        entry("fill", state="HR", entry_type="odd_fill", registered_at=datetime(2024, 9, 16, 9, 0)),
    )
    assert status(r, "fill") == "accepted"
    assert money(r, "fill", "late_fee") == 0
    assert money(r, "fill", "fee_due") == Decimal(2000)


# --- Fees and boarding -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "etype, extra, fee, boarding",
    [
        ("quota", {}, "2000", "1500"),
        ("seeded", {"seed_reason": "nu15_2023_champion_open"}, "2000", "1500"),  # Decision: seeded pay
        ("special", {}, "7500", "0"),
        ("host", {"state": "HR"}, "2000", "1500"),
        ("medal_bonus", {"state": "TG"}, "2000", "1500"),
        ("secretary", {}, "2000", "0"),  # Decision: not selected by an association
        ("no_association", {"state": ""}, "2000", "0"),
    ],
)
def test_entry_fee_and_boarding_lump_sum_by_entry_type(etype, extra, fee, boarding):
    r = decide(entry("p", entry_type=etype, **extra))
    assert status(r, "p") == "accepted", reasons(r, "p")
    assert money(r, "p", "fee_due") == Decimal(fee)
    assert money(r, "p", "boarding") == Decimal(boarding)


def test_boarding_lump_sum_kept_with_a_late_fee_and_not_paid_to_rejected_entries():
    r = decide(
        entry("late", registered_at=datetime(2024, 9, 5), fee_paid=2250.0),
        entry("foreign", nationality="USA"),
    )
    assert money(r, "late", "boarding") == Decimal(1500)
    assert money(r, "foreign", "boarding") == 0


def test_entry_fee_underpaid_is_a_warning_not_a_rejection():
    r = decide(entry("p", fee_paid=1500.0))
    assert status(r, "p") == "accepted"
    assert money(r, "p", "balance") == Decimal(-500)
    [f] = r.findings
    assert (f.severity, f.column, f.value) == (Severity.WARNING, "fee_paid", "1500.00")


def test_fee_paid_missing_counts_as_nothing_paid():
    r = decide(entry("p", fee_paid=None))
    assert money(r, "p", "balance") == Decimal(-2000)


def test_money_columns_are_decimal_rupees():
    r = decide(entry("p"))
    for col in ("fee_due", "late_fee", "fee_paid", "balance", "boarding"):
        assert r.decisions.schema[col] == pl.Decimal(12, 2)
    for col in ("fees_due", "late_fees", "fees_paid", "balance", "boarding_due"):
        assert r.ledger.schema[col] == pl.Decimal(12, 2)


def test_fee_configuration_is_data():
    rules = JuniorEntryRules(
        ordinary_fee=Decimal(2500), late_fee=Decimal(300), boarding_lump_sum=Decimal(1000)
    )
    r = decide(entry("p", registered_at=datetime(2024, 9, 4)), rules=rules)
    assert (money(r, "p", "fee_due"), money(r, "p", "late_fee"), money(r, "p", "boarding")) == (
        Decimal(2500),
        Decimal(300),
        Decimal(1000),
    )


# --- Outputs ---------------------------------------------------------------------------------


def test_all_reasons_are_listed_and_each_is_a_finding():
    r = decide(
        entry("ok"),
        entry("bad", birth_date=date(2004, 1, 1), nationality="USA", aicf_registered=False),
    )
    assert reasons(r, "bad") == (
        "born 2004-01-01, before the age limit 2005-01-01; "
        "nationality 'USA' is not IND; "
        "not registered with AICF for 2024-2025"
    )
    assert [(f.line, f.column, f.value) for f in r.findings] == [
        (3, "birth_date", "2004-01-01"),
        (3, "nationality", "USA"),
        (3, "aicf_registered", "false"),
    ]
    assert all(f.severity is Severity.ERROR and f.file == "players.csv" for f in r.findings)
    assert reasons(r, "ok") == ""


def test_seed_reason_on_a_non_seeded_entry_is_a_warning():
    r = decide(entry("p", seed_reason="nj2023_top4_open"))
    assert status(r, "p") == "accepted"
    [f] = r.findings
    assert (f.severity, f.column) == (Severity.WARNING, "seed_reason")


def test_decisions_keep_file_order_and_columns():
    r = decide(
        entry("z", registered_at=datetime(2024, 8, 30)),
        entry("a", registered_at=datetime(2024, 8, 1)),
    )
    assert r.decisions.columns == [
        "line",
        "player_id",
        "name",
        "section",
        "state",
        "entry_type",
        "status",
        "reasons",
        "fee_due",
        "late_fee",
        "fee_paid",
        "balance",
        "boarding",
    ]
    assert r.decisions["player_id"].to_list() == ["z", "a"]
    assert r.decisions["line"].to_list() == [2, 3]


def test_by_category_state_counts_accepted_entries_by_type():
    r = decide(
        entry("q1"),
        entry("q2"),
        entry("s", entry_type="special", fee_paid=7500.0),
        entry("x", nationality="USA"),
        entry("g", section="girls", gender="F", state="UP", entry_type="medal_bonus"),
        entry("h", state="HR", entry_type="host"),
    )
    got = r.by_category_state.select(
        "section", "state", "accepted", "quota", "special", "host", "medal_bonus"
    )
    expected = pl.DataFrame(
        {
            "section": ["open", "open", "girls"],
            "state": ["HR", "TN", "UP"],
            "accepted": [1, 3, 1],
            "quota": [0, 2, 0],
            "special": [0, 1, 0],
            "host": [1, 0, 0],
            "medal_bonus": [0, 0, 1],
        },
        schema_overrides={
            c: pl.Int64 for c in ("accepted", "quota", "special", "host", "medal_bonus")
        },
    )
    assert_frame_equal(got, expected)
    assert r.by_category_state.columns[3:] == [t.value for t in EntryType]


def test_ledger_per_association():
    r = decide(
        entry("q1", fee_paid=2000.0),
        entry("q2", registered_at=datetime(2024, 9, 4), fee_paid=2000.0),  # owes the late fee
        entry("sp", entry_type="special", fee_paid=7500.0),
        entry("x", nationality="USA", fee_paid=2000.0),  # rejected: refund
        entry("na", state="", entry_type="no_association", fee_paid=2000.0),
        assoc=associations({"KA": False}),
    )
    tn = r.ledger.filter(pl.col("state") == "TN").row(0, named=True)
    assert tn == {
        "state": "TN",
        "name": "Tamil Nadu",
        "entries": 4,
        "accepted": 3,
        "fees_due": Decimal(11500),
        "late_fees": Decimal(250),
        "fees_paid": Decimal(13500),
        "balance": Decimal(1750),
        "boarding_due": Decimal(3000),
    }
    none = r.ledger.filter(pl.col("state") == "").row(0, named=True)
    assert (none["name"], none["entries"], none["boarding_due"]) == (None, 1, Decimal(0))
    ka = r.ledger.filter(pl.col("state") == "KA").row(0, named=True)
    assert (ka["entries"], ka["fees_due"]) == (0, Decimal(0))
    assert r.ledger["state"].to_list() == sorted(r.ledger["state"].to_list())


def test_line_defaults_to_row_position_when_absent():
    frame = players(entry("a"), entry("b", nationality="USA")).drop("line")
    r = evaluate_entries(frame, associations(), RULES)
    assert [f.line for f in r.findings] == [3]


# --- Configuration ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "table, key",
    [
        ({"quota_per_category": -1}, "entries.quota_per_category"),
        ({"ordinary_fee": "two thousand"}, "entries.ordinary_fee"),
        ({"late_fee": -250}, "entries.late_fee"),
        ({"medal_bonus": {"u17": {"TN": 1}}}, "entries.medal_bonus.u17"),
        ({"female_only_categories": ["women"]}, "entries.female_only_categories"),
        ({"boarding_types": ["vip"]}, "entries.boarding_types"),
        ({"seed_routes": {"nj2023_top4": ["open", "u17"]}}, "entries.seed_routes.nj2023_top4"),
        ({"seed_titles": {"title_fm": ["FM"]}}, "entries.seed_titles.title_fm"),
        ({"girls_seed_routes": ["nj2023_top4"]}, "entries.girls_seed_routes"),
    ],
)
def test_rules_config_errors_name_the_file_and_the_full_key(table, key):
    with pytest.raises(ConfigError) as err:
        from_table(JuniorEntryRules, table, file="nj/event.toml", key="entries")
    assert (err.value.file, err.value.key) == ("nj/event.toml", key)


def test_rules_defaults_are_the_2024_seed():
    assert RULES.born_on_or_after == date(2005, 1, 1)
    assert RULES.closing == datetime(2024, 9, 9, 17, 0)
    assert RULES.fee_valid_until == date(2024, 9, 2)
    assert dict(RULES.medal_bonus["open"]) == {"TG": 3, "TN": 2, "RJ": 1}
    assert dict(RULES.medal_bonus["girls"]) == {"UP": 3, "MH": 2, "WB": 1}
    assert (RULES.ordinary_fee, RULES.special_fee, RULES.late_fee, RULES.boarding_lump_sum) == (
        Decimal(2000),
        Decimal(7500),
        Decimal(250),
        Decimal(1500),
    )


# --- Draw agreement --------------------------------------------------------------------------

RESULT_SCHEMA = {
    "round": pl.Int64,
    "board": pl.Int64,
    "white_id": pl.String,
    "black_id": pl.String,
    "result": pl.String,
    "moves": pl.Int64,
    "draw_consent": pl.Boolean,
    "line": pl.Int64,
}


def results(*rows: tuple) -> pl.DataFrame:
    """Rows: (result, moves, draw_consent); line 2 is the first row."""
    return pl.DataFrame(
        [
            {
                "round": 3,
                "board": i + 1,
                "white_id": f"w{i}",
                "black_id": f"b{i}",
                "result": res,
                "moves": mv,
                "draw_consent": ok,
                "line": i + 2,
            }
            for i, (res, mv, ok) in enumerate(rows)
        ],
        schema=RESULT_SCHEMA,
    )


def test_draw_agreement_before_move_30_without_consent_is_flagged():
    found = flag_early_draws(
        results(
            ("1/2-1/2", 29, False),  # flagged
            ("1/2-1/2", 30, False),  # Decision: 30 moves made by both -> allowed
            ("1/2-1/2", 12, True),  # arbiter consented
            ("1/2-1/2", 12, None),  # consent not recorded -> flagged
            ("1/2-1/2", None, None),  # Decision: moves unknown -> not flagged
            ("1-0", 10, None),  # not a draw
            ("½-½", 5, False),  # alternative spelling -> flagged
        )
    )
    assert [(f.line, f.value) for f in found] == [(2, "29"), (5, "12"), (8, "5")]
    f = found[0]
    assert (f.file, f.column, f.severity) == ("results.csv", "moves", Severity.WARNING)
    assert f.reason == (
        "round 3 board 1: w0 - b0 drawn after 29 moves (before move 30) "
        "without the arbiter's consent"
    )


def test_draw_agreement_min_moves_is_a_parameter():
    assert [f.line for f in flag_early_draws(results(("1/2-1/2", 35, False)), min_moves=40)] == [2]


def test_draw_agreement_without_moves_or_consent_columns():
    frame = results(("1/2-1/2", 10, None))
    assert flag_early_draws(frame.drop("moves")) == []
    assert [f.line for f in flag_early_draws(frame.drop("draw_consent"))] == [2]


def test_rules_loaded_from_plain_toml_values_are_exact_and_frozen():
    load = lambda table: from_table(JuniorEntryRules, table, file="event.toml", key="entries")  # noqa: E731
    assert load({"ordinary_fee": 2000, "late_fee": 250.5}).late_fee == Decimal("250.5")
    assert load({"ordinary_fee": 2000}).ordinary_fee == Decimal(2000)
    table = {"open": {"TN": 1}}
    rules = load({"medal_bonus": table, "boarding_types": ["quota"], "categories": ["open", "girls"]})
    table["open"]["TN"] = 9
    assert dict(rules.medal_bonus["open"]) == {"TN": 1}
    assert rules.boarding_types == frozenset({"quota"})
    assert rules.categories == ("open", "girls")
    r = decide(
        entry("m1", entry_type="medal_bonus"),
        entry("m2", entry_type="medal_bonus"),
        entry("s", entry_type="seeded", seed_reason="nj2023_top4_open"),
        rules=rules,
    )
    assert statuses(r) == {"m1": "accepted", "m2": "rejected", "s": "accepted"}
    assert money(r, "s", "boarding") == 0


def test_empty_entry_file_gives_empty_decisions_and_a_zero_ledger():
    r = evaluate_entries(players(), associations(), RULES)
    assert r.decisions.height == 0 and r.by_category_state.height == 0 and r.findings == ()
    assert r.ledger["entries"].sum() == 0 and r.ledger.height == 8


def test_shared_fide_id_is_a_warning_on_each_entry():
    r = decide(
        entry("a", fide_id="25012345"),
        entry("b", fide_id="25012345", section="girls", gender="F"),
        entry("c", fide_id=""),
        entry("d", fide_id=""),
    )
    assert set(statuses(r).values()) == {"accepted"}
    assert [(f.line, f.column, f.value, f.severity) for f in r.findings] == [
        (2, "fide_id", "25012345", Severity.WARNING),
        (3, "fide_id", "25012345", Severity.WARNING),
    ]
    assert r.findings[0].reason == "the same FIDE id is on lines 2, 3; a player has one entry"


def test_entry_list_by_category_and_state_holds_accepted_players_only():
    r = decide(
        entry("t2", name="Zed", state="TN"),
        entry("t1", name="Abe", state="TN"),
        entry("g", name="Gia", section="girls", gender="F", state="KA"),
        entry("h", name="Hal", state="HR", entry_type="host", rating=None),
        entry("x", name="Out", nationality="USA"),
    )
    got = r.entry_list.select("section", "state", "player_id", "rating")
    expected = pl.DataFrame(
        {
            "section": ["open", "open", "open", "girls"],
            "state": ["HR", "TN", "TN", "KA"],
            "player_id": ["h", "t1", "t2", "g"],
            "rating": [None, 1800, 1800, 1800],
        },
        schema_overrides={"rating": pl.Int64},
    )
    assert_frame_equal(got, expected)


def test_secretary_and_medal_seat_reasons_name_the_category_and_state():
    r = decide(
        entry("s1", entry_type="secretary", registered_at=datetime(2024, 8, 1)),
        entry("s2", entry_type="secretary", registered_at=datetime(2024, 8, 2)),
        entry("r1", state="RJ", entry_type="medal_bonus", registered_at=datetime(2024, 8, 1)),
        entry("r2", state="RJ", entry_type="medal_bonus", registered_at=datetime(2024, 8, 2)),
    )
    assert reasons(r, "s2") == (
        "no seat left: AICF Secretary's seat in open (1 allowed); "
        "this is entry no. 2 by registered_at, then player_id"
    )
    assert reasons(r, "r2").startswith(
        "no seat left: medal-state additional entries of 'RJ' in open (1 allowed)"
    )


def test_missing_required_column_is_an_input_error_naming_it():
    from transforms.core.errors import InputError

    with pytest.raises(InputError) as err:
        evaluate_entries(players(entry("a")).drop("birth_date"), associations(), RULES)
    assert (err.value.file, err.value.column) == ("players.csv", "birth_date")


def test_the_committed_demo_players_are_what_the_demo_generator_writes():
    from pathlib import Path

    from flows.devtools.demo.national_junior import demo_national_junior_files

    committed = Path(__file__).resolve().parents[2] / "inputs/national-junior-2024/players.csv"
    frame = demo_national_junior_files()[0]
    assert committed.read_text(encoding="utf-8") == frame.write_csv()
    seeded = frame.filter(pl.col("entry_type") == "seeded")
    assert set(seeded["seed_reason"]) <= set(RULES.seed_routes)
    assert set(seeded["section"]) == {"open", "girls"}

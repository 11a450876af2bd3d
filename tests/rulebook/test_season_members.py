"""The season's member registry (transforms/season/members.py): probable duplicates, and an
event's players against the registry, each decision of the module pinned."""

from __future__ import annotations

import datetime as dt

import polars as pl

from transforms.season.members import (
    members_frame,
    name_words,
    players_against_members,
    probable_duplicates,
)

D = dt.date


def member(line: int, mid: str, name: str, fide: str = "", birth: dt.date | None = None,
           sex: str = "M", valid: tuple[dt.date | None, dt.date | None] = (None, None)) -> dict:
    return {"line": line, "member_id": mid, "name": name, "fide_id": fide or None,
            "birth_date": birth, "sex": sex, "club": None, "region": None,
            "valid_from": valid[0], "valid_to": valid[1], "email": None}


REGISTRY = members_frame([
    member(2, "M1", "Sharma, Aarav", "46600001", D(2008, 5, 1)),
    member(3, "M2", "Iyer, Meera", "", D(2009, 2, 3), "F", (D(2024, 1, 1), D(2024, 12, 31))),
    member(4, "M3", "Rao, Kiran", "", D(2010, 7, 7)),
    member(5, "M4", "Rao, Kiran", "", D(2010, 7, 7)),
])


def players(*rows: dict) -> pl.DataFrame:
    base = {"line": None, "player_id": None, "member_id": None, "name": None, "fide_id": None,
            "birth_date": None, "sex": None}
    return pl.DataFrame([base | r for r in rows], schema={
        "line": pl.Int64, "player_id": pl.String, "member_id": pl.String, "name": pl.String,
        "fide_id": pl.String, "birth_date": pl.Date, "sex": pl.String})


MARCH = D(2025, 3, 1)


def check(*rows: dict, on: dt.date = MARCH) -> list[tuple]:
    return [(f.line, f.column, f.value, f.reason) for f in
            players_against_members(players(*rows), REGISTRY, file="open/players.csv", on=on)]


def test_names_are_the_same_in_any_order_case_or_punctuation():
    assert name_words("Aarav Sharma") == name_words("SHARMA, aarav") == ("aarav", "sharma")


def test_a_player_found_by_fide_id_under_another_spelling_is_the_member():
    assert check({"line": 2, "player_id": "P1", "name": "Aarav Sharma", "fide_id": "46600001"}) == []


def test_a_name_birth_date_or_sex_that_differs_is_a_row_naming_the_member():
    got = check({"line": 2, "player_id": "P1", "name": "Sharma, Arav", "fide_id": "46600001",
                 "birth_date": D(2008, 5, 2), "sex": "F"})
    assert [(c, r) for _, c, _, r in got] == [
        ("name", "the member M1 is 'Sharma, Aarav'"),
        ("birth_date", "the member M1's birth date is 2008-05-01"),
        ("sex", "the member M1's sex is M")]


def test_a_member_id_names_the_member_and_one_that_is_none_is_a_row():
    """An event's entry may name the member by member id: a renamed member is found by it (and
    the name the event gives is a row naming the registry's), so is one of two namesakes."""
    (row,) = check({"line": 2, "player_id": "P1", "member_id": "M2", "name": "Patel, Meera",
                    "birth_date": D(2009, 2, 3)}, on=D(2024, 6, 1))
    assert row[1:] == ("name", "Patel, Meera", "the member M2 is 'Iyer, Meera'")
    assert check({"line": 3, "player_id": "P3", "member_id": "M4", "name": "Kiran Rao",
                  "birth_date": D(2010, 7, 7)}) == []
    (row,) = check({"line": 4, "player_id": "P4", "member_id": "M9", "name": "Kiran Rao"})
    assert row == (4, "member_id", "M9", "no member has this member id (members.csv)")
    (row,) = check({"line": 5, "player_id": "P5", "member_id": "M1", "name": "Sharma, Aarav",
                    "fide_id": "46600002", "birth_date": D(2008, 5, 1)})
    assert row == (5, "fide_id", "46600002", "the member M1's FIDE id is 46600001")


def test_without_a_fide_id_the_member_of_the_same_name_and_birth_date():
    assert check({"line": 2, "player_id": "P2", "name": "Meera Iyer", "birth_date": D(2009, 2, 3)},
                 on=D(2024, 6, 1)) == []
    (row,) = check({"line": 2, "player_id": "P2", "name": "Meera Iyer", "birth_date": D(2009, 2, 4)})
    assert row[1:] == ("name", "Meera Iyer", "no FIDE id, and no member with this name and birth date "
                       "(members.csv)")
    (row,) = check({"line": 3, "player_id": "P3", "name": "Kiran Rao", "birth_date": D(2010, 7, 7)})
    assert "two members have this name and birth date (M3, M4)" in row[3]


def test_without_a_birth_date_the_one_member_of_the_same_name_as_a_series_finds_them():
    """season-check and an event's run find a player who gives neither FIDE id nor birth date
    as a series does: the one member of the name's words (two: none, a row)."""
    assert check({"line": 2, "player_id": "P2", "name": "Meera Iyer"}, on=D(2024, 6, 1)) == []
    (row,) = check({"line": 3, "player_id": "P3", "name": "Kiran Rao"})
    assert "two members have this name (M3, M4)" in row[3]
    (row,) = check({"line": 4, "player_id": "P4", "name": "Nobody, Known"})
    assert row[3] == "no FIDE id, and no member with this name (members.csv)"


def test_a_player_who_is_no_member_and_a_lapsed_membership():
    (row,) = check({"line": 4, "player_id": "P9", "name": "Nobody", "fide_id": "5000001"})
    assert row == (4, "fide_id", "5000001", "no member has this FIDE id (members.csv)")
    (row,) = check({"line": 5, "player_id": "P2", "name": "Iyer, Meera",
                    "birth_date": D(2009, 2, 3)}, on=D(2025, 3, 1))
    assert row[1:3] == ("player_id", "P2") and "not valid on 2025-03-01" in row[3] \
        and "to 2024-12-31" in row[3]


def test_probable_duplicates_same_birth_date_near_same_name():
    rows = probable_duplicates(REGISTRY)
    assert [(f.line, f.value) for f in rows] == [(5, "Rao, Kiran")]
    near = members_frame([member(2, "A", "Sharma, Aarav", birth=D(2008, 5, 1)),
                          member(3, "B", "Sharma, Arav", birth=D(2008, 5, 1)),
                          member(4, "C", "Sharma, Aarav Kumar", birth=D(2008, 5, 1)),
                          member(5, "D", "Sharma, Aarav", birth=D(2008, 5, 2)),
                          member(6, "E", "Shah, Aarav", birth=D(2008, 5, 1))])
    assert [f.line for f in probable_duplicates(near)] == [3, 4]  # not D (another day), not E

"""FIDE's rating lists read (transforms/fide/rating_list.py) on real excerpts of the published
files (tests/data/rating_lists/SOURCE.md), every layout, and the list in force on a date."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from transforms.core.errors import InputError
from transforms.fide.rating_list import (
    header_columns,
    in_force,
    read_fide_txt,
    read_fide_xml,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "rating_lists"


def player(frame: pl.DataFrame, fide_id: str) -> dict:
    return frame.filter(pl.col("fide_id") == fide_id).row(0, named=True)


def test_the_combined_list_with_foa():
    got = read_fide_txt((DATA / "players_list_foa.txt").read_bytes())
    assert got.period is None and not got.findings and got.players.height == 8
    leko = player(got.players, "703303")
    assert (leko["name"], leko["federation"], leko["sex"], leko["title"]) == ("Leko, Peter", "HUN", "M", "GM")
    assert (leko["standard"], leko["rapid"], leko["blitz"], leko["birth_year"]) == (2676, 2700, 2738, 1979)
    assert (leko["standard_k"], leko["standard_games"], leko["inactive"]) == (10, 0, False)
    ojok = player(got.players, "10001492")
    assert ojok["o_title"] == "FI,LSI" and ojok["title"] is None and ojok["birth_year"] == 1974
    # unrated in every rate: empty, not 0; a woman inactive
    aafrin = player(got.players, "29976634")
    assert (aafrin["standard"], aafrin["rapid"], aafrin["blitz"], aafrin["flag"]) == (None, None, None, "w")
    la = player(got.players, "8605360")
    assert (la["standard"], la["rapid"], la["flag"], la["inactive"]) == (1949, None, "wi", True)


def test_a_single_list_names_its_month_and_its_rate_is_the_callers():
    got = read_fide_txt((DATA / "standard_jan23frl.txt").read_bytes())
    assert got.period == dt.date(2023, 1, 1)
    ali = player(got.players, "4804929")
    assert (ali["standard"], ali["standard_games"], ali["standard_k"]) == (1876, 13, 20)
    assert (ali["title"], ali["w_title"], ali["sex"], ali["flag"]) == ("WFM", "WFM", "F", "w")
    assert player(got.players, "25121731")["inactive"]
    blitz = read_fide_txt((DATA / "blitz_aug26frl.txt").read_bytes(), rate="blitz")
    assert blitz.period == dt.date(2026, 8, 1)
    polgar = player(blitz.players, "700070")
    assert (polgar["blitz"], polgar["standard"], polgar["flag"]) == (2736, None, "wi")
    assert player(blitz.players, "537001345")["birth_year"] == 2018


def test_the_legacy_combined_list():
    got = read_fide_txt((DATA / "players_list_legacy.txt").read_bytes())
    aaberg = player(got.players, "1701991")
    assert (aaberg["title"], aaberg["standard"], aaberg["standard_k"], aaberg["rapid"]) == ("IM", 2393, 10, None)
    doshtagir = player(got.players, "10207538")
    assert (doshtagir["standard"], doshtagir["rapid"], doshtagir["blitz"]) == (1840, 1836, 1860)


def test_the_xml_lists():
    got = read_fide_xml((DATA / "standard_xml_excerpt.xml").read_bytes())
    a = player(got.players, "10207538")
    assert (a["name"], a["federation"], a["standard"], a["standard_k"], a["inactive"]) == (
        "A E M, Doshtagir", "BAN", 1864, 30, True)
    b = player(got.players, "419214")
    assert (b["name"], b["standard"], b["rapid"], b["rapid_games"], b["blitz"]) == (None, 1736, 1587, 10, None)
    with pytest.raises(InputError, match="not a FIDE XML rating list"):
        read_fide_xml(b"<playerslist><player><fideid>1</fideid></playerslist>")


def test_other_titles_that_overflow_are_read_again_and_a_bad_number_is_a_finding():
    header = (DATA / "players_list_foa.txt").read_bytes().splitlines()[0].decode()
    cols = {w: s for w, s, _ in header_columns(header)}
    line = list(" " * 162)

    def put(col: str, text: str, shift: int = 0) -> None:
        line[cols[col] + shift:cols[col] + shift + len(text)] = text

    put("ID_Number", "310751"), put("Name", "Cruz Arce, Francisco J."), put("Fed", "PUR")
    put("Sex", "M"), put("OTit", "SI,FI,LSI,SLI,NA")
    for col, value in (("FOA", "AFM"), ("SRtng", "1946"), ("SGm", "0"), ("SK", "20"),
                       ("B-day", "1957")):
        put(col, value, shift=1)  # the 16 letters of OTit push the rest one place
    text = header + "\r\n" + "".join(line) + "\r\n" + "abc" + " " * 110 + "19x6\r\n"
    got = read_fide_txt(text.encode())
    cruz = player(got.players, "310751")
    assert (cruz["o_title"], cruz["foa_title"], cruz["standard"], cruz["birth_year"]) == (
        "SI,FI,LSI,SLI,NA", "AFM", 1946, 1957)
    assert [(f.line, f.column, f.value) for f in got.findings] == [(3, "standard", "19x6")]
    assert got.players.height == 2  # the bad line is kept, its cell empty


def test_a_line_that_is_not_utf8_is_read_as_cp1252_with_a_warning():
    data = (DATA / "standard_jan23frl.txt").read_bytes().replace(b"A K, Kalshyan", b"A K, Kal\xe7hyan")
    got = read_fide_txt(data)
    assert player(got.players, "5045886")["name"] == "A K, Kalçhyan"
    assert [(f.line, f.reason) for f in got.findings] == [(3, "not UTF-8: read as cp1252")]


def test_a_file_that_is_no_list_says_so():
    with pytest.raises(InputError, match="not the header of a FIDE rating list"):
        read_fide_txt(b"sno,name,rating\r\n1,A,2000\r\n")
    with pytest.raises(InputError, match="empty"):
        read_fide_txt(b"")


def test_the_list_in_force_is_the_latest_on_or_before_the_date():
    months = [dt.date(2026, m, 1) for m in (1, 2, 3)]
    assert in_force(months, dt.date(2026, 2, 28)) == dt.date(2026, 2, 1)
    assert in_force(months, dt.date(2026, 3, 1)) == dt.date(2026, 3, 1)
    assert in_force(months, dt.date(2025, 12, 31)) is None


def test_the_national_list_fills_only_empty_national_ratings_and_says_so():
    """take_from_national_list: by member id, an empty national rating taken, a different one
    kept with a warning row on its line, an equal one silent, a player without member id or
    not on the list untouched; the list's unrated entry (no rating) fills nothing."""
    from transforms.core.errors import Severity
    from transforms.fide.rating_list import national_name, take_from_national_list

    players = pl.DataFrame({"line": [2, 3, 4, 5, 6], "member_id": ["A", "B", "C", None, "E"],
                            "national_rating": [None, 1500, 1600, None, None],
                            "list_note": ["rating from FIDE", None, None, None, None]},
                           schema={"line": pl.Int64, "member_id": pl.String,
                                   "national_rating": pl.Int64, "list_note": pl.String})
    listed = pl.DataFrame({"member_id": ["A", "B", "C", "E"], "rating": [1700, 1550, 1600, None],
                           "list": ["NL May 2026"] * 4},
                          schema={"member_id": pl.String, "rating": pl.Int64, "list": pl.String})
    out, found = take_from_national_list(players, listed)
    assert out["national_rating"].to_list() == [1700, 1500, 1600, None, None]
    assert [(f.line, f.column, f.value, f.severity) for f in found] == [
        (3, "national_rating", "1500", Severity.WARNING)]
    assert out["list_note"].to_list() == [
        "rating from FIDE; national rating from NL May 2026",
        "national rating 1500 as entered (NL May 2026: 1550)", None, None, None]
    assert take_from_national_list(players, None)[0].equals(players)
    assert national_name("national_may26.csv") == (national_name("national_standard_may26.csv"))
    assert national_name("national_rapid_jan26.csv")[0].value == "rapid"
    assert national_name("standard_jan26frl.zip") is None and national_name("national.csv") is None

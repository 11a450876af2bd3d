"""TRF-2026 in and out, TRF16 alongside, and the format each written file declares
(transforms/fide/trf.py).

SOURCE: the files in tests/data/trf2026 were written by hand from the TRF-2026 specification
(FIDE Council 12/05/2025, applied from 01/09/2025); see tests/data/trf2026/SOURCE.md."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import polars as pl
import pytest

from transforms.core.errors import InputError
from transforms.core.model import Colour, DutchEdition, Kind
from transforms.fide.trf import (
    AbnormalPoints,
    ByeRequest,
    ForbiddenPairs,
    PointSystem,
    TrfFormat,
    TrfHeader,
    parse_trf,
    tournament_from_scorecard,
    write_trf,
)

DATA = Path(__file__).parents[1] / "data"
SPEC = DATA / "trf2026"
SWISS = SPEC / "swiss_r3.trf"
REFERENCE = sorted((DATA / "dutch").glob("20*/T*/r*.trf"))


def lines(text: str) -> list[str]:
    return [ln.rstrip() for ln in text.splitlines()]


def player(sno: int, name: str, rating: int, pts: str, rank: int, *entries: str) -> str:
    """A 001 record laid out by its columns (5-8 sno, 15-47 name, 49-52 rating, 81-84
    points, 86-89 rank, then 10 columns per round from 92)."""
    head = f"001 {sno:4d}      {name:<33} {rating:4d} {'':3} {'':>11} {'':10} {pts:>4} {rank:4d}"
    return (head + "".join(f"  {e}" for e in entries)).rstrip()


def test_trf2026_reads_every_tournament_record():
    t = parse_trf(SWISS.read_text())
    assert t.name == "Spec Open 2026"
    assert t.header == TrfHeader(
        city="Karnal", federation="IND", start="2026/03/02", end="2026/03/05",
        players_count="7", rated_count="6", type="Individual: Swiss-System (FIDE Dutch System)",
        chief_arbiter="IA Arbiter, Chief 25000001",
        deputy_arbiters=("FA Deputy, First 25000002", "NA Deputy, Second"),
        time_control="90 min + 30 sec per move from move 1",
        round_dates=("26/03/02", "26/03/03", "26/03/03"), starting_rank="IND FIDON",
        pairing_controller="chessfed", tiebreaks=("BH/C1", "BH", "SB", "DE", "WIN", "BWG"),
        standings=("PTS", "BH/C1", "BH", "SB", "DE", "WIN", "BWG"), time_control_code="5400+30")
    assert (t.total_rounds, t.initial_colour, t.edition) == (5, Colour.WHITE,
                                                              DutchEdition.RULES_2025)
    assert t.format is TrfFormat.TRF_2026


def test_trf2026_reads_240_260_299_and_keeps_250_nrs_and_comments_verbatim():
    t = parse_trf(SWISS.read_text())
    assert t.bye_requests == (ByeRequest("H", 4, (3,)),)
    assert t.forbidden_pairs == (ForbiddenPairs((2, 7), 4, 5),)
    assert t.forbidden_for_round(4) == {frozenset({2, 7})} and not t.forbidden_for_round(3)
    assert t.abnormal_points == (AbnormalPoints(kind="", points=-0.5, round=2, players=(6,)),)
    # 250 (acceleration) is read by the acceleration module from other_records, verbatim
    assert "250      01.0 001 002 0001 0003" in t.other_records
    assert any(r.startswith("IND    6 m    Zeta, Zubin") for r in t.other_records)
    assert sum(r.startswith("###") for r in t.other_records) == 4


def test_trf2026_162_point_system_gives_the_rows_their_points():
    # swiss_r3: 162 P 0.5, so the PAB scores half a point (players 5 and 7)
    t = parse_trf(SWISS.read_text())
    assert t.scoring == PointSystem(pab=0.5)
    pabs = t.scorecard.filter(pl.col("kind") == Kind.PAB)
    assert sorted(pabs["sno"]) == [5, 7] and set(pabs["points"]) == {0.5}
    # scoring_3_1_0: 3 for a win, 1 for a draw
    #      r1    r2    r3    pts
    #  1   3w1   2b=   4w1   7
    #  2   4b1   1w=   3b=   5
    t3 = parse_trf((SPEC / "scoring_3_1_0.trf").read_text())
    assert (t3.scoring.win_white, t3.scoring.draw_black, t3.scoring.pab) == (3.0, 1.0, 3.0)
    sums = dict(t3.scorecard.group_by("sno").agg(pl.col("points").sum()).iter_rows())
    assert sums == {1: 7.0, 2: 5.0, 3: 4.0, 4: 0.0}


def test_trf2026_132_round_dates_sit_in_the_round_columns():
    line = next(ln for ln in SWISS.read_text().splitlines() if ln.startswith("132"))
    assert line[91:99] == "26/03/02" and line[101:109] == "26/03/03"


@pytest.mark.parametrize("name", ["swiss_r3.trf", "scoring_3_1_0.trf", "team_records.trf"])
def test_trf2026_file_round_trips_line_for_line(name):
    text = (SPEC / name).read_text()
    t = parse_trf(text, source=name)
    assert lines(write_trf(t)) == lines(text)
    assert parse_trf(write_trf(t)) == t


@pytest.mark.parametrize("name", ["swiss_r3.trf", "scoring_3_1_0.trf", "team_records.trf"])
def test_trf2026_file_written_as_trf16_and_back_loses_nothing(name):
    t = parse_trf((SPEC / name).read_text())
    as16 = write_trf(t, format=TrfFormat.TRF16)
    t16 = parse_trf(as16)
    assert t16 == t and t16.format is TrfFormat.TRF16
    assert parse_trf(write_trf(t16, format=TrfFormat.TRF_2026)) == t


def test_trf16_spells_rounds_colour_and_scoring_the_javafo_way():
    as16 = lines(write_trf(parse_trf(SWISS.read_text()), format=TrfFormat.TRF16))
    assert as16[0].startswith("### TRF16")
    assert "XXR 5" in as16 and "XXC white1" in as16 and "XXS PAB=0.5" in as16
    assert not any(ln[:3] in ("142", "152", "162") for ln in as16)


def test_trf16_reference_file_written_as_trf2026_uses_142_152_192():
    f = next(f for f in REFERENCE if f.parts[-3] == "2017")
    t = parse_trf(f.read_text())
    assert t.format is TrfFormat.TRF16
    out = lines(write_trf(t, format=TrfFormat.TRF_2026))
    assert out[0].startswith("### TRF-2026")
    assert "192 FIDE_DUTCH_2017" in out and f"142 {t.total_rounds}" in out
    assert "152 B" in out or "152 W" in out
    assert not any(ln[:3] in ("XXR", "XXC") for ln in out)
    assert parse_trf("\n".join(out)) == t


def test_trf_reference_files_are_trf16_and_come_back_without_a_format_line():
    for f in REFERENCE[::25]:
        t = parse_trf(f.read_text())
        assert t.format is TrfFormat.TRF16
        assert not write_trf(t).startswith("###")


@pytest.mark.parametrize("fmt", list(TrfFormat))
def test_trf_written_from_the_scorecard_says_its_format_on_the_first_line(fmt):
    players = pl.DataFrame({"sno": [1, 2], "name": ["A, a", "B, b"], "rating": [2000, 1900]})
    card = pl.DataFrame({"round": [1, 1], "sno": [1, 2], "opponent": [2, 1],
                         "colour": ["w", "b"], "points": [1.0, 0.0],
                         "kind": ["played", "played"]})
    t = tournament_from_scorecard(players, card, name="Two", total_rounds=3,
                                  initial_colour=Colour.BLACK, edition="2025", format=fmt)
    text = write_trf(t)
    assert text.splitlines()[0] == fmt.marker
    back = parse_trf(text)
    assert back == t and back.format is fmt
    if fmt is TrfFormat.TRF_2026:
        assert {"142 3", "152 B", "192 FIDE_DUTCH_2025"} <= set(lines(text))
    else:
        assert {"XXR 3", "XXC black1", "092 FIDE_DUTCH_2025"} <= set(lines(text))


def test_trf_format_line_decides_the_format_over_the_records():
    text = TrfFormat.TRF16.marker + "\n" + (SPEC / "scoring_3_1_0.trf").read_text()
    assert parse_trf(text).format is TrfFormat.TRF16


def test_trf_kept_spelling_that_is_no_format_line_is_written_as_the_format_line():
    # a caller's Tournament whose kept spelling of the ### line is not a format line (the
    # reader keeps only real ones): written with the canonical line, not an AttributeError
    text = TrfFormat.TRF16.marker + "\n" + (SPEC / "scoring_3_1_0.trf").read_text()
    t = parse_trf(text)
    odd = replace(t, header_spelling={**t.header_spelling, "marker": "### not a format line"})
    assert write_trf(odd).splitlines()[0] == TrfFormat.TRF16.marker
    assert write_trf(t).splitlines()[0] == TrfFormat.TRF16.marker


def test_trf_dutch_edition_from_092_and_192_stays():
    base = "012 T\n" + player(1, "A, a", 2000, "0.0", 1) + "\n"
    assert parse_trf("092 FIDE_DUTCH_2017\n" + base).edition is DutchEdition.RULES_2017
    assert parse_trf("192 FIDE_DUTCH_2025\n" + base).edition is DutchEdition.RULES_2025
    baku = parse_trf("192 FIDE_DUTCH_BAKU\n" + base)
    # the Baku variant is an edition 2025 tournament; the code is kept for the acceleration
    assert baku.edition is DutchEdition.RULES_2025
    assert baku.header.encoded_type == "FIDE_DUTCH_BAKU"
    assert parse_trf("092 Swiss\n" + base).edition is None


def test_trf_xxs_and_bbp_point_systems():
    base = (player(1, "A, a", 2000, "3.0", 1, "   2 w 1") + "\n"
            + player(2, "B, b", 1900, "0.0", 2, "   1 b 0") + "\n")
    t = parse_trf("XXS W=3 D=1\n" + base)
    assert t.scoring.win_white == 3.0 and t.scoring.pab == 1.0  # JaVaFo: W leaves the PAB
    assert parse_trf("BBW 3.0\nBBD 1.0\n" + base).scoring.pab == 3.0  # bbpPairings: it follows
    assert parse_trf("162  W 3.0    Z 0.0\n" + base).scoring.zpb == 0.0  # bbp's Z for A
    with pytest.raises(InputError) as e:
        parse_trf("162  Q 3.0\n" + base)
    assert e.value.line == 1 and "Q" in e.value.reason


def test_trf_a_point_system_162_cannot_say_is_written_as_xxs():
    s = PointSystem(win_white=1.0, win_black=1.5)  # a colour-dependent win
    assert not s.in_162
    players = pl.DataFrame({"sno": [1, 2], "name": ["A, a", "B, b"]})
    card = pl.DataFrame({"round": [1, 1], "sno": [1, 2], "opponent": [2, 1],
                         "colour": ["b", "w"], "points": [1.5, 0.0],
                         "kind": ["played", "played"]})
    t = tournament_from_scorecard(players, card, name="X", scoring=s, format=TrfFormat.TRF_2026)
    text = write_trf(t)
    assert "XXS BW=1.5" in lines(text)
    assert parse_trf(text) == t


def test_trf_absence_is_written_so_that_a_withdrawn_players_rounds_stay_on_the_line():
    players = pl.DataFrame({"sno": [1, 2, 3], "name": ["A, a", "B, b", "C, c"]})
    card = pl.DataFrame({"round": [1, 1, 1, 2, 2, 2], "sno": [1, 2, 3, 1, 2, 3],
                         "opponent": [2, 1, None, None, None, None],
                         "colour": ["w", "b", None, None, None, None],
                         "points": [1.0, 0.0, 1.0, 1.0, 0.0, 0.0],
                         "kind": ["played", "played", "PAB", "PAB", "ZPB", "absent"]})
    t = tournament_from_scorecard(players, card, name="W")
    player3 = next(ln for ln in lines(write_trf(t)) if ln.startswith("001    3"))
    assert player3.endswith("0000 - U  0000 - -")
    back = parse_trf(write_trf(t))
    assert back == t
    assert back.scorecard.filter((pl.col("sno") == 3) & (pl.col("round") == 2))["kind"].to_list() \
        == [Kind.ABSENT]


def test_trf_299_record_columns():
    t = parse_trf("012 T\n299 +  01.0   0.5  003    4   12\n")
    assert t.abnormal_points == (AbnormalPoints("+", 0.5, 3, (4, 12), 1.0),)
    assert lines(write_trf(t))[-1] == "299 +  01.0   0.5  003    4   12"
    with pytest.raises(InputError):
        parse_trf("299 Q         0.5  003    4\n")


def test_trf_changed_header_value_is_written_in_its_place_the_rest_as_read():
    t = parse_trf(SWISS.read_text())
    moved = replace(t, header=replace(t.header, city="Panipat", deputy_arbiters=()))
    out = lines(write_trf(moved))
    original = lines(SWISS.read_text())
    assert out[out.index("012 Spec Open 2026") + 1] == "022 Panipat"
    assert [ln for ln in original if not ln.startswith(("022", "112"))] == \
        [ln for ln in out if not ln.startswith("022")]

"""TRF16 / TRF-2026 reader and writer (transforms/fide/trf.py).

Reference files: tests/data/dutch (see SOURCE.md there)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from transforms.core.errors import InputError
from transforms.core.model import Colour, Kind
from transforms.fide.trf import (
    ByeRequest,
    ForbiddenPairs,
    parse_trf,
    tournament_from_scorecard,
    write_trf,
)

DATA = Path(__file__).parents[1] / "data" / "dutch"
REFERENCE_FILES = sorted(DATA.glob("20*/T*/r*.trf"))


def _line(sno, sex, title, name, rating, fed, fide, birth, pts, rank, *entries):
    """A 001 record laid out by the TRF16 columns (5-8 sno, 10 sex, 11-13 title, 15-47
    name, 49-52 rating, 54-56 fed, 58-68 id, 70-79 birth, 81-84 points, 86-89 rank, then
    10 columns per round from 92)."""
    head = (f"001 {sno:4d} {sex:1}{title:>3} {name:<33} {rating:>4} {fed:<3} {fide:>11} "
            f"{birth:<10} {pts:>4} {rank:>4}")
    return (head + "".join(f"  {e}" for e in entries)).rstrip()


SMALL = "\n".join([
    "012 Small Open", "092 FIDE_DUTCH_2017", "XXR 3", "XXC black1",
    _line(1, "m", "GM", "Alpha, Anna", "2500", "IND", "12345678", "2001/02/03", "2.0", "1",
          "   2 w 1", "   3 b +"),
    _line(2, "w", "", "Beta, Bob", "2400", "USA", "", "", "0.0", "4",
          "   1 b 0", "0000 - Z"),
    _line(3, "", "", "Gamma, Cy", "2300", "", "", "", "1.5", "2",
          "0000 - U", "   1 w -", "0000 - H"),
    _line(4, "", "", "Delta, Di", "2200", "", "", "", "1.0", "3", "0000 - H", "0000 - F"),
]) + "\n"


def _lines(text: str) -> list[str]:
    return [ln.rstrip() for ln in text.splitlines()]


def test_trf_reads_header_records():
    t = parse_trf(SMALL)
    assert t.name == "Small Open"
    assert t.edition == "2017"
    assert t.total_rounds == 3
    assert t.initial_colour is Colour.BLACK
    assert [p.sno for p in t.players] == [1, 2, 3, 4]


def test_trf_reads_player_fields_by_column():
    p = parse_trf(SMALL).players[0]
    assert (p.sno, p.sex, p.title, p.name, p.rating, p.fed, p.fide_id, p.birth, p.points,
            p.rank) == (1, "m", "GM", "Alpha, Anna", 2500, "IND", "12345678", "2001/02/03",
                        2.0, 1)


def test_trf_round_entries_become_scorecard_rows_with_kinds():
    card = parse_trf(SMALL).scorecard.sort(["sno", "round"])
    got = {(r["sno"], r["round"]): (r["opponent"], r["colour"], r["points"], r["kind"])
           for r in card.iter_rows(named=True)}
    assert got == {
        (1, 1): (2, "w", 1.0, Kind.PLAYED), (1, 2): (3, "b", 1.0, Kind.FORFEIT_WIN),
        (2, 1): (1, "b", 0.0, Kind.PLAYED), (2, 2): (None, None, 0.0, Kind.ZPB),
        (3, 1): (None, None, 1.0, Kind.PAB), (3, 2): (1, "w", 0.0, Kind.FORFEIT_LOSS),
        (3, 3): (None, None, 0.5, Kind.HPB),
        (4, 1): (None, None, 0.5, Kind.HPB), (4, 2): (None, None, 1.0, Kind.FPB),
    }


def test_trf_scorecard_has_one_row_per_round_present_on_the_line():
    card = parse_trf(SMALL).scorecard
    assert card.group_by(["sno", "round"]).len()["len"].max() == 1
    assert card.filter(pl.col("sno") == 3).height == 3  # round 3 bye requested in advance
    assert card.filter(pl.col("sno") == 1).height == 2


def test_trf_write_reproduces_the_text():
    assert _lines(write_trf(parse_trf(SMALL))) == _lines(SMALL)


def test_trf_parse_of_written_text_is_equal():
    t = parse_trf(SMALL)
    assert parse_trf(write_trf(t)) == t


@pytest.mark.parametrize("edition", ["2017", "2025"])
def test_trf_reference_files_round_trip(edition):
    files = [f for f in REFERENCE_FILES if f.parts[-3] == edition]
    assert len(files) > 200
    for f in files:
        text = f.read_text()
        t = parse_trf(text, source=str(f))
        written = write_trf(t)
        assert _lines(written) == _lines(text), f
    # the structured round trip on a sample (the full set is slow to compare frame by frame)
    for f in files[::20]:
        t = parse_trf(f.read_text())
        assert parse_trf(write_trf(t)) == t, f


def test_trf_malformed_line_raises_input_error_quoting_the_line():
    bad = SMALL.replace("2400 USA", "24x0 USA")
    with pytest.raises(InputError) as e:
        parse_trf(bad, source="event.trf")
    err = e.value
    assert (err.file, err.line, err.column) == ("event.trf", 6, "rating")
    assert err.value == bad.splitlines()[5]
    assert "24x0" in str(err)


def test_trf_unknown_result_code_is_an_error():
    bad = SMALL.replace("2 w 1     3 b +", "2 w 1     3 b ?")
    with pytest.raises(InputError) as e:
        parse_trf(bad)
    assert e.value.line == 5 and e.value.column == "round 2"


def test_trf_opponent_must_exist():
    bad = SMALL.replace("     2 w 1", "     9 w 1")
    with pytest.raises(InputError) as e:
        parse_trf(bad)
    assert "9" in e.value.reason


def test_trf_duplicate_start_number_is_an_error():
    bad = SMALL + SMALL.splitlines()[4] + "\n"
    with pytest.raises(InputError) as e:
        parse_trf(bad)
    assert e.value.line == 9


def test_trf_xxp_forbids_every_pair_of_the_listed_players():
    t = parse_trf(SMALL + "XXP 1 2 4\n")
    assert t.forbidden_pairs == (ForbiddenPairs((1, 2, 4)),)
    assert t.forbidden_for_round(3) == {frozenset({1, 2}), frozenset({1, 4}),
                                        frozenset({2, 4})}


def test_trf_2025_records_142_152_192_240_260():
    text = SMALL.replace("092 FIDE_DUTCH_2017\nXXR 3\nXXC black1\n",
                         "142 3\n152 W\n192 FIDE_DUTCH_2025\n"
                         "240 H 003    2    4\n260 002 003    1    4\n")
    t = parse_trf(text)
    assert t.total_rounds == 3
    assert t.initial_colour is Colour.WHITE
    assert t.edition == "2025"
    assert t.bye_requests == (ByeRequest("H", 3, (2, 4)),)
    assert t.requested_byes(3) == {2: "H", 4: "H"}
    assert t.forbidden_for_round(2) == {frozenset({1, 4})}
    assert t.forbidden_for_round(1) == frozenset()
    assert parse_trf(write_trf(t)) == t
    assert sorted(_lines(write_trf(t))) == sorted(_lines(text))


def test_trf_unknown_records_are_kept_verbatim():
    text = SMALL.replace("XXR 3\n", "XXR 3\n022 Chennai\n102 Arbiter, Chief\n")
    assert sorted(_lines(write_trf(parse_trf(text)))) == sorted(_lines(text))


def test_trf_built_from_scorecard_and_players_round_trips():
    players = pl.DataFrame({"sno": [1, 2, 3], "name": ["A, a", "B, b", "C, c"],
                            "rating": [2000, 1900, 0], "fed": ["IND", "IND", ""]})
    card = pl.DataFrame(
        {"round": [1, 1, 1, 2, 2, 2], "sno": [1, 2, 3, 1, 2, 3],
         "opponent": [2, 1, None, 3, None, 1], "colour": ["w", "b", None, "b", None, "w"],
         "points": [0.5, 0.5, 1.0, 1.0, 0.5, 0.0],
         "kind": ["played", "played", "PAB", "forfeit_win", "HPB", "forfeit_loss"]})
    t = tournament_from_scorecard(players, card, name="Built", total_rounds=5,
                                  initial_colour=Colour.WHITE, edition="2025")
    assert [(p.sno, p.points, p.rank) for p in t.players] == [(1, 1.5, 1), (2, 1.0, 2),
                                                              (3, 1.0, 3)]
    text = write_trf(t)
    assert "001    1      A, a" in text and "3 b +" in text and "0000 - U" in text
    assert parse_trf(text) == t


def test_trf_players_frame():
    f = parse_trf(SMALL).players_frame()
    assert f.columns[:8] == ["sno", "name", "rating", "fed", "title", "fide_id", "birth",
                             "sex"]
    assert f.filter(pl.col("sno") == 2).row(0, named=True)["fed"] == "USA"

"""FIDE C.04.5.1, the Baku Acceleration Method (transforms/fide/acceleration.py): group A and
the virtual points from the text, their TRF records (``XXA``, TRF-2026 ``250``), and the Dutch
engine pairing on pairing scores exactly as bbpPairings does with the same file."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

import polars as pl
import pytest

from flows.cli import pair as pair_cli
from transforms.core.errors import InputError, NoValidPairing
from transforms.core.model import SCORECARD_SCHEMA, Acceleration, DutchEdition
from transforms.fide.acceleration import (
    acceleration_records,
    baku_group_size,
    baku_rounds,
    baku_virtual_points,
    virtual_points,
    virtual_points_records,
)
from transforms.fide.dutch.criteria import colour_of, compatible
from transforms.fide.dutch.engine import build_context, pair_round
from transforms.fide.dutch.state import BLACK, DOWN, NOFLOAT, UP, WHITE, float_of
from transforms.fide.trf import parse_trf, tournament_from_scorecard, write_trf

DATA = Path(__file__).parents[1] / "data" / "baku"
CASES = sorted(p.stem for p in DATA.glob("*.trf"))


def bbp(name: str) -> list[tuple[int, int | None]]:
    lines = [ln.split() for ln in (DATA / f"{name}.bbp").read_text().splitlines() if ln.strip()]
    assert int(lines[0][0]) == len(lines) - 1
    return [(int(w), int(b) or None) for w, b in lines[1:]]


def trf(name: str):
    return parse_trf((DATA / f"{name}.trf").read_text(), source=name)


def without_virtual_points(t):
    return replace(t, other_records=tuple(r for r in t.other_records
                                          if r[:3] not in ("XXA", "250")))


# --------------------------------------------------------------------------- the text


@pytest.mark.parametrize("players, ga", [
    (161, 82),   # the text's note: "161 players ... 80.5 ... is 82"
    (178, 90),   # TRF-2026's example of record 250: 178 teams, last player 0090
    (160, 80), (162, 82), (163, 82), (164, 82), (165, 84),
    (30, 16), (400, 200), (5, 4), (4, 2), (1, 2), (0, 0),
])
def test_baku_group_a_is_half_the_players_rounded_up_to_an_even_number(players, ga):
    assert baku_group_size(players) == ga
    assert ga % 2 == 0 and ga >= players / 2


@pytest.mark.parametrize("rounds, accelerated, one_point", [
    (9, 5, 3),    # the text: "In a nine-round tournament, the accelerated rounds are five",
                  # one virtual point in the first three rounds
    (11, 6, 3),   # TRF-2026's example: 250 ... 001 003 and 004 006 for 11 rounds
    (7, 4, 2), (5, 3, 2), (13, 7, 4), (10, 5, 3), (6, 3, 2), (3, 2, 1), (2, 1, 1), (1, 1, 1),
])
def test_baku_accelerates_the_first_half_of_the_rounds_one_point_in_the_first_half_of_those(
        rounds, accelerated, one_point):
    assert baku_rounds(rounds) == (accelerated, one_point)


def test_baku_gives_group_a_one_point_then_half_and_group_b_nothing():
    vp = baku_virtual_points(list(range(1, 11)), 9)   # 10 players: GA = 1..6
    assert sorted(vp) == [1, 2, 3, 4, 5, 6]
    assert vp[1] == vp[6] == (1.0, 1.0, 1.0, 0.5, 0.5)   # nothing from round 6 on
    assert 7 not in vp


def test_baku_group_counts_every_player_of_the_starting_list():
    # Decision: N is the whole starting list, whatever its start numbers
    assert sorted(baku_virtual_points([5, 1, 3, 2, 4], 5)) == [1, 2, 3, 4]


# --------------------------------------------------------------------------- the records


def test_records_are_xxa_lines_then_250_lines_like_the_trf26_example():
    lines = acceleration_records(Acceleration.BAKU, list(range(1, 179)), 11)
    assert len(lines) == 90 + 2
    assert lines[0] == "XXA 0001  1.0  1.0  1.0  0.5  0.5  0.5"
    assert lines[89].startswith("XXA 0090 ")
    assert lines[90:] == ("250       1.0 001 003 0001 0090",
                          "250       0.5 004 006 0001 0090")
    assert acceleration_records(Acceleration.NONE, list(range(1, 179)), 11) == ()


def test_250_lines_split_where_values_or_start_numbers_change():
    lines = virtual_points_records({1: (1.0, 0.5), 2: (1.0, 0.5), 4: (1.0,), 5: (0.0, 0.5)})
    assert [ln for ln in lines if ln.startswith("250")] == [
        "250       1.0 001 001 0001 0002",
        "250       1.0 001 001 0004 0004",
        "250       0.5 002 002 0001 0002",
        "250       0.5 002 002 0005 0005",
    ]
    assert "XXA 0005  0.0  0.5" in lines


def test_xxa_and_250_lines_round_trip_through_the_trf_reader_and_writer():
    text = (DATA / "2025_n064_r9_after2_s12.trf").read_text()
    t = parse_trf(text)
    assert t.other_records == acceleration_records(Acceleration.BAKU, list(range(1, 65)), 9)
    assert write_trf(t) == text
    assert parse_trf(write_trf(t)) == t
    assert virtual_points(t) == baku_virtual_points(list(range(1, 65)), 9)


def test_xxa_or_250_alone_give_the_same_virtual_points():
    t = trf("2025_n064_r9_after2_s12")
    xxa = replace(t, other_records=tuple(r for r in t.other_records if r.startswith("XXA")))
    r250 = replace(t, other_records=tuple(r for r in t.other_records if r.startswith("250")))
    assert virtual_points(xxa) == virtual_points(r250) == virtual_points(t)


def test_a_blank_xxa_value_is_zero():
    t = replace(trf("c3_topscorer_2025"), other_records=("XXA 0002       1.0",))
    assert virtual_points(t) == {2: (0.0, 1.0)}


HEAD = (DATA / "c3_topscorer_2025.trf").read_text().replace("XXA 0001  0.0  0.0  0.5\n", "")


@pytest.mark.parametrize("record, column, reason", [
    ("XXA 0002  0.0  0.0  1.0\n250       0.5 003 003 0002 0002", "points",
     "player 2 round 3: 0.5 virtual points here, 1.0 on line 3"),
    ("XXA 0002  1.0\nXXA 0002  1.0", "player", "a second XXA line for player 2"),
    ("XXA 0002  1.0  1.0  1.0  1.0", "round", "round 4 is after the last round (3)"),
    ("XXA 0009  1.0", "player", "no player 9 in the file"),
    ("XXA 0002  1.01.0", "round 2", "columns 10-13"),
    ("XXA 0002  1,0", "round 1", "not a number of points"),
    ("XXA two   1.0", "player", "not a positive number"),
    ("250  1.0  1.0 001 001 0001 0002", "match points", "team events"),
    ("250       0.0 001 001 0001 0002", "points", "must not be 0.0"),
    ("250       1.0 002 001 0001 0002", "", "after the last one"),
    ("250 1.0 001 001 0001 0002", "", "31 columns"),
])
def test_bad_virtual_points_are_rejected_naming_line_column_and_reason(record, column, reason):
    text = HEAD.replace("XXA 0003", record + "\nXXA 0003")
    t = parse_trf(text, source="x.trf")
    with pytest.raises(InputError) as e:
        virtual_points(t, source="x.trf", text=text)
    assert e.value.file == "x.trf" and e.value.column == column
    assert reason in e.value.reason
    assert e.value.line == 3 + record.count("\n")
    with pytest.raises(InputError):   # the engine reads them too, and refuses to guess
        pair_round(t)


def run_cli(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="chessfed")
    pair_cli.add_parser(parser.add_subparsers())
    args = parser.parse_args(["pair", *argv])
    return args.func(args)


def test_pair_cli_bad_xxa_exits_3_naming_the_line(tmp_path, capsys):
    bad = tmp_path / "bad.trf"
    bad.write_text(HEAD.replace("XXA 0003", "XXA 0002  1.0  x\nXXA 0003"))
    assert run_cli("--dutch", str(bad), "-p", str(tmp_path / "o.txt")) == 3
    err = capsys.readouterr().err
    assert ":3:" in err and "XXA 0002  1.0  x" in err


# --------------------------------------------------------------------------- the engine


@pytest.mark.parametrize("name", CASES)
def test_pairing_with_virtual_points_is_identical_to_bbppairings(name):
    assert pair_round(trf(name)) == bbp(name)


@pytest.mark.parametrize("name", CASES)
def test_pair_cli_honours_the_files_virtual_points(name, tmp_path):
    out = tmp_path / "out.txt"
    assert run_cli("--dutch", str(DATA / f"{name}.trf"), "-p", str(out)) == 0
    assert out.read_text() == (DATA / f"{name}.bbp").read_text()


@pytest.mark.parametrize("name", [c for c in CASES if "after5" not in c])
def test_virtual_points_change_the_pairing(name):
    t = trf(name)
    if name.startswith("c3_"):
        with pytest.raises(NoValidPairing):
            pair_round(without_virtual_points(t))
    else:
        assert pair_round(without_virtual_points(t)) != pair_round(t)


def test_round_one_pairs_group_a_and_group_b_as_separate_brackets():
    # 41 players: GA = 1..22 (1 virtual point), GB = 23..41; top half of each group
    # against its bottom half, the bye to GB's last player
    boards = pair_round(trf("2025_n041_r9_after0_s11"))
    assert {frozenset(b) for b in boards[:11]} == {frozenset((i, i + 11)) for i in range(1, 12)}
    assert {frozenset(b) for b in boards[11:20]} == {
        frozenset((i, i + 9)) for i in range(23, 32)}
    assert boards[-1] == (41, None)


def test_pairing_score_is_points_plus_this_rounds_virtual_points():
    t = trf("2025_n120_r9_after3_s13")          # round 4: GA has half a point
    ctx = build_context(t, None, DutchEdition.RULES_2025, frozenset())
    points = {p.sno: sum(r.points for r in p.history) for p in ctx.players}
    for p in ctx.players:
        assert p.points == points[p.sno]
        assert p.score == points[p.sno] + (5 if p.sno <= 60 else 0)
    assert [p.sno for p in ctx.players] == sorted(
        (p.sno for p in ctx.players), key=lambda s: (-ctx.by_sno[s].score, ctx.by_sno[s].rank))


def test_floats_of_earlier_rounds_read_the_pairing_scores_those_rounds_had():
    # Decision (as bbpPairings): round 1 with one virtual point for player 1 only; he met
    # player 3 (both on 0 points): with pairing scores 1 v 0 that was a downfloat for him
    # and an upfloat for player 3 (on points alone, no float)
    t = trf("c3_topscorer_2025")
    t = replace(t, other_records=("XXA 0001  1.0",))
    ctx = build_context(t, 3, DutchEdition.RULES_2025, frozenset())   # pairing round 3
    p1, p3 = ctx.by_sno[1], ctx.by_sno[3]
    assert float_of(p1, 2, ctx) == DOWN and float_of(p3, 2, ctx) == UP
    plain = build_context(without_virtual_points(t), 3, DutchEdition.RULES_2025, frozenset())
    assert float_of(plain.by_sno[1], 2, plain) == NOFLOAT


@pytest.mark.parametrize("edition", ["2017", "2025"])
def test_last_round_topscorers_of_c3_read_the_pairing_score(edition):
    # Decision (as bbpPairings): players 1 and 2 (WW) and 3 and 4 (BB) all have 1 point of
    # 2; half a virtual point makes 1 and 3 topscorers (1.5 > 1), so both pairs may meet
    t = trf(f"c3_topscorer_{edition}")
    ctx = build_context(t, None, DutchEdition(edition), frozenset())
    by = {p.sno: p for p in ctx.players}
    assert by[1].absolute and by[1].preference == by[2].preference
    assert compatible(by[1], by[2], ctx) and compatible(by[3], by[4], ctx)
    plain = build_context(without_virtual_points(t), None, DutchEdition(edition), frozenset())
    pby = {p.sno: p for p in plain.players}
    assert not compatible(pby[1], pby[2], plain) and not compatible(pby[3], pby[4], plain)
    assert pair_round(t) == bbp(f"c3_topscorer_{edition}") == [(2, 1), (3, 4)]


@pytest.mark.parametrize("name", ["2025_n064_r9_after2_s12", "2017_n037_r7_after1_s21"])
def test_board_order_reads_the_points_not_the_pairing_scores(name):
    # Decision (as bbpPairings): boards follow C.04.2 on points; ordered by pairing score
    # (virtual points included) these boards would come in another order
    t = trf(name)
    boards = pair_round(t)
    assert boards == bbp(name)
    ctx = build_context(t, None, DutchEdition(t.edition), frozenset())
    by = {p.sno: p for p in ctx.players}

    def key(board, attr):
        w, b = board
        if b is None:
            return (1,)
        hi, lo = sorted((by[w], by[b]), key=lambda p: (-getattr(p, attr), p.rank))
        return (0, -getattr(hi, attr), -getattr(lo, attr), hi.rank)

    assert sorted(boards, key=lambda bd: key(bd, "points")) == boards
    assert sorted(boards, key=lambda bd: key(bd, "score")) != boards


def test_the_higher_ranked_player_of_the_colour_rules_is_by_pairing_score():
    # Decision (as bbpPairings' colour allocation): round 1 (GA = 1, 2 with a virtual point)
    #   1 (w) 1-0 2 (b)      4 (w) 0-1 3 (b)
    # Before round 2 players 2 and 3 both prefer White (E.4: the higher ranked player gets his
    # preference). Pairing scores 2: 0+1, 3: 1+0, equal, so player 2 (lower number) ranks
    # higher and gets White; on points alone player 3 would.
    rows = [(1, 1, 2, "w", 1.0, "played"), (1, 2, 1, "b", 0.0, "played"),
            (1, 4, 3, "w", 0.0, "played"), (1, 3, 4, "b", 1.0, "played")]
    t = tournament_from_scorecard(
        pl.DataFrame({"sno": [1, 2, 3, 4], "name": list("ABCD"), "rating": [4, 3, 2, 1]}),
        pl.DataFrame(rows, schema=SCORECARD_SCHEMA, orient="row"), name="E.4", total_rounds=3)
    t = replace(t, other_records=acceleration_records(Acceleration.BAKU, [1, 2, 3, 4], 3))
    assert virtual_points(t) == {1: (1.0, 0.5), 2: (1.0, 0.5)}
    t = replace(t, other_records=("XXA 0001  1.0  1.0", "XXA 0002  1.0  1.0"))
    for tt, white in ((t, WHITE), (without_virtual_points(t), BLACK)):
        ctx = build_context(tt, None, DutchEdition.RULES_2025, frozenset())
        by = {p.sno: p for p in ctx.players}
        assert by[2].preference == by[3].preference == WHITE
        assert colour_of(by[2], by[3], ctx) == white

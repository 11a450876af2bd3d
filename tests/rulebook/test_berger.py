"""FIDE C.05 Annex 1 — the Berger tables (``transforms/round_robin/berger.py``) and
``chessfed berger``: the printed tables (``tests/data/berger``, see SOURCE.md) compared
round by round, board by board, colour by colour; what the tables give for 2..30 players;
the double round robin; the bye; the draw of start numbers; the command line."""

from __future__ import annotations

import itertools
import os
import re
from collections import Counter
from pathlib import Path

import polars as pl
import pytest

from flows.cli import berger as berger_cli
from flows.cli import main as cli
from transforms.round_robin.berger import (
    BYE,
    BergerBoard,
    berger_cycle,
    berger_frame,
    berger_table,
    boards_with_ids,
    draw_start_numbers,
    table_size,
)

PRINTED_FILE = Path(__file__).parents[1] / "data" / "berger" / "fide_c05_annex1.txt"
SIZES = range(2, 31)


def printed_tables(path: Path = PRINTED_FILE) -> dict[int, list[list[tuple[int, int]]]]:
    """The tables as FIDE prints them: table size -> rounds -> (white, black) in board order."""
    tables: dict[int, list[list[tuple[int, int]]]] = {}
    size = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if m := re.fullmatch(r"(\d+) or (\d+) players:", line):
            size = int(m[2])
            assert int(m[1]) == size - 1
            tables[size] = []
        elif m := re.fullmatch(r"Rd (\d+): (.*)\.", line):
            assert size is not None and int(m[1]) == len(tables[size]) + 1
            tables[size].append([tuple(int(x) for x in pair.split("-"))
                                 for pair in m[2].split(", ")])
    return tables


PRINTED = printed_tables()


def rounds_of(boards: list[BergerBoard]) -> list[list[tuple[int, int]]]:
    out: list[list[tuple[int, int]]] = []
    for b in boards:
        if b.round > len(out):
            out.append([])
        assert b.round == len(out) and b.board == len(out[-1]) + 1  # in order, no gap
        out[-1].append((b.white, b.black))
    return out


def colours(boards: list[BergerBoard], players: int) -> dict[int, list[str]]:
    """Each player's colours over his games, in round order (the bye is no game)."""
    seq: dict[int, list[str]] = {p: [] for p in range(1, players + 1)}
    for b in sorted(boards, key=lambda b: (b.round, b.board)):
        if b.black != BYE:
            seq[b.white].append("W")
            seq[b.black].append("B")
    return seq


def longest_run(seq: list[str]) -> int:
    return max((len(list(g)) for _, g in itertools.groupby(seq)), default=0)


def widest_lead(seq: list[str]) -> int:
    lead = widest = 0
    for c in seq:
        lead += 1 if c == "W" else -1
        widest = max(widest, abs(lead))
    return widest


# --- the printed tables -------------------------------------------------------------------

def test_the_printed_tables_were_read_whole():
    assert sorted(PRINTED) == [4, 6, 8, 10, 12, 14, 16]
    for n, rounds in PRINTED.items():
        assert len(rounds) == n - 1 and all(len(r) == n // 2 for r in rounds)
    text = PRINTED_FILE.read_text(encoding="utf-8")
    assert "reverse the order of the last two rounds of\nthe first cycle" in text


def test_c05_annex1_3_or_4_players_as_printed():
    assert rounds_of(berger_table(4)) == [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


@pytest.mark.parametrize("n", [4, 6, 8, 10, 12, 14, 16])
def test_c05_annex1_even_table_round_by_round_board_by_board_colour_by_colour(n):
    printed = PRINTED[n]
    built = rounds_of(berger_table(n))
    assert len(built) == len(printed)
    for r, (ours, theirs) in enumerate(zip(built, printed, strict=True), start=1):
        assert ours == theirs, f"{n} players, round {r}"
    assert berger_cycle(n) == printed


@pytest.mark.parametrize("n", [4, 6, 8, 10, 12, 14, 16])
def test_c05_annex1_odd_number_the_highest_number_counts_as_a_bye(n):
    players = n - 1
    expected = [[((w if b == n else b), BYE) if n in (w, b) else (w, b) for w, b in rnd]
                for rnd in PRINTED[n]]
    assert rounds_of(berger_table(players)) == expected


def test_the_construction_continues_the_pattern_of_the_printed_tables_beyond_16():
    for n in range(4, 32, 2):
        rounds = berger_cycle(n)
        half = n // 2
        for r, boards in enumerate(rounds, start=1):
            lead = (r - 1) * half % (n - 1) + 1
            assert boards[0] == ((lead, n) if r % 2 else (n, lead))
        # the shape the printed tables share: round 1 is 1-n, 2-(n-1), ...; round 2 ends 1-2
        assert rounds[0] == [(k, n + 1 - k) for k in range(1, half + 1)]
        assert rounds[1][-1] == (1, 2)
        assert rounds[-1][0] == (half, n) and rounds[-1][-1] == (n - 1, 1)


# --- what the tables give, N = 2..30 ------------------------------------------------------

@pytest.mark.parametrize("players", SIZES)
def test_every_pair_meets_exactly_once_and_everyone_plays_once_a_round(players):
    boards = berger_table(players)
    games = [frozenset((b.white, b.black)) for b in boards if b.black != BYE]
    assert Counter(games) == Counter(frozenset(p) for p in
                                     itertools.combinations(range(1, players + 1), 2))
    n = table_size(players)
    assert max(b.round for b in boards) == n - 1
    for r in range(1, n):
        seated = [p for b in boards if b.round == r for p in (b.white, b.black) if p != BYE]
        assert sorted(seated) == list(range(1, players + 1))  # once each, the bye's player too
        assert sum(b.black == BYE for b in boards if b.round == r) == players % 2


@pytest.mark.parametrize("players", SIZES)
def test_colours_of_one_cycle(players):
    seq = colours(berger_table(players), players)
    for p, s in seq.items():
        assert longest_run(s) <= 2, p
        assert widest_lead(s) <= 2, p
        if players % 2:
            # odd N: every player's colours alternate game by game and end equal
            assert all(a != b for a, b in itertools.pairwise(s)), p
            assert s.count("W") == s.count("B")
        else:
            assert abs(s.count("W") - s.count("B")) == 1, p
    if players % 2 == 0:
        assert sum(s.count("W") > s.count("B") for s in seq.values()) == players // 2
        if players >= 4:
            # two in a row does happen: players 1 (White) and N/2 + 1 (Black) in rounds 1-2
            assert seq[1][:2] == ["W", "W"] and seq[players // 2 + 1][:2] == ["B", "B"]


@pytest.mark.parametrize("players", [3, 5, 9, 17, 29])
def test_odd_number_every_player_has_one_bye_shown_as_0_on_board_1(players):
    boards = berger_table(players)
    byes = [b for b in boards if b.black == BYE]
    assert [b.round for b in byes] == list(range(1, players + 1))
    assert all(b.board == 1 for b in byes)
    assert sorted(b.white for b in byes) == list(range(1, players + 1))
    assert all(b.white != BYE for b in boards)
    assert all(players + 1 not in (b.white, b.black) for b in boards)


def test_two_players_play_one_round():
    assert berger_table(2) == [BergerBoard(1, 1, 1, 2)]
    assert berger_table(2, double=True) == [BergerBoard(1, 1, 1, 2), BergerBoard(2, 1, 2, 1)]


# --- the double round robin ---------------------------------------------------------------

@pytest.mark.parametrize("players", SIZES)
def test_double_round_robin_second_cycle_repeats_the_table_with_colours_reversed(players):
    single = rounds_of(berger_table(players))
    double = rounds_of(berger_table(players, double=True))
    cycle = len(single)
    assert len(double) == 2 * cycle
    assert double[cycle:] == [[(b, w) if b != BYE else (w, b) for w, b in rnd]
                              for rnd in single]
    first = list(single)
    if cycle >= 3:
        first[-2], first[-1] = first[-1], first[-2]
    assert double[:cycle] == first
    plain = rounds_of(berger_table(players, double=True, reverse_last_two=False))
    assert plain[:cycle] == single and plain[cycle:] == double[cycle:]


@pytest.mark.parametrize("players", SIZES)
def test_double_round_robin_every_pair_twice_once_with_each_colour(players):
    boards = berger_table(players, double=True)
    games = Counter((b.white, b.black) for b in boards if b.black != BYE)
    assert set(games.values()) == {1}
    assert all((b, w) in games for w, b in games)
    assert len(games) == players * (players - 1)
    for s in colours(boards, players).values():
        assert s.count("W") == s.count("B")


@pytest.mark.parametrize("players", SIZES)
def test_c05_annex1_reversing_the_last_two_rounds_avoids_three_equal_colours_running(players):
    assert max(longest_run(s) for s in
               colours(berger_table(players, double=True), players).values()) <= 2
    plain = max(longest_run(s) for s in colours(
        berger_table(players, double=True, reverse_last_two=False), players).values())
    # the reason for the recommendation: without it, even N from 4 on has three in a row
    if players % 2 == 0 and players >= 4:
        assert plain == 3
    else:
        assert plain <= 2


# --- input, frame, start numbers ----------------------------------------------------------

@pytest.mark.parametrize("bad", [1, 0, -4, True, 2.0, "6", None])
def test_fewer_than_two_players_or_not_a_whole_number_is_refused(bad):
    with pytest.raises(ValueError, match="at least 2"):
        berger_table(bad)


@pytest.mark.parametrize("bad", [3, 0, -2, 5])
def test_a_berger_table_has_an_even_number_of_numbers(bad):
    with pytest.raises(ValueError, match="even number"):
        berger_cycle(bad)


def test_the_frame_is_the_table_with_columns_round_board_white_black():
    frame = berger_frame(7, double=True)
    assert frame.columns == ["round", "board", "white", "black"]
    assert frame.rows() == [(b.round, b.board, b.white, b.black)
                            for b in berger_table(7, double=True)]
    assert frame.height == 2 * 7 * 4
    assert frame.filter(pl.col("black") == 0).height == 14


def test_draw_of_lot_is_reproducible_from_the_seed_and_a_permutation():
    ids = [f"P{i:02d}" for i in range(1, 21)]
    drawn = draw_start_numbers(ids, seed=2024)
    assert sorted(drawn) == sorted(ids)
    assert sorted(drawn.values()) == list(range(1, 21))
    assert draw_start_numbers(ids, seed=2024) == drawn
    assert draw_start_numbers(list(reversed(ids)), seed=2024) == drawn  # listing order
    assert draw_start_numbers(ids, seed=2025) != drawn
    # pinned: random.Random(seed).shuffle of the sorted ids
    six = ["ann", "bob", "cem", "dia", "eve", "fay"]
    assert draw_start_numbers(six, 7) == {"eve": 1, "ann": 2, "fay": 3, "dia": 4, "bob": 5,
                                          "cem": 6}
    assert draw_start_numbers(six, "Open 2024") == {"cem": 1, "eve": 2, "fay": 3, "bob": 4,
                                                    "dia": 5, "ann": 6}


@pytest.mark.parametrize("bad", [["a", "b", "a"], ["a", ""], ["a", 3]])
def test_draw_of_lot_refuses_a_repeated_or_empty_id(bad):
    with pytest.raises(ValueError):
        draw_start_numbers(bad, 1)


def test_the_table_with_the_players_who_hold_the_start_numbers():
    numbers = {"ann": 1, "bob": 2, "cem": 3}
    got = boards_with_ids(berger_table(3), numbers)
    assert got.select("round", "board", "white_id", "black_id").rows() == [
        (1, 1, "ann", None), (1, 2, "bob", "cem"),
        (2, 1, "cem", None), (2, 2, "ann", "bob"),
        (3, 1, "bob", None), (3, 2, "cem", "ann")]
    drawn = draw_start_numbers(list(numbers), 5)
    with_drawn = boards_with_ids(berger_table(3), drawn)
    assert with_drawn["white_id"].to_list() == [
        {v: k for k, v in drawn.items()}[w] for w in with_drawn["white"].to_list()]
    with pytest.raises(ValueError, match="1..N"):
        boards_with_ids(berger_table(3), {"ann": 1, "bob": 2, "cem": 4})
    with pytest.raises(ValueError, match="start number"):
        boards_with_ids(berger_table(4), numbers)


# --- chessfed berger ----------------------------------------------------------------------

@pytest.fixture
def own_environment(monkeypatch):
    """``flows.cli.main`` sets the project's Prefect defaults in the environment: kept here."""
    monkeypatch.setattr(os, "environ", dict(os.environ))


def test_chessfed_berger_prints_round_board_white_black_the_bye_as_0(own_environment, capsys):
    assert cli.main(["berger", "--players", "5"]) == 0
    out = capsys.readouterr().out.splitlines()
    expected = [f"{r} {k} {(b if w == 6 else w) if 6 in (w, b) else w} "
                f"{0 if 6 in (w, b) else b}"
                for r, rnd in enumerate(PRINTED[6], 1) for k, (w, b) in enumerate(rnd, 1)]
    assert out == expected
    assert out[:6] == ["1 1 1 0", "1 2 2 5", "1 3 3 4", "2 1 4 0", "2 2 5 3", "2 3 1 2"]
    assert len(out) == 15


def test_chessfed_berger_double(own_environment, capsys):
    assert cli.main(["berger", "--players", "4", "--double"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "1 1 1 4", "1 2 2 3", "2 1 2 4", "2 2 3 1", "3 1 4 3", "3 2 1 2",
        "4 1 4 1", "4 2 3 2", "5 1 3 4", "5 2 2 1", "6 1 4 2", "6 2 1 3"]


@pytest.mark.parametrize("bad", ["1", "0", "-3", "x", "2.5", "1_0", ""])
def test_chessfed_berger_exits_2_for_fewer_than_2_players_or_not_an_integer(
        own_environment, capsys, bad):
    assert cli.main(["berger", "--players", bad]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "--players must be a whole number of at least 2" in captured.err


def test_chessfed_berger_on_its_own(capsys):
    assert berger_cli.main(["--players", "2"]) == 0
    assert capsys.readouterr().out == "1 1 1 2\n"

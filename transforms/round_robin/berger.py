"""FIDE C.05 Annex 1 — the Berger tables for round-robin tournaments.

What the Annex says (FIDE Handbook C.05 "General regulations for competitions", Annex 1
"Berger Tables for Round-Robin Tournaments"; the tables and both sentences are in
``tests/data/berger/``, with their source):

- Where there is an odd number of players, the highest number counts as a bye.
- The tables for 3-4, 5-6, ..., 15-16 players: every round's boards in order, the player
  named first has White.
- "For a double-round tournament it is recommended to reverse the order of the last two
  rounds of the first cycle. This is to avoid three consecutive games with the same colour."

How the tables are built (read off the printed tables and checked against every one of them,
4 to 16, round by round, board by board, colour by colour; the Annex prints no rule beyond
16, so this is the rule that continues them). For a table of ``n`` numbers (``n`` even: the
number of players, or one more for a bye) and ``m = n - 1`` rounds, numbers ``1 .. m``
counted round a circle of ``m``:

- round ``r`` has its leading number ``a = 1 + (r - 1)·n/2`` (circularly: round 1 leads with
  1, round 2 with ``n/2 + 1``, round 3 with 2, round 4 with ``n/2 + 2``, ...);
- board 1: ``a`` against ``n``, ``a`` White in the odd rounds and ``n`` White in the even ones
  (the highest number alternates colours);
- boards ``1 + k`` (``k = 1 .. n/2 - 1``): ``a + k`` (White) against ``a - k`` (Black).

Decisions:
- Beyond 16 players: the construction above (the Annex prints tables up to 16 and no rule).
- N = 2: the table of 2 numbers, one round, 1-2 (the Annex starts at 3-4 players; its
  table for 4 would have the two meet in round 2 and sit out rounds 1 and 3).
- The bye keeps its board: board 1 of every round where N is odd (the highest number is
  always on board 1); the player paired with it has no game, and the board reads
  ``white = that player, black = 0`` whichever colour the table gives the bye.
- Double round robin: the second cycle is the printed table again, round for round, with
  colours reversed (the issue; the Annex text found speaks only of the order of the rounds,
  the usual reading, e.g. the page named in SOURCE.md, reverses the colours). The first
  cycle's last two rounds are played in reverse order, as the Annex recommends, unless
  ``reverse_last_two=False`` (the table as printed in both cycles); the second cycle follows
  the printed order. N = 2 has a one-round cycle, nothing to reorder.
- The draw of lot (:func:`draw_start_numbers`) shuffles the sorted ids, so that the numbers
  depend on the players and the seed only, not on the order of the entry list.

What the tables give (measured for N = 2..30, ``tests/rulebook/test_berger.py``): every two players
meet once a cycle, everyone plays once a round (odd N: but the one paired with the bye).
One cycle, even N: everyone ends one colour up (half the players one White more, half one
Black more), nobody has the same colour more than twice running, and nobody is ever more
than two games up in one colour (two is reached: players 1 and ``N/2 + 1`` after round 2,
1 with two Whites, ``N/2 + 1`` with two Blacks; most others later). One cycle, odd
N: everyone's colours alternate game by game and end equal. Double, even N: equal colours,
and with the reversed last two rounds nobody has the same colour three games running;
without it some do (at the turn of the cycles). Double, odd N: no three running either way.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import polars as pl

BYE = 0
"""The ``black`` of the board whose player has no game (odd N)."""

COLUMNS = {"round": pl.Int32, "board": pl.Int32, "white": pl.Int32, "black": pl.Int32}


@dataclass(frozen=True, slots=True)
class BergerBoard:
    """One board of one round: start numbers (``black == BYE``: ``white`` has no game)."""

    round: int
    board: int
    white: int
    black: int


def table_size(players: int) -> int:
    """FIDE C.05 Annex 1 — the table an event of ``players`` uses: the number of players, or
    one more for an odd number (the highest number counts as a bye)."""
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise ValueError(f"a round robin needs a whole number of at least 2 players, "
                         f"not {players!r}")
    return players + players % 2


def berger_cycle(n: int) -> list[list[tuple[int, int]]]:
    """FIDE C.05 Annex 1 — the Berger table of ``n`` numbers (``n`` even, at least 2), as
    printed: ``n - 1`` rounds, each a list of ``(white, black)`` in board order; the highest
    number is a real player here (the bye is :func:`berger_table`'s business)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 2 or n % 2:
        raise ValueError(f"a Berger table has an even number of at least 2 numbers, not {n!r}")
    m, half = n - 1, n // 2

    def wrap(x: int) -> int:
        return (x - 1) % m + 1

    rounds = []
    for r in range(1, n):
        lead = wrap(1 + (r - 1) * half)
        boards = [(lead, n) if r % 2 else (n, lead)]
        boards += [(wrap(lead + k), wrap(lead - k)) for k in range(1, half)]
        rounds.append(boards)
    return rounds


def berger_table(players: int, *, double: bool = False,
                 reverse_last_two: bool = True) -> list[BergerBoard]:
    """FIDE C.05 Annex 1 — every board of every round of a round robin of ``players`` start
    numbers, rounds in order and boards in the order of the table; odd ``players``: the
    highest number (``players + 1``) counts as a bye, its board reads ``white`` = the player
    without a game, ``black`` = :data:`BYE`. ``double``: a second cycle, the table again with
    colours reversed, and (``reverse_last_two``, the Annex's recommendation) the first
    cycle's last two rounds in reverse order."""
    n = table_size(players)
    cycle = berger_cycle(n)
    first = list(cycle)
    if double and reverse_last_two and len(first) >= 3:
        first[-2], first[-1] = first[-1], first[-2]
    rounds = first + ([[(b, w) for w, b in boards] for boards in cycle] if double else [])
    out = []
    for r, boards in enumerate(rounds, start=1):
        for board, (white, black) in enumerate(boards, start=1):
            if n != players and n in (white, black):
                white, black = (black if white == n else white), BYE
            out.append(BergerBoard(r, board, white, black))
    return out


def berger_frame(players: int, *, double: bool = False,
                 reverse_last_two: bool = True) -> pl.DataFrame:
    """FIDE C.05 Annex 1 — :func:`berger_table` as a frame: ``round, board, white, black``
    (start numbers; ``black`` 0 for the bye), rounds in order, boards in table order."""
    boards = berger_table(players, double=double, reverse_last_two=reverse_last_two)
    return pl.DataFrame({"round": [b.round for b in boards], "board": [b.board for b in boards],
                         "white": [b.white for b in boards], "black": [b.black for b in boards]},
                        schema=COLUMNS)


def draw_start_numbers(player_ids: Sequence[str], seed: int | str) -> dict[str, int]:
    """FIDE C.05 Annex 1 — the start numbers of the Berger table drawn by lot: player id ->
    start number 1..N. Reproducible: the ids are sorted (so the order they are listed in does
    not matter), then shuffled by ``random.Random(seed).shuffle``; the same ids and seed give
    the same numbers on every machine and Python version that keeps ``random``'s shuffle
    (CPython's Mersenne Twister; an ``int`` or ``str`` seed is hashed the same way every run).
    A repeated or empty id is an error."""
    ids = list(player_ids)
    if any(not isinstance(i, str) or not i for i in ids):
        raise ValueError("every player id must be a non-empty string")
    if len(set(ids)) != len(ids):
        dup = sorted({i for i in ids if ids.count(i) > 1})
        raise ValueError(f"player ids listed more than once: {', '.join(dup)}")
    order = sorted(ids)
    random.Random(seed).shuffle(order)
    return {pid: n for n, pid in enumerate(order, start=1)}


def boards_with_ids(boards: Sequence[BergerBoard],
                    start_numbers: Mapping[str, int]) -> pl.DataFrame:
    """FIDE C.05 Annex 1 — the table's boards with the players who hold the start numbers
    (given, or from :func:`draw_start_numbers`): ``round, board, white, black, white_id,
    black_id`` (``black_id`` null for the bye). The numbers must be exactly 1..N."""
    by_number = {n: pid for pid, n in start_numbers.items()}
    if sorted(by_number) != list(range(1, len(start_numbers) + 1)) \
            or len(by_number) != len(start_numbers):
        raise ValueError("start numbers must be 1..N, each given to one player")
    used = {b.white for b in boards} | ({b.black for b in boards} - {BYE})
    missing = sorted(used - set(by_number))
    if missing:
        raise ValueError(f"no player holds start number(s) {', '.join(map(str, missing))}")
    frame = pl.DataFrame({"round": [b.round for b in boards], "board": [b.board for b in boards],
                          "white": [b.white for b in boards], "black": [b.black for b in boards]},
                         schema=COLUMNS)
    return frame.with_columns(
        white_id=pl.col("white").replace_strict(by_number, return_dtype=pl.String),
        black_id=pl.col("black").replace_strict(by_number, default=None,
                                                return_dtype=pl.String))

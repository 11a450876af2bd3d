"""FIDE C.04.5.1 — the Baku Acceleration Method, and the virtual points a TRF carries.

What C.04.5.1 says (FIDE Handbook, "C.04.5.1 Baku Acceleration"; summarised):

- It applies where a win scores one point and a draw half a point.
- Before round 1 the list of players to be paired, in initial order, is split in two
  groups: GA holds the first half of the players rounded up to the nearest even number,
  ``2·⌈N/4⌉`` (161 players: 82, which is also the pairing number of the last GA player);
  GB holds the rest. A late entry does not move the last GA player.
- The accelerated rounds are the first half of the rounds, rounded up. Before pairing the
  first half of them (rounded up), every GA player is given one virtual point; before
  pairing the others, half a point. GB players never get virtual points, and nobody gets
  any after the last accelerated round (nine rounds: five accelerated, one point in rounds
  1-3, half a point in rounds 4-5).
- A player's pairing score is his points plus his virtual points: it pairs the round. The
  standings, tie-breaks and prizes use the points only.

How a TRF carries virtual points (the reader, ``transforms/fide/trf.py``, keeps both records
verbatim in ``Tournament.other_records``; this module reads and writes them):

| record | layout | meaning |
|---|---|---|
| ``XXA`` | ``XXA NNNN  p1   p2 ...``: start number in columns 5-8, values 4 wide in columns 10-13, 15-18, ... | player NNNN's virtual points in rounds 1, 2, ... (the JaVaFo / bbpPairings extension; a blank value is 0) |
| ``250`` | ``250 MMMM GGGG RRF RRL PPPF PPPL`` (TRF-2026) | GGGG virtual points in rounds RRF..RRL for players PPPF..PPPL; MMMM (match points) empty for individuals |

Decisions:
- N is every player of the starting list (a player absent in round 1 included): GA is start
  numbers 1 .. ``2·⌈N/4⌉``. Start numbers are given once per category here
  (``transforms/swiss/scorecard.py``), so the late-entry rule holds by construction.
- The event's file carries both records, the ``XXA`` lines first: engines older than
  TRF-2026 read only ``XXA`` (bbpPairings 5.0.1 ignores ``250``), bbpPairings 6.0.0 reads
  both (a ``250`` line after the ``XXA`` lines restates the same values, which it accepts;
  the other order would make it append the ``XXA`` values after them).
- Reading: a player's value for a round may be given by an ``XXA`` line and by ``250``
  lines; where two of them disagree, or a player has two ``XXA`` lines, or a value falls
  after the last round (``XXR``/``142``), or names a player not in the file, the file is
  rejected (an :class:`InputError` quoting the line), never half read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from transforms.core.errors import InputError
from transforms.core.model import Acceleration
from transforms.fide.trf import Tournament

TAGS = ("XXA", "250")
"""The records that carry virtual points."""

_VALUE = re.compile(r"^\d{1,2}(\.\d)?$")


def baku_group_size(players: int) -> int:
    """FIDE C.04.5.1 (Initial Groups Division) — the number of GA players, also the pairing
    number of the last of them: half the players rounded up to the nearest even number,
    ``2·⌈N/4⌉``."""
    if players < 0:
        raise ValueError(f"the number of players cannot be negative: {players}")
    return 2 * -(-players // 4)


def baku_rounds(total_rounds: int) -> tuple[int, int]:
    """FIDE C.04.5.1 (Virtual points) — ``(accelerated rounds, rounds with one virtual point)``:
    the first half of the rounds, rounded up, are accelerated; GA players get one point in
    the first half of those (rounded up) and half a point in the rest."""
    if total_rounds < 1:
        raise ValueError(f"an event has at least one round, got {total_rounds}")
    accelerated = -(-total_rounds // 2)
    return accelerated, -(-accelerated // 2)


def baku_virtual_points(snos: Sequence[int], total_rounds: int) -> dict[int, tuple[float, ...]]:
    """FIDE C.04.5.1 — every GA player's virtual points, round 1 first; ``snos`` is the starting
    list in initial order (see the module's Decision on N). GB players are not in the
    result: they never get virtual points."""
    order = sorted(snos)
    accelerated, full = baku_rounds(total_rounds)
    points = (1.0,) * full + (0.5,) * (accelerated - full)
    return {s: points for s in order[:baku_group_size(len(order))]}


def acceleration_records(method: Acceleration, snos: Sequence[int],
                         total_rounds: int) -> tuple[str, ...]:
    """FIDE C.04.5 — the TRF records of an event's acceleration (none without one)."""
    if Acceleration(method) is Acceleration.NONE:
        return ()
    return virtual_points_records(baku_virtual_points(snos, total_rounds))


def virtual_points_records(points: Mapping[int, Sequence[float]]) -> tuple[str, ...]:
    """FIDE C.04 Annex 2 (TRF-2026 record 250, and ``XXA``) — the lines that give every player
    his virtual points: one ``XXA`` line per player who has any, then the ``250`` lines, one
    per run of rounds and of consecutive start numbers with the same value (see the module's
    Decision on carrying both)."""
    tenths = {s: [_tenths(v) for v in vals] for s, vals in points.items()}
    for s in tenths:
        while tenths[s] and tenths[s][-1] == 0:
            tenths[s].pop()
    xxa = [f"XXA {s:04d}" + "".join(f" {v / 10:4.1f}" for v in vals)
           for s, vals in sorted(tenths.items()) if vals]
    # per round: maximal runs of consecutive start numbers with one non-zero value
    spans: dict[tuple[int, int, int], list[int]] = {}
    for rnd in range(1, max((len(v) for v in tenths.values()), default=0) + 1):
        run: list[int] = []
        for s in sorted(tenths):
            v = tenths[s][rnd - 1] if rnd <= len(tenths[s]) else 0
            if run and (s != run[1] + 1 or v != run[2]):
                if run[2]:
                    spans.setdefault((run[0], run[1], run[2]), []).append(rnd)
                run = []
            run = [run[0] if run else s, s, v]
        if run and run[2]:
            spans.setdefault((run[0], run[1], run[2]), []).append(rnd)
    lines = []
    for (first, last, v), rounds in spans.items():
        start = prev = rounds[0]
        for r in rounds[1:] + [0]:
            if r != prev + 1:
                lines.append((start, first, f"250      {v / 10:4.1f} {start:03d} {prev:03d} "
                                            f"{first:04d} {last:04d}"))
                start = r
            prev = r
    return tuple(xxa) + tuple(line for _r, _p, line in sorted(lines))


def virtual_points(t: Tournament, *, source: str = "<trf>",
                   text: str | None = None) -> dict[int, tuple[float, ...]]:
    """FIDE C.04.5 (pairing score), C.04 Annex 2 — every player's virtual points per round
    (round 1 first) as the file's ``XXA`` and ``250`` records give them; players without any
    are not in the result.

    The records are read from ``t.other_records``; given the file's ``text`` too, from the
    text, so that an error names the line number. Raises :class:`InputError` (see the
    module's Decision on reading)."""
    if text is None:
        lines: Iterable[tuple[int | None, str]] = (
            (None, ln) for ln in t.other_records if ln[:3] in TAGS)
    else:
        lines = ((i, ln.rstrip()) for i, ln in enumerate(text.lstrip("\ufeff").splitlines(), 1)
                 if ln[:3] in TAGS)
    known = {p.sno for p in t.players}
    cells: dict[tuple[int, int], tuple[int, int | None]] = {}
    xxa_of: dict[int, int | None] = {}
    for lineno, line in lines:
        try:
            xxa, given = _read_record(line)
        except _BadField as e:
            raise InputError(source, lineno, e.column, line, e.reason) from None

        def err(column: str, reason: str, lineno: int | None = lineno,
                line: str = line) -> InputError:
            return InputError(source, lineno, column, line, reason)

        if xxa is not None:
            if xxa in xxa_of:
                raise err("player", f"a second XXA line for player {xxa} "
                                    f"(the first is on {_where(xxa_of[xxa])})")
            xxa_of[xxa] = lineno
        for sno, rnd, v in given:
            if sno not in known:
                raise err("player", f"no player {sno} in the file")
            if t.total_rounds is not None and rnd > t.total_rounds:
                raise err("round", f"round {rnd} is after the last round ({t.total_rounds})")
            old = cells.get((sno, rnd))
            if old is not None and old[0] != v:
                raise err("points", f"player {sno} round {rnd}: {v / 10:.1f} virtual points "
                                    f"here, {old[0] / 10:.1f} on {_where(old[1])}")
            cells[(sno, rnd)] = (v, lineno)
    out: dict[int, list[float]] = {}
    for (sno, rnd), (v, _l) in sorted(cells.items()):
        vals = out.setdefault(sno, [])
        vals.extend([0.0] * (rnd - 1 - len(vals)))
        vals.append(v / 10)
    return {s: tuple(v) for s, v in out.items()}


class _BadField(ValueError):
    def __init__(self, column: str, reason: str):
        super().__init__(reason)
        self.column, self.reason = column, reason


def _where(lineno: int | None) -> str:
    return f"line {lineno}" if lineno is not None else "an earlier line"


def _read_record(line: str) -> tuple[int | None, list[tuple[int, int, int]]]:
    """One XXA or 250 line: (the XXA line's player or None, [(player, round, tenths)])."""
    if line[:3] == "XXA":
        sno = _number(line[4:8], "player")
        out = []
        k = 0
        while 9 + 5 * k < len(line):
            column = f"round {k + 1}"
            if line[8 + 5 * k] != " ":
                raise _BadField(column, "values go in columns 10-13, 15-18, ... (4 wide, 5 apart)")
            out.append((sno, k + 1, _points(line[9 + 5 * k:13 + 5 * k], column)))
            k += 1
        return sno, out
    if len(line) < 31 or line[31:].strip():
        raise _BadField("", "expected '250 MMMM GGGG RRF RRL PPPF PPPL' (31 columns)")
    if _points(line[4:8], "match points"):
        raise _BadField("match points",
                        "fictitious match points are for team events: leave columns 5-8 empty")
    v = _points(line[9:13], "points")
    if not v:
        raise _BadField("points", "the virtual points must not be 0.0")
    rf, rl = _number(line[14:17], "round"), _number(line[18:21], "round")
    pf, pl = _number(line[22:26], "player"), _number(line[27:31], "player")
    if rf > rl or pf > pl:
        raise _BadField("", "a first round or player after the last one")
    return None, [(sno, rnd, v) for sno in range(pf, pl + 1) for rnd in range(rf, rl + 1)]


def _tenths(v: float) -> int:
    t = round(v * 10)
    if v < 0 or abs(t - v * 10) > 1e-9:
        raise ValueError(f"virtual points are whole tenths of a point, not below 0: {v!r}")
    return t


def _number(text: str, column: str) -> int:
    s = text.strip()
    if not s.isdigit() or int(s) == 0:
        raise _BadField(column, f"{text!r} is not a positive number")
    return int(s)


def _points(text: str, column: str) -> int:
    s = text.strip()
    if not s:
        return 0
    if not _VALUE.match(s):
        raise _BadField(column, f"{text!r} is not a number of points like 1.0 or 0.5")
    return round(float(s) * 10)

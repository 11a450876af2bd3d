"""FIDE C.04.3 B-D — the bracket procedure both Dutch editions share.

Each edition builds the edge weights of a bracket (its criteria, C4-C21 of 2017 or 2025); what
follows is the same in both: choose the moved-down players that are paired in the bracket
(C.04.3 B.3: maximise pairs, then scores), fix their opponents (D), then the remainder's
exchanges (D.2) and transpositions (D.1), one player at a time, by raising the weights of the
preferred opponents and re-solving the matching.
"""

from __future__ import annotations

from transforms.fide.dutch.state import Player, preferences_compatible


def bits(x: int) -> int:
    """The width of a weight field that counts up to ``x``."""
    return x.bit_length()


def colour_fields(w: int, lo: Player, hi: Player, mask: bool, pcb: int) -> int:
    """FIDE C.04.3 colour criteria (2017 C8-C11, 2025 C10-C13) — one bit field each:
    no absolute imbalance clash, no absolute (repeat) clash, preferences met, strong
    preferences met. Only pairs inside the bracket score (``mask``)."""
    w <<= pcb
    w |= mask and (not lo.absolute_imbalance or not hi.absolute_imbalance
                   or lo.preference != hi.preference)
    w <<= pcb
    if mask:
        if lo.imbalance == hi.imbalance:
            rep_ok = lo.repeated == 0 or lo.repeated != hi.repeated
        else:
            worse = hi if lo.imbalance > hi.imbalance else lo
            rep_ok = worse.repeated != (3 - lo.preference if lo.preference else 0)
        w |= (not lo.absolute or not hi.absolute or lo.preference != hi.preference or rep_ok)
    w <<= pcb
    w |= mask and preferences_compatible(lo.preference, hi.preference)
    w <<= pcb
    w |= mask and ((not lo.strong and not lo.absolute) or (not hi.strong and not hi.absolute)
                   or (lo.absolute and hi.absolute) or lo.preference != hi.preference)
    return w


def interned(values, pool: dict[int, int]) -> list[int]:
    """``list(values)`` with equal ints sharing one object (memory: few distinct weights)."""
    intern = pool.setdefault
    return [intern(x, x) for x in values]


def exchange_weight(base: list[list[int]], bits_: int, si: int, li: int, sri: int,
                     rp: int) -> int:
    """FIDE C.04.3 D.2 — a remainder edge with the exchange preferences added: fewest
    exchanges, then the smallest differences of the exchanged pairing numbers."""
    r = base[li][si]
    if r:
        add = 1 if sri < rp else 0
        add <<= bits_
        add <<= bits_
        add -= sri
        add <<= 1
        r += add
    return r

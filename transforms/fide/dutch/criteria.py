"""FIDE Dutch system (C.04.3) — the absolute criteria, bye eligibility, colour allocation and
board order, which both editions share.

| criterion | function |
|---|---|
| C1 no rematch, forbidden pairs; C3 absolute colour preferences | :func:`compatible` |
| C2 one bye per player (2017, 2025 wording) | :func:`eligible_for_bye_2017`, :func:`eligible_for_bye_2025` |
| E.1-E.5 colour allocation | :func:`colour_of`, :func:`allocate_colours` |
| C.04.2 board order | :func:`board_order` |
"""

from __future__ import annotations

from transforms.fide.dutch.state import (
    NONE,
    WHITE,
    WIN,
    Board,
    Context,
    Player,
    invert,
    preferences_compatible,
    ranks_below,
)


def compatible(a: Player, b: Player, ctx: Context) -> bool:
    """FIDE C.04.3 C1 (no rematch, forbidden pairs) and C3 (no two players with the same
    absolute colour preference meet, except topscorers in the last round).

    Decision (as the FIDE-endorsed engines): a topscorer is a player with more than 50% of
    the maximum possible score before the last round."""
    if b.sno in a.forbidden:
        return False
    if a.absolute and b.absolute and a.preference == b.preference:
        if ctx.last_round():
            threshold = (ctx.played_rounds * WIN) >> 1
            return a.score > threshold or b.score > threshold
        return False
    return True


def compatible_rows(players: list[Player], ctx: Context) -> list[list[int]]:
    """FIDE C.04.3 C1, C3 — row i holds ``compatible(players[i], players[j])`` (1 or 0) for
    j < i, evaluated only where it can fail: the pairs forbidden to ``players[i]`` and those
    with the same absolute colour preference (a whole round's graph has ~n²/2 pairs)."""
    index = {p.sno: k for k, p in enumerate(players)}
    same: dict[int, list[int]] = {}
    last = ctx.last_round()
    threshold = (ctx.played_rounds * WIN) >> 1
    rows = []
    for i, a in enumerate(players):
        row = [1] * i
        if a.absolute:
            # C3, as compatible(): the same absolute preference meets only where one of the
            # two is a topscorer in the last round
            group = same.setdefault(a.preference, [])
            if not last:
                for j in group:
                    row[j] = 0
            elif a.score <= threshold:
                for j in group:
                    row[j] = 1 if players[j].score > threshold else 0
            group.append(i)
        for s in a.forbidden:  # C1
            j = index.get(s, i)
            if j < i:
                row[j] = 0
        rows.append(row)
    return rows


def eligible_for_bye_2017(p: Player) -> bool:
    """FIDE C.04.3 (2017) C2 — a player who already received a pairing-allocated bye, or
    scored a (forfeit) win without playing in a paired round, cannot get the bye."""
    return not any((not r.played) and r.paired and r.points >= WIN for r in p.history)


def eligible_for_bye_2025(p: Player) -> bool:
    """FIDE C.04.3 (2025) C2 — a player who already received a PAB, or scored a win without
    playing (forfeit win, full-point bye), cannot get the pairing-allocated bye."""
    return not any((not r.played) and (r.points >= WIN or r.pab) for r in p.history)



def _first_colour_difference(a: Player, b: Player) -> tuple[int, int]:
    ha = [r.colour for r in a.history if r.played]
    hb = [r.colour for r in b.history if r.played]
    i, j = len(ha) - 1, len(hb) - 1
    while i >= 0 and j >= 0 and ha[i] == hb[j]:
        i -= 1
        j -= 1
    return (ha[i] if i >= 0 else NONE), (hb[j] if j >= 0 else NONE)


def _neutral_colour(p: Player, q: Player) -> int:
    """FIDE C.04.3 E.1-E.4 — the colour of ``p`` against ``q`` where the rules decide it."""
    if preferences_compatible(p.preference, q.preference):
        if p.preference != NONE:
            return p.preference
        if q.preference != NONE:
            return invert(q.preference)
        return NONE
    if p.absolute and (p.imbalance > q.imbalance or not q.absolute):
        return p.preference
    if q.absolute and (q.imbalance > p.imbalance or not p.absolute):
        return invert(q.preference)
    if p.strong and not q.strong:
        return p.preference
    if q.strong and not p.strong:
        return invert(q.preference)
    pc, qc = _first_colour_difference(p, q)
    if pc != NONE and qc != NONE:
        return qc
    return NONE


def colour_of(p: Player, q: Player, ctx: Context) -> int:
    """FIDE C.04.3 E.1-E.5 — the colour ``p`` gets against ``q``.

    E.5: when nothing else decides, the higher ranked player gets his preference, and
    without preferences colours follow the initial colour by pairing-number parity."""
    c = _neutral_colour(p, q)
    if c != NONE:
        return c
    init = ctx.initial_colour
    if p.preference == NONE:
        if ranks_below(p, q):
            return init if q.rank & 1 else invert(init)
        return invert(init) if p.rank & 1 else init
    if ranks_below(p, q):
        return invert(q.preference)
    return p.preference


def allocate_colours(pairs: list[tuple[Player, Player]], ctx: Context) -> list[tuple[Player, Player]]:
    """FIDE C.04.3 E — (white, black) for every pair."""
    out = []
    for a, b in pairs:
        p, q = (a, b) if a.sno < b.sno else (b, a)
        if colour_of(p, q, ctx) == WHITE:
            out.append((p, q))
        else:
            out.append((q, p))
    return out


def board_order(boards: list[tuple[Player, Player]], bye: Player | None) -> list[Board]:
    """FIDE C.04.2 — boards by the higher score of the pair, then the lower score, then the
    rank of the higher player; the pairing-allocated bye last.

    Decision (as bbpPairings): with acceleration (FIDE C.04.5) the scores here are the points,
    without virtual points; the higher player of a pair is the one with more points, then the
    lower pairing number."""

    def key(wb: tuple[Player, Player]) -> tuple[int, int, int]:
        w, b = wb
        hi, lo = (b, w) if (w.points, b.rank) < (b.points, w.rank) else (w, b)
        return (-hi.points, -lo.points, hi.rank)

    out: list[Board] = [(w.sno, b.sno) for w, b in sorted(boards, key=key)]
    if bye is not None:
        out.append((bye.sno, None))
    return out



"""FIDE C.04.3 B-D — the bracket procedure both Dutch editions share.

Each edition builds the edge weights of a bracket (its criteria, C4-C21 of 2017 or 2025) and
solves the matching once; what follows is the same in both, :func:`pair_bracket`: choose the
moved-down players that are paired in the bracket (B.3: 2017 C5-C6, 2025 C6-C7), fix their
opponents (D: the MDP-pairing first), then the remainder's exchanges (D.2) and
transpositions (D.1), one player at a time, by raising the weights of the preferred opponents
and re-solving the matching. The weights keep their lowest ``3 * width + 1`` bits free for
these steps.

The two editions number the players differently, so the procedure takes both numberings:

- a *local index* ``0 .. n-1`` is the bracket's own order: moved-down players ``0 .. sgb-1``,
  residents ``sgb .. nsgb-1``, the next score group ``nsgb .. n-1``; the base weight rows and
  the scores are indexed by it (``base[o][p]``, ``p < o``);
- a *vertex* is a vertex of the matching graph: ``verts[p]`` for local index ``p``, so the
  mate list ``M`` and ``matched`` are indexed by vertex, and the residents are the vertices
  ``sgbv .. nsgbv-1``.

2017 builds a graph of the bracket alone: ``verts = list(range(n))``, vertex = local index,
``sgbv, nsgbv = sgb, nsgb``. 2025 keeps one graph over the whole round: ``verts`` are the
bracket's players in round order (ascending; the residents are consecutive), so ``sgbv ..
nsgbv`` are the residents' numbers in the round, and vertices beyond ``nsgbv`` that are not
in ``verts`` are the players below the next score group (a mate there, like one in the next
score group, is outside the bracket).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Hashable
from itertools import repeat
from typing import cast

from transforms.fide.dutch.matching import Graph
from transforms.fide.dutch.state import Player, preferences_compatible


def bits(x: int) -> int:
    """FIDE C.04.3 (edge weights) — the width of a weight field that counts up to ``x``."""
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


class Classes:
    """FIDE C.04.3 (edge weights) — the players of a bracket grouped by their weight key
    (everything the quality criteria read of a player): two players of one class weigh the
    same against any opponent, except where a pair is forbidden (C1), which weighs 0. A row
    of a large bracket then costs one weight per class, not one per player."""

    def __init__(self, players: list[Player], keys: list[Hashable]):
        ids: list[int] = []
        firsts: list[int] = []
        seen: dict[Hashable, int] = {}
        for i, k in enumerate(keys):
            c = seen.get(k)
            if c is None:
                c = seen[k] = len(firsts)
                firsts.append(i)
            ids.append(c)
        self.players = players
        self.ids, self.firsts, self.keys = ids, firsts, list(seen)
        """Class of each player (numbered by first appearance), the first player of each,
        and each class's key."""
        self.forbidden = [p.forbidden for p in players]
        self._forbidding: dict[int, list[int]] = {}
        """Start number -> the players (ascending) to whom it is forbidden (C1)."""
        for i, f in enumerate(self.forbidden):
            for s in f:
                self._forbidding.setdefault(s, []).append(i)
        self._by_opponent: dict[Hashable, list[int | None]] = {}

    def row(self, o: int, sno: int, weight_of: Callable[[int], int],
            opponent_key: Hashable) -> list[int]:
        """``[weight_of(p) for p < o]``, 0 where ``sno`` is forbidden to player p: each class's
        weight is computed once, by ``weight_of`` on a player of it not forbidden ``sno``, and
        kept for the next rows whose player has the same ``opponent_key`` (what ``weight_of``
        reads of him: the same class weights)."""
        ids = self.ids
        bad = [p for p in self._forbidding.get(sno, ()) if p < o]
        badset = set(bad)
        firsts = self.firsts
        count = bisect_left(firsts, o)
        wc = self._by_opponent.setdefault(opponent_key, [])
        if len(wc) < count:
            wc.extend([None] * (count - len(wc)))
        for c in range(count):
            if wc[c] is not None:
                continue
            p = firsts[c]
            if p in badset:
                other = next((q for q in range(p, o) if ids[q] == c and q not in badset), None)
                if other is None:
                    continue  # (every player of the class before o is forbidden: all 0)
                p = other
            wc[c] = weight_of(p)
        # (a class left None has only forbidden players before o: each is set to 0 below)
        out = cast("list[int]", list(map(wc.__getitem__, ids[:o])))
        for p in bad:
            out[p] = 0
        return out


def exchange_bonus(bits_: int, sri: int, rp: int) -> int:
    """FIDE C.04.3 D.2 — what the exchange preferences add to a remainder edge whose higher
    player is ``sri``-th in the remainder (S1 its first ``rp``): fewest exchanges, then the
    smallest differences of the exchanged pairing numbers."""
    return (((1 if sri < rp else 0) << (2 * bits_)) - sri) << 1


def exchange_weight(base: list[list[int]], bits_: int, si: int, li: int, sri: int,
                     rp: int) -> int:
    """FIDE C.04.3 D.2 — a remainder edge with the exchange preferences added
    (:func:`exchange_bonus`); 0 stays 0 (not allowed)."""
    r = base[li][si]
    return r + exchange_bonus(bits_, sri, rp) if r else r


def pair_bracket(g: Graph, verts: list[int], sgb: int, nsgb: int, sgbv: int,
                 nsgbv: int, base: list[list[int]], width: int, scores: list[int],
                 matched: list[bool], pool: dict[int, int],
                 on_fix: Callable[[int, int], None] | None = None) -> list[int]:
    """FIDE C.04.3 B, D — pair one bracket whose weights ``g`` holds; return the mate list.

    ``verts``, ``sgb``/``nsgb`` (local) and ``sgbv``/``nsgbv`` (vertices) map the bracket onto
    the graph (see the module docstring); ``base[o][p]`` are the bracket's weights (``p < o``,
    local; the D.2 steps zero the pairs they rule out), ``width`` the bit width of the
    weights' player-count fields (2017 ``BracketWeights.pcb``, 2025 ``RoundWeights.sg_bits``),
    ``scores`` the players' scores by local index, ``pool`` the interning pool of the
    bracket's weights. The players paired in the bracket end up ``matched`` and their pairs
    fixed in ``g`` (2017 C4 may still undo them: the caller then re-pairs the bracket); the
    unmatched residents and moved-down players are the bracket's downfloaters. ``on_fix``,
    if given, is called with the two vertices of each pair as it is fixed (the 2025 rules'
    pairs are final then: ``check_bracket`` may stop the round there)."""
    b = _Bracket(g, verts, sgb, nsgb, sgbv, nsgbv, base, width, matched, pool, g.solve(), on_fix)
    b.choose_moved_down(scores)
    b.pair_moved_down()
    b.split_remainder()
    b.exchange_in_s1()
    b.exchange_in_s2()
    b.settle_exchanges()
    b.transpose()
    return b.M


class _Bracket:
    """The state of :func:`pair_bracket` between its steps; ``M`` is the current optimum.

    ``pv``/``qv``/``ov`` name vertices, ``p``/``q``/``o`` local indices, ``pos`` positions in
    the remainder."""

    __slots__ = ("g", "verts", "sgb", "nsgb", "sgbv", "nsgbv", "base", "width", "matched",
                 "pool", "M", "remainder", "rp", "exchanges", "on_fix")

    def __init__(self, g: Graph, verts: list[int], sgb: int, nsgb: int, sgbv: int,
                 nsgbv: int, base: list[list[int]], width: int, matched: list[bool],
                 pool: dict[int, int], M: list[int],
                 on_fix: Callable[[int, int], None] | None = None):
        self.g, self.verts, self.sgb, self.nsgb = g, verts, sgb, nsgb
        self.on_fix = on_fix
        self.sgbv, self.nsgbv, self.base, self.width = sgbv, nsgbv, base, width
        self.matched, self.pool, self.M = matched, pool, M
        self.remainder: list[int] = []
        self.rp = self.exchanges = 0

    def choose_moved_down(self, scores: list[int]) -> None:
        """B.3, 2017 C5-C6 / 2025 C6-C7 — which moved-down players are paired in the bracket.

        The optimum already pairs the most of them, with the best scores; among those of
        one score it may pair any, and the rules take the highest first: each in turn is
        offered the reserved lowest bit on its edges to the residents (a tie-break below
        every criterion) and, if an optimum then pairs it, kept paired by a larger bonus."""
        g, verts, sgb, nsgb, sgbv, nsgbv = (self.g, self.verts, self.sgb, self.nsgb, self.sgbv,
                                            self.nsgbv)
        base, matched, M = self.base, self.matched, self.M
        n = len(verts)
        mds = 0  # (set at p == 0)
        rem = rem_matched = 0
        for p in range(sgb):
            pv = verts[p]
            if p == 0 or scores[p] < mds:
                # a new score among the moved-down players: how many of them (from p on)
                # there are, and how many the optimum pairs in the bracket
                mds = scores[p]
                rem = rem_matched = 0
                q = p
                while q < n and scores[q] >= mds:
                    rem += 1
                    if sgbv <= M[verts[q]] < nsgbv:
                        rem_matched += 1
                    q += 1
            if not rem_matched:
                continue
            if rem <= rem_matched:
                matched[pv] = True
                continue
            rem -= 1
            if not sgbv <= M[pv] < nsgbv:
                for o in range(sgb, nsgb):
                    wt = base[o][p]
                    if wt:
                        g.set(pv, verts[o], wt | 1)
                M = g.solve()
            if sgbv <= M[pv] < nsgbv:
                matched[pv] = True
                rem_matched -= 1
                for o in range(sgb, nsgb):
                    wt = base[o][p]
                    if wt:
                        g.set(pv, verts[o], (wt | (nsgb - sgb)) + 1)
        self.M = M

    def pair_moved_down(self) -> None:
        """D (heterogeneous bracket: the MDP-pairing first) — each paired moved-down player,
        highest first, takes the highest resident that an optimum still allows, and the pair
        is fixed. The residents' bonuses rise with their rank, above every lower field."""
        g, verts, sgb, nsgb, base, matched = (self.g, self.verts, self.sgb, self.nsgb,
                                              self.base, self.matched)
        M = self.M
        n = len(verts)
        for p in range(sgb):
            pv = verts[p]
            if not matched[pv]:
                continue
            addend = n
            best = None
            prev = g.row(pv)
            for o in range(nsgb - 1, sgb - 1, -1):
                ov = verts[o]
                if matched[ov]:
                    continue
                wt = base[o][p]
                if wt:
                    g.set(pv, ov, wt + addend)
                    addend += 1
                    best = ov
            if M[pv] != best and not (best is not None and g.swap_in(M, pv, best, prev)):
                M = g.solve()
            m = M[pv]
            matched[m] = True
            g.fix(pv, m)
            if self.on_fix is not None:
                self.on_fix(pv, m)
        self.M = M

    def split_remainder(self) -> None:
        """D.2 — the remainder (the residents not paired with moved-down players), its S1
        size ``rp`` and the number of exchanges the optimum needs. Its edges get the exchange
        preferences (:func:`exchange_weight`: fewest exchanges, then the smallest differences
        of the exchanged pairing numbers) and the matching is re-solved."""
        g, verts, sgb, nsgb, sgbv, nsgbv = (self.g, self.verts, self.sgb, self.nsgb, self.sgbv,
                                            self.nsgbv)
        base, width, pool, M = self.base, self.width, self.pool, self.M
        remainder = [i for i in range(sgb, nsgb) if not (M[verts[i]] < sgbv)]
        rp = sum(1 for i in remainder if M[verts[i]] < verts[i])
        # (remainder is ascending: the players before o are the first k.) An edge's exchange
        # preferences depend on its higher player's place in the remainder only: a row at a
        # time, each edge as exchange_weight gives it
        adds = [exchange_bonus(width, pri, rp) for pri in range(len(remainder))]
        rverts = [verts[p] for p in remainder]
        for k, o in enumerate(remainder):
            row = base[o]
            weights = [x + a if x else 0 for x, a in zip(map(row.__getitem__, remainder[:k]), adds)]
            g.set_many(zip(rverts[:k], repeat(verts[o]), weights), pool)
        M = g.solve()
        fge = remainder[rp] if rp < len(remainder) else None
        exchanges = 0
        for p in remainder:
            if fge is None or p >= fge:
                break
            pv = verts[p]
            exchanges += M[pv] <= pv or M[pv] >= nsgbv
        self.M, self.remainder, self.rp, self.exchanges = M, remainder, rp, exchanges

    def exchange_in_s1(self) -> None:
        """D.2 — the players of S1 that go to S2 are the lowest possible: from the bottom of
        S1 up, each is asked to leave (its S1 edges one lower) until the exchanges are
        made; one that leaves can no longer be the higher player of a pair."""
        g, verts, nsgbv, base, width = self.g, self.verts, self.nsgbv, self.base, self.width
        remainder, rp, M = self.remainder, self.rp, self.M
        er = self.exchanges
        pri = rp
        pos = rp
        while pos != 0 and er:
            opos = pos
            pri -= 1
            pos -= 1
            p = remainder[pos]
            pv = verts[p]
            if pv < M[pv] < nsgbv:
                for q in remainder[opos:]:
                    wt = exchange_weight(base, width, p, q, pri, rp)
                    if wt:
                        g.set(pv, verts[q], wt - 1)
                M = g.solve()
            exch = M[pv] <= pv or M[pv] >= nsgbv
            er -= exch
            for q in remainder[pos + 1:]:
                if exch:
                    base[q][p] = 0
                g.set(pv, verts[q], exchange_weight(base, width, p, q, pri, rp))
        self.M = M

    def exchange_in_s2(self) -> None:
        """D.2 — ... and the players of S2 that go to S1 are the highest possible: from the
        top of S2 down, each is asked to join (its edges to lower players one higher); one
        that joins can only be the higher player of a pair in the bracket."""
        g, verts, nsgb, nsgbv, base, width = (self.g, self.verts, self.nsgb, self.nsgbv,
                                              self.base, self.width)
        remainder, rp, M = self.remainder, self.rp, self.M
        n = len(verts)
        er = self.exchanges
        ri = rp
        for pos in range(rp, len(remainder)):
            if er <= 1:
                break
            p = remainder[pos]
            pv = verts[p]
            already = pv < M[pv] < nsgbv
            if not already:
                for q in remainder[pos + 1:]:
                    wt = exchange_weight(base, width, p, q, ri, rp)
                    if wt:
                        g.set(pv, verts[q], wt + 1)
                M = g.solve()
            exch = pv < M[pv] < nsgbv
            if exch:
                er -= 1
                for q in remainder[:pos]:
                    base[p][q] = 0
                    g.set(pv, verts[q], 0)
                for o in range(nsgb, n):
                    base[o][p] = 0
                    g.set(pv, verts[o], 0)
            if not already:
                for q in remainder[pos + 1:]:
                    g.set(pv, verts[q], exchange_weight(base, width, p, q, ri, rp))
            ri += 1
        self.M = M

    def settle_exchanges(self) -> None:
        """D.2 done — S1 and S2 are now fixed: a remainder pair must join an S1 player (the
        higher) with an S2 player; the exchange preferences are dropped."""
        g, verts, nsgbv, base, remainder, M = (self.g, self.verts, self.nsgbv, self.base,
                                               self.remainder, self.M)
        rverts = [verts[p] for p in remainder]
        s1 = [pv < M[pv] < nsgbv for pv in rverts]  # the higher player of a pair in the bracket
        for pos, p in enumerate(remainder):
            later = remainder[pos + 1:]
            for q, q_s1 in zip(later, s1[pos + 1:]):
                if not s1[pos] or q_s1:
                    base[q][p] = 0
            g.set_many(zip(repeat(rverts[pos]), rverts[pos + 1:], [base[q][p] for q in later]))
        if any(s1):
            M = g.solve()
        self.M = M

    def transpose(self) -> None:
        """D.1 — the S1 players in order each take the highest S2 player that still allows an
        optimum (transpositions of S2, lexicographically), and the pair is fixed."""
        g, verts, nsgbv, base, matched, remainder = (self.g, self.verts, self.nsgbv, self.base,
                                                     self.matched, self.remainder)
        M = self.M
        for pos, p in enumerate(remainder):
            pv = verts[p]
            if pv < M[pv] < nsgbv:
                prev = g.row(pv)
                # the players below p still unpaired, each edge raised by its rank from the
                # bottom (0 for the lowest): the higher the opponent, the more it weighs
                cand = [q for q in remainder[pos + 1:] if not matched[verts[q]]]
                top = len(cand) - 1
                g.set_many([(pv, verts[q], base[q][p] + top - k)
                            for k, q in enumerate(cand) if base[q][p]])
                # the most preferred opponent an optimal pairing can still give p
                target = next((verts[q] for q in cand if base[q][p]
                               and not g.never_optimal(pv, verts[q], prev[verts[q]])), None)
                if M[pv] != target and not (target is not None and g.rotate_in(
                        M, pv, target, prev, [verts[x] for x in remainder
                                              if not matched[verts[x]]])):
                    M = g.solve()
                m = M[pv]
                matched[pv] = matched[m] = True
                g.fix(pv, m)
                if self.on_fix is not None:
                    self.on_fix(pv, m)
        self.M = M

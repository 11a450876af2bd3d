"""FIDE Dutch system, 2025 rules (C.04.3 as revised in 2024, in force from 1 July 2025).

One weighted matching over every player still to be paired carries the whole round: the
players below the current bracket only have to be pairable (C4 completion, C2/C5 bye), the
bracket and the next score group carry the quality criteria, most important first:

| field | criterion |
|---|---|
| completion, bye to a bye candidate (lowest score that allows completion) | C4, C5, C2 |
| pairs in the bracket, scores paired in the bracket | C6, C7 |
| pairs and scores paired in the next bracket | C8 |
| unplayed games of the bye assignee | C9 |
| colour preferences | C10-C13 |
| repeated downfloats / upfloats, 1 and 2 rounds ago | C14-C17 |
| scores of repeated floaters / their opponents | C18-C21 |
| order of transpositions and exchanges | D.1-D.3 (fixed one player at a time) |

Differences from 2017 that show here: a round without a game is a downfloat only if it
scored points (A.4); a full-point bye or forfeit win also uses up the bye (C2); the bye goes
to the lowest score group that allows completion and, there, to the player with the fewest
unplayed games (C5, C9).

The graph's vertices are the players' indices in the round; each bracket's weights are set in
it and, after the first matching, :func:`transforms.fide.dutch.brackets.pair_bracket` (B, D)
pairs the bracket, the same procedure as in 2017. Between brackets this module keeps the
single-downfloater-bye state (C5, C9) and gives large fields a warm start.
"""

from __future__ import annotations

from collections.abc import Callable

from transforms.core.errors import NoValidPairing
from transforms.fide.dutch.brackets import Classes, bits, colour_fields, pair_bracket
from transforms.fide.dutch.criteria import compatible, eligible_for_bye_2025
from transforms.fide.dutch.matching import new_graph
from transforms.fide.dutch.state import (
    DOWN,
    NONE,
    UP,
    WIN,
    Context,
    Player,
    check_bracket,
    float_of,
)


class RoundWeights:
    """Edge weights of the 2025 rules for the current state of the round: the graph
    :func:`pair_brackets` solves holds every player still to be paired."""

    def __init__(self, ctx: Context):
        self.ctx = ctx
        ps = ctx.players
        self.shift: dict[int, int] = {}
        total = 0
        biggest = 0
        i = len(ps) - 1
        while i >= 0:
            j = i
            while j >= 0 and ps[j].score == ps[i].score:
                j -= 1
            count = i - j
            self.shift[ps[i].score] = total
            total += bits(count)
            biggest = max(biggest, count)
            i = j
        self.sg_shift = total
        self.sg_bits = bits(biggest)
        self.bye_score = 0
        self.single_downfloater_bye = False
        self.unplayed_rank: dict[int, int] = {}
        self.elig = {p.sno: eligible_for_bye_2025(p) for p in ps}
        self._keys: dict[int, tuple[object, ...]] = {}
        self._memo: dict[tuple[object, ...], int] = {}

    def bye_candidate(self, p: Player) -> bool:
        """FIDE C.04.3 (2025) C2, C5 — may get the PAB: eligible, score not above the
        assignee's score group."""
        return self.elig[p.sno] and p.score <= self.bye_score

    def _compatible_rows(self, row_value: Callable[[int], list[int]],
                         lower_first: bool) -> list[list[int]]:
        """Row i of the lower triangle (j < i): ``row_value(i)[j]`` where the pair is
        compatible, else 0 — :func:`compatible` (C1 forbidden pairs, C3 absolute colour
        clashes) evaluated a whole row at a time, as ``compatible(ps[j], ps[i])`` or, with
        ``lower_first``, as ``compatible(ps[i], ps[j])``. ``row_value(i)`` must return a new
        list of i values each time: it becomes row i (changed in place)."""
        ctx = self.ctx
        ps = ctx.players
        index = {p.sno: k for k, p in enumerate(ps)}
        barred: dict[int, set[int]] = {}
        for k, p in enumerate(ps):
            if lower_first:  # ps[i].forbidden, as indices
                barred[p.sno] = {index[s] for s in p.forbidden if s in index}
            else:
                for s in p.forbidden:
                    barred.setdefault(s, set()).add(k)
        last = ctx.last_round()
        threshold = (ctx.played_rounds * WIN) >> 1
        topscorer = [last and p.score > threshold for p in ps]
        clash = [p.preference if p.absolute else NONE for p in ps]
        rows = []
        for i, p in enumerate(ps):
            row = row_value(i)  # (a new list of i values: changed in place)
            ci = clash[i]
            if ci != NONE and not topscorer[i]:
                row = [0 if (clash[j] == ci and not topscorer[j]) else v for j, v in enumerate(row)]
            for j in barred.get(p.sno, ()):
                if j < i:
                    row[j] = 0
            rows.append(row)
        return rows

    def outside_rows(self) -> list[list[int]]:
        """Every edge as if both ends were outside the bracket and the next score group:
        row i holds ``weight(ps[j], ps[i], False, False)`` for j < i (same values, computed
        a row at a time: only C4/C5 and C9 are set there)."""
        ps = self.ctx.players
        sgb, sgs = self.sg_bits, self.sg_shift
        floats = min(self.ctx.played_rounds, 2)
        low = 4 * sgb + floats * (2 * sgb + 2 * sgs) + 3 * sgb + 1
        high = 4 * sgb + 2 * sgs
        own = []
        for p in ps:
            a = (not self.bye_candidate(p)) << high
            if self.single_downfloater_bye and p.score == self.bye_score:
                a += self.unplayed_rank[p.played_games]
            own.append(a << low)
        one = 1 << (high + low)
        # (own takes few values: a row shares one int object per value, not one per edge)
        distinct = sorted(set(own))
        pos = {x: k for k, x in enumerate(distinct)}
        cls = [pos[x] for x in own]

        def row_value(i: int) -> list[int]:
            oi = one + own[i]
            sums = [oi + x for x in distinct]
            return list(map(sums.__getitem__, cls[:i]))

        return self._compatible_rows(row_value, False)

    def first_rows(self, top: int) -> list[list[int]]:
        """The first matching of an odd field (C4, C5: the bye to the lowest score group
        that allows completion): row i holds the weight of (ps[j], ps[i]), j < i."""
        ps = self.ctx.players
        nb = [(not self.elig[p.sno]) << self.sg_shift for p in ps]
        sh = [self.shift[p.score] for p in ps]
        sgb = self.sg_bits

        # (a player's (nb, sh) takes few values: one int object per value and row)
        pairs = sorted(set(zip(nb, sh)))
        pos = {x: k for k, x in enumerate(pairs)}
        cls = [pos[x] for x in zip(nb, sh)]

        def row_value(i: int) -> list[int]:
            ni, si = nb[i] + (1 << self.sg_shift), sh[i]
            t = ps[i].score >= top
            vals = [(((ni + b) | (si + h)) << sgb) | t for b, h in pairs]
            return list(map(vals.__getitem__, cls[:i]))

        return self._compatible_rows(row_value, True)

    def _key(self, p: Player) -> tuple[object, ...]:
        """Everything :meth:`weight` reads of a player but the forbidden pairs: bye
        eligibility, score, games played, colour state, floats one and two rounds ago."""
        key = self._keys.get(p.sno)
        if key is None:
            ctx = self.ctx
            key = self._keys[p.sno] = (
                self.elig[p.sno], p.score, p.played_games, p.imbalance, p.repeated,
                p.preference, *(float_of(p, back, ctx) for back in (1, 2)
                                if ctx.played_rounds >= back))
        return key

    def row(self, his: list[Player], lo: Player, lo_in: bool) -> list[int]:
        """``[weight(hi, lo, lo_in, not lo_in) for hi in his]`` (see :meth:`class_row`)."""
        return self.class_row(self.classes(his), len(his), lo, lo_in)

    def classes(self, players: list[Player]) -> Classes:
        """The players grouped by :meth:`_key` (:class:`~transforms.fide.dutch.brackets.Classes`)."""
        return Classes(players, [self._key(p) for p in players])

    def class_row(self, cl: Classes, o: int, lo: Player, lo_in: bool) -> list[int]:
        """``[weight(hi, lo, lo_in, not lo_in) for hi in cl.players[:o]]``. Players with equal
        keys (:meth:`_key`) have equal weights against the same opponent, so each distinct
        combination is computed once (a bracket row of a large field has few)."""
        memo = self._memo
        state = (lo_in, self.single_downfloater_bye, self.bye_score)
        klo = self._key(lo)
        keys, ids, players = cl.keys, cl.ids, cl.players

        def weight_of(p: int) -> int:
            k = (keys[ids[p]], klo, state)
            w = memo.get(k)
            if w is None:
                w = memo[k] = self.weight(players[p], lo, lo_in, not lo_in)
            return w

        return cl.row(o, lo.sno, weight_of, (klo, state))

    def weight(self, hi: Player, lo: Player, lo_in: bool, lo_next: bool) -> int:
        """FIDE C.04.3 (2025) C4-C21 as one integer: higher is better, 0 = not allowed."""
        ctx = self.ctx
        if not compatible(hi, lo, ctx):
            return 0
        sgb, sgs, sh = self.sg_bits, self.sg_shift, self.shift
        w = 1 + (not self.bye_candidate(hi)) + (not self.bye_candidate(lo))
        if not lo_in and not lo_next:
            # Outside the bracket and the next score group (most pairs of a large field)
            # every field but C4/C5 and C9 is empty: the same shifts as below, in two steps.
            w <<= 4 * sgb + 2 * sgs
            if self.single_downfloater_bye:
                if hi.score == self.bye_score:
                    w |= self.unplayed_rank[hi.played_games]
                if lo.score == self.bye_score:
                    w += self.unplayed_rank[lo.played_games]
            floats = min(ctx.played_rounds, 2)
            return w << (4 * sgb + floats * (2 * sgb + 2 * sgs) + 3 * sgb + 1)
        w <<= sgb
        w |= lo_in
        w <<= sgs
        if lo_in:
            w |= 1 << sh[hi.score]
        w <<= sgb
        w |= lo_next
        w <<= sgs
        if lo_next:
            w |= 1 << sh[hi.score]
        w <<= sgb
        w <<= sgb
        if self.single_downfloater_bye:
            if hi.score == self.bye_score:
                w |= self.unplayed_rank[hi.played_games]
            if lo.score == self.bye_score:
                w += self.unplayed_rank[lo.played_games]
        w = colour_fields(w, lo, hi, lo_in, sgb)
        pr = ctx.played_rounds
        for back in (1, 2):
            if pr < back:
                continue
            w <<= sgb
            if lo_in:
                w |= float_of(lo, back, ctx) == DOWN
                w += hi.score <= lo.score and float_of(hi, back, ctx) == DOWN
            w <<= sgb
            if lo_in:
                w |= not (hi.score > lo.score and float_of(lo, back, ctx) == UP)
        for back in (1, 2):
            if pr < back:
                continue
            w <<= sgs
            if lo_in:
                w += (float_of(lo, back, ctx) == DOWN) << sh[lo.score]
                w += (float_of(hi, back, ctx) == DOWN) << sh[hi.score]
            w <<= sgs
            if lo_in and not (float_of(lo, back, ctx) == UP and hi.score > lo.score):
                w |= 1 << sh[hi.score]
        w <<= sgb
        w <<= sgb
        w <<= sgb
        w <<= 1
        return w


def _complete(mate: list[int], ctx: Context, weights: RoundWeights) -> bool:
    """FIDE C.04.3 C4 — everybody paired but at most one player, who may get the bye."""
    unmatched = [v for v, m in enumerate(mate) if m == v]
    if len(unmatched) > 1:
        return False
    return all(weights.elig[ctx.players[v].sno] for v in unmatched)


def pair_brackets(ctx: Context) -> tuple[list[tuple[Player, Player]], Player | None]:
    """FIDE C.04.3 (2025) A.9, B, C, D — pair all brackets; return the pairs and the bye."""
    ps = ctx.players
    N = len(ps)
    W = RoundWeights(ctx)
    g = new_graph(N, ctx.core)
    top = ps[0].score
    # equal weights share one int object (memory; see MatchingGraph.set_many)
    pool: dict[int, int] = {}
    g.set_rows(W.first_rows(top) if N & 1 else W.outside_rows(), pool)
    mate = g.solve()
    if not _complete(mate, ctx, W):
        raise NoValidPairing("the players cannot all be paired without breaking the "
                             "absolute criteria (C.04.3 C1-C3)")
    if N & 1:
        bye_v = next(v for v in range(N) if mate[v] == v)
        W.bye_score = ps[bye_v].score
        if W.bye_score >= top:
            W.single_downfloater_bye = True
            for v in range(N):
                if ps[v].score < top:
                    break
                if ps[mate[v]].score < top:
                    W.single_downfloater_bye = False
                    break
        counts = sorted((p.played_games for p in ps if p.score == W.bye_score), reverse=True)
        for r, c in enumerate(counts):
            W.unplayed_rank[c] = r
        pool = {}
        g.set_rows(W.outside_rows(), pool)

    pairs: dict[int, int] = {}
    matched = [False] * N
    it = 0
    pbi: list[int] = []
    while it < N and ps[it].score >= top:
        pbi.append(it)
        it += 1
    sgb = 0
    sgbv = 0
    while len(pbi) > 1 or it < N:
        nsgb = len(pbi)
        nsgbv = sgbv + (nsgb - sgb)
        sg_it = it
        while it < N and ps[it].score >= (ps[sg_it].score if sg_it < N else 0):
            pbi.append(it)
            it += 1
        n = len(pbi)
        base: list[list[int]] = [[] for _ in range(n)]
        pool = {}
        # (equal weights of the rows are one int object already: RoundWeights' memo)
        cl = W.classes([ps[v] for v in pbi])
        for o in range(sgb, n):
            row = base[o] = W.class_row(cl, o, ps[pbi[o]], o < nsgb)
            g.set_edges(pbi[o], pbi, row)
        if n == N > 150:
            # the bracket and the next score group are the whole field (round 1): its own
            # optimum from a cold start beats a warm start from the first matching
            g.forget()
        elif n > 150:
            # warm-start hint for large fields: the bracket's own optimum
            local = new_graph(n, ctx.core)
            for o in range(sgb, n):
                local.set_edges(o, None, base[o])
            for a in range(sgb):
                for b in range(a):
                    wt = g.weight(pbi[a], pbi[b])
                    if wt:
                        local.set(a, b, wt)
            local.solve()
            g.seed_from(local, pbi)
            del local  # (free its matrix before the big solve)

        # checked against a recorded pairing: each pair as pair_bracket fixes it (every pair
        # of a bracket is fixed there, and is final: ``check_bracket``)
        score = ps[pbi[sgb]].score if sgb < nsgb else ps[pbi[0]].score

        def check_fixed(v: int, m: int, score: int = score) -> None:
            check_bracket(ctx, score, [(ps[v], ps[m])])

        M = pair_bracket(g, pbi, sgb, nsgb, sgbv, nsgbv, base, W.sg_bits,
                         [ps[v].score for v in pbi], matched, pool,
                         None if ctx.against is None else check_fixed)

        # carry the unpaired players to the next bracket
        nxt_score = ps[sg_it].score if sg_it < N else None
        W.single_downfloater_bye = bool(N & 1 and nxt_score is not None
                                        and W.bye_score >= nxt_score)
        new_pbi = []
        new_sgb = 0
        for idx in range(n):
            v = pbi[idx]
            if idx < nsgb and matched[v]:
                pairs[v] = M[v]
                pairs[M[v]] = v
            else:
                new_pbi.append(v)
                if idx < nsgb:
                    new_sgb += 1
                if (W.single_downfloater_bye and nxt_score is not None
                        and ps[M[v]].score < nxt_score):
                    W.single_downfloater_bye = False
        pbi = new_pbi
        sgb = new_sgb
        sgbv = nsgbv
    result = [(ps[v], ps[m]) for v, m in pairs.items() if v < m]
    bye = next((ps[v] for v in range(N) if v not in pairs), None)
    return result, bye

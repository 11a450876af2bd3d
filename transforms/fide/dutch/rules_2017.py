"""FIDE Dutch system, 2017 rules (C.04.3 as in force until 30 June 2025).

Brackets are paired from the top score down. Each bracket is one weighted matching over
the bracket (moved-down players first, then residents) and the next score group, whose
edge weights hold the quality criteria, most important first:

| field | criterion |
|---|---|
| completion, bye eligibility (PPB / last bracket) | C4, C2 |
| pairs in the bracket | C5 (maximise pairs) |
| score differences in the bracket | C6 (minimise PSD) |
| pairs and PSD in the next bracket | C7 |
| colour preferences | C8-C11 (topscorers' colour difference and repeats, preferences, strong preferences) |
| repeated downfloats / upfloats, 1 and 2 rounds ago | C12-C15 |
| their score differences | C16-C19 |
| order of transpositions and exchanges | D.1-D.3 (fixed one player at a time) |

After a bracket, if the remaining players cannot all be paired (C4 completion), the bracket
is re-paired together with everything below it (it is the penultimate pairing bracket).

Each bracket is a graph of its own, its vertices the bracket's local indices; after the first
matching, :func:`transforms.fide.dutch.brackets.pair_bracket` (B, D) pairs it, the same
procedure as in 2025.
"""

from __future__ import annotations

from transforms.core.errors import NoValidPairing
from transforms.fide.dutch.brackets import Classes, bits, colour_fields, pair_bracket
from transforms.fide.dutch.criteria import compatible, compatible_rows, eligible_for_bye_2017
from transforms.fide.dutch.matching import new_graph
from transforms.fide.dutch.state import DOWN, UP, Context, Player, check_bracket, float_of


class BracketWeights:
    """Edge weights of the 2017 rules for one pairing bracket (moved-down players, residents,
    next score group): the graph :func:`pair_brackets` solves holds only the bracket."""

    def __init__(self, ctx: Context, pbi: list[Player], sgb: int, nsgb: int, special: bool,
                 final: bool):
        self.ctx, self.pbi, self.sgb, self.nsgb = ctx, pbi, sgb, nsgb
        self.special, self.final = special, final
        self.minscore = pbi[-1].score
        keys: list[int] = []
        for i in range(nsgb):
            si = pbi[i].score
            keys.append(si - self.minscore + 10)
            first = max(sgb, i + 1)
            for o in range(first, nsgb):
                if o <= first or pbi[o].score < pbi[o - 1].score:
                    keys.append(si - pbi[o].score)
        keys.sort()
        self.sd: dict[int, int] = {}
        shift = 0
        k = 0
        while k < len(keys):
            j = k
            while j < len(keys) and keys[j] == keys[k]:
                j += 1
            self.sd[keys[k]] = shift
            shift += bits(j - k)
            k = j
        self.sds = shift
        self.pcb = bits(nsgb - sgb)
        self.ncb = bits(len(pbi) - nsgb)
        self._keys: dict[int, tuple[object, ...]] = {}
        self._memo: dict[tuple[object, ...], int] = {}
        self._classes: Classes | None = None

    def _key(self, p: Player) -> tuple[object, ...]:
        """Everything :meth:`weight` reads of a player but the forbidden pairs: bye
        eligibility, score, colour state, floats one and two rounds ago."""
        key = self._keys.get(p.sno)
        if key is None:
            ctx = self.ctx
            key = self._keys[p.sno] = (
                eligible_for_bye_2017(p), p.score, p.imbalance, p.repeated, p.preference,
                *(float_of(p, back, ctx) for back in (1, 2) if ctx.played_rounds >= back))
        return key

    def row(self, o: int) -> list[int]:
        """``[weight(pbi[p], pbi[o], p < nsgb, o < nsgb) for p < o]``. Players of one class
        (:class:`~transforms.fide.dutch.brackets.Classes`: equal :meth:`_key`, the same side of
        the bracket) weigh the same against the same opponent, so each distinct combination
        is computed once."""
        pbi, nsgb, memo = self.pbi, self.nsgb, self._memo
        cl = self._classes
        if cl is None:
            cl = self._classes = Classes(pbi, [(self._key(p), i < nsgb)
                                               for i, p in enumerate(pbi)])
        lo = pbi[o]
        klo, lo_in = self._key(lo), o < nsgb
        keys, ids = cl.keys, cl.ids

        def weight_of(p: int) -> int:
            k = (keys[ids[p]], klo, lo_in)
            w = memo.get(k)
            if w is None:
                w = memo[k] = self.weight(pbi[p], lo, p < nsgb, lo_in)
            return w

        return cl.row(o, lo.sno, weight_of, (klo, lo_in))

    def bit(self, key: int) -> int:
        return 1 << self.sd[key]

    def weight(self, hi: Player, lo: Player, hi_in: bool, lo_in: bool) -> int:
        """FIDE C.04.3 (2017) C4-C19 as one integer: higher is better, 0 = not allowed."""
        ctx = self.ctx
        if not compatible(hi, lo, ctx):
            return 0
        pcb, sds, mn = self.pcb, self.sds, self.minscore
        w = 0
        if self.special:
            w = 1 + (not eligible_for_bye_2017(hi)) + (not eligible_for_bye_2017(lo))
        w <<= pcb
        w |= lo_in
        w <<= sds
        if lo_in:
            w += self.bit(hi.score - mn + 10) + self.bit(lo.score - mn + 10)
            w -= self.bit(hi.score - lo.score)
        if not self.special:
            if self.final:
                w <<= max(pcb, self.ncb)
                w <<= 3
                w |= 1 + (not eligible_for_bye_2017(hi)) + (not eligible_for_bye_2017(lo))
            else:
                w <<= self.ncb
                w |= not lo_in
            w <<= sds
            if hi_in:
                w |= self.bit(hi.score - mn + 10)
            if lo_in:
                w += self.bit(lo.score - mn + 10)
        w = colour_fields(w, lo, hi, lo_in, pcb)
        pr = ctx.played_rounds
        for back in (1, 2):
            if pr < back:
                continue
            w <<= pcb
            if lo_in:
                w |= float_of(lo, back, ctx) == DOWN
                w += hi.score <= lo.score and float_of(hi, back, ctx) == DOWN
            w <<= pcb
            w -= lo_in and hi.score > lo.score and float_of(lo, back, ctx) == UP
        for back in (1, 2):
            if pr < back:
                continue
            w <<= sds
            if lo_in:
                if float_of(lo, back, ctx) == DOWN:
                    w += self.bit(lo.score - mn + 10)
                if float_of(hi, back, ctx) == DOWN:
                    w += self.bit(hi.score - mn + 10)
                    if hi.score > lo.score:
                        w -= self.bit(hi.score - lo.score)
            w <<= sds
            if lo_in and float_of(lo, back, ctx) == UP and hi.score > lo.score:
                w -= self.bit(hi.score - lo.score)
        # room for the transposition / exchange order
        w <<= pcb
        w <<= pcb
        w <<= pcb
        w <<= 1
        return w


class _Completion:
    """FIDE C.04.3 C4 — can the players not yet paired all be paired (one of them, when the
    total is odd, with the bye)? One cardinality matching over the whole round, kept up to
    date as pairs are made."""

    def __init__(self, players: list[Player], ctx: Context):
        self.index = {p.sno: i for i, p in enumerate(players)}
        n = self.n = len(players) + (len(players) & 1)
        self.g = new_graph(n, ctx.core)
        rows = compatible_rows(players, ctx)
        if len(players) & 1:
            rows.append([1 if eligible_for_bye_2017(a) else 0 for a in players])
        self.g.set_rows(rows)

    def with_pairs(self, pairs: list[tuple[int, int]]) -> bool:
        for a, b in pairs:
            i, j = self.index[a], self.index[b]
            if self.g.fixed.get(i) != j:
                self.g.fix(i, j)
        mate = self.g.solve()
        return all(mate[v] != v for v in range(self.n))


def pair_brackets(ctx: Context) -> tuple[list[tuple[Player, Player]], Player | None]:
    """FIDE C.04.3 (2017) A.9, B, C, D — pair all brackets; return the pairs and the bye."""
    players = ctx.players
    N = len(players)
    completion = _Completion(players, ctx)
    if not completion.with_pairs([]):
        raise NoValidPairing("the players cannot all be paired without breaking the "
                             "absolute criteria (C.04.3 C1-C3)")
    paired_snos: set[int] = set()
    result: list[tuple[Player, Player]] = []
    it = 0
    pbi: list[Player] = []
    top = players[0].score
    while it < N and players[it].score >= top:
        pbi.append(players[it])
        it += 1
    special = it == N
    sgb = 0
    while len(pbi) > 1 or it < N:
        nsgb = len(pbi)
        sg_it = it
        while it < N and (special or players[it].score >= players[sg_it].score):
            pbi.append(players[it])
            it += 1
        final = it == N
        br = BracketWeights(ctx, pbi, sgb, nsgb, special, final)
        n = len(pbi)
        base: list[list[int]] = [[] for _ in range(n)]
        g = new_graph(n, ctx.core)
        # (equal weights of the rows are one int object already: BracketWeights' memo)
        pool: dict[int, int] = {}
        for o in range(sgb, n):
            row = base[o] = br.row(o)
            g.set_edges(o, None, row)
        matched = [False] * n
        M = pair_bracket(g, list(range(n)), sgb, nsgb, sgb, nsgb, base, br.pcb,
                         [p.score for p in pbi], matched, pool)

        if not special:
            made = [(pbi[i].sno, pbi[M[i]].sno) for i in range(nsgb)
                    if matched[i] and i < M[i]]
            if not completion.with_pairs(made):
                # C4 — this is the penultimate pairing bracket: pair it with all the rest
                del pbi[nsgb:]
                it = sg_it
                special = True
                continue

        if ctx.against is not None:
            check_bracket(ctx, pbi[sgb].score if sgb < nsgb else pbi[0].score,
                          [(pbi[i], pbi[M[i]]) for i in range(nsgb) if matched[i]])
        special = it == N
        new_pbi = []
        new_sgb = 0
        for idx in range(n):
            if idx < nsgb and matched[idx]:
                m = M[idx]
                if idx < m:
                    result.append((pbi[idx], pbi[m]))
                    paired_snos.add(pbi[idx].sno)
                    paired_snos.add(pbi[m].sno)
            else:
                new_pbi.append(pbi[idx])
                if idx < nsgb:
                    new_sgb += 1
        pbi = new_pbi
        sgb = new_sgb
    bye = None
    for p in players:
        if p.sno not in paired_snos:
            bye = p
    return result, bye

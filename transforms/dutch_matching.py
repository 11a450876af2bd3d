"""Maximum-weight matching on a general graph (Edmonds' blossom method, primal-dual).

The Dutch engine encodes the FIDE C.04.3 quality criteria lexicographically in big integer
edge weights, so the solver must be exact: Python ints, no floating point. Written for this
project from the textbook description of the algorithm (Edmonds 1965; Galil, "Efficient
algorithms for finding maximum matching in graphs", 1986): alternating trees with S/T
labels, blossoms shrunk and expanded, dual variables adjusted by the four delta rules.

Weights are given as a symmetric matrix ``w[i][j]`` (0 = no edge). A maximum-weight (not
maximum-cardinality) matching is returned as ``mate`` (``-1`` = unmatched); the engine puts
cardinality at the top of its weights, so the two coincide where it matters.
"""

from __future__ import annotations

_FREE, _S, _T = 0, 1, 2


def max_weight_matching(w: list[list[int]]) -> list[int]:
    """Return ``mate`` for a maximum-weight matching of the graph with weight matrix ``w``."""
    return _Solver(w).solve()


def max_weight_matching_warm(w: list[list[int]], mate: list[int] | None,
                             dual: list[int] | None, scale: int = 2
                             ) -> tuple[list[int], list[int], int]:
    """Maximum-weight matching started from a previous optimum (``mate``, vertex ``dual``
    in units of ``scale`` × weight) after some weights changed. Duals too low for the new
    weights are raised and the edges that stop being tight are unmatched; the solver then
    only repairs what changed. Returns the new (mate, dual, scale)."""
    n = len(w)
    if mate is None or dual is None:
        sv = _Solver(w)
    else:
        mate = list(mate)
        u = list(dual)
        for i in range(n):
            row = w[i]
            need = 0
            for j in range(n):
                x = row[j]
                if x > 0:
                    d = scale * x - u[j]
                    if d > need:
                        need = d
            if u[i] < need:
                u[i] = need
                m = mate[i]
                if m != -1:
                    mate[m] = -1
                    mate[i] = -1
        for i in range(n):
            m = mate[i]
            if m <= i:
                continue
            if w[i][m] <= 0:
                mate[i] = mate[m] = -1
                continue
            gap = u[i] + u[m] - scale * w[i][m]
            # a matched edge that got lighter: lower its ends' duals as far as their other
            # edges allow, so that it stays tight
            for a, b in ((i, m), (m, i)):
                if gap <= 0:
                    break
                room = u[a]
                row = w[a]
                ua = u[a]
                for k in range(n):
                    x = row[k]
                    if x > 0 and k != b:
                        sl = ua + u[k] - scale * x
                        if sl < room:
                            room = sl
                step = min(gap, room)
                if step > 0:
                    u[a] -= step
                    gap -= step
            if gap != 0:
                mate[i] = mate[m] = -1
        sv = _Solver(w, mate, u, scale)
    m = sv.solve()
    return m, sv.vertex_duals(), sv.scale


class _Solver:
    """Primal-dual solver. Started cold (all duals at the largest weight) or warm from a
    matching and vertex duals that are feasible with every matched edge tight: exposed
    vertices whose dual is still positive are the roots of the alternating trees, and a
    vertex whose dual reaches zero may be left exposed (complementary slackness)."""

    def __init__(self, w: list[list[int]], mate: list[int] | None = None,
                 dual: list[int] | None = None, scale: int = 2):
        n = self.n = len(w)
        self.scale = scale
        self.w = [[scale * x for x in row] for row in w]
        self.nbrs = [[j for j, x in enumerate(row) if x > 0 and j != i]
                     for i, row in enumerate(w)]
        if mate is None or dual is None:
            # Cold start: each vertex's dual is its heaviest edge (feasible), and the edges
            # that are the heaviest for both ends are tight and matched greedily.
            half = [max(row, default=0) // 2 for row in self.w]
            mate = [-1] * n
            for i in range(n):
                if mate[i] != -1:
                    continue
                row = self.w[i]
                hi = half[i]
                for j in self.nbrs[i]:
                    if mate[j] == -1 and j != i and hi + half[j] == row[j]:
                        mate[i], mate[j] = j, i
                        break
            dual = half
        self.mate = list(mate)
        self.dual = list(dual) + [0] * n
        self.label = [_FREE] * (2 * n)
        self.labelend: list[tuple[int, int] | None] = [None] * (2 * n)
        self.inblossom = list(range(n))
        self.parent = [-1] * (2 * n)
        self.childs: list[list[int]] = [[] for _ in range(2 * n)]
        self.edges: list[list[tuple[int, int]]] = [[] for _ in range(2 * n)]
        self.base = list(range(n)) + [-1] * n
        self.bestedge: list[tuple[int, int] | None] = [None] * (2 * n)
        self.bbest: list[list[tuple[int, int]] | None] = [None] * (2 * n)
        self.unused = list(range(2 * n - 1, n - 1, -1))
        self.queue: list[int] = []

    # -- helpers ---------------------------------------------------------------------------
    def slack(self, i: int, j: int) -> int:
        return self.dual[i] + self.dual[j] - self.w[i][j]

    def leaves(self, b: int):
        if b < self.n:
            yield b
            return
        stack = [b]
        n = self.n
        while stack:
            x = stack.pop()
            if x < n:
                yield x
            else:
                stack.extend(self.childs[x])

    # -- labels ----------------------------------------------------------------------------
    def assign_label(self, v: int, t: int, edge: tuple[int, int] | None) -> None:
        """Label the top blossom of ``v`` with ``t``; ``edge`` = (outside vertex, v)."""
        while True:
            b = self.inblossom[v]
            self.label[v] = self.label[b] = t
            self.labelend[v] = self.labelend[b] = edge
            self.bestedge[v] = self.bestedge[b] = None
            if t == _S:
                self.queue.extend(self.leaves(b))
                return
            base = self.base[b]
            m = self.mate[base]
            v, t, edge = m, _S, (base, m)

    def scan_blossom(self, v: int, w: int) -> int:
        """Trace from v and w to the roots; return the base of a new blossom or -1."""
        path = []
        base = -1
        while v != -1 or w != -1:
            b = self.inblossom[v]
            if self.label[b] & 4:
                base = self.base[b]
                break
            path.append(b)
            self.label[b] = _S | 4
            le = self.labelend[b]
            if le is None:
                v = -1
            else:
                t = le[0]
                bt = self.inblossom[t]
                v = self.labelend[bt][0]
            if w != -1:
                v, w = w, v
        for b in path:
            self.label[b] = _S
        return base

    def add_blossom(self, base: int, v: int, w: int) -> None:
        inb = self.inblossom
        bb, bv, bw = inb[base], inb[v], inb[w]
        b = self.unused.pop()
        self.base[b] = base
        self.parent[b] = -1
        self.parent[bb] = b
        vpath, vedges = [], []
        while bv != bb:
            self.parent[bv] = b
            vpath.append(bv)
            le = self.labelend[bv]
            vedges.append(le)
            bv = inb[le[0]]
        wpath, wedges = [], []
        while bw != bb:
            self.parent[bw] = b
            wpath.append(bw)
            le = self.labelend[bw]
            wedges.append((le[1], le[0]))
            bw = inb[le[0]]
        self.childs[b] = [bb] + vpath[::-1] + wpath
        self.edges[b] = vedges[::-1] + [(v, w)] + wedges
        self.label[b] = _S
        self.labelend[b] = self.labelend[bb]
        self.dual[b] = 0
        for x in self.leaves(b):
            if self.label[inb[x]] == _T:
                self.queue.append(x)
            inb[x] = b
        # least-slack edges from the new blossom to other S-blossoms
        best: dict[int, tuple[int, int, int]] = {}
        label, dual, W, nbrs = self.label, self.dual, self.w, self.nbrs
        for c in self.childs[b]:
            cb = self.bbest[c]
            if cb is None:
                for i in self.leaves(c):
                    di = dual[i]
                    wi = W[i]
                    for j in nbrs[i]:
                        bj = inb[j]
                        if bj != b and label[bj] == _S:
                            sl = di + dual[j] - wi[j]
                            cur = best.get(bj)
                            if cur is None or sl < cur[0]:
                                best[bj] = (sl, i, j)
            else:
                for (i, j) in cb:
                    bj = inb[j]
                    if bj != b and label[bj] == _S:
                        sl = dual[i] + dual[j] - W[i][j]
                        cur = best.get(bj)
                        if cur is None or sl < cur[0]:
                            best[bj] = (sl, i, j)
            self.bbest[c] = None
            self.bestedge[c] = None
        self.bbest[b] = [(i, j) for (_, i, j) in best.values()]
        be = min(best.values(), default=None)
        self.bestedge[b] = None if be is None else (be[1], be[2])

    def expand_blossom(self, b: int, endstage: bool) -> None:
        inb = self.inblossom
        for s in self.childs[b]:
            self.parent[s] = -1
            if s < self.n:
                inb[s] = s
            elif endstage and self.dual[s] == 0:
                self.expand_blossom(s, endstage)
            else:
                for x in self.leaves(s):
                    inb[x] = s
        if not endstage and self.label[b] == _T:
            childs, edges = self.childs[b], self.edges[b]
            L = len(childs)
            entry = inb[self.labelend[b][1]]
            j = childs.index(entry)
            jstep = 1 if j & 1 else -1
            p = self.labelend[b]
            while j % L != 0:
                y = p[1]
                self.label[y] = _FREE
                self.label[inb[y]] = _FREE
                self.assign_label(y, _T, p)
                j += jstep
                if jstep == 1:
                    p = edges[j % L]
                else:
                    x0, y0 = edges[(j - 1) % L]
                    p = (y0, x0)
                j += jstep
            bv = childs[0]
            self.label[p[1]] = self.label[bv] = _T
            self.labelend[p[1]] = self.labelend[bv] = p
            self.bestedge[bv] = None
            j += jstep
            while childs[j % L] != entry:
                bv = childs[j % L]
                if self.label[bv] == _S:
                    j += jstep
                    continue
                found = -1
                for x in self.leaves(bv):
                    if self.label[x] != _FREE:
                        found = x
                        break
                if found != -1:
                    self.label[found] = _FREE
                    self.label[self.mate[self.base[bv]]] = _FREE
                    self.assign_label(found, _T, self.labelend[found])
                j += jstep
        self.label[b] = _FREE
        self.labelend[b] = None
        self.childs[b] = []
        self.edges[b] = []
        self.base[b] = -1
        self.bbest[b] = None
        self.bestedge[b] = None
        self.unused.append(b)

    def augment_blossom(self, b: int, v: int) -> None:
        """Make v the base of blossom b (rotating the matching inside)."""
        t = v
        while self.parent[t] != b:
            t = self.parent[t]
        if t >= self.n:
            self.augment_blossom(t, v)
        childs, edges = self.childs[b], self.edges[b]
        L = len(childs)
        i = j = childs.index(t)
        jstep = 1 if i & 1 else -1
        while j % L != 0:
            j += jstep
            j += jstep
            if jstep == 1:
                x, y = edges[(j - 1) % L]
            else:
                y, x = edges[j % L]
            cx, cy = childs[(j - jstep) % L], childs[j % L]
            if cx >= self.n:
                self.augment_blossom(cx, x)
            if cy >= self.n:
                self.augment_blossom(cy, y)
            self.mate[x] = y
            self.mate[y] = x
        self.childs[b] = childs[i:] + childs[:i]
        self.edges[b] = edges[i:] + edges[:i]
        self.base[b] = v

    def augment_matching(self, v: int, w: int) -> None:
        for s, j in ((v, w), (w, v)):
            while True:
                bs = self.inblossom[s]
                if bs >= self.n:
                    self.augment_blossom(bs, s)
                self.mate[s] = j
                le = self.labelend[bs]
                if le is None:
                    break
                t = le[0]
                bt = self.inblossom[t]
                s2, j2 = self.labelend[bt]
                if bt >= self.n:
                    self.augment_blossom(bt, j2)
                self.mate[j2] = s2
                s, j = s2, j2

    # -- main loop -------------------------------------------------------------------------
    def solve(self) -> list[int]:
        n = self.n
        if n == 0:
            return []
        while True:
            self.label = [_FREE] * (2 * n)
            self.labelend = [None] * (2 * n)
            self.bestedge = [None] * (2 * n)
            for b in range(n, 2 * n):
                self.bbest[b] = None
            self.queue = []
            roots = False
            for v in range(n):
                if (self.mate[v] == -1 and self.dual[v] > 0
                        and self.label[self.inblossom[v]] == _FREE):
                    self.assign_label(v, _S, None)
                    roots = True
            if not roots:
                break
            augmented = False
            while True:
                label, inb, dual, mate, base = (self.label, self.inblossom, self.dual,
                                                self.mate, self.base)
                bestedge, queue = self.bestedge, self.queue
                while queue and not augmented:
                    v = queue.pop()
                    bv = inb[v]
                    dv = dual[v]
                    wrow = self.w[v]
                    for w in self.nbrs[v]:
                        bw = inb[w]
                        if bv == bw:
                            continue
                        ks = dv + dual[w] - wrow[w]
                        lbw = label[bw]
                        if ks <= 0:
                            if lbw == _FREE:
                                if mate[base[bw]] == -1:
                                    # an exposed vertex with zero dual: augmenting path
                                    self.augment_matching(v, w)
                                    augmented = True
                                    break
                                self.assign_label(w, _T, (v, w))
                            elif lbw == _S:
                                b0 = self.scan_blossom(v, w)
                                if b0 >= 0:
                                    self.add_blossom(b0, v, w)
                                    bv = inb[v]
                                else:
                                    self.augment_matching(v, w)
                                    augmented = True
                                    break
                            elif label[w] == _FREE:
                                label[w] = _T
                                self.labelend[w] = (v, w)
                        elif lbw == _S:
                            cur = bestedge[bv]
                            if cur is None or ks < dual[cur[0]] + dual[cur[1]] - self.w[cur[0]][cur[1]]:
                                bestedge[bv] = (v, w)
                        elif label[w] == _FREE:
                            cur = bestedge[w]
                            if cur is None or ks < dual[cur[0]] + dual[cur[1]] - self.w[cur[0]][cur[1]]:
                                bestedge[w] = (v, w)
                if augmented:
                    break
                # dual adjustment
                for b in range(2 * n):
                    if (self.parent[b] == -1 and self.label[b] == _S
                            and self.bestedge[b] is not None and (b < n or self.base[b] >= 0)
                            and self.slack(*self.bestedge[b]) % 2):
                        self.rescale()
                        break
                dtype, delta, dedge, dblossom = 1, None, None, -1
                dvertex = -1
                for v in range(n):
                    if self.label[self.inblossom[v]] == _S and (
                            delta is None or self.dual[v] < delta):
                        delta, dvertex = self.dual[v], v
                for v in range(n):
                    if self.label[self.inblossom[v]] == _FREE and self.bestedge[v] is not None:
                        d = self.slack(*self.bestedge[v])
                        if d < delta:
                            dtype, delta, dedge = 2, d, self.bestedge[v]
                for b in range(2 * n):
                    if (self.parent[b] == -1 and self.label[b] == _S
                            and self.bestedge[b] is not None and (b < n or self.base[b] >= 0)):
                        d = self.slack(*self.bestedge[b]) // 2
                        if d < delta:
                            dtype, delta, dedge = 3, d, self.bestedge[b]
                for b in range(n, 2 * n):
                    if (self.base[b] >= 0 and self.parent[b] == -1 and self.label[b] == _T
                            and self.dual[b] < delta):
                        dtype, delta, dblossom = 4, self.dual[b], b
                for v in range(n):
                    lb = self.label[self.inblossom[v]]
                    if lb == _S:
                        self.dual[v] -= delta
                    elif lb == _T:
                        self.dual[v] += delta
                for b in range(n, 2 * n):
                    if self.base[b] >= 0 and self.parent[b] == -1:
                        if self.label[b] == _S:
                            self.dual[b] += delta
                        elif self.label[b] == _T:
                            self.dual[b] -= delta
                if dtype == 1:
                    if self.mate[dvertex] != -1:
                        # leave dvertex exposed: flip the even path from its root
                        self.flip_to_exposed(dvertex)
                    break
                if dtype == 2:
                    i, j = dedge
                    if self.label[self.inblossom[i]] == _FREE:
                        i, j = j, i
                    self.queue.append(i)
                elif dtype == 3:
                    i, j = dedge
                    self.queue.append(i)
                else:
                    self.expand_blossom(dblossom, False)
            for b in range(n, 2 * n):
                if (self.parent[b] == -1 and self.base[b] >= 0 and self.label[b] == _S
                        and self.dual[b] == 0):
                    self.expand_blossom(b, True)
        return self.mate

    def rescale(self) -> None:
        """Double weights and duals so that half a slack stays integral."""
        self.scale *= 2
        self.w = [[2 * x for x in row] for row in self.w]
        self.dual = [2 * d for d in self.dual]

    def flip_to_exposed(self, v: int) -> None:
        s, j = v, -1
        while True:
            bs = self.inblossom[s]
            if bs >= self.n:
                self.augment_blossom(bs, s)
            self.mate[s] = j
            le = self.labelend[bs]
            if le is None:
                break
            t = le[0]
            bt = self.inblossom[t]
            s2, j2 = self.labelend[bt]
            if bt >= self.n:
                self.augment_blossom(bt, j2)
            self.mate[j2] = s2
            s, j = s2, j2

    def vertex_duals(self) -> list[int]:
        """Vertex duals with every blossom dissolved into its vertices (feasible, but the
        edge from a blossom base to its outside mate may no longer be tight)."""
        out = self.dual[:self.n]
        for v in range(self.n):
            b = self.parent[v]
            while b != -1:
                out[v] += self.dual[b]
                b = self.parent[b]
        return out


class MatchingGraph:
    """A weighted graph the Dutch engine re-solves after each change of weights.

    ``solve()`` returns ``mate`` with an unmatched vertex mapped to itself. Pairs fixed with
    :meth:`fix` are taken out of the graph (they are matched to each other in every optimum).
    """

    def __init__(self, n: int):
        self.n = n
        self.w = [[0] * n for _ in range(n)]
        self.fixed: dict[int, int] = {}
        self.solves = 0
        self._mate: list[int] | None = None
        self._dual: list[int] = []
        self._scale = 2

    def set(self, i: int, j: int, weight: int) -> None:
        self.w[i][j] = weight
        self.w[j][i] = weight

    def swap_in(self, mate: list[int], p: int, q: int, prev: list[int]) -> bool:
        """Give ``p`` the opponent ``q`` by exchanging partners with ``q``'s mate, if that
        loses nothing under the weights for which ``mate`` is optimal (``prev``: ``p``'s
        edge weights before they were raised). Then ``mate`` (updated in place) is still
        optimal and gives ``p`` the edge raised most, so no re-solve is needed."""
        mp, mq = mate[p], mate[q]
        old = (prev[mp] if mp != p else 0) + (self.w[q][mq] if mq != q else 0)
        new = prev[q]
        if new <= 0:
            return False
        if mp != p and mq != q:
            x = self.w[mp][mq]
            if x <= 0:
                return False
            new += x
        if new != old:
            return False
        if mp != p:
            mate[mp] = mp
        if mq != q:
            mate[mq] = mq
        if mp != p and mq != q:
            mate[mp], mate[mq] = mq, mp
        mate[p], mate[q] = q, p
        if self._mate is not None:
            for v in range(self.n):
                self._mate[v] = -1 if mate[v] == v else mate[v]
        return True

    def fix(self, i: int, j: int) -> None:
        self.fixed[i] = j
        self.fixed[j] = i

    def solve(self) -> list[int]:
        """Re-optimise after the changes since the last call (warm start)."""
        self.solves += 1
        free = [v for v in range(self.n) if v not in self.fixed]
        pos = {v: k for k, v in enumerate(free)}
        sub = [[self.w[a][b] for b in free] for a in free]
        if self._mate is None:
            m, u, self._scale = max_weight_matching_warm(sub, None, None)
        else:
            smate = [pos.get(self._mate[a], -1) if self._mate[a] != -1 else -1 for a in free]
            sdual = [self._dual[a] for a in free]
            m, u, self._scale = max_weight_matching_warm(sub, smate, sdual, self._scale)
        self._mate = [-1] * self.n
        self._dual = [0] * self.n
        for k, a in enumerate(free):
            self._dual[a] = u[k]
            if m[k] != -1:
                self._mate[a] = free[m[k]]
        mate = list(range(self.n))
        for v, u2 in self.fixed.items():
            mate[v] = u2
        for a in free:
            if self._mate[a] != -1:
                mate[a] = self._mate[a]
        return mate

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


class _Solver:
    def __init__(self, w: list[list[int]]):
        n = self.n = len(w)
        # Doubled weights keep every dual change integral.
        self.w = [[2 * x for x in row] for row in w]
        self.nbrs = [[j for j in range(n) if j != i and w[i][j] > 0] for i in range(n)]
        maxw = max((x for row in self.w for x in row), default=0)
        self.mate = [-1] * n
        self.dual = [maxw] * n + [0] * n
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
        self.allowed: set[tuple[int, int]] = set()
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

    def allow(self, i: int, j: int) -> None:
        self.allowed.add((i, j) if i < j else (j, i))

    def is_allowed(self, i: int, j: int) -> bool:
        return ((i, j) if i < j else (j, i)) in self.allowed

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
        best: dict[int, tuple[int, int]] = {}
        for c in self.childs[b]:
            if self.bbest[c] is None:
                cand = [(i, j) for i in self.leaves(c) for j in self.nbrs[i]]
            else:
                cand = self.bbest[c]
            for (i, j) in cand:
                bj = inb[j]
                if bj != b and self.label[bj] == _S:
                    cur = best.get(bj)
                    if cur is None or self.slack(i, j) < self.slack(*cur):
                        best[bj] = (i, j)
            self.bbest[c] = None
            self.bestedge[c] = None
        self.bbest[b] = list(best.values())
        be = None
        for e in self.bbest[b]:
            if be is None or self.slack(*e) < self.slack(*be):
                be = e
        self.bestedge[b] = be

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
                self.allow(*p)
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
        for _stage in range(n):
            self.label = [_FREE] * (2 * n)
            self.bestedge = [None] * (2 * n)
            for b in range(n, 2 * n):
                self.bbest[b] = None
            self.allowed = set()
            self.queue = []
            for v in range(n):
                if self.mate[v] == -1 and self.label[self.inblossom[v]] == _FREE:
                    self.assign_label(v, _S, None)
            augmented = False
            while True:
                while self.queue and not augmented:
                    v = self.queue.pop()
                    bv = self.inblossom[v]
                    for w in self.nbrs[v]:
                        bw = self.inblossom[w]
                        if bv == bw:
                            continue
                        if not self.is_allowed(v, w):
                            ks = self.slack(v, w)
                            if ks <= 0:
                                self.allow(v, w)
                        if self.is_allowed(v, w):
                            if self.label[bw] == _FREE:
                                self.assign_label(w, _T, (v, w))
                            elif self.label[bw] == _S:
                                base = self.scan_blossom(v, w)
                                if base >= 0:
                                    self.add_blossom(base, v, w)
                                    bv = self.inblossom[v]
                                else:
                                    self.augment_matching(v, w)
                                    augmented = True
                                    break
                            elif self.label[w] == _FREE:
                                self.label[w] = _T
                                self.labelend[w] = (v, w)
                        elif self.label[bw] == _S:
                            cur = self.bestedge[bv]
                            if cur is None or ks < self.slack(*cur):
                                self.bestedge[bv] = (v, w)
                        elif self.label[w] == _FREE:
                            cur = self.bestedge[w]
                            if cur is None or ks < self.slack(*cur):
                                self.bestedge[w] = (v, w)
                if augmented:
                    break
                # dual adjustment
                dtype, delta, dedge, dblossom = 1, min(self.dual[:n]), None, -1
                for v in range(n):
                    if self.label[self.inblossom[v]] == _FREE and self.bestedge[v] is not None:
                        d = self.slack(*self.bestedge[v])
                        if d < delta:
                            dtype, delta, dedge = 2, d, self.bestedge[v]
                for b in range(2 * n):
                    if (self.parent[b] == -1 and self.label[b] == _S
                            and self.bestedge[b] is not None and (b < n or self.base[b] >= 0)):
                        d = self.slack(*self.bestedge[b])
                        assert d % 2 == 0
                        d //= 2
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
                    break
                if dtype == 2:
                    i, j = dedge
                    self.allow(i, j)
                    if self.label[self.inblossom[i]] == _FREE:
                        i, j = j, i
                    self.queue.append(i)
                elif dtype == 3:
                    i, j = dedge
                    self.allow(i, j)
                    self.queue.append(i)
                else:
                    self.expand_blossom(dblossom, False)
            if not augmented:
                break
            for b in range(n, 2 * n):
                if (self.parent[b] == -1 and self.base[b] >= 0 and self.label[b] == _S
                        and self.dual[b] == 0):
                    self.expand_blossom(b, True)
        return self.mate

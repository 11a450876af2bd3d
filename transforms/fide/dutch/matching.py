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

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from heapq import heappop, heappush
from operator import gt
from typing import Any, Protocol, Self

_FREE, _S, _T = 0, 1, 2
_ROTATE, _PAIR, _REBASE = 0, 1, 2
"""The tasks of :meth:`_Solver.augment_blossom`."""


def max_weight_matching(w: list[list[int]], core: str | None = "python") -> list[int]:
    """Return ``mate`` for a maximum-weight matching of the graph with weight matrix ``w``
    (``core``: see :func:`new_graph`)."""
    g = new_graph(len(w), core)
    for i, row in enumerate(w):
        for j in range(i):
            if row[j] > 0:
                g.set(i, j, row[j])
    mate = g.solve()
    return [-1 if m == v else m for v, m in enumerate(mate)]


def _least_feasible(row: list[int], nbrs: set[int], u: list[int]) -> int:
    """The least dual (at least 0) that keeps every edge of ``row`` feasible against the
    other ends' duals ``u``."""
    need = 0
    for j in nbrs:
        d = row[j] - u[j]
        if d > need:
            need = d
    return need


def _repair(w2: list[list[int]], nbrs: list[set[int]], mate: list[int], u: list[int],
            dirty: set[int], raised: set[int]) -> None:
    """Make a previous optimum a valid warm start after the edges of ``dirty`` vertices
    changed: raise the duals that became infeasible, then keep each matched edge tight by
    lowering its ends' duals where their other edges allow; unmatch it otherwise.

    Only the ``raised`` vertices (an edge got heavier, or the dual was replaced) can have
    become infeasible: the others' edges only got lighter and their neighbours' duals only
    go up here, so the first pass skips them (in ``dirty``'s order, as if it had not)."""
    for i in dirty:
        if i in raised:
            need = _least_feasible(w2[i], nbrs[i], u)
            if u[i] < need:
                u[i] = need
    for i in dirty:
        m = mate[i]
        if m == -1:
            continue
        if w2[i][m] <= 0:
            mate[i] = mate[m] = -1
            continue
        gap = u[i] + u[m] - w2[i][m]
        for a, b in ((i, m), (m, i)):
            if gap <= 0:
                break
            ua = u[a]
            room = ua
            row = w2[a]
            for k in nbrs[a]:
                if k != b:
                    sl = ua + u[k] - row[k]
                    if sl < room:
                        room = sl
            step = gap if gap < room else room
            if step > 0:
                u[a] -= step
                gap -= step
        if gap != 0:
            mate[i] = mate[m] = -1


class _Solver:
    """Primal-dual solver. Started cold (all duals at the largest weight) or warm from a
    matching and vertex duals that are feasible with every matched edge tight: exposed
    vertices whose dual is still positive are the roots of the alternating trees, and a
    vertex whose dual reaches zero may be left exposed (complementary slackness)."""

    def __init__(self, w2: list[list[int]], nbrs: list[set[int]],
                 mate: list[int] | None = None, dual: list[int] | None = None):
        n = self.n = len(w2)
        self.w = w2
        self.nbrs = nbrs
        self.rescaled = 1
        if mate is None or dual is None:
            # Cold start: each vertex's dual is its heaviest edge (feasible), and the edges
            # that are the heaviest for both ends are tight and matched greedily.
            half = [max((w2[i][j] for j in nbrs[i]), default=0) // 2 for i in range(n)]
            # lower each dual as far as feasibility allows, so that every vertex gets a
            # tight edge and the greedy start below matches many of them
            for i in range(n):
                half[i] = _least_feasible(w2[i], nbrs[i], half)
            mate = [-1] * n
            for i in range(n):
                if mate[i] != -1:
                    continue
                row = w2[i]
                hi = half[i]
                for j in nbrs[i]:
                    if mate[j] == -1 and hi + half[j] == row[j]:
                        mate[i], mate[j] = j, i
                        break
            dual = half
        self.mate = list(mate)
        self.dual = list(dual) + [0] * n
        # Every root (exposed vertex with a positive dual) gets an even dual, so that all
        # tree vertices share one parity and half an S-S slack is integral.
        for v in range(n):
            if self.mate[v] == -1 and self.dual[v] & 1:
                self.dual[v] += 1
        self.label = [_FREE] * (2 * n)
        self.labelend: list[tuple[int, int] | None] = [None] * (2 * n)
        self.inblossom = list(range(n))
        self.parent = [-1] * (2 * n)
        self.childs: list[list[int]] = [[] for _ in range(2 * n)]
        self.edges: list[list[tuple[int, int]]] = [[] for _ in range(2 * n)]
        self.base = list(range(n)) + [-1] * n
        self.size = [1] * n + [0] * n
        """The number of vertices of each blossom."""
        self.bestedge: list[tuple[int, int] | None] = [None] * (2 * n)
        self.bbest: list[list[tuple[int, int]] | None] = [None] * (2 * n)
        self.unused = list(range(2 * n - 1, n - 1, -1))
        self.queue: deque[int] = deque()

    # -- helpers ---------------------------------------------------------------------------
    def slack(self, i: int, j: int) -> int:
        return self.dual[i] + self.dual[j] - self.w[i][j]

    def leaves(self, b: int) -> list[int]:
        """The vertices of blossom ``b`` (a list, built in one go: cheaper than a
        generator in the hot paths; same order as a depth-first walk)."""
        n = self.n
        if b < n:
            return [b]
        out = []
        stack = [b]
        childs = self.childs
        while stack:
            x = stack.pop()
            if x < n:
                out.append(x)
            else:
                stack.extend(childs[x])
        return out

    # -- labels ----------------------------------------------------------------------------
    def assign_label(self, v: int, t: int, edge: tuple[int, int] | None) -> None:
        """Label the top blossom of ``v`` with ``t``; ``edge`` = (outside vertex, v)."""
        while True:
            b = self.inblossom[v]
            self.label[v] = self.label[b] = t
            self.labelend[v] = self.labelend[b] = edge
            self.bestedge[v] = self.bestedge[b] = None
            if t == _S:
                if b < self.n:
                    self.queue.append(b)  # (a single vertex: skip the generator)
                else:
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
                lt = self.labelend[bt]
                assert lt is not None  # (a T blossom is labelled through an edge)
                v = lt[0]
            if w != -1:
                v, w = w, v
        for b in path:
            self.label[b] = _S
        return base

    def add_blossom(self, base: int, v: int, w: int) -> None:
        inb, parent, label, size = self.inblossom, self.parent, self.label, self.size
        bb, bv, bw = inb[base], inb[v], inb[w]
        vpath: list[int] = []
        vedges: list[tuple[int, int]] = []
        while bv != bb:
            vpath.append(bv)
            le = self.labelend[bv]
            assert le is not None  # (below the base: labelled through an edge)
            vedges.append(le)
            bv = inb[le[0]]
        wpath: list[int] = []
        wedges: list[tuple[int, int]] = []
        while bw != bb:
            wpath.append(bw)
            le = self.labelend[bw]
            assert le is not None
            wedges.append((le[1], le[0]))
            bw = inb[le[0]]
        childs = [bb] + vpath[::-1] + wpath
        big = max(childs, key=size.__getitem__)
        moved = -1
        if big >= self.n and size[big] > 16 and label[big] == _S:
            # A large S child (a growing tree's blossom) gives its number to the new
            # blossom and moves to a fresh one, so that its vertices, which are most of
            # the new blossom's, keep their ``inblossom`` entry: only the small children
            # are relabelled (otherwise nesting costs the square of the blossom's size).
            moved = self.unused.pop()
            fields: tuple[list[Any], ...] = (self.childs, self.edges, self.base, self.dual,
                                             label, self.labelend, self.bbest, size)
            for field in fields:
                field[moved] = field[big]
            for c in self.childs[moved]:
                parent[c] = moved
            childs[childs.index(big)] = moved
            b = big
        else:
            b = self.unused.pop()
        self.base[b] = base
        parent[b] = -1
        for c in childs:
            parent[c] = b
        self.childs[b] = childs
        self.edges[b] = vedges[::-1] + [(v, w)] + wedges
        label[b] = _S
        self.labelend[b] = self.labelend[childs[0]]
        self.dual[b] = 0
        size[b] = sum(size[c] for c in childs)
        queue = self.queue
        # the T children's vertices become S and are scanned, in the order of leaves(b)
        for c in reversed(childs):
            if c == moved:
                continue
            t = label[c] == _T
            for x in self.leaves(c):
                if t:
                    queue.append(x)
                inb[x] = b
        # (least-slack S-S edges are kept in a heap by solve, dropped once internal)
        self.bestedge[b] = None
        for c in childs:
            self.bestedge[c] = None

    def expand_blossom(self, b: int, endstage: bool) -> None:
        """Dissolve blossom ``b`` into its children. At the end of a stage (``endstage``) the
        sub-blossoms whose dual is zero are dissolved too, depth first: each is released
        (its number back to ``unused``) before its parent, in the order of the children.
        Blossoms nest up to n/2 deep, so the descent keeps its own stack."""
        inb, parent, childs_of, dual, n = (self.inblossom, self.parent, self.childs, self.dual,
                                           self.n)
        stack = [(b, iter(childs_of[b]))]
        while stack:
            top, rest = stack[-1]
            for s in rest:
                parent[s] = -1
                if s < n:
                    inb[s] = s
                elif endstage and dual[s] == 0:
                    stack.append((s, iter(childs_of[s])))
                    break
                else:
                    for x in self.leaves(s):
                        inb[x] = s
            else:
                stack.pop()
                if stack:
                    self._release(top)
        if not endstage and self.label[b] == _T:
            childs, edges = self.childs[b], self.edges[b]
            L = len(childs)
            p = self.labelend[b]
            assert p is not None  # (a T blossom is labelled through an edge)
            entry = inb[p[1]]
            j = childs.index(entry)
            jstep = 1 if j & 1 else -1
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
        self._release(b)

    def _release(self, b: int) -> None:
        """Clear blossom ``b`` (dissolved) and return its number to ``unused``."""
        self.label[b] = _FREE
        self.labelend[b] = None
        self.childs[b] = []
        self.edges[b] = []
        self.base[b] = -1
        self.bbest[b] = None
        self.bestedge[b] = None
        self.unused.append(b)

    def augment_blossom(self, b: int, v: int) -> None:
        """Make v the base of blossom b (rotating the matching inside): the children on the
        even side of the cycle from v's child to the base are paired along it, and each
        sub-blossom on the way gets the vertex it is paired by as its base first.

        Blossoms nest up to n/2 deep, so the sub-blossoms are handled from a stack of tasks,
        in the order of the recursive description: rotate the child holding v, then for each
        pair along the cycle the two children and the pair itself, then b's own cycle. (The
        tasks touch disjoint sub-blossoms and vertices, so only the result matters.)"""
        n, parent, mate = self.n, self.parent, self.mate
        # (_ROTATE, blossom, new base, -) / (_PAIR, x, y, -) / (_REBASE, blossom, base, i)
        tasks = [(_ROTATE, b, v, 0)]
        while tasks:
            op, b, v, i = tasks.pop()
            if op == _PAIR:
                mate[b] = v
                mate[v] = b
                continue
            if op == _REBASE:
                childs, edges = self.childs[b], self.edges[b]
                self.childs[b] = childs[i:] + childs[:i]
                self.edges[b] = edges[i:] + edges[:i]
                self.base[b] = v
                continue
            t = v
            while parent[t] != b:
                t = parent[t]
            childs, edges = self.childs[b], self.edges[b]
            L = len(childs)
            i = j = childs.index(t)
            jstep = 1 if i & 1 else -1
            todo = []
            if t >= n:
                todo.append((_ROTATE, t, v, 0))
            while j % L != 0:
                j += jstep
                j += jstep
                if jstep == 1:
                    x, y = edges[(j - 1) % L]
                else:
                    y, x = edges[j % L]
                cx, cy = childs[(j - jstep) % L], childs[j % L]
                if cx >= n:
                    todo.append((_ROTATE, cx, x, 0))
                if cy >= n:
                    todo.append((_ROTATE, cy, y, 0))
                todo.append((_PAIR, x, y, 0))
            todo.append((_REBASE, b, v, i))
            tasks.extend(reversed(todo))

    def augment_matching(self, v: int, w: int) -> None:
        for s, j in ((v, w), (w, v)):
            self._rematch_path(s, j)

    def _rematch_path(self, s: int, j: int) -> None:
        """Give ``s`` the mate ``j`` and flip the alternating path from ``s`` back to its
        exposed root, expanding the blossoms on the way."""
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
            lt = self.labelend[bt]
            assert lt is not None  # (a T blossom is labelled through an edge)
            s2, j2 = lt
            if bt >= self.n:
                self.augment_blossom(bt, j2)
            self.mate[j2] = s2
            s, j = s2, j2

    # -- main loop -------------------------------------------------------------------------
    def solve(self) -> list[int]:
        n = self.n
        if n == 0:
            return []
        # the tight neighbours of each vertex, in neighbour order; duals change only at a
        # dual adjustment, which clears this
        tight: dict[int, list[int]] = {}
        while True:
            self.label = [_FREE] * (2 * n)
            self.labelend = [None] * (2 * n)
            self.bestedge = [None] * (2 * n)
            self.bbest[n:] = [None] * n
            self.queue = deque()
            roots = False
            for v in range(n):
                if (self.mate[v] == -1 and self.dual[v] > 0
                        and self.label[self.inblossom[v]] == _FREE):
                    self.assign_label(v, _S, None)
                    roots = True
            if not roots:
                break
            augmented = False
            # Only tight edges act during the scan. The rest is deferred to the next dual
            # adjustment (most stages end in an augmentation and never need it), where the
            # vertices scanned since the last one are gone through in scan order:
            # - delta2: ``bestedge`` of the non-S vertices, by the same update rule. Until
            #   then no dual changes, so each slack is what the scan would have seen; the
            #   entries this could change are never read (their vertex got a label, and a
            #   labelled vertex stays in a labelled blossom until the stage ends).
            # - delta3: S-S edges between different blossoms. Each scanned vertex puts its
            #   least-slack one in a heap as (slack + shift, lower end, vertex, other end).
            #   Within a stage S vertices stay S and every dual adjustment lowers all their
            #   slacks by the same 2*delta (tracked in ``shift``), so the order never changes
            #   and an edge only stops counting by becoming internal to a blossom; then
            #   (lazily, at the top of the heap) its vertex puts in its next edge. An edge
            #   to a vertex that becomes S later is put in by that vertex.
            # Both find the same edges as a full scan at every adjustment.
            heap: list[tuple[int, int, int, int]] = []
            scanned: list[int] = []
            shift = 0
            nbrs, Wm, labelend = self.nbrs, self.w, self.labelend
            while True:
                label, inb, dual, mate, base = (self.label, self.inblossom, self.dual,
                                                self.mate, self.base)
                queue = self.queue
                while queue and not augmented:
                    v = queue.popleft()
                    scanned.append(v)
                    bv = inb[v]
                    tl = tight.get(v)
                    if tl is None:
                        # v's tight edges to vertices outside its blossom. Blossoms only grow
                        # until the next dual adjustment (which clears this cache) or the
                        # expansions at the end of a stage (which drop the entries of the
                        # vertices inside), so the neighbours inside v's blossom are dropped
                        # before any slack is computed (most of them, once it is large)
                        dv = dual[v]
                        wrow = Wm[v]
                        tl = tight[v] = [w for w in nbrs[v]
                                         if inb[w] != bv and dv + dual[w] - wrow[w] <= 0]
                    for w in tl:
                        bw = inb[w]
                        if bv == bw:
                            continue
                        lbw = label[bw]
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
                            labelend[w] = (v, w)
                if augmented:
                    break
                # dual adjustment
                inb, label, dual, W = self.inblossom, self.label, self.dual, self.w
                bestedge = self.bestedge
                if scanned:
                    # (the least slack of each unlabelled vertex's best edge, this round)
                    least: dict[int, int | None] = {}
                    for v in scanned:
                        bv = inb[v]
                        dv = dual[v]
                        row = W[v]
                        bk = None
                        ba = bx = -1
                        for x in [x for x in nbrs[v] if inb[x] != bv]:
                            if label[inb[x]] == _S:
                                sl = dv + dual[x] - row[x]
                                a = x if x < v else v
                                if bk is None or sl < bk or (sl == bk and a < ba):
                                    bk, ba, bx = sl, a, x
                            elif label[x] == _FREE:
                                sl = dv + dual[x] - row[x]
                                if sl <= 0:
                                    continue
                                if x in least:
                                    cur = least[x]
                                else:
                                    be = bestedge[x]
                                    cur = (None if be is None
                                           else dual[be[0]] + dual[x] - W[be[0]][x])
                                if cur is None or sl < cur:
                                    bestedge[x] = (v, x)
                                    cur = sl
                                least[x] = cur
                        if bk is not None:
                            heappush(heap, (bk + shift, ba, v, bx))
                    scanned.clear()
                s3, e3v = None, -1
                while heap:
                    k, a, v, x = heap[0]
                    if inb[v] != inb[x]:
                        s3, e3v = k - shift, a
                        break
                    heappop(heap)
                    # v's least-slack S-S edge became internal: put in its next one
                    bv = inb[v]
                    dv = dual[v]
                    row = W[v]
                    bk = None
                    for x in [x for x in nbrs[v] if inb[x] != bv and label[inb[x]] == _S]:
                        sl = dv + dual[x] - row[x]
                        a = x if x < v else v
                        if bk is None or sl < bk or (sl == bk and a < ba):
                            bk, ba, bx = sl, a, x
                    if bk is not None:
                        heappush(heap, (bk + shift, ba, v, bx))
                if s3 is not None and s3 % 2:
                    self.rescale()
                    s3 *= 2
                    shift *= 2
                    heap = [(2 * k, a, v, x) for k, a, v, x in heap]  # same order: a heap
                    dual = self.dual
                    W = self.w
                dtype, delta, dedge, dblossom = 1, None, None, -1
                dvertex = -1
                for v in range(n):
                    if label[inb[v]] == _S and (delta is None or dual[v] < delta):
                        delta, dvertex = dual[v], v
                assert delta is not None  # (the stage has roots: S vertices)
                for v in range(n):
                    be = self.bestedge[v]
                    if label[inb[v]] == _FREE and be is not None:
                        d = dual[be[0]] + dual[be[1]] - W[be[0]][be[1]]
                        if d < delta:
                            dtype, delta, dedge = 2, d, be
                if s3 is not None and s3 // 2 < delta:
                    # the first edge of least slack in the order (lower end, neighbour
                    # order) that a full scan would meet
                    row = W[e3v]
                    be3, du = inb[e3v], dual[e3v]
                    e3 = next((e3v, x) for x in self.nbrs[e3v]
                              if x > e3v and inb[x] != be3 and label[inb[x]] == _S
                              and du + dual[x] - row[x] == s3)
                    dtype, delta, dedge = 3, s3 // 2, e3
                for b in range(n, 2 * n):
                    if (self.base[b] >= 0 and self.parent[b] == -1 and self.label[b] == _T
                            and self.dual[b] < delta):
                        dtype, delta, dblossom = 4, self.dual[b], b
                shift += 2 * delta
                tight.clear()
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
                    assert dedge is not None
                    i, j = dedge
                    if self.label[self.inblossom[i]] == _FREE:
                        i, j = j, i
                    self.queue.append(i)
                elif dtype == 3:
                    assert dedge is not None
                    i, j = dedge
                    self.queue.append(i)
                else:
                    self.expand_blossom(dblossom, False)
            for b in range(n, 2 * n):
                if (self.parent[b] == -1 and self.base[b] >= 0 and self.label[b] == _S
                        and self.dual[b] == 0):
                    for x in self.leaves(b):
                        tight.pop(x, None)  # (cached without the neighbours inside b)
                    self.expand_blossom(b, True)
        return self.mate

    def rescale(self) -> None:
        """Double weights and duals so that half a slack stays integral."""
        self.rescaled *= 2
        w = self.w
        pool: dict[int, int] = {}
        intern = pool.setdefault
        for i, row in enumerate(w):
            # w[i][j] and w[j][i] stay one int object, and equal weights share one (see
            # MatchingGraph.set_many): the lower part of row i was doubled already, as
            # column i of the rows above
            upper = [2 * x for x in row[i:]]
            row[:] = [r[i] for r in w[:i]] + [intern(x, x) for x in upper]
        self.dual = [2 * d for d in self.dual]

    def flip_to_exposed(self, v: int) -> None:
        self._rematch_path(v, -1)

    def ancestors(self, v: int) -> Iterator[int]:
        b = self.parent[v]
        while b != -1:
            yield b
            b = self.parent[b]

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

    The solver state (matching and vertex duals) is kept between calls, so a re-solve only
    repairs what changed. ``solve()`` returns ``mate`` with an unmatched vertex mapped to
    itself. A pair fixed with :meth:`fix` keeps only its own edge, so every optimum keeps it.
    """

    def __init__(self, n: int):
        self.n = n
        self._scale = 2
        self._w2 = [[0] * n for _ in range(n)]
        self._nbrs: list[set[int]] = [set() for _ in range(n)]
        self._dirty: set[int] = set()
        self._raised: set[int] = set()
        """The dirty vertices that may have become infeasible (see ``_repair``)."""
        self.fixed: dict[int, int] = {}
        self.solves = 0
        self._mate: list[int] | None = None
        self._dual: list[int] = []
        self._true_u: list[int] = []
        self._in_blossom: set[int] = set()

    @property
    def w(self) -> list[list[int]]:
        """The weight matrix (a copy; only one scaled matrix is kept, to save memory)."""
        return [self.row(i) for i in range(self.n)]

    def row(self, i: int) -> list[int]:
        """The weights of the edges of vertex i."""
        sc = self._scale
        return [x // sc for x in self._w2[i]]

    def weight(self, i: int, j: int) -> int:
        return self._w2[i][j] // self._scale

    def set(self, i: int, j: int, weight: int) -> None:
        x = self._scale * weight
        old = self._w2[i][j]
        if old == x:
            return
        if x > old:
            self._raised.add(i)
            self._raised.add(j)
        self._w2[i][j] = self._w2[j][i] = x
        if weight > 0:
            self._nbrs[i].add(j)
            self._nbrs[j].add(i)
        else:
            self._nbrs[i].discard(j)
            self._nbrs[j].discard(i)
        self._dirty.add(i)
        self._dirty.add(j)

    def set_many(self, edges: Iterable[tuple[int, int, int]], pool: dict[int, int] | None = None) -> None:
        """``set(i, j, weight)`` for each ``(i, j, weight)`` of ``edges``, in order (the same
        effect; the engine sets whole rows at a time, so the per-call work is hoisted).

        ``pool`` interns the stored ints: a large field has millions of edges but few
        distinct weights (each several hundred bits), so equal weights share one object."""
        sc, w2, nbrs, dirty, raised = self._scale, self._w2, self._nbrs, self._dirty, self._raised
        for i, j, weight in edges:
            x = sc * weight
            ri = w2[i]
            old = ri[j]
            if old == x:
                continue
            if x > old:
                raised.add(i)
                raised.add(j)
            if pool is not None:
                x = pool.setdefault(x, x)
            ri[j] = w2[j][i] = x
            if weight > 0:
                nbrs[i].add(j)
                nbrs[j].add(i)
            else:
                nbrs[i].discard(j)
                nbrs[j].discard(i)
            dirty.add(i)
            dirty.add(j)

    def set_edges(self, i: int, targets: list[int] | None, weights: list[int]) -> None:
        """``set(i, targets[k], weights[k])`` for each k (``targets`` None: vertex k), in
        order: one row of a bracket at a time, without a tuple per edge."""
        self.set_many((i, k if targets is None else targets[k], wt)
                      for k, wt in enumerate(weights))

    def set_rows(self, rows: list[list[int]], pool: dict[int, int] | None = None) -> None:
        """Set every edge at once: ``rows[i][j]`` is the weight of edge (i, j) for ``j < i``.
        The same effect as :meth:`set_many` over all edges, done row by row (a whole round's
        graph has ~n²/2 edges; building the matrix by transposition is far cheaper)."""
        n, sc = self.n, self._scale
        pool = {} if pool is None else pool
        distinct: set[int] = set().union(*rows) if rows else set()
        scaled = {x: pool.setdefault(sc * x, sc * x) for x in distinct}
        lower = [[scaled[x] for x in r] + [0] * (n - len(r)) for r in rows]
        upper = list(zip(*lower))
        old, nbrs, dirty = self._w2, self._nbrs, self._dirty
        for i in range(n):
            full = lower[i][:i]
            full.append(0)
            full.extend(upper[i][i + 1:])
            if full != old[i]:
                if any(map(gt, full, old[i])):
                    self._raised.add(i)
                old[i] = full
                nbrs[i] = {j for j, x in enumerate(full) if x > 0}
                dirty.add(i)

    def swap_in(self, mate: list[int], p: int, q: int, prev: list[int]) -> bool:
        """Give ``p`` the opponent ``q`` by exchanging partners with ``q``'s mate, if that
        loses nothing under the weights for which ``mate`` is optimal (``prev``: ``p``'s
        edge weights before they were raised). Then ``mate`` (updated in place) is still
        optimal and gives ``p`` the edge raised most, so no re-solve is needed."""
        mp, mq = mate[p], mate[q]
        sc, w2 = self._scale, self._w2
        old = (sc * prev[mp] if mp != p else 0) + (w2[q][mq] if mq != q else 0)
        new = sc * prev[q]
        if new <= 0:
            return False
        if mp != p and mq != q:
            x = w2[mp][mq]
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
            for v in (p, q, mp, mq):
                self._mate[v] = -1 if mate[v] == v else mate[v]
                self._dirty.add(v)
        return True

    def never_optimal(self, p: int, q: int, weight: int) -> bool:
        """True if no maximum-weight matching (for the weights of the last solve, edge
        (p, q) weighing ``weight``) can contain (p, q): its slack under the optimal duals is
        positive (complementary slackness). False when unsure (p or q inside a blossom)."""
        if self._mate is None or p in self._in_blossom or q in self._in_blossom:
            return False
        return self._true_u[p] + self._true_u[q] - self._scale * weight > 0

    def rotate_in(self, mate: list[int], p: int, q: int, prev: list[int],
                  cand: list[int], depth: int = 8) -> bool:
        """Like :meth:`swap_in`, through a longer alternating cycle among ``cand``: ``p``
        takes ``q``, ``q``'s mate takes another player of ``cand`` whose mate moves on, ...,
        until someone takes ``p``'s old mate. Accepted only if the cycle loses nothing, so
        ``mate`` stays optimal; otherwise the caller re-solves. The search goes one step
        deeper at a time and stops at the first depth that closes such a cycle (no simple one
        gains: ``mate`` is optimal), so a short cycle costs little in a large bracket."""
        mp, mq = mate[p], mate[q]
        if mp in (p, q) or mq == q:
            return self.swap_in(mate, p, q, prev)
        if prev[q] <= 0:
            return False
        w = self._w2
        start = self._scale * (prev[q] - prev[mp]) - w[q][mq]
        inside = set(cand)
        # longest alternating path: state = the vertex that has lost its partner
        dist = {mq: start}
        back: dict[int, tuple[int, int]] = {}
        best_end, best_val = None, None
        frontier: dict[int, None] = {mq: None}
        # the players of cand that may take part in the cycle, with their mates and the
        # weight of the pair they would give up (all fixed during the search)
        movable = []
        for c in cand:
            if c in (p, q, mp, mq):
                continue
            mc = mate[c]
            if mc == c or mc not in inside or mc in (p, q, mp):
                continue
            movable.append((c, mc, w[c][mc]))
        for _ in range(depth):
            # the cycles this depth closes (through an edge to p's old mate) first: one that
            # loses nothing ends the search, as no simple cycle gains while mate is optimal
            for a in frontier:
                x = w[a][mp]
                if x > 0 and (best_val is None or dist[a] + x > best_val):
                    best_val, best_end = dist[a] + x, a
            if best_val == 0:
                break
            nxt: dict[int, None] = {}
            for a in frontier:
                da = dist[a]
                row = w[a]
                for c, mc, given_up in movable:
                    if c == a or mc == a:
                        continue
                    x = row[c]
                    if x <= 0:
                        continue
                    val = da + x - given_up
                    if val > dist.get(mc, val - 1):
                        dist[mc] = val
                        back[mc] = (a, c)
                        nxt[mc] = None
            frontier = nxt
            if not frontier:
                break
        if best_end is None or best_val != 0:  # (best_end and best_val are set together)
            return False
        # rebuild the cycle and check that it is simple
        takes = [(best_end, mp)]
        a = best_end
        while a != mq:
            prev_a, c = back[a]
            takes.append((prev_a, c))
            a = prev_a
            if len(takes) > depth + 1:
                return False
        verts = [p, q] + [v for pair in takes for v in pair]
        if len(set(verts)) != len(verts):
            return False
        for x, y in takes:
            mate[x], mate[y] = y, x
        mate[p], mate[q] = q, p
        if self._mate is not None:
            for x, y in takes + [(p, q)]:
                for v in (x, y):
                    self._mate[v] = mate[v]
                    self._dirty.add(v)
        return True

    def seed_from(self, sub: MatchingGraph, vertices: list[int]) -> None:
        """Start the next solve from ``sub``'s optimum on the subgraph of ``vertices``
        (``sub`` vertex k is ``vertices[k]``): its pairs and duals replace ours there. Only a
        warm-start hint: the solve repairs whatever is not optimal for the whole graph."""
        if self._mate is None or sub._mate is None or sub._scale != self._scale:
            return
        for v in vertices:
            old = self._mate[v]
            if old != -1:
                self._mate[old] = -1
                self._dirty.add(old)
            self._mate[v] = -1
        for k, v in enumerate(vertices):
            m = sub._mate[k]
            if m != -1:
                self._mate[v] = vertices[m]
            self._dual[v] = sub._dual[k]
            self._dirty.add(v)
            self._raised.add(v)

    def forget(self) -> None:
        """Drop the warm-start state: the next :meth:`solve` starts cold."""
        self._mate = None
        self._dirty = set()
        self._raised = set()

    def fix(self, i: int, j: int) -> None:
        """Keep i and j paired: drop their other edges."""
        self.fixed[i] = j
        self.fixed[j] = i
        for a, b in ((i, j), (j, i)):
            for k in list(self._nbrs[a]):
                if k != b:
                    self.set(a, k, 0)

    def solve(self) -> list[int]:
        """Re-optimise after the changes since the last call (warm start)."""
        self.solves += 1
        if self._mate is None:
            sv = _Solver(self._w2, self._nbrs)
        else:
            _repair(self._w2, self._nbrs, self._mate, self._dual, self._dirty, self._raised)
            sv = _Solver(self._w2, self._nbrs, self._mate, self._dual)
        self._raised = set()
        m = sv.solve()
        if sv.rescaled != 1:
            self._scale *= sv.rescaled
        self._mate = list(m)
        self._true_u = sv.dual[:self.n]
        # one walk down each blossom tree gives both the vertices inside a blossom of
        # positive dual and the vertex duals with every blossom dissolved
        sdual, n = sv.dual, self.n
        u = sdual[:n]
        inside = set()
        stack = [(b, 0, False) for b in range(n, 2 * n)
                 if sv.base[b] >= 0 and sv.parent[b] == -1]
        while stack:
            b, acc, positive = stack.pop()
            d = sdual[b]
            acc += d
            positive = positive or d > 0
            for c in sv.childs[b]:
                if c < n:
                    u[c] += acc
                    if positive:
                        inside.add(c)
                else:
                    stack.append((c, acc, positive))
        self._in_blossom = inside
        self._dual = u
        w2 = self._w2
        # dissolving the blossoms loosens the edge from each base to its mate outside
        self._dirty = {v for v, x in enumerate(m) if x != -1 and u[v] + u[x] != w2[v][x]}
        return [v if x == -1 else x for v, x in enumerate(m)]


class Graph(Protocol):
    """What the engine uses of a matching graph: both cores give it (:class:`MatchingGraph`
    and the compiled one, typed in ``cmatching.pyi``), positional arguments only."""

    @property
    def n(self) -> int: ...
    @property
    def fixed(self) -> dict[int, int]: ...
    @property
    def solves(self) -> int: ...
    @property
    def w(self) -> list[list[int]]: ...
    def set(self, i: int, j: int, weight: int, /) -> None: ...
    def set_many(self, edges: Iterable[tuple[int, int, int]],
                 pool: dict[int, int] | None = None, /) -> None: ...
    def set_edges(self, i: int, targets: list[int] | None, weights: list[int], /) -> None: ...
    def set_rows(self, rows: list[list[int]], pool: dict[int, int] | None = None, /) -> None: ...
    def row(self, i: int, /) -> list[int]: ...
    def weight(self, i: int, j: int, /) -> int: ...
    def fix(self, i: int, j: int, /) -> None: ...
    def solve(self) -> list[int]: ...
    def swap_in(self, mate: list[int], p: int, q: int, prev: list[int], /) -> bool: ...
    def rotate_in(self, mate: list[int], p: int, q: int, prev: list[int], cand: list[int],
                  depth: int = 8) -> bool: ...
    def never_optimal(self, p: int, q: int, weight: int, /) -> bool: ...
    def seed_from(self, sub: Self, vertices: list[int], /) -> None: ...
    def forget(self) -> None: ...


CORES: dict[str, Callable[[int], Graph]] = {"python": MatchingGraph}
"""The matching cores by name: ``python`` (this module, the reference) and ``compiled``
(``cmatching.c``: the same class in C, 64-bit limbs for the weights), where built."""
try:  # the compiled core (cmatching.c), which the project's install builds with gcc
    from transforms.fide.dutch.cmatching import MatchingGraph as CompiledMatchingGraph
except ImportError:  # (not built: the pure-Python core alone, slower on large fields)
    pass
else:
    CORES["compiled"] = CompiledMatchingGraph
DEFAULT_CORE = "compiled" if "compiled" in CORES else "python"


def new_graph(n: int, core: str | None = None) -> Graph:
    """A matching graph of ``n`` vertices from the core named ``core`` (default: the compiled
    one where it is built). Both give the same pairings; tests compare them."""
    name = core or DEFAULT_CORE
    if name not in CORES:
        raise ValueError(f"matching core {name!r} is not available here "
                         f"(available: {', '.join(sorted(CORES))})")
    return CORES[name](n)

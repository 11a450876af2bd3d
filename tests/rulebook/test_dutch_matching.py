"""The weighted matching solver under the Dutch engine (transforms/fide/dutch/matching.py):
optimal on random graphs (checked by exhaustive search), also when re-solved warm after
weight changes, exact with the engine's very large integer weights, and without recursion
however deep its blossoms nest (the interpreter's recursion limit is left alone)."""

from __future__ import annotations

import random
import sys
from contextlib import contextmanager

import pytest

from flows.devtools.demo.random_events import random_tournament
from transforms.core.model import DutchEdition
from transforms.fide.dutch.engine import pair_round
from transforms.fide.dutch.matching import MatchingGraph, max_weight_matching, new_graph

CORE_NAMES = ("python", "compiled")
"""Every solver test runs on both cores: the reference (matching.py) and the compiled one
(cmatching.c)."""


def brute_force(w: list[list[int]]) -> int:
    n = len(w)

    def best(free: tuple[int, ...]) -> int:
        if len(free) < 2:
            return 0
        i, rest = free[0], free[1:]
        top = best(rest)
        for k, j in enumerate(rest):
            if w[i][j] > 0:
                top = max(top, w[i][j] + best(rest[:k] + rest[k + 1:]))
        return top

    return best(tuple(range(n)))


def value(w, mate) -> int:
    return sum(w[i][m] for i, m in enumerate(mate) if m > i)


def random_graph(rng: random.Random, n: int) -> list[list[int]]:
    p = rng.random()
    w = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if rng.random() < p:
                w[i][j] = w[j][i] = rng.choice(
                    [rng.randint(1, 3), rng.randint(1, 10**6), (1 << 90) + rng.randint(0, 7)])
    return w


@pytest.mark.parametrize("core", CORE_NAMES)
@pytest.mark.parametrize("seed", range(4))
def test_matching_is_maximum_weight_on_random_graphs(seed, core):
    rng = random.Random(seed)
    for _ in range(150):
        w = random_graph(rng, rng.randint(1, 9))
        mate = max_weight_matching(w, core)
        for i, m in enumerate(mate):
            assert m == -1 or (mate[m] == i and w[i][m] > 0)
        assert value(w, mate) == brute_force(w)


@pytest.mark.parametrize("core", CORE_NAMES)
@pytest.mark.parametrize("seed", range(3))
def test_matching_stays_optimal_when_resolved_warm_after_changes(seed, core):
    rng = random.Random(100 + seed)
    for _ in range(60):
        n = rng.randint(2, 9)
        g = new_graph(n, core)
        w0 = random_graph(rng, n)
        for i in range(n):
            for j in range(i):
                g.set(i, j, w0[i][j])
        mate = g.solve()
        for _step in range(4):
            v = rng.randrange(n)
            if v not in g.fixed:
                for j in range(n):
                    if j != v and j not in g.fixed and rng.random() < 0.5:
                        g.set(v, j, rng.choice([0, rng.randint(1, 3), rng.randint(1, 10**6)]))
            if rng.random() < 0.3 and mate[v] != v and v not in g.fixed:
                g.fix(v, mate[v])
            mate = g.solve()
            w = [row[:] for row in g.w]
            assert value(w, [m if m != i else -1 for i, m in enumerate(mate)]) == \
                brute_force(w)


@pytest.mark.parametrize("core", CORE_NAMES)
@pytest.mark.parametrize("big", [1 << 200, 1 << 2000])
def test_matching_prefers_one_heavy_edge_over_many_light_ones_exactly(core, big):
    # path a-b-c-d: the middle edge outweighs both outer ones together by exactly 1 (the
    # compiled core widens its numbers for 2,000-bit weights)
    w = [[0, big, 0, 0], [big, 0, 2 * big + 1, 0], [0, 2 * big + 1, 0, big], [0, 0, big, 0]]
    assert max_weight_matching(w, core) == [-1, 2, 1, -1]


@pytest.mark.parametrize("core", CORE_NAMES)
@pytest.mark.parametrize("seed", range(3))
def test_set_rows_is_set_many_over_every_edge(seed, core):
    """MatchingGraph.set_rows (whole graph at once) stores the same weights, neighbours and
    optimum as setting each edge; changing a solved graph that way re-solves warm."""
    rng = random.Random(300 + seed)
    for _ in range(20):
        n = rng.randint(2, 9)
        w = random_graph(rng, n)
        a, b = new_graph(n, core), new_graph(n, core)
        a.set_many((i, j, w[i][j]) for i in range(n) for j in range(i))
        b.set_rows([w[i][:i] for i in range(n)])
        assert a.w == b.w == w
        assert a.solve() == b.solve()
        w2 = random_graph(rng, n)
        b.set_rows([w2[i][:i] for i in range(n)])
        assert b.w == w2
        mate = b.solve()
        assert value(w2, [m if m != i else -1 for i, m in enumerate(mate)]) == brute_force(w2)


@contextmanager
def recursion_limit(limit: int):
    """Run with the interpreter's recursion limit at ``limit``; yields the list of the limits
    anything inside tried to set (the solver must set none)."""
    old, real = sys.getrecursionlimit(), sys.setrecursionlimit
    calls: list[int] = []
    real(limit)
    sys.setrecursionlimit = calls.append
    try:
        yield calls
    finally:
        sys.setrecursionlimit = real
        real(old)


W = 4


def nested_chain(g: MatchingGraph, root: int, pairs: list[tuple[int, int]]) -> None:
    """Edges that nest one blossom per pair: the root is joined to both ends of the first
    (matched) pair, and each pair's second end to both ends of the next. Grown from the root,
    every pair closes an odd cycle with the blossom of the pairs before it."""
    g.set(root, pairs[0][0], W)
    g.set(root, pairs[0][1], W)
    for (_a, b), (a2, b2) in zip(pairs, pairs[1:]):
        g.set(b, a2, W)
        g.set(b, b2, W)


def matched_pairs(n: int, pairs: list[tuple[int, int]], core: str) -> MatchingGraph:
    g = new_graph(n, core)
    for a, b in pairs:
        g.set(a, b, W)
    g.solve()
    return g


@pytest.mark.parametrize("core", CORE_NAMES)
@pytest.mark.parametrize("depth, limit", [(300, 200), (1100, None)])
def test_augmenting_through_blossoms_nested_deeper_than_the_recursion_limit(depth, limit, core):
    """The only augmenting path runs from the root through ``depth`` nested blossoms (each
    rotated to a new base: augment_blossom) to an exposed vertex at the innermost pair's
    end; the solver neither recurses that deep nor changes the recursion limit."""
    pairs = [(2 * i + 1, 2 * i + 2) for i in range(depth)]
    n = 2 * depth + 2
    g = matched_pairs(n, pairs, core)
    nested_chain(g, 0, pairs)
    g.set(pairs[-1][1], n - 1, W // 2)  # tight against the pair's dual: found by the scan
    with recursion_limit(limit or sys.getrecursionlimit()) as calls:
        before = sys.getrecursionlimit()
        mate = g.solve()
        assert sys.getrecursionlimit() == before and calls == []
    # the path flipped: root - first pair's first end, each pair's second end - the next
    # pair's first end, the last pair's second end - the exposed vertex
    assert mate == [v ^ 1 for v in range(n)]


@pytest.mark.parametrize("core", CORE_NAMES)
def test_expanding_blossoms_nested_deeper_than_the_recursion_limit(core):
    """A root grows 250 nested blossoms while a second root's longer path reaches an exposed
    vertex: the augmentation ends the stage, and the blossoms, all of zero dual, are
    dissolved level by level (expand_blossom at the end of a stage)."""
    depth, length = 250, 2 * 250 + 10
    chain = [(1 + 2 * i, 2 + 2 * i) for i in range(depth)]
    s = 2 * depth + 1
    path = [(s + 1 + 2 * i, s + 2 + 2 * i) for i in range(length)]
    n = s + 2 * length + 2
    g = matched_pairs(n, chain + path, core)
    nested_chain(g, 0, chain)
    g.set(s, path[0][0], W)
    for (_p, q), (p2, _q2) in zip(path, path[1:]):
        g.set(q, p2, W)
    g.set(path[-1][1], n - 1, W // 2)
    with recursion_limit(200) as calls:
        mate = g.solve()
        assert sys.getrecursionlimit() == 200 and calls == []
    assert mate[0] == 0 and all(mate[a] == b for a, b in chain)
    assert mate[s] == path[0][0] and mate[n - 1] == path[-1][1]
    assert all(mate[q] == p2 for (_p, q), (p2, _q2) in zip(path, path[1:]))


@pytest.mark.parametrize("edition", list(DutchEdition))
def test_pairing_a_large_field_leaves_the_recursion_limit_alone(edition):
    """A 300-player round pairs the same with the recursion limit at 200, and nothing in the
    engine sets the limit (a global of the interpreter)."""
    t = random_tournament(300, 4, total_rounds=9, seed=31, edition=edition, bye_rate=0.05,
                          forfeit_rate=0.03)
    expect = pair_round(t, edition=edition)
    with recursion_limit(200) as calls:
        assert pair_round(t, edition=edition) == expect
        assert sys.getrecursionlimit() == 200 and calls == []

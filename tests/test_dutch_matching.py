"""The weighted matching solver under the Dutch engine (transforms/fide/dutch/matching.py):
optimal on random graphs (checked by exhaustive search), also when re-solved warm after
weight changes, and exact with the engine's very large integer weights."""

from __future__ import annotations

import random

import pytest

from transforms.fide.dutch.matching import MatchingGraph, max_weight_matching


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


@pytest.mark.parametrize("seed", range(4))
def test_matching_is_maximum_weight_on_random_graphs(seed):
    rng = random.Random(seed)
    for _ in range(150):
        w = random_graph(rng, rng.randint(1, 9))
        mate = max_weight_matching(w)
        for i, m in enumerate(mate):
            assert m == -1 or (mate[m] == i and w[i][m] > 0)
        assert value(w, mate) == brute_force(w)


@pytest.mark.parametrize("seed", range(3))
def test_matching_stays_optimal_when_resolved_warm_after_changes(seed):
    rng = random.Random(100 + seed)
    for _ in range(60):
        n = rng.randint(2, 9)
        g = MatchingGraph(n)
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


def test_matching_prefers_one_heavy_edge_over_many_light_ones_exactly():
    big = 1 << 200
    # path a-b-c-d: the middle edge outweighs both outer ones together by exactly 1
    w = [[0, big, 0, 0], [big, 0, 2 * big + 1, 0], [0, 2 * big + 1, 0, big], [0, 0, big, 0]]
    assert max_weight_matching(w) == [-1, 2, 1, -1]


@pytest.mark.parametrize("seed", range(3))
def test_set_rows_is_set_many_over_every_edge(seed):
    """MatchingGraph.set_rows (whole graph at once) stores the same weights, neighbours and
    optimum as setting each edge; changing a solved graph that way re-solves warm."""
    rng = random.Random(300 + seed)
    for _ in range(20):
        n = rng.randint(2, 9)
        w = random_graph(rng, n)
        a, b = MatchingGraph(n), MatchingGraph(n)
        a.set_many((i, j, w[i][j]) for i in range(n) for j in range(i))
        b.set_rows([w[i][:i] for i in range(n)])
        assert a.w == b.w == w
        assert a.solve() == b.solve()
        w2 = random_graph(rng, n)
        b.set_rows([w2[i][:i] for i in range(n)])
        assert b.w == w2
        mate = b.solve()
        assert value(w2, [m if m != i else -1 for i, m in enumerate(mate)]) == brute_force(w2)

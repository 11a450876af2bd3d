"""The two matching cores under the Dutch engine — ``python`` (transforms/fide/dutch/matching.py,
the reference) and ``compiled`` (cmatching.c, built by the project's install) — give the same
pairings on generated tournaments of both editions, and the compiled graph keeps the Python
graph's contract method by method (weights, fixed pairs, warm re-solves, the exchange steps
``swap_in``/``rotate_in`` that may skip a re-solve only when the result stays optimal)."""

from __future__ import annotations

import random

import pytest

from flows.devtools.demo.random_events import random_tournament
from tests.rulebook.test_dutch_matching import brute_force, random_graph, value
from transforms.core.errors import NoValidPairing
from transforms.fide.dutch.engine import pair_round
from transforms.fide.dutch.matching import CORES, new_graph


def test_the_install_built_the_compiled_core():
    assert "compiled" in CORES and CORES["compiled"].__module__.endswith("cmatching")


def test_an_unknown_core_is_refused():
    with pytest.raises(ValueError, match="not available"):
        new_graph(4, "fortran")


def _pairing(t, edition, core):
    try:
        return pair_round(t, edition=edition, core=core)
    except NoValidPairing as e:
        return f"no valid pairing: {e}"


# sizes above 150 take the large-field paths of the 2025 rules (a cold round 1, a bracket's
# own optimum as the warm-start hint)
CASES = [(edition, n, rnd, seed)
         for edition in ("2017", "2025")
         for n, rnd, seed in [(9, 4, 1), (16, 7, 2), (31, 3, 3), (31, 9, 4), (60, 6, 5),
                              (121, 5, 6), (160, 1, 7), (201, 4, 8), (240, 8, 9)]]


@pytest.mark.parametrize("edition, n, rnd, seed", CASES)
def test_both_cores_pair_generated_tournaments_the_same(edition, n, rnd, seed):
    t = random_tournament(n, rnd - 1, total_rounds=9, seed=7000 + seed, edition=edition,
                          bye_rate=0.04, forfeit_rate=0.03)
    assert _pairing(t, edition, "compiled") == _pairing(t, edition, "python")


def _mates(mate: list[int]) -> list[int]:
    return [-1 if m == v else m for v, m in enumerate(mate)]


@pytest.mark.parametrize("seed", range(4))
def test_the_compiled_graph_keeps_the_python_graphs_contract(seed):
    """The same calls on both graphs: equal weights (``w``, ``row``, ``weight``), equal fixed
    pairs, and at every solve an optimum of the same weight."""
    rng = random.Random(900 + seed)
    for _ in range(40):
        n = rng.randint(2, 9)
        graphs = [new_graph(n, "python"), new_graph(n, "compiled")]
        w0 = random_graph(rng, n)
        rows = [w0[i][:i] for i in range(n)]
        for g in graphs:
            g.set_rows(rows)
        for _step in range(5):
            op = rng.random()
            v = rng.randrange(n)
            if op < 0.5:
                edges = [(v, j, rng.choice([0, -3, 5, 1 << 130, rng.randint(1, 10**9)]))
                         for j in range(n) if j != v and rng.random() < 0.6]
                for g in graphs:
                    g.set_many(iter(edges))
            elif op < 0.7:
                mate = graphs[0].solve()
                graphs[1].solve()
                if mate[v] != v and v not in graphs[0].fixed and mate[v] not in graphs[0].fixed:
                    for g in graphs:
                        g.fix(v, mate[v])
            py, c = (g.solve() for g in graphs)
            w = graphs[0].w
            assert graphs[1].w == w
            assert graphs[1].row(v) == graphs[0].row(v)
            assert all(graphs[1].weight(v, j) == w[v][j] for j in range(n))
            assert graphs[1].fixed == graphs[0].fixed
            assert value(w, _mates(c)) == value(w, _mates(py)) == brute_force(w)
            assert all(c[c[x]] == x for x in range(n))


@pytest.mark.parametrize("core", ["python", "compiled"])
@pytest.mark.parametrize("seed", range(3))
def test_an_exchange_without_resolving_is_taken_only_when_still_optimal(core, seed):
    """brackets.pair_bracket raises a player's edges, then asks ``swap_in``/``rotate_in`` for
    his preferred opponent; when they say yes the mate they return must be a maximum-weight
    matching of the raised weights (else the engine would fix a worse pairing)."""
    rng = random.Random(50 + seed)
    accepted = 0
    for _ in range(300):
        n = rng.randint(4, 9)
        g = new_graph(n, core)
        w0 = random_graph(rng, n)
        g.set_rows([w0[i][:i] for i in range(n)])
        mate = g.solve()
        p = rng.randrange(n)
        q = rng.choice([x for x in range(n) if x != p])
        prev = g.row(p)
        if prev[q] <= 0:
            continue
        for j in range(n):
            if prev[j] > 0:
                g.set(p, j, prev[j] * 4 + (3 if j == q else 0))
        m = list(mate)
        ok = (g.rotate_in(m, p, q, prev, list(range(n))) if rng.random() < 0.5
              else g.swap_in(m, p, q, prev))
        if ok:
            accepted += 1
            w = g.w
            assert m[p] == q and m[q] == p
            # optimal for the weights under which ``mate`` was optimal (prev for p) and,
            # since p's raised edge is the heaviest, p keeps q in every optimum of the new ones
            before = [row[:] for row in w]
            for j in range(n):
                before[p][j] = before[j][p] = prev[j]
            assert value(before, _mates(m)) == brute_force(before)
        else:
            assert m == mate
    assert accepted > 10


def test_vertex_numbers_out_of_range_are_refused():
    g = new_graph(3, "compiled")
    with pytest.raises(IndexError):
        g.set(0, 3, 1)
    with pytest.raises(IndexError):
        g.row(-1)

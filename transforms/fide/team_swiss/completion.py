"""FIDE C.04.6 2.1.1 [C1] and 2.2.1 [C3] — who may meet whom, and whether a set of teams can
still all be paired.

[C3] is asked many times a round (after the bye, for every candidate set of upfloaters, for
the rest of the field and for [C6]'s next scoregroup), so it is answered in two steps:

1. Dirac's theorem: a graph of n ≥ 3 vertices whose every vertex has at least n/2 neighbours
   has a Hamiltonian cycle, hence (n even) a perfect matching. A team has met at most one
   opponent a round, so every large set of teams passes this test at once;
2. otherwise Edmonds' blossom algorithm for a maximum-cardinality matching (Edmonds 1965:
   alternating trees grown breadth-first from an exposed vertex, odd cycles shrunk to their
   base), started from a greedy matching, and stopped at the first exposed vertex that no
   augmenting path reaches: then no perfect matching exists.

Written for this project from the textbook description; the weighted matching of the Dutch
engine is not needed for a yes/no question.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Mapping


class Compatibility:
    """FIDE C.04.6 2.1.1 [C1] — two teams may meet unless they have played each other (a
    forfeited match is no meeting, GHR 3.5)."""

    def __init__(self, met: Mapping[int, frozenset[int]]):
        self.met = met

    def allowed(self, a: int, b: int) -> bool:
        """FIDE C.04.6 2.1.1 [C1] — a and b have not played each other."""
        return a != b and b not in self.met[a]

    def perfect(self, teams: Collection[int]) -> bool:
        """FIDE C.04.6 2.2.1 [C3] — the teams can all be paired among themselves."""
        n = len(teams)
        if n % 2:
            return False
        if n == 0:
            return True
        inside = teams if isinstance(teams, (set, frozenset)) else set(teams)
        met = self.met
        if n >= 4 and all(2 * (n - 1 - len(met[t] & inside)) >= n for t in inside):
            return True  # Dirac: a Hamiltonian cycle, so a perfect matching
        return _perfect_matching_exists(sorted(inside), met)


def _perfect_matching_exists(teams: list[int], met: Mapping[int, frozenset[int]]) -> bool:
    """Edmonds' blossom algorithm, stopping at the first vertex it cannot match."""
    n = len(teams)
    index = {t: i for i, t in enumerate(teams)}
    adj: list[list[int]] = []
    for t in teams:
        barred = {index[x] for x in met[t] if x in index}
        me = index[t]
        adj.append([j for j in range(n) if j != me and j not in barred])
    if any(not a for a in adj):
        return False
    mate = [-1] * n
    # greedy start: the vertices with the fewest neighbours first
    for v in sorted(range(n), key=lambda v: len(adj[v])):
        if mate[v] == -1:
            for u in adj[v]:
                if mate[u] == -1:
                    mate[v], mate[u] = u, v
                    break
    return all(mate[root] != -1 or _augment(root, adj, mate) for root in range(n))


def _augment(root: int, adj: list[list[int]], mate: list[int]) -> bool:
    """Grow an alternating tree from the exposed ``root``; flip the first augmenting path
    found. False when there is none (then ``root`` stays exposed in every maximum matching
    that extends this one, and no perfect matching exists)."""
    n = len(adj)
    parent = [-1] * n
    base = list(range(n))
    in_tree = [False] * n
    in_tree[root] = True
    queue = deque([root])

    def common_base(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        for u in adj[v]:
            if base[v] == base[u] or mate[v] == u:
                continue
            if u == root or (mate[u] != -1 and parent[mate[u]] != -1):
                # an odd cycle: shrink it to its base
                b = common_base(v, u)
                blossom = [False] * n
                mark(v, b, u, blossom)
                mark(u, b, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = b
                        if not in_tree[i]:
                            in_tree[i] = True
                            queue.append(i)
            elif parent[u] == -1:
                parent[u] = v
                if mate[u] == -1:
                    # augment along the path back to the root
                    while u != -1:
                        pv = parent[u]
                        nxt = mate[pv]
                        mate[u], mate[pv] = pv, u
                        u = nxt
                    return True
                in_tree[mate[u]] = True
                queue.append(mate[u])
    return False

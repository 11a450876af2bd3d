"""FIDE C.04.6 3.6 — pairing a bracket: the first pairing, by the identifier of 3.6.2, among
those that comply best with [C1], [C8], [C9] and [C10].

In a pair the smaller TPN is the top member, the larger the bottom member (3.6.1). The
identifier lists the top members ascending, then the bottom member of each in that order
(3.6.2: "11-24 16-6 10-9 8-4" is "4 6 9 11 8 16 10 24"); pairings are ordered
lexicographically by it (3.6.3). So two pairings are compared first by their sets of top
members — the smallest TPN that is a top member in one and a bottom member in the other
decides — and then by the bottom members, in the order of the top members.

Decision (3.6.4, "the first that complies with C1, C8, C9, C10"): when no pairing has zero
[C8]-[C10] the pairing minimises [C8], then [C9], then [C10], then takes the first
identifier (criteria of 2.3 "given in descending priority"; Gacrux).

All of this is one minimum-cost perfect matching. A pair's cost, in digits of decreasing
weight (each field wider than the sum the lower fields can reach over a whole pairing):
[C8] 0/1, [C9] 0/1, [C10] 0-2, then one bit per team for "this team is a bottom member" (the
smaller TPN the heavier: with the bits of all bottom members added up, the pairing whose
smallest differing TPN is a top member is cheaper), then the bottom member's place in the
bracket written as a digit in base B+1 at the position of its top member's place (B teams).
The project's maximum-weight matching (``transforms.fide.dutch.matching``) solves it with
weight = K - cost, K larger than any pairing's cost, so the heaviest matching is perfect
whenever a perfect one exists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from transforms.fide.dutch.matching import new_graph
from transforms.fide.team_swiss.colours import both_strong_same, same_colour_wanted
from transforms.fide.team_swiss.completion import Compatibility
from transforms.fide.team_swiss.model import Preference, RoundSettings, TeamState


@dataclass(frozen=True, slots=True)
class BracketPairing:
    """FIDE C.04.6 3.6 — a bracket's pairing, with its identifier and quality."""

    pairs: tuple[tuple[int, int], ...]
    """(top member, bottom member), in the identifier's order."""
    c8: int
    c9: int
    c10: int

    @property
    def identifier(self) -> tuple[int, ...]:
        """FIDE C.04.6 3.6.2 — the top members, then each one's bottom member."""
        return identifier(self.pairs)


def identifier(pairs: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """FIDE C.04.6 3.6.2 — a pairing's identifier: the top members (the smaller TPN of each
    pair) ascending, then the bottom member of each, in the same order."""
    ordered = sorted((min(p), max(p)) for p in pairs)
    return tuple(t for t, _ in ordered) + tuple(b for _, b in ordered)


def pair_quality(a: TeamState, b: TeamState, pa: Preference | None, pb: Preference | None,
                 score: float, settings: RoundSettings) -> tuple[int, int, int]:
    """FIDE C.04.6 2.3.5-2.3.7 — what a pair adds to [C8], [C9] and [C10] in the bracket of
    ``score``.

    Decision: [C10] counts, for each upfloater of the pair (a team whose score is below the
    bracket's), its opponent if that floated in the previous round — so a pair of two
    upfloaters counts each for the other (Gacrux)."""
    c8 = int(same_colour_wanted(pa, pb))
    c9 = int(both_strong_same(pa, pb))
    c10 = 0
    if not settings.last_two_rounds:
        c10 = int(a.paired_on < score and b.floated) + int(b.paired_on < score and a.floated)
    return c8, c9, c10


def pair_bracket(teams: Sequence[TeamState], prefs: dict[int, Preference | None], score: float,
                 compat: Compatibility, settings: RoundSettings) -> BracketPairing | None:
    """FIDE C.04.6 3.6.4 — the bracket's pairing: the first identifier among the pairings
    with the fewest [C8], then [C9], then [C10]; None if [C1] leaves no pairing at all."""
    order = sorted(teams, key=lambda t: t.tpn)
    n = len(order)
    if n % 2:
        return None
    if n == 0:
        return BracketPairing((), 0, 0, 0)
    quality = [[(0, 0, 0)] * n for _ in range(n)]
    for i in range(n):
        a = order[i]
        for j in range(i + 1, n):
            b = order[j]
            quality[i][j] = pair_quality(a, b, prefs[a.tpn], prefs[b.tpn], score, settings)
    half = n // 2
    # the first identifier of all, 1-(half+1), 2-(half+2), ...: the answer when it is legal
    # and costs nothing in [C8]-[C10] (round 1, and every bracket without a conflict)
    if all(compat.allowed(order[i].tpn, order[i + half].tpn) and quality[i][i + half] == (0, 0, 0)
           for i in range(half)):
        return BracketPairing(tuple((order[i].tpn, order[i + half].tpn) for i in range(half)),
                              0, 0, 0)
    mate = _min_cost_perfect(order, quality, compat)
    if mate is None:
        return None
    pairs = tuple((order[i].tpn, order[mate[i]].tpn) for i in range(n) if i < mate[i])
    totals = [sum(quality[i][mate[i]][k] for i in range(n) if i < mate[i]) for k in range(3)]
    return BracketPairing(pairs, totals[0], totals[1], totals[2])


def _min_cost_perfect(order: list[TeamState], quality: list[list[tuple[int, int, int]]],
                      compat: Compatibility) -> list[int] | None:
    """The minimum-cost perfect matching of the module docstring (places 0..n-1 = TPN
    order), or None when [C1] leaves none."""
    n = len(order)
    base = n + 1
    w_bottom_bit = base ** n          # above every sum of bottom-member digits
    w_c10 = w_bottom_bit << n         # above every sum of bottom bits
    w_c9 = w_c10 * (n + 1)            # [C10] totals at most n
    w_c8 = w_c9 * (n + 1)
    ceiling = w_c8 * (n + 1) * n      # K: above the cost of any pairing
    digit = [base ** (n - 1 - i) for i in range(n)]
    g = new_graph(n)
    rows: list[list[int]] = []
    for j in range(n):
        row = []
        bottom_bit = w_bottom_bit << (n - 1 - j)
        for i in range(j):
            if not compat.allowed(order[i].tpn, order[j].tpn):
                row.append(0)
                continue
            c8, c9, c10 = quality[i][j]
            cost = c8 * w_c8 + c9 * w_c9 + c10 * w_c10 + bottom_bit + (j + 1) * digit[i]
            row.append(ceiling - cost)
        rows.append(row)
    g.set_rows(rows)
    mate = g.solve()
    if any(m == v for v, m in enumerate(mate)):
        return None
    return mate

"""FIDE C.04.6 3.5 — the set of upfloaters that joins the top-scoregroup, by [C4]-[C7].

3.5.1 every team with a lower score is a potential upfloater; 3.5.2 the sets considered are
those that comply with [C4] (fewest upfloaters) and [C5] (their scores, taken ascending, as
high as possible); 3.5.3 inside a set: score descending, then TPN ascending; 3.5.4 the sets in
the lexicographic order of those TPN lists; 3.5.5 the first set that, with the
top-scoregroup, gives a legal pairing that also complies with [C6] and [C7].

Decisions (Gacrux's readings, research note 2.3 item 5 and table 2.6):

- A set whose bracket cannot be paired ([C1]) or that leaves the other teams unpairable
  ([C3]) is no candidate: when no set of a score profile is legal the search goes on with the
  next profile ([C5]), then with two more upfloaters ([C4]).
- Among the legal sets of the first profile that has one, the set chosen is the first in
  the 3.5.4 order among those that comply with [C6] if any does, and among them with the
  fewest [C7] (A6, A7: "complies with" = as well as a legal set can).
- [C6] is a yes/no test (A6): what is left of the following scoregroup (the next lower score
  of the teams present this round, the bye's receiver included) can be paired with [C1] and
  [C3] and the fewest upfloaters its parity allows (none if even, one if odd, from any lower
  score). A following scoregroup left empty (by upfloaters, or by the bye) complies.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement

from transforms.fide.team_swiss.completion import Compatibility
from transforms.fide.team_swiss.model import RoundSettings, TeamState

REPORTED = 10
"""How many passed-over sets a bracket's report keeps."""


def profiles(lower: Sequence[TeamState], count: int) -> list[tuple[float, ...]]:
    """FIDE C.04.6 2.3.2 [C5] — the score profiles of ``count`` upfloaters that the lower
    teams allow, best first: scores taken in ascending order, the larger list first."""
    available = Counter(t.paired_on for t in lower)
    scores = sorted(available, reverse=True)
    found = [p for p in combinations_with_replacement(scores, count)
             if all(p.count(s) <= available[s] for s in set(p))]
    return sorted(found, key=sorted, reverse=True)


def candidate_sets(lower: Sequence[TeamState],
                   profile: tuple[float, ...]) -> Iterator[tuple[TeamState, ...]]:
    """FIDE C.04.6 3.5.3-3.5.4 — every set with the score ``profile``, in the lexicographic
    order of its TPN list (score descending, then TPN ascending): with 2, 6, 8 on 3 points,
    1, 3, 5 on 2.5 and the profile (3, 3, 2.5), {2,6,1} < {2,6,3} < {2,6,5} < {2,8,1} < …"""
    wanted = Counter(profile)
    levels = sorted(wanted, reverse=True)
    pools = [sorted((t for t in lower if t.paired_on == s), key=lambda t: t.tpn) for s in levels]

    def from_level(k: int) -> Iterator[tuple[TeamState, ...]]:
        if k == len(levels):
            yield ()
            return
        for chosen in combinations(pools[k], wanted[levels[k]]):
            for rest in from_level(k + 1):
                yield chosen + rest

    return from_level(0)


def c7_count(upfloaters: Sequence[TeamState], settings: RoundSettings) -> int:
    """FIDE C.04.6 2.3.4 [C7] — upfloaters that floated in the previous round (not counted in
    the last two rounds)."""
    if settings.last_two_rounds:
        return 0
    return sum(1 for t in upfloaters if t.floated)


def c6_complied(following: Sequence[TeamState], lower: Sequence[TeamState],
                compat: Compatibility) -> bool:
    """FIDE C.04.6 2.3.3 [C6] — what is left of the following scoregroup can be paired, with
    [C1] and [C3], with the fewest upfloaters its parity allows; an emptied scoregroup
    complies. ``following``: its teams not yet taken; ``lower``: the teams below it."""
    if not following:
        return True
    group = [t.tpn for t in following]
    below = [t.tpn for t in lower]
    options: list[list[int]] = [[]] if len(group) % 2 == 0 else [[x] for x in below]
    for up in options:
        bracket = group + up
        if compat.perfect(bracket):
            left = set(below) - set(up)
            if compat.perfect(left):
                return True
    return False


@dataclass(frozen=True, slots=True)
class Choice:
    """FIDE C.04.6 3.5.5 — the set of upfloaters chosen for a bracket, and how it was found."""

    upfloaters: tuple[TeamState, ...]
    c6: bool
    c7: int
    examined: int
    rejected: tuple[tuple[tuple[int, ...], str], ...]


Verdict = str | tuple[bool, int]
"""What a set examined came to: why it is illegal, or its ([C6] complied, [C7])."""


def choose_upfloaters(residents: Sequence[TeamState], remaining: Sequence[TeamState],
                      following_score: float | None, compat: Compatibility,
                      settings: RoundSettings) -> Choice | None:
    """FIDE C.04.6 3.5 — the upfloaters for the top-scoregroup ``residents`` from the teams
    still to pair (``remaining``, residents included), or None when no set gives a legal
    bracket and a pairable rest. ``following_score``: the next lower score of the round
    ([C6])."""
    score = residents[0].paired_on
    lower = [t for t in remaining if t.paired_on < score]
    everyone = {t.tpn for t in remaining}
    rejected: list[tuple[tuple[int, ...], str]] = []
    examined = 0
    for count in range(len(residents) % 2, len(lower) + 1, 2):
        for profile in profiles(lower, count):
            best: tuple[tuple[int, int, int], tuple[TeamState, ...], bool, int] | None = None
            seen: list[tuple[tuple[int, ...], Verdict]] = []
            for index, ups in enumerate(candidate_sets(lower, profile)):
                examined += 1
                tpns = tuple(t.tpn for t in ups)
                c7 = c7_count(ups, settings)
                verdict: Verdict
                if best is not None and best[0][0] == 0 and best[0][1] <= c7:
                    verdict = (True, c7)  # cannot beat the set in hand: not checked
                else:
                    legal = _legal_set(residents, ups, remaining, everyone, following_score,
                                       compat)
                    if isinstance(legal, str):
                        verdict = legal
                    else:
                        key = (0 if legal else 1, c7, index)
                        if best is None or key < best[0]:
                            best = (key, ups, legal, c7)
                        verdict = (legal, c7)
                if len(seen) < REPORTED:
                    seen.append((tpns, verdict))
                if best is not None and best[0][:2] == (0, 0):
                    break
            if best is None:
                rejected += [(s, r) for s, r in seen if isinstance(r, str)]
                continue
            _, ups, c6, c7 = best
            chosen = tuple(t.tpn for t in ups)
            for s, r in seen:
                if s == chosen:
                    break
                rejected.append((s, r if isinstance(r, str) else _passed_over(r, c6, c7)))
            return Choice(ups, c6, c7, examined, tuple(rejected[:REPORTED]))
    return None


def _legal_set(residents: Sequence[TeamState], ups: Sequence[TeamState],
               remaining: Sequence[TeamState], everyone: set[int],
               following_score: float | None, compat: Compatibility) -> str | bool:
    """Why the set is illegal ([C1] in the bracket, [C3] for the rest), or whether it
    complies with [C6]."""
    bracket = {t.tpn for t in residents} | {t.tpn for t in ups}
    if not compat.perfect(bracket):
        return "C1: the bracket cannot be paired"
    if not compat.perfect(everyone - bracket):
        return "C3: the other teams could not all be paired"
    if following_score is None:
        return True
    following = [t for t in remaining if t.paired_on == following_score and t.tpn not in bracket]
    below = [t for t in remaining if t.paired_on < following_score and t.tpn not in bracket]
    return c6_complied(following, below, compat)


def _passed_over(verdict: tuple[bool, int], c6: bool, c7: int) -> str:
    """Why a legal set before the chosen one in 3.5.4 order was passed over."""
    if c6 and not verdict[0]:
        return "C6: the following scoregroup could not be paired with the fewest upfloaters"
    return (f"C7: {verdict[1]} of its upfloaters floated in the previous round (the chosen "
            f"set: {c7})")

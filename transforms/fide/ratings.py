"""FIDE B.02 rating changes of one event, per edition, from the scorecard.

| rule                                              | B.02 art.   | function                    |
|---------------------------------------------------|-------------|-----------------------------|
| Fractional score p -> rating difference dp        | 8.1.1       | :func:`dp_from_p`           |
| Rating difference D -> scoring probability PD     | 8.1.2       | :func:`expected_hundredths` |
| Unplayed games (forfeits, byes) are not counted   | 5.1         | :func:`rating_changes`      |
| Only games against rated opponents; the 400 rule  | 8.3.1       | :func:`capped_difference`   |
| Delta R = score - PD; Sigma Delta R x K           | 8.3.2       | :func:`game_change`         |
| K: 40 new / 40 junior / 20 / 10                   | 8.3.3       | :func:`k_factor`            |
| K x n must not exceed 700                         | 8.3.3       | :func:`capped_k`            |
| The change rounded, 0.5 away from zero            | 8.3.4       | :func:`rounded_change`      |
| Ratings below 1400 count as unrated               | 7.2.1       | :func:`is_rated`            |
| A first rating: 5 games, pooled, at least 1400    | 7.1.4       | :func:`initial_rating`      |
| A zero score in a first event is disregarded      | 8.2.1       | :func:`initial_rating`      |
| Ra with two hypothetical draws against 1800       | 8.2.2       | :func:`initial_rating`      |
| Ru = Ra + dp, rounded, at most 2200               | 8.2.3       | :func:`initial_rating`      |
| Performance of the event: ARO + dp(p)             | 8.1.1 (C.07 10.2) | :func:`performance_rating` |

Editions (``RatingEdition``; :func:`rules_for`):

- ``fide-2024-03`` — B.02 "FIDE Rating Regulations effective from 1 March 2024" (approved by
  FIDE Council on 15/12/2023): the 400-point rule for every player and every game (the
  once-per-event limit of the 2022 text was abolished, FIDE QC 1 March 2024).
- ``fide-2025-10`` — the same text as amended from 1 October 2025: 8.3.1 "A difference in
  rating of more than 400 points shall be counted for rating purposes as though it were a
  difference of 400 points for players rated below 2650. For players rated 2650 and above,
  the difference between ratings shall be used in all cases".

Every number of the rulebook (K values, thresholds, tables, caps, the floor, the hypothetical
opponents) is a field of :class:`RatingRules`, so that another list (a national list with its
own K or table) is configured, not coded; :data:`FIDE_2024` is FIDE's.

What FIDE knows and the office may not (games rated so far, year of birth, a 2400 or 2300
reached before, FIDE's published K, other games of the rating period, earlier results of an
unrated player) are optional columns of ``players``; where one is missing, the rule's reading
of it is written into the player's ``assumptions`` so that a page can show it.

Deviations and decisions (each pinned by a test in tests/rulebook/test_ratings.py):

- Decision: the event's change is K x Sigma(score - PD) computed exactly and rounded once
  (8.3.2 d, 8.3.4); the per-game changes K x (score - PD) are shown unrounded. 8.3.4 rounds
  "the Rating Change for a Rating Period": when the event is one of several in the period the
  unrounded ``change_exact`` is the figure to add up before rounding.
- Decision: K is decided from the player's state before the event (the list used for the
  event): the event's own games do not move a player past 30 games or 2400 within it.
- Decision: 8.3.3 states its four K lines without an order; they are applied as: a published
  rating that has reached 2400 (now or before) -> 10; a junior (the year of the rating period
  minus the year of birth at most 18) whose rating is under 2300 and has not reached 2300
  before -> 40; fewer than 30 games rated before -> 40; otherwise 20.
- Decision: when an input is not given, K is read as: games so far 30 or more, past the year
  of the 18th birthday, 2400 and 2300 never reached; each reading that could change K is an
  assumption of the player.
- Decision: an explicit ``k_override`` (e.g. the K FIDE published for the player) is the K
  "as defined above" of the 700 rule, so the 700 cap still applies to it.
- Decision: the 700 rule's n is the games counted in the event plus ``other_period_games``
  (other rated games of the same rating period; 0 when not given, an assumption).
- Decision: the game's score (8.3.2 b: 1, 0.5 or 0) is read from the two players' points for
  the round (more, equal, less), so an event that scores a win as 3 is rated as FIDE scores.
- Decision: p is rounded to the nearest hundredth (0.005 up) before the 8.1.1 table, which
  has only hundredths; Ru and the ARO of the performance are rounded half up (8.2.3 says
  "rounded to the nearest whole number"; Ru is positive, so half up is also away from zero).
- Decision: an unrated player's event is taken as the first (8.2.1) and the only results
  pooled (7.1.4) unless earlier results are given (``pool_games``, ``pool_points``,
  ``pool_rating_sum``).
- Decision: the performance of the event is ARO + dp(p) over the games that count (over the
  board, against rated opponents), without the hypothetical opponents of 8.2.2, ARO rounded
  half up, as the C.07 10.2 TPR in transforms/fide/tiebreaks.py; null without such a game.
- Not covered: matches (6), the rate of play (1), rapid and blitz (their own chapter), a
  player rated before the event is rated (8.2.4), the 26-month window of the pool (the
  office passes the pool it has).

SOURCE of the text and both tables: B.02 "FIDE Rating Regulations effective from 1 March 2024"
(handbook.fide.com/chapter/B022024), §7 and §8 as transcribed verbatim, with tables 8.1.1
and 8.1.2 read from the page's table markup, in a public project's verification record
(docs/research/VERIFICATION_2026-10-09.md, "Verification sweep", item 1: fetched 2026-10-09,
the page then carrying the 1 October 2025 amendment of 8.3.1); the two tables are also those
transforms/fide/tiebreaks.py used for TPR and PTP, checked there against FIDE's tie-break
exercises (tests/rulebook/test_tiebreaks_reference.py). The 8.3.1 wording before that
amendment ("as though it were a difference of 400 points", no 2650 exemption, no limit per
event) is as FIDE's press release of September 2025 and the FIDE QC note of 1 March 2024
describe it, and as the Rapid and Blitz chapter of the same edition (7.3.1) still words it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, NamedTuple

import polars as pl

from transforms.core.errors import ConfigError
from transforms.core.model import SCORECARD_SCHEMA, Kind

# ------------------------------------------------------------------------------- the tables

# SOURCE: FIDE Handbook B.02, Rating Regulations effective from 1 March 2024, table 8.1.1 (as
# transcribed from handbook.fide.com/chapter/B022024, see the module docstring)
# "The table of conversion from fractional score, p, into rating differences, dp".
# Index = p in hundredths, .00 .. 1.0; "For a zero or 1.0 score dp is
# necessarily indeterminate but is shown notionally as 800" (8.1).
FIDE_DP_TABLE: tuple[int, ...] = (
    -800, -677, -589, -538, -501, -470, -444, -422, -401, -383,   # .00 .. .09
    -366, -351, -336, -322, -309, -296, -284, -273, -262, -251,   # .10 .. .19
    -240, -230, -220, -211, -202, -193, -184, -175, -166, -158,   # .20 .. .29
    -149, -141, -133, -125, -117, -110, -102, -95, -87, -80,      # .30 .. .39
    -72, -65, -57, -50, -43, -36, -29, -21, -14, -7,              # .40 .. .49
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65,                         # .50 .. .59
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141,                 # .60 .. .69
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230,             # .70 .. .79
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351,             # .80 .. .89
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677,             # .90 .. .99
    800,                                                          # 1.0
)

# SOURCE: FIDE Handbook B.02, Rating Regulations effective from 1 March 2024, table 8.1.2 (as
# transcribed from handbook.fide.com/chapter/B022024, see the module docstring)
# "Table of conversion of difference in rating, D, into scoring probability PD, for the
# higher, H, and the lower, L, rated player respectively". One row per band of D: (highest D
# of the band, PD H, PD L) in hundredths; a band starts one above the previous one (the first
# at 0); None = "> 735".
FIDE_PD_TABLE: tuple[tuple[int | None, int, int], ...] = (
    (3, 50, 50), (10, 51, 49), (17, 52, 48), (25, 53, 47), (32, 54, 46), (39, 55, 45),
    (46, 56, 44), (53, 57, 43), (61, 58, 42), (68, 59, 41), (76, 60, 40), (83, 61, 39),
    (91, 62, 38), (98, 63, 37), (106, 64, 36), (113, 65, 35), (121, 66, 34), (129, 67, 33),
    (137, 68, 32), (145, 69, 31), (153, 70, 30), (162, 71, 29), (170, 72, 28), (179, 73, 27),
    (188, 74, 26), (197, 75, 25), (206, 76, 24), (215, 77, 23), (225, 78, 22), (235, 79, 21),
    (245, 80, 20), (256, 81, 19), (267, 82, 18), (278, 83, 17), (290, 84, 16), (302, 85, 15),
    (315, 86, 14), (328, 87, 13), (344, 88, 12), (357, 89, 11), (374, 90, 10), (391, 91, 9),
    (411, 92, 8), (432, 93, 7), (456, 94, 6), (484, 95, 5), (517, 96, 4), (559, 97, 3),
    (619, 98, 2), (735, 99, 1), (None, 100, 0),
)


# ------------------------------------------------------------------------------- the rules


class RatingEdition(StrEnum):
    """Which text of FIDE B.02 rates the event."""

    FIDE_2024_03 = "fide-2024-03"
    """B.02 effective from 1 March 2024: the 400-point rule for every player."""
    FIDE_2025_10 = "fide-2025-10"
    """B.02 as amended from 1 October 2025: no 400-point cap for players rated 2650+."""


@dataclass(frozen=True, slots=True)
class RatingRules:
    """Every number of a rating list's rulebook (FIDE's: :data:`FIDE_2024`)."""

    name: str
    """What the assumptions and notes call the text (e.g. "B.02")."""
    edition: str
    dp_table: tuple[int, ...] = FIDE_DP_TABLE
    """8.1.1: dp for p = 0, 0.01, ..., 1 (101 entries)."""
    pd_table: tuple[tuple[int | None, int, int], ...] = FIDE_PD_TABLE
    """8.1.2: (highest D of the band or None for the last, PD H, PD L) in hundredths."""
    max_difference: int | None = 400
    """8.3.1: a larger difference counts as this one (None: no cap)."""
    uncapped_from: int | None = None
    """8.3.1 (2025-10): players rated this or more use the full difference."""
    k_new: int = 40
    new_until_games: int = 30
    """8.3.3: K ``k_new`` until the player has completed events with this many games."""
    k_junior: int = 40
    junior_age: int = 18
    junior_below: int = 2300
    """8.3.3: K ``k_junior`` until the end of the year of the ``junior_age`` birthday, as long
    as the rating remains under ``junior_below``."""
    k_standard: int = 20
    k_top: int = 10
    top_from: int = 2400
    """8.3.3: K ``k_standard`` under ``top_from``; ``k_top`` once the published rating has
    reached it, even if it drops below."""
    k_games_cap: int | None = 700
    """8.3.3: K x n must not exceed this (None: no cap)."""
    floor: int | None = 1400
    """7.1.4 / 7.2.1: the lowest rating on the list; below it a player is unrated."""
    initial_min_games: int = 5
    """7.1.4: games against rated opponents a first rating needs."""
    initial_max: int | None = 2200
    """8.2.3: the maximum initial rating."""
    hypothetical_opponents: int = 2
    hypothetical_rating: int = 1800
    """8.2.2: hypothetical opponents of an unrated player, each a draw."""
    disregard_zero_first_event: bool = True
    """8.2.1: a zero score in a player's first event is disregarded."""

    def __post_init__(self) -> None:
        if len(self.dp_table) != 101:
            raise ValueError(f"{self.name}: dp_table needs 101 entries (p = 0 .. 1), "
                             f"got {len(self.dp_table)}")
        uppers = [u for u, _, _ in self.pd_table]
        inner = [u for u in uppers[:-1] if u is not None]
        if not uppers or uppers[-1] is not None or len(inner) < len(uppers) - 1 \
                or inner != sorted(set(inner)):
            raise ValueError(f"{self.name}: pd_table bands must rise and end with None")


FIDE_2024 = RatingRules(name="B.02", edition=RatingEdition.FIDE_2024_03.value)
"""FIDE B.02 effective from 1 March 2024 (the defaults of :class:`RatingRules`)."""
FIDE_2025_10 = replace(FIDE_2024, edition=RatingEdition.FIDE_2025_10.value, uncapped_from=2650)
"""FIDE B.02 as amended from 1 October 2025 (8.3.1: no cap for players rated 2650+)."""

_EDITIONS = {RatingEdition.FIDE_2024_03: FIDE_2024, RatingEdition.FIDE_2025_10: FIDE_2025_10}


def rules_for(edition: str | RatingEdition) -> RatingRules:
    """FIDE B.02 — the rules of an edition (``fide-2024-03``, ``fide-2025-10``)."""
    try:
        return _EDITIONS[RatingEdition(edition)]
    except ValueError:
        known = ", ".join(e.value for e in RatingEdition)
        raise ValueError(f"unknown rating edition {edition!r}; known: {known}") from None


# ------------------------------------------------------------------------------- arithmetic


def _round_half_up(num: int, den: int) -> int:
    """num / den (den > 0) to the nearest whole number, halves up (exact)."""
    return (2 * num + den) // (2 * den)


def dp_from_p(p_hundredths: int, rules: RatingRules = FIDE_2024) -> int:
    """FIDE B.02 8.1.1 — the rating difference dp for a fractional score p (in hundredths)."""
    if not 0 <= p_hundredths <= 100:
        raise ValueError(f"p must be 0 .. 100 hundredths, got {p_hundredths}")
    return rules.dp_table[p_hundredths]


def expected_hundredths(diff: int, rules: RatingRules = FIDE_2024) -> int:
    """FIDE B.02 8.1.2 — the scoring probability PD (hundredths) of a player rated ``diff``
    above the opponent: the H column for diff >= 0, the L column below 0."""
    d = abs(diff)
    low = 0
    for upper, high_pd, low_pd in rules.pd_table:
        if upper is None or low <= d <= upper:
            return high_pd if diff >= 0 else low_pd
        low = upper + 1
    raise AssertionError("unreachable: the last band is open")


def is_rated(rating: int | None, rules: RatingRules = FIDE_2024) -> bool:
    """FIDE B.02 7.2.1 — a player is rated with a rating on the list; "Players whose ratings
    drop below 1400 are shown as unrated" (a rating under the floor, 0 or none: unrated)."""
    if rating is None or rating <= 0:
        return False
    return rules.floor is None or rating >= rules.floor


def capped_difference(rating: int, opponent_rating: int, rules: RatingRules = FIDE_2024) -> int:
    """FIDE B.02 8.3.1 — D, the player's rating minus the opponent's; "A difference in rating
    of more than 400 points shall be counted for rating purposes as though it were a
    difference of 400 points" (from 1 October 2025 only for players rated below 2650)."""
    d = rating - opponent_rating
    if rules.max_difference is None:
        return d
    if rules.uncapped_from is not None and rating >= rules.uncapped_from:
        return d
    return max(-rules.max_difference, min(rules.max_difference, d))


def game_change(score: float, expected: int, k: int) -> float:
    """FIDE B.02 8.3.2 — the change of one game: K x Delta R, Delta R = score - PD (PD in
    hundredths), unrounded."""
    return k * (round(score * 100) - expected) / 100


def rounded_change(change_hundredths: int) -> int:
    """FIDE B.02 8.3.4 — "The Rating Change for a Rating Period is rounded to the nearest whole
    number. 0.5 is rounded away from zero." (the change given exactly, in hundredths)."""
    sign = -1 if change_hundredths < 0 else 1
    return sign * ((abs(change_hundredths) + 50) // 100)


# ------------------------------------------------------------------------------- K


class KFactor(NamedTuple):
    """A K and why: the article applied and the readings of missing inputs."""

    k: int
    reason: str
    assumptions: tuple[str, ...] = ()


def k_factor(rating: int, *, period_year: int, rules: RatingRules = FIDE_2024,
             games_before: int | None = None, birth_year: int | None = None,
             reached_2400: bool | None = None, reached_2300: bool | None = None,
             k_override: int | None = None) -> KFactor:
    """FIDE B.02 8.3.3 — K, the development coefficient: 40 for a player new to the list until
    30 games are completed; 40 until the end of the year of the 18th birthday as long as the
    rating remains under 2300; 20 as long as the rating remains under 2400; 10 once the
    published rating has reached 2400, even if it drops below.

    Decision: the lines are applied in the order 2400 reached, junior, new, 20 (see the module
    docstring); ``reached_2400``/``reached_2300`` say whether an earlier published rating
    reached 2400/2300; missing inputs are read as the module docstring says and returned as
    assumptions. ``period_year`` is the year of the rating period (the list)."""
    r = rules
    if k_override is not None:
        return KFactor(k_override, f"K {k_override}: given (k_override)")
    notes: list[str] = []
    if rating >= r.top_from:
        return KFactor(r.k_top, f"K {r.k_top}: rating {rating} has reached {r.top_from} "
                                f"({r.name} 8.3.3)")
    if reached_2400:
        return KFactor(r.k_top, f"K {r.k_top}: reached {r.top_from} before, stays "
                                f"({r.name} 8.3.3)")
    if reached_2400 is None:
        notes.append(f"{r.top_from} never reached assumed (not given)")
    junior_until = None if birth_year is None else birth_year + r.junior_age
    if junior_until is not None and period_year <= junior_until and rating < r.junior_below \
            and not reached_2300:
        if reached_2300 is None:
            notes.append(f"{r.junior_below} never reached assumed (not given)")
        return KFactor(r.k_junior, f"K {r.k_junior}: born {birth_year}, under {r.junior_below}, "
                                   f"until the end of {junior_until} ({r.name} 8.3.3)",
                       tuple(notes))
    if games_before is not None and games_before < r.new_until_games:
        return KFactor(r.k_new, f"K {r.k_new}: {games_before} games before, new until "
                                f"{r.new_until_games} ({r.name} 8.3.3)", tuple(notes))
    if birth_year is None and rating < r.junior_below:
        notes.append(f"past the year of the {r.junior_age}th birthday assumed "
                     f"(birth year not given)")
    if games_before is None:
        notes.append(f"{r.new_until_games} or more games so far assumed (not given)")
    return KFactor(r.k_standard, f"K {r.k_standard}: rating under {r.top_from} "
                                 f"({r.name} 8.3.3)", tuple(notes))


def capped_k(k: int, games: int, rules: RatingRules = FIDE_2024) -> KFactor:
    """FIDE B.02 8.3.3 — "If the number of games (n) for a player on any list for a rating
    period multiplied by K (as defined above) exceeds 700, then K shall be the largest whole
    number such that K x n does not exceed 700."."""
    cap = rules.k_games_cap
    if cap is None or games == 0 or k * games <= cap:
        return KFactor(k, "")
    new = cap // games
    return KFactor(new, f"K {new}: {k} x {games} games exceeds {cap} ({rules.name} 8.3.3)")


# ------------------------------------------------------------------------------- performances


def performance_rating(opponent_ratings: Sequence[int], points: float,
                       rules: RatingRules = FIDE_2024) -> int | None:
    """FIDE B.02 8.1.1 (as C.07 10.2 TPR) — the performance: the average rating of the
    opponents (rounded half up) + dp(p), p = points / games rounded to hundredths (0.005 up);
    None without an opponent."""
    n = len(opponent_ratings)
    if n == 0:
        return None
    aro = _round_half_up(sum(opponent_ratings), n)
    p = _round_half_up(round(points * 100), n)
    return aro + dp_from_p(p, rules)


class InitialRating(NamedTuple):
    """A first rating (8.2) or why there is none."""

    rating: int | None
    """The rating to publish, None if none (too few games, below the floor, disregarded)."""
    ru: int | None
    """Ru = Ra + dp rounded, before the maximum and the floor."""
    ra: float | None
    """Ra, the average with the hypothetical opponents."""
    p: int | None
    """p in hundredths, the hypothetical draws included."""
    games: int
    """Games against rated opponents pooled (without the hypothetical ones)."""
    needs_games: int
    """Games against rated opponents still needed (7.1.4)."""
    note: str


def initial_rating(games: int, points: float, rating_sum: int, *,
                   rules: RatingRules = FIDE_2024) -> InitialRating:
    """FIDE B.02 8.2.2, 8.2.3, 7.1.4 — the initial rating of an unrated player from the pooled
    results against rated opponents (``games``, ``points``, the sum of their ratings): Ra is
    their average with two hypothetical opponents rated 1800, each a draw; Ru = Ra + dp(p);
    "Ru is rounded to the nearest whole number. The maximum initial rating is 2200."; published
    when "based on at least 5 games against rated opponents" and "at least 1400"."""
    r = rules
    needs = max(0, r.initial_min_games - games)
    if needs:
        return InitialRating(None, None, None, None, games, needs,
                             f"no rating yet: {games} games against rated opponents, needs "
                             f"{needs} more ({r.name} 7.1.4)")
    n = games + r.hypothetical_opponents
    total = rating_sum + r.hypothetical_opponents * r.hypothetical_rating
    half_points = round(points * 2) + r.hypothetical_opponents  # each hypothetical game a draw
    p = _round_half_up(100 * half_points, 2 * n)
    dp = dp_from_p(p, r)
    ru = _round_half_up(total + dp * n, n)
    ra = total / n
    if r.initial_max is not None and ru > r.initial_max:
        return InitialRating(r.initial_max, ru, ra, p, games, 0,
                             f"first rating {r.initial_max}: Ru {ru} above the maximum "
                             f"({r.name} 8.2.3)")
    if r.floor is not None and ru < r.floor:
        return InitialRating(None, ru, ra, p, games, 0,
                             f"no rating: Ru {ru} below {r.floor} ({r.name} 7.1.4)")
    return InitialRating(ru, ru, ra, p, games, 0,
                         f"first rating {ru}: Ra {ra:.2f} + dp {dp} (p {p / 100:.2f}) "
                         f"({r.name} 8.2.3)")


# ------------------------------------------------------------------------------- the event


class RatingChanges(NamedTuple):
    """The event's rating changes: per game and per player (see :func:`rating_changes`)."""

    games: pl.DataFrame
    players: pl.DataFrame


GAME_SCHEMA: dict[str, pl.DataType] = {
    "sno": pl.Int32(), "round": pl.Int32(), "opponent": pl.Int32(), "kind": pl.String(),
    "rating": pl.Int32(), "opponent_rating": pl.Int32(), "score": pl.Float64(),
    "counts": pl.Boolean(), "note": pl.String(), "difference": pl.Int32(),
    "expected": pl.Float64(), "k": pl.Int32(), "change": pl.Float64(),
}
"""Per game: one row per player and paired round (games and forfeits; byes and absences have
no opponent and no row). ``rating``/``opponent_rating`` as rated (null: unrated); ``score`` 1,
0.5, 0 (8.3.2 b; null for a forfeit); ``counts``: the game counts for the player (for a rated
player's change, for an unrated player's first rating); ``difference`` (8.3.1, capped),
``expected`` (PD), ``k`` and ``change`` (K x (score - PD), unrounded) for rated players."""

PLAYER_SCHEMA: dict[str, pl.DataType] = {
    "sno": pl.Int32(), "rating": pl.Int32(), "rated": pl.Boolean(), "k": pl.Int32(),
    "games": pl.Int32(), "score": pl.Float64(), "expected": pl.Float64(),
    "change_exact": pl.Float64(), "change": pl.Int32(), "new_rating": pl.Int32(),
    "aro": pl.Int32(), "performance": pl.Int32(), "initial_rating": pl.Int32(),
    "needs_games": pl.Int32(), "note": pl.String(), "assumptions": pl.List(pl.String()),
}
"""Per player: ``games``/``score``/``expected`` (Sigma PD) over the games that count;
``change_exact`` = K x Sigma(score - PD), ``change`` rounded (8.3.4), ``new_rating`` = rating +
change (rated players); ``aro`` and ``performance`` over the games that count;
``initial_rating``, ``needs_games`` (unrated players, pool included); ``note`` what was applied
(K and its cap, or the first rating); ``assumptions`` the readings of missing inputs."""

OPTIONAL_PLAYER_COLUMNS: dict[str, pl.DataType] = {
    "birth_year": pl.Int32(), "games_before": pl.Int32(), "reached_2400": pl.Boolean(),
    "reached_2300": pl.Boolean(), "k_override": pl.Int32(), "other_period_games": pl.Int32(),
    "pool_games": pl.Int32(), "pool_points": pl.Float64(), "pool_rating_sum": pl.Int64(),
}
"""What ``players`` may add to sno and rating (null or absent: not known)."""


def _players_input(players: pl.DataFrame, rules: RatingRules) -> pl.DataFrame:
    cols = [pl.col("sno").cast(pl.Int32), pl.col("rating").cast(pl.Int32)]
    cols += [(pl.col(c) if c in players.columns else pl.lit(None)).cast(t).alias(c)
             for c, t in OPTIONAL_PLAYER_COLUMNS.items()]
    out = players.select(cols)
    rated = pl.Series("rated", [is_rated(x, rules) for x in out["rating"]], dtype=pl.Boolean)
    return out.with_columns(rated).with_columns(
        pl.when(pl.col("rated")).then(pl.col("rating")).alias("list_rating"))


def _at_rounds(card: pl.DataFrame, later: pl.DataFrame | None, who: str, rules: RatingRules
              ) -> pl.DataFrame:
    """``card`` with ``later_rating``: the rating in force in each row's round for the player
    in column ``who`` (``sno`` or ``opponent``), from ``later`` (sno, from_round, rating: a
    later list's rating from that round on), and ``later_from``: the first round of that list;
    both null where no later list applies."""
    if later is None or later.is_empty():
        return card.with_columns(pl.lit(None, pl.Int32).alias("later_rating"),
                                 pl.lit(None, pl.Int32).alias("later_from"))
    last = int(card["round"].max() or 0)  # type: ignore[arg-type]
    steps: dict[int, list[tuple[int, int | None]]] = {}
    for sno, frm, rating in later.select("sno", "from_round", "rating").iter_rows():
        steps.setdefault(int(sno), []).append((int(frm), rating))
    rows = []  # (player, round, the rating of the latest list in force by then, its first round)
    for sno, found in steps.items():
        found.sort()
        for rnd in range(found[0][0], last + 1):
            frm, x = [(f, x) for f, x in found if f <= rnd][-1]
            rows.append((sno, rnd, x or 0, frm))  # (empty: unrated)
    table = pl.DataFrame(rows, schema={who: pl.Int32, "round": card.schema["round"],
                                       "later_rating": pl.Int32, "later_from": pl.Int32}, orient="row")
    out = card.with_columns(pl.col(who).cast(pl.Int32)).join(table, on=[who, "round"], how="left",
                                                             maintain_order="left")
    rating = pl.col("later_rating")
    rated = (rating > 0) & (rating >= rules.floor) if rules.floor is not None else rating > 0
    return out.with_columns(  # (0: unrated on that list, 7.2.1)
        pl.when(rating.is_null()).then(None).when(rated).then(rating).otherwise(0)
        .cast(pl.Int32).alias("later_rating"))


def _game_rows(scorecard: pl.DataFrame, people: pl.DataFrame, later: pl.DataFrame | None = None,
               rules: RatingRules = FIDE_2024) -> pl.DataFrame:
    """Every paired round with both sides' ratings (in force in that round: ``later``, see
    :func:`rating_changes`), the score and whether it counts."""
    card = scorecard.select(list(SCORECARD_SCHEMA)).cast(SCORECARD_SCHEMA)  # type: ignore[arg-type]  # polars#14468: cast() rejects a dict[str, DataType] variable
    own = people.select("sno", pl.col("list_rating").alias("rating"), "rated")
    opp = people.select(pl.col("sno").alias("opponent"),
                        pl.col("list_rating").alias("opponent_rating"),
                        pl.col("rated").alias("opponent_rated"))
    back = card.select("round", pl.col("sno").alias("opponent"),
                       pl.col("opponent").alias("sno"), pl.col("points").alias("opp_points"))
    played = pl.col("kind") == Kind.PLAYED.value
    diff = pl.col("points") - pl.col("opp_points").fill_null(1.0 - pl.col("points"))
    score = pl.when(diff > 0).then(1.0).when(diff < 0).then(0.0).otherwise(0.5)
    rows = (card.filter(pl.col("opponent").is_not_null())
            .join(own, on="sno", how="left").join(opp, on="opponent", how="left")
            .join(back, on=["round", "sno", "opponent"], how="left"))
    if later is not None and not later.is_empty():
        # a later list in force from a round on: the player's own rating where rated at the
        # start (K and the rated status stay the start's), the opponent's as the list gives it
        rows = _at_rounds(rows, later, "sno", rules).with_columns(
            pl.when(pl.col("rated") & (pl.col("later_rating") > 0)).then(pl.col("later_rating"))
            .otherwise(pl.col("rating")).alias("rating"),
            pl.when(pl.col("rated") & (pl.col("later_rating") > 0)).then(pl.col("later_from"))
            .alias("list_from")).drop("later_rating", "later_from")
        rows = _at_rounds(rows, later, "opponent", rules).with_columns(
            pl.when(pl.col("later_rating").is_not_null())
            .then(pl.when(pl.col("later_rating") > 0).then(pl.col("later_rating")))
            .otherwise(pl.col("opponent_rating")).alias("opponent_rating"),
            pl.when(pl.col("later_rating").is_not_null()).then(pl.col("later_rating") > 0)
            .otherwise(pl.col("opponent_rated")).alias("opponent_rated")).drop("later_rating", "later_from")
    else:
        rows = rows.with_columns(pl.lit(None, pl.Int32).alias("list_from"))
    rows = rows.with_columns(pl.col("rated").fill_null(False), pl.col("opponent_rated").fill_null(False),
                             pl.when(played).then(score).alias("score"))
    note = (pl.when(~played).then(pl.lit("not rated: unplayed game (B.02 5.1)"))
            .when(~pl.col("opponent_rated"))
            .then(pl.lit("not rated: opponent unrated (B.02 8.3.1, 8.2.2)"))
            .when(pl.col("rated")).then(pl.lit("rated game (B.02 8.3)"))
            .otherwise(pl.lit("toward a first rating (B.02 8.2.2)")))
    return rows.with_columns(
        (played & pl.col("opponent_rated")).alias("counts"), note.alias("note"),
    ).sort("sno", "round")


def _player_k(row: dict[str, Any], games: int, rules: RatingRules, period_year: int
              ) -> tuple[int, list[str], list[str]]:
    """K for a rated player and the event's n: (K, notes, assumptions)."""
    base = k_factor(row["list_rating"], period_year=period_year, rules=rules,
                    games_before=row["games_before"], birth_year=row["birth_year"],
                    reached_2400=row["reached_2400"], reached_2300=row["reached_2300"],
                    k_override=row["k_override"])
    assumptions = list(base.assumptions)
    other = row["other_period_games"]
    if other is None:
        other = 0
        if rules.k_games_cap is not None:
            assumptions.append(f"n = the event's {games} games: no other games in the rating "
                               "period assumed (not given)")
    capped = capped_k(base.k, games + other, rules)
    notes = [base.reason] + ([capped.reason] if capped.reason else [])
    return capped.k, notes, assumptions


def _rated_player(row: dict[str, Any], g: pl.DataFrame, rules: RatingRules, period_year: int) -> dict[str, Any]:
    k, notes, assumptions = _player_k(row, g.height, rules, period_year)
    expected = [expected_hundredths(capped_difference(own, o, rules), rules)
                for own, o in zip(g["rating"], g["opponent_rating"], strict=True)]
    score100 = round(sum(g["score"]) * 100)
    change100 = k * (score100 - sum(expected))
    change = rounded_change(change100)
    new_rating = row["list_rating"] + change
    since = g["list_from"][-1] if g.height else None
    if since is not None:  # a later list in force at the last game: its rating and its games
        under = [i for i, f in enumerate(g["list_from"]) if f == since]
        score = round(sum(g["score"][i] for i in under) * 100)
        new_rating = g["rating"][-1] + rounded_change(k * (score - sum(expected[i] for i in under)))
        notes.append(f"the list in force from round {since}: {g['rating'][-1]}")
    return {"k": k, "expected": sum(expected) / 100, "change_exact": change100 / 100,
            "change": change, "new_rating": new_rating,
            "note": "; ".join(notes), "assumptions": assumptions}


def _unrated_player(row: dict[str, Any], g: pl.DataFrame, rules: RatingRules) -> dict[str, Any]:
    games, points, rating_sum = g.height, float(sum(g["score"])), int(sum(g["opponent_rating"]))
    assumptions: list[str] = []
    pooled = row["pool_games"] is not None and row["pool_games"] > 0
    prefix = ""
    if not pooled:
        assumptions.append("no earlier results against rated opponents given: this event is "
                           f"the first and the only one pooled ({rules.name} 8.2.1, 7.1.4)")
        if rules.disregard_zero_first_event and games and points == 0:
            prefix = f"zero score in a first event disregarded ({rules.name} 8.2.1); "
            games, points, rating_sum = 0, 0.0, 0
    else:
        games += row["pool_games"]
        points += row["pool_points"] or 0.0
        rating_sum += row["pool_rating_sum"] or 0
    first = initial_rating(games, points, rating_sum, rules=rules)
    return {"initial_rating": first.rating, "needs_games": first.needs_games,
            "note": prefix + first.note, "assumptions": assumptions}


def rating_changes(scorecard: pl.DataFrame, players: pl.DataFrame, *, period_year: int,
                   rules: RatingRules = FIDE_2024, later: pl.DataFrame | None = None) -> RatingChanges:
    """FIDE B.02 8.3 and 8.2 — the rating changes of one event (rated players) and the first
    ratings it leads to (unrated players), with the performance of everybody.

    ``scorecard`` is the section's scorecard (transforms/core/model.py); ``players`` has sno,
    rating (null, 0 or under the floor: unrated) and any of :data:`OPTIONAL_PLAYER_COLUMNS`;
    ``period_year`` is the year of the rating period (the junior rule of 8.3.3). Games that
    count (8.3.1, 5.1): over the board (no forfeit, no bye) against a rated opponent. Returns
    the frames of :data:`GAME_SCHEMA` and :data:`PLAYER_SCHEMA`; see the module's decisions.

    ``later`` (sno, from_round, rating): in an event longer than 30 days, the ratings of the
    lists that come into force while it is played, each from the first round of its rating
    period. Decision (FIDE B.02's reporting by rating period, and FIDE's checklist for
    tournament programs (VCL4THP, questions 210-216) as a third-party program's tests describe
    it — its text was not at hand —: each game of an event longer than 30 days is scored
    with the ratings of its own round): each
    game's expected score is computed with both players' ratings in force in its round; K,
    and whether a player is rated, are the start's (B.02 8.3.3 reads them before the event);
    an opponent unrated at the start and rated on a later list counts from that round;
    ``new_rating`` is the rating of the last list in force plus the rounded change of the
    games played under it (the earlier periods' changes are in that list already), with a
    note naming it."""
    people = _players_input(players, rules)
    rows = _game_rows(scorecard, people, later, rules)
    counted = rows.filter(pl.col("counts"))
    by_player = {key[0]: g for key, g in counted.partition_by("sno", as_dict=True).items()}
    none = counted.clear()
    out = []
    for row in people.sort("sno").iter_rows(named=True):
        g = by_player.get(row["sno"], none)
        base = {"sno": row["sno"], "rating": row["list_rating"], "rated": row["rated"],
                "games": g.height, "score": float(sum(g["score"])),
                "aro": (_round_half_up(int(sum(g["opponent_rating"])), g.height)
                        if g.height else None),
                "performance": performance_rating(g["opponent_rating"].to_list(),
                                                  float(sum(g["score"])), rules)}
        if row["rated"]:
            base |= _rated_player(row, g, rules, period_year)
        else:
            base |= _unrated_player(row, g, rules)
        out.append(base)
    per_player = pl.DataFrame(out, schema=PLAYER_SCHEMA, orient="row") if out else \
        pl.DataFrame(schema=PLAYER_SCHEMA)
    return RatingChanges(_per_game(rows, per_player, rules), per_player)


def _per_game(rows: pl.DataFrame, per_player: pl.DataFrame, rules: RatingRules) -> pl.DataFrame:
    """The per-game columns of the rated players' counted games (plain Python: table look-ups)."""
    rows = rows.join(per_player.select("sno", pl.col("k").alias("player_k")), on="sno", how="left")
    values: list[tuple[int | None, float | None, int | None, float | None]] = []
    for rated, counts, own, opp, score, k in zip(
            rows["rated"], rows["counts"], rows["rating"], rows["opponent_rating"],
            rows["score"], rows["player_k"]):
        if rated and counts:
            d = capped_difference(own, opp, rules)
            e = expected_hundredths(d, rules)
            values.append((d, e / 100, k, game_change(score, e, k)))
        else:
            values.append((None, None, None, None))
    columns = zip(*values) if values else ([], [], [], [])
    rows = rows.with_columns(
        pl.Series(name, list(col), dtype=dtype) for (name, dtype), col in zip(
            [("difference", pl.Int32), ("expected", pl.Float64), ("k", pl.Int32),
             ("change", pl.Float64)], columns))
    return rows.select(list(GAME_SCHEMA)).cast(GAME_SCHEMA)  # type: ignore[arg-type]  # polars#14468: cast() rejects a dict[str, DataType] variable


# ------------------------------------------------------------------------------- configuration

RATED_COLUMNS = ("rating", "national_rating")
"""The players.csv columns a rating list may read the players' ratings from."""


@dataclass(frozen=True)
class RatingList:
    """One rating list the event is rated for (event.toml ``[[ratings.lists]]``): FIDE's by
    default; a national federation's with its own K (configured, not coded)."""

    name: str = "FIDE"
    """The list's name as the pages print it ("FIDE", "AICF")."""
    column: str = "rating"
    """The players.csv column holding the players' ratings on this list: ``rating`` or
    ``national_rating``."""
    edition: RatingEdition = RatingEdition.FIDE_2024_03
    """The text of FIDE B.02 the list follows (a national list: the one its K and table
    amend)."""
    k_new: int | None = None
    """K of a player new to the list (FIDE: 40); left out: the edition's."""
    new_until_games: int | None = None
    """Games after which a player is no longer new (FIDE: 30)."""
    k_junior: int | None = None
    """K of a junior (FIDE: 40, to the end of the year of the 18th birthday, under 2300)."""
    junior_age: int | None = None
    """The age to the end of whose year a player is a junior (FIDE: 18)."""
    junior_below: int | None = None
    """The rating under which a junior keeps the junior K (FIDE: 2300)."""
    k_standard: int | None = None
    """K of everybody else under ``top_from`` (FIDE: 20)."""
    k_top: int | None = None
    """K once the rating has reached ``top_from`` (FIDE: 10)."""
    top_from: int | None = None
    """FIDE: 2400."""
    max_difference: int | None = None
    """The rating difference a larger one counts as (FIDE: 400)."""
    k_games_cap: int | None = None
    """K x games in the period must not exceed this (FIDE: 700)."""
    floor: int | None = None
    """The lowest rating on the list (FIDE: 1400)."""

    def __post_init__(self) -> None:
        if self.column not in RATED_COLUMNS:
            raise ConfigError("", "column", f"{self.column!r} is not one of "
                              f"{', '.join(RATED_COLUMNS)} (the players.csv columns of ratings)")

    def rules(self) -> RatingRules:
        """FIDE B.02 as this list applies it: the edition's numbers, with the list's own."""
        base = rules_for(self.edition)
        own = {f: getattr(self, f) for f in ("k_new", "new_until_games", "k_junior", "junior_age",
                                             "junior_below", "k_standard", "k_top", "top_from",
                                             "max_difference", "k_games_cap", "floor")
               if getattr(self, f) is not None}
        return replace(base, name=base.name if self.name == "FIDE" else f"{self.name} list", **own)


@dataclass(frozen=True)
class RatingsConfig:
    """``[ratings]``: the rating lists an over-the-board event is rated for (FIDE B.02), whose
    changes its pages, standings and letters show. An event with ``[fide_report]`` is rated
    for FIDE's list even without this table."""

    lists: tuple[RatingList, ...] = (RatingList(),)
    """The lists, FIDE's first (``[[ratings.lists]]``); default: FIDE's only."""
    period_year: int | None = None
    """The year of the rating period (8.3.3: the junior K); left out: the event's start year."""
    rate: str = "standard"
    """The rate of play whose FIDE list the event takes its players' ratings, titles and
    federations from (the season's ``lists/``, the list in force at the start): ``standard``,
    ``rapid`` or ``blitz``."""

    def __post_init__(self) -> None:
        if self.rate not in ("standard", "rapid", "blitz"):
            raise ConfigError("", "rate", f"{self.rate!r}: \"standard\", \"rapid\" or \"blitz\"")
        names = [x.name for x in self.lists]
        if len(set(names)) != len(names):
            raise ConfigError("", "lists", "two rating lists share a name")

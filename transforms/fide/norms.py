"""FIDE B.01 (Title Regulations) — title norms: which games count, every requirement of a norm
with its numbers, the norms a player has made, and what the remaining rounds would give.

| rule                                                            | B.01 art.     | function                    |
|-----------------------------------------------------------------|---------------|-----------------------------|
| GM / IM / WGM / WIM performance against the minimum average     | 0.5, 1.4.8    | :data:`B01_2024`            |
| No more than two rounds a day                                   | 1.1.3         | :func:`rounds_per_day`      |
| One round a day on at least three days (GM and WGM applications) | 1.1.3a       | :func:`rounds_per_day`      |
| At least nine games (seven in 7-9 round team championships)     | 1.4.1a, b     | :func:`evaluate`            |
| Nine rounds: eight games and a forfeit win or pairing bye        | 1.4.1c        | :func:`evaluate`            |
| Each full point over the norm counts as one more game           | 1.4.1d        | :func:`evaluate`            |
| Later games ignored once a title result is made (not with       | 1.4.1e        | :func:`best_norm`           |
| predetermined pairings)                                         |               |                             |
| Games against beaten opponents may be ignored                   | 1.4.1f        | :func:`best_norm`           |
| Opponents of no FIDE federation do not count; FID is not foreign | 1.4.2a       | :func:`norm_games`          |
| Round robins: unrated opponents who scored zero against rated   | 1.4.2b        | :func:`norm_games`          |
| ones do not count                                               |               |                             |
| Forfeits and byes are not games; a last-round forfeit win as a   | 1.4.2c        | :func:`norm_games`,         |
| lost game                                                        |               | :func:`best_norm`           |
| Two federations other than the applicant's                      | 1.4.3         | :func:`evaluate`            |
| Exemptions: national championship, national team championship,  | 1.4.3a-d      | :func:`exemption`           |
| zonal, a Swiss with 20 rated foreigners of 3 federations, 10 of |               |                             |
| them GM, IM, WGM or WIM                                          |               |                             |
| One norm of the application meets the foreigner rules           | 1.4.3e        | :func:`evaluate`            |
| At most 3/5 from the applicant's federation, 2/3 from one        | 1.4.4         | :func:`evaluate`            |
| At least 50% title holders (not CM, WCM)                         | 1.4.5a        | :func:`evaluate`            |
| 1/3, at least 3, holding the norm's title or a higher one        | 1.4.5b-e      | :func:`evaluate`            |
| Double round robin: at least six players, half the titled ones   | 1.4.5f        | :func:`evaluate`            |
| The lowest opponent raised to the rating floor; unrated as 1400  | 1.4.6b-d      | :func:`adjusted_ratings`    |
| The opponents' average, 0.5 up                                   | 1.4.7         | :func:`adjusted_ratings`    |
| Rp = Ra + dp; the minimum average; at least 35%                  | 1.4.8, 1.4.9  | :func:`evaluate`            |
| Norms of more than 13 rounds count as 13 games                   | 1.7           | :func:`evaluate`            |
| The remaining rounds: what score gives which norm               | (forecast)    | :func:`forecast`            |

The edition is ``fide-2024``: "FIDE Title Regulations effective from 1 January 2024"
(handbook.fide.com/chapter/B012024). Every number is a field of :class:`NormRules`, so that a
later edition is configured, not coded.

SOURCE: 0.5, 1.1.4, 1.4.6-1.4.9 and 1.7 as transcribed verbatim from the handbook page in a
public project's verification record (fetched 2026-10-09); 1.4.2a, 1.4.2b, 1.4.3, 1.4.3d,
1.4.4, 1.4.5a-e as quoted verbatim by two public norm evaluators (Sharly Chess
``src/data/norms/evaluator.py``, an independent checker); 1.1.3, 1.4.1, 1.4.2c, 1.4.3a-c,
1.4.3e and 1.4.5f from Sharly Chess's reading note of the same edition
(``docs/technical-appendices/fide-title-norms.md``, 2026-06). Table 1.4.9 is B.02's table
8.1.1 entry for entry (checked there, and by tests/rulebook/test_norms.py), so
:func:`transforms.fide.ratings.dp_from_p` is used for both.

Decisions (docs/decisions.md "Title norms"; each pinned by tests/rulebook/test_norms.py):

- A player is evaluated for the titles above the one held (GM > IM > WGM > WIM; a woman IM is
  not evaluated for WGM); the women's titles for players of sex ``F`` only.
- A game's score is read from the two players' points for the round (more, equal, less), as
  B.02 is, so an event that scores a win as 3 is scored as FIDE scores it.
- Opponents' federations: an opponent whose federation is not given counts as a game but as
  no federation (neither foreign in 1.4.3 nor one federation in 1.4.4, nor of a FID player's
  own), as FID does (1.4.2a).
- 1.4.1c: the requirements are those of the eight games played (50%, 1/3, 3/5, 2/3 of eight);
  the norm counts as nine games. 1.4.2c: only a forfeit win in the event's last round may be
  counted as a lost game against the opponent who did not come, and only where the norm is not
  made without it (it is then no longer a forfeit win for 1.4.1c).
- 1.4.3a-d exempt from 1.4.3 and 1.4.4 both ("the normal foreigner requirement (see 1.4.3 and
  1.4.4)"); every norm still says whether it meets them (1.4.3e).
- 1.4.3d's field is the players who missed at most one of the rounds so far (a pairing
  bye is not missed), rated, of a federation other than the host's (FID and no federation
  are not counted), in the rounds evaluated.
- Minimum counts are rounded up, maximum counts down (9 games: 5 title holders, 3 with the
  title, at most 5 of the applicant's federation, at most 6 of one).
- Of the ways to count a norm (1.4.1e, 1.4.1f, 1.4.2c) the one shown is the one counting as
  most games, then with most games played, then with fewest games ignored.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import NamedTuple

import polars as pl

from transforms.core.errors import ConfigError
from transforms.core.model import SCORECARD_SCHEMA, Kind
from transforms.fide.ratings import dp_from_p

# ------------------------------------------------------------------------------ the regulations


class NormEdition(StrEnum):
    """Which text of FIDE B.01 evaluates the norms (event.toml ``[norms] edition``)."""

    FIDE_2024 = "fide-2024"
    """FIDE Title Regulations effective from 1 January 2024."""


class EventType(StrEnum):
    """What the event is, for the exemptions of B.01 1.4.3 and the games of 1.4.1b
    (event.toml ``[norms] event_type``, ``chessfed norms --event-type``)."""

    OPEN = "open"
    """Any other title tournament: no exemption."""
    NATIONAL_CHAMPIONSHIP = "national-championship"
    """1.4.3a: the final stage of a national (open, men's or women's) championship."""
    NATIONAL_TEAM_CHAMPIONSHIP = "national-team-championship"
    """1.4.3b: a national team championship (the host federation's players only)."""
    ZONAL = "zonal"
    """1.4.3c: a zonal or sub-zonal tournament."""
    INTERNATIONAL_TEAM_CHAMPIONSHIP = "international-team-championship"
    """1.4.1b: a World or Continental Team or Club Championship (seven games in 7-9 rounds)."""


@dataclass(frozen=True)
class TitleNorm:
    """One title's numbers (B.01 0.5, 1.4.5b-e, 1.4.6b, 1.4.8)."""

    title: str
    performance: int
    """1.4.8: the minimum Rp."""
    average: int
    """1.4.8a: the minimum Ra."""
    floor: int
    """1.4.6b: the adjusted rating floor."""
    counted: frozenset[str]
    """1.4.5b-e: the titles that count toward the third of opponents."""
    women: bool = False
    """A women's title (for women only)."""
    held_by: frozenset[str] = frozenset()
    """Holders of these titles are not evaluated for this one (it or a higher title)."""


@dataclass(frozen=True)
class NormRules:
    """An edition of B.01's norm rules as numbers."""

    name: str
    titles: tuple[TitleNorm, ...]
    min_games: int = 9
    """1.4.1a."""
    team_min_games: int = 7
    """1.4.1b: World and Continental Team or Club Championships of 7-9 rounds."""
    title_holders: frozenset[str] = frozenset({"GM", "IM", "WGM", "WIM", "FM", "WFM"})
    """1.4.5a: title holders "excluding CM and WCM"."""
    title_holders_share: tuple[int, int] = (1, 2)
    title_share: tuple[int, int] = (1, 3)
    title_minimum: int = 3
    other_federations: int = 2
    """1.4.3: federations other than the applicant's."""
    own_share: tuple[int, int] = (3, 5)
    one_share: tuple[int, int] = (2, 3)
    unrated: int = 1400
    """1.4.6d."""
    min_score: tuple[int, int] = (35, 100)
    """1.4.8b."""
    max_counted_games: int = 13
    """1.7."""
    rounds_per_day: int = 2
    """1.1.3."""
    single_round_days: int = 3
    """1.1.3a."""
    big_swiss: tuple[int, int, int] = (20, 3, 10)
    """1.4.3d: rated players not from the host federation, their federations, GM/IM/WGM/WIM."""
    big_swiss_titles: frozenset[str] = frozenset({"GM", "IM", "WGM", "WIM"})
    double_rr_players: int = 6
    """1.4.5f."""
    no_federation: frozenset[str] = frozenset({"FID", ""})
    """1.4.2a: accepted, but not a foreign federation."""

    def title(self, name: str) -> TitleNorm:
        return next(t for t in self.titles if t.title == name)


B01_2024 = NormRules(
    name="FIDE Title Regulations effective from 1 January 2024",
    titles=(
        TitleNorm("GM", 2600, 2380, 2200, frozenset({"GM"}), held_by=frozenset({"GM"})),
        TitleNorm("IM", 2450, 2230, 2050, frozenset({"GM", "IM"}),
                  held_by=frozenset({"GM", "IM"})),
        TitleNorm("WGM", 2400, 2180, 2000, frozenset({"GM", "IM", "WGM"}), women=True,
                  held_by=frozenset({"GM", "IM", "WGM"})),
        TitleNorm("WIM", 2250, 2030, 1850, frozenset({"GM", "IM", "WGM", "WIM"}), women=True,
                  held_by=frozenset({"GM", "IM", "WGM", "WIM"})),
    ))
"""FIDE B.01, effective 1 January 2024: 0.5 (performance and average), 1.4.5b-e (titles that
count), 1.4.6b (floors)."""

_EDITIONS = {NormEdition.FIDE_2024: B01_2024}


def norm_rules(edition: str | NormEdition) -> NormRules:
    """FIDE B.01 — the numbers of an edition (``fide-2024``)."""
    try:
        return _EDITIONS[NormEdition(edition)]
    except ValueError:
        raise ConfigError("", "edition", f"{edition!r} is not an edition of the Title "
                          f"Regulations ({', '.join(e.value for e in NormEdition)})") from None


TRF_TITLES = {"g": "GM", "m": "IM", "wg": "WGM", "f": "FM", "wm": "WIM", "c": "CM", "wf": "WFM",
              "wc": "WCM"}
"""TRF16's title letters (columns 11-13) as titles; a file may also write the titles."""


def title_of(text: str | None) -> str:
    """FIDE C.04 Annex 2 (TRF columns 11-13) — a title as players.csv or a TRF writes it
    (``GM``, ``g``, ``wm``), or ``""``."""
    t = (text or "").strip()
    return TRF_TITLES.get(t.lower(), t.upper())


def eligible_titles(title: str | None, sex: str | None, rules: NormRules = B01_2024
                    ) -> tuple[str, ...]:
    """FIDE B.01 0.5 — the titles a player can make norms for: above the one held; the women's
    titles for women only (decided: sex ``F``)."""
    held = title_of(title)
    return tuple(t.title for t in rules.titles
                 if held not in t.held_by and (not t.women or (sex or "").upper() == "F"))


# ------------------------------------------------------------------------------- configuration


@dataclass(frozen=True)
class NormsConfig:
    """``[norms]``: the event is a title tournament whose norms (FIDE B.01) its pages, letters
    and the office's norm reports show; what the files cannot say of it."""

    edition: NormEdition = NormEdition.FIDE_2024
    """The Title Regulations in force for the event's dates."""
    event_type: EventType = EventType.OPEN
    """``open``, ``national-championship`` (1.4.3a), ``national-team-championship`` (1.4.3b),
    ``zonal`` (1.4.3c), ``international-team-championship`` (1.4.1b)."""
    host_federation: str = ""
    """The host federation (1.4.3b, 1.4.3d, the norm report); left out: ``[fide_report]
    federation``."""
    titles: tuple[str, ...] = ()
    """The titles to evaluate (GM, IM, WGM, WIM); left out: all four."""
    categories: tuple[str, ...] = ()
    """The categories (a team event: the groups, a league's divisions) that are title
    tournaments; left out: every one."""
    min_games: int | None = None
    """The fewest games a norm needs where the regulations give fewer than nine (1.4.1b);
    left out: B.01's."""
    round_dates: tuple[dt.date, ...] = ()
    """The date of every round (1.1.3, at most two rounds a day); left out: ``[fide_report]
    round_dates``; neither: 1.1.3 is not checked (the norm report says so)."""
    chief_arbiter: str = ""
    """The chief arbiter as the norm report names them (title, name, FIDE id); left out:
    ``[fide_report] chief_arbiter``."""
    rate_of_play: str = ""
    """The rate of play as the norm report gives it; left out: ``[fide_report] time_control``."""

    def __post_init__(self) -> None:
        for t in self.titles:
            if t not in {x.title for x in B01_2024.titles}:
                raise ConfigError("", "titles", f"{t!r} is not a title with norms (GM, IM, WGM, WIM)")
        if self.host_federation and not (len(self.host_federation) == 3
                                         and self.host_federation.isalpha()):
            raise ConfigError("", "host_federation", f"{self.host_federation!r} is not a FIDE "
                              "federation code (three letters)")
        if self.min_games is not None and not 1 <= self.min_games <= 9:
            raise ConfigError("", "min_games", f"{self.min_games} is not 1 to 9 (B.01 1.4.1)")


# ------------------------------------------------------------------------------- the event


@dataclass(frozen=True)
class NormEvent:
    """What B.01 needs to know of the event besides its games."""

    rounds: int
    """Scheduled rounds."""
    host: str = ""
    """The host federation (1.4.3b, 1.4.3d); empty: unknown."""
    event_type: EventType = EventType.OPEN
    predetermined: bool = False
    """Pairings fixed in advance (a round robin): 1.4.1e, 1.4.2b."""
    double_round_robin: bool = False
    """1.4.5f."""
    round_dates: tuple[dt.date, ...] = ()
    """1.1.3; empty: not checked."""
    min_games: int | None = None
    """The office's minimum number of games (1.4.1); None: 1.4.1a/b."""


class RoundsPerDay(NamedTuple):
    most: int
    """The most rounds on one day (0: no dates)."""
    busiest: dt.date | None
    single_days: int
    """Days with one round (1.1.3a)."""


def rounds_per_day(dates: Sequence[dt.date]) -> RoundsPerDay:
    """FIDE B.01 1.1.3 — the most rounds played on one day (at most two) and, for 1.1.3a (a GM
    or WGM application needs one norm with one round a day on at least three days), the days
    with one round."""
    if not dates:
        return RoundsPerDay(0, None, 0)
    per = Counter(dates)
    busiest, most = max(sorted(per.items()), key=lambda kv: kv[1])
    return RoundsPerDay(most, busiest, sum(1 for n in per.values() if n == 1))


def min_games(event: NormEvent, rules: NormRules = B01_2024) -> int:
    """FIDE B.01 1.4.1a-b — the fewest games a norm needs: the office's figure if it declares
    one, seven in a World or Continental Team or Club Championship of 7-9 rounds, else nine."""
    if event.min_games is not None:
        return event.min_games
    if event.event_type is EventType.INTERNATIONAL_TEAM_CHAMPIONSHIP and 7 <= event.rounds <= 9:
        return rules.team_min_games
    return rules.min_games


# ---------------------------------------------------------------------------------- the games


@dataclass(frozen=True)
class NormGame:
    """One round of an applicant, as B.01 counts it."""

    round: int
    opponent: int | None
    score: int | None
    """Half points of the game (2, 1, 0); None: no game over the board."""
    kind: str
    rating: int | None = None
    """The opponent's rating (the list at the start, 1.4.6a); None: unrated."""
    title: str = ""
    federation: str = ""
    counts: bool = False
    """A game B.01 counts (1.4.2)."""
    note: str = ""
    """Why it does not count, or how it counts."""


def _opponents(players: pl.DataFrame) -> dict[int, tuple[int | None, str, str]]:
    out = {}
    for row in players.iter_rows(named=True):
        r = row.get("rating")
        out[int(row["sno"])] = (int(r) if r else None, title_of(row.get("title")),
                                (row.get("federation") or "").strip().upper())
    return out


def zero_scorers(card: pl.DataFrame, players: pl.DataFrame) -> frozenset[int]:
    """FIDE B.01 1.4.2b — in a round robin, the unrated players who scored zero against the
    rated players they met over the board (at least one such game)."""
    people = _opponents(players)
    games: dict[int, list[int]] = {}
    for sno, opp, score in _scored(card):
        if score is None or opp is None or people.get(sno, (None,))[0]:
            continue
        if people.get(opp, (None,))[0]:
            games.setdefault(sno, []).append(score)
    return frozenset(s for s, g in games.items() if g and not any(g))


def _scored(card: pl.DataFrame) -> list[tuple[int, int | None, int | None]]:
    """(sno, opponent, half points of a game over the board or None) per scorecard row."""
    points = {(r, s): p for r, s, p in zip(card["round"], card["sno"], card["points"])}
    out: list[tuple[int, int | None, int | None]] = []
    for r, s, o, p, k in zip(card["round"], card["sno"], card["opponent"], card["points"],
                             card["kind"]):
        if k != Kind.PLAYED.value or o is None:
            out.append((s, o, None))
            continue
        other = points.get((r, o))
        diff = p - (other if other is not None else 1.0 - p)
        out.append((s, o, 2 if diff > 0 else 0 if diff < 0 else 1))
    return out


def norm_games(card: pl.DataFrame, players: pl.DataFrame, sno: int, event: NormEvent,
               rules: NormRules = B01_2024) -> list[NormGame]:
    """FIDE B.01 1.4.2 — a player's rounds with the games that count: over the board (1.4.2c:
    forfeits and byes are not games), against an opponent of a FIDE federation (1.4.2a), and in
    a round robin not against an unrated player who scored zero against the rated ones
    (1.4.2b). ``players``: sno, rating, title, federation; ``card``: the scorecard."""
    people = _opponents(players)
    zero = zero_scorers(card, players) if event.predetermined else frozenset()
    mine = card.filter(pl.col("sno") == sno).sort("round")
    both = card.filter((pl.col("sno") == sno) | (pl.col("opponent") == sno))
    scores = {r: sc for (s, _, sc), r in zip(_scored(both), both["round"]) if s == sno}
    out = []
    for r, o, k in zip(mine["round"], mine["opponent"], mine["kind"]):
        rating, title, fed = people.get(o, (None, "", "")) if o is not None else (None, "", "")
        game = NormGame(round=r, opponent=o, score=scores.get(r), kind=k, rating=rating,
                        title=title, federation=fed)
        if k != Kind.PLAYED.value or o is None:
            note = {Kind.FORFEIT_WIN.value: "forfeit win: not a game (1.4.2c)",
                    Kind.FORFEIT_LOSS.value: "forfeit: not a game (1.4.2c)"}.get(
                        k, "bye or absence: not a game (1.4.2c)")
            out.append(replace(game, score=None, note=note))
        elif fed == "NON":
            out.append(replace(game, note="opponent of no FIDE federation (1.4.2a)"))
        elif o in zero:
            out.append(replace(game, note="unrated opponent who scored zero against the rated "
                                          "players (1.4.2b)"))
        else:
            out.append(replace(game, counts=True))
    return out


# ------------------------------------------------------------------------------ requirements


class Requirement(NamedTuple):
    """One requirement of a norm with its numbers (``key``: its name in ``chessfed norms``'s
    CSV, :data:`REQUIREMENT_KEYS`)."""

    key: str
    article: str
    what: str
    value: str
    needed: str
    met: bool


REQUIREMENT_KEYS = ("rounds_per_day", "games", "drr_players", "other_federations",
                    "own_federation", "one_federation", "title_holders", "titled", "average",
                    "score", "performance", "all_rounds")
"""Every requirement's key, in the order an evaluation lists them (1.1.3, 1.4.1, 1.4.5f,
1.4.3, 1.4.4, 1.4.5a, 1.4.5b-e, 1.4.8a, 1.4.8b, 1.4.8; 1.4.1e: a round robin before its last
round)."""


def _up(n: int, share: tuple[int, int]) -> int:
    return -(-n * share[0] // share[1])


def _down(n: int, share: tuple[int, int]) -> int:
    return n * share[0] // share[1]


def adjusted_ratings(ratings: Sequence[int | None], floor: int, rules: NormRules = B01_2024
                     ) -> tuple[list[int], int | None]:
    """FIDE B.01 1.4.6b-d, 1.4.7 — the opponents' ratings for a norm: the unrated at 1400
    (1.4.6d), the lowest one below the adjusted floor raised to it (1.4.6c: one opponent only),
    and their average rounded to the nearest whole number, 0.5 up (1.4.7b). Returns the
    ratings and the index of the raised one (None: none raised)."""
    out = [r if r else rules.unrated for r in ratings]
    raised = None
    if out:
        low = min(range(len(out)), key=lambda i: (out[i], i))
        if out[low] < floor:
            out[low] = floor
            raised = low
    return out, raised


def average(ratings: Sequence[int]) -> int:
    """FIDE B.01 1.4.7b — the average rounded to the nearest whole number, 0.5 upward."""
    return (2 * sum(ratings) + len(ratings)) // (2 * len(ratings))


def percentage(halves: int, games: int) -> int:
    """FIDE B.01 1.4.9 — the score as a whole percentage, 0.5% rounded up."""
    return (100 * halves + games) // (2 * games)


def performance(ra: int, halves: int, games: int) -> int:
    """FIDE B.01 1.4.8 — Rp = Ra + dp, dp from table 1.4.9 (B.02 8.1.1's, entry for entry)."""
    return ra + dp_from_p(percentage(halves, games))


def required_halves(ra: int, games: int, norm: TitleNorm, rules: NormRules = B01_2024
                    ) -> int | None:
    """FIDE B.01 1.4.8 — the least score (half points) that makes Ra + dp reach the title's
    performance with at least 35% (None: no score does, Ra is under the minimum average)."""
    if ra < norm.average:
        return None
    for h in range(2 * games + 1):
        if _enough(h, games, rules) and performance(ra, h, games) >= norm.performance:
            return h
    return None


def _enough(halves: int, games: int, rules: NormRules) -> bool:
    """1.4.8b: at least 35% (exactly: halves / 2 >= 0.35 games)."""
    return games > 0 and halves * rules.min_score[1] >= 2 * games * rules.min_score[0]


class Exemption(NamedTuple):
    """Whether the event exempts its players from 1.4.3 and 1.4.4, and why."""

    article: str
    reason: str


def exemption(card: pl.DataFrame, players: pl.DataFrame, event: NormEvent,
              federation: str, rules: NormRules = B01_2024,
              swiss_field: SwissField | None = None) -> Exemption | None:
    """FIDE B.01 1.4.3a-d — the exemption from the federation requirements of 1.4.3 and 1.4.4:
    a national championship's final (a), a national team championship for the host federation's
    players (b), a zonal or sub-zonal (c), or a Swiss whose participants include in every round
    at least 20 FIDE rated players not from the host federation, of at least 3 federations, at
    least 10 of them GM, IM, WGM or WIM (d; a player counts who missed at most one round, a
    pairing bye not missed; ``swiss_field``: that field when already counted). None: not
    exempt."""
    t = event.event_type
    if t is EventType.NATIONAL_CHAMPIONSHIP:
        return Exemption("1.4.3a", "a national championship")
    if t is EventType.NATIONAL_TEAM_CHAMPIONSHIP:
        if event.host and federation == event.host:
            return Exemption("1.4.3b", "a national team championship, for its federation's players")
        return None
    if t is EventType.ZONAL:
        return Exemption("1.4.3c", "a zonal or sub-zonal tournament")
    if event.predetermined or not event.host:
        return None
    field_ = swiss_field or big_swiss_field(card, players, event, rules)
    need_players, need_feds, need_titled = rules.big_swiss
    if (field_.players >= need_players and field_.federations >= need_feds
            and field_.titled >= need_titled):
        return Exemption("1.4.3d", f"a Swiss with {field_.players} rated players not from "
                                   f"{event.host}, of {field_.federations} federations, "
                                   f"{field_.titled} of them GM, IM, WGM or WIM")
    return None


class SwissField(NamedTuple):
    players: int
    federations: int
    titled: int


def big_swiss_field(card: pl.DataFrame, players: pl.DataFrame, event: NormEvent,
                    rules: NormRules = B01_2024) -> SwissField:
    """FIDE B.01 1.4.3d — the participants that count for the Swiss exemption: FIDE rated, of
    a federation other than the host's (FID and none not counted), who missed at most one of the
    rounds so far (a pairing-allocated bye is not missed); their number, federations and GM,
    IM, WGM or WIM title holders."""
    missed = Counter(s for s, k in zip(card["sno"], card["kind"])
                     if k not in (Kind.PLAYED.value, Kind.PAB.value, Kind.FORFEIT_WIN.value))
    feds: set[str] = set()
    count = titled = 0
    for sno, (rating, title, fed) in _opponents(players).items():
        if (not rating or fed in rules.no_federation or fed == event.host
                or missed.get(sno, 0) > 1):
            continue
        count += 1
        feds.add(fed)
        titled += title in rules.big_swiss_titles
    return SwissField(count, len(feds), titled)


@dataclass(frozen=True)
class Applicant:
    """The player evaluated."""

    sno: int
    name: str
    federation: str = ""
    title: str = ""
    sex: str = ""
    rating: int | None = None
    fide_id: str = ""


@dataclass(frozen=True)
class Evaluation:
    """A norm evaluated on one set of games: every requirement, and whether all are met."""

    title: str
    games: tuple[NormGame, ...]
    """The games counted (over the board; a last-round forfeit counted as a loss, 1.4.2c)."""
    ignored: tuple[tuple[int, str], ...]
    """Rounds left out, with the article allowing it (1.4.1e, 1.4.1f)."""
    requirements: tuple[Requirement, ...]
    ra: int | None
    rp: int | None
    halves: int
    required: int | None
    """The least score (half points) giving the norm with these opponents."""
    counts_as: int
    """Games the norm counts as (1.4.1c, 1.4.1d, 1.7)."""
    raised: int | None
    """The round of the opponent raised to the floor (1.4.6c)."""
    foreign_met: bool
    """1.4.3 and 1.4.4 met without an exemption (1.4.3e)."""
    exemption: Exemption | None = None
    one_four_one_c: bool = False
    """Made with 1.4.1c (once per title application)."""

    @property
    def achieved(self) -> bool:
        return all(r.met for r in self.requirements)

    @property
    def missing(self) -> tuple[Requirement, ...]:
        return tuple(r for r in self.requirements if not r.met)


def evaluate(applicant: Applicant, games: Sequence[NormGame], norm: TitleNorm, event: NormEvent,
             *, exempt: Exemption | None = None, schedule: RoundsPerDay | None = None,
             ignored: Sequence[tuple[int, str]] = (), bye_round: int | None = None,
             players_in_event: int | None = None, rules: NormRules = B01_2024) -> Evaluation:
    """FIDE B.01 1.4.1-1.4.9 — one norm on one set of counted games: the games (1.4.1a-c), the
    federations (1.4.3, 1.4.4, or the event's exemption), the titled opponents (1.4.5), the
    opponents' average with the floor (1.4.6, 1.4.7), the score and the performance (1.4.8);
    the rounds per day (1.1.3) when the event's dates are known. ``bye_round``: the round of a
    forfeit win or pairing bye that 1.4.1c counts in a nine-round event."""
    n = len(games)
    reqs: list[Requirement] = []
    if schedule is not None and schedule.most:
        reqs.append(Requirement("rounds_per_day", "1.1.3", "rounds on one day", f"{schedule.most} on "
                                f"{schedule.busiest}", f"at most {rules.rounds_per_day}",
                                schedule.most <= rules.rounds_per_day))
    need = min_games(event, rules)
    c_rule = (bye_round is not None and event.rounds == 9 and n == need - 1 and need == 9)
    reqs.append(Requirement("games", "1.4.1c" if c_rule else "1.4.1", "games",
                            f"{n} and a bye in round {bye_round}" if c_rule else str(n),
                            f"at least {need}", n >= need or c_rule))
    if event.double_round_robin and players_in_event is not None:
        reqs.append(Requirement("drr_players", "1.4.5f", "players of a double round robin",
                                str(players_in_event), f"at least {rules.double_rr_players}",
                                players_in_event >= rules.double_rr_players))
    feds = Counter(g.federation for g in games if g.federation not in rules.no_federation)
    others = sorted(f for f in feds if f != applicant.federation)
    own = sum(1 for g in games if applicant.federation not in rules.no_federation
              and g.federation == applicant.federation)
    top_fed, top = max(sorted(feds.items()), key=lambda kv: kv[1]) if feds else ("", 0)
    fed_reqs = [
        Requirement("other_federations", "1.4.3", "federations other than the player's",
                    f"{len(others)}" + (f" ({', '.join(others)})" if others else ""),
                    f"at least {rules.other_federations}", len(others) >= rules.other_federations),
        Requirement("own_federation", "1.4.4", f"opponents of the player's federation ({applicant.federation or '?'})",
                    str(own), f"at most {_down(n, rules.own_share)}", own <= _down(n, rules.own_share)),
        Requirement("one_federation", "1.4.4", "opponents of one federation", f"{top}" + (f" ({top_fed})" if top else ""),
                    f"at most {_down(n, rules.one_share)}", top <= _down(n, rules.one_share)),
    ]
    foreign_met = all(r.met for r in fed_reqs)
    if exempt is not None:
        fed_reqs = [r._replace(needed=f"exempt ({exempt.article})", met=True) for r in fed_reqs]
    reqs += fed_reqs
    th = sum(1 for g in games if g.title in rules.title_holders)
    reqs.append(Requirement("title_holders", "1.4.5a", "title holders (not CM, WCM)", str(th),
                            f"at least {_up(n, rules.title_holders_share)}",
                            th >= _up(n, rules.title_holders_share)))
    art = {"GM": "1.4.5b", "IM": "1.4.5c", "WGM": "1.4.5d", "WIM": "1.4.5e"}.get(norm.title, "1.4.5")
    titled = [g for g in games if g.title in norm.counted]
    need_titled = max(rules.title_minimum, _up(n, rules.title_share))
    value = len(titled)
    if event.double_round_robin:
        art += ", 1.4.5f"
        need_titled = -(-need_titled // 2)
        value = len({g.opponent for g in titled})
    reqs.append(Requirement("titled", art, f"opponents holding {' or '.join(sorted(norm.counted, key=_rank))}",
                            str(value), f"at least {need_titled}", value >= need_titled))
    halves = sum(g.score or 0 for g in games)
    ra = rp = req = raised = None
    if n:
        rated, low = adjusted_ratings([g.rating for g in games], norm.floor, rules)
        raised = games[low].round if low is not None else None
        ra = average(rated)
        rp = performance(ra, halves, n)
        req = required_halves(ra, n, norm, rules)
    reqs.append(Requirement("average", "1.4.8a", "opponents' average rating (1.4.6, 1.4.7)",
                            "-" if ra is None else str(ra), f"at least {norm.average}",
                            ra is not None and ra >= norm.average))
    pct_ok = _enough(halves, n, rules)
    reqs.append(Requirement("score", "1.4.8b", "score", f"{points_text(halves)}/{n}",
                            f"at least {rules.min_score[0]}%", pct_ok))
    reqs.append(Requirement("performance", "1.4.8", "performance Rp = Ra + dp (1.4.9)",
                            "-" if rp is None else str(rp), f"at least {norm.performance}",
                            rp is not None and rp >= norm.performance))
    extra = (halves - req) // 2 if req is not None and halves >= req else 0
    counts_as = min(rules.max_counted_games, (need if c_rule else n) + extra)
    return Evaluation(norm.title, tuple(games), tuple(ignored), tuple(reqs), ra, rp, halves, req,
                      counts_as, raised, foreign_met, exempt, c_rule)


_ORDER = ("GM", "IM", "WGM", "WIM", "FM", "WFM", "CM", "WCM")


def _rank(title: str) -> int:
    return _ORDER.index(title) if title in _ORDER else len(_ORDER)


def points_text(halves: int) -> str:
    """FIDE B.01 1.4.8 — a score in half points as the norm report writes it (``6½``, ``½``)."""
    whole = f"{halves // 2}" if halves // 2 or not halves % 2 else ""
    return whole + ("½" if halves % 2 else "")


# -------------------------------------------------------------------- the best way to count it


def best_norm(applicant: Applicant, rounds: Sequence[NormGame], norm: TitleNorm,
              event: NormEvent, *, through: int, exempt: Exemption | None = None,
              schedule: RoundsPerDay | None = None, players_in_event: int | None = None,
              rules: NormRules = B01_2024) -> Evaluation:
    """FIDE B.01 1.4.1e, 1.4.1f, 1.4.2c — the norm as the player may count it after round
    ``through``: every game, or (1.4.1e, not with predetermined pairings) the games up to an
    earlier round once the title result is made, less any games against opponents the player
    beat (1.4.1f; in a round robin the full event must still meet the opponent mix), and a
    forfeit win in the event's last round counted as a lost game against the opponent (1.4.2c).
    Returns the way that makes the norm counting most games (then most games, then fewest
    left out), else the evaluation of every game so far (what is missing)."""
    def ev_of(games: Sequence[NormGame], ignored: Sequence[tuple[int, str]],
              bye_round: int | None) -> Evaluation:
        return evaluate(applicant, games, norm, event, exempt=exempt, schedule=schedule,
                        ignored=ignored, bye_round=bye_round, players_in_event=players_in_event,
                        rules=rules)

    upto = [g for g in rounds if g.round <= through]
    full = ev_of([g for g in upto if g.counts], (), _bye_round(upto, event))
    if event.predetermined and through < event.rounds:  # 1.4.1e: all scheduled rounds
        return replace(full, requirements=(*full.requirements, Requirement(
            "all_rounds", "1.4.1e", "rounds of pairings fixed in advance",
            f"{through} of {event.rounds}", f"all {event.rounds}", False)))
    ends = [through] if event.predetermined else list(range(through, 0, -1))
    best: list[Evaluation | None] = [None, None]  # every game as played; with 1.4.2c
    for end in ends:
        prefix = [g for g in upto if g.round <= end]
        for k, games in enumerate(_variants(prefix, event, end)):
            counted = [g for g in games if g.counts]
            if not _possible(applicant, counted, norm, event, rules):
                continue
            for drop in _drops([g for g in counted if g.score == 2 and _may_help(applicant, g, norm)]):
                kept = [g for g in counted if g not in drop]
                ignored = ([(r, "1.4.1e") for r in range(end + 1, through + 1)]
                           + [(g.round, "1.4.1f") for g in drop])
                ev = ev_of(kept, ignored, _bye_round(games, event) if end == event.rounds else None)
                if ev.achieved and event.predetermined and drop and not _mix_ok(full):
                    continue
                held = best[k]
                if ev.achieved and (held is None or _better(ev, held)):
                    best[k] = ev
    # 1.4.2c only where the norm needs the game the opponent did not come to
    return best[0] or best[1] or full


def _better(a: Evaluation, b: Evaluation) -> bool:
    return ((a.counts_as, len(a.games), -len(a.ignored))
            > (b.counts_as, len(b.games), -len(b.ignored)))


def _mix_ok(ev: Evaluation) -> bool:
    """1.4.1f, round robins: the complete event's opponent mix must make a norm possible."""
    return all(r.met for r in ev.requirements if r.article.startswith(("1.4.3", "1.4.4", "1.4.5")))


def _bye_round(games: Sequence[NormGame], event: NormEvent) -> int | None:
    """1.4.1c: the one forfeit win or pairing bye of a nine-round event's nine rounds."""
    if event.rounds != 9 or len(games) != 9:
        return None
    free = [g.round for g in games
            if g.kind in (Kind.FORFEIT_WIN.value, Kind.PAB.value) and not g.counts]
    return free[0] if len(free) == 1 and sum(g.counts for g in games) == 8 else None


def _may_help(applicant: Applicant, g: NormGame, norm: TitleNorm) -> bool:
    """1.4.1f: leaving out a win can only help against an opponent who lowers the average,
    lacks the title or is of the applicant's federation (or of none)."""
    return ((g.rating or 0) < norm.average or g.title not in norm.counted
            or not g.federation or g.federation == applicant.federation)


def _variants(prefix: Sequence[NormGame], event: NormEvent, end: int
              ) -> Iterable[list[NormGame]]:
    yield list(prefix)
    last = [g for g in prefix if g.round == event.rounds == end and g.kind == Kind.FORFEIT_WIN.value
            and g.opponent is not None]
    if last:
        g = last[0]
        lost = replace(g, score=0, counts=True, note="last-round forfeit win counted as a lost "
                                                    "game (1.4.2c)")
        yield [lost if x is g else x for x in prefix]


def _drops(wins: Sequence[NormGame]) -> Iterable[tuple[NormGame, ...]]:
    """1.4.1f: every set of beaten opponents to leave out (the lowest rated first where there
    are too many wins to try every set)."""
    if len(wins) <= 8:
        for k in range(len(wins) + 1):
            yield from itertools.combinations(wins, k)
    else:
        order = sorted(wins, key=lambda g: (g.rating or 0, g.round))
        for k in range(len(order) + 1):
            yield tuple(order[:k])


def _possible(applicant: Applicant, counted: Sequence[NormGame], norm: TitleNorm,
              event: NormEvent, rules: NormRules) -> bool:
    """What leaving games out cannot mend: too few opponents with the title, or too few
    games."""
    titled = sum(1 for g in counted if g.title in norm.counted)
    need = rules.title_minimum if not event.double_round_robin else -(-rules.title_minimum // 2)
    return titled >= need and len(counted) >= min_games(event, rules) - 1


# --------------------------------------------------------------------------- the whole event


@dataclass(frozen=True)
class PlayerNorms:
    """One player's norms after a round: every title evaluated, and what is made."""

    applicant: Applicant
    evaluations: tuple[Evaluation, ...]

    @property
    def achieved(self) -> tuple[Evaluation, ...]:
        return tuple(e for e in self.evaluations if e.achieved)


@dataclass(frozen=True)
class NormReport:
    """Every player's norms after round ``through`` of an event (:func:`event_norms`)."""

    through: int
    event: NormEvent
    players: tuple[PlayerNorms, ...]
    schedule: RoundsPerDay
    swiss_field: SwissField | None = None
    forecasts: Mapping[int, tuple[Forecast, ...]] = field(default_factory=dict)
    """sno -> the forecasts of the titles not yet made and still in reach (before the last
    round; :attr:`Forecast.in_reach`)."""
    rules: NormRules = B01_2024

    def achieved(self) -> list[tuple[Applicant, Evaluation]]:
        return [(p.applicant, e) for p in self.players for e in p.achieved]

    def table(self, *, achieved_only: bool = False) -> pl.DataFrame:
        """The report as ``chessfed norms``'s rows (:func:`norms_frame`)."""
        return norms_frame(self, achieved_only=achieved_only)

    def of(self, sno: int) -> PlayerNorms | None:
        return next((p for p in self.players if p.applicant.sno == sno), None)


def applicants(players: pl.DataFrame) -> list[Applicant]:
    """FIDE B.01 1.4 — the players as title applicants (``players``: sno, name, rating, title,
    federation, sex, fide_id; the missing ones empty)."""
    out = []
    for row in players.sort("sno").iter_rows(named=True):
        r = row.get("rating")
        out.append(Applicant(int(row["sno"]), row.get("name") or "",
                             (row.get("federation") or "").strip().upper(),
                             title_of(row.get("title")), (row.get("sex") or "").strip().upper(),
                             int(r) if r else None, str(row.get("fide_id") or "")))
    return out


def event_norms(card: pl.DataFrame, players: pl.DataFrame, event: NormEvent, *, through: int,
                next_round: Mapping[int, int | None] | None = None,
                titles: Sequence[str] | None = None, rules: NormRules = B01_2024) -> NormReport:
    """FIDE B.01 1.1.3, 1.4 — every player's norms after round ``through`` (each title above the
    one held, :func:`eligible_titles`; ``titles`` limits them), with the forecast of the titles
    not made where rounds remain (:func:`forecast`; ``next_round``: each player's opponent in
    the next round where it is paired, None for a bye). ``card``: the scorecard; ``players``:
    sno, name, rating, title, federation, sex, fide_id."""
    card = card.select(list(SCORECARD_SCHEMA)).cast(SCORECARD_SCHEMA)  # type: ignore[arg-type]  # polars#14468: cast() rejects a dict[str, DataType] variable
    card = card.filter(pl.col("round") <= through)
    schedule = rounds_per_day(event.round_dates[:through] if through < event.rounds
                              else event.round_dates)
    swiss_field = (big_swiss_field(card, players, event, rules)
                   if event.host and not event.predetermined else None)
    out, forecasts = [], {}
    n_players = players.height
    people = _opponents(players)
    for a in applicants(players):
        wanted = [t for t in eligible_titles(a.title, a.sex, rules) if titles is None or t in titles]
        if not wanted:
            continue
        games = norm_games(card, players, a.sno, event, rules)
        exempt = exemption(card, players, event, a.federation, rules, swiss_field)
        evs = tuple(best_norm(a, games, rules.title(t), event, through=through, exempt=exempt,
                              schedule=schedule, players_in_event=n_players, rules=rules)
                    for t in wanted)
        out.append(PlayerNorms(a, evs))
        if through < event.rounds:
            todo = [e.title for e in evs if not e.achieved]
            if todo:
                opp = (next_round or {}).get(a.sno, -1)
                ahead = tuple(f for f in (
                    forecast(a, games, rules.title(t), event, players, through=through,
                             next_opponent=opp, exempt=exempt, rules=rules,
                             schedule=schedule, players_in_event=n_players,
                             max_rating=max((r for s, (r, _, _) in people.items()
                                             if s != a.sno and r), default=0))
                    for t in todo)
                    if f.in_reach)
                if ahead:
                    forecasts[a.sno] = ahead
    return NormReport(through, event, tuple(out), schedule, swiss_field, forecasts, rules)


# ---------------------------------------------------------------------------------- as tables


def norms_frame(report: NormReport, *, achieved_only: bool = False) -> pl.DataFrame:
    """FIDE B.01 — one row per player and title evaluated (a player with a game that counts):
    the figures of the way the norm is made, else of every game so far, and every requirement
    of :data:`REQUIREMENT_KEYS` with its number and whether it is met (``chessfed norms``'s
    NORMS.csv, the office's ``norms-<category>.csv``)."""
    rows = []
    for p in report.players:
        a = p.applicant
        for e in p.evaluations:
            if (achieved_only and not e.achieved) or (not e.games and not e.achieved):
                continue
            by_key = {r.key: r for r in e.requirements}
            row: dict[str, object] = {
                "sno": a.sno, "name": a.name, "federation": a.federation, "title_held": a.title,
                "norm": e.title, "achieved": e.achieved, "games": len(e.games),
                "counts_as": e.counts_as if e.achieved else None, "score": e.halves / 2,
                "required_score": None if e.required is None else e.required / 2,
                "ra": e.ra, "rp": e.rp,
                "exemption": e.exemption.article if e.exemption else "",
                "foreign_met": e.foreign_met,
                "ignored": " ".join(f"{r}:{art}" for r, art in e.ignored)}
            for key in REQUIREMENT_KEYS:
                r = by_key.get(key)
                row[f"{key}_value"] = r.value if r else ""
                row[f"{key}_met"] = r.met if r else None
            rows.append(row)
    schema = {"sno": pl.Int64, "name": pl.String, "federation": pl.String,
              "title_held": pl.String, "norm": pl.String, "achieved": pl.Boolean,
              "games": pl.Int64, "counts_as": pl.Int64, "score": pl.Float64,
              "required_score": pl.Float64, "ra": pl.Int64, "rp": pl.Int64,
              "exemption": pl.String, "foreign_met": pl.Boolean, "ignored": pl.String}
    for key in REQUIREMENT_KEYS:
        schema |= {f"{key}_value": pl.String, f"{key}_met": pl.Boolean}
    return pl.DataFrame(rows, schema=schema, orient="row")


def explain_frame(report: NormReport) -> pl.DataFrame:
    """FIDE B.01 1.4 — every requirement of every evaluation, then every game it counts (1.4.2),
    one row each."""
    rows = []
    for p in report.players:
        for e in p.evaluations:
            if not e.games and not e.achieved:
                continue
            for r in e.requirements:
                rows.append({"sno": p.applicant.sno, "norm": e.title, "row": "requirement",
                             "article": r.article, "what": r.what, "value": r.value,
                             "needed": r.needed, "met": r.met})
            for g in e.games:
                raised = " (raised to the floor, 1.4.6c)" if g.round == e.raised else ""
                rows.append({"sno": p.applicant.sno, "norm": e.title, "row": "game",
                             "article": "1.4.2", "what": f"round {g.round} v {g.opponent}",
                             "value": f"{g.title} {g.federation} {g.rating or 'unrated'}{raised}",
                             "needed": g.note, "met": None if g.score is None else g.score / 2})
    return pl.DataFrame(rows, schema={"sno": pl.Int64, "norm": pl.String, "row": pl.String,
                                      "article": pl.String, "what": pl.String,
                                      "value": pl.String, "needed": pl.String,
                                      "met": pl.String}, orient="row") if rows else \
        pl.DataFrame(schema={c: pl.String for c in ("sno", "norm", "row", "article", "what",
                                                    "value", "needed", "met")})


def forecast_frame(report: NormReport) -> pl.DataFrame:
    """FIDE B.01 1.4 — one row per player, title and (games, score) of the remaining rounds that
    still makes the norm, with the least average of those opponents; the next game's results
    where it is paired."""
    rows = []
    for sno, fs in sorted(report.forecasts.items()):
        for f in fs:
            for r in f.next_results:
                rows.append({"sno": sno, "norm": f.title, "games": 1, "score": r.halves / 2,
                             "opponent": f.next_opponent, "min_average": None,
                             "achieved": r.achieved, "needs": "; ".join(r.missing)})
            for s in f.scores:
                if s.average is not None:
                    rows.append({"sno": sno, "norm": f.title, "games": s.games,
                                 "score": s.halves / 2, "opponent": None,
                                 "min_average": s.average, "achieved": None,
                                 "needs": "; ".join(f.needs)})
    return pl.DataFrame(rows, schema={"sno": pl.Int64, "norm": pl.String, "games": pl.Int64,
                                      "score": pl.Float64, "opponent": pl.Int64,
                                      "min_average": pl.Int64, "achieved": pl.Boolean,
                                      "needs": pl.String}, orient="row")


# ------------------------------------------------------------------------------- the forecast


class NextResult(NamedTuple):
    """What one result of the next game gives (the opponent known)."""

    halves: int
    achieved: bool
    missing: tuple[str, ...]


class RemainingScore(NamedTuple):
    """A score in the next ``games`` rounds and the average the opponents of those rounds need."""

    games: int
    halves: int
    average: int | None
    """The least average rating of those opponents not yet known (None: no rating is
    enough)."""
    known: int = 0
    """Of those rounds, how many have their opponent known (the next round's, paired)."""


@dataclass(frozen=True)
class Forecast:
    """What the remaining rounds must give for one norm (B.01 1.4, before the last round)."""

    title: str
    remaining: int
    next_opponent: int | None
    """The next round's opponent (-1: not paired yet; None: a bye or no game)."""
    next_results: tuple[NextResult, ...]
    scores: tuple[RemainingScore, ...]
    """Per number of further games (1.4.1e: later ones may be ignored), the scores that can
    still make it with the average their opponents need."""
    needs: tuple[str, ...]
    """The opponent mix still missing if every remaining round is played."""
    mix_possible: bool = True
    """The remaining rounds can still bring the opponent mix."""

    @property
    def in_reach(self) -> bool:
        return any(r.achieved for r in self.next_results) or (self.mix_possible and any(
            s.average is not None for s in self.scores))


def forecast(applicant: Applicant, games: Sequence[NormGame], norm: TitleNorm, event: NormEvent,
             players: pl.DataFrame, *, through: int, next_opponent: int | None = -1,
             exempt: Exemption | None = None, max_rating: int = 2900,
             schedule: RoundsPerDay | None = None, players_in_event: int | None = None,
             rules: NormRules = B01_2024) -> Forecast:
    """FIDE B.01 1.4 — before the last round(s): what the player needs for the norm. With the
    next opponent known, each result of that game evaluated exactly (:func:`best_norm`); and for
    k = 1 .. the remaining rounds (1.4.1e: later games may be ignored; a round robin: all of
    them), each score in those k games with the least average rating their opponents must
    have (1.4.6-1.4.8, the opponents taken at or above the floor; None above ``max_rating``,
    the field's highest), and what of the opponent mix (1.4.1, 1.4.3-1.4.5) the remaining rounds
    must still bring. With the next game evaluated exactly, the table starts at two games."""
    remaining = event.rounds - through
    results: list[NextResult] = []
    people = _opponents(players)
    next_game = None
    if next_opponent is not None and next_opponent >= 0 and remaining:
        rating, title, fed = people.get(next_opponent, (None, "", ""))
        for h in (2, 1, 0):
            g = NormGame(through + 1, next_opponent, h, Kind.PLAYED.value, rating, title, fed,
                         counts=fed != "NON")
            next_game = g if g.counts else None
            ev = best_norm(applicant, [*games, g], norm, event, through=through + 1,
                           exempt=exempt, schedule=schedule, players_in_event=players_in_event,
                           rules=rules)
            results.append(NextResult(h, ev.achieved, tuple(
                f"{r.article} {r.what}" for r in ev.missing)))
    counted = [g for g in games if g.counts and g.round <= through]
    known = 1 if next_game is not None else 0
    base_ratings = [g.rating or rules.unrated for g in counted]
    if next_game is not None:
        base_ratings.append(next_game.rating or rules.unrated)
    h0 = sum(g.score or 0 for g in counted)
    n0 = len(counted)
    scores: list[RemainingScore] = []
    ks = ([remaining] if event.predetermined else list(range(1, remaining + 1)))
    if results:  # the next game is evaluated exactly above; the table is of two games or more
        ks = [k for k in ks if k >= 2]
    need_games = min_games(event, rules)
    low = min(base_ratings) if base_ratings else None
    total0 = sum(base_ratings) + (norm.floor - low if low is not None and low < norm.floor else 0)
    for k in ks:
        n = n0 + k
        if n < need_games:
            continue
        for h in range(2 * k, -1, -1):
            halves = h0 + h
            if not _enough(halves, n, rules):
                continue
            ra_need = max(norm.average, norm.performance - dp_from_p(percentage(halves, n)))
            # Ra = round-half-up(T / n) >= ra_need  <=>  2T >= n (2 ra_need - 1)
            t_need = -(-(n * (2 * ra_need - 1)) // 2)
            avg = max(norm.floor, -(-(t_need - total0) // (k - known)))
            scores.append(RemainingScore(k, h, avg if avg <= max_rating else None, known))
    ahead = [g for g in (next_game,) if g is not None]
    needs = _mix_needs(applicant, [*counted, *ahead], norm, event, remaining - len(ahead),
                       exempt, rules)
    return Forecast(norm.title, remaining, next_opponent, tuple(results), tuple(scores),
                    tuple(text for text, _ in needs), all(ok for _, ok in needs))


def _mix_needs(applicant: Applicant, counted: Sequence[NormGame], norm: TitleNorm,
               event: NormEvent, k: int, exempt: Exemption | None, rules: NormRules) -> list[tuple[str, bool]]:
    """What of the opponent mix (1.4.1, 1.4.3-1.4.5) the ``k`` remaining rounds must bring,
    and whether they can."""
    n = len(counted) + k
    out = []
    titled = sum(1 for g in counted if g.title in norm.counted)
    need = max(rules.title_minimum, _up(n, rules.title_share))
    if titled < need:
        who = " or ".join(sorted(norm.counted, key=_rank))
        out.append((f"{need - titled} more opponent{'s' * (need - titled > 1)} holding {who} "
                    "(1.4.5)", need - titled <= k))
    th = sum(1 for g in counted if g.title in rules.title_holders)
    need_th = _up(n, rules.title_holders_share)
    if th < need_th:
        out.append((f"{need_th - th} more title holder{'s' * (need_th - th > 1)} (1.4.5a)",
                    need_th - th <= k))
    if exempt is None:
        others = {g.federation for g in counted
                  if g.federation not in rules.no_federation and g.federation != applicant.federation}
        if len(others) < rules.other_federations:
            m = rules.other_federations - len(others)
            out.append((f"{m} more opponent{'s' * (m > 1)} from "
                        f"{'another federation' if m == 1 else 'other federations'} (1.4.3)", m <= k))
        own = sum(1 for g in counted if applicant.federation not in rules.no_federation
                  and g.federation == applicant.federation)
        cap = _down(n, rules.own_share)
        if own > cap:
            out.append((f"already {own} opponents of {applicant.federation}, more than {cap} "
                        "(1.4.4)", False))
        elif own + k > cap:
            out.append((f"at most {cap - own} more opponent{'s' * (cap - own != 1)} of "
                        f"{applicant.federation} (1.4.4)", True))
    if len(counted) + k < min_games(event, rules):
        out.append((f"{min_games(event, rules) - len(counted)} more games needed, {k} rounds "
                    "left (1.4.1)", False))
    return out

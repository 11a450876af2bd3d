"""``[series]``: a competition over other events of the season — a circuit of monthly rapids,
a grand prix, a club championship over a season (issue 47). Its rules are configuration: the
events it counts, the points each gives, how many count, how a member is recognised, its
categories, tie-breaks and prizes. Loaded by :mod:`transforms.kinds`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum

from transforms.core.errors import ConfigError
from transforms.core.results import source_name_ok


class SeriesPoints(StrEnum):
    """``[series] points``: what one event gives a member towards the series."""

    GAME_POINTS = "game-points"
    """The points the member scored in the event (a win 1, a draw ½, as the event scores them)."""
    PLACE = "place"
    """Points by the member's place in their section: ``place_points`` (1st, 2nd, …); a place
    past the table gives 0."""
    FIELD = "field"
    """The number of players the member finished ahead of, plus one: a section of N players
    gives N to its winner and 1 to its last."""


class DropOf(StrEnum):
    """``[series] drop_of``: what the events dropped are counted from."""

    HELD = "held"
    """The events held so far."""
    MOST_PLAYED = "most-played"
    """The most events any member has played."""


class SharedPlaces(StrEnum):
    """``[series] shared_places``: points by place when players share a place."""

    EACH = "each"
    """Each gets the points of the shared place."""
    SPLIT = "split"
    """The points of the places they share, shared equally."""


class Identity(StrEnum):
    """``[series] identity``: what recognises one member across the events."""

    MEMBER_ID = "member_id"
    """The federation's member id (players.csv ``member_id``)."""
    FIDE_ID = "fide_id"
    """The FIDE id."""
    NAME = "name"
    """The name, its words in any order and case ("Sharma, Aarav" = "Aarav SHARMA")."""
    FEDERATION = "federation"
    BIRTH_YEAR = "birth_year"
    CLUB = "club"


IDS = (Identity.MEMBER_ID, Identity.FIDE_ID)
"""The keys that recognise a member alone, wherever an event carries them."""


class SeriesTiebreak(StrEnum):
    """``[series] tiebreaks``: what separates members equal on series points, in order."""

    ALL_EVENTS = "all-events"
    """Series points over every event played, those not counted too."""
    GAME_POINTS = "game-points"
    """Game points scored in the events counted."""
    AVERAGE = "average"
    """Series points per event counted."""
    BEST_SINGLE = "best-single"
    """The best single event's series points, then the second best, and so on."""
    HEAD_TO_HEAD = "head-to-head"
    """Points scored in the games the tied members played against each other, in every event
    of the series."""
    EVENTS = "events"
    """More events played."""


@dataclass(frozen=True)
class SeriesCategory:
    """``[[series.categories]]``: a standings of some of the members (rating bands, age,
    women), ranked by the same points."""

    id: str
    """The category's id (the standings page's anchor, the CSV's ``standings``)."""
    name: str
    """Its name as printed."""
    rating_max: int | None = None
    """At most this rating (the member's rating in the first event of the series they played)."""
    rating_min: int | None = None
    """At least this rating (the same rating; unrated counts as 0)."""
    under: int | None = None
    """Born in the series' year minus ``under`` or later (FIDE's youth categories: "under 16"
    in 2026 is born in 2010 or later)."""
    over: int | None = None
    """Born in the series' year minus ``over`` or earlier (50: seniors 50+)."""
    sex: str = ""
    """``F``: women only; ``M``: men only; empty: either."""
    prizes: tuple[Decimal, ...] = ()
    """Prize for place 1, 2, … of this category."""

    def __post_init__(self) -> None:
        if not self.id.strip():
            raise ConfigError("", "id", "must not be empty")
        if self.sex not in ("", "F", "M"):
            raise ConfigError("", "sex", f"{self.sex!r}: expected \"F\", \"M\" or empty")


@dataclass(frozen=True)
class SeriesConfig:
    """``[series]``: the events, the points, the best N, identity, categories, tie-breaks and
    prizes of a series."""

    events: tuple[str, ...]
    """The events, in the order they are held: each a sibling event folder (``rapid-2024-07``:
    ``inputs/rapid-2024-07/``, run by chessfed), a TRF file in the series' folder
    (``events/rapid-2024-07.trf``: an event another program ran) or a crosstable there
    (``events/rapid-2024-07.xlsx``: chess-results' Excel export of its final ranking
    crosstable, or of its final ranking without rounds). One not there yet is still to come."""
    points: SeriesPoints = SeriesPoints.GAME_POINTS
    """What one event gives a member: ``game-points``, ``place`` (``place_points``) or
    ``field``."""
    place_points: tuple[float, ...] = ()
    """With ``points = "place"``: the points of place 1, 2, … (e.g. ``[25, 18, 15, 12, 10]``)."""
    bonus: float = 0.0
    """Added for each event the member played at least one game of (a participation bonus)."""
    best: int | None = None
    """Count only the member's best ``best`` events; empty: every event (see ``drop``)."""
    drop: int = 0
    """Count all but the member's worst ``drop`` events of those held so far."""
    drop_of: DropOf = DropOf.HELD
    """What ``drop`` counts from: ``held`` (the events held so far) or
    ``most-played`` (the most events any member played: "best N, N the most events anyone
    played less one")."""
    shared_places: SharedPlaces = SharedPlaces.EACH
    """With points by place, players sharing a place: ``each`` gets that place's points, or
    ``split`` — the points of the places they share, shared equally."""
    min_played: float = 0.0
    """The share of an event's rounds a member must have played (games over the board) for
    the event to give points (0.5: "at least half the rounds")."""
    weights: Mapping[str, float] = field(default_factory=dict)
    """Event (as ``events`` names it) -> what its points are multiplied by (a final that counts
    double: 2); the others 1."""
    identity: tuple[Identity, ...] = (Identity.MEMBER_ID, Identity.FIDE_ID, Identity.NAME,
                                      Identity.FEDERATION)
    """How a member is recognised: the ids named (``member_id``, ``fide_id``) wherever an event
    carries them; elsewhere the other keys together (e.g. ``["name", "federation"]``)."""
    sections: tuple[str, ...] = ()
    """The sections (category ids) of the events that count; empty: all."""
    tiebreaks: tuple[SeriesTiebreak, ...] = (SeriesTiebreak.BEST_SINGLE,
                                             SeriesTiebreak.HEAD_TO_HEAD, SeriesTiebreak.EVENTS)
    """What separates members equal on points, in order: ``all-events``, ``game-points``,
    ``average``, ``best-single``, ``head-to-head``, ``events``."""
    categories: tuple[SeriesCategory, ...] = ()
    """Standings of some of the members (``[[series.categories]]``: rating bands, ages, women)."""
    prizes: tuple[Decimal, ...] = ()
    """Prize for place 1, 2, … of the series."""
    prizes_shared: bool = False
    """Whether members equal after every tie-break share their places' prizes."""
    min_events: int = 0
    """Events a member must have played to take a prize."""
    one_prize: bool = True
    """A member takes one prize only: the series' own first, then the categories' in order (the
    next member moves up)."""
    year: int | None = None
    """The year ages are counted in (``under``, ``over``); empty: the year the series starts."""

    def __post_init__(self) -> None:
        if not self.events:
            raise ConfigError("", "events", "at least one event is required")
        for i, name in enumerate(self.events):
            if not source_name_ok(name):
                raise ConfigError("", f"events[{i}]", f"{name!r}: a sibling event folder's name, or "
                                  "a .trf or .xlsx file inside the series' folder (no '..', no absolute path)")
        dup = sorted({e for e in self.events if self.events.count(e) > 1})
        if dup:
            raise ConfigError("", "events", f"{dup[0]!r} is named twice")
        if self.points is SeriesPoints.PLACE and not self.place_points:
            raise ConfigError("", "place_points", 'required with points = "place"')
        if self.best is not None and self.best < 1:
            raise ConfigError("", "best", f"must be at least 1, got {self.best}")
        if self.best is not None and self.drop:
            raise ConfigError("", "drop", "give best or drop, not both")
        if self.drop < 0 or self.min_events < 0 or self.bonus < 0:
            raise ConfigError("", "drop", "drop, min_events and bonus must not be negative")
        if not 0 <= self.min_played <= 1:
            raise ConfigError("", "min_played", f"a share of the rounds, 0 to 1, got {self.min_played}")
        for name, w in self.weights.items():
            if name not in self.events:
                raise ConfigError("", f"weights.{name}", "not one of events")
            if w < 0:
                raise ConfigError("", f"weights.{name}", f"must not be negative, got {w}")

        if not self.identity:
            raise ConfigError("", "identity", "at least one key is required")
        ids = [c.id for c in self.categories]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ConfigError("", "categories", f"duplicate category id {dup[0]!r}")
        if len(set(self.tiebreaks)) != len(self.tiebreaks):
            raise ConfigError("", "tiebreaks", "a tie-break is named twice")

    @property
    def soft_keys(self) -> tuple[Identity, ...]:
        """The identity keys that recognise a member only together (not the ids)."""
        return tuple(k for k in self.identity if k not in IDS)

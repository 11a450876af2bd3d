"""The registry of event kinds and rules parts (DESIGN.md "Event kinds and rules parts"): an
event is a kind plus the parts its regulations add, all chosen in event.toml. This module is
the one place that knows them all; :mod:`transforms.core` knows none.

| kind / part | chosen by | its tables | its files |
|---|---|---|---|
| ``swiss`` (any FIDE Swiss) | ``[event] kind = "swiss"`` | ``[swiss]``, ``[fide_report]``, ``[ratings]``, ``[norms]`` | :mod:`transforms.swiss.schemas` |
| ``round_robin`` (Berger tables, single or double) | ``kind = "round_robin"`` | ``[round_robin]``, ``[fide_report]``, ``[ratings]``, ``[norms]`` | the Swiss kind's |
| ``correspondence`` (stages of round-robin sections) | ``kind = "correspondence"`` | ``[golden_knights]`` | :mod:`transforms.golden_knights.schemas` |
| ``team_round_robin`` (a team league in divisions) | ``kind = "team_round_robin"`` | ``[team]``, ``[team_round_robin]``, ``[fide_report]``, ``[norms]`` | :mod:`transforms.team.schemas` |
| ``team_swiss`` (a team Swiss, FIDE C.04.6) | ``kind = "team_swiss"`` | ``[team]``, ``[team_swiss]``, ``[fide_report]``, ``[norms]`` | :mod:`transforms.team.schemas` |
| ``series`` (a circuit, a grand prix: standings over other events) | ``kind = "series"`` | ``[series]`` | none: the events it names (:func:`event_result`) |
| the National Junior's rules (part of a Swiss) | ``[entries] rules = "national-junior-2024"`` | ``[entries]``, ``[national_junior]`` | :mod:`transforms.national_junior.schemas` |

Every event also has ``[event]``, ``[publish]`` and optionally ``[schedule]`` and ``[limits]``
(:mod:`transforms.core.config`). A kind's or a part's table in an event of another kind is an
error, not ignored.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import tomllib
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from transforms.core.config import (
    ROUND_ROBIN_PLAYERS_PER_CATEGORY,
    SWISS_PLAYERS_PER_CATEGORY,
    EventConfig,
    EventInfo,
    InputLimits,
    PublishConfig,
    ScheduleConfig,
    from_table,
)
from transforms.core.crosstable import crosstable_event_result
from transforms.core.errors import ConfigError
from transforms.core.games import REFERENCE as GAMES_REFERENCE
from transforms.core.games import GamesConfig
from transforms.core.ingest import RawFile, ReadLimits, Schema
from transforms.core.results import EventResult, Source, is_trf
from transforms.fide.norms import NormsConfig
from transforms.fide.rating_report import RatingReportRules
from transforms.fide.ratings import RatingsConfig
from transforms.fide.trf_results import trf_event_result
from transforms.golden_knights import schemas as gk_schemas
from transforms.golden_knights.finishes import event_result as correspondence_result
from transforms.golden_knights.games import REFERENCE as GK_GAMES_REFERENCE
from transforms.golden_knights.games import SectionGamesConfig
from transforms.golden_knights.rules import GKRules
from transforms.national_junior import schemas as nj_schemas
from transforms.national_junior.entries import JuniorEntryRules
from transforms.national_junior.part import NAME as NJ_NAME
from transforms.national_junior.part import NationalJuniorPlay
from transforms.round_robin.config import RoundRobinConfig
from transforms.series.config import SeriesConfig
from transforms.swiss import schemas as swiss_schemas
from transforms.swiss.config import SwissConfig, check_fide_report
from transforms.swiss.results import event_result as swiss_result
from transforms.team import schemas as team_schemas
from transforms.team.config import TeamRoundRobinConfig, TeamRules, TeamSwissConfig
from transforms.team.games import KEYS as TEAM_GAME_KEYS
from transforms.team.games import REFERENCE as TEAM_GAMES
from transforms.team.games import check_games_config
from transforms.team.results import event_result as team_result


class EventKind(StrEnum):
    """The kinds of event chessfed runs (event.toml ``[event] kind``)."""

    SWISS = "swiss"
    """Any FIDE Swiss over the board (FIDE Dutch, C.04.3): table ``[swiss]``, and
    ``[fide_report]`` for the rating report; players.csv needs only an id, a name and a
    rating. An event's rules part may add its own (e.g. ``[entries] rules =
    "national-junior-2024"``)."""
    ROUND_ROBIN = "round_robin"
    """A round robin over the board, single or double, paired by the FIDE Berger tables
    (C.05 Annex 1): table ``[round_robin]``; the files of a Swiss event."""
    CORRESPONDENCE = "correspondence"
    """A correspondence event of stages of round-robin sections (the Golden Knights): table
    ``[golden_knights]``."""
    TEAM_ROUND_ROBIN = "team_round_robin"
    """A team league in divisions, each a round robin of teams by the FIDE Berger tables
    (C.05 Annex 1), ranked by match or game points and FIDE's team tie-breaks (C.07): tables
    ``[team]`` and ``[team_round_robin]``; files teams.csv, rosters.csv, results.csv."""
    TEAM_SWISS = "team_swiss"
    """A team Swiss by FIDE C.04.6 (2026), each round paired from the last, ranked by match or
    game points and FIDE's team tie-breaks (C.07): tables ``[team]`` and ``[team_swiss]``;
    files teams.csv, rosters.csv, results.csv."""
    SERIES = "series"
    """A series over other events of the season (a circuit of monthly rapids, a grand prix, a
    club championship over a season): table ``[series]``; its inputs are the events it names
    (sibling event folders, or TRF files of events another program ran)."""


Results = Callable[..., EventResult]
"""A kind's final results of an event, as a series reads them: ``(cfg, raw, as_of, *, source,
site) -> EventResult``; raises ValueError with the office's reason when its files block them."""


@dataclass(frozen=True)
class Table:
    """One event.toml table a kind or part reads: its typed object's class, and whether the
    event must have it."""

    cls: type
    required: bool = False


@dataclass(frozen=True)
class KindSpec:
    """What one kind of event registers: its tables, its input files (name -> schema, in the
    input reference's order) and which of them must be there, and a check of its tables
    together."""

    kind: EventKind
    tables: Mapping[str, Table]
    schemas: Mapping[str, Schema]
    required: tuple[str, ...]
    check: Callable[[dict[str, Any], EventInfo, str], None] | None = None
    parts: tuple[str, ...] = ()
    """The rules parts an event of this kind may choose (``[entries] rules``)."""
    rules: tuple[str, ...] = ()
    """Its own tables that the run asks as rules (a round robin's ``[round_robin]`` pairs
    every round by the Berger tables)."""
    players_per_category: int = 0
    """The default of ``[limits] players_per_category``: the most players one category of
    players.csv may have; 0: not a key of this kind (its rules make its sections)."""
    results: Results | None = None
    """Its events' final results as a series reads them; None: its events cannot feed a
    series (yet)."""
    sources: Callable[[EventConfig], tuple[str, ...]] | None = None
    """The other events an event of this kind reads (a series' ``[series] events``): the
    pipeline reads them with it (:class:`transforms.core.results.Source`)."""
    games: bool = False
    """Whether its events read their games, ``games/*.pgn`` (:mod:`transforms.core.pgn`),
    matched to their pairings (:func:`transforms.core.games.match_games`): the individual
    kinds over the board by round and players, the team kinds to the boards of their matches
    (:mod:`transforms.team.games`), a correspondence event by section and players (no rounds:
    :mod:`transforms.golden_knights.games`); its ``[games]`` table is
    :class:`~transforms.core.games.GamesConfig` or a subclass naming games its own way
    (a correspondence event's ``SectionGamesConfig``)."""
    games_reference: tuple[str, ...] = ()
    """What the input reference says of its games folder (one Markdown line each), where it is
    not :data:`transforms.core.games.REFERENCE` (the individual kinds')."""
    games_keys: str = ""
    """How its ``[games]`` keys name a game, where they differ from an individual event's
    ``round.board`` (the input reference's ``[games]`` table)."""


@dataclass(frozen=True)
class PartSpec:
    """What one rules part registers: the tables it reads (the first is the one whose
    ``rules`` key chooses it), the input files it replaces or adds, and a check."""

    name: str
    tables: Mapping[str, Table]
    schemas: Mapping[str, Schema] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    check: Callable[[dict[str, Any], EventInfo, str], None] | None = None
    summary: str = ""
    """One line for the office: what the part's regulations add (the input reference)."""
    sources: Callable[[Mapping[str, Any]], tuple[str, ...]] | None = None
    """The earlier events an event with this part reads (by its tables; e.g. the events its
    seed routes are earned in)."""


def _check_swiss(tables: dict[str, Any], event: EventInfo, file: str) -> None:
    if tables.get("fide_report") is not None:
        check_fide_report(tables["fide_report"], event, tables["swiss"], file=file)


def _check_team(tables: dict[str, Any], event: EventInfo, file: str) -> None:
    check_games_config(tables.get("games"), file)


def _check_nj(tables: dict[str, Any], event: EventInfo, file: str) -> None:
    system = tables.get("swiss") or tables.get("round_robin")
    assert system is not None  # (the kinds that take this part require their table)
    unknown = sorted(set(tables["entries"].categories) - {c.id for c in system.categories})
    if unknown:
        raise ConfigError(file, "entries.categories", f"{unknown[0]!r} is not a category of [swiss]")


TEAM_GAMES_REFERENCE = (*GAMES_REFERENCE, "", *TEAM_GAMES)
"""A team event's games folder in the input reference: an individual event's text, then how
a team event's games are matched."""

KINDS: dict[EventKind, KindSpec] = {
    EventKind.SWISS: KindSpec(EventKind.SWISS, {"swiss": Table(SwissConfig, required=True),
                                               "fide_report": Table(RatingReportRules),
                                               "ratings": Table(RatingsConfig),
                                               "norms": Table(NormsConfig),
                                               "games": Table(GamesConfig)},
                              swiss_schemas.SCHEMAS, swiss_schemas.REQUIRED, _check_swiss,
                              parts=(NJ_NAME,), players_per_category=SWISS_PLAYERS_PER_CATEGORY,
                              results=swiss_result, games=True),
    EventKind.ROUND_ROBIN: KindSpec(EventKind.ROUND_ROBIN,
                                    {"round_robin": Table(RoundRobinConfig, required=True),
                                     "fide_report": Table(RatingReportRules),
                                     "ratings": Table(RatingsConfig),
                                     "norms": Table(NormsConfig),
                                     "games": Table(GamesConfig)},
                                    swiss_schemas.SCHEMAS, swiss_schemas.REQUIRED,
                                    rules=("round_robin",),
                                    players_per_category=ROUND_ROBIN_PLAYERS_PER_CATEGORY,
                                    results=swiss_result, games=True),
    EventKind.CORRESPONDENCE: KindSpec(EventKind.CORRESPONDENCE,
                                       {"golden_knights": Table(GKRules, required=True),
                                        "games": Table(SectionGamesConfig)},
                                       gk_schemas.SCHEMAS, gk_schemas.REQUIRED, games=True,
                                       games_reference=GK_GAMES_REFERENCE,
                                       results=correspondence_result),
    EventKind.TEAM_ROUND_ROBIN: KindSpec(EventKind.TEAM_ROUND_ROBIN,
                                         {"team": Table(TeamRules, required=True),
                                          "team_round_robin": Table(TeamRoundRobinConfig,
                                                                    required=True),
                                          "fide_report": Table(RatingReportRules),
                                          "norms": Table(NormsConfig),
                                          "games": Table(GamesConfig)},
                                         team_schemas.SCHEMAS, team_schemas.REQUIRED, _check_team,
                                         results=team_result,
                                         sources=lambda cfg: tuple(
                                             p for p in (cfg.require(TeamRoundRobinConfig).previous,) if p),
                                         games=True, games_reference=TEAM_GAMES_REFERENCE,
                                         games_keys=TEAM_GAME_KEYS),
    EventKind.TEAM_SWISS: KindSpec(EventKind.TEAM_SWISS,
                                   {"team": Table(TeamRules, required=True),
                                    "team_swiss": Table(TeamSwissConfig, required=True),
                                    "fide_report": Table(RatingReportRules),
                                    "norms": Table(NormsConfig),
                                    "games": Table(GamesConfig)},
                                   team_schemas.SCHEMAS, team_schemas.REQUIRED, _check_team,
                                   results=team_result, games=True, games_reference=TEAM_GAMES_REFERENCE,
                                   games_keys=TEAM_GAME_KEYS),
    EventKind.SERIES: KindSpec(EventKind.SERIES, {"series": Table(SeriesConfig, required=True)},
                               {}, (), sources=lambda cfg: cfg.require(SeriesConfig).events),
}
"""Every kind, by its ``[event] kind``."""

PARTS: dict[str, PartSpec] = {
    NJ_NAME: PartSpec(NJ_NAME, {"entries": Table(JuniorEntryRules, required=True),
                                "national_junior": Table(NationalJuniorPlay)},
                      nj_schemas.SCHEMAS, nj_schemas.REQUIRED, _check_nj,
                      sources=lambda tables: tuple(sorted({
                          s.event for s in tables["entries"].seed_from.values()})),
                      summary="the National Junior (U-19) and National Junior Girls (U-19) "
                              "Championships of India, 2024 (seed 004_…): eligibility, state "
                              "quotas, seed routes, fees and boarding, the last round's "
                              "same-state rule, draws agreed too early"),
}
"""Every rules part, by the name ``[entries] rules`` gives it."""

COMMON = ("event", "publish", "schedule", "limits")
KNOWN = frozenset({*COMMON, *(t for k in KINDS.values() for t in k.tables),
                   *(t for p in PARTS.values() for t in p.tables)})
"""Every table name event.toml may have."""
CHOOSER = "entries"
"""The table whose ``rules`` key chooses the event's rules part."""


def parse_event_config(text: str, *, file: str = "event.toml") -> EventConfig:
    """DESIGN.md Inputs (event.toml) — parse and validate every table, once, at load: a bad
    key anywhere is a :class:`ConfigError` naming ``file`` and the full key path.

    The kind (``[event] kind``) says which tables the event has, and ``[entries] rules`` which
    rules part adds its own. Decision: a table of another kind or part is an error, not
    ignored; ``[entries]`` without ``rules`` is an error listing the parts."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(file, "", f"not valid TOML: {e}") from None
    for k in data:
        if k not in KNOWN:
            raise ConfigError(file, k, f"unknown table (known: {', '.join(sorted(KNOWN))})")
    for k in ("event", "publish"):
        if k not in data:
            raise ConfigError(file, k, "missing required table")
    event = from_table(EventInfo, data["event"], file=file, key="event")
    try:
        kind = KINDS[EventKind(event.kind)]
        event = dataclasses.replace(event, kind=EventKind(event.kind))  # compares with `is`
    except ValueError:
        raise ConfigError(file, "event.kind", f"{event.kind!r} is not one of "
                          f"{', '.join(repr(k.value) for k in EventKind)}") from None
    if event.end < event.start:
        raise ConfigError(file, "event.end", f"{event.end} is before event.start {event.start}")
    publish = from_table(PublishConfig, data["publish"], file=file, key="publish")
    part = None
    if CHOOSER in data and CHOOSER not in kind.tables:
        chosen = data[CHOOSER].get("rules") if isinstance(data[CHOOSER], dict) else None
        if chosen is None:
            raise ConfigError(file, f"{CHOOSER}.rules", "missing required key: the rules part "
                              f"these entry rules are (known: {', '.join(sorted(PARTS))})")
        if chosen not in PARTS or chosen not in kind.parts:
            allowed = ", ".join(sorted(kind.parts)) or f"none for kind = {kind.kind.value!r}"
            raise ConfigError(file, f"{CHOOSER}.rules", f"{chosen!r} is not a rules part of "
                              f"this kind (known: {allowed})")
        part = PARTS[chosen]
    tables: dict[str, Any] = {}
    mine = {**kind.tables, **(part.tables if part else {})}
    for name, spec in mine.items():
        if name in data:
            tables[name] = from_table(spec.cls, data[name], file=file, key=name)
        elif spec.required:
            raise ConfigError(file, name, f"missing required table for kind = {kind.kind.value!r}"
                              if name in kind.tables else "missing required table")
    for name in data:
        if name not in COMMON and name not in mine:
            owners = [k.kind.value for k in KINDS.values() if name in k.tables]
            owner = (f"a table of {' and '.join(repr(o) for o in owners)} events" if owners
                     else "a table of a rules part this event does not choose "
                          f"({CHOOSER}.rules)")
            raise ConfigError(file, name, owner)
    if kind.check is not None:
        kind.check(tables, event, file)
    if part is not None and part.check is not None:
        part.check(tables, event, file)
    schedule = (from_table(ScheduleConfig, data["schedule"], file=file, key="schedule")
                if "schedule" in data else None)
    limits = event_limits(data.get("limits", {}), kind, file)
    schemas, required = kind.schemas, kind.required
    if part is not None and part.schemas:
        schemas, required = part.schemas, part.required or kind.required
    return EventConfig(event=event, publish=publish, tables=types.MappingProxyType(tables),
                       known=KNOWN - set(COMMON),
                       parts=kind.rules + (tuple(part.tables) if part else ()),
                       source=file, schedule=schedule, files=types.MappingProxyType(dict(schemas)),
                       required_files=tuple(required), limits=limits,
                       rules_part=part.name if part else "")


def event_limits(table: Any, kind: KindSpec, file: str) -> InputLimits:
    """DESIGN.md Inputs (every input bounded) — ``[limits]`` (every key optional), with
    ``players_per_category`` the kind's default where it is left out. Decision: the key in a
    kind without one (a correspondence event: its rules make its sections) is an error, not
    ignored."""
    if not isinstance(table, dict):
        raise ConfigError(file, "limits", f"expected a table, got {table!r}")
    limits = from_table(InputLimits, table, file=file, key="limits")
    if limits.players_per_category is None:
        return dataclasses.replace(limits, players_per_category=kind.players_per_category or None)
    if not kind.players_per_category:
        raise ConfigError(file, "limits.players_per_category", f"not a key of kind = "
                          f"{kind.kind.value!r} events: their rules make the sections")
    return limits


def read_limits(cfg: EventConfig, file: str) -> ReadLimits:
    """DESIGN.md Inputs (every input bounded) — the limits the event's ``file`` is read under:
    ``[limits] rows``, ``file_bytes`` and ``cell_chars``; in a kind with categories (a Swiss,
    a round robin) players.csv has at most ``players_per_category`` rows for each category of
    event.toml, so that a whole rating list is refused as it is read, not paired."""
    lim = cfg.limits
    base = ReadLimits(rows=lim.rows, file_bytes=lim.file_bytes, cell_chars=lim.cell_chars)
    system = cfg.tables.get("swiss") or cfg.tables.get("round_robin")
    per = lim.players_per_category
    if file != swiss_schemas.PLAYERS.file or system is None or not per \
            or not kind_of(cfg).players_per_category:
        return base
    n = len(system.categories)
    if per * n >= lim.rows:
        return base
    held = (f"its {n} categories hold at [limits] players_per_category = {per:,} each" if n > 1
            else f"its one category holds at [limits] players_per_category = {per:,}")
    return dataclasses.replace(base, rows=per * n, rows_key="players_per_category", rows_held=held)


def kind_of(cfg: EventConfig) -> KindSpec:
    """DESIGN.md "Event kinds and rules parts" — the event's kind."""
    return KINDS[EventKind(cfg.event.kind)]


def part_of(cfg: EventConfig) -> PartSpec | None:
    """DESIGN.md "Event kinds and rules parts" — the event's rules part, if it chose one."""
    chooser = cfg.tables.get(CHOOSER)
    return PARTS.get(getattr(chooser, "rules", "")) if chooser is not None else None


def event_sources(cfg: EventConfig) -> tuple[str, ...]:
    """DESIGN.md "Event kinds and rules parts" — the other events ``cfg`` reads, by the name
    its tables give them: its kind's (a series' ``[series] events``) and its rules part's (the
    events its seed routes are earned in); none for most events."""
    kind, part = kind_of(cfg), part_of(cfg)
    names = kind.sources(cfg) if kind.sources is not None else ()
    if part is not None and part.sources is not None:
        names += tuple(n for n in part.sources(cfg.tables) if n not in names)
    return names


def input_files(cfg: EventConfig) -> tuple[dict[str, Schema], tuple[str, ...]]:
    """DESIGN.md Inputs — the event's input files (name -> schema, in the input reference's
    order) and the ones it must have: its kind's, as its rules part replaces or adds them."""
    return dict(cfg.files), cfg.required_files


def event_result(source: Source, as_of: dt.date) -> EventResult:
    """DESIGN.md "Event kinds and rules parts" — the final results of an event another
    competition names (a series' ``[series] events``), read by the event's own kind's rulebook
    (a TRF file: as its ``001`` records give them; a crosstable: as its table gives them). Raises ValueError (an
    :class:`transforms.core.errors.InputError` for a TRF) with the reason when they cannot be
    read, or the event's kind cannot feed a series."""
    if source.error:
        raise ValueError(source.error)
    if source.rows is not None:
        return crosstable_event_result(source.rows, source=source.name)
    if source.text is not None or is_trf(source.name):
        return trf_event_result(source.text or "", source=source.name)
    cfg = source.config
    if not isinstance(cfg, EventConfig):
        raise ValueError("its event.toml cannot be read")
    spec = kind_of(cfg)
    if spec.results is None:
        raise ValueError(f"an event of kind {spec.kind.value!r} cannot feed a series (yet)")
    raw: dict[str, RawFile] = {k: v for k, v in source.raw.items()}  # type: ignore[misc]
    return spec.results(cfg, raw, as_of, source=source.name, site=f"../{source.name}/")


def earlier_results(sources: Sequence[Source], as_of: dt.date) -> dict[str, EventResult]:
    """DESIGN.md "Event kinds and rules parts" — the results of the earlier events an event
    reads (its seed routes'), by name: each as :func:`event_result` reads it, else as its last
    good publication shows it; one that cannot be read is left out (the rule that needs it says
    so)."""
    out = {}
    for s in sources:
        for source in (s, s.fallback):
            if source is None or source.missing:
                continue
            try:
                out[s.name] = event_result(source, as_of)
                break
            except ValueError:
                continue
    return out

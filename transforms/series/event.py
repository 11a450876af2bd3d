"""The rulebook of a series (``[event] kind = "series"``, issue 47): the standings of the
season's members over the events the series names — who is who across the events, the points
each event gives, the best N counted, the tie-breaks, the categories and the prizes. Every
figure the pages, PDFs and letters print is computed here (:data:`RULE_STEPS`).

The events come in as :class:`transforms.core.results.EventResult` — read by their own kind's
rulebook (:func:`transforms.kinds.event_result`), so a series never reads another kind's
files."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

import polars as pl

from transforms.core.config import EventConfig
from transforms.core.errors import Finding, InputError, Severity
from transforms.core.ingest import RawFile, unusable, validate_files
from transforms.core.results import EventResult, Finish, Source
from transforms.fide.standings import allocate_prizes
from transforms.season.members import MEMBERS, name_words, near_names
from transforms.series.config import (
    IDS,
    DropOf,
    Identity,
    SeriesCategory,
    SeriesConfig,
    SeriesPoints,
    SeriesTiebreak,
    SharedPlaces,
)

CONFIG = "event.toml"
REGISTRY = "../members.csv"
"""The season's member registry as the series' validation rows name it (beside its folder)."""


@dataclass
class SeriesEvent:
    """One event the series names, as this run found it."""

    source: str
    """As ``[series] events`` names it."""
    result: EventResult | None
    state: str
    """``counted`` (its last round is complete), ``in play`` (not yet: it counts once it is),
    ``to come`` (nothing there yet) or ``unreadable`` (its files have errors)."""
    reason: str = ""
    """Why it is unreadable."""

    @property
    def name(self) -> str:
        return self.result.name if self.result is not None else self.source

    @property
    def counted(self) -> bool:
        return self.state == "counted"


@dataclass
class Member:
    """One member of the season as the series recognises them across its events."""

    key: str
    """Stable from run to run: ``m-<member id>``, ``f-<FIDE id>``, else from the name and the
    other identity keys (a page's and a letter's name)."""
    how: str
    """What recognised them: ``member id``, ``FIDE id`` or the identity keys in words."""
    finishes: list[tuple[int, Finish]] = field(default_factory=list)
    """(event index, the member's result there), in the order of the events."""
    registered: dict[str, Any] | None = None
    """The member's row of the season's registry (``members.csv``), if they are in it."""

    def latest(self, attr: str) -> Any:
        """The last non-empty value of a :class:`Finish` field over the member's events."""
        for _, f in reversed(self.finishes):
            value = getattr(f, attr)
            if value not in (None, ""):
                return value
        return None

    @property
    def name(self) -> str:
        """The name the registry gives, else as most of the member's events spell it (the
        latest among equals)."""
        if self.registered is not None:
            return str(self.registered["name"])
        spellings = [f.name for _, f in self.finishes if f.name]
        if not spellings:
            return ""
        return max(reversed(spellings), key=spellings.count)

    @property
    def birth_year(self) -> int | None:
        """The year of the registry's birth date, else the latest an event gives."""
        born = (self.registered or {}).get("birth_date")
        year: int | None = born.year if born is not None else self.latest("birth_year")
        return year

    @property
    def sex(self) -> str | None:
        """The registry's sex, else the latest an event gives."""
        sex: str | None = (self.registered or {}).get("sex") or self.latest("sex")
        return sex

    @property
    def first_rating(self) -> int | None:
        """The rating of the first event of the series the member played (a category's band)."""
        return self.finishes[0][1].rating if self.finishes else None


@dataclass
class SeriesRun:
    """Everything one run of a series computes (frames and values; the flow publishes)."""

    cfg: EventConfig
    as_of: dt.date
    events: list[SeriesEvent]
    findings: list[Finding]
    blocked: str = ""
    members: dict[str, Member] = field(default_factory=dict)
    identity: pl.DataFrame | None = None
    """How each event's player was recognised: event, section, player, name, member, how."""
    scores: pl.DataFrame | None = None
    """One row per member and event played: member, event (index), event name, section,
    place, place_label (``3-4`` where the event's players share it), of (players in the
    section), game_points, points (the series'), counted."""
    exact: dict[tuple[str, int], Fraction] = field(default_factory=dict)
    """(member, event index) -> the series points of ``scores``, exact (:func:`exact_points`):
    what the standings add up and compare."""
    standings: pl.DataFrame | None = None
    """rank, rank_label, member, name, federation, rating, played, counted, points, one column
    per tie-break (its code), tied (equal after every tie-break)."""
    categories: dict[str, pl.DataFrame] = field(default_factory=dict)
    """Category id -> its standings (the same columns, its own ranks)."""
    prizes: pl.DataFrame | None = None
    """Once every event is counted and the series has prizes: standings (``""``: the series'
    own, else a category id), place, member, name, points, amount, flag."""
    registry: pl.DataFrame | None = None
    """The season's member registry (``members.csv`` beside the event folders), as cast."""
    year: int = 0
    """The year ages are counted in (:func:`series_year`; the categories' pages say it)."""
    membership: pl.DataFrame | None = None
    """With a registry, the office's members report: every member who played (member, name,
    member_id, events, status: ``member``, ``lapsed`` (not valid on the day of an event they
    played: ``events_lapsed``) or ``no member``)."""

    @property
    def rules(self) -> SeriesConfig:
        return self.cfg.require(SeriesConfig)

    @property
    def held(self) -> int:
        """Events counted so far (their last round complete)."""
        return sum(e.counted for e in self.events)

    @property
    def complete(self) -> bool:
        """Whether every event of the series is counted."""
        return all(e.counted for e in self.events)


Reader = Callable[[Source, dt.date], EventResult]
"""Reads one event's results (:func:`transforms.kinds.event_result`)."""


def prepare(cfg: EventConfig, sources: Iterable[Source], as_of: dt.date, read: Reader,
            season: dict[str, RawFile] | None = None) -> SeriesRun:
    """DESIGN.md Inputs — every event the series names, read by its own kind's rulebook: one
    still to come is shown as such; one whose files have errors is a validation row and holds
    the standings (a series over results that are wrong would publish wrong standings).

    Decision: an event counts once its last round is complete; an event in play is listed,
    not counted; an event not there is to come — a warning when a later one is there (a
    misspelt name?), when the series has ended (its ``end`` before the run's date), or when
    none is. An event whose current results cannot be read counts as its last good
    publication shows it (a warning), as the public sees it on its own pages. The season's
    member registry (``season["members.csv"]``), if there, is checked as every input (its rows
    named ``../members.csv``); an unusable one is not used (the rows say why)."""
    rules = cfg.require(SeriesConfig)
    events: list[SeriesEvent] = []
    findings: list[Finding] = []
    by_name = {s.name: s for s in sources}
    for i, name in enumerate(rules.events):
        s = by_name.get(name, Source(name, missing=True))
        if s.missing:
            events.append(SeriesEvent(name, None, "to come"))
            continue
        result, reason = _read(s, as_of, read, findings)
        if result is None and s.fallback is not None:
            result, _ = _read(s.fallback, as_of, read, [])
            if result is not None:
                findings.append(Finding(CONFIG, None, f"series.events[{i}]", name, Severity.WARNING,
                                        f"counted as its pages published it on {s.fallback.published}: "
                                        f"its newer results cannot be read ({reason})"))
        if result is None:
            findings.append(Finding(CONFIG, None, f"series.events[{i}]", name, Severity.ERROR,
                                    f"the event's results cannot be read: {reason}"))
            events.append(SeriesEvent(name, None, "unreadable", reason))
            continue
        events.append(SeriesEvent(name, result, "counted" if result.complete else "in play"))
        if result.ranking_only and (rules.min_played or SeriesTiebreak.HEAD_TO_HEAD in rules.tiebreaks):
            asked = " and ".join(x for x, on in (
                (f"min_played ({rules.min_played})", bool(rules.min_played)),
                ("the head-to-head tie-break", SeriesTiebreak.HEAD_TO_HEAD in rules.tiebreaks)) if on)
            findings.append(Finding(CONFIG, None, f"series.events[{i}]", name, Severity.WARNING,
                                    f"a ranking without rounds: {asked} cannot be applied to this "
                                    "event's players (who played whom, and how many games, is not "
                                    "in it); every player it lists counts as having played"))
    there = [i for i, e in enumerate(events) if e.state != "to come"]
    ended = as_of > cfg.event.end
    for i, e in enumerate(events):
        if e.state == "to come" and there and i < there[-1]:
            findings.append(Finding(CONFIG, None, f"series.events[{i}]", e.source, Severity.WARNING,
                                    "nothing of this name is there, though a later event of the "
                                    "series is: a misspelt name? (shown as to come)"))
        elif e.state == "to come" and there and ended:
            findings.append(Finding(CONFIG, None, f"series.events[{i}]", e.source, Severity.WARNING,
                                    f"nothing of this name is there, and the series ended on "
                                    f"{cfg.event.end}: a misspelt name? (shown as to come; the "
                                    "prizes wait for every event)"))
    if not there:
        findings.append(Finding(CONFIG, None, "series.events", ", ".join(rules.events),
                                Severity.WARNING, "none of the series' events is there yet (a "
                                "sibling event folder, or a TRF file in the series' folder)"))
    run = SeriesRun(cfg, as_of, events, findings)
    run.year = series_year(run)
    if season and "members.csv" in season:
        typed, found = validate_files({"members.csv": season["members.csv"]},
                                      {"members.csv": MEMBERS}, ())
        findings += [dataclasses.replace(x, file=REGISTRY) for x in found]
        if not unusable(found, "members.csv"):
            run.registry = typed["members.csv"]
    bad = [e.source for e in events if e.state == "unreadable"]
    if bad:
        run.blocked = (f"the results of {', '.join(bad)} cannot be read (see the validation "
                       "report): the standings wait until they are corrected.")
    return run


def _read(s: Source, as_of: dt.date, read: Reader, findings: list[Finding]
          ) -> tuple[EventResult | None, str]:
    """One event's results, or None and why not (a TRF's bad line a validation row)."""
    if s.error:
        return None, s.error
    try:
        return read(s, as_of), ""
    except InputError as e:
        findings.append(Finding(e.file, e.line, e.column, e.value, Severity.ERROR, e.reason))
        return None, f"{e.file}: {e.reason}"
    except ValueError as e:  # its own rulebook's reason (transforms.kinds.event_result)
        return None, str(e)


def _norm(f: Finish, key: Identity) -> str:
    if key is Identity.NAME:
        return " ".join(name_words(f.name))
    if key is Identity.FEDERATION:
        return f.federation.upper()
    if key is Identity.BIRTH_YEAR:
        return str(f.birth_year or "")
    if key is Identity.CLUB:
        return " ".join(re.findall(r"\w+", f.club.lower()))
    return str(getattr(f, key.value) or "").strip()


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "member"


def identify(run: SeriesRun) -> None:
    """Series regulations (``[series] identity``) — one member per person across the
    events: the ids named (member id, then FIDE id) wherever an event carries them; a player
    without one is the member with the same other keys (name words, federation, …) — the one
    member with an id who has them, else the member of those keys.

    Decision: two players of one event are never one member (the second is kept apart, with a
    warning); a player whose keys match two members with different ids is kept apart too
    (a warning: the office gives an id); members whose names are near-same (one word a letter
    apart, or one word missing) and who never met in one event are a warning each: probably one
    person registered twice."""
    rules = run.rules
    ids = [k for k in rules.identity if k in IDS]
    soft = rules.soft_keys
    strong_of_fide: dict[str, str] = {}
    counted = [(i, e) for i, e in enumerate(run.events) if e.result is not None]
    wanted = set(rules.sections)
    entries = [(i, f) for i, e in counted for f in e.result.finishes  # type: ignore[union-attr]
               if not wanted or f.section in wanted]
    registered: dict[str, dict[str, Any]] = {}
    if run.registry is not None and Identity.MEMBER_ID in ids:
        registered = {str(r["member_id"]): r for r in run.registry.iter_rows(named=True)}
        index = RegistryIndex(registered.values())
        via: dict[tuple[int, str, str], str] = {}
        resolved = []
        for i, f in entries:
            g, how = from_registry(f, index)
            if how:
                via[(i, g.section, g.key)] = how
            resolved.append((i, g))
        entries = resolved
    else:
        via = {}
    if Identity.MEMBER_ID in ids and Identity.FIDE_ID in ids:
        for _, f in entries:
            if f.member_id and f.fide_id:
                strong_of_fide.setdefault(f.fide_id, f.member_id)

    def strong(f: Finish) -> tuple[str, str] | None:
        if Identity.MEMBER_ID in ids and f.member_id:
            return f"m-{f.member_id}", "member id"
        if Identity.FIDE_ID in ids and f.fide_id:
            if f.fide_id in strong_of_fide:
                return f"m-{strong_of_fide[f.fide_id]}", "FIDE id"
            return f"f-{f.fide_id}", "FIDE id"
        return None

    def soft_key(f: Finish) -> tuple[str, ...] | None:
        return tuple(_norm(f, k) for k in soft) if soft else None

    soft_to_strong: dict[tuple[str, ...], set[str]] = defaultdict(set)
    for _, f in entries:
        s, k = strong(f), soft_key(f)
        if s is not None and k is not None:
            soft_to_strong[k].add(s[0])
    how_soft = " and ".join(k.value.replace("_", " ") for k in soft)
    members: dict[str, Member] = {}
    apart: dict[str, int] = {}
    rows = []
    for i, f in entries:
        s, k = strong(f), soft_key(f)
        event = run.events[i]
        if s is not None:
            key, how = s
            how = via.get((i, f.section, f.key), how)
        elif k is not None:
            linked = soft_to_strong.get(k, set())
            if len(linked) == 1:
                key, how = next(iter(linked)), how_soft
            else:
                key, how = "n-" + _slug("-".join(x for x in k if x)), how_soft
                if len(linked) > 1:
                    run.findings.append(_warn(event, f, "name", f.name, (
                        f"the same {how_soft} as members {', '.join(sorted(linked))}: kept apart; "
                        "give the player's member id or FIDE id")))
        else:
            key, how = f"p-{_slug(event.source)}-{_slug(f.key)}", "no identity (no id given)"
        member = members.get(key)
        if member is not None and member.finishes and member.finishes[-1][0] == i:
            other = member.finishes[-1][1]
            run.findings.append(_warn(event, f, "name", f.name, (
                f"recognised as the same member as {other.name!r} (player {other.key}) of the "
                "same event: kept apart; give one of them a member id or FIDE id")))
            n = apart.get(key, 2)  # the next free number of this key (not counted again:
            while f"{key}-{n}" in members:  # 300 events of 60 look-alikes took 30 s)
                n += 1
            apart[key] = n + 1
            key = f"{key}-{n}"
            member = None
        if member is None:
            member = members[key] = Member(key, how)
        member.finishes.append((i, f))
        rows.append({"event": event.source, "section": f.section, "player": f.key, "name": f.name,
                     "federation": f.federation, "fide_id": f.fide_id, "member_id": f.member_id,
                     "member": key, "how": how})
    for member in members.values():
        member.registered = registered.get(member.key[2:]) if member.key.startswith("m-") else None
        words = name_words(member.name)
        for i, f in member.finishes:
            if name_words(f.name) != words:
                whose = ("the registry's name (members.csv)" if member.registered is not None
                         else "the name the other events spell")
                run.findings.append(_warn(run.events[i], f, "name", f.name, (
                    f"recognised by its {member.how} as the member {member.name!r} "
                    f"({member.key}): {whose}")))
    run.members = dict(sorted(members.items()))
    run.identity = pl.DataFrame(rows, schema={c: pl.String for c in (
        "event", "section", "player", "name", "federation", "fide_id", "member_id", "member",
        "how")})
    run.findings += probable_same(run)
    if run.registry is not None:
        run.membership = membership(run)


class RegistryIndex:
    """The season's registry by FIDE id and by name words (built once: a registry of tens of
    thousands of members is looked up for every player of every event)."""

    def __init__(self, rows: Iterable[dict[str, Any]]) -> None:
        self.by_fide: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.by_words: dict[tuple[str, ...], list[dict[str, Any]]] = defaultdict(list)
        for r in rows:
            if r.get("fide_id"):
                self.by_fide[str(r["fide_id"])].append(r)
            self.by_words[name_words(r["name"])].append(r)


def from_registry(f: Finish, index: RegistryIndex) -> tuple[Finish, str]:
    """DESIGN.md Inputs (issue 47: one member across the events) — a player without a member
    id as the registry knows them: the member of their FIDE id, else the one member with their
    name's words (and birth year, where both have one) and no other FIDE id; and how they were
    found ("" when not). Decision: two such members is none (the series' identity keys decide,
    and the duplicate warning names them)."""
    if f.member_id:
        return f, ""
    found = index.by_fide.get(f.fide_id, []) if f.fide_id else []
    how = "members.csv, by FIDE id"
    if not found:
        how = "members.csv, by name"
        found = [r for r in index.by_words.get(name_words(f.name), [])
                 if not (f.fide_id and r.get("fide_id"))  # another FIDE id: another person
                 and (f.birth_year is None or r.get("birth_date") is None
                      or r["birth_date"].year == f.birth_year)]
    if len(found) != 1:
        return f, ""
    return dataclasses.replace(f, member_id=str(found[0]["member_id"])), how


def membership(run: SeriesRun) -> pl.DataFrame:
    """DESIGN.md Inputs (issue 47: the office's members report) — every member who played an
    event of the series against the registry: a member whose membership was valid on the first
    day of each event they played, a member whose membership was not (lapsed, those events
    named), a player whose events give a member id the registry does not have (``unknown
    member id``, that id shown), or no member of the registry."""
    rows = []
    for key, m in run.members.items():
        played = [run.events[i] for i, _ in m.finishes]
        status, lapsed = "no member", []
        if m.registered is not None:
            start, end = m.registered.get("valid_from"), m.registered.get("valid_to")
            for e in played:
                day = e.result.start if e.result is not None else None
                if day is not None and ((start is not None and day < start)
                                        or (end is not None and day > end)):
                    lapsed.append(e.name)
            status = "lapsed" if lapsed else "member"
        if m.registered is None and m.latest("member_id"):
            status = "unknown member id"  # typed in an event, not in the registry
        rows.append({"member": key, "name": m.name,
                     "member_id": (str(m.registered["member_id"]) if m.registered
                                   else str(m.latest("member_id") or "")),
                     "events": len(played), "status": status,
                     "events_lapsed": "; ".join(lapsed)})
    return pl.DataFrame(rows, schema={"member": pl.String, "name": pl.String,
                                      "member_id": pl.String, "events": pl.Int64,
                                      "status": pl.String, "events_lapsed": pl.String})


def _warn(event: SeriesEvent, f: Finish, column: str, value: str, reason: str) -> Finding:
    file = f"{event.source}/players.csv" if f.line is not None else event.source
    return Finding(file, f.line, column, value, Severity.WARNING, reason)


def probable_same(run: SeriesRun) -> list[Finding]:
    """Series regulations (identity) — members who are probably one person, never in one event
    together: the same name's words (another federation, another id: a transfer, a typo), or
    near-same names (:func:`transforms.season.members.near_names`) of no federation that
    differs; a warning each, on the later member's first event."""
    by_word: dict[str, list[Member]] = defaultdict(list)
    words = {m.key: name_words(m.name) for m in run.members.values()}
    for m in run.members.values():
        for w in set(words[m.key]):
            by_word[w].append(m)
    seen: set[tuple[str, str]] = set()
    out = []
    for group in by_word.values():
        if len(group) > 50:  # a word every other name has ("singh"): no evidence alone
            continue
        for a in group:
            for b in group:
                if a.key >= b.key or (a.key, b.key) in seen:
                    continue
                seen.add((a.key, b.key))
                fa, fb = a.latest("federation") or "", b.latest("federation") or ""
                same = words[a.key] == words[b.key]
                if not same and ((fa and fb and fa != fb) or not near_names(words[a.key], words[b.key])):
                    continue
                if {i for i, _ in a.finishes} & {i for i, _ in b.finishes}:
                    continue
                later = max((a, b), key=lambda m: m.finishes[0][0])
                other = b if later is a else a
                i, f = later.finishes[0]
                why = (f"the same name, federation {fb if later is a else fa} there" if same
                       else "a near-same name")
                out.append(_warn(run.events[i], f, "name", f.name, (
                    f"probably the member {other.name!r} ({other.key}, "
                    f"{', '.join(run.events[j].source for j, _ in other.finishes)}) again: "
                    f"{why}; give both the same member id or FIDE id if so")))
    return out


POINTS_DECIMALS = 6
"""The decimals series points are printed with (the standings, the CSVs)."""


def shown(x: Fraction) -> float:
    """Series regulations (the standings as printed) — an exact figure of the series to
    :data:`POINTS_DECIMALS` decimals."""
    return round(float(x), POINTS_DECIMALS)


@dataclass(frozen=True)
class Places:
    """An event's finishes counted once, by section and by place in it: what each member's
    points and place there ask (counted again for every finish, quadratic in the players)."""

    sizes: Counter[str]
    """Players per section."""
    shared: Counter[tuple[str, int | None]]
    """Players per (section, place): more than one where a place is shared."""

    @classmethod
    def of(cls, e: EventResult) -> Places:
        return cls(Counter(f.section for f in e.finishes),
                   Counter((f.section, f.rank) for f in e.finishes))

    def label(self, f: Finish) -> str:
        """Series regulations (a member's place in an event, as printed) — ``3``, or ``3-4``
        where players share it; "" without a place."""
        if f.rank is None:
            return ""
        n = self.shared[(f.section, f.rank)]
        return str(f.rank) if n < 2 else f"{f.rank}-{f.rank + n - 1}"


def event_points(rules: SeriesConfig, e: EventResult, f: Finish) -> float:
    """Series regulations (``[series] points``) — :func:`exact_points` as printed
    (:func:`shown`)."""
    return shown(exact_points(rules, e, f))


def exact_points(rules: SeriesConfig, e: EventResult, f: Finish,
                 places: Places | None = None) -> Fraction:
    """Series regulations (``[series] points``, ``bonus``, ``shared_places``, ``min_played``,
    ``weights``) — what one event gives a member: game points, points by place
    (``place_points``), or the players of the section the member finished ahead of plus one;
    plus the participation bonus for an event the member played a game of; times the event's
    weight. Nothing for a member who played less than ``min_played`` of its rounds.

    Decision: players sharing a place (a TRF's equal ranks) each get that place's points, or
    with ``shared_places = "split"`` the points of the places they share, shared equally; a
    member with no place (no complete round) gets none but the bonus. Decision: an event read
    from a ranking without rounds (:attr:`EventResult.ranking_only`) gives every player it
    lists the bonus and is not held to ``min_played`` (its games are not known; a warning
    says so where the series asks for it).

    Decision: series points are exact fractions (a place shared by three with ``"split"`` is
    a third of the places' points), added up and compared exactly, and printed to
    :data:`POINTS_DECIMALS` decimals (:func:`event_points`): the same total reached in
    different ways (86/3 + 86/3 and 30 + 82/3) is a tie for the tie-breaks, where in floating
    point it differed in the last digit and ranked the members apart. (``places``: the event's
    :class:`Places`, counted here when not given.)"""
    if rules.min_played and not e.ranking_only and f.games < rules.min_played * e.rounds:
        return Fraction(0)
    base: Fraction
    if rules.points is SeriesPoints.GAME_POINTS:
        base = Fraction(f.points)
    elif f.rank is None:
        base = Fraction(0)
    else:
        places = places if places is not None else Places.of(e)
        shared = (places.shared[(f.section, f.rank)]
                  if rules.shared_places is SharedPlaces.SPLIT else 1)
        spots = range(f.rank, f.rank + shared)
        if rules.points is SeriesPoints.PLACE:
            table = rules.place_points
            base = sum((Fraction(table[p - 1]) for p in spots if p <= len(table)),
                       Fraction(0)) / shared
        else:
            n = places.sizes[f.section]
            base = Fraction(sum(n - p + 1 for p in spots), shared)
    took_part = f.games > 0 or e.ranking_only  # a ranking lists the players who took part
    bonus = Fraction(rules.bonus) if took_part else Fraction(0)
    return (base + bonus) * Fraction(rules.weights.get(e.source, 1.0))


def counting(rules: SeriesConfig, held: int, most_played: int = 0) -> int | None:
    """Series regulations (``[series] best``, ``drop``, ``drop_of``) — how many of a member's
    events count: ``best``; or all but ``drop`` of the events held so far (``drop_of =
    "most-played"``: of the most events any member played); or all (None).

    Decision: with ``drop``, at least one event counts once one is held (the first event of a
    "best 6 of 8" series counts)."""
    if rules.best is not None:
        return rules.best
    if rules.drop:
        base = most_played if rules.drop_of is DropOf.MOST_PLAYED else held
        return max(base - rules.drop, 1)
    return None


def score(run: SeriesRun) -> None:
    """Series regulations (points, best N) — every member's points from each event
    counted so far, and which of them count: the highest, the earlier event first among
    equal ones."""
    rules = run.rules
    most = max((sum(run.events[i].counted for i, _ in m.finishes) for m in run.members.values()),
               default=0)
    n = counting(rules, run.held, most)
    rows = []
    run.exact = {}
    places = {i: Places.of(e.result) for i, e in enumerate(run.events)
              if e.counted and e.result is not None}
    for m in run.members.values():
        mine: list[dict[str, Any]] = []
        for i, f in m.finishes:
            e = run.events[i]
            if not e.counted or e.result is None:
                continue
            exact = run.exact[(m.key, i)] = exact_points(rules, e.result, f, places[i])
            mine.append({"member": m.key, "event": i, "event_name": e.name, "section": f.section,
                         "place": f.rank, "place_label": places[i].label(f),
                         "of": places[i].sizes[f.section],
                         "game_points": f.points, "points": shown(exact), "games": f.games})
        order = sorted(range(len(mine)),
                       key=lambda k: (-run.exact[(m.key, mine[k]["event"])], mine[k]["event"]))
        keep = set(order if n is None else order[:n])
        for k, row in enumerate(mine):
            row["counted"] = k in keep
        rows += mine
    run.scores = pl.DataFrame(rows, schema={
        "member": pl.String, "event": pl.Int64, "event_name": pl.String, "section": pl.String,
        "place": pl.Int64, "place_label": pl.String, "of": pl.Int64, "game_points": pl.Float64,
        "points": pl.Float64, "games": pl.Int64, "counted": pl.Boolean})


TIEBREAK_WORDS = {
    SeriesTiebreak.ALL_EVENTS: "series points over every event played, those not counted too",
    SeriesTiebreak.GAME_POINTS: "game points scored in the events counted",
    SeriesTiebreak.AVERAGE: "series points per event counted",
    SeriesTiebreak.BEST_SINGLE: "the best single event's series points, then the second best, "
                                "and so on",
    SeriesTiebreak.HEAD_TO_HEAD: "points scored in the games the tied members played against "
                                 "each other, in every event of the series",
    SeriesTiebreak.EVENTS: "more events played",
}
"""Each tie-break in words (the pages' "how the standings are made")."""


def _head_to_head(run: SeriesRun, group: list[str]) -> dict[str, float]:
    """Points each member of ``group`` scored in games over the board against the others."""
    who: dict[tuple[int, str, str], str] = {}
    for key in group:
        for i, f in run.members[key].finishes:
            who[(i, f.section, f.key)] = key
    out = {}
    for key in group:
        total = 0.0
        for i, f in run.members[key].finishes:
            if not run.events[i].counted:
                continue
            for r in f.rounds:
                opp = who.get((i, f.section, r.opponent)) if r.opponent is not None else None
                if r.played and opp is not None and opp != key:
                    total += r.points
        out[key] = total
    return out


def rank(run: SeriesRun) -> None:
    """Series regulations (``[series] tiebreaks``) — the standings: series points over the
    events counted, then each tie-break in order (head-to-head among the members still equal
    at that point); members equal after all share the place (``rank_label`` "3-4"), listed by
    name. Then each category's standings (:func:`category_standings`)."""
    assert run.scores is not None
    rules = run.rules
    scores = run.scores
    per: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in scores.iter_rows(named=True):
        per[r["member"]].append(r)
    values: dict[str, dict[str, Any]] = {}
    for key in run.members:
        rows = per.get(key, [])
        counted = [r for r in rows if r["counted"]]
        exact = {r["event"]: run.exact[(key, r["event"])] for r in rows}
        pts = sum((exact[r["event"]] for r in counted), Fraction(0))
        values[key] = {
            "points": pts, "played": len(rows), "counted": len(counted),
            SeriesTiebreak.ALL_EVENTS: sum(exact.values(), Fraction(0)),
            SeriesTiebreak.GAME_POINTS: sum((Fraction(r["game_points"]) for r in counted),
                                            Fraction(0)),
            SeriesTiebreak.AVERAGE: pts / len(counted) if counted else Fraction(0),
            SeriesTiebreak.BEST_SINGLE: tuple(sorted(exact.values(), reverse=True)),
            SeriesTiebreak.EVENTS: len(rows)}

    def split(group: list[str], criteria: list[Any]) -> list[list[str]]:
        if len(group) < 2 or not criteria:
            return [sorted(group, key=lambda k: (run.members[k].name, k))]
        c, rest = criteria[0], criteria[1:]
        if c == SeriesTiebreak.HEAD_TO_HEAD:
            h2h = _head_to_head(run, group)
            for k in group:
                values[k][c] = h2h[k]
        by: dict[Any, list[str]] = defaultdict(list)
        for k in group:
            by[values[k][c]].append(k)
        out = []
        for v in sorted(by, reverse=True):
            out += split(by[v], rest)
        return out

    groups = [g for g in split(list(run.members), ["points", *rules.tiebreaks]) if g]
    run.standings = standings_frame(run, groups, values)
    run.categories = {c.id: category_standings(run, c, groups, values) for c in rules.categories}


def standings_frame(run: SeriesRun, groups: list[list[str]], values: dict[str, dict[str, Any]]
                    ) -> pl.DataFrame:
    """Series regulations (the standings) — the members in ``groups`` in order, a group's
    members sharing a place."""
    rows = []
    place = 1
    codes = [str(t) for t in run.rules.tiebreaks]
    for g in groups:
        label = str(place) if len(g) == 1 else f"{place}-{place + len(g) - 1}"
        for k in g:
            m, v = run.members[k], values[k]
            best = v[SeriesTiebreak.BEST_SINGLE]
            rows.append({"rank": place, "rank_label": label, "member": k, "name": m.name,
                         "federation": m.latest("federation") or "", "rating": m.latest("rating"),
                         "played": v["played"], "counted": v["counted"],
                         "points": shown(v["points"]),
                         **{c: shown(best[0] if best else Fraction(0))
                            if c == SeriesTiebreak.BEST_SINGLE else _shown_value(v.get(c))
                            for c in codes},
                         "tied": len(g) > 1})
        place += len(g)
    return pl.DataFrame(rows, schema={
        "rank": pl.Int64, "rank_label": pl.String, "member": pl.String, "name": pl.String,
        "federation": pl.String, "rating": pl.Int64, "played": pl.Int64, "counted": pl.Int64,
        "points": pl.Float64, **{c: pl.Float64 for c in codes}, "tied": pl.Boolean})


def _shown_value(x: Any) -> Any:
    """A tie-break's value as printed: an exact figure to :data:`POINTS_DECIMALS` decimals."""
    return shown(x) if isinstance(x, Fraction) else x


def series_year(run: SeriesRun) -> int:
    """Series regulations (``[series] year``) — the year ages are counted in: ``year``, else
    the year the series starts."""
    return run.rules.year or run.cfg.event.start.year


def in_category(run: SeriesRun, c: SeriesCategory, m: Member) -> bool:
    """Series regulations (``[[series.categories]]``) — whether ``m`` belongs to ``c``:
    the rating of the first event they played within the band, born within the ages, of the
    sex.

    Decision: an unrated member counts as rated 0 (in every band with a maximum, in none with
    a minimum); a member of unknown birth year or sex is in no category that asks for it.
    Decision: the birth date and sex are the season's registry's (``members.csv``) where it
    knows the member and gives them, else the latest an event of the series gives (an event's
    that differs from the registry's is a row of that event's validation)."""
    rating = m.first_rating or 0
    if c.rating_max is not None and rating > c.rating_max:
        return False
    if c.rating_min is not None and rating < c.rating_min:
        return False
    born, sex = m.birth_year, m.sex
    year = run.year
    if c.under is not None and (born is None or born < year - c.under):
        return False
    if c.over is not None and (born is None or born > year - c.over):
        return False
    return not (c.sex and sex != c.sex)


def category_standings(run: SeriesRun, c: SeriesCategory, groups: list[list[str]],
                       values: dict[str, dict[str, Any]]) -> pl.DataFrame:
    """Series regulations (``[[series.categories]]``) — a category's standings: its members in
    the series' order, places counted among them."""
    mine = [[k for k in g if in_category(run, c, run.members[k])] for g in groups]
    return standings_frame(run, [g for g in mine if g], values)


def award(run: SeriesRun) -> None:
    """Series regulations (``prizes``, ``prizes_shared``, ``min_events``, ``one_prize``) —
    once every event is counted, the prize list: the series' prizes by place, then each
    category's, among the members who played ``min_events`` events; with ``one_prize`` a member
    who has a prize is passed over in the later lists (the next member moves up). Ties after
    every tie-break: shared or flagged for the office
    (:func:`transforms.fide.standings.allocate_prizes`)."""
    rules = run.rules
    if not run.complete or run.standings is None:
        return
    lists: list[tuple[str, pl.DataFrame, tuple[Decimal, ...]]] = []
    if rules.prizes:
        lists.append(("", run.standings, rules.prizes))
    lists += [(c.id, run.categories[c.id], c.prizes) for c in rules.categories if c.prizes]
    if not lists:
        return
    taken: set[str] = set()
    frames = []
    index = {k: n for n, k in enumerate(run.members, start=1)}
    for cid, table, prizes in lists:
        eligible = table.filter(pl.col("played") >= rules.min_events)
        if rules.one_prize:
            eligible = eligible.filter(~pl.col("member").is_in(sorted(taken)))
        if eligible.height == 0:
            continue
        ranking = eligible.with_columns(
            pl.col("member").replace_strict(index, return_dtype=pl.Int32).alias("sno"),
            pl.col("rank").rank("dense").cast(pl.Int32).alias("rank"))
        awarded = allocate_prizes(ranking.select("rank", "sno", "name", "points"), prizes,
                                  shared=rules.prizes_shared)
        back = {v: k for k, v in index.items()}
        awarded = awarded.with_columns(
            pl.col("sno").replace_strict(back, return_dtype=pl.String).alias("member"),
            pl.lit(cid).alias("standings")).filter(pl.col("amount") > 0)
        taken |= set(awarded["member"].to_list())
        frames.append(awarded.select("standings", "place", "member", "name", "points", "amount",
                                     "flag"))
    run.prizes = pl.concat(frames) if frames else None


RULE_STEPS: tuple[tuple[str, Callable[[SeriesRun], None]], ...] = (
    ("identity", identify), ("points", score), ("standings", rank), ("prizes", award))
"""The rulebook's steps after :func:`prepare`, in order; each fills its part of the run."""


def run_series(cfg: EventConfig, sources: Iterable[Source], as_of: dt.date, read: Reader,
               season: dict[str, RawFile] | None = None) -> SeriesRun:
    """Series regulations — one run: :func:`prepare`, then :data:`RULE_STEPS` (nothing
    when ``blocked``)."""
    run = prepare(cfg, sources, as_of, read, season)
    if not run.blocked:
        for _, rule in RULE_STEPS:
            rule(run)
    return run

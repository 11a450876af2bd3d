"""An event's final results as another competition reads them (issue 47: a series over the
season's events): who played, in which section, the place and points each finished with and
every round's result. Every kind that can feed a series makes one
(:func:`transforms.kinds.event_result`); a series reads nothing else of an event."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One player's round: the opponent (their ``key`` in the event; None for a bye or an
    absence), the points scored and whether a game was played over the board."""

    round: int
    opponent: str | None
    points: float
    played: bool


@dataclass(frozen=True, slots=True)
class Finish:
    """One player's result in one event (one section of it)."""

    key: str
    """The player's number in the event's section (its start number: what its own pages are
    named by)."""
    name: str
    section: str
    """The section (category) id; the event's only one: ``""``."""
    rank: int | None
    """The place in the section's final standings (after the event's tie-breaks); None: the
    section has no complete round."""
    points: float
    rounds: tuple[RoundResult, ...] = ()
    rating: int | None = None
    fide_id: str = ""
    member_id: str = ""
    federation: str = ""
    title: str = ""
    sex: str = ""
    birth_year: int | None = None
    club: str = ""
    email: str = field(default="", repr=False)
    """Private: where the player's letters go (never on a public page)."""
    line: int | None = None
    """The player's line in the event's players.csv (None: a TRF)."""
    rating_change: float | None = None
    """The player's rating change over the event on its first rating list (``rating_list``;
    None: the event rates no list, or the player had no rated game)."""
    rating_list: str = ""
    """The name of that list (``FIDE``)."""

    @property
    def games(self) -> int:
        """Games played over the board."""
        return sum(r.played for r in self.rounds)


class NoResults(ValueError):
    """An event's results cannot be read by its kind (its files have errors): why, in the
    office's words."""


@dataclass(frozen=True, slots=True)
class EventResult:
    """One event's results, as complete as its rounds are."""

    source: str
    """The event as the series names it (a sibling event folder, or a TRF file)."""
    name: str
    start: dt.date | None
    end: dt.date | None
    rounds: int
    """Rounds of the event (of its longest section)."""
    done: int
    """Rounds complete in every section."""
    finishes: tuple[Finish, ...]
    sections: tuple[tuple[str, str], ...] = ()
    """(id, name) of each section, in the event's order."""
    site: str = ""
    """Where the event's own pages are, relative to the series' output folder (``../<folder>/``);
    "" when it has none (a TRF file)."""
    ranking_only: bool = False
    """The source gives places and points but no round (chess-results' "Final Ranking"
    export): who played whom, and how many games each played, are not known."""

    @property
    def complete(self) -> bool:
        """Whether its last round is complete."""
        return self.rounds > 0 and self.done >= self.rounds

    def section_size(self, section: str) -> int:
        """How many players finished in ``section``."""
        return sum(f.section == section for f in self.finishes)


def result_record(r: EventResult) -> dict[str, object]:
    """DESIGN.md "Orchestration" (what a run keeps for the next) — an event's results as JSON
    values (:func:`result_from_record` reads them back, equal but for the addresses).
    Decision: no address is kept (the manifest is the office's record, not a list of
    addresses): a result taken back gets them from the event's players.csv again."""
    return {"source": r.source, "name": r.name,
            "start": r.start.isoformat() if r.start else None,
            "end": r.end.isoformat() if r.end else None, "rounds": r.rounds, "done": r.done,
            "sections": [list(x) for x in r.sections], "site": r.site,
            "ranking_only": r.ranking_only,
            "finishes": [[f.key, f.name, f.section, f.rank, f.points,
                          [[x.round, x.opponent, x.points, x.played] for x in f.rounds],
                          f.rating, f.fide_id, f.member_id, f.federation, f.title, f.sex,
                          f.birth_year, f.club, "", f.line, f.rating_change, f.rating_list]
                         for f in r.finishes]}


def result_from_record(d: dict) -> EventResult:  # type: ignore[type-arg]
    """DESIGN.md "Orchestration" — :func:`result_record` read back."""
    finishes = tuple(Finish(
        key=f[0], name=f[1], section=f[2], rank=f[3], points=f[4],
        rounds=tuple(RoundResult(int(x[0]), x[1], float(x[2]), bool(x[3])) for x in f[5]),
        rating=f[6], fide_id=f[7], member_id=f[8], federation=f[9], title=f[10], sex=f[11],
        birth_year=f[12], club=f[13], email=f[14], line=f[15],
        rating_change=f[16] if len(f) > 16 else None, rating_list=f[17] if len(f) > 17 else "")
        for f in d["finishes"])
    return EventResult(
        source=d["source"], name=d["name"],
        start=dt.date.fromisoformat(d["start"]) if d["start"] else None,
        end=dt.date.fromisoformat(d["end"]) if d["end"] else None, rounds=d["rounds"],
        done=d["done"], finishes=finishes, sections=tuple(tuple(x) for x in d["sections"]),
        site=d["site"], ranking_only=bool(d.get("ranking_only", False)))


@dataclass(frozen=True)
class Source:
    """An event another competition names, as the run read it: its configuration and input
    files (an event folder), or a TRF file's text, or why it cannot be read."""

    name: str
    """As the competition names it (``rapid-2024-07``, ``events/rapid-2024-07.trf``)."""
    config: object | None = None
    """The event's :class:`transforms.core.config.EventConfig` (an event folder)."""
    raw: Mapping[str, object] = field(default_factory=dict)
    """Its input files as read (:data:`transforms.core.ingest.RawFile`; the pipeline reads each
    when it is first asked for)."""
    text: str | None = None
    """A TRF file's text."""
    rows: tuple[tuple[str, ...], ...] | None = None
    """A published crosstable's cells as text, row by row (an ``.xlsx`` file:
    :func:`transforms.core.crosstable.crosstable_event_result`)."""
    missing: bool = False
    """Nothing is there yet (an event still to come)."""
    error: str = ""
    """Why it cannot be read (its event.toml's error, an unreadable file)."""
    fallback: Source | None = None
    """The event as its last good publication shows it (the inputs it was built from), read
    when its current inputs cannot be."""
    published: str = ""
    """The run date (ISO) of that publication (a fallback's)."""
    digest: str = ""
    """The checksum of what was read (event.toml and the input files, or the TRF's bytes):
    results computed from the same are taken from the last run."""


def is_trf(name: str) -> bool:
    """DESIGN.md Inputs (a series' events) — whether an event another competition names is a
    TRF file (``.trf``, ``.txt``), else a sibling event folder or a crosstable."""
    return name.lower().endswith((".trf", ".txt"))


def is_crosstable(name: str) -> bool:
    """DESIGN.md Inputs (a series' events) — whether an event another competition names is a
    published crosstable (chess-results' Excel export, ``.xlsx``)."""
    return name.lower().endswith(".xlsx")


def is_file(name: str) -> bool:
    """DESIGN.md Inputs (a series' events) — whether an event another competition names is a
    file inside its folder (a TRF, a crosstable), not a sibling event folder."""
    return is_trf(name) or is_crosstable(name)


FOLDER = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9 ._-]{0,126}[A-Za-z0-9_-])?")
TRF_FILE = re.compile(r"(?:[A-Za-z0-9][A-Za-z0-9._-]{0,127}/){0,3}[A-Za-z0-9][A-Za-z0-9._-]{0,127}"
                      r"\.(?:trf|txt|xlsx)", re.IGNORECASE)


def source_name_ok(name: str) -> bool:
    """DESIGN.md Inputs (no path outside the inputs) — an event another names (a series' event,
    an earlier event a seed route is earned in): a folder name
    (no ``/``) or a relative ``.trf``/``.txt``/``.xlsx`` path inside the series' folder; never
    ``..``."""
    if ".." in name.split("/") or name.startswith("/") or "\\" in name:
        return False
    if is_file(name):
        return bool(TRF_FILE.fullmatch(name))
    return bool(FOLDER.fullmatch(name))

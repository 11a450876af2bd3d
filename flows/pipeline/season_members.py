"""The season's member registry in an event's run (issue 47): ``members.csv`` beside the event
folders. An event's players file (``players.csv``; a team event's ``rosters.csv``) is read with
it: an entry that names a member (member id, else FIDE id) takes from the registry what it
leaves empty, and each such entry the registry disagrees with is a row of the event's
validation (a member id no member has, a name, birth date, sex, federation or FIDE id that
differs, a membership not valid on the event's first day: :mod:`transforms.season.members`);
players found by name alone are ``chessfed season-check``'s (a namesake in a past event is no
row of that event). The registry
is read once per process while its file is unchanged."""

from __future__ import annotations

import functools
from pathlib import Path

import polars as pl

from flows.io import read_csv_strings
from flows.pipeline.season_lists import PLAYER_FILES
from transforms.core.config import EventConfig
from transforms.core.errors import Finding, Severity
from transforms.core.ingest import RawFile, ReadLimits, validate_files
from transforms.season.members import (
    MEMBERS,
    Registry,
    fill_from_registry,
    players_against_members,
)

FILE = "members.csv"
"""The season's member registry: ``<inputs>/members.csv``."""


@functools.lru_cache(maxsize=2)
def _read(path: str, size: int, mtime_ns: int) -> tuple[Registry | None, int]:
    raw = read_csv_strings(Path(path), ReadLimits())
    typed, found = validate_files({FILE: raw}, {FILE: MEMBERS}, (FILE,))
    unusable = len({(f.line, f.file) for f in found if f.severity is Severity.ERROR})
    return (Registry(typed[FILE]) if FILE in typed else None), unusable


def registry(event_dir: Path) -> tuple[Registry | None, int]:
    """The season's registry beside ``event_dir`` and how many of its rows cannot be used
    (``chessfed season-check`` names them); (None, 0) when the season keeps none."""
    path = Path(event_dir).parent / FILE
    try:
        st = path.stat()
    except OSError:
        return None, 0
    return _read(str(path), st.st_size, st.st_mtime_ns)


def with_registry(event_dir: Path, cfg: EventConfig, name: str, raw: RawFile) -> RawFile:
    """An event's players file ``name`` as read (``raw``) with the season's registry: filled
    where an entry naming a member leaves a cell empty, and with a row for each player the
    registry disagrees with; unchanged when the season keeps no registry or ``name`` names no
    players."""
    if name not in PLAYER_FILES or name not in cfg.files:
        return raw
    members, unusable = registry(event_dir)
    if members is None:
        return raw
    frame, found = raw
    schema = cfg.files[name]
    filled = fill_from_registry(frame, members, [c.name for c in schema.columns])
    view = filled.with_columns(
        pl.col("birth_date").str.strip_chars().str.to_date("%Y-%m-%d", strict=False)
        if "birth_date" in filled.columns else pl.lit(None, pl.Date).alias("birth_date"))
    rows = players_against_members(view, members, file=name, on=cfg.event.start,
                                   strangers=False, by_name=False)
    if unusable:
        rows.append(Finding(f"../{FILE}", None, "", "", Severity.WARNING, (
            f"{unusable} row{'s' * (unusable != 1)} of the season's registry cannot be used "
            "(chessfed season-check names them): their members are not checked here")))
    return filled, [*found, *rows]

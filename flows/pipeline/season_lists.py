"""The season's rating lists (issue 47): FIDE's downloads as published, kept in the inputs
folder's ``lists/`` (``standard_jan26frl.zip``, ``rapid_jan26frl_xml.zip``: the names FIDE
gives them, which say the rate and the month). An event whose files take a rating list
(``ratings.csv``) and that has none of its own gets the entries of its players on the list of
its rate (``[ratings] rate``) in force on its first day, as ``chessfed rating-list --extract``
would write them. A list is read once per process while its file is unchanged (a million
players in about 2 s)."""

from __future__ import annotations

import datetime as dt
import functools
from pathlib import Path

import polars as pl

from flows.io import list_bytes, read_csv_strings
from transforms.core.config import EventConfig
from transforms.core.errors import ChessfedError, Finding, Severity
from transforms.core.ingest import RawFile, ReadLimits
from transforms.fide.rating_list import (
    RatingListFile,
    download_name,
    in_force,
    national_name,
    read_fide_txt,
    read_fide_xml,
)
from transforms.fide.rating_report import event_round_dates, rating_periods
from transforms.fide.ratings import RatingsConfig

LISTS = "lists"
"""The season's rating lists: ``<inputs>/lists/``."""
RATINGS = "ratings.csv"
"""The event's file the list's entries stand in for."""
PLAYER_FILES = ("players.csv", "rosters.csv")
"""The files that name an event's players by FIDE id (an individual event's, a team event's)."""
NATIONAL_RATINGS = "national_ratings.csv"
"""The event's file the national list's entries stand in for."""


def list_in_force(event_dir: Path, cfg: EventConfig, national: bool = False,
                  day: dt.date | None = None) -> Path | None:
    """FIDE B.01 1.4.6a, B.02 (the list in force at the start of the event) — the season's list
    of the event's rate whose month is the latest on or before its first day (or ``day``: a
    later round's) (``national``: the federation's national list,
    ``lists/national_<mon><yy>.csv``); None: no list of that rate was published by then (or
    the season keeps none)."""
    folder = Path(event_dir).parent / LISTS
    if not folder.is_dir():
        return None
    ratings = cfg.table(RatingsConfig)
    rate = ratings.rate if ratings is not None else "standard"
    lists = {}
    for path in sorted(folder.iterdir()):
        named = national_name(path.name) if national else download_name(path.name)
        if named is not None and named[0].value == rate and path.is_file():
            lists.setdefault(named[1], path)
    month = in_force(lists, day or cfg.event.start)
    return lists[month] if month is not None else None


def later_lists(event_dir: Path, cfg: EventConfig) -> list[tuple[int, Path]]:
    """FIDE B.02 (an event longer than 30 days: each game rated with the ratings in force in
    its round) — the season's lists of the event's rate that come into force while it is
    played, each with the first round it is in force for: the first round of each rating
    period (the rounds' dates: :func:`~transforms.fide.rating_report.event_round_dates`, a league's own or
    ``[fide_report] round_dates``; :func:`~transforms.fide.rating_report.rating_periods`)
    whose list is not the one in force at the start."""
    dates = event_round_dates(cfg)
    periods = rating_periods(dates) if dates else []
    first = list_in_force(event_dir, cfg)
    out: list[tuple[int, Path]] = []
    for _, rounds in periods[1:]:
        path = list_in_force(event_dir, cfg, day=dates[rounds[0] - 1])
        if path is not None and path != first and path not in [p for _, p in out]:
            out.append((rounds[0], path))
    return out


def stamp(event_dir: Path, cfg: EventConfig) -> str:
    """What of the season's lists an event's outputs depend on (for
    :func:`flows.pipeline.unchanged.inputs_fingerprint`): the name, size and time of each list
    in force it takes (FIDE's, the national one)."""
    out = []
    for file, national in ((RATINGS, False), (NATIONAL_RATINGS, True)):
        if file not in cfg.files or (Path(event_dir) / file).exists():
            continue
        paths = [list_in_force(event_dir, cfg, national)]
        paths += [p for _, p in later_lists(event_dir, cfg)] if not national else []
        for path in paths:
            if path is not None:
                st = path.stat()
                out.append(f"{path.name}:{st.st_size}:{st.st_mtime_ns}")
    return "|".join(out)


@functools.lru_cache(maxsize=3)  # (the start's list and those in force later)
def _read(path: str, size: int, mtime_ns: int) -> RatingListFile:
    named = download_name(Path(path).name)
    assert named is not None
    data, layout = list_bytes(Path(path))
    read = read_fide_xml if layout == "xml" else read_fide_txt
    return read(data, rate=named[0], source=Path(path).name)


def season_ratings(event_dir: Path, cfg: EventConfig, raw: dict[str, RawFile]) -> RawFile | None:
    """The event's ``ratings.csv`` from the season's list in force (:func:`list_in_force`):
    its players' entries (by FIDE id), as read strings with their lines on the list; None when
    the event reads no such file, has its own, or the season has no list for it. A list that
    cannot be read is a finding of the event's (the players keep what players.csv gives)."""
    named_in = next((f for f in PLAYER_FILES if f in raw), None)
    if RATINGS not in cfg.files or RATINGS in raw or named_in is None:
        return None
    path = list_in_force(event_dir, cfg)
    if path is None:
        return None
    named = download_name(path.name)
    assert named is not None
    where = f"../{LISTS}/{path.name}"
    try:
        st = path.stat()
        got = _read(str(path), st.st_size, st.st_mtime_ns)
    except (ChessfedError, OSError, ValueError) as exc:
        empty = pl.DataFrame(schema={"line": pl.Int64, "fide_id": pl.String})
        return empty, [Finding(where, None, "", path.name, Severity.WARNING,
                               f"the season's rating list cannot be read: {exc}")]
    players = raw[named_in][0]
    ids = (players["fide_id"].drop_nulls().str.strip_chars().unique().to_list()
           if "fide_id" in players.columns else [])
    frames, found = [_entries(got, path, ids, None)], []
    for rnd, later in later_lists(event_dir, cfg):
        try:
            st = later.stat()
            frames.append(_entries(_read(str(later), st.st_size, st.st_mtime_ns), later, ids, rnd))
        except (ChessfedError, OSError, ValueError) as exc:
            found.append(Finding(f"../{LISTS}/{later.name}", None, "", later.name, Severity.WARNING,
                                 f"the season's rating list in force from round {rnd} cannot be "
                                 f"read: {exc} (the games of those rounds keep the start's ratings)"))
    frame = pl.concat(frames)
    return frame.with_columns(pl.col(c).fill_null("") for c in frame.columns if c != "line"), found


def _entries(got: RatingListFile, path: Path, ids: list[str], from_round: int | None) -> pl.DataFrame:
    """A list's entries of the players ``ids``, as ratings.csv's rows (``from_round``: a list
    in force from that round on; None: the start's)."""
    named = download_name(path.name)
    assert named is not None
    rate = named[0].value
    name = f"FIDE {rate}, {named[1]:%B %Y}"
    return (got.players.filter(pl.col("fide_id").is_in(ids))
            .select("line", "fide_id", "name", pl.col(rate).cast(pl.String).alias("rating"),
                    "title", "federation", "sex", pl.lit(name).alias("list"),
                    pl.lit("" if from_round is None else str(from_round)).alias("from_round")))


def season_national(event_dir: Path, cfg: EventConfig, raw: dict[str, RawFile]) -> RawFile | None:
    """The event's ``national_ratings.csv`` from the season's national list in force
    (``lists/national_<mon><yy>.csv``: ``member_id``, ``name``, ``rating``, as the federation
    publishes it): its players' entries (by member id), as read strings with their lines on
    the list; None when the event reads no such file, has its own, or the season has no
    national list for it. A list that cannot be read, or that lacks ``member_id`` or
    ``rating``, is a finding of the event's (the players keep what players.csv gives)."""
    if NATIONAL_RATINGS not in cfg.files or NATIONAL_RATINGS in raw or "players.csv" not in raw:
        return None
    path = list_in_force(event_dir, cfg, national=True)
    if path is None:
        return None
    named = national_name(path.name)
    assert named is not None
    where = f"../{LISTS}/{path.name}"
    empty = pl.DataFrame(schema={"line": pl.Int64, "member_id": pl.String})
    try:
        frame, found = read_csv_strings(path, ReadLimits())
    except (ChessfedError, OSError, ValueError) as exc:
        return empty, [Finding(where, None, "", path.name, Severity.WARNING,
                               f"the season's national list cannot be read: {exc}")]
    missing = [c for c in ("member_id", "rating") if c not in frame.columns]
    if missing:
        return empty, [*found, Finding(where, None, missing[0], "", Severity.WARNING,
                                       f"the season's national list has no {missing[0]} column")]
    players = raw["players.csv"][0]
    ids = (players["member_id"].drop_nulls().str.strip_chars().unique().to_list()
           if "member_id" in players.columns else [])
    name = f"National {named[0].value} list, {named[1]:%B %Y}".replace("National standard list", "National list")
    frame = (frame.filter(pl.col("member_id").str.strip_chars().is_in(ids))
             .select("line", pl.col("member_id").str.strip_chars(),
                     pl.col("name") if "name" in frame.columns else pl.lit("").alias("name"),
                     "rating", pl.lit(name).alias("list")))
    return frame.with_columns(pl.col(c).fill_null("") for c in frame.columns if c != "line"), found


def kept_copy(taken: RawFile) -> str:
    """The entries an event took from the season's list as the input file they stand in for
    (its ``ratings.csv``), to keep with the inputs of a good publication (an input read back
    as written, like the other kept copies: :data:`flows.pipeline.last_good.KEPT`)."""
    return taken[0].drop("line", strict=False).write_csv()


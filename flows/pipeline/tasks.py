"""The Prefect tasks every event flow shares (:mod:`flows.pipeline.event` runs them in order):
one task per read, write, render or send, with retries only on I/O.

No task has a cache policy (``NO_CACHE``, the ``event`` task of flows/pipeline/events.py too): Prefect's
default one hashes every input of every call for a cache chessfed never reads (what is built
again is decided by flows/pipeline/unchanged.py and the manifest's ``html_sha256``) — for the demo's
Swiss event every page and PDF, 12 MB, pickled and hashed once per task, about 50 ms each
(measured: 4 such tasks 0.69-0.89 s with it, 0.51-0.55 s without)."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from prefect import task
from prefect.cache_policies import NO_CACHE

from flows import io
from flows.mail import outbox
from flows.mail.letters import Letter
from flows.pipeline import publish_folder, season_lists, season_members, workers
from flows.pipeline.mailing import Unmade, compose_letters, send_letters
from flows.pipeline.manifest import (
    FILE,
)
from flows.pipeline.outputs import EARLY, manifest_json, unchanged_on_disk, write_files
from flows.site import paging, render
from flows.site.pages import Publication
from transforms.core.config import EventConfig
from transforms.core.errors import ConfigError
from transforms.core.ingest import RawFile, ReadLimits
from transforms.core.pgn import GAMES
from transforms.core.results import Source, is_crosstable, is_file
from transforms.kinds import event_sources, kind_of, read_limits


def check_config(folder: Path, suffix: str = "") -> EventConfig:
    """Read and load event.toml (every table is validated at load, so a bad key is reported
    before any step runs: ConfigError names the file and the key); ``suffix``: what the file's
    name carries after ``event.toml`` (a last good publication's copy: ``event.toml.txt``).
    Read once while the file is unchanged (:func:`flows.io.load_event_config`): the run's
    choice of the event's kind, its flow's ``read-config`` and the input reader's limits share
    it."""
    return io.load_event_config(folder, suffix)


@task(name="read-config", retries=2, retry_delay_seconds=[1, 3], cache_policy=NO_CACHE)
def read_config(event_dir: Path) -> EventConfig | ConfigError:
    """The event's configuration (:func:`check_config`), or the error that keeps it from being
    used — returned, not raised: reading again would not correct it, and the flow then holds
    the event's last good publication (:mod:`flows.pipeline.last_good`)."""
    try:
        return check_config(event_dir)
    except ConfigError as e:
        return e


@task(name="read-inputs", retries=2, retry_delay_seconds=[1, 3], cache_policy=NO_CACHE)
def read_inputs(event_dir: Path, names: list[str], suffix: str = "") -> dict[str, RawFile]:
    """:func:`read_files` as the flow's task (retried: a file being written may be read again)."""
    return read_files(event_dir, names, suffix)


def read_files(event_dir: Path, names: list[str], suffix: str = "",
               cfg: EventConfig | None | ConfigError = None) -> dict[str, RawFile]:
    """Read every CSV the event has among ``names`` as strings (absent files are skipped),
    and, for a kind that reads games, its ``games/*.pgn`` (:func:`flows.io.read_pgn_folder`;
    a last good publication's copies too, ``games/*.pgn.txt``),
    each under the limits its event.toml sets (:func:`transforms.kinds.read_limits`; the
    defaults where event.toml cannot be used); ``suffix``: what the files' names carry after
    the input's name (a last good publication's copies: ``players.csv.txt``); ``cfg``: the
    event.toml already read (else read here). An event folder's own inputs (no ``suffix``)
    come with what the season gives them (:class:`EventFiles`)."""
    files = EventFiles(event_dir, names, suffix, cfg)
    return {name: files[name] for name in files}


class EventFiles(Mapping[str, RawFile]):
    """An event folder's input files (:func:`read_files`), each read when it is first asked
    for: a series over 334 events takes most of their results from its last run and reads
    only their players.csv (the players' addresses), not every file of every event.

    An event folder's own inputs (no ``suffix``: not a last good publication's copies) come
    with what the season beside it gives them, the same for the event's own run and for a
    series or seed route that reads it: its players file with the season's member registry
    (what an entry naming a member leaves empty, a row for each player the registry disagrees
    with: :mod:`flows.pipeline.season_members`), and the entries of its players on the
    season's rating lists in force, where it has no ``ratings.csv`` / ``national_ratings.csv``
    of its own (:mod:`flows.pipeline.season_lists`)."""

    def __init__(self, event_dir: Path, names: list[str], suffix: str = "",
                 cfg: EventConfig | None | ConfigError = None) -> None:
        if cfg is None:
            try:
                cfg = check_config(event_dir, suffix)
            except ConfigError as e:
                cfg = e
        self.cfg = cfg if isinstance(cfg, EventConfig) else None
        self.paths = {name: event_dir / f"{name}{suffix}" for name in names
                      if (event_dir / f"{name}{suffix}").exists()}
        games = event_dir / GAMES.rstrip("/")
        self.games = (games if self.cfg is not None and kind_of(self.cfg).games and games.is_dir()
                      else None)
        self.suffix = suffix
        self.event_dir = event_dir
        self.listed = [n for n in (season_lists.RATINGS, season_lists.NATIONAL_RATINGS)
                       if n in names and n not in self.paths and not suffix and self.cfg is not None]
        """The files the season's lists may stand in for (:meth:`_from_lists`)."""
        self.read: dict[str, RawFile] = {}
        self.made: dict[str, RawFile | None] = {}

    def __getitem__(self, name: str) -> RawFile:
        if name not in self.read:
            limits = read_limits(self.cfg, name) if self.cfg is not None else ReadLimits()
            made = self._from_lists(name)
            if name in self.paths:
                self.read[name] = io.read_csv_strings(self.paths[name], limits)
                if not self.suffix and self.cfg is not None:
                    self.read[name] = season_members.with_registry(self.event_dir, self.cfg, name,
                                                                   self.read[name])
            elif name == GAMES and self.games is not None:
                self.read[name] = io.read_pgn_folder(self.games, limits, self.suffix)
            elif made is not None:
                self.read[name] = made
            else:
                raise KeyError(name)
        return self.read[name]

    def _from_lists(self, name: str) -> RawFile | None:
        """The entries of the event's players on the season's list in force, for a file of
        :attr:`listed` (None: no list for it)."""
        if name not in self.listed:
            return None
        if name not in self.made:
            assert self.cfg is not None
            players = {n: self[n] for n in season_lists.PLAYER_FILES if n in self.paths}
            make = (season_lists.season_ratings if name == season_lists.RATINGS
                    else season_lists.season_national)
            self.made[name] = make(self.event_dir, self.cfg, players)
        return self.made[name]

    def __contains__(self, name: object) -> bool:  # (Mapping's would read the file)
        return (name in self.paths or (name == GAMES and self.games is not None)
                or (isinstance(name, str) and self._from_lists(name) is not None))

    def __iter__(self) -> Iterator[str]:
        yield from self.paths
        if self.games is not None:
            yield GAMES
        yield from (n for n in self.listed if self._from_lists(n) is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def read_sources(event_dir: Path, out_dir: Path, cfg: EventConfig) -> tuple[Source, ...]:
    """The other events ``cfg`` reads (a series' ``[series] events``, the events a rules part's
    seed routes are earned in: :func:`transforms.kinds.event_sources`), each as
    :func:`read_source` reads it; none for an event that reads none."""
    return tuple(read_source(event_dir, out_dir, name) for name in event_sources(cfg))


SEASON_FILES = ("members.csv",)
"""The season's files, in the inputs folder beside the event folders."""


def read_season(event_dir: Path, cfg: EventConfig) -> dict[str, RawFile]:
    """The season's files (:data:`SEASON_FILES`: the member registry) beside ``event_dir``, for
    a kind that reads other events (a series); none for the others (they do not use them)."""
    if kind_of(cfg).sources is None:
        return {}
    return {n: io.read_csv_strings(event_dir.parent / n, ReadLimits())
            for n in SEASON_FILES if (event_dir.parent / n).is_file()}


def read_source(event_dir: Path, out_dir: Path, name: str) -> Source:
    """DESIGN.md Inputs (no path outside the inputs) — one event another names: a sibling event
    folder (its event.toml and input files, under its own limits), with the inputs of its last
    good publication (``outputs/<event>/office/published-inputs/``: what its public pages show,
    read when its current ones are not usable); or a TRF file, or a crosstable (chess-results'
    Excel export, ``.xlsx``: its cells), inside ``event_dir``. Nothing there: an event still
    to come. A path that leads outside (a link) is an error, not read."""
    from flows.pipeline import last_good

    if is_file(name):
        path = event_dir / name
        if not path.exists():
            return Source(name, missing=True)
        if not path.resolve().is_relative_to(event_dir.resolve()) or not path.is_file():
            return Source(name, error=f"{name} is not a file inside the series' folder")
        size = path.stat().st_size
        if size > ReadLimits().file_bytes:
            return Source(name, error=f"{name} has {size:,} bytes, more than [limits] file_bytes "
                                      f"= {ReadLimits().file_bytes:,}")
        data = path.read_bytes()
        if is_crosstable(name):
            try:
                rows = io.xlsx_rows(data)
            except ValueError as e:
                return Source(name, error=f"{name}: {e}")
            return Source(name, rows=rows, digest=hashlib.sha256(data).hexdigest())
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("cp1252", errors="replace")  # TRF files of older programs
        return Source(name, text=text, digest=hashlib.sha256(data).hexdigest())
    folder = event_dir.parent / name
    if not folder.exists():
        return Source(name, missing=True)
    if not folder.resolve().is_relative_to(event_dir.parent.resolve()) or not folder.is_dir():
        return Source(name, error=f"{name} is not an event folder beside the series' folder")
    try:
        cfg = check_config(folder)
    except ConfigError as e:
        return Source(name, error=f"its event.toml cannot be used: {e}")
    raw = EventFiles(folder, list(cfg.files), cfg=cfg)  # each file read when first asked for
    digest = files_digest(folder, ["event.toml", *cfg.files], season_lists.stamp(folder, cfg))
    fallback = None
    last = last_good.find(out_dir.parent / name)
    if last is not None:
        try:
            good = check_config(last.folder, last.suffix)
            fallback = Source(name, good, EventFiles(last.folder, list(good.files), last.suffix, good),
                              published=last.as_of.isoformat(),
                              digest=files_digest(last.folder, [f"{n}{last.suffix}" for n in
                                                                ["event.toml", *good.files]]))
        except ConfigError:
            fallback = None
    return Source(name, cfg, raw, fallback=fallback, digest=digest)


def files_digest(folder: Path, names: list[str], also: str = "") -> str:
    """The checksum of the files ``names`` of ``folder`` that are there, by name and content
    (and of ``also``: what else the event's results depend on, the season's lists it takes)."""
    h = hashlib.sha256(also.encode())
    for n in names:
        path = folder / n
        if path.is_file():
            h.update(f"{n}\0".encode())
            with open(path, "rb") as fh:
                h.update(hashlib.file_digest(fh, "sha256").digest())
    return h.hexdigest()


@task(name="pdfs", retries=1, retry_delay_seconds=2, cache_policy=NO_CACHE)
def render_pdfs(htmls: dict[str, str], previous: dict[str, str],
                renderer: str = "local", early: str = "") -> dict[str, bytes | None]:
    """Render the PDFs whose HTML changed since the last run (``previous``: path -> sha256 of
    the HTML it was made from); unchanged ones come back as None and are kept. The longest
    documents go first, so that the parallel renderers finish close together. ``renderer``:
    ``local`` (the run's process pool, one per core) or ``dask`` (a worker of the Dask cluster
    the run executes on, one event at a time per worker: its own renderer, and itself while it
    waits; :func:`flows.pipeline.workers.htmls_to_pdfs`). ``early``: the output folder whose
    PDFs :func:`early_pdfs` already started (their results are taken, not rendered again)."""
    todo = sorted((p for p, h in htmls.items()
                   if previous.get(p) != render.digest(h)),
                  key=lambda p: (-len(htmls[p]), p))
    batch = [htmls[p] for p in todo]
    started = EARLY.pop(early, None) if early else None
    pdfs = workers.htmls_to_pdfs(batch, started, renderer)
    if started is not None:
        started.discard()  # started but not asked for (a PDF whose HTML was made again)
    out: dict[str, bytes | None] = {p: None for p in htmls}
    out.update(zip(todo, pdfs))
    return out


@task(name="write", retries=2, retry_delay_seconds=[1, 3], cache_policy=NO_CACHE)
def write_outputs(out_dir: Path, files: Mapping[str, io.Content]) -> list[str]:
    """:func:`write_files` as a task of the flow that writes (retried: a disk may be busy)."""
    return write_files(out_dir, files)


@task(name="publish", retries=2, retry_delay_seconds=[1, 3], cache_policy=NO_CACHE)
def publish_task(pub: Publication, cfg: EventConfig | None, event_dir: Path,
                 input_names: list[str], as_of: dt.date, pdfs: dict[str, bytes | None],
                 mail_report: dict[str, Any]) -> None:
    """The event's outputs written whole in a staging folder with their manifest, then switched
    in one step (flows/pipeline/publish_folder.py): a run killed before the switch leaves the previous
    outputs as they were."""
    staging = publish_folder.stage(pub.out_dir)
    write_files(staging, pub.files, unchanged_on_disk(pub))
    for stale in paging.stale_parts_of(staging, pub.paged, pub.files):
        stale.unlink()
    for stale in pub.stale_group_files(set(pdfs)):
        (staging / stale).unlink(missing_ok=True)
    write_files(staging, {FILE: manifest_json(
        pub, cfg, event_dir, input_names, as_of, pdfs, staging, mail_report)})
    publish_folder.publish(staging, pub.out_dir)


@task(name="mail", cache_policy=NO_CACHE)
def mail_task(pub: Publication, cfg: EventConfig | None, event_dir: Path, letters: list[Letter],
              outgoing: list[outbox.Outgoing], send_mail: bool,
              unmade: list[Unmade] = ()) -> dict[str, Any]:
    """:func:`send_letters` as the flow's mail step. No task retries: each message is retried
    by the outbox itself (``[publish] smtp_retries``, with backoff), and what still waits stays
    pending for the next run (``chessfed mail --retry``)."""
    return send_letters(pub, cfg, event_dir, letters, outgoing, send_mail, unmade)


@task(name="messages", cache_policy=NO_CACHE)
def compose_task(pub: Publication, cfg: EventConfig | None, letters: list[Letter],
                 pdfs: dict[str, bytes | None], as_of: dt.date
                 ) -> tuple[list[outbox.Outgoing], list[Unmade]]:
    """:func:`compose_letters` as the flow's step that writes every letter as its message."""
    return compose_letters(pub, cfg, letters, pdfs, as_of)



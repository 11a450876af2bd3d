"""GK rule 2 — the games of a correspondence event as its server exports them (``games/*.pgn``,
ICCF-like PGN: one file per section, per stage or for the event), each matched to its row of
games.csv, checked against it and, once it has ended, published.

A correspondence section has no rounds: its 21 games are played at once, so a game is found by
its two players (entries, named as members.csv names their members) and, where two entries met
in two sections (a semifinal rematch of a preliminary), by the section a ``Section`` or
``Event`` tag names (:func:`transforms.core.games.match_games` with ``rounds=False``). A
section is the group ``<stage>-<section>`` (``preliminary-P01``), as the event's pages name
it.

Decisions (docs/decisions.md, "The games of a correspondence event"):
- the record a PGN is checked against is games.csv as the players reported it, not a rule 12
  ruling or a rule 7 decision that changed its result (the PGN shows the game as played); the
  result published is the standings' (the ruling's);
- a game is published once it has ended in the standings: a correspondence game's moves are
  not shown while it is played;
- a game the schedule has but games.csv has no row for yet is no error: a warning, matched and
  published once games.csv has its row.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from dataclasses import dataclass
from typing import ClassVar

import polars as pl

from transforms.core.errors import Finding, Severity
from transforms.core.games import (
    BulletinGame,
    GameRecord,
    GamesConfig,
    bulletin_games,
    match_games,
    published_games,
)
from transforms.core.ingest import RawFile
from transforms.core.pgn import read_games
from transforms.golden_knights.rules import Stage

STAGE_TITLES = {Stage.PRELIMINARY.value: "Preliminaries", Stage.SEMIFINAL.value: "Semifinals",
                Stage.FINAL.value: "Final"}
"""A stage as the regulations name it (rule 2: "preliminaries, semifinals, and finals")."""

RECORD = "games.csv"

REFERENCE = (
    "The section's games as the correspondence server exports them (ICCF-like PGN), read "
    "with python-chess: one file per section, per stage or for the event, any names ending "
    "`.pgn`, read in name order (UTF-8; else ISO 8859-1 with a warning). Optional. The office "
    "sees every game and its games.csv row in `office/games.html` and `office/games.csv`; a "
    "game is published (`games/<stage>-<section>/<white>-<black>.html`: a page with a board to "
    "step through, its PGN, the event's PGN; linked from the section's crosstable, its games "
    "and each member's page) once it matched its games.csv row without an error and has "
    "ended — a game's moves are not published while it is played. Its PGN has the seven tags "
    "Event, Site, Date, Round (`-`: a section has no rounds), White, Black and Result only, "
    "written from the record (event.toml, games.csv, members.csv).",
    "",
    "- **White**, **Black**: the members as members.csv names them, or surname first "
    "(`Young, Jessica` for `Jessica Young`; case, spaces and commas aside). A game is found "
    "by its two players: a section has no rounds, the `Round` tag is not read.",
    "- **Section** or **Event**: needed only where two entries met in two sections (two "
    "stages): a tag naming the section (`P01`; `semifinal 1` where two stages have a section "
    "`1`) tells which game it is.",
    "- **Result**: `1-0`, `0-1`, `1/2-1/2` or `*`, compared with games.csv's result as "
    "recorded (a rule 12 or rule 7 ruling that changed it is not compared: the PGN shows the "
    "game as played; the game is published with the standings' result).",
    "- Other tags are read and never trusted: none is published (an address, an email, a "
    "rating, a member number reach no public file).",
    "- event.toml's `[games] bulletin` names a game by its section and entries as games.csv "
    "writes them, either first: `\"preliminary-P01:GK19-0096-GK19-0152\"`; a diagram as "
    "`\"preliminary-P01:GK19-0096-GK19-0152 after 23...\"` (after Black's 23rd move).",
    "",
    "Errors (the game is not published; nothing else waits — games.csv is the record): an "
    "illegal or unreadable move, a `Result` that is not one of the four, a player not in "
    "members.csv among the event's entries, a game games.csv has no row of and the schedule "
    "no game of, White and Black swapped against games.csv, a result that contradicts "
    "games.csv (compared as points: `+/-` agrees with `1-0`), a second game for one row, a "
    "game of two entries who met in two sections with no tag naming one. Warnings: a game "
    "in progress (no result in games.csv, no ruling: not published until it has ended), a "
    "result where "
    "games.csv has none yet, a game the schedule has but games.csv has no row for yet, a "
    "game ended by a double forfeit (no PGN result says it: not published).",
)
"""What the input reference says of a correspondence event's games folder, one Markdown line
each (:data:`transforms.core.games.REFERENCE` is the over-the-board kinds')."""

PGN_RESULT = {"1-0": "1-0", "+/-": "1-0", "0-1": "0-1", "-/+": "0-1", "1/2-1/2": "1/2-1/2"}
"""A games.csv result (after rulings) as a PGN's ``Result``: a forfeit as its points (the PGN
standard has no forfeit); a double forfeit has none."""


def section_group(stage: str, section: str) -> str:
    """GK rule 2 — the group id of a section among the event's games: ``<stage>-<section>``
    (``preliminary-P01``), the id of its page (``sections/preliminary-P01.html``)."""
    return f"{stage}-{section}"


def game_key(game: GameRecord) -> str:
    """GK rule 2 — how the office names a section's game in event.toml: ``<stage>-<section>:
    <white>-<black>``, the entries as games.csv writes them (``preliminary-P01:GK19-0096-
    GK19-0152``)."""
    return f"{game.section}:{game.white_id}-{game.black_id}"


@dataclass(frozen=True)
class SectionGamesConfig(GamesConfig):
    """``[games]`` of a correspondence event: the bulletin's games named by section and
    entries (:func:`game_key`), its diagrams as ``"<key> after 23..."``."""

    KEY: ClassVar[re.Pattern[str]] = re.compile(r"[^:\s]+:[^:\s]+")
    KEY_FORM: ClassVar[str] = ('stage-section:white-black, the entries as games.csv writes '
                               'them ("preliminary-P01:GK19-0096-GK19-0152")')

    def names(self, key: str, game: GameRecord) -> bool:
        """Decision: a key names the game of those two entries in that section whichever of
        them it writes first (they meet once in a section: the colours are no part of the
        name)."""
        return key in (game_key(game), f"{game.section}:{game.black_id}-{game.white_id}")

    def said(self, key: str) -> str:
        return key


@dataclass(frozen=True)
class SectionGames:
    """The event's games, checked (:func:`check_section_games`)."""

    games: pl.DataFrame
    """Every game of ``games/*.pgn``, matched or not (:data:`transforms.core.games.GAME_COLUMNS`;
    ``section`` the group, ``recorded`` games.csv's result)."""
    published: tuple[GameRecord, ...]
    """The matched games that have ended and may be published, in the order of the sections."""
    bulletin: tuple[BulletinGame, ...]
    """The games the bulletin prints (``[games] bulletin``)."""
    findings: list[Finding]
    sections: dict[str, str]
    """Group id -> the section's printed name (``Preliminaries — section P01``), in the order
    the stages are played."""


def players_frame(people: pl.DataFrame, *, surname_first: bool) -> pl.DataFrame:
    """GK rule 2 — the entries as the matcher reads players: ``player_id`` the entry, ``name``
    its member's (members.csv), no FIDE id or start number. With ``surname_first`` each
    entry also under its name surname first (``Young, Jessica``), before the name as
    members.csv writes it.

    Decision: a correspondence server writes names as ICCF does, ``Surname, Given``, while
    members.csv writes them as certificates print them (``Jessica Young``); the surname is the
    last word, as the member list sorts names."""
    named = people.filter(pl.col("name").is_not_null() & (pl.col("name").str.strip_chars() != ""))
    rows = []
    for eid, name in named.select("entry_id", "name").unique("entry_id", keep="first",
                                                             maintain_order=True).iter_rows():
        words = name.split()
        if surname_first and len(words) > 1:
            rows.append((eid, f"{words[-1]}, {' '.join(words[:-1])}"))
        rows.append((eid, name))
    return pl.DataFrame(rows, schema={"player_id": pl.String, "name": pl.String}, orient="row") \
        .with_columns(fide_id=pl.lit(None, pl.String), sno=pl.lit(None, pl.Int64))


SCHEDULED = 1_000_000_000
"""Where the lines the matcher is given for the schedule's games without a games.csv row
begin (a games.csv line never reaches it): a finding naming one says "by the schedule"."""


def _scheduled(finding: Finding) -> Finding:
    """A finding of the matcher with a schedule's game named as the schedule's, not by the
    line it was given (:data:`SCHEDULED`)."""
    reason = re.sub(rf"\b(?:{re.escape(RECORD)} )?line (\d{{10,}})\b", lambda m: "by the schedule, no "
                    f"{RECORD} row yet" if int(m.group(1)) > SCHEDULED else m.group(0), finding.reason)
    return finding if reason == finding.reason else dataclasses.replace(finding, reason=reason)


def _pairings(rows: pl.DataFrame, lines: pl.Expr) -> pl.DataFrame:
    return rows.select(
        line=lines, section=pl.format("{}-{}", "stage", "section"),
        round=pl.lit(None, pl.Int64), board=pl.lit(None, pl.Int64), white_id="white",
        black_id="black", result="result")


def check_section_games(raw: RawFile, recorded: pl.DataFrame, standing: pl.DataFrame,
                        people: pl.DataFrame, *, event: str, site: str, start: dt.date,
                        chosen: GamesConfig | None = None) -> SectionGames:
    """GK rule 2 — the event's PGN files (``raw``: a frame of ``file`` and ``text``, and the
    findings of reading them) read and each game matched to its games.csv row: ``recorded``
    is every game of the published sections as games.csv reported it (before rulings: source
    ``games`` a games.csv row, ``schedule`` a game games.csv has no row for yet), ``standing``
    the same games after rule 12 rulings and rule 7 decisions (what the standings count),
    ``people`` the entries (entry_id, name: their members').

    Decisions (docs/decisions.md, "The games of a correspondence event"): a PGN is checked
    against games.csv as reported, not against a ruling (the PGN shows the game as played;
    the standings' result is the one published); a game the standings show in progress is a
    warning and not published (a correspondence game's moves are not shown while it is
    played); a game the schedule has but games.csv has no row for yet is a warning, not the
    error of a game no pairing has (published once games.csv has its row) — such games are
    matched with games.csv's rows, so that two entries who meet again in a later section still
    being played need the Section tag as much as two who met twice on record; a game ended by a
    double forfeit is a warning and not published (no PGN result says it)."""
    frame, read_findings = raw
    texts = dict(zip(frame["file"], frame["text"], strict=True)) if frame.height else {}
    read, findings = read_games(texts)
    matching = players_frame(people, surname_first=True)
    order = {s.value: i for i, s in enumerate(Stage)}
    seated = recorded.select("stage", "section").unique().sort(
        pl.col("stage").replace_strict(order, default=9), "section")
    repeated = {s for s, n in seated.group_by("section").len().iter_rows() if n > 1}
    printed = {section_group(st, s): f"{STAGE_TITLES.get(st, st)} — section {s}" for st, s in seated.iter_rows()}
    named = {section_group(st, s): f"{st} {s}" if s in repeated else s for st, s in seated.iter_rows()}
    # games.csv's rows, and the schedule's games without a row yet under lines of their own
    # (SCHEDULED + n): a game of two entries who met twice, once only by the schedule (a
    # semifinal rematch still being played), needs its Section tag as much as any other
    real = recorded.filter(pl.col("source") == "games")
    scheduled = recorded.filter(pl.col("source") == "schedule")
    pairings = pl.concat([_pairings(real, pl.col("line")),
                          _pairings(scheduled, pl.int_range(1, pl.len() + 1) + SCHEDULED)])
    games, more = match_games(read, matching, pairings, record=RECORD, rounds=False, sections=named)
    planned = {(section_group(st, s), w, b) for st, s, w, b in
               scheduled.select("stage", "section", "white", "black").iter_rows()}
    waiting = {(r["file"], r["line"]): r for r in games.iter_rows(named=True) if r["matched"] and (
        (r["section"], r["white_id"], r["black_id"]) in planned)}
    more = [_scheduled(f) for f in more if (f.file, f.line) not in waiting]
    for (file, line), r in waiting.items():
        more.append(Finding(file, line, f"game {r['game']}, White", r["white"], Severity.WARNING,
                            f"{RECORD} has no row for this game yet ({printed[r['section']]}: "
                            f"{r['white_id']} – {r['black_id']} by the schedule): it is matched "
                            f"and published once {RECORD} has its row"))
    games = games.with_columns(matched=pl.col("matched") & ~pl.Series([
        (r["file"], r["line"]) in waiting for r in games.iter_rows(named=True)], dtype=pl.Boolean))
    games = games.with_columns(usable=pl.col("usable") & pl.col("matched"))
    now = {(section_group(r["stage"], r["section"]), *sorted((r["white"], r["black"]))): r["result"]
           for r in standing.iter_rows(named=True)}
    ended: list[str | None] = []
    usable: list[bool] = []
    for r in games.iter_rows(named=True):
        result = now.get((r["section"], *sorted((r["white_id"], r["black_id"])))) if r["matched"] else None
        pgn_result = PGN_RESULT.get(result or "")
        ok = bool(r["usable"])
        if ok and result is None and r["plies"]:  # (a result only: never published)
            ok = False
            more.append(Finding(r["file"], r["line"], f"game {r['game']}, Result", r["result"], Severity.WARNING,
                                f"the game is in progress ({printed[r['section']]}: no result in "
                                f"{RECORD}, no ruling): it is published when it has ended (a "
                                "correspondence game's moves are not published while it is played)"))
        elif ok and pgn_result is None and r["plies"]:
            ok = False
            more.append(Finding(r["file"], r["line"], f"game {r['game']}, Result", r["result"], Severity.WARNING,
                                f"the game ended by a double forfeit ({result}): no PGN result "
                                "says it, the game is not published"))
        ended.append(pgn_result)
        usable.append(ok)
    games = games.with_columns(usable=pl.Series(usable, dtype=pl.Boolean))
    shown = games.with_columns(result=pl.Series(ended, dtype=pl.String))  # the standings' result
    published = published_games(shown, players_frame(people, surname_first=False), event=event,
                                site=site, start=start, sections=printed)
    chosen_games, chose = bulletin_games(published, chosen)
    files = {f: i for i, f in enumerate(texts)}
    findings = sorted([*findings, *more], key=lambda f: (files.get(f.file, -1), f.line or 0))
    return SectionGames(games, published, chosen_games, [*read_findings, *findings, *chose], printed)

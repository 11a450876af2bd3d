"""An event's games (``games/*.pgn``) matched to its pairings, whatever its kind: each game
read (:mod:`transforms.core.pgn`) is given the row of the event's record it is the game of
(results.csv of a Swiss, a round robin or a team event; games.csv of a correspondence
section), by its round and its players, and checked against it. A kind hands its pairings
and players in as plain frames (:func:`match_games`); nothing here knows a regulation.

How a game finds its pairing (DESIGN.md Inputs, games; docs/decisions.md):
- its round from the ``Round`` tag (``3``, or ``3.2``: round 3, board 2); an event without
  rounds (a correspondence section) does not read it;
- each player by the ``WhiteFideId``/``BlackFideId`` tag where the event has that FIDE id,
  else by the name as the event's players file writes it (case, spaces and the space after
  the comma aside: ``Surname,Given`` is ``Surname, Given``), else by a shortened or
  plain-letter form of it (``Carlsen, M.``, ``Muller`` for ``Müller``), or a start number tag
  (``WhiteStartNo``/``BlackStartNo``, where the tags carry one); a name two players share
  leads to both, and the pairing tells them apart;
- the pairing: the row of that round with those two players (where two players met in two
  groups of an event without rounds, the group a ``Section`` or ``Event`` tag names). The
  board is not a key: a board alone never matches a game (a typo in a board would publish a
  game under the wrong names), and a board other than the record's is no finding (the boards
  of an event taken over from a TRF are chessfed's, not the pairing program's: the HBCC events
  differ on a third of their boards); the games frame carries the record's board.

Every game stays in the games frame (:data:`GAME_COLUMNS`) with ``matched`` saying whether it
found its pairing; the next steps publish only the matched, usable ones.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

import polars as pl

from transforms.core.errors import ConfigError, Finding, Severity
from transforms.core.ingest import visible
from transforms.core.model import ResultCode
from transforms.core.pgn import PUBLISHED_TAGS, GameMoves, PgnGame, game_moves, round_and_board

REFERENCE = (
    "The event's games as PGN, read with python-chess: one file per round or one for the "
    "event, any names ending `.pgn`, read in name order (UTF-8; else ISO 8859-1, the PGN "
    "standard's, with a warning). Optional. The office sees every game and its pairing in "
    "`office/games.html` and `office/games.csv`; every game matched to its pairing without an "
    "error is published (`games/`: a page with a board to step through, its PGN, each round's "
    "and the event's PGN), its PGN with the seven tags Event, Site, Date, Round, White, Black "
    "and Result only, written from the record (event.toml, results.csv, players.csv).",
    "",
    "- **Round**: `3`, or `3.2` (round 3, board 2, as pairing programs write it). The board "
    "is not needed: a game is matched by its round and its players.",
    "- **White**, **Black**: the players, found by `WhiteFideId`/`BlackFideId` where "
    "players.csv has that `fide_id` (`0` or empty: none), else by the name as players.csv "
    "writes it (case, spaces and commas aside: `Surname,Given` = `Surname, Given`), else by "
    "a shortened or plain-letter form of it the round's pairing confirms (`Carlsen, M.`, "
    "`Muller` for `Müller`) or by `WhiteStartNo`/`BlackStartNo`. An opponent named `BYE` is a bye entry, not a game: it "
    "should agree with a bye or absence in results.csv (else a warning).",
    "- **Result**: `1-0`, `0-1`, `1/2-1/2` or `*`. The tag is the game's result; the "
    "movetext's own marker only where the tag is `*` (exports that write only `*` as movetext "
    "are read as their tag says). `*` is no result and contradicts nothing.",
    "- Other tags are read and never trusted: none is published (an Elo, a FIDE id, a birth "
    "date reach no public file).",
    "",
    "Errors (the game is not published; nothing else waits — results.csv is the record): an "
    "illegal or unreadable move, a `Result` that is not one of the four, a `Round` that is "
    "not a round, a player not in players.csv, a game no pairing of its round has, White and "
    "Black swapped against results.csv (not checked for a forfeit), a result that contradicts "
    "results.csv (compared as points: `+/-` agrees with `1-0`), a second game for one "
    "pairing. Warnings: a result where results.csv has none yet, a bye entry results.csv "
    "does not have, a movetext marker that contradicts the tag in a game with moves, a file "
    "with no game. A row names the file, the line where the game begins, the game number in "
    "the file (`game 3`) with its tag or move (`game 3, move 12`), the value and the reason.",
)
"""What the input reference (``chessfed input-reference``) says of the games folder, one
Markdown line each."""

GAME_COLUMNS: dict[str, pl.DataType | type[pl.DataType]] = {
    "file": pl.String, "game": pl.Int64, "line": pl.Int64, "white": pl.String,
    "black": pl.String, "round_tag": pl.String, "section": pl.String,
    "round": pl.Int64, "board": pl.Int64, "white_id": pl.String, "black_id": pl.String,
    "white_sno": pl.Int64, "black_sno": pl.Int64, "result": pl.String,
    "recorded": pl.String, "plies": pl.Int64, "matched": pl.Boolean, "usable": pl.Boolean,
    "pgn": pl.String}
"""The games frame: each game's ``file`` and place in it (``game``, 1-based; ``line`` where it
begins), its ``White``, ``Black`` and ``Round`` tags as read, the pairing it is the game of (``section``, ``round``, ``board`` and the players as
results.csv has them; empty when unmatched), the PGN's ``result`` and results.csv's
(``recorded``), its half-moves, whether it ``matched`` its pairing and is ``usable`` (matched,
no error: what may be published), and its text as python-chess writes it."""

BYE_NAMES = frozenset({"bye", "-", "none", "n.n."})
"""Names a pairing program writes for "no opponent" (Vega: ``BYE``), compared ignoring case."""

FORFEITS = frozenset({ResultCode.WHITE_FORFEIT_WIN.value, ResultCode.BLACK_FORFEIT_WIN.value,
                      ResultCode.DOUBLE_FORFEIT.value})
"""results.csv's forfeits: no game was played, so the colours an export gives them mean
nothing (a crosstable prints them without a colour)."""

POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}
"""A PGN result as White's and Black's points."""


def name_key(name: str) -> str:
    """DESIGN.md Inputs (games) — how a PGN name is compared with players.csv's: Unicode NFC,
    ignoring case, and a comma counted as a space, runs of them as one (``Surname,Given`` =
    ``surname, given`` = ``Surname Given``: Vega's PGN writes ``Mai, Nhuan Phat`` for the
    crosstable's ``Mai Nhuan Phat``)."""
    text = unicodedata.normalize("NFC", name).casefold()
    return re.sub(r"[\s,]+", " ", text).strip()


def name_words(name: str) -> tuple[str, ...]:
    """DESIGN.md Inputs (games) — the words of a name without case, accents or punctuation
    (``Müller-Lüdenscheidt, J.`` -> ``muller``, ``ludenscheidt``, ``j``)."""
    text = unicodedata.normalize("NFKD", name.casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return tuple(re.findall(r"[^\W\d_]+", text))


def loosely_named(said: str, name: str) -> bool:
    """DESIGN.md Inputs (games) — whether a PGN name is a shortened or plain-letter form of a
    player's name: each of its words is a word of the name (accents aside) or the initial of
    one, and its longest word is one of the name's in full (``Carlsen, M.`` and ``Carlsen
    Magnus`` are ``Carlsen, Magnus``; ``Muller, J`` is ``Müller, Jana``; ``M. C.`` is no one).
    Used only where no player has the name as written, and only with the pairing: a game is
    matched where the round has one pairing of two such players."""
    return _loose(name_words(said), name_words(name))


def _loose(mine: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    """:func:`loosely_named` on the names' words."""
    if not mine or not theirs:
        return False
    full = [w for w in mine if len(w) > 1]
    if not full or max(full, key=len) not in theirs:
        return False
    left = list(theirs)
    for w in mine:
        match = w if w in left else next((x for x in left if len(w) == 1 and x.startswith(w)), None)
        if match is None:
            return False
        left.remove(match)
    return True


def recorded_points(code: str | None) -> tuple[float, float] | None:
    """FIDE C.04.1 — the points a results.csv code gives White and Black, a forfeit as its
    points (the PGN standard has no forfeit); None for no result yet or a bye."""
    if code is None or code == "":
        return None
    rc = ResultCode(code)
    if rc.is_bye or rc.black is None:
        return None
    return rc.white.points, rc.black.points


@dataclass(frozen=True)
class _Players:
    """The accepted players as a PGN names them: each key leads to every player it may mean
    (two players of one name, in two categories or sections, are both candidates: the
    pairing tells them apart)."""

    by_fide: Mapping[str, tuple[str, ...]]
    by_name: Mapping[str, tuple[str, ...]]
    by_sno: Mapping[int, tuple[str, ...]]
    sno: Mapping[str, int | None]
    name: Mapping[str, str]
    words: Mapping[str, tuple[str, ...]]
    """Each player's name as :func:`name_words` reads it (for :func:`loosely_named`)."""

    @classmethod
    def of(cls, players: pl.DataFrame) -> _Players:
        rows = players.select("player_id", "name", "fide_id", "sno").rows()
        fide: dict[str, list[str]] = {}
        names: dict[str, list[str]] = {}
        snos: dict[int, list[str]] = {}
        for pid, name, fid, sno in rows:
            if fid:
                fide.setdefault(str(fid).lstrip("0"), []).append(pid)
            names.setdefault(name_key(name), []).append(pid)
            if sno is not None:
                snos.setdefault(sno, []).append(pid)
        return cls({k: tuple(v) for k, v in fide.items()}, {k: tuple(v) for k, v in names.items()},
                   {k: tuple(v) for k, v in snos.items()}, {r[0]: r[3] for r in rows},
                   {r[0]: r[1] for r in rows}, {r[0]: name_words(r[1]) for r in rows})

    def find(self, headers: Mapping[str, str], side: str) -> tuple[str, ...]:
        """The players a side's tags may name: by FIDE id, else by name as written, else by
        a shortened or plain-letter form of it (:func:`loosely_named`), else by start number;
        empty when none."""
        fid = headers.get(f"{side}FideId", "").strip().lstrip("0")
        if fid.isdigit() and fid in self.by_fide:
            return self.by_fide[fid]
        said = headers.get(side, "")
        found = self.by_name.get(name_key(said))
        if found:
            return found
        given = name_words(said)
        loose = tuple(pid for pid, words in self.words.items() if _loose(given, words))
        sno = headers.get(f"{side}StartNo", "").strip()
        by_sno = self.by_sno.get(int(sno), ()) if re.fullmatch(r"[0-9]{1,9}", sno) else ()
        return tuple(dict.fromkeys((*loose, *by_sno)))  # (the pairing tells them apart)

    def by_id_not_name(self, headers: Mapping[str, str], side: str, pid: str) -> bool:
        """Whether the side was found by its FIDE id tag while its name tag names someone
        else: the two names share no word of two letters or more (``D. Chitra`` is
        ``Chitra, Devi``: initials and the order of the names are how PGN files differ)."""
        fid = headers.get(f"{side}FideId", "").strip().lstrip("0")
        said = {w for w in re.findall(r"[^\W\d_]{2,}", name_key(headers.get(side, "")))}
        if not (fid.isdigit() and fid in self.by_fide) or not said:
            return False
        return not said & set(re.findall(r"[^\W\d_]{2,}", name_key(self.name[pid])))


def _named_in(headers: Mapping[str, str], section: str, sections: Mapping[str, str]) -> bool:
    """Whether a game's ``Section`` or ``Event`` tag names the group ``section`` (its id or
    its name, ignoring case)."""
    said = f"{headers.get('Section', '')} {headers.get('Event', '')}".casefold()
    words = set(re.findall(r"[^\W_]+", said))
    return any(n and (n.casefold() in words or (" " in n and n.casefold() in said))
               for n in (section, sections.get(section, "")))


def match_games(games: Iterable[PgnGame], players: pl.DataFrame, pairings: pl.DataFrame, *,
                record: str = "results.csv", rounds: bool = True,
                sections: Mapping[str, str] | None = None) -> tuple[pl.DataFrame, list[Finding]]:
    """DESIGN.md Inputs (games) — every game given its pairing among ``pairings`` (the kind's
    record, ``record``, as rows of ``line``, ``section``, ``round``, ``board``, ``white_id``,
    ``black_id`` — None: a bye — and ``result``, a results.csv code) and checked against it;
    ``players`` are the accepted players (``player_id``, ``name``, ``fide_id``, ``sno``). An
    event without rounds (a correspondence stage: ``rounds`` False) matches a game by its
    players alone, and where two players met in more than one group by the group the
    ``Section`` or ``Event`` tag names (``sections``: id -> name). Returns the games frame
    (:data:`GAME_COLUMNS`, every game, matched or not) and the findings, in the games' order.

    Decisions (docs/decisions.md, "Games"): errors — a ``Round`` tag that is not a round (an
    event with rounds), a player the tags name who is not in players.csv, a game no pairing
    has, a game in the wrong colours (White and Black swapped against the record), a PGN
    result that contradicts the recorded one (compared as each player's points: a forfeit
    ``+/-`` agrees with ``1-0``; a forfeit's colours are not checked: no game was played), a
    second game for one pairing (the first in file order keeps it), a game two pairings could
    be; warnings — a PGN result where the record has none yet, a bye entry (``Black "BYE"``)
    where results.csv has no bye or absence of the player, a FIDE id tag that names another
    player than the name tag (the FIDE id is taken). ``*`` is no result and contradicts
    nothing."""
    who = _Players.of(players)
    groups = dict(sections or {})
    rows: dict[tuple[int | None, str], list[dict[str, object]]] = {}
    byes: set[tuple[int | None, str]] = set()
    for r in pairings.iter_rows(named=True):
        at = r["round"] if rounds else None
        if r["black_id"] is None:
            byes.add((at, r["white_id"]))
            continue
        rows.setdefault((at, r["white_id"]), []).append(r)
        rows.setdefault((at, r["black_id"]), []).append(r)
    taken: dict[int, PgnGame] = {}  # the record's line -> the game that has it
    out: list[dict[str, object]] = []
    findings: list[Finding] = []
    for g in games:
        def finding(tag: str, value: str, severity: Severity, reason: str, g: PgnGame = g) -> None:
            findings.append(Finding(g.file, g.line, f"{g.where}, {tag}" if tag else g.where,
                                    visible(value), severity, reason))

        h = g.headers
        record_row: dict[str, object] = {"file": g.file, "game": g.number, "line": g.line,
                                         "white": visible(h.get("White", "")),
                                         "black": visible(h.get("Black", "")),
                                         "round_tag": visible(h.get("Round", "")),
                                         "result": g.result, "plies": g.plies, "matched": False,
                                         "usable": False, "pgn": g.pgn}
        out.append(record_row)
        rnd: int | None = None
        board: int | None = None
        if rounds:
            rb = round_and_board(h.get("Round", ""))
            if rb is None:
                finding("Round", h.get("Round", ""), Severity.ERROR,
                        "not a round (expected the round, or round.board as in 3.2): the game "
                        "cannot be matched to its pairing")
                continue
            rnd, board = rb
        when = f" in round {rnd}" if rounds else ""
        bye_side = next((s for s in ("White", "Black") if h.get(s, "").strip().casefold() in BYE_NAMES), None)
        if bye_side is not None:
            other = "Black" if bye_side == "White" else "White"
            if any((rnd, pid) in byes for pid in who.find(h, other)):
                out.pop()  # a bye entry agreeing with the record: not a game
                continue
            finding(bye_side, h.get(bye_side, ""), Severity.WARNING,
                    f"a bye entry (no opponent){when} for {h.get(other, '')!r}, but {record} "
                    f"has no bye or absence of that player{when}")
            continue
        sides = {s: who.find(h, s) for s in ("White", "Black")}
        unknown = [s for s in ("White", "Black") if not sides[s]]
        for side in unknown:
            finding(side, h.get(side, ""), Severity.ERROR,
                    "not a player of the event (by FIDE id, name or start number): the game "
                    "cannot be matched to its pairing")
        if unknown:
            continue
        ws, bs = set(sides["White"]), set(sides["Black"])
        hits = [r for w in ws for r in rows.get((rnd, w), ())  # (either way round: swapped colours are found)
                if (r["white_id"] in ws and r["black_id"] in bs) or (r["white_id"] in bs and r["black_id"] in ws)]
        hits = list({int(r["line"]): r for r in hits}.values())  # type: ignore[call-overload]
        if len(hits) > 1:
            named = [r for r in hits if _named_in(h, str(r["section"]), groups)]
            hits = named if named else hits
        if not hits:
            w_name = who.name[next(iter(sorted(ws)))] if len(ws) == 1 else h.get("White", "")
            b_name = who.name[next(iter(sorted(bs)))] if len(bs) == 1 else h.get("Black", "")
            said = ""
            if board is not None:
                at = next((r for k, v in rows.items() if k[0] == rnd for r in v if r["board"] == board), None)
                if at is not None:
                    said = (f"; {record} has {who.name[str(at['white_id'])]} – "
                            f"{who.name[str(at['black_id'])]} on board {board}")
            finding("Round" if rounds else "White", h.get("Round" if rounds else "White", ""),
                    Severity.ERROR, f"{record} has no game of {w_name} and {b_name}{when}{said}: "
                    "the game stays unmatched (not published)")
            continue
        if len(hits) > 1:
            where = ", ".join(f"{r['section']} (line {r['line']})" for r in hits)
            finding("White", h.get("White", ""), Severity.ERROR,
                    f"{h.get('White', '')} and {h.get('Black', '')} met in more than one group "
                    f"of {record}: {where}; a Section tag naming the group tells which game this "
                    "is (not matched until then)")
            continue
        row = hits[0]
        wid, bid = str(row["white_id"]), str(row["black_id"])
        forfeit = row["result"] in FORFEITS  # no game: no colours to check (FIDE C.04.1)
        reversed_ = wid not in ws or bid not in bs  # the PGN's White is the record's Black
        swapped = reversed_ and not forfeit
        for side, pid in (("White", bid if reversed_ else wid), ("Black", wid if reversed_ else bid)):
            if who.by_id_not_name(h, side, pid):
                finding(f"{side}FideId", h.get(f"{side}FideId", ""), Severity.WARNING,
                        f"this FIDE id is {who.name[pid]}'s, but the {side} tag says "
                        f"{h.get(side, '')!r}: the game is taken as {who.name[pid]}'s (the FIDE "
                        "id decides); correct the tag that is wrong")
        label = (f"round {row['round']} board {row['board']}" if rounds and row["board"] is not None
                 else f"round {row['round']}" if rounds else f"{row['section']}")
        record_row.update(section=row["section"], round=row["round"], board=row["board"],
                          white_id=wid, black_id=bid, white_sno=who.sno.get(wid),
                          black_sno=who.sno.get(bid), recorded=row["result"] or None)
        line = int(row["line"])  # type: ignore[call-overload]
        if line in taken:
            first = taken[line]
            finding("Round" if rounds else "White", h.get("Round" if rounds else "White", ""),
                    Severity.ERROR, f"a second game for {label} ({who.name[wid]} – "
                    f"{who.name[bid]}): game {first.number} of {first.file} has it already")
            continue
        taken[line] = g
        record_row["matched"] = True
        ok = g.usable
        if swapped:
            ok = False
            finding("White", h.get("White", ""), Severity.ERROR,
                    f"White and Black are swapped against {record} line {line} ({label}: "
                    f"{who.name[wid]} had White): one of the two files is wrong")
        if g.result in POINTS:
            pw, pb = POINTS[g.result]
            mine = (pb, pw) if reversed_ else (pw, pb)
            recorded = recorded_points(row["result"])  # type: ignore[arg-type]
            if row["result"] is None:
                finding("Result", g.result, Severity.WARNING,
                        f"{record} line {line} has no result yet for this game ({label})")
            elif recorded is not None and recorded != mine:
                ok = False
                finding("Result", g.result, Severity.ERROR,
                        f"contradicts {record} line {line}: {row['result']} ({label}, "
                        f"{who.name[wid]} – {who.name[bid]}); the recorded result stands, the "
                        "game is not published until the two agree")
        record_row["usable"] = ok
    frame = pl.DataFrame(out, schema=GAME_COLUMNS) if out else pl.DataFrame(schema=GAME_COLUMNS)
    return frame, findings


@dataclass(frozen=True)
class GameRecord:
    """A matched, usable game as the public site and the bulletin show it: its pairing as
    the record (results.csv, games.csv) has it, the players as the event names them, and its
    moves (:func:`~transforms.core.pgn.game_moves`)."""

    section: str
    """The group of the pairing: a category, a division, a correspondence section."""
    round: int | None
    """The round; None in an event without rounds (a correspondence section)."""
    board: int | None
    """The board; None where the record has none."""
    white_sno: int | None
    black_sno: int | None
    white: str
    """White's name as the event's players file writes it (the public pages' name, not the
    PGN's)."""
    black: str
    result: str
    """The PGN's result (it agrees with the record: else the game is not usable)."""
    date: str
    """The published ``Date`` tag (``2026.03.14``)."""
    moves: GameMoves
    white_id: str = ""
    """White's player id in the event's files (an entry id, a roster's player id)."""
    black_id: str = ""

    @property
    def key(self) -> str:
        """How the office names the game in event.toml: ``round.board`` (``3.2``); ``""``
        for a game without both."""
        return f"{self.round}.{self.board}" if self.round is not None and self.board is not None else ""


PGN_DATE = re.compile(r"\[Date \"(\d{4}\.(?:\d\d|\?\?)\.(?:\d\d|\?\?))\"\]")
"""A ``Date`` tag that is a date as the PGN standard writes one (``2026.03.14``, ``2026.03.??``)."""


def round_tag(rnd: int | None, board: int | None) -> str:
    """DESIGN.md Inputs (games) — the published ``Round`` tag: ``3.2`` (round and board), ``3``, or ``-`` where the event
    has no rounds (the PGN standard, 8.1.1.5: "-" where a round is not appropriate)."""
    if rnd is None:
        return "-"
    return f"{rnd}.{board}" if board is not None else f"{rnd}"


def published_games(games: pl.DataFrame, players: pl.DataFrame, *, event: str, site: str,
                    start: dt.date, sections: Mapping[str, str],
                    round_tags: Mapping[tuple[str, int], str] | None = None) -> tuple[GameRecord, ...]:
    """DESIGN.md Inputs (games) — every matched, usable game with moves of the games frame
    (:func:`match_games`) as published, in the order of ``sections`` (group id -> name),
    round, board and the record's order.

    Decision (issue 48; docs/decisions.md, "Games"): a published game carries the PGN
    standard's seven tags only, written from the record — ``Event`` the event's name (with the
    group's where the event has more than one), ``Site`` its venue, ``Date`` the game's own
    ``Date`` tag where it is a PGN date (else the event's first day), ``Round`` as
    ``round.board`` of the record (:func:`round_tag`; ``round_tags``, by the game's file and
    number, where the kind writes its own: a team event's ``round.match.board``), ``White`` and
    ``Black`` as the event's players file names them (the names the public pages show), ``Result``. No other tag of the
    file is published: not an Elo, a FIDE id, a title, a birth date, a club — whatever the file
    holds. A game without a single move (an export of results only, as Vega writes one per
    round) is not published: the record already publishes its result, and a page would show
    an empty board."""
    if games.is_empty():
        return ()
    names = dict(zip(players["player_id"].to_list(), players["name"].to_list(), strict=True))
    order = {s: i for i, s in enumerate(sections)}
    rows = sorted((r for r in games.iter_rows(named=True) if r["usable"] and r["plies"]),
                  key=lambda r: (order.get(r["section"], len(order)), r["round"] or 0,
                                 r["board"] or 0, r["file"], r["game"]))
    out = []
    for r in rows:
        date = PGN_DATE.search(r["pgn"])
        name = event if len(sections) <= 1 else f"{event} — {sections.get(r['section'], r['section'])}"
        tags = {"Event": name, "Site": site or "?",
                "Date": date.group(1) if date else f"{start:%Y.%m.%d}",
                "Round": (round_tags or {}).get((r["file"], r["game"]), round_tag(r["round"], r["board"])),
                "White": names[r["white_id"]],
                "Black": names[r["black_id"]], "Result": r["result"]}
        assert set(tags) == set(PUBLISHED_TAGS)
        out.append(GameRecord(r["section"], r["round"], r["board"], r["white_sno"], r["black_sno"],
                              names[r["white_id"]], names[r["black_id"]], r["result"],
                              tags["Date"], game_moves(r["pgn"], tags), r["white_id"], r["black_id"]))
    return tuple(out)


GAME_KEY = re.compile(r"(?:(?P<category>[^:\s]+):)?(?P<round>[1-9]\d{0,3})\.(?P<board>[1-9]\d{0,3})")
"""How event.toml names a game: ``3.2`` (round 3, board 2, in every category that has it) or
``girls:3.2`` (in one category)."""
DIAGRAM = re.compile(rf"(?P<game>{GAME_KEY.pattern}) after (?P<move>[1-9]\d{{0,3}})(?P<side>\.\.\.|\.)")
"""A diagram event.toml asks for: ``3.2 after 12.`` (after White's 12th move) or ``3.2 after
12...`` (after Black's)."""


@dataclass(frozen=True)
class GamesConfig:
    """``[games]``: what the office chooses of the event's games (``games/*.pgn``): the games
    the bulletin prints, and the positions its diagrams show.

    How a key names a game is the kind's: ``round.board`` here (:data:`GAME_KEY`); a kind
    whose games have no round and board (a correspondence section) registers a subclass
    with its own :attr:`KEY`, :attr:`KEY_FORM`, :meth:`names` and :meth:`said`."""

    bulletin: tuple[str, ...] = ()
    """The games the bulletin prints, in this order: ``"3.2"`` (round 3, board 2) or
    ``"girls:3.2"`` (of one category)."""
    diagrams: tuple[str, ...] = ()
    """The positions a bulletin game's diagrams show (``"3.2 after 12..."``: after Black's
    12th move; ``"3.2 after 20."``: after White's 20th); a game none names shows its final
    position."""

    KEY: ClassVar[re.Pattern[str]] = GAME_KEY
    """What a key of :attr:`bulletin` must be (the whole key)."""
    KEY_FORM: ClassVar[str] = ('round.board ("3.2") or category:round.board ("girls:3.2")')
    """How the error of a key that is not one says a key is written."""

    @classmethod
    def diagram(cls, text: str) -> re.Match[str] | None:
        """A diagram of :attr:`diagrams` read: its ``game`` (a key), ``move`` and ``side``
        (``.`` White's, ``...`` Black's); None when it is not one."""
        return re.fullmatch(rf"(?P<game>{cls.KEY.pattern}) after (?P<move>[1-9]\d{{0,3}})"
                            r"(?P<side>\.\.\.|\.)", text)

    def names(self, key: str, game: GameRecord) -> bool:
        """Whether the key ``key`` names ``game``: its round and board, in its category or in
        every category."""
        m = GAME_KEY.fullmatch(key)
        return (m is not None and game.round == int(m.group("round"))
                and game.board == int(m.group("board")) and m.group("category") in (None, game.section))

    def said(self, key: str) -> str:
        """The game a key names, in the words of a warning (``round.board 3.2 of category
        'girls'``)."""
        m = GAME_KEY.fullmatch(key)
        cat = m.group("category") if m else None
        return "round.board " + key.split(":")[-1] + (f" of category {cat!r}" if cat else "")

    def __post_init__(self) -> None:
        for i, key in enumerate(self.bulletin):
            if not self.KEY.fullmatch(key):
                raise ConfigError("", f"bulletin[{i}]", f"{key!r} is not a game: write {self.KEY_FORM}")
        for i, key in enumerate(self.diagrams):
            m = self.diagram(key)
            if m is None:
                raise ConfigError("", f"diagrams[{i}]", f"{key!r} is not a position: write "
                                  "the game, then \"after 12.\" (after White's 12th move) or "
                                  "\"after 12...\" (\"3.2 after 12...\")")
            if m.group("game") not in self.bulletin:
                raise ConfigError("", f"diagrams[{i}]", f"{m.group('game')!r} is not one of "
                                  "the bulletin's games (games.bulletin)")


@dataclass(frozen=True)
class BulletinGame:
    """A game the bulletin prints, with the positions of its diagrams."""

    game: GameRecord
    diagrams: tuple[int, ...]
    """The half-moves after which a diagram shows the position (0: the start), in order."""


def bulletin_games(games: tuple[GameRecord, ...], chosen: GamesConfig | None
                   ) -> tuple[tuple[BulletinGame, ...], list[Finding]]:
    """DESIGN.md Inputs (games) — the published games the office chose for the bulletin
    (``[games] bulletin``), in its order, each with its diagrams (``[games] diagrams``, else
    the final position). Decision: a key names the game of that round and board in every
    category that has one (``girls:3.2``: in one); a key naming no published game (none in the
    PGN, or one held back by a finding) and a diagram after a move the game does not have are
    warnings on event.toml — the bulletin prints the rest."""
    if chosen is None or not chosen.bulletin:
        return (), []
    findings: list[Finding] = []
    out: list[BulletinGame] = []
    wanted = diagrams_asked(chosen.diagrams, chosen.diagram)
    for i, key in enumerate(chosen.bulletin):
        found = [g for g in games if chosen.names(key, g)]
        if not found:
            findings.append(Finding("event.toml", None, f"games.bulletin[{i}]", key, Severity.WARNING,
                                    f"no published game is {chosen.said(key)} (not in games/, or "
                                    "held back: see its row of the validation report): the "
                                    "bulletin prints the others"))
        for g in found:
            chosen_game, more = with_diagrams(g, key, wanted.get(key, []), chosen.diagram)
            out.append(chosen_game)
            findings += more
    return tuple(out), findings


def diagrams_asked(diagrams: Sequence[str], parse: Callable[[str], re.Match[str] | None]
                   ) -> dict[str, list[str]]:
    """DESIGN.md Inputs (games) — ``[games] diagrams`` by the game each names (its key as the
    bulletin names it), in the office's order."""
    wanted: dict[str, list[str]] = {}
    for d in diagrams:
        m = parse(d)
        assert m is not None  # (the [games] table checked it at load)
        wanted.setdefault(m.group("game"), []).append(d)
    return wanted


def with_diagrams(g: GameRecord, key: str, asked: Sequence[str],
                  parse: Callable[[str], re.Match[str] | None]) -> tuple[BulletinGame, list[Finding]]:
    """DESIGN.md Inputs (games) — a bulletin game with the diagrams the office asked for it
    (``asked``: ``"<key> after 12..."``, read by ``parse``), in the order of the moves, else
    its final position; a diagram after a move the game does not have is a warning."""
    plies: list[int] = []
    findings: list[Finding] = []
    for d in asked:
        dm = parse(d)
        assert dm is not None  # (the [games] table checked it at load)
        ply = 2 * int(dm.group("move")) - (1 if dm.group("side") == "." else 0)
        if ply > len(g.moves.plies):
            findings.append(Finding("event.toml", None, "games.diagrams", d, Severity.WARNING,
                                    f"the game {key} has {len(g.moves.plies)} half-moves: "
                                    "no diagram after this move"))
        elif ply not in plies:
            plies.append(ply)
    return BulletinGame(g, tuple(sorted(plies)) or (len(g.moves.plies),)), findings

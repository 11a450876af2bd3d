"""The bad-input matrix (issue 14): one kind of defect at a time in an otherwise clean tiny event
(tests/bad_input_events.py), through the pure functions the flows call (``flows.io`` reading,
``run_swiss``, ``validate_files`` + ``flows.kinds.correspondence.flow.compute``, ``parse_event_config`` +
``config_finding``). Each kind asserts the exact validation rows (file, physical line, column,
value, severity, a distinctive part of the reason) and nothing else, that no exception escapes,
and what goes on: the other rows of the file and the other files are still used. The end-to-end
test at the bottom runs a handful of small bad event folders through the real flow.
"""

from __future__ import annotations

import csv
import datetime as dt
import io as stdio
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flows import io
from flows.kinds.correspondence.flow import compute
from flows.pipeline.tasks import check_config
from tests.bad_input_events import GK_FILES, SWISS_FILES, write_event
from transforms.core.config import config_finding
from transforms.core.errors import ConfigError, Finding, Severity
from transforms.core.ingest import unusable, validate_files
from transforms.core.pgn import GAMES
from transforms.golden_knights.schemas import REQUIRED as GK_REQUIRED
from transforms.golden_knights.schemas import SCHEMAS as GK_SCHEMAS
from transforms.kinds import parse_event_config
from transforms.national_junior.schemas import SCHEMAS as SWISS_SCHEMAS
from transforms.swiss.event import run_swiss

E, W = Severity.ERROR, Severity.WARNING
Files = dict[str, bytes]
Row = tuple[str, int | None, str, str, Severity, str]
"""An expected validation row: file, line, column, value, severity, a part of the reason."""


# --- what a run of the tiny event gives ------------------------------------------------------

@dataclass
class Outcome:
    findings: list[Finding]
    players: set[str] = field(default_factory=set)
    """Swiss: the players in the event (accepted, in a category)."""
    ranked: set[str] = field(default_factory=set)
    """Swiss: the players in the standings after the last complete round."""
    paired: int | None = None
    """Swiss: the round this run paired."""
    boards: int = 0
    """Swiss: its boards (a bye counts)."""
    blocked: str = ""
    standings: list[tuple] = field(default_factory=list)
    accepted: set[str] = field(default_factory=set)
    """Golden Knights: the accepted entries (None-computed: empty)."""
    seated: set[str] = field(default_factory=set)
    """Golden Knights: the entries in a published section's crosstable."""
    computed: bool = True


def as_files(texts: dict[str, str]) -> Files:
    return {k: v.encode("utf-8") for k, v in texts.items()}


def run_files(kind: str, files: Files, tmp: Path) -> Outcome:
    folder = tmp / kind
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    try:
        cfg = check_config(folder)
    except ConfigError as err:
        return Outcome([config_finding(err, (folder / "event.toml").read_bytes().decode("utf-8", "replace"))],
                       computed=False)
    if kind == "swiss":
        raw = {n: io.read_csv_strings(folder / n) for n in SWISS_SCHEMAS if (folder / n).exists()}
        if (folder / "games").is_dir():  # as flows/pipeline/tasks.py read_files
            raw[GAMES] = io.read_pgn_folder(folder / "games")
        run = run_swiss(cfg, raw, cfg.event.as_of)
        out = Outcome(list(run.findings), blocked=run.blocked)
        for c in run.categories:
            out.players |= set(c.players["player_id"])
            if c.done and c.rankings:
                table = c.rankings[c.done]
                ids = dict(zip(c.players["sno"], c.players["player_id"]))
                out.ranked |= {ids[s] for s in table["sno"]}
                out.standings += [(ids[s], p) for s, p in zip(table["sno"], table["points"])]
            if c.pairing is not None:
                out.paired, out.boards = c.pairing.round, len(c.pairing.boards)
        return out
    raw = {n: io.read_csv_strings(folder / n) for n in GK_SCHEMAS if (folder / n).exists()}
    typed, findings = validate_files(raw, GK_SCHEMAS, GK_REQUIRED)
    if unusable(findings, "members.csv", "entries.csv"):  # as flows/kinds/correspondence/flow.py publish_site
        return Outcome(findings, computed=False)
    res = compute(cfg, typed, cfg.event.as_of)
    return Outcome(findings + list(res.findings),
                   accepted=set(res.entries.filter(res.entries["status"] == "accepted")["entry_id"]),
                   seated=set(res.crosstables["entry_id"]))


# --- editing one cell, line or file ----------------------------------------------------------

def _rows(data: bytes) -> list[list[str]]:
    return list(csv.reader(stdio.StringIO(data.decode("utf-8"), newline="")))


def _write(rows: list[list[str]]) -> bytes:
    buf = stdio.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue().encode("utf-8")


def cell(file: str, line: int, column: str, value: str) -> Callable[[Files], None]:
    """Set one cell (``line`` is the physical line, the header is 1)."""
    def edit(files: Files) -> None:
        rows = _rows(files[file])
        rows[line - 1][rows[0].index(column)] = value
        files[file] = _write(rows)
    return edit


def append(file: str, text: str) -> Callable[[Files], None]:
    def edit(files: Files) -> None:
        files[file] = files[file] + text.encode("utf-8") + b"\n"
    return edit


def replace(file: str, old: str, new: str) -> Callable[[Files], None]:
    def edit(files: Files) -> None:
        text = files[file].decode("utf-8")
        assert old in text, old
        files[file] = text.replace(old, new, 1).encode("utf-8")
    return edit


def drop_column(file: str, column: str) -> Callable[[Files], None]:
    def edit(files: Files) -> None:
        rows = _rows(files[file])
        i = rows[0].index(column)
        files[file] = _write([r[:i] + r[i + 1:] for r in rows])
    return edit


def add_column(file: str, column: str, value: Callable[[int], str]) -> Callable[[Files], None]:
    """A column at the end; row n (0 = first data row) gets ``value(n)``."""
    def edit(files: Files) -> None:
        rows = _rows(files[file])
        files[file] = _write([rows[0] + [column]] + [r + [value(n)] for n, r in enumerate(rows[1:])])
    return edit


def set_line(file: str, line: int, raw: bytes) -> Callable[[Files], None]:
    """Replace one physical line by raw bytes (e.g. another encoding)."""
    def edit(files: Files) -> None:
        lines = files[file].split(b"\n")
        lines[line - 1] = raw
        files[file] = b"\n".join(lines)
    return edit


def whole(file: str, fn: Callable[[bytes], bytes]) -> Callable[[Files], None]:
    def edit(files: Files) -> None:
        files[file] = fn(files[file])
    return edit


def header_only(file: str) -> Callable[[Files], None]:
    return whole(file, lambda b: b.split(b"\n", 1)[0] + b"\n")


def remove(file: str) -> Callable[[Files], None]:
    def edit(files: Files) -> None:
        del files[file]
    return edit


def add(file: str, data: bytes) -> Callable[[Files], None]:
    """Add a file (e.g. a PGN in the event's games folder)."""
    def edit(files: Files) -> None:
        files[file] = data
    return edit


def both(*edits: Callable[[Files], None]) -> Callable[[Files], None]:
    def edit(files: Files) -> None:
        for e in edits:
            e(files)
    return edit


# --- the matrix ------------------------------------------------------------------------------

SWISS_ALL = {f"S{i}" for i in range(1, 8)}
WITHOUT_S7 = SWISS_ALL - {"S7"}
GK_ENTRIES = {f"E{i}" for i in range(1, 8)}


@dataclass(frozen=True)
class Kind:
    id: str
    event: str
    edit: Callable[[Files], None]
    rows: tuple[Row, ...]
    players: set[str] | None = None
    """Swiss: who is still in the event (default: every player)."""
    blocked: str = ""
    """Swiss: a part of why standings and pairings wait ("" = they are computed)."""
    accepted: set[str] | None = None
    """GK: the entries still accepted (default: all seven)."""
    computed: bool = True
    """GK: whether the rulebook ran (False: members.csv or entries.csv cannot be read)."""
    same_as_clean: bool = False
    """Accepted input: the result equals the clean event's."""
    paired_more: bool = False
    """Swiss: round 3 pairs more players than the clean event (no withdrawal, no bye request)."""


P, R, A = "players.csv", "results.csv", "associations.csv"
WD, BY, RL, NL = "withdrawals.csv", "bye_requests.csv", "ratings.csv", "national_ratings.csv"
M, EN, SE, G = "members.csv", "entries.csv", "sections.csv", "games.csv"
OV, TO, T = "time_oversteps.csv", "overrides.csv", "event.toml"
PGN = "games/round-1.pgn"
PGN_GAME = ('[Event "Tiny"]\n[Round "1.{board}"]\n[White "{white}"]\n[Black "{black}"]\n'
            '[Result "{result}"]\n\n{moves}\n\n')
PGN_ROUND_1 = (PGN_GAME.format(board=1, white="Rao, Arjun", black="Sen, Dev", result="1-0",
                               moves="1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf8 1-0")
               + PGN_GAME.format(board=2, white="Nair, Esha", black="Iyer, Bala", result="0-1",
                                 moves="1. f3 e5 2. g4 Qh4# 0-1"))
"""Round 1 of the tiny Swiss as PGN: board 1 with an illegal move (4. Qxf8, the queen
cannot reach f8), board 2 a legal game."""
NO_ROUND = "results.csv has errors"
HEADER_LATIN1 = SWISS_FILES[P].splitlines()[0].replace("registered_at", "registered_\\xe0t")
LATIN1 = 'S7,"M\xfcller, Jan",open,F,2008-07-16,IND,AP,25000107,1400,,quota,,2024-08-23T10:00,2000,true,s7@p.example'

KINDS = [
    # games/*.pgn (issue 48): an illegal move is an error on its game; the results, standings
    # and pairing are results.csv's and go on
    Kind("pgn-illegal-move", "swiss", add(PGN, PGN_ROUND_1.encode()),
         ((PGN, 1, "game 1, move 4", "Qxf8", E, "illegal move 4. Qxf8"),), same_as_clean=True),
    Kind("pgn-unmatched-game", "swiss", add(PGN, PGN_GAME.format(
        board=3, white="Das, Chitra", black="Rao, Arjun", result="1-0", moves="*").encode()),
         ((PGN, 1, "game 1, Round", "1.3", E, "results.csv has no game of Das, Chitra and Rao, "
           "Arjun in round 1"),), same_as_clean=True),
    Kind("pgn-latin1", "swiss", add(PGN, PGN_GAME.format(
        board=2, white="Nair, Esha", black="Iyer, Bala", result="0-1", moves="1. f3 e5 2. g4 Qh4# 0-1 {M\xfcller}"
    ).encode("latin-1")), ((PGN, 7, "", "byte 0xFC", W, "read as ISO 8859-1"),), same_as_clean=True),
    Kind("pgn-other-file", "swiss", both(add("games/notes.txt", b"round 1 games to come"),
                                         add("games/Round-1.PGN", PGN_GAME.format(
        board=3, white="Das, Chitra", black="Rao, Arjun", result="1-0", moves="*").encode())),
         (("games/Round-1.PGN", 1, "game 1, Round", "1.3", E, "results.csv has no game of Das, "
           "Chitra and Rao, Arjun in round 1"),
          ("games/notes.txt", None, "", "notes.txt", W, "not read: the games folder holds PGN files")),
         same_as_clean=True),
    # players.csv: malformed values of every type (row 8: S7, who has no game yet)
    Kind("date", "swiss", cell(P, 8, "birth_date", "2008-02-30"),
         ((P, 8, "birth_date", "2008-02-30", E, "not a date (YYYY-MM-DD)"),), WITHOUT_S7),
    Kind("datetime", "swiss", cell(P, 8, "registered_at", "2024-08-23 10:00"),
         ((P, 8, "registered_at", "2024-08-23 10:00", E, "not a datetime (YYYY-MM-DDTHH:MM)"),), WITHOUT_S7),
    Kind("integer", "swiss", cell(P, 8, "rating", "14OO"),
         ((P, 8, "rating", "14OO", E, "not an integer"),), WITHOUT_S7),
    Kind("integer-range", "swiss", cell(P, 8, "rating", "4100"),
         ((P, 8, "rating", "4100", E, "above the maximum 3500"),), WITHOUT_S7),
    Kind("decimal", "swiss", cell(P, 8, "fee_paid", "2000.005"),
         ((P, 8, "fee_paid", "2000.005", E, "not an amount (digits with at most two decimals"),), WITHOUT_S7),
    Kind("boolean", "swiss", cell(P, 8, "aicf_registered", "perhaps"),
         ((P, 8, "aicf_registered", "perhaps", E, "not a boolean (true/false, yes/no, 1/0)"),), WITHOUT_S7),
    Kind("code-gender", "swiss", cell(P, 8, "gender", "X"),
         ((P, 8, "gender", "X", E, "not one of: M, F"),), WITHOUT_S7),
    Kind("code-title", "swiss", cell(P, 8, "title", "Grandmaster?"),
         ((P, 8, "title", "Grandmaster?", E, "not one of: GM, IM"),), WITHOUT_S7),
    Kind("code-entry-type", "swiss", cell(P, 8, "entry_type", "guest"),
         ((P, 8, "entry_type", "guest", E, "not one of: quota"),), WITHOUT_S7),
    Kind("id-fide-letters", "swiss", cell(P, 8, "fide_id", "25OOO107"),
         ((P, 8, "fide_id", "25OOO107", W, "not a FIDE ID (digits only"),)),
    Kind("email", "swiss", cell(P, 8, "email", "gita at players.example"),
         ((P, 8, "email", "gita at players.example", W, "not a valid email address"),)),
    Kind("iso-alpha3-given-alpha2", "swiss", cell(P, 8, "nationality", "IN"),
         ((P, 8, "nationality", "IN", E, "nationality IN is not an ISO 3166-1 alpha-3 code; did you mean IND?"),),
         WITHOUT_S7),
    Kind("iso-alpha3-unknown", "swiss", cell(P, 8, "nationality", "India"),
         ((P, 8, "nationality", "India", E, "is not an ISO 3166-1 alpha-3 code (e.g. IND)"),), WITHOUT_S7),
    Kind("unknown-category", "swiss", cell(P, 8, "section", "blitz"),
         ((P, 8, "section", "blitz", E, "not a category of this event (girls, open)"),), WITHOUT_S7),
    Kind("empty-required-value", "swiss", cell(P, 8, "name", ""),
         ((P, 8, "name", "", E, "a value is required"),), WITHOUT_S7),
    Kind("line-break-in-a-name", "swiss", cell(P, 8, "name", "Kapoor,\nGita"),
         ((P, 8, "name", "Kapoor,[U+000A]Gita", W, "a line break or tab in a one-line value "
           "(U+000A LINE FEED as a space): read as 'Kapoor, Gita'"),)),
    Kind("duplicate-id", "swiss", cell(P, 8, "player_id", "S1"),
         ((P, 8, "player_id", "S1", E, "duplicate player_id: first on line 2"),), WITHOUT_S7),
    Kind("duplicate-row", "swiss", append(P, SWISS_FILES[P].splitlines()[7]),
         ((P, 9, "player_id", "S7", E, "duplicate player_id: first on line 8"),)),
    Kind("unknown-association", "swiss", cell(P, 8, "state", "ZZ"),  # NJ 2024: through an association
         ((P, 8, "state", "ZZ", E, "state 'ZZ' is not an affiliated association"),), WITHOUT_S7),
    # players.csv: the file's shape
    Kind("extra-column", "swiss", add_column(P, "nickname", lambda n: f"nick{n}"),
         ((P, 1, "nickname", "nickname", W, "unknown column 'nickname': its cells are not read"),),
         same_as_clean=True),
    Kind("missing-required-column", "swiss", drop_column(P, "rating"),
         ((P, 1, "rating", "", E, "required column 'rating' is missing from the header"),),
         set(), blocked="players.csv is missing or cannot be read"),
    Kind("header-column-without-a-name", "swiss", add_column(P, "", lambda n: ""),
         ((P, 1, "", "", W, "column 17 of the header has no name: its cells are not read"),),
         same_as_clean=True),
    Kind("missing-optional-column", "swiss", drop_column(P, "email"), (), same_as_clean=True),
    Kind("duplicate-header-same-cells", "swiss", add_column(P, "rating", lambda n: str(2000 - 100 * n)),
         ((P, 1, "rating", "rating", W, "column 'rating' appears twice in the header (columns 9 and 17)"),),
         same_as_clean=True),
    Kind("duplicate-header-cells-differ", "swiss",
         add_column(P, "rating", lambda n: "1111" if n == 6 else str(2000 - 100 * n)),
         ((P, 1, "rating", "rating", W, "appears twice in the header"),
          (P, 8, "rating", "1111", E, "this row's two cells differ ('1400' and '1111')")), WITHOUT_S7),
    Kind("ragged-row", "swiss", replace(P, ",2000,true,s7@players.example", ",true,s7@players.example"),
         ((P, 8, "", SWISS_FILES[P].splitlines()[7].replace(",2000,true", ",true"), E,
           "15 fields, the header has 16: the row is set aside"),), WITHOUT_S7),
    Kind("empty-file", "swiss", whole(P, lambda b: b""),
         ((P, 1, "", "", E, "the file is empty"),), set(), blocked="players.csv is missing or cannot be read"),
    Kind("missing-required-file", "swiss", remove(P),
         ((P, None, "", "", E, "required file is missing"),), set(), blocked="players.csv is missing"),
    Kind("missing-optional-file", "swiss", both(remove(WD), remove(BY)), (), paired_more=True),
    Kind("header-only-file", "swiss", both(header_only(P), header_only(R), header_only(WD), header_only(BY)),
         ((P, 1, "", "", W, "the file has a header and no rows"),), set()),
    Kind("latin1-line", "swiss", set_line(P, 8, LATIN1.encode("latin-1")),
         ((P, 8, "", LATIN1.replace("\xfc", "\\xfc"), E, "not UTF-8 text (byte 0xFC at position 6, 'ü'"),),
         WITHOUT_S7),
    Kind("latin1-header", "swiss", replace(P, "registered_at", "registered_\xe0t"),  # made Latin-1 below
         ((P, 1, "", HEADER_LATIN1, E, "not UTF-8 text (byte 0xE0 at position 115"),
          (P, 1, "registered_\ufffdt", "registered_\ufffdt", W, "unknown column"),
          (P, 1, "registered_at", "", E, "required column 'registered_at' is missing")),
         set(), blocked="players.csv is missing or cannot be read"),
    Kind("utf16-file", "swiss", whole(P, lambda b: b.decode("utf-8").encode("utf-16")),
         ((P, 1, "", "", W, "the file is UTF-16 text, not UTF-8: read as UTF-16"),), same_as_clean=True),
    Kind("utf16-file-without-bom", "swiss", whole(P, lambda b: b.decode("utf-8").encode("utf-16-le")),
         ((P, 1, "", "", W, "the file is UTF-16 text without a byte order mark (every other byte "
           "of its header is zero), not UTF-8: read as UTF-16-LE"),), same_as_clean=True),
    Kind("utf16-big-endian-file-without-bom", "swiss",
         whole(P, lambda b: b.decode("utf-8").encode("utf-16-be")),
         ((P, 1, "", "", W, "read as UTF-16-BE"),), same_as_clean=True),
    Kind("bom-accepted", "swiss", whole(P, lambda b: b"\xef\xbb\xbf" + b), (), same_as_clean=True),
    Kind("crlf-accepted", "swiss", both(whole(P, lambda b: b.replace(b"\n", b"\r\n")),
                                        whole(R, lambda b: b.replace(b"\n", b"\r\n"))),
         (), same_as_clean=True),
    Kind("bom-and-crlf-accepted", "swiss",
         whole(R, lambda b: b"\xef\xbb\xbf" + b.replace(b"\n", b"\r\n")), (), same_as_clean=True),
    # results.csv (an error there holds standings and pairings back; the entries go on)
    Kind("results-integer", "swiss", cell(R, 5, "round", "two"),
         ((R, 5, "round", "two", E, "not an integer"),), blocked=NO_ROUND),
    Kind("results-round-beyond-the-event", "swiss", append(R, "4,1,S1,S2,1-0,30,"),
         ((R, 8, "round", "4", E, "the event has 3 rounds"),), blocked=NO_ROUND),
    Kind("results-code", "swiss", cell(R, 3, "result", "2-0"),
         ((R, 3, "result", "2-0", E, "not one of: 1-0, 0-1"),), blocked=NO_ROUND),
    Kind("results-unknown-player", "swiss", cell(R, 4, "black_id", "S9"),
         ((R, 4, "black_id", "S9", E, "unknown player"),), blocked=NO_ROUND),
    Kind("results-self-pairing", "swiss", cell(R, 4, "black_id", "S3"),
         ((R, 4, "black_id", "S3", E, "a player cannot play themself"),), blocked=NO_ROUND),
    Kind("results-twice-in-one-round", "swiss", cell(R, 4, "white_id", "S1"),
         ((R, 4, "white_id", "S1", E, "already in round 1 on line 2"),), blocked=NO_ROUND),
    Kind("results-bye-with-an-opponent", "swiss", append(R, "2,4,S7,S3,PAB,,"),
         ((R, 8, "black_id", "S3", E, "a PAB has no opponent: leave black_id empty"),), blocked=NO_ROUND),
    Kind("results-game-without-an-opponent", "swiss", cell(R, 3, "black_id", ""),
         ((R, 3, "black_id", "", E, "result 0-1 needs an opponent"),), blocked=NO_ROUND),
    Kind("results-duplicate-row", "swiss", append(R, "1,1,S1,S4,1-0,41,"),
         ((R, 8, "", "1,1,S1,S4,1-0", E, "the same game as line 2 (a row entered twice)"),), blocked=NO_ROUND),
    Kind("results-contradictory", "swiss", append(R, "1,1,S1,S4,0-1,41,"),
         ((R, 8, "result", "0-1", E, "contradicts line 2, which has 1-0"),), blocked=NO_ROUND),
    Kind("results-board-range", "swiss", cell(R, 2, "board", "0"),
         ((R, 2, "board", "0", E, "below the minimum 1"),), blocked=NO_ROUND),
    Kind("results-moves-integer", "swiss", cell(R, 2, "moves", "forty"),
         ((R, 2, "moves", "forty", E, "not an integer"),), blocked=NO_ROUND),
    Kind("results-boolean", "swiss", cell(R, 2, "draw_consent", "maybe"),
         ((R, 2, "draw_consent", "maybe", E, "not a boolean"),), blocked=NO_ROUND),
    Kind("results-missing-column", "swiss", drop_column(R, "result"),
         ((R, 1, "result", "", E, "required column 'result' is missing"),), blocked=NO_ROUND),
    Kind("results-ragged-row", "swiss", append(R, "3,1,S1"),
         ((R, 8, "", "3,1,S1", E, "3 fields, the header has 7"),), blocked=NO_ROUND),
    Kind("results-header-only", "swiss", header_only(R), ()),
    Kind("results-withdrawn-player-plays", "swiss", cell(WD, 2, "from_round", "2"),
         ((R, 7, "white_id", "S6", W, "withdrew from round 2 but has a result in round 2"),)),
    # withdrawals.csv, bye_requests.csv, associations.csv
    Kind("withdrawal-unknown-player", "swiss", cell(WD, 2, "player_id", "S9"),
         ((WD, 2, "player_id", "S9", E, "unknown player"),)),
    Kind("withdrawal-round-beyond", "swiss", cell(WD, 2, "from_round", "5"),
         ((WD, 2, "from_round", "5", E, "the event has 3 rounds"),)),
    Kind("withdrawal-integer", "swiss", cell(WD, 2, "from_round", "third"),
         ((WD, 2, "from_round", "third", E, "not an integer"),)),
    Kind("withdrawal-duplicate-id", "swiss", append(WD, "S6,3,again"),
         ((WD, 3, "player_id", "S6", E, "duplicate player_id: first on line 2"),)),
    Kind("ratings-fide-id", "swiss",
         lambda files: files.__setitem__(RL, b"fide_id,rating,list\nabc,2000,FIDE standard\n"),
         ((RL, 2, "fide_id", "abc", W, "not a FIDE ID (digits only, e.g. 25000101): read as no value"),)),
    Kind("national-rating-not-a-number", "swiss",
         lambda files: files.__setitem__(NL, b"member_id,rating,list\nM1,high,National list\n"),
         ((NL, 2, "rating", "high", E, "not an integer (digits, e.g. 1850)"),)),
    Kind("bye-code", "swiss", cell(BY, 2, "kind", "PAB"),
         ((BY, 2, "kind", "PAB", E, "not one of: HPB, ZPB"),)),
    Kind("bye-round-beyond", "swiss", cell(BY, 2, "round", "4"),
         ((BY, 2, "round", "4", E, "the event has 3 rounds"),)),
    Kind("bye-unknown-player", "swiss", cell(BY, 2, "player_id", "S9"),
         ((BY, 2, "player_id", "S9", E, "unknown player"),)),
    Kind("bye-duplicate", "swiss", append(BY, "S5,3,ZPB"),
         ((BY, 3, "player_id+round", "S5/3", E, "duplicate player_id+round: first on line 2"),)),
    Kind("association-boolean", "swiss", cell(A, 3, "arrears_cleared", "ja"),
         # the association's row is set aside: its entries are rejected, and their results wait
         ((A, 3, "arrears_cleared", "ja", E, "not a boolean"),
          (P, 4, "state", "HR", E, "state 'HR' is not an affiliated association"),
          (P, 5, "state", "HR", E, "state 'HR' is not an affiliated association"),
          (P, 7, "state", "HR", E, "state 'HR' is not an affiliated association"),
          (WD, 2, "player_id", "S6", E, "unknown player"),
          (R, 2, "black_id", "S4", E, "unknown player"), (R, 4, "white_id", "S3", E, "unknown player"),
          (R, 4, "black_id", "S6", E, "unknown player"), (R, 6, "white_id", "S4", E, "unknown player"),
          (R, 6, "black_id", "S3", E, "unknown player"), (R, 7, "white_id", "S6", E, "unknown player")),
         {"S1", "S2", "S5", "S7"}, blocked="results.csv has errors"),
    Kind("association-duplicate", "swiss", append(A, "AP,Another AP,true,"),
         ((A, 4, "state", "AP", E, "duplicate state: first on line 2"),)),
    Kind("association-email", "swiss", cell(A, 2, "email", "ap@"),
         ((A, 2, "email", "ap@", W, "not a valid email address"),)),
    Kind("association-empty-file", "swiss", whole(A, lambda b: b""),
         ((A, 1, "", "", E, "the file is empty"),), set(),
         blocked="associations.csv is missing or cannot be read"),
    # members.csv (row 9: 12000008, who has no entry)
    Kind("gk-date", "gk", cell(M, 9, "membership_expires", "2025-02-30"),
         ((M, 9, "membership_expires", "2025-02-30", E, "not a date (YYYY-MM-DD)"),)),
    Kind("gk-iso-alpha2-given-alpha3", "gk", cell(M, 8, "country", "USA"),
         ((M, 8, "country", "USA", E, "country USA is not an ISO 3166-1 alpha-2 code; did you mean US?"),
          (EN, 8, "member_id", "12000007", E, "member 12000007 is not in members.csv (or its row there was set aside"),
          (SE, 8, "entry_id", "E7", W, "entry is not accepted this year")),
         accepted=GK_ENTRIES - {"E7"}),
    Kind("gk-iso-alpha2-unknown", "gk", cell(M, 9, "country", "Canada"),
         ((M, 9, "country", "Canada", E, "is not an ISO 3166-1 alpha-2 code (e.g. US)"),)),
    Kind("gk-boolean", "gk", cell(M, 9, "apo_fpo", "si"),
         ((M, 9, "apo_fpo", "si", E, "not a boolean"),)),
    Kind("gk-integer", "gk", cell(M, 9, "rating", "1550.5"),
         ((M, 9, "rating", "1550.5", E, "not an integer"),)),
    Kind("gk-email", "gk", cell(M, 9, "email", "hal@@members.example"),
         ((M, 9, "email", "hal@@members.example", W, "not a valid email address"),)),
    Kind("gk-duplicate-member", "gk", append(M, "12000008,Hal Hunt Jr,,2025-12-31,US,OH,false,"),
         ((M, 10, "member_id", "12000008", E, "duplicate member_id: first on line 9"),)),
    Kind("gk-missing-column", "gk", drop_column(M, "country"),
         ((M, 1, "country", "", E, "required column 'country' is missing"),), computed=False),
    Kind("gk-extra-column", "gk", add_column(M, "phone", lambda n: f"555-010{n}"),
         ((M, 1, "phone", "phone", W, "unknown column 'phone'"),)),
    Kind("gk-latin1-line", "gk", set_line(M, 9, "12000008,Hal Hübner,,2025-12-31,US,OH,false,".encode("latin-1")),
         ((M, 9, "", "12000008,Hal H\\xfcbner,,2025-12-31,US,OH,false,", E, "not UTF-8 text (byte 0xFC"),)),
    Kind("gk-empty-value", "gk", cell(M, 9, "name", " "),
         ((M, 9, "name", " ", E, "a value is required"),)),
    # entries.csv
    Kind("gk-entry-date", "gk", cell(EN, 8, "received", "12/08/2018"),
         ((EN, 8, "received", "12/08/2018", E, "not a date (YYYY-MM-DD)"),  # and what it touches:
          (SE, 8, "entry_id", "E7", E, "entry_id not in entries.csv; row ignored"),
          (SE, 2, "section", "P01", W, "section has 6 players, not 7 (rule 2)"),
          (G, 5, "white", "E7", E, "white is not in that section"),
          (OV, 2, "entry_id", "E7", E, "no game between E7 and E1 in preliminary P01")),
         accepted=GK_ENTRIES - {"E7"}),
    Kind("gk-entry-code", "gk", append(EN, "E8,12000008,2018-12-09,pigeon,25.00"),
         ((EN, 9, "channel", "pigeon", E, "not one of: online, mail"),)),
    Kind("gk-entry-decimal", "gk", append(EN, "E8,12000008,2018-12-09,online,25.001"),
         ((EN, 9, "fee_paid", "25.001", E, "not an amount"),)),
    Kind("gk-entry-unknown-member", "gk", append(EN, "E8,99999999,2018-12-09,online,25.00"),
         ((EN, 9, "member_id", "99999999", E, "member 99999999 is not in members.csv"),)),
    Kind("gk-entry-duplicate-id", "gk", append(EN, "E1,12000008,2018-12-09,online,25.00"),
         ((EN, 9, "entry_id", "E1", E, "duplicate entry_id: first on line 2"),)),
    Kind("gk-entry-ragged", "gk", append(EN, "E8,12000008,2018-12-09"),
         ((EN, 9, "", "E8,12000008,2018-12-09", E, "3 fields, the header has 5"),)),
    Kind("gk-missing-required-file", "gk", remove(EN),
         ((EN, None, "", "", E, "required file is missing"),), computed=False),
    Kind("gk-entries-empty-file", "gk", whole(EN, lambda b: b""),
         ((EN, 1, "", "", E, "the file is empty"),), computed=False),
    # sections.csv: rule 2
    Kind("gk-section-of-eight", "gk", both(append(EN, "E8,12000008,2018-12-09,online,25.00"),
                                           append(SE, "preliminary,P01,E8")),
         ((SE, 2, "section", "P01", W, "section has 8 players, not 7 (rule 2)"),),
         accepted=GK_ENTRIES | {"E8"}),
    Kind("gk-member-twice-in-a-section", "gk", cell(EN, 7, "member_id", "12000001"),
         ((SE, 7, "entry_id", "E6", E, "member 12000001 is twice in section preliminary P01 (rule 2)"),)),
    Kind("gk-entry-in-two-sections", "gk", append(SE, "preliminary,P02,E1"),
         ((SE, 9, "stage+entry_id", "preliminary/E1", E, "duplicate stage+entry_id: first on line 2"),)),
    Kind("gk-section-unknown-entry", "gk", append(SE, "preliminary,P01,E9"),
         ((SE, 9, "entry_id", "E9", E, "entry_id not in entries.csv; row ignored"),)),
    Kind("gk-section-stage-code", "gk", cell(SE, 8, "stage", "quarterfinal"),
         ((SE, 8, "stage", "quarterfinal", E, "not one of: preliminary, semifinal, final"),
          (G, 5, "white", "E7", E, "white is not in that section"),
          (EN, 8, "entry_id", "E7", W, "waiting for a preliminary section of 7 (rule 2)"),
          (SE, 2, "section", "P01", W, "section has 6 players, not 7 (rule 2)"),
          (OV, 2, "entry_id", "E7", E, "no game between E7 and E1"))),
    # games.csv
    Kind("gk-game-code", "gk", cell(G, 2, "result", "1-1"),
         ((G, 2, "result", "1-1", E, "not one of: 1-0, 0-1"),)),
    Kind("gk-game-self-pairing", "gk", cell(G, 3, "black", "E3"),
         ((G, 3, "black", "E3", E, "a player cannot play himself"),)),
    Kind("gk-game-not-in-section", "gk", cell(G, 3, "white", "E9"),
         ((G, 3, "white", "E9", E, "white is not in that section"),)),
    Kind("gk-game-contradictory", "gk", append(G, "preliminary,P01,E2,E1,1-0,2019-03-05"),
         ((G, 6, "black", "E1", E, "recorded twice in this section, contradicting line 2 (1-0 for E1)"),)),
    Kind("gk-game-duplicate-row", "gk", append(G, "preliminary,P01,E1,E2,1-0,2019-03-01"),
         ((G, 6, "stage+section+white+black", "preliminary/P01/E1/E2", E,
           "duplicate stage+section+white+black: first on line 2"),)),
    Kind("gk-game-date", "gk", cell(G, 2, "ended", "2019-02-30"),
         ((G, 2, "ended", "2019-02-30", E, "not a date (YYYY-MM-DD)"),)),
    Kind("gk-game-unknown-section", "gk", cell(G, 3, "section", "P09"),
         ((G, 3, "section", "P09", E, "no published section of that name"),)),
    Kind("gk-games-crlf-accepted", "gk", whole(G, lambda b: b.replace(b"\n", b"\r\n")), ()),
    # time_oversteps.csv, overrides.csv
    Kind("gk-overstep-date", "gk", cell(OV, 2, "reported", "yesterday"),
         ((OV, 2, "reported", "yesterday", E, "not a date (YYYY-MM-DD)"),)),
    Kind("gk-overstep-missing-column", "gk", drop_column(OV, "reported"),
         ((OV, 1, "reported", "", E, "required column 'reported' is missing"),)),
    Kind("gk-overstep-unknown-entry", "gk", cell(OV, 2, "entry_id", "E9"),
         ((OV, 2, "entry_id", "E9", E, "no game between E9 and E1 in preliminary P01; row ignored"),)),
    Kind("gk-override-code", "gk", cell(TO, 2, "kind", "bonus"),
         ((TO, 2, "kind", "bonus", E, "not one of: entry_status"),)),
    Kind("gk-override-boolean", "gk", cell(TO, 2, "value", "maybe"),
         ((TO, 2, "value", "maybe", E, "use yes or no"),)),
    Kind("gk-override-unknown-entry", "gk", append(TO, "entry_status,,,E9,,rejected,no such entry"),
         ((TO, 3, "entry_id", "E9", E, "entry_id not in entries.csv; override ignored"),)),
    # event.toml
    Kind("toml-syntax", "swiss", replace(T, "rounds = 3", "rounds = 3 3"),
         ((T, 18, "", "rounds = 3 3", E, "not valid TOML"),)),
    Kind("toml-bad-date", "swiss", replace(T, "start = 2024-09-16", "start = 2024-09-36"),
         ((T, 5, "", "start = 2024-09-36", E, "not valid TOML"),)),
    Kind("toml-type", "swiss", replace(T, "rounds = 3", 'rounds = "three"'),
         ((T, 18, "swiss.rounds", '"three"', E, "expected an integer"),)),
    Kind("toml-unknown-key", "swiss", replace(T, "rounds = 3", "rounds = 3\nroundz = 4"),
         ((T, 19, "swiss.roundz", "4", E, "unknown key"),)),
    Kind("toml-missing-key", "swiss", replace(T, "rounds = 3\n", ""),
         ((T, 17, "swiss.rounds", "", E, "missing required key"),)),
    Kind("toml-unknown-table", "swiss", replace(T, "[fide_report]", "[fide_reports]"),
         ((T, 28, "fide_reports", "", E, "unknown table"),)),
    Kind("toml-end-before-start", "swiss", replace(T, "end = 2024-09-18", "end = 2024-09-15"),
         ((T, 6, "event.end", "2024-09-15", E, "is before event.start"),)),
    Kind("toml-fide-federation", "swiss", replace(T, 'federation = "IND"', 'federation = "India"'),
         ((T, 30, "fide_report.federation", '"India"', E, "not a FIDE federation code"),)),
    Kind("toml-tiebreak-code", "swiss", replace(T, '"BH-C1", "BH"', '"BH-C1", "BHX"'),
         ((T, 20, "swiss.tiebreaks", '["BH-C1", "BHX", "SB"]', E, "BHX"),)),
    Kind("toml-recipient-email", "swiss", replace(T, "arbiter@tiny.example", "arbiter@tiny"),
         ((T, 15, "publish.recipients[0].email", '[{ name = "Arbiter", email = "arbiter@tiny", role = "office" }]', E,
           "is not one email address"),)),
    Kind("toml-not-utf8", "swiss", whole(T, lambda b: b.replace(b'venue = "Karnal"', 'venue = "Karnál"'.encode("latin-1"))),
         ((T, 7, "", 'venue = "Karn\ufffdl"', E, "not UTF-8 text at line 7 (byte 0xE1)"),)),
    Kind("toml-gk-rule-2", "gk", replace(T, "section_size = 7", "section_size = 8"),
         ((T, 24, "golden_knights.section_size", "8", E, "must be odd"),)),
    Kind("toml-gk-amount", "gk", replace(T, "entry_fee = 25.00", 'entry_fee = "free"'),
         ((T, 18, "golden_knights.entry_fee", '"free"', E, "expected an amount"),)),
]


def clean(kind: str) -> Files:
    return as_files(SWISS_FILES if kind == "swiss" else GK_FILES)


def broken(k: Kind) -> Files:
    files = clean(k.event)
    k.edit(files)
    if k.id == "latin1-header":  # the header line in Latin-1, the rest UTF-8
        head, rest = files[P].split(b"\n", 1)
        files[P] = head.decode("utf-8").encode("latin-1") + b"\n" + rest
    return files


def matches(f: Finding, row: Row) -> bool:
    file, line, column, value, severity, reason = row
    return ((f.file, f.line, f.column, f.value, f.severity) == (file, line, column, value, severity)
            and reason in f.reason)


def test_the_matrix_has_at_least_sixty_kinds_across_every_file():
    assert len(KINDS) >= 60 and len({k.id for k in KINDS}) == len(KINDS)
    files = {r[0] for k in KINDS for r in k.rows}
    assert files >= set(SWISS_SCHEMAS) | set(GK_SCHEMAS) - {"carried_in.csv"} | {"event.toml"}


@pytest.mark.parametrize("kind", ["swiss", "gk"])
def test_the_clean_tiny_events_have_no_finding(tmp_path, kind):
    out = run_files(kind, clean(kind), tmp_path)
    assert out.findings == []
    if kind == "swiss":
        assert out.players == out.ranked == SWISS_ALL and out.paired == 3 and not out.blocked
    else:
        assert out.accepted == out.seated == GK_ENTRIES


@pytest.mark.parametrize("k", KINDS, ids=[k.id for k in KINDS])
def test_bad_input_kind(tmp_path, k: Kind):
    out = run_files(k.event, broken(k), tmp_path)  # no exception escapes
    for row in k.rows:
        assert [f for f in out.findings if matches(f, row)], (row, out.findings)
    assert len(out.findings) == len(k.rows), out.findings  # nothing else is reported
    if k.same_as_clean or k.paired_more:
        base = run_files(k.event, clean(k.event), tmp_path / "clean")
        assert (out.standings, out.paired, out.accepted, out.seated) == \
            (base.standings, base.paired, base.accepted, base.seated)
        assert out.boards > base.boards if k.paired_more else out.boards == base.boards
    if any(r[0] == T for r in k.rows):  # event.toml: nothing is computed, one row says why
        assert not out.computed
        return
    if k.event == "swiss":
        players = SWISS_ALL if k.players is None else k.players
        assert out.players == players  # the other rows of the file are used
        if k.blocked:
            assert k.blocked in out.blocked
        else:
            assert not out.blocked
            played = players - {"S7"}  # S7 has no game; the others are in the standings
            if played and (k.id != "results-header-only"):
                assert out.ranked == players and out.paired == 3
            elif players:
                assert out.paired == 1  # no round played yet: round 1 is paired
    else:
        assert out.computed == k.computed
        if k.computed:
            assert out.accepted == (GK_ENTRIES if k.accepted is None else k.accepted)
            assert out.seated  # the section's crosstable is computed


# --- the CSV reader never raises on arbitrary bytes (it reports) ------------------------------

@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(
    st.binary(max_size=400),
    st.lists(st.sampled_from([b"a,b,c", b"1,2,3", b'"x,\n"', b"\xe9", b"\xff\xfe", b"\r\n", b"\n", b",", b'"',
                              b"\x00", b"player_id,name", "Müller".encode(), b"\xef\xbb\xbf"]),
             max_size=30).map(b"".join)))
def test_the_csv_reader_never_raises_on_arbitrary_bytes(tmp_path, data):
    """Property (issue 14): whatever the bytes, reading reports instead of raising; every row
    it returns and every finding names a real physical line, and no row is both used and set
    aside; casting the result to a schema does not raise either."""
    path = tmp_path / "players.csv"
    path.write_bytes(data)
    frame, findings = io.read_csv_strings(path)
    n_lines = max(1, len(data.splitlines()))
    assert all(isinstance(f, Finding) and f.file == "players.csv" and f.severity in (E, W)
               and (f.line is None or 1 <= f.line <= n_lines) for f in findings)
    if frame.width:
        lines = frame["line"].to_list()
        assert frame.columns[0] == "line" and lines == sorted(set(lines))
        assert all(2 <= n <= n_lines for n in lines)
        set_aside = {f.line for f in findings if f.severity is E and f.line and f.line > 1}
        assert not set_aside & set(lines)
    typed, more = validate_files({"players.csv": (frame, findings)}, SWISS_SCHEMAS, ())
    assert typed["players.csv"].height <= frame.height
    assert all(isinstance(f, Finding) for f in more)


def test_an_undecodable_line_is_reported_and_the_other_lines_are_read(tmp_path):
    path = tmp_path / "players.csv"
    path.write_bytes(b"a,b\n1,x\n2,\xe9t\xe9\n3,z\n")
    frame, findings = io.read_csv_strings(path)
    assert frame["a"].to_list() == ["1", "3"] and frame["line"].to_list() == [2, 4]
    assert [(f.line, f.value, f.severity) for f in findings] == [(3, "2,\\xe9t\\xe9", E)]


def test_the_run_date_of_the_tiny_events():
    assert parse_event_config(SWISS_FILES["event.toml"]).event.as_of == dt.date(2024, 9, 18)


# --- through the real flow ---------------------------------------------------------------------

E2E = {
    "players-extra-and-latin1": ("swiss", ["extra-column", "latin1-line"]),
    "players-missing-column": ("swiss", ["missing-required-column"]),
    "results-contradictory": ("swiss", ["results-contradictory"]),
    "members-country-usa": ("gk", ["gk-iso-alpha2-given-alpha3"]),
    "entry-unknown-member": ("gk", ["gk-entry-unknown-member"]),
    "toml-type-error": ("swiss", ["toml-type"]),
}


def test_bad_event_folders_through_the_flow_get_their_rows(prefect_harness, tmp_path):
    """The issue's check: bad event folders through ``run_events`` (what ``chessfed run``
    runs): each event's office/validation.csv has its rows; no event crashes; the clean tiny
    events beside them are published."""
    from flows.pipeline.events import run_events, statuses

    by_id = {k.id: k for k in KINDS}
    inputs = tmp_path / "inputs"
    for name, (kind, ids) in E2E.items():
        files = clean(kind)
        for i in ids:
            by_id[i].edit(files)
        folder = inputs / name
        folder.mkdir(parents=True)
        for f, data in files.items():
            (folder / f).write_bytes(data)
    write_event(inputs / "clean-swiss", SWISS_FILES)
    out = tmp_path / "outputs"
    state = run_events(inputs, out, send_mail=False, return_state=True)
    assert state.is_failed() and "toml-type-error" in state.message  # the run's final state
    status = statuses(state)
    assert set(status) == {*E2E, "clean-swiss"}
    assert status.pop("toml-type-error").startswith("error: ")  # reported, not raised
    assert set(status.values()) == {"ok"}
    for name, (_, ids) in E2E.items():
        with open(out / name / "office" / "validation.csv", newline="", encoding="utf-8") as fh:
            got = [Finding(r["file"], int(r["line"]) if r["line"] else None, r["column"], r["value"],
                           Severity(r["severity"]), r["reason"]) for r in csv.DictReader(fh)]
        want = [row for i in ids for row in by_id[i].rows]
        for row in want:
            assert [f for f in got if matches(f, row)], (name, row, got)
        assert len(got) == len(want), (name, got)
        assert (out / name / "index.html").is_file()
    players = (out / "players-extra-and-latin1" / "standings" / "round-02.csv").read_text()
    assert all(f"{n}" in players for n in ("Rao, Arjun", "Bose, Farid"))
    assert (out / "players-extra-and-latin1" / "pairings" / "round-03.csv").is_file()
    assert (out / "members-country-usa" / "standings.csv").is_file()
    assert (out / "clean-swiss" / "office" / "validation.csv").read_text().count("\n") == 1


def test_utf16_without_a_byte_order_mark_is_told_by_its_header_only():
    """The header (ASCII column names) decides; rows may be in any script; a UTF-8 file with a
    stray NUL byte, a file of one short line or of nothing is not taken for UTF-16."""
    from flows.io import utf16_without_bom

    text = "player_id,name\nA,मीरा\nB,Ann\n"
    assert utf16_without_bom(text.encode("utf-16-le")) == "utf-16-le"
    assert utf16_without_bom(text.encode("utf-16-be")) == "utf-16-be"
    assert utf16_without_bom(text.encode("utf-8")) == ""
    assert utf16_without_bom(b"player_id,name\n\x00A,B\n") == ""
    assert utf16_without_bom("id\n".encode("utf-16-le")) == ""  # under 4 characters
    assert utf16_without_bom(b"") == ""

"""FIDE's published rating lists (the monthly downloads of ratings.fide.com) read into one
frame, and the list in force on a date — the first part of issue 47 (the office's season):
an event takes ratings, titles and federations from the list, not from what a file says.

| rule | where | function |
|---|---|---|
| The TXT lists: fixed columns found from each file's header (the combined list with or without the FOA column; the single standard, rapid or blitz list, whose header names its month) | FIDE's download page | :func:`read_fide_txt` |
| The XML lists (``<playerslist><player>``, 19 or 12 elements) | FIDE's download page | :func:`read_fide_xml` |
| Unrated: a blank or 0 rating; the birth year only (0: unknown); the flag ``i`` inactive, ``w`` a woman | FIDE's download page (legend) | :func:`read_fide_txt` |
| Inactive players keep their published rating | FIDE Rating Regulations (inactivity) | :func:`read_fide_txt` |
| The list in force on a date: the latest list published on or before it | B.02 (monthly lists, the 1st of the month); B.01 1.4.6a | :func:`in_force` |
| An event's players against the list: not on it, or a rating, title, federation, sex, birth year or name that differs | B.02 (the published rating); DESIGN.md Inputs | :func:`players_against_list` |
| The event's players take from the list what players.csv leaves empty; where both give a value the file's is kept (a warning row) | B.01 1.4.6a, B.02 (the list in force at the start); DESIGN.md Inputs | :func:`take_from_list` |

SOURCE of the layouts: docs/research/rating-lists.md (the header lines verbatim from public
readers of the real files — lichess, Perl Chess::FIDE, a Go and a Python reader — and real
player lines checked against the positions by script; October 2026). The files themselves are
FIDE's and are never committed; tests use a handful of quoted real lines with their SOURCE note.

Decisions (tests/rulebook/test_rating_list.py):

- Columns are found from the header, never hard-coded: each header word's first character is
  its column's start, the next word's the end (the last runs to the end of the line); a header
  without the words a layout needs is an :class:`InputError` naming line 1.
- A line whose other titles overflow into the next columns (``SI,FI,LSI,SLI,NAAFM``: real, three
  lines of 1.93 million) is read again with its columns after ``OTit`` moved right by the
  overflow (the first shift at which every number reads); a line that still does not read is a
  finding naming its line, column and value, and the player stays in the frame with that cell
  empty (never dropped).
- A line that is not UTF-8 is read as cp1252 (a 2011 list holds a Greek name in cp1253), with a
  warning naming the line.
- A single list's rating goes to the column of its rate of play (``standard``, ``rapid`` or
  ``blitz``), which the caller names (the file name says it; the header says only the month).
"""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

import polars as pl

from transforms.core.errors import Finding, InputError, Severity
from transforms.core.ingest import FEDERATION, FIDE_ID, GENDERS, TITLES, ColType, Column, Schema


class Rate(StrEnum):
    """A rate of play, each with its own FIDE list."""

    STANDARD = "standard"
    RAPID = "rapid"
    BLITZ = "blitz"


LIST_SCHEMA: dict[str, pl.DataType] = {
    "line": pl.Int64(), "fide_id": pl.String(), "name": pl.String(), "federation": pl.String(),
    "sex": pl.String(), "title": pl.String(), "w_title": pl.String(), "o_title": pl.String(),
    "foa_title": pl.String(),
    **{f"{r}{s}": pl.Int32() for r in Rate for s in ("", "_games", "_k")},
    "birth_year": pl.Int32(), "flag": pl.String(), "inactive": pl.Boolean()}
"""One row per player: the physical line (the XML: the player's place), the FIDE id, name,
federation, sex, titles, each rate's rating, games of the period and K (null: not rated in it),
the birth year (null: unknown), the flag and whether it marks the player inactive."""

_WORDS = {"ID_Number": "fide_id", "ID_number": "fide_id", "Name": "name", "Fed": "federation",
          "Sex": "sex", "Tit": "title", "WTit": "w_title", "OTit": "o_title", "FOA": "foa_title",
          "SRtng": "standard", "SGm": "standard_games", "SK": "standard_k",
          "RRtng": "rapid", "RGm": "rapid_games", "Rk": "rapid_k",
          "BRtng": "blitz", "BGm": "blitz_games", "BK": "blitz_k",
          "Gms": "games", "K": "k", "B-day": "birth_year", "Flag": "flag"}
"""The header words of FIDE's TXT layouts and the columns they fill (``games``/``k`` and the
month word, e.g. ``JAN26``: a single list's, put under its rate)."""
MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
"""The month words of a single list's header (``JAN26``: January 2026)."""
_MONTH = re.compile(r"^(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)(\d\d)$")
_NUMBERS = ("standard", "standard_games", "standard_k", "rapid", "rapid_games", "rapid_k",
            "blitz", "blitz_games", "blitz_k", "birth_year")
_RATINGS = ("standard", "rapid", "blitz")


@dataclass(frozen=True)
class RatingListFile:
    """A rating list as read: its players, its month where the file says it, what was found."""

    players: pl.DataFrame
    """:data:`LIST_SCHEMA`."""
    period: dt.date | None = None
    """The month of a single list (its header's ``JAN26``); None: the file does not say."""
    findings: list[Finding] = field(default_factory=list)


def header_columns(header: str, *, source: str = "rating list") -> list[tuple[str, int, int | None]]:
    """FIDE rating lists (TXT) — (word, start, end) of every column of a header line: a word
    starts its column, the next word ends it, the last runs to the end of the line."""
    text = re.sub(r"ID [Nn]umber", lambda m: m.group(0).replace(" ", "_"), header.rstrip("\r\n"))
    words = [(m.group(0), m.start()) for m in re.finditer(r"\S+", text)]
    if not words or words[0][0] not in ("ID_Number", "ID_number") or \
            not {"Name", "Fed"} <= {w for w, _ in words}:
        raise InputError(source, 1, "", header[:60], "not the header of a FIDE rating list (it "
                         "starts \"ID Number      Name ... Fed\")")
    return [(w, s, words[i + 1][1] if i + 1 < len(words) else None)
            for i, (w, s) in enumerate(words)]


def _decode(data: bytes, source: str) -> tuple[list[str], list[Finding]]:
    """The lines of ``data``: UTF-8, a line that is not read as cp1252 with a warning."""
    found: list[Finding] = []
    try:
        return data.decode("utf-8").splitlines(), found
    except UnicodeDecodeError:
        lines = []
        for i, raw in enumerate(data.splitlines(), start=1):
            try:
                lines.append(raw.decode("utf-8"))
            except UnicodeDecodeError:
                lines.append(raw.decode("cp1252", errors="replace"))
                found.append(Finding(source, i, "name", raw[:40].decode("latin-1"),
                                     Severity.WARNING, "not UTF-8: read as cp1252"))
        return lines, found


def read_fide_txt(data: bytes, *, rate: Rate | str = Rate.STANDARD,
                  source: str = "rating list") -> RatingListFile:
    """FIDE rating lists (TXT: the combined list with or without the FOA column, or a single
    standard, rapid or blitz list) — every player, columns found from the header
    (:func:`header_columns`); ``rate``: the rate of play of a single list. A number that does
    not read is a finding (the cell left empty, the player kept); an other-titles cell that
    overflows is read with the rest of its line moved (the module's decisions)."""
    rate = Rate(rate)
    lines, found = _decode(data, source)
    if not lines:
        raise InputError(source, 1, "", "", "an empty file is no rating list")
    cols = header_columns(lines[0], source=source)
    period = None
    named: list[tuple[str, int, int | None]] = []
    for word, start, end in cols:
        m = _MONTH.match(word)
        if m:
            period = dt.date(2000 + int(m.group(2)), MONTHS.index(m.group(1)) + 1, 1)
            named.append((rate.value, start, end))
        elif word in ("Gms", "K"):
            named.append((f"{rate.value}_{'games' if word == 'Gms' else 'k'}", start, end))
        elif word in _WORDS:
            named.append((_WORDS[word], start, end))
    body = [(i, line) for i, line in enumerate(lines[1:], start=2) if line.strip()]
    s = pl.Series("text", [line for _, line in body], dtype=pl.String)
    frame = pl.DataFrame({"line": [i for i, _ in body]}, schema={"line": pl.Int64})
    frame = frame.with_columns(
        (s.str.slice(start, None if end is None else end - start).str.strip_chars().alias(name)
         for name, start, end in named))
    frame = _overflow(frame, s, named)
    return _typed(frame, period, found, source)


FOA_TITLES = ("AGM", "AIM", "AFM", "ACM")
"""FIDE Online Arena titles (the ``FOA`` column): what an overflowing ``OTit`` may run into."""


def _overflow(frame: pl.DataFrame, text: pl.Series, named: list[tuple[str, int, int | None]]
              ) -> pl.DataFrame:
    """The lines whose other titles run into the next column (no space between them) or whose
    numbers do not read, read again with the columns after ``o_title`` moved right: by what the
    other titles (a comma list without spaces, then perhaps an FOA title) overrun their column,
    else by the first shift of 1..8 at which every number reads."""
    where = {n: (st, en) for n, st, en in named}
    if "o_title" not in where or where["o_title"][1] is None:
        return frame
    o_start, o_end = where["o_title"]
    assert o_end is not None
    numbers = [n for n, _, _ in named if n in _NUMBERS]
    after = [(n, st, en) for n, st, en in named if st >= o_end]
    bad_number = pl.any_horizontal([pl.col(n).str.contains(r"[^0-9]") for n in numbers]) \
        if numbers else pl.lit(False)
    runs_on = (text.str.slice(o_end - 1, 2).str.contains(r"^\S\S$")).fill_null(False)
    rows = frame.with_row_index("_i").with_columns(runs_on.alias("_runs")) \
        .filter(bad_number | pl.col("_runs"))
    if rows.is_empty():
        return frame

    def cells_at(line: str, shift: int) -> dict[str, str]:
        return {n: line[st + shift:(None if en is None else en + shift)].strip()
                for n, st, en in after}

    def reads(cells: dict[str, str]) -> bool:
        return all(re.fullmatch(r"\d*", cells[n]) for n in numbers if n in cells)

    out = frame.to_dicts()
    for i in rows["_i"].to_list():
        line = text[i]
        token = line[o_start:].split(" ")[0]
        foa = next((f for f in FOA_TITLES if token.endswith(f) and len(token) - len(f) > o_end - o_start), "")
        titles = token[:len(token) - len(foa)] if foa else token
        shift = len(titles) - (o_end - o_start)
        fixed = None
        if shift > 0 and reads(cells := cells_at(line, shift)):
            fixed = cells | {"o_title": titles, **({"foa_title": foa} if foa else {})}
        else:
            for k in range(1, 9):  # only over text that runs on from the other titles
                if " " not in line[o_end - 1:o_end + k] and reads(cells := cells_at(line, k)):
                    fixed = cells | {"o_title": line[o_start:o_end + k].strip()}
                    break
        if fixed is not None:
            out[i].update(fixed)
    return pl.DataFrame(out, schema=frame.schema)


def _typed(frame: pl.DataFrame, period: dt.date | None, found: list[Finding],
           source: str) -> RatingListFile:
    """The frame cast to :data:`LIST_SCHEMA`: numbers read (a cell that does not read: a
    finding, left empty), 0 ratings and birth years as unknown, the flag's ``i``."""
    for name in _NUMBERS:
        if name not in frame.columns:
            continue
        cast = frame[name].cast(pl.Int32, strict=False)
        wrong = frame.filter(cast.is_null() & (frame[name] != ""))
        for line, value in zip(wrong["line"], wrong[name]):
            found.append(Finding(source, line, name, value, Severity.WARNING,
                                 "not a number: left empty"))
        frame = frame.with_columns(cast.alias(name))
    frame = frame.with_columns(
        *(pl.when(pl.col(r) > 0).then(pl.col(r)).alias(r) for r in _RATINGS if r in frame.columns),
        *(pl.when(pl.col("birth_year") > 0).then(pl.col("birth_year")).alias("birth_year")
          for _ in (1,) if "birth_year" in frame.columns))
    if "flag" in frame.columns:
        frame = frame.with_columns(pl.col("flag").str.to_lowercase())
    frame = frame.with_columns(
        (pl.col("flag").fill_null("").str.contains("i") if "flag" in frame.columns
         else pl.lit(False)).alias("inactive"),
        *(pl.lit(None, dtype).alias(c) for c, dtype in LIST_SCHEMA.items()
          if c not in frame.columns and c != "inactive"))
    frame = frame.with_columns(pl.col(c).replace("", None) for c, t in LIST_SCHEMA.items()
                               if t == pl.String())
    return RatingListFile(frame.select(list(LIST_SCHEMA)).cast(LIST_SCHEMA), period, found)  # type: ignore[arg-type]  # polars#14468: cast() rejects a dict[str, DataType] variable


_XML = {"fideid": "fide_id", "name": "name", "country": "federation", "sex": "sex",
        "title": "title", "w_title": "w_title", "o_title": "o_title", "foa_title": "foa_title",
        "birthday": "birth_year", "flag": "flag"}
"""The XML elements and the columns they fill (the ratings: :func:`read_fide_xml`)."""


class _Reader:
    """The bytes of a document as the XML parser reads a file (no file: the rulebook does no
    I/O)."""

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def read(self, size: int = -1) -> bytes:
        end = len(self.data) if size < 0 else self.at + size
        chunk, self.at = self.data[self.at:end], min(end, len(self.data))
        return chunk


def read_fide_xml(data: bytes, *, rate: Rate | str = Rate.STANDARD,
                  source: str = "rating list") -> RatingListFile:
    """FIDE rating lists (XML: ``<playerslist><player>`` with ``fideid``, ``name``,
    ``country``, ... ``rating``, ``games``, ``k``, the combined list's ``rapid_*`` and
    ``blitz_*``, ``birthday``, ``flag``) — every player, read as the parser goes; ``rate``:
    the rate of play of a single list's ``rating``. A malformed file is an
    :class:`InputError` naming its line."""
    rate = Rate(rate)
    own = {"rating": rate.value, "games": f"{rate.value}_games", "k": f"{rate.value}_k"}
    names = _XML | own | {f"{r}_{x}": f"{r}{'' if x == 'rating' else '_' + x}"
                          for r in ("rapid", "blitz") for x in ("rating", "games", "k")}
    rows: list[dict[str, object]] = []
    current: dict[str, object] = {}
    try:
        for _event, el in ET.iterparse(_Reader(data), events=("end",)):
            tag = el.tag
            if tag == "player":
                current["line"] = len(rows) + 1
                rows.append(current)
                current = {}
                el.clear()
            elif tag in names:
                current[names[tag]] = (el.text or "").strip()
    except ET.ParseError as e:
        line = e.position[0] if e.position else 0
        raise InputError(source, line, "", "", f"not a FIDE XML rating list: {e}") from None
    columns = {c: pl.String for c in LIST_SCHEMA if c not in ("line", "inactive")}
    frame = pl.DataFrame(rows, schema={"line": pl.Int64, **columns}, orient="row") if rows \
        else pl.DataFrame(schema={"line": pl.Int64, **columns})
    frame = frame.with_columns(pl.col(c).fill_null("") for c in columns)
    return _typed(frame, None, [], source)


def in_force(periods: Iterable[dt.date], on: dt.date) -> dt.date | None:
    """FIDE B.02 (a list on the first day of each month), B.01 1.4.6a ("the Rating List in
    effect at the start of the tournament") — of the lists' dates, the latest on or before
    ``on``; None: none was published by then."""
    return max((p for p in periods if p <= on), default=None)


DOWNLOAD = re.compile(r"^(standard|rapid|blitz)_(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
                      r"(\d\d)frl(_xml)?\.(zip|txt|xml)$", re.IGNORECASE)
"""FIDE's download names: ``standard_jan26frl.zip`` (TXT), ``rapid_jan26frl_xml.zip`` (XML)."""


def download_name(name: str) -> tuple[Rate, dt.date, str] | None:
    """FIDE rating lists (the downloads' names) — the rate, the month and the layout (``txt``,
    ``xml``) a file of FIDE's download page is named for; None: not such a name."""
    m = DOWNLOAD.match(name)
    if not m:
        return None
    month = MONTHS.index(m.group(2).upper()) + 1
    layout = "xml" if m.group(4) or m.group(5).lower() == "xml" else "txt"
    return Rate(m.group(1).lower()), dt.date(2000 + int(m.group(3)), month, 1), layout


NATIONAL = re.compile(r"^national_(?:(standard|rapid|blitz)_)?(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
                      r"(\d\d)\.csv$", re.IGNORECASE)
"""A federation's national list as the season keeps it: ``national_jan26.csv`` (standard),
``national_rapid_jan26.csv`` — the month it comes into force, as FIDE names its own."""


def national_name(name: str) -> tuple[Rate, dt.date] | None:
    """DESIGN.md Inputs (the season's national lists, issue 47) — the rate and the month a
    national list's file is named for (:data:`NATIONAL`); None: not such a name."""
    m = NATIONAL.match(name)
    if not m:
        return None
    month = MONTHS.index(m.group(2).upper()) + 1
    return Rate((m.group(1) or "standard").lower()), dt.date(2000 + int(m.group(3)), month, 1)


CHECK_SCHEMA = {"player_id": pl.String, "fide_id": pl.String, "name": pl.String,
                "field": pl.String, "file_value": pl.String, "list_value": pl.String,
                "what": pl.String}
"""One row per difference between an event's players and a rating list."""


def _plain(name: str | None) -> str:
    """A name compared as FIDE writes them: letters only, lower case ("Sharma, Aarav" ==
    "sharma aarav")."""
    return " ".join(re.findall(r"[^\W\d_]+", (name or "").lower()))


def players_against_list(players: pl.DataFrame, rating_list: pl.DataFrame,
                         rate: Rate | str = Rate.STANDARD) -> pl.DataFrame:
    """FIDE B.02 (the published rating) — an event's players (players.csv as read: ``player_id``,
    ``name``, ``fide_id``, and any of ``rating``, ``title``, ``federation``, ``sex``,
    ``birth_date``) against a list (:data:`LIST_SCHEMA`): a player whose FIDE id is not on it,
    and every value the file gives that differs from the list's — the rating of ``rate`` (0:
    unrated), the title, the federation, the sex, the birth year, the name (compared by its
    letters and words, in any order, case or punctuation); a value the file leaves empty is
    the list's to give. Players without a FIDE id are not looked up. Rows of
    :data:`CHECK_SCHEMA`."""
    rate = Rate(rate)
    listed = {r["fide_id"]: r for r in rating_list.filter(
        pl.col("fide_id").is_in(players["fide_id"].drop_nulls().to_list()) if "fide_id" in
        players.columns else pl.lit(False)).iter_rows(named=True)}
    out = []
    for p in players.iter_rows(named=True):
        fid = str(p.get("fide_id") or "").strip()
        if not fid:
            continue
        base = {"player_id": p.get("player_id"), "fide_id": fid, "name": p.get("name")}
        row = listed.get(fid)
        if row is None:
            out.append(base | {"field": "fide_id", "file_value": fid, "list_value": "",
                               "what": "not on the list"})
            continue
        birth = p.get("birth_date")
        given = {"rating": p.get("rating"), "title": p.get("title"),
                 "federation": p.get("federation"), "sex": p.get("sex"),
                 "birth_year": (getattr(birth, "year", None) if not isinstance(birth, str)
                                else int(birth[:4]) if birth[:4].isdigit() else None)
                 if birth else None}
        theirs = {"rating": row[rate.value], "title": row["title"], "federation": row["federation"],
                  "sex": row["sex"], "birth_year": row["birth_year"]}
        for key, mine in given.items():
            if key not in players.columns and not (key == "birth_year" and "birth_date" in players.columns):
                continue
            a = "" if mine is None else str(mine).strip().upper()
            b = "" if theirs[key] is None else str(theirs[key]).strip().upper()
            if a == "" or (a == "0" and b == ""):
                continue  # left to the list, or unrated on both
            if a != b:
                out.append(base | {"field": key, "file_value": "" if mine is None else str(mine),
                                   "list_value": "" if theirs[key] is None else str(theirs[key]),
                                   "what": "differs from the list"})
        if row["name"] and sorted(_plain(p.get("name")).split()) != sorted(_plain(row["name"]).split()):
            out.append(base | {"field": "name", "file_value": p.get("name") or "",
                               "list_value": row["name"], "what": "differs from the list"})
    return pl.DataFrame(out, schema=CHECK_SCHEMA, orient="row") if out else \
        pl.DataFrame(schema=CHECK_SCHEMA)


TAKEN = {"rating": "rating", "title": "title", "nationality": "federation", "gender": "sex"}
"""The run's player columns a list fills (a Swiss event's names: ``nationality`` is players.csv's
``federation``, ``gender`` its ``sex``) and the list's columns they come from."""


ROSTER_TAKEN = {"rating": "rating", "title": "title", "federation": "federation", "sex": "sex"}
"""What a team event's rosters.csv takes from the list, under its own column names."""


def take_from_list(players: pl.DataFrame, listed: pl.DataFrame | None,
                   file: str = "players.csv", taken: Mapping[str, str] = TAKEN
                   ) -> tuple[pl.DataFrame, list[Finding]]:
    """FIDE B.01 1.4.6a and B.02 (the rating list in force at the start of the event) — the
    event's players with what players.csv leaves empty taken from the list (``ratings.csv``:
    ``fide_id``, ``rating``, ``title``, ``federation``, ``sex``, ``list``), matched by FIDE id;
    where both give a value and they differ, the file's is kept (the office's) with a warning
    row on its line. ``list_note`` says, per player, what came from which list and what the
    list says of a value the file overrides (for the player's page). ``taken``: the file's
    columns the list fills and the list's they come from (:data:`TAKEN`; a team event's
    rosters.csv: :data:`ROSTER_TAKEN`)."""
    if listed is None or listed.is_empty() or "fide_id" not in players.columns:
        return players.with_columns(pl.lit(None, pl.String).alias("list_note")), []
    if "from_round" in listed.columns:  # (a later list's rows: later_ratings)
        listed = listed.filter(pl.col("from_round").is_null())
    entries = {str(r["fide_id"]): r for r in listed.iter_rows(named=True)}
    found: list[Finding] = []
    rows = []
    for p in players.iter_rows(named=True):
        entry = entries.get(str(p.get("fide_id") or ""))
        notes: list[str] = []
        if entry is not None:
            which = entry.get("list") or "FIDE's list"
            filled = []
            for mine, theirs in taken.items():
                value = entry.get(theirs)
                if value in (None, "") or mine not in p:
                    continue
                given = p.get(mine)
                if given in (None, "", 0):
                    p[mine] = value
                    filled.append(theirs)
                elif str(given).upper() != str(value).upper():
                    found.append(Finding(file, p.get("line"), theirs, str(given), Severity.WARNING,
                                         f"{which} says {value}: the file's value is kept"))
                    notes.append(f"{theirs} {given} as entered ({which}: {value})")
            if filled:
                notes.insert(0, f"{', '.join(filled)} from {which}")
        p["list_note"] = "; ".join(notes) or None
        rows.append(p)
    schema = dict(players.schema) | {"list_note": pl.String()}
    return pl.DataFrame(rows, schema=schema), found


def later_ratings(players: pl.DataFrame, listed: pl.DataFrame | None) -> pl.DataFrame:
    """FIDE B.02 (an event longer than 30 days: each game rated with the ratings in force in
    its round) — the ratings of the lists that come into force while the event is played
    (``ratings.csv`` rows with ``from_round``), as ``player_id``, ``from_round``, ``rating``
    (null: unrated on that list), matched by FIDE id; empty when there are none."""
    schema = {"player_id": pl.String, "from_round": pl.Int64, "rating": pl.Int64}
    if listed is None or "from_round" not in listed.columns or "fide_id" not in players.columns:
        return pl.DataFrame(schema=schema)
    rows = listed.filter(pl.col("from_round").is_not_null()).select(
        pl.col("fide_id").cast(pl.String), "from_round", pl.col("rating").cast(pl.Int64))
    ids = players.select("player_id", pl.col("fide_id").cast(pl.String)).filter(
        pl.col("fide_id").is_not_null() & (pl.col("fide_id") != ""))
    return ids.join(rows, on="fide_id").select(list(schema)).cast(schema)  # type: ignore[arg-type]


def ratings_in_force(later: pl.DataFrame | None, players: pl.DataFrame, rnd: int,
                     number: str = "sno") -> dict[int, int]:
    """FIDE B.02 (each game rated with the ratings in force in its round) — the player's
    number (column ``number`` of ``players``: a start number, a team event's ``pno``) -> the
    rating of the latest later list in force in round ``rnd`` (0: unrated on it), for the
    players a later list names (``later``: player_id, from_round, rating)."""
    if later is None or later.is_empty():
        return {}
    sno = dict(zip(players["player_id"].to_list(), players[number].to_list(), strict=True))
    out: dict[int, tuple[int, int]] = {}
    for pid, frm, rating in later.select("player_id", "from_round", "rating").iter_rows():
        if pid in sno and frm <= rnd and frm >= out.get(sno[pid], (0, 0))[0]:
            out[sno[pid]] = (frm, rating or 0)
    return {k: v for k, (_, v) in out.items()}


def take_from_national_list(players: pl.DataFrame, listed: pl.DataFrame | None,
                            file: str = "players.csv") -> tuple[pl.DataFrame, list[Finding]]:
    """DESIGN.md Inputs (the season's national list, issue 47) — the event's players with the
    ``national_rating`` players.csv leaves empty taken from the federation's national list in
    force at the event's start (``national_ratings.csv``: ``member_id``, ``rating``, ``list``),
    matched by member id, as :func:`take_from_list` takes FIDE's: where both give a rating and
    they differ, the file's is kept with a warning row on its line; ``list_note`` (kept from
    FIDE's list, added to) says what came from the national list and what it says of a rating
    the file overrides."""
    if "list_note" not in players.columns:
        players = players.with_columns(pl.lit(None, pl.String).alias("list_note"))
    if listed is None or listed.is_empty() or "member_id" not in players.columns \
            or "national_rating" not in players.columns:
        return players, []
    entries = {str(r["member_id"]): r for r in listed.iter_rows(named=True)}
    found: list[Finding] = []
    rows = []
    for p in players.iter_rows(named=True):
        entry = entries.get(str(p.get("member_id") or ""))
        value = entry.get("rating") if entry is not None else None
        if entry is not None and value is not None:
            which = entry.get("list") or "the national list"
            given = p.get("national_rating")
            note = ""
            if given in (None, 0):
                p["national_rating"] = value
                note = f"national rating from {which}"
            elif given != value:
                found.append(Finding(file, p.get("line"), "national_rating", str(given), Severity.WARNING,
                                     f"{which} says {value}: the file's value is kept"))
                note = f"national rating {given} as entered ({which}: {value})"
            if note:
                p["list_note"] = "; ".join(x for x in (p.get("list_note"), note) if x)
        rows.append(p)
    return pl.DataFrame(rows, schema=players.schema), found


RATINGS_LIST = Schema("ratings.csv", (
        Column("fide_id", nonempty=True, pattern=FIDE_ID, description="The player's FIDE ID."),
        Column("name", required=False, description="The name on the list."),
        Column("rating", ColType.INT, required=False, minimum=0, maximum=3500, description=(
            "The rating on the list in force at the event's start; empty: unrated.")),
        Column("title", required=False, vocabulary=TITLES, description="The title on the list."),
        Column("federation", required=False, pattern=FEDERATION, description=(
            "The federation on the list.")),
        Column("sex", required=False, vocabulary=GENDERS, description="`M` or `F`."),
        Column("list", required=False, description=(
            "Which list, as the pages name it (`FIDE standard, January 2026`).")),
        Column("from_round", ColType.INT, required=False, minimum=2, description=(
            "An event longer than 30 days: the first round a later list is in force for "
            "(the first round of its rating period); its `rating` is the player's from that "
            "round on (FIDE's list only: each game is rated with both players' ratings in force "
            "in its round). Empty: the list in force at the event's start.")),
    ), key=("fide_id", "from_round"), description=(
        "The players' entries on FIDE's rating list in force at the event's start, as "
        "`chessfed rating-list --extract` writes them (optional file): where players.csv leaves "
        "a rating, title, federation or sex empty the list's is taken; where both give one and "
        "they differ, players.csv's is kept (the office's) with a warning row, and the player's "
        "page says which (a team event: rosters.csv's). An event longer than 30 days may add a row per player and later "
        "list (`from_round`); the season's lists give them by themselves (docs/season.md)."))
"""The event's excerpt of FIDE's list in force (a Swiss, a round robin, a team event):
what ``chessfed rating-list --extract`` writes and the season's ``lists/`` give."""

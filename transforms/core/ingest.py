"""Input schemas and the casting of raw string frames into typed frames.

Flows read every CSV with all columns as strings (plus a ``line`` column: the 1-based
physical line, header = line 1) and hand the raw frame here. Casting never stops at the
first bad value: every bad cell becomes a :class:`Finding` naming file, line, column,
value and reason, and rows with an error are set aside (they stay in validation.csv).
An enumerated column (:class:`Vocabulary`) reads a cell that holds one code's wording (the
regulation's words, another program's spelling; case, spaces and underscores ignored) as that
code; a value outside a closed set is rejected with a reason that lists the codes. Every
column's ``description`` and every code's meaning (its enum member's docstring) make the
input reference, ``inputs/README.md`` (``chessfed input-reference``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any

import polars as pl

from transforms.core.config import CSV_FIELD_LIMIT, InputLimits
from transforms.core.countries import CodeList
from transforms.core.errors import Finding, Severity
from transforms.core.model import (
    EMAIL_ADDRESS,
    GAME_RESULTS,
    GENDER_WORDINGS,
    MONEY,
    RESULT_SPELLINGS,
    TITLE_WORDINGS,
    Gender,
    ResultCode,
    Title,
)


class ColType(StrEnum):
    """Value types of input columns (DESIGN.md, Inputs: common conventions)."""

    STR = "text"
    INT = "integer"
    FLOAT = "number"
    MONEY = "amount (at most two decimals)"
    DATE = "date YYYY-MM-DD"
    DATETIME = "datetime YYYY-MM-DDTHH:MM"
    BOOL = "boolean true/false"
    EMAIL = "email address"


LINE_BREAK = r"[\r\n\x00-\x08\x0b\x0c\x0e-\x1f\x7f]"
"""Line breaks and other control characters: not part of any one-line value. (A cell read
from a CSV file is already clean: :func:`clean_cell`; this is the net for a frame made
otherwise.)"""

SPACED = "\t\n\x0b\x0c\r\x85\u2028\u2029"
"""The line breaks of Unicode (UAX #14: LF, VT, FF, CR, NEL, LINE SEPARATOR, PARAGRAPH
SEPARATOR) and the tab: a cell reads each run of them as one space."""
BIDI_FORMATTING = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
"""The bidirectional formatting characters (UAX #9: the marks, embeddings, overrides and
isolates): invisible, they reorder the text shown around them ("Trojan Source")."""
REMOVED = ("".join(chr(c) for c in (*range(0x20), 0x7F, *range(0x80, 0xA0)) if chr(c) not in SPACED)
           + BIDI_FORMATTING + "\ufeff")
"""What a cell reads without: the other control characters (C0, DEL, C1), the bidirectional
formatting characters and a byte order mark inside the text."""
CHAR_NAMES = {0x00: "NULL", 0x09: "TAB", 0x0A: "LINE FEED", 0x0B: "VERTICAL TAB",
              0x0C: "FORM FEED", 0x0D: "CARRIAGE RETURN", 0x1B: "ESCAPE", 0x7F: "DELETE",
              0x85: "NEXT LINE", 0x061C: "ARABIC LETTER MARK", 0x200E: "LEFT-TO-RIGHT MARK",
              0x200F: "RIGHT-TO-LEFT MARK", 0x202A: "LEFT-TO-RIGHT EMBEDDING",
              0x202B: "RIGHT-TO-LEFT EMBEDDING", 0x202C: "POP DIRECTIONAL FORMATTING",
              0x202D: "LEFT-TO-RIGHT OVERRIDE", 0x202E: "RIGHT-TO-LEFT OVERRIDE",
              0x2028: "LINE SEPARATOR", 0x2029: "PARAGRAPH SEPARATOR",
              0x2066: "LEFT-TO-RIGHT ISOLATE", 0x2067: "RIGHT-TO-LEFT ISOLATE",
              0x2068: "FIRST STRONG ISOLATE", 0x2069: "POP DIRECTIONAL ISOLATE",
              0xFEFF: "BYTE ORDER MARK"}
"""How a finding names the characters :func:`clean_cell` takes out (Unicode's names; a
control character without one is "control character")."""
INVISIBLE = re.compile("[" + "".join(f"\\u{ord(c):04x}" for c in SPACED + REMOVED) + "]")
"""Any character a cell is cleaned of."""
_SPACES = re.compile("[" + "".join(f"\\u{ord(c):04x}" for c in SPACED) + "]+")
_REMOVE = re.compile("[" + "".join(f"\\u{ord(c):04x}" for c in REMOVED) + "]")


def visible(value: str) -> str:
    """DESIGN.md Outputs (validation) — ``value`` with each character :func:`clean_cell` takes
    out written as its code point (``Ann[U+2028]Lee``): how a finding shows the value, so that
    a person sees what is there."""
    return INVISIBLE.sub(lambda m: f"[U+{ord(m.group()):04X}]", value)


def clean_cell(value: str, what: str = "a one-line value") -> tuple[str, str]:
    """DESIGN.md Inputs (a cell is one line of text) — ``value`` as read, and why it changed
    ("" when it did not; ``what`` the value is, as the reason says it): each run of line breaks and tabs (:data:`SPACED`, U+2028 and U+0085
    among them) is one space; the other control characters, the bidirectional formatting
    characters and a byte order mark inside the text (:data:`REMOVED`) are removed.

    Decision: cleaned with a warning, not refused: each is invisible or a line break in a
    spreadsheet cell, none is part of a name, an id or a code, and refusing would set aside a
    player for a character the office cannot see (a U+2028 pasted with a name once left that
    player without letters: an email header refuses it). The warning names each character
    and what the value is read as. A space, not nothing, for a line break: it separated two
    words ("Kapoor,\\nGita"). ZERO WIDTH JOINER and NON-JOINER (U+200D, U+200C) are kept:
    Indic and Arabic scripts need them to spell names; so are other format characters
    (U+200B, U+00AD), which are not controls and change no order."""
    found = sorted(set(INVISIBLE.findall(value)))
    if not found:
        return value, ""
    cleaned = _SPACES.sub(" ", _REMOVE.sub("", value))
    classes = []
    if any(c in SPACED for c in found):
        classes.append("a line break or tab")
    if any(c in REMOVED and c not in BIDI_FORMATTING and c != "\ufeff" for c in found):
        classes.append("a control character")
    if any(c in BIDI_FORMATTING for c in found):
        classes.append("a bidirectional formatting character (it reorders the text shown "
                       "around it)")
    if "\ufeff" in found:
        classes.append("a byte order mark inside the text")
    details = ", ".join(f"U+{ord(c):04X} {CHAR_NAMES.get(ord(c), 'control character')} "
                        f"{'as a space' if c in SPACED else 'removed'}" for c in found)
    shown = cleaned if len(cleaned) <= 120 else cleaned[:120] + "…"
    return cleaned, f"{' and '.join(classes)} in {what} ({details}): read as {shown!r}"


_POLARS: dict[ColType, pl.DataType | type[pl.DataType]] = {
    ColType.STR: pl.String, ColType.INT: pl.Int64, ColType.FLOAT: pl.Float64,
    ColType.MONEY: MONEY, ColType.DATE: pl.Date, ColType.DATETIME: pl.Datetime("us"),
    ColType.BOOL: pl.Boolean, ColType.EMAIL: pl.String,
}
EXPECTED = {
    ColType.INT: "not an integer (digits, e.g. 1850)",
    ColType.FLOAT: "not a number (e.g. 4.5)",
    ColType.MONEY: "not an amount (digits with at most two decimals, e.g. 2000 or 25.00)",
    ColType.DATE: "not a date (YYYY-MM-DD)",
    ColType.DATETIME: "not a datetime (YYYY-MM-DDTHH:MM)",
    ColType.BOOL: "not a boolean (true/false, yes/no, 1/0)",
}
"""Why a cell of each type is rejected, saying what is expected."""
BOOLEANS = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
"""The accepted spellings of a boolean cell (ignoring case)."""


def wording_key(text: str) -> str:
    """DESIGN.md Inputs — how a cell is compared with a vocabulary's codes and wordings:
    ignoring case, spaces and underscores ("Half-point  bye" = "half-point bye",
    "no association" = "no_association")."""
    return re.sub(r"[\s_]+", "", text).lower()


@dataclass(frozen=True)
class Vocabulary:
    """The accepted values of an enumerated column: each code, in order, with the other
    wordings that mean it (the regulation's words, other programs' spellings).

    A cell is read as the code whose code or wording it is, compared by :func:`wording_key`.
    Decision: a wording that two codes share is ambiguous and means neither (the cell is
    then rejected like any unknown value, and the rejection lists the codes)."""

    terms: tuple[tuple[str, tuple[str, ...]], ...]
    """(code, its other wordings), in the order the codes are listed."""
    source: type[Enum] | None = None
    """The enum whose members are the codes: their docstrings say what each code means."""
    note: str = ""
    """What the input reference says of the codes before listing them ("" for its usual
    sentence on closed or configured sets)."""
    column: tuple[str, tuple[tuple[str, str], ...]] = ("", ())
    """An extra column of the input reference's table of the codes: its heading and each
    code's cell (e.g. the category a seed route seeds into by default)."""

    @classmethod
    def of(cls, enum: type[Enum], wordings: Mapping[Any, object] | None = None, *,
           only: Iterable[Enum] | None = None) -> Vocabulary:
        """The members of ``enum`` (or those in ``only``), each with its wordings from
        ``wordings`` (member -> wordings, or wording -> member value as in
        :data:`~transforms.core.model.RESULT_SPELLINGS`)."""
        members = [m for m in enum if only is None or m in set(only)]
        by_code: dict[str, list[str]] = {str(m.value): [] for m in members}
        for k, v in (wordings or {}).items():
            pairs = [(str(enum(k).value), w) for w in v] if isinstance(v, tuple) else [(str(v), k)]
            for c, w in pairs:
                known = {wording_key(x) for x in (c, *by_code.get(c, ()))}
                if c in by_code and wording_key(w) not in known:  # "pab" is "PAB" already
                    by_code[c].append(str(w))
        return cls(tuple((c, tuple(by_code[c])) for c in by_code), enum)

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(c for c, _ in self.terms)

    @functools.cached_property
    def _claims(self) -> dict[str, set[str]]:
        claims: dict[str, set[str]] = {}
        for code, words in self.terms:
            for w in (code, *words):
                claims.setdefault(wording_key(w), set()).add(code)
        return claims

    @property
    def ambiguous(self) -> dict[str, tuple[str, ...]]:
        """Wordings (as compared) that more than one code claims -> those codes."""
        return {k: tuple(c for c in self.codes if c in v)
                for k, v in self._claims.items() if len(v) > 1}

    def recognise(self, text: str | None) -> str | None:
        """The code ``text`` means; None when it means no code, or more than one."""
        if text is None:
            return None
        if text in self.codes:
            return text
        claim = self._claims.get(wording_key(text), set())
        return next(iter(claim)) if len(claim) == 1 else None


@dataclass(frozen=True)
class Column:
    """One column of an input file."""

    name: str
    type: ColType = ColType.STR
    required: bool = True
    """The column must be in the header."""
    nonempty: bool = False
    """Every row must have a value."""
    allowed: frozenset[str] | None = None
    """For text columns without a vocabulary: the closed set of values (case-sensitive after
    stripping)."""
    minimum: float | None = None
    maximum: float | None = None
    description: str = ""
    """What the column holds, for the input reference (``chessfed input-reference``)."""
    vocabulary: Vocabulary | None = None
    """The codes of an enumerated column and their other wordings: a cell holding a wording
    is read as its code."""
    pattern: tuple[str, str] | None = None
    """For text columns: (regular expression a value must match, what is expected). A value
    that does not match is a warning and is read as no value (the row stays)."""
    codes: CodeList | None = None
    """For text columns: the closed list of codes (e.g. ISO 3166-1 countries) a value must be
    one of, ignoring case; a value outside it is an error naming the list (and the code meant,
    where it is the other form of one)."""
    closed: bool = True
    """Whether a value outside ``vocabulary`` is rejected here. False where the event's
    configuration holds the closed set and a rule checks it (``seed_reason``:
    ``[entries] seed_routes``, checked by NJ 2024 ``seeded_route``)."""

    @property
    def accepted(self) -> tuple[str, ...] | None:
        """The closed set this column is checked against here, in the order listed; None if
        none."""
        if self.vocabulary is not None:
            return self.vocabulary.codes if self.closed else None
        return tuple(sorted(self.allowed)) if self.allowed is not None else None


@dataclass(frozen=True)
class Schema:
    """The columns of one input file and its key."""

    file: str
    columns: tuple[Column, ...]
    key: tuple[str, ...] = ()
    """Columns whose combination must be unique (duplicate ids are errors)."""
    allow_extra: bool = False
    description: str = ""
    """What the file holds, for the input reference."""

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)


def recognise_wordings(raw: pl.DataFrame, schema: Schema) -> pl.DataFrame:
    """DESIGN.md Inputs — read every cell of an enumerated column that holds one code's
    wording (:class:`Vocabulary`) as that code; other cells are left as they are."""
    out = []
    for c in schema.columns:
        if c.vocabulary is None or c.name not in raw.columns:
            continue
        mapping = {}
        for v in raw[c.name].drop_nulls().unique().to_list():
            code = c.vocabulary.recognise(v.strip())
            if code is not None and code != v:
                mapping[v] = code
        if mapping:
            out.append(pl.col(c.name).replace(mapping))
    return raw.with_columns(out) if out else raw


def _cast_expr(col: Column) -> pl.Expr:
    s = pl.col(col.name).str.strip_chars()
    s = pl.when(s == "").then(None).otherwise(s)
    match col.type:
        case ColType.STR if col.pattern is not None:
            return pl.when(s.str.contains(col.pattern[0])).then(s).otherwise(None)
        case ColType.STR:
            return s.str.replace_all(LINE_BREAK, " ")
        case ColType.EMAIL:
            return pl.when(s.str.contains(EMAIL_ADDRESS)).then(s).otherwise(None)
        case ColType.INT:
            return s.cast(pl.Int64, strict=False)
        case ColType.FLOAT:
            return s.str.replace_all(",", "").cast(pl.Float64, strict=False)
        case ColType.MONEY:  # exact: a decimal with at most two places, never a float
            t = s.str.replace_all(",", "")
            return (pl.when(t.str.contains(r"^[+-]?\d+(\.\d{1,2})?$")).then(t)
                    .cast(MONEY, strict=False))
        case ColType.DATE:
            return s.str.to_date("%Y-%m-%d", strict=False)
        case ColType.DATETIME:
            return s.str.to_datetime("%Y-%m-%dT%H:%M", strict=False, time_unit="us")
        case ColType.BOOL:
            return s.str.to_lowercase().replace_strict(BOOLEANS, default=None, return_dtype=pl.Boolean)
    raise AssertionError(col.type)


def cast_frame(raw: pl.DataFrame, schema: Schema) -> tuple[pl.DataFrame, list[Finding]]:
    """DESIGN.md Inputs — cast a raw all-string frame to ``schema``, reporting every bad cell.

    Returns the typed frame of the rows without errors (with ``line``) and the findings.
    Decision: a column the schema does not know is a warning on line 1 and its cells are not
    read; the rows are used (a spreadsheet's extra notes column must not stop an event).
    Decision: a required column missing from the header is one error on line 1 naming it, and
    the file's rows are not used (each would lack a value the rules need); the steps that do
    not depend on the file go on.
    """
    f = schema.file
    findings: list[Finding] = []
    header = [c for c in raw.columns if c != "line"]
    known = [c.name for c in schema.columns]
    for name in header:
        if name not in known and not schema.allow_extra:
            findings.append(Finding(f, 1, name, name, Severity.WARNING,
                                    f"unknown column {name!r}: its cells are not read (the columns of "
                                    f"{f}: {', '.join(known)})"))
    for c in schema.columns:
        if c.required and c.name not in header:
            findings.append(Finding(f, 1, c.name, "", Severity.ERROR,
                                    f"required column {c.name!r} is missing from the header: the "
                                    "file's rows are not used until it is added"))
    dups = [c for c in header if header.count(c) > 1]
    for name in sorted(set(dups)):
        findings.append(Finding(f, 1, name, name, Severity.ERROR,
                                "column appears twice in the header"))
    typed_schema: dict[str, pl.DataType | type[pl.DataType]] = {
        "line": pl.Int64, **{c.name: _POLARS[c.type] for c in schema.columns}}
    if any(x.severity is Severity.ERROR for x in findings):
        return pl.DataFrame(schema=typed_schema), findings

    raw = raw.with_columns([pl.lit(None, pl.String).alias(c.name)
                            for c in schema.columns if c.name not in header])
    exprs = [_cast_expr(c).alias(c.name) for c in schema.columns]
    typed = recognise_wordings(raw, schema).select(pl.col("line").cast(pl.Int64), *exprs)
    bad_rows: set[int] = set()

    def report(mask: pl.Series, col: Column, reason: str, severity: Severity = Severity.ERROR) -> None:
        idx = mask.fill_null(False).arg_true().to_list()
        values = raw[col.name]
        for i in idx:
            findings.append(Finding(f, int(raw["line"][i]), col.name, values[i] or "",
                                    severity, reason))
            if severity is Severity.ERROR:
                bad_rows.add(i)

    for c in schema.columns:
        rawcol = raw[c.name].str.strip_chars()
        present = rawcol.is_not_null() & (rawcol != "")
        tcol = typed[c.name]
        if c.type is ColType.EMAIL:  # Decision: the row stays; only its messages are not sent
            report(present & tcol.is_null(), c, "not a valid email address (one local@domain.tld, "
                   "nothing else): no message goes to it", Severity.WARNING)
        elif c.type is not ColType.STR:
            report(present & tcol.is_null(), c, EXPECTED[c.type])
        elif c.pattern is not None:
            report(present & tcol.is_null(), c, f"{c.pattern[1]}: read as no value", Severity.WARNING)
        else:
            report(rawcol.str.contains(LINE_BREAK), c, "a line break or control character in a "
                   "one-line value: read as a space", Severity.WARNING)
        if c.nonempty:
            report(~present.fill_null(False), c, "a value is required")
        if c.codes is not None:
            for i, v in enumerate(rawcol.to_list()):
                problem = c.codes.problem(c.name, v) if v else None
                if problem:
                    findings.append(Finding(f, int(raw["line"][i]), c.name, raw[c.name][i],
                                            Severity.ERROR, problem))
                    bad_rows.add(i)
        accepted = c.accepted
        if accepted is not None:
            report(present & ~tcol.is_in(list(accepted)), c, f"not one of: {', '.join(accepted)}")
        if c.minimum is not None and c.type in (ColType.INT, ColType.FLOAT, ColType.MONEY):
            report(tcol < c.minimum, c, f"below the minimum {c.minimum:g}")
        if c.maximum is not None and c.type in (ColType.INT, ColType.FLOAT, ColType.MONEY):
            report(tcol > c.maximum, c, f"above the maximum {c.maximum:g}")
    if schema.key:
        # a key column that may be empty counts empty as one value (ratings.csv's
        # ``from_round``: a FIDE id once at the start, once per later list)
        needed = [k for k in schema.key if schema.column(k).nonempty or k == schema.key[0]]
        keyed = typed.with_row_index("_i").filter(
            pl.all_horizontal(pl.col(k).is_not_null() for k in needed))
        dup = keyed.filter(pl.struct(schema.key).is_duplicated())
        first_line = dup.group_by(schema.key).agg(pl.col("line").min().alias("_first"))
        dup = dup.join(first_line, on=list(schema.key), nulls_equal=True).filter(
            pl.col("line") != pl.col("_first"))
        for row in dup.iter_rows(named=True):
            value = "/".join(str(raw[k][row["_i"]]) for k in schema.key)
            findings.append(Finding(f, row["line"], "+".join(schema.key), value, Severity.ERROR,
                                    f"duplicate {'+'.join(schema.key)}: first on line {row['_first']}"))
            bad_rows.add(row["_i"])
    keep = pl.Series([i not in bad_rows for i in range(typed.height)], dtype=pl.Boolean)
    return typed.filter(keep), findings


RawFile = tuple[pl.DataFrame, list[Finding]]
"""An input file as the flows read it: every column a string, plus ``line``; and the findings
of reading it (undecodable lines, ragged rows)."""


def validate_files(raw: dict[str, RawFile], schemas: dict[str, Schema],
                   required: tuple[str, ...]) -> tuple[dict[str, pl.DataFrame], list[Finding]]:
    """DESIGN.md Inputs — cast every file to its schema; missing required files are errors."""
    findings: list[Finding] = []
    typed: dict[str, pl.DataFrame] = {}
    for name in required:
        if name not in raw:
            findings.append(Finding(name, None, "", "", Severity.ERROR, "required file is missing"))
    for name, schema in schemas.items():
        if name not in raw:
            continue
        frame, read_findings = raw[name]
        findings.extend(read_findings)
        if frame.width == 0:  # empty or unreadable file: already reported; an empty typed frame
            frame = pl.DataFrame(schema={"line": pl.Int64, **{c.name: pl.String for c in schema.columns}})
        frame, cast_findings = cast_frame(normalise_results(frame), schema)
        findings.extend(cast_findings)
        if name in required and not read_findings and not cast_findings and raw[name][0].height == 0:
            findings.append(Finding(name, 1, "", "", Severity.WARNING,
                                    "the file has a header and no rows"))
        typed[name] = frame
    return typed, findings


def unusable(findings: list[Finding], *files: str) -> bool:
    """DESIGN.md Outputs (validation) — whether any of ``files`` could not be read at all: an
    error about the whole file or its header (line 1), not about a row (its rows are then not
    used: the steps that need the file do not run)."""
    return any(f.severity is Severity.ERROR and f.file in files and f.line in (None, 1)
               for f in findings)


def has_errors(findings: list[Finding], *files: str) -> bool:
    """DESIGN.md Outputs (validation) — whether any of ``files`` has an error finding (the steps
    that read it do not run)."""
    return any(f.severity is Severity.ERROR and f.file in files for f in findings)


@dataclass(frozen=True)
class ReadLimits:
    """How large one input file may be as it is read: event.toml's ``[limits]`` as the event's
    kind applies them to that file (:func:`transforms.kinds.read_limits`)."""

    rows: int = InputLimits.rows
    """Data rows after the header: reading stops past them."""
    file_bytes: int = InputLimits.file_bytes
    """Bytes of the file: a larger one is not read."""
    cell_chars: int = InputLimits.cell_chars
    """Characters of one cell: a row with a longer one is set aside."""
    rows_key: str = "rows"
    """The ``[limits]`` key that sets ``rows`` (players.csv: ``players_per_category``)."""
    rows_held: str = ""
    """Why ``rows`` is what it is when ``rows_key`` is not ``rows`` ("its 2 categories hold at
    [limits] players_per_category = 5,000 each")."""


LIMIT_COLUMN = "limits."
"""How a whole-file limit's validation row names its column: the ``[limits]`` key
(``limits.rows``), which :func:`past_limit` looks for."""


def _raise_it(key: str, when: str = "the file is right") -> str:
    return f"if {when}, raise {key} in event.toml's [limits] table"


def file_too_large(file: str, size: int, limits: ReadLimits) -> Finding:
    """DESIGN.md Inputs (every input bounded) — the validation row of a file larger than
    ``[limits] file_bytes``: it is not read, and nothing of it is used."""
    return Finding(file, None, f"{LIMIT_COLUMN}file_bytes", f"{size:,} bytes", Severity.ERROR,
                   f"the file is {size:,} bytes, more than [limits] file_bytes = "
                   f"{limits.file_bytes:,}: it is not read, and none of its rows is used "
                   f"({_raise_it('file_bytes')})")


def too_many_rows(file: str, limits: ReadLimits) -> Finding:
    """DESIGN.md Inputs (every input bounded) — the validation row of a file with more rows
    than its limit (``[limits] rows``; players.csv: ``players_per_category`` for each
    category): reading stopped there, and none of its rows is used.

    Decision: none rather than the first rows up to the limit: a file that long is not the
    event's (a whole rating list exported by mistake), and its first rows are no more the
    event's than the others."""
    held = limits.rows_held or f"[limits] rows = {limits.rows:,}"
    guess = " (a whole rating list exported by mistake?)" if limits.rows_key != "rows" else ""
    return Finding(file, None, f"{LIMIT_COLUMN}{limits.rows_key}", f"more than {limits.rows:,} rows",
                   Severity.ERROR,
                   f"the file has more than {limits.rows:,} rows, more than {held}{guess}: "
                   f"reading stopped there, and none of its rows is used "
                   f"({_raise_it(limits.rows_key)})")


def cell_too_long(file: str, line: int, column: str, value: str, limits: ReadLimits) -> Finding:
    """DESIGN.md Inputs (every input bounded) — the validation row of a cell longer than
    ``[limits] cell_chars``: its row is set aside (the value shown is its beginning)."""
    start = visible(value[:60]) + ("…" if len(value) > 60 else "")
    return Finding(file, line, column, f"{start} ({len(value):,} characters)", Severity.ERROR,
                   f"a cell of {len(value):,} characters, more than [limits] cell_chars = "
                   f"{limits.cell_chars:,}: the row is set aside ({_raise_it('cell_chars', 'the value is right')})")


def cell_past_reader(file: str, line: int, limits: ReadLimits) -> Finding:
    """DESIGN.md Inputs (every input bounded) — the validation row of a cell longer than the
    CSV reader reads at all (:data:`~transforms.core.config.CSV_FIELD_LIMIT`): its row is set
    aside."""
    return Finding(file, line, "", "", Severity.ERROR,
                   f"a cell of more than {CSV_FIELD_LIMIT:,} characters, more than [limits] "
                   f"cell_chars = {limits.cell_chars:,}: the row is set aside")


def past_limit(findings: list[Finding], *files: str) -> Finding | None:
    """DESIGN.md Inputs (every input bounded) — the first finding that one of ``files`` is
    past a limit of ``[limits]`` as a whole (too large, too many rows, too many players in a
    category), or None."""
    return next((f for f in findings if f.severity is Severity.ERROR and f.file in files
                 and f.line is None and f.column.startswith(LIMIT_COLUMN)), None)


def limit_said(findings: list[Finding], *files: str, then: str = "nothing else is computed") -> str:
    """DESIGN.md Inputs (every input bounded) — why a run stops at one of ``files`` when it is
    past a limit of ``[limits]`` (the file, the limit and how to raise it: what the office's
    console line and held page say, ``then`` what waits), or "" when none is."""
    f = past_limit(findings, *files)
    if f is None:
        return ""
    return f"{f.file}: {f.reason}; {then}."


def crowded_categories(players: pl.DataFrame, categories: Iterable[str], limit: int,
                       file: str = "players.csv") -> list[Finding]:
    """DESIGN.md Inputs (every input bounded) — a category with more players than ``[limits]
    players_per_category``: one error each (no row of it is at fault; the event is not paired
    or published until it is corrected or the limit raised)."""
    counts = dict(players.group_by("section").len().iter_rows()) if players.height else {}
    return [Finding(file, None, f"{LIMIT_COLUMN}players_per_category", f"{cat}: {counts[cat]:,} players",
                    Severity.ERROR,
                    f"category {cat!r} has {counts[cat]:,} players, more than [limits] "
                    f"players_per_category = {limit:,}: it is not paired or published "
                    f"({_raise_it('players_per_category', 'the event really is this large')})")
            for cat in categories if counts.get(cat, 0) > limit]


def _values(enum: type[Enum]) -> frozenset[str]:
    return frozenset(m.value for m in enum)


RESULT_CODES = _values(ResultCode)


def normalise_results(raw: pl.DataFrame, column: str = "result") -> pl.DataFrame:
    """DESIGN.md Inputs — map accepted result spellings onto the canonical codes before casting."""
    if column not in raw.columns:
        return raw
    s = pl.col(column).str.strip_chars()
    return raw.with_columns(s.replace(RESULT_SPELLINGS).alias(column))


def code_list(codes: Iterable[str]) -> list[str]:
    """DESIGN.md Inputs (the input reference) — codes as the reference quotes them (Markdown
    code spans)."""
    return [f"`{c}`" for c in codes]


RESULTS = Vocabulary.of(ResultCode, RESULT_SPELLINGS)
"""Every result code of results.csv and its other spellings."""
GAME_RESULT_CODES = Vocabulary.of(ResultCode, RESULT_SPELLINGS, only=GAME_RESULTS)
"""The results of a game between two players (games.csv: no byes)."""
BYE_KINDS = Vocabulary.of(ResultCode, RESULT_SPELLINGS, only=(ResultCode.HPB, ResultCode.ZPB))
"""The byes a player may request (bye_requests.csv ``kind``)."""
GENDERS = Vocabulary.of(Gender, GENDER_WORDINGS)
TITLES = Vocabulary.of(Title, TITLE_WORDINGS)

FIDE_ID = (r"^[0-9]{1,10}$", "not a FIDE ID (digits only, e.g. 25000101)")
"""players.csv ``fide_id``: FIDE's ids are numbers (TRF columns 58-68)."""
FEDERATION = (r"^[A-Za-z]{3}$", "not a FIDE federation code (three letters, e.g. IND)")
"""players.csv ``federation``: FIDE's three-letter codes (TRF columns 54-56)."""




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

import polars as pl

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
"""Line breaks and other control characters: not part of any one-line value."""


_POLARS = {
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

    @classmethod
    def of(cls, enum: type[Enum], wordings: Mapping | None = None, *,
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
    for c in header:
        if c not in known and not schema.allow_extra:
            findings.append(Finding(f, 1, c, c, Severity.WARNING,
                                    f"unknown column {c!r}: its cells are not read (the columns of "
                                    f"{f}: {', '.join(known)})"))
    for c in schema.columns:
        if c.required and c.name not in header:
            findings.append(Finding(f, 1, c.name, "", Severity.ERROR,
                                    f"required column {c.name!r} is missing from the header: the "
                                    "file's rows are not used until it is added"))
    dups = [c for c in header if header.count(c) > 1]
    for c in sorted(set(dups)):
        findings.append(Finding(f, 1, c, c, Severity.ERROR, "column appears twice in the header"))
    typed_schema = {"line": pl.Int64, **{c.name: _POLARS[c.type] for c in schema.columns}}
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
        keyed = typed.with_row_index("_i").filter(
            pl.all_horizontal(pl.col(k).is_not_null() for k in schema.key))
        dup = keyed.filter(pl.struct(schema.key).is_duplicated())
        first_line = dup.group_by(schema.key).agg(pl.col("line").min().alias("_first"))
        dup = dup.join(first_line, on=list(schema.key)).filter(pl.col("line") != pl.col("_first"))
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


def _values(enum) -> frozenset[str]:
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




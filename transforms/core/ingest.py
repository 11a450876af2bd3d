"""Input schemas and the casting of raw string frames into typed frames.

Flows read every CSV with all columns as strings (plus a ``line`` column: the 1-based
physical line, header = line 1) and hand the raw frame here. Casting never stops at the
first bad value: every bad cell becomes a :class:`Finding` naming file, line, column,
value and reason, and rows with an error are set aside (they stay in validation.csv).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum

import polars as pl

from transforms.core.errors import Finding, Severity
from transforms.core.model import GAME_RESULTS, MONEY, RESULT_SPELLINGS, ResultCode, Stage, Title
from transforms.golden_knights.rules import Channel, OverrideKind
from transforms.national_junior.entries import EntryType


class ColType(StrEnum):
    """Value types of input columns (DESIGN.md, Inputs: common conventions)."""

    STR = "text"
    INT = "integer"
    FLOAT = "number"
    MONEY = "amount (at most two decimals)"
    DATE = "date YYYY-MM-DD"
    DATETIME = "datetime YYYY-MM-DDTHH:MM"
    BOOL = "boolean true/false"


_POLARS = {
    ColType.STR: pl.String, ColType.INT: pl.Int64, ColType.FLOAT: pl.Float64,
    ColType.MONEY: MONEY, ColType.DATE: pl.Date, ColType.DATETIME: pl.Datetime("us"),
    ColType.BOOL: pl.Boolean,
}
_BOOLS = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}


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
    """For text columns: the closed set of values (case-sensitive after stripping)."""
    minimum: float | None = None
    maximum: float | None = None


@dataclass(frozen=True)
class Schema:
    """The columns of one input file and its key."""

    file: str
    columns: tuple[Column, ...]
    key: tuple[str, ...] = ()
    """Columns whose combination must be unique (duplicate ids are errors)."""
    allow_extra: bool = False

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)


def _cast_expr(col: Column) -> pl.Expr:
    s = pl.col(col.name).str.strip_chars()
    s = pl.when(s == "").then(None).otherwise(s)
    match col.type:
        case ColType.STR:
            return s
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
            return s.str.to_lowercase().replace_strict(_BOOLS, default=None, return_dtype=pl.Boolean)
    raise AssertionError(col.type)


def cast_frame(raw: pl.DataFrame, schema: Schema) -> tuple[pl.DataFrame, list[Finding]]:
    """DESIGN.md Inputs — cast a raw all-string frame to ``schema``, reporting every bad cell.

    Returns the typed frame of the rows without errors (with ``line``) and the findings.
    Decision: a header problem (missing required column, unknown column) is one error on
    line 1 and no rows are used, since columns can't be trusted.
    """
    f = schema.file
    findings: list[Finding] = []
    header = [c for c in raw.columns if c != "line"]
    known = {c.name for c in schema.columns}
    for c in header:
        if c not in known and not schema.allow_extra:
            findings.append(Finding(f, 1, c, c, Severity.ERROR,
                                    f"unknown column (expected: {', '.join(sorted(known))})"))
    for c in schema.columns:
        if c.required and c.name not in header:
            findings.append(Finding(f, 1, c.name, "", Severity.ERROR, "required column is missing"))
    dups = [c for c in header if header.count(c) > 1]
    for c in sorted(set(dups)):
        findings.append(Finding(f, 1, c, c, Severity.ERROR, "column appears twice in the header"))
    typed_schema = {"line": pl.Int64, **{c.name: _POLARS[c.type] for c in schema.columns}}
    if findings:
        return pl.DataFrame(schema=typed_schema), findings

    raw = raw.with_columns([pl.lit(None, pl.String).alias(c.name)
                            for c in schema.columns if c.name not in header])
    exprs = [_cast_expr(c).alias(c.name) for c in schema.columns]
    typed = raw.select(pl.col("line").cast(pl.Int64), *exprs)
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
        if c.type is not ColType.STR:
            report(present & tcol.is_null(), c, f"not a valid {c.type.value}")
        if c.nonempty:
            report(~present.fill_null(False), c, "a value is required")
        if c.allowed is not None:
            report(present & ~tcol.is_in(sorted(c.allowed)), c,
                   f"not one of: {', '.join(sorted(c.allowed))}")
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
        typed[name] = frame
    return typed, findings


def has_errors(findings: list[Finding], *files: str) -> bool:
    """DESIGN.md Outputs (validation) — whether any of ``files`` has an error finding (the steps
    that read it do not run)."""
    return any(f.severity is Severity.ERROR and f.file in files for f in findings)


def _b(*vals: str) -> frozenset[str]:
    return frozenset(vals)


def _values(enum) -> frozenset[str]:
    return frozenset(m.value for m in enum)


RESULT_CODES = _values(ResultCode)


def normalise_results(raw: pl.DataFrame, column: str = "result") -> pl.DataFrame:
    """DESIGN.md Inputs — map accepted result spellings onto the canonical codes before casting."""
    if column not in raw.columns:
        return raw
    s = pl.col(column).str.strip_chars()
    return raw.with_columns(s.replace(RESULT_SPELLINGS).alias(column))


ENTRY_TYPES = _values(EntryType)

SWISS_SCHEMAS = {
    "players.csv": Schema("players.csv", (
        Column("player_id", nonempty=True), Column("name", nonempty=True),
        Column("section", nonempty=True), Column("gender", allowed=_b("M", "F"), nonempty=True),
        Column("birth_date", ColType.DATE, nonempty=True),
        Column("nationality", nonempty=True), Column("state", required=False),
        Column("fide_id", required=False), Column("rating", ColType.INT, minimum=0, maximum=3500),
        Column("title", required=False,
               allowed=_values(Title)),
        Column("entry_type", allowed=ENTRY_TYPES, nonempty=True),
        Column("seed_reason", required=False),
        Column("registered_at", ColType.DATETIME, nonempty=True),
        Column("fee_paid", ColType.MONEY, minimum=0),
        Column("aicf_registered", ColType.BOOL, nonempty=True),
        Column("email", required=False),
        Column("start_no", ColType.INT, required=False, minimum=1),
    ), key=("player_id",)),
    "associations.csv": Schema("associations.csv", (
        Column("state", nonempty=True), Column("name", nonempty=True),
        Column("arrears_cleared", ColType.BOOL, nonempty=True), Column("email", required=False),
    ), key=("state",)),
    "results.csv": Schema("results.csv", (
        Column("round", ColType.INT, nonempty=True, minimum=1),
        Column("board", ColType.INT, nonempty=True, minimum=1),
        Column("white_id", nonempty=True), Column("black_id"),
        Column("result", allowed=RESULT_CODES),
        Column("moves", ColType.INT, required=False, minimum=0, maximum=1000),
        Column("draw_consent", ColType.BOOL, required=False),
    )),
    "withdrawals.csv": Schema("withdrawals.csv", (
        Column("player_id", nonempty=True), Column("from_round", ColType.INT, nonempty=True, minimum=1),
        Column("reason", required=False),
    ), key=("player_id",)),
    "bye_requests.csv": Schema("bye_requests.csv", (
        Column("player_id", nonempty=True), Column("round", ColType.INT, nonempty=True, minimum=1),
        Column("kind", allowed=_b("HPB", "ZPB"), nonempty=True),
    ), key=("player_id", "round")),
}
SWISS_REQUIRED = ("players.csv", "associations.csv")

STAGES = _values(Stage)
_ENTRIES = Schema("entries.csv", (
    Column("entry_id", nonempty=True), Column("member_id", nonempty=True),
    Column("received", ColType.DATE, nonempty=True),
    Column("channel", allowed=_values(Channel), nonempty=True),
    Column("fee_paid", ColType.MONEY, minimum=0),
), key=("entry_id",))
GK_SCHEMAS = {
    "members.csv": Schema("members.csv", (
        Column("member_id", nonempty=True), Column("name", nonempty=True),
        Column("email", required=False), Column("membership_expires", ColType.DATE, nonempty=True),
        Column("country", nonempty=True), Column("region", required=False),
        Column("apo_fpo", ColType.BOOL, nonempty=True),
        Column("rating", ColType.INT, minimum=0, maximum=3500),
    ), key=("member_id",)),
    "entries.csv": _ENTRIES,
    "sections.csv": Schema("sections.csv", (
        Column("stage", allowed=STAGES, nonempty=True), Column("section", nonempty=True),
        Column("entry_id", nonempty=True),
    ), key=("stage", "entry_id")),
    "games.csv": Schema("games.csv", (
        Column("stage", allowed=STAGES, nonempty=True), Column("section", nonempty=True),
        Column("white", nonempty=True), Column("black", nonempty=True),
        Column("result", allowed=frozenset(c.value for c in GAME_RESULTS)),
        Column("ended", ColType.DATE, required=False),
    ), key=("stage", "section", "white", "black")),
    "time_oversteps.csv": Schema("time_oversteps.csv", (
        Column("stage", allowed=STAGES, nonempty=True), Column("section", nonempty=True),
        Column("entry_id", nonempty=True), Column("opponent", nonempty=True),
        Column("reported", ColType.DATE, nonempty=True),
    )),
    "overrides.csv": Schema("overrides.csv", (
        Column("kind", nonempty=True,
               allowed=_values(OverrideKind)),
        Column("stage", required=False), Column("section", required=False),
        Column("entry_id", nonempty=True), Column("opponent", required=False),
        Column("value", required=False), Column("note", required=False),
    )),
    "carried_in.csv": dataclasses.replace(_ENTRIES, file="carried_in.csv"),
}
"""``overrides.csv``: the director's decisions (GK rule 7), which win over computed results.
``carried_in.csv``: last year's ``carried_forward.csv`` (GK rule 9), read by this year's run."""
GK_REQUIRED = ("members.csv", "entries.csv")

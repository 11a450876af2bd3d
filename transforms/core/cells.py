"""A text cell as a spreadsheet could take it (OWASP "CSV Injection"): the mark every CSV
output puts before a cell that could start a formula, and the value given back from a cell
so marked — for the writers of CSV outputs (:func:`flows.io.csv_text`) and for the readers of
a CSV the run wrote and the office copied back into its inputs (a Golden Knights proposal,
the delivery ledger)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (polars is loaded by the expressions' callers: `chessfed pair` reads no frame)
    import polars as pl

FORMULA_TRIGGERS = "=+-@\t\r\n\uff1d\uff0b\uff0d\uff20"
"""The characters a spreadsheet may start a formula with (OWASP "CSV Injection": ``=``, ``+``,
``-``, ``@``, TAB, CR; LF; and the full-width ``＝ ＋ － ＠`` an IME types)."""
_SPACE = " \t\n\r\x0b\x0c\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
"""Unicode White_Space, spelled out so that Python's ``re`` and polars' regex mean the same."""
FORMULA_START = f"^'*[{_SPACE}]*[=+\\-@\t\r\n\uff1d\uff0b\uff0d\uff20]"
"""A cell that a spreadsheet could read as a formula: a trigger first, also after leading
white space — or after apostrophes (so that the mark :func:`neutral_cell` adds can be told from
one the value had: :func:`original_cell`)."""
PLAIN_NUMBER = r"[+-]?[0-9]+(?:\.[0-9]+)?"
"""A number as the outputs write it (``-12``, ``+3.5``): read by a spreadsheet as that number."""


def neutral_cell(value: str) -> str:
    """DESIGN.md Outputs (CSV, the machine-readable contract; OWASP "CSV Injection") — one text cell as
    a CSV output writes it: a leading apostrophe
    when it could start a formula (:data:`FORMULA_START`), else as it is.

    Decision: a plain number (:data:`PLAIN_NUMBER`, e.g. ``-12``, ``+3.5``) is left as it is:
    a spreadsheet reads it as that number, not a formula, and the CSV outputs are the contract
    other programs read (rating changes are negative numbers). A value that already starts
    with apostrophes before a trigger (``'=x``) gets one more, so that :func:`original_cell`
    gives back every value exactly."""
    if re.match(FORMULA_START, value) and not re.fullmatch(PLAIN_NUMBER, value):
        return "'" + value
    return value


def original_cell(value: str) -> str:
    """DESIGN.md Outputs (CSV; OWASP "CSV Injection") — the value :func:`neutral_cell` was
    given, from what it wrote (for a reader of a CSV the
    run wrote: the delivery ledger, a Golden Knights proposal copied into the inputs)."""
    rest = value[1:]
    return rest if value.startswith("'") and neutral_cell(rest) != rest else value


def neutral_text(cell: pl.Expr) -> pl.Expr:
    """DESIGN.md Outputs (CSV; OWASP "CSV Injection") — :func:`neutral_cell` of every value of
    a String expression, vectorised (nulls stay)."""
    import polars as pl

    formula = cell.str.contains(FORMULA_START) & ~cell.str.contains(f"^{PLAIN_NUMBER}$")
    return pl.when(formula).then(pl.lit("'") + cell).otherwise(cell)


def original_text(cell: pl.Expr) -> pl.Expr:
    """DESIGN.md Outputs (CSV; OWASP "CSV Injection") — :func:`original_cell` of every value
    of a String expression, vectorised."""
    import polars as pl

    rest = cell.str.slice(1)
    marked = cell.str.starts_with("'") & rest.str.contains(FORMULA_START) \
        & ~rest.str.contains(f"^{PLAIN_NUMBER}$")
    return pl.when(marked).then(rest).otherwise(cell)

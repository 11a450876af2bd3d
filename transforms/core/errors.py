"""The one small error hierarchy of chessfed, and the validation finding record."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    """How bad a validation finding is."""

    ERROR = "error"
    """The row cannot be used; steps that depend on this file do not run."""
    WARNING = "warning"
    """The row is used, but a person should look at it."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One row of ``validation.csv``: where the problem is and why."""

    file: str
    """The input file name, relative to the event folder."""
    line: int | None
    """1-based physical line in the file (the header is line 1), or None for whole-file findings."""
    column: str
    """The column (or config key) at fault, empty when the whole row is at fault."""
    value: str
    """The offending value exactly as read; where the reader cleaned a cell, with each
    character it took out written as its code point (``Ann[U+2028]Lee``); for a whole-file
    limit, what was found (``more than 5,000 rows``)."""
    severity: Severity
    reason: str
    """A sentence a person can act on."""

    def as_row(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "value": self.value,
            "severity": str(self.severity),
            "reason": self.reason,
        }


class ChessfedError(ValueError):
    """Base of every error chessfed raises on purpose."""


class InputError(ChessfedError):
    """A bad value in an input file, located to file, line and column."""

    def __init__(self, file: str, line: int | None, column: str, value: str, reason: str):
        self.file, self.line, self.column, self.value, self.reason = file, line, column, value, reason
        where = f"{file}:{line}" if line is not None else file
        super().__init__(f"{where}: column {column!r}: {value!r}: {reason}")

    def finding(self) -> Finding:
        return Finding(self.file, self.line, self.column, self.value, Severity.ERROR, self.reason)


class ConfigError(ChessfedError):
    """A bad or missing key in ``event.toml``."""

    def __init__(self, file: str, key: str, reason: str):
        self.file, self.key, self.reason = file, key, reason
        super().__init__(f"{file}: [{key}]: {reason}")


class NoValidPairing(ChessfedError):
    """No pairing satisfies the absolute criteria (FIDE C.04.3 C1-C3)."""

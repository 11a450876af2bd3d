"""Chess terms as types, and the scorecard: the core data model.

The scorecard is a long frame with one row per player per round (DESIGN.md). Scores,
tie-breaks, crosstables, TRF export and prize eligibility are all derived from it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import polars as pl


class Colour(StrEnum):
    """The colour a player had (or was assigned) in a round."""

    WHITE = "w"
    BLACK = "b"

    @property
    def other(self) -> Colour:
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE


class Kind(StrEnum):
    """What happened to a player in one round (scorecard column ``kind``)."""

    PLAYED = "played"
    """A game over the board, whatever its result."""
    FORFEIT_WIN = "forfeit_win"
    """The opponent did not play: a win without a game (TRF ``+``)."""
    FORFEIT_LOSS = "forfeit_loss"
    """The player did not play against a paired opponent (TRF ``-``); both sides of a double
    forfeit are forfeit losses."""
    PAB = "PAB"
    """Pairing-allocated bye (TRF ``U``)."""
    FPB = "FPB"
    """Full-point bye, e.g. requested or awarded (TRF ``F``)."""
    HPB = "HPB"
    """Half-point bye, requested (TRF ``H``)."""
    ZPB = "ZPB"
    """Zero-point bye, requested (TRF ``Z``)."""
    ABSENT = "absent"
    """Not paired and not given a bye: absent or withdrawn (TRF blank or ``Z``/``-``)."""

    @property
    def is_played(self) -> bool:
        """Over-the-board games only; FIDE C.04.1 and C.07 treat forfeits as unplayed."""
        return self is Kind.PLAYED




class ResultCode(StrEnum):
    """Result codes accepted in results.csv / games.csv (white's view first)."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    WHITE_FORFEIT_WIN = "+/-"
    BLACK_FORFEIT_WIN = "-/+"
    DOUBLE_FORFEIT = "-/-"
    PAB = "PAB"
    FPB = "FPB"
    HPB = "HPB"
    ZPB = "ZPB"

    @property
    def is_bye(self) -> bool:
        return self in (ResultCode.PAB, ResultCode.FPB, ResultCode.HPB, ResultCode.ZPB)


class DutchEdition(StrEnum):
    """Which text of FIDE C.04.3 (the Dutch system) pairs a round (TRF ``092``/``192``,
    event.toml ``swiss.dutch_edition``, ``chessfed pair --edition``)."""

    RULES_2017 = "2017"
    """C.04.3 as in force until 31 January 2026."""
    RULES_2025 = "2025"
    """C.04.3 in force from 1 February 2026."""

    @classmethod
    def of(cls, value: DutchEdition | str) -> DutchEdition:
        """The edition named by ``value``; a ValueError quoting it otherwise."""
        try:
            return cls(value)
        except ValueError:
            known = " or ".join(repr(m.value) for m in cls)
            raise ValueError(f"unknown Dutch edition {value!r}: expected {known}") from None


class Stage(StrEnum):
    """Golden Knights stages (GK rule 2)."""

    PRELIMINARY = "preliminary"
    SEMIFINAL = "semifinal"
    FINAL = "final"


SCORECARD_COLUMNS = ("round", "sno", "opponent", "colour", "points", "kind")
"""Scorecard columns, in order (types: ``SCORECARD_SCHEMA``). ``sno``/``opponent`` are start
numbers within one section (opponent null for byes and absences); ``colour`` is ``w``/``b`` as paired (kept for forfeits, so a TRF round
trip is lossless; null for byes); ``points`` is what the round scored for the standings;
``kind`` is a :class:`Kind` value. Exactly one row per (sno, round) for every round so far."""


def __getattr__(name: str):
    """``SCORECARD_SCHEMA`` (column → polars type) is built on first use, so that the
    pairing engine's command line starts without loading polars."""
    if name == "SCORECARD_SCHEMA":
        import polars as pl

        schema: dict[str, pl.DataType] = {
            "round": pl.Int32(), "sno": pl.Int32(), "opponent": pl.Int32(),
            "colour": pl.String(), "points": pl.Float64(), "kind": pl.String(),
        }
        globals()[name] = schema
        return schema
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

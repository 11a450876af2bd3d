"""Chess terms as types, and the scorecard: the core data model.

The scorecard is a long frame with one row per player per round (DESIGN.md). Scores,
tie-breaks, crosstables, TRF export and prize eligibility are all derived from it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import polars as pl

    MONEY: pl.Decimal
    SCORECARD_SCHEMA: dict[str, pl.DataType]
    # (both built on first use by the module's __getattr__ below)


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
    """Result codes of results.csv / games.csv, white's view first (DESIGN.md Inputs)."""

    WHITE_WINS = "1-0"
    """White won over the board."""
    BLACK_WINS = "0-1"
    """Black won over the board."""
    DRAW = "1/2-1/2"
    """Drawn over the board."""
    WHITE_FORFEIT_WIN = "+/-"
    """White won by forfeit: Black did not play (no game, FIDE C.04.1)."""
    BLACK_FORFEIT_WIN = "-/+"
    """Black won by forfeit."""
    DOUBLE_FORFEIT = "-/-"
    """Neither played: a forfeit loss for both."""
    PAB = "PAB"
    """Pairing-allocated bye (no opponent)."""
    FPB = "FPB"
    """Full-point bye (no opponent)."""
    HPB = "HPB"
    """Half-point bye, requested (no opponent)."""
    ZPB = "ZPB"
    """Zero-point bye, requested (no opponent)."""

    @property
    def is_bye(self) -> bool:
        """A bye: the row has no opponent."""
        return self in (ResultCode.PAB, ResultCode.FPB, ResultCode.HPB, ResultCode.ZPB)

    @property
    def white(self) -> Side:
        """What the result gives White (the player of a bye row): points and kind.

        The PAB's points are the event's (``swiss.pab_points``); 1 is FIDE's default."""
        return _SIDES[self][0]

    @property
    def black(self) -> Side | None:
        """What the result gives Black; None for a bye (no opponent)."""
        return _SIDES[self][1]

    @property
    def reversed(self) -> ResultCode:
        """The same game from the other side (GK overrides are given from the entry's side)."""
        return _REVERSED.get(self, self)

    @classmethod
    def parse(cls, text: str | None) -> ResultCode | None:
        """The code a cell means (any spelling of :data:`RESULT_SPELLINGS`), None if empty."""
        t = (text or "").strip()
        if not t:
            return None
        return cls(RESULT_SPELLINGS.get(t, t))


class Side(NamedTuple):
    """One player's side of a result."""

    points: float
    kind: Kind


_SIDES: dict[ResultCode, tuple[Side, Side | None]] = {
    ResultCode.WHITE_WINS: (Side(1.0, Kind.PLAYED), Side(0.0, Kind.PLAYED)),
    ResultCode.BLACK_WINS: (Side(0.0, Kind.PLAYED), Side(1.0, Kind.PLAYED)),
    ResultCode.DRAW: (Side(0.5, Kind.PLAYED), Side(0.5, Kind.PLAYED)),
    ResultCode.WHITE_FORFEIT_WIN: (Side(1.0, Kind.FORFEIT_WIN), Side(0.0, Kind.FORFEIT_LOSS)),
    ResultCode.BLACK_FORFEIT_WIN: (Side(0.0, Kind.FORFEIT_LOSS), Side(1.0, Kind.FORFEIT_WIN)),
    ResultCode.DOUBLE_FORFEIT: (Side(0.0, Kind.FORFEIT_LOSS), Side(0.0, Kind.FORFEIT_LOSS)),
    ResultCode.PAB: (Side(1.0, Kind.PAB), None),
    ResultCode.FPB: (Side(1.0, Kind.FPB), None),
    ResultCode.HPB: (Side(0.5, Kind.HPB), None),
    ResultCode.ZPB: (Side(0.0, Kind.ZPB), None),
}
_REVERSED = {ResultCode.WHITE_WINS: ResultCode.BLACK_WINS, ResultCode.BLACK_WINS: ResultCode.WHITE_WINS,
             ResultCode.WHITE_FORFEIT_WIN: ResultCode.BLACK_FORFEIT_WIN,
             ResultCode.BLACK_FORFEIT_WIN: ResultCode.WHITE_FORFEIT_WIN}

GAME_RESULTS = frozenset(c for c in ResultCode if not c.is_bye)
"""The codes of a game between two players (games.csv has no byes)."""

RESULT_SPELLINGS: dict[str, str] = {
    "½-½": "1/2-1/2", "0.5-0.5": "1/2-1/2", "=-=": "1/2-1/2", "=": "1/2-1/2",
    "1:0": "1-0", "0:1": "0-1", "+:-": "+/-", "-:+": "-/+", "-:-": "-/-",
    "+-": "+/-", "-+": "-/+", "--": "-/-",
    "pab": "PAB", "fpb": "FPB", "hpb": "HPB", "zpb": "ZPB",
    "White wins": "1-0", "Black wins": "0-1", "Draw": "1/2-1/2",
    "White wins by forfeit": "+/-", "Black wins by forfeit": "-/+",
    "Double forfeit": "-/-", "Pairing-allocated bye": "PAB", "Full-point bye": "FPB",
    "Half-point bye": "HPB", "Zero-point bye": "ZPB",
}
"""Other spellings accepted for the result codes (DESIGN.md: ``½-½`` accepted), as offices and
other programs write them, and the codes in words (FIDE's names of the byes)."""


class Title(StrEnum):
    """FIDE titles (players.csv ``title``, TRF columns 11-13), in the order FIDE C.04.2 A.2
    uses for the initial ranking of players with equal ratings."""

    GM = "GM"
    """Grandmaster. NJ 2024: "All GMs / IMs are seeded in Open Section"."""
    IM = "IM"
    """International Master (seeded in the Open section, as GMs)."""
    WGM = "WGM"
    """Woman Grandmaster. NJ 2024: "all WGMs / WIMs are seeded in Girls Section"."""
    FM = "FM"
    """FIDE Master."""
    WIM = "WIM"
    """Woman International Master (seeded in the Girls section, as WGMs)."""
    CM = "CM"
    """Candidate Master."""
    WFM = "WFM"
    """Woman FIDE Master."""
    WCM = "WCM"
    """Woman Candidate Master."""

    @property
    def order(self) -> int:
        """0 for GM, 1 for IM, ...: the title's place in the initial ranking."""
        return list(Title).index(self)


TITLE_WORDINGS: dict[Title, tuple[str, ...]] = {
    Title.GM: ("Grandmaster",), Title.IM: ("International Master",),
    Title.WGM: ("Woman Grandmaster",), Title.FM: ("FIDE Master",),
    Title.WIM: ("Woman International Master",), Title.CM: ("Candidate Master",),
    Title.WFM: ("Woman FIDE Master",), Title.WCM: ("Woman Candidate Master",),
}
"""The titles in words, as FIDE names them (players.csv ``title`` accepts either)."""


class DutchEdition(StrEnum):
    """Which text of FIDE C.04.3 (the Dutch system) pairs a round (TRF ``092``/``192``,
    event.toml ``swiss.dutch_edition``, ``chessfed pair --edition``)."""

    RULES_2017 = "2017"
    """C.04.3 as in force until 30 June 2025."""
    RULES_2025 = "2025"
    """C.04.3 as revised in 2024, in force from 1 July 2025."""

    @classmethod
    def of(cls, value: DutchEdition | str) -> DutchEdition:
        """The edition named by ``value``; a ValueError quoting it otherwise."""
        try:
            return cls(value)
        except ValueError:
            known = " or ".join(repr(m.value) for m in cls)
            raise ValueError(f"unknown Dutch edition {value!r}: expected {known}") from None

    @classmethod
    def in_force_on(cls, day: dt.date) -> DutchEdition:
        """The edition of C.04.3 in force on ``day`` (an event is paired by the rules in force
        on its first day): the 2025 rules from :data:`DUTCH_2025_IN_FORCE`, else 2017."""
        return cls.RULES_2025 if day >= DUTCH_2025_IN_FORCE else cls.RULES_2017


DUTCH_2025_IN_FORCE = dt.date(2025, 7, 1)
"""The first day of C.04.3 as revised in 2024 (chessfed's 2025 rules).

SOURCE: FIDE Handbook, "C.04.3 FIDE (Dutch) System (effective from 1 July 2025)": "Approved by
the Council on 13/04/2024. Applied from 1st July, 2025" (handbook.fide.com/chapter/C0403202507;
the 2017 text is "effective till 30 June 2025", chapter/C0403Till2025); FIDE news of 13 May
2024, "Updated FIDE (Dutch) System Effective from July 1, 2025"; the TEC's TRF-2026 code table
for record 192: ``FIDE_DUTCH`` is ``FIDE_DUTCH_2017`` before 1 July 2025, ``_2025`` after."""


class Acceleration(StrEnum):
    """Which acceleration method (FIDE C.04.5) adds virtual points to the pairing scores of a
    Swiss event (event.toml ``swiss.acceleration``)."""

    NONE = "none"
    """No acceleration: the pairing score is the score."""
    BAKU = "baku"
    """FIDE C.04.5.1, the Baku Acceleration Method (``transforms/fide/acceleration.py``)."""


class Gender(StrEnum):
    """A player's sex as FIDE records it (players.csv ``gender`` / ``sex``; TRF ``m``/``w``): a
    category may be for women or girls only (``female_only_categories``)."""

    MALE = "M"
    """Male."""
    FEMALE = "F"
    """Female: plays in a women's or girls' category, or in an open one."""


GENDER_WORDINGS: Mapping[Gender, tuple[str, ...]] = MappingProxyType({
    Gender.MALE: ("Male", "Boy"),
    Gender.FEMALE: ("Female", "Girl", "W"),
})
"""Other wordings of :class:`Gender` an office writes (``W``: the TRF's "w")."""


SCORECARD_COLUMNS = ("round", "sno", "opponent", "colour", "points", "kind")
"""Scorecard columns, in order (types: ``SCORECARD_SCHEMA``). ``sno``/``opponent`` are start
numbers within one section (opponent null for byes and absences); ``colour`` is ``w``/``b`` as paired (kept for forfeits, so a TRF round
trip is lossless; null for byes); ``points`` is what the round scored for the standings;
``kind`` is a :class:`Kind` value. Exactly one row per (sno, round) for every round so far."""


def __getattr__(name: str) -> object:
    """``SCORECARD_SCHEMA`` (column → polars type) and ``MONEY`` (the frame type of every amount:
    a decimal with two places, so fees, payments and prizes add up exactly) are built on first
    use, so that the pairing engine's command line starts without loading polars."""
    if name == "MONEY":
        import polars as pl

        globals()[name] = money = pl.Decimal(12, 2)
        return money
    if name == "SCORECARD_SCHEMA":
        import polars as pl

        schema: dict[str, pl.DataType] = {
            "round": pl.Int32(), "sno": pl.Int32(), "opponent": pl.Int32(),
            "colour": pl.String(), "points": pl.Float64(), "kind": pl.String(),
        }
        globals()[name] = schema
        return schema
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


EMAIL_ADDRESS = r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$"
"""DESIGN.md Inputs (email columns) — one address ``local@domain.tld``: no spaces or line
breaks, no angle brackets, commas, semicolons or quotes (so a cell can never name a second
recipient or reach another header), a domain with at least one dot. Decision: the part before
the ``@`` is ASCII (RFC 5322 ``atext`` and dots): an address with other letters there needs a
server that speaks SMTPUTF8 (RFC 6531), which the letters do not ask for, so it is an error row
of the input rather than a letter that cannot be made."""

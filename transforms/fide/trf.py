"""FIDE Tournament Report File: TRF16 and TRF-2026 (C.04 Annex 2), in and out.

The reader turns a TRF text into a :class:`Tournament`: the tournament section (``header``),
the player records and the long scorecard frame (``SCORECARD_SCHEMA``), plus what a pairing
engine needs (total rounds, initial colour, rules edition, point system, forbidden pairs,
byes requested in advance). The writer is its inverse in either format:
``parse_trf(write_trf(t)) == t``, and a file written by a pairing program or by chessfed
comes back line for line (modulo trailing whitespace), in its own order, because every line
or round entry whose canonical spelling differs from the text is kept verbatim.

TRF-2026 (approved by the FIDE Council on 12 May 2025, applied from 1 September 2025) keeps
the TRF16 player record and tournament records 012-132 and adds the records marked 2026.

| record | meaning | field |
|---|---|---|
| ``012`` | tournament name | ``name`` |
| ``022`` ``032`` ``042`` ``052`` | city, federation, start and end date (YYYY/MM/DD) | ``header`` |
| ``062`` ``072`` ``082`` | number of players, of rated players, of teams | ``header`` |
| ``092`` | type of tournament (free text); ``FIDE_DUTCH_2017`` / ``FIDE_DUTCH_2025`` name the edition | ``header.type``, ``edition`` |
| ``102`` ``112`` | chief arbiter, deputy chief arbiters (one line each) | ``header`` |
| ``122`` | allotted times per moves/game (free text) | ``header.time_control`` |
| ``132`` | dates of the rounds, YY/MM/DD in the round columns (92-99, 102-109, ...) | ``header.round_dates`` |
| ``XXR`` / ``142`` (2026) | number of rounds | ``total_rounds`` |
| ``XXC`` / ``152`` (2026) | colour of player 1 in round 1 (``white1``/``black1``, ``W``/``B``) | ``initial_colour`` |
| ``XXS`` / ``BB*`` / ``162`` (2026) | point system (JaVaFo, bbpPairings, TRF-2026) | ``scoring`` |
| ``172`` ``182`` (2026) | starting rank method, pairing controller | ``header`` |
| ``192`` (2026) | encoded tournament type (``FIDE_DUTCH_2025``, ``FIDE_DUTCH_BAKU``, ...) | ``header.encoded_type``, ``edition`` |
| ``202`` ``212`` (2026) | tie-breaks that break ties / that define the standings | ``header`` |
| ``222`` (2026) | encoded time control (``5400+30``) | ``header.time_control_code`` |
| ``XXP`` / ``260`` (2026) | forbidden pairs (all rounds / a round range) | ``forbidden_pairs`` |
| ``240`` (2026) | byes (F/H/Z) requested for a round | ``bye_requests`` |
| ``299`` (2026) | abnormal assignment points | ``abnormal_points`` |
| ``001`` | a player and the player's round entries | ``players``, ``scorecard`` |
| ``### TRF16`` / ``### TRF-2026`` | the format line chessfed writes first | ``format`` |
| anything else (``250``, ``XXA``, ``801``/``802``, team and national rating records, ``###`` comments) | kept verbatim, in order | ``other_records`` |

SOURCE: FIDE, "Format of Tournament Report File (TRF) - Version 2026", approved by the FIDE
Council on 12/05/2025, applied from 01/09/2025 (https://handbook.fide.com/files/handbook/TRF26.pdf),
as transcribed in github.com/echecsjs/trf ``SPEC.md``; TRF16 (C.04 Annex 2, 2016); JaVaFo
Advanced User Manual (``XXR``, ``XXC``, ``XXS``, ``XXP``, ``XXA``); bbpPairings (``BBW`` ...).

Decisions:
- A player's line holds the rounds it has entries for; trailing blank entries are not rounds.
  So ``scorecard`` has one row per player per round *present on that player's line* (the
  reference files give the players who are not to be paired next round their entry early).
- Result codes: ``1 = 0`` played; ``W D L`` (game of less than one move) are played games
  too; ``+``/``-`` with an opponent are forfeits (not played games); ``U`` PAB, ``F`` FPB,
  ``H`` HPB, ``Z`` ZPB; a blank result, or ``-`` with opponent ``0000``, is an absence. The
  writer spells an absence ``0000 - -`` (not paired, no points), so that the rounds a
  withdrawn player missed stay on the line and an engine reading the file does not pair him.
- The points of a round entry follow the file's point system (TRF-2026 ``162``, JaVaFo
  ``XXS``, bbpPairings ``BBW``/``BBD``/``BBL``/``BBZ``/``BBF``/``BBU``; FIDE's 1 / ½ / 0
  when there is none). ``299`` records are kept as records: they do not change the points of
  the rows (the points check counts them).
- Header values are kept as written (text): the reader does not reject a file for a bad city
  or date, :func:`transforms.fide.rating_report.check_rating_report` reports them.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypedDict

from transforms.core.errors import InputError
from transforms.core.model import Colour, DutchEdition, Kind

if TYPE_CHECKING:
    import polars as pl

# (polars is imported where a frame is built, so that ``chessfed pair`` starts fast)


class TrfFormat(StrEnum):
    """The two editions of the Tournament Report File chessfed reads and writes."""

    TRF16 = "TRF16"
    """C.04 Annex 2 as of 2016, with the JaVaFo extensions (``XXR``, ``XXC``, ``XXP``, ``XXS``)."""
    TRF_2026 = "TRF-2026"
    """The 2026 version (FIDE Council 12 May 2025, applied from 1 September 2025)."""

    @property
    def marker(self) -> str:
        """The comment line chessfed writes first, saying which format the file is."""
        if self is TrfFormat.TRF16:
            return "### TRF16: FIDE Tournament Report File, version 2016 (C.04 Annex 2)"
        return "### TRF-2026: FIDE Tournament Report File, version 2026 (C.04 Annex 2)"


_MARKER = re.compile(r"^###\s*(TRF16|TRF-2026)\b")
_TRF_2026_TAGS = frozenset({"142", "152", "162", "172", "182", "192", "202", "212", "222", "240",
                            "250", "260", "299", "300", "310", "320", "330", "352", "362", "801",
                            "802", "###"})
"""Records that exist only in TRF-2026: a file holding one of them is a TRF-2026 file."""

_RESULT_CODES = frozenset("1=0WDL+-UFHZ ")
_BYE_CODE_KIND = {"U": Kind.PAB, "F": Kind.FPB, "H": Kind.HPB, "Z": Kind.ZPB}
_KIND_BYE_CODE = {v: k for k, v in _BYE_CODE_KIND.items()}


# ----------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class PointSystem:
    """TRF-2026 ``162`` / JaVaFo ``XXS`` / bbpPairings ``BB*`` — the points each result
    scores. The default is FIDE's: 1 for a win (over the board, by forfeit, a full-point or
    pairing-allocated bye), ½ for a draw or a half-point bye, 0 otherwise."""

    win_white: float = 1.0
    win_black: float = 1.0
    draw_white: float = 0.5
    draw_black: float = 0.5
    loss_white: float = 0.0
    loss_black: float = 0.0
    forfeit_win: float = 1.0
    forfeit_loss: float = 0.0
    """Also an absence (a round without a pairing or a bye)."""
    fpb: float = 1.0
    hpb: float = 0.5
    zpb: float = 0.0
    pab: float = 1.0
    unknown: float = field(default=0.5, compare=False)
    """TRF-2026 ``162 X``: a result not known yet (an adjourned game). No round entry has it
    and ``XXS`` cannot say it, so it does not take part in comparisons."""

    def points(self, code: str, colour: str | None, *, paired: bool) -> float:
        """The points of the round entry with result ``code`` (``paired``: it has an opponent)."""
        white = colour != "b"
        if code in ("1", "W"):
            return self.win_white if white else self.win_black
        if code in ("=", "D"):
            return self.draw_white if white else self.draw_black
        if code in ("0", "L"):
            return self.loss_white if white else self.loss_black
        if code == "+":
            return self.forfeit_win if paired else self.fpb
        if code == "U":
            return self.pab
        if code == "F":
            return self.fpb
        if code == "H":
            return self.hpb
        if code == "Z":
            return self.zpb
        return self.forfeit_loss if paired else self.zpb  # "-" or blank

    def played_code(self, points: float, colour: str | None) -> str:
        """``1``, ``=`` or ``0``: the code of a played game that scored ``points``."""
        white = colour != "b"
        win, draw, loss = ((self.win_white, self.draw_white, self.loss_white) if white
                           else (self.win_black, self.draw_black, self.loss_black))
        for code, value in (("1", win), ("=", draw), ("0", loss)):
            if abs(points - value) < 1e-9:
                return code
        return "1" if points >= win else "=" if points > loss else "0"

    @property
    def in_162(self) -> bool:
        """Whether TRF-2026 ``162`` can say it (one value for W, D, L and A each)."""
        return (self.win_white == self.win_black == self.forfeit_win == self.fpb
                and self.draw_white == self.draw_black == self.hpb
                and self.loss_white == self.loss_black and self.zpb == self.forfeit_loss)


DEFAULT_POINTS = PointSystem()
"""FIDE's point system (no ``162``/``XXS`` record needed)."""

_XXS = {"WW": ("win_white",), "BW": ("win_black",), "WD": ("draw_white",),
        "BD": ("draw_black",), "WL": ("loss_white",), "BL": ("loss_black",), "ZPB": ("zpb",),
        "HPB": ("hpb",), "FPB": ("fpb",), "PAB": ("pab",), "FW": ("forfeit_win",),
        "FL": ("forfeit_loss",), "W": ("win_white", "win_black", "forfeit_win", "fpb"),
        "D": ("draw_white", "draw_black", "hpb")}
"""JaVaFo ``XXS CODE=VALUE`` codes and the results each sets."""
_162 = {"W": ("win_white", "win_black", "forfeit_win", "fpb"),
        "D": ("draw_white", "draw_black", "hpb"), "L": ("loss_white", "loss_black"),
        "A": ("zpb", "forfeit_loss"), "P": ("pab",), "X": ("unknown",)}
"""TRF-2026 ``162`` symbols (``A`` absence: zero-point bye or forfeit loss)."""
_162_READ = {**_162, "Z": _162["A"]}
"""bbpPairings 6 writes and reads ``Z`` for the absence symbol ``A``: both are read."""
_BB = {"BBW": ("win_white", "win_black", "forfeit_win", "fpb"),
       "BBD": ("draw_white", "draw_black", "hpb"), "BBL": ("loss_white", "loss_black"),
       "BBZ": ("zpb",), "BBF": ("forfeit_loss",), "BBU": ("pab",)}
"""bbpPairings' one-value records."""
_NUMBER = r"-?(?:\d+(?:\.\d*)?|\.\d+)"


@dataclass(frozen=True, slots=True)
class TrfPlayer:
    """The static part of a ``001`` record (columns 1-89)."""

    sno: int
    """Starting rank number, also the pairing number (columns 5-8)."""
    name: str
    """"Lastname, Firstname" (columns 15-47), stripped."""
    sex: str = ""
    """``m`` / ``w`` or empty (column 10)."""
    title: str = ""
    """``GM``, ``IM``, ``WGM``, ... or empty (columns 11-13)."""
    rating: int = 0
    """FIDE rating, 0 when unrated (columns 49-52)."""
    fed: str = ""
    """FIDE federation (columns 54-56)."""
    fide_id: str = ""
    """FIDE id as written (columns 58-68)."""
    birth: str = ""
    """Birth date as written, ``YYYY/MM/DD`` or a year (columns 70-79)."""
    points: float = 0.0
    """Points as written in the file (columns 81-84)."""
    rank: int = 0
    """Rank as written in the file (columns 86-89), 0 when absent."""
    raw: str | None = field(default=None, compare=False, repr=False)
    """Columns 1-89 verbatim when they differ from the canonical spelling of the fields."""


@dataclass(frozen=True, slots=True)
class ForbiddenPairs:
    """FIDE C.04.3 / TRF ``XXP`` and ``260`` — players who may not meet one another."""

    players: tuple[int, ...]
    """Every two of these players are a forbidden pair."""
    first_round: int | None = None
    """First round the restriction applies to (None: from the start, ``XXP``)."""
    last_round: int | None = None
    """Last round the restriction applies to (None: to the end, ``XXP``)."""

    def applies_to(self, round_no: int) -> bool:
        return (self.first_round is None or self.first_round <= round_no) and (
            self.last_round is None or round_no <= self.last_round
        )

    def pairs(self) -> frozenset[frozenset[int]]:
        ps = self.players
        return frozenset(
            frozenset((a, b)) for i, a in enumerate(ps) for b in ps[i + 1:] if a != b
        )


@dataclass(frozen=True, slots=True)
class ByeRequest:
    """TRF-2026 ``240`` — a bye (F/H/Z) given in advance for a round."""

    kind: str
    """``F``, ``H`` or ``Z``."""
    round: int
    players: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AbnormalPoints:
    """TRF-2026 ``299`` — points assigned other than the point system says.

    With a result type, the listed players' entries of that type (in ``round``, or in every
    round) score ``points`` instead; without players, everybody's. With no type, ``points``
    (negative: a penalty) is added to each listed player's total."""

    kind: str
    """``W`` ``D`` ``L`` ``F`` ``H`` ``Z`` ``+`` ``-``, or empty for a penalty or bonus
    (column 5)."""
    points: float
    """Points for individuals (columns 14-17)."""
    round: int | None = None
    """The round (columns 20-22); None (``000`` or empty): every round."""
    players: tuple[int, ...] = ()
    """Pairing numbers from column 24."""
    match_points: float | None = None
    """Match points (team competitions, columns 8-11)."""


@dataclass(frozen=True, slots=True)
class TrfHeader:
    """The tournament section of a TRF, values as written (stripped)."""

    city: str = ""
    """``022``."""
    federation: str = ""
    """``032`` (the FIDE code of the federation where the tournament is held)."""
    start: str = ""
    """``042`` date of start, ``YYYY/MM/DD``."""
    end: str = ""
    """``052`` date of end, ``YYYY/MM/DD``."""
    players_count: str = ""
    """``062`` number of players."""
    rated_count: str = ""
    """``072`` number of rated players."""
    teams_count: str = ""
    """``082`` number of teams (team tournaments)."""
    type: str = ""
    """``092`` type of tournament, unless it is just the code of :attr:`Tournament.edition`."""
    chief_arbiter: str = ""
    """``102``."""
    deputy_arbiters: tuple[str, ...] = ()
    """``112``, one line each."""
    time_control: str = ""
    """``122`` allotted times per moves/game, as text."""
    round_dates: tuple[str, ...] = ()
    """``132`` one ``YY/MM/DD`` per round (empty where not given)."""
    starting_rank: str = ""
    """``172`` encoded starting rank method (``IND FIDON``)."""
    pairing_controller: str = ""
    """``182`` the program or person making the pairings."""
    encoded_type: str = ""
    """``192``, unless it is just ``FIDE_DUTCH_<edition>`` of :attr:`Tournament.edition`."""
    tiebreaks: tuple[str, ...] = ()
    """``202`` FIDE tie-break codes that break ties, in order."""
    standings: tuple[str, ...] = ()
    """``212`` codes that define the standings (``PTS`` first)."""
    time_control_code: str = ""
    """``222`` encoded time control, e.g. ``5400+30``."""


_HEADER_TAGS = {"022": "city", "032": "federation", "042": "start", "052": "end",
                "062": "players_count", "072": "rated_count", "082": "teams_count",
                "102": "chief_arbiter", "122": "time_control", "172": "starting_rank",
                "182": "pairing_controller", "222": "time_control_code"}
"""The one-value text records (092 and 192 also name the edition; 112, 132, 202, 212 are lists)."""


CardRow = tuple[int, int, int | None, str | None, float, str]
"""A scorecard row as a tuple, in ``SCORECARD_COLUMNS`` order: round, sno, opponent (None for
byes and absences), colour (``w``/``b``; None for byes), points, kind (a :class:`Kind`
value)."""


class CardRecord(TypedDict):
    """A scorecard row by column name (a :data:`CardRow`; :func:`card_record`), as the round
    entries are read and written."""

    round: int
    sno: int
    opponent: int | None
    colour: str | None
    points: float
    kind: str


def card_record(r: CardRow) -> CardRecord:
    """FIDE C.04 Annex 2 — a scorecard row by column name, as a round entry is read (its
    points a float)."""
    rnd, sno, opponent, colour, points, kind = r
    return {"round": rnd, "sno": sno, "opponent": opponent, "colour": colour,
            "points": float(points), "kind": kind}


class _Where(TypedDict):
    """Where a field is read: the keyword arguments of :func:`_int_field` and
    :func:`_points_field` that name the line."""

    source: str
    lineno: int
    line: str


@dataclass(frozen=True)
class Tournament:
    """One tournament as a TRF file describes it. Equality compares every field, the
    scorecard by value (not the spelling, order or format of the text)."""

    name: str
    """``012`` tournament name."""
    players: tuple[TrfPlayer, ...]
    """In file order."""
    card_rows: tuple[CardRow, ...]
    """The scorecard: one row per player per round present on the player's line, as
    tuples in ``SCORECARD_COLUMNS`` order (:attr:`scorecard` is the same as a frame)."""
    total_rounds: int | None = None
    """``XXR`` / ``142``: rounds the tournament will have (for the last-round rules)."""
    initial_colour: Colour | None = None
    """``XXC white1|black1`` / ``152``: colour of player 1 in round 1."""
    edition: DutchEdition | None = None
    """Dutch rules edition, from ``092`` or ``192``."""
    forbidden_pairs: tuple[ForbiddenPairs, ...] = ()
    """``XXP`` and ``260`` records in file order."""
    bye_requests: tuple[ByeRequest, ...] = ()
    """TRF-2026 ``240`` records in file order."""
    other_records: tuple[str, ...] = ()
    """Every other non-``001`` line, verbatim, in file order."""
    header: TrfHeader = field(default_factory=TrfHeader)
    """The tournament section (records 022-222)."""
    scoring: PointSystem = DEFAULT_POINTS
    """The point system (``162`` / ``XXS`` / ``BB*``)."""
    abnormal_points: tuple[AbnormalPoints, ...] = ()
    """TRF-2026 ``299`` records in file order."""
    format: TrfFormat = field(default=TrfFormat.TRF16, compare=False)
    """The format the text was in (its ``###`` format line, else TRF-2026 when it holds a
    record only TRF-2026 has); :func:`write_trf` writes it unless told otherwise."""
    header_spelling: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)
    """How the file spelt the records we rebuild (key → line), to write them back verbatim."""
    entry_spelling: Mapping[tuple[int, int], str] = field(
        default_factory=dict, compare=False, repr=False
    )
    """(sno, round) → 8-character round entry, where it differs from the canonical spelling."""
    layout: tuple[str, ...] = field(default=(), compare=False, repr=False)
    """The order of the records in the text (keys of the writer), to write them back in it."""
    lines: tuple[str, ...] = field(default=(), compare=False, repr=False)
    """The text's lines as read (for quoting a line in a finding)."""
    line_of: Mapping[str, int] = field(default_factory=dict, compare=False, repr=False)
    """Record key (``"001:12"``, ``"042"``, ...) → its 1-based line number in the text."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tournament):
            return NotImplemented
        return (
            self.name == other.name
            and self.players == other.players
            and self.total_rounds == other.total_rounds
            and self.initial_colour == other.initial_colour
            and self.edition == other.edition
            and self.forbidden_pairs == other.forbidden_pairs
            and self.bye_requests == other.bye_requests
            and self.other_records == other.other_records
            and self.header == other.header
            and self.scoring == other.scoring
            and self.abnormal_points == other.abnormal_points
            and _sorted_rows(self.card_rows) == _sorted_rows(other.card_rows)
        )

    __hash__ = None  # type: ignore[assignment]

    @cached_property
    def scorecard(self) -> pl.DataFrame:
        """``SCORECARD_SCHEMA`` frame of :attr:`card_rows`."""
        import polars as pl

        from transforms.core.model import SCORECARD_SCHEMA

        if not self.card_rows:
            return pl.DataFrame(schema=SCORECARD_SCHEMA)
        return pl.DataFrame(list(self.card_rows), schema=SCORECARD_SCHEMA, orient="row")

    def players_frame(self) -> pl.DataFrame:
        """sno, name, rating, fed, title, fide_id, birth, sex, points, rank (file order)."""
        import polars as pl

        return pl.DataFrame(
            {
                "sno": [p.sno for p in self.players],
                "name": [p.name for p in self.players],
                "rating": [p.rating for p in self.players],
                "fed": [p.fed for p in self.players],
                "title": [p.title for p in self.players],
                "fide_id": [p.fide_id for p in self.players],
                "birth": [p.birth for p in self.players],
                "sex": [p.sex for p in self.players],
                "points": [p.points for p in self.players],
                "rank": [p.rank for p in self.players],
            },
            schema={"sno": pl.Int32, "name": pl.String, "rating": pl.Int32, "fed": pl.String,
                    "title": pl.String, "fide_id": pl.String, "birth": pl.String,
                    "sex": pl.String, "points": pl.Float64, "rank": pl.Int32},
        )

    def forbidden_for_round(self, round_no: int) -> frozenset[frozenset[int]]:
        """FIDE C.04.3 C.1 (forbidden pairs) — the pairs the arbiter forbade for ``round_no``."""
        out: set[frozenset[int]] = set()
        for fp in self.forbidden_pairs:
            if fp.applies_to(round_no):
                out |= fp.pairs()
        return frozenset(out)

    def pairing_of(self, round_no: int) -> set[tuple[int, int | None]]:
        """The pairing of ``round_no`` as the file records it (see :func:`recorded_pairing`)."""
        return recorded_pairing(self.card_rows, round_no)

    def before_round(self, round_no: int) -> Tournament:
        """FIDE C.04.3 — the tournament as it stood when ``round_no`` was paired: the earlier
        rounds, plus the round-``round_no`` entries of players who were not paired (requested
        byes, absences), for re-pairing a recorded round (``chessfed pair -c``).

        Decision: a player whose line has no entry for ``round_no`` (a withdrawn player's line
        ends early; trailing blank entries are not written) was absent from that round."""
        not_paired = {str(k) for k in (Kind.HPB, Kind.ZPB, Kind.FPB, Kind.ABSENT)}
        keep = [row for row in self.card_rows if row[0] < round_no or (
            row[0] == round_no and row[5] in not_paired and row[2] is None)]
        present = {row[1] for row in self.card_rows if row[0] == round_no}
        absent: list[CardRow] = [(round_no, p.sno, None, None, 0.0, str(Kind.ABSENT))
                  for p in self.players if p.sno not in present]
        return replace(self, card_rows=tuple(keep + absent))

    def requested_byes(self, round_no: int) -> dict[int, str]:
        """TRF-2026 240 — sno → ``F``/``H``/``Z`` requested for ``round_no``."""
        return {p: b.kind for b in self.bye_requests if b.round == round_no for p in b.players}

    def line(self, key: str) -> tuple[int | None, str]:
        """(line number, text) of the record ``key`` (``"001:12"``, ``"042"``) as read;
        (None, "") when the tournament was not read from a text or has no such record."""
        n = self.line_of.get(key)
        if n is None or n > len(self.lines):
            return None, ""
        return n, self.lines[n - 1]


def recorded_pairing(card_rows: Iterable[CardRow], round_no: int) -> set[tuple[int, int | None]]:
    """FIDE C.04.3 — the pairing a recorded round had, from scorecard rows
    (``SCORECARD_COLUMNS`` order): (white, black) per game, forfeits included (they were
    paired), and (sno, None) for the pairing-allocated bye."""
    out: set[tuple[int, int | None]] = set()
    for rnd, sno, opponent, colour, _points, kind in card_rows:
        if rnd != round_no:
            continue
        if kind == Kind.PAB:
            out.add((sno, None))
        elif opponent is not None and colour == "w":
            out.add((sno, opponent))
    return out


def _sorted_rows(rows: tuple[CardRow, ...]) -> list[CardRow]:
    return sorted(rows, key=lambda r: (r[1], r[0]))


# ----------------------------------------------------------------------------- reading


def _err(source: str, lineno: int, column: str, line: str, reason: str) -> InputError:
    return InputError(file=source, line=lineno, column=column, value=line, reason=reason)


def _int_field(text: str, *, source: str, lineno: int, column: str, line: str,
               default: int = 0) -> int:
    t = text.strip()
    if not t:
        return default
    if not t.isdigit():
        raise _err(source, lineno, column, line, f"{column} {t!r} is not a whole number")
    return int(t)


def _points_field(text: str, *, source: str, lineno: int, column: str, line: str) -> float:
    t = text.strip()
    if not t:
        return 0.0
    if not re.fullmatch(r"\d+(\.\d)?|\.\d", t):
        raise _err(source, lineno, column, line, f"{column} {t!r} is not a score like 11.5")
    return float(t)


def _parse_entry(raw: str, sno: int, rnd: int, *, source: str, lineno: int,
                 line: str, scoring: PointSystem = DEFAULT_POINTS) -> CardRecord:
    """One 10-column round entry (columns 92-99 for round 1) → a scorecard row."""
    col = f"round {rnd}"
    opp_t, colour_t, result_t = raw[0:4], raw[5:6] or " ", raw[7:8] or " "
    if raw[4:5] not in ("", " ") or raw[6:7] not in ("", " "):
        raise _err(source, lineno, col, line, "round entry must be 'oooo c r'")
    opp = _int_field(opp_t, source=source, lineno=lineno, column=col, line=line)
    colour = colour_t.lower()
    code = result_t.upper()
    if colour not in ("w", "b", "-", " "):
        raise _err(source, lineno, col, line, f"colour {colour_t!r} is not w, b or -")
    if code not in _RESULT_CODES:
        raise _err(source, lineno, col, line, f"result {result_t!r} is not a TRF result code")
    row: CardRecord = {"round": rnd, "sno": sno, "opponent": None, "colour": None,
                       "points": 0.0, "kind": ""}  # (kind: set on every path below)
    if code in _BYE_CODE_KIND:
        if opp not in (0, sno):
            raise _err(source, lineno, col, line, f"bye {code!r} with an opponent ({opp})")
        row["kind"] = str(_BYE_CODE_KIND[code])
        row["points"] = scoring.points(code, None, paired=False)
        return row
    if opp == 0 or opp == sno:
        if code in ("-", " "):
            row["kind"] = str(Kind.ABSENT)
            row["points"] = scoring.points(code, None, paired=False)
            return row
        if code == "+":
            row["kind"] = str(Kind.FPB)  # a forfeit win without an opponent is a full-point bye
            row["points"] = scoring.fpb
            return row
        raise _err(source, lineno, col, line, f"result {result_t!r} needs an opponent")
    if colour not in ("w", "b"):
        raise _err(source, lineno, col, line, "a paired round needs colour w or b")
    row["opponent"], row["colour"] = opp, colour
    row["points"] = scoring.points(code, colour, paired=True)
    if code == "+":
        row["kind"] = str(Kind.FORFEIT_WIN)
    elif code in ("-", " "):
        row["kind"] = str(Kind.FORFEIT_LOSS)
    else:
        row["kind"] = str(Kind.PLAYED)
    return row


def _render_entry(row: CardRecord, scoring: PointSystem = DEFAULT_POINTS) -> str:
    kind = Kind(row["kind"])
    if kind in _KIND_BYE_CODE:
        return f"0000 - {_KIND_BYE_CODE[kind]}"
    if kind is Kind.ABSENT:
        return "0000 - -"
    colour = row["colour"] or "-"
    opp = int(row["opponent"] or 0)
    if kind is Kind.FORFEIT_WIN:
        code = "+"
    elif kind is Kind.FORFEIT_LOSS:
        code = "-"
    else:
        code = scoring.played_code(float(row["points"]), row["colour"])
    return f"{opp:4d} {colour} {code}"


def _render_static(p: TrfPlayer) -> str:
    pts = f"{p.points:4.1f}"
    rank = f"{p.rank:4d}" if p.rank else "    "
    rating = f"{p.rating:4d}" if p.rating else "    "
    s = (f"001 {p.sno:4d} {p.sex:1.1}{p.title:>3.3} {p.name:<33.33} {rating} {p.fed:<3.3} "
         f"{p.fide_id:>11.11} {p.birth:<10.10} {pts} {rank}")
    return s


def _edition_of(text: str) -> DutchEdition | None:
    """The Dutch edition a ``092``/``192`` tournament type names (None: not a Dutch type)."""
    t = text.strip().upper()
    if t in ("FIDE_DUTCH_2017", "FIDE_DUTCH_2017_BAKU"):
        return DutchEdition.RULES_2017
    if t in ("FIDE_DUTCH_2025", "FIDE_DUTCH", "FIDE_DUTCH_2025_BAKU", "FIDE_DUTCH_BAKU"):
        return DutchEdition.RULES_2025
    return None


def _edition_code(edition: DutchEdition) -> str:
    return f"FIDE_DUTCH_{edition}"


def _scoring_of(lines: Iterable[tuple[int, str]], *, source: str) -> PointSystem:
    """The point system the ``162`` / ``XXS`` / ``BB*`` lines set, in file order (the last
    value of a result wins; the PAB follows ``162 W`` and ``BBW`` unless ``162 P`` or
    ``BBU`` set it, JaVaFo's ``XXS W`` leaves it; ``162 X`` follows ``162 D``)."""
    values = {f.name: getattr(DEFAULT_POINTS, f.name) for f in fields(PointSystem)}
    pab_set = unknown_set = False
    for lineno, line in lines:
        tag, rest = line[:3], line[3:]
        found: list[tuple[tuple[str, ...], float]] = []
        if tag == "162":
            body = rest.strip()
            pairs = re.findall(rf"([A-Za-z])\s*({_NUMBER})", body)
            if not pairs or re.sub(rf"[A-Za-z]\s*{_NUMBER}", "", body).strip():
                raise _err(source, lineno, "scoring", line,
                           "expected result symbols (W D L A P X) each followed by points")
            for sym, num in pairs:
                if sym.upper() not in _162_READ:
                    raise _err(source, lineno, "scoring", line,
                               f"{sym!r} is not a 162 result symbol (W D L A P X)")
                found.append((_162_READ[sym.upper()], float(num)))
        elif tag == "XXS":
            for tok in rest.split():
                m = re.fullmatch(rf"([A-Za-z]+)=({_NUMBER})", tok)
                if not m or m.group(1).upper() not in _XXS:
                    raise _err(source, lineno, "scoring", line,
                               f"{tok!r} is not CODE=VALUE with a JaVaFo XXS code")
                found.append((_XXS[m.group(1).upper()], float(m.group(2))))
        else:
            t = rest.strip()
            if not re.fullmatch(_NUMBER, t):
                raise _err(source, lineno, "scoring", line, f"{t!r} is not a number of points")
            found.append((_BB[tag], float(t)))
        for names, value in found:
            for n in names:
                values[n] = value
            pab_set |= names == ("pab",)
            unknown_set |= names == ("unknown",)
            if tag in ("162", "BBW") and "win_white" in names and not pab_set:
                values["pab"] = value  # 162: P "same as W"; bbpPairings: BBW unless BBU
            if tag == "162" and "draw_white" in names and not unknown_set:
                values["unknown"] = value  # 162: X "same as D"
    return PointSystem(**values)


def _is_scoring_line(tag: str) -> bool:
    return tag in ("162", "XXS") or tag in _BB


def _parse_299(line: str, *, source: str, lineno: int) -> AbnormalPoints:
    padded = line.ljust(22)
    kind = padded[4].strip()
    if kind and kind not in "WDLFHZ+-":
        raise _err(source, lineno, "abnormal points", line,
                   f"type {kind!r} is not W, D, L, F, H, Z, + or - (column 5)")

    def num(text: str, what: str) -> float | None:
        t = text.strip()
        if not t:
            return None
        if not re.fullmatch(_NUMBER, t):
            raise _err(source, lineno, "abnormal points", line, f"{what} {t!r} is not a number")
        return float(t)

    points = num(padded[13:17], "points (columns 14-17)")
    if points is None:
        raise _err(source, lineno, "abnormal points", line, "points missing in columns 14-17")
    rnd_t = padded[19:22].strip()
    if rnd_t and not rnd_t.isdigit():
        raise _err(source, lineno, "abnormal points", line,
                   f"round {rnd_t!r} is not a number (columns 20-22)")
    players = []
    for tok in line[23:].split():
        if not tok.isdigit():
            raise _err(source, lineno, "abnormal points", line, f"{tok!r} is not a pairing number")
        players.append(int(tok))
    return AbnormalPoints(kind=kind, points=points,
                          round=int(rnd_t) if rnd_t and int(rnd_t) else None,
                          players=tuple(players), match_points=num(padded[7:11], "match points"))


def _render_299(a: AbnormalPoints) -> str:
    mp = "    " if a.match_points is None else f"{a.match_points:4.1f}"
    head = f"299 {a.kind or ' '}  {mp}  {a.points:4.1f}  {a.round or 0:03d}"
    return (head + "".join(f" {p:4d}" for p in a.players)).rstrip()


def _round_columns(line: str) -> tuple[str, ...]:
    """The 8-character values in the round columns (92-99, 102-109, ...) of a 132 record."""
    rest = line[91:]
    n = (len(rest) + 9) // 10
    values = [rest[10 * i:10 * i + 8].strip() for i in range(n)]
    while values and not values[-1]:
        values.pop()
    return tuple(values)


def _render_132(dates: tuple[str, ...]) -> str:
    return ("132".ljust(89) + "".join(f"  {d:<8.8}" for d in dates)).rstrip()


def _codes(text: str) -> tuple[str, ...]:
    return tuple(c.strip() for c in text.split(",") if c.strip())


def parse_trf(text: str, *, source: str = "<trf>") -> Tournament:
    """FIDE C.04 Annex 2 (TRF16 and TRF-2026) — TRF text → Tournament.

    Raises :class:`InputError` at the first malformed line, quoting the whole line.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    raw_lines = text.splitlines()
    lines = [ln.rstrip() for ln in raw_lines]
    scoring_lines = [(i, ln) for i, ln in enumerate(lines, start=1) if _is_scoring_line(ln[:3])]
    scoring = _scoring_of(scoring_lines, source=source)
    name = ""
    total_rounds: int | None = None
    initial: Colour | None = None
    edition: DutchEdition | None = None
    header: dict[str, Any] = {}  # TrfHeader's fields by name
    deputies: list[str] = []
    forbidden: list[ForbiddenPairs] = []
    byes: list[ByeRequest] = []
    abnormal: list[AbnormalPoints] = []
    others: list[str] = []
    spelling: dict[str, str] = {}
    layout: list[str] = []
    line_of: dict[str, int] = {}
    players: list[TrfPlayer] = []
    rows: list[CardRecord] = []
    entry_spelling: dict[tuple[int, int], str] = {}
    seen: dict[int, int] = {}
    fmt: TrfFormat | None = None
    has_2026 = False

    def put(key: str, lineno: int, line: str) -> None:
        layout.append(key)
        line_of[key] = lineno
        spelling[key] = line

    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        tag = line[:3]
        rest = line[4:] if len(line) > 4 else ""
        if tag in _TRF_2026_TAGS:
            has_2026 = True
        if tag == "001":
            player, prow, pspell = _parse_player(line, source=source, lineno=lineno,
                                                 scoring=scoring)
            if player.sno in seen:
                raise _err(source, lineno, "start number", line,
                           f"start number {player.sno} already on line {seen[player.sno]}")
            seen[player.sno] = lineno
            players.append(player)
            rows.extend(prow)
            entry_spelling.update(pspell)
            layout.append(f"001:{player.sno}")
            line_of[f"001:{player.sno}"] = lineno
        elif tag == "###" and (marker := _MARKER.match(line)) and fmt is None:
            fmt = TrfFormat(marker.group(1))
            put("marker", lineno, line)
        elif tag == "012" and "012" not in spelling:
            name = rest.strip()
            put("012", lineno, line)
        elif tag in _HEADER_TAGS and tag not in spelling:
            header[_HEADER_TAGS[tag]] = rest.strip()
            put(tag, lineno, line)
        elif tag in ("092", "192") and tag not in spelling:
            named = _edition_of(rest)
            if named is not None and edition is None:
                edition = named
            value = rest.strip()
            if named is None or named != edition or value != _edition_code(named):
                header["type" if tag == "092" else "encoded_type"] = value
            put(tag, lineno, line)
        elif tag == "112":
            deputies.append(rest.strip())
            put(f"112:{len(deputies) - 1}", lineno, line)
        elif tag == "132" and "132" not in spelling:
            header["round_dates"] = _round_columns(line)
            put("132", lineno, line)
        elif tag in ("202", "212") and tag not in spelling:
            header["tiebreaks" if tag == "202" else "standings"] = _codes(rest)
            put(tag, lineno, line)
        elif tag in ("XXR", "142") and "rounds" not in spelling:
            total_rounds = _int_field(rest, source=source, lineno=lineno, column="rounds",
                                      line=line, default=-1)
            if total_rounds <= 0:
                raise _err(source, lineno, "rounds", line, "number of rounds must be positive")
            put("rounds", lineno, line)
        elif tag == "XXC" and "colour" not in spelling:
            words = rest.split()
            if "white1" in words:
                initial = Colour.WHITE
            elif "black1" in words:
                initial = Colour.BLACK
            else:
                raise _err(source, lineno, "initial colour", line, "expected white1 or black1")
            put("colour", lineno, line)
        elif tag == "152" and "colour" not in spelling:
            c = rest.strip().upper()
            if c not in ("W", "B"):
                raise _err(source, lineno, "initial colour", line, "expected W or B")
            initial = Colour.WHITE if c == "W" else Colour.BLACK
            put("colour", lineno, line)
        elif _is_scoring_line(tag):
            put(f"scoring:{sum(k.startswith('scoring:') for k in layout)}", lineno, line)
        elif tag == "XXP":
            ids = []
            for tok in rest.split():
                if not tok.isdigit():
                    raise _err(source, lineno, "player", line, f"{tok!r} is not a start number")
                ids.append(int(tok))
            forbidden.append(ForbiddenPairs(tuple(ids)))
            put(f"fp{len(forbidden) - 1}", lineno, line)
        elif tag == "260":
            toks = rest.split()
            if len(toks) < 4 or not all(t.isdigit() for t in toks):
                raise _err(source, lineno, "players", line,
                           "expected first round, last round and at least two start numbers")
            forbidden.append(ForbiddenPairs(tuple(int(t) for t in toks[2:]),
                                            int(toks[0]), int(toks[1])))
            put(f"fp{len(forbidden) - 1}", lineno, line)
        elif tag == "240":
            toks = rest.split()
            if (len(toks) < 3 or toks[0].upper() not in ("F", "H", "Z")
                    or not all(t.isdigit() for t in toks[1:])):
                raise _err(source, lineno, "bye", line,
                           "expected F/H/Z, a round number and start numbers")
            byes.append(ByeRequest(toks[0].upper(), int(toks[1]), tuple(int(t) for t in toks[2:])))
            put(f"bye{len(byes) - 1}", lineno, line)
        elif tag == "299":
            abnormal.append(_parse_299(line, source=source, lineno=lineno))
            put(f"299:{len(abnormal) - 1}", lineno, line)
        else:
            others.append(line)
            layout.append(f"other:{len(others) - 1}")
            line_of[f"other:{len(others) - 1}"] = lineno
    if deputies:
        header["deputy_arbiters"] = tuple(deputies)
    _check_opponents(rows, seen, source, lines)
    return Tournament(
        name=name, players=tuple(players),
        card_rows=tuple((r["round"], r["sno"], r["opponent"], r["colour"], float(r["points"]),
                         r["kind"]) for r in rows),
        total_rounds=total_rounds,
        initial_colour=initial, edition=edition, forbidden_pairs=tuple(forbidden),
        bye_requests=tuple(byes), other_records=tuple(others),
        header=TrfHeader(**header), scoring=scoring, abnormal_points=tuple(abnormal),
        format=fmt or (TrfFormat.TRF_2026 if has_2026 else TrfFormat.TRF16),
        header_spelling=spelling, entry_spelling=entry_spelling, layout=tuple(layout),
        lines=tuple(lines), line_of=line_of,
    )


def _parse_player(line: str, *, source: str, lineno: int, scoring: PointSystem = DEFAULT_POINTS
                  ) -> tuple[TrfPlayer, list[CardRecord], dict[tuple[int, int], str]]:
    def col(a: int, b: int) -> str:
        return line[a - 1:b]

    if len(line) < 8 or line[3:4] != " ":
        raise _err(source, lineno, "start number", line, "a 001 record needs a start number "
                   "in columns 5-8")
    kw = _Where(source=source, lineno=lineno, line=line)
    sno = _int_field(col(5, 8), column="start number", default=-1, **kw)
    if sno <= 0:
        raise _err(source, lineno, "start number", line, "start number missing in columns 5-8")
    player = TrfPlayer(
        sno=sno,
        sex=col(10, 10).strip(),
        title=col(11, 13).strip(),
        name=col(15, 47).strip(),
        rating=_int_field(col(49, 52), column="rating", **kw),
        fed=col(54, 56).strip(),
        fide_id=col(58, 68).strip(),
        birth=col(70, 79).strip(),
        points=_points_field(col(81, 84), column="points", **kw),
        rank=_int_field(col(86, 89), column="rank", **kw),
    )
    static = line[:89].rstrip()
    if _render_static(player).rstrip() != static:
        player = TrfPlayer(**{f: getattr(player, f) for f in _PLAYER_FIELDS}, raw=line[:89])
    rows = []
    spell: dict[tuple[int, int], str] = {}
    entries = line[91:]
    n = (len(entries) + 9) // 10
    for i in range(n):
        raw = entries[10 * i:10 * i + 8]
        rnd = i + 1
        row = _parse_entry(raw.ljust(8), sno, rnd, scoring=scoring, **kw)
        rows.append(row)
        if _render_entry(row, scoring) != raw.ljust(8):
            spell[(sno, rnd)] = raw.ljust(8)
    return player, rows, spell


_PLAYER_FIELDS = ("sno", "name", "sex", "title", "rating", "fed", "fide_id", "birth", "points",
                  "rank")


def _check_opponents(rows: list[CardRecord], snos: Mapping[int, int], source: str,
                     lines: list[str]) -> None:
    """An opponent must be a player of the file (TRF16: the opponent's start number)."""
    for r in rows:
        opp = r["opponent"]
        if opp is not None and opp not in snos:
            ln = snos[int(r["sno"])]
            raise _err(source, ln, f"round {r['round']}", lines[ln - 1],
                       f"opponent {opp} is not a start number in this file")


# ----------------------------------------------------------------------------- writing


_HEADER_ORDER = ("marker", "012", "022", "032", "042", "052", "062", "072", "082", "092", "102",
                 "112", "122", "132", "rounds", "colour", "scoring", "172", "182", "192", "202",
                 "212", "222", "other", "001", "bye", "fp", "299")
"""Where each record goes in a file written from scratch (record keys without their index)."""


def _group(key: str) -> str:
    for g in ("112", "scoring", "other", "001", "bye", "fp", "299"):
        if key.startswith(g):
            return g
    return key


def write_trf(t: Tournament, *, format: TrfFormat | None = None) -> str:
    """FIDE C.04 Annex 2 — Tournament → TRF text in ``format`` (default: the tournament's
    own), LF line endings, no trailing blanks.

    The first line says the format (``### TRF16 ...`` / ``### TRF-2026 ...``), unless the
    text the tournament was read from had no such line and the format is unchanged (a file
    comes back as it was). The format decides the spelling of the records both formats have:
    rounds ``XXR`` / ``142``, initial colour ``XXC`` / ``152``, point system ``XXS`` /
    ``162`` (``XXS`` when ``162`` cannot say it), the edition ``092`` / ``192``; the records
    only TRF-2026 has are written as they are in both (TRF16 readers skip what they do not
    know)."""
    fmt = format or t.format
    sp = t.header_spelling
    same_format = fmt is t.format
    blocks: dict[str, list[str]] = {}

    # (ok: a test of the line; Callable[..., bool], as the tests are lambdas that bind a loop
    # value as a default, which mypy cannot match against Callable[[str], bool])
    def keep(key: str, canonical: str | None, ok: Callable[..., bool]) -> None:
        line = sp.get(key)
        if line is not None and ok(line):
            blocks[key] = [line]
        elif canonical is not None:
            blocks[key] = [canonical]

    if same_format and "marker" in sp:
        marker = _MARKER.match(sp["marker"])
        blocks["marker"] = [sp["marker"]] if marker and marker.group(1) == fmt else [fmt.marker]
    elif not (same_format and t.layout):
        blocks["marker"] = [fmt.marker]
    keep("012", f"012 {t.name}", lambda ln: ln[4:].strip() == t.name)
    h = t.header
    for tag, attr in _HEADER_TAGS.items():
        value = getattr(h, attr)
        keep(tag, f"{tag} {value}" if value else None,
             lambda ln, value=value: bool(value) and ln[4:].strip() == value)
    for i, d in enumerate(h.deputy_arbiters):
        keep(f"112:{i}", f"112 {d}", lambda ln, d=d: ln[4:].strip() == d)
    if h.round_dates:
        keep("132", _render_132(h.round_dates), lambda ln: _round_columns(ln) == h.round_dates)
    for tag, attr in (("202", "tiebreaks"), ("212", "standings")):
        codes = getattr(h, attr)
        if codes:
            keep(tag, f"{tag} {','.join(codes)}", lambda ln, codes=codes: _codes(ln[4:]) == codes)
    _write_types(t, fmt, blocks, keep, from_scratch=not (same_format and t.layout))
    if t.total_rounds is not None:
        canon = f"XXR {t.total_rounds}" if fmt is TrfFormat.TRF16 else f"142 {t.total_rounds}"
        keep("rounds", canon, lambda ln: same_format and ln[4:].strip() == str(t.total_rounds))
    if t.initial_colour is not None:
        word = "white1" if t.initial_colour is Colour.WHITE else "black1"
        letter = "W" if t.initial_colour is Colour.WHITE else "B"
        canon = f"XXC {word}" if fmt is TrfFormat.TRF16 else f"152 {letter}"
        keep("colour", canon, lambda ln: same_format and (
            word in ln[4:].split() or ln[4:].strip() == letter))
    _write_scoring(t, fmt, same_format, blocks)
    for i, line in enumerate(t.other_records):
        blocks[f"other:{i}"] = [line]
    for i, fp in enumerate(t.forbidden_pairs):
        if fp.first_round is None and fp.last_round is None:
            canon = "XXP " + " ".join(str(p) for p in fp.players)
        else:
            canon = f"260 {fp.first_round or 1:03d} {fp.last_round or 999:03d} " + " ".join(
                f"{p:4d}" for p in fp.players)
        keep(f"fp{i}", canon, lambda ln, canon=canon: ln.split() == canon.split())
    for i, b in enumerate(t.bye_requests):
        canon = f"240 {b.kind} {b.round:03d} " + " ".join(f"{p:4d}" for p in b.players)
        keep(f"bye{i}", canon, lambda ln, canon=canon: [
            x.upper() for x in ln.split()] == canon.split())
    for i, a in enumerate(t.abnormal_points):
        keep(f"299:{i}", _render_299(a), lambda ln, a=a: _same_299(ln, a))
    for p, line in zip(t.players, _player_lines(t)):
        blocks[f"001:{p.sno}"] = [line]
    out = [line for key in _ordered_keys(t.layout, blocks)
           for line in blocks[key]]
    return "\n".join(out) + "\n"


def _write_types(t: Tournament, fmt: TrfFormat, blocks: dict[str, list[str]],
                 keep: Callable[[str, str | None, Callable[..., bool]], None],
                 from_scratch: bool) -> None:
    """092 and 192: the free text and code the header holds, and the edition: in ``192``
    for TRF-2026, else in ``092`` (or ``192`` when ``092`` holds a free text)."""
    h = t.header
    for tag, value in (("092", h.type), ("192", h.encoded_type)):
        if value:
            keep(tag, f"{tag} {value}", lambda ln, value=value: ln[4:].strip() == value)
        elif t.edition is not None and not from_scratch:
            code = _edition_code(t.edition)
            keep(tag, None, lambda ln, code=code: ln[4:].strip() == code)
    if t.edition is None:
        return
    named = {tag for tag in ("092", "192")
             if tag in blocks and _edition_of(blocks[tag][0][4:]) == t.edition}
    if fmt is TrfFormat.TRF_2026 and from_scratch and not h.encoded_type:
        blocks["192"] = [f"192 {_edition_code(t.edition)}"]
    elif not named:
        tag = "092" if fmt is TrfFormat.TRF16 and not h.type else "192"
        blocks[tag] = [f"{tag} {_edition_code(t.edition)}"]


def _write_scoring(t: Tournament, fmt: TrfFormat, same_format: bool,
                   blocks: dict[str, list[str]]) -> None:
    kept = [(k, v) for k, v in t.header_spelling.items() if k.startswith("scoring:")]
    if kept and same_format:
        try:
            same = _scoring_of(((0, v) for _, v in kept), source="") == t.scoring
        except InputError:
            same = False
        if same:
            blocks.update({k: [v] for k, v in kept})
            return
    if t.scoring == DEFAULT_POINTS:
        return
    s, d = t.scoring, DEFAULT_POINTS
    if fmt is TrfFormat.TRF_2026 and s.in_162:
        parts = [(sym, getattr(s, names[0])) for sym, names in _162.items()
                 if getattr(s, names[0]) != getattr(d, names[0])
                 or (sym == "P" and s.pab != s.win_white)]
        # each element 9 columns from column 6: symbol, points in 4 columns, 4 blanks
        blocks["scoring:0"] = [("162  " + "".join(f"{sym}{v:4.1f}    " for sym, v in parts)
                                ).rstrip()]
        return
    given = [f"{code}={getattr(s, names[0]):g}" for code, names in _XXS.items()
             if len(names) == 1 and getattr(s, names[0]) != getattr(d, names[0])]
    blocks["scoring:0"] = ["XXS " + " ".join(given)]


def _same_299(line: str, a: AbnormalPoints) -> bool:
    try:
        return _parse_299(line, source="", lineno=0) == a
    except InputError:
        return False


def _player_lines(t: Tournament) -> list[str]:
    by_player: dict[int, list[CardRecord]] = {}
    for r in _sorted_rows(t.card_rows):
        row = card_record(r)
        by_player.setdefault(int(row["sno"]), []).append(row)
    out = []
    for p in t.players:
        static = p.raw if p.raw is not None and _same_player(p, t.scoring) else _render_static(p)
        static = static.ljust(89)
        entries = ["        "] * max((int(r["round"]) for r in by_player.get(p.sno, [])),
                                     default=0)
        for row in by_player.get(p.sno, []):
            rnd = int(row["round"])
            raw = t.entry_spelling.get((p.sno, rnd))
            if raw is not None and _parse_entry(raw, p.sno, rnd, source="", lineno=0, line="",
                                                scoring=t.scoring) == row:
                entries[rnd - 1] = raw
            else:
                entries[rnd - 1] = _render_entry(row, t.scoring)
        out.append((static + "".join(f"  {e}" for e in entries)).rstrip())
    return out


def _ordered_keys(layout: tuple[str, ...], blocks: Mapping[str, list[str]]) -> list[str]:
    """The keys of ``blocks`` in the text's order; new records where a new file has them
    (``blocks`` is built in the order of a new file within each group): each group's new keys,
    in their order, after the last placed key whose group comes no later than theirs."""
    keys = [k for k in layout if k in blocks]
    placed = set(keys)
    order = {g: i for i, g in enumerate(_HEADER_ORDER)}
    rank = {k: order[_group(k)] for k in blocks}
    seq = {k: i for i, k in enumerate(blocks)}
    new = sorted((k for k in blocks if k not in placed), key=lambda k: (rank[k], seq[k]))
    for r, group in itertools.groupby(new, key=rank.__getitem__):
        at = max((i + 1 for i, other in enumerate(keys) if rank[other] <= r), default=0)
        keys[at:at] = list(group)
    return keys


def _same_player(p: TrfPlayer, scoring: PointSystem = DEFAULT_POINTS) -> bool:
    assert p.raw is not None
    try:
        q, _, _ = _parse_player(p.raw.rstrip(), source="", lineno=0, scoring=scoring)
    except InputError:
        return False
    return q == p


# ----------------------------------------------------------------------------- building


def tournament_from_scorecard(
    players: pl.DataFrame,
    scorecard: pl.DataFrame,
    *,
    name: str,
    total_rounds: int | None = None,
    initial_colour: Colour | None = None,
    edition: DutchEdition | str | None = None,
    forbidden_pairs: Iterable[ForbiddenPairs] = (),
    bye_requests: Iterable[ByeRequest] = (),
    header: TrfHeader | None = None,
    scoring: PointSystem = DEFAULT_POINTS,
    format: TrfFormat = TrfFormat.TRF16,
) -> Tournament:
    """FIDE C.04 Annex 2 — build the TRF view of an event from its players frame and scorecard.

    ``players`` needs ``sno`` and ``name``; ``rating``, ``fed``, ``title``, ``fide_id``,
    ``birth``, ``sex`` and ``rank`` are used when present. Points are the scorecard sums;
    without a ``rank`` column the rank is by points (descending) then start number —
    Decision: that rank is informative for the pairing engines, so no tie-break is applied
    there (the FIDE rating report passes the published standings' rank).
    """
    import polars as pl

    from transforms.core.model import SCORECARD_SCHEMA

    card = scorecard.select(list(SCORECARD_SCHEMA)).cast(SCORECARD_SCHEMA)  # type: ignore[arg-type]  # polars#14468: cast() rejects a dict[str, DataType] variable
    totals = dict(card.group_by("sno").agg(pl.col("points").sum()).iter_rows())
    recs = players.to_dicts()
    if "rank" in players.columns:
        rank = {int(r["sno"]): int(r["rank"] or 0) for r in recs}
    else:
        order = sorted(recs, key=lambda r: (-float(totals.get(r["sno"], 0.0)), int(r["sno"])))
        rank = {int(r["sno"]): i + 1 for i, r in enumerate(order)}

    def s(r: Mapping[str, object], k: str) -> str:
        v = r.get(k)
        return "" if v is None else str(v)

    tps = tuple(
        TrfPlayer(
            sno=int(r["sno"]), name=s(r, "name"), sex=s(r, "sex"), title=s(r, "title"),
            rating=int(r.get("rating") or 0), fed=s(r, "fed"), fide_id=s(r, "fide_id"),
            birth=s(r, "birth"), points=round(float(totals.get(r["sno"], 0.0)), 4),
            rank=rank[int(r["sno"])],
        )
        for r in sorted(recs, key=lambda r: int(r["sno"]))
    )
    return Tournament(name=name, players=tps, card_rows=tuple(card.iter_rows()),
                      total_rounds=total_rounds, initial_colour=initial_colour,
                      edition=None if edition is None else DutchEdition.of(edition),
                      forbidden_pairs=tuple(forbidden_pairs), bye_requests=tuple(bye_requests),
                      header=header or TrfHeader(), scoring=scoring, format=format)

"""FIDE Tournament Report File (TRF16, with the TRF-2025 records that matter for pairing).

The reader turns a TRF text into a :class:`Tournament`: the player records and the long
scorecard frame (``SCORECARD_SCHEMA``), plus what a pairing engine needs (total rounds,
initial colour, rules edition, forbidden pairs, byes requested in advance). The writer is
its inverse: ``parse_trf(write_trf(t)) == t``, and a file written by a pairing program comes
back byte for byte (modulo trailing whitespace), because every line or round entry whose
canonical spelling differs from the text is kept verbatim.

| record | meaning | field |
|---|---|---|
| ``012`` | tournament name | ``name`` |
| ``092`` | type of tournament; ``FIDE_DUTCH_2017`` / ``FIDE_DUTCH_2025`` name the edition | ``edition`` |
| ``192`` | TRF-2025 encoded tournament type (``FIDE_DUTCH_2025``, ``FIDE_DUTCH``) | ``edition`` |
| ``XXR`` / ``142`` | number of rounds | ``total_rounds`` |
| ``XXC`` / ``152`` | colour of player 1 in round 1 (``white1``/``black1``, ``W``/``B``) | ``initial_colour`` |
| ``XXP`` / ``260`` | forbidden pairs (all rounds / a round range) | ``forbidden_pairs`` |
| ``240`` | byes (F/H/Z) requested for a round | ``bye_requests`` |
| ``001`` | a player and the player's round entries | ``players``, ``scorecard`` |
| anything else | kept verbatim, in order | ``other_records`` |

Decisions:
- A player's line holds the rounds it has entries for; trailing blank entries are not rounds.
  So ``scorecard`` has one row per player per round *present on that player's line* (the
  reference files give the players who are not to be paired next round their entry early).
- Result codes: ``1 = 0`` played; ``W D L`` (game of less than one move) are played games
  too; ``+``/``-`` with an opponent are forfeits (not played games); ``U`` PAB, ``F`` FPB,
  ``H`` HPB, ``Z`` ZPB; a blank result, or ``-`` with opponent ``0000``, is an absence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING

from transforms.core.errors import InputError
from transforms.core.model import SCORECARD_COLUMNS, Colour, DutchEdition, Kind

if TYPE_CHECKING:
    import polars as pl

# (polars is imported where a frame is built, so that ``chessfed pair`` starts fast)


_DEFAULT_POINTS = {
    "1": 1.0, "=": 0.5, "0": 0.0, "W": 1.0, "D": 0.5, "L": 0.0,
    "+": 1.0, "-": 0.0, "U": 1.0, "F": 1.0, "H": 0.5, "Z": 0.0, " ": 0.0,
}
_BYE_CODE_KIND = {"U": Kind.PAB, "F": Kind.FPB, "H": Kind.HPB, "Z": Kind.ZPB}
_KIND_BYE_CODE = {v: k for k, v in _BYE_CODE_KIND.items()}


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
    """TRF-2025 ``240`` — a bye (F/H/Z) given in advance for a round."""

    kind: str
    """``F``, ``H`` or ``Z``."""
    round: int
    players: tuple[int, ...]


@dataclass(frozen=True)
class Tournament:
    """One tournament as a TRF file describes it. Equality compares every field, the
    scorecard by value."""

    name: str
    """``012`` tournament name."""
    players: tuple[TrfPlayer, ...]
    """In file order."""
    card_rows: tuple[tuple, ...]
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
    """TRF-2025 ``240`` records in file order."""
    other_records: tuple[str, ...] = ()
    """Every other non-``001`` line, verbatim, in file order."""
    header_spelling: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)
    """How the file spelt the records we rebuild (tag → line), to write them back verbatim."""
    entry_spelling: Mapping[tuple[int, int], str] = field(
        default_factory=dict, compare=False, repr=False
    )
    """(sno, round) → 8-character round entry, where it differs from the canonical spelling."""

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
        absent = [(round_no, p.sno, None, None, 0.0, str(Kind.ABSENT))
                  for p in self.players if p.sno not in present]
        return replace(self, card_rows=tuple(keep + absent))

    def requested_byes(self, round_no: int) -> dict[int, str]:
        """TRF-2025 240 — sno → ``F``/``H``/``Z`` requested for ``round_no``."""
        return {p: b.kind for b in self.bye_requests if b.round == round_no for p in b.players}


def recorded_pairing(card_rows: Iterable[tuple], round_no: int) -> set[tuple[int, int | None]]:
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


def _sorted_rows(rows: tuple[tuple, ...]) -> list[tuple]:
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
                 line: str) -> dict[str, object]:
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
    if code not in _DEFAULT_POINTS:
        raise _err(source, lineno, col, line, f"result {result_t!r} is not a TRF result code")
    row: dict[str, object] = {"round": rnd, "sno": sno, "opponent": None, "colour": None,
                              "points": _DEFAULT_POINTS[code], "kind": None}
    if code in _BYE_CODE_KIND:
        if opp not in (0, sno):
            raise _err(source, lineno, col, line, f"bye {code!r} with an opponent ({opp})")
        row["kind"] = str(_BYE_CODE_KIND[code])
        return row
    if opp == 0 or opp == sno:
        if code in ("-", " "):
            row["kind"] = str(Kind.ABSENT)
            return row
        if code == "+":
            row["kind"] = str(Kind.FPB)  # a forfeit win without an opponent is a full-point bye
            return row
        raise _err(source, lineno, col, line, f"result {result_t!r} needs an opponent")
    if colour not in ("w", "b"):
        raise _err(source, lineno, col, line, "a paired round needs colour w or b")
    row["opponent"], row["colour"] = opp, colour
    if code == "+":
        row["kind"] = str(Kind.FORFEIT_WIN)
    elif code in ("-", " "):
        row["kind"] = str(Kind.FORFEIT_LOSS)
    else:
        row["kind"] = str(Kind.PLAYED)
    return row


def _render_entry(row: Mapping[str, object], code_hint: str | None = None) -> str:
    kind = Kind(row["kind"])
    if kind in _KIND_BYE_CODE:
        return f"0000 - {_KIND_BYE_CODE[kind]}"
    if kind is Kind.ABSENT:
        return "        "
    colour = row["colour"] or "-"
    opp = int(row["opponent"] or 0)
    if kind is Kind.FORFEIT_WIN:
        code = "+"
    elif kind is Kind.FORFEIT_LOSS:
        code = "-"
    else:
        p = float(row["points"])
        code = "1" if p >= 1 else "=" if p > 0 else "0"
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
    if t in ("FIDE_DUTCH_2017",):
        return DutchEdition.RULES_2017
    if t in ("FIDE_DUTCH_2025", "FIDE_DUTCH", "FIDE_DUTCH_2025_BAKU", "FIDE_DUTCH_BAKU"):
        return DutchEdition.RULES_2025
    return None


def parse_trf(text: str, *, source: str = "<trf>") -> Tournament:
    """FIDE TRF16 (C.04 Annex 2) and TRF-2025 records 142/152/192/240/260 → Tournament.

    Raises :class:`InputError` at the first malformed line, quoting the whole line.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    name = ""
    total_rounds: int | None = None
    initial: Colour | None = None
    edition: str | None = None
    forbidden: list[ForbiddenPairs] = []
    byes: list[ByeRequest] = []
    others: list[str] = []
    spelling: dict[str, str] = {}
    players: list[TrfPlayer] = []
    rows: list[dict[str, object]] = []
    entry_spelling: dict[tuple[int, int], str] = {}
    seen: dict[int, int] = {}
    for lineno, rawline in enumerate(text.splitlines(), start=1):
        line = rawline.rstrip()
        if not line.strip():
            continue
        tag = line[:3]
        rest = line[4:] if len(line) > 4 else ""
        if tag == "001":
            player, prow, pspell = _parse_player(line, source=source, lineno=lineno)
            if player.sno in seen:
                raise _err(source, lineno, "start number", line,
                           f"start number {player.sno} already on line {seen[player.sno]}")
            seen[player.sno] = lineno
            players.append(player)
            rows.extend(prow)
            entry_spelling.update(pspell)
        elif tag == "012" and "012" not in spelling:
            name = rest.strip()
            spelling["012"] = line
        elif tag in ("092", "192") and _edition_of(rest) is not None and "edition" not in spelling:
            edition = _edition_of(rest)
            spelling["edition"] = line
        elif tag in ("XXR", "142") and "rounds" not in spelling:
            total_rounds = _int_field(rest, source=source, lineno=lineno, column="rounds",
                                      line=line, default=-1)
            if total_rounds <= 0:
                raise _err(source, lineno, "rounds", line, "number of rounds must be positive")
            spelling["rounds"] = line
        elif tag == "XXC" and "colour" not in spelling:
            words = rest.split()
            if "white1" in words:
                initial = Colour.WHITE
            elif "black1" in words:
                initial = Colour.BLACK
            else:
                raise _err(source, lineno, "initial colour", line, "expected white1 or black1")
            spelling["colour"] = line
        elif tag == "152" and "colour" not in spelling:
            c = rest.strip().upper()
            if c not in ("W", "B"):
                raise _err(source, lineno, "initial colour", line, "expected W or B")
            initial = Colour.WHITE if c == "W" else Colour.BLACK
            spelling["colour"] = line
        elif tag == "XXP":
            ids = []
            for tok in rest.split():
                if not tok.isdigit():
                    raise _err(source, lineno, "player", line, f"{tok!r} is not a start number")
                ids.append(int(tok))
            forbidden.append(ForbiddenPairs(tuple(ids)))
            spelling[f"fp{len(forbidden) - 1}"] = line
        elif tag == "260":
            toks = rest.split()
            if len(toks) < 4 or not all(t.isdigit() for t in toks):
                raise _err(source, lineno, "players", line,
                           "expected first round, last round and at least two start numbers")
            forbidden.append(ForbiddenPairs(tuple(int(t) for t in toks[2:]),
                                            int(toks[0]), int(toks[1])))
            spelling[f"fp{len(forbidden) - 1}"] = line
        elif tag == "240":
            toks = rest.split()
            if (len(toks) < 3 or toks[0].upper() not in ("F", "H", "Z")
                    or not all(t.isdigit() for t in toks[1:])):
                raise _err(source, lineno, "bye", line,
                           "expected F/H/Z, a round number and start numbers")
            byes.append(ByeRequest(toks[0].upper(), int(toks[1]), tuple(int(t) for t in toks[2:])))
            spelling[f"bye{len(byes) - 1}"] = line
        else:
            others.append(line)
    _check_opponents(rows, seen, source, text)
    return Tournament(
        name=name, players=tuple(players),
        card_rows=tuple((r["round"], r["sno"], r["opponent"], r["colour"], float(r["points"]),
                         r["kind"]) for r in rows),
        total_rounds=total_rounds,
        initial_colour=initial, edition=edition, forbidden_pairs=tuple(forbidden),
        bye_requests=tuple(byes), other_records=tuple(others), header_spelling=spelling,
        entry_spelling=entry_spelling,
    )


def _parse_player(line: str, *, source: str, lineno: int
                  ) -> tuple[TrfPlayer, list[dict[str, object]], dict[tuple[int, int], str]]:
    def col(a: int, b: int) -> str:
        return line[a - 1:b]

    if len(line) < 8 or line[3:4] != " ":
        raise _err(source, lineno, "start number", line, "a 001 record needs a start number "
                   "in columns 5-8")
    kw = dict(source=source, lineno=lineno, line=line)
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
        row = _parse_entry(raw.ljust(8), sno, rnd, **kw)
        rows.append(row)
        if _render_entry(row) != raw.ljust(8):
            spell[(sno, rnd)] = raw.ljust(8)
    return player, rows, spell


_PLAYER_FIELDS = ("sno", "name", "sex", "title", "rating", "fed", "fide_id", "birth", "points",
                  "rank")


def _check_opponents(rows: list[dict[str, object]], snos: Mapping[int, int], source: str,
                     text: str) -> None:
    """An opponent must be a player of the file (TRF16: the opponent's start number)."""
    lines = text.splitlines()
    for r in rows:
        opp = r["opponent"]
        if opp is not None and opp not in snos:
            ln = snos[int(r["sno"])]
            raise _err(source, ln, f"round {r['round']}", lines[ln - 1].rstrip(),
                       f"opponent {opp} is not a start number in this file")


# ----------------------------------------------------------------------------- writing


def write_trf(t: Tournament) -> str:
    """FIDE C.04 Annex 2 (TRF16) — Tournament → TRF16 text (LF line endings, no trailing blanks)."""
    sp = t.header_spelling
    out: list[str] = []

    def keep(key: str, canonical: str, parse_back) -> str:
        line = sp.get(key)
        if line is not None and parse_back(line):
            return line
        return canonical

    out.append(keep("012", f"012 {t.name}", lambda ln: ln[4:].strip() == t.name))
    if t.edition is not None:
        out.append(keep("edition", f"092 FIDE_DUTCH_{t.edition}",
                        lambda ln: _edition_of(ln[4:]) == t.edition))
    out.extend(t.other_records)
    if t.total_rounds is not None:
        out.append(keep("rounds", f"XXR {t.total_rounds}",
                        lambda ln: ln[4:].strip() == str(t.total_rounds)))
    if t.initial_colour is not None:
        word = "white1" if t.initial_colour is Colour.WHITE else "black1"
        letter = "W" if t.initial_colour is Colour.WHITE else "B"
        out.append(keep("colour", f"XXC {word}",
                        lambda ln: word in ln[4:].split() or ln[4:].strip() == letter))
    for i, fp in enumerate(t.forbidden_pairs):
        if fp.first_round is None and fp.last_round is None:
            canon = "XXP " + " ".join(str(p) for p in fp.players)
        else:
            canon = f"260 {fp.first_round or 1:03d} {fp.last_round or 999:03d} " + " ".join(
                f"{p:4d}" for p in fp.players)
        out.append(keep(f"fp{i}", canon, lambda ln, canon=canon: ln.split() == canon.split()))
    for i, b in enumerate(t.bye_requests):
        canon = f"240 {b.kind} {b.round:03d} " + " ".join(f"{p:4d}" for p in b.players)
        out.append(keep(f"bye{i}", canon, lambda ln, canon=canon: [
            x.upper() for x in ln.split()] == canon.split()))
    by_player: dict[int, list[dict[str, object]]] = {}
    for r in _sorted_rows(t.card_rows):
        row = dict(zip(SCORECARD_COLUMNS, r))
        by_player.setdefault(int(row["sno"]), []).append(row)
    for p in t.players:
        static = p.raw if p.raw is not None and _same_player(p) else _render_static(p)
        static = static.ljust(89)
        entries = ["        "] * max((int(r["round"]) for r in by_player.get(p.sno, [])),
                                     default=0)
        for row in by_player.get(p.sno, []):
            rnd = int(row["round"])
            raw = t.entry_spelling.get((p.sno, rnd))
            if raw is not None and _parse_entry(raw, p.sno, rnd, source="", lineno=0,
                                                line="") == _row_dict(row):
                entries[rnd - 1] = raw
            else:
                entries[rnd - 1] = _render_entry(row)
        line = static + "".join(f"  {e}" for e in entries)
        out.append(line.rstrip())
    return "\n".join(out) + "\n"


def _row_dict(row: Mapping[str, object]) -> dict[str, object]:
    return {k: (float(row[k]) if k == "points" else row[k]) for k in SCORECARD_COLUMNS}


def _same_player(p: TrfPlayer) -> bool:
    assert p.raw is not None
    try:
        q, _, _ = _parse_player(p.raw.rstrip(), source="", lineno=0)
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
) -> Tournament:
    """FIDE C.04 Annex 2 — build the TRF view of an event from its players frame and scorecard.

    ``players`` needs ``sno`` and ``name``; ``rating``, ``fed``, ``title``, ``fide_id``,
    ``birth``, ``sex`` are used when present. Points are the scorecard sums; rank is by
    points (descending) then start number — Decision: the TRF rank column is informative
    for the pairing engines, so no tie-break is applied here.
    """
    import polars as pl

    from transforms.core.model import SCORECARD_SCHEMA

    card = scorecard.select(list(SCORECARD_SCHEMA)).cast(SCORECARD_SCHEMA)
    totals = dict(card.group_by("sno").agg(pl.col("points").sum()).iter_rows())
    recs = players.to_dicts()
    order = sorted(recs, key=lambda r: (-float(totals.get(r["sno"], 0.0)), int(r["sno"])))
    rank = {int(r["sno"]): i + 1 for i, r in enumerate(order)}

    def s(r: Mapping[str, object], k: str) -> str:
        v = r.get(k)
        return "" if v is None else str(v)

    tps = tuple(
        TrfPlayer(
            sno=int(r["sno"]), name=s(r, "name"), sex=s(r, "sex"), title=s(r, "title"),
            rating=int(r.get("rating") or 0), fed=s(r, "fed"), fide_id=s(r, "fide_id"),
            birth=s(r, "birth"), points=float(totals.get(r["sno"], 0.0)),
            rank=rank[int(r["sno"])],
        )
        for r in sorted(recs, key=lambda r: int(r["sno"]))
    )
    return Tournament(name=name, players=tps, card_rows=tuple(card.iter_rows()),
                      total_rounds=total_rounds, initial_colour=initial_colour,
                      edition=None if edition is None else DutchEdition.of(edition),
                      forbidden_pairs=tuple(forbidden_pairs), bye_requests=tuple(bye_requests))

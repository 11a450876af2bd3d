"""Taking a Swiss event over from a TRF file (DESIGN.md, "TRF import"): the players and
results of an event run in Swiss-Manager or Vega, as chessfed's players.csv and results.csv,
and the values of its event.toml (dates, rules edition, initial colour, rounds, tie-breaks,
bye points), each with where it comes from: a record of the file, the games of round 1, or
assumed (:class:`Setting`)."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import NamedTuple

import polars as pl

from transforms.core.model import DUTCH_2025_IN_FORCE, Colour, DutchEdition, Kind, ResultCode, Title
from transforms.fide.trf import Tournament

Board = tuple[int, int]
"""A recorded game: (white, black) start numbers."""

TITLES = frozenset(t.value for t in Title)
_GAME_RESULT = {(c.white.kind, c.white.points): c.value for c in ResultCode
                if c.black is not None and c.white.kind is not Kind.FORFEIT_LOSS}
"""(white's kind, white's points) -> the results.csv code, where those two decide it (a
forfeit loss of White is ``-/+`` or ``-/-`` by Black's side)."""


def _birth(text: str) -> str:
    for fmt in ("%Y/%m/%d", "%Y-%m-%d", "%Y.%m.%d"):
        try:
            return dt.datetime.strptime(text.strip(), fmt).date().isoformat()
        except ValueError:
            continue
    return ""


def players_from_trf(t: Tournament, *, section: str) -> pl.DataFrame:
    """DESIGN.md Inputs — players.csv rows (all text) of a plain Swiss for the TRF's players:
    ``player_id`` and ``start_no`` are the TRF start number, so pairings continue those of the
    program the event came from; sex, federation, FIDE id, title and birth date as the file
    has them (empty where it has none).

    Decision: a birth date the file gives as a year only, or with day or month 00, is kept as
    no date (players.csv needs a whole date; nothing the event pairs or ranks by needs it)."""
    rows = []
    for p in t.players:
        sex = p.sex.strip().lower()
        rows.append({
            "player_id": str(p.sno), "name": p.name, "rating": str(p.rating) if p.rating else "",
            "section": section, "fide_id": p.fide_id,
            "title": p.title.upper() if p.title.upper() in TITLES else "",
            "federation": p.fed.strip().upper(),
            "sex": "F" if sex in ("f", "w") else "M" if sex == "m" else "",
            "birth_date": _birth(p.birth), "start_no": str(p.sno),
        })
    columns = ("player_id", "name", "rating", "section", "fide_id", "title", "federation", "sex",
               "birth_date", "start_no")
    return pl.DataFrame(rows, schema={k: pl.String for k in columns})


def results_from_trf(t: Tournament) -> pl.DataFrame:
    """DESIGN.md Inputs (TRF import) — results.csv rows (all text) from the TRF scorecard: one row
    per game (forfeits included) and per bye; absences have no row. Boards in each round follow the
    higher score before the round, then the lower start number (FIDE C.04.2 board order).

    Decision: a game both of whose records score 0 (``0`` and ``0``: an arbiter's 0-0, as a real
    Vega event has it) is ``-/-`` — neither player scores, as the file's points say; results.csv
    has no code for a played game both lost."""
    card = t.scorecard.sort(["sno", "round"])
    before = card.with_columns(
        (pl.col("points").cum_sum().over("sno") - pl.col("points")).alias("before"))
    score = {(r, s): b for r, s, b in zip(before["round"], before["sno"], before["before"])}
    by_key = {(r, s): (o, c, p, k) for r, s, o, c, p, k in card.select(
        "round", "sno", "opponent", "colour", "points", "kind").iter_rows()}
    rows = []
    for rnd in sorted(set(card["round"].to_list())):
        boards: list[tuple[float, int, str, str | None, str]] = []  # (sort key, board, result)
        for (r, s), (o, c, p, k) in by_key.items():
            if r != rnd:
                continue
            if o is not None and c == "w":
                ok = by_key.get((r, o))
                if p == 0 and ok is not None and ok[2] == 0 and k in (Kind.PLAYED, Kind.FORFEIT_LOSS):
                    # both records say lost ("0" and "0", or "-" and "-"): neither scores
                    res = ResultCode.DOUBLE_FORFEIT.value
                elif (k, p) in _GAME_RESULT:
                    res = _GAME_RESULT[(k, p)]
                elif k == Kind.FORFEIT_LOSS:
                    res = (ResultCode.BLACK_FORFEIT_WIN if ok is not None and ok[3] == Kind.FORFEIT_WIN
                           else ResultCode.DOUBLE_FORFEIT).value
                else:
                    res = (ResultCode.DRAW if p == 0.5 else ResultCode.WHITE_WINS if p > 0.5
                           else ResultCode.BLACK_WINS).value
                boards.append((-max(score[(r, s)], score.get((r, o), 0)), min(s, o), str(s), str(o), res))
            elif o is None and k in (Kind.PAB, Kind.FPB, Kind.HPB, Kind.ZPB):
                boards.append((1e9, s, str(s), None, str(k)))
        for i, (_, _, w, b, res) in enumerate(sorted(boards), start=1):
            rows.append({"round": str(rnd), "board": str(i), "white_id": w, "black_id": b, "result": res})
    return pl.DataFrame(rows, schema={"round": pl.String, "board": pl.String, "white_id": pl.String,
                                      "black_id": pl.String, "result": pl.String})


# --------------------------------------------------------------------------- event.toml


class Basis(StrEnum):
    """Where a setting ``chessfed import-trf`` writes into event.toml comes from."""

    FILE = "from the file"
    """A record of the TRF says it (``042``, ``XXC``, ``092``, ...)."""
    PLAYED = "read from the games"
    """The file has no record of it; the rounds as played show it (with the evidence)."""
    ASSUMED = "assumed"
    """Neither says it: a default the office should check."""


@dataclass(frozen=True)
class Setting:
    """One event.toml value ``chessfed import-trf`` chose, and why: printed, and written as a
    comment at the top of the event.toml it writes."""

    key: str
    """The event.toml key, e.g. ``swiss.initial_colour``."""
    value: str
    """As event.toml has it, e.g. ``"black"`` or ``2025-06-10``."""
    basis: Basis
    """Where it comes from."""
    why: str
    """The record, the evidence or the reason, in one sentence."""

    def __str__(self) -> str:
        return f"{self.basis}: {self.key} = {self.value} — {self.why}"


class TrfDate(NamedTuple):
    """A date of a TRF record as read (:func:`read_trf_date`)."""

    date: dt.date
    order: str
    """How it was read: ``year/month/day``, ``day/month/year``, ``month/day/year``."""
    ambiguous: bool
    """Another order reads another date too (``03/04/2025``)."""


_YMD, _DMY, _MDY = "year/month/day", "day/month/year", "month/day/year"
_DATE = re.compile(r"(\d{1,4})[/.\-](\d{1,2})[/.\-](\d{1,4})")


def _readings(text: str) -> list[tuple[str, dt.date]]:
    """Every (order, date) ``text`` reads as, the preferred order first (:func:`read_trf_date`)."""
    m = _DATE.fullmatch(text.strip())
    if m is None:
        return []
    a, b, c = m.groups()
    if len(a) == 4 and len(c) <= 2:
        orders = [_YMD]
    elif len(c) == 4 and len(a) <= 2:
        orders = [_DMY] if "." in text else [_DMY, _MDY]  # 10.06.2025: no one writes m.d.y
    elif len(a) == len(b) == len(c) == 2:
        orders = [_YMD, _DMY, _MDY]
    else:
        return []
    x, y, z = int(a), int(b), int(c)
    out = []
    for order in orders:
        year, month, day = {_YMD: (x, y, z), _DMY: (z, y, x), _MDY: (z, x, y)}[order]
        try:
            out.append((order, dt.date(year + 2000 if year < 100 else year, month, day)))
        except ValueError:
            continue
    return out


def read_trf_date(text: str) -> TrfDate | None:
    """FIDE C.04 Annex 2 (TRF ``042``/``052``/``132``) — a date as real files write it: ``2025/06/10``,
    ``2025-06-10``, ``2025.06.10``, ``10.06.2025``, ``10/06/2025``, ``10-06-2025``, and the
    ``132`` record's ``25/06/10``; None when it is none of these or no day of the calendar.

    Decision: with the year last, the day comes first (Swiss-Manager's and Vega's order; with
    dots, always) unless only month/day/year reads a date (``06/13/2025``); with three two-digit numbers the
    year comes first (TRF ``132``: YY/MM/DD, 20YY) unless only another order reads a date.
    ``ambiguous`` says that another order reads another date (:func:`event_dates` then lets
    the other dates of the file decide, or lists it as assumed)."""
    read = _readings(text)
    if not read:
        return None
    (order, first), others = read[0], read[1:]
    return TrfDate(first, order, any(d != first for _, d in others))


def _start_and_end(start: str, end: str) -> tuple[TrfDate | None, TrfDate | None]:
    """The ``042`` and ``052`` dates read together: the preferred orders that put the start
    on or before the end (one order for both when they are written alike); ambiguous when
    another such reading gives other days."""
    s, e = _readings(start), _readings(end)
    if not s or not e:
        one = read_trf_date(start) if s else None
        return one, (read_trf_date(end) if e else None)
    alike = _shape(start) == _shape(end)
    fits = [(a, b) for a in s for b in e if a[1] <= b[1] and (not alike or a[0] == b[0])]
    if not fits:
        return read_trf_date(start), read_trf_date(end)
    (so, sd), (eo, ed) = fits[0]
    other = any((a[1], b[1]) != (sd, ed) for a, b in fits[1:])
    return TrfDate(sd, so, other), TrfDate(ed, eo, other)


def _shape(text: str) -> tuple[int, ...]:
    m = _DATE.fullmatch(text.strip())
    return () if m is None else tuple(len(g) for g in m.groups())


def _round_dates(texts: tuple[str, ...], start: dt.date | None, end: dt.date | None
                 ) -> tuple[list[tuple[int, dt.date]], str, bool]:
    """TRF ``132`` — (round, date) of every round date, all read in one order that keeps them
    in order: the one that puts them within ``start``-``end`` where those are known, then the
    one that spans the fewest days, then YY/MM/DD (the record's own); that order; and whether
    they are within. ``([], "", True)`` when no order reads them all."""
    given = [(i, x) for i, x in enumerate(texts, 1) if x.strip()]
    found = []
    for rank, order in enumerate((_YMD, _DMY, _MDY)):
        days = [(i, d) for i, x in given if (d := dict(_readings(x)).get(order)) is not None]
        if not given or len(days) < len(given) or any(a[1] > b[1] for a, b in zip(days, days[1:])):
            continue
        inside = all((start is None or start <= d) and (end is None or d <= end) for _, d in days)
        found.append((not inside, (days[-1][1] - days[0][1]).days, rank, days, order))
    if not found:
        return [], "", True
    outside, _, _, days, order = min(found)
    return days, order, not outside


def round_dates(t: Tournament) -> dict[int, dt.date]:
    """FIDE C.04 Annex 2 (TRF ``132``) — round -> date, where the record's dates all read in one
    order (:func:`_round_dates`; the start and end records choose between orders); empty
    otherwise."""
    h = t.header
    read_start, read_end = _start_and_end(h.start, h.end)
    days, _, _ = _round_dates(h.round_dates, read_start and read_start.date,
                              read_end and read_end.date)
    return dict(days)


def event_dates(t: Tournament, *, today: dt.date) -> tuple[dt.date, dt.date, list[Setting]]:
    """FIDE C.04 Annex 2 (TRF ``042``, ``052``, ``132``) — ``[event] start`` and ``end`` of an event taken over:
    the start and end records, else the first and last round dates, else ``today`` for the
    start and the start for the end (assumed, and said so). Decisions: an end before the
    start is taken as the start (assumed); a date that reads as two days is assumed, in the
    order :func:`read_trf_date` prefers, unless the other date of the pair rules one out."""
    notes: list[Setting] = []
    h = t.header
    read_start, read_end = _start_and_end(h.start, h.end)
    rounds, order, inside = _round_dates(h.round_dates, read_start and read_start.date,
                                         read_end and read_end.date)

    def pick(key: str, tag: str, text: str, got: TrfDate | None, fallback: int,
             default: dt.date, default_why: str) -> dt.date:
        if got is not None:
            why = f"the {tag} record {text!r}"
            if got.ambiguous:
                why += f", read as {got.order}: another order reads another day, check it"
            elif got.order != _YMD:
                why += f" ({got.order})"
            notes.append(Setting(key, str(got.date), Basis.ASSUMED if got.ambiguous else Basis.FILE,
                                 why))
            return got.date
        bad = f"the {tag} record {text!r} is no date" if text else f"no {tag} record"
        if rounds:
            i, d = rounds[fallback]
            notes.append(Setting(key, str(d), Basis.FILE,
                                 f"{bad}: the date of round {i} in the 132 record "
                                 f"({h.round_dates[i - 1]!r}, {order})"))
            return d
        notes.append(Setting(key, str(default), Basis.ASSUMED, f"{bad} and no readable round "
                             f"date (132): {default_why}, correct it"))
        return default

    start = pick("event.start", "042", h.start, read_start, 0, today, "today's date")
    end = pick("event.end", "052", h.end, read_end, -1, start, "the start date")
    if end < start:
        notes.append(Setting("event.end", str(start), Basis.ASSUMED,
                             f"the end read, {end}, is before the start: the start date"))
        end = start
    if not inside:
        outside = [i for i, d in rounds if not start <= d <= end]
        notes.append(Setting("event.start, event.end", f"{start}, {end}", Basis.ASSUMED,
                             f"the 132 record dates round(s) {', '.join(map(str, outside))} "
                             "outside them: check the dates"))
    return start, end, notes


def _named_edition(t: Tournament) -> tuple[DutchEdition, str] | None:
    """The Dutch edition a ``092``/``192`` record names with its year, and the record (a bare
    ``FIDE_DUTCH`` names none: the TEC's 192 table dates it by the event)."""
    for tag, kept in (("092", t.header.type), ("192", t.header.encoded_type)):
        _, line = t.line(tag)
        text = (line[4:] if line else kept).strip().upper()
        for edition in DutchEdition:
            if text.startswith(f"FIDE_DUTCH_{edition.value}"):
                return edition, f"the {tag} record {text!r}"
    if t.edition is not None and not t.lines:  # made, not read: its code named it
        return t.edition, "the file's tournament type"
    return None


def dutch_edition_of(t: Tournament, start: dt.date, start_assumed: bool
                     ) -> tuple[DutchEdition, Setting]:
    """FIDE C.04.3 — the rules edition of an event taken over: the one its ``092``/``192``
    record names with a year (what the other program paired with), else the one in force on
    its first day (:meth:`DutchEdition.in_force_on`; a bare ``FIDE_DUTCH`` is dated so by the
    TEC's TRF-2026 table of record 192)."""
    named = _named_edition(t)
    if named is not None:
        edition, record = named
        return edition, Setting("swiss.dutch_edition", f'"{edition}"', Basis.FILE, record)
    edition = DutchEdition.in_force_on(start)
    since = f"{DUTCH_2025_IN_FORCE.day} {DUTCH_2025_IN_FORCE:%B %Y}"
    rule = (f"in force on the first day, {start} (the 2025 rules apply from {since})"
            if edition is DutchEdition.RULES_2025 else
            f"in force on the first day, {start} (the 2025 rules apply only from {since})")
    if start_assumed:
        rule += "; that day is assumed, so is this"
    return edition, Setting("swiss.dutch_edition", f'"{edition}"', Basis.ASSUMED,
                            "the file names no edition (092/192): the rules " + rule)


class ColourEvidence(NamedTuple):
    """FIDE C.04.3 E.5 — what round 1 as played says of the initial colour
    (:func:`round_one_colours`)."""

    white: list[Board]
    """The recorded boards (white, black) whose colours the initial colour White gives."""
    black: list[Board]
    """Those the initial colour Black gives."""
    top: tuple[int, int, Board, Colour]
    """The board of the highest-ranked player of round 1: his start number, his pairing number
    in round 1, the board and the initial colour it gives."""


def round_one_colours(t: Tournament, edition: DutchEdition) -> ColourEvidence | None:
    """FIDE C.04.3 E.5 (the 2017 text's article; the engine applies it in both editions) — in
    round 1 nobody has a colour preference, so each board's colours follow from the initial
    colour alone: the higher-ranked player gets it when his pairing number is odd, the other
    colour when it is even. Each recorded game of round 1 (a forfeit too: the pairing gave it colours) is put to
    the engine's own colour allocation (:func:`~transforms.fide.dutch.criteria.allocate_colours`
    on :func:`~transforms.fide.dutch.engine.build_context` of the file before round 1, which
    numbers only the players paired in round 1, as bbpPairings does) with the initial colour
    White: a board it colours as recorded says White, a reversed one says Black. None when
    round 1 has no game with colours."""
    from transforms.fide.dutch.criteria import allocate_colours
    from transforms.fide.dutch.engine import build_context

    games = [(s, o) for r, s, o, c, _p, _k in t.card_rows
             if r == 1 and o is not None and c == Colour.WHITE]
    if not games:
        return None
    ctx = build_context(replace(t.before_round(1), initial_colour=Colour.WHITE), 1, edition,
                        frozenset())
    ranked = {p.sno: p for p in ctx.players}
    says: dict[Colour, list[Board]] = {Colour.WHITE: [], Colour.BLACK: []}
    top: tuple[int, int, Board, Colour] | None = None
    for w, b in sorted(games):
        if w not in ranked or b not in ranked:
            continue
        ((white, _),) = allocate_colours([(ranked[w], ranked[b])], ctx)
        colour = Colour.WHITE if white.sno == w else Colour.BLACK
        says[colour].append((w, b))
        higher = min(ranked[w], ranked[b], key=lambda p: (-p.score, p.rank))
        if top is None or (-higher.score, higher.rank) < (-ranked[top[0]].score, top[1] - 1):
            top = (higher.sno, higher.rank + 1, (w, b), colour)
    if top is None:
        return None
    return ColourEvidence(says[Colour.WHITE], says[Colour.BLACK], top)


def initial_colour_of(t: Tournament, edition: DutchEdition) -> tuple[Colour, Setting]:
    """FIDE C.04.3 E.5, TRF ``XXC``/``152`` — the initial colour of an event taken over: the
    file's record, else round 1 as played (:func:`round_one_colours`), else White (assumed).

    Decisions: boards of round 1 that disagree are outvoted by the majority, an even split by
    the board of the highest-ranked player; both are listed as assumed, with the numbers. A
    record that round 1 contradicts is kept (the other program paired with it) and the
    contradiction is said."""
    key = "swiss.initial_colour"
    ev = round_one_colours(t, edition)

    def word(c: Colour) -> str:
        return "white" if c is Colour.WHITE else "black"

    def counts(e: ColourEvidence) -> str:
        n = len(e.white) + len(e.black)
        return f"{len(e.white)} of the {n} games of round 1 give white, {len(e.black)} black"

    if t.initial_colour is not None:
        tag = "XXC" if t.line("colour")[1].startswith("XXC") else "152"
        why = f"the {tag} record"
        if ev is not None and (ev.white if t.initial_colour is Colour.BLACK else ev.black):
            why += f" (round 1 as played disagrees: {counts(ev)}; kept the record)"
        return t.initial_colour, Setting(key, f'"{word(t.initial_colour)}"', Basis.FILE, why)
    if ev is None:
        return Colour.WHITE, Setting(key, '"white"', Basis.ASSUMED,
                                     "the file has no initial-colour record (XXC/152) and round "
                                     "1 no game with colours to read it from: check it")
    sno, number, (w, b), colour = ev.top
    had = "White" if sno == w else "Black"
    other = b if sno == w else w
    top = (f"player {sno}, pairing number {number} of round 1, had {had} against {other} "
           f"(the higher-ranked player gets the initial colour on an odd pairing number, the "
           f"other on an even one: C.04.3 E.5)")
    if not ev.white or not ev.black:
        colour = Colour.WHITE if ev.white else Colour.BLACK
        n = len(ev.white) + len(ev.black)
        return colour, Setting(key, f'"{word(colour)}"', Basis.PLAYED,
                               f"no initial-colour record (XXC/152); all {n} games of round 1 "
                               f"give {word(colour)}: {top}")
    majority = (Colour.WHITE if len(ev.white) > len(ev.black) else Colour.BLACK
                if len(ev.black) > len(ev.white) else colour)
    minority = ev.black if majority is Colour.WHITE else ev.white
    shown = ", ".join(f"{x}-{y}" for x, y in minority[:3]) + (" ..." if len(minority) > 3 else "")
    how = "the majority" if len(ev.white) != len(ev.black) else "the top board's, on an even split"
    return majority, Setting(key, f'"{word(majority)}"', Basis.ASSUMED,
                             f"no initial-colour record (XXC/152) and round 1 disagrees with "
                             f"itself: {counts(ev)} (the other way: {shown}); took {how}; {top}")


def rounds_of(t: Tournament) -> tuple[int, Setting]:
    """FIDE C.04 Annex 2 (TRF ``XXR``/``142``) — ``swiss.rounds`` of an event taken over; without the record, the
    last round the file has (assumed: the event may have more)."""
    if t.total_rounds:
        tag = "XXR" if t.line("rounds")[1].startswith("XXR") else "142"
        return t.total_rounds, Setting("swiss.rounds", str(t.total_rounds), Basis.FILE,
                                       f"the {tag} record")
    played = max((r for r, *_ in t.card_rows), default=0)
    return max(played, 1), Setting(
        "swiss.rounds", str(max(played, 1)), Basis.ASSUMED,
        f"no XXR/142 record: the rounds the file has ({played}); the event may have more")


def tiebreaks_of(t: Tournament, default: tuple[str, ...]) -> tuple[tuple[str, ...], Setting]:
    """FIDE C.04 Annex 2 (TRF-2026 ``202``) — ``swiss.tiebreaks`` of an event taken over: the record's codes in
    chessfed's spelling (``BH/C1`` → ``BH-C1``); without the record, or with a code chessfed
    does not know, ``default`` (assumed, naming the code)."""
    from transforms.core.errors import ChessfedError
    from transforms.fide.tiebreaks import parse_code

    shown = ", ".join(default)
    if not t.header.tiebreaks:
        return default, Setting("swiss.tiebreaks", f"[{shown}]", Basis.ASSUMED,
                                "no 202 record: chessfed's default")
    codes = []
    for code in t.header.tiebreaks:
        try:
            codes.append(parse_code(code)[0])
        except ChessfedError:
            return default, Setting("swiss.tiebreaks", f"[{shown}]", Basis.ASSUMED,
                                    f"the 202 record's {code!r} is no tie-break chessfed "
                                    "knows: chessfed's default, set the event's own")
    return tuple(codes), Setting("swiss.tiebreaks", f"[{', '.join(codes)}]", Basis.FILE,
                                 "the 202 record")


def pab_points_of(t: Tournament) -> tuple[float, Setting]:
    """FIDE C.04.1 c, TRF ``XXS``/``BBU``/``162`` — ``swiss.pab_points`` of an event taken over:
    the file's point system, else a win's point (assumed)."""
    pab = t.scoring.pab
    if any(k.startswith("scoring:") for k in t.layout):
        return pab, Setting("swiss.pab_points", f"{pab:g}", Basis.FILE, "the point-system record")
    return pab, Setting("swiss.pab_points", f"{pab:g}", Basis.ASSUMED,
                        "no point-system record (XXS/BB*/162): a win's point (C.04.1 c)")

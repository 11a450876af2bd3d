"""An event's final results read from a published crosstable: chess-results.com's "Final
Ranking crosstable" as its Excel export gives it (the table most events of the world publish,
whatever program paired them) — what a series needs of an event it did not run
(:class:`transforms.core.results.EventResult`). The flows read the workbook's cells
(``flows/io.py`` ``xlsx_rows``); this reads the table in them.

The table: a header row ``Rk. | (title) | Name | Rtg | FED | 1.Rd … n.Rd | Pts. | TB1 …``
(optionally ``SNo``, ``FideID``, ``Club/City``), one row per player in the order of the final
ranking, each round's cell ``<opponent's rank><w|b><result>`` (``41b1``, ``25w½``, ``83b+``
forfeit won, ``30w-`` forfeit lost; the number is the opponent's row), ``-1``/``-½``/``-0`` a round without opponent with its
points, an empty cell or ``0`` no game; above the table the event's name, ``Date : …`` and
"Final Ranking crosstable after 7 Rounds"."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

from transforms.core.results import EventResult, Finish, RoundResult

GAME = re.compile(r"^(\d+)\s*([wbs]?)\s*(1/2|[10½=+\-])$")
"""A round's cell against an opponent (the opponent's number in the table, colour, result)."""
NO_OPPONENT = re.compile(r"^(?:-|bye|spf|pab)\s*(1/2|[10½+\-]?)$", re.IGNORECASE)
"""A round's cell without opponent (a bye, an absence) and its points."""
POINTS = {"1": 1.0, "0": 0.0, "½": 0.5, "1/2": 0.5, "=": 0.5, "+": 1.0, "-": 0.0, "": 0.0}
PLAYED = {"1", "0", "½", "1/2"}
"""Results of a game played over the board (``+``, ``-`` and ``=`` are not: forfeits)."""
ROUND = re.compile(r"^(\d+)\.\s*(?:Rd|Rnd|Runde|R)\.?$", re.IGNORECASE)
DONE = re.compile(r"crosstable after (\d+) rounds?", re.IGNORECASE)
DATE = re.compile(r"(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})")


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", ".").replace("½", ".5").strip())
    except ValueError:
        return None


def _dates(rows: Sequence[Sequence[str]]) -> tuple[dt.date | None, dt.date | None]:
    for row in rows:
        cell = row[0] if row else ""
        if cell.strip().lower().startswith("date"):
            found = []
            for m in DATE.finditer(cell):
                try:
                    found.append(dt.date(int(m[1]), int(m[2]), int(m[3])))
                except ValueError:
                    continue
            if found:
                return found[0], found[-1]
    return None, None


def _bad(source: str, i: int, header: list[str], row: list[str], col: int, reason: str) -> ValueError:
    return ValueError(f"{source}: line {i + 1}, column {header[col] or col + 1}: "
                      f"{row[col].strip()!r}: {reason}")


def crosstable_event_result(rows: Sequence[Sequence[str]], *, source: str) -> EventResult:
    """DESIGN.md Inputs (a series' events: a published crosstable) — the places (``Rk.``, its
    tie-breaks already applied), points (``Pts.``) and every round of a chess-results "Final
    Ranking crosstable" export; ``rows``: the sheet's cells as text, row by row. Raises
    ValueError naming the row (the sheet's line), the column, the value and the reason for a
    table it cannot read.

    Decision: a player's number in the event (the key the rounds name opponents by) is their
    row in the table (the crosstable numbers its rows so; a place shared with the row above is
    left blank there, and is that row's place); the event is complete when the title
    line's "after N Rounds" equals its round columns (no such line: complete); a rating 0 is
    no rating."""
    head = next((i for i, row in enumerate(rows)
                 if {"Rk.", "Name"} <= {c.strip() for c in row}), None)
    if head is None:
        raise ValueError(f"{source}: no header row with 'Rk.' and 'Name': not a crosstable "
                         "(chess-results' 'Final Ranking crosstable' export)")
    header = [c.strip() for c in rows[head]]

    def column(*names: str) -> int | None:
        return next((i for i, c in enumerate(header) if c.rstrip(".").lower() in names), None)

    rk, name = header.index("Rk."), header.index("Name")
    rtg, fed, fide = column("rtg", "elo"), column("fed", "land"), column("fideid", "fide-id", "id")
    title = rk + 1 if name - rk == 2 and not header[rk + 1] else column("title", "tit")
    pts = next((i for i, c in enumerate(header) if c.lower().startswith("pts")), None)
    rounds = [(int(m[1]), i) for i, c in enumerate(header) if (m := ROUND.match(c))]
    if pts is None or not rounds:
        raise ValueError(f"{source}: line {head + 1}: the header has no "
                         f"{'Pts.' if pts is None else 'round'} column: not a crosstable")

    finishes: list[Finish] = []
    place = 0
    for i in range(head + 1, len(rows)):
        row = list(rows[i]) + [""] * (len(header) - len(rows[i]))
        if not row[name].strip():
            break  # the table's end (a blank row, the footer)
        if row[rk].strip():
            if not row[rk].strip().isdigit():
                raise _bad(source, i, header, row, rk, "not a place")
            place = int(row[rk])
        elif not finishes:
            raise _bad(source, i, header, row, rk, "the first player has no place")

        def bad(col: int, reason: str, i: int = i, row: list[str] = row) -> ValueError:
            return _bad(source, i, header, row, col, reason)

        played: list[RoundResult] = []
        for rnd, col in rounds:
            cell = row[col].strip()
            if cell in ("", "0"):
                continue  # not paired in that round (withdrawn, not yet entered)
            if m := GAME.match(cell):
                played.append(RoundResult(rnd, str(int(m[1])), POINTS[m[3]], m[3] in PLAYED))
            elif m := NO_OPPONENT.match(cell):
                played.append(RoundResult(rnd, None, POINTS[m[1]], False))
            else:
                raise bad(col, "not a round's result (e.g. '41b1', '25w½', '83b+', '-1')")
        points = _number(row[pts])
        if points is None:
            raise bad(pts, "not a number of points")
        rating = _number(row[rtg]) if rtg is not None and row[rtg].strip() else None
        if rtg is not None and row[rtg].strip() and rating is None:
            raise bad(rtg, "not a rating")
        finishes.append(Finish(
            key=str(len(finishes) + 1), name=" ".join(row[name].split()), section="",
            rank=place, points=points, rounds=tuple(played),
            rating=int(rating) if rating else None,
            fide_id=row[fide].strip() if fide is not None and row[fide].strip() not in ("", "0") else "",
            federation=row[fed].strip().upper() if fed is not None else "",
            title=row[title].strip() if title is not None else ""))
    if not finishes:
        raise ValueError(f"{source}: line {head + 1}: the crosstable has no player")
    event = next((r[0].strip() for r in rows[:head] if r and r[0].strip()
                  and not r[0].startswith("From the ")), source)
    total = len(rounds)
    said = next((int(m[1]) for r in rows[:head] if r and (m := DONE.search(r[0]))), total)
    start, end = _dates(rows[:head])
    return EventResult(source=source, name=event, start=start, end=end, rounds=total,
                       done=min(said, total), finishes=tuple(finishes),
                       sections=(("", event),))

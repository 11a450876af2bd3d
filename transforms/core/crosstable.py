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
DONE = re.compile(r"ranking (?:crosstable )?after (\d+) rounds?|ranking (?:crosstable )?after round (\d+)",
                  re.IGNORECASE)
"""The title line: "Final Ranking crosstable after 7 Rounds", "Final Ranking after 9 Rounds",
"Ranking crosstable after Round 5", "Ranking after Round 5" (the rounds complete)."""
TOTAL = re.compile(r"^number of rounds\s*:\s*(\d+)", re.IGNORECASE)
"""The header block's "Number of rounds : 7" (the event's rounds)."""
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
    left blank there, and is that row's place); the event's rounds are the header block's
    "Number of rounds : N" (else its round columns), and it is complete when the title line's
    "after N Rounds" (or "after Round N") reaches them (no such line: complete); a rating 0 is
    no rating.

    Decision (a ranking without rounds, chess-results' "Final Ranking" export): read too —
    places, points, ratings, federations — with no round of any player
    (:attr:`~transforms.core.results.EventResult.ranking_only`); it must carry "Number of
    rounds" and its title line ("Final Ranking after 9 Rounds", or "Ranking after Round 5"
    while in play), else it is refused: nothing else says whether the event is complete."""
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
    title = name - 1 if name > 0 and not header[name - 1] else column("title", "tit")  # (unnamed, before Name)
    pts = next((i for i, c in enumerate(header) if c.lower().startswith("pts")), None)
    rounds = [(int(m[1]), i) for i, c in enumerate(header) if (m := ROUND.match(c))]
    if pts is None:
        raise ValueError(f"{source}: line {head + 1}: the header has no Pts. column: not a "
                         "crosstable or a ranking")
    total = next((int(m[1]) for r in rows[:head] if r and (m := TOTAL.match(r[0].strip()))), len(rounds))
    said = next((int(m[1] or m[2]) for r in rows[:head] if r and (m := DONE.search(r[0]))), None)
    if not rounds and (said is None or not total):
        raise ValueError(f"{source}: line {head + 1}: a ranking without round columns must say "
                         "how many rounds the event has and how many are complete (chess-results' "
                         "'Number of rounds : 9' and 'Final Ranking after 9 Rounds' lines): "
                         "without them it cannot be counted")

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
    start, end = _dates(rows[:head])
    return EventResult(source=source, name=event, start=start, end=end, rounds=total,
                       done=min(total if said is None else said, total), finishes=tuple(finishes),
                       sections=(("", event),), ranking_only=not rounds)

"""An event's final results read from its TRF (FIDE C.04 Annex 2, TRF-16 or TRF-2026), the
file every pairing program exports: what a series needs of an event another program ran
(:class:`transforms.core.results.EventResult`)."""

from __future__ import annotations

import datetime as dt
import re

from transforms.core.model import Kind
from transforms.core.results import EventResult, Finish, RoundResult
from transforms.fide.trf import parse_trf

SEX = {"m": "M", "w": "F", "f": "F"}
"""TRF column 10 (``m``/``w``) as the registry's sex."""


def _date(text: str) -> dt.date | None:
    m = re.fullmatch(r"(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})", text.strip())
    if not m:
        return None
    try:
        return dt.date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return None


def trf_event_result(text: str, *, source: str) -> EventResult:
    """FIDE C.04 Annex 2 (records 001, 012, 042, 052, XXR/142) — the places and points of the
    ``001`` records as the program that ran the event wrote them (its tie-breaks decided the
    places), and every round's result. Raises :class:`transforms.core.errors.InputError` for a
    TRF that cannot be read.

    Decision: where the file has no places (every rank 0) the places follow the points, equal
    points sharing a place; the rounds done are the last round any player has a result in (a
    TRF is exported when they are complete), and the event is complete when that is the last
    round the file announces (XXR/142; without one, always)."""
    t = parse_trf(text, source=source)
    rounds: dict[int, list[RoundResult]] = {}
    for rnd, sno, opp, _colour, points, kind in sorted(t.card_rows):
        rounds.setdefault(sno, []).append(RoundResult(
            rnd, str(opp) if opp is not None else None, float(points), Kind(kind).is_played))
    last = max((r for r, *_ in t.card_rows), default=0)
    total = t.total_rounds or last
    ranks = {p.sno: p.rank for p in t.players}
    if not any(ranks.values()):
        ordered = sorted(t.players, key=lambda p: -p.points)
        ranks = {}
        for i, p in enumerate(ordered, start=1):
            ranks[p.sno] = ranks[ordered[i - 2].sno] if i > 1 and ordered[i - 2].points == p.points else i
    finishes = tuple(Finish(
        key=str(p.sno), name=p.name, section="", rank=ranks[p.sno] or None, points=float(p.points),
        rounds=tuple(rounds.get(p.sno, ())), rating=p.rating or None, fide_id=p.fide_id.strip(),
        federation=p.fed.strip().upper(), title=p.title.strip(), sex=SEX.get(p.sex.lower(), ""),
        birth_year=int(p.birth[:4]) if p.birth[:4].isdigit() else None) for p in t.players)
    return EventResult(source=source, name=t.name or source, start=_date(t.header.start),
                       end=_date(t.header.end), rounds=total, done=min(last, total),
                       finishes=finishes, sections=(("", t.name or source),))

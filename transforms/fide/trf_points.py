"""FIDE C.04 Annex 2 — the points column of a TRF checked against the player's results, as the
FIDE-endorsed pairing engines check it: a file whose points disagree with its games (and no
``299`` record explains it) is invalid input. Apart from the reader (``trf.py``) because it
also reads the acceleration records (``acceleration.py``)."""

from __future__ import annotations

from transforms.core.errors import Finding, InputError, Severity
from transforms.core.model import Kind
from transforms.fide.acceleration import virtual_points
from transforms.fide.trf import DEFAULT_POINTS, Tournament


def expected_points(t: Tournament) -> dict[int, frozenset[float]]:
    """FIDE C.04 Annex 2 (points, columns 81-84) — for each player, the totals the points
    column may hold: the sum of the player's round entries under the file's point system
    (TRF-2026 ``162`` / ``XXS``), with the ``299`` abnormal points applied, either with or
    without the entries of the round still to be paired (requested byes, absences), and
    either with or without the fictitious points of an accelerated round (``250`` / ``XXA``)
    for that round.

    Decision: the tolerances are bbpPairings'; JaVaFo's manual asks the points to include the
    round still to be paired, a final report has no such round, so both are accepted. An
    ``*_BAKU`` tournament type without ``250``/``XXA`` records is accepted with 0, ½ or 1
    fictitious point (the Baku method's values), since the file does not say who got them."""
    played = max((r[0] for r in t.card_rows if r[2] is not None or r[5] == Kind.PAB), default=0)
    per_round: dict[int, dict[int, float]] = {}
    for rnd, sno, opp, colour, points, kind in t.card_rows:
        per_round.setdefault(sno, {})[rnd] = _abnormal(t, sno, rnd, opp, colour, kind, points)
    bonus = {p.sno: 0.0 for p in t.players}
    for a in t.abnormal_points:
        if not a.kind:
            for s in a.players:
                bonus[s] = bonus.get(s, 0.0) + a.points
    accel = _accelerations(t)
    baku = any("BAKU" in v.upper() for v in (t.header.encoded_type, t.header.type))
    out = {}
    for p in t.players:
        entries = per_round.get(p.sno, {})
        full = sum(entries.values()) + bonus.get(p.sno, 0.0)
        done = sum(v for r, v in entries.items() if r <= played) + bonus.get(p.sno, 0.0)
        extras = {0.0, accel.get((p.sno, played + 1), 0.0), accel.get((p.sno, played), 0.0)}
        if baku and not accel:
            extras |= {t.scoring.draw_white, t.scoring.win_white}
        out[p.sno] = frozenset(round(base + x, 4) for base in (full, done) for x in extras)
    return out


def check_points(t: Tournament, *, source: str = "") -> list[Finding]:
    """FIDE C.04 Annex 2 — every player whose points (columns 81-84) disagree with the
    player's results (see :func:`expected_points`), as error findings quoting the line:
    such a file is invalid input, as for the FIDE-endorsed pairing engines."""
    out = []
    allowed = expected_points(t)
    for p in t.players:
        ok = allowed[p.sno]
        if any(abs(p.points - v) < 1e-6 for v in ok):
            continue
        lineno, text = t.line(f"001:{p.sno}")
        want = " or ".join(f"{v:.1f}" for v in sorted(ok))
        system = "" if t.scoring == DEFAULT_POINTS else " under the file's point system"
        out.append(Finding(source, lineno, "points", text or f"001 {p.sno}", Severity.ERROR,
                           f"player {p.sno} has {p.points:.1f} points in columns 81-84 but "
                           f"the results add up to {want}{system}, and no 299 record explains "
                           "the difference"))
    return out


def _abnormal(t: Tournament, sno: int, rnd: int, opp: int | None, colour: str | None,
              kind: str, points: float) -> float:
    """The points of one entry after the ``299`` records that name its result type."""
    code = {Kind.FORFEIT_WIN: "+", Kind.FORFEIT_LOSS: "-", Kind.FPB: "F", Kind.HPB: "H",
            Kind.ZPB: "Z", Kind.ABSENT: "Z", Kind.PAB: ""}.get(Kind(kind))
    if code is None:  # played
        code = {"1": "W", "=": "D", "0": "L"}[t.scoring.played_code(points, colour)]
    for a in t.abnormal_points:
        if (a.kind and a.kind == code and (a.round is None or a.round == rnd)
                and (not a.players or sno in a.players)):
            points = a.points
    return points


def _accelerations(t: Tournament) -> dict[tuple[int, int], float]:
    """(sno, round) → virtual points of the file's ``XXA`` / ``250`` records; none when they
    are malformed (the acceleration reader reports that)."""
    try:
        per = virtual_points(t)
    except InputError:
        return {}
    return {(s, r): v for s, vals in per.items() for r, v in enumerate(vals, start=1)}

"""FIDE C.04.6 1.2-1.6 and GHR (C.04.2) 3.2-3.5 — each team's state before a round, from the
team card (:data:`transforms.team.matches.CARD_SCHEMA`: one row per team and round, ``kind``
``played``, ``forfeit_win``, ``forfeit_loss``, ``PAB``, ``FPB``/``HPB``/``ZPB`` or ``absent``;
TRF-2026 team files give the same card, :mod:`transforms.fide.team_trf`), and the round's
settings from the competition's rules or a file's ``192`` code.

The team's colour in a match is board 1's colour (C.04.6 1.6.1). Only matches played over the
board give a colour and a meeting (GHR 3.4, 3.5: teams whose match was forfeited may meet
again); a pairing-allocated bye, a forfeit win or a full-point bye bars the bye (C2).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import polars as pl

from transforms.core.model import Colour
from transforms.fide.team_swiss.model import PreferenceType, RoundSettings, TeamState

BARS_THE_BYE = ("PAB", "forfeit_win", "FPB")
"""C.04.6 C2: the kinds of round after which a team gets no pairing-allocated bye."""


def states_before(card: pl.DataFrame, rnd: int, *, primary: str, teams: Iterable[int] = (),
                  absent: Iterable[int] = ()) -> list[TeamState]:
    """FIDE C.04.6 1.2-1.6 — each team's state before round ``rnd``: its primary score
    (``primary`` ``"MP"`` or ``"GP"``) and the other as the secondary (4.2.2), the board-1
    colours and opponents of its played matches, whether C2 bars it from the bye, whether it
    floated in round ``rnd - 1`` (it met a team with another score, 1.5), and whether it is
    ``absent`` this round (GHR 3.2-3.3). ``teams``: every team of the event (a team with no
    row yet — a late entry, GHR 2.4 — starts on 0)."""
    first, second = ("mp", "gp") if primary.upper() == "MP" else ("gp", "mp")
    rows = sorted((r for r in card.iter_rows(named=True) if r["round"] < rnd),
                  key=lambda r: (r["round"], r["sno"]))
    every = sorted(set(teams) | {int(r["sno"]) for r in card.iter_rows(named=True)})
    history: dict[int, list[dict[str, Any]]] = {t: [] for t in every}
    for r in rows:
        history[int(r["sno"])].append(r)
    before_last: dict[int, float] = {}  # the score each team had before round rnd - 1
    total: dict[int, float] = {}
    for t in every:
        total[t] = sum(float(r[first] or 0.0) for r in history[t])
        before_last[t] = sum(float(r[first] or 0.0) for r in history[t] if r["round"] < rnd - 1)
    away = set(absent)
    out = []
    for t in every:
        played = [r for r in history[t] if r["kind"] == "played"]
        last = next((r for r in history[t] if r["round"] == rnd - 1), None)
        floated = (last is not None and last["kind"] == "played" and last["opponent"] is not None
                   and before_last[t] != before_last.get(int(last["opponent"]), before_last[t]))
        out.append(TeamState(
            tpn=t, score=total[t],
            secondary=sum(float(r[second] or 0.0) for r in history[t]),
            colours=tuple(Colour(str(r["colour"]).lower()) for r in played),
            met=frozenset(int(r["opponent"]) for r in played),
            bye_barred=any(r["kind"] in BARS_THE_BYE for r in history[t]),
            floated=floated, matches_played=len(played), absent=t in away))
    return out


def settings_of_type(type_code: str, *, round: int, rounds: int, initial: str = "W"
                     ) -> RoundSettings:
    """FIDE TRF-2026 ``192`` (research note section 5.1) — the round's settings from a team file's
    type code, as FIDE TEC's program reads it: ``TYPEA``/``TYPEB`` the colour preferences
    (``FIDE_TEAM`` and ``FIDE_TEAM_BAKU`` are type A; a code with neither has none), a second
    score after the first (``_MP_GP``) the secondary score used for colours; ``initial``: the
    ``152`` initial colour."""
    code = type_code.upper()
    tokens = code.split("_")
    kind = (PreferenceType.B if "TYPEB" in tokens else PreferenceType.A
            if "TYPEA" in tokens or code in ("FIDE_TEAM", "FIDE_TEAM_BAKU") else PreferenceType.NONE)
    secondary = ("MP" in tokens and "GP" in tokens) or code in ("FIDE_TEAM", "FIDE_TEAM_BAKU")
    return RoundSettings(round=round, rounds=rounds, preferences=kind,
                         initial_colour=Colour.BLACK if initial.upper().startswith("B") else Colour.WHITE,
                         secondary_for_colours=secondary)

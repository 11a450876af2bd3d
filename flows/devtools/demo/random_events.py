"""Deterministic random Swiss tournaments, for benchmarks and property tests.

The history is made with a simple greedy Swiss (score order, no rematches, alternating
colours), not with the Dutch engine, so that large fields can be generated quickly; results
are drawn from the rating difference. Everything comes from ``random.Random(seed)``.
"""

from __future__ import annotations

import random
from dataclasses import replace

import polars as pl

from transforms.core.model import SCORECARD_SCHEMA, Acceleration, Colour
from transforms.fide.acceleration import acceleration_records
from transforms.fide.trf import Tournament, tournament_from_scorecard


def random_tournament(players: int, rounds_played: int, *, total_rounds: int | None = None,
                      seed: int = 1, edition: str = "2025", bye_rate: float = 0.02,
                      forfeit_rate: float = 0.01,
                      acceleration: Acceleration = Acceleration.NONE) -> Tournament:
    """A tournament of ``players`` players after ``rounds_played`` rounds; with an
    ``acceleration``, the file carries its virtual points (``XXA``/``250``) for the pairing
    engines (the greedy history ignores them)."""
    rng = random.Random(seed)
    ratings = sorted((rng.randint(1000, 2700) for _ in range(players)), reverse=True)
    snos = list(range(1, players + 1))
    score = {s: 0.0 for s in snos}
    met: dict[int, set[int]] = {s: set() for s in snos}
    last_colour: dict[int, str] = {}
    had_bye: set[int] = set()
    rows: list[dict] = []
    for rnd in range(1, rounds_played + 1):
        absent = {s for s in snos if rng.random() < bye_rate}
        order = sorted((s for s in snos if s not in absent), key=lambda s: (-score[s], s))
        if len(order) % 2:
            bye = next((s for s in reversed(order) if s not in had_bye), order[-1])
            order.remove(bye)
            had_bye.add(bye)
            rows.append(_row(rnd, bye, None, None, 1.0, "PAB"))
            score[bye] += 1.0
        for s in absent:
            kind, pts = ("HPB", 0.5) if rng.random() < 0.5 else ("ZPB", 0.0)
            rows.append(_row(rnd, s, None, None, pts, kind))
            score[s] += pts
        while order:
            a = order.pop(0)
            k = next((i for i, b in enumerate(order) if b not in met[a]), 0)
            b = order.pop(k)
            met[a].add(b)
            met[b].add(a)
            white, black = (a, b) if last_colour.get(a) != "w" else (b, a)
            last_colour[white], last_colour[black] = "w", "b"
            if rng.random() < forfeit_rate:
                rows.append(_row(rnd, white, black, "w", 1.0, "forfeit_win"))
                rows.append(_row(rnd, black, white, "b", 0.0, "forfeit_loss"))
                score[white] += 1.0
                continue
            expected = 1 / (1 + 10 ** ((ratings[black - 1] - ratings[white - 1]) / 400))
            x = rng.random()
            pw = 1.0 if x < expected - 0.15 else 0.5 if x < expected + 0.15 else 0.0
            rows.append(_row(rnd, white, black, "w", pw, "played"))
            rows.append(_row(rnd, black, white, "b", 1.0 - pw, "played"))
            score[white] += pw
            score[black] += 1.0 - pw
    card = pl.DataFrame(rows, schema=SCORECARD_SCHEMA, orient="row") if rows else pl.DataFrame(
        schema=SCORECARD_SCHEMA)
    frame = pl.DataFrame({"sno": snos, "name": [f"Player {s:04d}" for s in snos],
                          "rating": ratings})
    total = total_rounds or max(rounds_played + 1, 9)
    t = tournament_from_scorecard(
        frame, card, name=f"Random {players} seed {seed}", total_rounds=total,
        initial_colour=Colour.WHITE if rng.random() < 0.5 else Colour.BLACK, edition=edition)
    return replace(t, other_records=acceleration_records(acceleration, snos, total))


def _row(rnd: int, sno: int, opp: int | None, colour: str | None, pts: float,
         kind: str) -> dict:
    return {"round": rnd, "sno": sno, "opponent": opp, "colour": colour, "points": pts,
            "kind": kind}

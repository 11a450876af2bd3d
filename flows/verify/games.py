"""Results drawn from rating expectancy, for the demo (``chessfed simulate``).

Seeded: the same seed gives the same tournament. Not a rule of any regulation; it exists
so the demo event can be played through all its rounds by our own engine."""

from __future__ import annotations

import random

WHITE_ADVANTAGE = 35
"""Rating points white's first move is worth (a common modelling assumption)."""


def expected_score(r_white: int, r_black: int) -> float:
    """FIDE rating expectancy (logistic form) with white's advantage."""
    return 1.0 / (1.0 + 10 ** ((r_black - r_white - WHITE_ADVANTAGE) / 400))


def draw_game(r_white: int, r_black: int, rng: random.Random) -> tuple[str, int]:
    """A result code and a move count for one game."""
    e = expected_score(r_white or 1400, r_black or 1400)
    p_draw = 0.32 * (1 - min(1.0, abs(e - 0.5) * 1.6))
    p_win = max(0.0, e - p_draw / 2)
    x = rng.random()
    if x < p_win:
        return "1-0", rng.randint(25, 75)
    if x < p_win + p_draw:
        return "1/2-1/2", rng.randint(30, 70) if rng.random() > 0.05 else rng.randint(16, 29)
    return "0-1", rng.randint(25, 75)

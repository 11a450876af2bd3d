"""Deterministic demo inputs of the Harbourtown International Open (``inputs/harbour-open-2026/``):
a FIDE-rated Swiss that is a title tournament — grandmasters, international masters, women's
title holders and FIDE masters of nine federations with a field of club players of the host
federation (BEL), so that its pages show title norms made and in reach (FIDE B.01).

Invented people: names drawn from the club demo's lists (:mod:`flows.devtools.demo.club`), a
seeded ``random.Random``; the results are played by :func:`flows.devtools.simulate.simulate`.
"""

from __future__ import annotations

import random

import polars as pl

from flows.devtools.demo.club import COLUMNS, invented_name

FIELD = (
    # (title, rating from, rating to, how many, federations)
    ("GM", 2520, 2610, 5, ["NED", "GER", "FRA", "ENG", "POL"]),
    ("IM", 2390, 2480, 8, ["NED", "GER", "BEL", "ESP", "IND", "BEL", "FRA", "USA"]),
    ("WGM", 2330, 2390, 2, ["IND", "POL"]),
    ("WIM", 2200, 2280, 3, ["BEL", "GER", "ESP"]),
    ("FM", 2280, 2380, 8, ["BEL", "BEL", "NED", "GER", "IND", "BEL", "ENG", "USA"]),
    ("", 2050, 2300, 14, ["BEL"] * 9 + ["NED", "GER", "FRA", "ESP", "ENG"]),
)
"""The field: 40 players, the titled ones first."""


def demo_norms_open_files(seed: int = 2026) -> dict[str, pl.DataFrame]:
    """players.csv of the Harbourtown Open (40 players, ten rounds)."""
    rng = random.Random(seed)
    rows: list[dict[str, str]] = []
    used: set[str] = set()
    fide = iter(range(20_600_101, 99_999_999, 7_919))
    for title, low, high, n, feds in FIELD:
        for i in range(n):
            woman = title.startswith("W") or (not title and rng.random() < 0.2)
            first, name = invented_name(rng, woman, used)
            pid = f"H{len(rows) + 1:02d}"
            rows.append({"player_id": pid, "name": name, "rating": str(rng.randint(low, high)),
                         "fide_id": str(next(fide)), "title": title, "federation": feds[i],
                         "sex": "F" if woman else "M", "club": "",
                         "email": f"{first.lower()}.{pid.lower()}@players.example"})
    rng.shuffle(rows)  # the office's list is in the order the entries came
    return {"players.csv": pl.DataFrame(rows, schema={k: pl.String for k in COLUMNS})}

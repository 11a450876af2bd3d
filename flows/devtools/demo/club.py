"""Deterministic demo inputs of the two club events: a plain FIDE Swiss (the Riverside Club
Open, ``inputs/club-open-2025/``) and a round robin (the Riverside Club Championship,
``inputs/club-championship-2025/``).

Realistic but invented: the club, its town and its people; names are drawn from common given
names and surnames, and a seeded ``random.Random`` makes every run identical. players.csv has
a plain Swiss's columns only (no entry rules: every row is a player). The results are played
afterwards by :func:`flows.devtools.simulate.simulate` (seeded, drawn from rating expectancy)
through the rounds the demo has reached.
"""

from __future__ import annotations

import random

import polars as pl

MEN = ["Lucas", "Louis", "Arthur", "Noah", "Jules", "Victor", "Finn", "Milan", "Vincent", "Thomas",
       "Pieter", "Tom", "Bram", "Wout", "Kobe", "Elias", "Mathis", "Simon", "Jonas", "Hugo",
       "Ruben", "Stijn", "Adam", "Robin", "Lars"]
WOMEN = ["Emma", "Olivia", "Louise", "Mila", "Elena", "Nora", "Lina", "Ella", "Julie", "Sarah",
         "Anke", "Lotte", "Sofie", "Eline", "Marie", "Hanna", "Lise", "Femke", "Zoe", "Ines"]
SURNAMES = ["Peeters", "Janssens", "Maes", "Jacobs", "Mertens", "Willems", "Claes", "Goossens",
            "Wouters", "De Smet", "Dubois", "Lambert", "Dupont", "Martens", "Hermans",
            "Vermeulen", "Pauwels", "Leroy", "Van Damme", "Verstraeten", "Michiels", "Renard",
            "Aerts", "Hendrickx", "Coppens", "Stevens", "Segers", "De Backer", "Lemmens", "Verhoeven"]
CLUBS = ["Riverside CC", "Riverside CC", "Riverside CC", "Northgate Chess", "Castle Rook Riverton",
         "Old Harbour Knights", "Linden Chess Circle"]
"""The players' clubs (the host club's members are most of the field)."""
ABROAD = {"NED": 0.06, "FRA": 0.04, "GER": 0.03}
"""Share of the field from each neighbouring federation; the rest are ``BEL``."""

COLUMNS = ["player_id", "name", "rating", "fide_id", "title", "federation", "sex", "club", "email"]
"""players.csv of the club events: a plain Swiss's columns (transforms/swiss/schemas.py)."""


def invented_name(rng: random.Random, woman: bool, used: set[str]) -> tuple[str, str]:
    """A given name and a "Surname, Given" not in ``used`` (added to it), drawn from the lists."""
    while True:
        first = rng.choice(WOMEN if woman else MEN)
        name = f"{rng.choice(SURNAMES)}, {first}"
        if name not in used:
            used.add(name)
            return first, name


def club_players(n: int, *, seed: int, prefix: str, mean: int, spread: int,
                 unrated: int = 0, titles: dict[int, str] | None = None) -> pl.DataFrame:
    """``n`` invented players (``prefix`` + number as the id): ratings drawn around ``mean``
    (the best first), the last ``unrated`` without a rating or a FIDE ID, ``titles`` by place
    (0 the best: ``{0: "FM"}``); a woman's title goes to a woman."""
    rng = random.Random(seed)
    ratings = sorted((max(1050, min(2450, int(rng.gauss(mean, spread)))) for _ in range(n - unrated)),
                     reverse=True)
    titles = titles or {}
    used: set[str] = set()
    fide = iter(range(2_300_017, 99_999_999, 7_919))
    rows = []
    for i in range(n):
        title = titles.get(i, "")
        woman = title.startswith("W") or (not title and rng.random() < 0.22)
        first, name = invented_name(rng, woman, used)
        x, federation = rng.random(), "BEL"
        for fed, share in ABROAD.items():
            if x < share:
                federation = fed
                break
            x -= share
        rated = i < len(ratings)
        pid = f"{prefix}{i + 1:02d}"
        rows.append({
            "player_id": pid, "name": name, "rating": str(ratings[i]) if rated else "",
            "fide_id": str(next(fide)) if rated else "", "title": title,
            "federation": federation, "sex": "F" if woman else "M", "club": rng.choice(CLUBS),
            "email": f"{first.lower()}.{pid.lower()}@players.example",
        })
    order = list(range(n))
    rng.shuffle(order)  # the office's list is in the order the entries came, not by rating
    return pl.DataFrame([rows[i] for i in order], schema={k: pl.String for k in COLUMNS})


def demo_club_open_files(seed: int = 2025) -> dict[str, pl.DataFrame]:
    """The Club Open's players.csv (41 players: one gets the pairing-allocated bye each round),
    bye_requests.csv (two half-point byes, one played, one to come) and withdrawals.csv (one
    player who leaves before round 5)."""
    players = club_players(41, seed=seed, prefix="P", mean=1720, spread=260, unrated=4,
                           titles={0: "FM", 2: "WIM", 5: "CM"})
    ids = sorted(players["player_id"])
    byes = pl.DataFrame({"player_id": [ids[17], ids[30]], "round": ["3", "6"],
                         "kind": ["HPB", "HPB"]})
    withdrawals = pl.DataFrame({"player_id": [ids[25]], "from_round": ["5"],
                                "reason": ["moved away, withdrawn with the arbiter's permission"]})
    return {"players.csv": players, "bye_requests.csv": byes, "withdrawals.csv": withdrawals}


def demo_club_championship_files(seed: int = 2025) -> dict[str, pl.DataFrame]:
    """The Club Championship's players.csv: the club's ten best (start numbers drawn by lot
    from ``[round_robin] draw_seed``)."""
    players = club_players(10, seed=seed + 1, prefix="R", mean=2020, spread=120,
                           titles={0: "FM", 3: "CM"})
    return {"players.csv": players.with_columns(club=pl.lit("Riverside CC"))}

"""``make bench-norms`` — how long FIDE B.01's norm evaluation (:mod:`transforms.fide.norms`)
takes on a generated title tournament: a Swiss open of ``--players`` players (a tenth GMs, a
sixth IMs, women's title holders and FMs of ten federations), ``--rounds`` rounds paired
score group by score group and played by rating expectancy (seeded). It times the norms after
the last round, and after the round before it with the forecast of the last round (the next
opponents known), as a run's norms step does.

    python -m flows.devtools.bench_norms --players 300 --rounds 11
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import polars as pl

from transforms.core.model import SCORECARD_SCHEMA
from transforms.fide.norms import NormEvent, event_norms

FEDERATIONS = ("ENG", "GER", "FRA", "IND", "USA", "NED", "ESP", "POL", "BEL", "NOR")
BASE = {"GM": 2550, "IM": 2420, "WGM": 2350, "WIM": 2250, "FM": 2300, "": 2100}


def field(n: int, rng: random.Random) -> pl.DataFrame:
    """``n`` players: titles by share, ratings around each title's level."""
    shares = (("GM", 0.1), ("IM", 0.17), ("WGM", 0.03), ("WIM", 0.05), ("FM", 0.2))
    titles = [t for t, share in shares for _ in range(int(n * share))]
    titles += [""] * (n - len(titles))
    rows = [{"sno": i + 1, "name": f"Player {i + 1}", "rating": BASE[t] + rng.randint(-80, 80),
             "title": t, "federation": rng.choice(FEDERATIONS),
             "sex": "F" if t.startswith("W") or rng.random() < 0.1 else "M", "fide_id": str(i + 1)}
            for i, t in enumerate(titles)]
    return pl.DataFrame(rows)


def play(players: pl.DataFrame, rounds: int, rng: random.Random) -> pl.DataFrame:
    """A scorecard: each round the players in score order, each paired with the next one
    they have not met; results drawn from the rating difference."""
    rating = dict(zip(players["sno"], players["rating"]))
    score = dict.fromkeys(rating, 0.0)
    met: set[tuple[int, int]] = set()
    rows = []
    for r in range(1, rounds + 1):
        order = sorted(score, key=lambda s: (-score[s], rng.random()))
        while len(order) > 1:
            a = order.pop(0)
            b = next((x for x in order if (a, x) not in met), order[0])
            order.remove(b)
            met |= {(a, b), (b, a)}
            e = 1 / (1 + 10 ** ((rating[b] - rating[a]) / 400))
            x = rng.random()
            pa = 1.0 if x < e - 0.15 else 0.5 if x < e + 0.15 else 0.0
            score[a] += pa
            score[b] += 1 - pa
            rows += [{"round": r, "sno": a, "opponent": b, "colour": "w", "points": pa, "kind": "played"},
                     {"round": r, "sno": b, "opponent": a, "colour": "b", "points": 1 - pa, "kind": "played"}]
        for a in order:  # the odd one out: a pairing-allocated bye
            score[a] += 1
            rows.append({"round": r, "sno": a, "opponent": None, "colour": None, "points": 1.0, "kind": "PAB"})
    return pl.DataFrame(rows, schema=SCORECARD_SCHEMA)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m flows.devtools.bench_norms", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--players", type=int, default=300)
    p.add_argument("--rounds", type=int, default=11)
    p.add_argument("--seed", type=int, default=5)
    args = p.parse_args(argv)
    rng = random.Random(args.seed)
    players = field(args.players, rng)
    card = play(players, args.rounds, rng)
    event = NormEvent(rounds=args.rounds, host="BEL")
    t = time.perf_counter()
    end = event_norms(card, players, event, through=args.rounds)
    t_end = time.perf_counter() - t
    last = card.filter(pl.col("round") == args.rounds)
    t = time.perf_counter()
    before = event_norms(card.filter(pl.col("round") < args.rounds), players, event,
                         through=args.rounds - 1,
                         next_round=dict(zip(last["sno"], last["opponent"])))
    t_before = time.perf_counter() - t
    print(f"{args.players} players, {args.rounds} rounds: norms after the last round "
          f"{t_end:.2f} s ({len(end.achieved())} made); after round {args.rounds - 1} with the "
          f"forecast {t_before:.2f} s ({len(before.forecasts)} players in reach)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

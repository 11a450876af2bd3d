"""``make bench`` — time the Dutch pairing engine on generated tournaments.

Prints the pairing time at round 1 and at a middle round for 150, 400, 1,000 and 2,000
players, for both rule editions, and the peak memory of the process. Tournaments come from
``flows.demo.random_events`` (seeded, so every run pairs the same fields). Not a test.

    python -m flows.commands.bench [--sizes 150,400] [--editions 2025] [--rounds 9]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

from flows.demo.random_events import random_tournament
from transforms.fide.dutch.engine import pair_round


def peak_memory_mb() -> float:
    """Peak resident set size of this process (Linux reports KiB)."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / 1024 if sys.platform != "darwin" else rss / 1024 / 1024


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m flows.commands.bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="150,400,1000,2000")
    ap.add_argument("--editions", default="2017,2025")
    ap.add_argument("--rounds", type=int, default=9, help="total rounds (middle = half)")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",")]
    editions = args.editions.split(",")
    middle = args.rounds // 2 + 1
    print(f"{'edition':8} {'players':>7} {'round':>5} {'boards':>6} {'seconds':>8}")
    for edition in editions:
        for n in sizes:
            for rnd in (1, middle):
                t = random_tournament(n, rnd - 1, total_rounds=args.rounds,
                                      seed=args.seed + n, edition=edition)
                t0 = time.perf_counter()
                boards = pair_round(t, edition=edition)
                dt = time.perf_counter() - t0
                print(f"{edition:8} {n:7d} {rnd:5d} {len(boards):6d} {dt:8.2f}", flush=True)
    print(f"peak memory: {peak_memory_mb():.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

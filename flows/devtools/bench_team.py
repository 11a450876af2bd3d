"""``make bench-team`` — how long the team Swiss engine (FIDE C.04.6,
:mod:`transforms.fide.team_swiss`) takes to pair each round of a generated team Swiss (an
Olympiad: 200 teams of 4 boards, 11 rounds, type A), the way ``chessfed pair --team`` does it:
the TRF-2026 team file read, each team's history built, the round paired. Results are drawn by
the players' ratings (:func:`flows.devtools.gacrux_oracle.play_round`).

With ``--gacrux`` (and ``GACRUX_PYTHON`` naming an interpreter with ``gacrux==1.11.65``
installed, outside the project) FIDE TEC's reference program pairs the same file beside it,
one process per round, and the two pairings are compared.

    python -m flows.devtools.bench_team --teams 200 --rounds 11 [--gacrux]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from flows.cli.pair_team import pair_team_round
from flows.devtools.gacrux_oracle import (
    PROFILES,
    TeamPair,
    new_event,
    pair_next_round,
    play_round,
    write_trf,
)
from transforms.fide.team_trf import parse_team_trf


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench_team", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--teams", type=int, default=200)
    p.add_argument("--boards", type=int, default=4)
    p.add_argument("--rounds", type=int, default=11)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--gacrux", action="store_true", help="also time Gacrux on the same files")
    args = p.parse_args(argv)
    rng = random.Random(args.seed)
    event = new_event(rng, name=f"Bench {args.teams} teams", teams=args.teams, boards=args.boards,
                      rounds=args.rounds, code="FIDE_TEAM_TYPEA_MP_GP", seed=args.seed)
    ours: list[float] = []
    same = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.trf"
        for rnd in range(1, args.rounds + 1):
            path.write_text(write_trf(event, rnd - 1), encoding="latin-1")
            t0 = time.perf_counter()
            trf = parse_team_trf(path.read_text(encoding="latin-1"), source=str(path))
            t1 = time.perf_counter()
            got = pair_team_round(trf, rnd, frozenset())
            t2 = time.perf_counter()
            ours.append(t2 - t0)
            pairs = [TeamPair(w, b) for w, b in got.pairs] + (
                [TeamPair(got.bye, 0)] if got.bye is not None else [])
            line = (f"round {rnd:2}: chessfed {t2 - t0:6.3f} s (read {t1 - t0:.3f}, pair "
                    f"{t2 - t1:.3f})")
            if args.gacrux:
                g0 = time.perf_counter()
                _, theirs = pair_next_round(path)
                g = time.perf_counter() - g0
                agree = set(theirs) == set(pairs)
                same += agree
                line += f"; Gacrux {g:6.2f} s ({g / (t2 - t0):.0f}x); {'same' if agree else 'DIFFERENT'}"
            print(line, flush=True)
            play_round(rng, event, rnd, pairs, PROFILES["clean"])
    print(f"{args.teams} teams, {args.rounds} rounds: chessfed median {statistics.median(ours):.3f} s, "
          f"max {max(ours):.3f} s a round" + (f"; {same} of {args.rounds} rounds the same as "
                                              "Gacrux" if args.gacrux else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())

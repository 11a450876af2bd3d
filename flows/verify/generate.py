"""``chessfed generate`` — a random tournament, paired by chessfed's Dutch engine, as a TRF.

    chessfed generate --players 40 --rounds 9 [--rating-min 1400 --rating-max 2500]
                      [--draw-rate 0.3 --forfeit-rate 0.02 --hpb-rate 0.02
                       --withdrawal-rate 0.005] [--edition 2025] --seed 7 -o OUT.trf

FIDE's endorsement of a pairing program asks for a random tournament generator whose output
is reproducible from a seed: the same parameters and seed write the same file, byte for byte.
Rates are probabilities (0..1): a draw per game, a forfeit per game, a half-point bye per
player and round, a withdrawal per player and round (the rules: :mod:`flows.verify.generator`).
Without ``-o`` the file goes to standard output.

Exit status: 0 written; 1 written, but a round had no valid pairing (the file stops before
it, standard error says which); 2 bad parameters (nothing written).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from flows.io import atomic_write


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("generate", help="a random tournament paired by chessfed, as TRF "
                              "(reproducible from --seed)", description=__doc__,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    _arguments(p)
    p.set_defaults(func=run)


def _arguments(p: argparse.ArgumentParser) -> None:
    from flows.verify.generator import GeneratorParams

    d = GeneratorParams()
    p.add_argument("--players", type=int, default=d.players)
    p.add_argument("--rounds", type=int, default=d.rounds)
    p.add_argument("--rating-min", dest="rating_min", type=int, default=d.rating_min)
    p.add_argument("--rating-max", dest="rating_max", type=int, default=d.rating_max)
    p.add_argument("--draw-rate", dest="draw_rate", type=float, default=d.draw_rate)
    p.add_argument("--forfeit-rate", dest="forfeit_rate", type=float, default=d.forfeit_rate)
    p.add_argument("--hpb-rate", dest="hpb_rate", type=float, default=d.hpb_rate,
                   help="half-point bye requests, per player and round")
    p.add_argument("--withdrawal-rate", dest="withdrawal_rate", type=float,
                   default=d.withdrawal_rate, help="per player and round, from round 2")
    p.add_argument("--edition", choices=["2017", "2025"], default=d.edition)
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("-o", "--out", help="the TRF to write (default: standard output)")


def run(args: argparse.Namespace) -> int:
    from flows.verify.generator import GeneratorParams, generate

    params = GeneratorParams(players=args.players, rounds=args.rounds,
                             rating_min=args.rating_min, rating_max=args.rating_max,
                             draw_rate=args.draw_rate, forfeit_rate=args.forfeit_rate,
                             hpb_rate=args.hpb_rate, withdrawal_rate=args.withdrawal_rate,
                             edition=args.edition, seed=args.seed)
    bad = params.problems()
    if bad:
        for b in bad:
            print(f"chessfed generate: {b}", file=sys.stderr)
        return 2
    got = generate(params)
    if args.out in (None, "-"):
        sys.stdout.write(got.text)
    else:
        atomic_write(Path(args.out), got.text)
    if got.stopped_at is not None:
        print(f"chessfed generate: round {got.stopped_at} has no valid pairing (C.04.3 C1-C3); "
              f"the file holds rounds 1-{got.rounds_paired}", file=sys.stderr)
        return 1
    return 0

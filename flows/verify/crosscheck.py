"""``chessfed crosscheck`` — compare chessfed's Dutch engine with another pairing engine.

    chessfed crosscheck --engine /path/to/bbpPairings.exe [--events 6] [--players 40,120]
                        [--acceleration baku]

Plays seeded random events in which the *other* engine (any program with the JaVaFo /
bbpPairings interface: ``ENGINE --dutch IN.trf -p OUT.txt``) pairs every round, results are
drawn from rating expectancy (with absences, half-point byes and forfeits), and at every
round chessfed pairs the same TRF file too. Each round whose pairing (boards, colours, bye)
differs is printed; the summary gives the share of identical rounds and both engines' time.
Exit status 0 when every round is identical, 1 otherwise, 3 when the engine cannot be run.

With ``--campaign DIR`` it runs a resumable, parallel cross-verification campaign of
generated tournaments instead (:mod:`flows.verify.campaign`).

Use it to check a new chessfed version against a FIDE-endorsed engine before an event, or to
check another engine against chessfed. Nothing is written outside a temporary folder.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from flows.verify import campaign
from flows.verify.campaign import parse_pairing
from transforms.core.model import Acceleration, DutchEdition

__all__ = ["parse_pairing", "play_event", "run"]

EXIT_SAME, EXIT_DIFFERENT, EXIT_ENGINE = 0, 1, 3

Board = tuple[int, "int | None"]


@dataclass(frozen=True)
class RoundCheck:
    """One round of one event: both engines' pairings and times."""

    event: str
    round: int
    theirs: list[Board] | None
    """``None`` when the other engine found no pairing (exit 1)."""
    ours: list[Board] | None
    their_seconds: float
    our_seconds: float

    @property
    def same(self) -> bool:
        return self.theirs == self.ours


def play_event(engine: list[str], players: int, rounds: int, seed: int, edition: str,
               folder: Path, *, absent_rate: float = 0.03, forfeit_rate: float = 0.01,
               acceleration: str = "none") -> list[RoundCheck]:
    """Play one event paired by ``engine``; pair every round with chessfed as well. With
    ``acceleration="baku"`` every file carries the Baku virtual points (FIDE C.04.5.1) as
    ``XXA``/``250`` records, which both engines read from the file."""
    from dataclasses import replace

    import polars as pl

    from flows.verify.games import draw_game
    from transforms.core.errors import NoValidPairing
    from transforms.core.model import SCORECARD_SCHEMA, Acceleration, Colour
    from transforms.fide.acceleration import acceleration_records
    from transforms.fide.dutch.engine import pair_round
    from transforms.fide.trf import parse_trf, tournament_from_scorecard, write_trf

    rng = random.Random(seed)
    ratings = sorted((rng.randint(1000, 2700) for _ in range(players)), reverse=True)
    frame = pl.DataFrame({"sno": list(range(1, players + 1)),
                          "name": [f"Player {s:03d}" for s in range(1, players + 1)],
                          "rating": ratings})
    initial = Colour.WHITE if rng.random() < 0.5 else Colour.BLACK
    name = f"{edition}-{players}p-{rounds}r-seed{seed}" + (
        f"-{acceleration}" if acceleration != "none" else "")
    records = acceleration_records(Acceleration(acceleration), list(range(1, players + 1)), rounds)
    rows: list[tuple] = []
    withdrawn: set[int] = set()
    out: list[RoundCheck] = []
    for rnd in range(1, rounds + 1):
        if rnd > 2 and rng.random() < 0.3:
            withdrawn.add(rng.randint(1, players))
        for s in range(1, players + 1):
            if s in withdrawn:
                rows.append((rnd, s, None, None, 0.0, "ZPB"))
            elif rng.random() < absent_rate:
                rows.append((rnd, s, None, None, 0.5, "HPB") if rng.random() < 0.5
                            else (rnd, s, None, None, 0.0, "ZPB"))
        card = pl.DataFrame(rows, schema=SCORECARD_SCHEMA, orient="row")
        t = tournament_from_scorecard(frame, card, name=name, total_rounds=rounds,
                                      initial_colour=initial, edition=edition)
        t = replace(t, other_records=records)
        trf = folder / f"{name}-r{rnd:02d}.trf"
        trf.write_text(write_trf(t), encoding="utf-8")
        result = folder / f"{name}-r{rnd:02d}.txt"
        t0 = time.perf_counter()
        done = subprocess.run([*engine, "--dutch", str(trf), "-p", str(result)],
                              capture_output=True, text=True)
        their_seconds = time.perf_counter() - t0
        if done.returncode not in (0, 1):
            raise OSError(f"{' '.join(engine)} exited {done.returncode} on {trf.name}: "
                          f"{(done.stderr or done.stdout).strip()[:200]}")
        theirs = None
        if done.returncode == 0:
            text = result.read_text() if result.exists() else ""
            try:
                theirs = parse_pairing(text)
            except ValueError as e:
                raise OSError(f"{' '.join(engine)} wrote no valid pairing for {trf.name} "
                              f"({result.name}): {e}") from e
        t0 = time.perf_counter()
        try:
            ours: list[Board] | None = pair_round(parse_trf(trf.read_text(), source=str(trf)),
                                                  edition=edition)
        except NoValidPairing:
            ours = None
        out.append(RoundCheck(name, rnd, theirs, ours, their_seconds,
                              time.perf_counter() - t0))
        if theirs is None:
            break
        for w, b in theirs:
            if b is None:
                rows.append((rnd, w, None, None, 1.0, "PAB"))
            elif rng.random() < forfeit_rate:
                rows.append((rnd, w, b, "w", 1.0, "forfeit_win"))
                rows.append((rnd, b, w, "b", 0.0, "forfeit_loss"))
            else:
                code, _moves = draw_game(ratings[w - 1], ratings[b - 1], rng)
                pw = {"1-0": 1.0, "0-1": 0.0}.get(code, 0.5)
                rows.append((rnd, w, b, "w", pw, "played"))
                rows.append((rnd, b, w, "b", 1.0 - pw, "played"))
    return out


def _describe(c: RoundCheck) -> str:
    def fmt(p):
        return "no pairing" if p is None else " ".join(f"{w}-{b or 'bye'}" for w, b in p)

    theirs, ours = set(c.theirs or []), set(c.ours or [])
    if c.theirs is None or c.ours is None:
        return f"engine: {fmt(c.theirs)[:120]} | chessfed: {fmt(c.ours)[:120]}"
    only_theirs = sorted(theirs - ours, key=str)
    only_ours = sorted(ours - theirs, key=str)
    if not only_theirs and not only_ours:
        return "same boards, different board order"
    return (f"engine only: {fmt(only_theirs)} | chessfed only: {fmt(only_ours)}")


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("crosscheck", help="compare the Dutch engine with another engine",
                              description=__doc__,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    _arguments(p)
    p.set_defaults(func=run)


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--engine",
                   help="the other engine's program (JaVaFo/bbpPairings interface); "
                        "extra words are passed before --dutch, e.g. 'java -jar javafo.jar'; "
                        "in a campaign it pairs the 2025 edition (and 2017 without "
                        "--engine-2017)")
    p.add_argument("--engine-2017", dest="engine_2017",
                   help="campaign: the other engine for the 2017 edition")
    p.add_argument("--campaign", type=Path, metavar="DIR",
                   help="run (or resume) a campaign of generated tournaments in DIR "
                        "(see flows/verify/campaign.py)")
    p.add_argument("--tournaments", type=int, default=100,
                   help="campaign: how many tournaments (default 100)")
    p.add_argument("--sizes", default=None,
                   help="campaign: size tiers LOW-HIGH:WEIGHT,... (default "
                        "9-30:70,31-100:20,101-200:8,201-400:2)")
    p.add_argument("--jobs", type=int, default=1, help="campaign: worker processes")
    p.add_argument("--events", type=int, default=6)
    p.add_argument("--players", default="40,120",
                   help="comma-separated field sizes, used in turn (default 40,120)")
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--edition", choices=[*(e.value for e in DutchEdition), "both"], default="both")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--acceleration", choices=[a.value for a in Acceleration], default="none",
                   help="virtual points in every file (FIDE C.04.5; baku: C.04.5.1)")


def run(args: argparse.Namespace, out=None) -> int:
    out = out or sys.stdout
    if getattr(args, "campaign", None) is not None:
        engines = campaign.engines_of(args.engine, args.engine_2017, args.edition)
        if not engines:
            print("chessfed crosscheck: a campaign needs --engine (or --engine-2017 with "
                  "--edition 2017)", file=sys.stderr)
            return campaign.EXIT_USAGE
        return campaign.run_campaign(args.campaign, tournaments=args.tournaments,
                                     engines=engines, sizes=args.sizes or campaign.DEFAULT_SIZES,
                                     seed=args.seed, jobs=args.jobs, out=out)
    if not args.engine:
        print("chessfed crosscheck: --engine is needed", file=sys.stderr)
        return 2
    engine = args.engine.split()
    sizes = [int(x) for x in args.players.split(",")]
    editions = [e.value for e in DutchEdition] if args.edition == "both" else [args.edition]
    checks: list[RoundCheck] = []
    with tempfile.TemporaryDirectory(prefix="chessfed-crosscheck-") as tmp:
        for k in range(args.events):
            try:
                got = play_event(engine, sizes[k % len(sizes)], args.rounds, args.seed + k,
                                 editions[k % len(editions)], Path(tmp),
                                 acceleration=getattr(args, "acceleration", "none"))
            except OSError as e:
                print(f"cannot run the engine: {e}", file=sys.stderr)
                return EXIT_ENGINE
            for c in got:
                if not c.same:
                    print(f"{c.event} round {c.round}: {_describe(c)}", file=out)
            checks += got
    same = sum(c.same for c in checks)
    print(f"{same} of {len(checks)} rounds identical "
          f"({100 * same / max(1, len(checks)):.1f}%); engine {sum(c.their_seconds for c in checks):.1f} s"
          f" (each call, start-up included), chessfed {sum(c.our_seconds for c in checks):.1f} s"
          f" (in process)", file=out)
    return EXIT_SAME if same == len(checks) else EXIT_DIFFERENT

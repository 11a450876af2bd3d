"""``make bench`` — time the Dutch pairing engine on generated tournaments, side by side with
another engine when one is given.

For each edition and size, round 1 and a middle round of a seeded generated event
(``flows.devtools.demo.random_events``) are written as TRF files and paired by ``chessfed pair`` in a
process of its own, so that each row's time is what an arbiter's program waits for (start
included) and its memory is that process's peak. With ``--engine`` (bbpPairings 6 or any
engine with its command line, 2025 rules) and ``--engine-2017`` (bbpPairings 5, 2017 rules)
the other engine pairs the same file in the same run, up to ``--engine-max`` players (at
2,000 players bbpPairings takes many minutes): both times, the ratio, and whether the
pairings are identical. Not a test.

    python -m flows.devtools.bench [--sizes 150,400,1000,2000,4000] [--editions 2017,2025]
        [--rounds 9] [--core compiled|python] [--engine BBP6] [--engine-2017 BBP5]
        [--engine-max 1000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from flows.devtools.demo.random_events import random_tournament
from flows.verify.campaign import parse_pairing
from transforms.fide.trf import write_trf


@dataclass(frozen=True)
class Run:
    """One engine pairing one file: wall seconds, peak memory (MB), exit status, pairing."""

    seconds: float
    peak_mb: float
    status: int
    pairing: list | None


def timed(cmd: list[str], out: Path) -> Run:
    """Run ``cmd`` (which writes its pairing to ``out``) and measure it alone: wall time and
    the peak resident memory of that process (``wait4``), not of this one."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    proc.returncode = code
    pairing = None
    if code == 0 and out.exists():
        pairing = parse_pairing(out.read_text())
    return Run(seconds, usage.ru_maxrss / 1024, code, pairing)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m flows.devtools.bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="150,400,1000,2000,4000")
    ap.add_argument("--editions", default="2017,2025")
    ap.add_argument("--rounds", type=int, default=9, help="total rounds (middle = half)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--core", choices=["compiled", "python"], default=None,
                    help="chessfed's matching solver (default: compiled where built)")
    ap.add_argument("--engine", help="the other engine for the 2025 rules (bbpPairings 6)")
    ap.add_argument("--engine-2017", dest="engine_2017",
                    help="the other engine for the 2017 rules (bbpPairings 5)")
    ap.add_argument("--engine-max", type=int, default=1000,
                    help="largest field the other engine pairs (default 1000)")
    ap.add_argument("--keep", type=Path, help="keep the TRF files and pairings in this folder")
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",")]
    editions = args.editions.split(",")
    middle = args.rounds // 2 + 1
    others = {"2025": args.engine, "2017": args.engine_2017}
    ours_cmd = [sys.executable, "-m", "flows.cli.pair"]
    if args.core:
        ours_cmd += ["--core", args.core]
    folder = args.keep or Path(tempfile.mkdtemp(prefix="chessfed-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"{'edition':7} {'players':>7} {'round':>5} {'boards':>6} {'chessfed s':>10} "
          f"{'MB':>6} {'other s':>8} {'MB':>6} {'ratio':>6}  same")
    worst = 0
    for edition in editions:
        for n in sizes:
            for rnd in (1, middle):
                t = random_tournament(n, rnd - 1, total_rounds=args.rounds,
                                      seed=args.seed + n, edition=edition)
                trf = folder / f"{edition}-{n}p-r{rnd}.trf"
                trf.write_text(write_trf(t), encoding="utf-8")
                mine = folder / f"{trf.stem}.chessfed.txt"
                ours = timed([*ours_cmd, "--dutch", str(trf), "-p", str(mine),
                              "--edition", edition], mine)
                boards = len(ours.pairing) if ours.pairing is not None else "-"
                line = (f"{edition:7} {n:7d} {rnd:5d} {boards:>6} {ours.seconds:10.2f} "
                        f"{ours.peak_mb:6.0f}")
                other = others.get(edition)
                if other and n <= args.engine_max:
                    theirs_out = folder / f"{trf.stem}.other.txt"
                    theirs = timed([*other.split(), "--dutch", str(trf), "-p", str(theirs_out)],
                                   theirs_out)
                    same = theirs.pairing == ours.pairing
                    worst = max(worst, 0 if same else 1)
                    line += (f" {theirs.seconds:8.2f} {theirs.peak_mb:6.0f} "
                             f"{theirs.seconds / ours.seconds:6.1f}  {'yes' if same else 'NO'}")
                print(line, flush=True)
    if not args.keep:
        for f in folder.iterdir():
            f.unlink()
        folder.rmdir()
    return worst


if __name__ == "__main__":
    sys.exit(main())

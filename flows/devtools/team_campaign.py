"""A cross-check campaign of the team Swiss against FIDE TEC's reference program (Gacrux, run
outside the project: ``GACRUX_PYTHON``, :mod:`flows.devtools.gacrux_oracle`), as
:mod:`flows.verify.campaign` is for the Dutch system against bbpPairings: generated team Swiss
events (sizes, boards, rounds, colour types, primary scores and a messy profile of absences and
forfeits drawn by seed) are paired round by round by Gacrux; chessfed then re-pairs every round
of each file (``chessfed pair --team -c``: teams, colours, the bye) and computes the team
tie-breaks of the final file, compared value by value with Gacrux's
(:data:`flows.devtools.gacrux_oracle.TIEBREAK_CODES`, C.07 2026). Differences are printed with
the file kept for a test.

    python -m flows.devtools.team_campaign --events 20 --seed 7000 [--keep DIR]
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import tempfile
import time
from pathlib import Path

from flows.cli.pair_team import check_team_rounds
from flows.devtools.gacrux_oracle import (
    CORPUS_CODES,
    PROFILES,
    TIEBREAK_CODES,
    generate,
    new_event,
    team_tiebreaks,
    write_trf,
)
from transforms.fide.team_tiebreaks import team_evaluation
from transforms.fide.team_trf import parse_team_trf

NOT_COMPARED = ("STD",)
"""Team tie-breaks chessfed does not compute (transforms/fide/team_tiebreaks.py)."""


def one_event(seed: int, keep: Path | None) -> tuple[int, int, int, int, list[str]]:
    """(rounds checked, rounds differing, values compared, values differing, notes)."""
    rng = random.Random(seed)
    teams, boards = rng.randint(7, 36), rng.choice((4, 4, 4, 5, 6))
    rounds = rng.randint(5, 9)
    code = rng.choice(CORPUS_CODES)
    profile = rng.choice(("realistic", "messy"))
    event = new_event(rng, name=f"Campaign {seed}", teams=teams, boards=boards, rounds=rounds,
                      code=code, seed=seed)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            generate(event, rng, PROFILES[profile], Path(tmp))
        except RuntimeError as e:  # Gacrux answered another round than asked (its quirks: 7.6)
            return 0, 0, 0, 0, [f"c{seed}: not generated, {e}"]
        text = write_trf(event)
        path = Path(tmp) / f"c{seed}.trf"
        path.write_text(text, encoding="latin-1")
        trf = parse_team_trf(text, source=str(path))
        out = io.StringIO()
        check_team_rounds(trf, out=out)
        lines = out.getvalue().splitlines()
        differ = [x for x in lines if not x.endswith(": same")]
        codes = [c for c in TIEBREAK_CODES if c not in NOT_COMPARED]
        # Fore Buchholz in a run of its own: Gacrux 1.11.65 sets a team's "last round not
        # absent" to the last round while it computes FB, and the tie-breaks after FB in the same
        # run then read an absence followed by a forfeit in the last round (C.07 16.2.5) as a
        # round with an opponent (c8098: SB:MP 44 with FB before it, 46 without, as chessfed).
        fore = [c for c in codes if c.startswith("FB")]
        theirs = {t.team: dict(t.values) for t in team_tiebreaks(path, [c for c in codes if c not in fore])}
        for t in team_tiebreaks(path, ["MPTS", *fore]):
            theirs[t.team].update({c: t.values[c] for c in fore})
        ev = team_evaluation(trf.card, trf.boards, [c for c in codes if c != "MPTS"],
                             primary=trf.primary, match_points=trf.match_points,
                             rounds=trf.rounds, edition="fide-2026")
        ours = {r["sno"]: r for r in ev.values.iter_rows(named=True)}
        compared = wrong = 0
        notes = [f"c{seed} ({teams} teams, {boards} boards, {rounds} rounds, {code}, {profile}): "
                 f"{len(lines) - len(differ)}/{len(lines)} rounds the same"] + [f"  {d}" for d in differ]
        for team, values in theirs.items():
            for c in codes:
                if c == "MPTS" or (c == "MPVGP" and trf.primary == "GP"):
                    continue
                mine = ours[team].get(c)
                gv = values.get(c)
                compared += 1
                if (gv is None) != (mine is None) or (gv is not None and abs(float(gv) - float(mine)) > 1e-6):
                    wrong += 1
                    if wrong <= 5:
                        notes.append(f"  {c} team {team}: Gacrux {gv}, chessfed {mine}")
        if (differ or wrong) and keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            (keep / path.name).write_text(text, encoding="latin-1")
    return len(lines), len(differ), compared, wrong, notes


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="team_campaign", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--events", type=int, default=20)
    p.add_argument("--seed", type=int, default=7000)
    p.add_argument("--keep", type=Path, default=None, help="where to keep the files that differ")
    args = p.parse_args(argv)
    t0 = time.perf_counter()
    totals = [0, 0, 0, 0]
    for seed in range(args.seed, args.seed + args.events):
        *counts, notes = one_event(seed, args.keep)
        totals = [a + b for a, b in zip(totals, counts, strict=True)]
        print("\n".join(notes), flush=True)
    print(f"{args.events} events: {totals[0] - totals[1]} of {totals[0]} rounds paired as Gacrux; "
          f"{totals[2] - totals[3]} of {totals[2]} tie-break values equal "
          f"({time.perf_counter() - t0:.0f} s)")
    return 0 if totals[1] == 0 and totals[3] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

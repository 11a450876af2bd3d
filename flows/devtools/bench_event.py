"""``make bench-event`` — one generated Swiss event end to end, as an office runs it.

A Swiss of ``--players N`` after ``--rounds R`` rounds (every player given a birth date, a
federation and a rating), its history either paired round by round by our Dutch engine with
seeded results (``--history dutch``, the default: an event an office paired with chessfed or
another FIDE-endorsed program, whose audit finds no difference) or made by a greedy pairer
and taken over from TRF as ``chessfed import-trf`` does (``--history greedy``: an event paired
by a program that is not the Dutch system, every round of it different from the engine's —
the worst case of the audit, which pairs every round again), run by ``chessfed run`` in a fresh process three times into one output folder: the
first publication, a rerun with nothing changed, and a rerun after one changed result of the
last round. For each: the wall time, the peak memory of the process tree (sampled every
0.2 s), the files the run wrote again (content changed), the steps' seconds from the event's
manifest, and the largest public page. Not a test: the issue-26 goals (3,000 players × 9
rounds: first publication < 60 s, a changed result < 15 s, nothing changed < 2 s, peak < 1.5 GB)
are read off its table.

    python -m flows.devtools.bench_event [--players 1000] [--rounds 9] [--seed 2026]
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import random
import shutil
import sys
import time
from pathlib import Path

from flows.devtools.bench_season import run, swiss_event
from flows.devtools.simulate import simulate

FEDERATIONS = ("IND", "GER", "FRA", "ESP", "USA", "NED", "NOR", "POL", "ENG", "ITA", "ARM", "UZB")


def fill_players(players_csv: Path, seed: int) -> None:
    """Every player of the generated event gets a birth date (born 1950-2016) and a federation
    (seeded), as a real open's players.csv has them."""
    rng = random.Random(seed)
    with players_csv.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    fields = list(rows[0]) if rows else []
    for extra in ("federation", "birth_date"):
        if extra not in fields:
            fields.append(extra)
    for r in rows:
        r["federation"] = rng.choice(FEDERATIONS)
        r["birth_date"] = f"{rng.randint(1950, 2016)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    players_csv.write_text(out.getvalue(), encoding="utf-8")


def change_one_result(results_csv: Path) -> str:
    """One decisive game of the last round turned the other way; returns what changed."""
    lines = results_csv.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    rnd, res = header.index("round"), header.index("result")
    last = max(int(x.split(",")[rnd]) for x in lines[1:])
    for i in range(1, len(lines)):
        cells = lines[i].split(",")
        if int(cells[rnd]) == last and cells[res] in ("1-0", "0-1"):
            old = cells[res]
            cells[res] = "0-1" if old == "1-0" else "1-0"
            lines[i] = ",".join(cells)
            results_csv.write_text("\n".join(lines) + "\n", encoding="utf-8")
            return f"results.csv line {i + 1}: round {last} {old} -> {cells[res]}"
    raise SystemExit("no decisive game in the last round to change")


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and ".chessfed" not in p.parts}


def largest_public_page(folder: Path) -> tuple[str, int]:
    pages = [(str(p.relative_to(folder)), p.stat().st_size) for p in folder.rglob("*.html")
             if not {"office", "outbox", ".chessfed"} & set(p.relative_to(folder).parts)]
    return max(pages, key=lambda x: x[1], default=("", 0))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m flows.devtools.bench_event", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=9, help="rounds played (of 9 at least)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--history", choices=("dutch", "greedy"), default="dutch",
                    help="how the played rounds were paired (see above)")
    ap.add_argument("--work", default="/tmp/chessfed-event", help="where the event is generated and run")
    args = ap.parse_args(argv)
    work = Path(args.work)
    shutil.rmtree(work, ignore_errors=True)
    inputs, out = work / "inputs", work / "outputs"
    event = inputs / f"open-{args.players}"
    event.mkdir(parents=True)
    t = time.perf_counter()
    swiss_event(event, args.players, 0 if args.history == "dutch" else args.rounds, args.seed,
                "2025", total=max(9, args.rounds))
    fill_players(event / "players.csv", args.seed)
    if args.history == "dutch":
        simulate(event, through=args.rounds, seed=args.seed)
    print(f"event: {args.players} players, {args.rounds} rounds played ({args.history} history); generated in "
          f"{time.perf_counter() - t:.0f} s", flush=True)
    rows = []
    before: dict[str, str] = {}
    for what in ("first run", "nothing changed", "one result changed"):
        if what == "one result changed":
            print(f"  {change_one_result(event / 'results.csv')}", flush=True)
        r = run(inputs, out, [])
        after = snapshot(out / event.name)
        rebuilt = sum(1 for k, v in after.items() if before.get(k) != v)
        page, size = largest_public_page(out / event.name)
        manifest = json.loads((out / event.name / "manifest.json").read_text(encoding="utf-8"))
        steps = {k.removesuffix("_s"): v for k, v in manifest.get("timings", {}).items()
                 if k.endswith("_s") and k not in ("total_s", "work_s", "orchestration_s")}
        top = ", ".join(f"{k} {v:.1f}" for k, v in sorted(steps.items(), key=lambda x: -x[1])[:4])
        rows.append((what, r["wall_s"], r["peak_mb"], rebuilt, len(after), page, size, top))
        print(f"{what:20} wall {r['wall_s']:7.1f} s  peak {r['peak_mb']:6.0f} MB  files written "
              f"{rebuilt:5d} of {len(after)}  largest public page {size / 1000:7.0f} kB ({page})  "
              f"steps: {top}", flush=True)
        before = after
    return 0


if __name__ == "__main__":
    sys.exit(main())

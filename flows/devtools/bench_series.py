"""``make bench-series`` — a series over a generated season of Swiss events, built cold, then
built again with nothing changed but the run forced (``--rebuild``: every event's results taken
from the last run), then with one event's results changed (that event read again, the others
taken). Prints the wall time of each ``chessfed run --only <series>`` and the series' ``validate``
step (where the events are read). Not a test.

    python -m flows.devtools.bench_series [--events 30] [--players 60]
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from flows.devtools.bench_season import AS_OF, swiss_event

SERIES = """[event]
id = "bench-series"
name = "Bench Series"
kind = "series"
start = 2026-01-01
end = 2026-12-31
venue = "Bench"
organiser = "Bench"
currency = "EUR"
contact = "Bench"
as_of = {as_of}

[publish]
sender = "Bench <bench@example.org>"

[series]
events = [{events}]
points = "place"
place_points = [25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
best = 8
identity = ["fide_id", "name", "federation"]
"""


def run(inputs: Path, out: Path, *extra: str) -> tuple[float, float, str]:
    """One ``chessfed run`` of the series: (wall seconds, its validate step's seconds, its
    other steps of a tenth of a second or more and its member pages kept and built)."""
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "flows.cli.main", "run", str(inputs), "--out", str(out),
                    "--only", "bench-series", "--dry-run-mail", "-q", *extra], check=True,
                   capture_output=True)
    wall = time.perf_counter() - t
    manifest = json.loads((out / "bench-series" / "manifest.json").read_text(encoding="utf-8"))
    t = manifest.get("timings", {})
    steps = ", ".join(f"{k.removesuffix('_s')} {v:.1f} s" for k, v in t.items()
                      if k.endswith("_s") and v >= 0.1 and k not in ("validate_s", "total_s", "work_s"))
    groups = ", ".join(f"{k} {v:,}" for k, v in t.items() if k.startswith(("kept_", "built_")))
    return wall, float(t.get("validate_s", 0.0)), f"{steps}; {groups}"


def players_of_the_circuit(players: int, seed: int = 2026) -> list[tuple[str, str, str]]:
    """The circuit's regulars (seeded): five times the players of one event, each (FIDE id,
    name, federation) — a player plays about a fifth of the events."""
    from flows.devtools.demo.golden_knights import FIRST, LAST

    rng = random.Random(seed)
    return [(str(1_000_000 + k), f"{rng.choice(LAST)}, {rng.choice(FIRST)}", rng.choice(["ENG", "SCO", "WLS"]))
            for k in range(players * 5)]


def take_players(folder: Path, pool: list[tuple[str, str, str]], rng: random.Random) -> None:
    """The generated event's players drawn from the circuit's (without repeats): their FIDE
    id, name and federation (the series recognises them by FIDE id)."""
    path = folder / "players.csv"
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    for row, (fide_id, name, fed) in zip(rows, rng.sample(pool, len(rows)), strict=True):
        row["fide_id"], row["name"], row["federation"] = fide_id, name, fed
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--events", type=int, default=30)
    p.add_argument("--players", type=int, default=60)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        inputs, out = Path(tmp) / "inputs", Path(tmp) / "outputs"
        inputs.mkdir()
        names = [f"rapid-{i:03d}" for i in range(args.events)]
        pool, rng = players_of_the_circuit(args.players), random.Random(7)
        for i, name in enumerate(names):
            swiss_event(inputs / name, args.players, 7, seed=100 + i, edition="2025", total=7)
            take_players(inputs / name, pool, rng)
        (inputs / "bench-series").mkdir(parents=True)
        (inputs / "bench-series" / "event.toml").write_text(SERIES.format(
            as_of=AS_OF, events=", ".join(f'"{n}"' for n in names)), encoding="utf-8")
        cold = run(inputs, out)
        same = run(inputs, out, "--rebuild")
        results = inputs / names[0] / "results.csv"
        lines = results.read_text(encoding="utf-8").splitlines()
        k = next(i for i, line in enumerate(lines) if line.endswith(",1-0"))
        lines[k] = lines[k].removesuffix(",1-0") + ",0-1"  # one result the other way round
        results.write_text("\n".join(lines) + "\n", encoding="utf-8")
        one = run(inputs, out)
    for label, (wall, validate, steps) in (("cold", cold), ("nothing changed (--rebuild)", same),
                                           ("one event changed", one)):
        print(f"{label:30} {wall:6.1f} s wall, {validate:6.2f} s reading the events ({steps})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

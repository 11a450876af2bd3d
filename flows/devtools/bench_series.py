"""``make bench-series`` — a series over a generated season of Swiss events, built cold, then
built again with nothing changed but the run forced (``--rebuild``: every event's results taken
from the last run), then with one event's results changed (that event read again, the others
taken). Prints the wall time of each ``chessfed run --only <series>`` and the series' ``validate``
step (where the events are read). Not a test.

    python -m flows.devtools.bench_series [--events 30] [--players 60]
"""

from __future__ import annotations

import argparse
import json
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


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--events", type=int, default=30)
    p.add_argument("--players", type=int, default=60)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        inputs, out = Path(tmp) / "inputs", Path(tmp) / "outputs"
        inputs.mkdir()
        names = [f"rapid-{i:03d}" for i in range(args.events)]
        for i, name in enumerate(names):
            swiss_event(inputs / name, args.players, 7, seed=100 + i, edition="2025", total=7)
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

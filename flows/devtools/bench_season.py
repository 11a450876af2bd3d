"""``make bench-season`` — a generated season run end to end, three ways.

A season of ``--events`` events (default 50): Swiss events of 100 to 1,000 players at various
rounds (seeded random fields, taken over from TRF as ``chessfed import-trf`` does) and
Golden Knights events of 200 to 2,000 entries (the demo generator carried through its
stages), ``--scale`` multiplying every size. The season is run by ``chessfed run`` in a fresh
process ``sequential`` (``--jobs 1``), ``concurrent`` (``--jobs`` = cores) and on a Dask
``LocalCluster`` (``--task-runner dask``; ``--dask-address``: a cluster of ``dask scheduler``
and ``dask worker`` processes already running), each into a new output folder; printed for each:
the wall time, the peak memory of the process tree (sampled), the time of every step summed
over the events, and orchestration (Prefect's start, its part inside the events and its end,
from ``run.json``) against the work. The outputs of the three are compared (all but the
manifests and ``run.json``). Not a test.

    python -m flows.devtools.bench_season [--events 50] [--scale 1.0] [--modes sequential,concurrent,dask]
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GK_DEMO = ROOT / "inputs" / "golden-knights-2019"
AS_OF = "2026-11-15"


def swiss_event(folder: Path, players: int, done: int, seed: int, edition: str,
                total: int = 9) -> None:
    """A Swiss event of ``players`` players, ``done`` rounds played of ``total``."""
    from flows.cli.import_trf import import_trf
    from flows.devtools.demo.random_events import random_tournament
    from transforms.fide.trf import write_trf

    t = random_tournament(players, done, total_rounds=total, seed=seed, edition=edition)
    trf = folder.parent / f"{folder.name}.trf"
    trf.write_text(write_trf(t), encoding="utf-8")
    import_trf(trf, folder)
    trf.unlink()
    toml = (folder / "event.toml").read_text(encoding="utf-8")
    (folder / "event.toml").write_text(toml.replace(
        "[publish]\n", f"as_of = {AS_OF}\n\n[publish]\n", 1), encoding="utf-8")


def gk_event(folder: Path, entries: int, seed: int) -> None:
    """A Golden Knights event of about ``entries`` entries, carried through its stages."""
    import polars as pl

    from flows.devtools.demo.golden_knights import demo_members_and_entries, simulate_golden_knights
    from transforms.golden_knights.event import OVERRIDES_SCHEMA
    from transforms.golden_knights.rules import GKRules
    from transforms.kinds import parse_event_config

    text = (GK_DEMO / "event.toml").read_text(encoding="utf-8")
    rules = parse_event_config(text, file="event.toml").table(GKRules)
    assert rules is not None, "the Golden Knights demo names its rules"
    members, ent = demo_members_and_entries(rules, seed=seed, event_year=2019,
                                            n_members=max(20, entries * 3 // 4), n_entries=entries)
    sections, games, overs = simulate_golden_knights(rules, members, ent, seed=seed, event_year=2019)
    folder.mkdir(parents=True)
    frames = {"members.csv": members, "entries.csv": ent, "sections.csv": sections, "games.csv": games,
              "time_oversteps.csv": overs,
              "overrides.csv": pl.DataFrame(schema={k: v for k, v in OVERRIDES_SCHEMA.items() if k != "line"})}
    for name, frame in frames.items():
        frame.drop("line", strict=False).write_csv(folder / name)
    (folder / "event.toml").write_text(text.replace('id = "golden-knights-2019"', f'id = "{folder.name}"')
                                       .replace("— Golden Knights", f"— Golden Knights {folder.name}"),
                                       encoding="utf-8")


def make_season(base: Path, events: int, scale: float, seed: int,
                members: int = 0) -> list[tuple[str, str, int]]:
    """The season's event folders under ``base``: (folder, kind, size) each; two in three
    Swiss (half of them played to their last round, the others paired for their next). With
    ``members``: the season's registry (``members.csv`` beside the events), every Swiss
    player one of its members (``member_id``, the registry's name), and a series over the
    Swiss events (``season-series``: game points, the best half of the events)."""
    rng = random.Random(seed)
    base.mkdir(parents=True, exist_ok=True)
    registry = make_registry(base, members, seed) if members else []
    made = []
    for i in range(events):
        if i % 3 < 2:
            n = max(8, int(rng.randint(100, 1000) * scale))
            name = f"swiss-{i:02d}-{n}"
            done = 9 if members and rng.random() < 0.5 else rng.randint(1, 8)
            swiss_event(base / name, n, done, seed + i, rng.choice(["2017", "2025"]))
            if registry:
                take_members(base / name, registry, rng)
            made.append((name, "swiss", n))
        else:
            n = max(28, int(rng.randint(200, 2000) * scale))
            name = f"gk-{i:02d}-{n}"
            gk_event(base / name, n, seed + i)
            made.append((name, "correspondence", n))
        print(f"generated {name}", file=sys.stderr, flush=True)
    if registry:
        swiss = [name for name, kind, _ in made if kind == "swiss"]
        series_event(base / SERIES, swiss)
        made.append((SERIES, "series", len(swiss)))
    return made


SERIES = "season-series"
"""The generated season's series (over its Swiss events)."""


def make_registry(base: Path, members: int, seed: int) -> list[tuple[str, str]]:
    """The season's ``members.csv`` of ``members`` invented members (seeded): (member id,
    name) each."""
    from flows.devtools.demo.golden_knights import FIRST, LAST

    rng = random.Random(seed * 7 + 1)
    out = []
    with (base / "members.csv").open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["member_id", "name", "fide_id", "birth_date", "sex", "club", "region",
                    "valid_from", "valid_to", "email"])
        for k in range(1, members + 1):
            mid, name = f"M{k:06d}", f"{rng.choice(LAST)}, {rng.choice(FIRST)}"
            w.writerow([mid, name, "", f"{rng.randint(1950, 2015)}-{rng.randint(1, 12):02d}-"
                        f"{rng.randint(1, 28):02d}", rng.choice("MF"), f"Club {k % 97 + 1}",
                        f"Region {k % 9 + 1}", "2026-01-01", "2026-12-31", f"m{k}@members.example"])
            out.append((mid, name))
    return out


def take_members(folder: Path, registry: list[tuple[str, str]], rng: random.Random) -> None:
    """Every player of the generated event one of the season's members (a draw without
    repeats): ``member_id`` added to players.csv, the name the registry's."""
    path = folder / "players.csv"
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    drawn = rng.sample(registry, len(rows))
    fields = ["player_id", "member_id", *(f for f in rows[0] if f != "player_id")]
    for row, (mid, name) in zip(rows, drawn, strict=True):
        row["member_id"], row["name"] = mid, name
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)


def series_event(folder: Path, events: list[str]) -> None:
    """A series over ``events`` (sibling folders): game points, the best half counted,
    members recognised by member id."""
    folder.mkdir(parents=True)
    names = ", ".join(f'"{e}"' for e in events)
    (folder / "event.toml").write_text(f"""[event]
id = "{SERIES}"
name = "Generated season series"
kind = "series"
start = 2026-01-01
end = 2026-12-31
code = "BENCH-SERIES"
venue = "Everywhere"
currency = "EUR"
organiser = "Bench federation"
contact = "The office"
as_of = {AS_OF}

[publish]
sender = "Bench federation <office@bench.example>"

[series]
events = [{names}]
points = "game-points"
best = {max(1, len(events) // 2)}
identity = ["member_id"]
""", encoding="utf-8")


def run(inputs: Path, out: Path, args: list[str]) -> dict:
    """``chessfed run`` in a fresh process; its wall time and the peak memory of its process
    tree (sampled every 0.2 s)."""
    import psutil

    t = time.perf_counter()
    proc = subprocess.Popen([str(Path(sys.executable).parent / "chessfed"), "run", str(inputs),
                             "--out", str(out), "-q", "--dry-run-mail", *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peak = 0
    root = psutil.Process(proc.pid)
    while proc.poll() is None:
        try:
            tree = [root, *root.children(recursive=True)]
            peak = max(peak, sum(p.memory_info().rss for p in tree if p.is_running()))
        except psutil.Error:
            pass
        time.sleep(0.2)
    wall = time.perf_counter() - t
    if proc.returncode not in (0, 1):
        raise SystemExit(f"chessfed run {' '.join(args)} failed ({proc.returncode}): {proc.stderr.read()[-3000:]}")
    unpublished = [f.name for f in sorted(out.iterdir()) if f.is_dir() and not f.name.startswith(".")
                   and not published(f)]
    if unpublished:  # a benchmark of events that publish nothing measures nothing
        raise SystemExit(f"chessfed run {' '.join(args)}: {len(unpublished)} events published "
                         f"no standings: {', '.join(unpublished[:5])}")
    summary = json.loads((out / "run.json").read_text(encoding="utf-8"))
    steps: dict[str, float] = {}
    for folder in out.iterdir():
        try:
            timings = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["timings"]
        except (OSError, ValueError, KeyError):
            continue
        for k, v in timings.items():
            if k.endswith("_s") and k not in ("total_s", "work_s", "orchestration_s"):
                steps[k.removesuffix("_s")] = steps.get(k.removesuffix("_s"), 0.0) + v
    return {"wall_s": wall, "peak_mb": peak / 2**20, "summary": summary, "steps": steps}


def published(event_out: Path) -> bool:
    """Whether an event of the season was published whole: its manifest says so, and a Swiss
    event has its standings, a correspondence event its standings list."""
    try:
        shown = json.loads((event_out / "manifest.json").read_text(encoding="utf-8")).get("publication", {})
    except (OSError, ValueError):
        return False
    if shown.get("status") != "current":
        return False
    return any((event_out / "standings").glob("round-*.csv")) or (event_out / "standings.csv").exists()


def digest(out: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(out.rglob("*")):
        if p.is_file() and p.name not in ("manifest.json", "run.json") and ".chessfed" not in p.parts:
            h.update(str(p.relative_to(out)).encode() + b"\0" + p.read_bytes())
    return h.hexdigest()[:16]


MODES = {"sequential": ["--jobs", "1"], "concurrent": [], "dask": ["--task-runner", "dask"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m flows.devtools.bench_season", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=50)
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies every event's size")
    ap.add_argument("--modes", default="sequential,concurrent,dask")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--work", default="/tmp/chessfed-season", help="where the season is generated and run")
    ap.add_argument("--dask-address", default=None,
                    help="run the dask mode on this running cluster (`dask scheduler` and `dask worker "
                         "…`, as an office runs one over several machines; the workers and this "
                         "process need PREFECT_API_URL naming one Prefect server) instead of a "
                         "LocalCluster")
    ap.add_argument("--members", type=int, default=None,
                    help="the season's registry (default 100 per event; 0: no registry, no series)")
    ap.add_argument("--reruns-only", action="store_true",
                    help="the season already in --work (a run of the first mode there): only the "
                         "two reruns (nothing changed; one result changed), with this program")
    args = ap.parse_args(argv)
    if args.reruns_only:
        work = Path(args.work)
        mode = args.modes.split(",")[0]
        swiss = sorted(f.name for f in (work / "inputs").iterdir()
                       if (f / "event.toml").exists() and 'kind = "swiss"' in (f / "event.toml").read_text())
        print_reruns(rerun_season(work, mode, swiss))
        return 0
    if args.dask_address:
        if not os.environ.get("PREFECT_API_URL"):
            ap.error("--dask-address needs PREFECT_API_URL (the Prefect server the workers report to)")
        MODES["dask"] = ["--dask-address", args.dask_address]
    work = Path(args.work)
    shutil.rmtree(work, ignore_errors=True)
    t = time.perf_counter()
    members = 100 * args.events if args.members is None else args.members
    members = max(members, int(1000 * args.scale) + 8) if members else 0  # the largest event's draw
    made = make_season(work / "inputs", args.events, args.scale, args.seed, members)
    swiss = [n for _, k, n in made if k == "swiss"]
    gk = [n for _, k, n in made if k == "correspondence"]
    print(f"season: {len(swiss)} Swiss events ({min(swiss, default=0)}-{max(swiss, default=0)} players), "
          f"{len(gk)} Golden Knights events ({min(gk, default=0)}-{max(gk, default=0)} entries)"
          + (f", {members:,} members and a series over the Swiss events" if members else "")
          + f"; generated in {time.perf_counter() - t:.0f} s; {os.cpu_count()} cores", flush=True)
    results = {}
    for mode in args.modes.split(","):
        results[mode] = r = run(work / "inputs", work / f"out-{mode}", MODES[mode])
        s = r["summary"]
        print(f"{mode:10} wall {r['wall_s']:7.1f} s  peak {r['peak_mb']:6.0f} MB  Prefect: start "
              f"{s['prefect_start_s']:.1f} s, in the run's flow {s['prefect_in_events_s']:.1f} s  outputs "
              f"{digest(work / f'out-{mode}')}", flush=True)
    first = args.modes.split(",")[0]
    reruns = rerun_season(work, first, [name for name, kind, _ in made if kind == "swiss"])
    print("\nstep seconds summed over the events (CPU-bound steps overlap when events run side by side):")
    names = sorted({k for r in results.values() for k in r["steps"]})
    print(f"{'step':12}" + "".join(f"{m:>12}" for m in results))
    for k in names:
        print(f"{k:12}" + "".join(f"{r['steps'].get(k, 0.0):12.1f}" for r in results.values()))
    print_reruns(reruns)
    return 0


def print_reruns(reruns: dict[str, dict]) -> None:
    for what, r in reruns.items():
        print(f"\n{what}: wall {r['wall_s']:.1f} s, peak {r['peak_mb']:.0f} MB; built again: "
              f"{', '.join(r['built']) or 'nothing'}")
        for name in r["built"]:
            print(f"  {name}: " + ", ".join(f"{k.removesuffix('_s')} {v:.1f} s" for k, v in r["timings"][name].items()
                                            if k.endswith("_s") and v >= 0.05 and k not in ("work_s", "orchestration_s"))
                  + "; " + ", ".join(f"{k} {v:,}" for k, v in r["timings"][name].items()
                                     if k.startswith(("kept_", "built_"))))


def rerun_season(work: Path, mode: str, swiss: list[str]) -> dict[str, dict]:
    """The season run again the way ``mode`` ran it, into its outputs: nothing changed, then
    one result of the last round of a Swiss event played to its end changed (an event the
    series counts); for each the wall time and the events built again (their manifests
    rewritten) with their steps."""
    out = work / f"out-{mode}"
    played = [n for n in swiss if (out / n / "standings" / "round-09.csv").exists()]
    reruns: dict[str, dict] = {}
    for what in ("nothing changed", "one result changed"):
        if what == "one result changed":
            if not played:
                break
            change_one_result(work / "inputs" / played[len(played) // 2])
            what = f"{what} ({played[len(played) // 2]})"
        before = {f.name: (f / "manifest.json").stat().st_mtime_ns for f in out.iterdir()
                  if (f / "manifest.json").exists()}
        r = run(work / "inputs", out, MODES[mode])
        built = sorted(n for n, t in before.items() if (out / n / "manifest.json").stat().st_mtime_ns != t)
        r["built"] = built
        r["timings"] = {n: json.loads((out / n / "manifest.json").read_text(encoding="utf-8"))["timings"]
                        for n in built}
        reruns[what] = r
    return reruns


def change_one_result(event: Path) -> None:
    """The first decisive game of the event's last round the other way round."""
    path = event / "results.csv"
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    last = max(int(r["round"]) for r in rows)
    game = next(r for r in rows if r["round"] == str(last) and r["result"] in ("1-0", "0-1"))
    game["result"] = "0-1" if game["result"] == "1-0" else "1-0"
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    sys.exit(main())

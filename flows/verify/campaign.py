"""``chessfed crosscheck --campaign DIR`` — a cross-verification campaign against another engine.

    chessfed crosscheck --campaign DIR --engine BBP6 [--engine-2017 BBP5] [--tournaments 5000]
                        [--sizes 9-30:70,31-100:20,101-200:8,201-400:2] [--jobs 2] [--seed 1]

FIDE's rules for endorsing a pairing program (Handbook C.04) ask for cross-verification on
generated tournaments against another engine. A campaign plays ``--tournaments`` tournaments made by
the generator (:mod:`flows.verify.generator`, paired by chessfed); before every round the TRF
chessfed pairs is also given to the other engine (``ENGINE --dutch IN.trf -p OUT.txt``) and
the two pairings (boards, colours, board order, bye) are compared.

Tournament ``i`` is fixed by the campaign seed and ``i`` alone (so a campaign can be resumed
and any tournament replayed, ``chessfed generate`` with the parameters in its CSV line):

- Decision (size mix): ``--sizes`` is a list of ``LOW-HIGH:WEIGHT`` tiers; a tournament
  draws its tier by weight, then its size uniformly in the tier (default: mostly small,
  because a 400-player tournament costs about 150 small ones).
- Decision (other parameters): editions alternate (even ``i`` 2025, odd 2017, with
  ``--edition both``); rounds uniform in 5..11, at most ``players - 2``; draw rate uniform
  in 0.10..0.50, forfeit 0..0.05, half-point bye 0..0.05, withdrawal 0..0.02 per round;
  lowest rating uniform in 1000..1800, highest in lowest+200..2800.
- Decision (engines): ``--engine`` pairs the 2025 edition, and the 2017 edition too unless
  ``--engine-2017`` is given.
- Decision (comparison): a round is identical when both engines write the same boards in the
  same order with the same colours and bye, or when neither finds a valid pairing (the
  other engine exits 1, chessfed raises ``NoValidPairing``); the tournament then ends there.
  An engine exit other than 0 or 1, a timeout or an unreadable output is an error.

The campaign folder holds ``campaign.json`` (seed and size mix: a rerun must agree with
them), ``tournaments.csv`` (one line per finished tournament; a rerun skips those, so an
interrupted campaign resumes where it stopped), ``differences/`` (for every round that
differs or that the other engine could not pair: the TRF it was paired from and both
pairings), ``differences.txt`` (one line per such round) and ``summary.md`` (counts by
edition and size tier, rounds compared, identical, different, errors, time), rewritten as
the campaign goes. Exit status: 0 every round identical, 1 some round differs or failed,
2 bad arguments or a campaign folder made with other settings.
"""

from __future__ import annotations

import csv
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING

from flows.io import neutral_cell
from flows.site.render import plural

if TYPE_CHECKING:
    from flows.verify.generator import GeneratorParams

EXIT_SAME, EXIT_DIFFERENT, EXIT_USAGE = 0, 1, 2
DEFAULT_SIZES = "9-30:70,31-100:20,101-200:8,201-400:2"
ENGINE_TIMEOUT = 900
"""Seconds one call of the other engine may take before the round counts as an error."""

CSV_COLUMNS = ["index", "name", "edition", "players", "rounds", "seed", "rating_min",
               "rating_max", "draw_rate", "forfeit_rate", "hpb_rate", "withdrawal_rate",
               "rounds_paired", "stopped_at", "compared", "identical", "different", "errors",
               "our_seconds", "their_seconds", "seconds", "worker"]


def parse_sizes(spec: str) -> list[tuple[int, int, float]]:
    """``"9-30:70,31-100:20"`` → [(9, 30, 70.0), (31, 100, 20.0)]; ValueError names the tier."""
    tiers = []
    for part in spec.split(","):
        try:
            span, weight = part.split(":")
            low, high = (int(x) for x in span.split("-"))
            w = float(weight)
        except ValueError:
            raise ValueError(f"size tier {part!r} is not LOW-HIGH:WEIGHT") from None
        if not 2 <= low <= high or w <= 0:
            raise ValueError(f"size tier {part!r}: need 2 <= LOW <= HIGH and WEIGHT > 0")
        tiers.append((low, high, w))
    return tiers


def tier_of(players: int, tiers: list[tuple[int, int, float]]) -> str:
    for low, high, _w in tiers:
        if low <= players <= high:
            return f"{low}-{high}"
    return "other"


def tournament_params(seed: int, index: int, tiers: list[tuple[int, int, float]],
                      editions: list[str]) -> GeneratorParams:
    """Tournament ``index`` of the campaign ``seed`` (see the module's Decisions)."""
    from flows.verify.generator import GeneratorParams

    rng = random.Random(f"chessfed-campaign:{seed}:{index}")
    low, high, _ = rng.choices(tiers, weights=[t[2] for t in tiers])[0]
    players = rng.randint(low, high)
    rounds = min(rng.randint(5, 11), max(1, players - 2))
    rating_min = rng.randint(1000, 1800)
    return GeneratorParams(
        players=players, rounds=rounds, rating_min=rating_min,
        rating_max=rng.randint(rating_min + 200, 2800),
        draw_rate=round(rng.uniform(0.10, 0.50), 3),
        forfeit_rate=round(rng.uniform(0.0, 0.05), 3),
        hpb_rate=round(rng.uniform(0.0, 0.05), 3),
        withdrawal_rate=round(rng.uniform(0.0, 0.02), 3),
        edition=editions[index % len(editions)],
        seed=rng.randrange(2 ** 31))


@dataclass
class Outcome:
    """One finished tournament, as its CSV line says, plus its differing rounds."""

    index: int
    params: GeneratorParams
    rounds_paired: int = 0
    stopped_at: int | None = None
    compared: int = 0
    identical: int = 0
    different: int = 0
    errors: int = 0
    our_seconds: float = 0.0
    their_seconds: float = 0.0
    seconds: float = 0.0
    worker: int = 0
    """The process id that played it (``--jobs``)."""
    notes: list[str] = field(default_factory=list)

    def row(self) -> dict:
        p = asdict(self.params)
        return {"index": self.index, "name": self.params.name, **p,
                "rounds_paired": self.rounds_paired,
                "stopped_at": "" if self.stopped_at is None else self.stopped_at,
                "compared": self.compared, "identical": self.identical,
                "different": self.different, "errors": self.errors,
                "our_seconds": f"{self.our_seconds:.3f}",
                "their_seconds": f"{self.their_seconds:.3f}", "seconds": f"{self.seconds:.3f}",
                "worker": self.worker}


def parse_pairing(text: str) -> list[tuple[int, int | None]]:
    """The engines' ``-p`` output: the number of boards, then ``white black`` per board;
    ``id 0`` is the pairing-allocated bye."""
    lines = [ln.split() for ln in text.splitlines() if ln.strip()]
    if (not lines or len(lines[0]) != 1 or not lines[0][0].isdigit()
            or int(lines[0][0]) != len(lines) - 1):
        raise ValueError(f"line 1: expected the number of boards, then one line per board: "
                         f"{text[:80]!r}")
    for k, ln in enumerate(lines[1:], start=2):
        if len(ln) != 2 or not all(x.isdigit() for x in ln):
            raise ValueError(f"line {k}: expected 'white black', got {' '.join(ln)!r}")
    return [(int(w), int(b) or None) for w, b in lines[1:]]


def explain_engine_round(text: str, rnd: int, boards: list[tuple[int, int | None]],
                         edition: str) -> tuple[str, str]:
    """The round's TRF with the other engine's pairing recorded as round ``rnd`` (every game
    a draw: Decision, the results do not change the pairing of that round), and what
    ``chessfed pair -c`` says of it (:func:`transforms.fide.dutch.explain.explain_round`)."""
    from dataclasses import replace

    from transforms.core.model import Kind
    from transforms.fide.dutch.explain import explain_round
    from transforms.fide.trf import parse_trf, write_trf

    t = parse_trf(text)
    rows = list(t.card_rows)
    for w, b in boards:
        if b is None:
            rows.append((rnd, w, None, None, 1.0, str(Kind.PAB)))
        else:
            rows += [(rnd, w, b, "w", 0.5, str(Kind.PLAYED)),
                     (rnd, b, w, "b", 0.5, str(Kind.PLAYED))]
    points: dict[int, float] = {}
    for r in rows:
        points[r[1]] = points.get(r[1], 0.0) + r[4]
    players = tuple(replace(p, points=points.get(p.sno, 0.0), raw=None) for p in t.players)
    t = replace(t, card_rows=tuple(rows), players=players)
    finding = explain_round(t, rnd, edition)
    return write_trf(t), str(finding) if finding else "no difference found"


def _fmt(boards) -> str:
    if boards is None:
        return "no pairing"
    return " ".join(f"{w}-{b or 'bye'}" for w, b in boards)


def describe(theirs, ours) -> str:
    """What differs between the other engine's and chessfed's pairing, in one line."""
    if theirs is None or ours is None:
        return f"engine: {_fmt(theirs)[:160]} | chessfed: {_fmt(ours)[:160]}"
    only_theirs = sorted(set(theirs) - set(ours), key=str)
    only_ours = sorted(set(ours) - set(theirs), key=str)
    if not only_theirs and not only_ours:
        return "same boards, different board order"
    return f"engine only: {_fmt(only_theirs)} | chessfed only: {_fmt(only_ours)}"


def play_one(index: int, params: GeneratorParams, engine: list[str], folder: str) -> Outcome:
    """Generate tournament ``index`` and compare every round with ``engine`` (runs in a
    worker process); differing rounds' files go to ``folder/differences``."""
    from flows.verify.generator import generate

    out = Outcome(index, params, worker=os.getpid())
    diff_dir = Path(folder) / "differences"
    t_start = time.perf_counter()
    last = {"t": time.perf_counter()}
    with tempfile.TemporaryDirectory(prefix="chessfed-campaign-") as tmp:
        trf = Path(tmp) / "round.trf"
        res = Path(tmp) / "round.txt"

        def keep(rnd: int, text: str, note: str, theirs, ours) -> None:
            diff_dir.mkdir(parents=True, exist_ok=True)
            stem = f"{index:06d}-{params.name}-r{rnd:02d}"
            (diff_dir / f"{stem}.trf").write_text(text, encoding="utf-8")
            why = ""
            if theirs is not None:
                engine_trf, finding = explain_engine_round(text, rnd, theirs, params.edition)
                (diff_dir / f"{stem}-engine.trf").write_text(engine_trf, encoding="utf-8")
                why = f"\nchessfed's reading of the engine's pairing: {finding}"
                note += f" | {finding}"
            (diff_dir / f"{stem}.txt").write_text(
                f"{note}\nengine:   {_fmt(theirs)}\nchessfed: {_fmt(ours)}{why}\n",
                encoding="utf-8")
            out.notes.append(f"{stem}: {note}")

        def hook(rnd: int, text: str, ours) -> None:
            now = time.perf_counter()
            out.our_seconds += now - last["t"]
            trf.write_text(text, encoding="utf-8")
            res.unlink(missing_ok=True)
            t0 = time.perf_counter()
            try:
                done = subprocess.run([*engine, "--dutch", str(trf), "-p", str(res)],
                                      capture_output=True, text=True, timeout=ENGINE_TIMEOUT)
                rc, err = done.returncode, (done.stderr or done.stdout).strip()[:300]
            except subprocess.TimeoutExpired:
                rc, err = -1, f"no answer in {ENGINE_TIMEOUT} s"
            except OSError as e:
                rc, err = -1, str(e)
            out.their_seconds += time.perf_counter() - t0
            out.compared += 1
            theirs = None
            if rc == 0:
                try:
                    theirs = parse_pairing(res.read_text() if res.exists() else "")
                except ValueError as e:
                    rc, err = -1, f"no valid pairing written: {e}"
            if rc not in (0, 1):
                out.errors += 1
                keep(rnd, text, f"error: engine exit {rc}: {err}", None, ours)
            elif theirs == ours:
                out.identical += 1
            else:
                out.different += 1
                keep(rnd, text, describe(theirs, ours), theirs, ours)
            last["t"] = time.perf_counter()

        got = generate(params, hook)
    out.our_seconds += time.perf_counter() - last["t"]
    out.rounds_paired, out.stopped_at = got.rounds_paired, got.stopped_at
    out.seconds = time.perf_counter() - t_start
    return out


def _read_done(path: Path) -> list[dict]:
    """The finished tournaments' lines; a line cut short by an interruption (its last column
    empty) is not finished."""
    if not path.exists():
        return []
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        last = (reader.fieldnames or [""])[-1]
        return [row for row in reader if row.get(last)]


def summary(rows: list[dict], tiers: list[tuple[int, int, float]], total: int,
            wall: float) -> str:
    """The campaign's summary (Markdown): counts by edition and size tier."""
    groups: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0] * 7)
    keys = ["compared", "identical", "different", "errors"]
    for r in rows:
        for g in ((r["edition"], tier_of(int(r["players"]), tiers)), (r["edition"], "all"),
                  ("both", "all")):
            acc = groups[g]
            acc[0] += 1
            for k, name in enumerate(keys, start=1):
                acc[k] += int(r[name])
            acc[5] += float(r["our_seconds"])
            acc[6] += float(r["their_seconds"])
    lines = [f"# Cross-verification campaign: {len(rows)} of {total} tournaments done", "",
             f"Wall time of the last run: {wall:.0f} s.", "",
             "| edition | players | tournaments | rounds compared | identical | different | "
             "errors | chessfed s | engine s |", "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    order = [f"{lo}-{hi}" for lo, hi, _ in tiers] + ["other", "all"]
    for (ed, tier), a in sorted(groups.items(), key=lambda kv: (kv[0][0] == "both", kv[0][0],
                                                                order.index(kv[0][1]))):
        lines.append(f"| {ed} | {tier} | {a[0]} | {a[1]} | {a[2]} | {a[3]} | {a[4]} | "
                     f"{a[5]:.1f} | {a[6]:.1f} |")
    return "\n".join(lines) + "\n"


def run_campaign(folder: Path, *, tournaments: int, engines: dict[str, list[str]],
                 sizes: str = DEFAULT_SIZES, seed: int = 1, jobs: int = 1,
                 out=None) -> int:
    """Play the campaign's unfinished tournaments; return the exit status (module docstring)."""
    out = out or sys.stdout
    try:
        tiers = parse_sizes(sizes)
    except ValueError as e:
        print(f"chessfed crosscheck: {e}", file=sys.stderr)
        return EXIT_USAGE
    editions = sorted(engines, reverse=True)  # "2025" first: even indices
    folder.mkdir(parents=True, exist_ok=True)
    settings = {"seed": seed, "sizes": sizes, "editions": editions}
    cfg = folder / "campaign.json"
    if cfg.exists():
        before = json.loads(cfg.read_text())
        if before != settings:
            print(f"chessfed crosscheck: {folder} is a campaign with {before}, not {settings}; "
                  f"use another folder or the same settings", file=sys.stderr)
            return EXIT_USAGE
    else:
        cfg.write_text(json.dumps(settings) + "\n")
    table = folder / "tournaments.csv"
    rows = _read_done(table)
    done = {int(r["index"]) for r in rows}
    todo = [i for i in range(tournaments) if i not in done]
    if table.exists() and rows:
        text = table.read_text(encoding="utf-8")
        keep = text.splitlines(keepends=True)
        # drop a line cut short by an interruption (every line is written whole, its
        # newline last), so that the file stays one row per line
        good = [ln for ln in keep if ln.endswith("\n")]
        if good != keep:
            table.write_text("".join(good), encoding="utf-8")
    new_file = not table.exists() or not rows
    print(f"{len(done)} tournaments already done, {len(todo)} to play with {plural(jobs, 'job')}",
          file=out, flush=True)
    t0 = time.perf_counter()
    with table.open("w" if new_file else "a", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_COLUMNS, lineterminator="\n")
        if new_file:
            writer.writeheader()
        diffs = (folder / "differences.txt").open("a", encoding="utf-8")

        def finish(o: Outcome) -> None:
            writer.writerow({k: neutral_cell(str(v)) for k, v in o.row().items()})
            f.flush()
            rows.append({k: str(v) for k, v in o.row().items()})
            for note in o.notes:
                diffs.write(note + "\n")
                print(note, file=out, flush=True)
            diffs.flush()
            if len(rows) % 25 == 0 or len(rows) == tournaments:
                (folder / "summary.md").write_text(
                    summary(rows, tiers, tournaments, time.perf_counter() - t0))

        jobs_list = [(i, tournament_params(seed, i, tiers, editions)) for i in todo]
        try:
            if jobs <= 1:
                for i, p in jobs_list:
                    finish(play_one(i, p, engines[p.edition], str(folder)))
            else:
                with ProcessPoolExecutor(max_workers=jobs,
                                         mp_context=get_context("spawn")) as pool:
                    pending = set()
                    queue = iter(jobs_list)
                    for i, p in queue:
                        pending.add(pool.submit(play_one, i, p, engines[p.edition], str(folder)))
                        if len(pending) >= 2 * jobs:
                            break
                    while pending:
                        ready, pending = wait(pending, return_when=FIRST_COMPLETED)
                        for fut in ready:
                            finish(fut.result())
                            nxt = next(queue, None)
                            if nxt is not None:
                                i, p = nxt
                                pending.add(pool.submit(play_one, i, p, engines[p.edition],
                                                        str(folder)))
        finally:
            diffs.close()
            (folder / "summary.md").write_text(
                summary(rows, tiers, tournaments, time.perf_counter() - t0))
    bad = sum(int(r["different"]) + int(r["errors"]) for r in rows)
    compared = sum(int(r["compared"]) for r in rows)
    print(f"{len(rows)} tournaments, {compared} rounds compared, "
          f"{compared - bad} identical, {bad} different or failed; summary in "
          f"{folder / 'summary.md'}", file=out, flush=True)
    return EXIT_SAME if bad == 0 else EXIT_DIFFERENT


def engines_of(engine: str | None, engine_2017: str | None, edition: str) -> dict[str, list[str]]:
    """Edition → the other engine's command (see the module's Decision on engines)."""
    out: dict[str, list[str]] = {}
    if edition in ("2025", "both") and engine:
        out["2025"] = engine.split()
    if edition in ("2017", "both") and (engine_2017 or engine):
        out["2017"] = (engine_2017 or engine or "").split()
    return out


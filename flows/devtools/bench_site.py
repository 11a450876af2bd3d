"""``make bench-site`` — what a rerun after one new round renders again, and how long it takes.

Copies the National Junior demo (``inputs/national-junior-2024``) to a temporary folder with
its results cut to rounds ≤ ``--through``, runs it through the real flow into an output
folder (as of the event's ``as_of``), then adds the next round's results (``--add`` rounds, one
run each, each a day later) and runs again into the same folder. For every run: the PDFs and PDF pages rendered (read
with pypdf), the PDFs kept, and the manifest's timings. Not a test: speed targets live here.

    python -m flows.devtools.bench_site [--event inputs/national-junior-2024] [--through 9]
        [--add 1] [--keep DIR]
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import io
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def copy_through(src: Path, dest: Path, through: int) -> Path:
    """A copy of the event folder ``src`` at ``dest`` whose results.csv keeps only the rows
    of rounds ≤ ``through`` (every other input file as it is)."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(src, dest)
    write_results_through(src / "results.csv", dest / "results.csv", through)
    return dest


def write_results_through(src: Path, dest: Path, through: int) -> None:
    """``src``'s results.csv cut to the rows of rounds ≤ ``through``, written to ``dest``."""
    with open(src, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    col = rows[0].index("round")
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(
        [rows[0]] + [r for r in rows[1:] if int(r[col]) <= through])
    dest.write_text(out.getvalue(), encoding="utf-8")


def rendered_pdfs(before: dict, after: dict) -> list[str]:
    """The PDFs the run of manifest ``after`` rendered, the run of ``before`` being the one
    before it in the same folder: those whose HTML (``html_sha256``) is new or changed."""
    old = {o["path"]: o.get("html_sha256") for o in before.get("outputs", [])}
    return sorted(o["path"] for o in after.get("outputs", [])
                  if o.get("html_sha256") and old.get(o["path"]) != o["html_sha256"])


def pdf_pages(path: Path) -> int:
    from pypdf import PdfReader  # a test extra: the bench runs in the venv `make` installs

    return len(PdfReader(path).pages)


def run_once(event_dir: Path, out: Path, as_of: dt.date) -> tuple[dict, float]:
    from flows.pipeline.events import run_events, statuses

    t = time.perf_counter()
    status = statuses(run_events(event_dir, out, as_of, return_state=True))
    wall = time.perf_counter() - t
    if status.get(event_dir.name) != "ok":
        raise SystemExit(f"{event_dir.name}: {status}")
    return json.loads((out / event_dir.name / "manifest.json").read_text(encoding="utf-8")), wall


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m flows.devtools.bench_site", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--event", type=Path, default=ROOT / "inputs" / "national-junior-2024")
    ap.add_argument("--through", type=int, default=9, help="rounds in the first run")
    ap.add_argument("--add", type=int, default=1, help="rounds added after it, one run each")
    ap.add_argument("--keep", type=Path, help="work in this folder and keep it (else a temporary one)")
    args = ap.parse_args(argv)
    work = args.keep or Path(tempfile.mkdtemp(prefix="chessfed-bench-site-"))
    work.mkdir(parents=True, exist_ok=True)
    event = copy_through(args.event, work / "inputs" / args.event.name, args.through)
    out = work / "outputs"
    if out.exists():
        shutil.rmtree(out)
    from transforms.kinds import parse_event_config

    cfg = parse_event_config((event / "event.toml").read_text(encoding="utf-8"))
    day = cfg.event.as_of or cfg.event.start
    manifest: dict = {}
    print(f"{'run':<22} {'PDFs rendered':>13} {'pages':>6} {'kept':>5} {'render s':>9} "
          f"{'event s':>8} {'wall s':>7}")
    for n, through in enumerate(range(args.through, args.through + args.add + 1)):
        if n:
            write_results_through(args.event / "results.csv", event / "results.csv", through)
        before = manifest
        manifest, wall = run_once(event, out, day + dt.timedelta(days=n))
        done = rendered_pdfs(before, manifest)
        pages = sum(pdf_pages(out / event.name / p) for p in done)
        total = sum(1 for o in manifest["outputs"] if o.get("html_sha256"))
        label = f"rounds <= {through}" if not n else f"+ round {through}"
        t = manifest["timings"]
        print(f"{label:<22} {len(done):>13} {pages:>6} {total - len(done):>5} "
              f"{t['pdfs_s']:>9.1f} {t['total_s']:>8.1f} {wall:>7.1f}", flush=True)
        if n:
            print("  rendered again: " + ", ".join(done), flush=True)
    if not args.keep:
        shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())

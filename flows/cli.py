"""The ``chessfed`` command line."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path


def _run(args: argparse.Namespace) -> int:
    from flows.events import run_events

    status = run_events(Path(args.inputs), Path(args.out), args.as_of, args.only or None)
    for name, s in status.items():
        print(f"{name}: {s}")
    return 0 if all(s == "ok" for s in status.values()) else 2


def _demo_inputs(args: argparse.Namespace) -> int:
    from flows.demo import write_demo_inputs

    for path in write_demo_inputs(Path(args.folder)):
        print(path)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="chessfed", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run every event under a folder (or one event folder)")
    r.add_argument("inputs", nargs="?", default="inputs")
    r.add_argument("--out", default="outputs")
    r.add_argument("--as-of", type=dt.date.fromisoformat, default=None,
                   help="date the run is as of (default: event.toml's as_of, else today)")
    r.add_argument("--only", action="append", help="run only this event folder (repeatable)")
    r.set_defaults(func=_run)
    d = sub.add_parser("demo-inputs", help="regenerate the committed demo inputs (seeded)")
    d.add_argument("folder", nargs="?", default="inputs")
    d.set_defaults(func=_demo_inputs)
    for mod in ("flows.pair_cli", "flows.standings_cli", "flows.simulate"):
        try:
            module = __import__(mod, fromlist=["add_parser"])
        except ModuleNotFoundError as e:
            if e.name != mod:
                raise
            continue
        module.add_parser(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())

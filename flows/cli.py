"""The ``chessfed`` command line."""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
from pathlib import Path

from flows.commands import pair as pair_cli


def _run(args: argparse.Namespace) -> int:
    """Exit status: 0 clean, 1 published with rejected input rows, 2 an event failed or the
    command was wrong (``flows.events.exit_status``)."""
    from flows.events import event_folders, exit_status, run_events

    inputs = Path(args.inputs)
    if not inputs.is_dir():
        print(f"chessfed run: {inputs} is not a folder", file=sys.stderr)
        return 2
    known = [p.name for p in event_folders(inputs)]
    unknown = sorted(set(args.only or []) - set(known))
    if unknown:
        print(f"chessfed run: no event folder {', '.join(unknown)} under {inputs} "
              f"(there are: {', '.join(known) or 'none'})", file=sys.stderr)
        return 2
    status = run_events(inputs, Path(args.out), args.as_of, args.only or None,
                        not args.dry_run_mail)
    for name, s in status.items():
        print(f"{name}: {s}")
    return exit_status(Path(args.out), status)


def _serve(args: argparse.Namespace) -> int:
    """Scheduled operation: serve the top-level flow as a deployment with a cron schedule
    against a Prefect server (``prefect server start``; PREFECT_API_URL points at it)."""
    from flows.events import run_events

    run_events.serve(name=args.name, cron=args.cron,
                     parameters={"inputs": str(Path(args.inputs).resolve()),
                                 "out": str(Path(args.out).resolve())})
    return 0


def _deploy(args: argparse.Namespace) -> int:
    from flows.commands.deploy import deploy

    try:
        names = deploy(Path(args.inputs), Path(args.out), pool=args.pool, cron=args.cron or "",
                       timezone=args.timezone or "")
    except ValueError as e:
        print(f"chessfed deploy: {e}", file=sys.stderr)
        return 2
    for name in names:
        print(f"deployed {name} (work pool {args.pool}): start a worker with "
              f"`prefect worker start --pool {args.pool}`")
    return 0


def _import_trf(args: argparse.Namespace) -> int:
    from flows.commands.demo_inputs import import_trf

    for path in import_trf(Path(args.trf), Path(args.event), category=args.category):
        print(path)
    return 0


def _demo_inputs(args: argparse.Namespace) -> int:
    from flows.commands.demo_inputs import write_demo_inputs

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
    r.add_argument("--dry-run-mail", action="store_true",
                   help="build everything and write the outbox, send nothing over SMTP")
    r.set_defaults(func=_run)
    d = sub.add_parser("deploy", help="a deployment per event on a Prefect server, with the "
                       "event's [schedule] (PREFECT_API_URL names the server)")
    d.add_argument("inputs", nargs="?", default="inputs")
    d.add_argument("--out", default="outputs")
    d.add_argument("--pool", default="chessfed", help="the process work pool (created if missing)")
    d.add_argument("--cron", help="the schedule of every event (default: each event's [schedule] cron)")
    d.add_argument("--timezone", help="the time zone of --cron (default: [schedule] timezone, else UTC)")
    d.set_defaults(func=_deploy)
    s = sub.add_parser("serve", help="run every event on a cron schedule (needs a Prefect server)")
    s.add_argument("inputs", nargs="?", default="inputs")
    s.add_argument("--out", default="outputs")
    s.add_argument("--cron", default="0 18 * * *", help="schedule (default: daily at 18:00)")
    s.add_argument("--name", default="chessfed-scheduled")
    s.set_defaults(func=_serve)
    t = sub.add_parser("import-trf", help="start or take over a Swiss event from a TRF file")
    t.add_argument("trf")
    t.add_argument("event", help="the event folder to write players.csv and results.csv into")
    t.add_argument("--category", default="open")
    t.set_defaults(func=_import_trf)
    d = sub.add_parser("demo-inputs", help="regenerate the committed demo inputs (seeded)")
    d.add_argument("folder", nargs="?", default="inputs")
    d.set_defaults(func=_demo_inputs)
    from flows.commands import check_trf, crosscheck, generate, input_reference, simulate
    from flows.commands import standings as standings_cli

    for module in (pair_cli, standings_cli, simulate, crosscheck, generate, check_trf,
                   input_reference):
        module.add_parser(sub)
    return p


PROJECT = Path(__file__).resolve().parents[1]


def prefect_settings(env: dict[str, str] | os._Environ, *, verbose: bool = False) -> dict[str, str]:
    """The project's Prefect settings (what ``prefect.toml`` says, which Prefect reads only
    from the current folder) as environment defaults, so that ``chessfed`` behaves the same
    from any folder: state in the project's ``.prefect/``, analytics and telemetry off, 180 s
    for the ephemeral server's first start, warnings only (``-v``: info). A value already in
    the environment wins (e.g. ``PREFECT_API_URL`` of a real server); returns what was set."""
    defaults = {"PREFECT_HOME": str(PROJECT / ".prefect"),
                "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
                "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "180",
                "PREFECT_LOGGING_LEVEL": "INFO" if verbose else "WARNING"}
    if verbose:
        env["PREFECT_LOGGING_LEVEL"] = "INFO"
    added = {k: v for k, v in defaults.items() if k not in env}
    env.update(added)
    return added


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["pair"]:
        # the pairing engine's interface (JaVaFo/bbpPairings), called once per round by
        # arbiters' tools: the same arguments, without loading the rest of chessfed
        return pair_cli.main(argv[1:])
    verbose = bool(argv[:1]) and argv[0] in ("-v", "--verbose")
    if verbose:
        argv = argv[1:]
    prefect_settings(os.environ, verbose=verbose)
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())

"""``chessfed check-trf`` — what FIDE would reject in a rating report (TRF16 or TRF-2026).

    chessfed check-trf FILE.trf                 list every problem with its line
    chessfed check-trf FILE.trf --csv OUT.csv   the same as a table (file,line,column,value,severity,reason)

Errors are what FIDE rejects (a mandatory record missing, a player without a FIDE ID, a new
player without a birth date or sex, points that do not add up to the results, a game the
two lines record differently, an unfinished tournament, ...); warnings are what FIDE may ask
about. Exit status: 0 no errors (warnings may be listed), 1 at least one error, 3 the file
cannot be read as a TRF (the line is quoted).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from flows.io import atomic_write, csv_text
from flows.site.render import plural
from transforms.core.errors import Severity

EXIT_OK, EXIT_REJECTED, EXIT_INPUT = 0, 1, 3


def add_parser(subparsers) -> None:
    """Register the ``check-trf`` subcommand on an argparse subparsers object."""
    p = subparsers.add_parser(
        "check-trf", help="check a TRF as FIDE checks a rating report",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("trf", type=Path, help="the tournament report file")
    p.add_argument("--csv", type=Path, metavar="OUT", help="also write the findings as CSV")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from flows.cli.pair import read_or_explain
    from flows.site.pages import findings_frame
    from transforms.fide.rating_report import check_rating_report

    t = read_or_explain(args.trf)
    if t is None:
        return EXIT_INPUT
    found = check_rating_report(t, source=str(args.trf))
    for f in found:
        where = f"{f.file}:{f.line}" if f.line is not None else f.file
        print(f"{where}: {f.severity}: {f.column}: {f.reason}")
        if f.value:
            print(f"  {f.value!r}")
    errors = sum(f.severity is Severity.ERROR for f in found)
    print(f"{args.trf}: {t.format}, {len(t.players)} players: {plural(errors, 'error')}, "
          f"{plural(len(found) - errors, 'warning')}")
    if args.csv:
        atomic_write(args.csv, csv_text(findings_frame(found)))
    return EXIT_REJECTED if errors else EXIT_OK

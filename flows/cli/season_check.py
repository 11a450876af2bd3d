"""``chessfed season-check`` — one identity per member across every event of the season: the
federation's member registry (``members.csv`` in the inputs folder, beside the event folders)
checked, and every event's players (players.csv, a team event's rosters.csv) against it.

    chessfed season-check inputs [--out season-check.csv]

Rows (the validation report's columns: ``file,line,column,value,severity,reason``; ``file`` is
``members.csv`` or ``<event>/players.csv``): members.csv's bad cells and duplicate ids, a member
probably registered twice (the same birth date and name), and every event's player whose name,
birth date or sex differs from the member their FIDE id names (or, without one, the member of
the same name and birth date), who is no member, or whose membership is not valid on the
event's first day. Exit status: 0 nothing to say, 1 rows listed, 2 no readable members.csv.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from flows import io
from flows.io import atomic_write, csv_text
from flows.pipeline.season_lists import PLAYER_FILES
from flows.site.pages import findings_frame
from transforms.core.errors import ChessfedError, Finding, Severity
from transforms.core.ingest import validate_files
from transforms.kinds import parse_event_config
from transforms.season.members import MEMBERS, players_against_members, probable_duplicates


def add_parser(subparsers) -> None:
    """Register ``season-check`` on the ``chessfed`` command line."""
    p = subparsers.add_parser("season-check", help="every event's players against the member "
                              "registry (members.csv)", description=__doc__,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", type=Path, help="the inputs folder: members.csv and the event folders")
    p.add_argument("--out", type=Path, default=None, help="the rows (CSV); default: stdout")
    p.set_defaults(func=run)


def season_findings(inputs: Path) -> list[Finding]:
    """members.csv checked, then every event folder's players against it."""
    path = inputs / "members.csv"
    if not path.is_file():
        raise ChessfedError(f"{path}: no members.csv (the season's member registry)")
    typed, found = validate_files({"members.csv": io.read_csv_strings(path)},
                                  {"members.csv": MEMBERS}, ("members.csv",))
    members = typed["members.csv"]
    found += probable_duplicates(members)
    for toml in sorted(inputs.glob("*/event.toml")):
        event = toml.parent.name
        try:
            cfg = parse_event_config(toml.read_text(encoding="utf-8"), file=f"{event}/event.toml")
        except ChessfedError as exc:
            found.append(Finding(f"{event}/event.toml", None, "", "", Severity.ERROR,
                                 f"its players are not checked: {exc}"))
            continue
        for name in PLAYER_FILES:
            if name in cfg.files and (toml.parent / name).is_file():
                typed, _ = validate_files({name: io.read_csv_strings(toml.parent / name)},
                                          {name: cfg.files[name]}, ())
                if name in typed:
                    found += players_against_members(typed[name], members, file=f"{event}/{name}",
                                                     on=cfg.event.start)
    return found


def run(args: argparse.Namespace) -> int:
    try:
        found = season_findings(args.inputs)
    except (ChessfedError, OSError) as exc:
        print(f"chessfed season-check: {exc}", file=sys.stderr)
        return 2
    text = csv_text(findings_frame(found))
    if args.out is not None:
        atomic_write(args.out, text)
    else:
        sys.stdout.write(text)
    print(f"chessfed season-check: {len(found)} row{'s' * (len(found) != 1)}", file=sys.stderr)
    return 1 if found else 0

"""``chessfed rating-list`` — an event's players against a FIDE rating list as published.

    chessfed rating-list --list standard_jan26frl.zip --players inputs/my-open/players.csv
        [--rate standard] [--out differences.csv]

The list: FIDE's download (``.zip`` holding one ``.txt`` or ``.xml``), or the ``.txt`` / ``.xml``
itself — the combined list (with or without the FOA column) or a single standard, rapid or
blitz list (``--rate`` says which; the combined list's rating of that rate is compared).
players.csv: any event's (``player_id``, ``name``, ``fide_id`` and whichever of ``rating``,
``title``, ``federation``, ``sex``, ``birth_date`` it has). OUT (default: standard output) has
one row per player not on the list or value that differs:
``player_id,fide_id,name,field,file_value,list_value,what``; the list's own unreadable cells
are warnings on standard error. ``--extract inputs/my-open/ratings.csv`` also writes the
players' entries on the list as the event's ``ratings.csv``: the run then takes from it what
players.csv leaves empty (rating, title, federation, sex), keeps players.csv's value where both
give one (a warning row), and each player's page says which. Exit status: 0 no difference, 1 differences listed, 2 a file
that cannot be read.
"""

from __future__ import annotations

import argparse
import sys
import zipfile
from pathlib import Path

import polars as pl

from flows import io
from flows.io import atomic_write, csv_text, list_bytes
from transforms.core.errors import ChessfedError
from transforms.fide.rating_list import Rate, players_against_list, read_fide_txt, read_fide_xml


def add_parser(subparsers) -> None:
    """Register ``rating-list`` on the ``chessfed`` command line."""
    p = subparsers.add_parser("rating-list", help="an event's players against a FIDE rating list",
                              description=__doc__,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--list", required=True, type=Path, dest="rating_list",
                   help="FIDE's download: .zip, .txt or .xml")
    p.add_argument("--players", required=True, type=Path, help="an event's players.csv")
    p.add_argument("--rate", default="standard", choices=[r.value for r in Rate],
                   help="the rate of play of the list (default standard)")
    p.add_argument("--out", type=Path, default=None, help="the differences (CSV); default: stdout")
    p.add_argument("--extract", type=Path, default=None, metavar="RATINGS_CSV",
                   help="also write the players' entries on the list (an event's ratings.csv: "
                        "the run takes what players.csv leaves empty from it)")
    p.add_argument("--name", default=None,
                   help="the list as the pages name it (default: FIDE <rate>, <month of the "
                        "list> when its header says it)")
    p.set_defaults(func=run)


def list_extract(listed: pl.DataFrame, players: pl.DataFrame, rate: str, name: str) -> pl.DataFrame:
    """The players' entries on the list, as an event's ratings.csv
    (:data:`transforms.swiss.schemas.RATINGS_LIST`)."""
    ids = players["fide_id"].drop_nulls().to_list() if "fide_id" in players.columns else []
    return (listed.filter(pl.col("fide_id").is_in(ids))
            .select("fide_id", "name", pl.col(rate).alias("rating"), "title", "federation", "sex",
                    pl.lit(name).alias("list")))


def run(args: argparse.Namespace) -> int:
    try:
        data, kind = list_bytes(args.rating_list)
        read = read_fide_xml if kind == "xml" else read_fide_txt
        got = read(data, rate=args.rate, source=args.rating_list.name)
        players, found = io.read_csv_strings(args.players)
        for f in [*got.findings, *found]:
            print(f"chessfed rating-list: {f.file}:{f.line}: {f.column}: {f.value!r}: {f.reason}",
                  file=sys.stderr)
        diff = players_against_list(players, got.players, args.rate)
        if args.extract is not None:
            name = args.name or (f"FIDE {args.rate}" + (f", {got.period:%B %Y}" if got.period else ""))
            atomic_write(args.extract, csv_text(list_extract(got.players, players, args.rate, name)))
    except (ChessfedError, OSError, zipfile.BadZipFile) as exc:
        print(f"chessfed rating-list: {exc}", file=sys.stderr)
        return 2
    text = csv_text(diff)
    if args.out is not None:
        atomic_write(args.out, text)
    else:
        sys.stdout.write(text)
    month = f" of {got.period:%B %Y}" if got.period else ""
    print(f"chessfed rating-list: {got.players.height:,} players on the list{month}; "
          f"{diff.height} difference{'s' * (diff.height != 1)} with {args.players}",
          file=sys.stderr)
    return 1 if diff.height else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m flows.cli.rating_list", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    add_parser(sub)
    return run(p.parse_args(["rating-list", *(argv or [])]))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

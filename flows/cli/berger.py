"""``chessfed berger`` — the FIDE Berger table of a round robin (C.05 Annex 1), by start number.

    chessfed berger --players N [--double]

One line per board, ``round board white black``, rounds in order and boards in the order of
the FIDE table; for an odd N the player without a game is shown against ``0`` (the bye keeps
its board, board 1). ``--double``: a second cycle with colours reversed, and the first
cycle's last two rounds in reverse order, as the Annex recommends
(:mod:`transforms.round_robin.berger`). Exit status: 0 printed; 2 N not a whole number of at
least 2 (nothing printed).
"""

from __future__ import annotations

import argparse
import re
import sys

EXIT_OK, EXIT_USAGE = 0, 2


def add_parser(subparsers) -> None:
    """Register the ``berger`` subcommand on an argparse subparsers object."""
    p = subparsers.add_parser("berger", help="the FIDE Berger table of a round robin "
                              "(C.05 Annex 1), by start number", description=__doc__,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    _arguments(p)
    p.set_defaults(func=run)


def _arguments(p: argparse.ArgumentParser) -> None:
    # a string, so that "six" or "5.5" gets this command's message and exit status 2
    p.add_argument("--players", required=True, metavar="N", help="the number of players (≥ 2)")
    p.add_argument("--double", action="store_true",
                   help="double round robin: a second cycle with colours reversed")


def players_of(text: str) -> int | None:
    """The number of players ``--players`` gives, or None when it is not a whole number ≥ 2."""
    if not re.fullmatch(r"\s*[0-9]+\s*", text):
        return None
    n = int(text)
    return n if n >= 2 else None


def table_lines(players: int, double: bool) -> list[str]:
    """The table's lines: ``round board white black`` (start numbers, 0 for the bye)."""
    from transforms.round_robin.berger import berger_table

    return [f"{b.round} {b.board} {b.white} {b.black}"
            for b in berger_table(players, double=double)]


def run(args: argparse.Namespace) -> int:
    n = players_of(args.players)
    if n is None:
        print(f"chessfed berger: --players must be a whole number of at least 2, not "
              f"{args.players!r}", file=sys.stderr)
        return EXIT_USAGE
    sys.stdout.write("".join(line + "\n" for line in table_lines(n, args.double)))
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """``chessfed berger`` on its own (the arguments after the command's name)."""
    p = argparse.ArgumentParser(prog="chessfed berger", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    _arguments(p)
    return run(p.parse_args(argv))

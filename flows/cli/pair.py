"""``chessfed pair`` — the FIDE Dutch pairing engine with the JaVaFo / bbpPairings interface,
and the FIDE team Swiss (C.04.6, 2026) on TRF-2026 team files.

    chessfed pair --dutch IN.trf -p OUT.txt      pair the next round
    chessfed pair --dutch FULL.trf -c            re-pair every round and compare
    chessfed pair --team IN.trf -p OUT.txt       pair a team Swiss's next round (C.04.6)
    chessfed pair --team FULL.trf -c             re-pair every recorded round and compare

``--team`` (:mod:`flows.cli.pair_team`) reads a TRF-2026 team file (``310`` teams, the
players' ``001`` games, ``320`` byes, ``330`` forfeited matches, ``240`` absences, ``192`` the
colour preference type, ``152`` the initial colour) and writes the same format with team
pairing numbers: the number of tables, then ``white black`` per table (the team with White
on board 1 first), the bye as ``team 0``. ``--explain`` adds the bracket that decided each
pair to standard error.

``-p`` writes OUT.txt as the FIDE-endorsed engines do: the number of boards (the bye counts
as a board), then ``white black`` per board in board order, a pairing-allocated bye as
``id 0``. Without a file name after ``-p`` the pairing goes to standard output.

Virtual points in the file (``XXA NNNN  p1 p2 ...`` lines, TRF-2026 ``250`` records: FIDE
C.04.5 acceleration) are added to the pairing scores of their rounds, as the FIDE-endorsed
engines do; ``chessfed`` writes them for an event with ``swiss.acceleration = "baku"``.

``-c`` (check) re-pairs every round of the file from the rounds before it (keeping the byes
and absences recorded for that round) and prints each round whose pairing differs from
the recorded one, with the first criterion the recorded pairing breaks or scores worse on,
bracket by bracket (``round 5, bracket 3 points: the recorded pairing gives 1 player their
colour preference less (C.04.3 2025 C12)``; :mod:`transforms.fide.dutch.explain`).

``--core python`` pairs with the pure-Python matching solver (the reference) instead of the
compiled one the install builds; the pairings are the same.

Exit status: 0 success (``-c``: every round the same); 1 no valid pairing exists (``-c``: at
least one round differs or cannot be paired); 3 invalid input (the offending line is
printed, quoted, on standard error): a malformed line, or a player whose points (columns
81-84) disagree with the player's results under the file's point system, as bbpPairings and
JaVaFo refuse such a file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from flows.io import atomic_write
from transforms.core.errors import InputError, NoValidPairing
from transforms.core.model import DutchEdition
from transforms.fide.acceleration import virtual_points
from transforms.fide.dutch.engine import pair_round
from transforms.fide.dutch.explain import explain_round
from transforms.fide.trf import Tournament, parse_trf
from transforms.fide.trf_points import check_points

EXIT_OK, EXIT_NO_PAIRING, EXIT_INPUT = 0, 1, 3


def add_parser(subparsers) -> None:
    """Register the ``pair`` subcommand on an argparse subparsers object."""
    p = subparsers.add_parser(
        "pair", help="pair a round with the FIDE Dutch system (JaVaFo/bbpPairings interface)",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    _arguments(p)
    p.set_defaults(func=run)


def _arguments(p: argparse.ArgumentParser) -> None:
    system = p.add_mutually_exclusive_group(required=True)
    system.add_argument("--dutch", metavar="TRF", type=Path,
                        help="the tournament file (TRF16 / TRF-2026): FIDE Dutch system")
    system.add_argument("--team", metavar="TRF", type=Path,
                        help="a TRF-2026 team file: FIDE Swiss Team Pairing System (C.04.6)")
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("-p", dest="pairing_out", nargs="?", const="-", metavar="OUT",
                      help="write the next round's pairing to OUT (default: stdout)")
    mode.add_argument("-c", dest="check", action="store_true",
                      help="re-pair every round and report the rounds that differ")
    p.add_argument("--edition", choices=[e.value for e in DutchEdition],
                   help="rules edition (default: from the file, else 2025)")
    p.add_argument("--explain", action="store_true",
                   help="--team: print how each round was paired (bye, brackets, colours) "
                        "on standard error")
    p.add_argument("--core", choices=["compiled", "python"],
                   help="the matching solver: compiled (cmatching.c, the default where the "
                        "install built it) or python (the reference); the same pairings")


def read_tournament(path: Path) -> Tournament:
    """Read a TRF file (UTF-8, else Latin-1, as older programs write), its virtual points
    (``XXA``/``250``, FIDE C.04.5) checked here so that an error names their line."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    t = parse_trf(text, source=str(path))
    virtual_points(t, source=str(path), text=text)
    return t


def format_pairing(boards: list[tuple[int, int | None]]) -> str:
    """The engines' ``-p`` format: board count, then ``white black``; a bye is ``id 0``."""
    lines = [str(len(boards))]
    lines += [f"{w} {0 if b is None else b}" for w, b in boards]
    return "\n".join(lines) + "\n"


def check_rounds(t: Tournament, edition: str | None, out=None, core: str | None = None) -> int:
    """Re-pair every round; print the differences; return the exit status."""
    out = out or sys.stdout
    last = max((row[0] for row in t.card_rows), default=0)
    differing = 0
    for r in range(1, last + 1):
        want = t.pairing_of(r)
        if not want:
            continue
        try:
            got = set(pair_round(t.before_round(r), round_no=r, edition=edition, core=core))
        except NoValidPairing as e:
            print(f"round {r}: no valid pairing ({e})", file=out)
            differing += 1
            continue
        if got != want:
            differing += 1
            missing = sorted(want - got, key=str)
            extra = sorted(got - want, key=str)
            print(f"round {r}: differs; recorded only: {_fmt(missing)}; "
                  f"engine only: {_fmt(extra)}", file=out)
            why = explain_round(t, r, edition)
            if why is not None:
                print(f"  {why}", file=out)
        else:
            print(f"round {r}: same", file=out)
    return EXIT_OK if differing == 0 else EXIT_NO_PAIRING


def _fmt(boards) -> str:
    return ", ".join(f"{w}-{'bye' if b is None else b}" for w, b in boards) or "-"


def read_or_explain(path: Path) -> Tournament | None:
    """The tournament in ``path``, or None after saying on standard error why it cannot be
    read (the offending line quoted): the caller exits 3."""
    try:
        return read_tournament(path)
    except InputError as e:
        print(f"{e.file}:{e.line}: {e.reason}\n  {e.value!r}", file=sys.stderr)
    except OSError as e:
        print(f"{path}: {e.strerror or e}", file=sys.stderr)
    return None


def run(args: argparse.Namespace) -> int:
    if args.team is not None:
        from flows.cli.pair_team import run_team

        status, tables = run_team(args)
        return status if tables is None else write_pairing(args, tables)
    t = read_or_explain(args.dutch)
    if t is None:
        return EXIT_INPUT
    bad = check_points(t, source=str(args.dutch))
    for f in bad:
        print(f"{f.file}:{f.line}: {f.reason}\n  {f.value!r}", file=sys.stderr)
    if bad:
        return EXIT_INPUT
    if args.check:
        return check_rounds(t, args.edition, core=args.core)
    try:
        boards = pair_round(t, edition=args.edition, core=args.core)
    except NoValidPairing as e:
        print(f"no valid pairing: {e}", file=sys.stderr)
        return EXIT_NO_PAIRING
    return write_pairing(args, boards)


def write_pairing(args: argparse.Namespace, boards: list[tuple[int, int | None]]) -> int:
    """``-p``: the pairing (:func:`format_pairing`) to OUT, or standard output."""
    text = format_pairing(boards)
    if args.pairing_out in (None, "-"):
        sys.stdout.write(text)
    else:
        atomic_write(Path(args.pairing_out), text)
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="chessfed pair", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    _arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())

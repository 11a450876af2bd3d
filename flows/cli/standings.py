"""``chessfed standings`` — final standings with FIDE C.07 tie-breaks from a TRF file.

    chessfed standings --trf FILE.trf --tiebreaks BH-C1,BH,SB,DE,WIN,BWG \\
        --edition fide-2024 --out OUT.csv [--explain WHY.csv] [--rounds N]
        [--round-robin | --swiss] [--unrated-rating R]

OUT.csv has the header ``rank,sno,name,points,`` then one column per tie-break code in the
order given (decimals, e.g. ``12.5``, ``0.0``; empty where a tie-break has no value, e.g.
ARO, TPR or APRO of a player without a game over the board, as TieBreakServer has it).
Players equal after every tie-break share the rank. Files are written atomically.
Exit status: 0 done, 2 bad input or configuration (the message says which line or key).

Decision (the DE cell): the player's DE place inside the group tied before DE (``1.0`` first,
equal places shared: 1, 2, 2, 4), where direct encounter separated that group (C.07 6.2 all
met, 6.3 not all met but someone alone at the top whatever the missing games); empty where DE
does not apply (alone on the score, or a group DE leaves tied). FIDE TEC's TieBreakServer
prints the same places, and 0 where this file has an empty cell. ``--explain`` gives the
points among the tied players and the article that decided.

A TRF-2026 team file (``310`` team records, or a ``192`` team type) gives team standings
(:mod:`transforms.fide.team_standings`): OUT.csv has ``rank,tpn,name,mp,gp,`` then one
column per FIDE C.07 team tie-break (``MPTS``, ``GPTS``, ``BH:MP``, ``EDE``, ``SB:GP``,
``EMGSB``, ``BC``, ``BBE``, ...). The primary score is the file's (record ``212``'s first
code, else the ``192`` type's first score, else match points); ``--tiebreaks`` defaults to
the rest of the file's ``212`` record, else ``GPTS,BH:MP,EDE``; match points are record
``362``'s (default 2/1/0).

Decision (round robin or Swiss, C.07 15.2): ``--round-robin`` / ``--swiss`` if given; else the
TRF's tournament type (TRF-2026 ``192`` code, else TRF16 ``092`` text: a round robin, Berger,
Schiller or Scheveningen type, or a Swiss/Dutch type); else a complete round robin found in
the file (every two players met the same number of times); else a Swiss. When the file
makes it a round robin, a line on stderr says why.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import polars as pl

from flows.io import atomic_write, csv_text
from transforms.core.errors import ChessfedError
from transforms.fide.standings import RegimeSource, pairing_regime, rank_players
from transforms.fide.team_standings import rank_teams
from transforms.fide.team_tiebreaks import explain_team_tiebreaks, parse_team_code
from transforms.fide.team_trf import is_team_file, parse_team_trf
from transforms.fide.tiebreaks import explain_tiebreaks, parse_code, parse_edition
from transforms.fide.trf import parse_trf

DEFAULT_TIEBREAKS = "BH-C1,BH,SB,DE,WIN,BWG"
DEFAULT_TEAM_TIEBREAKS = "GPTS,BH:MP,EDE"


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--trf", required=True, type=Path, help="tournament report file (TRF16/TRF-2025)")
    p.add_argument("--tiebreaks", default=None,
                   help=f"FIDE codes in order, comma-separated (default {DEFAULT_TIEBREAKS}; "
                        f"a team file: its 212 record, else {DEFAULT_TEAM_TIEBREAKS})")
    p.add_argument("--edition", default="fide-2024",
                   help="C.07 edition: fide-2024 (default), fide-2026 or fide-2009")
    p.add_argument("--rounds", type=int, default=None,
                   help="rounds to count (default: the last round in the file)")
    regime = p.add_mutually_exclusive_group()
    regime.add_argument("--round-robin", dest="round_robin", action="store_const", const=True,
                        default=None,
                        help="pre-determined pairings: forfeits count as games (C.07 15.2); "
                             "default: from the TRF's tournament type, or a complete round robin")
    regime.add_argument("--swiss", dest="round_robin", action="store_const", const=False,
                        help="a Swiss (C.07 16) whatever the TRF's type record says")
    p.add_argument("--unrated-rating", type=int, default=None,
                   help="rating an unrated player counts with in ARO/TPR/... (C.07 10), "
                        "if the regulations give one; otherwise those tie-breaks stay empty")
    p.add_argument("--out", required=True, type=Path, help="standings CSV to write")
    p.add_argument("--explain", type=Path, default=None,
                   help="also write the contributions behind each tie-break (CSV)")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register ``standings`` on the ``chessfed`` command line."""
    p = subparsers.add_parser("standings", help="standings with FIDE tie-breaks from a TRF file",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    _add_arguments(p)
    p.set_defaults(func=run)


def standings_csv(ranking: pl.DataFrame, codes: list[str]) -> str:
    """The CSV contract: rank,sno,name,points,<codes...>."""
    return csv_text(ranking.select("rank", "sno", "name", "points", *codes))


def run(args: argparse.Namespace) -> int:
    try:
        text = args.trf.read_text(encoding="utf-8-sig")
        if is_team_file(text):
            return run_team(args, text)
        codes = [parse_code(c, key="--tiebreaks", file="command line")[0]
                 for c in (args.tiebreaks or DEFAULT_TIEBREAKS).split(",") if c.strip()]
        edition = parse_edition(args.edition, key="--edition", file="command line")
        tournament = parse_trf(text, source=str(args.trf))
        players = tournament.players_frame()
        regime = pairing_regime(tournament, round_robin=args.round_robin)
        ranking = rank_players(tournament.scorecard, players, codes, edition=edition,
                               rounds=args.rounds, round_robin=regime.round_robin,
                               unrated_rating=args.unrated_rating)
        atomic_write(args.out, standings_csv(ranking, codes))
        if args.explain is not None:
            why = explain_tiebreaks(tournament.scorecard, players, codes, edition=edition,
                                    rounds=args.rounds, round_robin=regime.round_robin,
                                    unrated_rating=args.unrated_rating)
            atomic_write(args.explain, csv_text(why))
    except (ChessfedError, OSError) as exc:
        print(f"chessfed standings: {exc}", file=sys.stderr)
        return 2
    if regime.round_robin and regime.source is not RegimeSource.OPTION:
        print(f"chessfed standings: pre-determined pairings (C.07 15.2), {regime.source}: "
              f"{regime.reason}", file=sys.stderr)
    say_tied(ranking, "players")
    return 0


def say_tied(ranking: pl.DataFrame, who: str) -> None:
    """On standard error: how many ``who`` (players, teams) the tie-breaks leave tied, and
    their ranks (C.07 4.2: the chief arbiter decides)."""
    tied = ranking.filter(pl.col("tied_after_all"))
    if tied.height:
        print(f"chessfed standings: {tied.height} {who} still tied after all tie-breaks "
              f"(ranks {', '.join(sorted(set(tied['rank_label'].to_list())))}); "
              "the chief arbiter decides", file=sys.stderr)


def run_team(args: argparse.Namespace, text: str) -> int:
    """The team standings of a TRF-2026 team file (FIDE C.07, team tie-breaks)."""
    trf = parse_team_trf(text, source=str(args.trf))
    if args.tiebreaks:
        given = [c for c in args.tiebreaks.split(",") if c.strip()]
    elif trf.ranking[1:]:
        given = trf.ranking[1:]
    else:
        given = DEFAULT_TEAM_TIEBREAKS.split(",")
    codes = [parse_team_code(c, key="--tiebreaks", file="command line" if args.tiebreaks
                             else str(args.trf)).code for c in given]
    edition = parse_edition(args.edition, key="--edition", file="command line")
    round_robin = trf.round_robin if args.round_robin is None else args.round_robin
    teams = pl.DataFrame({"sno": list(trf.names), "name": list(trf.names.values())},
                         schema={"sno": pl.Int64, "name": pl.String})
    options = dict(primary=trf.primary, match_points=trf.match_points, rounds=args.rounds,
                   edition=edition, round_robin=round_robin)
    ranking = rank_teams(trf.card, trf.boards, codes, teams=teams, **options)
    out = ranking.rename({"sno": "tpn"}).select("rank", "tpn", "name", "mp", "gp", *codes)
    atomic_write(args.out, csv_text(out))
    if args.explain is not None:
        atomic_write(args.explain, csv_text(explain_team_tiebreaks(trf.card, trf.boards, codes,
                                                                   **options)))
    say_tied(ranking, "teams")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m flows.cli.standings", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    _add_arguments(p)
    return run(p.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())

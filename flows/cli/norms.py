"""``chessfed norms`` — the title norms (FIDE B.01) of any event from its TRF file.

    chessfed norms --trf FILE.trf --out NORMS.csv [--host FED] [--event-type TYPE]
        [--round-robin | --swiss] [--rounds N] [--min-games N] [--titles GM,IM]
        [--achieved-only] [--explain WHY.csv] [--forecast AHEAD.csv]

NORMS.csv has one row per player and title the player can make a norm for (the titles above
the one held; the women's titles for players of sex ``w``/``F``) who played a game that counts:
``sno,name,federation,title_held,norm,achieved,games,counts_as,score,required_score,ra,rp,
exemption,foreign_met,ignored`` then, for every requirement of :data:`REQUIREMENT_KEYS`, its
number and whether it is met (``games``, ``games_met``, ``other_federations``, ...; empty where
the requirement does not apply). The figures are those of the way the norm is made (games left
out by 1.4.1e / 1.4.1f in ``ignored``), else of every game so far. ``--achieved-only``: the norms
made only. ``--explain``: every requirement as a row (article, what, number, needed, met) and
every game counted. ``--forecast``: with ``--rounds`` before the last round, what the remaining
rounds must give (the score in the next k rounds and the least average of those opponents).

What a TRF cannot say: ``--host`` (the host federation, 1.4.3b and 1.4.3d; default the file's
federation record), ``--event-type`` (open, national-championship, national-team-championship,
zonal, international-team-championship: the exemptions of 1.4.3a-c and the games of 1.4.1b),
``--min-games`` (the office's minimum, 1.4.1). A round robin (1.4.1e, 1.4.2b) as ``chessfed
standings`` decides it; a double round robin (1.4.5f) when every two players met twice. The
round dates (``132``) check 1.1.3. Exit status: 0 done, 2 bad input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import polars as pl

from flows.io import atomic_write, csv_text
from transforms.core.errors import ChessfedError, ConfigError
from transforms.fide.norms import (
    EventType,
    NormEvent,
    event_norms,
    explain_frame,
    forecast_frame,
    norm_rules,
    norms_frame,
)
from transforms.fide.standings import complete_round_robin_cycles, pairing_regime
from transforms.fide.trf import parse_trf
from transforms.swiss.takeover import round_dates


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--trf", required=True, type=Path, help="tournament report file (TRF16/TRF-2026)")
    p.add_argument("--out", required=True, type=Path, help="norms CSV to write")
    p.add_argument("--host", default=None, help="host federation (default: the file's)")
    p.add_argument("--event-type", default="open", choices=[e.value for e in EventType],
                   help="what the event is, for the exemptions of B.01 1.4.3 (default open)")
    regime = p.add_mutually_exclusive_group()
    regime.add_argument("--round-robin", dest="round_robin", action="store_const", const=True,
                        default=None, help="pre-determined pairings (1.4.1e, 1.4.2b)")
    regime.add_argument("--swiss", dest="round_robin", action="store_const", const=False,
                        help="a Swiss whatever the TRF's type record says")
    p.add_argument("--rounds", type=int, default=None,
                   help="evaluate after this round (default: the last round in the file)")
    p.add_argument("--min-games", type=int, default=None,
                   help="the fewest games a norm needs, if the regulations give fewer (1.4.1b)")
    p.add_argument("--titles", default=None, help="titles to evaluate (default GM,IM,WGM,WIM)")
    p.add_argument("--edition", default="fide-2024", help="B.01 edition (fide-2024)")
    p.add_argument("--achieved-only", action="store_true", help="the norms made only")
    p.add_argument("--explain", type=Path, default=None,
                   help="also write every requirement and every game counted (CSV)")
    p.add_argument("--forecast", type=Path, default=None,
                   help="also write what the remaining rounds must give (CSV)")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register ``norms`` on the ``chessfed`` command line."""
    p = subparsers.add_parser("norms", help="title norms (FIDE B.01) from a TRF file",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    _add_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        rules = norm_rules(args.edition)
        text = args.trf.read_text(encoding="utf-8-sig")
        t = parse_trf(text, source=str(args.trf))
        players = t.players_frame().rename({"fed": "federation"}).with_columns(
            pl.col("sex").str.replace(r"^[wW]$", "F"))
        card = t.scorecard
        last = max(card["round"].to_list(), default=0)
        scheduled = max(t.total_rounds or 0, last)
        through = args.rounds if args.rounds is not None else last
        if not 0 <= through <= scheduled:
            raise ConfigError("command line", "--rounds", f"{through}: the file has rounds 1 "
                              f"to {scheduled}")
        regime = pairing_regime(t, round_robin=args.round_robin)
        dates = round_dates(t)
        titles = ([x.strip().upper() for x in args.titles.split(",") if x.strip()]
                  if args.titles else None)
        event = NormEvent(
            rounds=scheduled, host=(args.host or t.header.federation or "").strip().upper(),
            event_type=EventType(args.event_type), predetermined=regime.round_robin,
            double_round_robin=regime.round_robin and complete_round_robin_cycles(
                card, players["sno"].to_list()) == 2,
            round_dates=tuple(dates[r] for r in sorted(dates)), min_games=args.min_games)
        next_round = {s: o for r, s, o in zip(card["round"], card["sno"], card["opponent"])
                      if r == through + 1}
        report = event_norms(card, players, event, through=through, next_round=next_round,
                             titles=titles, rules=rules)
        atomic_write(args.out, csv_text(norms_frame(report, achieved_only=args.achieved_only)))
        if args.explain is not None:
            atomic_write(args.explain, csv_text(explain_frame(report)))
        if args.forecast is not None:
            atomic_write(args.forecast, csv_text(forecast_frame(report)))
    except (ChessfedError, OSError) as exc:
        print(f"chessfed norms: {exc}", file=sys.stderr)
        return 2
    made = report.achieved()
    print(f"chessfed norms: {len(made)} norm{'s' * (len(made) != 1)} after round {through}"
          + "".join(f"; {a.name} ({e.title})" for a, e in made), file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m flows.cli.norms", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    _add_arguments(p)
    return run(p.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())

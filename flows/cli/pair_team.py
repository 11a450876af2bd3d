"""``chessfed pair --team`` — pair a team Swiss round by FIDE C.04.6 (2026) from a TRF-2026 team
file (:mod:`transforms.fide.team_trf`), or check every recorded round (``-c``), with the output
format of ``chessfed pair`` (:mod:`flows.cli.pair`): the number of tables, then ``white black``
team pairing numbers per table in table order (GHR 3.6), the pairing-allocated bye as
``team 0`` after the last table.

The next round is the one after the last round with a match or a bye; the teams a ``240``
record (``Z``, ``F`` or ``H``) names for it are absent (GHR 3.3) and not paired. ``-c`` pairs
each recorded round from the rounds before it, the teams the file does not pair that round
taken as absent, and prints ``round N: same`` or what differs (exit 1 if any round does).
"""

from __future__ import annotations

import argparse
import sys

from transforms.core.errors import InputError
from transforms.fide.team_swiss.engine import pair_round
from transforms.fide.team_swiss.history import settings_of_type, states_before
from transforms.fide.team_swiss.model import InvalidTeamInput, NoTeamPairing, TeamRound
from transforms.fide.team_trf import TeamTrf, parse_team_trf

EXIT_OK, EXIT_NO_PAIRING, EXIT_INPUT = 0, 1, 3


def pair_team_round(trf: TeamTrf, rnd: int, absent: frozenset[int]) -> TeamRound:
    """FIDE C.04.6 — round ``rnd`` of the file's team Swiss, paired from the rounds before it."""
    # without 142 no round is one of the last two (C7, C10) or the last (type B), as without
    # XXR the Dutch system's last-round exception never applies (docs/decisions.md)
    rounds = max(trf.scheduled_rounds, rnd) if trf.scheduled_rounds else rnd + 2
    settings = settings_of_type(trf.type_code or "FIDE_TEAM", round=rnd, rounds=rounds,
                                initial=trf.initial_colour)
    teams = states_before(trf.card, rnd, primary=trf.primary, teams=trf.names, absent=absent)
    return pair_round(teams, settings)


def check_team_rounds(trf: TeamTrf, out=None, explain: bool = False) -> int:
    """Re-pair every recorded round; print each one the same or how it differs."""
    out = out or sys.stdout
    differing = 0
    for rnd in range(1, trf.last_paired() + 1):
        pairs, bye, absent = trf.pairing_of(rnd)
        if not pairs and bye is None:
            continue
        try:
            got = pair_team_round(trf, rnd, absent)
        except NoTeamPairing as e:
            print(f"round {rnd}: no valid pairing ({e})", file=out)
            differing += 1
            continue
        if set(got.pairs) == pairs and got.bye == bye:
            print(f"round {rnd}: same", file=out)
            continue
        differing += 1
        recorded = sorted(pairs - set(got.pairs)) + ([(bye, 0)] if bye != got.bye and bye else [])
        engine = sorted(set(got.pairs) - pairs) + ([(got.bye, 0)] if bye != got.bye and got.bye else [])
        print(f"round {rnd}: differs; recorded only: {_fmt(recorded)}; engine only: "
              f"{_fmt(engine)}", file=out)
        if explain:
            print("\n".join(f"  {line}" for line in got.explanation()), file=out)
    return EXIT_OK if differing == 0 else EXIT_NO_PAIRING


def _fmt(pairs) -> str:
    return ", ".join(f"{w}-{b or 'bye'}" for w, b in pairs) or "-"


def run_team(args: argparse.Namespace) -> tuple[int, list[tuple[int, int | None]] | None]:
    """``chessfed pair --team``: the exit status of :mod:`flows.cli.pair` and, for ``-p``, the
    next round's tables (white, black) in order, the bye last as (team, None), which
    :func:`flows.cli.pair.run` writes as it writes the Dutch system's."""
    try:
        trf = parse_team_trf(args.team.read_text(encoding="utf-8-sig"), source=str(args.team))
    except InputError as e:
        print(f"{e.file}:{e.line}: {e.reason}\n  {e.value!r}", file=sys.stderr)
        return EXIT_INPUT, None
    except (OSError, UnicodeDecodeError) as e:
        print(f"{args.team}: {getattr(e, 'strerror', None) or e}", file=sys.stderr)
        return EXIT_INPUT, None
    try:
        if args.check:
            return check_team_rounds(trf, explain=args.explain), None
        rnd = trf.last_paired() + 1
        if trf.scheduled_rounds and rnd > trf.scheduled_rounds:
            print(f"{args.team}: all {trf.scheduled_rounds} rounds (record 142) are paired",
                  file=sys.stderr)
            return EXIT_NO_PAIRING, None
        got = pair_team_round(trf, rnd, trf.absent.get(rnd, frozenset()))
    except InvalidTeamInput as e:
        print(f"{args.team}: {e}", file=sys.stderr)
        return EXIT_INPUT, None
    except NoTeamPairing as e:
        print(f"no valid pairing: {e}", file=sys.stderr)
        return EXIT_NO_PAIRING, None
    if args.explain:
        print("\n".join(got.explanation()), file=sys.stderr)
    return EXIT_OK, [*got.pairs, *([(got.bye, None)] if got.bye is not None else [])]

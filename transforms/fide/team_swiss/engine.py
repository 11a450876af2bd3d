"""FIDE C.04.6 3.3.2 — a round of the team Swiss, in the order of the article: (1) the
pairing-allocated bye (3.4), (2) the top-scoregroup with its upfloaters as a bracket (3.5),
paired (3.6), (3) again until every team is paired, (4) the colours (art. 4); then the
tables in the order of GHR 3.6.

Decisions:

- Scoregroups are the scores of the teams present this round, the bye's receiver included
  (it decides which scoregroup "follows" a bracket for [C6]; Gacrux).
- Tables (GHR 3.6, as Gacrux orders them): the higher pairing score of the pair first, then
  the higher sum of the two, then the smaller TPN of the pair; the bye after the last table.
"""

from __future__ import annotations

from collections.abc import Sequence

from transforms.fide.team_swiss.bracket import pair_bracket
from transforms.fide.team_swiss.colours import allocate_colours, colour_preference
from transforms.fide.team_swiss.completion import Compatibility
from transforms.fide.team_swiss.model import (
    BracketReport,
    ByeReport,
    InvalidTeamInput,
    NoTeamPairing,
    PairReport,
    RoundSettings,
    TeamRound,
    TeamState,
    UpfloaterReport,
)
from transforms.fide.team_swiss.upfloaters import choose_upfloaters


def check_input(teams: Sequence[TeamState], settings: RoundSettings) -> None:
    """FIDE C.04.6 1.1.1 — every team a different TPN; the history consistent with itself
    (a played match gives board 1 a colour, 1.6.1); the round within the schedule."""
    problems = []
    seen: set[int] = set()
    for t in teams:
        if t.tpn < 1 or t.tpn in seen:
            problems.append(f"TPN {t.tpn!r} is {'repeated' if t.tpn in seen else 'not positive'}")
        seen.add(t.tpn)
        if t.matches_played != len(t.colours):
            problems.append(f"team {t.tpn}: matches_played {t.matches_played!r} but "
                            f"{len(t.colours)} colours")
        if t.tpn in t.met:
            problems.append(f"team {t.tpn} has met itself")
    if settings.round < 1 or settings.rounds < 1:
        problems.append(f"round {settings.round!r} of {settings.rounds!r}")
    if problems:
        raise InvalidTeamInput("FIDE C.04.6 input: " + "; ".join(problems))


def assign_bye(present: Sequence[TeamState], compat: Compatibility) -> ByeReport:
    """FIDE C.04.6 3.4 — the pairing-allocated bye, decided first: among the teams [C2]
    allows, the lowest score (3.4.2), then the most matches played (3.4.3), then the largest
    TPN (3.4.4) — the first that leaves a legal pairing for all the others (3.4.1).

    Decision: 3.4.3 counts matches played over the board (forfeits are not played, GHR 3.5;
    Gacrux A9)."""
    barred = tuple(sorted(t.tpn for t in present if t.bye_barred))
    order = sorted((t for t in present if not t.bye_barred),
                   key=lambda t: (t.paired_on, -t.matches_played, -t.tpn))
    everyone = {t.tpn for t in present}
    skipped: list[int] = []
    for t in order:
        if compat.perfect(everyone - {t.tpn}):
            return ByeReport(t.tpn, barred, tuple(skipped))
        skipped.append(t.tpn)
    raise NoTeamPairing(tuple(sorted(everyone)),
                        "no team can receive the pairing-allocated bye and leave a legal "
                        "pairing for all the others (3.4.1, C2)")


def table_order(pairs: Sequence[tuple[TeamState, TeamState]]) -> list[tuple[TeamState, TeamState]]:
    """FIDE C.04.2 3.6 — the order of the tables: the higher pairing score of the pair, the
    higher sum of both, the smaller TPN."""
    return sorted(pairs, key=lambda p: (-max(p[0].paired_on, p[1].paired_on),
                                        -(p[0].paired_on + p[1].paired_on),
                                        min(p[0].tpn, p[1].tpn)))


def pair_round(teams: Sequence[TeamState], settings: RoundSettings) -> TeamRound:
    """FIDE C.04.6 3.3.2 — pair a round: the bye, then bracket by bracket from the top score
    down, then the colours; the tables in GHR 3.6 order. Raises :class:`NoTeamPairing`
    (3.3.3) when the round cannot be completed."""
    check_input(teams, settings)
    present = sorted((t for t in teams if not t.absent), key=lambda t: t.tpn)
    absent = tuple(sorted(t.tpn for t in teams if t.absent))
    by_tpn = {t.tpn: t for t in present}
    compat = Compatibility({t.tpn: t.met for t in present})
    prefs = {t.tpn: colour_preference(t, settings) for t in present}
    scores = sorted({t.paired_on for t in present}, reverse=True)

    bye_report = assign_bye(present, compat) if len(present) % 2 else None
    remaining = [t for t in present if bye_report is None or t.tpn != bye_report.team]
    if bye_report is None and not compat.perfect({t.tpn for t in remaining}):
        raise NoTeamPairing(tuple(t.tpn for t in remaining),
                            "the teams cannot all be paired without a rematch (C1, C3)")

    brackets: list[BracketReport] = []
    pairs: list[tuple[TeamState, TeamState]] = []
    for k, score in enumerate(scores):
        residents = [t for t in remaining if t.paired_on == score]
        if not residents:
            continue  # every team of this score became an upfloater above
        following = scores[k + 1] if k + 1 < len(scores) else None
        choice = choose_upfloaters(residents, remaining, following, compat, settings)
        if choice is None:
            raise NoTeamPairing(tuple(t.tpn for t in remaining),
                                f"the scoregroup of {score:g} cannot be paired with any set "
                                "of upfloaters (3.5, C1, C3)")
        bracket = residents + list(choice.upfloaters)
        paired = pair_bracket(bracket, prefs, score, compat, settings)
        if paired is None:  # (choose_upfloaters checked that a pairing exists)
            raise NoTeamPairing(tuple(t.tpn for t in bracket), "the bracket cannot be paired")
        ups = choice.upfloaters
        brackets.append(BracketReport(
            score=score,
            residents=tuple(t.tpn for t in residents),
            upfloaters=UpfloaterReport(
                upfloaters=tuple(t.tpn for t in ups), c4=len(ups),
                c5=tuple(sorted(t.paired_on for t in ups)), c6=choice.c6, c7=choice.c7,
                examined=choice.examined, rejected=choice.rejected),
            identifier=paired.identifier, c8=paired.c8, c9=paired.c9, c10=paired.c10,
            pairs=tuple(sorted(paired.pairs))))
        pairs += [(by_tpn[a], by_tpn[b]) for a, b in paired.pairs]
        taken = {t.tpn for t in bracket}
        remaining = [t for t in remaining if t.tpn not in taken]

    tables: list[tuple[int, int]] = []
    colours: list[PairReport] = []
    for a, b in table_order(pairs):
        white, black, first, rule = allocate_colours(a, b, settings)
        tables.append((white, black))
        colours.append(PairReport(white, black, first, rule))
    return TeamRound(round=settings.round, pairs=tuple(tables),
                     bye=None if bye_report is None else bye_report.team,
                     bye_report=bye_report, brackets=tuple(brackets), colours=tuple(colours),
                     absent=absent)

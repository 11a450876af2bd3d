"""A team Swiss's rounds by FIDE C.04.6 (2026): each recorded round audited against the pairing
the engine gives from the rounds before it, and the next round paired
(:mod:`transforms.fide.team_swiss`), the teams known absent or withdrawn left out (GHR 3.2-3.3,
teams.csv ``absent_rounds`` and ``withdrawn_from``).

Decisions (docs/decisions.md, "Team Swiss"):

- A match counts as played for the pairing (a meeting, board 1's colour, C.04.6 1.6.1, GHR
  3.4-3.5) when at least one of its boards was played over the board, even if the match was
  then lost by forfeit because a team fielded fewer than half the boards; a match no board of
  which was played is a forfeit: no meeting, no colour, and its winner is barred from the bye
  (C2). FIDE TEC's program reads a TRF-2026 team file the same way.
- A recorded round that differs from the engine's pairing stands (the arbiter paired it): a
  warning row names the round and what differs; the next round is paired from what was
  recorded.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import polars as pl

from transforms.core.errors import Finding, Severity
from transforms.core.model import Colour
from transforms.fide.team_swiss.engine import pair_round
from transforms.fide.team_swiss.history import states_before
from transforms.fide.team_swiss.model import (
    NoTeamPairing,
    PreferenceType,
    RoundSettings,
    TeamRound,
)
from transforms.team import matches as mt
from transforms.team.config import InitialColour, TeamRules, TeamSwissConfig

if TYPE_CHECKING:
    from transforms.team.event import Group, TeamRun

ROUNDS_LIST = re.compile(r"\d+(?:\s*[ ,;]\s*\d+)*")
"""teams.csv ``absent_rounds``: round numbers separated by spaces, commas or semicolons."""


def bye_points(rules: TeamRules, swiss: TeamSwissConfig) -> tuple[float, float]:
    """FIDE C.04.6 1.4 — the pairing-allocated bye's match and game points: a drawn match's
    (the draw's match points, half the boards) unless ``[team_swiss]`` says otherwise."""
    mp = swiss.bye_match_points if swiss.bye_match_points is not None else float(rules.match_points[1])
    gp = swiss.bye_game_points if swiss.bye_game_points is not None else rules.boards / 2
    return float(mp), float(gp)


def round_settings(swiss: TeamSwissConfig, rnd: int) -> RoundSettings:
    """FIDE C.04.6 1.2, 1.7, 4.1 — what ``[team_swiss]`` says about round ``rnd``."""
    return RoundSettings(round=rnd, rounds=swiss.rounds,
                         preferences=PreferenceType(swiss.colour_preference.value),
                         initial_colour=(Colour.WHITE if swiss.initial_colour is InitialColour.WHITE
                                         else Colour.BLACK),
                         secondary_for_colours=swiss.secondary_for_colours)


def absences(teams: pl.DataFrame, rounds: int) -> tuple[dict[int, set[int]], list[Finding]]:
    """FIDE C.04.2 (General Handling Rules) 3.2-3.3 — round -> the teams (``sno``) not to be paired: those teams.csv
    says are absent that round (``absent_rounds``) or withdrawn from it on
    (``withdrawn_from``). A round outside the event is an error on its cell."""
    out: dict[int, set[int]] = {}
    findings = []
    for r in teams.iter_rows(named=True):
        text = (r.get("absent_rounds") or "").strip()
        if text:
            if not ROUNDS_LIST.fullmatch(text):
                findings.append(Finding("teams.csv", r["line"], "absent_rounds", text, Severity.ERROR,
                                        "round numbers separated by spaces or commas, e.g. \"3 4\""))
            else:
                for x in re.split(r"[\s,;]+", text):
                    if not 1 <= int(x) <= rounds:
                        findings.append(Finding("teams.csv", r["line"], "absent_rounds", text,
                                                Severity.ERROR, f"round {x} is not a round of the "
                                                f"event (1-{rounds})"))
                    else:
                        out.setdefault(int(x), set()).add(r["sno"])
        gone = r.get("withdrawn_from")
        if gone is not None:
            for rnd in range(int(gone), rounds + 1):
                out.setdefault(rnd, set()).add(r["sno"])
    return out, findings


def pairing_card(group: Group, rules: TeamRules, through: int) -> pl.DataFrame:
    """FIDE C.04.6 1.6.1, GHR 3.4-3.5 — the team card the pairing reads: the finished matches
    of rounds 1..``through``, a match with a board played over the board counted as played
    (module docstring)."""
    card, _ = mt.team_card(group.matches, group.boards, rules, through=through,
                           teams=group.teams["sno"].to_list())
    over_the_board = (group.boards.filter(pl.col("played") & (pl.col("round") <= through))
                      .select("round", "white", "black").unique())
    met = pl.concat([over_the_board.rename({"white": "sno", "black": "opponent"}),
                     over_the_board.rename({"black": "sno", "white": "opponent"})
                     .select("round", "sno", "opponent")]).with_columns(pl.lit(True).alias("_met"))
    return (card.join(met, on=["round", "sno", "opponent"], how="left")
            .with_columns(pl.when(pl.col("kind").str.starts_with("forfeit") & pl.col("_met"))
                          .then(pl.lit("played")).otherwise(pl.col("kind")).alias("kind"))
            .drop("_met").sort("round", "sno"))


def recorded_round(group: Group, rnd: int) -> tuple[list[tuple[int, int]], int | None]:
    """FIDE C.04.2 3.6 (the order of the tables) — round ``rnd`` as results.csv records it:
    the matches (team A first) in the order of their first line, and the team with the bye."""
    m = group.matches.filter(pl.col("round") == rnd)
    first = (group.boards.filter(pl.col("round") == rnd).group_by("white", "black")
             .agg(pl.col("line").min()))
    line = {(w, b): x for w, b, x in first.iter_rows()}
    pairs = sorted(((w, b) for w, b in m.filter(pl.col("black") != 0).select("white", "black").iter_rows()),
                   key=lambda p: (line.get(p, 0) or 0, p))
    bye = m.filter(pl.col("black") == 0)["white"].to_list()
    return pairs, (bye[0] if bye else None)


def pair_rounds(run: TeamRun) -> None:
    """FIDE C.04.6 (2026) — audit every recorded round of each team Swiss against the engine's
    pairing, then pair the next round unless it is recorded already or the event is over."""
    swiss = run.cfg.table(TeamSwissConfig)
    if swiss is None or run.blocked:
        return
    rules = run.rules
    for g in run.groups:
        away, found = absences(g.teams, swiss.rounds)
        run.findings += found
        teams = g.teams["sno"].to_list()
        last = int(g.matches.select(pl.col("round").max()).item() or 0) if g.matches.height else 0
        for rnd in range(1, min(last, g.done + 1) + 1):
            pairs, bye = recorded_round(g, rnd)
            present = {t for p in pairs for t in p} | ({bye} if bye else set())
            try:
                got = _pair(g, rules, swiss, rnd, set(teams) - present)
            except NoTeamPairing as e:
                g.audit[rnd] = f"the engine finds no pairing of round {rnd}: {e}"
                continue
            if set(got.pairs) == set(pairs) and got.bye == bye:
                continue
            names = dict(zip(g.teams["sno"].to_list(), g.teams["team_id"].to_list(), strict=True))
            ours = sorted(set(pairs) - set(got.pairs)) + ([(bye, 0)] if bye and bye != got.bye else [])
            theirs = sorted(set(got.pairs) - set(pairs)) + ([(got.bye, 0)] if got.bye and bye != got.bye else [])
            line = g.boards.filter(pl.col("round") == rnd).select(pl.col("line").min()).item()
            why = (f"round {rnd} as recorded is not the FIDE C.04.6 pairing: recorded "
                   f"{_pairs(ours, names)}, the engine {_pairs(theirs, names)}; the recorded "
                   "round stands and the next is paired from it")
            g.audit[rnd] = why
            run.findings.append(Finding("results.csv", int(line) if line is not None else None, "team_a",
                                        names.get(ours[0][0], "") if ours else "", Severity.WARNING, why))
        nxt = g.done + 1
        if nxt > swiss.rounds or g.matches.filter(pl.col("round") == nxt).height:
            continue
        try:
            got = _pair(g, rules, swiss, nxt, away.get(nxt, set()))
        except NoTeamPairing as e:
            run.findings.append(Finding("teams.csv", None, "", "", Severity.WARNING,
                                        f"round {nxt} cannot be paired: {e}"))
            continue
        g.pairing = got
        rows = [{"round": nxt, "match": i, "white": w, "black": b}
                for i, (w, b) in enumerate([*got.pairs, *([(got.bye, 0)] if got.bye else [])], start=1)]
        g.fixtures = pl.concat([g.fixtures.filter(pl.col("round") != nxt),
                                pl.DataFrame(rows, schema=g.fixtures.schema)])


def _pair(g: Group, rules: TeamRules, swiss: TeamSwissConfig, rnd: int, absent: set[int]) -> TeamRound:
    card = pairing_card(g, rules, rnd - 1)
    states = states_before(card, rnd, primary=rules.primary.code, teams=g.teams["sno"].to_list(),
                           absent=absent)
    return pair_round(states, round_settings(swiss, rnd))


def _pairs(pairs: list[tuple[int, int]], names: dict[int, str]) -> str:
    return ", ".join(f"{names.get(w, w)} – {names.get(b, b)}" if b else f"{names.get(w, w)} bye"
                     for w, b in pairs) or "nothing else"


def swiss_fixtures(group: Group) -> pl.DataFrame:
    """FIDE C.04.2 3.6 — the recorded rounds of a team Swiss as fixtures, in results.csv's
    order of the tables."""
    rows = []
    rounds = sorted(set(group.matches["round"].to_list()))
    for rnd in rounds:
        pairs, bye = recorded_round(group, rnd)
        for i, (w, b) in enumerate([*pairs, *([(bye, 0)] if bye else [])], start=1):
            rows.append({"round": rnd, "match": i, "white": w, "black": b})
    return pl.DataFrame(rows, schema=group.fixtures.schema)

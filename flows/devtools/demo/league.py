"""Deterministic demo inputs of a team league: the Riverton & District League 2025-26
(``inputs/district-league-2025/``), two divisions of four-board teams, a team round robin in
each (the FIDE Berger tables on teams), played part of the way.

Realistic but invented: the clubs, their teams and their people (names drawn as the club
demo's, :mod:`flows.devtools.demo.club`), and a seeded ``random.Random`` makes every run
identical. The fixtures come from the league's own rulebook (the draw of
``[team_round_robin] draw_seed`` and the Berger table), and each game's result is drawn from
rating expectancy. Two scripted events show the rules at work: a team that fields only one
player in a round (the match lost by forfeit, FIDE's team rule of half the boards) and a
reserve who plays in place of a first-team player (the board order kept).
"""

from __future__ import annotations

import random
from typing import Any

import polars as pl

from flows.devtools.demo.club import club_players
from flows.verify.games import draw_game
from transforms.team.config import TeamRoundRobinConfig, TeamRules
from transforms.team.event import league_fixtures, number_teams
from transforms.team.matches import board_colour

TEAMS = {
    "premier": [("RIV1", "Riverside A", "Riverside CC", 1990),
                ("NOR1", "Northgate A", "Northgate Chess", 1950),
                ("CAS1", "Castle Rook A", "Castle Rook Riverton", 1900),
                ("HAR1", "Old Harbour Knights", "Old Harbour Knights", 1860),
                ("LIN1", "Linden Circle", "Linden Chess Circle", 1820),
                ("RIV2", "Riverside B", "Riverside CC", 1780)],
    "division-1": [("NOR2", "Northgate B", "Northgate Chess", 1640),
                   ("CAS2", "Castle Rook B", "Castle Rook Riverton", 1600),
                   ("RIV3", "Riverside C", "Riverside CC", 1560),
                   ("UNI1", "Riverton University", "Riverton University CC", 1520),
                   ("MIL1", "Millbrook Juniors", "Millbrook School", 1380)],
}
"""The teams of each division: id, name, club and the mean rating of its players."""

FORFEIT = ("division-1", "MIL1", 2)
"""(division, team, its n-th match): the team fields only one player in that match (lost by
forfeit: fewer than half the boards)."""


def demo_league_files(rules: TeamRules, league: TeamRoundRobinConfig, *, through: int,
                      seed: int = 2025) -> dict[str, pl.DataFrame]:
    """teams.csv, rosters.csv and results.csv (rounds 1..``through`` of every division) of the
    demo league, from its event.toml's ``[team]`` and ``[team_round_robin]``."""
    rng = random.Random(seed)
    team_rows: list[dict[str, Any]] = []
    roster_rows: list[dict[str, Any]] = []
    result_rows: list[dict[str, Any]] = []
    size = rules.boards + rules.reserves
    for d_index, division in enumerate(league.divisions):
        entries = TEAMS[division.id]
        roster: dict[str, list[dict[str, Any]]] = {}
        for t_index, (tid, name, club, mean) in enumerate(entries):
            players = club_players(size, seed=seed + 100 * d_index + t_index, prefix=f"{tid}-",
                                   mean=mean, spread=110)
            players = players.sort(pl.col("rating").cast(pl.Int64), descending=True)
            captain = players.row(0, named=True)
            team_rows.append({"team_id": tid, "name": name, "club": club, "division": division.id,
                              "captain": captain["name"],
                              "captain_email": f"captain.{tid.lower()}@clubs.example"})
            roster[tid] = []
            for board, p in enumerate(players.iter_rows(named=True), start=1):
                row = {"team_id": tid, "board": board, "player_id": p["player_id"],
                       "name": p["name"], "rating": p["rating"], "fide_id": p["fide_id"],
                       "title": p["title"], "federation": p["federation"], "sex": p["sex"],
                       "email": p["email"]}
                roster_rows.append(row)
                roster[tid].append(row)
        frame = pl.DataFrame([r for r in team_rows if r["division"] == division.id])
        numbered, why = number_teams(frame, league, None, division.id)
        assert not why, why
        by_no = dict(zip(numbered["sno"].to_list(), numbered["team_id"].to_list(), strict=True))
        fixtures = league_fixtures(len(entries), league.cycles)
        played: dict[str, int] = {}
        for f in fixtures.filter(pl.col("round") <= through).iter_rows(named=True):
            if not f["black"]:
                continue
            a, b = by_no[f["white"]], by_no[f["black"]]
            for t in (a, b):
                played[t] = played.get(t, 0) + 1
            short = next((t for t in (a, b) if (division.id, t, played[t]) == FORFEIT), None)
            result_rows += demo_match(rng, f["round"], a, b, roster, rules, short=short)
    text = {"board": str, "rating": str, "round": str}
    return {
        "teams.csv": pl.DataFrame(team_rows),
        "rosters.csv": pl.DataFrame([{k: (str(v) if k in text and v is not None else v)
                                      for k, v in r.items()} for r in roster_rows]),
        "results.csv": pl.DataFrame([{k: (str(v) if k in text else v) for k, v in r.items()}
                                     for r in result_rows]),
    }


def _lineup(rng: random.Random, roster: list[dict[str, Any]], boards: int) -> list[str]:
    """A team's players of a match in roster order: now and then one of the first boards
    stays home and the first reserve plays instead (everyone below moves up a board)."""
    ids = [r["player_id"] for r in roster]
    if rng.random() < 0.25:
        ids.pop(rng.randrange(boards))
    return ids[:boards]


def demo_match(rng: random.Random, rnd: int, a: str, b: str,
               roster: dict[str, list[dict[str, Any]]], rules: TeamRules, short: str | None
               ) -> list[dict[str, Any]]:
    """The board rows of results.csv for a match of round ``rnd``, team ``a`` first: the
    line-ups (:func:`_lineup`), each game drawn by rating expectancy; ``short``: the team that
    fields one player only (the match lost by forfeit)."""
    rating = {r["player_id"]: int(r["rating"] or 0) for rs in roster.values() for r in rs}
    side_a, side_b = _lineup(rng, roster[a], rules.boards), _lineup(rng, roster[b], rules.boards)
    for team, side in ((a, side_a), (b, side_b)):
        if team == short:
            side[1:] = [""] * (rules.boards - 1)
    rows = []
    for board in range(1, rules.boards + 1):
        pa, pb = side_a[board - 1], side_b[board - 1]
        if pa and pb:
            white_a = board_colour(board) == "w"
            w, k = (pa, pb) if white_a else (pb, pa)
            result, _moves = draw_game(rating[w], rating[k], rng)
            if not white_a:
                result = {"1-0": "0-1", "0-1": "1-0"}.get(result, result)
        else:
            result = "+/-" if pa else "-/+" if pb else "-/-"
        rows.append({"round": rnd, "team_a": a, "team_b": b, "board": board, "player_a": pa,
                     "player_b": pb, "result": result})
    return rows

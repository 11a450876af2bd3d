"""Deterministic demo inputs of a team Swiss: the Riverton County Team Championship 2026
(``inputs/county-team-championship-2026/``), 13 teams of four boards, seven rounds by the FIDE
Swiss Team Pairing System (C.04.6), played part of the way.

Realistic but invented: the clubs' teams and their people (names drawn as the club demo's,
:mod:`flows.devtools.demo.club`), and a seeded ``random.Random`` makes every run identical.
Every round is paired by the championship's own rulebook (:mod:`transforms.team.event`, the
same steps a run takes) from the rounds before it, and each game's result is drawn from rating
expectancy (the line-ups as the league demo's, :mod:`flows.devtools.demo.league`). Scripted:
one team says it will miss the round after the last one played (teams.csv ``absent_rounds``),
one match of round 2 is won by forfeit (a team of one player); two captains have sent their
line-ups for the next round (lineups.csv).
"""

from __future__ import annotations

import datetime as dt
import random
import tempfile
from pathlib import Path
from typing import Any

import polars as pl

from flows import io
from flows.devtools.demo.club import club_players
from flows.devtools.demo.league import demo_match
from transforms.core.config import EventConfig
from transforms.team.config import TeamRules, TeamSwissConfig
from transforms.team.event import prepare, standings
from transforms.team.swiss import pair_rounds

TEAMS = [("RIV", "Riverside", "Riverside CC", 1960), ("NOR", "Northgate", "Northgate Chess", 1930),
         ("CAS", "Castle Rook", "Castle Rook Riverton", 1900),
         ("HAR", "Old Harbour Knights", "Old Harbour Knights", 1880),
         ("LIN", "Linden Circle", "Linden Chess Circle", 1840),
         ("UNI", "Riverton University", "Riverton University CC", 1810),
         ("MIL", "Millbrook", "Millbrook Chess", 1770), ("BRK", "Brookfield", "Brookfield CC", 1740),
         ("ASH", "Ashford Pawns", "Ashford Chess Club", 1700),
         ("WES", "Westmere", "Westmere Chess", 1660), ("GLE", "Glenholm", "Glenholm CC", 1620),
         ("SCH", "Riverton Schools", "Riverton Schools' Chess", 1540),
         ("VET", "County Veterans", "County Veterans", 1500)]
"""The teams: id, name, club and the mean rating of its players."""

ABSENT_NEXT = "GLE"
"""The team that will miss the round after the last one played (teams.csv absent_rounds)."""
FORFEIT = (2, "SCH")
"""(round, team): the team fields one player in that round (the match lost by forfeit)."""


def demo_team_swiss_files(cfg: EventConfig, *, through: int, seed: int = 2026
                          ) -> dict[str, pl.DataFrame]:
    """teams.csv, rosters.csv, results.csv (rounds 1..``through``) and lineups.csv (round
    ``through + 1``) of the demo team Swiss,
    each round paired by the event's rulebook from the results before it."""
    rules, swiss = cfg.require(TeamRules), cfg.require(TeamSwissConfig)
    rng = random.Random(seed)
    team_rows: list[dict[str, Any]] = []
    roster_rows: list[dict[str, Any]] = []
    roster: dict[str, list[dict[str, Any]]] = {}
    for i, (tid, name, club, mean) in enumerate(TEAMS):
        players = club_players(rules.boards + rules.reserves, seed=seed + i, prefix=f"{tid}-",
                               mean=mean, spread=120).sort(pl.col("rating").cast(pl.Int64), descending=True)
        captain = players.row(0, named=True)
        team_rows.append({"team_id": tid, "name": name, "club": club, "captain": captain["name"],
                          "captain_email": f"captain.{tid.lower()}@clubs.example",
                          "absent_rounds": str(through + 1) if tid == ABSENT_NEXT else ""})
        roster[tid] = []
        for board, p in enumerate(players.iter_rows(named=True), start=1):
            row = {"team_id": tid, "board": board, "player_id": p["player_id"], "name": p["name"],
                   "rating": p["rating"], "fide_id": p["fide_id"], "title": p["title"],
                   "federation": p["federation"], "sex": p["sex"], "email": p["email"]}
            roster_rows.append(row)
            roster[tid].append(row)
    text = {"board": str, "rating": str, "round": str}
    files = {"teams.csv": pl.DataFrame(team_rows),
             "rosters.csv": pl.DataFrame([{k: (str(v) if k in text and v is not None else v)
                                           for k, v in r.items()} for r in roster_rows])}
    results: list[dict[str, Any]] = []
    for rnd in range(1, through + 1):
        for w, b in _pairing(cfg, files, results, rnd):
            if b is None:
                results.append({"round": rnd, "team_a": w, "team_b": "", "board": None,
                                "player_a": "", "player_b": "", "result": "PAB"})
                continue
            short = FORFEIT[1] if (rnd, FORFEIT[1]) == FORFEIT and FORFEIT[1] in (w, b) else None
            results += demo_match(rng, rnd, w, b, roster, rules, short=short)
    del swiss
    # Two captains have sent their line-ups for the next round: one in roster order, one with
    # its second board at home and the first reserve playing (the others move up a board).
    lineups = []
    for tid, order in (("RIV", [0, 1, 2, 3]), ("NOR", [0, 2, 3, 4])):
        lineups += [{"round": str(through + 1), "team_id": tid, "board": str(b),
                     "player_id": roster[tid][i]["player_id"]} for b, i in enumerate(order, start=1)]
    files["lineups.csv"] = pl.DataFrame(lineups)
    files["results.csv"] = pl.DataFrame([{k: (str(v) if k in text and v is not None else v)
                                          for k, v in r.items()} for r in results])
    return files


def _pairing(cfg: EventConfig, files: dict[str, pl.DataFrame], results: list[dict[str, Any]],
             rnd: int) -> list[tuple[str, str | None]]:
    """Round ``rnd`` as the rulebook pairs it from ``results``: (team A, team B or None for
    the bye), by team id."""
    with tempfile.TemporaryDirectory() as tmp:
        raw = {}
        frames = dict(files)
        if results:
            frames["results.csv"] = pl.DataFrame(results).with_columns(
                pl.col("round").cast(pl.String), pl.col("board").cast(pl.String))
        for name, frame in frames.items():
            path = Path(tmp) / name
            io.atomic_write(path, frame.write_csv())
            raw[name] = io.read_csv_strings(path)
        run = prepare(cfg, raw, cfg.event.as_of or dt.date.today())
        assert not run.blocked, run.blocked
        standings(run)
        pair_rounds(run)
    (group,) = run.groups
    ids = dict(zip(group.teams["sno"].to_list(), group.teams["team_id"].to_list(), strict=True))
    fixtures = group.fixtures.filter(pl.col("round") == rnd).sort("match")
    assert fixtures.height, f"round {rnd} was not paired"
    return [(ids[w], ids[b] if b else None) for w, b in fixtures.select("white", "black").iter_rows()]

"""FIDE TRF-2026 (team records; research note docs/research/team-competitions.md section 5) —
a team event's report file, as FIDE's tools read one: every player's games (``001``, numbered
team by team in pairing-number order, each roster in board order), the teams (``310``: number,
name, match and game points, rank, players in board order), the pairing-allocated byes
(``320``), the matches forfeited whole (``330``), the board colours (``352``), the match points
(``362``), the tournament type (``192``), the rounds (``142``), the initial colour (``152``)
and the ranking order (``212``).

Decisions (docs/decisions.md, "Team competitions"):

- A board one team left empty is written with the player of that team who was not fielded next
  in its roster's order as the absent opponent (``+`` for the present player, ``-`` for that
  one; ``0000`` when the roster has no one left), as FIDE's team files write a forfeited board,
  so that every match has its boards in the file; a match none of whose boards was played is
  also a ``330`` record.
- The bye's players are the team's first ``[team] boards`` players, each ``0000 - U`` worth the
  bye's game points shared over the boards (record ``162``'s ``P``), so that the players'
  points add up to the team's game points.
- A team not paired in a round (absent, withdrawn; GHR 3.2-3.3) is a ``240 Z`` record of that
  round, the round to be paired included, so that a program pairing the next round from the
  file leaves it out.
- A match lost by forfeit because a team fielded fewer than half the boards, with a game played
  over the board, is a played match in the file (FIDE's tools then take its match points from
  its game points): the file has no record for that rule.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import polars as pl

from transforms.core.model import SCORECARD_SCHEMA, Colour, Kind
from transforms.fide.rating_report import RatingReportRules, point_system_of, report_header
from transforms.fide.trf import (
    Tournament,
    TrfFormat,
    TrfHeader,
    tournament_from_scorecard,
    write_trf,
)
from transforms.team.config import (
    ColourPreference,
    InitialColour,
    TeamRoundRobinConfig,
    TeamSwissConfig,
)
from transforms.team.matches import board_colour

if TYPE_CHECKING:
    from transforms.team.event import Group, TeamRun


def type_code(run: TeamRun) -> str:
    """FIDE TRF-2026 ``192`` — the team system: ``FIDE_TEAM_TYPEA_MP_GP`` (C.04.6: the colour
    preference type, the primary score, then the secondary score when it chooses colours;
    no ``TYPE`` when there are no colour preferences), ``BERGER_TEAM_ROUNDROBIN`` or
    ``BERGER_TEAM_DOUBLEROUNDROBIN`` for a league."""
    league = run.cfg.table(TeamRoundRobinConfig)
    if league is not None:
        return "BERGER_TEAM_DOUBLEROUNDROBIN" if league.cycles == 2 else "BERGER_TEAM_ROUNDROBIN"
    swiss = run.cfg.require(TeamSwissConfig)
    first = run.rules.primary.code
    second = "GP" if first == "MP" else "MP"
    parts = ["FIDE_TEAM"]
    if swiss.colour_preference is not ColourPreference.NONE:
        parts.append(f"TYPE{swiss.colour_preference.value}")
    parts.append(first)
    if swiss.secondary_for_colours:
        parts.append(second)
    return "_".join(parts)


def _points(value: float, width: int) -> str:
    return f"{value:{width}.1f}"


def report_scorecard(run: TeamRun, g: Group, through: int) -> pl.DataFrame:
    """FIDE TRF-2026 ``001`` — every player's round of the finished matches of rounds
    1..``through`` (:data:`transforms.core.model.SCORECARD_SCHEMA`, ``sno`` the player's
    number): games, forfeited boards (module docstring), the bye."""
    boards = run.rules.boards
    pno = dict(zip(g.players["player_id"].to_list(), g.players["pno"].to_list(), strict=True))
    roster: dict[int, list[str]] = {}
    for r in g.players.sort("sno", "roster_board").iter_rows(named=True):
        roster.setdefault(r["sno"], []).append(r["player_id"])
    rows: list[dict[str, Any]] = []
    done = g.matches.filter((pl.col("round") <= through) & (pl.col("status") != "unfinished"))
    for m in done.iter_rows(named=True):
        rnd = m["round"]
        if not m["black"]:
            share = m["white_gp"] / boards
            rows += [{"round": rnd, "sno": pno[p], "opponent": None, "colour": None,
                      "points": share, "kind": Kind.PAB.value} for p in roster[m["white"]][:boards]]
            continue
        b = g.boards.filter((pl.col("round") == rnd) & (pl.col("white") == m["white"])
                            & (pl.col("black") == m["black"])).sort("board")
        side: dict[int, list[str | None]] = {}
        for team, first in ((m["white"], True), (m["black"], False)):
            ids = [(x["white_id"] if (board_colour(x["board"]) == "w") == first else x["black_id"])
                   for x in b.iter_rows(named=True)]
            spare = iter([p for p in roster[team] if p not in ids])
            side[team] = [i or next(spare, None) for i in ids]
        for i, x in enumerate(b.iter_rows(named=True)):
            a_white = board_colour(x["board"]) == "w"
            a, o = side[m["white"]][i], side[m["black"]][i]
            a_pts = x["white_points"] if a_white else x["black_points"]
            o_pts = x["black_points"] if a_white else x["white_points"]
            for me, them, pts, colour in ((a, o, a_pts, "w" if a_white else "b"),
                                          (o, a, o_pts, "b" if a_white else "w")):
                if me is None:
                    continue
                kind = (Kind.PLAYED if x["played"] else
                        Kind.FORFEIT_WIN if (pts or 0) > 0 else Kind.FORFEIT_LOSS)
                rows.append({"round": rnd, "sno": pno[me], "opponent": pno.get(them or ""),
                             "colour": colour, "points": float(pts or 0.0), "kind": kind.value})
    return pl.DataFrame(rows, schema=SCORECARD_SCHEMA)


def team_report(run: TeamRun, g: Group) -> str:
    """FIDE TRF-2026 — the report file of ``g`` after its last complete round (module
    docstring): what FIDE's rating server and FIDE's team programs read."""
    rules = run.rules
    cfg = run.cfg
    swiss = cfg.table(TeamSwissConfig)
    through = g.done
    card = report_scorecard(run, g, through)
    players = g.players.select(
        pl.col("pno").alias("sno"), "name", pl.col("rating").fill_null(0),
        pl.col("federation").fill_null("").alias("fed") if "federation" in g.players.columns else pl.lit("").alias("fed"),
        pl.col("title").fill_null("") if "title" in g.players.columns else pl.lit("").alias("title"),
        pl.col("fide_id").fill_null("") if "fide_id" in g.players.columns else pl.lit("").alias("fide_id"),
        (pl.col("sex").fill_null("").replace({"M": "m", "F": "w"}) if "sex" in g.players.columns
         else pl.lit("")).alias("sex"))
    ranking = g.rankings.get(through)
    ev = cfg.event
    codes = [rules.primary.code + "TS", *[c for c in rules.tiebreaks if c != rules.primary.code + "TS"]]
    fide = cfg.table(RatingReportRules)
    header = (report_header(fide, start=ev.start, end=ev.end, players=players)
              if fide is not None else TrfHeader(start=f"{ev.start:%Y/%m/%d}", end=f"{ev.end:%Y/%m/%d}",
                                                 players_count=str(players.height),
                                                 rated_count=str(players.filter(pl.col("rating") > 0).height),
                                                 pairing_controller="chessfed"))
    header = replace(header, teams_count=str(g.teams.height), encoded_type=type_code(run),
                     type=fide.tournament_type if fide is not None and not fide.tournament_type.startswith(
                         "Individual") else f"Team: {g.name}",
                     tiebreaks=tuple(codes[1:]), standings=tuple(codes))
    initial = (Colour.BLACK if swiss is not None and swiss.initial_colour is InitialColour.BLACK
               else Colour.WHITE)
    t: Tournament = tournament_from_scorecard(
        players, card, name=f"{ev.name}" + (f" — {g.name}" if g.name != ev.name else ""),
        total_rounds=g.rounds, initial_colour=initial, header=header,
        scoring=point_system_of(card), format=TrfFormat.TRF_2026)
    win, draw, loss = rules.match_points
    records = [f"352 {''.join('W' if board_colour(b) == 'w' else 'B' for b in range(1, rules.boards + 1))}",
               f"362 TW{_points(win, 4)}   TD{_points(draw, 4)}   TL{_points(loss, 4)}"]
    place = (dict(zip(ranking["sno"].to_list(), ranking["rank"].to_list(), strict=True))
             if ranking is not None else {})
    totals = {r["sno"]: (r["mp"], r["gp"]) for r in ranking.iter_rows(named=True)} if ranking is not None else {}
    for team in g.teams.iter_rows(named=True):
        s = team["sno"]
        members = g.players.filter(pl.col("sno") == s).sort("roster_board")["pno"].to_list()
        mp, gp = totals.get(s, (0.0, 0.0))
        records.append(f"310 {s:3d} {team['name'][:32]:<32} {team['team_id'][:5]:<5} "
                       f"{int(team['rating'] or 0):6d} {_points(mp, 6)} {_points(gp, 6)} "
                       f"{place.get(s, 0):3d}  " + " ".join(f"{p:4d}" for p in members))
    done = g.matches.filter((pl.col("round") <= through) & (pl.col("status") != "unfinished"))
    byes = {m["round"]: m for m in done.filter(pl.col("black") == 0).iter_rows(named=True)}
    if byes:
        any_bye = next(iter(byes.values()))
        records.append(f"320 {_points(any_bye['white_mp'], 4)} {_points(any_bye['white_gp'], 4)} "
                       + " ".join(f"{byes[r]['white'] if r in byes else 0:3d}" for r in range(1, through + 1)))
    played = {(x["round"], x["white"], x["black"]) for x in
              g.boards.filter(pl.col("played")).select("round", "white", "black").iter_rows(named=True)}
    for m in done.filter(pl.col("black") != 0).sort("round", "white").iter_rows(named=True):
        if (m["round"], m["white"], m["black"]) in played:
            continue
        code = ("--" if m["white_mp"] == m["black_mp"] else "+-" if m["white_mp"] > m["black_mp"] else "-+")
        records.append(f"330 {code} {m['round']:3d} {m['white']:3d} {m['black']:3d}")
    absent: dict[int, list[int]] = {}
    for r in g.card.filter(pl.col("kind") == "absent").iter_rows(named=True):
        absent.setdefault(r["round"], []).append(r["sno"])
    if g.pairing is not None and g.pairing.absent:
        absent[g.pairing.round] = list(g.pairing.absent)
    records += [f"240 Z {rnd:3d} " + " ".join(f"{s:4d}" for s in sorted(teams))
                for rnd, teams in sorted(absent.items())]
    return write_trf(replace(t, other_records=tuple(records)))

"""FIDE TRF-2026 (team records) — a team event taken over from a team file (``chessfed
import-trf``): its teams.csv, rosters.csv and results.csv, and the values of event.toml the file
gives (:class:`TeamSetting`, each with where it comes from).

A team's round, as FIDE's team tools read the file: its players who met an opponent, in roster
order, are its boards 1, 2, ...; the team with White on board 1 is team A. A ``330`` match no
player's line records is written as boards without players (``+/-``, ``-/+``, ``-/-``), a
``320`` bye as the team's ``PAB`` row.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import polars as pl

from transforms.fide.team_swiss.history import settings_of_type
from transforms.fide.team_trf import TeamTrf


class TeamSetting(NamedTuple):
    """One value of event.toml a team file gives: ``key`` (``team.boards``), its TOML
    ``value``, whether the file says it (``from_file``; else assumed or counted) and why."""

    key: str
    value: str
    from_file: bool
    why: str


CODES = {("1", "0"): "1-0", ("W", "L"): "1-0", ("0", "1"): "0-1", ("L", "W"): "0-1",
         ("=", "="): "1/2-1/2", ("D", "D"): "1/2-1/2", ("+", "-"): "+/-", ("-", "+"): "-/+",
         ("-", "-"): "-/-", ("F", "-"): "+/-", ("-", "F"): "-/+"}
"""A board of the file (team A's player's result, team B's) as results.csv writes it."""


def team_ids(trf: TeamTrf) -> dict[int, str]:
    """FIDE TRF-2026 ``310`` — each team's id in teams.csv: its nickname (columns 42-46) where
    every team has a different one, else ``T`` and its number."""
    nicks = [trf.nicknames.get(t, "") for t in trf.rosters]
    unique = all(nicks) and len(set(nicks)) == len(nicks)
    return {t: (trf.nicknames[t] if unique else f"T{t}") for t in trf.rosters}


def team_files(trf: TeamTrf) -> dict[str, pl.DataFrame]:
    """FIDE TRF-2026 (team records) — teams.csv (``start_no`` the team's number,
    ``absent_rounds`` the rounds a ``240`` record names it in), rosters.csv
    (the ``310`` order; ``player_id`` ``P`` and the ``001`` number) and results.csv of every
    recorded round."""
    ids = team_ids(trf)
    away: dict[int, list[int]] = {}
    for rnd, gone in sorted(trf.absent.items()):
        for t in gone:
            away.setdefault(t, []).append(rnd)
    teams = pl.DataFrame([{"team_id": ids[t], "name": trf.names.get(t, ids[t]), "start_no": str(t),
                           "absent_rounds": " ".join(map(str, away.get(t, [])))}
                          for t in sorted(trf.rosters)])
    roster_rows = []
    for t in sorted(trf.rosters):
        for board, p in enumerate(trf.rosters[t], start=1):
            s = trf.players.get(p, {})
            rating = s.get("rating", "").strip()
            roster_rows.append({"team_id": ids[t], "board": str(board), "player_id": f"P{p}",
                                "name": s.get("name") or f"Player {p}",
                                "rating": rating if rating not in ("", "0") else "",
                                "fide_id": s.get("fide_id", "") if s.get("fide_id", "").strip("0") else "",
                                "title": s.get("title", ""), "federation": s.get("fed", ""),
                                "sex": {"m": "M", "w": "F", "f": "F"}.get(s.get("sex", "").lower(), "")})
    team_of = {p: t for t, ps in trf.rosters.items() for p in ps}
    rows: list[dict[str, Any]] = []
    forfeits = _forfeit_codes(trf)
    last = max([r for g in trf.games.values() for r in g] + list(trf.byes) + list(trf.forfeited) + [0])
    for rnd in range(1, last + 1):
        seen: set[int] = set()
        for t in sorted(trf.rosters):
            if t in seen:
                continue
            mine = [(p, g) for p in trf.rosters[t]
                    if (g := trf.games.get(p, {}).get(rnd)) is not None and g[0] > 0]
            if not mine:
                continue
            other = team_of.get(mine[0][1][0])
            if other is None:
                continue
            theirs = [(p, g) for p in trf.rosters[other]
                      if (g := trf.games.get(p, {}).get(rnd)) is not None and g[0] > 0]
            a, b, a_games, b_games = ((t, other, mine, theirs) if mine[0][1][1] == "w"
                                      else (other, t, theirs, mine))
            for board, ((pa, ga), (pb, gb)) in enumerate(zip(a_games, b_games, strict=False), start=1):
                rows.append({"round": str(rnd), "team_a": ids[a], "team_b": ids[b], "board": str(board),
                             "player_a": f"P{pa}", "player_b": f"P{pb}",
                             "result": CODES.get((ga[2], gb[2]), f"{ga[2]}/{gb[2]}")})
            seen |= {a, b}
        for white, black in trf.forfeited.get(rnd, []):
            if white in seen or black in seen:
                continue
            result = {("W", "Z"): "+/-", ("Z", "W"): "-/+"}.get(
                (forfeits.get((rnd, white), "Z"), forfeits.get((rnd, black), "Z")), "-/-")
            rows += [{"round": str(rnd), "team_a": ids[white], "team_b": ids[black], "board": str(bd),
                      "player_a": "", "player_b": "", "result": result}
                     for bd in range(1, trf.n_boards + 1)]
            seen |= {white, black}
        if rnd in trf.byes and trf.byes[rnd] in ids:
            rows.append({"round": str(rnd), "team_a": ids[trf.byes[rnd]], "team_b": "", "board": "",
                         "player_a": "", "player_b": "", "result": "PAB"})
    results = pl.DataFrame(rows, schema={c: pl.String for c in
                                         ("round", "team_a", "team_b", "board", "player_a", "player_b", "result")})
    return {"teams.csv": teams, "rosters.csv": pl.DataFrame(roster_rows), "results.csv": results}


def _forfeit_codes(trf: TeamTrf) -> dict[tuple[int, int], str]:
    """(round, team) -> ``W`` (won) or ``Z`` (lost) of each ``330`` forfeited match."""
    out = {}
    for rnd, pairs in trf.forfeited.items():
        for white, black in pairs:
            w = trf.card.filter((pl.col("round") == rnd) & (pl.col("sno") == white))
            b = trf.card.filter((pl.col("round") == rnd) & (pl.col("sno") == black))
            out[(rnd, white)] = "W" if w.height and w["kind"][0] == "forfeit_win" else "Z"
            out[(rnd, black)] = "W" if b.height and b["kind"][0] == "forfeit_win" else "Z"
    return out


def team_settings(trf: TeamTrf) -> tuple[str, list[TeamSetting]]:
    """FIDE TRF-2026 (``192``, ``352``, ``362``, ``212``, ``142``, ``152``, ``320``) — the kind
    of the team event (``team_swiss`` or ``team_round_robin``) and every ``[team]`` and system
    value the file gives, each with where it comes from."""
    code = trf.type_code.upper()
    league = "ROUNDROBIN" in code
    out = [TeamSetting("team.boards", str(trf.n_boards), True,
                   "record 352" if trf.n_boards else "the largest roster"),
           TeamSetting("team.match_points", "[{:g}, {:g}, {:g}]".format(*trf.match_points), True,
                   "record 362 (2/1/0 when the file has none)"),
           TeamSetting("team.primary", '"match_points"' if trf.primary == "MP" else '"game_points"',
                   True, f"record 212 or 192 ({trf.type_code or 'none: match points'})")]
    longest = max((len(p) for p in trf.rosters.values()), default=0)
    out.append(TeamSetting("team.reserves", str(max(longest - trf.n_boards, 0)), True,
                       "the longest roster (310) beyond the boards"))
    ties = list(trf.ranking[1:]) or ["GPTS", "BH:MP", "EDE"]
    out.append(TeamSetting("team.tiebreaks", "[" + ", ".join(f'"{c}"' for c in ties) + "]",
                       bool(trf.ranking[1:]),
                       "record 212" if trf.ranking[1:] else "chessfed's team default"))
    if league:
        double = "DOUBLE" in code
        out.append(TeamSetting("team_round_robin.cycles", "2" if double else "1", True, f"record 192 {code}"))
        return "team_round_robin", out
    # the 192 code read as the team Swiss reads it; a file without one: FIDE_TEAM (type A)
    system = settings_of_type(code or "FIDE_TEAM", round=1, rounds=1)
    preference = system.preferences.value
    secondary = system.secondary_for_colours
    rounds = trf.scheduled_rounds or trf.rounds
    out += [TeamSetting("team_swiss.rounds", str(rounds), bool(trf.scheduled_rounds),
                    "record 142" if trf.scheduled_rounds else "the rounds played"),
            TeamSetting("team_swiss.colour_preference", f'"{preference}"', True, f"record 192 {code or '(none)'}"),
            TeamSetting("team_swiss.secondary_for_colours", "true" if secondary else "false", True,
                    f"record 192 {code or '(none)'}"),
            TeamSetting("team_swiss.initial_colour", '"black"' if trf.initial_colour == "B" else '"white"',
                    True, "record 152 (white when the file has none)")]
    if trf.bye_points is not None:
        out += [TeamSetting("team_swiss.bye_match_points", f"{trf.bye_points[0]:g}", True, "record 320"),
                TeamSetting("team_swiss.bye_game_points", f"{trf.bye_points[1]:g}", True, "record 320")]
    return "team_swiss", out

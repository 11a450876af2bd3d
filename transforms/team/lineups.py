"""Team regulations (line-ups) — the line-up each captain sends before a round (lineups.csv):
checked against the roster and the board-order rule, shown on the round's pairing page and in
the captain's letter, and compared with the players results.csv then records. Without one a
team's expected line-up is the first ``[team] boards`` players of its roster, in order.

Decision (docs/decisions.md, "Team competitions"): a line-up that breaks the board order or
leaves a board empty above a fielded one is a warning, as the same line-up in results.csv is
(the arbiter rules on it); a player not on the team's roster, a board outside the match, a
player twice in one round's line-up are errors and the row is set aside; a result that fields
another player than the line-up named is a warning on the result's row.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import polars as pl

from transforms.core.errors import Finding, Severity
from transforms.team.config import BoardOrder, TeamRules

if TYPE_CHECKING:
    from transforms.team.event import Group, TeamRun

LINEUPS = "lineups.csv"
LINEUP_SCHEMA = {"round": pl.Int64, "sno": pl.Int64, "board": pl.Int64, "player_id": pl.String,
                 "sent": pl.Boolean}
"""One row per board of a team's line-up for a round: the player, and whether the captain
sent it (``sent``) or it is the roster's order (the default)."""


def sent_lineups(lineups: pl.DataFrame, group: Group, rules: TeamRules, rounds: int
                 ) -> tuple[pl.DataFrame, list[Finding]]:
    """Team regulations (line-ups) — the rows of lineups.csv for ``group``'s teams, checked:
    the round within the event, the board within ``[team] boards``, the player on the team's
    roster, one player per board and a player once a round; then the board order
    (``[team] board_order``) and empty boards (``empty_boards_at_bottom``) as warnings."""
    findings: list[Finding] = []
    no = dict(zip(group.teams["team_id"].to_list(), group.teams["sno"].to_list(), strict=True))
    team_of = dict(zip(group.players["player_id"].to_list(), group.players["team_id"].to_list(), strict=True))
    order = dict(zip(group.players["player_id"].to_list(), group.players["roster_board"].to_list(), strict=True))
    rating = dict(zip(group.players["player_id"].to_list(), group.players["rating"].fill_null(0).to_list(), strict=True))
    rows = []
    seen_board: dict[tuple[int, str, int], int] = {}
    seen_player: dict[tuple[int, str], int] = {}
    for r in lineups.sort("line").iter_rows(named=True):
        line, team, pid, rnd, board = r["line"], r["team_id"], r["player_id"], r["round"], r["board"]
        if team not in no:
            continue  # another group's team (or none: reported once below)
        problem = (
            (f"round {rnd} is not a round of the event (1-{rounds})", "round", rnd) if rnd > rounds else
            (f"board {board} is not a board of the match (1-{rules.boards})", "board", board)
            if board > rules.boards else
            (f"{pid} is not on the roster of {team}", "player_id", pid) if team_of.get(pid) != team else
            (f"board {board} of {team} in round {rnd} is already taken by line "
             f"{seen_board[(rnd, team, board)]}", "board", board) if (rnd, team, board) in seen_board else
            (f"{pid} is already in the line-up of round {rnd} (line {seen_player[(rnd, pid)]})",
             "player_id", pid) if (rnd, pid) in seen_player else None)
        if problem is not None:
            reason, column, value = problem
            findings.append(Finding(LINEUPS, line, column, str(value), Severity.ERROR, reason))
            continue
        seen_board[(rnd, team, board)] = line
        seen_player[(rnd, pid)] = line
        rows.append({"round": rnd, "sno": no[team], "board": board, "player_id": pid, "sent": True,
                     "line": line})
    frame = pl.DataFrame(rows, schema={**LINEUP_SCHEMA, "line": pl.Int64})
    for _, part in frame.group_by("round", "sno", maintain_order=True):
        placed = part.sort("board").rows(named=True)
        if rules.empty_boards_at_bottom and placed and len(placed) < placed[-1]["board"]:
            taken = {p["board"] for p in placed}
            gap = min(b for b in range(1, placed[-1]["board"]) if b not in taken)
            findings.append(Finding(LINEUPS, placed[-1]["line"], "board", str(placed[-1]["board"]),
                                    Severity.WARNING, f"board {gap} is left empty above board "
                                    f"{placed[-1]['board']}: empty boards are at the bottom "
                                    "([team] empty_boards_at_bottom)"))
        for p1, p2 in zip(placed, placed[1:]):
            a, b = p1["player_id"], p2["player_id"]
            if rules.board_order is BoardOrder.ROSTER and order[b] < order[a]:
                findings.append(Finding(LINEUPS, p2["line"], "player_id", b, Severity.WARNING,
                                        f"{b} (roster board {order[b]}) is on board {p2['board']}, "
                                        f"below {a} (roster board {order[a]}): players keep the "
                                        "roster's order ([team] board_order = \"roster\")"))
            elif rules.board_order is BoardOrder.RATING and rating[b] > rating[a] + rules.rating_tolerance:
                findings.append(Finding(LINEUPS, p2["line"], "player_id", b, Severity.WARNING,
                                        f"{b} ({rating[b]}) is below {a} ({rating[a]}), more than "
                                        f"{rules.rating_tolerance} points lower: boards go by "
                                        "rating ([team] board_order = \"rating\")"))
    return frame.drop("line"), findings


def expected_lineups(group: Group, rnd: int, sent: pl.DataFrame, boards: int) -> pl.DataFrame:
    """Team regulations (line-ups) — each team's line-up for round ``rnd``: the one its
    captain sent, else the first ``boards`` players of its roster in order (``sent`` false)."""
    rows = sent.filter(pl.col("round") == rnd).to_dicts()
    given = {r["sno"] for r in rows}
    for sno in group.teams["sno"].to_list():
        if sno in given:
            continue
        roster = group.players.filter(pl.col("sno") == sno).sort("roster_board")["player_id"].to_list()
        rows += [{"round": rnd, "sno": sno, "board": b, "player_id": pid, "sent": False}
                 for b, pid in enumerate(roster[:boards], start=1)]
    return pl.DataFrame(rows, schema=LINEUP_SCHEMA).sort("sno", "board")


def results_follow_lineups(group: Group, sent: pl.DataFrame) -> list[Finding]:
    """Team regulations (line-ups) — a result's player on a board where the captain's line-up
    named another (a warning on the result's row: the arbiter decides which stands)."""
    named = {(r["round"], r["sno"], r["board"]): r["player_id"] for r in sent.iter_rows(named=True)}
    if not named:
        return []
    out = []
    for x in group.boards.iter_rows(named=True):
        a_white = x["board"] % 2 == 1
        for sno, pid, column in ((x["white"], x["white_id"] if a_white else x["black_id"], "player_a"),
                                 (x["black"], x["black_id"] if a_white else x["white_id"], "player_b")):
            want = named.get((x["round"], sno, x["board"]))
            if want is not None and pid is not None and pid != want:
                out.append(Finding("results.csv", x["line"], column, pid, Severity.WARNING,
                                   f"round {x['round']} board {x['board']}: the line-up sent "
                                   f"(lineups.csv) names {want}"))
    return out


def lineups_step(run: TeamRun) -> None:
    """Team regulations (line-ups) — every group's sent line-ups checked, the results compared
    with them, and the expected line-ups of the round to be played (:attr:`Group.lineups`)."""
    if run.blocked:
        return
    raw = run.typed.get(LINEUPS)
    for g in run.groups:
        sent = pl.DataFrame(schema=LINEUP_SCHEMA)
        if raw is not None and raw.height and raw.schema.get("round") == pl.Int64:
            sent, found = sent_lineups(raw, g, run.rules, g.rounds)
            run.findings += found
            run.findings += results_follow_lineups(g, sent)
        if g.next_round is not None:
            g.lineups = expected_lineups(g, g.next_round, sent, run.rules.boards)
    if raw is not None and raw.height and raw.schema.get("team_id") == pl.String:
        known = {t for g in run.groups for t in g.teams["team_id"].to_list()}
        for r in raw.filter(~pl.col("team_id").is_in(sorted(known))).iter_rows(named=True):
            run.findings.append(Finding(LINEUPS, r["line"], "team_id", r["team_id"], Severity.ERROR,
                                        "no such team in teams.csv"))

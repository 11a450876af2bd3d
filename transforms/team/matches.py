"""The matches of a team competition from its board results (results.csv), and the rules a
team's line-up must keep (``[team]``): who may play for a team (its roster: one team per
player), in what order (the board-order rule), which boards may be left empty (at the bottom),
and when a match is lost by forfeit (fewer than half the boards fielded). Every breach is a
validation row naming the file, line, column, value and the rule.

Colours: the first-named team of a match (``team_a``) has White on board 1 and the colours
alternate down the boards (FIDE C.04.6; the usual rule of team competitions), so a board's
colours follow from the match and the board; results.csv gives team A's player's result first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import polars as pl

from transforms.core.errors import Finding, Severity
from transforms.core.model import ResultCode
from transforms.team.config import BoardOrder, TeamRules

RESULTS = "results.csv"
ROSTERS = "rosters.csv"

BOARDS_SCHEMA = {"round": pl.Int64, "white": pl.Int64, "black": pl.Int64, "board": pl.Int64,
                 "white_id": pl.String, "black_id": pl.String, "white_points": pl.Float64,
                 "black_points": pl.Float64, "played": pl.Boolean, "result": pl.String,
                 "line": pl.Int64}
"""One row per board of a match: the round, the two teams' numbers (``white``: the team with
White on board 1), the board, the two players (null where the board was not fielded), each
side's points, whether the game was played over the board, the result as entered (team A's
player first) and its line in results.csv."""

MATCHES_SCHEMA = {"round": pl.Int64, "white": pl.Int64, "black": pl.Int64,
                  "white_gp": pl.Float64, "black_gp": pl.Float64, "white_mp": pl.Float64,
                  "black_mp": pl.Float64, "status": pl.String, "white_fielded": pl.Int64,
                  "black_fielded": pl.Int64}
"""One row per match (``black`` 0: ``white`` has a bye): game points, match points, status
(``played``, ``forfeit_white`` / ``forfeit_black`` (that team lost by forfeit), ``forfeit_both``,
``bye``, ``unfinished``) and how many boards each team fielded."""

CARD_SCHEMA = {"round": pl.Int64, "sno": pl.Int64, "opponent": pl.Int64, "colour": pl.String,
               "mp": pl.Float64, "gp": pl.Float64, "opp_gp": pl.Float64, "kind": pl.String,
               "boards": pl.Int64}
"""The team scorecard (FIDE C.07's team tie-breaks read it): one row per team per round."""

BOARD_CARD_SCHEMA = {"round": pl.Int64, "sno": pl.Int64, "board": pl.Int64, "points": pl.Float64,
                     "played": pl.Boolean}
"""Each team's points on each board of each round (board-count and board tie-breaks)."""


def board_colour(board: int) -> str:
    """FIDE C.04.6 — the colour of the first-named team's player on ``board``: White on the odd
    boards (board 1 first), Black on the even ones."""
    return "w" if board % 2 else "b"


@dataclass(frozen=True)
class Match:
    """One match of a round as results.csv records it."""

    round: int
    white: int
    """The first-named team's number (White on board 1)."""
    black: int
    """The other team's number; 0: ``white`` has a bye."""


def roster_rules(rosters: pl.DataFrame, teams: Mapping[str, int], rules: TeamRules
                 ) -> tuple[pl.DataFrame, list[Finding]]:
    """Team regulations (``[team]`` one_team_per_player, reserves) — the rosters that may play:
    every row's team known, a player on one team's roster only, at most ``boards + reserves``
    players a team, board numbers unique within a team. A row that breaks a rule is an error and
    set aside (the player cannot play for the team)."""
    findings: list[Finding] = []
    bad: set[int] = set()
    seen: dict[str, tuple[str, int]] = {}
    slots: dict[tuple[str, int], int] = {}
    per_team: dict[str, int] = {}
    limit = rules.boards + rules.reserves
    for r in rosters.sort("line").iter_rows(named=True):
        line, team, pid = r["line"], r["team_id"], r["player_id"]
        if team not in teams:
            findings.append(Finding(ROSTERS, line, "team_id", team, Severity.ERROR,
                                    "no such team in teams.csv: the player is not on a roster"))
            bad.add(line)
            continue
        if pid in seen:
            other, first = seen[pid]
            rule = ("one team per player ([team] one_team_per_player)" if other != team
                    else "a player listed twice on the same roster")
            if other != team and not rules.one_team_per_player:
                rule = "a player id names one player: give the player one id per team"
            findings.append(Finding(ROSTERS, line, "player_id", pid, Severity.ERROR,
                                    f"{pid} is already on the roster of {other} (line {first}): {rule}"))
            bad.add(line)
            continue
        if (team, r["board"]) in slots:
            findings.append(Finding(ROSTERS, line, "board", str(r["board"]), Severity.ERROR,
                                    f"board {r['board']} of {team} is already taken by line "
                                    f"{slots[(team, r['board'])]}: a roster's board numbers are "
                                    "its order, each once"))
            bad.add(line)
            continue
        per_team[team] = per_team.get(team, 0) + 1
        if per_team[team] > limit:
            findings.append(Finding(ROSTERS, line, "player_id", pid, Severity.ERROR,
                                    f"{team} has more than {limit} players ([team] boards "
                                    f"{rules.boards} + reserves {rules.reserves}): this one is "
                                    "set aside"))
            bad.add(line)
            continue
        seen[pid] = (team, line)
        slots[(team, r["board"])] = line
    return rosters.filter(~pl.col("line").is_in(sorted(bad))), findings


def match_boards(results: pl.DataFrame, team_no: Mapping[str, int], roster_of: Mapping[str, str],
                 rules: TeamRules) -> tuple[pl.DataFrame, list[Match], list[Finding]]:
    """FIDE C.04.6 (colours), ``[team]`` — the board rows of results.csv, checked: both teams
    known and of the same group, a board within ``boards``, each player on the roster of the
    team they play for and once a round, a match recorded once per round and a team in one
    match a round. A row that breaks one is an error and set aside. Returns the boards
    (:data:`BOARDS_SCHEMA`, one row per board), the matches and the findings."""
    findings: list[Finding] = []
    rows: list[dict[str, object]] = []
    matches: dict[tuple[int, int, int], Match] = {}
    team_in_round: dict[tuple[int, int], int] = {}
    played_in_round: dict[tuple[int, str], int] = {}
    seen_boards: set[tuple[int, int, int, int]] = set()

    def err(line: int, column: str, value: object, reason: str) -> None:
        findings.append(Finding(RESULTS, line, column, "" if value is None else str(value),
                                Severity.ERROR, reason))

    for r in results.sort("line").iter_rows(named=True):
        line, rnd = r["line"], r["round"]
        a, b = r["team_a"], r["team_b"]
        code = ResultCode.parse(r["result"])
        if a not in team_no:
            err(line, "team_a", a, "no such team in teams.csv (or in another division)")
            continue
        if b and b not in team_no:
            err(line, "team_b", b, "no such team in teams.csv (or in another division)")
            continue
        if b == a:
            err(line, "team_b", b, "a team cannot play itself")
            continue
        wa, wb = team_no[a], team_no[b] if b else 0
        key = (rnd, wa, wb)
        if key not in matches:
            clash = next((t for t in (wa, wb) if t and (rnd, t) in team_in_round), None)
            if clash is not None:
                err(line, "team_a" if clash == wa else "team_b", a if clash == wa else b,
                    f"the team already plays another match in round {rnd} (line "
                    f"{team_in_round[(rnd, clash)]}): one match a round")
                continue
            matches[key] = Match(rnd, wa, wb)
            for t in (wa, wb):
                if t:
                    team_in_round[(rnd, t)] = line
        if not b:  # a bye
            if code is not ResultCode.PAB and code is not None:
                err(line, "result", r["result"], "a team without an opponent has a bye: PAB")
                continue
            continue
        board = r["board"]
        if board is None or not 1 <= board <= rules.boards:
            err(line, "board", board, f"a match is played on boards 1 to {rules.boards} "
                                      "([team] boards)")
            continue
        if (rnd, wa, wb, board) in seen_boards:
            err(line, "board", board, "this board of the match is already recorded")
            continue
        if code is not None and code.is_bye:
            err(line, "result", r["result"], "a board of a match has a game result, not a bye")
            continue
        if code is not None and not code.is_bye:
            a_won_forfeit = code is ResultCode.WHITE_FORFEIT_WIN
            b_won_forfeit = code is ResultCode.BLACK_FORFEIT_WIN
            need = ([("player_a", r["player_a"])] if a_won_forfeit else
                    [("player_b", r["player_b"])] if b_won_forfeit else
                    [] if code is ResultCode.DOUBLE_FORFEIT else
                    [("player_a", r["player_a"]), ("player_b", r["player_b"])])
            missing = next((side for side, pid in need if not pid), None)
            if missing is not None:
                err(line, "result", r["result"], f"{r['result']} needs a player in {missing}: "
                    "a game over the board has two players, a win by forfeit the winner (empty "
                    "boards: +/-, -/+ or -/-)")
                continue
        bad_player = False
        for side, team in (("player_a", a), ("player_b", b)):
            pid = r[side]
            if not pid:
                continue
            if roster_of.get(pid) != team:
                err(line, side, pid, f"{pid} is not on the roster of {team} (rosters.csv): a "
                                     "player plays for the team whose roster lists them")
                bad_player = True
            elif (rnd, pid) in played_in_round:
                err(line, side, pid, f"{pid} already plays in round {rnd} (line "
                                     f"{played_in_round[(rnd, pid)]})")
                bad_player = True
        if bad_player:
            continue
        for pid in (r["player_a"], r["player_b"]):
            if pid:
                played_in_round[(rnd, pid)] = line
        seen_boards.add((rnd, wa, wb, board))
        a_points: float | None
        b_points: float | None
        if code is None:
            a_points = b_points = None
            played = False
        else:
            sides = (code.white, code.black)
            a_points, b_points = sides[0].points, sides[1].points if sides[1] else 0.0
            played = code in (ResultCode.WHITE_WINS, ResultCode.BLACK_WINS, ResultCode.DRAW)
        white_a = board_colour(board) == "w"
        rows.append({"round": rnd, "white": wa, "black": wb, "board": board,
                     "white_id": r["player_a"] if white_a else r["player_b"],
                     "black_id": r["player_b"] if white_a else r["player_a"],
                     "white_points": a_points if white_a else b_points,
                     "black_points": b_points if white_a else a_points,
                     "played": played, "result": r["result"], "line": line,
                     "a_points": a_points, "b_points": b_points,
                     "a_fielded": bool(r["player_a"]), "b_fielded": bool(r["player_b"])})
    frame = pl.DataFrame(rows, schema={**BOARDS_SCHEMA, "a_points": pl.Float64, "b_points": pl.Float64,
                                       "a_fielded": pl.Boolean, "b_fielded": pl.Boolean})
    return frame, sorted(matches.values(), key=lambda m: (m.round, m.white, m.black)), findings


def lineup_rules(boards: pl.DataFrame, players: pl.DataFrame, rules: TeamRules) -> list[Finding]:
    """Team regulations (``[team]`` board_order, rating_tolerance, empty_boards_at_bottom) —
    each team's line-up in each match, as results.csv gives it: the players in the roster's
    order (or by rating within the tolerance), an empty board only below every fielded one. A
    breach is a warning for the arbiter on the board's row (the result stands until the arbiter
    corrects it)."""
    findings: list[Finding] = []
    order = dict(zip(players["player_id"].to_list(), players["roster_board"].to_list(), strict=True))
    rating = dict(zip(players["player_id"].to_list(), players["rating"].fill_null(0).to_list(), strict=True))
    for side, player, fielded in (("a", "player_a", "a_fielded"), ("b", "player_b", "b_fielded")):
        for (_, _, _), g in boards.group_by("round", "white", "black", maintain_order=True):
            g = g.sort("board")
            ids = [(r["board"], r["white_id"] if (board_colour(r["board"]) == "w") == (side == "a")
                    else r["black_id"], r["line"], r[fielded]) for r in g.iter_rows(named=True)]
            fielded_boards = [b for b, _, _, f in ids if f]
            if rules.empty_boards_at_bottom and fielded_boards:
                last = max(fielded_boards)
                for b, _pid, line, f in ids:
                    if not f and b < last:
                        findings.append(Finding(RESULTS, line, player, "", Severity.WARNING,
                                                f"board {b} is left empty above a fielded board "
                                                f"{last}: empty boards are at the bottom ([team] "
                                                "empty_boards_at_bottom)"))
            placed = [(b, pid, line) for b, pid, line, f in ids if f and pid]
            for (b1, p1, _l1), (b2, p2, l2) in zip(placed, placed[1:]):
                if rules.board_order is BoardOrder.ROSTER and order.get(p2, 0) < order.get(p1, 0):
                    findings.append(Finding(RESULTS, l2, player, p2, Severity.WARNING,
                                            f"{p2} (roster board {order.get(p2)}) plays on board "
                                            f"{b2}, below {p1} (roster board {order.get(p1)}) on "
                                            f"board {b1}: players keep the roster's order "
                                            "([team] board_order = \"roster\")"))
                elif (rules.board_order is BoardOrder.RATING
                      and rating.get(p2, 0) > rating.get(p1, 0) + rules.rating_tolerance):
                    findings.append(Finding(RESULTS, l2, player, p2, Severity.WARNING,
                                            f"{p2} ({rating.get(p2)}) plays below {p1} "
                                            f"({rating.get(p1)}), more than "
                                            f"{rules.rating_tolerance} points lower: boards go "
                                            "by rating ([team] board_order = \"rating\")"))
    return findings


def match_results(matches: list[Match], boards: pl.DataFrame, rules: TeamRules,
                  bye: tuple[float, float] | None = None) -> pl.DataFrame:
    """Team regulations (``[team]`` match_points, forfeit_below_half) — every match's game
    points (the sum of its boards) and match points. A team that fielded fewer than half the
    boards loses the match by forfeit (its opponent scores a won match; both keep the game
    points of their boards). A match none of whose boards was played over the board (every
    board won or lost by forfeit, unless both teams scored) is a match forfeited whole: the
    team with more game points wins it by forfeit, neither when they are equal (FIDE C.04.2
    3.5: teams whose match was not played may meet again). A match with a board not finished
    is ``unfinished``: no points yet. A bye scores ``bye`` (match points, game points): by default a won match and half the
    boards (a league's team without a match); a team Swiss gives a drawn match (FIDE C.04.6
    1.4, :func:`transforms.team.swiss.bye_points`)."""
    win, _draw, loss = rules.match_points
    bye_mp, bye_gp = bye if bye is not None else (float(win), float(rules.boards) / 2)
    rows = []
    for m in matches:
        if not m.black:
            rows.append({"round": m.round, "white": m.white, "black": 0,
                         "white_gp": bye_gp, "black_gp": 0.0, "white_mp": bye_mp,
                         "black_mp": 0.0, "status": "bye", "white_fielded": 0, "black_fielded": 0})
            continue
        g = boards.filter((pl.col("round") == m.round) & (pl.col("white") == m.white)
                          & (pl.col("black") == m.black))
        a_fielded, b_fielded = int(g["a_fielded"].sum()), int(g["b_fielded"].sum())
        recorded = g.height
        if recorded < rules.boards and (a_fielded or b_fielded):
            pass  # boards not recorded: not finished
        finished = recorded == rules.boards and g["a_points"].null_count() == 0
        a_gp = float(g["a_points"].fill_null(0).sum())
        b_gp = float(g["b_points"].fill_null(0).sum())
        status = "played" if finished else "unfinished"
        a_short = rules.forfeit_below_half and finished and a_fielded * 2 < rules.boards
        b_short = rules.forfeit_below_half and finished and b_fielded * 2 < rules.boards
        unplayed = finished and not g["played"].any() and not (a_gp > 0 and b_gp > 0)
        if not finished:
            a_mp = b_mp = 0.0
        elif unplayed and a_gp == b_gp:
            a_mp, b_mp, status = float(loss), float(loss), "forfeit_both"
        elif unplayed:
            a_mp, b_mp = (float(win), float(loss)) if a_gp > b_gp else (float(loss), float(win))
            status = "forfeit_black" if a_gp > b_gp else "forfeit_white"
        elif a_short and b_short:
            a_mp, b_mp, status = float(loss), float(loss), "forfeit_both"
        elif a_short:
            a_mp, b_mp, status = float(loss), float(win), "forfeit_white"
        elif b_short:
            a_mp, b_mp, status = float(win), float(loss), "forfeit_black"
        else:
            a_mp, b_mp = float(rules.match_points_of(a_gp, b_gp)), float(rules.match_points_of(b_gp, a_gp))
        rows.append({"round": m.round, "white": m.white, "black": m.black, "white_gp": a_gp,
                     "black_gp": b_gp, "white_mp": a_mp, "black_mp": b_mp, "status": status,
                     "white_fielded": a_fielded, "black_fielded": b_fielded})
    return pl.DataFrame(rows, schema=MATCHES_SCHEMA)


def team_card(matches: pl.DataFrame, boards: pl.DataFrame, rules: TeamRules, *,
              through: int, teams: list[int], absent_kind: str = "absent") -> tuple[pl.DataFrame, pl.DataFrame]:
    """FIDE C.07 (team events) — the team scorecard and the board card of rounds 1..``through``
    from the finished matches: one row per team per round (a team without a match that round:
    ``absent_kind``, no points), and each team's points on each board."""
    card_rows = []
    board_rows = []
    done = matches.filter((pl.col("round") <= through) & (pl.col("status") != "unfinished"))
    by_round: dict[int, set[int]] = {}
    for m in done.iter_rows(named=True):
        r = m["round"]
        if m["status"] == "bye":
            card_rows.append({"round": r, "sno": m["white"], "opponent": None, "colour": None,
                              "mp": m["white_mp"], "gp": m["white_gp"], "opp_gp": 0.0,
                              "kind": "PAB", "boards": rules.boards})
            by_round.setdefault(r, set()).add(m["white"])
            continue
        forfeit = m["status"].startswith("forfeit")
        for team, opp, colour, own in ((m["white"], m["black"], "w", "white"), (m["black"], m["white"], "b", "black")):
            other = "black" if own == "white" else "white"
            lost = m["status"] in (f"forfeit_{own}", "forfeit_both")
            kind = ("forfeit_loss" if lost else "forfeit_win") if forfeit else "played"
            card_rows.append({"round": r, "sno": team, "opponent": opp, "colour": colour,
                              "mp": m[f"{own}_mp"], "gp": m[f"{own}_gp"], "opp_gp": m[f"{other}_gp"],
                              "kind": kind, "boards": rules.boards})
            by_round.setdefault(r, set()).add(team)
    for r in range(1, through + 1):
        for t in teams:
            if t not in by_round.get(r, set()):
                card_rows.append({"round": r, "sno": t, "opponent": None, "colour": None, "mp": 0.0,
                                  "gp": 0.0, "opp_gp": 0.0, "kind": absent_kind, "boards": rules.boards})
    finished = {(m["round"], m["white"], m["black"]) for m in done.iter_rows(named=True)}
    for b in boards.filter(pl.col("round") <= through).iter_rows(named=True):
        if (b["round"], b["white"], b["black"]) not in finished:
            continue
        board_rows.append({"round": b["round"], "sno": b["white"], "board": b["board"],
                           "points": b["a_points"] or 0.0, "played": b["played"]})
        board_rows.append({"round": b["round"], "sno": b["black"], "board": b["board"],
                           "points": b["b_points"] or 0.0, "played": b["played"]})
    card = pl.DataFrame(card_rows, schema=CARD_SCHEMA).sort("round", "sno")
    board_card = pl.DataFrame(board_rows, schema=BOARD_CARD_SCHEMA).sort("round", "sno", "board")
    return card, board_card

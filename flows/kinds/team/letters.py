"""A team competition's letters (presentation only: every figure is the rulebook's): to each
team's captain after a round — the match result board by board, the team's standing, and the
next match (opponent, home or away, the colour of board 1, its date) with the reminder to send
the line-up — and to each player with an email, the player's own game and the match.

Decision: only the current news, keyed by the latest complete round of the team's group
(``captain-<team>-round-NN``, ``player-<player>-round-NN``), so that a rerun sends nothing
that did not change."""

from __future__ import annotations

import polars as pl

from flows.kinds import norms as title_norms
from flows.kinds.team.pages import names_of, players_of, round_rel, score, team_rel
from flows.mail.letters import Block, Letter, address_problem
from flows.site.names import file_part
from transforms.team.config import TeamRoundRobinConfig, TeamSwissConfig
from transforms.team.event import Group, TeamRun


def team_letters(run: TeamRun) -> tuple[list[Letter], list[tuple[str, str]]]:
    """Every captain's and player's letter of the run, and who was skipped (no or no valid
    address). A run whose results have errors writes none (the office is told)."""
    letters: list[Letter] = []
    skipped: list[tuple[str, str]] = []
    if run.blocked:
        return letters, skipped
    league = run.cfg.table(TeamRoundRobinConfig)
    swiss = run.cfg.table(TeamSwissConfig)
    dates = league.round_dates if league else swiss.round_dates if swiss else ()
    for g in run.groups:
        if not g.done and g.next_round is None:
            continue
        for t in g.teams.iter_rows(named=True):
            email = t.get("captain_email")
            if not email:
                continue
            problem = address_problem(email)
            if problem:
                skipped.append((f"captain of {t['name']}", problem))
                continue
            letters.append(captain_letter(run, g, t, dates))
        if g.done:
            letters += player_letters(run, g, skipped)
    return letters, skipped


def _points(value: float, word: str) -> str:
    """``1 match point``, ``2½ game points``."""
    return f"{score(value)} {word}{'' if value == 1 else 's'}"


def _match_of(g: Group, r: int, sno: int) -> dict | None:
    m = g.matches.filter((pl.col("round") == r) & ((pl.col("white") == sno) | (pl.col("black") == sno)))
    return m.row(0, named=True) if m.height else None


def _next_of(g: Group, sno: int) -> dict | None:
    if g.next_round is None:
        return None
    f = g.fixtures.filter((pl.col("round") == g.next_round) & ((pl.col("white") == sno) | (pl.col("black") == sno)))
    return f.row(0, named=True) if f.height else None


def captain_letter(run: TeamRun, g: Group, team: dict, dates: tuple) -> Letter:
    """The captain's letter after the group's latest complete round (or before round 1)."""
    sno, r = team["sno"], g.done
    names, who = names_of(g), players_of(g)
    blocks = []
    m = _match_of(g, r, sno) if r else None
    if m is not None and m["black"]:
        first = m["white"] == sno
        opp = names[m["black"] if first else m["white"]]
        own, other = (m["white_gp"], m["black_gp"]) if first else (m["black_gp"], m["white_gp"])
        rows = []
        b = g.boards.filter((pl.col("round") == r) & (pl.col("white") == m["white"])
                            & (pl.col("black") == m["black"])).sort("board")
        for x in b.iter_rows(named=True):
            own_white = (x["board"] % 2 == 1) == first
            own_id, opp_id = (x["white_id"], x["black_id"]) if own_white else (x["black_id"], x["white_id"])
            pts = x["white_points"] if own_white else x["black_points"]
            rows.append((str(x["board"]), who.get(own_id or "", "(not fielded)"),
                         score(pts) if pts is not None else "", who.get(opp_id or "", "(not fielded)")))
        blocks.append(Block(f"Round {r}: {team['name']} {score(own)} – {score(other)} {opp}",
                            table=(("Bd", "Player", "Pts", "Opponent"), *rows)))
    elif m is not None:
        blocks.append(Block(f"Round {r}: a bye", (
            f"{team['name']} had no match in round {r} (the pairing-allocated bye): "
            f"{_points(m['white_mp'], 'match point')} and {_points(m['white_gp'], 'game point')}.",)))
    if r:
        st = g.rankings[r].filter(pl.col("sno") == sno).row(0, named=True)
        blocks.append(Block("Standing", (f"Place {st['rank_label']} of {g.teams.height} in "
                                         f"{g.name}: {_points(st['mp'], 'match point')}, "
                                         f"{_points(st['gp'], 'game point')}.",)))
    nxt = _next_of(g, sno)
    league = run.cfg.table(TeamRoundRobinConfig) is not None
    if nxt is not None:
        when = f" on {dates[nxt['round'] - 1]:%A %d %B %Y}" if len(dates) >= nxt["round"] else ""
        if not nxt["black"]:
            line = f"Round {nxt['round']}{when}: no match (a bye)."
        else:
            first = nxt["white"] == sno
            opp = names[nxt["black"] if first else nxt["white"]]
            where = ("at home to" if first else "away at") if league else "against"
            sent = g.lineups.filter((pl.col("sno") == sno) & pl.col("sent")).height > 0
            ask = (f"Your line-up has reached the arbiter (below); tell the arbiter of any change "
                   f"{run.rules.lineup_deadline}." if sent else
                   f"Please send your line-up to the arbiter {run.rules.lineup_deadline}.")
            line = (f"Round {nxt['round']}{when}: {where} {opp}; your "
                    f"board 1 has {'White' if first else 'Black'}, the colours alternating down the "
                    f"boards. {ask}")
        blocks.append(Block("Next match", (line,)))
        mine = g.lineups.filter(pl.col("sno") == sno).sort("board")
        if nxt["black"] and mine.height:
            heading = ("Your line-up as received" if mine["sent"].any()
                       else "No line-up received yet: the roster's order would play")
            blocks.append(Block(heading, table=(("Bd", "Player"), *[
                (str(x["board"]), who.get(x["player_id"], x["player_id"])) for x in mine.iter_rows(named=True)])))
    elif g.pairing is not None and sno in g.pairing.absent:
        blocks.append(Block("Next match", (
            f"Round {g.pairing.round}: {team['name']} is not paired (absent or withdrawn, as "
            "the entries say). Tell the arbiter at once if that is wrong.",)))
    word = f"round-{r:02d}"
    subject = (f"{run.cfg.event.name} — {team['name']}: round {r}" if r
               else f"{run.cfg.event.name} — {team['name']}: your first match")
    lead = (f"Round {r} of {g.name} is complete: your match, your standing and your next match." if r
            else f"The fixtures of {g.name} are out: here is your first match.")
    links = [("The event's pages", "index.html"), ("Your team's page", team_rel(g.id, sno))]
    if r:
        links.append((f"Standings after round {r}", round_rel("standings", r)))
    return Letter(key=f"captain-{file_part(team['team_id'], lower=True)}-{word}",
                  to_name=team.get("captain") or f"Captain of {team['name']}",
                  to_email=team["captain_email"], subject=subject, lead=lead, blocks=tuple(blocks),
                  links=tuple(links), kind="captain-round", meta={"team": team["team_id"]})


def norm_block(g: Group, pno: int) -> tuple[Block, ...]:
    """FIDE B.01 — the player's norms made and in reach, if the event is a title tournament."""
    names = dict(zip(g.players["pno"].to_list(), g.players["name"].to_list(), strict=True))
    block = title_norms.letter_block(g.norms, pno, names)
    return (block,) if block is not None else ()


def player_letters(run: TeamRun, g: Group, skipped: list[tuple[str, str]]) -> list[Letter]:
    """Each player with an email who played in the group's latest complete round: the game
    and the match."""
    out = []
    r = g.done
    names = names_of(g)
    played = g.boards.filter(pl.col("round") == r)
    teams = dict(zip(g.teams["sno"].to_list(), g.teams["team_id"].to_list(), strict=True))
    for p in g.players.iter_rows(named=True):
        email = p.get("email")
        if not email:
            continue
        row = played.filter((pl.col("white_id") == p["player_id"]) | (pl.col("black_id") == p["player_id"]))
        if not row.height:
            continue
        problem = address_problem(email)
        if problem:
            skipped.append((f"player {p['player_id']} ({p['name']})", problem))
            continue
        x = row.row(0, named=True)
        white = x["white_id"] == p["player_id"]
        opp_id = x["black_id"] if white else x["white_id"]
        pts = x["white_points"] if white else x["black_points"]
        opp = g.players.filter(pl.col("player_id") == (opp_id or "")).select("name", "rating")
        opp_text = (f"{opp['name'][0]} ({opp['rating'][0]})" if opp.height and opp["rating"][0]
                    else opp["name"][0] if opp.height else "nobody (the board was not fielded)")
        m = _match_of(g, r, p["sno"])
        own_first = m is not None and m["white"] == p["sno"]
        match_line = (f"{names[p['sno']]} {score(m['white_gp'] if own_first else m['black_gp'])} – "
                      f"{score(m['black_gp'] if own_first else m['white_gp'])} "
                      f"{names[m['black'] if own_first else m['white']]}") if m and m["black"] else ""
        lines = (f"Board {x['board']}, {'White' if white else 'Black'}, against {opp_text}: "
                 f"{score(pts) if pts is not None else 'not finished'}.",) + ((f"The match: {match_line}.",)
                                                                               if match_line else ())
        out.append(Letter(key=f"player-{file_part(p['player_id'], lower=True)}-round-{r:02d}",
                          to_name=p["name"], to_email=email,
                          subject=f"{run.cfg.event.name} — round {r}: your game",
                          lead=f"Round {r} of {g.name} is complete.",
                          blocks=(Block("Your game", lines), *norm_block(g, p["pno"])),
                          links=(("Your team's page", team_rel(g.id, p["sno"])),),
                          kind="player-round", meta={"team": teams[p["sno"]]}))
    return out

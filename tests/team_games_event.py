"""A hand-made team league with games (issue 48), for the tests of a team event's games
(tests/rulebook/test_team_games.py: matching; tests/publish/test_team_game_pages.py: the pages):
four teams, four boards a match (team A White on the odd boards, FIDE C.04.6; results.csv
gives team A's player's result first):

    round 1, match 1: A 2½ – 1½ D          round 1, match 2: B 2½ – 1½ C
      bd 1  A1 (W)  1-0  D1                  bd 1  B1 (W)  ½-½  C1
      bd 2  A2 (B)  ½-½  D2 (W)              bd 2  B2 (B)  0-1  C2 (W)
      bd 3  A3 (W)  1-0  D3                  bd 3  B3 (W)  ½-½  C3
      bd 4  A4 (B)  0-1  D4 (W)              bd 4  B4 (B)  +/-  (C not fielded)

(results.csv's ``0-1`` on A–D board 4 is D4's win with White: ``1-0`` White first.)
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl

from flows import io
from flows.kinds.team.flow import publish
from flows.site.pages import Publication, event_context
from transforms.core.pgn import GAMES
from transforms.kinds import parse_event_config
from transforms.team.event import RULE_STEPS, TeamRun, prepare

DAY = dt.date(2025, 12, 1)

TOML = """
[event]
id = "league"
name = "County League"
kind = "{kind}"
start = 2025-10-01
end = 2026-03-31
venue = "Riverton"
organiser = "County association"
currency = "EUR"
contact = "League secretary"

[publish]
sender = "league@county.example"

[team]
boards = 4

{system}
{games}
"""
LEAGUE = """[team_round_robin]
draw_seed = 7

[[team_round_robin.divisions]]
id = "one"
name = "Division One"
"""
SWISS = "[team_swiss]\nrounds = 3\n"

TEAMS = "team_id,name,start_no\nA,Alpha,1\nB,Bravo,2\nC,Charlie,3\nD,Delta,4\n"
ROSTERS = "team_id,board,player_id,name,rating,fide_id\n" + "".join(
    f"{t},{b},{t}{b},\"{t}ster, {t}{b}\",{2100 - 50 * b},{f'990{ord(t)}{b}' if t == 'D' else ''}\n"
    for t in "ABCD" for b in range(1, 6))
RESULTS = ("round,team_a,team_b,board,player_a,player_b,result\n"
           "1,A,D,1,A1,D1,1-0\n1,A,D,2,A2,D2,1/2-1/2\n1,A,D,3,A3,D3,1-0\n1,A,D,4,A4,D4,0-1\n"
           "1,B,C,1,B1,C1,1/2-1/2\n1,B,C,2,B2,C2,0-1\n1,B,C,3,B3,C3,1/2-1/2\n1,B,C,4,B4,,+/-\n")

MATE = "1. e4 e5 2. Qh5 Nc6 3. Bc4 {a trap} Nf6 4. Qxf7# 1-0\n\n"
SCHOLAR_BLACK = "1. f3 e5 2. g4 Qh4# 0-1\n\n"
DRAW = "1. d4 d5 2. c4 e6 1/2-1/2\n\n"


def name(pid: str) -> str:
    return f"{pid[0]}ster, {pid}"


def tags(round_: str, white: str, black: str, result: str, **more: str) -> str:
    extra = "".join(f'[{k} "{v}"]\n' for k, v in more.items())
    return (f'[Event "League"]\n[Site "Riverton"]\n[Date "2025.10.02"]\n[Round "{round_}"]\n'
            f'[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n{extra}\n')


def moves(result: str) -> str:
    return {"1-0": MATE, "0-1": SCHOLAR_BLACK, "1/2-1/2": DRAW}[result]


def game(round_: str, white: str, black: str, result: str, **more: str) -> str:
    return tags(round_, name(white) if white != "BYE" else white,
                name(black) if black != "BYE" else black, result, **more) + moves(result)


def team_event(tmp_path: Path, pgn: dict[str, str], *, kind: str = "team_round_robin",
               games_toml: str = "", results: str = RESULTS) -> TeamRun:
    folder = tmp_path / "league"
    folder.mkdir(parents=True, exist_ok=True)
    for file, text in (("teams.csv", TEAMS), ("rosters.csv", ROSTERS), ("results.csv", results)):
        (folder / file).write_text(text, encoding="utf-8")
    cfg = parse_event_config(TOML.format(kind=kind, system=LEAGUE if kind == "team_round_robin" else SWISS,
                                         games=games_toml))
    raw = {n: io.read_csv_strings(folder / n) for n in ("teams.csv", "rosters.csv", "results.csv")}
    raw[GAMES] = (pl.DataFrame({"file": list(pgn), "text": list(pgn.values())},
                               schema={"file": pl.String, "text": pl.String}), [])
    run = prepare(cfg, raw, DAY)
    for _, step in RULE_STEPS:
        step(run)
    return run


def build_site(tmp_path: Path, pgn: dict[str, str], **kw: str) -> tuple[TeamRun, Publication]:
    """The event's run (:func:`team_event`) and its publication, through the flow's
    ``publish`` (no Prefect)."""
    run = team_event(tmp_path, pgn, **kw)
    pub = Publication(tmp_path / "out", ctx=event_context(run.cfg, DAY))
    publish(pub, run.cfg, run, DAY)
    return run, pub

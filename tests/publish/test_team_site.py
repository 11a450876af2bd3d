"""A team league's pages and letters (issue 45), from the demo league
(``inputs/district-league-2025/``: two divisions, four rounds played, one match lost by
forfeit): every figure printed is the rulebook's, the promotion and relegation places are
marked, a forfeit says why, and each captain and player gets their own letter."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import polars as pl
import pytest

from flows import io as flows_io
from flows.kinds.team.flow import publish
from flows.mail.letters import text_body
from flows.site.pages import Publication, event_context
from transforms.kinds import parse_event_config
from transforms.team.event import TeamRun, prepare, standings
from transforms.team.schemas import SCHEMAS

LEAGUE = Path(__file__).resolve().parents[2] / "inputs" / "district-league-2025"


@pytest.fixture(scope="module")
def league() -> tuple[Publication, TeamRun, list]:
    cfg = parse_event_config((LEAGUE / "event.toml").read_text())
    raw = {n: flows_io.read_csv_strings(LEAGUE / n) for n in SCHEMAS if (LEAGUE / n).exists()}
    run = prepare(cfg, raw, cfg.event.as_of)
    standings(run)
    pub = Publication(Path("unused"), ctx=event_context(cfg, run.as_of))
    letters = publish(pub, cfg, run, run.as_of)
    return pub, run, letters


def text(html: str | bytes) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", html if isinstance(html, str) else html.decode()))


def rows(html: str | bytes, table: int = 0) -> list[list[str]]:
    body = html if isinstance(html, str) else html.decode()
    found = re.findall(r"<table.*?</table>", body, flags=re.S)[table]
    return [[" ".join(text(c).split()) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r, flags=re.S)]
            for r in re.findall(r"<tr[^>]*>(.*?)</tr>", found, flags=re.S)]


def test_the_standings_print_the_rulebooks_ranking_and_mark_promotion_and_relegation(league):
    pub, run, _ = league
    page = pub.files["standings/round-04.html"]
    for table, group in enumerate(run.groups):
        ranking = group.rankings[4]
        shown = rows(page, table)[1:]
        assert [r[1] for r in shown] == ranking["name"].to_list()
        assert [float(r[2]) for r in shown] == ranking["mp"].to_list()
    body = page if isinstance(page, str) else page.decode()
    premier, first = run.groups[0], run.groups[1]
    assert premier.relegated == 1 and first.promoted == 1
    assert body.count('class="relegated"') == 1 and body.count('class="promoted"') == 1
    assert "The last team goes down (▼)." in text(body) and "The first team goes up (▲)." in text(body)


def test_a_match_lost_by_forfeit_says_who_fielded_how_many_boards(league):
    pub, run, _ = league
    forfeits = pl.concat([g.matches for g in run.groups]).filter(pl.col("status").str.starts_with("forfeit"))
    assert forfeits.height == 1
    rnd = forfeits["round"].item()
    page = text(pub.files[f"rounds/round-{rnd:02d}.html"])
    assert "Millbrook Juniors fielded 1 of 4 boards: the match is lost by forfeit." in page


def test_the_fixtures_list_every_round_with_its_date_and_the_scores_so_far(league):
    pub, run, _ = league
    page = pub.files["fixtures.html"]
    premier = rows(page, 0)[1:]
    assert len(premier) == run.groups[0].fixtures.height == 30  # 6 teams, double: 10 rounds of 3
    assert premier[0][1] == "Thu 02 Oct 2025" and premier[-1][1] == "Thu 05 Mar 2026"
    assert all(r[3] for r in premier[:12]) and not any(r[3] for r in premier[12:])


def test_each_captain_and_each_player_gets_their_own_letter(league):
    _, run, letters = league
    captains = [m for m in letters if m.to_email.startswith("captain.")]
    assert len(captains) == sum(g.teams.height for g in run.groups)
    assert len({m.to_email for m in captains}) == len(captains)
    mil = next(m for m in captains if m.to_email == "captain.mil1@clubs.example")
    body = text_body(mil, site_url="https://x.example/", signature="The league")
    assert re.search(r"Place \d of 5 in Division One: \d+ match points", body)
    assert "Round 5 on Thursday 11 December 2025: at home to Castle Rook B" in body
    players = [m for m in letters if m.kind == "player-round"]
    fielded = sum(g.boards.filter(pl.col("round") == 4).select(
        pl.col("white_id").is_not_null().sum() + pl.col("black_id").is_not_null().sum()).item()
        for g in run.groups)
    assert len(players) == fielded and len({m.to_email for m in players}) == fielded

"""A team Swiss's pages and letters (issue 45), from the demo championship
(``inputs/county-team-championship-2026/``: 13 teams, three rounds played, round 4 paired by
FIDE C.04.6 with one team absent): the next round's pairing and how it was made, the Swiss
crosstable, and the captains' letters (the next opponent and colour, a bye, an absence)."""

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
from transforms.team.event import RULE_STEPS, TeamRun, prepare
from transforms.team.schemas import SCHEMAS

COUNTY = Path(__file__).resolve().parents[2] / "inputs" / "county-team-championship-2026"


@pytest.fixture(scope="module")
def county() -> tuple[Publication, TeamRun, list]:
    cfg = parse_event_config((COUNTY / "event.toml").read_text())
    raw = {n: flows_io.read_csv_strings(COUNTY / n) for n in SCHEMAS if (COUNTY / n).exists()}
    run = prepare(cfg, raw, cfg.event.as_of)
    for _, step in RULE_STEPS:
        step(run)
    pub = Publication(Path("unused"), ctx=event_context(cfg, run.as_of))
    letters = publish(pub, cfg, run, run.as_of)
    return pub, run, letters


def text(html: str | bytes) -> str:
    body = html if isinstance(html, str) else html.decode()
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", body)).split())


def test_the_next_round_lists_the_engines_pairing_the_absent_team_and_why(county):
    pub, run, _ = county
    (g,) = run.groups
    assert g.done == 3 and g.pairing is not None and g.pairing.round == 4
    names = dict(zip(g.teams["sno"].to_list(), g.teams["name"].to_list(), strict=True))
    page = text(pub.files["rounds/round-04.html"])
    for i, (w, b) in enumerate(g.pairing.pairs, start=1):
        assert f"{i} {names[w]} {names[b]}" in page
    (absent,) = g.pairing.absent
    assert names[absent] == "Glenholm"
    assert "Not paired this round (absent or withdrawn, FIDE C.04.2 3.2-3.3): Glenholm." in page
    assert "identifier" in page and "colours by 4.3" in page


def test_the_crosstable_gives_each_round_opponent_colour_and_game_points(county):
    pub, run, _ = county
    (g,) = run.groups
    page = text(pub.files["crosstable.html"])
    first = g.matches.filter((pl.col("round") == 1) & (pl.col("black") != 0)).row(0, named=True)
    gp = first["white_gp"]
    cell = f"{first['black']}w {int(gp) if gp == int(gp) else ''}{'½' if gp % 1 else ''}"
    assert cell.replace(" ", "\u00a0") in page or cell in page.replace("\u00a0", " ")
    assert "bye" in page


def test_captains_hear_their_next_opponent_a_bye_and_an_absence(county):
    _, run, letters = county
    (g,) = run.groups
    by_team = {lt.meta["team"]: " ".join(text_body(lt, site_url="https://x.example/", signature="").split())
               for lt in letters if lt.kind == "captain-round"}
    assert len(by_team) == g.teams.height
    assert "Glenholm is not paired" in by_team["GLE"]
    bye = g.matches.filter((pl.col("round") == 3) & (pl.col("black") == 0))["white"].item()
    bye_id = g.teams.filter(pl.col("sno") == bye)["team_id"].item()
    assert "had no match in round 3 (the pairing-allocated bye): 1 match point and 2 game points" \
        in by_team[bye_id]
    sent = set(g.lineups.filter(pl.col("sent"))["sno"].to_list())
    w, b = next(p for p in g.pairing.pairs if p[0] not in sent)
    white_id = g.teams.filter(pl.col("sno") == w)["team_id"].item()
    other = g.teams.filter(pl.col("sno") == b)["name"].item()
    assert f"against {other}; your board 1 has White" in by_team[white_id]
    assert "Please send your line-up to the arbiter before the round." in by_team[white_id]


def test_the_next_round_shows_each_line_up_and_whether_it_was_sent(county):
    """The demo: Northgate sent its line-up for round 4 with a reserve; the others did not
    (their roster's first four are shown, and said to be so)."""
    pub, run, letters = county
    (g,) = run.groups
    page = text(pub.files["rounds/round-04.html"])
    nor = g.teams.filter(pl.col("team_id") == "NOR").row(0, named=True)
    sent = g.lineups.filter(pl.col("sno") == nor["sno"]).sort("board")
    assert sent["sent"].all() and sent["player_id"].to_list() == ["NOR-01", "NOR-03", "NOR-04", "NOR-05"]
    who = dict(zip(g.players["player_id"].to_list(), g.players["name"].to_list(), strict=True))
    assert who["NOR-05"] in page and "Northgate: no line-up received" not in page
    others = g.teams.filter(~pl.col("team_id").is_in(["NOR", "RIV", "GLE"]))["name"].to_list()
    assert all(f"{n}: no line-up received yet; shown in roster order." in page for n in others)
    letter = next(" ".join(text_body(lt, site_url="https://x.example/", signature="").split())
                  for lt in letters if lt.meta.get("team") == "NOR" and lt.kind == "captain-round")
    assert "Your line-up has reached the arbiter" in letter and who["NOR-05"] in letter


def test_the_tiebreaks_are_explained_and_each_team_page_shows_what_each_round_gave(county):
    """standings/explained.html lists [team] tiebreaks in order, in words; a team's page adds
    up, round by round, to the value its standings print (GPTS and BH:MP: sums)."""
    pub, run, _ = county
    (g,) = run.groups
    page = text(pub.files["standings/explained.html"])
    assert "1 GPTS game points" in page and "2 BH:MP Buchholz: the opponents' match points" in page
    first = g.rankings[g.done].row(0, named=True)
    team = text(pub.files[f"teams/all/{first['sno']}.html"])
    for code in ("GPTS", "BH:MP"):
        part = g.tiebreak_detail.filter((pl.col("sno") == first["sno"]) & (pl.col("code") == code))
        assert part["value"].sum() == first[code]
        assert f"{code}: {first[code]:g}" in team
    assert "How the tie-breaks work" in text(pub.files["standings/round-03.html"])

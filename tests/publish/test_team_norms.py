"""Title norms in a team competition (FIDE B.01 1.4.1b, 1.4.3b): the demo team Swiss
(``inputs/county-team-championship-2026/``, three of seven rounds played) run as a World or
Continental team championship — its rosters made strong (ratings + 350, boards 1-2 GMs, the
others IMs, a federation per team) — and the demo league before its last round."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import polars as pl
import pytest

from flows import io as flows_io
from flows.kinds.team.flow import publish
from flows.site.pages import Publication, event_context
from transforms.kinds import parse_event_config
from transforms.team.event import RULE_STEPS, TeamRun, prepare
from transforms.team.schemas import SCHEMAS

ROOT = Path(__file__).resolve().parents[2] / "inputs"
NORMS = '\n[norms]\nevent_type = "international-team-championship"\nhost_federation = "BEL"\n'
FEDS = {"RIV": "ENG", "NOR": "GER"}


def strong(raw: dict) -> dict:
    """The rosters made a title tournament's: +350, GMs on boards 1-2, IMs below, a federation
    per team (by its id's first letter)."""
    rosters, found = raw["rosters.csv"]
    feds = ["ENG", "GER", "FRA", "NED", "BEL", "ESP", "POL"]
    rosters = rosters.with_columns(
        (pl.col("rating").cast(pl.Int64) + 350).cast(pl.String).alias("rating"),
        pl.when(pl.col("board").cast(pl.Int64) <= 2).then(pl.lit("GM")).otherwise(pl.lit("IM"))
        .alias("title"),
        pl.col("team_id").map_elements(lambda t: feds[ord(t[0]) % len(feds)],
                                       return_dtype=pl.String).alias("federation"))
    return raw | {"rosters.csv": (rosters, found)}


def run_event(folder: str, extra: str, *, strengthen: bool) -> tuple[Publication, TeamRun, list]:
    toml = (ROOT / folder / "event.toml").read_text() + extra
    cfg = parse_event_config(toml)
    raw = {n: flows_io.read_csv_strings(ROOT / folder / n) for n in SCHEMAS
           if (ROOT / folder / n).exists()}
    run = prepare(cfg, strong(raw) if strengthen else raw, cfg.event.as_of)
    for _, step in RULE_STEPS:
        step(run)
    pub = Publication(Path("unused"), ctx=event_context(cfg, run.as_of))
    return pub, run, publish(pub, cfg, run, run.as_of)


@pytest.fixture(scope="module")
def county():
    return run_event("county-team-championship-2026", NORMS, strengthen=True)


def text(html: str | bytes) -> str:
    body = html if isinstance(html, str) else html.decode()
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", body)).split())


def test_every_player_is_evaluated_on_their_games_over_the_board(county):
    _, run, _ = county
    (g,) = run.groups
    assert g.norms is not None and g.norms.through == g.done == 3
    played = (g.games.filter((pl.col("round") <= 3) & (pl.col("kind") == "played"))
              .group_by("pno").len())
    counted = {p.applicant.sno: len(p.evaluations[0].games) for p in g.norms.players}
    assert counted and all(counted[pno] == n for pno, n in zip(played["pno"], played["len"])
                           if pno in counted)
    # 1.4.1b: seven games are enough in a team championship of seven rounds
    e = g.norms.players[0].evaluations[0]
    assert next(r for r in e.requirements if r.key == "games").needed == "at least 7"


def test_the_forecast_of_the_remaining_rounds_is_on_the_norms_page_and_the_players_page(county):
    pub, run, letters = county
    (g,) = run.groups
    assert g.norms.forecasts
    page = text(pub.files["norms.html"])
    assert "Still in reach before round 4" in page
    sno = min(g.norms.forecasts)
    player = text(pub.files[f"players/{g.id}/{sno}.html"])
    assert "norm: before round 4" in player and "from the next 4 rounds" in player
    assert 'href="norms.html#all"' in pub.files["index.html"]
    told = [x for x in letters for b in x.blocks if b.heading == "Title norms"]
    assert told and all(x.kind == "player-round" for x in told)
    assert "against opponents averaging at least" in " ".join(
        line for x in told for b in x.blocks for line in b.lines)


def test_a_league_is_a_round_robin_whose_norms_wait_for_its_last_round():
    _, run, _ = run_event("district-league-2025", NORMS.replace(
        "international-team-championship", "open"), strengthen=True)
    for g in run.groups:
        if g.norms is None:
            continue
        assert g.norms.event.predetermined and not g.norms.achieved()
        assert all(any(r.key == "all_rounds" for r in e.requirements)
                   for p in g.norms.players for e in p.evaluations)


def test_a_team_event_without_norms_shows_none():
    pub, run, letters = run_event("county-team-championship-2026", "", strengthen=False)
    assert all(g.norms is None for g in run.groups)
    assert "norms.html" not in pub.files
    assert not any(b.heading == "Title norms" for x in letters for b in x.blocks)

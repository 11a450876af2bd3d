"""A league's next season takes its divisions from the previous season's final standings
(``[team_round_robin] previous``, issue 47): promoted teams one division up, relegated ones one
down, the others where they were; a division typed otherwise is kept with a warning; a previous
season that is not complete (or not there) moves no one, with a warning. The previous season
is the demo league's generator played to its last round."""

from __future__ import annotations

import datetime as dt
import functools
from pathlib import Path

import polars as pl

from flows.devtools.demo.league import demo_league_files
from transforms.core.errors import Severity
from transforms.core.results import Source
from transforms.kinds import parse_event_config
from transforms.team.config import TeamRoundRobinConfig, TeamRules
from transforms.team.event import prepare, standings

ROOT = Path(__file__).resolve().parents[2]
TOML = (ROOT / "inputs" / "district-league-2025" / "event.toml").read_text(encoding="utf-8")
AS_OF = dt.date(2026, 8, 1)


@functools.lru_cache(maxsize=2)
def season(through: int):
    """The previous season (the demo league's files, ``through`` rounds played) as a Source
    (made once per module: frames are not changed by the rulebook)."""
    cfg = parse_event_config(TOML.replace('id = "district-league-2025"', 'id = "district-league-2024"'))
    files = demo_league_files(cfg.require(TeamRules), cfg.require(TeamRoundRobinConfig), through=through)
    raw = {n: (f.with_row_index("line", offset=2).with_columns(pl.col("line").cast(pl.Int64),
                                                              pl.all().exclude("line").cast(pl.String)), [])
           for n, f in files.items()}
    return cfg, raw, Source("district-league-2024", cfg, raw)


def next_season(previous: Source, divisions: dict[str, str] | None = None, teams_of: Source | None = None):
    """This season: the same teams (``teams_of``'s, else the previous season's), teams.csv
    without divisions (or with ``divisions``)."""
    cfg = parse_event_config(TOML.replace("[team_round_robin]\n",
                                          '[team_round_robin]\nprevious = "district-league-2024"\n'))
    raw = {n: v for n, v in (teams_of or previous).raw.items() if n != "results.csv"}  # the season starts
    teams = raw["teams.csv"][0].with_columns(pl.lit(None, pl.String).alias("division"))
    if divisions:
        teams = teams.with_columns(pl.col("team_id").replace_strict(divisions, default=None).alias("division"))
    raw["teams.csv"] = (teams, [])
    return prepare(cfg, raw, AS_OF, [previous])


def test_promoted_and_relegated_teams_change_division_the_others_stay():
    cfg, raw, previous = season(through=10)
    last = prepare(cfg, raw, AS_OF)
    standings(last)
    final = {g.id: [dict(zip(g.teams["sno"], g.teams["team_id"], strict=True))[s]
                    for s in g.rankings[g.done]["sno"]] for g in last.groups}
    premier, first = final["premier"], final["division-1"]
    run = next_season(previous)
    assert not [f for f in run.findings if f.severity is Severity.ERROR], run.findings
    now = {g.id: sorted(g.teams["team_id"].to_list()) for g in run.groups}
    assert now["premier"] == sorted([*premier[:-1], first[0]])  # relegated = 1, promoted = 1
    assert now["division-1"] == sorted([premier[-1], *first[1:]])


def test_a_typed_division_that_differs_is_kept_with_a_warning():
    cfg, raw, previous = season(through=10)
    last = prepare(cfg, raw, AS_OF)
    standings(last)
    g = next(g for g in last.groups if g.id == "premier")
    bottom = dict(zip(g.teams["sno"], g.teams["team_id"], strict=True))[g.rankings[g.done]["sno"][-1]]
    run = next_season(previous, {bottom: "premier"})
    warned = [f for f in run.findings if f.file == "teams.csv" and f.column == "division"]
    assert [(f.value, f.severity) for f in warned] == [("premier", Severity.WARNING)]
    assert "the previous season puts it in division-1" in warned[0].reason and "relegated" in warned[0].reason
    assert bottom in next(g for g in run.groups if g.id == "premier").teams["team_id"].to_list()


def test_an_incomplete_or_missing_previous_season_moves_no_one():
    _, _, previous = season(through=6)
    run = next_season(previous)
    said = [f for f in run.findings if f.column == "team_round_robin.previous"]
    assert len(said) == 1 and said[0].severity is Severity.WARNING and "not complete" in said[0].reason
    assert any(f.file == "teams.csv" and f.column == "division" and f.severity is Severity.ERROR
               for f in run.findings)  # no division typed, none earned: each team's row says so
    gone = next_season(Source("district-league-2024", missing=True), teams_of=previous)
    assert any("no such event folder" in f.reason for f in gone.findings)

"""NJ 2024 Eligibility, seeded players, from the earlier events' results (issue 47): "Top four
players from 2023 National Junior (Under-19) Open & Girls Chess Championships are eligible to
participate as seeded players" — ``[entries.seed_from]`` names the 2023 event; a seeded entry
claiming the route must be in its top four, and one that names no route takes the route it
earned (transforms/national_junior/entries.py ``earned_seeds``)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from flows import io
from transforms.core.errors import ConfigError
from transforms.core.results import EventResult, Finish, Source
from transforms.kinds import earlier_results, event_sources, parse_event_config
from transforms.swiss.event import prepare

ROOT = Path(__file__).resolve().parents[2]
NJ = ROOT / "inputs" / "national-junior-2024"
SEED_FROM = """
[entries.seed_from]
nj2023_top4_open = { event = "national-junior-2023", section = "open", places = 4 }
"""


def nj(extra: str = SEED_FROM, players: pl.DataFrame | None = None):
    cfg = parse_event_config((NJ / "event.toml").read_text(encoding="utf-8") + extra)
    raw = {n: io.read_csv_strings(NJ / n) for n in cfg.files if (NJ / n).exists()}
    if players is not None:
        raw["players.csv"] = (players, [])
    return cfg, raw


def earlier_2023(*top: tuple[str, str]) -> dict[str, EventResult]:
    """The 2023 National Junior's Open as its results give it: ``top`` (name, FIDE id) in
    places 1, 2, …, then others."""
    finishes = [Finish(str(i), name, "open", i, 9.0 - i, fide_id=fid)
                for i, (name, fid) in enumerate(top, start=1)]
    finishes += [Finish("99", "Someone, Else", "open", len(top) + 1, 1.0, fide_id="1")]
    return {"national-junior-2023": EventResult("national-junior-2023", "National Junior 2023",
                                                dt.date(2023, 9, 1), dt.date(2023, 9, 10), 11, 11,
                                                tuple(finishes), (("open", "Open"),))}


def decision(run, pid: str) -> dict:
    return run.entries.decisions.filter(pl.col("player_id") == pid).row(0, named=True)


def test_the_event_reads_the_events_its_seed_routes_name():
    cfg, _ = nj()
    assert event_sources(cfg) == ("national-junior-2023",)


def test_a_claimed_route_not_earned_is_rejected_naming_those_who_earned_it():
    cfg, raw = nj()
    # O081 by FIDE id, O082 by name in another order; O083 not among the top four
    top = earlier_2023(("Chatterjee, Tanmay", "25633621"), ("Siddharth VERMA", ""),
                       ("Rao, Arjun", "99"), ("Nair, Vikram", "98"))
    run = prepare(cfg, raw, cfg.event.as_of, earlier=top)
    assert decision(run, "O081")["status"] == decision(run, "O082")["status"] == "accepted"
    o083 = decision(run, "O083")
    assert o083["status"] == "rejected"
    assert "not among the top 4 of National Junior 2023 (open)" in o083["reasons"]
    assert "1. Chatterjee, Tanmay" in o083["reasons"]
    assert any(f.file == "players.csv" and f.column == "seed_reason" and "top 4" in f.reason
               for f in run.findings)


def test_a_seeded_entry_without_a_route_takes_the_one_it_earned():
    players, _ = io.read_csv_strings(NJ / "players.csv")
    players = players.with_columns(pl.when(pl.col("player_id") == "O083").then(pl.lit(""))
                                   .otherwise(pl.col("seed_reason")).alias("seed_reason"))
    cfg, raw = nj(players=players)
    top = earlier_2023(("Chatterjee, Tanmay", "25633621"), ("Verma, Siddharth", "25641540"),
                       ("Sharma, Karthik", "25649459"))
    run = prepare(cfg, raw, cfg.event.as_of, earlier=top)
    assert decision(run, "O083")["status"] == "accepted"
    listed = run.entries.entry_list.filter(pl.col("player_id") == "O083")
    assert listed["seed_reason"].to_list() == ["nj2023_top4_open"]


def test_a_place_shared_at_the_edge_of_the_route_is_held_by_each_who_shares_it_with_a_warning():
    cfg, raw = nj()
    top = earlier_2023(("Chatterjee, Tanmay", "25633621"), ("Verma, Siddharth", "25641540"),
                       ("Sharma, Karthik", "25649459"), ("Nair, Vikram", "98"))
    result = top["national-junior-2023"]
    shared = [*result.finishes[:3], dataclasses.replace(result.finishes[3], rank=3),
              *result.finishes[4:]]   # 3rd place shared by two: five hold the top four
    top = {"national-junior-2023": dataclasses.replace(result, finishes=tuple(shared))}
    run = prepare(cfg, raw, cfg.event.as_of, earlier=top)
    warned = [f for f in run.findings if f.column == "entries.seed_from.nj2023_top4_open"]
    assert [f.severity.value for f in warned] == []   # the top four are four here
    shared = [*shared[:4], dataclasses.replace(shared[4], rank=4)]
    top = {"national-junior-2023": dataclasses.replace(result, finishes=tuple(shared))}
    run = prepare(cfg, raw, cfg.event.as_of, earlier=top)
    warned = [f for f in run.findings if f.column == "entries.seed_from.nj2023_top4_open"]
    assert [f.severity.value for f in warned] == ["warning"]
    assert "5 players hold the top 4 places" in warned[0].reason


def test_a_route_whose_event_cannot_be_read_is_taken_as_typed_with_a_warning():
    cfg, raw = nj()
    run = prepare(cfg, raw, cfg.event.as_of, earlier={})
    assert decision(run, "O083")["status"] == "accepted"
    assert [(f.column, f.severity.value) for f in run.findings
            if f.column.startswith("entries.seed_from")] == [
        ("entries.seed_from.nj2023_top4_open", "warning")]


def test_the_earlier_event_is_read_as_its_last_good_publication_when_it_must_be():
    good = Source("x.trf", text=(ROOT / "tests" / "data" / "series" /
                                 "hbcc_2025_april_blitz.trf").read_text())
    got = earlier_results([Source("x.trf", error="unreadable", fallback=good),
                           Source("y", missing=True)], dt.date(2025, 5, 1))
    assert list(got) == ["x.trf"] and len(got["x.trf"].finishes) == 44


@pytest.mark.parametrize("table, key", [
    ('[entries.seed_from]\nnot_a_route = { event = "x" }\n', "entries.seed_from.not_a_route"),
    ('[entries.seed_from]\nnj2023_top4_open = { event = "../x" }\n', "entries.seed_from"),
    ('[entries.seed_from]\nnj2023_top4_open = { event = "x", places = 0 }\n', "entries.seed_from"),
])
def test_a_bad_seed_source_names_its_key(table, key):
    with pytest.raises(ConfigError) as e:
        nj(table)
    assert e.value.key.startswith(key)

"""Every text that states a rule value reads it from the configuration: change the value in
the event's configuration and the new value is in the output (pages, certificates, findings).
Runs the rulebook and the page builders on the demo events, without Prefect."""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace

import polars as pl
import pytest

from flows import io
from flows.kinds.correspondence import site as gk_pages
from flows.kinds.correspondence.flow import compute
from flows.kinds.swiss import pages as swiss_pages
from flows.parts.national_junior import pages as nj_pages
from flows.site.pages import Publication, event_context
from transforms.core.ingest import validate_files
from transforms.golden_knights.rules import GKRules
from transforms.golden_knights.schemas import REQUIRED as GK_REQUIRED
from transforms.golden_knights.schemas import SCHEMAS as GK_SCHEMAS
from transforms.kinds import parse_event_config
from transforms.national_junior.entries import JuniorEntryRules
from transforms.national_junior.part import NationalJuniorPlay
from transforms.national_junior.schemas import SCHEMAS as SWISS_SCHEMAS
from transforms.swiss.config import SwissConfig
from transforms.swiss.event import prepare, run_swiss

ROOT = Path(__file__).resolve().parents[2]
NJ = ROOT / "inputs" / "national-junior-2024"
GK = ROOT / "inputs" / "golden-knights-2019"


def raw_inputs(folder: Path, schemas) -> dict:
    return {n: io.read_csv_strings(folder / n) for n in schemas if (folder / n).exists()}


@pytest.fixture(scope="module")
def swiss_run():
    cfg = parse_event_config((NJ / "event.toml").read_text())
    return run_swiss(cfg, raw_inputs(NJ, SWISS_SCHEMAS), cfg.event.as_of)


@pytest.fixture(scope="module")
def gk_event():
    cfg = parse_event_config((GK / "event.toml").read_text())
    typed, _ = validate_files(raw_inputs(GK, GK_SCHEMAS), GK_SCHEMAS, GK_REQUIRED)
    return cfg, typed


def with_swiss(run, **changes):
    cfg = run.cfg
    cfg = cfg.with_table("swiss", dataclasses.replace(cfg.table(SwissConfig), **changes.pop("swiss", {})))
    cfg = cfg.with_table("entries", dataclasses.replace(cfg.table(JuniorEntryRules), **changes.pop("entries", {})))
    return dataclasses.replace(run, cfg=cfg)


def page(pub: Publication, rel: str) -> str:
    return pub.files[rel]


def test_nj_boarding_lump_sum_in_the_ledger_note_is_the_configured_one(swiss_run):
    run = with_swiss(swiss_run, entries={"boarding_lump_sum": Decimal(1750)})
    pub = Publication(Path("unused"), ctx=event_context(run.cfg, run.as_of))
    nj_pages.entries(pub, run)
    assert "Boarding: Rs 1,750 per selected" in page(pub, "office/entries.html")
    assert "Rs 1,500" not in page(pub, "office/entries.html")


@pytest.mark.parametrize("shared, text", [
    (False, "Cash prizes are not shared"),
    (True, "share the prizes of their places equally"),
])
def test_prize_sharing_note_follows_prizes_shared(swiss_run, shared, text):
    run = with_swiss(swiss_run, swiss={"prizes_shared": shared})
    pub = Publication(Path("unused"), ctx=event_context(run.cfg, run.as_of))
    swiss_pages.prizes(pub, run)
    html = page(pub, "prizes.html")
    assert text in html
    other = "Cash prizes are not shared" if shared else "share the prizes of their places"
    assert other not in html


def test_early_draw_flag_uses_the_configured_move_and_is_off_without_it():
    cfg = parse_event_config((NJ / "event.toml").read_text())
    raw = raw_inputs(NJ, SWISS_SCHEMAS)

    def early(c):
        run = prepare(c, raw, c.event.as_of)
        return [f.reason for f in run.findings if f.column == "moves"]

    assert early(cfg) and all("(before move 30)" in r for r in early(cfg))
    later = cfg.with_table("national_junior", dataclasses.replace(cfg.table(NationalJuniorPlay),
                                                                  draw_consent_before_move=40))
    assert len(early(later)) > len(early(cfg)) and all("(before move 40)" in r for r in early(later))
    off = cfg.with_table("national_junior", dataclasses.replace(cfg.table(NationalJuniorPlay),
                                                                draw_consent_before_move=None))
    assert early(off) == []


def gk_pages_with(cfg, typed, **rule_changes) -> Publication:
    rules = dataclasses.replace(cfg.table(GKRules), **rule_changes)
    cfg = cfg.with_table("golden_knights", rules)
    res = compute(cfg, typed, cfg.event.as_of)
    pub = Publication(Path("unused"), ctx=event_context(cfg, cfg.event.as_of))
    gk_pages.publish_event(pub, cfg, rules, res, cfg.event.as_of)
    return pub


def test_gk_stage_weights_and_their_maximum_are_the_configured_ones(gk_event):
    cfg, typed = gk_event
    pub = gk_pages_with(cfg, typed, stage_weights=(Decimal("1.0"), Decimal("2.0"), Decimal("5.0")))
    html = page(pub, "standings.html")
    assert "Wins weigh 1.0 in the preliminaries, 2.0 in the semifinals and 5.0 in the final" in html
    assert "(maximum 48.00)" in html  # 6 games x (1.0 + 2.0 + 5.0)
    assert "46.20" not in html and "2.2" not in html.split("Wins weigh")[1][:80]


def test_gk_prize_base_entries_is_the_configured_one(gk_event):
    cfg, typed = gk_event
    html = page(gk_pages_with(cfg, typed, prize_base_entries=180), "prizes.html")
    assert "based on 180 entries" in html and "based on 200 entries" not in html


def test_gk_certificate_names_the_configured_organiser_event_and_director(gk_event):
    cfg, typed = gk_event
    cfg = dataclasses.replace(cfg, event=dataclasses.replace(
        cfg.event, organiser="Example Correspondence Federation", name="Example Cup 2031"))
    pub = gk_pages_with(cfg, typed, director="Chief Correspondence Arbiter")
    certificates = [h for rel, h in pub.pdfs.items() if rel.startswith("certificates/")]
    assert certificates
    for html in certificates:
        assert "Example Correspondence Federation" in html and "US Chess" not in html
        assert "Semifinalist of the Example Cup 2031" in html
        assert "Chief Correspondence Arbiter" in html


def test_gk_crosstable_shows_as_many_seats_as_the_configured_section_size(gk_event):
    cfg, _ = gk_event
    seats = 9
    frame = pl.DataFrame({
        "stage": ["preliminary"] * seats, "section": ["P01"] * seats,
        "seat": list(range(1, seats + 1)), "entry_id": [f"E{i}" for i in range(seats)],
        "name": [f"N{i}" for i in range(seats)], "rating": [1500] * seats,
        **{f"c{k}": ["½"] * seats for k in range(1, seats + 1)},
        "score": [4.0] * seats, "section_complete": [True] * seats})
    rules = dataclasses.replace(cfg.table(GKRules), section_size=9, games_per_player=8,
                                whites_per_player=4)
    (section,) = gk_pages.crosstable_sections(SimpleNamespace(crosstables=frame), rules)
    labels = [c.label for c in section.tables[0].columns]
    first = labels.index("Rtg") + 1
    assert labels[first:first + seats] == [str(k) for k in range(1, seats + 1)]


def test_gk_fee_rejection_states_the_configured_fee_in_the_event_currency(gk_event):
    cfg, typed = gk_event
    res = compute(cfg.with_table("golden_knights", dataclasses.replace(
        cfg.table(GKRules), entry_fee=Decimal("30.00"))), typed, dt.date(2026, 11, 15))
    reasons = res.entries.filter(pl.col("reason").str.contains("fee paid below"))["reason"]
    assert reasons.len() and all("$30.00 entry fee" in r for r in reasons)

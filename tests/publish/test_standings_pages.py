"""The standings pages, the tie-break explanations (standings/explained.html) and the players'
pages show DE as FIDE C.07 art. 6 defines it: a place where DE decided, nothing where it did not, and the
article that decided each tie group. Runs the rulebook and the page builders on the National
Junior demo, without Prefect.

With the demo's own order (BH-C1, BH, SB before DE) DE never decides: every DE cell is empty.
With DE right after the points it decides twice after round 11 (the places below were
checked against FIDE TEC's TieBreakServer on the demo's event-*.trf exports, both orders).
"""

from __future__ import annotations

import dataclasses
import io
import re
from pathlib import Path

import polars as pl
import pytest

from flows import io as flows_io
from flows.kinds.swiss import pages as swiss_pages
from flows.kinds.swiss import players as swiss_players
from flows.site.pages import Publication, event_context
from transforms.kinds import parse_event_config
from transforms.national_junior.schemas import SCHEMAS as SWISS_SCHEMAS
from transforms.swiss.config import SwissConfig
from transforms.swiss.event import run_swiss

NJ = Path(__file__).resolve().parents[2] / "inputs" / "national-junior-2024"


def raw_inputs(folder: Path) -> dict:
    return {n: flows_io.read_csv_strings(folder / n) for n in SWISS_SCHEMAS if (folder / n).exists()}


def _published(tiebreaks: tuple[str, ...] | None = None) -> dict[str, str]:
    cfg = parse_event_config((NJ / "event.toml").read_text())
    if tiebreaks is not None:
        cfg = cfg.with_table("swiss", dataclasses.replace(cfg.table(SwissConfig), tiebreaks=tiebreaks))
    run = run_swiss(cfg, raw_inputs(NJ), cfg.event.as_of)
    pub = Publication(Path("unused"), ctx=event_context(run.cfg, run.as_of))
    swiss_pages.rounds_pages(pub, run)
    swiss_players.player_pages(pub, run)
    return pub.files


@pytest.fixture(scope="module")
def demo_order() -> dict[str, str]:
    return _published()


@pytest.fixture(scope="module")
def de_first() -> dict[str, str]:
    return _published(("DE", "BH-C1", "BH", "SB", "WIN", "BWG"))


def _csv(files: dict[str, str], rnd: int) -> pl.DataFrame:
    frame = pl.read_csv(io.StringIO(files[f"standings/round-{rnd:02d}.csv"]), infer_schema_length=0)
    return frame.with_columns(pl.col("rank", "sno").cast(pl.Int64), pl.col("DE").cast(pl.Float64))


def _notes(files: dict[str, str]) -> list[str]:
    return re.findall(r'<p class="note">([^<]*)</p>', files["standings/explained.html"])


def test_with_the_demo_order_de_never_decides_and_every_de_cell_is_empty(demo_order):
    for rnd in range(1, 12):
        assert _csv(demo_order, rnd)["DE"].null_count() == _csv(demo_order, rnd).height
    notes = _notes(demo_order)
    group = [n for n in notes if n.startswith("Direct encounter, 5 pts, tie group 70, 73:")]
    assert group == ["Direct encounter, 5 pts, tie group 70, 73: not all met: C.07 6.3, a player "
                     "is placed only if alone at the top whatever the missing games; points "
                     "among them 70: 0 (at most 1), 73: 0 (at most 1); nobody is alone at the "
                     "top whatever the missing games: DE does not apply."]
    # no DE value: a dash on the players' pages (the tie-break table of 70 and 73), whose
    # notes name the group and why DE does not apply
    for sno in (70, 73):
        html = demo_order[f"players/open/{sno}.html"]
        assert '<td class="">DE</td><td class="num">—</td>' in html
        assert "Direct encounter: tie group 70, 73: not all met: C.07 6.3" in html


def test_where_de_decides_the_cell_is_the_place_and_the_page_names_the_article(de_first):
    final = _csv(de_first, 11).filter(pl.col("DE").is_not_null())
    got = {(r["category"], r["sno"]): (r["rank"], r["DE"]) for r in final.iter_rows(named=True)}
    assert got == {("open", 103): (103, 1.0), ("open", 90): (104, 2.0),
                   ("girls", 2): (4, 1.0), ("girls", 8): (5, 2.0), ("girls", 3): (6, 2.0),
                   ("girls", 5): (7, 2.0), ("girls", 7): (8, 2.0), ("girls", 12): (9, 2.0),
                   ("girls", 13): (10, 2.0)}
    girls = [n for n in _notes(de_first)
             if n.startswith("Direct encounter, 7.5 pts, tie group 2, 3, 5, 7, 8, 12, 13:")]
    assert len(girls) == 1
    assert "not all met: C.07 6.3" in girls[0] and "2: 5.5 (at most 5.5)" in girls[0]
    assert girls[0].endswith("DE places 2: 1, 3: 2, 5: 2, 7: 2, 8: 2, 12: 2, 13: 2.")


def test_standings_tables_say_what_the_de_column_holds(demo_order):
    assert f'<p class="note">{swiss_pages.DE_CAPTION}</p>' in demo_order["standings/round-11.html"]
    assert swiss_pages.DE_CAPTION in demo_order["standings/explained.html"]

"""An event taken over from a TRF keeps its history exactly (DESIGN.md, TRF import)."""

import datetime as dt
from pathlib import Path

import polars as pl
from polars.testing import assert_frame_equal

from flows import io
from transforms.core.config import parse_event_config
from transforms.core.ingest import SWISS_SCHEMAS
from transforms.fide.trf import parse_trf, write_trf
from transforms.swiss import event as swiss
from transforms.swiss import rounds as sr
from transforms.swiss.takeover import players_from_trf, results_from_trf

ROOT = Path(__file__).resolve().parent.parent
NJ = ROOT / "inputs" / "national-junior-2024"

TAKEOVER = """
[event]
id = "takeover"
name = "Taken over"
kind = "swiss"
start = 2024-09-16
end = 2024-09-24
venue = "v"
organiser = "o"
currency = "INR"
contact = "c"
[publish]
sender = "a@b.example"
[swiss]
rounds = 11
dutch_edition = "2017"
categories = [{ id = "open", name = "Open" }]
"""


def demo_run():
    cfg = parse_event_config((NJ / "event.toml").read_text())
    raw = {n: io.read_csv_strings(NJ / n) for n in SWISS_SCHEMAS if (NJ / n).exists()}
    return swiss.prepare(cfg, raw, cfg.event.as_of)


def test_scorecard_survives_export_to_trf_and_takeover():
    run = demo_run()
    c = run.categories[0]
    text = write_trf(swiss.engine_input(run, c, c.done + 1, sr.RoundSetup({}, frozenset())))
    t = parse_trf(text)
    players = players_from_trf(t, section="open", registered_at=dt.datetime(2024, 9, 1))
    results = results_from_trf(t)
    raw = {"players.csv": (players.with_row_index("line", offset=2).with_columns(pl.col("line").cast(pl.Int64)), []),
           "results.csv": (results.with_row_index("line", offset=2).with_columns(pl.col("line").cast(pl.Int64)), [])}
    taken = swiss.prepare(parse_event_config(TAKEOVER), raw, dt.date(2024, 9, 24))
    assert not taken.blocked, taken.findings
    t2 = taken.categories[0]
    assert t2.done == c.done
    # player_id is the start number, and start numbers are kept
    assert_frame_equal(t2.card.sort("sno", "round"), c.card.sort("sno", "round"))
    assert results.filter(pl.col("result") == "+/-").height >= 1  # the demo's forfeit

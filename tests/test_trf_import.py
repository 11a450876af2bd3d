"""An event taken over from a TRF keeps its history exactly (DESIGN.md, TRF import)."""

import datetime as dt
from pathlib import Path

import polars as pl
from polars.testing import assert_frame_equal

from flows import io
from transforms.fide.trf import parse_trf, write_trf
from transforms.kinds import parse_event_config
from transforms.national_junior.schemas import SCHEMAS as SWISS_SCHEMAS
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
    players = players_from_trf(t, section="open")
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


def demo_trf() -> tuple[str, list[int], int]:
    """The demo's first category as a TRF before its next round: (text, start numbers, rounds)."""
    run = demo_run()
    c = run.categories[0]
    t = write_trf(swiss.engine_input(run, c, c.done + 1, sr.RoundSetup({}, frozenset())))
    parsed = parse_trf(t)
    return t, [p.sno for p in parsed.players], parsed.total_rounds


def test_import_trf_writes_an_event_that_reads_and_keeps_its_acceleration(tmp_path):
    """FIDE C.04.5: a file without virtual points gives ``acceleration = "none"``; one whose
    XXA/250 records are the Baku method's (C.04.5.1) gives ``"baku"``: the next rounds are
    paired on the same scores as in the program the event came from."""
    from flows.cli.demo_inputs import import_trf
    from transforms.core.model import Acceleration
    from transforms.fide.acceleration import acceleration_records

    text, snos, rounds = demo_trf()
    plain, baku = tmp_path / "plain.trf", tmp_path / "baku.trf"
    plain.write_text(text)
    baku.write_text(text.rstrip("\n") + "\n" + "\n".join(
        acceleration_records(Acceleration.BAKU, snos, rounds)) + "\n")
    for trf, want in ((plain, Acceleration.NONE), (baku, Acceleration.BAKU)):
        event = tmp_path / trf.stem
        written = import_trf(trf, event, category="open")
        assert {p.name for p in written} == {"players.csv", "results.csv", "event.toml"}
        cfg = parse_event_config((event / "event.toml").read_text())
        assert cfg.swiss.acceleration is want and cfg.swiss.rounds == rounds


def test_import_trf_refuses_virtual_points_it_cannot_carry_on(tmp_path, capsys):
    """Decision: virtual points that are not the Baku method's are refused with the first
    player and round that differ (exit 2, nothing written), never dropped."""
    from flows.cli.main import main
    from transforms.fide.acceleration import baku_virtual_points, virtual_points_records

    text, snos, rounds = demo_trf()
    points = baku_virtual_points(snos, rounds)
    first = min(points)
    points[first] = (0.5, *points[first][1:])  # round 1: half a point where Baku gives one
    trf = tmp_path / "other.trf"
    trf.write_text(text.rstrip("\n") + "\n" + "\n".join(virtual_points_records(points)) + "\n")
    event = tmp_path / "event"
    assert main(["import-trf", str(trf), str(event)]) == 2
    err = capsys.readouterr().err
    assert f"player {first} round 1: 0.5" in err and "C.04.5.1 gives 1" in err
    assert not event.exists() or not any(event.iterdir())

"""The audit of recorded rounds pairs again only what changed (issue 26): a round's pairing is
keyed by what it is made from (``transforms.swiss.event.pairing_key``: the engine's TRF of the
history before it, the edition, the rules parts, the category's players); a run given the
pairings of a previous one takes those whose key it has and pairs the others. The flow keeps
them in the event's manifest with the program that made them, and an event built on them is
byte for byte the event built from scratch."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest

from flows import io
from tests.bad_input_events import SWISS_FILES, write_event
from tests.conftest import TIMED, output_files
from transforms.kinds import parse_event_config
from transforms.national_junior.schemas import SCHEMAS
from transforms.swiss import event as swiss

ROOT = Path(__file__).resolve().parents[2]
NJ = ROOT / "inputs" / "national-junior-2024"


def audited(folder: Path, known: dict | None = None) -> swiss.SwissRun:
    cfg = parse_event_config((folder / "event.toml").read_text())
    raw = {n: io.read_csv_strings(folder / n) for n in SCHEMAS if (folder / n).exists()}
    run = swiss.prepare(cfg, raw, cfg.event.as_of)
    run.known_pairings = dict(known or {})
    swiss.rank_rounds(run)
    swiss.audit_rounds(run)
    return run


@pytest.fixture(scope="module")
def demo():
    return audited(NJ)


def test_every_audited_round_of_the_demo_is_taken_from_its_previous_pairings(demo, monkeypatch):
    rounds = sum(c.done for c in demo.categories)
    assert len(demo.pairings) == rounds == 22 and demo.reused == 0

    def no_engine(*args, **kwargs):
        raise AssertionError("paired again")

    monkeypatch.setattr(swiss, "pair_with", no_engine)
    again = audited(NJ, demo.pairings)
    assert again.reused == rounds
    assert [(c.audit, c.rule_logs) for c in again.categories] == \
        [(c.audit, c.rule_logs) for c in demo.categories]
    assert again.pairings == demo.pairings


def test_a_changed_result_pairs_again_only_the_rounds_after_it(demo, tmp_path):
    folder = tmp_path / "nj"
    shutil.copytree(NJ, folder)
    results = pl.read_csv(folder / "results.csv", infer_schema=False)
    row = results.with_row_index().filter((pl.col("round") == "8") & (pl.col("result") == "1-0")
                                          & pl.col("white_id").str.starts_with("O")).row(0, named=True)
    results = results.with_columns(result=pl.when(pl.int_range(pl.len()) == row["index"])
                                   .then(pl.lit("0-1")).otherwise(pl.col("result")))
    results.write_csv(folder / "results.csv")
    again = audited(folder, demo.pairings)
    fresh = audited(folder)
    open_ = again.category("open")
    assert again.reused == sum(c.done for c in again.categories) - (open_.done - 8)  # rounds 9-11 of open
    assert [(c.audit, c.rule_logs) for c in again.categories] == \
        [(c.audit, c.rule_logs) for c in fresh.categories]
    assert again.pairings == fresh.pairings


def test_a_different_edition_or_player_list_is_another_key(demo, tmp_path):
    folder = tmp_path / "nj"
    shutil.copytree(NJ, folder)
    toml = (folder / "event.toml").read_text()
    (folder / "event.toml").write_text(toml.replace('dutch_edition = "2017"', 'dutch_edition = "2025"'))
    assert audited(folder, demo.pairings).reused == 0
    shutil.copy(NJ / "event.toml", folder / "event.toml")
    players = pl.read_csv(folder / "players.csv", infer_schema=False)
    players.with_columns(name=pl.when(pl.col("player_id") == "G001").then(pl.lit("Renamed, Girl"))
                         .otherwise(pl.col("name"))).write_csv(folder / "players.csv")
    again = audited(folder, demo.pairings)
    girls = again.category("girls")
    assert again.reused == again.category("open").done  # the girls' rounds are paired again
    assert girls.done and len(again.pairings) == sum(c.done for c in again.categories)


def test_a_round_played_as_published_is_not_paired_again(tmp_path, monkeypatch):
    """The next round's pairing is kept under its key: the run after its results are in takes
    the audit of it from there (the demo's rounds were paired by this engine)."""
    folder = tmp_path / "nj"
    shutil.copytree(NJ, folder)
    full = pl.read_csv(NJ / "results.csv", infer_schema=False)
    full.filter(pl.col("round").cast(pl.Int64) <= 4).write_csv(folder / "results.csv")
    before = audited(folder)
    swiss.pair_next_rounds(before)
    assert all(c.pairing is not None and c.pairing.round == 5 for c in before.categories)
    assert len(before.pairings) == sum(c.done + 1 for c in before.categories)
    full.filter(pl.col("round").cast(pl.Int64) <= 5).write_csv(folder / "results.csv")

    def no_engine(*args, **kwargs):
        raise AssertionError("paired again")

    monkeypatch.setattr(swiss, "pair_with", no_engine)
    after = audited(folder, before.pairings)
    assert after.reused == sum(c.done for c in after.categories) == 10
    assert all(c.audit == [] for c in after.categories)


def test_the_rounds_paired_again_may_be_paired_by_any_mapper(demo):
    """The audit pairs its unknown rounds through the caller's ``mapper`` (the flow's worker
    processes); the result is the same as one after the other."""
    seen = []

    def mapper(fn, jobs):
        jobs = list(jobs)
        seen.extend(j.round for j in jobs)
        done = {id(j): fn(j) for j in reversed(jobs)}  # paired in another order
        return [done[id(j)] for j in jobs]

    again = swiss.prepare(demo.cfg, {n: io.read_csv_strings(NJ / n) for n in SCHEMAS
                                     if (NJ / n).exists()}, demo.cfg.event.as_of)
    swiss.audit_rounds(again, mapper)
    assert len(seen) == sum(c.done for c in again.categories)
    assert [(c.audit, c.rule_logs) for c in again.categories] == \
        [(c.audit, c.rule_logs) for c in demo.categories]
    assert again.pairings == demo.pairings


def test_an_event_built_on_its_last_runs_pairings_equals_one_built_from_scratch(prefect_harness,
                                                                               tmp_path):
    from flows.pipeline.events import run_events
    from flows.pipeline.outputs import known_pairings

    inputs, fresh_inputs = tmp_path / "inputs", tmp_path / "fresh-inputs"
    event = write_event(inputs / "tiny-swiss", SWISS_FILES)
    out, fresh = tmp_path / "out", tmp_path / "fresh"
    assert run_events(inputs, out, send_mail=False) == {"tiny-swiss": "ok"}
    assert len(known_pairings(out / "tiny-swiss")) == 3  # the two played rounds, round 3 published
    text = (event / "results.csv").read_text()
    (event / "results.csv").write_text(text.replace("2,3,S6,S5,1-0", "2,3,S6,S5,0-1"))
    assert run_events(inputs, out, send_mail=False) == {"tiny-swiss": "ok"}
    shutil.copytree(inputs, fresh_inputs)
    assert run_events(fresh_inputs, fresh, send_mail=False) == {"tiny-swiss": "ok"}
    assert output_files(out / "tiny-swiss", TIMED) == output_files(fresh / "tiny-swiss", TIMED)


def swap_blacks(folder: Path, rnd: int, boards: tuple[str, str]) -> None:
    """The Open's round ``rnd`` as recorded, with the Black players of two boards exchanged."""
    results = pl.read_csv(NJ / "results.csv", infer_schema=False)
    part = results.filter(pl.col("round").cast(pl.Int64) <= rnd)
    at = (pl.col("round") == str(rnd)) & pl.col("white_id").str.starts_with("O")
    x, y = (part.filter(at & (pl.col("board") == b))["black_id"][0] for b in boards)
    part.with_columns(black_id=pl.when(at & (pl.col("board") == boards[0])).then(pl.lit(y))
                      .when(at & (pl.col("board") == boards[1])).then(pl.lit(x))
                      .otherwise(pl.col("black_id"))).write_csv(folder / "results.csv")


def test_a_departure_is_kept_with_the_recorded_round_it_departs_from(tmp_path, monkeypatch):
    """A round the engine would pair otherwise is kept as its departure (the bracket and pair
    where the engine stopped) together with the recorded pairing: the next run takes it while
    the round is recorded the same, and pairs it again once the recorded pairing changes,
    though the history before it (the key) is the same."""
    folder = tmp_path / "nj"
    shutil.copytree(NJ, folder)
    swap_blacks(folder, 3, ("1", "2"))
    first = audited(folder)
    assert [d["round"] for d in first.category("open").audit] == [3]
    assert [v for v in first.pairings.values() if "departure" in v]

    def no_engine(*args, **kwargs):
        raise AssertionError("paired again")

    with monkeypatch.context() as m:
        m.setattr(swiss, "pair_with", no_engine)
        again = audited(folder, first.pairings)
    assert again.reused == sum(c.done for c in again.categories)
    assert [c.audit for c in again.categories] == [c.audit for c in first.categories]
    assert again.pairings == first.pairings

    swap_blacks(folder, 3, ("3", "4"))  # the same history before round 3, another round 3
    other = audited(folder, first.pairings)
    fresh = audited(folder)
    assert other.reused == sum(c.done for c in other.categories) - 1
    assert [c.audit for c in other.categories] == [c.audit for c in fresh.categories]
    assert other.category("open").audit != first.category("open").audit

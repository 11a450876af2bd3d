"""An event with ``swiss.acceleration = "baku"`` (FIDE C.04.5.1): the option is validated at
load, the engine pairs on pairing scores (points + virtual points, written to the event's TRF
as ``XXA``/``250``), and the standings, tie-breaks, TRF points column and prizes never see the
virtual points. The event is the National Junior demo with the option switched on."""

from __future__ import annotations

import argparse
import io
import shutil
import sys
from pathlib import Path

import polars as pl
import pytest

from flows import io as fio
from flows.verify import crosscheck
from transforms.core.errors import ConfigError
from transforms.core.model import Acceleration
from transforms.fide.acceleration import baku_group_size, virtual_points
from transforms.fide.trf import parse_trf, write_trf
from transforms.kinds import parse_event_config
from transforms.national_junior.schemas import SCHEMAS as SWISS_SCHEMAS
from transforms.swiss import event as swiss
from transforms.swiss.config import SwissConfig
from transforms.swiss.rounds import RoundSetup

ROOT = Path(__file__).resolve().parents[2]
NJ = ROOT / "inputs" / "national-junior-2024"


def event_folder(tmp_path: Path, *, acceleration: str | None, through: int) -> Path:
    folder = tmp_path / f"nj-{acceleration}"
    shutil.copytree(NJ, folder)
    toml = (NJ / "event.toml").read_text()
    if acceleration is not None:
        toml = toml.replace("[swiss]\n", f'[swiss]\nacceleration = "{acceleration}"\n', 1)
    (folder / "event.toml").write_text(toml)
    full = pl.read_csv(NJ / "results.csv", infer_schema=False)
    full.filter(pl.col("round").cast(pl.Int64) <= through).write_csv(folder / "results.csv")
    return folder


def run_of(folder: Path):
    cfg = parse_event_config((folder / "event.toml").read_text())
    raw = {n: fio.read_csv_strings(folder / n) for n in SWISS_SCHEMAS if (folder / n).exists()}
    return swiss.run_swiss(cfg, raw, cfg.event.as_of)


def test_acceleration_is_none_unless_the_event_says_baku():
    toml = (NJ / "event.toml").read_text()
    assert parse_event_config(toml).require(SwissConfig).acceleration is Acceleration.NONE
    cfg = parse_event_config(toml.replace("[swiss]\n", '[swiss]\nacceleration = "baku"\n', 1))
    assert cfg.require(SwissConfig).acceleration is Acceleration.BAKU


def test_an_unknown_acceleration_is_an_error_naming_the_file_and_key():
    toml = (NJ / "event.toml").read_text().replace(
        "[swiss]\n", '[swiss]\nacceleration = "haley"\n', 1)
    with pytest.raises(ConfigError) as e:
        parse_event_config(toml, file="inputs/nj/event.toml")
    assert e.value.key == "swiss.acceleration" and "'baku'" in e.value.reason
    assert "inputs/nj/event.toml" in str(e.value)


def test_accelerated_event_pairs_on_pairing_scores_and_writes_them_to_its_trf(tmp_path):
    plain = run_of(event_folder(tmp_path, acceleration=None, through=1))
    baku = run_of(event_folder(tmp_path, acceleration="baku", through=1))
    for cp, cb in zip(plain.categories, baku.categories):
        assert cb.pairing.round == 2 and cb.pairing.boards != cp.pairing.boards
        t = swiss.engine_input(baku, cb, 2, RoundSetup({}, frozenset()))
        n = cb.players.height
        ga = baku_group_size(n)
        assert sorted(virtual_points(t)) == list(range(1, ga + 1))
        assert virtual_points(t)[1] == (1.0, 1.0, 1.0, 0.5, 0.5, 0.5)   # 11 rounds
        text = write_trf(t)
        assert f"XXA {ga:04d}  1.0" in text and f"250       1.0 001 003 0001 {ga:04d}" in text
        assert virtual_points(parse_trf(text)) == virtual_points(t)


def test_standings_tiebreaks_trf_points_and_prizes_never_include_virtual_points(tmp_path):
    # the same recorded games, once with the option and once without: standings and prizes
    # are identical; the audit shows that the engine did pair on pairing scores
    plain = run_of(event_folder(tmp_path, acceleration=None, through=11))
    baku = run_of(event_folder(tmp_path, acceleration="baku", through=11))
    for cp, cb in zip(plain.categories, baku.categories):
        assert cb.done == cp.done == 11
        for r in range(1, 12):
            assert cb.rankings[r].equals(cp.rankings[r])
            real = cb.card.filter(pl.col("round") <= r).group_by("sno").agg(pl.col("points").sum())
            got = cb.rankings[r].join(real, on="sno", suffix="_real")
            assert (got["points"] == got["points_real"]).all()
        assert cb.prizes is not None and cb.prizes.equals(cp.prizes)
        assert cp.audit == [] and cb.audit != []   # the demo was paired without acceleration
        t = swiss.engine_input(baku, cb, 12, RoundSetup({}, frozenset()))
        real = dict(cb.card.group_by("sno").agg(pl.col("points").sum()).iter_rows())
        assert {p.sno: p.points for p in t.players} == real
        assert virtual_points(t)   # the file still carries them (they are for rounds 1-6)


def test_crosscheck_with_baku_acceleration_writes_the_virtual_points_into_every_file(tmp_path):
    engine = [sys.executable, "-m", "flows.cli.main", "pair"]
    checks = crosscheck.play_event(engine, 12, 4, 3, "2025", tmp_path, acceleration="baku")
    assert len(checks) == 4 and all(c.same for c in checks)
    files = sorted(tmp_path.glob("*.trf"))
    assert len(files) == 4
    for f in files:   # 12 players: GA = 1..6; 4 rounds: 1 point in round 1, 1/2 in round 2
        text = f.read_text()
        assert "XXA 0006  1.0  0.5" in text and "XXA 0007" not in text
    args = argparse.Namespace(engine=" ".join(engine), events=1, players="12", rounds=4,
                              edition="2017", seed=3, acceleration="baku")
    out = io.StringIO()
    assert crosscheck.run(args, out=out) == crosscheck.EXIT_SAME, out.getvalue()
    assert "4 of 4 rounds identical (100.0%)" in out.getvalue()

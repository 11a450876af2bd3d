"""``chessfed generate`` (flows/verify/generator.py): a random tournament paired by chessfed's
Dutch engine, reproducible from its seed (FIDE C.04 endorsement of a program: a random
tournament generator)."""

from __future__ import annotations

import argparse
import hashlib

import pytest

from flows.verify import generate as generate_cli
from flows.verify.generator import GeneratorParams, generate
from transforms.core.model import Kind
from transforms.fide.dutch.engine import pair_round
from transforms.fide.trf import parse_trf

BUSY = GeneratorParams(players=24, rounds=7, rating_min=1200, rating_max=2400, draw_rate=0.3,
                       forfeit_rate=0.08, hpb_rate=0.08, withdrawal_rate=0.04, seed=11)


def test_same_seed_same_bytes_other_seed_other_tournament():
    a, b = generate(BUSY), generate(BUSY)
    assert a.text == b.text
    c = generate(GeneratorParams(**{**BUSY.__dict__, "seed": 12}))
    assert c.text != a.text
    d = generate(GeneratorParams(**{**BUSY.__dict__, "edition": "2017"}))
    assert "092 FIDE_DUTCH_2017" in d.text and "092 FIDE_DUTCH_2025" in a.text


def test_every_round_is_chessfeds_pairing_and_the_rates_show():
    g = generate(BUSY)
    assert g.rounds_paired == 7 and g.stopped_at is None
    t = parse_trf(g.text)
    assert t.total_rounds == 7 and len(t.players) == 24
    for r in range(1, 8):
        assert set(pair_round(t.before_round(r), round_no=r)) == t.pairing_of(r), r
    kinds = [row[5] for row in t.card_rows]
    for kind in (Kind.HPB, Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS, Kind.ABSENT, Kind.PLAYED):
        assert str(kind) in kinds, kind
    # a withdrawn player stays absent to the end; no half-point bye in the last round
    absent = {row[1] for row in t.card_rows if row[5] == Kind.ABSENT}
    for s in absent:
        first = min(row[0] for row in t.card_rows if row[1] == s and row[5] == Kind.ABSENT)
        assert all(row[5] == Kind.ABSENT for row in t.card_rows if row[1] == s and row[0] > first)
    assert not [row for row in t.card_rows if row[0] == 7 and row[5] == Kind.HPB]
    ratings = [p.rating for p in t.players]
    assert ratings == sorted(ratings, reverse=True) and 1200 <= min(ratings) <= max(ratings) <= 2400


def test_draw_rate_drives_the_draws():
    def draws(rate: float) -> int:
        t = parse_trf(generate(GeneratorParams(players=40, rounds=5, draw_rate=rate,
                                               forfeit_rate=0, hpb_rate=0, withdrawal_rate=0,
                                               seed=3)).text)
        return sum(1 for row in t.card_rows if row[5] == Kind.PLAYED and row[4] == 0.5)
    assert draws(0.0) == 0
    assert draws(1.0) == 2 * 20 * 5
    assert 0 < draws(0.3) < 2 * 20 * 5


def test_no_valid_pairing_stops_the_tournament():
    g = generate(GeneratorParams(players=4, rounds=5, forfeit_rate=0, hpb_rate=0,
                                 withdrawal_rate=0, seed=1))
    assert g.stopped_at is not None and g.rounds_paired == g.stopped_at - 1
    assert max(row[0] for row in parse_trf(g.text).card_rows) == g.rounds_paired


def test_bad_parameters_are_named():
    with pytest.raises(ValueError, match="draw rate must be between 0 and 1"):
        generate(GeneratorParams(draw_rate=1.5))
    assert GeneratorParams(players=1, rating_min=2000, rating_max=1000).problems() == [
        "players must be at least 2, not 1",
        "ratings must satisfy 0 <= min <= max <= 3500, not 2000..1000"]


def _args(out, **kw) -> argparse.Namespace:
    base = dict(players=12, rounds=5, rating_min=1400, rating_max=2200, draw_rate=0.3,
                forfeit_rate=0.02, hpb_rate=0.02, withdrawal_rate=0.01, edition="2025",
                seed=7, out=str(out))
    return argparse.Namespace(**{**base, **kw})


def test_command_writes_the_same_file_twice(tmp_path, capsys):
    a, b = tmp_path / "a.trf", tmp_path / "b.trf"
    assert generate_cli.run(_args(a)) == 0
    assert generate_cli.run(_args(b)) == 0
    assert hashlib.sha256(a.read_bytes()).digest() == hashlib.sha256(b.read_bytes()).digest()
    assert generate_cli.run(_args(tmp_path / "c.trf", seed=8)) == 0
    assert (tmp_path / "c.trf").read_bytes() != a.read_bytes()
    assert generate_cli.run(_args(tmp_path / "d.trf", hpb_rate=2.0)) == 2
    assert "half-point bye rate must be between 0 and 1" in capsys.readouterr().err
    assert not (tmp_path / "d.trf").exists()

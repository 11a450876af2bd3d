"""The audit's check of a recorded round (``transforms.fide.dutch.engine.check_pairing``, FIDE
C.04.3 A.9: brackets are paired from the top down and a bracket's pairs are final) gives the
same verdict as pairing the whole round and comparing: the engine's own pairing is returned
whole, exactly as ``pair_round`` gives it; a recorded pairing the engine would not make stops
the engine at a bracket whose pairs it names — each of them a pair of the engine's whole pairing
that the recorded round does not have. Generated fields of both editions, below and above the
150 players where the 2025 rules take their large-field paths."""

from __future__ import annotations

import random

import pytest

from flows.devtools.demo.random_events import random_tournament
from transforms.core.errors import NoValidPairing
from transforms.fide.dutch.engine import Departure, check_pairing, pair_round
from transforms.fide.trf import recorded_pairing

CASES = [(edition, n, rnd, seed)
         for edition in ("2017", "2025")
         for n, rnd, seed in [(9, 4, 1), (16, 7, 2), (31, 3, 3), (31, 9, 4), (60, 6, 5),
                              (121, 5, 6), (160, 2, 7), (201, 4, 8)]]


def unordered(boards) -> set:
    return {frozenset(x for x in b if x is not None) | ({0} if None in b else set()) for b in boards}


def engine_pairing(t, rnd, edition):
    try:
        return pair_round(t, round_no=rnd, edition=edition)
    except NoValidPairing:
        return None


@pytest.mark.parametrize("edition, n, rnd, seed", CASES)
def test_the_engines_own_pairing_is_returned_whole(edition, n, rnd, seed):
    t = random_tournament(n, rnd - 1, total_rounds=9, seed=8000 + seed, edition=edition)
    boards = engine_pairing(t, rnd, edition)
    if boards is None:
        pytest.skip("no valid pairing of this generated round")
    assert check_pairing(t, boards, round_no=rnd, edition=edition) == boards


@pytest.mark.parametrize("edition, n, rnd, seed", CASES)
def test_another_programs_pairing_departs_where_the_engine_pairs_otherwise(edition, n, rnd, seed):
    # the generator's own next round: a greedy pairer's, not the Dutch system's
    t = random_tournament(n, rnd - 1, total_rounds=9, seed=8000 + seed, edition=edition)
    played = random_tournament(n, rnd, total_rounds=9, seed=8000 + seed, edition=edition)
    recorded = recorded_pairing(played.card_rows, rnd)
    boards = engine_pairing(t, rnd, edition)
    if boards is None:
        pytest.skip("no valid pairing of this generated round")
    got = check_pairing(t, recorded, round_no=rnd, edition=edition)
    if unordered(boards) == unordered(recorded):
        assert got == boards
        return
    assert isinstance(got, Departure) and got.pairs
    mine, theirs = unordered(boards), unordered(recorded)
    for a, b in got.pairs:
        assert a < b and {a, b} in mine and {a, b} not in theirs


@pytest.mark.parametrize("edition, n, rnd, seed", CASES)
def test_one_changed_board_departs_and_colours_alone_do_not(edition, n, rnd, seed):
    t = random_tournament(n, rnd - 1, total_rounds=9, seed=8000 + seed, edition=edition)
    boards = engine_pairing(t, rnd, edition)
    if boards is None or len([b for b in boards if b[1] is not None]) < 2:
        pytest.skip("no two games to exchange")
    games = [b for b in boards if b[1] is not None]
    rng = random.Random(seed)
    (w1, b1), (w2, b2) = rng.sample(games, 2)
    # the Black players of two boards exchanged: the engine stops at the first bracket that
    # holds one of the four players, naming a pair it makes and the recorded round does not
    swapped = [b for b in boards if b not in ((w1, b1), (w2, b2))] + [(w1, b2), (w2, b1)]
    got = check_pairing(t, swapped, round_no=rnd, edition=edition)
    assert isinstance(got, Departure)
    assert {frozenset(p) for p in got.pairs} <= {frozenset((w1, b1)), frozenset((w2, b2))}
    # the colours of one board exchanged: every bracket's pairs are recorded, so the whole
    # pairing comes back (the caller sees the colours differ)
    turned = [(b1, w1) if b == (w1, b1) else b for b in boards]
    assert check_pairing(t, turned, round_no=rnd, edition=edition) == boards

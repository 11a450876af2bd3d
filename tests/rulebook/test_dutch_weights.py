"""The 2025 engine's whole-graph weight rows (rules_2025 ``RoundWeights.outside_rows``
and ``first_rows``) are the per-edge weights of FIDE C.04.3 (2025) C1-C9, computed a row at
a time: checked edge by edge on generated tournaments, with forfeits, byes and absences."""

from __future__ import annotations

import random

import pytest

from flows.devtools.demo.random_events import random_tournament
from transforms.core.model import DutchEdition
from transforms.fide.dutch.criteria import compatible
from transforms.fide.dutch.engine import build_context
from transforms.fide.dutch.rules_2025 import RoundWeights


def contexts(seed: int):
    rng = random.Random(seed)
    for k in range(12):
        n = rng.choice([9, 20, 57, 120])
        total = rng.choice([5, 9, 11])
        t = random_tournament(n, rng.randint(0, total - 1), total_rounds=total, seed=seed * 100 + k,
                              edition="2025", bye_rate=0.05, forfeit_rate=0.03)
        ctx = build_context(t, None, DutchEdition.RULES_2025, frozenset())
        if ctx.players:
            yield ctx


@pytest.mark.parametrize("seed", range(2))
def test_outside_rows_equal_the_edge_weights(seed):
    for ctx in contexts(seed):
        ps = ctx.players
        W = RoundWeights(ctx)
        W.bye_score = ps[len(ps) // 2].score
        counts = sorted((p.played_games for p in ps if p.score == W.bye_score), reverse=True)
        for rank, c in enumerate(counts):
            W.unplayed_rank[c] = rank
        for single in (False, True):
            W.single_downfloater_bye = single
            rows = W.outside_rows()
            assert [len(r) for r in rows] == list(range(len(ps)))
            for i in range(len(ps)):
                for j in range(i):
                    assert rows[i][j] == W.weight(ps[j], ps[i], False, False)


@pytest.mark.parametrize("seed", range(2))
def test_first_rows_give_incompatible_pairs_no_edge(seed):
    """C1/C3: a forbidden pair or an absolute colour clash has weight 0; every other pair
    carries C4/C5 (bye eligibility, score groups) and the top-group flag."""
    for ctx in contexts(seed):
        ps = ctx.players
        W = RoundWeights(ctx)
        top = ps[0].score
        rows = W.first_rows(top)
        for i in range(len(ps)):
            for j in range(i):
                ok = compatible(ps[i], ps[j], ctx)
                assert (rows[i][j] > 0) == ok
                if ok:
                    expect = 1 + (not W.elig[ps[i].sno]) + (not W.elig[ps[j].sno])
                    expect = (expect << W.sg_shift) | (W.shift[ps[i].score] + W.shift[ps[j].score])
                    expect = (expect << W.sg_bits) | (ps[i].score >= top)
                    assert rows[i][j] == expect


@pytest.mark.parametrize("seed", range(2))
def test_bracket_rows_equal_the_edge_weights(seed):
    """``RoundWeights.row`` (memoised on what the criteria read of each player) gives every
    bracket edge the weight ``RoundWeights.weight`` gives it: C1 forbidden pairs stay 0, and the
    bye assignee's score group and the single-downfloater state are part of the memo."""
    for ctx in contexts(seed):
        ps = ctx.players
        W = RoundWeights(ctx)
        for bye_score, single in ((0, False), (ps[-1].score, True), (ps[len(ps) // 2].score, False)):
            W.bye_score, W.single_downfloater_bye = bye_score, single
            counts = sorted((p.played_games for p in ps if p.score == bye_score), reverse=True)
            W.unplayed_rank = {c: rank for rank, c in enumerate(counts)}
            for o in range(1, len(ps), 3):
                for lo_in in (True, False):
                    assert W.row(ps[:o], ps[o], lo_in) == [
                        W.weight(hi, ps[o], lo_in, not lo_in) for hi in ps[:o]]


@pytest.mark.parametrize("seed", range(2))
def test_2017_bracket_rows_equal_the_edge_weights(seed):
    """``rules_2017.BracketWeights.row`` (memoised) equals ``BracketWeights.weight`` edge by
    edge, for ordinary, final and special (single-group) brackets."""
    from transforms.fide.dutch.rules_2017 import BracketWeights

    rng = random.Random(seed)
    for ctx in contexts(10 + seed):
        ps = ctx.players
        if len(ps) < 4:
            continue
        for special, final in ((False, False), (False, True), (True, False)):
            sgb = rng.randint(0, len(ps) // 4)
            nsgb = rng.randint(sgb + 1, len(ps) - 1)
            br = BracketWeights(ctx, ps, sgb, nsgb, special, final)
            for o in range(sgb, len(ps)):
                assert br.row(o) == [br.weight(ps[p], ps[o], p < nsgb, o < nsgb)
                                     for p in range(o)]


@pytest.mark.parametrize("edition", list(DutchEdition))
@pytest.mark.parametrize("seed", range(3))
def test_compatible_rows_equal_compatible_pair_by_pair(seed, edition):
    """criteria.compatible_rows (the 2017 completion graph, evaluated only where a pair can
    fail) equals compatible() on every pair: forbidden pairs (C1), absolute colour clashes
    (C3) and, in the last round, the topscorers' exception to C3."""
    from transforms.fide.dutch.criteria import compatible_rows

    rng = random.Random(40 + seed)
    last_rounds = 0
    for k in range(12):
        n = rng.choice([9, 20, 57, 120])
        total = rng.choice([5, 9, 11])
        played = total - 1 if k % 3 == 0 else rng.randint(0, total - 1)
        t = random_tournament(n, played, total_rounds=total, seed=seed * 100 + k,
                              edition=edition.value, bye_rate=0.05, forfeit_rate=0.03)
        ctx = build_context(t, None, edition, frozenset())
        ps = ctx.players
        last_rounds += ctx.last_round()
        rows = compatible_rows(ps, ctx)
        assert rows == [[int(compatible(ps[i], ps[j], ctx)) for j in range(i)]
                        for i in range(len(ps))]
    assert last_rounds >= 4

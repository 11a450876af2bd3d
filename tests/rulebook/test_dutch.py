"""FIDE Dutch system (C.04.3) engine: conformance with the FIDE-endorsed bbpPairings on the
reference cases (tests/data/dutch, see SOURCE.md), and one test per rule on small fields.

Small fields are drawn as crosstables: ``1-2 1-0`` means 1 (White) beat 2."""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import polars as pl
import pytest

from transforms.core.errors import NoValidPairing
from transforms.core.model import SCORECARD_SCHEMA, Colour, DutchEdition
from transforms.fide.dutch.criteria import compatible, eligible_for_bye_2017, eligible_for_bye_2025
from transforms.fide.dutch.engine import build_context, pair_round
from transforms.fide.trf import ForbiddenPairs, parse_trf, tournament_from_scorecard, write_trf

CORE_NAMES = ("python", "compiled")
"""Both matching cores pair every reference case (a missing compiled core fails here: the
install did not build it)."""

DATA = Path(__file__).parents[1] / "data" / "dutch"


# ----------------------------------------------------------------------------- conformance


def _cases(edition: str) -> list[tuple[str, str, str]]:
    rows = (DATA / edition / "index.tsv").read_text().splitlines()[1:]
    out = []
    for row in rows:
        f = row.split("\t")
        out.append((f"{f[0]}/{Path(f[5]).stem}", str(DATA / edition / f[5]),
                    str(DATA / edition / f[6])))
    return out


def _expected(path: str) -> set[tuple[int, int | None]]:
    out: set[tuple[int, int | None]] = set()
    for line in Path(path).read_text().splitlines():
        x = line.split()
        if len(x) == 2:
            out.add((int(x[0]), int(x[1])))
        elif len(x) == 1:
            out.add((int(x[0]), None))
    return out


def _run_chunk(chunk: list[tuple[str, str, str]], core: str) -> list[str]:
    """Pair every case of ``chunk``; return the ids whose pairing (with colours) differs."""
    differing = []
    for case, trf, expected in chunk:
        t = parse_trf(Path(trf).read_text(), source=trf)
        try:
            got = set(pair_round(t, core=core))
        except NoValidPairing:
            got = set()
        if got != _expected(expected):
            differing.append(case)
    return differing


def _run_all(cases: list[tuple[str, str, str]], core: str) -> list[str]:
    workers = max(1, min(4, os.cpu_count() or 1))
    chunks = [cases[i::workers * 4] for i in range(workers * 4)]
    if workers == 1:
        return sorted(c for ch in chunks for c in _run_chunk(ch, core))
    # spawn, not fork: polars' thread pool in this process must not be forked
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        return sorted(c for res in pool.map(_run_chunk, chunks, [core] * len(chunks))
                      for c in res)


def _disputed() -> set[str]:
    lines = (DATA / "2025" / "disputed.txt").read_text().splitlines()
    return {ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")}


@pytest.mark.parametrize("core", CORE_NAMES)
def test_dutch_2017_conformance_all_215_cases_identical_with_colours(core):
    cases = _cases("2017")
    assert len(cases) == 215
    assert _run_all(cases, core) == []


@pytest.mark.parametrize("core", CORE_NAMES)
def test_dutch_2025_conformance_206_undisputed_cases_identical_with_colours(core):
    disputed = _disputed()
    cases = [c for c in _cases("2025") if c[0] not in disputed]
    assert len(cases) == 206
    assert _run_all(cases, core) == []


@pytest.mark.parametrize("core", CORE_NAMES)
def test_dutch_2025_disputed_cases_follow_bbppairings(core):
    """Decision: where JaVaFo 3.0p and bbpPairings v6.0.0 disagree on the 2025 rules (16
    cases with forfeits and byes), we pair as bbpPairings: an unplayed round is a float only
    if it scored points (2025 A.4), and PAB/FPB/forfeit wins use up the bye (2025 C2)."""
    disputed = _disputed()
    cases = [c for c in _cases("2025") if c[0] in disputed]
    assert len(cases) == 16
    assert _run_all(cases, core) == []


# ----------------------------------------------------------------------------- small fields


def make(n: int, rounds: list[list[str]] = (), *, byes: dict[tuple[int, int], str] = None,
         total: int | None = 5, initial: Colour = Colour.WHITE, edition: str = "2025",
         ratings: list[int] | None = None, forbidden=()):
    """A tournament of ``n`` players (1 strongest) from rounds of boards such as "1-2 1-0"
    (white-black result; ``+/-``, ``-/+`` forfeits) and byes {(round, sno): PAB|HPB|...}."""
    rows = []
    pts = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "=": (0.5, 0.5), "+/-": (1.0, 0.0),
           "-/+": (0.0, 1.0)}
    for r, boards in enumerate(rounds, start=1):
        for b in boards:
            pair, res = b.split()
            w, bl = (int(x) for x in pair.split("-"))
            pw, pb = pts[res]
            kw, kb = ("played", "played")
            if res == "+/-":
                kw, kb = "forfeit_win", "forfeit_loss"
            if res == "-/+":
                kw, kb = "forfeit_loss", "forfeit_win"
            rows.append({"round": r, "sno": w, "opponent": bl, "colour": "w", "points": pw,
                         "kind": kw})
            rows.append({"round": r, "sno": bl, "opponent": w, "colour": "b", "points": pb,
                         "kind": kb})
    for (r, s), kind in (byes or {}).items():
        p = {"PAB": 1.0, "FPB": 1.0, "HPB": 0.5, "ZPB": 0.0, "absent": 0.0}[kind]
        rows.append({"round": r, "sno": s, "opponent": None, "colour": None, "points": p,
                     "kind": kind})
    card = pl.DataFrame(rows, schema=SCORECARD_SCHEMA, orient="row") if rows else \
        pl.DataFrame(schema=SCORECARD_SCHEMA)
    players = pl.DataFrame({"sno": list(range(1, n + 1)),
                            "name": [f"P{i}" for i in range(1, n + 1)],
                            "rating": ratings or [2500 - 10 * i for i in range(n)]})
    return tournament_from_scorecard(players, card, name="t", total_rounds=total,
                                     initial_colour=initial, edition=edition,
                                     forbidden_pairs=forbidden)


def pairs(boards) -> set[frozenset]:
    return {frozenset(b) for b in boards}


@pytest.mark.parametrize("edition", ["2017", "2025"])
def test_dutch_round_1_pairs_top_half_against_bottom_half(edition):
    # 1-5, 6-2, 3-7, 8-4 (C.04.3 B/D: S1 vs S2; E.5: colours alternate from player 1)
    assert pair_round(make(8, edition=edition)) == [(1, 5), (6, 2), (3, 7), (8, 4)]


def test_dutch_E5_initial_colour_black1_gives_player_1_black():
    boards = pair_round(make(8, initial=Colour.BLACK))
    assert boards == [(5, 1), (2, 6), (7, 3), (4, 8)]


def test_dutch_C1_no_rematch():
    # round 1: 1-3 1-0, 2-4 1-0 → round 2 scores 1,2 | 3,4; 1-2 and 3-4 are new pairs
    t = make(4, [["1-3 1-0", "4-2 0-1"]])
    assert pairs(pair_round(t)) == {frozenset({1, 2}), frozenset({3, 4})}
    # round 2 played 1-2 and 3-4 → round 3 must avoid both rematches
    t = make(4, [["1-3 1-0", "4-2 0-1"], ["2-1 0-1", "3-4 1-0"]])
    got = pairs(pair_round(t))
    assert frozenset({1, 3}) not in got and frozenset({1, 2}) not in got
    assert got == {frozenset({1, 4}), frozenset({2, 3})}


def test_dutch_C1_forfeited_game_is_not_a_game_so_they_may_meet_again():
    # round 1 both games forfeited: 1-3 +/-, 4-2 -/+ ; 1 and 3 never played
    played = make(4, [["1-3 1-0", "4-2 0-1"], ["2-1 0-1", "3-4 1-0"]])
    forfeit = make(4, [["1-3 +/-", "4-2 -/+"], ["2-1 0-1", "3-4 1-0"]])
    assert frozenset({1, 3}) not in pairs(pair_round(played))
    assert frozenset({1, 3}) in pairs(pair_round(forfeit))


def test_dutch_C2_no_second_pairing_allocated_bye():
    # 5 players: round 1 bye to 5; round 2 the bye must go to someone else
    t = make(5, [["1-3 1-0", "4-2 0-1"]], byes={(1, 5): "PAB"})
    boards = pair_round(t)
    assert boards[-1][1] is None and boards[-1][0] != 5


@pytest.mark.parametrize("kind, eligible_2017, eligible_2025", [
    ("PAB", False, False), ("FPB", True, False), ("HPB", True, True), ("ZPB", True, True),
])
def test_dutch_C2_bye_eligibility_2017_and_2025(kind, eligible_2017, eligible_2025):
    """2017 C2: a player who received a PAB (or a point without playing in a paired round)
    cannot get the bye; 2025 C2 adds any unplayed win: full-point bye, forfeit win."""
    t = make(3, [["1-2 1-0"]], byes={(1, 3): kind})
    ctx = build_context(t, None, DutchEdition.RULES_2025, frozenset())
    p3 = next(p for p in ctx.players if p.sno == 3)
    assert eligible_for_bye_2017(p3) is eligible_2017
    assert eligible_for_bye_2025(p3) is eligible_2025


@pytest.mark.parametrize("edition, eligible", [(DutchEdition.RULES_2017, False),
                                               (DutchEdition.RULES_2025, False)])
def test_dutch_C2_forfeit_win_uses_up_the_bye(edition, eligible):
    t = make(4, [["1-3 +/-", "2-4 1-0"]])
    ctx = build_context(t, None, edition, frozenset())
    p1 = next(p for p in ctx.players if p.sno == 1)
    check = eligible_for_bye_2017 if edition is DutchEdition.RULES_2017 else eligible_for_bye_2025
    assert check(p1) is eligible


def test_dutch_C3_two_players_with_the_same_absolute_preference_do_not_meet():
    # 1 and 2 had White twice (absolute preference for Black); 3 and 4 had Black twice;
    # all on 1 point, so 1-2 and 3-4 would be the natural pairs
    t = make(8, [["1-3 =", "2-4 =", "5-6 =", "7-8 ="], ["1-4 =", "2-3 =", "6-5 =", "8-7 ="]],
             total=5)
    got = pairs(pair_round(t))
    assert frozenset({1, 2}) not in got and frozenset({3, 4}) not in got


def test_dutch_C3_topscorers_with_the_same_absolute_preference_compatible_only_last_round():
    """C3: two players with the same absolute colour preference may meet in the last round
    if one of them is a topscorer (Decision: more than 50% of the maximum score)."""
    rounds = [["1-3 1-0", "4-2 0-1", "5-6 =", "7-8 ="],
              ["5-1 0-1", "2-7 1-0", "3-6 =", "8-4 ="],
              ["1-4 1-0", "2-5 1-0", "6-7 =", "3-8 ="],
              ["1-6 1-0", "2-8 1-0", "7-3 =", "4-5 ="]]
    for total, allowed in ((5, True), (9, False)):
        ctx = build_context(make(8, rounds, total=total), None, DutchEdition.RULES_2025,
                            frozenset())
        p1, p2 = (next(p for p in ctx.players if p.sno == s) for s in (1, 2))
        assert p1.absolute and p2.absolute and p1.preference == p2.preference
        assert compatible(p1, p2, ctx) is allowed


def test_dutch_requested_byes_and_absences_are_not_paired():
    t = make(6, [["1-4 1-0", "5-2 0-1", "3-6 1-0"]], byes={(2, 2): "HPB", (2, 6): "ZPB"})
    boards = pair_round(t)
    paired = {x for b in boards for x in b if x is not None}
    assert paired == {1, 3, 4, 5}


def test_dutch_round_no_defaults_to_the_next_round_and_can_be_given():
    t = make(4, [["1-3 1-0", "4-2 0-1"], ["2-1 0-1", "3-4 1-0"]])
    assert pair_round(t) == pair_round(t, round_no=3)
    assert pairs(pair_round(t, round_no=2)) == {frozenset({1, 2}), frozenset({3, 4})}


def test_dutch_forbidden_pairs_from_the_file_and_from_the_caller():
    assert frozenset({1, 5}) in pairs(pair_round(make(8)))
    xxp = make(8, forbidden=[ForbiddenPairs((1, 5))])
    assert frozenset({1, 5}) not in pairs(pair_round(xxp))
    extra = pair_round(make(8), extra_forbidden=frozenset({frozenset({1, 5})}))
    assert frozenset({1, 5}) not in pairs(extra)


def test_dutch_no_valid_pairing_raises():
    # two players who already played each other
    with pytest.raises(NoValidPairing):
        pair_round(make(2, [["1-2 1-0"]]))


def test_dutch_board_order_by_scores_then_rank_bye_last():
    t = make(5, [["1-3 0-1", "4-2 0-1"]], byes={(1, 5): "PAB"})
    boards = pair_round(t)
    tops = [max(b, key=lambda s: (s is not None, -(s or 0))) for b in boards[:-1]]
    scores = {1: 0, 2: 1, 3: 1, 4: 0, 5: 1}
    hi = [max(scores[w], scores[b]) for w, b in boards[:-1]]
    assert hi == sorted(hi, reverse=True) and tops
    assert boards[-1][1] is None


def test_dutch_edition_from_argument_else_file_else_2025():
    t = make(8, edition=None)
    assert t.edition is None
    text = write_trf(make(8, [["1-5 1-0", "6-2 0-1", "3-7 =", "8-4 0-1"]], edition="2017"))
    assert "092 FIDE_DUTCH_2017" in text
    with pytest.raises(ValueError):
        pair_round(t, edition="1992")


def test_dutch_same_answer_from_trf_text_and_from_frames():
    t = make(7, [["1-4 1-0", "5-2 =", "3-6 0-1"]], byes={(1, 7): "PAB"})
    assert pair_round(parse_trf(write_trf(t))) == pair_round(t)

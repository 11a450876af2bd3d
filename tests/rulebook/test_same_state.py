"""National Junior 2024 "System of Play": no same-state games among the top 50% in the last
round (transforms/same_state.py), a declared departure from FIDE C.04.3."""

from __future__ import annotations

from tests.rulebook.test_dutch import make, pairs
from transforms.fide.dutch.engine import pair_round
from transforms.national_junior.same_state import pair_round_same_state, top_half

#   after round 2 of 3:  1: 2   2: 2   3: 1   4: 1   5: 1   8: 1   6: 0   7: 0
ROUNDS_A = [["1-5 1-0", "6-2 0-1", "3-7 1-0", "8-4 0-1"],
            ["1-3 1-0", "4-2 0-1", "5-7 1-0", "8-6 1-0"]]


def test_same_state_top_players_are_not_paired_in_the_last_round():
    t = make(8, ROUNDS_A, total=3)
    assert frozenset({1, 2}) in pairs(pair_round(t))  # plain Dutch: the two leaders meet
    boards, log = pair_round_same_state(t, {1: "TN", 2: "TN"})
    assert frozenset({1, 2}) not in pairs(boards)
    assert {x for b in boards for x in b} == set(range(1, 9))
    assert any("replaces the plain Dutch pairing" in line and "same state TN" in line
               for line in log)


def test_same_state_rule_applies_only_in_the_last_round():
    t = make(8, ROUNDS_A, total=5)
    boards, log = pair_round_same_state(t, {1: "TN", 2: "TN"})
    assert boards == pair_round(t)
    assert log == ["round 3 is not the last round: same-state rule not applied"]


def test_same_state_pairs_in_the_bottom_half_are_left_alone():
    t = make(8, ROUNDS_A, total=3)
    plain = pair_round(t)
    bottom = next(b for b in plain if 6 in b or 7 in b)
    assert set(bottom) == {6, 7}  # the two players on 0 points meet
    scores = {1: 20, 2: 20, 3: 10, 4: 10, 5: 10, 8: 10, 6: 0, 7: 0}
    assert top_half(scores) == {1, 2, 3, 4, 5, 8}
    states = {6: "KA", 7: "KA"}
    boards, log = pair_round_same_state(t, states)
    assert boards == plain
    assert log == ["no same-state pair among the top 50%: pairing unchanged"]


def test_same_state_players_may_meet_when_no_other_opponent_is_within_one_point():
    #   after round 2 of 3: 1: 2  2: 2  6: 1  4: ½  5: ½  3: 0 ; 1 already played 6, so
    #   without 2 the leader 1 would meet someone 1½ points behind → 1-2 is allowed again
    t = make(6, [["1-4 1-0", "5-2 0-1", "3-6 0-1"], ["1-6 1-0", "2-3 1-0", "4-5 ="]], total=3)
    boards, log = pair_round_same_state(t, {1: "WB", 2: "WB"})
    assert frozenset({1, 2}) in pairs(boards)
    assert any(line.startswith("1: same-state opponents allowed again") for line in log)


def test_same_state_top_half_includes_everybody_tied_on_the_boundary():
    scores = {1: 20, 2: 15, 3: 15, 4: 15, 5: 10, 6: 0}
    assert top_half(scores) == {1, 2, 3, 4}
    assert top_half({1: 10, 2: 5, 3: 0, 4: 0}) == {1, 2}
    assert top_half({}) == set()


def test_same_state_log_names_the_players_when_names_are_given():
    t = make(8, ROUNDS_A, total=3)
    names = {k: f"Player {k}" for k in range(1, 9)}
    boards, log = pair_round_same_state(t, {1: "TN", 2: "TN"}, names=names)
    changed = [line for line in log if "replaces the plain Dutch pairing" in line]
    assert changed and all("Player " in line for line in changed)
    assert any("Player 2 (2) - Player 1 (1), same state TN" in line for line in changed)
    t6 = make(6, [["1-4 1-0", "5-2 0-1", "3-6 0-1"], ["1-6 1-0", "2-3 1-0", "4-5 ="]], total=3)
    _boards, log6 = pair_round_same_state(t6, {1: "WB", 2: "WB"},
                                          names={k: f"P{k}" for k in range(1, 7)})
    assert any(line.startswith("P1 (1): same-state opponents allowed again") for line in log6)

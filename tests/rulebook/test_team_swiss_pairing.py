"""FIDE C.04.6 (2026), the Swiss Team Pairing System: every round of the 30 generated team
Swiss tournaments of tests/data/team_swiss/ re-paired and compared with FIDE TEC's reference
program (Gacrux 1.11.65: teams, colours and the bye; SOURCE.md there), the hand-made example
of the research note (docs/research/team-competitions.md 7.4), and one small test per
criterion and per colour rule.

The small tests draw their field as a table: TPN, score, the colours of the played matches
(``wb`` = White then Black), who it has met; ``S`` builds the round's settings.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.team_swiss_trf import (
    Case,
    cases,
    read_pairings,
    read_team_trf,
    settings_of,
    teams_before,
)
from transforms.core.model import Colour
from transforms.fide.team_swiss.bracket import identifier, pair_bracket
from transforms.fide.team_swiss.colours import (
    allocate_colours,
    colour_preference,
    first_team,
)
from transforms.fide.team_swiss.completion import Compatibility
from transforms.fide.team_swiss.engine import pair_round, table_order
from transforms.fide.team_swiss.model import (
    ColourRule,
    InvalidTeamInput,
    NoTeamPairing,
    Preference,
    PreferenceType,
    RoundSettings,
    Strength,
    TeamState,
)
from transforms.fide.team_swiss.upfloaters import candidate_sets, profiles

DATA = Path(__file__).resolve().parents[1] / "data" / "team_swiss"
W, B = Colour.WHITE, Colour.BLACK
A_, B_, NONE = PreferenceType.A, PreferenceType.B, PreferenceType.NONE


def T(tpn: int, score: float = 0.0, colours: str = "", met: tuple[int, ...] = (), *,
      secondary: float = 0.0, barred: bool = False, floated: bool = False,
      absent: bool = False, played: int | None = None) -> TeamState:
    """A team: ``colours`` one letter per played match."""
    cs = tuple(Colour(c) for c in colours)
    return TeamState(tpn=tpn, score=score, secondary=secondary, colours=cs, met=frozenset(met),
                     bye_barred=barred, floated=floated,
                     matches_played=len(cs) if played is None else played, absent=absent)


def S(round: int = 3, rounds: int = 9, preferences: PreferenceType = A_,
      initial: Colour = W, secondary: bool = True) -> RoundSettings:
    return RoundSettings(round=round, rounds=rounds, preferences=preferences,
                         initial_colour=initial, secondary_for_colours=secondary)


def symmetric(teams: list[TeamState]) -> list[TeamState]:
    """The teams with every meeting recorded on both sides."""
    met = {t.tpn: set(t.met) for t in teams}
    for t in teams:
        for o in t.met:
            met.setdefault(o, set()).add(t.tpn)
    return [TeamState(tpn=t.tpn, score=t.score, secondary=t.secondary, colours=t.colours,
                      met=frozenset(met[t.tpn]), bye_barred=t.bye_barred, floated=t.floated,
                      matches_played=t.matches_played, absent=t.absent) for t in teams]


def pairs_of(teams: list[TeamState], settings: RoundSettings | None = None) -> set[frozenset[int]]:
    r = pair_round(symmetric(teams), settings or S())
    return {frozenset(p) for p in r.pairs}


# --- the reference data: every round Gacrux paired ---------------------------------------

ALL_CASES: list[Case] = [c for p in sorted(DATA.glob("ts*.trf"))
                         for c in cases(p, p.with_suffix(".pairings.txt"))]


def test_the_reference_data_has_208_rounds_of_30_tournaments():
    assert len(ALL_CASES) == 208
    assert len({c.name.split()[0] for c in ALL_CASES}) == 30


@pytest.mark.parametrize("case", ALL_CASES, ids=lambda c: c.name.replace(" ", "-"))
def test_every_round_of_the_reference_tournaments_is_paired_as_gacrux_pairs_it(case: Case):
    """Teams, colours (White first), table order and the bye, as Gacrux 1.11.65 gave them."""
    r = pair_round(case.teams, case.settings)
    assert r.pairs == case.expected.pairs
    assert r.bye == case.expected.bye
    assert set(r.absent) == set(case.expected.absent)


def test_the_hand_made_example_round_3_step_by_step():
    """Research note 7.4: Queens (6) absent; {1, 2, 3} on 3 MP take Pawns (5, 1 MP) before
    Kings (7) (3.5.4); 1-2 and 2-5 met, so the identifier is "1 2 5 3"; 4-7 is the rest;
    colours 3-2 (4.3.6), 1-5 (4.3.5), 4-7 (4.3.5); tables by score."""
    (case,) = cases(DATA / "example.trf", DATA / "example.next.txt")
    r = pair_round(case.teams, case.settings)
    assert r.pairs == ((3, 2), (1, 5), (4, 7)) == case.expected.pairs
    assert r.bye is None and r.absent == (6,)
    top, bottom = r.brackets
    assert (top.score, top.residents, top.upfloaters.upfloaters) == (3.0, (1, 2, 3), (5,))
    assert (top.upfloaters.c4, top.upfloaters.c5, top.upfloaters.c6) == (1, (1.0,), True)
    assert top.identifier == (1, 2, 5, 3)
    assert (bottom.score, bottom.residents, bottom.upfloaters.upfloaters) == (1.0, (7,), (4,))
    assert [p.rule for p in r.colours] == [ColourRule.ALTERNATE_LAST_DIFFERENT,
                                           ColourRule.LOWER_DIFFERENCE,
                                           ColourRule.LOWER_DIFFERENCE]
    text = "\n".join(r.explanation())
    assert "identifier 1 2 5 3" in text and "4.3.6" in text


def test_a_forfeited_match_is_no_meeting_so_the_teams_meet_again_C1_GHR_3_5():
    """ts11: teams 1 and 6 were paired in round 5 and the match was forfeited; Gacrux pairs
    them in round 6. Counted as a meeting, they could not be."""
    case = next(c for c in ALL_CASES if c.name == "ts11 round 6")
    one = next(t for t in case.teams if t.tpn == 1)
    assert 6 not in one.met and frozenset({1, 6}) in {frozenset(p) for p in case.expected.pairs}
    r = pair_round(case.teams, case.settings)
    assert frozenset({1, 6}) in {frozenset(p) for p in r.pairs}
    counted = [TeamState(tpn=t.tpn, score=t.score, secondary=t.secondary, colours=t.colours,
                         met=t.met | ({6} if t.tpn == 1 else {1} if t.tpn == 6 else set()),
                         bye_barred=t.bye_barred, floated=t.floated,
                         matches_played=t.matches_played, absent=t.absent) for t in case.teams]
    assert frozenset({1, 6}) not in {frozenset(p) for p in pair_round(counted, case.settings).pairs}


def test_the_reader_takes_colours_meetings_and_c2_from_played_matches_only():
    """ts11 round 6: the forfeit of round 5 gives neither team a colour nor a meeting, and
    bars its winner from the bye (C2)."""
    trf = read_team_trf(DATA / "ts11.trf")
    rows = [r for r in trf.card.iter_rows(named=True) if r["round"] == 5 and r["sno"] in (1, 6)]
    winner = next(r["sno"] for r in rows if r["kind"] == "forfeit_win")
    teams = {t.tpn: t for t in teams_before(trf, 6, frozenset())}
    for t in (1, 6):
        assert teams[t].matches_played == len(teams[t].colours) == 4
    assert teams[winner].bye_barred
    assert settings_of(trf, 6).rounds == 6


def test_the_pairings_file_reader_keeps_absences_and_the_bye():
    rounds = read_pairings(DATA / "ts03.pairings.txt")
    assert [g.round for g in rounds] == [1, 2, 3, 4, 5, 6]
    assert rounds[0].bye == 9 and rounds[2].absent == {1}


# --- 3.4 the bye ----------------------------------------------------------------------------


def test_the_bye_goes_to_the_lowest_score_3_4_2():
    r = pair_round([T(1, 2), T(2, 0), T(3, 1), T(4, 1), T(5, 2)], S())
    assert r.bye == 2


def test_among_the_lowest_the_bye_goes_to_the_team_with_most_matches_played_3_4_3():
    """Team 4's only result is a forfeit loss: one match played, team 3 two."""
    r = pair_round([T(1, 2, "wb"), T(2, 2, "bw"), T(3, 0, "wb"), T(4, 0, "w"), T(5, 2, "bw")],
                   S())
    assert r.bye == 3


def test_among_equals_the_bye_goes_to_the_largest_tpn_3_4_4():
    r = pair_round([T(1, 1, "w"), T(2, 1, "b"), T(3, 0, "w"), T(4, 0, "b"), T(5, 2, "w")], S())
    assert r.bye == 4


def test_a_team_that_had_a_bye_or_a_forfeit_win_gets_no_bye_C2():
    r = pair_round([T(1, 2), T(2, 2), T(3, 0, barred=True), T(4, 1), T(5, 1)], S())
    assert r.bye == 5 and r.bye_report is not None and r.bye_report.barred == (3,)


def test_the_bye_skips_a_team_whose_bye_leaves_the_others_unpairable_3_4_1():
    #  1 (2 MP) and 2 (1 MP) have met: the bye to 3 (0 MP) would leave 1-2
    r = pair_round(symmetric([T(1, 2, "w", (2,)), T(2, 1, "b"), T(3, 0)]), S())
    assert r.bye == 2 and r.bye_report is not None and r.bye_report.skipped == (3,)
    assert r.pairs == ((3, 1),)  # 4.3.5: team 3 (CD 0) has the lower colour difference


# --- C1, C3 and the round that cannot be completed --------------------------------------------


def test_teams_that_played_each_other_do_not_meet_again_C1():
    assert pairs_of([T(1, 1, "w", (3,)), T(2, 1, "b"), T(3, 1, "b"), T(4, 1, "w")]) == {
        frozenset({1, 4}), frozenset({2, 3})}


def test_a_round_that_cannot_be_completed_names_the_teams_left_3_3_3():
    #  team 1 has met every other team
    field = symmetric([T(1, 1, "www", (2, 3, 4)), T(2, 1, "b"), T(3, 0, "b"), T(4, 0, "b")])
    with pytest.raises(NoTeamPairing) as err:
        pair_round(field, S())
    assert err.value.teams == (1, 2, 3, 4) and "Chief Arbiter" in str(err.value)


def test_no_team_may_take_the_bye_3_3_3():
    with pytest.raises(NoTeamPairing, match="pairing-allocated bye"):
        pair_round([T(1, barred=True), T(2, barred=True), T(3, barred=True)], S())


def test_bad_input_is_refused_with_the_value():
    with pytest.raises(InvalidTeamInput, match="repeated"):
        pair_round([T(1), T(1)], S())
    with pytest.raises(InvalidTeamInput, match="matches_played 2"):
        pair_round([T(1, colours="w", played=2), T(2)], S())


def test_absent_teams_are_not_paired_and_keep_their_tpn():
    r = pair_round([T(1), T(2, absent=True), T(3), T(4), T(5)], S(round=1))
    assert r.absent == (2,) and r.bye is None
    # 4.3.1 with TPN parity: 1 (odd) gets the initial colour; 4 (even) the other
    assert r.pairs == ((1, 4), (3, 5))


def test_an_upfloater_set_that_leaves_the_others_unpairable_is_skipped_C3():
    #  top {1,2,3} 2 MP; {4,5,6} 1 MP; {7,8} 0 MP; 5 has met 6, 7 and 8
    field = [T(1, 2), T(2, 2), T(3, 2), T(4, 1), T(5, 1, met=(6, 7, 8)), T(6, 1), T(7, 0), T(8, 0)]
    r = pair_round(symmetric(field), S())
    top = r.brackets[0].upfloaters
    assert top.upfloaters == (5,)
    assert top.rejected == (((4,), "C3: the other teams could not all be paired"),)


# --- 3.5 the upfloaters: C4-C7 ---------------------------------------------------------------


def test_upfloater_sets_follow_the_handbook_order_3_5_4():
    """2, 6, 8 on 3 points, 1, 3, 5 on 2.5, two 3-point upfloaters and one 2.5-point one:
    {2,6,1} < {2,6,3} < {2,6,5} < {2,8,1} < ... < {6,8,5}."""
    lower = [T(t, 3.0) for t in (8, 2, 6)] + [T(t, 2.5) for t in (5, 1, 3)]
    order = [tuple(t.tpn for t in s) for s in candidate_sets(lower, (3.0, 3.0, 2.5))]
    assert order == [(2, 6, 1), (2, 6, 3), (2, 6, 5), (2, 8, 1), (2, 8, 3), (2, 8, 5),
                     (6, 8, 1), (6, 8, 3), (6, 8, 5)]


def test_score_profiles_maximise_the_scores_taken_in_ascending_order_C5():
    lower = [T(1, 3.0), T(2, 2.5), T(3, 2.5), T(4, 2.0), T(5, 2.0)]
    assert profiles(lower, 2) == [(3.0, 2.5), (2.5, 2.5), (3.0, 2.0), (2.5, 2.0), (2.0, 2.0)]


def test_an_odd_scoregroup_takes_one_upfloater_from_the_next_score_C4_C5():
    field = [T(1, 4), T(2, 4), T(3, 4), T(4, 2), T(5, 3), T(6, 2)]
    r = pair_round(field, S())
    top = r.brackets[0]
    assert top.upfloaters.upfloaters == (5,) and top.upfloaters.c4 == 1
    assert top.upfloaters.c5 == (3.0,)
    assert top.identifier == (1, 2, 3, 5)


def test_when_no_set_of_the_best_profile_is_legal_the_next_profile_is_tried_C5():
    #  {1,2,3} 2 MP take one; the only 1-MP team (4) has met all three: a 0-MP team comes up
    field = [T(1, 2, met=(4,)), T(2, 2, met=(4,)), T(3, 2, met=(4,)), T(4, 1), T(5, 0), T(6, 0)]
    r = pair_round(symmetric(field), S())
    top = r.brackets[0].upfloaters
    assert top.upfloaters == (5,) and top.c5 == (0.0,)
    assert top.rejected == (((4,), "C1: the bracket cannot be paired"),)


def test_when_one_upfloater_cannot_make_a_legal_bracket_three_are_taken_C4():
    #  {1,2,3} on 2 MP have all met each other: each needs an opponent from below
    field = [T(1, 2, met=(2, 3)), T(2, 2, met=(3,)), T(3, 2), T(4, 1), T(5, 1), T(6, 1), T(7, 0),
             T(8, 0)]
    r = pair_round(symmetric(field), S())
    assert r.brackets[0].upfloaters.upfloaters == (4, 5, 6)
    assert r.brackets[0].upfloaters.c4 == 3


def test_the_upfloater_that_leaves_the_following_scoregroup_pairable_is_chosen_C6():
    #  top {1,2,3}; taking 4 would leave {5,6} of the 1-MP group, who have met
    field = [T(1, 2), T(2, 2), T(3, 2), T(4, 1), T(5, 1, met=(6,)), T(6, 1), T(7, 0), T(8, 0)]
    r = pair_round(symmetric(field), S())
    top = r.brackets[0].upfloaters
    assert top.upfloaters == (5,) and top.c6
    assert top.rejected[0][0] == (4,) and top.rejected[0][1].startswith("C6")


def test_c6_is_not_broken_when_the_following_scoregroup_is_emptied():
    #  the only 1-MP team floats up: the next bracket is the 0-MP group, which C6 never sees
    field = [T(1, 2), T(2, 2), T(3, 2), T(4, 1), T(5, 0, met=(6,)), T(6, 0), T(7, 0), T(8, 0)]
    r = pair_round(symmetric(field), S())
    assert r.brackets[0].upfloaters.upfloaters == (4,) and r.brackets[0].upfloaters.c6


def test_an_upfloater_that_floated_last_round_is_avoided_C7():
    field = [T(1, 2), T(2, 2), T(3, 2), T(4, 1, floated=True), T(5, 1), T(6, 1), T(7, 0)]
    r = pair_round(field, S())
    top = r.brackets[0].upfloaters
    assert top.upfloaters == (5,) and top.c7 == 0
    assert top.rejected[0][0] == (4,) and top.rejected[0][1].startswith("C7: 1")


def test_c7_does_not_apply_in_the_last_two_rounds():
    field = [T(1, 2), T(2, 2), T(3, 2), T(4, 1, floated=True), T(5, 1), T(6, 1), T(7, 0)]
    r = pair_round(field, S(round=8, rounds=9))
    assert r.brackets[0].upfloaters.upfloaters == (4,)
    assert pair_round(field, S(round=7, rounds=9)).brackets[0].upfloaters.upfloaters == (5,)


def test_c7_is_minimised_when_every_candidate_floated():
    field = [T(1, 2), T(2, 2), T(3, 2), T(4, 1, floated=True), T(5, 1, floated=True), T(6, 0)]
    r = pair_round(field, S())
    assert r.brackets[0].upfloaters.upfloaters == (4,) and r.brackets[0].upfloaters.c7 == 1


# --- 3.6 pairing the bracket: the identifier, C8-C10 -----------------------------------------


def bracket(teams: list[TeamState], settings: RoundSettings | None = None,
            score: float | None = None) -> tuple[int, ...]:
    s = settings or S()
    prefs = {t.tpn: colour_preference(t, s) for t in teams}
    compat = Compatibility({t.tpn: t.met for t in symmetric(teams)})
    top = max(t.score for t in teams) if score is None else score
    p = pair_bracket(symmetric(teams), prefs, top, compat, s)
    assert p is not None
    return p.identifier


def test_the_identifier_of_the_handbook_example_3_6_2():
    assert identifier([(11, 24), (16, 6), (10, 9), (8, 4)]) == (4, 6, 9, 11, 8, 16, 10, 24)


def test_a_bracket_pairs_the_first_half_against_the_second_by_tpn_3_6():
    assert bracket([T(t, 1) for t in (6, 2, 4, 1, 5, 3)]) == (1, 2, 3, 4, 5, 6)


def test_an_upfloater_with_a_smaller_tpn_is_a_top_member_3_6_1():
    #  residents 5, 6, 7 on 2 MP, upfloater 1 on 1 MP: 1-6, 5-7
    assert bracket([T(5, 2), T(6, 2), T(7, 2), T(1, 1)], score=2) == (1, 5, 6, 7)


def test_c1_moves_the_bracket_to_the_next_identifier_3_6_3():
    #  1-3 met: the top members stay {1, 2}: 1-4, 2-3
    assert bracket([T(1, 1, met=(3,)), T(2, 1), T(3, 1), T(4, 1)]) == (1, 2, 4, 3)


def test_the_top_members_decide_before_the_bottom_members_3_6_3():
    #  1 has met 4, 5, 6: it must be a top member against 2 or 3; the smallest TPN that can
    #  be a top member beside it is 2 (1-3, 2-5, 4-6: "1 2 4 3 5 6"), not 1-2 (2 a bottom)
    assert bracket([T(1, 1, met=(4, 5, 6)), T(2, 1), T(3, 1), T(4, 1), T(5, 1), T(6, 1)]) == \
        (1, 2, 4, 3, 5, 6)


def test_pairs_whose_teams_want_the_same_colour_are_avoided_before_the_identifier_C8():
    #  type A: 1 and 3 want White (two Blacks), 2 and 4 Black: 1-3, 2-4 would leave two
    #  preferences unmet
    teams = [T(1, 1, "bb"), T(2, 1, "ww"), T(3, 1, "bb"), T(4, 1, "ww")]
    assert bracket(teams) == (1, 2, 4, 3)


def test_type_b_avoids_two_strong_preferences_for_the_same_colour_C9():
    #  all four want White (C8 is 2 whatever the pairing): 1 and 3 strongly (CD -2), 2 and
    #  4 mildly (CD -1): not 1-3
    teams = [T(1, 1, "bb"), T(2, 1, "bwb"), T(3, 1, "bb"), T(4, 1, "bwb")]
    assert bracket(teams, S(preferences=B_)) == (1, 2, 4, 3)


def test_an_upfloater_is_not_paired_with_a_team_that_floated_last_round_C10():
    #  residents 1, 2, 3 on 2 MP, upfloater 4 (1 MP); 2 floated last round: not 2-4
    teams = [T(1, 2), T(2, 2, floated=True), T(3, 2), T(4, 1)]
    assert bracket(teams) == (1, 2, 4, 3)
    assert bracket(teams, S(round=8, rounds=9)) == (1, 2, 3, 4)  # off in the last two rounds


def test_c8_ranks_above_c10():
    #  1 and 2 want White and floated last round, 3 and the upfloater 4 want Black:
    #  1-3/2-4 (C8 0, C10 1) before 1-2/3-4 (C8 2, C10 0)
    teams = [T(1, 2, "bb", floated=True), T(2, 2, "bb", floated=True), T(3, 2, "ww"),
             T(4, 1, "ww")]
    assert bracket(teams, score=2) == (1, 2, 3, 4)
    #  only 2 floated: 1-4/2-3 (C8 0, C10 0) before the first identifier
    teams[0] = T(1, 2, "bb")
    assert bracket(teams, score=2) == (1, 2, 4, 3)


# --- 1.7 colour preferences, type A and type B ------------------------------------------------


def test_type_a_preferences_1_7_1():
    pref = lambda cs: colour_preference(T(1, 0, cs), S(preferences=A_))  # noqa: E731
    assert pref("bb") == Preference(W, Strength.SIMPLE)          # CD -2
    assert pref("wbb") == Preference(W, Strength.SIMPLE)         # CD -1, last two Black
    assert pref("ww") == Preference(B, Strength.SIMPLE)
    assert pref("bwb") is None                                   # CD -1 otherwise: none
    assert pref("wb") is None and pref("") is None


def test_type_a_cd_plus_one_with_two_blacks_gives_no_white_1_7_1():
    assert colour_preference(T(1, 0, "wwwbb"), S(preferences=A_)) is None


def test_type_b_preferences_strong_and_mild_1_7_2():
    pref = lambda cs, r=3: colour_preference(T(1, 0, cs), S(round=r, rounds=5,  # noqa: E731
                                                               preferences=B_))
    assert pref("bb") == Preference(W, Strength.STRONG)
    assert pref("bwb") == Preference(W, Strength.MILD)           # CD -1
    assert pref("wbw") == Preference(B, Strength.MILD)           # CD +1
    assert pref("wb") == Preference(W, Strength.MILD)            # CD 0: alternate
    assert pref("wb", r=5) is None                               # ... not in the last round
    assert pref("") is None


def test_type_b_last_round_same_colour_twice_is_still_strong_decision_A1():
    assert colour_preference(T(1, 0, "wwbb"), S(round=5, rounds=5, preferences=B_)) == \
        Preference(W, Strength.STRONG)


def test_no_colour_preferences_when_the_competition_uses_none_1_7():
    assert colour_preference(T(1, 0, "bbb"), S(preferences=NONE)) is None


def test_the_first_team_is_the_higher_score_then_secondary_then_smaller_tpn_4_2():
    a, b = T(1, 2, secondary=5), T(2, 2, secondary=6)
    assert first_team(a, b, S()).tpn == 2
    assert first_team(a, b, S(secondary=False)).tpn == 1
    assert first_team(T(1, 2), T(2, 3), S()).tpn == 2


# --- 4.3 the colour cascade --------------------------------------------------------------------


def colours(a: TeamState, b: TeamState, settings: RoundSettings | None = None
            ) -> tuple[int, int, ColourRule]:
    white, black, _, rule = allocate_colours(a, b, settings or S())
    return white, black, rule


def test_4_3_1_both_yet_to_play_first_team_odd_tpn_gets_the_initial_colour():
    assert colours(T(1), T(2)) == (1, 2, ColourRule.FIRST_ROUND)
    assert colours(T(1), T(2), S(initial=B)) == (2, 1, ColourRule.FIRST_ROUND)
    assert colours(T(2), T(3)) == (3, 2, ColourRule.FIRST_ROUND)   # first-team 2 is even
    #  teams whose only matches were forfeited have yet to play a match too
    assert colours(T(3, 2), T(4, 0)) == (3, 4, ColourRule.FIRST_ROUND)


def test_4_3_2_only_one_preference_is_granted():
    #  the first-team 1 has none (CD 0); team 2 wants White (CD -2)
    assert colours(T(1, 2, "wb"), T(2, 1, "bb")) == (2, 1, ColourRule.ONE_PREFERENCE)


def test_4_3_3_opposite_preferences_are_both_granted():
    assert colours(T(1, 2, "ww"), T(2, 1, "bb")) == (2, 1, ColourRule.OPPOSITE_PREFERENCES)


def test_4_3_4_type_b_the_only_strong_preference_is_granted():
    #  both want White: team 2 strongly (CD -2), the first-team 1 mildly (CD -1)
    s = S(preferences=B_)
    assert colours(T(1, 2, "bwb"), T(2, 1, "bb"), s) == (2, 1, ColourRule.ONE_STRONG)


def test_4_3_5_white_to_the_lower_colour_difference():
    #  type A, both want White: 2 with CD -3 gets it over the first-team's CD -2
    assert colours(T(1, 2, "bb"), T(2, 1, "bbb")) == (2, 1, ColourRule.LOWER_DIFFERENCE)
    #  no preferences (type A, CD -1 and +1): the lower CD has White
    assert colours(T(1, 2, "wbw"), T(2, 1, "bwb")) == (2, 1, ColourRule.LOWER_DIFFERENCE)


def test_4_3_6_alternate_from_the_last_match_with_different_colours():
    #  equal CD 0; from the end: b/b, w/w, then b (1) against w (2): 1 gets White
    assert colours(T(1, 2, "wbwb"), T(2, 1, "bwwb")) == (1, 2,
                                                         ColourRule.ALTERNATE_LAST_DIFFERENT)


def test_4_3_6_compares_the_squeezed_sequences_from_the_end_decision_A12():
    #  team 2 (first-team) played two matches, B W (its others forfeited); team 1 four, W B
    #  B W. From the end: W/W, B/B, then team 2 has no more: no difference, so 4.3.8 gives
    #  the first-team Black. (Aligned from round 1, W against B would give team 2 White.)
    assert colours(T(1, 1, "wbbw"), T(2, 2, "bw")) == (1, 2, ColourRule.FIRST_TEAM_ALTERNATES)


def test_4_3_7_the_first_team_preference():
    #  identical histories, both want White (type A): the first-team 2 (higher score) gets it
    assert colours(T(1, 1, "bb"), T(2, 2, "bb")) == (2, 1, ColourRule.FIRST_TEAM_PREFERENCE)


def test_4_3_8_the_first_team_alternates_from_its_last_match():
    #  identical "wb", no preference in type A: the first-team (1) had Black last
    assert colours(T(1, 2, "wb"), T(2, 1, "wb")) == (1, 2, ColourRule.FIRST_TEAM_ALTERNATES)


def test_4_3_9_the_other_team_alternates_from_its_last_match():
    #  the first-team 1 has played no match (forfeits only), team 2 had White then Black
    assert colours(T(1, 2, ""), T(2, 1, "wb")) == (2, 1, ColourRule.OTHER_TEAM_ALTERNATES)


def test_type_a_against_type_b_on_the_same_pair():
    #  1 (CD 0, Black last) and 2 (CD +1): no preferences in type A, mild White and mild
    #  Black in type B
    a, b = T(1, 2, "wb"), T(2, 1, "wbw")
    assert colours(a, b, S(preferences=A_)) == (1, 2, ColourRule.LOWER_DIFFERENCE)
    assert colours(a, b, S(preferences=B_)) == (1, 2, ColourRule.OPPOSITE_PREFERENCES)
    #  1 had White twice (simple / strong Black), 2 CD +1 (none / mild Black)
    a, b = T(1, 2, "ww"), T(2, 1, "w")
    assert colours(a, b, S(preferences=A_)) == (2, 1, ColourRule.ONE_PREFERENCE)
    assert colours(a, b, S(preferences=B_)) == (2, 1, ColourRule.ONE_STRONG)


# --- GHR 3.6 tables ----------------------------------------------------------------------------


def test_tables_by_higher_score_then_sum_then_smaller_tpn_ghr_3_6():
    t = {n: T(n, s) for n, s in ((1, 3), (2, 2), (3, 3), (4, 1), (5, 2), (6, 2))}
    order = table_order([(t[2], t[5]), (t[3], t[4]), (t[1], t[6]), (t[4], t[2])])
    assert [(a.tpn, b.tpn) for a, b in order] == [(1, 6), (3, 4), (2, 5), (4, 2)]


def test_the_bye_is_listed_apart_and_the_explanation_names_it():
    r = pair_round([T(1, 1, "w"), T(2, 1, "b"), T(3, 0, "w")], S())
    assert r.bye == 3 and all(3 not in p for p in r.pairs)
    assert r.explanation()[-1] == "Bye: team 3"

"""FIDE C.07 team tie-breaks (articles 6-9 and 11-16 for teams): one test per article on small
events checked by hand, the codes' spellings (TRF-2026 ``212``), the ranking, and every value
FIDE TEC's calculator (Gacrux 1.11.65) gives for the generated team events of
tests/data/team_tiebreak_own/ and for the team Swiss events it paired (tests/data/team_tiebreak/,
tests/data/team_swiss/; SOURCE.md in each).

The events are written as rounds of matches: ``"1-2 1="`` is a match of team 1 (White on board
1) against team 2 where team 1's players scored 1 on board 1 and ½ on board 2; ``+``/``-`` on a
board is a board won / lost by forfeit; ``"1-3 +"`` a whole match won by forfeit by team 1
(``-``: by team 3, ``--``: a double forfeit); ``"5 PAB"`` a pairing-allocated bye; a team not
named in a round is absent.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import polars as pl
import pytest

from tests.team_swiss_trf import read_team_trf
from transforms.core.errors import ConfigError
from transforms.fide.standings import rank_evaluation
from transforms.fide.team_standings import rank_teams
from transforms.fide.team_tiebreaks import (
    TeamScore,
    evaluate_team_tiebreaks,
    explain_team_tiebreaks,
    known_team_codes,
    parse_team_212,
    parse_team_code,
    team_evaluation,
)

OWN = Path(__file__).resolve().parents[1] / "data" / "team_tiebreak_own"
THEIRS = Path(__file__).resolve().parents[1] / "data" / "team_tiebreak"
SWISS = Path(__file__).resolve().parents[1] / "data" / "team_swiss"
GAME = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0}
OTHER = {"1": "0", "=": "=", "0": "1", "+": "-", "-": "+"}


def team_event(rounds: list[str], *, boards: int, match_points: tuple[float, float, float] = (2, 1, 0),
               pab: tuple[float, float] | None = None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The team card and board card of ``rounds`` (see the module docstring)."""
    win, draw, loss = match_points
    pab_mp, pab_gp = pab if pab is not None else (draw, boards * 0.5)
    rows, board_rows = [], []
    for r, text in enumerate(rounds, start=1):
        for item in (x.strip() for x in text.split(",") if x.strip()):
            who, what = item.split(" ")
            if what == "PAB":
                rows.append({"round": r, "sno": int(who), "opponent": None, "colour": None,
                             "mp": pab_mp, "gp": pab_gp, "opp_gp": None, "kind": "PAB",
                             "boards": boards})
                continue
            a, b = (int(x) for x in who.split("-"))
            if what in ("+", "-", "--"):
                ga = boards * 1.0 if what == "+" else 0.0
                gb = boards * 1.0 if what == "-" else 0.0
                for t, o, g, og, colour in ((a, b, ga, gb, "w"), (b, a, gb, ga, "b")):
                    rows.append({"round": r, "sno": t, "opponent": o, "colour": colour,
                                 "mp": win if g > og else 0.0, "gp": g, "opp_gp": og,
                                 "kind": "forfeit_win" if g > og else "forfeit_loss",
                                 "boards": boards})
                continue
            assert len(what) == boards, item
            ga = sum(GAME[x] for x in what)
            gb = sum(GAME[OTHER[x]] for x in what)
            for t, o, g, og, colour, res in ((a, b, ga, gb, "w", what),
                                             (b, a, gb, ga, "b", "".join(OTHER[x] for x in what))):
                rows.append({"round": r, "sno": t, "opponent": o, "colour": colour,
                             "mp": win if g > og else draw if g == og else loss, "gp": g,
                             "opp_gp": og, "kind": "played", "boards": boards})
                board_rows += [{"round": r, "sno": t, "board": i, "points": GAME[x],
                                "played": x not in "+-"} for i, x in enumerate(res, start=1)]
    card = pl.DataFrame(rows, schema={
        "round": pl.Int64, "sno": pl.Int64, "opponent": pl.Int64, "colour": pl.String,
        "mp": pl.Float64, "gp": pl.Float64, "opp_gp": pl.Float64, "kind": pl.String,
        "boards": pl.Int64})
    board_card = pl.DataFrame(board_rows, schema={
        "round": pl.Int64, "sno": pl.Int64, "board": pl.Int64, "points": pl.Float64,
        "played": pl.Boolean})
    return card, board_card


def values(event: tuple[pl.DataFrame, pl.DataFrame], codes: list[str], *, primary: str = "MP",
           edition: str = "fide-2024", round_robin: bool = False, rounds: int | None = None,
           match_points: tuple[float, float, float] = (2, 1, 0)) -> dict[str, dict[int, float | None]]:
    card, boards = event
    out = evaluate_team_tiebreaks(card, boards, codes, primary=primary, match_points=match_points,
                                  rounds=rounds, edition=edition, round_robin=round_robin)
    return {c: dict(zip(out["sno"], out[c])) for c in out.columns if c != "sno"}


# Event A: a team Swiss of 4 teams on 2 boards, 3 rounds, match points 2/1/0; everybody met.
#
#        R1          R2          R3          MP  GP
#  1   +2 1½-½     -3 ½-1½     +4 2-0       4   4.0
#  2   -1 ½-1½     +4 2-0      -3 ½-1½      2   3.0
#  3   =4 1-1      +1 1½-½     +2 1½-½      5   4.0
#  4   =3 1-1      -2 0-2      -1 0-2       1   1.0
#
# The first-named team has White on board 1: 1 and 3 in R1, 1 and 2 in R2 and R3.
EVENT_A = team_event(["1-2 1=, 3-4 ==", "1-3 =0, 2-4 11", "1-4 11, 2-3 0="], boards=2)

# Event C: a team Swiss of 5 teams on 2 boards, 3 rounds; a bye is worth 2 MP and 2 GP.
#
#        R1          R2                 R3          MP  GP
#  1   +2 1½-½     +3 forfeit 2-0     -5 ½-1½      4   4.0
#  2   -1 ½-1½     +5 2-0             -3 ½-1½      2   3.0
#  3   =4 1-1      -1 forfeit 0-2     +2 1½-½      3   2.5
#  4   =3 1-1      PAB                absent       3   3.0
#  5   PAB         -2 0-2             +1 1½-½      4   3.5
EVENT_C = team_event(["1-2 1=, 3-4 ==, 5 PAB", "1-3 +, 2-5 11, 4 PAB", "1-5 0=, 2-3 =0"],
                     boards=2, pab=(2.0, 2.0))


def test_team_match_points_and_game_points_C07_11_1_and_13_1():
    v = values(EVENT_A, ["MPTS", "GPTS", "PTS", "MPVGP"])
    assert v["MPTS"] == {1: 4, 2: 2, 3: 5, 4: 1}
    assert v["GPTS"] == {1: 4, 2: 3, 3: 4, 4: 1}
    assert v["PTS"] == v["MPTS"]
    assert v["MPVGP"] == v["GPTS"]  # 13.1: the secondary score
    g = values(EVENT_A, ["PTS", "MPVGP"], primary="GP")
    assert g["PTS"] == v["GPTS"] and g["MPVGP"] == v["MPTS"]


def test_team_buchholz_on_match_and_game_points_C07_8_1():
    v = values(EVENT_A, ["BH:MP", "BH:GP", "BH"])
    assert v["BH:MP"] == {1: 2 + 5 + 1, 2: 4 + 1 + 5, 3: 1 + 4 + 2, 4: 5 + 2 + 4}
    assert v["BH:GP"] == {1: 3 + 4 + 1, 2: 4 + 1 + 4, 3: 1 + 4 + 3, 4: 4 + 3 + 4}
    assert v["BH"] == v["BH:MP"]  # C.07 13: the primary score by default
    assert values(EVENT_A, ["BH"], primary="GP")["BH"] == v["BH:GP"]


def test_team_buchholz_cut_and_median_C07_14_1_to_14_4():
    v = values(EVENT_A, ["BH:MP/C1", "BH:MP/C2", "BH:MP/M1"])
    # team 1 met 2 (2 MP), 3 (5), 4 (1); team 4 met 3 (5), 2 (2), 1 (4)
    assert v["BH:MP/C1"][1] == 7 and v["BH:MP/C2"][1] == 5 and v["BH:MP/M1"][1] == 2
    assert v["BH:MP/C1"][4] == 9 and v["BH:MP/C2"][4] == 5 and v["BH:MP/M1"][4] == 4


def test_team_average_of_opponents_buchholz_C07_8_2():
    # team 1 met 2 (BH:MP 10), 3 (7) and 4 (11): 28 / 3, to hundredths (3 rounds)
    v = values(EVENT_A, ["AOB:MP", "AOB:GP"])
    assert v["AOB:MP"] == {1: 9.33, 2: round((8 + 11 + 7) / 3, 2), 3: round((11 + 8 + 10) / 3, 2),
                           4: round((7 + 10 + 8) / 3, 2)}
    assert v["AOB:GP"][1] == round((9 + 8 + 11) / 3, 2)
    # over the matches played only: in event C team 4 played team 3 and nobody else (a bye, an
    # absence), team 1 played 2 and 5 (its forfeit win against 3 is no match)
    c = values(EVENT_C, ["AOB:MP", "BH:MP"])
    assert c["AOB:MP"][4] == c["BH:MP"][3]
    assert c["AOB:MP"][1] == (c["BH:MP"][2] + c["BH:MP"][5]) / 2


def test_team_fore_buchholz_draws_the_final_round_C07_8_3():
    # the final round drawn: 1-4 and 2-3 each 1 MP and 1 GP a team
    # -> MP 1: 3, 2: 3, 3: 4, 4: 2; GP 1: 3, 2: 3.5, 3: 3.5, 4: 2
    v = values(EVENT_A, ["FB:MP", "FB:GP"])
    assert v["FB:MP"] == {1: 3 + 4 + 2, 2: 3 + 2 + 4, 3: 2 + 3 + 3, 4: 4 + 3 + 3}
    assert v["FB:GP"] == {1: 3.5 + 3.5 + 2, 2: 3 + 2 + 3.5, 3: 2 + 3 + 3.5, 4: 3.5 + 3.5 + 3}


def test_team_sonneborn_berger_on_match_points_C07_9_1():
    v = values(EVENT_A, ["SB:MP"])["SB:MP"]
    # opponent's MP x MP scored against them
    assert v == {1: 2 * 2 + 5 * 0 + 1 * 2, 2: 4 * 0 + 1 * 2 + 5 * 0, 3: 1 * 1 + 4 * 2 + 2 * 2,
                 4: 5 * 1 + 2 * 0 + 4 * 0}


def test_team_sonneborn_berger_on_game_points_C07_9_1():
    v = values(EVENT_A, ["SB:GP"])["SB:GP"]
    # opponent's GP x GP scored against them
    assert v == {1: 3 * 1.5 + 4 * 0.5 + 1 * 2, 2: 4 * 0.5 + 1 * 2 + 4 * 0.5,
                 3: 1 * 1 + 4 * 1.5 + 3 * 1.5, 4: 4 * 1 + 3 * 0 + 4 * 0}


def test_team_extended_sonneborn_berger_four_combinations_C07_13_2():
    v = values(EVENT_A, ["EMMSB", "EMGSB", "EGMSB", "EGGSB", "ESB"])
    assert v["EMMSB"] == values(EVENT_A, ["SB:MP"])["SB:MP"]                   # 13.2.1
    assert v["EMGSB"] == {1: 2 * 1.5 + 5 * 0.5 + 1 * 2, 2: 4 * 0.5 + 1 * 2 + 5 * 0.5,
                          3: 1 * 1 + 4 * 1.5 + 2 * 1.5, 4: 5 * 1 + 2 * 0 + 4 * 0}  # 13.2.2
    assert v["EGMSB"] == {1: 3 * 2 + 4 * 0 + 1 * 2, 2: 4 * 0 + 1 * 2 + 4 * 0,
                          3: 1 * 1 + 4 * 2 + 3 * 2, 4: 4 * 1 + 3 * 0 + 4 * 0}      # 13.2.3
    assert v["EGGSB"] == values(EVENT_A, ["SB:GP"])["SB:GP"]                   # 13.2.4
    assert v["ESB"] == v["EMGSB"]  # the primary score's total x the secondary score scored
    assert values(EVENT_A, ["ESB"], primary="GP")["ESB"] == v["EGMSB"]
    assert values(EVENT_A, ["ESB:GP"])["EGMSB"] == v["EGMSB"]  # ESB:GP is EGMSB


def test_team_extended_sonneborn_berger_cut_1_drops_the_lowest_opponent_C07_14_1():
    # 14.1, teams: the contribution of the opponent with the lowest score in the FIRST score
    # (GP for EGMSB) is cut, not the lowest contribution: team 1 met 2 (3 GP, 3 x 2 = 6),
    # 3 (4 GP, 4 x 0 = 0) and 4 (1 GP, 1 x 2 = 2): EGMSB/C1 = 8 - 2
    v = values(EVENT_A, ["EGMSB/C1", "EMGSB/C1"])
    assert v["EGMSB/C1"][1] == 6
    assert v["EMGSB/C1"] == {1: 7.5 - 2, 2: 6.5 - 2, 3: 10 - 1, 4: 5 - 0}


def test_team_koya_in_a_round_robin_C07_9_2():
    # event A is a complete round robin: 50% of the maximum is 3 MP (teams 1 and 3) or 3 GP
    # (teams 1, 2 and 3)
    v = values(EVENT_A, ["KS:MP", "KS:GP"], round_robin=True)
    assert v["KS:MP"] == {1: 0, 2: 0, 3: 2, 4: 1}
    assert v["KS:GP"] == {1: 1.5 + 0.5, 2: 0.5 + 0.5, 3: 1.5 + 1.5, 4: 1 + 0}


def test_team_progressive_scores_C07_7_5():
    v = values(EVENT_A, ["PS:MP", "PS:GP", "PS:MP/C1"])
    assert v["PS:MP"] == {1: 2 + 2 + 4, 2: 0 + 2 + 2, 3: 1 + 3 + 5, 4: 1 + 1 + 1}
    assert v["PS:GP"][1] == 1.5 + 2 + 4
    assert v["PS:MP/C1"][1] == 2 + 4  # 14.1.2 c: the score after the first round cut


def test_team_number_of_wins_matches_or_boards_C07_7_1():
    v = values(EVENT_C, ["WIN:MP", "WIN:GP"])
    # matches with a win's match points: forfeit wins and byes worth a win included
    assert v["WIN:MP"] == {1: 2, 2: 1, 3: 1, 4: 1, 5: 2}
    # boards won: a match won by forfeit and a bye are a win on every board
    assert v["WIN:GP"] == {1: 1 + 2, 2: 2, 3: 1, 4: 2, 5: 2 + 1}


def test_team_games_won_over_the_board_C07_7_2():
    v = values(EVENT_C, ["WON:MP", "WON:GP"])
    assert v["WON:MP"] == {1: 1, 2: 1, 3: 1, 4: 0, 5: 1}
    assert v["WON:GP"] == {1: 1, 2: 2, 3: 1, 4: 0, 5: 1}


def test_team_games_played_and_won_with_black_C07_7_3_and_7_4():
    # Black on board 1: the second-named team; boards alternate (team 1 White on board 1 has
    # Black on board 2)
    v = values(EVENT_C, ["BPG:MP", "BWG:MP", "BPG:GP", "BWG:GP"])
    assert v["BPG:MP"] == {1: 0, 2: 1, 3: 1, 4: 1, 5: 2}   # the forfeited match has no colour
    assert v["BWG:MP"] == {1: 0, 2: 0, 3: 1, 4: 0, 5: 1}
    assert v["BPG:GP"] == {1: 2, 2: 3, 3: 2, 4: 1, 5: 2}
    # team 1: R1 board 2 (Black) drawn, R3 board 2 (Black) drawn; team 5: R3 board 1 (Black)
    # won; team 2: R2 board 2 (Black) won
    assert v["BWG:GP"] == {1: 0, 2: 1, 3: 0, 4: 0, 5: 1}


def test_team_rounds_elected_to_play_C07_7_6():
    v = values(EVENT_C, ["REP:MP", "REP:GP", "GE"])
    assert v["REP:MP"] == {1: 3, 2: 3, 3: 2, 4: 2, 5: 3}  # minus forfeit losses, absences
    assert v["REP:GP"] == {1: 6, 2: 6, 3: 4, 4: 4, 5: 6}
    assert v["REP"] == v["REP:MP"]  # GE is REP's old name


def test_team_pairing_number_C07_7_8():
    assert values(EVENT_A, ["TPN"])["TPN"] == {1: 1, 2: 2, 3: 3, 4: 4}
    ranking = rank_teams(*EVENT_A, ["TPN"], primary="GP", match_points=(2, 1, 0), rounds=3,
                         edition="fide-2024")
    assert ranking["sno"].to_list()[:2] == [1, 3]  # 4.0 GP each: the lower number first


def test_team_buchholz_2024_dummy_is_the_own_score_C07_16_4():
    v = values(EVENT_C, ["BH:MP", "BH:GP"], edition="fide-2024")
    # team 1's forfeit win, team 3's forfeit loss, team 4's bye and absence, team 5's bye: a
    # dummy with the team's own score; team 4's absence in the last round counts as a drawn
    # match for its opponent 3 (16.3.2): 4 MP, 4 GP
    assert v["BH:MP"] == {1: 2 + 4 + 4, 2: 4 + 4 + 3, 3: 4 + 3 + 2, 4: 3 + 3 + 3, 5: 4 + 2 + 4}
    assert v["BH:GP"] == {1: 3 + 4 + 3.5, 2: 4 + 3.5 + 2.5, 3: 4 + 2.5 + 3, 4: 2.5 + 3 + 3,
                          5: 3.5 + 3 + 4}


def test_team_adjusted_score_of_an_absence_at_the_end_is_a_draw_C07_16_3_2():
    v = values(EVENT_C, ["BH:MP"])["BH:MP"]
    # team 4 scored 3 MP, but its absence in the last round counts 1 MP for team 3's Buchholz
    assert v[3] == 4 + 3 + 2
    # absent in round 2, the bye in round 3 (not a VUR): counted as awarded (16.2.3: 0 MP)
    early = team_event(["1-2 1=, 3-4 ==, 5 PAB", "1-3 +, 2-5 11", "1-5 0=, 2-3 =0, 4 PAB"],
                       boards=2, pab=(2.0, 2.0))
    assert values(early, ["BH:MP"])["BH:MP"][3] == (1 + 0 + 2) + 3 + 2


def test_team_buchholz_2026_caps_the_dummy_C07_16_4_1_and_16_4_2():
    v = values(EVENT_C, ["BH:MP", "BH:GP"], edition="fide-2026")
    # 16.4.1: team 1's forfeit win, dummy min(4, team 3's adjusted 3 MP / 2.5 GP);
    # 16.4.2: team 5's bye, dummy min(4 MP, 1 MP x 3 rounds) and min(3.5 GP, 1 GP x 3 rounds)
    assert v["BH:MP"] == {1: 2 + 3 + 4, 2: 11, 3: 4 + 3 + 2, 4: 3 + 3 + 3, 5: 3 + 2 + 4}
    assert v["BH:GP"] == {1: 3 + 2.5 + 3.5, 2: 10, 3: 9.5, 4: 8.5, 5: 3 + 3 + 4}


def test_team_buchholz_2009_virtual_opponent_C02_13_15():
    v = values(EVENT_C, ["BH:MP"], edition="fide-2009")["BH:MP"]
    # opponents' unplayed rounds count as drawn matches: 1 -> 3 MP, 3 -> 4, 4 -> 3, 5 -> 3;
    # an own unplayed round: the score before + the opposite result + draws afterwards
    # team 1 R2 (forfeit win): 2 + 0 + 1 = 3; team 3 R2 (forfeit loss): 1 + 2 + 1 = 4;
    # team 4 R2 (bye worth a win): 1 + 0 + 1 = 2, R3 (absent): 3 + 2 + 0 = 5;
    # team 5 R1 (bye worth a win): 0 + 0 + 2 = 2
    assert v == {1: 2 + 3 + 3, 2: 3 + 3 + 4, 3: 3 + 4 + 2, 4: 4 + 2 + 5, 5: 2 + 2 + 3}


def test_team_cut_1_exception_cuts_a_voluntary_unplayed_round_C07_16_5():
    v = values(EVENT_C, ["BH:MP/C1", "SB:MP/C1", "SB:MP"])
    # team 3: 4 (vs 4), 3 (the dummy of its forfeit loss, a VUR), 2 (vs 2): the VUR's 3 is cut,
    # not the least significant 2 (16.5.1)
    assert v["BH:MP/C1"][3] == 4 + 2
    # SB: contributions 4 x 1, 3 x 0 (the VUR), 2 x 2: the VUR's 0 is lower than the least
    # significant value (4, the lowest opponent), so that one is cut (16.5.2)
    assert v["SB:MP"][3] == 8 and v["SB:MP/C1"][3] == 4
    # 2009 rules: no exception
    assert values(EVENT_C, ["BH:MP/C1"], edition="fide-2009")["BH:MP/C1"][3] == 4 + 3


def test_team_forfeited_matches_as_played_modifier_C07_6_1_1():
    v = values(EVENT_C, ["BH:MP/P", "BH:MP"])
    # /P: team 1's forfeit win is a match against team 3 (3 MP), not a dummy (4)
    assert v["BH:MP/P"][1] == 2 + 3 + 4 and v["BH:MP"][1] == 2 + 4 + 4
    assert v["BH:MP/P"][3] == 4 + 4 + 2


def test_team_round_robin_forfeits_are_matches_C07_15_2():
    # event A with team 4 forfeiting its round-2 match against team 2 (the same scores)
    forfeit = team_event(["1-2 1=, 3-4 ==", "1-3 =0, 2-4 +", "1-4 11, 2-3 0="], boards=2)
    swiss = values(forfeit, ["BH:MP", "WON:MP", "WIN:MP"])
    rr = values(forfeit, ["BH:MP", "WON:MP", "WIN:MP"], round_robin=True)
    assert swiss["BH:MP"][2] == 4 + 2 + 5 and swiss["BH:MP"][4] == 5 + 1 + 4   # dummies
    assert rr["BH:MP"][2] == 4 + 1 + 5 and rr["BH:MP"][4] == 5 + 2 + 4        # the opponent
    assert rr["WON:MP"][2] == swiss["WON:MP"][2] == 0  # 7.2: won over the board only
    assert rr["WIN:MP"][2] == 1


# Event B: 4 teams on 2 boards; 1, 2 and 3 beat each other in a circle and are equal on MP.
#
#        R1          R2          R3          MP  GP
#  1   +2 2-0      +4 2-0      -3 ½-1½      4   4.5
#  2   -1 0-2      +3 1½-½     +4 1½-½      4   3.0
#  3   +4 1½-½     -2 ½-1½     +1 1½-½      4   3.5
#  4   -3 ½-1½     -1 0-2      -2 ½-1½      0   1.0
EVENT_B = team_event(["1-2 11, 3-4 1=", "2-3 1=, 1-4 11", "3-1 1=, 2-4 1="], boards=2)


def test_team_direct_encounter_all_met_C07_6_2():
    v = values(EVENT_B, ["DE", "DE:GP"])
    # MP among 1, 2, 3: 2 each -> DE separates nothing (null: not a place)
    assert v["DE"] == {1: None, 2: None, 3: None, 4: None}
    # GP among them: 1: 2 + ½, 2: 0 + 1½, 3: ½ + 1½
    assert v["DE:GP"] == {1: 1, 2: 3, 3: 2, 4: None}


def test_team_extended_direct_encounter_secondary_score_C07_13_3_1():
    v = values(EVENT_B, ["EDE"])["EDE"]
    assert v == {1: 1, 2: 3, 3: 2, 4: None}  # MP equal among them: the GP decide
    # after GPTS the tie groups are single teams: nothing to separate
    assert values(EVENT_B, ["GPTS", "EDE"])["EDE"] == {1: None, 2: None, 3: None, 4: None}


# Event B2: a Swiss of 6 teams on 2 boards; 1, 2 and 3 finish on 4 MP, 1 beat 2 and 3, who did
# not meet.
#
#        R1          R2          R3          MP  GP
#  1   +2 1½-½     +3 2-0      -6 ½-1½      4   4.0
#  2   -1 ½-1½     +5 2-0      +4 1½-½      4   4.0
#  3   +4 2-0      -1 0-2      +5 1½-½      4   3.5
#  4   -3 0-2      -6 ½-1½     -2 ½-1½      0   1.0
#  5   =6 1-1      -2 0-2      -3 ½-1½      1   1.5
#  6   =5 1-1      +4 1½-½     +1 1½-½      5   4.0
EVENT_B2 = team_event(["1-2 1=, 3-4 11, 5-6 ==", "1-3 11, 2-5 11, 4-6 0=",
                       "1-6 0=, 2-4 1=, 3-5 1="], boards=2)


def test_team_direct_encounter_not_all_met_C07_6_3():
    v = values(EVENT_B2, ["DE"])
    # 1 scored 4 MP against 2 and 3; 2 and 3 can reach 2 at most (their missing match): 1 is
    # first whatever; 2 and 3 never met: not separated
    assert v["DE"] == {1: 1, 2: 2, 3: 2, 4: None, 5: None, 6: None}
    assert values(EVENT_B2, ["EDE"])["EDE"] == v["DE"]
    # a second DE-type tie-break sees the groups the first left: {2, 3}, which it cannot split
    assert values(EVENT_B2, ["DE", "EDE"])["EDE"] == {t: None for t in range(1, 7)}
    # in the tie groups after GPTS (1 and 2 on 4 GP): 1 beat 2
    assert values(EVENT_B2, ["GPTS", "DE"])["DE"] == {1: 1, 2: 2, 3: None, 4: None, 5: None,
                                                      6: None}


# Event K: 4 teams on 4 boards; 1 and 2 finish equal on MP and GP and drew their match 2-2.
#
#        R1            R2            R3            MP  GP
#  1   =2 0110 2-2   +3 1110 3-1   -4 0100 1-3     3   6
#  2   =1 1001 2-2   +4 1101 3-1   -3 0001 1-3     3   6
#  3   +4 1111 4-0   -1 0001 1-3   +2 1110 3-1     4   8
#  4   -3 0000 0-4   -2 0010 1-3   +1 1011 3-1     2   4
#
# (the team's own results on boards 1-4)
EVENT_K = team_event(["1-2 0110, 3-4 1111", "1-3 1110, 2-4 1101", "1-4 0100, 2-3 0001"],
                     boards=4)


def test_team_extended_direct_encounter_knockout_tie_breaks_C07_13_3_2():
    v = {c: values(EVENT_K, [c])[c] for c in ("EDE", "EDEBT", "EDEBB", "EDET", "EDEB")}
    assert v["EDE"][1] is None and v["EDE"][2] is None  # 1-1 in MP, 2-2 in GP
    # in their match: board count 2 + 3 = 5 for team 1, 1 + 4 = 5 for team 2 (equal); board 1
    # went to team 2 (TBR); without board 4, team 1 scored 2, team 2 1 (BBE)
    assert (v["EDEBT"][1], v["EDEBT"][2]) == (2, 1)
    assert (v["EDEBB"][1], v["EDEBB"][2]) == (1, 2)
    assert (v["EDET"][1], v["EDET"][2]) == (2, 1)
    assert (v["EDEB"][1], v["EDEB"][2]) == (1, 2)


def test_team_extended_direct_encounter_restarts_from_the_primary_score_C07_13_3_3():
    # A round robin of 6 teams on 4 boards, all on 5 MP (tests/data/team_tiebreak_own,
    # generate_events.py EDE_RESTART): the game points separate 4 (13), {1, 2, 3} (10), 6 (9.5),
    # 5 (7.5). Among 1, 2, 3 the match points order 1 (beat 2 and 3), 2, 3; the game points
    # 2 (beat 3 4-0: 5.5), 1 (5), 3. 13.3.3: the new subset {1, 2, 3} restarts from the primary
    # score: 1, 2, 3. Decision (module docstring): FIDE TEC's calculator keeps to the game
    # points there and places 2 before 1.
    event = read_team_trf(OWN / "constructed_rr_6t_4b_ede_restart.trf")
    v = values((event.card, event.boards), ["EDE"], round_robin=True)["EDE"]
    assert v == {4: 1, 1: 2, 2: 3, 3: 4, 6: 5, 5: 6}
    gacrux = next(r for r in json.loads((OWN / "gacrux_values.json").read_text())[
        "constructed_rr_6t_4b_ede_restart.trf"]["runs"] if r["codes"] == ["MPTS", "EDE"])
    assert {t: int(gacrux["values"][str(t)][1]) for t in (1, 2)} == {1: 3, 2: 2}


def test_team_board_count_C07_12_1():
    v = values(EVENT_K, ["BC"])["BC"]
    # board sums over the tournament: 1: (1, 3, 2, 0), 2: (2, 1, 0, 3), 3: (2, 2, 2, 2),
    # 4: (1, 0, 2, 1)
    assert v == {1: 1 + 6 + 6 + 0, 2: 2 + 2 + 0 + 12, 3: 2 + 4 + 6 + 8, 4: 1 + 0 + 6 + 4}
    ranking = rank_teams(*EVENT_K, ["BC"], primary="MP", match_points=(2, 1, 0), rounds=3,
                         edition="fide-2024")
    assert ranking["sno"].to_list() == [3, 1, 2, 4]  # the lower board count first


def test_team_board_count_counts_a_bye_as_a_win_on_every_board_C07_12():
    # art. 12: the bye's game points (1 here, a drawn match) do not matter: 1 a board
    event = team_event(["1-2 1=, 3 PAB"], boards=2, pab=(1.0, 1.0))
    assert values(event, ["BC"])["BC"] == {1: 1 + 2 * 0.5, 2: 0 + 2 * 0.5, 3: 1 + 2}


def test_team_top_board_results_C07_12_2():
    # 1 and 2 on 3 MP: board 1 over the tournament 1 against 2
    assert values(EVENT_K, ["TBR"])["TBR"] == {1: 2, 2: 1, 3: None, 4: None}


def test_team_bottom_board_elimination_C07_12_3():
    # without board 4: 1 + 3 + 2 = 6 against 2 + 1 + 0 = 3
    assert values(EVENT_K, ["BBE"])["BBE"] == {1: 1, 2: 2, 3: None, 4: None}


def test_team_scores_and_schedule_strength_C07_13_4():
    v = values(EVENT_A, ["SSSC", "SSSC/F"])
    # GP + BH:MP / (2 MP x 3 rounds // 2 GP a match = 3), to hundredths
    assert v["SSSC"] == {1: 6.67, 2: 6.33, 3: 6.33, 4: 4.67}
    assert v["SSSC/F"][1] == 4 + 9 / 3  # over Fore Buchholz (13.4.2 a)
    # primary GP: MP + BH:GP / (2 boards x 3 rounds // 2 MP = 3)
    assert values(EVENT_A, ["SSSC"], primary="GP")["SSSC"][1] == 4 + round(8 / 3, 2)


def test_team_standings_after_a_round_use_the_rounds_so_far():
    # the card is cut at ``rounds``: after round 2 of event A the scores are 2, 2, 3, 1 MP
    v = values(EVENT_A, ["MPTS", "BH:MP"], rounds=2)
    assert v["MPTS"] == {1: 2, 2: 2, 3: 3, 4: 1}
    assert v["BH:MP"] == {1: 2 + 3, 2: 2 + 1, 3: 1 + 2, 4: 3 + 2}


def test_a_round_missing_from_the_card_is_an_absence():
    card, boards = EVENT_C
    absent = values(EVENT_C, ["REP:MP", "BH:MP"])
    # team 4's round 3 is missing from the card (it was absent): the same as an explicit row
    explicit = pl.concat([card, pl.DataFrame(
        [{"round": 3, "sno": 4, "opponent": None, "colour": None, "mp": 0.0, "gp": 0.0,
          "opp_gp": None, "kind": "absent", "boards": 2}], schema=card.schema)])
    assert values((explicit, boards), ["REP:MP", "BH:MP"]) == absent


# --------------------------------------------------------------------------- ranking


def test_rank_teams_by_primary_score_then_tiebreaks_sharing_what_stays_equal_C07_4_2():
    ranking = rank_teams(*EVENT_B2, ["DE"], primary="MP", match_points=(2, 1, 0), rounds=3,
                         edition="fide-2024",
                         teams=pl.DataFrame({"sno": [1, 2, 3, 4, 5, 6],
                                             "name": ["A", "B", "C", "D", "E", "F"]}))
    assert ranking.columns == ["rank", "rank_label", "sno", "name", "mp", "gp", "DE",
                               "tied_after_all"]
    assert ranking.select("rank", "rank_label", "sno", "name", "tied_after_all").rows() == [
        (1, "1", 6, "F", False), (2, "2", 1, "A", False), (3, "3-4", 2, "B", True),
        (3, "3-4", 3, "C", True), (5, "5", 5, "E", False), (6, "6", 4, "D", False)]
    assert ranking["mp"].to_list() == [5, 4, 4, 4, 1, 0]
    # GP first: the groups are {1, 2, 6} on 4 GP -> EDE among them
    by_gp = rank_teams(*EVENT_B2, ["MPTS", "EDE"], primary="GP", match_points=(2, 1, 0),
                       rounds=3, edition="fide-2024")
    assert by_gp["sno"].to_list()[:3] == [6, 1, 2]


def test_rank_teams_lists_a_team_that_has_no_round_on_the_card():
    card, boards = EVENT_A
    ranking = rank_teams(card, boards, ["BH:MP"], primary="MP", match_points=(2, 1, 0),
                         rounds=3, edition="fide-2024",
                         teams=pl.DataFrame({"sno": [1, 2, 3, 4, 5], "name": list("ABCDE")}))
    assert ranking.filter(pl.col("sno") == 5).select("rank", "mp", "BH:MP").row(0) == (5, 0, 0)


def test_rank_teams_de_only_inside_the_groups_left_by_the_tiebreaks_before_it():
    ranking = rank_teams(*EVENT_B, ["BH:MP", "EDE"], primary="MP", match_points=(2, 1, 0),
                         rounds=3, edition="fide-2024")
    # BH:MP: 1: 4 + 0 + 4 = 8, 2: 4 + 4 + 0 = 8, 3: 0 + 4 + 4 = 8 -> EDE decides
    assert ranking.select("sno", "BH:MP", "EDE").rows()[:3] == [(1, 8, 1), (3, 8, 2), (2, 8, 3)]


def test_explanations_list_each_round_of_a_buchholz():
    card, boards = EVENT_C
    d = explain_team_tiebreaks(card, boards, ["BH:MP/C1"], primary="MP", match_points=(2, 1, 0),
                               rounds=3, edition="fide-2026").filter(pl.col("sno") == 3)
    assert d.select("round", "opponent", "value", "dropped_by_cut").rows() == [
        (1, "4", 4.0, False), (2, "dummy", 3.0, True), (3, "2", 2.0, False)]
    assert "16.4.1" in d["note"][1]


# --------------------------------------------------------------------------- codes


@pytest.mark.parametrize(("text", "canonical"), [
    ("bh:mp-c1", "BH:MP/C1"), ("BH:GP/M2", "BH:GP/M2"), ("SB", "SB"), ("ESB:MG", "EMGSB"),
    ("esb:gp", "EGMSB"), ("ESB:MP", "EMGSB"), ("ESB:MM/C1", "EMMSB/C1"), ("GE:GP", "REP:GP"),
    ("EMGSB/P/C1", "EMGSB/C1/P"), ("BH:mpoints", "BH:MP"), ("MPvGP", "MPVGP"),
    ("MPTS:MP", "MPTS"), ("SSSC/F", "SSSC/F"), ("EDET/P", "EDET/P"), ("DE:GP", "DE:GP"),
    ("SNO", "TPN"), ("PS:MP/C2", "PS:MP/C2"),
])
def test_team_codes_are_read_in_fide_tecs_spelling_C07_13(text, canonical):
    assert parse_team_code(text).code == canonical


def test_team_code_parts():
    code = parse_team_code("bh:gp/c1/p")
    assert (code.name, code.score, code.modifier.low, code.forfeits_played) == (
        "BH", TeamScore.GP, 1, True)


@pytest.mark.parametrize("text", ["XYZ", "BC:MP", "BC/C1", "BH:XX", "PS/M1", "KS/L1", "BH/C1/C2",
                                  "TBR/P", "BH:MP:GP", "ARO", "TPR", "", "BH/C3"])
def test_an_unknown_team_code_is_a_config_error_naming_the_key(text):
    with pytest.raises(ConfigError) as e:
        parse_team_code(text, key="team.tiebreaks", file="event.toml")
    assert e.value.key == "team.tiebreaks" and e.value.file == "event.toml"
    assert "team tie-break" in str(e.value)


def test_rating_tiebreaks_are_for_individuals_C07_10():
    with pytest.raises(ConfigError, match="C.07 10.1"):
        parse_team_code("ARO")


def test_every_known_team_code_parses_to_itself():
    codes = known_team_codes()
    assert {"BH:MP/C1", "EMGSB/C1/P", "EDEBT", "BC", "TBR", "BBE", "SSSC", "MPVGP"} <= set(codes)
    assert all(parse_team_code(c).code == c for c in codes)


def test_a_212_record_names_the_primary_score_and_the_team_tiebreaks():
    primary, codes = parse_team_212("212 MPTS,GPTS,BH:MP/C1,EDE")
    assert primary is TeamScore.MP and [c.code for c in codes] == ["GPTS", "BH:MP/C1", "EDE"]
    primary, codes = parse_team_212("212 GPTS EMGSB/C1/P")
    assert primary is TeamScore.GP and [c.code for c in codes] == ["EMGSB/C1/P"]
    # TEC's sample team file (GrandMommysCup, 202 EDET/P,EMGSB/C1/P,BH:MP/C1/P,MPvGP)
    primary, codes = parse_team_212("EDET/P,EMGSB/C1/P,BH:MP/C1/P,MPvGP")
    assert primary is None and [c.code for c in codes] == ["EDET/P", "EMGSB/C1/P", "BH:MP/C1/P",
                                                           "MPVGP"]
    with pytest.raises(ConfigError) as e:
        parse_team_212("212 PTS BH:MP ARO", key="212", file="event.trf")
    assert e.value.key == "212"


def test_a_code_listed_twice_and_an_unknown_edition_are_config_errors():
    card, boards = EVENT_A
    with pytest.raises(ConfigError, match="listed twice"):
        evaluate_team_tiebreaks(card, boards, ["BH:MP", "bh:mp"], primary="MP",
                                match_points=(2, 1, 0), rounds=3, edition="fide-2024")
    with pytest.raises(ConfigError, match="edition"):
        evaluate_team_tiebreaks(card, boards, ["BH"], primary="MP", match_points=(2, 1, 0),
                                rounds=3, edition="fide-2030")
    with pytest.raises(ConfigError, match="primary"):
        evaluate_team_tiebreaks(card, boards, ["BH"], primary="points", match_points=(2, 1, 0),
                                rounds=3, edition="fide-2024")


def test_the_result_has_sno_and_one_float_column_per_code_in_order():
    card, boards = EVENT_A
    out = evaluate_team_tiebreaks(card, boards, ["ede", "bh:mp/c1", "BC"], primary="match_points",
                                  match_points=(2, 1, 0), rounds=None, edition="fide-2026")
    assert out.columns == ["sno", "EDE", "BH:MP/C1", "BC"]
    assert out.dtypes == [pl.Int64, pl.Float64, pl.Float64, pl.Float64]
    assert out["sno"].to_list() == [1, 2, 3, 4]


# --------------------------------------------------------------------------- reference

REFERENCE = json.loads((OWN / "gacrux_values.json").read_text(encoding="utf-8"))
EDITIONS = {"2024-08-01": "fide-2024", "2026-03-01": "fide-2026"}
DECIDED_RUNS = ("MPTS EDE", "MPTS EDEBT", "MPTS EDEBB", "MPTS EDET", "MPTS EDEB", "MPTS EDE/P",
                "MPTS EDET/P", "MPTS EDET/P EMGSB/C1/P BH:MP/C1/P MPvGP")
DECIDED = {("constructed_rr_6t_4b_ede_restart.trf", run, code, sno): pair
           for run in DECIDED_RUNS
           for code in (run.split()[1], "rank")
           for sno, pair in ((1, (3, 2)), (2, (2, 3)))}
"""Every value where this module departs from FIDE TEC's calculator, each decided in the
module docstring: (event, run, code or "rank", team) -> (calculator, ours). C.07 13.3.3: the
subset {1, 2, 3} restarts from the primary score."""


def test_the_reference_has_every_generated_event_and_both_editions():
    assert len(REFERENCE) >= 15
    rules = {run["rules"] for ev in REFERENCE.values() for run in ev["runs"]}
    assert rules == set(EDITIONS)
    assert any(ev["round_robin"] for ev in REFERENCE.values())


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_team_tiebreaks_equal_fide_tecs_calculator(name):
    """Every value and rank FIDE TEC's calculator (Gacrux 1.11.65) gives for a generated event
    (gacrux_values.json: several runs per event, see run_gacrux.py), except the differences
    decided in the module docstring (DECIDED)."""
    event = REFERENCE[name]
    trf = read_team_trf(OWN / name)
    compared, differences = 0, {}
    for run in event["runs"]:
        codes = run["codes"][1:]
        ev = team_evaluation(trf.card, trf.boards, codes, primary=trf.primary,
                             match_points=trf.match_points, rounds=run["rounds"] or trf.rounds,
                             edition=EDITIONS[run["rules"]], round_robin=event["round_robin"])
        ranks = dict(rank_evaluation(ev, pl.DataFrame({"sno": [], "name": []}))
                     .select("sno", "rank").iter_rows())
        label = " ".join(run["codes"])
        for i, code in enumerate(codes, start=1):
            parsed = parse_team_code(code)
            ours = dict(ev.values.select("sno", parsed.code).iter_rows())
            for sno_text, theirs in run["values"].items():
                sno = int(sno_text)
                mine = ours[sno]
                if mine is None and parsed.name in ("DE", "EDE", "EDEBT", "EDEBB", "EDET", "EDEB",
                                                    "TBR", "BBE"):
                    mine = 0.0  # the calculator prints 0 where nothing was separated
                compared += 1
                if theirs[i] is None or mine is None or abs(float(theirs[i]) - mine) > 1e-9:
                    differences[(name, label, code, sno)] = (theirs[i], mine)
        for sno_text, rank in run["ranks"].items():
            compared += 1
            if ranks[int(sno_text)] != rank:
                differences[(name, label, "rank", int(sno_text))] = (rank, ranks[int(sno_text)])
    decided = {k: v for k, v in DECIDED.items() if k[0] == name}
    assert {k: (float(a), float(b)) for k, (a, b) in differences.items()} == \
        {k: (float(a), float(b)) for k, (a, b) in decided.items()}
    assert compared > 400


NOT_IMPLEMENTED = ("STD", "EDEC|MPTS")
"""Columns of tests/data/team_tiebreak/ this module does not compute (module docstring)."""


@pytest.mark.parametrize("table", sorted(THEIRS.glob("ts*.tsv")), ids=lambda p: p.stem)
def test_team_tiebreaks_equal_fide_tecs_calculator_on_team_swiss_it_paired(table):
    """Every value and rank of tests/data/team_tiebreak/ (FIDE TEC's calculator on team Swiss
    events it paired, C.07 2026; SOURCE.md there) but the columns of NOT_IMPLEMENTED.

    ``CODE|MPTS`` is the calculator's value of CODE after ``MPTS`` alone, and its ``rank`` the
    ranking by ``MPTS GPTS EDET EMGSB/C1 BH:MP/C1``. With game points primary (ts16, ts24) the
    tie groups of those lists are the teams equal on match points while DE and EDE work on the
    primary score: here primary MP with ``DE:GP``, ``EDE:GP``, ... ."""
    trf = read_team_trf(SWISS / f"{table.stem}.trf")
    rows = list(csv.DictReader(table.open(encoding="utf-8"), delimiter="\t"))
    columns = [c for c in rows[0] if c not in ("TPN", "rank", *NOT_IMPLEMENTED)]
    kw = {"match_points": trf.match_points, "rounds": trf.rounds, "edition": "fide-2026"}
    singles = [c for c in columns if "|" not in c]
    ev = team_evaluation(trf.card, trf.boards, [c for c in singles if c != "MPTS"],
                         primary=trf.primary, **kw)
    ours = {c: dict(ev.values.select("sno", parse_team_code(c).code).iter_rows())
            for c in singles if c != "MPTS"}
    ours["MPTS"] = dict(ev.values.select("sno", "points").iter_rows()) if trf.primary == "MP" \
        else dict(trf.card.group_by("sno").agg(pl.col("mp").sum()).iter_rows())
    gp_first = trf.primary == "GP"
    for c in (c for c in columns if "|" in c):
        code = c.split("|")[0] + (":GP" if gp_first and c.startswith(("DE", "EDE")) else "")
        one = team_evaluation(trf.card, trf.boards, [code], primary="MP", **kw)
        ours[c] = dict(one.values.select("sno", code).iter_rows())
    ranked = team_evaluation(trf.card, trf.boards,
                             ["GPTS", "EDET:GP" if gp_first else "EDET", "EMGSB/C1", "BH:MP/C1"],
                             primary="MP", **kw)
    ranks = dict(rank_evaluation(ranked, pl.DataFrame({"sno": [], "name": []}))
                 .select("sno", "rank").iter_rows())
    differences = []
    for row in rows:
        sno = int(row["TPN"])
        for c in columns:
            mine = ours[c][sno]
            mine = 0.0 if mine is None and "|" in c else mine
            theirs = float(row[c]) if row[c] != "" else None
            if theirs != mine and (theirs is None or mine is None or abs(theirs - mine) > 1e-9):
                differences.append((c, sno, row[c], mine))
        if int(row["rank"]) != ranks[sno]:
            differences.append(("rank", sno, row["rank"], ranks[sno]))
    assert differences == []
    assert len(rows) * (len(columns) + 1) >= 8 * 30

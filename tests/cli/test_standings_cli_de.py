"""``chessfed standings`` and direct encounter (FIDE C.07 art. 6), and how the command knows a
round robin (C.07 15.2), through the command line.

References (tests/data/tiebreak/fide_held_exercises/SOURCE.md): the ranks FIDE publishes for
IA Held's DE exercises 23-26 (``expected_values.json``) and the DE column FIDE TEC's
TieBreakServer prints on the same files (``crosscheck_fide_tec_de.csv``: the place inside the
tie group, 0 where DE does not apply — an empty cell here).

The round robin (``held_round_robin.trf``, exercise 26), results from each player's side:

    1 Alyx      3.5   5=  2+1 3+1 4 0 6+1      (x+1: beat x, x 0: lost to x, x=: drew x)
    2 Bruno     3.5   6+1 1 0 5+1 3=  4+1
    3 Charline  3.5   4+1 6+1 1 0 2=  5+1
    4 David     1.5   3 0 5 0 6=  1+1 2 0
    5 Franck    1.5   1=  4+1 2 0 6 -(forfeit, round 4) 3 0
    6 Helene    1.5   2 0 3 0 4=  5 +(forfeit, round 4) 1 0

Among 4, 5, 6 (1.5 each): 5 beat 4, 4 drew 6, and 6 won 5 by forfeit. With pre-determined
pairings the forfeit is a game (15.2): 6 has 1.5, 5 has 1, 4 has 0.5 -> 6, 5, 4 (FIDE's
answer). As a Swiss (forfeits are not encounters, 6.1.1) 5 and 6 have not met: 5's 1 point
does not exceed the 1.5 that 6 could reach, so DE leaves all three tied.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from flows.cli import standings as standings_cli

HELD = Path(__file__).parents[1] / "data" / "tiebreak" / "fide_held_exercises"
EXPECTED = json.loads((HELD / "expected_values.json").read_text(encoding="utf-8"))
TEC = pl.read_csv(HELD / "crosscheck_fide_tec_de.csv")
RR = HELD / "held_round_robin.trf"
CASES = Path(__file__).parents[1] / "data" / "tiebreak" / "direct_encounter_cases"
FIDE_RR_RANKS = {1: 1, 2: 2, 3: 2, 4: 6, 5: 5, 6: 4}  # exercise 26


def standings(trf: Path, tmp_path: Path, *options: str, codes: str = "DE") -> pl.DataFrame:
    out = tmp_path / f"{trf.stem}.csv"
    assert standings_cli.main(["--trf", str(trf), "--tiebreaks", codes, "--out", str(out),
                               *options]) == 0
    return pl.read_csv(out)


def by_sno(frame: pl.DataFrame, column: str) -> dict[int, object]:
    return dict(zip(frame["sno"].to_list(), frame[column].to_list(), strict=True))


def variant(tmp_path: Path, name: str, *, header: tuple[str, ...] = (), rounds: int | None = None,
            source: Path = RR) -> Path:
    """The round robin with extra header records (after ``012``) and/or only its first rounds."""
    lines = source.read_text(encoding="utf-8").splitlines()
    if rounds is not None:  # a round entry is 10 characters from column 92
        lines = [ln[:91 + 10 * rounds].rstrip() if ln.startswith("001") else ln for ln in lines]
    path = tmp_path / f"{name}.trf"
    path.write_text("\n".join([lines[0], *header, *lines[1:]]) + "\n", encoding="utf-8")
    return path


# ----------------------------------------------------------------------------- FIDE's answers


@pytest.mark.parametrize("trf,key", [
    ("held_swiss_5.trf", "held_swiss_5.trf"),
    ("held_swiss_9.trf", "held_swiss_9.trf"),
    ("held_round_robin.trf", "held_round_robin.trf (pre-determined pairing)"),
])
def test_every_de_rank_of_fides_exercises_comes_out_of_the_command_line(tmp_path, trf, key):
    got = by_sno(standings(HELD / trf, tmp_path), "rank")
    exercises = [v for k, v in EXPECTED[key].items() if k.startswith("DE")]
    assert exercises  # ex. 23 and 24 (swiss_5), 25 (swiss_9), 26 (round robin)
    for expected in exercises:
        assert {int(s): got[int(s)] for s in expected} == {int(s): r for s, r in expected.items()}


@pytest.mark.parametrize("trf", ["held_swiss_5.trf", "held_swiss_9.trf", "held_round_robin.trf"])
def test_de_column_is_the_place_fide_tec_prints_empty_where_it_prints_0(tmp_path, trf):
    got = standings(HELD / trf, tmp_path)
    tec = TEC.filter(pl.col("file") == trf)
    assert tec.height == got.height >= 6
    expected_de = {s: (float(d) if d else None) for s, d in zip(tec["StartNo"], tec["DE"], strict=True)}
    assert by_sno(got, "DE") == expected_de
    assert by_sno(got, "rank") == dict(zip(tec["StartNo"], tec["Rank"], strict=True))


def test_de_place_inside_a_group_that_all_met_C07_6_2(tmp_path):
    # Exercise 25 (9 rounds): 6, 1, 4, 2 on 6.0 all met; among them 6 scored 2, 1 and 4 1.5,
    # 2 scored 1: places 1, 2, 2, 4, ranks 2, 3, 3, 5.
    got = standings(HELD / "held_swiss_9.trf", tmp_path)
    group = got.filter(pl.col("points") == 6.0)
    assert by_sno(group, "DE") == {6: 1.0, 1: 2.0, 4: 2.0, 2: 4.0}
    assert by_sno(group, "rank") == {6: 2, 1: 3, 4: 3, 2: 5}
    # a player alone on his score has no DE place
    assert by_sno(got, "DE")[3] is None and by_sno(got, "points")[3] == 6.5


def test_de_places_where_not_all_met_and_where_art_6_is_re_applied(tmp_path):
    # direct_encounter_cases/SOURCE.md: 1-4 all met (6.2, re-applied to 1 and 2); 5-7 did not
    # all meet (6.3): 5 beat 6 and 7, who never met -> 5 first, 6 and 7 share place 2.
    got = standings(CASES / "tournament.trf", tmp_path)
    tec = pl.read_csv(CASES / "crosscheck_fide_tec.csv")
    assert by_sno(got, "DE") == {1: 1.0, 2: 2.0, 3: 3.0, 4: 4.0, 5: 1.0, 6: 2.0, 7: 2.0}
    assert by_sno(got, "DE") == dict(zip(tec["StartNo"], tec["DE"].cast(pl.Float64), strict=True))
    assert by_sno(got, "rank") == dict(zip(tec["StartNo"], tec["Rank"], strict=True))


def test_tied_players_who_did_not_all_meet_and_cannot_be_separated_get_no_de(tmp_path):
    # Exercise 23: 1, 3, 4, 16 on 3.5 did not all meet and nobody is alone at the top whatever
    # the missing games: DE does not apply (empty cells), they stay tied at rank 2.
    got = standings(HELD / "held_swiss_5.trf", tmp_path)
    group = got.filter(pl.col("points") == 3.5)
    assert sorted(group["sno"].to_list()) == [1, 3, 4, 16]
    assert group["DE"].to_list() == [None] * 4
    assert group["rank"].to_list() == [2] * 4


def test_explanation_names_the_article_that_decided(tmp_path):
    def notes(trf: Path) -> dict[int, str]:
        why = tmp_path / f"{trf.parent.name}-{trf.stem}-why.csv"
        standings(trf, tmp_path, "--explain", str(why))
        rows = pl.read_csv(why, schema_overrides={"opponent": pl.String})
        rows = rows.filter(pl.col("code") == "DE", pl.col("round").is_null())
        return dict(zip(rows["sno"].to_list(), rows["note"].to_list(), strict=True))

    cases = notes(CASES / "tournament.trf")
    assert cases[1].startswith("tie group 1, 2, 3, 4: all met: C.07 6.2")
    assert cases[1].endswith("DE places 1: 1, 2: 2, 3: 3, 4: 4 (art. 6 re-applied to those still equal)")
    assert cases[5].startswith("tie group 5, 6, 7: not all met: C.07 6.3")
    assert "5: 2 (at most 2), 6: 0 (at most 1), 7: 0 (at most 1)" in cases[5]
    assert cases[5].endswith("DE places 5: 1, 6: 2, 7: 2")
    swiss5 = notes(HELD / "held_swiss_5.trf")
    assert swiss5[16].startswith("tie group 1, 3, 4, 16: not all met: C.07 6.3")
    assert swiss5[16].endswith("nobody is alone at the top whatever the missing games: "
                               "DE does not apply")
    rr = notes(RR)
    assert rr[6].startswith("tie group 6, 5, 4: all met: C.07 6.2")
    assert "6: 1.5, 5: 1, 4: 0.5" in rr[6]  # the forfeit counts in a round robin (15.2)


# ----------------------------------------------------------------------------- round robin


def test_a_complete_round_robin_in_the_file_ranks_as_fides_answer(tmp_path, capsys):
    got = standings(RR, tmp_path)  # no option, no type record: every two met once
    assert by_sno(got, "rank") == FIDE_RR_RANKS
    err = capsys.readouterr().err
    assert "pre-determined pairings (C.07 15.2), complete round robin" in err


def test_round_robin_option_is_the_arbiters_word(tmp_path, capsys):
    # after 4 rounds the file is no complete round robin: Swiss by default, DE leaves 4, 5, 6
    # tied; --round-robin makes the round-4 forfeit a game: 6, 5, 4.
    four = variant(tmp_path, "four_rounds", rounds=4)
    swiss = standings(four, tmp_path)
    assert by_sno(swiss.filter(pl.col("points") == 1.5), "DE") == {4: None, 5: None, 6: None}
    rr = standings(four, tmp_path, "--round-robin")
    assert by_sno(rr.filter(pl.col("points") == 1.5), "rank") == {6: 4, 5: 5, 4: 6}
    assert "pre-determined" not in capsys.readouterr().err  # asked for: nothing to explain


def test_swiss_option_overrides_a_complete_round_robin(tmp_path):
    got = standings(RR, tmp_path, "--swiss")
    assert by_sno(got.filter(pl.col("points") == 1.5), "rank") == {4: 4, 5: 4, 6: 4}


def test_round_robin_named_by_the_trf_2026_type_record_before_its_last_round(tmp_path, capsys):
    four = variant(tmp_path, "four_rounds_192", header=("192 FIDE_ROUNDROBIN",), rounds=4)
    got = standings(four, tmp_path)
    assert by_sno(got.filter(pl.col("points") == 1.5), "rank") == {6: 4, 5: 5, 4: 6}
    assert "type record: 192 FIDE_ROUNDROBIN" in capsys.readouterr().err


def test_round_robin_named_by_the_trf16_type_text(tmp_path):
    four = variant(tmp_path, "four_rounds_092", header=("092 Individual: Round robin",), rounds=4)
    got = standings(four, tmp_path)
    assert by_sno(got.filter(pl.col("points") == 1.5), "rank") == {6: 4, 5: 5, 4: 6}


def test_a_swiss_type_record_wins_over_a_complete_round_robin(tmp_path):
    # Decision pinned: the file's type comes before what the pairings look like.
    swiss = variant(tmp_path, "typed_swiss", header=("092 Individual: Swiss-System",))
    got = standings(swiss, tmp_path)
    assert by_sno(got.filter(pl.col("points") == 1.5), "rank") == {4: 4, 5: 4, 6: 4}
    dutch = variant(tmp_path, "typed_dutch", header=("092 FIDE_DUTCH_2025",))
    assert by_sno(standings(dutch, tmp_path), "rank") == by_sno(got, "rank")


def test_the_encoded_192_type_wins_over_the_092_text(tmp_path):
    both = variant(tmp_path, "both", header=("092 Swiss System", "192 FIDE_ROUNDROBIN"), rounds=4)
    got = standings(both, tmp_path)
    assert by_sno(got.filter(pl.col("points") == 1.5), "rank") == {6: 4, 5: 5, 4: 6}


def test_round_robin_and_swiss_options_exclude_each_other(tmp_path, capsys):
    with pytest.raises(SystemExit):
        standings_cli.main(["--trf", str(RR), "--out", str(tmp_path / "s.csv"),
                            "--round-robin", "--swiss"])
    assert "not allowed with" in capsys.readouterr().err

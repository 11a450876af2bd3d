"""FIDE C.07 §10 rating averages of a player who met nobody over the board.

tests/data/tiebreak/no_game_over_the_board (SOURCE.md): 8 players, 3 rounds, Swiss.

    6 Finn   0.0   -5 (forfeit loss)  Z  Z        no game over the board
    7 Gus    0.0   8 0  5 0  3 0                  three games, three losses
    2 Ben, 5 Eva, 8 Hana: two games each, so the Median-1 cut leaves them none

FIDE TEC's TieBreakServer prints ``-0`` there in its tables (JSON: null) and ranks it after every
value; Swiss-Manager prints 0. chessfed gives 0 to a player who met nobody (the figure the
calculators print) and no value where a cut removed every game (FIDE's exercise 18), and ranks
as TEC does.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from flows.cli import standings as standings_cli
from transforms.fide.tiebreaks import compute_tiebreaks
from transforms.fide.trf import parse_trf

DATA = Path(__file__).parents[1] / "data" / "tiebreak" / "no_game_over_the_board"
TRF = DATA / "tournament.trf"
TEC = json.loads((DATA / "crosscheck_fide_tec.json").read_text(encoding="utf-8"))
CODES = ["ARO", "ARO-C1", "ARO-M1", "APRO", "APPO", "TPR", "PTP"]  # TEC's order, after PTS


def _tec(code: str) -> dict[int, float | None]:
    """TEC's values, its null (printed ``-0``) read as chessfed gives it: 0 for Finn, who met
    nobody; no value where a cut removed every game (FIDE's exercise 18 publishes null there)."""
    i = 1 + CODES.index(code)
    out = {}
    for c in TEC["competitors"]:
        v = c["tiebreakScore"][i]
        out[c["cid"]] = float(v) if v is not None else (0.0 if c["cid"] == 6 else None)
    return out


@pytest.fixture(scope="module")
def csv_out(tmp_path_factory) -> pl.DataFrame:
    out = tmp_path_factory.mktemp("no_game") / "s.csv"
    assert standings_cli.main(["--trf", str(TRF), "--tiebreaks", ",".join(CODES),
                               "--out", str(out)]) == 0
    return pl.read_csv(out)


def test_the_reference_prints_minus_zero_for_no_value():
    # the SOURCE note's reading of TEC's output, checked on the data itself
    assert TEC["tiebreaks"] == ["PTS", "ARO", "ARO/C1", "ARO/M1", "APRO", "APPO", "TPR", "PTP"]
    finn = next(c for c in TEC["competitors"] if c["cid"] == 6)
    assert finn["tiebreakScore"][1:] == [None] * 7
    csv = (DATA / "crosscheck_fide_tec.csv").read_text(encoding="utf-8").splitlines()
    assert csv[6].startswith("6,8,0.0,-0,-0,-0,-0,-0,-0,-0")  # line 6: Finn, rank 8


@pytest.mark.parametrize("code", CODES)
def test_rating_averages_equal_fide_tecs_and_are_0_without_a_game_C07_10(csv_out, code):
    got = dict(zip(csv_out["sno"].to_list(), csv_out[code].to_list(), strict=True))
    assert got == _tec(code)
    assert got[6] == 0  # Finn: no game over the board -> 0, as the calculators print
    if code == "ARO-M1":
        assert got[2] is None and got[5] is None and got[8] is None  # two games, both cut


def test_the_player_without_a_game_ranks_after_the_player_tied_with_him_C07_10(csv_out):
    # Finn and Gus both 0 points; Gus has an ARO (1767), Finn none: Gus 7th, Finn 8th
    ranks = dict(zip(csv_out["sno"].to_list(), csv_out["rank"].to_list(), strict=True))
    assert ranks == {c["cid"]: c["rank"] for c in TEC["competitors"]}
    assert (ranks[7], ranks[6]) == (7, 8)


def test_the_library_gives_0_for_every_rating_average_of_a_player_without_a_game():
    t = parse_trf(TRF.read_text(encoding="utf-8"))
    out = compute_tiebreaks(t.scorecard, t.players_frame(), CODES, edition="fide-2024")
    finn = out.filter(pl.col("sno") == 6).row(0, named=True)
    assert [finn[c] for c in CODES] == [0.0] * len(CODES)
    assert out.filter(pl.col("sno") == 7)["ARO"].item() == 1767.0

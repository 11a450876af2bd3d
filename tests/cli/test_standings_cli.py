"""``chessfed standings`` on TRF files (tests/data/tiebreak, see the SOURCE.md files)."""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from flows.cli import standings as standings_cli
from tests.reference_data import load
from transforms.fide.tiebreaks import compute_tiebreaks

DATA = Path(__file__).parents[1] / "data" / "tiebreak"
HELD5 = DATA / "fide_held_exercises" / "held_swiss_5.trf"
HBCC26 = DATA / "hbcc_2026_juniors_rapid" / "normalized" / "tournament.trf"






def run(*argv: str) -> int:
    return standings_cli.main(list(argv))


def test_writes_rank_sno_name_points_then_the_codes_in_order(tmp_path):
    out = tmp_path / "standings.csv"
    assert run("--trf", str(HELD5), "--tiebreaks", "BH-C1,BH,SB,DE,WIN,BWG",
               "--edition", "fide-2024", "--out", str(out)) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "rank,sno,name,points,BH-C1,BH,SB,DE,WIN,BWG"
    assert lines[1] == "1,2,Bruno,4.0,12.0,13.0,9.5,,3.0,1.0"  # alone on 4.0: no DE place
    assert len(lines) == 17


def test_values_are_fides_published_answers(tmp_path):
    out = tmp_path / "s.csv"
    assert run("--trf", str(HELD5), "--tiebreaks", "BH,BH-C1,SB,SB-C1,ARO,TPR",
               "--out", str(out)) == 0
    got = pl.read_csv(out)
    expected = json.loads((DATA / "fide_held_exercises" / "expected_values.json")
                          .read_text(encoding="utf-8"))["held_swiss_5.trf"]
    for code in ("BH", "BH-C1", "SB", "SB-C1", "ARO", "TPR"):
        by_sno = dict(zip(got["sno"].cast(pl.String), got[code], strict=True))
        assert by_sno == expected[code], code


def test_edition_option_selects_the_rules(tmp_path):
    # hbcc_2026_juniors_rapid SOURCE.md: player 31 has BH 46.5 under 2026 rules, 49.5 under 2024
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    assert run("--trf", str(HBCC26), "--tiebreaks", "BH", "--edition", "fide-2026",
               "--out", str(a)) == 0
    assert run("--trf", str(HBCC26), "--tiebreaks", "BH", "--edition", "fide-2024",
               "--out", str(b)) == 0

    def bh(path: Path) -> float:
        return pl.read_csv(path).filter(pl.col("sno") == 31)["BH"][0]

    assert (bh(a), bh(b)) == (46.5, 49.5)


def test_output_is_replaced_atomically(tmp_path):
    out = tmp_path / "s.csv"
    out.write_text("old\n", encoding="utf-8")
    assert run("--trf", str(HELD5), "--tiebreaks", "BH", "--out", str(out)) == 0
    assert out.read_text(encoding="utf-8").startswith("rank,sno,name,points,BH\n")
    assert [p.name for p in tmp_path.iterdir()] == ["s.csv"]  # no temporary file left


def test_unknown_code_exits_2_naming_the_option_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "s.csv"
    assert run("--trf", str(HELD5), "--tiebreaks", "BH,NOPE", "--out", str(out)) == 2
    err = capsys.readouterr().err
    assert "--tiebreaks" in err and "'NOPE'" in err
    assert not out.exists()


def test_unknown_edition_exits_2(tmp_path, capsys):
    assert run("--trf", str(HELD5), "--edition", "fide-1999", "--out", str(tmp_path / "s")) == 2
    assert "--edition" in capsys.readouterr().err


def test_bad_trf_exits_2_quoting_the_file(tmp_path, capsys):
    bad = tmp_path / "bad.trf"
    text = HELD5.read_text(encoding="utf-8").replace(" 10 b 1", " 10 x 1", 1)
    bad.write_text(text, encoding="utf-8")
    assert run("--trf", str(bad), "--out", str(tmp_path / "s.csv")) == 2
    assert "bad.trf" in capsys.readouterr().err


def test_explain_writes_the_contributions(tmp_path):
    why = tmp_path / "why.csv"
    assert run("--trf", str(HELD5), "--tiebreaks", "BH-C1", "--out", str(tmp_path / "s.csv"),
               "--explain", str(why)) == 0
    rows = pl.read_csv(why, schema_overrides={"opponent": pl.String})
    david = rows.filter(pl.col("sno") == 4)
    assert david.filter(pl.col("dropped_by_cut"))["opponent"].to_list() == ["dummy"]
    assert david.filter(~pl.col("dropped_by_cut"))["value"].sum() == 11.5


def test_players_tied_after_all_are_reported(tmp_path, capsys):
    # Round robin exercise: Bruno and Charline stay tied after DE (both 0.5 against each other)
    rr = DATA / "fide_held_exercises" / "held_round_robin.trf"
    out = tmp_path / "s.csv"
    assert run("--trf", str(rr), "--tiebreaks", "DE", "--round-robin", "--out", str(out)) == 0
    assert "still tied" in capsys.readouterr().err
    assert pl.read_csv(out)["rank"].to_list() == [1, 2, 2, 4, 5, 6]


def test_add_parser_registers_standings():
    parser = argparse.ArgumentParser(prog="chessfed")
    standings_cli.add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["standings", "--trf", "x.trf", "--out", "y.csv"])
    assert args.func is standings_cli.run
    assert args.tiebreaks is None and args.edition == "fide-2024"  # the default: the file's kind
    assert standings_cli.DEFAULT_TIEBREAKS == "BH-C1,BH,SB,DE,WIN,BWG"


def test_runs_as_a_module(tmp_path):
    out = tmp_path / "s.csv"
    trf = tmp_path / "in.trf"
    shutil.copy(HELD5, trf)
    proc = subprocess.run([sys.executable, "-m", "flows.cli.standings", "--trf", str(trf),
                           "--out", str(out)], capture_output=True, text=True, check=False,
                          cwd=Path(__file__).parents[2], timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert out.read_text(encoding="utf-8").splitlines()[0] == \
        "rank,sno,name,points,BH-C1,BH,SB,DE,WIN,BWG"


@pytest.mark.parametrize("folder", ["hbcc_2025_april_blitz", "hbcc_2025_hobsons_bay_cup"])
def test_trf_and_normalized_csv_give_the_same_tiebreaks(tmp_path, folder):
    # Vega's empty cells are absences; the TRF writes them as byes with 0 points (ZPB):
    # both are requested byes for C.07 16.1.1, so the values agree.
    out = tmp_path / "s.csv"
    trf = DATA / folder / "normalized" / "tournament.trf"
    assert run("--trf", str(trf), "--tiebreaks", "BH,BH-C1,SB,WIN,BWG", "--out", str(out)) == 0
    via_trf = pl.read_csv(out).select("sno", "points", "BH", "BH-C1", "SB", "WIN", "BWG").sort("sno")
    sc, players = load(DATA / folder / "normalized")
    via_csv = compute_tiebreaks(sc, players, ["BH", "BH-C1", "SB", "WIN", "BWG"],
                                edition="fide-2024").with_columns(pl.col("sno").cast(pl.Int64))
    assert via_trf.equals(via_csv)

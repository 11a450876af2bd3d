"""``chessfed rating-list``: an event's players against FIDE's list (real excerpts,
tests/data/rating_lists/SOURCE.md), from the .txt, the .xml and FIDE's .zip."""

from __future__ import annotations

import zipfile
from pathlib import Path

import polars as pl

from flows.cli import rating_list as cli

DATA = Path(__file__).resolve().parents[1] / "data" / "rating_lists"
PLAYERS = ("player_id,name,rating,fide_id,title,federation,sex,birth_date\n"
           "P1,\"Peter Leko\",2676,703303,GM,HUN,M,1979-06-08\n"      # the same, names in another order
           "P2,\"Aagaard, Christian\",2100,1478800,,DEN,M,\n"         # unrated on the list
           "P3,\"Ojok, Patrick\",1638,10001492,,KEN,M,1974-01-01\n"   # another federation
           "P4,Nobody,1800,999999999,,BEL,M,\n"                       # not on the list
           "P5,\"No Id\",1500,,,,,\n")                                # not looked up


def run(tmp_path: Path, listfile: Path, *extra: str) -> tuple[int, pl.DataFrame]:
    players = tmp_path / "players.csv"
    players.write_text(PLAYERS, encoding="utf-8")
    out = tmp_path / "diff.csv"
    rc = cli.main(["--list", str(listfile), "--players", str(players), "--out", str(out), *extra])
    return rc, pl.read_csv(out, infer_schema_length=0) if out.exists() else pl.DataFrame()


def test_the_differences_with_the_combined_list(tmp_path):
    rc, diff = run(tmp_path, DATA / "players_list_foa.txt")
    assert rc == 1
    got = {(r["player_id"], r["field"], r["file_value"], r["list_value"] or "")
           for r in diff.iter_rows(named=True)}
    assert got == {("P2", "rating", "2100", ""), ("P3", "federation", "KEN", "UGA"),
                   ("P4", "fide_id", "999999999", "")}


def test_a_zip_as_fide_publishes_it_and_a_single_list_of_another_rate(tmp_path):
    z = tmp_path / "blitz_aug26frl.zip"
    with zipfile.ZipFile(z, "w") as f:
        f.write(DATA / "blitz_aug26frl.txt", "blitz_aug26frl.txt")
    rc, diff = run(tmp_path, z, "--rate", "blitz")
    assert rc == 1
    leko = diff.filter(pl.col("player_id") == "P1")
    assert leko.select("field", "file_value", "list_value").rows() == [("rating", "2676", "2738")]


def test_the_xml_list_and_a_file_that_is_no_list(tmp_path, capsys):
    rc, diff = run(tmp_path, DATA / "standard_xml_excerpt.xml")
    assert rc == 1 and set(diff["what"]) == {"not on the list"}
    bad = tmp_path / "bad.txt"
    bad.write_text("not a list\n", encoding="utf-8")
    rc, _ = run(tmp_path, bad)
    assert rc == 2 and "not the header of a FIDE rating list" in capsys.readouterr().err

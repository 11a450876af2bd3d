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
    rc, diff = run(tmp_path, z, "--rate", "blitz", "--extract", str(tmp_path / "ratings.csv"))
    assert rc == 1
    leko = diff.filter(pl.col("player_id") == "P1")
    assert leko.select("field", "file_value", "list_value").rows() == [("rating", "2676", "2738")]
    from flows import io as flows_io
    from transforms.core.ingest import validate_files
    from transforms.swiss.schemas import RATINGS_LIST

    typed, found = validate_files({"ratings.csv": flows_io.read_csv_strings(tmp_path / "ratings.csv")},
                                  {"ratings.csv": RATINGS_LIST}, ())
    assert found == [] and typed["ratings.csv"].select("fide_id", "rating", "list").rows() == [
        ("703303", 2738, "FIDE blitz, August 2026")]


def test_the_xml_list_and_a_file_that_is_no_list(tmp_path, capsys):
    rc, diff = run(tmp_path, DATA / "standard_xml_excerpt.xml")
    assert rc == 1 and set(diff["what"]) == {"not on the list"}
    bad = tmp_path / "bad.txt"
    bad.write_text("not a list\n", encoding="utf-8")
    rc, _ = run(tmp_path, bad)
    assert rc == 2 and "not the header of a FIDE rating list" in capsys.readouterr().err


def test_the_extract_is_an_events_ratings_csv_and_the_run_takes_what_players_csv_leaves(tmp_path):
    """The demo's club open with two of its players' ratings and titles left empty and one
    federation entered otherwise: ratings.csv (as --extract writes it) fills the empty cells,
    the differing federation stays the file's with a warning row, the pages say which."""
    import shutil

    from flows import io as flows_io
    from transforms.kinds import parse_event_config
    from transforms.swiss.event import prepare

    event = tmp_path / "club-open-2025"
    shutil.copytree(DATA.parents[2] / "inputs" / "club-open-2025", event)
    players = pl.read_csv(event / "players.csv", infer_schema_length=0)
    rated = players.filter(pl.col("fide_id").fill_null("") != "").head(3)
    a, b, c = rated["player_id"].to_list()
    listed = rated.select("fide_id", "name", "rating", "title", "federation", "sex").with_columns(
        pl.when(pl.col("fide_id") == rated["fide_id"][2]).then(pl.lit("NED"))
        .otherwise(pl.col("federation")).alias("federation"),
        pl.when(pl.col("fide_id") == rated["fide_id"][0]).then(pl.lit("CM"))
        .otherwise(pl.col("title")).alias("title"),
        pl.lit("FIDE standard, September 2025").alias("list"))
    (event / "ratings.csv").write_text(listed.write_csv(), encoding="utf-8")
    players = players.with_columns(
        pl.when(pl.col("player_id").is_in([a, b])).then(None).otherwise(pl.col("rating")).alias("rating"),
        pl.when(pl.col("player_id") == a).then(None).otherwise(pl.col("title")).alias("title"))
    (event / "players.csv").write_text(players.write_csv(), encoding="utf-8")
    cfg = parse_event_config((event / "event.toml").read_text())
    raw = {n: flows_io.read_csv_strings(event / n) for n in cfg.files if (event / n).exists()}
    run = prepare(cfg, raw, cfg.event.as_of)
    by_id = {r["player_id"]: r for r in pl.concat([x.players for x in run.categories]).iter_rows(named=True)}
    assert by_id[a]["rating"] == int(rated["rating"][0]) and by_id[a]["title"] == "CM"
    assert by_id[a]["list_note"] == "rating, title from FIDE standard, September 2025"
    assert by_id[b]["rating"] == int(rated["rating"][1])
    assert by_id[c]["nationality"] == rated["federation"][2] != "NED"
    assert "federation" in by_id[c]["list_note"] and "NED" in by_id[c]["list_note"]
    rows = [f for f in run.findings if f.file == "players.csv" and f.column == "federation"]
    assert [(f.value, f.reason) for f in rows] == [
        (rated["federation"][2], "FIDE standard, September 2025 says NED: the file's value is kept")]

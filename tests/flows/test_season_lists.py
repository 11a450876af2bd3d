"""The season's rating lists (issue 47): FIDE's download kept in the inputs folder's ``lists/``
under FIDE's own name gives an event the entries of its players on the list of its rate in
force on its first day (flows/pipeline/season_lists.py) — a real excerpt of FIDE's January
2023 standard list (tests/data/rating_lists/SOURCE.md)."""

from __future__ import annotations

import datetime as dt
import shutil
import zipfile
from pathlib import Path

import polars as pl

from flows import io
from flows.pipeline import season_lists, unchanged
from transforms.swiss.event import prepare

ROOT = Path(__file__).resolve().parents[2]
LIST = ROOT / "tests" / "data" / "rating_lists" / "standard_jan23frl.txt"
PLAYERS = """player_id,name,rating,fide_id,federation
P1,"A K, Kalshyan",,5045886,
P2,"A-Ali, Sali",1800,4804929,IRQ
P3,"Nobody, Listed",1500,,
"""


def season(tmp: Path, start: str = "2023-02-01") -> Path:
    """A season folder: one event (a copy of the demo's club open with these players) and the
    list, zipped as FIDE serves it."""
    event = tmp / "inputs" / "club-open"
    shutil.copytree(ROOT / "inputs" / "club-open-2025", event)
    (event / "results.csv").unlink()
    for name in ("bye_requests.csv", "withdrawals.csv"):
        (event / name).unlink(missing_ok=True)
    (event / "players.csv").write_text(PLAYERS, encoding="utf-8")
    toml = (event / "event.toml").read_text(encoding="utf-8")
    toml = toml.replace("start = 2025-09-02", f"start = {start}").replace(
        "as_of = 2025-09-24", f"as_of = {start}").replace(
        "round_dates = [2025-09-02, 2025-09-09, 2025-09-16, 2025-09-23, 2025-09-30, 2025-10-07, "
        "2025-10-14]", "round_dates = []")
    (event / "event.toml").write_text(toml.replace("[fide_report]", "[fide_report_x]")
                                      .split("[fide_report_x]")[0], encoding="utf-8")
    lists = tmp / "inputs" / "lists"
    lists.mkdir()
    with zipfile.ZipFile(lists / "standard_jan23frl.zip", "w") as z:
        z.write(LIST, "standard_jan23frl.txt")
    return event


def read(event: Path):
    cfg = io.load_event_config(event)
    raw = {n: io.read_csv_strings(event / n) for n in cfg.files if (event / n).exists()}
    return cfg, raw


def test_the_list_in_force_fills_what_players_csv_leaves_and_the_page_says_so(tmp_path):
    event = season(tmp_path)
    cfg, raw = read(event)
    listed = season_lists.season_ratings(event, cfg, raw)
    assert listed is not None
    frame, found = listed
    assert found == [] and sorted(frame["fide_id"].to_list()) == ["4804929", "5045886"]
    raw["ratings.csv"] = listed
    run = prepare(cfg, raw, dt.date(2023, 2, 1))
    p = run.categories[0].players.sort("player_id")
    assert p.select("player_id", "rating", "nationality").rows() == [
        ("P1", 1671, "IND"), ("P2", 1800, "IRQ"), ("P3", 1500, None)]
    # the office's 1800 is kept against the list's 1876, with a warning naming the list
    warned = [f for f in run.findings if f.file == "players.csv" and f.column == "rating"]
    assert [(f.line, f.value) for f in warned] == [(3, "1800")]
    assert "FIDE standard, January 2023" in warned[0].reason


def test_no_list_before_the_event_and_the_events_own_file_wins(tmp_path):
    event = season(tmp_path, start="2022-12-15")  # before the January list
    cfg, raw = read(event)
    assert season_lists.list_in_force(event, cfg) is None
    assert season_lists.season_ratings(event, cfg, raw) is None
    event2 = season(tmp_path / "b")
    (event2 / "ratings.csv").write_text("fide_id,rating\n5045886,1500\n", encoding="utf-8")
    cfg, raw = read(event2)
    assert season_lists.season_ratings(event2, cfg, raw) is None  # its own ratings.csv
    assert season_lists.stamp(event2, cfg) == ""


def test_a_new_list_builds_the_event_again(tmp_path):
    event = season(tmp_path)
    before = unchanged.inputs_fingerprint(event)
    lists = event.parent / "lists"
    with zipfile.ZipFile(lists / "standard_jan23frl.zip", "a") as z:
        z.writestr("readme.md", "x")  # another file in the zip: its size changes
    assert unchanged.inputs_fingerprint(event) != before


def test_the_event_runs_with_the_list(prefect_harness, tmp_path):
    from flows.pipeline.events import run_events

    event = season(tmp_path)
    out = tmp_path / "out"
    assert run_events(event.parent, out, send_mail=False) == {"club-open": "ok"}
    kept = out / "club-open" / "office" / "published-inputs" / "ratings.csv.txt"
    assert kept.is_file() and "5045886" in kept.read_text(encoding="utf-8")
    page = (out / "club-open" / "players" / "open").glob("*.html")
    text = " ".join(p.read_text(encoding="utf-8") for p in page)
    assert "FIDE standard, January 2023" in text
    assert pl.read_csv(kept)["fide_id"].cast(pl.String).sort().to_list() == ["4804929", "5045886"]


NATIONAL = """member_id,name,rating
N-1,"A K, Kalshyan",1702
N-2,"A-Ali, Sali",1650
N-9,"Someone, Else",1400
"""
NATIONAL_LATER = "member_id,name,rating\nN-1,\"A K, Kalshyan\",1999\n"


def national_season(tmp: Path, start: str = "2023-02-01") -> Path:
    """The season above with member ids in players.csv (P2 typed a national rating of its
    own) and the federation's national lists of January and March 2023."""
    event = season(tmp, start)
    (event / "players.csv").write_text(
        "player_id,member_id,name,rating,fide_id,federation,national_rating\n"
        'P1,N-1,"A K, Kalshyan",,5045886,,\n'
        'P2,N-2,"A-Ali, Sali",1800,4804929,IRQ,1600\n'
        'P3,,"Nobody, Listed",1500,,,\n', encoding="utf-8")
    lists = event.parent / "lists"
    (lists / "national_jan23.csv").write_text(NATIONAL, encoding="utf-8")
    (lists / "national_mar23.csv").write_text(NATIONAL_LATER, encoding="utf-8")
    return event


def test_the_national_list_in_force_fills_national_ratings_by_member_id(tmp_path):
    """The season's national list (``lists/national_<mon><yy>.csv``) in force on the event's
    first day gives each player's ``national_rating`` by member id where players.csv leaves
    it empty; a rating of the file's own that differs is kept with a warning naming the list;
    the March list is not yet in force on 1 February."""
    event = national_season(tmp_path)
    cfg, raw = read(event)
    assert season_lists.list_in_force(event, cfg, national=True).name == "national_jan23.csv"
    listed = season_lists.season_national(event, cfg, raw)
    assert listed is not None and listed[1] == []
    assert sorted(listed[0]["member_id"].to_list()) == ["N-1", "N-2"]  # only the event's players
    raw["national_ratings.csv"] = listed
    run = prepare(cfg, raw, dt.date(2023, 2, 1))
    p = run.categories[0].players.sort("player_id")
    assert p.select("player_id", "national_rating").rows() == [("P1", 1702), ("P2", 1600), ("P3", None)]
    warned = [f for f in run.findings if f.column == "national_rating"]
    assert [(f.line, f.value) for f in warned] == [(3, "1600")]
    assert "National list, January 2023 says 1650" in warned[0].reason
    notes = dict(zip(p["player_id"], p["list_note"], strict=True))
    assert "national rating from National list, January 2023" in notes["P1"]
    assert "national rating 1600 as entered (National list, January 2023: 1650)" in notes["P2"]

    later = national_season(tmp_path / "later", start="2023-03-05")
    cfg, raw = read(later)
    assert season_lists.season_national(later, cfg, raw)[0]["rating"].to_list() == ["1999"]


def test_a_changed_national_list_builds_the_event_again_and_a_bad_one_is_a_row(tmp_path):
    event = national_season(tmp_path)
    before = unchanged.inputs_fingerprint(event)
    (event.parent / "lists" / "national_jan23.csv").write_text(NATIONAL + "N-3,X,1300\n", encoding="utf-8")
    assert unchanged.inputs_fingerprint(event) != before
    (event.parent / "lists" / "national_jan23.csv").write_text("id,elo\nN-1,1500\n", encoding="utf-8")
    cfg, raw = read(event)
    frame, found = season_lists.season_national(event, cfg, raw)
    assert frame.is_empty() and [(f.file, f.column) for f in found] == [
        ("../lists/national_jan23.csv", "member_id")]
    assert "has no member_id column" in found[0].reason


def test_a_list_that_comes_into_force_during_a_long_event_rates_the_rounds_from_then(tmp_path):
    """An event of seven Tuesdays from 17 January to 28 February 2023 (its rating reports by
    month): the February list (here the January excerpt with Kalshyan at 1700, made for the
    test) is in force from round 4, the first February round — the extract gives its entries
    with ``from_round`` 4, the start's without; the run takes the start's for the players and
    keeps the later one for the games from round 4; a changed February list builds the event
    again."""
    event = season(tmp_path, start="2023-01-15")
    toml = (event / "event.toml").read_text(encoding="utf-8")
    dates = ", ".join(f"2023-{m:02d}-{d:02d}" for m, d in ((1, 17), (1, 24), (1, 31), (2, 7),
                                                            (2, 14), (2, 21), (2, 28)))
    toml += ('\n[fide_report]\nformat = "TRF-2026"\ncity = "Riverton"\nfederation = "BEL"\n'
             f'chief_arbiter = "Arbiter, Chief"\nround_dates = [{dates}]\n')
    (event / "event.toml").write_text(toml, encoding="utf-8")
    text = LIST.read_text(encoding="utf-8").replace(
        "IND M                                1671", "IND M                                1700")
    with zipfile.ZipFile(event.parent / "lists" / "standard_feb23frl.zip", "w") as z:
        z.writestr("standard_feb23frl.txt", text)
    cfg, raw = read(event)
    assert [(r, p.name) for r, p in season_lists.later_lists(event, cfg)] == [(4, "standard_feb23frl.zip")]
    frame, found = season_lists.season_ratings(event, cfg, raw)
    assert found == []
    rows = sorted(frame.select("fide_id", "rating", "from_round", "list").rows())
    assert rows == [("4804929", "1876", "", "FIDE standard, January 2023"),
                    ("4804929", "1876", "4", "FIDE standard, February 2023"),
                    ("5045886", "1671", "", "FIDE standard, January 2023"),
                    ("5045886", "1700", "4", "FIDE standard, February 2023")]
    raw["ratings.csv"] = (frame, found)
    run = prepare(cfg, raw, dt.date(2023, 1, 15))
    assert run.categories[0].players.sort("player_id")["rating"].to_list()[0] == 1671
    assert sorted(run.later_ratings.rows()) == [("P1", 4, 1700), ("P2", 4, 1876)]
    before = unchanged.inputs_fingerprint(event)
    with zipfile.ZipFile(event.parent / "lists" / "standard_feb23frl.zip", "a") as z:
        z.writestr("readme.md", "x")
    assert unchanged.inputs_fingerprint(event) != before


def test_a_team_events_rosters_take_the_list_in_force_too(tmp_path):
    """A league's rosters.csv names its players by FIDE id as players.csv does: the season's
    list in force on its first day fills a rating the roster leaves empty and keeps a differing
    one with a warning on rosters.csv's line (FIDE B.02: the list in force at the start)."""
    from transforms.team.event import prepare as team_prepare

    event = tmp_path / "inputs" / "district-league-2025"
    shutil.copytree(ROOT / "inputs" / "district-league-2025", event)
    lines = (event / "rosters.csv").read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1].replace(",2286,2300017,", ",,5045886,")  # Dupont, Arthur: no rating given
    lines[2] = lines[2].replace(",1999,2307936,", ",1999,4804929,")  # the list says 1876
    (event / "rosters.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    lists = tmp_path / "inputs" / "lists"
    lists.mkdir()
    with zipfile.ZipFile(lists / "standard_jan23frl.zip", "w") as z:
        z.write(LIST, "standard_jan23frl.txt")
    cfg, raw = read(event)
    listed = season_lists.season_ratings(event, cfg, raw)
    assert listed is not None and sorted(listed[0]["fide_id"].to_list()) == ["4804929", "5045886"]
    raw["ratings.csv"] = listed
    run = team_prepare(cfg, raw, cfg.event.as_of)
    players = {r["player_id"]: r for g in run.groups for r in g.players.iter_rows(named=True)}
    assert players["RIV1-01"]["rating"] == 1671 and players["RIV1-02"]["rating"] == 1999
    warned = [(f.file, f.line, f.column, f.value) for f in run.findings if f.column == "rating"
              and "FIDE standard, January 2023" in f.reason]
    assert warned == [("rosters.csv", 3, "rating", "1999")]
    assert players["RIV1-01"]["list_note"] == ("rating from FIDE standard, January 2023; federation "
                                               "BEL as entered (FIDE standard, January 2023: IND)")
    assert "rating 1999 as entered (FIDE standard, January 2023: 1876)" in players["RIV1-02"]["list_note"]


def test_a_leagues_own_round_dates_bring_in_the_list_of_each_later_month(tmp_path):
    """A league gives its rounds' dates in its own table (``[team_round_robin] round_dates``:
    2 and 23 October, 13 and 27 November 2025, …), not in ``[fide_report]``: the November list
    is in force from round 3, the December list from round 5, the January one from round 6
    (transforms.fide.rating_report.event_round_dates), and the rosters' entries come with those rounds."""
    event = tmp_path / "inputs" / "district-league-2025"
    shutil.copytree(ROOT / "inputs" / "district-league-2025", event)
    lines = (event / "rosters.csv").read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1].replace(",2286,2300017,", ",1671,5045886,")
    (event / "rosters.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    lists = tmp_path / "inputs" / "lists"
    lists.mkdir()
    for month in ("sep25", "nov25", "dec25", "jan26"):
        with zipfile.ZipFile(lists / f"standard_{month}frl.zip", "w") as z:
            z.write(LIST, f"standard_{month}frl.txt")
    cfg, raw = read(event)
    assert [(r, p.name) for r, p in season_lists.later_lists(event, cfg)] == [
        (3, "standard_nov25frl.zip"), (5, "standard_dec25frl.zip"), (6, "standard_jan26frl.zip")]
    frame, found = season_lists.season_ratings(event, cfg, raw)
    assert found == []
    assert sorted(frame.filter(pl.col("fide_id") == "5045886")["from_round"].to_list()) == ["", "3", "5", "6"]


def test_a_series_reads_an_event_with_the_ratings_its_own_run_takes_from_the_list(tmp_path):
    """A series (or a seed route) that reads the event sees the players as the event's own
    pages show them: the list's rating and federation where players.csv leaves them empty
    (flows/pipeline/tasks.py EventFiles); and a new list changes what the series reads."""
    from flows.pipeline.tasks import read_source
    from transforms.kinds import event_result

    event = season(tmp_path)
    series = tmp_path / "inputs" / "circuit"
    source = read_source(series, tmp_path / "outputs" / "circuit", event.name)
    got = {f.name: (f.rating, f.federation) for f in event_result(source, dt.date(2023, 2, 1)).finishes}
    assert got == {"A K, Kalshyan": (1671, "IND"), "A-Ali, Sali": (1800, "IRQ"),
                   "Nobody, Listed": (1500, "")}
    with zipfile.ZipFile(event.parent / "lists" / "standard_jan23frl.zip", "a") as z:
        z.writestr("note.txt", "another download")
    assert read_source(series, tmp_path / "outputs" / "circuit", event.name).digest != source.digest

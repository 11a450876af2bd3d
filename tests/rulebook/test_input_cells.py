"""What an input CSV cell can carry, and how large an input may be (issue "Step 18"): every
line break, control character, bidirectional formatting character and inner byte order mark
is cleaned where every input file is read (``flows.io.read_csv_strings``), with one warning
row naming file, line, column and the value with the characters written visibly; a file past
a limit of event.toml's ``[limits]`` is refused with one error row naming the file and the
limit, without being read whole. The run through the real flow: tests/flows/test_input_limits.py.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import polars as pl
import pytest

from flows.io import read_csv_strings
from tests.conftest import event_table
from transforms.core.config import CSV_FIELD_LIMIT, InputLimits
from transforms.core.errors import ConfigError, Severity
from transforms.core.ingest import ReadLimits, clean_cell, past_limit, validate_files, visible
from transforms.kinds import parse_event_config, read_limits
from transforms.swiss.event import run_swiss
from transforms.swiss.schemas import SCHEMAS as SWISS_SCHEMAS

HOSTILE = Path(__file__).resolve().parents[1] / "data" / "hostile"
E, W = Severity.ERROR, Severity.WARNING

SWISS_TOML = event_table("cells", "Cells Open") + """[publish]
sender = "results@x.example"
[swiss]
rounds = 5
categories = [{ id = "open", name = "Open" }, { id = "girls", name = "Girls" }]
"""
GK_TOML = (Path(__file__).resolve().parents[2] / "inputs/golden-knights-2019/event.toml").read_text()


def payload(tmp_path: Path) -> tuple[pl.DataFrame, list]:
    """tests/data/hostile/control_characters.csv read as an input file (in a folder of its own:
    no event.toml beside it, the default limits)."""
    path = tmp_path / "control_characters.csv"
    shutil.copy(HOSTILE / "control_characters.csv", path)
    return read_csv_strings(path)


# ----------------------------------------------------------------------------- characters

def test_every_class_of_invisible_character_is_cleaned_with_one_warning_row(tmp_path):
    """Each payload row (LF, CR, CRLF inside a quoted cell, TAB, VT, FF, U+0085, U+2028,
    U+2029, NUL, ESC, DEL, a C1 control, the bidi marks, overrides, embeddings and isolates, an
    inner BOM) is read as its ``read_as`` and gets exactly one warning row on the line where
    its record starts, in its column, showing the value with each character as ``[U+XXXX]``."""
    frame, findings = payload(tmp_path)
    rows = frame.to_dicts()
    assert len(rows) == 21 and all(f.severity is W for f in findings)
    by_line = {f.line: f for f in findings}
    assert len(by_line) == len(findings) == 18  # one row per cleaned cell
    for r in rows:
        assert r["value"] == r["read_as"], r["case"]
        if r["shown"]:
            f = by_line[r["line"]]
            assert (f.file, f.column, f.value) == ("control_characters.csv", "value", r["shown"])
            assert f.reason.endswith(f"read as {r['read_as']!r}")
        else:
            assert r["line"] not in by_line, r["case"]
    # the records with a line break inside start on lines 2, 4 and 6 (each spans two)
    assert [r["line"] for r in rows[:4]] == [2, 4, 6, 8]
    assert [r["line"] for r in rows[3:]] == list(range(8, 26))


@pytest.mark.parametrize("case, kind, action", [
    ("ls", "a line break or tab", "U+2028 LINE SEPARATOR as a space"),
    ("nel", "a line break or tab", "U+0085 NEXT LINE as a space"),
    ("tab", "a line break or tab", "U+0009 TAB as a space"),
    ("nul", "a control character", "U+0000 NULL removed"),
    ("c1", "a control character", "U+0090 control character removed"),
    ("override", "a bidirectional formatting character", "U+202E RIGHT-TO-LEFT OVERRIDE removed"),
    ("marks", "a bidirectional formatting character", "U+061C ARABIC LETTER MARK removed"),
    ("bom", "a byte order mark inside the text", "U+FEFF BYTE ORDER MARK removed"),
])
def test_the_warning_names_the_class_each_character_and_what_became_of_it(tmp_path, case, kind, action):
    frame, findings = payload(tmp_path)
    line = frame.filter(pl.col("case") == case)["line"].item()
    reason = next(f.reason for f in findings if f.line == line)
    assert reason.startswith(kind) and action in reason


def test_zero_width_joiner_non_joiner_and_space_are_kept_without_a_row(tmp_path):
    """Decision: U+200D and U+200C spell Devanagari conjuncts and Persian words; U+200B breaks
    Thai words. None is a control or changes the order of the text: kept as they are."""
    frame, findings = payload(tmp_path)
    kept = frame.filter(pl.col("class") == "kept")
    assert "\u200d" in kept["value"][0] and "\u200c" in kept["value"][1] and "\u200b" in kept["value"][2]
    assert not {f.line for f in findings} & set(kept["line"])
    assert clean_cell("\u0915\u094d\u200d\u0937") == ("\u0915\u094d\u200d\u0937", "")


def test_a_run_of_line_breaks_is_one_space_and_removed_characters_leave_nothing():
    assert clean_cell("Ann\r\n\u2028\tLee")[0] == "Ann Lee"
    assert clean_cell("Ann\r\u200e\nLee")[0] == "Ann Lee"  # removed first, then one space
    assert clean_cell("\u202eAnn\x00")[0] == "Ann"
    assert visible("a\u2028b\x00") == "a[U+2028]b[U+0000]"


def test_a_column_name_is_cleaned_too_and_read_by_its_clean_name(tmp_path):
    path = tmp_path / "players.csv"
    path.write_text("player_id,\ufeffname,rat\u200eing\t,section\nP1,Ann,2000,open\n", encoding="utf-8")
    frame, findings = read_csv_strings(path)
    assert frame.columns == ["line", "player_id", "name", "rating", "section"]
    assert [(f.line, f.column, f.value, f.severity) for f in findings] == [
        (1, "name", "[U+FEFF]name", W), (1, "rating", "rat[U+200E]ing[U+0009]", W)]
    assert all("in a column name" in f.reason for f in findings)


def test_a_cleaned_cell_is_reported_once_not_again_by_the_schema(tmp_path):
    """The schema's own check of one-line text (``transforms.core.ingest.cast_frame``) finds
    nothing left: one row per cell, from the reader. A cleaned number is read as the number."""
    path = tmp_path / "players.csv"
    path.write_text('player_id,name,rating\nP1,"Kapoor,\nGita",2000\nP2,Ann\u2028Lee,1\u200e900\n',
                    encoding="utf-8")
    typed, findings = validate_files({"players.csv": read_csv_strings(path)},
                                     {"players.csv": SWISS_SCHEMAS["players.csv"]}, ())
    assert [(f.line, f.column, f.severity) for f in findings] == [
        (2, "name", W), (4, "name", W), (4, "rating", W)]
    assert typed["players.csv"]["name"].to_list() == ["Kapoor, Gita", "Ann Lee"]
    assert typed["players.csv"]["rating"].to_list() == [2000, 1900]


def test_a_clean_file_costs_no_cleaning_and_no_row(tmp_path):
    path = tmp_path / "results.csv"
    path.write_text("round,board,white_id,black_id,result\r\n1,1,P1,P2,1-0\r\n", encoding="utf-8")
    frame, findings = read_csv_strings(path)
    assert findings == [] and frame["result"].to_list() == ["1-0"]


# ----------------------------------------------------------------------------- limits, reading

def test_a_file_past_file_bytes_is_not_read_and_says_so(tmp_path):
    path = tmp_path / "results.csv"
    path.write_text("round,board,white_id,black_id,result\n" + "1,1,P1,P2,1-0\n" * 100)
    frame, findings = read_csv_strings(path, ReadLimits(file_bytes=1000))
    assert frame.height == 0 and len(findings) == 1
    f = findings[0]
    assert (f.file, f.line, f.column, f.value, f.severity) == (
        "results.csv", None, "limits.file_bytes", "1,437 bytes", E)
    assert "more than [limits] file_bytes = 1,000" in f.reason and "raise file_bytes" in f.reason
    assert past_limit(findings, "results.csv") is f
    assert read_csv_strings(path, ReadLimits(file_bytes=1437))[0].height == 100  # at the limit: read


def test_a_file_past_rows_gives_no_row_and_one_error(tmp_path):
    path = tmp_path / "results.csv"
    path.write_text("round,board,white_id,black_id,result\n" + "1,1,P1,P2,1-0\n" * 5 + "\n\n")
    frame, findings = read_csv_strings(path, ReadLimits(rows=4))
    assert frame.height == 0
    assert [(f.line, f.column, f.value, f.severity) for f in findings] == [
        (None, "limits.rows", "more than 4 rows", E)]
    assert "[limits] rows = 4" in findings[0].reason
    frame, findings = read_csv_strings(path, ReadLimits(rows=5))  # blank lines are no rows
    assert frame.height == 5 and findings == []


def test_a_cell_past_cell_chars_sets_its_row_aside_naming_line_and_column(tmp_path):
    path = tmp_path / "players.csv"
    path.write_text(f"player_id,name\nP1,Ann\nP2,{'x' * 41}\nP3,Cy\n")
    frame, findings = read_csv_strings(path, ReadLimits(cell_chars=40))
    assert frame["player_id"].to_list() == ["P1", "P3"]
    [f] = findings
    assert (f.line, f.column, f.value, f.severity) == (3, "name", "x" * 41 + " (41 characters)", E)
    assert "more than [limits] cell_chars = 40" in f.reason


def test_a_cell_longer_than_the_csv_reader_reads_is_the_cell_limit_too(tmp_path):
    path = tmp_path / "players.csv"
    path.write_text(f"player_id,name\nP1,Ann\nP2,{'x' * (CSV_FIELD_LIMIT + 1)}\nP3,Cy\n")
    frame, findings = read_csv_strings(path)
    assert frame["player_id"].to_list() == ["P1", "P3"]
    assert [(f.line, f.severity) for f in findings] == [(3, E)]
    assert "cell_chars = 10,000" in findings[0].reason


def test_the_limits_of_the_event_folder_are_those_read_both_ways(tmp_path):
    """read_csv_strings reads the limits of the event.toml beside the file: lowered, the file
    is refused; raised again, the same file is read."""
    (tmp_path / "event.toml").write_text(SWISS_TOML + "[limits]\nrows = 2\n")
    path = tmp_path / "results.csv"
    path.write_text("round,board,white_id,black_id,result\n1,1,P1,P2,1-0\n1,2,P3,P4,0-1\n1,3,P5,,PAB\n")
    frame, findings = read_csv_strings(path)
    assert frame.height == 0 and findings[0].column == "limits.rows"
    (tmp_path / "event.toml").write_text(SWISS_TOML + "[limits]\nrows = 3\n")
    frame, findings = read_csv_strings(path)
    assert frame.height == 3 and findings == []


def test_players_csv_holds_at_most_players_per_category_for_each_category():
    cfg = parse_event_config(SWISS_TOML + "[limits]\nplayers_per_category = 7\n")
    players = read_limits(cfg, "players.csv")
    assert (players.rows, players.rows_key) == (14, "players_per_category")
    assert players.rows_held == "its 2 categories hold at [limits] players_per_category = 7 each"
    assert read_limits(cfg, "results.csv") == ReadLimits()
    assert read_limits(parse_event_config(SWISS_TOML), "players.csv").rows == 10_000


# ----------------------------------------------------------------------------- [limits]

def test_the_limits_default_by_kind():
    assert parse_event_config(SWISS_TOML).limits == InputLimits(players_per_category=5_000)
    rr = SWISS_TOML.replace('kind = "swiss"', 'kind = "round_robin"').replace(
        "[swiss]\nrounds = 5\n", "[round_robin]\ndraw_seed = 1\n")
    assert parse_event_config(rr).limits.players_per_category == 500
    assert parse_event_config(GK_TOML).limits.players_per_category is None


@pytest.mark.parametrize("table, key, words", [
    ("rows = 0", "limits.rows", "must be at least 1"),
    ("file_bytes = -1", "limits.file_bytes", "must be at least 1"),
    ("cell_chars = 200000", "limits.cell_chars", "the longest cell the CSV reader reads"),
    ("players_per_category = 0", "limits.players_per_category", "must be at least 1"),
    ("rows = \"many\"", "limits.rows", "expected an integer"),
    ("row = 5", "limits.row", "unknown key (known: cell_chars, file_bytes, players_per_category, rows)"),
])
def test_a_bad_limit_is_a_configuration_error_naming_the_key(table, key, words):
    with pytest.raises(ConfigError) as e:
        parse_event_config(SWISS_TOML + f"[limits]\n{table}\n")
    assert e.value.key == key and words in e.value.reason


def test_limits_that_is_not_a_table_and_players_per_category_in_a_correspondence_event():
    with pytest.raises(ConfigError) as e:
        parse_event_config("limits = 5\n" + SWISS_TOML)
    assert e.value.key == "limits" and "expected a table" in e.value.reason
    with pytest.raises(ConfigError) as e:
        parse_event_config(GK_TOML + "\n[limits]\nplayers_per_category = 10\n")
    assert e.value.key == "limits.players_per_category" and "correspondence" in e.value.reason
    assert parse_event_config(GK_TOML + "\n[limits]\nrows = 10\n").limits.rows == 10


# ----------------------------------------------------------------------------- players per category

def test_a_category_past_players_per_category_is_not_paired_and_the_run_says_why(tmp_path):
    """Two categories, at most 3 players each: girls has 2 (fine), open 4 (one error naming
    the category and the limit; nothing is paired; the file's 6 rows are within 2 x 3, so it
    is read). Raised to 4, the same files pair."""
    rows = [f"O{i},Open {i},open,{2000 - i}" for i in range(4)] + \
           [f"G{i},Girl {i},girls,{1900 - i}" for i in range(2)]
    (tmp_path / "players.csv").write_text("player_id,name,section,rating\n" + "\n".join(rows) + "\n")
    for limit, blocked in ((3, True), (4, False)):
        (tmp_path / "event.toml").write_text(SWISS_TOML + f"[limits]\nplayers_per_category = {limit}\n")
        cfg = parse_event_config((tmp_path / "event.toml").read_text())
        raw = {n: read_csv_strings(tmp_path / n) for n in SWISS_SCHEMAS if (tmp_path / n).exists()}
        run = run_swiss(cfg, raw, dt.date(2024, 9, 16))
        if blocked:
            [f] = [f for f in run.findings if f.severity is E]
            assert (f.file, f.line, f.column, f.value) == (
                "players.csv", None, "limits.players_per_category", "open: 4 players")
            assert run.blocked.startswith("players.csv: category 'open' has 4 players, more than "
                                          "[limits] players_per_category = 3")
            assert run.categories == []
        else:
            assert not run.blocked and [c.pairing.round for c in run.categories] == [1, 1]


def test_a_round_robin_category_is_bounded_too(tmp_path):
    rr = SWISS_TOML.replace('kind = "swiss"', 'kind = "round_robin"').replace(
        "[swiss]\nrounds = 5\n", "[round_robin]\ndraw_seed = 1\n")
    cfg = parse_event_config(rr + "[limits]\nplayers_per_category = 3\n")
    (tmp_path / "players.csv").write_text("player_id,name,section,rating\n" + "\n".join(
        f"{c[0].upper()}{i},P {i},{c},{2000 - i}" for c in ("open", "girls") for i in range(3 if c == "open" else 2)
    ) + "\nO9,P 9,open,1500\n")
    run = run_swiss(cfg, {"players.csv": read_csv_strings(tmp_path / "players.csv")}, dt.date(2024, 9, 16))
    assert run.blocked.startswith("players.csv: category 'open' has 4 players, more than [limits] "
                                  "players_per_category = 3")


def test_a_correspondence_event_gets_the_same_cells_and_limits(tmp_path):
    """The Golden Knights' files go through the same reader: a line separator in a member's
    name is a warning and read as a space; members.csv past ``[limits] rows`` is one error and
    stops everything after it (flows/kinds/correspondence/flow.py ``publish_site``), with the
    file and the limit said."""
    from transforms.core.ingest import limit_said, unusable

    gk = tmp_path / "gk"
    shutil.copytree(Path(__file__).resolve().parents[2] / "inputs/golden-knights-2019", gk)
    members = (gk / "members.csv").read_text(encoding="utf-8")
    (gk / "members.csv").write_text(members.replace("Jessica Young", "Jessica\u2028Young"), encoding="utf-8")
    cfg = parse_event_config((gk / "event.toml").read_text())
    raw = {n: read_csv_strings(gk / n) for n in cfg.files if (gk / n).exists()}
    typed, findings = validate_files(raw, dict(cfg.files), cfg.required_files)
    [f] = [f for f in findings if f.file == "members.csv"]
    assert (f.line, f.column, f.value, f.severity) == (2, "name", "Jessica[U+2028]Young", W)
    assert "Jessica Young" in typed["members.csv"]["name"].to_list()
    (gk / "event.toml").write_text((gk / "event.toml").read_text() + "\n[limits]\nrows = 149\n")
    cfg = parse_event_config((gk / "event.toml").read_text())
    raw = {n: read_csv_strings(gk / n) for n in cfg.files if (gk / n).exists()}
    typed, findings = validate_files(raw, dict(cfg.files), cfg.required_files)
    assert unusable(findings, "members.csv") and typed["members.csv"].height == 0
    assert limit_said(findings, "members.csv", "entries.csv").startswith(
        "members.csv: the file has more than 149 rows, more than [limits] rows = 149: ")

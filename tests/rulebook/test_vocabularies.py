"""Enumerated input columns: a cell holds a code or one of its wordings (the regulation's
words, other programs' spellings), compared ignoring case, spaces and underscores; anything
else is rejected with a finding that lists the accepted codes (DESIGN.md Inputs)."""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import Path

import polars as pl
import pytest

from flows.io import read_csv_strings
from transforms.core.errors import Severity
from transforms.core.ingest import (
    ColType,
    Schema,
    Vocabulary,
    cast_frame,
    validate_files,
    wording_key,
)
from transforms.golden_knights.schemas import SCHEMAS as GK_SCHEMAS
from transforms.kinds import parse_event_config
from transforms.national_junior.entries import JuniorEntryRules, SeedReason, evaluate_entries
from transforms.national_junior.schemas import SCHEMAS as SWISS_SCHEMAS

ROOT = Path(__file__).resolve().parents[2]
CFG = parse_event_config((ROOT / "inputs/national-junior-2024/event.toml").read_text())
SCHEMAS = {**{f"swiss/{k}": v for k, v in SWISS_SCHEMAS.items()},
           **{f"gk/{k}": v for k, v in GK_SCHEMAS.items()}}
ENUMERATED = [(k, c.name) for k, s in SCHEMAS.items() for c in s.columns if c.vocabulary]

_VALID = {ColType.INT: "1", ColType.FLOAT: "1", ColType.MONEY: "1", ColType.DATE: "2024-01-01",
          ColType.DATETIME: "2024-01-01T10:00", ColType.BOOL: "true", ColType.EMAIL: "a@b.example"}


def rows(schema: Schema, column: str, cells: list[str]) -> pl.DataFrame:
    """Raw frame (all strings, ``line``): one valid row per cell, with ``column`` = the cell."""
    data: dict[str, list[str]] = {"line": [str(i + 2) for i in range(len(cells))]}
    for c in schema.columns:
        if c.name == column:
            data[c.name] = cells
        elif c.vocabulary is not None:
            data[c.name] = [c.vocabulary.codes[0]] * len(cells)
        elif c.codes is not None:  # a country code list
            data[c.name] = [c.codes.example] * len(cells)
        elif c.pattern is not None:  # fide_id (digits), federation (three letters)
            data[c.name] = [str(i + 1) if re.fullmatch(c.pattern[0], "1") else "IND"
                            for i in range(len(cells))]
        elif c.minimum is not None and c.type is ColType.INT:  # (a valid value: the least)
            data[c.name] = [str(int(c.minimum))] * len(cells)
        else:
            data[c.name] = [_VALID.get(c.type, f"x{i}") for i in range(len(cells))]
    return pl.DataFrame(data)


@pytest.mark.parametrize("schema_id, column", ENUMERATED, ids=[f"{s}:{c}" for s, c in ENUMERATED])
def test_every_code_and_wording_is_read_as_its_code_ignoring_case_spaces_and_underscores(
    schema_id, column
):
    schema = SCHEMAS[schema_id]
    vocab = schema.column(column).vocabulary
    cells, expected = [], []
    for code, words in vocab.terms:
        for w in (code, *words):
            variants = [w, w.upper(), w.lower(), "  " + w.replace(" ", "   ") + " ",
                        w.replace("_", " ").title()]
            cells += variants
            expected += [code] * len(variants)
    typed, findings = cast_frame(rows(schema, column, cells), schema)
    assert findings == []
    assert typed[column].to_list() == expected


@pytest.mark.parametrize("schema_id, column", ENUMERATED, ids=[f"{s}:{c}" for s, c in ENUMERATED])
def test_a_value_outside_an_enumerated_column_is_rejected_listing_the_accepted_codes(
    schema_id, column
):
    schema = SCHEMAS[schema_id]
    col = schema.column(column)
    typed, findings = cast_frame(rows(schema, column, ["nonsense"]), schema)
    if not col.closed:  # seed_reason: the event's [entries] seed_routes decide (tested below)
        assert findings == [] and typed[column].to_list() == ["nonsense"]
        return
    [f] = findings
    assert (f.file, f.line, f.column, f.value, f.severity) == (
        schema.file, 2, column, "nonsense", Severity.ERROR)
    assert f.reason == "not one of: " + ", ".join(col.vocabulary.codes)
    assert typed.height == 0


def test_the_bye_kinds_and_their_rejection():
    schema = SWISS_SCHEMAS["bye_requests.csv"]
    typed, findings = cast_frame(rows(schema, "kind", ["Half-point bye", "zero point bye"]), schema)
    assert typed["kind"].to_list() == ["HPB"]
    [f] = findings
    assert (f.value, f.reason) == ("zero point bye", "not one of: HPB, ZPB")


@pytest.mark.parametrize("schema_id, column", ENUMERATED, ids=[f"{s}:{c}" for s, c in ENUMERATED])
def test_no_wording_of_a_vocabulary_is_claimed_by_two_codes(schema_id, column):
    assert SCHEMAS[schema_id].column(column).vocabulary.ambiguous == {}


class _Toy(StrEnum):
    A = "a"
    B = "b"


def test_a_wording_two_codes_share_means_neither():
    # Decision: "either" could be a or b, so it is not read as one of them.
    vocab = Vocabulary.of(_Toy, {_Toy.A: ("Either", "Alpha"), _Toy.B: ("either",)})
    assert vocab.ambiguous == {"either": ("a", "b")}
    assert [vocab.recognise(t) for t in ("EITHER", "alpha", "A", "b", "c")] == [
        None, "a", "a", "b", None]


def test_wording_key_ignores_case_spaces_and_underscores_only():
    assert wording_key(" Half-point  Bye ") == wording_key("half-point bye") == "half-pointbye"
    assert wording_key("No_Association") == wording_key("no association")
    assert wording_key("1-0") != wording_key("10")


# --- seed_reason: the regulation's wording, through players.csv to the entry decision --------

HEADER = ("player_id,name,section,gender,birth_date,nationality,state,fide_id,rating,title,"
          "entry_type,seed_reason,registered_at,fee_paid,aicf_registered,email")


def player(pid: str, section: str, gender: str, seed_reason: str, title: str = "",
           entry_type: str = "Seeded player") -> str:
    return (f'{pid},"Rao, {pid}",{section},{gender},2007-01-01,ind,TN,,2200,{title},{entry_type},'
            f'"{seed_reason}",2024-08-20T10:00,2000,yes,')


def decide_files(tmp_path: Path, *lines: str):
    raw = {}
    for name, text in {"players.csv": "\n".join([HEADER, *lines]) + "\n",
                       "associations.csv": "state,name,arrears_cleared,email\nTN,Tamil Nadu,true,\n"
                       }.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        raw[name] = read_csv_strings(tmp_path / name)
    typed, findings = validate_files(raw, SWISS_SCHEMAS, ("players.csv", "associations.csv"))
    assert findings == []
    return evaluate_entries(typed["players.csv"], typed["associations.csv"], CFG.require(JuniorEntryRules))


def test_seed_reason_in_the_regulations_words_is_read_as_its_route(tmp_path):
    r = decide_files(
        tmp_path,
        player("G1", "girls", "female", "Top four, 2023 National Junior (U-19) Girls Championship"),
        player("O1", "open", "F", "top four, 2023 national junior (u-19) GIRLS championship"),
        player("O2", "open", "m", "title_gm_im", title="grandmaster"),
        player("O3", "Open".lower(), "Girl",
               "Winner or runner-up, 2023 National U-19 Girls Championship, in the Open section"),
    )
    got = dict(r.decisions.select("player_id", "status").iter_rows())
    assert got == {"G1": "accepted", "O1": "rejected", "O2": "accepted", "O3": "accepted"}
    assert dict(r.entry_list.select("player_id", "seed_reason").iter_rows()) == {
        "G1": "nj2023_top4_girls", "O2": "title_gm_im", "O3": "ng19_2023_top2_open"}
    [f] = r.findings
    assert (f.file, f.line, f.column, f.value) == ("players.csv", 3, "seed_reason",
                                                   "nj2023_top4_girls")
    assert f.reason == ("seed route nj2023_top4_girls does not seed into the open section "
                        "(it seeds into girls)")


def test_seed_reason_is_a_closed_set_a_finding_names_file_line_column_value(tmp_path):
    r = decide_files(tmp_path, player("O1", "open", "M", "nj2023_top4_open"),
                     player("O2", "open", "M", "club champion"))
    [f] = r.findings
    assert (f.file, f.line, f.column, f.value, f.severity) == (
        "players.csv", 3, "seed_reason", "club champion", Severity.ERROR)
    assert f.reason == ("unknown seed_reason 'club champion' (accepted: "
                        + ", ".join(r.value for r in SeedReason) + ")")
    assert dict(r.decisions.select("player_id", "status").iter_rows()) == {
        "O1": "accepted", "O2": "rejected"}


def test_an_ambiguous_former_seed_code_is_rejected_naming_its_replacements(tmp_path):
    r = decide_files(tmp_path, player("O1", "open", "M", "nj2023_top4"))
    [f] = r.findings
    assert (f.line, f.column, f.value) == (2, "seed_reason", "nj2023_top4")
    assert f.reason.startswith("seed_reason 'nj2023_top4' names no category: write "
                               "nj2023_top4_open or nj2023_top4_girls")

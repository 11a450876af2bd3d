"""The input reference (inputs/README.md) is what ``chessfed input-reference`` writes from the
code, and it leaves nothing out: every column, every key, a meaning for every code."""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

import pytest

from flows.cli.input_reference import attribute_docs, cell, input_reference, member_meanings
from flows.cli.main import main
from transforms.core import config
from transforms.core.model import DutchEdition
from transforms.fide.rating_report import RatingReportRules
from transforms.fide.tiebreaks import Edition, known_codes
from transforms.golden_knights.rules import GKRules
from transforms.golden_knights.schemas import SCHEMAS as GK_SCHEMAS
from transforms.kinds import EventKind
from transforms.national_junior.entries import JuniorEntryRules, SeedReason
from transforms.national_junior.part import NationalJuniorPlay
from transforms.national_junior.schemas import SCHEMAS as NJ_SCHEMAS
from transforms.round_robin.config import RoundRobinConfig
from transforms.swiss import config as swiss_config
from transforms.swiss.schemas import SCHEMAS as SWISS_SCHEMAS

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "inputs" / "README.md"


@functools.cache
def generated() -> str:
    """The reference as the generator writes it, made once for the tests that only read it."""
    return input_reference()


SCHEMAS = [*SWISS_SCHEMAS.values(), NJ_SCHEMAS["players.csv"], NJ_SCHEMAS["associations.csv"],
           *GK_SCHEMAS.values()]
ENUMERATED = [(s.file, c) for s in SCHEMAS for c in s.columns if c.vocabulary is not None]
TABLES = [config.EventInfo, config.PublishConfig, config.Recipient, swiss_config.SwissConfig,
          swiss_config.Category, RoundRobinConfig, JuniorEntryRules, NationalJuniorPlay, GKRules,
          RatingReportRules, config.InputLimits]


def test_the_committed_reference_is_what_the_generator_writes():
    # If this fails: chessfed input-reference --out inputs/README.md
    assert REFERENCE.read_text(encoding="utf-8") == input_reference()


def test_the_command_writes_the_reference(tmp_path):
    out = tmp_path / "README.md"
    assert main(["input-reference", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == input_reference()


def test_every_column_of_every_file_is_described_and_listed():
    text = generated()
    for schema in SCHEMAS:
        assert f"### `{schema.file}`" in text
        assert schema.description
        for c in schema.columns:
            assert c.description, f"{schema.file} {c.name} has no description"
            assert f"| `{c.name}` |" in text


@pytest.mark.parametrize("file, column", ENUMERATED, ids=[f"{f}:{c.name}" for f, c in ENUMERATED])
def test_every_code_of_every_enumerated_column_has_a_meaning_in_the_reference(file, column):
    text = generated()
    meanings = member_meanings(column.vocabulary.source)
    for code, wordings in column.vocabulary.terms:
        assert meanings[code], f"{file} {column.name}: code {code!r} has no docstring"
        others = ", ".join(f"`{w}`" for w in wordings) or "—"
        assert f" | {others} | {cell(meanings[code])} |" in text
        assert f"| `{code}` | " in text


def test_the_regulations_wording_of_a_seed_route_is_in_the_reference():
    text = generated()
    assert ("| `nj2023_top4_girls` | `girls` | "
            "`Top four, 2023 National Junior (U-19) Girls Championship`, "
            "`Top four, 2023 National Junior (Under-19) Girls Chess Championship` | "
            "The same text: top four of the Girls championship, seeded into Girls. |") in text
    assert "| `world_champion_2023_girls` | `girls` | " in text
    assert "| `ng19_2023_top2_open` | `open` | " in text
    assert all(f"| `{r.value}` |" in text for r in SeedReason)


@pytest.mark.parametrize("cls", TABLES, ids=[t.__name__ for t in TABLES])
def test_every_event_toml_key_has_a_meaning(cls):
    docs = attribute_docs(cls)
    missing = [f.name for f in dataclasses.fields(cls) if not docs.get(f.name)]
    assert missing == []


def test_every_event_toml_code_has_a_meaning():
    text = generated()
    for enum in (EventKind, swiss_config.InitialColour, DutchEdition, Edition):
        for value, meaning in member_meanings(enum).items():
            assert meaning and f'| `"{value}"` | {cell(meaning)} |' in text
    assert all(f"| `{c}` |" in text for c in known_codes() if "-" not in c)

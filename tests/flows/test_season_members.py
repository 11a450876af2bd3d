"""The season's member registry in an event's run (issue 47, flows/pipeline/season_members.py):
an entry that names a member (member id, else FIDE id) takes from ``members.csv`` what it
leaves empty, and each player the registry disagrees with is a row of the event's validation —
in the event's own run and wherever another event (a series) reads it."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

from flows import io
from flows.pipeline import unchanged
from flows.pipeline.tasks import read_files, read_source
from transforms.kinds import event_result
from transforms.swiss.event import prepare

ROOT = Path(__file__).resolve().parents[2]
MEMBERS = """member_id,name,fide_id,birth_date,sex,federation,email
RCC-101,"Pauwels, Lise",,1984-10-22,F,BEL,lise@players.example
RCC-103,"Leroy, Jonas",2316018,1978-01-13,M,BEL,jonas@players.example
RCC-104,"Van Damme, Lars",,1956-02-01,M,BEL,
"""
PLAYERS = """player_id,member_id,name,rating,fide_id,federation,sex,club,email
R1,RCC-101,,1500,,,,Riverside CC,
R2,,"Leroy, Jonas",1866,2316018,NED,M,Riverside CC,
R3,RCC-999,"Nobody, Known",1400,,BEL,M,Riverside CC,
R4,RCC-104,"Van Damme, Lars",1243,,BEL,F,Riverside CC,lars@elsewhere.example
R5,,"Guest, Visiting",1700,,FRA,M,Other CC,
R6,,"Lise Pauwels",1650,,NED,M,Other CC,
"""


def season(tmp: Path, members: str = MEMBERS) -> Path:
    event = tmp / "inputs" / "rapid"
    shutil.copytree(ROOT / "inputs" / "riverside-rapid-2026-03", event)
    for name in ("results.csv", "bye_requests.csv", "withdrawals.csv"):
        (event / name).unlink(missing_ok=True)
    (event / "players.csv").write_text(PLAYERS, encoding="utf-8")
    (tmp / "inputs" / "members.csv").write_text(members, encoding="utf-8")
    return event


def test_an_entry_naming_a_member_takes_the_rest_from_the_registry_and_disagreements_are_rows(tmp_path):
    event = season(tmp_path)
    cfg = io.load_event_config(event)
    raw = read_files(event, list(cfg.files), cfg=cfg)
    players, found = raw["players.csv"]
    first = players.row(0, named=True)
    # R1 named only by member id: name, sex, federation and address from the registry
    assert (first["name"], first["sex"], first["federation"], first["email"]) == (
        "Pauwels, Lise", "F", "BEL", "lise@players.example")
    assert players.row(3, named=True)["email"] == "lars@elsewhere.example"  # its own kept
    rows = sorted((f.line, f.column, f.value) for f in found)
    assert rows == [(3, "federation", "NED"),       # found by FIDE id: BEL in the registry
                    (4, "member_id", "RCC-999"),    # no such member
                    (5, "sex", "F")]                # the member is M
    assert all(f.file == "players.csv" and f.severity.value == "warning" for f in found)
    # the guest (no member id, no FIDE id) is no row in an event's run, nor the namesake of a
    # member found by name alone (R6: season-check's to list); the event is paired
    run = prepare(cfg, raw, dt.date(2026, 3, 10))
    assert not [f for f in run.findings if f.severity.value == "error"]
    assert "Pauwels, Lise" in run.categories[0].players["name"].to_list()


def test_a_series_reads_the_event_as_the_registry_fills_it(tmp_path):
    event = season(tmp_path)
    source = read_source(tmp_path / "inputs" / "circuit", tmp_path / "outputs" / "circuit", event.name)
    names = [f.name for f in event_result(source, dt.date(2026, 3, 10)).finishes]
    assert "Pauwels, Lise" in names and "" not in names


def test_a_changed_registry_builds_the_event_again(tmp_path):
    event = season(tmp_path)
    before = unchanged.inputs_fingerprint(event)
    (tmp_path / "inputs" / "members.csv").write_text(MEMBERS.replace("1956-02-01", "1956-02-02"),
                                                     encoding="utf-8")
    assert unchanged.inputs_fingerprint(event) != before


def test_without_a_registry_the_entries_are_as_typed(tmp_path):
    event = season(tmp_path)
    (tmp_path / "inputs" / "members.csv").unlink()
    cfg = io.load_event_config(event)
    players, found = read_files(event, list(cfg.files), cfg=cfg)["players.csv"]
    assert players.row(0, named=True)["name"] in (None, "") and found == []

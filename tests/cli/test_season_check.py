"""``chessfed season-check``: the member registry beside the event folders, and every event's
players against it (a copy of the demo's club open, its members written here)."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl

from flows.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def season(tmp_path: Path, members: str) -> Path:
    inputs = tmp_path / "inputs"
    shutil.copytree(ROOT / "inputs" / "club-open-2025", inputs / "club-open-2025")
    (inputs / "members.csv").write_text(members, encoding="utf-8")
    return inputs


def test_every_players_identity_against_the_registry(tmp_path):
    players = pl.read_csv(ROOT / "inputs" / "club-open-2025" / "players.csv", infer_schema_length=0)
    rated = players.filter(pl.col("fide_id").fill_null("") != "")
    lines = ["member_id,name,fide_id,birth_date,sex,valid_from,valid_to"]
    for i, p in enumerate(rated.iter_rows(named=True)):
        surname, given = p["name"].split(", ")
        name = f"{given} {surname}" if i == 0 else ("Someone, Else" if i == 1 else p["name"])
        lines.append(f'M{i},"{name}",{p["fide_id"]},,{p["sex"]},2025-01-01,'
                     + ("2025-06-30" if i == 2 else ""))
    lines.append("M90,\"Peeters, Jan\",,1990-02-02,M,,")
    lines.append("M91,\"Peeters, Jan\",,1990-02-02,M,,")
    inputs = season(tmp_path, "\n".join(lines) + "\n")
    out = tmp_path / "check.csv"
    assert main(["season-check", str(inputs), "--out", str(out)]) == 1
    rows = pl.read_csv(out, infer_schema_length=0)
    assert rows.columns == ["file", "line", "column", "value", "severity", "reason"]
    by = {(r["file"], r["column"], r["reason"].split(" is ")[0]) for r in rows.iter_rows(named=True)}
    assert ("club-open-2025/players.csv", "name", "the member M1") in by           # another name
    assert not any("the member M0" in r for r in rows["reason"])                    # the same, reordered
    assert any("M2's membership is not valid on 2025-09-02" in r for r in rows["reason"])
    assert any(r.startswith("probably the member M90") for r in rows["reason"])
    unrated = players.height - rated.height
    assert sum("no FIDE id" in r for r in rows["reason"]) == unrated


def test_no_registry_is_said(tmp_path, capsys):
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    assert main(["season-check", str(inputs)]) == 2
    assert "no members.csv" in capsys.readouterr().err

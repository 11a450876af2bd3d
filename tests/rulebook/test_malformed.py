"""A dozen malformed input files: each gives a precise validation row, never a traceback.
The event's own steps run without Prefect here (``prepare`` / ``compute``); the real flow
over a broken event is in test_e2e.py."""

import datetime as dt
import shutil
from pathlib import Path

import pytest

from flows import io
from flows.kinds.correspondence.flow import compute
from flows.pipeline.tasks import check_config
from transforms.core.errors import ConfigError, Severity
from transforms.core.ingest import validate_files as validate
from transforms.golden_knights.schemas import REQUIRED as GK_REQUIRED
from transforms.golden_knights.schemas import SCHEMAS as GK_SCHEMAS
from transforms.kinds import parse_event_config
from transforms.national_junior.schemas import SCHEMAS as SWISS_SCHEMAS
from transforms.swiss import event as swiss

ROOT = Path(__file__).resolve().parents[2]
NJ = ROOT / "inputs" / "national-junior-2024"
GK = ROOT / "inputs" / "golden-knights-2019"


def copy(src: Path, tmp: Path) -> Path:
    dst = tmp / src.name
    shutil.copytree(src, dst)
    return dst


def edit(path: Path, line_no: int, old: str, new: str) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    assert old in lines[line_no - 1], (old, lines[line_no - 1])
    lines[line_no - 1] = lines[line_no - 1].replace(old, new, 1)
    path.write_text("".join(lines), encoding="utf-8")


def nj_findings(folder: Path):
    cfg = parse_event_config((folder / "event.toml").read_text())
    raw = {n: io.read_csv_strings(folder / n) for n in SWISS_SCHEMAS if (folder / n).exists()}
    run = swiss.prepare(cfg, raw, cfg.event.as_of)
    return run, run.findings


def gk_findings(folder: Path):
    cfg = parse_event_config((folder / "event.toml").read_text())
    raw = {n: io.read_csv_strings(folder / n) for n in GK_SCHEMAS if (folder / n).exists()}
    typed, findings = validate(raw, GK_SCHEMAS, GK_REQUIRED)
    res = compute(cfg, typed, cfg.event.as_of)
    return findings + res.findings


def has(findings, file, line, column):
    return any(f.file == file and f.line == line and f.column == column and f.severity is Severity.ERROR
               for f in findings)


def line_of(path: Path, needle: str) -> int:
    for i, text in enumerate(path.read_text().splitlines(), start=1):
        if needle in text:
            return i
    raise AssertionError(needle)


def test_demo_inputs_have_no_errors():
    run, findings = nj_findings(NJ)
    assert not run.blocked
    assert all(f.file == "players.csv" or f.severity is Severity.WARNING for f in findings)
    assert not [f for f in gk_findings(GK) if f.severity is Severity.ERROR]


@pytest.mark.parametrize("file, needle, old, new, column", [
    ("players.csv", "O010,", "2", "2x", "birth_date"),                # bad date
    ("players.csv", "O011,", ",true,", ",perhaps,", "aicf_registered"),  # bad boolean
    ("players.csv", "O013,", ",quota,", ",guest,", "entry_type"),     # unknown entry type
    ("players.csv", "O014,", "O014", "O001", "player_id"),            # duplicate id
    ("results.csv", "1,3,", "1,3,", "1,2,", "board"),                 # same board twice
    ("results.csv", "2,5,", "2,5,", "twee,5,", "round"),              # not an integer
    ("results.csv", "3,7,", "FIELD4", "2-0", "result"),               # unknown result code
    ("bye_requests.csv", "O020", "O020", "O999", "player_id"),        # unknown player
    ("withdrawals.csv", "O012", ",8,", ",14,", "from_round"),         # beyond the rounds
])
def test_national_junior_malformed_cell(tmp_path, file, needle, old, new, column):
    folder = copy(NJ, tmp_path)
    line = line_of(folder / file, needle)
    if file == "players.csv" and column == "birth_date":
        edit(folder / file, line, ",2", ",2x")
    elif old.startswith("FIELD"):
        lines = (folder / file).read_text().splitlines(keepends=True)
        fields = lines[line - 1].split(",")
        fields[int(old[5:])] = new
        lines[line - 1] = ",".join(fields)
        (folder / file).write_text("".join(lines))
    else:
        edit(folder / file, line, old, new)
    run, findings = nj_findings(folder)
    assert has(findings, file, line, column), [f for f in findings if f.file == file]


def test_player_twice_in_one_round(tmp_path):
    folder = copy(NJ, tmp_path)
    path = folder / "results.csv"
    first = path.read_text().splitlines()[1].split(",")
    with open(path, "a") as fh:
        fh.write(f"1,200,{first[2]},,HPB,,\n")
    n = len(path.read_text().splitlines())
    _, findings = nj_findings(folder)
    assert has(findings, "results.csv", n, "white_id")


@pytest.mark.parametrize("file, needle, old, new, column", [
    ("members.csv", "12000009,", "2021-11-28", "2021-11-31", "membership_expires"),  # impossible date
    ("entries.csv", "GK19-0001,", ",mail,", ",pigeon,", "channel"),
    ("games.csv", "GK19-0144,GK19-0143", ",1-0,", ",1-1,", "result"),
])
def test_golden_knights_malformed_cell(tmp_path, file, needle, old, new, column):
    folder = copy(GK, tmp_path)
    line = line_of(folder / file, needle)
    edit(folder / file, line, old, new)
    assert has(gk_findings(folder), file, line, column)


def test_empty_and_non_utf8_files(tmp_path):
    folder = copy(GK, tmp_path)
    (folder / "time_oversteps.csv").write_bytes(b"")
    (folder / "sections.csv").write_bytes("stage,section,entry_id\npreliminary,P\xe9,GK19-0001\n".encode("latin-1"))
    findings = gk_findings(folder)
    assert any(f.file == "time_oversteps.csv" and f.reason.startswith("the file is empty") for f in findings)
    assert any(f.file == "sections.csv" and f.line == 2 and f.reason.startswith("not UTF-8 text")
               for f in findings)


def test_bad_event_toml_key_is_named(tmp_path):
    folder = copy(NJ, tmp_path)
    text = (folder / "event.toml").read_text().replace('"BH-C1", "BH"', '"BH-C1", "BHX"')
    (folder / "event.toml").write_text(text)
    with pytest.raises(ConfigError) as e:
        check_config(folder)
    assert "swiss.tiebreaks" in str(e.value) and "BHX" in str(e.value)


def test_bad_rules_table_is_named(tmp_path):
    folder = copy(GK, tmp_path)
    text = (folder / "event.toml").read_text().replace("section_size = 7", "section_size = 8")
    (folder / "event.toml").write_text(text)
    with pytest.raises(ConfigError) as e:
        check_config(folder)
    assert "section_size" in str(e.value)


def test_run_date_is_a_parameter():
    run, _ = nj_findings(NJ)
    assert run.as_of == dt.date(2024, 9, 24)

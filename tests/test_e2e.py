"""Both demo events end to end through the real Prefect flows (one shared test harness)."""

import csv
import json
import shutil
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from pypdf import PdfReader

ROOT = Path(__file__).resolve().parent.parent
EVENTS = ("national-junior-2024", "golden-knights-2019")


@pytest.fixture(scope="module")
def demo_run(prefect_harness, tmp_path_factory):
    from flows.events import run_events

    base = tmp_path_factory.mktemp("e2e")
    shutil.copytree(ROOT / "inputs", base / "inputs")
    out = base / "outputs"
    status = run_events(base / "inputs", out)
    first = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    status2 = run_events(base / "inputs", out)
    second = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    return base, out, status, first, status2, second


def test_every_demo_event_runs(demo_run):
    _, _, status, _, status2, _ = demo_run
    assert status == {e: "ok" for e in EVENTS}
    assert status2 == status


@pytest.mark.parametrize("event", EVENTS)
def test_each_event_publishes_the_contract_files(demo_run, event):
    _, out, *_ = demo_run
    d = out / event
    for name in ("validation.csv", "validation.html", "index.html", "bulletin.pdf", "manifest.json"):
        assert (d / name).is_file(), name
    with open(d / "validation.csv", newline="") as fh:
        assert next(csv.reader(fh)) == ["file", "line", "column", "value", "severity", "reason"]
    emls = sorted((d / "outbox").glob("*.eml"))
    assert emls
    msg = message_from_bytes(emls[0].read_bytes(), policy=policy.default)
    assert [a.get_filename() for a in msg.iter_attachments()] == ["bulletin.pdf"]
    assert msg.get_body(("html",)) is not None
    manifest = json.loads((d / "manifest.json").read_text())
    assert {i["path"] for i in manifest["inputs"]} >= {"event.toml"}
    assert all(len(i["sha256"]) == 64 for i in manifest["inputs"])
    assert "bulletin.pdf" in {o["path"] for o in manifest["outputs"]}
    assert manifest["versions"]["prefect"].startswith("3.")
    text = PdfReader(d / "bulletin.pdf").pages[0].extract_text()
    assert "Bulletin" in text


def test_rerun_is_idempotent(demo_run):
    _, _, _, first, _, second = demo_run
    changed = sorted(str(p) for p in first if first[p] != second.get(p) and p.name != "manifest.json")
    assert changed == []
    assert set(first) == set(second)


def test_national_junior_publishes_standings_or_starting_list(demo_run):
    _, out, *_ = demo_run
    html = (out / "national-junior-2024" / "index.html").read_text()
    assert "National Junior U-19 Open" in html and "National Junior Girls U-19" in html

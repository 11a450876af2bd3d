"""Nothing private in a public file, and files a web server can read (DESIGN.md "Publishing on a
bad day"): every file of the demo's public site — HTML, CSV, TRF, ICS, JSON, and PDFs through
their text — read as bytes, holds no player's or member's birth date, email address, fee or
membership flag; published files are readable by every user, folders enterable, and the office's
folders are marked for the web server to deny. Read from the real flows' run of the demo
(tests/conftest.py ``demo_run``)."""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import stat
import subprocess
import tempfile
import tomllib
from pathlib import Path

import polars as pl
import pytest
from pypdf import PdfReader

from tests.bad_input_events import SWISS_FILES, write_event

ROOT = Path(__file__).resolve().parents[2]
PRIVATE = ("office/", "outbox/", "manifest.json", ".htaccess")
"""What an event's outputs keep from the web (its ``.htaccess`` files deny them)."""
EMAIL = re.compile(rb"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def public_files(out: Path) -> dict[str, bytes]:
    """The run's index and every file of every event folder outside its private folders, as
    text where it is a PDF (what a reader or a search engine gets out of it), else as bytes."""
    found: dict[str, bytes] = {}
    for p in sorted(out.rglob("*")):
        rel = p.relative_to(out).as_posix()
        inside = rel.split("/", 1)[1] if "/" in rel else ""
        if not p.is_file() or rel.startswith(".chessfed/") or inside.startswith(PRIVATE):
            continue
        data = p.read_bytes()
        if p.suffix == ".pdf":
            data = "\n".join(page.extract_text() for page in PdfReader(p).pages).encode()
        found[rel] = data
    return found


def date_forms(d: dt.date) -> set[bytes]:
    """The ways a date may be written in a page, a CSV, a TRF or a PDF."""
    return {s.encode() for s in (d.isoformat(), f"{d:%Y/%m/%d}", f"{d:%d/%m/%Y}", f"{d:%d.%m.%Y}",
                                 f"{d:%d-%m-%Y}", f"{d.day} {d:%B %Y}", f"{d.day} {d:%b %Y}")}


@pytest.fixture(scope="module")
def site(demo_run):
    _, out, *_ = demo_run
    return out, public_files(out)


def test_the_public_site_is_read_whole_pdfs_trfs_and_csvs_included(site):
    _, files = site
    kinds = {Path(r).suffix for r in files}
    assert {".html", ".csv", ".pdf", ".trf"} <= kinds
    assert any(r.endswith("event-open.trf") for r in files)
    assert sum(r.endswith(".pdf") for r in files) > 50


def test_no_public_file_holds_a_birth_date(site):
    _, files = site
    players = pl.read_csv(ROOT / "inputs" / "national-junior-2024" / "players.csv",
                          infer_schema_length=0)
    births = {f for d in players["birth_date"].drop_nulls() for f in
              date_forms(dt.date.fromisoformat(d))}
    assert len(births) > 1000
    for rel, data in files.items():
        found = [b for b in births if b in data]
        assert not found, (rel, found[:3])


def test_no_public_file_holds_an_email_address_but_the_events_published_contact(site):
    _, files = site
    allowed = set()
    for toml in sorted((ROOT / "inputs").glob("*/event.toml")):  # every demo event
        cfg = tomllib.loads(toml.read_text())
        allowed |= set(EMAIL.findall(cfg["event"]["contact"].encode()))
    for rel, data in files.items():
        assert set(EMAIL.findall(data)) <= allowed, (rel, set(EMAIL.findall(data)) - allowed)


def test_no_public_file_holds_a_fee_a_registration_or_a_membership_flag(site):
    _, files = site
    words = re.compile(rb"fee[_ ]paid|aicf[_ ]registered|membership|expir|arrears|apo[_/ ]fpo",
                       re.IGNORECASE)
    for rel, data in files.items():
        assert not words.search(data), (rel, words.search(data))
    # (a membership date is not looked for as a date: games end on such days too)


def test_the_office_and_the_outbox_are_marked_for_the_web_server_to_deny(site):
    out, _ = site
    events = sorted(p.parent.name for p in (ROOT / "inputs").glob("*/event.toml"))
    assert {"national-junior-2024", "golden-knights-2019", "club-open-2025",
            "club-championship-2025"} <= set(events)
    for event in events:
        for folder in ("office", "outbox"):
            assert (out / event / folder / ".htaccess").read_text() == "Require all denied\n"
        assert "manifest.json" in (out / event / ".htaccess").read_text()
    assert (out / ".chessfed" / ".htaccess").read_text() == "Require all denied\n"


def test_published_files_are_readable_by_everyone_and_folders_enterable(site):
    out, _ = site
    for p in out.rglob("*"):
        if p.is_relative_to(out / ".chessfed"):
            continue
        mode = p.stat().st_mode
        if p.is_dir():
            assert mode & (stat.S_IROTH | stat.S_IXOTH) == stat.S_IROTH | stat.S_IXOTH, p
        else:
            assert mode & stat.S_IROTH, (p, oct(mode))


@pytest.mark.skipif(os.geteuid() != 0, reason="reading as another user needs root to switch user")
def test_a_process_of_another_user_reads_every_published_file(prefect_harness):
    """As nginx's ``www-data`` would: a process of user ``nobody`` reads each file of a run's
    outputs in a folder every user may enter."""
    from flows.pipeline.events import run_events

    base = Path(tempfile.mkdtemp(prefix="chessfed-modes-"))
    try:
        base.chmod(0o755)
        write_event(base / "inputs" / "tiny-swiss", SWISS_FILES)
        assert run_events(base / "inputs", base / "outputs") == {"tiny-swiss": "ok"}
        files = [p for p in (base / "outputs").rglob("*") if p.is_file()
                 and not p.is_relative_to(base / "outputs" / ".chessfed")]
        assert len(files) > 20
        proc = subprocess.run(["cat", *map(str, files)], user=65534, group=65534,
                              extra_groups=[], capture_output=True, check=False)
        assert proc.returncode == 0, proc.stderr.decode()[:500]
        assert len(proc.stdout) == sum(p.stat().st_size for p in files)
    finally:
        shutil.rmtree(base)

"""Publishing on a bad day (DESIGN.md; flows/pipeline/last_good.py): an event's inputs turn bad after it
was published — a results row naming an unknown player, a typo in an event.toml key, a
members.csv that cannot be read — and its public pages stay as the last good run left them,
each web page saying what it shows; nothing public is withdrawn or replaced by an error page,
the bulletin never says "Not published", no letter but the office's goes out, the office sees
what was held back and why, and the next good run publishes again. A first run with bad inputs
publishes what it can. Through the real flows, on the tiny events of tests/bad_input_events.py.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from flows.pipeline.run_index import exit_status, outcome
from tests.bad_input_events import GK_FILES, SWISS_FILES, write_event
from tests.games_event import FRIED_LIVER, QGD, tags

NOTICE = re.compile(r'<p class="notice" role="status">[^<]*</p>\n?')


def public(out: Path) -> dict[str, bytes]:
    """Every public file of an event's outputs (not the office's, not the outbox, not the
    manifest), by path."""
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and not p.relative_to(out).as_posix().startswith(("office/", "outbox/"))
            and p.name != "manifest.json"}


def publication(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text())["publication"]


def run(inputs: Path, out: Path) -> tuple[dict[str, str], int]:
    from flows.pipeline.events import run_events

    status = run_events(inputs, out)
    return status, exit_status(out, status)


@pytest.fixture(scope="module")
def swiss_held(prefect_harness, tmp_path_factory):
    """The tiny Swiss event published clean, then with a results row naming an unknown
    player (a late round 3 result), then corrected."""
    base = tmp_path_factory.mktemp("bad-day")
    inputs, out = base / "inputs", base / "outputs"
    event = write_event(inputs / "tiny-swiss", SWISS_FILES)
    (event / "games").mkdir()  # two games with moves: their pages stay while a run is held
    (event / "games" / "round 1.pgn").write_text(
        tags("1.1", "Rao, Arjun", "Sen, Dev", "1-0") + FRIED_LIVER + "\n\n"
        + tags("1.2", "Nair, Esha", "Iyer, Bala", "0-1") + QGD + "\n", encoding="utf-8")
    good_status, good_code = run(inputs, out)
    good = public(out / "tiny-swiss")
    good_outbox = {p.name for p in (out / "tiny-swiss" / "outbox").iterdir()}
    with open(event / "results.csv", "a") as fh:
        fh.write("3,1,S1,ZZ,1-0,30,\n")
    held_status, held_code = run(inputs, out)
    held = public(out / "tiny-swiss")
    held_index = (out / "index.html").read_text()
    held_dir = base / "held"
    shutil.copytree(out / "tiny-swiss", held_dir)
    (event / "results.csv").write_text(SWISS_FILES["results.csv"])
    fixed_status, fixed_code = run(inputs, out)
    return {"out": out, "good": good, "good_code": good_code, "good_outbox": good_outbox,
            "held": held, "held_index": held_index, "held_code": held_code, "held_status": held_status, "held_dir": held_dir,
            "fixed": public(out / "tiny-swiss"), "fixed_code": fixed_code,
            "fixed_dir": out / "tiny-swiss"}


def test_a_bad_results_row_after_publication_withdraws_no_public_file(swiss_held):
    good, held = swiss_held["good"], swiss_held["held"]
    assert swiss_held["good_code"] == 0
    assert set(good) <= set(held), sorted(set(good) - set(held))
    assert "standings/round-02.html" in held and "pairings/round-03.html" in held
    assert {"games/open/round-01-board-01.html", "games/open/round-01-board-02.pgn",
            "games/event.pgn"} <= set(good)  # the game pages, rebuilt from the kept PGN


def test_the_held_pages_are_the_last_good_ones_with_a_notice_and_the_pdfs_unchanged(swiss_held):
    good, held = swiss_held["good"], swiss_held["held"]
    for rel, data in good.items():
        if rel.endswith(".html"):
            text = held[rel].decode()
            assert NOTICE.search(text), rel
            assert "standings after round 2" in NOTICE.search(text).group(), rel
            assert NOTICE.sub("", text) == data.decode(), rel
        else:  # PDFs, CSVs, the TRF: byte for byte
            assert held[rel] == data, rel


def test_no_public_page_of_a_held_event_says_not_published_or_names_the_error(swiss_held):
    for rel, data in swiss_held["held"].items():
        text = data.decode("utf-8", "replace")
        assert "Not published" not in text, rel
        assert "results.csv" not in text and "validation" not in text, rel
    index = swiss_held["held_index"].split("</style>")[1]
    assert "results.csv" not in index and "error" not in index.lower()
    assert "newer results are being checked" in index


def test_the_office_sees_what_was_held_back_and_why_and_the_run_exits_3(swiss_held):
    d = swiss_held["held_dir"]
    assert swiss_held["held_code"] == 3
    pub = json.loads((d / "manifest.json").read_text())["publication"]
    assert pub["status"] == "held" and pub["as_of"] == "2024-09-18"
    assert any("results.csv" in w for w in pub["withheld"])
    held_page = (d / "office" / "held.html").read_text()
    assert "results.csv has errors" in held_page and "published on 18 September 2024" in held_page
    assert "held.html" in (d / "office" / "index.html").read_text()
    assert "ZZ" in (d / "office" / "validation.csv").read_text()
    assert swiss_held["held_status"] == {"tiny-swiss": "ok"}


def test_a_held_run_writes_only_the_offices_letters(swiss_held):
    d = swiss_held["held_dir"]
    new = {p.name for p in (d / "outbox").iterdir()} - swiss_held["good_outbox"]
    assert new, "the office is told"
    assert all(n.startswith("office-") for n in new), sorted(new)
    held = [n for n in new if "-held-" in n]
    assert held and "results.csv has errors" in (d / "outbox" / held[0]).read_text()


def test_the_next_good_run_publishes_again_without_the_notice(swiss_held):
    assert swiss_held["fixed_code"] == 0
    fixed = swiss_held["fixed"]
    assert all(not NOTICE.search(v.decode()) for r, v in fixed.items() if r.endswith(".html"))
    assert fixed == swiss_held["good"]
    assert publication(swiss_held["fixed_dir"])["status"] == "current"


def test_an_event_toml_typo_on_a_published_event_keeps_its_pages(prefect_harness, tmp_path):
    inputs, out = tmp_path / "inputs", tmp_path / "outputs"
    event = write_event(inputs / "tiny-swiss", SWISS_FILES)
    run(inputs, out)
    good = public(out / "tiny-swiss")
    toml = event / "event.toml"
    toml.write_text(toml.read_text().replace("rounds = 3", "roundz = 3"))
    status, code = run(inputs, out)
    assert code == 3 and status == {"tiny-swiss": "ok"}
    held = public(out / "tiny-swiss")
    assert set(good) <= set(held)
    assert NOTICE.search(held["index.html"].decode())
    index = (out / "index.html").read_text().split("</style>")[1]
    assert "unknown key" not in index and "roundz" not in index and "published" in index
    rows = (out / "tiny-swiss" / "office" / "validation.csv").read_text()
    assert "swiss.roundz" in rows and "unknown key" in rows
    line = outcome(out, "tiny-swiss", "ok").line
    assert line.startswith("tiny-swiss: held at its last good state") and "roundz" in line


def test_a_first_run_with_bad_results_publishes_what_it_can_and_mails_no_bulletin(
        prefect_harness, tmp_path):
    inputs, out = tmp_path / "inputs", tmp_path / "outputs"
    files = dict(SWISS_FILES, **{"results.csv": SWISS_FILES["results.csv"] + "3,1,S1,ZZ,1-0,30,\n"})
    write_event(inputs / "tiny-swiss", files)
    status, code = run(inputs, out)
    d = out / "tiny-swiss"
    assert code == 3 and publication(d)["status"] == "partial"
    assert "players/open/index.html" in public(d) and "players/open/alphabetical.html" in public(d)
    bulletin = (d / "bulletin.html").read_text()
    assert "Not published" not in bulletin and "will be published as soon as" in bulletin
    assert NOTICE.search((d / "index.html").read_text())
    assert not [p for p in (d / "outbox").iterdir() if p.name.startswith("bulletin-")]
    assert outcome(out, "tiny-swiss", "ok").line.startswith("tiny-swiss: published in part")


def test_a_correspondence_event_whose_members_file_breaks_keeps_its_pages(prefect_harness, tmp_path):
    inputs, out = tmp_path / "inputs", tmp_path / "outputs"
    event = write_event(inputs / "tiny-knights", GK_FILES)
    run(inputs, out)
    good = public(out / "tiny-knights")
    members = event / "members.csv"
    members.write_text(members.read_text().replace("member_id,", "member,", 1))  # header broken
    status, code = run(inputs, out)
    assert code == 3
    held = public(out / "tiny-knights")
    assert set(good) <= set(held)
    for rel in good:
        if rel.endswith(".html"):
            assert NOTICE.sub("", held[rel].decode()) == good[rel].decode(), rel
    assert publication(out / "tiny-knights")["status"] == "held"

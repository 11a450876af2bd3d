"""A rerun takes the pages of a round whose makings did not change (issue 26): each round's
pages are a group (``Publication.group``) keyed by a digest of what they are made of
(``flows.site.pages.fingerprint``; ``flows.kinds.swiss.pages.round_key``). A changed result of the
last round rebuilds that round's pages and leaves the earlier rounds' as they were — and the
event so built is byte for byte the event built from scratch, PDFs included (their fonts are
stamped with a fixed time: ``flows.site.render.PDF_EPOCH``)."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pytest

from flows.site.pages import Publication, Reuse, fingerprint, group_key
from tests.bad_input_events import SWISS_FILES, write_event
from tests.conftest import TIMED, output_files

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Box:
    names: frozenset[str]
    frame: pl.DataFrame


def test_a_fingerprint_follows_the_content_not_the_process():
    """Sets are digested by their sorted items: their ``repr`` follows string hashing, which
    differs between processes (PYTHONHASHSEED), and a key that changes at every run never
    keeps anything."""
    code = ("from flows.site.pages import fingerprint; import polars as pl; "
            "print(fingerprint({'a': frozenset({'x', 'y', 'zz', 'w'})}, pl.DataFrame({'n': [1, None]})))")
    digests = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
               for seed in ("1", "2", "3")}
    assert len(digests) == 1


def test_a_fingerprint_sees_every_cell_and_type():
    base = Box(frozenset({"a"}), pl.DataFrame({"s": ["", "x"], "n": [1, 2]}))
    same = Box(frozenset({"a"}), pl.DataFrame({"s": ["", "x"], "n": [1, 2]}))
    assert fingerprint(base) == fingerprint(same)
    for other in (Box(frozenset({"a"}), pl.DataFrame({"s": [None, "x"], "n": [1, 2]})),  # null, not ""
                  Box(frozenset({"a"}), pl.DataFrame({"s": ["", "x"], "n": [1.0, 2.0]})),  # the type
                  Box(frozenset({"a"}), pl.DataFrame({"s": ["", "x"], "n": [1, 3]})),
                  Box(frozenset({"b"}), base.frame)):
        assert fingerprint(other) != fingerprint(base)
    assert fingerprint([1, 2]) != fingerprint([[1, 2]]) != fingerprint({1: 2})


def test_a_fingerprint_refuses_what_it_cannot_see():
    with pytest.raises(TypeError, match="not a value"):
        fingerprint({"rule": object()})
    assert fingerprint({"venue": "Hall at 0xford"})  # a text is a value, whatever it says


def test_a_key_of_what_cannot_be_digested_builds_the_group_and_says_so(tmp_path):
    pub = Publication(tmp_path, reuse=Reuse(kept_groups={"round-01": {"key": "", "files": {}, "pdfs": {}}}))
    key = group_key(pub, {"rule": object()})
    assert key == ""
    assert not pub.take("round-01", key) and pub.reuse.rebuilt == {"no key": 1}
    assert any(n.startswith("pages built without a key") for n in pub.outcome.notes)


def test_a_fingerprint_keeps_the_shape_of_nested_values():
    assert fingerprint([frozenset({1}), 2]) != fingerprint([frozenset({1, 2})])
    assert fingerprint([[1], 2]) != fingerprint([[1, 2]])
    a, b = list(range(100)), list(range(100))
    b[50] = -1
    assert fingerprint(pl.Series(a)) != fingerprint(pl.Series(b))  # not by a shortened repr


def built(pub: Publication, text: str) -> None:
    pub.files["r/a.html"] = f"<p>{text}</p>"
    pub.files["r/a.csv"] = b"x\n1\n"
    pub.titles["r/a.html"] = f"Round {text}"
    pub.pdfs["r/a.pdf"] = f"<p>{text} printed</p>"


def test_a_group_is_taken_from_the_last_run_only_with_its_key_and_its_files(tmp_path):
    first = Publication(tmp_path)
    assert not first.group("round-01", "k1", lambda: built(first, "one"))
    record = first.reuse.cache["groups"]["round-01"]
    assert set(record["files"]) == {"r/a.html", "r/a.csv"} and set(record["pdfs"]) == {"r/a.pdf"}
    for rel, data in first.files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data.encode() if isinstance(data, str) else data)

    def never() -> None:
        raise AssertionError("built again")

    again = Publication(tmp_path, reuse=Reuse(kept_groups=first.reuse.cache["groups"]))
    assert again.group("round-01", "k1", never)
    assert again.files == first.files and again.titles == first.titles
    assert again.reuse.kept_pdfs == record["pdfs"] and not again.pdfs
    assert again.reuse.cache["groups"]["round-01"] == record and again.timings["kept_rounds"] == 1
    assert first.groups_summary() == "kept from the last run 0 of 1 round groups; built: 1 new"
    assert again.groups_summary() == "kept from the last run 1 of 1 round groups"

    other_key = Publication(tmp_path, reuse=Reuse(kept_groups=first.reuse.cache["groups"]))
    assert not other_key.group("round-01", "k2", lambda: built(other_key, "two"))
    assert other_key.files["r/a.html"] == "<p>two</p>" and other_key.timings["built_rounds"] == 1

    (tmp_path / "r" / "a.csv").write_bytes(b"x\n2\n")  # not as the last run wrote it
    changed = Publication(tmp_path, reuse=Reuse(kept_groups=first.reuse.cache["groups"]))
    assert not changed.group("round-01", "k1", lambda: built(changed, "one"))
    assert changed.files["r/a.csv"] == b"x\n1\n"
    assert other_key.reuse.rebuilt == {"changed": 1} and changed.reuse.rebuilt == {"files changed on disk": 1}


def test_a_group_verified_by_the_kept_checksums_is_taken_without_reading_its_files(tmp_path, monkeypatch):
    """With the run's checksums kept by file (Digests), a kept group is verified without
    reading its files: each is taken as OnDisk, its bytes read only if asked for; a file
    changed on disk still builds the group."""
    from flows.io import OnDisk, as_bytes
    from flows.pipeline.digests import Digests

    first = Publication(tmp_path)
    first.group("round-01", "k1", lambda: built(first, "one"))
    for rel, data in first.files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data.encode() if isinstance(data, str) else data)
        old = time.time_ns() - 10**10  # written long enough ago for its checksum to be trusted
        os.utime(tmp_path / rel, ns=(old, old))
    digests = Digests()
    for rel in first.files:
        digests.hexdigest(tmp_path / rel)  # the check read them (this run's or the last)

    def unread(self: Path) -> bytes:
        raise AssertionError(f"{self} read")

    monkeypatch.setattr(Path, "read_bytes", unread)
    again = Publication(tmp_path, reuse=Reuse(kept_groups=first.reuse.cache["groups"],
                                              checksum_of=digests.sized))
    assert again.group("round-01", "k1", lambda: built(again, "built again"))
    assert all(isinstance(again.files[rel], OnDisk) for rel in first.files)
    assert {rel: again.reuse.checksums[rel][1:] for rel in first.files} == {
        rel: first.reuse.checksums[rel][1:] for rel in first.files}
    monkeypatch.undo()
    assert {rel: as_bytes(again.files[rel]) for rel in first.files} == {
        rel: as_bytes(first.files[rel]) for rel in first.files}

    (tmp_path / "r" / "a.csv").write_bytes(b"x\n2\n")  # another time, size kept: hashed again
    changed = Publication(tmp_path, reuse=Reuse(kept_groups=first.reuse.cache["groups"],
                                                checksum_of=digests.sized))
    assert not changed.group("round-01", "k1", lambda: built(changed, "one"))
    assert changed.files["r/a.csv"] == b"x\n1\n" and changed.reuse.rebuilt == {"files changed on disk": 1}


def test_the_same_html_makes_the_same_pdf_at_another_time():
    from flows.site import render

    html = "<html><body><h1>Standings</h1><p>Renée 1½ — Ødegaard 0</p></body></html>"
    first = render.html_to_pdf(html)
    time.sleep(1.1)  # the fonts' stamp has seconds
    assert render.html_to_pdf(html) == first


def groups(folder: Path) -> dict[str, int]:
    timings = json.loads((folder / "manifest.json").read_text())["timings"]
    return {k: v for k, v in timings.items() if k.startswith(("kept_", "built_"))}


def test_a_changed_last_round_result_rebuilds_that_round_and_equals_a_clean_build(prefect_harness,
                                                                                tmp_path):
    from flows.pipeline.events import run_events

    inputs, fresh_inputs = tmp_path / "inputs", tmp_path / "fresh-inputs"
    event = write_event(inputs / "tiny-swiss", SWISS_FILES)
    out, fresh = tmp_path / "out", tmp_path / "fresh"
    assert run_events(inputs, out, send_mail=False) == {"tiny-swiss": "ok"}
    assert groups(out / "tiny-swiss") == {"built_rounds": 3, "built_players": 7}  # rounds 1, 2, 3's pairing
    notes = json.loads((out / "tiny-swiss" / "manifest.json").read_text())["notes"]
    assert not [n for n in notes if "without a key" in n]  # the event's state is digestible
    text = (event / "results.csv").read_text()
    assert "2,3,S6,S5,1-0" in text
    (event / "results.csv").write_text(text.replace("2,3,S6,S5,1-0", "2,3,S6,S5,0-1"))
    assert run_events(inputs, out, send_mail=False) == {"tiny-swiss": "ok"}
    made = groups(out / "tiny-swiss")
    assert (made["kept_rounds"], made["built_rounds"]) == (1, 2)  # round 1 kept
    # the two players and those whose tie-breaks or rank the result moved
    assert made["built_players"] >= 2 and made["built_players"] + made.get("kept_players", 0) == 7
    shutil.copytree(inputs, fresh_inputs)
    assert run_events(fresh_inputs, fresh, send_mail=False) == {"tiny-swiss": "ok"}
    assert output_files(out / "tiny-swiss", TIMED) == output_files(fresh / "tiny-swiss", TIMED)

    players = (event / "players.csv").read_text()  # a renamed player is on every round's pages
    name = next(csv.DictReader(io.StringIO(players)))["name"]
    (event / "players.csv").write_text(players.replace(name, f"{name} Renamed", 1))
    assert run_events(inputs, out, send_mail=False) == {"tiny-swiss": "ok"}
    assert groups(out / "tiny-swiss") == {"built_rounds": 3, "built_players": 7}
    shutil.rmtree(fresh)
    shutil.copy(event / "players.csv", fresh_inputs / "tiny-swiss" / "players.csv")
    assert run_events(fresh_inputs, fresh, send_mail=False) == {"tiny-swiss": "ok"}
    assert output_files(out / "tiny-swiss", TIMED) == output_files(fresh / "tiny-swiss", TIMED)
    assert f"{name} Renamed" in (out / "tiny-swiss" / "standings" / "round-01.html").read_text()

    # round 2's results taken back: its standings go (round 2 is paired again), as in a clean build
    (event / "results.csv").write_text("".join(line for line in text.splitlines(keepends=True)
                                               if not line.startswith("2,")))
    assert (out / "tiny-swiss" / "standings" / "round-02.html").exists()
    assert run_events(inputs, out, send_mail=False) == {"tiny-swiss": "ok"}
    shutil.rmtree(fresh)
    shutil.copy(event / "results.csv", fresh_inputs / "tiny-swiss" / "results.csv")
    assert run_events(fresh_inputs, fresh, send_mail=False) == {"tiny-swiss": "ok"}
    assert not (out / "tiny-swiss" / "standings" / "round-02.html").exists()
    kept, clean = output_files(out / "tiny-swiss", TIMED), output_files(fresh / "tiny-swiss", TIMED)
    # the outbox keeps the letters of round 2 the earlier run wrote (the mail's own record)
    assert set(clean) <= set(kept) and all(k.startswith("outbox/") for k in set(kept) - set(clean))
    assert {k: v for k, v in kept.items() if not k.startswith("outbox/")} == \
        {k: v for k, v in clean.items() if not k.startswith("outbox/")}

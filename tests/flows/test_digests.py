"""The unchanged check reads a file again only when it may have changed
(``flows/pipeline/digests.py``): its inode, size and modification time as when it was read, and
that read at least ``MARGIN_NS`` after its last change (git's "racy" files). Decision
(docs/decisions.md): a file given its old time back on purpose is trusted, as rsync does."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from flows.pipeline.digests import MARGIN_NS, Digests
from tests.rulebook.test_series import HEAD


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def aged(path: Path, data: bytes, ago_ns: int = 10 * MARGIN_NS) -> int:
    """Write ``data`` and set the file's time ``ago_ns`` in the past; that time."""
    path.write_bytes(data)
    mtime = path.stat().st_mtime_ns - ago_ns
    os.utime(path, ns=(mtime, mtime))
    return mtime


def test_a_file_is_read_again_only_when_its_inode_size_or_time_change(tmp_path):
    f, kept = tmp_path / "results.csv", tmp_path / "digests.json"
    aged(f, b"round,board\n")
    first = Digests(kept)
    assert first.hexdigest(f) == sha(b"round,board\n") and first.changed
    first.save()

    again = Digests(kept)
    assert again.hexdigest(f) == sha(b"round,board\n")
    assert not again.changed  # not read: the kept checksum

    aged(f, b"round,board\n1,1\n")  # another size
    assert again.hexdigest(f) == sha(b"round,board\n1,1\n") and again.changed

    mtime = f.stat().st_mtime_ns
    new = tmp_path / "new.csv"
    new.write_bytes(b"round,board\n2,2\n")  # same size, same time, another inode
    os.utime(new, ns=(mtime, mtime))
    os.replace(new, f)
    assert again.hexdigest(f) == sha(b"round,board\n2,2\n")


def test_a_file_changed_within_the_margin_of_its_read_is_read_again(tmp_path):
    f = tmp_path / "index.html"
    f.write_bytes(b"<p>one</p>")  # just written: its read is within the margin
    d = Digests()
    assert d.hexdigest(f) == sha(b"<p>one</p>")
    mtime = f.stat().st_mtime_ns
    f.write_bytes(b"<p>two</p>")  # in place, same size, the same time put back
    os.utime(f, ns=(mtime, mtime))
    assert d.hexdigest(f) == sha(b"<p>two</p>")


def test_decision_a_file_given_its_old_time_back_on_purpose_is_trusted(tmp_path):
    """docs/decisions.md: the quick check trusts size and time, as rsync does (``--rebuild``
    builds anyway)."""
    f = tmp_path / "players.csv"
    mtime = aged(f, b"A,1\n")
    d = Digests()
    assert d.hexdigest(f) == sha(b"A,1\n")
    f.write_bytes(b"B,2\n")
    os.utime(f, ns=(mtime, mtime))
    assert d.hexdigest(f) == sha(b"A,1\n")


def test_kept_checksums_of_files_gone_are_dropped_and_a_damaged_store_reads_everything(tmp_path):
    kept = tmp_path / "digests.json"
    a, b = tmp_path / "a", tmp_path / "b"
    aged(a, b"a")
    aged(b, b"b")
    d = Digests(kept)
    d.hexdigest(a), d.hexdigest(b)
    b.unlink()
    d.save()
    assert list(Digests(kept).entries) == [str(a)]
    kept.write_text("{not json")
    fresh = Digests(kept)
    assert fresh.entries == {} and fresh.hexdigest(a) == sha(b"a")


def test_the_program_is_listed_once_for_a_whole_check(tmp_path, monkeypatch):
    """``chessfed run`` checks every event against one fingerprint of the program
    (``unchanged.program_fixed``); outside it every call lists the program's files again."""
    import shutil

    from flows.pipeline import unchanged

    copies = tuple(shutil.copytree(root, tmp_path / root.name) for root in unchanged.PROGRAM)
    monkeypatch.setattr(unchanged, "PROGRAM", copies)
    with unchanged.program_fixed() as fixed:
        (tmp_path / "transforms" / "new_rule.py").write_text("X = 1\n")
        assert unchanged.program_fingerprint() == fixed
    assert unchanged.program_fingerprint() != fixed


def test_the_sibling_events_are_looked_at_once_for_a_whole_check(tmp_path):
    """Inside ``counted_in.siblings_fixed`` the event folders' event.toml files are stat'ed
    once (a series added meanwhile is seen at the next check); outside, at every call."""
    from flows.pipeline.counted_in import series_naming, siblings_fixed

    (tmp_path / "rapid-1").mkdir()
    (tmp_path / "rapid-1" / "event.toml").write_text('[event]\nkind = "swiss"\n')
    series = tmp_path / "circuit"
    with siblings_fixed():
        assert series_naming(tmp_path / "rapid-1") == ()
        series.mkdir()
        (series / "event.toml").write_text(SERIES_TOML)
        assert series_naming(tmp_path / "rapid-1") == ()
    assert series_naming(tmp_path / "rapid-1") == (("circuit", "Test Circuit"),)


SERIES_TOML = HEAD + 'events = ["rapid-1"]\npoints = "game-points"\nidentity = ["name"]\n'

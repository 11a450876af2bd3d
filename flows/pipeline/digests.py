"""Checksums of files kept from one run to the next while the files stay as they were, so that
the unchanged check (:mod:`flows.pipeline.unchanged`) reads a file only when it may have
changed: rsync's and git's quick check, a file whose inode, size and modification time are
those it had when it was last read holds the bytes it held then.

Decision (docs/decisions.md, "the unchanged check trusts a file's size and time"): a file
written in place within the same tick of the file system's clock as the read that hashed it
would keep its time, so a checksum is trusted only when the file's modification time was at
least :data:`MARGIN_NS` before that read (git's "racy" files: hashed again, then trusted).
A file written by hand and given its old time back on purpose (``touch -d``) with the same
size is not noticed — as rsync does not notice it; ``chessfed run --rebuild`` builds anyway.
Hard links keep a file's inode and time: an output the staging folder takes over from the
last run (:mod:`flows.pipeline.publish_folder`) is not read again.

Kept per event in the output folder's working folder (``.chessfed/digests/<event>.json``,
never published), written by the run holding the event's lock. No Prefect here."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

from flows.io import atomic_write

MARGIN_NS = 2_000_000_000
"""How long before a read a file's modification time must be for its checksum to be trusted
later (2 s: the coarsest clock of common file systems, FAT's, included)."""

FOLDER = Path(".chessfed") / "digests"
"""Where the checksums of the events of an output folder are kept (inside it)."""


class Digests:
    """The sha256 of files, by path, read again only when a file's inode, size or modification
    time differ from those it had when it was read (or when that read was too close to its
    last change: :data:`MARGIN_NS`). ``path``: the JSON file they are kept in (none: this
    process only)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.entries: dict[str, list[int | str]] = {}
        self.changed = False
        if path is not None:
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                files = data.get("files") if isinstance(data, dict) else None
                if isinstance(files, dict):
                    self.entries = {k: v for k, v in files.items()
                                    if isinstance(v, list) and len(v) == 5}
            except (OSError, ValueError):
                pass  # none kept (or unreadable): every file is read

    @classmethod
    def of_event(cls, out_dir: Path) -> Digests:
        """The checksums kept for the event published at ``out_dir``."""
        return cls(Path(out_dir).parent / FOLDER / f"{Path(out_dir).name}.json")

    def hexdigest(self, path: Path | str) -> str:
        """The file's sha256 (hex); raises OSError as reading it would (a folder included)."""
        return self.sized(path)[0]

    def sized(self, path: Path | str) -> tuple[str, int]:
        """:meth:`hexdigest` and the file's size in bytes (as it was when hashed)."""
        key = os.fspath(path)
        if not os.path.isabs(key):
            key = os.path.abspath(key)
        st = os.stat(key)
        e = self.entries.get(key)
        if (e is not None and e[0] == st.st_ino and e[1] == st.st_size and e[2] == st.st_mtime_ns
                and int(e[3]) - st.st_mtime_ns >= MARGIN_NS):
            return str(e[4]), st.st_size
        read_at = time.time_ns()
        with open(key, "rb") as fh:
            hx = hashlib.file_digest(fh, "sha256").hexdigest()
        self.entries[key] = [st.st_ino, st.st_size, st.st_mtime_ns, read_at, hx]
        self.changed = True
        return hx, st.st_size

    def save(self) -> None:
        """Keep the checksums for the next run (only when one was read; those of files gone
        are dropped)."""
        if self.path is None or not self.changed:
            return
        kept = {k: v for k, v in self.entries.items() if os.path.exists(k)}
        atomic_write(self.path, json.dumps({"files": kept}, separators=(",", ":")))
        self.changed = False

"""An event's outputs switch whole: a run builds them in a staging folder (a hard-linked copy of
what is published, so unchanged files cost nothing) and exchanges it with the published folder
in one step; a run killed at any moment leaves the previous complete outputs in place, and the
next run clears what it left. One run at a time writes an event's outputs: a second one is
refused while the first holds the event's lock.

Layout, inside the output folder: ``.chessfed/<event>.lock`` (the lock, an empty file),
``.chessfed/staging/<event>/`` (the folder being built), ``.chessfed/old/<event>/`` (only
where the file system cannot exchange two folders in one step: the previous outputs for the
instant between two renames; a later run puts them back if it finds the event folder gone)."""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

WORK = ".chessfed"
"""The output folder's own working folder (hidden: not an event, not published)."""


class Busy(RuntimeError):
    """Another run is writing this event's outputs."""


def _work(out_dir: Path, kind: str) -> Path:
    return out_dir.parent / WORK / kind / out_dir.name


@contextlib.contextmanager
def event_lock(out_dir: Path) -> Iterator[None]:
    """Hold the event's lock for the block, or raise :class:`Busy` at once naming the run that
    holds it (the lock is the kernel's: a killed run's lock is gone with its process)."""
    path = out_dir.parent / WORK / f"{out_dir.name}.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    deny = path.parent / ".htaccess"  # the working folder holds the staging copies: not for the web
    if not deny.exists():
        deny.write_text("Require all denied\n", encoding="utf-8")
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 200, 0).decode(errors="replace").strip() or "another process"
            raise Busy(f"{out_dir} is being written by another run ({holder}); this run left it "
                       "alone: run again when that one has finished") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()}".encode(), 0)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)  # a released lock names nobody: the file stays empty
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def recover(out_dir: Path) -> None:
    """What a killed run left: the staging folder is removed; previous outputs parked in
    ``old/`` by a two-rename switch go back where they were if the event folder is missing."""
    old = _work(out_dir, "old")
    if old.exists():
        if not out_dir.exists():
            os.rename(old, out_dir)
        else:
            shutil.rmtree(old)
    staging = _work(out_dir, "staging")
    if staging.exists():
        shutil.rmtree(staging)


def stage(out_dir: Path) -> Path:
    """A fresh staging folder for ``out_dir``: a copy of what is published whose files are
    hard links (writes replace files by rename, so the published ones are never changed)."""
    recover(out_dir)
    staging = _work(out_dir, "staging")
    staging.parent.mkdir(parents=True, exist_ok=True)
    if out_dir.exists():
        shutil.copytree(out_dir, staging, copy_function=os.link, symlinks=True)
    else:
        staging.mkdir()
    return staging


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one step (Linux ``renameat2`` with ``RENAME_EXCHANGE``); False where
    the system or the file system cannot."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(a))


def publish(staging: Path, out_dir: Path) -> None:
    """Make the staging folder the event's outputs in one step; the previous outputs are then
    removed."""
    if not out_dir.exists():
        os.rename(staging, out_dir)
        return
    if exchange(staging, out_dir):
        shutil.rmtree(staging)  # now the previous outputs
        return
    old = _work(out_dir, "old")
    old.parent.mkdir(parents=True, exist_ok=True)
    os.rename(out_dir, old)
    os.rename(staging, out_dir)
    shutil.rmtree(old)

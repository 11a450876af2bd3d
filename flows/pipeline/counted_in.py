"""Who counts an event (issue 47): the events beside it that read it as one of theirs — a
series counting a monthly rapid — found from their event.toml files, so that the event's pages
link its players' pages there and a new series naming it builds it again."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from pathlib import Path

from flows.io import load_event_config
from transforms.core.errors import ConfigError

_FIXED: list[dict[str, tuple[tuple[str, int, int, int], ...]]] = []
"""The sibling folders' event.toml stamps, by parent folder, while :func:`siblings_fixed`
holds them."""


@contextlib.contextmanager
def siblings_fixed() -> Iterator[None]:
    """The event folders' event.toml files looked at once for the block (a check of 500
    events stats them once, not 500 times: 8 ms an event)."""
    _FIXED.append({})
    try:
        yield
    finally:
        _FIXED.pop()


def series_naming(event_dir: Path) -> tuple[tuple[str, str], ...]:
    """The events beside ``event_dir`` that read it as one of theirs (a series counting it):
    (folder, name) of each, for the event's pages to link each player's page in them. Read
    once while the sibling folders' event.toml files are unchanged (looked at once inside
    :func:`siblings_fixed`)."""
    parent = Path(event_dir).resolve().parent
    stamps = _FIXED[-1].get(str(parent)) if _FIXED else None
    if stamps is None:
        found = []
        for p in sorted(parent.iterdir()):
            try:
                st = (p / "event.toml").stat()
            except OSError:
                continue
            found.append((p.name, st.st_ino, st.st_size, st.st_mtime_ns))
        stamps = tuple(found)
        if _FIXED:
            _FIXED[-1][str(parent)] = stamps
    return _series_index(str(parent), stamps).get(Path(event_dir).resolve().name, ())


@functools.lru_cache(maxsize=4)
def _series_index(parent: str, stamps: tuple[tuple[str, int, int, int], ...]
                  ) -> dict[str, tuple[tuple[str, str], ...]]:
    """Event folder -> the sibling events whose kind reads other events (a series) and name it."""
    import tomllib

    from transforms.kinds import KINDS, EventKind

    readers = {k.kind.value for k in KINDS.values() if k.sources is not None}
    out: dict[str, list[tuple[str, str]]] = {}
    for name, *_ in stamps:
        folder = Path(parent) / name
        try:
            kind = tomllib.loads((folder / "event.toml").read_text(encoding="utf-8"))["event"]["kind"]
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError, TypeError):
            continue
        if kind not in readers:
            continue
        try:
            cfg = load_event_config(folder)
        except ConfigError:
            continue
        spec = KINDS[EventKind(kind)]
        assert spec.sources is not None
        for source in spec.sources(cfg):
            out.setdefault(source, []).append((name, cfg.event.name))
    return {k: tuple(v) for k, v in out.items()}

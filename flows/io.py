"""Plain I/O helpers used by the Prefect tasks: reading CSVs as strings, atomic writes."""

from __future__ import annotations

import csv
import hashlib
import io
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from transforms.core.errors import Finding, Severity

if TYPE_CHECKING:
    import polars as pl


def read_csv_strings(path: Path) -> tuple[pl.DataFrame, list[Finding]]:
    """Read a UTF-8 CSV (BOM accepted) with every column as a string and a ``line`` column
    (1-based physical line; the header is line 1). Ragged rows and undecodable bytes become
    findings instead of tracebacks; nothing is dropped silently."""
    import polars as pl  # (here, so that ``chessfed pair`` starts without it)

    name = path.name
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        return pl.DataFrame(), [Finding(name, line, "", repr(data[e.start:e.start + 8]),
                                        Severity.ERROR, "not UTF-8 text")]
    reader = csv.reader(io.StringIO(text, newline=""))
    findings: list[Finding] = []
    try:
        header = next(reader)
    except StopIteration:
        return pl.DataFrame(), [Finding(name, 1, "", "", Severity.ERROR, "the file is empty")]
    header = [h.strip() for h in header]
    rows: list[list[str]] = []
    lines: list[int] = []
    try:
        end = reader.line_num
        for rec in reader:
            line, end = end + 1, reader.line_num  # where the record starts (a quoted cell may span lines)
            if not rec or all(not c.strip() for c in rec):
                continue  # blank line
            if len(rec) != len(header):
                findings.append(Finding(name, line, "", ",".join(rec), Severity.ERROR,
                                        f"{len(rec)} fields, the header has {len(header)}"))
                continue
            rows.append(rec)
            lines.append(line)
    except csv.Error as e:
        findings.append(Finding(name, reader.line_num, "", "", Severity.ERROR, f"CSV syntax: {e}"))
    cols = {h: [r[i] for r in rows] for i, h in enumerate(header) if h}
    frame = pl.DataFrame({"line": lines, **cols},
                         schema={"line": pl.Int64, **{h: pl.String for h in cols}})
    return frame, findings


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def atomic_write(path: Path, data: bytes | str) -> Path:
    """Write ``data`` to ``path`` through a temporary file in the same folder and an
    ``os.replace``, so readers never see a half-written output."""
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path

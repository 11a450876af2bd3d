"""Plain I/O helpers used by the Prefect tasks: reading CSVs as strings, atomic writes."""

from __future__ import annotations

import csv
import hashlib
import io
import os
import re
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from transforms.core.errors import Finding, Severity

if TYPE_CHECKING:
    import polars as pl


UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def utf16_without_bom(data: bytes, probe: int = 512) -> str:
    """``utf-16-le`` or ``utf-16-be`` when the file's first line (its header: column names,
    plain ASCII; at most ``probe`` characters, at least 4) reads as UTF-16 of that byte order
    with every character's other byte zero, and the other order would give no such zero; else
    "". Only the header is looked at: rows may hold names in any script."""
    pairs = [data[i:i + 2] for i in range(0, min(len(data), 2 * probe) - 1, 2)]
    for order, zero in (("utf-16-le", 1), ("utf-16-be", 0)):
        line = []
        for pair in pairs:
            if pair[1 - zero] in (0x0A, 0x0D) and pair[zero] == 0:
                break
            line.append(pair)
        if len(line) >= 4 and all(p[zero] == 0 and p[1 - zero] != 0 for p in line):
            return order
    return ""


def decode_lines(data: bytes, name: str) -> tuple[str, dict[int, Finding], list[Finding]]:
    """DESIGN.md Inputs (UTF-8, a BOM accepted) — the text of a CSV file, decoded line by line.

    Returns the text, the findings of the lines that are not UTF-8 (by physical line; their
    bytes are replaced so that the other lines keep their places) and the file's other
    findings. A UTF-8 BOM is dropped without a finding (Excel's "CSV UTF-8" writes one).
    Decision: a file that starts with a UTF-16 byte order mark is read as UTF-16 with a warning
    (unambiguous, and what Excel's "Unicode text" writes); so is one without the mark whose
    header has every other byte zero (:func:`utf16_without_bom`: a CSV holds no NUL
    character, while UTF-16 writes one beside every Latin letter, digit and comma). Any other
    encoding is not guessed: each line that is not UTF-8 is an error and its row is set aside,
    the other lines are read.
    """
    if data.startswith(UTF16_BOMS):
        codec, how = "utf-16", ""
    else:
        codec = utf16_without_bom(data)
        how = " without a byte order mark (every other byte of its header is zero)"
    if codec:
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            pass
        else:
            return text, {}, [Finding(name, 1, "", "", Severity.WARNING,
                                      f"the file is UTF-16 text{how}, not UTF-8: read as "
                                      f"{codec.upper()}; save it as CSV UTF-8")]
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    parts: list[str] = []
    bad: dict[int, Finding] = {}
    for no, raw in enumerate(data.splitlines(keepends=True), start=1):
        try:
            parts.append(raw.decode("utf-8"))
        except UnicodeDecodeError as e:
            byte = raw[e.start]
            what = ("the header's column names are read with it replaced" if no == 1
                    else "the row is set aside")
            bad[no] = Finding(name, no, "", raw.rstrip(b"\r\n").decode("utf-8", "backslashreplace"),
                              Severity.ERROR,
                              f"not UTF-8 text (byte 0x{byte:02X} at position {e.start + 1}, "
                              f"{bytes([byte]).decode('cp1252', 'replace')!r} in Latin-1/Windows-1252): "
                              f"{what}; save the file as CSV UTF-8")
            parts.append(raw.decode("utf-8", "replace"))
    return "".join(parts), bad, []


def read_csv_strings(path: Path) -> tuple[pl.DataFrame, list[Finding]]:
    """DESIGN.md Inputs — read a CSV with every column as a string and a ``line`` column
    (1-based physical line; the header is line 1). Nothing raises on any bytes and nothing is
    dropped silently: each problem is a finding and only the rows it touches are set aside.

    - undecodable bytes: that line's row (see :func:`decode_lines`); the other lines are read;
    - a ragged row (more or fewer fields than the header): that row;
    - a column named twice in the header: a warning; the first is read, and a row whose two
      cells differ is set aside (which one is meant cannot be known);
    - a column without a name in the header: a warning; its cells are not read;
    - CSV syntax the reader refuses: that record; reading goes on with the next one.
    A BOM and CRLF line ends are accepted without a finding; blank lines are skipped."""
    import polars as pl  # (here, so that ``chessfed pair`` starts without it)

    name = path.name
    text, bad_lines, findings = decode_lines(path.read_bytes(), name)
    if not text.strip():
        return pl.DataFrame(), [*findings, Finding(name, 1, "", "", Severity.ERROR,
                                                   "the file is empty (a header line is required)")]
    if 1 in bad_lines:
        findings.append(bad_lines.pop(1))
    physical = re.split(r"\r\n|\r|\n", text)  # as the reader counts lines
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = [h.strip() for h in next(reader)]
    except (StopIteration, csv.Error) as e:
        return pl.DataFrame(), [*findings, Finding(name, 1, "", "", Severity.ERROR,
                                                   f"the header line cannot be read: {e}")]
    first: dict[str, int] = {}
    for i, h in enumerate(header):
        if not h:
            findings.append(Finding(name, 1, "", "", Severity.WARNING,
                                    f"column {i + 1} of the header has no name: its cells are not read"))
        elif h in first:
            findings.append(Finding(name, 1, h, h, Severity.WARNING,
                                    f"column {h!r} appears twice in the header (columns {first[h] + 1} "
                                    f"and {i + 1}): the first is read; a row whose two {h!r} cells "
                                    "differ is set aside"))
        else:
            first[h] = i
    rows: list[list[str]] = []
    lines: list[int] = []
    end = reader.line_num
    while True:
        try:
            rec = next(reader)
        except StopIteration:
            break
        except csv.Error as e:  # the reader goes on with the next record
            findings.append(Finding(name, end + 1, "", "", Severity.ERROR, f"CSV syntax: {e}; the row is set aside"))
            end = reader.line_num
            continue
        line, end = end + 1, reader.line_num  # where the record starts (a quoted cell may span lines)
        undecodable = [bad_lines[n] for n in range(line, end + 1) if n in bad_lines]
        if undecodable:
            findings.extend(undecodable)
            continue
        if not rec or all(not c.strip() for c in rec):
            continue  # blank line
        if len(rec) != len(header):
            findings.append(Finding(name, line, "", "\n".join(physical[line - 1:end]), Severity.ERROR,
                                    f"{len(rec)} fields, the header has {len(header)}: the row is set aside"))
            continue
        clash = [(h, i) for i, h in enumerate(header) if h and first[h] != i and rec[i].strip() != rec[first[h]].strip()]
        if clash:
            for h, i in clash:
                findings.append(Finding(name, line, h, rec[i], Severity.ERROR,
                                        f"the header names {h!r} twice and this row's two cells differ "
                                        f"({rec[first[h]]!r} and {rec[i]!r}): the row is set aside"))
            continue
        rows.append(rec)
        lines.append(line)
    cols = {h: [r[i] for r in rows] for h, i in first.items()}
    frame = pl.DataFrame({"line": lines, **cols},
                         schema={"line": pl.Int64, **{h: pl.String for h in cols}})
    return frame, findings


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


UMASK = _umask()
"""The process's umask, read once when this module is imported (reading it means setting it:
done here, before the run starts any thread, not at every write)."""
FILE_MODE = 0o666 & ~UMASK
"""The mode of every file a run writes: what ``open`` would give (0644 under the usual umask
022), so that a web server running as another user (nginx as ``www-data``) or a copy with
``rsync -a`` can read the published site. Temporary files are created 0600 (``mkstemp``);
each gets this mode before it takes its name."""


def as_bytes(data: bytes | str) -> bytes:
    """An output's bytes as written: text in UTF-8."""
    return data.encode("utf-8") if isinstance(data, str) else data


def atomic_write(path: Path, data: bytes | str) -> Path:
    """Write ``data`` to ``path`` through a temporary file in the same folder and an
    ``os.replace``, so readers never see a half-written output; the file gets
    :data:`FILE_MODE` (folders are made with the umask's default, 0755 under umask 022)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = as_bytes(data)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, FILE_MODE)
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path

"""Plain I/O helpers used by the Prefect tasks: reading CSVs as strings, writing CSV outputs
that open in a spreadsheet without a formula (:func:`csv_text`), atomic writes."""

from __future__ import annotations

import csv
import functools
import hashlib
import io
import os
import re
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from transforms.core.cells import (  # noqa: F401  (the CSV outputs' cells: flows read them here)
    FORMULA_START,
    FORMULA_TRIGGERS,
    PLAIN_NUMBER,
    neutral_cell,
    neutral_text,
    original_cell,
    original_text,
)
from transforms.core.errors import Finding, InputError, Severity

if TYPE_CHECKING:
    import polars as pl

    from transforms.core.config import EventConfig
    from transforms.core.ingest import ReadLimits


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
    try:  # the usual case, at once (each line below would decode the same)
        return data.decode("utf-8"), {}, []
    except UnicodeDecodeError:
        pass
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


def read_csv_strings(path: Path, limits: ReadLimits | None = None) -> tuple[pl.DataFrame, list[Finding]]:
    """DESIGN.md Inputs — read a CSV with every column as a string and a ``line`` column
    (1-based physical line; the header is line 1). Nothing raises on any bytes and nothing is
    dropped silently: each problem is a finding and only the rows it touches are set aside.

    - undecodable bytes: that line's row (see :func:`decode_lines`); the other lines are read;
    - a ragged row (more or fewer fields than the header): that row;
    - a column named twice in the header: a warning; the first is read, and a row whose two
      cells differ is set aside (which one is meant cannot be known);
    - a column without a name in the header: a warning; its cells are not read;
    - CSV syntax the reader refuses: that record; reading goes on with the next one;
    - line breaks, tabs, control and bidirectional formatting characters and a byte order
      mark inside a cell or a column name: cleaned, with a warning naming each
      (:func:`transforms.core.ingest.clean_cell`);
    - past ``limits`` (:class:`~transforms.core.ingest.ReadLimits`; default: the event
      folder's, :func:`input_limits`): a file larger than ``file_bytes`` is not read, one with
      more than ``rows`` rows is read no further, and neither gives a row (one error naming
      the limit each); a row with a cell longer than ``cell_chars`` is set aside.
    A BOM and CRLF line ends are accepted without a finding; blank lines are skipped."""
    import polars as pl  # (here, so that ``chessfed pair`` starts without it)

    from transforms.core.ingest import (
        cell_past_reader,
        cell_too_long,
        clean_cell,
        file_too_large,
        too_many_rows,
        visible,
    )

    name = path.name
    limits = limits or input_limits(path)
    size = path.stat().st_size
    if size > limits.file_bytes:  # not read at all
        return pl.DataFrame(), [file_too_large(name, size, limits)]
    with open(path, "rb") as fh:  # never more than the limit, whatever the file (a device, a growing file)
        data = fh.read(limits.file_bytes + 1)
    if len(data) > limits.file_bytes:
        return pl.DataFrame(), [file_too_large(name, len(data), limits)]
    text, bad_lines, findings = decode_lines(data, name)
    del data
    if not text.strip():
        return pl.DataFrame(), [*findings, Finding(name, 1, "", "", Severity.ERROR,
                                                   "the file is empty (a header line is required)")]
    if 1 in bad_lines:
        findings.append(bad_lines.pop(1))
    odd = _inside_lines().search(text) is not None  # else only a record of several lines needs cleaning
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        raw_header = next(reader)
    except (StopIteration, csv.Error) as e:
        return pl.DataFrame(), [*findings, Finding(name, 1, "", "", Severity.ERROR,
                                                   f"the header line cannot be read: {e}")]
    header = []
    for h in raw_header:
        cleaned, why = clean_cell(h, "a column name")
        header.append(cleaned.strip())
        if why:
            findings.append(Finding(name, 1, cleaned.strip(), visible(h), Severity.WARNING, why))
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
    physical: list[str] = []

    def lines_of(start: int, stop: int) -> str:  # the physical lines, split once when a row needs them
        if not physical:
            physical.extend(re.split(r"\r\n|\r|\n", text))  # as the reader counts lines
        return "\n".join(physical[start - 1:stop])

    rows: list[list[str]] = []
    lines: list[int] = []
    end = reader.line_num
    count = 0
    while True:
        try:
            rec = next(reader)
        except StopIteration:
            break
        except csv.Error as e:  # the reader goes on with the next record
            if "field larger than field limit" in str(e):
                findings.append(cell_past_reader(name, end + 1, limits))
            else:
                findings.append(Finding(name, end + 1, "", "", Severity.ERROR,
                                        f"CSV syntax: {e}; the row is set aside"))
            end = reader.line_num
            count += 1
            continue
        line, end = end + 1, reader.line_num  # where the record starts (a quoted cell may span lines)
        if not rec or all(not c.strip() for c in rec):
            continue  # blank line
        count += 1
        if count > limits.rows:  # read no further: none of the file's rows is used
            return pl.DataFrame(), [too_many_rows(name, limits)]
        undecodable = [bad_lines[n] for n in range(line, end + 1) if n in bad_lines]
        if undecodable:
            findings.extend(undecodable)
            continue
        if len(rec) != len(header):
            findings.append(Finding(name, line, "", lines_of(line, end), Severity.ERROR,
                                    f"{len(rec)} fields, the header has {len(header)}: the row is set aside"))
            continue
        if max(map(len, rec)) > limits.cell_chars:
            longest = max(range(len(rec)), key=lambda i: len(rec[i]))
            findings.append(cell_too_long(name, line, header[longest], rec[longest], limits))
            continue
        cleaned_cells: list[Finding] = []
        if odd or end > line:
            for i, c in enumerate(rec):
                cleaned, why = clean_cell(c)
                if why:
                    rec[i] = cleaned
                    if header[i] and first[header[i]] == i:  # a cell that is read
                        cleaned_cells.append(Finding(name, line, header[i], visible(c),
                                                     Severity.WARNING, why))
        clash = [(h, i) for i, h in enumerate(header) if h and first[h] != i and rec[i].strip() != rec[first[h]].strip()]
        if clash:
            for h, i in clash:
                findings.append(Finding(name, line, h, rec[i], Severity.ERROR,
                                        f"the header names {h!r} twice and this row's two cells differ "
                                        f"({rec[first[h]]!r} and {rec[i]!r}): the row is set aside"))
            continue
        findings.extend(cleaned_cells)
        rows.append(rec)
        lines.append(line)
    cols = {h: [r[i] for r in rows] for h, i in first.items()}
    frame = pl.DataFrame({"line": lines, **cols},
                         schema={"line": pl.Int64, **{h: pl.String for h in cols}})
    return frame, findings


@functools.cache
def _inside_lines() -> re.Pattern[str]:
    """The characters :func:`transforms.core.ingest.clean_cell` takes out but CR and LF (which
    end the records): a text without any needs no cell cleaned but in a record of several
    lines."""
    from transforms.core.ingest import REMOVED, SPACED

    chars = (SPACED + REMOVED).replace("\r", "").replace("\n", "")
    return re.compile("[" + "".join(f"\\u{ord(c):04x}" for c in chars) + "]")


def is_pgn_name(name: str, suffix: str = "") -> bool:
    """DESIGN.md Inputs (games) — whether a file of the games folder is a PGN file: its name
    ends ``.pgn`` in any case (``Round1.PGN``), then ``suffix``."""
    return name.endswith(suffix) and name.removesuffix(suffix).lower().endswith(".pgn")


def read_pgn_folder(folder: Path, limits: ReadLimits | None = None,
                    suffix: str = "") -> tuple[pl.DataFrame, list[Finding]]:
    """DESIGN.md Inputs (games) — every ``*.pgn`` of an event's games folder as text, sorted by
    name (a file per round or one per event): a frame of ``file`` (``games/<name>.pgn``) and
    ``text``, and the findings of reading them; ``suffix``: what the files' names carry after
    ``.pgn`` (a last good publication's copies: ``round-1.pgn.txt``); a file of another name
    is not read, a warning (a hidden file, ``.DS_Store``, aside). A file larger than
    ``[limits] file_bytes`` is not read (an error). Decision: UTF-8 (a BOM accepted), else ISO 8859-1, the PGN
    standard's own character set (4.1), with a warning that says so (the names may then read
    wrong). Nothing raises on any bytes."""
    import polars as pl

    from transforms.core.ingest import ReadLimits, file_too_large

    limits = limits or ReadLimits()
    files, texts, findings = [], [], []
    for path in sorted(p for p in folder.iterdir() if p.is_file()):
        if not is_pgn_name(path.name, suffix):
            if not suffix and not path.name.startswith("."):  # (a system's hidden file aside)
                findings.append(Finding(f"{folder.name}/{path.name}", None, "", path.name,
                                        Severity.WARNING, "not read: the games folder holds PGN "
                                        "files, names ending .pgn"))
            continue
        name = f"{folder.name}/{path.name.removesuffix(suffix)}"
        size = path.stat().st_size
        if size > limits.file_bytes:
            findings.append(file_too_large(name, size, limits))
            continue
        data = path.read_bytes()
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            text = data.decode("latin-1")
            findings.append(Finding(name, data.count(b"\n", 0, e.start) + 1, "", f"byte 0x{data[e.start]:02X}",
                                    Severity.WARNING, "not UTF-8: read as ISO 8859-1, the PGN "
                                    "standard's character set (check the names; save the file as "
                                    "UTF-8 to be sure)"))
        files.append(name)
        texts.append(text)
    return pl.DataFrame({"file": files, "text": texts}, schema={"file": pl.String, "text": pl.String}), findings


def load_event_config(folder: Path, suffix: str = "") -> EventConfig:
    """DESIGN.md Inputs (event.toml) — an event folder's ``event.toml{suffix}`` read and
    loaded (:func:`transforms.kinds.parse_event_config`: ConfigError naming the file and the
    key), once as long as the file is unchanged (its path, inode, size and time): a run reads
    it to choose the event's kind, the event's flow reads it, and so does the reader of every
    input file for its limits; a series reads those of its events (4,096 kept: with 64, a
    season of 500 events parsed each several times a run). Missing, or not UTF-8: ConfigError saying so."""
    from transforms.core.errors import ConfigError

    path = Path(folder) / f"event.toml{suffix}"
    name = f"{Path(folder).name}/event.toml"
    try:
        st = path.stat()
    except OSError:
        raise ConfigError(name, "", "event.toml is missing") from None
    return _event_config(str(path), name, st.st_ino, st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=4096)  # a season of 500 events and a series naming 334 of them
def _event_config(path: str, name: str, ino: int, size: int, mtime_ns: int) -> EventConfig:
    from transforms.core.errors import ConfigError
    from transforms.kinds import parse_event_config

    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise ConfigError(name, "", f"not UTF-8 text at line {line} (byte 0x{data[e.start]:02X}): "
                                    "save event.toml as UTF-8") from None
    return parse_event_config(text, file=name)


def input_limits(path: Path) -> ReadLimits:
    """The limits an input file is read under: those its event folder's event.toml gives it
    (:func:`transforms.kinds.read_limits`), the defaults where the folder has no event.toml or
    one that cannot be used (the run reports that before it reads any input). Each event.toml
    is parsed once as long as it is unchanged."""
    from transforms.core.errors import ConfigError
    from transforms.core.ingest import ReadLimits
    from transforms.kinds import read_limits

    try:
        cfg = load_event_config(path.parent)
    except (ConfigError, OSError):  # reported by the run's check of event.toml
        return ReadLimits()
    return read_limits(cfg, path.name)


def sha256(path: Path) -> str:
    """A file's checksum, read in pieces (an input past its limits is never read whole)."""
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


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


class OnDisk:
    """An output taken from the last run as it is on disk, its checksum verified
    (:meth:`flows.site.pages.Publication.take`): read only if its content is asked for
    (:func:`as_bytes`) — where it is written again it is already there (a series of 15,419
    members read its 11,836 kept member pages, 24,000 files, at every run only to verify
    them: 1.6-10 s, warm or cold, measured with py-spy). ``text``: a page or CSV (UTF-8), else
    bytes."""

    __slots__ = ("path", "text")

    def __init__(self, path: Path, text: bool) -> None:
        self.path = path
        self.text = text

    def __repr__(self) -> str:
        return f"OnDisk({str(self.path)!r})"


Content = bytes | str | OnDisk
"""An output's content in a publication: bytes, text, or a file kept on disk (:class:`OnDisk`)."""


def as_bytes(data: Content) -> bytes:
    """An output's bytes as written: text in UTF-8; a file kept on disk as it is there."""
    if isinstance(data, OnDisk):
        return data.path.read_bytes()
    return data.encode("utf-8") if isinstance(data, str) else data


def csv_text(frame: pl.DataFrame) -> str:
    """OWASP "CSV Injection" — the text of every CSV output (RFC 4180 quoting, polars'
    ``write_csv``), each text cell and column name through :func:`neutral_cell`: a name from
    the inputs (``=HYPERLINK(…)``) opens in a spreadsheet as text, never as a formula. Numeric,
    date and boolean columns are written as they are; categorical ones as text, neutralised."""
    import polars as pl

    text = [c for c, t in frame.schema.items() if t == pl.String or isinstance(t, (pl.Categorical, pl.Enum))]
    safe = frame.with_columns(neutral_text(pl.col(c).cast(pl.String)).alias(c) for c in text)
    return safe.rename({c: neutral_cell(c) for c in safe.columns}).write_csv()


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


def list_bytes(path: Path) -> tuple[bytes, str]:
    """FIDE rating lists (the downloads) — the list's bytes and its layout (``txt`` or ``xml``):
    a zip's one member, or the file."""
    import zipfile

    if path.suffix.lower() == ".zip":
        with zipfile.ZipFile(path) as z:
            members = [m for m in z.namelist() if m.lower().endswith((".txt", ".xml"))]
            if len(members) != 1:
                raise InputError(path.name, None, "", ", ".join(z.namelist())[:80],
                                 "a FIDE download holds one .txt or .xml list")
            return z.read(members[0]), members[0].rsplit(".", 1)[1].lower()
    return path.read_bytes(), "xml" if path.suffix.lower() == ".xml" else "txt"


XLSX_ROWS = 100_000
"""Rows of a workbook's sheet read at most (a crosstable of an event: a few hundred)."""
XLSX_COLUMNS = 200
"""Cells of a row read at most."""


def xlsx_rows(data: bytes) -> tuple[tuple[str, ...], ...]:
    """DESIGN.md Inputs — the first sheet of an Excel workbook (``.xlsx``, e.g. chess-results'
    export of a crosstable) as text, row by row, read with openpyxl (read-only, the values as
    last calculated): an empty cell "", a whole number without decimals (``7``, not ``7.0``).
    At most :data:`XLSX_ROWS` rows of :data:`XLSX_COLUMNS` cells. Raises ValueError with the
    reason for bytes that are not such a workbook."""
    import zipfile

    import openpyxl  # type: ignore[import-untyped]  # no stubs (types-openpyxl not installed)

    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError) as e:
        raise ValueError(f"not an Excel workbook (.xlsx): {e}") from e
    try:
        if not book.worksheets:
            raise ValueError("the workbook has no sheet")
        out = []
        for row in book.worksheets[0].iter_rows(max_row=XLSX_ROWS, max_col=XLSX_COLUMNS, values_only=True):
            out.append(tuple(_cell_text(v) for v in row))
        return tuple(out)
    finally:
        book.close()


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)

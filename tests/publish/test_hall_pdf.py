"""The hall sheet as printed (flows/site/render.py ``hall_text_html``, templates/print.css
``@page wide``), checked on the PDF itself: short names on A4 portrait pages, names too long for
a portrait line on A4 landscape pages, and on every page every word inside the paper — no line
runs off the sheet the arbiter pins up. Read back with poppler's ``pdfinfo`` and
``pdftotext -bbox``; without poppler-utils the tests are skipped (``CHESSFED_REQUIRE_POPPLER=1``,
set by CI, makes that a failure)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from html import unescape
from pathlib import Path

import polars as pl
import pytest

from flows.site import render
from tests.publish.test_swiss_site import publish_inputs, raw_inputs

REQUIRE = "CHESSFED_REQUIRE_POPPLER"


def require_poppler() -> None:
    if shutil.which("pdftotext") and shutil.which("pdfinfo"):
        return
    if os.environ.get(REQUIRE) == "1":
        pytest.fail(f"{REQUIRE}=1 but pdftotext/pdfinfo (poppler-utils) are not installed", pytrace=False)
    pytest.skip("poppler-utils (pdftotext, pdfinfo) not installed")


def hall_pdf(tmp_path: Path, name_chars: int | None) -> tuple[Path, list[str]]:
    """The demo's round-10 hall sheet with every name padded to ``name_chars`` characters (None:
    as they are), rendered; and the names of the players on its boards."""
    raw = raw_inputs(through=9)
    frame, found = raw["players.csv"]
    if name_chars is not None:
        frame = frame.with_columns(pl.col("name").map_elements(
            lambda n: (n + " " + "Longname" * 10)[:name_chars], return_dtype=pl.String))
    raw["players.csv"] = (frame, found)
    pub, run = publish_inputs(raw)
    html = pub.pdfs["pairings/round-10-hall.pdf"]
    path = tmp_path / "hall.pdf"
    path.write_bytes(render.html_to_pdf(html))
    paired = []
    for c in run.categories:
        names = dict(zip(c.players["sno"], c.players["name"], strict=True))
        paired += [names[sno] for board in c.pairing.boards for sno in board if sno is not None]
    return path, paired


def page_sizes(pdf: Path) -> list[tuple[float, float]]:
    out = subprocess.run(["pdfinfo", "-f", "1", "-l", "999", str(pdf)], capture_output=True,
                         text=True, check=True).stdout
    return [(float(w), float(h)) for w, h in re.findall(r"Page +\d+ size: +([\d.]+) x ([\d.]+) pts", out)]


def words(pdf: Path) -> list[tuple[int, float, float, float, float, str]]:
    """Every word of the PDF: (page, xMin, yMin, xMax, yMax, text)."""
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True,
                         check=True).stdout
    found, page = [], 0
    for line in out.splitlines():
        if "<page " in line:
            page += 1
        m = re.search(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*)</word>', line)
        if m:
            found.append((page, *map(float, m.groups()[:4]), unescape(m.group(5))))
    return found


@pytest.mark.parametrize("name_chars, landscape", [(None, False), (35, True), (44, True)])
def test_the_printed_hall_sheet_fits_its_paper(tmp_path, name_chars, landscape):
    require_poppler()
    pdf, names = hall_pdf(tmp_path, name_chars)
    sizes = page_sizes(pdf)
    assert sizes and all(round(w) == (842 if landscape else 595) and round(h) == (595 if landscape else 842)
                         for w, h in sizes), sizes
    found = words(pdf)
    width, height = sizes[0]
    outside = [w for w in found if not (w[1] >= 0 and w[3] <= width and w[2] >= 0 and w[4] <= height)]
    assert not outside, outside[:5]
    # nothing cut off: every name on a board is printed whole, word for word
    text = {w[5] for w in found}
    assert len(names) > 100
    assert [n for n in names if not set(n.split()) <= text] == []

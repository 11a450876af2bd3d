"""A PDF rendered from the report template carries the text, header and page numbers; its
links lead to the published site, never to the folder it was built in."""

import io
import shutil
import threading
from pathlib import Path

import polars as pl
from pypdf import PdfReader

from flows.site import render
from flows.site.pages import Publication, pdf_base
from flows.site.present import Section, table_from_frame
from flows.site.render import html_to_pdf, render_page


def test_report_pdf_contains_table_text_and_page_numbers():
    frame = pl.DataFrame({"rank": list(range(1, 121)), "name": [f"Player {i:03d}" for i in range(1, 121)],
                          "points": [11 - i * 0.05 for i in range(120)]})
    html = render_page("report.html", title="Standings after round 11", subtitle="",
                       sections=[Section("Open", tables=[table_from_frame(frame, numeric=["rank", "points"])])],
                       event={"name": "Test Championship", "venue": "Karnal", "dates": "16–24 Sep 2024",
                              "code": ""}, as_of="2024-09-24")
    reader = PdfReader(io.BytesIO(html_to_pdf(html)))
    assert len(reader.pages) >= 2  # 120 rows do not fit on one A4 page
    first = reader.pages[0].extract_text()
    assert "Standings after round 11" in first and "Player 001" in first
    assert f"Page 1 of {len(reader.pages)}" in first
    last = reader.pages[-1].extract_text()
    assert "Player 120" in last
    assert "rank" in last  # the thead repeats on every page


def test_the_shared_stylesheet_parsed_once_gives_the_same_bytes_as_the_inline_one():
    """html_to_pdf renders a page carrying the shared stylesheet with that stylesheet parsed
    once (and one font configuration): the PDF is byte for byte the one WeasyPrint makes of the
    self-contained page, also after other documents went through the same renderer."""
    from weasyprint import HTML

    from flows.site.render import css

    frame = pl.DataFrame({"rank": [1, 2, 3], "name": ["Ann", "Bob", "Cy"], "points": [2.5, 2.0, 0.5]})
    pages = [render_page("report.html", title=f"Standings after round {r}", subtitle="", sections=[
        Section("Open", tables=[table_from_frame(frame, numeric=["rank", "points"])])],
        event={"name": "Test Championship", "venue": "Karnal", "dates": "16–24 Sep 2024", "code": ""},
        as_of="2024-09-24", printed=True) for r in (1, 2)]
    assert f"<style>{css()}</style>" in pages[0]
    for html in pages + pages[:1]:
        assert html_to_pdf(html) == HTML(string=html).write_pdf()


def link_uris(pdf: bytes) -> list[str]:
    """Every address a link annotation of ``pdf`` opens (internal jumps left out)."""
    out = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for annot in page.get("/Annots") or []:
            a = annot.get_object().get("/A")
            if a is not None and "/URI" in a:
                out.append(str(a["/URI"]))
    return out


LINKED = [Section("Members", tables=[table_from_frame(
    pl.DataFrame({"name": ["Ann", "Bob"], "_link": ["members/1.html#s1", "#top"]}),
    [("name", "Name")], links={"name": "_link"})])]


def linked_pdf(site_url: str, rel: str = "awards.pdf") -> bytes:
    pub = Publication(Path("unused"), ctx={"site_url": site_url})
    pub.page(rel.removesuffix(".pdf") + ".html", title="Awards", subtitle="", sections=LINKED,
             event={"name": "Test", "venue": "", "dates": "", "code": ""}, as_of="2024-09-24")
    return html_to_pdf(pub.pdfs[rel])


def test_a_pdfs_links_open_the_published_site():
    """With ``[publish] site_url`` a relative link of a printed page opens the published page
    from the PDF's own place on the site (mailed or downloaded, it still leads there); an
    anchor of the same page stays a jump inside the PDF."""
    site = "https://results.example.org/gk-2019"  # no trailing slash: one is added
    assert link_uris(linked_pdf(site)) == ["https://results.example.org/gk-2019/members/1.html#s1"]
    assert link_uris(linked_pdf(site, "certificates/x.pdf")) == [
        "https://results.example.org/gk-2019/certificates/members/1.html#s1"]
    assert pdf_base(site + "/", "a/b.pdf") == "https://results.example.org/gk-2019/a/b.pdf"


def test_without_a_site_url_a_pdfs_links_stay_relative():
    """No site address known: the link stays as the page wrote it (relative to the PDF,
    which works where the PDF sits in the published folder), not a file:// address."""
    assert link_uris(linked_pdf("")) == ["members/1.html#s1"]


def test_the_same_page_gives_the_same_pdf_from_any_checkout(tmp_path, monkeypatch):
    """Regression: WeasyPrint resolved relative links against the project's templates folder,
    so PDFs linked to ``file:///<checkout>/templates/…`` and their bytes changed with the
    folder the project was checked out in. The same page rendered by a copy of the templates
    elsewhere (a fresh thread: its own parsed stylesheet) gives the same bytes."""
    html = Publication(Path("unused"), ctx={"site_url": ""})
    html.page("awards.html", title="Awards", subtitle="", sections=LINKED,
              event={"name": "Test", "venue": "", "dates": "", "code": ""}, as_of="2024-09-24")
    page = html.pdfs["awards.pdf"]
    here = html_to_pdf(page)
    copy = tmp_path / "elsewhere" / "templates"
    shutil.copytree(render.TEMPLATES, copy)
    monkeypatch.setattr(render, "TEMPLATES", copy)
    there: list[bytes] = []
    worker = threading.Thread(target=lambda: there.append(html_to_pdf(page)))
    worker.start()
    worker.join()
    assert there == [here]
    assert not [u for u in link_uris(here) if u.startswith("file:")]


def test_the_renderers_run_at_a_lower_priority_than_the_run():
    """The PDF renderers fill every core; the run's own short work between them (Prefect's
    server, an event's flow run, the next pages) goes first (``nice``)."""
    import os

    from flows.pipeline import workers

    assert workers.submit(os.nice, 0).result() == min(19, os.nice(0) + workers.PDF_NICENESS)


def test_the_office_is_told_when_the_fast_font_subsetter_is_missing(monkeypatch):
    """Without HarfBuzz's subsetter WeasyPrint subsets fonts with fontTools, two to four times
    as slowly: ``chessfed run`` says so and what to install; with it, nothing is said."""
    import ctypes.util

    from flows.pipeline import workers

    found = {workers.SUBSETTER: "libharfbuzz-subset.so.0"}
    monkeypatch.setattr(ctypes.util, "find_library", lambda name: found.get(name))
    assert workers.slow_fonts_note() == ""
    found.clear()
    note = workers.slow_fonts_note()
    assert "libharfbuzz-subset0" in note and "fontTools" in note


def test_the_office_is_told_when_the_pairing_engines_compiled_core_is_missing(monkeypatch):
    """Without the compiled matching core (cmatching.c, built by make install) the pairings
    and their audit run on the pure-Python core, several times as slowly: ``chessfed run``
    says so and how to build it; with it, nothing is said."""
    from flows.pipeline import workers
    from transforms.fide.dutch import matching

    monkeypatch.setitem(matching.CORES, "compiled", matching.MatchingGraph)
    assert workers.slow_pairing_note() == ""
    monkeypatch.delitem(matching.CORES, "compiled")
    note = workers.slow_pairing_note()
    assert "compiled core is not built" in note and "make install" in note

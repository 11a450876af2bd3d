"""A PDF rendered from the report template carries the text, header and page numbers."""

import io

import polars as pl
from pypdf import PdfReader

from flows.publish.present import Section, table_from_frame
from flows.publish.render import html_to_pdf, render_page


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

    from flows.publish.render import TEMPLATES, css

    frame = pl.DataFrame({"rank": [1, 2, 3], "name": ["Ann", "Bob", "Cy"], "points": [2.5, 2.0, 0.5]})
    pages = [render_page("report.html", title=f"Standings after round {r}", subtitle="", sections=[
        Section("Open", tables=[table_from_frame(frame, numeric=["rank", "points"])])],
        event={"name": "Test Championship", "venue": "Karnal", "dates": "16–24 Sep 2024", "code": ""},
        as_of="2024-09-24", printed=True) for r in (1, 2)]
    assert f"<style>{css()}</style>" in pages[0]
    for html in pages + pages[:1]:
        assert html_to_pdf(html) == HTML(string=html, base_url=str(TEMPLATES)).write_pdf()

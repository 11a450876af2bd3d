"""What the printed version of a page carries: no navigation, no run date (so a round's PDF
does not change when the next round arrives), and on the bulletin the address of the event's
home page with a QR code that opens it ([publish] site_url)."""

import datetime as dt
import io
from pathlib import Path

import pytest
import segno
from pypdf import PdfReader

from flows.site.pages import QR_BORDER, QR_SCALE, Publication, publish_bulletin
from flows.site.present import Section
from flows.site.render import html_to_pdf
from transforms.core.errors import ConfigError
from transforms.kinds import parse_event_config

URL = "https://results.example.org/national-junior-2024/"
EVENT = {"name": "Test Junior 2024", "venue": "Karnal", "dates": "16 Sep 2024", "code": ""}


def publication(as_of: str = "2024-09-20", site_url: str = "") -> Publication:
    return Publication(Path("/nonexistent"), ctx={"event": EVENT, "as_of": as_of,
                                                   "site_url": site_url})


def test_a_round_pdf_stays_the_same_when_the_next_round_adds_a_next_link():
    before, after = publication(), publication()
    kw = {"title": "Standings after round 2", "subtitle": "",
          "sections": [Section("Open", intro=["Ann 2, Bob 1."])]}
    html_before = before.page("standings/round-02.html", prev="standings/round-01.html", **kw)
    html_after = after.page("standings/round-02.html", prev="standings/round-01.html",
                            next="standings/round-03.html", **kw)
    assert 'href="../standings/round-03.html"' in html_after and "round-03" not in html_before
    assert before.pdfs["standings/round-02.pdf"] == after.pdfs["standings/round-02.pdf"]
    printed = before.pdfs["standings/round-02.pdf"]
    assert "Ann 2, Bob 1." in printed
    assert "<nav" not in printed and "round-01.html" not in printed


def test_a_round_pdf_stays_the_same_on_a_later_run_date():
    monday, tuesday = publication("2024-09-20"), publication("2024-09-21")
    for pub in (monday, tuesday):
        pub.page("pairings/round-03.html", title="Pairings — round 3", subtitle="", sections=[])
    assert monday.files["pairings/round-03.html"] != tuesday.files["pairings/round-03.html"]
    assert "as of 2024-09-20" in monday.files["pairings/round-03.html"]
    assert monday.pdfs["pairings/round-03.pdf"] == tuesday.pdfs["pairings/round-03.pdf"]


def test_the_leaner_printed_version_also_leaves_the_navigation_out():
    pub = publication()
    pub.page("prizes.html", title="Prize list", subtitle="", sections=[],
             pdf={"subtitle": "Printed."})
    assert "Event home" in pub.files["prizes.html"]
    assert "Printed." in pub.pdfs["prizes.pdf"] and "Event home" not in pub.pdfs["prizes.pdf"]


def qr_modules(image) -> list[list[bool]]:
    """The modules (True = dark) of a QR image drawn QR_SCALE pixels a module, read at the
    centre of each module, quiet zone removed."""
    grey = image.convert("L")
    n = grey.width // QR_SCALE
    assert grey.width == grey.height == n * QR_SCALE
    cells = [[grey.getpixel((x * QR_SCALE + QR_SCALE // 2, y * QR_SCALE + QR_SCALE // 2)) < 128
              for x in range(n)] for y in range(n)]
    assert not any(cells[0]) and not any(cells[-1])  # the quiet zone is white
    return [row[QR_BORDER:n - QR_BORDER] for row in cells[QR_BORDER:n - QR_BORDER]]


def test_the_bulletin_pdf_carries_a_qr_code_that_opens_the_event_home_and_its_address():
    pub = publication(site_url=URL)
    publish_bulletin(pub, [Section("Open — standings", intro=["Ann leads."])], dt.date(2024, 9, 20))
    page = PdfReader(io.BytesIO(html_to_pdf(pub.pdfs["bulletin.pdf"]))).pages[0]
    assert URL in page.extract_text().replace("\n", "")
    [image] = page.images
    expected = segno.make(URL)
    assert not expected.is_micro
    assert qr_modules(image.image) == [[bool(m) for m in row] for row in expected.matrix]
    assert URL in pub.files["bulletin.html"] and 'class="qr"' in pub.files["bulletin.html"]


def test_without_a_site_url_the_bulletin_has_no_qr_code():
    pub = publication()
    publish_bulletin(pub, [Section("Open — standings")], dt.date(2024, 9, 20))
    assert 'class="qr"' not in pub.files["bulletin.html"]
    assert not PdfReader(io.BytesIO(html_to_pdf(pub.pdfs["bulletin.pdf"]))).pages[0].images


TOML = """
[event]
id = "x"
name = "X"
kind = "swiss"
start = 2024-09-16
end = 2024-09-20
venue = "V"
organiser = "O"
currency = "INR"
contact = "c"
[publish]
sender = "a@b.example"
site_url = {url}
[swiss]
rounds = 5
categories = [{{ id = "open", name = "Open" }}]
"""


@pytest.mark.parametrize("bad", ['"results.example.org/x/"', '"ftp://results.example.org/"',
                                 '"https://results example.org/"', '"https:///x/"', "7"])
def test_a_site_url_that_is_not_an_absolute_web_address_is_rejected_naming_the_key(bad):
    with pytest.raises(ConfigError) as err:
        parse_event_config(TOML.format(url=bad), file="x/event.toml")
    assert err.value.file == "x/event.toml" and err.value.key == "publish.site_url"


def test_a_site_url_is_read_as_given():
    cfg = parse_event_config(TOML.format(url=f'"{URL}"'), file="x/event.toml")
    assert cfg.publish.site_url == URL


def test_the_demo_bulletins_carry_the_qr_code_of_their_site_url(demo_run):
    _, out, *_ = demo_run
    for event in ("national-junior-2024", "golden-knights-2019"):
        url = parse_event_config((out.parent / "inputs" / event / "event.toml").read_text()).publish.site_url
        assert url.endswith(f"/{event}/")
        page = PdfReader(out / event / "bulletin.pdf").pages[0]
        assert url in page.extract_text().replace("\n", "")
        assert qr_modules(page.images[0].image) == [[bool(m) for m in row]
                                                    for row in segno.make(url).matrix]


def test_a_document_of_landscape_sections_prints_landscape_from_its_first_page():
    """A crosstable (every section wide) starts on a landscape page with its heading; a document
    with a portrait section keeps its portrait first page (the wide sections turn later)."""
    pub = publication()
    pub.page("crosstable.html", title="Crosstable", subtitle="",
             sections=[Section("Open", intro=["Cells: opponent's rank, colour, result."],
                               wide=True)])
    pub.page("mixed.html", title="Mixed", subtitle="",
             sections=[Section("Standings", intro=["Ann 2."]),
                       Section("Crosstable", intro=["1w1"], wide=True)])
    pages = {name: PdfReader(io.BytesIO(html_to_pdf(pub.pdfs[name]))).pages
             for name in ("crosstable.pdf", "mixed.pdf")}
    first = pages["crosstable.pdf"][0]
    assert first.mediabox.width > first.mediabox.height
    assert "Crosstable" in first.extract_text() and len(pages["crosstable.pdf"]) == 1
    mixed = pages["mixed.pdf"]
    assert mixed[0].mediabox.width < mixed[0].mediabox.height
    assert mixed[-1].mediabox.width > mixed[-1].mediabox.height

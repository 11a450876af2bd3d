"""The demo site in a real browser (headless Chromium, one session for every test): every page
loads without console errors and fits a 375 px phone except inside its scroll boxes, every
link resolves, every public page of an event is a few clicks from its home, office pages are
linked from no public page, and screenshots at 375 and 1280 px are left for a person to look
at (``$CHESSFED_SCREENSHOTS``, else a folder of pytest's temporary ones, printed).

The checks are generic (they crawl whatever the run wrote), so a new report set is checked as
soon as it is published. Without Chromium these tests are skipped (the reason says so);
``CHESSFED_REQUIRE_BROWSER=1`` (.ci/run) makes that a failure.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.browser import (
    DESKTOP,
    PHONE,
    Site,
    player_pages_missing,
    severe,
)

ROOT = Path(__file__).resolve().parents[2]
CLICKS = 3
"""How many clicks from an event's home every public page of it may take at most."""
PERSON_CLICKS = 2
"""... and a player's or a member's page (``players/<category>/<n>.html``,
``members/<id>.html``): home, the list, the person."""
PERSON = re.compile(r"/(players/[^/]+|members)/(?!index|alphabetical)[^/]+\.html$")



@pytest.fixture(scope="session")
def site(demo_run) -> Site:
    _, out, *_ = demo_run
    return Site.read(out)


@pytest.fixture(scope="session")
def phone_visit(browser, site):
    """Every page of the sample, opened once as on a 375 px phone: page -> (severe console
    entries, layout)."""
    browser.emulate(PHONE, mobile=True)
    seen = {}
    for page in site.sample():
        logs = browser.load(site.root / page)
        seen[page] = (severe(logs), browser.layout(), browser.low_contrast())
    return seen


def events(site: Site) -> list[str]:
    return sorted({p.split("/")[0] for p in site.hrefs if "/" in p})


def test_the_site_has_every_event_and_the_sample_covers_every_list_page(site):
    assert "index.html" in site.hrefs
    assert {"national-junior-2024", "golden-knights-2019", "club-open-2025",
            "club-championship-2025", "broken-open"} <= set(events(site))
    sample = set(site.sample())
    for page in site.hrefs:
        if page.endswith("index.html") or "/standings/" in page or "/pairings/" in page:
            assert page in sample, page


def test_every_page_loads_without_console_errors(phone_visit):
    errors = {page: errs for page, (errs, _, _) in phone_visit.items() if errs}
    assert errors == {}


def test_every_link_resolves_to_an_existing_file_and_fragment(site):
    assert site.broken() == []


def test_no_page_is_wider_than_a_375_px_phone_except_inside_its_scroll_boxes(phone_visit):
    too_wide = {}
    for page, (_, lay, _) in phone_visit.items():
        # the page honours its viewport (else a phone would lay it out 980 px wide)
        assert lay["clientWidth"] == PHONE == lay["innerWidth"], page
        if lay["scrollWidth"] > lay["clientWidth"] or lay["offenders"]:
            too_wide[page] = (lay["scrollWidth"], lay["offenders"])
    assert too_wide == {}


def test_text_has_the_contrast_wcag_aa_asks_for_on_every_page(phone_visit):
    low = {page: found for page, (_, _, found) in phone_visit.items() if found}
    assert low == {}


def test_every_public_page_of_an_event_is_a_few_clicks_from_its_home(site):
    far = {}
    for event in events(site):
        home = f"{event}/index.html"
        assert home in site.clicks_from("index.html", inside=""), f"{home} not linked from the run's index"
        clicks = site.clicks_from(home, inside=f"{event}/")
        public = [p for p in site.hrefs if p.startswith(f"{event}/")
                  and not p.startswith(f"{event}/office/") and p not in site.redirects]
        people = [p for p in public if PERSON.search(p)]
        assert people or event == "broken-open", f"{event}: no player or member pages"
        for page in public:
            most = PERSON_CLICKS if PERSON.search(page) else CLICKS
            if clicks.get(page, most + 1) > most:
                far[page] = clicks.get(page, "unreachable")
    assert far == {}


def test_office_pages_are_linked_from_no_public_page_but_from_the_office_home(site):
    leaks = []
    for page, hrefs in site.hrefs.items():
        if "/office/" in f"/{page}":
            continue
        for href in hrefs:
            t = site.target(page, href)
            if t and "/office/" in f"/{t[0]}":
                leaks.append(f"{page} -> {href}")
    assert leaks == []
    for event in events(site):
        office = [p for p in site.hrefs if p.startswith(f"{event}/office/")]
        if not office:
            continue
        reach = site.clicks_from(f"{event}/office/index.html", inside=f"{event}/office/")
        assert sorted(set(office) - set(reach)) == [], event


def test_a_swiss_player_page_exists_for_every_standings_row(browser, site):
    """Where the standings pages link their rows to per-player pages: every row of the last
    standings/round-NN.csv has its row on the page, linking to a page that names the player."""
    browser.emulate(DESKTOP, mobile=False)
    checked = 0
    for event in events(site):
        rounds = sorted((site.root / event / "standings").glob("round-*.csv"))
        missing = player_pages_missing(browser, rounds[-1]) if rounds else None
        if missing is None:
            continue
        assert missing == [], f"{rounds[-1]}: rows without a player page"
        checked += 1
    if not checked:
        pytest.skip("no standings page links its rows to player pages yet")


def test_screenshots_at_375_and_1280_px_are_written_for_a_person_to_look_at(browser, site,
                                                                            tmp_path_factory):
    # never into the project's outputs/ (make test writes nothing there): pytest's temporary
    # folder (its path is printed), or $CHESSFED_SCREENSHOTS
    folder = Path(os.environ.get("CHESSFED_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    print(f"screenshots: {folder}")
    pages = ["index.html"]
    for event in events(site):
        pages.append(f"{event}/index.html")
        for pattern in ("standings/round-*.html", "crosstable.html", "standings.html",
                        "bulletin.html"):
            found = sorted(p for p in site.hrefs if Path(p).match(f"{event}/{pattern}"))
            pages += found[-1:]
    written = []
    for width, mobile in ((PHONE, True), (DESKTOP, False)):
        browser.emulate(width, mobile=mobile)
        for page in pages:
            browser.load(site.root / page)
            shot = folder / f"{page.replace('/', '__').removesuffix('.html')}-{width}.png"
            browser.screenshot(shot)
            written.append(shot)
    for shot in written:
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(written) == 2 * len(pages) >= 2 * 7


def test_the_browser_checks_catch_a_console_error_and_a_page_too_wide(browser, tmp_path):
    # The checks above must be able to fail: a script error and a 600 px block are seen.
    bad = tmp_path / "bad.html"
    bad.write_text('<!doctype html><meta name="viewport" content="width=device-width">'
                   '<body><div style="width:600px">wide</div>'
                   '<div class="scroll" style="overflow:auto"><table style="width:900px">'
                   '<tr><td>fine</td></tr></table></div>'
                   '<script>nosuchfunction()</script></body>')
    browser.emulate(PHONE, mobile=True)
    errors = severe(browser.load(bad))
    assert any("nosuchfunction" in e for e in errors)
    lay = browser.layout()
    assert lay["scrollWidth"] > PHONE
    pale = tmp_path / "pale.html"
    pale.write_text('<body style="background:#fff"><p style="color:#999">pale</p>'
                    '<p style="color:#767676">just enough</p>'
                    '<h1 style="color:#949494;font-size:24px">large and 3:1</h1></body>')
    browser.load(pale)
    assert [c.split(" ")[:2] for c in browser.low_contrast()] == [["p", "2.85:1"]]
    assert [o.split(" ")[0] for o in lay["offenders"]] == ["div"]
    assert not any("table" in o for o in lay["offenders"])
    broken = tmp_path / "site"
    (broken / "e").mkdir(parents=True)
    (broken / "e" / "index.html").write_text('<a href="gone.html">x</a><a href="#nope">y</a>'
                                             '<a href="index.html#top">z</a><p id="top"></p>')
    assert len(Site.read(broken).broken()) == 2


def test_the_player_page_check_finds_a_row_without_its_page(browser, tmp_path):
    # standings/round-01: Ann links to her page, Bob to a page that does not exist, and Cy
    # has no link; a standings page with no player links at all is "no player pages yet".
    d = tmp_path / "e"
    (d / "standings").mkdir(parents=True)
    (d / "players").mkdir()
    (d / "players" / "ann.html").write_text("<h1>Ann Ames</h1>")
    (d / "standings" / "round-01.csv").write_text(
        "category,rank,sno,name\nopen,1,1,Ann Ames\nopen,2,2,Bob Bell\nopen,3,3,Cy Cole\n")
    row = "<tr><td>{r}</td><td>{s}</td><td>{name}</td></tr>"
    (d / "standings" / "round-01.html").write_text("<table><tbody>" + "".join([
        row.format(r=1, s=1, name='<a href="../players/ann.html">Ann Ames</a>'),
        row.format(r=2, s=2, name='<a href="../players/bob.html">Bob Bell</a>'),
        row.format(r=3, s=3, name="Cy Cole")]) + "</tbody></table>")
    browser.emulate(DESKTOP, mobile=False)
    assert player_pages_missing(browser, d / "standings" / "round-01.csv") == [
        "open 2 Bob Bell", "open 3 Cy Cole"]
    (d / "standings" / "round-01.html").write_text(
        "<table><tbody>" + row.format(r=1, s=1, name="Ann Ames") + "</tbody></table>")
    assert player_pages_missing(browser, d / "standings" / "round-01.csv") is None

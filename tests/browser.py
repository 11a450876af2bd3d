"""A real browser for the site tests: Debian's Chromium driven by Selenium through the
system chromedriver (nothing is downloaded: no Selenium Manager, no browser build), and a
static reading of the site's links (every page, fast, without the browser).

Without Chromium the browser tests are skipped with the reason; ``CHESSFED_REQUIRE_BROWSER=1``
(what ``.ci/run`` sets) turns that skip into a failure.
"""

from __future__ import annotations

import base64
import csv
import os
import tempfile
from collections import deque
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
REQUIRE = "CHESSFED_REQUIRE_BROWSER"
CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run", "--hide-scrollbars")
PHONE = 375
"""The narrowest phone the site is laid out for (CSS px)."""
DESKTOP = 1280


def browser_missing() -> str:
    """Why the browser tests cannot run here ("" when they can)."""
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    if missing:
        return (f"Chromium is not installed ({', '.join(missing)} missing; "
                "`apt-get install chromium chromium-driver` installs it, as .ci/run does)")
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (`make test` installs the test extras)"
    return ""


def require_browser() -> None:
    """Skip (or, under ``CHESSFED_REQUIRE_BROWSER=1``, fail) when there is no browser."""
    reason = browser_missing()
    if not reason:
        return
    if os.environ.get(REQUIRE) == "1":
        pytest.fail(f"{REQUIRE}=1 but {reason}", pytrace=False)
    pytest.skip(f"browser tests skipped: {reason}")


class Browser:
    """One headless Chromium for the whole test session, with a fresh profile in a temporary
    folder; pages are laid out as on a phone (:meth:`emulate`) or a desktop."""

    def __init__(self) -> None:
        os.environ["SE_AVOID_STATS"] = "true"  # else Selenium Manager reports to the network
        os.environ["SE_OFFLINE"] = "true"
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.profile = tempfile.TemporaryDirectory(prefix="chessfed-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = str(CHROMIUM)
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self.profile.name}")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
        self.width = 0

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            self.profile.cleanup()

    def emulate(self, width: int, *, mobile: bool) -> None:
        """Lay pages out ``width`` CSS px wide (``mobile``: as a phone, honouring the page's
        viewport meta tag)."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": 800 if mobile else 900, "deviceScaleFactor": 1,
            "mobile": mobile})
        self.width = width

    def load(self, page: Path) -> list[dict]:
        """Open ``page`` and return what the browser logged while loading it."""
        self.driver.get_log("browser")  # drop what earlier pages left
        self.driver.get(page.resolve().as_uri())
        return self.driver.get_log("browser")

    def layout(self) -> dict:
        """The page's width against the viewport's, and every visible element that reaches
        past the viewport's edges without being inside a ``.scroll`` box."""
        return self.driver.execute_script(LAYOUT_JS)

    def screenshot(self, path: Path, *, max_height: int = 5000) -> None:
        """The whole page (up to ``max_height`` px tall) as a PNG."""
        height = self.driver.execute_script(
            "return Math.ceil(document.documentElement.scrollHeight)")
        shot = self.driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": self.width, "height": min(height, max_height),
                     "scale": 1}})
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(shot["data"]))

    def low_contrast(self) -> list[str]:
        """Every element of the open page whose own text has less contrast with the
        background behind it than WCAG 2.1 AA asks (1.4.3: 4.5:1, large text 3:1), with its
        ratio; the background is the first opaque one among the element and its ancestors."""
        return self.driver.execute_script(CONTRAST_JS)

    def rows_with_links(self) -> list[dict]:
        """Every table body row of the open page: its text and the files it links to."""
        return self.driver.execute_script(ROWS_JS)


LAYOUT_JS = """
const root = document.documentElement, limit = root.clientWidth;
const out = [];
for (const el of document.body.querySelectorAll('*')) {
  if (el.closest('.scroll')) continue;
  const r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) continue;
  if (r.right > limit + 0.5 || r.left < -0.5) {
    out.push(el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).trim()
      .replace(/\\s+/g, '.') : '') + ' [' + Math.round(r.left) + ', ' + Math.round(r.right) + '] '
      + JSON.stringify((el.innerText || '').slice(0, 60)));
  }
}
return {scrollWidth: root.scrollWidth, clientWidth: limit, innerWidth: window.innerWidth,
        offenders: out.slice(0, 10)};
"""

CONTRAST_JS = """
function rgba(c) { const m = c.match(/[\\d.]+/g).map(Number); return m.length > 3 ? m : m.concat([1]); }
function lum(c) {
  const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
}
function background(el) {
  for (let e = el; e; e = e.parentElement) {
    const b = rgba(getComputedStyle(e).backgroundColor);
    if (b[3] >= 0.99) return b;
  }
  return [255, 255, 255, 1];
}
const out = [];
for (const el of document.body.querySelectorAll('*')) {
  const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
  if (!own) continue;
  const st = getComputedStyle(el);
  if (st.visibility === 'hidden' || st.display === 'none') continue;
  const r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) continue;
  const fg = rgba(st.color), bg = background(el);
  const a = fg[3];  // a translucent colour shows mixed with its background
  const mix = [0, 1, 2].map(i => fg[i] * a + bg[i] * (1 - a));
  const [l1, l2] = [lum(mix), lum(bg)].sort((x, y) => y - x);
  const ratio = (l1 + 0.05) / (l2 + 0.05);
  const size = parseFloat(st.fontSize), bold = Number(st.fontWeight) >= 700;
  const large = size >= 24 || (bold && size >= 18.66);
  if (ratio < (large ? 3 : 4.5) - 0.005) {
    out.push(el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).trim()
      .replace(/\\s+/g, '.') : '') + ' ' + ratio.toFixed(2) + ':1 ' + st.color + ' on rgb('
      + bg.slice(0, 3).join(', ') + ') ' + JSON.stringify(el.textContent.trim().slice(0, 40)));
  }
}
return out.slice(0, 10);
"""

ROWS_JS = """
return Array.from(document.querySelectorAll('tbody tr')).map(tr => ({
  text: tr.innerText,
  hrefs: Array.from(tr.querySelectorAll('a[href]')).map(a => a.href)}));
"""


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.hrefs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"] or "")
        if tag == "a":
            if a.get("name"):
                self.ids.add(a["name"] or "")
            if a.get("href") is not None:
                self.hrefs.append(a["href"] or "")


@dataclass
class Site:
    """The links of every HTML page under a run's output folder, read from the files."""

    root: Path
    hrefs: dict[str, list[str]] = field(default_factory=dict)
    """Page (relative path) -> every ``a[href]`` on it, as written."""
    ids: dict[str, set[str]] = field(default_factory=dict)
    """Page -> the fragment ids it has (``id=``, ``<a name=>``)."""
    redirects: set[str] = field(default_factory=set)
    """The pages that only send the reader on (``<meta http-equiv="refresh">``): ways in from
    another event's pages (a series' page of an event's player), not pages of their own."""

    @classmethod
    def read(cls, root: Path) -> Site:
        site = cls(root)
        for page in sorted(root.rglob("*.html")):
            parser = _Links()
            text = page.read_text(encoding="utf-8")
            parser.feed(text)
            rel = page.relative_to(root).as_posix()
            site.hrefs[rel], site.ids[rel] = parser.hrefs, parser.ids
            if 'http-equiv="refresh"' in text:
                site.redirects.add(rel)
        return site

    def target(self, page: str, href: str) -> tuple[str, str] | None:
        """Where ``href`` on ``page`` points inside the site: (relative path, fragment);
        None for a link that leaves the site (another scheme, an absolute URL)."""
        parts = urlsplit(href)
        if parts.scheme or parts.netloc or href.startswith("/"):
            return None
        base = Path(page).parent
        path = (base / unquote(parts.path)).as_posix() if parts.path else page
        norm = os.path.normpath(path)
        return ("" if norm == "." else norm), parts.fragment

    def broken(self) -> list[str]:
        """Every link that does not resolve: a missing file, a folder, a path leaving the
        output folder, or a fragment the target page does not have."""
        out = []
        for page, hrefs in self.hrefs.items():
            for href in hrefs:
                t = self.target(page, href)
                if t is None:
                    if not href.startswith(("mailto:", "https://", "http://")):
                        out.append(f"{page}: {href!r} leaves the site")
                    continue
                path, frag = t
                if path.startswith("..") or not (self.root / path).is_file():
                    out.append(f"{page}: {href!r} -> {path} does not exist")
                elif frag and frag not in self.ids.get(path, set()):
                    out.append(f"{page}: {href!r} -> no id {frag!r} in {path}")
        return out

    def clicks_from(self, start: str, *, inside: str) -> dict[str, int]:
        """Pages under the folder ``inside`` reachable from ``start`` by following links
        (breadth first), with the number of clicks each takes."""
        seen = {start: 0}
        queue = deque([start])
        while queue:
            page = queue.popleft()
            for href in self.hrefs.get(page, []):
                t = self.target(page, href)
                if t is None or not t[0].endswith(".html") or t[0] in seen:
                    continue
                if not t[0].startswith(inside) or t[0] not in self.hrefs:
                    continue
                seen[t[0]] = seen[page] + 1
                queue.append(t[0])
        return seen

    def sample(self, *, per_folder: int = 12, crowded: int = 30) -> list[str]:
        """The pages to open in the browser: every page of a folder holding at most
        ``crowded`` pages (homes, lists, round pages), and ``per_folder`` pages spread
        evenly over each folder holding more (per-player pages)."""
        by_folder: dict[str, list[str]] = {}
        for page in self.hrefs:
            by_folder.setdefault(str(Path(page).parent), []).append(page)
        out = []
        for pages in by_folder.values():
            pages.sort()
            if len(pages) <= crowded:
                out += pages
            else:
                step = len(pages) / per_folder
                out += sorted({pages[int(i * step)] for i in range(per_folder)} | {pages[-1]})
        return sorted(out)


def player_pages_missing(browser: Browser, standings: Path) -> list[str] | None:
    """The rows of the standings CSV ``standings`` (``standings/round-NN.csv``) without a
    player page: a row of its HTML page (same name, ``.html``) showing the player's name and
    start number and linking to an existing page, outside the standings folder, that names the
    player. None when no row of the page links outside the standings folder (no player pages
    yet)."""
    page = standings.with_suffix(".html")
    browser.load(page)
    rows = [r for r in browser.rows_with_links()
            if any(_local(h) and _local(h).parent != page.parent for h in r["hrefs"])]
    if not rows:
        return None
    with open(standings, newline="", encoding="utf-8") as fh:
        players = list(csv.DictReader(fh))
    missing = []
    for p in players:
        mine = [r for r in rows if p["name"] in r["text"] and p["sno"] in r["text"].split()]
        targets = [_local(h) for r in mine for h in r["hrefs"]]
        if not any(t and t.parent != page.parent and t.is_file()
                   and p["name"] in t.read_text(encoding="utf-8") for t in targets):
            missing.append(f"{p.get('category', '')} {p['sno']} {p['name']}".strip())
    return missing


def _local(href: str) -> Path | None:
    parts = urlsplit(href)
    return Path(unquote(parts.path)) if parts.scheme == "file" else None


def severe(entries: list[dict]) -> list[str]:
    """The console entries that are errors."""
    return [f"{e.get('source', '')}: {e.get('message', '')}" for e in entries
            if e.get("level") == "SEVERE"]

"""A game's page in a real browser (issue 48): headless Chromium opens the page of the Fried
Liver game of tests/games_event.py from disk (``file://``, no server, nothing fetched) at 375
and 1280 px; clicking a move shows that move's position (the board's ``data-fen`` and the
pieces drawn on its squares), Prev, Next and the arrow keys step, no console error, and the
page fits a phone. Screenshots are left for a person to look at (``$CHESSFED_SCREENSHOTS``,
else pytest's temporary folder). Skipped without Chromium (``CHESSFED_REQUIRE_BROWSER=1``:
a failure)."""

from __future__ import annotations

import os
from pathlib import Path

import chess
import pytest

from tests.browser import DESKTOP, PHONE, Browser, severe
from tests.games_event import build_site, games_event

GAME = "games/open/round-01-board-01.html"

PIECES_JS = """
const svg = document.querySelector('#board svg');
const vb = svg.viewBox.baseVal, margin = (vb.width - 8 * 45) / 2;
const out = {};
for (const u of svg.querySelectorAll('use')) {
  const m = /translate\\(([\\d.]+), ([\\d.]+)\\)/.exec(u.getAttribute('transform'));
  const file = Math.round((+m[1] - margin) / 45), rank = 8 - Math.round((+m[2] - margin) / 45);
  out['abcdefgh'[file] + rank] = (u.getAttribute('href') || u.getAttribute('xlink:href')).slice(1);
}
return out;
"""
"""The pieces the board shows: square -> python-chess's piece id (``white-knight``)."""


def pieces_of(fen: str) -> dict[str, str]:
    board = chess.Board(fen)
    return {chess.square_name(sq): f"{'white' if p.color else 'black'}-{chess.piece_name(p.piece_type)}"
            for sq, p in board.piece_map().items()}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    run, pub = build_site(games_event(tmp_path_factory.mktemp("viewer") / "tiny"))
    root = tmp_path_factory.mktemp("site")
    for rel, content in pub.files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(content if isinstance(content, bytes) else content.encode())
    return run.published_games[0], root



def state(browser: Browser) -> tuple[str, str, dict[str, str]]:
    board = browser.driver.find_element("id", "board")
    return board.get_attribute("data-ply"), board.get_attribute("data-fen"), \
        browser.driver.execute_script(PIECES_JS)


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_board_steps_through_the_moves_in_a_real_browser(browser, site, width, tmp_path):
    game, root = site
    fens = [game.moves.start] + [p.fen for p in game.moves.plies]
    browser.emulate(width, mobile=width == PHONE)
    logs = browser.load(root / GAME)
    assert severe(logs) == []
    driver = browser.driver
    assert driver.find_element("id", "controls").is_displayed()  # the script ran
    assert state(browser) == ("33", fens[33], pieces_of(fens[33]))  # the final position first
    # click a move: 6. Nxf7 (the 11th half-move); the board shows the position after it
    move = driver.find_element("id", "ply-11")
    driver.execute_script("arguments[0].scrollIntoView({block: 'end'})", move)  # below the sticky board
    move.click()
    assert move.text == "♘xf7"
    assert state(browser) == ("11", fens[11], pieces_of(fens[11]))
    assert pieces_of(fens[11])["f7"] == "white-knight"
    assert "current" in move.get_attribute("class")
    assert driver.find_element("id", "board-status").text == "After 6. ♘xf7"
    buttons = {b.get_attribute("data-step"): b for b in driver.find_elements("css selector", "#controls button")}
    buttons["next"].click()
    assert state(browser)[:2] == ("12", fens[12])  # 6... Kxf7
    assert pieces_of(fens[12])["f7"] == "black-king" and state(browser)[2] == pieces_of(fens[12])
    buttons["prev"].click()
    buttons["prev"].click()
    assert state(browser) == ("10", fens[10], pieces_of(fens[10]))
    buttons["first"].click()
    assert state(browser) == ("0", fens[0], pieces_of(chess.STARTING_FEN))
    buttons["prev"].click()  # nothing before the start
    assert state(browser)[0] == "0"
    body = driver.find_element("tag name", "body")
    body.send_keys("\ue014")  # → (ArrowRight)
    body.send_keys("\ue014")
    assert state(browser) == ("2", fens[2], pieces_of(fens[2]))
    body.send_keys("\ue012")  # ← (ArrowLeft)
    assert state(browser)[0] == "1"
    buttons["last"].click()
    assert state(browser) == ("33", fens[33], pieces_of(fens[33]))
    # the last move's squares are marked as python-chess marks them
    marked = driver.execute_script(
        "return [...document.querySelectorAll('#board rect.square')].filter(r => "
        "r.getAttribute('fill') === document.getElementById('board').dataset[r.classList.contains('light')"
        " ? 'lightLastmove' : 'darkLastmove']).map(r => r.classList[r.classList.length - 1]).sort()")
    assert marked == ["d2", "d3"]
    lay = browser.layout()
    assert lay["scrollWidth"] <= lay["clientWidth"] and lay["offenders"] == [], lay
    board = driver.find_element("id", "board").rect
    assert board["width"] >= (PHONE - 40 if width == PHONE else 380)  # a board a thumb can read
    shots = Path(os.environ.get("CHESSFED_SCREENSHOTS") or tmp_path)
    browser.screenshot(shots / f"game-{width}.png")


def test_on_a_phone_the_board_stays_in_view_while_the_moves_scroll(browser, site):
    """A phone held upright (375 x 800): the last move, scrolled to at the bottom of the list
    and clicked, shows its position on a board still at the top of the screen (the board
    and its buttons are sticky: templates/print.css)."""
    game, root = site
    browser.emulate(PHONE, mobile=True)
    browser.load(root / GAME)
    driver = browser.driver
    last = driver.find_elements("css selector", "button.move")[-1]
    driver.execute_script("arguments[0].scrollIntoView({block: 'end'})", last)
    assert driver.execute_script("return scrollY") > 0  # the moves scrolled under the board
    last.click()
    top, bottom = driver.execute_script(
        "const r = document.getElementById('board').getBoundingClientRect(); return [r.top, r.bottom]")
    assert top >= 0 and bottom <= driver.execute_script("return innerHeight"), (top, bottom)
    assert driver.find_element("id", "board").get_attribute("data-ply") == last.get_attribute("data-ply")


def test_without_the_script_the_page_shows_the_final_position(browser, site, tmp_path):
    """Progressive enhancement: the same page with its script removed shows python-chess's
    board of the final position, every move, and no buttons."""
    game, root = site
    html = (root / GAME).read_text(encoding="utf-8")
    start, end = html.index("<script>"), html.index("</script>") + len("</script>")
    bare = root / "games" / "open" / "no-script.html"
    bare.write_text(html[:start] + html[end:], encoding="utf-8")
    browser.emulate(PHONE, mobile=True)
    assert severe(browser.load(bare)) == []
    assert not browser.driver.find_element("id", "controls").is_displayed()
    assert browser.driver.execute_script(PIECES_JS) == pieces_of(game.moves.fen)
    assert len(browser.driver.find_elements("css selector", "#moves .move")) == 33

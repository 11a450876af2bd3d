"""The games published (issue 48, second part): a page per matched, usable game with a board to
step through (python-chess's SVG and the project's own script), the PGN of each game, round and
the event with the seven tags from the record only, links from the pairings and the players'
pages, and nothing of a PGN's tags beyond what the public pages show — through the flow's
``publish_site`` on the event of tests/games_event.py."""

from __future__ import annotations

import io
import posixpath
import re
from pathlib import Path

import chess
import chess.pgn
import pytest
from pypdf import PdfReader

from flows.kinds.swiss.common import game_rel, player_rel
from flows.site import render
from flows.site.pages import OFFICE
from tests.games_event import BIRTH, SCRIPT, build_site, games_event
from tests.publish.test_swiss_site import Page
from transforms.core.pgn import PUBLISHED_TAGS

GAME = "games/open/round-01-board-01.html"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_site(games_event(tmp_path_factory.mktemp("games") / "tiny"))


def public(pub) -> dict[str, str]:
    return {rel: text for rel, text in pub.files.items()
            if not rel.startswith(OFFICE) and isinstance(text, str)}


def test_a_page_and_a_pgn_per_matched_usable_game_and_the_round_and_event_pgn(built):
    """Boards 1 and 2 are published; board 3 (its PGN result contradicts results.csv) is not."""
    run, pub = built
    games = sorted(r for r in pub.files if r.startswith("games/"))
    assert games == ["games/event.pgn", "games/index.html", "games/open/round-01-board-01.html",
                     "games/open/round-01-board-01.pgn", "games/open/round-01-board-02.html",
                     "games/open/round-01-board-02.pgn", "games/round-01.pgn"]
    assert [g.key for g in run.published_games] == ["1.1", "1.2"]
    assert game_rel("open", 1, 1) == GAME
    assert pub.files["games/event.pgn"] == pub.files["games/round-01.pgn"]
    assert pub.files["games/round-01.pgn"] == (pub.files["games/open/round-01-board-01.pgn"] + "\n"
                                               + pub.files["games/open/round-01-board-02.pgn"] + "\n")


def read_all(text: str) -> list[chess.pgn.Game]:
    import io
    handle, out = io.StringIO(text), []
    while (game := chess.pgn.read_game(handle)) is not None:
        out.append(game)
    return out


def test_a_published_pgn_has_the_seven_tags_from_the_record_and_every_move_clock_and_comment(built):
    """Decision (docs/decisions.md, Games): Event, Site, Date, Round, White, Black, Result only,
    written from event.toml, results.csv and players.csv; moves, clocks and comments as read."""
    run, pub = built
    one, two = read_all(pub.files["games/event.pgn"])
    assert list(one.headers) == list(PUBLISHED_TAGS)
    assert dict(one.headers) == {"Event": "Tiny Swiss — Open", "Site": "Karnal", "Date": "2024.09.16",
                                 "Round": "1.1", "White": "Rao, Arjun", "Black": "Sen, Dev",
                                 "Result": "1-0"}
    assert two.headers["Round"] == "1.2" and two.headers["Black"] == "Iyer, Bala"
    moves = list(one.mainline())
    assert len(moves) == 33 and moves[-1].move.uci() == "d2d3"
    assert moves[0].clock() == 598 and moves[-1].clock() == 432
    assert moves[10].comment == "[%clk 0:08:50] the Fried Liver" and one.comment.startswith("Notes by the arbiter")
    assert one.end().board().fen() == run.published_games[0].moves.fen


def test_no_personal_tag_and_nothing_unescaped_reaches_a_public_file(built):
    """Issue 48, privacy and safety: a birth date, an Elo (the PGN's: the public pages show
    players.csv's rating), a club, a script in a name and markup in a comment. No public file
    has a birth tag or date, the PGN's Elo, or the name's script; in the pages every PGN text is
    escaped (the only script is the viewer, on the game pages); the published PGN files carry a
    comment as the PGN does (plain text, never served as a page)."""
    _, pub = built
    files = public(pub)
    assert len(files) > 20
    viewer = str(render.viewer_script())
    for rel, text in files.items():
        for bad in ("BirthDate", BIRTH, "WhiteElo", "BlackElo", "1850", "FideId", "WhiteClub",
                    "Karnal Juniors", f"Arjun {SCRIPT}"):
            assert bad not in text, (rel, bad)
        if rel.endswith(".html"):
            assert "<script>alert" not in text and "<b>bold" not in text, rel
            scripts = re.findall(r"<script\b[^>]*>", text)
            if rel.startswith("games/") and rel != "games/index.html":
                assert scripts == ["<script>"] and f"<script>{viewer}</script>" in text, rel
            else:
                assert scripts == [], rel
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in files[GAME]
    assert "&lt;b&gt;bold&lt;/b&gt;" in files[GAME]
    pgn = files["games/open/round-01-board-01.pgn"]
    assert "{ [%clk 0:09:30] <script>alert(1)</script> }" in pgn
    assert pgn.startswith('[Event "Tiny Swiss — Open"]')


def test_no_third_party_script_and_the_page_works_offline(built):
    """Decision (docs/decisions.md, Games): the viewer is the project's own script, inlined;
    nothing is loaded from another address (the page works from disk and offline)."""
    _, pub = built
    html = re.sub(r"<style>.*?</style>", "", pub.files[GAME], flags=re.S)
    assert not re.search(r"<(script|link|img|iframe)\b[^>]*\b(src|href)=", html)
    addresses = set(re.findall(r"https?://[^\s\"'<>]+", html))
    assert addresses == {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}  # (SVG's names)
    js = (Path(render.TEMPLATES) / "viewer.js").read_text(encoding="utf-8")
    assert not re.search(r"\bimport\b(?!Node)", js) and "fetch(" not in js and "XMLHttpRequest" not in js


def test_without_script_the_page_shows_the_final_position_and_every_move(built):
    """Progressive enhancement: python-chess's board of the final position (a piece drawn per
    piece of the position), every move in figurine notation with its clock and comment."""
    run, pub = built
    html = pub.files[GAME]
    g = run.published_games[0]
    final = chess.Board(g.moves.fen)
    assert html.count("<use ") >= len(final.piece_map())
    assert f'data-fen="{final.fen()}"' in html and 'data-ply="33"' in html
    assert 'id="controls" hidden' in html
    moves = re.findall(r'<button type="button" class="move"[^>]*>([^<]*)</button>', html)
    assert moves[:6] == ["e4", "e5", "♘f3", "♘c6", "♗c4", "♘f6"] and moves[-1] == "d3"
    assert len(moves) == 33 and "♕f3+" in moves and "♔xf7" in moves
    assert '<span class="no">3...</span>' in html  # Black's move after a comment is numbered
    assert '<span class="clk" title="clock">0:09:58</span>' in html
    assert '<span class="comment">the Fried Liver</span>' in html
    assert "Final position, after 17. d3" in html


def test_the_game_page_links_the_pairings_the_players_and_its_pgn(built):
    _, pub = built
    page = Page(pub.files[GAME])
    assert "../../pairings/round-01.html#open" in page.hrefs
    assert f"../../{player_rel('open', 1)}" in page.hrefs and f"../../{player_rel('open', 4)}" in page.hrefs
    assert "../../games/open/round-01-board-01.pgn" in page.hrefs
    for h in page.hrefs:  # every link leads to a page of the event (or the run's index)
        target = posixpath.normpath(posixpath.join("games/open", h.split("#")[0]))
        assert target in pub.files or target == "../index.html", h


def test_the_pairings_the_players_pages_and_the_home_link_the_games(built):
    """A "game" link on the boards that have one (board 3's is not published: no link), on
    both players' pages, and the games' index from the event's home."""
    _, pub = built
    rows = [r for t in Page(pub.files["pairings/round-01.html"]).tables for r in t]
    header = next(r for r in rows if r and r[0][0] == "Bd")
    assert [c[0] for c in header][:7] == ["Bd", "White", "Pts", "Result", "Pts", "Black", "Game"]
    games = {r[0][0]: r[6] for r in rows[1:] if r and r[0][0].isdigit() and len(r) > 6}
    assert games["1"] == ("game", "../games/open/round-01-board-01.html")
    assert games["2"] == ("game", "../games/open/round-01-board-02.html")
    assert games["3"] == ("", "")
    for sno in (1, 4, 5, 2):
        assert "../../games/open/round-01-board-0" in pub.files[player_rel("open", sno)]
    assert "../../games/" not in pub.files[player_rel("open", 3)]
    assert 'href="games/index.html#open"' in pub.files["index.html"]
    index = Page(pub.files["games/index.html"])
    assert "../games/open/round-01-board-01.html" in index.hrefs
    assert "../games/event.pgn" in index.hrefs and "../games/round-01.pgn" in index.hrefs


def test_a_crosstable_cell_leads_to_its_game_where_one_is_published_else_to_the_opponent(built):
    """Decision (issue 48): the round-1 cells of boards 1 and 2 lead to their games' pages;
    board 3's (its game held back) to the opponent's page, as every cell did before."""
    run, pub = built
    rows = [r for t in Page(pub.files["crosstable.html"]).tables for r in t]
    header = next(r for r in rows if r and r[0][0] == "Rk")
    at = [c[0] for c in header].index("1")
    by_name = {r[1][0]: r[at][1] for r in rows if len(r) > at and r[0][0].isdigit()}
    assert by_name["Rao, Arjun"] == by_name["Sen, Dev"] == "games/open/round-01-board-01.html"
    played = {g.white for g in run.published_games} | {g.black for g in run.published_games}
    held = sorted(n for n in by_name if n not in played and by_name[n])  # (an absent player: no link)
    assert held == ["Bose, Farid", "Das, Chitra"]
    assert by_name["Das, Chitra"] == "players/open/6.html" and by_name["Bose, Farid"] == "players/open/3.html"


def test_an_event_without_games_publishes_no_game_and_no_game_column(tmp_path):
    folder = games_event(tmp_path / "tiny")
    (folder / "games" / "round-1.pgn").unlink()
    (folder / "games").rmdir()
    run, pub = build_site(folder)
    assert run.games is None and run.published_games == ()
    assert not [r for r in pub.files if r.startswith("games/")]
    assert ">Game<" not in pub.files["pairings/round-01.html"]


def test_the_pages_are_the_same_bytes_when_built_again(built, tmp_path):
    """The site's reruns stay byte-identical when nothing changed."""
    _, pub = built
    _, again = build_site(games_event(tmp_path / "tiny"))
    assert {k: v for k, v in again.files.items() if k.startswith(("games/", "pairings/", "players/"))} == \
        {k: v for k, v in pub.files.items() if k.startswith(("games/", "pairings/", "players/"))}


def test_the_bulletin_prints_the_chosen_games_with_diagrams_and_figurine_moves(built):
    """``[games] bulletin``: board 1 with diagrams after 6. ♘xf7 and after 17. d3, board 2 at
    its final position; the moves in figurine notation with the PGN's comments, escaped; in the
    web bulletin and its PDF (the diagrams as python-chess's SVG in ``data:`` images)."""
    run, pub = built
    assert [(b.game.key, b.diagrams) for b in run.bulletin_games] == [("1.1", (11, 33)), ("1.2", (20,))]
    for html in (pub.files["bulletin.html"], pub.pdfs["bulletin.pdf"]):
        assert html.count('<article class="bulletin-game">') == 2
        assert html.count('<img src="data:image/svg+xml;base64,') == 3
        assert "<figcaption>After 6. ♘xf7</figcaption>" in html and "<figcaption>After 10... exd5</figcaption>" in html
        assert "Rao, Arjun – Sen, Dev" in html and "Open, round 1, board 1" in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>alert" not in html
    reader = PdfReader(io.BytesIO(render.html_to_pdf(pub.pdfs["bulletin.pdf"])))
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "Rao, Arjun – Sen, Dev" in text and "After 6. ♘xf7" in text and "After 17. d3" in text
    assert "<script>alert(1)</script>" in text  # a comment, printed as text
    # the diagrams drawn (as vector paths: a rectangle per square), not left out
    squares = sum(page.get_contents().get_data().count(b" re") for page in reader.pages
                  if "After" in page.extract_text())
    assert squares >= 3 * 64

"""A team event's games published (issue 48): a page per matched, usable game at
``games/<group>/round-NN-<team A>-board-NN.html`` with its PGN (the seven tags from the
record, ``Round`` as round.match.board), the round's and the event's PGN, the index with the
match of each game, links from the round page's boards, the teams' and the players' pages, the
bulletin's chosen games, and nothing of a PGN's tags beyond what the pages show — through the
flow's ``publish`` on the hand-made league of tests/team_games_event.py:

    round 1, match 1: A 2½ – 1½ D          round 1, match 2: B 2½ – 1½ C
      bd 1  A1 (W)  1-0  D1   published      bd 1  B1 (W)  ½-½  C1   published
      bd 2  A2 (B)  ½-½  D2 (W)              bd 2  B2 (B)  0-1  C2 (W)
      bd 3  A3 (W)  1-0  D3   PGN 0-1: held  bd 3  B3 (W)  ½-½  C3
      bd 4  A4 (B)  0-1  D4 (W) published    bd 4  B4 (B)  +/-  (C not fielded)
"""

from __future__ import annotations

import io
import posixpath
import re

import chess.pgn
import pytest

from flows.kinds.team.pages import player_rel, team_rel
from flows.site.pages import OFFICE
from tests.publish.test_swiss_site import Page
from tests.team_games_event import MATE, RESULTS, build_site, game, name, tags
from transforms.core.pgn import PUBLISHED_TAGS

SCRIPT = "<script>alert(1)</script>"
BIRTH = "2009.05.04"
ROUND_1 = (tags("1.1.1", name("A1"), name("D1"), "1-0", WhiteElo="2345", BlackElo="1987",
                WhiteBirthDate=BIRTH, WhiteTeam="Alpha", BlackFideId="7654321",
                Annotator=f"Ann {SCRIPT}")
           + MATE.replace("{a trap}", "{a trap " + SCRIPT + "}")
           + game("1.1.4", "D4", "A4", "1-0")
           + game("1.1.3", "A3", "D3", "0-1")     # contradicts results.csv: held back
           + game("1.2.1", "B1", "C1", "1/2-1/2"))
GAMES_TOML = '[games]\nbulletin = ["A:1.1", "C:1.1"]\ndiagrams = ["A:1.1 after 2."]\n'
G1, G4, GB = ("games/one/round-01-A-board-01", "games/one/round-01-A-board-04",
              "games/one/round-01-B-board-01")
PNO = {f"{t}{b}": i * 5 + b for i, t in enumerate("ABCD") for b in range(1, 6)}
"""Each player's number (the rosters in team order: the player pages' names)."""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_site(tmp_path_factory.mktemp("team-games"), {"games/round-1.pgn": ROUND_1},
                      games_toml=GAMES_TOML)


def text(body: str | bytes) -> str:
    return body if isinstance(body, str) else body.decode()


def public(pub) -> dict[str, str]:
    return {rel: text(body) for rel, body in pub.files.items()
            if not rel.startswith(OFFICE) and isinstance(body, str | bytes)}


def read_all(pgn: str) -> list[chess.pgn.Game]:
    handle, out = io.StringIO(pgn), []
    while (g := chess.pgn.read_game(handle)) is not None:
        out.append(g)
    return out


def test_a_page_and_a_pgn_per_usable_game_named_by_round_team_a_and_board(built):
    _, pub = built
    assert sorted(r for r in pub.files if r.startswith("games/")) == [
        "games/event.pgn", "games/index.html", f"{G1}.html", f"{G1}.pgn", f"{G4}.html",
        f"{G4}.pgn", f"{GB}.html", f"{GB}.pgn", "games/round-01.pgn"]
    assert pub.files["games/event.pgn"] == pub.files["games/round-01.pgn"] == "".join(
        pub.files[f"{g}.pgn"] + "\n" for g in (G1, G4, GB))


def test_a_published_pgn_has_the_seven_tags_from_the_record_round_match_board(built):
    """Decision: Event, Site, Date, Round, White, Black, Result only; the names rosters.csv's;
    ``Round`` round.match.board (the match numbered as the round page numbers it); board 4's
    White is Delta's player (team A has White on the odd boards)."""
    run, pub = built
    one, four, other = read_all(pub.files["games/event.pgn"])
    assert list(one.headers) == list(PUBLISHED_TAGS)
    assert dict(one.headers) == {"Event": "County League", "Site": "Riverton", "Date": "2025.10.02",
                                 "Round": "1.1.1", "White": name("A1"), "Black": name("D1"),
                                 "Result": "1-0"}
    assert (four.headers["Round"], four.headers["White"], four.headers["Result"]) == ("1.1.4", name("D4"), "1-0")
    assert (other.headers["Round"], other.headers["White"]) == ("1.2.1", name("B1"))
    assert one.end().board().is_checkmate()


def test_no_personal_tag_and_nothing_unescaped_reaches_a_public_file(built):
    """An Elo, a birth date, a FIDE id (not rosters.csv's: the players' pages show theirs), a
    team tag, an annotator with a script: none reaches a public file; a comment's markup is escaped on the pages (kept as text in the PGN)."""
    _, pub = built
    files = public(pub)
    for rel, body in files.items():
        said = re.sub(r"<svg\b.*?</svg>", "", body, flags=re.S)  # (the pieces' drawing: numbers)
        for bad in ("BirthDate", BIRTH, "WhiteElo", "2345", "1987", "FideId", "7654321", "Annotator",
                    "WhiteTeam"):
            assert bad not in said, (rel, bad)
        if rel.endswith(".html"):
            assert "<script>alert" not in body, rel
    assert "a trap &lt;script&gt;alert(1)&lt;/script&gt;" in files[f"{G1}.html"]
    assert "{ a trap <script>alert(1)</script> }" in files[f"{G1}.pgn"]


def test_the_game_page_names_the_match_and_links_the_round_the_players_and_its_pgn(built):
    _, pub = built
    html = text(pub.files[f"{G1}.html"])
    facts = dict(re.findall(r"<dt>([^<]*)</dt><dd>([^<]*)</dd>", html))
    assert facts == {"White": name("A1"), "Black": name("D1"), "Result": "1-0", "Round": "1",
                     "Match": "Alpha – Delta", "Board": "1", "Division": "Division One",
                     "Date": "2025.10.02"}
    assert "Division One · round 1, Alpha – Delta, board 1" in html
    page = Page(html)
    assert "../../rounds/round-01.html#one-match-A" in page.hrefs
    assert f"../../{player_rel('one', PNO['A1'])}" in page.hrefs
    assert f"../../{player_rel('one', PNO['D1'])}" in page.hrefs
    assert f"../../{G1}.pgn" in page.hrefs
    for h in page.hrefs:  # every link leads to a file of the event (or the run's index)
        if h.startswith("#"):
            continue
        target = posixpath.normpath(posixpath.join("games/one", h.split("#")[0]))
        assert target in pub.files or target == "../index.html", h
    assert "one-match-A" in Page(text(pub.files["rounds/round-01.html"])).ids


def test_the_round_page_links_each_board_that_has_a_published_game(built):
    """A "Game" column in a match whose boards have a game (board 3's is held back: no link);
    none in a match without one (each match's table its own)."""
    _, pub = built
    tables = Page(text(pub.files["rounds/round-01.html"])).tables
    boards = [t for t in tables if t and t[0] and t[0][0][0] == "Bd"]
    alpha, bravo = boards[0], boards[1]
    assert [c[0] for c in alpha[0]] == ["Bd", "", "Alpha", "Result", "Delta", "Game"]
    assert [r[5] for r in alpha[1:]] == [("game", f"../{G1}.html"), ("", ""), ("", ""),
                                         ("game", f"../{G4}.html")]
    assert [r[5] for r in bravo[1:]] == [("game", f"../{GB}.html"), ("", ""), ("", ""), ("", "")]


def test_the_players_and_teams_pages_and_the_home_link_the_games(built):
    _, pub = built
    for pid, rel in (("A1", G1), ("D1", G1), ("A4", G4), ("D4", G4), ("C1", GB)):
        assert f"../../{rel}.html" in Page(text(pub.files[player_rel("one", PNO[pid])])).hrefs, pid
    for pid in ("A3", "D3", "B4"):
        assert "games/" not in text(pub.files[player_rel("one", PNO[pid])]), pid
    alpha = Page(text(pub.files[team_rel("one", 1)]))
    assert {f"../../{G1}.html", f"../../{G4}.html"} <= set(alpha.hrefs)
    assert 'href="games/index.html#one"' in text(pub.files["index.html"])
    index = Page(text(pub.files["games/index.html"]))
    header = index.tables[0][0]
    assert [c[0] for c in header] == ["Rd", "Match", "Bd", "White", "Result", "Black", "Moves"]
    assert [r[1][0] for r in index.tables[0][1:]] == ["Alpha – Delta", "Alpha – Delta", "Bravo – Charlie"]


def test_the_bulletin_prints_the_chosen_games_and_the_office_sees_every_game(built):
    run, pub = built
    assert [(b.game.white_id, b.diagrams) for b in run.bulletin_games] == [("A1", (3,)), ("B1", (4,))]
    bulletin = text(pub.files["bulletin.html"])
    assert bulletin.count('<article class="bulletin-game">') == 2
    assert "round 1, Alpha – Delta, board 1" in bulletin and "round 1, Bravo – Charlie, board 1" in bulletin
    office = text(pub.files[f"{OFFICE}games.csv"])
    assert office.count("\n") == 1 + 4 and "contradicts" not in office
    assert ">Division<" in text(pub.files[f"{OFFICE}games.html"])


def test_while_results_csv_has_errors_no_game_is_published_but_the_office_sees_them(tmp_path):
    bad = RESULTS + "1,A,D,9,A5,D5,1-0\n"  # board 9 of a four-board match: an error
    run, pub = build_site(tmp_path, {"games/round-1.pgn": ROUND_1}, results=bad)
    assert run.blocked and run.published_games
    assert not [r for r in pub.files if r.startswith("games/")]
    assert f"{OFFICE}games.html" in pub.files


def test_an_event_without_games_has_no_game_column_or_link(tmp_path):
    from tests.team_games_event import team_event

    run = team_event(tmp_path, {})
    assert run.games is not None and run.games.height == 0
    _, pub = build_site(tmp_path / "b", {})
    assert not [r for r in pub.files if r.startswith("games/")]
    assert ">Game<" not in text(pub.files["rounds/round-01.html"])
    assert "games/index.html" not in text(pub.files["index.html"])

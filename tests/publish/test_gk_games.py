"""A correspondence event's games published (issue 48): a page and a PGN per game that has
ended (the demo's first final section, ``inputs/golden-knights-2019/games/final-F01.pgn``,
as its server exports it), linked from the section's crosstable (the result is the link),
the section's finished games and each member's page; the PGN with the seven tags only and the
names as members.csv has them; nothing of members.csv's emails or a PGN's addresses on a
public file — through the flow's ``publish_site`` on the demo event, without Prefect."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

import chess.pgn
import polars as pl
import pytest

from flows import io
from flows.kinds.correspondence.flow import publish_site
from flows.kinds.correspondence.links import member_page, section_page
from flows.kinds.correspondence.sections import CELL_LINK_NOTE
from flows.site.pages import OFFICE, Publication, event_context
from transforms.core.ingest import validate_files
from transforms.core.pgn import PUBLISHED_TAGS
from transforms.golden_knights.schemas import REQUIRED as GK_REQUIRED
from transforms.golden_knights.schemas import SCHEMAS as GK_SCHEMAS
from transforms.kinds import parse_event_config

ROOT = Path(__file__).resolve().parents[2]
GK = ROOT / "inputs" / "golden-knights-2019"
GAME = "games/final-F01/GK19-0096-GK19-0072.html"
"""The first final's game Mary Torres (GK19-0096) – Sandra Jones (GK19-0072), 1-0."""
RULED_GAME = ("games/preliminary-P02/GK19-0144-GK19-0143.html", "games/preliminary-P02/GK19-0144-GK19-0143.pgn")
"""Thomas Okafor – Michelle Walker of P02: 1-0 in games.csv and in the PGN, a draw by the
director's decision (the demo's overrides.csv)."""
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
HREF = re.compile(r'href="([^"]*)"')
PRIVATE = ('[WhiteEmail "{email}"]\n[WhiteAddress "12 Elm Street, Springfield"]\n'
           '[WhiteElo "2411"]\n[WhiteUSCF "12000099"]\n')


def body(page: str) -> str:
    """A page without its inlined stylesheet and script."""
    return re.sub(r"<(style|script)>.*?</\1>", "", page, flags=re.S)


@pytest.fixture(scope="module")
def demo():
    """The demo event with its games, each game of the file given the private tags a server
    may export (the member's email from members.csv, an address, a rating, a member number)
    and a comment with markup."""
    cfg = parse_event_config((GK / "event.toml").read_text())
    raw = {n: io.read_csv_strings(GK / n) for n in GK_SCHEMAS if (GK / n).exists()}
    typed, findings = validate_files(raw, GK_SCHEMAS, GK_REQUIRED)
    email = typed["members.csv"].filter(pl.col("name") == "Mary Torres")["email"][0]
    text = (GK / "games" / "final-F01.pgn").read_text(encoding="utf-8")
    text = text.replace('[Result "', PRIVATE.format(email=email) + '[Result "')
    text = text.replace("{Légal's sacrifice}", "{Légal's sacrifice <script>alert(1)</script>}")
    ruled = ('[Event "GK 2019 P02"]\n[Site "US Chess CC server"]\n[Date "2019.01.10"]\n[Round "-"]\n'
             '[White "Okafor, Thomas"]\n[Black "Walker, Michelle"]\n[Result "1-0"]\n\n'
             '1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n')  # rule 7 (overrides.csv): a draw
    pgn = (pl.DataFrame({"file": ["games/final-F01.pgn", "games/p02.pgn"], "text": [text, ruled]}), [])
    pub = Publication(Path("unused"), ctx=event_context(cfg, cfg.event.as_of))
    _, res = publish_site(pub, cfg, typed, findings, cfg.event.as_of, pgn=pgn)
    assert res is not None
    return typed, res, pub, email


def test_a_page_and_a_pgn_per_game_that_has_ended_and_the_events_pgn(demo):
    _, res, pub, _ = demo
    games = sorted(r for r in pub.files if r.startswith("games/"))
    pairs = ["GK19-0072-GK19-0120", "GK19-0072-GK19-0179", "GK19-0072-GK19-0191",
             "GK19-0096-GK19-0072", "GK19-0096-GK19-0179", "GK19-0096-GK19-0191"]
    assert games == sorted(["games/event.pgn", "games/index.html", *RULED_GAME,
                            *[f"games/final-F01/{p}{s}" for p in pairs for s in (".html", ".pgn")]])
    assert len(res.published_games) == 7 and not [f for f in res.findings if f.file.startswith("games/")]
    assert pub.files["games/event.pgn"].count("[Event ") == 7
    assert 'href="games/index.html"' in pub.files["index.html"]  # the home's "Games"
    office = pub.files[f"{OFFICE}games.html"]
    heads = re.findall(r"<th[^>]*>([^<]*)</th>", office)
    assert "Section" in heads and "games.csv" in heads and f"{OFFICE}games.csv" in pub.files
    assert not {"Round", "Board", "Round tag", "White no."} & set(heads)  # (a section has no rounds)


def test_the_pgn_has_the_seven_tags_and_the_names_as_members_csv_has_them(demo):
    """Decision (docs/decisions.md, the games of a correspondence event): ``Round "-"`` (a
    section has no rounds), the section in the Event, the members' names as members.csv
    writes them (the server's file writes them surname first)."""
    _, _, pub, _ = demo
    game = chess.pgn.read_game(__import__("io").StringIO(pub.files[GAME.replace(".html", ".pgn")]))
    assert game is not None and list(game.headers) == list(PUBLISHED_TAGS)
    assert dict(game.headers) == {
        "Event": "2019 US Chess Correspondence Championship — Golden Knights — Final — section F01",
        "Site": "Correspondence (US Chess)", "Date": "2024.01.02", "Round": "-",
        "White": "Mary Torres", "Black": "Sandra Jones", "Result": "1-0"}


def test_no_members_email_or_pgns_address_reaches_a_public_file(demo):
    """The GK members' emails (members.csv) and what a server's PGN carries of a member (an
    email, an address, a rating, a member number) reach no public file; the PGN's texts reach
    the pages escaped."""
    typed, _, pub, email = demo
    emails = set(typed["members.csv"]["email"].drop_nulls().to_list())
    assert email in emails
    for rel, text in pub.files.items():
        if rel.startswith(OFFICE) or not isinstance(text, str):
            continue
        assert not set(EMAIL.findall(text)) & emails, rel
        for private in ("Elm Street", "2411", "12000099", "WhiteEmail", "WhiteAddress", "WhiteUSCF"):
            assert private not in text, (rel, private)
        if rel.endswith(".html"):
            assert "<script>alert" not in text, rel
    page = pub.files["games/final-F01/GK19-0096-GK19-0072.html"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def links(page: str, rel: str) -> dict[str, str]:
    """Each link of ``page`` (at ``rel``) to a game, resolved inside the event folder -> its text."""
    out = {}
    for href, text in re.findall(r'<a href="([^"]*games/[^"]*)"[^>]*>([^<]*)</a>', body(page)):
        out[posixpath.normpath(posixpath.join(posixpath.dirname(rel), href))] = text
    return out


def test_the_crosstable_links_each_published_game_from_its_result_and_says_so(demo):
    """Decision: the crosstable cell is the game's result, so it is the link to the game (the
    name keeps its link to the member's page); a note under the crosstable says what a linked
    result is; the finished games get a "Game" column; a game not published (a forfeit, a
    section without a PGN) has no link."""
    _, _, pub, _ = demo
    rel = section_page("final", "F01")
    page = pub.files[rel]
    found = links(page, rel)
    assert set(found) == {f"games/final-F01/{p}.html" for p in (
        "GK19-0072-GK19-0120", "GK19-0072-GK19-0179", "GK19-0072-GK19-0191",
        "GK19-0096-GK19-0072", "GK19-0096-GK19-0179", "GK19-0096-GK19-0191")}
    cells = re.findall(r'<a href="\.\./games/final-F01/GK19-0096-GK19-0072\.html">([^<]*)</a>', page)
    assert sorted(cells) == ["0", "1", "game"]  # Torres's 1, Jones's 0, the finished games' row
    assert CELL_LINK_NOTE in page
    other = pub.files[section_page("final", "F02")]
    assert not links(other, section_page("final", "F02")) and CELL_LINK_NOTE not in other
    stage = pub.files["stages/final.html"]
    assert len(links(stage, "stages/final.html")) == 6


def test_the_members_pages_and_the_game_page_link_each_other(demo):
    typed, res, pub, _ = demo
    member_of = dict(zip(typed["entries.csv"]["entry_id"], typed["entries.csv"]["member_id"], strict=True))
    torres = member_page(member_of["GK19-0096"])
    assert links(pub.files[torres], torres) == {
        "games/final-F01/GK19-0096-GK19-0072.html": "game", "games/final-F01/GK19-0096-GK19-0179.html": "game",
        "games/final-F01/GK19-0096-GK19-0191.html": "game"}
    game = body(pub.files[GAME])
    targets = {posixpath.normpath(posixpath.join(posixpath.dirname(GAME), h.split("#")[0]))
               for h in HREF.findall(game) if not h.startswith("#")}  # (the board's own)
    assert {section_page("final", "F01"), torres, member_page(member_of["GK19-0072"]),
            "games/index.html", GAME.replace(".html", ".pgn")} <= targets
    assert f"{posixpath.basename(torres)}#GK19-0096" in game
    for t in targets:
        if not t.startswith(".."):
            assert t in pub.files, t


def test_the_bulletin_prints_the_chosen_game_with_its_diagram(demo):
    """The demo's ``[games] bulletin = ["final-F01:GK19-0096-GK19-0072"]``, its diagram after
    White's 5th move."""
    _, res, pub, _ = demo
    assert [(b.game.white, b.game.black, b.diagrams) for b in res.bulletin_games] == [
        ("Mary Torres", "Sandra Jones", (9,))]
    bulletin = pub.files["bulletin.html"]
    assert "Games (1)" in bulletin and "Mary Torres" in bulletin and "After 5. ♘xe5" in bulletin


def test_a_game_whose_result_a_ruling_made_is_published_with_the_rulings_result_and_says_so(demo):
    """Decision: the PGN (1-0) agrees with games.csv as reported (1-0): no finding; the game is
    published with the standings' result, the director's draw (rule 7), and its page says so."""
    _, res, pub, _ = demo
    (g,) = [g for g in res.published_games if g.section == "preliminary-P02"]
    assert (g.white, g.black, g.result) == ("Thomas Okafor", "Michelle Walker", "1/2-1/2")
    assert '[Result "1/2-1/2"]' in pub.files[RULED_GAME[1]]
    page = body(pub.files[RULED_GAME[0]])
    assert "result by the director&#39;s decision (rule 7)" in page and "½-½" in page

"""GK rule 2 — a correspondence event's games as its server exports them (``games/*.pgn``),
matched to games.csv by section and entries (a section has no rounds), checked against it and
published once ended (transforms/golden_knights/games.py, through ``run_golden_knights``).

Hand-made event: two preliminary sections and a semifinal in which E1 and E2 meet again.

    P01: E1 Ann Abel, E2 Bo Berg, E3 Cy Cole, E4 Di Dunn, E5 Ed Eng, E6 Flo Fox, E7 Gus Gray
    P02: E8 Hal Hill, E9 Ivy Ives, E10 Jo Jain, E11 Kit Kerr, E12 Lu Lam, E13 Max Moe,
         E14 Ann Abel (her second entry)
    S01: E1, E2, E8, E9, E10, E11, E12

    games.csv:  P01 E1-E2 1-0 | P01 E3-E4 ½-½ (rule 7: E3 wins) | P01 E5-E6 in progress
                P01 E7-E1 0-1 | P01 E2-E3 -/- | P02 E8-E9 0-1 | P02 E14-E13 1-0
                S01 E2-E1 ½-½
    every other pair of a section: by the schedule, no games.csv row yet (E1-E2 ½-½ in S01
    too, E8-E9 and E1-E8 … in S01 by the schedule: met twice)
"""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from transforms.core.config import ConfigError
from transforms.core.errors import Severity
from transforms.core.pgn import PUBLISHED_TAGS
from transforms.golden_knights.event import GKResult, run_golden_knights
from transforms.golden_knights.games import SectionGamesConfig, game_key, players_frame
from transforms.golden_knights.rules import GKRules
from transforms.kinds import parse_event_config

RULES = GKRules()
Y = 2019
D = dt.date
E, W = Severity.ERROR, Severity.WARNING
NAMES = ["Ann Abel", "Bo Berg", "Cy Cole", "Di Dunn", "Ed Eng", "Flo Fox", "Gus Gray", "Hal Hill",
         "Ivy Ives", "Jo Jain", "Kit Kerr", "Lu Lam", "Max Moe"]
MEMBER = {f"E{i}": f"M{i}" for i in range(1, 14)} | {"E14": "M1"}
SECTIONS = {("preliminary", "P01"): [f"E{i}" for i in range(1, 8)],
            ("preliminary", "P02"): [f"E{i}" for i in range(8, 15)],
            ("semifinal", "S01"): ["E1", "E2", "E8", "E9", "E10", "E11", "E12"]}
RECORDED = [("preliminary", "P01", "E1", "E2", "1-0"), ("preliminary", "P01", "E3", "E4", "1/2-1/2"),
            ("preliminary", "P01", "E5", "E6", None), ("preliminary", "P01", "E7", "E1", "0-1"),
            ("preliminary", "P01", "E2", "E3", "-/-"), ("preliminary", "P02", "E8", "E9", "0-1"),
            ("preliminary", "P02", "E14", "E13", "1-0"), ("semifinal", "S01", "E2", "E1", "1/2-1/2")]
MOVES = {"1-0": "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0",
         "0-1": "1. f3 e5 2. g4 Qh4# 0-1",
         "1/2-1/2": "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2",
         "*": "1. d4 d5 2. c4 *"}


def lines(df: pl.DataFrame) -> pl.DataFrame:
    return df.with_columns(line=pl.int_range(2, pl.len() + 2, dtype=pl.Int64))


def pgn(white: str, black: str, result: str, moves: str | None = None, **tags: str) -> str:
    head = {"Event": "Golden Knights 2019", "Site": "US Chess CC server", "Date": "2019.01.10",
            "Round": "-", "White": white, "Black": black, "Result": result, **tags}
    body = moves if moves is not None else MOVES[result]
    return "".join(f'[{k} "{v}"]\n' for k, v in head.items()) + f"\n{body}\n\n"


def run(text: str | None, *, recorded: list[tuple] = RECORDED, overrides: list[tuple] = (),
        bulletin: SectionGamesConfig | None = None) -> GKResult:
    members = lines(pl.DataFrame({
        "member_id": [f"M{i}" for i in range(1, 14)], "name": NAMES,
        "email": [f"m{i}@example.org" for i in range(1, 14)], "membership_expires": [D(2030, 1, 1)] * 13,
        "country": ["US"] * 13, "region": ["NY"] * 13, "apo_fpo": [False] * 13, "rating": [1800] * 13}))
    entries = lines(pl.DataFrame({"entry_id": list(MEMBER), "member_id": list(MEMBER.values()),
                                  "received": [D(Y, 1, 2)] * 14, "channel": ["online"] * 14,
                                  "fee_paid": [25.0] * 14}))
    sections = lines(pl.DataFrame([(st, s, e) for (st, s), ids in SECTIONS.items() for e in ids],
                                  schema={"stage": pl.String, "section": pl.String, "entry_id": pl.String},
                                  orient="row"))
    games = lines(pl.DataFrame([(*r, D(Y, 6, 1) if r[4] else None) for r in recorded], orient="row",
                               schema={"stage": pl.String, "section": pl.String, "white": pl.String,
                                       "black": pl.String, "result": pl.String, "ended": pl.Date}))
    over = lines(pl.DataFrame([("result", st, s, e, o, v, "appeal") for st, s, e, o, v in overrides], orient="row",
                              schema={k: pl.String for k in ("kind", "stage", "section", "entry_id", "opponent",
                                                              "value", "note")})) if overrides else None
    raw = None if text is None else (pl.DataFrame({"file": ["games/p01.pgn"], "text": [text]}), [])
    return run_golden_knights(RULES, members, entries, sections, games, None, over, event_year=Y,
                              as_of=D(Y, 12, 1), pgn=raw, games_config=bulletin,
                              event_name="Golden Knights 2019", site="Correspondence")


def rows(res: GKResult) -> list[tuple]:
    assert res.pgn_games is not None
    return res.pgn_games.select("matched", "usable", "section", "white_id", "black_id").rows()


def found(res: GKResult) -> list[tuple]:
    return [(f.column, f.value, f.severity) for f in res.findings if f.file.startswith("games/")]


def test_a_game_is_matched_by_its_two_members_and_published_with_the_seven_tags():
    """Decision: the names as members.csv writes them or surname first (ICCF: ``Abel, Ann``);
    the Round tag is not read; the published PGN has the seven tags, written from the record
    (the members' names, ``Round "-"``, the section in the Event), nothing else of the file."""
    res = run(pgn("Gray, Gus", "Ann Abel", "0-1", BlackEmail="m1@example.org",
                  BlackAddress="1 Main St", BlackElo="2100", Round="7"))
    assert rows(res) == [(True, True, "preliminary-P01", "E7", "E1")] and found(res) == []
    (g,) = res.published_games
    assert (game_key(g), g.white, g.black, g.result, g.round, g.board) == (
        "preliminary-P01:E7-E1", "Gus Gray", "Ann Abel", "0-1", None, None)
    head = g.moves.pgn.split("\n\n")[0].splitlines()
    assert [t.split(" ")[0][1:] for t in head] == list(PUBLISHED_TAGS)
    assert '[Event "Golden Knights 2019 — Preliminaries — section P01"]' in head
    assert '[Round "-"]' in head and '[Black "Ann Abel"]' in head
    for private in ("example.org", "Main St", "2100", "Email", "Address", "Elo"):
        assert private not in g.moves.pgn


def test_a_members_second_entry_is_told_apart_by_the_section_it_plays_in():
    """Ann Abel plays as E1 in P01 and S01 and as E14 in P02: the game with Max Moe (P02
    only) is E14's."""
    res = run(pgn("Abel, Ann", "Moe, Max", "1-0"))
    assert rows(res) == [(True, True, "preliminary-P02", "E14", "E13")] and found(res) == []


def test_white_and_black_swapped_against_games_csv_is_an_error_and_the_game_is_not_published():
    res = run(pgn("Abel, Ann", "Gray, Gus", "1-0"))
    assert rows(res) == [(True, False, "preliminary-P01", "E7", "E1")]
    assert found(res) == [("game 1, White", "Abel, Ann", E)]
    assert res.published_games == ()


def test_a_result_contradicting_games_csv_is_an_error_and_games_csv_stands():
    res = run(pgn("Gray, Gus", "Abel, Ann", "1-0"))
    assert rows(res) == [(True, False, "preliminary-P01", "E7", "E1")]
    ((column, value, severity),) = found(res)
    assert (column, value, severity) == ("game 1, Result", "1-0", E)
    assert res.published_games == ()
    assert res.games.filter((pl.col("white") == "E7") & (pl.col("black") == "E1"))["result"].to_list() == ["0-1"]


def test_a_game_no_section_has_is_an_error():
    """Cy Cole (P01) and Hal Hill (P02, S01) share no section."""
    res = run(pgn("Cole, Cy", "Hill, Hal", "1-0"))
    assert rows(res) == [(False, False, None, None, None)]
    ((column, value, severity),) = found(res)
    assert (column, value, severity) == ("game 1, White", "Cole, Cy", E)
    assert "games.csv has no game of Cy Cole and Hal Hill" in next(
        f.reason for f in res.findings if f.file.startswith("games/"))


def test_a_game_the_schedule_has_and_games_csv_not_yet_is_a_warning_not_an_error():
    """Decision: a pair of a section with no games.csv row is a game in progress by the
    schedule; its PGN is not the error of a game no pairing has — a warning, the game matched
    and published once games.csv has its row."""
    res = run(pgn("Cole, Cy", "Gray, Gus", "*"))
    assert rows(res) == [(False, False, "preliminary-P01", "E7", "E3")]  # (the schedule's colours)
    assert found(res) == [("game 1, White", "Cole, Cy", W)]
    reason = next(f.reason for f in res.findings if f.file.startswith("games/"))
    assert "no row for this game yet" in reason and "section P01" in reason


def test_a_game_in_progress_is_matched_and_not_published_until_it_ends():
    """Decision: a correspondence game's moves are not published while it is played: a game
    games.csv shows in progress (and no ruling ended) is a warning, not published; a PGN
    result there is also the warning of a result games.csv has not yet."""
    res = run(pgn("Eng, Ed", "Fox, Flo", "*"))
    assert rows(res) == [(True, False, "preliminary-P01", "E5", "E6")]
    assert found(res) == [("game 1, Result", "*", W)]
    assert res.published_games == ()
    res = run(pgn("Eng, Ed", "Fox, Flo", "1-0"))
    assert found(res) == [("game 1, Result", "1-0", W), ("game 1, Result", "1-0", W)]
    assert res.published_games == ()
    finished = [(*r[:4], "1-0") if r[2:4] == ("E5", "E6") else r for r in RECORDED]
    res = run(pgn("Eng, Ed", "Fox, Flo", "1-0"), recorded=finished)
    assert found(res) == [] and [g.white for g in res.published_games] == ["Ed Eng"]


def test_two_entries_who_met_in_two_stages_need_a_tag_naming_the_section():
    """E1 and E2 met in P01 (1-0) and in S01 (½-½, E2 White): without a Section or Event
    tag naming one the game is an error (unmatched); ``S01`` in the Event tag or the Section
    tag picks the semifinal."""
    res = run(pgn("Berg, Bo", "Abel, Ann", "1/2-1/2"))
    assert rows(res) == [(False, False, None, None, None)] and [f[2] for f in found(res)] == [E]
    res = run(pgn("Berg, Bo", "Abel, Ann", "1/2-1/2", Event="Golden Knights 2019 S01"))
    assert rows(res) == [(True, True, "semifinal-S01", "E2", "E1")] and found(res) == []
    res = run(pgn("Abel, Ann", "Berg, Bo", "1-0", Section="P01"))
    assert rows(res) == [(True, True, "preliminary-P01", "E1", "E2")] and found(res) == []
    assert [game_key(g) for g in res.published_games] == ["preliminary-P01:E1-E2"]


def test_the_pgn_is_checked_against_games_csv_and_published_with_the_rulings_result():
    """Decision: the PGN shows the game as played, so it is compared with games.csv's result as
    the players reported it, not with a rule 7 decision that changed it; the published game
    carries the standings' result (the director's)."""
    ruling = [("preliminary", "P01", "E3", "E4", "1-0")]
    res = run(pgn("Cole, Cy", "Dunn, Di", "1/2-1/2"), overrides=ruling)
    assert found(res) == [] and [(g.white, g.result) for g in res.published_games] == [("Cy Cole", "1-0")]
    assert '[Result "1-0"]' in res.published_games[0].moves.pgn
    res = run(pgn("Cole, Cy", "Dunn, Di", "1-0"), overrides=ruling)
    assert [f[2] for f in found(res)] == [E] and res.published_games == ()


def test_a_double_forfeit_is_not_published():
    res = run(pgn("Berg, Bo", "Cole, Cy", "*"))
    assert rows(res) == [(True, False, "preliminary-P01", "E2", "E3")]
    assert found(res) == [("game 1, Result", "*", W)] and res.published_games == ()


def test_an_event_without_a_games_folder_has_no_games_frame():
    res = run(None)
    assert res.pgn_games is None and res.published_games == () and res.bulletin_games == ()


def test_the_bulletin_names_a_game_by_section_and_entries_either_first():
    """Decision: ``[games] bulletin`` names a section's game ``<stage>-<section>:<white>-
    <black>`` with the entries as games.csv writes them, either first (they meet once in a
    section); a key naming no published game is a warning on event.toml."""
    text = pgn("Gray, Gus", "Abel, Ann", "0-1") + pgn("Hill, Hal", "Ives, Ivy", "0-1", Section="P02")
    chosen = SectionGamesConfig(bulletin=("preliminary-P02:E9-E8", "preliminary-P01:E7-E1", "final-F01:E1-E2"),
                                diagrams=("preliminary-P02:E9-E8 after 1...",))
    res = run(text, bulletin=chosen)
    assert [(game_key(b.game), b.diagrams) for b in res.bulletin_games] == [
        ("preliminary-P02:E8-E9", (2,)), ("preliminary-P01:E7-E1", (4,))]
    assert [(f.column, f.value, f.severity) for f in res.findings if f.file == "event.toml"] == [
        ("games.bulletin[2]", "final-F01:E1-E2", W)]


def gk_toml() -> str:
    """The demo event's event.toml without its ``[games]`` table."""
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "inputs" / "golden-knights-2019" / "event.toml").read_text()
    return text[:text.index("\n[games]")]


@pytest.mark.parametrize("table, said", [
    ('bulletin = ["3.2"]', "is not a game: write stage-section:white-black"),
    ('bulletin = ["preliminary-P01:E1-E2"]\ndiagrams = ["preliminary-P01:E1-E2 at 12"]', "is not a position"),
    ('bulletin = ["preliminary-P01:E1-E2"]\ndiagrams = ["final-F01:E1-E2 after 12."]',
     "is not one of the bulletin's games"),
])
def test_a_correspondence_games_table_takes_its_own_keys(table, said):
    with pytest.raises(ConfigError, match=said):
        parse_event_config(gk_toml() + f"\n[games]\n{table}\n")
    ok = parse_event_config(gk_toml() + '\n[games]\nbulletin = ["preliminary-P01:E1-E2"]\n')
    assert isinstance(ok.tables["games"], SectionGamesConfig)


def test_a_swiss_games_table_keeps_its_round_board_keys():
    from tests.bad_input_events import SWISS_FILES
    with pytest.raises(ConfigError, match="write round.board"):
        parse_event_config(SWISS_FILES["event.toml"] + '\n[games]\nbulletin = ["preliminary-P01:E1-E2"]\n')


def test_the_matchers_players_are_the_entries_under_their_members_names_and_surname_first():
    people = pl.DataFrame({"entry_id": ["E1", "E2", "E3"], "name": ["Mary Ann Torres", "Cher", None]})
    assert players_frame(people, surname_first=True).select("player_id", "name").rows() == [
        ("E1", "Torres, Mary Ann"), ("E1", "Mary Ann Torres"), ("E2", "Cher")]
    assert players_frame(people, surname_first=False)["name"].to_list() == ["Mary Ann Torres", "Cher"]


def test_a_rematch_the_schedule_has_and_games_csv_not_yet_still_needs_the_section_tag():
    """E3 and E4 met in P01 (games.csv: ½-½); put both in S01 too, where games.csv has no row
    of their game yet: a PGN of the two without a Section tag could be either — an error
    naming both, the semifinal's as the schedule's — not silently the preliminary's."""
    global SECTIONS
    saved = SECTIONS
    SECTIONS = {**saved, ("semifinal", "S01"): ["E1", "E2", "E3", "E4", "E8", "E9", "E10"]}
    try:
        res = run(pgn("Cole, Cy", "Dunn, Di", "*"))
        assert rows(res) == [(False, False, None, None, None)] and [f[2] for f in found(res)] == [E]
        reason = next(f.reason for f in res.findings if f.file.startswith("games/"))
        assert "preliminary-P01 (line 3)" in reason and "semifinal-S01 (by the schedule, no games.csv row yet)" in reason
        res = run(pgn("Cole, Cy", "Dunn, Di", "*", Section="S01"))
        assert rows(res)[0][:3] == (False, False, "semifinal-S01")
        assert found(res) == [("game 1, White", "Cole, Cy", W)]
        res = run(pgn("Cole, Cy", "Dunn, Di", "1/2-1/2", Section="P01"))
        assert rows(res) == [(True, True, "preliminary-P01", "E3", "E4")] and found(res) == []
    finally:
        SECTIONS = saved

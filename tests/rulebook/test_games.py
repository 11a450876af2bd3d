"""The games in (issue 48, first part): ``games/*.pgn`` read with python-chess and every game
matched to its pairing in results.csv (transforms/core/pgn.py, transforms/core/games.py).

Real data: the PGN exports of three Hobsons Bay club events (tests/data/games/SOURCE.md),
each event built from its crosstable's TRF as ``chessfed import-trf`` takes it over
(tests/data/tiebreak/<event>/), so that results.csv is the crosstable's. Hand-made files with
real moves for what those exports do not have: an illegal move, a clock, swapped colours, an
unmatched game. The tiny event of the bad-input matrix (tests/bad_input_events.py):

    round 1: S1 Rao – S4 Sen 1-0, S5 Nair – S2 Iyer 0-1, S3 Das – S6 Bose ½-½
    round 2: S2 Iyer – S1 Rao ½-½, S4 Sen – S3 Das 0-1, S6 Bose – S5 Nair 1-0
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import chess
import polars as pl
import pytest

from flows import io
from tests.bad_input_events import SWISS_FILES, write_event
from transforms.core.errors import Severity
from transforms.core.games import name_key
from transforms.core.pgn import (
    GAMES,
    PUBLISHED_TAGS,
    figurine,
    game_moves,
    game_result,
    read_pgn,
    round_and_board,
    tag_value,
)
from transforms.kinds import parse_event_config
from transforms.swiss import event as swiss

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
DAY = dt.date(2026, 12, 7)
E, W = Severity.ERROR, Severity.WARNING


def raw_games(files: dict[str, str]) -> tuple[pl.DataFrame, list]:
    return pl.DataFrame({"file": list(files), "text": list(files.values())},
                        schema={"file": pl.String, "text": pl.String}), []


def run_with_games(folder: Path, games: dict[str, str]) -> swiss.SwissRun:
    cfg = parse_event_config((folder / "event.toml").read_text())
    raw = {n: io.read_csv_strings(folder / n) for n in cfg.files if (folder / n).exists()}
    raw[GAMES] = raw_games(games)
    return swiss.prepare(cfg, raw, DAY)


def game_rows(run: swiss.SwissRun) -> list[tuple]:
    return [(f.file, f.line, f.column, f.value, f.severity) for f in run.findings
            if f.file.startswith(GAMES)]


# --- real events: the HBCC exports against their crosstables ---------------------------------

HBCC = {  # event: (PGN entries, games with a result, bye entries, games without a result)
    "hbcc_2025_april_blitz": (219, 155, 42, 22),
    "hbcc_2025_february_blitz": (252, 223, 27, 2),
    "hbcc_2026_juniors_rapid": (467, 447, 17, 3),
}


def hbcc_event(tmp_path: Path, event: str) -> Path:
    from flows.cli.import_trf import take_over_trf

    trf = DATA / "tiebreak" / event / "normalized" / "tournament.trf"
    take_over_trf(trf, tmp_path / event, today=DAY)
    return tmp_path / event


def hbcc_games(event: str) -> dict[str, str]:
    return {f"games/{p.name}": p.read_text(encoding="utf-8")
            for p in sorted((DATA / "games" / event).glob("*.pgn"))}


@pytest.fixture(scope="module")
def hbcc(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("hbcc")
    return {e: hbcc_event(tmp, e) for e in HBCC}


@pytest.mark.parametrize("event", sorted(HBCC))
def test_every_game_of_a_real_event_is_matched_to_its_pairing_and_agrees_with_the_crosstable(hbcc, event):
    """SOURCE.md: 155, 223 and 447 games with a result, all agreeing with the crosstables;
    the bye entries (``Black "BYE"``) are the crosstable's byes and absences, not games; no
    validation row (the names ``Surname,Given`` as players.csv has them; the 2026 juniors'
    ``Mai, Nhuan Phat`` is the crosstable's ``Mai Nhuan Phat``)."""
    entries, decided, bye_entries, undecided = HBCC[event]
    games = hbcc_games(event)
    assert sum(t.count("[Event ") for t in games.values()) == entries
    run = run_with_games(hbcc[event], games)
    assert game_rows(run) == []
    g = run.games
    assert g is not None and g.height == entries - bye_entries
    assert g["matched"].all() and g["usable"].all()
    assert g.filter(pl.col("result") != "*").height == decided
    assert g.filter(pl.col("result") == "*").height == undecided
    played = g.filter(pl.col("result") != "*")  # every decided game says what results.csv says
    assert (played["result"] == played["recorded"]).all()
    # the frame the publishing steps read: one game per pairing, start numbers and text
    assert g.select("round", "board").unique().height == g.height
    assert g["white_sno"].null_count() == g["black_sno"].null_count() == 0
    assert g["pgn"].str.starts_with("[Event ").all()


def test_star_is_no_result_and_never_a_contradiction(hbcc):
    """SOURCE.md: April's round-7 file was exported before the results: 20 boards ``*`` where
    the crosstable has one. Decision: ``*`` is no result; they match and are not findings."""
    run = run_with_games(hbcc["hbcc_2025_april_blitz"], hbcc_games("hbcc_2025_april_blitz"))
    r7 = run.games.filter(pl.col("round") == 7)
    pending = r7.filter((pl.col("result") == "*") & pl.col("recorded").is_in(["1-0", "0-1", "1/2-1/2"]))
    assert pending.height == 20 and pending["usable"].all()


def test_an_altered_result_in_a_real_file_is_a_contradiction(hbcc):
    """A PGN result changed by hand (round 3, board 1 of the April blitz: Hogg won with Black,
    the file now says White won) is one error row naming file, line, game and value; the
    game stays matched and is not published; results.csv's result stands."""
    games = hbcc_games("hbcc_2025_april_blitz")
    name = "games/2025 Hobsons Bay April Blitz3.pgn"
    assert '[Round "3.1"]' in games[name] and '[Result "0-1"]' in games[name]
    games[name] = games[name].replace('[Result "0-1"]', '[Result "1-0"]', 1)
    run = run_with_games(hbcc["hbcc_2025_april_blitz"], games)
    assert game_rows(run) == [(name, 1, "game 1, Result", "1-0", E)]
    (f,) = [f for f in run.findings if f.file == name]
    assert "contradicts results.csv" in f.reason and "0-1" in f.reason
    row = run.games.filter((pl.col("file") == name) & (pl.col("game") == 1)).row(0, named=True)
    assert row["matched"] and not row["usable"] and row["recorded"] == "0-1"


def test_every_altered_result_of_a_round_is_found(hbcc):
    """Each decisive result of April's round 3 reversed: one contradiction per game, no more."""
    games = hbcc_games("hbcc_2025_april_blitz")
    name = "games/2025 Hobsons Bay April Blitz3.pgn"
    text = games[name]
    flipped = text.replace('"1-0"', '"x"').replace('"0-1"', '"1-0"').replace('"x"', '"0-1"')
    games[name] = flipped
    n = text.count('[Result "1-0"]') + text.count('[Result "0-1"]')
    run = run_with_games(hbcc["hbcc_2025_april_blitz"], games)
    rows = game_rows(run)
    assert n == 19 and len(rows) == n and all(r[2].endswith("Result") and r[4] is E for r in rows)


# --- hand-made games with real moves, against the tiny event ---------------------------------

def tags(round_: str, white: str, black: str, result: str, **more: str) -> str:
    extra = "".join(f'[{k} "{v}"]\n' for k, v in more.items())
    return (f'[Event "Tiny"]\n[Site "Karnal"]\n[Date "2024.09.16"]\n[Round "{round_}"]\n'
            f'[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n{extra}\n')


MATE = "1. e4 {[%clk 0:03:00]} e5 {[%clk 0:02:58]} 2. Qh5 Nc6 3. Bc4 {a trap} Nf6 4. Qxf7# 1-0\n\n"
ILLEGAL = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf8 1-0\n\n"


@pytest.fixture
def tiny(tmp_path) -> Path:
    return write_event(tmp_path / "tiny", SWISS_FILES)


def test_a_game_with_moves_and_clocks_is_matched_with_its_clocks_and_comments(tiny):
    """FIDE (PGN standard) — the moves, ``[%clk]`` and comments as python-chess reads them."""
    run = run_with_games(tiny, {"games/r1.pgn": tags("1.1", "Rao, Arjun", "Sen, Dev", "1-0") + MATE})
    assert game_rows(run) == []
    (row,) = run.games.rows(named=True)
    assert (row["round"], row["board"], row["white_sno"], row["black_sno"], row["result"],
            row["recorded"], row["plies"], row["usable"]) == (1, 1, 1, 4, "1-0", "1-0", 7, True)
    assert "[%clk 0:03:00]" in row["pgn"] and "Qxf7#" in row["pgn"]
    (game,) = read_pgn("games/r1.pgn", tags("1.1", "Rao, Arjun", "Sen, Dev", "1-0") + MATE)
    assert game.clocks[:3] == (180.0, 178.0, None)
    assert game.comments[4] == "a trap"


def test_an_illegal_move_is_an_error_naming_the_move_and_the_game_is_not_published(tiny):
    """python-chess records the illegal move in ``game.errors`` and reads no further: one
    error row (game 2 of the file, move 4, the move as written); the game is matched but not
    usable; the first game of the file is not touched."""
    text = (tags("1.1", "Rao, Arjun", "Sen, Dev", "1-0") + MATE
            + tags("1.2", "Nair, Esha", "Iyer, Bala", "0-1") + ILLEGAL.replace("1-0", "0-1"))
    run = run_with_games(tiny, {"games/r1.pgn": text})
    assert game_rows(run) == [("games/r1.pgn", 11, "game 2, move 4", "Qxf8", E)]
    (f,) = [f for f in run.findings if f.file == "games/r1.pgn"]
    assert f.reason.startswith("illegal move 4. Qxf8")
    assert run.games["usable"].to_list() == [True, False]
    assert run.games["matched"].to_list() == [True, True]
    assert run.games["plies"].to_list() == [7, 6]


def test_swapped_colours_are_an_error_and_the_result_is_compared_by_player(tiny):
    """Round 1 board 2 is Nair (White) – Iyer 0-1; the PGN gives Iyer White and says 1-0 (Iyer
    won, as recorded): the colours are an error, the result is no contradiction."""
    run = run_with_games(tiny, {"games/r1.pgn": tags("1.2", "Iyer, Bala", "Nair, Esha", "1-0") + "*\n"})
    assert game_rows(run) == [("games/r1.pgn", 1, "game 1, White", "Iyer, Bala", E)]
    assert "swapped" in run.findings[-1].reason
    run = run_with_games(tiny, {"games/r1.pgn": tags("1.2", "Iyer, Bala", "Nair, Esha", "0-1") + "*\n"})
    assert [r[2] for r in game_rows(run)] == ["game 1, White", "game 1, Result"]


def test_a_game_that_matches_no_pairing_stays_in_the_games_and_is_an_error(tiny):
    """Rao and Nair never met in round 1: an error row; the game is in the games frame
    (the office's page), unmatched — never dropped. A name nobody has is an error too."""
    text = (tags("1.1", "Rao, Arjun", "Nair, Esha", "1-0") + "*\n\n"
            + tags("2", "Nobody, Known", "Rao, Arjun", "1-0") + "*\n")
    run = run_with_games(tiny, {"games/x.pgn": text})
    assert game_rows(run) == [("games/x.pgn", 1, "game 1, Round", "1.1", E),
                              ("games/x.pgn", 11, "game 2, White", "Nobody, Known", E)]
    assert "Rao, Arjun – Sen, Dev on board 1" in run.findings[-2].reason
    assert run.games.height == 2 and not run.games["matched"].any()


def test_players_are_found_by_fide_id_before_name_and_names_ignore_case_spaces_and_commas(tiny):
    """The FIDE id tag names the player whatever the name says; else the name as players.csv
    writes it, case, spaces and commas aside."""
    by_id = tags("1.3", "D. Chitra", "F. Bose", "1/2-1/2", WhiteFideId="25000103", BlackFideId="25000106")
    by_name = tags("2.1", "IYER,BALA", "rao ,  arjun", "1/2-1/2")
    run = run_with_games(tiny, {"games/a.pgn": by_id + "*\n\n" + by_name + "*\n"})
    assert game_rows(run) == [] and run.games["usable"].all()
    assert run.games["white_id"].to_list() == ["S3", "S2"]
    assert name_key("Surname,Given") == name_key("surname,  Given") == name_key("Surname Given")
    assert name_key("Rao, Arjun") != name_key("Arjun, Rao")


def test_two_games_for_one_pairing_the_second_is_an_error(tiny):
    game = tags("2.3", "Bose, Farid", "Nair, Esha", "1-0") + "*\n\n"
    run = run_with_games(tiny, {"games/a.pgn": game, "games/b.pgn": game})
    assert game_rows(run) == [("games/b.pgn", 1, "game 1, Round", "2.3", E)]
    assert "game 1 of games/a.pgn has it already" in run.findings[-1].reason
    assert run.games["matched"].to_list() == [True, False]


def test_unreadable_round_and_result_tags_are_errors(tiny):
    text = (tags("?", "Rao, Arjun", "Sen, Dev", "1-0") + "*\n\n"
            + tags("1.1", "Rao, Arjun", "Sen, Dev", "2-0") + "*\n")
    run = run_with_games(tiny, {"games/a.pgn": text})
    assert game_rows(run) == [("games/a.pgn", 1, "game 1, Round", "?", E),
                              ("games/a.pgn", 11, "game 2, Result", "2-0", E)]
    assert run.games["usable"].to_list() == [False, False]


def test_a_result_not_yet_recorded_and_a_bye_without_a_bye_are_warnings(tiny):
    """Round 3 has no rows in results.csv: a decided game there is a warning (no pairing to
    match is an error: it is the next round's); a ``BYE`` entry where results.csv has no bye
    of the player is a warning; one that has it is not a game."""
    results = (tiny / "results.csv").read_text() + "3,1,S1,S2,,,\n"
    (tiny / "results.csv").write_text(results)
    text = (tags("3.1", "Rao, Arjun", "Iyer, Bala", "1-0") + "*\n\n"
            + tags("2.4", "Kapoor, Gita", "BYE", "*") + "*\n")
    run = run_with_games(tiny, {"games/a.pgn": text})
    assert game_rows(run) == [("games/a.pgn", 1, "game 1, Result", "1-0", W),
                              ("games/a.pgn", 11, "game 2, Black", "BYE", W)]
    assert run.games.height == 2 and run.games["usable"].to_list() == [True, False]


def test_the_games_hold_back_nothing(tiny):
    """Decision: results.csv is the record; a contradicting game blocks no standings."""
    run = run_with_games(tiny, {"games/a.pgn": tags("1.1", "Rao, Arjun", "Sen, Dev", "0-1") + "*\n"})
    assert [r[4] for r in game_rows(run)] == [E] and not run.blocked
    assert [c.done for c in run.categories if c.cat.id == "open"] == [2]


# --- the PGN rules themselves ------------------------------------------------------------------

@pytest.mark.parametrize("tag, marker, plies, want", [
    ("1-0", "*", 0, ("1-0", False)),          # Vega: the tag holds the result, movetext only `*`
    ("*", "0-1", 30, ("0-1", False)),         # the marker where the tag has none
    ("*", "*", 0, ("*", False)),              # no result
    ("1-0", "1-0", 40, ("1-0", False)),
    ("1-0", "0-1", 40, ("1-0", True)),        # moves and two results: the tag, with a warning
    ("1-0", "0-1", 0, ("1-0", False)),
    ("?", "*", 0, ("*", False)),
])
def test_the_result_tag_is_the_result_unless_it_has_none(tag, marker, plies, want):
    result, why = game_result(tag, marker, plies)
    assert (result, bool(why)) == want


@pytest.mark.parametrize("tag, want", [
    ("3", (3, None)), ("3.2", (3, 2)), (" 11.40 ", (11, 40)), ("?", None), ("-", None),
    ("", None), ("3a", None), ("0", None), ("3.0", None), ("3.2.1", None)])
def test_round_and_board_of_a_round_tag(tag, want):
    assert round_and_board(tag) == want


def test_a_movetext_marker_contradicting_the_tag_in_a_game_with_moves_is_a_warning():
    (g,) = read_pgn("games/a.pgn", tags("1.1", "A", "B", "1-0") + MATE.replace("1-0", "0-1"))
    assert g.result == "1-0" and [(f.column, f.severity) for f in g.findings] == [("game 1, Result", W)]


# --- the games published (issue 48, second part) ---------------------------------------------

def test_figurine_notation_writes_the_piece_letters_as_figurines():
    """FIDE Laws, Appendix C.5: one set of figurines for both sides; castling, pawns and
    squares unchanged."""
    assert [figurine(s) for s in ("Nf3", "Qxf7#", "e8=Q+", "O-O-O", "Kxe2", "Rad1", "Bb5", "exd5")] == [
        "♘f3", "♕xf7#", "e8=♕+", "O-O-O", "♔xe2", "♖ad1", "♗b5", "exd5"]


SEVEN = dict(zip(PUBLISHED_TAGS, ["E", "S", "2024.09.16", "1.1", "A", "B", "1-0"], strict=True))


def test_a_published_game_has_only_the_seven_tags_and_every_move_clock_and_comment():
    """Decision (issue 48): the seven tag roster only, given (from the record); every other tag
    dropped; moves, clocks, comments and variations kept; each half-move's position."""
    text = (tags("1.1", "Rao, Arjun", "Sen, Dev", "1-0", WhiteElo="1850", WhiteBirthDate="2012.01.01",
                 WhiteFideId="25000101")
            + "1. e4 {[%clk 0:03:00]} e5 {[%clk 0:02:58]} 2. Qh5 (2. Nf3 Nc6) Nc6 3. Bc4 {a trap} "
              "Nf6 4. Qxf7# 1-0\n")
    g = game_moves(text, SEVEN)
    assert g.pgn.splitlines()[:8] == ['[Event "E"]', '[Site "S"]', '[Date "2024.09.16"]', '[Round "1.1"]',
                                      '[White "A"]', '[Black "B"]', '[Result "1-0"]', ""]
    for gone in ("Elo", "BirthDate", "FideId", "1850", "2012", "25000101", "Rao", "Sen"):
        assert gone not in g.pgn
    assert "{ [%clk 0:03:00] }" in g.pgn and "( 2. Nf3 Nc6 )" in g.pgn and "{ a trap }" in g.pgn
    assert [p.san for p in g.plies] == ["e4", "e5", "♕h5", "♘c6", "♗c4", "♘f6", "♕xf7#"]
    assert [(p.number, p.white) for p in g.plies[:3]] == [(1, True), (1, False), (2, True)]
    assert [p.clock for p in g.plies[:3]] == [180.0, 178.0, None]
    assert g.plies[4].comment == "a trap" and g.plies[0].comment == ""  # the command is no text
    assert g.plies[-1].uci == "h5f7" and g.fen == "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
    assert g.start == chess.STARTING_FEN
    with pytest.raises(ValueError):
        game_moves(text, {**SEVEN, "WhiteElo": "1850"})


def test_a_game_from_a_set_up_position_keeps_its_position():
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    g = game_moves(f'[SetUp "1"]\n[FEN "{fen}"]\n[WhiteBirthDate "2012.01.01"]\n\n1. e4 Kd7 *\n', SEVEN)
    assert g.start == fen and f'[FEN "{fen}"]' in g.pgn and "BirthDate" not in g.pgn
    assert [p.san for p in g.plies] == ["e4", "♔d7"]


def test_published_games_are_the_usable_ones_named_as_players_csv_names_them(tiny):
    """Decision (issue 48): the names of players.csv (the public pages'), Round as round.board
    of results.csv, Date the game's own where it is a PGN date (else the event's first day);
    a game not usable (its result contradicts results.csv) is not published."""
    text = (tags("1.1", "RAO,ARJUN", "Sen, Dev", "1-0", WhiteBirthDate="2012.01.01") + MATE
            + tags("1", "Nair, Esha", "Iyer, Bala", "0-1").replace("2024.09.16", "????.??.??") + "1. d4 d5 0-1\n\n"
            + tags("1.3", "Das, Chitra", "Bose, Farid", "1-0") + "1. e4 1-0\n\n")
    run = run_with_games(tiny, {"games/r1.pgn": text})
    got = [(g.key, g.white, g.black, g.result, g.date, len(g.moves.plies)) for g in run.published_games]
    assert got == [("1.1", "Rao, Arjun", "Sen, Dev", "1-0", "2024.09.16", 7),
                   ("1.2", "Nair, Esha", "Iyer, Bala", "0-1", "2024.09.16", 2)]
    assert '[Round "1.2"]' in run.published_games[1].moves.pgn
    assert '[White "Rao, Arjun"]' in run.published_games[0].moves.pgn
    assert '[Event "Tiny Swiss — Open"]' in run.published_games[0].moves.pgn  # two categories
    assert "BirthDate" not in run.published_games[0].moves.pgn


def test_the_office_chooses_the_bulletins_games_and_their_diagrams(tiny):
    """Decision (issue 48): ``[games] bulletin`` names games as round.board (every category's)
    or category:round.board; ``diagrams`` positions after a move (``12.`` White's, ``12...``
    Black's), else the final position; a key naming no published game and a diagram after a
    move the game does not have are warnings on event.toml."""
    text = (tags("1.1", "Rao, Arjun", "Sen, Dev", "1-0") + MATE
            + tags("1.2", "Nair, Esha", "Iyer, Bala", "0-1") + "1. d4 d5 0-1\n\n")
    toml = (tiny / "event.toml").read_text()
    (tiny / "event.toml").write_text(toml + '\n[games]\nbulletin = ["open:1.1", "1.2", "2.1"]\n'
                                     'diagrams = ["open:1.1 after 2.", "open:1.1 after 3...", '
                                     '"1.2 after 9."]\n')
    run = run_with_games(tiny, {"games/r1.pgn": text})
    got = [(b.game.key, b.diagrams) for b in run.bulletin_games]
    assert got == [("1.1", (3, 6)), ("1.2", (2,))]  # 1.2: no 9th move, its final position
    rows = [(f.column, f.value, f.severity) for f in run.findings if f.file == "event.toml"]
    assert rows == [("games.diagrams", "1.2 after 9.", W), ("games.bulletin[2]", "2.1", W)]


@pytest.mark.parametrize("table, said", [
    ('bulletin = ["3-2"]', "is not a game"),
    ('bulletin = ["3.2"]\ndiagrams = ["3.2 at 12"]', "is not a position"),
    ('bulletin = ["3.2"]\ndiagrams = ["4.1 after 12."]', "is not one of the bulletin's games"),
])
def test_a_games_table_that_names_no_game_is_refused_at_load(table, said):
    from transforms.core.config import ConfigError
    with pytest.raises(ConfigError, match=said):
        parse_event_config(SWISS_FILES["event.toml"] + f"\n[games]\n{table}\n")


def test_a_real_export_of_results_only_publishes_no_game(hbcc):
    """Decision (issue 48): the HBCC exports hold no moves (SOURCE.md): every game is matched,
    none is published (results.csv publishes the results; a page would show an empty board)."""
    run = run_with_games(hbcc["hbcc_2025_february_blitz"], hbcc_games("hbcc_2025_february_blitz"))
    assert int(run.games["usable"].sum()) >= 223 and run.published_games == ()


def test_a_published_tag_value_is_escaped_as_the_pgn_standard_writes_it():
    """PGN standard 7: a quote and a backslash in a tag's value are escaped; a tag is one line."""
    assert tag_value('O\'Brien, "Kid" \\ x') == 'O\'Brien, \\"Kid\\" \\\\ x'
    assert tag_value("two\nlines") == "two lines"
    g = game_moves("1. e4 *", {**SEVEN, "White": 'Ann "the Rook"'})
    assert '[White "Ann \\"the Rook\\""]' in g.pgn.splitlines()


# --- the matcher on its own: what every kind hands it (transforms/core/games.py) -------------

def frames(players: list[tuple], pairings: list[tuple]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """players: (player_id, name, fide_id, sno); pairings: (line, section, round, board,
    white_id, black_id, result)."""
    p = pl.DataFrame(players, schema={"player_id": pl.String, "name": pl.String,
                                      "fide_id": pl.String, "sno": pl.Int64}, orient="row")
    r = pl.DataFrame(pairings, schema={"line": pl.Int64, "section": pl.String, "round": pl.Int64,
                                       "board": pl.Int64, "white_id": pl.String,
                                       "black_id": pl.String, "result": pl.String}, orient="row")
    return p, r


def matched(text: str, players: list[tuple], pairings: list[tuple], **kw) -> tuple[list, list]:
    from transforms.core.games import match_games

    p, r = frames(players, pairings)
    games, findings = match_games(read_pgn("games/a.pgn", text), p, r, **kw)
    return (games.select("matched", "usable", "section", "white_id").rows(),
            [(f.column, f.value, f.severity) for f in findings])


def test_a_fide_id_tag_that_names_another_player_than_the_name_is_a_warning_and_the_id_decides():
    """Decision: the FIDE id decides who played; a name tag sharing no word with that
    player's name is a warning (``D. Chitra`` is ``Chitra, Devi``: initials are no finding)."""
    people = [("a", "Chitra, Devi", "25000103", 1), ("b", "Bose, Farid", "25000106", 2)]
    pairing = [(2, "open", 1, 1, "a", "b", "1-0")]
    ok = tags("1", "D. Chitra", "Bose F", "1-0", WhiteFideId="25000103", BlackFideId="25000106") + "*\n"
    assert matched(ok, people, pairing) == ([(True, True, "open", "a")], [])
    wrong = tags("1", "Gupta, Hari", "Bose, Farid", "1-0", WhiteFideId="25000103") + "*\n"
    rows, found = matched(wrong, people, pairing)
    assert rows == [(True, True, "open", "a")]
    assert found == [("game 1, WhiteFideId", "25000103", W)]


def test_a_name_two_players_share_is_told_apart_by_the_pairing():
    """Two ``Kumar, Anil`` in two categories (no FIDE id): the round's pairing with the
    opponent says which one played; a name no pairing tells apart stays unmatched."""
    people = [("o1", "Kumar, Anil", "", 1), ("o2", "Rao, Uma", "", 2),
              ("g1", "Kumar, Anil", "", 1), ("g2", "Das, Mira", "", 2)]
    pairing = [(2, "open", 1, 1, "o1", "o2", "1-0"), (3, "girls", 1, 1, "g2", "g1", "0-1")]
    text = tags("1", "Das, Mira", "Kumar, Anil", "0-1") + "*\n"
    assert matched(text, people, pairing)[0] == [(True, True, "girls", "g2")]
    text = tags("1", "Kumar, Anil", "Rao, Uma", "1-0") + "*\n"
    assert matched(text, people, pairing)[0] == [(True, True, "open", "o1")]


def test_without_rounds_a_game_is_matched_by_its_players_and_a_section_tag_tells_two_meetings_apart():
    """A correspondence event (``rounds=False``): the Round tag is not read; two players who
    met in two sections need a Section (or Event) tag naming one (else an error, unmatched)."""
    people = [("e1", "Abel, Ann", "", None), ("e2", "Berg, Bo", "", None)]
    pairing = [(2, "prelim-1", None, None, "e1", "e2", "1-0"),
               (9, "final-1", None, None, "e2", "e1", None)]
    one = tags("-", "Abel, Ann", "Berg, Bo", "1-0") + "*\n"
    rows, found = matched(one, people, pairing[:1], rounds=False, record="games.csv")
    assert rows == [(True, True, "prelim-1", "e1")] and found == []
    rows, found = matched(one, people, pairing, rounds=False, record="games.csv")
    assert rows == [(False, False, None, None)] and [f[2] for f in found] == [E]
    named = tags("-", "Berg, Bo", "Abel, Ann", "*", Section="Final 1") + "*\n"
    rows, found = matched(named, people, pairing, rounds=False, record="games.csv",
                          sections={"prelim-1": "Preliminary 1", "final-1": "Final 1"})
    assert rows == [(True, True, "final-1", "e2")] and found == []


def test_a_shortened_or_plain_letter_name_is_matched_where_the_pairing_confirms_it():
    """Decision: where no player has the name as written, a shortened or plain-letter form
    finds them — ``Kumar, A.`` (an initial), ``Muller, Jurgen`` (no accents), ``Anil Kumar``
    (the order) — and the round's pairing with the opponent decides; a form two paired players
    could both be, or one naming no word in full, stays unmatched."""
    from transforms.core.games import loosely_named

    assert loosely_named("Kumar, A.", "Kumar, Anil") and loosely_named("Anil Kumar", "Kumar, Anil")
    assert loosely_named("Muller, Jurgen", "Müller, Jürgen") and loosely_named("MULLER J", "Müller, Jürgen")
    assert not loosely_named("A. K.", "Kumar, Anil") and not loosely_named("Kumar, B.", "Kumar, Anil")
    assert not loosely_named("Kumari, A.", "Kumar, Anil")
    people = [("o1", "Kumar, Anil", "", 1), ("o2", "Müller, Jürgen", "", 2),
              ("g1", "Kumar, Asha", "", 1), ("g2", "Das, Mira", "", 2)]
    pairing = [(2, "open", 1, 1, "o1", "o2", "1-0"), (3, "girls", 1, 1, "g2", "g1", "0-1")]
    text = tags("1", "Kumar, A.", "Muller, J.", "1-0") + "*\n"
    assert matched(text, people, pairing)[0] == [(True, True, "open", "o1")]
    text = tags("1", "Das, M", "Kumar, A", "0-1") + "*\n"
    assert matched(text, people, pairing)[0] == [(True, True, "girls", "g2")]
    two = [(2, "open", 1, 1, "o1", "o2", "1-0"), (3, "open", 1, 2, "g1", "o2", "0-1")]
    rows, found = matched(tags("1", "Kumar, A.", "Muller, J.", "1-0") + "*\n", people, two)
    assert rows == [(False, False, None, None)] and [f[2] for f in found] == [E]


def test_a_pairing_is_matched_only_with_its_two_players_one_on_each_side():
    """A PGN whose two sides could both be the same player (a FIDE id and a name of one
    player, or a name two players share on both sides) takes no pairing that has only one of
    them: the real game of that pairing, later in the file, keeps it."""
    people = [("a", "Kumar, Arjun", "111", 1), ("b", "Kumar, Amit", "", 2),
              ("c", "Patel, Ravi", "", 3), ("d", "Shah, Dev", "", 4)]
    pairing = [(2, "open", 1, 1, "a", "c", "1-0"), (3, "open", 1, 2, "b", "d", "0-1")]
    odd = tags("1", "X", "Kumar, Arjun", "1-0", WhiteFideId="111") + "*\n"
    real = tags("1", "Kumar, Arjun", "Patel, Ravi", "1-0") + "*\n"
    rows, found = matched(odd + "\n" + real, people, pairing)
    assert rows == [(False, False, None, None), (True, True, "open", "a")]
    assert all("second game" not in str(f) for f in found)


def test_a_forfeit_exported_in_the_other_colours_agrees_with_its_result():
    """results.csv has A +/- C (no game: no colours); an export writes C as White and A as
    Black with 0-1 — the same points for each player: no finding (only a played game's
    colours are checked)."""
    people = [("a", "Abel, Ann", "", 1), ("c", "Cole, Cy", "", 2)]
    pairing = [(2, "open", 1, 1, "a", "c", "+/-")]
    rows, found = matched(tags("1", "Cole, Cy", "Abel, Ann", "0-1") + "*\n", people, pairing)
    assert rows == [(True, True, "open", "a")] and found == []
    rows, found = matched(tags("1", "Cole, Cy", "Abel, Ann", "1-0") + "*\n", people, pairing)
    assert [f[0] for f in found] == ["game 1, Result"]

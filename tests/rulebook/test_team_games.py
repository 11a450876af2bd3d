"""A team event's games (issue 48): ``games/*.pgn`` matched to the boards of results.csv
(transforms/team/games.py over transforms/core/games.py), checked against them and named as a
team event names them, on the hand-made league of tests/team_games_event.py:

    round 1, match 1: A 2½ – 1½ D          round 1, match 2: B 2½ – 1½ C
      bd 1  A1 (W)  1-0  D1                  bd 1  B1 (W)  ½-½  C1
      bd 2  A2 (B)  ½-½  D2 (W)              bd 2  B2 (B)  0-1  C2 (W)
      bd 3  A3 (W)  1-0  D3                  bd 3  B3 (W)  ½-½  C3
      bd 4  A4 (B)  0-1  D4 (W)              bd 4  B4 (B)  +/-  (C not fielded)

(results.csv's ``0-1`` on A–D board 4 is D4's win with White: ``1-0`` White first.)
"""

from __future__ import annotations

import polars as pl
import pytest

from flows import io
from tests.team_games_event import (
    DAY,
    LEAGUE,
    MATE,
    RESULTS,
    ROSTERS,
    TEAMS,
    TOML,
    game,
    name,
    tags,
    team_event,
)
from transforms.core.errors import ConfigError, Severity
from transforms.core.games import GamesConfig
from transforms.core.pgn import GAMES
from transforms.kinds import kind_of, parse_event_config
from transforms.team import games as tg
from transforms.team.event import TeamRun, prepare
from transforms.team.matches import board_colour

E, W = Severity.ERROR, Severity.WARNING


def game_rows(run: TeamRun) -> list[tuple]:
    return [(f.file, f.line, f.column, f.value, f.severity) for f in run.findings
            if f.file.startswith(GAMES)]


R1 = "games/round-1.pgn"
ROUND_1 = "".join([
    game("1.1.1", "A1", "D1", "1-0"),          # 1: correct, a three-part Round tag
    game("1", "D4", "A4", "1-0"),              # 2: board 4, team A's player Black and lost
    game("1.2", "A2", "D2", "1/2-1/2"),        # 3: board 2 with the colours swapped
    game("1.1.3", "A3", "D3", "0-1"),          # 4: contradicts board 3 (A3 won)
    game("1", "B1", "C2", "1-0"),              # 5: two players not fielded against each other
    game("1", "C4", "B4", "0-1"),              # 6: the forfeit board: C4 was not fielded
    tags("1", name("B4"), "BYE", "*") + "*\n\n",  # 7: a bye entry for the forfeit's winner
    game("1.9", "B1", "C1", "1/2-1/2"),        # 8: a board the record does not say: board 1
])


@pytest.fixture
def league(tmp_path) -> TeamRun:
    return team_event(tmp_path, {R1: ROUND_1})


def test_the_boards_are_the_pairings_in_their_real_colours_and_the_result_white_first(league):
    """FIDE C.04.6 — the team kind's one colour rule (board_colour: team A White on the odd
    boards); results.csv's result is team A's player's first, so it is reversed on the even
    boards; the forfeit board has its one fielded player and no opponent."""
    pairings = tg.board_pairings(league.groups).sort("line")
    assert [board_colour(b) for b in (1, 2, 3, 4)] == ["w", "b", "w", "b"]
    assert pairings.select("board", "white_id", "black_id", "result").rows() == [
        (1, "A1", "D1", "1-0"), (2, "D2", "A2", "1/2-1/2"), (3, "A3", "D3", "1-0"),
        (4, "D4", "A4", "1-0"), (1, "B1", "C1", "1/2-1/2"), (2, "C2", "B2", "1-0"),
        (3, "B3", "C3", "1/2-1/2"), (4, "B4", None, "+/-")]
    assert set(pairings["section"]) == {"one"}


def test_a_game_is_matched_to_the_board_its_players_were_fielded_against_each_other_on(league):
    """Game 1 (board 1, Round ``1.1.1``) and game 2 (board 4: D4 White beat A4, results.csv's
    ``0-1`` from team A's side) match and are usable; game 8's Round ``1.9`` is no board of the
    record and still matches B1 – C1 on board 1 (the board is never a key)."""
    g = league.games
    assert g is not None and g.height == 7  # the bye entry agreeing with the record is no game
    rows = {r["game"]: r for r in g.iter_rows(named=True)}
    assert (rows[1]["board"], rows[1]["white_id"], rows[1]["recorded"], rows[1]["usable"]) == (1, "A1", "1-0", True)
    assert (rows[2]["board"], rows[2]["white_id"], rows[2]["black_id"], rows[2]["recorded"],
            rows[2]["usable"]) == (4, "D4", "A4", "1-0", True)
    assert (rows[8]["board"], rows[8]["round_tag"], rows[8]["usable"]) == (1, "1.9", True)
    assert rows[1]["round_tag"] == "1.1.1"  # the tag as the file has it
    assert g["section"].drop_nulls().unique().to_list() == ["one"]
    assert g["white_sno"].null_count() == g.height  # a team event prints no player number


def test_swapped_colours_a_contradicting_result_and_a_game_no_board_has_are_errors(league):
    """Game 3 has A2 White on board 2 (D2 had White); game 4 says D3 won board 3 (A3 won);
    game 5 is B1 against C2, who were not fielded against each other; game 6 names C4, whom
    Charlie did not field (board 4 was won by forfeit): no board has it. Each an error row
    naming file, line, game and value; none published."""
    rows = game_rows(league)
    starts = [i + 1 for i, line in enumerate(ROUND_1.splitlines()) if line.startswith("[Event ")]
    assert rows == [(R1, starts[2], "game 3, White", name("A2"), E),
                    (R1, starts[3], "game 4, Result", "0-1", E),
                    (R1, starts[4], "game 5, Round", "1", E),
                    (R1, starts[5], "game 6, Round", "1", E)]
    reasons = [f.reason for f in league.findings if f.file == R1]
    assert "White and Black are swapped" in reasons[0] and "Dster, D2 had White" in reasons[0]
    assert "contradicts results.csv" in reasons[1] and "1-0" in reasons[1]
    assert "no game of Bster, B1 and Cster, C2 in round 1" in reasons[2]
    assert "no game of Cster, C4 and Bster, B4 in round 1" in reasons[3]
    assert not any("on board" in r for r in reasons)  # no "board 2 has ...": every match has one
    usable = league.games.filter(pl.col("usable"))["game"].to_list()
    assert usable == [1, 2, 8]
    assert league.blocked == ""  # the games hold back nothing


def test_a_bad_round_tag_keeps_its_value_in_the_finding(tmp_path):
    """A three-part tag is read as its round only; a finding about it shows the tag as the
    file has it, and a tag that is no round is an error."""
    run = team_event(tmp_path, {R1: game("1.4.2", "A1", "C1", "1-0") + game("x.1", "A1", "D1", "1-0")})
    assert [(r[2], r[3]) for r in game_rows(run)] == [("game 1, Round", "1.4.2"), ("game 2, Round", "x.1")]


def test_a_player_is_found_by_fide_id_then_by_roster_name(tmp_path):
    """rosters.csv's ``fide_id`` and ``name`` stand for players.csv's (Delta's players have a
    FIDE id): a name written otherwise is found by the id."""
    text = tags("1", name("A1"), "Somebody Else", "1-0", BlackFideId="990681") + MATE
    run = team_event(tmp_path, {R1: text})
    assert run.games["usable"].to_list() == [True]
    assert [(r[2], r[4]) for r in game_rows(run)] == [("game 1, BlackFideId", W)]


def test_a_published_team_game_is_named_by_round_match_and_board(league):
    """Decision: the published ``Round`` is ``round.match.board`` (A–D is round 1's match 1,
    B–C match 2, as the round page numbers them), the seven tags only, the names as
    rosters.csv writes them; in the order of the matches and boards."""
    pub = league.published_games
    assert [(g.white_id, g.black_id) for g in pub] == [("A1", "D1"), ("D4", "A4"), ("B1", "C1")]
    rounds = [g.moves.pgn.split('[Round "')[1].split('"')[0] for g in pub]
    assert rounds == ["1.1.1", "1.1.4", "1.2.1"]
    assert pub[0].moves.pgn.startswith('[Event "County League"]\n[Site "Riverton"]\n[Date "2025.10.02"]\n'
                                       '[Round "1.1.1"]\n[White "Aster, A1"]\n[Black "Dster, D1"]\n'
                                       '[Result "1-0"]\n')
    m = league.game_matches[(1, "D4")]
    assert (m.group, m.number, m.team_a, m.team_b) == ("one", 1, "A", "D")
    assert league.game_matches[(1, "B4")].number == 2 and (1, "C4") not in league.game_matches
    assert tg.match_round_tag(3, 2, None) == "3.2"  # a match the fixtures do not have


def test_the_bulletin_names_a_game_by_a_team_of_its_match(tmp_path):
    """Decision: ``"A:1.1"`` is board 1 of Alpha's round-1 match, ``"D:1.4"`` board 4 of
    Delta's (the same match: either team names it), at its final position; a board without a published game and a
    team teams.csv does not have are warnings on event.toml; diagrams as in an individual
    event."""
    toml = ('[games]\nbulletin = ["A:1.1", "D:1.4", "C:1.3", "Z:1.1"]\n'
            'diagrams = ["A:1.1 after 2.", "A:1.1 after 9."]\n')
    run = team_event(tmp_path, {R1: ROUND_1}, games_toml=toml)
    assert [(b.game.white_id, b.diagrams) for b in run.bulletin_games] == [("A1", (3,)), ("D4", (7,))]
    warned = [(f.column, f.value, f.reason) for f in run.findings if f.file == "event.toml"]
    assert [(c, v) for c, v, _ in warned] == [("games.diagrams", "A:1.1 after 9."),
                                              ("games.bulletin[2]", "C:1.3"),
                                              ("games.bulletin[3]", "Z:1.1")]
    assert "board 3 of the match Charlie plays in round 1" in warned[1][2]
    assert "no team 'Z' in teams.csv" in warned[2][2]


@pytest.mark.parametrize("key", ["1.1", "1.1 after 3."])
def test_a_bulletin_key_without_a_team_is_refused_at_load(key):
    """Decision: ``"1.1"`` names board 1 of every match of round 1: an error naming the key;
    an individual event keeps its ``round.board`` keys."""
    bulletin = key.split(" ")[0]
    toml = f'[games]\nbulletin = ["{bulletin}"]\n' + (f'diagrams = ["{key}"]\n' if " " in key else "")
    with pytest.raises(ConfigError, match=r"games\.bulletin\[0\].*team_id:round\.board"):
        parse_event_config(TOML.format(kind="team_round_robin", system=LEAGUE, games=toml))
    cfg = parse_event_config(TOML.format(kind="team_round_robin", system=LEAGUE,
                                         games='[games]\nbulletin = ["A:1.1"]\n'))
    assert cfg.require(GamesConfig).bulletin == ("A:1.1",) and kind_of(cfg).games


def test_a_team_swiss_reads_its_games_too(tmp_path):
    """The team Swiss (its one group, named as the event): the same matching; its Event tag
    the event's name; the match numbers the recorded tables'."""
    run = team_event(tmp_path, {R1: game("1", "A1", "D1", "1-0") + game("1", "C2", "B2", "1-0")},
                     kind="team_swiss")
    assert game_rows(run) == []
    (group,) = run.groups
    assert group.id == "all" and run.games["section"].to_list() == ["all", "all"]
    pub = run.published_games
    assert [g.moves.pgn.split("\n")[0] for g in pub] == ['[Event "County League"]'] * 2
    assert [g.moves.pgn.split('[Round "')[1].split('"')[0] for g in pub] == ["1.1.1", "1.2.2"]


def test_an_event_without_a_games_folder_has_no_games(tmp_path):
    folder = tmp_path / "league"
    folder.mkdir()
    for file, text in (("teams.csv", TEAMS), ("rosters.csv", ROSTERS), ("results.csv", RESULTS)):
        (folder / file).write_text(text, encoding="utf-8")
    cfg = parse_event_config(TOML.format(kind="team_round_robin", system=LEAGUE, games=""))
    run = prepare(cfg, {n: io.read_csv_strings(folder / n) for n in ("teams.csv", "rosters.csv", "results.csv")}, DAY)
    assert run.games is None and run.published_games == () and run.bulletin_games == ()

"""The input files of a team competition (``kind = "team_round_robin"`` or ``"team_swiss"``):
the teams (with their captains), their rosters in board order, the line-ups captains send
before a round, and the board results of every match (each board's players as the captains
fielded them)."""

from __future__ import annotations

from transforms.core.ingest import (
    FEDERATION,
    FIDE_ID,
    GENDERS,
    RESULTS,
    TITLES,
    ColType,
    Column,
    Schema,
)
from transforms.fide.rating_list import RATINGS_LIST

TEAMS = Schema("teams.csv", (
    Column("team_id", nonempty=True, description=(
        "The team's id, unique in the file; the other files name teams by it.")),
    Column("name", nonempty=True, description="The team's name as printed (e.g. \"Riverside A\")."),
    Column("club", required=False, description="The club, school or federation it represents."),
    Column("division", required=False, description=(
        "A league's division: the `id` of one of `[[team_round_robin.divisions]]`; may be left "
        "out when the league has one division (and in a team Swiss).")),
    Column("captain", required=False, description="The captain's name, as printed."),
    Column("captain_email", ColType.EMAIL, required=False, description=(
        "Where the captain's letters go (the next pairing, the line-up deadline, the match "
        "result and the standing); empty: no letters.")),
    Column("start_no", ColType.INT, required=False, minimum=1, description=(
        "The team's number to keep (an event taken over, a league's drawing of lots made "
        "elsewhere); used only when every team of the division has one.")),
    Column("absent_rounds", required=False, description=(
        "A team Swiss: the rounds the team is known to miss (FIDE C.04.2 3.3: not paired, no "
        "points), e.g. `3 4`; a late entry names the rounds before it joins.")),
    Column("withdrawn_from", ColType.INT, required=False, minimum=1, description=(
        "A team Swiss: the first round the team no longer plays (FIDE C.04.2 3.2: withdrawn, "
        "not paired from that round on).")),
), key=("team_id",), description="One row per team.")

ROSTERS = Schema("rosters.csv", (
    Column("team_id", nonempty=True, description="The team (teams.csv `team_id`)."),
    Column("board", ColType.INT, nonempty=True, minimum=1, description=(
        "The player's place in the team's board order: 1 for the first board, then the "
        "others and the reserves.")),
    Column("player_id", nonempty=True, description=(
        "The player's id, unique in the file; results.csv names players by it.")),
    Column("name", nonempty=True, description="As printed: \"Surname, Given names\"."),
    Column("rating", ColType.INT, required=False, minimum=0, maximum=3500, description=(
        "Rating (FIDE, or the event's list); 0 or empty: unrated.")),
    Column("fide_id", required=False, pattern=FIDE_ID, description="FIDE ID, if any."),
    Column("title", required=False, vocabulary=TITLES, description="FIDE title, empty if none."),
    Column("federation", required=False, pattern=FEDERATION, description=(
        "FIDE federation, three letters, if known.")),
    Column("sex", required=False, vocabulary=GENDERS, description="`M` or `F`, if known."),
    Column("email", ColType.EMAIL, required=False, description=(
        "Where the player's messages go; empty: no letters.")),
), description="One row per player of a team, in the team's board order.")

RESULTS_FILE = Schema("results.csv", (
    Column("round", ColType.INT, nonempty=True, minimum=1, description="The round."),
    Column("team_a", nonempty=True, description=(
        "The first-named team of the match (White on board 1, then alternately: FIDE C.04.6), "
        "or the team that has the bye.")),
    Column("team_b", description="The other team; empty for a bye."),
    Column("board", ColType.INT, minimum=1, description="The board; empty for a bye."),
    Column("player_a", description="Team A's player on that board; empty: the board was not fielded."),
    Column("player_b", description="Team B's player on that board; empty: the board was not fielded."),
    Column("result", vocabulary=RESULTS, description=(
        "Team A's player's result first (`1-0`: team A's player won, whatever the colour); "
        "`+/-`, `-/+`, `-/-` for a board not played; `PAB` for a team's bye; empty: the game "
        "is not finished.")),
), description="One row per board of every match, and one per team bye, all rounds so far.")

LINEUPS = Schema("lineups.csv", (
    Column("round", ColType.INT, nonempty=True, minimum=1, description="The round the line-up is for."),
    Column("team_id", nonempty=True, description="The team (teams.csv `team_id`)."),
    Column("board", ColType.INT, nonempty=True, minimum=1, description=(
        "The board, 1 to `[team] boards`; a board the team leaves empty has no row.")),
    Column("player_id", nonempty=True, description=(
        "The player on that board (rosters.csv `player_id` of the team).")),
), description=(
    "One row per board of a team's line-up for a round, as the captain sent it before the round "
    "(optional: without one a team's expected line-up is its roster's first players, in order). "
    "The round's pairing page and the captain's letter show it; a result that fields someone "
    "else is a warning."))

SCHEMAS = {s.file: s for s in (TEAMS, ROSTERS, RESULTS_FILE, LINEUPS, RATINGS_LIST)}
"""A team event's input files, in the input reference's order."""
REQUIRED = ("teams.csv", "rosters.csv")
"""The files a team event must have (results.csv comes with the first round)."""

"""The input files of a Swiss event (``kind = "swiss"`` and ``kind = "round_robin"``): what a
pairing program needs — players.csv with an id, a name and a rating (everything else
optional), results.csv, and the optional withdrawals.csv and bye_requests.csv. An event's
rules part may ask for more (the National Junior's entry rules:
``transforms/national_junior/schemas.py``)."""

from __future__ import annotations

from transforms.core.ingest import (
    BYE_KINDS,
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

RATING_COLUMNS = ("national_rating", "rated_games", "k_factor")
"""What FIDE knows and the office may not (B.02 8.3.3), and a second list's ratings."""
START_NO = Column("start_no", ColType.INT, required=False, minimum=1, description=(
    "A start number to keep (an event taken over from a TRF, a round robin's drawing of "
    "lots); used only when every player of the category has one, else start numbers follow "
    "FIDE C.04.2 A.2 (rating, title, name) — or, in a round robin, are drawn by lot "
    "(`[round_robin] draw_seed`)."))

PLAYERS = Schema("players.csv", (
    Column("player_id", nonempty=True, description=(
        "The player's id, unique in the file; results.csv, withdrawals.csv and "
        "bye_requests.csv name players by it.")),
    Column("name", nonempty=True, description="As printed: \"Surname, Given names\"."),
    Column("rating", ColType.INT, required=False, minimum=0, maximum=3500, description=(
        "Rating (FIDE, or the event's list); 0 or empty: unrated. Orders the start numbers "
        "(FIDE C.04.2 A.2).")),
    Column("section", required=False, description=(
        "The category: the `id` of one of event.toml's categories; may be left out (or "
        "empty) when the event has one category.")),
    Column("fide_id", required=False, pattern=FIDE_ID, description="FIDE ID, if any."),
    Column("member_id", required=False, description=(
        "The player's id in the federation's members (the season's `members.csv`), if any: "
        "a series over the season's events recognises the player by it.")),
    Column("title", required=False, vocabulary=TITLES, description="FIDE title, empty if none."),
    Column("federation", required=False, pattern=FEDERATION, description=(
        "FIDE federation, three letters (e.g. `IND`, `ENG`), if known.")),
    Column("sex", required=False, vocabulary=GENDERS, description=(
        "`M` or `F`, if known (a women's category takes `F` only).")),
    Column("birth_date", ColType.DATE, required=False, description=(
        "If known (for the FIDE rating report of a new player; never published).")),
    Column("club", required=False, description="The player's club or city, as printed."),
    Column("email", ColType.EMAIL, required=False, description=(
        "Where the player's messages go; empty: no letters.")),
    Column("national_rating", ColType.INT, required=False, minimum=0, maximum=3500, description=(
        "The player's rating on a second list (`[[ratings.lists]] column = \"national_rating\"`), "
        "if the event is rated for one.")),
    Column("rated_games", ColType.INT, required=False, minimum=0, description=(
        "FIDE B.02 8.3.3: games the player had rated before the event (K 40 until 30); empty: "
        "30 or more assumed, shown on the player's page.")),
    Column("k_factor", ColType.INT, required=False, minimum=1, maximum=40, description=(
        "The K FIDE published for the player, if known: it is used instead of the one B.02 "
        "8.3.3 gives from rating, age and games.")),
    START_NO,
), key=("player_id",), description="One row per player.")

RESULTS_FILE = Schema("results.csv", (
        Column("round", ColType.INT, nonempty=True, minimum=1, description="The round."),
        Column("board", ColType.INT, nonempty=True, minimum=1, description=(
            "The board, or the bye's row number after the boards.")),
        Column("white_id", nonempty=True, description=(
            "player_id of White, or of the player who has the bye.")),
        Column("black_id", description="player_id of Black; empty for a bye."),
        Column("result", vocabulary=RESULTS, description=(
            "White's result first; empty: the game is not finished.")),
        Column("moves", ColType.INT, required=False, minimum=0, maximum=1000, description=(
            "Moves played (for the record; an event's draw-agreement rule reads it, e.g. the "
            "National Junior's `[national_junior] draw_consent_before_move`).")),
        Column("draw_consent", ColType.BOOL, required=False, description=(
            "The arbiter consented to the early draw.")),
    ), description="One row per board or bye, all rounds so far.")

WITHDRAWALS = Schema("withdrawals.csv", (
        Column("player_id", nonempty=True, description="The player who withdrew."),
        Column("from_round", ColType.INT, nonempty=True, minimum=1, description=(
            "The first round the player is not paired in.")),
        Column("reason", required=False, description="Why (for the record)."),
    ), key=("player_id",), description="Players who left the event (optional file).")

BYE_REQUESTS = Schema("bye_requests.csv", (
        Column("player_id", nonempty=True, description="The player who asked."),
        Column("round", ColType.INT, nonempty=True, minimum=1, description=(
            "The round the player will not be paired in.")),
        Column("kind", vocabulary=BYE_KINDS, nonempty=True, description="The bye asked for."),
    ), key=("player_id", "round"), description="Byes asked for in advance (optional file).")

NATIONAL_LIST = Schema("national_ratings.csv", (
        Column("member_id", nonempty=True, description=(
            "The member's id in the federation (players.csv's `member_id`).")),
        Column("name", required=False, description="The name on the list."),
        Column("rating", ColType.INT, required=False, minimum=0, maximum=3500, description=(
            "The national rating on the list in force at the event's start; empty: unrated.")),
        Column("list", required=False, description=(
            "Which list, as the pages name it (`National list, January 2026`).")),
    ), key=("member_id",), description=(
        "The players' entries on the federation's national rating list in force at the "
        "event's start (optional file; taken from the season's `lists/national_<mon><yy>.csv` "
        "when the event has none, see docs/season.md): where players.csv leaves "
        "`national_rating` empty the list's is taken; where both give one and they differ, "
        "players.csv's is kept (the office's) with a warning row, and the player's page says "
        "which."))

SCHEMAS = {"players.csv": PLAYERS, "results.csv": RESULTS_FILE, "withdrawals.csv": WITHDRAWALS,
           "bye_requests.csv": BYE_REQUESTS, "ratings.csv": RATINGS_LIST,
           "national_ratings.csv": NATIONAL_LIST}
"""A Swiss event's files, in the order the input reference lists them."""
REQUIRED = ("players.csv",)

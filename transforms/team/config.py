"""The event.toml tables of a team competition: ``[team]``, what every team event sets (boards
per match, match points, the primary score, the board-order rule, reserves, forfeits, the
tie-breaks, board prizes), and the system of play of each kind — ``[team_round_robin]`` (a
league in divisions) and ``[team_swiss]`` (FIDE C.04.6). Loaded by :mod:`transforms.kinds`."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from enum import StrEnum

from transforms.core.errors import ConfigError
from transforms.core.results import source_name_ok
from transforms.fide.tiebreaks import Edition


class PrimaryScore(StrEnum):
    """``[team] primary``: what ranks the teams first (FIDE C.07, team events)."""

    MATCH_POINTS = "match_points"
    """Match points (``MP``): a match won, drawn or lost scores ``[team] match_points``."""
    GAME_POINTS = "game_points"
    """Game points (``GP``): the sum of the team's board points."""

    @property
    def code(self) -> str:
        """``MP`` or ``GP``, as FIDE's team tie-breaks name the score they are computed on."""
        return "MP" if self is PrimaryScore.MATCH_POINTS else "GP"


class BoardOrder(StrEnum):
    """``[team] board_order``: how a team's players may be placed on its boards."""

    ROSTER = "roster"
    """In the order of the roster (``rosters.csv`` ``board``): a player never plays above one
    listed before them."""
    RATING = "rating"
    """By rating, within ``[team] rating_tolerance``: a player may play above one rated at
    most that many points higher."""


@dataclass(frozen=True)
class TeamRules:
    """``[team]``: the rules every team competition sets."""

    boards: int
    """Boards per match (e.g. 4; an Olympiad plays 4, a club league often 6 or 8)."""
    match_points: tuple[int, int, int] = (2, 1, 0)
    """Match points of a match won, drawn and lost (``[2, 1, 0]``; ``[3, 1, 0]`` in some
    leagues)."""
    primary: PrimaryScore = PrimaryScore.MATCH_POINTS
    """What ranks the teams first: ``"match_points"`` or ``"game_points"``."""
    tiebreaks: tuple[str, ...] = ("GPTS", "BH:MP", "EDE")
    """FIDE C.07 team tie-break codes, in the order they break ties (each a code of the team
    tie-break registry)."""
    tiebreak_edition: Edition = Edition.FIDE_2024
    """Which text of FIDE C.07 computes the tie-breaks (``"fide-2024"``, ``"fide-2026"``, or
    ``"fide-2009"`` for the rules before 2023)."""
    board_order: BoardOrder = BoardOrder.ROSTER
    """``"roster"``: the roster's order; ``"rating"``: by rating within ``rating_tolerance``."""
    rating_tolerance: int = 0
    """With ``board_order = "rating"``: how many points a player may be rated below one they
    play above."""
    reserves: int = 2
    """Players a roster may have beyond ``boards`` (reserves)."""
    forfeit_below_half: bool = True
    """A team fielding fewer than half its boards loses the match by forfeit."""
    empty_boards_at_bottom: bool = True
    """A board left empty must be below every fielded board."""
    one_team_per_player: bool = True
    """A player is on one team's roster only (in this event and, where the office keeps one,
    the season)."""
    board_prize_min_games: int = 0
    """Board prizes (the best performance on each board) need at least this many games on
    that board; 0: no board prizes."""
    lineup_deadline: str = "before the round"
    """When a captain sends the line-up, as the captains' letters say it ("Please send your
    line-up to the arbiter <lineup_deadline>."), e.g. ``"by 18:00 the day before the round"``."""

    def __post_init__(self) -> None:
        if self.boards < 1:
            raise ConfigError("", "boards", f"must be at least 1, got {self.boards}")
        win, draw, loss = self.match_points
        if not win > draw >= loss >= 0:
            raise ConfigError("", "match_points", f"{list(self.match_points)}: a win must score more "
                              "than a draw, a draw at least a loss, none below 0")
        if self.rating_tolerance < 0 or self.reserves < 0 or self.board_prize_min_games < 0:
            raise ConfigError("", "rating_tolerance", "must not be negative")
        if not self.tiebreaks:
            return
        from transforms.fide.team_tiebreaks import parse_team_code  # the registry's codes

        for code in self.tiebreaks:
            parse_team_code(code, key="tiebreaks", file="")

    def match_points_of(self, own: float, other: float) -> int:
        """The match points of a team that scored ``own`` game points against ``other``."""
        win, draw, loss = self.match_points
        return win if own > other else draw if own == other else loss


@dataclass(frozen=True)
class Division:
    """One division of a league: its teams play one another (``teams.csv`` ``division``)."""

    id: str
    """The division's id, as teams.csv ``division`` gives it (e.g. ``premier``, ``d1``)."""
    name: str
    """Its name as printed."""
    promoted: int = 0
    """How many teams at its top go up (marked in the standings)."""
    relegated: int = 0
    """How many teams at its bottom go down (marked in the standings)."""


@dataclass(frozen=True)
class TeamRoundRobinConfig:
    """``[team_round_robin]``: a league of team round robins, one per division (FIDE C.05
    Annex 1, the Berger tables, on teams)."""

    divisions: tuple[Division, ...]
    """The divisions (``[[team_round_robin.divisions]]``), each its own round robin."""
    cycles: int = 1
    """1: every team meets every other once; 2: twice, home and away reversed."""
    draw_seed: int = 1
    """The teams' numbers in the Berger table are drawn by lot from this seed unless
    teams.csv gives every team a ``start_no``."""
    round_dates: tuple[dt.date, ...] = ()
    """The date of each round, for the fixture list (may be left out)."""
    previous: str = ""
    """The league's previous season: a sibling event folder (``district-league-2024``, run by
    chessfed). Its final standings move its teams up (its division's ``promoted``) and down
    (``relegated``) into this season's divisions, by division id in the order
    ``[[team_round_robin.divisions]]`` lists them, top first: a team of teams.csv with the same
    ``team_id`` and no ``division`` takes the one it earned; one whose ``division`` differs is
    kept with a warning."""

    def __post_init__(self) -> None:
        if self.previous and (not source_name_ok(self.previous) or "/" in self.previous
                              or self.previous.lower().endswith((".trf", ".txt", ".xlsx"))):
            raise ConfigError("", "previous", f"{self.previous!r}: the name of an event folder "
                              "beside this one (no '/', no '..')")
        if self.cycles not in (1, 2):
            raise ConfigError("", "cycles", f"must be 1 (single) or 2 (double), got {self.cycles}")
        if not self.divisions:
            raise ConfigError("", "divisions", "at least one division is required")
        ids = [d.id for d in self.divisions]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ConfigError("", "divisions", f"duplicate division id {dup[0]!r}")


class ColourPreference(StrEnum):
    """``[team_swiss] colour_preference``: FIDE C.04.6's two ways of giving a team its colour
    preference."""

    A = "A"
    """Type A: a team's preference follows its colour differences only (the simple rule)."""
    B = "B"
    """Type B: also the colours of the last rounds (as the Dutch system's strong and mild
    preferences)."""
    NONE = "none"
    """No colour preferences (C.04.6 1.7: the competition's choice): colours by 4.3 alone."""


class InitialColour(StrEnum):
    """``[team_swiss] initial_colour``: the colour drawn by lot before round 1 (C.04.6 4.1)."""

    WHITE = "white"
    BLACK = "black"


@dataclass(frozen=True)
class TeamSwissConfig:
    """``[team_swiss]``: a team Swiss by FIDE C.04.6 (2026)."""

    rounds: int
    """Rounds of the event (e.g. 11 at an Olympiad)."""
    colour_preference: ColourPreference = ColourPreference.A
    """C.04.6 1.7: type ``"A"`` (the default), ``"B"``, or ``"none"``."""
    rating_top: int = 0
    """The team's pairing number follows the average rating of its roster's top this many
    players (0: the first ``[team] boards`` of the roster); ties by the team's name."""
    round_dates: tuple[dt.date, ...] = ()
    """The date of each round (may be left out)."""
    initial_colour: InitialColour = InitialColour.WHITE
    """C.04.6 4.1: the colour drawn by lot before round 1 (``"white"`` or ``"black"``): in
    round 1 the first-team of an odd-numbered table's pair gets it."""
    secondary_for_colours: bool = True
    """C.04.6 1.2.1, 4.2.2: the secondary score (game points when match points rank first,
    and the other way round) chooses the first-team of a pair before the pairing number."""
    bye_match_points: float | None = None
    """C.04.6 1.4: the match points of the pairing-allocated bye; default a drawn match's."""
    bye_game_points: float | None = None
    """C.04.6 1.4: the game points of the bye; default a drawn match's (half the boards)."""

    def __post_init__(self) -> None:
        if self.rounds < 1:
            raise ConfigError("", "rounds", f"must be at least 1, got {self.rounds}")
        if self.rating_top < 0:
            raise ConfigError("", "rating_top", "must not be negative")
        for key in ("bye_match_points", "bye_game_points"):
            value = getattr(self, key)
            if value is not None and (value < 0 or value * 2 != int(value * 2)):
                raise ConfigError("", key, f"{value}: a whole or half number, not negative")

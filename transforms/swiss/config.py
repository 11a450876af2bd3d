"""The event.toml tables of a Swiss event (``kind = "swiss"``): ``[swiss]``, the system of
play — rounds, categories, tie-breaks, the Dutch edition, acceleration, the bye's points,
prizes — and how ``[fide_report]`` must agree with it. Loaded by :mod:`transforms.kinds`."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from transforms.core.config import EventInfo
from transforms.core.errors import ConfigError
from transforms.core.model import Acceleration, Colour, DutchEdition
from transforms.fide.rating_report import RatingReportRules
from transforms.fide.tiebreaks import Edition, parse_code


class InitialColour(StrEnum):
    """``swiss.initial_colour``: the colour player 1 gets in round 1 (drawn by lot at the
    venue; FIDE C.04.3 E.5 and TRF ``XXC``)."""

    WHITE = "white"
    """Player 1 (the top seed) has White in round 1."""
    BLACK = "black"
    """Player 1 has Black in round 1."""

    @property
    def colour(self) -> Colour:
        return Colour.WHITE if self is InitialColour.WHITE else Colour.BLACK


@dataclass(frozen=True)
class Category:
    """One Swiss category (section) of the event, e.g. the Open or the Girls."""

    id: str
    """The category's id, as players.csv ``section`` gives it (e.g. ``open``, ``girls``)."""
    name: str
    """Its name as printed."""
    prizes: tuple[Decimal, ...] = ()
    """Prize for place 1, 2, ... (shared or not: ``prizes_shared``)."""
    prizes_note: str = ""
    """Where the prize table comes from (the demo labels its own as an assumption)."""


@dataclass(frozen=True)
class SwissConfig:
    """``[swiss]``: the system of play of a Swiss event."""

    rounds: int
    """Rounds of the event, e.g. 11 (NJ 2024: "Totally, eleven rounds shall be played.")."""
    categories: tuple[Category, ...]
    """The categories (``[[swiss.categories]]``), each paired and ranked on its own."""
    tiebreaks: tuple[str, ...] = ("BH-C1", "BH", "SB", "DE", "WIN", "BWG")
    """FIDE C.07 codes in the order they break ties (each a code of the tie-break registry).
    National Junior 2024 "Tie Break": "(a) Buchholz Cut1 (b) Buchholz (c) Sonneborn Berger (d)
    Direct encounter (e) The greater number of wins (forfeit included) (f) The greater number
    of wins by black"."""
    tiebreak_edition: Edition = Edition.FIDE_2024
    """Which text of FIDE C.07 computes the tie-breaks."""
    dutch_edition: DutchEdition = DutchEdition.RULES_2025
    """Which text of FIDE C.04.3 pairs the rounds."""
    acceleration: Acceleration = Acceleration.NONE
    """FIDE C.04.5: ``"baku"`` adds the Baku method's virtual points (C.04.5.1) to the pairing
    scores of the first rounds, for large opens; the standings never see them."""
    initial_colour: InitialColour = InitialColour.WHITE
    """Player 1's colour in round 1 (drawn by lot at the venue)."""
    pab_points: float = 1.0
    """Points of the pairing-allocated bye (FIDE C.04.1: a win unless the regulations say)."""
    prizes_shared: bool = False
    """Whether players equal after every tie-break share their places' prizes."""
    simulation_seed: int = 1
    """Seed of ``chessfed simulate`` (demo results only)."""

    def __post_init__(self) -> None:
        if self.rounds < 1:
            raise ConfigError("", "rounds", f"must be at least 1, got {self.rounds}")
        if not self.categories:
            raise ConfigError("", "categories", "at least one category is required")
        ids = [c.id for c in self.categories]
        dup = {i for i in ids if ids.count(i) > 1}
        if dup:
            raise ConfigError("", "categories", f"duplicate category id {sorted(dup)[0]!r}")
        for code in self.tiebreaks:
            parse_code(code, key="tiebreaks", file="")

    def category(self, cid: str) -> Category:
        for c in self.categories:
            if c.id == cid:
                return c
        raise KeyError(cid)


def check_fide_report(rules: RatingReportRules, event: EventInfo, swiss: SwissConfig, *,
                      file: str) -> None:
    """DESIGN.md Inputs (event.toml) — ``[fide_report]`` agrees with ``[event]`` and
    ``[swiss]``: one round date per round, within the event's dates; rated categories and
    tournament codes name categories of ``[swiss]``."""
    if len(rules.round_dates) != swiss.rounds:
        raise ConfigError(file, "fide_report.round_dates",
                          f"{len(rules.round_dates)} dates for {swiss.rounds} rounds "
                          "(swiss.rounds): one date per round")
    for i, d in enumerate(rules.round_dates):
        if not event.start <= d <= event.end:
            raise ConfigError(file, f"fide_report.round_dates[{i}]",
                              f"{d} is outside the event ({event.start} - {event.end})")
    cats = {c.id for c in swiss.categories}
    for key, ids in (("categories", rules.categories), ("tournament_codes",
                                                         tuple(rules.tournament_codes))):
        for cid in ids:
            if cid not in cats:
                raise ConfigError(file, f"fide_report.{key}",
                                  f"{cid!r} is not a category of [swiss] ({', '.join(sorted(cats))})")

"""The event.toml table of a round robin (``kind = "round_robin"``): ``[round_robin]``, single
or double, its categories, tie-breaks and how the start numbers are drawn. The rounds follow
from the number of players (FIDE C.05 Annex 1: an odd number plays with a bye as the highest
number). Loaded by :mod:`transforms.kinds`; played by the Swiss kind's run with the Berger
tables instead of the Dutch system (:mod:`transforms.swiss.event`)."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from transforms.core.errors import ConfigError
from transforms.core.model import DutchEdition
from transforms.fide.dutch.state import Board
from transforms.fide.tiebreaks import Edition, parse_code
from transforms.fide.trf import Tournament
from transforms.round_robin.berger import BYE, berger_table, draw_start_numbers
from transforms.swiss.config import Category, SwissConfig

ROUND_ROBIN_TIEBREAKS = ("DE", "WIN", "SB", "KS")
"""FIDE C.07 for individual round robins: direct encounter, number of wins, Sonneborn-Berger,
Koya (the default of ``[round_robin] tiebreaks``)."""


@dataclass(frozen=True)
class RoundRobinConfig:
    """``[round_robin]``: the system of play of a round robin (FIDE C.05 Annex 1, the Berger
    tables)."""

    categories: tuple[Category, ...]
    """The categories (``[[round_robin.categories]]``), each its own round robin."""
    cycles: int = 1
    """1: a single round robin; 2: a double one, the second cycle with the colours reversed
    (and the first cycle's last two rounds swapped, as C.05 Annex 1 recommends)."""
    tiebreaks: tuple[str, ...] = ROUND_ROBIN_TIEBREAKS
    """FIDE C.07 codes in the order they break ties (the registry's codes)."""
    tiebreak_edition: Edition = Edition.FIDE_2024
    """Which text of FIDE C.07 computes the tie-breaks (C.07 15.2: pre-determined pairings)."""
    draw_seed: int | None = None
    """The start numbers are drawn by lot from this seed (the same seed, the same numbers)
    unless players.csv gives every player a ``start_no``; one of the two is needed."""
    prizes_shared: bool = False
    """Whether players equal after every tie-break share their places' prizes."""

    def __post_init__(self) -> None:
        if self.cycles not in (1, 2):
            raise ConfigError("", "cycles", f"must be 1 (single) or 2 (double), got {self.cycles}")
        if not self.categories:
            raise ConfigError("", "categories", "at least one category is required")
        ids = [c.id for c in self.categories]
        dup = {i for i in ids if ids.count(i) > 1}
        if dup:
            raise ConfigError("", "categories", f"duplicate category id {sorted(dup)[0]!r}")
        for code in self.tiebreaks:
            parse_code(code, key="tiebreaks", file="")

    def rounds(self, players: int) -> int:
        """FIDE C.05 Annex 1 — the rounds of a category of ``players``: n − 1 (n even) or n (n
        odd: a bye as the highest number) per cycle."""
        n = players + players % 2
        return self.cycles * max(n - 1, 1)

    def as_swiss(self, rounds: int) -> SwissConfig:
        """The Swiss run's view of the round robin: its rounds, categories, tie-breaks and
        prizes (what it pairs by is the Berger table, not this)."""
        return SwissConfig(rounds=max(rounds, 1), categories=self.categories,
                           tiebreaks=self.tiebreaks, tiebreak_edition=self.tiebreak_edition,
                           pab_points=0.0, prizes_shared=self.prizes_shared)

    def pair(self, t: Tournament, *, round_no: int, rounds: int, edition: DutchEdition,
             players: pl.DataFrame) -> tuple[list[Board], list[str]] | None:
        """FIDE C.05 Annex 1 — round ``round_no`` of the category as the Berger table pairs its
        start numbers (the second cycle of a double round robin with the colours reversed);
        the player paired with the bye (an odd number: the highest number) has no game and
        no board. The Swiss run pairs every round of a round robin this way."""
        n = players.height
        if n < 2:
            return [], []
        boards: list[Board] = [(b.white, b.black) for b in berger_table(n, double=self.cycles == 2)
                  if b.round == round_no and BYE not in (b.white, b.black)]
        return boards, []

    def start_numbers(self, players: pl.DataFrame) -> tuple[pl.DataFrame, str]:
        """FIDE C.05 Annex 1 — the category's start numbers: those players.csv gives (every
        player one, 1 … n, each once), else drawn by lot from ``draw_seed``
        (:func:`draw_start_numbers`); with neither, why none can be given ("" when they can)."""
        given = players["start_no"].drop_nulls().to_list() if "start_no" in players.columns else []
        if len(given) == players.height and sorted(given) == list(range(1, players.height + 1)):
            return players, ""
        if self.draw_seed is None:
            return players, ("a round robin needs its start numbers: players.csv `start_no` "
                             f"1 … {players.height} for every player, or [round_robin] draw_seed "
                             "to draw them by lot")
        drawn = draw_start_numbers(players["player_id"].to_list(), self.draw_seed)
        return players.with_columns(pl.col("player_id").replace_strict(
            drawn, return_dtype=pl.Int64).alias("start_no")), ""

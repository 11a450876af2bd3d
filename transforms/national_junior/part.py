"""National Junior 2024 as a rules part of a Swiss event, switched on by event.toml
``[entries] rules = "national-junior-2024"``: the entry rules (``[entries]``: eligibility,
quotas, fees, seed routes, boarding, odd-number fill; players.csv's extra columns and
associations.csv, :mod:`transforms.national_junior.schemas`) and the rules of play
(``[national_junior]``: the last round's same-state rule, the draw agreement). The Swiss kind
asks the part for what it adds (:mod:`transforms.swiss.parts`); nothing of it runs in an event
without it."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from transforms.core.errors import ConfigError, Finding
from transforms.core.model import DutchEdition
from transforms.fide.dutch.state import Board
from transforms.fide.trf import Tournament
from transforms.national_junior.draw_agreement import flag_early_draws
from transforms.national_junior.same_state import pair_round_same_state

NAME = "national-junior-2024"
"""The part's name in event.toml (``[entries] rules``)."""


@dataclass(frozen=True)
class NationalJuniorPlay:
    """``[national_junior]``: the National Junior's rules of play on top of the FIDE Dutch
    system."""

    last_round_same_state: bool = False
    """National Junior 2024 "System of Play": "Players from the same state shall not be
    paired against each other in the last round. However, they may be paired if there is no
    compatible opponent with the same point group or score group with a maximum difference of
    1 point. It is applicable only for the top 50% score of the penultimate round." (the rule:
    ``transforms/national_junior/same_state.py``)."""
    draw_consent_before_move: int | None = None
    """National Junior 2024 "Draw Agreement": "Players shall not agree for a draw without the
    consent of the arbiter, before each player makes 30 moves": a draw before this move
    without ``draw_consent`` in results.csv is flagged for the arbiter (the rule:
    ``transforms/national_junior/draw_agreement.py``); left out: no such rule."""

    def __post_init__(self) -> None:
        if self.draw_consent_before_move is not None and self.draw_consent_before_move < 1:
            raise ConfigError("", "draw_consent_before_move",
                              f"must be at least 1, got {self.draw_consent_before_move}")

    def check_results(self, results: pl.DataFrame) -> list[Finding]:
        """NJ 2024 Important Rules (draw agreement) — the early draws of results.csv."""
        if self.draw_consent_before_move is None:
            return []
        return flag_early_draws(results, min_moves=self.draw_consent_before_move)

    def pair(self, t: Tournament, *, round_no: int, rounds: int, edition: DutchEdition,
             players: pl.DataFrame) -> tuple[list[Board], list[str]] | None:
        """NJ 2024 System of Play — the last round paired with the same-state rule on top of
        the Dutch pairing (a declared departure from C.04.3); None for every other round."""
        if not self.last_round_same_state or round_no != rounds:
            return None
        states = {sno: st for sno, st in zip(players["sno"], players["state"]) if st}
        names = dict(zip(players["sno"], players["name"]))
        boards, log = pair_round_same_state(t, states, edition=edition, names=names)
        return boards, log or ["The Dutch pairing had no same-state game among the top 50%: "
                               "no pairing was changed."]

"""What an event's rules part may add to a Swiss event (DESIGN.md "Event kinds and rules
parts"): entry rules that accept or reject the entries of players.csv, checks of results.csv,
and a round paired otherwise than by the Dutch system alone. A part is a table of event.toml
whose object has the methods below (the National Junior's: ``[entries]`` and
``[national_junior]``, :mod:`transforms.national_junior.part`); the Swiss run asks each of
the event's parts (``EventConfig.rule_parts``) for what it has, and knows none by name."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import polars as pl

from transforms.core.errors import Finding
from transforms.core.model import DutchEdition
from transforms.core.results import EventResult
from transforms.fide.dutch.state import Board
from transforms.fide.trf import Tournament
from transforms.swiss.config import Category, SwissConfig


@dataclass
class Judged:
    """What entry rules decided about the entries of players.csv."""

    accepted: pl.DataFrame
    """The players the event goes on with."""
    decision: object
    """The rules' own record of every decision, of the rules' own type (the part's pages show
    it: e.g. the National Junior's ``EntryDecision``), None if none."""
    findings: list[Finding] = field(default_factory=list)
    """Rejections and warnings, for the validation report."""
    blocked: str = ""
    """Why nothing can be decided (a file the rules need cannot be read); "" otherwise."""


@runtime_checkable
class EntryRules(Protocol):
    """Rules that accept or reject entries (``typed``: every input file as cast)."""

    def judge(self, players: pl.DataFrame, typed: dict[str, pl.DataFrame],
              findings: list[Finding], *, currency: str,
              earlier: Mapping[str, EventResult] | None = None) -> Judged: ...


@runtime_checkable
class ResultRules(Protocol):
    """Rules that flag results.csv rows for the arbiter (e.g. a draw agreed too early)."""

    def check_results(self, results: pl.DataFrame) -> list[Finding]: ...


@runtime_checkable
class PairingRules(Protocol):
    """Rules that pair a round otherwise than the Dutch system alone (None: not this round)."""

    def pair(self, t: Tournament, *, round_no: int, rounds: int, edition: DutchEdition,
             players: pl.DataFrame) -> tuple[list[Board], list[str]] | None: ...


@runtime_checkable
class FixedSchedule(Protocol):
    """A system of play whose schedule follows from its players rather than from ``[swiss]``
    (a round robin's Berger tables, FIDE C.05 Annex 1): it stands in for ``[swiss]`` — its
    rounds per category from the number of players, its start numbers by its own rule — and
    pairs every round (:class:`PairingRules`). The Swiss run asks the event's parts for one."""

    @property
    def categories(self) -> tuple[Category, ...]: ...

    @property
    def cycles(self) -> int:
        """How many times each pair meets: 1 (a single round robin), 2 (a double one) — what
        the event's TRF names as its type (:func:`transforms.swiss.exports.as_played`)."""
        ...

    def as_swiss(self, rounds: int) -> SwissConfig: ...

    def rounds(self, players: int) -> int: ...

    def start_numbers(self, players: pl.DataFrame) -> tuple[pl.DataFrame, str]: ...

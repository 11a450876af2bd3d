"""A random Swiss tournament paired by chessfed's Dutch engine (``chessfed generate``).

FIDE's rules for endorsing a pairing program (Handbook C.04, "Endorsement of a software
program") ask for a random tournament generator whose output is reproducible from a seed;
the endorsed engines' generators (JaVaFo's and bbpPairings' ``-g`` configuration) take the
number of players and rounds, the highest and lowest rating, a draw percentage and forfeit,
retirement and half-point-bye rates. :class:`GeneratorParams` holds the same parameters.

Every round is paired by ``transforms.fide.dutch.engine.pair_round`` from the very TRF text
the round's file holds (what another engine would read), then the results are drawn:

- ratings: uniform integers in ``[rating_min, rating_max]``, pairing numbers by rating
  (highest first), names ``Player 0001``...; player 1's colour in round 1 is drawn (``XXC``).
- Decision (withdrawals): before every round from round 2 on, each player still in the
  event withdraws with probability ``withdrawal_rate``; a withdrawn player is absent
  (``0000 - -``, no points) in every later round. A withdrawal that would leave fewer than
  two players is not drawn.
- Decision (half-point byes): before every round, each player still in the event asks for
  a half-point bye (``H``) with probability ``hpb_rate``, except in the last round (as
  many events' regulations forbid it), and never when it would leave fewer than two
  players to pair.
- Decision (forfeits): each paired game is a forfeit with probability ``forfeit_rate``;
  the side that does not appear is drawn 50/50 (``+``/``-``), no double forfeits.
- Decision (results): White's expected score ``E = 1 / (1 + 10^((Rb - Rw)/400))`` (FIDE
  rating table's logistic form); a draw with probability ``draw_rate``, a White win with
  probability ``clamp(E - draw_rate/2, 0, 1 - draw_rate)``, else a Black win.
- Decision (no valid pairing): when the engine finds no pairing for a round (absolute
  criteria C1-C3 cannot be met, e.g. too many rounds for the field), the tournament stops
  after the last round paired; :attr:`Generated.stopped_at` says which round failed.

Everything comes from one ``random.Random(seed)`` drawn in a fixed order, so the same
parameters give the same text byte for byte (tests/cli/test_generator.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from transforms.core.errors import NoValidPairing
from transforms.core.model import Colour, DutchEdition, Kind
from transforms.fide.dutch.engine import pair_round
from transforms.fide.trf import Tournament, TrfPlayer, parse_trf, write_trf

Board = tuple[int, "int | None"]


@dataclass(frozen=True)
class GeneratorParams:
    """The generator's parameters (those of the FIDE-endorsed engines' generators); rates are
    probabilities in [0, 1] (JaVaFo's ``DrawPercentage`` 30 is ``draw_rate`` 0.30, its
    ``ForfeitRate`` 1-in-N is ``forfeit_rate`` 1/N)."""

    players: int = 30
    rounds: int = 7
    rating_min: int = 1400
    rating_max: int = 2500
    draw_rate: float = 0.3
    forfeit_rate: float = 0.02
    hpb_rate: float = 0.02
    withdrawal_rate: float = 0.005
    edition: str = "2025"
    seed: int = 1

    def problems(self) -> list[str]:
        """What is wrong with these parameters (empty when they can be generated)."""
        out = []
        if self.players < 2:
            out.append(f"players must be at least 2, not {self.players}")
        if self.rounds < 1:
            out.append(f"rounds must be at least 1, not {self.rounds}")
        if not 0 <= self.rating_min <= self.rating_max <= 3500:
            out.append(f"ratings must satisfy 0 <= min <= max <= 3500, not "
                       f"{self.rating_min}..{self.rating_max}")
        for name, label in (("draw_rate", "draw rate"), ("forfeit_rate", "forfeit rate"),
                            ("hpb_rate", "half-point bye rate"),
                            ("withdrawal_rate", "withdrawal rate")):
            v = getattr(self, name)
            if not 0.0 <= v <= 1.0:
                out.append(f"{label} must be between 0 and 1, not {v}")
        if self.edition not in {e.value for e in DutchEdition}:
            out.append(f"edition must be 2017 or 2025, not {self.edition!r}")
        return out

    @property
    def name(self) -> str:
        return (f"{self.edition}-{self.players}p-{self.rounds}r-seed{self.seed}")


@dataclass(frozen=True)
class Generated:
    """A generated tournament: its final TRF text and how far it got."""

    text: str
    rounds_paired: int
    stopped_at: int | None
    """The round for which no valid pairing existed, else None."""


RoundHook = Callable[[int, str, "list[Board] | None"], None]
"""Called for every round with (round number, the TRF text the round was paired from,
chessfed's boards or None when no valid pairing exists)."""


def generate(params: GeneratorParams, on_round: RoundHook | None = None) -> Generated:
    """Play the tournament ``params`` describes (see the module docstring for the rules)."""
    bad = params.problems()
    if bad:
        raise ValueError("; ".join(bad))
    rng = random.Random(params.seed)
    n = params.players
    ratings = sorted((rng.randint(params.rating_min, params.rating_max) for _ in range(n)),
                     reverse=True)
    initial = Colour.WHITE if rng.random() < 0.5 else Colour.BLACK
    edition = DutchEdition.of(params.edition)
    rows: list[tuple] = []
    active = list(range(1, n + 1))
    withdrawn: list[int] = []
    paired = 0
    stopped = None
    for rnd in range(1, params.rounds + 1):
        if rnd > 1:
            for s in list(active):
                if rng.random() < params.withdrawal_rate and len(active) > 2:
                    active.remove(s)
                    withdrawn.append(s)
        byes = []
        for s in active:
            if rng.random() < params.hpb_rate and rnd < params.rounds:
                byes.append(s)
        if len(active) - len(byes) < 2:
            byes = []
        for s in byes:
            rows.append((rnd, s, None, None, 0.5, str(Kind.HPB)))
        for s in withdrawn:
            rows.append((rnd, s, None, None, 0.0, str(Kind.ABSENT)))
        text = write_trf(_tournament(params, ratings, rows, initial, edition))
        try:
            boards: list[Board] | None = pair_round(parse_trf(text, source=params.name),
                                                    edition=edition)
        except NoValidPairing:
            boards = None
        if on_round is not None:
            on_round(rnd, text, boards)
        if boards is None:
            stopped = rnd
            rows = [r for r in rows if r[0] < rnd]
            break
        paired = rnd
        for w, b in boards:
            if b is None:
                rows.append((rnd, w, None, None, 1.0, str(Kind.PAB)))
                continue
            x = rng.random()
            if x < params.forfeit_rate:
                loser, winner = (w, b) if rng.random() < 0.5 else (b, w)
                for s, o, pts, kind in ((winner, loser, 1.0, Kind.FORFEIT_WIN),
                                        (loser, winner, 0.0, Kind.FORFEIT_LOSS)):
                    rows.append((rnd, s, o, "w" if s == w else "b", pts, str(kind)))
                continue
            pw = _result(ratings[w - 1], ratings[b - 1], params.draw_rate, rng)
            rows.append((rnd, w, b, "w", pw, str(Kind.PLAYED)))
            rows.append((rnd, b, w, "b", 1.0 - pw, str(Kind.PLAYED)))
    final = write_trf(_tournament(params, ratings, rows, initial, edition))
    return Generated(final, paired, stopped)


def _result(r_white: int, r_black: int, draw_rate: float, rng: random.Random) -> float:
    """White's points (see the module's Decision on results)."""
    e = 1.0 / (1.0 + 10 ** ((r_black - r_white) / 400))
    p_win = min(max(e - draw_rate / 2, 0.0), 1.0 - draw_rate)
    x = rng.random()
    return 1.0 if x < p_win else 0.5 if x < p_win + draw_rate else 0.0


def _tournament(params: GeneratorParams, ratings: list[int], rows: list[tuple],
                initial: Colour, edition: DutchEdition) -> Tournament:
    points = {s: 0.0 for s in range(1, params.players + 1)}
    for r in rows:
        points[r[1]] += r[4]
    order = sorted(points, key=lambda s: (-points[s], s))
    rank = {s: i + 1 for i, s in enumerate(order)}
    players = tuple(TrfPlayer(sno=s, name=f"Player {s:04d}", rating=ratings[s - 1],
                              points=points[s], rank=rank[s])
                    for s in range(1, params.players + 1))
    return Tournament(name=f"Generated {params.name}", players=players,
                      card_rows=tuple(sorted(rows, key=lambda r: (r[1], r[0]))),
                      total_rounds=params.rounds, initial_colour=initial, edition=edition)

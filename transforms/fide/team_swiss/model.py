"""FIDE C.04.6 (2026) — the team Swiss engine's vocabulary: what a round is paired from (each
team's state, the round's settings) and what it gives back (the tables, the bye, and why).

Scores are floats: match points and game points are whole or half numbers (an odd number of
boards gives half game points), which a float holds exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from transforms.core.errors import ChessfedError, NoValidPairing
from transforms.core.model import Colour


class PreferenceType(StrEnum):
    """FIDE C.04.6 1.7 — the colour preferences the competition uses."""

    A = "A"
    """Type A (the default, 1.7.1): a simple preference, or none."""
    B = "B"
    """Type B (1.7.2): strong or mild preferences."""
    NONE = "none"
    """No colour preferences: nobody has one, C8 and C9 are always 0."""


class Strength(StrEnum):
    """FIDE C.04.6 1.7 — how much a team wants its colour."""

    SIMPLE = "simple"
    """Type A's only preference."""
    STRONG = "strong"
    """Type B: colour difference beyond one, or the same colour twice running."""
    MILD = "mild"
    """Type B: any other imbalance, or the colour to alternate (not in the last round)."""


@dataclass(frozen=True, slots=True)
class Preference:
    """FIDE C.04.6 1.7 — a team's colour preference."""

    colour: Colour
    """The colour the team wants."""
    strength: Strength
    """Simple (type A), strong or mild (type B)."""


class ColourRule(StrEnum):
    """FIDE C.04.6 4.3 — the rule of the cascade that gave a pair its colours."""

    FIRST_ROUND = "4.3.1"
    """Both teams have yet to play a match: the first-team's TPN parity and the initial-colour."""
    ONE_PREFERENCE = "4.3.2"
    """Only one team has a colour preference: granted."""
    OPPOSITE_PREFERENCES = "4.3.3"
    """Opposite preferences: both granted."""
    ONE_STRONG = "4.3.4"
    """Type B: only one team has a strong preference: granted."""
    LOWER_DIFFERENCE = "4.3.5"
    """White to the team with the lower colour difference."""
    ALTERNATE_LAST_DIFFERENT = "4.3.6"
    """Alternate from the most recent match in which the two teams had different colours."""
    FIRST_TEAM_PREFERENCE = "4.3.7"
    """The first-team's preference."""
    FIRST_TEAM_ALTERNATES = "4.3.8"
    """The first-team alternates from its last played match."""
    OTHER_TEAM_ALTERNATES = "4.3.9"
    """The other team alternates from its last played match."""


@dataclass(frozen=True, slots=True)
class TeamState:
    """FIDE C.04.6 — one team as the round is paired from it (its history before the round)."""

    tpn: int
    """Team pairing number (1.1): fixed for the event, absent teams keep theirs."""
    score: float
    """The primary score (1.2: match points unless the competition says game points)."""
    secondary: float = 0.0
    """The secondary score, used only to choose the first-team (4.2.2)."""
    colours: tuple[Colour, ...] = ()
    """The board-1 colour of each *played* match, in order: forfeits and byes give none
    (1.6.1; GHR 3.4 squeezes them out)."""
    met: frozenset[int] = frozenset()
    """The TPNs of the teams it has played over the board (C1; a forfeited match is no
    meeting, GHR 3.5)."""
    bye_barred: bool = False
    """C2: it already had a pairing-allocated bye, a forfeit win or a full-point bye."""
    floated: bool = False
    """It met a team with a different score in the previous round (1.5; C7, C10)."""
    matches_played: int = 0
    """Matches played over the board (3.4.3; 4.3.1 "yet to play a match")."""
    absent: bool = False
    """Not to be paired this round (withdrawn or known absent, GHR 3.2-3.3)."""
    pairing_score: float | None = None
    """The score the round is paired on, when it differs from ``score`` (an accelerated
    event, C.04.7 1.5: score plus virtual points); ``None`` = ``score``. Scoregroups, the
    bye, C5 and the table order read it; the first-team (4.2) reads ``score``."""

    @property
    def paired_on(self) -> float:
        """FIDE C.04.7 1.5 — the score that places the team in a scoregroup."""
        return self.score if self.pairing_score is None else self.pairing_score

    @property
    def colour_difference(self) -> int:
        """FIDE C.04.6 1.6.2 — matches with White minus matches with Black."""
        return sum(1 if c is Colour.WHITE else -1 for c in self.colours)


@dataclass(frozen=True, slots=True)
class RoundSettings:
    """FIDE C.04.6 — what the competition's rules and the schedule say about this round."""

    round: int
    """The round being paired (1-based)."""
    rounds: int
    """The scheduled number of rounds (C7/C10 are off in the last two, type B's mild
    preferences for alternating in the last one)."""
    preferences: PreferenceType = PreferenceType.A
    """The colour preference type (1.7)."""
    initial_colour: Colour = Colour.WHITE
    """The initial-colour drawn by lot before round 1 (4.1)."""
    secondary_for_colours: bool = True
    """Whether the secondary score chooses the first-team (1.2.1, 4.2.2; default yes, 1.2.2)."""

    @property
    def last_two_rounds(self) -> bool:
        """FIDE C.04.6 2.3.4/2.3.7 — C7 and C10 do not apply in the last two rounds."""
        return self.round > max(self.rounds, self.round) - 2

    @property
    def last_round(self) -> bool:
        """FIDE C.04.6 1.7.2 — the last round (type B: no mild preference at CD 0)."""
        return self.round >= self.rounds


@dataclass(frozen=True, slots=True)
class ByeReport:
    """FIDE C.04.6 3.4 — how the pairing-allocated bye was chosen."""

    team: int
    """Who got it."""
    barred: tuple[int, ...]
    """Teams C2 bars from it (an earlier bye, forfeit win or full-point bye)."""
    skipped: tuple[int, ...]
    """Candidates before it in the 3.4.2-3.4.4 order whose bye would leave the others
    unpairable (3.4.1)."""


@dataclass(frozen=True, slots=True)
class UpfloaterReport:
    """FIDE C.04.6 3.5 — the set of upfloaters a bracket took, and why it is that set."""

    upfloaters: tuple[int, ...]
    """The chosen set in 3.5.3 order (score descending, TPN ascending)."""
    c4: int
    """[C4] how many upfloaters."""
    c5: tuple[float, ...]
    """[C5] their scores, ascending."""
    c6: bool
    """[C6] the following scoregroup can still be paired with the fewest upfloaters (or it
    is empty)."""
    c7: int
    """[C7] upfloaters that floated in the previous round (0 in the last two rounds)."""
    examined: int
    """How many sets were looked at (3.5.4 order, fewer upfloaters and better C5 profiles
    first) before this one was chosen."""
    rejected: tuple[tuple[tuple[int, ...], str], ...]
    """The first sets passed over, each with the reason (at most ten are kept)."""


@dataclass(frozen=True, slots=True)
class PairReport:
    """FIDE C.04.6 4.3 — one pair's colours and the rule that gave them."""

    white: int
    black: int
    first_team: int
    """The first-team of 4.2."""
    rule: ColourRule
    """The first rule of 4.3 that applied."""


@dataclass(frozen=True, slots=True)
class BracketReport:
    """FIDE C.04.6 3.5-3.6 — one bracket: who was in it, and how it was paired."""

    score: float
    """The score of its residents (the top-scoregroup, 3.2)."""
    residents: tuple[int, ...]
    """The teams of the top-scoregroup, by TPN."""
    upfloaters: UpfloaterReport
    identifier: tuple[int, ...]
    """The pairing's identifier (3.6.2): the top members ascending, then each one's bottom
    member in that order."""
    c8: int
    """[C8] pairs whose two teams prefer the same colour (one is not granted)."""
    c9: int
    """[C9] type B: pairs whose two teams both strongly prefer the same colour."""
    c10: int
    """[C10] upfloaters' opponents that floated in the previous round (0 in the last two
    rounds)."""
    pairs: tuple[tuple[int, int], ...]
    """The pairs (top member, bottom member) in the identifier's order."""


@dataclass(frozen=True, slots=True)
class TeamRound:
    """FIDE C.04.6 — a paired round: the tables, the bye, and the explanation."""

    round: int
    pairs: tuple[tuple[int, int], ...]
    """(white TPN, black TPN) in the order of the tables (GHR 3.6)."""
    bye: int | None
    """The team with the pairing-allocated bye (listed after the last table), or None."""
    bye_report: ByeReport | None
    brackets: tuple[BracketReport, ...]
    """The brackets in the order they were paired (top score first)."""
    colours: tuple[PairReport, ...]
    """Each table's colour rule, in table order."""
    absent: tuple[int, ...] = ()
    """Teams not paired this round."""

    def explanation(self) -> list[str]:
        """FIDE C.04.6 — the round in an arbiter's words, one line per step."""
        out = [f"Round {self.round}" + (f" (absent: {_tpns(self.absent)})" if self.absent
                                         else "")]
        if self.bye_report is not None:
            b = self.bye_report
            why = []
            if b.barred:
                why.append(f"C2 bars {_tpns(b.barred)}")
            if b.skipped:
                why.append(f"3.4.1: the bye to {_tpns(b.skipped)} would leave the others "
                           "unpairable")
            out.append(f"Bye (3.4): team {b.team} — lowest score, most matches played, "
                       "largest TPN" + (f"; {'; '.join(why)}" if why else ""))
        for br in self.brackets:
            u = br.upfloaters
            head = f"Bracket {_score(br.score)}: residents {_tpns(br.residents)}"
            if u.c4:
                head += (f"; upfloaters {_tpns(u.upfloaters)} (C4 {u.c4}, C5 "
                         f"{'/'.join(_score(s) for s in u.c5)}, C6 "
                         f"{'complied' if u.c6 else 'not complied'}, C7 {u.c7}; set "
                         f"{u.examined} of those examined)")
            out.append(head)
            for s, reason in u.rejected:
                out.append(f"  passed over {{{', '.join(map(str, s))}}}: {reason}")
            out.append(f"  identifier {' '.join(map(str, br.identifier))}; C8 {br.c8}, "
                       f"C9 {br.c9}, C10 {br.c10}")
        for p in self.colours:
            out.append(f"Table {p.white}-{p.black}: colours by {p.rule.value} "
                       f"(first-team {p.first_team})")
        if self.bye is not None:
            out.append(f"Bye: team {self.bye}")
        return out


def _tpns(tpns: tuple[int, ...]) -> str:
    return ", ".join(map(str, tpns))


def _score(s: float) -> str:
    return f"{s:g}"


class InvalidTeamInput(ChessfedError):
    """FIDE C.04.6 1.1 — a round's input that cannot be paired as given (quotes the value)."""


class NoTeamPairing(NoValidPairing):
    """FIDE C.04.6 3.3.3 — the round cannot be completed: the Chief Arbiter decides."""

    def __init__(self, teams: tuple[int, ...], reason: str):
        self.teams = teams
        self.reason = reason
        super().__init__(f"FIDE C.04.6 3.3.3: {reason} (teams left: {_tpns(teams)}); "
                         "the round cannot be completed, the Chief Arbiter decides")

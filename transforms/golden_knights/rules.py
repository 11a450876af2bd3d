"""Golden Knights configuration: every parameter the 2017-2020 regulations give.

The lead builds :class:`GKRules` from ``event.toml`` (table ``[golden_knights]``); each field
name below is the TOML key. Defaults are the 2017-2020 text (seed ``000_*.txt``).

| field | rule | default |
|---|---|---|
| ``entry_fee`` | 8 | 25.00 (USD, rule 1) |
| ``max_entries_per_member`` | 8 | 10 |
| ``entry_deadlines`` | 9 | ((1, 12-31), (2, 09-30), (4, 08-31), (7, 07-31), (10, 06-30)) |
| ``entries_open`` | 9 | (12, 1) of the previous year |
| ``pairings_start`` | 9 | (1, 1) of the event year |
| ``residence_countries`` | 1 | North America and its islands, ISO alpha-2 |
| ``excluded_regions`` | 1 | US territories outside North America |
| ``accept_apo_fpo`` | 1 | True |
| ``section_size`` | 2 | 7 |
| ``games_per_player`` / ``whites_per_player`` | 2 | 6 / 3 |
| ``advance_score`` / ``fallback_score`` | 3 | 4.5 / 4.0 |
| ``stage_weights`` | 6 | 1.0 / 2.2 / 4.5 |
| ``prize_table`` / ``prize_base_entries`` | 5 | 800, 500, 300, 100×7 / 200 |
| ``gift_certificate`` | 4 | 7.00 |
| ``reflection_penalty_days`` | 12 | 5 |
| ``membership_warning_days`` | 1 | 90 |
| ``director`` | 7 | Correspondence Chess Director (signs the certificates, rule 4) |
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from transforms.core.errors import ConfigError


class Stage(StrEnum):
    """Golden Knights stages (GK rule 2), in the order they are played."""

    PRELIMINARY = "preliminary"
    """The first stage: "The tournament will consist of three rounds (preliminaries,
    semifinals, and finals)" (rule 2); "each game won in the preliminary round will count as
    1.0" (rule 6)."""
    SEMIFINAL = "semifinal"
    """The second stage, for those who advance from the preliminaries (rule 3); "Each game
    won in the semi-final round will count as 2.2" (rule 6)."""
    FINAL = "final"
    """The third stage; "Each game won in the final round will count as 4.5" (rule 6)."""

    @property
    def next(self) -> Stage | None:
        """The stage its qualifiers advance to (GK rule 3); None after the final."""
        stages = list(Stage)
        i = stages.index(self)
        return stages[i + 1] if i + 1 < len(stages) else None


STAGE_WORDINGS: dict[Stage, tuple[str, ...]] = {
    Stage.PRELIMINARY: ("preliminaries", "preliminary round", "prelims"),
    Stage.SEMIFINAL: ("semifinals", "semi-final", "semi-finals", "semi-final round"),
    Stage.FINAL: ("finals", "final round"),
}
"""The stages as GK rules 2, 3 and 12 write them ("preliminaries, semifinals, and finals",
"Semi-Final rounds")."""


class Channel(StrEnum):
    """How an entry was received (entries.csv ``channel``; rule 9: "online processing date or
    postmark")."""

    ONLINE = "online"
    """"Single entries must be processed online or postmarked by December 31" (rule 9):
    processed online; ``received`` is the online processing date."""
    MAIL = "mail"
    """Sent by mail ("postmarked", rule 9); ``received`` is the postmark date."""


CHANNEL_WORDINGS: dict[Channel, tuple[str, ...]] = {
    Channel.ONLINE: ("Online processing", "Processed online"),
    Channel.MAIL: ("Postmark", "Postmarked", "Post", "By mail"),
}
"""Other wordings of :class:`Channel` (rule 9: "processed online or postmarked")."""


class EntryStatus(StrEnum):
    """What rules 1, 8 and 9 make of an entry (entries.csv output ``status``)."""

    ACCEPTED = "accepted"
    """Plays in this year's event."""
    CARRIED_FORWARD = "carried_forward"
    """Received after its deadline: moved to next year's event (rule 9)."""
    REJECTED = "rejected"
    """Not a member, not resident, fee unpaid, over ten entries (rules 1, 8)."""


class OverrideKind(StrEnum):
    """The director's decisions (rule 7, overrides.csv ``kind``): "the decision of the US
    Chess Correspondence Chess Director (CCD) shall be final in all matters regarding the
    conduct of the tournament, including acceptance and classification of entries, the
    adjudication of games, the distribution of prizes, and all interpretations of the rules
    and regulations"."""

    ENTRY_STATUS = "entry_status"
    """"acceptance and classification of entries": ``entry_id``'s status; ``value`` is
    accepted, carried_forward or rejected."""
    RESULT = "result"
    """"the adjudication of games": the game of ``entry_id`` and ``opponent`` in ``stage`` and
    ``section``; ``value`` is the result from entry_id's side (1-0: entry_id won; +/-: won by
    forfeit; empty or *: back in progress)."""
    ADVANCE = "advance"
    """"the conduct of the tournament": whether ``entry_id`` advances from ``stage``
    (rule 3); ``value`` is yes or no."""
    PRIZE_ELIGIBLE = "prize_eligible"
    """"the distribution of prizes": whether ``entry_id`` may win a prize (rule 4: all three
    rounds "with no forfeit losses"); ``value`` is yes or no."""
    PRIZE = "prize"
    """"the distribution of prizes": ``entry_id``'s prize in dollars, replacing the computed
    one (0 removes it)."""


OVERRIDE_KIND_WORDINGS: dict[OverrideKind, tuple[str, ...]] = {
    OverrideKind.ENTRY_STATUS: ("Acceptance of entry",),
    OverrideKind.RESULT: ("Adjudication", "Adjudicated result"),
    OverrideKind.ADVANCE: ("Advancement",),
    OverrideKind.PRIZE_ELIGIBLE: ("Prize eligibility",),
    OverrideKind.PRIZE: ("Prize amount",),
}
"""Other wordings of :class:`OverrideKind` (the codes also match with spaces for ``_``)."""


# North American continent and islands (rule 1), ISO 3166-1 alpha-2: North and Central
# America, the Caribbean states and territories, Greenland, Bermuda, Saint Pierre & Miquelon.
NORTH_AMERICA: tuple[str, ...] = (
    "US", "CA", "MX", "GL", "BM", "PM",
    # Central America
    "BZ", "CR", "SV", "GT", "HN", "NI", "PA",
    # Caribbean
    "AG", "AI", "AW", "BB", "BL", "BQ", "BS", "CU", "CW", "DM", "DO", "GD", "GP", "HT", "JM",
    "KN", "KY", "LC", "MF", "MQ", "MS", "PR", "SX", "TC", "TT", "VC", "VG", "VI",
)



@dataclass(frozen=True, slots=True)
class GKRules:
    """GK rules 1-12 as numbers. Frozen; validated in ``__post_init__`` (ConfigError names the key)."""

    entry_fee: Decimal = Decimal("25.00")
    """Rule 8: fee per entry, USD (rule 1). An entry that paid less is rejected."""
    max_entries_per_member: int = 10
    """Rule 8: a member may enter up to this many times per event."""
    entry_deadlines: tuple[tuple[int, tuple[int, int]], ...] = (
        (1, (12, 31)), (2, (9, 30)), (4, (8, 31)), (7, (7, 31)), (10, (6, 30)),
    )
    """Rule 9: (up to k entries, (month, day) in the event year). The k-th entry of a member
    must be received by the deadline of the first row whose k is >= its rank."""
    entries_open: tuple[int, int] = (12, 1)
    """Rule 9: (month, day) of the previous year from which entries are received."""
    pairings_start: tuple[int, int] = (1, 1)
    """Rule 9: (month, day) of the event year from which sections are made."""
    residence_countries: tuple[str, ...] = NORTH_AMERICA
    """Rule 1: ISO alpha-2 countries that count as North America and its islands (Hawaii is US)."""
    excluded_regions: tuple[str, ...] = ("US-GU", "US-AS", "US-MP", "US-UM")
    """Rule 1: ``COUNTRY-REGION`` codes inside a listed country that are not North America
    (US Pacific territories; Hawaii is named by the rule and stays in)."""
    accept_apo_fpo: bool = True
    """Rule 1: members with an APO/FPO address are eligible wherever they are."""
    section_size: int = 7
    """Rule 2: players per section."""
    games_per_player: int = 6
    """Rule 2: games each player is assigned per stage."""
    whites_per_player: int = 3
    """Rule 2: of which with White."""
    advance_score: float = 4.5
    """Rule 3: this score or more advances."""
    fallback_score: float = 4.0
    """Rule 3: if nobody in a section reaches ``advance_score``, this score advances; also the
    score of players who may fill the last semifinal / final section."""
    stage_weights: tuple[Decimal, Decimal, Decimal] = (Decimal("1.0"), Decimal("2.2"), Decimal("4.5"))
    """Rule 6: weighted value of a win in preliminary, semifinal, final; a draw is half."""
    prize_table: tuple[Decimal, ...] = (
        Decimal(800), Decimal(500), Decimal(300), *(Decimal(100),) * 7,
    )
    """Rule 5: prizes by place for ``prize_base_entries`` entries."""
    prize_base_entries: int = 200
    """Rule 5: the prize fund is scaled by entries assigned / this number."""
    gift_certificate: Decimal = Decimal("7.00")
    """Rule 4: value of the gift certificate for each preliminary non-qualifier."""
    reflection_penalty_days: int = 5
    """Rule 12.1: reflection-time penalty for a first overstep in preliminaries/semifinals."""
    membership_warning_days: int = 90
    """Rule 1: flag active players whose membership lapses within this many days of ``as_of``."""
    director: str = "Correspondence Chess Director"
    """Rule 7: the official whose decisions are final; signs the certificates (rule 4)."""
    def __post_init__(self) -> None:
        """Checks of the values; a :class:`ConfigError` keyed relative to ``[golden_knights]``
        (the loader, ``transforms.core.config``, names the file and the full key)."""

        def bad(key: str, reason: str) -> ConfigError:
            return ConfigError("", key, reason)

        if self.entry_fee < 0:
            raise bad("entry_fee", f"must be >= 0, got {self.entry_fee}")
        if self.max_entries_per_member < 1:
            raise bad("max_entries_per_member", "must be >= 1")
        ks = [k for k, _ in self.entry_deadlines]
        if not ks or ks != sorted(ks) or len(set(ks)) != len(ks):
            raise bad("entry_deadlines", f"counts must be strictly increasing, got {ks}")
        if ks[-1] < self.max_entries_per_member:
            raise bad("entry_deadlines", f"no deadline for {self.max_entries_per_member} entries")
        for _, (m, d) in self.entry_deadlines:
            _checked_date(2000, m, d, bad("entry_deadlines", f"bad month/day {(m, d)}"))
        _checked_date(2000, *self.entries_open, bad("entries_open", "bad month/day"))
        _checked_date(2000, *self.pairings_start, bad("pairings_start", "bad month/day"))
        if self.section_size < 2 or self.section_size % 2 == 0:
            raise bad("section_size", "must be odd (a single round robin with equal colours)")
        if self.games_per_player != self.section_size - 1:
            raise bad("games_per_player", "must be section_size - 1 (everyone meets everyone)")
        if self.whites_per_player * 2 != self.games_per_player:
            raise bad("whites_per_player", "must be half of games_per_player")
        if not self.fallback_score <= self.advance_score:
            raise bad("fallback_score", "must not exceed advance_score")
        if len(self.stage_weights) != 3:
            raise bad("stage_weights", "needs three weights: preliminary, semifinal, final")
        for w in self.stage_weights:
            if (Decimal(w) * 50) % 1 != 0:
                raise bad("stage_weights", f"{w}: weights must be multiples of 0.02 (exact half-points in cents)")
        if self.prize_base_entries < 1:
            raise bad("prize_base_entries", "must be >= 1")

    def deadline(self, rank: int, event_year: int) -> dt.date | None:
        """Rule 9: the date by which a member's ``rank``-th entry must be received (None: over the limit)."""
        if rank > self.max_entries_per_member:
            return None
        for k, (m, d) in self.entry_deadlines:
            if rank <= k:
                return dt.date(event_year, m, d)
        return None

    def opening(self, event_year: int) -> dt.date:
        return dt.date(event_year - 1, *self.entries_open)

    def pairing_start(self, event_year: int) -> dt.date:
        return dt.date(event_year, *self.pairings_start)

    def weight_cents(self, stage: Stage | str) -> int:
        """Rule 6: a win's weighted value in hundredths (a draw is half of it)."""
        return int(Decimal(self.stage_weights[list(Stage).index(Stage(stage))]) * 100)


def _checked_date(year: int, month: int, day: int, err: ConfigError) -> None:
    try:
        dt.date(year, month, day)
    except (ValueError, TypeError):
        raise err from None

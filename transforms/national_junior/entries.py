"""National Junior (U-19) 2024 — entries, eligibility, fees and boarding.

Seed ``004_57e04720007abfb4.txt`` (53rd National Junior U-19 and 38th National Junior Girls
U-19 Championships 2024), sections *Age Limit*, *Entries/Entry Fee*, *Eligibility*, *Entry
Fee Structure* and *Important Rules & Regulations*.

| rule (seed text)                                              | function                  |
|---------------------------------------------------------------|---------------------------|
| Age Limit — born on or after 1.1.2005                         | age_limit                 |
| Eligibility — only Indian nationals                           | indian_nationals_only     |
| Important Rules — AICF registration 2024-25                   | aicf_registration         |
| Eligibility — two categories, Open and Girls                  | known_category            |
| Eligibility — Girls section is for girls; girls may play Open | girls_section_female      |
| Eligibility — the entry routes                                | known_entry_type          |
| Entries — all entries come through the State Association      | through_state_association |
| Important Rules — arrears must be cleared                     | arrears_cleared           |
| Eligibility — seeded players (the listed routes)              | seeded_route              |
| Eligibility — host's two additional players; odd fill by host | host_entries_from_host    |
| Eligibility — medal-state additional entries (the table)      | medal_bonus_state         |
| Late fee — no entry after 09 September 2024 (up to 17:00 hrs) | closing_time              |
| Eligibility — four players per association per category       | quota_per_association     |
| Eligibility — host's two additional players per category      | host_additional_entries   |
| Eligibility — AICF Secretary's discretionary seat             | secretary_seat            |
| Eligibility — two players from areas without an association   | no_association_seats      |
| Eligibility — 3/2/1 entries for the 2023 medal states         | medal_bonus_entries       |
| Eligibility — odd number at the start: host adds one          | odd_number_fill           |
| Entry Fee Structure — Rs 2,000 ordinary, Rs 7,500 special     | entry_fee                 |
| Late fee — Rs 250 per player after 02 September               | late_fee                  |
| Important Rules — Rs 1,500 boarding lump sum                  | boarding_lump_sum         |

Out of scope for a batch job (checked by people): attested birth certificates, the
rank-list proof for medal-state entries, AICF approval of no-association players, dormitory
accommodation, protests and fair-play complaints, electronic items, disqualification.

Money is ``decimal.Decimal`` in the configuration and ``pl.Decimal(12, 2)`` (rupees with
paise) in every frame, so fees, payments and balances add up exactly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum
from types import MappingProxyType
from typing import Any, TypeVar

import polars as pl

from transforms.core.errors import ConfigError, Finding, InputError, Severity
from transforms.core.ingest import unusable
from transforms.core.model import MONEY, Gender
from transforms.core.money import symbol
from transforms.core.results import EventResult, Finish, source_name_ok
from transforms.season.members import name_words
from transforms.swiss.parts import Judged

PLAYERS_FILE = "players.csv"
_DT_FORMAT = "%Y-%m-%dT%H:%M"





class EntryType(StrEnum):
    """The route an entry comes through (players.csv ``entry_type``), as the seed's
    *Eligibility* list gives them."""

    QUOTA = "quota"
    """"Four players in each category from every affiliated State Association of AICF. If
    any Association fails to send its quota, the vacancies so caused will not be filled." One
    of the four."""
    SEEDED = "seeded"
    """"... are eligible to participate as seeded players": a seeded player; ``seed_reason``
    names the route."""
    SPECIAL = "special"
    """"Any other player who remits the prescribed special entry Fee of Rs.7,500/-. Such
    entries should come through the respective affiliated State Association." Pays the
    special fee."""
    HOST = "host"
    """"Host The Haryana Chess Association is entitled to fill two additional players in each
    category." One of the two (``state`` is the host's)."""
    SECRETARY = "secretary"
    """"The AICF Secretary has a discretionary seat in each category in this Championship."
    The Secretary's seat (``state``: an affiliated association, or empty)."""
    NO_ASSOCIATION = "no_association"
    """"Two players in each category approved by AICF will be permitted from areas where no
    State Association exists." One of the two (``state`` empty)."""
    MEDAL_BONUS = "medal_bonus"
    """"three additional entries from the state which won gold, two entries from the state
    which won the silver and one additional entry from the state which won the bronze in the
    National Junior Chess Championships 2023 shall be accepted." One of them."""
    ODD_FILL = "odd_fill"
    """"If the number of participants at the start of the championship is an odd number in a
    category, the host association can add one entry to make it even." That entry."""


ENTRY_TYPE_WORDINGS: Mapping[EntryType, tuple[str, ...]] = MappingProxyType({
    EntryType.QUOTA: ("State quota", "Quota entry"),
    EntryType.SEEDED: ("Seeded player", "Seeded entry"),
    EntryType.SPECIAL: ("Special entry",),
    EntryType.HOST: ("Host entry", "Host's additional player"),
    EntryType.SECRETARY: ("AICF Secretary's seat", "Secretary's discretionary seat"),
    EntryType.NO_ASSOCIATION: ("No State Association", "Area without a State Association"),
    EntryType.MEDAL_BONUS: ("Medal-state entry", "Medal-state additional entry"),
    EntryType.ODD_FILL: ("Odd-number fill", "Odd number fill"),
})
"""Other wordings of :class:`EntryType` an office writes (matched ignoring case and spaces)."""


class SeedReason(StrEnum):
    """The seeded-player routes of the seed's *Eligibility* list (players.csv
    ``seed_reason``). The national championships seed "in their respective categories": a
    route earned in a Girls championship seeds into Girls, one earned in an Open championship
    into Open, so their codes end with that category; a Girls title leads to the Open section
    only by the two routes the seed names (``ng19_2023_top2_open``,
    ``ngu17_2023_champion_open``). Decision: the world, Asian and national-champion routes are
    split the same way (the category of the title earned), so that no other Girls title seeds
    into Open; the title routes name their section."""

    NJ2023_TOP4_OPEN = "nj2023_top4_open"
    """"Top four players from 2023 National Junior (Under-19) Open & Girls Chess Championships
    are eligible to participate as seeded players in their respective categories subject to
    age stipulation." Top four of the Open championship: seeded into Open."""
    NJ2023_TOP4_GIRLS = "nj2023_top4_girls"
    """The same text: top four of the Girls championship, seeded into Girls."""
    NU17_2023_TOP2_OPEN = "nu17_2023_top2_open"
    """"The top two players from 2023 National U-17 Open and Girls Championships are eligible
    to participate as seeded players in their respective categories." Top two of the U-17
    Open: seeded into Open."""
    NU17_2023_TOP2_GIRLS = "nu17_2023_top2_girls"
    """The same text: top two of the U-17 Girls, seeded into Girls."""
    NU15_2023_CHAMPION_OPEN = "nu15_2023_champion_open"
    """"The Champions from 2023 National Under-15 Open & Girls Chess Championships are
    eligible to participate as seeded player in their respective category." The U-15 Open
    champion: seeded into Open."""
    NU15_2023_CHAMPION_GIRLS = "nu15_2023_champion_girls"
    """The same text: the U-15 Girls champion, seeded into Girls."""
    WORLD_CHAMPION_2023_OPEN = "world_champion_2023_open"
    """"World Champion in any over the board category from the year 2023 subject to age
    stipulation." A world title of an open category: seeded into Open."""
    WORLD_CHAMPION_2023_GIRLS = "world_champion_2023_girls"
    """The same text: a world title of a girls' category, seeded into Girls."""
    WORLD_U18_U20_2_3_OPEN = "world_u18_u20_2_3_open"
    """"2023 World No.2 & 3 Under-18 and Under-20 categories subject to age stipulation."
    Second or third in an open U-18 or U-20 world championship: seeded into Open."""
    WORLD_U18_U20_2_3_GIRLS = "world_u18_u20_2_3_girls"
    """The same text: second or third in a girls' U-18 or U-20 world championship, seeded
    into Girls."""
    ASIAN_U20_TOP3_OPEN = "asian_u20_top3_open"
    """"2023 Asian U-20 top three rankers subject to age stipulation." Top three of the open
    Asian U-20: seeded into Open."""
    ASIAN_U20_TOP3_GIRLS = "asian_u20_top3_girls"
    """The same text: top three of the girls' Asian U-20, seeded into Girls."""
    ASIAN_U18_CHAMPION_OPEN = "asian_u18_champion_open"
    """"2023 Asian Under-18 Champion." The open Asian U-18 champion: seeded into Open."""
    ASIAN_U18_CHAMPION_GIRLS = "asian_u18_champion_girls"
    """The same text: the girls' Asian U-18 champion, seeded into Girls."""
    NG19_2023_TOP2_OPEN = "ng19_2023_top2_open"
    """"The winner and runner up of 2023 National U-19 Girls Championship are eligible to play
    in open section subject to age stipulation." A Girls title seeding into Open (a girl
    only)."""
    NGU17_2023_CHAMPION_OPEN = "ngu17_2023_champion_open"
    """"The winner of 2023 National Under-17 Girls Championship is eligible to play in open
    section." A Girls title seeding into Open (a girl only)."""
    NATIONAL_CHAMPION_HIGHER_OPEN = "national_champion_higher_open"
    """"Current National Over the Board Champion in any higher category subject to age
    stipulation." The champion of an open higher category: seeded into Open."""
    NATIONAL_CHAMPION_HIGHER_GIRLS = "national_champion_higher_girls"
    """The same text: the champion of a girls' higher category, seeded into Girls."""
    TITLE_GM_IM = "title_gm_im"
    """"All GMs / IMs are seeded in Open Section ... subject to age stipulation." Into Open;
    needs the title GM or IM in ``title``."""
    TITLE_WGM_WIM = "title_wgm_wim"
    """"... and all WGMs / WIMs are seeded in Girls Section subject to age stipulation." Into
    Girls; needs the title WGM or WIM in ``title``."""


SEED_REASON_WORDINGS: Mapping[SeedReason, tuple[str, ...]] = MappingProxyType({
    SeedReason.NJ2023_TOP4_OPEN: (
        "Top four, 2023 National Junior (U-19) Open Championship",
        "Top four, 2023 National Junior (Under-19) Open Chess Championship"),
    SeedReason.NJ2023_TOP4_GIRLS: (
        "Top four, 2023 National Junior (U-19) Girls Championship",
        "Top four, 2023 National Junior (Under-19) Girls Chess Championship"),
    SeedReason.NU17_2023_TOP2_OPEN: (
        "Top two, 2023 National U-17 Open Championship",
        "Top two, 2023 National Under-17 Open Championship"),
    SeedReason.NU17_2023_TOP2_GIRLS: (
        "Top two, 2023 National U-17 Girls Championship",
        "Top two, 2023 National Under-17 Girls Championship"),
    SeedReason.NU15_2023_CHAMPION_OPEN: (
        "Champion, 2023 National Under-15 Open Championship",
        "Champion, 2023 National U-15 Open Championship"),
    SeedReason.NU15_2023_CHAMPION_GIRLS: (
        "Champion, 2023 National Under-15 Girls Championship",
        "Champion, 2023 National U-15 Girls Championship"),
    SeedReason.WORLD_CHAMPION_2023_OPEN: ("World Champion 2023, open category",),
    SeedReason.WORLD_CHAMPION_2023_GIRLS: ("World Champion 2023, girls category",),
    SeedReason.WORLD_U18_U20_2_3_OPEN: ("2023 World No. 2 or 3, Under-18 or Under-20 Open",),
    SeedReason.WORLD_U18_U20_2_3_GIRLS: ("2023 World No. 2 or 3, Under-18 or Under-20 Girls",),
    SeedReason.ASIAN_U20_TOP3_OPEN: ("2023 Asian U-20 Open top three",),
    SeedReason.ASIAN_U20_TOP3_GIRLS: ("2023 Asian U-20 Girls top three",),
    SeedReason.ASIAN_U18_CHAMPION_OPEN: ("2023 Asian Under-18 Open Champion",),
    SeedReason.ASIAN_U18_CHAMPION_GIRLS: ("2023 Asian Under-18 Girls Champion",),
    SeedReason.NG19_2023_TOP2_OPEN: (
        "Winner or runner-up, 2023 National U-19 Girls Championship, in the Open section",
        "Winner, 2023 National U-19 Girls Championship, in the Open section",
        "Runner-up, 2023 National U-19 Girls Championship, in the Open section"),
    SeedReason.NGU17_2023_CHAMPION_OPEN: (
        "Winner, 2023 National Under-17 Girls Championship, in the Open section",
        "Winner, 2023 National U-17 Girls Championship, in the Open section"),
    SeedReason.NATIONAL_CHAMPION_HIGHER_OPEN: ("Current National Champion, higher open category",),
    SeedReason.NATIONAL_CHAMPION_HIGHER_GIRLS: (
        "Current National Champion, higher girls category",),
    SeedReason.TITLE_GM_IM: ("GM / IM",),
    SeedReason.TITLE_WGM_WIM: ("WGM / WIM",),
})
"""The regulation's wording of each route, as an office may write it instead of the code
(matched ignoring case and spaces)."""

RETIRED_SEED_REASONS: Mapping[str, tuple[SeedReason, ...]] = MappingProxyType({
    "nj2023_top4": (SeedReason.NJ2023_TOP4_OPEN, SeedReason.NJ2023_TOP4_GIRLS),
    "nu17_2023_top2": (SeedReason.NU17_2023_TOP2_OPEN, SeedReason.NU17_2023_TOP2_GIRLS),
    "nu15_2023_champion": (SeedReason.NU15_2023_CHAMPION_OPEN,
                           SeedReason.NU15_2023_CHAMPION_GIRLS),
    "world_champion_2023": (SeedReason.WORLD_CHAMPION_2023_OPEN,
                            SeedReason.WORLD_CHAMPION_2023_GIRLS),
    "world_u18_u20_2_3": (SeedReason.WORLD_U18_U20_2_3_OPEN, SeedReason.WORLD_U18_U20_2_3_GIRLS),
    "asian_u20_top3": (SeedReason.ASIAN_U20_TOP3_OPEN, SeedReason.ASIAN_U20_TOP3_GIRLS),
    "asian_u18_champion": (SeedReason.ASIAN_U18_CHAMPION_OPEN, SeedReason.ASIAN_U18_CHAMPION_GIRLS),
    "national_champion_higher": (SeedReason.NATIONAL_CHAMPION_HIGHER_OPEN,
                                 SeedReason.NATIONAL_CHAMPION_HIGHER_GIRLS),
})
"""Former codes of one route for the Open and the Girls title of one championship.
Decision: they are rejected, and the rejection names the two codes that replace them: which
one applies depends on the championship the route was earned in, which the old code does
not say."""


_K = TypeVar("_K")
_V = TypeVar("_V")


def _frozen(mapping: Mapping[_K, _V]) -> MappingProxyType[_K, _V]:
    return MappingProxyType(dict(mapping))


_OPEN = frozenset({"open"})
_GIRLS = frozenset({"girls"})

DEFAULT_SEED_ROUTES: Mapping[str, frozenset[str]] = _frozen(
    {
        SeedReason.NJ2023_TOP4_OPEN: _OPEN,
        SeedReason.NJ2023_TOP4_GIRLS: _GIRLS,
        SeedReason.NU17_2023_TOP2_OPEN: _OPEN,
        SeedReason.NU17_2023_TOP2_GIRLS: _GIRLS,
        SeedReason.NU15_2023_CHAMPION_OPEN: _OPEN,
        SeedReason.NU15_2023_CHAMPION_GIRLS: _GIRLS,
        SeedReason.WORLD_CHAMPION_2023_OPEN: _OPEN,
        SeedReason.WORLD_CHAMPION_2023_GIRLS: _GIRLS,
        SeedReason.WORLD_U18_U20_2_3_OPEN: _OPEN,
        SeedReason.WORLD_U18_U20_2_3_GIRLS: _GIRLS,
        SeedReason.ASIAN_U20_TOP3_OPEN: _OPEN,
        SeedReason.ASIAN_U20_TOP3_GIRLS: _GIRLS,
        SeedReason.ASIAN_U18_CHAMPION_OPEN: _OPEN,
        SeedReason.ASIAN_U18_CHAMPION_GIRLS: _GIRLS,
        SeedReason.NG19_2023_TOP2_OPEN: _OPEN,
        SeedReason.NGU17_2023_CHAMPION_OPEN: _OPEN,
        SeedReason.NATIONAL_CHAMPION_HIGHER_OPEN: _OPEN,
        SeedReason.NATIONAL_CHAMPION_HIGHER_GIRLS: _GIRLS,
        SeedReason.TITLE_GM_IM: _OPEN,
        SeedReason.TITLE_WGM_WIM: _GIRLS,
    }
)
"""Seed route -> the categories it seeds into (see :class:`SeedReason`)."""

DEFAULT_GIRLS_SEED_ROUTES: frozenset[str] = frozenset(
    {
        SeedReason.NJ2023_TOP4_GIRLS,
        SeedReason.NU17_2023_TOP2_GIRLS,
        SeedReason.NU15_2023_CHAMPION_GIRLS,
        SeedReason.WORLD_CHAMPION_2023_GIRLS,
        SeedReason.WORLD_U18_U20_2_3_GIRLS,
        SeedReason.ASIAN_U20_TOP3_GIRLS,
        SeedReason.ASIAN_U18_CHAMPION_GIRLS,
        SeedReason.NATIONAL_CHAMPION_HIGHER_GIRLS,
        SeedReason.NG19_2023_TOP2_OPEN,
        SeedReason.NGU17_2023_CHAMPION_OPEN,
    }
)
"""Seed routes earned in a Girls championship: only a girl holds them."""

DEFAULT_SEED_TITLES: Mapping[str, frozenset[str]] = _frozen(
    {
        SeedReason.TITLE_GM_IM: frozenset({"GM", "IM"}),
        SeedReason.TITLE_WGM_WIM: frozenset({"WGM", "WIM"}),
    }
)
"""Seed route -> the titles (players.csv ``title``) the route requires."""

DEFAULT_MEDAL_BONUS: Mapping[str, Mapping[str, int]] = _frozen(
    {
        "open": _frozen({"TG": 3, "TN": 2, "RJ": 1}),
        "girls": _frozen({"UP": 3, "MH": 2, "WB": 1}),
    }
)


@dataclass(frozen=True)
class SeedSource:
    """``[entries.seed_from] <route> = { event = …, section = …, places = … }``: where a seed
    route was earned — the top ``places`` of ``section`` of an earlier event (NJ 2024
    Eligibility: "Top four players from 2023 National Junior …"), read from that event's
    results instead of typed again."""

    event: str
    """The earlier event: a sibling event folder run by chessfed (``national-junior-2023``), or
    a TRF file inside this event's folder (``earlier/nj-2023-open.trf``)."""
    section: str = ""
    """Its section (category id) the route is earned in; empty: its only one."""
    places: int = 1
    """How many of its top places earn the route (4: "top four", 1: "the champion")."""

    def __post_init__(self) -> None:
        if not source_name_ok(self.event):
            raise ConfigError("", "event", f"{self.event!r}: a sibling event folder's name, or a "
                              ".trf file inside the event's folder (no '..', no absolute path)")
        if self.places < 1:
            raise ConfigError("", "places", f"must be at least 1, got {self.places}")


@dataclass(frozen=True)
class JuniorEntryRules:
    """Every parameter of the NJ 2024 entry rules; the flow builds it from ``event.toml``.

    The defaults are the 2024 seed's values, so ``JuniorEntryRules()`` is the 2024 event.
    """

    rules: str = "national-junior-2024"
    """Which rules part these entry rules are (event.toml ``[entries] rules``): the National
    Junior's (:mod:`transforms.national_junior.part`)."""
    categories: tuple[str, ...] = ("open", "girls")
    """Category (section) ids, in display order."""
    female_only_categories: frozenset[str] = frozenset({"girls"})
    """Categories only girls may enter; the others are open to all genders."""
    born_on_or_after: date = date(2005, 1, 1)
    """Age Limit: players should be born on or after this date."""
    nationality: str = "IND"
    """Eligibility: only nationals of this country (ISO 3166 alpha-3)."""
    quota_per_category: int = 4
    """Players per category from every affiliated State Association (``quota`` entries)."""
    host_state: str = "HR"
    """The host association's code (The Haryana Chess Association)."""
    host_extra_per_category: int = 2
    """Additional players per category the host may field (``host`` entries)."""
    secretary_seats_per_category: int = 1
    """The AICF Secretary's discretionary seats per category (``secretary`` entries)."""
    no_association_seats_per_category: int = 2
    """Players per category from areas with no State Association (``no_association``)."""
    no_association_codes: frozenset[str] = frozenset({""})
    """``state`` values meaning "no association" (the empty string is always read as one)."""
    medal_bonus: Mapping[str, Mapping[str, int]] = field(
        default_factory=lambda: DEFAULT_MEDAL_BONUS
    )
    """Additional entries of the 2023 medal states: ``{category: {state: n}}``."""
    odd_fill_per_category: int = 1
    """Entries the host may add to make an odd category even (``odd_fill``)."""
    seed_routes: Mapping[str, frozenset[str]] = field(default_factory=lambda: DEFAULT_SEED_ROUTES)
    """Seed route (``seed_reason``) -> categories it seeds into. (Keys: the codes of players.csv
    ``seed_reason``; by default each seeds into the category its code ends with.)"""
    seed_titles: Mapping[str, frozenset[str]] = field(default_factory=lambda: DEFAULT_SEED_TITLES)
    """Seed routes that require a title -> the titles that qualify."""
    girls_seed_routes: frozenset[str] = DEFAULT_GIRLS_SEED_ROUTES
    """Seed routes earned in a Girls championship: only a girl (``gender`` F) holds them,
    whichever section they seed into."""
    seed_from: Mapping[str, SeedSource] = field(default_factory=dict)
    """Seed route -> the earlier event it is earned in (``[entries.seed_from]``): a seeded entry
    claiming the route must be among that event's top places; a seeded entry without a
    ``seed_reason`` takes the route it earned there. Empty: the routes are taken as typed."""
    ordinary_fee: Decimal = Decimal(2000)
    """Entry Fee Structure: ordinary entry, rupees."""
    special_fee: Decimal = Decimal(7500)
    """Entry Fee Structure: special entry, rupees."""
    special_fee_types: frozenset[str] = frozenset({EntryType.SPECIAL})
    """Entry types that pay the special fee; every other type pays the ordinary fee. (Codes of players.csv
    ``entry_type``.)"""
    late_fee: Decimal = Decimal(250)
    """Late fee per player, rupees."""
    fee_valid_until: date = date(2024, 9, 2)
    """The fee structure is valid till this date, all of it; registered later -> late fee."""
    closing: datetime = datetime(2024, 9, 9, 17, 0)
    """No entry after this instant; an entry registered exactly at it is in time."""
    deadline_exempt_types: frozenset[str] = frozenset({EntryType.ODD_FILL})
    """Entry types exempt from the closing time and the late fee. (Codes of players.csv
    ``entry_type``.)"""
    association_types: frozenset[str] = frozenset(
        {
            EntryType.QUOTA,
            EntryType.SEEDED,
            EntryType.SPECIAL,
            EntryType.HOST,
            EntryType.MEDAL_BONUS,
            EntryType.ODD_FILL,
        }
    )
    """Entry types submitted by a State Association: they must name an affiliated
    association and are rejected when it has arrears. (Codes of players.csv
    ``entry_type``.)"""
    boarding_lump_sum: Decimal = Decimal(1500)
    """Paid by the organisers per eligible player, rupees."""
    boarding_types: frozenset[str] = frozenset(
        {
            EntryType.QUOTA,
            EntryType.SEEDED,
            EntryType.HOST,
            EntryType.MEDAL_BONUS,
            EntryType.ODD_FILL,
        }
    )
    """Entry types that receive the boarding lump sum (selected and seeded players of an
    affiliated association who pay the normal entry fee). (Codes of players.csv
    ``entry_type``.)"""

    def __post_init__(self) -> None:
        """Checks of the values; a :class:`ConfigError` keyed relative to ``[entries]`` (the
        loader, ``transforms.core.config``, names the file and the full key)."""
        file = ""
        if not self.categories or len(set(self.categories)) != len(self.categories):
            raise ConfigError(
                file, "categories", f"need distinct category ids, got {self.categories!r}"
            )
        for key in (
            "quota_per_category",
            "host_extra_per_category",
            "secretary_seats_per_category",
            "no_association_seats_per_category",
            "odd_fill_per_category",
        ):
            value = getattr(self, key)
            if not isinstance(value, int) or value < 0:
                raise ConfigError(file, key, f"must be a whole number >= 0, got {value!r}")
        for key in ("ordinary_fee", "special_fee", "late_fee", "boarding_lump_sum"):
            value = getattr(self, key)
            if not isinstance(value, Decimal) or not value.is_finite() or value < 0:
                raise ConfigError(file, key, f"must be an amount in rupees >= 0, got {value!r}")
        for key in ("female_only_categories",):
            unknown = set(getattr(self, key)) - set(self.categories)
            if unknown:
                raise ConfigError(file, key, f"unknown categories {sorted(unknown)!r}")
        for cat, table in self.medal_bonus.items():
            if cat not in self.categories:
                raise ConfigError(file, f"medal_bonus.{cat}", f"unknown category {cat!r}")
            for state, n in table.items():
                if not isinstance(n, int) or n < 0:
                    raise ConfigError(
                        file, f"medal_bonus.{cat}.{state}", f"must be >= 0, got {n!r}"
                    )
        for route, cats in self.seed_routes.items():
            unknown = set(cats) - set(self.categories)
            if unknown:
                raise ConfigError(
                    file, f"seed_routes.{route}", f"unknown categories {sorted(unknown)!r}"
                )
        for route in self.seed_titles:
            if route not in self.seed_routes:
                raise ConfigError(file, f"seed_titles.{route}", "not a route of seed_routes")
        for route in self.seed_from:
            if route not in self.seed_routes:
                raise ConfigError(file, f"seed_from.{route}", "not a route of seed_routes")
        strays = sorted(set(self.girls_seed_routes) - set(self.seed_routes))
        if strays:
            raise ConfigError(
                file, "girls_seed_routes", f"not routes of seed_routes: {strays!r}"
            )
        valid_types = {t.value for t in EntryType}
        for key in (
            "special_fee_types",
            "deadline_exempt_types",
            "association_types",
            "boarding_types",
        ):
            unknown = set(getattr(self, key)) - valid_types
            if unknown:
                raise ConfigError(file, key, f"unknown entry types {sorted(unknown)!r}")

    def judge(self, players: pl.DataFrame, typed: dict[str, pl.DataFrame],
              findings: list[Finding], *, currency: str,
              earlier: Mapping[str, EventResult] | None = None) -> Judged:
        """NJ 2024 Entries and eligibility — the entries of players.csv judged by these rules
        against associations.csv (:func:`evaluate_entries`) and, for the routes of
        ``seed_from``, against the earlier events' results (``earlier``, by the name
        ``seed_from`` gives them: :func:`earned_seeds`); nothing is decided while
        associations.csv cannot be read (the event then waits)."""
        assoc = typed.get("associations.csv")
        if assoc is None or unusable(findings, "associations.csv"):
            return Judged(players, None, [], blocked=(
                "associations.csv is missing or cannot be read (see the validation report): "
                "the entries cannot be decided, nothing else is computed."))
        players, unearned, notes = earned_seeds(players, self, earlier or {})
        decision = evaluate_entries(players, assoc, self, currency=currency, unearned=unearned)
        if notes:
            decision = dataclasses.replace(decision, findings=(*decision.findings, *notes))
        accepted = set(decision.decisions.filter(pl.col("status") == "accepted")["player_id"])
        return Judged(players.filter(pl.col("player_id").is_in(sorted(accepted))), decision,
                      list(decision.findings))


@dataclass(frozen=True)
class EntryDecision:
    """What :func:`evaluate_entries` decides."""

    decisions: pl.DataFrame
    """One row per players.csv row, in file order: line, player_id, name, section, state,
    entry_type, status (accepted|rejected), reasons ("; "-joined, empty when accepted),
    fee_due, late_fee, fee_paid, balance (= fee_paid - fee_due - late_fee), boarding."""
    entry_list: pl.DataFrame
    """The accepted entries by category and state: section, state, player_id, name,
    entry_type, seed_reason, title, fide_id, rating; sorted by category (config order),
    state, name, player_id."""
    by_category_state: pl.DataFrame
    """Accepted entries per (section, state): accepted, then one count column per entry type."""
    ledger: pl.DataFrame
    """Per association: state, name, entries, accepted, fees_due, late_fees, fees_paid,
    balance, boarding_due."""
    findings: tuple[Finding, ...]
    """One ERROR per rejection reason (file players.csv, line, column, value), and WARNINGs."""


# --------------------------------------------------------------------------------------------
# Per-row eligibility rules. Each returns an expression that is the rejection reason, or null.
# They run on the prepared frame (see _prepare): string columns null-filled, plus the helper
# columns _affiliated (state is an affiliated association), _arrears_cleared, _no_assoc, and
# upper-cased _gender, _nationality, _title (findings still quote the value as read).


def age_limit(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 Age Limit — "Players should be born on or after 1.1.2005".

    Decision: the limit applies to every route, seeded ones included ("Subject to age limit
    following players can participate"); a missing birth date is a rejection.
    """
    limit = rules.born_on_or_after.isoformat()
    return (
        pl.when(pl.col("birth_date").is_null())
        .then(pl.lit("birth date missing"))
        .when(pl.col("birth_date") < rules.born_on_or_after)
        .then(pl.format(f"born {{}}, before the age limit {limit}", pl.col("birth_date")))
    )


def indian_nationals_only(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 Eligibility — "Only Indian nationals are eligible to participate"."""
    return pl.when(pl.col("_nationality") != rules.nationality.upper()).then(
        pl.format(f"nationality '{{}}' is not {rules.nationality}", pl.col("nationality"))
    )


def aicf_registration(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 Important Rules — all participants shall be registered with AICF for 2024-2025.

    Decision: a missing ``aicf_registered`` value counts as not registered.
    """
    return pl.when(~pl.col("aicf_registered").fill_null(False)).then(
        pl.lit("not registered with AICF for 2024-2025")
    )


def known_category(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 — the two categories (Open, Girls); any other section is rejected."""
    cats = ", ".join(rules.categories)
    return pl.when(~pl.col("section").is_in(list(rules.categories))).then(
        pl.format(f"unknown section '{{}}' (expected one of {cats})", pl.col("section"))
    )


def girls_section_female(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 Eligibility — the Girls section is for girls; girls may also play Open.

    Decision: a male (or gender not given) entry in the Girls section is rejected. The Open
    section is open to all genders through any route (the seed routes "eligible to play in
    open section" are extra seeded routes, not a restriction on girls entering Open).
    """
    return pl.when(
        pl.col("section").is_in(list(rules.female_only_categories)) & (pl.col("_gender") != "F")
    ).then(
        pl.format("gender '{}' may not enter the {} section", pl.col("gender"), pl.col("section"))
    )


def known_entry_type(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 Eligibility — the entry routes the seed lists (:class:`EntryType`)."""
    types = [t.value for t in EntryType]
    return pl.when(~pl.col("entry_type").is_in(types)).then(
        pl.format(f"unknown entry type '{{}}' (accepted: {', '.join(types)})", pl.col("entry_type"))
    )


def through_state_association(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 Entries — "All entries including special entries should come through the
    concerned State Association"; two per category from areas where no association exists.

    Decision: entry types in ``rules.association_types`` must name an affiliated association
    (associations.csv); ``no_association`` entries must not (state empty or a configured
    no-association code); the Secretary's seat may name either. A state that is neither
    affiliated nor a no-association code is rejected for every type.
    """
    etype = pl.col("entry_type")
    return (
        pl.when(~pl.col("_affiliated") & ~pl.col("_no_assoc"))
        .then(pl.format("state '{}' is not an affiliated association", pl.col("state")))
        .when(etype.is_in(list(rules.association_types)) & ~pl.col("_affiliated"))
        .then(pl.format("{} entries must come through an affiliated State Association", etype))
        .when((etype == EntryType.NO_ASSOCIATION) & pl.col("_affiliated"))
        .then(
            pl.format("state '{}' has an association; not a no-association entry", pl.col("state"))
        )
    )


def arrears_cleared(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 Important Rules — arrears of affiliation/tournament fee must be cleared by the
    association when submitting entries, "otherwise the entries are liable to be rejected".

    Decision: "liable to be rejected" is applied as rejected, for every entry the association
    submits (``rules.association_types``); the Secretary's seat and no-association entries
    are AICF's and are not affected. A missing ``arrears_cleared`` counts as not cleared.
    """
    return pl.when(
        pl.col("entry_type").is_in(list(rules.association_types))
        & pl.col("_affiliated")
        & ~pl.col("_arrears_cleared")
    ).then(pl.format("association '{}' has not cleared its arrears", pl.col("state")))


def seeded_route(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 Eligibility — seeded players: ``seed_reason`` must name a listed route
    (:class:`SeedReason`, or the routes ``[entries] seed_routes`` configures) that seeds into
    the entry's category: "in their respective categories", so a route earned in a Girls
    championship seeds into Girls and one earned in an Open championship into Open; a Girls
    title leads to the Open section only by the two routes the seed names.

    Decision: the world, Asian and national-champion routes name no category in the text
    ("World Champion in any over the board category", "2023 Asian Under-18 Champion", ...):
    they seed into either section, the Girls section for girls only as every Girls entry.
    Decision: a route earned in a Girls championship (``rules.girls_seed_routes``) needs
    gender F, whichever section it seeds into. Decision:
    the title routes need the title in ``title`` (GM/IM for Open, WGM/WIM for Girls,
    literally as the seed says). Decision: an empty seed_reason is a rejection; an unknown one
    is a rejection listing the accepted codes; a former code that named no category
    (:data:`RETIRED_SEED_REASONS`) is a rejection naming the codes that replace it.
    """
    seeded = pl.col("entry_type") == EntryType.SEEDED
    reason = pl.col("seed_reason")
    routes = list(rules.seed_routes)
    cases: list[tuple[pl.Expr, pl.Expr]] = [
        (seeded & (reason == ""), pl.lit("seeded entry without a seed_reason"))]
    for old, new in RETIRED_SEED_REASONS.items():
        if old in rules.seed_routes:
            continue
        choices = " or ".join(r for r in new if r in rules.seed_routes)
        cases.append((seeded & (reason == old),
            pl.lit(
                f"seed_reason '{old}' names no category: write {choices}, the category of "
                "the championship the route was earned in"
            )
        ))
    cases.append((seeded & ~reason.is_in(routes),
        pl.format(f"unknown seed_reason '{{}}' (accepted: {', '.join(routes)})", reason)
    ))
    for route, cats in rules.seed_routes.items():
        into = ", ".join(c for c in rules.categories if c in cats)
        cases.append((seeded & (reason == route) & ~pl.col("section").is_in(list(cats)),
            pl.format(
                f"seed route {route} does not seed into the {{}} section (it seeds into {into})",
                pl.col("section"),
            )
        ))
    girls_only = list(rules.girls_seed_routes)
    cases.append((
        seeded
        & reason.is_in(girls_only)
        & (pl.col("_gender") != Gender.FEMALE)
        & ~pl.col("section").is_in(list(rules.female_only_categories))
    ,
        pl.format(
            "seed route {} is earned in a Girls championship; gender is '{}'",
            reason,
            pl.col("gender"),
        )
    ))
    for route, titles in rules.seed_titles.items():
        cases.append((
            seeded & (reason == route) & ~pl.col("_title").is_in([t.upper() for t in titles])
        ,
            pl.format(
                f"seed route {route} needs title {'/'.join(sorted(titles))}, has '{{}}'",
                pl.col("title"),
            )
        ))
    return _first_case(cases)


def _first_case(cases: list[tuple[pl.Expr, pl.Expr]]) -> pl.Expr:
    """The value of the first case whose condition holds (null where none does): one
    ``when/then/otherwise`` per case, nested from the last, as a chained ``when`` reads."""
    out: pl.Expr = pl.lit(None, dtype=pl.String)
    for condition, value in reversed(cases):
        out = pl.when(condition).then(value).otherwise(out)
    return out


def host_entries_from_host(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 Eligibility — the host association (Haryana) fills its two additional players
    and the odd-number fill.

    Decision: ``host`` and ``odd_fill`` entries must carry the host's state code.
    """
    return pl.when(
        pl.col("entry_type").is_in([EntryType.HOST, EntryType.ODD_FILL])
        & (pl.col("state") != rules.host_state)
    ).then(
        pl.format(
            f"{{}} entries are the host's ({rules.host_state}), not '{{}}'",
            pl.col("entry_type"),
            pl.col("state"),
        )
    )


def medal_bonus_state(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 Eligibility — additional entries only for the 2023 medal states, per category
    (Open: TG 3, TN 2, RJ 1; Girls: UP 3, MH 2, WB 1).

    Decision: the rank-list proof is checked by the office, not here.
    """
    return pl.when(
        (pl.col("entry_type") == EntryType.MEDAL_BONUS) & (pl.col("_medal_cap") == 0)
    ).then(
        pl.format(
            "state '{}' has no medal-state entries in the {} section",
            pl.col("state"),
            pl.col("section"),
        )
    )


def closing_time(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 Late fee — "No entry will be entertained after 09 September 2024 (up to 17:00 hrs)".

    Decision: "up to 17:00 hrs" includes 17:00:00 exactly; 17:00:01 is too late. A missing
    registered_at is a rejection. Decision: ``odd_fill`` is exempt (the host adds it at the
    start of the championship, after entries close).
    """
    closing = rules.closing.strftime(_DT_FORMAT)
    checked = ~pl.col("entry_type").is_in(list(rules.deadline_exempt_types))
    return (
        pl.when(checked & pl.col("registered_at").is_null())
        .then(pl.lit("registration time missing"))
        .when(checked & (pl.col("registered_at") > rules.closing))
        .then(
            pl.format(
                f"registered {{}}, after the closing time {closing}",
                pl.col("registered_at").dt.strftime(_DT_FORMAT),
            )
        )
    )


def seed_earned(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 Eligibility — seeded players ("Top four players from 2023 National Junior …"):
    a route of ``[entries.seed_from]`` is held only by a player among the top places of the
    earlier event it names (the reason :func:`earned_seeds` found, else none)."""
    return pl.col("_seed_unearned")


def earned_seeds(players: pl.DataFrame, rules: JuniorEntryRules,
                 earlier: Mapping[str, EventResult]
                 ) -> tuple[pl.DataFrame, dict[str, str], list[Finding]]:
    """NJ 2024 Eligibility — the seed routes of ``[entries.seed_from]`` from the earlier
    events' results: a seeded entry without a ``seed_reason`` takes the first route (in the
    table's order) it earned; a seeded entry claiming one it did not earn gets the reason
    (player_id -> reason, for :func:`seed_earned`). A player is found in the earlier event by
    FIDE id where both have one, else by the name's words in any order.

    Decision: a route whose earlier event cannot be read, or is not complete, is taken as
    typed, with a warning; the places are those of the event's own final standings, and a
    place shared after every tie-break is held by each who shares it (more players than
    places earn the route: a warning says so, for the office to decide)."""
    notes: list[Finding] = []
    tops: dict[str, list[Finish]] = {}
    for route, src in rules.seed_from.items():
        result = earlier.get(src.event)
        if result is None or not result.complete:
            why = "cannot be read" if result is None else "is not complete"
            notes.append(Finding("event.toml", None, f"entries.seed_from.{route}", src.event,
                                 Severity.WARNING, f"the event this route is earned in {why}: "
                                 "the route is taken as players.csv gives it"))
            continue
        tops[route] = [f for f in result.finishes if (not src.section or f.section == src.section)
                       and f.rank is not None and f.rank <= src.places]
        if len(tops[route]) > src.places:
            notes.append(Finding("event.toml", None, f"entries.seed_from.{route}", src.event,
                                 Severity.WARNING, (
                                     f"{len(tops[route])} players hold the top {src.places} places "
                                     f"of {result.name} (places shared after every tie-break): "
                                     "each of them has earned the route")))
    if not tops:
        return players, {}, notes

    def found(p: dict[str, Any], top: list[Finish]) -> bool:
        fid = str(p.get("fide_id") or "")
        words = name_words(str(p.get("name") or ""))
        return any((fid and f.fide_id == fid) or (not (fid and f.fide_id) and name_words(f.name) == words)
                   for f in top)

    unearned: dict[str, str] = {}
    reasons = []
    for p in players.iter_rows(named=True):
        reason = p.get("seed_reason") or ""
        if p.get("entry_type") == EntryType.SEEDED and not reason:
            reason = next((r for r, top in tops.items() if found(p, top)), "")
        elif p.get("entry_type") == EntryType.SEEDED and reason in tops and not found(p, tops[reason]):
            src = rules.seed_from[reason]
            names = "; ".join(f"{f.rank}. {f.name}" for f in sorted(tops[reason], key=lambda f: f.rank or 0))
            unearned[str(p["player_id"])] = (
                f"not among the top {src.places} of {earlier[src.event].name}"
                f"{' (' + src.section + ')' if src.section else ''}, who earned {reason}: {names}")
        reasons.append(reason)
    return players.with_columns(pl.Series("seed_reason", reasons, dtype=pl.String)), unearned, notes


_ROW_RULES: tuple[tuple[str, str, Callable[[JuniorEntryRules], pl.Expr]], ...] = (
    ("age_limit", "birth_date", age_limit),
    ("indian_nationals_only", "nationality", indian_nationals_only),
    ("aicf_registration", "aicf_registered", aicf_registration),
    ("known_category", "section", known_category),
    ("girls_section_female", "gender", girls_section_female),
    ("known_entry_type", "entry_type", known_entry_type),
    ("through_state_association", "state", through_state_association),
    ("arrears_cleared", "state", arrears_cleared),
    ("seeded_route", "seed_reason", seeded_route),
    ("seed_earned", "seed_reason", seed_earned),
    ("host_entries_from_host", "state", host_entries_from_host),
    ("medal_bonus_state", "state", medal_bonus_state),
    ("closing_time", "registered_at", closing_time),
)
"""(rule name, players.csv column a finding points at, rule)."""


# --------------------------------------------------------------------------------------------
# Seat limits. They run after the per-row rules on a frame sorted by (registered_at,
# player_id); only entries that passed every per-row rule (_ok) take a seat.


def _seat_overflow(etype: EntryType, by_state: bool, cap: pl.Expr, what: str) -> pl.Expr:
    """Reason for entries of ``etype`` beyond ``cap`` in their category (and state)."""
    group = ["section", "state"] if by_state else ["section"]
    candidate = pl.col("_ok") & (pl.col("entry_type") == etype)
    position = candidate.cast(pl.Int32).cum_sum().over(group)
    where = (
        pl.format("{} of '{}' in {}", pl.lit(what), pl.col("state"), pl.col("section"))
        if by_state
        else pl.format("{} in {}", pl.lit(what), pl.col("section"))
    )
    return pl.when(candidate & (position > cap)).then(
        pl.format(
            "no seat left: {} ({} allowed); this is entry no. {} by registered_at, then player_id",
            where,
            cap,
            position,
        )
    )


def quota_per_association(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 Eligibility — four players in each category from every affiliated State
    Association; vacancies are not filled.

    Decision: when a state sends more, the earliest registered (ties: smaller player_id) take
    the four seats; entries rejected for another reason take no seat. Seeded, special and the
    other extra routes do not use the quota.
    """
    return _seat_overflow(EntryType.QUOTA, True, pl.lit(rules.quota_per_category), "quota")


def host_additional_entries(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 Eligibility — the host association may fill two additional players per category.

    Decision: overflow is decided by registered_at then player_id, as for the quota.
    """
    return _seat_overflow(
        EntryType.HOST, True, pl.lit(rules.host_extra_per_category), "host's additional seats"
    )


def secretary_seat(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 Eligibility — the AICF Secretary has a discretionary seat in each category.

    Decision: overflow is decided by registered_at then player_id.
    """
    return _seat_overflow(
        EntryType.SECRETARY,
        False,
        pl.lit(rules.secretary_seats_per_category),
        "AICF Secretary's seat",
    )


def no_association_seats(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 Eligibility — two players per category from areas where no State Association
    exists.

    Decision: two per category in all (not two per area); overflow by registered_at then
    player_id.
    """
    return _seat_overflow(
        EntryType.NO_ASSOCIATION,
        False,
        pl.lit(rules.no_association_seats_per_category),
        "no-association seats",
    )


def medal_bonus_entries(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 Eligibility — three additional entries from the 2023 gold state, two from
    silver, one from bronze, per category, as the seed's table lists.

    Decision: overflow by registered_at then player_id.
    """
    return _seat_overflow(
        EntryType.MEDAL_BONUS, True, pl.col("_medal_cap"), "medal-state additional entries"
    )


_SEAT_RULES: tuple[tuple[str, str, Callable[[JuniorEntryRules], pl.Expr]], ...] = (
    ("quota_per_association", "entry_type", quota_per_association),
    ("host_additional_entries", "entry_type", host_additional_entries),
    ("secretary_seat", "entry_type", secretary_seat),
    ("no_association_seats", "entry_type", no_association_seats),
    ("medal_bonus_entries", "entry_type", medal_bonus_entries),
)


def odd_number_fill(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 Eligibility — "If the number of participants at the start of the championship
    is an odd number in a category, the host association can add one entry to make it even."

    Decision: the participants are the entries accepted without any ``odd_fill``; when their
    number in the category is odd, the first eligible odd_fill (registered_at, player_id) is
    accepted and any other odd_fill rejected; when it is even, every odd_fill is rejected.
    Runs after all other rules (column _ok2 = accepted so far).
    """
    fill = pl.col("entry_type") == EntryType.ODD_FILL
    others = (pl.col("_ok2") & ~fill).cast(pl.Int32).sum().over("section")
    candidate = pl.col("_ok2") & fill
    position = candidate.cast(pl.Int32).cum_sum().over("section")
    return (
        pl.when(candidate & (others % 2 == 0))
        .then(
            pl.format(
                "category has an even number ({}) of other entries; no odd-number fill", others
            )
        )
        .when(candidate & (position > rules.odd_fill_per_category))
        .then(
            pl.format(
                f"only {rules.odd_fill_per_category} odd-number fill per category "
                f"(this is no. {{}})",
                position,
            )
        )
    )


# --------------------------------------------------------------------------------------------
# Money.


def entry_fee(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 Entry Fee Structure — ordinary entry Rs 2,000; special entry Rs 7,500.

    Decision: every type but ``special`` pays the ordinary fee — seeded players too (the
    boarding rule speaks of "seeded and selected players who play ... under normal entry
    fee"). A rejected entry owes nothing (what it paid is a balance in its favour).
    """
    fee = (
        pl.when(pl.col("entry_type").is_in(list(rules.special_fee_types)))
        .then(pl.lit(rules.special_fee))
        .otherwise(pl.lit(rules.ordinary_fee))
    )
    return pl.when(pl.col("_accepted")).then(fee).otherwise(pl.lit(Decimal(0))).cast(MONEY)


def late_fee(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 Late fee — "the entry fee structure is valid till 02 September. Thereafter a
    late fee of Rs.250/- per player will be levied."

    Decision: "till 02 September" includes the whole of 2 September; an entry registered on
    3 September 00:00 or later pays it. It applies to every accepted entry (special ones
    too) except the deadline-exempt odd_fill.
    """
    late = (
        pl.col("_accepted")
        & ~pl.col("entry_type").is_in(list(rules.deadline_exempt_types))
        & (pl.col("registered_at").dt.date() > rules.fee_valid_until)
    )
    return pl.when(late).then(pl.lit(rules.late_fee)).otherwise(pl.lit(Decimal(0))).cast(MONEY)


def boarding_lump_sum(rules: JuniorEntryRules) -> pl.Expr:
    """NJ 2024 Important Rules — Rs 1,500 towards boarding, "only to the affiliated State
    Associations' seeded and selected players who play this championship under normal entry
    fee"; special entries make their own arrangements.

    Decision: paid for accepted quota, seeded, host, medal_bonus and odd_fill entries (all
    submitted by an affiliated association and paying the ordinary fee). Not for special
    entries, nor for the Secretary's seat or no-association players (not selected by an
    affiliated association). A late fee does not change "normal entry fee".
    """
    paid = pl.col("_accepted") & pl.col("entry_type").is_in(list(rules.boarding_types))
    return (
        pl.when(paid)
        .then(pl.lit(rules.boarding_lump_sum))
        .otherwise(pl.lit(Decimal(0)))
        .cast(MONEY)
    )


# --------------------------------------------------------------------------------------------

_REQUIRED_PLAYER_COLUMNS = (
    "player_id",
    "name",
    "section",
    "gender",
    "birth_date",
    "nationality",
    "state",
    "entry_type",
    "registered_at",
    "fee_paid",
    "aicf_registered",
)
_OPTIONAL_STRING_COLUMNS = ("fide_id", "title", "seed_reason", "email")
_REQUIRED_ASSOCIATION_COLUMNS = ("state", "arrears_cleared")


def _require(frame: pl.DataFrame, columns: tuple[str, ...], file: str) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise InputError(file, None, ", ".join(missing), "", "required column missing")


def _prepare(
    players: pl.DataFrame, associations: pl.DataFrame, rules: JuniorEntryRules
) -> pl.DataFrame:
    """Normalise the input and join the association facts each rule needs."""
    _require(players, _REQUIRED_PLAYER_COLUMNS, PLAYERS_FILE)
    _require(associations, _REQUIRED_ASSOCIATION_COLUMNS, "associations.csv")
    df = players.with_row_index("_row")
    if "line" not in df.columns:
        df = df.with_columns(line=(pl.col("_row") + 2).cast(pl.Int64))
    for col in _OPTIONAL_STRING_COLUMNS:
        if col not in df.columns:
            df = df.with_columns(pl.lit("").alias(col))
    strings = [
        "player_id",
        "name",
        "section",
        "gender",
        "nationality",
        "state",
        "entry_type",
        *_OPTIONAL_STRING_COLUMNS,
    ]
    df = df.with_columns(
        [pl.col(c).cast(pl.String).fill_null("").str.strip_chars() for c in strings]
        + [pl.col("fee_paid").cast(MONEY).fill_null(Decimal(0)).cast(MONEY)]
    ).with_columns(
        # Codes compare case-blind: "f", "ind" and "gm" mean what "F", "IND" and "GM" mean.
        pl.col("gender", "nationality", "title").str.to_uppercase().name.prefix("_")
    )
    assoc = associations.select(
        pl.col("state").cast(pl.String).str.strip_chars(),
        pl.col("arrears_cleared").cast(pl.Boolean).fill_null(False).alias("_arrears_cleared"),
        pl.lit(True).alias("_affiliated"),
    ).unique("state", keep="first")
    medal = pl.DataFrame(
        [
            {"section": cat, "state": st, "_medal_cap": n}
            for cat, table in rules.medal_bonus.items()
            for st, n in table.items()
        ],
        schema={"section": pl.String, "state": pl.String, "_medal_cap": pl.Int64},
    )
    return (
        df.join(assoc, on="state", how="left")
        .join(medal, on=["section", "state"], how="left")
        .with_columns(
            pl.col("_affiliated").fill_null(False),
            pl.col("_arrears_cleared").fill_null(False),
            pl.col("_medal_cap").fill_null(0),
            pl.col("state").is_in(list(rules.no_association_codes | {""})).alias("_no_assoc"),
        )
    )


def _reason_columns(names: list[str]) -> pl.Expr:
    return pl.concat_list([pl.col(f"_r_{n}") for n in names]).list.drop_nulls()


def _value_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.strftime(_DT_FORMAT)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def evaluate_entries(
    players: pl.DataFrame, associations: pl.DataFrame, rules: JuniorEntryRules, *,
    currency: str = "INR", unearned: Mapping[str, str] | None = None,
) -> EntryDecision:
    """NJ 2024 Entries and eligibility — accept or reject every entry, with all its reasons,
    and work out fees, late fees, balances and the boarding lump sum.

    ``players`` is players.csv as ingested (DESIGN.md columns, cast, plus ``line``);
    ``associations`` is associations.csv. Every rule above runs on every row, so a rejected
    entry lists all its reasons; seat limits and the odd-number fill count only entries that
    pass the per-row rules.
    """
    df = _prepare(players, associations, rules).with_columns(
        pl.col("player_id").replace_strict(dict(unearned or {}), default=None,
                                           return_dtype=pl.String).alias("_seed_unearned"))
    row_names = [name for name, _, _ in _ROW_RULES]
    seat_names = [name for name, _, _ in _SEAT_RULES]
    df = df.with_columns([fn(rules).alias(f"_r_{name}") for name, _, fn in _ROW_RULES])
    df = df.with_columns(_ok=_reason_columns(row_names).list.len() == 0)
    df = df.sort(["registered_at", "player_id"], nulls_last=True)
    df = df.with_columns([fn(rules).alias(f"_r_{name}") for name, _, fn in _SEAT_RULES])
    df = df.with_columns(_ok2=_reason_columns(row_names + seat_names).list.len() == 0)
    df = df.with_columns(odd_number_fill(rules).alias("_r_odd_number_fill"))
    all_names = row_names + seat_names + ["odd_number_fill"]
    df = df.sort("_row").with_columns(_reasons=_reason_columns(all_names))
    df = df.with_columns(_accepted=pl.col("_reasons").list.len() == 0)
    df = df.with_columns(
        entry_fee(rules).alias("fee_due"),
        late_fee(rules).alias("late_fee"),
        boarding_lump_sum(rules).alias("boarding"),
    ).with_columns(
        balance=(pl.col("fee_paid") - pl.col("fee_due") - pl.col("late_fee")).cast(MONEY),
    )

    decisions = df.select(
        "line",
        "player_id",
        "name",
        "section",
        "state",
        "entry_type",
        pl.when(pl.col("_accepted"))
        .then(pl.lit("accepted"))
        .otherwise(pl.lit("rejected"))
        .alias("status"),
        pl.col("_reasons").list.join("; ").alias("reasons"),
        "fee_due",
        "late_fee",
        "fee_paid",
        "balance",
        "boarding",
    )
    return EntryDecision(
        decisions=decisions,
        entry_list=_entry_list(df, rules),
        by_category_state=_by_category_state(decisions, rules),
        ledger=_ledger(decisions, associations),
        findings=tuple(_findings(df, all_names, currency)),
    )


def _category_order(rules: JuniorEntryRules) -> pl.Expr:
    order = {cat: i for i, cat in enumerate(rules.categories)}
    return pl.col("section").replace_strict(order, default=len(order), return_dtype=pl.Int64)


def _entry_list(df: pl.DataFrame, rules: JuniorEntryRules) -> pl.DataFrame:
    """The entry list of each category and state: accepted players only."""
    rating = pl.col("rating").cast(pl.Int64) if "rating" in df.columns else pl.lit(None, pl.Int64)
    return (
        df.filter(pl.col("_accepted"))
        .select(
            "section",
            "state",
            "player_id",
            "name",
            "entry_type",
            "seed_reason",
            "title",
            "fide_id",
            rating.alias("rating"),
            _category_order(rules).alias("_order"),
        )
        .sort("_order", "section", "state", "name", "player_id")
        .drop("_order")
    )


def _by_category_state(decisions: pl.DataFrame, rules: JuniorEntryRules) -> pl.DataFrame:
    """Entry lists by category and state: accepted counts, split by entry type."""
    return (
        decisions.filter(pl.col("status") == "accepted")
        .group_by("section", "state")
        .agg(
            pl.len().cast(pl.Int64).alias("accepted"),
            *[
                (pl.col("entry_type") == t.value).sum().cast(pl.Int64).alias(t.value)
                for t in EntryType
            ],
        )
        .with_columns(_order=_category_order(rules))
        .sort("_order", "section", "state")
        .drop("_order")
    )


def _ledger(decisions: pl.DataFrame, associations: pl.DataFrame) -> pl.DataFrame:
    """Fee and boarding ledger per association (state as given in players.csv; AICF-direct
    entries without a state are the row with state "")."""
    names = associations.select(
        pl.col("state").cast(pl.String).str.strip_chars(),
        (
            pl.col("name").cast(pl.String)
            if "name" in associations.columns
            else pl.lit(None, pl.String)
        ).alias("name"),
    ).unique("state", keep="first")
    sums = decisions.group_by("state").agg(
        pl.len().cast(pl.Int64).alias("entries"),
        (pl.col("status") == "accepted").sum().cast(pl.Int64).alias("accepted"),
        pl.col("fee_due").sum().alias("fees_due"),
        pl.col("late_fee").sum().alias("late_fees"),
        pl.col("fee_paid").sum().alias("fees_paid"),
        pl.col("balance").sum().alias("balance"),
        pl.col("boarding").sum().alias("boarding_due"),
    )
    money = ["fees_due", "late_fees", "fees_paid", "balance", "boarding_due"]
    return (
        names.join(sums, on="state", how="full", coalesce=True)
        .with_columns(
            pl.col("entries", "accepted").fill_null(0),
            *[pl.col(c).fill_null(Decimal(0)).cast(MONEY) for c in money],
        )
        .select("state", "name", "entries", "accepted", *money)
        .sort("state")
    )


def _findings(df: pl.DataFrame, names: list[str], currency: str) -> list[Finding]:
    """One ERROR finding per rejection reason, plus WARNINGs for things a person should see:
    an accepted entry that has not paid in full, a seed_reason on a non-seeded entry, and a
    FIDE id shared by several entries (Decision: a warning, not a rejection — the office
    decides which entry stands)."""
    column_of = {name: col for name, col, _ in _ROW_RULES + _SEAT_RULES}
    column_of["odd_number_fill"] = "entry_type"
    shared_fide = (pl.col("fide_id") != "") & (pl.len().over("fide_id") > 1)
    frame = df.with_columns(
        _shared_lines=pl.when(shared_fide).then(
            pl.col("line").cast(pl.String).implode().over("fide_id").list.join(", ")
        )
    )
    cols = sorted({*column_of.values(), "line", "fee_paid", "seed_reason", "fide_id"})
    extra = ["_accepted", "balance", "_shared_lines"]
    out: list[tuple[int, int, Finding]] = []
    for row in frame.select(*cols, *[f"_r_{n}" for n in names], *extra).iter_rows(named=True):
        line = row["line"]
        found: list[tuple[int, str, Severity, str]] = [
            (i, column_of[name], Severity.ERROR, row[f"_r_{name}"])
            for i, name in enumerate(names)
            if row[f"_r_{name}"] is not None
        ]
        if row["_accepted"] and row["balance"] < 0:
            owed = -row["balance"]
            found.append(
                (
                    len(names),
                    "fee_paid",
                    Severity.WARNING,
                    f"accepted entry owes {symbol(currency)}{owed} (fee and late fee not fully paid)",
                )
            )
        if row["entry_type"] != EntryType.SEEDED and row["seed_reason"]:
            found.append(
                (
                    len(names) + 1,
                    "seed_reason",
                    Severity.WARNING,
                    f"seed_reason given for a {row['entry_type']} entry; ignored",
                )
            )
        if row["_shared_lines"] is not None:
            found.append(
                (
                    len(names) + 2,
                    "fide_id",
                    Severity.WARNING,
                    f"the same FIDE id is on lines {row['_shared_lines']}; a player has one entry",
                )
            )
        out.extend(
            (line or 0, order, Finding(PLAYERS_FILE, line, col, _value_text(row[col]), sev, why))
            for order, col, sev, why in found
        )
    return [f for _, _, f in sorted(out, key=lambda t: (t[0], t[1]))]

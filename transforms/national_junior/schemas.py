"""NJ 2024 — the input files the National Junior's rules add to a Swiss event (event.toml
``[entries] rules = "national-junior-2024"``): players.csv with what the entry rules judge
(gender, birth date, nationality, state association, entry route, registration time, fee,
AICF registration) and associations.csv, the affiliated State Associations."""

from __future__ import annotations

import dataclasses

from transforms.core.countries import ALPHA3
from transforms.core.ingest import (
        FIDE_ID,
        GENDERS,
        TITLES,
        ColType,
        Column,
        Schema,
        Vocabulary,
        code_list,
)
from transforms.national_junior.entries import (
        ENTRY_TYPE_WORDINGS,
        RETIRED_SEED_REASONS,
        SEED_REASON_WORDINGS,
        EntryType,
        JuniorEntryRules,
        SeedReason,
)
from transforms.swiss import schemas as swiss

ENTRY_TYPE_VOCABULARY = Vocabulary.of(EntryType, ENTRY_TYPE_WORDINGS)
SEED_REASONS = dataclasses.replace(
    Vocabulary.of(SeedReason, SEED_REASON_WORDINGS),
    note="the routes of `[entries] seed_routes`; by default these, into these sections (the "
         "Girls section is for girls only whatever the route):",
    column=("seeds into", tuple(
        (str(route), ", ".join(f"`{c}`" for c in JuniorEntryRules().categories if c in cats))
        for route, cats in JuniorEntryRules().seed_routes.items())))
"""NJ 2024 Seeded players — the seed routes (codes of players.csv ``seed_reason``), each with
the section it seeds into by default (:attr:`JuniorEntryRules.seed_routes`)."""

PLAYERS = Schema("players.csv", (
        Column("player_id", nonempty=True, description=(
            "The entry's id, unique in the file; results.csv, withdrawals.csv and "
            "bye_requests.csv name players by it.")),
        Column("name", nonempty=True, description="As printed: \"Surname, Given names\"."),
        Column("section", nonempty=True, description=(
            "The category: the `id` of one of event.toml's `[[swiss.categories]]` "
            "(the demo: `open`, `girls`).")),
        Column("gender", vocabulary=GENDERS, nonempty=True, description=(
            "The Girls section is for girls; the Open section is open to all.")),
        Column("birth_date", ColType.DATE, nonempty=True, description=(
            "NJ 2024 Age Limit: \"Players should be born on or after 1.1.2005\" "
            "(`[entries] born_on_or_after`).")),
        Column("nationality", nonempty=True, codes=ALPHA3, description=(
            "ISO 3166 alpha-3, e.g. `IND` (any case): \"Only Indian nationals are eligible\" "
            "(`[entries] nationality`).")),
        Column("state", required=False, description=(
            "The State Association's code (associations.csv `state`) the entry comes through; "
            "empty for an area where no State Association exists.")),
        Column("fide_id", required=False, pattern=FIDE_ID, description=(
            "FIDE ID. The same id on two entries is a warning (a player has one entry).")),
        Column("rating", ColType.INT, minimum=0, maximum=3500, description=(
            "FIDE rating; 0 or empty: unrated. Orders the start numbers (FIDE C.04.2 A.2).")),
        Column("title", required=False, vocabulary=TITLES, description=(
            "FIDE title, empty if none; the title seed routes need GM/IM or WGM/WIM.")),
        Column("entry_type", vocabulary=ENTRY_TYPE_VOCABULARY, nonempty=True, description=(
            "The route of the entry (NJ 2024 Eligibility).")),
        Column("seed_reason", required=False, vocabulary=SEED_REASONS, closed=False,
               description=(
                   "For `seeded` entries: the route (NJ 2024 Eligibility). A route's code "
                   "ends with the category of the title earned, the one section it seeds into "
                   "(\"in their respective categories\"). The accepted codes are event.toml's "
                   "`[entries] seed_routes` (by default these); an unknown one rejects the "
                   "entry, and the rejection lists them. A former code that named no category "
                   f"({', '.join(code_list(RETIRED_SEED_REASONS))}) rejects the entry, and the "
                   "rejection names the two codes that replace it. Ignored, with a warning, on "
                   "other entries.")),
        Column("registered_at", ColType.DATETIME, nonempty=True, description=(
            "When the entry was registered (event local time): \"No entry will be entertained "
            "after 09 September 2024 (up to 17:00 hrs)\"; after 02 September the late fee "
            "is due.")),
        Column("fee_paid", ColType.MONEY, minimum=0, description=(
            "What the entry paid, in the event's currency (rupees); empty: nothing.")),
        Column("aicf_registered", ColType.BOOL, nonempty=True, description=(
            "\"All participants in the National Championship shall be registered with AICF "
            "for the year 2024-2025\".")),
        Column("email", ColType.EMAIL, required=False, description="Where the player's messages go."),
        *(swiss.PLAYERS.column(c) for c in swiss.RATING_COLUMNS),
        swiss.START_NO,
    ), key=("player_id",), description="One row per entry, accepted or not.")

ASSOCIATIONS = Schema("associations.csv", (
        Column("state", nonempty=True, description=(
            "The association's code, as players.csv `state` gives it.")),
        Column("name", nonempty=True, description="The association's name."),
        Column("arrears_cleared", ColType.BOOL, nonempty=True, description=(
            "\"All arrears of affiliation fee/tournament fee including those of current year "
            "must be cleared by the affiliated Association at the time of submitting the "
            "entries; otherwise the entries are liable to be rejected.\"")),
        Column("email", ColType.EMAIL, required=False, description="Where the association's ledger and the "
               "bulletin go."),
    ), key=("state",), description="The affiliated State Associations, one row each.")

SCHEMAS = {"players.csv": PLAYERS, "associations.csv": ASSOCIATIONS,
           **{k: v for k, v in swiss.SCHEMAS.items() if k != "players.csv"}}
"""The files of a Swiss event under the National Junior's rules (players.csv replaced)."""
REQUIRED = ("players.csv", "associations.csv")

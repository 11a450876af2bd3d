"""GK rules 1-12 — the input files of a correspondence event (``kind = "correspondence"``):
members, entries, the published sections, games, time oversteps, the director's decisions and
last year's carried-forward entries."""

from __future__ import annotations

import dataclasses

from transforms.core.countries import ALPHA2
from transforms.core.ingest import GAME_RESULT_CODES, ColType, Column, Schema, Vocabulary
from transforms.golden_knights.rules import (
    CHANNEL_WORDINGS,
    OVERRIDE_KIND_WORDINGS,
    STAGE_WORDINGS,
    Channel,
    OverrideKind,
    Stage,
)

STAGE_VOCABULARY = Vocabulary.of(Stage, STAGE_WORDINGS)
CHANNELS = Vocabulary.of(Channel, CHANNEL_WORDINGS)
OVERRIDE_KINDS = Vocabulary.of(OverrideKind, OVERRIDE_KIND_WORDINGS)
STAGES = frozenset(s.value for s in Stage)
_ENTRIES = Schema("entries.csv", (
    Column("entry_id", nonempty=True, description=(
        "The entry's id, unique; a member may have up to 10 entries (rule 8).")),
    Column("member_id", nonempty=True, description="members.csv `member_id` of who entered."),
    Column("received", ColType.DATE, nonempty=True, description=(
        "Rule 9: the online processing date or the postmark.")),
    Column("channel", vocabulary=CHANNELS, nonempty=True, description="How it was received."),
    Column("fee_paid", ColType.MONEY, minimum=0, description=(
        "Dollars paid: \"The entry fee is $25.00, which covers all three rounds\" (rule 8).")),
), key=("entry_id",), description="One row per entry (a member may enter up to ten times).")
_STAGE = "The stage."
SCHEMAS = {
    "members.csv": Schema("members.csv", (
        Column("member_id", nonempty=True, description="The US Chess member id."),
        Column("name", nonempty=True, description="As printed on certificates."),
        Column("email", ColType.EMAIL, required=False, description="Where the member's messages go."),
        Column("membership_expires", ColType.DATE, nonempty=True, description=(
            "Rule 1: \"US Chess membership must remain current throughout your participation "
            "in the tournament.\"")),
        Column("country", nonempty=True, codes=ALPHA2, description=(
            "ISO 3166 alpha-2, e.g. `US`, `CA`: rule 1, members \"who reside on the North "
            "American continent and islands, Hawaii\".")),
        Column("region", required=False, description=(
            "The subdivision within the country (ISO 3166-2 without the country, e.g. `HI`, "
            "`GU`): US territories outside North America are `[golden_knights] "
            "excluded_regions`.")),
        Column("apo_fpo", ColType.BOOL, nonempty=True, description=(
            "Rule 1: \"and to US Chess member with an APO/FPO address\".")),
        Column("rating", ColType.INT, minimum=0, maximum=3500, description=(
            "Current correspondence rating; empty: unrated (\"unrated players are welcome\").")),
    ), key=("member_id",), description="US Chess members who entered, one row each."),
    "entries.csv": _ENTRIES,
    "sections.csv": Schema("sections.csv", (
        Column("stage", vocabulary=STAGE_VOCABULARY, nonempty=True, description=_STAGE),
        Column("section", nonempty=True, description="The section's name, e.g. `P01`."),
        Column("entry_id", nonempty=True, description="An entry playing in it."),
    ), key=("stage", "entry_id"), description=(
        "The published sections (optional file): copied from the run's proposed_sections.csv "
        "by the director; never reshuffled by a later run.")),
    "games.csv": Schema("games.csv", (
        Column("stage", vocabulary=STAGE_VOCABULARY, nonempty=True, description=_STAGE),
        Column("section", nonempty=True, description="The section."),
        Column("white", nonempty=True, description="entry_id of White."),
        Column("black", nonempty=True, description="entry_id of Black."),
        Column("result", vocabulary=GAME_RESULT_CODES, description=(
            "White's result first; empty: in progress.")),
        Column("ended", ColType.DATE, required=False, description="When the game ended."),
    ), key=("stage", "section", "white", "black"), description="One row per game."),
    "time_oversteps.csv": Schema("time_oversteps.csv", (
        Column("stage", vocabulary=STAGE_VOCABULARY, nonempty=True, description=_STAGE),
        Column("section", nonempty=True, description="The section."),
        Column("entry_id", nonempty=True, description="Who overstepped the time limit."),
        Column("opponent", nonempty=True, description="entry_id of the opponent in that game."),
        Column("reported", ColType.DATE, nonempty=True, description=(
            "When it was reported: rule 12 counts a player's oversteps in this order.")),
    ), description="Time oversteps reported (optional file; rule 12)."),
    "overrides.csv": Schema("overrides.csv", (
        Column("kind", nonempty=True, vocabulary=OVERRIDE_KINDS, description=(
            "What the director decided.")),
        Column("stage", required=False, description="For `result` and `advance`: the stage."),
        Column("section", required=False, description="For `result`: the section."),
        Column("entry_id", nonempty=True, description="The entry the decision is about."),
        Column("opponent", required=False, description="For `result`: the other entry."),
        Column("value", required=False, description="The decision (see `kind`)."),
        Column("note", required=False, description="Why (shown where the decision is applied)."),
    ), description=(
        "The director's decisions (optional file; rule 7), which win over what is computed; "
        "a later row for the same thing wins.")),
    "carried_in.csv": dataclasses.replace(_ENTRIES, file="carried_in.csv", description=(
        "Last year's carried_forward.csv (optional file; rule 9: \"We will move your entry "
        "forward to the next year\"), the columns of entries.csv.")),
}
"""``overrides.csv``: the director's decisions (GK rule 7), which win over computed results.
``carried_in.csv``: last year's ``carried_forward.csv`` (GK rule 9), read by this year's run."""
REQUIRED = ("members.csv", "entries.csv")

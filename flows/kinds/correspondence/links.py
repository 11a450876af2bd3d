"""Where each page of a Golden Knights event lives and how one page links to another, and the
words the pages use for the rulebook's codes (presentation only)."""

from __future__ import annotations

import functools
import posixpath
from collections.abc import Iterable
from dataclasses import dataclass

import polars as pl

from flows.site.names import file_part
from flows.site.present import Table
from transforms.golden_knights.rules import Stage

STAGE_NAMES = {"preliminary": "Preliminaries", "semifinal": "Semifinals", "final": "Final"}
"""A stage as the regulations name it (rule 2: "preliminaries, semifinals, and finals")."""
STAGE_ORDER = {s.value: i for i, s in enumerate(Stage)}
AWARD_NAMES = {"gift_certificate": "Gift certificate", "framing_certificate": "Certificate for framing",
               "golden_knights_pin": "Golden Knights pin",
               "champion_title_and_plaque": "Golden Knights Champion: title and plaque"}
STATUS_NAMES = {"accepted": "accepted", "carried_forward": "carried forward to next year's event (rule 9)",
                "rejected": "not accepted"}
"""An entry's status as a member's public page states it (the office's reasons stay in office/)."""

MEMBERS = "members/index.html"
STANDINGS, QUALIFIERS, PRIZES, AWARDS, RULINGS = (
    "standings.html", "qualifiers.html", "prizes.html", "awards.html", "rulings.html")

def member_page(member_id: str) -> str:
    return f"members/{file_part(member_id)}.html"


def stage_page(stage: str) -> str:
    return f"stages/{file_part(stage)}.html"


def section_page(stage: str, section: str) -> str:
    return f"sections/{file_part(stage)}-{file_part(section)}.html"


def certificate_file(entry_id: str) -> str:
    return f"certificates/{file_part(entry_id)}.pdf"


def href(from_rel: str, to_rel: str) -> str:
    """The link from the page at ``from_rel`` to ``to_rel`` (both inside the event's folder;
    ``to_rel`` may end with ``#anchor``)."""
    path, _, anchor = to_rel.partition("#")
    rel = _relpath(path, posixpath.dirname(from_rel) or ".")
    return f"{rel}#{anchor}" if anchor else rel


@functools.lru_cache(maxsize=65536)
def _relpath(path: str, start: str) -> str:
    """``posixpath.relpath``, remembered: the pages of an event link the same few hundred
    pages tens of thousands of times (46,000 links of 1,800 member pages: 1.5 s uncached)."""
    return posixpath.relpath(path, start)


def stage_sorted(frame: pl.DataFrame, *then: str) -> pl.DataFrame:
    """Rows in the order the stages are played, then by ``then``."""
    return frame.with_columns(_o=pl.col("stage").replace_strict(STAGE_ORDER, default=9)) \
        .sort("_o", *then).drop("_o")


@dataclass(frozen=True)
class People:
    """Who an entry is: entry -> member, member -> name (public columns only)."""

    member_of: dict[str, str]
    name_of: dict[str, str]

    @classmethod
    def build(cls, entries: pl.DataFrame, members: pl.DataFrame | None,
              *named: pl.DataFrame) -> People:
        """``entries``: entry_id, member_id; ``members``: member_id, name (members.csv, may be
        None); ``named``: further frames with member_id and name (the rulebook's standings)."""
        member_of = dict(zip(entries["entry_id"], entries["member_id"], strict=True))
        name_of: dict[str, str] = {}
        for f in (*named, *([members] if members is not None else [])):
            for m, n in f.select("member_id", "name").iter_rows():
                if m is not None and n:
                    name_of[m] = n
        return cls(member_of, name_of)

    def name(self, member_id: str | None) -> str:
        return self.name_of.get(member_id or "", f"member {member_id}")

    def entry_name(self, entry_id: str | None) -> str:
        return self.name(self.member_of.get(entry_id or ""))

    def entry_href(self, from_rel: str, entry_id: str | None) -> str:
        """The link from ``from_rel`` to the entry's part of its member's page ("" unknown)."""
        m = self.member_of.get(entry_id or "")
        return href(from_rel, f"{member_page(m)}#{file_part(entry_id or '')}") if m else ""

    def member_ids(self) -> list[str]:
        return sorted(set(self.member_of.values()))


def with_people(frame: pl.DataFrame, people: People, from_rel: str, cols: Iterable[str]) -> pl.DataFrame:
    """For each entry column ``c``: ``c_name`` (its member's name) and ``c_href`` (the link
    from ``from_rel`` to the entry on its member's page)."""
    out = frame
    for c in cols:
        ids = frame[c].to_list()
        out = out.with_columns(pl.Series(f"{c}_name", [people.entry_name(e) for e in ids], pl.String),
                               pl.Series(f"{c}_href", [people.entry_href(from_rel, e) for e in ids], pl.String))
    return out


def stage_name(stage: str | None) -> str:
    return STAGE_NAMES.get(stage or "", stage or "")


def keep_words(table: Table, *labels: str) -> Table:
    """Columns (by label) whose cells are not broken across lines (entry ids, dates)."""
    for c in table.columns:
        if c.label in labels and not c.css:
            c.css = "name"
    return table


def surname_key(name: str) -> str:
    """Decision: the member list is in order of last names (the last word of the name as
    members.csv writes it), then the whole name."""
    return f"{name.split()[-1] if name.split() else ''} {name}".casefold()

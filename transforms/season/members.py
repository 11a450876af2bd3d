"""The office's season, part one (issue 47): the federation's members (``members.csv`` beside
the event folders) and one identity per member across the events — a member registered twice,
or an event's player whose name, birth date or sex disagrees with the member the FIDE id names,
or who is no member, or whose membership has lapsed on the event's day, is a validation row.

| rule | where | function |
|---|---|---|
| members.csv: one row per member, the member id unique | DESIGN.md Inputs | :data:`MEMBERS` |
| A probable duplicate member: the same birth date and the same name's words | DESIGN.md Inputs (issue 47) | :func:`probable_duplicates` |
| An event's player against the registry: found by member id, else by FIDE id, else by name and birth date; a name, birth date, sex, federation or FIDE id that differs; not a member; membership not valid on the event's day | DESIGN.md Inputs (issue 47) | :func:`players_against_members` |
| An event's entry that names a member (member id, else FIDE id) takes from the registry what it leaves empty | DESIGN.md Inputs (issue 47) | :func:`fill_from_registry` |

Decisions (tests/rulebook/test_season_members.py):

- Names are compared by their words in any order, case or punctuation ("Aarav Sharma" is
  "Sharma, Aarav"); a near-same name (one word a letter apart, or a word missing) of the same
  birth date is a probable duplicate, not the same member: the office decides (a warning).
- A player is the member whose FIDE id they give; without a FIDE id, the one member with the
  same name's words and birth date, or with the same name's words where the player gives no
  birth date (as a series recognises them); two such members: none is chosen, a warning says so.
- Membership is valid from ``valid_from`` to ``valid_to`` included; an empty bound is open.
- An event's run checks its players against the registry (the rows of
  :func:`players_against_members` in its validation) but for "not a member": an open event
  has guests; ``chessfed season-check`` lists those too.
- An entry's own value wins over the registry's (a row says where they differ); the registry
  fills only what the entry leaves empty, and only the columns the event's file has.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import polars as pl

from transforms.core.errors import Finding, Severity
from transforms.core.ingest import FEDERATION, FIDE_ID, GENDERS, ColType, Column, Schema

MEMBERS = Schema("members.csv", (
    Column("member_id", nonempty=True, description="The member's id in the federation, unique."),
    Column("name", nonempty=True, description="As printed: \"Surname, Given names\"."),
    Column("fide_id", required=False, pattern=FIDE_ID, description="FIDE ID, if any."),
    Column("birth_date", ColType.DATE, required=False, description="If known (never published)."),
    Column("sex", required=False, vocabulary=GENDERS, description="`M` or `F`, if known."),
    Column("federation", required=False, pattern=FEDERATION, description=(
        "FIDE federation code (three letters), if known.")),
    Column("club", required=False, description="The member's club."),
    Column("region", required=False, description="The member's region or state association."),
    Column("valid_from", ColType.DATE, required=False, description=(
        "The first day of the membership; empty: open.")),
    Column("valid_to", ColType.DATE, required=False, description=(
        "The last day of the membership; empty: open.")),
    Column("email", ColType.EMAIL, required=False, description="Where the member's letters go."),
), key=("member_id",), description="One row per member of the federation (the season's registry).")


def name_words(name: str | None) -> tuple[str, ...]:
    """DESIGN.md Inputs (issue 47) — a name's words, lower case, in order of the alphabet: how
    two spellings of one person's name are compared."""
    return tuple(sorted(re.findall(r"[^\W\d_]+", (name or "").lower())))


def near_names(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """DESIGN.md Inputs (issue 47) — two names' words (:func:`name_words`) that are probably one
    person's: the same, one word missing, or one word a letter apart (the rest the same)."""
    if a == b:
        return True
    if abs(len(a) - len(b)) == 1:
        short, long_ = (a, b) if len(a) < len(b) else (b, a)
        return bool(short) and set(short) <= set(long_)
    if len(a) != len(b):
        return False
    diff = [(x, y) for x, y in zip(a, b) if x != y]
    return len(diff) == 1 and _one_letter(*diff[0])


def _one_letter(x: str, y: str) -> bool:
    if abs(len(x) - len(y)) > 1:
        return False
    if len(x) == len(y):
        return sum(c != d for c, d in zip(x, y)) == 1
    short, long_ = (x, y) if len(x) < len(y) else (y, x)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def probable_duplicates(members: pl.DataFrame, file: str = "members.csv") -> list[Finding]:
    """DESIGN.md Inputs (issue 47) — members who are probably one person registered twice: the
    same birth date and the same or a near-same name (a warning on the later row, naming the
    earlier)."""
    by_birth: dict[object, list[dict[str, Any]]] = defaultdict(list)
    for row in members.iter_rows(named=True):
        if row.get("birth_date") is not None:
            by_birth[row["birth_date"]].append(row)
    out = []
    for rows in by_birth.values():
        for i, later in enumerate(rows):
            for earlier in rows[:i]:
                if near_names(name_words(later["name"]), name_words(earlier["name"])):
                    out.append(Finding(
                        file, later.get("line"), "name", later["name"], Severity.WARNING,
                        f"probably the member {earlier['member_id']} ({earlier['name']}, line "
                        f"{earlier.get('line')}) again: the same birth date and name"))
                    break
    return out


class Registry:
    """The season's members (``members.csv`` as cast) indexed once: by member id, by FIDE id,
    and by name words and birth date (an event's players are looked up in it, tens of
    thousands of members, every event of a season)."""

    def __init__(self, members: pl.DataFrame) -> None:
        self.rows = list(members.iter_rows(named=True))
        self.by_id = {str(r["member_id"]): r for r in self.rows}
        self.by_fide = {str(r["fide_id"]): r for r in self.rows if r.get("fide_id")}
        self.by_name: dict[tuple[tuple[str, ...], object], list[dict[str, Any]]] = defaultdict(list)
        self.by_words: dict[tuple[str, ...], list[dict[str, Any]]] = defaultdict(list)
        for r in self.rows:
            self.by_name[(name_words(r["name"]), r.get("birth_date"))].append(r)
            self.by_words[name_words(r["name"])].append(r)

    def named(self, member_id: str, fide_id: str) -> dict[str, Any] | None:
        """The member an entry names: by its member id, else by its FIDE id (None: neither)."""
        if member_id:
            return self.by_id.get(member_id)
        return self.by_fide.get(fide_id) if fide_id else None


FILLED = ("name", "fide_id", "birth_date", "sex", "federation", "club", "email")
"""The registry's columns an entry naming a member may leave empty (:func:`fill_from_registry`)."""


def fill_from_registry(players: pl.DataFrame, registry: Registry, columns: Iterable[str]
                       ) -> pl.DataFrame:
    """DESIGN.md Inputs (issue 47: an event's entries may name a member and leave the rest to
    the registry) — an event's players file as read (every cell a string) with each entry
    that names a member (its ``member_id``, else its ``fide_id``) given the registry's value
    of each of :data:`FILLED` it leaves empty, for the file's ``columns`` (those its schema
    has; a column the file lacks is added). An entry's own value is kept (where it differs,
    :func:`players_against_members` says so)."""
    wanted = [c for c in FILLED if c in set(columns)]
    if not wanted or players.height == 0:
        return players
    ids = (players["member_id"].to_list() if "member_id" in players.columns
           else [None] * players.height)
    fides = (players["fide_id"].to_list() if "fide_id" in players.columns
             else [None] * players.height)
    members = [registry.named((m or "").strip(), (f or "").strip()) for m, f in zip(ids, fides)]
    if not any(members):
        return players
    out = []
    for c in wanted:
        mine = players[c].to_list() if c in players.columns else [None] * players.height
        theirs = ["" if m is None or m.get(c) is None else str(m[c]) for m in members]
        out.append(pl.Series(c, [t if (v is None or not v.strip()) and t else v
                                 for v, t in zip(mine, theirs)], dtype=pl.String))
    return players.with_columns(out)


def players_against_members(players: pl.DataFrame, members: pl.DataFrame | Registry, *,
                            file: str, on: dt.date, strangers: bool = True,
                            by_name: bool = True) -> list[Finding]:
    """DESIGN.md Inputs (issue 47) — an event's players (players.csv as cast: ``line``,
    ``player_id``, ``name``, and any of ``member_id``, ``fide_id``, ``birth_date``, ``sex``,
    ``federation``) against the registry: each player is the member of their member id (none
    such: a row), else of their FIDE id, else the one member of the same name's words and
    birth date; a FIDE id that differs from the member's; a name, birth date, sex or
    federation that differs from the member's, a player who is no member (``strangers``: not
    in an event's own run, whose guests are no members), a membership not valid on ``on``
    (the event's first day) — one warning row each, naming the player's line in ``file``.
    ``by_name`` False (an event's own run): only the players whose entry names a member (member
    id or FIDE id) are checked — a namesake found by name alone in a past event is no row there."""
    registry = members if isinstance(members, Registry) else Registry(members)
    by_id, by_fide, by_name_born = registry.by_id, registry.by_fide, registry.by_name
    out: list[Finding] = []

    def row(p: dict[str, Any], column: str, value: object, reason: str) -> None:
        out.append(Finding(file, p.get("line"), column, "" if value is None else str(value),
                           Severity.WARNING, reason))

    for p in players.iter_rows(named=True):
        mid = str(p.get("member_id") or "").strip()
        if mid and mid not in by_id:
            row(p, "member_id", mid, "no member has this member id (members.csv)")
            continue
        fid = str(p.get("fide_id") or "").strip()
        member = by_id.get(mid) if mid else by_fide.get(fid) if fid else None
        if mid and member is not None and fid and str(member.get("fide_id") or "") not in ("", fid):
            row(p, "fide_id", fid, f"the member {mid}'s FIDE id is {member['fide_id']}")
        born = p.get("birth_date")
        if member is None and not by_name:
            if fid and strangers:
                row(p, "fide_id", fid, "no member has this FIDE id (members.csv)")
            continue
        if member is None:
            words = name_words(p.get("name"))
            same = (by_name_born.get((words, born), []) if born is not None
                    else registry.by_words.get(words, []))
            same = [m for m in same if not (fid and m.get("fide_id"))]  # another FIDE id: another person
            if len(same) > 1:
                row(p, "name", p.get("name"),
                    f"two members have this name{' and birth date' * (born is not None)} ("
                    + ", ".join(m["member_id"] for m in same)
                    + "): give the player's member id or FIDE id")
                continue
            member = same[0] if same else None
        if member is None:
            if strangers:
                row(p, "fide_id" if fid else "name", fid or p.get("name"),
                    "no member has this FIDE id (members.csv)" if fid else
                    "no FIDE id, and no member with this name"
                    f"{' and birth date' * (born is not None)} (members.csv)")
            continue
        who = f"the member {member['member_id']}"
        if name_words(p.get("name")) != name_words(member["name"]):
            row(p, "name", p.get("name"), f"{who} is {member['name']!r}")
        for col in ("birth_date", "sex", "federation"):
            mine, theirs = p.get(col), member.get(col)
            if mine and theirs and str(mine).upper() != str(theirs).upper():
                row(p, col, mine, f"{who}'s {col.replace('_', ' ')} is {theirs}")
        start, end = member.get("valid_from"), member.get("valid_to")
        if (start is not None and on < start) or (end is not None and on > end):
            row(p, "player_id", p.get("player_id"),
                f"{who}'s membership is not valid on {on}, the event's first day (valid "
                f"{'from ' + str(start) if start else ''}{' ' if start and end else ''}"
                f"{'to ' + str(end) if end else ''})")
    return out


def members_frame(rows: Iterable[dict[str, Any]]) -> pl.DataFrame:
    """DESIGN.md Inputs — members as rows (tests, tools) in the cast schema of :data:`MEMBERS`."""
    schema = {"line": pl.Int64, "member_id": pl.String, "name": pl.String, "fide_id": pl.String,
              "birth_date": pl.Date, "sex": pl.String, "federation": pl.String,
              "club": pl.String, "region": pl.String,
              "valid_from": pl.Date, "valid_to": pl.Date, "email": pl.String}
    return pl.DataFrame(list(rows), schema=schema)

"""GK rule 2 — sections of seven, of varying strengths, six games each (three White)."""

from __future__ import annotations

from typing import Any

import polars as pl

from transforms.core.errors import Finding, Severity
from transforms.golden_knights.rules import GKRules

PROPOSED_SCHEMA = {"stage": pl.String(), "section": pl.String(), "entry_id": pl.String(), "seat": pl.Int64()}
SCHEDULE_SCHEMA = {"stage": pl.String(), "section": pl.String(), "white": pl.String(), "black": pl.String()}


def propose_sections(
    rules: GKRules, stage: str, pool: pl.DataFrame, *, existing_names: list[str]
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """GK rule 2 — propose sections of ``section_size`` from ``pool`` (entry_id, member_id, rating).

    Returns (proposed sections: stage, section, entry_id, seat; waiting: entries not placed).

    Decision: "of varying strengths": the pool is ordered by rating (unrated last, then
    entry_id) and cut into ``section_size`` pots of n entries, n = len(pool) // section_size;
    each section takes one entry from each pot, sections visited in serpentine order, so every
    section spans the rating range and sections are of similar average strength. Seat = pot.
    Decision: a member is never twice in one section: within a pot, entries are matched to
    sections by augmenting paths (Kuhn), preferring the serpentine choice; an entry that cannot
    be placed without a member meeting himself waits (so do the last len(pool) % size entries,
    the lowest rated); a seat left empty that way takes the best-rated waiting entry that fits,
    and a section that still has an empty seat is not proposed (its entries wait). Section names continue after ``existing_names`` (P01, P02 … /
    S01 … / F01 …), so published sections are never renamed or reshuffled.
    """
    size = rules.section_size
    rows = pool.sort(pl.col("rating").is_null(), pl.col("rating"), "entry_id",
                     descending=[False, True, False]).select("entry_id", "member_id").rows()
    n = len(rows) // size
    if n == 0:
        return pl.DataFrame(schema=PROPOSED_SCHEMA), pool.select("entry_id")
    placed_members: list[set[str]] = [set() for _ in range(n)]
    seats: list[list[str | None]] = [[None] * size for _ in range(n)]
    waiting: list[str] = [e for e, _ in rows[n * size:]]
    for pot in range(size):
        pot_rows = rows[pot * n:(pot + 1) * n]
        order = list(range(n)) if pot % 2 == 0 else list(range(n - 1, -1, -1))
        # preferred section of the i-th entry in the pot is order[i]
        match_sec: dict[int, int] = {}  # section -> index in pot_rows
        for i in range(len(pot_rows)):
            if not _augment(i, set(), pot_rows, order, match_sec, placed_members):
                waiting.append(pot_rows[i][0])
        for s, i in match_sec.items():
            seats[s][pot] = pot_rows[i][0]
            placed_members[s].add(pot_rows[i][1])
    prefix = stage[:1].upper()  # P, S, F
    names: list[str] = []
    k = 0
    taken = set(existing_names)
    while len(names) < n:
        k += 1
        name = f"{prefix}{k:02d}"
        if name not in taken:
            names.append(name)
    # a seat left empty by a member conflict takes the best-rated waiting entry that fits
    member_of = dict(rows)
    for s in range(n):
        for seat in range(size):
            if seats[s][seat] is None:
                for e in waiting:
                    if member_of[e] not in placed_members[s]:
                        seats[s][seat] = e
                        placed_members[s].add(member_of[e])
                        waiting.remove(e)
                        break
    out: list[tuple[str, str, str | None, int]] = []  # PROPOSED_SCHEMA's columns
    for s in range(n):
        if any(e is None for e in seats[s]):  # an incomplete section is not proposed
            waiting.extend(e for e in seats[s] if e is not None)
            continue
        out.extend((stage, names[s], e, seat + 1) for seat, e in enumerate(seats[s]))
    proposed = pl.DataFrame(out, schema=PROPOSED_SCHEMA, orient="row")
    return proposed, pl.DataFrame({"entry_id": waiting}, schema={"entry_id": pl.String()})


def _augment(i: int, seen: set[int], pot_rows: list[tuple[Any, ...]], order: list[int], match_sec: dict[int, int],
             placed_members: list[set[str]]) -> bool:
    """Kuhn's augmenting path: seat pot entry i, moving earlier ones if needed; a section
    already holding the entry's member is never used (rule 2)."""
    member = pot_rows[i][1]
    for s in order[i:] + order[:i]:
        if s in seen or member in placed_members[s]:
            continue
        seen.add(s)
        if s not in match_sec or _augment(match_sec[s], seen, pot_rows, order, match_sec, placed_members):
            match_sec[s] = i
            return True
    return False


def section_schedule(rules: GKRules, sections: pl.DataFrame) -> pl.DataFrame:
    """GK rule 2 — each player six games, three with White and three with Black.

    ``sections`` has stage, section, entry_id, seat. Decision: in a section of odd size n every
    pair meets once; seat i has White against seats i+1 … i+(n-1)/2 (mod n), which gives each
    player exactly (n-1)/2 Whites and (n-1)/2 Blacks.
    """
    out = []
    for (stage, section), grp in sections.sort("seat").group_by(["stage", "section"], maintain_order=True):
        ids = grp["entry_id"].to_list()
        m = len(ids)
        if m % 2 == 1:
            for i in range(m):
                for d in range(1, (m - 1) // 2 + 1):
                    out.append((stage, section, ids[i], ids[(i + d) % m]))
        else:  # a short/long published section: every pair once, colours alternate
            for i in range(m):
                for j in range(i + 1, m):
                    w, b = (i, j) if (i + j) % 2 else (j, i)
                    out.append((stage, section, ids[w], ids[b]))
    return pl.DataFrame(out, schema=SCHEDULE_SCHEMA, orient="row")


def check_published_sections(
    rules: GKRules, sections: pl.DataFrame, members_of: pl.DataFrame, accepted_ids: set[str]
) -> tuple[pl.DataFrame, list[Finding]]:
    """GK rule 2 — validate published sections; they are used as published (never reshuffled).

    ``members_of`` maps entry_id → member_id. Returns sections with a ``seat`` (file order
    within the section) and findings: unknown entry (error, row dropped), entry twice in one
    stage (error, later row dropped), a member twice in one section (error, kept: the
    director's publication stands, rule 7), size other than ``section_size`` (warning),
    entry not accepted (warning).
    """
    f: list[Finding] = []
    df = sections.join(members_of, on="entry_id", how="left").sort("line")
    for r in df.filter(pl.col("member_id").is_null()).iter_rows(named=True):
        f.append(Finding("sections.csv", r["line"], "entry_id", r["entry_id"], Severity.ERROR,
                         "entry_id not in entries.csv; row ignored"))
    df = df.filter(pl.col("member_id").is_not_null())
    twice = df.filter(pl.int_range(pl.len()).over(["stage", "entry_id"]) > 0)
    for r in twice.iter_rows(named=True):
        f.append(Finding("sections.csv", r["line"], "entry_id", r["entry_id"], Severity.ERROR,
                         f"entry already placed in another {r['stage']} section; row ignored"))
    df = df.filter(pl.int_range(pl.len()).over(["stage", "entry_id"]) == 0)
    for r in df.filter(pl.int_range(pl.len()).over(["stage", "section", "member_id"]) > 0).iter_rows(named=True):
        f.append(Finding("sections.csv", r["line"], "entry_id", r["entry_id"], Severity.ERROR,
                         f"member {r['member_id']} is twice in section {r['stage']} {r['section']} (rule 2)"))
    for r in df.filter(~pl.col("entry_id").is_in(sorted(accepted_ids))).iter_rows(named=True):
        f.append(Finding("sections.csv", r["line"], "entry_id", r["entry_id"], Severity.WARNING,
                         "entry is not accepted this year but was placed by the director (rule 7)"))
    sizes = df.group_by("stage", "section").agg(pl.len().alias("n"), pl.col("line").min())
    for r in sizes.filter(pl.col("n") != rules.section_size).sort("line").iter_rows(named=True):
        f.append(Finding("sections.csv", r["line"], "section", r["section"], Severity.WARNING,
                         f"section has {r['n']} players, not {rules.section_size} (rule 2)"))
    df = df.with_columns(seat=pl.int_range(1, pl.len() + 1).over(["stage", "section"]).cast(pl.Int64))
    return df.select("stage", "section", "entry_id", "seat", "line"), f

"""A Golden Knights event as a series reads it (issue 47: a series over the season's events,
here a federation's correspondence championships): every entry's place and game points, and
each of its games, from the same rulebook as the event's own pages."""

from __future__ import annotations

import dataclasses
import datetime as dt

import polars as pl

from transforms.core.config import EventConfig
from transforms.core.ingest import RawFile, unusable, validate_files
from transforms.core.model import Kind
from transforms.core.pgn import GAMES
from transforms.core.results import EventResult, Finish, NoResults, RoundResult
from transforms.golden_knights.event import compute, read_back
from transforms.golden_knights.rules import Stage
from transforms.golden_knights.schemas import REQUIRED, SCHEMAS


def event_result(cfg: EventConfig, raw: dict[str, RawFile], as_of: dt.date, *, source: str,
                 site: str = "") -> EventResult:
    """GK rules 2, 4, 6 — every entry of the event's standings as a finish: its place by
    weighted points (rule 6), its game points over every stage it played, and each of its
    games in stage order (a forfeit, rule 12's time loss included, as not played over the
    board). Raises :class:`NoResults` when members.csv or entries.csv cannot be read (the
    event's pages then publish nothing either).

    Decision (issue 47): a correspondence event has no rounds; it counts in a series once it
    is complete (every stage played, GK's own ``event_complete``), its "rounds" being its
    stages (three; done: the stages whose every published section is complete, in order);
    the place is the competition place by weighted points among all entries, equal weighted
    points sharing it (the prize order's, without rule 6's prize eligibility: a series ranks
    every finisher); the points are game points (a series by game points adds them up); one
    section, the event's; a member is recognised by member id (an entry names its member);
    a game's number is its place in the entry's games, stage by stage. Decision: a member with
    several entries (GK rule 1 allows them) is in the series with the best of them — by place,
    then game points — as a series counts one result per member and event; a game against
    another member's other entry names that member's counted entry."""
    typed, findings = validate_files(read_back(raw), dict(cfg.files) or SCHEMAS,
                                     cfg.required_files or REQUIRED)
    if unusable(findings, "members.csv", "entries.csv"):
        raise NoResults("members.csv or entries.csv cannot be read (see the event's validation "
                        "report)")
    res = compute(cfg, typed, as_of, raw.get(GAMES))
    members = {r["member_id"]: r for r in typed["members.csv"].iter_rows(named=True)}
    st = res.standings
    order = {s.value: i for i, s in enumerate(Stage)}
    card = (res.scorecard.filter(pl.col("points").is_not_null())
            .with_columns(pl.col("stage").replace_strict(order, return_dtype=pl.Int64).alias("_s"))
            .sort("entry_id", "_s", "ended", "opponent", nulls_last=True))
    games: dict[str, list[RoundResult]] = {}
    for r in card.iter_rows(named=True):
        mine = games.setdefault(r["entry_id"], [])
        mine.append(RoundResult(len(mine) + 1, r["opponent"], float(r["points"]),
                                r["kind"] == Kind.PLAYED.value))
    best = res.series_entries
    kept = dict(zip(best["member_id"].to_list(), best["entry_id"].to_list(), strict=True))
    member_of = dict(zip(st["entry_id"].to_list(), st["member_id"].to_list(), strict=True))
    finishes = []
    for r in best.sort("entry_id").iter_rows(named=True):
        m = members.get(r["member_id"], {})
        played = tuple(dataclasses.replace(g, opponent=kept.get(member_of.get(g.opponent), g.opponent))
                       for g in games.get(r["entry_id"], ()))  # (the opponent member's kept entry)
        finishes.append(Finish(
            key=str(r["entry_id"]), name=str(r["name"] or m.get("name") or r["entry_id"]), section="",
            rank=r["_place"], points=float(r["_points"]), rounds=played,
            rating=m.get("rating") or None, member_id=str(r["member_id"] or ""), federation="",
            club="", email=str(m.get("email") or ""), line=m.get("line")))
    complete = 0
    for stage in Stage:  # the stages complete, in playing order
        if not _stage_complete(res.crosstables, stage):
            break
        complete += 1
    done = len(Stage) if res.event_complete else min(complete, len(Stage) - 1)
    return EventResult(source=source, name=cfg.event.name, start=cfg.event.start,
                       end=cfg.event.end, rounds=len(Stage), done=done,
                       finishes=tuple(finishes), sections=(("", cfg.event.name),), site=site)


def _stage_complete(crosstables: pl.DataFrame, stage: Stage) -> bool:
    """Whether the stage has published sections and every one of them is complete."""
    ct = crosstables.filter(pl.col("stage") == stage.value)
    return ct.height > 0 and bool(ct["section_complete"].all())

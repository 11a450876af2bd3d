"""US Chess Golden Knights correspondence championship (regulations 2017-2020): the whole event.

| rule | what | where |
|---|---|---|
| 1 | members, residence, membership current throughout | :func:`gk_entries.judge_entries`, :func:`gk_entries.membership_flags` |
| 2 | sections of 7, varying strengths, 6 games 3W/3B | :mod:`gk_sections`, :func:`gk_results.section_games` |
| 3 | advancement, 4-pointers, filling the last section | :func:`gk_advancement.rule_3_advancement` |
| 4 | gift certificate, framing certificate, pin | :func:`gk_prizes.rule_4_standings`, :func:`gk_prizes.rule_4_awards` |
| 5 | prizes scaled by entries assigned, title and plaque | :func:`gk_prizes.rule_5_prizes` |
| 6 | weighted points, tie sharing | :func:`gk_prizes.rule_6_weighted_points`, :func:`gk_prizes.rule_5_prizes`, :func:`gk_prizes.rule_6_prize_split`, :func:`gk_prizes.rule_6_stage_record` |
| 7 | the director's decisions are final | :func:`apply_rule_7_overrides` (overrides frame) |
| 8, 9 | fee, 10 entries, deadlines by number, carry forward | :func:`gk_entries.judge_entries` |
| 10 | US Chess CC rules | out of scope: not a regulation of this event's numbers |
| 11 | forfeits to two opponents | :func:`gk_results.rule_11_review` |
| 12 | time oversteps | :func:`gk_results.rule_12_rulings` |

Director overrides (rule 7), one row each, columns ``kind, stage, section, entry_id,
opponent, value, note`` (+ ``line``); unused columns empty:

| kind | uses | value |
|---|---|---|
| ``entry_status`` | entry_id | accepted / carried_forward / rejected |
| ``result`` | stage, section, entry_id, opponent | result from entry_id's side ("1-0" = entry_id won; "" = in progress) |
| ``advance`` | stage, entry_id | yes / no |
| ``prize_eligible`` | entry_id | yes / no |
| ``prize`` | entry_id | amount in dollars (replaces the computed prize; 0 removes it) |
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

import polars as pl

from transforms.core.cells import original_text
from transforms.core.config import EventConfig
from transforms.core.errors import Finding, Severity
from transforms.core.games import BulletinGame, GameRecord, GamesConfig
from transforms.core.ingest import RawFile
from transforms.core.model import MONEY
from transforms.golden_knights.advancement import QUALIFIERS_SCHEMA, rule_3_advancement
from transforms.golden_knights.entries import (
    ACCEPTED,
    ENTRY_STATUS_SCHEMA,
    carried_forward,
    judge_entries,
    membership_flags,
)
from transforms.golden_knights.games import check_section_games
from transforms.golden_knights.prizes import (
    PRIZE_SPLIT_SCHEMA,
    PRIZES_SCHEMA,
    counted_entries,
    rule_4_awards,
    rule_4_standings,
    rule_5_prizes,
    rule_6_prize_split,
    rule_6_stage_record,
    scaled_prize_table,
)
from transforms.golden_knights.results import (
    REVIEW_SCHEMA,
    crosstables,
    rule_7_result_overrides,
    rule_11_review,
    rule_12_rulings,
    scorecard,
    section_games,
    section_scores,
)
from transforms.golden_knights.rules import EntryStatus, GKRules, OverrideKind, Stage
from transforms.golden_knights.sections import (
    PROPOSED_SCHEMA,
    check_published_sections,
    propose_sections,
    section_schedule,
)

__all__ = ["OVERRIDES_SCHEMA", "GKResult", "GKRules", "run_golden_knights"]

OVERRIDES_SCHEMA = {
    "kind": pl.String(), "stage": pl.String(), "section": pl.String(), "entry_id": pl.String(),
    "opponent": pl.String(), "value": pl.String(), "note": pl.String(), "line": pl.Int64(),
}
"""rule 7 overrides (overrides.csv), see the module docstring."""
APPLIED_SCHEMA = {**{k: v for k, v in OVERRIDES_SCHEMA.items()}, "previous": pl.String(), "applied": pl.String()}
OVERRIDE_KINDS = tuple(k.value for k in OverrideKind)
Override = tuple[str | None, str, dict[str, Any]]
"""A director's decision (GK rule 7): its value, its note and its overrides.csv row."""
STANDINGS_COLUMNS = ["entry_id", "member_id", "name", "preliminary", "semifinal", "final", "weighted_points",
                     "forfeit_losses", "completed", "prize_eligible"]


@dataclass(frozen=True)
class GKResult:
    """Everything one run of a Golden Knights event produces (frames; the flows write them)."""

    entries: pl.DataFrame
    """entries.csv contract: entry_id, member_id, status (accepted | carried_forward | rejected), reason."""
    carried_forward: pl.DataFrame
    """Rule 9: entries moved to next year's event, in the input schema of entries.csv (no line)."""
    proposed_sections: pl.DataFrame
    """Rule 2: stage, section, entry_id, seat — for the director to publish (copy to sections.csv)."""
    waiting: pl.DataFrame
    """stage, entry_id: accepted entries / qualifiers not yet placed in a section."""
    schedule: pl.DataFrame
    """Rule 2: stage, section, white, black, status (published | proposed) — 21 games per section, 3W/3B each."""
    games: pl.DataFrame
    """Every game of every published section after rulings and overrides: stage, section, white,
    black, result (null = in progress), ended, line, source (games | schedule | rule 12 | rule 7)."""
    scorecard: pl.DataFrame
    """One row per player per game (see :func:`gk_results.scorecard`)."""
    crosstables: pl.DataFrame
    """stage, section, seat, entry_id, member_id, name, rating, c1…c7, score, finished, section_complete."""
    qualifiers: pl.DataFrame
    """qualifiers.csv contract: stage, section, entry_id, member_id, score, qualified, basis."""
    standings: pl.DataFrame
    """standings.csv contract (see STANDINGS_COLUMNS)."""
    prizes: pl.DataFrame
    """prizes.csv contract: place, entry_id, member_id, name, weighted_points, amount (Decimal)."""
    awards: pl.DataFrame
    """awards.csv contract: entry_id, member_id, award, value."""
    rulings: pl.DataFrame
    """Rule 12: stage, section, entry_id, opponent, reported, offense, ruling, result_before, result_after, line."""
    director_review: pl.DataFrame
    """rule, stage, section, entry_id, detail: rule 11 and 12 cases, ties for first, overrides applied."""
    membership_flags: pl.DataFrame
    """Rule 1: entry_id, member_id, name, email, membership_expires, flag, days_left."""
    applied_overrides: pl.DataFrame
    """Rule 7, for the manifest: the override row + previous (computed) and applied value."""
    entries_assigned: int
    """Rule 5: entries placed in published preliminary sections (scales the prize fund)."""
    event_complete: bool
    """Every published section of every stage is complete, a final exists and nobody waits."""
    prize_fund: tuple[int, ...]
    """Rule 5: the prize of each place in cents, scaled to ``entries_assigned``
    (:func:`gk_prizes.scaled_prize_table`)."""
    prize_split: pl.DataFrame
    """Rules 5, 6: how each money place was paid — the places involved, their sum, the share,
    the cents left over and who receives them (:func:`gk_prizes.rule_6_prize_split`); empty
    until the event is complete."""
    stage_records: pl.DataFrame
    """Rules 2, 6: each entry's record in each stage and the weighted points it gives
    (:func:`gk_prizes.rule_6_stage_record`)."""
    series_entries: pl.DataFrame = field(default_factory=pl.DataFrame)
    """The entry each member counts with in a series (:func:`gk_prizes.counted_entries`):
    ``member_id``, ``entry_id``, ``_place``, ``_points`` and the standings' columns."""
    findings: list[Finding] = field(default_factory=list)
    pgn_games: pl.DataFrame | None = None
    """The event's games as the server exported them (``games/*.pgn``), every one matched to
    its games.csv row or not (:func:`transforms.golden_knights.games.check_section_games`:
    :data:`transforms.core.games.GAME_COLUMNS`, ``section`` the group ``<stage>-<section>``);
    None when the event has no games folder. (:attr:`games` is the sections' games as
    games.csv and the rulings make them.)"""
    published_games: tuple[GameRecord, ...] = ()
    """The matched games that have ended, as the public site and the bulletin show them, in
    the order of the stages and sections."""
    bulletin_games: tuple[BulletinGame, ...] = ()
    """The games the bulletin prints (``[games] bulletin``, keys
    :func:`transforms.golden_knights.games.game_key`), with their diagrams."""
    game_sections: dict[str, str] = field(default_factory=dict)
    """Each published section's group id among the games (``preliminary-P01``) -> its
    printed name (``Preliminaries — section P01``), in the order of the stages."""


INPUT_SCHEMAS: dict[str, dict[str, pl.DataType]] = {
    "members": {"member_id": pl.String(), "name": pl.String(), "email": pl.String(),
                "membership_expires": pl.Date(), "country": pl.String(), "region": pl.String(),
                "apo_fpo": pl.Boolean(), "rating": pl.Int64(), "line": pl.Int64()},
    "entries": {"entry_id": pl.String(), "member_id": pl.String(), "received": pl.Date(),
                "channel": pl.String(), "fee_paid": MONEY, "line": pl.Int64()},
    "sections": {"stage": pl.String(), "section": pl.String(), "entry_id": pl.String(), "line": pl.Int64()},
    "games": {"stage": pl.String(), "section": pl.String(), "white": pl.String(), "black": pl.String(),
              "result": pl.String(), "ended": pl.Date(), "line": pl.Int64()},
    "oversteps": {"stage": pl.String(), "section": pl.String(), "entry_id": pl.String(),
                  "opponent": pl.String(), "reported": pl.Date(), "line": pl.Int64()},
}
"""What :func:`run_golden_knights` reads. Optional files may be passed as None; optional columns
(email, region, rating, ended, line) may be missing and are then null."""


def _complete(df: pl.DataFrame | None, schema: dict[str, pl.DataType]) -> pl.DataFrame:
    if df is None:
        return pl.DataFrame(schema=schema)
    missing = [pl.lit(None, dtype).alias(c) for c, dtype in schema.items() if c not in df.columns]
    df = df.with_columns(missing) if missing else df
    casts = {c: t for c, t in schema.items() if df.schema[c] != t}
    return df.cast(casts) if casts else df  # type: ignore[arg-type]  # polars#14468: cast() rejects a dict[str, DataType] variable


def _yes(v: str | None) -> bool | None:
    t = (v or "").strip().lower()
    return True if t in {"yes", "true", "1", "y"} else False if t in {"no", "false", "0", "n"} else None


def apply_rule_7_overrides(
    overrides: pl.DataFrame,
) -> tuple[dict[str, dict[Any, Override]], list[Finding]]:
    """GK rule 7 — the director's decisions are final: sort the override rows by kind.

    Returns {kind: {key: (value, note, row)}} for entry_status, advance, prize_eligible, prize
    (result overrides are applied to games by :func:`gk_results.rule_7_result_overrides`).
    Decision: a later row for the same key wins; an unknown kind or value is an error finding.
    """
    f: list[Finding] = []
    out: dict[str, dict[Any, Override]] = {k: {} for k in OVERRIDE_KINDS}
    for r in overrides.sort("line").iter_rows(named=True):
        kind = (r["kind"] or "").strip()
        if kind not in OVERRIDE_KINDS:
            f.append(Finding("overrides.csv", r["line"], "kind", kind, Severity.ERROR,
                             f"unknown override kind; use one of {', '.join(OVERRIDE_KINDS)}"))
            continue
        if kind == "result":
            continue
        v = r["value"]
        if kind == "entry_status" and v not in {s.value for s in EntryStatus}:
            f.append(Finding("overrides.csv", r["line"], "value", v or "", Severity.ERROR,
                             "entry_status must be accepted, carried_forward or rejected"))
            continue
        if kind in {"advance", "prize_eligible"} and _yes(v) is None:
            f.append(Finding("overrides.csv", r["line"], "value", v or "", Severity.ERROR, "use yes or no"))
            continue
        if kind == "prize":
            try:
                Decimal(v or "")
            except InvalidOperation:
                f.append(Finding("overrides.csv", r["line"], "value", v or "", Severity.ERROR,
                                 "prize must be an amount in dollars"))
                continue
        key = (r["stage"], r["entry_id"]) if kind == "advance" else r["entry_id"]
        out[kind][key] = (v, r["note"] or "", r)
    return out, f


def run_golden_knights(
    rules: GKRules,
    members: pl.DataFrame,
    entries: pl.DataFrame,
    sections: pl.DataFrame | None,
    games: pl.DataFrame | None,
    oversteps: pl.DataFrame | None,
    overrides: pl.DataFrame | None = None,
    *,
    event_year: int,
    as_of: dt.date,
    carried_in: pl.DataFrame | None = None,
    currency: str = "USD",
    pgn: RawFile | None = None,
    games_config: GamesConfig | None = None,
    event_name: str = "",
    site: str = "",
) -> GKResult:
    """GK rules 1-12 — carry an event from its entries to prizes, as far as its games have gone.

    Inputs are typed frames with a 1-based ``line`` column (see DESIGN.md and the lead's
    ingest). ``overrides`` follows :data:`OVERRIDES_SCHEMA` (may be None or empty).
    ``carried_in`` is the previous year's ``carried_forward`` output (entries.csv columns +
    ``line``), or None. ``pgn``: the event's ``games/*.pgn`` as the flow read them (None: no
    games folder), checked against games.csv (GK rule 2, :func:`check_section_games`) and
    published as ``event_name`` at ``site``, the bulletin's chosen by ``games_config``.
    Decision: prizes (and the title) are computed only when the event is complete; before that
    prizes is empty and standings are provisional.
    Decision: sections are proposed only from the pairing start (1 Jan of the event year, rule 9).
    """
    findings: list[Finding] = []
    applied: list[dict[str, Any]] = []
    review: list[tuple[Any, ...]] = []  # REVIEW_SCHEMA's columns
    members = _complete(members, INPUT_SCHEMAS["members"])
    entries = _complete(entries, INPUT_SCHEMAS["entries"])
    sections = _complete(sections, INPUT_SCHEMAS["sections"])
    games = _complete(games, INPUT_SCHEMAS["games"])
    oversteps = _complete(oversteps, INPUT_SCHEMAS["oversteps"])
    ov = _complete(overrides, OVERRIDES_SCHEMA)
    director, f = apply_rule_7_overrides(ov)
    findings += f

    # --- entries (rules 1, 8, 9) ---
    cin = None if carried_in is None else _complete(carried_in, INPUT_SCHEMAS["entries"])
    judged, f = judge_entries(rules, members, entries, event_year=event_year, carried_in=cin,
                              currency=currency)
    findings += f
    for r in judged.filter(pl.col("received") > pl.lit(as_of)).iter_rows(named=True):
        findings.append(Finding(r["file"], r["line"], "received", str(r["received"]), Severity.WARNING,
                                f"received after the run date {as_of.isoformat()}"))
    for eid, (v, note, row) in director["entry_status"].items():
        hit = judged.filter(pl.col("entry_id") == eid)
        if hit.is_empty():
            findings.append(Finding("overrides.csv", row["line"], "entry_id", eid or "", Severity.ERROR,
                                    "entry_id not in entries.csv; override ignored"))
            continue
        applied.append({**row, "previous": hit["status"][0], "applied": v})
        judged = judged.with_columns(
            status=pl.when(pl.col("entry_id") == eid).then(pl.lit(v)).otherwise("status"),
            reason=pl.when(pl.col("entry_id") == eid).then(pl.lit(f"director's decision (rule 7): {note}"))
            .otherwise("reason"),
        )
    entries_out = judged.select(list(ENTRY_STATUS_SCHEMA)).cast(ENTRY_STATUS_SCHEMA)  # type: ignore[arg-type]  # polars#14468: cast() rejects a dict[str, DataType] variable
    accepted = set(judged.filter(pl.col("status") == ACCEPTED)["entry_id"].to_list())
    people = judged.unique("entry_id", keep="first").select("entry_id", "member_id").join(
        members.select("member_id", "name", "rating").unique("member_id", keep="first"), on="member_id", how="left")

    # --- published sections, games, rulings, overrides (rules 2, 7, 11, 12) ---
    seated, f = check_published_sections(rules, sections, people.select("entry_id", "member_id"), accepted)
    findings += f
    all_games, f = section_games(rules, seated, games)
    findings += f
    reported = all_games  # (games.csv as the players reported it: what a PGN is checked against)
    pstart = rules.pairing_start(event_year)
    for r in all_games.filter(pl.col("ended") < pl.lit(pstart)).iter_rows(named=True):
        findings.append(Finding("games.csv", r["line"], "ended", str(r["ended"]), Severity.WARNING,
                                f"game ended before pairings began on {pstart.isoformat()} (rule 9)"))
    for r in all_games.filter(pl.col("ended") > pl.lit(as_of)).iter_rows(named=True):
        findings.append(Finding("games.csv", r["line"], "ended", str(r["ended"]), Severity.WARNING,
                                f"game ended after the run date {as_of.isoformat()}"))
    all_games, rulings, rv, f = rule_12_rulings(rules, all_games, oversteps)
    findings += f
    review += rulings.select(
        rule=pl.lit("12"), stage="stage", section="section", entry_id="entry_id",
        detail=pl.format("overstep {} against {} reported {}: {}", pl.col("offense"), pl.col("opponent"),
                         pl.col("reported").dt.to_string("%Y-%m-%d"),
                         pl.when(pl.col("ruling") == "loss_of_game").then(pl.lit("loss of game"))
                         .otherwise(pl.lit(f"{rules.reflection_penalty_days}-day reflection-time penalty"))),
    ).rows()
    review += rv.rows()
    all_games, app, f = rule_7_result_overrides(all_games, ov)
    findings += f
    applied += app
    card = scorecard(all_games)
    scores = section_scores(card)
    review += rule_11_review(scores).rows()

    # --- advancement and proposals, stage by stage (rules 2, 3) ---
    proposed_parts, waiting_parts, qual_parts = [], [], []
    prev_done = True
    pool_next: pl.DataFrame | None = None
    for stage in Stage:
        st = stage.value
        in_stage = seated.filter(pl.col("stage") == st)
        if stage is Stage.PRELIMINARY:
            pool = people.filter(pl.col("entry_id").is_in(sorted(accepted))) if as_of >= pstart \
                else people.clear()
        else:
            pool = pool_next if pool_next is not None else people.clear()
        pool = pool.filter(~pl.col("entry_id").is_in(in_stage["entry_id"].to_list()))
        prop, wait = propose_sections(rules, st, pool, existing_names=in_stage["section"].unique().to_list())
        proposed_parts.append(prop)
        waiting_parts.append(wait.with_columns(stage=pl.lit(st)).select("stage", "entry_id"))
        sc = scores.filter(pl.col("stage") == st)
        # Decision: a stage is complete when the stages before it are, it has sections, all
        # of them are complete and no new section of it is proposed.
        stage_done = prev_done and prop.is_empty() and not sc.is_empty() and bool(sc["section_complete"].all())
        if stage.next is not None:  # (not the final)
            nxt = stage.next.value
            # (each value is yes or no: apply_rule_7_overrides checked it)
            adv = {e: (yes, note) for (s, e), (v, note, _) in director["advance"].items()
                   if s == st and (yes := _yes(v)) is not None}
            q = rule_3_advancement(
                rules, st, sc, people.select("entry_id", "member_id", "rating"), stage_complete=stage_done,
                next_stage_entries=set(seated.filter(pl.col("stage") == nxt)["entry_id"].to_list()),
                director=adv,
            )
            for (s, e), (v, _note, row) in director["advance"].items():
                if s == st:
                    if e in q["entry_id"].to_list():
                        applied.append({**row, "previous": None, "applied": v})
                    else:
                        findings.append(Finding("overrides.csv", row["line"], "entry_id", e or "", Severity.ERROR,
                                                f"entry not in a complete {st} section; advance override not applied yet"))
            qual_parts.append(q)
            qualified = q.filter(pl.col("qualified"))["entry_id"].to_list()
            pool_next = people.filter(pl.col("entry_id").is_in(qualified))
            nxt_ids = set(seated.filter(pl.col("stage") == nxt)["entry_id"].to_list())
            for r in seated.filter((pl.col("stage") == nxt) & ~pl.col("entry_id").is_in(qualified)).iter_rows(named=True):
                if r["entry_id"] in nxt_ids:
                    findings.append(Finding("sections.csv", r["line"], "entry_id", r["entry_id"], Severity.WARNING,
                                            f"placed in the {nxt} without a {st} qualification (rule 3); kept as "
                                            "the director's decision (rule 7)"))
        prev_done = stage_done
    proposed = pl.concat(proposed_parts) if proposed_parts else pl.DataFrame(schema=PROPOSED_SCHEMA)
    waiting = pl.concat(waiting_parts)
    for r in waiting.join(judged.unique("entry_id", keep="first").select("entry_id", "file", "line"),
                          on="entry_id", how="left").iter_rows(named=True):
        findings.append(Finding(r["file"] or "entries.csv", r["line"], "entry_id", r["entry_id"], Severity.WARNING,
                                f"waiting for a {r['stage']} section of {rules.section_size} (rule 2)"))
    qualifiers = pl.concat(qual_parts).cast(QUALIFIERS_SCHEMA) if qual_parts else pl.DataFrame(schema=QUALIFIERS_SCHEMA)  # type: ignore[arg-type]  # polars#14468: cast() rejects a dict[str, DataType] variable
    final_exists = not seated.filter(pl.col("stage") == Stage.FINAL.value).is_empty()
    event_complete = (prev_done and final_exists and proposed.is_empty()
                      and waiting.filter(pl.col("stage") != Stage.PRELIMINARY.value).is_empty())

    sched = pl.concat([
        section_schedule(rules, seated.select("stage", "section", "entry_id", "seat")).with_columns(status=pl.lit("published")),
        section_schedule(rules, proposed).with_columns(status=pl.lit("proposed")),
    ])

    # --- standings, prizes, awards (rules 4, 5, 6) ---
    pe = {e: (yes, note) for e, (v, note, _) in director["prize_eligible"].items()
          if (yes := _yes(v)) is not None}  # (each yes or no: checked)
    standings = rule_4_standings(rules, card, scores, people, pe)
    for _e, (v, _note, row) in director["prize_eligible"].items():
        applied.append({**row, "previous": None, "applied": v})
    assigned = seated.filter(pl.col("stage") == Stage.PRELIMINARY.value)["entry_id"].n_unique()
    prizes = rule_5_prizes(rules, standings, assigned) if event_complete else pl.DataFrame(schema=PRIZES_SCHEMA)
    split = (rule_6_prize_split(rules, standings, assigned) if event_complete
             else pl.DataFrame(schema=PRIZE_SPLIT_SCHEMA))
    if event_complete and director["prize"]:
        prizes = _prize_overrides(prizes, standings, director["prize"], applied)
    if event_complete and prizes.filter(pl.col("place") == 1).height > 1:
        for e in prizes.filter(pl.col("place") == 1)["entry_id"].to_list():
            review.append(("5", Stage.FINAL.value, None, e, "tied for first place: co-champion (title and plaque)"))
    awards = rule_4_awards(rules, qualifiers, standings, prizes)

    # --- membership throughout (rule 1) ---
    out_ids = set(qualifiers.filter(~pl.col("qualified"))["entry_id"].to_list())
    finished = set(scores.filter((pl.col("stage") == Stage.FINAL.value) & pl.col("section_complete"))["entry_id"].to_list())
    in_play = set(seated["entry_id"].to_list()) | accepted
    active = people.filter(pl.col("entry_id").is_in(sorted(in_play - out_ids - finished)))
    flags = membership_flags(rules, members, active, as_of=as_of)

    for a in applied:
        review.append(("7", a.get("stage"), a.get("section"), a.get("entry_id"),
                       f"override {a['kind']}: {a.get('previous')} -> {a.get('applied')} ({a.get('note') or ''})"))
    applied_df = pl.DataFrame([{k: a.get(k) for k in APPLIED_SCHEMA} for a in applied], schema=APPLIED_SCHEMA) \
        if applied else pl.DataFrame(schema=APPLIED_SCHEMA)
    pgn_games = None
    published: tuple[GameRecord, ...] = ()
    chosen: tuple[BulletinGame, ...] = ()
    game_sections: dict[str, str] = {}
    if pgn is not None:
        checked = check_section_games(pgn, reported, all_games, people, event=event_name, site=site,
                                      start=pstart, chosen=games_config)
        pgn_games, published, chosen = checked.games, checked.published, checked.bulletin
        game_sections = checked.sections
        findings += checked.findings
    return GKResult(
        entries=entries_out,
        carried_forward=carried_forward(judged, entries.columns),
        proposed_sections=proposed,
        waiting=waiting,
        schedule=sched,
        games=all_games,
        scorecard=card,
        crosstables=crosstables(seated, card, scores, people),
        qualifiers=qualifiers,
        standings=standings.select(STANDINGS_COLUMNS),
        series_entries=counted_entries(standings.select(STANDINGS_COLUMNS)),
        prizes=prizes,
        awards=awards,
        rulings=rulings,
        director_review=pl.DataFrame(review, schema=REVIEW_SCHEMA, orient="row"),
        membership_flags=flags,
        applied_overrides=applied_df,
        entries_assigned=assigned,
        event_complete=event_complete,
        prize_fund=tuple(scaled_prize_table(rules, assigned)),
        prize_split=split,
        stage_records=rule_6_stage_record(rules, card),
        findings=findings,
        pgn_games=pgn_games,
        published_games=published,
        bulletin_games=chosen,
        game_sections=game_sections,
    )


def _prize_overrides(prizes: pl.DataFrame, standings: pl.DataFrame, over: dict[Any, Override],
                     applied: list[dict[str, Any]]) -> pl.DataFrame:
    """GK rule 7 — "the distribution of prizes": the director's amount replaces the computed one."""
    rows = {r["entry_id"]: r for r in prizes.iter_rows(named=True)}
    for e, (v, _note, row) in over.items():
        assert v is not None  # (an amount: apply_rule_7_overrides checked it)
        amount = Decimal(v).quantize(Decimal("0.01"))
        prev = rows.get(e, {}).get("amount")
        applied.append({**row, "previous": None if prev is None else str(prev), "applied": str(amount)})
        if amount == 0:
            rows.pop(e, None)
            continue
        s = standings.filter(pl.col("entry_id") == e)
        base = rows.get(e) or {"place": None, "entry_id": e,
                               "member_id": s["member_id"][0] if s.height else None,
                               "name": s["name"][0] if s.height else None,
                               "weighted_points": s["weighted_points"][0] if s.height else None}
        rows[e] = {**base, "amount": amount}
    return pl.DataFrame(list(rows.values()), schema=PRIZES_SCHEMA).sort("place", "entry_id", nulls_last=True)


READ_BACK = {"sections.csv": "proposed_sections.csv", "carried_in.csv": "carried_forward.csv"}
"""Input files the office makes by copying a CSV of a run (GK rule 9's carried entries, the
director's sections): input file -> the output it is copied from."""


def read_back(raw: dict[str, RawFile]) -> dict[str, RawFile]:
    """GK rules 2, 9 (the director publishes the proposed sections; carried entries come back
    the next year) — the files of :data:`READ_BACK` with every cell as the run had it before
    it wrote the CSV (:func:`transforms.core.cells.original_text`: without the apostrophe it
    put before a cell that could start a formula), so that a copied proposal names the same
    entries; the other files as they are."""
    def cells(frame: pl.DataFrame) -> pl.DataFrame:
        return frame.with_columns(original_text(pl.col(c)).alias(c)
                                  for c, t in frame.schema.items() if t == pl.String)
    return {name: (cells(frame), found) if name in READ_BACK else (frame, found)
            for name, (frame, found) in raw.items()}


def compute(cfg: EventConfig, typed: dict[str, pl.DataFrame], as_of: dt.date,
            pgn: RawFile | None = None) -> GKResult:
    """GK rules 1-12 — the rulebook's run of the event on its typed input files and, where the
    event has a games folder, its PGN files as read (``pgn``: the raw inputs' ``games/``)."""
    rules = cfg.table(GKRules)
    assert rules is not None
    return run_golden_knights(
        rules, typed["members.csv"], typed["entries.csv"], typed.get("sections.csv"),
        typed.get("games.csv"), typed.get("time_oversteps.csv"), typed.get("overrides.csv"),
        event_year=cfg.event.start.year, as_of=as_of, carried_in=typed.get("carried_in.csv"),
        currency=cfg.event.currency, pgn=pgn, games_config=cfg.table(GamesConfig),
        event_name=cfg.event.name, site=cfg.event.venue)


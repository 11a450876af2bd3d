"""The Swiss event flow (National Junior): read → validate → entries → scorecard →
standings / crosstable / prizes → next-round pairing and audit → publish."""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl
from prefect import flow

from flows import common
from flows.publish import render
from flows.publish import swiss as pages
from transforms.core.config import Category, EventConfig, from_table
from transforms.core.errors import ChessfedError, Finding, Severity
from transforms.core.ingest import SWISS_REQUIRED, SWISS_SCHEMAS
from transforms.fide.dutch.engine import pair_round
from transforms.fide.standings import allocate_prizes, rank_players
from transforms.fide.trf import write_trf
from transforms.national_junior.entries import (
    EntryDecision,
    JuniorEntryRules,
    evaluate_entries,
    flag_early_draws,
)
from transforms.national_junior.same_state import pair_round_same_state
from transforms.swiss import rounds as sr
from transforms.swiss import scorecard as sc


@dataclass
class CategoryRun:
    """One category's state in this run."""

    cat: Category
    players: pl.DataFrame
    """Accepted players of the category, with ``sno``."""
    results: pl.DataFrame
    """The category's checked results.csv rows (all rounds, finished or not)."""
    done: int
    """Rounds complete from round 1 on."""
    card: pl.DataFrame
    """Scorecard through ``done``."""
    rankings: dict[int, pl.DataFrame] = field(default_factory=dict)
    """Round -> standings after it (points and tie-breaks)."""


@dataclass
class SwissRun:
    cfg: EventConfig
    as_of: dt.date
    typed: dict[str, pl.DataFrame]
    findings: list[Finding]
    entries: EntryDecision | None
    categories: list[CategoryRun]
    blocked: str = ""
    """Why standings and pairings are not published (errors in the files they depend on)."""


def check_players(players: pl.DataFrame, cfg: EventConfig, as_of: dt.date) -> list[Finding]:
    """DESIGN.md Inputs — players in a configured category, with possible dates."""
    assert cfg.swiss is not None
    cats = {c.id for c in cfg.swiss.categories}
    out = []
    for r in players.iter_rows(named=True):
        if r["section"] not in cats:
            out.append(Finding("players.csv", r["line"], "section", r["section"], Severity.ERROR,
                               f"not a category of this event ({', '.join(sorted(cats))})"))
        if r["birth_date"] is not None and r["birth_date"] > as_of:
            out.append(Finding("players.csv", r["line"], "birth_date", str(r["birth_date"]),
                               Severity.ERROR, f"impossible date: after the run date {as_of}"))
        if r["birth_date"] is not None and r["birth_date"].year < 1900:
            out.append(Finding("players.csv", r["line"], "birth_date", str(r["birth_date"]),
                               Severity.ERROR, "impossible date: before 1900"))
        if r["registered_at"] is not None and r["registered_at"].date() > cfg.event.end:
            out.append(Finding("players.csv", r["line"], "registered_at", str(r["registered_at"]),
                               Severity.ERROR, f"impossible date: after the event ended {cfg.event.end}"))
    return out


def check_player_refs(frame: pl.DataFrame, file: str, known: set[str], rounds: int) -> list[Finding]:
    """DESIGN.md Inputs — withdrawals and bye requests name known players and real rounds."""
    out = []
    for r in frame.iter_rows(named=True):
        if r["player_id"] not in known:
            out.append(Finding(file, r["line"], "player_id", r["player_id"], Severity.ERROR,
                               "unknown player (not in players.csv or rejected there)"))
        col = "round" if "round" in r else "from_round"
        if r.get(col) is not None and r[col] > rounds:
            out.append(Finding(file, r["line"], col, str(r[col]), Severity.ERROR,
                               f"the event has {rounds} rounds"))
    return out


def prepare(cfg: EventConfig, raw: dict, as_of: dt.date) -> SwissRun:
    """Validate, decide entries, check results and build every category's scorecard."""
    assert cfg.swiss is not None
    typed, findings = common.validate(raw, SWISS_SCHEMAS, SWISS_REQUIRED)
    players = typed.get("players.csv")
    if players is None or "registered_at" not in players.columns or players.schema["registered_at"] == pl.String:
        return SwissRun(cfg, as_of, typed, findings, None, [],
                        blocked="players.csv is missing or unreadable (see the validation report).")
    findings += check_players(players, cfg, as_of)
    bad = {f.line for f in findings if f.file == "players.csv" and f.severity is Severity.ERROR}
    players = players.filter(~pl.col("line").is_in(sorted(x for x in bad if x is not None)))
    entries = None
    assoc = typed.get("associations.csv")
    if assoc is not None and "entries" in cfg.rules and "arrears_cleared" in assoc.columns:
        rules = from_table(JuniorEntryRules, cfg.rules["entries"], file=cfg.source, key="entries")
        entries = evaluate_entries(players, assoc, rules)
        findings += list(entries.findings)
        accepted = set(entries.decisions.filter(pl.col("status") == "accepted")["player_id"])
        players = players.filter(pl.col("player_id").is_in(sorted(accepted)))
    rounds = cfg.swiss.rounds
    known = set(players["player_id"])
    for name in ("withdrawals.csv", "bye_requests.csv"):
        if name in typed and typed[name].height and "player_id" in typed[name].columns:
            findings += check_player_refs(typed[name], name, known, rounds)
    results = typed.get("results.csv")
    if results is None or "round" not in results.columns or results.schema["round"] == pl.String:
        results = pl.DataFrame(schema={"line": pl.Int64, "round": pl.Int64, "board": pl.Int64,
                                       "white_id": pl.String, "black_id": pl.String,
                                       "result": pl.String, "moves": pl.Int64,
                                       "draw_consent": pl.Boolean})
    results, more = sc.check_results(results, players, rounds=rounds,
                                     withdrawals=typed.get("withdrawals.csv"))
    findings += more
    findings += flag_early_draws(results)
    run = SwissRun(cfg, as_of, typed, findings, entries, [])
    if common.has_errors(findings, "results.csv"):
        run.blocked = ("results.csv has errors: standings and pairings wait until they are "
                       "corrected (see the validation report).")
    players = sc.assign_start_numbers(players)
    for cat in cfg.swiss.categories:
        cp = players.filter(pl.col("section") == cat.id)
        cr = results.filter(pl.col("section") == cat.id)
        done = sc.complete_rounds(cr) if cr.height else 0
        card = sc.scorecard_from_results(cr, cp.select("player_id", "sno"), through_round=done,
                                         pab_points=cfg.swiss.pab_points)
        run.categories.append(CategoryRun(cat, cp, cr, done, card))
    return run


def standings(run: SwissRun, c: CategoryRun, through: int) -> pl.DataFrame:
    """Standings after round ``through``: points then the configured tie-breaks."""
    assert run.cfg.swiss is not None
    card = c.card.filter(pl.col("round") <= through)
    return rank_players(card, c.players.select("sno", "name", "rating"), run.cfg.swiss.tiebreaks,
                        edition=run.cfg.swiss.tiebreak_edition, rounds=through)


def engine_input(run: SwissRun, c: CategoryRun, round_no: int, setup: sr.RoundSetup):
    s = run.cfg.swiss
    assert s is not None
    return sr.engine_input(c.players, c.card, round_no, setup, name=f"{run.cfg.event.name} — {c.cat.name}",
                           total_rounds=s.rounds, edition=s.dutch_edition, initial_colour=s.initial_colour)


def pair(run: SwissRun, c: CategoryRun, r: int, setup: sr.RoundSetup) -> tuple[list, list[str]]:
    """FIDE C.04.3 Dutch pairing of round ``r``; in the last round with
    ``last_round_same_state`` the National Junior's same-state rule is applied on top (a
    declared departure, see transforms/same_state.py). Returns the boards and the rule's log."""
    s = run.cfg.swiss
    assert s is not None
    t = engine_input(run, c, r, setup)
    if s.last_round_same_state and r == s.rounds:
        states = {sno: st for sno, st in zip(c.players["sno"], c.players["state"]) if st}
        names = dict(zip(c.players["sno"], c.players["name"]))
        boards, log = pair_round_same_state(t, states, edition=s.dutch_edition, names=names)
        return boards, log or ["The Dutch pairing had no same-state game among the top 50%: "
                               "no pairing was changed."]
    return pair_round(t, round_no=r, edition=s.dutch_edition), []


def next_pairing(run: SwissRun, c: CategoryRun) -> tuple[int, list, sr.RoundSetup, list[str]] | None:
    """FIDE C.04.3 — pair the round after the last complete one, if it is not paired yet
    (no rows for it in results.csv) and the event has rounds left."""
    s = run.cfg.swiss
    assert s is not None
    r = c.done + 1
    if r > s.rounds or c.results.filter(pl.col("round") == r).height:
        return None
    setup = sr.round_setup(c.players, r, run.typed.get("bye_requests.csv"), run.typed.get("withdrawals.csv"))
    boards, log = pair(run, c, r, setup)
    return r, boards, setup, log


def audit(run: SwissRun, c: CategoryRun) -> tuple[list[dict], dict[int, list[str]]]:
    """Re-pair every complete round from its history (like ``pair -c``) and list the rounds
    whose recorded pairing differs from the engine's; also returns the same-state rule's log
    of each round it applied to."""
    out = []
    logs: dict[int, list[str]] = {}
    for r in range(1, c.done + 1):
        setup = sr.setup_from_scorecard(c.card, r)
        try:
            boards, log = pair(run, c, r, setup)
            ours = set(boards)
            if log:
                logs[r] = log
        except ChessfedError as e:
            out.append({"category": c.cat.id, "round": r, "difference": f"engine: {e}"})
            continue
        recorded = sr.recorded_boards(c.card, r)
        if ours != recorded:
            only_rec = sorted(recorded - ours, key=str)
            only_ours = sorted(ours - recorded, key=str)
            out.append({"category": c.cat.id, "round": r,
                        "difference": f"recorded only {only_rec}; engine only {only_ours}"})
    return out, logs


@flow(name="swiss-event")
def swiss_event(event_dir: Path, out_dir: Path, as_of: dt.date | None = None) -> dict:
    """Run one Swiss event folder into ``out_dir``."""
    started = time.perf_counter()
    cfg = common.read_config(event_dir)
    assert cfg.swiss is not None
    as_of = as_of or cfg.event.as_of or dt.date.today()
    pub = common.Publication(out_dir)
    names = list(SWISS_SCHEMAS)
    raw = common.read_inputs(event_dir, names)
    t = time.perf_counter()
    run = prepare(cfg, raw, as_of)
    pub.timings["validate_s"] = round(time.perf_counter() - t, 3)
    ctx = common.event_context(cfg, as_of)
    bulletin, highlights = [], []
    if run.entries is not None:
        bulletin += pages.entries(pub, run, ctx)
    if run.blocked:
        pub.notes.append(run.blocked)
        bulletin.append(pages.Section("Not published", intro=[run.blocked]))
    else:
        t = time.perf_counter()
        for c in run.categories:
            for r in range(1, c.done + 1):
                c.rankings[r] = standings(run, c, r)
        pub.timings["standings_s"] = round(time.perf_counter() - t, 3)
        pages.standings_by_round(pub, run, ctx)
        t = time.perf_counter()
        audits, pairings, logs = [], {}, {}
        for c in run.categories:
            diffs, logs[c.cat.id] = audit(run, c)
            audits += diffs
            nxt = next_pairing(run, c)
            if nxt is not None:
                pairings[c.cat.id] = nxt
                if nxt[3]:
                    logs[c.cat.id][nxt[0]] = nxt[3]
        pub.timings["pairing_s"] = round(time.perf_counter() - t, 3)
        pages.pairings_by_round(pub, run, pairings, logs, ctx)
        for c in run.categories:
            if c.done:
                pub.files[f"event-{c.cat.id}.trf"] = write_trf(engine_input(
                    run, c, c.done + 1, sr.RoundSetup({}, frozenset())))
        bulletin += pages.bulletin_sections(pub, run, pairings, audits, ctx, highlights)
        for d in audits:
            pub.notes.append(f"pairing audit {d['category']} round {d['round']}: {d['difference']}")
        prizes = {c.cat.id: allocate_prizes(c.rankings[c.done], c.cat.prizes, shared=cfg.swiss.prizes_shared)
                  for c in run.categories if c.done == cfg.swiss.rounds and c.cat.prizes}
        if prizes:
            bulletin += pages.prizes(pub, run, prizes, ctx)
    common.publish_validation(pub, cfg, run.findings, as_of)
    pub.pdfs["bulletin.pdf"] = render.render_page(
        "report.html", title="Bulletin", subtitle=f"As of {as_of:%d %B %Y}.", sections=bulletin, **ctx)
    n_err = sum(f.severity is Severity.ERROR for f in run.findings)
    pub.files["index.html"] = render.render_page(
        "index.html", title=cfg.event.name, subtitle=f"Published {as_of:%d %B %Y}.",
        facts=pages.event_facts(run), errors=n_err, warnings=len(run.findings) - n_err,
        sections=[], highlights=highlights, links=common.link_list(pub), **ctx)
    recipients = [(r.name, r.email) for r in cfg.publish.recipients]
    assoc = run.typed.get("associations.csv")
    if assoc is not None and "email" in assoc.columns:
        recipients += [(r["name"], r["email"]) for r in assoc.iter_rows(named=True) if r["email"]]
    messages = common.outbox(cfg, recipients, subject=f"{cfg.event.name} — bulletin",
                             lead=f"Here is the bulletin of the {cfg.event.name} as of {as_of:%d %B %Y}.",
                             highlights=highlights, as_of=as_of)
    return common.finish(pub, cfg, event_dir, names, as_of, started, messages)

"""The Swiss event flow (National Junior): read → validate → entries → scorecard →
standings / crosstable / prizes → next-round pairing → publish."""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path

import polars as pl
from prefect import flow

from flows import common, render
from flows.present import Section, table_from_frame
from transforms import scorecard as sc
from transforms.config import EventConfig
from transforms.errors import Finding, Severity
from transforms.ingest import SWISS_REQUIRED, SWISS_SCHEMAS


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
    out = []
    for r in frame.iter_rows(named=True):
        if r["player_id"] not in known:
            out.append(Finding(file, r["line"], "player_id", r["player_id"], Severity.ERROR,
                               "unknown player (not in players.csv or rejected there)"))
        rnd = r.get("round", r.get("from_round"))
        if rnd is not None and rnd > rounds:
            col = "round" if "round" in r else "from_round"
            out.append(Finding(file, r["line"], col, str(rnd), Severity.ERROR,
                               f"the event has {rounds} rounds"))
    return out


def standings_section(cat_name: str, ranking: pl.DataFrame, players: pl.DataFrame, codes: list[str],
                      after_round: int) -> Section:
    frame = ranking.join(players.select("sno", "state", "rating", "title"), on="sno", how="left")
    cols = [("rank", "Rk"), ("sno", "SNo"), ("title", ""), ("name", "Name"), ("state", "State"),
            ("rating", "Rtg"), ("points", "Pts")] + [(c, c) for c in codes]
    return Section(f"{cat_name} — standings after round {after_round}",
                   tables=[table_from_frame(frame, cols, numeric=["rank", "sno", "rating", "points", *codes])])


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
    typed, findings = common.validate(raw, SWISS_SCHEMAS, SWISS_REQUIRED)
    players = typed.get("players.csv", pl.DataFrame(schema={c.name: pl.String for c in SWISS_SCHEMAS["players.csv"].columns}))
    findings += check_players(players, cfg, as_of)
    bad_lines = {f.line for f in findings if f.file == "players.csv" and f.severity is Severity.ERROR}
    players = players.filter(~pl.col("line").is_in(sorted(x for x in bad_lines if x is not None)))
    known = set(players["player_id"])
    rounds = cfg.swiss.rounds
    for name in ("withdrawals.csv", "bye_requests.csv"):
        if name in typed:
            findings += check_player_refs(typed[name], name, known, rounds)
    results = typed.get("results.csv")
    if results is not None and not common.has_errors(findings, "players.csv"):
        results, more = sc.check_results(results, players, rounds=rounds,
                                         withdrawals=typed.get("withdrawals.csv"))
        findings += more
    pub.timings["validate_s"] = round(time.perf_counter() - t, 3)

    ctx = common.event_context(cfg, as_of)
    sections: list[Section] = []
    bulletin: list[Section] = []
    highlights: list[str] = []
    blocked = common.has_errors(findings, "players.csv", "results.csv")
    if blocked:
        msg = ("Standings and pairings are not published: players.csv or results.csv has errors "
               "(see the validation report).")
        pub.notes.append(msg)
        sections.append(Section("Not published", intro=[msg]))
    else:
        players = sc.assign_start_numbers(players)
        per_round: dict[int, list[Section]] = {}
        per_round_csv: dict[int, list[pl.DataFrame]] = {}
        for cat in cfg.swiss.categories:
            cp = players.filter(pl.col("section") == cat.id)
            cr = (results.filter(pl.col("section") == cat.id) if results is not None
                  else pl.DataFrame(schema={"round": pl.Int64, "result": pl.String}))
            done = sc.complete_rounds(cr) if cr.height else 0
            card = sc.scorecard_from_results(cr, cp.select("player_id", "sno"), through_round=done,
                                             pab_points=cfg.swiss.pab_points) if done else None
            for r in range(1, done + 1):
                ranking = sc.points_ranking(card.filter(pl.col("round") <= r), cp)
                per_round.setdefault(r, []).append(
                    standings_section(cat.name, ranking, cp, [], r))
                per_round_csv.setdefault(r, []).append(
                    ranking.with_columns(pl.lit(cat.id).alias("category")).select("category", *ranking.columns))
            if done:
                ranking = sc.points_ranking(card, cp)
                final = standings_section(cat.name, ranking, cp, [], done)
                bulletin.append(final)
                cross = sc.crosstable(card, ranking)
                rcols = [c for c in cross.columns if c.startswith("r") and c[1:].isdigit()]
                bulletin.append(Section(
                    f"{cat.name} — crosstable after round {done}", wide=True,
                    tables=[table_from_frame(cross, [("rank", "Rk"), ("name", "Name"), ("points", "Pts")]
                                             + [(c, c[1:]) for c in rcols],
                                             numeric=["rank", "points"], cell_cols=rcols)]))
                top = ranking.row(0, named=True)
                highlights.append(f"{cat.name}: {top['name']} leads with {common_fmt(top['points'])} "
                                  f"after round {done}.")
            else:
                entries = cp.select("sno", "name", "state", "rating")
                bulletin.append(Section(f"{cat.name} — starting list ({cp.height} players)",
                                        tables=[table_from_frame(entries, [("sno", "SNo"), ("name", "Name"),
                                                                           ("state", "State"), ("rating", "Rtg")],
                                                                 numeric=["sno", "rating"])]))
                highlights.append(f"{cat.name}: {cp.height} players on the starting list.")
        for r, secs in sorted(per_round.items()):
            rel = f"standings/round-{r:02d}"
            pub.files[f"{rel}.csv"] = pl.concat(per_round_csv[r]).write_csv()
            pub.page(f"{rel}.html", render.render_page(
                "report.html", title=f"Standings after round {r}", subtitle="", sections=secs, **ctx))
        sections.extend(bulletin)

    common.publish_validation(pub, cfg, findings, as_of)
    n_err = sum(f.severity is Severity.ERROR for f in findings)
    n_warn = len(findings) - n_err
    pub.pdfs["bulletin.pdf"] = render.render_page(
        "report.html", title="Bulletin", subtitle=f"As of {as_of:%d %B %Y}.", sections=bulletin or sections, **ctx)
    pub.files["index.html"] = render.render_page(
        "index.html", title=cfg.event.name, subtitle=f"Published {as_of:%d %B %Y}.",
        facts=[("Organiser", cfg.event.organiser), ("Rounds", str(rounds)),
               ("Categories", ", ".join(c.name for c in cfg.swiss.categories)),
               ("Contact", cfg.event.contact)],
        errors=n_err, warnings=n_warn, sections=sections, links=common.link_list(pub), **ctx)
    recipients = [(r.name, r.email) for r in cfg.publish.recipients]
    assoc = typed.get("associations.csv")
    if assoc is not None and "email" in assoc.columns:
        recipients += [(f"{r['name']}", r["email"]) for r in assoc.iter_rows(named=True) if r["email"]]
    messages = common.outbox(cfg, recipients, subject=f"{cfg.event.name} — bulletin",
                             lead=f"Here is the bulletin of the {cfg.event.name} as of {as_of:%d %B %Y}.",
                             highlights=highlights, as_of=as_of)
    return common.finish(pub, cfg, event_dir, names, as_of, started, messages)


def common_fmt(x: float) -> str:
    from flows.present import fmt
    return fmt(x)

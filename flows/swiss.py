"""The Swiss event flow (National Junior): read → run the rulebook (``run_swiss``) → publish
(pages, PDFs, bulletin, TRF export, outbox, manifest)."""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path

from prefect import flow

from flows import tasks
from flows.publish import render
from flows.publish import swiss as pages
from flows.publish.mail import outbox
from flows.publish.pages import Publication, event_context, link_list, publish_validation
from flows.publish.present import Section
from transforms.core.errors import Severity
from transforms.core.ingest import SWISS_SCHEMAS
from transforms.fide.trf import write_trf
from transforms.swiss.event import engine_input, run_swiss
from transforms.swiss.rounds import RoundSetup


@flow(name="swiss-event")
def swiss_event(event_dir: Path, out_dir: Path, as_of: dt.date | None = None) -> dict:
    """Run one Swiss event folder into ``out_dir``."""
    started = time.perf_counter()
    cfg = tasks.read_config(event_dir)
    assert cfg.swiss is not None
    as_of = as_of or cfg.event.as_of or dt.date.today()
    pub = Publication(out_dir)
    names = list(SWISS_SCHEMAS)
    raw = tasks.read_inputs(event_dir, names)
    t = time.perf_counter()
    run = run_swiss(cfg, raw, as_of)
    pub.timings["rules_s"] = round(time.perf_counter() - t, 3)
    ctx = event_context(cfg, as_of)
    bulletin, highlights = [], []
    if run.entries is not None:
        bulletin += pages.entries(pub, run, ctx)
    if run.blocked:
        pub.notes.append(run.blocked)
        bulletin.append(Section("Not published", intro=[run.blocked]))
    else:
        pages.standings_by_round(pub, run, ctx)
        pages.pairings_by_round(pub, run, ctx)
        for c in run.categories:
            if c.done:
                pub.files[f"event-{c.cat.id}.trf"] = write_trf(engine_input(
                    run, c, c.done + 1, RoundSetup({}, frozenset())))
        bulletin += pages.bulletin_sections(pub, run, ctx, highlights)
        for c in run.categories:
            for d in c.audit:
                pub.notes.append(f"pairing audit {d['category']} round {d['round']}: {d['difference']}")
        if any(c.prizes is not None for c in run.categories):
            bulletin += pages.prizes(pub, run, ctx)
    publish_validation(pub, cfg, run.findings, as_of)
    pub.pdfs["bulletin.pdf"] = render.render_page(
        "report.html", title="Bulletin", subtitle=f"As of {as_of:%d %B %Y}.", sections=bulletin, **ctx)
    n_err = sum(f.severity is Severity.ERROR for f in run.findings)
    pub.files["index.html"] = render.render_page(
        "index.html", title=cfg.event.name, subtitle=f"Published {as_of:%d %B %Y}.",
        facts=pages.event_facts(run), errors=n_err, warnings=len(run.findings) - n_err,
        highlights=highlights, links=link_list(pub), **ctx)
    recipients = [(r.name, r.email) for r in cfg.publish.recipients]
    assoc = run.typed.get("associations.csv")
    if assoc is not None and "email" in assoc.columns:
        recipients += [(r["name"], r["email"]) for r in assoc.iter_rows(named=True) if r["email"]]
    messages = outbox(cfg, recipients, subject=f"{cfg.event.name} — bulletin",
                      lead=f"Here is the bulletin of the {cfg.event.name} as of {as_of:%d %B %Y}.",
                      highlights=highlights, as_of=as_of)
    return tasks.finish(pub, cfg, event_dir, names, as_of, started, messages)

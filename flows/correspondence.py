"""The correspondence event flow (Golden Knights)."""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path

from prefect import flow

from flows import common, render
from flows.present import Section
from transforms.errors import Severity
from transforms.ingest import GK_REQUIRED, GK_SCHEMAS


@flow(name="correspondence-event")
def correspondence_event(event_dir: Path, out_dir: Path, as_of: dt.date | None = None) -> dict:
    started = time.perf_counter()
    cfg = common.read_config(event_dir)
    as_of = as_of or cfg.event.as_of or dt.date.today()
    pub = common.Publication(out_dir)
    names = list(GK_SCHEMAS)
    raw = common.read_inputs(event_dir, names)
    typed, findings = common.validate(raw, GK_SCHEMAS, GK_REQUIRED)
    ctx = common.event_context(cfg, as_of)
    common.publish_validation(pub, cfg, findings, as_of)
    n_err = sum(f.severity is Severity.ERROR for f in findings)
    sections = [Section("Entries", intro=[f"{typed['entries.csv'].height} entries read."])] if "entries.csv" in typed else []
    pub.pdfs["bulletin.pdf"] = render.render_page("report.html", title="Bulletin", subtitle="",
                                                  sections=sections, **ctx)
    pub.files["index.html"] = render.render_page(
        "index.html", title=cfg.event.name, subtitle="", facts=[], errors=n_err,
        warnings=len(findings) - n_err, sections=sections, links=common.link_list(pub), **ctx)
    messages = common.outbox(cfg, [(r.name, r.email) for r in cfg.publish.recipients],
                             subject=f"{cfg.event.name} — bulletin", lead="Bulletin attached.",
                             highlights=[], as_of=as_of)
    return common.finish(pub, cfg, event_dir, names, as_of, started, messages)

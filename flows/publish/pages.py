"""What every event's site shares: the publication being assembled, the page context, the
validation report and the list of links on an event's home page (presentation only)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from flows.publish import render
from flows.publish.present import Section, table_from_frame
from transforms.core.config import EventConfig
from transforms.core.errors import Finding


@dataclass
class Publication:
    """Everything one run publishes for an event, collected before it is written."""

    out_dir: Path
    files: dict[str, bytes | str] = field(default_factory=dict)
    """Relative path -> content (CSV, HTML, TRF, JSON)."""
    pdfs: dict[str, str] = field(default_factory=dict)
    """Relative path of a PDF -> the HTML it is rendered from."""
    timings: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    """Warnings and director decisions recorded in the manifest."""

    def page(self, rel: str, html: str, *, pdf: bool | str = True) -> None:
        """Publish an HTML page and, unless ``pdf`` is False, its PDF (from ``pdf`` when it
        is a leaner HTML text of the same document)."""
        self.files[rel] = html
        if pdf:
            self.pdfs[rel.removesuffix(".html") + ".pdf"] = pdf if isinstance(pdf, str) else html


def findings_frame(findings: list[Finding]) -> pl.DataFrame:
    schema = {"file": pl.String, "line": pl.Int64, "column": pl.String, "value": pl.String,
              "severity": pl.String, "reason": pl.String}
    rows = [f.as_row() for f in findings]
    return pl.DataFrame(rows, schema=schema, orient="row").sort(
        ["file", "line"], nulls_last=False, maintain_order=True)


def event_context(cfg: EventConfig, as_of: dt.date) -> dict[str, Any]:
    e = cfg.event
    dates = f"{e.start:%d %b %Y}" if e.start == e.end else f"{e.start:%d %b %Y} – {e.end:%d %b %Y}"
    return {"event": {"name": e.name, "venue": e.venue, "dates": dates, "code": e.code},
            "as_of": as_of.isoformat()}


def publish_validation(pub: Publication, cfg: EventConfig, findings: list[Finding],
                       as_of: dt.date) -> pl.DataFrame:
    frame = findings_frame(findings)
    pub.files["validation.csv"] = frame.write_csv()
    n_err = frame.filter(pl.col("severity") == "error").height
    n_warn = frame.height - n_err
    section = Section(
        "Findings",
        intro=[f"{n_err} error(s) and {n_warn} warning(s). Errors set the row aside and stop the "
               "steps that depend on that file; warnings are for a person to look at."],
        tables=[table_from_frame(frame.with_columns(
            pl.when(pl.col("severity") == "error").then(pl.lit("error")).otherwise(pl.lit("flag")).alias("_css")),
            [("file", "File"), ("line", "Line"), ("column", "Column"), ("value", "Value"),
             ("severity", "Severity"), ("reason", "Reason")], numeric=["line"], row_css="_css",
            empty="No findings: every input row was accepted.")])
    pub.page("validation.html", render.render_page(
        "report.html", title="Validation report", subtitle="", sections=[section],
        **event_context(cfg, as_of)), pdf=False)
    return frame


def link_list(pub: Publication) -> list[dict[str, str]]:
    rels = sorted({*pub.files, *pub.pdfs} - {"index.html"})
    return [{"href": r, "label": r} for r in rels if not r.startswith("outbox/")]

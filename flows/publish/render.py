"""Rendering: Jinja2 pages and WeasyPrint PDFs (several documents in parallel)."""

from __future__ import annotations

import logging
import os
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import jinja2

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(["html"]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


@lru_cache(maxsize=1)
def css() -> str:
    return (TEMPLATES / "print.css").read_text(encoding="utf-8")


def chessfed_version() -> str:
    try:
        return version("chessfed")
    except PackageNotFoundError:
        return "dev"


def render_page(template: str, **context: Any) -> str:
    """Render one template with the shared stylesheet inlined (pages are self-contained)."""
    context.setdefault("css", css())
    context.setdefault("version", chessfed_version())
    context.setdefault("footer", "")
    for key in ("site_index", "home", "office_home", "prev", "next"):
        context.setdefault(key, "")
    return environment().get_template(template).render(**context)


def html_to_pdf(html: str) -> bytes:
    """One PDF from one self-contained HTML page."""
    from weasyprint import HTML  # imported here: it is slow to import and only PDFs need it

    # WeasyPrint warns about font subsetting back-ends on every document: not for the office.
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)

    return HTML(string=html, base_url=str(TEMPLATES)).write_pdf()


def htmls_to_pdfs(htmls: list[str]) -> list[bytes]:
    """Render independent documents in parallel processes (WeasyPrint is CPU-bound)."""
    workers = min(len(htmls), os.cpu_count() or 1)
    if workers <= 1:
        return [html_to_pdf(h) for h in htmls]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(html_to_pdf, htmls, chunksize=1))

"""PDFs render while the rest of the site is built (issue 13): every PDF an event publishes is
handed to the run's renderers as soon as its HTML is made (``Publication.on_pdf``,
``workers.EarlyPDFs``), only those the run will render (changed since the published manifest),
and ``render_pdfs`` takes their results instead of rendering them again; identical HTML
renders once. (That the outputs are byte for byte those rendered at the end: the Dask run of
tests/flows/test_concurrency.py renders at the end, the thread runs early, and they are compared.)"""

from __future__ import annotations

import hashlib
import json
from concurrent.futures import Future

from flows.pipeline import outputs, workers
from flows.site import render
from flows.site.pages import Publication
from flows.site.present import Section, Table


def done(value: bytes) -> Future:
    f: Future = Future()
    f.set_result(value)
    return f


def test_identical_html_renders_once(monkeypatch):
    monkeypatch.setenv("CHESSFED_PDF_WORKERS", "1")
    calls: list[str] = []
    monkeypatch.setattr(workers, "html_to_pdf", lambda h: calls.append(h) or h.encode())
    assert workers.htmls_to_pdfs(["<p>a</p>", "<p>b</p>", "<p>a</p>"]) == [b"<p>a</p>", b"<p>b</p>", b"<p>a</p>"]
    assert calls == ["<p>a</p>", "<p>b</p>"]


def test_pdfs_started_early_are_taken_not_rendered_again(monkeypatch):
    monkeypatch.setenv("CHESSFED_PDF_WORKERS", "2")
    monkeypatch.setattr(workers, "html_to_pdf", lambda h: (_ for _ in ()).throw(AssertionError(h)))
    early = workers.EarlyPDFs(lambda rel, html: True)
    early.futures = {render.digest("<p>a</p>"): done(b"A"), render.digest("<p>b</p>"): done(b"B")}
    assert workers.htmls_to_pdfs(["<p>b</p>", "<p>a</p>"], early) == [b"B", b"A"]
    assert early.futures == {}  # taken


def test_only_the_pdfs_the_run_renders_start_early_and_only_with_renderers(tmp_path, monkeypatch):
    monkeypatch.setenv("CHESSFED_PDF_WORKERS", "2")
    out = tmp_path / "event"
    (out / "standings").mkdir(parents=True)
    (out / "standings" / "round-01.pdf").write_bytes(b"%PDF old")
    kept = "<p>round 1, as published</p>"
    recorded = [{"path": "standings/round-01.pdf", "html_sha256": hashlib.sha256(kept.encode()).hexdigest(),
                "sha256": hashlib.sha256(b"%PDF old").hexdigest(), "bytes": len(b"%PDF old")}]
    (out / "manifest.json").write_text(json.dumps({"renderer": "weasyprint 0.1, fonts stamped now",
                                                   "outputs": recorded}))
    assert outputs.early_pdfs(out, "local").wanted("standings/round-01.pdf", kept) is True  # another renderer
    (out / "manifest.json").write_text(json.dumps({"renderer": render.renderer_id(), "outputs": recorded}))
    early = outputs.early_pdfs(out, "local")
    assert early is not None  # a daemonic Dask worker has none: tests/publish/test_renderers.py
    assert early.wanted("standings/round-01.pdf", kept) is False          # unchanged: kept
    assert early.wanted("standings/round-01.pdf", "<p>new</p>") is True
    assert early.wanted("standings/round-02.pdf", "<p>round 2</p>") is True
    monkeypatch.setenv("CHESSFED_PDF_WORKERS", "1")
    early("standings/round-02.pdf", "<p>round 2</p>")
    assert early.futures == {}  # one renderer: PDFs render in this process, at the end
    outputs.discard_early_pdfs(out)
    assert str(out) not in outputs.EARLY
    assert outputs.early_pdfs(out, "local") is None  # and nothing is made to start them early
    monkeypatch.setenv("CHESSFED_PDF_WORKERS", "2")
    (out / "standings" / "round-01.pdf").write_bytes(b"%PDF new")  # replaced since: not adopted
    assert outputs.early_pdfs(out, "local").wanted("standings/round-01.pdf", kept) is True
    outputs.discard_early_pdfs(out)


def test_every_pdf_of_a_publication_is_told_as_soon_as_its_html_is_made(tmp_path):
    told: list[tuple[str, str]] = []
    pub = Publication(tmp_path, ctx={"event": {"name": "E", "venue": "", "dates": "", "code": ""},
                                     "as_of": "2024-09-24"}, on_pdf=lambda rel, html: told.append((rel, html)))
    pub.page("prizes.html", title="Prizes", subtitle="", sections=[Section("Prizes", tables=[Table([], [])])])
    pub.page("office/validation.html", title="Validation", subtitle="", sections=[], pdf=False)
    pub.add_pdf("certificates/A.pdf", "<p>certificate</p>")
    assert told == list(pub.pdfs.items())
    assert [rel for rel, _ in told] == ["prizes.pdf", "certificates/A.pdf"]

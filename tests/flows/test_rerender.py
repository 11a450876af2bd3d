"""A rerun after a new round renders again only the PDFs whose content changed: the pages of
earlier rounds keep their PDF although their HTML gains a "Next" link and the run has a new
date (the National Junior demo, cut to two rounds, then the third round added a day later,
through the real flow). Counts, not speed: the timing is ``make bench-site``."""

import datetime as dt
import json
import re
from pathlib import Path

import pytest

from flows.devtools.bench_site import copy_through, rendered_pdfs, write_results_through

ROOT = Path(__file__).resolve().parents[2]

EVENT = "national-junior-2024"


@pytest.fixture(scope="module")
def two_runs(prefect_harness, tmp_path_factory):
    from flows.pipeline.events import run_events

    base = tmp_path_factory.mktemp("rerender")
    event = copy_through(ROOT / "inputs" / EVENT, base / "inputs" / EVENT, 2)
    out = base / "outputs"
    d = out / EVENT
    assert run_events(event, out, dt.date(2024, 9, 17)) == {EVENT: "ok"}
    first = json.loads((d / "manifest.json").read_text())
    html_first = {p: (d / p).read_text() for p in ("standings/round-02.html", "pairings/round-03.html")}
    write_results_through(ROOT / "inputs" / EVENT / "results.csv", event / "results.csv", 3)
    assert run_events(event, out, dt.date(2024, 9, 18)) == {EVENT: "ok"}
    second = json.loads((d / "manifest.json").read_text())
    return d, first, second, html_first


def test_the_second_run_renders_only_the_pdfs_whose_html_changed(two_runs):
    _, first, second, _ = two_runs
    again = rendered_pdfs(first, second)
    assert second["timings"]["pdfs_rendered"] == len(again)
    all_pdfs = [o["path"] for o in second["outputs"] if o.get("html_sha256")]
    assert 0 < len(again) < len(all_pdfs)
    assert first["timings"]["pdfs_rendered"] == len(rendered_pdfs({}, first))


def test_the_pdfs_of_earlier_rounds_are_not_rendered_again_when_a_round_is_added(two_runs):
    d, first, second, html_first = two_runs
    again = set(rendered_pdfs(first, second))
    earlier = [o["path"] for o in first["outputs"] if o.get("html_sha256")
               and re.search(r"round-0[12](-hall)?\.pdf$", o["path"])]
    assert "standings/round-02.pdf" in earlier and "pairings/round-02-hall.pdf" in earlier
    assert not again & set(earlier)
    assert "office/entries.pdf" not in again
    # ... although the web page of round 2 changed: it now links to round 3
    html = (d / "standings" / "round-02.html").read_text()
    assert html != html_first["standings/round-02.html"] and "round-03.html" in html


def test_the_new_round_and_the_pages_that_show_the_latest_standings_are_rendered(two_runs):
    d, first, second, html_first = two_runs
    again = set(rendered_pdfs(first, second))
    assert {"standings/round-03.pdf", "pairings/round-04-hall.pdf",
            "crosstable.pdf", "bulletin.pdf"} <= again
    # round 3's results reach its web page, not its hall sheet (the result column is left
    # blank for the arbiters to fill in): that PDF stays as it was
    assert (d / "pairings" / "round-03.html").read_text() != html_first["pairings/round-03.html"]
    assert "pairings/round-03-hall.pdf" not in again

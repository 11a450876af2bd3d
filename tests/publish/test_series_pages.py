"""A series' member pages made in process (no Prefect): the rating change of each event its
own rulebook computes (FIDE B.02) is on the member's page of the season, and a result read
back from the last run keeps it."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from pathlib import Path

from flows import io
from flows.kinds.series.pages import member_rel, publish_site
from flows.site.pages import Publication, event_context
from flows.site.present import signed_tenths
from transforms.core.results import Source, result_from_record, result_record
from transforms.kinds import event_result, parse_event_config
from transforms.series.event import run_series
from transforms.swiss.event import run_swiss

ROOT = Path(__file__).resolve().parents[2]
OPEN = ROOT / "inputs" / "national-junior-2024"  # complete and rated (FIDE report)
AS_OF = dt.date(2024, 12, 31)
SERIES = """
[event]
id = "season"
name = "Club Season"
kind = "series"
start = 2024-01-01
end = 2024-12-31
venue = "Club"
organiser = "Club"
currency = "EUR"
contact = "Club"

[publish]
sender = "Club <club@example.org>"

[series]
events = ["national-junior-2024"]
identity = ["fide_id", "name"]
"""


def test_a_members_page_shows_the_rating_change_of_each_event_as_its_pages_compute_it():
    cfg = parse_event_config((OPEN / "event.toml").read_text())
    raw = {n: io.read_csv_strings(OPEN / n) for n in cfg.files if (OPEN / n).exists()}
    result = event_result(Source("national-junior-2024", cfg, raw), AS_OF)
    swiss = run_swiss(cfg, raw, AS_OF)
    exact = {}
    for c in swiss.categories:
        fide = c.ratings["FIDE"].players
        exact |= {(c.cat.id, s): x for s, x in zip(fide["sno"].to_list(), fide["change_exact"].to_list(),
                                                    strict=True)}
    rated = [f for f in result.finishes if f.rating_change is not None]
    assert len(rated) > 100 and all(f.rating_list == "FIDE" and f.rating_change == exact[(f.section, int(f.key))]
                                    for f in rated)
    back = result_from_record(result_record(result))  # kept by the next run, without addresses
    assert back == dataclasses.replace(result, finishes=tuple(
        dataclasses.replace(x, email="") for x in result.finishes))

    series = parse_event_config(SERIES)
    run = run_series(series, [Source("national-junior-2024", cfg, raw)], AS_OF,
                     lambda s, d: result)
    pub = Publication(Path("unused"), ctx=event_context(series, AS_OF))
    publish_site(pub, run)
    f = max(rated, key=lambda x: abs(x.rating_change or 0))
    key = next(k for k, m in run.members.items() if any(x.key == f.key for _, x in m.finishes))
    page = pub.files[member_rel(key)]
    assert isinstance(page, str) and "Rating ±" in page
    assert re.search(rf"{re.escape(signed_tenths(f.rating_change))}\s+FIDE", page)


def test_a_long_series_prints_its_totals_and_its_page_each_events_points():
    """Over more than PRINTED_EVENTS complete events the printed standings (its PDF's HTML)
    leave out each event's column and say where they are; the web page keeps them; up to
    that many both show them."""
    from flows.kinds.series.pages import PRINTED_EVENTS, event_label
    from transforms.core.results import EventResult, Finish, RoundResult

    def events(n: int) -> list[EventResult]:
        return [EventResult(source=f"rapid-{i:02d}", name=f"Rapid {i}", start=None, end=None, rounds=1,
                            done=1, finishes=tuple(
                                Finish(key=str(k), name=f"Player {k}", section="", rank=k, points=1.0 / k,
                                       rounds=(RoundResult(1, None, 1.0 / k, True),), federation="BEL")
                                for k in range(1, 4))) for i in range(n)]

    for n, lean in ((PRINTED_EVENTS, False), (PRINTED_EVENTS + 1, True)):
        results = {e.source: e for e in events(n)}
        series = parse_event_config(SERIES.replace('events = ["national-junior-2024"]', "events = [" + ", ".join(
            f'"{s}"' for s in results) + "]").replace('identity = ["fide_id", "name"]', 'identity = ["name"]'))
        run = run_series(series, [Source(s, text="") for s in results], AS_OF,
                         lambda s, d, results=results: results[s.name])
        pub = Publication(Path("unused"), ctx=event_context(series, AS_OF))
        bulletin = publish_site(pub, run)  # the bulletin's sections
        last = event_label(n - 1)
        web, printed = pub.files["standings.html"], pub.pdfs["standings.pdf"]
        assert f">{last}<" in web
        assert (f">{last}<" not in printed) is lean and ("on the web page" in printed) is lean
        assert (f"'{last}'" not in repr(bulletin)) is lean  # the bulletin prints as the standings


def test_a_correspondence_event_in_a_series_links_each_member_to_the_series_page_it_publishes():
    """A series over the demo's Golden Knights (issue 47: correspondence events feed a series):
    the series publishes the way in for each entry (players/<event>/<section>/<entry>.html),
    and the event's member pages, when a series counts the event, link exactly there."""
    from flows.kinds.correspondence.flow import publish_site as gk_site
    from transforms.core.ingest import validate_files
    from transforms.golden_knights.schemas import REQUIRED, SCHEMAS

    gk = ROOT / "inputs" / "golden-knights-2019"
    cfg = parse_event_config((gk / "event.toml").read_text())
    raw = {n: io.read_csv_strings(gk / n) for n in cfg.files if (gk / n).exists()}
    result = event_result(Source("golden-knights-2019", cfg, raw), cfg.event.as_of)
    series = parse_event_config(SERIES.replace("national-junior-2024", "golden-knights-2019")
                                .replace('identity = ["fide_id", "name"]', 'identity = ["member_id"]'))
    run = run_series(series, [Source("golden-knights-2019", cfg, raw)], AS_OF, lambda s, d: result)
    spub = Publication(Path("season"), ctx=event_context(series, AS_OF))
    publish_site(spub, run)
    typed, findings = validate_files(raw, SCHEMAS, REQUIRED)
    pub = Publication(Path("golden-knights-2019"), ctx=event_context(cfg, cfg.event.as_of)
                      | {"counted_in": [("season", "Club Season")]})
    gk_site(pub, cfg, typed, findings, cfg.event.as_of)
    page = pub.files["members/12002467.html"] if "members/12002467.html" in pub.files else next(
        v for k, v in pub.files.items() if k.startswith("members/") and "Mary Torres" in str(v))
    links = re.findall(r'href="\.\./\.\./season/([^"]+)"', str(page))
    assert links == ["players/golden-knights-2019/~/GK19-0096.html"]
    assert links[0] in spub.files
    # a member of several entries: one link, to the entry the series counts, which it publishes
    pages = [v for k, v in pub.files.items() if k.startswith("members/") and "counted with entry" in str(v)]
    assert len(pages) >= 29  # (29 with more than one entry in the standings)
    for page in pages:
        links = re.findall(r'href="\.\./\.\./season/([^"]+)"', str(page))
        assert len(links) == 1 and links[0] in spub.files

"""Every demo event end to end through the real Prefect flows (one shared test harness; the
run itself is the session fixture ``demo_run`` in conftest.py, which the browser tests share)."""

import csv
import json
import re
import shutil
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from pypdf import PdfReader

ROOT = Path(__file__).resolve().parents[2]
CLUB_EVENTS = ("club-open-2025", "club-championship-2025")
"""The demo's plain FIDE Swiss and its round robin (flows/devtools/demo/club.py), partly played."""
TEAM_EVENTS = ("district-league-2025", "county-team-championship-2026")
"""The demo's team league (flows/devtools/demo/league.py) and team Swiss (team_swiss.py), partly played."""
NORMS_EVENT = "harbour-open-2026"
"""The demo's title tournament (flows/devtools/demo/norms_open.py), 9 of 10 rounds played."""
SERIES_EVENT = "riverside-rapid-circuit-2026"
"""The demo's series (flows/devtools/demo/circuit.py): two TRF files, two monthly rapids
(``RAPIDS``), two events to come."""
RAPIDS = ("riverside-rapid-2026-03", "riverside-rapid-2026-04")
EVENTS = ("national-junior-2024", "golden-knights-2019", *CLUB_EVENTS, NORMS_EVENT, *TEAM_EVENTS,
          SERIES_EVENT, *RAPIDS)


def test_every_demo_event_runs(demo_run):
    _, _, status, _, status2, _ = demo_run
    assert status == {e: "ok" for e in (*EVENTS, "broken-open")}
    assert status2 == status


def test_malformed_event_gets_validation_rows_not_a_traceback(demo_run):
    _, out, *_ = demo_run
    with open(out / "broken-open" / "office" / "validation.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    got = {(r["file"], r["line"], r["column"]) for r in rows}
    assert ("players.csv", "2", "birth_date") in got      # 30 February
    assert ("players.csv", "4", "player_id") in got       # duplicate id
    assert (out / "broken-open" / "index.html").is_file()
    # a first publication with bad results: published in part, the bulletin says what waits
    text = PdfReader(out / "broken-open" / "bulletin.pdf").pages[0].extract_text()
    assert "Not published" not in text and "will be published as soon as" in text


@pytest.mark.parametrize("event", EVENTS)
def test_each_event_publishes_the_contract_files(demo_run, event):
    _, out, *_ = demo_run
    d = out / event
    for name in ("office/validation.csv", "office/validation.html", "office/index.html",
                 "index.html", "bulletin.pdf", "manifest.json"):
        assert (d / name).is_file(), name
    with open(d / "office" / "validation.csv", newline="") as fh:
        assert next(csv.reader(fh)) == ["file", "line", "column", "value", "severity", "reason"]
    emls = sorted((d / "outbox").glob("*.eml"))
    assert emls
    msg = message_from_bytes(emls[0].read_bytes(), policy=policy.default)
    assert [a.get_filename() for a in msg.iter_attachments()] == ["bulletin.pdf"]
    assert msg.get_body(("html",)) is not None
    manifest = json.loads((d / "manifest.json").read_text())
    assert {i["path"] for i in manifest["inputs"]} >= {"event.toml"}
    assert all(len(i["sha256"]) == 64 for i in manifest["inputs"])
    assert "bulletin.pdf" in {o["path"] for o in manifest["outputs"]}
    assert manifest["versions"]["prefect"].startswith("3.")
    text = PdfReader(d / "bulletin.pdf").pages[0].extract_text()
    assert "Bulletin" in text


def test_rerun_is_idempotent(demo_run):
    _, _, _, first, _, second = demo_run
    # (the run's checksums of the files it read are its own cache, not an output: a rerun
    # that verifies the outputs the last run wrote keeps their checksums there)
    changed = sorted(str(p) for p in first if first[p] != second.get(p) and p.name != "manifest.json"
                     and p.parts[:2] != (".chessfed", "digests"))
    assert changed == []
    assert set(first) == set(second)


def test_a_run_with_no_change_builds_no_event_again(demo_run, tmp_path, monkeypatch):
    """A third run, nothing changed since the second: every event is found unchanged
    (flows/pipeline/unchanged.py) and not built, so every file stays as it was, manifests
    included. The run is on a copy of the session's inputs and outputs (the other tests read
    those), and records the events it skips in a fresh ``SKIPPED``."""
    from flows.pipeline import unchanged
    from flows.pipeline.events import run_events

    base, out, status, _, _, second = demo_run
    shutil.copytree(base / "inputs", tmp_path / "inputs")
    shutil.copytree(out, tmp_path / "outputs")
    monkeypatch.setattr(unchanged, "SKIPPED", {})
    assert run_events(tmp_path / "inputs", tmp_path / "outputs") == status
    assert set(unchanged.SKIPPED) == set(status)
    mine = tmp_path / "outputs"
    digests = Path(".chessfed") / "digests"  # the checks' working state (flows/pipeline/digests.py):
    third = {p.relative_to(mine): p.read_bytes() for p in mine.rglob("*")  # rewritten by a check
             if p.is_file() and not p.relative_to(mine).is_relative_to(digests)}
    assert third == {k: v for k, v in second.items() if not Path(k).is_relative_to(digests)}


def test_national_junior_publishes_standings_or_starting_list(demo_run):
    _, out, *_ = demo_run
    html = (out / "national-junior-2024" / "index.html").read_text()
    assert "National Junior U-19 Open" in html and "National Junior Girls U-19" in html


def test_national_junior_final_standings_and_prizes(demo_run):
    _, out, *_ = demo_run
    d = out / "national-junior-2024"
    with open(d / "standings" / "round-11.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0])[:12] == ["category", "rank", "rank_label", "sno", "name", "points",
                                  "BH-C1", "BH", "SB", "DE", "WIN", "BWG"]
    assert {r["category"] for r in rows} == {"open", "girls"}
    with open(d / "prizes.csv", newline="") as fh:
        prizes = list(csv.DictReader(fh))
    for cat in ("open", "girls"):
        mine = [p for p in prizes if p["category"] == cat]
        assert [int(p["place"]) for p in mine] == list(range(1, 21))
        assert sum(float(p["amount"]) for p in mine) == 250000
    pdfs = {p.name for p in (d / "pairings").glob("round-*.pdf")}
    assert pdfs == {f"round-{r:02d}{kind}.pdf" for r in range(1, 12) for kind in ("-hall",)}
    from transforms.fide.trf import parse_trf, write_trf
    text = (d / "event-open.trf").read_text()
    assert write_trf(parse_trf(text)) == text
    with open(d / "office" / "entries" / "decisions.csv", newline="") as fh:
        decisions = list(csv.DictReader(fh))
    assert {r["status"] for r in decisions} == {"accepted", "rejected"}


def test_regression_the_demo_audit_is_clean_because_this_engine_paired_the_demo(demo_run):
    # A regression check, not conformance evidence: the demo's rounds were paired by this
    # engine (chessfed simulate), so re-pairing them must give the same boards. Conformance
    # with the FIDE-endorsed engines is tests/rulebook/test_dutch.py (437 reference cases); that the
    # audit finds a difference is tests/rulebook/test_swiss_round.py.
    _, out, *_ = demo_run
    audit = (out / "national-junior-2024" / "pairings" / "audit.csv").read_text()
    assert audit.strip().splitlines() == ["category,round,difference"]


def test_the_club_events_publish_from_clean_inputs_and_pair_their_next_round(demo_run):
    """The plain Swiss (4 of 7 rounds played, as of its event.toml) pairs round 5 by the Dutch
    system without the player withdrawn from it; the round robin (6 of 9) pairs round 7 by the
    Berger table, every player once, and publishes its crosstable. Neither has a rejected row
    nor a warning."""
    _, out, *_ = demo_run
    for event in CLUB_EVENTS:
        with open(out / event / "office" / "validation.csv", newline="") as fh:
            assert list(csv.DictReader(fh)) == [], event
        assert (out / event / "crosstable.html").is_file()
    swiss = out / "club-open-2025"
    assert sorted(p.name for p in (swiss / "standings").glob("round-*.csv")) == [
        f"round-0{r}.csv" for r in range(1, 5)]
    with open(swiss / "pairings" / "round-05.csv", newline="") as fh:
        boards = list(csv.DictReader(fh))
    paired = [b["white_id"] for b in boards] + [b["black_id"] for b in boards if b["black_id"]]
    assert len(paired) == len(set(paired)) == 40 and "P26" not in paired  # 41 players, 1 withdrawn
    rr = out / "club-championship-2025"
    assert "Round robin, FIDE Berger tables (C.05 Annex 1)" in (rr / "index.html").read_text()
    with open(rr / "pairings" / "round-07.csv", newline="") as fh:
        boards = list(csv.DictReader(fh))
    assert len(boards) == 5 and len({b["white_id"] for b in boards} | {b["black_id"] for b in boards}) == 10
    assert not (rr / "pairings" / "round-08.csv").exists()


def test_the_demo_league_publishes_its_round_1_games(demo_run):
    """The team league's games/round-01.pgn (flows/devtools/demo/games.py: two matches of
    round 1, the colours by board) all match their boards without a validation row: a page
    each, linked from round 1's page, and the bulletin's two chosen games ([games])."""
    _, out, *_ = demo_run
    league = out / "district-league-2025"
    with open(league / "office" / "validation.csv", newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r["file"].startswith("games/") or r["file"] == "event.toml"]
    assert rows == []
    pages = sorted(p.name for p in (league / "games" / "premier").glob("*.html"))
    assert len(pages) == 8 and pages[0] == "round-01-NOR1-board-01.html"
    assert 'href="../games/premier/round-01-NOR1-board-01.html"' in (league / "rounds" / "round-01.html").read_text()
    assert (league / "bulletin.html").read_text().count('<article class="bulletin-game">') == 2


def test_golden_knights_contract_files_and_director_decision(demo_run):
    _, out, *_ = demo_run
    d = out / "golden-knights-2019"
    headers = {
        "office/entries.csv": "entry_id,member_id,status,reason",
        "qualifiers.csv": "stage,section,entry_id,member_id,score,qualified,basis",
        "standings.csv": "entry_id,member_id,name,preliminary,semifinal,final,weighted_points,"
                         "forfeit_losses,completed,prize_eligible",
        "prizes.csv": "place,entry_id,member_id,name,weighted_points,amount",
        "awards.csv": "entry_id,member_id,award,value",
    }
    for name, header in headers.items():
        assert (d / name).read_text().splitlines()[0] == header, name
    assert (d / "rulings.csv").is_file()
    with open(d / "prizes.csv", newline="") as fh:
        prizes = list(csv.DictReader(fh))
    assert len(prizes) >= 10
    certificates = list((d / "certificates").glob("*.pdf"))
    assert certificates
    assert "Certificate" in PdfReader(certificates[0]).pages[0].extract_text()
    notes = json.loads((d / "manifest.json").read_text())["notes"]
    assert any("GK rule 7" in n and "GK19-0143" in n for n in notes)
    # the first final's games (games/final-F01.pgn) through the pipeline: read, matched, published
    assert any(n.startswith("6 games in games/: 6 matched") for n in notes)
    assert len(list((d / "games" / "final-F01").glob("*.html"))) == 6 and (d / "games" / "event.pgn").is_file()
    assert "games/final-F01/GK19-0096-GK19-0072.html" in (d / "sections" / "final-F01.html").read_text()


def test_office_material_is_apart_and_never_linked_from_a_public_page(demo_run):
    # DESIGN.md / issue 11: ledgers, decisions, the validation report, the director's review
    # and membership flags live under office/; no public page links there.
    import re

    _, out, *_ = demo_run
    for event in EVENTS:
        d = out / event
        assert (d / "office" / "index.html").is_file()
        for page in d.rglob("*.html"):
            rel = page.relative_to(d).as_posix()
            if rel.startswith("office/"):
                continue
            hrefs = re.findall(r'href="([^"]+)"', page.read_text(encoding="utf-8"))
            assert not [h for h in hrefs if "office/" in h], rel
    index = (out / "index.html").read_text(encoding="utf-8")
    for event in (*EVENTS, "broken-open"):
        assert f'href="{event}/index.html"' in index


@pytest.mark.parametrize("event", EVENTS)
def test_every_link_in_a_published_pdf_opens_the_published_site(demo_run, event):
    """Each link a demo PDF carries leads to the event's site (``[publish] site_url``) or
    jumps inside the PDF; none points at the folder the run was built in (regression:
    ``file:///<checkout>/templates/members/…`` in the Golden Knights awards)."""
    import tomllib

    _, out, *_ = demo_run
    site = tomllib.loads((ROOT / "inputs" / event / "event.toml").read_text())["publish"]["site_url"]
    uris = []
    for pdf in sorted((out / event).rglob("*.pdf")):
        for page in PdfReader(pdf).pages:
            for annot in page.get("/Annots") or []:
                action = annot.get_object().get("/A")
                if action is not None and "/URI" in action:
                    uris.append((pdf.name, str(action["/URI"])))
    assert [u for u in uris if not u[1].startswith(site)] == []
    if event == "golden-knights-2019":
        assert any(u.startswith(site + "members/") for _, u in uris)  # the awards link members


def test_the_title_tournament_publishes_its_norms_reports_and_forecasts(demo_run):
    """FIDE B.01: the norms page (norms made, in reach before round 10), each norm's report for
    the office (page and PDF, signature fields left blank), the norms CSV, the player's page
    and letter with the norm, and the forecast in the letter of a player still in reach."""
    _, out, *_ = demo_run
    d = out / NORMS_EVENT
    page = (d / "norms.html").read_text(encoding="utf-8")
    assert "Norms made after round 9" in page and "Still in reach before round 10" in page
    assert 'href="norms.html#open"' in (d / "index.html").read_text(encoding="utf-8")
    with open(d / "office" / "norms" / "norms-open.csv", newline="") as fh:
        made = [r for r in csv.DictReader(fh) if r["achieved"] == "true"]
    assert made
    for r in made:
        pdf = d / "office" / "norms" / f"norm-report-open-{r['sno']}-{r['norm'].lower()}.pdf"
        text = " ".join(p.extract_text() for p in PdfReader(pdf).pages)
        assert "Certificate of title result" in text and r["name"] in text
        assert "Signature" in text and "Chief arbiter" in text and "Score required" in text
        player = (d / "players" / "open" / f"{r['sno']}.html").read_text(encoding="utf-8")
        assert f"{r['norm']} norm (FIDE B.01)" in player
    letters = {p.name: message_from_bytes(p.read_bytes(), policy=policy.default)
               for p in (d / "outbox").glob("player-open-*-round-09*.eml")}
    bodies = [m.get_body(("plain",)).get_content() for m in letters.values()]
    assert sum("norm:" in b and "from 9 games" in b for b in bodies) == len(made)
    assert any("in round 10 against" in b for b in bodies)  # a forecast of the last round


def test_the_series_publishes_its_standings_members_and_letters(demo_run):
    """Issue 47: the circuit's standings over its four complete events (two TRF files, two
    chessfed events), each member's page linked from them, the events page linking the rapids'
    own sites, the CSV, the office's identity file, and a letter to each member of the latest
    rapid with an address; no address on a public page."""
    _, out, *_ = demo_run
    d = out / SERIES_EVENT
    page = (d / "standings.html").read_text(encoding="utf-8")
    assert "after 4 of 6 events" in page
    for cid, name in (("u1600", "Under 1600"), ("women", "Women")):
        assert name in (d / "categories" / f"{cid}.html").read_text(encoding="utf-8")
        assert (d / "categories" / f"{cid}.pdf").is_file()
    with open(d / "standings.csv", newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r["standings"] == "series"]
    assert len(rows) > 15 and rows[0]["rank"] == "1"
    for r in rows:  # the best four of at most four events: every event played counts
        shown = [float(r[f"E{i}_points"]) for i in range(1, 5) if r[f"E{i}_points"]]
        assert float(r["points"]) == sum(shown) and int(r["played"]) == len(shown)
    members = sorted((d / "members").glob("*.html"))
    assert len(members) == len(rows)
    assert all(f'href="members/{m.name}"' in page for m in members)
    events = (d / "events.html").read_text(encoding="utf-8")
    assert all(f'href="../{r}/index.html"' in events for r in RAPIDS) and "to come" in events
    assert all((out / r / "index.html").is_file() for r in RAPIDS)
    with open(d / "office" / "series" / "identity.csv", newline="") as fh:
        how = {r["how"] for r in csv.DictReader(fh)}
    assert {"member id", "members.csv, by FIDE id", "members.csv, by name"} <= how
    with open(d / "office" / "series" / "members.csv", newline="") as fh:
        status = {r["member_id"]: r["status"] for r in csv.DictReader(fh)}
    assert status["RCC-107"] == "lapsed" and set(status.values()) == {"member", "lapsed"}
    letters = sorted((d / "outbox").glob("member-*-after-04.eml"))
    assert letters
    body = message_from_bytes(letters[0].read_bytes(), policy=policy.default).get_body(
        ("plain",)).get_content()
    assert "Your standing" in body and "Riverside Rapid Circuit 2026: place" in body
    public = [p for p in d.rglob("*.html") if "office" not in p.parts and "outbox" not in p.parts]
    assert not any("@players.example" in p.read_text(encoding="utf-8") for p in public)
    # every player's page of a rapid links the player's page in the series (through a page
    # named by the rapid and the start number, which sends the reader on to the member's)
    for rapid in RAPIDS:
        for page in sorted((out / rapid / "players" / "rapid").glob("[0-9]*.html")):
            way = re.search(r'href="\.\./\.\./\.\./(riverside-rapid-circuit-2026/players/[^"]+)"',
                            page.read_text(encoding="utf-8"))
            assert way, page
            stub = (out / way.group(1)).read_text(encoding="utf-8")
            member = re.search(r'url=\.\./\.\./\.\./(members/[^"]+\.html)', stub).group(1)
            assert (d / member).is_file()


def test_a_series_takes_the_results_of_its_unchanged_events_from_its_last_run(demo_run):
    """The series keeps the results it read of each event with the checksum of the files they
    were computed from (its manifest's cache); a run whose event is unchanged takes them back,
    equal to reading the event again; a changed file reads it again."""
    import datetime as dt

    from flows.kinds.series.flow import KnownResults
    from flows.pipeline.outputs import known_results
    from flows.pipeline.tasks import read_source
    from flows.pipeline.unchanged import program_fingerprint
    from transforms.kinds import event_result

    base, out, *_ = demo_run
    known = known_results(out / SERIES_EVENT, program_fingerprint())
    assert sorted(known) == sorted(["events/riverside-rapid-2026-01.trf",
                                    "events/riverside-rapid-2026-02.trf", *RAPIDS])
    assert "@players.example" not in (out / SERIES_EVENT / "manifest.json").read_text()
    as_of = dt.date(2026, 4, 15)
    reader = KnownResults(known, as_of)
    series = base / "inputs" / SERIES_EVENT
    for name in known:
        source = read_source(series, out / SERIES_EVENT, name)
        assert reader(source, as_of) == event_result(source, as_of)
    assert reader.taken == 4
    changed = KnownResults({k: {**v, "digest": "0"} for k, v in known.items()}, as_of)
    changed(read_source(series, out / SERIES_EVENT, RAPIDS[0]), as_of)
    assert changed.taken == 0


def test_a_series_reads_the_events_its_last_run_does_not_give_side_by_side(demo_run, monkeypatch):
    """A series' first build reads its events in the run's renderers, side by side
    (``KnownResults.read_ahead``, through the build's ``parallel``), before its rulebook asks for
    them: each result equals the event read in the series' own process; one whose results
    cannot be read is left to the series, which says why."""
    import datetime as dt

    import pytest

    from flows.kinds.series.flow import KnownResults
    from flows.pipeline import workers
    from flows.pipeline.tasks import read_source
    from transforms.core.results import Source
    from transforms.kinds import event_result

    monkeypatch.setenv("CHESSFED_PDF_WORKERS", "2")
    base, out, *_ = demo_run
    as_of = dt.date(2026, 4, 15)
    series = base / "inputs" / SERIES_EVENT
    sources = [read_source(series, out / SERIES_EVENT, name)
               for name in (*RAPIDS, "events/riverside-rapid-2026-01.trf")]
    unreadable = Source("rapid-without-event-toml", digest="1")
    reader = KnownResults({}, as_of)
    side_by_side = reader.read_ahead([*sources, unreadable], as_of,
                                     lambda fn, items: workers.parallel_map(fn, list(items)))
    assert side_by_side == len(sources) == len(reader.ahead)
    for source in sources:
        assert reader(source, as_of) == event_result(source, as_of)
    assert reader.ahead == {} and reader.taken == 0
    with pytest.raises(ValueError, match="event.toml"):
        reader(unreadable, as_of)


def test_a_series_rerun_after_one_changed_result_keeps_the_other_members_pages(prefect_harness, tmp_path):
    """A series' member pages are groups kept from its last run (their key digests everything
    a member's pages show): built again with nothing changed, every one is kept; after one
    result of one event changes, the rerun builds again the pages of that event's players and
    of the members whose places moved, keeps the others, and its outputs equal a clean build
    from the same inputs byte for byte."""
    from flows.pipeline.events import run_events

    inputs = tmp_path / "inputs"
    inputs.mkdir()
    for name in (SERIES_EVENT, *RAPIDS):
        shutil.copytree(ROOT / "inputs" / name, inputs / name)
    shutil.copy(ROOT / "inputs" / "members.csv", inputs / "members.csv")
    out = tmp_path / "out"
    assert run_events(inputs, out, only=[SERIES_EVENT]) == {SERIES_EVENT: "ok"}
    first = json.loads((out / SERIES_EVENT / "manifest.json").read_text())["timings"]
    members = first["built_members"]
    assert members > 20 and not first.get("kept_members")
    assert run_events(inputs, out, only=[SERIES_EVENT], rebuild=True) == {SERIES_EVENT: "ok"}
    same = json.loads((out / SERIES_EVENT / "manifest.json").read_text())["timings"]
    assert same["kept_members"] == members and not same.get("built_members")

    results = inputs / RAPIDS[0] / "results.csv"
    rows = list(csv.DictReader(results.open(encoding="utf-8")))
    last = max(int(r["round"]) for r in rows)
    game = next(r for r in rows if r["round"] == str(last) and r["result"] == "1-0")
    game["result"] = "0-1"
    with results.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    assert run_events(inputs, out, only=[SERIES_EVENT]) == {SERIES_EVENT: "ok"}
    again = json.loads((out / SERIES_EVENT / "manifest.json").read_text())["timings"]
    assert again["built_members"] + again["kept_members"] == members
    assert again["built_members"] >= 2 and again["kept_members"] >= 1

    clean = tmp_path / "clean"
    assert run_events(inputs, clean, only=[SERIES_EVENT]) == {SERIES_EVENT: "ok"}
    skip = {"manifest.json", "run.json"}
    files = {p.relative_to(out): p.read_bytes() for p in out.rglob("*")
             if p.is_file() and p.name not in skip and ".chessfed" not in p.parts}
    assert files == {p.relative_to(clean): p.read_bytes() for p in clean.rglob("*")
                     if p.is_file() and p.name not in skip and ".chessfed" not in p.parts}

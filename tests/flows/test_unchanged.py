"""A rerun with no change (issue 13): an event whose last build still stands is reported
unchanged, not built again (``flows/pipeline/unchanged.py``); each thing the check covers builds again
when it changes — an input (edited, added, removed), the program (a template), the run date,
the mail mode, a published file (deleted, edited), the delivery ledger, mail still due. The
command line decides before starting Prefect: with every event unchanged it starts no server."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import shutil
from pathlib import Path

import pytest

from flows.io import atomic_write
from flows.mail import outbox
from flows.pipeline import unchanged
from flows.site import render
from tests.conftest import output_files, tiny_event

AS_OF = dt.date(2024, 9, 20)
ROUND_1 = "round,board,white_id,black_id,result\n1,1,A,C,1-0\n1,2,D,B,0-1\n"


def publish(event: Path, out: Path, *, send_mail: bool = True, sends: bool = False,
            messages: dict[str, str] | None = None) -> None:
    """What a complete run leaves, as ``flows.pipeline.event.finish`` writes it: the outputs and a
    manifest listing them with their checksums and the run's rebuild key."""
    files = {"index.html": "<p>home</p>", "standings/round-01.pdf": "%PDF-1.7 round 1"}
    for rel, text in files.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(text)
    key = unchanged.completed_key(
        unchanged.rebuild_key(unchanged.inputs_fingerprint(event), AS_OF, send_mail, sends), out,
        messages or {})
    outputs = [{"path": rel, "sha256": hashlib.sha256(text.encode()).hexdigest()}
               for rel, text in files.items()]
    # as a run writes it (flows/io.py atomic_write: a new file each time; read_manifest knows
    # a manifest by its inode, size and time)
    atomic_write(out / "manifest.json", json.dumps({"outputs": outputs, unchanged.KEY: key}))


@pytest.fixture
def published(tmp_path) -> tuple[Path, Path]:
    event = tiny_event(tmp_path / "inputs" / "tiny")
    out = tmp_path / "out" / "tiny"
    out.mkdir(parents=True)
    publish(event, out)
    assert unchanged.stale(event, out, None, True) is None
    return event, out


def test_an_event_whose_outputs_still_stand_is_unchanged(published):
    event, out = published
    assert unchanged.stale(event, out, None, True) is None
    assert unchanged.stale(event, out, AS_OF, True) is None  # the same date given


@pytest.mark.parametrize("change, reason", [
    (lambda e, o: (e / "results.csv").write_text(ROUND_1), "the inputs changed"),              # added
    (lambda e, o: (e / "players.csv").write_text((e / "players.csv").read_text() + "\n"),
     "the inputs changed"),                                                                    # edited
    (lambda e, o: (e / "players.csv").unlink(), "the inputs changed"),                         # removed
    (lambda e, o: (e / "certs").mkdir() or (e / "certs" / "ca.pem").write_text("x"),
     "the inputs changed"),                                                                    # in a folder
    (lambda e, o: (o / "standings" / "round-01.pdf").unlink(), "standings/round-01.pdf is missing"),
    (lambda e, o: (o / "index.html").write_text("<p>edited</p>"), "index.html is missing or changed"),
    (lambda e, o: (o / "manifest.json").unlink(), "not published yet"),
    (lambda e, o: (o / outbox.LEDGER).parent.mkdir() or (o / outbox.LEDGER).write_text("key\n"),
     "the delivery ledger changed"),
])
def test_a_change_builds_again(published, change, reason):
    event, out = published
    change(event, out)
    assert reason in (unchanged.stale(event, out, None, True) or "")


def test_a_manifest_without_a_rebuild_key_builds_again(published):
    """The staged manifest written before the mail has no key: a run killed while sending
    leaves it, and the next run builds (and sends the rest)."""
    event, out = published
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest[unchanged.KEY]
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert unchanged.stale(event, out, None, True) == "the last run did not finish"


def test_another_run_date_or_mail_mode_builds_again(published):
    event, out = published
    assert "the run date changed" in unchanged.stale(event, out, AS_OF + dt.timedelta(days=1), True)
    assert unchanged.stale(event, out, None, False) == "the mail mode changed"


def test_an_event_without_a_date_is_as_of_today_and_builds_again_the_next_day(tmp_path):
    event = tiny_event(tmp_path / "inputs" / "tiny")
    toml = event / "event.toml"
    toml.write_text(toml.read_text().replace("as_of = 2024-09-20\n", ""))
    assert unchanged.run_date(event, None, today=AS_OF) == AS_OF
    out = tmp_path / "out" / "tiny"
    out.mkdir(parents=True)
    publish(event, out)  # as of AS_OF
    assert unchanged.stale(event, out, None, True, today=AS_OF) is None
    assert "the run date changed" in unchanged.stale(event, out, None, True, today=AS_OF + dt.timedelta(days=1))


def test_a_changed_template_or_source_file_builds_again(published, tmp_path, monkeypatch):
    event, out = published
    copies = tuple(shutil.copytree(root, tmp_path / "program" / root.name) for root in unchanged.PROGRAM)
    assert unchanged.program_fingerprint(copies) == unchanged.program_fingerprint()
    monkeypatch.setattr(unchanged, "PROGRAM", copies)
    assert unchanged.stale(event, out, None, True) is None
    css = tmp_path / "program" / render.TEMPLATES.name / "print.css"
    css.write_text(css.read_text() + "\n/* a change */\n")
    assert unchanged.stale(event, out, None, True) == "the program changed"
    css.write_text(css.read_text().replace("\n/* a change */\n", ""))
    assert unchanged.stale(event, out, None, True) is None
    (tmp_path / "program" / "transforms" / "new_rule.py").write_text("X = 1\n")
    assert unchanged.stale(event, out, None, True) == "the program changed"


def test_mail_still_due_builds_again_and_mail_all_done_does_not(tmp_path):
    """Where messages go through SMTP: a message pending (or not in the ledger, or changed
    since it was sent) is due, and the event builds and sends; sent, failed for good and of
    unknown fate are done (``outbox.done``, the delivery's own rule)."""
    event = tiny_event(tmp_path / "inputs" / "tiny")
    out = tmp_path / "out" / "tiny"
    out.mkdir(parents=True)

    def ledger(**status):
        outbox.write_ledger(out / outbox.LEDGER, {k: {"key": k, "content_sha256": f"d{k}", "status": s}
                                                  for k, s in status.items()})
        publish(event, out, sends=True, messages={"a": "da", "b": "db"})
        return unchanged.stale(event, out, None, True)

    assert ledger(a="sent", b="failed") is None
    assert ledger(a="sent", b="unknown") is None
    assert ledger(a="sent", b="pending") == "1 message still to send"
    assert ledger(a="sent") == "1 message still to send"
    assert ledger(a="sending", b="sent") == "1 message still to send"
    outbox.write_ledger(out / outbox.LEDGER, {k: {"key": k, "content_sha256": "old", "status": "sent"}
                                              for k in "ab"})
    publish(event, out, sends=True, messages={"a": "da", "b": "db"})
    assert unchanged.stale(event, out, None, True) == "2 messages still to send"


# ---- through the real flow and the command line (a tiny event: its PDFs render in seconds)

@pytest.fixture(scope="module")
def built(prefect_harness, tmp_path_factory):
    from flows.pipeline.events import run_events

    base = tmp_path_factory.mktemp("unchanged")
    event = tiny_event(base / "inputs" / "tiny")
    out = base / "out"
    assert run_events(base / "inputs", out) == {"tiny": "ok"}
    return base / "inputs", event, out


def test_a_complete_run_leaves_its_key_and_a_second_run_builds_nothing(built):
    from flows.pipeline.events import run_events

    inputs, event, out = built
    before = output_files(out)
    manifest = json.loads((out / "tiny" / "manifest.json").read_text())
    assert set(manifest[unchanged.KEY]) >= {"program", "inputs", "as_of", "send_mail", "ledger"}
    unchanged.SKIPPED.clear()
    assert run_events(inputs, out) == {"tiny": "ok"}
    assert "tiny" in unchanged.SKIPPED
    assert output_files(out) == before  # the manifest too: its timings are the first run's


def test_rebuild_builds_the_same_bytes_again(built):
    from flows.pipeline.events import run_events

    inputs, event, out = built
    before = output_files(out / "tiny")
    unchanged.SKIPPED.clear()
    assert run_events(inputs, out, rebuild=True) == {"tiny": "ok"}
    assert "tiny" not in unchanged.SKIPPED
    after = output_files(out / "tiny")
    assert after["manifest.json"] != before["manifest.json"]  # built: new timings
    assert {k: v for k, v in after.items() if k != "manifest.json"} == \
        {k: v for k, v in before.items() if k != "manifest.json"}


def test_the_command_line_starts_no_prefect_server_when_every_event_is_unchanged(
        built, monkeypatch, capsys):
    from flows.cli import main as cli

    inputs, event, out = built

    def no_server(env):
        raise AssertionError("Prefect's server started")

    monkeypatch.setattr(cli, "start_server", no_server)
    (out / "index.html").unlink()  # the run's index is written again
    assert cli.main(["run", str(inputs), "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert "tiny: published (unchanged since its last run)" in captured.out
    assert "tiny: unchanged" in captured.err
    assert (out / "index.html").is_file()
    run = json.loads((out / "run.json").read_text())
    assert run["events"]["tiny"]["unchanged"] is True and run["prefect_start_s"] == 0


def test_the_command_line_builds_a_changed_event_through_prefect(built, monkeypatch, tmp_path):
    from flows.cli import main as cli

    inputs, event, out = built

    class Started(Exception):
        pass

    def server(env):
        raise Started

    monkeypatch.setattr(cli, "start_server", server)
    (event / "notes.txt").write_text("a new file in the event folder\n")
    try:
        with pytest.raises(Started):
            cli.main(["run", str(inputs), "--out", str(out), "-q"])
        (event / "notes.txt").unlink()
        with pytest.raises(Started):
            cli.main(["run", str(inputs), "--out", str(out), "-q", "--rebuild"])
        with pytest.raises(Started):
            cli.main(["run", str(inputs), "--out", str(out), "-q", "--dry-run-mail"])
    finally:
        (event / "notes.txt").unlink(missing_ok=True)


def test_run_json_marks_the_events_a_cluster_found_unchanged(tmp_path):
    """On a Dask cluster the unchanged check runs in a worker's process: run.json tells such
    an event by its manifest, written before the run (a built event writes a new one)."""
    import os

    from flows.cli.main import not_built, run_summary

    for name in ("kept", "built", "failed"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "manifest.json").write_text('{"timings": {"total_s": 1.0}}')
    since = (tmp_path / "built" / "manifest.json").stat().st_mtime - 1
    for name in ("kept", "failed"):
        os.utime(tmp_path / name / "manifest.json", (since - 60, since - 60))
    status = {"kept": "ok", "built": "ok", "failed": "error: boom", "missing": "ok"}
    found = not_built(tmp_path, status, since)
    assert found == {"kept": None}
    s = run_summary(tmp_path, status, started=0.0, imported=0.1, waited=0.2, flow_started=1.0,
                    ended=2.1, unchanged=found)
    assert s["events"]["kept"] == {"unchanged": True, "check_s": None}
    assert s["events"]["built"] == {"total_s": 1.0}


def test_the_command_line_checks_every_event_and_hands_the_flow_only_those_to_build(
        built, monkeypatch):
    """Every event is checked before Prefect is needed; the flow gets the changed ones to build
    and the unchanged ones by name (no task run for them: 500 events with one changed make one
    task, not 500 that check again)."""
    from flows.cli import main as cli

    inputs, event, out = built
    starts: list[object] = []
    handed: dict[str, object] = {}

    def server(env):
        starts.append(env)
        return None

    def flow(args, inputs_, server_, to_build, changed=None, found_unchanged=None):
        handed.update(to_build=[f.name for f in to_build], changed=changed,
                      found_unchanged=found_unchanged)
        return 0

    monkeypatch.setattr(cli, "start_server", server)
    monkeypatch.setattr(cli, "_run_events", flow)
    other = shutil.copytree(event, inputs / "a-new-event")  # before "tiny": checked first
    try:
        assert cli.main(["run", str(inputs), "--out", str(out), "-q"]) == 0
    finally:
        shutil.rmtree(other)
    name = json.loads((out / "tiny" / "manifest.json").read_text())["name"]
    assert handed == {"to_build": ["a-new-event"], "changed": ["a-new-event"],
                      "found_unchanged": {"tiny": name}}
    assert len(starts) == 1  # started once, at the first event to build


def test_the_flow_runs_no_task_for_an_event_the_caller_found_unchanged(built):
    from flows.pipeline.events import run_events

    inputs, event, out = built
    unchanged.SKIPPED.clear()
    manifest = (out / "tiny" / "manifest.json").stat().st_mtime_ns
    assert run_events(inputs, out, found_unchanged={"tiny": "Tiny Open"}) == {"tiny": "ok"}
    assert "tiny" not in unchanged.SKIPPED  # its task would have checked it and recorded that
    assert (out / "tiny" / "manifest.json").stat().st_mtime_ns == manifest
    assert "Tiny Open" in (out / "index.html").read_text()


def test_the_run_waits_for_the_task_runs_of_the_events_it_built_only(built, monkeypatch):
    """The run's own Prefect server stops once it has recorded the task runs of the events the
    run built (``wait_for_task_runs``); an event its check found unchanged has no task run —
    waited for, every partial rerun waited ten seconds for it and then gave up with a warning
    (a season with one changed event of fifty: 9.8 s of a 40.6 s run)."""
    from flows.cli import main as cli

    inputs, event, out = built
    waited: list[list[str]] = []
    monkeypatch.setattr(cli, "start_server", lambda env: None)
    monkeypatch.setattr(cli, "history_recorded",
                        lambda server, ephemeral, run_id, events: waited.append(events))
    other = shutil.copytree(event, inputs / "a-new-event")
    try:
        assert cli.main(["run", str(inputs), "--out", str(out), "-q"]) == 0
    finally:
        shutil.rmtree(other)
        shutil.rmtree(out / "a-new-event", ignore_errors=True)
    assert waited == [["a-new-event"]]


def test_the_check_parses_only_the_rebuild_key_and_the_outputs_of_a_manifest(tmp_path, monkeypatch):
    """flows/pipeline/manifest.py ``manifest_entries``: the entries asked for, the same as the
    whole manifest parsed; from a manifest as the run writes it (an entry a line) only their
    lines are parsed — not its bulky cache; another layout (indented JSON) is parsed whole;
    none, or not JSON: None."""
    from flows.pipeline import manifest as mf

    whole = {"event": "e", "outputs": [{"path": "a.html", "sha256": "0" * 64, "bytes": 3}],
             "cache": {"groups": {"g": {"key": "k: v, \"x\""}}},
             "rebuild_key": {"program": "p", "inputs": "i"}, "notes": ["a, b", "c\nd"]}
    keys = ("rebuild_key", "outputs")
    written = tmp_path / "written"
    written.mkdir()
    (written / "manifest.json").write_text(mf.manifest_text(whole), encoding="utf-8")
    parsed: list[str] = []
    loads = mf.json.loads
    monkeypatch.setattr(mf.json, "loads", lambda s, *a, **k: (parsed.append(s), loads(s, *a, **k))[1])
    assert mf.manifest_entries(written, keys) == {k: whole[k] for k in keys}
    assert not any("groups" in p or "c\\nd" in p for p in parsed)  # the other entries' values not parsed

    indented = tmp_path / "indented"
    indented.mkdir()
    (indented / "manifest.json").write_text(json.dumps(whole, indent=2), encoding="utf-8")
    assert mf.manifest_entries(indented, keys) == {k: whole[k] for k in keys}
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "manifest.json").write_text("{\n\"outputs\": [\n}\n", encoding="utf-8")
    assert mf.manifest_entries(broken, keys) is None
    assert mf.manifest_entries(tmp_path / "none", keys) is None

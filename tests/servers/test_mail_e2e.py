"""Both demo events through the real flows against a local SMTP server with STARTTLS and AUTH
(the demo's outputs copied, so that no PDF is rendered again): every message of the outbox is
delivered once to its one recipient; a second run delivers nothing; with the server down a
changed result still publishes the site and leaves its messages pending; when the server is
back exactly the messages the change made different are delivered; the password is nowhere in
the outputs."""

from __future__ import annotations

import csv
import json
import os
import shutil
from pathlib import Path

import pytest

from flows.mail import outbox

pytest.importorskip("aiosmtpd")
from tests.smtp_servers import PASSWORD, USER, Inbox, authenticator, free_port, start, tls_context  # noqa: E402

EVENTS = ("national-junior-2024", "golden-knights-2019")
NJ = "national-junior-2024"


def with_smtp(event_toml: Path, port: int, ca: Path) -> None:
    text = event_toml.read_text(encoding="utf-8")
    smtp = (f'[publish]\nsmtp_host = "127.0.0.1"\nsmtp_port = {port}\nsmtp_starttls = true\n'
            f'smtp_ca_file = "{ca}"\nsmtp_retries = 2\nsmtp_retry_seconds = 0.05\nsmtp_timeout = 5\n')
    event_toml.write_text(text.replace("[publish]\n", smtp, 1), encoding="utf-8")


def emls(d: Path) -> dict[str, bytes]:
    return {p.stem: p.read_bytes() for p in (d / "outbox").glob("*.eml")}


@pytest.fixture(scope="module")
def mail_runs(demo_run, tmp_path_factory):
    from flows.pipeline.events import run_events

    base, out0, *_ = demo_run
    root = tmp_path_factory.mktemp("mail")
    inputs, out = root / "inputs", root / "outputs"
    for e in EVENTS:
        shutil.copytree(base / "inputs" / e, inputs / e)
        shutil.copytree(out0 / e, out / e)
    ctx, crt = tls_context(root)
    port = free_port()
    for e in EVENTS:
        with_smtp(inputs / e / "event.toml", port, crt)
    seen: list[bool] = []
    inbox = Inbox()

    def server():
        return start(inbox, port=port, tls_context=ctx, require_starttls=True, auth_required=True,
                     auth_require_tls=True, authenticator=authenticator(seen))

    saved = {k: os.environ.get(k) for k in (outbox.USER_ENV, outbox.PASSWORD_ENV)}
    os.environ[outbox.USER_ENV], os.environ[outbox.PASSWORD_ENV] = USER, PASSWORD
    runs: dict[str, dict] = {}
    try:
        ctl = server()
        try:
            assert run_events(inputs, out) == {e: "ok" for e in EVENTS}
            runs["first"] = {"received": list(inbox.received), "emls": {e: emls(out / e) for e in EVENTS}}
            inbox.received.clear()
            assert run_events(inputs, out) == {e: "ok" for e in EVENTS}
            runs["second"] = {"received": list(inbox.received)}
        finally:
            ctl.stop()
        # a result changes while the server is down
        results = inputs / NJ / "results.csv"
        rows = list(csv.reader(results.open(newline="")))
        hdr = rows[0]
        last = max(int(r[hdr.index("round")]) for r in rows[1:])
        game = next(r for r in rows[1:] if int(r[hdr.index("round")]) == last and r[hdr.index("result")] == "1-0")
        game[hdr.index("result")] = "½-½"
        with results.open("w", newline="") as fh:
            csv.writer(fh, lineterminator="\n").writerows(rows)
        before = emls(out / NJ)
        assert run_events(inputs, out, only=[NJ]) == {NJ: "ok"}
        runs["down"] = {"manifest": json.loads((out / NJ / "manifest.json").read_text()),
                        "ledger": outbox.read_ledger(out / NJ / outbox.LEDGER), "game": game,
                        "changed": {k for k, v in emls(out / NJ).items() if before.get(k) != v}}
        inbox.received.clear()
        ctl = server()
        try:
            assert run_events(inputs, out, only=[NJ]) == {NJ: "ok"}
        finally:
            ctl.stop()
        runs["back"] = {"received": list(inbox.received)}
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return out, runs, seen


def test_every_outbox_message_is_delivered_once_to_its_one_recipient(mail_runs):
    out, runs, seen = mail_runs
    received = runs["first"]["received"]
    expected = sum(len(m) for m in runs["first"]["emls"].values())
    assert expected > 0 and len(received) == expected
    assert all(len(e.rcpt_tos) == 1 for e in received)
    for e in EVENTS:
        ledger = outbox.read_ledger(out / e / outbox.LEDGER)
        assert set(ledger) >= set(runs["first"]["emls"][e])
    assert seen and all(seen)  # every session authenticated


def test_a_second_run_delivers_nothing(mail_runs):
    _, runs, _ = mail_runs
    assert runs["second"]["received"] == []


def test_with_the_server_down_the_site_is_published_and_the_changed_messages_wait(mail_runs):
    out, runs, _ = mail_runs
    down = runs["down"]
    assert down["changed"], "the changed result changed no message"
    pending = {k for k, r in down["ledger"].items() if r["status"] == "pending"}
    assert pending == down["changed"]
    assert down["manifest"]["mail"]["pending"] == len(pending)
    # the site shows the new result although no message could go
    hdr = ["round", "board", "white_id", "black_id", "result"]
    game = dict(zip(hdr, down["game"]))
    with open(out / NJ / "pairings" / f"round-{int(game['round']):02d}.csv", newline="") as fh:
        row = next(r for r in csv.DictReader(fh)
                   if (r["white_id"], r["black_id"]) == (game["white_id"], game["black_id"]))
    assert row["result"] in ("1/2-1/2", "½-½")


def test_when_the_server_is_back_exactly_the_changed_messages_are_delivered(mail_runs):
    out, runs, _ = mail_runs
    got = sorted(e.rcpt_tos[0] for e in runs["back"]["received"])
    ledger = outbox.read_ledger(out / NJ / outbox.LEDGER)
    want = sorted(ledger[k]["recipient"] for k in runs["down"]["changed"])
    assert got == want
    assert {r["status"] for r in ledger.values()} == {"sent"}


def test_the_password_is_nowhere_in_the_outputs(mail_runs):
    out, _, _ = mail_runs
    for p in out.rglob("*"):
        if p.is_file():
            assert PASSWORD.encode() not in p.read_bytes(), p

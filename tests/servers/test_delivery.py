"""Delivery over real SMTP servers (aiosmtpd on 127.0.0.1, a free port each): plain, STARTTLS
with a self-signed certificate and AUTH required, a server that answers 451 once, one that
answers 550, one that goes away mid-run, one that is not there; the ledger
(``outbox/ledger.csv``) sends a message once, again only when its content changes, never
after a run was killed while the server had it (flows/mail/outbox.py)."""

from __future__ import annotations

import datetime as dt
import ssl
import threading
import time
from dataclasses import replace
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from flows.mail import messages as mail
from flows.mail import outbox
from flows.mail.letters import Block, Letter
from transforms.core.config import PublishConfig

pytest.importorskip("aiosmtpd")
from tests.smtp_servers import PASSWORD, USER, Inbox, authenticator, free_port, start, tls_context  # noqa: E402


def letter(key: str, to: str, text: str = "Round 5: you won.") -> Letter:
    return Letter(key=key, to_name=key.title(), to_email=to, subject="Round 5", lead=text,
                  blocks=(Block(lines=("Points 4.",)),), kind="player-round")


def outgoing(letters: list[Letter]) -> list[outbox.Outgoing]:
    msgs = [mail.compose(lt, sender="Results <results@x.example>", subject_prefix="[T] ", site_url="",
                         signature="The office", date="Tue, 24 Sep 2024 18:00:00 +0000", attachments={})
            for lt in letters]
    return [outbox.Outgoing.of(lt.key, m) for lt, m in zip(letters, msgs)]


def cfg(port: int, **kw) -> PublishConfig:
    return PublishConfig(sender="Results <results@x.example>", smtp_host="127.0.0.1", smtp_port=port,
                         smtp_timeout=5, smtp_retry_seconds=0.01, **kw)


def three() -> list[Letter]:
    return [letter("ann", "ann@x.example"), letter("bob", "bob@x.example"), letter("cy", "cy@x.example")]


def ledger(out: Path) -> dict[str, dict[str, str]]:
    return outbox.read_ledger(out / outbox.LEDGER)


def wait_for(cond, seconds: float = 5) -> None:
    end = time.monotonic() + seconds
    while not cond() and time.monotonic() < end:
        time.sleep(0.02)


def test_each_message_goes_once_and_again_only_when_its_content_changed(tmp_path):
    inbox = Inbox()
    ctl = start(inbox)
    try:
        c = cfg(ctl.port)
        d = outbox.deliver(tmp_path, tmp_path, c, outgoing(three()), env={})
        assert (d.sent, d.skipped) == (3, 0)
        wait_for(lambda: len(inbox.received) == 3)
        assert sorted(e.rcpt_tos[0] for e in inbox.received) == ["ann@x.example", "bob@x.example", "cy@x.example"]
        rows = ledger(tmp_path)
        assert {r["status"] for r in rows.values()} == {"sent"}
        assert rows["ann"]["reply"].startswith("250") and rows["ann"]["attempts"] == "1"
        # the same run again: nothing new
        again = outbox.deliver(tmp_path, tmp_path, c, outgoing(three()), env={})
        assert (again.sent, again.skipped) == (0, 3)
        # Bob's result changed: only Bob's message goes
        changed = [letter("ann", "ann@x.example"), letter("bob", "bob@x.example", "Round 5: a draw."),
                   letter("cy", "cy@x.example")]
        third = outbox.deliver(tmp_path, tmp_path, c, outgoing(changed), env={})
        assert (third.sent, third.skipped) == (1, 2)
        wait_for(lambda: len(inbox.received) == 4)
        assert inbox.received[-1].rcpt_tos == ["bob@x.example"]
        assert b"a draw" in inbox.received[-1].content
    finally:
        ctl.stop()
    assert len(inbox.received) == 4


def test_the_run_date_alone_does_not_make_a_message_new():
    a = outgoing([letter("ann", "ann@x.example")])[0]
    msg = mail.compose(letter("ann", "ann@x.example"), sender="Results <results@x.example>", subject_prefix="[T] ",
                       site_url="", signature="The office", date="Wed, 25 Sep 2024 18:00:00 +0000",
                       attachments={})
    assert outbox.Outgoing.of("ann", msg).digest == a.digest
    assert outbox.Outgoing.of("ann", msg).data != a.data  # the Date header did change


@pytest.fixture
def tls_server(tmp_path):
    ctx, crt = tls_context(tmp_path)
    inbox, seen = Inbox(), []
    ctl = start(inbox, tls_context=ctx, require_starttls=True, auth_required=True,
                auth_require_tls=True, authenticator=authenticator(seen))
    yield ctl, inbox, seen, crt
    ctl.stop()


def test_starttls_with_the_servers_certificate_and_auth_from_the_environment(tmp_path, tls_server):
    ctl, inbox, seen, crt = tls_server
    c = cfg(ctl.port, smtp_starttls=True, smtp_ca_file=str(crt))
    env = {outbox.USER_ENV: USER, outbox.PASSWORD_ENV: PASSWORD}
    d = outbox.deliver(tmp_path / "out", tmp_path, c, outgoing(three()), env=env)
    assert d.sent == 3 and seen == [True]
    wait_for(lambda: len(inbox.received) == 3)
    assert len(inbox.received) == 3
    text = (tmp_path / "out" / outbox.LEDGER).read_text()
    assert PASSWORD not in text and USER not in text


def test_without_credentials_an_auth_server_refuses_and_nothing_counts_as_sent(tmp_path, tls_server):
    ctl, inbox, seen, crt = tls_server
    c = cfg(ctl.port, smtp_starttls=True, smtp_ca_file=str(crt))
    d = outbox.deliver(tmp_path, tmp_path, c, outgoing(three()), env={})
    assert d.sent == 0 and not inbox.received
    rows = ledger(tmp_path)
    assert {r["status"] for r in rows.values()} == {"pending"}  # AUTH is the session's, not a recipient's
    assert all(r["reply"].startswith("530") or "not attempted" in r["reply"] for r in rows.values())


def test_an_unknown_certificate_is_refused_when_checked_and_a_local_one_is_not_checked_by_default(
        tmp_path, tls_server):
    ctl, inbox, _, _ = tls_server
    env = {outbox.USER_ENV: USER, outbox.PASSWORD_ENV: PASSWORD}
    d = outbox.deliver(tmp_path, tmp_path, cfg(ctl.port, smtp_starttls=True, smtp_retries=1, smtp_verify=True),
                       outgoing(three()), env=env)
    assert d.sent == 0 and d.pending == 3
    assert "CERTIFICATE_VERIFY_FAILED" in ledger(tmp_path)["ann"]["reply"]
    # 127.0.0.1 without smtp_verify: a relay on this machine, its certificate not checked
    d = outbox.deliver(tmp_path, tmp_path, cfg(ctl.port, smtp_starttls=True), outgoing(three()), env=env)
    assert d.sent == 3


def test_a_remote_server_s_certificate_is_checked_by_default(tmp_path):
    remote = PublishConfig(sender="r@x.example", smtp_host="smtp.example.org", smtp_starttls=True)
    assert outbox.tls_context(remote, tmp_path).verify_mode is ssl.CERT_REQUIRED
    local = replace(remote, smtp_host="127.0.0.1")
    assert outbox.tls_context(local, tmp_path).verify_mode is ssl.CERT_NONE
    assert outbox.tls_context(replace(local, smtp_verify=True), tmp_path).verify_mode is ssl.CERT_REQUIRED


def test_a_451_is_retried_and_then_the_message_goes(tmp_path):
    inbox = Inbox(["451 4.3.0 try again later"])
    ctl = start(inbox)
    try:
        d = outbox.deliver(tmp_path, tmp_path, cfg(ctl.port), outgoing(three()), env={})
    finally:
        ctl.stop()
    assert d.sent == 3 and d.pending == 0
    rows = ledger(tmp_path)
    assert rows["ann"]["attempts"] == "2" and rows["ann"]["status"] == "sent"
    assert len(inbox.received) == 3


def test_a_550_is_failed_for_good_listed_for_the_office_and_not_sent_again(tmp_path):
    inbox = Inbox(["550 5.1.1 no such user"])
    ctl = start(inbox)
    try:
        c = cfg(ctl.port)
        d = outbox.deliver(tmp_path, tmp_path, c, outgoing(three()), env={})
        assert (d.sent, d.failed) == (2, 1)
        again = outbox.deliver(tmp_path, tmp_path, c, outgoing(three()), env={})
        assert (again.sent, again.failed, again.skipped) == (0, 0, 3)
    finally:
        ctl.stop()
    rows = ledger(tmp_path)
    assert rows["ann"]["status"] == "failed" and rows["ann"]["reply"] == "550 5.1.1 no such user"
    assert [r["key"] for r in outbox.undelivered(rows)] == ["ann"]
    assert len(inbox.received) == 2


def test_a_server_that_goes_away_mid_run_loses_nothing_and_the_next_run_sends_the_rest(tmp_path):
    port = free_port()

    class GoesAway(Inbox):
        async def handle_DATA(self, server, session, envelope):
            answer = await super().handle_DATA(server, session, envelope)
            if len(self.received) == 1:
                threading.Thread(target=ctl.stop).start()  # down after the first message
                time.sleep(0.3)
            return answer

    first = GoesAway()
    ctl = start(first, port=port)
    c = cfg(port, smtp_retries=2)
    d = outbox.deliver(tmp_path, tmp_path, c, outgoing(three()), env={})
    assert d.sent == 1 and d.pending == 2
    rows = ledger(tmp_path)
    assert sorted(r["status"] for r in rows.values()) == ["pending", "pending", "sent"]
    second = Inbox()
    ctl2 = start(second, port=port)
    try:
        d2 = outbox.deliver(tmp_path, tmp_path, c, outgoing(three()), env={})
    finally:
        ctl2.stop()
    assert (d2.sent, d2.skipped) == (2, 1)
    got = sorted(e.rcpt_tos[0] for e in first.received + second.received)
    assert got == ["ann@x.example", "bob@x.example", "cy@x.example"]


def test_no_server_listening_leaves_everything_pending_without_waiting_for_each(tmp_path):
    c = cfg(free_port(), smtp_retries=2)
    d = outbox.deliver(tmp_path, tmp_path, c, outgoing(three()), env={})
    assert (d.sent, d.pending) == (0, 3)
    rows = ledger(tmp_path)
    assert rows["ann"]["attempts"] == "2" and "ConnectionRefused" in rows["ann"]["reply"]
    assert rows["cy"]["attempts"] == "0" and rows["cy"]["reply"].startswith("not attempted")
    assert any("not usable" in n for n in d.notes)


def test_a_message_left_sending_by_a_killed_run_is_never_sent_again(tmp_path):
    inbox = Inbox()
    ctl = start(inbox)
    try:
        out = outgoing(three())
        outbox.write_ledger(tmp_path / outbox.LEDGER, {"bob": {
            "key": "bob", "recipient": "bob@x.example", "subject": out[1].subject,
            "content_sha256": out[1].digest, "status": "sending", "attempts": "0", "reply": "",
            "time": "2024-09-24T18:00:00+00:00"}})
        d = outbox.deliver(tmp_path, tmp_path, cfg(ctl.port), out, env={})
    finally:
        ctl.stop()
    assert (d.sent, d.unknown, d.skipped) == (2, 1, 1)
    assert sorted(e.rcpt_tos[0] for e in inbox.received) == ["ann@x.example", "cy@x.example"]
    rows = ledger(tmp_path)
    assert rows["bob"]["status"] == "unknown"
    assert [r["key"] for r in outbox.undelivered(rows)] == ["bob"]


def test_the_rate_limit_spaces_the_messages(tmp_path):
    inbox = Inbox()
    ctl = start(inbox)
    waits: list[float] = []
    starts: list[float] = []  # when each message may go, its wait over

    def sleep(w: float) -> None:
        waits.append(w)
        time.sleep(w)
        starts.append(time.monotonic())

    try:
        outbox.deliver(tmp_path, tmp_path, cfg(ctl.port, smtp_rate_per_minute=120), outgoing(three()),
                       env={}, sleep=sleep)
    finally:
        ctl.stop()
    # 120 a minute: half a second between two messages (the first does not wait); the time a
    # message takes to send counts in it (a loaded machine waits less, never sends sooner)
    assert len(waits) == 3 and waits[0] == 0.0
    assert all(0.0 <= w <= 0.5 for w in waits[1:])
    assert all(b - a >= 0.5 - 1e-3 for a, b in zip(starts, starts[1:])), starts


def test_a_name_with_a_line_break_never_reaches_a_header():
    bad = replace(letter("ann", "ann@x.example"), to_name="Ann\nBcc: all@x.example")
    with pytest.raises(ValueError):
        outgoing([bad])


def test_the_message_reads_as_its_recipient_sees_it():
    o = outgoing([letter("ann", "ann@x.example")])[0]
    m = message_from_bytes(o.data, policy=policy.default)
    assert m["To"] == "Ann <ann@x.example>" and m["Subject"] == "[T] Round 5"
    text = m.get_body(("plain",)).get_content().replace("\r\n", "\n")  # as sent: CRLF
    assert text.startswith("Dear Ann,\n\nRound 5: you won.\n\nPoints 4.\n")
    assert "<p>Round 5: you won.</p>" in m.get_body(("html",)).get_content()


def test_a_dry_run_writes_the_outbox_and_sends_nothing(tmp_path, prefect_harness):
    from flows.pipeline import mailing
    from flows.site.pages import MAIL_PAGE, Publication, event_context
    from transforms.kinds import parse_event_config

    inbox = Inbox()
    ctl = start(inbox)
    try:
        cfg = parse_event_config(
            '[event]\nid = "t"\nname = "T"\nkind = "swiss"\nstart = 2024-09-16\nend = 2024-09-20\n'
            'venue = "V"\norganiser = "O"\ncurrency = "INR"\ncontact = "c"\n'
            f'[publish]\nsender = "r@x.example"\nsmtp_host = "127.0.0.1"\nsmtp_port = {ctl.port}\n'
            '[swiss]\nrounds = 5\ncategories = [{ id = "open", name = "Open" }]\n')
        pub = Publication(tmp_path, ctx=event_context(cfg, dt.date(2024, 9, 20)))
        out, unmade = mailing.compose_letters(pub, cfg, three(), {}, dt.date(2024, 9, 20))
        assert unmade == []
        report = mailing.send_letters(pub, cfg, tmp_path, three(), out, send_mail=False)
        assert report["dry_run"] is True and report["would_send"] == 3
        assert sorted(k for k in pub.files if k.startswith("outbox/")) == [
            "outbox/ann.eml", "outbox/bob.eml", "outbox/cy.eml"]
        assert "Dry run" in (tmp_path / MAIL_PAGE).read_text()
        report = mailing.send_letters(pub, cfg, tmp_path, three(), out, send_mail=True)
        assert report["sent"] == 3
    finally:
        ctl.stop()
    assert len(inbox.received) == 3
    assert ledger(tmp_path)["ann"]["status"] == "sent"


# --- only a permanent answer about the recipient fails a letter (DESIGN.md "Publishing on a bad day")

class Answers(Inbox):
    """An inbox that answers RCPT for some recipients and DATA for others as told."""

    def __init__(self, rcpt: dict[str, str] | None = None, data: dict[str, str] | None = None):
        super().__init__()
        self.rcpt, self.data = rcpt or {}, data or {}

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.rcpt:
            return self.rcpt[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        answer = self.data.get(envelope.rcpt_tos[0])
        return answer if answer else await super().handle_DATA(server, session, envelope)


@pytest.mark.parametrize(("where", "answer", "status"), [
    ("rcpt", "550 5.1.1 no such user", "failed"),
    ("rcpt", "553 mailbox name not allowed", "failed"),
    ("rcpt", "530 5.7.0 Authentication required", "pending"),
    ("rcpt", "554 5.7.1 Relaying denied", "pending"),
    ("rcpt", "450 4.2.1 mailbox busy", "pending"),
    ("data", "550 5.1.1 no such user", "failed"),
    ("data", "554 5.7.1 message refused by policy", "pending"),
    ("data", "552 5.3.4 message too big", "pending"),
])
def test_only_a_permanent_answer_about_the_recipient_fails_a_letter(tmp_path, where, answer, status):
    inbox = Answers(**{where: {"bob@x.example": answer}})
    ctl = start(inbox)
    try:
        d = outbox.deliver(tmp_path, tmp_path, cfg(ctl.port, smtp_retries=1), outgoing(three()), env={})
    finally:
        ctl.stop()
    rows = ledger(tmp_path)
    assert rows["bob"]["status"] == status and rows["bob"]["reply"] == answer
    if answer.startswith(("530", "554 5.7.1 Relaying")):
        # about the session: the rest wait too, not attempted, nothing failed
        assert rows["cy"]["status"] == "pending" and rows["cy"]["reply"].startswith("not attempted")
        assert d.reason == answer
    else:
        assert rows["ann"]["status"] == rows["cy"]["status"] == "sent"
    assert (d.failed == 1) == (status == "failed")


def test_missing_credentials_leave_every_letter_pending_and_the_next_run_sends_each_once(
        tmp_path, tls_server):
    ctl, inbox, seen, crt = tls_server
    c = cfg(ctl.port, smtp_starttls=True, smtp_ca_file=str(crt))
    d = outbox.deliver(tmp_path, tmp_path, c, outgoing(three()), env={})
    assert (d.sent, d.failed, d.pending) == (0, 0, 3) and d.reason.startswith("530")
    assert {r["status"] for r in ledger(tmp_path).values()} == {"pending"}
    env = {outbox.USER_ENV: USER, outbox.PASSWORD_ENV: PASSWORD}
    d = outbox.deliver(tmp_path, tmp_path, c, outgoing(three()), env=env)
    assert (d.sent, d.pending) == (3, 0)
    d = outbox.deliver(tmp_path, tmp_path, c, outgoing(three()), env=env)
    assert (d.sent, d.skipped) == (0, 3)
    wait_for(lambda: len(inbox.received) == 3)
    assert sorted(e.rcpt_tos[0] for e in inbox.received) == ["ann@x.example", "bob@x.example", "cy@x.example"]


def test_a_letter_goes_with_the_date_it_is_sent_and_is_kept_as_sent(tmp_path):
    inbox = Inbox()
    ctl = start(inbox)
    when = dt.datetime(2026, 12, 2, 9, 30, tzinfo=dt.UTC)
    try:
        outbox.deliver(tmp_path, tmp_path, cfg(ctl.port), outgoing(three())[:1], env={}, now=lambda: when)
    finally:
        ctl.stop()
    got = message_from_bytes(inbox.received[0].content, policy=policy.default)
    assert got["Date"] == "Wed, 02 Dec 2026 09:30:00 +0000"  # not the run's 24 Sep 18:00
    kept = (tmp_path / outbox.SENT / "ann.eml").read_bytes()
    assert b"Date: Wed, 02 Dec 2026 09:30:00 +0000" in kept
    row = ledger(tmp_path)["ann"]
    assert row["sent_time"] == when.isoformat() and row["sent_message_id"] == got["Message-ID"]


def test_a_pending_letter_a_later_one_replaced_is_superseded_and_a_held_run_sends_the_stored_ones(
        tmp_path):
    out = outgoing(three())
    c = cfg(free_port())  # nobody listening: all pending
    outbox.deliver(tmp_path, tmp_path, c, out, env={})
    (tmp_path / "outbox").mkdir(exist_ok=True)
    for o in out:  # the outbox keeps each message as its run wrote it
        (tmp_path / f"outbox/{o.key}.eml").write_bytes(o.data.replace(b"\r\n", b"\n"))
    inbox = Inbox()
    ctl = start(inbox)
    try:
        # a held run: its own messages are the office's only; the stored pending ones go
        d = outbox.deliver(tmp_path, tmp_path, cfg(ctl.port), [], env={}, stored=True)
        assert d.sent == 3
    finally:
        ctl.stop()
    assert {r["status"] for r in ledger(tmp_path).values()} == {"sent"}
    # a normal run that no longer makes a pending letter: superseded, never sent
    outbox.deliver(tmp_path, tmp_path, c, outgoing([letter("dee", "dee@x.example")]), env={})
    inbox2 = Inbox()
    ctl = start(inbox2)
    try:
        d = outbox.deliver(tmp_path, tmp_path, cfg(ctl.port), outgoing([letter("eve", "eve@x.example")]),
                           env={}, supersede=True)
    finally:
        ctl.stop()
    assert d.superseded == 1 and ledger(tmp_path)["dee"]["status"] == "superseded"
    assert [e.rcpt_tos[0] for e in inbox2.received] == ["eve@x.example"]


def test_a_changed_letter_after_it_went_is_a_correction_that_says_what_changed(tmp_path, prefect_harness):
    from flows.pipeline import mailing
    from flows.site.pages import Publication, event_context
    from transforms.kinds import parse_event_config

    inbox = Inbox()
    ctl = start(inbox)
    try:
        c = parse_event_config(
            '[event]\nid = "t"\nname = "T"\nkind = "swiss"\nstart = 2024-09-16\nend = 2024-09-20\n'
            'venue = "V"\norganiser = "O"\ncurrency = "INR"\ncontact = "c"\n'
            f'[publish]\nsender = "r@x.example"\nsubject_prefix = "[T] "\nsmtp_host = "127.0.0.1"\n'
            f'smtp_port = {ctl.port}\n'
            '[swiss]\nrounds = 5\ncategories = [{ id = "open", name = "Open" }]\n')

        def run(letters):
            pub = Publication(tmp_path, ctx=event_context(c, dt.date(2024, 9, 20)))
            out, _ = mailing.compose_letters(pub, c, letters, {}, dt.date(2024, 9, 20))
            for rel, data in pub.files.items():  # what the run publishes before it sends
                (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
                (tmp_path / rel).write_bytes(data)
            return mailing.send_letters(pub, c, tmp_path, letters, out, send_mail=True), out

        first, out1 = run(three())
        assert first["sent"] == 3
        changed = [letter("ann", "ann@x.example"), letter("bob", "bob@x.example", "Round 5: a draw."),
                   letter("cy", "cy@x.example")]
        second, out2 = run(changed)
        assert (second["sent"], second["not_sent_again"]) == (1, 2)
        third, _ = run(changed)
        assert third["sent"] == 0  # the correction went: not again
    finally:
        ctl.stop()
    wait_for(lambda: len(inbox.received) == 4)
    old = next(message_from_bytes(e.content, policy=policy.default) for e in inbox.received[:3]
               if e.rcpt_tos == ["bob@x.example"])
    new = message_from_bytes(inbox.received[3].content, policy=policy.default)
    assert new["To"] == "Bob <bob@x.example>"
    assert new["Subject"] == "[T] Correction: Round 5" and old["Subject"] == "[T] Round 5"
    assert new["Message-ID"] != old["Message-ID"]
    assert new["In-Reply-To"] == old["Message-ID"] and new["References"] == old["Message-ID"]
    text = new.get_body(("plain",)).get_content().replace("\r\n", "\n")
    first_line = text.split("\n", 1)[0]
    assert first_line.startswith("Correction — this letter replaces our letter of ")
    assert "What changed: 'Round 5: you won.' is now 'Round 5: a draw.'." in first_line
    assert text.split("\n")[2] == "Dear Bob,"
    assert new["Date"] != "Fri, 20 Sep 2024 18:00:00 +0000"  # the Date of sending
    # a rebuild after the correction went: the outbox keeps the copy bob received (its
    # Message-ID is the ledger's), not the letter made again without the correction's marks
    kept = message_from_bytes((tmp_path / "outbox/bob.eml").read_bytes(), policy=policy.default)
    assert kept["Message-ID"] == new["Message-ID"] == ledger(tmp_path)["bob"]["sent_message_id"]
    assert kept["Subject"] == "[T] Correction: Round 5"
    for key in ("ann", "cy"):
        got = message_from_bytes((tmp_path / f"outbox/{key}.eml").read_bytes(), policy=policy.default)
        assert got["Message-ID"] == ledger(tmp_path)[key]["sent_message_id"]


# ----------------------------------------------------------------------------- crashes in delivery

DELIVER = """
import sys
from pathlib import Path
from flows.mail import outbox
from dataclasses import replace
from tests.servers.test_delivery import cfg, outgoing, three
outbox.deliver(Path(sys.argv[1]), Path(sys.argv[1]), replace(cfg(int(sys.argv[2])), smtp_timeout=60),
               outgoing(three()), env={})
"""


class Stalls(Inbox):
    """Takes the first message; at ``stage`` ("RCPT" or "DATA") of the second it tells the test
    (``reached``) and answers nothing, so that the test can kill the client there."""

    def __init__(self, stage: str) -> None:
        super().__init__()
        self.stage, self.reached = stage, threading.Event()
        self.forever = None

    async def _stall(self):
        import asyncio

        self.reached.set()
        self.forever = asyncio.Event()
        await self.forever.wait()  # never set: the client is killed meanwhile

    async def handle_RCPT(self, server, session, envelope, address, options):
        if self.stage == "RCPT" and len(self.received) == 1:
            await self._stall()
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.stage == "DATA" and len(self.received) == 1:
            await self._stall()
        return await super().handle_DATA(server, session, envelope)


def deliver_three(out: Path, event: Path | None = None) -> tuple[outbox.Delivery, list[str]]:
    """``outbox.deliver`` of the three letters to a fresh server: what it did and who got one."""
    inbox = Inbox()
    ctl = start(inbox)
    try:
        d = outbox.deliver(out, event or out, cfg(ctl.port), outgoing(three()), env={})
    finally:
        ctl.stop()
    return d, [e.rcpt_tos[0] for e in inbox.received]


def killed_at(stage: str, out: Path) -> Stalls:
    """``outbox.deliver`` of three letters in a process of its own, killed (SIGKILL) while the
    server is at ``stage`` of the second."""
    import os
    import signal
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    stalls = Stalls(stage)
    ctl = start(stalls)
    try:
        proc = subprocess.Popen([sys.executable, "-c", DELIVER, str(out), str(ctl.port)], cwd=root,
                                env={**os.environ, "PYTHONPATH": str(root)})
        try:
            deadline = time.monotonic() + 60
            while not stalls.reached.wait(0.05):
                assert proc.poll() is None, "the client ended before the server reached " + stage
                assert time.monotonic() < deadline, "the server never reached " + stage
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
    finally:
        ctl.stop()
    return stalls


def test_a_run_killed_while_the_server_is_at_rcpt_leaves_the_letter_pending_and_it_goes_once(tmp_path):
    """Step 18: a run killed before the server was given the message (at RCPT) leaves it as it
    was: the next run sends it — every letter delivered exactly once, none lost."""
    stalls = killed_at("RCPT", tmp_path)
    assert [e.rcpt_tos[0] for e in stalls.received] == ["ann@x.example"]
    rows = ledger(tmp_path)
    assert rows["ann"]["status"] == "sent" and "bob" not in rows  # never handed over
    d, got = deliver_three(tmp_path)
    assert (d.sent, d.skipped, d.unknown) == (2, 1, 0)
    got = sorted([e.rcpt_tos[0] for e in stalls.received] + got)
    assert got == ["ann@x.example", "bob@x.example", "cy@x.example"]


def test_a_run_killed_during_data_leaves_the_letter_unknown_until_the_office_resolves_it(
        tmp_path, capsys):
    """Step 18: killed while the server had the message (DATA): its fate is unknown — not sent
    again by any run, listed with the command that resolves it; ``chessfed mail`` exits 4 until
    the office says; ``--resend`` makes it pending (the next delivery sends it once),
    ``--delivered`` records it sent."""
    import argparse

    from flows.cli import mail as mail_cli

    out = tmp_path / "outputs"
    event = tmp_path / "inputs" / "t"
    event.mkdir(parents=True)
    (event / "event.toml").write_text(
        '[event]\nid = "t"\nname = "T"\nkind = "swiss"\nstart = 2024-09-16\nend = 2024-09-20\n'
        'venue = "V"\norganiser = "O"\ncurrency = "INR"\ncontact = "c"\n'
        '[publish]\nsender = "r@x.example"\n'
        '[swiss]\nrounds = 5\ncategories = [{ id = "open", name = "Open" }]\n')
    killed_at("DATA", out / "t")
    assert ledger(out / "t")["bob"]["status"] == "sending"
    d, got = deliver_three(out / "t", event)
    assert (d.sent, d.unknown) == (1, 1) and got == ["cy@x.example"]
    assert ledger(out / "t")["bob"]["status"] == "unknown"

    def mail_cmd(**kw) -> int:
        args = argparse.Namespace(inputs=str(tmp_path / "inputs"), out=str(out), only=["t"],
                                  retry=False, delivered=[], resend=[])
        for k, v in kw.items():
            setattr(args, k, v)
        return mail_cli.main(args)

    capsys.readouterr()
    assert mail_cmd() == 4
    said = capsys.readouterr().out
    assert "1 of unknown fate to resolve" in said
    assert "--only t --delivered bob" in said and "--resend bob" in said
    assert mail_cmd(resend=["ann"]) == 2  # sent, not of unknown fate: refused, nothing changed
    assert ledger(out / "t")["ann"]["status"] == "sent"
    assert mail_cmd(resend=["bob"]) == 4  # now pending: still to deliver
    assert ledger(out / "t")["bob"]["status"] == "pending"
    d, got = deliver_three(out / "t", event)
    assert (d.sent, d.skipped) == (1, 2) and got == ["bob@x.example"]
    assert mail_cmd() == 0


def test_a_letter_marked_delivered_is_recorded_sent_and_never_goes_again(tmp_path):
    killed_at("DATA", tmp_path)
    outbox.deliver(tmp_path, tmp_path, cfg(free_port(), smtp_retries=1), [], env={})  # marks it
    assert ledger(tmp_path)["bob"]["status"] == "unknown"
    assert outbox.resolve(tmp_path, "bob", "sent", dt.datetime(2024, 9, 25, tzinfo=dt.UTC)) == ""
    row = ledger(tmp_path)["bob"]
    assert row["status"] == "sent" and row["sent_sha256"] == row["content_sha256"]
    d, got = deliver_three(tmp_path)
    assert (d.sent, d.skipped) == (1, 2) and got == ["cy@x.example"]


def test_a_connection_lost_during_data_is_of_unknown_fate_never_sent_twice(tmp_path):
    """The server dropped the connection after it was given the message, before it answered:
    it may have the message, so the letter is not retried (never twice) but unknown."""

    class Drops(Inbox):
        async def handle_DATA(self, server, session, envelope):
            if envelope.rcpt_tos == ["bob@x.example"]:
                self.received.append(envelope)
                server.transport.close()  # gone without an answer
                return "250 never heard"
            return await super().handle_DATA(server, session, envelope)

    inbox = Drops()
    ctl = start(inbox)
    try:
        d = outbox.deliver(tmp_path, tmp_path, cfg(ctl.port, smtp_retries=3), outgoing(three()), env={})
    finally:
        ctl.stop()
    assert (d.sent, d.unknown, d.pending) == (2, 1, 0)
    assert sorted(e.rcpt_tos[0] for e in inbox.received) == ["ann@x.example", "bob@x.example",
                                                             "cy@x.example"]
    assert ledger(tmp_path)["bob"]["status"] == "unknown"
    assert "during DATA" in ledger(tmp_path)["bob"]["reply"]

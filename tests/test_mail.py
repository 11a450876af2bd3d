"""Email bulletins: .eml with HTML body and PDF attached, or sent to a real SMTP server."""

import socket
import time
from email import message_from_bytes, policy

import pytest

from flows.publish.mail import build_message, send_smtp

aiosmtpd = pytest.importorskip("aiosmtpd.controller")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def message():
    return build_message(sender="Office <o@x.example>", to_name="Chief Arbiter",
                         to_email="ca@x.example", subject="Bulletin", html="<p>Hello</p>",
                         text="Hello", attachments=[("bulletin.pdf", b"%PDF-1.7 test")],
                         date="Tue, 24 Sep 2024 18:00:00 +0000")


def test_message_has_html_body_and_pdf_attachment():
    m = message_from_bytes(message().as_bytes(), policy=policy.default)
    assert m["To"] == "Chief Arbiter <ca@x.example>"
    assert m.get_body(("html",)).get_content().strip() == "<p>Hello</p>"
    att = [p for p in m.iter_attachments()]
    assert [a.get_filename() for a in att] == ["bulletin.pdf"]
    assert att[0].get_content() == b"%PDF-1.7 test"


def test_same_inputs_give_byte_identical_messages():
    assert message().as_bytes() == message().as_bytes()


def test_messages_are_delivered_to_an_smtp_server():
    received = []

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            received.append(envelope)
            return "250 OK"

    port = free_port()
    ctl = aiosmtpd.Controller(Handler(), hostname="127.0.0.1", port=port)
    ctl.start()
    try:
        assert send_smtp("127.0.0.1", port, [message(), message()]) == 2
        deadline = time.monotonic() + 5
        while len(received) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        ctl.stop()
    assert len(received) == 2
    assert received[0].rcpt_tos == ["ca@x.example"]
    assert b"bulletin.pdf" in received[0].content

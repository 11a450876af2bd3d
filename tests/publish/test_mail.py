"""Email messages: .eml with HTML body and PDF attached (delivery: tests/servers/test_delivery.py)."""

from email import message_from_bytes, policy

from flows.mail.messages import build_message


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

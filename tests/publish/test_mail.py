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


def test_the_message_that_goes_is_the_written_one_with_crlf_line_ends():
    """The CRLF bytes handed to SMTP are made from the outbox's bytes (``Outgoing.of`` with
    ``written``), not by writing the message again: they must equal what the email library
    writes with ``linesep="\\r\\n"`` — long folded headers, non-ASCII names, a long text, an
    attachment in base64 — and the digest returned with the message is its content digest."""
    from flows.mail.messages import build_message_digest
    from flows.mail.outbox import Outgoing, content_digest

    msg, digest = build_message_digest(
        sender="Fédération d'échecs — bureau <bureau@x.example>", to_name="Zoë Ødegård-Łukasiewicz " * 3,
        to_email="z@x.example", subject="Résultats " + "très longs " * 12, html="<p>" + "é" * 3000 + "</p>",
        text="\n".join(f"Ligne {i}: Ångström ½" for i in range(200)),
        attachments=[("bulletin.pdf", bytes(range(256)) * 40)], date="Tue, 24 Sep 2024 18:00:00 +0000",
        key="k")
    assert digest == content_digest(msg)
    written = msg.as_bytes()
    sent = Outgoing.of("k", msg, digest, written)
    assert sent.data == msg.as_bytes(policy=msg.policy.clone(linesep="\r\n"))
    assert Outgoing.of("k", msg).data == sent.data and Outgoing.of("k", msg).digest == digest


def test_the_kept_header_classes_give_the_default_policys_bytes(monkeypatch):
    """The letters' policy keeps one class per header name (flows/mail/messages.py
    ``KeptHeaderClasses``, for speed): a message is byte for byte the one the email library's
    default policy makes — headers with non-ASCII names and a correction's threading included —
    and the classes are made once."""
    from flows.mail import messages

    def made() -> bytes:
        return messages.build_message(
            sender="Fédération <o@x.example>", to_name="Müller, Jörg", to_email="j@x.example",
            subject="Résultats — ronde 5 " * 6, html="<p>Grüße</p>", text="Grüße",
            attachments=[("certificate.pdf", b"%PDF-1.7 x")], date="Tue, 24 Sep 2024 18:00:00 +0000",
            key="k", in_reply_to="<a@x.example>", references="<z@x.example> <a@x.example>").as_bytes()

    kept = made()
    assert messages.POLICY.header_factory["Subject"] is messages.POLICY.header_factory["subject"]
    monkeypatch.setattr(messages, "POLICY", policy.default)
    assert kept == made()

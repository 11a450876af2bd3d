"""Real SMTP servers for the tests (aiosmtpd on 127.0.0.1, a free port each): an inbox that
keeps what it accepts and may answer the next messages otherwise, STARTTLS with a self-signed
certificate made here (``cryptography``), AUTH with one user."""

from __future__ import annotations

import datetime as dt
import ipaddress
import socket
import ssl
import threading
from pathlib import Path

from aiosmtpd import controller
from aiosmtpd import smtp as smtp_server

USER, PASSWORD = "office", "s3cret-Pa55"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Inbox:
    """An aiosmtpd handler that keeps what it accepts; ``answers`` (a list) are given to the
    next messages instead of 250, one each."""

    def __init__(self, answers: list[str] | None = None) -> None:
        self.received: list = []
        self.answers = list(answers or [])
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            if self.answers:
                return self.answers.pop(0)
            self.received.append(envelope)
        return "250 OK queued"


def start(handler, port: int | None = None, **kw):
    ctl = controller.Controller(handler, hostname="127.0.0.1", port=port or free_port(), **kw)
    ctl.start()
    return ctl


def self_signed(tmp_path: Path) -> tuple[Path, Path]:

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = dt.datetime.now(dt.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(days=1))
            .not_valid_after(now + dt.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    crt, pem = tmp_path / "server.crt", tmp_path / "server.key"
    crt.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    pem.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption()))
    return crt, pem


def authenticator(seen: list):
    def check(server, session, envelope, mechanism, auth_data):
        ok = auth_data.login == USER.encode() and auth_data.password == PASSWORD.encode()
        seen.append(ok)
        return smtp_server.AuthResult(success=ok)
    return check




def tls_context(tmp_path: Path) -> tuple[ssl.SSLContext, Path]:
    """A server-side TLS context with a fresh self-signed certificate for 127.0.0.1, and the
    certificate's file (what a client trusts: ``[publish] smtp_ca_file``)."""
    crt, key = self_signed(tmp_path)
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(crt, key)
    return ctx, crt

"""event.toml loaded into frozen, typed objects.

Every key a regulation parameterises lives in event.toml; a missing or bad key is a
:class:`ConfigError` naming the file and the key. Parsing the TOML text is pure (``tomllib``);
the flow reads the file and hands the text in.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import datetime as dt
import functools
import re
import types
import typing
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from email.utils import getaddresses
from enum import Enum
from typing import Any, ClassVar, Protocol, TypeVar

from transforms.core.errors import ConfigError, Finding, Severity
from transforms.core.model import EMAIL_ADDRESS

T = TypeVar("T")
"""A table's type (:meth:`EventConfig.table`)."""


@dataclass(frozen=True)
class Recipient:
    """One listed address: the bulletin goes to it, and to an ``office`` recipient also the
    office's own report (validation findings, flags for the arbiter or the director)."""

    name: str
    """Who it is, e.g. "Chief Arbiter"."""
    email: str
    """The address."""
    role: str = "bulletin"
    """``bulletin`` (the bulletin only: press, federation) or ``office`` (the chief arbiter,
    the organisers, the Correspondence Chess Director: the bulletin and the office report)."""

    def __post_init__(self) -> None:
        if not re.fullmatch(EMAIL_ADDRESS, self.email):
            raise ConfigError("", "email", f"{self.email!r} is not one email address (local@domain.tld)")
        if any(ch in self.name for ch in "\r\n"):
            raise ConfigError("", "name", "a line break in a name")
        if self.role not in RECIPIENT_ROLES:
            raise ConfigError("", "role", f"{self.role!r} is not one of {', '.join(RECIPIENT_ROLES)}")


RECIPIENT_ROLES = ("bulletin", "office")


@dataclass(frozen=True)
class PublishConfig:
    """``[publish]``: who the bulletin goes from and to, and how it is sent."""

    sender: str
    """The From address."""
    recipients: tuple[Recipient, ...] = ()
    """Extra addresses (arbiters, press); Swiss events also mail every association."""
    smtp_host: str = ""
    """Empty: messages are written as .eml files to outputs/<event>/outbox/ (the default)."""
    smtp_port: int = 25
    """The SMTP server's port (25 or 587 with STARTTLS, 465 with implicit TLS)."""
    smtp_starttls: bool = False
    """Upgrade the connection with STARTTLS before AUTH and sending (port 587)."""
    smtp_tls: bool = False
    """Implicit TLS from the first byte (port 465); not together with ``smtp_starttls``."""
    smtp_verify: bool | None = None
    """Check the server's TLS certificate and host name (against the system's authorities,
    or ``smtp_ca_file``). Left out: checked, except for a server on this machine (``localhost``,
    ``127.0.0.1``, ``::1``: a relay whose traffic never leaves it, often with a self-signed
    certificate). False: never checked (only for a test server)."""
    smtp_ca_file: str = ""
    """A PEM file of the authority (or the self-signed certificate) to trust, relative to the
    event folder or absolute."""
    smtp_timeout: float = 30.0
    """Seconds to wait for the server at each step before the attempt counts as failed."""
    smtp_rate_per_minute: int = 0
    """At most this many messages a minute (0: no limit)."""
    smtp_retries: int = 3
    """Attempts per message in one run for transient failures (4xx replies, connection
    refused or lost, timeouts); after them the message stays pending for the next run."""
    smtp_retry_seconds: float = 2.0
    """The first wait before a retry; each further wait doubles it."""
    subject_prefix: str = ""
    """Put before every message's subject, e.g. "[NJ 2024] "."""
    site_url: str = ""
    """The public address of the event's home page (``outputs/<event>/`` as the federation
    publishes it), e.g. ``https://results.example.org/national-junior-2024/``: the bulletin
    prints it with a QR code that opens it. An absolute ``https://`` or ``http://`` address
    with a host and no spaces; left out: no QR code."""

    def __post_init__(self) -> None:
        problem = one_address(self.sender)
        if problem:
            raise ConfigError("", "sender", problem)
        if self.smtp_tls and self.smtp_starttls:
            raise ConfigError("", "smtp_tls", "smtp_tls (implicit TLS) and smtp_starttls exclude each other")
        if not 0 < self.smtp_port < 65536:
            raise ConfigError("", "smtp_port", f"{self.smtp_port} is not a port number (1-65535)")
        for name in ("smtp_timeout", "smtp_retry_seconds"):
            if getattr(self, name) < 0:
                raise ConfigError("", name, "must not be negative")
        for name in ("smtp_rate_per_minute",):
            if getattr(self, name) < 0:
                raise ConfigError("", name, "must not be negative")
        if self.smtp_retries < 1:
            raise ConfigError("", "smtp_retries", "must be at least 1")
        if self.site_url and not SITE_URL.fullmatch(self.site_url):
            raise ConfigError("", "site_url", f"{self.site_url!r} is not an absolute http(s) "
                              "address such as 'https://results.example.org/open-2024/'")


def one_address(sender: str) -> str:
    """DESIGN.md "Publishing" (messages: one From) — why ``sender`` is not one address, with an
    optional display name (``results@fed.example`` or ``Results <results@fed.example>``), ""
    when it is: a second address (``"Results <a@x.example>, b@y.example"``), none, or one that
    is not ``local@domain.tld``. Line breaks and control characters are refused for every
    event.toml string (:func:`unprintable`)."""
    pairs = [p for p in getaddresses([sender]) if any(p)]
    if len(pairs) != 1:
        return (f"{sender!r} names {len(pairs)} addresses: the sender is one address, e.g. "
                "'Results <results@fed.example>'")
    if not re.fullmatch(EMAIL_ADDRESS, pairs[0][1]):
        return (f"{sender!r} is not one address local@domain.tld (with an optional name: "
                "'Results <results@fed.example>')")
    return ""


SITE_URL = re.compile(r"https?://[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::[0-9]{1,5})?"
                      r"(?:/[^\s]*)?")
"""``publish.site_url``: scheme, host (and port), then any path without spaces."""


@dataclass(frozen=True)
class EventInfo:
    """``[event]``: identity and circumstances of the event."""

    id: str
    """The event's id (outputs go to ``outputs/<id>/``)."""
    name: str
    """The event's name as printed."""
    kind: str
    """What kind of event it is."""
    start: dt.date
    """The first day of play."""
    end: dt.date
    """The last day of play (not before ``start``)."""
    venue: str
    """Where it is played."""
    organiser: str
    """Who organises it (printed on pages and certificates)."""
    currency: str
    """ISO 4217 code of every amount (``INR``, ``USD``)."""
    contact: str
    """Who to contact, as printed."""
    code: str = ""
    """The federation's event code, if any."""
    as_of: dt.date | None = None
    """The date the run is "as of" (deadlines, membership checks). Left out: the day of the
    run. ``chessfed run --as-of`` overrides it."""


CRON_FIELD = re.compile(r"[0-9*/,\-A-Za-z?LW#]+")
TIMEZONE = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]*(?:/[A-Za-z0-9_+\-]+)*")


@dataclass(frozen=True)
class ScheduleConfig:
    """``[schedule]``: when the office's server runs the event (``chessfed deploy``)."""

    cron: str
    """Five cron fields, minute hour day month weekday, e.g. ``"0 21 * * *"`` (every evening
    at 21:00 during a Swiss) or ``"0 8 * * 1"`` (Monday mornings for a correspondence stage)."""
    timezone: str = "UTC"
    """The IANA time zone the cron is read in, e.g. ``"Asia/Kolkata"``, ``"America/Chicago"``."""

    def __post_init__(self) -> None:
        fields = self.cron.split()
        if len(fields) != 5 or not all(CRON_FIELD.fullmatch(f) for f in fields):
            raise ConfigError("", "cron", f"{self.cron!r} is not five cron fields "
                              "(minute hour day month weekday), e.g. '0 21 * * *'")
        if not TIMEZONE.fullmatch(self.timezone):
            raise ConfigError("", "timezone", f"{self.timezone!r} is not a time zone name such as 'Asia/Kolkata'")


CSV_FIELD_LIMIT = 131_072
"""The longest cell the CSV reader reads at all (Python's ``csv.field_size_limit()``, which
chessfed leaves as it is): the most ``[limits] cell_chars`` may be."""
SWISS_PLAYERS_PER_CATEGORY = 5_000
"""The default of ``[limits] players_per_category`` in a Swiss: above the largest Swiss the
project benchmarks (4,000 players, 1.1 GB at its peak) and more than twice the largest real
opens (about 2,000)."""
ROUND_ROBIN_PLAYERS_PER_CATEGORY = 500
"""The default in a round robin: 499 rounds (every player meets every other), far above any
real one, while its Berger table (n²/2 games) stays small."""


@dataclass(frozen=True)
class InputLimits:
    """``[limits]``: how large an input may be. A file past a limit (a federation's whole
    rating list exported as players.csv by mistake) is refused with a validation row naming
    the file, the limit and this key, found before the file is read whole, instead of failing
    a later step for want of memory. Every kind; an event that really is larger raises the key.
    The defaults are far above real events."""

    rows: int = 500_000
    """Data rows (after the header) of any one input file: reading stops past them and none
    of the file's rows is used. Default: five times a season's results file (100,000 rows)."""
    file_bytes: int = 50_000_000
    """Bytes of any one input file, checked before it is read: a larger file is not read.
    Default 50 MB (a 2,000-player players.csv is under 1 MB; 100,000 results about 3 MB)."""
    cell_chars: int = 10_000
    """Characters of any one cell: a row with a longer cell is set aside (reported). At most
    131,072 (the CSV reader reads no longer cell). Default: a page of text; a name is under 100."""
    players_per_category: int | None = None
    """Players in one category of a Swiss or a round robin: a larger category is not paired or
    published. players.csv may have at most this many rows per category of the event (reading
    stops past them). Left out: 5,000 in a Swiss, 500 in a round robin. Not a key of
    correspondence events (their rules make the sections: ``[golden_knights] section_size``)."""

    def __post_init__(self) -> None:
        for name in ("rows", "file_bytes", "cell_chars", "players_per_category"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ConfigError("", name, f"must be at least 1, got {value}")
        if self.cell_chars > CSV_FIELD_LIMIT:
            raise ConfigError("", "cell_chars", f"{self.cell_chars:,} is more than {CSV_FIELD_LIMIT:,}, "
                              "the longest cell the CSV reader reads")


@dataclass(frozen=True)
class EventConfig:
    """A whole event.toml: what every event has (``[event]``, ``[publish]``, ``[schedule]``)
    and the tables its kind and its rules parts read, each as its own typed object
    (``tables``: table name -> object, e.g. ``swiss`` -> the Swiss system of play), each read
    by its type (:meth:`table`, :meth:`require`: ``cfg.require(SwissConfig)``); the registry
    that loads the file (:mod:`transforms.kinds`) says which names those may be (``known``)."""

    event: EventInfo
    publish: PublishConfig
    tables: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    """The kind's and the parts' tables, typed."""
    known: frozenset[str] = frozenset()
    """Every table name a kind or part of the registry may read (those absent read as None)."""
    parts: tuple[str, ...] = ()
    """The tables that are rules parts of the event (e.g. the National Junior's entry rules),
    in the order they apply: the kind's run asks each for what it adds (:meth:`rule_parts`)."""
    source: str = "event.toml"
    """The file the configuration was read from, as named in error messages."""
    schedule: ScheduleConfig | None = None
    """``[schedule]``: the cron of the event's deployment; None: run by hand or by the
    ``chessfed deploy --cron`` given."""
    files: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    """The event's input files (name -> :class:`transforms.core.ingest.Schema`), as its kind
    and its rules part ask for them, in the input reference's order."""
    required_files: tuple[str, ...] = ()
    """Those of ``files`` the event must have."""
    rules_part: str = ""
    """The name of the rules part the event chooses (``[entries] rules``), "" when none."""
    limits: InputLimits = dataclasses.field(default_factory=InputLimits)
    """``[limits]``: how large its inputs may be (``players_per_category`` filled in with its
    kind's default at load)."""

    def table(self, cls: type[T]) -> T | None:
        """The event's table of type ``cls`` (e.g. ``cfg.table(SwissConfig)``), None when the
        event does not have it."""
        return next((t for t in self.tables.values() if isinstance(t, cls)), None)

    def require(self, cls: type[T]) -> T:
        """The event's table of type ``cls``, which its kind requires (LookupError naming the
        type when the event has none: a caller that asks for a table of another kind)."""
        found = self.table(cls)
        if found is None:
            raise LookupError(f"{self.source} has no table of type {cls.__name__}")
        return found

    def rule_parts(self) -> list[Any]:
        """The rules parts' objects, in order."""
        return [self.tables[p] for p in self.parts if self.tables.get(p) is not None]

    def with_table(self, name: str, value: Any) -> EventConfig:
        """The same configuration with table ``name`` replaced (tests, what-if pages)."""
        return dataclasses.replace(self, tables=types.MappingProxyType({**self.tables, name: value}))


# ---------------------------------------------------------------------------------------------
# Generic typed loading


_WHEN = {dt.datetime: "a datetime YYYY-MM-DDTHH:MM", dt.date: "a date YYYY-MM-DD"}

BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")
"""The bidirectional formatting characters (Unicode UAX #9): invisible, they reorder the text
around them as it is shown ("Trojan Source", CVE-2021-42574)."""


def unprintable(value: str) -> str:
    """DESIGN.md "Publishing" (no header someone else wrote) — the line breaks, control and
    bidirectional formatting characters ``value`` holds, named ("a line break or control
    character (U+2028)"), or "" when it holds none: control characters (Unicode category Cc:
    C0, DEL, C1 with U+0085; a tab too), the line and paragraph separators U+2028 and U+2029
    and :data:`BIDI_CONTROLS`.

    Decision: an event.toml string holding one is a configuration error naming the key, not
    cleaned: the file is the office's own, a one-word fix, and a sender, subject prefix,
    event, stage or category name reaches the headers of every letter (a line break there
    once left every letter unmade)."""
    bad = sorted({ch for ch in value if unicodedata.category(ch) in ("Cc", "Zl", "Zp")
                  or ch in BIDI_CONTROLS})
    if not bad:
        return ""
    return ("a line break or control character ("
            + ", ".join(f"U+{ord(ch):04X}" for ch in bad) + ")")


def _convert(value: Any, tp: Any, *, file: str, key: str) -> Any:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        errors = []
        for a in args:
            if a is type(None):
                continue
            try:
                return _convert(value, a, file=file, key=key)
            except ConfigError as e:
                errors.append(e.reason)
        raise ConfigError(file, key, "; ".join(errors))
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise ConfigError(file, key, f"expected a list, got {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(v, args[0], file=file, key=f"{key}[{i}]")
                         for i, v in enumerate(value))
        if len(args) != len(value):
            raise ConfigError(file, key, f"expected {len(args)} items, got {value!r}")
        return tuple(_convert(v, a, file=file, key=f"{key}[{i}]")
                     for i, (v, a) in enumerate(zip(value, args)))
    if origin in (frozenset, set) or tp in (frozenset, set):
        if not isinstance(value, list | tuple):
            raise ConfigError(file, key, f"expected a list, got {value!r}")
        et = args[0] if args else Any
        return frozenset(_convert(v, et, file=file, key=f"{key}[{i}]") for i, v in enumerate(value))
    if origin in (dict, Mapping, typing.Mapping, collections.abc.Mapping) or tp is dict:
        if not isinstance(value, dict):
            raise ConfigError(file, key, f"expected a table, got {value!r}")
        kt, vt = args if args else (str, Any)
        return types.MappingProxyType({
            _convert(k, kt, file=file, key=f"{key}.{k}"): _convert(v, vt, file=file, key=f"{key}.{k}")
            for k, v in value.items()})
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            raise ConfigError(file, key, f"expected a table, got {value!r}")
        return from_table(tp, value, file=file, key=key)
    if isinstance(tp, type) and issubclass(tp, Enum):
        try:
            return tp(value)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in tp)
            raise ConfigError(file, key, f"{value!r} is not one of {allowed}") from None
    if tp is bool:
        if isinstance(value, bool):
            return value
        raise ConfigError(file, key, f"expected true or false, got {value!r}")
    if tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise ConfigError(file, key, f"expected an integer, got {value!r}")
    if tp is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        raise ConfigError(file, key, f"expected a number, got {value!r}")
    if tp is Decimal:
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise ConfigError(file, key, f"expected an amount, got {value!r}")
        try:
            return Decimal(str(value))
        except InvalidOperation:
            raise ConfigError(file, key, f"expected an amount, got {value!r}") from None
    if tp is str:
        if isinstance(value, str):
            bad = unprintable(value)
            if bad:
                raise ConfigError(file, key, f"{value!r} holds {bad}: every event.toml value is "
                                  "one line of printable text (it may reach a letter's header)")
            return value
        raise ConfigError(file, key, f"expected a string, got {value!r}")
    if tp in _WHEN:  # a datetime is also a date, so a date must not be one
        if isinstance(value, tp) and (tp is dt.datetime or not isinstance(value, dt.datetime)):
            return value.replace(tzinfo=None) if tp is dt.datetime else value
        if isinstance(value, str):
            try:
                return tp.fromisoformat(value)
            except ValueError:
                pass
        raise ConfigError(file, key, f"expected {_WHEN[tp]}, got {value!r}")
    if tp is dt.time:
        if isinstance(value, dt.time):
            return value
        raise ConfigError(file, key, f"expected a time HH:MM, got {value!r}")
    raise ConfigError(file, key, f"unsupported type {tp!r} (a chessfed bug)")


class _Dataclass(Protocol):
    """Any dataclass (what :func:`dataclasses.fields` reads)."""

    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]


_D = TypeVar("_D", bound=_Dataclass)


@functools.cache
def _type_hints(cls: type) -> dict[str, Any]:
    """DESIGN.md (configuration is data) — the types of a configuration class's fields, read
    once per class (``typing.get_type_hints`` resolves every annotation again at each call: a
    check of 500 event folders spent 0.4 s in it)."""
    return typing.get_type_hints(cls)


def from_table(cls: type[_D], table: Mapping[str, Any], *, file: str, key: str) -> _D:
    """DESIGN.md (configuration is data) — build the frozen dataclass ``cls`` from a TOML table.

    Unknown keys, missing required keys, values of the wrong type and the checks of the
    class's own ``__post_init__`` (which raise :class:`ConfigError` with an empty file and a
    key relative to the table) are errors naming ``file`` and the full key path.
    """
    hints = _type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(table) - set(fields))
    if unknown:
        raise ConfigError(file, f"{key}.{unknown[0]}",
                          f"unknown key (known: {', '.join(sorted(fields))})")
    kwargs = {}
    for name, f in fields.items():
        if name in table:
            kwargs[name] = _convert(table[name], hints[name], file=file, key=f"{key}.{name}")
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise ConfigError(file, f"{key}.{name}", "missing required key")
    try:
        return cls(**kwargs)
    except ConfigError as e:
        if e.file:  # a nested table's error, already located
            raise
        raise ConfigError(file, f"{key}.{e.key}" if e.key else key, e.reason) from None


_TABLE = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\-\s\"]+?)\s*\]\]?")


def _locate(text: str, key: str) -> tuple[int | None, str]:
    """The physical line (1-based) of ``key`` (a path such as ``swiss.rounds`` or
    ``swiss.categories[1].prizes[0]``) in the TOML ``text`` and the value written there; where
    the key itself is not written (a missing key), the line of its table's header. Best effort:
    (None, "") when neither is found."""
    parts = [p for p in re.split(r"\.(?![^\[]*\])", key) if p]
    names = [re.sub(r"\[\d+\]", "", p) for p in parts]
    index = [int(m.group(1)) if (m := re.search(r"\[(\d+)\]", p)) else 0 for p in parts]
    lines = text.splitlines()
    for k in range(len(names), -1, -1):  # the key as a table, then each table it may be in
        table, name = ".".join(names[:k]), names[k] if k < len(names) else ""
        wanted = index[k - 1] if k else 0  # which [[table]] of an array of tables
        current, seen, header_line = "", -1, None
        for no, line in enumerate(lines, start=1):
            m = _TABLE.match(line)
            if m:
                current = m.group(1).replace(" ", "").replace('"', "")
                if current == table:
                    seen += 1
                    if seen == wanted:
                        header_line = no
                continue
            if current == table and seen == wanted and re.match(rf"^\s*{re.escape(name)}\s*=", line):
                return no, line.split("=", 1)[1].split(" #", 1)[0].strip()
        if header_line is not None:
            return header_line, ""
    return None, ""


def config_finding(error: ConfigError, text: str | None) -> Finding:
    """DESIGN.md Outputs (validation) — the validation row of an event.toml that cannot be
    used: the key at fault, its physical line and the value written there (a TOML syntax
    error: the line the parser names and its text; a missing key: its table's header line).

    Decision: the finding's file is ``event.toml`` (the folder's, whatever ``error.file``
    says) and its severity is error: nothing of the event is computed from it."""
    m = re.search(r"at line (\d+)", error.reason)
    line: int | None
    if m:
        line = int(m.group(1))
        rows = (text or "").splitlines()
        value = rows[line - 1].strip() if 0 < line <= len(rows) else ""
    elif text is not None and error.key:
        line, value = _locate(text, error.key)
    else:
        line, value = None, ""
    return Finding("event.toml", line, error.key, value, Severity.ERROR, error.reason)

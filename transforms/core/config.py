"""event.toml loaded into frozen, typed objects.

Every key a regulation parameterises lives in event.toml; a missing or bad key is a
:class:`ConfigError` naming the file and the key. Parsing the TOML text is pure (``tomllib``);
the flow reads the file and hands the text in.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import datetime as dt
import re
import tomllib
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import Enum, StrEnum
from typing import Any

from transforms.core.errors import ConfigError, Finding, Severity
from transforms.core.model import EMAIL_ADDRESS, Acceleration, Colour, DutchEdition
from transforms.fide.rating_report import RatingReportRules
from transforms.fide.tiebreaks import Edition, parse_code
from transforms.golden_knights.rules import GKRules
from transforms.national_junior.entries import JuniorEntryRules


class EventKind(StrEnum):
    """The kinds of event chessfed runs (DESIGN.md, event.toml ``[event] kind``)."""

    SWISS = "swiss"
    """A Swiss event over the board (the National Junior): tables ``[swiss]`` and, for its
    entry rules, ``[entries]``."""
    CORRESPONDENCE = "correspondence"
    """A correspondence event of stages of round-robin sections (the Golden Knights): table
    ``[golden_knights]``."""


class InitialColour(StrEnum):
    """``swiss.initial_colour``: the colour player 1 gets in round 1 (drawn by lot at the
    venue; FIDE C.04.3 E.5 and TRF ``XXC``)."""

    WHITE = "white"
    """Player 1 (the top seed) has White in round 1."""
    BLACK = "black"
    """Player 1 has Black in round 1."""

    @property
    def colour(self) -> Colour:
        return Colour.WHITE if self is InitialColour.WHITE else Colour.BLACK


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
    kind: EventKind
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


@dataclass(frozen=True)
class Category:
    """One Swiss category (section) of the event, e.g. the Open or the Girls."""

    id: str
    """The category's id, as players.csv ``section`` gives it (e.g. ``open``, ``girls``)."""
    name: str
    """Its name as printed."""
    prizes: tuple[Decimal, ...] = ()
    """Prize for place 1, 2, ... (never shared in the National Junior)."""
    prizes_note: str = ""
    """Where the prize table comes from (the demo labels its own as an assumption)."""


@dataclass(frozen=True)
class SwissConfig:
    """``[swiss]``: the system of play of a Swiss event."""

    rounds: int
    """Rounds of the event: "Totally, eleven rounds shall be played." (NJ 2024)."""
    categories: tuple[Category, ...]
    """The categories (``[[swiss.categories]]``), each paired and ranked on its own."""
    tiebreaks: tuple[str, ...] = ("BH-C1", "BH", "SB", "DE", "WIN", "BWG")
    """FIDE C.07 codes in the order they break ties (each a code of the tie-break registry).
    National Junior 2024 "Tie Break": "(a) Buchholz Cut1 (b) Buchholz (c) Sonneborn Berger (d)
    Direct encounter (e) The greater number of wins (forfeit included) (f) The greater number
    of wins by black"."""
    tiebreak_edition: Edition = Edition.FIDE_2024
    """Which text of FIDE C.07 computes the tie-breaks."""
    dutch_edition: DutchEdition = DutchEdition.RULES_2025
    """Which text of FIDE C.04.3 pairs the rounds."""
    acceleration: Acceleration = Acceleration.NONE
    """FIDE C.04.5: ``"baku"`` adds the Baku method's virtual points (C.04.5.1) to the pairing
    scores of the first rounds, for large opens; the standings never see them."""
    initial_colour: InitialColour = InitialColour.WHITE
    """Player 1's colour in round 1 (drawn by lot at the venue)."""
    pab_points: float = 1.0
    """Points of the pairing-allocated bye (FIDE C.04.1: a win unless the regulations say)."""
    prizes_shared: bool = False
    """Whether players equal after every tie-break share their places' prizes."""
    last_round_same_state: bool = False
    """National Junior 2024 "System of Play": "Players from the same state shall not be
    paired against each other in the last round. However, they may be paired if there is no
    compatible opponent with the same point group or score group with a maximum difference of
    1 point. It is applicable only for the top 50% score of the penultimate round." (the rule:
    ``transforms/national_junior/same_state.py``)."""
    draw_consent_before_move: int | None = None
    """National Junior 2024 "Draw Agreement": "Players shall not agree for a draw without the
    consent of the arbiter, before each player makes 30 moves": a draw before this move
    without ``draw_consent`` in results.csv is flagged for the arbiter (the rule:
    ``transforms/national_junior/draw_agreement.py``); left out: no such rule."""
    simulation_seed: int = 1
    """Seed of ``chessfed simulate`` (demo results only)."""

    def __post_init__(self) -> None:
        if self.rounds < 1:
            raise ConfigError("", "rounds", f"must be at least 1, got {self.rounds}")
        if not self.categories:
            raise ConfigError("", "categories", "at least one category is required")
        ids = [c.id for c in self.categories]
        dup = {i for i in ids if ids.count(i) > 1}
        if dup:
            raise ConfigError("", "categories", f"duplicate category id {sorted(dup)[0]!r}")
        for code in self.tiebreaks:
            parse_code(code, key="tiebreaks", file="")
        if self.draw_consent_before_move is not None and self.draw_consent_before_move < 1:
            raise ConfigError("", "draw_consent_before_move",
                              f"must be at least 1, got {self.draw_consent_before_move}")

    def category(self, cid: str) -> Category:
        for c in self.categories:
            if c.id == cid:
                return c
        raise KeyError(cid)


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


@dataclass(frozen=True)
class EventConfig:
    """A whole event.toml."""

    event: EventInfo
    publish: PublishConfig
    swiss: SwissConfig | None = None
    """``[swiss]``: the system of play of a Swiss event."""
    entries: JuniorEntryRules | None = None
    """``[entries]``: the National Junior's entry rules (eligibility, quotas, fees), if any."""
    golden_knights: GKRules | None = None
    """``[golden_knights]``: the Golden Knights rules as numbers (correspondence events)."""
    fide_report: RatingReportRules | None = None
    """``[fide_report]``: what the FIDE rating report of each rated category says (Swiss
    events); None: no rating report is written."""
    source: str = "event.toml"
    """The file the configuration was read from, as named in error messages."""
    schedule: ScheduleConfig | None = None
    """``[schedule]``: the cron of the event's deployment; None: run by hand or by the
    ``chessfed deploy --cron`` given."""


# ---------------------------------------------------------------------------------------------
# Generic typed loading


_WHEN = {dt.datetime: "a datetime YYYY-MM-DDTHH:MM", dt.date: "a date YYYY-MM-DD"}


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
    if dataclasses.is_dataclass(tp):
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


def from_table(cls: type, table: Mapping[str, Any], *, file: str, key: str) -> Any:
    """DESIGN.md (configuration is data) — build the frozen dataclass ``cls`` from a TOML table.

    Unknown keys, missing required keys, values of the wrong type and the checks of the
    class's own ``__post_init__`` (which raise :class:`ConfigError` with an empty file and a
    key relative to the table) are errors naming ``file`` and the full key path.
    """
    hints = typing.get_type_hints(cls)
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


def parse_event_config(text: str, *, file: str = "event.toml") -> EventConfig:
    """DESIGN.md Inputs (event.toml) — parse and validate every table, once, at load: a bad
    key anywhere is a :class:`ConfigError` naming ``file`` and the full key path."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(file, "", f"not valid TOML: {e}") from None
    known = {"event", "publish", "swiss", "entries", "golden_knights", "fide_report", "schedule"}
    for k in data:
        if k not in known:
            raise ConfigError(file, k, f"unknown table (known: {', '.join(sorted(known))})")
    for k in ("event", "publish"):
        if k not in data:
            raise ConfigError(file, k, "missing required table")
    event = from_table(EventInfo, data["event"], file=file, key="event")
    if event.end < event.start:
        raise ConfigError(file, "event.end", f"{event.end} is before event.start {event.start}")
    publish = from_table(PublishConfig, data["publish"], file=file, key="publish")
    swiss = entries = golden_knights = fide_report = None
    if event.kind is EventKind.SWISS:
        if "swiss" not in data:
            raise ConfigError(file, "swiss", "missing required table for kind = 'swiss'")
        swiss = from_table(SwissConfig, data["swiss"], file=file, key="swiss")
        if "entries" in data:
            entries = from_table(JuniorEntryRules, data["entries"], file=file, key="entries")
            unknown = sorted(set(entries.categories) - {c.id for c in swiss.categories})
            if unknown:
                raise ConfigError(file, "entries.categories",
                                  f"{unknown[0]!r} is not a category of [swiss]")
        if "golden_knights" in data:
            raise ConfigError(file, "golden_knights", "a table of correspondence events")
        if "fide_report" in data:
            fide_report = from_table(RatingReportRules, data["fide_report"], file=file,
                                     key="fide_report")
            check_fide_report(fide_report, event, swiss, file=file)
    else:
        if "golden_knights" not in data:
            raise ConfigError(file, "golden_knights",
                              "missing required table for kind = 'correspondence'")
        golden_knights = from_table(GKRules, data["golden_knights"], file=file, key="golden_knights")
        for k in ("swiss", "entries", "fide_report"):
            if k in data:
                raise ConfigError(file, k, "a table of Swiss events")
    schedule = (from_table(ScheduleConfig, data["schedule"], file=file, key="schedule")
                if "schedule" in data else None)
    return EventConfig(event=event, publish=publish, swiss=swiss, entries=entries,
                       golden_knights=golden_knights, fide_report=fide_report, source=file,
                       schedule=schedule)


def check_fide_report(rules: RatingReportRules, event: EventInfo, swiss: SwissConfig, *,
                      file: str) -> None:
    """DESIGN.md Inputs (event.toml) — ``[fide_report]`` agrees with ``[event]`` and
    ``[swiss]``: one round date per round, within the event's dates; rated categories and
    tournament codes name categories of ``[swiss]``."""
    if len(rules.round_dates) != swiss.rounds:
        raise ConfigError(file, "fide_report.round_dates",
                          f"{len(rules.round_dates)} dates for {swiss.rounds} rounds "
                          "(swiss.rounds): one date per round")
    for i, d in enumerate(rules.round_dates):
        if not event.start <= d <= event.end:
            raise ConfigError(file, f"fide_report.round_dates[{i}]",
                              f"{d} is outside the event ({event.start} - {event.end})")
    cats = {c.id for c in swiss.categories}
    for key, ids in (("categories", rules.categories), ("tournament_codes",
                                                         tuple(rules.tournament_codes))):
        for cid in ids:
            if cid not in cats:
                raise ConfigError(file, f"fide_report.{key}",
                                  f"{cid!r} is not a category of [swiss] ({', '.join(sorted(cats))})")


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
    if m:
        line = int(m.group(1))
        rows = (text or "").splitlines()
        value = rows[line - 1].strip() if 0 < line <= len(rows) else ""
    elif text is not None and error.key:
        line, value = _locate(text, error.key)
    else:
        line, value = None, ""
    return Finding("event.toml", line, error.key, value, Severity.ERROR, error.reason)

"""event.toml loaded into frozen, typed objects.

Every key a regulation parameterises lives in event.toml; a missing or bad key is a
:class:`ConfigError` naming the file and the key. Parsing the TOML text is pure (``tomllib``);
the flow reads the file and hands the text in.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import datetime as dt
import tomllib
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from enum import Enum, StrEnum
from typing import Any

from transforms.core.errors import ConfigError


class EventKind(StrEnum):
    """The kinds of event chessfed runs (DESIGN.md, event.toml ``[event] kind``)."""

    SWISS = "swiss"
    CORRESPONDENCE = "correspondence"


@dataclass(frozen=True)
class Recipient:
    """One address the bulletin goes to."""

    name: str
    email: str


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
    subject_prefix: str = ""


@dataclass(frozen=True)
class EventInfo:
    """``[event]``: identity and circumstances of the event."""

    id: str
    name: str
    kind: EventKind
    start: dt.date
    end: dt.date
    venue: str
    organiser: str
    currency: str
    contact: str
    code: str = ""
    as_of: dt.date | None = None
    """The date the run is "as of" (deadlines, membership checks). None: the day of the run."""


@dataclass(frozen=True)
class Category:
    """One Swiss category (section) of the event, e.g. the Open or the Girls."""

    id: str
    name: str
    prizes: tuple[Decimal, ...] = ()
    """Prize for place 1, 2, ... (never shared in the National Junior)."""
    prizes_note: str = ""
    """Where the prize table comes from (the demo labels its own as an assumption)."""


@dataclass(frozen=True)
class SwissConfig:
    """``[swiss]``: the system of play of a Swiss event."""

    rounds: int
    categories: tuple[Category, ...]
    tiebreaks: tuple[str, ...] = ("BH-C1", "BH", "SB", "DE", "WIN", "BWG")
    tiebreak_edition: str = "fide-2024"
    dutch_edition: str = "2025"
    initial_colour: str = "white"
    pab_points: float = 1.0
    prizes_shared: bool = False
    last_round_same_state: bool = False
    simulation_seed: int = 1

    def category(self, cid: str) -> Category:
        for c in self.categories:
            if c.id == cid:
                return c
        raise KeyError(cid)


@dataclass(frozen=True)
class EventConfig:
    """A whole event.toml."""

    event: EventInfo
    publish: PublishConfig
    swiss: SwissConfig | None = None
    rules: Mapping[str, Any] = field(default_factory=dict)
    """Raw rule tables (``[entries]``, ``[golden_knights]``) handed to the rule modules,
    which load them with :func:`from_table` into their own frozen dataclasses."""
    source: str = "event.toml"


# ---------------------------------------------------------------------------------------------
# Generic typed loading


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
    if tp is dt.datetime:
        if isinstance(value, dt.datetime):
            return value.replace(tzinfo=None)
        if isinstance(value, str):
            try:
                return dt.datetime.fromisoformat(value)
            except ValueError:
                pass
        raise ConfigError(file, key, f"expected a datetime YYYY-MM-DDTHH:MM, got {value!r}")
    if tp is dt.date:
        if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
            return value
        if isinstance(value, str):
            try:
                return dt.date.fromisoformat(value)
            except ValueError:
                pass
        raise ConfigError(file, key, f"expected a date YYYY-MM-DD, got {value!r}")
    if tp is dt.time:
        if isinstance(value, dt.time):
            return value
        raise ConfigError(file, key, f"expected a time HH:MM, got {value!r}")
    raise ConfigError(file, key, f"unsupported type {tp!r} (a chessfed bug)")


def from_table(cls: type, table: Mapping[str, Any], *, file: str, key: str) -> Any:
    """Build the frozen dataclass ``cls`` from a TOML table.

    Unknown keys and missing required keys are errors naming ``file`` and ``key.field``.
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
    return cls(**kwargs)


def parse_event_config(text: str, *, file: str = "event.toml") -> EventConfig:
    """Parse and validate an event.toml text (DESIGN.md, Inputs)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(file, "", f"not valid TOML: {e}") from None
    known = {"event", "publish", "swiss", "entries", "golden_knights"}
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
    swiss = None
    if event.kind is EventKind.SWISS:
        if "swiss" not in data:
            raise ConfigError(file, "swiss", "missing required table for kind = 'swiss'")
        swiss = from_table(SwissConfig, data["swiss"], file=file, key="swiss")
        if not swiss.categories:
            raise ConfigError(file, "swiss.categories", "at least one category is required")
        if swiss.rounds < 1:
            raise ConfigError(file, "swiss.rounds", f"must be at least 1, got {swiss.rounds}")
        if swiss.dutch_edition not in ("2017", "2025"):
            raise ConfigError(file, "swiss.dutch_edition",
                              f"{swiss.dutch_edition!r} is not '2017' or '2025'")
        if swiss.initial_colour not in ("white", "black"):
            raise ConfigError(file, "swiss.initial_colour",
                              f"{swiss.initial_colour!r} is not 'white' or 'black'")
        ids = [c.id for c in swiss.categories]
        dup = {i for i in ids if ids.count(i) > 1}
        if dup:
            raise ConfigError(file, "swiss.categories", f"duplicate category id {sorted(dup)[0]!r}")
    elif "golden_knights" not in data:
        raise ConfigError(file, "golden_knights", "missing required table for kind = 'correspondence'")
    rules = {k: data[k] for k in ("entries", "golden_knights") if k in data}
    return EventConfig(event=event, publish=publish, swiss=swiss,
                       rules=types.MappingProxyType(rules), source=file)

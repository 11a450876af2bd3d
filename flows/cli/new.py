"""``chessfed new KIND FOLDER`` — start an event folder of any registered kind.

    chessfed new KIND FOLDER [--rules PART]

Writes FOLDER/event.toml with every key the kind's tables have (and, with ``--rules``, the
rules part's): the keys an event must give hold a placeholder marked "to complete", with which
the event already runs; every other key is commented out with its default and its meaning,
and an optional table is commented out whole. Next to it, every input file of the kind (and
part) with its header row and no rows, the required files and the optional ones. ``chessfed
run FOLDER`` runs the folder as it is, and publishes the event's home with nothing entered
yet; the office then completes event.toml and fills in the files (inputs/README.md says what
every key and column holds).

The kinds, their tables and files, and the parts each kind allows come from the registries
(``transforms/kinds.py`` KINDS and PARTS, ``flows/registry.py`` FLOW_KINDS): a kind
registered there gets its ``chessfed new`` as it is. Exit status: 0 written; 2 nothing written
— an event.toml or a non-empty input file is already in FOLDER (each named), or the rules
part is not one the kind allows.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import re
import sys
import textwrap
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import Enum
from pathlib import Path
from typing import Any

from flows import io
from flows.cli.input_reference import attribute_docs, default_of
from transforms.core import config
from transforms.kinds import CHOOSER, KINDS, PARTS, EventKind, KindSpec, PartSpec

EXIT_OK, EXIT_REFUSED = 0, 2

PLACEHOLDER = "to be completed"
"""The placeholder of a text the event must give."""
TO_COMPLETE = "to complete"
"""How event.toml marks a placeholder."""
EXAMPLES: dict[str, Any] = {
    "currency": "EUR", "sender": "Results <results@example.org>",
    "email": "office@example.org", "cron": "0 21 * * *", "timezone": "UTC",
}
"""Placeholders of the keys every kind's common tables have, where a bare placeholder would not
be a value at all (an address, a currency, a cron)."""
FIRST_CATEGORY = "open"
"""The id of the one placeholder element of a required list of tables with ids (the
categories) when no table of the event names others."""
WIDTH = 100
"""Lines are wrapped at this width."""
COMMENT_AT = 40
"""The column a key's comment starts at."""


class Refused(Exception):
    """Nothing was written: what is in the way (each file named)."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register ``new`` on the ``chessfed`` command line."""
    allowed = {p: [k.kind.value for k in KINDS.values() if p in k.parts] for p in PARTS}
    p = subparsers.add_parser(
        "new", help="start an event folder of any kind: a commented event.toml and the input "
        "files' headers", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("kind", choices=[k.value for k in KINDS], help="the kind of event")
    p.add_argument("folder", type=Path,
                   help="the event folder (made if missing; its name is the event's id)")
    p.add_argument("--rules", metavar="PART", choices=sorted(PARTS), default=None,
                   help="a rules part the kind allows, whose tables and files are added: "
                   + "; ".join(f"{name} ({', '.join(kinds) or 'no kind'})"
                               for name, kinds in allowed.items()))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from flows.registry import flow_kind_of

    kind = flow_kind_of(args.kind)
    try:
        started = new_event(args.kind, args.folder, rules=args.rules, today=dt.date.today(),
                            summary=kind.summary)
    except Refused as e:
        print(f"chessfed new: {e}", file=sys.stderr)
        return EXIT_REFUSED
    what = f"a {args.kind} event" + (f" under the rules part {args.rules}" if args.rules else "")
    print(f"{args.folder}: {what} — {kind.summary}")
    width = max(len(str(p)) for p in started.written)
    for path in started.written:
        print(f"  {str(path):<{width}}  {started.notes[path.name]}")
    print(f"Complete the keys marked \"{TO_COMPLETE}\" in event.toml ({', '.join(started.placeholders)}) "
          "and fill in the files (every key and column: inputs/README.md). "
          f"`chessfed run {args.folder}` runs it as it is: the event's home, nothing entered yet.")
    return EXIT_OK


@dataclass
class Started:
    """What :func:`new_event` wrote."""

    written: list[Path]
    """event.toml, then the input files in the input reference's order."""
    notes: dict[str, str]
    """What each file is (by its name)."""
    placeholders: list[str]
    """The event.toml keys that hold a placeholder (``event.venue``)."""


def new_event(kind: str, folder: Path, *, rules: str | None = None, today: dt.date,
              summary: str = "") -> Started:
    """Start ``folder`` as an event of ``kind`` (with the rules part ``rules``): event.toml
    (:func:`event_toml`, checked by the loader before anything is written) and the event's
    input files, headers only. Raises :class:`Refused` (nothing written) when event.toml or a
    non-empty input file is there, or the kind does not allow the part."""
    from transforms.kinds import input_files, parse_event_config

    spec = KINDS[EventKind(kind)]
    part = None
    if rules is not None:
        if rules not in spec.parts:
            allowed = ", ".join(spec.parts) or "none"
            raise Refused(f"{rules!r} is not a rules part of a {kind} event (its parts: {allowed}); "
                          "nothing written")
        part = PARTS[rules]
    draft = Draft(folder, today)
    text = event_toml(spec, part, draft, summary)
    cfg = parse_event_config(text, file=str(folder / "event.toml"))  # the placeholders load
    schemas, required = input_files(cfg)
    toml = folder / "event.toml"
    in_the_way = [toml] if toml.exists() else []
    in_the_way += [folder / n for n in schemas
                   if (folder / n).exists() and ((folder / n).is_dir() or (folder / n).stat().st_size)]
    if folder.exists() and not folder.is_dir():
        in_the_way = [folder]
    if in_the_way:
        raise Refused("already there, kept as it is: " + ", ".join(str(p) for p in in_the_way)
                      + "; nothing written (chessfed new starts a folder, it overwrites nothing)")
    written = [io.atomic_write(toml, text)]
    notes = {"event.toml": f"{len(draft.placeholders)} keys to complete"}
    for name, schema in schemas.items():
        written.append(io.atomic_write(folder / name, ",".join(c.name for c in schema.columns) + "\n"))
        notes[name] = f"({'required' if name in required else 'optional'}) {schema.description}"
    return Started(written, notes, draft.placeholders)


# ---------------------------------------------------------------------------------------------
# event.toml


@dataclass
class Draft:
    """The event.toml being written: the folder it starts and the keys given a placeholder."""

    folder: Path
    today: dt.date
    placeholders: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        """The event's id: the folder's name (``.`` too: the current folder's)."""
        return self.folder.resolve().name

    @property
    def name(self) -> str:
        """The event's placeholder name, from the folder's (``club-open-2025``: Club Open 2025)."""
        return " ".join(w.capitalize() for w in re.split(r"[-_\s]+", self.id) if w) \
            or PLACEHOLDER


def event_toml(kind: KindSpec, part: PartSpec | None, draft: Draft, summary: str = "") -> str:
    """The commented event.toml of a new event of ``kind`` (with ``part``): ``[event]``,
    ``[publish]``, the kind's tables, the part's, then ``[schedule]`` and ``[limits]``."""
    command = f"chessfed new {kind.kind.value}" + (f" --rules {part.name}" if part else "")
    out = comment(f"{draft.name}: started by `{command}` on {draft.today.isoformat()}"
                  + (f" — {summary}." if summary else "."))
    out += comment(f"A key marked \"{TO_COMPLETE}\" holds a placeholder the event runs with: "
                   "replace it. A commented key shows its default (uncomment it to change it); "
                   "a commented table is optional. Every key, its type and its values: "
                   "inputs/README.md.")
    out += table_lines("event", config.EventInfo, draft, fixed={
        "id": draft.id, "name": draft.name, "kind": kind.kind.value,
        "start": draft.today, "end": draft.today})
    out += table_lines("publish", config.PublishConfig, draft)
    names = named_ids(part)
    for name, table in kind.tables.items():
        out += table_lines(name, table.cls, draft, present=table.required, ids=names)
    for name, table in (part.tables.items() if part else ()):
        out += table_lines(name, table.cls, draft, present=table.required,
                           fixed={"rules": part.name} if name == CHOOSER else None)
    out += table_lines("schedule", config.ScheduleConfig, draft, present=False)
    limits = {"players_per_category": kind.players_per_category} if kind.players_per_category \
        else {}
    out += table_lines("limits", config.InputLimits, draft, present=False, defaults=limits,
                       omit=() if limits else ("players_per_category",))
    return "\n".join(out) + "\n"


def named_ids(part: PartSpec | None) -> dict[str, tuple[str, ...]]:
    """The ids the part's tables name by default under a key (its ``categories``): the kind's
    list of tables of the same key gets one element for each, so that the part's defaults
    name tables that are there."""
    found: dict[str, tuple[str, ...]] = {}
    for table in (part.tables.values() if part else ()):
        for f in dataclasses.fields(table.cls):
            d = default_of(f)
            if isinstance(d, tuple) and d and all(isinstance(x, str) for x in d):
                found.setdefault(f.name, d)
    return found


def table_lines(name: str, cls: type, draft: Draft, *, present: bool = True,
                fixed: Mapping[str, Any] | None = None, defaults: Mapping[str, Any] | None = None,
                omit: tuple[str, ...] = (), ids: Mapping[str, tuple[str, ...]] | None = None,
                array: bool = False) -> list[str]:
    """The lines of table ``name`` (``cls``'s fields): a required key with its ``fixed`` value
    or a placeholder, every other key commented out with its default; the whole table
    commented out unless ``present``. Sub-tables (a long mapping) and lists of tables (the
    categories) follow its keys."""
    docs = attribute_docs(cls)
    hints = typing.get_type_hints(cls)
    fixed, defaults, ids = fixed or {}, defaults or {}, ids or {}
    lead = "" if present else "# "
    title = TABLE_NAME.sub("", first_sentence(cls.__doc__ or ""))
    title = title[:1].upper() + title[1:]
    head = f"[[{name}]]" if array else f"[{name}]"
    out = [""] + comment(title if present else f"Optional: {title[:1].lower()}{title[1:]}")
    out.append(lead + head)
    after: list[str] = []
    for f in dataclasses.fields(cls):
        if f.name in omit:
            continue
        tp, meaning = hints[f.name], first_sentence(docs.get(f.name, ""))
        default = defaults.get(f.name, default_of(f))
        if f.name in fixed:
            out += key_lines(lead, f.name, fixed[f.name], meaning)
        elif default is dataclasses.MISSING:
            element = list_element(tp)
            if element is not None:  # a required list of tables: one element each (categories)
                named = ids.get(f.name, (FIRST_CATEGORY,))
                for cid in named:
                    after += table_lines(f"{name}.{f.name}", element, draft, present=present,
                                         array=True, fixed=element_values(element, cid, draft,
                                                                         len(named) == 1))
                continue
            if present:
                draft.placeholders.append(f"{name}.{f.name}")
            value = EXAMPLES.get(f.name, placeholder(tp, draft))
            out += key_lines(lead, f.name, value,
                             f"{TO_COMPLETE}: {meaning}" if present else f"required: {meaning}")
        elif default is None:
            out += key_lines("# ", f.name, Blank(tp), f"{meaning} (Default: left out.)")
        elif isinstance(default, Mapping) and default and \
                len(f"{f.name} = {toml_value(default)}") > WIDTH - 2:
            after += [""] + comment(f"{meaning} (Its default: uncomment the table to change it.)")
            after.append(f"# [{name}.{f.name}]")
            for k, v in default.items():
                after += key_lines("# ", toml_key(str(k.value if isinstance(k, Enum) else k)), v, "")
        else:
            shown = default
            if isinstance(default, tuple) and not default and list_element(tp) is not None:
                shown = (example(list_element(tp), draft),)
                meaning = f"{meaning} (Default: none; this is an example.)"
            out += key_lines("# ", f.name, shown, meaning)
    return out + after


def list_element(tp: Any) -> type | None:
    """The element of a list of tables (``tuple[Category, ...]``), else None."""
    args = typing.get_args(tp)
    if typing.get_origin(tp) is tuple and len(args) == 2 and args[1] is Ellipsis \
            and dataclasses.is_dataclass(args[0]):
        return args[0]
    return None


def element_values(cls: type, cid: str, draft: Draft, one: bool) -> dict[str, Any]:
    """The required keys of one placeholder element of a list of tables: its ``id``, its
    ``name`` (the event's when it is the only one) and placeholders."""
    hints = typing.get_type_hints(cls)
    out: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if default_of(f) is not dataclasses.MISSING:
            continue
        out[f.name] = (cid if f.name == "id" else (draft.name if one else cid.capitalize())
                       if f.name == "name" else EXAMPLES.get(f.name, placeholder(hints[f.name], draft)))
    return out


def example(cls: type, draft: Draft) -> dict[str, Any]:
    """An element of a list of tables, as an inline table: its required keys' placeholders and
    its other keys' defaults (e.g. a ``[publish]`` recipient)."""
    hints = typing.get_type_hints(cls)
    out: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        d = default_of(f)
        if d is dataclasses.MISSING:
            out[f.name] = EXAMPLES.get(f.name, placeholder(hints[f.name], draft))
        elif d is not None:
            out[f.name] = d
    return out


def placeholder(tp: Any, draft: Draft) -> Any:
    """A value of type ``tp`` that loads: text :data:`PLACEHOLDER`, 1, the start date, the
    first member of an enum, one element of a list."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return placeholder(next(a for a in args if a is not type(None)), draft)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            element = list_element(tp)
            return (example(element, draft) if element else placeholder(args[0], draft),)
        return tuple(placeholder(a, draft) for a in args)
    if origin in (frozenset, set):
        return ()
    if origin is not None and issubclass(origin, Mapping):
        return {}
    if isinstance(tp, type) and issubclass(tp, Enum):
        return next(iter(tp))
    if dataclasses.is_dataclass(tp):
        return example(tp, draft)
    if tp is dt.datetime:
        return dt.datetime.combine(draft.today, dt.time())
    return {str: PLACEHOLDER, int: 1, float: 1.0, Decimal: Decimal(0), bool: False,
            dt.date: draft.today}.get(tp, PLACEHOLDER)


def key_lines(lead: str, key: str, value: Any, meaning: str) -> list[str]:
    """``key = value`` (behind ``lead``: "# " for a commented key) with its meaning as a
    comment from :data:`COMMENT_AT` on (wrapped there), or on the lines above when the value is
    long; a long list on lines of its own."""
    text = toml_value(value)
    line = f"{lead}{key} = {text}"
    if len(line) > WIDTH and isinstance(value, (tuple, list, frozenset, set)):
        body: list[str] = []
        for item in (toml_value(v) + "," for v in sorted_items(value)):  # never split an item
            if body and len(lead) + 4 + len(body[-1]) + 1 + len(item) <= WIDTH:
                body[-1] += " " + item
            else:
                body.append(item)
        lines = [f"{lead}{key} = ["] + [f"{lead}    {b}" for b in body] + [f"{lead}]"]
        return (comment(meaning) if meaning else []) + lines
    if not meaning:
        return [line]
    at = max(COMMENT_AT, len(line) + 2)
    if at > WIDTH - 30:
        return comment(meaning) + [line]
    wrapped = textwrap.wrap(meaning, WIDTH - at - 2, break_on_hyphens=False)
    margin = lead.rstrip().ljust(at)
    return [f"{line:<{at}}# {wrapped[0]}"] + [f"{margin}# {w}" for w in wrapped[1:]]


def comment(text: str) -> list[str]:
    """``text`` as comment lines."""
    return ["# " + line for line in textwrap.wrap(text, WIDTH - 2, break_on_hyphens=False)]


def sorted_items(value: Any) -> list[Any]:
    return sorted(value, key=str) if isinstance(value, (frozenset, set)) else list(value)


BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def toml_key(key: str) -> str:
    return key if BARE_KEY.fullmatch(key) else json.dumps(key, ensure_ascii=False)


class Blank:
    """The value of a key left out by default, to be written in its place: ``<a date>``."""

    WORDS = {str: "text", int: "an integer", float: "a number", bool: "true or false",
             dt.date: "a date", dt.datetime: "a date and time", Decimal: "an amount"}

    def __init__(self, tp: Any) -> None:
        rest = [a for a in typing.get_args(tp) if a is not type(None)] or [tp]
        self.text = f"<{self.WORDS.get(rest[0], 'a value')}>"


def toml_value(v: Any) -> str:
    """``v`` written as TOML (an inline table for a mapping or a table's object)."""
    if isinstance(v, Blank):
        return v.text
    if isinstance(v, Enum):
        return toml_value(v.value)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # a TOML basic string
    if isinstance(v, (dt.date, dt.datetime)):
        return v.isoformat()
    if isinstance(v, (int, float, Decimal)):
        return str(v)
    if isinstance(v, (tuple, list, frozenset, set)):
        return "[" + ", ".join(toml_value(x) for x in sorted_items(v)) + "]"
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        v = {f.name: getattr(v, f.name) for f in dataclasses.fields(v)
             if getattr(v, f.name) is not None}
    if isinstance(v, Mapping):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{toml_key(str(k.value if isinstance(k, Enum) else k))} = "
                                f"{toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"no TOML for {v!r}")


TABLE_NAME = re.compile(r"^`\[[^\]]*\]`( of event\.toml)?:\s*")
"""A table's docstring opens with its name (``[swiss]``: ...), which its header says."""
ROLE = re.compile(r":(?:class|func|data|mod|attr|meth):`~?([^`]+)`")


def first_sentence(doc: str) -> str:
    """A docstring's first sentence, on one line, its reST made plain."""
    text = ROLE.sub(lambda m: m.group(1).rsplit(".", 1)[-1], doc)
    text = " ".join(text.replace("``", "`").split())
    return re.split(r"(?<=\.)\s+(?=[A-Z])", text, maxsplit=1)[0]

"""``chessfed input-reference`` — the input reference an office works from (``inputs/README.md``):
every column of every input file of every kind of event and rules part and every key of
``event.toml``, its type, whether it is required, and every accepted value of the enumerated
ones with what it means, in the regulations' words.

It is generated from the code, so it never drifts, and from the registry
(:mod:`transforms.kinds`: each kind's and part's tables and input files; :mod:`flows.registry`:
what each kind is), so that a kind or part registered tomorrow is in it without a word here:
the columns from the schemas (each column's ``description`` and ``vocabulary``), the keys from
the configuration dataclasses (each field's docstring, each table's class docstring), and the
meaning of every code from its enum member's docstring. ``tests/cli/test_input_reference.py``
checks that the committed ``inputs/README.md`` is what this writes.

    chessfed input-reference [--out inputs/README.md]     (default: standard output)
"""

from __future__ import annotations

import argparse
import ast
import collections.abc
import dataclasses
import datetime as dt
import inspect
import re
import sys
import types
import typing
from decimal import Decimal
from enum import Enum
from pathlib import Path

from flows.io import atomic_write
from transforms import kinds
from transforms.core import config
from transforms.core.games import REFERENCE as GAMES_REFERENCE
from transforms.core.ingest import BOOLEANS, ColType, Column, Schema, Vocabulary
from transforms.core.pgn import GAMES
from transforms.fide.tiebreaks import REGISTRY, known_codes
from transforms.season.members import MEMBERS

COMMAND = "chessfed input-reference > inputs/README.md"


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register ``input-reference`` on the ``chessfed`` command line."""
    p = subparsers.add_parser("input-reference",
                              help="write the input reference (inputs/README.md) from the code")
    p.add_argument("--out", type=Path, default=None, help="file to write (default: stdout)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    text = input_reference()
    if args.out is None:
        sys.stdout.write(text)
    else:
        atomic_write(args.out, text)
    return 0


# ---------------------------------------------------------------------------------------------
# Docstrings of enum members and dataclass fields (attribute docstrings: read from the source)


def attribute_docs(cls: type) -> dict[str, str]:
    """The docstring under each attribute of ``cls`` (enum member or dataclass field)."""
    body = ast.parse(inspect.getsource(cls)).body[0]
    assert isinstance(body, ast.ClassDef)
    docs: dict[str, str] = {}
    for node, after in zip(body.body, body.body[1:]):
        target = None
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            target = node.targets[0].id
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            target = node.target.id
        if (target and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)):
            docs[target] = inspect.cleandoc(after.value.value)
    return docs


def member_meanings(enum: type[Enum]) -> dict[str, str]:
    """Code -> what it means (its member's docstring)."""
    docs = attribute_docs(enum)
    return {str(m.value): docs.get(m.name, "") for m in enum}


_ROLE = re.compile(r":(?:class|func|data|mod|attr|meth):`~?([^`]+)`")


def cell(text: str) -> str:
    """One table cell: a single line of Markdown (RST roles and double backquotes made plain)."""
    text = _ROLE.sub(lambda m: f"`{m.group(1).rsplit('.', 1)[-1]}`", text)
    text = " ".join(text.replace("``", "`").split())
    return text.replace("|", "\\|")


def code(value: object) -> str:
    return f"`{value}`"


def table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out + [""]


# ---------------------------------------------------------------------------------------------
# Input files


def vocabulary_rows(vocab: Vocabulary) -> list[tuple[str, ...]]:
    meanings = member_meanings(vocab.source) if vocab.source is not None else {}
    return [(code(c), ", ".join(code(w) for w in words) or "—", cell(meanings.get(c, "")))
            for c, words in vocab.terms]


def extra_column_rows(vocab: Vocabulary) -> list[tuple[str, ...]]:
    """The codes' rows with the vocabulary's own extra column (:attr:`Vocabulary.column`:
    e.g. the section a seed route seeds into) after the code."""
    extra = dict(vocab.column[1])
    return [(r[0], extra.get(r[0].strip("`"), "—"), *r[1:]) for r in vocabulary_rows(vocab)]


def column_type(c: Column) -> str:
    if c.vocabulary is not None:
        return "code (below)"
    if c.type is ColType.BOOL:
        return "boolean"
    return c.type.value


def file_section(schema: Schema, required_file: bool) -> list[str]:
    out = [f"### `{schema.file}` ({'required' if required_file else 'optional'})", ""]
    out += [cell(schema.description), ""]
    if schema.key:
        out += [f"Each row's {' + '.join(code(k) for k in schema.key)} is unique.", ""]
    rows = []
    for c in schema.columns:
        limits = []
        if c.minimum is not None:
            limits.append(f"≥ {c.minimum:g}")
        if c.maximum is not None:
            limits.append(f"≤ {c.maximum:g}")
        kind = column_type(c) + (f" ({', '.join(limits)})" if limits else "")
        rows.append((code(c.name), kind, "yes" if c.required else "no",
                     "yes" if c.nonempty else "no", cell(c.description)))
    out += table(("column", "type", "in the header", "a value in every row", "what it holds"),
                 rows)
    for c in schema.columns:
        if c.vocabulary is None:
            continue
        closed = c.vocabulary.note or (
            "A value outside these is rejected; the rejection lists them."
            if c.closed else "The event's configuration holds the closed set.")
        out += [f"`{schema.file}` `{c.name}` — {closed}", ""]
        if c.vocabulary.column[0]:
            out += table(("code", c.vocabulary.column[0], "other accepted wordings", "meaning"),
                         extra_column_rows(c.vocabulary))
        else:
            out += table(("code", "other accepted wordings", "meaning"),
                         vocabulary_rows(c.vocabulary))
    return out


def conventions() -> list[str]:
    bools_true = ", ".join(code(k) for k, v in BOOLEANS.items() if v)
    bools_false = ", ".join(code(k) for k, v in BOOLEANS.items() if not v)
    return [
        "## Conventions (every file)", "",
        "- One folder per event under this folder, holding `event.toml` and the CSV files of its "
        "kind. `chessfed run inputs` runs every folder that has an `event.toml`.",
        "- UTF-8 CSV with a header row (a byte-order mark and CRLF line ends are accepted; a "
        "UTF-16 file is read, with a warning: one with its byte-order mark, or without one when "
        "every other byte of its header is zero). A line that is not "
        "UTF-8 is reported and only its row is set aside. Columns may come in any order. A "
        "column not listed is a warning and its cells are not read; a required column "
        "missing from the header is an error and the file's rows are not used; a column whose "
        "\"in the header\" is *no* may be left out. A column named twice is a warning: the "
        "first is read, and a row whose two cells differ is set aside.",
        f"- Types: text (surrounding spaces are ignored in every cell); integer; number; "
        f"{ColType.MONEY.value} (`2000`, `2,000.50`; never rounded); {ColType.DATE.value}; "
        f"{ColType.DATETIME.value} (event local time); boolean: {bools_true} for yes and "
        f"{bools_false} for no, in any case. An empty cell is no value.",
        "- `fide_id` holds digits only (else a warning, read as no FIDE ID); `federation` three "
        "letters (else a warning); `nationality` an ISO 3166-1 alpha-3 code and `country` an "
        "ISO 3166-1 alpha-2 code, in any case (else an error naming the code meant, e.g. `USA` "
        "for `country`: did you mean `US`?).",
        "- Codes: an enumerated column holds one of the codes listed under it, or one of that "
        "code's other accepted wordings (the regulation's words, other programs' spellings), "
        "compared ignoring case, spaces and underscores (`Half-point bye`, `half-point bye` "
        "and `HALF-POINT  BYE` are all `HPB`; `no association` is `no_association`); the "
        "recognised wording is read as its code. A wording that two codes share would mean "
        "neither.",
        "- A cell is one line of text: each run of line breaks and tabs in it (CR, LF, VT, FF, "
        "U+0085, U+2028, U+2029, TAB) is read as one space, and the other control characters, "
        "the bidirectional formatting characters (U+200E, U+200F, U+061C, U+202A-U+202E, "
        "U+2066-U+2069) and a byte-order mark inside the text are removed, each with a warning "
        "showing the value with them written as `[U+2028]`; so are column names. The zero-width "
        "joiner and non-joiner (U+200D, U+200C) are kept.",
        "- Sizes: a file may have at most `[limits] file_bytes` bytes and `rows` rows (players.csv: "
        "`players_per_category` for each category), and a cell `cell_chars` characters "
        "(`event.toml` below).",
        "- Every bad cell is reported in `outputs/<event>/validation.csv` (and "
        "`validation.html`) with file, line, column, value and reason; a row with an error is "
        "set aside, never dropped silently.",
        "",
    ]


# ---------------------------------------------------------------------------------------------
# event.toml


_SCALARS = {str: "text", int: "integer", float: "number", bool: "`true` / `false`",
            Decimal: "amount", dt.date: "date (TOML `2024-09-02`)",
            dt.datetime: "datetime (TOML `2024-09-09T17:00:00`)"}


def type_name(tp: object) -> str:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        return " or ".join(type_name(a) for a in rest) + " (may be left out)"
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            if dataclasses.is_dataclass(args[0]):
                return "list of tables"
            return f"list of {type_name(args[0])}"
        return "[" + ", ".join(type_name(a) for a in args) + "]"
    if origin in (frozenset, set):
        return f"list of {type_name(args[0])}"
    if origin in (dict, typing.Mapping, collections.abc.Mapping):
        return f"table of {type_name(args[0])} → {type_name(args[1])}"
    if isinstance(tp, type) and issubclass(tp, Enum):
        return "one of " + ", ".join(code(f'"{m.value}"') for m in tp)
    if dataclasses.is_dataclass(tp):
        return "table"
    return _SCALARS.get(tp, str(tp))  # type: ignore[arg-type]


def toml_value(v: object) -> str:
    if isinstance(v, Enum):
        return f'"{v.value}"'
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, dt.datetime):
        return v.isoformat()
    if isinstance(v, (dt.date, int, float, Decimal)):
        return str(v)
    if isinstance(v, (frozenset, set)):
        return "[" + ", ".join(toml_value(x) for x in sorted(v, key=str)) + "]"
    if isinstance(v, (tuple, list)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, collections.abc.Mapping):
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }"
    return str(v)


def default_of(f: dataclasses.Field) -> object:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return dataclasses.MISSING


def config_table(title: str, cls: type, intro: str, notes: dict[str, str] | None = None) -> list[str]:
    docs = attribute_docs(cls)
    hints = typing.get_type_hints(cls)
    rows, long_defaults = [], []
    for f in dataclasses.fields(cls):
        d = default_of(f)
        if d is dataclasses.MISSING:
            default = "required"
        elif d is None:
            default = "—"
        else:
            text = toml_value(d)
            if len(text) > 60:
                long_defaults.append((f.name, text))
                default = "see below"
            else:
                default = code(text)
        meaning = docs.get(f.name, "")
        if notes and f.name in notes:
            meaning = f"{meaning} {notes[f.name]}".strip()
        rows.append((code(f.name), cell(type_name(hints[f.name])), default, cell(meaning)))
    out = [f"### `{title}`", "", cell(intro), ""]
    out += table(("key", "type", "default", "meaning"), rows)
    for name, text in long_defaults:
        out += [f"Default of `{name}`:", "", "```toml", f"{name} = {text}", "```", ""]
    return out


def enum_values(enum: type[Enum], what: str) -> list[str]:
    meanings = member_meanings(enum)
    return [what, ""] + table(("value", "meaning"),
                              [(code(f'"{m.value}"'), cell(meanings[str(m.value)])) for m in enum])


def tiebreak_codes() -> list[str]:
    codes = known_codes()
    modified = sorted({c.split("-")[0] for c in codes if "-" in c}, key=codes.index)
    rows = []
    for base, fn in REGISTRY.items():
        doc = " ".join((fn.__doc__ or "").split())
        first = re.split(r"\.\s+(?=[A-Z])", doc, maxsplit=1)[0].rstrip(".")
        rows.append((code(base), cell(first)))
    return [
        "`[swiss] tiebreaks` — the FIDE C.07 codes, in the order they break ties (any case; "
        "Vega's `/` for `-` accepted). " + ", ".join(code(b) for b in modified) + " also take "
        "a modifier: `-C1`, `-C2` (Cut-1, Cut-2: without the lowest one or two values) or "
        "`-M1`, `-M2` (Median-1, Median-2: without the highest and the lowest one or two), "
        "e.g. `BH-C1`.", "",
    ] + table(("code", "meaning"), rows)


def event_toml() -> list[str]:
    out = [
        "## `event.toml`", "",
        "Every value a regulation sets comes from here; the file is checked once, at load, and "
        "an error names the file and the full key (`entries.quota_per_category`). A key not "
        "listed is an error. Codes here are written exactly as listed.", "",
    ]
    out += config_table("[event]", config.EventInfo, "Every kind: the event itself.")
    out += enum_values(kinds.EventKind, "`[event] kind`:")
    out += config_table("[publish]", config.PublishConfig, "Every kind: who the messages go "
                        "from and to. `recipients` is a list of inline tables:")
    out += config_table("[publish] recipients", config.Recipient, "One address.")
    owners = registered_tables()
    shown: set[type] = set()
    for name, (cls, who) in owners.items():
        out += config_table(f"[{name}]", cls, f"{who}: {class_intro(cls)}",
                            notes=games_key_notes() if name == "games" else None)
        out += nested_tables(name, cls, shown)
    out += tiebreak_codes()
    out += config_table("[schedule]", config.ScheduleConfig,
                        "Every kind (optional): when `chessfed deploy` has the office's Prefect "
                        "server run the event.")
    out += config_table("[limits]", config.InputLimits,
                        "Every kind (optional): how large an input may be. A file past a limit is "
                        "an error in the validation report naming the file, the limit and its key, "
                        "and what depends on the file waits; raise the key for an event that "
                        "really is larger.")
    return out


def games_key_notes() -> dict[str, str]:
    """What the kinds that name their games otherwise add to ``[games] bulletin``
    (:attr:`transforms.kinds.KindSpec.games_keys`)."""
    said: dict[str, list[str]] = {}
    for spec in kinds.KINDS.values():
        if spec.games and spec.games_keys:
            said.setdefault(spec.games_keys, []).append(f"`{spec.kind.value}`")
    return {"bulletin": " ".join(f"In {' and '.join(who)} events: {text}" for text, who in said.items())} \
        if said else {}


def registered_tables() -> dict[str, tuple[type, str]]:
    """Every table a kind or a rules part registers (:mod:`transforms.kinds`), in the
    registry's order: its class and who has it ("`swiss` and `round_robin` events
    (optional)")."""
    uses: dict[str, list[tuple[type, str, bool]]] = {}
    for spec in kinds.KINDS.values():
        for name, t in spec.tables.items():
            uses.setdefault(name, []).append((t.cls, f"`{spec.kind.value}`", t.required))
    for part in kinds.PARTS.values():
        for name, t in part.tables.items():
            uses.setdefault(name, []).append((t.cls, f"the `{part.name}` rules", t.required))
    out = {}
    for name, found in uses.items():
        whose = " and ".join(dict.fromkeys(w for _, w, _ in found))
        needed = ("required" if all(r for *_, r in found) else
                  "optional" if not any(r for *_, r in found) else "required by some")
        out[name] = (found[0][0], f"Events of {whose} ({needed})")
    return out


def class_intro(cls: type) -> str:
    """A configuration class's docstring's first paragraph, without its ``[table]:`` lead."""
    first = (inspect.getdoc(cls) or "").split("\n\n")[0]
    return re.sub(r"^``\[[\w.]+\]``(?: of event\.toml)?:\s*", "", " ".join(first.split()))


def nested_tables(name: str, cls: type, shown: set[type]) -> list[str]:
    """What a table's keys hold that the reference lists apart: each list of tables
    (``[[swiss.categories]]``) and each enumerated key's values (once per enum)."""
    out: list[str] = []
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        tp = hints[f.name]
        args = [a for a in typing.get_args(tp) if a is not type(None)] or [tp]
        element = typing.get_args(tp)[0] if typing.get_origin(tp) is tuple and typing.get_args(tp) else None
        if element is not None and dataclasses.is_dataclass(element) and element not in shown:
            shown.add(element)
            out += config_table(f"[[{name}.{f.name}]]", element, class_intro(element))
        for a in args:
            if isinstance(a, type) and issubclass(a, Enum) and a not in shown:
                shown.add(a)
                out += enum_values(a, f"`[{name}] {f.name}`:")
    return out


# ---------------------------------------------------------------------------------------------


def input_reference() -> str:
    """The whole reference, as Markdown."""
    from flows.registry import FLOW_KINDS

    out = [
        "# Input reference", "",
        f"<!-- Generated by `{COMMAND}` from the code; do not edit by hand "
        "(tests/cli/test_input_reference.py checks that it is up to date). -->", "",
        "What an event folder holds: every file, every column, every `event.toml` key; for "
        "every column or key that takes codes, every accepted value and what it means in the "
        "regulation's words. The kinds of event (`[event] kind`):", "",
        *(f"- `{k.value}`: {fk.summary}." for k, fk in FLOW_KINDS.items()), "",
        "and the rules parts an event may choose (`[entries] rules`):", "",
        *(f"- `{p.name}`: {p.summary}." for p in kinds.PARTS.values()), "",
        "The demo events in this folder show each; `chessfed new KIND FOLDER` starts a folder "
        "of any kind: every input file with its header, and an event.toml with every key of "
        "the kind, commented.", "",
    ]
    out += conventions()
    out += input_files()
    out += event_toml()
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def input_files() -> list[str]:
    """Every input file of every kind (kinds that share their files together) and what each
    rules part replaces or adds, from the registry."""
    out: list[str] = []
    groups: dict[int, list[kinds.KindSpec]] = {}
    for spec in kinds.KINDS.values():
        groups.setdefault(id(spec.schemas), []).append(spec)
    for specs in groups.values():
        names = ", ".join(f'`kind = "{s.kind.value}"`' for s in specs)
        out += [f"## Input files ({names})", ""]
        if not specs[0].schemas:  # a series: its inputs are other events
            out += ["None of its own: the events its event.toml names (each read by its own "
                    "kind, or a TRF file in its folder) and the season's `members.csv` (below), "
                    "if there.", ""]
        for name, schema in specs[0].schemas.items():
            out += file_section(schema, name in specs[0].required)
        if specs[0].games:
            out += [f"### `{GAMES}*.pgn` (optional)", "",
                    *(specs[0].games_reference or GAMES_REFERENCE), ""]
    out += ["## The season (beside the event folders)", "",
            "Files of the inputs folder itself, shared by every event of the season: "
            "`chessfed season-check INPUTS` checks them and every event's players against "
            "them; a series (`kind = \"series\"`) recognises its members by them and reports "
            "lapsed memberships.", ""]
    out += file_section(MEMBERS, False)
    for part in kinds.PARTS.values():
        base = [s for s in kinds.KINDS.values() if part.name in s.parts]
        own = [n for n, sch in part.schemas.items()
               if any(b.schemas.get(n) is not sch for b in base)]
        out += [f'## What the `{part.name}` rules add (`[{kinds.CHOOSER}] rules = "{part.name}"`)',
                "", f"These files replace or add to those of a {' or '.join(f'`{b.kind.value}`' for b in base)} "
                "event; its other files are the kind's.", ""]
        for name in own:
            out += file_section(part.schemas[name], name in part.required)
    return out

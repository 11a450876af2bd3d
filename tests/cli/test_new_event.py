"""``chessfed new KIND FOLDER`` (Step 19, "every kind shows itself"): an event folder of every
kind the registry has — a commented event.toml that loads as it is, with every key of the
kind's tables (required ones holding a placeholder, the others commented out with their
default), and every input file of the kind with its header — refusing to overwrite anything.
Parametrized over the registry (transforms/kinds.py KINDS and PARTS), so that a kind or a part
registered tomorrow is tested here without a line more. (The same folders run through the
flows: tests/flows/test_new_event_runs.py.)"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import tomllib

import pytest

from flows.cli.main import main
from flows.cli.new import TO_COMPLETE, new_event
from transforms.core import config
from transforms.kinds import KINDS, PARTS, input_files, parse_event_config, part_of
from transforms.swiss.config import SwissConfig

DAY = dt.date(2026, 3, 14)
EVERY_KIND = [k.value for k in KINDS]
EVERY_PART = [pytest.param(k.kind.value, p, id=f"{k.kind.value}-{p}") for k in KINDS.values() for p in k.parts]
NOT_ALLOWED = [pytest.param(k.kind.value, p, id=f"{k.kind.value}-{p}") for k in KINDS.values()
               for p in PARTS if p not in k.parts]
HEADER = re.compile(r"^(# )?\[\[?([a-z_.]+)\]\]?(\s|$)")
KEY = re.compile(r"^(# )?([a-z_0-9]+) = ")


def tables_and_keys(text: str) -> dict[str, tuple[bool, set[str]]]:
    """Every table event.toml shows: name -> (written uncommented, the keys it shows)."""
    found: dict[str, tuple[bool, set[str]]] = {}
    current = ""
    for line in text.splitlines():
        if m := HEADER.match(line):
            current = m.group(2)
            present, _ = found.get(current, (False, set()))
            found[current] = (present or not m.group(1), found.get(current, (False, set()))[1])
        elif (m := KEY.match(line)) and current:
            found[current][1].add(m.group(2))
    return found


def uncommented_defaults(text: str) -> str:
    """event.toml with every commented key of its uncommented tables written in: the defaults
    the comments show (keys left out by default, ``<a date>``, and examples stay comments)."""
    out, present, inside, example = [], False, False, False
    for line in text.splitlines():
        if m := HEADER.match(line):
            present = not m.group(1)
        elif present and (inside or (KEY.match(line) and line.startswith("# ")
                                     and " = <" not in line and "example" not in line
                                     and not example)):
            inside = line.endswith("= [") or (inside and line != "# ]")
            line = line[2:]
        # a long example's comment is on the lines above it
        example = "this is an example" in line or (example and not KEY.match(line))
        out.append(line)
    return "\n".join(out)


@pytest.mark.parametrize("kind", EVERY_KIND)
def test_new_starts_a_folder_of_every_registered_kind_whose_event_toml_loads_as_it_is(kind, tmp_path, capsys):
    folder = tmp_path / f"club-{kind}-2026"
    assert main(["new", kind, str(folder)]) == 0
    cfg = parse_event_config((folder / "event.toml").read_text(encoding="utf-8"))
    name = " ".join(w.capitalize() for w in re.split(r"[-_]", folder.name))
    assert (cfg.event.kind, cfg.event.id, cfg.event.name) == (kind, folder.name, name)
    said = capsys.readouterr().out
    assert str(folder / "event.toml") in said and TO_COMPLETE in said and "event.venue" in said


@pytest.mark.parametrize("kind", EVERY_KIND)
def test_new_writes_every_input_file_of_the_kind_with_its_schemas_header_and_no_row(kind, tmp_path):
    folder = tmp_path / "new"
    new_event(kind, folder, today=DAY)
    spec = KINDS[kind]
    assert sorted(p.name for p in folder.iterdir()) == sorted(["event.toml", *spec.schemas])
    for name, schema in spec.schemas.items():
        assert (folder / name).read_text(encoding="utf-8") == \
            ",".join(c.name for c in schema.columns) + "\n", name


@pytest.mark.parametrize("kind", EVERY_KIND)
def test_event_toml_shows_every_key_of_every_table_of_the_kind(kind, tmp_path):
    """Required tables written, optional ones commented out; every key of each, required keys
    holding a placeholder the loader takes (marked to complete), the others commented."""
    started = new_event(kind, tmp_path / "new", today=DAY)
    text = (tmp_path / "new" / "event.toml").read_text(encoding="utf-8")
    shown = tables_and_keys(text)
    spec = KINDS[kind]
    common = {"event": (config.EventInfo, True), "publish": (config.PublishConfig, True),
              "schedule": (config.ScheduleConfig, False), "limits": (config.InputLimits, False)}
    tables = {**common, **{n: (t.cls, t.required) for n, t in spec.tables.items()}}
    for name, (cls, required) in tables.items():
        present, keys = shown[name]
        assert present == required, name
        expected = {f.name for f in dataclasses.fields(cls)}
        if name == "limits" and not spec.players_per_category:  # not a key of this kind
            expected.discard("players_per_category")
        subtables = {k.split(".", 1)[1] for k in shown if k.startswith(name + ".")}
        assert keys | subtables == expected, name
    written = tomllib.loads(text)
    assert text.count(f"# {TO_COMPLETE}: ") == len(started.placeholders) > 0
    for key in started.placeholders:
        table, name = key.split(".")
        assert name in written[table], key


@pytest.mark.parametrize("kind", EVERY_KIND)
def test_the_commented_keys_are_the_defaults(kind, tmp_path):
    """Writing every commented key of the written tables in changes nothing the loader reads."""
    new_event(kind, tmp_path / "new", today=DAY)
    text = (tmp_path / "new" / "event.toml").read_text(encoding="utf-8")
    filled = uncommented_defaults(text)
    assert filled.count("\n# ") < text.count("\n# ")
    assert parse_event_config(filled) == parse_event_config(text)


@pytest.mark.parametrize(("kind", "part"), EVERY_PART)
def test_rules_adds_the_parts_tables_and_files(kind, part, tmp_path, capsys):
    folder = tmp_path / "junior"
    assert main(["new", kind, str(folder), "--rules", part]) == 0
    text = (folder / "event.toml").read_text(encoding="utf-8")
    cfg = parse_event_config(text)
    assert part_of(cfg) is PARTS[part]
    schemas, _ = input_files(cfg)
    assert sorted(p.name for p in folder.iterdir()) == sorted(["event.toml", *schemas])
    assert set(PARTS[part].schemas) <= set(schemas)
    shown = tables_and_keys(text)
    for name, table in PARTS[part].tables.items():
        assert shown[name][0] == table.required
        assert {f.name for f in dataclasses.fields(table.cls)} <= shown[name][1] | {
            k.split(".", 1)[1] for k in shown if k.startswith(name + ".")}
    assert parse_event_config(uncommented_defaults(text)) == cfg


def test_the_national_juniors_rules_get_the_categories_its_defaults_name(tmp_path):
    """The part's [entries] categories default to open and girls: the Swiss gets both, so that
    the file loads untouched."""
    new_event("swiss", tmp_path / "nj", rules="national-junior-2024", today=DAY)
    cfg = parse_event_config((tmp_path / "nj" / "event.toml").read_text(encoding="utf-8"))
    assert [(c.id, c.name) for c in cfg.require(SwissConfig).categories] == [("open", "Open"), ("girls", "Girls")]
    assert (tmp_path / "nj" / "associations.csv").read_text().startswith("state,name,")


@pytest.mark.parametrize(("kind", "part"), NOT_ALLOWED)
def test_a_rules_part_the_kind_does_not_allow_is_refused_and_nothing_written(kind, part, tmp_path, capsys):
    assert main(["new", kind, str(tmp_path / "x"), "--rules", part]) == 2
    assert f"{part!r} is not a rules part of a {kind} event" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("kind", EVERY_KIND)
def test_an_existing_event_toml_is_never_overwritten(kind, tmp_path, capsys):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "event.toml").write_text("# the office's own\n")
    assert main(["new", kind, str(folder)]) == 2
    err = capsys.readouterr().err
    assert str(folder / "event.toml") in err and "nothing written" in err
    assert [p.name for p in folder.iterdir()] == ["event.toml"]
    assert (folder / "event.toml").read_text() == "# the office's own\n"


def test_a_non_empty_input_file_is_never_overwritten_an_empty_one_gets_its_header(tmp_path, capsys):
    kind = EVERY_KIND[0]
    first, second, *_ = list(KINDS[kind].schemas)
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / first).write_text("kept\n")
    assert main(["new", kind, str(folder)]) == 2
    err = capsys.readouterr().err
    assert str(folder / first) in err and "event.toml" not in err.split("already there")[1].split(";")[0]
    assert sorted(p.name for p in folder.iterdir()) == [first]
    (folder / first).unlink()
    (folder / second).write_text("")
    assert main(["new", kind, str(folder)]) == 0
    assert (folder / second).read_text().count("\n") == 1


def test_an_unknown_kind_is_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        main(["new", "blitz-arena", str(tmp_path / "x")])
    assert e.value.code == 2 and "invalid choice: 'blitz-arena'" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_the_placeholders_are_marked_and_the_start_is_the_day_it_was_made(tmp_path):
    kind = EVERY_KIND[0]
    started = new_event(kind, tmp_path / "club-open-2026", today=DAY)
    cfg = parse_event_config((tmp_path / "club-open-2026" / "event.toml").read_text())
    assert (cfg.event.start, cfg.event.end, cfg.event.name) == (DAY, DAY, "Club Open 2026")
    assert {"event.venue", "event.organiser", "event.contact", "publish.sender"} <= set(started.placeholders)
    assert cfg.event.venue == "to be completed"


def test_help_lists_every_kind_and_part(capsys):
    with pytest.raises(SystemExit):
        main(["new", "--help"])
    said = capsys.readouterr().out
    assert all(k in said for k in EVERY_KIND) and all(p in said for p in PARTS)


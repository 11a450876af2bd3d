"""Every input bounded, every character of a cell accounted for — through the real flow
(``flows.pipeline.events.run_events``, what ``chessfed run`` runs) (issue "Step 18").

A whole rating list exported as players.csv (200,000 rows) once paired 200,000 players until
the matching graph ran out of memory: three tracebacks and a console line ``failed:`` with no
reason. Now reading stops past ``[limits] players_per_category`` rows, the event is published
in part (its validation report and a home saying what waits), the console line names the file
and the limit, and nothing is raised. A U+2028 in a player's name once left that player
without letters (an email header refuses it), silently; now the name is read with a space and
a warning row. The reader and the rules themselves: tests/rulebook/test_input_cells.py.
"""

from __future__ import annotations

import csv
import email
import email.policy
import time
from pathlib import Path

import flows.kinds.swiss.flow as swiss_flow
from flows.pipeline.run_index import outcome
from tests.conftest import event_table

TOML = event_table("{id}", "Limits Open {id}") + """[publish]
sender = "results@x.example"
recipients = [{{ name = "Arbiter", email = "arb@x.example", role = "office" }}]
[swiss]
rounds = 5
categories = [{{ id = "open", name = "Open" }}]
"""
HEADER = "player_id,name,section,sex,birth_date,federation,fide_id,rating,title,email"
FOUR = ["Ann Lee", "Bob Roy", "Cy Dee", "Di Fox"]


def event(inputs: Path, name: str, *, limits: str = "", names: list[str] = FOUR,
          players: int = 0) -> Path:
    """A plain Swiss event folder: ``names`` as its players (or ``players`` generated ones)."""
    folder = inputs / name
    folder.mkdir(parents=True)
    (folder / "event.toml").write_text(TOML.format(id=name) + (f"[limits]\n{limits}\n" if limits else ""))
    if players:
        rows = (f"P{i:06d},Player {i},open,M,2007-01-01,IND,{25000000 + i},{2500 - i % 900},,"
                f"p{i}@x.example" for i in range(1, players + 1))
    else:
        rows = (f'P{i},"{n}",open,M,2007-01-01,IND,{25000001 + i},{2000 - 10 * i},,p{i}@x.example'
                for i, n in enumerate(names, start=1))
    with open(folder / "players.csv", "w", encoding="utf-8", newline="") as fh:
        fh.write(HEADER + "\n")
        fh.writelines(r + "\n" for r in rows)
    return folder


def validation_rows(out: Path, name: str) -> list[dict[str, str]]:
    with open(out / name / "office" / "validation.csv", encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_a_200000_row_players_csv_and_every_lowered_limit_are_refused_naming_file_and_limit(
        tmp_path, prefect_harness, capfd):
    """One run of seven events: the 200,000-row players.csv, each limit lowered below a small
    event (refused: the console line names players.csv and the limit's key and value) and
    raised back (published); a cell past ``cell_chars`` sets only its row aside. Nothing is
    raised and no traceback reaches stderr. (The time is measured, not asserted: see the
    issue's report.)"""
    from flows.pipeline.events import run_events

    inputs, out = tmp_path / "inputs", tmp_path / "outputs"
    event(inputs, "players-200k", players=200_000)
    event(inputs, "per-category-low", limits="players_per_category = 3")
    event(inputs, "per-category-raised", limits="players_per_category = 4")
    event(inputs, "rows-low", limits="rows = 3")
    event(inputs, "bytes-low", limits="file_bytes = 200")
    event(inputs, "cells-low", limits="cell_chars = 20",
          names=[*FOUR[:3], "Di Fox-Featherstonehaugh"])
    capfd.readouterr()
    started = time.perf_counter()
    status = run_events(inputs, out)
    took = time.perf_counter() - started
    err = capfd.readouterr().err
    print(f"run of the seven events: {took:.1f} s")
    assert set(status.values()) == {"ok"}, status
    assert "Traceback" not in err and "MemoryError" not in err

    refused = {
        "players-200k": ("limits.players_per_category", "more than 5,000 rows",
                         "more than its one category holds at [limits] players_per_category = 5,000"),
        "per-category-low": ("limits.players_per_category", "more than 3 rows",
                             "[limits] players_per_category = 3"),
        "rows-low": ("limits.rows", "more than 3 rows", "[limits] rows = 3"),
        "bytes-low": ("limits.file_bytes", None, "more than [limits] file_bytes = 200"),
    }
    for name, (key, value, limit) in refused.items():
        line = outcome(out, name, status[name]).line
        assert line.startswith(f"{name}: published in part — players.csv: the file ")
        assert limit in line and f"raise {key.removeprefix('limits.')} in event.toml" in line
        [row] = validation_rows(out, name)
        assert (row["file"], row["line"], row["column"], row["severity"]) == (
            "players.csv", "", key, "error")
        assert value is None or row["value"] == value
        assert limit in row["reason"]
        assert not (out / name / "players" / "open").exists() or name == "players-200k"
    assert validation_rows(out, "bytes-low")[0]["value"].endswith(" bytes")

    raised = outcome(out, "per-category-raised", status["per-category-raised"]).line
    assert raised == "per-category-raised: published"
    assert validation_rows(out, "per-category-raised") == []
    cells = outcome(out, "cells-low", status["cells-low"]).line
    assert cells.startswith("cells-low: published; 1 input row rejected")
    [row] = validation_rows(out, "cells-low")
    assert (row["line"], row["column"], row["value"], row["severity"]) == (
        "5", "name", "Di Fox-Featherstonehaugh (24 characters)", "error")
    assert "more than [limits] cell_chars = 20" in row["reason"]


def test_a_name_with_a_line_separator_gets_its_letter_and_a_warning_row(tmp_path, prefect_harness,
                                                                          capfd):
    """``Ann<U+2028>Lee``: read as ``Ann Lee`` (her letter is made, To: Ann Lee), with one
    warning row in office/validation.csv naming players.csv, line 2, ``name`` and the value
    with the separator written visibly. The bidi override in Bob's name is removed the same
    way: his letter's name reads in order."""
    from flows.pipeline.events import run_events

    inputs, out = tmp_path / "inputs", tmp_path / "outputs"
    event(inputs, "separator", names=["Ann\u2028Lee", "Bob \u202eyoR", *FOUR[2:]])
    capfd.readouterr()
    status = run_events(inputs, out)
    assert status == {"separator": "ok"} and "Traceback" not in capfd.readouterr().err
    letters = {}
    for path in sorted((out / "separator" / "outbox").glob("player-*.eml")):
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        letters[msg["To"].addresses[0].addr_spec] = msg["To"].addresses[0].display_name
    assert letters["p1@x.example"] == "Ann Lee" and letters["p2@x.example"] == "Bob yoR"
    rows = validation_rows(out, "separator")
    assert [(r["file"], r["line"], r["column"], r["value"], r["severity"]) for r in rows] == [
        ("players.csv", "2", "name", "Ann[U+2028]Lee", "warning"),
        ("players.csv", "3", "name", "Bob [U+202E]yoR", "warning")]
    assert "U+2028 LINE SEPARATOR as a space" in rows[0]["reason"]
    line = outcome(out, "separator", status["separator"]).line
    assert line == "separator: published"  # a warning rejects nothing


def test_an_event_out_of_memory_fails_with_a_reason_naming_the_event_and_the_step(
        tmp_path, prefect_harness, capfd, monkeypatch):
    """A MemoryError (here raised by the validation step) is the event's status with a reason,
    never an empty one: what, which event, which step; run_event prints no traceback of it."""
    from flows.pipeline.events import run_events, statuses

    def out_of_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(swiss_flow, "validate", out_of_memory)
    inputs, out = tmp_path / "inputs", tmp_path / "outputs"
    event(inputs, "starved")
    capfd.readouterr()
    status = statuses(run_events(inputs, out, return_state=True))
    assert status["starved"].startswith(
        "error: MemoryError (out of memory) while running event starved, in its step 'validate': ")
    assert "in run_event" not in capfd.readouterr().err  # (Prefect logs its flow's failure)
    assert outcome(out, "starved", status["starved"]).line.startswith(
        "starved: failed: MemoryError (out of memory) while running event starved")

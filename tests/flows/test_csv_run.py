"""Formula payloads through a whole run (OWASP "CSV Injection"): a Swiss event whose players'
names, ids, emails, states and seed reasons, and its associations' codes, names and emails,
are formulas (``tests/data/hostile/formulas.txt``), run by the real flow with results, so
that it writes pairings, the pairing audit, standings, prizes, entries, the rating report's
check, rating changes, validation and the delivery ledger as CSV (a Swiss crosstable is a page
and a PDF; the Golden Knights' CSVs go through the same ``csv_text``). Every cell of every CSV under the output folder is
read back with Python's csv module: none could start a formula (:func:`flows.io.neutral_cell`
marked it with an apostrophe) unless it is a plain number, and each payload is found marked.

The event: 8 accepted players (start numbers by rating), its 3 rounds played (so that it
has prizes; the rating report and the rating changes of ``[fide_report]``)::

    round 1: 1-5 1-0, 2-6 0-1, 3-7 1-0, 4-8 0-1
    round 2: 1-3 1-0, 6-4 ½-½, 7-5 0-1, 8-2 1-0
    round 3: 1-6 1-0, 5-2 0-1, 3-8 ½-½, 7-4 1-0
"""

from __future__ import annotations

import csv
import json
import re
import socket
from pathlib import Path

from flows.io import FORMULA_START, PLAIN_NUMBER, neutral_cell
from flows.mail.outbox import LEDGER, read_ledger
from tests.conftest import event_table

ROOT = Path(__file__).resolve().parents[2]
FORMULAS = ROOT / "tests" / "data" / "hostile" / "formulas.txt"


def payloads() -> list[str]:
    """The payloads of ``formulas.txt``, their escapes decoded."""
    lines = FORMULAS.read_text(encoding="ascii").splitlines()
    return [line.encode("ascii").decode("unicode_escape") for line in lines
            if line and not line.startswith("#")]


PAYLOADS = payloads()
ONE_LINE = [p for p in PAYLOADS if not re.search(r"[\t\r\n]", p) and p == p.strip()]
"""Payloads an input cell keeps as they are (the reader cleans a tab or line break out of a
value, with a warning, and trims cells): the names of the players who play. Every payload
is also in the cells of players who are set aside, so that it reaches the office's CSVs."""
INPUT_COPIES = "office/published-inputs/"
"""The copy of the event's input files that a run keeps with its outputs and a later, held run
reads back as its inputs (:mod:`flows.pipeline.last_good`): the office's own files, byte for
byte (checked), named ``.txt`` so that they open in a text editor (``last_good.KEPT``): no
``.csv`` file there."""
NEUTRAL = {neutral_cell(p): p for p in PAYLOADS}
"""Each payload as a CSV of the run must write it (every one of them is marked)."""
HEADER = ["player_id", "name", "section", "gender", "birth_date", "nationality", "state",
          "fide_id", "rating", "title", "entry_type", "seed_reason", "registered_at",
          "fee_paid", "aicf_registered", "email"]
STATE = "@SUM(1+1)*cmd|' /C calc'!A0"
"""An association's code, a payload (the other association is TN)."""
IDS = ["=1+1", "-2+3+cmd|' /C calc'!A0", "O003", "\uff0b1", "O005", "+ 2", "O007", "-"]
"""The ids of the eight players who play, by start number (rating order)."""


def closed_port() -> int:
    """A port of this machine nobody listens on (bound, then let go): the event's SMTP server
    refuses the connection, so the run records its letters ``pending`` in the delivery ledger
    (a CSV whose recipients and subjects come from the inputs) without any server."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def event_toml(port: int) -> str:
    office = json.dumps(PAYLOADS[0])  # a TOML basic string is written as a JSON one
    return event_table("formulas", "Formula Open", as_of="2024-09-18") + f"""[publish]
sender = "results@x.example"
recipients = [{{ name = {office}, email = "arb@x.example", role = "office" }}]
smtp_host = "127.0.0.1"
smtp_port = {port}
smtp_retries = 1
smtp_timeout = 5
[swiss]
rounds = 3
tiebreaks = ["BH-C1", "BH", "SB", "DE", "WIN", "BWG"]
categories = [{{ id = "open", name = "Open", prizes = [1000, 500, 250] }}]
[fide_report]
city = "Hall"
federation = "IND"
chief_arbiter = {office}
round_dates = [2024-09-16, 2024-09-17, 2024-09-18]
[entries]
rules = "national-junior-2024"
categories = ["open"]
female_only_categories = []
host_state = "TN"
seed_routes = {{ nj2023_top4_open = ["open"] }}
seed_titles = {{}}
girls_seed_routes = []
[entries.medal_bonus]
open = {{}}
"""


def write_event(folder: Path) -> list[str]:
    """The event's input files (see the module's docstring); returns the players' addresses."""
    folder.mkdir(parents=True)
    (folder / "event.toml").write_text(event_toml(closed_port()), encoding="utf-8")
    rows = []
    for i, pid in enumerate(IDS):
        name = ONE_LINE[i % len(ONE_LINE)]
        local = re.sub(r"[^A-Za-z0-9=+'|!*/-]", "", ONE_LINE[(i + 3) % len(ONE_LINE)])  # ASCII atext
        rows.append([pid, name, "open", "M", "2007-01-01", "IND", STATE if i % 2 else "TN",
                     25000001 + i, 2000 - 10 * i, "", "quota", "", "2024-08-01T10:00", "2000",
                     "true", f"{local or 'x'}{i}@x.example"])
    for j, p in enumerate(PAYLOADS):  # set aside or rejected: their cells reach the office's CSVs
        rows.append([f"R{j:02d}", p, "open", "M", p, "IND", p, p, p, "", "seeded", p,
                     "2024-08-01T10:00", "2000", "true", ""])
    with open(folder / "players.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n", quoting=csv.QUOTE_ALL)  # a CR in a cell, quoted
        w.writerow(HEADER)
        w.writerows(rows)
    with open(folder / "associations.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["state", "name", "arrears_cleared", "email"])
        w.writerow(["TN", PAYLOADS[1], "true", "tn@x.example"])
        w.writerow([STATE, PAYLOADS[0], "true", "=cmd@x.example"])
    games = [(1, 1, 1, 5, "1-0"), (1, 2, 2, 6, "0-1"), (1, 3, 3, 7, "1-0"), (1, 4, 4, 8, "0-1"),
             (2, 1, 1, 3, "1-0"), (2, 2, 6, 4, "1/2-1/2"), (2, 3, 7, 5, "0-1"), (2, 4, 8, 2, "1-0"),
             (3, 1, 1, 6, "1-0"), (3, 2, 5, 2, "0-1"), (3, 3, 3, 8, "1/2-1/2"), (3, 4, 7, 4, "1-0")]
    with open(folder / "results.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["round", "board", "white_id", "black_id", "result"])
        w.writerows([r, b, IDS[white - 1], IDS[black - 1], res] for r, b, white, black, res in games)
    return [r[-1] for r in rows if r[-1]]


def formula_like(cell: str) -> bool:
    """A cell a spreadsheet could take for a formula: a trigger first (after white space),
    and not a plain number."""
    return bool(re.match(FORMULA_START.replace("^'*", "^"), cell)) \
        and not re.fullmatch(PLAIN_NUMBER, cell)


def test_no_csv_of_a_run_on_formula_inputs_holds_a_formula(tmp_path, prefect_harness):
    from flows.pipeline.events import run_events

    inputs, out = tmp_path / "inputs", tmp_path / "outputs"
    addresses = write_event(inputs / "formulas")
    run_events(inputs, out)  # its letters stay pending (no server): not "ok"
    event = out / "formulas"
    files = sorted(event.rglob("*.csv"))
    names = {p.relative_to(event).as_posix() for p in files}
    assert {"pairings/round-01.csv", "pairings/round-03.csv", "pairings/audit.csv",
            "standings/round-03.csv", "prizes.csv", "office/validation.csv",
            "office/entries/decisions.csv", "office/entries/entry-list.csv",
            "office/entries/by-category-state.csv", "office/entries/ledger.csv",
            "office/fide/rating-report-open-check.csv", "office/fide/rating-change-open.csv",
            "outbox/ledger.csv"} <= names, sorted(names)
    assert not [p for p in files if p.relative_to(event).as_posix().startswith(INPUT_COPIES)]
    copies = sorted((event / INPUT_COPIES).iterdir())
    assert {p.name for p in copies} == {"event.toml.txt", "players.csv.txt", "results.csv.txt",
                                        "associations.csv.txt"}
    for p in copies:  # the event's own files, byte for byte, named to open as text
        assert p.read_bytes() == (inputs / "formulas" / p.name.removesuffix(".txt")).read_bytes()
    marked: dict[str, int] = {}
    cells = 0
    files = [p for p in files if p not in copies]  # (none: the copies are .txt)
    for path in files:
        with open(path, newline="", encoding="utf-8") as fh:
            for row in csv.reader(fh):
                for cell in row:
                    cells += 1
                    assert not formula_like(cell), (path.relative_to(event), cell)
                    if cell in NEUTRAL:
                        marked[NEUTRAL[cell]] = marked.get(NEUTRAL[cell], 0) + 1
                    else:
                        assert cell not in PAYLOADS, (path.relative_to(event), cell)
    assert [p for p in ONE_LINE if p not in marked] == []  # (the validation report may show
    # a tab or line break spelled out: those payloads need only be harmless where they are)
    formulas = {a for a in addresses if neutral_cell(a) != a}
    assert len(formulas) >= 3
    recipients = {r["recipient"] for r in read_ledger(event / LEDGER).values()}
    assert formulas <= recipients  # read back as they were, without the mark
    print(f"{len(files)} CSV files, {cells} cells, {sum(marked.values())} payload cells marked")

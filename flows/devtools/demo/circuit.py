"""Deterministic demo inputs of the Riverside Rapid Circuit 2026 (``inputs/riverside-rapid-
circuit-2026/``): a series over the club's monthly rapids (issue 47) — January and February
run by another program (their TRF files, in the series' folder, ``events/``), March and April
run by chessfed (sibling event folders), May and June still to come. Points by place with a
participation bonus, the best four events count, an under-1600 and a women's standings.

Invented people: one pool of club members (names from the club demo's lists, a seeded
``random.Random``), each month a draw of them; their member ids are in the chessfed events'
players.csv, the TRFs carry names and FIDE ids only, one member's name is typed "Given Surname"
in April and one member has no id there (recognised by name and federation). The results are
played by :func:`flows.devtools.simulate.simulate`."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import polars as pl

from flows import io
from flows.devtools.demo.club import invented_name
from flows.devtools.simulate import simulate
from transforms.fide.trf import write_trf
from transforms.kinds import parse_event_config
from transforms.swiss.event import run_swiss

SERIES = "riverside-rapid-circuit-2026"
MONTHS = (("01", "January", 2026, 1, 13), ("02", "February", 2026, 2, 10),
          ("03", "March", 2026, 3, 10), ("04", "April", 2026, 4, 14))
"""(month, its name, year, month number, the day of the rapid): the months played."""
TRF_MONTHS = ("01", "02")
"""The months another program ran (TRF files in the series' folder)."""
COLUMNS = ["player_id", "member_id", "name", "rating", "fide_id", "federation", "sex", "club",
           "email"]

EVENT_TOML = """# Riverside Rapid {month_name} 2026: one of the club's monthly rapids, a plain FIDE Swiss of five
# rounds in one evening. An invented club and people (flows/devtools/demo/circuit.py): every
# value below is a demo assumption. It feeds the Riverside Rapid Circuit 2026 (a series).

[event]
id = "riverside-rapid-2026-{month}"
name = "Riverside Rapid {month_name} 2026"
code = "RCC-RAPID-2026-{month}"
kind = "swiss"
start = {date}
end = {date}
venue = "Riverside Community Centre, 12 Mill Lane, Riverton"
organiser = "Riverside Chess Club"
currency = "EUR"
contact = "Riverside Chess Club, tournament director"
as_of = {date}

[publish]
sender = "Riverside Chess Club <results@riverside-chess.example>"
subject_prefix = "[Rapid {month_name}] "
site_url = "https://results.example.org/riverside-rapid-2026-{month}/"
recipients = [
  {{ name = "Chief Arbiter", email = "arbiter@riverside-chess.example", role = "office" }},
]

[swiss]
rounds = 5
initial_colour = "white"
tiebreaks = ["BH-C1", "BH", "SB"]
simulation_seed = {seed}

[[swiss.categories]]
id = "rapid"
name = "Open"
"""


def pool(seed: int = 2026, n: int = 26) -> list[dict[str, str]]:
    """The club's members who play rapids: member id, name, rating, FIDE id (two in three),
    sex, email."""
    rng = random.Random(seed)
    used: set[str] = set()
    fide = iter(range(2_310_011, 99_999_999, 6_007))
    out = []
    for i in range(n):
        woman = rng.random() < 0.25
        first, name = invented_name(rng, woman, used)
        rating = max(1150, min(2150, int(rng.gauss(1620, 260))))
        out.append({"member_id": f"RCC-{101 + i}", "name": name,
                    "rating": str(rating) if i % 7 else "",
                    "fide_id": str(next(fide)) if i % 3 and i % 7 else "", "federation": "BEL",
                    "sex": "F" if woman else "M", "club": "Riverside CC",
                    "email": f"{first.lower()}.rcc{101 + i}@players.example"})
    return out


def month_players(members: list[dict[str, str]], month: str, seed: int) -> pl.DataFrame:
    """The month's players.csv: a draw of 12-16 members (member ids in the chessfed months);
    April's has one name typed "Given Surname" and one player without ids."""
    rng = random.Random(f"{seed}/{month}")
    chosen = sorted(rng.sample(range(len(members)), rng.randint(12, 16)))
    rows = []
    for k, i in enumerate(chosen):
        m = dict(members[i])
        if month == "04" and k == 1:  # typed the other way round, as on a club's entry form
            surname, given = m["name"].split(", ")
            m["name"] = f"{given} {surname}"
        if month == "04" and k == 2:  # entered without ids: recognised by name and federation
            m["member_id"], m["fide_id"] = "", ""
        rows.append({"player_id": f"R{month}-{k + 1:02d}", **{c: m[c] for c in COLUMNS[1:]}})
    return pl.DataFrame(rows, schema={c: pl.String for c in COLUMNS})


REGISTRY_COLUMNS = ["member_id", "name", "fide_id", "birth_date", "sex", "club", "region",
                    "valid_from", "valid_to", "email"]


def registry(members: list[dict[str, str]], seed: int) -> pl.DataFrame:
    """The season's members.csv: the club's members with invented birth dates, a year's
    membership each — but one renamed since she last played (the registry has her new name) and
    one whose membership ended in February."""
    rng = random.Random(f"{seed}/registry")
    rows = []
    for i, m in enumerate(members):
        name = m["name"]
        if i == 24:  # married since: the registry has her new name, the events her old one
            name = "Claes, " + name.split(", ")[1]
        rows.append({"member_id": m["member_id"], "name": name, "fide_id": m["fide_id"],
                     "birth_date": f"{rng.randint(1950, 2012)}-{rng.randint(1, 12):02d}-"
                                   f"{rng.randint(1, 28):02d}",
                     "sex": m["sex"], "club": m["club"], "region": "Riverton",
                     "valid_from": "2026-01-01",
                     "valid_to": "2026-02-28" if i == 6 else "2026-12-31", "email": m["email"]})
    return pl.DataFrame(rows, schema={c: pl.String for c in REGISTRY_COLUMNS})


def write_circuit_inputs(folder: Path, seed: int = 2026) -> list[Path]:
    """Every file of the circuit's demo: the season's members.csv, the March and April event
    folders (event.toml, players.csv, results.csv) and January's and February's TRF files in the
    series' folder (the series' own event.toml is committed as written by hand)."""
    members = pool(seed)
    written = [io.atomic_write(folder / "members.csv", registry(members, seed).write_csv())]
    for month, name, year, number, day in MONTHS:
        date = f"{year}-{number:02d}-{day:02d}"
        text = EVENT_TOML.format(month=month, month_name=name, date=date, seed=seed + number)
        players = month_players(members, month, seed)
        if month in TRF_MONTHS:  # played elsewhere: only its TRF comes to the office
            with tempfile.TemporaryDirectory() as tmp:
                event = Path(tmp) / "event"
                event.mkdir()
                (event / "event.toml").write_text(text, encoding="utf-8")
                (event / "players.csv").write_text(
                    players.drop("member_id").write_csv(), encoding="utf-8")
                simulate(event)
                trf = month_trf(event)
            path = folder / SERIES / "events" / f"riverside-rapid-2026-{month}.trf"
            written.append(io.atomic_write(path, trf))
            continue
        event = folder / f"riverside-rapid-2026-{month}"
        written.append(io.atomic_write(event / "event.toml", text))
        written.append(io.atomic_write(event / "players.csv", players.write_csv()))
        (event / "results.csv").unlink(missing_ok=True)
        simulate(event)
        written.append(event / "results.csv")
    return written


def month_trf(event: Path) -> str:
    """The month's TRF as its program exports it (the public TRF of chessfed's own run: places,
    points, every round)."""
    cfg = parse_event_config((event / "event.toml").read_text(encoding="utf-8"))
    raw = {n: io.read_csv_strings(event / n) for n in cfg.files if (event / n).exists()}
    assert cfg.event.as_of is not None
    run = run_swiss(cfg, raw, cfg.event.as_of)
    c = run.categories[0]
    assert c.public_trf is not None, run.blocked
    return write_trf(c.public_trf)

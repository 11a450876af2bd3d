"""Writes the committed demo inputs (deterministic: same files every time)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl

from flows import io
from flows.devtools.demo.golden_knights import demo_files
from flows.devtools.demo.national_junior import demo_national_junior_files
from flows.devtools.simulate import simulate
from transforms.kinds import parse_event_config

if TYPE_CHECKING:
    from transforms.fide.trf import Tournament

DEMO_NO_SHOWS = frozenset({("open", 4)})
"""The demo's one scripted event: a no-show in round 4 of the Open (a forfeit win for White on
the first board still to be played), so that the demo shows a forfeit in the standings, the
crosstable, the TRF and the tie-breaks."""


def write_demo_inputs(folder: Path) -> list[Path]:
    nj = folder / "national-junior-2024"
    players, associations, withdrawals, byes = demo_national_junior_files()
    written = [
        io.atomic_write(nj / "players.csv", players.write_csv()),
        io.atomic_write(nj / "associations.csv", associations.write_csv()),
        io.atomic_write(nj / "withdrawals.csv", withdrawals.write_csv()),
        io.atomic_write(nj / "bye_requests.csv", byes.write_csv()),
    ]
    # The results are played by our own engine: `chessfed simulate` (seeded) through round 11.
    (nj / "results.csv").unlink(missing_ok=True)
    simulate(nj, no_shows=DEMO_NO_SHOWS)
    written.append(nj / "results.csv")
    gk = folder / "golden-knights-2019"
    cfg = parse_event_config((gk / "event.toml").read_text(encoding="utf-8"), file=str(gk / "event.toml"))
    assert cfg.golden_knights is not None
    files = demo_files(cfg.golden_knights, seed=2019, event_year=cfg.event.start.year)
    # One decision of the director (GK rule 7), so the demo shows an override at work.
    files["overrides.csv"] = pl.DataFrame([{
        "kind": "result", "stage": "preliminary", "section": "P02", "entry_id": "GK19-0143",
        "opponent": "GK19-0144", "value": "1/2-1/2",
        "note": "adjudicated a draw by the CCD on appeal (demo)"}])
    for name, frame in files.items():
        written.append(io.atomic_write(gk / name, frame.write_csv()))
    return written


def import_trf(trf: Path, event: Path, *, category: str = "open") -> list[Path]:
    """Start (or take over) an event folder from a TRF: players.csv and results.csv of a plain
    event (no entry rules), and an event.toml to complete when the folder has none — a Swiss
    with the file's Dutch edition, initial colour, bye points and acceleration
    (:func:`trf_acceleration`), or a round robin where the file is one (its type record, or
    every pair met the same number of times: FIDE C.07 15.2). Raises :class:`InputError`
    (nothing written) for virtual points chessfed cannot carry on."""
    from transforms.fide.standings import complete_round_robin_cycles, pairing_regime
    from transforms.fide.trf import parse_trf
    from transforms.swiss.takeover import players_from_trf, results_from_trf

    text = trf.read_text(encoding="utf-8-sig")
    t = parse_trf(text, source=str(trf))
    rounds = t.total_rounds or int(t.scorecard["round"].max() or 1)
    round_robin = pairing_regime(t).round_robin
    acceleration = "none" if round_robin else trf_acceleration(t, text, str(trf), rounds)
    event.mkdir(parents=True, exist_ok=True)
    start = dt.date.today()
    written = [io.atomic_write(event / "players.csv", players_from_trf(t, section=category).write_csv()),
               io.atomic_write(event / "results.csv", results_from_trf(t).write_csv())]
    if not (event / "event.toml").exists():
        name = (t.name or event.name).replace("\\", "\\\\").replace('"', '\\"')
        common = {"id": event.name, "name": name, "start": start, "category": category}
        if round_robin:
            cycles = complete_round_robin_cycles(t.scorecard, [p.sno for p in t.players]) or (
                2 if "DOUBLE" in (t.header.encoded_type + t.header.type).upper() else 1)
            toml = ROUND_ROBIN_TEMPLATE.format(**common, cycles=min(cycles, 2))
        else:
            colour = "black" if t.initial_colour is not None and t.initial_colour.value == "b" else "white"
            toml = EVENT_TEMPLATE.format(**common, rounds=rounds, edition=t.edition or "2025",
                                         colour=colour, acceleration=acceleration,
                                         pab=f"{t.scoring.pab:g}")
        written.append(io.atomic_write(event / "event.toml", toml))
    return written


def trf_acceleration(t: Tournament, text: str, source: str, rounds: int) -> str:
    """FIDE C.04.5 — the ``[swiss] acceleration`` that gives the virtual points of the file's
    ``XXA`` / ``250`` records: ``"none"`` without any, ``"baku"`` when they are the Baku
    method's (C.04.5.1) for the file's players and its ``rounds``. Decision: other virtual
    points are refused (InputError naming the first player and round that differ), not
    dropped: the next rounds would be paired on other scores than the file's."""
    from transforms.core.errors import InputError
    from transforms.fide.acceleration import baku_virtual_points, virtual_points

    given = virtual_points(t, source=source, text=text)
    if not given:
        return "none"
    baku = baku_virtual_points([p.sno for p in t.players], rounds)
    for sno in sorted({*given, *baku}):
        mine, theirs = given.get(sno, ()), baku.get(sno, ())
        n = max(len(mine), len(theirs))  # a round past a player's values gives him none
        for rnd, (has, want) in enumerate(zip(mine + (0.0,) * (n - len(mine)),
                                              theirs + (0.0,) * (n - len(theirs))), 1):
            if has != want:
                raise InputError(source, None, "XXA/250", f"player {sno} round {rnd}: {has:g}",
                                 f"virtual points that are not the Baku method's (C.04.5.1 "
                                 f"gives {want:g}), the only acceleration chessfed pairs with: "
                                 f"not imported")
    return "baku"


EVENT_TEMPLATE = """# Taken over from a TRF by `chessfed import-trf`: complete the [event] and [publish] keys.
[event]
id = "{id}"
name = "{name}"
kind = "swiss"
start = {start}
end = {start}
venue = "to be completed"
organiser = "to be completed"
currency = "EUR"
contact = "to be completed"

[publish]
sender = "results@example.org"

[swiss]
rounds = {rounds}
dutch_edition = "{edition}"
initial_colour = "{colour}"
acceleration = "{acceleration}"
pab_points = {pab}
categories = [{{ id = "{category}", name = "{name}" }}]
"""

ROUND_ROBIN_TEMPLATE = """# Taken over from a TRF by `chessfed import-trf`: complete the [event] and [publish] keys.
[event]
id = "{id}"
name = "{name}"
kind = "round_robin"
start = {start}
end = {start}
venue = "to be completed"
organiser = "to be completed"
currency = "EUR"
contact = "to be completed"

[publish]
sender = "results@example.org"

[round_robin]
cycles = {cycles}
categories = [{{ id = "{category}", name = "{name}" }}]
"""

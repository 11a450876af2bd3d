"""``chessfed import-trf``: an event started or taken over from a TRF file (Swiss-Manager, Vega,
any program that writes FIDE's format): its players.csv, results.csv and, when the folder has
none, an event.toml saying what it took from the file and what it assumed. A TRF-2026 team file
(``310`` records) starts a team event instead: teams.csv, rosters.csv, results.csv."""

from __future__ import annotations

import datetime as dt
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from flows import io
from transforms.core.model import Colour
from transforms.swiss.takeover import Basis, Setting

if TYPE_CHECKING:
    from transforms.fide.trf import Tournament

class Imported(NamedTuple):
    """What :func:`take_over_trf` did."""

    written: list[Path]
    """The files written (event.toml only when the folder had none)."""
    settings: list[Setting]
    """Every event.toml value it chose and why (the assumed ones too)."""
    toml_kept: bool
    """The folder had an event.toml, kept as it was (``settings`` say what the file gives)."""


def import_trf(trf: Path, event: Path, *, category: str = "open") -> list[Path]:
    """:func:`take_over_trf`, the files it wrote."""
    return take_over_trf(trf, event, category=category).written


def take_over_trf(trf: Path, event: Path, *, category: str = "open",
                  today: dt.date | None = None) -> Imported:
    """Start (or take over) an event folder from a TRF: players.csv and results.csv of a plain
    event (no entry rules), and an event.toml to complete when the folder has none — a Swiss
    with the file's Dutch edition, initial colour, bye points and acceleration
    (:func:`trf_acceleration`), or a round robin where the file is one (its type record, or
    every pair met the same number of times: FIDE C.07 15.2). Raises :class:`InputError`
    (nothing written) for virtual points chessfed cannot carry on.

    Every value it chooses comes with where it comes from (:class:`Setting`: a record of the
    file, round 1 as played, or assumed — ``today`` is the assumed start when the file dates
    nothing), written as comments at the top of event.toml and returned for the command line
    to print (:mod:`transforms.swiss.takeover`: :func:`event_dates`, :func:`dutch_edition_of`,
    :func:`initial_colour_of`, :func:`rounds_of`, :func:`tiebreaks_of`)."""
    from transforms.fide.standings import complete_round_robin_cycles, pairing_regime
    from transforms.fide.trf import parse_trf
    from transforms.swiss.config import SwissConfig
    from transforms.swiss.takeover import (
        dutch_edition_of,
        event_dates,
        initial_colour_of,
        pab_points_of,
        players_from_trf,
        results_from_trf,
        rounds_of,
        tiebreaks_of,
    )

    text = trf.read_text(encoding="utf-8-sig")
    from transforms.fide.team_trf import is_team_file

    if is_team_file(text):
        return take_over_team_trf(trf, text, event, today=today)
    t = parse_trf(text, source=str(trf))
    rounds, rounds_note = rounds_of(t)
    round_robin = pairing_regime(t).round_robin
    acceleration = "none" if round_robin else trf_acceleration(t, text, str(trf), rounds)
    start, end, notes = event_dates(t, today=today or dt.date.today())
    event.mkdir(parents=True, exist_ok=True)
    written = [io.atomic_write(event / "players.csv", players_from_trf(t, section=category).write_csv()),
               io.atomic_write(event / "results.csv", results_from_trf(t).write_csv())]
    name = (t.name or event.name).replace("\\", "\\\\").replace('"', '\\"')
    common = {"id": event.name, "name": name, "start": start, "end": end, "category": category}
    if round_robin:
        counted = complete_round_robin_cycles(t.scorecard, [p.sno for p in t.players])
        double = "DOUBLE" in (t.header.encoded_type + t.header.type).upper()
        cycles = min(counted or (2 if double else 1), 2)
        notes.append(Setting("round_robin.cycles", str(cycles), Basis.PLAYED if counted else (
            Basis.FILE if double else Basis.ASSUMED), f"every pair met {counted} time(s)" if counted
            else "the type record says double" if double else "a single round robin"))
        notes.append(PLACEHOLDERS)
        toml = ROUND_ROBIN_TEMPLATE.format(**common, cycles=cycles, notes=toml_notes(trf, notes))
    else:
        start_assumed = any(n.key == "event.start" and n.basis is Basis.ASSUMED for n in notes)
        edition, edition_note = dutch_edition_of(t, start, start_assumed)
        colour, colour_note = initial_colour_of(t, edition)
        default = next(f.default for f in fields(SwissConfig) if f.name == "tiebreaks")
        tiebreaks, tiebreaks_note = tiebreaks_of(t, default)
        pab, pab_note = pab_points_of(t)
        notes += [rounds_note, edition_note, colour_note, Setting(
            "swiss.acceleration", f'"{acceleration}"', Basis.FILE,
            "the XXA/250 records: the Baku method's (C.04.5.1)" if acceleration == "baku"
            else "no virtual points (XXA/250)"), pab_note, tiebreaks_note, PLACEHOLDERS]
        toml = EVENT_TEMPLATE.format(**common, rounds=rounds, edition=edition,
                                     colour="white" if colour is Colour.WHITE else "black",
                                     acceleration=acceleration, pab=f"{pab:g}",
                                     tiebreaks=", ".join(f'"{c}"' for c in tiebreaks),
                                     notes=toml_notes(trf, notes))
    kept = (event / "event.toml").exists()
    if not kept:
        written.append(io.atomic_write(event / "event.toml", toml))
    return Imported(written, notes, kept)


def take_over_team_trf(trf: Path, text: str, event: Path, *, today: dt.date | None = None
                       ) -> Imported:
    """Start (or take over) a team event from a TRF-2026 team file: teams.csv, rosters.csv,
    results.csv (:func:`transforms.team.takeover.team_files`) and, when the folder has none, an
    event.toml of a team Swiss or a league of one division (the file's ``192``) with every value
    the file gives and where it comes from (:func:`transforms.team.takeover.team_settings`)."""
    from transforms.fide.team_trf import parse_team_trf
    from transforms.fide.trf import parse_trf
    from transforms.swiss.takeover import event_dates
    from transforms.team.takeover import team_files, team_settings

    team = parse_team_trf(text, source=str(trf))
    start, end, notes = event_dates(parse_trf(text, source=str(trf)), today=today or dt.date.today())
    kind, given = team_settings(team)
    settings = [Setting(s.key, s.value, Basis.FILE if s.from_file else Basis.ASSUMED, s.why)
                for s in given]
    event.mkdir(parents=True, exist_ok=True)
    written = [io.atomic_write(event / name, frame.write_csv())
               for name, frame in team_files(team).items()]
    notes += [*settings, PLACEHOLDERS]
    name = (team.name or event.name).replace("\\", "\\\\").replace('"', '\\"')
    tables: dict[str, list[str]] = {}
    for s in settings:
        table, key = s.key.split(".", 1)
        tables.setdefault(table, []).append(f"{key} = {s.value}")
    if kind == "team_round_robin":
        tables["team_round_robin"].append(f'divisions = [{{ id = "all", name = "{name}" }}]')
    body = "\n\n".join(f"[{t}]\n" + "\n".join(lines) for t, lines in tables.items())
    toml = TEAM_TEMPLATE.format(id=event.name, name=name, kind=kind, start=start, end=end,
                                notes=toml_notes(trf, notes), tables=body)
    kept = (event / "event.toml").exists()
    if not kept:
        written.append(io.atomic_write(event / "event.toml", toml))
    return Imported(written, notes, kept)


PLACEHOLDERS = Setting("event.venue, organiser, contact, currency; publish.sender", "placeholders",
                       Basis.ASSUMED, "a TRF has none of them: complete them")


def toml_notes(trf: Path, notes: list[Setting]) -> str:
    """The comment lines at the top of the event.toml :func:`take_over_trf` writes."""
    head = f"# What import-trf took from {trf.name} and what it assumed (check every 'assumed'):"
    return "\n".join([head, *(f"#   {n}".replace("\n", " ") for n in notes)])


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


TAKEN_OVER = ("# Taken over from a TRF by `chessfed import-trf`: complete the [event] and "
              "[publish] keys.\n")
"""The first line of the event.toml :func:`take_over_trf` writes."""

EVENT_TABLES = """{notes}
[event]
id = "{id}"
name = "{name}"
kind = "%s"
start = {start}
end = {end}
venue = "to be completed"
organiser = "to be completed"
currency = "EUR"
contact = "to be completed"

[publish]
sender = "results@example.org"

"""
"""``[event]`` and ``[publish]`` of every event.toml :func:`take_over_trf` writes (``%s``: the
kind), the values a TRF does not have as placeholders."""

EVENT_TEMPLATE = TAKEN_OVER + EVENT_TABLES % "swiss" + """[swiss]
rounds = {rounds}
dutch_edition = "{edition}"
initial_colour = "{colour}"
acceleration = "{acceleration}"
pab_points = {pab}
tiebreaks = [{tiebreaks}]
categories = [{{ id = "{category}", name = "{name}" }}]
"""

TEAM_TEMPLATE = ("# Taken over from a TRF-2026 team file by `chessfed import-trf`: complete the [event] "
                 "and\n# [publish] keys.\n" + EVENT_TABLES % "{kind}" + "{tables}\n")

ROUND_ROBIN_TEMPLATE = TAKEN_OVER + EVENT_TABLES % "round_robin" + """[round_robin]
cycles = {cycles}
categories = [{{ id = "{category}", name = "{name}" }}]
"""

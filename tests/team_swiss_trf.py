"""The inputs of :func:`transforms.fide.team_swiss.engine.pair_round` for any round of a TRF-2026
team file, and Gacrux's pairings of the reference data (``tests/data/team_swiss``), for the
team Swiss tests.

A round R is paired from the file's rounds before R (what ``gacrux_oracle truncate`` keeps),
read by :func:`transforms.fide.team_trf.parse_team_trf` (its card: per team and round the opponent, the
kind of round, board 1's colour, match and game points); the teams absent in round R come from
the ``# absent`` line of the pairings file (the ``240 Z`` records of round R).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from transforms.fide.team_swiss.history import settings_of_type, states_before
from transforms.fide.team_swiss.model import RoundSettings, TeamState
from transforms.fide.team_trf import TeamTrf, parse_team_trf


@dataclass(frozen=True)
class GacruxRound:
    """One round of a ``tsNN.pairings.txt`` file."""

    round: int
    pairs: tuple[tuple[int, int], ...]
    """(white, black) in Gacrux's table order."""
    bye: int | None
    absent: frozenset[int]


def read_team_trf(path: Path) -> TeamTrf:
    """A TRF-2026 team file read (:func:`transforms.fide.team_trf.parse_team_trf`)."""
    return parse_team_trf(path.read_text(encoding="utf-8-sig"), source=str(path))


def read_pairings(path: Path) -> list[GacruxRound]:
    """The rounds of a ``tsNN.pairings.txt`` (or ``example.next.txt``) file."""
    rounds: list[GacruxRound] = []
    rnd, pairs, bye, absent = 0, [], None, frozenset[int]()

    def flush() -> None:
        if rnd:
            rounds.append(GacruxRound(rnd, tuple(pairs), bye, absent))

    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("round "):
            flush()
            rnd, pairs, bye, absent = int(line.split()[1]), [], None, frozenset()
        elif line.startswith("# absent"):
            absent = frozenset(int(x) for x in line.split()[2:])
        elif line and not line.startswith("#"):
            a, b = (int(x) for x in line.split())
            if b == 0:
                bye = a
            else:
                pairs.append((a, b))
    flush()
    return rounds


def settings_of(trf: TeamTrf, rnd: int) -> RoundSettings:
    """The round's settings from the file's ``192``, ``142`` and ``152`` records."""
    return settings_of_type(trf.type_code, round=rnd, rounds=trf.scheduled_rounds or trf.rounds,
                            initial=trf.initial_colour)


def teams_before(trf: TeamTrf, rnd: int, absent: frozenset[int]) -> list[TeamState]:
    """Each team's state before round ``rnd``, from the file's card."""
    return states_before(trf.card, rnd, primary=trf.primary, absent=absent)


@dataclass(frozen=True)
class Case:
    """A round of a reference file: its input and Gacrux's pairing."""

    name: str
    teams: list[TeamState]
    settings: RoundSettings
    expected: GacruxRound


def cases(trf_path: Path, pairings_path: Path) -> list[Case]:
    """Every round of ``pairings_path`` with its input from ``trf_path``."""
    trf = read_team_trf(trf_path)
    return [Case(f"{trf_path.stem} round {g.round}",
                 teams_before(trf, g.round, g.absent | trf.absent.get(g.round, frozenset())),
                 settings_of(trf, g.round), g)
            for g in read_pairings(pairings_path)]


RESULT_OF = {("1", "0"): "1-0", ("=", "="): "1/2-1/2", ("0", "1"): "0-1", ("+", "-"): "+/-",
             ("-", "+"): "-/+", ("-", "-"): "-/-"}
"""A board of a reference file (White team's player's code, Black team's) as results.csv has
it (team A = the team with White on board 1)."""


def event_files(trf_path: Path, before: int, absent: frozenset[int]) -> dict[str, str]:
    """A reference tournament as a ``kind = "team_swiss"`` event's folder holds it, with the
    rounds before ``before`` recorded and the teams ``absent`` in round ``before`` marked in
    teams.csv: event.toml (its 192, 142, 152, 352, 362 and 320 records as ``[team]`` and
    ``[team_swiss]``), teams.csv (``start_no`` = TPN), rosters.csv, results.csv. A whole
    match forfeited (330) has the losing team's players left out (the match lost by forfeit:
    none of its boards fielded)."""
    from flows.devtools.gacrux_oracle import read_trf  # the layout the reference files have

    ev = read_trf(trf_path.read_text(encoding="latin-1"))
    tokens = ev.code.upper().split("_")
    system = settings_of_type(ev.code, round=1, rounds=1)
    preference, secondary = system.preferences.value, system.secondary_for_colours
    scores = [t for t in tokens if t in ("MP", "GP")]
    primary = "game_points" if scores[:1] == ["GP"] else "match_points"
    bye_mp, bye_gp = ev.bye_points
    toml = f"""[event]
id = "{trf_path.stem}"
name = "{ev.name}"
kind = "team_swiss"
start = 2026-03-01
end = 2026-03-20
venue = "Hall"
organiser = "Federation"
currency = "EUR"
contact = "Arbiter"

[publish]
sender = "arbiter@federation.example"

[team]
boards = {ev.boards}
match_points = [{int(ev.match_points[0])}, {int(ev.match_points[1])}, {int(ev.match_points[2])}]
primary = "{primary}"
tiebreaks = ["GPTS"]
reserves = 0

[team_swiss]
rounds = {ev.rounds}
colour_preference = "{preference}"
initial_colour = "{'black' if ev.initial_colour.upper().startswith('B') else 'white'}"
secondary_for_colours = {'true' if secondary else 'false'}
bye_match_points = {float(bye_mp)}
bye_game_points = {float(bye_gp)}
"""
    teams = ["team_id,name,start_no,absent_rounds"]
    rosters = ["team_id,board,player_id,name,rating"]
    for t in ev.teams:
        teams.append(f"T{t.tpn},{t.name},{t.tpn},{before if t.tpn in absent else ''}")
        for b, p in enumerate(t.players, start=1):
            rosters.append(f"T{t.tpn},{b},P{p.sno},\"{p.name}\",{p.rating}")
    results = ["round,team_a,team_b,board,player_a,player_b,result"]
    for m in ev.matches:
        if m.round >= before:
            continue
        if not m.black:
            results.append(f"{m.round},T{m.white},,,,,PAB")
            continue
        white, black = ev.team(m.white), ev.team(m.black)
        for b, (w, k) in enumerate(m.boards, start=1):
            pw = "" if m.forfeit in ("-+", "--") else f"P{white.players[b - 1].sno}"
            pb = "" if m.forfeit in ("+-", "--") else f"P{black.players[b - 1].sno}"
            results.append(f"{m.round},T{m.white},T{m.black},{b},{pw},{pb},{RESULT_OF[(w, k)]}")
    return {"event.toml": toml, "teams.csv": "\n".join(teams) + "\n",
            "rosters.csv": "\n".join(rosters) + "\n", "results.csv": "\n".join(results) + "\n"}


def cut_before(trf: Path, rnd: int, out: Path) -> Path:
    """The file with only the rounds before ``rnd`` (what a program holds when it pairs
    ``rnd``): the players' 001 games after it blanked, the later 320 byes and 330 forfeits
    dropped."""
    lines = []
    for line in trf.read_text(encoding="utf-8").splitlines():
        if line.startswith("001"):
            line = line[:99 + 10 * (rnd - 2)].rstrip() if rnd > 1 else line[:89].rstrip()
        elif line.startswith("330") and int(line[7:10]) >= rnd:
            continue
        elif line.startswith("320"):
            line = line[:14 + 4 * (rnd - 1)].rstrip()
        elif line.startswith("240") and int(line[6:9]) != rnd:
            continue
        lines.append(line)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out

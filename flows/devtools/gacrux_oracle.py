"""Gacrux, FIDE TEC's reference program, as an oracle for team Swiss pairings (C.04.6) and team
tie-breaks (C.07 art. 11-13), run as a separate program; and a generator of random team
tournaments paired round by round by it.

Gacrux (Otto Milvang; MIT licence, "Copyright (c) 2024 FIDE"; PyPI ``gacrux``) is never imported
here: it runs as a subprocess of its own interpreter (``GACRUX_PYTHON``, default
``/tmp/gvenv/bin/python``), through its two command-line modules, and only its JSON answers are
read. None of its code is in this file. What it reads and answers is in
``docs/research/team-competitions.md`` ("Gacrux as an oracle").

    python -m flows.devtools.gacrux_oracle pair FILE.trf [--method fideteam-typeb]
    python -m flows.devtools.gacrux_oracle tiebreaks FILE.trf MPTS GPTS BH:MP/C1 EMMSB ...
    python -m flows.devtools.gacrux_oracle check FILE.trf
    python -m flows.devtools.gacrux_oracle generate OUT.trf --teams 12 --boards 4 --rounds 7 \
        [--seed 1] [--code FIDE_TEAM_TYPEA_MP_GP]
    python -m flows.devtools.gacrux_oracle truncate FILE.trf ROUND   # the file as it was
                                                                     # before ROUND was paired
    python -m flows.devtools.gacrux_oracle corpus tests/data        # the reference data
    python -m flows.devtools.gacrux_oracle bench --teams 200         # seconds to pair a round
    python -m flows.devtools.gacrux_oracle version                   # Gacrux's version

The team TRF-2026 files this module writes (and reads back: only its own layout) hold
``012``-``192``, ``352`` (board colours), ``362`` (match points), ``001`` players (opponent,
colour, result per round: the board-1 player's colour is the team's), ``310`` teams, ``320``
(pairing-allocated byes), ``330`` (forfeited matches) and ``240 Z`` (a team absent in a round).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

GACRUX_PYTHON = os.environ.get("GACRUX_PYTHON", "/tmp/gvenv/bin/python")
"""The interpreter that has Gacrux installed (``pip install gacrux==1.11.65``)."""

TIMEOUT_SECONDS = 1800


class GacruxError(RuntimeError):
    """Gacrux answered with a status code of 400 or more, or not at all."""

    def __init__(self, code: int, messages: Sequence[str], command: Sequence[str]) -> None:
        self.code = code
        self.messages = list(messages)
        self.command = list(command)
        super().__init__(f"gacrux status {code}: {'; '.join(self.messages)} ({' '.join(command)})")


# ----------------------------------------------------------------------------------------------
# Running Gacrux


def run_gacrux(module: str, args: Sequence[str], timeout: float = TIMEOUT_SECONDS) -> dict[str, Any]:
    """Run ``python -m gacrux.<module> ARGS`` and return its JSON answer (``-F JSON``, stdout).

    Gacrux writes one JSON object, ``{"status": {"code", "info", "error"}, ...}``; codes 0-2
    are answers (in check mode 1 means "differs"), 400 and up are faults.
    """
    command = [GACRUX_PYTHON, "-m", f"gacrux.{module}", *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    out = done.stdout
    start = out.find("{")
    if start < 0:
        raise GacruxError(-1, [done.stderr.strip() or out.strip() or "no output"], command)
    answer: dict[str, Any] = json.loads(out[start:])
    status = answer.get("status", {})
    code = int(status.get("code", 0))
    if code >= 400:
        errors = status.get("error", [])
        raise GacruxError(code, errors if isinstance(errors, list) else [str(errors)], command)
    return answer


@dataclass(frozen=True)
class TeamPair:
    """One match of a round as Gacrux pairs it: team pairing numbers (TPN)."""

    white: int
    """The team whose board-1 player has White (C.04.6 art. 1.6.1)."""
    black: int
    """The other team; 0 when ``white`` has the pairing-allocated bye."""


def pair_next_round(
    trf: Path, *, method: str | None = None, rounds: int | None = None, unpaired: Sequence[int] = ()
) -> tuple[int, list[TeamPair]]:
    """The round after the last one in ``trf``, paired by Gacrux: (round, pairs in board order,
    the bye last as ``TeamPair(team, 0)``).

    ``method`` overrides record 192 (``fideteam``, ``fideteam-typeb``, ``fideteam-nocolor``);
    ``rounds`` overrides record 142; ``unpaired`` lists teams not to pair (besides record 240).
    """
    args = ["-i", str(trf), "-p"]
    if method:
        args += ["-m", method]
    if rounds:
        args += ["-N", str(rounds)]
    if unpaired:
        args += ["-u", *[str(team) for team in unpaired]]
    answer = run_gacrux("pairingchecker", args)
    result = answer["pairingResult"]
    return int(result["round"]), [TeamPair(int(w), int(b)) for w, b in result["pairs"] or []]


@dataclass(frozen=True)
class RoundCheck:
    """Gacrux's verdict on one recorded round: its own pairing beside the file's."""

    round: int
    agrees: bool
    gacrux: list[TeamPair]
    recorded: list[TeamPair]


def check_rounds(trf: Path, *, method: str | None = None) -> list[RoundCheck]:
    """Every recorded round paired again by Gacrux and compared with the file (``-c``)."""
    args = ["-i", str(trf), "-c"]
    if method:
        args += ["-m", method]
    answer = run_gacrux("pairingchecker", args)
    checks = []
    for rnd in answer["pairingResult"]["roundpairing"]:
        checks.append(
            RoundCheck(
                round=int(rnd["round"]),
                agrees=bool(rnd["check"]),
                gacrux=[TeamPair(int(w), int(b)) for w, b in rnd["pairs"]],
                recorded=[TeamPair(int(w), int(b)) for w, b in rnd["current"]],
            )
        )
    return checks


@dataclass(frozen=True)
class TeamTiebreaks:
    """One team's line of Gacrux's tie-break table."""

    team: int
    rank: int
    values: dict[str, str | None]
    """Code as asked -> value as Gacrux prints it (a decimal string; None where undefined)."""


def team_tiebreaks(
    trf: Path, codes: Sequence[str], *, swiss: bool = True, rounds: int | None = None
) -> list[TeamTiebreaks]:
    """Gacrux's values of the tie-break ``codes`` (TRF-2026 record 212 syntax, e.g. ``MPTS``,
    ``BH:MP/C1``, ``EMGSB/C1``) for every team, in TPN order, and its rank by that list.

    ``swiss`` passes ``-s``: without it Gacrux guesses a round robin when the number of teams
    and of rounds fit one (e.g. 8 teams and 7 rounds) and treats forfeits as played.
    """
    args = ["-i", str(trf), "-t", *codes]
    if swiss:
        args.append("-s")
    if rounds:
        args += ["-n", str(rounds)]
    answer = run_gacrux("tiebreakchecker", args)
    result = answer["tiebreakResult"]
    teams = []
    for competitor in result["competitors"]:
        values = {
            code: (None if value is None else str(value))
            for code, value in zip(codes, competitor["tiebreakScore"])
        }
        teams.append(TeamTiebreaks(int(competitor["cid"]), int(competitor["rank"]), values))
    return sorted(teams, key=lambda t: t.team)


def gacrux_version() -> str:
    """The version of the Gacrux that ``GACRUX_PYTHON`` runs (the data was made with 1.11.65)."""
    done = subprocess.run(
        [GACRUX_PYTHON, "-c", "import gacrux.version as v; print(v.version()['version'])"],
        capture_output=True, text=True, check=True,
    )
    return done.stdout.strip()


# ----------------------------------------------------------------------------------------------
# A team tournament, and its TRF-2026 file

GAME_POINTS = {"1": Decimal("1"), "+": Decimal("1"), "=": Decimal("0.5"), "0": Decimal("0"),
               "-": Decimal("0")}
"""The game points of a board result code (record 162 defaults W 1.0, D 0.5, L 0.0, A 0.0)."""


@dataclass
class Player:
    sno: int
    """Starting-rank number (001 columns 5-8)."""
    name: str
    rating: int


@dataclass
class Team:
    tpn: int
    """Team pairing number (310 columns 5-7), 1..number of teams (C.04.6 art. 1.1.1)."""
    name: str
    nickname: str
    players: list[Player]
    """In board order (the 310 order); exactly the number of boards: no reserves."""

    @property
    def strength(self) -> int:
        """The average rating of the team's players, rounded: record 310's strength factor and
        the order of the TPNs (a decision of this generator; C.04.6 art. 1.1.2 leaves it to the
        rules of the competition)."""
        return round(sum(p.rating for p in self.players) / len(self.players))


@dataclass
class Match:
    round: int
    white: int
    """TPN of the team with White on board 1."""
    black: int
    """TPN of the other team, 0 for the pairing-allocated bye."""
    boards: list[tuple[str, str]] = field(default_factory=list)
    """Per board (white team's player, black team's player): ``1 0``, ``= =``, ``0 1`` played,
    ``+ -`` / ``- +`` / ``- -`` forfeited. Empty for the bye."""
    forfeit: str = ""
    """``+-``, ``-+`` or ``--`` when the whole match was forfeited (record 330), else empty."""


@dataclass
class TeamEvent:
    name: str
    rounds: int
    """Scheduled rounds (record 142)."""
    boards: int
    colour_sequence: str
    """Record 352, e.g. ``WBWB``: the colour of the white team's player on each board."""
    initial_colour: str
    """Record 152, ``W`` or ``B`` (C.04.6 art. 4.1, drawn by lot)."""
    code: str = "FIDE_TEAM_TYPEA_MP_GP"
    """Record 192."""
    match_points: tuple[Decimal, Decimal, Decimal] = (Decimal("2"), Decimal("1"), Decimal("0"))
    """Record 362: TW, TD, TL."""
    pab_points: tuple[Decimal, Decimal] | None = None
    """Record 320: match points and game points of the bye; default a drawn match (art. 1.4)."""
    teams: list[Team] = field(default_factory=list)
    matches: list[Match] = field(default_factory=list)
    absent: dict[int, set[int]] = field(default_factory=dict)
    """Round -> teams not paired in it (zero-point bye, record 240 Z)."""
    start_date: str = "2026/03/01"
    seed: int | None = None

    @property
    def bye_points(self) -> tuple[Decimal, Decimal]:
        if self.pab_points is not None:
            return self.pab_points
        return self.match_points[1], Decimal("0.5") * self.boards

    def played_rounds(self) -> int:
        return max((m.round for m in self.matches), default=0)

    def team(self, tpn: int) -> Team:
        return self.teams[tpn - 1]

    def match_score(self, match: Match) -> tuple[Decimal, Decimal, Decimal, Decimal]:
        """(white MP, white GP, black MP, black GP) of a match (a bye: the bye's points)."""
        if match.black == 0:
            mp, gp = self.bye_points
            return mp, gp, Decimal(0), Decimal(0)
        wgp = sum((GAME_POINTS[w] for w, _ in match.boards), Decimal(0))
        bgp = sum((GAME_POINTS[b] for _, b in match.boards), Decimal(0))
        tw, td, tl = self.match_points
        if match.forfeit == "--":
            return tl, wgp, tl, bgp
        if wgp > bgp:
            return tw, wgp, tl, bgp
        if wgp < bgp:
            return tl, wgp, tw, bgp
        return td, wgp, td, bgp

    def totals(self, upto: int | None = None) -> dict[int, tuple[Decimal, Decimal]]:
        """Team -> (match points, game points) after round ``upto`` (default: all)."""
        last = self.played_rounds() if upto is None else upto
        totals = {t.tpn: (Decimal(0), Decimal(0)) for t in self.teams}
        for m in self.matches:
            if m.round > last:
                continue
            wmp, wgp, bmp, bgp = self.match_score(m)
            mp, gp = totals[m.white]
            totals[m.white] = (mp + wmp, gp + wgp)
            if m.black:
                mp, gp = totals[m.black]
                totals[m.black] = (mp + bmp, gp + bgp)
        return totals


def _points(value: Decimal, width: int) -> str:
    return f"{value:{width}.1f}"


def _ranks(keys: dict[int, tuple[Any, ...]]) -> dict[int, int]:
    """Rank by key, descending; equal keys share the rank (1, 2, 2, 4)."""
    order = sorted(keys, key=lambda k: (tuple(-x for x in keys[k]), k))
    ranks: dict[int, int] = {}
    for place, k in enumerate(order, start=1):
        prev = order[place - 2] if place > 1 else None
        ranks[k] = ranks[prev] if prev is not None and keys[prev] == keys[k] else place
    return ranks


def write_trf(event: TeamEvent, upto: int | None = None, absent_next: bool = True) -> str:
    """The TRF-2026 team file of ``event`` after round ``upto`` (default: every round played).

    With ``absent_next`` the teams absent in round ``upto + 1`` are listed in a ``240 Z`` record
    of that round (TRF-2026: for ITDX a bye record of a round not yet paired is mandatory).
    """
    last = event.played_rounds() if upto is None else upto
    matches = [m for m in event.matches if m.round <= last]
    nplayers = sum(len(t.players) for t in event.teams)
    lines = [
        f"012 {event.name}",
        "022 Generated",
        "032 FID",
        f"042 {event.start_date}",
        f"052 {event.start_date}",
        f"062 {nplayers}",
        f"072 {nplayers}",
        f"082 {len(event.teams)}",
        "092 Team Swiss",
        "102 Generator",
        f"142 {event.rounds}",
        f"152 {event.initial_colour}",
        f"162  W 1.0    D 0.5    L 0.0    P{_points(event.bye_points[1] / event.boards, 4)}",
        f"192 {event.code}",
        f"352 {event.colour_sequence}",
        "362 TW{}   TD{}   TL{}".format(*(_points(p, 4) for p in event.match_points)),
    ]
    if event.seed is not None:
        lines.insert(1, f"### generated by flows/devtools/gacrux_oracle.py, seed {event.seed}")
    # Per player: (opponent, colour, result) per round.
    entries: dict[int, dict[int, tuple[int, str, str]]] = {
        p.sno: {} for t in event.teams for p in t.players
    }
    for m in matches:
        wt = event.team(m.white)
        if m.black == 0:
            for p in wt.players:
                entries[p.sno][m.round] = (0, "-", "U")
            continue
        bt = event.team(m.black)
        for i, (wres, bres) in enumerate(m.boards):
            wp, bp = wt.players[i], bt.players[i]
            wcol = "w" if event.colour_sequence[i % len(event.colour_sequence)] == "W" else "b"
            bcol = "b" if wcol == "w" else "w"
            entries[wp.sno][m.round] = (bp.sno, wcol, wres)
            entries[bp.sno][m.round] = (wp.sno, bcol, bres)
    # A bye's board is worth record 162's P (the 320 game points shared over the boards), so
    # that the players' points add up to the team's game points (Gacrux checks them).
    board_points = {**GAME_POINTS, "U": event.bye_points[1] / event.boards}
    ppoints = {
        sno: sum((board_points.get(r, Decimal(0)) for _, _, r in rounds.values()), Decimal(0))
        for sno, rounds in entries.items()
    }
    pranks = _ranks({sno: (pts,) for sno, pts in ppoints.items()})
    for t in event.teams:
        for p in t.players:
            head = (
                f"001 {p.sno:4d}  {'':3} {p.name[:33]:<33} {p.rating:4d} FID {0:>11} {'':10}"
                f" {_points(ppoints[p.sno], 4)} {pranks[p.sno]:4d}"
            )
            body = ""
            for rnd in range(1, last + 1):
                opp, col, res = entries[p.sno].get(rnd, (0, "-", "Z"))
                body += f"  {opp:4d} {col} {res}"
            lines.append(head + body)
    totals = event.totals(last)
    tranks = _ranks({tpn: mpgp for tpn, mpgp in totals.items()})
    for t in event.teams:
        mp, gp = totals[t.tpn]
        members = " ".join(f"{p.sno:4d}" for p in t.players)
        lines.append(
            f"310 {t.tpn:3d} {t.name[:32]:<32} {t.nickname[:5]:<5} {t.strength:6d}"
            f" {_points(mp, 6)} {_points(gp, 6)} {tranks[t.tpn]:3d}  {members}"
        )
    byes = {m.round: m.white for m in matches if m.black == 0}
    if byes:
        mp, gp = event.bye_points
        teams = " ".join(f"{byes.get(r, 0):3d}" for r in range(1, last + 1))
        lines.append(f"320 {_points(mp, 4)} {_points(gp, 4)} {teams}")
    for m in sorted(matches, key=lambda m: (m.round, m.white)):
        if m.forfeit:
            lines.append(f"330 {m.forfeit} {m.round:3d} {m.white:3d} {m.black:3d}")
    for rnd in sorted(event.absent):
        if rnd <= last or (absent_next and rnd == last + 1):
            gone = sorted(event.absent[rnd])
            if gone:
                lines.append(f"240 Z {rnd:3d} " + " ".join(f"{t:4d}" for t in gone))
    return "\n".join(lines) + "\n"


def read_trf(text: str) -> TeamEvent:
    """A file written by :func:`write_trf`, read back (only that layout: rosters of exactly the
    number of boards, no 300 out-of-order records)."""
    header: dict[str, str] = {}
    players: dict[int, Player] = {}
    rounds_of: dict[int, list[tuple[int, str, str]]] = {}
    teams: list[Team] = []
    pab: tuple[Decimal, Decimal] | None = None
    byes: dict[int, int] = {}
    forfeits: dict[tuple[int, int, int], str] = {}
    absent: dict[int, set[int]] = {}
    seed = None
    for line in text.splitlines():
        tag = line[:3]
        if line.startswith("### generated") and "seed" in line:
            seed = int(line.rsplit(" ", 1)[1])
        elif tag == "001":
            sno = int(line[4:8])
            players[sno] = Player(sno, line[14:47].rstrip(), int(line[48:52]))
            blocks = []
            pos = 91
            while pos < len(line):
                opp = line[pos:pos + 4].strip()
                blocks.append((int(opp or 0), line[pos + 5:pos + 6], line[pos + 7:pos + 8]))
                pos += 10
            rounds_of[sno] = blocks
        elif tag == "310":
            members = [int(x) for x in line[73:].split()]
            teams.append(Team(int(line[4:7]), line[8:40].rstrip(), line[41:46].rstrip(),
                              [players[s] for s in members]))
        elif tag == "320":
            pab = (Decimal(line[4:8].strip()), Decimal(line[9:13].strip()))
            for i, chunk in enumerate(line[14:].split(), start=1):
                if int(chunk):
                    byes[i] = int(chunk)
        elif tag == "330":
            forfeits[(int(line[7:10]), int(line[11:14]), int(line[15:18]))] = line[4:6]
        elif tag == "240" and line[4] == "Z":
            absent.setdefault(int(line[6:9]), set()).update(int(x) for x in line[10:].split())
        elif tag in ("012", "142", "152", "192", "352", "362", "042"):
            header[tag] = line[4:].rstrip()
    tw, td, tl = (Decimal(header["362"][i:i + 4].strip()) for i in (2, 11, 20))
    teams.sort(key=lambda t: t.tpn)
    event = TeamEvent(
        name=header["012"], rounds=int(header["142"]), boards=len(header["352"]),
        colour_sequence=header["352"], initial_colour=header["152"], code=header["192"],
        match_points=(tw, td, tl), pab_points=pab, teams=teams, absent=absent,
        start_date=header.get("042", "2026/03/01"), seed=seed,
    )
    team_of = {p.sno: t for t in teams for p in t.players}
    played = max((len(b) for b in rounds_of.values()), default=0)
    for rnd in range(1, played + 1):
        seen: set[int] = set()
        for t in teams:
            if t.tpn in seen:
                continue
            first = rounds_of[t.players[0].sno][rnd - 1]
            if byes.get(rnd) == t.tpn:
                event.matches.append(Match(rnd, t.tpn, 0))
                seen.add(t.tpn)
                continue
            if first[0] == 0:
                continue  # absent
            other = team_of[first[0]]
            white, black = (t, other) if first[1] == "w" else (other, t)
            boards = []
            for i in range(event.boards):
                _, _, wres = rounds_of[white.players[i].sno][rnd - 1]
                _, _, bres = rounds_of[black.players[i].sno][rnd - 1]
                boards.append((wres, bres))
            event.matches.append(Match(rnd, white.tpn, black.tpn, boards,
                                       forfeits.get((rnd, white.tpn, black.tpn), "")))
            seen.update((white.tpn, black.tpn))
    return event


def truncate(event: TeamEvent, before: int) -> TeamEvent:
    """The event as it stood when round ``before`` was to be paired."""
    return dataclasses.replace(
        event, matches=[m for m in event.matches if m.round < before],
        absent={r: t for r, t in event.absent.items() if r <= before},
    )


# ----------------------------------------------------------------------------------------------
# Random team tournaments, paired by Gacrux

NATIONS = ("ALB", "ARM", "AUT", "AZE", "BEL", "BIH", "BUL", "CRO", "CZE", "DEN", "ENG", "ESP",
           "EST", "FIN", "FRA", "GEO", "GER", "GRE", "HUN", "IRL", "ISL", "ISR", "ITA", "LAT",
           "LTU", "MDA", "MKD", "MNE", "NED", "NOR", "POL", "POR", "ROU", "SCO", "SLO", "SRB",
           "SUI", "SVK", "SWE", "TUR", "UKR", "WLS")


@dataclass(frozen=True)
class Profile:
    """How often the unusual things happen in a generated tournament (probabilities 0-1)."""

    absence: float = 0.0
    """A team (from round 2) is absent for one round: not paired, 0 MP (record 240 Z)."""
    match_forfeit: float = 0.0
    """A paired match is forfeited whole by one team (record 330, each board + / -)."""
    board_forfeit: float = 0.0
    """One board of a played match is forfeited (+ / -) by one player."""
    draw: float = 0.3


PROFILES = {
    "clean": Profile(),
    "realistic": Profile(absence=0.01, match_forfeit=0.01, board_forfeit=0.02),
    "messy": Profile(absence=0.05, match_forfeit=0.03, board_forfeit=0.05),
}


def new_event(rng: random.Random, *, name: str, teams: int, boards: int, rounds: int,
              code: str, seed: int | None = None) -> TeamEvent:
    """Teams with rosters and ratings (team strength spread 1500-2600); TPNs by average
    rating, descending (ties by name); players numbered team by team in TPN order."""
    raw = []
    for i in range(teams):
        base = rng.randint(1500, 2600)
        ratings = sorted((max(1000, min(2850, int(rng.gauss(base, 120)))) for _ in range(boards)),
                         reverse=True)
        raw.append((sum(ratings) / boards, f"{NATIONS[i % len(NATIONS)]}{i // len(NATIONS) or ''}",
                    ratings))
    raw.sort(key=lambda r: (-r[0], r[1]))
    event = TeamEvent(name=name, rounds=rounds, boards=boards,
                      colour_sequence=("WB" * boards)[:boards],
                      initial_colour=rng.choice("WB"), code=code, seed=seed)
    sno = 0
    for tpn, (_, nick, ratings) in enumerate(raw, start=1):
        members = []
        for board, rating in enumerate(ratings, start=1):
            sno += 1
            members.append(Player(sno, f"{nick} Board{board}", rating))
        event.teams.append(Team(tpn, f"Team {nick}", nick[:5], members))
    return event


def play_round(rng: random.Random, event: TeamEvent, rnd: int, pairs: list[TeamPair],
               profile: Profile) -> None:
    """Results drawn at random for ``pairs``: each board by the Elo expectation of its two
    players (a draw with probability ``profile.draw``), forfeits by ``profile``."""
    for pair in pairs:
        if pair.black == 0:
            event.matches.append(Match(rnd, pair.white, 0))
            continue
        wt, bt = event.team(pair.white), event.team(pair.black)
        if rng.random() < profile.match_forfeit:
            forfeit = rng.choice(["+-", "-+"])
            boards = [(forfeit[0], forfeit[1])] * event.boards
            event.matches.append(Match(rnd, pair.white, pair.black, boards, forfeit))
            continue
        boards = []
        for i in range(event.boards):
            if rng.random() < profile.board_forfeit:
                boards.append(rng.choice([("+", "-"), ("-", "+")]))
                continue
            expected = 1 / (1 + 10 ** ((bt.players[i].rating - wt.players[i].rating) / 400))
            draw = min(profile.draw, 2 * min(expected, 1 - expected))
            x = rng.random()
            if x < expected - draw / 2:
                boards.append(("1", "0"))
            elif x < expected + draw / 2:
                boards.append(("=", "="))
            else:
                boards.append(("0", "1"))
        event.matches.append(Match(rnd, pair.white, pair.black, boards))


def generate(event: TeamEvent, rng: random.Random, profile: Profile, workdir: Path,
             log: list[tuple[int, list[TeamPair]]] | None = None,
             last: int | None = None) -> TeamEvent:
    """Pair the rounds of ``event`` (up to ``last``, default all) by Gacrux, results at random;
    ``log`` gets each round's pairing as Gacrux answered it."""
    for rnd in range(event.played_rounds() + 1, (event.rounds if last is None else last) + 1):
        if rnd > 1 and profile.absence:
            gone = {t.tpn for t in event.teams if rng.random() < profile.absence}
            if gone:
                event.absent[rnd] = gone
        path = workdir / f"r{rnd:02d}.trf"
        path.write_text(write_trf(event, rnd - 1), encoding="latin-1")
        paired_round, pairs = pair_next_round(path)
        if paired_round != rnd:
            raise RuntimeError(f"gacrux paired round {paired_round}, expected {rnd}")
        if log is not None:
            log.append((rnd, pairs))
        play_round(rng, event, rnd, pairs, profile)
    return event


# ----------------------------------------------------------------------------------------------
# The reference data (tests/data/team_swiss, tests/data/team_tiebreak)

TIEBREAK_CODES = (
    "MPTS", "GPTS", "MPVGP",
    "BH:MP", "BH:MP/C1", "BH:MP/M1", "BH:GP", "BH:GP/C1", "FB:MP", "AOB:MP",
    "SB:MP", "SB:GP", "EMMSB", "EMGSB", "EGMSB", "EGGSB", "EMGSB/C1", "EGGSB/C1",
    "BC", "WIN", "PS:MP", "STD", "SSSC", "KS", "TPN",
)
"""Team tie-breaks whose value does not depend on the list before them (sums, counts): one
Gacrux run with the whole list (TRF-2026 record 212 syntax)."""

ORDER_CODES = ("DE", "EDE", "EDEC", "EDET", "EDEB", "EDEBT", "EDEBB", "TBR", "BBE")
"""Tie-breaks that order the teams still tied by the list before them (Gacrux prints the place
inside the tie group, 0 where the code does not apply): each run as ``MPTS, CODE``, i.e. among
the teams equal on match points."""

STANDINGS_LIST = ("MPTS", "GPTS", "EDET", "EMGSB/C1", "BH:MP/C1")
"""The list Gacrux ranks by for the table's ``rank`` column (a record 212 a team Swiss may
have: the TEC sample file's order with GPTS second)."""

CORPUS_CODES = ("FIDE_TEAM_TYPEA_MP_GP", "FIDE_TEAM_TYPEB_MP_GP", "FIDE_TEAM_MP_GP",
                "FIDE_TEAM_TYPEA_MP", "FIDE_TEAM_TYPEA_GP_MP")


CORPUS_SIZES = (  # (teams, rounds, boards): 8-40 teams, 5-9 rounds, 4-6 boards, ~420 KB
    (8, 5, 4), (8, 6, 6), (9, 6, 4), (9, 7, 5), (10, 7, 4), (10, 8, 6), (11, 8, 4), (11, 9, 4),
    (12, 9, 5), (12, 5, 4), (13, 6, 6), (13, 7, 4), (14, 8, 4), (14, 9, 5), (15, 5, 4),
    (16, 6, 4), (16, 9, 6), (17, 7, 4), (18, 8, 4), (19, 9, 4), (20, 5, 4), (21, 6, 4),
    (22, 7, 4), (24, 8, 4), (26, 5, 4), (28, 6, 4), (30, 7, 4), (33, 5, 4), (36, 6, 4),
    (40, 9, 4),
)
CODE_CYCLE = (0, 1, 0, 2, 0, 3, 0, 4)
"""Indices into :data:`CORPUS_CODES`, in turn: type A MP/GP every other tournament."""


def corpus_plan(count: int = 30, seed: int = 2026) -> list[dict[str, Any]]:
    """The tournaments of the reference set: sizes, rounds, boards, 192 code, profile, seed."""
    plan = []
    for i in range(count):
        teams, rounds, boards = CORPUS_SIZES[i % len(CORPUS_SIZES)]
        plan.append({"name": f"ts{i + 1:02d}", "teams": teams, "rounds": rounds,
                     "boards": boards, "code": CORPUS_CODES[CODE_CYCLE[i % len(CODE_CYCLE)]],
                     "profile": ("clean", "realistic", "messy")[i % 3],
                     "seed": seed * 100 + i})
    return plan


TIEBREAK_SET = ("ts01", "ts05", "ts06", "ts09", "ts14", "ts16", "ts18", "ts23", "ts24", "ts27")
"""The tournaments whose tie-break tables are kept: every profile, 192 code family (MP or GP
primary, with or without a secondary score, type A and B) and size range."""


def make_corpus(data: Path, count: int = 30, seed: int = 2026,
                tiebreak_set: Sequence[str] = TIEBREAK_SET) -> None:
    """``data/team_swiss/<name>.trf`` + ``<name>.pairings.txt`` per tournament, and
    ``data/team_tiebreak/<name>.tsv`` (of ``team_swiss/<name>.trf``) for ``tiebreak_set``."""
    swiss_dir, tb_dir = data / "team_swiss", data / "team_tiebreak"
    swiss_dir.mkdir(parents=True, exist_ok=True)
    tb_dir.mkdir(parents=True, exist_ok=True)
    for spec in corpus_plan(count, seed):
        rng = random.Random(spec["seed"])
        event = new_event(rng, name=f"Generated team Swiss {spec['name']}", teams=spec["teams"],
                          boards=spec["boards"], rounds=spec["rounds"], code=spec["code"],
                          seed=spec["seed"])
        log: list[tuple[int, list[TeamPair]]] = []
        with tempfile.TemporaryDirectory() as tmp:
            generate(event, rng, PROFILES[spec["profile"]], Path(tmp), log)
        trf = swiss_dir / f"{spec['name']}.trf"
        trf.write_text(write_trf(event), encoding="latin-1")
        lines = [f"# {spec['name']}: {spec['teams']} teams, {spec['boards']} boards,"
                 f" {spec['rounds']} rounds, {spec['code']}, profile {spec['profile']},"
                 f" seed {spec['seed']}",
                 "# round R: one 'white black' line per match in Gacrux's board order"
                 " (team pairing numbers), the bye as 'team 0'; absent teams on '# absent'"]
        for rnd, pairs in log:
            lines.append(f"round {rnd}")
            if event.absent.get(rnd):
                lines.append("# absent " + " ".join(str(t) for t in sorted(event.absent[rnd])))
            lines += [f"{p.white} {p.black}" for p in pairs]
        (swiss_dir / f"{spec['name']}.pairings.txt").write_text("\n".join(lines) + "\n")
        print(f"{spec['name']}: {spec['teams']} teams, {spec['rounds']} rounds", flush=True)
        if spec["name"] in tiebreak_set:
            write_tiebreak_table(trf, tb_dir / f"{spec['name']}.tsv")


def write_tiebreak_table(trf: Path, out: Path) -> None:
    """One row per team: TPN; its rank by :data:`STANDINGS_LIST`; each of
    :data:`TIEBREAK_CODES` (one run); each of :data:`ORDER_CODES` after MPTS (a run each,
    column ``CODE|MPTS``)."""
    columns: dict[str, dict[int, str]] = {}
    ranked = team_tiebreaks(trf, STANDINGS_LIST)
    columns["rank"] = {t.team: str(t.rank) for t in ranked}
    for t in team_tiebreaks(trf, TIEBREAK_CODES):
        for code in TIEBREAK_CODES:
            columns.setdefault(code, {})[t.team] = t.values[code] or ""
    for code in ORDER_CODES:
        for t in team_tiebreaks(trf, ("MPTS", code)):
            columns.setdefault(f"{code}|MPTS", {})[t.team] = t.values[code] or ""
    teams = sorted(columns["rank"])
    rows = ["\t".join(["TPN", *columns])]
    rows += ["\t".join([str(team), *(col[team] for col in columns.values())]) for team in teams]
    out.write_text("\n".join(rows) + "\n")


# ----------------------------------------------------------------------------------------------
# Command line


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m flows.devtools.gacrux_oracle",
                                     description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("pair", help="pair the next round")
    p.add_argument("trf", type=Path)
    p.add_argument("--method")
    p.add_argument("--rounds", type=int)
    p = sub.add_parser("tiebreaks", help="team tie-break values")
    p.add_argument("trf", type=Path)
    p.add_argument("codes", nargs="*", default=list(STANDINGS_LIST))
    p = sub.add_parser("check", help="check the recorded rounds")
    p.add_argument("trf", type=Path)
    p = sub.add_parser("generate", help="a random team Swiss paired by Gacrux")
    p.add_argument("out", type=Path)
    p.add_argument("--teams", type=int, default=12)
    p.add_argument("--boards", type=int, default=4)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--played", type=int, help="stop after this many rounds (default: all)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--code", default="FIDE_TEAM_TYPEA_MP_GP")
    p.add_argument("--profile", choices=sorted(PROFILES), default="realistic")
    p = sub.add_parser("truncate", help="the file before a round was paired")
    p.add_argument("trf", type=Path)
    p.add_argument("round", type=int)
    p = sub.add_parser("corpus", help="write the reference data under DATA")
    p.add_argument("data", type=Path)
    p.add_argument("--count", type=int, default=30)
    p.add_argument("--seed", type=int, default=2026)
    sub.add_parser("version", help="the version of Gacrux that GACRUX_PYTHON runs")
    p = sub.add_parser("bench", help="seconds Gacrux takes to pair one round")
    p.add_argument("--teams", type=int, default=200)
    p.add_argument("--boards", type=int, default=4)
    p.add_argument("--played", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    if args.command == "pair":
        rnd, pairs = pair_next_round(args.trf, method=args.method, rounds=args.rounds)
        print(f"round {rnd}")
        for pair in pairs:
            print(pair.white, pair.black)
    elif args.command == "tiebreaks":
        teams = team_tiebreaks(args.trf, args.codes)
        print("\t".join(["TPN", "rank", *args.codes]))
        for t in teams:
            print("\t".join([str(t.team), str(t.rank), *(t.values[c] or "" for c in args.codes)]))
    elif args.command == "check":
        ok = True
        for check in check_rounds(args.trf):
            ok = ok and check.agrees
            print(f"round {check.round}: {'agrees' if check.agrees else 'differs'}")
            if not check.agrees:
                print("  gacrux:  ", " ".join(f"{p.white}-{p.black}" for p in check.gacrux))
                print("  recorded:", " ".join(f"{p.white}-{p.black}" for p in check.recorded))
        return 0 if ok else 1
    elif args.command == "generate":
        rng = random.Random(args.seed)
        event = new_event(rng, name=f"Generated team Swiss seed {args.seed}", teams=args.teams,
                          boards=args.boards, rounds=args.rounds, code=args.code,
                          seed=args.seed)
        with tempfile.TemporaryDirectory() as tmp:
            generate(event, rng, PROFILES[args.profile], Path(tmp), last=args.played)
        args.out.write_text(write_trf(event), encoding="latin-1")
    elif args.command == "truncate":
        event = read_trf(args.trf.read_text(encoding="latin-1"))
        sys.stdout.write(write_trf(truncate(event, args.round), args.round - 1))
    elif args.command == "version":
        print(gacrux_version())
    elif args.command == "corpus":
        make_corpus(args.data, args.count, args.seed)
    elif args.command == "bench":
        rng = random.Random(args.seed)
        event = new_event(rng, name=f"Bench {args.teams} teams", teams=args.teams,
                          boards=args.boards, rounds=9, code="FIDE_TEAM_TYPEA_MP_GP",
                          seed=args.seed)
        with tempfile.TemporaryDirectory() as tmp:
            for rnd in range(1, args.played + 1):
                path = Path(tmp) / "bench.trf"
                path.write_text(write_trf(event, rnd - 1), encoding="latin-1")
                t0 = time.perf_counter()
                _, pairs = pair_next_round(path)
                print(f"round {rnd}: {time.perf_counter() - t0:.2f} s", flush=True)
                play_round(rng, event, rnd, pairs, PROFILES["clean"])
            path.write_text(write_trf(event), encoding="latin-1")
            t0 = time.perf_counter()
            pair_next_round(path)
            print(f"round {args.played + 1}: {time.perf_counter() - t0:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""TRF-2026 team files (FIDE's Tournament Report File, team records; research note
docs/research/team-competitions.md section 5) read into the team rulebook's two frames: the team
card and the board card of :mod:`transforms.fide.team_tiebreaks`, which the team tie-breaks
(``chessfed standings --trf``) and the team Swiss engine (``chessfed pair --team``,
:mod:`transforms.fide.team_swiss.history`) read. A malformed record is an
:class:`~transforms.core.errors.InputError` naming its line.

Records read: ``001`` (the players' games), ``310`` (teams: pairing number, players in board
order; ``013`` when there is no ``310``), ``142`` rounds, ``162``/``362`` game and match
scoring, ``192`` tournament type, ``212`` ranking order, ``320`` pairing-allocated byes, ``330``
forfeited matches, ``352`` the colour sequence, ``042`` the start date.

A team's round, as Gacrux reads it: its players who met an opponent, in roster order, are its
boards 1, 2, ...; the opposing team is the team of their opponents. The match was played when a
board was played over the board (or both teams scored: boards forfeited each way); otherwise
it was forfeited, won by the team with more game points (a double forfeit when neither scored).
A ``320`` round is a pairing-allocated bye (its match and game points), anything else without
an opponent an absence.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from transforms.core.errors import InputError

GAME = {"1": 1.0, "W": 1.0, "+": 1.0, "F": 1.0, "=": 0.5, "D": 0.5, "H": 0.5}
OVER_THE_BOARD = set("1=0WDL")


@dataclass
class TeamTrf:
    """A TRF-2026 team file read into frames."""

    card: pl.DataFrame
    boards: pl.DataFrame
    match_points: tuple[float, float, float]
    primary: str
    rounds: int
    """The rounds the file records (the last with a game, a bye or a forfeited match): what
    the standings count. ``scheduled_rounds`` is record 142."""
    start: str
    type_code: str
    n_boards: int
    ranking: list[str] = field(default_factory=list)
    """The ``212`` record's codes."""
    names: dict[int, str] = field(default_factory=dict)
    """Each team's name (``310`` columns 9-40; ``013`` 5-36), by pairing number."""
    initial_colour: str = "W"
    """``152``: the initial colour drawn before round 1 (``W`` or ``B``)."""
    absent: dict[int, frozenset[int]] = field(default_factory=dict)
    """``240 Z`` (and ``F``/``H`` byes): the teams known absent in a round, by round."""
    name: str = ""
    """``012``: the tournament's name."""
    forfeited: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    """``330``: the forfeited matches of each round, (White team, Black team)."""
    scheduled_rounds: int = 0
    """``142``: the rounds the event is scheduled to have (0: not given)."""
    players: dict[int, dict[str, str]] = field(default_factory=dict)
    """Each ``001`` player by number: ``name``, ``sex``, ``title``, ``rating``, ``fed``,
    ``fide_id``, ``birth`` as written."""
    games: dict[int, dict[int, tuple[int, str, str]]] = field(default_factory=dict)
    """Each player's rounds: round -> (opponent's number, colour ``w``/``b``/``-``, result)."""
    rosters: dict[int, list[int]] = field(default_factory=dict)
    """Each team's players in board order (``310``)."""
    nicknames: dict[int, str] = field(default_factory=dict)
    """``310`` columns 42-46."""
    bye_points: tuple[float, float] | None = None
    """``320``: the pairing-allocated bye's match and game points, when the file has one."""
    byes: dict[int, int] = field(default_factory=dict)
    """``320``: round -> the team with the pairing-allocated bye."""

    def last_paired(self) -> int:
        """The last round with a match or a pairing-allocated bye (0: none)."""
        paired = self.card.filter(pl.col("kind").is_in(["played", "forfeit_win", "forfeit_loss", "PAB"]))
        return int(paired.select(pl.col("round").max()).item() or 0) if paired.height else 0

    def pairing_of(self, rnd: int) -> tuple[set[tuple[int, int]], int | None, frozenset[int]]:
        """Round ``rnd`` as the file records it: its matches (White team first: board 1's
        colour; a ``330`` forfeit as its record names them), the team with the
        pairing-allocated bye, and the teams not paired (absent or a full/half/zero-point
        bye)."""
        rows = self.card.filter(pl.col("round") == rnd)
        pairs = {(r["sno"], r["opponent"]) for r in rows.iter_rows(named=True)
                 if r["opponent"] is not None and (r["colour"] or "").lower() == "w"}
        pairs |= set(self.forfeited.get(rnd, []))
        bye = next((r["sno"] for r in rows.iter_rows(named=True) if r["kind"] == "PAB"), None)
        paired = {t for p in pairs for t in p} | ({bye} if bye is not None else set())
        absent = frozenset(int(t) for t in rows["sno"].to_list() if t not in paired)
        return pairs, bye, absent

    @property
    def round_robin(self) -> bool:
        return "ROUNDROBIN" in self.type_code


def _scoring(line: str) -> dict[str, float]:
    out = {}
    for pos in range(5, len(line) - 1, 9):
        sym, pts = line[pos].upper(), line[pos + 1:pos + 5].strip()
        if sym.strip() and pts:
            out[sym] = float(pts)
    return out


def is_team_file(text: str) -> bool:
    """FIDE TRF-2026 — a team file: ``310`` (or the older ``013``) team records, or a ``192`` type
    naming a team system."""
    lines = text.splitlines()
    return (any(line[:4] in ("310 ", "013 ") for line in lines)
            or any(line.startswith("192") and "TEAM" in line.upper() for line in lines))


def parse_team_trf(text: str, *, source: str = "") -> TeamTrf:
    """FIDE TRF-2026 (team records) — the team card and board card of a team file's text
    (``source``: its name, for errors). A record that cannot be read is an
    :class:`InputError` naming the file, the line and the record."""
    where: list[tuple[int, str]] = [(0, "")]
    try:
        return _read(text.splitlines(), source, where)
    except InputError:
        raise
    except (ValueError, IndexError, KeyError) as exc:
        no, line = where[0]
        raise InputError(source, no or None, line[:3], line.rstrip(),
                         f"not a TRF-2026 record this reader can read ({exc})") from None


def _read(lines: list[str], source: str, where: list[tuple[int, str]]) -> TeamTrf:
    names: dict[int, str] = {}
    initial, tname = "W", ""
    absent: dict[int, set[int]] = {}
    forfeited: dict[int, list[tuple[int, int]]] = {}
    scheduled = 0
    statics: dict[int, dict[str, str]] = {}
    nick: dict[int, str] = {}
    has_320 = False
    games: dict[int, dict[int, tuple[int, str, str]]] = {}
    rosters: dict[int, list[int]] = {}
    legacy: list[list[int]] = []
    match_score = {"W": 2.0, "D": 1.0, "L": 0.0}
    pab: dict[int, int] = {}
    pab_points = (1.0, 0.0)
    forfeits: dict[tuple[int, int], str] = {}
    rounds, start, type_code, seq, ranking = 0, "", "", "", []
    for no, line in enumerate(lines, start=1):
        where[0] = (no, line)
        tag = line[:3]
        if tag == "012":
            tname = line[4:].strip()
        elif tag == "152":
            initial = "B" if line[4:].strip().upper().startswith("B") else "W"
        elif tag == "240" and line[4:5].upper() in ("Z", "F", "H"):
            absent.setdefault(int(line[6:9]), set()).update(int(x) for x in line[10:].split())
        if tag == "001":
            pid = int(line[4:8])
            statics[pid] = {"sex": line[9:10].strip(), "title": line[10:13].strip(),
                            "name": line[14:47].strip(), "rating": line[48:52].strip(),
                            "fed": line[53:56].strip(), "fide_id": line[57:68].strip(),
                            "birth": line[69:79].strip()}
            games[pid] = {}
            for r, i in enumerate(range(99, len(line) + 1, 10), start=1):
                seg = line[i - 8:i]
                if seg.strip():
                    games[pid][r] = (int(seg[0:4] or 0), seg[5].lower(), seg[7].upper())
        elif tag == "310":
            names[int(line[4:7])] = line[8:40].strip()
            nick[int(line[4:7])] = line[41:46].strip()
            rosters[int(line[4:7])] = [int(line[i - 4:i]) for i in range(77, len(line) + 1, 5)
                                       if line[i - 4:i].strip()]
        elif tag == "013":
            names.setdefault(len(legacy) + 1, line[4:36].strip())
            legacy.append([int(line[i - 4:i]) for i in range(40, len(line) + 1, 5)
                           if line[i - 4:i].strip()])
        elif tag == "142":
            rounds = scheduled = int(line[4:].strip())
        elif tag == "042":
            start = line[4:].strip()
        elif tag == "192":
            type_code = line[4:].strip().upper()
        elif tag == "352":
            seq = line[4:].strip()
        elif tag == "212":
            ranking = [x for x in line[4:].replace(",", " ").split() if x]
        elif tag == "362":
            match_score.update(_scoring(line))
        elif tag == "320":
            pab_points = (float(line[4:8]), float(line[9:13]))
            has_320 = True
            for r, i in enumerate(range(17, len(line) + 1, 4), start=1):
                if line[i - 3:i].strip() and int(line[i - 3:i]):
                    pab[r] = int(line[i - 3:i])
        elif tag == "330":
            codes = {"10": "WZ", "WL": "WZ", "WZ": "WZ", "+-": "WZ", "00": "ZZ", "LL": "ZZ",
                    "ZZ": "ZZ", "--": "ZZ", "01": "ZW", "LW": "ZW", "ZW": "ZW", "-+": "ZW"}
            rnd, white, black = int(line[7:10]), int(line[11:14]), int(line[15:18])
            forfeited.setdefault(rnd, []).append((white, black))
            forfeits[(rnd, white)] = codes[line[4:6].upper()][0]
            forfeits[(rnd, black)] = codes[line[4:6].upper()][1]
    where[0] = (0, "")
    if not rosters:
        rosters = {i: players for i, players in enumerate(legacy, start=1)}
    if not rosters:
        raise InputError(source, None, "310", "", "no team records (310, or the older 013): "
                         "not a team file")
    team_of = {p: t for t, players in rosters.items() for p in players}
    # the rounds the file records (a game, a bye, a forfeited match); 142 is scheduled_rounds
    rounds = max([0] + [r for g in games.values() for r in g if g[r][0] > 0 or g[r][2] in GAME]
                 + list(pab) + [r for (r, _) in forfeits])
    n_boards = len(seq) or max(len(p) for p in rosters.values())
    win, draw, loss = match_score["W"], match_score["D"], match_score["L"]

    # each team's boards in each round: (board, opponent team, colour, result)
    boards: dict[tuple[int, int], list[tuple[int, int, str, str]]] = {}
    for t, players in rosters.items():
        for r in range(1, rounds + 1):
            met = [games.get(p, {}).get(r) for p in players]
            met_games = [g for g in met if g is not None and g[0] > 0]
            boards[(t, r)] = [(b, team_of[g[0]], g[1], g[2])
                              for b, g in enumerate(met_games[:n_boards], start=1)]
    gp = {k: sum(GAME.get(x[3], 0.0) for x in v) for k, v in boards.items()}
    rows, board_rows = [], []
    for (t, r), bs in sorted(boards.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        row: dict[str, Any] = {"round": r, "sno": t, "opponent": None, "colour": None, "mp": 0.0, "gp": 0.0,
               "opp_gp": None, "kind": "absent", "boards": n_boards}
        if bs:
            opp = Counter(x[1] for x in bs).most_common(1)[0][0]
            own, other = gp[(t, r)], gp[(opp, r)]
            played = any(x[3] in OVER_THE_BOARD for x in bs) or (own > 0 and other > 0)
            if played:
                kind = "played"
                mp = win if own > other else loss if own < other else draw if own > 0 else loss
            elif own > other:
                kind, mp = "forfeit_win", win
            else:
                kind, mp = "forfeit_loss", 0.0
            row.update(opponent=opp, colour=bs[0][2], mp=mp, gp=own, opp_gp=other, kind=kind)
            board_rows += [{"round": r, "sno": t, "board": b, "points": GAME.get(res, 0.0),
                            "played": res in OVER_THE_BOARD} for b, _, _, res in bs]
        elif (r, t) in forfeits:
            won = forfeits[(r, t)] == "W"
            row.update(kind="forfeit_win" if won else "forfeit_loss", mp=win if won else 0.0,
                       gp=float(n_boards) if won else 0.0)
        elif pab.get(r) == t:
            row.update(kind="PAB", mp=pab_points[0], gp=pab_points[1])
        rows.append(row)
    card = pl.DataFrame(rows, schema={
        "round": pl.Int64, "sno": pl.Int64, "opponent": pl.Int64, "colour": pl.String,
        "mp": pl.Float64, "gp": pl.Float64, "opp_gp": pl.Float64, "kind": pl.String,
        "boards": pl.Int64})
    board_card = pl.DataFrame(board_rows, schema={
        "round": pl.Int64, "sno": pl.Int64, "board": pl.Int64, "points": pl.Float64,
        "played": pl.Boolean})
    primary = ("MP" if "_MP_GP" in type_code else
               "GP" if "_GP_MP" in type_code or type_code.endswith("_GP") else "MP")
    if ranking and ranking[0].upper().split(":")[0] in ("MPTS", "GPTS"):
        primary = ranking[0].upper()[:2]
    return TeamTrf(card, board_card, (win, draw, loss), primary, rounds, start, type_code,
                   n_boards, ranking, names=names, initial_colour=initial,
                   absent={r: frozenset(t) for r, t in absent.items()}, name=tname,
                   forfeited=forfeited, scheduled_rounds=scheduled, players=statics, games=games,
                   rosters=rosters, nicknames=nick, bye_points=pab_points if has_320 else None,
                   byes=dict(pab))

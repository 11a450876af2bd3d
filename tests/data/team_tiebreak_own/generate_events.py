"""Writes the generated team events of this folder as TRF-2026 files (see SOURCE.md).

Each event is drawn from a seeded random generator: teams with a roster in board order (no
reserves), matches of ``boards`` boards with alternating colours (record 352), board results
over the board, now and then a board forfeited, a whole match forfeited (every board ``+``/``-``,
or ``-``/``-`` for a double forfeit), a team absent for a round (its players' rounds ``0000 - -``)
and, in a Swiss with an odd number of teams present, a pairing-allocated bye (record 320). The
pairings are not those of FIDE C.04.6: tie-breaks do not need them to be. A round robin pairs by
the circle method.

Run from the repository root: ``python tests/data/team_tiebreak_own/generate_events.py``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Spec:
    """One generated event."""

    name: str
    seed: int
    teams: int
    boards: int
    rounds: int
    round_robin: bool = False
    primary: str = "MP"
    match_points: tuple[float, float, float] = (2.0, 1.0, 0.0)
    pab: tuple[float, float] | None = None
    """The match and game points of a pairing-allocated bye; None: a win on every board."""
    start: str = "2025/05/01"
    """Record 042: before 2026-03-01 FIDE TEC's calculator applies C.07 2024, after it 2026."""
    p_board_forfeit: float = 0.04
    p_match_forfeit: float = 0.05
    p_double_forfeit: float = 0.02
    p_absent: float = 0.05
    withdrawals: tuple[tuple[int, int], ...] = ()
    """(team, first round it does not play): absent from then on."""


SPECS = (
    Spec("swiss_6t_4b_5r_2024", 101, 6, 4, 5),
    Spec("swiss_7t_3b_5r_2026", 102, 7, 3, 5, start="2026/05/01"),
    Spec("swiss_8t_4b_6r_2024_gp", 103, 8, 4, 6, primary="GP"),
    Spec("swiss_9t_2b_6r_2026_pabdraw", 104, 9, 2, 6, pab=(1.0, 1.0), start="2026/05/01"),
    Spec("swiss_10t_4b_7r_2024_310", 105, 10, 4, 7, match_points=(3.0, 1.0, 0.0)),
    Spec("swiss_8t_3b_6r_2026_withdrawals", 106, 8, 3, 6, start="2026/05/01",
         withdrawals=((3, 4), (6, 5), (8, 6))),
    Spec("swiss_11t_4b_7r_2026", 107, 11, 4, 7, start="2026/05/01", p_match_forfeit=0.08),
    Spec("swiss_8t_2b_7r_2024_rematch", 108, 8, 2, 7),
    Spec("rr_6t_4b_2024", 109, 6, 4, 5, round_robin=True, p_absent=0.0, p_match_forfeit=0.1),
    Spec("rr_4t_3b_2026_gp_double", 110, 4, 3, 6, round_robin=True, primary="GP",
         start="2026/05/01", p_absent=0.0),
    Spec("swiss_12t_4b_9r_2026", 111, 12, 4, 9, start="2026/05/01"),
    Spec("swiss_6t_3b_6r_2024_forfeits", 112, 6, 3, 6, p_match_forfeit=0.2,
         p_double_forfeit=0.08, p_board_forfeit=0.1),
    Spec("swiss_9t_4b_7r_2026_gp_absences", 113, 9, 4, 7, primary="GP", start="2026/05/01",
         p_absent=0.12, p_match_forfeit=0.1, pab=(2.0, 2.0)),
    Spec("rr_6t_2b_2024_310_forfeits", 114, 6, 2, 5, round_robin=True, p_absent=0.0,
         match_points=(3.0, 1.0, 0.0), p_match_forfeit=0.15, p_double_forfeit=0.05),
)

GAME = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0}
OTHER = {"1": "0", "=": "=", "0": "1", "+": "-", "-": "+"}


def circle(n: int, rounds: int) -> list[list[tuple[int, int]]]:
    """Round robin pairings of teams 1..n (n even) by the circle method."""
    teams = list(range(1, n + 1))
    out = []
    for r in range(rounds):
        pairs = []
        for i in range(n // 2):
            a, b = teams[i], teams[n - 1 - i]
            pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))
        out.append(pairs)
        teams = [teams[0], teams[-1], *teams[1:-1]]
    return out


def swiss_round(rng: random.Random, present: list[int], mp: dict[int, float],
                met: set[tuple[int, int]], had_pab: set[int]) -> tuple[list[tuple[int, int]], int]:
    """Pairs ``present`` by match points, avoiding rematches where it can; returns the pairs and
    the team given the pairing-allocated bye (0: none)."""
    order = sorted(present, key=lambda t: (-mp[t], rng.random()))
    bye = 0
    if len(order) % 2:
        candidates = [t for t in reversed(order) if t not in had_pab] or list(reversed(order))
        bye = candidates[0]
        order.remove(bye)
    pairs: list[tuple[int, int]] = []
    rest = order[:]
    while rest:
        a = rest.pop(0)
        j = next((k for k, b in enumerate(rest) if (min(a, b), max(a, b)) not in met), 0)
        b = rest.pop(j)
        pairs.append((a, b) if rng.random() < 0.5 else (b, a))
    return pairs, bye


def board_results(rng: random.Random, spec: Spec, boards: int) -> list[str]:
    """The first-named team's result on each board."""
    x = rng.random()
    if x < spec.p_double_forfeit:
        return ["--"] * boards
    if x < spec.p_double_forfeit + spec.p_match_forfeit:
        return ["+"] * boards if rng.random() < 0.5 else ["-"] * boards
    res = [rng.choice("110==00") for _ in range(boards)]
    for i in range(boards):
        if rng.random() < spec.p_board_forfeit:
            res[i] = rng.choice("+-")
    if all(r in "+-" for r in res):
        res[0] = "="
    return res


@dataclass
class Round:
    """One round: its matches (first-named team, other team, the first team's board results),
    the team given the pairing-allocated bye (0: none) and the teams absent."""

    matches: list[tuple[int, int, list[str]]]
    bye: int = 0
    absent: list[int] = field(default_factory=list)


def schedule(spec: Spec) -> list[Round]:
    """The rounds of a generated event."""
    rng = random.Random(spec.seed)
    n, nb = spec.teams, spec.boards
    win, draw, loss = spec.match_points
    pab_mp = spec.pab[0] if spec.pab is not None else win
    mp = {t: 0.0 for t in range(1, n + 1)}
    met: set[tuple[int, int]] = set()
    had_pab: set[int] = set()
    rr = circle(n, spec.rounds) if spec.round_robin else []
    out = []
    for r in range(1, spec.rounds + 1):
        if spec.round_robin:
            pairs, bye, absent = rr[r - 1], 0, []
        else:
            gone = {t for t, first in spec.withdrawals if r >= first}
            absent = [t for t in range(1, n + 1)
                      if t in gone or (r > 1 and rng.random() < spec.p_absent)]
            present = [t for t in range(1, n + 1) if t not in absent]
            pairs, bye = swiss_round(rng, present, mp, met, had_pab)
        if bye:
            had_pab.add(bye)
            mp[bye] += pab_mp
        matches = []
        for a, c in pairs:
            met.add((min(a, c), max(a, c)))
            res = board_results(rng, spec, nb)
            matches.append((a, c, res))
            if all(x == "--" for x in res):
                continue
            ga = sum(GAME[x] for x in res if x != "--")
            gc = sum(GAME[OTHER[x]] for x in res if x != "--")
            mp[a] += win if ga > gc else draw if ga == gc else loss
            mp[c] += win if gc > ga else draw if ga == gc else loss
        out.append(Round(matches, bye, absent))
    return out


def write_trf(spec: Spec, rounds: list[Round]) -> str:
    """The TRF-2026 team file of ``rounds``."""
    n, nb = spec.teams, spec.boards
    win, draw, loss = spec.match_points
    pab_mp, pab_gp = spec.pab if spec.pab is not None else (win, float(nb))
    pid = {(t, b): (t - 1) * nb + b for t in range(1, n + 1) for b in range(1, nb + 1)}
    entries: dict[int, list[str]] = {p: [] for p in pid.values()}
    mp = {t: 0.0 for t in range(1, n + 1)}
    gp = {t: 0.0 for t in range(1, n + 1)}
    for rnd in rounds:
        if rnd.bye:
            mp[rnd.bye] += pab_mp
            gp[rnd.bye] += pab_gp
            for b in range(1, nb + 1):
                entries[pid[(rnd.bye, b)]].append("        ")
        for t in rnd.absent:
            for b in range(1, nb + 1):
                entries[pid[(t, b)]].append("0000 - -")
        for a, c, res in rnd.matches:
            ga = gc = 0.0
            for b in range(1, nb + 1):
                ra = res[b - 1]
                rc = "-" if ra == "--" else OTHER[ra]
                ra = "-" if ra == "--" else ra
                colour_a = "w" if b % 2 else "b"
                colour_c = "b" if b % 2 else "w"
                entries[pid[(a, b)]].append(f"{pid[(c, b)]:4d} {colour_a} {ra}")
                entries[pid[(c, b)]].append(f"{pid[(a, b)]:4d} {colour_c} {rc}")
                ga += GAME[ra]
                gc += GAME[rc]
            gp[a] += ga
            gp[c] += gc
            if all(x == "--" for x in res):
                continue
            mp[a] += win if ga > gc else draw if ga == gc else loss
            mp[c] += win if gc > ga else draw if ga == gc else loss
    lines = [
        f"012 chessfed {'constructed' if spec.seed == 0 else 'generated'} team event {spec.name}",
        "022 Generated",
        "032 FID",
        f"042 {spec.start}",
        f"052 {spec.start}",
        "092 Team " + ("Round Robin" if spec.round_robin else "Swiss"),
        "102 Generator, chessfed",
        f"142 {spec.rounds}",
        "162  W 1.0    D 0.5    L 0.0",
        "192 " + ("FIDE_TEAM_ROUNDROBIN" if spec.round_robin
                  else "FIDE_TEAM_MP_GP" if spec.primary == "MP" else "FIDE_TEAM_GP_MP"),
        "212 " + ("MPTS" if spec.primary == "MP" else "GPTS"),
        "352 " + "".join("W" if b % 2 else "B" for b in range(1, nb + 1)),
        f"362  W{win:4.1f}    D{draw:4.1f}    L{loss:4.1f}",
    ]
    for (t, b), p in sorted(pid.items(), key=lambda kv: kv[1]):
        pts = sum(GAME[e[7]] for e in entries[p] if e.strip() and e[7] in GAME)
        name = f"Team{t:02d}, Board{b}"
        head = f"001 {p:4d} m    {name:<33} 2000 FID {10000000 + p:11d} 2000/01/01 {pts:4.1f} {p:4d}"
        lines.append(head + "".join("  " + e for e in entries[p]).rstrip())
    for t in range(1, n + 1):
        players = " ".join(f"{pid[(t, b)]:4d}" for b in range(1, nb + 1))
        lines.append(f"310 {t:3d} {'Team ' + str(t):<32} {'T' + str(t):<5} {2000:6d} "
                     f"{mp[t]:6.1f} {gp[t]:6.1f} {t:3d}  {players}")
    if any(r.bye for r in rounds):
        lines.append(f"320 {pab_mp:4.1f} {pab_gp:4.1f}" + "".join(f" {r.bye:3d}" for r in rounds))
    return "\n".join(lines) + "\n"


EDE_RESTART = Spec("constructed_rr_6t_4b_ede_restart", 0, 6, 4, 5, round_robin=True)
"""A team round robin built so that EDE's 13.3.3 matters: every team has 5 match points;
game points split them into 4 (13), {1, 2, 3} (10), 6 (9.5), 5 (7.5); among 1, 2 and 3 the
match points order 1, 2, 3 (1 beat both) and the game points 2, 1, 3 (2 beat 3 4-0)."""
_EDE_RESTART_MATCHES = {
    (1, 2): "11=0", (1, 3): "11=0", (2, 3): "1111", (1, 4): "10==", (1, 5): "10=0",
    (1, 6): "10=0", (2, 4): "11=0", (2, 5): "10==", (2, 6): "0000", (3, 4): "11=0",
    (3, 5): "1111", (3, 6): "10==", (4, 5): "1111", (4, 6): "1111", (5, 6): "1110",
}
"""The first-named team's results on boards 1-4 (``11=0``: 2.5-1.5, ``10=0``: 1.5-2.5, ...)."""


def constructed_rounds() -> list[Round]:
    """The round robin of :data:`EDE_RESTART` in the circle method's rounds."""
    out = []
    for pairs in circle(6, 5):
        matches = []
        for a, c in pairs:
            first, second = min(a, c), max(a, c)
            matches.append((first, second, list(_EDE_RESTART_MATCHES[(first, second)])))
        out.append(Round(matches))
    return out


def generate(spec: Spec) -> str:
    return write_trf(spec, schedule(spec))


def main() -> None:
    for spec in SPECS:
        (HERE / f"{spec.name}.trf").write_text(generate(spec), encoding="utf-8")
    (HERE / f"{EDE_RESTART.name}.trf").write_text(write_trf(EDE_RESTART, constructed_rounds()),
                                                   encoding="utf-8")


if __name__ == "__main__":
    main()

"""Writes the committed demo inputs (deterministic: same files every time): ``make
demo-inputs`` (``python -m flows.devtools.demo_inputs inputs``)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import polars as pl

from flows import io
from flows.devtools.demo.circuit import write_circuit_inputs
from flows.devtools.demo.club import demo_club_championship_files, demo_club_open_files
from flows.devtools.demo.games import demo_games, demo_section_games, demo_team_games
from flows.devtools.demo.golden_knights import demo_files
from flows.devtools.demo.league import demo_league_files
from flows.devtools.demo.national_junior import demo_national_junior_files
from flows.devtools.demo.norms_open import demo_norms_open_files
from flows.devtools.demo.team_swiss import demo_team_swiss_files
from flows.devtools.simulate import simulate
from transforms.golden_knights.rules import GKRules
from transforms.kinds import parse_event_config
from transforms.team.config import TeamRoundRobinConfig, TeamRules

DEMO_NO_SHOWS = frozenset({("open", 4)})
"""The demo's one scripted event: a no-show in round 4 of the Open (a forfeit win for White on
the first board still to be played), so that the demo shows a forfeit in the standings, the
crosstable, the TRF and the tie-breaks."""

CLUB_ROUNDS_PLAYED = {"club-open-2025": 4, "club-championship-2025": 6, "harbour-open-2026": 9,
                     "district-league-2025": 4, "county-team-championship-2026": 3}
"""The rounds the club events have played as of their event.toml's ``as_of`` (the run pairs
the next one)."""


def write_demo_inputs(folder: Path) -> list[Path]:
    nj = folder / "national-junior-2024"
    players, associations, withdrawals, byes = demo_national_junior_files()
    written = [
        io.atomic_write(nj / "players.csv", players.write_csv()),
        io.atomic_write(nj / "associations.csv", associations.write_csv()),
        io.atomic_write(nj / "withdrawals.csv", withdrawals.write_csv()),
        io.atomic_write(nj / "bye_requests.csv", byes.write_csv()),
    ]
    # The results are played by our own engine: flows.devtools.simulate (seeded) through round 11.
    (nj / "results.csv").unlink(missing_ok=True)
    simulate(nj, no_shows=DEMO_NO_SHOWS)
    written.append(nj / "results.csv")
    gk = folder / "golden-knights-2019"
    cfg = parse_event_config((gk / "event.toml").read_text(encoding="utf-8"), file=str(gk / "event.toml"))
    assert cfg.table(GKRules) is not None
    files = demo_files(cfg.table(GKRules), seed=2019, event_year=cfg.event.start.year)
    # One decision of the director (GK rule 7), so the demo shows an override at work.
    files["overrides.csv"] = pl.DataFrame([{
        "kind": "result", "stage": "preliminary", "section": "P02", "entry_id": "GK19-0143",
        "opponent": "GK19-0144", "value": "1/2-1/2",
        "note": "adjudicated a draw by the CCD on appeal (demo)"}])
    for name, frame in files.items():
        written.append(io.atomic_write(gk / name, frame.write_csv()))
    # The first final section's games as its server exports them (game pages linked from its
    # crosstable, the bulletin's games: [games] in its event.toml).
    names = dict(files["entries.csv"].join(files["members.csv"], on="member_id")
                 .select("entry_id", "name").iter_rows())
    (gk / "games").mkdir(exist_ok=True)
    written.append(io.atomic_write(gk / "games" / "final-F01.pgn", demo_section_games(
        files["games.csv"], names, stage="final", section="F01", event="Golden Knights 2019, Final F01",
        date="2024.01.02")))
    # A plain FIDE Swiss and a round robin (flows/devtools/demo/club.py), partly played.
    for event, club_files in (("club-open-2025", demo_club_open_files()),
                              ("club-championship-2025", demo_club_championship_files()),
                              ("harbour-open-2026", demo_norms_open_files())):
        for name, frame in club_files.items():
            written.append(io.atomic_write(folder / event / name, frame.write_csv()))
        (folder / event / "results.csv").unlink(missing_ok=True)
        simulate(folder / event, through=CLUB_ROUNDS_PLAYED[event])
        written.append(folder / event / "results.csv")
    # The club open's games of round 1 as PGN (flows/devtools/demo/games.py): game pages, the
    # PGN downloads and the bulletin's games ([games] in its event.toml).
    written.append(write_demo_games(folder / "club-open-2025"))
    # A team league in two divisions (flows/devtools/demo/league.py), four rounds played.
    league = folder / "district-league-2025"
    cfg = parse_event_config((league / "event.toml").read_text(encoding="utf-8"),
                             file=str(league / "event.toml"))
    files = demo_league_files(cfg.require(TeamRules), cfg.require(TeamRoundRobinConfig),
                              through=CLUB_ROUNDS_PLAYED["district-league-2025"])
    for name, frame in files.items():
        written.append(io.atomic_write(league / name, frame.write_csv()))
    # Its round 1 games of two matches as PGN: the team kind's game pages and bulletin games.
    written.append(write_demo_team_games(league))
    # A team Swiss (flows/devtools/demo/team_swiss.py), three rounds played.
    county = folder / "county-team-championship-2026"
    cfg = parse_event_config((county / "event.toml").read_text(encoding="utf-8"),
                             file=str(county / "event.toml"))
    files = demo_team_swiss_files(cfg, through=CLUB_ROUNDS_PLAYED["county-team-championship-2026"])
    for name, frame in files.items():
        written.append(io.atomic_write(county / name, frame.write_csv()))
    # A series over the club's monthly rapids (flows/devtools/demo/circuit.py): two TRF files,
    # two event folders.
    written += write_circuit_inputs(folder)
    return written


def write_demo_games(event: Path) -> Path:
    """``games/round-01.pgn`` of the event, from its results.csv and players.csv."""
    return write_round_one_games(event, "players.csv", demo_games)


def write_demo_team_games(event: Path) -> Path:
    """``games/round-01.pgn`` of a team event, from its results.csv and rosters.csv."""
    return write_round_one_games(event, "rosters.csv", demo_team_games)


def write_round_one_games(event: Path, players: str, make: Callable[..., str]) -> Path:
    """``games/round-01.pgn`` of the event as ``make`` writes it from its results.csv (rounds
    and boards as numbers) and its players file (``players``), named and dated as the event."""
    cfg = parse_event_config((event / "event.toml").read_text(encoding="utf-8"))
    text = make(pl.read_csv(event / "results.csv", infer_schema_length=0).with_columns(
                    pl.col("round").cast(pl.Int64), pl.col("board").cast(pl.Int64)),
                pl.read_csv(event / players, infer_schema_length=0),
                event=cfg.event.name, date=f"{cfg.event.start:%Y.%m.%d}")
    (event / "games").mkdir(exist_ok=True)
    return io.atomic_write(event / "games" / "round-01.pgn", text)


def main(argv: list[str]) -> int:
    for path in write_demo_inputs(Path(argv[0] if argv else "inputs")):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

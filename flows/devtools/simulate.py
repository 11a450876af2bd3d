"""``python -m flows.devtools.simulate EVENT`` — play a Swiss event's rounds with our own pairing engine and results
drawn from rating expectancy (seeded), appending them to results.csv. For demos and tests:
a real event's results come from the arbiters."""

from __future__ import annotations

import argparse
import datetime as dt
import random
import sys
from pathlib import Path

import polars as pl

from flows import io
from flows.site.render import plural
from flows.verify.games import draw_game
from transforms.kinds import parse_event_config
from transforms.round_robin.config import RoundRobinConfig
from transforms.swiss.config import SwissConfig
from transforms.swiss.rounds import pairing_rows

RESULT_COLUMNS = ["round", "board", "white_id", "black_id", "result", "moves", "draw_consent"]
FORFEIT_RATE = 0.004
"""Share of games simulated as won by forfeit (a no-show)."""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m flows.devtools.simulate",
                                description="play a Swiss event's rounds with seeded results")
    p.add_argument("event", type=Path, help="the event folder (with event.toml)")
    p.add_argument("--through", type=int, default=None, help="last round to play (default: all)")
    p.add_argument("--seed", type=int, default=None, help="default: [swiss] simulation_seed")
    return p


def _play(rows: pl.DataFrame, ratings: dict[str, int], rng: random.Random,
          force_forfeit: bool) -> list[dict]:
    out = []
    for rec in rows.sort("board").iter_rows(named=True):
        rec = {k: rec.get(k) for k in RESULT_COLUMNS}
        if rec["result"] is None and rec["black_id"] is not None:
            if force_forfeit or rng.random() < FORFEIT_RATE:
                rec["result"], force_forfeit = "+/-", False
            else:
                res, moves = draw_game(ratings.get(rec["white_id"]) or 0, ratings.get(rec["black_id"]) or 0, rng)
                rec["result"], rec["moves"] = res, moves
                if res == "1/2-1/2" and moves < 30:
                    rec["draw_consent"] = rng.random() < 0.5
        out.append(rec)
    return out


def _text(v: object) -> str | None:
    if v is None:
        return None
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def simulate(event: Path, *, through: int | None = None, seed: int | None = None,
             no_shows: frozenset[tuple[str, int]] = frozenset()) -> int:
    """Play rounds until ``through`` (default: the event's last); returns rounds played.

    ``no_shows`` (category id, round): in that round of that category the first game still to
    be played is won by White by forfeit (the demo uses one, so that its outputs show a
    forfeit); every other forfeit comes from the seeded FORFEIT_RATE."""
    from transforms.swiss import event as swiss

    cfg = parse_event_config((event / "event.toml").read_text(encoding="utf-8"), file=str(event / "event.toml"))
    assert cfg.table(SwissConfig) is not None or cfg.table(RoundRobinConfig) is not None, \
        "simulate runs Swiss events and round robins"
    seed = (cfg.require(SwissConfig).simulation_seed if cfg.table(SwissConfig) is not None else 1) if seed is None else seed
    as_of = cfg.event.as_of or dt.date.today()
    played = 0
    while True:
        raw = {n: io.read_csv_strings(event / n) for n in cfg.files if (event / n).exists()}
        run = swiss.prepare(cfg, raw, as_of)
        if run.blocked:
            raise SystemExit(f"{event}: {run.blocked}")
        last = max(c.rounds for c in run.categories)  # a round robin's follow from its players
        r = min(c.done for c in run.categories) + 1
        if r > min(through or last, last):
            return played
        new: list[dict] = []
        for c in run.categories:
            rng = random.Random(f"{seed}/{c.cat.id}/{r}")
            rows = c.results.filter(pl.col("round") == r)
            if rows.height == 0 and c.done + 1 == r:
                _, boards, setup, _log = swiss.next_pairing(run, c)
                rows = pairing_rows(boards, setup, c.players, r)
            ratings = dict(zip(c.players["player_id"], c.players["rating"].fill_null(0)))
            new += _play(rows, ratings, rng, force_forfeit=(c.cat.id, r) in no_shows)
        old = run.typed.get("results.csv")
        keep = [] if old is None else [
            {k: rec[k] for k in RESULT_COLUMNS} for rec in old.iter_rows(named=True) if rec["round"] != r]
        rows_out = sorted(keep, key=lambda x: x["round"]) + new
        frame = pl.DataFrame([{k: _text(v) for k, v in rec.items()} for rec in rows_out],
                             schema={k: pl.String for k in RESULT_COLUMNS})
        io.atomic_write(event / "results.csv", frame.write_csv())
        played += 1


def run(args: argparse.Namespace) -> int:
    n = simulate(args.event, through=args.through, seed=args.seed)
    print(f"{args.event}: played {plural(n, 'round')}")
    return 0


if __name__ == "__main__":
    sys.exit(run(parser().parse_args()))

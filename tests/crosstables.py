"""Scorecards drawn as crosstables, the way the tests draw them in their comments: one line per
player, ``sno: entry entry …``, one entry per round —

- ``3w1``, ``3b½``, ``3w0``: a game against start number 3 with White or Black, and its points;
- ``+3w`` / ``-3b``: a forfeit won or lost against 3 (with the colour of the pairing);
- ``PAB``, ``FPB``, ``HPB``, ``ZPB``: a bye of that kind (FIDE C.04.1, C.07 16);
- ``--``: absent.

The one helper the rulebook tiers share (tie-breaks, rating changes, standings)."""

from __future__ import annotations

import polars as pl

from transforms.core.model import SCORECARD_SCHEMA

POINTS = {"1": 1.0, "½": 0.5, "0": 0.0}
BYES = {"PAB": 1.0, "FPB": 1.0, "HPB": 0.5, "ZPB": 0.0}


def card(table: str) -> pl.DataFrame:
    """The scorecard (one row per player and round) of the crosstable ``table``."""
    rows = []
    for line in table.strip().splitlines():
        sno_t, entries = line.split(":")
        for rnd, e in enumerate(entries.split(), start=1):
            row: dict[str, object] = {"round": rnd, "sno": int(sno_t), "opponent": None, "colour": None}
            if e in BYES:
                row |= {"points": BYES[e], "kind": e}
            elif e == "--":
                row |= {"points": 0.0, "kind": "absent"}
            elif e[0] in "+-":
                row |= {"opponent": int(e[1:-1]), "colour": e[-1],
                        "points": 1.0 if e[0] == "+" else 0.0,
                        "kind": "forfeit_win" if e[0] == "+" else "forfeit_loss"}
            else:
                row |= {"opponent": int(e[:-2]), "colour": e[-2], "points": POINTS[e[-1]],
                        "kind": "played"}
            rows.append(row)
    return pl.DataFrame(rows, schema=SCORECARD_SCHEMA)

"""Writes the committed demo inputs (deterministic: same files every time)."""

from __future__ import annotations

from pathlib import Path

from flows import io
from transforms.demo_data import demo_national_junior


def write_demo_inputs(folder: Path) -> list[Path]:
    nj = folder / "national-junior-2024"
    players, associations = demo_national_junior()
    return [
        io.atomic_write(nj / "players.csv", players.write_csv()),
        io.atomic_write(nj / "associations.csv", associations.write_csv()),
    ]

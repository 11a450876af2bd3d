"""The office's view of a Swiss event's games (issue 48, first part): ``office/games.csv`` and
``office/games.html``, every game of ``games/*.pgn`` with the pairing it matched, or why not
(the reasons are the validation report's rows). Nothing of the games is public yet: their
pages, the viewer and the bulletin come next."""

from __future__ import annotations

import polars as pl

from flows.io import csv_text
from flows.site.pages import OFFICE, Publication
from flows.site.present import Section, table_from_frame
from flows.site.render import plural
from transforms.swiss.event import SwissRun

SHOWN = [("file", "File"), ("game", "Game"), ("line", "Line"), ("round_tag", "Round tag"),
         ("white", "White (PGN)"), ("black", "Black (PGN)"), ("result", "PGN result"),
         ("section", "Category"), ("round", "Round"), ("board", "Board"),
         ("white_sno", "White no."), ("black_sno", "Black no."), ("recorded", "results.csv"),
         ("plies", "Half-moves"), ("status", "Status")]
"""The columns of the office's games page, in order."""


def games_status(games: pl.DataFrame) -> pl.DataFrame:
    """Each game's status in the office's words: matched and ready to publish, matched but
    held (a finding says why), or unmatched."""
    return games.with_columns(
        pl.when(pl.col("usable")).then(pl.lit("matched"))
        .when(pl.col("matched")).then(pl.lit("matched, not published (see the validation report)"))
        .otherwise(pl.lit("no pairing (see the validation report)")).alias("status"),
        pl.when(pl.col("usable")).then(pl.lit(None, pl.String)).otherwise(pl.lit("flag")).alias("_css"))


def publish_games(pub: Publication, run: SwissRun) -> None:
    """The office's games files (none when the event has no games folder): ``games.csv`` (the
    games frame without the PGN text) and ``games.html``; the manifest's notes count them."""
    if run.games is None:
        return
    frame = games_status(run.games)
    pub.files[f"{OFFICE}games.csv"] = csv_text(frame.drop("pgn", "_css"))
    matched, usable = int(frame["matched"].sum()), int(frame["usable"].sum())
    said = (f"{plural(frame.height, 'game')} in games/: {matched} matched to their pairings, "
            f"{usable} ready to publish, {frame.height - matched} without a pairing")
    pub.outcome.notes.append(said)
    section = Section("Games", intro=[
        said + ". A bye entry (an opponent named BYE) that agrees with results.csv is not a "
        "game and is not listed. Why a game is held or has no pairing: the validation report."],
        tables=[table_from_frame(frame, SHOWN, numeric=["game", "line", "round", "board", "white_sno",
                                                        "black_sno", "plies"], row_css="_css",
                                 empty="No game in games/.")])
    pub.page(f"{OFFICE}games.html", title="Games", subtitle="", sections=[section], pdf=False)

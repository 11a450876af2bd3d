"""The pages and bulletin sections of a Swiss event (presentation only: every value is
computed by transforms into the run — ``SwissRun``/``CategoryRun`` of
:mod:`transforms.swiss.event`; this module picks columns, labels and links).

Round pages (``pairings/round-NN``, ``standings/round-NN``) hold both categories, one section
each with the category's id as anchor (``standings/round-05.html#girls``); every player name
links to the player's page (:mod:`flows.kinds.swiss.players`). A round's printed documents
(the standings PDF, the hall sheet of its pairings) carry nothing that a later round changes,
so they are rendered once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import polars as pl

from flows.io import csv_text
from flows.kinds.swiss import ratings as swiss_ratings
from flows.kinds.swiss.common import (
    COLOUR,
    KIND_LABEL,
    boards_by_player,
    columns_for,
    game_rel,
    href,
    list_rel,
    tiebreak_name,
    with_player_href,
)
from flows.kinds.swiss.parts import SwissPart
from flows.site import render
from flows.site.pages import LinkGroup, Publication, group_key
from flows.site.present import Section, Table, fmt, table_from_frame
from transforms.core.model import Kind
from transforms.round_robin.config import RoundRobinConfig
from transforms.swiss.config import SwissConfig
from transforms.swiss.progress import EQUAL_AFTER_ALL

__all__ = ["Section"]

PRINTED_ROUND = {"prev": "", "next": "", "as_of": "", "jumps": []}
"""What a round's printed document leaves out of its page: the navigation to the rounds
around it and the run date, so that it does not change when a later round is added."""


def event_facts(run) -> list[tuple[str, str]]:
    s, rr = run.cfg.table(SwissConfig), run.cfg.table(RoundRobinConfig)
    system = (f"{'Double round robin' if rr.cycles == 2 else 'Round robin'}, FIDE Berger tables "
              "(C.05 Annex 1)" if rr is not None else
              f"FIDE Dutch (C.04.3), {s.dutch_edition} rules"
              + (", Baku acceleration (C.04.5.1)" if s.acceleration == "baku" else ""))
    facts = [("Organiser", run.cfg.event.organiser), ("Rounds", str(s.rounds)),
             ("Pairing system", system),
             ("Tie-breaks", f"{', '.join(s.tiebreaks)} (FIDE C.07, {s.tiebreak_edition})"),
             ("Contact", run.cfg.event.contact)]
    facts += swiss_ratings.event_facts(run)
    for c in run.categories:
        facts.append((c.cat.name, f"{c.players.height} players, {c.done} of {c.rounds} rounds complete"))
    return facts


def round_rel(kind: str, r: int, suffix: str = "") -> str:
    """``pairings/round-05.html``, ``standings/round-05.html``, ``pairings/round-05-alphabetical.html``."""
    return f"{kind}/round-{r:02d}{suffix}.html"


def jumps(page: str, run, extra: list[tuple[str, str]] = ()) -> list[dict[str, str]]:
    """The links at the top of a page holding every category: one per category (its section),
    then ``extra`` (label, target inside the event folder)."""
    out = [{"href": f"#{c.cat.id}", "label": c.cat.name} for c in run.categories]
    return out + [{"href": href(page, t), "label": label} for label, t in extra]


# --------------------------------------------------------------------------- entries


# --------------------------------------------------------------------------- standings


DE_CAPTION = ("DE: the place inside the group still tied before it where direct encounter (FIDE C.07 "
              "art. 6) decided; empty where it did not decide.")


def standings_table(run, c, ranking: pl.DataFrame, page: str, through: int | None = None) -> Table:
    """The standings of one category after round ``through`` (default: the last complete
    one) with the tie-break columns and, for a rated event, the rating change of the rounds so
    far (``Rtg+/-``, FIDE B.02: :mod:`flows.kinds.swiss.ratings`); rank and name stay in view
    when the table scrolls sideways; names link to the players' pages."""
    codes = list(run.cfg.require(SwissConfig).tiebreaks)
    frame = ranking.join(c.players.select("sno", "state", "rating", "title"), on="sno", how="left")
    frame = frame.with_columns(pl.when(pl.col("tied_after_all")).then(pl.lit("flag")).otherwise(pl.lit("")).alias("_css"))
    frame = with_player_href(frame, page, c.cat.id)
    cols = columns_for(run, [("rank_label", "Rk"), ("name", "Name"), ("points", "Pts")]
                       + [(k, k) for k in codes]
                       + [("sno", "SNo"), ("title", "Title"), ("state", "State"), ("rating", "Rtg")])
    numeric = ["rank_label", "sno", "rating", "points", *codes]
    frame = swiss_ratings.with_change(frame, run, c, c.done if through is None else through, cols, numeric)
    t = table_from_frame(frame, cols, numeric=numeric, row_css="_css", links={"name": "_href"})
    t.css = "keys2"
    return t


def standings_notes(run, ranking: pl.DataFrame) -> list[str]:
    """What the standings' columns hold, and who the chief arbiter must order."""
    out = []
    if ranking["tied_after_all"].any():
        out.append("Highlighted rows are equal after every tie-break: the chief arbiter decides "
                   "their order.")
    if "DE" in run.cfg.require(SwissConfig).tiebreaks:
        out.append(DE_CAPTION)
    return out


def standings_of_round(pub: Publication, run, r: int, last: int) -> None:
    """``standings/round-NN`` (and its CSV and PDF): every category's standings after round
    ``r`` (``last``: the last complete round, for the link to the next)."""
    rel = round_rel("standings", r)
    secs, frames = [], []
    for c in run.categories:
        if r in c.rankings:
            secs.append(Section(f"{c.cat.name} — standings after round {r}", anchor=c.cat.id,
                                tables=[standings_table(run, c, c.rankings[r], rel, r)],
                                notes=standings_notes(run, c.rankings[r])
                                + swiss_ratings.change_notes(run)))
            frames.append(c.rankings[r].with_columns(pl.lit(c.cat.id).alias("category"))
                          .select("category", *c.rankings[r].columns))
    pub.files[rel.replace(".html", ".csv")] = csv_text(pl.concat(frames))
    pub.page(rel, title=f"Standings after round {r}", subtitle="", sections=secs,
             prev=round_rel("standings", r - 1) if r > 1 else None,
             next=round_rel("standings", r + 1) if r < last else None,
             jumps=jumps(rel, run, [("How the tie-breaks work", "standings/explained.html")]),
             pdf=PRINTED_ROUND)


def explained(pub: Publication, run, last: int) -> None:
    """``standings/explained.html``: the tie-breaks in words and how direct encounter
    decided each tied group (after the last complete round)."""
    if last:
        page = "standings/explained.html"
        pub.page(page, title="How the tie-breaks work",
                 subtitle=("What each tie-break is and, for direct encounter, how each group of "
                           "tied players was decided. Each player's page shows what every game "
                           "contributed to each tie-break, and what a cut removed."),
                 sections=[_explained(run, c) for c in run.categories if c.done], pdf=False,
                 jumps=jumps(page, run))


def rounds_pages(pub: Publication, run) -> None:
    """Every round's pages — its standings (:func:`standings_of_round`), its pairings
    (:func:`pairings_of_round`) — as one group per round (:meth:`Publication.group`): a round
    whose pages are made of exactly what the last run's were is taken from it, not built
    again (a changed result of round 9 rebuilds round 9's pages, not rounds 1 to 8: issue
    26); then how the tie-breaks work."""
    last = max((c.done for c in run.categories), default=0)
    per_round = round_items(run)
    for r in sorted(set(range(1, last + 1)) | set(per_round)):
        def build(r: int = r) -> None:
            if r <= last:
                standings_of_round(pub, run, r, last)
            if r in per_round:
                pairings_of_round(pub, run, r, per_round)
        pub.group(f"round-{r:02d}", round_key(pub, run, r, last, per_round), build)
    explained(pub, run, last)


def round_key(pub: Publication, run, r: int, last: int, per_round: dict[int, list[tuple]]) -> str:
    """Everything the pages of round ``r`` are made of, digested (:func:`flows.site.pages.
    group_key`): the page context, the event's configuration, the rounds around it (the
    links to the previous and next), and of every category its players, its rankings after
    rounds ``r - 1`` and ``r``, its games and results through round ``r``, the new pairing
    when it is of round ``r`` (with its rows, ``CategoryRun.pairing_rows``), the same-state
    rule's log of the round and the rating changes through it. Nothing of a later round is in
    it: a changed result of round 9 leaves the key
    of rounds 1 to 8 as it was."""
    cats = []
    for c in run.categories:
        new = c.pairing is not None and c.pairing.round == r
        cats.append((c.cat, c.players, c.rankings.get(r - 1), c.rankings.get(r),
                     c.results.filter(pl.col("round") == r), c.card.filter(pl.col("round") <= r),
                     r <= c.done, c.rounds, c.pairing if new else None,
                     c.pairing_rows if new else None, c.rule_logs.get(r), c.ratings_by_round.get(r)))
    games = [(g.section, g.board) for g in run.published_games if g.round == r]
    return group_key(pub, pub.ctx, run.cfg, run.blocked, r, r < last, r - 1 in per_round,
                     r + 1 in per_round, cats, games)


def tiebreak_legend(run) -> Table:
    """The configured tie-breaks in order, each in words."""
    codes = list(run.cfg.require(SwissConfig).tiebreaks)
    frame = pl.DataFrame({"order": list(range(1, len(codes) + 1)), "code": codes,
                          "what": [tiebreak_name(k) for k in codes]})
    return table_from_frame(frame, [("order", "#"), ("code", "Code"), ("what", "What it counts")],
                            numeric=["order"], caption=f"Players equal on points are ranked by these, "
                            f"in this order (FIDE C.07, {run.cfg.require(SwissConfig).tiebreak_edition} edition).")


def _explained(run, c) -> Section:
    s = run.cfg.table(SwissConfig)
    ranking = c.rankings[c.done]
    notes = ["Unplayed rounds (byes, forfeits, absences) count as FIDE C.07 art. 16 says: "
             "each own unplayed round as a game against a dummy opponent with the player's own "
             "score; an opponent's unplayed rounds as played."]
    if "DE" in s.tiebreaks:
        detail = c.tiebreak_detail
        notes.append(DE_CAPTION + " Start numbers below; each group names the article that decided.")
        rank_of = dict(zip(ranking["sno"].to_list(), ranking["rank"].to_list(), strict=True))
        points_of = dict(zip(ranking["sno"].to_list(), ranking["points"].to_list(), strict=True))
        groups = (detail.filter((pl.col("code") == "DE") & pl.col("round").is_null())
                  .with_columns(pl.col("sno").replace_strict(rank_of, default=None).alias("_rank"))
                  .group_by("note").agg(pl.col("_rank").min(), pl.col("sno").first()).sort("_rank"))
        notes += [f"Direct encounter, {fmt(points_of.get(g['sno']))} pts, {g['note']}."
                  for g in groups.iter_rows(named=True)]
    return Section(f"{c.cat.name} — after round {c.done}", anchor=c.cat.id,
                   tables=[tiebreak_legend(run)], notes=notes)


# --------------------------------------------------------------------------- pairings


def _pairing_frame(c, rows: pl.DataFrame, points_before: dict[int, float], page: str) -> pl.DataFrame:
    info = c.players.select("player_id", "sno", "name", "rating")
    w = info.rename({k: f"w_{k}" for k in info.columns})
    b = info.rename({k: f"b_{k}" for k in info.columns})
    f = (rows.join(w, left_on="white_id", right_on="w_player_id", how="left")
         .join(b, left_on="black_id", right_on="b_player_id", how="left"))
    bye_label = {str(k): v for k, v in KIND_LABEL.items()}
    f = f.with_columns(
        pl.col("w_sno").replace_strict(points_before, default=0.0, return_dtype=pl.Float64).alias("w_pts"),
        pl.col("b_sno").replace_strict(points_before, default=None, return_dtype=pl.Float64).alias("b_pts"),
        pl.when(pl.col("black_id").is_null()).then(pl.col("result"))
        .otherwise(pl.col("result").fill_null("").replace({"1/2-1/2": "½-½"})).alias("res"),
        pl.when(pl.col("black_id").is_null())
        .then(pl.col("result").replace_strict(bye_label, default="bye"))
        .otherwise(pl.col("b_name")).alias("b_label"),
    )
    f = with_player_href(with_player_href(f, page, c.cat.id, "w_sno", "w_href"), page, c.cat.id,
                         "b_sno", "b_href")
    return f.sort("board")


SAME_STATE_NOTE = ("System of Play: players from the same state are not paired in the last round "
                   "among the top 50% by score, unless no compatible opponent within 1 point exists "
                   "(a declared departure from FIDE C.04.3).")

BOARD_COLUMNS = [("board", "Bd"), ("w_name", "White"), ("w_pts", "Pts"), ("res", "Result"),
                 ("b_pts", "Pts"), ("b_label", "Black"), ("w_rating", "White Rtg"),
                 ("b_rating", "Black Rtg"), ("w_sno", "White SNo"), ("b_sno", "Black SNo")]
"""Board, the two players with their points before the round and the result first (what a
phone shows without scrolling), then ratings and start numbers."""
HALL_COLUMNS = [("board", "Board"), ("w_name", "White"), ("w_pts", "Pts"), ("blank", "Result"),
                ("b_pts", "Pts"), ("b_label", "Black")]


GAME_COLUMN = ("g_label", "Game")
"""The column that links a board's game page, where the event publishes its game."""


def with_game_links(run, frame: pl.DataFrame, page: str, category: str) -> pl.DataFrame | None:
    """``frame`` (with ``round`` and ``board``) with ``g_label`` ("game") and ``g_href``, the
    link from ``page`` to the game of each board whose game is published
    (``SwissRun.published_games``); None when the category publishes no game."""
    mine = [g for g in run.published_games if g.section == category]
    if not mine:
        return None
    games = pl.DataFrame({"round": [g.round for g in mine], "board": [g.board for g in mine],
                          "g_label": ["game"] * len(mine),
                          "g_href": [href(page, game_rel(category, g.round, g.board)) for g in mine]},
                         schema={"round": frame.schema["round"], "board": frame.schema["board"],
                                 "g_label": pl.String, "g_href": pl.String})
    return frame.join(games, on=["round", "board"], how="left")


def round_items(run) -> dict[int, list[tuple]]:
    """Round -> (category, its results.csv rows or the new pairing's rows, whether it is the
    new pairing) for every round with rows."""
    per_round: dict[int, list[tuple]] = {}
    for c in run.categories:
        for r in sorted(set(c.results["round"].to_list())):
            per_round.setdefault(r, []).append((c, c.results.filter(pl.col("round") == r), False))
        if c.pairing is not None:
            per_round.setdefault(c.pairing.round, []).append((c, c.pairing_rows, True))
    return per_round


def not_paired(c, r: int, new: bool) -> list[str]:
    """Names of the category's players not paired in round ``r`` (withdrawn or absent), where
    it is known: a complete round (the scorecard) or the new pairing (withdrawals)."""
    if new and c.pairing is not None:
        seated = {s for board in c.pairing.boards for s in board if s is not None}
        snos = sorted(c.pairing.setup.absent | (set(c.players["sno"].to_list()) - seated
                                                - set(c.pairing.setup.byes)))
    elif r <= c.done:
        snos = sorted(c.card.filter((pl.col("round") == r) & (pl.col("kind") == str(Kind.ABSENT)))["sno"].to_list())
    else:
        return []
    names = dict(zip(c.players["sno"].to_list(), c.players["name"].to_list(), strict=True))
    return [f"{names[s]} ({s})" for s in snos]


def pairings_of_round(pub: Publication, run, r: int, per_round: dict[int, list[tuple]]) -> None:
    """For a round with rows in results.csv, or the new pairing (``per_round``:
    :func:`round_items`): ``pairings/round-NN``
    by board (results as they come in), ``pairings/round-NN-alphabetical`` (every player's
    board, colour and opponent) and the hall sheet ``pairings/round-NN-hall.pdf`` (large
    type, no result: it does not change when the results come in). The same-state rule's
    changes are logged on the page of the round they apply to."""
    items = per_round[r]
    pab = run.cfg.require(SwissConfig).pab_points
    rel, alpha, hall = (round_rel("pairings", r), round_rel("pairings", r, "-alphabetical"),
                        f"pairings/round-{r:02d}-hall.pdf")
    secs, alpha_secs, hall_secs, frames = [], [], [], []
    for c, rows, new in items:
        before = c.rankings.get(r - 1)
        pts = dict(zip(before["sno"], before["points"])) if before is not None else {}
        f = _pairing_frame(c, rows, pts, rel)
        linked = with_game_links(run, f, rel, c.cat.id)
        cols, links = BOARD_COLUMNS, {"w_name": "w_href", "b_label": "b_href"}
        if linked is not None and linked["g_label"].is_not_null().any():
            f, cols, links = linked, [*BOARD_COLUMNS[:6], GAME_COLUMN, *BOARD_COLUMNS[6:]], \
                {**links, "g_label": "g_href"}
        missing = not_paired(c, r, new)
        why = ("free: no game in the Berger table, or withdrawn" if run.cfg.table(RoundRobinConfig) is not None
               else "withdrawn or absent")
        notes = [f"Not paired in round {r} ({why}): {', '.join(missing)}."] if missing else []
        secs.append(Section(f"{c.cat.name} — round {r}", anchor=c.cat.id, notes=notes, tables=[table_from_frame(
            f, cols, numeric=["board", "w_sno", "w_rating", "w_pts", "b_pts", "b_rating", "b_sno"],
            links=links)]))
        hall_secs.append(Section(f"{c.cat.name} — round {r}", notes=notes, tables=[table_from_frame(
            f.with_columns(pl.when(pl.col("black_id").is_null()).then(pl.col("res")).otherwise(pl.lit(""))
                           .alias("blank")),
            HALL_COLUMNS, numeric=["board", "w_pts", "b_pts"], cell_cols=["blank"])]))
        alpha_secs.append(_alphabetical(c, rows, pts, alpha, r, pab, missing))
        log = c.rule_logs.get(r)
        if log:
            secs.append(Section(f"{c.cat.name} — same-state rule in round {r}", intro=[SAME_STATE_NOTE],
                                tables=[table_from_frame(pl.DataFrame({"change": log}),
                                                         [("change", "Pairing changed by the rule")])]))
        frames.append(f.select(pl.lit(c.cat.id).alias("category"), "round", "board",
                               pl.col("white_id"), pl.col("w_name").alias("white"),
                               pl.col("black_id"), pl.col("b_name").alias("black"), "result"))
    pub.files[rel.replace(".html", ".csv")] = csv_text(pl.concat(frames))
    prev, nxt = r - 1 in per_round, r + 1 in per_round
    pub.page(rel, title=f"Pairings — round {r}", subtitle="", sections=secs, pdf=False,
             prev=round_rel("pairings", r - 1) if prev else None,
             next=round_rel("pairings", r + 1) if nxt else None,
             jumps=jumps(rel, run, [("Alphabetical", alpha), ("Hall sheet (PDF)", hall)]))
    pub.page(alpha, title=f"Pairings — round {r}, alphabetical", subtitle="", sections=alpha_secs,
             pdf=False, prev=round_rel("pairings", r - 1, "-alphabetical") if prev else None,
             next=round_rel("pairings", r + 1, "-alphabetical") if nxt else None,
             jumps=jumps(alpha, run, [("By board", rel), ("Hall sheet (PDF)", hall)]))
    if any(render.hall_needs_landscape(s.tables) for s in hall_secs):
        for s in hall_secs:  # (one orientation for the document: the title's page too)
            s.wide = True
    pub.add_pdf(hall, render.render_page("hall.html", **{**pub.ctx, **PRINTED_ROUND},
                                         title=f"Pairings — round {r}", sections=hall_secs))
    pub.titles[hall] = f"Pairings — round {r}, sheet for the playing hall (PDF)"


def _alphabetical(c, rows: pl.DataFrame, pts: dict[int, float], page: str, r: int, pab: float,
                  missing: list[str]) -> Section:
    mine = boards_by_player(rows, c.players, pab)
    info = c.players.select("sno", "name")
    f = (mine.join(info, on="sno", how="left")
         .join(info.rename({"sno": "opponent", "name": "opp_name"}), on="opponent", how="left")
         .with_columns(pl.col("sno").replace_strict(pts, default=0.0, return_dtype=pl.Float64).alias("pts"),
                       pl.col("colour").replace_strict(COLOUR, default="").alias("col"),
                       pl.when(pl.col("opponent").is_null())
                       .then(pl.col("result").replace_strict({str(k): v for k, v in KIND_LABEL.items()},
                                                             default="bye"))
                       .otherwise(pl.col("opp_name")).alias("opp_label"),
                       pl.when(pl.col("opponent").is_null()).then(pl.lit("")).otherwise(pl.col("own"))
                       .alias("res"))
         .sort("name", "sno"))
    f = with_player_href(with_player_href(f, page, c.cat.id), page, c.cat.id, "opponent", "o_href")
    notes = [f"Not paired in round {r} (withdrawn or absent): {', '.join(missing)}."] if missing else []
    return Section(f"{c.cat.name} — round {r}", anchor=c.cat.id, notes=notes, tables=[table_from_frame(
        f, [("name", "Name"), ("board", "Bd"), ("col", "Colour"), ("opp_label", "Opponent"),
            ("res", "Result"), ("pts", "Pts"), ("sno", "SNo")],
        numeric=["sno", "pts", "board"], links={"name": "_href", "opp_label": "o_href"})])


# --------------------------------------------------------------------------- crosstable, bulletin


def crosstable_sections(run, page: str) -> list[Section]:
    """Each category's crosstable after its last complete round: names link to the players'
    pages, each cell (opponent's rank, colour, result) to the game's page where its game is
    published (:func:`cell_game_hrefs`), else to the opponent's.

    Decision (issue 48): a reader who clicks a result in a crosstable wants that game; the
    game's page links both players, so the opponent is one step further."""
    out = []
    for c in run.categories:
        if not c.done:
            continue
        cross = c.crosstable
        rcols = [k for k in cross.columns if k.startswith("r") and k[1:].isdigit()]
        card = c.card.select(pl.col("sno").cast(pl.Int32), pl.col("round").cast(pl.Int32), "opponent")
        games = cell_game_hrefs(run, c.cat.id, page)
        if games is not None:
            card = card.join(games, on=["sno", "round"], how="left")
        opp = (card.with_columns(pl.format("r{}_href", pl.col("round")).alias("col"))
               .pipe(with_player_href, page, c.cat.id, "opponent", "href")
               .with_columns(pl.coalesce("game_href", "href").alias("href") if games is not None
                             else pl.col("href"))
               .pivot(on="col", index="sno", values="href"))
        cross = with_player_href(cross.join(opp, on="sno", how="left"), page, c.cat.id)
        links = {"name": "_href"} | {k: f"{k}_href" for k in rcols if f"{k}_href" in cross.columns}
        cols = [("rank", "Rk"), ("name", "Name"), ("points", "Pts")] + [(k, k[1:]) for k in rcols]
        numeric = ["rank", "points"]
        cross = swiss_ratings.with_change(cross, run, c, c.done, cols, numeric)
        t = table_from_frame(cross, cols, numeric=numeric, cell_cols=rcols, links=links)
        t.css = "keys2"
        out.append(Section(f"{c.cat.name} — crosstable after round {c.done}", wide=True, anchor=c.cat.id,
                           tables=[t], notes=swiss_ratings.change_notes(run)))
    return out


def cell_game_hrefs(run, category: str, page: str) -> pl.DataFrame | None:
    """``sno``, ``round`` and ``game_href`` — the link from ``page`` to the published game of
    each player's round, both players' — for the category's crosstable; None when the category
    publishes no game (or the standings wait)."""
    mine = [g for g in run.published_games if g.section == category and g.round is not None]
    if not mine or run.blocked:
        return None
    rows = [(sno, g.round, href(page, game_rel(category, g.round, g.board or 0)))
            for g in mine for sno in (g.white_sno, g.black_sno) if sno is not None]
    return pl.DataFrame(rows, schema={"sno": pl.Int32, "round": pl.Int32, "game_href": pl.String},
                        orient="row")


def bulletin_sections(pub: Publication, run, highlights: list[str]) -> list[Section]:
    out = []
    for c in run.categories:
        if not c.done:
            out.append(Section(f"{c.cat.name} — starting list ({c.players.height} players)",
                               tables=[table_from_frame(with_player_href(c.players.sort("sno"), "bulletin.html", c.cat.id),
                                                        columns_for(run, [("sno", "SNo"), ("title", ""), ("name", "Name"),
                                                                          ("state", "State"), ("rating", "Rtg")]),
                                                        numeric=["sno", "rating"], links={"name": "_href"})],
                               source=list_rel(c.cat.id)))
            highlights.append(f"{c.cat.name}: {c.players.height} players on the starting list.")
            continue
        ranking = c.rankings[c.done]
        out.append(Section(f"{c.cat.name} — standings after round {c.done}",
                           tables=[standings_table(run, c, ranking, "bulletin.html")],
                           notes=standings_notes(run, ranking) + swiss_ratings.change_notes(run),
                           source=f"{round_rel('standings', c.done)}#{c.cat.id}",
                           printed_apart=round_rel("standings", c.done).removesuffix(".html") + ".pdf"))
        top = ranking.row(0, named=True)
        highlights.append(f"{c.cat.name}: {top['name']} {'wins' if c.done == c.rounds else 'leads'} "
                          f"with {fmt(top['points'])} points after round {c.done}.")
    cross_secs = crosstable_sections(run, "crosstable.html")
    if cross_secs:
        pub.page("crosstable.html", title="Crosstable",
                 subtitle="Cells: opponent's rank, colour, result; a cell leads to the game's page "
                          "where its game is published, else to the opponent's page.",
                 sections=cross_secs,
                 jumps=jumps("crosstable.html", run))
        # in the bulletin the crosstables are anchored apart from the prizes (one id per page)
        out += [replace(s, anchor=f"crosstable-{s.anchor}", source=f"crosstable.html#{s.anchor}",
                        printed_apart="crosstable.pdf") for s in cross_secs]
    for c in run.categories:
        if c.pairing is not None:
            r, boards, _setup, log = c.pairing
            name = c.cat.name
            highlights.append(f"{name}: round {r} is paired ({len(boards)} boards).")
            if log:
                out.append(Section(f"{name} — same-state rule in round {r}", intro=[SAME_STATE_NOTE],
                                   tables=[table_from_frame(pl.DataFrame({"change": log}),
                                                            [("change", "Pairing changed by the rule")])]))
    audits = [d for c in run.categories for d in c.audit]
    audit_sec = Section("Pairing audit", intro=[
        "Every complete round was compared with its game in the FIDE Berger table."
        if run.cfg.table(RoundRobinConfig) is not None else
        "Every complete round was paired again by chessfed's FIDE Dutch engine from the history "
        "before it and compared with the recorded pairing. Brackets are paired from the top "
        "down, so a round that differs is named with the first bracket where it departs; the "
        "brackets below it are not paired again (they would start from other players)."],
        tables=[table_from_frame(pl.DataFrame(audits, schema={"category": pl.String, "round": pl.Int64,
                                                              "difference": pl.String}),
                                 [("category", "Category"), ("round", "Round"), ("difference", "Difference")],
                                 numeric=["round"], empty="Every recorded round is identical to the engine's pairing.")])
    out.append(audit_sec)
    pub.files["pairings/audit.csv"] = csv_text(pl.DataFrame(audits, schema={
        "category": pl.String, "round": pl.Int64, "difference": pl.String}))
    return out


# --------------------------------------------------------------------------- prizes, statistics


def separation_text(by: str | None, value: float | None, next_value: float | None) -> str:
    """What kept a player ahead of the next one, when it was a tie-break ("" on points)."""
    if by is None or by == "points":
        return ""
    if by == EQUAL_AFTER_ALL:
        return by
    return f"{by}: {fmt(value) or '—'} v {fmt(next_value) or '—'}"


def prizes(pub: Publication, run) -> list[Section]:
    cur = run.cfg.event.currency
    page = "prizes.html"
    codes = list(run.cfg.require(SwissConfig).tiebreaks)
    secs, frames = [], []
    for c in run.categories:
        if c.prizes is None:
            continue
        cid, cat, p = c.cat.id, c.cat, c.prizes
        ranking = c.rankings[c.done]
        sep = c.prize_separation
        names = ranking.select(pl.col("sno").alias("next_sno"), pl.col("name").alias("next_name"))
        p = (p.join(c.players.select("sno", "state"), on="sno", how="left")
             .join(sep, on="sno", how="left").join(names, on="next_sno", how="left")
             .filter(pl.col("amount") > 0))
        p = p.with_columns(
            pl.when(pl.col("flag") != "").then(pl.lit("flag")).otherwise(pl.lit("")).alias("_css"),
            pl.Series("separation", [separation_text(*t) for t in zip(p["by"], p["value"], p["next_value"],
                                                                       strict=True)], pl.String))
        p = p.with_columns(pl.when(pl.col("separation") == "").then(None).otherwise(pl.col("next_name"))
                           .alias("next_shown"),
                           pl.when(pl.col("separation") == "").then(None).otherwise(pl.col("next_sno"))
                           .alias("next_link"))
        p = with_player_href(with_player_href(p, page, cid), page, cid, "next_link", "n_href")
        sharing = ("Players equal after every tie-break share the prizes of their places equally."
                   if run.cfg.require(SwissConfig).prizes_shared
                   else "Cash prizes are not shared: ties are decided by the tie-breaks.")
        why = (f"Where a prize winner has the points of the next place, 'Ahead of the next by' says which "
               f"tie-break (in the order {', '.join(codes)}) first differs between them, with both "
               "values (DE: a place, lower is better; the others: higher is better).")
        secs.append(Section(f"{cat.name} — prizes", anchor=cid, notes=[cat.prizes_note, sharing, why],
                            tables=[prize_table(p, cur, run)]))
        frames.append(p.select(pl.lit(cid).alias("category"), "place", "sno", "name", "state", "points",
                               "amount", "flag", pl.col("by").alias("decided_by"), "value", "next_value",
                               "next_sno"))
    pub.files["prizes.csv"] = csv_text(pl.concat(frames))
    pub.page(page, title="Prize list", subtitle="", sections=secs, jumps=jumps(page, run))
    return secs


def prize_table(p: pl.DataFrame, currency: str, run=None) -> Table:
    cols = [("place", "Place"), ("name", "Name"), ("points", "Pts"), ("amount", "Prize"),
            ("separation", "Ahead of the next by"), ("next_shown", "Next place"),
            ("sno", "SNo"), ("state", "State"), ("flag", "Note")]
    t = table_from_frame(p, columns_for(run, cols) if run is not None else cols,
                         numeric=["place", "sno", "points"], money=["amount"], currency=currency,
                         row_css="_css", links={"name": "_href", "next_shown": "n_href"})
    t.css = "keys2"
    return t


# --------------------------------------------------------------------------- home


def home_groups(pub: Publication, run, parts: Sequence[SwissPart] = ()) -> list[LinkGroup]:
    """The event home's first part, one group per category, in the order a player or parent
    looks: who plays whom next, the standings, the crosstable, the player list (to find one's
    own page), the prizes, then what the event's rules parts add (e.g. statistics, the entry
    list)."""
    groups = []
    pairings = round_items(run)
    for c in run.categories:
        cid, links = c.cat.id, []
        rounds_paired = [r for r, items in pairings.items() if any(x[0] is c for x in items)]
        if rounds_paired:
            r = max(rounds_paired)
            state = "next round, to be played" if c.pairing is not None and c.pairing.round == r else (
                "results" if r <= c.done else "being played")
            links += [{"href": f"{round_rel('pairings', r)}#{cid}", "label": f"Pairings — round {r}",
                       "note": f"({state})"},
                      {"href": f"{round_rel('pairings', r, '-alphabetical')}#{cid}",
                       "label": f"Round {r}: find your board (alphabetical)"}]
        if c.done:
            links += [{"href": f"{round_rel('standings', c.done)}#{cid}",
                       "label": f"Standings after round {c.done}"},
                      {"href": f"crosstable.html#{cid}", "label": "Crosstable"}]
        if not run.blocked:
            links += [{"href": list_rel(cid, alphabetical=True), "label": "Players A-Z: find your page",
                       "note": "(rounds, points, rank after each round, tie-breaks"
                               + (", rating change)" if c.ratings else ")")},
                      {"href": list_rel(cid), "label": "Starting rank list"}]
        if c.prizes is not None:
            links.append({"href": f"prizes.html#{cid}", "label": "Prizes"})
        n_games = sum(g.section == cid for g in run.published_games)
        if n_games and not run.blocked:
            links.append({"href": f"games/index.html#{cid}", "label": "Games",
                          "note": f"({n_games} with their moves, PGN to download)"})
        if c.norms is not None:
            made = len(c.norms.achieved())
            links.append({"href": f"norms.html#{cid}", "label": "Title norms",
                          "note": f"({made} made, {len(c.norms.forecasts)} in reach)"
                          if c.norms.forecasts else f"({made} made)"})
        for part in parts:
            links += part.category_links(pub, run, c)
        groups.append(LinkGroup(c.cat.name, links, anchor=cid,
                                intro=f"{c.players.height} players · {c.done} of {c.rounds} "
                                      "rounds complete"))
    return groups

"""A Swiss event's player lists and every player's own page (presentation only).

``players/<category>/index.html`` is the starting rank list, ``alphabetical.html`` the same
players by name (with their points and rank so far), ``<sno>.html`` one player's event: every
round (board, colour, opponent, result, points and rank after it), the tie-breaks and what
each game contributed to them (what a cut removed marked), the prize and, for a rated event,
the rating change of every list (:mod:`flows.kinds.swiss.ratings`): every number the
rulebook's (``CategoryRun.progress``, ``tiebreak_detail``, ``rankings``, ``prizes``,
``ratings``). Player pages are HTML
only (no PDF: their number would make every run's rendering grow), and hold no birth date and
no email address."""

from __future__ import annotations

import hashlib
from urllib.parse import quote

import polars as pl

from flows.kinds import norms as title_norms
from flows.kinds.swiss import ratings as swiss_ratings
from flows.kinds.swiss.common import (
    COLOUR,
    boards_by_player,
    columns_for,
    href,
    list_rel,
    player_rel,
    tiebreak_name,
    with_player_href,
)
from flows.kinds.swiss.pages import GAME_COLUMN, round_items, round_rel, with_game_links
from flows.site.pages import Publication, group_key, season_rel
from flows.site.present import Col, Row, Section, Table, fmt, table_from_frame, tables_by
from transforms.core.model import Kind
from transforms.core.money import amount_text
from transforms.swiss.config import SwissConfig

PUBLIC_COLUMNS = ("sno", "name", "title", "fide_id", "rating", "nationality", "state", "list_note")
"""What a public page may show of players.csv (never birth_date, email, fees)."""


def player_lists(pub: Publication, run, *, linked: bool = True) -> None:
    """The starting rank list and the alphabetical list of every category; without ``linked``
    (the standings wait: no player pages, no points) the names lead nowhere and the lists show
    no points."""
    for c in run.categories:
        cid = c.cat.id
        players = c.players.select(*PUBLIC_COLUMNS).sort("sno")
        links = {"name": "_href"} if linked else None
        page = list_rel(cid)
        start = with_player_href(players, page, cid) if linked else players
        pub.page(page, title=f"Starting rank list — {c.cat.name}",
                 subtitle=f"{players.height} players by start number (FIDE C.04.2 A.2: rating, "
                          "title, name)." + (" Each name leads to the player's page." if linked else ""),
                 sections=[Section(c.cat.name, tables=[table_from_frame(
                     start, columns_for(run, [("sno", "SNo"), ("title", "Title"), ("name", "Name"),
                                              ("fide_id", "FIDE id"), ("rating", "Rtg"),
                                              ("nationality", "Fed"), ("state", "State")]),
                     numeric=["sno", "rating"], links=links)])],
                 pdf=False, jumps=[{"href": href(page, list_rel(cid, True)), "label": "Alphabetical"}])
        page = list_rel(cid, True)
        alpha = players.sort("name", "sno")
        cols = columns_for(run, [("name", "Name"), ("title", "Title"), ("sno", "SNo"),
                                 ("rating", "Rtg"), ("state", "State")])
        if c.done and linked:
            now = c.rankings[c.done].select("sno", "points", "rank_label")
            alpha = alpha.join(now, on="sno", how="left")
            cols += [("points", f"Pts after round {c.done}"), ("rank_label", "Rk")]
        pub.page(page, title=f"Players A-Z — {c.cat.name}",
                 subtitle=("Find your name: it leads to your page (pairings, results, points and "
                           "rank after every round, tie-breaks)." if linked else
                           "Every player of the category by name; the pairings and standings follow."),
                 sections=[Section(c.cat.name, tables=[table_from_frame(
                     with_player_href(alpha, page, cid) if linked else alpha, cols,
                     numeric=["sno", "rating", "points", "rank_label"], links=links)])],
                 pdf=False, jumps=[{"href": href(page, list_rel(cid)), "label": "By start number"}])


def player_pages(pub: Publication, run) -> None:
    """Every player's page, in every category."""
    items = round_items(run)
    for c in run.categories:
        rows = [rows.select("round", "board", "white_id", "black_id", "result")
                for r, its in sorted(items.items()) for (cc, rows, _new) in its if cc is c]
        _category_pages(pub, run, c, rows)


def _category_pages(pub: Publication, run, c, rows: list[pl.DataFrame]) -> None:
    s = run.cfg.table(SwissConfig)
    cid = c.cat.id
    info = c.players.select(*PUBLIC_COLUMNS)
    boards = boards_by_player(pl.concat(rows) if rows else pl.DataFrame(
        schema={"round": pl.Int64, "board": pl.Int64, "white_id": pl.String, "black_id": pl.String,
                "result": pl.String}), c.players, s.pab_points)
    absent = (c.card.filter(pl.col("kind") == str(Kind.ABSENT))
              .select(pl.col("round").cast(pl.Int64), pl.col("sno").cast(pl.Int32),
                      pl.lit("not paired").alias("own")))
    if c.pairing is not None:
        absent = pl.concat([absent, pl.DataFrame(
            {"round": [c.pairing.round] * len(c.pairing.setup.absent),
             "sno": sorted(c.pairing.setup.absent), "own": ["not paired"] * len(c.pairing.setup.absent)},
            schema=absent.schema)])
    progress = c.progress.select(
        pl.col("round").cast(pl.Int64), "sno", "total", "rank_label")
    opp = info.select(pl.col("sno").alias("opponent"), pl.col("name").alias("opp_name"),
                      pl.col("rating").alias("opp_rating"), pl.col("state").alias("opp_state"))
    table = (pl.concat([boards, absent], how="diagonal")
             .join(progress, on=["round", "sno"], how="left")
             .join(opp, on="opponent", how="left")
             .with_columns(pl.col("colour").replace_strict(COLOUR, default="").alias("col"),
                           pl.when(pl.col("opponent").is_null()).then(pl.col("own"))
                           .otherwise(pl.col("opp_name")).alias("opp_label"),
                           pl.when(pl.col("opponent").is_null()).then(pl.lit("")).otherwise(pl.col("own"))
                           .alias("res"),
                           pl.format("{}.html", pl.col("opponent")).alias("o_href"))
             .sort("sno", "round"))
    game_columns = columns_for(run, [("round", "Rd"), ("board", "Bd"), ("opp_label", "Opponent"),
                                     ("col", "Colour"), ("res", "Result"), ("total", "Pts"),
                                     ("rank_label", "Rk"), ("opponent", "SNo"),
                                     ("opp_rating", "Rtg"), ("opp_state", "State")])
    game_table = {"numeric": ["round", "board", "opponent", "opp_rating", "total", "rank_label"],
                  "links": {"opp_label": "o_href"}, "empty": "Not paired yet."}
    linked = with_game_links(run, table, player_rel(cid, 0), cid)  # (every page as deep)
    if linked is not None:  # the event publishes games: a link to each of the player's
        table = linked
        at_res = game_columns.index(("res", "Result")) + 1
        game_columns = [*game_columns[:at_res], GAME_COLUMN, *game_columns[at_res:]]
        game_table["links"] = {"opp_label": "o_href", "g_label": "g_href"}
    ranking = c.rankings.get(c.done)
    names = dict(zip(info["sno"].to_list(), info["name"].to_list(), strict=True))
    detail = c.tiebreak_detail
    snos = sorted(names)
    keys = player_keys(pub, run, c, snos, [table, detail, ranking, c.prizes,
                                           *(f for rc in c.ratings.values() for f in rc),
                                           title_norms.norm_rows(c.norms)])
    todo = [sno for sno in snos if not pub.take(f"player-{cid}-{sno}", keys[sno])]
    if not todo:
        return
    table = table.filter(pl.col("sno").is_in(todo))
    games = tables_by(table, "sno", game_columns, **game_table)
    detail_by: dict = {}
    if detail is not None:
        detail_by = _tiebreak_rows(run, detail.filter(pl.col("sno").is_in(todo)), names)
    prizes = {}
    if c.prizes is not None:
        prizes = {r["sno"]: r for r in c.prizes.filter(pl.col("amount") > 0).iter_rows(named=True)}
    now = {r["sno"]: r for r in ranking.iter_rows(named=True)} if ranking is not None else {}
    cur = run.cfg.event.currency
    about = {r["sno"]: r for r in info.iter_rows(named=True)}
    at = {sno: i for i, sno in enumerate(snos)}
    for sno in todo:
        with pub.recording(f"player-{cid}-{sno}", keys[sno]):
            _player_page(pub, run, c, sno, snos, at[sno], about[sno], now, prizes, cur, games, table,
                         game_columns, game_table, detail_by, names)


def player_keys(pub: Publication, run, c, snos: list[int], frames: list[pl.DataFrame | None]
                ) -> dict[int, str]:
    """Start number -> a digest of everything the player's page is made of (its group's key,
    :meth:`flows.site.pages.Publication.group`): what all the category's pages share (the page
    context, the event's configuration, the category, its players — every opponent's name and
    rating —, its rounds complete, the frames' schemas) and the player's own rows of each of
    ``frames`` (the games table, the tie-break contributions, the standings, the prizes, the
    rating changes; each frame has ``sno``), in order, through polars' row hashes (stable
    within one polars version: the cache of groups is only read by the same program and
    libraries, :func:`flows.pipeline.outputs.kept_groups`). A changed result changes the pages of
    the players whose rows it changes — the two players, their opponents' tie-breaks, the
    players whose rank moved — and no other."""
    shared = group_key(pub, pub.ctx, run.cfg, c.cat, c.done, c.rounds, c.players,
                       [None if f is None else dict(f.schema) for f in frames])
    if not shared:  # not digestible: every page is built (group_key)
        return dict.fromkeys(snos, "")
    rows: dict[int, list] = {sno: [] for sno in snos}
    for k, f in enumerate(frames):
        if f is None or f.is_empty():
            continue
        hashed = (f.select(pl.col("sno").cast(pl.Int64), pl.Series("h", f.hash_rows(), pl.UInt64))
                  .group_by("sno", maintain_order=True).agg("h"))
        for sno, hs in zip(hashed["sno"].to_list(), hashed["h"].to_list(), strict=True):
            if sno in rows:
                rows[sno].append((k, hs))
    out = {}
    for i, sno in enumerate(snos):
        neighbours = (snos[i - 1] if i else None, snos[i + 1] if i + 1 < len(snos) else None)
        out[sno] = hashlib.sha256(f"{shared}|{sno}|{neighbours}|{rows[sno]}".encode()).hexdigest()
    return out


def _player_page(pub: Publication, run, c, sno: int, snos: list[int], i: int, p: dict, now: dict,
                 prizes: dict, cur: str, games: dict, table: pl.DataFrame, game_columns: list,
                 game_table: dict, detail_by: dict, names: dict[int, str]) -> None:
    """One player's page (:func:`_category_pages` made its parts for the whole category)."""
    cid = c.cat.id
    rel = player_rel(cid, sno)
    facts = [("Category", c.cat.name), ("Start number", str(sno)), ("Title", p["title"] or "—"),
             ("Rating", fmt(p["rating"]) or "unrated"), ("FIDE id", p["fide_id"] or "—"),
             ("Federation", p["nationality"] or "—"), ("State association", p["state"] or "(none)")]
    if p.get("list_note"):
        facts.append(("Rating list", p["list_note"]))
    if sno in now:
        r = now[sno]
        facts.append((f"After round {c.done}", f"{fmt(r['points'])} points, rank {r['rank_label']}"))
    facts += swiss_ratings.player_facts(run, c, sno)
    facts += title_norms.player_fact(c.norms, sno)
    if sno in prizes:
        pr = prizes[sno]
        facts.append(("Prize", f"place {pr['place']}, {amount_text(pr['amount'], cur)}"
                      + (f" ({pr['flag']})" if pr["flag"] else "")))
    mine = games.get(sno) or table_from_frame(table.clear(), game_columns, **game_table)
    secs = [Section("Round by round", tables=[mine],
        notes=["Result: the player's own score (1, ½, 0; + and − for forfeits). Pts and Rk: "
               "points and rank after the round, as the standings after it show them."])]
    secs += swiss_ratings.player_sections(run, c, sno, names)
    secs += title_norms.player_sections(c.norms, sno, names)
    if sno in now and sno in detail_by:
        secs.append(_tiebreak_section(run, c, now[sno], *detail_by[sno]))
    jumps = [{"href": href(rel, list_rel(cid, True)), "label": "Players A-Z"},
             {"href": href(rel, list_rel(cid)), "label": "Starting rank"}]
    if c.done:
        jumps.append({"href": href(rel, f"{round_rel('standings', c.done)}#{cid}"),
                      "label": f"Standings after round {c.done}"})
        jumps.append({"href": href(rel, f"crosstable.html#{cid}"), "label": "Crosstable"})
    event_folder = pub.out_dir.name
    for folder, name in pub.ctx.get("counted_in", ()):  # a series counting the event
        jumps.append({"href": "../" * rel.count("/") + f"../{quote(folder)}/"
                              f"{season_rel(event_folder, cid, sno)}",
                      "label": f"{name}: the season"})
    pub.page(rel, "player.html", pdf=False, title=p["name"],
             subtitle=f"{c.cat.name} · start number {sno}", facts=facts, sections=secs, jumps=jumps,
             prev=player_rel(cid, snos[i - 1]) if i > 0 else None,
             next=player_rel(cid, snos[i + 1]) if i + 1 < len(snos) else None)


def _tiebreak_rows(run, detail: pl.DataFrame, names: dict[int, str]
                   ) -> dict[int, tuple[str | None, Table]]:
    """Each player's tie-break contributions (:func:`explain_tiebreaks`), as their page shows
    them: the note of the direct encounter's tie group (None: no DE summary row), and a table
    with a row per round and opponent and a column per tie-break the player has (values in
    brackets removed by a cut); made for the whole category at once (one pass over the rows
    per set of tie-breaks the players have, not a filter per player)."""
    shown = [("" if v is None else f"({fmt(round(v, 2))})" if cut else fmt(round(v, 2)))
             for v, cut in zip(detail["value"], detail["dropped_by_cut"], strict=True)]
    detail = detail.with_columns(pl.Series("shown", shown, pl.String))
    wide = (detail.with_columns(pl.col("opponent").fill_null("—"), pl.col("round").fill_null(0))
            .pivot(on="code", index=["sno", "round", "opponent"], values="shown",
                   aggregate_function="first")
            .sort("sno", "round", maintain_order=True))
    wide = wide.with_columns(
        pl.col("opponent").replace_strict({str(k): v for k, v in names.items()},
                                          default=pl.col("opponent")).alias("opp_label"),
        pl.when(pl.col("opponent").str.contains(r"^\d+$")).then(pl.format("{}.html", pl.col("opponent")))
        .otherwise(None).alias("o_href"),
        pl.when(pl.col("round") == 0).then(pl.lit("all")).otherwise(pl.col("round").cast(pl.String))
        .alias("rd"))
    has = {k: set(v) for k, v in zip(*detail.group_by("sno").agg(pl.col("code").unique())
                                     .get_columns(), strict=True)}
    de_notes: dict[int, str] = {}
    for sno, note in (detail.filter((pl.col("code") == "DE") & pl.col("round").is_null())
                      .select("sno", "note").iter_rows()):
        de_notes.setdefault(sno, note)
    by_codes: dict[tuple[str, ...], list[int]] = {}
    for sno in sorted(has):
        by_codes.setdefault(tuple(k for k in run.cfg.require(SwissConfig).tiebreaks if k in has[sno]), []).append(sno)
    out = {}
    for codes, snos in by_codes.items():
        tables = tables_by(wide.filter(pl.col("sno").is_in(snos)), "sno",
                           [("rd", "Rd"), ("opp_label", "Opponent")] + [(k, k) for k in codes],
                           numeric=["rd", *codes], links={"opp_label": "o_href"},
                           caption="What each round contributed")
        out.update({sno: (de_notes.get(sno), tables[sno]) for sno in snos})
    return out


def _tiebreak_section(run, c, standing: dict, de_note: str | None, contributions: Table) -> Section:
    """The tie-break values of the standings and, per game or unplayed round, what it gave each
    tie-break (``contributions``, from :func:`_tiebreak_rows`); values in brackets were removed
    by a cut."""
    codes = list(run.cfg.require(SwissConfig).tiebreaks)
    notes = ["Values in brackets were removed by a cut (e.g. BH-C1 leaves out the lowest "
             "contribution). 'dummy': an own unplayed round, counted as a game against an opponent "
             "with the player's own score (C.07 16.4); 'all': counted once for the player "
             "(for DE, the points against the other tied players)."]
    if de_note is not None:
        notes.append(f"Direct encounter: {de_note}.")
    summary = Table([Col("Tie-break"), Col("Value", "num"), Col("What it counts")],
                    [Row([k, fmt(standing[k]) or "—", tiebreak_name(k)]) for k in codes],
                    caption=f"The values of the standings, in the order they rank players equal "
                            f"on points (FIDE C.07, {run.cfg.require(SwissConfig).tiebreak_edition})")
    return Section(f"Tie-breaks after round {c.done}", notes=notes, tables=[summary, contributions])

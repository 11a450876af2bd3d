"""The pages and bulletin sections of a Swiss event (presentation only: every value is
computed by transforms; this module picks columns and labels)."""

from __future__ import annotations

import polars as pl

from flows.publish.pages import OFFICE, Publication
from flows.publish.present import Details, Section, fmt, table_from_frame
from transforms.core.money import amount_text
from transforms.fide.tiebreaks import explain_tiebreaks
from transforms.swiss import scorecard as sc
from transforms.swiss.rounds import pairing_rows

__all__ = ["Section"]


def event_facts(run) -> list[tuple[str, str]]:
    s = run.cfg.swiss
    facts = [("Organiser", run.cfg.event.organiser), ("Rounds", str(s.rounds)),
             ("Pairing system", f"FIDE Dutch (C.04.3), {s.dutch_edition} rules"
              + (", Baku acceleration (C.04.5.1)" if s.acceleration == "baku" else "")),
             ("Tie-breaks", f"{', '.join(s.tiebreaks)} (FIDE C.07, {s.tiebreak_edition})"),
             ("Contact", run.cfg.event.contact)]
    for c in run.categories:
        facts.append((c.cat.name, f"{c.players.height} players, {c.done} of {s.rounds} rounds complete"))
    return facts


def entries(pub: Publication, run) -> list[Section]:
    e = run.entries
    cur = run.cfg.event.currency
    pub.files[f"{OFFICE}entries/decisions.csv"] = e.decisions.drop("line").write_csv()
    pub.files[f"{OFFICE}entries/entry-list.csv"] = e.entry_list.write_csv()
    pub.files[f"{OFFICE}entries/by-category-state.csv"] = e.by_category_state.write_csv()
    pub.files[f"{OFFICE}entries/ledger.csv"] = e.ledger.write_csv()
    dec = e.decisions
    n_acc = dec.filter(pl.col("status") == "accepted").height
    rejected = dec.filter(pl.col("status") == "rejected")
    summary = Section("Entries", intro=[f"{dec.height} entries received: {n_acc} accepted, "
                                        f"{rejected.height} rejected."],
                      tables=[table_from_frame(rejected, [("player_id", "Id"), ("name", "Name"),
                                                          ("section", "Category"), ("state", "State"),
                                                          ("entry_type", "Entry"), ("reasons", "Reasons")],
                                               caption="Rejected entries", empty="No entry was rejected.")])
    money = ["fees_due", "late_fees", "fees_paid", "balance", "boarding_due"]
    shown = e.ledger.with_columns(
        pl.when(pl.col("state").fill_null("") == "").then(pl.lit("(none)")).otherwise(pl.col("state")).alias("state"),
        pl.when(pl.col("state").fill_null("") == "").then(pl.lit("Areas without an association"))
        .otherwise(pl.col("name")).alias("name"))
    ledger = Section("Fee and boarding ledger by association",
                     notes=["Balance = paid − due − late fee: positive is owed back to the association, "
                            "negative is still to pay. Boarding: "
                            f"{amount_text(run.cfg.entries.boarding_lump_sum, cur)} per selected or "
                            "seeded player under the normal entry fee."],
                     tables=[table_from_frame(shown, [("state", "State"), ("name", "Association"),
                                                         ("entries", "Entries"), ("accepted", "Accepted"),
                                                         ("fees_due", "Fees due"), ("late_fees", "Late fees"),
                                                         ("fees_paid", "Paid"), ("balance", "Balance"),
                                                         ("boarding_due", "Boarding")],
                                              numeric=["entries", "accepted"], money=money, currency=cur)])
    by_type = e.by_category_state
    type_cols = [c for c in by_type.columns if c not in ("section", "state")]
    lists = [Section(f"Entry list — {c.name}", tables=[table_from_frame(
        e.entry_list.filter(pl.col("section") == c.id),
        [("state", "State"), ("name", "Name"), ("title", ""), ("rating", "Rtg"), ("entry_type", "Entry"),
         ("seed_reason", "Seeded as")], numeric=["rating"])]) for c in run.cfg.swiss.categories]
    counts = Section("Accepted entries by category and state", tables=[table_from_frame(
        by_type, [("section", "Category"), ("state", "State")] + [(c, c.replace("_", " ")) for c in type_cols],
        numeric=type_cols)])
    full = [Section("All entries and decisions", tables=[table_from_frame(
        dec.with_columns(pl.when(pl.col("status") == "rejected").then(pl.lit("error")).otherwise(pl.lit(""))
                         .alias("_css")),
        [("player_id", "Id"), ("name", "Name"), ("section", "Cat."), ("state", "State"),
         ("entry_type", "Entry"), ("status", "Status"), ("reasons", "Reasons"), ("fee_due", "Fee"),
         ("late_fee", "Late"), ("fee_paid", "Paid"), ("balance", "Balance"), ("boarding", "Boarding")],
        money=["fee_due", "late_fee", "fee_paid", "balance", "boarding"], currency=cur, row_css="_css")])]
    title = "Entries, eligibility and fees"
    pub.page(f"{OFFICE}entries.html", title=title, subtitle="",
             sections=[summary, counts, ledger, *lists, *full],
             pdf={"subtitle": "The full decision list is in office/entries.html and "
                              "office/entries/decisions.csv.",
                  "sections": [summary, counts, ledger, *lists]})
    return [summary, ledger]


def _standings_table(run, c, ranking: pl.DataFrame):
    codes = list(run.cfg.swiss.tiebreaks)
    frame = ranking.join(c.players.select("sno", "state", "rating", "title"), on="sno", how="left")
    frame = frame.with_columns(pl.when(pl.col("tied_after_all")).then(pl.lit("flag")).otherwise(pl.lit("")).alias("_css"))
    cols = [("rank_label", "Rk"), ("sno", "SNo"), ("title", ""), ("name", "Name"), ("state", "State"),
            ("rating", "Rtg"), ("points", "Pts")] + [(k, k) for k in codes]
    caption = DE_CAPTION if "DE" in codes else ""
    return table_from_frame(frame, cols, numeric=["rank_label", "sno", "rating", "points", *codes], row_css="_css",
                            caption=caption)


DE_CAPTION = ("DE: the place inside the group still tied before it where direct encounter (FIDE C.07 "
              "art. 6) decided; empty where it did not decide.")


def standings_by_round(pub: Publication, run) -> None:
    last = max((c.done for c in run.categories), default=0)
    for r in range(1, last + 1):
        secs, frames = [], []
        for c in run.categories:
            if r in c.rankings:
                secs.append(Section(f"{c.cat.name} — standings after round {r}",
                                    tables=[_standings_table(run, c, c.rankings[r])],
                                    notes=["Highlighted rows are equal after every tie-break: the chief "
                                           "arbiter decides their order."] if c.rankings[r]["tied_after_all"].any() else []))
                frames.append(c.rankings[r].with_columns(pl.lit(c.cat.id).alias("category"))
                              .select("category", *c.rankings[r].columns))
        rel = f"standings/round-{r:02d}"
        pub.files[f"{rel}.csv"] = pl.concat(frames).write_csv()
        pub.page(f"{rel}.html", title=f"Standings after round {r}", subtitle="", sections=secs,
                 prev=f"standings/round-{r - 1:02d}.html" if r > 1 else None,
                 next=f"standings/round-{r + 1:02d}.html" if r < last else None)
    if last:
        pub.page("standings/explained.html", title="How the tie-breaks were reached",
                 subtitle=("For each player, what every game or unplayed round contributed to "
                           "each tie-break; values in brackets were removed by a cut."),
                 sections=[_explained(run, c) for c in run.categories if c.done], pdf=False)


def _explained(run, c) -> Section:
    s = run.cfg.swiss
    detail = explain_tiebreaks(c.card, c.players.select("sno", "rating"), s.tiebreaks,
                               edition=s.tiebreak_edition, rounds=c.done)
    detail = detail.with_columns(
        pl.when(pl.col("dropped_by_cut")).then(pl.format("({})", pl.col("value").round(2)))
        .otherwise(pl.col("value").round(2).cast(pl.String)).alias("shown"))
    ranking = c.rankings[c.done]
    by_sno = {k[0]: g for k, g in detail.group_by("sno")}
    details = []
    for rec in ranking.iter_rows(named=True):
        d = by_sno.get(rec["sno"])
        if d is None:
            continue
        wide = (d.with_columns(pl.col("opponent").fill_null("—"), pl.col("round").fill_null(0))
                .pivot(on="code", index=["round", "opponent"], values="shown", aggregate_function="first")
                .sort("round"))
        codes = [k for k in s.tiebreaks if k in wide.columns]
        values = " · ".join(f"{k} {fmt(rec[k]) or '—'}" for k in s.tiebreaks)
        details.append(Details(f"{rec['rank_label']}. {rec['name']} ({fmt(rec['points'])} pts) — {values}",
                               table_from_frame(wide, [("round", "Rd"), ("opponent", "Opponent")]
                                                + [(k, k) for k in codes], numeric=["round", *codes])))
    notes = ["Round 0 rows are player-level items (e.g. a tie-break counted once; for DE, the points "
             "scored against the other tied players: the separate standings of C.07 6.1)."]
    if "DE" in s.tiebreaks:
        notes.append(DE_CAPTION + " Start numbers below; each group names the article that decided.")
        rank_of = dict(zip(ranking["sno"].to_list(), ranking["rank"].to_list(), strict=True))
        points_of = dict(zip(ranking["sno"].to_list(), ranking["points"].to_list(), strict=True))
        groups = (detail.filter((pl.col("code") == "DE") & pl.col("round").is_null())
                  .with_columns(pl.col("sno").replace_strict(rank_of, default=None).alias("_rank"))
                  .group_by("note").agg(pl.col("_rank").min(), pl.col("sno").first()).sort("_rank"))
        notes += [f"Direct encounter, {fmt(points_of.get(g['sno']))} pts, {g['note']}."
                  for g in groups.iter_rows(named=True)]
    return Section(f"{c.cat.name} — after round {c.done}", details=details, notes=notes)


def _pairing_frame(c, rows: pl.DataFrame, points_before: dict[int, float]) -> pl.DataFrame:
    info = c.players.select("player_id", "sno", "name", "rating")
    w = info.rename({k: f"w_{k}" for k in info.columns})
    b = info.rename({k: f"b_{k}" for k in info.columns})
    f = (rows.join(w, left_on="white_id", right_on="w_player_id", how="left")
         .join(b, left_on="black_id", right_on="b_player_id", how="left"))
    f = f.with_columns(
        pl.col("w_sno").replace_strict(points_before, default=0.0, return_dtype=pl.Float64).alias("w_pts"),
        pl.col("b_sno").replace_strict(points_before, default=None, return_dtype=pl.Float64).alias("b_pts"),
        pl.when(pl.col("black_id").is_null()).then(pl.col("result"))
        .otherwise(pl.col("result").fill_null("").replace({"1/2-1/2": "½-½"})).alias("res"),
        pl.when(pl.col("black_id").is_null()).then(pl.lit("bye")).otherwise(pl.col("b_name")).alias("b_label"),
    )
    return f.sort("board")


SAME_STATE_NOTE = ("System of Play: players from the same state are not paired in the last round "
                   "among the top 50% by score, unless no compatible opponent within 1 point exists "
                   "(a declared departure from FIDE C.04.3).")


def pairings_by_round(pub: Publication, run) -> None:
    """pairings/round-NN for every round with rows in results.csv, and the new pairing; the
    same-state rule's changes are logged on the page of the round they apply to."""
    per_round: dict[int, list[tuple]] = {}
    for c in run.categories:
        for r in sorted(set(c.results["round"].to_list())):
            per_round.setdefault(r, []).append((c, c.results.filter(pl.col("round") == r)))
        if c.pairing is not None:
            r, boards, setup, _log = c.pairing
            per_round.setdefault(r, []).append((c, pairing_rows(boards, setup, c.players, r)))
    cols = [("board", "Bd"), ("w_sno", "SNo"), ("w_name", "White"), ("w_rating", "Rtg"), ("w_pts", "Pts"),
            ("res", "Result"), ("b_pts", "Pts"), ("b_label", "Black"), ("b_rating", "Rtg"), ("b_sno", "SNo")]
    for r, items in sorted(per_round.items()):
        secs, frames = [], []
        for c, rows in items:
            before = c.rankings.get(r - 1)
            pts = dict(zip(before["sno"], before["points"])) if before is not None else {}
            f = _pairing_frame(c, rows, pts)
            secs.append(Section(f"{c.cat.name} — round {r}", tables=[table_from_frame(
                f, cols, numeric=["board", "w_sno", "w_rating", "w_pts", "b_pts", "b_rating", "b_sno"])]))
            log = c.rule_logs.get(r)
            if log:
                secs.append(Section(f"{c.cat.name} — same-state rule in round {r}", intro=[SAME_STATE_NOTE],
                                    tables=[table_from_frame(pl.DataFrame({"change": log}),
                                                             [("change", "Pairing changed by the rule")])]))
            frames.append(f.select(pl.lit(c.cat.id).alias("category"), "round", "board",
                                   pl.col("white_id"), pl.col("w_name").alias("white"),
                                   pl.col("black_id"), pl.col("b_name").alias("black"), "result"))
        rel = f"pairings/round-{r:02d}"
        pub.files[f"{rel}.csv"] = pl.concat(frames).write_csv()
        pub.page(f"{rel}.html", title=f"Pairings — round {r}", subtitle="", sections=secs,
                 prev=f"pairings/round-{r - 1:02d}.html" if r - 1 in per_round else None,
                 next=f"pairings/round-{r + 1:02d}.html" if r + 1 in per_round else None)


def bulletin_sections(pub: Publication, run, highlights: list[str]) -> list[Section]:
    out = []
    cross_secs = []
    for c in run.categories:
        if not c.done:
            out.append(Section(f"{c.cat.name} — starting list ({c.players.height} players)",
                               tables=[table_from_frame(c.players.sort("sno"),
                                                        [("sno", "SNo"), ("title", ""), ("name", "Name"),
                                                         ("state", "State"), ("rating", "Rtg")],
                                                        numeric=["sno", "rating"])]))
            highlights.append(f"{c.cat.name}: {c.players.height} players on the starting list.")
            continue
        ranking = c.rankings[c.done]
        out.append(Section(f"{c.cat.name} — standings after round {c.done}",
                           tables=[_standings_table(run, c, ranking)]))
        cross = sc.crosstable(c.card, ranking.select("rank", "sno", "name", "points"))
        rcols = [k for k in cross.columns if k.startswith("r") and k[1:].isdigit()]
        cross_secs.append(Section(f"{c.cat.name} — crosstable after round {c.done}", wide=True,
                                  tables=[table_from_frame(cross, [("rank", "Rk"), ("name", "Name"),
                                                                   ("points", "Pts")] + [(k, k[1:]) for k in rcols],
                                                           numeric=["rank", "points"], cell_cols=rcols)]))
        top = ranking.row(0, named=True)
        highlights.append(f"{c.cat.name}: {top['name']} {'wins' if c.done == run.cfg.swiss.rounds else 'leads'} "
                          f"with {fmt(top['points'])} points after round {c.done}.")
    if cross_secs:
        pub.page("crosstable.html", title="Crosstable",
                 subtitle="Cells: opponent's rank, colour, result.", sections=cross_secs)
        out += cross_secs
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
        "Every complete round was paired again by chessfed's FIDE Dutch engine from the history "
        "before it and compared with the recorded pairing."],
        tables=[table_from_frame(pl.DataFrame(audits, schema={"category": pl.String, "round": pl.Int64,
                                                              "difference": pl.String}),
                                 [("category", "Category"), ("round", "Round"), ("difference", "Difference")],
                                 numeric=["round"], empty="Every recorded round is identical to the engine's pairing.")])
    out.append(audit_sec)
    pub.files["pairings/audit.csv"] = pl.DataFrame(audits, schema={"category": pl.String, "round": pl.Int64,
                                                                   "difference": pl.String}).write_csv()
    return out


def prizes(pub: Publication, run) -> list[Section]:
    cur = run.cfg.event.currency
    secs, frames = [], []
    for c in run.categories:
        if c.prizes is None:
            continue
        cid, cat, p = c.cat.id, c.cat, c.prizes
        p = p.join(c.players.select("sno", "state"), on="sno", how="left").filter(pl.col("amount") > 0)
        p = p.with_columns(pl.when(pl.col("flag") != "").then(pl.lit("flag")).otherwise(pl.lit("")).alias("_css"))
        sharing = ("Players equal after every tie-break share the prizes of their places equally."
                   if run.cfg.swiss.prizes_shared
                   else "Cash prizes are not shared: ties are decided by the tie-breaks.")
        secs.append(Section(f"{cat.name} — prizes", notes=[cat.prizes_note, sharing],
                            tables=[table_from_frame(p, [("place", "Place"), ("sno", "SNo"), ("name", "Name"),
                                                         ("state", "State"), ("points", "Pts"),
                                                         ("amount", "Prize"), ("flag", "Note")],
                                                     numeric=["place", "sno", "points"], money=["amount"],
                                                     currency=cur, row_css="_css")]))
        frames.append(p.select(pl.lit(cid).alias("category"), "place", "sno", "name", "state", "points",
                               "amount", "flag"))
    pub.files["prizes.csv"] = pl.concat(frames).write_csv()
    pub.page("prizes.html", title="Prize list", subtitle="", sections=secs)
    return secs

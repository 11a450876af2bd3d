"""A series' pages (presentation only: every figure is the rulebook's,
:mod:`transforms.series.event`): the standings (the series' own and each category's, every
event's points, those not counted in brackets), the events with their state and a link to each
event's own pages, a page per member (every event: place, points, the series' points, whether
it counts, and the games), how the standings are made, the prize list, and the CSV."""

from __future__ import annotations

import hashlib
import html
from typing import Any
from urllib.parse import quote

import polars as pl

from flows.io import csv_text
from flows.site.names import file_part
from flows.site.pages import OFFICE, LinkGroup, Publication, group_key, season_rel
from flows.site.present import Section, fmt, signed_tenths, table_from_frame, table_from_rows
from transforms.series.config import SeriesCategory, SeriesPoints
from transforms.series.event import TIEBREAK_WORDS, SeriesRun

MEMBERS = "members/"
"""Every member's page is ``members/<member>.html``."""


def category_rel(cid: str) -> str:
    """A category's standings page, inside the series' folder."""
    return f"categories/{file_part(cid)}.html"


def member_rel(key: str) -> str:
    """A member's page, inside the series' folder."""
    return f"{MEMBERS}{file_part(key, lower=True)}.html"


def up(page: str) -> str:
    """The way from ``page`` back to the series' folder."""
    return "../" * page.count("/")


def points_text(value: float | None) -> str:
    """Points as printed: ``12``, ``7.5``; empty when none."""
    return "" if value is None else fmt(float(value))


TIEBREAK_LABELS = {"all-events": "All", "game-points": "GP", "average": "Avg",
                   "best-single": "Best", "head-to-head": "H2H", "events": ""}
"""Each tie-break's column heading (``events`` is the events-played column already)."""


def shown_tiebreaks(run: SeriesRun) -> list[tuple[str, str]]:
    """(code, heading) of the tie-breaks a standings table shows."""
    return [(str(t), TIEBREAK_LABELS[str(t)]) for t in run.rules.tiebreaks if TIEBREAK_LABELS[str(t)]]


def game_points(value: float | None) -> str:
    """Game points as printed: ``2½``, ``3``, ``½``."""
    if value is None:
        return ""
    whole, half = int(value), value - int(value) >= 0.5
    return (f"{whole if whole or not half else ''}{'½' if half else ''}") or "0"


def event_label(i: int) -> str:
    """An event's column in the standings: ``E1``, ``E2``, … (the legend names them)."""
    return f"E{i + 1}"


PRINTED_EVENTS = 12
"""A printed standings shows each event's points up to this many events complete (a line of
a landscape page); beyond, the printed one shows the totals and says where each event's are
(1,771 members over 30 events: a table of 70,000 cells took 53 s to print)."""


def printed_points(frame: pl.DataFrame, col: str) -> pl.Expr:
    """Column ``col`` of ``frame`` as :func:`points_text` prints each value (each distinct
    value formatted once)."""
    texts = {v: points_text(v) for v in frame[col].drop_nulls().unique().to_list()}
    return (pl.col(col).replace_strict(texts, default=None, return_dtype=pl.String)
            .fill_null(points_text(None)))


def score_cells(run: SeriesRun) -> pl.DataFrame:
    """Each member's series points of each event as the standings print them (``member``,
    ``event``, ``text``: in brackets where they do not count), made once for every standings
    table of the run."""
    assert run.scores is not None
    text = printed_points(run.scores, "points")
    return run.scores.select("member", "event", pl.when(pl.col("counted")).then(text)
                             .otherwise(pl.format("({})", text)).alias("text"))


def standings_section(run: SeriesRun, frame: pl.DataFrame, heading: str, page: str,
                      anchor: str = "", per_event: bool = True,
                      cells: pl.DataFrame | None = None) -> Section:
    """One standings table: place, member, federation, rating, each event's series points (in
    brackets where they do not count; ``–`` not played; not with ``per_event`` False), events
    played, the total and the tie-breaks (``cells``: :func:`score_cells`, made here if not
    given). Its columns are made by frame (15,419 members over 167 events: 2.6 million cells)."""
    assert run.scores is not None
    counted = [i for i, e in enumerate(run.events) if e.counted] if per_event else []
    codes = [c for c, _ in shown_tiebreaks(run)]
    shown = frame.select(pl.col("rank_label").cast(pl.String).alias("rank"), pl.col("name").cast(pl.String),
                         pl.col("federation").cast(pl.String).alias("fed"),
                         pl.col("rating").cast(pl.Int64), "member", pl.col("played").cast(pl.Int64),
                         *(printed_points(frame, c).alias(c) for c in ("points", *codes)))
    labels = {i: event_label(i) for i in counted}
    if counted:
        mine = (cells if cells is not None else score_cells(run)).filter(
            pl.col("event").is_in(counted) & pl.col("member").is_in(shown["member"].implode()))
        wide = pl.DataFrame({"member": shown["member"].unique()})
        if mine.height:
            wide = mine.pivot(on="event", index="member", values="text", aggregate_function="last")
            wide = wide.rename({str(i): labels[i] for i in counted if str(i) in wide.columns})
        shown = shown.join(wide, on="member", how="left", maintain_order="left").with_columns(
            (pl.col(labels[i]).fill_null("–") if labels[i] in wide.columns
             else pl.lit("–").alias(labels[i])) for i in counted)
    hrefs = [up(page) + member_rel(m) for m in shown["member"].to_list()]
    shown = shown.with_columns(pl.Series("_href", hrefs, dtype=pl.String)).select(
        "rank", "name", "fed", "rating", *labels.values(), "played", "points", *codes, "_href")
    legend = "; ".join(f"{event_label(i)} {run.events[i].name}" for i in counted)
    notes = [f"Events: {legend}." if legend else
             f"Each event's points: on the web page ({page.rsplit('/', 1)[-1]})." if run.held
             else "No event is complete yet.",
             "Points in brackets do not count (" + counting_words(run) + ")."
             if run.scores.filter(~pl.col("counted")).height else "",
             "Members equal after every tie-break share the place."]
    cols = [("rank", "Rk"), ("name", "Name"), ("fed", "Fed"), ("rating", "Rtg"),
            *[(event_label(i), event_label(i)) for i in counted], ("played", "Ev"),
            ("points", "Pts"), *shown_tiebreaks(run)]
    return Section(heading, anchor=anchor, wide=len(counted) > 6, notes=[n for n in notes if n],
                   tables=[table_from_frame(shown, cols, numeric=["rating", "played"],
                                            links={"name": "_href"},
                                            empty=("No member of these standings has played "
                                                   "a complete event yet." if run.held else
                                                   "No event is complete yet."))],
                   source=f"standings.html#{anchor}" if anchor else "standings.html",
                   printed_apart="standings.pdf")


def counting_words(run: SeriesRun) -> str:
    """How many events count, in words."""
    rules = run.rules
    if rules.best is not None:
        return f"the best {rules.best} events of each member count"
    if rules.drop:
        return f"all but the worst {rules.drop} of the events held count"
    return "every event counts"


def points_words(run: SeriesRun) -> str:
    """What an event gives, in words."""
    rules = run.rules
    if rules.points is SeriesPoints.GAME_POINTS:
        base = "the points the member scored in it"
    elif rules.points is SeriesPoints.PLACE:
        table = ", ".join(points_text(p) for p in rules.place_points)
        base = f"points by place in the member's section ({table} for places 1, 2, …; 0 beyond)"
    else:
        base = ("one point for each player of the member's section they finished ahead of, plus "
                "one")
    bonus = (f", plus {points_text(rules.bonus)} for taking part (a game played)"
             if rules.bonus else "")
    return base + bonus


def explained_page(pub: Publication, run: SeriesRun) -> None:
    """``explained.html``: how the standings are made — the points, how many events count, how
    a member is recognised, the tie-breaks in order, the categories."""
    rules = run.rules
    codes = list(rules.tiebreaks)
    frame = pl.DataFrame({"order": list(range(1, len(codes) + 1)), "code": [str(c) for c in codes],
                          "column": [TIEBREAK_LABELS[str(c)] or "Ev" for c in codes],
                          "what": [TIEBREAK_WORDS[c] for c in codes]},
                         schema={"order": pl.Int64, "code": pl.String, "column": pl.String,
                                 "what": pl.String})
    ids = [k.value.replace("_", " ") for k in rules.identity]
    intro = [f"Each event gives a member {points_words(run)}; {counting_words(run)}.",
             "An event counts once its last round is complete.",
             f"A member is recognised across the events by: {', '.join(ids)} (a member id or "
             "FIDE id wherever an event carries one; elsewhere the other keys together, the name's "
             "words in any order and case)."]
    sections = [Section("The points", intro=intro),
                Section("The tie-breaks", intro=["Members equal on points are ranked by these, in "
                                                 "order:"],
                        tables=[table_from_frame(frame, [("order", "#"), ("code", "Code"),
                                                         ("column", "Column"),
                                                         ("what", "What it counts")],
                                                 numeric=["order"])])]
    if rules.categories:
        rows = [{"name": c.name, "who": category_words(c, run)} for c in rules.categories]
        sections.append(Section("The categories", tables=[table_from_frame(
            pl.DataFrame(rows, schema={"name": pl.String, "who": pl.String}),
            [("name", "Category"), ("who", "Who")])]))
    pub.page("explained.html", title="How the standings are made", subtitle="", sections=sections,
             pdf=False)


def category_words(c: SeriesCategory, run: SeriesRun) -> str:
    """Who belongs to a category, in words (the years from the rulebook's ``run.year``)."""
    parts = []
    if c.rating_max is not None:
        parts.append(f"rated at most {c.rating_max} (unrated included)")
    if c.rating_min is not None:
        parts.append(f"rated at least {c.rating_min}")
    if c.under is not None:
        parts.append(f"born in {run.year - c.under} or later")
    if c.over is not None:
        parts.append(f"born in {run.year - c.over} or earlier")
    if c.sex:
        parts.append("women" if c.sex == "F" else "men")
    words = ", ".join(parts) or "every member"
    return words + (" (the rating of the first event of the series they played; the table's "
                    "Rtg is their latest)"
                    if c.rating_max is not None or c.rating_min is not None else "")


def events_section(run: SeriesRun, page: str) -> Section:
    """The events of the series: dates, players, state, and a link to each one's own pages."""
    rows = []
    for i, e in enumerate(run.events):
        r = e.result
        dates = ""
        if r is not None and r.start is not None:
            dates = (f"{r.start:%d %b %Y}" if r.end in (None, r.start)
                     else f"{r.start:%d %b %Y} – {r.end:%d %b %Y}")
        state = {"counted": "complete: counted", "in play": f"in play ({r.done} of {r.rounds} "
                 "rounds): counted once complete" if r else "in play", "to come": "to come",
                 "unreadable": "results being checked"}[e.state]
        rows.append({"no": event_label(i), "event": e.name, "dates": dates,
                     "players": len(r.finishes) if r is not None else None, "state": state,
                     "_href": (up(page) + quote(r.site) + "index.html") if r is not None and r.site else None})
    frame = pl.DataFrame(rows, schema={"no": pl.String, "event": pl.String, "dates": pl.String,
                                       "players": pl.Int64, "state": pl.String, "_href": pl.String})
    return Section("The events", tables=[table_from_frame(
        frame, [("no", ""), ("event", "Event"), ("dates", "Dates"), ("players", "Players"),
                ("state", "State")], numeric=["players"], links={"event": "_href"})])


def member_page(pub: Publication, run: SeriesRun, key: str,
                names: dict[tuple[int, str, str], tuple[str, str]],
                places: dict[str, list[tuple[str, str]]], mine: list[dict[str, Any]]) -> None:
    """A member's page: their place in the series and its categories, every event they played
    (place, game points, the series' points, whether it counts) and its games; ``mine``: the
    member's rows of ``run.scores`` (:func:`scores_by_member`)."""
    page = member_rel(key)
    m = run.members[key]
    finish = {i: f for i, f in m.finishes}
    changes = {i: f"{signed_tenths(f.rating_change)} {f.rating_list}" for i, f in m.finishes
               if f.rating_change is not None}
    rows = [{"event": r["event_name"], "place": f"{r['place_label']} of {r['of']}" if r["place"] else "",
             "game_points": game_points(r["game_points"]), "points": points_text(r["points"]),
             "counts": "yes" if r["counted"] else "no",
             "rating": changes.get(r["event"], ""),
             "_href": (up(page) + quote(run.events[r["event"]].result.site) + "index.html")  # type: ignore[union-attr]
             if run.events[r["event"]].result is not None and run.events[r["event"]].result.site  # type: ignore[union-attr]
             else None}
            for r in sorted(mine, key=lambda r: r["event"])]
    sections = [Section("Events", tables=[table_from_rows(
        rows, [("event", "Event"), ("place", "Place"), ("game_points", "Game pts"),
               ("points", "Series pts"), ("counts", "Counts")]
        + ([("rating", "Rating ±")] if changes else []), links={"event": "_href"},
        empty="No complete event yet.")])]
    if changes:
        total = sum(f.rating_change or 0.0 for i, f in m.finishes if i in changes
                    and run.events[i].counted)
        sections[0].notes.append(f"Rating ±: the change over the event its own pages compute "
                                 f"(FIDE B.02), on the list named; over the complete events "
                                 f"together {signed_tenths(total)}.")
    for i, f in sorted(finish.items()):
        e = run.events[i]
        if not e.counted or not f.rounds:
            continue
        games = []
        for r in f.rounds:
            opp_name, opp_key = names.get((i, f.section, r.opponent or ""), ("", ""))
            games.append({"round": r.round,
                          "opponent": opp_name if r.opponent is not None else "(no opponent)",
                          "result": game_points(r.points) + ("" if r.played or r.opponent is None
                                                              else " (forfeit)"),
                          "_href": up(page) + member_rel(opp_key) if opp_key else None})
        sections.append(Section(f"{e.name}: the games", tables=[table_from_rows(
            games, [("round", "Rd"), ("opponent", "Opponent"), ("result", "Result")],
            numeric=["round"], links={"opponent": "_href"})]))
    standing = places.get(key, [])
    fed = m.latest("federation") or ""
    meta = [*(f"{where}: place {label}" for where, label in standing), fed,
            f"FIDE ID {m.latest('fide_id')}" if m.latest("fide_id") else ""]
    pub.page(page, title=m.name, subtitle=" · ".join(x for x in meta if x), sections=sections,
             pdf=False)


def scores_by_member(run: SeriesRun) -> dict[str, list[dict[str, Any]]]:
    """``run.scores`` cut once by member, rows in order (a filter per member is quadratic:
    50,000 members)."""
    out: dict[str, list[dict[str, Any]]] = {}
    if run.scores is not None:
        for r in run.scores.iter_rows(named=True):
            out.setdefault(r["member"], []).append(r)
    return out


def member_key(shared: str, run: SeriesRun, key: str,
               names: dict[tuple[int, str, str], tuple[str, str]],
               places: dict[str, list[tuple[str, str]]], mine: list[dict[str, Any]]) -> str:
    """The key of a member's group of pages (their page and the ways in from their events'
    player pages, :meth:`flows.site.pages.Publication.group`): ``shared`` (the page context
    and the series' configuration) and everything the member's pages show — their results
    (every field of each event's finish, the games and opponents), their score rows, their
    places, each of their events' name, site, folder and whether it counts, and their
    opponents' names and keys. A changed event changes the pages of its players, and of no
    one else unless the standings move them. "" (built) when ``shared`` is."""
    if not shared:
        return ""
    m = run.members[key]
    events = [(i, run.events[i].name, run.events[i].counted, run.events[i].source,
               run.events[i].result.site if run.events[i].result is not None else None)
              for i, _ in m.finishes]
    opponents = [names.get((i, f.section, r.opponent or "")) for i, f in m.finishes for r in f.rounds]
    text = repr((key, m.name, m.how, m.finishes, events, opponents, places.get(key),
                 sorted((tuple(sorted(r.items())) for r in mine), key=repr)))
    return hashlib.sha256(f"{shared}|{text}".encode()).hexdigest()


def way_in(pub: Publication, run: SeriesRun, key: str) -> None:
    """For each event of the member run by chessfed, the page its player's page links
    (:func:`flows.site.pages.season_rel`): it sends the reader on to the member's page."""
    m = run.members[key]
    for i, f in m.finishes:
        result = run.events[i].result
        if result is None or not result.site:
            continue
        rel = season_rel(run.events[i].source, f.section, f.key)
        target = up(rel) + member_rel(key)
        pub.files[rel] = (
            '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="refresh" content="0; url={html.escape(target)}">'
            f"<title>{html.escape(m.name)}</title></head>\n<body><p><a href=\"{html.escape(target)}\">"
            f"{html.escape(m.name)} in the {html.escape(run.cfg.event.name)}</a></p></body></html>\n")


def prizes_section(run: SeriesRun, page: str) -> list[Section]:
    """The prize list, by standings (the series' own, then each category's)."""
    if run.prizes is None:
        return []
    names = {"": run.cfg.event.name, **{c.id: c.name for c in run.rules.categories}}
    out = []
    currency = run.cfg.event.currency
    for (sid,), part in run.prizes.group_by("standings", maintain_order=True):
        shown = part.with_columns(
            pl.col("points").map_elements(points_text, return_dtype=pl.String).alias("pts"),
            pl.format(f"{up(page)}{MEMBERS}{{}}.html", pl.col("member").map_elements(
                lambda k: file_part(k, lower=True), return_dtype=pl.String)).alias("_href"))
        out.append(Section(names.get(str(sid), str(sid)), anchor=file_part(str(sid) or "series"),
                           tables=[table_from_frame(
                               shown, [("place", "Pl"), ("name", "Member"), ("pts", "Pts"),
                                       ("amount", "Prize"), ("flag", "")],
                               numeric=["place"], money=["amount"], currency=currency,
                               links={"name": "_href"})]))
    return out


def standings_csv(run: SeriesRun) -> str:
    """``standings.csv``: the series' standings and each category's, one row per member and
    standings, every event's series points (empty: not played) and whether it counts. (The
    events' columns made by a pivot, not cell by cell: 15,419 members over 167 complete
    events are 5 million cells, 3 s by rows.)"""
    assert run.standings is not None and run.scores is not None
    counted = [i for i, e in enumerate(run.events) if e.counted]
    codes = [str(t) for t in run.rules.tiebreaks]
    schema = {"standings": pl.String, "rank": pl.Int64, "member": pl.String, "name": pl.String,
              "federation": pl.String, "rating": pl.Int64, "played": pl.Int64,
              "counted": pl.Int64, "points": pl.Float64, **{c: pl.Float64 for c in codes}}
    scores = run.scores.filter(pl.col("event").is_in(counted))
    events = pl.DataFrame({"member": scores["member"].unique()}, schema={"member": pl.String})
    for value, kind in (("points", pl.Float64), ("counted", pl.Boolean)):
        if scores.height:  # one column per event held: its value (the last row of a member's)
            wide = scores.pivot(on="event", index="member", values=value, aggregate_function="last")
            events = events.join(wide.rename({str(i): f"{event_label(i)}_{value}" for i in counted
                                              if str(i) in wide.columns}), on="member", how="left")
        for i in counted:
            name = f"{event_label(i)}_{value}"
            if name not in events.columns:
                events = events.with_columns(pl.lit(None, kind).alias(name))
    for i in counted:
        schema |= {f"{event_label(i)}_points": pl.Float64, f"{event_label(i)}_counts": pl.Boolean}
    events = events.rename({f"{event_label(i)}_counted": f"{event_label(i)}_counts" for i in counted})
    frames = [("series", run.standings), *((c.id, run.categories[c.id]) for c in run.rules.categories)]
    parts = [frame.select(pl.lit(sid).alias("standings"), *(c for c in schema if c in frame.columns))
             .join(events, on="member", how="left", maintain_order="left")
             for sid, frame in frames]
    table = pl.concat([p.select(list(schema)).cast(schema) for p in parts])  # type: ignore[arg-type]
    return csv_text(table)


def publish_site(pub: Publication, run: SeriesRun) -> list[Section]:
    """Every public page of the series; returns the bulletin's sections (the standings;
    beyond :data:`PRINTED_EVENTS` complete events without each event's points, as the printed
    standings: 300 members over 300 events had made a bulletin of 90,000 cells, 90 s to
    print)."""
    assert run.standings is not None
    rules = run.rules
    after = f"after {run.held} of {len(run.events)} events" if run.held else "no event complete yet"
    cells = score_cells(run)  # once for every standings table
    overall = standings_section(run, run.standings, run.cfg.event.name, "standings.html", "series",
                               cells=cells)
    overall.link = {"href": "explained.html", "label": "How the standings are made"}
    lean = run.held > PRINTED_EVENTS  # printed without each event's points

    def printed_pdf(frame: pl.DataFrame, heading: str, page: str, anchor: str) -> dict[str, Any] | bool:
        return {"sections": [standings_section(run, frame, heading, page, anchor, per_event=False, cells=cells)]} \
            if lean else True

    pub.page("standings.html", title="Standings", subtitle=f"The series {after}.",
             sections=[overall], pdf=printed_pdf(run.standings, run.cfg.event.name, "standings.html", "series"))
    if lean:  # the bulletin prints it too
        bulletin = standings_section(run, run.standings, run.cfg.event.name, "standings.html",
                                     "series", per_event=False, cells=cells)
        bulletin.link = overall.link
        sections = [bulletin]
    else:
        sections = [overall]
    for c in rules.categories:
        rel = category_rel(c.id)
        section = standings_section(run, run.categories[c.id], c.name, rel, file_part(c.id),
                                    cells=cells)
        section.source, section.printed_apart = rel, rel.removesuffix(".html") + ".pdf"
        section.link = {"href": up(rel) + "explained.html", "label": "How the standings are made"}
        pub.page(rel, title=f"Standings: {c.name}", subtitle=f"{category_words(c, run)[0].upper()}"
                 f"{category_words(c, run)[1:]}; the series {after}.", sections=[section],
                 pdf=printed_pdf(run.categories[c.id], c.name, rel, file_part(c.id)))
        printed = standings_section(run, run.categories[c.id], c.name, "bulletin.html",
                                    file_part(c.id), per_event=not lean, cells=cells)  # links from its folder
        printed.source, printed.printed_apart = rel, section.printed_apart
        sections.append(printed)
    pub.files["standings.csv"] = standings_csv(run)
    pub.titles["standings.csv"] = "Standings (CSV)"
    pub.page("events.html", title="The events", subtitle="The events of the series in the order "
             "they are held.", sections=[events_section(run, "events.html")], pdf=False)
    explained_page(pub, run)
    prizes = prizes_section(run, "prizes.html")
    if prizes:
        pub.page("prizes.html", title="Prizes", subtitle="The final standings' prizes.",
                 sections=prizes)
    names = {(i, f.section, f.key): (m.name, m.key) for m in run.members.values()
             for i, f in m.finishes}
    places: dict[str, list[tuple[str, str]]] = {}
    for label, frame in [(run.cfg.event.name, run.standings),
                         *((c.name, run.categories[c.id]) for c in rules.categories)]:
        for r in frame.iter_rows(named=True):
            places.setdefault(r["member"], []).append((label, r["rank_label"]))
    mine = scores_by_member(run)
    shared = group_key(pub, pub.ctx, run.cfg)
    for key in run.members:
        pub.group(f"member-{key}", member_key(shared, run, key, names, places, mine.get(key, [])),
                  lambda key=key: (member_page(pub, run, key, names, places, mine.get(key, [])),
                                   way_in(pub, run, key)))
    if run.membership is not None:
        pub.files[f"{OFFICE}series/members.csv"] = csv_text(run.membership)
        pub.titles[f"{OFFICE}series/members.csv"] = ("The members report: members, lapsed "
                                                     "memberships and players who are no members (CSV)")
    if run.identity is not None:
        pub.files[f"{OFFICE}series/identity.csv"] = csv_text(run.identity)
        pub.titles[f"{OFFICE}series/identity.csv"] = "How each event's players were recognised (CSV)"
    return [*sections, *prizes]


def home_groups(run: SeriesRun) -> list[LinkGroup]:
    """The series home's group: the standings, its categories, the events, the prizes."""
    links = [{"href": "standings.html#series", "label": "Standings"}]
    links += [{"href": category_rel(c.id), "label": c.name} for c in run.rules.categories]
    links += [{"href": "events.html", "label": "The events",
               "note": f"({run.held} of {len(run.events)} complete)"},
              {"href": "explained.html", "label": "How the standings are made"}]
    if run.prizes is not None:
        links.append({"href": "prizes.html", "label": "Prizes"})
    return [LinkGroup(run.cfg.event.name, links,
                      intro=f"{len(run.members)} members · {run.held} of {len(run.events)} events "
                            "complete")]

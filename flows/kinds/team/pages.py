"""A team competition's pages (presentation only: every figure is the rulebook's,
:mod:`transforms.team.event`): per round the matches with every board, the standings after it
(promotion and relegation places marked), a league's fixture list with its dates, the
crosstable (a grid of match scores), and a page per team — its roster and, round by round, its
opponent, colours, line-up and board results."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import quote

import polars as pl

from flows.kinds import norms as title_norms
from flows.site.names import file_part
from flows.site.pages import LinkGroup, Publication, season_rel
from flows.site.present import Details, Section, fmt, table_from_frame
from transforms.fide.norms import NormsConfig
from transforms.fide.rating_report import RatingReportRules
from transforms.team.config import TeamRoundRobinConfig, TeamRules
from transforms.team.event import Group, TeamRun

TEAMS = "teams/"
"""Every team's page is ``teams/<group>/<number>.html``."""
PLAYERS = "players/"
"""Every player's page is ``players/<group>/<number>.html`` (the player's ``pno``)."""


def round_rel(kind: str, r: int) -> str:
    """``rounds/round-05.html``, ``standings/round-05.html``."""
    return f"{kind}/round-{r:02d}.html"


def team_rel(group: str, sno: int) -> str:
    """The team's page, inside the event folder."""
    return f"{TEAMS}{file_part(group)}/{int(sno)}.html"


def player_rel(group: str, pno: int) -> str:
    """The player's page, inside the event folder."""
    return f"{PLAYERS}{file_part(group)}/{int(pno)}.html"


def up(page: str) -> str:
    """The way from ``page`` back to the event folder."""
    return "../" * page.count("/")


def match_anchor(group: str, team_a: str) -> str:
    """A match's place on its round's page (``rounds/round-NN.html#<anchor>``): its group and
    its first-named team's id."""
    return f"{file_part(group)}-match-{file_part(team_a)}"


GAME_COLUMN = ("g_label", "Game")
"""The column that links a board's game page, where the event publishes it."""


def game_cells(games: Mapping[tuple[int, str], str], rnd: int, players: tuple[str | None, ...],
               page: str) -> dict[str, str | None]:
    """A board's ``g_label`` ("game") and ``g_href`` (from ``page``) where ``games`` (the
    published games' pages by round and player id) has the game of one of its ``players``."""
    rel = next((games[(rnd, p)] for p in players if p and (rnd, p) in games), None)
    return {"g_label": "game" if rel else None, "g_href": up(page) + rel if rel else None}


def with_game_column(columns: list[tuple[str, str]], links: dict[str, str], rows: list[dict[str, object]],
                     after: str) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """``columns`` with the "Game" column after ``after`` and its link, when one of ``rows``
    has a game; else as they are (no empty column in an event without games)."""
    if not any(r.get("g_label") for r in rows):
        return columns, links
    at = [c for c, _ in columns].index(after) + 1
    return [*columns[:at], GAME_COLUMN, *columns[at:]], {**links, "g_label": "g_href"}


def score(points: float | None) -> str:
    """Game points as printed: ``2½``, ``3``, ``½``; empty when not known."""
    if points is None:
        return ""
    whole, half = int(points), points - int(points) >= 0.5
    return (f"{whole if whole or not half else ''}{'½' if half else ''}") or "0"


def result_text(result: str | None) -> str:
    """A board's result as printed: ``½-½`` for a draw; the rest as entered."""
    return {"1/2-1/2": "½-½"}.get(result or "", result or "")


FORFEIT_NOTE = {"forfeit_white": "{a} fielded {fa} of {n} boards: the match is lost by forfeit",
                "forfeit_black": "{b} fielded {fb} of {n} boards: the match is lost by forfeit",
                "forfeit_both": "both teams fielded fewer than half the boards: both lose by "
                                "forfeit"}
"""Why a match was decided by forfeit (``[team] forfeit_below_half``), as printed."""


def forfeit_note(m: dict[str, object], names: dict[int, str], boards: int) -> str:
    """The sentence under a match lost by forfeit; "" for any other."""
    text = FORFEIT_NOTE.get(str(m["status"]))
    if text is None:
        return ""
    return text.format(a=names.get(int(str(m["white"])), ""), b=names.get(int(str(m["black"])), ""),
                       fa=m["white_fielded"], fb=m["black_fielded"], n=boards) + "."


def names_of(group: Group) -> dict[int, str]:
    return dict(zip(group.teams["sno"].to_list(), group.teams["name"].to_list(), strict=True))


def players_of(group: Group) -> dict[str, str]:
    return {r["player_id"]: (f"{r['name']} ({r['rating']})" if r["rating"] else r["name"])
            for r in group.players.iter_rows(named=True)}


def match_frame(group: Group, r: int, page: str) -> pl.DataFrame:
    """The matches of round ``r`` (recorded, else the fixtures): number, teams, score, links."""
    names = names_of(group)
    played = {(m["white"], m["black"]): m for m in group.matches.filter(pl.col("round") == r).iter_rows(named=True)}
    fixtures = group.fixtures.filter(pl.col("round") == r)
    pairs = ([(f["white"], f["black"]) for f in fixtures.iter_rows(named=True)] if fixtures.height
             else list(played))
    rows = []
    for i, (w, b) in enumerate(pairs, start=1):
        m = played.get((w, b))
        rows.append({"match": i, "home": names.get(w, ""), "away": names.get(b, "") if b else "(bye)",
                     "score": (f"{score(m['white_gp'])} – {score(m['black_gp'])}" if m and m["status"] != "unfinished"
                               else ""),
                     "note": {"forfeit_white": "team A forfeits", "forfeit_black": "team B forfeits",
                              "forfeit_both": "both forfeit", "bye": "bye"}.get(m["status"], "") if m else "",
                     "_h": up(page) + team_rel(group.id, w), "_a": up(page) + team_rel(group.id, b) if b else None})
    return pl.DataFrame(rows, schema={"match": pl.Int64, "home": pl.String, "away": pl.String,
                                      "score": pl.String, "note": pl.String, "_h": pl.String, "_a": pl.String})


def board_sections(group: Group, r: int, boards: int,
                   games: Mapping[tuple[int, str], str] | None = None) -> list[Section]:
    """Every match of round ``r`` board by board (team A's player on the left, the colours as
    played, a "game" link where its game is published: ``games``), in the order of the
    round's matches (a league: its fixtures)."""
    names, who = names_of(group), players_of(group)
    ids = dict(zip(group.teams["sno"].to_list(), group.teams["team_id"].to_list(), strict=True))
    page = round_rel("rounds", r)
    out = []
    order = {(f["white"], f["black"]): i for i, f in
             enumerate(group.fixtures.filter(pl.col("round") == r).iter_rows(named=True))}
    matches = sorted(group.matches.filter((pl.col("round") == r) & (pl.col("black") != 0))
                     .iter_rows(named=True), key=lambda m: order.get((m["white"], m["black"]), len(order)))
    for m in matches:
        b = group.boards.filter((pl.col("round") == r) & (pl.col("white") == m["white"])
                                & (pl.col("black") == m["black"])).sort("board")
        rows = []
        for x in b.iter_rows(named=True):
            a_white = x["board"] % 2 == 1
            a_id, b_id = (x["white_id"], x["black_id"]) if a_white else (x["black_id"], x["white_id"])
            rows.append({"board": x["board"], "colour": "W" if a_white else "B",
                         "a": who.get(a_id or "", "(not fielded)"),
                         "result": result_text(x["result"]),
                         "b": who.get(b_id or "", "(not fielded)"),
                         **game_cells(games or {}, r, (x["white_id"], x["black_id"]), page)})
        frame = pl.DataFrame(rows, schema={"board": pl.Int64, "colour": pl.String, "a": pl.String,
                                           "result": pl.String, "b": pl.String,
                                           "g_label": pl.String, "g_href": pl.String})
        cols, links = with_game_column([("board", "Bd"), ("colour", ""), ("a", names[m["white"]]),
                                        ("result", "Result"), ("b", names[m["black"]])], {}, rows, "b")
        head = (f"{names[m['white']]} {score(m['white_gp'])} – {score(m['black_gp'])} "
                f"{names[m['black']]}" if m["status"] != "unfinished"
                else f"{names[m['white']]} – {names[m['black']]} (in play)")
        note = forfeit_note(m, names, boards)
        out.append(Section(head, anchor=match_anchor(group.id, ids[m["white"]]),
                           notes=[note] if note else [], tables=[table_from_frame(
                               frame, cols, numeric=["board"], links=links)]))
    return out


def standings_table(group: Group, r: int, run: TeamRun, page: str) -> Section:
    """The standings of ``group`` after round ``r``: rank, team, match and game points, the
    tie-breaks; the promotion and relegation places marked."""
    rules = run.cfg.require(TeamRules)
    ranking = group.rankings[r]
    n = ranking.height
    codes = [c for c in ranking.columns if c not in ("rank", "rank_label", "sno", "name", "mp", "gp",
                                                    "tied_after_all", "points")]
    frame = ranking.with_columns(
        pl.when(pl.int_range(1, pl.len() + 1) <= group.promoted).then(pl.lit("promoted"))
        .when(pl.int_range(1, pl.len() + 1) > n - group.relegated).then(pl.lit("relegated"))
        .otherwise(pl.lit("")).alias("_css"),
        pl.format(f"{up(page)}{TEAMS}{file_part(group.id)}/{{}}.html", pl.col("sno")).alias("_href"))
    frame = frame.with_columns(pl.col("_css").replace({"promoted": "▲", "relegated": "▼"})
                               .alias("_mark"))
    # A tie-break that is a total (GPTS, MPTS) is that column already: shown once.
    totals = [(c, label) for c, label in (("mp", "MP"), ("gp", "GP"))
              if f"{label}TS" not in codes]
    cols = [("rank_label", "Rk"), ("name", "Team"), *totals, *[(c, c) for c in codes]]
    if group.promoted or group.relegated:
        cols.append(("_mark", ""))
    notes = []
    for n, where, way in ((group.promoted, "first", "up (▲)"), (group.relegated, "last", "down (▼)")):
        if n:
            notes.append(f"The {where} team goes {way}." if n == 1 else
                         f"The {where} {n} teams go {way}.")
    notes.append(f"Match points: {rules.match_points[0]} for a match won, {rules.match_points[1]} "
                 f"drawn, {rules.match_points[2]} lost; ranked by "
                 f"{'match' if rules.primary.code == 'MP' else 'game'} points first.")
    return Section(f"{group.name} — after round {r}", anchor=file_part(group.id), notes=notes,
                   tables=[table_from_frame(frame, cols, numeric=["mp", "gp", *codes],
                                            row_css="_css", links={"name": "_href"})])


def fixtures_section(group: Group, run: TeamRun) -> Section:
    """A league division's whole season: each round's date and matches, with the scores of
    those played."""
    league = run.cfg.table(TeamRoundRobinConfig)
    dates = league.round_dates if league else ()
    names = names_of(group)
    played = {(m["round"], m["white"], m["black"]): m for m in group.matches.iter_rows(named=True)}
    rows = []
    for f in group.fixtures.iter_rows(named=True):
        m = played.get((f["round"], f["white"], f["black"]))
        rows.append({"round": f["round"],
                     "date": f"{dates[f['round'] - 1]:%a %d %b %Y}" if len(dates) >= f["round"] else "",
                     "home": names.get(f["white"], ""),
                     "away": names.get(f["black"], "") if f["black"] else "(no match)",
                     "score": (f"{score(m['white_gp'])} – {score(m['black_gp'])}"
                               if m and m["status"] != "unfinished" else "")})
    frame = pl.DataFrame(rows, schema={"round": pl.Int64, "date": pl.String, "home": pl.String,
                                       "away": pl.String, "score": pl.String})
    return Section(group.name, anchor=file_part(group.id), tables=[table_from_frame(
        frame, [("round", "Rd"), ("date", "Date"), ("home", "Home (White on board 1)"),
                ("score", "Score"), ("away", "Away")], numeric=["round"])])


def crosstable_section(group: Group) -> Section:
    """The grid of a group: each team against each other, the game points it scored (a double
    round robin: both matches)."""
    names = names_of(group)
    snos = group.teams["sno"].to_list()
    cells: dict[tuple[int, int], list[str]] = {}
    for m in group.matches.filter(pl.col("status") != "unfinished").iter_rows(named=True):
        if not m["black"]:
            continue
        cells.setdefault((m["white"], m["black"]), []).append(score(m["white_gp"]))
        cells.setdefault((m["black"], m["white"]), []).append(score(m["black_gp"]))
    rank = (dict(zip(group.rankings[group.done]["sno"].to_list(),
                     group.rankings[group.done]["rank_label"].to_list(), strict=True))
            if group.done else {})
    total_mp = {}
    total_gp = {}
    if group.done:
        for x in group.rankings[group.done].iter_rows(named=True):
            total_mp[x["sno"]], total_gp[x["sno"]] = x["mp"], x["gp"]
    rows = []
    for s in snos:
        row: dict[str, str] = {"no": str(s), "team": names[s]}
        for o in snos:
            row[str(o)] = "×" if o == s else " ".join(cells.get((s, o), []))
        row |= {"mp": fmt(total_mp.get(s, 0.0)), "gp": score(total_gp.get(s, 0.0)), "rank": rank.get(s, "")}
        rows.append(row)
    frame = pl.DataFrame(rows, schema={"no": pl.String, "team": pl.String, **{str(o): pl.String for o in snos},
                                       "mp": pl.String, "gp": pl.String, "rank": pl.String})
    return Section(group.name, anchor=file_part(group.id), wide=True, tables=[table_from_frame(
        frame, [("no", "No"), ("team", "Team"), *[(str(o), str(o)) for o in snos], ("mp", "MP"),
                ("gp", "GP"), ("rank", "Rk")], numeric=["mp", "gp"])])


def swiss_crosstable_section(group: Group) -> Section:
    """A team Swiss's crosstable in the order of the standings: each round the opponent's
    number, board 1's colour and the game points (``5w 3``; ``bye``; ``+``/``-`` a match won
    or lost by forfeit; empty: not paired), then match and game points."""
    names = names_of(group)
    final = group.rankings[group.done]
    cells: dict[tuple[int, int], str] = {}
    for m in group.matches.filter(pl.col("status") != "unfinished").iter_rows(named=True):
        if not m["black"]:
            cells[(m["white"], m["round"])] = "bye"
            continue
        for own, opp, colour, side in ((m["white"], m["black"], "w", "white"), (m["black"], m["white"], "b", "black")):
            mark = ""
            if m["status"].startswith("forfeit"):
                lost = m["status"] in (f"forfeit_{side}", "forfeit_both")
                mark = "-" if lost else "+"
            cells[(own, m["round"])] = f"{opp}{colour}\u00a0{score(m[f'{side}_gp'])}{mark}"
    rounds = list(range(1, group.done + 1))
    rows = []
    for x in final.iter_rows(named=True):
        s = x["sno"]
        rows.append({"rank": x["rank_label"], "no": str(s), "team": names[s],
                     **{f"r{r}": cells.get((s, r), "") for r in rounds},
                     "mp": fmt(x["mp"]), "gp": score(x["gp"])})
    frame = pl.DataFrame(rows, schema={"rank": pl.String, "no": pl.String, "team": pl.String,
                                       **{f"r{r}": pl.String for r in rounds},
                                       "mp": pl.String, "gp": pl.String})
    return Section(group.name, anchor=file_part(group.id), wide=True, tables=[table_from_frame(
        frame, [("rank", "Rk"), ("no", "No"), ("team", "Team"),
                *[(f"r{r}", f"Rd {r}") for r in rounds], ("mp", "MP"), ("gp", "GP")],
        numeric=["mp", "gp"])])


def lineup_sections(group: Group, r: int) -> list[Section]:
    """The matches of the round to be played with each team's line-up (the one its captain
    sent, else its roster's order: :func:`transforms.team.lineups.expected_lineups`)."""
    if group.lineups.height == 0:
        return []
    names, who = names_of(group), players_of(group)
    played = {(m["white"], m["black"]) for m in group.matches.filter(pl.col("round") == r).iter_rows(named=True)}
    out = []
    for f in group.fixtures.filter((pl.col("round") == r) & (pl.col("black") != 0)).sort("match").iter_rows(named=True):
        w, b = f["white"], f["black"]
        if (w, b) in played:
            continue
        line = {(x["sno"], x["board"]): x for x in group.lineups.filter(pl.col("sno").is_in([w, b])).iter_rows(named=True)}
        boards = sorted({bd for (_, bd) in line})
        rows = [{"board": bd, "colour": "W" if bd % 2 else "B",
                 "a": who.get(line[(w, bd)]["player_id"], "") if (w, bd) in line else "(empty)",
                 "b": who.get(line[(b, bd)]["player_id"], "") if (b, bd) in line else "(empty)"}
                for bd in boards]
        notes = [f"{names[t]}: no line-up received yet; shown in roster order." for t in (w, b)
                 if not any(x["sent"] for k, x in line.items() if k[0] == t)]
        frame = pl.DataFrame(rows, schema={"board": pl.Int64, "colour": pl.String, "a": pl.String, "b": pl.String})
        out.append(Section(f"{names[w]} – {names[b]}: line-ups", notes=notes, tables=[table_from_frame(
            frame, [("board", "Bd"), ("colour", ""), ("a", names[w]), ("b", names[b])], numeric=["board"])]))
    return out


def pairing_sections(group: Group, r: int) -> list[Section]:
    """A team Swiss's round as the engine paired it (FIDE C.04.6): the teams not paired, and
    how the bye, every bracket and every pair's colours were decided; or how a recorded round
    differs from the engine's pairing."""
    out = []
    if r in group.audit:
        out.append(Section("Pairing check", notes=[group.audit[r][0].upper() + group.audit[r][1:] + "."]))
    p = group.pairing
    if p is None or p.round != r:
        return out
    names = names_of(group)
    intro = []
    if p.absent:
        intro.append("Not paired this round (absent or withdrawn, FIDE C.04.2 3.2-3.3): "
                     + ", ".join(names.get(t, str(t)) for t in p.absent) + ".")
    if p.bye is not None:
        intro.append(f"The pairing-allocated bye: {names.get(p.bye, p.bye)}.")
    steps = pl.DataFrame({"step": p.explanation()[1:]}, schema={"step": pl.String})
    out.append(Section(f"How round {r} was paired", intro=intro, details=[Details(
        "The FIDE Swiss Team Pairing System (C.04.6) step by step: the bye, each bracket "
        "(its residents, upfloaters and the criteria that chose them) and each table's colours; "
        "teams by their numbers.",
        table_from_frame(steps, [("step", "Step")]))]))
    return out


def team_page(pub: Publication, run: TeamRun, group: Group, sno: int,
              games: Mapping[tuple[int, str], str] | None = None) -> None:
    """A team's page: its club and captain, its roster in board order, and round by round its
    opponent, the colour of its first board, the score and each board's player and result
    (and its game, where it is published: ``games``)."""
    page = team_rel(group.id, sno)
    league = run.cfg.table(TeamRoundRobinConfig) is not None
    team = group.teams.filter(pl.col("sno") == sno).row(0, named=True)
    names, who = names_of(group), players_of(group)
    roster = group.players.filter(pl.col("sno") == sno).select(
        "roster_board", "name", pl.col("rating").cast(pl.String).fill_null(""),
        pl.col("title").fill_null("") if "title" in group.players.columns else pl.lit("").alias("title"),
        pl.col("federation").fill_null("") if "federation" in group.players.columns else pl.lit("").alias("federation"),
        "pno")
    roster = roster.with_columns(pl.format(f"{up(page)}{PLAYERS}{file_part(group.id)}/{{}}.html",
                                           pl.col("pno")).alias("_href"))
    sections = [Section("Roster", tables=[table_from_frame(
        roster, [("roster_board", "Bd"), ("title", ""), ("name", "Name"), ("rating", "Rtg"),
                 ("federation", "Fed")], numeric=["roster_board"], links={"name": "_href"})])]
    for m in group.matches.filter((pl.col("white") == sno) | (pl.col("black") == sno)).sort("round").iter_rows(named=True):
        first = m["white"] == sno
        opp = m["black"] if first else m["white"]
        if not opp:
            sections.append(Section(f"Round {m['round']}: bye", intro=[
                f"No match this round (a bye): {fmt(m['white_mp'])} match points, "
                f"{score(m['white_gp'])} game points."]))
            continue
        own_gp, opp_gp = (m["white_gp"], m["black_gp"]) if first else (m["black_gp"], m["white_gp"])
        b = group.boards.filter((pl.col("round") == m["round"]) & (pl.col("white") == m["white"])
                                & (pl.col("black") == m["black"])).sort("board")
        rows = []
        for x in b.iter_rows(named=True):
            a_white = x["board"] % 2 == 1
            own_white = a_white == first
            own_id = x["white_id"] if own_white else x["black_id"]
            opp_id = x["black_id"] if own_white else x["white_id"]
            pts = x["white_points"] if own_white else x["black_points"]
            rows.append({"board": x["board"], "colour": "W" if own_white else "B",
                         "player": who.get(own_id or "", "(not fielded)"),
                         "points": score(pts) if pts is not None else "",
                         "opponent": who.get(opp_id or "", "(not fielded)"),
                         **game_cells(games or {}, m["round"], (own_id, opp_id), page)})
        frame = pl.DataFrame(rows, schema={"board": pl.Int64, "colour": pl.String, "player": pl.String,
                                           "points": pl.String, "opponent": pl.String,
                                           "g_label": pl.String, "g_href": pl.String})
        cols, links = with_game_column([("board", "Bd"), ("colour", ""), ("player", "Player"),
                                        ("points", "Pts"), ("opponent", "Opponent")], {}, rows, "opponent")
        where = (("home to" if first else "away at") if league else
                 f"{'White' if first else 'Black'} on board 1 against")
        head = (f"Round {m['round']}: {where} {names[opp]}, "
                f"{score(own_gp)} – {score(opp_gp)}") if m["status"] != "unfinished" else \
            f"Round {m['round']}: {where} {names[opp]}"
        note = forfeit_note(m, names, run.rules.boards)
        sections.append(Section(head, notes=[note] if note else [], tables=[table_from_frame(
            frame, cols, numeric=["board"], links=links)]))
    sections += tiebreak_sections(group, sno, run)
    facts = [x for x in (team.get("club") or "", f"Captain: {team['captain']}"
                         if team.get("captain") else "") if x]
    pub.page(page, title=team["name"], subtitle=" · ".join([group.name, *facts]), sections=sections,
             pdf=False)


def explained_page(pub: Publication, run: TeamRun) -> None:
    """``standings/explained.html``: the configured tie-breaks in order, each in words (the
    rulebook's :func:`transforms.fide.team_tiebreaks.team_tiebreak_name`); each team's page
    shows what every round gave it."""
    rules = run.rules
    codes = list(rules.tiebreaks)
    frame = pl.DataFrame({"order": list(range(1, len(codes) + 1)), "code": codes,
                          "what": [run.tiebreak_words.get(c, c) for c in codes]},
                         schema={"order": pl.Int64, "code": pl.String, "what": pl.String})
    first = "match points" if rules.primary.code == "MP" else "game points"
    notes = [f"Teams are ranked by {first} first (match points: {rules.match_points[0]} a match "
             f"won, {rules.match_points[1]} drawn, {rules.match_points[2]} lost), then by these "
             f"tie-breaks in order (FIDE C.07, {rules.tiebreak_edition.value} edition).",
             "Unplayed rounds (byes, forfeits, absences) count as FIDE C.07 art. 16 says for "
             "teams, where 'points' are match points and game points.",
             "Teams equal after every tie-break share the place; the chief arbiter decides how."]
    pub.page("standings/explained.html", title="How the tie-breaks work",
             subtitle="What each tie-break counts. Each team's page shows what every round gave it.",
             sections=[Section("The tie-breaks", notes=notes, tables=[table_from_frame(
                 frame, [("order", "#"), ("code", "Code"), ("what", "What it counts")],
                 numeric=["order"])])], pdf=False)


def tiebreak_sections(group: Group, sno: int, run: TeamRun) -> list[Section]:
    """A team's tie-breaks after the last complete round, round by round: what each round
    (an opponent, a bye, the dummy of an unplayed round) gave it, and what a cut dropped."""
    detail = group.tiebreak_detail
    if detail is None or not group.done:
        return []
    names = names_of(group)
    mine = detail.filter(pl.col("sno") == sno)
    ranking = group.rankings[group.done].filter(pl.col("sno") == sno).row(0, named=True)
    frame = mine.with_columns(
        pl.col("opponent_sno").replace_strict(names, default=None, return_dtype=pl.String)
        .fill_null(pl.col("opponent")).fill_null("").alias("against"),
        pl.when(pl.col("dropped_by_cut")).then(pl.lit("cut")).otherwise(pl.lit("")).alias("cut"))
    out = []
    for code in run.rules.tiebreaks:
        part = frame.filter(pl.col("code") == code).sort("round")
        if part.height == 0:
            continue
        out.append(Section(f"{code}: {fmt(ranking.get(code))}", intro=[
            run.tiebreak_words.get(code, code) + "."], tables=[table_from_frame(
                part, [("round", "Rd"), ("against", "Against"), ("value", "Value"), ("cut", ""),
                       ("note", "How")], numeric=["round", "value"])]))
    return out


RESULT_WORDS = {"played": "", "forfeit_win": " (forfeit)", "forfeit_loss": " (forfeit)"}


def player_page(pub: Publication, run: TeamRun, group: Group, player: dict[str, object],
                games: Mapping[tuple[int, str], str] | None = None) -> None:
    """A player's page: their team and board, every game (round, board, colour, opponent and
    their team, the result, the game's page where it is published: ``games``), and the FIDE
    rating change and performance of the event (B.02, the rulebook's figures)."""
    pno = int(str(player["pno"]))
    page = player_rel(group.id, pno)
    names, who = names_of(group), players_of(group)
    by_pno = dict(zip(group.players["pno"].to_list(), group.players["player_id"].to_list(), strict=True))
    played = group.games.filter(pl.col("pno") == pno).sort("round")
    rows = [{"round": g["round"], "board": g["board"], "colour": "W" if g["colour"] == "w" else "B",
             "opponent": who.get(by_pno.get(g["opponent_pno"], ""), "(not fielded)"),
             "team": names.get(g["opponent_team_sno"], ""),
             "result": score(g["points"]) + RESULT_WORDS.get(g["kind"], ""),
             **game_cells(games or {}, g["round"], (str(player["player_id"]),), page)}
            for g in played.iter_rows(named=True)]
    frame = pl.DataFrame(rows, schema={"round": pl.Int64, "board": pl.Int64, "colour": pl.String,
                                       "opponent": pl.String, "team": pl.String, "result": pl.String,
                                       "g_label": pl.String, "g_href": pl.String})
    cols, links = with_game_column([("round", "Rd"), ("board", "Bd"), ("colour", ""), ("opponent", "Opponent"),
                                    ("team", "Team"), ("result", "Result")], {}, rows, "result")
    sections = [Section("Games", tables=[table_from_frame(
        frame, cols, numeric=["round", "board"], empty="No game yet.", links=links)])]
    change = (group.ratings.players.filter(pl.col("sno") == pno).row(0, named=True)
              if group.ratings is not None and group.ratings.players.height else None)
    if change is not None and change["games"]:
        facts = [f"{change['games']} rated games, {score(change['score'])} points",
                 f"performance {change['performance']}" if change["performance"] is not None else ""]
        if change["rated"]:
            facts.append(f"rating change {change['change']:+d} (K {change['k']}): "
                         f"{change['rating']} → {change['new_rating']}")
        elif change["initial_rating"] is not None:
            facts.append(f"a first rating of {change['initial_rating']}")
        sections.append(Section("FIDE rating (B.02)", intro=["; ".join(f for f in facts if f) + "."],
                                notes=[str(change["note"])] if change["note"] else []))
    sections += title_norms.player_sections(group.norms, pno, player_names(group))
    for folder, name in pub.ctx.get("counted_in", ()):  # a series counting the event
        sections.append(Section("The season", link={
            "href": "../" * page.count("/") + f"../{quote(folder)}/"
                    f"{season_rel(pub.out_dir.name, group.id, pno)}",
            "label": f"{name}: every event of the player's season, the series' standings"}))
    team_name = names.get(int(str(player["sno"])), "")
    made = title_norms.player_fact(group.norms, pno)
    meta = [team_name, f"board {player['roster_board']} of the roster", *(v for _, v in made),
            f"rating {player['rating']}" if player.get("rating") else "unrated",
            f"FIDE ID {player['fide_id']}" if player.get("fide_id") else "",
            str(player.get("list_note") or "")]  # what came from the rating list in force
    pub.page(page, title=str(player["name"]), subtitle=" · ".join(m for m in meta if m),
             sections=sections, pdf=False)


def player_names(group: Group) -> dict[int, str]:
    """The group's players by number (``pno``)."""
    return dict(zip(group.players["pno"].to_list(), group.players["name"].to_list(), strict=True))


def norm_groups(run: TeamRun) -> list[title_norms.NormGroup]:
    """FIDE B.01 — each group's norms (``Group.norms``) for the norms pages."""
    return [title_norms.NormGroup(g.id, g.name, g.norms, player_names(g),
                                  lambda pno, gid=g.id: player_rel(gid, pno))
            for g in run.groups if g.norms is not None]


def board_prize_sections(run: TeamRun, page: str) -> list[Section]:
    """Per group and board, the prize places: the player, their team, games over the board,
    score and performance (the rulebook's :func:`transforms.team.players.board_prizes`)."""
    out = []
    for g in run.groups:
        if g.board_prizes.height == 0:
            continue
        people = g.players.select("pno", "name", "sno")
        frame = (g.board_prizes.join(people, on="pno", how="left")
                 .with_columns(pl.col("sno").replace_strict(names_of(g), return_dtype=pl.String).alias("team"),
                               pl.format(f"{up(page)}{PLAYERS}{file_part(g.id)}/{{}}.html",
                                         pl.col("pno")).alias("_href")))
        for board, part in frame.group_by("board", maintain_order=True):
            out.append(Section(f"{g.name} — board {board[0]}", anchor=f"{file_part(g.id)}-{board[0]}",
                               tables=[table_from_frame(
                                   part.sort("place", "pno"),
                                   [("place", "Pl"), ("name", "Player"), ("team", "Team"),
                                    ("games", "Games"), ("score", "Pts"), ("performance", "Perf")],
                                   numeric=["place", "games", "score", "performance"],
                                   links={"name": "_href"})]))
    return out


def publish_site(pub: Publication, run: TeamRun,
                 games: Mapping[tuple[int, str], str] | None = None) -> list[Section]:
    """Every public page of the competition, the boards with a published game linking it
    (``games``: its page by round and player id); returns the bulletin's sections (the latest
    standings and round)."""
    bulletin: list[Section] = []
    league = run.cfg.table(TeamRoundRobinConfig)
    last = max((g.done for g in run.groups), default=0)
    for r in range(1, max((g.rounds for g in run.groups), default=0) + 1):
        groups = [g for g in run.groups if g.matches.filter(pl.col("round") == r).height
                  or g.fixtures.filter(pl.col("round") == r).height]
        if r > last + 1 or not groups:
            continue
        rel = round_rel("rounds", r)
        secs: list[Section] = []
        for g in groups:
            secs.append(Section(g.name, anchor=file_part(g.id), tables=[table_from_frame(
                match_frame(g, r, rel), [("match", "No"), ("home", "Team A (White on board 1)"),
                                        ("score", "Score"), ("away", "Team B"), ("note", "")],
                numeric=["match"], links={"home": "_h", "away": "_a"})]))
            secs += board_sections(g, r, run.rules.boards, games)
            if r == g.next_round:
                secs += lineup_sections(g, r)
            secs += pairing_sections(g, r)
        pub.page(rel, title=f"Round {r}", subtitle="Every match, board by board.", sections=secs)
        done = [g for g in run.groups if g.done >= r]
        if done:
            srel = round_rel("standings", r)
            tables = [standings_table(g, r, run, srel) for g in done]
            tables[-1].link = {"href": "explained.html", "label": "How the tie-breaks work"}
            pub.page(srel, title=f"Standings after round {r}", subtitle="", sections=tables)
            if r == last:
                bulletin += [standings_table(g, r, run, "bulletin.html") for g in done]
    if league is not None:
        pub.page("fixtures.html", title="Fixtures", subtitle="Every round of the season, home team "
                 "first.", sections=[fixtures_section(g, run) for g in run.groups])
    if any(g.done for g in run.groups) and league is not None:
        pub.page("crosstable.html", title="Crosstable", subtitle="Game points each team scored "
                 "against each other.", sections=[crosstable_section(g) for g in run.groups if g.done])
    elif any(g.done for g in run.groups):
        pub.page("crosstable.html", title="Crosstable", subtitle=(
            "Each round: the opponent's number, the colour of board 1 and the game points "
            "scored; + a match won by forfeit, - lost by forfeit."),
            sections=[swiss_crosstable_section(g) for g in run.groups if g.done])
    if last:
        explained_page(pub, run)
    prizes = board_prize_sections(run, "board-prizes.html")
    if prizes:
        pub.page("board-prizes.html", title="Board prizes", subtitle=(
            "The best performances (FIDE B.02 8.1.1) on each board, of the players with at "
            f"least {run.rules.board_prize_min_games} games over the board; a player's board is "
            "the one they played most."), sections=prizes)
    norms_cfg = run.cfg.table(NormsConfig)
    if norms_cfg is not None:  # a title tournament: norms.html, office/norms/
        groups = norm_groups(run)
        title_norms.office_files(pub, norms_cfg, run.cfg.table(RatingReportRules), run.cfg.event,
                                 groups)
        title_norms.norms_page(pub, norms_cfg, groups)
    for g in run.groups:
        for sno in g.teams["sno"].to_list():
            team_page(pub, run, g, sno, games)
        for player in g.players.iter_rows(named=True):
            player_page(pub, run, g, player, games)
    return bulletin


def home_groups(run: TeamRun) -> list[LinkGroup]:
    """The event home's groups: each division's (or the field's) current pages and teams."""
    out = []
    league = run.cfg.table(TeamRoundRobinConfig) is not None
    for g in run.groups:
        anchor = file_part(g.id)
        links = []
        if g.done:
            links += [{"href": f"{round_rel('standings', g.done)}#{anchor}",
                       "label": f"Standings after round {g.done}"},
                      {"href": f"{round_rel('rounds', g.done)}#{anchor}", "label": f"Round {g.done}: the matches"}]
        if g.next_round is not None:
            links.append({"href": f"{round_rel('rounds', g.next_round)}#{anchor}",
                          "label": f"Round {g.next_round}: who plays whom"})
        if league:
            links.append({"href": f"fixtures.html#{anchor}", "label": "Fixtures"})
        if g.done:
            links.append({"href": f"crosstable.html#{anchor}", "label": "Crosstable"})
            links.append({"href": "standings/explained.html", "label": "How the tie-breaks work"})
        if g.board_prizes.height:
            links.append({"href": f"board-prizes.html#{anchor}-1", "label": "Board prizes"})
        if any(x.section == g.id for x in run.published_games):
            links.append({"href": f"games/index.html#{anchor}", "label": "Games"})
        if g.norms is not None:
            links.append({"href": f"norms.html#{g.id}", "label": "Title norms",
                          "note": f"({len(g.norms.achieved())} made)"})
        links += [{"href": team_rel(g.id, s), "label": n}
                  for s, n in zip(g.teams["sno"].to_list(), g.teams["name"].to_list(), strict=True)]
        out.append(LinkGroup(g.name, links, anchor=anchor,
                             intro=f"{g.teams.height} teams · {g.done} of {g.rounds} rounds complete"))
    return out

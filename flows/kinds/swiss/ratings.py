"""What a Swiss event's rating changes (FIDE B.02, :mod:`transforms.fide.ratings`) look like
where people look (presentation only: every number is the rulebook's,
``CategoryRun.ratings`` of :mod:`transforms.swiss.event`):

* the player's page: one section per rating list (FIDE's, then a national one): K and why,
  every assumption in words, per game the opponent's rating, the expected score and the
  change, the event's change and the performance; for an unrated player the games that count
  toward a first rating and whether the event alone is enough (:func:`player_sections`);
* the standings and the crosstable: an ``Rtg+/-`` column of the first list's (FIDE's) change
  of the event so far (:func:`change_column`);
* the player's letter: one line (:func:`letter_line`);
* the office's ``office/<list>/rating-change-<category>.csv`` (``office/fide/`` for FIDE's
  list): one row per rated player, one file per list (:func:`rating_change_files`).

Nothing here shows for an event without rating lists (no ``[ratings]``, no ``[fide_report]``:
``SwissRun.rating_lists``, :func:`transforms.swiss.event.rating_lists`).

Decision: ``Rtg+/-`` is K x Sigma(score - PD) of the games rated so far, unrounded
(``change_exact``, B.02 8.3.2), printed with its sign and one decimal as chess-results and
Swiss-Manager print it ("+12.4", "-3.0", "0.0"), the hundredths rounded half away from zero
(:func:`signed_tenths`); each game's change the same way. The whole-number change of B.02
8.3.4 (which rounds the change of the rating period, not of one event) is said on the
player's page. A standings page after round r shows the change of rounds 1 to r, so that a
round's printed standings never change when a later round is added.

Decision: the office CSV has one file per list (``office/fide/`` and, for a national list
``AICF``, ``office/aicf/``), each with the same eight columns, rather than one file with a
``list`` column: FIDE's file keeps the same columns whether or not the event has a second
list. ``change`` there is the exact K x Sigma(score - PD) (two decimals at most, B.02 8.3.2 d),
``expected`` Sigma PD, ``score`` the points of the games that count, ``games`` their number.
"""

from __future__ import annotations

import re

import polars as pl

from flows.io import csv_text
from flows.site.names import file_part
from flows.site.pages import OFFICE, Publication
from flows.site.present import Section, fmt, signed_tenths, table_from_frame
from transforms.core.model import Kind
from transforms.fide.ratings import RatingChanges, RatingsConfig

RATING_CHANGE_COLUMNS = ("player_id", "fide_id", "rating", "k", "games", "score", "expected",
                         "change")
"""The columns of the office's rating change CSV (issue 27)."""

CHANGE_LABEL = "Rtg+/-"


def lists_of(run) -> RatingsConfig | None:
    """FIDE B.02 — the event's rating lists (None: the event shows no rating change), as the
    rulebook decided them (``SwissRun.rating_lists``)."""
    return run.rating_lists


def event_facts(run) -> list[tuple[str, str]]:
    """FIDE B.02 — the event home's line on the lists it is rated for ([] without lists)."""
    lists = lists_of(run)
    if lists is None:
        return []
    named = ", ".join(x.name if x.name == "FIDE" else f"{x.name} (its own K)" for x in lists.lists)
    editions = ", ".join(sorted({x.edition.value for x in lists.lists}))
    return [("Rated for", f"{named}: FIDE Rating Regulations B.02, {editions}; rating changes "
                          f"({CHANGE_LABEL}) in the standings and on every player's page")]




def changes_through(run, c, r: int) -> dict[str, RatingChanges]:
    """FIDE B.02 8.3 — each list's rating changes of the category's rounds 1 to ``r``, as the
    rulebook's ratings step computed them for every complete round
    (``CategoryRun.ratings_by_round``); {} without rating lists."""
    if lists_of(run) is None or r < 1:
        return {}
    return c.ratings_by_round.get(r, {})


def change_column(run, c, r: int) -> pl.DataFrame | None:
    """FIDE B.02 8.3.2 — ``sno``, ``rtg_change``: the first list's (FIDE's) ``Rtg+/-`` after
    round ``r``, blank for an unrated player and a rated one without a game that counts; None
    when the event has no rating list."""
    ratings = changes_through(run, c, r)
    if not ratings:
        return None
    first = ratings[next(iter(ratings))].players
    shown = [signed_tenths(x) if rated and games else ""
             for x, rated, games in zip(first["change_exact"], first["rated"], first["games"],
                                        strict=True)]
    return first.select(pl.col("sno").cast(pl.Int32)).with_columns(
        pl.Series("rtg_change", shown, pl.String))


def with_change(frame: pl.DataFrame, run, c, r: int, cols: list[tuple[str, str]],
                numeric: list[str]) -> pl.DataFrame:
    """``frame`` with the ``Rtg+/-`` column joined by ``sno`` and added to ``cols`` and
    ``numeric`` (nothing added when the event has no rating list)."""
    col = change_column(run, c, r)
    if col is None:
        return frame
    cols.append(("rtg_change", CHANGE_LABEL))
    numeric.append("rtg_change")
    return frame.join(col, on=pl.col("sno").cast(pl.Int32), how="left")


# --------------------------------------------------------------------------- the player's page


def _result_cell(kind: str, score: float | None) -> str:
    if kind == Kind.FORFEIT_WIN.value:
        return "+"
    if kind == Kind.FORFEIT_LOSS.value:
        return "−"
    return {1.0: "1", 0.5: "½", 0.0: "0"}.get(score, fmt(score))


def _list_label(name: str) -> str:
    return f"{name} rating" if name == "FIDE" else f"{name} rating ({name} list)"


def player_facts(run, c, sno: int) -> list[tuple[str, str]]:
    """One fact per list for the top of the player's page: the change so far and the
    performance, or where the first rating stands."""
    out = []
    for name, rc in c.ratings.items():
        p = rc.players.row(by_predicate=pl.col("sno") == sno, named=True)
        perf = f", performance {p['performance']}" if p["performance"] is not None else ""
        if p["rated"]:
            text = (f"{signed_tenths(p['change_exact'])} after round {c.done} (K {p['k']}){perf}"
                    if p["games"] else f"no rated game yet (K {p['k']})")
            out.append((f"{name} {CHANGE_LABEL}", text))
        else:
            text = (f"{p['initial_rating']} from {p['games']} games" if p["initial_rating"] is not None
                    else f"not yet ({p['games']} games against rated opponents){perf}")
            out.append((f"{name} first rating", text))
    return out


def player_sections(run, c, sno: int, names: dict[int, str]) -> list[Section]:
    """FIDE B.02 8.2, 8.3 — the player's rating sections, one per list: what K is and why,
    what was assumed, every game with the opponent's rating, the expected score and the change
    (a rated player), or the games toward a first rating (an unrated one)."""
    lists = lists_of(run)
    if lists is None or not c.ratings:
        return []
    rules = {lst.name: lst.rules() for lst in lists.lists}
    year = lists.period_year or run.cfg.event.start.year  # as transforms.swiss.event rates
    out = []
    for name, rc in c.ratings.items():
        p = rc.players.row(by_predicate=pl.col("sno") == sno, named=True)
        games = rc.games.filter(pl.col("sno") == sno).sort("round")
        out.append(_rated_section(name, c, p, games, names, rules[name], year) if p["rated"]
                   else _unrated_section(name, c, p, games, names, rules[name]))
    return out


_JUNIOR_REASON = re.compile(r"born \d{4}, under (\d+), until the end of \d{4}")


def k_reason(note: str, rules, period_year: int) -> str:
    """FIDE B.02 8.3.3 — why K is what it is, for a public page: the rulebook's reasons
    (``note``, "K 40: born 2007, under 2300, until the end of 2025 (B.02 8.3.3)") without the
    "K n:" and without the year of birth.

    Decision: a page says "a junior (18 or younger at the end of 2026) rated under 2300", not
    the year of birth nor the year it implies: public files carry no birth date (DESIGN.md),
    and the public TRF leaves even the year blank for the minors of a junior event
    (:func:`transforms.swiss.exports.public_trf`); a K given in players.csv is called so."""
    parts, ks = [], []
    for part in note.split("; "):
        if part.startswith("K ") and ": " in part:
            k, part = part.split(": ", 1)
            ks.append(k)
        part = _JUNIOR_REASON.sub(f"a junior ({rules.junior_age} or younger at the end of "
                                  f"{period_year}) rated under \\1", part)
        parts.append(part.replace("given (k_override)",
                                  "as given in players.csv (k_factor: the K FIDE published)"))
    if len(parts) > 1 and ks:  # the 700 rule lowered it: say from what
        parts[0] += f", which gives {ks[0]}"
    return "; ".join(parts)


def _game_frame(games: pl.DataFrame, names: dict[int, str]) -> pl.DataFrame:
    return games.with_columns(
        pl.col("opponent").replace_strict(names, default=None, return_dtype=pl.String)
        .alias("opp_name"),
        pl.format("{}.html", pl.col("opponent")).alias("o_href"),
        pl.Series("res", [_result_cell(k, s) for k, s in zip(games["kind"], games["score"],
                                                             strict=True)], pl.String),
        pl.Series("chg", [signed_tenths(x) for x in games["change"]], pl.String),
        pl.Series("exp", [f"{x:.2f}" if x is not None else "" for x in games["expected"]], pl.String),
        pl.when(pl.col("counts")).then(pl.lit("yes")).otherwise(pl.lit("no")).alias("counted"))


def _cap_text(rules) -> str:
    if rules.max_difference is None:
        return ""
    who = f" for players rated under {rules.uncapped_from}" if rules.uncapped_from else ""
    return (f", a difference of more than {rules.max_difference} counted as "
            f"{rules.max_difference}{who}")


def _not_counted(games: pl.DataFrame) -> list[str]:
    return [f"Round {r['round']}: {r['note']}." for r in games.filter(~pl.col("counts"))
            .iter_rows(named=True)]


def _assumptions(p: dict) -> list[str]:
    if not p["assumptions"]:
        return []
    return ["What the office does not know, and how the rating regulations were read: "
            + "; ".join(p["assumptions"]) + "."]


def _rated_section(name: str, c, p: dict, games: pl.DataFrame, names: dict[int, str],
                   rules, period_year: int) -> Section:
    """FIDE B.02 8.3 — a rated player's change: K (8.3.3), the games that count (8.3.1, 5.1),
    per game K x (score - PD) (8.3.2), the total rounded (8.3.4), the performance (8.1.1)."""
    why = k_reason(p["note"], rules, period_year)
    intro = [f"Rating {p['rating']} on the {name} list. K {p['k']}: {why}."]
    if p["games"]:
        intro.append(
            f"Change after round {c.done}: {signed_tenths(p['change_exact'])} "
            f"(K {p['k']} × (score {fmt(p['score'])} − expected {p['expected']:.2f}) over "
            f"{p['games']} rated {'game' if p['games'] == 1 else 'games'}, {rules.name} 8.3.2); "
            f"rounded {p['change']:+d} ({rules.name} 8.3.4): {p['new_rating']} if this event is "
            "the player's only one of the rating period.")
        intro.append(f"Performance {p['performance']}: the opponents' average {p['aro']} + dp for "
                     f"the score ({rules.name} 8.1.1).")
    else:
        intro.append(f"No game counts yet: only games over the board against rated opponents are "
                     f"rated ({rules.name} 8.3.1, 5.1).")
    intro += _assumptions(p)
    frame = _game_frame(games, names)
    t = table_from_frame(frame, [("round", "Rd"), ("opp_name", "Opponent"),
                                 ("opponent_rating", "Rtg"), ("res", "Res"), ("exp", "Exp"),
                                 ("chg", CHANGE_LABEL)],
                         numeric=["round", "opponent_rating", "exp", "chg"],
                         links={"opp_name": "o_href"}, empty="No game yet.",
                         caption=f"Every game on the {name} list")
    notes = _not_counted(games) + [
        f"Rtg: the opponent's {name} rating. Exp: the expected score (PD) for the rating "
        f"difference{_cap_text(rules)} ({rules.name} 8.1.2, 8.3.1). {CHANGE_LABEL}: K × "
        f"(result − Exp), to one decimal; the event's change is K × the sum over its games, "
        f"rounded once ({rules.name} 8.3.4)."]
    return Section(f"{_list_label(name)} — change after round {c.done}", intro=intro, tables=[t],
                   notes=notes, anchor=f"rating-{file_part(name, lower=True)}")


def _unrated_section(name: str, c, p: dict, games: pl.DataFrame, names: dict[int, str],
                     rules) -> Section:
    """FIDE B.02 8.2, 7.1.4 — an unrated player's games toward a first rating: those over the
    board against rated opponents, at least ``initial_min_games`` of them."""
    need = rules.initial_min_games
    intro = [f"Unrated on the {name} list: the games over the board against rated opponents "
             f"count toward a first rating, which needs at least {need} such games "
             f"({rules.name} 7.1.4, 8.2)."]
    counted = p["games"]
    if p["needs_games"] and counted and p["score"] == 0 and p["initial_rating"] is None \
            and p["note"].startswith("zero score"):
        intro.append(f"{counted} {'game counts' if counted == 1 else 'games count'} after round "
                     f"{c.done}, all lost: a zero score in a first event is disregarded "
                     f"({rules.name} 8.2.1), so this event alone gives no first rating — "
                     f"{p['needs_games']} games against rated opponents needed in later events.")
    elif p["needs_games"]:
        intro.append(f"{counted} {'game counts' if counted == 1 else 'games count'} after round "
                     f"{c.done}: this event alone is not enough — {p['needs_games']} more "
                     f"{'game' if p['needs_games'] == 1 else 'games'} against rated opponents "
                     "needed.")
    else:
        intro.append(f"{counted} games count after round {c.done}: enough for a first rating "
                     f"from this event alone ({need} needed).")
    intro.append(f"Where the games lead: {p['note']}.")
    if not p["needs_games"] and p["games"]:
        intro.append(f"Ra: the average rating of the opponents, with {rules.hypothetical_opponents} "
                     f"hypothetical opponents rated {rules.hypothetical_rating}, each a draw "
                     f"({rules.name} 8.2.2); dp: the rating difference for the score p "
                     f"({rules.name} 8.1.1); Ru = Ra + dp, at most {rules.initial_max} "
                     f"({rules.name} 8.2.3).")
    if p["performance"] is not None:
        intro.append(f"Performance {p['performance']}: the opponents' average {p['aro']} + dp "
                     f"for the score ({rules.name} 8.1.1).")
    intro += _assumptions(p)
    t = table_from_frame(_game_frame(games, names),
                         [("round", "Rd"), ("opp_name", "Opponent"), ("opponent_rating", "Rtg"),
                          ("res", "Res"), ("counted", "Counts")],
                         numeric=["round", "opponent_rating"], links={"opp_name": "o_href"},
                         empty="No game yet.", caption=f"Every game on the {name} list")
    notes = _not_counted(games) + [
        f"Rtg: the opponent's {name} rating. Counts: whether the game counts toward the first "
        f"rating (over the board, against a rated opponent: {rules.name} 8.2.2, 5.1)."]
    return Section(f"{_list_label(name)} — toward a first rating after round {c.done}",
                   intro=intro, tables=[t], notes=notes,
                   anchor=f"rating-{file_part(name, lower=True)}")


# --------------------------------------------------------------------------- letters, office


def letter_line(run, c, sno: int) -> str:
    """FIDE B.02 8.3, 8.2 — the player's rating change so far (or where the first rating
    stands) in one sentence for every list; "" without lists."""
    parts = []
    when = "so far" if c.done < c.rounds else "in this event"
    for name, rc in c.ratings.items():
        p = rc.players.row(by_predicate=pl.col("sno") == sno, named=True)
        perf = f", performance {p['performance']}" if p["performance"] is not None else ""
        if p["rated"]:
            if p["games"]:
                parts.append(f"{name} rating change {when} {signed_tenths(p['change_exact'])} "
                             f"(K {p['k']}, {p['games']} rated games){perf}")
        elif p["initial_rating"] is not None:
            parts.append(f"{name} first rating {p['initial_rating']} from {p['games']} games{perf}")
        else:
            parts.append(f"{name} first rating: {p['needs_games']} more games against rated "
                         f"opponents needed{perf}")
    return ("; ".join(parts) + ".") if parts else ""


def rating_change_frame(c, rc: RatingChanges) -> pl.DataFrame:
    """FIDE B.02 8.3 — the office's rows of one list: every rated player of the category."""
    ids = c.players.select(pl.col("sno").cast(pl.Int32), "player_id",
                           pl.col("fide_id").cast(pl.String) if "fide_id" in c.players.columns
                           else pl.lit(None, pl.String).alias("fide_id"))
    return (rc.players.filter(pl.col("rated"))
            .join(ids, on="sno", how="left")
            .sort("sno")
            .select("player_id", "fide_id", "rating", "k", "games", "score",
                    pl.col("expected").round(2), pl.col("change_exact").round(2).alias("change")))


def rating_change_files(pub: Publication, run) -> None:
    """FIDE B.02 8.3 — ``office/<list>/rating-change-<category>.csv`` of every category with a
    complete round, one per rating list (``office/fide/`` for FIDE's): see the module's
    Decision."""
    if lists_of(run) is None:
        return
    for c in run.categories:
        for name, rc in c.ratings.items():
            rel = f"{OFFICE}{file_part(name, lower=True)}/rating-change-{file_part(c.cat.id)}.csv"
            pub.files[rel] = csv_text(rating_change_frame(c, rc))


def change_notes(run) -> list[str]:
    """FIDE B.02 8.3 — what the ``Rtg+/-`` column holds ([] without rating lists)."""
    lists = lists_of(run)
    if lists is None:
        return []
    name = lists.lists[0].name
    return [f"{CHANGE_LABEL}: the {name} rating change of the rounds so far, K × (score − "
            f"expected score) over the games rated (FIDE B.02 8.3), unrounded; blank for an "
            "unrated player or without a rated game. Each player's page shows every game, K "
            "and why."]

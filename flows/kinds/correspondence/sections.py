"""The Golden Knights play pages: one page per stage (its sections, where play is; printed:
every crosstable of the stage) and one page per section (crosstable, games finished and in
progress, qualifiers, rulings). Presentation only: every value comes from ``GKResult``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import polars as pl

from flows.kinds.correspondence.games import GAME_COLUMN, GameKey, game_key, with_game_links
from flows.kinds.correspondence.links import (
    STAGE_NAMES,
    People,
    href,
    keep_words,
    section_page,
    stage_name,
    stage_page,
    stage_sorted,
    with_people,
)
from flows.site.pages import Publication
from flows.site.present import Section, Table, fmt, table_from_frame
from flows.site.render import plural
from transforms.core.model import ResultCode
from transforms.golden_knights.event import GKResult
from transforms.golden_knights.rules import GKRules, Stage

RESULT_TEXT = {ResultCode.WHITE_WINS.value: "1-0", ResultCode.BLACK_WINS.value: "0-1",
               ResultCode.DRAW.value: "½-½", ResultCode.WHITE_FORFEIT_WIN.value: "+/− (forfeit)",
               ResultCode.BLACK_FORFEIT_WIN.value: "−/+ (forfeit)",
               ResultCode.DOUBLE_FORFEIT.value: "−/− (double forfeit)"}
"""A game's result as the pages write it (White's side first)."""
SOURCE_NOTES = {"rule 12": "time overstep (rule 12)",
                "rule 7": "director's decision (rule 7)"}
"""Why a result is not the one the players reported (games.csv ``source``)."""
RULING_NAMES = {"reflection_time_penalty": "reflection-time penalty", "loss_of_game": "loss of game"}
QUALIFIED_TEXT = {True: "advances", False: "does not advance", None: "may fill the last section"}


@dataclass(frozen=True)
class StagePlay:
    """Where play is in one stage (for the stage page and the event home)."""

    stage: str
    sections: int
    complete: int
    games: int
    finished: int
    page: str
    section_pages: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        if self.complete == self.sections:
            return "complete"
        return f"in progress ({self.complete} of {self.sections} sections complete)"


@dataclass(frozen=True)
class GKResultView:
    """The part of a result :func:`crosstable_sections` reads (one section's rows)."""

    crosstables: pl.DataFrame


def ruling_text(rules: GKRules, ruling: str, offense: int | None = None) -> str:
    """A rule 12 ruling in words ("2nd overstep: loss of game")."""
    text = (f"{rules.reflection_penalty_days}-day reflection-time penalty" if ruling == "reflection_time_penalty"
            else RULING_NAMES.get(ruling, ruling))
    if offense is None:
        return text
    nth = {1: "1st", 2: "2nd", 3: "3rd"}.get(offense, f"{offense}th")
    return f"{nth} overstep: {text}"


def rulings_frame(rules: GKRules, rulings: pl.DataFrame) -> pl.DataFrame:
    """Rule 12 rulings with the columns the pages show (ruling in words, reported date)."""
    return rulings.with_columns(
        ruling_text=pl.struct("ruling", "offense").map_elements(
            lambda r: ruling_text(rules, r["ruling"], r["offense"]), return_dtype=pl.String),
        reported_text=pl.col("reported").dt.to_string("%Y-%m-%d"),
        stage_text=pl.col("stage").replace_strict(STAGE_NAMES, default=pl.col("stage")))


CELL_LINK_NOTE = ("A result that is a link opens the game: its moves on a board to step "
                  "through. A game is published once it has ended and the office has its moves.")
"""What a crosstable with linked cells says under it."""


def crosstable_sections(res: GKResult | GKResultView, rules: GKRules, people: People | None = None,
                        from_rel: str = "", *, headings: bool = True,
                        games: Mapping[GameKey, str] | None = None) -> list[Section]:
    """One section per crosstable (seat order; cells against seats 1 … section size); names
    link to the members' pages when ``people`` is given (links relative to ``from_rel``).

    Decision (docs/decisions.md, "The games of a correspondence event"): a cell whose game is
    published (``games``: each game's page by :func:`~flows.kinds.correspondence.games.
    game_key`) links to the game's page — the cell is the game's result, so it leads to the
    game, as a results table's result does; the player's name keeps its link to the member's
    page, and a note under the crosstable says what a linked result is."""
    out = []
    ct = res.crosstables
    groups = ct.partition_by(["stage", "section"], maintain_order=True) if ct.height else []
    for g in groups:
        stage, section = g["stage"][0], g["section"][0]
        g = g.sort("seat")
        status = "complete" if g["section_complete"][0] else "in progress"
        cells = [f"c{i}" for i in range(1, rules.section_size + 1) if f"c{i}" in g.columns]
        links = None
        if people is not None:
            g = with_people(g, people, from_rel, ["entry_id"]).with_columns(name=pl.col("entry_id_name"))
            links = {"name": "entry_id_href"}
        notes = []
        if games and from_rel:
            seats = dict(zip(g["seat"].to_list(), g["entry_id"].to_list(), strict=True))
            entries = g["entry_id"].to_list()
            for c in cells:
                opp = seats.get(int(c[1:]))
                hrefs = [href(from_rel, games[k]) if opp is not None and e is not None
                         and (k := game_key(stage, section, e, opp)) in games else None for e in entries]
                g = g.with_columns(pl.Series(f"{c}_href", hrefs, pl.String))
            linked = [c for c in cells if g[f"{c}_href"].is_not_null().any()]
            if linked:
                links = {**(links or {}), **{c: f"{c}_href" for c in linked}}
                notes.append(CELL_LINK_NOTE)
        heading = f"{stage_name(stage)} — section {section} ({status})" if headings else "Crosstable"
        out.append(Section(heading, notes=notes, tables=[
            table_from_frame(g, [("seat", "#"), ("name", "Player"), ("rating", "Rtg")]
                             + [(c, c[1:]) for c in cells] + [("score", "Score")],
                             numeric=["seat", "rating", "score"], cell_cols=cells, links=links)]))
    return out


def stage_play(res: GKResult) -> list[StagePlay]:
    """Each stage with published sections, in playing order: sections, complete, games."""
    out = []
    games = res.games
    for stage in Stage:
        ct = res.crosstables.filter(pl.col("stage") == stage.value)
        if ct.is_empty():
            continue
        secs = ct.select("section", "section_complete").unique("section").sort("section")
        g = games.filter(pl.col("stage") == stage.value)
        out.append(StagePlay(stage.value, secs.height, int(secs["section_complete"].sum()), g.height,
                             int(g["result"].is_not_null().sum()), stage_page(stage.value),
                             [section_page(stage.value, s) for s in secs["section"]]))
    return out


def games_frame(games: pl.DataFrame) -> pl.DataFrame:
    """A section's games with the columns the pages show: result text and note."""
    return games.with_columns(
        result_text=pl.col("result").replace_strict(RESULT_TEXT, default=pl.col("result")).fill_null("in progress"),
        ended_text=pl.col("ended").dt.to_string("%Y-%m-%d"),
        note=pl.col("source").replace_strict(SOURCE_NOTES, default=None),
    )


def by_section(frame: pl.DataFrame) -> dict[tuple[str, str], pl.DataFrame]:
    """The frame's rows by (stage, section), in the frame's order: one pass, not a filter of
    the whole event per section (320 sections × 4 frames)."""
    if frame.is_empty():
        return {}
    return {(k[0], k[1]): g for k, g in
            frame.partition_by(["stage", "section"], as_dict=True, maintain_order=True).items()}


def section_pages(pub: Publication, rules: GKRules, res: GKResult, people: People,
                  pages: Mapping[GameKey, str] | None = None) -> None:
    """``sections/<stage>-<section>.html`` for every published section (HTML only; previous
    and next section of the same stage linked); where games are published (``pages``), the
    crosstable's results and the finished games link them."""
    ct = stage_sorted(res.crosstables, "section", "seat")
    games = games_frame(res.games)
    q = res.qualifiers.with_columns(advance=pl.col("qualified").replace_strict(
        QUALIFIED_TEXT, default=None, return_dtype=pl.String).fill_null(QUALIFIED_TEXT[None]))
    rulings = rulings_frame(rules, res.rulings)
    cut = {name: by_section(frame) for name, frame in
           (("crosstables", res.crosstables), ("games", games), ("qualifiers", q), ("rulings", rulings))}
    by_stage: dict[str, list[str]] = {}
    for stage, section in ct.select("stage", "section").unique(maintain_order=True).iter_rows():
        by_stage.setdefault(stage, []).append(section)
    for stage, sections in by_stage.items():
        for i, section in enumerate(sections):
            rel = section_page(stage, section)
            here = cut["crosstables"].get((stage, section), res.crosstables.clear())
            cross = crosstable_sections(GKResultView(here), rules, people, rel, headings=False,
                                        games=pages)
            g = cut["games"].get((stage, section), games.clear())
            g = with_people(g, people, rel, ["white", "black"])
            g = with_game_links(g, pages or {}, rel)
            done = g.filter(pl.col("result").is_not_null()).sort("ended", "white", nulls_last=True)
            running = g.filter(pl.col("result").is_null()).sort("white", "black")
            gcols = [("white_name", "White"), ("black_name", "Black")]
            links = {"white_name": "white_href", "black_name": "black_href"}
            parts = [*cross]
            dcols = [*gcols, ("result_text", "Result"), ("ended_text", "Ended")]
            if done["note"].is_not_null().any():
                dcols.append(("note", "Note"))
            if done["g_label"].is_not_null().any():
                dcols.append(GAME_COLUMN)
            parts.append(Section(f"Games finished ({done.height} of {g.height})", tables=[table_from_frame(
                done, dcols, numeric=["ended_text"], links={**links, "g_label": "g_href"},
                empty="No game has finished yet.")]))
            if running.height:
                parts.append(Section(f"Games in progress ({running.height})", tables=[table_from_frame(
                    running, gcols, links=links)]))
            sq = cut["qualifiers"].get((stage, section), q.clear())
            if stage != Stage.FINAL.value:
                nxt = stage_name(Stage(stage).next.value).lower()
                sq = with_people(sq, people, rel, ["entry_id"])
                parts.append(Section(f"Who advances to the {nxt} (rule 3)", tables=[table_from_frame(
                    sq, [("entry_id_name", "Player"), ("score", "Score"), ("advance", "Advances"),
                         ("basis", "Basis")], numeric=["score"], links={"entry_id_name": "entry_id_href"},
                    empty="Decided when every game of the section has a result.")]))
            sr = cut["rulings"].get((stage, section), rulings.clear())
            if sr.height:
                sr = with_people(sr, people, rel, ["entry_id", "opponent"])
                parts.append(Section("Time-overstep rulings (rule 12)", tables=[keep_words(table_from_frame(
                    sr, [("entry_id_name", "Overstepped"), ("opponent_name", "Opponent"),
                         ("reported_text", "Reported"), ("ruling_text", "Ruling")],
                    links={"entry_id_name": "entry_id_href", "opponent_name": "opponent_href"}), "Reported")]))
            latest = done["ended"].max()
            status = ("Complete" if running.is_empty() else "In progress") + \
                f": {done.height} of {g.height} games finished."
            if latest is not None:
                status += f" Latest result {latest:%d %B %Y}."
            pub.page(rel, title=f"{stage_name(stage)} — section {section}", subtitle=status,
                     sections=parts, pdf=False, as_of="",
                     prev=section_page(stage, sections[i - 1]) if i else None,
                     next=section_page(stage, sections[i + 1]) if i + 1 < len(sections) else None)


def stage_pages(pub: Publication, rules: GKRules, res: GKResult, people: People,
                play: list[StagePlay], pages: Mapping[GameKey, str] | None = None) -> None:
    """``stages/<stage>.html`` (and its PDF): the sections of a stage, where play is, links to
    each section's page, then every crosstable of the stage (results linking their published
    games: ``pages``)."""
    waiting = res.waiting.group_by("stage").len()
    waits = dict(zip(waiting["stage"], waiting["len"], strict=True))
    proposed = res.proposed_sections.select("stage", "section").unique().group_by("stage").len()
    props = dict(zip(proposed["stage"], proposed["len"], strict=True))
    for i, sp in enumerate(play):
        rel = sp.page
        ct = res.crosstables.filter(pl.col("stage") == sp.stage)
        g = res.games.filter(pl.col("stage") == sp.stage)
        per = g.group_by("section").agg(games=pl.len(), finished=pl.col("result").is_not_null().sum())
        top = ct.group_by("section").agg(top=pl.col("score").max(), complete=pl.col("section_complete").first())
        adv = res.qualifiers.filter((pl.col("stage") == sp.stage) & pl.col("qualified").fill_null(False)) \
            .group_by("section").len("advance")
        t = (top.join(per, on="section", how="left").join(adv, on="section", how="left").sort("section")
             .with_columns(
                 status=pl.when(pl.col("complete")).then(pl.lit("complete")).otherwise(pl.lit("in progress")),
                 finished_text=pl.format("{} of {}", pl.col("finished"), pl.col("games")),
                 advance=pl.col("advance").fill_null(0)))
        t = t.with_columns(pl.Series("href", [href(rel, section_page(sp.stage, s)) for s in t["section"]],
                                     pl.String))
        cols = [("section", "Section"), ("status", "Status"), ("finished_text", "Games"), ("top", "Top")]
        if sp.stage != Stage.FINAL.value:
            cols.append(("advance", "Advance"))
        intro = [f"{plural(sp.sections, 'section')} of {rules.section_size} players; {sp.complete} complete. {sp.finished} of "
                 f"{sp.games} games finished. Each player has {rules.games_per_player} games, "
                 f"{rules.whites_per_player} with White and {rules.games_per_player - rules.whites_per_player} "
                 "with Black (rule 2)."]
        if sp.stage != Stage.FINAL.value:
            intro.append(f"{fmt(rules.advance_score).replace('.5', '½')} points or more advance; if nobody in "
                         f"a section reaches it, its {fmt(rules.fallback_score)}-pointers advance (rule 3).")
        if props.get(sp.stage):
            intro.append(f"{plural(props[sp.stage], 'more section')} proposed, waiting for the director's publication.")
        if waits.get(sp.stage):
            intro.append(f"{waits[sp.stage]} entr{'y waits' if waits[sp.stage] == 1 else 'ies wait'} for a "
                         f"section of {rules.section_size}.")
        overview = Section("Sections", intro=intro, tables=[table_from_frame(
            t, cols, numeric=["top", "advance"], links={"section": "href"})])
        crosstables = crosstable_sections(GKResultView(ct), rules, people, rel, games=pages)
        nxt = play[i + 1].page if i + 1 < len(play) else None
        pub.page(rel, title=stage_name(sp.stage), subtitle=f"Stage {i + 1} of {len(Stage)}, {sp.status}.",
                 sections=[overview, *crosstables], as_of="",
                 prev=play[i - 1].page if i else None, next=nxt)


def stage_table(play: list[StagePlay], from_rel: str, res: GKResult) -> Table:
    """Where play is, stage by stage (the event home)."""
    rows = []
    for sp in play:
        rows.append({"stage": stage_name(sp.stage), "href": href(from_rel, sp.page), "status": sp.status,
                     "games": f"{sp.finished} of {sp.games}"})
    for stage in Stage:
        if stage.value in {sp.stage for sp in play}:
            continue
        n_prop = res.proposed_sections.filter(pl.col("stage") == stage.value)["section"].n_unique()
        n_wait = res.waiting.filter(pl.col("stage") == stage.value).height
        status = ("sections proposed, to be published by the director" if n_prop
                  else f"{n_wait} waiting for a section" if n_wait else "not started")
        rows.append({"stage": stage_name(stage.value), "href": "", "status": status, "games": ""})
    frame = pl.DataFrame(rows, schema={"stage": pl.String, "href": pl.String, "status": pl.String,
                                       "games": pl.String})
    return table_from_frame(frame, [("stage", "Stage"), ("status", "Where play is"), ("games", "Games finished")],
                            links={"stage": "href"})

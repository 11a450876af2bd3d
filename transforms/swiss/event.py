"""A Swiss event from its checked inputs to what the office publishes: the counterpart of
:func:`transforms.golden_knights.event.run_golden_knights`.

:func:`run_swiss` validates the input files (DESIGN.md "Inputs"), decides the entries (the
event's entry rules, e.g. National Junior 2024), builds every category's scorecard, ranks
every complete round (FIDE C.07 tie-breaks), re-pairs every recorded round with the Dutch
engine (the audit), pairs the next round when the previous one is complete (FIDE C.04.3, with
the National Junior's last-round same-state rule where configured), allocates the prizes
when the last round is complete and makes the files for other programs (the public TRF, the
FIDE rating report and its check: :mod:`transforms.swiss.exports`). Everything a page, PDF,
TRF or letter prints is on the run when the steps are done; the pages only format it. The
flow (``flows/kinds/swiss/flow.py``) reads the files, hands their raw frames in, and publishes
what comes back.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple, TypedDict

import polars as pl

from transforms.core.config import (
    ROUND_ROBIN_PLAYERS_PER_CATEGORY,
    SWISS_PLAYERS_PER_CATEGORY,
    EventConfig,
)
from transforms.core.errors import ChessfedError, Finding, Severity
from transforms.core.games import (
    BulletinGame,
    GameRecord,
    GamesConfig,
    bulletin_games,
    match_games,
    published_games,
)
from transforms.core.ingest import (
    RawFile,
    Schema,
    crowded_categories,
    has_errors,
    limit_said,
    unusable,
    validate_files,
)
from transforms.core.model import DutchEdition
from transforms.core.pgn import GAMES, read_games
from transforms.core.results import EventResult
from transforms.core.steps import StepTimer, no_step
from transforms.fide.dutch.engine import Departure, check_pairing, pair_round
from transforms.fide.dutch.state import Board, opponents
from transforms.fide.norms import NormEvent, NormReport, NormsConfig, event_norms, norm_rules
from transforms.fide.rating_list import later_ratings, take_from_list, take_from_national_list
from transforms.fide.rating_report import RatingReportRules, point_system_of
from transforms.fide.ratings import RatingChanges, RatingsConfig, rating_changes
from transforms.fide.standings import allocate_prizes, rank_evaluation
from transforms.fide.tiebreaks import Evaluation, evaluate_tiebreaks
from transforms.fide.trf import Tournament
from transforms.swiss import rounds
from transforms.swiss import scorecard as sc
from transforms.swiss.config import Category, SwissConfig
from transforms.swiss.exports import (
    RatingReport,
    as_played,
    category_rating_report,
    period_rating_reports,
    public_trf,
    reported,
)
from transforms.swiss.parts import EntryRules, FixedSchedule, PairingRules, ResultRules
from transforms.swiss.progress import round_by_round, tiebreak_separation
from transforms.swiss.rounds import RoundSetup
from transforms.swiss.schemas import REQUIRED, SCHEMAS
from transforms.swiss.statistics import state_statistics, total_by_state


class NextPairing(NamedTuple):
    """A round this run paired (results.csv has no rows for it yet)."""

    round: int
    boards: list[Board]
    """(white, black) start numbers in board order; the pairing-allocated bye as (sno, None)."""
    setup: rounds.RoundSetup
    """Requested byes and withdrawals of the round (not paired)."""
    log: list[str]
    """What the last-round same-state rule changed (empty when it did not apply)."""


class AuditRow(TypedDict):
    """A recorded round whose pairing differs from the engine's (:func:`audit`)."""

    category: str
    round: int
    difference: str


@dataclass
class CategoryRun:
    """One category's state in this run."""

    cat: Category
    players: pl.DataFrame
    """Accepted players of the category, with ``sno``."""
    results: pl.DataFrame
    """The category's checked results.csv rows (all rounds, finished or not)."""
    done: int
    """Rounds complete from round 1 on."""
    card: pl.DataFrame
    """Scorecard through ``done``."""
    rankings: dict[int, pl.DataFrame] = field(default_factory=dict)
    """Round -> standings after it (points and tie-breaks)."""
    audit: list[AuditRow] = field(default_factory=list)
    """Recorded rounds whose pairing differs from the engine's: category, round, difference."""
    rule_logs: dict[int, list[str]] = field(default_factory=dict)
    """Round -> what the same-state rule changed in it (recorded rounds and the new one)."""
    pairing: NextPairing | None = None
    """The round this run paired, if any."""
    prizes: pl.DataFrame | None = None
    """The prize list, once the last round is complete and the category has a prize table."""
    rounds: int = 0
    """The category's rounds: the event's (a Swiss), or as its players make them (a round
    robin, FIDE C.05 Annex 1)."""
    ratings: dict[str, RatingChanges] = field(default_factory=dict)
    """Rating list name -> the rating changes of the complete rounds (FIDE B.02), for the
    event's lists (:func:`rating_lists`)."""
    ratings_by_round: dict[int, dict[str, RatingChanges]] = field(default_factory=dict)
    """Round r -> the rating changes of rounds 1 to r, per list (what the standings after round
    r show; the last is ``ratings``)."""
    tiebreak_detail: pl.DataFrame | None = None
    """The contributions behind each tie-break after round ``done`` (:func:`tiebreak_detail`)."""
    progress: pl.DataFrame | None = None
    """Every player's rounds as the standings after each round saw them: points, total and
    rank after it (:func:`~transforms.swiss.progress.round_by_round`; the standings step)."""
    crosstable: pl.DataFrame | None = None
    """The crosstable after round ``done``: the standings' rank, sno, name, points and a cell
    per round (:func:`~transforms.swiss.scorecard.crosstable`; the standings step; None before
    round 1 is complete)."""
    statistics: pl.DataFrame | None = None
    """Statistics by state association after round ``done``
    (:func:`~transforms.swiss.statistics.state_statistics`; the standings step, for an event
    whose players come through state associations: :func:`state_figures`)."""
    pairing_rows: pl.DataFrame | None = None
    """``pairing`` as results.csv rows, result empty (:func:`~transforms.swiss.rounds.
    pairing_rows`; the pairing step)."""
    next_setup: RoundSetup | None = None
    """Who is not paired in round ``done + 1`` and why (requested byes, withdrawals), whether this
    run pairs it or results.csv has its boards (the pairing step; None after the last round)."""
    prize_separation: pl.DataFrame | None = None
    """What put each player ahead of the next in the final standings, for the prize list
    (:func:`~transforms.swiss.progress.tiebreak_separation`; the prizes step, with ``prizes``)."""
    public_trf: Tournament | None = None
    """The TRF of the complete rounds the public site offers (:func:`~transforms.swiss.exports.
    public_trf`; the exports step; None before round 1 is complete)."""
    rating_report: RatingReport | None = None
    """The FIDE rating report of the category and its check, once its last round is complete
    and the event reports it (``[fide_report]``; the exports step)."""
    norms: NormReport | None = None
    """The title norms after round ``done`` and the forecast of the next rounds, in an event
    with ``[norms]`` (:func:`title_norms`; the norms step; None before round 1 is complete)."""
    period_reports: tuple[tuple[dt.date, RatingReport], ...] = ()
    """For a reported category whose rounds span more than 30 days, the FIDE rating report of
    each month whose rounds are complete (the exports step:
    :func:`~transforms.swiss.exports.period_rating_reports`)."""


@dataclass
class SwissRun:
    """Everything one run of a Swiss event computes (frames and values; the flow publishes)."""

    cfg: EventConfig
    as_of: dt.date
    typed: dict[str, pl.DataFrame]
    """Every input file as cast (rows with errors set aside)."""
    findings: list[Finding]
    entries: object
    """The entry rules' record of their decisions (e.g. NJ 2024's ``EntryDecision``), None
    when the event has no entry rules."""
    categories: list[CategoryRun]
    blocked: str = ""
    """Why standings and pairings are not published (errors in the files they depend on)."""
    known_pairings: dict[str, Any] = field(default_factory=dict)
    """The engine's pairings a previous run made, by :func:`pairing_key` (``{"boards": "1-5
    2-0 …"`` (white-black start numbers, 0 for the bye), ``"log": […]}``): given by the caller, so that the audit pairs again only the rounds whose
    inputs changed."""
    pairings: dict[str, Any] = field(default_factory=dict)
    """This run's engine pairings of the audited rounds, by :func:`pairing_key` (what the next
    run may be given as ``known_pairings``)."""
    reused: int = 0
    """How many audited rounds were taken from ``known_pairings`` instead of paired again."""
    state_totals: pl.DataFrame | None = None
    """Statistics by state association over every category with ``CategoryRun.statistics``
    (:func:`~transforms.swiss.statistics.total_by_state`; the standings step)."""
    games: pl.DataFrame | None = None
    """The event's games (``games/*.pgn``), every one matched to its pairing or not
    (:func:`~transforms.core.games.match_games`: :data:`~transforms.core.games.GAME_COLUMNS`);
    None when the event has no games folder."""
    later_ratings: pl.DataFrame | None = None
    """The ratings of the FIDE lists that come into force while the event is played, each
    from its round on (``ratings.csv`` ``from_round``:
    :func:`~transforms.fide.rating_list.later_ratings`): ``player_id``, ``from_round``,
    ``rating``."""
    published_games: tuple[GameRecord, ...] = ()
    """The matched, usable games as the public site and the bulletin show them
    (:func:`~transforms.core.games.published_games`), by category, round and board."""
    bulletin_games: tuple[BulletinGame, ...] = ()
    """The games the bulletin prints (``[games] bulletin``), with their diagrams
    (:func:`~transforms.core.games.bulletin_games`)."""
    rating_lists: RatingsConfig | None = field(init=False, default=None)
    """The rating lists the event is rated for (:func:`rating_lists`; None: it shows no
    rating change), decided with the run from its configuration."""

    def __post_init__(self) -> None:
        self.rating_lists = rating_lists(self.cfg)

    def category(self, cid: str) -> CategoryRun:
        return next(c for c in self.categories if c.cat.id == cid)


def check_players(players: pl.DataFrame, cfg: EventConfig, as_of: dt.date) -> list[Finding]:
    """DESIGN.md Inputs (players.csv) — players in a configured category, with possible dates."""
    assert cfg.table(SwissConfig) is not None
    cats = {c.id for c in cfg.require(SwissConfig).categories}
    out = []
    for r in players.iter_rows(named=True):
        if r["section"] is None:
            out.append(Finding("players.csv", r["line"], "section", "", Severity.ERROR,
                               "a value is required: the event has several categories "
                               f"({', '.join(sorted(cats))})"))
        elif r["section"] not in cats:
            out.append(Finding("players.csv", r["line"], "section", r["section"], Severity.ERROR,
                               f"not a category of this event ({', '.join(sorted(cats))})"))
        if r["birth_date"] is not None and r["birth_date"] > as_of:
            out.append(Finding("players.csv", r["line"], "birth_date", str(r["birth_date"]),
                               Severity.ERROR, f"impossible date: after the run date {as_of}"))
        if r["birth_date"] is not None and r["birth_date"].year < 1900:
            out.append(Finding("players.csv", r["line"], "birth_date", str(r["birth_date"]),
                               Severity.ERROR, "impossible date: before 1900"))
        if r.get("registered_at") is not None and r["registered_at"].date() > cfg.event.end:
            out.append(Finding("players.csv", r["line"], "registered_at", str(r["registered_at"]),
                               Severity.ERROR, f"impossible date: after the event ended {cfg.event.end}"))
    return out


def check_player_refs(frame: pl.DataFrame, file: str, known: set[str], rounds: int) -> list[Finding]:
    """DESIGN.md Inputs — withdrawals and bye requests name known players and real rounds."""
    out = []
    for r in frame.iter_rows(named=True):
        if r["player_id"] not in known:
            out.append(Finding(file, r["line"], "player_id", r["player_id"], Severity.ERROR,
                               "unknown player (not in players.csv or rejected there)"))
        col = "round" if "round" in r else "from_round"
        if r.get(col) is not None and r[col] > rounds:
            out.append(Finding(file, r["line"], col, str(r[col]), Severity.ERROR,
                               f"the event has {rounds} rounds"))
    return out


_NO_RESULTS = {"line": pl.Int64, "round": pl.Int64, "board": pl.Int64, "white_id": pl.String,
               "black_id": pl.String, "result": pl.String, "moves": pl.Int64,
               "draw_consent": pl.Boolean}


def fixed_schedule(cfg: EventConfig) -> FixedSchedule | None:
    """DESIGN.md "Event kinds and rules parts" — the event's system of play that stands in for
    ``[swiss]`` (a round robin's Berger tables), None for a Swiss."""
    return next((p for p in cfg.rule_parts() if isinstance(p, FixedSchedule)), None)


def prepare(cfg: EventConfig, raw: dict[str, RawFile], as_of: dt.date, *,
            schemas: dict[str, Schema] | None = None,
            required: tuple[str, ...] = REQUIRED,
            earlier: Mapping[str, EventResult] | None = None) -> SwissRun:
    """DESIGN.md Inputs — validate, decide entries (the event's entry rules, if any), check
    results and build every category's scorecard. ``raw`` is each input file as read (all
    strings, with ``line``) and its read findings; ``schemas``/``required``: the event's input
    files (its rules part may replace players.csv and add files; default: a plain Swiss);
    ``earlier``: the results of the earlier events its rules part reads (its seed routes'),
    by name."""
    rr = fixed_schedule(cfg)
    if cfg.table(SwissConfig) is None and rr is not None:  # its rounds follow from its players (below)
        cfg = cfg.with_table("swiss", rr.as_swiss(1))
    assert cfg.table(SwissConfig) is not None
    typed, findings = validate_files(raw, schemas or dict(cfg.files) or SCHEMAS,
                                     required if schemas else (cfg.required_files or REQUIRED))
    players = typed.get("players.csv")
    if players is None or unusable(findings, "players.csv"):
        return SwissRun(cfg, as_of, typed, findings, None, [],
                        blocked=limit_said(findings, "players.csv") or
                        "players.csv is missing or cannot be read (see the validation report): "
                        "nothing else is computed.")
    players = player_frame(players, cfg)
    later = later_ratings(players, typed.get("ratings.csv"))
    players, taken = take_from_list(players, typed.get("ratings.csv"))
    findings += taken
    players, taken = take_from_national_list(players, typed.get("national_ratings.csv"))
    findings += taken
    findings += check_players(players, cfg, as_of)
    bad = {f.line for f in findings if f.file == "players.csv" and f.severity is Severity.ERROR}
    players = players.filter(~pl.col("line").is_in(sorted(x for x in bad if x is not None)))
    crowded = crowded_categories(players, [c.id for c in cfg.require(SwissConfig).categories],
                                 cfg.limits.players_per_category or (
                                     ROUND_ROBIN_PLAYERS_PER_CATEGORY if rr is not None
                                     else SWISS_PLAYERS_PER_CATEGORY))
    if crowded:
        findings += crowded
        return SwissRun(cfg, as_of, typed, findings, None, [],
                        blocked=limit_said(findings, "players.csv"))
    entries = None
    for part in cfg.rule_parts():
        if isinstance(part, EntryRules):
            judged = part.judge(players, typed, findings, currency=cfg.event.currency,
                                earlier=earlier)
            if judged.blocked:
                return SwissRun(cfg, as_of, typed, findings, None, [], blocked=judged.blocked)
            findings += judged.findings
            players, entries = judged.accepted, judged.decision
    per_category = {c.id: cfg.require(SwissConfig).rounds for c in cfg.require(SwissConfig).categories}
    if rr is not None:
        per_category = {c.id: rr.rounds(players.filter(pl.col("section") == c.id).height)
                        for c in rr.categories}
        cfg = cfg.with_table("swiss", rr.as_swiss(max(per_category.values(), default=1)))
        numbered = []
        for c in rr.categories:
            cp, why = rr.start_numbers(players.filter(pl.col("section") == c.id))
            if why:
                findings.append(Finding("players.csv", None, "start_no", "", Severity.ERROR, why))
                return SwissRun(cfg, as_of, typed, findings, entries, [], blocked=why)
            numbered.append(cp)
        players = pl.concat(numbered, how="vertical_relaxed") if numbered else players
    n_rounds = cfg.require(SwissConfig).rounds
    known = set(players["player_id"])
    for name in ("withdrawals.csv", "bye_requests.csv"):
        if name in typed and typed[name].height and "player_id" in typed[name].columns:
            findings += check_player_refs(typed[name], name, known, n_rounds)
    results = typed.get("results.csv")
    if results is None or "round" not in results.columns or results.schema["round"] == pl.String:
        results = pl.DataFrame(schema=_NO_RESULTS)
    results, more = sc.check_results(results, players, rounds=n_rounds,
                                     withdrawals=typed.get("withdrawals.csv"))
    findings += more
    for part in cfg.rule_parts():
        if isinstance(part, ResultRules):
            findings += part.check_results(results)
    run = SwissRun(cfg, as_of, typed, findings, entries, [], later_ratings=later)
    if has_errors(findings, "results.csv"):
        run.blocked = limit_said(findings, "results.csv", then="standings and pairings wait") or (
            "results.csv has errors: standings and pairings wait until they are corrected (see "
            "the validation report).")
    players = sc.assign_start_numbers(players)
    for cat in cfg.require(SwissConfig).categories:
        cp = players.filter(pl.col("section") == cat.id)
        cr = results.filter(pl.col("section") == cat.id)
        done = sc.complete_rounds(cr) if cr.height else 0
        card = sc.scorecard_from_results(cr, cp.select("player_id", "sno"), through_round=done,
                                         pab_points=cfg.require(SwissConfig).pab_points)
        run.categories.append(CategoryRun(cat, cp, cr, done, card, rounds=per_category[cat.id]))
    if GAMES in raw:
        run.games, more = check_games(raw[GAMES], players, results)
        run.findings += more
        run.published_games = published_games(
            run.games, players, event=cfg.event.name, site=cfg.event.venue, start=cfg.event.start,
            sections={c.id: c.name for c in cfg.require(SwissConfig).categories})
        run.bulletin_games, more = bulletin_games(run.published_games, cfg.table(GamesConfig))
        run.findings += more
    return run


def check_games(raw: RawFile, players: pl.DataFrame, results: pl.DataFrame
                ) -> tuple[pl.DataFrame, list[Finding]]:
    """DESIGN.md Inputs (games) — the event's PGN files (``raw``: a frame of ``file`` and
    ``text``, and the findings of reading them) read (:func:`~transforms.core.pgn.read_games`)
    and every game matched to its pairing among the accepted players (with ``sno``) and the
    usable results.csv rows (:func:`~transforms.core.games.match_games`). Decision: the games
    hold back nothing: results.csv is the record the standings come from; a game that
    disagrees with it is not published until the office makes the two agree."""
    frame, read_findings = raw
    texts = dict(zip(frame["file"], frame["text"])) if frame.height else {}
    games, findings = read_games(texts)
    matched, more = match_games(games, players, results)
    order = {f: i for i, f in enumerate(texts)}  # each game's rows together, in the files' order
    return matched, [*read_findings, *sorted([*findings, *more], key=lambda f: (
        order.get(f.file, -1), f.line or 0))]


PLAYER_COLUMNS = {"player_id": pl.String, "name": pl.String, "section": pl.String,
                  "gender": pl.String, "birth_date": pl.Date, "nationality": pl.String,
                  "state": pl.String, "fide_id": pl.String, "rating": pl.Int64,
                  "title": pl.String, "club": pl.String, "email": pl.String, "member_id": pl.String,
                  "start_no": pl.Int64, "national_rating": pl.Int64, "rated_games": pl.Int64,
                  "k_factor": pl.Int64}
"""The columns every player frame of the run has (those a file leaves out are empty)."""
ALIASES = {"federation": "nationality", "sex": "gender"}
"""A plain Swiss's players.csv columns under the names the run reads them by."""


def player_frame(players: pl.DataFrame, cfg: EventConfig) -> pl.DataFrame:
    """DESIGN.md Inputs (players.csv) — players.csv as the run reads it, whatever its event's
    rules ask for: ``federation``/``sex`` as ``nationality``/``gender``, the columns the file
    does not have empty, and ``section`` filled with the only category where the event has
    one. Decision: a federation is read in capitals (``ind`` → ``IND``)."""
    frame = players.rename({k: v for k, v in ALIASES.items() if k in players.columns})
    if "nationality" in frame.columns and "federation" in players.columns:
        frame = frame.with_columns(pl.col("nationality").str.to_uppercase())
    frame = frame.with_columns(pl.lit(None, dtype=t).alias(c)
                               for c, t in PLAYER_COLUMNS.items() if c not in frame.columns)
    cats: tuple[Category, ...] = cfg.require(SwissConfig).categories if cfg.table(SwissConfig) is not None else ()
    if len(cats) == 1:
        frame = frame.with_columns(pl.col("section").fill_null(cats[0].id))
    return frame


def standings(run: SwissRun, c: CategoryRun, through: int) -> pl.DataFrame:
    """FIDE C.07 — standings after round ``through``: points, then the configured tie-breaks."""
    return rank_evaluation(evaluation(run, c, through), c.players.select("sno", "name"))


def evaluation(run: SwissRun, c: CategoryRun, through: int) -> Evaluation:
    """FIDE C.07 — the configured tie-breaks of every player after round ``through`` (with the
    contributions behind them), as the event's rules evaluate them (its edition; §15.2 in a
    round robin)."""
    assert run.cfg.table(SwissConfig) is not None
    card = c.card.filter(pl.col("round") <= through)
    return evaluate_tiebreaks(card, c.players.select("sno", "rating"), run.cfg.require(SwissConfig).tiebreaks,
                              edition=run.cfg.require(SwissConfig).tiebreak_edition, rounds=through,
                              round_robin=fixed_schedule(run.cfg) is not None)


def tiebreak_detail(run: SwissRun, c: CategoryRun) -> pl.DataFrame | None:
    """FIDE C.07 — the contributions behind each tie-break after the category's last complete
    round (:func:`transforms.fide.tiebreaks.explain_tiebreaks` columns), for the standings'
    explanation and the players' pages: those of the evaluation its standings were ranked from
    (:func:`rank_rounds` keeps them as ``CategoryRun.tiebreak_detail``), else evaluated now
    (the run is left as it is); None before round 1 is complete."""
    if not c.done:
        return None
    return c.tiebreak_detail if c.tiebreak_detail is not None else evaluation(run, c, c.done).detail


def rating_lists(cfg: EventConfig) -> RatingsConfig | None:
    """FIDE B.02 — the rating lists the event is rated for: its ``[ratings]``, else FIDE's
    list where the event reports to FIDE (``[fide_report]``), else none (a club event on its
    own ratings shows no rating change)."""
    ratings: RatingsConfig | None = cfg.table(RatingsConfig)
    if ratings is not None:
        return ratings
    return RatingsConfig() if cfg.table(RatingReportRules) is not None else None


def category_ratings(run: SwissRun, c: CategoryRun, lists: RatingsConfig) -> dict[str, RatingChanges]:
    """FIDE B.02 8.2, 8.3 — each list's rating changes of the category's complete rounds:
    the players' ratings on the list, birth years (8.3.3's junior K), games rated before and
    the K FIDE published (FIDE's list only) where players.csv gives them; on FIDE's list, the
    ratings of the lists that come into force during the event from their rounds on
    (``ratings.csv`` ``from_round``: :attr:`SwissRun.later_ratings`)."""
    year = lists.period_year or run.cfg.event.start.year
    card = c.card.filter(pl.col("round") <= c.done)
    out = {}
    for lst in lists.lists:
        people = c.players.select(
            "sno", pl.col(lst.column).alias("rating") if lst.column in c.players.columns
            else pl.lit(None, pl.Int64).alias("rating"),
            pl.col("birth_date").dt.year().alias("birth_year"),
            *([pl.col("rated_games").alias("games_before")] if "rated_games" in c.players.columns
              else []),
            *([pl.col("k_factor").alias("k_override")]
              if "k_factor" in c.players.columns and lst.column == "rating" else []))
        later = None
        if lst.column == "rating" and run.later_ratings is not None and run.later_ratings.height:
            later = run.later_ratings.join(c.players.select("player_id", "sno"), on="player_id")
        out[lst.name] = rating_changes(card, people, period_year=year, rules=lst.rules(), later=later)
    return out


def engine_input(run: SwissRun, c: CategoryRun, round_no: int, setup: rounds.RoundSetup) -> Tournament:
    """FIDE C.04 Annex 2 — the TRF view of the category before round ``round_no`` (with the
    virtual points of the event's acceleration, FIDE C.04.5, if it has one)."""
    s = run.cfg.table(SwissConfig)
    assert s is not None
    return rounds.engine_input(c.players, c.card, round_no, setup,
                               name=f"{run.cfg.event.name} — {c.cat.name}", total_rounds=c.rounds,
                               edition=s.dutch_edition, initial_colour=s.initial_colour,
                               acceleration=s.acceleration)


def pair(run: SwissRun, c: CategoryRun, r: int, setup: rounds.RoundSetup,
         t: Tournament | None = None) -> tuple[list[Board], list[str]]:
    """FIDE C.04.3 — Dutch pairing of round ``r``, or a rules part's pairing of it where the
    event's regulations pair that round otherwise (the National Junior's last-round same-state
    rule: a declared departure, see :mod:`transforms.national_junior.same_state`). Returns
    the boards and the rule's log. ``t``: the engine's input when the caller has it."""
    t = t if t is not None else engine_input(run, c, r, setup)
    done = pair_with(round_to_pair(run, c, r, t))
    assert not isinstance(done, Departure)  # (nothing recorded to depart from)
    return done


class RoundToPair(NamedTuple):
    """What :func:`pair_with` pairs a round from: all of it, so that it can be paired in
    another process (the audit's rounds are independent of each other)."""

    parts: tuple[PairingRules, ...]
    """The event's rules parts that may pair a round otherwise (the same-state rule)."""
    edition: DutchEdition
    players: pl.DataFrame
    """The category's players (the same-state rule reads their states)."""
    rounds: int
    """The category's rounds."""
    round: int
    tournament: Tournament
    """The engine's input: the category before the round (:func:`engine_input`)."""
    recorded: frozenset[Board] | None = None
    """The round's recorded pairing when the audit pairs it (the engine then stops where its
    pairing departs from it: :func:`~transforms.fide.dutch.engine.check_pairing`); None when
    the round is to be paired."""


def pair_with(job: RoundToPair) -> tuple[list[Board], list[str]] | Departure:
    """FIDE C.04.3 — :func:`pair` of one round from what :class:`RoundToPair` holds: a rules
    part's pairing where the event's regulations pair that round otherwise, else the Dutch
    engine's (the edition the event names). For an audited round (``job.recorded``) the
    engine stops at the first bracket that departs from the recorded pairing and returns
    that :class:`~transforms.fide.dutch.engine.Departure` instead of a pairing."""
    for part in job.parts:
        done = part.pair(job.tournament, round_no=job.round, rounds=job.rounds,
                         edition=job.edition, players=job.players)
        if done is not None:
            return done
    if job.recorded is None:
        return pair_round(job.tournament, round_no=job.round, edition=job.edition), []
    checked = check_pairing(job.tournament, job.recorded, round_no=job.round, edition=job.edition)
    return checked if isinstance(checked, Departure) else (checked, [])


def round_to_pair(run: SwissRun, c: CategoryRun, r: int, t: Tournament,
                  recorded: frozenset[Board] | None = None) -> RoundToPair:
    """FIDE C.04.3 — what round ``r`` of ``c`` is paired from (:func:`pair_with`), ``t`` its
    engine input, ``recorded`` its recorded pairing when the audit pairs it."""
    s = run.cfg.table(SwissConfig)
    assert s is not None
    return RoundToPair(tuple(p for p in run.cfg.rule_parts() if isinstance(p, PairingRules)),
                       s.dutch_edition, c.players, c.rounds, r, t, recorded)


def pair_or_error(job: RoundToPair) -> Paired:
    """FIDE C.04.3 — :func:`pair_with`, or why the engine could not pair the round (its error as
    text: the audit reports it as the round's difference)."""
    try:
        return pair_with(job)
    except ChessfedError as e:
        return f"engine: {e}"


def pairing_key(run: SwissRun, c: CategoryRun, r: int, setup: rounds.RoundSetup,
                players: str) -> str:
    """FIDE C.04.3 — what round ``r``'s pairing is made from, as a key: everything the engine's
    TRF is built from (:func:`engine_input`: the scorecard before the round, the round's
    requested byes and absences, the event and category's names, the number of rounds, the
    Dutch edition, the initial colour, the acceleration, the point system), the rules parts that
    may pair it otherwise and the category's players (``players``: their digest; the TRF's
    player records and the same-state rule read them). Equal keys, equal pairings: the audit of
    a round whose key a previous run has is taken from it (the caller keeps the keys with the
    program they were made by); the TRF itself is built only for a round paired again."""
    s = run.cfg.table(SwissConfig)
    assert s is not None
    h = hashlib.sha256(c.card.filter(pl.col("round") < r).write_csv().encode())
    parts = ",".join(sorted(type(p).__name__ for p in run.cfg.rule_parts()
                            if isinstance(p, PairingRules)))
    fields = (r, c.rounds, sorted(setup.byes.items()), sorted(setup.absent), run.cfg.event.name,
              c.cat.name, s.dutch_edition, s.initial_colour, s.acceleration,
              point_system_of(c.card), parts, players)
    h.update(repr(fields).encode())
    return h.hexdigest()


def next_pairing(run: SwissRun, c: CategoryRun) -> NextPairing | None:
    """FIDE C.04.3 — pair the round after the last complete one, if it is not paired yet
    (no rows for it in results.csv) and the event has rounds left. The pairing is also kept
    in ``run.pairings`` under its :func:`pairing_key`: once the round is played as published,
    the next run's audit of it is taken from there, not paired again."""
    s = run.cfg.table(SwissConfig)
    assert s is not None
    r = c.done + 1
    if r > c.rounds or c.results.filter(pl.col("round") == r).height or c.players.is_empty():
        return None  # (a category without players is not paired)
    setup = rounds.round_setup(c.players, r, run.typed.get("bye_requests.csv"),
                               run.typed.get("withdrawals.csv"))
    boards, log = pair(run, c, r, setup)
    run.pairings[pairing_key(run, c, r, setup, players_digest(c))] = {
        "boards": pack_boards(boards), "log": list(log)}
    return NextPairing(r, boards, setup, log)


Mapper = Callable[[Callable[[RoundToPair], Any], list[RoundToPair]], Iterable[Any]]
"""How the audit pairs its rounds: ``map`` (one after the other, in this process) or a
caller's equivalent that pairs them in parallel (the flow's worker processes)."""


def audit(run: SwissRun, c: CategoryRun, mapper: Mapper = map
          ) -> tuple[list[AuditRow], dict[int, list[str]]]:
    """FIDE C.04.3 — re-pair every complete round from its history (as ``chessfed pair -c``
    does) and list the rounds whose recorded pairing differs from the engine's; also returns
    the same-state rule's log of each round it applied to. A round whose :func:`pairing_key`
    is in ``run.known_pairings`` (a previous run paired it, or published it as the next round)
    is taken from there; the others are paired through ``mapper``.

    The recorded rounds of the demo were paired by this engine, so there this is a regression
    check; for an event paired elsewhere it checks the other program. Decision: a round is
    paired only as far as its first bracket (A.9) whose pairs the recorded round does not
    have (:func:`~transforms.fide.dutch.engine.check_pairing`); the difference names that
    bracket and its first pair (:func:`departure_text`) — the brackets below would start from
    other players, and pairing them is most of the engine's work on a history paired by
    another system."""
    keys, paired, todo = audit_plan(run, c)
    paired.update(zip((j.round for j in todo), mapper(pair_or_error, todo)))
    return audit_result(run, c, keys, paired)


Paired = tuple[list[Board], list[str]] | Departure | str
"""A round's pairing and the rules' log, where the engine's pairing departs from the
recorded one (an audited round), or why the engine could not pair it."""


class Audited(NamedTuple):
    """FIDE C.04.3 — a complete round as the audit takes it: its :func:`pairing_key` and its
    recorded pairing."""

    key: str
    recorded: frozenset[Board]


def audit_plan(run: SwissRun, c: CategoryRun
               ) -> tuple[dict[int, Audited], dict[int, Paired], list[RoundToPair]]:
    """FIDE C.04.3 — the first half of :func:`audit`: each complete round's key and record, the rounds
    known from a previous run (``run.known_pairings``) and what the others are paired from."""
    players = players_digest(c)
    keys: dict[int, Audited] = {}
    paired: dict[int, Paired] = {}
    todo: list[RoundToPair] = []
    for r in range(1, c.done + 1):
        setup = rounds.setup_from_scorecard(c.card, r)
        key = pairing_key(run, c, r, setup, players)
        recorded = frozenset(rounds.recorded_boards(c.card, r))
        keys[r] = Audited(key, recorded)
        hit = run.known_pairings.get(key)
        if isinstance(hit, dict) and isinstance(hit.get("boards"), str):
            paired[r] = (unpack_boards(hit["boards"]), [str(x) for x in hit.get("log", [])])
            run.reused += 1
            continue
        if (isinstance(hit, dict) and isinstance(hit.get("departure"), list)
                and hit.get("recorded") == pack_recorded(recorded)):
            score, pairs = hit["departure"]
            paired[r] = Departure(int(score), [(int(x), int(y)) for x, y in pairs])
            run.reused += 1
            continue
        try:
            todo.append(round_to_pair(run, c, r, engine_input(run, c, r, setup), recorded))
        except ChessfedError as e:
            paired[r] = f"engine: {e}"
    return keys, paired, todo


def audit_result(run: SwissRun, c: CategoryRun, keys: dict[int, Audited],
                 paired: dict[int, Paired]) -> tuple[list[AuditRow], dict[int, list[str]]]:
    """FIDE C.04.3 — the second half of :func:`audit`: every round's pairing compared with the
    recorded one (the differences, the rules' logs); each pairing kept in ``run.pairings``
    (a departure with the recorded pairing it departs from)."""
    out: list[AuditRow] = []
    logs: dict[int, list[str]] = {}
    for r in range(1, c.done + 1):
        done = paired[r]
        if isinstance(done, str):
            out.append({"category": c.cat.id, "round": r, "difference": done})
            continue
        key, recorded = keys[r]
        if isinstance(done, Departure):
            run.pairings[key] = {"departure": [done.score, [list(x) for x in done.pairs]],
                                 "recorded": pack_recorded(recorded)}
            out.append({"category": c.cat.id, "round": r,
                        "difference": departure_text(done, recorded)})
            continue
        boards, log = done
        run.pairings[key] = {"boards": pack_boards(boards), "log": list(log)}
        if log:
            logs[r] = log
        ours = set(boards)
        if ours != recorded:
            only_rec = sorted(recorded - ours, key=str)
            only_ours = sorted(ours - recorded, key=str)
            out.append({"category": c.cat.id, "round": r,
                        "difference": f"recorded only {only_rec}; engine only {only_ours}"})
    return out, logs


def departure_text(d: Departure, recorded: Iterable[Board]) -> str:
    """FIDE C.04.3 A.9 — an audited round's difference where the engine stopped
    (:func:`audit`): the bracket, the engine's first pair the recorded pairing does not have,
    and what the recorded pairing gave its two players."""
    opp = opponents(recorded)

    def against(sno: int) -> str:
        return "nobody" if sno not in opp else "the bye" if opp[sno] is None else str(opp[sno])

    a, b = d.pairs[0]
    more = f" (and {len(d.pairs) - 1} more of the bracket's pairs)" if len(d.pairs) > 1 else ""
    return (f"departs in the {d.score / 10:g}-point bracket: the engine pairs {a}-{b}{more}, "
            f"recorded {a} against {against(a)} and {b} against {against(b)}; the brackets "
            "below were not paired again")


def pack_recorded(recorded: Iterable[Board]) -> str:
    """FIDE C.04.3 — a recorded pairing as the manifest keeps it beside a departure from it
    (:func:`pack_boards` in a fixed order)."""
    return pack_boards(sorted(recorded, key=str))


def players_digest(c: CategoryRun) -> str:
    """FIDE C.04.3 — the category's players as :func:`pairing_key` takes them (a digest)."""
    return hashlib.sha256(c.players.write_csv().encode()).hexdigest()


def pack_boards(boards: list[Board]) -> str:
    """FIDE C.04.3 — a pairing as the manifest keeps it: ``"1-5 2-0 …"`` (white-black, 0 for
    the bye)."""
    return " ".join(f"{w}-{b or 0}" for w, b in boards)


def unpack_boards(text: str) -> list[Board]:
    """FIDE C.04.3 — a pairing the manifest kept (:func:`pack_boards`) read back."""
    return [(int(w), int(b) or None) for w, b in (x.split("-") for x in text.split())]


def rank_rounds(run: SwissRun) -> None:
    """FIDE C.07 and the event's tie-breaks — the standings of every category after each of its
    complete rounds (``CategoryRun.rankings``), and what the pages print of them: the
    contributions behind the last ones (``tiebreak_detail``), every player's rounds with the
    points and rank after each (``progress``), the crosstable (``crosstable``) and, for an event
    whose players come through state associations, the statistics by association
    (``statistics``, ``SwissRun.state_totals``: :func:`state_figures`)."""
    for c in run.categories:
        for r in range(1, c.done + 1):
            ev = evaluation(run, c, r)
            c.rankings[r] = rank_evaluation(ev, c.players.select("sno", "name"))
            if r == c.done:  # kept to explain the standings (tiebreak_detail)
                c.tiebreak_detail = ev.detail
        c.progress = round_by_round(c.card, c.rankings)
        if c.done:
            c.crosstable = sc.crosstable(c.card, c.rankings[c.done].select("rank", "sno", "name",
                                                                           "points"))
    state_figures(run)


def state_figures(run: SwissRun) -> None:
    """DESIGN.md Publishing (statistics by state association) — how each association's players
    did after each category's last complete round (``CategoryRun.statistics``) and over all
    categories (``SwissRun.state_totals``).

    Decision: computed for an event whose players come through state associations — some
    accepted player of the event has a ``state`` (the National Junior's players.csv); a plain
    Swiss (no ``state`` column) has none, and no statistics."""
    if not any(c.players.height and (c.players["state"].fill_null("") != "").any()
               for c in run.categories):
        return
    for c in run.categories:
        if c.done:
            c.statistics = state_statistics(c.card, c.players)
    frames = [c.statistics for c in run.categories if c.statistics is not None]
    run.state_totals = total_by_state(frames) if frames else None


def rate_rounds(run: SwissRun) -> None:
    """FIDE B.02 — each category's rating changes over its complete rounds, per rating list the
    event is rated for (:func:`rating_lists`; nothing for an event rated on none)."""
    lists = run.rating_lists
    if lists is None:
        return
    for c in run.categories:
        if c.done:
            c.ratings = category_ratings(run, c, lists)
            c.ratings_by_round = {r: category_ratings(run, replace(c, done=r), lists)
                                  for r in range(1, c.done)} | {c.done: c.ratings}


def audit_rounds(run: SwissRun, mapper: Mapper = map) -> None:
    """FIDE C.04.3 — every recorded round of every category paired again and compared with what
    was recorded (:func:`audit`: ``CategoryRun.audit``, the rules' logs); ``mapper`` pairs the
    rounds not known from a previous run (``map``, or the flow's parallel equivalent)."""
    plans = [audit_plan(run, c) for c in run.categories]
    todo = [j for _, _, jobs in plans for j in jobs]
    done = iter(mapper(pair_or_error, todo))  # all categories' rounds at once
    for c, (keys, paired, jobs) in zip(run.categories, plans):
        paired.update((j.round, next(done)) for j in jobs)
        c.audit, c.rule_logs = audit_result(run, c, keys, paired)


def pair_next_rounds(run: SwissRun) -> None:
    """FIDE C.04.3 (or the kind's pairing part: a round robin's Berger tables) — the next round's
    pairing of every category whose last round is complete (``CategoryRun.pairing``)."""
    for c in run.categories:
        c.pairing = next_pairing(run, c)
        if c.pairing is not None:
            c.pairing_rows = rounds.pairing_rows(c.pairing.boards, c.pairing.setup, c.players,
                                                 c.pairing.round)
            if c.pairing.log:
                c.rule_logs[c.pairing.round] = c.pairing.log
        c.next_setup = (rounds.round_setup(c.players, c.done + 1, run.typed.get("bye_requests.csv"),
                                           run.typed.get("withdrawals.csv"))
                        if c.done < c.rounds else None)


def norm_event(cfg: EventConfig, c: CategoryRun) -> NormEvent | None:
    """FIDE B.01 — the event as the norm rules see it, for a category of an event with
    ``[norms]`` (None: not a title tournament): its rounds, host federation, type, round dates
    (``[norms]``, else ``[fide_report]``), a round robin's pairings fixed in advance (1.4.1e)
    and whether it is double (1.4.5f)."""
    norms: NormsConfig | None = cfg.table(NormsConfig)
    if norms is None or (norms.categories and c.cat.id not in norms.categories):
        return None
    report = cfg.table(RatingReportRules)
    schedule = fixed_schedule(cfg)
    return NormEvent(
        rounds=c.rounds, host=norms.host_federation or (report.federation if report else ""),
        event_type=norms.event_type, predetermined=schedule is not None,
        double_round_robin=schedule is not None and schedule.cycles == 2,
        round_dates=norms.round_dates or (report.round_dates if report else ()),
        min_games=norms.min_games)


def next_opponents(c: CategoryRun) -> dict[int, int | None]:
    """FIDE C.04.3 — each player's opponent in round ``done + 1`` where it is paired (this
    run's pairing, or the boards results.csv records for it); None: a bye."""
    boards: list[tuple[int | None, int | None]]
    if c.pairing is not None:
        boards = list(c.pairing.boards)
    else:
        ids = dict(zip(c.players["player_id"], c.players["sno"]))
        rows = c.results.filter(pl.col("round") == c.done + 1)
        boards = [(ids.get(w), ids.get(b) if b else None)
                  for w, b in zip(rows["white_id"], rows["black_id"])]
    out: dict[int, int | None] = {}
    for w, b in boards:
        if w is not None:
            out[w] = b
        if b is not None and w is not None:
            out[b] = w
    return out


def title_norms(run: SwissRun) -> None:
    """FIDE B.01 1.4 — in an event with ``[norms]``, every player's title norms after the last
    complete round of each category, and (before the last round) what the remaining rounds must
    give, the next round's opponent known where it is paired (``CategoryRun.norms``)."""
    norms: NormsConfig | None = run.cfg.table(NormsConfig)
    if norms is None:
        return
    for c in run.categories:
        event = norm_event(run.cfg, c)
        if event is None or not c.done:
            continue
        people = c.players.select("sno", "name", "rating", "title",
                                  pl.col("nationality").alias("federation"),
                                  pl.col("gender").alias("sex"), "fide_id")
        c.norms = event_norms(c.card.filter(pl.col("round") <= c.done), people, event,
                              through=c.done, next_round=next_opponents(c),
                              titles=norms.titles or None, rules=norm_rules(norms.edition))


def award_prizes(run: SwissRun) -> None:
    """FIDE C.07 (ties on the final standings) and the event's prize table (National Junior
    2024 "Prizes": not shared unless ``prizes_shared``) — the prize list of each category with prizes, after its last round."""
    s = run.cfg.table(SwissConfig)
    assert s is not None
    for c in run.categories:
        if c.done == c.rounds and c.cat.prizes:
            c.prizes = allocate_prizes(c.rankings[c.done], c.cat.prizes, shared=s.prizes_shared)
            c.prize_separation = tiebreak_separation(c.rankings[c.done], s.tiebreaks)


def export_files(run: SwissRun) -> None:
    """FIDE C.04 Annex 2 and the FIDE Rating Regulations — what the event's files for other
    programs hold: each category's TRF of its complete rounds as the public site offers it
    (``CategoryRun.public_trf``: :func:`~transforms.swiss.exports.public_trf` of the engine's
    view before the next round, :func:`~transforms.swiss.exports.as_played`), and for an event
    that reports to FIDE (``[fide_report]``) each reported category's rating report with
    FIDE's check of it once its last round is complete (``CategoryRun.rating_report``), and for
    one whose rounds span more than 30 days the report of each rating period as its rounds are
    complete (``CategoryRun.period_reports``)."""
    schedule = fixed_schedule(run.cfg)
    report = run.cfg.table(RatingReportRules)
    for c in run.categories:
        c.public_trf = (public_trf(as_played(engine_input(run, c, c.done + 1, RoundSetup({}, frozenset())),
                                             schedule)) if c.done else None)
        c.rating_report = (category_rating_report(run.cfg, c.cat, c.players, c.card,
                                                  c.rankings[c.done], rounds=c.rounds,
                                                  schedule=schedule)
                           if report is not None and reported(report, c.cat, done=c.done,
                                                              rounds=c.rounds) else None)
        c.period_reports = (period_rating_reports(run.cfg, c.cat, c.players, c.card,
                                                  c.rankings.get(c.done), rounds=c.rounds,
                                                  done=c.done, schedule=schedule,
                                                  later=run.later_ratings)
                            if report is not None and c.done else ())


RULE_STEPS: tuple[tuple[str, Any], ...] = (
    ("standings", rank_rounds), ("ratings", rate_rounds), ("audit", audit_rounds),
    ("pairing", pair_next_rounds), ("norms", title_norms), ("prizes", award_prizes),
    ("exports", export_files))
"""The rulebook's steps after validation (``prepare``), in order: each takes the run and fills
its part of it — everything a page, PDF, TRF or letter prints, so that those only format it. :func:`run_swiss` runs them; an event's flow runs each as a task of its own
(flows/kinds/swiss/flow.py)."""


def run_swiss(cfg: EventConfig, raw: dict[str, RawFile], as_of: dt.date,
              step: StepTimer = no_step) -> SwissRun:
    """FIDE C.04.3, C.07 and the event's regulations — one run of a Swiss event: validation
    (:func:`prepare`), then :data:`RULE_STEPS` — standings after every complete round, rating
    changes, the audit of every recorded round, the next round's pairing, and (after the last
    round) the prize list of each category with a prize table, and the files for other
    programs (the public TRF, the FIDE rating report and its check). Nothing of it when ``blocked``
    (errors in the files it depends on). ``step`` is the caller's step timer
    (``with step("pairing"):``; the rulebook itself reads no clock)."""
    with step("validate"):
        run = prepare(cfg, raw, as_of)
    assert run.cfg.table(SwissConfig) is not None  # (a round robin's, made from its players)
    if run.blocked:
        return run
    for name, rule in RULE_STEPS:
        with step(name):
            rule(run)
    return run

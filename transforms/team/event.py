""":func:`prepare` reads a team competition's input files (DESIGN.md "Inputs") into its groups —
a league's divisions, or the whole field of a team Swiss — with their teams, rosters and
numbers, checks the rosters and every board result (:mod:`transforms.team.matches`), and makes
each group's matches; the rule steps then rank the teams after every round (:func:`standings`),
pair what is next (:func:`pair_next`: a league's fixtures from the Berger tables, a team
Swiss's next round by FIDE C.04.6) and award the board prizes. No I/O: the flow hands the
files in and publishes what comes out."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from transforms.core.config import EventConfig
from transforms.core.errors import Finding, Severity
from transforms.core.games import BulletinGame, GameRecord, GamesConfig
from transforms.core.ingest import RawFile, limit_said, unusable, validate_files
from transforms.core.pgn import GAMES
from transforms.core.results import Source
from transforms.fide.norms import NormEvent, NormReport, NormsConfig, event_norms, norm_rules
from transforms.fide.rating_list import (
    ROSTER_TAKEN,
    later_ratings,
    ratings_in_force,
    take_from_list,
)
from transforms.fide.rating_report import (
    RatingReportRules,
    event_round_dates,
    period_report,
    rating_periods,
)
from transforms.fide.ratings import RatingChanges
from transforms.fide.team_standings import rank_teams
from transforms.fide.team_swiss.model import TeamRound
from transforms.fide.team_tiebreaks import explain_team_tiebreaks, team_tiebreak_name
from transforms.fide.trf import parse_trf, write_trf
from transforms.round_robin.berger import BYE, berger_table, draw_start_numbers
from transforms.team import games as tg
from transforms.team import lineups as tl
from transforms.team import matches as mt
from transforms.team import players as tp
from transforms.team import swiss as ts
from transforms.team.config import TeamRoundRobinConfig, TeamRules, TeamSwissConfig
from transforms.team.report import team_report
from transforms.team.schemas import REQUIRED, SCHEMAS

FIXTURES_SCHEMA = {"round": pl.Int64, "match": pl.Int64, "white": pl.Int64, "black": pl.Int64}
"""One row per match of a round: its number in the round, the first-named team (White on
board 1: the home team of a league) and the other (0: ``white`` has no match that round)."""


@dataclass
class Group:
    """The teams that play one another: a league's division, or a team Swiss's whole field."""

    id: str
    name: str
    teams: pl.DataFrame
    """``sno, team_id, name, club, captain, captain_email, rating`` (the average rating of
    the team's top players, :func:`team_rating`), by number."""
    players: pl.DataFrame
    """``player_id, team_id, sno`` (the team's number)``, roster_board, name, rating, fide_id,
    title, federation, email, pno`` (the player's number in the group:
    :func:`transforms.team.players.numbered_players`)."""
    rounds: int
    fixtures: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=FIXTURES_SCHEMA))
    """Every match of every round: a league's whole season; a team Swiss's rounds so far and
    the next one once paired."""
    boards: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=mt.BOARDS_SCHEMA))
    """Every board result (:data:`transforms.team.matches.BOARDS_SCHEMA`)."""
    matches: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=mt.MATCHES_SCHEMA))
    """Every recorded match with its points (:data:`transforms.team.matches.MATCHES_SCHEMA`)."""
    card: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=mt.CARD_SCHEMA))
    """The team scorecard of the complete rounds (FIDE C.07's team tie-breaks read it)."""
    board_card: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=mt.BOARD_CARD_SCHEMA))
    done: int = 0
    """The last round whose every match is finished (rounds are complete in order)."""
    rankings: dict[int, pl.DataFrame] = field(default_factory=dict)
    """Round -> the standings after it (rank, sno, name, mp, gp, one column per tie-break)."""
    promoted: int = 0
    relegated: int = 0
    next_round: int | None = None
    """The round the published pairing is of (a league: the first not complete)."""
    games: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=tp.GAMES_SCHEMA))
    """Every player's games (:data:`transforms.team.players.GAMES_SCHEMA`)."""
    ratings: RatingChanges | None = None
    """Each player's FIDE rating change and performance (B.02), by ``pno``."""
    board_prizes: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=tp.PRIZES_SCHEMA))
    """Per board, the best performances (:data:`transforms.team.players.PRIZES_SCHEMA`)."""
    norms: NormReport | None = None
    """In an event with ``[norms]``: every player's title norms after round ``done`` (FIDE
    B.01), by ``pno`` (:func:`title_norms`)."""
    pairing: TeamRound | None = None
    """A team Swiss: the next round as the engine paired it (FIDE C.04.6), with its
    explanation (:meth:`transforms.fide.team_swiss.model.TeamRound.explanation`)."""
    audit: dict[int, str] = field(default_factory=dict)
    """A team Swiss: round -> how the recorded round differs from the engine's pairing."""
    tiebreak_detail: pl.DataFrame | None = None
    """What each round gave each team in each tie-break after :attr:`done`
    (:func:`transforms.fide.team_tiebreaks.explain_team_tiebreaks`)."""
    report: str = ""
    """The TRF-2026 team report after :attr:`done` (:func:`transforms.team.report.team_report`);
    empty before the first complete round."""
    period_reports: tuple[tuple[dt.date, str], ...] = ()
    """A group whose rounds span more than 30 days: the rating report of each month whose
    rounds are complete (:func:`period_reports`), by its month."""
    lineups: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=tl.LINEUP_SCHEMA))
    """Each team's line-up for :attr:`next_round` (:func:`transforms.team.lineups.expected_lineups`)."""


@dataclass
class TeamRun:
    """A team competition after the rulebook: its groups and every finding."""

    cfg: EventConfig
    as_of: dt.date
    typed: dict[str, pl.DataFrame]
    findings: list[Finding]
    groups: list[Group]
    blocked: str = ""
    """Why standings and pairings are not published (errors in the files they depend on)."""
    tiebreak_words: dict[str, str] = field(default_factory=dict)
    """Each configured tie-break code in words (the standings' legend)."""
    games: pl.DataFrame | None = None
    """The event's games (``games/*.pgn``), every one matched to its board or not
    (:func:`transforms.team.games.check_games`: :data:`~transforms.core.games.GAME_COLUMNS`);
    None when the event has no games folder."""
    published_games: tuple[GameRecord, ...] = ()
    """The matched, usable games with moves as the public site and the bulletin show them
    (:func:`transforms.team.games.team_published_games`), by group, round, match and board."""
    bulletin_games: tuple[BulletinGame, ...] = ()
    """The games the bulletin prints (``[games] bulletin``), with their diagrams
    (:func:`transforms.team.games.team_bulletin_games`)."""
    game_matches: dict[tuple[int, str], tg.GameMatch] = field(default_factory=dict)
    """The match of every fielded player of every round, by (round, player id)
    (:func:`transforms.team.games.game_matches`): where a game's page, Round tag and links go."""
    later_ratings: pl.DataFrame | None = None
    """The ratings of the FIDE lists that come into force while the event is played, each
    from its round on (``ratings.csv`` ``from_round``, the season's later lists:
    :func:`~transforms.fide.rating_list.later_ratings`): ``player_id``, ``from_round``,
    ``rating``."""

    @property
    def rules(self) -> TeamRules:
        return self.cfg.require(TeamRules)


def team_rating(players: pl.DataFrame, top: int) -> pl.DataFrame:
    """FIDE C.04.6 (team pairing numbers) — each team's rating: the average rating of the
    first ``top`` players of its roster by rating (unrated count 0), rounded to one decimal."""
    return (players.sort("team_id", pl.col("rating").fill_null(0), descending=[False, True])
            .group_by("team_id", maintain_order=True)
            .agg(pl.col("rating").fill_null(0).head(top).mean().round(1).alias("rating")))


def prepare(cfg: EventConfig, raw: dict[str, RawFile], as_of: dt.date,
            sources: Sequence[Source] = ()) -> TeamRun:
    """DESIGN.md Inputs — validate the files, number the teams of every group, check the
    rosters and the board results, and make each group's matches (the rounds complete so
    far); what is blocked says why. ``sources``: the other events it reads (a league's
    previous season, :func:`earned_divisions`)."""
    rules = cfg.require(TeamRules)
    typed, findings = validate_files(raw, dict(cfg.files) or SCHEMAS, cfg.required_files or REQUIRED)
    if unusable(findings, "teams.csv", "rosters.csv"):
        why = limit_said(findings, "teams.csv", "rosters.csv") or (
            "teams.csv or rosters.csv is missing or cannot be read (see the validation report): "
            "nothing else is computed.")
        return TeamRun(cfg, as_of, typed, findings, [], blocked=why)
    teams = typed["teams.csv"]
    league = cfg.table(TeamRoundRobinConfig)
    swiss = cfg.table(TeamSwissConfig)
    groups_cfg = ([(d.id, d.name, d.promoted, d.relegated) for d in league.divisions] if league
                  else [("all", cfg.event.name, 0, 0)])
    if league is not None:
        teams, found = take_earned_divisions(teams, *earned_divisions(league, sources, as_of))
        findings += found
        known = {d.id for d in league.divisions}
        only = league.divisions[0].id if len(league.divisions) == 1 else None
        teams = teams.with_columns(pl.col("division").fill_null(only or "") if "division" in teams.columns
                                   else pl.lit(only or "").alias("division"))
        for r in teams.filter(~pl.col("division").is_in(sorted(known))).iter_rows(named=True):
            findings.append(Finding("teams.csv", r["line"], "division", r["division"] or "",
                                    Severity.ERROR, "not a division of [[team_round_robin.divisions]] "
                                    f"(known: {', '.join(sorted(known))})"))
        teams = teams.filter(pl.col("division").is_in(sorted(known)))
    else:
        teams = teams.with_columns(pl.lit("all").alias("division"))
    team_ids = teams["team_id"].to_list()
    listed, found = take_from_list(typed["rosters.csv"], typed.get("ratings.csv"), "rosters.csv",
                                   ROSTER_TAKEN)  # FIDE B.02: the list in force at the start
    findings += found
    rosters, found = mt.roster_rules(listed, dict.fromkeys(team_ids, 0), rules)
    findings += found
    top = (swiss.rating_top if swiss is not None and swiss.rating_top else rules.boards)
    ratings = team_rating(rosters, top)
    teams = teams.join(ratings, on="team_id", how="left").with_columns(pl.col("rating").fill_null(0.0))
    results = typed.get("results.csv")
    groups: list[Group] = []
    for gid, name, promoted, relegated in groups_cfg:
        mine = teams.filter(pl.col("division") == gid)
        numbered, why = number_teams(mine, league, swiss, gid)
        if why:
            findings.append(Finding("teams.csv", None, "start_no", "", Severity.ERROR, why))
            return TeamRun(cfg, as_of, typed, findings, groups, blocked=why)
        players = tp.numbered_players(rosters.join(numbered.select("team_id", "sno"), on="team_id")
                                      .rename({"board": "roster_board"}))
        n = numbered.height
        rounds = (swiss.rounds if swiss is not None else
                  (n - 1 + n % 2) * (league.cycles if league else 1) if n >= 2 else 0)
        group = Group(gid, name, numbered, players, rounds, promoted=promoted, relegated=relegated)
        if league is not None and n >= 2:
            group.fixtures = league_fixtures(n, league.cycles)
        groups.append(group)
    if results is None:
        results = pl.DataFrame(schema={"line": pl.Int64, **{c.name: pl.String for c in SCHEMAS["results.csv"].columns}})
    if results.schema.get("round") == pl.String:  # unreadable: no rounds
        results = results.clear().with_columns(pl.col("round").cast(pl.Int64), pl.col("board").cast(pl.Int64))
    for g in groups:
        no = dict(zip(g.teams["team_id"].to_list(), g.teams["sno"].to_list(), strict=True))
        mine = results.filter(pl.col("team_a").is_in(list(no)))
        roster_of = dict(zip(g.players["player_id"].to_list(), g.players["team_id"].to_list(), strict=True))
        boards, recorded, found = mt.match_boards(mine, no, roster_of, rules)
        findings += found
        findings += mt.lineup_rules(boards, g.players, rules)
        if league is not None:
            findings += fixture_rules(recorded, g, mine)
        g.boards = boards
        g.matches = mt.match_results(recorded, boards, rules,
                                     bye=ts.bye_points(rules, swiss) if swiss is not None else None)
        if swiss is not None:
            g.fixtures = ts.swiss_fixtures(g)
    blocked = ""
    if any(f.severity is Severity.ERROR and f.file == "results.csv" for f in findings):
        blocked = ("results.csv has errors (see the validation report): the standings and "
                   "pairings wait until they are corrected.")
    run = TeamRun(cfg, as_of, typed, findings, groups, blocked=blocked,
                  later_ratings=later_ratings(listed, typed.get("ratings.csv")))
    if GAMES in raw:
        team_games(run, raw[GAMES])
    return run


def team_games(run: TeamRun, raw: RawFile) -> None:
    """DESIGN.md Inputs (games) — the event's games matched to the boards of every group
    (:func:`transforms.team.games.check_games`), the usable ones as published and the
    bulletin's chosen ones (:mod:`transforms.team.games`); their findings added to the run's.
    The games hold back nothing: results.csv is the record."""
    cfg = run.cfg
    run.games, found = tg.check_games(raw, run.groups)
    run.findings += found
    run.game_matches = tg.game_matches(run.groups)
    run.published_games = tg.team_published_games(
        run.games, run.groups, run.game_matches, event=cfg.event.name, site=cfg.event.venue,
        start=cfg.event.start)
    teams = {t: n for g in run.groups
             for t, n in zip(g.teams["team_id"].to_list(), g.teams["name"].to_list(), strict=True)}
    run.bulletin_games, found = tg.team_bulletin_games(run.published_games, cfg.table(GamesConfig),
                                                       run.game_matches, teams)
    run.findings += found


def earned_divisions(league: TeamRoundRobinConfig, sources: Sequence[Source], as_of: dt.date
                     ) -> tuple[dict[str, tuple[str, str]], list[Finding]]:
    """Team regulations (promotion and relegation, ``[team_round_robin] previous``) — the
    division each team of the league's previous season earned: its division there, one up
    when it finished in that division's ``promoted`` places, one down in its ``relegated``
    places (the divisions in this season's order, top first; none above the top or below the
    bottom), by team id, with why ("2nd of Division One: promoted"). Nothing, with a warning
    row, when the previous season cannot be read or is not complete."""
    if not league.previous:
        return {}, []
    source = next((s for s in sources if s.name == league.previous), None)

    def warn(reason: str) -> tuple[dict[str, tuple[str, str]], list[Finding]]:
        return {}, [Finding("event.toml", None, "team_round_robin.previous", league.previous,
                            Severity.WARNING, f"{reason}: every team's division is as teams.csv "
                            "gives it")]

    if source is None or source.missing:
        return warn("no such event folder beside this one")
    if source.error and source.fallback is not None:  # as its last good publication shows it
        source = source.fallback
    prev_cfg = source.config
    if source.error or not isinstance(prev_cfg, EventConfig) \
            or prev_cfg.table(TeamRoundRobinConfig) is None:
        return warn(source.error or "not a team league (kind team_round_robin)")
    raw: dict[str, RawFile] = {k: v for k, v in source.raw.items()}  # type: ignore[misc]
    prev = prepare(prev_cfg, raw, as_of)
    if prev.blocked:
        return warn(f"its files have errors ({prev.blocked})")
    standings(prev)
    order = [d.id for d in league.divisions]
    out: dict[str, tuple[str, str]] = {}
    for g in prev.groups:
        if g.done < g.rounds or g.done not in g.rankings:
            return warn(f"its {g.name} is not complete")
        ids = dict(zip(g.teams["sno"].to_list(), g.teams["team_id"].to_list(), strict=True))
        ranking = g.rankings[g.done]
        n = ranking.height
        at = order.index(g.id) if g.id in order else None
        for sno, rank in zip(ranking["sno"].to_list(), ranking["rank"].to_list(), strict=True):
            place = f"{_ordinal(rank)} of {g.name}"
            if at is None:
                continue  # a division this season does not have: as typed
            if rank <= g.promoted and at > 0:
                out[ids[sno]] = (order[at - 1], f"{place}: promoted")
            elif rank > n - g.relegated and at + 1 < len(order):
                out[ids[sno]] = (order[at + 1], f"{place}: relegated")
            else:
                out[ids[sno]] = (g.id, place)
    return out, []


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def take_earned_divisions(teams: pl.DataFrame, earned: dict[str, tuple[str, str]],
                          found: list[Finding]) -> tuple[pl.DataFrame, list[Finding]]:
    """Team regulations (promotion and relegation) — teams.csv with the division each team
    earned in the previous season (:func:`earned_divisions`) where it gives none; a division
    it gives that differs is kept (the office's: a withdrawal, a restructured league) with a
    warning row saying what the previous season gave."""
    if not earned:
        return teams, found
    if "division" not in teams.columns:
        teams = teams.with_columns(pl.lit(None, pl.String).alias("division"))
    findings = list(found)
    divisions = []
    for r in teams.select("line", "team_id", "division").iter_rows(named=True):
        typed = (r["division"] or "").strip()
        want = earned.get(r["team_id"])
        if want is not None and typed and typed != want[0]:
            findings.append(Finding("teams.csv", r["line"], "division", typed, Severity.WARNING,
                                    f"the previous season puts it in {want[0]} ({want[1]}): "
                                    "the file's division is kept"))
        divisions.append(typed or (want[0] if want is not None else None))
    return teams.with_columns(pl.Series("division", divisions, pl.String)), findings


def number_teams(teams: pl.DataFrame, league: TeamRoundRobinConfig | None,
                 swiss: TeamSwissConfig | None, group: str) -> tuple[pl.DataFrame, str]:
    """FIDE C.05 Annex 1 (a league: numbers drawn by lot from ``draw_seed``, one draw per
    division) and FIDE C.04.6 (a team Swiss: the teams ranked by rating, then name) — each
    team's number (``sno``), unless every team has a ``start_no`` (kept; they must be
    1..N)."""
    if teams.height == 0:
        return teams.with_columns(pl.lit(None, dtype=pl.Int64).alias("sno")), ""
    given = teams["start_no"] if "start_no" in teams.columns else None
    if given is not None and given.null_count() == 0:
        if sorted(given.to_list()) != list(range(1, teams.height + 1)):
            return teams, f"division {group}: teams.csv start_no must be 1..{teams.height}, each once"
        return teams.with_columns(pl.col("start_no").cast(pl.Int64).alias("sno")).sort("sno"), ""
    if league is not None:
        drawn = draw_start_numbers(teams["team_id"].to_list(), f"{league.draw_seed}:{group}")
        return teams.with_columns(pl.col("team_id").replace_strict(drawn, return_dtype=pl.Int64)
                                  .alias("sno")).sort("sno"), ""
    del swiss
    ranked = teams.sort(["rating", "name"], descending=[True, False])
    return ranked.with_columns(pl.int_range(1, pl.len() + 1, dtype=pl.Int64).alias("sno")), ""


def league_fixtures(teams: int, cycles: int) -> pl.DataFrame:
    """FIDE C.05 Annex 1 — a division's fixtures: the Berger table of its teams (a team paired
    with the table's highest number when the number of teams is odd has no match that round);
    the table's White is the first-named (home) team, White on board 1. A double round robin
    plays the table again with the teams reversed (home and away)."""
    rows = []
    match_no: dict[int, int] = {}
    for b in berger_table(teams, double=cycles == 2):
        match_no[b.round] = match_no.get(b.round, 0) + 1
        rows.append({"round": b.round, "match": match_no[b.round], "white": b.white,
                     "black": b.black if b.black != BYE else 0})
    return pl.DataFrame(rows, schema=FIXTURES_SCHEMA)


def fixture_rules(recorded: list[mt.Match], group: Group, results: pl.DataFrame) -> list[Finding]:
    """FIDE C.05 Annex 1 — a league's match is played as its fixture says: the two teams of
    the round's fixture, the home team named first (team_a). A recorded match the fixtures do
    not have is an error on its first row."""
    fixtures = {(r["round"], r["white"], r["black"]) for r in group.fixtures.iter_rows(named=True)}
    names = dict(zip(group.teams["sno"].to_list(), group.teams["team_id"].to_list(), strict=True))
    out = []
    for m in recorded:
        if (m.round, m.white, m.black) in fixtures:
            continue
        swapped = (m.round, m.black, m.white) in fixtures
        first = results.filter((pl.col("round") == m.round) & (pl.col("team_a") == names[m.white]))
        lines = first["line"].to_list()
        line = min(lines) if lines else None
        out.append(Finding("results.csv", line, "team_a", names[m.white], Severity.ERROR,
                           f"round {m.round}: {names[m.white]} against "
                           f"{names.get(m.black, 'nobody')} is not a fixture of division "
                           f"{group.id}" + (" the other way round: the home team "
                                            f"{names[m.black]} is team_a" if swapped else "")))
    return out


def complete_rounds(group: Group) -> int:
    """FIDE C.07 (standings after a round) — the last round whose every match is finished,
    the rounds before it too (a round that is not complete stops the count): standings are
    published only after complete rounds."""
    done = 0
    for r in range(1, group.rounds + 1):
        due = group.fixtures.filter(pl.col("round") == r) if group.fixtures.height else None
        got = group.matches.filter(pl.col("round") == r)
        if got.height == 0 or (got["status"] == "unfinished").any():
            break
        if due is not None and due.height and got.height < due.filter(pl.col("black") != 0).height:
            break
        done = r
    return done


def standings(run: TeamRun) -> None:
    """FIDE C.07 (team events) — every group's standings after each complete round: match or
    game points first (``[team] primary``), then ``[team] tiebreaks``."""
    if run.blocked:
        return
    rules = run.rules
    swiss = run.cfg.table(TeamSwissConfig)
    run.tiebreak_words = {c: team_tiebreak_name(c, rules.primary.code) for c in rules.tiebreaks}
    for g in run.groups:
        g.done = complete_rounds(g)
        teams = g.teams["sno"].to_list()
        for r in range(1, g.done + 1):
            card, board_card = mt.team_card(g.matches, g.boards, rules, through=r, teams=teams)
            g.rankings[r] = rank_teams(card, board_card, rules.tiebreaks,
                                       primary=rules.primary.code, match_points=rules.match_points,
                                       rounds=r, edition=rules.tiebreak_edition,
                                       round_robin=swiss is None, teams=g.teams)
            if r == g.done:
                g.card, g.board_card = card, board_card
                g.tiebreak_detail = explain_team_tiebreaks(
                    card, board_card, rules.tiebreaks, primary=rules.primary.code,
                    match_points=rules.match_points, rounds=r, edition=rules.tiebreak_edition,
                    round_robin=swiss is None)
        g.next_round = g.done + 1 if g.done < g.rounds else None


def individual_results(run: TeamRun) -> None:
    """FIDE B.02 8.1-8.3, team regulations (board prizes) — every player's games of the
    finished matches, their rating change (each game with the ratings in force in its round
    where a later list comes into force during the event: :attr:`TeamRun.later_ratings`) and
    performance, and each board's prize places."""
    if run.blocked:
        return
    rules = run.rules
    for g in run.groups:
        g.games = tp.player_games(g.boards, g.matches, g.players)
        g.ratings = tp.player_rating_changes(g.games, g.players, run.as_of, run.later_ratings)
        g.board_prizes = tp.board_prizes(g.games, g.ratings, rules.board_prize_min_games)


def title_norms(run: TeamRun) -> None:
    """FIDE B.01 1.4 (1.4.1b, 1.4.3b: team championships) — in an event with ``[norms]``, every
    player's title norms over their games of the complete rounds, each group on its own (a
    league's division: pairings fixed in advance, 1.4.1e; a double round robin, 1.4.5f), and
    what the remaining rounds must give (the next opponents are not known: no line-up)."""
    norms: NormsConfig | None = run.cfg.table(NormsConfig)
    if norms is None or run.blocked:
        return
    league = run.cfg.table(TeamRoundRobinConfig)
    report = run.cfg.table(RatingReportRules)
    dates = norms.round_dates or (league.round_dates if league is not None else ()) or (
        report.round_dates if report is not None else ())
    for g in run.groups:
        if (norms.categories and g.id not in norms.categories) or not g.done:
            continue
        card = (g.games.filter(pl.col("round") <= g.done)
                .select(pl.col("round").cast(pl.Int32), pl.col("pno").alias("sno"),
                        pl.col("opponent_pno").alias("opponent"), "colour", "points", "kind"))
        people = g.players.select(
            pl.col("pno").alias("sno"), "name", "rating", "title", "federation",
            *[pl.col(c) if c in g.players.columns else pl.lit(None, pl.String).alias(c)
              for c in ("sex", "fide_id")])
        event = NormEvent(
            rounds=g.rounds, host=norms.host_federation or (report.federation if report else ""),
            event_type=norms.event_type, predetermined=league is not None,
            double_round_robin=league is not None and league.cycles == 2,
            round_dates=dates, min_games=norms.min_games)
        g.norms = event_norms(card, people, event, through=g.done,
                              titles=norms.titles or None, rules=norm_rules(norms.edition))


def reports(run: TeamRun) -> None:
    """FIDE TRF-2026 (team records) — each group's report file after its last complete round
    (:func:`transforms.team.report.team_report`)."""
    if run.blocked:
        return
    for g in run.groups:
        if g.done:
            g.report = team_report(run, g)
            g.period_reports = period_reports(run, g)


def period_reports(run: TeamRun, g: Group) -> tuple[tuple[dt.date, str], ...]:
    """FIDE B.02 (an event longer than 30 days reports its results by rating period, as each
    period's rounds are complete: a league is the usual one) — the group's rating report of
    each month whose rounds are all complete, cut from its full report
    (:func:`~transforms.fide.rating_report.period_report`: the month's rounds numbered from 1,
    every player with the points of those rounds); none where the rounds span at most 30 days
    or have no dates (``round_dates`` of ``[team_round_robin]``, ``[team_swiss]`` or
    ``[fide_report]``).

    Decision: a month's report carries the players' games only — the team records (``310``
    standings, ``320`` byes, ``330`` forfeited matches, ``240`` absences) describe the whole
    event's rounds and are in the full report; FIDE rates the players' games. Each month's
    players carry the rating in force at its first round (a later list of the season:
    :attr:`TeamRun.later_ratings`), else the start's."""
    dates = event_round_dates(run.cfg)[:g.rounds]
    periods = rating_periods(dates)
    if len(periods) <= 1 or not g.report:
        return ()
    full = parse_trf(g.report, source=f"team report {g.id}")
    out = []
    for month, part in periods:
        if max(part) > g.done:
            break
        ratings = ratings_in_force(run.later_ratings, g.players, part[0], number="pno")
        t = dataclasses.replace(period_report(full, part, month, dates, ratings), other_records=())
        out.append((month, write_trf(t)))
    return tuple(out)


RULE_STEPS: tuple[tuple[str, Callable[[TeamRun], Any]], ...] = (
    ("standings", standings), ("pairing", ts.pair_rounds), ("lineups", tl.lineups_step),
    ("players", individual_results), ("norms", title_norms), ("report", reports))
"""The rulebook's steps after validation, in order; the flow runs each as a task."""

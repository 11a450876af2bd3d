"""The FIDE rating report: the TRF a federation's rating officer uploads to FIDE, one per rated
category, and the check of a TRF against what FIDE asks of a rating report.

FIDE Rating Regulations §9.1: the chief arbiter provides the tournament report (TRF) to the
federation's rating officer, who uploads it to the FIDE Rating Server. What the report must
hold is the "R" (rating) column of C.04 Annex 2 (TRF16 / TRF-2026): records 012 name, 022
city, 032 federation, 042/052 dates, 102 chief arbiter and 132 round dates are mandatory;
182, 192 and 202 are mandatory for title events; every player needs a FIDE number (58-68)
and a rank (86-89), and the points must agree with the results.

| what | where in the report | from |
|---|---|---|
| 012 022 032 042 052 | name, city, federation, start and end | ``[event]`` name/start/end, ``[fide_report]`` city/federation |
| 062 072 | number of players, of rated players (rating > 0) | the category's accepted players |
| 092 102 112 122 | type, chief arbiter, deputies, time control (text) | ``[fide_report]`` |
| 132 | one date per round (YY/MM/DD) | ``[fide_report] round_dates`` |
| 142 152 192 | rounds, initial colour, ``FIDE_DUTCH_<edition>`` | ``[swiss]`` |
| 182 202 212 222 | pairing program, tie-breaks, ``PTS`` + tie-breaks, encoded time control | ``[fide_report]``, ``[swiss] tiebreaks`` |
| 001 | sex ``m``/``w``, title, name, rating (blank: unrated), federation, FIDE id, birth date YYYY/MM/DD, points, rank | players.csv, the scorecard, the published final standings |

SOURCE: FIDE Rating Regulations (effective 1 March 2024) §9.1 (reporting); FIDE Regulations
for Registration & Licensing of Players (D.01.12) §3 (a player without a FIDE ID must be
registered by the federation before the tournament is submitted); FIDE Qualification
Commission, "Letter to Federation Ratings Officers" (26 February 2024: new players need a
correct birth date and gender); TRF-2026 "R" column (see :mod:`transforms.fide.trf`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

import polars as pl

from transforms.core.config import EventConfig
from transforms.core.errors import ConfigError, Finding, Severity
from transforms.core.model import Colour, DutchEdition, Kind, Title
from transforms.fide.trf import (
    PointSystem,
    Tournament,
    TrfFormat,
    TrfHeader,
    tournament_from_scorecard,
)
from transforms.fide.trf_points import check_points

TIME_CONTROL_CODE = re.compile(
    r"(?:\d+/)?\d+(?:\+\d+)?(?::(?:\d+/)?\d+(?:\+\d+)?)*"
    r"|W(?:\d+/)?\d+(?:\+\d+)?(?::(?:\d+/)?\d+(?:\+\d+)?)*-B(?:\d+/)?\d+(?:\+\d+)?"
    r"(?::(?:\d+/)?\d+(?:\+\d+)?)*")
"""TRF-2026 ``222``: periods ``M/S``, ``M/S+I``, ``S`` or ``S+I`` (moves, seconds, increment)
joined by ``:``; ``Wd-Bd`` when White and Black differ (``5400+30``, ``40/6000+30:900+30``,
``W300-B240``)."""

_TITLES = frozenset(t.value for t in Title)
_DATE = re.compile(r"\d{4}/\d{2}/\d{2}")
_FED = re.compile(r"[A-Z]{3}")


@dataclass(frozen=True)
class RatingReportRules:
    """``[fide_report]`` of event.toml: what the rating report says that the rest of
    event.toml does not. Validated in ``__post_init__`` (a :class:`ConfigError` keyed
    relative to the table; the loader names the file and the full key)."""

    city: str
    """``022``: where the tournament is played."""
    federation: str
    """``032``: the FIDE code of the federation the tournament is held in (``IND``)."""
    chief_arbiter: str
    """``102``: title, name and FIDE id of the chief arbiter (``IA Firstname Lastname 25012345``)."""
    round_dates: tuple[dt.date, ...]
    """``132``: the date of each round, one per round of ``[swiss] rounds``."""
    deputy_arbiters: tuple[str, ...] = ()
    """``112``: one line each."""
    time_control: str = ""
    """``122``: the rate of play as the regulations say it."""
    time_control_code: str = ""
    """``222`` (TRF-2026): the rate of play encoded, e.g. ``5400+30`` (90 min + 30 s)."""
    tournament_type: str = "Individual: Swiss-System"
    """``092``: the type of tournament (text)."""
    pairing_controller: str = "chessfed"
    """``182`` (TRF-2026): the program or person making the pairings."""
    categories: tuple[str, ...] = ()
    """The rated categories (``[swiss]`` category ids); empty: every category."""
    tournament_codes: Mapping[str, str] = field(default_factory=dict)
    """Category id → the tournament's FIDE registration code (a comment line of the report)."""
    format: TrfFormat = TrfFormat.TRF_2026
    """``TRF-2026`` (FIDE's format since 1 September 2025) or ``TRF16``."""

    def __post_init__(self) -> None:
        def bad(key: str, reason: str) -> ConfigError:
            return ConfigError("", key, reason)

        for key in ("city", "chief_arbiter"):
            if not getattr(self, key).strip():
                raise bad(key, "must not be empty (a mandatory record of the rating report)")
        if not _FED.fullmatch(self.federation):
            raise bad("federation", f"{self.federation!r} is not a FIDE federation code "
                      "(three capital letters, e.g. 'IND')")
        if not self.round_dates:
            raise bad("round_dates", "one date per round is required (TRF 132)")
        for i, (a, b) in enumerate(zip(self.round_dates, self.round_dates[1:]), start=1):
            if b < a:
                raise bad(f"round_dates[{i}]", f"{b} is before the date of round {i} ({a})")
        if self.time_control_code and not TIME_CONTROL_CODE.fullmatch(self.time_control_code):
            raise bad("time_control_code", f"{self.time_control_code!r} is not a TRF-2026 222 "
                      "time control (seconds, e.g. '5400+30' or '40/6000+30:900+30')")
        for cat, code in self.tournament_codes.items():
            if not code.strip().isdigit():
                raise bad(f"tournament_codes.{cat}", f"{code!r} is not a FIDE tournament code "
                          "(digits)")


def tiebreak_code(code: str) -> str:
    """FIDE C.07 / TRF-2026 ``202`` — a tie-break code as the TRF writes it: the modifier
    after a slash (``BH-C1`` → ``BH/C1``), as FIDE TEC's tie-break checker reads it."""
    return code.strip().upper().replace("-", "/")


def report_header(rules: RatingReportRules, *, start: dt.date, end: dt.date,
                  players: pl.DataFrame, tiebreaks: tuple[str, ...] = ()) -> TrfHeader:
    """FIDE C.04 Annex 2 (TRF records 022-222) — the tournament section of a category's
    rating report. ``players`` is the TRF players frame (``rating`` 0 or null: unrated)."""
    rated = int(players.filter(pl.col("rating").fill_null(0) > 0).height)
    codes = tuple(tiebreak_code(c) for c in tiebreaks)
    return TrfHeader(
        city=rules.city, federation=rules.federation, start=f"{start:%Y/%m/%d}",
        end=f"{end:%Y/%m/%d}", players_count=str(players.height), rated_count=str(rated),
        type=rules.tournament_type, chief_arbiter=rules.chief_arbiter,
        deputy_arbiters=rules.deputy_arbiters, time_control=rules.time_control,
        round_dates=tuple(f"{d:%y/%m/%d}" for d in rules.round_dates),
        pairing_controller=rules.pairing_controller if rules.format is TrfFormat.TRF_2026 else "",
        tiebreaks=codes if rules.format is TrfFormat.TRF_2026 else (),
        standings=("PTS", *codes) if rules.format is TrfFormat.TRF_2026 and codes else (),
        time_control_code=rules.time_control_code if rules.format is TrfFormat.TRF_2026 else "")


def rating_report(players: pl.DataFrame, scorecard: pl.DataFrame, ranking: pl.DataFrame, *,
                  name: str, header: TrfHeader, total_rounds: int, edition: DutchEdition,
                  initial_colour: Colour, format: TrfFormat = TrfFormat.TRF_2026,
                  tournament_code: str = "") -> Tournament:
    """FIDE Rating Regulations §9.1 — the rating report of one category: every player with
    every round of the scorecard (games, forfeits, byes, and the rounds a withdrawn player
    missed, written ``0000 - -``), the points, and the rank of the published final standings
    (``ranking``: :func:`transforms.fide.standings.rank_players`, players tied after every
    tie-break share it).

    ``players`` is the TRF players frame (sno, name, sex, title, rating, fed, fide_id, birth).
    Decisions: an unrated player's rating field is blank (FIDE reads blank as unrated); a
    player without a FIDE id is written without one — FIDE rejects such a report until the
    federation has registered the player, and :func:`check_rating_report` says so; the point
    system is the scorecard's (``162`` / ``XXS`` only where the PAB scored other than 1)."""
    frame = players.join(ranking.select(pl.col("sno").cast(players.schema["sno"]), "rank"),
                         on="sno", how="left")
    scoring = point_system_of(scorecard)
    t = tournament_from_scorecard(frame, scorecard, name=name, total_rounds=total_rounds,
                                  initial_colour=initial_colour, edition=edition,
                                  header=header, scoring=scoring, format=format)
    if tournament_code:
        t = replace(t, other_records=(f"### FIDE tournament code {tournament_code}",))
    return t


def point_system_of(scorecard: pl.DataFrame) -> PointSystem:
    """FIDE C.04.1 (byes) / TRF-2026 ``162`` — the point system a scorecard was scored with:
    FIDE's, with the PAB's points as the PAB rows have them (the event's ``pab_points``)."""
    pab = scorecard.filter(pl.col("kind") == str(Kind.PAB))["points"].unique().to_list()
    return PointSystem(pab=float(pab[0])) if len(pab) == 1 else PointSystem()


# ----------------------------------------------------------------------------- the check


def check_rating_report(t: Tournament, *, source: str = "") -> list[Finding]:
    """FIDE Rating Regulations §9.1 and C.04 Annex 2 ("R" column) — what FIDE would reject in
    a rating report (errors) or ask about (warnings), each with its line.

    Errors: a mandatory record missing or malformed (012, 022, 032, 042, 052, 102, 132; dates
    ``YYYY/MM/DD``, round dates ``YY/MM/DD``, one per round played), a player without a FIDE
    id, with a malformed or repeated one, without a federation, without a rank, a new
    (unrated) player without a full birth date or a sex, a sex other than ``m``/``w``, points
    that do not add up (:func:`transforms.fide.trf_points.check_points`), a game that the
    opponent's line records differently, more rounds than 142 says or fewer than it (the
    tournament is not finished). Warnings: 062/072 disagreeing with the players, a round
    date outside the tournament's dates, an unknown title, a rated player's missing birth
    date, TRF-2026 records mandatory for title events (182, 192, 202) missing."""
    out: list[Finding] = []

    def add(key: str, column: str, severity: Severity, reason: str, value: str | None = None,
            ) -> None:
        lineno, text = t.line(key)
        out.append(Finding(source, lineno, column, text if value is None else value, severity,
                           reason))

    _check_header(t, add)
    out += check_points(t, source=source)
    _check_players(t, add)
    _check_games(t, add)
    return sorted(out, key=lambda f: (f.line is not None, f.line or 0))


_Add = Callable[[str, str, Severity, str], None]
"""How a check reports a finding: record key, column, severity, reason."""


def _check_header(t: Tournament, add: _Add) -> None:
    h = t.header
    required = (("012", t.name, "012 tournament name"), ("022", h.city, "022 city"),
                ("032", h.federation, "032 federation"), ("042", h.start, "042 date of start"),
                ("052", h.end, "052 date of end"), ("102", h.chief_arbiter, "102 chief arbiter"))
    for tag, value, what in required:
        if not value:
            add(tag, what, Severity.ERROR, f"{what} is missing: a mandatory record of the "
                "rating report")
    if h.federation and not _FED.fullmatch(h.federation):
        add("032", "032 federation", Severity.ERROR,
            f"{h.federation!r} is not a FIDE federation code (three capital letters)")
    dates = {}
    for tag, value, what in (("042", h.start, "042 date of start"), ("052", h.end,
                                                                     "052 date of end")):
        if value:
            d = _date(value, "%Y/%m/%d")
            if d is None:
                add(tag, what, Severity.ERROR, f"{value!r} is not a date YYYY/MM/DD")
            dates[tag] = d
    start, end = dates.get("042"), dates.get("052")
    if start and end and end < start:
        add("052", "052 date of end", Severity.ERROR, f"the end {h.end} is before the start {h.start}")
    played = _rounds_played(t)
    if not h.round_dates:
        add("132", "132 round dates", Severity.ERROR,
            "132 round dates are missing: a mandatory record of the rating report")
    else:
        for i, value in enumerate(h.round_dates, start=1):
            d = _date(value, "%y/%m/%d") if value else None
            if d is None:
                add("132", f"132 round {i}", Severity.ERROR,
                    f"round {i}: {value!r} is not a date YY/MM/DD in columns "
                    f"{92 + 10 * (i - 1)}-{99 + 10 * (i - 1)}")
            elif start and end and not start <= d <= end:
                add("132", f"132 round {i}", Severity.WARNING,
                    f"round {i} is dated {d:%Y/%m/%d}, outside the tournament ({h.start} - {h.end})")
        if len(h.round_dates) < played:
            add("132", "132 round dates", Severity.ERROR,
                f"{len(h.round_dates)} round dates for {played} rounds played")
    if t.total_rounds is not None and played and played != t.total_rounds:
        tag = "rounds"
        if played < t.total_rounds:
            add(tag, "142 rounds", Severity.ERROR, f"{played} of {t.total_rounds} rounds have "
                "results: the tournament is not finished")
        else:
            add(tag, "142 rounds", Severity.ERROR,
                f"the lines hold {played} rounds, the file says {t.total_rounds}")
    n = len(t.players)
    rated = sum(1 for p in t.players if p.rating)
    for tag, value, want, what in (("062", h.players_count, n, "062 number of players"),
                                   ("072", h.rated_count, rated, "072 number of rated players")):
        if value and value != str(want):
            add(tag, what, Severity.WARNING, f"{what} says {value}, the file has {want}")
    if t.format is TrfFormat.TRF_2026:
        for tag, value, what in (("182", h.pairing_controller, "182 pairing controller"),
                                 ("192", h.encoded_type or (t.edition or ""),
                                  "192 encoded tournament type"),
                                 ("202", ",".join(h.tiebreaks), "202 tie-breaks")):
            if not value:
                add(tag, what, Severity.WARNING, f"{what} is missing: mandatory for title events")


def _check_players(t: Tournament, add: _Add) -> None:
    ids = Counter(p.fide_id for p in t.players if p.fide_id)
    n = len(t.players)
    for p in t.players:
        key = f"001:{p.sno}"
        who = f"player {p.sno} ({p.name})"
        new = not p.rating
        if not p.fide_id:
            add(key, "FIDE id (58-68)", Severity.ERROR,
                f"{who} has no FIDE ID: FIDE rejects the report until the federation has "
                "registered the player (name, sex, birth date, federation) and the ID is "
                "written here")
        elif not p.fide_id.isdigit():
            add(key, "FIDE id (58-68)", Severity.ERROR, f"{who}: FIDE ID {p.fide_id!r} is not "
                "a number")
        elif ids[p.fide_id] > 1:
            add(key, "FIDE id (58-68)", Severity.ERROR, f"{who}: FIDE ID {p.fide_id} is given "
                f"to {ids[p.fide_id]} players")
        if not _FED.fullmatch(p.fed):
            add(key, "federation (54-56)", Severity.ERROR,
                f"{who}: federation {p.fed!r} is not a FIDE federation code")
        if p.sex not in ("m", "w", ""):
            add(key, "sex (10)", Severity.ERROR, f"{who}: sex {p.sex!r} is not m or w "
                "(the TRF writes w for a woman)")
        elif not p.sex and new:
            add(key, "sex (10)", Severity.ERROR, f"{who} is unrated (a new player for FIDE) "
                "and has no sex: FIDE needs it to register the player")
        if not p.birth:
            add(key, "birth date (70-79)", Severity.ERROR if new else Severity.WARNING,
                f"{who} has no birth date" + (": FIDE needs the birth date of a new "
                                              "(unrated) player" if new else ""))
        elif not _DATE.fullmatch(p.birth) or _date(p.birth, "%Y/%m/%d") is None:
            add(key, "birth date (70-79)", Severity.ERROR if new else Severity.WARNING,
                f"{who}: birth date {p.birth!r} is not YYYY/MM/DD")
        if p.title and p.title.upper() not in _TITLES:
            add(key, "title (11-13)", Severity.WARNING,
                f"{who}: title {p.title!r} is not one of {', '.join(sorted(_TITLES))}")
        if not 1 <= p.rank <= n:
            add(key, "rank (86-89)", Severity.ERROR,
                f"{who} has no rank (1-{n}): the rank is mandatory for the rating report")


def _check_games(t: Tournament, add: _Add) -> None:
    """Both lines of a game say the same: opponents, colours, results."""
    rows = {(r[1], r[0]): r for r in t.card_rows}
    for (sno, rnd), (_, _, opp, colour, points, kind) in sorted(rows.items()):
        if opp is None or kind not in (Kind.PLAYED, Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS):
            continue
        other = rows.get((opp, rnd))
        if other is None or other[2] != sno:
            add(f"001:{sno}", f"round {rnd}", Severity.ERROR,
                f"round {rnd}: player {sno} met {opp}, whose line does not say so")
            continue
        if sno > opp:
            continue  # one finding per game, on the line of the lower start number
        reason = None
        if other[3] == colour:
            reason = f"players {sno} and {opp} both have colour {colour}"
        elif kind == Kind.PLAYED and (other[5] != Kind.PLAYED or {
                t.scoring.played_code(points, colour),
                t.scoring.played_code(other[4], other[3])} not in ({"1", "0"}, {"="})):
            reason = f"the game {sno}-{opp} has results that do not match on the two lines"
        elif kind == Kind.FORFEIT_WIN and other[5] != Kind.FORFEIT_LOSS:
            reason = f"{sno} won by forfeit but {opp}'s line has no forfeit loss"
        elif kind == Kind.FORFEIT_LOSS and other[5] not in (Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS):
            reason = f"{sno} lost by forfeit but {opp}'s line has no forfeit"
        if reason:
            add(f"001:{sno}", f"round {rnd}", Severity.ERROR, f"round {rnd}: {reason}")


def _rounds_played(t: Tournament) -> int:
    return max((r[0] for r in t.card_rows if r[2] is not None or r[5] == Kind.PAB), default=0)


def _date(text: str, fmt: str) -> dt.date | None:
    try:
        return dt.datetime.strptime(text.strip(), fmt).date()
    except ValueError:
        return None


LONG_EVENT_DAYS = 30
"""FIDE B.02 (2024) and the FIDE Technical Commission's manual: an event that lasts longer
than 30 days reports its results by rating period, not once at its end."""


def event_round_dates(cfg: EventConfig) -> tuple[dt.date, ...]:
    """FIDE B.02 (rating periods: the date of each round) — the dates of the event's rounds as
    its configuration gives them: its kind's own table's ``round_dates`` (a league's, a team
    Swiss's), else ``[fide_report] round_dates``; () where none gives them."""
    for table in cfg.tables.values():
        dates = getattr(table, "round_dates", None)
        if dates and not isinstance(table, RatingReportRules):
            return tuple(dates)
    report = cfg.table(RatingReportRules)
    return tuple(report.round_dates) if report is not None else ()


def rating_periods(round_dates: tuple[dt.date, ...]) -> list[tuple[dt.date, tuple[int, ...]]]:
    """FIDE B.02 7.1 (a rating period: the month a list is valid; "all rated play during the
    rating period" goes into the next list) and the duration rule (results of an event longer
    than :data:`LONG_EVENT_DAYS` days reported by period) — the months an event's rounds are
    played in, each with its rounds (1-based); one period with every round for an event whose
    rounds span at most 30 days.

    Decision: a period is a calendar month (the rating period of FIDE's monthly lists); a round
    belongs to the month of its date."""
    if not round_dates:
        return []
    if (round_dates[-1] - round_dates[0]).days <= LONG_EVENT_DAYS:
        return [(round_dates[0].replace(day=1), tuple(range(1, len(round_dates) + 1)))]
    out: dict[dt.date, list[int]] = {}
    for r, d in enumerate(round_dates, start=1):
        out.setdefault(d.replace(day=1), []).append(r)
    return [(month, tuple(rounds)) for month, rounds in out.items()]


def period_report(t: Tournament, rounds: tuple[int, ...], month: dt.date,
                  round_dates: tuple[dt.date, ...],
                  ratings: Mapping[int, int] | None = None) -> Tournament:
    """FIDE B.02 (results reported by rating period) and the FIDE Technical Commission's
    practice (one report per part, its rounds numbered from 1) — the part of a rating report
    ``t`` played in ``month``: its ``rounds`` renumbered 1, 2, …, their dates, every player with
    the points of those rounds and a rank by them.

    Decision: every player of the category stays, with their start number (a round they did
    not play is written as the full report writes it); the rank is by the part's points, then
    start number (a part has no tie-breaks of its own); the rating is the one in force for the
    part (``ratings``: start number -> rating of a list that came into force during the event,
    0 unrated on it), else the one the full report gives (FIDE's checklist for tournament
    programs: "the TRF of a later period carries that period's rating")."""
    number = {r: i for i, r in enumerate(rounds, start=1)}
    rows = tuple((number[rnd], sno, opp, colour, points, kind)
                 for rnd, sno, opp, colour, points, kind in t.card_rows if rnd in number)
    points: dict[int, float] = {}
    for _, sno, _, _, pts, _ in rows:
        points[sno] = points.get(sno, 0.0) + pts
    order = sorted(t.players, key=lambda p: (-points.get(p.sno, 0.0), p.sno))
    rank = {p.sno: i for i, p in enumerate(order, start=1)}
    given = ratings or {}
    players = tuple(replace(p, points=points.get(p.sno, 0.0), rank=rank[p.sno], raw=None,
                            rating=given.get(p.sno, p.rating))
                    for p in t.players)
    dates = tuple(round_dates[r - 1] for r in rounds)
    header = replace(t.header, start=f"{dates[0]:%Y/%m/%d}", end=f"{dates[-1]:%Y/%m/%d}",
                     round_dates=tuple(f"{d:%y/%m/%d}" for d in dates))
    return replace(t, name=f"{t.name} — {month:%B %Y}", players=players, card_rows=rows,
                   total_rounds=len(rounds), header=header, header_spelling={},
                   entry_spelling={}, layout=(), lines=(), line_of={})


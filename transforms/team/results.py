"""A team competition's players as a series reads them (:class:`transforms.core.results.
EventResult`): each player's games of its finished matches — board points, opponents, forfeits —
and rating change, one section per group (a league's division, a team Swiss's field). A team
event has no individual places: a series counts its players' game points (``points =
"game-points"``), and a member's season page lists their games there."""

from __future__ import annotations

import datetime as dt

from transforms.core.config import EventConfig
from transforms.core.ingest import RawFile
from transforms.core.model import Kind
from transforms.core.results import EventResult, Finish, NoResults, RoundResult
from transforms.team.event import individual_results, prepare, standings


def event_result(cfg: EventConfig, raw: dict[str, RawFile], as_of: dt.date, *, source: str,
                 site: str = "") -> EventResult:
    """Team regulations and FIDE B.02 8.3 — every rostered player's board results of the
    finished matches (the games the event's own player pages list:
    :func:`transforms.team.event.individual_results`), their game points, and their rating
    change on the rosters' ratings, one section per group. Raises :class:`NoResults` when the
    event's files block its standings.

    Decision: a player of a team event has no place (``rank`` None: a series by places gives
    them nothing, one by game points their board points); a rostered player who played no
    board is not among the results; the event is complete when every group's last round is."""
    run = prepare(cfg, raw, as_of)
    if run.blocked:
        raise NoResults(run.blocked)
    standings(run)
    individual_results(run)
    finishes: list[Finish] = []
    for g in run.groups:
        by_player: dict[int, list[RoundResult]] = {}
        for r in g.games.sort("round", "board").iter_rows(named=True):
            opp = r["opponent_pno"]
            by_player.setdefault(r["pno"], []).append(RoundResult(
                int(r["round"]), str(opp) if opp is not None else None, float(r["points"]),
                Kind(r["kind"]).is_played))
        rated = g.ratings.players if g.ratings is not None else None
        change = ({} if rated is None else
                  {s: x for s, x, ok in zip(rated["sno"].to_list(), rated["change_exact"].to_list(),
                                            rated["rated"].to_list(), strict=True)
                   if ok and x is not None})
        for p in g.players.iter_rows(named=True):
            games = tuple(by_player.get(p["pno"], ()))
            if not games:
                continue
            finishes.append(Finish(
                key=str(p["pno"]), name=str(p["name"]), section=g.id, rank=None,
                points=sum(x.points for x in games), rounds=games, rating=p.get("rating") or None,
                fide_id=p.get("fide_id") or "", federation=p.get("federation") or "",
                title=p.get("title") or "", email=p.get("email") or "",
                rating_change=change.get(p["pno"]), rating_list="FIDE" if p["pno"] in change else ""))
    groups = run.groups
    most = max((g.rounds for g in groups), default=0)
    done = most if groups and all(g.done >= g.rounds for g in groups) else min(
        (g.done for g in groups), default=0)
    return EventResult(source=source, name=cfg.event.name, start=cfg.event.start,
                       end=cfg.event.end, rounds=most, done=done, finishes=tuple(finishes),
                       sections=tuple((g.id, g.name) for g in groups), site=site)

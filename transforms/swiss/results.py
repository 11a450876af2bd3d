"""A Swiss's or a round robin's final results as a series reads them
(:class:`transforms.core.results.EventResult`): the rulebook's validation and standings, no
pairing, no audit."""

from __future__ import annotations

import datetime as dt

from transforms.core.config import EventConfig
from transforms.core.ingest import RawFile
from transforms.core.model import Kind
from transforms.core.results import EventResult, Finish, NoResults, RoundResult
from transforms.swiss.event import category_ratings, prepare, rank_rounds


def event_result(cfg: EventConfig, raw: dict[str, RawFile], as_of: dt.date, *, source: str,
                 site: str = "") -> EventResult:
    """FIDE C.07 and the event's tie-breaks — every player's place and points in each category
    after its complete rounds, and every round's result (the standings the event's own pages
    publish, from the same rulebook: :func:`transforms.swiss.event.rank_rounds`), and each
    rated player's rating change over the event on its first rating list (FIDE B.02 8.3,
    :func:`transforms.swiss.event.category_ratings`, unrounded). Raises
    :class:`NoResults` when the event's files block its standings."""
    run = prepare(cfg, raw, as_of)
    if run.blocked:
        raise NoResults(run.blocked)
    rank_rounds(run)
    lists = run.rating_lists
    finishes: list[Finish] = []
    for c in run.categories:
        first = lists.lists[0].name if lists is not None and lists.lists and c.done else ""
        rated = category_ratings(run, c, lists)[first].players if first and lists is not None else None
        change = ({} if rated is None else
                  {s: x for s, x, r in zip(rated["sno"].to_list(), rated["change_exact"].to_list(),
                                           rated["rated"].to_list(), strict=True)
                   if r and x is not None})
        ranking = c.rankings.get(c.done)
        place = (dict(zip(ranking["sno"].to_list(), ranking["rank"].to_list(), strict=True))
                 if ranking is not None else {})
        points = (dict(zip(ranking["sno"].to_list(), ranking["points"].to_list(), strict=True))
                  if ranking is not None else {})
        rounds: dict[int, list[RoundResult]] = {}
        for r in c.card.sort("round").iter_rows(named=True):
            opp = r["opponent"]
            rounds.setdefault(r["sno"], []).append(RoundResult(
                int(r["round"]), str(opp) if opp is not None else None,
                float(r["points"]), Kind(r["kind"]).is_played))
        for p in c.players.iter_rows(named=True):
            sno = p["sno"]
            birth = p.get("birth_date")
            finishes.append(Finish(
                key=str(sno), name=str(p["name"]), section=c.cat.id,
                rank=int(place[sno]) if sno in place else None,
                points=float(points.get(sno, 0.0) or 0.0), rounds=tuple(rounds.get(sno, ())),
                rating=p.get("rating") or None, fide_id=p.get("fide_id") or "",
                member_id=p.get("member_id") or "", federation=p.get("nationality") or "",
                title=p.get("title") or "", sex=p.get("gender") or "",
                birth_year=birth.year if isinstance(birth, dt.date) else None,
                club=p.get("club") or "", email=p.get("email") or "", line=p.get("line"),
                rating_change=change.get(sno), rating_list=first if sno in change else ""))
    cats = run.categories
    most = max((c.rounds for c in cats), default=0)
    # a round robin's categories may have different rounds: complete when each is
    done = most if cats and all(c.done >= c.rounds for c in cats) else min(
        (c.done for c in cats), default=0)
    return EventResult(
        source=source, name=cfg.event.name, start=cfg.event.start, end=cfg.event.end,
        rounds=most, done=done,
        finishes=tuple(finishes), sections=tuple((c.cat.id, c.cat.name) for c in cats), site=site)

"""A series' letters (presentation only: every figure is the rulebook's): to each member with an
email, after each event the series counts — the member's place and points in the series and
its categories, and what each of their events gave.

Decision: keyed by the number of events counted (``member-<member>-after-NN``), so that a rerun
sends nothing new and each member hears once per event; the address is the one the member's
latest event gave, else the season's registry's (a TRF gives none)."""

from __future__ import annotations

import polars as pl

from flows.kinds.series.pages import counting_words, member_rel, points_text
from flows.mail.letters import Block, Letter, address_problem
from flows.site.names import file_part
from transforms.series.event import SeriesRun


def series_letters(run: SeriesRun) -> tuple[list[Letter], list[tuple[str, str]]]:
    """Every member's letter of the run, and who was skipped (no valid address). None while the
    standings are held or no event is complete."""
    letters: list[Letter] = []
    skipped: list[tuple[str, str]] = []
    if run.blocked or not run.held or run.standings is None or run.scores is None:
        return letters, skipped
    places: dict[str, list[tuple[str, str, float]]] = {}
    for label, frame in [(run.cfg.event.name, run.standings),
                         *((c.name, run.categories[c.id]) for c in run.rules.categories)]:
        for r in frame.iter_rows(named=True):
            places.setdefault(r["member"], []).append((label, r["rank_label"], r["points"]))
    last = max(i for i, e in enumerate(run.events) if e.counted)
    for key, m in run.members.items():
        if not any(i == last for i, _ in m.finishes):
            continue  # news only for those who played the latest event
        email = m.latest("email") or (m.registered or {}).get("email")
        if not email:
            continue
        problem = address_problem(email)
        if problem:
            skipped.append((f"member {key} ({m.name})", problem))
            continue
        mine = run.scores.filter(pl.col("member") == key).sort("event")
        rows = tuple((r["event_name"], f"{r['place_label']} of {r['of']}" if r["place"] else "",
                      points_text(r["points"]), "yes" if r["counted"] else "no")
                     for r in mine.iter_rows(named=True))
        standing = tuple(f"{where}: place {label} with {points_text(pts)} points."
                         for where, label, pts in places.get(key, []))
        event = run.events[last].name
        letters.append(Letter(
            key=f"member-{file_part(key, lower=True)}-after-{run.held:02d}",
            to_name=m.name, to_email=str(email),
            subject=f"{run.cfg.event.name} — after {event}",
            lead=(f"{event} is complete, the {ordinal(run.held)} of the {len(run.events)} "
                  f"events of the {run.cfg.event.name}: your standing."),
            blocks=(Block("Your standing", standing),
                    Block("Your events", (counting_words(run)[0].upper()
                                          + counting_words(run)[1:] + ".",),
                          table=(("Event", "Place", "Points", "Counts"), *rows))),
            links=(("Your page", member_rel(key)), ("The standings", "standings.html")),
            kind="member-series", meta={"member": key}))
    return letters, skipped


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``11th``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"

"""A Swiss event's personal letters (Step 8: a personal message for everyone the regulations
concern), built from one :class:`~transforms.swiss.event.SwissRun` (presentation only: every
number is the rulebook's — the standings, the pairing, the prize list, the entries' ledger).

* every accepted player with an email: their result in the latest complete round, their
  points and place, the next round's pairing (or bye) and their byes or withdrawal on record;
  for a rated event their rating change so far and performance (one line,
  :func:`flows.kinds.swiss.ratings.letter_line`);
  after the last round, their final place, points, tie-breaks and prize
  (``player-<category>-<sno>-round-NN``, ``player-<category>-<sno>-final``);
* every state association with an email: its players' results and next pairings (one table
  per category), its fee and boarding account and its rejected entries, the bulletin attached
  (``association-<state>-round-NN``, ``association-<state>-final``);
* every ``[publish] recipients`` entry with ``role = "office"``: the validation findings, the
  early-draw flags of the round, the players equal after every tie-break, the same-state
  rule's log and the pairing audit (``office-<address>-round-NN``).

Decision: only the current news. NN is the latest complete round (00 while only round 1 is
paired), so a run that finds several new rounds at once (the demo: all eleven) writes the
latest round's letters only, and the end-of-event letters once the last round is complete.
Nothing in a letter depends on the run date, so a rerun on unchanged inputs writes the same
letters and the delivery ledger sends nothing again.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

import polars as pl

from flows.kinds import norms as title_norms
from flows.kinds.swiss import ratings as swiss_ratings
from flows.kinds.swiss.common import (
    COLOUR,
    KIND_LABEL,
    boards_by_player,
    player_rel,
    tiebreak_name,
)
from flows.kinds.swiss.pages import round_items, round_rel
from flows.kinds.swiss.parts import SwissPart
from flows.mail.letters import Block, Letter, address_problem
from flows.site.names import file_part
from flows.site.pages import OFFICE, findings_frame
from flows.site.present import fmt
from flows.site.render import plural
from transforms.core.errors import Severity
from transforms.core.model import Kind, ResultCode
from transforms.core.money import amount_text
from transforms.swiss.config import SwissConfig


def round_key(r: int) -> str:
    """``round-05``; ``round-00`` before any round is complete."""
    return f"round-{r:02d}"


def swiss_letters(run, as_of: dt.date, parts: Sequence[SwissPart] = ()
                  ) -> tuple[list[Letter], list[tuple[str, str]]]:
    """Every personal letter of the run, with those of the event's rules parts (``parts``: e.g.
    to each association), and the recipients skipped (who, why: no or no valid email address).
    ``as_of`` is not written into any letter (see the module's Decision).

    Decision: a run whose standings are blocked (errors in results.csv) writes only the office
    letters, which say why; players and associations hear nothing until the results can be
    published."""
    del as_of  # the letters say nothing about the run date, so that reruns resend nothing
    letters: list[Letter] = []
    skipped: list[tuple[str, str]] = []
    views = [] if run.blocked else [CategoryView(run, c) for c in run.categories]
    for v in views:
        for sno in v.snos:
            p = v.info[sno]
            who = f"player {v.cid} {sno} ({p['name']})"
            problem = address_problem(p["email"])
            if problem:
                skipped.append((who, problem))
                continue
            letter = v.player_letter(sno)
            if letter is not None:
                letters.append(letter)
    if views:
        for part in parts:
            p_letters, p_skipped = part.letters(run, views)
            letters += p_letters
            skipped += p_skipped
    o_letters, o_skipped = office_letters(run, views, parts)
    return letters + o_letters, skipped + o_skipped


# --------------------------------------------------------------------------- players


def opponent_text(p: dict) -> str:
    """``CM Sharma, Karthik (1890, IND, TN)``: title, name, rating, federation, state."""
    facts = [fmt(p["rating"]) or "unrated", p["nationality"] or "", p["state"] or ""]
    title = f"{p['title']} " if p["title"] else ""
    return f"{title}{p['name']} ({', '.join(f for f in facts if f)})"


def points_text(points: float) -> str:
    return f"{fmt(points)} point" + ("" if points == 1 else "s")


OWN_WORDS = {"1": "you won", "½": "a draw", "0": "you lost", "+": "you won by forfeit",
             "−": "you lost by forfeit"}


def short_tiebreak_name(code: str) -> str:
    """``Buchholz without the lowest contribution (Cut 1)``: the name without its explanation
    or article."""
    return re.sub(r" \(C\.07 [^)]*\)$", "", tiebreak_name(code).partition(":")[0])


class CategoryView:
    """One category's latest round as its letters read it: each player's result in round
    ``r`` (the latest complete round), the standing after it, the next round's board and the
    requests on record."""

    def __init__(self, run, c) -> None:
        s = run.cfg.table(SwissConfig)
        self.run, self.c, self.cid, self.s = run, c, c.cat.id, s
        self.r = c.done
        self.final = c.done == c.rounds
        self.cur = run.cfg.event.currency
        self.info = {p["sno"]: p for p in c.players.iter_rows(named=True)}
        self.snos = sorted(self.info)
        items = {r: rows for r, its in round_items(run).items() for (cc, rows, _new) in its if cc is c}
        self.this = self._by_sno(items.get(self.r))
        self.next_round = self.r + 1 if self.r + 1 in items and not self.final else None
        self.next = self._by_sno(items.get(self.next_round))
        self.absent_now = set(c.card.filter((pl.col("round") == self.r)
                                            & (pl.col("kind") == str(Kind.ABSENT)))["sno"].to_list())
        byes, wd = run.typed.get("bye_requests.csv"), run.typed.get("withdrawals.csv")
        self.setup_next = c.next_setup if self.next_round is not None else None
        self.standing = ({x["sno"]: x for x in c.rankings[self.r].iter_rows(named=True)}
                         if self.r else {})
        self.prize = ({x["sno"]: x for x in c.prizes.iter_rows(named=True) if x["amount"] > 0}
                      if c.prizes is not None else {})
        bad = {(f.file, f.line): f.reason for f in run.findings if f.severity is Severity.ERROR}
        ids = {p["player_id"]: p["sno"] for p in self.info.values()}
        self.requests: dict[int, list[str]] = {}
        shown_from = (self.next_round + 1) if self.next_round is not None else self.r + 1
        if byes is not None and "player_id" in byes.columns:
            for b in byes.iter_rows(named=True):
                sno = ids.get(b["player_id"])
                if sno is None or b["round"] is None or b["round"] < shown_from:
                    continue
                side = ResultCode(b["kind"]).white
                what = f"{KIND_LABEL[side.kind]} in round {b['round']}"
                why = bad.get(("bye_requests.csv", b["line"]))
                self.requests.setdefault(sno, []).append(
                    f"Your request for a {what}: not accepted — {why}." if why else
                    f"Your request for a {what} is on record: you will not be paired in that "
                    f"round and score {points_text(side.points)}.")
        if wd is not None and "player_id" in wd.columns:
            for w in wd.iter_rows(named=True):
                sno = ids.get(w["player_id"])
                if sno is None or w["from_round"] is None or w["from_round"] < shown_from:
                    continue
                why = bad.get(("withdrawals.csv", w["line"]))
                self.requests.setdefault(sno, []).append(
                    f"Your withdrawal from round {w['from_round']}: not accepted — {why}." if why else
                    f"Your withdrawal from round {w['from_round']} on is on record"
                    + (f" ({w['reason']})" if w.get("reason") else "")
                    + f": you will not be paired from round {w['from_round']} on.")
        wd_rows = ({ids[w["player_id"]]: w for w in wd.iter_rows(named=True) if w["player_id"] in ids}
                   if wd is not None and "player_id" in wd.columns else {})
        self.withdrawal = wd_rows
        self.names = {s: p["name"] for s, p in self.info.items()}

    def _by_sno(self, rows: pl.DataFrame | None) -> dict[int, dict]:
        if rows is None:
            return {}
        f = boards_by_player(rows.select("round", "board", "white_id", "black_id", "result"),
                             self.c.players, self.s.pab_points)
        return {x["sno"]: x for x in f.iter_rows(named=True)}

    # ---- one player's parts

    def result_line(self, sno: int) -> str:
        """The player's round ``r`` in words."""
        b = self.this.get(sno)
        if b is None:
            return ("You were not paired in this round (withdrawn or absent)."
                    if sno in self.absent_now else "You were not paired in this round.")
        if b["opponent"] is None:
            side = ResultCode(b["result"]).white
            pts = self.s.pab_points if side.kind is Kind.PAB else side.points
            return f"No game: {KIND_LABEL[side.kind]}, {points_text(pts)}."
        words = OWN_WORDS.get(b["own"], b["own"])
        return (f"Board {b['board']}, {COLOUR[b['colour']]}, against "
                f"{opponent_text(self.info[b['opponent']])}: {words} ({b['own']}).")

    def result_cell(self, sno: int) -> str:
        """The player's round ``r`` as a short table cell."""
        b = self.this.get(sno)
        if b is None:
            return "not paired"
        if b["opponent"] is None:
            return b["own"]
        return f"{b['own']} v {self.info[b['opponent']]['name']} ({COLOUR[b['colour']][0]})"

    def next_line(self, sno: int) -> str:
        """The player's board in the next round in words ("" when it is not paired)."""
        if self.next_round is None:
            return ""
        b = self.next.get(sno)
        if b is None:
            assert self.setup_next is not None
            if sno in self.setup_next.absent:
                w = self.withdrawal.get(sno)
                return ("You are not paired: you withdrew"
                        + (f" from round {w['from_round']}" if w else "") + ".")
            return "You are not paired."
        if b["opponent"] is None:
            side = ResultCode(b["result"]).white
            pts = self.s.pab_points if side.kind is Kind.PAB else side.points
            how = ("allocated by the pairing" if side.kind is Kind.PAB
                   else "as you requested: confirmed")
            return f"No game: {KIND_LABEL[side.kind]} ({points_text(pts)}), {how}."
        return (f"Board {b['board']}, {COLOUR[b['colour']]}, against "
                f"{opponent_text(self.info[b['opponent']])}.")

    def next_cell(self, sno: int) -> str:
        b = self.next.get(sno)
        if b is None:
            return "not paired"
        if b["opponent"] is None:
            return KIND_LABEL[ResultCode(b["result"]).white.kind]
        o = self.info[b["opponent"]]
        return (f"Bd {b['board']} {COLOUR[b['colour']]} v {o['name']} "
                f"({', '.join(x for x in (fmt(o['rating']) or 'unrated', o['state'] or '') if x)})")

    def links(self, sno: int) -> tuple[tuple[str, str], ...]:
        out = [("Your page", player_rel(self.cid, sno))]
        if self.next_round is not None:
            out.append((f"Pairings of round {self.next_round}",
                        f"{round_rel('pairings', self.next_round)}#{self.cid}"))
        if self.r:
            out.append((f"Standings after round {self.r}", f"{round_rel('standings', self.r)}#{self.cid}"))
        if self.final and self.c.prizes is not None:
            out.append(("Prize list", f"prizes.html#{self.cid}"))
        return tuple(out)

    def tied_line(self, sno: int) -> str:
        st = self.standing.get(sno)
        if st is None or not st["tied_after_all"]:
            return ""
        others = [f"{x['name']} ({x['sno']})" for x in self.standing.values()
                  if x["rank"] == st["rank"] and x["sno"] != sno]
        return (f"You are equal after every tie-break with {', '.join(others)}: the chief arbiter "
                "decides your order.")

    def player_letter(self, sno: int) -> Letter | None:
        p, c, name = self.info[sno], self.c, self.c.cat.name
        st = self.standing.get(sno)
        blocks: list[Block] = []
        if self.final:
            assert st is not None
            codes = list(self.s.tiebreaks)
            table = (("Tie-break", "Value", "What it counts"),
                     *((k, fmt(st[k]) or "—", short_tiebreak_name(k)) for k in codes))
            prize = self.prize.get(sno)
            if prize is not None:
                prize_line = (f"Prize: {amount_text(prize['amount'], self.cur)} for place {prize['place']}"
                              + (f" ({prize['flag']})" if prize["flag"] else "") + ".")
            elif c.cat.prizes:
                prize_line = f"No prize: the {len(c.cat.prizes)} prizes go to the first places."
            else:
                prize_line = ""
            blocks += [Block(f"Round {self.r}", (self.result_line(sno),)),
                       Block("Final standing", tuple(x for x in (
                           f"Place {st['rank_label']} of {len(self.standing)}, "
                           f"{points_text(st['points'])}.", prize_line, self.tied_line(sno),
                           swiss_ratings.letter_line(self.run, c, sno)) if x),
                             table)]
            norms = title_norms.letter_block(c.norms, sno, self.names)
            if norms is not None:
                blocks.append(norms)
            return Letter(key=f"player-{file_part(self.cid, lower=True)}-{sno}-final", to_name=p["name"], to_email=p["email"],
                          subject=f"{name} — your final result",
                          lead=(f"The {name} is over: you finished in place {st['rank_label']} with "
                                f"{points_text(st['points'])}."),
                          blocks=tuple(blocks), links=self.links(sno), kind="player-final",
                          meta={"category": self.cid, "sno": str(sno)})
        if self.r == 0 and self.next_round is None:
            return None
        if self.r:
            assert st is not None
            blocks += [Block(f"Round {self.r}", (self.result_line(sno),)),
                       Block(f"After round {self.r}", tuple(x for x in (
                           f"{points_text(st['points'])}, place {st['rank_label']} of {len(self.standing)}.",
                           self.tied_line(sno), swiss_ratings.letter_line(self.run, c, sno)) if x))]
            norms = title_norms.letter_block(c.norms, sno, self.names)
            if norms is not None:
                blocks.append(norms)
        if self.next_round is not None:
            blocks.append(Block(f"Round {self.next_round}", (self.next_line(sno),)))
        if self.requests.get(sno):
            blocks.append(Block("Your requests", tuple(self.requests[sno])))
        if self.r:
            lead = (f"Round {self.r} of the {name} is complete: you have {points_text(st['points'])} "
                    f"and are in place {st['rank_label']}.")
            subject = f"{name} — your round {self.r}"
        else:
            lead = f"Round 1 of the {name} is paired: here is your board (start number {sno})."
            subject = f"{name} — your round 1 pairing"
        return Letter(key=f"player-{file_part(self.cid, lower=True)}-{sno}-{round_key(self.r)}", to_name=p["name"],
                      to_email=p["email"], subject=subject, lead=lead, blocks=tuple(blocks),
                      links=self.links(sno), kind="player-round",
                      meta={"category": self.cid, "sno": str(sno)})


# --------------------------------------------------------------------------- associations


# --------------------------------------------------------------------------- office


def office_letters(run, views: list[CategoryView], parts: Sequence[SwissPart] = ()
                   ) -> tuple[list[Letter], list[tuple[str, str]]]:
    """The office's report to every ``[publish] recipients`` entry with ``role = "office"``:
    the validation, the arbiter's flags of the rules parts, the players equal after every
    tie-break, the parts' notes on their pairing rules and the pairing audit."""
    office = [x for x in run.cfg.publish.recipients if x.role == "office"]
    if not office:
        return [], []
    r = max((c.done for c in run.categories), default=0)
    frame = findings_frame(run.findings)
    errors = frame.filter(pl.col("severity") == str(Severity.ERROR))
    counts = (frame.group_by("file", maintain_order=True)
              .agg((pl.col("severity") == str(Severity.ERROR)).sum().alias("errors"),
                   (pl.col("severity") != str(Severity.ERROR)).sum().alias("warnings")).sort("file"))
    blocks = [Block("Validation", (
        f"{plural(errors.height, 'error')} and {plural(frame.height - errors.height, 'warning')} in the inputs; "
        f"the full report is {OFFICE}validation.html.",) + ((run.blocked,) if run.blocked else ()),
        (("File", "Errors", "Warnings"),
         *((x["file"], str(x["errors"]), str(x["warnings"])) for x in counts.iter_rows(named=True)))
        if counts.height else ())]
    if errors.height:
        blocks.append(Block("Errors", table=(("File", "Line", "Column", "Value", "Reason"),
                                             *((x["file"], fmt(x["line"]), x["column"], x["value"], x["reason"])
                                               for x in errors.iter_rows(named=True)))))
    for part in parts:
        blocks += part.arbiter_flags(run, views, r)
    if not run.blocked:
        tied = []
        for v in views:
            if not v.r:
                continue
            ranking = v.c.rankings[v.r].filter(pl.col("tied_after_all"))
            for g in ranking.partition_by("rank", maintain_order=True):
                tied.append(f"{v.c.cat.name}, after round {v.r}, place {g['rank_label'][0]} "
                            f"({points_text(g['points'][0])}): "
                            + ", ".join(f"{n} ({s})" for n, s in zip(g["name"], g["sno"], strict=True)))
        blocks.append(Block("Equal after every tie-break", tuple(tied) if tied else (
            "No players are equal after every tie-break.",)
            + (("The chief arbiter decides their order.",) if tied else ())))
        for part in parts:
            blocks += part.pairing_notes(run, views, r)
        audits = [f"{d['category']}, round {d['round']}: {d['difference']}" for c in run.categories
                  for d in c.audit]
        blocks.append(Block("Pairing audit", tuple(audits) if audits else (
            "Every recorded round is identical to the engine's pairing.",)))
    links = [("The event's pages", "index.html")]
    if r and not run.blocked:
        links.append((f"Standings after round {r}", round_rel("standings", r)))
    letters, skipped = [], []
    for x in office:
        problem = address_problem(x.email)
        if problem:
            skipped.append((f"office recipient {x.name}", problem))
            continue
        letters.append(Letter(
            key=f"office-{file_part(x.email, lower=True)}-{round_key(r)}", to_name=x.name, to_email=x.email,
            subject=f"{run.cfg.event.name} — office report after round {r}" if r
            else f"{run.cfg.event.name} — office report",
            lead=(f"What needs the office's eye after round {r}: {plural(errors.height, 'input error')}, "
                  "the arbiter's flags and the pairing checks." if r else
                  f"What needs the office's eye before round 1: {plural(errors.height, 'input error')} and "
                  "the pairing checks."),
            blocks=tuple(blocks), links=tuple(links), kind="office"))
    return letters, skipped



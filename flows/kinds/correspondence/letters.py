"""The Golden Knights personal letters (rule 10: "late reports, assignments, forfeits, and other
important information will be announced by email whenever possible"): one letter per member,
per entry and per subject, and the Correspondence Chess Director's review letter.

| letter (kind) | key | when | rule |
|---|---|---|---|
| ``member-assignment`` | ``member-<m>-<e>-<stage>-assignment`` | the entry's section is published and in play | 2 |
| ``member-forfeit`` | ``member-<m>-<e>-<stage>-forfeit-<opponent>`` | a game of the entry decided by forfeit | 10, 11 |
| ``member-rule-11`` | ``member-<m>-<e>-<stage>-rule-11`` | the entry forfeited to two opponents in its section | 11 |
| ``member-overstep`` | ``member-<m>-<e>-<stage>-overstep-<offender>-<opponent>-<reported>`` | a rule 12 ruling on a game of the entry (both players) | 12 |
| ``member-qualification`` | ``member-<m>-<e>-<stage>-qualification`` | the section is complete and rule 3 has decided | 3 |
| ``member-membership`` | ``member-<m>-membership-<expiry date>`` | rule 1's flag: lapsed or lapses soon | 1 |
| ``member-award`` | ``member-<m>-<e>-award`` | rule 4's awards of the entry (rule 5's title) | 4, 5 |
| ``member-prize`` | ``member-<m>-<e>-prize`` | the entry's prize, how a shared prize was split | 5, 6 |
| ``member-carried-forward`` | ``member-<m>-<e>-carried-forward`` | the entry moved to next year's event | 9 |
| ``member-entry-rejected`` | ``member-<m>-<e>-entry-rejected`` | the entry is not accepted (the reason names its rule) | 1, 7, 8, 9 |
| ``director-review`` | ``director-<address>-review`` | rule 11 and rule 12 cases, to every office recipient | 7, 11, 12 |

Decision (only the current news): an entry's letters are about its CURRENT stage — the latest
stage it has been placed in: its assignment while that section is in play, the forfeits and
rulings of that stage, and its qualification once rule 3 has decided it; letters of earlier
stages are not written again (a run that finds several stages at once, e.g. the demo, writes
only the latest). The entry's outcome letters (award, prize, carried forward) and the
membership letter are written whenever they apply.
Decision: a 4-pointer who may still fill the last section (rule 3, qualified not yet decided)
gets no qualification letter until the director's filling decides it.
Decision: the assignment letter holds what the section is (opponents, colours, addresses),
never the results, so it is not resent as games finish.
Decision: no letter contains the run date; the membership letter gives the expiry date and
not the days left (a rerun on a later day sends nothing new until the membership lapses).
Decision: the director's letter lists the rule 11 cases and the rule 12 rulings
(``director_review`` rows of rules 11 and 12); none is written while the list is empty.
Decision: a member whose entry is rejected is told, with the reason and its rule (members
enter themselves); an entry whose member is not in members.csv has nobody to write to (the
office's validation report lists it), nor has an entry_id entered twice (an input error the
office corrects, listed in its validation report).
Decision: a recipient without a valid address (:func:`address_problem`) gets no letter and is
returned once with the reason.

Presentation only: every number comes from ``GKResult`` (and the event's rules for the words
of the regulations).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from decimal import Decimal
from typing import Any

import polars as pl

from flows.kinds.correspondence.awards import PrizeSplit, ordinal, prize_split
from flows.kinds.correspondence.links import (
    AWARD_NAMES,
    AWARDS,
    PRIZES,
    QUALIFIERS,
    RULINGS,
    People,
    certificate_file,
    member_page,
    section_page,
    stage_name,
)
from flows.kinds.correspondence.members import half, outcome
from flows.kinds.correspondence.sections import RESULT_TEXT, ruling_text
from flows.mail.letters import Block, Letter, address_problem
from flows.site.names import file_part
from flows.site.pages import OFFICE
from flows.site.render import plural
from transforms.core.config import EventConfig
from transforms.core.model import Kind
from transforms.core.money import amount_text
from transforms.golden_knights.event import GKResult
from transforms.golden_knights.rules import GKRules, Stage

REVIEW_PAGE = f"{OFFICE}review.html"
COLOUR = {"w": "White", "b": "Black"}


def day_text(d: dt.date) -> str:
    """A date in a letter: 9 January 2020."""
    return f"{d.day} {d:%B %Y}"


def _entry_key(member_id: str, entry_id: str, *rest: str) -> str:
    return "-".join(["member", file_part(member_id, lower=True), file_part(entry_id, lower=True), *rest])


def _entry_link(member_id: str, entry_id: str) -> tuple[str, str]:
    return ("Your member page", f"{member_page(member_id)}#{file_part(entry_id)}")


class _Writer:
    """The frames of one run cut the way the letters read them."""

    def __init__(self, cfg: EventConfig, res: GKResult, members: pl.DataFrame) -> None:
        assert cfg.table(GKRules) is not None
        self.cfg = cfg
        self.rules: GKRules = cfg.table(GKRules)
        self.res = res
        self.cur = cfg.event.currency
        self.event = cfg.event.name
        self.people = People.build(res.entries, members, res.standings)
        self.info = {r["member_id"]: r for r in members.iter_rows(named=True)} if members.height else {}
        self.ps: PrizeSplit = prize_split(res, self.people, self.cur)
        ct = res.crosstables
        self.complete = {(r["stage"], r["section"]): bool(r["section_complete"])
                         for r in ct.select("stage", "section", "section_complete").unique().iter_rows(named=True)}
        order = {s.value: i for i, s in enumerate(Stage)}
        self.current: dict[str, tuple[str, str]] = {}
        for r in ct.select("stage", "section", "entry_id").iter_rows(named=True):
            have = self.current.get(r["entry_id"])
            if have is None or order[r["stage"]] > order[have[0]]:
                self.current[r["entry_id"]] = (r["stage"], r["section"])
        self._cuts: dict[str, dict[tuple[Any, ...], pl.DataFrame]] = {}

    def rows(self, frame: str, by: tuple[str, ...], *key: Any) -> pl.DataFrame:
        """The rows of the run's ``frame`` (a GKResult field) whose columns ``by`` hold ``key``,
        in the frame's order: the frame cut once by those columns, not filtered again for
        every entry (1,800 entries × five frames took seconds)."""
        whole: pl.DataFrame = getattr(self.res, frame)
        name = f"{frame}:{','.join(by)}"
        cut = self._cuts.get(name)
        if cut is None:
            cut = {} if whole.is_empty() else {
                tuple(k): g for k, g in whole.partition_by(list(by), as_dict=True, maintain_order=True).items()}
            self._cuts[name] = cut
        return cut.get(tuple(key), whole.clear())

    def email(self, member_id: str) -> str:
        return (self.info.get(member_id, {}).get("email") or "").strip()

    def name(self, member_id: str) -> str:
        return self.people.name(member_id)

    # --- rule 2: the section assignment ---
    def assignment(self, m: str, e: str, stage: str, section: str) -> Letter:
        r = self.rules
        sched = self.res.schedule.filter((pl.col("status") == "published") & (pl.col("stage") == stage)
                                         & (pl.col("section") == section)
                                         & ((pl.col("white") == e) | (pl.col("black") == e)))
        # no rating here: members.csv's ratings change during play, the section does not
        rows = [("Your colour", "Opponent", "Member", "Email")]
        games = []
        for g in sched.iter_rows(named=True):
            colour, opp = ("White", g["black"]) if g["white"] == e else ("Black", g["white"])
            om = self.people.member_of.get(opp, "")
            games.append((0 if colour == "White" else 1, self.people.entry_name(opp), opp,
                          (colour, self.people.entry_name(opp), om,
                           self.email(om) or "none on file: ask the director")))
        rows += [g[3] for g in sorted(games)]
        whites = sum(1 for g in games if g[0] == 0)
        name = stage_name(stage)
        return Letter(
            key=_entry_key(m, e, file_part(stage, lower=True), "assignment"),
            to_name=self.name(m), to_email=self.email(m),
            subject=f"{name}: your section {section} (entry {e})",
            lead=f"Your entry {e} is placed in {name.lower()} section {section} of {r.section_size} players: "
                 f"{len(games)} games, {whites} with White and {len(games) - whites} with Black (rule 2).",
            blocks=(Block("Your opponents and colours", lines=(
                "The director publishes these addresses for correspondence play, to the members of this "
                "section only: please do not pass them on.",), table=tuple(rows)),),
            links=(("The section's page", section_page(stage, section)), _entry_link(m, e)),
            kind="member-assignment", meta={"entry_id": e, "stage": stage, "section": section})

    # --- rules 10, 11: forfeits ---
    def forfeits(self, m: str, e: str, stage: str, section: str) -> list[Letter]:
        card = self.rows("scorecard", ("entry_id", "stage"), e, stage)
        out = []
        for g in card.filter(pl.col("kind").is_in([Kind.FORFEIT_WIN.value, Kind.FORFEIT_LOSS.value])) \
                .sort("opponent").iter_rows(named=True):
            opp = self.people.entry_name(g["opponent"])
            what = outcome(g["points"], g["kind"])
            ended = f" ({day_text(g['ended'])})" if g["ended"] is not None else ""
            out.append(Letter(
                key=_entry_key(m, e, file_part(stage, lower=True), "forfeit", file_part(g["opponent"], lower=True)),
                to_name=self.name(m), to_email=self.email(m),
                subject=f"{stage_name(stage)} section {section}: your game against {opp} (entry {e})",
                lead=f"Your game against {opp} in {stage_name(stage).lower()} section {section} was decided by "
                     f"forfeit: you {what}{ended}.",
                blocks=(Block(table=(("Opponent", "Your colour", "Result", "For you"),
                                     (opp, COLOUR.get(g["colour"], ""),
                                      RESULT_TEXT.get(g["result"], g["result"] or ""), what))),),
                links=(("The section's page", section_page(stage, section)), _entry_link(m, e)),
                kind="member-forfeit", meta={"entry_id": e, "stage": stage, "opponent": g["opponent"]}))
        rv = self.rows("director_review", ("rule", "stage", "entry_id"), "11", stage, e)
        if rv.height:
            lost = card.filter(pl.col("kind") == Kind.FORFEIT_LOSS.value).sort("opponent")
            table = (("Opponent", "Your colour", "Result"),) + tuple(
                (self.people.entry_name(g["opponent"]), COLOUR.get(g["colour"], ""),
                 RESULT_TEXT.get(g["result"], g["result"] or "")) for g in lost.iter_rows(named=True))
            out.append(Letter(
                key=_entry_key(m, e, file_part(stage, lower=True), "rule-11"),
                to_name=self.name(m), to_email=self.email(m),
                subject=f"{stage_name(stage)} section {section}: forfeits to two opponents (entry {e})",
                lead=f"Your entry {e} lost by forfeit to {len(table) - 1} opponents in {stage_name(stage).lower()} "
                     f"section {section}.",
                blocks=(Block(lines=(
                    "Rule 11: a forfeiture by one player to two opponents in one section may lead to further "
                    "forfeits by that player. The Correspondence Chess Director decides (rule 7) and will "
                    "write to you.",), table=table),),
                links=(("The section's page", section_page(stage, section)), _entry_link(m, e)),
                kind="member-rule-11", meta={"entry_id": e, "stage": stage}))
        return out

    # --- rule 12: time oversteps ---
    def oversteps(self, m: str, e: str, stage: str, section: str) -> list[Letter]:
        rul = self.res.rulings.filter((pl.col("stage") == stage)
                                      & ((pl.col("entry_id") == e) | (pl.col("opponent") == e)))
        out = []
        for r in rul.sort("reported", "entry_id", "opponent").iter_rows(named=True):
            mine = r["entry_id"] == e
            other = self.people.entry_name(r["opponent"] if mine else r["entry_id"])
            rule = "rule 12.2" if stage == Stage.FINAL.value else "rule 12.1"
            ruling = ruling_text(self.rules, r["ruling"], r["offense"])
            if mine:
                lead = (f"You overstepped the time limit in your game against {other} (reported "
                        f"{day_text(r['reported'])}): {ruling} ({rule}).")
            else:
                lead = (f"{other} overstepped the time limit in the game against you (reported "
                        f"{day_text(r['reported'])}): {ruling} for {other} ({rule}).")
            lines = []
            if r["ruling"] == "loss_of_game":
                you = "a loss for you" if mine else "a win for you"
                lines.append(f"The game is scored as {you}: {RESULT_TEXT.get(r['result_after'], r['result_after'])} "
                             "(White's result first).")
            else:
                lines.append("The result of the game is not changed by this ruling.")
            if stage != Stage.FINAL.value:
                lines.append(f"In the preliminaries and semifinals the first overstep costs a "
                             f"{self.rules.reflection_penalty_days}-day reflection-time penalty and any later "
                             "one the game (rule 12.1).")
            else:
                lines.append("In the final an overstep loses the game (rule 12.2).")
            rid = "-".join(["overstep", file_part(r["entry_id"], lower=True), file_part(r["opponent"], lower=True),
                            f"{r['reported']:%Y%m%d}"])
            out.append(Letter(
                key=_entry_key(m, e, file_part(stage, lower=True), rid),
                to_name=self.name(m), to_email=self.email(m),
                subject=f"{stage_name(stage)} section {section}: time-overstep ruling (entry {e})",
                lead=lead, blocks=(Block(lines=tuple(lines)),),
                links=(("Time-overstep rulings", RULINGS), _entry_link(m, e)),
                kind="member-overstep", meta={"entry_id": e, "stage": stage, "ruling": rid}))
        return out

    # --- rule 3: qualification ---
    def qualification(self, m: str, e: str, stage: str, section: str) -> Letter | None:
        if stage == Stage.FINAL.value:
            return None
        q = self.rows("qualifiers", ("stage", "entry_id"), stage, e)
        if q.is_empty() or q["qualified"][0] is None:
            return None
        q0 = q.row(0, named=True)
        nxt = stage_name(Stage(stage).next.value).lower()
        card = self.rows("scorecard", ("entry_id", "stage"), e, stage)
        games = (("Opponent", "Your colour", "Result", "For you"),) + tuple(
            (self.people.entry_name(g["opponent"]), COLOUR.get(g["colour"], ""),
             RESULT_TEXT.get(g["result"], g["result"] or ""), outcome(g["points"], g["kind"]))
            for g in card.sort(pl.col("colour") == "b", "opponent").iter_rows(named=True))
        if q0["qualified"]:
            subject = f"{stage_name(stage)}: you qualified for the {nxt} (entry {e})"
            verdict = f"qualifies for the {nxt}"
            after = f"Your {nxt} section will be announced by email when the director publishes it."
        else:
            subject = f"{stage_name(stage)}: your result in section {section} (entry {e})"
            verdict = f"does not qualify for the {nxt}"
            after = "Thank you for playing; any award for this entry comes in a separate letter (rule 4)."
        return Letter(
            key=_entry_key(m, e, file_part(stage, lower=True), "qualification"),
            to_name=self.name(m), to_email=self.email(m), subject=subject,
            lead=f"Your entry {e} scored {half(q0['score'])} in {stage_name(stage).lower()} section {section} "
                 f"and {verdict} (rule 3).",
            blocks=(Block("Why", lines=(f"Basis: {q0['basis']}.",
                                        "Game points count for advancing, not weighted points (rule 3).",
                                        after)),
                    Block("Your games", table=games)),
            links=(("Qualifiers", QUALIFIERS), ("The section's page", section_page(stage, section)),
                   _entry_link(m, e)),
            kind="member-qualification", meta={"entry_id": e, "stage": stage})

    # --- rules 4, 5: awards ---
    def award(self, m: str, e: str) -> Letter | None:
        aw = self.rows("awards", ("entry_id",), e)
        if aw.is_empty():
            return None
        lines, attach = [], []
        for a in aw.iter_rows(named=True):
            label = AWARD_NAMES.get(a["award"], a["award"])
            if a["award"] == "gift_certificate":
                lines.append(f"{label} of {amount_text(Decimal(a['value']), self.cur)}: for players who do "
                             "not qualify for the semifinals (rule 4).")
            elif a["award"] == "framing_certificate":
                lines.append(f"{label}: for semifinalists who do not qualify for the final (rule 4). It is "
                             "attached, ready to print.")
                attach.append(certificate_file(e))
            elif a["award"] == "golden_knights_pin":
                lines.append(f"{label}: for completing all three stages with no forfeit losses (rule 4).")
            else:
                lines.append(f"{label}: first place (rule 5).")
        names = ", ".join(AWARD_NAMES.get(a, a).lower() for a in aw["award"])
        return Letter(
            key=_entry_key(m, e, "award"), to_name=self.name(m), to_email=self.email(m),
            subject=f"Your award (entry {e})",
            lead=f"Your entry {e} in the {self.event} receives: {names}.",
            blocks=(Block(lines=tuple(f"• {x}" for x in lines)),),
            links=(("Awards", AWARDS), _entry_link(m, e)), attachments=tuple(attach),
            kind="member-award", meta={"entry_id": e})

    # --- rules 5, 6: prizes ---
    def prize(self, m: str, e: str) -> Letter | None:
        p = self.rows("prizes", ("entry_id",), e)
        if p.is_empty():
            return None
        p0 = p.row(0, named=True)
        place = f"{ordinal(p0['place'])} place" if p0["place"] is not None else "a prize"
        how = self.ps.overridden.get(e) or self.ps.by_entry.get(e, "")
        lines = [f"Weighted points (rule 6): {p0['weighted_points']:.2f}."]
        if how:
            lines.append(f"How the prize was made: {how}.")
        lines.append(f"The prize fund is based on {self.rules.prize_base_entries} entries and scaled to the "
                     f"{self.res.entries_assigned} entries assigned (rule 5).")
        return Letter(
            key=_entry_key(m, e, "prize"), to_name=self.name(m), to_email=self.email(m),
            subject=f"Your prize: {place} (entry {e})",
            lead=f"Your entry {e} wins {place} in the {self.event}: {amount_text(p0['amount'], self.cur)} "
                 "(rules 5, 6).",
            blocks=(Block(lines=tuple(lines)),),
            links=(("Prizes", PRIZES), _entry_link(m, e)),
            kind="member-prize", meta={"entry_id": e, "amount": str(p0["amount"])})

    # --- rule 9: carried forward ---
    def carried(self, m: str, e: str, reason: str | None) -> Letter:
        lines = [f"Why: {reason}."] if reason else []
        lines.append("Rule 9: entries postmarked after their deadline are moved forward to next year's event "
                     "at no additional cost, should the entry fee for next year be increased.")
        return Letter(
            key=_entry_key(m, e, "carried-forward"), to_name=self.name(m), to_email=self.email(m),
            subject=f"Your entry {e} moves to next year's event",
            lead=f"Your entry {e} is not paired in the {self.event}: it is carried forward to next year's "
                 "event (rule 9).",
            blocks=(Block(lines=tuple(lines)),), links=(_entry_link(m, e),),
            kind="member-carried-forward", meta={"entry_id": e})

    # --- rules 1, 7, 8, 9: an entry not accepted ---
    def rejected(self, m: str, e: str, r: dict) -> Letter:
        received = f", received {day_text(r['received'])}" if r.get("received") else ""
        reason = (r.get("reason") or "it does not meet the entry rules").rstrip(".")
        return Letter(
            key=_entry_key(m, e, "entry-rejected"), to_name=self.name(m), to_email=self.email(m),
            subject=f"Your entry {e} is not accepted",
            lead=f"Your entry {e} in the {self.event}{received} is not accepted: {reason}.",
            blocks=(Block(lines=(
                "The Correspondence Chess Director decides on the acceptance of entries (rule 7): "
                "if you think this is a mistake, or can correct it (a membership renewed, the fee "
                "paid in full), please write to the director.",)),),
            links=(("Your member page", member_page(m)),),
            kind="member-entry-rejected", meta={"entry_id": e})

    # --- rule 1: membership ---
    def membership(self, m: str, rows: list[dict]) -> Letter:
        expires: dt.date | None = rows[0]["membership_expires"]
        lapsed = any(r["flag"] == "lapsed" for r in rows)
        if expires is None:
            lead = "We have no US Chess membership expiry date on record for you."
            when = "none"
        elif lapsed:
            lead = f"Your US Chess membership expired on {day_text(expires)}."
            when = f"{expires:%Y-%m-%d}"
        else:
            lead = f"Your US Chess membership expires on {day_text(expires)}."
            when = f"{expires:%Y-%m-%d}"
        return Letter(
            key=f"member-{file_part(m, lower=True)}-membership-{when}", to_name=self.name(m), to_email=self.email(m),
            subject="Your US Chess membership" + (" has lapsed" if lapsed else " needs renewing"),
            lead=lead,
            blocks=(Block(lines=(
                "Rule 1: US Chess membership must remain current throughout your participation in the "
                "tournament. Please renew it so it covers all your games.",
                "This letter is for you only: membership dates are not on the event's public pages.")),),
            links=(("Your member page", member_page(m)),),
            kind="member-membership", meta={"member_id": m})

    # --- the director ---
    def director(self, name: str, email: str) -> Letter | None:
        rv = self.res.director_review.filter(pl.col("rule").is_in(["11", "12"]))
        if rv.is_empty():
            return None
        order = {s.value: i for i, s in enumerate(Stage)}
        rv = rv.with_columns(_o=pl.col("stage").replace_strict(order, default=9)).sort(
            "rule", "_o", "section", "entry_id", "detail")
        table = (("Rule", "Stage", "Section", "Entry", "Name", "Detail"),) + tuple(
            (r["rule"], stage_name(r["stage"]), r["section"] or "", r["entry_id"] or "",
             self.people.entry_name(r["entry_id"]), r["detail"]) for r in rv.iter_rows(named=True))
        n11 = rv.filter(pl.col("rule") == "11").height
        n12 = rv.height - n11
        return Letter(
            key=f"director-{file_part(email, lower=True)}-review", to_name=name, to_email=email,
            subject="For your decision: forfeits (rule 11) and time-overstep rulings (rule 12)",
            lead=f"{plural(n11, 'forfeit case')} under rule 11 and {plural(n12, 'time-overstep ruling')} under rule 12 are "
                 "listed for your decision (rule 7).",
            blocks=(Block(lines=(
                "Rule 11: a player who forfeited to two opponents in one section may be forfeited further. "
                "Rule 12: the rulings as the rulebook made them, to confirm.",), table=table),),
            links=(("For the director's decision", REVIEW_PAGE),),
            kind="director-review", meta={"cases": str(rv.height)})


def gk_letters(cfg: EventConfig, res: GKResult, members: pl.DataFrame,
               as_of: dt.date) -> tuple[list[Letter], list[tuple[str, str]]]:
    """Every personal letter of one Golden Knights run (see the module docstring), and the
    recipients left out for want of a valid address: (who, reason), one row per recipient.

    ``members``: members.csv (names, emails). ``as_of`` is the run date: no letter contains it
    (a rerun on a later day with the same results writes the same letters)."""
    del as_of  # Decision: no run date in any letter (see the module docstring)
    w = _Writer(cfg, res, members)
    by_member: dict[str, list[Letter]] = {}

    def add(m: str, letter: Letter | None) -> None:
        if letter is not None:
            letter.meta.setdefault("member_id", m)
            by_member.setdefault(m, []).append(letter)

    entries = res.entries.sort("member_id", "entry_id")
    twice = Counter(entries["entry_id"].to_list())
    for r in entries.iter_rows(named=True):
        m, e = r["member_id"], r["entry_id"]
        cur = w.current.get(e)
        if cur is not None:
            stage, section = cur
            if not w.complete.get(cur, False):
                add(m, w.assignment(m, e, stage, section))
            for letter in w.forfeits(m, e, stage, section) + w.oversteps(m, e, stage, section):
                add(m, letter)
            add(m, w.qualification(m, e, stage, section))
        add(m, w.award(m, e))
        add(m, w.prize(m, e))
        if r["status"] == "carried_forward":
            add(m, w.carried(m, e, r["reason"]))
        elif r["status"] == "rejected" and m in w.info and twice[e] == 1:
            add(m, w.rejected(m, e, r))
    flags: dict[str, list[dict]] = {}
    for r in res.membership_flags.iter_rows(named=True):
        flags.setdefault(r["member_id"], []).append(r)
    for m, rows in flags.items():
        add(m, w.membership(m, rows))

    letters: list[Letter] = []
    skipped: list[tuple[str, str]] = []
    for m in sorted(by_member):
        problem = address_problem(w.email(m))
        if problem:
            skipped.append((f"{w.name(m)} (member {m})",
                            f"{problem}: {plural(len(by_member[m]), 'letter')} not written"))
            continue
        letters += by_member[m]
    for rcp in cfg.publish.recipients:
        if rcp.role != "office":
            continue
        problem = address_problem(rcp.email)
        if problem:
            skipped.append((rcp.name, f"{problem}: the director's review letter not written"))
            continue
        d = w.director(rcp.name, rcp.email)
        if d is not None and d.key not in {x.key for x in letters}:  # an address listed twice: one letter
            letters.append(d)
    seen = Counter(x.key for x in letters)
    dup = sorted(k for k, n in seen.items() if n > 1)
    if dup:
        raise ValueError(f"two Golden Knights letters share a key: {', '.join(dup[:5])}")
    return letters, skipped

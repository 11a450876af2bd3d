"""The National Junior's letters in a Swiss event: one to every state association with an email
(its players' results and next pairings, its fees and boarding account, its rejected entries,
the bulletin attached: ``association-<state>-round-NN``, ``association-<state>-final``), and
the office report's blocks of its rules (the draws agreed too early, NJ 2024 Important Rules;
the last round's same-state rule, System of Play)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import polars as pl

from flows.kinds.swiss.letters import CategoryView, round_key
from flows.kinds.swiss.pages import round_rel
from flows.mail.letters import Block, Letter, address_problem
from flows.parts.national_junior.pages import decision
from flows.site.names import file_part
from flows.site.present import fmt
from flows.site.render import plural
from transforms.core.errors import Severity
from transforms.core.money import amount_text
from transforms.national_junior.entries import JuniorEntryRules
from transforms.swiss.config import SwissConfig
from transforms.swiss.event import SwissRun


def latest(views: Iterable[CategoryView]) -> tuple[int, bool]:
    """The latest complete round over the categories, and whether every category is over."""
    views = list(views)
    return max((v.r for v in views), default=0), bool(views) and all(v.final for v in views)


def association_letters(run: SwissRun, views: Sequence[CategoryView]
                        ) -> tuple[list[Letter], list[tuple[str, str]]]:
    """One letter to every association of associations.csv with an email."""
    assoc = run.typed.get("associations.csv")
    if assoc is None or not {"state", "name", "email"} <= set(assoc.columns):
        return [], []
    r, final = latest(views)
    letters, skipped = [], []
    cur = run.cfg.event.currency
    for a in assoc.iter_rows(named=True):
        st = a["state"]
        problem = address_problem(a["email"])
        if problem:
            skipped.append((f"association {st} ({a['name']})", problem))
            continue
        blocks = []
        n_players = 0
        for v in views:
            mine = [sno for sno in v.snos if v.info[sno]["state"] == st]
            n_players += len(mine)
            if not mine:
                continue
            if v.final:
                head = ("Player", "SNo", "Pts", "Place", "Prize")
                rows = [(v.info[s]["name"], str(s), fmt(v.standing[s]["points"]),
                         v.standing[s]["rank_label"],
                         amount_text(v.prize[s]["amount"], cur) if s in v.prize else "")
                        for s in sorted(mine, key=lambda s: v.standing[s]["rank"])]
                heading = f"{v.c.cat.name} — final standing"
            else:
                head = (("Player", "SNo")
                        + ((f"Round {v.r}", "Pts", "Place") if v.r else ())
                        + ((f"Round {v.next_round}",) if v.next_round is not None else ()))
                order = sorted(mine, key=lambda s: v.standing[s]["rank"]) if v.r else sorted(mine)
                rows = [((v.info[s]["name"], str(s))
                         + ((v.result_cell(s), fmt(v.standing[s]["points"]), v.standing[s]["rank_label"])
                            if v.r else ())
                         + ((v.next_cell(s),) if v.next_round is not None else ()))
                        for s in order]
                heading = (f"{v.c.cat.name} — after round {v.r}" if v.r
                           else f"{v.c.cat.name} — round 1 pairing")
            blocks.append(Block(heading, table=(head, *rows)))
        if run.entries is not None:
            blocks += entry_blocks(run, st)
        word = "final" if final else round_key(r)
        when = "The championship is over" if final else (f"Round {r} is complete" if r else "Round 1 is paired")
        news = "final places and prizes" if final else "results and pairings"
        whose = "1 player's" if n_players == 1 else f"{n_players} players'"
        lead = (f"{when}: here are your association's {whose} {news}, your fees and boarding "
                "account, and the bulletin (attached)." if n_players else
                f"{when}: here are your association's fees and boarding account (none of its "
                "entries plays), and the bulletin (attached).")
        links = [("The event's pages", "index.html")]
        if r:
            links.append((f"Standings after round {r}", round_rel("standings", r)))
        if not final and any(v.next_round is not None for v in views):
            links.append((f"Pairings of round {r + 1}", round_rel("pairings", r + 1)))
        letters.append(Letter(
            key=f"association-{file_part(st, lower=True)}-{word}", to_name=a["name"], to_email=a["email"],
            subject=(f"{run.cfg.event.name} — your players, final" if final
                     else f"{run.cfg.event.name} — your players after round {r}" if r
                     else f"{run.cfg.event.name} — your players' round 1 pairing"),
            lead=lead, blocks=tuple(blocks), links=tuple(links), attachments=("bulletin.pdf",),
            kind="association-final" if final else "association-round", meta={"state": st}))
    return letters, skipped


def entry_blocks(run, state: str) -> list[Block]:
    """The association's account (the entries' ledger row) and its rejected entries."""
    e, cur = decision(run), run.cfg.event.currency
    rows = e.ledger.filter(pl.col("state").fill_null("") == state)
    if not rows.height:
        return [Block("Fees and boarding", ("No entry came from your association.",))]
    x = rows.row(0, named=True)
    bal = x["balance"]
    owed = (f"{amount_text(bal, cur)} is owed back to your association." if bal > 0
            else f"{amount_text(-bal, cur)} is still to pay." if bal < 0
            else "nothing is owed either way.")
    table = (("", "Amount"),
             ("Entries received", str(x["entries"])), ("Entries accepted", str(x["accepted"])),
             ("Entry fees due", amount_text(x["fees_due"], cur)),
             ("Late fees", amount_text(x["late_fees"], cur)),
             ("Paid", amount_text(x["fees_paid"], cur)),
             ("Balance", amount_text(x["balance"], cur)),
             ("Boarding lump sums", amount_text(x["boarding_due"], cur)))
    lines = (f"Balance = paid − fees due − late fees: {owed}",
             f"Boarding: {amount_text(run.cfg.require(JuniorEntryRules).boarding_lump_sum, cur)} for each selected or "
             "seeded player who plays under the normal entry fee.")
    out = [Block("Fees and boarding", lines, table)]
    rej = e.decisions.filter((pl.col("state").fill_null("") == state) & (pl.col("status") == "rejected"))
    names = {c.id: c.name for c in run.cfg.require(SwissConfig).categories}
    if rej.height:
        out.append(Block("Entries not accepted", table=(
            ("Player", "Category", "Reason"),
            *((d["name"], names.get(d["section"], d["section"]), d["reasons"])
              for d in rej.iter_rows(named=True)))))
    return out


def early_draw_block(run: SwissRun, views: Sequence[CategoryView], r: int) -> list[Block]:
    """The early-draw flags (NJ 2024 Draw Agreement: results.csv warnings on ``moves``) of the
    latest round, and how many earlier rounds had."""
    flags = [f for f in run.findings if f.file == "results.csv" and f.column == "moves"
             and f.severity is Severity.WARNING]
    results = run.typed.get("results.csv")
    round_of = (dict(zip(results["line"].to_list(), results["round"].to_list(), strict=True))
                if results is not None and "round" in results.columns else {})
    now = [f for f in flags if round_of.get(f.line) == r]
    earlier = len(flags) - len(now)
    lines = ([f"results.csv line {f.line}: {f.reason}." for f in now]
             or [f"No draw before the move limit without the arbiter's consent in round {r}."])
    if earlier:
        lines.append(f"{plural(earlier, 'flag')} from other rounds: see the validation report.")
    return [Block("Early draws", tuple(lines))]


def same_state_block(run: SwissRun, views: Sequence[CategoryView], r: int) -> list[Block]:
    """NJ 2024 System of Play — what the last-round same-state rule changed in the latest
    round and the next (the pairing rules' log of each category), for the office."""
    logs = [f"{v.c.cat.name}, round {k}: {line}" for v in views
            for k in sorted(v.c.rule_logs) if k in (v.r, v.r + 1) for line in v.c.rule_logs[k]]
    return [Block("Same-state rule", tuple(logs))] if logs else []

"""GK rules 1, 8, 9 — who may enter, how many times, and by when."""

from __future__ import annotations

import datetime as dt

import polars as pl

from transforms.core.errors import Finding, Severity
from transforms.core.model import MONEY
from transforms.core.money import symbol
from transforms.golden_knights.rules import EntryStatus, GKRules

ENTRY_STATUS_SCHEMA = {
    "entry_id": pl.String(), "member_id": pl.String(), "status": pl.String(), "reason": pl.String(),
}
ACCEPTED, CARRIED, REJECTED = (s.value for s in EntryStatus)
CARRIED_IN_FILE = "carried_in.csv"
"""Where the previous year's carried_forward.csv is read from (the lead's flows decide the name)."""


def judge_entries(
    rules: GKRules, members: pl.DataFrame, entries: pl.DataFrame, *, event_year: int,
    carried_in: pl.DataFrame | None = None, currency: str = "USD",
) -> tuple[pl.DataFrame, list[Finding]]:
    """GK rules 1, 8, 9 — entry eligibility, fee, number of entries and deadlines.

    Returns the entries frame (carried_in rows first) with ``file`` (entries.csv or
    carried_in.csv, for findings), ``status`` (accepted | carried_forward | rejected),
    ``reason``, ``rank`` (the entry's number k among its member's entries) and ``deadline``.

    Decision: a member's entries are numbered k = 1, 2, … in order of ``received`` (then file
    line); entries rejected for another reason (unknown member, membership, residence, fee,
    duplicate id) are not numbered. The k-th entry must be received on or before the deadline
    for k entries (k=1: 31 Dec; k=2: 30 Sep; k=3-4: 31 Aug; k=5-7: 31 Jul; k=8-10: 30 Jun).
    Because deadlines never get later as k grows, once one entry is late every later one is too.
    Decision: a late entry is carried forward to next year's event (rule 9), never rejected.
    Decision: entries numbered beyond ``max_entries_per_member`` are rejected (rule 8), not
    carried forward.
    Decision: entries.csv rows received before the opening date (1 Dec of the previous year)
    are rejected ("will begin receiving entries after December 1"). Entries the previous
    year's run carried forward come in ``carried_in`` (last year's carried_forward.csv, same
    columns): they are judged as if received on the opening date (or later, when received
    later), are exempt from this year's fee ("at no additional cost should the entry fee …
    be increased") and are numbered with the member's other entries. An entries.csv row whose
    entry_id is also in ``carried_in`` is ignored with a warning.
    Decision: an entry received in December of the event year (when next year's event is
    already open) counts for this year's event if its deadline allows, else it is carried.
    Decision: membership must be current on the day the entry was received
    (``membership_expires >= received``); later lapses are flagged, not rejected (rule 1,
    :func:`membership_flags`).
    Decision: residence is the member's country in ``residence_countries`` (Hawaii is US) and
    not in ``excluded_regions``; an APO/FPO address is accepted wherever it is.
    Decision: ``fee_paid`` below the entry fee (or empty) rejects the entry; more is accepted.
    Decision: an entry whose member is not in members.csv is also an error finding (a
    reference across files that the office must correct); the other rejections are the rules'
    decisions, listed with their reasons in the entry decisions, not in the validation report.
    """
    findings: list[Finding] = []
    opening = rules.opening(event_year)
    countries = list(rules.residence_countries)
    excluded = list(rules.excluded_regions)

    df = entries.with_columns(pl.col("line").cast(pl.Int64), file=pl.lit("entries.csv"), _carried=pl.lit(False))
    if carried_in is not None and not carried_in.is_empty():
        cin = carried_in.with_columns(pl.col("line").cast(pl.Int64), file=pl.lit(CARRIED_IN_FILE),
                                      _carried=pl.lit(True)).select(df.columns).cast(df.schema)
        again = df.filter(pl.col("entry_id").is_in(cin["entry_id"].to_list()))
        for row in again.iter_rows(named=True):
            findings.append(Finding("entries.csv", row["line"], "entry_id", row["entry_id"], Severity.WARNING,
                                    f"entry already carried forward from last year ({CARRIED_IN_FILE}); this row is ignored"))
        df = pl.concat([cin.sort("line"), df.filter(~pl.col("entry_id").is_in(cin["entry_id"].to_list())).sort("line")])
    else:
        df = df.sort("line")
    df = df.with_columns(_ord=pl.int_range(pl.len()))
    dup = df.filter(pl.col("_ord") != pl.col("_ord").min().over("entry_id"))
    for row in dup.iter_rows(named=True):
        findings.append(Finding(row["file"], row["line"], "entry_id", row["entry_id"], Severity.ERROR,
                                "entry_id appears more than once; the later row is rejected"))
    m = members.select(
        "member_id", "membership_expires", "country", "region", "apo_fpo",
        pl.lit(True).alias("_known"),
    ).unique("member_id", keep="first")
    df = df.join(m, on="member_id", how="left")
    for row in df.filter(pl.col("_known").is_null() & (pl.col("_ord") == pl.col("_ord").min().over("entry_id"))
                         ).iter_rows(named=True):
        findings.append(Finding(row["file"], row["line"], "member_id", row["member_id"] or "", Severity.ERROR,
                                f"member {row['member_id']} is not in members.csv (or its row there was set "
                                "aside, see members.csv in this report): the entry is rejected (rule 1: "
                                "open to US Chess members)"))
    effective = pl.max_horizontal(pl.col("received"), pl.lit(opening))
    fee = pl.col("fee_paid").cast(MONEY)
    in_na = pl.col("country").str.to_uppercase().is_in(countries) & ~(
        pl.concat_str([pl.col("country").str.to_uppercase(), pl.lit("-"),
                       pl.col("region").fill_null("").str.to_uppercase()]).is_in(excluded)
    )
    resident = in_na | (pl.col("apo_fpo").fill_null(False) & pl.lit(rules.accept_apo_fpo))
    first_reason = (
        pl.when(pl.col("_ord") != pl.col("_ord").min().over("entry_id"))
        .then(pl.lit("duplicate entry_id"))
        .when(pl.col("_known").is_null())
        .then(pl.lit("member_id not in members.csv (rule 1: open to US Chess members)"))
        .when(pl.col("received").is_null())
        .then(pl.lit("no received date"))
        .when(~pl.col("_carried") & (pl.col("received") < pl.lit(opening)))
        .then(pl.lit(f"received before entries opened on {opening.isoformat()} (rule 9)"))
        .when(pl.col("membership_expires").is_null() | (pl.col("membership_expires") < pl.col("received")))
        .then(pl.lit("membership not current when the entry was received (rule 1)"))
        .when(~resident)
        .then(pl.lit("residence outside North America and its islands, Hawaii, or APO/FPO (rule 1)"))
        .when(~pl.col("_carried") & (fee.is_null() | (fee < pl.lit(rules.entry_fee))))
        .then(pl.lit(f"fee paid below the {symbol(currency)}{rules.entry_fee} entry fee (rule 8)"))
        .otherwise(None)
    )
    df = df.with_columns(_pre=first_reason, _eff=effective)
    ok = df.filter(pl.col("_pre").is_null()).sort("_eff", "_ord").with_columns(
        rank=pl.int_range(1, pl.len() + 1).over("member_id").cast(pl.Int64)
    )
    deadline_rows = [(k, rules.deadline(k, event_year)) for k in range(1, rules.max_entries_per_member + 1)]
    dl = pl.DataFrame({"rank": [k for k, _ in deadline_rows], "deadline": [d for _, d in deadline_rows]},
                      schema={"rank": pl.Int64, "deadline": pl.Date})
    ok = ok.join(dl, on="rank", how="left")
    ok = ok.with_columns(
        status=pl.when(pl.col("rank") > rules.max_entries_per_member).then(pl.lit(REJECTED))
        .when(pl.col("_eff") > pl.col("deadline")).then(pl.lit(CARRIED))
        .otherwise(pl.lit(ACCEPTED)),
        reason=pl.when(pl.col("rank") > rules.max_entries_per_member)
        .then(pl.format("entry {} of the member: more than {} entries (rule 8)", pl.col("rank"),
                        pl.lit(rules.max_entries_per_member)))
        .when(pl.col("_eff") > pl.col("deadline"))
        .then(pl.format("entry {} of the member received {} after its deadline {}; moved to next year's event (rule 9)",
                        pl.col("rank"), pl.col("received").dt.to_string("%Y-%m-%d"),
                        pl.col("deadline").dt.to_string("%Y-%m-%d")))
        .otherwise(pl.format("entry {} of the member received by its deadline {}", pl.col("rank"),
                             pl.col("deadline").dt.to_string("%Y-%m-%d"))),
    )
    bad = df.filter(pl.col("_pre").is_not_null()).with_columns(
        rank=pl.lit(None, pl.Int64), deadline=pl.lit(None, pl.Date),
        status=pl.lit(REJECTED), reason=pl.col("_pre"),
    )
    cols = [*entries.columns, "file", "rank", "deadline", "status", "reason", "_ord"]
    out = pl.concat([ok.select(cols), bad.select(cols)]).sort("_ord").drop("_ord")
    return out, findings


def carried_forward(judged: pl.DataFrame, entry_columns: list[str]) -> pl.DataFrame:
    """GK rule 9 — entries moved to next year's event, in the input schema of entries.csv.

    Decision: the received date is kept; next year's run reads these rows as ``carried_in``
    and judges them as received on its opening date (see :func:`judge_entries`).
    """
    cols = [c for c in entry_columns if c not in {"line", "file"}]
    return judged.filter(pl.col("status") == CARRIED).select(cols)


def membership_flags(
    rules: GKRules, members: pl.DataFrame, active: pl.DataFrame, *, as_of: dt.date
) -> pl.DataFrame:
    """GK rule 1 — "membership must remain current throughout your participation".

    ``active`` has ``entry_id``, ``member_id`` of entries still in play. Flags those whose
    membership has lapsed (expires before ``as_of``) or lapses within
    ``membership_warning_days`` of ``as_of`` (inclusive). Columns: entry_id, member_id, name,
    email, membership_expires, flag (lapsed | lapses_soon), days_left.
    Decision: only flagged, never removed; the director decides (rule 7).
    """
    horizon = as_of + dt.timedelta(days=rules.membership_warning_days)
    df = active.select("entry_id", "member_id").join(
        members.select("member_id", "name", "email", "membership_expires").unique("member_id", keep="first"),
        on="member_id", how="left",
    )
    return (
        df.filter(pl.col("membership_expires").is_null() | (pl.col("membership_expires") <= pl.lit(horizon)))
        .with_columns(
            flag=pl.when(pl.col("membership_expires").is_null() | (pl.col("membership_expires") < pl.lit(as_of)))
            .then(pl.lit("lapsed")).otherwise(pl.lit("lapses_soon")),
            days_left=(pl.col("membership_expires") - pl.lit(as_of)).dt.total_days(),
        )
        .sort("membership_expires", "entry_id", nulls_last=False)
    )

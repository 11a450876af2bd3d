"""A seeded Golden Knights event: demo members and entries, and the games of all three stages.

Deterministic for a seed (``random.Random(seed)``; no clock). The flows write the frames as
CSV (members.csv, entries.csv, sections.csv, games.csv, time_oversteps.csv).
"""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

import polars as pl

from transforms.golden_knights.entries import ACCEPTED, judge_entries
from transforms.golden_knights.rules import GKRules, Stage

FIRST = ["James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth",
         "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Carlos", "Karen",
         "Daniel", "Nancy", "Matthew", "Lisa", "Anthony", "Betty", "Mark", "Sandra", "Luis", "Ashley",
         "Steven", "Kimberly", "Paul", "Emily", "Andrew", "Donna", "Joshua", "Michelle", "Kenneth", "Carol",
         "Hiroshi", "Mei", "Pierre", "Amelie", "Raj", "Priya", "Kwame", "Ana", "Dmitri", "Olga"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
        "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
        "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
        "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores",
        "Tremblay", "Gagnon", "Kowalski", "Nakamura", "Okafor", "Petrov", "Schmidt", "Rossi", "Cohen", "Patel"]
US_STATES = ["CA", "TX", "NY", "FL", "IL", "PA", "OH", "MI", "GA", "NC", "WA", "AZ", "MA", "CO", "OR", "MN", "VA"]

MEMBERS_SCHEMA = {
    "member_id": pl.String(), "name": pl.String(), "email": pl.String(), "membership_expires": pl.Date(),
    "country": pl.String(), "region": pl.String(), "apo_fpo": pl.Boolean(), "rating": pl.Int64(),
}
ENTRIES_SCHEMA = {
    "entry_id": pl.String(), "member_id": pl.String(), "received": pl.Date(), "channel": pl.String(),
    "fee_paid": pl.Decimal(precision=10, scale=2),
}
SECTIONS_SCHEMA = {"stage": pl.String(), "section": pl.String(), "entry_id": pl.String()}
GAMES_SCHEMA = {"stage": pl.String(), "section": pl.String(), "white": pl.String(), "black": pl.String(),
                "result": pl.String(), "ended": pl.Date()}
OVERSTEPS_SCHEMA = {"stage": pl.String(), "section": pl.String(), "entry_id": pl.String(),
                    "opponent": pl.String(), "reported": pl.Date()}


def with_lines(df: pl.DataFrame) -> pl.DataFrame:
    """Add the ``line`` column the ingest adds: 1-based physical CSV line, header = 1."""
    return df.with_columns(line=pl.int_range(2, pl.len() + 2, dtype=pl.Int64))


def demo_members_and_entries(
    rules: GKRules, *, seed: int, event_year: int, n_members: int = 150, n_entries: int = 200
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Demo members.csv and entries.csv (without ``line``): ~``n_members`` members, ~``n_entries`` entries.

    Mix: most members enter once, some several times, two the maximum; a few late entries
    (carried forward), a few lapsed memberships, a few members abroad (rejected), APO/FPO
    addresses and Hawaii residents (accepted), unrated players, one underpaid fee. Extra
    single entries are added at the end so the accepted entries fill whole sections of 7.
    """
    rnd = random.Random(seed)
    y = event_year
    open_d = rules.opening(y)
    members = []
    for i in range(n_members):
        mid = f"{12000000 + i * 37 + rnd.randrange(37):08d}"
        first, last = rnd.choice(FIRST), rnd.choice(LAST)
        country, region, apo = "US", rnd.choice(US_STATES), False
        k = i % 25
        if k == 3:
            country, region = "CA", rnd.choice(["ON", "QC", "BC", "AB"])
        elif k == 7:
            region = "HI"
        elif k == 11:
            region, apo = rnd.choice(["AE", "AP"]), True
        elif k == 13 and i < 100:
            country, region = rnd.choice(["GB", "DE", "BR"]), ""
        elif k == 17:
            country, region = rnd.choice(["MX", "PR", "JM"]), ""
        elif k == 19 and i < 60:
            region = "GU"
        expires = dt.date(y + rnd.randint(1, 6), rnd.randint(1, 12), 28)
        if i % 31 == 5:  # lapsed before entering
            expires = dt.date(y - 1, 6, 30)
        elif i % 29 == 9:  # lapses during the event
            expires = dt.date(y + 1, 3, 31)
        rating = None if rnd.random() < 0.1 else max(800, min(2500, int(rnd.gauss(1550, 320))))
        members.append((mid, f"{first} {last}", f"{first}.{last}{i}@example.org".lower(), expires,
                        country, region, apo, rating))
    mdf = pl.DataFrame(members, schema=MEMBERS_SCHEMA, orient="row")
    mids = mdf["member_id"].to_list()

    def day(lo: dt.date, hi: dt.date) -> dt.date:
        return lo + dt.timedelta(days=rnd.randint(0, (hi - lo).days))

    entries: list[tuple] = []
    counts = [1] * n_members
    counts[0] = counts[1] = rules.max_entries_per_member
    extra = n_entries - sum(counts)
    while extra > 0:
        j = rnd.randrange(2, n_members)
        if counts[j] < 5:
            counts[j] += 1
            extra -= 1
    n = 0
    for mid, c in zip(mids, counts):
        dates = sorted(day(open_d, dt.date(y, 5, 31)) for _ in range(c)) if c > 1 else \
            [day(open_d, dt.date(y, 12, 31))]
        if c > 1 and rnd.random() < 0.15:  # last entry sent too late for its number
            dates[-1] = day(dt.date(y, 10, 1), dt.date(y, 12, 31))
        for d in dates:
            n += 1
            entries.append((f"GK{y % 100:02d}-{n:04d}", mid, d, rnd.choice(["online", "online", "mail"]),
                            Decimal("25.00")))
    for k in range(3):  # single entries after 31 December: next year's event
        n += 1
        entries.append((f"GK{y % 100:02d}-{n:04d}", mids[10 + k], day(dt.date(y + 1, 1, 1), dt.date(y + 1, 1, 20)),
                        "mail", Decimal("25.00")))
    n += 1
    entries.append((f"GK{y % 100:02d}-{n:04d}", mids[20], day(open_d, dt.date(y, 3, 1)), "mail", Decimal("20.00")))
    edf = pl.DataFrame(entries, schema=ENTRIES_SCHEMA, orient="row")
    # make the accepted entries fill whole sections
    judged, _ = judge_entries(rules, mdf, with_lines(edf), event_year=y)
    accepted_members = judged.filter(pl.col("status") == ACCEPTED)["member_id"].unique().sort().to_list()
    short = (-judged.filter(pl.col("status") == ACCEPTED).height) % rules.section_size
    used: set[str] = set(edf["member_id"].to_list())
    add = []
    for mid in accepted_members:
        if len(add) == short:
            break
        if counts[mids.index(mid)] == 1:
            n += 1
            add.append((f"GK{y % 100:02d}-{n:04d}", mid, day(open_d, dt.date(y, 6, 1)), "online", Decimal("25.00")))
    del used
    if add:
        edf = pl.concat([edf, pl.DataFrame(add, schema=ENTRIES_SCHEMA, orient="row")])
    return mdf, edf.sort("received", "entry_id")


def _expected(ra: int | None, rb: int | None) -> float:
    a, b = ra or 1300, rb or 1300
    return 1 / (1 + 10 ** ((b - a) / 400))


def simulate_stage_games(
    sections: pl.DataFrame, schedule: pl.DataFrame, ratings: dict[str, int | None], rnd: random.Random,
    *, start: dt.date, stage: str,
) -> tuple[list[tuple], list[tuple]]:
    """Finished games for a stage's schedule: results drawn from rating expectancy.

    About 1 game in 4 is drawn, about 1 in 60 is a forfeit, and a few players overstep the time
    limit (their first overstep a penalty, a second a lost game — written as such).
    """
    games, over = [], []
    for stage_, section, white, black in schedule.select("stage", "section", "white", "black").iter_rows():
        e = _expected(ratings.get(white), ratings.get(black))
        u = rnd.random()
        if u < 1 / 60:
            res = rnd.choice(["+/-", "-/+", "+/-", "-/+", "-/-"])
        else:
            draw = 0.28 - 0.4 * abs(e - 0.5)
            v = rnd.random()
            res = "1-0" if v < e - draw / 2 else ("1/2-1/2" if v < e + draw / 2 else "0-1")
        ended = start + dt.timedelta(days=rnd.randint(90, 850))
        games.append((stage_, section, white, black, res, ended))
    # oversteps: a few players, one or two each (two → the second game is lost on time)
    ids = sorted(schedule["white"].unique().to_list())
    for pid in rnd.sample(ids, k=max(1, len(ids) // 30)):
        mine = [i for i, g in enumerate(games) if pid in (g[2], g[3]) and g[4] in ("1-0", "0-1", "1/2-1/2")]
        if len(mine) < 2:
            continue
        times = 2 if rnd.random() < 0.5 or stage == "final" else 1
        last = None
        for t, gi in enumerate(sorted(rnd.sample(mine, k=times), key=lambda k: (games[k][5], k))):
            g = games[gi]
            opp = g[3] if g[2] == pid else g[2]
            reported = g[5] - dt.timedelta(days=rnd.randint(1, 60)) if t == 0 else max(g[5], last + dt.timedelta(days=1))
            last = reported
            over.append((stage, g[1], pid, opp, reported))
            if stage == "final" or t == 1:  # lost on time: record it that way
                games[gi] = (*g[:4], "0-1" if g[2] == pid else "1-0", g[5])
    return games, over


def simulate_golden_knights(
    rules: GKRules, members: pl.DataFrame, entries: pl.DataFrame, *, seed: int, event_year: int,
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Carry an event through all three stages: published sections, games and time oversteps.

    Stages start 900 days apart (rule 2: "probably 2½ years"); every game ends within 850 days
    of its stage's start, so an event of year Y is finished by mid-(Y+7).
    Each stage: run the rulebook (:func:`run_golden_knights`) on what is published so far,
    publish its proposed sections as they are, and play their games. Returns (sections.csv,
    games.csv, time_oversteps.csv) frames without ``line``.
    """
    from transforms.golden_knights.event import run_golden_knights

    rnd = random.Random(seed)
    m = with_lines(members.drop("line", strict=False))
    e = with_lines(entries.drop("line", strict=False))
    ratings = dict(zip(*e.join(members.select("member_id", "rating"), on="member_id", how="left")
                       .select("entry_id", "rating").to_dict(as_series=False).values()))
    secs = pl.DataFrame(schema=SECTIONS_SCHEMA)
    games = pl.DataFrame(schema=GAMES_SCHEMA)
    overs = pl.DataFrame(schema=OVERSTEPS_SCHEMA)
    as_of = dt.date(event_year + 10, 1, 1)
    start = rules.pairing_start(event_year)
    for i, stage in enumerate(Stage):
        res = run_golden_knights(rules, m, e, with_lines(secs), with_lines(games), with_lines(overs), None,
                                 event_year=event_year, as_of=as_of)
        prop = res.proposed_sections.filter(pl.col("stage") == stage.value).sort("section", "seat")
        if prop.is_empty():
            break
        secs = pl.concat([secs, prop.select(list(SECTIONS_SCHEMA))])
        sched = res.schedule.filter((pl.col("stage") == stage.value) & (pl.col("status") == "proposed"))
        g, o = simulate_stage_games(prop, sched, ratings, rnd, start=start + dt.timedelta(days=i * 900),
                                    stage=stage.value)
        games = pl.concat([games, pl.DataFrame(g, schema=GAMES_SCHEMA, orient="row")])
        overs = pl.concat([overs, pl.DataFrame(o, schema=OVERSTEPS_SCHEMA, orient="row")])
    return secs, games, overs


def demo_files(rules: GKRules, *, seed: int = 2019, event_year: int = 2019) -> dict[str, pl.DataFrame]:
    """The demo event folder (inputs/golden-knights-<year>/) as frames by file name, for the flows to write.

    ``overrides.csv`` is header-only (rule 7: the director has made no decisions yet).
    """
    from transforms.golden_knights.event import OVERRIDES_SCHEMA

    members, entries = demo_members_and_entries(rules, seed=seed, event_year=event_year)
    sections, games, overs = simulate_golden_knights(rules, members, entries, seed=seed, event_year=event_year)
    return {
        "members.csv": members, "entries.csv": entries, "sections.csv": sections, "games.csv": games,
        "time_oversteps.csv": overs,
        "overrides.csv": pl.DataFrame(schema={k: v for k, v in OVERRIDES_SCHEMA.items() if k != "line"}),
    }

"""Deterministic demo inputs for the National Junior 2024 (players.csv, associations.csv).

Realistic but invented: names are drawn from common Indian given names and surnames; a
seeded ``random.Random`` makes every run identical. The entry routes and a handful of entries
that the regulations reject (over age, foreign, not AICF-registered, fifth quota player,
association in arrears, after the closing time, a Girls title used for the Open section)
are there so the demo exercises them.
"""

from __future__ import annotations

import datetime as dt
import random

import polars as pl

STATES = {
    "AP": "Andhra Pradesh Chess Association", "AS": "Assam Chess Association",
    "BR": "Bihar Chess Association", "CG": "Chhattisgarh Chess Association",
    "DL": "Delhi Chess Association", "GA": "Goa Chess Association",
    "GJ": "Gujarat State Chess Association", "HR": "Haryana Chess Association",
    "HP": "Himachal Pradesh Chess Association", "JH": "Jharkhand Chess Association",
    "JK": "Jammu & Kashmir Chess Association", "KA": "Karnataka State Chess Association",
    "KL": "Kerala State Chess Association", "MP": "Madhya Pradesh Chess Association",
    "MH": "Maharashtra Chess Association", "MN": "Manipur Chess Association",
    "OD": "Odisha Chess Association", "PB": "Punjab Chess Association",
    "PY": "Puducherry Chess Association", "RJ": "Rajasthan Chess Association",
    "TN": "Tamil Nadu State Chess Association", "TG": "Telangana State Chess Association",
    "TR": "Tripura Chess Association", "UP": "Uttar Pradesh Chess Sangh",
    "UK": "Uttarakhand Chess Association", "WB": "West Bengal Chess Association",
    "CH": "Chandigarh Chess Association", "SK": "Sikkim Chess Association",
}
ARREARS = {"SK"}
"""Demo: this association has not cleared its arrears, so its entries are rejected."""

BOYS = ["Aarav", "Arjun", "Aditya", "Vihaan", "Pranav", "Rohan", "Karthik", "Siddharth", "Ishaan",
        "Nihal", "Raunak", "Aryan", "Harsha", "Vignesh", "Shreyas", "Ayush", "Kushal", "Pranesh",
        "Bharath", "Sai", "Dhruv", "Abhimanyu", "Mihir", "Tanmay", "Om", "Yash", "Rahul", "Anish"]
GIRLS = ["Aditi", "Divya", "Vaishali", "Savitha", "Priyanka", "Mrudul", "Rakshitta", "Sahithi",
         "Nandhidhaa", "Tejaswini", "Ananya", "Shubhi", "Kavya", "Meera", "Isha", "Riya",
         "Bhakti", "Arpita", "Sneha", "Trisha", "Pooja", "Lakshmi", "Jiya", "Saanvi", "Nisha"]
SURNAMES = ["Sharma", "Iyer", "Reddy", "Nair", "Patil", "Gupta", "Das", "Singh", "Kumar", "Rao",
            "Menon", "Bose", "Chatterjee", "Deshmukh", "Joshi", "Pillai", "Verma", "Mehta",
            "Kulkarni", "Banerjee", "Yadav", "Mishra", "Choudhary", "Naidu", "Shetty", "Saxena"]

MEDAL = {"open": {"TG": 3, "TN": 2, "RJ": 1}, "girls": {"UP": 3, "MH": 2, "WB": 1}}
SEEDS = {
    "open": ["nj2023_top4_open", "nj2023_top4_open", "nj2023_top4_open", "nu17_2023_top2_open",
             "nu17_2023_top2_open", "nu15_2023_champion_open", "title_gm_im",
             "title_gm_im", "asian_u20_top3_open", "national_champion_higher_open"],
    "girls": ["nj2023_top4_girls", "nj2023_top4_girls", "nj2023_top4_girls",
              "nu17_2023_top2_girls", "nu15_2023_champion_girls", "title_wgm_wim",
              "asian_u18_champion_girls", "world_u18_u20_2_3_girls"],
}
"""Seed routes of the demo's seeded players per section (a route's code ends with the category
it seeds into). The girl seeded into Open by a Girls title is added below."""
TITLES = {"title_gm_im": "IM", "title_wgm_wim": "WIM"}


def demo_national_junior_files(seed: int = 2024) -> tuple[pl.DataFrame, ...]:
    """(players, associations, withdrawals, bye_requests) of the demo event."""
    rng = random.Random(seed)
    rows: list[dict] = []
    used_names: set[str] = set()
    fide = iter(range(25_000_101, 99_999_999, 7_919))

    def person(section: str, gender: str) -> str:
        while True:
            first = rng.choice(GIRLS if gender == "F" else BOYS)
            name = f"{rng.choice(SURNAMES)}, {first}"
            if name not in used_names:
                used_names.add(name)
                return name

    def add(section: str, state: str, entry_type: str, *, gender: str | None = None,
            seed_reason: str = "", rating: int | None = None, title: str = "",
            born: dt.date | None = None, nationality: str = "IND", aicf: bool = True,
            registered: dt.datetime | None = None, fee: int | None = None) -> None:
        gender = gender or ("F" if section == "girls" else "M")
        name = person(section, gender)
        if rating is None:
            base = 1850 if section == "open" else 1650
            rating = max(1100, min(2550, int(rng.gauss(base, 190))))
            if rng.random() < 0.06:
                rating = 0
        born = born or dt.date(2005, 1, 1) + dt.timedelta(days=rng.randrange(0, 365 * 6))
        registered = registered or (dt.datetime(2024, 8, 5, 10, 0)
                                    + dt.timedelta(minutes=rng.randrange(0, 60 * 24 * 27)))
        late = registered > dt.datetime(2024, 9, 2, 23, 59)
        if fee is None:
            fee = 7500 if entry_type == "special" else 2000
            fee += 250 if late else 0
        pid = f"{'O' if section == 'open' else 'G'}{len([r for r in rows if r['section'] == section]) + 1:03d}"
        first = name.split(", ")[1].lower()
        rows.append({
            "player_id": pid, "name": name, "section": section, "gender": gender,
            "birth_date": born.isoformat(), "nationality": nationality, "state": state,
            "fide_id": str(next(fide)), "rating": str(rating) if rating else "",
            "title": title, "entry_type": entry_type, "seed_reason": seed_reason,
            "registered_at": registered.strftime("%Y-%m-%dT%H:%M"), "fee_paid": str(fee),
            "aicf_registered": "true" if aicf else "false",
            "email": f"{first}.{pid.lower()}@players.example",
        })

    states = sorted(STATES)
    for section, quota_states, quota_min in (("open", states, 2), ("girls", states[:19], 1)):
        for st in quota_states:
            for _ in range(rng.randint(quota_min, 4)):
                add(section, st, "quota")
        for reason in SEEDS[section]:
            add(section, rng.choice(states), "seeded", seed_reason=reason,
                rating=rng.randint(2250, 2480) if section == "open" else rng.randint(2050, 2300),
                title=TITLES.get(reason, ""))
        for _ in range(6 if section == "open" else 4):
            add(section, rng.choice(states), "special")
        add(section, "HR", "host")
        add(section, "HR", "host")
        add(section, rng.choice(states), "secretary")
        add(section, "", "no_association")
        add(section, "", "no_association")
        for st, n in MEDAL[section].items():
            for _ in range(n):
                add(section, st, "medal_bonus")
    # Girls in the Open section through the seed's routes (National U-19 Girls top two).
    add("open", "TN", "seeded", gender="F", seed_reason="ng19_2023_top2_open", rating=2210, title="WIM")
    # Entries the regulations reject (each for one reason), so the demo shows the rules working.
    add("open", "KA", "quota", born=dt.date(2004, 12, 31))                       # over age
    add("open", "GJ", "quota", nationality="NPL")                                 # not Indian
    add("girls", "KL", "quota", aicf=False)                                       # no AICF registration
    add("open", "TN", "quota", registered=dt.datetime(2024, 9, 9, 17, 1), fee=2250)  # after closing
    for section in ("open", "girls"):
        fifth = [r for r in rows if r["section"] == section and r["entry_type"] == "quota"]
        counts: dict[str, int] = {}
        for r in fifth:
            counts[r["state"]] = counts.get(r["state"], 0) + 1
        st = next(s for s in states if counts.get(s) == 4 and s not in ARREARS)
        add(section, st, "quota")                                                 # fifth quota player
    # A Girls title used for the Open section: it seeds into Girls only ("in their respective
    # categories"), so the entry is rejected.
    add("open", "MH", "seeded", gender="F", seed_reason="nj2023_top4_girls", rating=2190)
    players = pl.DataFrame(rows, schema={k: pl.String for k in rows[0]})
    associations = pl.DataFrame({
        "state": states, "name": [STATES[s] for s in states],
        "arrears_cleared": ["false" if s in ARREARS else "true" for s in states],
        "email": [f"secretary@{s.lower()}-chess.example" for s in states],
    })
    withdrawals = pl.DataFrame({"player_id": ["O012"], "from_round": ["8"],
                                "reason": ["illness, withdrawn with the chief arbiter's permission"]})
    bye_requests = pl.DataFrame({"player_id": ["O020", "G015", "O033", "G027"],
                                 "round": ["3", "5", "6", "9"], "kind": ["HPB", "HPB", "HPB", "ZPB"]})
    return players, associations, withdrawals, bye_requests

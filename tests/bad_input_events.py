"""Two tiny, clean event folders for the bad-input matrix (tests/flows/test_bad_inputs.py): a Swiss
event of seven players, three rounds, two of them played; a Golden Knights event of seven
entries in one published preliminary section with a few games. Player S7 (players.csv line 8)
has no game yet and member 12000008 (members.csv line 9) no entry, so that a bad cell in their
rows touches nothing else. Small enough that the flow renders them in seconds; every file of
both kinds is present, so that each can be broken."""

from __future__ import annotations

from pathlib import Path

SWISS_TOML = """\
[event]
id = "tiny-swiss"
name = "Tiny Swiss"
kind = "swiss"
start = 2024-09-16
end = 2024-09-18
venue = "Karnal"
organiser = "A chess association"
currency = "INR"
contact = "The arbiter"
as_of = 2024-09-18

[publish]
sender = "Tiny Swiss <results@tiny.example>"
recipients = [{ name = "Arbiter", email = "arbiter@tiny.example", role = "office" }]

[swiss]
rounds = 3
dutch_edition = "2017"
tiebreaks = ["BH-C1", "BH", "SB"]
pab_points = 1.0

[[swiss.categories]]
id = "open"
name = "Open"
prizes = [300, 200, 100]

[fide_report]
city = "Karnal"
federation = "IND"
chief_arbiter = "IA A. Arbiter"
round_dates = [2024-09-16, 2024-09-17, 2024-09-18]

[[swiss.categories]]
id = "girls"
name = "Girls"

[entries]
rules = "national-junior-2024"
"""

PLAYERS_HEADER = ("player_id,name,section,gender,birth_date,nationality,state,fide_id,rating,title,"
                  "entry_type,seed_reason,registered_at,fee_paid,aicf_registered,email")
PLAYERS = PLAYERS_HEADER + """
S1,"Rao, Arjun",open,M,2007-01-10,IND,AP,25000101,2000,,quota,,2024-08-20T10:00,2000,true,s1@players.example
S2,"Iyer, Bala",open,M,2008-02-11,IND,AP,25000102,1900,,quota,,2024-08-20T11:00,2000,true,s2@players.example
S3,"Das, Chitra",open,F,2009-03-12,IND,HR,25000103,1800,,quota,,2024-08-21T10:00,2000,true,s3@players.example
S4,"Sen, Dev",open,M,2010-04-13,IND,HR,25000104,1700,,quota,,2024-08-21T11:00,2000,true,s4@players.example
S5,"Nair, Esha",open,F,2006-05-14,IND,AP,25000105,1600,,quota,,2024-08-22T10:00,2000,true,s5@players.example
S6,"Bose, Farid",open,M,2007-06-15,IND,HR,25000106,1500,,quota,,2024-08-22T11:00,2000,true,s6@players.example
S7,"Kapoor, Gita",open,F,2008-07-16,IND,AP,25000107,1400,,quota,,2024-08-23T10:00,2000,true,s7@players.example
"""
ASSOCIATIONS = """state,name,arrears_cleared,email
AP,Andhra Pradesh Chess Association,true,ap@assoc.example
HR,Haryana Chess Association,true,hr@assoc.example
"""
RESULTS = """round,board,white_id,black_id,result,moves,draw_consent
1,1,S1,S4,1-0,41,
1,2,S5,S2,0-1,38,
1,3,S3,S6,1/2-1/2,52,
2,1,S2,S1,1/2-1/2,60,
2,2,S4,S3,0-1,33,
2,3,S6,S5,1-0,47,
"""
WITHDRAWALS = """player_id,from_round,reason
S6,3,illness
"""
BYE_REQUESTS = """player_id,round,kind
S5,3,HPB
"""
SWISS_FILES = {"event.toml": SWISS_TOML, "players.csv": PLAYERS, "associations.csv": ASSOCIATIONS,
               "results.csv": RESULTS, "withdrawals.csv": WITHDRAWALS,
               "bye_requests.csv": BYE_REQUESTS}

GK_TOML = """\
[event]
id = "tiny-knights"
name = "Tiny Knights"
kind = "correspondence"
start = 2019-01-01
end = 2026-12-31
venue = "Correspondence"
organiser = "US Chess Correspondence Chess"
currency = "USD"
contact = "The director"
as_of = 2019-06-01

[publish]
sender = "Tiny Knights <cc@tiny.example>"
recipients = [{ name = "Director", email = "ccd@tiny.example", role = "office" }]

[golden_knights]
entry_fee = 25.00
max_entries_per_member = 10
entry_deadlines = [[1, [12, 31]], [2, [9, 30]], [4, [8, 31]], [7, [7, 31]], [10, [6, 30]]]
entries_open = [12, 1]
pairings_start = [1, 1]
accept_apo_fpo = true
section_size = 7
games_per_player = 6
whites_per_player = 3
advance_score = 4.5
fallback_score = 4.0
stage_weights = [1.0, 2.2, 4.5]
prize_table = [800, 500, 300]
prize_base_entries = 200
gift_certificate = 7.00
reflection_penalty_days = 5
membership_warning_days = 90
director = "Correspondence Chess Director"
"""
MEMBERS = """member_id,name,email,membership_expires,country,region,apo_fpo,rating
12000001,Ann Adams,ann@members.example,2025-12-31,US,PA,false,1900
12000002,Bob Brown,bob@members.example,2025-12-31,US,HI,false,1850
12000003,Cy Clark,cy@members.example,2025-12-31,CA,ON,false,1800
12000004,Di Dunn,di@members.example,2025-12-31,US,TX,false,1750
12000005,Ed Evans,ed@members.example,2025-12-31,MX,,false,1700
12000006,Flo Ford,flo@members.example,2025-12-31,US,NY,false,1650
12000007,Gus Gray,gus@members.example,2025-12-31,US,,true,1600
12000008,Hal Hunt,hal@members.example,2025-12-31,US,OH,false,1550
"""
ENTRIES = """entry_id,member_id,received,channel,fee_paid
E1,12000001,2018-12-02,online,25.00
E2,12000002,2018-12-03,mail,25.00
E3,12000003,2018-12-04,online,25.00
E4,12000004,2018-12-05,online,25.00
E5,12000005,2018-12-06,mail,25.00
E6,12000006,2018-12-07,online,25.00
E7,12000007,2018-12-08,online,25.00
"""
SECTIONS = "stage,section,entry_id\n" + "".join(f"preliminary,P01,E{i}\n" for i in range(1, 8))
GAMES = """stage,section,white,black,result,ended
preliminary,P01,E1,E2,1-0,2019-03-01
preliminary,P01,E3,E4,1/2-1/2,2019-03-02
preliminary,P01,E5,E6,0-1,2019-03-03
preliminary,P01,E7,E1,,
"""
TIME_OVERSTEPS = """stage,section,entry_id,opponent,reported
preliminary,P01,E7,E1,2019-04-01
"""
OVERRIDES = """kind,stage,section,entry_id,opponent,value,note
prize_eligible,,,E2,,yes,the director's decision
"""
GK_FILES = {"event.toml": GK_TOML, "members.csv": MEMBERS, "entries.csv": ENTRIES,
            "sections.csv": SECTIONS, "games.csv": GAMES, "time_oversteps.csv": TIME_OVERSTEPS,
            "overrides.csv": OVERRIDES}


def write_event(folder: Path, files: dict[str, str]) -> Path:
    """Write one event folder (UTF-8, LF line ends) and return it."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_bytes(text.encode("utf-8"))
    return folder

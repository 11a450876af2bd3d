"""Bad input gets a precise validation row (file, line, column, value, reason), never a
traceback, and nothing is dropped silently."""

from pathlib import Path

import polars as pl
import pytest

from flows.io import read_csv_strings
from transforms.core.errors import Severity
from transforms.core.ingest import validate_files as validate
from transforms.golden_knights.schemas import SCHEMAS as GK_SCHEMAS
from transforms.kinds import parse_event_config
from transforms.national_junior.schemas import SCHEMAS as SWISS_SCHEMAS
from transforms.swiss.event import check_player_refs, check_players
from transforms.swiss.scorecard import assign_start_numbers, check_results

ROOT = Path(__file__).resolve().parents[2]
CFG = parse_event_config((ROOT / "inputs/national-junior-2024/event.toml").read_text())

PLAYERS_HEADER = ("player_id,name,section,gender,birth_date,nationality,state,fide_id,rating,title,"
                  "entry_type,seed_reason,registered_at,fee_paid,aicf_registered,email")
P1 = "O1,\"Rao, Arjun\",open,M,2006-03-01,IND,TN,25000101,2210,,quota,,2024-08-20T10:00,2000,true,a@x.in"
P2 = "O2,\"Nair, Om\",open,M,2007-05-09,IND,KL,25000102,2150,,quota,,2024-08-21T11:00,2000,true,o@x.in"
P3 = "O3,\"Das, Rohan\",open,M,2008-01-02,IND,WB,25000103,2100,,quota,,2024-08-21T11:00,2000,yes,r@x.in"
RESULTS_HEADER = "round,board,white_id,black_id,result"


def run(tmp_path: Path, files: dict[str, str], schemas=SWISS_SCHEMAS, required=("players.csv",)):
    raw = {}
    for name, text in files.items():
        path = tmp_path / name
        path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
        raw[name] = read_csv_strings(path)
    return validate(raw, schemas, required)


def one(findings, **expected):
    hits = [f for f in findings if all(getattr(f, k) == v for k, v in expected.items())]
    assert hits, f"no finding with {expected}; got {findings}"
    return hits[0]


def players_file(*rows: str) -> str:
    return "\n".join([PLAYERS_HEADER, *rows]) + "\n"


def test_clean_players_file_has_no_findings_and_keeps_every_row(tmp_path):
    typed, findings = run(tmp_path, {"players.csv": players_file(P1, P2, P3)})
    assert findings == []
    assert typed["players.csv"]["player_id"].to_list() == ["O1", "O2", "O3"]
    assert typed["players.csv"]["aicf_registered"].to_list() == [True, True, True]  # "yes" accepted


def test_bad_date_is_reported_with_line_column_and_value(tmp_path):
    typed, findings = run(tmp_path, {"players.csv": players_file(P1, P2.replace("2007-05-09", "2007-13-09"))})
    f = one(findings, column="birth_date")
    assert (f.file, f.line, f.value, f.severity) == ("players.csv", 3, "2007-13-09", Severity.ERROR)
    assert "date" in f.reason
    assert typed["players.csv"]["player_id"].to_list() == ["O1"]


def test_every_bad_cell_is_reported_not_just_the_first(tmp_path):
    bad = P2.replace("2150", "21x0").replace("2024-08-21T11:00", "21/08/2024").replace(",true,", ",maybe,")
    _, findings = run(tmp_path, {"players.csv": players_file(P1, bad)})
    assert {f.column for f in findings} == {"rating", "registered_at", "aicf_registered"}
    assert {f.line for f in findings} == {3}


def test_unknown_column_is_a_warning_on_the_header_line_and_the_rows_are_used(tmp_path):
    text = players_file(P1).replace("email", "email,shoe_size").replace("a@x.in", "a@x.in,42")
    typed, findings = run(tmp_path, {"players.csv": text})
    f = one(findings, column="shoe_size")
    assert (f.line, f.severity) == (1, Severity.WARNING) and "unknown column" in f.reason
    assert typed["players.csv"]["player_id"].to_list() == ["O1"]


def test_missing_required_column_is_an_error(tmp_path):
    text = "player_id,name\nO1,Rao\n"
    _, findings = run(tmp_path, {"players.csv": text})
    f = one(findings, column="birth_date")
    assert (f.line, f.severity) == (1, Severity.ERROR)
    assert f.reason.startswith("required column 'birth_date' is missing from the header")


def test_missing_required_file_is_an_error(tmp_path):
    _, findings = run(tmp_path, {"results.csv": RESULTS_HEADER + "\n"}, required=("players.csv",))
    assert one(findings, file="players.csv").reason == "required file is missing"


def test_duplicate_id_names_the_first_occurrence(tmp_path):
    _, findings = run(tmp_path, {"players.csv": players_file(P1, P2, P1.replace("Arjun", "Aarav"))})
    f = one(findings, column="player_id")
    assert f.line == 4 and "first on line 2" in f.reason


def test_ragged_row_is_reported_not_dropped(tmp_path):
    _, findings = run(tmp_path, {"players.csv": players_file(P1, "O9,too,few")})
    f = one(findings, line=3)
    assert "3 fields" in f.reason


def test_not_utf8_is_reported_with_its_line(tmp_path):
    data = (players_file(P1) + "O4,\"M\xfcller, Jan\",open,M\n").encode("latin-1")
    _, findings = run(tmp_path, {"players.csv": data})
    f = one(findings, file="players.csv")
    assert f.line == 3 and f.reason.startswith("not UTF-8 text (byte 0xFC at position 6")


def test_bom_is_accepted(tmp_path):
    typed, findings = run(tmp_path, {"players.csv": "\ufeff" + players_file(P1)})
    assert findings == [] and typed["players.csv"].height == 1


def test_value_outside_closed_set_is_reported(tmp_path):
    _, findings = run(tmp_path, {"players.csv": players_file(P1.replace(",quota,", ",vip,"))})
    f = one(findings, column="entry_type")
    assert f.value == "vip" and "not one of" in f.reason


def test_impossible_birth_date_and_unknown_category(tmp_path):
    typed, findings = run(tmp_path, {"players.csv": players_file(
        P1.replace("2006-03-01", "2031-01-01"), P2.replace(",open,", ",blitz,"))})
    more = check_players(typed["players.csv"], CFG, CFG.event.as_of)
    assert one(more, column="birth_date").reason.startswith("impossible date")
    assert one(more, column="section").value == "blitz"


def results_check(tmp_path, *rows, rounds=11):
    typed, findings = run(tmp_path, {"players.csv": players_file(P1, P2, P3),
                                     "results.csv": "\n".join([RESULTS_HEADER, *rows]) + "\n"})
    players = assign_start_numbers(typed["players.csv"])
    ok, more = check_results(typed["results.csv"], players, rounds=rounds)
    return ok, findings + more


def test_result_spellings_are_normalised(tmp_path):
    ok, findings = results_check(tmp_path, "1,1,O1,O2,½-½", "1,2,O3,,pab", "2,1,O3,O1,=",
                                 "2,2,O2,,hpb", "3,1,O2,O3,1:0", "3,2,O1,,zpb")
    assert findings == []
    assert ok["result"].to_list() == ["1/2-1/2", "PAB", "1/2-1/2", "HPB", "1-0", "ZPB"]


def test_unknown_player_reference(tmp_path):
    _, findings = results_check(tmp_path, "1,1,O1,O7,1-0")
    f = one(findings, column="black_id")
    assert (f.line, f.value) == (2, "O7") and "unknown player" in f.reason


def test_same_board_twice_in_a_round(tmp_path):
    ok, findings = results_check(tmp_path, "1,1,O1,O2,1-0", "1,1,O3,,PAB")
    f = one(findings, column="board")
    assert f.line == 3 and "already on line 2" in f.reason
    assert ok.height == 1


def test_player_twice_in_one_round(tmp_path):
    _, findings = results_check(tmp_path, "1,1,O1,O2,1-0", "1,2,O2,O3,0-1")
    f = one(findings, column="white_id")
    assert (f.line, f.value) == (3, "O2") and "already in round 1" in f.reason


def test_bye_with_an_opponent_and_game_without_one(tmp_path):
    _, findings = results_check(tmp_path, "1,1,O1,O2,HPB", "1,2,O3,,1-0")
    assert "has no opponent" in one(findings, line=2).reason
    assert "needs an opponent" in one(findings, line=3).reason


def test_round_beyond_the_event(tmp_path):
    _, findings = results_check(tmp_path, "12,1,O1,O2,1-0")
    assert one(findings, column="round").reason == "the event has 11 rounds"


def test_bad_result_code(tmp_path):
    _, findings = results_check(tmp_path, "1,1,O1,O2,2-0")
    assert one(findings, column="result").value == "2-0"


def test_reference_to_unknown_player_in_byes_and_withdrawals(tmp_path):
    typed, findings = run(tmp_path, {"players.csv": players_file(P1),
                                     "bye_requests.csv": "player_id,round,kind\nO5,3,HPB\nO1,14,ZPB\n"})
    more = check_player_refs(typed["bye_requests.csv"], "bye_requests.csv", {"O1"}, 11)
    assert one(more, column="player_id").value == "O5"
    assert one(more, column="round").line == 3


@pytest.mark.parametrize("file, text, column", [
    ("members.csv", "member_id,name,email,membership_expires,country,region,apo_fpo,rating\n"
                    "M1,Ann,a@x,2020-02-30,US,NY,false,1500\n", "membership_expires"),
    ("entries.csv", "entry_id,member_id,received,channel,fee_paid\nE1,M1,2019-01-01,fax,25\n", "channel"),
    ("games.csv", "stage,section,white,black,result,ended\npreliminary,P1,E1,E2,1-0,2019-02-31\n", "ended"),
])
def test_correspondence_files_are_checked_too(tmp_path, file, text, column):
    _, findings = run(tmp_path, {file: text}, schemas=GK_SCHEMAS, required=())
    f = one(findings, column=column)
    assert f.file == file and f.line == 2


def test_rows_with_errors_are_set_aside_but_kept_in_findings(tmp_path):
    typed, findings = run(tmp_path, {"players.csv": players_file(P1, P2.replace("IND", ""), P3)})
    assert typed["players.csv"].height == 2
    assert one(findings, column="nationality").line == 3
    assert isinstance(typed["players.csv"], pl.DataFrame)


@pytest.mark.parametrize("cell, amount", [("2000", "2000.00"), ("2,000.50", "2000.50"),
                                          ("7500.5", "7500.50"), ("0", "0.00")])
def test_amounts_are_exact_decimals(tmp_path, cell, amount):
    from decimal import Decimal

    typed, findings = run(tmp_path, {"players.csv": players_file(P1.replace(",2000,", f',"{cell}",'))})
    assert findings == []
    assert typed["players.csv"].schema["fee_paid"] == pl.Decimal(12, 2)
    assert typed["players.csv"]["fee_paid"].to_list() == [Decimal(amount)]


@pytest.mark.parametrize("cell", ["2000.005", "12.5.0", "1e3", "two thousand"])
def test_an_amount_that_is_not_exact_to_the_paisa_is_an_error_not_rounded(tmp_path, cell):
    typed, findings = run(tmp_path, {"players.csv": players_file(P1.replace(",2000,", f",{cell},"))})
    f = one(findings, column="fee_paid")
    assert (f.line, f.value, f.severity) == (2, cell, Severity.ERROR)
    assert f.reason == "not an amount (digits with at most two decimals, e.g. 2000 or 25.00)"
    assert typed["players.csv"].height == 0


@pytest.mark.parametrize("email", ["a@x", "Arjun <a@x.in>", "a@x.in, b@x.in", "a x@x.in", "a@@x.in"])
def test_an_invalid_email_is_a_warning_the_row_stays_and_no_message_goes_to_it(tmp_path, email):
    row = P1.replace("a@x.in", f'"{email}"')
    typed, findings = run(tmp_path, {"players.csv": f"{PLAYERS_HEADER}\n{row}\n"})
    f = one(findings, file="players.csv", line=2, column="email", value=email)
    assert f.severity is Severity.WARNING and f.reason.startswith("not a valid email address")
    assert typed["players.csv"].height == 1 and typed["players.csv"]["email"][0] is None


def test_a_line_break_in_a_name_is_reported_and_read_as_a_space(tmp_path):
    row = P1.replace('"Rao, Arjun"', '"Rao, Arjun\nBcc: all@x.in"')
    typed, findings = run(tmp_path, {"players.csv": f"{PLAYERS_HEADER}\n{row}\n"})
    f = one(findings, file="players.csv", line=2, column="name")
    assert f.severity is Severity.WARNING and "line break" in f.reason
    assert typed["players.csv"]["name"][0] == "Rao, Arjun Bcc: all@x.in"

"""The National Junior demo's personal letters (flows/kinds/swiss/letters.py), built from the
rulebook's run without Prefect: who gets one, what each says (read as its recipient reads it,
against the standings, the pairing, the prize list and the entries' ledger), keys and content
stable from run to run, and a changed result changing only the letters it concerns."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest

from flows import io as flows_io
from flows.kinds.swiss.letters import swiss_letters
from flows.mail.letters import address_problem, html_body, text_body
from flows.registry import rules_parts
from flows.site.present import fmt
from transforms.core.money import amount_text
from transforms.kinds import parse_event_config
from transforms.national_junior.schemas import SCHEMAS as SWISS_SCHEMAS
from transforms.swiss.config import SwissConfig
from transforms.swiss.event import run_swiss
from transforms.swiss.rounds import pairing_rows

NJ = Path(__file__).resolve().parents[2] / "inputs" / "national-junior-2024"
CFG = parse_event_config((NJ / "event.toml").read_text())
OFFICE_KEY = "office-chief.arbiter~40haryanachess.example"  # the address through file_part


def raw_inputs(through: int | None = None, players=None, associations=None, results=None) -> dict:
    raw = {n: flows_io.read_csv_strings(NJ / n) for n in SWISS_SCHEMAS if (NJ / n).exists()}
    for name, change in (("players.csv", players), ("associations.csv", associations),
                         ("results.csv", results)):
        if change is not None:
            frame, found = raw[name]
            raw[name] = (change(frame), found)
    if through is not None:
        frame, found = raw["results.csv"]
        raw["results.csv"] = (frame.filter(pl.col("round").cast(pl.Int64) <= through), found)
    return raw


def build(through: int | None = None, as_of: dt.date | None = None, **changes):
    run = run_swiss(CFG, raw_inputs(through, **changes), as_of or CFG.event.as_of)
    letters, skipped = swiss_letters(run, as_of or CFG.event.as_of, rules_parts(CFG))
    return run, {x.key: x for x in letters}, skipped


@pytest.fixture(scope="module")
def after5():
    return build(5)


@pytest.fixture(scope="module")
def final():
    return build()


def block(letter, heading: str):
    return next(b for b in letter.blocks if b.heading == heading)


def accepted_with_email(run) -> set[tuple[str, int]]:
    return {(c.cat.id, sno) for c in run.categories
            for sno, email in zip(c.players["sno"], c.players["email"], strict=True)
            if email}


# --------------------------------------------------------------------------- who gets a letter


def test_after_round_5_every_accepted_player_with_an_email_gets_one_round_5_letter(after5):
    run, letters, skipped = after5
    players = {k for k, x in letters.items() if x.kind == "player-round"}
    # players.csv: 193 entries, 11 rejected (the office's entries page), all with an email.
    assert len(accepted_with_email(run)) == 182
    assert players == {f"player-{cid}-{sno}-round-05" for cid, sno in accepted_with_email(run)}
    assert not any(re.search(r"round-0[1-46-9]$", k) for k in letters)  # only the current news
    assert skipped == []


def test_every_association_gets_one_letter_and_only_the_office_recipient_the_report(after5):
    run, letters, _ = after5
    assoc = run.typed["associations.csv"]
    got = {k: x for k, x in letters.items() if x.kind == "association-round"}
    assert set(got) == {f"association-{s.lower()}-round-05" for s in assoc["state"]}
    assert len(got) == 28
    assert all(x.attachments == ("bulletin.pdf",) for x in got.values())
    office = [x for x in letters.values() if x.kind == "office"]
    # event.toml: the Chief Arbiter has role = "office", the AICF Office only the bulletin.
    assert [(x.key, x.to_email) for x in office] == [(f"{OFFICE_KEY}-round-05",
                                                     "chief.arbiter@haryanachess.example")]


def test_a_run_that_finds_all_eleven_rounds_writes_only_the_end_of_event_letters(final):
    run, letters, _ = final
    kinds = {x.kind for x in letters.values()}
    assert kinds == {"player-final", "association-final", "office"}
    assert {k for k, x in letters.items() if x.kind == "player-final"} == {
        f"player-{cid}-{sno}-final" for cid, sno in accepted_with_email(run)}
    assert f"{OFFICE_KEY}-round-11" in letters
    assert "association-hp-final" in letters


def test_before_round_1_is_played_the_letters_carry_the_round_1_pairing_as_round_00():
    run, letters, _ = build(0)
    c = run.category("open")
    assert c.done == 0 and c.pairing is not None and c.pairing.round == 1
    x = letters["player-open-1-round-00"]
    rows = pairing_rows(c.pairing.boards, c.pairing.setup, c.players, 1)
    me = rows.filter(pl.col("white_id") == c.players.filter(pl.col("sno") == 1)["player_id"][0])
    assert block(x, "Round 1").lines[0].startswith(f"Board {me['board'][0]}, White, against ")
    assert [b.heading for b in x.blocks] == ["Round 1"]
    assert f"{OFFICE_KEY}-round-00" in letters


def test_recipients_without_a_valid_email_get_no_letter_and_are_counted():
    def players(f):
        return f.with_columns(pl.when(pl.col("player_id") == "O001").then(pl.lit(""))
                              .when(pl.col("player_id") == "G001").then(pl.lit("kavya at home.example"))
                              .when(pl.col("player_id") == "O002").then(pl.lit("sid@localhost"))
                              .otherwise(pl.col("email")).alias("email"))

    def associations(f):
        return f.with_columns(pl.when(pl.col("state") == "HP").then(pl.lit(""))
                              .otherwise(pl.col("email")).alias("email"))

    run, letters, skipped = build(5, players=players, associations=associations)
    who = {w.split(" (")[0]: why for w, why in skipped}
    sno = {p: s for c in run.categories for p, s in zip(c.players["player_id"], c.players["sno"], strict=True)}
    # the two bad addresses were set aside when players.csv was read (a warning on the cell,
    # transforms/core/ingest.py): no letter, and the validation report says why
    assert who == {f"player open {sno['O001']}": "no email address",
                   f"player girls {sno['G001']}": "no email address",
                   f"player open {sno['O002']}": "no email address",
                   "association HP": "no email address"}
    warned = {f.value for f in run.findings if f.file == "players.csv" and f.column == "email"}
    assert warned == {"kavya at home.example", "sid@localhost"}
    assert sum(x.kind == "player-round" for x in letters.values()) == 182 - 3
    assert sum(x.kind == "association-round" for x in letters.values()) == 27


@pytest.mark.parametrize("address, ok", [
    ("rohan.o001@players.example", True), ("a+b@sub.example.org", True), ("", False),
    ("two@@x.example", False), ("a@b@x.example", False), ("@x.example", False),
    ("a@example", False), ("a@example.", False), ("a@.example", False),
    ("a@x.example\nBcc: b@y.example", False), ("Rohan <r@x.example>", False), ("a,b@x.example", False),
])
def test_address_problem_keeps_out_what_is_surely_not_an_address(address, ok):
    assert (address_problem(address) == "") is ok


# --------------------------------------------------------------------------- what each letter says


ROUND_LINE = re.compile(r"Board (\d+), (White|Black), against (?:\w+ )?(.+?) \((.*)\)(?:: .*)?\.$")


def test_every_round_letter_gives_the_points_and_place_of_the_standings_and_the_board_of_the_pairing(after5):
    run, letters, _ = after5
    checked = 0
    for c in run.categories:
        ranking = {r["sno"]: r for r in c.rankings[5].iter_rows(named=True)}
        rows = pairing_rows(c.pairing.boards, c.pairing.setup, c.players, 6)
        ids = dict(zip(c.players["player_id"], c.players["sno"], strict=True))
        names = dict(zip(c.players["sno"], c.players["name"], strict=True))
        board_of = {}
        for r in rows.iter_rows(named=True):
            board_of[ids[r["white_id"]]] = (r["board"], "White", ids.get(r["black_id"]), r["result"])
            if r["black_id"]:
                board_of[ids[r["black_id"]]] = (r["board"], "Black", ids[r["white_id"]], None)
        for sno, st in ranking.items():
            x = letters[f"player-{c.cat.id}-{sno}-round-05"]
            points = "point" if st["points"] == 1 else "points"
            assert block(x, "After round 5").lines[0] == (
                f"{fmt(st['points'])} {points}, place {st['rank_label']} of {len(ranking)}.")
            line = block(x, "Round 6").lines[0]
            board, colour, opp, bye = board_of[sno]
            if opp is None:
                assert line.startswith("No game: ") and (bye == "PAB") == ("allocated by the pairing" in line)
            else:
                m = ROUND_LINE.match(line)
                assert m and (int(m[1]), m[2], m[3]) == (board, colour, names[opp]), line
            checked += 1
    assert checked == 182


def test_the_round_5_letter_of_rohan_bose_reads_as_he_would_read_it(after5):
    run, letters, _ = after5
    x = letters["player-open-1-round-05"]
    c = run.category("open")
    st = c.rankings[5].filter(pl.col("sno") == 1).row(0, named=True)
    card = c.card.filter((pl.col("sno") == 1) & (pl.col("round") == 5)).row(0, named=True)
    opp = c.players.filter(pl.col("sno") == card["opponent"]).row(0, named=True)
    assert x.to_name == "Bose, Rahul" and x.to_email == c.players.filter(pl.col("sno") == 1)["email"][0]
    assert x.lead == (f"Round 5 of the National Junior U-19 Open is complete: you have "
                      f"{fmt(st['points'])} points and are in place {st['rank_label']}.")
    # standings/round-05.csv and pairings/round-05.csv of the demo: board 5, Bose (Black) won.
    assert (card["colour"], card["points"]) == ("b", 1.0)
    assert block(x, "Round 5").lines == (
        f"Board 5, Black, against {opp['name']} ({opp['rating']}, IND, {opp['state']}): you won (1).",)
    assert dict(x.links)["Your page"] == "players/open/1.html"
    assert dict(x.links)["Pairings of round 6"] == "pairings/round-06.html#open"
    text = text_body(x, site_url=CFG.publish.site_url, signature="The office")
    assert "https://results.example.org/national-junior-2024/players/open/1.html" in text


def test_a_requested_bye_and_a_withdrawal_are_confirmed_to_the_player(after5):
    run, letters, _ = after5
    sno = {p: (c.cat.id, s) for c in run.categories
           for p, s in zip(c.players["player_id"], c.players["sno"], strict=True)}
    # bye_requests.csv: O033 a half-point bye in round 6 (the next round), G027 a zero-point
    # bye in round 9; withdrawals.csv: O012 from round 8.
    cid, s = sno["O033"]
    assert block(letters[f"player-{cid}-{s}-round-05"], "Round 6").lines == (
        "No game: half-point bye (0.5 points), as you requested: confirmed.",)
    cid, s = sno["G027"]
    assert block(letters[f"player-{cid}-{s}-round-05"], "Your requests").lines == (
        "Your request for a zero-point bye in round 9 is on record: you will not be paired in "
        "that round and score 0 points.",)
    cid, s = sno["O012"]
    assert block(letters[f"player-{cid}-{s}-round-05"], "Your requests").lines == (
        "Your withdrawal from round 8 on is on record (illness, withdrawn with the chief "
        "arbiter's permission): you will not be paired from round 8 on.",)
    run7, letters7, _ = build(7)
    assert block(letters7[f"player-{cid}-{s}-round-07"], "Round 8").lines == (
        "You are not paired: you withdrew from round 8.",)


def test_every_final_letter_gives_the_final_place_points_tiebreaks_and_prize_of_the_rulebook(final):
    run, letters, _ = final
    codes = list(CFG.require(SwissConfig).tiebreaks)
    for c in run.categories:
        prizes = {r["sno"]: r for r in c.prizes.iter_rows(named=True) if r["amount"] > 0}
        for st in c.rankings[11].iter_rows(named=True):
            x = letters[f"player-{c.cat.id}-{st['sno']}-final"]
            b = block(x, "Final standing")
            unit = "point" if st["points"] == 1 else "points"
            assert b.lines[0] == f"Place {st['rank_label']} of {c.rankings[11].height}, {fmt(st['points'])} {unit}."
            assert [row[:2] for row in b.table[1:]] == [(k, fmt(st[k]) or "—") for k in codes]
            if st["sno"] in prizes:
                p = prizes[st["sno"]]
                m = re.match(r"Prize: Rs ([\d,]+) for place (\d+)", b.lines[1])
                assert Decimal(m[1].replace(",", "")) == p["amount"] and int(m[2]) == p["place"]
            else:
                assert b.lines[1] == "No prize: the 20 prizes go to the first places."


def test_the_open_winners_final_letter_pins_the_published_numbers(final):
    # outputs/national-junior-2024/prizes.csv (demo run): open, place 1, sno 2, Nair, Rohan,
    # 9.0 points, 50000.00; standings/round-11.csv: BH-C1 68, BH 72.5, SB 58.25, WIN 8, BWG 4.
    _, letters, _ = final
    x = letters["player-open-2-final"]
    assert x.lead == "The National Junior U-19 Open is over: you finished in place 1 with 9 points."
    b = block(x, "Final standing")
    assert b.lines[:2] == ("Place 1 of 104, 9 points.", "Prize: Rs 50,000 for place 1.")
    assert [row[:2] for row in b.table[1:]] == [("BH-C1", "68"), ("BH", "72.5"), ("SB", "58.25"),
                                                 ("DE", "—"), ("WIN", "8"), ("BWG", "4")]


def test_an_associations_letter_gives_its_players_its_ledger_row_and_its_rejected_entries(after5):
    run, letters, _ = after5
    e = run.entries
    for state in ("BR", "SK", "HP"):
        x = letters[f"association-{state.lower()}-round-05"]
        for c in run.categories:
            mine = c.players.filter(pl.col("state") == state)
            tables = [b for b in x.blocks if b.heading == f"{c.cat.name} — after round 5"]
            assert len(tables) == (1 if mine.height else 0)
            if mine.height:
                t = tables[0].table
                assert t[0] == ("Player", "SNo", "Round 5", "Pts", "Place", "Round 6")
                ranking = {r["sno"]: r for r in c.rankings[5].iter_rows(named=True)}
                assert {(row[1], row[3], row[4]) for row in t[1:]} == {
                    (str(s), fmt(ranking[s]["points"]), ranking[s]["rank_label"]) for s in mine["sno"]}
        row = e.ledger.filter(pl.col("state") == state).row(0, named=True)
        account = dict(block(x, "Fees and boarding").table[1:])
        assert account == {"Entries received": str(row["entries"]), "Entries accepted": str(row["accepted"]),
                           "Entry fees due": amount_text(row["fees_due"], "INR"),
                           "Late fees": amount_text(row["late_fees"], "INR"),
                           "Paid": amount_text(row["fees_paid"], "INR"),
                           "Balance": amount_text(row["balance"], "INR"),
                           "Boarding lump sums": amount_text(row["boarding_due"], "INR")}
        rejected = e.decisions.filter((pl.col("state") == state) & (pl.col("status") == "rejected"))
        shown = [b for b in x.blocks if b.heading == "Entries not accepted"]
        assert [r[0] for r in (shown[0].table[1:] if shown else ())] == rejected["name"].to_list()
    # Sikkim has not cleared its arrears: its four entries are rejected and paid for, so the
    # ledger owes the money back (balance = paid - due - late fee > 0).
    sk = letters["association-sk-round-05"]
    assert len(block(sk, "Entries not accepted").table) == 1 + 4
    assert all("has not cleared its arrears" in r[2] for r in block(sk, "Entries not accepted").table[1:])
    assert block(sk, "Fees and boarding").lines[0].endswith("is owed back to your association.")
    assert sk.lead == ("Round 5 is complete: here are your association's fees and boarding account "
                       "(none of its entries plays), and the bulletin (attached).")
    assert letters["association-hp-round-05"].lead == (
        "Round 5 is complete: here are your association's 7 players' results and pairings, your "
        "fees and boarding account, and the bulletin (attached).")


def test_the_office_report_lists_the_errors_early_draws_ties_same_state_log_and_audit(final):
    run, letters, _ = final
    x = letters[f"{OFFICE_KEY}-round-11"]
    errors = [f for f in run.findings if f.severity == "error"]
    assert len(block(x, "Errors").table) == 1 + len(errors) == 1 + 11
    # results.csv: the three early draws are in rounds 1, 1 and 9, none in round 11.
    assert block(x, "Early draws").lines == (
        "No draw before the move limit without the arbiter's consent in round 11.",
        "3 flags from other rounds: see the validation report.")
    tied = run.category("open").rankings[11].filter(pl.col("tied_after_all"))
    assert block(x, "Equal after every tie-break").lines[0] == (
        f"National Junior U-19 Open, after round 11, place {tied['rank_label'][0]} "
        f"({fmt(tied['points'][0])} points): "
        + ", ".join(f"{n} ({s})" for n, s in zip(tied["name"], tied["sno"], strict=True)))
    logs = [line for c in run.categories for line in c.rule_logs.get(11, [])]
    assert len(block(x, "Same-state rule").lines) == len(logs) == 8
    assert block(x, "Pairing audit").lines == ("Every recorded round is identical to the engine's pairing.",)


def test_the_office_report_of_round_5_shows_only_that_rounds_early_draws():
    # results.csv round 1 has two early draws: the round-1 report lists them, round 5's none.
    run, letters, _ = build(1)
    lines = block(letters[f"{OFFICE_KEY}-round-01"], "Early draws").lines
    assert len(lines) == 2 and all("drawn after" in line and "round 1 board" in line for line in lines)


def test_a_name_with_markup_is_escaped_in_the_html_body():
    def players(f):
        return f.with_columns(pl.when(pl.col("player_id") == "O001").then(pl.lit("<b>Naidu</b>, Rohan"))
                              .otherwise(pl.col("name")).alias("name"))

    run, letters, _ = build(5, players=players)
    x = next(x for x in letters.values() if x.to_name == "<b>Naidu</b>, Rohan")
    html = html_body(x, site_url="", signature="s", subject=x.subject)
    assert "<b>Naidu</b>" not in html and "Dear Rohan &lt;b&gt;Naidu&lt;/b&gt;," in html


# --------------------------------------------------------------------------- stable from run to run


def test_a_rerun_on_a_later_date_writes_the_same_letters(after5):
    _, letters, _ = after5
    _, again, _ = build(5, as_of=CFG.event.as_of + dt.timedelta(days=30))
    assert again == letters
    assert all(text_body(again[k], site_url="", signature="s") == text_body(letters[k], site_url="", signature="s")
               for k in letters)


def test_a_changed_result_changes_only_the_letters_it_concerns(final):
    run, letters, _ = final
    girls = run.category("girls")
    last = girls.results.filter((pl.col("round") == 11) & pl.col("black_id").is_not_null()).sort("board")[-1]
    line, was = last["line"][0], last["result"][0]
    flipped = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0"}[was]

    def results(f):
        return f.with_columns(pl.when(pl.col("line") == line).then(pl.lit(flipped))
                              .otherwise(pl.col("result")).alias("result"))

    run2, letters2, _ = build(results=results)
    assert set(letters2) == set(letters)
    changed = {k for k in letters if letters[k] != letters2[k]}
    # Concerned: the two players of the board, everyone whose standing row (points, place,
    # any tie-break) or prize moved, their associations where the table shows it.
    concerned, states = set(), set()
    for c, c2 in zip(run.categories, run2.categories, strict=True):
        a = {r["sno"]: r for r in c.rankings[11].iter_rows(named=True)}
        b = {r["sno"]: r for r in c2.rankings[11].iter_rows(named=True)}
        pa = {r["sno"]: r["amount"] for r in c.prizes.iter_rows(named=True) if r["amount"] > 0}
        pb = {r["sno"]: r["amount"] for r in c2.prizes.iter_rows(named=True) if r["amount"] > 0}
        state = dict(zip(c.players["sno"], c.players["state"], strict=True))
        ids = dict(zip(c.players["player_id"], c.players["sno"], strict=True))
        board = {ids[last["white_id"][0]], ids[last["black_id"][0]]} if c is girls else set()
        for s in a:
            if a[s] != b[s] or pa.get(s) != pb.get(s) or s in board:
                concerned.add(f"player-{c.cat.id}-{s}-final")
            if (a[s]["points"], a[s]["rank_label"], pa.get(s)) != (b[s]["points"], b[s]["rank_label"], pb.get(s)):
                states.add(state[s])
    office = {k for k in changed if k.startswith("office-")}
    assert {k for k in changed if k.startswith("player-")} == concerned
    assert {k for k in changed if k.startswith("association-")} == {f"association-{s.lower()}-final" for s in states}
    assert len(concerned) < 78 and len(states) < 28
    assert office <= {f"{OFFICE_KEY}-round-11"}


def test_the_round_5_letters_do_not_show_the_result_of_a_later_round(after5):
    run, letters, _ = after5
    x = letters["player-open-1-round-05"]
    assert [b.heading for b in x.blocks] == ["Round 5", "After round 5", "Round 6"]
    assert "Round 7" not in text_body(x, site_url="", signature="s")


def test_letters_do_not_change_when_the_next_rounds_pairing_is_entered_into_results_csv(after5):
    # The office enters round 6's boards (no results yet): the round is being played, the
    # engine pairs nothing new, and the round-5 letters read the boards from results.csv.
    run, letters, _ = after5
    added = []
    for c in run.categories:
        rows = pairing_rows(c.pairing.boards, c.pairing.setup, c.players, 6)
        added += [{"round": "6", "board": str(r["board"]), "white_id": r["white_id"],
                   "black_id": r["black_id"] or "", "result": r["result"] or ""} for r in rows.iter_rows(named=True)]

    def results(f):
        more = pl.DataFrame(added).with_columns(
            pl.lit(None, pl.String).alias("moves"), pl.lit(None, pl.String).alias("draw_consent"),
            (pl.int_range(pl.len()) + f["line"].max() + 1).cast(f.schema["line"]).alias("line"))
        return pl.concat([f, more.select(f.columns).cast(f.schema)])

    run6, again, _ = build(results=lambda f: results(f.filter(pl.col("round").cast(pl.Int64) <= 5)))
    assert all(c.pairing is None and c.done == 5 for c in run6.categories)
    assert {k: v for k, v in again.items() if k.startswith("player-")} == {
        k: v for k, v in letters.items() if k.startswith("player-")}


def test_association_letters_follow_the_latest_round_of_any_category_until_every_category_is_over():
    # Open complete (11 rounds), Girls only through round 5: the players' letters follow their
    # category; the association's letter is after round 11 but not the final one.
    def results(f):
        return f.filter(~(pl.col("white_id").str.starts_with("G") & (pl.col("round").cast(pl.Int64) > 5)))

    run, letters, _ = build(results=results)
    assert (run.category("open").done, run.category("girls").done) == (11, 5)
    assert "player-open-1-final" in letters and "player-girls-1-round-05" in letters
    hp = letters["association-hp-round-11"]
    assert hp.kind == "association-round" and "association-hp-final" not in letters
    assert [b.heading for b in hp.blocks][:2] == ["National Junior U-19 Open — final standing",
                                                  "National Junior Girls U-19 — after round 5"]


def test_a_run_whose_results_have_errors_writes_only_the_office_report_saying_why():
    def results(f):
        return f.with_columns(pl.when(pl.col("line") == f["line"].min()).then(pl.lit("X999"))
                              .otherwise(pl.col("white_id")).alias("white_id"))

    run, letters, _ = build(5, results=results)
    assert run.blocked
    assert [x.kind for x in letters.values()] == ["office"]
    x = next(iter(letters.values()))
    assert run.blocked in block(x, "Validation").lines
    assert any(r[0] == "results.csv" for r in block(x, "Errors").table[1:])

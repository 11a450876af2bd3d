"""An event taken over from a TRF keeps its history exactly (DESIGN.md, TRF import)."""

import datetime as dt
import re
from dataclasses import replace
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from flows import io
from transforms.fide.trf import TrfFormat, parse_trf, write_trf
from transforms.kinds import parse_event_config
from transforms.national_junior.schemas import SCHEMAS as SWISS_SCHEMAS
from transforms.round_robin.config import RoundRobinConfig
from transforms.swiss import event as swiss
from transforms.swiss import rounds as sr
from transforms.swiss.config import Category, SwissConfig
from transforms.swiss.exports import as_played, public_trf
from transforms.swiss.takeover import players_from_trf, results_from_trf

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
NJ = ROOT / "inputs" / "national-junior-2024"

TAKEOVER = """
[event]
id = "takeover"
name = "Taken over"
kind = "swiss"
start = 2024-09-16
end = 2024-09-24
venue = "v"
organiser = "o"
currency = "INR"
contact = "c"
[publish]
sender = "a@b.example"
[swiss]
rounds = 11
dutch_edition = "2017"
categories = [{ id = "open", name = "Open" }]
"""


def demo_run():
    cfg = parse_event_config((NJ / "event.toml").read_text())
    raw = {n: io.read_csv_strings(NJ / n) for n in SWISS_SCHEMAS if (NJ / n).exists()}
    return swiss.prepare(cfg, raw, cfg.event.as_of)


def test_scorecard_survives_export_to_trf_and_takeover():
    run = demo_run()
    c = run.categories[0]
    text = write_trf(swiss.engine_input(run, c, c.done + 1, sr.RoundSetup({}, frozenset())))
    t = parse_trf(text)
    players = players_from_trf(t, section="open")
    results = results_from_trf(t)
    raw = {"players.csv": (players.with_row_index("line", offset=2).with_columns(pl.col("line").cast(pl.Int64)), []),
           "results.csv": (results.with_row_index("line", offset=2).with_columns(pl.col("line").cast(pl.Int64)), [])}
    taken = swiss.prepare(parse_event_config(TAKEOVER), raw, dt.date(2024, 9, 24))
    assert not taken.blocked, taken.findings
    t2 = taken.categories[0]
    assert t2.done == c.done
    # player_id is the start number, and start numbers are kept
    assert_frame_equal(t2.card.sort("sno", "round"), c.card.sort("sno", "round"))
    assert results.filter(pl.col("result") == "+/-").height >= 1  # the demo's forfeit


def demo_trf() -> tuple[str, list[int], int]:
    """The demo's first category as a TRF before its next round: (text, start numbers, rounds)."""
    run = demo_run()
    c = run.categories[0]
    t = write_trf(swiss.engine_input(run, c, c.done + 1, sr.RoundSetup({}, frozenset())))
    parsed = parse_trf(t)
    return t, [p.sno for p in parsed.players], parsed.total_rounds


def test_import_trf_writes_an_event_that_reads_and_keeps_its_acceleration(tmp_path):
    """FIDE C.04.5: a file without virtual points gives ``acceleration = "none"``; one whose
    XXA/250 records are the Baku method's (C.04.5.1) gives ``"baku"``: the next rounds are
    paired on the same scores as in the program the event came from."""
    from flows.cli.import_trf import import_trf
    from transforms.core.model import Acceleration
    from transforms.fide.acceleration import acceleration_records

    text, snos, rounds = demo_trf()
    plain, baku = tmp_path / "plain.trf", tmp_path / "baku.trf"
    plain.write_text(text)
    baku.write_text(text.rstrip("\n") + "\n" + "\n".join(
        acceleration_records(Acceleration.BAKU, snos, rounds)) + "\n")
    for trf, want in ((plain, Acceleration.NONE), (baku, Acceleration.BAKU)):
        event = tmp_path / trf.stem
        written = import_trf(trf, event, category="open")
        assert {p.name for p in written} == {"players.csv", "results.csv", "event.toml"}
        cfg = parse_event_config((event / "event.toml").read_text())
        assert cfg.require(SwissConfig).acceleration is want and cfg.require(SwissConfig).rounds == rounds


def test_import_trf_refuses_virtual_points_it_cannot_carry_on(tmp_path, capsys):
    """Decision: virtual points that are not the Baku method's are refused with the first
    player and round that differ (exit 2, nothing written), never dropped."""
    from flows.cli.main import main
    from transforms.fide.acceleration import baku_virtual_points, virtual_points_records

    text, snos, rounds = demo_trf()
    points = baku_virtual_points(snos, rounds)
    first = min(points)
    points[first] = (0.5, *points[first][1:])  # round 1: half a point where Baku gives one
    trf = tmp_path / "other.trf"
    trf.write_text(text.rstrip("\n") + "\n" + "\n".join(virtual_points_records(points)) + "\n")
    event = tmp_path / "event"
    assert main(["import-trf", str(trf), str(event)]) == 2
    err = capsys.readouterr().err
    assert f"player {first} round 1: 0.5" in err and "C.04.5.1 gives 1" in err
    assert not event.exists() or not any(event.iterdir())


# ------------------------------------------------------------------ what event.toml is given

DAY = dt.date(2026, 12, 7)
"""The day the tests take over their files (the start assumed when a file dates nothing)."""


def played(rnd: int, white: int, black: int, result: str = "=") -> list[tuple]:
    """The two scorecard rows of a game: ``1``, ``0``, ``=`` over the board, ``+`` a forfeit
    White won (Black did not come; the pairing gave both their colours)."""
    if result == "+":
        return [(rnd, white, black, "w", 1.0, "forfeit_win"), (rnd, black, white, "b", 0.0, "forfeit_loss")]
    w = {"1": 1.0, "0": 0.0, "=": 0.5}[result]
    return [(rnd, white, black, "w", w, "played"), (rnd, black, white, "b", 1.0 - w, "played")]


def swiss_trf(rows: list[tuple], *, players: int = 8, header: tuple[str, ...] = ()) -> str:
    """A TRF16 of ``players`` players (start number order = rating order) with the scorecard
    ``rows`` and the tournament records ``header``, and no initial-colour record (``XXC``/``152``),
    as Swiss-Manager and Vega write their files; ``XXR 5``."""
    from transforms.core.model import SCORECARD_SCHEMA
    from transforms.fide.trf import TrfFormat, tournament_from_scorecard

    snos = list(range(1, players + 1))
    frame = pl.DataFrame({"sno": snos, "name": [f"Player {i}" for i in snos],
                          "rating": [2400 - 10 * i for i in snos]})
    card = pl.DataFrame(rows, schema=list(SCORECARD_SCHEMA), orient="row")
    t = tournament_from_scorecard(frame, card, name="Club Open", total_rounds=5)
    text = write_trf(t, format=TrfFormat.TRF16)
    assert "XXC" not in text and "152" not in text.split()
    return "\n".join([*header, text])


# Round 1 of 8 players as the Dutch system pairs it (S1 1-4 against S2 5-8). With the initial
# colour Black, the higher-ranked player has Black on an odd pairing number, White on an even:
#   board  white  black
#     1      5      1      pairing number 1 (odd)  -> Black
#     2      2      6      pairing number 2 (even) -> White
#     3      7      3
#     4      4      8
BLACK_ROUND_1 = [(5, 1), (2, 6), (7, 3), (4, 8)]
WHITE_ROUND_1 = [(b, w) for w, b in BLACK_ROUND_1]


def take_over(tmp_path: Path, text: str, name: str = "ev"):
    from flows.cli.import_trf import take_over_trf

    trf = tmp_path / f"{name}.trf"
    trf.write_text(text)
    done = take_over_trf(trf, tmp_path / name, today=DAY)
    return done, {s.key: s for s in done.settings}


def audit_of(folder: Path, **keys: str) -> list[dict]:
    """The audit's differences of the event folder (its event.toml's ``[swiss]`` ``keys``
    replaced)."""
    text = (folder / "event.toml").read_text()
    for key, value in keys.items():
        text = re.sub(rf"(?m)^{key} = .*$", f'{key} = "{value}"', text)
    cfg = parse_event_config(text)
    raw = {n: io.read_csv_strings(folder / n) for n in cfg.files if (folder / n).exists()}
    run = swiss.run_swiss(cfg, raw, DAY)
    assert not run.blocked, run.findings
    (c,) = run.categories
    return c.audit


@pytest.mark.parametrize(("boards", "colour"), [(BLACK_ROUND_1, "black"), (WHITE_ROUND_1, "white")])
def test_without_an_initial_colour_record_round_1_as_played_gives_it_and_the_audit_agrees(
        tmp_path, boards, colour):
    """FIDE C.04.3 E.5: a file without XXC/152 whose round 1 gave player 1 Black (or White) on
    every board imports with that initial colour, and the imported event's audit finds round 1
    paired as the engine pairs it; with the other colour it would report every board reversed."""
    rows = [r for w, b in boards for r in played(1, w, b)]
    done, notes = take_over(tmp_path, swiss_trf(rows))
    cfg = parse_event_config((tmp_path / "ev" / "event.toml").read_text())
    assert cfg.require(SwissConfig).initial_colour.value == colour
    note = notes["swiss.initial_colour"]
    assert note.basis.name == "PLAYED" and f"all 4 games of round 1 give {colour}" in note.why
    had = "Black" if colour == "black" else "White"
    assert f"player 1, pairing number 1 of round 1, had {had} against 5" in note.why
    assert [d["round"] for d in audit_of(tmp_path / "ev")] == []
    other = "white" if colour == "black" else "black"
    reversed_ = audit_of(tmp_path / "ev", initial_colour=other)
    assert [d["round"] for d in reversed_] == [1] and "engine only" in reversed_[0]["difference"]


def test_round_1_read_with_the_pairing_numbers_of_its_players_a_bye_and_a_forfeit(tmp_path):
    """FIDE C.04.3 E.5 with the pairing numbers of round 1 (bbpPairings numbers only the
    players paired in the round): player 1 took a half-point bye, so player 2 is pairing number
    1 — his Black says Black, where his even start number alone would say White; a forfeit
    keeps the colours the pairing gave it.

        board  white  black          (9 players, 1 on a requested bye)
          1      6      2   draw     pairing number 1 -> Black
          2      3      7   draw     pairing number 2 -> White
          3      8      4   draw
          4      5      9   +/-      (forfeit: 9 did not come)
    """
    rows = [(1, 1, None, None, 0.5, "HPB"), *played(1, 6, 2), *played(1, 3, 7), *played(1, 8, 4),
            *played(1, 5, 9, "+")]
    done, notes = take_over(tmp_path, swiss_trf(rows, players=9))
    assert notes["swiss.initial_colour"].value == '"black"'
    assert "all 4 games" in notes["swiss.initial_colour"].why
    assert "player 2, pairing number 1 of round 1, had Black against 6" in notes["swiss.initial_colour"].why
    assert [d["round"] for d in audit_of(tmp_path / "ev")] == []


@pytest.mark.parametrize(("boards", "colour", "said"), [
    ([(5, 1), (2, 6), (7, 3), (8, 4)], "black", "1 of the 4 games of round 1 give white, 3 black "
     "(the other way: 8-4); took the majority"),
    ([(5, 1), (2, 6), (3, 7), (8, 4)], "black", "2 of the 4 games of round 1 give white, 2 black "
     "(the other way: 3-7, 8-4); took the top board's, on an even split"),
])
def test_round_1_that_disagrees_with_itself_gives_the_majority_as_assumed_with_the_numbers(
        tmp_path, boards, colour, said):
    """Decision: boards of round 1 that contradict each other (an arbiter's hand) are outvoted
    by the majority, an even split by the top board's; the setting is listed as assumed with
    the count and the boards that disagree."""
    _, notes = take_over(tmp_path, swiss_trf([r for w, b in boards for r in played(1, w, b)]))
    note = notes["swiss.initial_colour"]
    assert note.value == f'"{colour}"' and note.basis.name == "ASSUMED" and said in note.why


def test_without_record_or_game_of_round_1_white_is_kept_and_said_to_be_assumed(tmp_path):
    _, notes = take_over(tmp_path, swiss_trf([]))
    note = notes["swiss.initial_colour"]
    assert (note.value, note.basis.name) == ('"white"', "ASSUMED")
    assert "no initial-colour record (XXC/152) and round 1 no game" in note.why


def test_an_initial_colour_record_is_kept_and_a_round_1_that_contradicts_it_is_said(tmp_path):
    """The other program paired with its ``XXC``: kept; that round 1 says otherwise is said."""
    rows = [r for w, b in BLACK_ROUND_1 for r in played(1, w, b)]
    _, notes = take_over(tmp_path, swiss_trf(rows, header=("XXC white1",)))
    note = notes["swiss.initial_colour"]
    assert (note.value, note.basis.name) == ('"white"', "FILE")
    assert "the XXC record (round 1 as played disagrees: 0 of the 4 games" in note.why


JUNE_10, JUNE_12 = dt.date(2025, 6, 10), dt.date(2025, 6, 12)


@pytest.mark.parametrize(("start", "end", "days", "basis"), [
    ("2025/06/10", "2025/06/12", (JUNE_10, JUNE_12), "FILE"),  # Swiss-Manager, the TRF's own
    ("2025-06-10", "2025-06-12", (JUNE_10, JUNE_12), "FILE"),
    ("10.06.2025", "12.06.2025", (JUNE_10, JUNE_12), "FILE"),
    ("10/06/2025", "05/08/2025", (JUNE_10, dt.date(2025, 8, 5)), "FILE"),  # Vega; 8 May is no end of 6 October
    ("10/06/2025", "12/06/2025", (JUNE_10, JUNE_12), "ASSUMED"),  # or 6 October to 6 December
])
def test_start_and_end_come_from_042_and_052_as_real_files_write_them(tmp_path, start, end,
                                                                      days, basis):
    """TRF 042/052 as Swiss-Manager (YYYY/MM/DD), other programs (YYYY-MM-DD, DD.MM.YYYY) and
    Vega (DD/MM/YYYY) write them. Decision: day/month/year first; where month/day/year reads
    the pair as an event too, the dates are listed as assumed."""
    _, notes = take_over(tmp_path, swiss_trf([], header=(f"042 {start}", f"052 {end}")))
    cfg = parse_event_config((tmp_path / "ev" / "event.toml").read_text())
    assert (cfg.event.start, cfg.event.end) == days
    for key, tag, text in (("event.start", "042", start), ("event.end", "052", end)):
        assert notes[key].basis.name == basis and f"the {tag} record {text!r}" in notes[key].why
    if basis == "ASSUMED":
        assert "read as day/month/year: another order reads another day" in notes["event.start"].why


def test_a_date_that_reads_two_ways_is_assumed_in_day_month_order_and_said():
    from transforms.swiss.takeover import read_trf_date

    assert read_trf_date("03/04/2025") == (dt.date(2025, 4, 3), "day/month/year", True)
    assert read_trf_date("06/13/2025") == (dt.date(2025, 6, 13), "month/day/year", False)
    assert read_trf_date("25/06/10") == (dt.date(2025, 6, 10), "year/month/day", True)  # 132
    assert read_trf_date("31/02/2025") is None and read_trf_date("10th June") is None


def test_without_042_and_052_the_round_dates_of_132_give_start_and_end(tmp_path):
    """TRF 132: the round dates, YY/MM/DD in the round columns (92-99, 102-109, ...)."""
    dates = "132" + " " * 86 + "".join(f"  {d:<8}" for d in ("25/06/10", "25/06/11", "25/06/13"))
    _, notes = take_over(tmp_path, swiss_trf([], header=(dates,)))
    cfg = parse_event_config((tmp_path / "ev" / "event.toml").read_text())
    assert (cfg.event.start, cfg.event.end) == (dt.date(2025, 6, 10), dt.date(2025, 6, 13))
    assert "no 042 record: the date of round 1 in the 132 record ('25/06/10'" in notes["event.start"].why
    assert "the date of round 3" in notes["event.end"].why


def test_an_unreadable_date_is_assumed_and_said_never_silently_today(tmp_path):
    _, notes = take_over(tmp_path, swiss_trf([], header=("042 10th June", "052 12th June")))
    cfg = parse_event_config((tmp_path / "ev" / "event.toml").read_text())
    assert cfg.event.start == cfg.event.end == DAY
    assert notes["event.start"].basis.name == "ASSUMED"
    assert "the 042 record '10th June' is no date and no readable round date (132): today's date" \
        in notes["event.start"].why
    assert "that day is assumed, so is this" in notes["swiss.dutch_edition"].why


@pytest.mark.parametrize(("header", "edition", "basis"), [
    (("042 2025/06/30",), "2017", "ASSUMED"),  # the day before the 2025 rules
    (("042 2025/07/01",), "2025", "ASSUMED"),  # their first day
    (("042 2026/03/01", "092 FIDE_DUTCH_2017"), "2017", "FILE"),  # the file's own edition
    (("042 2025/03/01", "192 FIDE_DUTCH"), "2017", "ASSUMED"),  # a bare code is dated (TEC 192 table)
])
def test_the_rules_edition_is_the_files_else_the_one_in_force_on_the_first_day(
        tmp_path, header, edition, basis):
    """FIDE C.04.3 as revised in 2024 applies from 1 July 2025 (``DUTCH_2025_IN_FORCE``)."""
    from transforms.core.model import DUTCH_2025_IN_FORCE, DutchEdition

    assert DutchEdition.in_force_on(DUTCH_2025_IN_FORCE) is DutchEdition.RULES_2025
    assert DutchEdition.in_force_on(DUTCH_2025_IN_FORCE - dt.timedelta(days=1)) is DutchEdition.RULES_2017
    _, notes = take_over(tmp_path, swiss_trf([], header=header))
    cfg = parse_event_config((tmp_path / "ev" / "event.toml").read_text())
    assert cfg.require(SwissConfig).dutch_edition.value == edition and notes["swiss.dutch_edition"].basis.name == basis


def test_import_trf_prints_every_setting_and_what_it_assumed_and_writes_them_atop_event_toml(
        tmp_path, capsys):
    from flows.cli.main import main

    rows = [r for w, b in BLACK_ROUND_1 for r in played(1, w, b)]
    trf = tmp_path / "club.trf"
    trf.write_text(swiss_trf(rows, header=("042 10th June", "202 BH/C1, BH, SB")))
    assert main(["import-trf", str(trf), str(tmp_path / "ev")]) == 0
    out = capsys.readouterr().out.splitlines()
    listed = [ln.strip() for ln in out[out.index(
        "what event.toml took from the file and what it assumed (also at its top):") + 1:]]
    keys = [ln.split(" = ")[0].split(": ", 1)[1] for ln in listed]
    assert keys == ["event.start", "event.end", "swiss.rounds", "swiss.dutch_edition",
                    "swiss.initial_colour", "swiss.acceleration", "swiss.pab_points",
                    "swiss.tiebreaks", "event.venue, organiser, contact, currency; publish.sender"]
    assert listed[0].startswith("assumed: event.start = ") and "'10th June' is no date" in listed[0]
    assert listed[4].startswith('read from the games: swiss.initial_colour = "black"')
    assert listed[7] == "from the file: swiss.tiebreaks = [BH-C1, BH, SB] — the 202 record"
    toml = (tmp_path / "ev" / "event.toml").read_text()
    assert [ln[4:] for ln in toml.splitlines() if ln.startswith("#   ")] == listed
    cfg = parse_event_config(toml)
    assert cfg.require(SwissConfig).tiebreaks == ("BH-C1", "BH", "SB")


HBCC = {  # Vega's exports (tests/data/tiebreak/*/SOURCE.md): round 1 as recorded
    "hbcc_2025_february_blitz": ("2017", "white", "24 of the 25 games of round 1 give white, 1 black "
                                 "(the other way: 22-50)"),
    "hbcc_2025_april_blitz": ("2017", "black", "all 19 games of round 1 give black"),
    "hbcc_2025_hobsons_bay_cup": ("2017", "white", "10 of the 11 games of round 1 give white, 1 black "
                                  "(the other way: 32-25)"),
    "hbcc_2025_juniors_rapid": ("2025", "white", "all 41 games of round 1 give white"),
    "hbcc_2026_juniors_rapid": ("2025", "white", "49 of the 50 games of round 1 give white, 1 black "
                                "(the other way: 32-84)"),
}


@pytest.mark.parametrize("event", sorted(HBCC))
def test_vega_exports_import_with_their_dates_rules_and_round_1_colours(tmp_path, event):
    """Real club events run in Vega (SOURCE.md): their TRFs have no initial-colour record;
    the dates are Vega's (its tourstat page, DD/MM/YYYY, as SOURCE.md quotes them) as 042 and
    052 records. April: Black on all 19 boards of round 1, where the old import wrote White
    and the audit found every board of round 1 reversed."""
    folder = DATA / "tiebreak" / event
    source = (folder / "SOURCE.md").read_text()
    begin, end = (re.search(rf"Date {w}: (\S+)", source).group(1) for w in ("Begin", "End"))
    text = (folder / "normalized" / "tournament.trf").read_text()
    done, notes = take_over(tmp_path, f"042 {begin}\n052 {end}\n{text}")
    edition, colour, said = HBCC[event]
    cfg = parse_event_config((tmp_path / "ev" / "event.toml").read_text())
    assert cfg.event.start == dt.datetime.strptime(begin, "%d/%m/%Y").date()
    assert cfg.event.end == dt.datetime.strptime(end, "%d/%m/%Y").date()
    assert notes["event.start"].basis.name == "FILE"
    assert cfg.require(SwissConfig).dutch_edition.value == edition and cfg.require(SwissConfig).initial_colour.value == colour
    assert said in notes["swiss.initial_colour"].why


def test_a_vega_event_audited_after_import_keeps_round_1_colours(tmp_path):
    """The February and April blitzes (Vega, SOURCE.md): after import, the audit of round 1
    finds April's as the engine pairs it, February's but for the one board the import listed
    as disagreeing (22-50)."""
    for event, want in (("hbcc_2025_april_blitz", []),
                        ("hbcc_2025_february_blitz", ["recorded only [(22, 50)]; engine only [(50, 22)]"])):
        text = (DATA / "tiebreak" / event / "normalized" / "tournament.trf").read_text()
        take_over(tmp_path, text, event)
        assert [d["difference"] for d in audit_of(tmp_path / event) if d["round"] == 1] == want


def test_public_trf_leaves_every_birth_date_blank_and_keeps_everything_else():
    """DESIGN.md "Publishing on a bad day" (public files carry no birth date). Decision: blank,
    not the year (the minors of a junior event): columns 70-79 of every 001 record empty."""
    run = demo_run()
    c = run.categories[0]
    t = swiss.engine_input(run, c, c.done + 1, sr.RoundSetup({}, frozenset()))
    assert all(p.birth for p in t.players)  # the engine's (and the office's) view has them
    shown = public_trf(t)
    assert [p.birth for p in shown.players] == [""] * len(t.players)
    assert shown == replace(t, players=tuple(replace(p, birth="") for p in t.players))
    records = [ln for ln in write_trf(shown).splitlines() if ln.startswith("001")]
    assert len(records) == c.players.height and all(ln[69:79].strip() == "" for ln in records)


def test_the_exports_step_puts_a_public_trf_without_birth_dates_on_each_category_with_a_round():
    """The rulebook finishes before the pages (issue "Step 19"): the exports step fills
    ``CategoryRun.public_trf`` (the flow only writes it); a category with no complete round has
    none."""
    run = demo_run()
    swiss.rank_rounds(run)
    swiss.export_files(run)
    for c in run.categories:
        assert c.public_trf is not None
        text = write_trf(c.public_trf)
        dates = {d.strftime("%Y/%m/%d") for d in c.players["birth_date"].drop_nulls()}
        assert dates and not any(d in text for d in dates)
        assert len({r[0] for r in c.public_trf.card_rows}) == c.done  # the complete rounds
    c = run.categories[0]
    c.done = 0
    swiss.export_files(run)
    assert c.public_trf is None


@pytest.mark.parametrize(("cycles", "code", "kind"), [(1, "FIDE_ROUNDROBIN", "Round robin"),
                                                      (2, "FIDE_DOUBLEROUNDROBIN", "Double round robin")])
def test_a_round_robins_trf_names_the_berger_tables_as_its_type(cycles, code, kind):
    """FIDE C.04 Annex 2 (092; TRF-2026 192): a round robin's TRF names FIDE's code of the
    Berger tables (single or double) instead of a Dutch edition; a Swiss's stays as it is."""
    run = demo_run()
    c = run.categories[0]
    t = swiss.engine_input(run, c, c.done + 1, sr.RoundSetup({}, frozenset()))
    assert t.edition is not None
    assert as_played(t, None) is t
    rr = RoundRobinConfig(categories=(Category("open", "Open"),), cycles=cycles, draw_seed=1)
    for fmt in TrfFormat:
        got = as_played(replace(t, format=fmt), rr)
        assert got.edition is None
        assert got.header.type == f"Individual: {kind} (FIDE Berger tables)"
        assert got.header.encoded_type == (code if fmt is TrfFormat.TRF_2026 else "")
        assert got.players == t.players

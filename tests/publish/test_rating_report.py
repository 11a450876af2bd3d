"""The FIDE rating report of a category and its check (transforms/fide/rating_report.py,
``[fide_report]`` in event.toml, ``chessfed check-trf``)."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from functools import cache
from pathlib import Path

import polars as pl
import pytest

from flows import io
from flows.cli import check_trf
from transforms.core.errors import ConfigError, Severity
from transforms.fide.rating_report import (
    RatingReportRules,
    check_rating_report,
    rating_report,
    report_header,
    tiebreak_code,
)
from transforms.fide.trf import TrfFormat, parse_trf, write_trf
from transforms.kinds import parse_event_config
from transforms.national_junior.schemas import SCHEMAS as SWISS_SCHEMAS
from transforms.swiss import event as swiss
from transforms.swiss.config import SwissConfig
from transforms.swiss.exports import category_rating_report, reported
from transforms.swiss.rounds import trf_players

ROOT = Path(__file__).resolve().parents[2]
NJ = ROOT / "inputs" / "national-junior-2024"


@cache
def demo():
    """The demo's Open after its last round: (config, category run, final standings)."""
    cfg = parse_event_config((NJ / "event.toml").read_text())
    raw = {n: io.read_csv_strings(NJ / n) for n in SWISS_SCHEMAS if (NJ / n).exists()}
    run = swiss.prepare(cfg, raw, cfg.event.as_of)
    c = run.category("open")
    return cfg, c, swiss.standings(run, c, c.done)


def report(fmt: TrfFormat | None = None):
    cfg, c, ranking = demo()
    rules = cfg.table(RatingReportRules) if fmt is None else replace(cfg.table(RatingReportRules), format=fmt)
    s = cfg.table(SwissConfig)
    players = trf_players(c.players)
    return rating_report(
        players, c.card, ranking, name=f"{cfg.event.name} — {c.cat.name}",
        header=report_header(rules, start=cfg.event.start, end=cfg.event.end, players=players,
                             tiebreaks=s.tiebreaks),
        total_rounds=s.rounds, edition=s.dutch_edition, initial_colour=s.initial_colour.colour,
        format=rules.format, tournament_code=rules.tournament_codes["open"])


def test_rating_report_header_from_event_toml():
    text = write_trf(report())
    lines = text.splitlines()
    assert lines[0].startswith("### TRF-2026")
    want = ["022 Karnal", "032 IND", "042 2024/09/16", "052 2024/09/24", "062 104",
            "092 Individual: Swiss-System (FIDE Dutch System)", "102 IA Kajal Budhiraja",
            "122 90 minutes + 30 seconds per move from move 1", "142 11", "152 W",
            "182 chessfed", "192 FIDE_DUTCH_2017", "202 BH/C1,BH,SB,DE,WIN,BWG",
            "212 PTS,BH/C1,BH,SB,DE,WIN,BWG", "222 5400+30",
            "### FIDE tournament code 370073"]
    for w in want:
        assert w in lines, w
    dates = next(ln for ln in lines if ln.startswith("132"))
    assert [dates[91 + 10 * i:99 + 10 * i] for i in (0, 1, 2, 10)] == [
        "24/09/16", "24/09/17", "24/09/17", "24/09/24"]


def test_rating_report_counts_rated_players():
    cfg, c, _ = demo()
    rated = c.players.filter(pl.col("rating").fill_null(0) > 0).height
    assert rated < c.players.height  # the demo has unrated players
    assert f"072 {rated}" in write_trf(report()).splitlines()


def test_rating_report_players_as_players_csv_has_them():
    cfg, c, _ = demo()
    t = parse_trf(write_trf(report()))
    by_sno = {p.sno: p for p in t.players}
    assert len(by_sno) == c.players.height
    for r in c.players.iter_rows(named=True):
        p = by_sno[r["sno"]]
        assert (p.name, p.fed, p.fide_id, p.title) == (r["name"], r["nationality"],
                                                       r["fide_id"], r["title"] or "")
        assert p.sex == {"M": "m", "F": "w"}[r["gender"]]
        assert p.birth == r["birth_date"].strftime("%Y/%m/%d")
        assert p.rating == (r["rating"] or 0)


def test_rating_report_rank_is_the_published_final_standings():
    _, _, ranking = demo()
    t = parse_trf(write_trf(report()))
    assert {p.sno: p.rank for p in t.players} == dict(zip(ranking["sno"], ranking["rank"]))
    # not points then start number (the engine view's informative rank)
    by_points = sorted(t.players, key=lambda p: (-p.points, p.sno))
    assert sum(p.rank != i for i, p in enumerate(by_points, start=1)) > 0


def test_rating_report_unrated_player_has_a_blank_rating():
    t = report()
    unrated = [p.sno for p in t.players if p.rating == 0]
    assert unrated
    for sno in unrated:
        line = next(ln for ln in write_trf(t).splitlines() if ln.startswith(f"001 {sno:4d}"))
        assert line[48:52] == "    "


def test_rating_report_withdrawn_player_has_every_round_on_the_line():
    # withdrawals.csv: O012 withdrew from round 8
    _, c, _ = demo()
    sno = int(c.players.filter(pl.col("player_id") == "O012")["sno"][0])
    line = next(ln for ln in write_trf(report()).splitlines() if ln.startswith(f"001 {sno:4d}"))
    entries = [line[91 + 10 * i:99 + 10 * i] for i in range(11)]
    assert entries[7:] == ["0000 - -"] * 4
    assert "0000 - -" not in entries[:7]


def test_rating_report_codes_games_and_byes_as_the_scorecard_has_them():
    _, c, _ = demo()
    t = parse_trf(write_trf(report()))
    assert sorted(t.card_rows) == sorted(c.card.select(
        "round", "sno", "opponent", "colour", "points", "kind").iter_rows())


def test_rating_report_of_the_demo_has_nothing_fide_would_reject():
    text = write_trf(report())
    found = check_rating_report(parse_trf(text, source="r.trf"), source="r.trf")
    assert [f for f in found if f.severity is Severity.ERROR] == []


@pytest.mark.parametrize("fmt", list(TrfFormat))
def test_rating_report_round_trips_in_both_formats(fmt):
    t = report(fmt)
    text = write_trf(t)
    assert text.splitlines()[0] == fmt.marker
    assert parse_trf(text) == t
    if fmt is TrfFormat.TRF16:
        assert "XXR 11" in text and "092 Individual: Swiss-System (FIDE Dutch System)" in text
        assert not any(ln[:3] in ("182", "202", "212", "222") for ln in text.splitlines())


def test_tiebreak_codes_are_written_with_a_slash():
    assert [tiebreak_code(c) for c in ("BH-C1", "bh", "AOB-M1")] == ["BH/C1", "BH", "AOB/M1"]


# --------------------------------------------------------------------------- the check


def spoil(text: str, sno: int, a: int, b: int, value: str) -> str:
    """``text`` with columns a-b (1-based) of player ``sno``'s line replaced by ``value``."""
    out = []
    for ln in text.splitlines():
        if ln.startswith(f"001 {sno:4d}"):
            ln = ln[:a - 1] + f"{value:<{b - a + 1}}"[: b - a + 1] + ln[b:]
        out.append(ln)
    return "\n".join(out) + "\n"


def findings(text: str) -> list[tuple[str, str, str]]:
    found = check_rating_report(parse_trf(text, source="r.trf"), source="r.trf")
    return [(str(f.severity), f.column, f.reason) for f in found]


def test_check_missing_fide_id_is_an_error_on_its_line():
    text = spoil(write_trf(report()), 5, 58, 68, "")
    found = check_rating_report(parse_trf(text, source="r.trf"), source="r.trf")
    [f] = [f for f in found if f.severity is Severity.ERROR]
    assert f.column == "FIDE id (58-68)" and "no FIDE ID" in f.reason
    assert f.value.startswith("001    5") and text.splitlines()[f.line - 1] == f.value


def test_check_new_player_needs_birth_date_and_sex():
    t = report()
    new = next(p for p in t.players if p.rating == 0)
    text = spoil(spoil(write_trf(t), new.sno, 70, 79, ""), new.sno, 10, 10, "")
    got = [(s, c) for s, c, _ in findings(text)]
    assert ("error", "birth date (70-79)") in got and ("error", "sex (10)") in got
    rated = next(p for p in t.players if p.rating)
    assert ("warning", "birth date (70-79)") in [
        (s, c) for s, c, _ in findings(spoil(write_trf(t), rated.sno, 70, 79, ""))]


def test_check_sex_f_is_an_error():
    got = findings(spoil(write_trf(report()), 3, 10, 10, "f"))
    assert any(c == "sex (10)" and "w for a woman" in r for _, c, r in got)


def test_check_points_that_do_not_add_up():
    t = report()
    p = t.players[0]
    text = spoil(write_trf(t), p.sno, 81, 84, f"{p.points + 1:4.1f}")
    assert any(c == "points" and s == "error" for s, c, _ in findings(text))


def test_check_a_game_the_two_lines_record_differently():
    #  player 2 beat 54 in round 1 ("54 b 1"); make 54's line say it won too
    text = write_trf(report())
    line54 = next(ln for ln in text.splitlines() if ln.startswith("001   54"))
    assert line54[91:99] == "   2 w 0"
    text = text.replace(line54, line54[:91] + "   2 w 1" + line54[99:])
    points54 = next(p.points for p in report().players if p.sno == 54)
    text = spoil(text, 54, 81, 84, f"{points54 + 1:4.1f}")
    got = findings(text)
    assert any(c == "round 1" and "both have colour" not in r and "do not match" in r
               for _, c, r in got)


def test_check_unfinished_tournament_and_missing_mandatory_records():
    text = "\n".join(ln for ln in write_trf(report()).splitlines()
                     if not ln.startswith(("022", "102", "132")))
    text = text.replace("142 11", "142 13")
    got = [(s, c) for s, c, _ in findings(text)]
    for want in [("error", "022 city"), ("error", "102 chief arbiter"),
                 ("error", "132 round dates"), ("error", "142 rounds")]:
        assert want in got


def test_check_062_that_disagrees_is_a_warning():
    text = write_trf(report()).replace("062 104", "062 105")
    assert ("warning", "062 number of players") in [(s, c) for s, c, _ in findings(text)]


def test_check_trf_command_exit_status(tmp_path, capsys):
    good = tmp_path / "good.trf"
    good.write_text(write_trf(report()))
    assert check_trf.run(check_trf_args(good)) == 0
    bad = tmp_path / "bad.trf"
    bad.write_text(spoil(good.read_text(), 5, 58, 68, ""))
    out_csv = tmp_path / "found.csv"
    assert check_trf.run(check_trf_args(bad, out_csv)) == 1
    out = capsys.readouterr().out
    assert f"{bad}:" in out and "no FIDE ID" in out and "1 error," in out
    assert "FIDE id (58-68)" in out_csv.read_text()
    broken = tmp_path / "broken.trf"
    broken.write_text(good.read_text().replace(" 2480 IND", " 24x0 IND"))
    assert check_trf.run(check_trf_args(broken)) == 3


def check_trf_args(path: Path, csv: Path | None = None):
    from flows.cli.main import build_parser

    argv = ["check-trf", str(path)] + (["--csv", str(csv)] if csv else [])
    return build_parser().parse_args(argv)


# --------------------------------------------------------------------------- event.toml


def nj_toml(**changes: str) -> str:
    text = (NJ / "event.toml").read_text()
    for old, new in changes.items():
        assert old in text, old
        text = text.replace(old, new)
    return text


@pytest.mark.parametrize(("old", "new", "key"), [
    ('federation = "IND"', 'federation = "India"', "fide_report.federation"),
    ('time_control_code = "5400+30"', 'time_control_code = "90+30 min"',
     "fide_report.time_control_code"),
    ("round_dates = [2024-09-16, ", "round_dates = [", "fide_report.round_dates"),
    ("2024-09-23, 2024-09-24]", "2024-09-23, 2024-09-25]", "fide_report.round_dates[10]"),
    ("2024-09-17, 2024-09-17, 2024-09-18", "2024-09-18, 2024-09-17, 2024-09-18",
     "fide_report.round_dates[2]"),
    ('categories = ["open", "girls"]           # both', 'categories = ["open", "boys"]  #',
     "fide_report.categories"),
    ('chief_arbiter = "IA Kajal Budhiraja"', 'chief_arbiter = ""', "fide_report.chief_arbiter"),
    ('format = "TRF-2026"', 'format = "TRF-2006"', "fide_report.format"),
    ('city = "Karnal"', 'town = "Karnal"', "fide_report.town"),
])
def test_fide_report_config_errors_name_the_key(old, new, key):
    with pytest.raises(ConfigError) as e:
        parse_event_config(nj_toml(**{old: new}), file="event.toml")
    assert (e.value.file, e.value.key) == ("event.toml", key)


def test_fide_report_config_of_the_demo():
    cfg = parse_event_config((NJ / "event.toml").read_text())
    r = cfg.table(RatingReportRules)
    assert (r.city, r.federation, r.format, r.time_control_code) == ("Karnal", "IND",
                                                                     TrfFormat.TRF_2026, "5400+30")
    assert len(r.round_dates) == cfg.require(SwissConfig).rounds == 11
    assert r.round_dates[0] == cfg.event.start == dt.date(2024, 9, 16)
    assert r.round_dates[-1] == cfg.event.end
    assert dict(r.tournament_codes) == {"open": "370073", "girls": "370074"}


def test_the_swiss_flow_writes_a_checked_report_per_rated_category(tmp_path):
    from flows.kinds.swiss.flow import fide_rating_reports
    from flows.site.pages import Publication

    cfg, _, _ = demo()
    raw = {n: io.read_csv_strings(NJ / n) for n in SWISS_SCHEMAS if (NJ / n).exists()}
    run = swiss.prepare(cfg, raw, cfg.event.as_of)
    for c in run.categories:
        c.rankings[c.done] = swiss.standings(run, c, c.done)
    swiss.export_files(run)  # the rulebook's exports step: the reports and their checks
    pub = Publication(tmp_path)
    fide_rating_reports(pub, run)
    assert sorted(pub.files) == ["office/fide/rating-report-girls-check.csv",
                                 "office/fide/rating-report-girls.trf",
                                 "office/fide/rating-report-open-check.csv",
                                 "office/fide/rating-report-open.trf"]
    assert pub.files["office/fide/rating-report-open-check.csv"].splitlines() == [
        "file,line,column,value,severity,reason"]
    assert "### FIDE tournament code 370074" in pub.files["office/fide/rating-report-girls.trf"]
    assert any("rating report open (TRF-2026): 0 errors" in n for n in pub.outcome.notes)
    # a category whose last round is not complete gets no report yet
    run.categories[0].done -= 1
    swiss.export_files(run)
    assert run.categories[0].rating_report is None
    pub = Publication(tmp_path)
    fide_rating_reports(pub, run)
    assert "office/fide/rating-report-open.trf" not in pub.files


def test_trf_players_maps_gender_nationality_and_an_unrated_player():
    # Decision: the federation is players.csv nationality as written (upper case); a gender
    # other than M/F is written blank; a missing rating is 0 (written blank)
    frame = pl.DataFrame({"sno": [1, 2, 3], "name": ["A, a", "B, b", "C, c"],
                          "gender": ["M", "F", "X"], "nationality": ["IND", "npl", None],
                          "rating": [1500, None, 0], "title": ["IM", None, ""],
                          "fide_id": ["1", None, "3"],
                          "birth_date": [dt.date(2006, 1, 2), None, dt.date(2007, 3, 4)]})
    got = trf_players(frame).to_dicts()
    assert [(r["sex"], r["fed"], r["rating"], r["title"], r["fide_id"], r["birth"])
            for r in got] == [("m", "IND", 1500, "IM", "1", "2006/01/02"),
                              ("w", "NPL", 0, "", "", ""), ("", "", 0, "", "3", "2007/03/04")]


def test_engine_view_writes_every_players_federation_and_sex():
    cfg, c, _ = demo()
    from transforms.swiss.rounds import RoundSetup, engine_input

    t = engine_input(c.players, c.card, c.done + 1, RoundSetup({}, frozenset()), name="x",
                     total_rounds=11, edition=cfg.require(SwissConfig).dutch_edition, initial_colour="white")
    women = set(c.players.filter(pl.col("gender") == "F")["sno"])
    assert women and {p.sno for p in t.players if p.sex == "w"} == women
    assert {p.sex for p in t.players} == {"m", "w"}
    assert {p.fed for p in t.players} == set(c.players["nationality"])


def test_a_pab_worth_half_a_point_is_declared_so_the_points_agree():
    from transforms.fide.rating_report import point_system_of
    from transforms.fide.trf import tournament_from_scorecard
    from transforms.fide.trf_points import check_points

    card = pl.DataFrame({"round": [1, 1, 1], "sno": [1, 2, 3], "opponent": [2, 1, None],
                         "colour": ["w", "b", None], "points": [1.0, 0.0, 0.5],
                         "kind": ["played", "played", "PAB"]})
    scoring = point_system_of(card)
    assert scoring.pab == 0.5
    players = pl.DataFrame({"sno": [1, 2, 3], "name": ["A, a", "B, b", "C, c"]})
    for fmt, record in ((TrfFormat.TRF_2026, "162  P 0.5"), (TrfFormat.TRF16, "XXS PAB=0.5")):
        text = write_trf(tournament_from_scorecard(players, card, name="P", scoring=scoring,
                                                   format=fmt))
        assert record in text.splitlines()
        assert check_points(parse_trf(text)) == []


def test_rating_report_in_trf16_names_the_edition_in_192_when_092_is_a_text():
    # Decision: TRF16 keeps the edition in 092 unless 092 holds the tournament type's text
    text = write_trf(report(TrfFormat.TRF16))
    assert "192 FIDE_DUTCH_2017" in text.splitlines()
    assert parse_trf(text).edition == "2017"


def test_the_exports_step_reports_each_named_category_after_its_last_round_checked_as_fide_would():
    """FIDE Rating Regulations §9.1: the rulebook writes a category's report once its last round
    is complete, for the categories ``[fide_report] categories`` names (all when it names none),
    and checks the text as FIDE reads it (``CategoryRun.rating_report``: the flow only writes
    it and names the file in the findings)."""
    cfg, c, ranking = demo()
    rules = cfg.table(RatingReportRules)
    assert reported(rules, c.cat, done=11, rounds=11)
    assert not reported(rules, c.cat, done=10, rounds=11)
    assert not reported(replace(rules, categories=("girls",)), c.cat, done=11, rounds=11)
    assert reported(replace(rules, categories=()), c.cat, done=11, rounds=11)
    made = category_rating_report(cfg, c.cat, c.players, c.card, ranking, rounds=c.rounds)
    assert made.tournament == report() and made.text == write_trf(report())
    assert made.format is TrfFormat.TRF_2026 and made.findings == () and made.errors == 0
    # player 5 without a FIDE id: FIDE would reject the report, on that player's line
    spoilt = c.players.with_columns(pl.when(pl.col("sno") == 5).then(None)
                                    .otherwise(pl.col("fide_id")).alias("fide_id"))
    bad = category_rating_report(cfg, c.cat, spoilt, c.card, ranking, rounds=c.rounds)
    [f] = [f for f in bad.findings if f.severity is Severity.ERROR]
    assert (bad.errors, f.file, f.column) == (1, "", "FIDE id (58-68)")
    assert f.value.startswith("001    5") and bad.text.splitlines()[f.line - 1] == f.value

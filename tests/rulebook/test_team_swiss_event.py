"""A team Swiss event (issue 45): ``kind = "team_swiss"`` — each round paired by FIDE C.04.6
(2026) from the recorded rounds before it, through the event's own files and rulebook steps
(:mod:`transforms.team.swiss`): equal to FIDE TEC's reference program (Gacrux 1.11.65) on the
reference tournaments of tests/data/team_swiss (SOURCE.md there) turned into event folders; the
recorded rounds audited; absent and withdrawn teams left out (GHR 3.2-3.3); the bye worth a
drawn match (C.04.6 1.4); a match with a game played over the board a meeting."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from flows import io
from tests.team_swiss_trf import event_files, read_pairings
from transforms.core.errors import ConfigError, Severity
from transforms.kinds import EventKind, parse_event_config
from transforms.team.config import TeamSwissConfig
from transforms.team.event import RULE_STEPS, TeamRun, prepare

DATA = Path(__file__).resolve().parents[1] / "data" / "team_swiss"
DAY = dt.date(2026, 3, 1)


def run_folder(folder: Path, files: dict[str, str]) -> TeamRun:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    cfg = parse_event_config(files["event.toml"])
    raw = {n: io.read_csv_strings(folder / n) for n in ("teams.csv", "rosters.csv", "results.csv")}
    run = prepare(cfg, raw, DAY)
    for _, step in RULE_STEPS:
        step(run)
    return run


CASES = [(name, g.round, g) for name in ("ts02", "ts08", "ts11", "ts16")
         for g in read_pairings(DATA / f"{name}.pairings.txt")]
"""Every round of four reference tournaments: type B (ts02), no preferences (ts08
FIDE_TEAM_MP_GP), type A with forfeited matches (ts11), game points primary (ts16). The engine
pairs all 208 rounds of the 30 (tests/rulebook/test_team_swiss_pairing.py); these go through an
event's own files and rulebook steps."""


@pytest.mark.parametrize("name,rnd,want", CASES, ids=[f"{n}-round-{r}" for n, r, _ in CASES])
def test_the_event_pairs_each_round_as_fides_reference_program(tmp_path, name, rnd, want):
    files = event_files(DATA / f"{name}.trf", rnd, want.absent)
    run = run_folder(tmp_path / name, files)
    assert [f for f in run.findings if f.severity is Severity.ERROR] == []
    (g,) = run.groups
    assert g.done == rnd - 1 and g.audit == {}
    ids = dict(zip(g.teams["sno"].to_list(), g.teams["team_id"].to_list(), strict=True))
    assert all(ids[s] == f"T{s}" for s in ids)  # start_no kept as the TPN
    fixtures = g.fixtures.filter(pl.col("round") == rnd).sort("match")
    got = [(w, b) for w, b in fixtures.select("white", "black").iter_rows()]
    assert got == [*want.pairs, *([(want.bye, 0)] if want.bye else [])]
    assert set(g.pairing.absent) == set(want.absent)


def test_a_recorded_round_that_is_not_the_engines_is_audited_and_stands(tmp_path):
    """ts01 round 2 recorded with two of its Black teams swapped: a warning row on results.csv
    names the round; round 3 is paired from what was recorded."""
    files = event_files(DATA / "ts01.trf", 3, frozenset())
    rows = files["results.csv"].splitlines()
    second = [r for r in rows[1:] if r.startswith("2,")]
    (a1, b1), (a2, b2) = sorted({(r.split(",")[1], r.split(",")[2]) for r in second
                                 if r.split(",")[2]})[:2]
    swap = {b1: b2, b2: b1}
    fixed = []
    for r in rows:
        cells = r.split(",")
        if r.startswith("2,") and (cells[1], cells[2]) in ((a1, b1), (a2, b2)):
            cells[2] = swap[cells[2]]
            cells[5] = ""  # the swapped-in team's players are not known: its boards empty
            cells[6] = "+/-"
        fixed.append(",".join(cells))
    files["results.csv"] = "\n".join(fixed) + "\n"
    run = run_folder(tmp_path / "audit", files)
    (g,) = run.groups
    assert 2 in g.audit and "round 2 as recorded is not the FIDE C.04.6 pairing" in g.audit[2]
    warned = [f for f in run.findings if f.severity is Severity.WARNING and f.file == "results.csv"
              and "round 2 as recorded" in f.reason]
    assert warned and warned[0].line is not None and warned[0].column == "team_a"
    assert g.fixtures.filter(pl.col("round") == 3).height  # the next round is paired all the same


def test_absent_and_withdrawn_teams_are_not_paired_GHR_3_2_3_3(tmp_path):
    files = event_files(DATA / "ts02.trf", 4, frozenset())
    teams = files["teams.csv"].splitlines()
    teams[0] += ",withdrawn_from"
    teams = [teams[0]] + [t + ("," + ("4" if t.startswith("T3,") else "")) for t in teams[1:]]
    teams[1] = teams[1].replace(",1,,", ",1,4 5,")  # T1 absent in rounds 4 and 5
    files["teams.csv"] = "\n".join(teams) + "\n"
    run = run_folder(tmp_path / "absent", files)
    (g,) = run.groups
    assert set(g.pairing.absent) == {1, 3}
    paired = {t for p in g.pairing.pairs for t in p} | {g.pairing.bye}
    assert not paired & {1, 3} and len(paired - {None}) == g.teams.height - 2


def test_an_absent_round_outside_the_event_is_an_error_on_its_cell(tmp_path):
    files = event_files(DATA / "ts02.trf", 3, frozenset())
    teams = files["teams.csv"].splitlines()
    teams[2] = teams[2].rstrip(",") + ",99"
    teams[3] = teams[3].rstrip(",") + ",two"
    files["teams.csv"] = "\n".join(teams) + "\n"
    run = run_folder(tmp_path / "bad", files)
    got = {(f.file, f.line, f.column, f.value) for f in run.findings if f.severity is Severity.ERROR}
    assert ("teams.csv", 3, "absent_rounds", "99") in got
    assert ("teams.csv", 4, "absent_rounds", "two") in got


def test_the_bye_scores_a_drawn_match_by_default_C04_6_1_4(tmp_path):
    files = event_files(DATA / "ts03.trf", 2, frozenset())  # 9 teams: a bye in round 1
    toml = files["event.toml"]
    files["event.toml"] = "\n".join(x for x in toml.splitlines() if not x.startswith("bye_"))
    run = run_folder(tmp_path / "bye", files)
    (g,) = run.groups
    bye = g.matches.filter(pl.col("status") == "bye").row(0, named=True)
    assert (bye["white_mp"], bye["white_gp"]) == (1.0, 2.0)  # [2, 1, 0], four boards
    files["event.toml"] = toml.replace("bye_match_points = 1.0", "bye_match_points = 2.0")
    run = run_folder(tmp_path / "bye2", files)
    assert run.groups[0].matches.filter(pl.col("status") == "bye")["white_mp"].to_list() == [2.0]


def test_a_match_lost_by_forfeit_with_a_game_played_is_a_meeting(tmp_path):
    """Module docstring of transforms.team.swiss: the team that fielded one of four players lost
    by forfeit (fewer than half), but its board 1 was played: the teams met (C1 keeps them
    apart) and board 1's colours count."""
    files = event_files(DATA / "ts01.trf", 2, frozenset())
    rows = files["results.csv"].splitlines()
    first = rows[1].split(",")
    a, b = first[1], first[2]
    out = [rows[0]]
    for r in rows[1:]:
        c = r.split(",")
        if (c[1], c[2]) == (a, b) and c[3] != "1":
            c[5], c[6] = "", "+/-"
        out.append(",".join(c))
    files["results.csv"] = "\n".join(out) + "\n"
    run = run_folder(tmp_path / "short", files)
    (g,) = run.groups
    m = g.matches.filter((pl.col("round") == 1) & (pl.col("white") == int(a[1:]))).row(0, named=True)
    assert m["status"] == "forfeit_black"
    assert frozenset({int(a[1:]), int(b[1:])}) not in {frozenset(p) for p in g.pairing.pairs}
    from transforms.team.swiss import pairing_card
    card = pairing_card(g, run.rules, 1)
    assert card.filter(pl.col("sno") == int(a[1:]))["kind"].to_list() == ["played"]


def test_the_kind_and_its_table_are_read_and_checked():
    files = event_files(DATA / "ts01.trf", 1, frozenset())
    cfg = parse_event_config(files["event.toml"])
    assert cfg.event.kind is EventKind.TEAM_SWISS
    swiss = cfg.require(TeamSwissConfig)
    assert swiss.rounds == 5 and swiss.colour_preference.value == "A"
    for bad in ("colour_preference = \"C\"", "bye_game_points = 1.3", "rounds = 0"):
        key = bad.split(" ")[0]
        text = "\n".join(x for x in files["event.toml"].splitlines() if not x.startswith(key + " "))
        with pytest.raises(ConfigError):
            parse_event_config(text.replace("[team_swiss]", f"[team_swiss]\n{bad}"))

"""``chessfed import-trf`` of a TRF-2026 team file (issue 45): a team event started or taken
over from FIDE's format — teams.csv, rosters.csv, results.csv and an event.toml saying where
each value comes from — that then ranks and pairs as the file's event did (the demo's own
report; Gacrux's reference tournaments cut before a round, tests/data/team_swiss)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from flows import io as flows_io
from flows.cli.import_trf import take_over_trf
from tests.team_swiss_trf import cut_before, read_pairings
from transforms.core.errors import Severity
from transforms.kinds import parse_event_config
from transforms.team.event import RULE_STEPS, TeamRun, prepare
from transforms.team.schemas import SCHEMAS

ROOT = Path(__file__).resolve().parents[2]
SWISS = ROOT / "tests" / "data" / "team_swiss"


def run_folder(folder: Path, as_of: dt.date | None = None) -> TeamRun:
    text = (folder / "event.toml").read_text(encoding="utf-8")
    cfg = parse_event_config(text.replace('venue = "to be completed"', 'venue = "Hall"'))
    raw = {n: flows_io.read_csv_strings(folder / n) for n in SCHEMAS if (folder / n).exists()}
    run = prepare(cfg, raw, as_of or cfg.event.start)
    for _, step in RULE_STEPS:
        step(run)
    return run


def test_the_demos_report_taken_over_ranks_and_pairs_as_the_demo(tmp_path):
    from tests.rulebook.test_team_report import INPUTS, run_of

    demo = run_of(INPUTS / "county-team-championship-2026")
    (g,) = demo.groups
    report = tmp_path / "county.trf"
    report.write_text(g.report, encoding="utf-8")
    done = take_over_trf(report, tmp_path / "county", today=dt.date(2026, 2, 8))
    assert {p.name for p in done.written} == {"teams.csv", "rosters.csv", "results.csv", "event.toml"}
    keys = {s.key: s.value for s in done.settings}
    assert keys["team_swiss.rounds"] == "7" and keys["team.tiebreaks"] == '["GPTS", "BH:MP", "EDE"]'
    run = run_folder(tmp_path / "county")
    assert [f for f in run.findings if f.severity is Severity.ERROR] == []
    (h,) = run.groups
    assert h.done == g.done
    ours = g.rankings[g.done].select("name", "mp", "gp")
    assert h.rankings[h.done].select("name", "mp", "gp").equals(ours)
    assert h.pairing is not None and h.pairing.pairs == g.pairing.pairs
    assert h.pairing.absent == g.pairing.absent  # the 240 record: absent_rounds


@pytest.mark.parametrize("name,rnd", [("ts11", 6), ("ts12", 5), ("ts24", 4)])
def test_a_reference_tournament_taken_over_pairs_the_next_round_as_gacrux(tmp_path, name, rnd):
    """ts11 has forfeited matches (330), ts12 byes and absences, ts24 game points first."""
    cut = cut_before(SWISS / f"{name}.trf", rnd, tmp_path / f"{name}.trf")
    take_over_trf(cut, tmp_path / name, today=dt.date(2026, 3, 1))
    run = run_folder(tmp_path / name)
    assert [f for f in run.findings if f.severity is Severity.ERROR] == []
    (g,) = run.groups
    want = next(x for x in read_pairings(SWISS / f"{name}.pairings.txt") if x.round == rnd)
    fixtures = g.fixtures.filter(pl.col("round") == rnd).sort("match")
    got = [(w, b) for w, b in fixtures.select("white", "black").iter_rows()]
    assert got == [*want.pairs, *([(want.bye, 0)] if want.bye else [])]

"""``chessfed crosscheck --campaign`` (flows/verify/campaign.py): generated tournaments,
every round paired by chessfed and by another engine. The other engines here are tiny
scripts: chessfed's own ``pair`` (every round identical) and one that swaps board 1's
colours (every round a difference); bbpPairings is not needed."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

from flows.verify import campaign

ROOT = Path(__file__).resolve().parents[2]

SAME = """
import sys
sys.path.insert(0, {root!r})
from flows.cli.pair import main
sys.exit(main(sys.argv[1:]))
"""

SWAP = SAME.replace("sys.exit(main(sys.argv[1:]))", """rc = main(sys.argv[1:])
out = sys.argv[sys.argv.index("-p") + 1]
lines = open(out).read().splitlines()
w, b = lines[1].split()
if b != "0":
    lines[1] = b + " " + w
open(out, "w").write("\\n".join(lines) + "\\n")
sys.exit(rc)""")

BROKEN = "import sys\nsys.stderr.write('engine exploded')\nsys.exit(2)\n"

SIZES = "7-8:1"


def engine(tmp_path: Path, name: str, text: str) -> dict[str, list[str]]:
    script = tmp_path / f"{name}.py"
    script.write_text(text.format(root=str(ROOT)) if "{root" in text else text)
    return {"2025": [sys.executable, str(script)], "2017": [sys.executable, str(script)]}


def rows(folder: Path) -> list[dict]:
    with (folder / "tournaments.csv").open() as f:
        return list(csv.DictReader(f))


def test_tournament_parameters_depend_on_the_seed_and_index_only():
    tiers = campaign.parse_sizes("9-30:70,31-400:30")
    a = campaign.tournament_params(1, 5, tiers, ["2025", "2017"])
    assert a == campaign.tournament_params(1, 5, tiers, ["2025", "2017"])
    assert a != campaign.tournament_params(2, 5, tiers, ["2025", "2017"])
    sizes = [campaign.tournament_params(1, i, tiers, ["2025", "2017"]) for i in range(200)]
    small = sum(p.players <= 30 for p in sizes)
    assert 110 < small < 170 and all(9 <= p.players <= 400 for p in sizes)
    assert [p.edition for p in sizes[:4]] == ["2025", "2017", "2025", "2017"]
    assert all(5 <= p.rounds <= 11 and p.rounds <= p.players - 2 for p in sizes)


def test_an_agreeing_engine_resumes_where_the_campaign_stopped(tmp_path):
    folder = tmp_path / "camp"
    engines = engine(tmp_path, "same", SAME)
    out = io.StringIO()
    assert campaign.run_campaign(folder, tournaments=2, engines=engines, sizes=SIZES,
                                 out=out) == campaign.EXIT_SAME
    first = rows(folder)
    assert [r["index"] for r in first] == ["0", "1"]
    assert {r["edition"] for r in first} == {"2025", "2017"}
    assert all(int(r["compared"]) == int(r["identical"]) > 0 and r["different"] == "0"
               for r in first)
    # an interrupted write leaves a cut line: it is dropped and its tournament played again
    with (folder / "tournaments.csv").open("a") as f:
        f.write("2,2025-8p")
    out = io.StringIO()
    assert campaign.run_campaign(folder, tournaments=3, engines=engines, sizes=SIZES,
                                 out=out) == campaign.EXIT_SAME
    assert "2 tournaments already done, 1 to play" in out.getvalue()
    again = rows(folder)
    assert [r["index"] for r in again] == ["0", "1", "2"] and again[:2] == first
    summary = (folder / "summary.md").read_text()
    total = sum(int(r["compared"]) for r in again)
    assert "3 of 3 tournaments done" in summary
    assert f"| both | all | 3 | {total} | {total} | 0 | 0 |" in summary
    assert "| 2017 | 7-8 | 1 |" in summary and "| 2025 | 7-8 | 2 |" in summary
    out = io.StringIO()
    assert campaign.run_campaign(folder, tournaments=3, engines=engines, sizes=SIZES,
                                 out=out) == campaign.EXIT_SAME
    assert "3 tournaments already done, 0 to play" in out.getvalue()
    assert len(rows(folder)) == 3
    # other settings in the same folder would mix two campaigns
    assert campaign.run_campaign(folder, tournaments=3, engines=engines, sizes="9-9:1",
                                 seed=1) == campaign.EXIT_USAGE
    assert json.loads((folder / "campaign.json").read_text())["sizes"] == SIZES


def test_a_differing_engine_is_reported_with_the_trf_of_the_round(tmp_path):
    folder = tmp_path / "camp"
    out = io.StringIO()
    assert campaign.run_campaign(folder, tournaments=2, engines=engine(tmp_path, "swap", SWAP),
                                 sizes=SIZES, out=out) == campaign.EXIT_DIFFERENT
    got = rows(folder)
    assert all(int(r["different"]) == int(r["compared"]) > 0 for r in got)
    notes = (folder / "differences.txt").read_text().splitlines()
    assert len(notes) == sum(int(r["different"]) for r in got)
    assert "engine only:" in notes[0] and "chessfed only:" in notes[0]
    stem = notes[0].split(":")[0]
    trf = (folder / "differences" / f"{stem}.trf").read_text()
    assert trf.startswith("###") and "XXR" in trf
    detail = (folder / "differences" / f"{stem}.txt").read_text()
    assert "engine:" in detail and "chessfed:" in detail
    # the engine's pairing (board 1's colours swapped) as chessfed pair -c reads it
    assert "chessfed's reading of the engine's pairing: round" in detail
    assert "the recorded colours give White to" in detail and "(C.04.3 20" in notes[0]
    engine_trf = (folder / "differences" / f"{stem}-engine.trf").read_text()
    from flows.cli.pair import check_rounds
    from transforms.fide.trf import parse_trf

    out = io.StringIO()
    assert check_rounds(parse_trf(engine_trf), None, out) == 1
    assert "the recorded colours give White to" in out.getvalue()
    assert "| both | all | 2 |" in (folder / "summary.md").read_text()


def test_an_engine_that_fails_is_an_error_not_a_crash(tmp_path):
    folder = tmp_path / "camp"
    assert campaign.run_campaign(folder, tournaments=1,
                                 engines=engine(tmp_path, "broken", BROKEN), sizes=SIZES,
                                 out=io.StringIO()) == campaign.EXIT_DIFFERENT
    (r,) = rows(folder)
    assert int(r["errors"]) == int(r["compared"]) > 0 and r["identical"] == "0"
    assert "error: engine exit 2: engine exploded" in (folder / "differences.txt").read_text()


def test_parallel_jobs_give_the_same_tournaments(tmp_path):
    engines = engine(tmp_path, "same", SAME)
    one, two = tmp_path / "one", tmp_path / "two"
    assert campaign.run_campaign(one, tournaments=4, engines=engines, sizes=SIZES, seed=3,
                                 out=io.StringIO()) == campaign.EXIT_SAME
    assert campaign.run_campaign(two, tournaments=4, engines=engines, sizes=SIZES, seed=3,
                                 jobs=2, out=io.StringIO()) == campaign.EXIT_SAME

    def key(folder):
        return sorted(tuple(v for k, v in r.items() if not k.endswith("seconds")
                            and k != "worker")
                      for r in rows(folder))
    assert key(one) == key(two) and len(key(two)) == 4
    assert len({r["worker"] for r in rows(one)}) == 1
    assert len({r["worker"] for r in rows(two)}) == 2


def test_bad_arguments_are_refused_before_anything_is_written(tmp_path, capsys):
    import argparse

    from flows.verify import crosscheck

    folder = tmp_path / "camp"
    assert campaign.run_campaign(folder, tournaments=1, engines={"2025": ["x"]},
                                 sizes="30-9:1") == campaign.EXIT_USAGE
    assert "size tier '30-9:1'" in capsys.readouterr().err and not folder.exists()
    args = argparse.Namespace(campaign=folder, engine=None, engine_2017=None, edition="both",
                              tournaments=1, sizes=None, seed=1, jobs=1)
    assert crosscheck.run(args) == campaign.EXIT_USAGE
    assert "a campaign needs --engine" in capsys.readouterr().err and not folder.exists()
    assert campaign.engines_of("a b", None, "both") == {"2025": ["a", "b"], "2017": ["a", "b"]}
    assert campaign.engines_of("a", "c", "2017") == {"2017": ["c"]}


def test_a_round_neither_engine_can_pair_is_identical_and_ends_the_tournament(tmp_path):
    from flows.verify.generator import GeneratorParams

    params = GeneratorParams(players=4, rounds=5, forfeit_rate=0, hpb_rate=0,
                             withdrawal_rate=0, seed=1)
    got = campaign.play_one(0, params, engine(tmp_path, "same", SAME)["2025"], str(tmp_path))
    assert got.stopped_at is not None and got.compared == got.stopped_at
    assert got.identical == got.compared and got.different == got.errors == 0

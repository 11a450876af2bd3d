"""Shared fixtures. Prefect flows run under one ``prefect_test_harness`` for the whole
session (its temporary server starts once); pure transforms never touch Prefect."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"

os.environ.setdefault("PREFECT_HOME", str(ROOT / ".prefect"))
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")


@pytest.fixture(scope="session", autouse=True)
def temporary_files_under_pytests_folder(tmp_path_factory):
    """The processes the tests start keep their temporary files under pytest's own folder
    (which pytest removes after three sessions), not in the machine's /tmp for good: a run a
    test kills leaves its fork server's folder (``pymp-*``) behind, no process being left to
    remove it."""
    old = os.environ.get("TMPDIR")
    os.environ["TMPDIR"] = str(tmp_path_factory.mktemp("tmpdir"))
    yield
    if old is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = old


@pytest.fixture(scope="session")
def prefect_harness():
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=180):
        yield


BROKEN_TOML = """
[event]
id = "broken-open"
name = "Broken Open"
kind = "swiss"
start = 2024-09-16
end = 2024-09-20
venue = "Chennai"
organiser = "TNSCA"
currency = "INR"
contact = "x"
as_of = 2024-09-20
[publish]
sender = "a@b.example"
recipients = [{ name = "Arbiter", email = "arb@b.example" }]
[swiss]
rounds = 5
categories = [{ id = "open", name = "Open" }]
"""
BROKEN_PLAYERS = (
    "player_id,name,section,gender,birth_date,nationality,state,fide_id,rating,title,entry_type,"
    "seed_reason,registered_at,fee_paid,aicf_registered,email\n"
    "A,Ann,open,F,2006-02-30,IND,TN,1,2000,,quota,,2024-08-01T10:00,2000,true,\n"
    "B,Bob,open,M,2006-01-01,IND,TN,2,1900,,quota,,2024-08-01T10:00,2000,true,\n"
    "B,Bea,open,F,2006-01-01,IND,TN,3,1800,,quota,,2024-08-01T10:00,2000,true,\n")


def event_table(event_id: str, name: str, as_of: str = "2024-09-16") -> str:
    """The ``[event]`` table of a small test event (a Swiss in Hall, 16-20 September 2024)."""
    return (f'\n[event]\nid = "{event_id}"\nname = "{name}"\nkind = "swiss"\nstart = 2024-09-16\n'
            f'end = 2024-09-20\nvenue = "Hall"\norganiser = "O"\ncurrency = "INR"\ncontact = "c"\n'
            f'as_of = {as_of}\n')


TIMED = ("manifest.json", "run.json")
"""The outputs that hold a run's timings: they differ from run to run."""


DIGESTS = Path(".chessfed") / "digests"
"""The checksums the unchanged check keeps (flows/pipeline/digests.py): working state with the
time of each read, rewritten by a check — never an output to compare."""


def output_files(folder: Path, skip: tuple[str, ...] = ()) -> dict[str, bytes]:
    """Every file under ``folder`` (relative path -> bytes), but those named in ``skip`` and
    the kept checksums (:data:`DIGESTS`)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name not in skip and DIGESTS not in p.relative_to(folder).parents}


TINY_PLAYERS = (
    "player_id,name,section,sex,birth_date,federation,fide_id,rating,email\n"
    + "".join(f"{p},{n},open,{g},2006-01-0{i + 1},IND,{i + 1},{2000 - 100 * i},\n"
              for i, (p, n, g) in enumerate([("A", "Ann", "F"), ("B", "Bob", "M"), ("C", "Cy", "M"), ("D", "Di", "F")])))
"""Four valid entries of a plain FIDE Swiss (no rules part's columns; no email yet)."""


def tiny_event(folder: Path, event_id: str = "tiny", extra_toml: str = "") -> Path:
    """A small valid plain Swiss event folder (4 players, round 1 to pair): renders in seconds."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "event.toml").write_text(
        BROKEN_TOML.replace('id = "broken-open"', f'id = "{event_id}"')
        .replace("Broken Open", f"Tiny Open {event_id}") + extra_toml)
    (folder / "players.csv").write_text(TINY_PLAYERS)
    return folder


@pytest.fixture(scope="session")
def demo_run(prefect_harness, tmp_path_factory):
    """Every demo event and a malformed one, run twice into one output folder through the real
    flows (once per test session: tests/flows/test_e2e.py and the browser tests read it), the second
    time built again although nothing changed (``rebuild``: else it would find every event
    unchanged and build nothing); returns (base, out, status, files after run 1, status of
    run 2, files after run 2)."""
    from flows.pipeline.events import run_events

    base = tmp_path_factory.mktemp("e2e")
    shutil.copytree(ROOT / "inputs", base / "inputs")
    broken = base / "inputs" / "broken-open"
    broken.mkdir()
    (broken / "event.toml").write_text(BROKEN_TOML)
    (broken / "players.csv").write_text(BROKEN_PLAYERS)
    (broken / "associations.csv").write_text("state,name,arrears_cleared,email\nTN,Tamil Nadu,true,\n")
    (broken / "results.csv").write_text("round,board,white_id,black_id,result\n1,1,A,Z,1-0\n1,1,B,,PAB\n")
    out = base / "outputs"
    status = run_events(base / "inputs", out)
    first = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    status2 = run_events(base / "inputs", out, rebuild=True)
    second = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    return base, out, status, first, status2, second


TIERS = ("rulebook", "publish", "cli", "flows", "servers")
"""The tiers, each a folder of tests/ (pyproject.toml's markers say what each means): a test
module's tier is the folder it is in. ``make test-fast`` runs ``--tiers rulebook,cli -m "not
slow"``; ``make test`` runs every tier. A test module outside the tiers' folders fails the
collection."""


def tier_of(path: Path) -> str | None:
    """The tier of the test module at ``path`` (its folder under tests/), None outside them."""
    path = Path(path).resolve()
    return path.parent.name if path.parent.parent == Path(__file__).resolve().parent and \
        path.parent.name in TIERS else None


SLOW = {"test_properties", "test_campaign", "test_team_swiss_event", "test_team_import",
        "test_team_report", "test_norms_cli", "test_rating_periods"}
"""Modules of a fast tier that take long, marked with their tier and ``slow`` so that ``make
test-fast`` leaves them to ``make test``: hypothesis over many generated tournaments (about
40 s), the cross-check campaign, whose tests run generated tournaments through engine
processes (2-8 s each under load), and the team events run whole through their files and
rulebook steps (an event folder per case, a takeover, a report read back: about 8 s; the team
engine, tie-breaks, league and line-up rules stay in the fast tiers), and ``chessfed norms`` on
the demo's title tournament and ten generated events beside Sharly Chess's verdicts (about 4 s;
the norm rules themselves stay in the fast tiers, tests/rulebook/test_norms.py), and the
demo's club open played to its end for its reports by rating period (about 4 s)."""

SLOW_TESTS = (
    "tests/rulebook/test_dutch.py::test_dutch_2017_conformance_all_215_cases_identical_with_colours[python]",
    "tests/rulebook/test_dutch.py::test_dutch_2025_conformance_206_undisputed_cases_identical_with_colours[python]",
    "tests/rulebook/test_dutch.py::test_dutch_2025_disputed_cases_follow_bbppairings[python]",
    "tests/cli/test_acceleration_event.py::test_standings_tiebreaks_trf_points_and_prizes_never_include_virtual_points",
    "tests/cli/test_acceleration_event.py::test_crosscheck_with_baku_acceleration_writes_the_virtual_points_into_every_file",
    "tests/rulebook/test_team_tiebreaks.py::test_team_tiebreaks_equal_fide_tecs_calculator",
    "tests/rulebook/test_team_swiss_event.py::test_the_event_pairs_each_round_as_fides_reference_program",
)
"""Single slow tests of a fast tier, also marked ``slow``: the reference cases paired by the
pure-Python matching core (about 20 s of the fast tiers' 80 measured on 2 December 2026; the
compiled core pairs the same cases in ``make test-fast``, and tests/rulebook/test_dutch_cores.py
compares the two cores there), and the accelerated National Junior event run whole and
cross-checked through engine processes (2-5 s each; its pairing on pairing scores stays in the
fast tiers), and the team reference cases run whole through the team rulebook (FIDE's calculator
on every tie-break of 20 events, Gacrux's rounds through an event's files: about 20 s; the team
Swiss engine's 208 reference rounds stay in the fast tiers). An entry names a test case, or
every case of a parametrized test (its node id without the brackets)."""


def pytest_addoption(parser):
    parser.addoption("--tiers", default=None, metavar="TIER,…",
                     help="collect only the test modules of these tiers (their folders under tests/): "
                          "the others are not even imported (make test-fast)")


def pytest_ignore_collect(collection_path, config):
    """With ``--tiers``, a test module of another tier is not collected at all: importing the
    flows' modules (Prefect, WeasyPrint) and rewriting their asserts is a good part of the
    fast tiers' time otherwise. A module without a tier is still collected, so that it fails."""
    tiers = config.getoption("--tiers")
    if tiers is None or collection_path.suffix != ".py" or \
            not collection_path.name.startswith("test_"):
        return None
    tier = tier_of(Path(collection_path))
    if tier is not None and tier not in tiers.split(","):
        return True
    return None


def pytest_collection_modifyitems(config, items):
    unknown = set()
    for item in items:
        module = item.path.stem
        tier = tier_of(Path(item.path))
        if tier is None:
            unknown.add(str(item.path.relative_to(ROOT)))
            continue
        item.add_marker(getattr(pytest.mark, tier))
        if module in SLOW or item.nodeid.split("[")[0] in SLOW_TESTS or item.nodeid in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
    if unknown:
        raise pytest.UsageError(
            f"test modules without a tier: {', '.join(sorted(unknown))}; put each in the folder "
            "of its tier (tests/rulebook, publish, cli, flows or servers)")

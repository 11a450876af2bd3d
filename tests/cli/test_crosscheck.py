"""``chessfed crosscheck`` (flows/crosscheck.py): another engine with the JaVaFo/bbpPairings
interface pairs seeded events; chessfed pairs every round too and reports the rounds that
differ. The stand-in engines here are chessfed itself (every round identical) and a copy that
swaps the colours on board 1 (every round reported)."""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

import pytest

from flows.verify import crosscheck

ROOT = Path(__file__).resolve().parents[2]

SWAP = """
import subprocess, sys
rc = subprocess.call([sys.executable, "-m", "flows.cli.main", "pair", *sys.argv[1:]], cwd={root!r})
out = sys.argv[sys.argv.index("-p") + 1]
lines = open(out).read().splitlines()
w, b = lines[1].split()
if b != "0":
    lines[1] = b + " " + w
open(out, "w").write("\\n".join(lines) + "\\n")
sys.exit(rc)
"""


def args(engine: str, **kw) -> argparse.Namespace:
    base = dict(engine=engine, events=1, players="11", rounds=3, edition="2025", seed=5)
    return argparse.Namespace(**{**base, **kw})


def test_parse_pairing_reads_the_engines_format():
    assert crosscheck.parse_pairing("3\n1 2\n4 3\n5 0\n") == [(1, 2), (4, 3), (5, None)]
    with pytest.raises(ValueError):
        crosscheck.parse_pairing("2\n1 2\n")


def test_crosscheck_against_itself_is_identical_every_round(tmp_path):
    engine = f"{sys.executable} -m flows.cli.main pair"
    out = io.StringIO()
    rc = crosscheck.run(args(engine, edition="2017"), out=out)
    assert rc == crosscheck.EXIT_SAME, out.getvalue()
    assert "3 of 3 rounds identical (100.0%)" in out.getvalue()


def test_crosscheck_reports_every_round_that_differs(tmp_path):
    script = tmp_path / "swap.py"
    script.write_text(SWAP.format(root=str(ROOT)))
    out = io.StringIO()
    rc = crosscheck.run(args(f"{sys.executable} {script}"), out=out)
    text = out.getvalue()
    assert rc == crosscheck.EXIT_DIFFERENT
    assert text.count("round ") >= 3 and "engine only:" in text and "chessfed only:" in text
    assert "0 of 3 rounds identical" in text


def test_crosscheck_says_when_the_engine_cannot_run(tmp_path, capsys):
    missing = tmp_path / "no-such-engine"
    missing.write_text("#!/bin/sh\nexit 7\n")
    missing.chmod(0o755)
    assert crosscheck.run(args(str(missing))) == crosscheck.EXIT_ENGINE
    assert "cannot run the engine" in capsys.readouterr().err


def test_crosscheck_names_the_file_when_the_engine_writes_garbage(tmp_path, capsys):
    with pytest.raises(ValueError, match="line 3: expected 'white black'"):
        crosscheck.parse_pairing("2\n1 2\n3 x\n")
    bad = tmp_path / "bad-engine"
    bad.write_text('#!/bin/sh\nwhile [ "$1" != "-p" ]; do shift; done\necho "oops" > "$2"\n')
    bad.chmod(0o755)
    assert crosscheck.run(args(str(bad))) == crosscheck.EXIT_ENGINE
    err = capsys.readouterr().err
    assert "wrote no valid pairing" in err and ".trf" in err and "line 1" in err

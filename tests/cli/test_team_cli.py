"""``chessfed pair --team`` and ``chessfed standings --trf`` on TRF-2026 team files: the team
Swiss engine (FIDE C.04.6) and the team tie-breaks (FIDE C.07) behind the command line, against
FIDE TEC's reference program's answers (tests/data/team_swiss, tests/data/team_tiebreak: Gacrux
1.11.65; SOURCE.md there)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from flows.cli import pair as pair_cli
from flows.cli import standings as standings_cli
from tests.team_swiss_trf import cut_before, read_pairings

DATA = Path(__file__).resolve().parents[1] / "data"
SWISS = DATA / "team_swiss"


def test_pair_team_writes_the_next_round_as_the_engines_do(tmp_path, capsys):
    """Research note 7.4: round 3 of the hand-made example as Gacrux pairs it; the first line
    is the number of tables, then White team first."""
    out = tmp_path / "next.txt"
    assert pair_cli.main(["--team", str(SWISS / "example.trf"), "-p", str(out)]) == 0
    (want,) = read_pairings(SWISS / "example.next.txt")
    lines = out.read_text().splitlines()
    assert int(lines[0]) == len(lines) - 1 == len(want.pairs)
    assert [tuple(map(int, x.split())) for x in lines[1:]] == list(want.pairs)


@pytest.mark.parametrize("name,rnd", [("ts03", 4), ("ts11", 6), ("ts17", 9), ("ts30", 5)])
def test_pair_team_pairs_a_truncated_file_as_gacrux_paired_that_round(tmp_path, capsys, name, rnd):
    """A reference tournament cut before round ``rnd``: ``-p`` pairs round ``rnd`` as Gacrux
    did (tables, colours, the bye as ``team 0``)."""
    trf = cut_before(SWISS / f"{name}.trf", rnd, tmp_path / "cut.trf")
    assert pair_cli.main(["--team", str(trf), "-p"]) == 0
    got = capsys.readouterr().out.splitlines()
    want = next(g for g in read_pairings(SWISS / f"{name}.pairings.txt") if g.round == rnd)
    expected = [f"{w} {b}" for w, b in want.pairs] + ([f"{want.bye} 0"] if want.bye else [])
    assert got == [str(len(expected)), *expected]


def test_pair_team_check_says_same_for_every_round_gacrux_paired(capsys):
    for name in ("ts04", "ts11", "ts20"):
        assert pair_cli.main(["--team", str(SWISS / f"{name}.trf"), "-c"]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines and all(line.endswith(": same") for line in lines)


def test_pair_team_check_names_the_round_a_changed_pairing_breaks(tmp_path, capsys):
    """Two teams of round 1 swapped between tables: C.04.6 pairs 1 against the second half;
    the check reports round 1 and exits 1."""
    text = (SWISS / "ts01.trf").read_text(encoding="utf-8")
    swapped = tmp_path / "swapped.trf"
    # swap the 310 records' team numbers 1 and 2: the recorded matches now break the order
    lines = []
    for line in text.splitlines():
        if line.startswith("310"):
            tpn = int(line[4:7])
            line = line[:4] + f"{ {1: 2, 2: 1}.get(tpn, tpn):3d}" + line[7:]
        lines.append(line)
    swapped.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert pair_cli.main(["--team", str(swapped), "-c"]) == 1
    out = capsys.readouterr().out
    assert "round 1: differs" in out


def test_pair_team_refuses_a_malformed_record_naming_its_line(tmp_path, capsys):
    text = (SWISS / "example.trf").read_text(encoding="utf-8").splitlines()
    i = next(i for i, line in enumerate(text) if line.startswith("310"))
    text[i] = "310 xx Broken"
    bad = tmp_path / "bad.trf"
    bad.write_text("\n".join(text) + "\n", encoding="utf-8")
    assert pair_cli.main(["--team", str(bad), "-p"]) == 3
    err = capsys.readouterr().err
    assert f"bad.trf:{i + 1}:" in err and "310 xx Broken" in err


@pytest.mark.parametrize("name", ["ts01", "ts05", "ts09", "ts18"])
def test_standings_of_a_team_file_rank_as_fide_tecs_calculator(tmp_path, name):
    """tests/data/team_tiebreak: Gacrux's rank by ``MPTS GPTS EDET EMGSB/C1 BH:MP/C1`` and its
    values, through ``chessfed standings --trf`` (match points primary: record 192)."""
    out = tmp_path / "standings.csv"
    codes = "GPTS,EDET,EMGSB/C1,BH:MP/C1"
    assert standings_cli.main(["--trf", str(SWISS / f"{name}.trf"), "--tiebreaks", codes,
                               "--edition", "fide-2026", "--out", str(out)]) == 0
    ours = list(csv.DictReader(out.open(encoding="utf-8")))
    assert list(ours[0]) == ["rank", "tpn", "name", "mp", "gp", *codes.split(",")]
    theirs = {r["TPN"]: r for r in csv.DictReader((DATA / "team_tiebreak" / f"{name}.tsv")
                                                   .open(encoding="utf-8"), delimiter="\t")}
    for row in ours:
        want = theirs[row["tpn"]]
        assert (row["rank"], float(row["mp"]), float(row["gp"]), float(row["EMGSB/C1"]),
                float(row["BH:MP/C1"])) == (want["rank"], float(want["MPTS"]),
                                            float(want["GPTS"]), float(want["EMGSB/C1"]),
                                            float(want["BH:MP/C1"]))
        assert row["name"].startswith("Team ")


def test_standings_of_a_team_file_take_its_212_record(tmp_path):
    """Without ``--tiebreaks`` the file's ``212`` list (after the primary score) ranks."""
    text = (SWISS / "ts05.trf").read_text(encoding="utf-8")
    with_212 = tmp_path / "with212.trf"
    with_212.write_text(text.rstrip("\n") + "\n212 MPTS,BH:MP,SB:GP\n", encoding="utf-8")
    out = tmp_path / "standings.csv"
    assert standings_cli.main(["--trf", str(with_212), "--out", str(out)]) == 0
    header = out.read_text(encoding="utf-8").splitlines()[0]
    assert header == "rank,tpn,name,mp,gp,BH:MP,SB:GP"


def test_pair_team_without_record_142_keeps_c7(tmp_path):
    """docs/decisions.md: without 142 the round paired is not one of the last two. ts05 cut
    before round 4 pairs the same with its 142 record (seven rounds) and without it, and otherwise
    when 142 makes round 4 the last (C7 and C10 off, type A as ever)."""
    from flows.cli.pair_team import pair_team_round
    from tests.team_swiss_trf import read_team_trf

    cut = cut_before(SWISS / "ts05.trf", 4, tmp_path / "cut.trf")
    lines = cut.read_text(encoding="utf-8").splitlines()
    no142 = tmp_path / "no142.trf"
    no142.write_text("\n".join(x for x in lines if not x.startswith("142")) + "\n", encoding="utf-8")
    last = tmp_path / "last.trf"
    last.write_text("\n".join("142 4" if x.startswith("142") else x for x in lines) + "\n",
                    encoding="utf-8")
    scheduled = pair_team_round(read_team_trf(cut), 4, frozenset())
    unknown = pair_team_round(read_team_trf(no142), 4, frozenset())
    final = pair_team_round(read_team_trf(last), 4, frozenset())
    assert read_team_trf(cut).scheduled_rounds > 4 and read_team_trf(no142).scheduled_rounds == 0
    assert (unknown.pairs, unknown.bye) == (scheduled.pairs, scheduled.bye)
    assert final.pairs != scheduled.pairs

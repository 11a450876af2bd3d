"""The points check: a TRF whose points column disagrees with the results is invalid input
(transforms/fide/trf_points.py ``check_points``; ``chessfed pair`` exits 3).

SOURCE for the behaviour copied: bbpPairings 6.0.0 (built from
github.com/BieremaBoyzProgramming/bbpPairings, master 16a000f), run on
tests/data/dutch/2025/T01_n009_r05_clean_s8001/r03.trf with player 2's points changed from
1.0 to 2.0, exits 3 with "Error parsing file ...: The score for player 2 does not match the
game results."; it accepts the points with or without the round still to be paired and
with or without the acceleration of that round."""

from __future__ import annotations

from pathlib import Path

import pytest

from flows.cli import pair as pair_cli
from transforms.core.errors import Severity
from transforms.fide.trf import parse_trf
from transforms.fide.trf_points import check_points, expected_points

DATA = Path(__file__).parents[1] / "data"
REFERENCE = sorted((DATA / "dutch").glob("20*/T*/r*.trf"))
CASE = DATA / "dutch" / "2025" / "T01_n009_r05_clean_s8001" / "r03.trf"
SWISS = DATA / "trf2026" / "swiss_r3.trf"


def with_points(text: str, sno: int, points: str) -> str:
    out = []
    for ln in text.splitlines():
        if ln.startswith(f"001 {sno:4d}"):
            ln = ln[:80] + f"{points:>4}" + ln[84:]
        out.append(ln)
    return "\n".join(out) + "\n"


def test_points_check_accepts_every_reference_file():
    assert len(REFERENCE) == 437
    bad = [(f, check_points(parse_trf(f.read_text()))) for f in REFERENCE]
    assert [(f, b) for f, b in bad if b] == []


def test_points_check_flags_the_player_and_quotes_the_line():
    #  player 2: round 1 beat 6 (1), round 2 lost to 3 (0) = 1.0, the file says 2.0
    text = with_points(CASE.read_text(), 2, "2.0")
    found = check_points(parse_trf(text, source="r03.trf"), source="r03.trf")
    assert len(found) == 1
    f = found[0]
    assert (f.file, f.line, f.column, f.severity) == ("r03.trf", 6, "points", Severity.ERROR)
    assert f.value == text.splitlines()[5]
    assert "2.0" in f.reason and "1.0" in f.reason and "299" in f.reason


def test_points_check_accepts_points_with_or_without_the_round_still_to_be_paired():
    # player 7 has requested a half-point bye for round 3, the round to be paired:
    #   round 1 lost to 3, round 2 PAB, round 3 H  → 1.0 without round 3, 1.5 with it
    text = CASE.read_text().replace("   3 w 0  0000 - U", "   3 w 0  0000 - U  0000 - H")
    for pts in ("1.0", "1.5"):
        assert check_points(parse_trf(with_points(text, 7, pts))) == []
    assert expected_points(parse_trf(text))[7] == {1.0, 1.5}
    assert check_points(parse_trf(with_points(text, 7, "2.0")))


def test_points_check_follows_the_files_point_system():
    # 162 P 0.5: players 5 and 7 had a PAB worth half a point; 3/1/0 scoring
    assert check_points(parse_trf(SWISS.read_text())) == []
    assert check_points(parse_trf((DATA / "trf2026" / "scoring_3_1_0.trf").read_text())) == []
    # the same file without its 162 record: the PABs are worth a point, 5 and 7 disagree
    text = "\n".join(ln for ln in SWISS.read_text().splitlines() if not ln.startswith("162"))
    assert sorted(f.value[:8] for f in check_points(parse_trf(text))) == ["001    5", "001    7"]


def test_points_check_counts_a_299_penalty():
    # player 6: ½ + 0 + 0 = ½ from the results, 0.0 in the file: the 299 penalty of -0.5
    text = SWISS.read_text()
    assert check_points(parse_trf(text)) == []
    without = "\n".join(ln for ln in text.splitlines() if not ln.startswith("299"))
    found = check_points(parse_trf(without))
    assert [f.value[:8] for f in found] == ["001    6"]


def test_points_check_counts_a_299_result_assignment():
    # a forfeit win (player 3, round 2) that the arbiter scored ½ instead of 1
    text = with_points(SWISS.read_text(), 3, "1.0") + "299 +         0.5  002    3\n"
    assert check_points(parse_trf(text)) == []


def test_points_check_accepts_the_acceleration_of_the_round_to_be_paired():
    # XXA gives players 1 and 2 one fictitious point in round 3 (the round to be paired)
    text = CASE.read_text() + "XXA    1  1.0  1.0  1.0\nXXA    2  1.0  1.0  1.0\n"
    t = parse_trf(with_points(text, 1, "3.0"))
    assert check_points(t) == []
    assert check_points(parse_trf(with_points(text, 1, "4.0")))


def test_pair_exits_3_on_points_that_disagree_quoting_the_line(tmp_path, capsys):
    bad = tmp_path / "bad.trf"
    bad.write_text(with_points(CASE.read_text(), 2, "2.0"))
    assert pair_cli.main(["--dutch", str(bad), "-p", str(tmp_path / "out.txt")]) == 3
    err = capsys.readouterr().err
    assert f"{bad}:6:" in err and "player 2 has 2.0 points" in err
    assert "'001    2      Test0002 Player0002" in err
    assert not (tmp_path / "out.txt").exists()


@pytest.mark.parametrize("mode", [["-p"], ["-c"]])
def test_pair_accepts_a_file_whose_points_agree(tmp_path, mode):
    assert pair_cli.main(["--dutch", str(CASE), *mode]) in (0, 1)


def test_points_check_baku_type_without_records_accepts_a_fictitious_point():
    # Decision: a *_BAKU tournament type without 250/XXA records: the file does not say who
    # had the fictitious points, so 0, ½ or 1 more than the results is accepted
    text = with_points(CASE.read_text(), 1, "3.0")  # 2.0 from the results
    assert check_points(parse_trf(text))
    baku = text.replace("092 FIDE_DUTCH_2025", "192 FIDE_DUTCH_2025_BAKU")
    assert check_points(parse_trf(baku)) == []
    assert check_points(parse_trf(with_points(baku, 1, "3.5")))


def test_299_records_do_not_change_the_points_of_the_rows():
    # Decision: a 299 penalty is a record; player 6's rows still add up to ½
    import polars as pl

    t = parse_trf(SWISS.read_text())
    rows = t.scorecard.filter(pl.col("sno") == 6)["points"].sum()
    assert rows == 0.5 and next(p.points for p in t.players if p.sno == 6) == 0.0

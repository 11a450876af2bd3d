"""``chessfed pair -c`` explains a round whose recorded pairing differs from the engine's
(transforms/fide/dutch/explain.py): the first criterion the recorded pairing breaks or scores
worse on, bracket by bracket. The recorded pairings here are reference cases with two boards'
opponents (or one board's colours) swapped in the TRF text."""

from __future__ import annotations

import io
import itertools
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from flows.cli.pair import check_rounds
from transforms.fide.dutch.explain import explain_round
from transforms.fide.trf import parse_trf

DATA = Path(__file__).parents[1] / "data" / "dutch"
T03_2025 = DATA / "2025" / "T03_n019_r08_realistic_s8003" / "r08.trf"
T02_2025 = DATA / "2025" / "T02_n014_r07_clean_s8002" / "r07.trf"
T04_2017 = DATA / "2017" / "T04_n024_r10_realistic_s7004" / "r10.trf"


def _entry(line: str, rnd: int) -> slice:
    start = 91 + 10 * (rnd - 1)
    return slice(start, start + 8)


def swap_opponents(text: str, rnd: int, board1: tuple[int, int], board2: tuple[int, int]) -> str:
    """The TRF with round ``rnd``'s boards a-b and c-d made a-d and c-b (colours and results
    kept on each player's line)."""
    (a, b), (c, d) = board1, board2
    new = {a: d, d: a, c: b, b: c}
    out = []
    for line in text.splitlines():
        if line.startswith("001") and int(line[4:8]) in new:
            s = _entry(line, rnd)
            entry = line[s]
            old = int(entry[:4])
            assert old in new, (line, old)
            line = line[:s.start] + f"{new[int(line[4:8])]:4d}" + entry[4:] + line[s.stop:]
        out.append(line)
    return "\n".join(out) + "\n"


def swap_colours(text: str, rnd: int, white: int, black: int) -> str:
    flip = {"w": "b", "b": "w"}
    out = []
    for line in text.splitlines():
        if line.startswith("001") and int(line[4:8]) in (white, black):
            s = _entry(line, rnd)
            e = line[s]
            line = line[:s.start] + e[:5] + flip[e[5]] + e[6:] + line[s.stop:]
        out.append(line)
    return "\n".join(out) + "\n"


def check(text: str, edition=None) -> list[str]:
    out = io.StringIO()
    check_rounds(parse_trf(text), edition, out)
    return out.getvalue().splitlines()


def test_a_worse_colour_pairing_names_c12_of_2025():
    text = swap_opponents(T03_2025.read_text(), 6, (6, 8), (7, 5))
    lines = check(text)
    assert lines[:5] == [f"round {r}: same" for r in range(1, 6)]
    assert lines[5].startswith("round 6: differs; recorded only: 6-5, 7-8")
    assert lines[6] == ("  round 6, bracket 3 points: the recorded pairing gives 1 player their "
                        "colour preference less (C.04.3 2025 C12)")
    assert lines[7:] == ["round 7: same"]


def test_the_2017_edition_names_its_own_number_c10():
    text = swap_opponents(T04_2017.read_text(), 8, (15, 8), (21, 17))
    f = explain_round(parse_trf(text), 8)
    assert (f.criterion, f.bracket, f.recorded_worse) == ("C10", 30, True)
    assert str(f) == ("round 8, bracket 3 points: the recorded pairing gives 1 player their "
                      "colour preference less (C.04.3 2017 C10)")


def test_a_rematch_is_the_absolute_criterion_c1():
    f = explain_round(parse_trf(swap_opponents(T02_2025.read_text(), 2, (1, 14), (7, 6))), 2)
    assert str(f) == "round 2: players 7 and 14 already met in round 1 (C.04.3 2025 C1)"


def test_fewer_pairs_in_the_bracket_is_c6_and_the_next_bracket_c8():
    f = explain_round(parse_trf(swap_opponents(T02_2025.read_text(), 2, (1, 14), (3, 4))), 2)
    assert (f.criterion, f.bracket) == ("C6", 10)
    assert "floats 2 more players down (fewer pairs in the bracket)" in f.text
    f = explain_round(parse_trf(swap_opponents(T02_2025.read_text(), 2, (1, 14), (9, 12))), 2)
    assert (f.criterion, f.bracket) == ("C8", 10)


def test_an_equally_good_pairing_differs_in_the_order_of_transpositions():
    f = explain_round(parse_trf(swap_opponents(T02_2025.read_text(), 1, (2, 9), (4, 11))), 1)
    assert (f.criterion, f.bracket) == ("D.1-D.3", 0)
    assert "equal on every quality criterion" in f.text and "2-11, 4-9" in f.text


def test_swapped_colours_name_the_colour_rule():
    t = parse_trf(T02_2025.read_text())
    w, b = sorted(x for x in t.pairing_of(4) if x[1] is not None)[0]
    f = explain_round(parse_trf(swap_colours(T02_2025.read_text(), 4, w, b)), 4)
    assert f.criterion in {"E.1", "E.2", "E.3", "E.4", "E.5"}
    assert f"players {b} and {w}: the recorded colours give White to {b}, the rules to {w}" \
        in f.text


def test_a_recorded_round_equal_to_the_engines_has_no_explanation():
    t = parse_trf(T02_2025.read_text())
    assert all(explain_round(t, r) is None for r in range(1, 7))


@pytest.mark.parametrize("case", [T03_2025, T04_2017])
def test_the_engines_pairing_is_never_worse_on_the_first_criterion_that_differs(case):
    """Every second swap of two boards' opponents in every round: the explanation measures the
    engine's pairing better (or the swap breaks an absolute criterion). This breaks if the
    measures and the engine's weights disagree on any criterion's order or direction."""
    t = parse_trf(case.read_text())
    seen = Counter()
    for r in range(1, max(row[0] for row in t.card_rows) + 1):
        games = sorted(x for x in t.pairing_of(r) if x[1] is not None)
        for (a, b), (c, d) in itertools.islice(itertools.combinations(games, 2), 0, None, 2):
            new = {a: d, d: a, c: b, b: c}
            rows = tuple((x[0], x[1], new.get(x[1], x[2]) if x[0] == r else x[2], *x[3:])
                         for x in t.card_rows)
            f = explain_round(replace(t, card_rows=rows), r)
            assert f is not None and f.recorded_worse, (r, (a, b), (c, d), str(f))
            seen[f.criterion] += 1
    assert len(seen) >= 5, seen

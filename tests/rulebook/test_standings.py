"""Final ranking (points, then the configured tie-breaks in order) and unshared prizes."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest

from tests.reference_data import load
from transforms.core.model import SCORECARD_COLUMNS, SCORECARD_SCHEMA, DutchEdition
from transforms.fide.standings import (
    PairingRegime,
    RegimeSource,
    allocate_prizes,
    complete_round_robin_cycles,
    pairing_regime,
    rank_players,
    tournament_type_round_robin,
)
from transforms.fide.trf import Tournament, TrfPlayer, parse_trf

HELD_TRF_FOLDER = Path(__file__).parents[1] / "data" / "tiebreak" / "fide_held_exercises"
NATIONAL_JUNIOR = ["BH-C1", "BH", "SB", "DE", "WIN", "BWG"]






def game(rnd: int, white: int, black: int, white_points: float) -> list[dict]:
    return [
        {"round": rnd, "sno": white, "opponent": black, "colour": "w",
         "points": white_points, "kind": "played"},
        {"round": rnd, "sno": black, "opponent": white, "colour": "b",
         "points": 1.0 - white_points, "kind": "played"},
    ]


def frame(rows: list[dict]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=SCORECARD_SCHEMA)


def roster(n: int) -> pl.DataFrame:
    return pl.DataFrame({"sno": list(range(1, n + 1)), "name": [f"P{i}" for i in range(1, n + 1)],
                         "rating": [2000 - 10 * i for i in range(1, n + 1)]},
                        schema={"sno": pl.Int32, "name": pl.String, "rating": pl.Int32})


# Four players, two rounds, a cycle: everybody 1 point, everybody BH 2.0
#   1: 2w1 4b0     2: 1b0 3w1     3: 4w1 2b0     4: 3b0 1w1
SYMMETRIC = frame(game(1, 1, 2, 1.0) + game(1, 3, 4, 1.0) + game(2, 2, 3, 1.0) + game(2, 4, 1, 1.0))


def test_ranks_by_points_first():
    rk = rank_players(SYMMETRIC, roster(4), [], edition="fide-2024")
    assert rk.columns == ["rank", "rank_label", "sno", "name", "points", "tied_after_all"]
    assert rk["points"].to_list() == sorted(rk["points"].to_list(), reverse=True)


def test_players_equal_on_everything_share_the_rank_listed_by_start_number():
    # SYMMETRIC: 1.0 points and BH 2.0 each
    rk = rank_players(SYMMETRIC, roster(4), ["BH"], edition="fide-2024")
    assert rk["rank"].to_list() == [1, 1, 1, 1]
    assert rk["sno"].to_list() == [1, 2, 3, 4]
    assert rk["rank_label"].unique().to_list() == ["1-4"]
    assert rk["tied_after_all"].all()


def test_direct_encounter_separates_only_players_still_tied_before_it():
    # 1 and 2 both 1.0; 1 beat 2 -> DE puts 1 first.
    #   1: 2w1 3b0 = 1.0   2: 1b0 4w1 = 1.0   3: 4w½ 1w1 = 1.5   4: 3b½ 2b0 = 0.5
    rows = game(1, 1, 2, 1.0) + game(1, 3, 4, 0.5) + game(2, 3, 1, 1.0) + game(2, 2, 4, 1.0)
    sc = frame(rows)
    rk = rank_players(sc, roster(4), ["DE"], edition="fide-2024")
    top = rk.filter(pl.col("points") == 1.0)
    assert top["sno"].to_list() == [1, 2]
    assert top["rank"].to_list() == [2, 3]
    assert not top["tied_after_all"].any()
    assert top["DE"].to_list() == [1.0, 2.0]  # their places in the tie group
    # with BH before DE, the players differ on BH and DE never decides: no DE place
    rk2 = rank_players(sc, roster(4), ["BH", "DE"], edition="fide-2024")
    assert rk2.filter(pl.col("sno").is_in([1, 2]))["DE"].to_list() == [None, None]


def test_tiebreak_order_is_the_configured_order():
    sc, players = _held()
    a = rank_players(sc, players, ["BH-C1", "BH"], edition="fide-2024")
    b = rank_players(sc, players, ["SB", "BH-C1"], edition="fide-2024")
    assert a["sno"].to_list() != b["sno"].to_list()
    assert a.columns[5:7] == ["BH-C1", "BH"] and b.columns[5:7] == ["SB", "BH-C1"]


def test_national_junior_order_on_fide_exercise():
    # FIDE exercise (16 players, 5 rounds) ranked with the National Junior order under 2024
    # rules: Bruno (4.0) first; the 3.5 group by BH-C1: Charline 13.0, David 11.5, then
    # Alyx and Stephan (11.0, 11.0) split by BH (12.5 = 12.5) then SB (8.0 > 7.25).
    sc, players = _held()
    rk = rank_players(sc, players, NATIONAL_JUNIOR, edition="fide-2024")
    assert rk["sno"].to_list()[:5] == [2, 3, 4, 1, 16]
    assert rk["rank"].to_list()[:5] == [1, 2, 3, 4, 5]
    assert not rk["tied_after_all"].any()


def test_a_player_who_met_nobody_has_aro_0_and_ranks_last():
    # 1 won by forfeit against 2, so 1 met nobody over the board (ARO 0, as FIDE's calculator
    # and Swiss-Manager print it); 3 beat 4 over the board (ARO 1960).
    #   1: +2w   2: -1b   3: 4w1   4: 3b0
    rows = game(1, 3, 4, 1.0) + [
        {"round": 1, "sno": 1, "opponent": 2, "colour": "w", "points": 1.0, "kind": "forfeit_win"},
        {"round": 1, "sno": 2, "opponent": 1, "colour": "b", "points": 0.0, "kind": "forfeit_loss"}]
    rk = rank_players(frame(rows), roster(4), ["ARO"], edition="fide-2024")
    winners = rk.filter(pl.col("points") == 1.0)
    assert winners["sno"].to_list() == [3, 1]
    assert winners["ARO"].to_list() == [1960.0, 0.0]
    assert winners["rank"].to_list() == [1, 2]


def _held() -> tuple[pl.DataFrame, pl.DataFrame]:
    return load(HELD_TRF_FOLDER / "normalized_swiss_5")


def _ranking(ranks: list[int]) -> pl.DataFrame:
    n = len(ranks)
    return pl.DataFrame({"rank": ranks, "sno": list(range(1, n + 1)),
                         "name": [f"P{i}" for i in range(1, n + 1)],
                         "points": [5.0] * n, "tied_after_all": [ranks.count(r) > 1 for r in ranks]},
                        schema={"rank": pl.Int32, "sno": pl.Int32, "name": pl.String,
                                "points": pl.Float64, "tied_after_all": pl.Boolean})


def test_each_place_gets_its_own_prize_unshared():
    prizes = allocate_prizes(_ranking([1, 2, 3, 4]), [Decimal(100), 50, 25.5])
    assert prizes.columns == ["place", "sno", "name", "points", "amount", "flag"]
    assert prizes["amount"].to_list() == [Decimal("100.00"), Decimal("50.00"), Decimal("25.50"),
                                          Decimal("0.00")]
    assert prizes["flag"].to_list() == ["", "", "", ""]


def test_players_tied_after_all_tiebreaks_are_not_shared_but_flagged():
    # "In case of tie, cash prizes will not be shared": places 2 and 3 keep their own prizes,
    # provisionally by start number, and the chief arbiter is told.
    prizes = allocate_prizes(_ranking([1, 2, 2, 4]), [100, 50, 25])
    assert prizes["amount"].to_list() == [Decimal("100.00"), Decimal("50.00"), Decimal("25.00"),
                                          Decimal("0.00")]
    flags = prizes["flag"].to_list()
    assert flags[0] == "" and flags[3] == ""
    assert flags[1] == flags[2] and "chief arbiter" in flags[1] and "2, 3" in flags[1]


def test_ties_outside_the_money_are_not_flagged():
    prizes = allocate_prizes(_ranking([1, 2, 3, 3]), [100, 50])
    assert prizes["flag"].to_list() == ["", "", "", ""]


def test_shared_prizes_split_the_places_sum_when_rules_say_so():
    prizes = allocate_prizes(_ranking([1, 2, 2, 4]), [100, 50, 25], shared=True)
    assert prizes["amount"].to_list() == [Decimal("100.00"), Decimal("37.50"), Decimal("37.50"),
                                          Decimal("0.00")]


def test_twenty_prizes_per_category_national_junior():
    table = [Decimal(1000 - 40 * i) for i in range(20)]
    prizes = allocate_prizes(_ranking(list(range(1, 26))), table)
    assert prizes.filter(pl.col("amount") > 0).height == 20
    assert prizes["amount"][19] == Decimal("240.00") and prizes["amount"][20] == Decimal("0.00")


@pytest.mark.parametrize("edition", ["fide-2009", "fide-2024", "fide-2026"])
def test_every_edition_ranks_every_player_once(edition):
    sc, players = _held()
    rk = rank_players(sc, players, NATIONAL_JUNIOR, edition=edition)
    assert sorted(rk["sno"].to_list()) == list(range(1, 17))


@pytest.mark.parametrize("folder", ["hbcc_2025_april_blitz", "hbcc_2025_february_blitz",
                                    "hbcc_2025_hobsons_bay_cup", "hbcc_2025_juniors_rapid",
                                    "hbcc_2026_juniors_rapid"])
@pytest.mark.parametrize("edition,column", [("fide-2024", "tec_rank_V1"),
                                            ("fide-2026", "tec_rank_V2")])
def test_national_junior_order_ranks_real_events_like_fide_tec(folder, edition, column):
    # tests/data/tiebreak/README.md: ranks from FIDE TEC's calculator with PTS, BH-C1, BH, SB,
    # DE, WIN, BWG (ties that reach DE: 1-3 groups per event; some remain tied after all).
    base = Path(__file__).parents[1] / "data" / "tiebreak" / folder
    sc, players = load(base / "normalized")
    tec = pl.read_csv(base / "tec_ranking_national_junior_order.csv")
    rk = rank_players(sc, players, NATIONAL_JUNIOR, edition=edition)
    got = dict(zip(rk["sno"].to_list(), rk["rank"].to_list(), strict=True))
    expected = dict(zip(tec["sno"].to_list(), tec[column].to_list(), strict=True))
    assert len(expected) >= 30
    assert {s: (r, got[s]) for s, r in expected.items() if got[s] != r} == {}


# ----------------------------------------------------------------------------- DE as an order


def _groups_before_de(rk: pl.DataFrame, codes: list[str]) -> dict[tuple, list[dict]]:
    before = ["points", *codes[:codes.index("DE")]]
    out: dict[tuple, list[dict]] = {}
    for r in rk.iter_rows(named=True):
        out.setdefault(tuple(r[k] for k in before), []).append(r)
    return out


def _events() -> list[tuple[pl.DataFrame, pl.DataFrame]]:
    data = HELD_TRF_FOLDER.parent
    out = [load(HELD_TRF_FOLDER / f) for f in ("normalized_swiss_5", "normalized_swiss_9")]
    out += [load(p) for p in sorted(data.glob("hbcc_*/normalized"))]
    cases = parse_trf((data / "direct_encounter_cases" / "tournament.trf").read_text())
    return [*out, (cases.scorecard, cases.players_frame())]


def test_de_column_never_suggests_an_order_the_rank_does_not_show_C07_6():
    # In every group tied before DE: either nobody has a DE place or everybody has; a better
    # place always means a better rank; a player alone before DE has none. Checked on the
    # FIDE exercises, the five Vega events and the constructed DE cases, two tie-break orders.
    places = 0
    for sc, players in _events():
        for codes in (NATIONAL_JUNIOR, ["DE", "BH"]):
            rk = rank_players(sc, players, codes, edition="fide-2024")
            for members in _groups_before_de(rk, codes).values():
                de = [m["DE"] for m in members]
                assert all(d is None for d in de) or all(d is not None for d in de)
                if len(members) == 1:
                    assert de == [None]
                for p in members:
                    for q in members:
                        if p["DE"] is not None and p["DE"] < q["DE"]:
                            assert p["rank"] < q["rank"]
                            places += 1
    assert places >= 10


# ----------------------------------------------------------------------------- C.07 15.2


@pytest.mark.parametrize("record,expected", [
    ("192 FIDE_ROUNDROBIN", True), ("192 BERGER_ROUNDROBIN_G2", True),
    ("192 FIDE_DOUBLEROUNDROBIN", True), ("192 BERGER_TEAM_ROUNDROBIN_G1", True),
    ("192 FIDE_SCHEVENINGEN", True), ("192 FIDE_SCHILLER_4X3", True),
    ("192 FIDE_DUTCH_2025", False), ("192 FIDE_DUBOV_BAKU", False), ("192 CUSTOM_SWISS", False),
    ("192 FIDE_TEAM_TYPEA_MP_GP", False), ("192 CUSTOM_KNOCKOUT", None),
    ("092 Individual: Round robin", True), ("092 Round-Robin", True), ("092 Berger", True),
    ("092 RR", True), ("092 All-play-all", True),
    ("092 Individual: Swiss-System", False), ("092 Swiss Dutch", False), ("092 Monrad", False),
    ("092 Torre", None), ("092 Swiss or round robin", None), ("012 Round Robin Open", None),
])
def test_tournament_type_records_name_pre_determined_pairings_or_a_swiss(record, expected):
    got = tournament_type_round_robin([record])
    assert (None if got is None else got[0]) is expected
    if got is not None:
        assert got[1] == record


def test_the_192_code_wins_over_the_092_text_and_the_first_record_decides():
    # Decision pinned: 192 (the encoded type) before 092 (free text), whatever their order
    assert tournament_type_round_robin(["092 Swiss", "192 FIDE_ROUNDROBIN"]) == (
        True, "192 FIDE_ROUNDROBIN")
    assert tournament_type_round_robin(["092 Round robin", "092 Swiss"]) == (True, "092 Round robin")
    assert tournament_type_round_robin(["192 CUSTOM_KNOCKOUT", "092 Swiss"]) == (False, "092 Swiss")


def _round_robin_card(n: int, cycles: int) -> pl.DataFrame:
    """Every two of 1..n meet ``cycles`` times, one pair per round (results don't matter)."""
    rows, rnd = [], 0
    for _ in range(cycles):
        for a in range(1, n + 1):
            for b in range(a + 1, n + 1):
                rnd += 1
                rows += game(rnd, a, b, 0.5)
    return frame(rows)


def test_a_complete_single_or_double_round_robin_is_recognised_C07_15_2():
    assert complete_round_robin_cycles(_round_robin_card(4, 1), range(1, 5)) == 1
    assert complete_round_robin_cycles(_round_robin_card(5, 2), range(1, 6)) == 2
    # a forfeit is a meeting (the scheduled opponent); the scorecard's rounds are what counts
    forfeit = _round_robin_card(3, 1).with_columns(
        pl.when((pl.col("round") == 1) & (pl.col("sno") == 1)).then(pl.lit("forfeit_win"))
        .when((pl.col("round") == 1) & (pl.col("sno") == 2)).then(pl.lit("forfeit_loss"))
        .otherwise(pl.col("kind")).alias("kind"))
    assert complete_round_robin_cycles(forfeit, [1, 2, 3]) == 1


def test_an_incomplete_or_uneven_round_robin_is_not_recognised():
    card = _round_robin_card(4, 1)
    assert complete_round_robin_cycles(card.filter(pl.col("round") < 6), range(1, 5)) is None
    assert complete_round_robin_cycles(card, range(1, 6)) is None  # 5 never played
    extra = pl.concat([card, frame(game(7, 1, 2, 1.0))])  # 1-2 met twice, the others once
    assert complete_round_robin_cycles(extra, range(1, 5)) is None
    assert complete_round_robin_cycles(SYMMETRIC, range(1, 5)) is None  # a Swiss
    assert complete_round_robin_cycles(frame([]), [1]) is None


def _tournament(*header: str, card: pl.DataFrame) -> Tournament:
    snos = sorted(set(card["sno"].to_list()))
    return Tournament(name="t", players=tuple(TrfPlayer(sno=s, name=f"P{s}") for s in snos),
                      card_rows=tuple(card.select(SCORECARD_COLUMNS).iter_rows()),
                      other_records=header)


def test_pairing_regime_precedence_option_then_type_then_complete_round_robin_then_swiss():
    rr = _round_robin_card(4, 1)
    swiss = SYMMETRIC
    assert pairing_regime(_tournament(card=rr)) == PairingRegime(
        True, RegimeSource.COMPLETE_ROUND_ROBIN, "every two of the 4 players met once")
    assert pairing_regime(_tournament(card=swiss)).source is RegimeSource.DEFAULT
    assert not pairing_regime(_tournament(card=swiss)).round_robin
    typed = pairing_regime(_tournament("092 Individual: Swiss-System", card=rr))
    assert (typed.round_robin, typed.source) == (False, RegimeSource.TYPE_RECORD)
    typed = pairing_regime(_tournament("192 FIDE_ROUNDROBIN", card=swiss))
    assert (typed.round_robin, typed.source) == (True, RegimeSource.TYPE_RECORD)
    for option in (True, False):
        got = pairing_regime(_tournament("192 FIDE_ROUNDROBIN", card=rr), round_robin=option)
        assert (got.round_robin, got.source) == (option, RegimeSource.OPTION)
    dutch = replace(_tournament(card=rr), edition=DutchEdition.RULES_2025)  # 092 FIDE_DUTCH_2025
    assert (pairing_regime(dutch).round_robin, pairing_regime(dutch).source) == (
        False, RegimeSource.TYPE_RECORD)

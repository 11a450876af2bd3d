"""Property-based tests (hypothesis) of the rulebook: random Swiss tournaments paired round by
round by the Dutch engine through the event's own path (results rows -> scorecard ->
``rounds.engine_input`` -> ``pair_round``), their points, tie-breaks and TRF, and Golden
Knights sections.

Every test runs a fixed number of examples, derandomized (the same examples on every run and
machine, no example database), so CI is reproducible; ``deadline=None`` because the first
examples pay polars' warm-up.

What the pairing properties check, per round (FIDE C.04.3, both editions; the engine's own
state is not consulted, the colour history is recomputed here from the scorecard):

- every present player (no requested bye, not withdrawn) is on exactly one board; the
  pairing-allocated bye (PAB) is given exactly when the number of present players is odd;
- C1: no two players who have played a game meet again (a forfeited game is not a game,
  C.04.1, so forfeit opponents may meet);
- C2: the PAB does not go to a player who already had a PAB or a forfeit win; under the 2025
  edition not to a player who scored a win without playing in any way (forfeit win, PAB, FPB);
- C3, the absolute colour rules: a player with an absolute colour preference (colour
  difference beyond +-1, or the same colour in his last two played games; only played games
  count, C.04.1) gets that colour, unless he meets a player with the same absolute preference
  in the last round (``XXR`` known) and one of the two is a topscorer (more than 50% of the
  maximum possible score before the last round, as ``criteria.compatible`` decides it);
  consequently, outside that exception, after the round no player has a colour difference
  beyond +-2 nor the same colour three times in a row (played games);
- when the engine finds no pairing, none exists: an exhaustive search over the present
  players under C1-C3 finds none either;
- the pairing is the same (board for board, colours included) when players.csv's rows and
  results.csv's rows come in another order (same start numbers).
"""

from __future__ import annotations

import itertools
import random
import string

import polars as pl
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from transforms.core.errors import NoValidPairing
from transforms.core.model import DutchEdition, ResultCode
from transforms.fide.dutch.engine import pair_round
from transforms.fide.tiebreaks import compute_tiebreaks
from transforms.fide.trf import (
    ByeRequest,
    ForbiddenPairs,
    TrfFormat,
    TrfHeader,
    parse_trf,
    tournament_from_scorecard,
    write_trf,
)
from transforms.golden_knights.results import section_games
from transforms.golden_knights.rules import GKRules
from transforms.golden_knights.sections import section_schedule
from transforms.swiss import rounds
from transforms.swiss.scorecard import scorecard_from_results

PROPS = {"deadline": None, "derandomize": True, "database": None,
         "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}

RESULTS_SCHEMA = {"round": pl.Int64, "board": pl.Int64, "white_id": pl.String,
                  "black_id": pl.String, "result": pl.String}
GAME_CODES = ["1-0", "0-1", "1/2-1/2", "+/-", "-/+", "-/-"]
GAME_WEIGHTS = [35, 30, 25, 4, 4, 2]


# ----------------------------------------------------------------------------- tournaments


class Swiss:
    """A Swiss section played round by round: the inputs (players, results) and what the
    engine was given and returned for each round."""

    def __init__(self, n: int, total: int, edition: DutchEdition, initial: str, ratings: list[int]):
        self.n, self.total, self.edition, self.initial = n, total, edition, initial
        self.players = pl.DataFrame({
            "player_id": [f"p{s:03d}" for s in range(1, n + 1)],
            "sno": pl.Series(range(1, n + 1), dtype=pl.Int32),
            "name": [f"Player {s}" for s in range(1, n + 1)],
            "rating": sorted(ratings, reverse=True)})
        self.results: list[dict] = []
        self.rounds: list[dict] = []
        """Per round: setup, scorecard before it, boards (or None: NoValidPairing)."""

    def pid(self, sno: int) -> str:
        return f"p{sno:03d}"

    def results_frame(self, rows: list[dict] | None = None) -> pl.DataFrame:
        return pl.DataFrame(self.results if rows is None else rows, schema=RESULTS_SCHEMA)

    def scorecard(self, through: int, results: pl.DataFrame | None = None,
                  players: pl.DataFrame | None = None) -> pl.DataFrame:
        p = self.players if players is None else players
        return scorecard_from_results(self.results_frame() if results is None else results,
                                      p.select("player_id", "sno"), through_round=through)

    def engine_pairing(self, r: int, setup: rounds.RoundSetup, *, players=None, results=None):
        p = self.players if players is None else players
        card = self.scorecard(r - 1, results, p)
        t = rounds.engine_input(p, card, r, setup, name="prop", total_rounds=self.total,
                                edition=self.edition, initial_colour=self.initial)
        return pair_round(t), card


@st.composite
def swiss_events(draw, max_players: int = 14, max_rounds: int = 7) -> Swiss:
    """A random section (2..max_players players, 1..max_rounds rounds, either edition and
    initial colour) paired by the engine round by round; results drawn per board (forfeits
    and double forfeits included), requested byes (HPB/ZPB/FPB) and withdrawals drawn per
    round. Stops at the first round the engine cannot pair."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    # sizes from the seed, larger ones more often (hypothesis' own integers favour the
    # smallest fields)
    n = max(rng.randint(2, max_players), rng.randint(2, max_players))
    total = max(rng.randint(1, max_rounds), rng.randint(1, max_rounds))
    edition = draw(st.sampled_from([DutchEdition.RULES_2017, DutchEdition.RULES_2025]))
    initial = draw(st.sampled_from(["white", "black"]))
    ratings = [rng.randint(1000, 2800) for _ in range(n)]
    bye_rate = draw(st.sampled_from([0.0, 0.05, 0.15]))
    ev = Swiss(n, total, edition, initial, ratings)
    withdrawn: set[int] = set()
    for r in range(1, total + 1):
        if rng.random() < 0.1 and n - len(withdrawn) > 2:
            withdrawn.add(rng.choice([s for s in range(1, n + 1) if s not in withdrawn]))
        byes = {s: rng.choice(["HPB", "HPB", "ZPB", "FPB"]) for s in range(1, n + 1)
                if s not in withdrawn and rng.random() < bye_rate}
        setup = rounds.RoundSetup(byes, frozenset(withdrawn))
        try:
            boards, card = ev.engine_pairing(r, setup)
        except NoValidPairing:
            ev.rounds.append({"round": r, "setup": setup, "card": ev.scorecard(r - 1), "boards": None})
            break
        ev.rounds.append({"round": r, "setup": setup, "card": card, "boards": boards})
        for i, (w, b) in enumerate(boards, start=1):
            code = "PAB" if b is None else rng.choices(GAME_CODES, GAME_WEIGHTS)[0]
            ev.results.append({"round": r, "board": i, "white_id": ev.pid(w),
                               "black_id": None if b is None else ev.pid(b), "result": code})
        for j, (s, k) in enumerate(sorted(byes.items()), start=len(boards) + 1):
            ev.results.append({"round": r, "board": j, "white_id": ev.pid(s), "black_id": None,
                               "result": k})
    return ev


class History:
    """What the scorecard before a round says about each player, recomputed independently of
    the engine's state (FIDE C.04.1 / C.04.3 A.6, A.7)."""

    def __init__(self, card: pl.DataFrame, snos: range):
        rows = card.sort("round").to_dicts()
        self.colours = {s: [r["colour"] for r in rows if r["sno"] == s and r["kind"] == "played"]
                        for s in snos}
        self.points = {s: sum(r["points"] for r in rows if r["sno"] == s) for s in snos}
        self.played = {frozenset((r["sno"], r["opponent"])) for r in rows if r["kind"] == "played"}
        self.kinds = {s: [r["kind"] for r in rows if r["sno"] == s] for s in snos}

    def absolute(self, s: int) -> str | None:
        """A.6 a: the colour a player must get (difference beyond +-1, or the same colour in
        the last two played games), else None."""
        c = self.colours[s]
        diff = c.count("w") - c.count("b")
        if diff > 1:
            return "b"
        if diff < -1:
            return "w"
        if len(c) >= 2 and c[-1] == c[-2]:
            return "b" if c[-1] == "w" else "w"
        return None

    def bye_allowed(self, s: int, edition: DutchEdition) -> bool:
        """C2 of each edition."""
        had = set(self.kinds[s])
        if edition is DutchEdition.RULES_2017:
            return not had & {"PAB", "forfeit_win"}
        return not had & {"PAB", "forfeit_win", "FPB"}

    def may_meet(self, a: int, b: int, *, last_round: bool, played_rounds: int) -> bool:
        """C1 and C3 between two players (C3's topscorer exception in the last round)."""
        if frozenset((a, b)) in self.played:
            return False
        pa, pb = self.absolute(a), self.absolute(b)
        if pa is not None and pa == pb:
            return last_round and max(self.points[a], self.points[b]) > played_rounds / 2
        return True


def _present(ev: Swiss, rnd: dict) -> list[int]:
    setup = rnd["setup"]
    return [s for s in range(1, ev.n + 1) if s not in setup.absent and s not in setup.byes]


def _some_valid_pairing(h: History, players: list[int], ev: Swiss, r: int) -> bool:
    """Exhaustive search: is there any pairing of ``players`` obeying C1-C3 (one PAB, C2)?"""
    last = r == ev.total

    def match(rest: tuple[int, ...]) -> bool:
        if not rest:
            return True
        a = rest[0]
        return any(h.may_meet(a, b, last_round=last, played_rounds=r - 1)
                   and match(rest[1:i] + rest[i + 1:]) for i, b in enumerate(rest) if i > 0)

    if len(players) % 2 == 0:
        return match(tuple(players))
    return any(h.bye_allowed(s, ev.edition) and match(tuple(p for p in players if p != s))
               for s in players)


def check_round(ev: Swiss, rnd: dict) -> None:
    r, boards = rnd["round"], rnd["boards"]
    h = History(rnd["card"], range(1, ev.n + 1))
    present = _present(ev, rnd)
    if boards is None:
        assert len(present) <= 14
        assert not _some_valid_pairing(h, present, ev, r), f"round {r}: a valid pairing exists"
        event("no valid pairing (confirmed by search)")
        return
    seated = [s for b in boards for s in b if s is not None]
    assert sorted(seated) == sorted(present), f"round {r}: each present player exactly once"
    byes = [w for w, b in boards if b is None]
    assert len(byes) == len(present) % 2, f"round {r}: one PAB exactly when the count is odd"
    for s in byes:
        assert h.bye_allowed(s, ev.edition), f"round {r}: C2, {s} had a bye or unplayed win"
    last = r == ev.total
    for w, b in boards:
        if b is None:
            continue
        assert frozenset((w, b)) not in h.played, f"round {r}: C1 rematch {w}-{b}"
        for s, got, opp in ((w, "w", b), (b, "b", w)):
            want = h.absolute(s)
            if want is None or want == got:
                continue
            # C3: only two players with the same absolute preference, one a topscorer, in the
            # last round
            assert last and h.absolute(opp) == want, f"round {r}: C3 {s} must have {want}"
            assert max(h.points[s], h.points[opp]) > (r - 1) / 2, f"round {r}: C3 topscorers"
            event("C3 topscorer exception used")
        for s, got in ((w, "w"), (b, "b")):
            after = h.colours[s] + [got]
            excepted = last and h.absolute(s) not in (None, got)
            if not excepted:
                assert abs(after.count("w") - after.count("b")) <= 2, f"round {r}: {s} {after}"
                assert after[-3:] not in (["w"] * 3, ["b"] * 3), f"round {r}: {s} {after}"


@settings(max_examples=300, **PROPS)
@given(swiss_events())
def test_property_every_pairing_obeys_C1_C2_C3_and_seats_every_present_player_once(ev):
    event(f"rounds paired: {sum(r['boards'] is not None for r in ev.rounds)}")
    for rnd in ev.rounds:
        check_round(ev, rnd)


@settings(max_examples=100, **PROPS)
@given(swiss_events(max_players=12, max_rounds=6), st.integers(0, 2**32 - 1))
def test_property_pairing_does_not_depend_on_the_order_of_the_input_rows(ev, seed):
    rng = random.Random(seed)
    for rnd in ev.rounds:
        if rnd["boards"] is None:
            continue
        r = rnd["round"]
        players = ev.players.sample(fraction=1.0, shuffle=True, seed=rng.randrange(2**32))
        rows = [x for x in ev.results if x["round"] < r]
        rng.shuffle(rows)
        boards, _ = ev.engine_pairing(r, rnd["setup"], players=players,
                                      results=ev.results_frame(rows))
        assert boards == rnd["boards"], f"round {r}"


def test_check_round_catches_a_rematch_and_a_colour_violation():
    """The checker above is not vacuous: a pairing that breaks C1 or C3 fails it."""
    ev = Swiss(4, 5, DutchEdition.RULES_2025, "white", [2000, 1900, 1800, 1700])
    ev.results = [{"round": 1, "board": 1, "white_id": "p001", "black_id": "p003", "result": "1-0"},
                  {"round": 1, "board": 2, "white_id": "p002", "black_id": "p004", "result": "1-0"},
                  {"round": 2, "board": 1, "white_id": "p001", "black_id": "p002", "result": "1-0"},
                  {"round": 2, "board": 2, "white_id": "p003", "black_id": "p004", "result": "1-0"}]
    setup = rounds.RoundSetup({}, frozenset())
    card = ev.scorecard(2)
    bad_colour = {"round": 3, "setup": setup, "card": card, "boards": [(1, 4), (2, 3)]}
    rematch = {"round": 3, "setup": setup, "card": card, "boards": [(4, 2), (3, 1)]}
    good = {"round": 3, "setup": setup, "card": card, "boards": ev.engine_pairing(3, setup)[0]}
    check_round(ev, good)
    for wrong in (bad_colour, rematch):
        try:
            check_round(ev, wrong)
        except AssertionError:
            continue
        raise AssertionError(f"checker accepted {wrong['boards']}")


# ----------------------------------------------------------------------------- points


@settings(max_examples=60, **PROPS)
@given(swiss_events(max_players=12, max_rounds=6))
def test_property_points_sum_to_what_the_games_and_byes_give(ev):
    """FIDE C.04.1 / DESIGN.md results codes: every game played gives 1 point in total, a
    forfeit 1 (+/-, -/+), a double forfeit 0; PAB and FPB 1, HPB 1/2, ZPB 0; the scorecard
    and the tie-break table's points say the same."""
    played = max((x["round"] for x in ev.results), default=0)
    card = ev.scorecard(played)
    give = {"1-0": 1.0, "0-1": 1.0, "1/2-1/2": 1.0, "+/-": 1.0, "-/+": 1.0, "-/-": 0.0,
            "PAB": 1.0, "FPB": 1.0, "HPB": 0.5, "ZPB": 0.0}
    expected = sum(give[x["result"]] for x in ev.results)
    assert card["points"].sum() == expected
    assert card.height == ev.n * played  # absences are rows too (0 points)
    for x in ev.results:  # each row's own share
        code = ResultCode(x["result"])
        pts = dict(zip(card.filter(pl.col("round") == x["round"])["sno"],
                       card.filter(pl.col("round") == x["round"])["points"]))
        assert pts[int(x["white_id"][1:])] == code.white.points
        if x["black_id"] is not None:
            assert pts[int(x["black_id"][1:])] == code.black.points
    tb = compute_tiebreaks(card, ev.players.select("sno", "rating"), ["BH"], edition="fide-2024")
    assert tb["points"].sum() == expected


# ----------------------------------------------------------------------------- tie-breaks

CODES = ["BH", "BH-C1", "BH-C2", "BH-M1", "BH-M2", "SB", "SB-C1", "PS", "PS-C1", "WIN", "WON",
         "BPG", "BWG", "REP"]


@settings(max_examples=60, **PROPS)
@given(swiss_events(max_players=12, max_rounds=6),
       st.sampled_from(["fide-2024", "fide-2026", "fide-2009"]))
def test_property_tiebreak_modifiers_only_take_away(ev, edition):
    """FIDE C.07 14.1-14.4: a cut or median drops contributions, each at least 0, so
    BH-C2 <= BH-C1 <= BH, BH-M2 <= BH-M1 <= BH-C1, SB-C1 <= SB, PS-C1 <= PS; art. 7:
    BWG <= WON <= WIN, BWG <= BPG, REP <= rounds; all at least 0."""
    played = max((x["round"] for x in ev.results), default=0)
    assume(played > 0)  # an event with no round played has nothing to cut (and is not counted)
    card = ev.scorecard(played)
    tb = compute_tiebreaks(card, ev.players.select("sno", "rating"), CODES, edition=edition)
    eps = 1e-9
    for row in tb.iter_rows(named=True):
        v = {k: (row[k] or 0.0) for k in CODES}
        assert all(x >= -eps for x in v.values()), row
        assert v["BH-C2"] <= v["BH-C1"] + eps and v["BH-C1"] <= v["BH"] + eps, row
        assert v["BH-M2"] <= v["BH-M1"] + eps and v["BH-M1"] <= v["BH-C1"] + eps, row
        assert v["SB-C1"] <= v["SB"] + eps and v["PS-C1"] <= v["PS"] + eps, row
        assert v["BWG"] <= v["WON"] <= v["WIN"] and v["BWG"] <= v["BPG"], row
        assert v["REP"] <= played, row


# ----------------------------------------------------------------------------- TRF

NAME = st.text(alphabet=string.ascii_letters + string.digits + " ,.'-", min_size=1,
               max_size=33).map(str.strip).filter(bool)


@settings(max_examples=60, **PROPS)
@given(swiss_events(max_players=12, max_rounds=6), st.data())
def test_property_trf_write_then_read_is_the_identity(ev, data):
    """FIDE C.04 Annex 2: ``parse_trf(write_trf(t)) == t`` in TRF16 and TRF-2026, and writing
    what was read gives the same text (random names, ratings, federations, FIDE ids, birth
    dates, header records, forbidden pairs, bye requests)."""
    played = max((x["round"] for x in ev.results), default=0)
    card = ev.scorecard(played)
    n = ev.n
    players = ev.players.select("sno", "rating").with_columns(
        name=pl.Series(data.draw(st.lists(NAME, min_size=n, max_size=n))),
        fed=pl.Series(data.draw(st.lists(st.sampled_from(["", "IND", "USA", "GER", "FID"]),
                                         min_size=n, max_size=n))),
        fide_id=pl.Series(data.draw(st.lists(st.sampled_from(["", "1503014", "46616543", "5000"]),
                                             min_size=n, max_size=n))),
        birth=pl.Series(data.draw(st.lists(st.sampled_from(["", "2008/02/29", "1999", "1970/12/31"]),
                                           min_size=n, max_size=n))),
        sex=pl.Series(data.draw(st.lists(st.sampled_from(["", "m", "w"]), min_size=n, max_size=n))),
        title=pl.Series(data.draw(st.lists(st.sampled_from(["", "GM", "WIM", "FM"]),
                                           min_size=n, max_size=n))))
    forbidden = [ForbiddenPairs(tuple(sorted(data.draw(st.sets(st.integers(1, n), min_size=2,
                                                                max_size=3)))))] if n >= 3 else []
    header = TrfHeader(city=data.draw(NAME), federation="IND", start="2024/10/25",
                       end="2024/11/03", chief_arbiter=data.draw(NAME))
    fmt = data.draw(st.sampled_from([TrfFormat.TRF16, TrfFormat.TRF_2026]))
    byes = [ByeRequest("H", ev.total, (1,))] if fmt is TrfFormat.TRF_2026 else []
    t = tournament_from_scorecard(players, card, name=data.draw(NAME), total_rounds=ev.total,
                                  initial_colour=None, edition=ev.edition,
                                  forbidden_pairs=forbidden, bye_requests=byes, header=header,
                                  format=fmt)
    for out_fmt in (TrfFormat.TRF16, TrfFormat.TRF_2026):
        text = write_trf(t, format=out_fmt)
        back = parse_trf(text)
        assert back == t, out_fmt
        assert write_trf(back) == text, out_fmt


# ----------------------------------------------------------------------------- Golden Knights

ENTRY = st.text(alphabet=string.ascii_uppercase + string.digits + "-", min_size=1, max_size=9)


@st.composite
def gk_sections(draw, size: int = 7):
    """Published sections (stage, section, entry_id, seat) of ``size`` distinct entries."""
    k = draw(st.integers(1, 4))
    ids = draw(st.lists(ENTRY, min_size=k * size, max_size=k * size, unique=True))
    stage = draw(st.sampled_from(["preliminary", "semifinal", "final"]))
    rows = [(stage, f"{stage[0].upper()}{i // size + 1:02d}", e, i % size + 1)
            for i, e in enumerate(ids)]
    return pl.DataFrame(rows, schema={"stage": pl.String, "section": pl.String,
                                      "entry_id": pl.String, "seat": pl.Int64}, orient="row")


def _colour_counts(games: pl.DataFrame) -> dict[tuple[str, str], tuple[int, int]]:
    out: dict[tuple[str, str], list[int]] = {}
    for r in games.iter_rows(named=True):
        out.setdefault((r["section"], r["white"]), [0, 0])[0] += 1
        out.setdefault((r["section"], r["black"]), [0, 0])[1] += 1
    return {k: (w, b) for k, (w, b) in out.items()}


def _check_round_robin(sections: pl.DataFrame, games: pl.DataFrame) -> None:
    for (sec,), grp in sections.group_by(["section"]):
        ids = set(grp["entry_id"])
        g = games.filter(pl.col("section") == sec)
        pairs = [frozenset((w, b)) for w, b in zip(g["white"], g["black"])]
        assert all(len(p) == 2 for p in pairs), "nobody plays himself"
        assert len(pairs) == len(set(pairs)), "nobody plays anyone twice"
        assert set(pairs) == {frozenset(p) for p in itertools.combinations(ids, 2)}


@settings(max_examples=60, **PROPS)
@given(gk_sections())
def test_property_gk_schedule_three_whites_three_blacks_each_pair_once(sections):
    """GK rule 2: six games each, three with White and three with Black, everyone meets
    everyone in his section once, nobody himself."""
    sched = section_schedule(GKRules(), sections)
    counts = _colour_counts(sched)
    assert set(counts.values()) == {(3, 3)}
    assert len(counts) == sections.height
    _check_round_robin(sections, sched)


@settings(max_examples=60, **PROPS)
@given(gk_sections(), st.data())
def test_property_gk_section_games_keep_the_schedule_whatever_is_recorded(sections, data):
    """GK rule 2 through ``section_games``: whichever of the scheduled games are recorded (in
    any order, with any result), every pair is one game, nobody plays himself, and each player
    has three Whites and three Blacks."""
    sched = section_schedule(GKRules(), sections)
    picked = data.draw(st.lists(st.sampled_from(range(sched.height)), unique=True))
    rows = [(*sched.row(i), data.draw(st.sampled_from(["1-0", "0-1", "1/2-1/2", "+/-", "-/+", ""])),
             None, line) for line, i in enumerate(picked, start=2)]
    games = pl.DataFrame(rows, schema={"stage": pl.String, "section": pl.String,
                                       "white": pl.String, "black": pl.String,
                                       "result": pl.String, "ended": pl.Date, "line": pl.Int64},
                         orient="row")
    got, findings = section_games(GKRules(), sections.with_columns(line=pl.lit(0)), games)
    assert findings == []
    assert set(_colour_counts(got).values()) == {(3, 3)}
    _check_round_robin(sections, got)
    assert got.filter(pl.col("source") == "games").height == len(picked)


@settings(max_examples=60, **PROPS)
@given(gk_sections(), st.data())
def test_property_gk_a_fourth_white_is_always_reported(sections, data):
    """GK rule 2 (three with White): when games.csv records some games with the colours the
    other way round, every player left with more than three Whites over his section (games
    recorded and in progress) has a warning row, and nobody else has one."""
    sched = section_schedule(GKRules(), sections)
    picked = data.draw(st.lists(st.sampled_from(range(sched.height)), unique=True, min_size=1))
    swapped = data.draw(st.sets(st.sampled_from(picked)))
    rows = []
    for line, i in enumerate(picked, start=2):
        stage, sec, w, b = sched.row(i)
        if i in swapped:
            w, b = b, w
        rows.append((stage, sec, w, b, "1/2-1/2", None, line))
    games = pl.DataFrame(rows, schema={"stage": pl.String, "section": pl.String,
                                       "white": pl.String, "black": pl.String,
                                       "result": pl.String, "ended": pl.Date, "line": pl.Int64},
                         orient="row")
    got, findings = section_games(GKRules(), sections.with_columns(line=pl.lit(0)), games)
    _check_round_robin(sections, got)
    over = {p for (_sec, p), (w, _b) in _colour_counts(got).items() if w > 3}
    assert {f.value for f in findings} == over
    assert all(f.severity.value == "warning" and f.column == "white" for f in findings)
    assert len(findings) == len(over)


def test_gk_rule_2_a_recorded_game_with_colours_reversed_warns_of_the_fourth_white():
    """GK rule 2 regression: E1 recorded as White against E0 (the schedule gives E0 White) has
    four Whites over the section although only one of his games is recorded."""
    sections = pl.DataFrame({"stage": ["preliminary"] * 7, "section": ["P01"] * 7,
                             "entry_id": [f"E{i}" for i in range(7)], "seat": list(range(1, 8)),
                             "line": [0] * 7})
    games = pl.DataFrame({"stage": ["preliminary"], "section": ["P01"], "white": ["E1"],
                          "black": ["E0"], "result": ["1-0"], "ended": [None], "line": [2]},
                         schema_overrides={"ended": pl.Date})
    got, findings = section_games(GKRules(), sections, games)
    assert [(f.file, f.line, f.column, f.value, f.severity.value, f.reason) for f in findings] == [
        ("games.csv", 2, "white", "E1", "warning",
         "player has 4 games with White in his section, not 3 (rule 2)")]
    assert _colour_counts(got)[("P01", "E1")] == (4, 2)


def test_gk_section_games_self_pairing_is_refused():
    """The property's checker is not vacuous: a player against himself is a finding."""
    sections = pl.DataFrame({"stage": ["preliminary"] * 7, "section": ["P01"] * 7,
                             "entry_id": [f"E{i}" for i in range(7)], "seat": list(range(1, 8)),
                             "line": [0] * 7})
    games = pl.DataFrame({"stage": ["preliminary"], "section": ["P01"], "white": ["E1"],
                          "black": ["E1"], "result": ["1-0"], "ended": [None], "line": [2]},
                         schema_overrides={"ended": pl.Date})
    got, findings = section_games(GKRules(), sections, games)
    assert [f.reason for f in findings] == ["a player cannot play himself; row ignored"]
    _check_round_robin(sections, got)


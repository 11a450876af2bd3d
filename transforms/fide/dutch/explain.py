"""FIDE Dutch system (C.04.3) — why a recorded round differs from the engine's pairing, in an
arbiter's words (``chessfed pair -c``).

:func:`explain_round` re-reads the round as the engine does (``engine.build_context``: scores,
colour preferences, floats) and compares the recorded pairing with the engine's:

1. the absolute criteria the recorded pairing breaks, if any: every player to be paired is
   paired once (C4 completion), no rematch or forbidden pair (C1), the bye only to an eligible
   player (C2), no clash of absolute colour preferences (C3);
2. if both pairings make the same pairs, the colours (C.04.3 E.1-E.5, naming the rule that
   decides the first board whose colours differ) or else the board order (C.04.2);
3. otherwise the brackets from the top score down: in each, the quality criteria in the
   edition's order of priority, measured for both pairings with the engine's own reading of
   the players (``brackets.colour_fields`` for the colour criteria, ``state.float_of`` for the
   floats). The first bracket and criterion where the two measures differ is named, with how
   many players or which scores make the difference.

How each criterion is measured for a pairing, in the bracket of score ``s`` (its residents,
the players of score ``s``, and the moved-down players, higher players not paired in an
earlier bracket; a pair belongs to the bracket of its lower score; the players of the bracket
not paired in it are its downfloaters, the bye's receiver among them):

| 2017 | 2025 | measure (lower is better) |
|---|---|---|
| - | C5 | the score of the bye's receiver (the whole round, before the brackets) |
| C5 | C6 | the number of downfloaters |
| C6 | C7 | 2017: the PSD (score differences of the pairs, and of each downfloater to one point below the bracket's lowest score), largest first; 2025: the downfloaters' scores, highest first |
| C7 | C8 | the next bracket's C5-C6 / C6-C7 measures |
| - | C9 | the bye receiver's unplayed rounds (in the bracket of his score) |
| C8 | C10 | pairs where both have an absolute colour imbalance and the same preference (topscorers) |
| C9 | C11 | pairs where a player would get the same colour three times in a row (topscorers) |
| C10 | C12 | players who do not get their colour preference |
| C11 | C13 | players who do not get their strong colour preference |
| C12, C14 | C14, C16 | residents with a downfloat 1 (2) rounds ago who float down again |
| C13, C15 | C15, C17 | residents with an upfloat 1 (2) rounds ago who are paired with a higher score again |
| C16, C18 | C18, C20 | the scores of the repeated downfloaters (1, 2 rounds ago), highest first |
| C17, C19 | C19, C21 | the scores of the repeated upfloaters' opponents (1, 2 rounds ago), highest first |

Decision: when every criterion measures the same and the pairs still differ, the difference
is the order of transpositions and exchanges (C.04.3 D.1-D.3: the engine's pairing comes
first in it). Decision: C9 (2025) is compared in the bracket of the bye receiver's score, the
only bracket whose downfloaters can become the bye there. Decision: when the recorded pairing
measures *better* than the engine's on the first criterion that differs, it is said plainly
(an engine that missed a better pairing, or a look-ahead the measures above do not see: C4
completion of the rounds below).
"""

from __future__ import annotations

from dataclasses import dataclass

from transforms.core.errors import NoValidPairing
from transforms.core.model import DutchEdition
from transforms.fide.dutch.brackets import colour_fields
from transforms.fide.dutch.criteria import (
    colour_of,
    compatible,
    eligible_for_bye_2017,
    eligible_for_bye_2025,
)
from transforms.fide.dutch.engine import build_context, pair_round
from transforms.fide.dutch.state import DOWN, NONE, UP, WHITE, WIN, Context, Player, float_of
from transforms.fide.trf import Tournament

Board = tuple[int, "int | None"]


@dataclass(frozen=True)
class Finding:
    """Why one recorded round differs from the engine's pairing."""

    round: int
    bracket: int | None
    """The bracket's score in tenths of a point, None for the whole round."""
    criterion: str
    """``C12``, ``E.4``, ``D.1-D.3``, ``C.04.2``..."""
    edition: DutchEdition
    text: str
    """The sentence for the arbiter, without the round and bracket."""
    recorded_worse: bool = True

    @property
    def rule(self) -> str:
        if self.criterion.startswith("C.04"):
            return self.criterion
        return f"C.04.3 {self.edition.value} {self.criterion}"

    def __str__(self) -> str:
        where = f"round {self.round}"
        if self.bracket is not None:
            where += f", bracket {_points(self.bracket)} points"
        return f"{where}: {self.text} ({self.rule})"


def _points(tenths: int) -> str:
    return f"{tenths // WIN}" if tenths % WIN == 0 else f"{tenths / WIN:g}"


def _players(n: int) -> str:
    return f"{n} player" if n == 1 else f"{n} players"


def explain_round(t: Tournament, round_no: int,
                  edition: DutchEdition | str | None = None) -> Finding | None:
    """FIDE C.04.3 — why the recorded pairing of ``round_no`` differs from the engine's (see
    the module docstring); None when they are the same."""
    ed = DutchEdition.of(edition or t.edition or DutchEdition.RULES_2025)
    before = t.before_round(round_no)
    ctx = build_context(before, round_no, ed, frozenset())
    recorded = t.pairing_of(round_no)
    try:
        engine = pair_round(before, round_no=round_no, edition=ed)
    except NoValidPairing:
        engine = None
    if engine is not None and set(engine) == recorded:
        return None
    absolute = _absolute(ctx, recorded, round_no, ed)
    if absolute is not None:
        return absolute
    if engine is None:
        return Finding(round_no, None, "C4", ed, "the engine finds no pairing that meets the "
                       "absolute criteria, but the recorded one does: please report it",
                       recorded_worse=False)
    by = {p.sno: p for p in ctx.players}
    rec = _Pairing(ctx, by, recorded)
    eng = _Pairing(ctx, by, set(engine))
    if rec.pairs == eng.pairs:
        return _colours(ctx, by, recorded, set(engine), round_no, ed)
    return _brackets(ctx, rec, eng, round_no, ed)


def _absolute(ctx: Context, recorded: set[Board], r: int, ed: DutchEdition) -> Finding | None:
    """C1-C4 on the recorded pairing."""
    by = {p.sno: p for p in ctx.players}
    seen: dict[int, int] = {}
    for w, b in sorted(recorded, key=str):
        for s in (w, b):
            if s is not None:
                seen[s] = seen.get(s, 0) + 1
    for s, k in sorted(seen.items()):
        if s not in by:
            return Finding(r, None, "C4", ed, f"player {s} is paired, but was not to be paired "
                           f"in this round (absent, withdrawn or on a requested bye)")
        if k > 1:
            return Finding(r, None, "C4", ed, f"player {s} is paired {k} times")
    missing = sorted(s for s in by if s not in seen)
    if missing:
        return Finding(r, None, "C4", ed, f"{'players' if len(missing) > 1 else 'player'} "
                       f"{', '.join(map(str, missing))} "
                       f"{'are' if len(missing) > 1 else 'is'} not paired: the pairing is not "
                       f"complete")
    byes = [w for w, b in recorded if b is None]
    if len(byes) > 1:
        return Finding(r, None, "C4", ed, f"{len(byes)} pairing-allocated byes "
                       f"(players {', '.join(map(str, sorted(byes)))}); a round has at most one")
    eligible = eligible_for_bye_2017 if ed is DutchEdition.RULES_2017 else eligible_for_bye_2025
    for s in byes:
        if not eligible(by[s]):
            return Finding(r, None, "C2", ed, f"player {s} gets the pairing-allocated bye but "
                           f"already had one or scored a win without playing")
    for w, b in sorted(recorded, key=str):
        if b is None:
            continue
        pw, pb = by[w], by[b]
        if b in pw.forbidden:
            met = [k + 1 for k, h in enumerate(pw.history) if h.played and h.opponent == b]
            why = (f"already met in round {met[0]}" if met
                   else "are a forbidden pair (XXP / 260)")
            return Finding(r, None, "C1", ed, f"players {w} and {b} {why}")
        if not compatible(pw, pb, ctx):
            colour = "White" if pw.preference == WHITE else "Black"
            return Finding(r, None, "C3", ed, f"players {w} and {b} both have an absolute "
                           f"preference for {colour} and are not topscorers in the last round")
    return None


_E_RULE = {"E.1": "both get their colour preference", "E.2": "the stronger preference wins",
           "E.3": "colours alternate from the last round in which they differed",
           "E.4": "the higher ranked player gets his preference",
           "E.5": "colours go by pairing number and the initial colour"}


def _colours_differed(p: Player, q: Player) -> bool:
    """E.3 — the two players' colour sequences (latest first) differ somewhere."""
    hp = [r.colour for r in p.history if r.played][::-1]
    hq = [r.colour for r in q.history if r.played][::-1]
    return any(a != b for a, b in zip(hp, hq))


def _e_rule(p: Player, q: Player) -> str:
    """Which of C.04.3 E.1-E.5 decides the colours of ``p`` against ``q`` (the order of
    ``criteria.colour_of``)."""
    from transforms.fide.dutch.state import preferences_compatible

    if preferences_compatible(p.preference, q.preference):
        return "E.1" if (p.preference, q.preference) != (NONE, NONE) else "E.5"
    if p.absolute or q.absolute or p.strong != q.strong:
        return "E.2"
    if _colours_differed(p, q):
        return "E.3"
    return "E.4" if p.preference != NONE or q.preference != NONE else "E.5"


def _colours(ctx: Context, by: dict[int, Player], recorded: set[Board], engine: set[Board],
             r: int, ed: DutchEdition) -> Finding:
    swapped = sorted((w, b) for w, b in recorded - engine if b is not None)
    if not swapped:
        return Finding(r, None, "C.04.2", ed, "same boards and colours, other board order")
    w, b = swapped[0]
    pw, pb = by[w], by[b]
    rule = _e_rule(pw, pb) if pw.rank < pb.rank else _e_rule(pb, pw)
    white = w if colour_of(pw, pb, ctx) == WHITE else b
    more = f" ({len(swapped)} boards)" if len(swapped) > 1 else ""
    return Finding(r, None, rule, ed, f"players {w} and {b}: the recorded colours give White to "
                   f"{w}, the rules to {white}: {_E_RULE[rule]}{more}")


class _Pairing:
    """One pairing of the round, as the bracket measures read it."""

    def __init__(self, ctx: Context, by: dict[int, Player], boards: set[Board]):
        self.partner: dict[int, Player | None] = {}
        self.pairs: set[frozenset[int]] = set()
        self.bye: Player | None = None
        for w, b in boards:
            if b is None:
                self.bye = by[w]
                self.partner[w] = None
            else:
                self.partner[w], self.partner[b] = by[b], by[w]
                self.pairs.add(frozenset((w, b)))

    def pair_score(self, p: Player) -> int:
        """The score of the bracket where ``p`` is paired (-1: the bye)."""
        q = self.partner[p.sno]
        return -1 if q is None else min(p.score, q.score)


def _order(p: Player) -> tuple[int, int]:
    return (-p.score, p.rank)


def _measures(ctx: Context, pg: _Pairing, s: int, ed: DutchEdition
              ) -> dict[str, tuple[int, ...]]:
    """The bracket of score ``s`` under pairing ``pg``: criterion → measure (lower better),
    keyed by the 2025 numbering (the 2017 names are mapped in :data:`_NAMES_2017`)."""
    members = [p for p in ctx.players if p.score >= s and pg.pair_score(p) <= s]
    residents = [p for p in members if p.score == s]
    down = [p for p in members if pg.pair_score(p) < s]
    here = []
    for p in members:
        q = pg.partner[p.sno]
        if q is not None and pg.pair_score(p) == s and _order(p) < _order(q):
            here.append((p, q))
    m: dict[str, tuple[int, ...]] = {"C6": (len(down),)}
    if ed is DutchEdition.RULES_2017:
        floor = min(p.score for p in members) - WIN if members else s - WIN
        psd = sorted([abs(a.score - b.score) for a, b in here]
                     + [p.score - floor for p in down], reverse=True)
        m["C7"] = tuple(psd)
    else:
        m["C7"] = tuple(sorted((p.score for p in down), reverse=True))
    if ed is DutchEdition.RULES_2025 and pg.bye is not None and pg.bye.score == s:
        m["C9"] = (sum(1 for h in pg.bye.history if not h.played),)
    flags = [colour_fields(0, lo, hi, True, 1) for hi, lo in here]
    for bit, name in ((8, "C10"), (4, "C11"), (2, "C12"), (1, "C13")):
        m[name] = (sum(1 for f in flags if not f & bit),)
    for back, (cd, cu, sd, su) in ((1, ("C14", "C15", "C18", "C19")),
                                   (2, ("C16", "C17", "C20", "C21"))):
        if ctx.played_rounds < back:
            continue
        m[cd] = (sum(1 for p in residents if p in down and float_of(p, back, ctx) == DOWN),)
        ups = [(hi, lo) for hi, lo in here if hi.score > lo.score and lo.score == s
               and float_of(lo, back, ctx) == UP]
        m[cu] = (len(ups),)
        m[sd] = tuple(sorted((p.score for p in down if float_of(p, back, ctx) == DOWN),
                             reverse=True))
        m[su] = tuple(sorted((hi.score for hi, _lo in ups), reverse=True))
    return m


_ORDER_2025 = ["C6", "C7", "C8", "C9", "C10", "C11", "C12", "C13", "C14", "C15", "C16", "C17",
               "C18", "C19", "C20", "C21"]
_NAMES_2017 = {"C6": "C5", "C7": "C6", "C8": "C7", "C10": "C8", "C11": "C9", "C12": "C10",
               "C13": "C11", "C14": "C12", "C15": "C13", "C16": "C14", "C17": "C15",
               "C18": "C16", "C19": "C17", "C20": "C18", "C21": "C19"}


def _say(c: str, rec: tuple[int, ...], eng: tuple[int, ...], ed: DutchEdition) -> str:
    """The arbiter's sentence for criterion ``c`` (2025 numbering) where the recorded measure
    ``rec`` and the engine's ``eng`` differ."""
    worse = rec > eng
    d = abs((rec[0] if rec else 0) - (eng[0] if eng else 0))
    more = "more" if worse else "fewer"

    def scores(x: tuple[int, ...]) -> str:
        return ", ".join(_points(v) for v in x) or "none"

    if c == "C6":
        return (f"the recorded pairing floats {d} {more} {'player' if d == 1 else 'players'} "
                f"down ({'fewer' if worse else 'more'} pairs in the bracket)")
    if c == "C7":
        if ed is DutchEdition.RULES_2017:
            return (f"the recorded pairing has larger score differences (PSD {scores(rec)} "
                    f"against the engine's {scores(eng)})" if worse else
                    f"the recorded pairing has smaller score differences (PSD {scores(rec)} "
                    f"against the engine's {scores(eng)})")
        return (f"the recorded pairing floats down players of higher scores ({scores(rec)} "
                f"against the engine's {scores(eng)})" if worse else
                f"the recorded pairing floats down players of lower scores ({scores(rec)} "
                f"against the engine's {scores(eng)})")
    if c == "C8":
        what = "PSD" if ed is DutchEdition.RULES_2017 else "downfloaters' scores"
        return (f"the recorded pairing leaves the next bracket {'worse' if worse else 'better'}"
                f" paired ({rec[0]} {'downfloater' if rec[0] == 1 else 'downfloaters'} against "
                f"{eng[0]}; {what} {scores(rec[1:])} "
                f"against {scores(eng[1:])})")
    if c == "C9":
        return (f"the recorded bye goes to a player with {rec[0]} unplayed rounds, the engine's "
                f"to one with {eng[0]}")
    texts = {
        "C10": "a colour difference beyond ±2 to",
        "C11": "the same colour a third time in a row to",
        "C12": "their colour preference to",
        "C13": "their strong colour preference to",
    }
    if c in texts:
        if c in ("C12", "C13"):
            return (f"the recorded pairing gives {_players(d)} their "
                    f"{'strong ' if c == 'C13' else ''}colour preference "
                    f"{'less' if worse else 'more'}")
        return f"the recorded pairing gives {texts[c]} {_players(d)} {more}"
    rounds_ago = ("in the previous round" if c in ("C14", "C15", "C18", "C19")
                  else "two rounds before")
    if c in ("C14", "C16"):
        return (f"the recorded pairing floats down {_players(d)} {more} who floated down "
                f"{rounds_ago}")
    if c in ("C15", "C17"):
        return (f"the recorded pairing floats up {_players(d)} {more} who floated up "
                f"{rounds_ago}")
    if c in ("C18", "C20"):
        return (f"the players who float down again ({rounds_ago}) have "
                f"{'higher' if worse else 'lower'} scores in the recorded pairing "
                f"({scores(rec)} against {scores(eng)})")
    return (f"the players who float up again ({rounds_ago}) meet opponents of "
            f"{'higher' if worse else 'lower'} scores in the recorded pairing "
            f"({scores(rec)} against {scores(eng)})")


def _brackets(ctx: Context, rec: _Pairing, eng: _Pairing, r: int, ed: DutchEdition) -> Finding:
    scores = sorted({p.score for p in ctx.players}, reverse=True)
    score = {p.sno: p.score for p in ctx.players}
    if ed is DutchEdition.RULES_2025 and rec.bye is not None and eng.bye is not None \
            and rec.bye.score != eng.bye.score:
        worse = rec.bye.score > eng.bye.score
        return Finding(r, None, "C5", ed,
                       f"the recorded bye goes to a score of {_points(rec.bye.score)} points, "
                       f"the engine's to {_points(eng.bye.score)}"
                       + ("" if worse else ": the recorded one is lower, please report it"),
                       recorded_worse=worse)
    mr = [_measures(ctx, rec, s, ed) for s in scores]
    me = [_measures(ctx, eng, s, ed) for s in scores]
    for k, s in enumerate(scores):
        for c in _ORDER_2025:
            if c == "C8":
                if k + 1 == len(scores):
                    continue
                a = mr[k + 1]["C6"] + mr[k + 1]["C7"]
                b = me[k + 1]["C6"] + me[k + 1]["C7"]
            else:
                if c not in mr[k] or c not in me[k]:
                    continue
                a, b = mr[k][c], me[k][c]
            if a == b:
                continue
            name = _NAMES_2017.get(c, c) if ed is DutchEdition.RULES_2017 else c
            worse = a > b
            text = _say(c, a, b, ed)
            if not worse:
                text += "; the engine's pairing is worse here, please report it"
            return Finding(r, s, name, ed, text, recorded_worse=worse)
        here_r = {pr for pr in rec.pairs if min(score[x] for x in pr) == s}
        here_e = {pr for pr in eng.pairs if min(score[x] for x in pr) == s}
        if here_r != here_e:
            diff = sorted(tuple(sorted(p)) for p in here_r - here_e)
            return Finding(r, s, "D.1-D.3", ed,
                           "both pairings are equal on every quality criterion; the engine's "
                           "comes first in the order of transpositions and exchanges (recorded "
                           f"only: {', '.join(f'{a}-{b}' for a, b in diff)})")
    bye = (f"{rec.bye.sno if rec.bye else '-'} against the engine's "
           f"{eng.bye.sno if eng.bye else '-'}")
    return Finding(r, None, "D.1-D.3", ed, "both pairings are equal on every quality criterion; "
                   f"the bye differs ({bye}): the engine's comes first in the order of "
                   "transpositions and exchanges")


"""FIDE C.04.6 1.6-1.7 and 4 — a team's colour preference, and the colours of a pair.

A team's colour is its board-1 player's (1.6.1), from played matches only (GHR 3.4). Colours
are given after the whole round is paired (3.3.2 step 4), pair by pair, by the first rule of
the 4.3 cascade that applies; colour never keeps two teams apart (Preface).
"""

from __future__ import annotations

from transforms.core.model import Colour
from transforms.fide.team_swiss.model import (
    ColourRule,
    Preference,
    PreferenceType,
    RoundSettings,
    Strength,
    TeamState,
)

W, B = Colour.WHITE, Colour.BLACK


def colour_preference(team: TeamState, settings: RoundSettings) -> Preference | None:
    """FIDE C.04.6 1.7 — the colour preference from the colour difference and the last two
    played matches.

    Decision: type B in the last round with CD 0 and the same colour twice running is a
    *strong* preference (the "no preference in the last round" sentence closes only the mild
    clause; Gacrux A1). Note: CD +1 with the last two Black gives no preference in type A
    (unlike C.04.3)."""
    kind = settings.preferences
    if kind is PreferenceType.NONE:
        return None
    cd = team.colour_difference
    last_two = team.colours[-2:]
    hard = Strength.SIMPLE if kind is PreferenceType.A else Strength.STRONG
    if cd < -1 or (cd in (0, -1) and last_two == (B, B)):
        return Preference(W, hard)
    if cd > 1 or (cd in (0, 1) and last_two == (W, W)):
        return Preference(B, hard)
    if kind is PreferenceType.A:
        return None
    if cd == -1:
        return Preference(W, Strength.MILD)
    if cd == 1:
        return Preference(B, Strength.MILD)
    if team.colours and not settings.last_round:
        return Preference(team.colours[-1].other, Strength.MILD)
    return None


def first_team(a: TeamState, b: TeamState, settings: RoundSettings) -> TeamState:
    """FIDE C.04.6 4.2 — the first-team: higher primary score, then higher secondary score
    (unless the competition does not use it), then smaller TPN.

    Decision: the real primary score, not the pairing score of an accelerated event (C.04.7
    1.5 lists what the pairing score is for, and colours are not on the list; Gacrux)."""
    if a.score != b.score:
        return a if a.score > b.score else b
    if settings.secondary_for_colours and a.secondary != b.secondary:
        return a if a.secondary > b.secondary else b
    return a if a.tpn < b.tpn else b


def same_colour_wanted(p: Preference | None, q: Preference | None) -> bool:
    """FIDE C.04.6 2.3.5 [C8] — both teams of a pair prefer the same colour, so one of them
    will not get it (art. 4 grants every other pair both preferences)."""
    return p is not None and q is not None and p.colour is q.colour


def both_strong_same(p: Preference | None, q: Preference | None) -> bool:
    """FIDE C.04.6 2.3.6 [C9] — both teams strongly prefer the same colour (type B), so a
    strong preference is not granted (4.3.4 grants a strong one over a mild one)."""
    return (same_colour_wanted(p, q) and p is not None and q is not None
            and p.strength is Strength.STRONG and q.strength is Strength.STRONG)


def allocate_colours(a: TeamState, b: TeamState,
                     settings: RoundSettings) -> tuple[int, int, int, ColourRule]:
    """FIDE C.04.6 4.3 — (white TPN, black TPN, first-team TPN, rule) for a pair: the first
    of 4.3.1-4.3.9 that applies, always one.

    Decision: 4.3.6 compares the two squeezed sequences of played matches from the end,
    position by position (GHR 3.4; Gacrux A12), not round by round."""
    first = first_team(a, b, settings)
    other = b if first is a else a
    fp, op = colour_preference(first, settings), colour_preference(other, settings)

    def give(colour: Colour, rule: ColourRule) -> tuple[int, int, int, ColourRule]:
        if colour is W:
            return first.tpn, other.tpn, first.tpn, rule
        return other.tpn, first.tpn, first.tpn, rule

    if first.matches_played == 0 and other.matches_played == 0:
        odd = first.tpn % 2 == 1
        return give(settings.initial_colour if odd else settings.initial_colour.other,
                    ColourRule.FIRST_ROUND)
    if fp is not None and op is None:
        return give(fp.colour, ColourRule.ONE_PREFERENCE)
    if fp is None and op is not None:
        return give(op.colour.other, ColourRule.ONE_PREFERENCE)
    if fp is not None and op is not None and fp.colour is not op.colour:
        return give(fp.colour, ColourRule.OPPOSITE_PREFERENCES)
    if settings.preferences is PreferenceType.B and fp is not None and op is not None:
        f_strong, o_strong = fp.strength is Strength.STRONG, op.strength is Strength.STRONG
        if f_strong and not o_strong:
            return give(fp.colour, ColourRule.ONE_STRONG)
        if o_strong and not f_strong:
            return give(op.colour.other, ColourRule.ONE_STRONG)
    fcd, ocd = first.colour_difference, other.colour_difference
    if fcd != ocd:
        return give(W if fcd < ocd else B, ColourRule.LOWER_DIFFERENCE)
    for fc, oc in zip(reversed(first.colours), reversed(other.colours)):
        if fc is not oc:
            return give(fc.other, ColourRule.ALTERNATE_LAST_DIFFERENT)
    if fp is not None:
        return give(fp.colour, ColourRule.FIRST_TEAM_PREFERENCE)
    if first.colours:
        return give(first.colours[-1].other, ColourRule.FIRST_TEAM_ALTERNATES)
    # the first-team has not played (else 4.3.1 or 4.3.8), so the other team has
    return give(other.colours[-1], ColourRule.OTHER_TEAM_ALTERNATES)

"""Final ranking by points and the configured FIDE C.07 tie-breaks, the prize list, and
whether a tournament's pairings were pre-determined (C.07 §15.2: a round robin).

Decision (players still equal after every tie-break): they share the rank (``rank`` is the
best place of the group, ``rank_label`` shows "5-6"), are listed in start-number order (the
initial ranking order, FIDE C.04.2 A.2), and ``tied_after_all`` flags them for the chief
arbiter. FIDE C.07 leaves the last word to the regulations (drawing of lots as the final
tie-break); a batch job does not draw lots, it says who must.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from typing import Any

import polars as pl

from transforms.core.model import Kind
from transforms.fide.tiebreaks import Edition, Evaluation, evaluate_tiebreaks
from transforms.fide.trf import Tournament

RANKING_TAIL = ("tied_after_all",)


def rank_players(scorecard: pl.DataFrame, players: pl.DataFrame, codes: Sequence[str], *,
                 edition: str | Edition, rounds: int | None = None,
                 round_robin: bool = False, unrated_rating: int | None = None) -> pl.DataFrame:
    """FIDE C.07 §1-§6 — rank by points, then each configured tie-break in order (DE inside the
    groups still tied before it, §6).

    Columns: rank (Int32, shared by players equal on everything), rank_label ("5" or "5-6"),
    sno, name, points, one Float64 column per code (canonical spelling, as configured),
    tied_after_all. A null tie-break value (e.g. ARO without rated games) ranks last."""
    return rank_evaluation(evaluate_tiebreaks(scorecard, players, codes, edition=edition,
                                              rounds=rounds, round_robin=round_robin,
                                              unrated_rating=unrated_rating), players)


def rank_evaluation(ev: Evaluation, players: pl.DataFrame) -> pl.DataFrame:
    """FIDE C.07 §1-§6 — :func:`rank_players` from tie-breaks already evaluated (``ev``:
    :func:`transforms.fide.tiebreaks.evaluate_tiebreaks`, whose ``detail`` the caller may keep
    to explain them); ``players`` gives the names."""
    codes_c = list(ev.codes)
    key_cols = ["points"] + [f"_k{i}" for i in range(len(codes_c))]
    keys = ev.keys.rename({c: f"_k{i}" for i, c in enumerate(codes_c)})
    names = (players.select(pl.col("sno").cast(pl.Int32), pl.col("name").cast(pl.String))
             if "name" in players.columns else players.select(pl.col("sno").cast(pl.Int32))
             .with_columns(pl.lit("").alias("name")))
    df = (ev.values.join(keys.drop("points"), on="sno").join(names, on="sno", how="left")
          .with_columns(pl.col("name").fill_null(""))
          .sort(key_cols + ["sno"], descending=[True] * len(key_cols) + [False],
                nulls_last=True))
    same = pl.all_horizontal([pl.col(k).eq_missing(pl.col(k).shift(1)) for k in key_cols])
    pos = pl.int_range(1, pl.len() + 1, dtype=pl.Int32)
    df = df.with_columns(pl.when(same).then(None).otherwise(pos).forward_fill().alias("rank"))
    df = df.with_columns(pl.len().over("rank").cast(pl.Int32).alias("_n"))
    df = df.with_columns(
        (pl.col("_n") > 1).alias("tied_after_all"),
        pl.when(pl.col("_n") > 1)
        .then(pl.format("{}-{}", pl.col("rank"), pl.col("rank") + pl.col("_n") - 1))
        .otherwise(pl.col("rank").cast(pl.String)).alias("rank_label"),
    )
    return df.select("rank", "rank_label", "sno", "name", "points", *codes_c, "tied_after_all")


def allocate_prizes(ranking: pl.DataFrame, prize_table: Sequence[Decimal | float | int | str], *,
                    shared: bool = False) -> pl.DataFrame:
    """National Junior 2024 "Prizes" — one prize per place, in ranking order; "In case of tie,
    cash prizes will not be shared" (``shared=False``): ties are decided by the tie-breaks
    (:func:`rank_players`), so each place gets its own prize.

    Decision: players still equal after every tie-break take their places provisionally in
    start-number order and are flagged for the chief arbiter (drawing of lots, FIDE C.07),
    whenever the group reaches a prize place. With ``shared=True`` (events whose rules share
    prizes) such a group shares the sum of its places' prizes equally, to the cent (half up).

    Columns: place, sno, name, points, amount (Decimal, 2 places), flag ("" when none)."""
    prizes = [Decimal(str(p)) for p in prize_table]
    cent = Decimal("0.01")
    df = ranking.sort(["rank", "sno"]).with_row_index("place", offset=1)
    rows = []
    groups: dict[int, list[dict[str, Any]]] = {}
    for r in df.iter_rows(named=True):
        groups.setdefault(r["rank"], []).append(r)
    for members in groups.values():
        places = [m["place"] for m in members]
        amounts = [prizes[p - 1] if p <= len(prizes) else Decimal(0) for p in places]
        in_money = any(a != 0 for a in amounts)
        flag = ""
        if len(members) > 1 and shared:
            each = (sum(amounts, Decimal(0)) / len(members)).quantize(cent, ROUND_HALF_UP)
            amounts = [each] * len(members)
            if in_money:
                flag = f"places {places[0]}-{places[-1]} shared equally"
        elif len(members) > 1 and in_money:
            snos = ", ".join(str(m["sno"]) for m in members)
            flag = (f"tied after all tie-breaks (snos {snos}): places {places[0]}-{places[-1]} "
                    "provisional by start number; chief arbiter to decide (drawing of lots)")
        for m, a in zip(members, amounts, strict=True):
            rows.append({"place": m["place"], "sno": m["sno"], "name": m.get("name", ""),
                         "points": m["points"], "amount": a.quantize(cent), "flag": flag})
    schema: dict[str, pl.DataType | type[pl.DataType]] = {
        "place": pl.Int32, "sno": pl.Int32, "name": pl.String, "points": pl.Float64,
        "amount": pl.Decimal(12, 2), "flag": pl.String}
    return pl.DataFrame(rows, schema=schema).sort("place")


# --------------------------------------------------------------------------- pairing regime


class RegimeSource(StrEnum):
    """What decided whether C.07 §15.2 (pre-determined pairings) applies."""

    OPTION = "option"
    """The command line (``--round-robin`` / ``--swiss``): the arbiter's word."""
    TYPE_RECORD = "type record"
    """The TRF's tournament type: TRF-2026 ``192`` (encoded), else TRF16 ``092`` (free text)."""
    COMPLETE_ROUND_ROBIN = "complete round robin"
    """Every two players met the same number of times (a single or multiple round robin)."""
    DEFAULT = "default"
    """Nothing says otherwise: a Swiss tournament (C.07 §16)."""


@dataclass(frozen=True, slots=True)
class PairingRegime:
    """Whether a tournament's tie-breaks follow C.07 §15.2 (pre-determined pairings)."""

    round_robin: bool
    """True: pre-determined pairings (§15.2); False: Swiss (§16)."""
    source: RegimeSource
    """What decided it."""
    reason: str
    """The record, option or finding that decided it, for the arbiter."""


_PREDETERMINED = ("ROUNDROBIN", "SCHILLER", "SCHEVENINGEN", "BERGER", "ALLPLAYALL")
"""Words (spaces, dashes and underscores removed) naming pre-determined pairings."""
_SWISS = ("SWISS", "DUTCH", "DUBOV", "BURSTEIN")
"""Words naming a Swiss system; also the whole words LIM and MONRAD, and FIDE_TEAM_* codes
that are not round robins (the C.04.6 team Swiss)."""


def _type_of(text: str) -> bool | None:
    """True (pre-determined), False (Swiss) or None for one tournament-type text."""
    up = text.strip().upper()
    compact = re.sub(r"[^A-Z0-9]", "", up)
    words = set(re.split(r"[^A-Z0-9]+", up))
    predetermined = any(w in compact for w in _PREDETERMINED) or "RR" in words
    swiss = (any(w in compact for w in _SWISS) or bool(words & {"LIM", "MONRAD"})
             or (compact.startswith("FIDETEAM") and not predetermined))
    if predetermined == swiss:
        return None
    return predetermined


def tournament_type_round_robin(records: Iterable[str]) -> tuple[bool, str] | None:
    """FIDE C.07 §15.2 — whether the TRF's tournament-type record names pre-determined pairings:
    (True, record) for a round robin, (False, record) for a Swiss, None when no record says.

    TRF-2026 ``192`` holds a code of FIDE's tournament type table (C.02.03 Annex C, "ETT26"):
    the pre-determined pairing codes are the round robins (``BERGER_ROUNDROBIN``,
    ``BERGER_ROUNDROBIN_Gn``, ``BERGER_DOUBLEROUNDROBIN``, ``FIDE_ROUNDROBIN``,
    ``FIDE_DOUBLEROUNDROBIN``, ``CUSTOM_ROUNDROBIN``, the team round robins) and the Schiller
    and Scheveningen systems; the Swiss codes are ``FIDE_DUTCH*``, ``FIDE_DUBOV*``,
    ``FIDE_BURSTEIN*``, ``*SWISS*`` and the team Swiss codes (``FIDE_TEAM_*``). TRF16 ``092`` is
    free text ("Individual: Swiss-System", "Round robin", "Berger"): read by the same words.

    Decision: the first ``192`` record that names either kind decides, else the first such
    ``092``: the encoded type is the controlled vocabulary, the ``092`` text is not. A text
    naming both kinds, or neither (knockouts, an unknown code), says nothing. Other records
    are ignored, so a parsed file's unread lines can be passed as they are."""
    found: dict[str, tuple[bool, str]] = {}
    for rec in records:
        tag, text = rec[:3], rec[4:]
        if tag in ("092", "192") and tag not in found:
            kind = _type_of(text)
            if kind is not None:
                found[tag] = (kind, rec.rstrip())
    return found.get("192") or found.get("092")


def complete_round_robin_cycles(scorecard: pl.DataFrame, snos: Iterable[int]) -> int | None:
    """FIDE C.07 §15.2 — ``n`` when every two of ``snos`` met exactly ``n`` times (a single,
    double, ... round robin: pre-determined pairings), else None.

    A meeting is a round in which the two were paired: a game or a forfeit (in a round robin
    a forfeit is a game against the scheduled opponent, §15.2); byes and absences are not
    meetings. Decision: only a complete round robin is recognised (every pair, the same
    number of times, at least once): a round robin with a game still to play, or one a player
    left, has to be named by its type record or the option; a Swiss that happens to be
    complete (4 players, 3 rounds) is taken for a round robin unless its type record says
    Swiss."""
    players = sorted(set(snos))
    if len(players) < 2:
        return None
    met = (scorecard.filter(pl.col("opponent").is_not_null()
                            & pl.col("kind").is_in([str(Kind.PLAYED), str(Kind.FORFEIT_WIN),
                                                    str(Kind.FORFEIT_LOSS)]))
           .select(pl.min_horizontal("sno", "opponent").alias("a"),
                   pl.max_horizontal("sno", "opponent").alias("b"), "round")
           .unique()
           .group_by("a", "b").agg(pl.len().alias("n")))
    counts = {(r["a"], r["b"]): r["n"] for r in met.iter_rows(named=True)}
    pairs = [(a, b) for i, a in enumerate(players) for b in players[i + 1:]]
    if set(counts) != set(pairs):
        return None
    cycles = set(counts.values())
    return cycles.pop() if len(cycles) == 1 else None


def pairing_regime(t: Tournament, *, round_robin: bool | None = None) -> PairingRegime:
    """FIDE C.07 §15.2 — whether a TRF tournament had pre-determined pairings (a round robin),
    so that forfeits count as games and DE counts every encounter.

    Decision, in order of precedence:

    1. ``round_robin`` (``--round-robin`` True, ``--swiss`` False): the arbiter's explicit word
       overrides the file.
    2. The tournament-type record (:func:`tournament_type_round_robin` on the reader's
       ``Tournament.header.encoded_type`` (``192``), else ``header.type`` (``092``); a
       ``092``/``192`` naming a Dutch edition, which the reader keeps as ``Tournament.edition``,
       is a Swiss type). A round robin named there is one even before
       its last round.
    3. A complete round robin in the file (:func:`complete_round_robin_cycles`, every round of
       the file, whatever rounds are counted).
    4. Otherwise a Swiss (C.07 §16), as the tie-break rules assume by default."""
    if round_robin is not None:
        return PairingRegime(round_robin, RegimeSource.OPTION,
                             "--round-robin" if round_robin else "--swiss")
    header = [f"{tag} {text}" for tag, text in (("092", t.header.type), ("192", t.header.encoded_type))
              if text]
    named = tournament_type_round_robin([*header, *t.other_records])
    if named is None and t.edition is not None:
        named = (False, f"Dutch system ({t.edition} rules) named by the tournament type")
    if named is not None:
        return PairingRegime(named[0], RegimeSource.TYPE_RECORD, named[1])
    n = complete_round_robin_cycles(t.scorecard, [p.sno for p in t.players])
    if n is not None:
        times = "once" if n == 1 else f"{n} times"
        return PairingRegime(True, RegimeSource.COMPLETE_ROUND_ROBIN,
                             f"every two of the {len(t.players)} players met {times}")
    return PairingRegime(False, RegimeSource.DEFAULT,
                         "no tournament type record and not a complete round robin: Swiss")

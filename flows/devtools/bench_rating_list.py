"""``make bench-rating-list`` — how long reading a whole FIDE rating list takes
(:mod:`transforms.fide.rating_list`): a generated combined list in FIDE's TXT layout with the
FOA column (the header of the real file, ``--players`` invented players, some unrated, some
inactive, a few with other titles running into the next column), and the same players as XML.
FIDE's October 2026 combined list has about 1.93 million players.

    python -m flows.devtools.bench_rating_list --players 1000000 [--xml 200000]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from transforms.fide.rating_list import header_columns, read_fide_txt, read_fide_xml

HEADER = ("ID Number      Name                                                         Fed Sex "
          "Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag")
"""The combined list's header (docs/research/rating-lists.md 3.1)."""
FEDS = ("IND", "GER", "FRA", "ESP", "RUS", "USA", "ENG", "ITA", "POL", "NED")


def txt_list(n: int, rng: random.Random) -> bytes:
    """``n`` players in the combined TXT layout, CRLF, as FIDE writes it."""
    cols = {w: s for w, s, _ in header_columns(HEADER)}
    out = [HEADER]
    for i in range(n):
        line = [" "] * 162

        def put(col: str, text: str, line: list[str] = line) -> None:
            line[cols[col]:cols[col] + len(text)] = text

        put("ID_Number", str(100000 + i)), put("Name", f"Player{i}, Given")
        put("Fed", rng.choice(FEDS)), put("Sex", "F" if i % 5 == 0 else "M")
        if i % 50 == 0:
            put("Tit", "FM")
        if i % 3:
            put("SRtng", str(rng.randint(1400, 2700))), put("SGm", str(rng.randint(0, 9)))
            put("SK", "20")
        put("B-day", str(rng.randint(1940, 2018)))
        put("Flag", "i" if i % 4 == 0 else "")
        out.append("".join(line).rstrip())
    return ("\r\n".join(out) + "\r\n").encode()


def xml_list(n: int, rng: random.Random) -> bytes:
    """``n`` players as the XML list."""
    parts = ["<playerslist>"]
    for i in range(n):
        parts.append(f"<player><fideid>{100000 + i}</fideid><name>Player{i}, Given</name>"
                     f"<country>{rng.choice(FEDS)}</country><sex>M</sex><title></title>"
                     f"<w_title></w_title><o_title></o_title><rating>{rng.randint(1400, 2700)}"
                     "</rating><games>0</games><k>20</k><birthday>1990</birthday><flag></flag>"
                     "</player>")
    parts.append("</playerslist>")
    return "\n".join(parts).encode()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m flows.devtools.bench_rating_list",
                                description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--players", type=int, default=1_000_000)
    p.add_argument("--xml", type=int, default=200_000)
    args = p.parse_args(argv)
    rng = random.Random(7)
    data = txt_list(args.players, rng)
    t = time.perf_counter()
    got = read_fide_txt(data)
    t_txt = time.perf_counter() - t
    print(f"TXT: {got.players.height:,} players ({len(data) / 1e6:.0f} MB) read in {t_txt:.2f} s")
    if args.xml:
        data = xml_list(args.xml, rng)
        t = time.perf_counter()
        got = read_fide_xml(data)
        t_xml = time.perf_counter() - t
        print(f"XML: {got.players.height:,} players ({len(data) / 1e6:.0f} MB) read in {t_xml:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

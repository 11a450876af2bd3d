"""A small Swiss event with games that have real moves, clocks and comments (issue 48), for
the tests of the published games: the tiny event of the bad-input matrix
(tests/bad_input_events.py) with ``games/round-1.pgn``, whose tags carry what must never reach
a public file — a birth date, an Elo, a script in a name, markup in comments:

- round 1 board 1, Rao – Sen 1-0: a Two Knights' Defence, Fried Liver Attack, to move 17, with
  ``[%clk]`` clocks and comments; White named ``Rao, Arjun <script>…`` but found by FIDE id;
- round 1 board 2, Nair – Iyer 0-1: a Queen's Gambit Declined, no clocks;
- round 1 board 3, Das – Bose ½-½ in results.csv, but the PGN says 1-0: a contradiction, not
  published.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from flows import io as flows_io
from flows.kinds.swiss.flow import publish_site
from flows.registry import rules_parts
from flows.site.pages import Publication, event_context
from tests.bad_input_events import SWISS_FILES, write_event
from transforms.core.pgn import GAMES
from transforms.kinds import parse_event_config
from transforms.swiss.event import run_swiss

DAY = dt.date(2024, 9, 18)

FRIED_LIVER = (
    "{Notes by the arbiter <b>bold</b>} 1. e4 {[%clk 0:09:58]} e5 {[%clk 0:09:57]} 2. Nf3 "
    "{[%clk 0:09:50]} Nc6 {[%clk 0:09:41]} 3. Bc4 {[%clk 0:09:30] <script>alert(1)</script>} "
    "Nf6 {[%clk 0:09:02]} 4. Ng5 {[%clk 0:09:01]} d5 {[%clk 0:08:40]} 5. exd5 {[%clk 0:08:55]} "
    "Nxd5 {[%clk 0:08:20]} 6. Nxf7 {[%clk 0:08:50] the Fried Liver} Kxf7 {[%clk 0:08:00]} 7. Qf3+ "
    "{[%clk 0:08:45]} Ke6 {[%clk 0:07:50]} 8. Nc3 {[%clk 0:08:30]} Ncb4 {[%clk 0:07:10]} 9. a3 "
    "Nxc2+ 10. Kd1 Nxa1 11. Nxd5 Qh4 12. Nxc7+ Kd7 13. Qf7+ Qe7 14. Nxa8 Qxf7 15. Bxf7 Nc2 "
    "16. Kxc2 b6 17. d3 {[%clk 0:07:12] White is an exchange up} 1-0")
QGD = ("1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 7. Bh4 b6 8. cxd5 Nxd5 "
       "9. Bxe7 Qxe7 10. Nxd5 exd5 0-1")

SCRIPT = "<script>alert(1)</script>"
BIRTH = "2012.01.01"


def tags(round_: str, white: str, black: str, result: str, **more: str) -> str:
    extra = "".join(f'[{k} "{v}"]\n' for k, v in more.items())
    return (f'[Event "Tiny"]\n[Site "Karnal"]\n[Date "2024.09.16"]\n[Round "{round_}"]\n'
            f'[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n{extra}\n')


ROUND_1 = (tags("1.1", f"Rao, Arjun {SCRIPT}", "Sen, Dev", "1-0", WhiteFideId="25000101",
                WhiteElo="1850", BlackElo="1700", WhiteBirthDate=BIRTH, BlackBirthDate=BIRTH,
                WhiteClub="Karnal Juniors") + FRIED_LIVER + "\n\n"
           + tags("1.2", "Nair, Esha", "Iyer, Bala", "0-1") + QGD + "\n\n"
           + tags("1.3", "Das, Chitra", "Bose, Farid", "1-0") + "1. e4 c5 1-0\n\n")


GAMES_TABLE = '\n[games]\nbulletin = ["1.1", "1.2"]\ndiagrams = ["1.1 after 6.", "1.1 after 17."]\n'
"""The bulletin prints boards 1 and 2 of round 1: board 1 with diagrams after 6. Nxf7 and at
the end, board 2 at its final position."""


def games_event(folder: Path) -> Path:
    """The event folder, its games folder written, and ``[games]`` (:data:`GAMES_TABLE`)."""
    write_event(folder, {**SWISS_FILES, "event.toml": SWISS_FILES["event.toml"] + GAMES_TABLE})
    (folder / "games").mkdir(exist_ok=True)
    (folder / "games" / "round-1.pgn").write_text(ROUND_1, encoding="utf-8")
    return folder


def build_site(folder: Path):
    """The event's run and its publication, through the flow's ``publish_site`` (no Prefect)."""
    cfg = parse_event_config((folder / "event.toml").read_text())
    raw = {n: flows_io.read_csv_strings(folder / n) for n in cfg.files if (folder / n).exists()}
    if (folder / "games").is_dir():  # as flows/pipeline/tasks.py read_files
        raw[GAMES] = flows_io.read_pgn_folder(folder / "games")
    run = run_swiss(cfg, raw, DAY)
    pub = Publication(folder.parent / "out", ctx=event_context(cfg, DAY))
    publish_site(pub, cfg, run, DAY, rules_parts(cfg))
    return run, pub

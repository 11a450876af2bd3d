"""Runs FIDE TEC's calculator (Gacrux 1.11.65, ``python -m gacrux.tiebreakchecker``) on every
``*.trf`` of this folder and writes its values to ``gacrux_values.json`` (see SOURCE.md).

Each event is run several times, so that no value depends on what else is in the list:

- ``values``: the primary score, then every tie-break that is a sum or a count (their values do
  not depend on the order); Fore Buchholz separately (``fore``), because the calculator keeps
  a state of it that a later Buchholz would read (Ainalrami's finding A);
- standings part-way (``rounds``: the calculator's ``-n``) for the 7-round Swiss events;
- rankings: four tie-break lists as an event configures them (their ranks are kept too);
- ``grouped``: each tie-break that orders a tie group (DE, EDE and its variants, TBR, BBE) in a
  run of its own, after the primary score (and after game points where the list says so).

Usage (from the repository root, with Gacrux installed in its own environment):
``/tmp/gvenv/bin/python tests/data/team_tiebreak_own/run_gacrux.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

SUMS = ["BH:MP", "BH:GP", "BH:MP/C1", "BH:GP/C1", "BH:MP/C2", "BH:MP/M1", "BH:GP/M1",
        "SB:MP", "SB:GP", "SB:MP/C1", "SB:GP/C1", "SB:MP/M1",
        "ESB", "EMMSB", "EMGSB", "EGMSB", "EGGSB", "EMGSB/C1", "EGMSB/C1", "EGGSB/M1",
        "PS:MP", "PS:GP", "PS:MP/C1", "WIN:MP", "WIN:GP", "WON:MP", "WON:GP", "BPG:MP", "BPG:GP",
        "BWG:MP", "BWG:GP", "REP:MP", "REP:GP", "BC", "MPVGP", "SSSC", "TPN",
        "BH:MP/P", "BH:GP/C1/P", "SB:MP/P", "EMGSB/C1/P", "EGGSB/P", "SSSC/P", "AOB:MP", "AOB:GP"]
ROUND_ROBIN = ["KS:MP", "KS:GP"]
FORE = ["FB:MP", "FB:GP", "FB:MP/C1", "SSSC/F"]
GROUPED = [[], ["GPTS"]]
GROUP_CODES = ["DE", "DE:GP", "EDE", "EDEBT", "EDEBB", "EDET", "EDEB", "TBR", "BBE",
               "DE/P", "EDE/P", "EDET/P"]
RANKINGS = [["GPTS", "EDE", "BH:MP/C1", "SB:MP"], ["BH:MP/C1", "DE", "TBR", "BC"],
            ["EMGSB", "EDEBB", "WIN:MP", "BBE"], ["SB:GP/C1", "EDEBT", "PS:MP", "TPN"],
            ["EDET/P", "EMGSB/C1/P", "BH:MP/C1/P", "MPvGP"]]
"""Tie-break lists as events configure them: the ranks are compared as well."""


def run(trf: Path, codes: list[str], round_robin: bool, current: int | None = None
        ) -> dict[str, object]:
    cmd = [sys.executable, "-m", "gacrux.tiebreakchecker", "-i", trf.name, "-o", "-",
           "-p" if round_robin else "-s", *(["-n", str(current)] if current else []),
           "-t", *codes]
    out = subprocess.run(cmd, cwd=HERE, capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    result = data["tiebreakResult"]
    return {"command": " ".join(["python -m gacrux.tiebreakchecker"] + cmd[3:]),
            "rules": result["rules"],
            "rounds": current,
            "codes": codes,
            "values": {str(c["cid"]): [None if v is None else str(v) for v in c["tiebreakScore"]]
                       for c in result["competitors"]},
            "ranks": {str(c["cid"]): c["rank"] for c in result["competitors"]}}


def main() -> None:
    events = {}
    for trf in sorted(HERE.glob("*.trf")):
        text = trf.read_text(encoding="utf-8")
        rr = "ROUNDROBIN" in text
        primary = "GPTS" if "212 GPTS" in text else "MPTS"
        runs = [run(trf, [primary] + SUMS + (ROUND_ROBIN if rr else []), rr),
                run(trf, [primary] + FORE, rr) if not rr else None]
        for before in GROUPED:
            for code in GROUP_CODES:
                if code == "DE:GP" and before:
                    continue
                runs.append(run(trf, [primary] + [b for b in before if b != primary] + [code], rr))
        runs += [run(trf, [primary] + [c for c in ranking if c != primary], rr)
                 for ranking in RANKINGS]
        if not rr and "142 7" in text:
            # standings part-way: after round 4 of 7 (no FB: its final round is the event's)
            runs.append(run(trf, [primary] + SUMS, rr, 4))
            runs += [run(trf, [primary, code], rr, 4) for code in GROUP_CODES]
        events[trf.name] = {"round_robin": rr, "runs": [r for r in runs if r is not None]}
    (HERE / "gacrux_values.json").write_text(json.dumps(events, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

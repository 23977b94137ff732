#!/usr/bin/env python3
"""Compare `evallab ratings` with Ordo on the same PGN and the same settings.

Usage: ORDO=/path/to/ordo scripts/ordo_compare.py [--evallab BIN] [--sims N]
           [--solver newton|ordo] FILE.pgn...

Every FILE is rated on its own, three ways, by both tools:
  fitted   ordo -W -D -a 2300            evallab --white auto --draw-rate auto --average 2300
  fixed    ordo -w 50 -d 60 -a 2300      evallab --white 50 --draw-rate 60 --average 2300
  anchored ordo -W -D -A TOP -a 3000     evallab --anchor TOP --average 3000
(TOP: the first engine of the fitted run), each with N simulations (-s N)
and evallab's --solver (default newton; `ordo` repeats Ordo's own search).
Printed per engine: both ratings and their difference, both errors and
their ratio; then the white advantage and draw rate of both, and whether
the run meets the acceptance: ratings within 0.5 Elo, white advantage and
draw rate within Ordo's printed precision (0.01), errors within 10 %.
Exit 1 if a run does not. Ordo's binary is not part of evallab: pass its
path in ORDO.
"""

import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def ordo(binary, pgn, args, tmp):
    out, tab = Path(tmp) / "ordo.txt", Path(tmp) / "ordo.csv"
    subprocess.run(
        [binary, "-q", "-p", str(pgn), "-N", "3,2", "-o", str(out), "-c", str(tab)] + args,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    rows = {}
    with open(tab, newline="") as f:
        for r in csv.DictReader(f):
            err = r["ERROR"]
            rows[r["PLAYER"]] = (float(r["RATING"]), None if err in ("-", "") else float(err),
                                 float(r["POINTS"]), int(r["PLAYED"]))
    text = out.read_text()
    wa = re.search(r"White advantage = ([-\d.]+)(?: \+/- ([\d.]+))?", text)
    dr = re.search(r"Draw rate \(equal opponents\) = ([-\d.]+) % ?(?:\+/- ([\d.]+))?", text)
    summary = {
        "white": float(wa.group(1)),
        "white_sd": float(wa.group(2)) if wa.group(2) else None,
        "draw": float(dr.group(1)),
        "draw_sd": float(dr.group(2)) if dr.group(2) else None,
    }
    return rows, summary


def evallab(binary, dataset, args, tmp):
    out = Path(tmp) / "ev.csv"
    subprocess.run([binary, "ratings", str(dataset), "--format", "csv", "-o", str(out)] + args,
                   check=True)
    rows = {}
    with open(out, newline="") as f:
        for r in csv.DictReader(f):
            if r["rating"] == "":
                continue
            rows[r["engine"]] = (float(r["rating"]), float(r["error"]) if r["error"] else None,
                                 float(r["points"]), int(r["played"]))
    with open(Path(tmp) / "ev.summary.csv", newline="") as f:
        s = next(csv.DictReader(f))
    num = lambda x: float(x) if x not in ("", None) else None
    summary = {"white": num(s["white_advantage"]), "white_sd": num(s["white_sd"]),
               "draw": num(s["draw_rate_pct"]), "draw_sd": num(s["draw_rate_sd_pct"])}
    return rows, summary


def compare(name, o, e):
    (orows, osum), (erows, esum) = o, e
    ok = True
    print(f"\n### {name}\n")
    print("| engine | ordo | evallab | diff | ordo error | evallab error | ratio | points | played |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    worst_diff, ratios = 0.0, []
    for eng, (r, err, pts, pl) in sorted(orows.items(), key=lambda kv: -kv[1][0]):
        if eng not in erows:
            print(f"| {eng} | {r:.2f} | missing | | | | | | |")
            ok = False
            continue
        er, eerr, epts, epl = erows[eng]
        d = er - r
        worst_diff = max(worst_diff, abs(d))
        ratio = eerr / err if err and eerr else None
        if ratio:
            ratios.append(ratio)
        same = "" if (epts, epl) == (pts, pl) else f" ≠ {epts}/{epl}"
        print(f"| {eng} | {r:.3f} | {er:.2f} | {d:+.2f} | {err if err is not None else '—'} | "
              f"{eerr if eerr is not None else '—'} | {f'{ratio:.3f}' if ratio else '—'} | {pts}{same} | {pl} |")
        ok &= (epts, epl) == (pts, pl)
    wd = abs((esum["white"] or 0) - osum["white"])
    dd = abs((esum["draw"] or 0) - osum["draw"])
    print(f"\nwhite advantage: ordo {osum['white']} ± {osum['white_sd']}, "
          f"evallab {esum['white']} ± {esum['white_sd']}")
    print(f"draw rate %: ordo {osum['draw']} ± {osum['draw_sd']}, "
          f"evallab {esum['draw']} ± {esum['draw_sd']}")
    sd_ratios = [e / o for e, o in ((esum["white_sd"], osum["white_sd"]), (esum["draw_sd"], osum["draw_sd"]))
                 if e and o]
    worst_ratio = max((abs(x - 1) for x in ratios), default=0.0)
    print(f"max |rating diff| {worst_diff:.3f} Elo; error ratios {min(ratios, default=float('nan')):.3f}"
          f"–{max(ratios, default=float('nan')):.3f}; white/draw sd ratios "
          + ", ".join(f"{x:.3f}" for x in sd_ratios))
    ok &= worst_diff <= 0.5 and wd <= 0.011 and dd <= 0.011 and worst_ratio <= 0.10
    print("acceptance:", "PASS" if ok else "FAIL")
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--evallab", default=str(ROOT / "target/release/evallab"))
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--solver", choices=["newton", "ordo"], default="newton")
    a = ap.parse_args()
    binary = os.environ.get("ORDO")
    if not binary:
        sys.exit("set ORDO=/path/to/ordo")
    all_ok = True
    for pgn in a.pgn:
        with tempfile.TemporaryDirectory() as tmp:
            ds = Path(tmp) / "ds"
            subprocess.run([a.evallab, "ingest", pgn, "-o", str(ds)], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            s = ["-s", str(a.sims)]
            es = ["--bootstrap", str(a.sims), "--solver", a.solver]
            fitted = (ordo(binary, pgn, ["-W", "-D", "-a", "2300"] + s, tmp),
                      evallab(a.evallab, ds, ["--average", "2300"] + es, tmp))
            all_ok &= compare(f"{Path(pgn).name}: -W -D -a 2300", *fitted)
            fixed = (ordo(binary, pgn, ["-w", "50", "-d", "60", "-a", "2300"] + s, tmp),
                     evallab(a.evallab, ds, ["--white", "50", "--draw-rate", "60"] + es, tmp))
            all_ok &= compare(f"{Path(pgn).name}: -w 50 -d 60 -a 2300", *fixed)
            top = max(fitted[0][0].items(), key=lambda kv: kv[1][0])[0]
            anchored = (ordo(binary, pgn, ["-W", "-D", "-A", top, "-a", "3000"] + s, tmp),
                        evallab(a.evallab, ds, ["--anchor", top, "--average", "3000"] + es, tmp))
            all_ok &= compare(f"{Path(pgn).name}: -W -D -A '{top}' -a 3000", *anchored)
    sys.exit(0 if all_ok else 1)


if __name__ == "__main__":
    main()

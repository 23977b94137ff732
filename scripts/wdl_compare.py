#!/usr/bin/env python3
"""Check `evallab wdl` against Stockfish's WDL_model on the same games.

What it proves: that `evallab wdl` counts exactly the (result, move, material,
eval) positions that WDL_model's `scoreWDLstat` counts, and that its three
fits (fitDensity, optimizeProbability, optimizeScore) give the p_a and p_b
polynomials of WDL_model's `scoreWDL.py` to within 1 centipawn at every
material count 17..78.

Usage:
    python3 scripts/wdl_compare.py --evallab BIN --wdl-model DIR
        [--python PY] [--keep TMPDIR] DATASET

DIR is a checkout of the public repository official-stockfish/WDL_model in
which `scoreWDLstat` has been built beside `scoreWDL.py` (its README says
how). WDL_model is not part of evallab, nor built by it: pass the directory. PY is a Python with
numpy, scipy and matplotlib to run scoreWDL.py (default: this interpreter);
this script itself needs polars.

Steps:
  a) DATASET (an evallab dataset folder) is rewritten as a fishtest-style PGN:
     one game per ingested game with the tags Event, White, Black, Result,
     Termination, SetUp/FEN and Variant, and the movetext on one line with a
     `{+0.30/20}` comment (eval in pawns, mover's point of view, then depth)
     after every move with a cp eval, `{+M3/40}` / `{-M3/40}` after a mate
     score, `{book}` after a book move and nothing after any other move.
  b) `scoreWDLstat --file REWRITTEN.pgn -o ref.json` and
     `BIN wdl DATASET --counts-json ours.json`: the two position counts must be
     identical (up to 10 differing keys are printed).
  c) For each fitting method, `scoreWDL.py ref.json --NormalizeToPawnValue 100
     --momType material --momTarget 58 --materialMin 17 --moveMin 1
     --modelFitting METHOD --plot no` and `BIN wdl DATASET --fitting METHOD
     --format csv`: p_a(m) and p_b(m), m = 17..78, must agree within 1 cp,
     and the retained positions must be equal.

Exit 0 when everything agrees, 1 on any mismatch or failure. A binary without
the `wdl` command still gets steps a) and the reference run (its coefficients
are printed), then the script fails saying so. `--keep DIR` keeps the
intermediate files (the PGN, both JSON files, the scoreWDL.py logs, the CSVs)
in DIR.
"""

import argparse
import ast
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import polars as pl

METHODS = ("fitDensity", "optimizeProbability", "optimizeScore")
MOM_TARGET = 58
MATERIAL = range(17, 79)  # the materialMin..materialMax of the fit
TABLE_MS = [17] + list(range(20, 76, 5)) + [78]
TOLERANCE_CP = 1.0
MOVE_COLUMNS = ["game_id", "ply", "move_number", "side", "san", "is_book",
                "eval_kind", "eval_cp", "mate", "depth"]


# --- a) the dataset as a fishtest-style PGN ---------------------------------

def table_files(dataset, table):
    """The committed Parquet files of TABLE, as the manifest lists them."""
    m = json.loads((Path(dataset) / "manifest.json").read_text())
    files = []
    for run in m["runs"]:
        listed = run.get("files") or {  # manifests older than runs[].files
            t: f"{t}/part-{run['part']:06d}.parquet" for t in ("games", "moves", "rejects")}
        if table in listed:
            files.append(str(Path(dataset) / listed[table]))
    return files


def move_tokens(moves):
    """One movetext token per move: `N. ` / `N... ` when due, the SAN, the comment."""
    mover_cp = pl.when(pl.col("side") == "w").then(pl.col("eval_cp")).otherwise(-pl.col("eval_cp"))
    depth = pl.col("depth").fill_null(1).cast(pl.Utf8)
    # %+.2f of mover_cp / 100, in integers so that no float rounding creeps in
    pawns = pl.concat_str([
        pl.when(mover_cp < 0).then(pl.lit("-")).otherwise(pl.lit("+")),
        (mover_cp.abs() // 100).cast(pl.Utf8),
        pl.lit("."),
        (mover_cp.abs() % 100).cast(pl.Utf8).str.zfill(2),
    ])
    # mate: signed full moves to mate, White POV; the mover's sign flips for Black
    mate_sign = pl.when((pl.col("mate") > 0) == (pl.col("side") == "w")).then(pl.lit("+")).otherwise(pl.lit("-"))
    comment = (
        pl.when((pl.col("eval_kind") == "cp") & pl.col("eval_cp").is_not_null())
        .then(pl.concat_str([pl.lit(" {"), pawns, pl.lit("/"), depth, pl.lit("}")]))
        .when((pl.col("eval_kind") == "mate") & pl.col("mate").is_not_null() & (pl.col("mate") != 0))
        .then(pl.concat_str([pl.lit(" {"), mate_sign, pl.lit("M"),
                             pl.col("mate").abs().cast(pl.Utf8), pl.lit("/"), depth, pl.lit("}")]))
        .when(pl.col("is_book"))
        .then(pl.lit(" {book}"))
        .otherwise(pl.lit(""))
    )
    number = (
        pl.when(pl.col("side") == "w")
        .then(pl.concat_str([pl.col("move_number").cast(pl.Utf8), pl.lit(". ")]))
        .when(pl.col("ply") == 1)
        .then(pl.concat_str([pl.col("move_number").cast(pl.Utf8), pl.lit("... ")]))
        .otherwise(pl.lit(""))
    )
    return moves.with_columns(token=pl.concat_str([number, pl.col("san"), comment]))


def tag_value(v):
    """A tag value as PGN writes it (a newline would end scoreWDLstat's parse)."""
    return str(v).replace("\\", "\\\\").replace('"', '\\"').replace("\r", " ").replace("\n", " ")


def rewrite(dataset, pgn_path):
    """Write DATASET as a fishtest-style PGN; return (games, moves, notes)."""
    games = pl.concat([
        pl.read_parquet(f, columns=["game_id", "event", "white", "black", "result",
                                    "termination", "start_fen", "variant"])
        for f in table_files(dataset, "games")])
    moves = pl.concat([pl.read_parquet(f, columns=MOVE_COLUMNS) for f in table_files(dataset, "moves")])
    notes = {
        "mate 0 (no comment written)": moves.filter((pl.col("eval_kind") == "mate") & (pl.col("mate") == 0)).height,
        "book moves with an eval (eval written)": moves.filter(
            pl.col("is_book") & pl.col("eval_kind").is_in(["cp", "mate"])).height,
    }
    movetext = (
        move_tokens(moves.sort(["game_id", "ply"]))
        .group_by("game_id", maintain_order=True)
        .agg(pl.col("token").str.join(" ").alias("movetext"))
    )
    games = games.join(movetext, on="game_id", how="left")
    with open(pgn_path, "w", encoding="utf-8", newline="\n") as out:
        for g in games.iter_rows(named=True):
            result = g["result"] or "*"
            tags = [("Event", g["event"] or "?"), ("White", g["white"] or "?"),
                    ("Black", g["black"] or "?"), ("Result", result)]
            if g["termination"] is not None:
                tags.append(("Termination", g["termination"]))
            if g["start_fen"] is not None:
                tags += [("SetUp", "1"), ("FEN", g["start_fen"])]
            if g["variant"] == "chess960":
                tags.append(("Variant", "fischerandom"))
            for k, v in tags:
                out.write(f'[{k} "{tag_value(v)}"]\n')
            text = g["movetext"]
            out.write("\n" + (f"{text} {result}" if text else result) + "\n\n")
    return games.height, moves.height, notes


# --- b) position counts ------------------------------------------------------

def run(cmd, log=None, **kw):
    """Run CMD, return (CompletedProcess, seconds); tee its output to LOG."""
    t0 = time.perf_counter()
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    secs = time.perf_counter() - t0
    if log:
        Path(log).write_text(f"$ {' '.join(map(str, cmd))}\n{p.stdout}{p.stderr}")
    return p, secs


def load_counts(path):
    """{(result, move, material, eval): count} from a scoreWDLstat-style JSON."""
    data = json.loads(Path(path).read_text()) or {}
    return {tuple(ast.literal_eval(k)): int(v) for k, v in data.items()}


def compare_counts(ref, ours):
    print(f"  reference: {sum(ref.values())} positions, {len(ref)} keys")
    print(f"  evallab:   {sum(ours.values())} positions, {len(ours)} keys")
    diff = sorted(k for k in ref.keys() | ours.keys() if ref.get(k) != ours.get(k))
    for k in diff[:10]:
        print(f"    {k}: reference {ref.get(k, 0)}, evallab {ours.get(k, 0)}")
    if diff:
        print(f"  COUNTS DIFFER at {len(diff)} keys")
    else:
        print("  counts identical")
    return not diff


# --- c) fits -------------------------------------------------------------------

def poly3(c, m):
    x = m / MOM_TARGET
    return ((c[0] * x + c[1]) * x + c[2]) * x + c[3]


def parse_fit(text):
    """as[], bs[], retained W+D+L and NormalizeToPawnValue from scoreWDL.py's output."""
    def coeffs(name):
        m = re.search(r"constexpr double " + name + r"\[\] = \{([^}]*)\};", text)
        return [float(v) for v in m.group(1).split(",")] if m else None
    retained = re.search(r"Retained \(W,D,L\) = \((\d+), (\d+), (\d+)\)", text)
    pawn = re.search(r"const int NormalizeToPawnValue = (-?\d+);", text)
    final = re.search(r"Final objective function:\s*(\S+)", text)
    return {
        "as": coeffs("as"), "bs": coeffs("bs"),
        "wdl": tuple(int(v) for v in retained.groups()) if retained else None,
        "retained": sum(int(v) for v in retained.groups()) if retained else None,
        "pawn": int(pawn.group(1)) if pawn else None,
        "objective": float(final.group(1)) if final else None,
    }


def reference_fit(py, wdl_model, ref_json, method, tmp):
    cmd = [py, Path(wdl_model) / "scoreWDL.py", ref_json, "--plot", "no",
           "--NormalizeToPawnValue", "100", "--momType", "material", "--momTarget", str(MOM_TARGET),
           "--materialMin", "17", "--moveMin", "1", "--modelFitting", method]
    p, secs = run(cmd, log=Path(tmp) / f"scoreWDL_{method}.log", cwd=tmp)
    fit = parse_fit(p.stdout)
    fit["seconds"] = secs
    fit["ok"] = p.returncode == 0 and fit["as"] is not None and fit["bs"] is not None
    if not fit["ok"]:
        print(f"  scoreWDL.py {method} failed (exit {p.returncode}):\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
    return fit


def print_reference(method, fit):
    print(f"  {method} ({fit['seconds']:.1f} s): Retained (W,D,L) = {fit['wdl']}, "
          f"NormalizeToPawnValue = {fit['pawn']}")
    print(f"    constexpr double as[] = {{{', '.join(f'{c:.8f}' for c in fit['as'])}}};")
    print(f"    constexpr double bs[] = {{{', '.join(f'{c:.8f}' for c in fit['bs'])}}};")


def evallab_fit(binary, dataset, method, tmp):
    out = Path(tmp) / f"ours_{method}.csv"
    p, secs = run([binary, "wdl", dataset, "--fitting", method, "--format", "csv", "-o", out],
                  log=Path(tmp) / f"evallab_wdl_{method}.log")
    if p.returncode != 0 or not out.exists():
        print(f"  evallab wdl --fitting {method} failed (exit {p.returncode}): {p.stderr.strip()[-2000:]}")
        return None
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    if len(rows) > 1:  # several rows: take the one naming the method, if a column does
        named = [r for r in rows if method in r.values()]
        rows = named or rows
    r = rows[0]
    return {"as": [float(r[f"as{i}"]) for i in range(4)], "bs": [float(r[f"bs{i}"]) for i in range(4)],
            "retained": int(float(r["positions"])), "seconds": secs,
            "objective": float(r["objective"]) if r.get("objective") not in (None, "") else None}


def compare_fit(method, ref, ours):
    da = max(abs(poly3(ref["as"], m) - poly3(ours["as"], m)) for m in MATERIAL)
    db = max(abs(poly3(ref["bs"], m) - poly3(ours["bs"], m)) for m in MATERIAL)
    ok = da < TOLERANCE_CP and db < TOLERANCE_CP and ref["retained"] == ours["retained"]
    row = (f"{method:<20} {ref['retained']:>10} {ours['retained']:>10} {da:>9.4f} {db:>9.4f} "
           f"{poly3(ref['as'], MOM_TARGET):>9.3f} {poly3(ours['as'], MOM_TARGET):>9.3f} "
           f"{poly3(ref['bs'], MOM_TARGET):>9.3f} {poly3(ours['bs'], MOM_TARGET):>9.3f}  "
           f"{'PASS' if ok else 'FAIL'}")
    return ok, row


def per_m_table(method, ref, ours):
    print(f"\n{method}: p_a and p_b per material count")
    if ref["objective"] is not None:  # fitDensity has none
        print(f"  final objective: reference {ref['objective']:.12g}, evallab {ours['objective']} (lower is better)")
    print(f"  {'m':>3} {'p_a ref':>10} {'p_a ours':>10} {'p_b ref':>10} {'p_b ours':>10}")
    for m in TABLE_MS:
        print(f"  {m:>3} {poly3(ref['as'], m):>10.3f} {poly3(ours['as'], m):>10.3f} "
              f"{poly3(ref['bs'], m):>10.3f} {poly3(ours['bs'], m):>10.3f}")


# --- main ------------------------------------------------------------------

def has_wdl(binary):
    p = subprocess.run([str(binary), "wdl", "--help"], capture_output=True, text=True)
    return p.returncode == 0


def compare(args, tmp):
    # absolute paths: scoreWDL.py runs inside TMP
    dataset, wdl_model = Path(args.dataset).resolve(), Path(args.wdl_model).resolve()
    stat = wdl_model / "scoreWDLstat"
    for needed in (stat, wdl_model / "scoreWDL.py"):
        if not needed.exists():
            sys.exit(f"{needed} not found: run `make` in the WDL_model checkout")

    print(f"a) rewriting {dataset} as a fishtest-style PGN")
    pgn = Path(tmp) / "rewritten.pgn"
    t0 = time.perf_counter()
    n_games, n_moves, notes = rewrite(dataset, pgn)
    print(f"  {n_games} games, {n_moves} moves -> {pgn} ({time.perf_counter() - t0:.1f} s)")
    for what, n in notes.items():
        if n:
            print(f"  note: {n} {what}")

    print("b) position counts")
    ref_json = Path(tmp) / "ref.json"
    p, secs = run([stat, "--file", pgn, "-o", ref_json, "--concurrency", "1"],
                  log=Path(tmp) / "scoreWDLstat.log")
    wrote = re.search(r"Wrote (\d+) scored positions from (\d+) games", p.stdout)
    if p.returncode != 0 or not wrote:
        print(f"  scoreWDLstat failed (exit {p.returncode}):\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
        return False
    print(f"  scoreWDLstat: {wrote.group(1)} scored positions from {wrote.group(2)} games ({secs:.1f} s)")
    if p.stderr.strip():
        print(f"  scoreWDLstat stderr:\n{p.stderr.strip()[:2000]}")

    print("c) reference fits (scoreWDL.py)")
    ref_fits = {}
    for method in METHODS:
        ref_fits[method] = fit = reference_fit(args.python, wdl_model, ref_json, method, tmp)
        if fit["ok"]:
            print_reference(method, fit)
    if not all(f["ok"] for f in ref_fits.values()):
        return False

    if not has_wdl(args.evallab):
        print(f"\nFAIL: {args.evallab} has no `wdl` command (`{args.evallab} wdl --help` failed): "
              "the reference is above, build evallab with `wdl` to compare")
        return False

    print("\nb) evallab's position counts")
    ours_json = Path(tmp) / "ours.json"
    p, secs = run([args.evallab, "wdl", dataset, "--counts-json", ours_json],
                  log=Path(tmp) / "evallab_wdl_counts.log")
    if p.returncode != 0 or not ours_json.exists():
        print(f"  evallab wdl --counts-json failed (exit {p.returncode}): {p.stderr.strip()[-2000:]}")
        return False
    print(f"  ({secs:.1f} s)")
    counts_ok = compare_counts(load_counts(ref_json), load_counts(ours_json))

    print("\nc) fits: p(m) = ((c3*x + c2)*x + c1)*x + c0, x = m/58, m = 17..78")
    header = (f"{'method':<20} {'ret. ref':>10} {'ret. ours':>10} {'max|Δp_a|':>9} {'max|Δp_b|':>9} "
              f"{'p_a58 ref':>9} {'p_a58 our':>9} {'p_b58 ref':>9} {'p_b58 our':>9}  verdict")
    rows, fits_ok, ours_fits = [], True, {}
    for method in METHODS:
        ours = evallab_fit(args.evallab, dataset, method, tmp)
        if ours is None:
            fits_ok = False
            continue
        ours_fits[method] = ours
        ok, row = compare_fit(method, ref_fits[method], ours)
        fits_ok &= ok
        rows.append(row)
    print(header)
    print("\n".join(rows))
    for method, ours in ours_fits.items():
        per_m_table(method, ref_fits[method], ours)
    print("\ntimes: " + ", ".join(
        f"{m} reference {ref_fits[m]['seconds']:.1f} s / evallab {ours_fits[m]['seconds']:.1f} s"
        for m in ours_fits))
    return counts_ok and fits_ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--evallab", required=True, help="the evallab binary")
    ap.add_argument("--wdl-model", required=True, help="a built WDL_model checkout (scoreWDLstat, scoreWDL.py)")
    ap.add_argument("--python", default=sys.executable, help="Python with numpy/scipy/matplotlib for scoreWDL.py")
    ap.add_argument("--keep", metavar="DIR", help="keep the intermediate files in DIR")
    ap.add_argument("dataset", help="an evallab dataset folder")
    args = ap.parse_args()
    if Path(args.python).exists():  # scoreWDL.py runs inside TMP; abspath keeps a venv's symlink
        args.python = os.path.abspath(args.python)
    if args.keep:
        Path(args.keep).mkdir(parents=True, exist_ok=True)
        ok = compare(args, Path(args.keep).resolve())
    else:
        with tempfile.TemporaryDirectory(prefix="wdl_compare.") as tmp:
            ok = compare(args, tmp)
    print("\nOK: evallab wdl agrees with WDL_model" if ok else "\nMISMATCH or FAILURE (see above)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

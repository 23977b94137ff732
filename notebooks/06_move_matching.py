# ---
# jupyter:
#   jupytext:
#     cell_metadata_filter: tags,-all
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 06 · Move matching (Regan's zig-zag protocol)
#
# `evallab match` runs the anti-cheating analysts' protocol on every tested move: MLM
# (MultiPV k) to the MLM depth, SLM (MultiPV 1) over the SLM depths dmin..d, MLM again
# to the final depth, in game order without clearing the hash. The table `match` has
# one row per tested move: the bit string (1 = the engine's first choice at that SLM
# depth is the move played), the type (FULL/MAIN/PART/NON), the delta as the log
# prints it, and the final-MLM evals it came from (mover's POV, capped at ±10 pawns).
#
# This notebook re-derives the type and the statistics MM, EV, AE and ASD from the
# rows in polars-python and checks them against the run's statistics (by default
# `results/match.csv` of the demo pipeline's `match` step, label `sf-match`), and checks
# the results file's order.

# %% tags=["parameters"]
import os

DATASET = os.environ.get("EVALLAB_DATASET", "../demo-dataset")
LABEL = "sf-match"
# Where that run wrote its statistics (`--stats`) and results files (`-o`): the demo
# pipeline's places by default.
MATCH_STATS = os.environ.get("EVALLAB_MATCH_STATS", f"{DATASET}/results/match.csv")
MATCH_DIR = os.environ.get("EVALLAB_MATCH_DIR", f"{DATASET}/results/match")

# %%
import math
from pathlib import Path

import matplotlib.pyplot as plt
import polars as pl

from evallab import manifest, parts  # the committed files of a table (pip install .)

pl.Config.set_tbl_cols(30)
pl.Config.set_tbl_width_chars(200)

root = Path(DATASET)
runs = {a["label"]: a for a in manifest(root).get("analyses", [])}
assert LABEL in runs, (
    f"no match run {LABEL!r} in {root} (it has: {sorted(runs) or 'none'}): set LABEL to one, or match a few "
    f"games as pipelines/demo.toml does: evallab match {root} --uci /usr/games/stockfish --player . "
    f"--mlm-depth 6 --slm-depths 4..8 --multipv 4 --moves 10..19 --max-games 2 --label {LABEL} "
    f"-o DIR --stats DIR.csv --format csv (then EVALLAB_MATCH_DIR=DIR EVALLAB_MATCH_STATS=DIR.csv)"
)
for path in (MATCH_STATS, MATCH_DIR):
    assert Path(path).exists(), f"{path}: not found; set EVALLAB_MATCH_STATS / EVALLAB_MATCH_DIR to the run's outputs"
run = runs[LABEL]
print(run["engine"]["name"], "|", run["settings"]["protocol"], "| options", run["options"])
rows = pl.read_parquet(parts(root, "match")).filter(pl.col("label") == LABEL)
assert rows.height == sum(c["lines"] for c in run["chunks"])
rows.select("player", "move_number", "side", "san", "bits", "match_type", "value_name", "value",
            "played_cp", "top_cp", "alt_cp").head(10)

# %% [markdown]
# ## The type from the bits
#
# FULL: every bit 1 and the final MLM's first move is the move played; MAIN: the last
# bit is 1; PART: some bit is 1; NON: none. FULL and MAIN report `delta` (against the
# best alternative), PART and NON `delta2` (against the top move).

# %%
def kind(bits: str, played: str, top: str | None) -> str:
    if "0" not in bits and played == top:
        return "FULL"
    if bits.endswith("1"):
        return "MAIN"
    return "PART" if "1" in bits else "NON"


derived = [kind(b, p, t) for b, p, t in rows.select("bits", "played", "top_move").iter_rows()]
assert derived == rows["match_type"].to_list()
assert (rows["value_name"] == rows["match_type"].replace_strict(
    {"FULL": "delta", "MAIN": "delta", "PART": "delta2", "NON": "delta2"})).all()
# The value is the difference of the capped evals, except 9.99 (every alternative
# mated) and NaN = null (a repetition, or no valid eval).
plain = rows.filter(~pl.col("all_mated") & ~pl.col("repetition") & pl.col("value").is_not_null())
other = pl.when(pl.col("value_name") == "delta").then(pl.col("alt_cp")).otherwise(pl.col("top_cp"))
diff = plain.select(((pl.col("played_cp") - other) / 100 - pl.col("value")).abs().max()).item()
assert diff is None or diff < 1e-9, diff
assert rows.filter(pl.col("all_mated"))["value"].eq(9.99).all()
assert rows.filter(pl.col("repetition"))["value"].is_null().all()

# %% [markdown]
# ## MM, EV, AE, ASD per player
#
# MM = share of moves whose last bit is 1; EV = share whose eval equals the top
# move's; AE = mean drop (top − played, pawns); ASD = mean of ∫ dz/(1+|z|) from the
# played eval to the top eval = F(top) − F(played), F(z) = sign(z)·ln(1+|z|).
# EV, AE and ASD leave out repetitions and moves without valid evals.

# %%
def F(z: float) -> float:
    return math.copysign(math.log1p(abs(z)), z)


valued = rows.filter(~pl.col("repetition") & pl.col("played_cp").is_not_null() & pl.col("top_cp").is_not_null())
valued = valued.with_columns(
    asd_py=pl.struct("top_cp", "played_cp").map_elements(
        lambda r: F(r["top_cp"] / 100) - F(r["played_cp"] / 100), return_dtype=pl.Float64)
)
mine = (
    rows.group_by("player").agg(moves=pl.len(), mm=pl.col("top_at_d").mean())
    .join(valued.group_by("player").agg(
        ev=(pl.col("played_cp") == pl.col("top_cp")).mean(),
        ae=((pl.col("top_cp") - pl.col("played_cp")) / 100).mean(),
        asd=pl.col("asd_py").mean(),
    ), on="player", how="left")
    .sort("player")
)
theirs = pl.read_csv(MATCH_STATS).sort("player")
print(theirs)
assert mine["moves"].to_list() == theirs["moves"].to_list()
for c in ["mm", "ev", "ae", "asd"]:
    for a, b in zip(mine[c].to_list(), theirs[c].to_list()):
        assert (a is None and b is None) or abs(a - b) < 1e-9, (c, a, b)
assert (theirs["mm_lo"] <= theirs["mm"]).all() and (theirs["mm"] <= theirs["mm_hi"]).all()
mine

# %% [markdown]
# ## The results file's order
#
# The MATCH lines are sorted as `sort -r -t= -k2` sorts them (C locale): by the text
# after `=`, descending, equal keys by the whole line — a text order, not a numeric one.

# %%
for f in sorted(Path(MATCH_DIR).glob("results_*.txt")):
    body = f.read_text().split("\n\n")[1].splitlines()
    key = lambda l: (l.split("=", 1)[1].encode(), l.encode())
    assert body == sorted(body, key=key, reverse=True), f
    print(f.name, len(body), "lines;", body[0])

# %% [markdown]
# ## Matches at each SLM depth
#
# The share of moves whose first choice at depth dmin + i is the move played.

# %%
depths = rows["bits"].str.len_chars().max()
share = [rows["bits"].str.slice(i, 1).eq("1").mean() for i in range(depths)]
fig, ax = plt.subplots(figsize=(6, 3))
ax.plot(range(1, depths + 1), share, marker="o")
ax.set_xlabel("SLM depth index (1 = dmin)")
ax.set_ylabel("share of first choices")
ax.set_ylim(0, 1)
plt.show()

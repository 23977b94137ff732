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
# # 03 · EAS aggressiveness score: components and a recount
#
# `evallab eas` scores how aggressively each engine wins, following Stefan Pohl's
# EAS tool (V6 rules, `eas.md`). The score is a plain sum of four integer parts:
#
# - **part_sac** (sacrifices): the won games at each highest sacrifice level, as
#   shares of the wins, weighted 10/50/100/150/200/250 (levels 1–5, queen). The
#   levels are the reference's material-pattern files matched as pgn-extract does: a
#   win is a level-k sacrifice when the winner matches the level-1 … level-k files in
#   a row (`*_sac_depth`), a queen sacrifice when it also matches the queen file;
# - **part_early** (early sacrifices and length): the share of sacrifice wins whose
#   level-1 file matches by ply `early_limit` + 8 (`early_limit` = max(10,
#   avg_all/2); plies counted from the FEN move number), squared after dividing by
#   18, plus 5000 per move the engine's wins are shorter than the average decisive
#   game (`avg_all`);
# - **part_short** (short wins): wins in five buckets up to L = clamp(avg_all − 15,
#   30, 95) moves, weighted 100/68/42/27/18;
# - **part_draw** (bad draws): draws that never reached an endgame or where the
#   opponent matched its level-1 file, unless the engine matched its own:
#   (gd³/3000)² of the share gd of good draws.
#
# Wins exclude duplicates (the same move sequence as an earlier game) and irregular
# terminations (Termination containing abandon, stalled, disconnect, forfeit, time,
# illegal, infraction, rules, loose). The per-game labels behind the score are in
# `derived/eas_labels.parquet` (written by `evallab eas`); the score table is
# `evallab eas`'s, here from the Python API.
#
# This notebook plots the four parts per engine, then recounts the table's numbers
# from the labels: first the simple counts (wins, draws, sacrifice games per level),
# then every part with the reference's truncating integer helpers.

# %% tags=["parameters"]
import os

DATASET = os.environ.get("EVALLAB_DATASET", "../demo-dataset")

# %%
from pathlib import Path

from IPython.display import display
import matplotlib.pyplot as plt
import numpy as np
import polars as pl

import evallab  # the binary and its API (pip install .)

pl.Config.set_tbl_rows(30)
pl.Config.set_tbl_cols(30)
pl.Config.set_tbl_width_chars(200)

root = Path(DATASET)
eas = evallab.Dataset(DATASET).eas()  # also (re)writes the labels when they are not current
labels = pl.read_parquet(root / "derived/eas_labels.parquet")
eas

# %% [markdown]
# ## The four parts per engine

# %%
PARTS = ["part_sac", "part_early", "part_short", "part_draw"]
assert (eas.select(sum(pl.col(p) for p in PARTS).alias("total"))["total"] == eas["eas"]).all(), "parts do not add up"

ranked = eas.sort("rank")
colours = ["#0072B2", "#D55E00", "#009E73", "#CC79A7"]
fig, ax = plt.subplots(figsize=(9, 4.5))
bottom = np.zeros(ranked.height)
for part, colour in zip(PARTS, colours):
    values = ranked[part].to_numpy().astype(float)
    ax.bar(ranked["engine"], values, bottom=bottom, color=colour, label=part)
    bottom += values
for i, total in enumerate(ranked["eas"]):
    ax.text(i, total, f"{total:,}", ha="center", va="bottom", fontsize=9)
ax.set_ylabel("EAS points")
ax.set_title("EAS score per engine (V6), stacked by part")
ax.legend()
plt.show()

# %% [markdown]
# Read small samples with care: `evallab` adds a `warning` when an engine has fewer
# than 50 wins or 30 draws. With only a couple of draws, one good draw is a 100 %
# good-draw share and the full draw part (110,889), whatever else the engine did.

# %%
eas.select("engine", "wins", "draws", "bad_draw_pct", "part_draw", "warning")

# %% [markdown]
# ## Labels: one row per game
#
# `winner` is `w`/`b` (null for draws); for each side the pattern files it matched
# (`*_sac_match`, bit k = level k + 1, bit 5 = queen), the chain's depth
# (`*_sac_depth`: 1–5 the highest level, 6 the queen, 0 none), the ply of its first
# level-1 match (`*_sac1_ply`, counted like `plies_from_fen`) and its bad-draw flag;
# per game the duplicate and irregular flags and `plies_from_fen`.

# %%
print(labels.columns)
labels.select(
    pl.len().alias("games"),
    pl.col("winner").is_not_null().sum().alias("decisive"),
    pl.col("duplicate").sum().alias("duplicates"),
    pl.col("irregular").sum().alias("irregular"),
    pl.col("endgame").sum().alias("reached_endgame"),
)

# %% [markdown]
# One row per (game, engine): each game seen from each side.

# %%
def side_view(s: str) -> pl.DataFrame:
    return labels.select(
        "game_id",
        "result",
        "plies_from_fen",
        "duplicate",
        "irregular",
        pl.col("white" if s == "w" else "black").alias("engine"),
        (pl.col("winner") == s).fill_null(False).alias("won"),
        (pl.col("result") == "1/2-1/2").alias("drawn"),
        pl.col(f"{s}_sac_depth").alias("depth"),
        pl.col(f"{s}_sac1_ply").alias("sac1_ply"),
        pl.col(f"{s}_bad_draw").alias("bad_draw"),
    )


sides = pl.concat([side_view("w"), side_view("b")])
# The population of "wins": not a duplicate, not an irregular end.
counted_wins = sides.filter(pl.col("won") & ~pl.col("duplicate") & ~pl.col("irregular"))

# %% [markdown]
# ## A simple recount: wins, draws and sacrifice games per level
#
# Each won game counts once, at the end of its chain (depth 1–5: that level, 6: `sacq`).

# %%
recount = (
    sides.group_by("engine")
    .agg(pl.col("drawn").sum().alias("draws"))
    .join(
        counted_wins.group_by("engine").agg(
            pl.len().alias("wins"),
            *[(pl.col("depth") == k).sum().alias(f"sac{k}") for k in range(1, 6)],
            (pl.col("depth") == 6).sum().alias("sacq"),
            (pl.col("depth") >= 1).sum().alias("sac_any"),
        ),
        on="engine",
        how="left",
    )
    .fill_null(0)
    .sort("engine")
)
COUNTS = ["wins", "draws", "sac1", "sac2", "sac3", "sac4", "sac5", "sacq"]
check = eas.select("engine", *COUNTS).join(recount, on="engine", how="full", suffix="_nb", coalesce=True).sort("engine")
display(check.select("engine", *[c for k in COUNTS for c in (k, f"{k}_nb")], "sac_any"))
assert check.height == eas.height == recount.height
for k in COUNTS:
    assert (check[k] == check[f"{k}_nb"]).all(), f"{k} differs:\n{check.select('engine', k, k + '_nb')}"
print("wins, draws and sacrifice counts agree with `evallab eas`")

# %% [markdown]
# ## All four parts, with the reference's integer helpers (`eas.md`)
#
# - `pct100(base, count)`: the percentage with two decimals as an integer 0..=10000,
#   32-bit style with truncating division and the reference's rounding on the third
#   decimal;
# - `avg_moves(total_plies, n)`: the reference's average-moves quirk.

# %%
def pct100(base: int, count: int) -> int:
    if base <= 0:
        return 0
    t = (1_000_000_000 // base) * count
    p, d1, d2, d3 = t // 10**7, (t // 10**6) % 10, (t // 10**5) % 10, (t // 10**4) % 10
    if d3 >= 5:
        d2 += 1
        if d2 == 10:
            d2, d1 = 0, d1 + 1
            if d1 == 10:
                d1, p = 0, p + 1
    return 10000 if p > 99 else p * 100 + d1 * 10 + d2


def avg_moves(total_plies: int, n: int) -> int:
    r = (200 * total_plies + n) // (2 * n)
    whole, dec = r // 100, r % 100
    if dec % 10 != 0 and dec >= 50:
        whole += 1
    return whole // 2


assert pct100(8, 1) == 1250 and pct100(0, 3) == 0 and pct100(3, 3) == 10000
# The published checks of the draw part: gd 100 → 110,889; 85 → 41,616; 50 → 1,681; 40 → 441.
assert [((gd**3) // 3000) ** 2 for gd in (100, 85, 50, 40)] == [110_889, 41_616, 1_681, 441]

decisive = labels.filter(pl.col("result").is_in(["1-0", "0-1"]))  # whole input, not de-duplicated
avg_all = avg_moves(int(decisive["plies_from_fen"].sum()), decisive.height)
L = min(95, max(30, avg_all - 15))
early_limit = max(10, avg_all // 2)
print(f"avg_all = {avg_all} moves, L = {L}, early_limit = {early_limit} plies")


def parts(engine: str) -> dict:
    wins = counted_wins.filter(pl.col("engine") == engine)
    draws = sides.filter((pl.col("engine") == engine) & pl.col("drawn"))
    w = wins.height
    # 1. sacrifices
    n = {k: wins.filter(pl.col("depth") == k).height for k in range(1, 6)}
    nq = wins.filter(pl.col("depth") == 6).height
    part_sac = sum(m * pct100(w, n[k]) for k, m in zip(range(1, 6), (10, 50, 100, 150, 200))) + 250 * pct100(w, nq)
    # 2. early sacrifices + length bonus
    sac = wins.filter(pl.col("depth") >= 1)
    early = sac.filter(pl.col("sac1_ply") <= early_limit + 8).height
    part_early = (pct100(sac.height, early) // 18) ** 2
    avg_eng = avg_moves(int(wins["plies_from_fen"].sum()), w) if w else 0
    if avg_all - avg_eng > 0:
        part_early += 5000 * (avg_all - avg_eng)
    # 3. short wins: disjoint buckets ≤ L−20, (L−20, L−15], …, (L−5, L] moves (N moves = 2N plies)
    edges = [2 * (L - d) for d in (20, 15, 10, 5, 0)]
    plies = wins["plies_from_fen"].to_numpy()
    buckets = [int(((plies <= hi) & (plies > lo)).sum()) for lo, hi in zip([-1] + edges[:-1], edges)]
    part_short = sum(m * pct100(w, b) for m, b in zip((100, 68, 42, 27, 18), buckets))
    # 4. bad draws
    d, bad = draws.height, int(draws["bad_draw"].sum())
    gd = pct100(d, d - bad) // 100 if d else None
    part_draw = ((gd**3) // 3000) ** 2 if d else 0
    return {
        "engine": engine,
        "avg_win_moves": avg_eng,
        "part_sac": part_sac,
        "part_early": part_early,
        "part_short": part_short,
        "part_draw": part_draw,
        "eas": part_sac + part_early + part_short + part_draw,
    }


mine = pl.DataFrame([parts(e) for e in eas["engine"]])
cols = ["avg_win_moves", *PARTS, "eas"]
both = eas.select("engine", *cols).join(mine, on="engine", suffix="_nb")
display(both.select("engine", *[c for k in cols for c in (k, f"{k}_nb")]))
for k in cols:
    assert (both[k] == both[f"{k}_nb"]).all(), f"{k} differs:\n{both.select('engine', k, k + '_nb')}"
print("every part and the total agree with `evallab eas`")

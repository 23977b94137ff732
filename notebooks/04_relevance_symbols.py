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
# # 04 · Relevance-reduced swings and move symbols
#
# An eval change matters less the further it is from 0.00: losing a piece when
# already −9 is irrelevant. With an engine's win-draw balance x05 > 0 (pawns;
# `metrics.md` §2, README "Relevance reduction, probabilistic results and NAGs"):
#
# - relevance f(x) = 0.5^(|x| / x05): 1 at 0, 0.5 at ±x05, → 0 at ±∞;
# - its integral C(x) = ∫_{−∞}^{x} f: (x05 / ln 2) · 2^(x / x05) for x ≤ 0, and
#   2·x05 / ln 2 − (x05 / ln 2) · 2^(−x / x05) for x > 0 (total area 2·x05 / ln 2);
# - the relevance-reduced difference rr(a, b) = C(b) − C(a), signed, |rr| ≤ 2·x05/ln 2;
# - the probabilistic result P(x) = C(x) / (2·x05/ln 2): 2^(x/x05 − 1) for x ≤ 0,
#   1 − 2^(−x/x05 − 1) for x > 0 (P(0) = 0.5, P(x05) = 0.75);
# - move symbols from d = |rr|, scheme `econ8` (eight equal areas): unit
#   u = x05/(4 ln 2), `!?`/`?!` from 1u, `!`/`?` from 2u, `!!`/`??` from 3u.
#
# `evallab relevance` writes one row per engine move with an own eval to
# `derived/relevance_moves.parquet`, or to `--moves-out FILE` (here: a temporary
# file, so that the notebook never writes into the dataset it reads): own eval, own previous eval and the opponent's
# preceding eval (pawns, own POV; mates count as ±100 and every eval is clipped to
# ±100 pawns), the raw and relevance-reduced **swing** (own eval vs own previous
# eval) and **disagreement** (own eval vs the opponent's preceding eval), P(own eval)
# and position symbols, with the engine's x05 in the `x05` column (from
# `calibrate --toml`). The per-engine summary is the `summary` that the same call
# returns (the pipeline wrote it as `results/relevance.csv`).

# %% tags=["parameters"]
import os

DATASET = os.environ.get("EVALLAB_DATASET", "../demo-dataset")

# %%
import math
import tempfile
from pathlib import Path

from IPython.display import display
import matplotlib.pyplot as plt
import numpy as np
import polars as pl

import evallab
from evallab import parts  # the committed files of a table (pip install .)

pl.Config.set_tbl_rows(30)
pl.Config.set_tbl_cols(30)
pl.Config.set_tbl_width_chars(200)

root = Path(DATASET)
# The summary and the per-move table of one `evallab relevance` call, the table
# into a temporary folder (removed at the end): without `moves_out` the call
# would rewrite the dataset's `derived/relevance_moves.parquet`. With the
# pipeline's per-engine x05 (`results/x05.toml`) where there is one, else
# `--x05`'s default.
scratch = tempfile.TemporaryDirectory(prefix="evallab-04-")
moves_file = Path(scratch.name) / "relevance_moves.parquet"
x05_file = root / "results/x05.toml"
summary = evallab.Dataset(DATASET).relevance(
    x05=str(x05_file) if x05_file.exists() else None, moves_out=moves_file
)
# Lazy: each query below reads only its columns, so that an archive's millions of
# per-move rows are never all in memory at once.
rel = pl.scan_parquet(moves_file)
n_rows = rel.select(pl.len()).collect().item()
print(n_rows, "rows")
rel.head().collect()

# %%
rel.group_by("engine").agg(pl.col("x05").unique().sort().alias("x05"), pl.len().alias("moves")).sort("engine").collect()

# %% [markdown]
# ## Reproduce `loss_rr_total`
#
# The relevance-reduced loss of a move is the drop of the engine's own eval from its
# previous one: −swing_rr where swing_rr < 0 (0 otherwise; the first eval of a game
# has no swing). Summed per engine, and the same raw.

# %%
loss = (
    rel.group_by("engine")
    .agg(
        pl.len().alias("moves_nb"),
        pl.when(pl.col("swing_rr") < 0).then(-pl.col("swing_rr")).otherwise(0.0).sum().alias("loss_rr_total_nb"),
        pl.when(pl.col("swing_raw") < 0).then(-pl.col("swing_raw")).otherwise(0.0).sum().alias("loss_raw_total_nb"),
    )
    .sort("engine")
    .collect()
)
cmp = summary.select("engine", "moves", "loss_rr_total", "loss_raw_total").join(loss, on="engine", how="full", coalesce=True)
display(cmp)
assert cmp.height == summary.height == loss.height
assert (cmp["moves"] == cmp["moves_nb"]).all()
assert ((cmp["loss_rr_total"] - cmp["loss_rr_total_nb"]).abs() <= 1e-6).all(), "loss_rr_total differs"
assert ((cmp["loss_raw_total"] - cmp["loss_raw_total_nb"]).abs() <= 1e-6).all(), "loss_raw_total differs"
print("loss_rr_total (and loss_raw_total) reproduced")

# %% [markdown]
# ## C(x), rr and P(x) in numpy
#
# Two branches, so that each exponentiates a non-positive number.

# %%
LN2 = math.log(2)


def relevance(x, x05):
    return 0.5 ** (np.abs(x) / x05)


def cumulative(x, x05):
    x, x05 = np.asarray(x, dtype=float), np.asarray(x05, dtype=float)
    h = x05 / LN2
    return np.where(x <= 0, h * 2.0 ** (np.minimum(x, 0) / x05), 2 * h - h * 2.0 ** (-np.maximum(x, 0) / x05))


def rr(a, b, x05):
    return cumulative(b, x05) - cumulative(a, x05)


def prob(x, x05):
    return cumulative(x, x05) / (2 * np.asarray(x05, dtype=float) / LN2)


# Properties from the spec.
x05 = 0.62
assert prob(0.0, x05) == 0.5 and abs(prob(x05, x05) - 0.75) < 1e-15
assert abs(relevance(x05, x05) - 0.5) < 1e-15
grid = np.linspace(-20, 20, 4001)
assert np.all(np.diff(cumulative(grid, x05)) > 0)
assert np.all(np.abs(rr(grid, grid[::-1], x05)) <= 2 * x05 / LN2 + 1e-12)
# C is the integral of f (trapezoid rule on a fine grid, from far left).
fine = np.linspace(-40, 3, 200_001)
trap = float(np.sum((relevance(fine[1:], x05) + relevance(fine[:-1], x05)) / 2 * np.diff(fine)))
assert abs(trap - cumulative(3.0, x05)) < 1e-6
# "From 2.00 to −1.00 it is far less than 3.00."
print(f"rr(2.00, -1.00) at x05 = {x05}: {rr(2.0, -1.0, x05):.4f} (raw: -3.00)")

# %% [markdown]
# ## Check against the table on a sample
#
# A fixed random sample of rows (seed 0): swing_rr, disagreement_rr and p_result from
# the formulas, with each row's own x05. The inputs (own_eval and the previous
# evals) are clipped to ±100 pawns already.

# %%
assert rel.select(pl.col("own_eval").abs().max()).collect().item() <= 100
rng = np.random.default_rng(0)
rows = np.sort(rng.choice(n_rows, size=min(2000, n_rows), replace=False))
sample = rel.with_row_index("row").filter(pl.col("row").is_in(rows.tolist())).drop("row").collect()
x05s = sample["x05"].to_numpy()
x = sample["own_eval"].to_numpy()
checks = {
    "swing_rr": (rr(sample["own_prev_eval"].to_numpy(), x, x05s), sample["swing_rr"].to_numpy()),
    "disagreement_rr": (rr(sample["opp_prev_eval"].to_numpy(), x, x05s), sample["disagreement_rr"].to_numpy()),
    "p_result": (prob(x, x05s), sample["p_result"].to_numpy()),
}
for name, (ours, theirs) in checks.items():
    both = ~np.isnan(ours) & ~np.isnan(theirs)
    # Nulls (no previous eval) on the same rows.
    assert np.array_equal(np.isnan(ours), np.isnan(theirs)), name
    err = np.abs(ours[both] - theirs[both]).max()
    print(f"{name}: {both.sum()} rows, max |difference| = {err:.2e}")
    assert err <= 1e-9, name

# %% [markdown]
# The table's own eval itself, from the `moves` table: the engine's non-book cp or
# mate eval in its own POV, pawns, mates as ±100, clipped to ±100 (placeholders,
# absurd values and |cp| ≥ 10000 are not evals).

# %%
moves = pl.scan_parquet(parts(DATASET, "moves"))
from_moves = (
    sample.lazy()
    .select("game_id", "ply", "side", "own_eval")
    .join(moves.select("game_id", "ply", "is_book", "eval_kind", "eval_cp", "mate"), on=["game_id", "ply"], how="left")
    .with_columns(
        white_pov=pl.when(pl.col("mate").is_not_null())
        .then(pl.col("mate").sign().cast(pl.Float64) * 100)
        .otherwise((pl.col("eval_cp") / 100).clip(-100, 100))
    )
    .with_columns(own_nb=pl.when(pl.col("side") == "w").then(pl.col("white_pov")).otherwise(-pl.col("white_pov")))
    .collect()
)
assert from_moves.filter(pl.col("is_book") | ~pl.col("eval_kind").is_in(["cp", "mate"])).is_empty()
assert ((from_moves["own_nb"] - from_moves["own_eval"]).abs() <= 1e-12).all()
print(f"own_eval of {from_moves.height} sampled rows recomputed from the moves table")

# %% [markdown]
# ## Swings and the econ8 thresholds
#
# Per engine, with its own x05: u = x05 / (4 ln 2); swings with |rr| ≥ 1u, 2u, 3u are
# `?!`/`!?`, `?`/`!`, `??`/`!!` (drops: bad, gains: good; each swing counts once, at
# its highest symbol). First the counts against the command's summary.

# %%
def econ8_units(x05):
    return x05 / (4 * LN2)


syms = ["dubious", "mistake", "blunder"], ["speculative", "good", "brilliant"]
d = pl.col("swing_rr").abs()
t = pl.col("x05") * (1 / (4 * LN2))
band = [(d >= k * t) & (d < (k + 1) * t) if k < 3 else (d >= k * t) for k in (1, 2, 3)]
counts = (
    rel.filter(pl.col("swing_rr").is_not_null())
    .group_by("engine")
    .agg(
        *[(b & (pl.col("swing_rr") < 0)).sum().alias(f"econ8_{s}_nb") for b, s in zip(band, syms[0])],
        *[(b & (pl.col("swing_rr") > 0)).sum().alias(f"econ8_{s}_nb") for b, s in zip(band, syms[1])],
    )
    .collect()
)
names = [f"econ8_{s}" for s in syms[0] + syms[1]]
ccmp = summary.select("engine", *names).join(counts, on="engine").sort("engine")
display(ccmp.select("engine", *[c for n in names for c in (n, f"{n}_nb")]))
for n in names:
    assert (ccmp[n] == ccmp[f"{n}_nb"]).all(), n
print("econ8 symbol counts agree with relevance.csv")

# %% [markdown]
# The distribution of each engine's swings against its thresholds, for the `PANELS`
# engines with the most moves (an archive has thousands; the counts above cover them all).

# %%
PANELS = 8
engines = (
    rel.filter(pl.col("swing_rr").is_not_null())
    .group_by("engine")
    .len()
    .sort("len", "engine", descending=[True, False])
    .head(PANELS)
    .collect()["engine"]
    .sort()
    .to_list()
)
ncols = 2
nrows = math.ceil(len(engines) / ncols)
fig, axes = plt.subplots(nrows, ncols, figsize=(11, 3.6 * nrows), squeeze=False)
for ax, engine in zip(axes.flat, engines):
    e = rel.filter((pl.col("engine") == engine) & pl.col("swing_rr").is_not_null()).select("x05", "swing_rr").collect()
    x05e = e["x05"][0]
    u = econ8_units(x05e)
    lim = 2 * x05e / LN2
    ax.hist(e["swing_rr"].to_numpy(), bins=np.linspace(-lim, lim, 121), color="grey", log=True)
    for k, colour in zip((1, 2, 3), ("#E69F00", "#D55E00", "#CC0000")):
        ax.axvline(-k * u, color=colour, ls="--", lw=1)
        ax.axvline(k * u, color=colour, ls="--", lw=1, label=f"{k}u = {k * u:.3f}")
    ax.set_title(f"{engine}  (x05 = {x05e:.4f}, {e.height} swings)")
    ax.set_xlabel("swing_rr (own POV, relevance-reduced)")
    ax.set_ylabel("moves (log)")
    ax.legend(fontsize=7, title="econ8", title_fontsize=7)
for ax in axes.flat[len(engines):]:
    ax.set_visible(False)
fig.tight_layout()
plt.show()

# %%
scratch.cleanup()  # the per-move table of this notebook

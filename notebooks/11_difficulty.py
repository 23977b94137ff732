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
# # 11 · Difficulty against Lichess puzzle ratings
#
# `pipelines/difficulty.toml` ingests the shared Lichess puzzles (CSV), analyses and
# prices the solver's first position (Stockfish at 20,000 nodes, MultiPV 5, every
# depth; Maia-1900), and writes the difficulty measures per puzzle, their rank
# correlations with the rating and the expected-rating model
# (docs/guide/difficulty.md). This notebook re-derives three measures from the
# `analysis` and `policy` tables, re-derives every correlation of the `all` group and
# of the themes with scipy, recomputes the model's predictions from its JSON file and
# plots the rating against each measure.

# %% tags=["parameters"]
import os

DATASET = os.environ.get("EVALLAB_PUZZLES_DATASET", "../puzzles-dataset")
ANALYSIS, POLICY = "sf20k5", "maia-1900"

# %%
import json
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from scipy.stats import kendalltau, spearmanr

from evallab import manifest, parts

root = Path(DATASET)
results = root / "results"
HAVE = (root / "manifest.json").exists() and (results / "difficulty_puzzles.csv").exists()
HAVE = HAVE and POLICY in {a["label"] for a in manifest(root).get("analyses", [])}
if not HAVE:
    # CI without lc0 (EVALLAB_SKIP_LC0=1) runs no difficulty pipeline: say so loudly.
    print(f"SKIPPED: no puzzle dataset with a policy run at {root} (run pipelines/difficulty.toml; EVALLAB_PUZZLES_DATASET)")

MEASURES = [
    "ease_sum", "ease_per_term", "prior_best", "policy_rank", "policy_entropy",
    "good_moves", "q_gap", "prior_losing", "depth_to_find",
]

# %% [markdown]
# ## Three measures from the tables
#
# At the solver's first position (the one before ply 2): the best move is the final
# MultiPV 1 line (where it is exact, the best line ease reads too),
# `prior_best` its prior, `policy_rank` 1 + the moves priced higher, and
# `policy_entropy` −Σ p ln p over the priors normalised to sum 1.

# %%
if HAVE:
    puzzles = pl.read_csv(results / "difficulty_puzzles.csv")
    best = (
        pl.read_parquet(parts(root, "analysis"))
        .filter(
            (pl.col("label") == ANALYSIS) & (pl.col("ply") == 2) & pl.col("is_final")
            & (pl.col("multipv") == 1) & (pl.col("bound") == "exact")
        )
        .select("game_id", best=pl.col("move"))
    )
    pri = pl.read_parquet(parts(root, "policy")).filter(
        (pl.col("label") == POLICY) & (pl.col("ply") == 2)
    )
    p = pri.with_columns(p=pl.col("prior") / pl.col("prior").sum().over("game_id"))
    entropy = p.group_by("game_id").agg(h=-(pl.col("p") * pl.col("p").log()).sum())
    mine = (
        pri.join(best, on="game_id")
        .group_by("game_id")
        .agg(
            pb=pl.col("prior").filter(pl.col("move") == pl.col("best")).first(),
            rank=1 + (pl.col("prior") > pl.col("prior").filter(pl.col("move") == pl.col("best")).first()).sum(),
        )
        .join(entropy, on="game_id")
    )
    both = puzzles.join(best, on="game_id").filter(pl.col("best_move") == pl.col("best")).join(mine, on="game_id")
    print(f"{both.height} of {puzzles.height} puzzles with an exact final best line")
    assert both.height > 0.9 * puzzles.height
    assert (both["prior_best"] - both["pb"]).abs().max() < 1e-12
    assert (both["policy_rank"] == both["rank"]).all()
    assert (both["policy_entropy"] - both["h"]).abs().max() < 1e-9
    print("prior_best, policy_rank, policy_entropy re-derived: equal")

# %% [markdown]
# ## The correlations, with scipy
#
# Spearman's rho and Kendall's tau-b of each measure with the rating, over the puzzles
# with the measure: all of them, then each theme with at least 30 puzzles. The
# intervals are evallab's bootstrap (not re-derived here).

# %%
if HAVE:
    table = pl.read_csv(results / "difficulty.csv")
    checked = 0
    for row in table.filter(pl.col("rho").is_not_null()).iter_rows(named=True):
        sub = puzzles if row["theme"] == "all" else puzzles.filter(
            pl.col("themes").str.split(" ").list.contains(row["theme"])
        )
        sub = sub.drop_nulls([row["measure"], "rating"])
        x, y = sub[row["measure"]].to_numpy(), sub["rating"].to_numpy()
        assert len(x) == row["n"], row
        assert abs(spearmanr(x, y)[0] - row["rho"]) < 1e-5, row
        assert abs(kendalltau(x, y)[0] - row["tau"]) < 1e-5, row
        assert row["rho_lo"] <= row["rho"] <= row["rho_hi"] or row["rho_lo"] == row["rho_hi"]
        checked += 1
    print(f"{checked} correlations re-derived with scipy: equal")
    print(table.filter(pl.col("theme") == "all").select("measure", "n", "rho", "rho_lo", "rho_hi", "tau"))

# %% [markdown]
# ## The rating against each measure
#
# Each point a puzzle; the line is the mean rating per decile of the measure (per value
# for the measures with few values).

# %%
if HAVE:
    fig, axes = plt.subplots(3, 3, figsize=(12, 10), sharey=True)
    rho = dict(table.filter(pl.col("theme") == "all").select("measure", "rho").iter_rows())
    for ax, m in zip(axes.flat, MEASURES):
        d = puzzles.drop_nulls(m).select(m, "rating")
        ax.scatter(d[m], d["rating"], s=4, alpha=0.35)
        bins = d.with_columns(
            b=pl.col(m).rank("ordinal").floordiv(max(1, d.height // 10)) if d[m].n_unique() > 10 else pl.col(m)
        ).group_by("b").agg(pl.col(m).mean(), pl.col("rating").mean()).sort(m)
        ax.plot(bins[m], bins["rating"], color="C3")
        ax.set_title(f"{m}  (rho {rho[m]:.2f})", fontsize=9)
    axes[0, 0].set_ylabel("puzzle rating")
    fig.tight_layout()
    plt.show()

# %% [markdown]
# ## The model's predictions, from its file
#
# `linear-ranks`: intercept + Σ coefficient · percentile, each measure's percentile
# interpolated on its stored CDF points (clamped at the ends); `isotonic`: the step
# whose lower edge is the last at or below the value. Checked against `ease
# --rating-model` at the solver's first positions.

# %%
if HAVE:
    model = json.loads((results / "puzzle-rating.json").read_text())
    print({k: model[k] for k in ("features", "kind", "training_puzzles", "coverage", "cv")})

    def predict(row):
        xs = [row[f] for f in model["features"]]
        if any(v is None for v in xs):
            return None
        if model["kind"] == "isotonic":
            i = np.searchsorted(np.array(model["x"]), xs[0], side="right")
            return model["y"][max(i - 1, 0)]
        total = model["intercept"]
        for v, cdf, b in zip(xs, model["cdf"], model["coefficients"]):
            cx, cu = np.array(cdf).T
            total += b * np.interp(v, cx, cu)
        return total

    mine = puzzles.with_columns(
        mine=pl.struct(model["features"]).map_elements(predict, return_dtype=pl.Float64)
    )
    ease = pl.read_csv(results / "ease_expected_rating.csv").filter(pl.col("ply") == 2)
    cmp = mine.join(ease.select("game_id", "expected_rating"), on="game_id")
    assert cmp["mine"].is_null().sum() == cmp["expected_rating"].is_null().sum()
    assert (cmp["mine"] - cmp["expected_rating"]).abs().max() < 1e-6
    known = cmp.drop_nulls("mine")
    mae = (known["mine"] - known["rating"]).abs().mean()
    print(f"in-sample MAE {mae:.0f} (cross-validated: {model['cv']['mae']:.0f}); "
          f"rho {spearmanr(known['mine'], known['rating'])[0]:.3f}")
    assert mae <= model["cv"]["mae"] + 3 * model["cv"]["mae_se"]
    plt.figure(figsize=(5, 5))
    plt.scatter(known["mine"], known["rating"], s=4, alpha=0.4)
    lim = [known["rating"].min(), known["rating"].max()]
    plt.plot(lim, lim, color="grey", lw=1)
    plt.xlabel("expected rating (model)")
    plt.ylabel("puzzle rating")
    plt.show()

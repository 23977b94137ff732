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
# # 08 · Ease of a position
#
# `pipelines/ease.toml` (after the demo pipeline) prices the demo's analysed positions
# with Maia-1900 through lc0 (`evallab policy`, table `policy`) and computes the ease
# of each (`evallab ease`, README "Ease of a position") from the priors P and the
# Stockfish re-analysis `sf-1k` (Q of its top 2 exact lines). This notebook re-derives
# the ease of every position in polars-python from the two tables and checks it
# against `results/ease_positions.csv`, then plots the ease along one game.

# %% tags=["parameters"]
import os

DATASET = os.environ.get("EVALLAB_DATASET", "../demo-dataset")
ANALYSIS, POLICY, TOP = "sf-1k", "maia-1900", 2

# %%
from pathlib import Path

import matplotlib.pyplot as plt
import polars as pl

from evallab import manifest, parts

root = Path(DATASET)
labels = {a["label"] for a in manifest(root).get("analyses", [])}
HAVE_POLICY = POLICY in labels and (root / "results/ease_positions.csv").exists()
if not HAVE_POLICY:
    # CI without lc0 (EVALLAB_SKIP_LC0=1) runs no ease pipeline: say so loudly.
    print(f"SKIPPED: no policy run {POLICY!r} in {root} (run pipelines/ease.toml after scripts/install_lc0.sh)")

# %% [markdown]
# ## Re-derive the ease of every position
#
# Which lines give Q (README reading 4): the final lines when all are exact; else the
# deepest depth at which every line is exact (the demo's analysis keeps all depths);
# else the exact final lines if the best one is exact; else none (no ease).
# Q = 2/(1 + e^(−0.00368208·cp)) − 1 (a mate ±1), P from the policy table,
# ease = 1 − (Σ P^1.5 · max(0, Q_max − Q)/2)^(1/3).

# %%
if HAVE_POLICY:
    pos = ["game_id", "ply"]
    rows = (
        pl.read_parquet(parts(root, "analysis"))
        .filter((pl.col("label") == ANALYSIS) & (pl.col("multipv") <= TOP))
        .with_columns(exact=pl.col("bound") == "exact")
    )
    finals = rows.filter("is_final")
    per_pos = finals.group_by(pos).agg(
        n_final=pl.len(),
        final_exact=pl.col("exact").all(),
        best_exact=pl.col("exact").filter(pl.col("multipv") == 1).any(),
    )
    complete = (
        rows.group_by(*pos, "depth")
        .agg(n=pl.col("exact").sum())
        .join(per_pos, on=pos)
        .filter(pl.col("n") == pl.col("n_final"))
        .group_by(pos)
        .agg(complete_depth=pl.col("depth").max())
    )
    chosen = rows.join(per_pos, on=pos).join(complete, on=pos, how="left").filter(
        pl.when(pl.col("final_exact"))
        .then(pl.col("is_final"))
        .when(pl.col("complete_depth").is_not_null())
        .then(pl.col("depth") == pl.col("complete_depth"))
        .when(pl.col("best_exact"))
        .then(pl.col("is_final") & pl.col("exact"))
        .otherwise(False)
    )
    print(
        per_pos.height, "positions:", per_pos["final_exact"].sum(), "with exact final lines,",
        complete.join(per_pos.filter(~pl.col("final_exact")), on=pos).height, "from a complete depth",
    )
    lines = (
        chosen.with_columns(
            q=pl.when(pl.col("score_mate").is_not_null())
            .then(pl.when(pl.col("score_mate") > 0).then(1.0).otherwise(-1.0))
            .otherwise(2 / (1 + (-0.00368208 * pl.col("score_cp")).exp()) - 1)
        )
        # A move once (reading 6): a repeat in a later MultiPV slot is dropped.
        .sort("multipv")
        .unique(subset=[*pos, "move"], keep="first", maintain_order=True)
    )
    priors = pl.read_parquet(parts(root, "policy")).filter(pl.col("label") == POLICY)
    mine = (
        per_pos.select(pos)
        .join(lines, on=pos, how="left")
        .join(priors.select("game_id", "ply", "move", "prior"), on=["game_id", "ply", "move"], how="left")
        .with_columns(q_max=pl.col("q").max().over("game_id", "ply"))
        .with_columns(
            term=pl.when(pl.col("prior").is_not_null() & pl.col("q").is_not_null()).then(
                pl.col("prior") ** 1.5 * (pl.col("q_max") - pl.col("q")).clip(lower_bound=0) / 2
            )
        )
        .group_by("game_id", "ply")
        .agg(
            n=pl.col("term").count(),
            total=pl.col("term").sum(),
            used=pl.col("move").sort_by("multipv").filter(pl.col("term").sort_by("multipv").is_not_null()),
        )
        .with_columns(ease=pl.when(pl.col("n") > 0).then(1 - pl.col("total") ** (1 / 3)))
        .sort("game_id", "ply")
    )
    theirs = pl.read_csv(root / "results/ease_positions.csv").sort("game_id", "ply")
    both = mine.join(theirs, on=["game_id", "ply"], suffix="_evallab")
    assert both.height == theirs.height == mine.height
    assert (both["n"] == both["candidates"]).all()
    # The candidates used: the priced lines' moves in MultiPV order.
    assert (both["used"].list.join(" ") == both["candidate_moves"].fill_null("")).all()
    diff = (both["ease"] - both["ease_evallab"]).abs().max()
    assert diff is None or diff < 1e-9, diff
    print(both.height, "positions: evallab ease == the polars-python re-derivation")
    # Every position's priors are a distribution over its legal moves.
    sums = priors.group_by("game_id", "ply").agg(pl.col("prior").sum())
    assert ((sums["prior"] - 1).abs() < 0.002).all()

# %% [markdown]
# ## Ease along one game
#
# The game with the hardest position: ease per ply (1 = the net's natural moves are
# the good ones).

# %%
if HAVE_POLICY:
    worst = theirs.filter(pl.col("ease").is_not_null()).sort("ease").row(0, named=True)["game_id"]
    g = theirs.filter(pl.col("game_id") == worst)
    fig, ax = plt.subplots(figsize=(7, 2.5))
    ax.plot(g["ply"], g["ease"], marker=".")
    ax.set_xlabel("ply")
    ax.set_ylabel("ease")
    ax.set_ylim(0, 1.02)
    ax.set_title(f"game {worst}")
    plt.show()
    print(pl.read_csv(root / "results/ease.csv"))

# %% [markdown]
# ## Errors by ease band
#
# `--bands 0.5,0.7,0.9`: the played move's mean loss (cp, against `sf-1k`) per engine and
# band. The bands must add up to the per-engine summary (`ease.csv`) in positions, and
# its mean loss lies between the bands' (a position whose played move has no loss counts
# in `positions`, not in the means).

# %%
if HAVE_POLICY:
    bands = pl.read_csv(root / "results/ease_bands.csv")
    totals = pl.read_csv(root / "results/ease.csv").select("engine", "positions", "mean_loss_cp")
    check = (
        bands.group_by("engine")
        .agg(n=pl.col("positions").sum(), lo=pl.col("mean_loss_cp").min(), hi=pl.col("mean_loss_cp").max())
        .join(totals, on="engine")
    )
    assert (check["n"] == check["positions"]).all()
    assert check.filter(~pl.col("mean_loss_cp").is_between("lo", "hi")).is_empty()
    print(bands)
    for engine, g in bands.group_by("engine", maintain_order=True):
        plt.plot(g["mean_ease"], g["mean_loss_cp"], marker="o", label=engine[0])
    plt.xlabel("mean ease of the band")
    plt.ylabel("mean loss (cp)")
    plt.legend()
    plt.show()

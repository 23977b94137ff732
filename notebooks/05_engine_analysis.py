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
# # 05 · Engine re-analysis and agreement
#
# `evallab analyze` re-analyses the dataset's positions with a UCI engine (the demo
# pipeline: Stockfish, 1000 nodes, MultiPV 2, six games, label `sf-1k`). The table
# `analysis` has one row per kept engine line of the position *before* `ply`
# (`is_final`: the search's result for that MultiPV rank); the manifest's `analyses`
# names the engine, every option sent and the limit.
#
# `evallab agreement` compares the archive with it, per engine (README "Agreement"):
# eval agreement (archived vs reference, White POV, pawns clipped to ±10, cp pairs
# only), the share of played moves that are the reference's first choice, and the
# played move's loss (mover's POV, cp clamped to ±1000, mates as ±1000) and lichess
# accuracy. This notebook re-derives those numbers from the Parquet tables in plain
# polars-python and checks them against `evallab agreement` (through the Python API).

# %% tags=["parameters"]
import os

DATASET = os.environ.get("EVALLAB_DATASET", "../demo-dataset")
LABEL = "sf-1k"

# %%
import math
from pathlib import Path

import matplotlib.pyplot as plt
import polars as pl

import evallab  # the binary and its API (pip install .)
from evallab import manifest, parts  # the committed files of a table

pl.Config.set_tbl_cols(30)
pl.Config.set_tbl_width_chars(200)

root = Path(DATASET)
runs = {a["label"]: a for a in manifest(root).get("analyses", [])}
assert LABEL in runs, (
    f"no analysis {LABEL!r} in {root} (it has: {sorted(runs) or 'none'}): set LABEL to one, or analyse a few "
    f"games as pipelines/demo.toml does: evallab analyze {root} --uci /usr/games/stockfish --nodes 1000 "
    f"--multipv 2 --all-depths --max-games 6 --label {LABEL}"
)
run = runs[LABEL]
print(run["engine"]["name"], run["settings"]["limit"], "MultiPV", run["settings"]["multipv"], "options", run["options"])
analysis = pl.read_parquet(parts(root, "analysis")).filter(pl.col("label") == LABEL)
failures = pl.read_parquet(parts(root, "analysis_failures")).filter(pl.col("label") == LABEL)
games = pl.read_parquet(parts(root, "games"), columns=["game_id", "white", "black"])
# The analysed games' moves alone, and only the columns used below: the whole
# table (PVs and comments) would be gigabytes on a large archive.
moves = (
    pl.scan_parquet(parts(root, "moves"))
    .select("game_id", "ply", "side", "uci", "eval_kind", "eval_cp")
    .join(analysis.select("game_id").unique().lazy(), on="game_id", how="semi")
    .collect()
)
print(analysis.shape, "failures:", failures.height)
analysis.head()

# %% [markdown]
# Every final line is unique per (game, ply, multipv), and each analysed position has
# its best line; the engine's own counts match the manifest.

# %%
finals = analysis.filter("is_final")
assert finals.select("game_id", "ply", "multipv").is_unique().all()
positions = finals.select("game_id", "ply").unique()
assert positions.height == sum(c["positions"] for c in run["chunks"]) - failures.height
assert analysis.height == sum(c["lines"] for c in run["chunks"])
assert (finals.filter(pl.col("multipv") == 1).height) == positions.height

# %% [markdown]
# ## Re-derive the agreement table

# %%
CEIL = 1000.0


def stm_cp():
    mate = pl.col("score_mate")
    return (
        pl.when(mate.is_not_null())
        .then(pl.when(mate > 0).then(CEIL).otherwise(-CEIL))
        .otherwise(pl.col("score_cp").cast(pl.Float64).clip(-CEIL, CEIL))
    )


def win(cp):
    return 50 + 50 * (2 / (1 + (-0.00368208 * cp).exp()) - 1)


f = finals.with_columns(stm_cp().alias("stm"))
best = f.filter(pl.col("multipv") == 1).select(
    "game_id", "ply", pl.col("move").alias("ref_move"), "white_cp", pl.col("stm").alias("best")
)
line = f.select("game_id", "ply", pl.col("move").alias("uci"), pl.col("stm").alias("line"))
nxt = best.select("game_id", (pl.col("ply") - 1).cast(pl.UInt32).alias("ply"), (-pl.col("best")).alias("next"))
per = (
    moves.select("game_id", "ply", "side", "uci", "eval_kind", "eval_cp")
    .join(best, on=["game_id", "ply"])
    .join(line, on=["game_id", "ply", "uci"], how="left")
    .join(nxt, on=["game_id", "ply"], how="left")
    .join(games.select("game_id", "white", "black"), on="game_id")
    .with_columns(
        engine=pl.when(pl.col("side") == "w").then("white").otherwise("black"),
        top1=pl.col("uci") == pl.col("ref_move"),
        played=pl.col("line").fill_null(pl.col("next")),
        archived=pl.when(pl.col("eval_kind") == "cp").then(pl.col("eval_cp")),
    )
    .with_columns(
        both=pl.col("archived").is_not_null() & pl.col("white_cp").is_not_null(),
        loss=(pl.col("best") - pl.col("played")).clip(0, 2 * CEIL),
        acc=(
            103.1668100711649 * (-0.04354415386753951 * (win(pl.col("best")) - win(pl.col("played")))).exp()
            - 3.166924740191411
            + 1
        ).clip(0, 100),
    )
    .with_columns(
        x=pl.when("both").then((pl.col("archived") / 100).clip(-10, 10)),
        y=pl.when("both").then((pl.col("white_cp") / 100).clip(-10, 10)),
    )
)
mine = (
    per.group_by("engine")
    .agg(
        positions=pl.len(),
        top1_share=pl.col("top1").mean(),
        eval_pairs=pl.col("both").sum(),
        mean_abs_diff_pawns=(pl.col("x") - pl.col("y")).abs().mean(),
        loss_moves=pl.col("loss").count(),
        mean_loss_cp=pl.col("loss").mean(),
        mean_accuracy=pl.col("acc").mean(),
    )
    .join(
        # Pearson's r over the pairs only.
        per.filter("both").group_by("engine").agg(eval_corr=pl.corr("x", "y")),
        on="engine",
        how="left",
    )
    .sort("engine")
)
mine

# %%
theirs = evallab.Dataset(root).agreement(analysis=LABEL, by="engine").sort("engine")  # the Python API
theirs

# %%
assert mine["engine"].to_list() == theirs["engine"].to_list()
for c in ("positions", "eval_pairs", "loss_moves"):
    assert mine[c].to_list() == theirs[c].to_list(), c
# evallab keeps every digit: the two agree to the floats' summation order.
for c in ("top1_share", "mean_abs_diff_pawns", "eval_corr", "mean_loss_cp", "mean_accuracy"):
    for a, b in zip(mine[c].to_list(), theirs[c].to_list()):
        assert (a is None and b is None) or abs(a - b) <= 1e-9 * max(1.0, abs(b)), (c, a, b)
print("evallab agreement == the polars-python re-derivation")

# %% [markdown]
# ## Archived eval against the reference
#
# Each point is one position: the playing engine's own eval (archive) against the
# reference's, White POV. On the diagonal they agree.

# %%
pairs = per.filter("both")
fig, ax = plt.subplots(figsize=(5, 5))
for engine, g in pairs.group_by("engine"):
    ax.scatter(g["x"], g["y"], s=8, label=engine[0])
ax.plot([-10, 10], [-10, 10], color="grey", lw=0.8)
lim = max(1.0, float(pairs.select(pl.max_horizontal(pl.col("x").abs().max(), pl.col("y").abs().max())).item() or 1))
ax.set_xlim(-lim, lim)
ax.set_ylim(-lim, lim)
ax.set_xlabel("archived eval (pawns)")
ax.set_ylabel(f"{run['engine']['name']}, {run['settings']['limit']} (pawns)")
ax.legend(fontsize=7)
plt.show()

# %% [markdown]
# ## Move symbols from the reference
#
# `evallab relevance --analysis sf-1k` (the demo's second relevance step) reads each
# move's symbol from the reference (§2.5's own reading): the reference's first choice,
# played, earns its margin over the second-best line, rr(second, best) ≥ 0; any other
# move what it loses against the best line, rr(best, played) ≤ 0 (relevance-reduced
# pawns, the mover's POV). Re-derived here from the `analysis` table.

# %%
LN2 = math.log(2)


def cumulative(x, x05):
    k = x05 / LN2
    return pl.when(x <= 0).then(k * (x / x05 * LN2).exp()).otherwise(2 * k - k * (-x / x05 * LN2).exp())


second = f.filter(pl.col("multipv") == 2).select("game_id", "ply", pl.col("stm").alias("second"))
if (root / "results/relevance_reference_moves.parquet").exists():  # as the demo pipeline wrote them
    ref_moves = pl.read_parquet(root / "results/relevance_reference_moves.parquet")
    relevance_archive = pl.read_csv(root / "results/relevance.csv")
    relevance_reference = pl.read_csv(root / "results/relevance_reference.csv")
else:
    # Another layout (the archive pipeline writes to `--set out=`): both relevance runs
    # through the API, their per-move tables into scratch files (without `moves_out`,
    # `relevance` would rewrite the dataset's `derived/relevance_moves.parquet`).
    import tempfile

    import evallab

    ds = evallab.Dataset(root)
    with tempfile.TemporaryDirectory() as scratch:
        relevance_reference = ds.relevance(analysis=LABEL, moves_out=f"{scratch}/moves.parquet")
        ref_moves = pl.read_parquet(f"{scratch}/moves.parquet")
        relevance_archive = ds.relevance(moves_out=f"{scratch}/archive_moves.parquet")
chk = (
    ref_moves.select("game_id", "ply", "engine", "x05", "ref_swing_rr")
    .join(per.select("game_id", "ply", "top1", "best", "played"), on=["game_id", "ply"], how="left")
    .join(second, on=["game_id", "ply"], how="left")
    .with_columns(
        a=pl.when("top1").then("second").otherwise("best") / 100,
        b=pl.when("top1").then("best").otherwise("played") / 100,
    )
    .with_columns(mine=cumulative(pl.col("b"), pl.col("x05")) - cumulative(pl.col("a"), pl.col("x05")))
)
assert chk["ref_swing_rr"].is_not_null().sum() > 0
assert (chk["ref_swing_rr"].is_null() == chk["mine"].is_null()).all()
assert (chk["ref_swing_rr"] - chk["mine"]).abs().max() < 1e-9
print(chk["ref_swing_rr"].is_not_null().sum(), "moves with a reference swing: evallab == re-derivation")
chk.filter(pl.col("ref_swing_rr").is_not_null()).sort("ref_swing_rr").head(5)

# %% [markdown]
# The symbol counts per engine, from the archive's evals and from the reference
# (only the analysed games' moves have a reference swing):

# %%
sym = [c for c in relevance_archive.columns if c.startswith("econ8_")]
analysed = relevance_reference["engine"]
pl.concat(
    [
        relevance_archive.filter(pl.col("engine").is_in(analysed.implode()))
        .select("engine", *sym)
        .with_columns(source=pl.lit("archive")),
        relevance_reference.select("engine", *sym).with_columns(source=pl.lit(LABEL)),
    ],
    how="vertical_relaxed",
).sort("engine", "source")

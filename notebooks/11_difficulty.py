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
# prices every position of every solution line (Stockfish at 20,000 nodes, MultiPV 5,
# every depth; Maia-1900), and writes the line features per puzzle, their rank
# correlations with the rating, the model families' nested cross-validation, the
# chosen expected-rating model and its predictions (docs/guide/difficulty.md). This
# notebook re-derives the features of every puzzle with python-chess and polars, every
# correlation of the `all` group and of the themes with scipy, and the model's
# predictions from its JSON file (trees walked, ridge summed), and plots them.

# %% tags=["parameters"]
import os

DATASET = os.environ.get("EVALLAB_PUZZLES_DATASET", "../puzzles-dataset")
ANALYSIS, POLICY = "sf20k5", "maia-1900"

# %%
import json
import math
from pathlib import Path

import chess
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

# %% [markdown]
# ## The board features, with python-chess
#
# Each puzzle is replayed from its FEN: the solver's first position is the one after
# the opponent's first move, the solver moves at the odd indices of `Moves`. Counted
# per solver move: its legal moves, whether it captures, checks, mates or promotes,
# and the opponent's legal replies (those after the last move end the line and do not
# count). Material in pawns (1/3/3/5/9), both sides, at the first solver position.

# %%
VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


def board_features(fen: str | None, moves: list[str]) -> dict:
    b = chess.Board(fen) if fen else chess.Board()
    first = chess.Move.from_uci(moves[0])
    after_capture = b.is_capture(first)
    b.push(first)
    me = b.turn

    def mat(color, pawns=True):
        return sum(v * len(b.pieces(p, color)) for p, v in VALUE.items() if pawns or p != chess.PAWN)

    f = {
        "after_capture": float(after_capture),
        "material": mat(me) + mat(not me),
        "pieces": mat(me, False) + mat(not me, False),
        "material_edge": mat(me) - mat(not me),
    }
    steps = []
    for i, u in enumerate(moves[1:]):
        m = chess.Move.from_uci(u)
        if i % 2 == 0:
            legal, cap, promo = b.legal_moves.count(), b.is_capture(m), m.promotion is not None
            b.push(m)
            steps.append(dict(legal=legal, cap=cap, promo=promo, check=b.is_check(), mate=b.is_checkmate(),
                              replies=b.legal_moves.count()))
        else:
            b.push(m)
    inner = [s["replies"] for s in steps[:-1]]
    f |= {
        "solver_moves": len(steps),
        "quiet_moves": sum(not (s["cap"] or s["check"] or s["promo"]) for s in steps),
        "solver_checks": sum(s["check"] for s in steps),
        "solver_captures": sum(s["cap"] for s in steps),
        "ends_in_mate": float(steps[-1]["mate"]),
        "legal_first": steps[0]["legal"],
        "legal_mean": sum(s["legal"] for s in steps) / len(steps),
        "replies_mean": sum(inner) / len(inner) if inner else None,
        "replies_min": min(inner) if inner else None,
    }
    return f


if HAVE:
    puzzles = pl.read_csv(results / "difficulty_puzzles.csv")
    games = pl.read_parquet(parts(root, "games")).select("game_id", "start_fen")
    moves = (
        pl.read_parquet(parts(root, "moves")).sort("game_id", "ply")
        .group_by("game_id", maintain_order=True).agg("uci")
    )
    lines = puzzles.select("game_id").join(games, on="game_id").join(moves, on="game_id")
    mine = pl.DataFrame(
        [{"game_id": g, **board_features(f, u)} for g, f, u in lines.iter_rows()]
    )
    cmp = puzzles.join(mine, on="game_id", suffix="_py")
    board = [c for c in mine.columns if c != "game_id"]
    for c in board:
        a, b = cmp[c].cast(pl.Float64), cmp[f"{c}_py"].cast(pl.Float64)
        assert ((a - b).abs().fill_null(0) < 1e-9).all() and (a.is_null() == b.is_null()).all(), c
    print(f"{len(board)} board features of {cmp.height} puzzles re-derived with python-chess: equal")

# %% [markdown]
# ## The engine features, from the tables
#
# At every solver position (the positions before the even plies): the policy's prior
# of the solution move and its rank (1 + the moves priced higher), the line's
# surprisal −Σ ln max(prior, 10⁻⁴), and the depth to find: the first depth of the
# final run of depths whose MultiPV 1 move is the solution (the last depth + 1 when it
# never settles on it).

# %%
if HAVE:
    solution = pl.read_parquet(parts(root, "moves")).filter(pl.col("ply") % 2 == 0).select(
        "game_id", "ply", sol="uci"
    )
    pol = pl.read_parquet(parts(root, "policy")).filter(pl.col("label") == POLICY)
    pr = (
        pol.join(solution, on=["game_id", "ply"])
        .group_by("game_id", "ply")
        .agg(
            prior=pl.col("prior").filter(pl.col("move") == pl.col("sol")).first(),
            rank=1 + (pl.col("prior") > pl.col("prior").filter(pl.col("move") == pl.col("sol")).first()).sum(),
        )
    )
    best = (
        pl.read_parquet(parts(root, "analysis"))
        .filter((pl.col("label") == ANALYSIS) & (pl.col("multipv") == 1))
        .with_row_index("row")
        .sort("game_id", "ply", "depth", "row")
        .group_by("game_id", "ply", "depth", maintain_order=True).agg(pl.col("move").last())
        .join(solution, on=["game_id", "ply"])
    )

    def depth_to_find(depths, moves, sol):
        found = None
        for d, m in zip(reversed(depths), reversed(moves)):
            if m != sol:
                break
            found = d
        return float(found) if found is not None else float(depths[-1] + 1)

    dtf = best.group_by("game_id", "ply").agg("depth", "move", pl.col("sol").first()).with_columns(
        dtf=pl.struct("depth", "move", "sol").map_elements(
            lambda r: depth_to_find(r["depth"], r["move"], r["sol"]), return_dtype=pl.Float64
        )
    )
    eng = (
        pr.join(dtf.select("game_id", "ply", "dtf"), on=["game_id", "ply"])
        .group_by("game_id")
        .agg(
            prior_first=pl.col("prior").sort_by("ply").first(),
            prior_min=pl.col("prior").min(),
            surprisal=(-pl.col("prior").clip(1e-4).log()).sum(),
            rank_max=pl.col("rank").max().cast(pl.Float64),
            depth_first=pl.col("dtf").sort_by("ply").first(),
            depth_sum=pl.col("dtf").sum(),
        )
    )
    cmp = puzzles.join(eng, on="game_id", suffix="_py")
    for c in ["prior_first", "prior_min", "surprisal", "rank_max", "depth_first", "depth_sum"]:
        assert ((cmp[c] - cmp[f"{c}_py"]).abs() < 1e-9).all(), c
    print(f"6 engine features of {cmp.height} puzzles re-derived from the tables: equal")

# %% [markdown]
# ## The correlations, with scipy
#
# Spearman's rho and Kendall's tau-b of each feature with the rating, over the puzzles
# with the feature: all of them, then each theme with at least 30 puzzles. The
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
        checked += 1
    print(f"{checked} correlations re-derived with scipy: equal")
    print(table.filter(pl.col("theme") == "all").select("measure", "n", "rho", "rho_lo", "rho_hi").sort("rho"))

# %% [markdown]
# ## The model's predictions, from its file
#
# `gbt`: the base plus, per tree, the leaf the row reaches (left when the value is
# below the threshold, a missing value where the split's `m` says); `ridge`: the
# intercept plus Σ coefficient · (value − mean)/sd, a missing value at the mean;
# `linear-ranks` and `isotonic` as in docs/definitions/difficulty.md. Checked against
# `difficulty --predict` on the training puzzles, and its nested cross-validated
# scores against the out-of-fold breakdown by band.

# %%
if HAVE:
    model = json.loads((results / "puzzle-rating.json").read_text())
    print({k: model[k] for k in ("features", "kind", "training_puzzles", "coverage")})
    print(model["cv"])

    def leaf(tree, x):
        # A split is {f: feature, t: threshold, m: missing goes left, l, r: children}, a leaf {v}.
        i = 0
        while "v" not in tree[i]:
            n = tree[i]
            v = x[n["f"]]
            left = n["m"] if v is None or math.isnan(v) else v < n["t"]
            i = n["l"] if left else n["r"]
        return tree[i]["v"]

    def predict(x):
        k = model["kind"]
        if k == "gbt":
            acc = model["booster"]["base"]
            for t in model["booster"]["trees"]:
                acc += leaf(t, x)
            return acc
        if k == "ridge":
            return model["intercept"] + sum(
                0.0 if v is None else b * (v - m) / s
                for v, m, s, b in zip(x, model["mean"], model["sd"], model["coefficients"])
            )
        if any(v is None for v in x):
            return None
        if k == "isotonic":
            i = np.searchsorted(np.array(model["x"]), x[0], side="right")
            return model["y"][max(i - 1, 0)]
        return model["intercept"] + sum(
            b * np.interp(v, *np.array(cdf).T) for v, cdf, b in zip(x, model["cdf"], model["coefficients"])
        )

    feats = [f for f in model["features"] if not f.startswith("theme:")]
    assert feats == model["features"], "a themes model: this notebook re-derives the line features only"
    xs = puzzles.filter(pl.col("reason").is_null()).select("puzzle_id", "rating", *feats)
    mine = pl.DataFrame(
        {"puzzle_id": xs["puzzle_id"], "mine": [predict(list(r[2:])) for r in xs.iter_rows()]}
    )
    pred = pl.read_csv(results / "predictions.csv").join(mine, on="puzzle_id")
    assert ((pred["mine"] - pred["expected_rating"]).abs() < 1e-6).all()
    print(f"{pred.height} predictions re-derived from the model file: equal")
    bands = pl.read_csv(results / "difficulty_bands.csv")
    print(bands)
    # The breakdown's `all` row is the nested cross-validation's whole choice.
    models = pl.read_csv(results / "difficulty_models.csv")
    sel = models.filter(pl.col("kind") == "selected").row(0, named=True)
    assert abs(bands.filter(pl.col("group") == "all")["mae"][0] - sel["cv_mae"]) < 1e-6
    print(models.select("kind", "n", "cv_rho", "cv_mae", "cv_rmse", "cv_rmse_settled", "rmse_over_sd_settled"))

# %% [markdown]
# ## Predictions against ratings
#
# Left: the out-of-fold predictions' spread per rating band (mean and 10th–90th
# percentile of the expected rating against the band's mean rating; a model that only
# shrinks toward the mean would lie flat). Right: the rating against each puzzle's
# in-sample prediction.

# %%
if HAVE:
    b = bands.filter(pl.col("group") != "all")
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 5))
    a1.errorbar(b["rating_mean"], b["expected_mean"],
                yerr=[b["expected_mean"] - b["expected_p10"], b["expected_p90"] - b["expected_mean"]], fmt="o")
    lim = [b["rating_mean"].min(), b["rating_mean"].max()]
    a1.plot(lim, lim, color="grey", lw=1)
    a1.set_xlabel("band's mean rating")
    a1.set_ylabel("expected rating (out of fold)")
    a2.scatter(pred["expected_rating"], pred["rating"], s=3, alpha=0.3)
    a2.plot(lim, lim, color="grey", lw=1)
    a2.set_xlabel("expected rating (model, in sample)")
    a2.set_ylabel("puzzle rating")
    fig.tight_layout()
    plt.show()

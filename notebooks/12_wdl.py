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
# # 12 · Stockfish's WDL model, re-derived
#
# `evallab wdl` fits the eval → win/draw/loss model of Stockfish's public tool
# `official-stockfish/WDL_model`: `scoreWDLstat` counts (outcome, move, material, eval)
# keys in a PGN, `scoreWDL.py` fits win(x) = 1 / (1 + exp(−(x − a(m)) / b(m))),
# loss(x) = win(−x), with a(m), b(m) cubic in m / 58. This notebook re-derives both
# halves independently, in polars-python and numpy/scipy (nothing imported from
# WDL_model), and asserts that evallab's numbers agree
# (docs/definitions/wdl.md):
#
# - **W1–W4, the counts**: the games with a result 1-0, 0-1 or 1/2-1/2 whose
#   `Termination` is not one of scoreWDLstat's five bad ones; their non-book moves
#   with a `cp` or `mate` eval up to full move 200; per move the outcome from the
#   mover's side, the full-move number, the material 9Q+5R+3B+3N+P (both sides) of
#   the position *before* the move, and the eval key: the mover's eval read as the
#   tool reads `+0.30` (a 32-bit float, times 100 in 32-bit floats, truncated toward
#   zero), clamped to ±1000 and rounded half away from zero to a multiple of 5; a
#   mate is ±1001. The counts are asserted equal, key for key, to the JSON that
#   `wdl --counts-json` writes for `scoreWDL.py`.
# - **W5–W6, the fits**: the window (move 1–120, material 17–78, |eval| ≤ 400);
#   per material with at least 10 wins, `curve_fit` of win(x) to the observed win
#   densities from (a, b) = (100, 100/6); then `fitDensity`, a least-squares cubic
#   through those a(m) and b(m); and `optimizeProbability`, each local fit refined
#   and then the 8 coefficients, minimising −(1/N) Σ ln P(outcome) with scipy's
#   Powell (`maxiter` 100 000, `xtol` 1e-6), as `scoreWDL.py` calls it. p_a(m) and
#   p_b(m) are asserted within 1 cp of evallab's for m = 17..78, and evallab's
#   objective equal to the notebook's at evallab's coefficients.
#
# a(m) is the eval at which half of the positions are won, so a(m)/100 is the
# seed's x_0_5 in pawns as a function of the material on the board (notebook 02
# fits a single one per engine).

# %% tags=["parameters"]
import os

DATASET = os.environ.get("EVALLAB_DATASET", "../demo-dataset")

# %%
import json
import tempfile
import time
import warnings
from pathlib import Path

from IPython.display import display
import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from scipy.optimize import OptimizeWarning, curve_fit, minimize

import evallab  # the binary and its API (pip install .)

pl.Config.set_tbl_rows(30)
pl.Config.set_tbl_cols(20)
pl.Config.set_fmt_str_lengths(60)

ds = evallab.Dataset(DATASET)
# A scratch folder for the command's side files, removed at the end.
scratch_dir = tempfile.TemporaryDirectory(prefix="evallab-12-")
scratch = Path(scratch_dir.name)

BAD_TERMINATIONS = ["time forfeit", "abandoned", "stalled connection", "illegal move", "unterminated"]
MOVE_LIMIT = 200  # scoreWDLstat counts no move after full move 200
CLAMP, MATE_KEY, BIN = 1000, 1001, 5
# scoreWDL.py's defaults: the fit's window, --winMin and --momTarget.
MOVES, MATERIALS, EVAL_MAX, WIN_MIN, TARGET = (1, 120), (17, 78), 400, 10, 58

# %% [markdown]
# ## The counts (W1–W4)
#
# The games scoreWDLstat reads: a decisive or drawn result and a termination that is
# not one of the five bad ones (compared exactly; no `Termination` tag is fine). The
# material of the start position is 78, or counted from `start_fen`'s board.

# %%
t0 = time.perf_counter()
board = pl.col("start_fen").str.extract(r"^(\S+)", 1)


def pieces(letters: str) -> pl.Expr:
    return board.str.count_matches(f"[{letters}]")


games = (
    ds.scan("games")
    .filter(
        pl.col("result").is_in(["1-0", "0-1", "1/2-1/2"])
        & (pl.col("termination").is_null() | ~pl.col("termination").is_in(BAD_TERMINATIONS))
    )
    .select(
        "game_id",
        "white",
        "black",
        "result",
        pl.when(pl.col("start_fen").is_null())
        .then(78)
        .otherwise(9 * pieces("Qq") + 5 * pieces("Rr") + 3 * pieces("BbNn") + pieces("Pp"))
        .cast(pl.Int64)
        .alias("start_material"),
    )
)

# %% [markdown]
# The `moves` table has each side's piece counts *after* the move; the material
# before a move is the previous ply's (ply 1: the start position's). Then the moves
# scoreWDLstat counts: not book, an eval (`cp` or `mate`; placeholders and absurd
# values are not evals), full move ≤ 200.

# %%
def both(piece: str) -> pl.Expr:
    return pl.col(f"white_{piece}").cast(pl.Int64) + pl.col(f"black_{piece}").cast(pl.Int64)


after = 9 * both("queens") + 5 * both("rooks") + 3 * both("bishops") + 3 * both("knights") + both("pawns")
positions = (
    ds.scan("moves")
    .sort("game_id", "ply")
    .with_columns(after.shift(1).over("game_id").alias("material_prev"))
    .filter(~pl.col("is_book") & pl.col("eval_kind").is_in(["cp", "mate"]) & (pl.col("move_number") <= MOVE_LIMIT))
    .join(games, on="game_id")
    .select(
        "game_id",
        pl.when(pl.col("side") == "w").then("white").otherwise("black").alias("engine"),
        pl.when(pl.col("result") == "1/2-1/2")
        .then(pl.lit("D"))
        .when((pl.col("result") == "1-0") == (pl.col("side") == "w"))
        .then(pl.lit("W"))
        .otherwise(pl.lit("L"))
        .alias("outcome"),
        pl.col("move_number").cast(pl.Int64).alias("move"),
        pl.when(pl.col("ply") == 1).then("start_material").otherwise("material_prev").alias("material"),
        (pl.col("side") == "w").alias("white_moved"),
        "eval_kind",
        "eval_cp",
        "mate",
    )
    .collect()
)
assert positions["material"].null_count() == 0
print(f"{positions.height} positions counted, from {positions['game_id'].n_unique()} games")

# %% [markdown]
# The eval key. The mover's eval in centipawns (`eval_cp` is White's point of view)
# is what the tool reads as text like `-9.98`: parsed as a 32-bit float, times 100 in
# 32-bit floats, truncated toward zero (−9.98 → −997.99994 → −997), clamped to ±1000,
# then `round(eval / 5.0f) * 5`, half away from zero. `eval_key` reproduces the float
# steps with numpy's float32; the tool's own parser (`fast_stof`: the digits as an
# integer, divided by 10^decimals in float32) is checked to give the same float for
# every value in the data. A mate is +1001 when the mover mates.

# %%
white = positions["white_moved"].to_numpy()
cp = positions["eval_cp"].to_numpy().astype(float)  # null (mates) → nan
own = np.where(white, cp, -cp)
is_cp = (positions["eval_kind"] == "cp").to_numpy()


def eval_key(own_cp: np.ndarray) -> np.ndarray:
    """scoreWDLstat's key of the mover's eval in centipawns (integers)."""
    as_read = np.float32(own_cp / 100)
    truncated = np.clip(np.trunc(as_read * np.float32(100)).astype(np.int64), -CLAMP, CLAMP)
    return np.sign(truncated) * np.floor(np.abs(truncated) / BIN + 0.5).astype(np.int64) * BIN


own_cp = own[is_cp].astype(np.int64)
quotient = np.float32(np.abs(own_cp)) / np.float32(100)  # fast_stof: 998.0f / 100.0f
assert np.array_equal(np.float32(own_cp / 100), np.where(own_cp < 0, -quotient, quotient))
assert eval_key(np.array([-998, -997, -3, -2, 2, 3, 5000, -5000])).tolist() == [-995, -995, -5, 0, 0, 5, 1000, -1000]

key = np.zeros(len(own), dtype=np.int64)
key[is_cp] = eval_key(own_cp)
mover_mates = (positions["mate"].to_numpy().astype(float) >= 0) == white
key[~is_cp] = np.where(mover_mates[~is_cp], MATE_KEY, -MATE_KEY)
positions = positions.with_columns(pl.Series("eval", key))

counts = positions.group_by("outcome", "move", "material", "eval").agg(pl.len().alias("count"))
ours = {f"('{o}', {m}, {mat}, {e})": n for o, m, mat, e, n in counts.iter_rows()}

# %% [markdown]
# ### Compare with `wdl --counts-json`
#
# The JSON evallab writes for `scoreWDL.py` (the same format as scoreWDLstat's) must
# hold exactly these keys with these counts. The default fit (optimizeProbability)
# runs with it; its row also gives the totals.

# %%
counts_file = scratch / "counts.json"
default = ds.wdl(counts_json=counts_file)
theirs = json.loads(counts_file.read_text())
only_ours = sorted(set(ours) - set(theirs))
only_theirs = sorted(set(theirs) - set(ours))
differ = sorted(k for k in set(ours) & set(theirs) if ours[k] != theirs[k])
assert not (only_ours or only_theirs or differ), (
    f"{len(only_ours)} keys only here, e.g. {only_ours[:5]}; {len(only_theirs)} only in evallab's, "
    f"e.g. {only_theirs[:5]}; {len(differ)} counted differently, e.g. {[(k, ours[k], theirs[k]) for k in differ[:5]]}"
)
print(f"counts: {len(ours)} keys, {sum(ours.values())} positions, equal to evallab's JSON")

# %%
in_window = (
    pl.col("move").is_between(*MOVES) & pl.col("material").is_between(*MATERIALS) & (pl.col("eval").abs() <= EVAL_MAX)
)


def totals(df: pl.DataFrame) -> dict:
    w = df.filter(in_window)
    return {
        "games": df["game_id"].n_unique(),
        "positions_counted": df.height,
        "positions": w.height,
        **{name: (w["outcome"] == o).sum() for name, o in (("wins", "W"), ("draws", "D"), ("losses", "L"))},
    }


mine = totals(positions)
row = default.row(0, named=True)
assert {k: row[k] for k in mine} == mine, (mine, {k: row[k] for k in mine})
print("totals equal:", mine, f"({time.perf_counter() - t0:.1f} s)")

# %% [markdown]
# ## The fits (W5–W6), as `scoreWDL.py` does them
#
# The window's counts as three arrays (wins, draws, losses) indexed by
# (material − 17, eval + 400).

# %%
mats = np.arange(MATERIALS[0], MATERIALS[1] + 1)
evals = np.arange(-EVAL_MAX, EVAL_MAX + 1)
grid = {o: np.zeros((len(mats), len(evals))) for o in "WDL"}
cells = counts.filter(in_window).group_by("outcome", "material", "eval").agg(pl.col("count").sum())
for o in "WDL":
    c = cells.filter(pl.col("outcome") == o)
    np.add.at(grid[o], (c["material"].to_numpy() - MATERIALS[0], c["eval"].to_numpy() + EVAL_MAX), c["count"].to_numpy())
W, D, L = grid["W"], grid["D"], grid["L"]
N = W + D + L


def win_rate(x, a, b):
    """1 / (1 + exp(−(x − a) / b)), b floored at 1e-8 as the reference does, without overflow."""
    z = (x - a) / np.maximum(b, 1e-8)
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, 1 / (1 + e), e / (1 + e))


def poly3(y, c3, c2, c1, c0):
    return ((c3 * y + c2) * y + c1) * y + c0


def neg_log_prob(rows, a, b):
    """−(1/N) Σ ln P(outcome) over the materials `rows`; a, b per row (broadcast over evals)."""
    x = evals[None, :]
    w, l = win_rate(x, a, b), win_rate(-x, a, b)
    floor = lambda p: np.log(np.maximum(p, 1e-14))  # noqa: E731
    s = W[rows] * floor(w) + D[rows] * floor(1 - w - l) + L[rows] * floor(l)
    return -s.sum() / N[rows].sum()


def local_fits(method: str):
    """fit_abs_locally: per material with ≥ 10 wins, curve_fit to the win densities, then refine."""
    out = []
    for i, m in enumerate(mats):
        if W[i].sum() < WIN_MIN:
            continue
        seen = N[i] > 0
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", OptimizeWarning)
            (a, b), _ = curve_fit(win_rate, evals[seen], W[i, seen] / N[i, seen], p0=[100, 100 / 6])
        if method == "optimizeProbability":
            res = minimize(lambda ab: neg_log_prob([i], ab[0], ab[1]), [a, b], method="Powell",
                           options={"maxiter": 100000, "xtol": 1e-6})  # fmt: skip
            a, b = res.x
        out.append((m, a, b, bool(caught)))
    return pl.DataFrame(out, schema=["material", "a", "b", "cov_warning"], orient="row")


def fit(method: str):
    """fit_ab_globally: the cubics through the local fits; optimizeProbability then refines all 8."""
    local = local_fits(method)
    y = local["material"].to_numpy() / TARGET
    ca, _ = curve_fit(poly3, y, local["a"].to_numpy())
    cb, _ = curve_fit(poly3, y, local["b"].to_numpy())
    coeffs = np.concatenate([ca, cb])
    if method == "optimizeProbability":
        ym = (mats / TARGET)[:, None]
        objective = lambda c: neg_log_prob(slice(None), poly3(ym, *c[:4]), poly3(ym, *c[4:]))  # noqa: E731
        coeffs = minimize(objective, coeffs, method="Powell", options={"maxiter": 100000, "xtol": 1e-6}).x
    return local, coeffs


def objective_at(coeffs) -> float:
    ym = (mats / TARGET)[:, None]
    return neg_log_prob(slice(None), poly3(ym, *coeffs[:4]), poly3(ym, *coeffs[4:]))


print(f"window: (W, D, L) = ({W.sum():.0f}, {D.sum():.0f}, {L.sum():.0f}); "
      f"{int((W.sum(axis=1) >= WIN_MIN).sum())} materials with ≥ {WIN_MIN} wins")  # fmt: skip

# %% [markdown]
# ### Compare with `evallab wdl --fitting …`
#
# evallab's frame gives the coefficients highest power first, as WDL_model prints
# them: p(m) = ((as0·y + as1)·y + as2)·y + as3 with y = m/58. A group evallab cannot
# fit has a `reason` instead; that comparison is then skipped, loudly.
#
# The local fits' **step-like** materials are listed before the comparison: where a
# material's win densities jump from 0 to 1 between two eval bins, the least squares
# is flat in a between those bins and b goes to 0 (or below: the reference floors it
# at 1e-8), so the cubics depend on where the solver stops there. `cov_warning` is
# scipy's "covariance could not be estimated".

# %%
METHODS = ["fitDensity", "optimizeProbability"]
evallab_fits = {m: ds.wdl(fitting=m) for m in METHODS}
local, coeffs, checked = {}, {}, []
for method in METHODS:
    t = time.perf_counter()
    local[method], coeffs[method] = fit(method)
    print(f"{method}: fitted here in {time.perf_counter() - t:.1f} s")
step_like = local["fitDensity"].filter((pl.col("b") < 1) | pl.col("cov_warning"))
print(f"{step_like.height} step-like local density fits (b < 1 cp or no covariance):")
display(step_like)

rows = []
for method in METHODS:
    r = evallab_fits[method].row(0, named=True)
    if r["reason"] is not None:
        print(f"!!! SKIPPED: evallab has no {method} fit on this dataset: {r['reason']}")
        continue
    ea, eb = [r[f"as{i}"] for i in range(4)], [r[f"bs{i}"] for i in range(4)]
    ca, cb = coeffs[method][:4], coeffs[method][4:]
    y = mats / TARGET
    rows.append(
        {
            "fitting": method,
            "materials_fitted": local[method].height,
            "max_abs_diff_a": float(np.abs(poly3(y, *ca) - poly3(y, *ea)).max()),
            "at_material_a": int(mats[np.abs(poly3(y, *ca) - poly3(y, *ea)).argmax()]),
            "max_abs_diff_b": float(np.abs(poly3(y, *cb) - poly3(y, *eb)).max()),
            "at_material_b": int(mats[np.abs(poly3(y, *cb) - poly3(y, *eb)).argmax()]),
            "a_target": poly3(1.0, *ca),
            "a_target_evallab": r["a_target"],
            "b_target": poly3(1.0, *cb),
            "b_target_evallab": r["b_target"],
            "objective_here_at_evallab": objective_at(np.array(ea + eb)) if method != "fitDensity" else 0.0,
            "objective_evallab": r["objective"],
        }
    )
    checked.append(method)
cmp = pl.DataFrame(rows)
display(cmp.with_columns(pl.selectors.float().round(4)))

# %% [markdown]
# The objective is a function of the coefficients alone, so evallab's reported value
# must equal the notebook's at evallab's coefficients, whatever path either solver
# took; then p_a(m), p_b(m) within 1 cp.

# %%
for r in cmp.iter_rows(named=True):
    assert abs(r["objective_here_at_evallab"] - r["objective_evallab"]) <= 1e-9, r
for r in cmp.iter_rows(named=True):
    assert r["max_abs_diff_a"] <= 1 and r["max_abs_diff_b"] <= 1, (
        f"{r['fitting']}: p_a differs by {r['max_abs_diff_a']:.3f} cp (material {r['at_material_a']}), "
        f"p_b by {r['max_abs_diff_b']:.3f} cp (material {r['at_material_b']}); "
        f"the cubics move with where a local fit stops at a step-like material; here (material, a, b): "
        f"{step_like.select('material', 'a', 'b').rows()}"
    )
print(f"p_a(m), p_b(m) within 1 cp of evallab's for m = {MATERIALS[0]}..{MATERIALS[1]}: {', '.join(checked)}")

# %% [markdown]
# ## Observed rates and the model
#
# The observed win and draw rates by eval (25-cp bins) in three material bands, with
# the optimizeProbability model (evallab's coefficients) at each band's middle
# material; then a(m)/100, x05 in pawns as a function of the material, and b(m)/100,
# with the notebook's local fits as dots.

# %%
method = "optimizeProbability" if "optimizeProbability" in checked else (checked[0] if checked else None)
BANDS = [(17, 29), (30, 49), (50, 78)]
COLOURS = ["#D55E00", "#009E73", "#0072B2"]
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 4.6))
xs = np.linspace(-EVAL_MAX, EVAL_MAX, 400)
r = evallab_fits[method].row(0, named=True) if method else None
for (lo, hi), colour in zip(BANDS, COLOURS):
    band = slice(lo - MATERIALS[0], hi - MATERIALS[0] + 1)
    # 25-cp bins (five keys each: −400..−380, …, 375..395; the key 400 left out)
    w25, d25, n25 = (g[band, :-1].sum(axis=0).reshape(-1, 25).sum(axis=1) for g in (W, D, N))
    centre = evals[:-1:25] + 10
    seen = n25 >= 20
    ax1.plot(centre[seen], w25[seen] / n25[seen], "o", color=colour, ms=4, label=f"wins, material {lo}–{hi}")
    ax1.plot(centre[seen], d25[seen] / n25[seen], "s", color=colour, ms=4, mfc="none", label=f"draws, {lo}–{hi}")
    if r:
        m = (lo + hi) / 2
        a, b = poly3(m / TARGET, *[r[f"as{i}"] for i in range(4)]), poly3(m / TARGET, *[r[f"bs{i}"] for i in range(4)])
        w, l = win_rate(xs, a, b), win_rate(-xs, a, b)
        ax1.plot(xs, w, color=colour, lw=1.5)
        ax1.plot(xs, 1 - w - l, color=colour, lw=1.5, ls="--")
ax1.set_xlabel("eval of the side to move (cp)")
ax1.set_ylabel("rate")
ax1.set_title(f"win (solid) and draw (dashed) rate; model: {method}")
ax1.legend(fontsize=7)

y = mats / TARGET
for method_, colour in zip(METHODS, ["#999999", "#0072B2"]):
    if method_ not in checked:
        continue
    r_ = evallab_fits[method_].row(0, named=True)
    ax2.plot(mats, poly3(y, *[r_[f"as{i}"] for i in range(4)]) / 100, color=colour, label=f"a(m)/100, {method_}")
    ax2.plot(mats, poly3(y, *[r_[f"bs{i}"] for i in range(4)]) / 100, color=colour, ls="--", label=f"b(m)/100, {method_}")
    lf = local[method_]
    ax2.plot(lf["material"], lf["a"] / 100, "o", color=colour, ms=3, alpha=0.6)
    ax2.plot(lf["material"], lf["b"] / 100, "x", color=colour, ms=3, alpha=0.6)
ax2.set_ylim(0, None)
ax2.set_xlabel("material (9Q+5R+3B+3N+P, both sides)")
ax2.set_ylabel("pawns")
ax2.set_title("x05 = a(m)/100 and b(m)/100; local fits as dots (a) and crosses (b)")
ax2.legend(fontsize=7)
fig.tight_layout()
plt.show()

# %% [markdown]
# ## Per engine
#
# `--by engine` fits each engine on its own moves (the tool's `--matchEngine`);
# a group with fewer than 1,000 positions in the window, or fewer than 4 materials
# with a local fit, has a `reason` instead of coefficients. Its counted positions are
# asserted equal to the notebook's per mover.

# %%
t = time.perf_counter()
per_engine = ds.wdl(by="engine")
print(f"wdl --by engine: {per_engine.height} engines in {time.perf_counter() - t:.1f} s, "
      f"{per_engine['reason'].is_null().sum()} fitted")  # fmt: skip
mine = {e: totals(df) for (e,), df in positions.group_by("engine")}
assert per_engine.height == len(mine)
for r in per_engine.iter_rows(named=True):
    assert {k: r[k] for k in mine[r["engine"]]} == mine[r["engine"]], (r["engine"], mine[r["engine"]])
display(
    per_engine.sort("positions", descending=True)
    .head(20)
    .select("engine", "games", "positions", "wins", "draws", "losses", "a_target", "b_target", "x05_target",
            "draw_rate_0", "reason")  # fmt: skip
)

# %% [markdown]
# ### Leaning on the pool (W8a)
#
# Each engine's fit above counts the pool as `prior_positions` (10,000, at most the
# pool's own) positions beside its own: it minimises the engine's objective, summed
# over its positions, plus ½ (c − ĉ)ᵀ K·H (c − ĉ), with ĉ the pooled fit's
# coefficients (the default fit above) and H the pooled objective's Hessian per
# position at ĉ. Re-derived here: H by central differences of the notebook's own
# objective, the minimum by scipy's BFGS from ĉ polished by Newton steps on
# numerical derivatives, for the fitted engine with the
# fewest positions (where the prior weighs most); a(m) and b(m) asserted within 1 cp
# of evallab's. Beside it every engine alone (`prior_positions=0`).

# %%
def window_grid(df: pl.DataFrame):
    """The window's (wins, draws, losses) arrays of a positions frame, as the pool's above."""
    c = df.filter(in_window).group_by("outcome", "material", "eval").agg(pl.len().alias("count"))
    g = {o: np.zeros((len(mats), len(evals))) for o in "WDL"}
    for o in "WDL":
        x = c.filter(pl.col("outcome") == o)
        np.add.at(g[o], (x["material"].to_numpy() - MATERIALS[0], x["eval"].to_numpy() + EVAL_MAX), x["count"].to_numpy())
    return g["W"], g["D"], g["L"]


def summed_nll(grids, c) -> float:
    """−Σ ln P(outcome) over a grid's positions at coefficients c (not divided by N)."""
    Wg, Dg, Lg = grids
    ym = (mats / TARGET)[:, None]
    a, b = poly3(ym, *c[:4]), poly3(ym, *c[4:])
    w, l = win_rate(evals[None, :], a, b), win_rate(-evals[None, :], a, b)
    lg = lambda p: np.log(np.maximum(p, 1e-14))  # noqa: E731
    return -float((Wg * lg(w) + Dg * lg(1 - w - l) + Lg * lg(l)).sum())


def hessian(f, c, rel=3e-5):
    """Central second differences, step rel·max(|c_i|, 1): the cubics' coefficients are
    so collinear that the smallest curvatures are a millionth of the largest, and this
    step keeps both the truncation and the rounding below them (1e-3 moved a(m) by 7 cp)."""
    n, h = len(c), rel * np.maximum(np.abs(c), 1.0)
    H = np.zeros((n, n))
    for i in range(n):
        for j in range(i, n):
            ei, ej = np.eye(n)[i] * h[i], np.eye(n)[j] * h[j]
            H[i, j] = H[j, i] = (f(c + ei + ej) - f(c + ei - ej) - f(c - ei + ej) + f(c - ei - ej)) / (4 * h[i] * h[j])
    return H


def newton(f, c, steps=50):
    """Newton steps on numerical derivatives, each halved until it lowers f: the
    polish BFGS needs on coefficients this collinear."""
    for _ in range(steps):
        h = 1e-5 * np.maximum(np.abs(c), 1.0)
        g = np.array([(f(c + e) - f(c - e)) / (2 * e[i]) for i, e in enumerate(np.diag(h))])
        step, t = np.linalg.solve(hessian(f, c), -g), 1.0
        while f(c + t * step) > f(c) and t > 1e-8:
            t /= 2
        if t <= 1e-8:
            break
        c = c + t * step
        if np.all(np.abs(t * step) <= 1e-9 * np.maximum(np.abs(c), 1.0)):
            break
    return c


pooled_row = default.row(0, named=True)
fitted = per_engine.filter(pl.col("reason").is_null() & (pl.col("prior_positions") > 0))
if pooled_row["reason"] is not None or fitted.height == 0:
    print("!!! SKIPPED: no pooled fit, or no engine fitted with the prior, on this dataset")
else:
    c_hat = np.array([pooled_row[f"as{i}"] for i in range(4)] + [pooled_row[f"bs{i}"] for i in range(4)])
    pool = (W, D, L)
    n_pool = float(N.sum())
    r = fitted.sort("positions").row(0, named=True)
    K = min(10_000.0, n_pool)
    assert r["prior_positions"] == K, (r["prior_positions"], K)
    precision = K * hessian(lambda c: summed_nll(pool, c), c_hat) / n_pool
    own = window_grid(positions.filter(pl.col("engine") == r["engine"]))
    penalised = lambda c: summed_nll(own, c) + 0.5 * (c - c_hat) @ precision @ (c - c_hat)  # noqa: E731
    here = newton(penalised, minimize(penalised, c_hat, method="BFGS").x)
    theirs = np.array([r[f"as{i}"] for i in range(4)] + [r[f"bs{i}"] for i in range(4)])
    y = mats / TARGET
    diff_a = float(np.abs(poly3(y, *here[:4]) - poly3(y, *theirs[:4])).max())
    diff_b = float(np.abs(poly3(y, *here[4:]) - poly3(y, *theirs[4:])).max())
    print(f"{r['engine']}: {r['positions']} positions, own share {r['own_share']:.3f}; "
          f"a(58) here {poly3(1.0, *here[:4]):.2f}, evallab {r['a_target']:.2f}; "
          f"max |Δa| {diff_a:.4f} cp, max |Δb| {diff_b:.4f} cp over m = 17..78")  # fmt: skip
    assert diff_a <= 1 and diff_b <= 1, (diff_a, diff_b)
    alone = ds.wdl(by="engine", prior_positions=0)
    display(
        per_engine.select("engine", "positions", "own_share", pl.col("x05_target").alias("x05_with_prior"))
        .join(alone.select("engine", pl.col("x05_target").alias("x05_alone"), pl.col("reason").alias("alone_reason")),
              on="engine")  # fmt: skip
        .sort("positions", descending=True)
        .head(20)
    )

# %% [markdown]
# ## Validation (W10–W12), on TCEC-like data only
#
# `--validate` fits every model on the training events and scores it on the test
# events' positions against the game results. It needs events named by season
# ("Season N"); the demo has none, so there it is skipped.

# %%
TRAIN, TEST = r"Season ([1-9]|1[0-9]|20)\b", r"Season (2[1-9])\b"
events = ds.scan("games").select(pl.col("event").unique()).collect()["event"]
if not events.str.contains(TRAIN).any() or not events.str.contains(TEST).any():
    print("!!! SKIPPED: no 'Season N' events for --train/--test in this dataset")
else:
    t = time.perf_counter()
    val = ds.statistic_tables("wdl", validate=True, train=TRAIN, test=TEST)
    print(f"validation in {time.perf_counter() - t:.1f} s")
    display(
        val["wdl"]
        .filter(pl.col("positions") == "all")
        .select("model", "parameter", "test_positions", "test_games", "log_loss", "brier", "log_loss_vs_best_x05",
                "vs_best_lo", "vs_best_hi")  # fmt: skip
    )
    rel = val["reliability"]
    fig, ax = plt.subplots(figsize=(5.5, 5))
    for model in ["P(x), best single x05", "TCEC formula", "WDL model, pooled"]:
        d = rel.filter(pl.col("model") == model)
        ax.plot(d["predicted"], d["observed"], "o-", ms=4, label=model)
    ax.plot([0, 1], [0, 1], color="black", lw=0.6, ls=":")
    ax.set_xlabel("predicted score (decile mean)")
    ax.set_ylabel("observed score")
    ax.set_title("reliability on the test seasons")
    ax.legend(fontsize=8)
    fig.tight_layout()
    plt.show()

# %%
scratch_dir.cleanup()

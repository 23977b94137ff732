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
# # 02 · Recalibrating x_0_5 (win-draw balance) in polars
#
# `x_0_5` is the eval (pawns, the engine's own point of view) at which an engine's
# games split 50/50 between wins and draws-or-losses. `evallab calibrate` estimates
# it per engine in three ways; this notebook re-implements them in polars-python
# from the `games` and `moves` tables and checks the numbers against
# `evallab calibrate` (`--by engine`, the default) and, per event, against
# `evallab balance --by event,engine`, both run through the Python API.
#
# ## Definitions (README "Win-draw balance" and "Calibrating x_0_5", `metrics.md` §1)
#
# 1. **Own evals**: the engine's evals on its own non-book moves, in its own POV.
#    Placeholders and absurd values are not evals. A mate outranks every centipawn
#    value (and a shorter mate a longer one); evallab stores a mate in n for the
#    engine as 1 000 000 − n centipawns (prints as 9999.95 for mate in 5). Evals at or
#    beyond ±100 pawns (TCEC's tablebase plateaus, overflow values) are left out.
# 2. **Actual wins W** = official wins − hollow wins. A **hollow win** is an official
#    win whose winner's last own eval is exactly 0.00. A win without any own eval is
#    not hollow.
# 3. For every non-won game (draws, losses, hollow wins): the engine's maximum own
#    eval in that game (games without an own eval have none).
# 4. **Highest eval without win** = the largest of those maxima.
# 5. **Balance** (the **rank** estimate) = the W-th largest maximum; null when W = 0
#    or fewer non-won games have an own eval than W.
#
# - **threshold**: the lowest x among the games' maximum own evals such that
#   P(win | the engine's maximum own eval in the game ≥ x) ≥ 0.5 (hollow wins are
#   non-wins).
# - **ml**: the x05 maximising the likelihood of the game results (1, ½, 0, own POV;
#   hollow wins count ½) of every position with an own cp eval (mates left out) under
#   P(x) = 1 − 2^(−x/x05 − 1) for x > 0, 2^(x/x05 − 1) for x ≤ 0 (`metrics.md` §2.3),
#   each position a Bernoulli trial with a fractional outcome.
#
# The bootstrap intervals (`*_lo`, `*_hi`) are not reproduced here.

# %% tags=["parameters"]
import os

DATASET = os.environ.get("EVALLAB_DATASET", "../demo-dataset")

# %%
import math
import tempfile
import tomllib
from pathlib import Path

from IPython.display import display
import matplotlib.pyplot as plt
import numpy as np
import polars as pl

import evallab  # the binary and its API (pip install .)

pl.Config.set_tbl_rows(30)
pl.Config.set_tbl_cols(20)
pl.Config.set_fmt_str_lengths(50)

ds = evallab.Dataset(DATASET)
games = ds.scan("games")
moves = ds.scan("moves")

MATE_CP = 1_000_000  # own-eval scale of a mate: mate in n = ±(MATE_CP − n)
PLATEAU_CP = 10_000  # |cp| ≥ 100 pawns: not an eval for these statistics

# %% [markdown]
# ## Each game from each engine's side
#
# One row per (game, side): the engine that played that side and its score
# (1, ½, 0; `*` games are left out).

# %%
def side_view(side: str, me: str, other: str, win: str, loss: str) -> pl.LazyFrame:
    return games.select(
        "game_id",
        "event",
        "round",
        pl.col(me).alias("engine"),
        pl.col(other).alias("opponent"),
        pl.lit(side).alias("side"),
        pl.when(pl.col("result") == win)
        .then(1.0)
        .when(pl.col("result") == loss)
        .then(0.0)
        .when(pl.col("result") == "1/2-1/2")
        .then(0.5)
        .otherwise(None)
        .alias("score"),
    )


engine_games = pl.concat(
    [side_view("w", "white", "black", "1-0", "0-1"), side_view("b", "black", "white", "0-1", "1-0")]
).filter(pl.col("score").is_not_null())

# %% [markdown]
# ## Own evals
#
# `eval_cp` and `mate` are White POV; the mover's own POV flips Black's. Mates go on
# the own-eval scale above every centipawn value.

# %%
usable = ~pl.col("is_book") & (
    (pl.col("eval_kind") == "mate") | ((pl.col("eval_kind") == "cp") & (pl.col("eval_cp").abs() < PLATEAU_CP))
)
mate = pl.col("mate").cast(pl.Int64)
white_pov = (
    pl.when(mate.is_not_null())
    .then(pl.when(mate >= 0).then(MATE_CP - mate).otherwise(-MATE_CP - mate))
    .otherwise(pl.col("eval_cp").cast(pl.Int64))
)
own_evals = moves.filter(usable).select(
    "game_id",
    "side",
    "ply",
    pl.when(pl.col("side") == "w").then(white_pov).otherwise(-white_pov).alias("own_cp"),
)

per_game = own_evals.group_by("game_id", "side").agg(
    pl.col("own_cp").max().alias("max_own_cp"),
    pl.col("own_cp").sort_by("ply").last().alias("last_own_cp"),
)
facts = (
    engine_games.join(per_game, on=["game_id", "side"], how="left")
    .with_columns(hollow=((pl.col("score") == 1.0) & (pl.col("last_own_cp") == 0)).fill_null(False))
    .with_columns(won=(pl.col("score") == 1.0) & ~pl.col("hollow"))
    .collect()
)
facts.group_by("engine").agg(
    pl.len().alias("games"),
    (pl.col("score") == 1.0).sum().alias("official_wins"),
    pl.col("hollow").sum().alias("hollow_wins"),
    pl.col("won").sum().alias("W"),
    (~pl.col("won") & pl.col("max_own_cp").is_not_null()).sum().alias("non_won_with_eval"),
).sort("engine")

# %% [markdown]
# ## Rank (= the win-draw balance) and threshold, per group

# %%
def rank_x05(df: pl.DataFrame) -> float | None:
    """W-th largest maximum own eval over the non-won games (pawns)."""
    w = int(df["won"].sum())
    maxima = df.filter(~pl.col("won"))["max_own_cp"].drop_nulls().sort(descending=True)
    if w == 0 or maxima.len() < w:
        return None
    return maxima[w - 1] / 100


def highest_without_win(df: pl.DataFrame) -> float | None:
    m = df.filter(~pl.col("won"))["max_own_cp"].max()
    return None if m is None else m / 100


def threshold_x05(df: pl.DataFrame) -> float | None:
    """Lowest game maximum x with P(win | max ≥ x) ≥ 0.5 (pawns)."""
    at_or_above = (
        df.filter(pl.col("max_own_cp").is_not_null())
        .group_by("max_own_cp")
        .agg(pl.col("won").sum().alias("wins"), pl.len().alias("n"))
        .sort("max_own_cp", descending=True)
        .with_columns(pl.col("wins").cum_sum().alias("wins_ge"), pl.col("n").cum_sum().alias("n_ge"))
        .filter(2 * pl.col("wins_ge") >= pl.col("n_ge"))
    )
    return None if at_or_above.is_empty() else at_or_above["max_own_cp"].min() / 100


# %% [markdown]
# ## ML: maximum likelihood of P(x) over positions
#
# evallab bins the positions by centipawn value and maximises the log-likelihood over
# log x05 ∈ [ln 0.02, ln 50] by golden-section search; an optimum on the edge of that
# range is no estimate. The same here, in numpy.

# %%
def prob(x, x05):
    """P(x) of metrics.md §2.3 (White/own POV, pawns)."""
    x = np.asarray(x, dtype=float)
    # 2^(−|x|/x05 − 1) is both sides' power (x/x05 − 1 for x ≤ 0, −x/x05 − 1 for
    # x > 0), so no side is computed where it is not used (2^(x/x05 − 1) overflows
    # for a large x > 0).
    tail = 2.0 ** (-np.abs(x) / x05 - 1)
    return np.where(x <= 0, tail, 1 - tail)


positions = (
    own_evals.filter(pl.col("own_cp").abs() < MATE_CP // 2)
    .join(facts.lazy().select("game_id", "side", "engine", "score", "hollow"), on=["game_id", "side"])
    .with_columns(pl.when(pl.col("hollow")).then(0.5).otherwise(pl.col("score")).alias("result"))
    .collect()
)


def log_probs(x, x05):
    """ln P(x) and ln(1 - P), each probability within [1e-12, 1 - 1e-12]. The smaller
    of the two is 1/2 * 2^(-|x|/x05): its log is exact without np.log, the larger's
    is log1p of minus it (1 - P by subtraction keeps only ~7 digits of a confident
    eval's tail, and the likelihood then wiggles)."""
    small = np.maximum((-np.abs(x) / x05 - 1) * math.log(2), math.log(1e-12))
    large = np.log1p(-np.exp(small))
    return np.where(x <= 0, small, large), np.where(x <= 0, large, small)


def golden(f, a: float, b: float, tol: float = 1e-9) -> float:
    """The maximum of a unimodal f on [a, b], by golden-section search."""
    r = (math.sqrt(5) - 1) / 2
    c, d = b - r * (b - a), a + r * (b - a)
    fc, fd = f(c), f(d)
    while b - a > tol:
        if fc > fd:
            b, d, fd = d, c, fc
            c = b - r * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + r * (b - a)
            fd = f(d)
    return (a + b) / 2


def ml_x05(pos: pl.DataFrame) -> float | None:
    bins = pos.group_by("own_cp").agg(pl.len().alias("n"), pl.col("result").sum().alias("s"))
    if bins.is_empty():
        return None
    x = bins["own_cp"].to_numpy() / 100
    n = bins["n"].to_numpy().astype(float)
    s = bins["s"].to_numpy()

    def loglik(lx: float) -> float:
        ln_p, ln_q = log_probs(x, math.exp(lx))
        return float((s * ln_p + (n - s) * ln_q).sum())

    lo, hi = math.log(0.02), math.log(50)
    best = golden(loglik, lo, hi, 1e-7)
    # An optimum on the edge, or one that does not beat both edges (a likelihood
    # flat to rounding, e.g. only wins at positive evals), is no estimate; nor is
    # one from a single game (no error estimate: the games are the clusters).
    top = loglik(best)
    interior = lo + 1e-3 < best < hi - 1e-3 and top > max(loglik(lo), loglik(hi)) + 1e-9 * max(abs(top), 1.0)
    if not interior or pos["game_id"].n_unique() < 2:
        return None
    return math.exp(best)


def sandwich(pos: pl.DataFrame, x05: float) -> tuple[float, float]:
    """Sandwich standard error of ln x05, games as clusters (README, "Honest errors"),
    and the design effect V·H (the sandwich variance over the positions' own)."""
    x = pos["own_cp"].to_numpy() / 100
    s = pos["result"].to_numpy()
    p = prob(x, x05)
    u = x * math.log(2) / x05
    slope = np.where(x <= 0, -u * p, -u * (1 - p))
    p = np.clip(p, 1e-12, 1 - 1e-12)
    v = p * (1 - p)
    per_game = (
        pl.DataFrame({"game_id": pos["game_id"], "score": (s - p) * slope / v})
        .group_by("game_id")
        .agg(pl.col("score").sum())["score"]
        .to_numpy()
    )
    n = len(per_game)
    info = float((slope * slope / v).sum())
    var = n / (n - 1) * float((per_game**2).sum()) / info**2
    return math.sqrt(var), var * info


def rank_identified(df: pl.DataFrame) -> float | None:
    """calibrate's rank: the balance, when it is positive."""
    v = rank_x05(df)
    return v if v is not None and v > 0 else None


def threshold_identified(df: pl.DataFrame) -> float | None:
    """calibrate's threshold: needs a won and a non-won game with an eval, and a positive value."""
    with_max = df.filter(pl.col("max_own_cp").is_not_null())
    if with_max.filter(pl.col("won")).is_empty() or with_max.filter(~pl.col("won")).is_empty():
        return None
    v = threshold_x05(df)
    return v if v is not None and v > 0 else None


# %%
rows = []
for (engine,), df in sorted(facts.group_by("engine"), key=lambda t: t[0]):
    pos = positions.filter(pl.col("engine") == engine)
    rows.append(
        {
            "engine": engine,
            "games": df.height,
            "positions": pos.height,
            "x05_rank": rank_identified(df),
            "x05_threshold": threshold_identified(df),
            "x05_ml": (ml := ml_x05(pos)),
            "ml_se_log": None if ml is None else (sw := sandwich(pos, ml))[0],
            "deff": None if ml is None else sw[1],
            "clusters": pos["game_id"].n_unique(),
        }
    )
ours = pl.DataFrame(
    rows,
    schema_overrides={
        "x05_rank": pl.Float64,
        "x05_threshold": pl.Float64,
        "x05_ml": pl.Float64,
        "ml_se_log": pl.Float64,
        "deff": pl.Float64,
    },
)
ours

# %% [markdown]
# ## The pooled estimate, re-derived
#
# Empirical Bayes on ln x05 (README, "Pooled estimate"): the prior N(μ, τ²) by
# DerSimonian and Laird from the engines with at least 20 games with own evals (all
# engines when fewer than three have that many), a smaller engine's variance at least
# the median per-game variance over its games, then each engine shrunk by
# w = τ²/(τ² + s²), with the variance w·s² + (1 − w)²·Var(μ̂) + g²·Var(τ̂²), g the
# value's slope in τ² and Var(τ̂²) the DerSimonian–Laird estimator's own variance
# (Biggerstaff and Tweedie 1997, eq. 6).

# %%
from statistics import NormalDist

raw = ours.filter(pl.col("x05_ml").is_not_null())
theta = np.log(raw["x05_ml"].to_numpy())
s2 = raw["ml_se_log"].to_numpy() ** 2
games = raw["clusters"].to_numpy()
basis = games >= 20 if (games >= 20).sum() >= 3 else np.ones(len(games), dtype=bool)
w = 1 / s2[basis]
fixed = (w * theta[basis]).sum() / w.sum()
q = (w * (theta[basis] - fixed) ** 2).sum()
c = w.sum() - (w * w).sum() / w.sum()
tau2 = max(0.0, (q - (basis.sum() - 1)) / c) if c > 0 else 0.0
wr = 1 / (s2[basis] + tau2)
mu, var_mu = (wr * theta[basis]).sum() / wr.sum(), 1 / wr.sum()
k = basis.sum()
var_q = (
    2 * (k - 1)
    + 4 * c * tau2
    + 2 * ((w**2).sum() - 2 * (w**3).sum() / w.sum() + ((w**2).sum() / w.sum()) ** 2) * tau2**2
)
var_tau2 = var_q / c**2 if c > 0 else 0.0
floor = np.sort(s2[basis] * games[basis])[basis.sum() // 2]
s2_used = np.where(games < 20, np.maximum(s2, floor / games), s2)
weight = tau2 / (tau2 + s2_used)
mean = weight * theta + (1 - weight) * mu
slope = (1 - weight) * (theta - mu) / (s2_used + tau2)  # d mean / d tau2
half = NormalDist().inv_cdf(0.975) * np.sqrt(
    weight * s2_used + (1 - weight) ** 2 * var_mu + slope**2 * var_tau2
)
ours = ours.join(
    pl.DataFrame(
        {
            "engine": raw["engine"],
            "x05_pooled": np.exp(mean),
            "pooled_lo": np.exp(mean - half),
            "pooled_hi": np.exp(mean + half),
            "pooled_weight": weight,
        }
    ),
    on="engine",
    how="left",
)
print(f"prior: exp(mu) = {math.exp(mu):.3f}, tau = {math.sqrt(tau2):.3f} (sd of tau2 {math.sqrt(var_tau2):.4f}), "
      f"from {basis.sum()} engines")


# %% [markdown]
# Engines with own evals but no usable ml (no interior maximum, or one game) get the
# posterior mode of their positions' likelihood under the same prior: the maximum of
# ℓ(θ)/D − (θ − μ)²/(2τ²), D the median design effect of the prior's engines, the
# information ℓ''/D at the mode at most games/floor (D raised to meet it), the
# interval from v = 1/(I + 1/τ²) plus B²·Var(μ̂), B = v/τ², plus the τ² term with the
# slope B·(mode − μ)/τ².

# %%
deff = float(np.sort(raw["deff"].to_numpy()[basis])[basis.sum() // 2])
z95 = NormalDist().inv_cdf(0.975)
modes = []
for r in ours.filter(pl.col("x05_pooled").is_null() & (pl.col("positions") > 0)).iter_rows(named=True):
    pos = positions.filter(pl.col("engine") == r["engine"])
    x = pos["own_cp"].to_numpy() / 100
    s = pos["result"].to_numpy()

    def loglik(t: float) -> float:
        ln_p, ln_q = log_probs(x, math.exp(t))
        return float((s * ln_p + (1 - s) * ln_q).sum())

    def mode(d: float) -> tuple[float, float]:
        t = golden(lambda t: loglik(t) / d - (t - mu) ** 2 / (2 * tau2), math.log(0.02), math.log(50))
        h = 1e-3
        return t, max(0.0, (2 * loglik(t) - loglik(t + h) - loglik(t - h)) / h / h / d)

    cap = r["clusters"] / floor
    t, info = mode(deff)
    if info > cap:
        t, info = mode(deff * info / cap)
    v = 1 / (info + 1 / tau2)
    b = v / tau2
    half = z95 * math.sqrt(v + b * b * var_mu + (b * (t - mu) / tau2) ** 2 * var_tau2)
    modes.append(
        {
            "engine": r["engine"],
            "x05_pooled": math.exp(t),
            "pooled_lo": math.exp(t - half),
            "pooled_hi": math.exp(t + half),
            "pooled_weight": 1 - b,
        }
    )
print(f"design effect D = {deff:.2f}; {len(modes)} engines without a usable ml get their posterior mode")
if modes:
    ours = ours.update(pl.DataFrame(modes), on="engine")
ours.select("engine", "games", "x05_ml", "ml_se_log", "x05_pooled", "pooled_lo", "pooled_hi", "pooled_weight")

# %% [markdown]
# ## Compare with `evallab calibrate`

# %%
# As the demo pipeline runs it; the TOML for `relevance --x05` goes to a scratch
# folder, removed once read.
with tempfile.TemporaryDirectory(prefix="evallab-02-") as scratch:
    x05_file = Path(scratch) / "x05.toml"
    theirs = ds.calibrate(bootstrap=200, seed=1, toml=x05_file)
    x05_toml = tomllib.loads(x05_file.read_text())
cmp = ours.join(theirs, on="engine", how="full", suffix="_evallab", coalesce=True).sort("engine")
assert cmp.height == ours.height == theirs.height, "engines differ between notebook and calibrate.csv"
cmp.select(
    "engine",
    "games",
    "games_evallab",
    "positions",
    "positions_evallab",
    "x05_rank",
    "x05_rank_evallab",
    "x05_threshold",
    "x05_threshold_evallab",
    "x05_ml",
    "x05_ml_evallab",
)

# %%
assert (cmp["games"] == cmp["games_evallab"]).all()
assert (cmp["positions"] == cmp["positions_evallab"]).all()
for method in ("rank", "threshold"):
    a, b = f"x05_{method}", f"x05_{method}_evallab"
    both = cmp.filter(pl.col(a).is_not_null() & pl.col(b).is_not_null())
    bad = both.filter((pl.col(a) - pl.col(b)).abs() > 1e-9)
    assert bad.is_empty(), f"{method} differs:\n{bad.select('engine', a, b)}"
    # Null in one and not the other would be a real difference too.
    one_null = cmp.filter(pl.col(a).is_null() != pl.col(b).is_null())
    assert one_null.is_empty(), f"{method}: null on one side only:\n{one_null.select('engine', a, b)}"
    print(f"{method}: {both.height} engines agree, {cmp.height - both.height} null on both sides")

# ml: calibrate.csv keeps every digit, x05.toml 4 decimals. Both searches stop within
# 1e-7 of ln x05 and sum the positions in another order: on a nearly flat likelihood
# (an ml of 17 pawns from 4 games on the TCEC archive) the two optima differ by a few
# parts in a million, hence the relative term.
for r in cmp.filter(pl.col("x05_ml").is_not_null() & pl.col("x05_ml_evallab").is_not_null()).iter_rows(named=True):
    slack = 1e-5 * r["x05_ml"]
    assert abs(r["x05_ml"] - r["x05_ml_evallab"]) <= 1e-6 + slack, r
    if r["engine"] in x05_toml.get("x05_ml", {}):
        assert abs(r["x05_ml"] - x05_toml["x05_ml"][r["engine"]]) <= 0.00005 + slack, r
print("ml agrees to the searches' precision")

# ml_se_log and the pooled columns, from the two ml optima: the same relative slack.
for col in ("ml_se_log", "x05_pooled", "pooled_lo", "pooled_hi", "pooled_weight"):
    a, b = col, f"{col}_evallab"
    assert (cmp[a].is_null() == cmp[b].is_null()).all(), f"{col}: null on one side only"
    both = cmp.filter(pl.col(a).is_not_null())
    bad = both.filter((pl.col(a) - pl.col(b)).abs() > 1e-6 + 1e-5 * pl.col(b).abs())
    assert bad.is_empty(), f"{col} differs:\n{bad.select('engine', a, b)}"
# The TOML's [x05] holds the pooled values, every one positive.
for engine, v in x05_toml.get("x05", {}).items():
    assert v > 0, (engine, v)
    r = cmp.filter(pl.col("engine") == engine).row(0, named=True)
    assert abs(v - r["x05_pooled"]) <= 0.00005 + 1e-9, (engine, v, r["x05_pooled"])
print("sandwich errors and pooled estimates agree to the searches' precision")

# %% [markdown]
# ## Per event: compare with `evallab balance --by event,engine`
#
# The balance grouped by event and engine (as the demo pipeline writes it); the same
# functions applied per (event, engine) must give the same W, hollow wins, highest
# eval without win and balance.

# %%
bal = ds.balance(by="event,engine")  # as the demo pipeline runs it
per_event = pl.DataFrame(
    [
        {
            "event": ev,
            "engine": en,
            "wins_nb": int(df["won"].sum()),
            "hollow_nb": int(df["hollow"].sum()),
            "highest_nb": highest_without_win(df),
            "balance_nb": rank_x05(df),
        }
        for (ev, en), df in facts.group_by("event", "engine")
    ],
    schema_overrides={"highest_nb": pl.Float64, "balance_nb": pl.Float64},
)
chk = bal.join(per_event, on=["event", "engine"], how="full", coalesce=True).sort("event", "engine")
display(chk.select("event", "engine", "wins", "wins_nb", "hollow_wins", "hollow_nb",
                   "highest_eval_without_win", "highest_nb", "balance", "balance_nb", "reason"))
assert chk.height == bal.height == per_event.height
assert (chk["wins"] == chk["wins_nb"]).all() and (chk["hollow_wins"] == chk["hollow_nb"]).all()
for a, b in (("highest_eval_without_win", "highest_nb"), ("balance", "balance_nb")):
    assert (chk[a].is_null() == chk[b].is_null()).all(), a
    assert ((chk[a] - chk[b]).abs().fill_null(0) <= 1e-9).all(), a
print("balance reproduced per event")

# %% [markdown]
# ## Empirical win rate by own eval, with the fitted curves
#
# Every position with an own cp eval (x > 0, mates left out) is one observation:
# did the engine (actually) win that game? Binned by 0.25 pawns, beside the curve
# P(win) = 1 − 2^(−x/x05) (the win part of §2.3's P for x > 0) for each estimate.
# Only positive estimates define such a curve. The rank estimate is ≤ 0 when fewer
# than W of the engine's non-won games ever reached a positive own eval (many wins
# against a much weaker opponent, few close games); such an estimate is listed in
# the legend but not drawn. The panels are those of the `PANELS` engines with the
# most positions (all of them on the demo; on an archive of thousands of engines a
# panel each would take minutes and a figure metres long).

# %%
PANELS = 8
BIN = 0.25
XMAX = 6.0
emp = (
    positions.join(facts.select("game_id", "side", "won"), on=["game_id", "side"])
    .with_columns(x=pl.col("own_cp") / 100)
    .filter((pl.col("x") > 0) & (pl.col("x") < XMAX))
    .with_columns(bin=((pl.col("x") / BIN).floor() * BIN + BIN / 2))
    .group_by("engine", "bin")
    .agg(pl.len().alias("n"), pl.col("won").mean().alias("win_rate"))
    .sort("engine", "bin")
)

engines = ours.sort("positions", "engine", descending=[True, False]).head(PANELS)["engine"].to_list()
ncols = 2
nrows = math.ceil(len(engines) / ncols)
fig, axes = plt.subplots(nrows, ncols, figsize=(11, 3.8 * nrows), squeeze=False, sharey=True)
xs = np.linspace(0.001, XMAX, 300)
styles = {"rank": ("#0072B2", "-"), "threshold": ("#D55E00", "--"), "ml": ("#009E73", "-.")}
for ax, engine in zip(axes.flat, engines):
    e = emp.filter(pl.col("engine") == engine)
    n = e["n"].to_numpy()
    ax.scatter(e["bin"], e["win_rate"], s=np.maximum(150 * n / max(n.max(), 1), 4), color="grey", alpha=0.7,
               label="positions (area ~ count)")
    est = ours.filter(pl.col("engine") == engine).row(0, named=True)
    for method, (colour, ls) in styles.items():
        v = est[f"x05_{method}"]
        if v is not None and v > 0:
            ax.plot(xs, 1 - 2.0 ** (-xs / v), color=colour, ls=ls, label=f"{method}: x05 = {v:.2f}")
        else:
            ax.plot([], [], color=colour, ls=ls, label=f"{method}: {'none' if v is None else f'{v:.2f}'} (not drawn)")
    ax.axhline(0.5, color="black", lw=0.6, ls=":")
    ax.set_title(engine)
    ax.set_xlim(0, XMAX)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("own eval (pawns)")
    ax.set_ylabel("P(win)")
    ax.legend(fontsize=7, loc="lower right")
for ax in axes.flat[len(engines):]:
    ax.set_visible(False)
fig.tight_layout()
plt.show()

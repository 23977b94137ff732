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
# # 10 · Standings, ratings and game pairs, re-derived
#
# evallab computes the standings (`evallab standings`), the crosstable, Ordo-equal
# ratings (`evallab ratings` and its summary) and the pentanomial pairs
# (`evallab pairs`); the notebook takes them from the Python API
# (`evallab.Dataset`, the same frames as the commands' `--format parquet`). Here
# each is recomputed from the `games` table alone, in plain Python and numpy, and
# asserted equal:
#
# - points, W/D/L by colour and Sonneborn–Berger (docs/definitions/standings.md);
# - the ratings from Ordo's equations (docs/definitions/ratings.md): every
#   engine's expected score equals its points, White's expected total equals its
#   points (the white advantage), the ratings average to 2300, and the draw rate
#   between equal engines makes the expected draws equal the draws;
# - the five pentanomial counts per engine pair from the pairs' results.

# %% tags=["parameters"]
import os

DATASET = os.environ.get("EVALLAB_DATASET", "../demo-dataset")

# %%
import math
from collections import Counter, defaultdict
from pathlib import Path

from IPython.display import display
import matplotlib.pyplot as plt
import numpy as np
import polars as pl

import evallab  # the binary and its API (pip install .)

ds = evallab.Dataset(DATASET)
rated = ds.statistic_tables("ratings")  # the ratings and, beside them, the summary
res = {
    "standings": ds.standings(),
    "crosstable": ds.crosstable(),
    "ratings": rated["ratings"],
    "ratings.summary": rated["summary"],
    "pairs": ds.pairs(by="engine", sprt="0,10"),
}
games = ds.scan("games").collect()
finished = games.filter(pl.col("result").is_in(["1-0", "0-1", "1/2-1/2"]))
print(f"{games.height} games, {finished.height} finished, {games['event'].n_unique()} events")

# %% [markdown]
# ## Standings
#
# Points per engine and event: 1 for a win, ½ for a draw; Sonneborn–Berger sums the
# opponent's points for each win and half of them for each draw.

# %%
WHITE_SCORE = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}
rows = []
for g in finished.iter_rows(named=True):
    s = WHITE_SCORE[g["result"]]
    rows.append((g["event"], g["white"], g["black"], s, "w"))
    rows.append((g["event"], g["black"], g["white"], 1 - s, "b"))
points = defaultdict(float)
for ev, me, opp, s, side in rows:
    points[(ev, me)] += s
mine = defaultdict(lambda: Counter())
for ev, me, opp, s, side in rows:
    c = mine[(ev, me)]
    c["games"] += 1
    c["wins"] += s == 1
    c["draws"] += s == 0.5
    c["losses"] += s == 0
    c[f"{'white' if side == 'w' else 'black'}_points"] += s
    c["sb"] += {1.0: 1.0, 0.5: 0.5, 0.0: 0.0}[s] * points[(ev, opp)]
standings = res["standings"]
for r in standings.iter_rows(named=True):
    c = mine[(r["event"], r["engine"])]
    assert (r["games"], r["wins"], r["draws"], r["losses"]) == (c["games"], c["wins"], c["draws"], c["losses"]), r
    assert r["points"] == points[(r["event"], r["engine"])], r
    assert (r["white_points"], r["black_points"]) == (c["white_points"], c["black_points"]), r
    assert abs(r["sonneborn_berger"] - c["sb"]) < 1e-9, (r, c["sb"])
assert standings.height == len(mine)
print(f"standings: {standings.height} rows equal to the re-derivation")
display(standings.select("event", "rank", "engine", "games", "wins", "draws", "losses", "points", "sonneborn_berger"))

# %% [markdown]
# The crosstable's points of A against B and of B against A add up to their games.

# %%
ct = res["crosstable"]
back = {(r["event"], r["engine"], r["opponent"]): r for r in ct.iter_rows(named=True)}
for (ev, a, b), r in back.items():
    o = back[(ev, b, a)]
    assert r["games"] == o["games"] and r["points"] + o["points"] == r["games"], (r, o)
    assert (r["wins"], r["draws"], r["losses"]) == (o["losses"], o["draws"], o["wins"])
print(f"crosstable: {ct.height} ordered pairs, each the mirror of its opponent's")

# %% [markdown]
# ## Ratings: Ordo's equations solved with Newton's method
#
# With the logistic expectation `E = 1 / (1 + exp(-β (r_w + w - r_b)))`, β such that 202
# Elo expects 76 %, Ordo's ratings (without `-M`) are the solution of: for every
# engine, the sum of its expected scores equals its points; for White as a whole, the
# expected total equals White's points (`-W`); the ratings average to 2300. The draw rate
# between equal engines (`-D`) comes after: Ordo's draw model `draw_rate_fperf` gives the
# expected draws of every game; the rate whose expected draws equal the draws is the one.

# %%
names = sorted(set(finished["white"]) | set(finished["black"]))
ix = {n: i for i, n in enumerate(names)}
enc = Counter((ix[w], ix[b], r) for w, b, r in finished.select("white", "black", "result").iter_rows())
cells = defaultdict(lambda: [0, 0, 0])
for (w, b, r), n in enc.items():
    cells[(w, b)][["1-0", "1/2-1/2", "0-1"].index(r)] += n
E = np.array([[w, b, *c] for (w, b), c in cells.items()], dtype=float)
wi, bi = E[:, 0].astype(int), E[:, 1].astype(int)
W, D, L = E[:, 2], E[:, 3], E[:, 4]
T = W + D + L
beta = -math.log(1 / 0.76 - 1) / 202
n = len(names)


def solve(average=2300.0):
    """Ratings and white advantage: Newton on the n + 1 score equations."""
    x = np.zeros(n + 1)
    for _ in range(100):
        f = 1 / (1 + np.exp(-beta * (x[wi] + x[n] - x[bi])))
        g = beta * f * (1 - f) * T
        res_ = np.zeros(n + 1)
        np.add.at(res_, wi, f * T - (W + D / 2))
        np.add.at(res_, bi, (1 - f) * T - (L + D / 2))
        res_[n] = (f * T).sum() - (W + D / 2).sum()
        J = np.zeros((n + 1, n + 1))
        for k in range(len(E)):
            a, b = wi[k], bi[k]
            for p, s in ((a, 1), (b, -1)):
                J[p, a] += s * g[k]
                J[p, b] -= s * g[k]
                J[p, n] += s * g[k]
            J[n, a] += g[k]
            J[n, b] -= g[k]
            J[n, n] += g[k]
        # The ratings are fixed up to a constant: one equation becomes "mean 0".
        J[0, :n], J[0, n], res_[0] = 1, 0, x[:n].sum()
        dx = np.linalg.solve(J, res_)
        x -= dx
        if abs(dx).max() < 1e-12:
            break
    return x[:n] + average, x[n]


def draws_expected(f, d0):
    """Ordo's draw_rate_fperf: the draw share at expected score f, draw rate d0 at 50 %."""
    a = (1 - 2 * d0) / (d0 * d0)
    c = 4 * (f * f - f)
    return (np.sqrt(1 - a * c) - 1) / a if abs(d0 - 0.5) > 1e-9 else -c / 2


rating, wadv = solve()
f = 1 / (1 + np.exp(-beta * (rating[wi] + wadv - rating[bi])))
lo, hi = 1e-9, 1 - 1e-9
for _ in range(200):
    mid = (lo + hi) / 2
    lo, hi = (mid, hi) if (draws_expected(f, mid) * T).sum() < D.sum() else (lo, mid)
draw_rate = 100 * lo

ours = pl.DataFrame({"engine": names, "rederived": rating})
cmp = res["ratings"].join(ours, on="engine").with_columns(diff=pl.col("rating") - pl.col("rederived"))
display(cmp.select("engine", "rating", "rederived", "diff", "error", "points", "played", "cfs_next"))
summary = res["ratings.summary"]
display(summary)
assert cmp.height == n
assert cmp["diff"].abs().max() < 0.01, cmp
assert abs(summary["white_advantage"][0] - wadv) < 0.01, (summary, wadv)
assert abs(summary["draw_rate_pct"][0] - draw_rate) < 0.01, (summary, draw_rate)
print(f"ratings equal within 0.01 Elo; white advantage {wadv:.2f}, draw rate {draw_rate:.2f} %")

# %% [markdown]
# ## The same equations by Ordo's own search
#
# `solver="ordo"` (`--solver ordo`) repeats Ordo 1.2.6's search step for step instead of
# Newton's method (docs/definitions/ratings.md, R8a). Where the equations are well
# conditioned, as on this round robin, both reach the same root: every rating, the white
# advantage and the draw rate agree to 0.01. They differ only where Ordo stops short of the
# root (one colour never won, a very large white advantage; docs/guide/ratings.md, "Which
# solver").

# %%
by_search = ds.statistic_tables("ratings", solver="ordo", simulations=0)
both = res["ratings"].join(
    by_search["ratings"].select("engine", pl.col("rating").alias("ordo_search")), on="engine"
)
display(both.select("engine", "rating", "ordo_search"))
assert (both["rating"] - both["ordo_search"]).abs().max() <= 0.011, both
for k in ("white_advantage", "draw_rate_pct"):
    assert abs(by_search["summary"][k][0] - summary[k][0]) <= 0.011, (k, by_search["summary"])
assert (summary["solver"][0], by_search["summary"]["solver"][0]) == ("newton", "ordo")

# %%
r = res["ratings"].sort("rating")
fig, ax = plt.subplots(figsize=(7, 2.6))
ax.errorbar(r["rating"], range(r.height), xerr=r["error"], fmt="o", color="#0072B2", capsize=4)
ax.set_yticks(range(r.height), r["engine"])
ax.set_xlabel("Elo (pool average 2300), 95 % error by simulation")
ax.set_title("Ratings of the demo round robin")
fig.tight_layout()

# %% [markdown]
# ## Game pairs: the five counts
#
# The demo generator plays each opening twice in a row with the colours swapped
# (`data/demo/README.md`), so here a pair is simply games 2k−1 and 2k of a file. From
# the view of the engine first by name, the pair's points (0, ½, 1, 1½, 2) fall into
# the five bins; counted per engine pair they must equal `evallab pairs`'s
# (`pairs --by engine`, which finds the pairs by opening position instead).

# %%
BINS = ["ll", "ld", "dd_wl", "wd", "ww"]
counts = defaultdict(lambda: [0] * 5)
ordered = finished.sort("source_file", "game_number")
for _, grp in ordered.group_by("source_file", maintain_order=True):
    g = grp.to_dicts()
    for a, b in zip(g[0::2], g[1::2]):
        assert (a["white"], a["black"]) == (b["black"], b["white"]), (a["round"], b["round"])
        first = min(a["white"], a["black"])
        pts = sum(WHITE_SCORE[x["result"]] if x["white"] == first else 1 - WHITE_SCORE[x["result"]] for x in (a, b))
        counts[(first, max(a["white"], a["black"]))][int(pts * 2)] += 1
pairs = res["pairs"]
display(pairs.select("engine", "opponent", "pairs", *BINS, "elo", "elo_error", "elo_error_trinomial", "llr", "sprt"))
assert pairs.height == len(counts)
for p in pairs.iter_rows(named=True):
    assert [p[b] for b in BINS] == counts[(p["engine"], p["opponent"])], (p, counts[(p["engine"], p["opponent"])])
print(f"pairs: {pairs.height} engine pairs, the five counts equal to the re-derivation")

# %% [markdown]
# ## Openings and engine statistics
#
# `opening-stats` counts the finished games per opening (the ECO and Opening
# tags); `engine-stats --phase` splits each engine's non-book moves by game phase, so
# its per-phase sums must give the engine's totals over all its moves;
# `engine-stats --time-usage` is the share of the clock a move used, time / (time +
# time left), per band of 10 moves.

# %%
ost = ds.opening_stats()
mine = (
    finished.group_by("eco", "opening")
    .agg(
        games=pl.len(),
        white_wins=(pl.col("result") == "1-0").sum(),
        draws=(pl.col("result") == "1/2-1/2").sum(),
        black_wins=(pl.col("result") == "0-1").sum(),
    )
    .sort("eco", "opening")
)
got = ost.select("eco", "opening", "games", "white_wins", "draws", "black_wins").sort("eco", "opening")
assert got.cast(mine.schema).equals(mine), (got, mine)
print(f"opening-stats: {ost.height} openings equal to the re-derivation")

# %% [markdown]
# With `--source classified` the opening is the position the game reaches last
# among the Lichess table's named positions (`evallab openings`, stored as the
# derived table `openings`; the table README's rule). Per opening, the
# colour-swapped pairs are counted by their first game's opening, and a pair is
# decisive when one engine scored 1½ or 2 of its 2 games: both re-derived here
# from the games and the `openings` table, with the pairs as above.

# %%
classified = pl.read_parquet(Path(DATASET) / "derived" / "openings.parquet")
assert (classified["opening"].is_null() == classified["unclassified"].is_not_null()).all()
named = finished.drop("eco", "opening").join(classified.select("game_id", "eco", "opening"), on="game_id", how="left")
pair_rows = []
for _, grp in named.sort("source_file", "game_number").group_by("source_file", maintain_order=True):
    g = grp.to_dicts()
    for a, b in zip(g[0::2], g[1::2]):
        pts = WHITE_SCORE[a["result"]] + 1 - WHITE_SCORE[b["result"]]  # a's White engine
        pair_rows.append({"eco": a["eco"], "opening": a["opening"], "decisive": pts != 1.0})
pair_counts = (
    pl.DataFrame(pair_rows)
    .group_by("eco", "opening")
    .agg(pairs=pl.len(), decisive_pairs=pl.col("decisive").sum())
)
mine = (
    named.group_by("eco", "opening")
    .agg(games=pl.len())
    .join(pair_counts, on=["eco", "opening"], how="left", nulls_equal=True)
    .fill_null(0)
    .sort("eco", "opening", nulls_last=True)
)
by_position = ds.opening_stats(source="classified")
got = by_position.select(mine.columns).sort("eco", "opening", nulls_last=True)
assert got.cast(mine.schema).equals(mine), (got, mine)
display(by_position.sort("decisive_pairs", descending=True).head(8))
print(f"opening-stats --source classified: {by_position.height} openings, "
      f"{by_position['decisive_pairs'].sum()} decisive pairs of {by_position['pairs'].sum()}, equal to the re-derivation")

moves = ds.scan("moves").collect().join(games.select("game_id", "white", "black"), on="game_id")
own = moves.filter(~pl.col("is_book")).with_columns(
    engine=pl.when(pl.col("side") == "w").then(pl.col("white")).otherwise(pl.col("black"))
)
totals = own.group_by("engine").agg(moves=pl.len(), depth_sum=pl.col("depth").cast(pl.Float64).sum(), depth_n=pl.col("depth").count())
es = ds.engine_stats(phase=True)
per = es.group_by("engine").agg(
    moves=pl.col("moves").sum(),
    depth_sum=(pl.col("depth_mean") * pl.col("depth_moves")).sum(),
    depth_n=pl.col("depth_moves").sum(),
)
cmp = per.join(totals, on="engine", suffix="_re")
assert cmp.height == totals.height
assert (cmp["moves"] == cmp["moves_re"]).all() and (cmp["depth_n"] == cmp["depth_n_re"]).all(), cmp
assert ((cmp["depth_sum"] - cmp["depth_sum_re"]).abs() < 1e-6 * cmp["depth_sum_re"]).all(), cmp
print(f"engine-stats: the phases add up to every engine's {cmp['moves'].sum()} non-book moves and their depths")

tu = ds.engine_stats(time_usage=True)
share = (
    own.filter(pl.col("time_ms").is_not_null() & pl.col("time_left_ms").is_not_null())
    .with_columns(
        from_move=(pl.col("move_number").cast(pl.Int64) - 1) // 10 * 10 + 1,
        share=pl.col("time_ms") / (pl.col("time_ms") + pl.col("time_left_ms")),
    )
    .group_by("engine", "from_move")
    .agg(clock_moves=pl.len(), clock_share_mean=pl.col("share").mean())
)
cmp = tu.join(share, on=["engine", "from_move"], suffix="_re")
assert cmp.height == tu.filter(pl.col("clock_moves") > 0).height, cmp
assert (cmp["clock_moves"] == cmp["clock_moves_re"]).all()
assert ((cmp["clock_share_mean"] - cmp["clock_share_mean_re"]).abs() < 1e-12).all()
print(f"time usage: {cmp.height} (engine, band) rows equal to the re-derivation")

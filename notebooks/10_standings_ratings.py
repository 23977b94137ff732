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
# each is recomputed from the `games` and `moves` tables alone, in plain Python, numpy and
# scipy, and asserted equal, on the demo round robin or on a whole archive:
#
# - points, W/D/L by colour and Sonneborn–Berger (docs/definitions/standings.md);
# - the ratings from Ordo's equations (docs/definitions/ratings.md), in each group of
#   engines the games connect: every engine's expected score equals its points,
#   White's expected total equals its points (the white advantage), the ratings
#   average to 2300, and the draw rate between equal engines makes the expected draws
#   equal the draws;
# - the pairs (an opening played with both colours) and their five pentanomial counts
#   per engine pair.

# %% tags=["parameters"]
import os

DATASET = os.environ.get("EVALLAB_DATASET", "../demo-dataset")

# %%
import math
import re
from collections import Counter, defaultdict
from pathlib import Path

from IPython.display import display
import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

import evallab  # the binary and its API (pip install .)

ds = evallab.Dataset(DATASET)
rated = ds.statistic_tables("ratings", each_group=True)  # the ratings and, beside them, the summary
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
#
# Two things come first (docs/definitions/ratings.md). An engine that won or lost every
# game has no finite rating (R6): it is set aside before the fit (and rated after by R7,
# not re-derived here). And a rating difference is finite only between engines that each
# scored against the other, directly or through others (R9): the groups are the strongly
# connected components of "A scored at least a draw against B" among the other engines.
# A round robin is one group; an archive of many events is not (the whole TCEC archive:
# about 80), so the ratings are taken with `each_group=True` and every group is solved on
# its own, with its own white advantage, draw rate and average.

# %%
def rated_pool(fin):
    """The engines of finished games `fin` (sorted names), their encounters (White,
    Black, wins, draws, losses per ordered pair), each engine's kind (R6), the
    groups of two or more normal engines (R9), largest first, and each engine's score."""
    names = sorted(set(fin["white"]) | set(fin["black"]))
    ix = {x: i for i, x in enumerate(names)}
    n = len(names)
    E = (
        fin.group_by("white", "black")
        .agg(
            W=(pl.col("result") == "1-0").sum(),
            D=(pl.col("result") == "1/2-1/2").sum(),
            L=(pl.col("result") == "0-1").sum(),
        )
        .sort("white", "black")
    )
    wi = np.array([ix[x] for x in E["white"]], dtype=int)
    bi = np.array([ix[x] for x in E["black"]], dtype=int)
    W, D, L = (E[c].to_numpy().astype(float) for c in ("W", "D", "L"))
    T = W + D + L
    points = np.bincount(wi, W + D / 2, n) + np.bincount(bi, L + D / 2, n)
    played = np.bincount(wi, T, n) + np.bincount(bi, T, n)
    kind = np.where(played - points < 0.001, "all wins", np.where(points < 0.001, "all losses", "normal"))
    normal = kind == "normal"
    # Strongly connected components of "scored at least a draw against", normal engines only.
    both = normal[wi] & normal[bi]
    w_scored, b_scored = both & (W + D > 0), both & (L + D > 0)
    src = np.concatenate([wi[w_scored], bi[b_scored]])
    dst = np.concatenate([bi[w_scored], wi[b_scored]])
    graph = csr_matrix((np.ones(len(src)), (src, dst)), shape=(n, n))
    _, component = connected_components(graph, directed=True, connection="strong")
    groups = [np.flatnonzero(normal & (component == c)) for c in np.unique(component[normal])]
    groups = sorted((g for g in groups if len(g) >= 2), key=len, reverse=True)
    return names, (wi, bi, W, D, L), kind, groups, points / played


names, (wi, bi, W, D, L), kind, groups, _ = rated_pool(finished)
n = len(names)
normal = kind == "normal"
print(f"{n} engines, {int((~normal).sum())} set aside (R6), {len(groups)} groups of two or more (R9), "
      f"the largest of {len(groups[0])}")

beta = -math.log(1 / 0.76 - 1) / 202


def solve(members, average=2300.0):
    """A group's ratings and white advantage: Newton on the score equations (the
    gradient of a concave log-likelihood, so a step is halved until that rises),
    the ratings averaging `average`. None where the white advantage leaves ±1000
    Elo or the probabilities saturate: no finite solution (R13)."""
    m = len(members)
    loc = np.full(n, -1)
    loc[members] = np.arange(m)
    sel = (loc[wi] >= 0) & (loc[bi] >= 0)
    a, b, w, d, l = loc[wi[sel]], loc[bi[sel]], W[sel], D[sel], L[sel]
    t, s = w + d + l, w + d / 2

    def loglik(x):
        z = beta * (x[a] + x[m] - x[b])
        return (s * -np.logaddexp(0, -z) + (t - s) * -np.logaddexp(0, z)).sum()

    x = np.zeros(m + 1)
    for _ in range(200):
        f = 1 / (1 + np.exp(-beta * (x[a] + x[m] - x[b])))
        g = beta * f * (1 - f) * t
        r = np.zeros(m + 1)
        np.add.at(r, a, f * t - s)
        np.add.at(r, b, (1 - f) * t - (t - s))
        r[m] = (f * t - s).sum()
        J = np.zeros((m + 1, m + 1))
        for p, sign in ((a, 1), (b, -1)):
            np.add.at(J, (p, a), sign * g)
            np.add.at(J, (p, b), -sign * g)
            np.add.at(J, (p, m), sign * g)
        np.add.at(J, (m, a), g)
        np.add.at(J, (m, b), -g)
        J[m, m] = g.sum()
        # The ratings are fixed up to a constant: one equation becomes "mean 0".
        J[0, :m], J[0, m], r[0] = 1, 0, x[:m].sum()
        # Least squares: where the games leave the white advantage and a rating
        # difference confounded (one game, one colour), the smallest step.
        dx = np.linalg.lstsq(J, r)[0]
        step, now = 1.0, loglik(x)
        while loglik(x - step * dx) < now - 1e-9 and step > 1e-6:
            step /= 2
        x -= step * dx
        if abs(step * dx).max() < 1e-10 or abs(x[m]) > 1000:
            break
    else:
        return None
    if abs(x[m]) >= 1000:
        return None
    rating, wadv = x[:m] - x[:m].mean() + average, x[m]
    return rating, wadv, (a, b, d, t)


def draws_expected(f, d0):
    """Ordo's draw_rate_fperf: the draw share at expected score f, draw rate d0 at 50 %."""
    aa = (1 - 2 * d0) / (d0 * d0)
    c = 4 * (f * f - f)
    return (np.sqrt(1 - aa * c) - 1) / aa if abs(d0 - 0.5) > 1e-9 else -c / 2


def draw_rate(rating, wadv, a, b, d, t):
    """The rate between equals whose expected draws equal the draws (bisection)."""
    f = 1 / (1 + np.exp(-beta * (rating[a] + wadv - rating[b])))
    lo, hi = 1e-9, 1 - 1e-9
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if (draws_expected(f, mid) * t).sum() < d.sum() else (lo, mid)
    return 100 * lo


ratings, summary = res["ratings"], res["ratings.summary"]
assert ratings.sort("engine")["kind"].to_list() == kind.tolist(), "R6: who is set aside"
got = {r["engine"]: r for r in ratings.iter_rows(named=True)}
solved, unbounded, worst = [], 0, 0.0
for members in groups:
    fit = solve(members)
    ours = [names[i] for i in members]
    if fit is None:
        # R13: evallab leaves such a group unrated and says why.
        assert all(got[e]["rating"] is None and got[e]["reason"].startswith("no finite solution") for e in ours), ours
        unbounded += 1
        continue
    rating, wadv, enc_ = fit
    (gid,) = {got[e]["group"] for e in ours}  # one evallab group holds exactly these normal engines
    assert gid is not None and sorted(ours) == sorted(
        e for e, r in got.items() if r["group"] == gid and r["kind"] == "normal"
    ), ours
    diff = max(abs(got[e]["rating"] - r) for e, r in zip(ours, rating))
    row = summary.filter(pl.col("group") == gid).row(0, named=True)
    rate = draw_rate(rating, wadv, *enc_)
    assert diff < 0.01, (gid, diff)
    assert abs(row["white_advantage"] - wadv) < 0.01, (row, wadv)
    assert abs(row["draw_rate_pct"] - rate) < 0.01, (row, rate)
    worst = max(worst, diff)
    solved.append({"group": gid, "engines": len(ours), "white_advantage": wadv, "draw_rate_pct": rate,
                   "max_rating_diff": diff})
assert len(solved) == summary.height, (len(solved), summary.height)
solved = pl.DataFrame(solved).sort("group")
display(solved.head(10))
print(f"{len(solved)} groups re-derived: every rating within {worst:.4f} Elo, the white advantage and the "
      f"draw rate within 0.01; {unbounded} group(s) without a finite solution, unrated by evallab too")

# %% [markdown]
# ## The same equations by Ordo's own search
#
# `solver="ordo"` (`--solver ordo`) repeats Ordo 1.2.6's search step for step instead of
# Newton's method (docs/definitions/ratings.md, R8a). Where the equations are well
# conditioned both reach the same root: every rating and the draw rate agree to 0.01,
# the white advantage to a few hundredths. They differ only where Ordo stops short of the root (one colour
# never won, a very large white advantage; docs/guide/ratings.md, "Which solver"). The
# search takes minutes on a whole archive, so with more than one group it runs on the
# league with the most games.

# %%
# The event with the most games among the well-conditioned leagues: three engines or
# more whose games make one group, every engine scoring 20–80 % (a pool spread over
# 1,700 Elo leaves Ordo's search an Elo or two short), both colours with wins (else the
# draw rate sits at its 100 % bound, where the search stops short too).
events = finished.group_by("event").agg(
    engines=pl.concat_list("white", "black").list.explode().n_unique(), games=pl.len()
)
league = None
for ev in events.filter(pl.col("engines") >= 3).sort("games", "event", descending=[True, False])["event"]:
    _, (_, _, w_, _, l_), k, grp, score = rated_pool(finished.filter(pl.col("event") == ev))
    if len(grp) == 1 and ((score >= 0.2) & (score <= 0.8)).all() and w_.sum() > 0 and l_.sum() > 0:
        league = ev
        break
sel = {} if summary.height == 1 else {"event": f"^{re.escape(league)}$"}
newton = ds.statistic_tables("ratings", bootstrap=0, each_group=True, **sel)
by_search = ds.statistic_tables("ratings", solver="ordo", bootstrap=0, each_group=True, **sel)
both_ = newton["ratings"].join(
    by_search["ratings"].select("engine", pl.col("rating").alias("ordo_search")), on="engine"
).filter(pl.col("rating").is_not_null())
display(both_.select("engine", "rating", "ordo_search").head(12))
assert both_.height >= 2 and (both_["rating"] - both_["ordo_search"]).abs().max() <= 0.011, both_
fits = newton["summary"].join(by_search["summary"], on="group", suffix="_ordo")
assert fits.height == newton["summary"].height
# Ordo's search ends a cycle once the white advantage moves by less than 0.01 Elo (R8),
# so it can stop a few hundredths short of the root (0.02 on the archive's largest league).
for k, tol in (("white_advantage", 0.025), ("draw_rate_pct", 0.011)):
    assert (fits[k] - fits[f"{k}_ordo"]).abs().max() <= tol, (k, fits.select(k, f"{k}_ordo").rows(), league)
assert set(fits["solver"]) == {"newton"} and set(fits["solver_ordo"]) == {"ordo"}
print(f"{league if sel else 'all games'}: {both_.height} engines, both solvers' ratings within 0.011 Elo")

# %%
top = ratings.filter(pl.col("group") == 1).sort("rating", descending=True).head(25).sort("rating")
fig, ax = plt.subplots(figsize=(7, 0.8 + 0.22 * top.height))
ax.errorbar(top["rating"], range(top.height), xerr=top["error"], fmt="o", color="#0072B2", capsize=4)
ax.set_yticks(range(top.height), top["engine"])
ax.set_xlabel("Elo (group average 2300), 95 % error by simulation")
ax.set_title("Ratings: the 25 highest of the largest group" if ratings.height > 25 else "Ratings")
fig.tight_layout()

# %% [markdown]
# ## Game pairs: the five counts
#
# A pair is one opening played twice by the same two engines with the colours swapped
# (docs/definitions/pairs.md). The opening is the position after the book moves (its
# position key); without book moves the start position of a game from a FEN, else the
# position after ply 8. In each event and source file, in game-number order, a game
# waits for the next game of the same two engines on the same opening: with the colours
# swapped the two are a pair, otherwise the newer one waits instead. From the view of
# the engine first by name, the pair's points (0, ½, 1, 1½, 2) fall into the five bins;
# counted per engine pair they must equal `evallab pairs --by engine`'s.

# %%
BINS = ["ll", "ld", "dd_wl", "wd", "ww"]
book = ds.scan("moves").filter(pl.col("is_book")).group_by("game_id").agg(book_ply=pl.col("ply").max())
at = (
    ds.scan("games")
    .select("game_id", "source_file", "game_number", "event", "white", "black", "result", "start_fen", "start_key")
    .join(book, on="game_id", how="left")
    .with_columns(
        opening_ply=pl.when(pl.col("book_ply").is_not_null())
        .then(pl.col("book_ply"))
        .when(pl.col("start_fen").is_not_null())
        .then(0)
        .otherwise(8)
        .cast(pl.UInt32)
    )
)
keys = ds.scan("moves").select("game_id", "ply", "position_key")
openings_ = (
    at.join(keys, left_on=["game_id", "opening_ply"], right_on=["game_id", "ply"], how="left")
    .with_columns(opening_key=pl.when(pl.col("opening_ply") == 0).then("start_key").otherwise("position_key"))
    .sort("source_file", "game_number")
    .collect()
)
waiting, pairs_found = {}, []
for g in openings_.iter_rows(named=True):
    if g["white"] is None or g["black"] is None or g["white"] == g["black"]:
        continue
    if g["result"] not in WHITE_SCORE or g["opening_key"] is None:
        continue
    k = (g["source_file"], g["event"], min(g["white"], g["black"]), max(g["white"], g["black"]), g["opening_key"])
    prev = waiting.pop(k, None)
    if prev is not None and prev["white"] == g["black"]:
        pairs_found.append((prev, g))
    else:
        waiting[k] = g
counts = defaultdict(lambda: [0] * 5)
for a, b in pairs_found:
    first = min(a["white"], a["black"])
    pts = sum(WHITE_SCORE[x["result"]] if x["white"] == first else 1 - WHITE_SCORE[x["result"]] for x in (a, b))
    counts[(first, max(a["white"], a["black"]))][int(pts * 2)] += 1
pairs = res["pairs"]
display(pairs.select("engine", "opponent", "pairs", *BINS, "elo", "elo_error", "elo_error_trinomial", "llr", "sprt").head(12))
assert pairs.filter(pl.col("pairs") > 0).height == len(counts)
for p in pairs.iter_rows(named=True):
    assert [p[b] for b in BINS] == counts.get((p["engine"], p["opponent"]), [0] * 5), (p, counts[(p["engine"], p["opponent"])])
print(f"pairs: {len(pairs_found)} pairs of {pairs.height} engine pairs, the five counts equal to the re-derivation")

# %% [markdown]
# ### A runner's minimal PGN and its book
#
# fastchess (`-pgnout min=true`) and cutechess (`-pgnout FILE min`) can write the games
# without their `{book}` comments. `tests/data/runners` holds such a match: Stockfish
# 15.1 at 6,000 against 4,000 nodes, 100 openings of a book of 6–10-ply lines, each
# played twice by fastchess, adjudicated. Without marks an opening is the position
# after ply 8, and the lines shorter than that part before it; with the book
# (`pairs --book`) a game waits at the shallowest book line it reaches (reading R3 of
# docs/definitions/pairs.md). Re-derived with python-chess: each book line's final
# position by its Polyglot key, each game's positions, the same waiting rule; and
# fastchess's own pairing, which needs no opening at all (it wrote each pair's two
# games one after the other).

# %%
import io
import tempfile

import chess.pgn
import chess.polyglot
import pyarrow as pa

RUNNERS = Path("../tests/data/runners")


def pgn_games(path):
    with pa.input_stream(str(path), compression="zstd") as f:
        stream = io.StringIO(f.read().decode())
    while (game := chess.pgn.read_game(stream)) is not None:
        yield game


def signed(key):  # the dataset's keys: the u64's bits as an i64
    return key - (1 << 64) if key >= 1 << 63 else key


lines = {}
for line in pgn_games(RUNNERS / "book.pgn.zst"):
    board = line.end().board()
    lines[signed(chess.polyglot.zobrist_hash(board))] = board.ply()
longest = max(lines.values())
match_games = []
for g in pgn_games(RUNNERS / "fastchess" / "one-sided.pgn.zst"):
    board, reached = g.board(), []
    for ply, move in enumerate(g.mainline_moves(), start=1):
        board.push(move)
        if ply <= longest and signed(chess.polyglot.zobrist_hash(board)) in lines:
            reached.append(signed(chess.polyglot.zobrist_hash(board)))
    match_games.append((g.headers["White"], g.headers["Result"], reached))
waiting, found = {}, []
for number, (white, result, reached) in enumerate(match_games, start=1):
    prev = waiting.pop(reached[0], None)
    if prev is not None and match_games[prev - 1][0] != white:
        found.append((prev, number))
    else:
        waiting[reached[0]] = number
assert found == [(n, n + 1) for n in range(1, len(match_games), 2)], "not fastchess's own pairs"
bins = [0] * 5
for a, b in found:  # from SF-4k's view, as `pairs` (the engine first by name)
    score = sum(WHITE_SCORE[match_games[n - 1][1]] if match_games[n - 1][0] == "SF-4k"
                else 1 - WHITE_SCORE[match_games[n - 1][1]] for n in (a, b))
    bins[int(score * 2)] += 1
with tempfile.TemporaryDirectory(prefix="evallab-10-") as scratch:
    runner = evallab.ingest(RUNNERS / "fastchess" / "one-sided.pgn.zst", Path(scratch) / "ds", quiet=True)
    plain = runner.pairs(by="engine")
    booked = runner.pairs(by="engine", book=RUNNERS / "book.pgn.zst")
display(pl.concat([plain, booked]).select("engine", "opponent", "pairs", *BINS, "unpaired", "elo", "elo_error"))
assert plain["unpaired"][0] > 0 and booked["unpaired"][0] == 0
assert [booked[b][0] for b in BINS] == bins, (booked.select(BINS), bins)
print(f"minimal PGN: {plain['pairs'][0]} pairs without the book, {booked['pairs'][0]} with it "
      f"({len(lines)} lines of up to {longest} plies), the five counts {bins} equal to the re-derivation")

# %% [markdown]
# ## Openings and engine statistics
#
# `opening-stats` counts the finished games per opening (the ECO and Opening
# tags); `engine-stats --phase` splits each engine's non-book moves by game phase, so
# its per-phase sums must give the engine's totals over all its moves;
# `engine-stats --time-usage` is the share of the clock a move used, time / (time +
# time left), per band of 10 moves, over the moves with a clock (time + time left above 0).

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
opening_of = dict(zip(named["game_id"], zip(named["eco"], named["opening"])))
pair_rows = []
for a, b in pairs_found:
    pts = WHITE_SCORE[a["result"]] + 1 - WHITE_SCORE[b["result"]]  # a's White engine
    eco, opening = opening_of[a["game_id"]]
    pair_rows.append({"eco": eco, "opening": opening, "decisive": pts != 1.0})
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

moves = (
    ds.scan("moves")
    .select("game_id", "is_book", "side", "depth", "time_ms", "time_left_ms", "move_number")
    .collect()
    .join(games.select("game_id", "white", "black"), on="game_id")
)
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
assert ((cmp["depth_sum"] - cmp["depth_sum_re"]).abs() <= 1e-6 * cmp["depth_sum_re"]).all(), cmp
print(f"engine-stats: the phases add up to every engine's {cmp['moves'].sum()} non-book moves and their depths")

tu = ds.engine_stats(time_usage=True)
share = (
    own.filter((pl.col("time_ms").cast(pl.Float64) + pl.col("time_left_ms")) > 0)  # a clock before the move
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

# %% [markdown]
# ## The report's answer row
#
# `ds.report(output=DIR)` writes the HTML report (`evallab report`) and returns its
# page. The page opens with one row per event: the winner, and the points of the
# winner and the runner-up. Read back from the page of the largest event, they are
# the standings' first two, whose points were re-derived above.

# %%
import html
import tempfile

event = standings.group_by("event").agg(pl.col("games").sum()).sort("games", descending=True)["event"][0]
literal = re.sub(r"([.^$*+?()\[\]{}|\\])", r"\\\1", event)  # the event's name as a regex
with tempfile.TemporaryDirectory(prefix="evallab-10-") as scratch:  # removed once read
    page = ds.report(output=Path(scratch) / "report", event=f"^{literal}$", trajectories=1)
    text = page.read_text()
row = re.search(r'<tr><td><a href="#e0">(.*?)</a></td><td>(\d+)</td><td>(.*?)</td><td>(.*?)</td>', text)
assert row, "no events table on the page"
name, played, winner, score = (html.unescape(x) for x in row.groups())
first, second = standings.filter(pl.col("event") == event).sort("rank").head(2).iter_rows(named=True)
assert (name, winner) == (event, first["engine"]), (name, winner)
assert score == f"{points[(event, first['engine'])]:.1f}–{points[(event, second['engine'])]:.1f}", score
assert int(played) == finished.filter(pl.col("event") == event).height, played
print(f"the report's page: {event}, {played} games, {winner} first with {score}, as re-derived")

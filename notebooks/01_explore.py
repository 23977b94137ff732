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
# # 01 · Exploring an evallab dataset
#
# `evallab ingest` writes plain Parquet tables: `games` (one row per game),
# `moves` (one row per ply, with the engine's eval), `rejects` (games that could
# not be read, with the reason), one part file per ingest run, plus a
# `manifest.json` that records every run and its inputs.
#
# This notebook loads a dataset with [polars](https://pola.rs), shows the schema and
# some counts, joins games and moves, plots one game's eval curve, and checks that
# pyarrow and DuckDB give the same answer as polars for one query.
#
# The dataset path comes from the `EVALLAB_DATASET` environment variable (default:
# the demo dataset `../demo-dataset`, made by `evallab run pipelines/demo.toml`).

# %% tags=["parameters"]
import os

DATASET = os.environ.get("EVALLAB_DATASET", "../demo-dataset")

# %%
import json
from pathlib import Path

import duckdb
from IPython.display import display
import matplotlib.pyplot as plt
import polars as pl
from polars.testing import assert_frame_equal

import evallab
from evallab import parts  # the committed files of a table (pip install .)
import pyarrow.compute as pc
import pyarrow.dataset as pads

pl.Config.set_tbl_rows(60)
pl.Config.set_fmt_str_lengths(60)

root = Path(DATASET)
assert (root / "manifest.json").exists(), f"no evallab dataset at {root.resolve()}"
manifest = json.loads((root / "manifest.json").read_text())
print(manifest["tool"], manifest["tool_version"], "schema", manifest["schema_version"])
for run in manifest["runs"]:
    for i in run["inputs"]:
        print(f"part {run['part']:06d}  {i['path']}: {i['games']} games, {i['plies']} plies, {i['rejects']} rejects")

# %% [markdown]
# ## Load the tables
#
# A table is read through the manifest (`parts` lists the committed files; a glob
# could also read parts a failed writer left). `scan_parquet` is lazy: nothing is
# read until `.collect()`.

# %%
games = pl.scan_parquet(parts(DATASET, "games"))
moves = pl.scan_parquet(parts(DATASET, "moves"))
rejects = pl.scan_parquet(parts(DATASET, "rejects"))
tables = {"games": games, "moves": moves, "rejects": rejects}

# %% [markdown]
# ## Schema
#
# `evallab schema` prints every column with its meaning; here are the types as
# polars sees them.

# %%
for name, lf in tables.items():
    schema = lf.collect_schema()
    print(f"{name}: {len(schema)} columns")
    print(pl.DataFrame({"column": list(schema.names()), "dtype": [str(t) for t in schema.dtypes()]}))

# %% [markdown]
# ## Counts per table, checked against the manifest

# %%
counts = {name: lf.select(pl.len()).collect().item() for name, lf in tables.items()}
expected = {
    "games": sum(i["games"] for r in manifest["runs"] for i in r["inputs"]),
    "moves": sum(i["plies"] for r in manifest["runs"] for i in r["inputs"]),
    "rejects": sum(i["rejects"] for r in manifest["runs"] for i in r["inputs"]),
}
print(counts)
assert counts == expected, (counts, expected)

# %% [markdown]
# ## Counts per event
#
# Games, results and plies per event, and the moves with a usable eval (`cp` or
# `mate`; `placeholder` and `absurd` are not evals; book moves carry none).
# polars sorts events as text ("Season 10" before "Season 4");
# `evallab.in_event_order` gives the frame the order of the binary's tables and
# the report.

# %%
per_event = evallab.in_event_order(
    games.group_by("event")
    .agg(
        pl.len().alias("games"),
        (pl.col("result") == "1-0").sum().alias("white_wins"),
        (pl.col("result") == "0-1").sum().alias("black_wins"),
        (pl.col("result") == "1/2-1/2").sum().alias("draws"),
        pl.col("plies").sum().alias("plies"),
        pl.col("plies").mean().round(1).alias("mean_plies"),
        pl.col("dialect").unique().sort().str.join(",").alias("dialects"),
    )
    .sort("event")
    .collect()
)
per_event

# %%
moves.group_by("eval_kind").agg(pl.len().alias("moves"), pl.col("is_book").sum().alias("book")).sort(
    "eval_kind", nulls_last=True
).collect()

# %%
if counts["rejects"]:
    display(rejects.select("source_file", "game_number", "line", "reason").collect())
else:
    print("no rejected games")

# %% [markdown]
# ## The binary's own counts: `Dataset.inspect()`
#
# `evallab inspect` (here through the Python API: one frame per section) counts
# per event, dialect and variant, lists the rejects and the games the dataset holds
# more than once: the same tags, plies and final position, read from two files or
# twice from one (every copy counts in every statistic). Each is re-derived here
# from the tables and asserted equal.

# %%
ds = evallab.Dataset(DATASET)
inspected = ds.inspect()
print(", ".join(f"{k}: {v.height} rows" for k, v in inspected.items()))
assert_frame_equal(
    inspected["events"].select("event", "games", "plies"),
    per_event.select("event", pl.col("games").cast(pl.UInt32), pl.col("plies").cast(pl.UInt64)),
)
assert inspected["rejects"].height == counts["rejects"]
# The repeated games, from the tags, the plies and the position after the last ply.
same_game = ["event", "site", "date", "round", "white", "black", "result", "plies"]
final = (
    games.select("game_id", "plies", "start_key")
    .join(moves.select("game_id", "ply", "position_key"), left_on=["game_id", "plies"], right_on=["game_id", "ply"], how="left")
    .select("game_id", pl.coalesce("position_key", "start_key").alias("final_key"))
)
repeated = (
    games.join(final, on="game_id")
    .group_by([*same_game, "final_key"])
    .agg(pl.len().alias("copies"))
    .filter(pl.col("copies") > 1)
    .collect()
)
assert repeated.height == inspected["repeated"].height
assert repeated["copies"].sum() == inspected["repeated"]["copies"].sum()
print(f"games held more than once: {repeated.height}, in {repeated['copies'].sum()} copies")
display(inspected["repeated"].head(10))

# %% [markdown]
# ## Joining games and moves
#
# Each move knows its `game_id` and the `side` that moved, so the joined table
# gives every move its engine. Here: per engine and event, the moves, those with a
# usable eval, the mean |eval| in pawns and the mean time per move.

# %%
engine_moves = (
    moves.join(games.select("game_id", "event", "white", "black"), on="game_id")
    .with_columns(engine=pl.when(pl.col("side") == "w").then(pl.col("white")).otherwise(pl.col("black")))
)
(
    engine_moves.group_by("event", "engine")
    .agg(
        pl.len().alias("moves"),
        pl.col("eval_kind").is_in(["cp", "mate"]).sum().alias("with_eval"),
        (pl.col("eval_cp").abs().mean() / 100).round(2).alias("mean_abs_eval"),
        pl.col("time_ms").mean().round(1).alias("mean_time_ms"),
    )
    .sort("event", "engine")
    .collect()
    .pipe(evallab.in_event_order)
)

# %% [markdown]
# ## One game's eval curve
#
# Evals are stored in White's point of view: `eval_cp` in centipawns, `mate` in
# signed full moves (positive: White mates). For the plot: pawns clipped to ±5,
# mates drawn at ±5. We take the longest decisive game of the dataset (ties by
# `game_id`, so the choice is deterministic).

# %%
CLIP = 5.0
game = (
    games.filter(pl.col("result").is_in(["1-0", "0-1"]))
    .sort(["plies", "game_id"], descending=[True, False])
    .head(1)
    .collect()
    .row(0, named=True)
)
print({k: game[k] for k in ("game_id", "event", "round", "white", "black", "result", "plies", "termination")})

curve = (
    moves.filter(pl.col("game_id") == game["game_id"])
    .filter(pl.col("eval_kind").is_in(["cp", "mate"]))
    .select(
        "ply",
        "side",
        "san",
        pl.when(pl.col("mate").is_not_null())
        .then(pl.col("mate").sign().cast(pl.Float64) * CLIP)
        .otherwise((pl.col("eval_cp") / 100).clip(-CLIP, CLIP))
        .alias("white_pov"),
        pl.col("mate").is_not_null().alias("is_mate"),
    )
    .sort("ply")
    .collect()
)
assert curve["white_pov"].abs().max() <= CLIP

fig, ax = plt.subplots(figsize=(10, 4))
ax.axhline(0, color="grey", lw=0.8)
ax.plot(curve["ply"], curve["white_pov"], color="black", lw=1, label="eval")
for side, colour, who in (("w", "#0072B2", game["white"]), ("b", "#D55E00", game["black"])):
    part = curve.filter(pl.col("side") == side)
    ax.scatter(part["ply"], part["white_pov"], s=8, color=colour, label=f"{who} ({side})")
mates = curve.filter(pl.col("is_mate"))
if mates.height:
    ax.scatter(mates["ply"], mates["white_pov"], s=40, marker="x", color="red", label="mate score")
ax.set_ylim(-CLIP - 0.3, CLIP + 0.3)
ax.set_xlabel("ply")
ax.set_ylabel("eval, White POV (pawns, clipped to ±5)")
ax.set_title(f"{game['white']} – {game['black']} {game['result']}  (round {game['round']}, {game['event']})")
ax.legend(loc="best", fontsize=8)
plt.show()

# %% [markdown]
# ## The same query in pyarrow and DuckDB
#
# Games per event, three ways. The tables are plain Parquet, so any reader works.

# %%
q_polars = games.group_by("event").agg(pl.len().alias("games")).sort("event", nulls_last=True).collect()

# pyarrow: a dataset over the committed files.
arrow_games = pads.dataset(parts(DATASET, "games"), format="parquet").to_table(columns=["event"])
q_arrow = arrow_games.group_by("event").aggregate([("event", "count")]).rename_columns(["event", "games"])
q_arrow = q_arrow.sort_by("event")

# DuckDB: read_parquet with the same list.
q_duck = duckdb.sql(
    f"select event, count(*) as games from read_parquet({parts(DATASET, 'games')!r}) group by event order by event nulls last"
).pl()

print(q_polars)
as_rows = lambda rows: [(r["event"], int(r["games"])) for r in rows]  # noqa: E731
assert as_rows(q_polars.to_dicts()) == as_rows(q_arrow.to_pylist()) == as_rows(q_duck.to_dicts())
assert int(pc.sum(q_arrow["games"]).as_py()) == counts["games"]
print("polars, pyarrow and DuckDB agree")

# %% [markdown]
# ## What the dataset was read from, and taking a file out
#
# `ds.inspect()["inputs"]` lists the input files with their sha256 and counts (from
# the manifest). `ds.remove(...)` (`evallab remove`) takes a file's games, moves and
# rejects out again, by path or sha256 prefix, in one commit. To leave the dataset as
# it is, this runs on a copy; the check re-derives the result from the copy's own
# Parquet parts: every game left is from another file, and no move of a removed game
# is left.

# %%
import shutil
import tempfile

ds = evallab.Dataset(DATASET)
inputs = ds.inspect()["inputs"]
display(inputs.select("path", pl.col("sha256").str.slice(0, 16), "part", "games", "rejects", "plies"))

scratch = Path(tempfile.mkdtemp()) / "copy"
shutil.copytree(root, scratch)
copy = evallab.Dataset(scratch)
gone = inputs.row(0, named=True)
copy.remove(gone["sha256"][:16])

left = pl.scan_parquet(parts(scratch, "games")).collect()
assert gone["sha256"] not in left["source_sha256"].to_list()
assert left.height == inputs["games"].sum() - gone["games"]
removed_ids = games.filter(pl.col("source_sha256") == gone["sha256"]).select("game_id").collect()["game_id"]
moves_left = pl.scan_parquet(parts(scratch, "moves"))
assert moves_left.filter(pl.col("game_id").is_in(removed_ids.implode())).select(pl.len()).collect().item() == 0
print(f"took {gone['path']} out of the copy: {gone['games']} games; {left.height} games left")
shutil.rmtree(scratch.parent)

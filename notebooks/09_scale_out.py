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
# # 09 · The same tables from polars, DuckDB and Dask; statistics from per-part facts
#
# README "Scaling out": other engines read evallab's tables through the manifest
# (`evallab.read_*`, never a glob), and `balance`/`calibrate`/`eas` can reduce the
# per-part facts a cluster computes (`evallab facts`, `--facts DIR`). This notebook
# reads the demo dataset with three engines, checks they agree, runs one group-by on a
# local Dask cluster, and checks the demo pipeline's balance from facts equals the
# one-process balance.

# %% tags=["parameters"]
import os

DATASET = os.environ.get("EVALLAB_DATASET", "../demo-dataset")

# %%
from pathlib import Path

import polars as pl

from evallab import parts
from evallab.read import read_dask, read_duckdb, read_polars

root = Path(DATASET)
print(len(parts(root, "moves")), "committed part(s) of `moves`")

# %% [markdown]
# ## Three readers, one answer
#
# Plies and the sum of the engines' own evals per side, from polars, DuckDB and Dask.

# %%
by_polars = (
    read_polars(root, "moves")
    .group_by("side")
    .agg(plies=pl.len(), eval_sum=pl.col("eval_cp").cast(pl.Int64).sum())
    .sort("side")
    .collect()
)
by_duckdb = pl.from_arrow(
    read_duckdb(root, "moves")
    .aggregate("side, count(*) AS plies, sum(eval_cp)::BIGINT AS eval_sum", "side")
    .order("side")
    .arrow()
)
moves_dask = read_dask(root, "moves", columns=["side", "eval_cp"])
g = moves_dask.groupby("side")["eval_cp"]
by_dask = (
    pl.from_pandas(g.agg(["count", "sum"]).compute().reset_index())
    .rename({"count": "evals", "sum": "eval_sum"})
    .sort("side")
)
print(by_polars)
assert by_polars.select("side", "plies").equals(by_duckdb.select("side", "plies").cast({"plies": pl.UInt32}))
assert (by_polars["eval_sum"] == by_duckdb["eval_sum"]).all()
assert (by_polars["eval_sum"] == by_dask["eval_sum"].cast(pl.Int64)).all()
print("polars, DuckDB and Dask agree on", by_polars["plies"].sum(), "plies")

# %% [markdown]
# ## On a (local) Dask cluster
#
# The same Dask code runs on any cluster: here a local one with threads; point
# `Client("tcp://scheduler:8786")` at a real one (all workers must see the dataset).

# %%
from dask.distributed import Client, LocalCluster

with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster:
    with Client(cluster):
        games = read_dask(root, "games", columns=["event", "result"])
        per_event = games.groupby("event")["result"].count().compute()
print(per_event.sort_index())
assert int(per_event.sum()) == read_polars(root, "games").select(pl.len()).collect().item()

# %% [markdown]
# ## Statistics from per-part facts
#
# The demo pipeline runs `evallab facts` (the map step, one file per part) and
# `evallab balance --facts` (the reduce); the result must be the one-process balance,
# byte for byte. On a dataset without the demo pipeline's `results/` (the archive
# pipeline writes to `--set out=`), both run here, the facts into a scratch folder.

# %%
if (root / "results/balance_from_facts.csv").exists():
    one = (root / "results/balance.csv").read_bytes()
    assert one == (root / "results/balance_from_facts.csv").read_bytes(), "balance from facts differs"
    one = reduced = pl.read_csv(root / "results/balance_from_facts.csv")
else:
    import tempfile

    import evallab
    from evallab.api import run

    ds = evallab.Dataset(root)
    with tempfile.TemporaryDirectory() as scratch:
        run(["facts", str(root), "-o", f"{scratch}/facts", "--quiet"])
        reduced = ds.balance(by="event,engine", facts=f"{scratch}/facts")
    one = ds.balance(by="event,engine")
assert one.equals(reduced), "balance from facts differs from the one-process balance"
print(reduced.head())
print(f"balance from the per-part facts == one-process balance ({one.height} rows)")

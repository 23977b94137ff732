"""Read evallab datasets from Python, and run evallab's work on a Dask cluster.

A dataset's ``manifest.json`` is its commit point: it lists exactly the Parquet
files that belong to each table. Read through it, never with a glob — a glob also
picks up parts that a failed or still-running writer left uncommitted (and the
uncommitted shards of a distributed ingest under ``DATASET/shards/``).

>>> import polars as pl
>>> from evallab import parts
>>> moves = pl.scan_parquet(parts("demo-dataset", "moves"))  # doctest: +SKIP

The ``read_*`` helpers open a table with one engine each (polars, DuckDB, Dask,
PySpark); ``evallab.cluster`` is the ``evallab-dask`` driver and
``evallab.checksums`` compares the content of two datasets.
"""

import json
from pathlib import Path

from evallab.read import read_dask, read_duckdb, read_polars, read_spark

__all__ = ["manifest", "parts", "read_dask", "read_duckdb", "read_polars", "read_spark"]


def manifest(dataset):
    """The dataset's manifest (a dict), or FileNotFoundError naming the folder."""
    path = Path(dataset) / "manifest.json"
    if not path.is_file():
        raise FileNotFoundError(f"{dataset}: not an evallab dataset (no manifest.json)")
    return json.loads(path.read_text())


BASE_TABLES = ("games", "moves", "rejects")


def parts(dataset, table):
    """The committed Parquet files of ``table``, in commit order, as strings.

    Base tables come from the ingest runs (one per shard after a distributed
    ingest); ``analysis`` and ``analysis_failures`` from the chunks of each
    engine analysis.
    """
    root = Path(dataset)
    m = manifest(dataset)
    out = []
    for run in m["runs"]:
        # Manifests written before runs listed their files: one part per base table.
        files = run.get("files") or {t: f"{t}/part-{run['part']:06d}.parquet" for t in BASE_TABLES}
        if table in files:
            out.append(str(root / files[table]))
    for analysis in m.get("analyses", []):
        for chunk in analysis["chunks"]:
            if table in chunk["files"]:
                out.append(str(root / chunk["files"][table]))
    return out

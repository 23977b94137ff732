"""Read evallab datasets from Python, and run evallab's work on a Dask cluster.

A dataset's ``manifest.json`` is its commit point: it lists exactly the Parquet
files that belong to each table. Read through it, never with a glob — a glob also
picks up parts that a failed or still-running writer left uncommitted (and the
uncommitted shards of a distributed ingest under ``DATASET/shards/``).
The module ``evallab.manifest`` reads it (its ``manifest`` and ``parts`` are
exported here; ``from evallab.manifest import files, inputs, engine_run`` for
the rest).

>>> import polars as pl
>>> from evallab import parts
>>> moves = pl.scan_parquet(parts("demo-dataset", "moves"))  # doctest: +SKIP

The ``read_*`` helpers open a table with one engine each (polars, DuckDB, Dask,
PySpark); ``evallab.cluster`` is the ``evallab-dask`` driver and
``evallab.checksums`` compares the content of two datasets.
"""

from evallab.manifest import manifest, parts
from evallab.read import read_dask, read_duckdb, read_polars, read_spark

__all__ = ["manifest", "parts", "read_dask", "read_duckdb", "read_polars", "read_spark"]

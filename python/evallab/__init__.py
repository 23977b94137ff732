"""evallab from Python: the API over a dataset (``Dataset``, ``ingest``), the
readers of its tables, and ``evallab-dask``.

``pip install .`` (a clone) or ``pip install evallab-*.whl`` installs the
``evallab`` binary and this package together; :mod:`evallab.api` runs that
binary and returns polars frames:

>>> import evallab
>>> ds = evallab.Dataset("demo-dataset")                    # doctest: +SKIP
>>> ds.balance(by="engine")                                 # doctest: +SKIP
>>> ds.scan("moves")                                        # doctest: +SKIP

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
``evallab.checksums`` compares the content of two datasets; ``in_event_order``
puts a frame you grouped by event in the binary's order (Season 4 before
Season 10). A failed command
raises an :mod:`evallab.errors` exception.
"""

from evallab.api import Dataset, ingest
from evallab.errors import EvallabError
from evallab.manifest import manifest, parts
from evallab.order import in_event_order, natural_key
from evallab.read import read_dask, read_duckdb, read_polars, read_spark

__all__ = [
    "Dataset",
    "EvallabError",
    "in_event_order",
    "ingest",
    "manifest",
    "natural_key",
    "parts",
    "read_dask",
    "read_duckdb",
    "read_polars",
    "read_spark",
]

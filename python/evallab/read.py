"""One table of a dataset, opened by polars, DuckDB, Dask or PySpark.

Each helper reads exactly the files :func:`evallab.parts` lists (the
manifest's), so uncommitted parts are never read. The engines are imported
when called: install the ones you use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from evallab.manifest import Folder, parts

if TYPE_CHECKING:
    import dask.dataframe
    import duckdb
    import polars
    import pyspark.sql


def _files(dataset: Folder, table: str) -> list[str]:
    files = parts(dataset, table)
    if not files:
        raise ValueError(f"{dataset}: no committed parts of table {table!r}")
    return files


def read_polars(dataset: Folder, table: str) -> polars.LazyFrame:
    """A polars LazyFrame over the table."""
    import polars as pl

    return pl.scan_parquet(_files(dataset, table))


def read_duckdb(
    dataset: Folder, table: str, con: duckdb.DuckDBPyConnection | None = None
) -> duckdb.DuckDBPyRelation:
    """A DuckDB relation over the table (on ``con``, or DuckDB's default connection)."""
    import duckdb

    con = con or duckdb.default_connection()
    return con.read_parquet(_files(dataset, table))


def read_dask(dataset: Folder, table: str, **kwargs: Any) -> dask.dataframe.DataFrame:
    """A Dask DataFrame over the table, one partition per part (or row group)."""
    import dask.dataframe as dd

    df: dask.dataframe.DataFrame = dd.read_parquet(_files(dataset, table), **kwargs)
    return df


def read_spark(spark: pyspark.sql.SparkSession, dataset: Folder, table: str) -> pyspark.sql.DataFrame:
    """A Spark DataFrame over the table, read by the SparkSession ``spark``.

    Spark has no unsigned integers: u8/u16 columns come back widened (as
    smallint/int), u32 as bigint; the values are the same.
    """
    return spark.read.parquet(*_files(dataset, table))

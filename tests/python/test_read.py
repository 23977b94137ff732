"""The Parquet tables of a dataset read in Python with polars, pyarrow and DuckDB.

Run with EVALLAB_DATASET pointing at a dataset written by `evallab ingest`
(`.ci/run` ingests data/demo and data/fixtures for it).
"""

import json
import os
import shutil
from pathlib import Path

import duckdb
import polars as pl
import pyarrow.parquet as pq
import pytest

import evallab

DATASET = Path(os.environ.get("EVALLAB_DATASET", "target/ci-dataset"))
TABLES = ("games", "moves", "rejects")


@pytest.fixture(scope="module")
def manifest():
    if not (DATASET / "manifest.json").exists():
        pytest.fail(f"no dataset at {DATASET}; set EVALLAB_DATASET")
    return json.loads((DATASET / "manifest.json").read_text())


def parts(manifest, table):
    files = evallab.parts(DATASET, table)
    assert len(files) == len(manifest["runs"])
    return files


def test_parts_skip_uncommitted_files(manifest, tmp_path):
    """Issue 9, defect 7: a glob reads a part no manifest lists; `parts` does not."""
    copy = tmp_path / "ds"
    shutil.copytree(DATASET, copy)
    committed = evallab.parts(copy, "games")
    shutil.copy(committed[0], copy / "games" / "part-999999.parquet")  # a dead writer's part
    n_manifest = sum(i["games"] for r in manifest["runs"] for i in r["inputs"])
    n_parts = pl.scan_parquet(evallab.parts(copy, "games")).select(pl.len()).collect().item()
    n_glob = pl.scan_parquet(f"{copy}/games/*.parquet").select(pl.len()).collect().item()
    assert n_parts == n_manifest
    assert n_glob > n_manifest


def test_counts_agree_across_readers(manifest):
    games = sum(i["games"] for r in manifest["runs"] for i in r["inputs"])
    plies = sum(i["plies"] for r in manifest["runs"] for i in r["inputs"])
    rejects = sum(i["rejects"] for r in manifest["runs"] for i in r["inputs"])
    expected = {"games": games, "moves": plies, "rejects": rejects}
    for table in TABLES:
        files = parts(manifest, table)
        n_polars = pl.scan_parquet(files).select(pl.len()).collect().item()
        n_arrow = sum(pq.read_metadata(f).num_rows for f in files)
        n_duck = duckdb.sql(f"select count(*) from read_parquet({files!r})").fetchall()[0][0]
        assert n_polars == n_arrow == n_duck == expected[table], table


def test_schema_version_and_types(manifest):
    for table in TABLES:
        for f in parts(manifest, table):
            meta = pq.read_metadata(f).metadata
            assert meta[b"evallab.schema_version"] == manifest["schema_version"].encode()
    moves = pl.scan_parquet(parts(manifest, "moves")).collect_schema()
    assert moves["game_id"] == pl.Int64
    assert moves["eval_cp"] == pl.Int32
    assert moves["mate"] == pl.Int16
    assert moves["san"] == pl.String
    games = pl.scan_parquet(parts(manifest, "games")).collect_schema()
    assert games["date"] == pl.Date


def test_join_games_and_moves(manifest):
    games = pl.scan_parquet(parts(manifest, "games"))
    moves = pl.scan_parquet(parts(manifest, "moves"))
    per_game = moves.group_by("game_id").agg(pl.len().alias("n"))
    joined = games.join(per_game, on="game_id", how="left").collect()
    assert (joined["n"].fill_null(0) == joined["plies"].cast(pl.UInt32)).all()
    # The same join in DuckDB.
    g, m = parts(manifest, "games"), parts(manifest, "moves")
    bad = duckdb.sql(
        f"""select count(*) from read_parquet({g!r}) g
            left join (select game_id, count(*) n from read_parquet({m!r}) group by 1) m
            using (game_id) where coalesce(m.n, 0) <> g.plies"""
    ).fetchall()[0][0]
    assert bad == 0


def test_parts_lists_analysis_chunks(tmp_path):
    """`parts` lists an analysis' chunks after the ingest runs, in commit order."""
    (tmp_path / "manifest.json").write_text(
        json.dumps(
            {
                "runs": [{"part": 1, "files": {"games": "games/part-000001.parquet"}}],
                "analyses": [
                    {
                        "label": "a",
                        "chunks": [
                            {"files": {"analysis": "analysis/part-000002.parquet"}},
                            {"files": {"analysis": "analysis/part-000003.parquet"}},
                        ],
                    }
                ],
            }
        )
    )
    assert evallab.parts(tmp_path, "analysis") == [
        str(tmp_path / "analysis/part-000002.parquet"),
        str(tmp_path / "analysis/part-000003.parquet"),
    ]
    assert evallab.parts(tmp_path, "games") == [str(tmp_path / "games/part-000001.parquet")]


def test_read_helpers_agree(manifest):
    """`read_polars`, `read_duckdb` and `read_dask` read the committed rows,
    with the same sum of a column (a content check beyond the counts)."""
    dask = pytest.importorskip("dask")  # noqa: F841 (installed by .ci/run)
    for table, column in (("games", "plies"), ("moves", "ply")):
        expected = sum(sum(pq.read_table(f, columns=[column])[column].to_pylist()) for f in parts(manifest, table))
        p = evallab.read_polars(DATASET, table).select(pl.col(column).cast(pl.Int64).sum()).collect().item()
        d = evallab.read_duckdb(DATASET, table).aggregate(f"sum({column})::bigint").fetchall()[0][0]
        k = int(evallab.read_dask(DATASET, table)[column].astype("int64").sum().compute())
        assert p == d == k == expected, table


def test_read_spark(manifest):
    """PySpark reads the tables as they are (unsigned columns widened). Runs where a JRE
    and pyspark are present (`.ci/run` installs pyspark when `java` is there)."""
    if not shutil.which("java"):
        pytest.skip("SKIPPED: no JRE (java) for PySpark")
    if os.environ.get("CI"):
        import pyspark  # noqa: F401 (CI installs it where java is)
    pyspark_sql = pytest.importorskip("pyspark.sql")
    spark = (pyspark_sql.SparkSession.builder.master("local[1]")
             .config("spark.ui.enabled", "false").getOrCreate())
    try:
        moves = evallab.read_spark(spark, DATASET, "moves")
        games = evallab.read_spark(spark, DATASET, "games")
        plies = sum(i["plies"] for r in manifest["runs"] for i in r["inputs"])
        assert moves.count() == plies
        assert games.join(moves, "game_id").count() == plies
        # u32 `ply` is widened (bigint), not changed.
        top = moves.agg({"ply": "max"}).collect()[0][0]
        assert top == pl.scan_parquet(parts(manifest, "moves")).select(pl.col("ply").max()).collect().item()
    finally:
        spark.stop()


def test_in_event_order_is_the_binarys(tmp_path):
    """A frame grouped by event in Python, put in order by
    ``evallab.in_event_order``, lists the events as the binary's tables do
    (Rust's ``render::order``): names where text and number order differ."""
    names = [
        "TCEC Season 10 - Superfinal",
        "TCEC Season 9 - Stage 1a",
        "TCEC Season 9 - Superfinal",
        "TCEC Season 9 - Stage 10",
        "TCEC Cup 2",
        "Match 10",
        "Match 2",
        "S 1.10",
        "S 1.5",
        "S 99999999999999999999",
        "S 18446744073709551615",
        "S 04",
        "S 4",
        "Bonus",
    ]
    pgn = "".join(
        f'[Event "{e}"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n' for e in names
    )
    (tmp_path / "e.pgn").write_text(pgn)
    ds = evallab.ingest(tmp_path / "e.pgn", tmp_path / "ds")
    binary = ds.standings()["event"].unique(maintain_order=True).to_list()
    mine = (
        ds.scan("games").group_by("event").agg(pl.len()).sort("event").collect()
    )
    assert evallab.in_event_order(mine)["event"].to_list() == binary
    assert binary[:3] == ["Bonus", "Match 2", "Match 10"]

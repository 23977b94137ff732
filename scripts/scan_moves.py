#!/usr/bin/env python3
"""Read speed of an ingest's output: the dataset's size and the time polars
takes to scan the `moves` table, one numeric column and the PV column.

    scripts/scan_moves.py DATASET [DATASET ...]

For each dataset: its size on disk, then the fastest of 5 runs of
`sum(eval_cp)` and of `sum(len_bytes(pv))` over every `moves` part the
manifest lists. scripts/bench_ingest.sh runs it on the old and the new
binary's output, so that a faster write is not bought with a slower read.
"""

import json
import sys
import time
from pathlib import Path

import polars as pl

RUNS = 5


def fastest(query: pl.LazyFrame) -> float:
    best = float("inf")
    for _ in range(RUNS):
        t = time.perf_counter()
        query.collect()
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print(f"{'dataset':40} {'size_MB':>8} {'scan eval_cp s':>15} {'scan pv s':>10}")
    for ds in map(Path, sys.argv[1:]):
        manifest = json.loads((ds / "manifest.json").read_text())
        parts = [str(ds / r["files"]["moves"]) for r in manifest["runs"] if "moves" in r["files"]]
        size = sum(f.stat().st_size for f in ds.rglob("*") if f.is_file())
        moves = pl.scan_parquet(parts)
        numeric = fastest(moves.select(pl.col("eval_cp").sum()))
        pv = fastest(moves.select(pl.col("pv").str.len_bytes().sum()))
        print(f"{str(ds):40} {size / 1e6:8.1f} {numeric:15.3f} {pv:10.3f}")


if __name__ == "__main__":
    main()

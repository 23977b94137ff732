#!/usr/bin/env python3
"""Checksums of a dataset's table contents, independent of how they are stored.

    scripts/table_checksums.py DATASET [TABLE ...]     (default: games moves rejects)

For each table: the rows of every Parquet part listed in DATASET/manifest.json,
sorted by all columns, serialised as CSV (polars), hashed with sha256; the
column names and types are hashed too. Two datasets print the same lines if and
only if their tables hold the same rows, whatever the row order, the row
groups, page sizes, encodings or codecs. The speed work on the ingest
(scripts/bench_ingest.sh) uses it to show that the output did not change.
"""

import hashlib
import json
import sys
from pathlib import Path

import polars as pl

# Rows per CSV slice: bounds the memory of the serialisation.
SLICE = 200_000


def parts(root: Path, table: str) -> list[str]:
    manifest = json.loads((root / "manifest.json").read_text())
    return [str(root / run["files"][table]) for run in manifest["runs"] if table in run["files"]]


def checksum(files: list[str]) -> tuple[int, str]:
    df = pl.read_parquet(files)
    df = df.sort(df.columns, nulls_last=True, maintain_order=False)
    h = hashlib.sha256()
    h.update(repr([(c, str(t)) for c, t in df.schema.items()]).encode())
    for start in range(0, df.height, SLICE):
        h.update(df.slice(start, SLICE).write_csv(include_header=False).encode())
    return df.height, h.hexdigest()


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root = Path(sys.argv[1])
    for table in sys.argv[2:] or ["games", "moves", "rejects"]:
        files = parts(root, table)
        if not files:
            print(f"{table:10} no parts")
            continue
        rows, digest = checksum(files)
        print(f"{table:10} {rows:>10} rows  sha256 {digest}")


if __name__ == "__main__":
    main()

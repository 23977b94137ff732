"""Content checksums of a dataset's tables, independent of how they were split
into parts: the sha256 of every row, as NDJSON, in key order.

``python -m evallab.checksums DATASET [DATASET ...]`` prints one line per table
and dataset (rows, sha256); two datasets hold the same rows exactly when their
lines match.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Sequence

import polars as pl

from evallab.manifest import Folder, parts

BATCH = 100_000

# The key that orders each table's rows (unique per row).
KEYS = {
    "games": ["game_id"],
    "moves": ["game_id", "ply"],
    "rejects": ["game_id"],
}


def table_checksum(dataset: Folder, table: str) -> tuple[int, str]:
    """(rows, sha256 hex) of a table's content; rows 0 for a table without parts."""
    files = parts(dataset, table)
    if not files:
        return 0, hashlib.sha256().hexdigest()
    keys = KEYS[table]
    rows = pl.scan_parquet(files).sort(keys).collect()
    if rows.select(keys).is_duplicated().any():
        raise ValueError(f"{dataset}: {table} has rows with the same {keys}")
    h = hashlib.sha256()
    for start in range(0, rows.height, BATCH):
        h.update(rows.slice(start, BATCH).write_ndjson().encode())
    return rows.height, h.hexdigest()


def checksums(dataset: Folder, tables: Sequence[str] = tuple(KEYS)) -> dict[str, tuple[int, str]]:
    """{table: (rows, sha256)} of the dataset's base tables."""
    return {t: table_checksum(dataset, t) for t in tables}


def main(argv: Sequence[str] | None = None) -> None:
    """Prints the checksums; with several datasets, exits 1 unless all are equal."""
    datasets = list(argv if argv is not None else sys.argv[1:]) or ["."]
    sums = []
    for ds in datasets:
        sums.append(checksums(ds))
        for table, (rows, digest) in sums[-1].items():
            print(f"{table}\t{rows}\t{digest}\t{ds}")
    if len(sums) > 1:
        same = all(s == sums[0] for s in sums)
        print("identical" if same else "DIFFERENT")
        sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()

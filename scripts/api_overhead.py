"""Per-call overhead of the Python API: ``Dataset.balance()`` against the same
command run directly (``evallab balance DATASET --format parquet -o FILE``).

    python scripts/api_overhead.py DATASET [RUNS]

Runs both alternately in one process, in alternating order (so machine load
hits both alike), and
prints the median and quartiles of each, their difference, and what the
difference is made of: reading the result Parquet back, and the temporary folder.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl

import evallab
from evallab.api import binary


def timed(f: Callable[[], object]) -> float:
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def main() -> None:
    dataset = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    ds = evallab.Dataset(dataset)
    exe = binary()
    out = Path(tempfile.mkdtemp()) / "out.parquet"

    def cli() -> None:
        subprocess.run([exe, "balance", dataset, "--format", "parquet", "-o", str(out)], check=True)

    cli()
    ds.balance()  # warm: page cache, imports
    samples: dict[str, list[float]] = {"cli": [], "api": [], "read": [], "tmpdir": []}
    for i in range(runs):
        # Alternate which goes first, so that neither always follows the other.
        for key in ("cli", "api") if i % 2 == 0 else ("api", "cli"):
            samples[key].append(timed(cli if key == "cli" else ds.balance))
        samples["read"].append(timed(lambda: pl.read_parquet(out)))
        samples["tmpdir"].append(timed(lambda: tempfile.TemporaryDirectory().cleanup()))
    print(f"{runs} runs each on {dataset} ({ds.balance().height} result rows); ms")
    print(f"{'':28} {'median':>8} {'q1':>8} {'q3':>8}")
    names = {
        "cli": "evallab balance (subprocess)",
        "api": "Dataset.balance()",
        "read": "  read the result Parquet",
        "tmpdir": "  a temporary folder",
    }
    for key, label in names.items():
        q = statistics.quantiles(samples[key], n=4)
        print(f"{label:28} {1e3 * statistics.median(samples[key]):8.2f} {1e3 * q[0]:8.2f} {1e3 * q[2]:8.2f}")
    diff = [a - c for a, c in zip(samples["api"], samples["cli"])]
    print(f"{'API - CLI (paired)':28} {1e3 * statistics.median(diff):8.2f}")


if __name__ == "__main__":
    main()

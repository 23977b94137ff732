"""Read evallab datasets from Python.

A dataset's ``manifest.json`` is its commit point: it lists exactly the Parquet
files that belong to each table. Read through it, never with a glob — a glob also
picks up parts that a failed or still-running writer left uncommitted.

>>> import polars as pl
>>> from evallab import parts
>>> moves = pl.scan_parquet(parts("demo-dataset", "moves"))  # doctest: +SKIP
"""

import json
from pathlib import Path

__all__ = ["manifest", "parts"]


def manifest(dataset):
    """The dataset's manifest (a dict), or FileNotFoundError naming the folder."""
    path = Path(dataset) / "manifest.json"
    if not path.is_file():
        raise FileNotFoundError(f"{dataset}: not an evallab dataset (no manifest.json)")
    return json.loads(path.read_text())


BASE_TABLES = ("games", "moves", "rejects")


def parts(dataset, table):
    """The committed Parquet files of ``table``, in commit order, as strings.

    Base tables come from the ingest runs; ``analysis`` and
    ``analysis_failures`` from the chunks of each engine analysis.
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

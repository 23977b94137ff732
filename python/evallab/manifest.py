"""A dataset's ``manifest.json``: its ingest runs, the files of each table, its
engine runs. The one place the Python package reads the manifest.

The manifest is the dataset's commit point: it lists exactly the Parquet files
that belong to each table. Read a table through it, never with a glob — a glob
also picks up parts that a failed or still-running writer left uncommitted (and
the uncommitted shards under ``DATASET/shards/``).

Its layout is described by the JSON schema ``docs/reference/manifest.schema.json``
(``evallab schema --manifest-json``; a Rust test checks it against the types
that write the file);
``tests/python/test_manifest.py`` checks manifests evallab writes against it,
and the keys this module reads against it.

>>> from evallab import manifest, parts
>>> m = manifest("demo-dataset")                      # doctest: +SKIP
>>> files = parts("demo-dataset", "moves")            # doctest: +SKIP

(The package exports the functions: ``from evallab import manifest`` is the
function below, so write ``from evallab.manifest import ...`` rather than
``import evallab.manifest as ...`` for anything else of this module.)
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Union

from evallab.errors import DatasetError, NotADatasetError

#: A dataset folder.
Folder = Union[str, "os.PathLike[str]"]

FILE = "manifest.json"

# The tables of an ingest run. Manifests written before runs listed their
# files had one part per base table, numbered as the run.
BASE_TABLES = ("games", "moves", "rejects")


def manifest(dataset: Folder) -> dict[str, Any]:
    """The dataset's manifest (a dict), or
    :class:`~evallab.errors.NotADatasetError` (a ``DatasetError``, and a
    ``FileNotFoundError``) naming the folder and what it lacks."""
    folder = Path(dataset)
    path = folder / FILE
    if not path.is_file():
        missing = "no such folder" if not folder.exists() else "not a folder" if not folder.is_dir() else f"no {FILE}"
        raise NotADatasetError(
            f"{os.fspath(dataset)}: not an evallab dataset ({missing}); create one with evallab.ingest(INPUTS, OUTPUT)",
            os.fspath(dataset),
        )
    m: dict[str, Any] = json.loads(path.read_text())
    return m


def run_files(run: Mapping[str, Any]) -> dict[str, str]:
    """Table name -> file (relative to the dataset folder) of one ingest run."""
    listed: dict[str, str] | None = run.get("files")
    return listed or {t: f"{t}/part-{run['part']:06d}.parquet" for t in BASE_TABLES}


def engine_runs(m: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The engine runs (``analyze``, ``match``, ``policy``), each with its chunks."""
    runs: list[dict[str, Any]] = m.get("analyses", [])
    return runs


def engine_run(m: Mapping[str, Any], label: str) -> dict[str, Any]:
    """The engine run with this label, or KeyError listing the labels."""
    for run in engine_runs(m):
        if run["label"] == label:
            return run
    labels = ", ".join(r["label"] for r in engine_runs(m)) or "none"
    raise KeyError(f"no engine run {label!r} in the manifest (runs: {labels})")


def inputs(m: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every input of every ingest run (path, size, sha256 and counts)."""
    return [i for run in m["runs"] for i in run["inputs"]]


def _units(m: Mapping[str, Any]) -> list[dict[str, str]]:
    """Table name -> file of each commit unit, in commit order: the ingest runs
    (one per shard after a distributed ingest), then the chunks of each engine run."""
    units = [run_files(run) for run in m["runs"]]
    units += [chunk["files"] for run in engine_runs(m) for chunk in run["chunks"]]
    return units


def files(m: Mapping[str, Any], table: str) -> list[str]:
    """The committed files of ``table``, relative to the dataset folder, in
    commit order: the ingest runs' (one per shard after a distributed ingest),
    then the chunks of each engine run."""
    return [u[table] for u in _units(m) if table in u]


def tables(m: Mapping[str, Any]) -> list[str]:
    """The tables with committed files, in the order they first appear."""
    names: dict[str, None] = {}
    for u in _units(m):
        names.update(dict.fromkeys(u))
    return list(names)


def parts(dataset: Folder, table: str) -> list[str]:
    """The committed Parquet files of ``table``, in commit order, as strings;
    a :class:`~evallab.errors.DatasetError` naming each part whose size is not
    the one the manifest recorded at its commit (cut or replaced since), as
    every evallab command checks."""
    root = Path(dataset)
    m = manifest(dataset)
    listed = files(m, table)
    sums = m.get("sums", {})
    changed = [
        f"{f} ({size} bytes, committed with {sums[f]['bytes']})"
        for f in listed
        if f in sums and (size := (root / f).stat().st_size if (root / f).is_file() else 0) != sums[f]["bytes"]
    ]
    if changed:
        raise DatasetError(
            f"{os.fspath(dataset)}: {len(changed)} part(s) changed after their commit: {', '.join(changed)}; "
            "restore them, or rebuild the dataset with `evallab ingest --overwrite`"
        )
    return [str(root / f) for f in listed]

#!/usr/bin/env python3
"""Compare the output trees that scripts/same_outputs.sh wrote for two evallab binaries.

    scripts/same_outputs.py OLD_SIDE NEW_SIDE [--version-old V] [--version-new V]

OLD_SIDE and NEW_SIDE hold the same relative paths (each binary ran with its
side as the working directory and relative paths only). Every file of either
side is compared with its namesake on the other; one line per comparison:

    same  PATH  (how)          or          DIFF  PATH  (how: why)

How each kind of file is compared (a difference in any of these is a failure):

- a dataset (a folder with manifest.json): manifest.json with its volatile
  fields removed (started_unix, seconds and any *_unix time, tool_version,
  pipeline stamps, the lock's pid/host), then every table the manifest lists
  (runs and engine-run chunks), by the sha256 of its sorted rows (as
  scripts/table_checksums.py: storage, row order across parts and Parquet
  metadata such as the tool version do not count; the timing columns of
  `analysis` (nps, time_ms) are dropped: they are wall-clock). The part files
  themselves are then not compared one by one, and `.evallab.lock` (pid,
  host, start time of the last writer) is skipped.
- any other Parquet file (an output): the sha256 of its rows in file order,
  with the column names and types; a difference says whether the sorted rows
  still agree (row order only).
- NAME.rc (exit codes) and NAME.out (stdout) and every other file (CSV, JSON,
  TOML, SVG, HTML, PGN, match logs and results): sha256 of the bytes after
  three normalisations, which this script counts and prints: `evallab
  VERSION` (each binary's own version) becomes `evallab <version>`; the
  match logs' `Date: YYYY-MM-DD` (the day the engine run started) becomes
  `Date: <date>`; an absolute path of the side folder becomes `<side>` (none
  is expected: every path given is relative).
- NAME.err (stderr): compared the same way but reported separately, as
  information only (timings, rates and progress live there).

Exit status: 0 when everything is the same, 1 otherwise.
"""

import argparse
import hashlib
import json
import os
import re
import sys
from pathlib import Path

import polars as pl

SLICE = 200_000
# Manifest / pipeline-state keys whose values are wall-clock or build facts.
VOLATILE_KEYS = {"started_unix", "seconds", "tool_version", "stamp", "evallab", "pid", "host", "since_unix"}
# Wall-clock columns of the engine tables.
TIMING_COLUMNS = {"analysis": ["nps", "time_ms"]}
# Inputs the sides share (not outputs).
INPUT_DIRS = {"data", "tcec", "pipelines"}


class Normaliser:
    def __init__(self, root: Path, versions: list[str]):
        self.root = str(root.resolve())
        self.versions = [v for v in versions if v]
        self.counts: dict[str, int] = {}

    def text(self, data: bytes) -> bytes:
        for v in self.versions:
            needle = f"evallab {v}".encode()
            if needle in data:
                self.counts["evallab VERSION"] = self.counts.get("evallab VERSION", 0) + 1
                data = data.replace(needle, b"evallab <version>")
        new, n = re.subn(rb"^Date: \d{4}-\d{2}-\d{2}", b"Date: <date>", data, flags=re.M)
        if n:
            self.counts["match log Date"] = self.counts.get("match log Date", 0) + 1
            data = new
        root = self.root.encode()
        if root in data:
            self.counts["absolute side path"] = self.counts.get("absolute side path", 0) + 1
            data = data.replace(root, b"<side>")
        return data


def strip_volatile(v):
    if isinstance(v, dict):
        return {k: strip_volatile(x) for k, x in v.items() if k not in VOLATILE_KEYS and not k.endswith("_unix")}
    if isinstance(v, list):
        return [strip_volatile(x) for x in v]
    return v


def frame_digest(df: pl.DataFrame, sort: bool) -> str:
    """sha256 of the column names and types and of the rows as CSV (nested
    columns as JSON), in the frame's order or sorted by every column."""
    nested = [c for c, t in df.schema.items() if t.is_nested() or t == pl.Object]
    if nested:
        df = df.with_columns(pl.struct(pl.col(c)).struct.json_encode().alias(c) for c in nested)
    if sort and df.width:
        df = df.sort(df.columns, nulls_last=True, maintain_order=False)
    h = hashlib.sha256()
    h.update(repr([(c, str(t)) for c, t in df.schema.items()]).encode())
    h.update(str(df.height).encode())
    for start in range(0, df.height, SLICE):
        h.update(df.slice(start, SLICE).write_csv(include_header=False).encode())
    return h.hexdigest()


def manifest_tables(ds: Path) -> dict[str, list[str]]:
    """Table name -> the part files the manifest lists, in manifest order."""
    m = json.loads((ds / "manifest.json").read_text())
    units = m.get("runs", []) + [c for a in m.get("analyses", []) for c in a.get("chunks", [])]
    tables: dict[str, list[str]] = {}
    for u in units:
        for table, f in u.get("files", {}).items():
            tables.setdefault(table, []).append(f)
    return tables


class Comparison:
    def __init__(self, old: Path, new: Path, versions: tuple[list[str], list[str]]):
        self.old, self.new = old, new
        self.norm = (Normaliser(old, versions[0]), Normaliser(new, versions[1]))
        self.same = 0
        self.diff: list[str] = []
        self.stderr_same = 0
        self.stderr_diff: list[str] = []

    def report(self, name: str, how: str, ok: bool, why: str = "") -> None:
        if ok:
            self.same += 1
            print(f"same  {name}  ({how})")
        else:
            self.diff.append(name)
            print(f"DIFF  {name}  ({how}: {why})")

    def text_equal(self, rel: str) -> tuple[bool, str]:
        a = self.norm[0].text((self.old / rel).read_bytes())
        b = self.norm[1].text((self.new / rel).read_bytes())
        if a == b:
            return True, ""
        al, bl = a.splitlines(), b.splitlines()
        for i, (x, y) in enumerate(zip(al, bl)):
            if x != y:
                return False, f"line {i + 1}: {x[:100]!r} vs {y[:100]!r}"
        return False, f"{len(al)} vs {len(bl)} lines"

    def dataset(self, rel: str) -> set[str]:
        """Compares a dataset; returns the files it covered."""
        covered = {f"{rel}/manifest.json", f"{rel}/.evallab.lock"}
        sides = [json.loads((s / rel / "manifest.json").read_text()) for s in (self.old, self.new)]
        a, b = (strip_volatile(m) for m in sides)
        why = ""
        if a != b:
            ja, jb = (json.dumps(x, indent=1, sort_keys=True).splitlines() for x in (a, b))
            why = next((f"{x.strip()[:90]} vs {y.strip()[:90]}" for x, y in zip(ja, jb) if x != y), "length")
        self.report(f"{rel}/manifest.json", "volatile fields removed", a == b, why)
        ta, tb = manifest_tables(self.old / rel), manifest_tables(self.new / rel)
        for table in sorted(set(ta) | set(tb)):
            for side, t in ((self.old, ta), (self.new, tb)):
                covered.update(f"{rel}/{f}" for f in t.get(table, []))
            name = f"{rel} table {table}"
            if table not in ta or table not in tb:
                self.report(name, "sorted rows", False, "only on one side")
                continue
            digests = []
            for side, t in ((self.old, ta), (self.new, tb)):
                df = pl.read_parquet([str(side / rel / f) for f in t[table]])
                df = df.drop([c for c in TIMING_COLUMNS.get(table, []) if c in df.columns])
                digests.append((df.height, frame_digest(df, sort=True)))
            how = f"{digests[0][0]} rows, sorted" + (", without " + "/".join(TIMING_COLUMNS[table]) if table in TIMING_COLUMNS else "")
            self.report(name, how, digests[0] == digests[1], f"{digests[0][0]} vs {digests[1][0]} rows, content differs")
        return covered

    def parquet(self, rel: str) -> None:
        dfs = [pl.read_parquet(s / rel) for s in (self.old, self.new)]
        if frame_digest(dfs[0], False) == frame_digest(dfs[1], False):
            self.report(rel, f"Parquet content, {dfs[0].height} rows in order", True)
        elif frame_digest(dfs[0], True) == frame_digest(dfs[1], True):
            self.report(rel, "Parquet content", False, "same rows, other order")
        else:
            self.report(rel, "Parquet content", False, f"{dfs[0].height} vs {dfs[1].height} rows, content differs")

    def run(self) -> int:
        files = set()
        for side in (self.old, self.new):
            for dirpath, dirnames, filenames in os.walk(side):
                relp = Path(dirpath).relative_to(side)
                if relp == Path("."):
                    dirnames[:] = sorted(d for d in dirnames if d not in INPUT_DIRS)
                    filenames = [f for f in filenames if f not in INPUT_DIRS]
                files.update(str(relp / f) if relp != Path(".") else f for f in filenames)
        # Datasets first (they cover their part files), shallowest first.
        datasets = sorted({str(Path(f).parent) for f in files if Path(f).name == "manifest.json"}, key=lambda p: (p.count("/"), p))
        covered: set[str] = set()
        for ds in datasets:
            if (self.old / ds / "manifest.json").exists() and (self.new / ds / "manifest.json").exists():
                covered |= self.dataset(ds)
        for rel in sorted(files - covered):
            on_old, on_new = (self.old / rel).exists(), (self.new / rel).exists()
            if rel.endswith(".err"):
                ok = on_old and on_new and self.text_equal(rel)[0]
                if ok:
                    self.stderr_same += 1
                else:
                    self.stderr_diff.append(rel)
                continue
            if not (on_old and on_new):
                self.report(rel, "file", False, "only in " + ("old" if on_old else "new"))
            elif rel.endswith(".parquet"):
                self.parquet(rel)
            elif rel.endswith("pipeline-state.json"):
                a, b = (strip_volatile(json.loads((s / rel).read_text())) for s in (self.old, self.new))
                self.report(rel, "volatile fields removed", a == b, "steps differ")
            else:
                ok, why = self.text_equal(rel)
                how = {"rc": "exit code", "out": "stdout"}.get(rel.rsplit(".", 1)[-1], "sha256")
                self.report(rel, how, ok, why)
        print()
        print(f"stderr (informational, not counted): {self.stderr_same} same, {len(self.stderr_diff)} differ")
        for rel in self.stderr_diff:
            print(f"  stderr differs: {rel}")
        for label, n in zip(("old", "new"), self.norm):
            if n.counts:
                print(f"normalised on the {label} side: " + ", ".join(f"{k} in {v} files" for k, v in sorted(n.counts.items())))
        if self.diff:
            print("differ: " + " ".join(self.diff))
        print(f"{self.same} same, {len(self.diff)} differ")
        return 1 if self.diff else 0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("old", type=Path)
    p.add_argument("new", type=Path)
    p.add_argument("--version-old", action="append", default=[])
    p.add_argument("--version-new", action="append", default=[])
    a = p.parse_args()
    sys.exit(Comparison(a.old, a.new, (a.version_old, a.version_new)).run())


if __name__ == "__main__":
    main()

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
  (runs and engine-run chunks), by the sha256 of its rows as CSV with the
  column names and types, in manifest order or else sorted (as
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
- NAME.err (stderr): compared with durations, rates and nps masked, and
  reported separately, as information only.

Float rounding (`same~`): a text or Parquet output whose bytes differ but whose
text around the numbers is the same (whitespace aside), whose integers are
equal and whose floats agree within a relative 1e-9 (--rtol) is reported as
`same~` with the largest relative difference, listed again at the end, and not
counted as a difference; `--strict` counts it as one. evallab 2877d09 itself
needs this when polars runs on several threads: its relevance summary sums
floats in a polars group-by whose order depends on thread scheduling, so two
runs of one binary differ in the last digits (with POLARS_MAX_THREADS=1, as
same_outputs.sh runs it by default, they do not).

Exit status: 0 when everything is the same, 1 otherwise.
"""

import argparse
import hashlib
import json
import math
import os
import re
import sys
from pathlib import Path

import polars as pl
from polars.testing import assert_frame_equal

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


# Wall-clock figures on stderr: "in 0.8s", "(618.7 positions/s", "23.9 MB/s", "587450 nps".
TIMINGS = re.compile(rb"\d+(?:\.\d+)?(?: ?(?:ms|s)\b| [\w.]+/s\b| nps\b)")


def strip_volatile(v):
    if isinstance(v, dict):
        return {k: strip_volatile(x) for k, x in v.items() if k not in VOLATILE_KEYS and not k.endswith("_unix")}
    if isinstance(v, list):
        return [strip_volatile(x) for x in v]
    return v


NUMBER = re.compile(rb"(?<![\w.])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?![\w.])")
FILLER = re.compile(rb"[\s\xe2\x94\x80-\xe2\x95\xbf]+")  # whitespace and box drawing (table padding)


def close_numbers(a: bytes, b: bytes, rtol: float) -> float | None:
    """The largest relative difference of the numbers of a and b when the
    texts are the same but for float rounding (integers equal, floats within
    rtol), else None."""
    na, nb = NUMBER.findall(a), NUMBER.findall(b)
    skel = [FILLER.sub(b" ", NUMBER.sub(b"#", t)) for t in (a, b)]
    if len(na) != len(nb) or skel[0] != skel[1]:
        return None
    worst = 0.0
    for x, y in zip(na, nb):
        if x == y:
            continue
        if not any(ch in x + y for ch in b".eE"):
            return None  # integers must be equal
        fx, fy = float(x), float(y)
        if not math.isclose(fx, fy, rel_tol=rtol, abs_tol=1e-12):
            return None
        worst = max(worst, abs(fx - fy) / max(abs(fx), abs(fy)))
    return worst


def frames_close(a: pl.DataFrame, b: pl.DataFrame, rtol: float) -> float | None:
    """The largest relative difference of the float columns when a and b
    are equal but for float rounding, else None."""
    try:
        try:
            assert_frame_equal(a, b, check_exact=False, rel_tol=rtol, abs_tol=1e-12)
        except TypeError:  # polars before 1.32.3
            assert_frame_equal(a, b, check_exact=False, rtol=rtol, atol=1e-12)
    except AssertionError:
        return None
    worst = 0.0
    for c, t in a.schema.items():
        if t.is_float():
            x, y = a[c].cast(pl.Float64), b[c].cast(pl.Float64)
            d = ((x - y).abs() / pl.max_horizontal(x.abs(), y.abs())).fill_nan(0.0).max()
            worst = max(worst, d or 0.0)
    return worst


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
    def __init__(self, old: Path, new: Path, versions: tuple[list[str], list[str]], rtol: float, strict: bool):
        self.old, self.new = old, new
        self.rtol, self.strict = rtol, strict
        self.rounding: list[str] = []
        self.norm = (Normaliser(old, versions[0]), Normaliser(new, versions[1]))
        self.same = 0
        self.diff: list[str] = []
        self.stderr_same = 0
        self.stderr_diff: list[str] = []

    def report(self, name: str, how: str, ok: bool, why: str = "", rounding: float | None = None) -> None:
        if rounding is not None and not ok:
            self.rounding.append(f"{name} ({rounding:.1e})")
            if not self.strict:
                self.same += 1
                print(f"same~ {name}  ({how}: equal but for float rounding, largest relative difference {rounding:.1e})")
                return
            why = f"float rounding only, largest relative difference {rounding:.1e}"
        if ok:
            self.same += 1
            print(f"same  {name}  ({how})")
        else:
            self.diff.append(name)
            print(f"DIFF  {name}  ({how}: {why})")

    def text_equal(self, rel: str) -> tuple[bool, str, float | None]:
        """Equal after normalising; else why, and the float rounding if that is all."""
        a = self.norm[0].text((self.old / rel).read_bytes())
        b = self.norm[1].text((self.new / rel).read_bytes())
        if a == b:
            return True, "", None
        al, bl = a.splitlines(), b.splitlines()
        why = f"{len(al)} vs {len(bl)} lines"
        for i, (x, y) in enumerate(zip(al, bl)):
            if x != y:
                why = f"line {i + 1}: {x[:100]!r} vs {y[:100]!r}"
                break
        return False, why, close_numbers(a, b, self.rtol)

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
            dfs = []
            for side, t in ((self.old, ta), (self.new, tb)):
                df = pl.read_parquet([str(side / rel / f) for f in t[table]])
                dfs.append(df.drop([c for c in TIMING_COLUMNS.get(table, []) if c in df.columns]))
            without = ", without " + "/".join(TIMING_COLUMNS[table]) if table in TIMING_COLUMNS else ""
            # In manifest order first (cheaper than sorting); the sorted rows decide.
            if frame_digest(dfs[0], sort=False) == frame_digest(dfs[1], sort=False):
                self.report(name, f"{dfs[0].height} rows, in order{without}", True)
            else:
                ok = frame_digest(dfs[0], sort=True) == frame_digest(dfs[1], sort=True)
                why = f"{dfs[0].height} vs {dfs[1].height} rows, content differs"
                self.report(name, f"{dfs[0].height} rows, sorted (the order differs){without}", ok, why)
        return covered

    def parquet(self, rel: str) -> None:
        dfs = [pl.read_parquet(s / rel) for s in (self.old, self.new)]
        how = f"Parquet content, {dfs[0].height} rows in order"
        if frame_digest(dfs[0], False) == frame_digest(dfs[1], False):
            self.report(rel, how, True)
        elif frame_digest(dfs[0], True) == frame_digest(dfs[1], True):
            self.report(rel, how, False, "same rows, other order")
        else:
            why = f"{dfs[0].height} vs {dfs[1].height} rows, content differs"
            self.report(rel, how, False, why, frames_close(dfs[0], dfs[1], self.rtol))

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
                ok = on_old and on_new and TIMINGS.sub(b"<t>", (self.old / rel).read_bytes()) == TIMINGS.sub(
                    b"<t>", (self.new / rel).read_bytes()
                )
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
                ok, why, rounding = self.text_equal(rel)
                how = {"rc": "exit code", "out": "stdout"}.get(rel.rsplit(".", 1)[-1], "sha256")
                self.report(rel, how, ok, why, None if rel.endswith(".rc") else rounding)
        print()
        print(f"stderr, timings masked (informational, not counted): {self.stderr_same} same, {len(self.stderr_diff)} differ")
        for rel in self.stderr_diff:
            print(f"  stderr differs: {rel}")
        for label, n in zip(("old", "new"), self.norm):
            if n.counts:
                print(f"normalised on the {label} side: " + ", ".join(f"{k} in {v} files" for k, v in sorted(n.counts.items())))
        if self.rounding:
            kind = "counted as differences (--strict)" if self.strict else "counted as same"
            print(f"equal but for float rounding ({kind}): " + ", ".join(self.rounding))
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
    p.add_argument("--rtol", type=float, default=1e-9, help="relative tolerance of float rounding (default 1e-9)")
    p.add_argument("--strict", action="store_true", help="count float rounding as a difference")
    a = p.parse_args()
    sys.exit(Comparison(a.old, a.new, (a.version_old, a.version_new), a.rtol, a.strict).run())


if __name__ == "__main__":
    main()

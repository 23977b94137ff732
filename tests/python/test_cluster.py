"""evallab's work on a real Dask cluster: a scheduler and 2 workers, separate
processes on 127.0.0.1 (scripts/dask_localhost.sh), running `evallab-dask`.

A sharded ingest (once with a task killed mid-write and retried, once with a
worker killed mid-run) must give the same rows as one `evallab ingest`, and
balance, calibrate and eas from the sharded facts the same tables as one
process. The engine stages (analyze, match, policy: lc0 + Maia-1900 from
scripts/install_lc0.sh, SKIPPED when absent) sharded by slices give the rows
of one run, match also with a worker killed mid-run. The TCEC part of the input is the first 40 files of ../shared/tcec;
`EVALLAB_CLUSTER_TCEC=all` takes the whole archive (the closing note's
measurement: `EVALLAB_CLUSTER_TCEC=all pytest -s tests/python/test_cluster.py`
prints the wall times of both paths).

Needs the evallab binary (the wheel's, or $EVALLAB_BIN: evallab.api.binary()) and `distributed`.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")

import evallab  # noqa: E402
from evallab.checksums import checksums  # noqa: E402
from evallab.api import binary as evallab_bin  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
TCEC = REPO.parent / "shared" / "tcec"


def inputs():
    if not TCEC.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"CI needs the TCEC archive at {TCEC}")
        pytest.skip(f"SKIPPED: no TCEC archive at {TCEC}")
    tcec = sorted(p.name for p in TCEC.glob("*.pgn.zst"))
    if os.environ.get("EVALLAB_CLUSTER_TCEC") != "all":
        tcec = tcec[:40]
    # Relative names, as a user types them: the dataset records them as given.
    return [f"../shared/tcec/{n}" for n in tcec] + ["data/fixtures/malformed.pgn"]


def run(args, **kw):
    return subprocess.run(args, cwd=REPO, check=True, capture_output=True, text=True, **kw)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    d = tmp_path_factory.mktemp("cluster")
    run(["scripts/dask_localhost.sh", "start", str(d), "2"])
    yield d
    run(["scripts/dask_localhost.sh", "stop", str(d)])


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """One `evallab ingest` of the inputs, and its statistics."""
    d = tmp_path_factory.mktemp("one")
    ds = d / "ds"
    t = time.time()
    run([evallab_bin(), "ingest", *inputs(), "-o", str(ds), "--quiet"])
    print(f"\none process: ingest {time.time() - t:.1f}s", end="")
    stats = {}
    t = time.time()
    for cmd in ("balance", "calibrate", "eas"):
        stats[cmd] = run([evallab_bin(), cmd, str(ds), "--format", "csv"]).stdout
    print(f", balance + calibrate + eas {time.time() - t:.1f}s")
    return ds, checksums(ds), stats


def driver(cluster, *args, env=None, **kw):
    cmd = [sys.executable, "-m", "evallab.cluster", "--scheduler-file", str(cluster / "scheduler.json"),
           "--evallab", evallab_bin(), *args]
    return subprocess.Popen(cmd, cwd=REPO, env={**os.environ, **(env or {})},
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def finish(proc):
    out, _ = proc.communicate(timeout=1800)
    assert proc.returncode == 0, out
    # The driver's last line: `evallab-dask CMD: SECONDSs`.
    print(out.strip().splitlines()[-1])
    return out


def test_sharded_ingest_with_a_task_killed_mid_write(cluster, reference, tmp_path):
    ref_ds, ref_sums, _ = reference
    ds, marker = tmp_path / "ds", tmp_path / "fault-fired"
    out = finish(driver(cluster, "ingest", *inputs(), "-o", str(ds), "--shards", "6",
                        env={"EVALLAB_DASK_FAULT": f"ingest-000002:{marker}"}))
    assert marker.exists(), "the fault did not fire:\n" + out
    assert checksums(ds) == ref_sums
    runs = json.loads((ds / "manifest.json").read_text())["runs"]
    assert [r["shard"]["name"] for r in runs] == [f"ingest-{n:06d}" for n in range(1, 7)]
    assert not any((ds / "shards").iterdir()), "committed shards are removed"
    # Committing again adds nothing.
    before = (ds / "manifest.json").read_bytes()
    run([evallab_bin(), "commit", str(ds)])
    assert (ds / "manifest.json").read_bytes() == before


def test_sharded_ingest_again_replaces_an_edited_file(cluster, tmp_path):
    """`evallab-dask ingest --replace` after a file was edited: its earlier
    version goes in the commit, and the dataset is one ingest of the files as
    they are now."""
    pgn = (REPO / "data/fixtures/tcec.pgn").read_text()
    folder = tmp_path / "archive"
    folder.mkdir()
    (folder / "season.pgn").write_text(pgn)
    (folder / "other.pgn").write_text((REPO / "data/fixtures/cutechess.pgn").read_text())
    ds = tmp_path / "ds"
    finish(driver(cluster, "ingest", str(folder), "-o", str(ds), "--shards", "2"))
    (folder / "season.pgn").write_text(pgn.replace('[Event "', '[Event "Edited ', 1))
    out = finish(driver(cluster, "ingest", str(folder), "-o", str(ds), "--shards", "2", "--replace"))
    assert "season.pgn: replaces its earlier version" in out, out
    fresh = tmp_path / "fresh"
    run([evallab_bin(), "ingest", str(folder), "-o", str(fresh), "--quiet"])
    assert checksums(ds) == checksums(fresh)


def test_statistics_from_sharded_facts_equal_one_process(cluster, reference, tmp_path):
    _, _, stats = reference
    ds, facts = tmp_path / "ds", tmp_path / "facts"
    finish(driver(cluster, "ingest", *inputs(), "-o", str(ds), "--shards", "4"))
    finish(driver(cluster, "facts", str(ds), "-o", str(facts)))
    assert len(list(facts.glob("part-*.game_facts.parquet"))) == 4
    for cmd, want in stats.items():
        assert len(want.splitlines()) > 3
        assert (facts / f"{cmd}.csv").read_text() == want, cmd


def evallab_children(pid, command=b"ingest"):
    """The command lines of the evallab `command` processes whose parent is `pid`."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                cmd = (stat.parent / "cmdline").read_bytes().split(b"\0")
                if command in cmd:
                    out.append((int(stat.parent.name), [c.decode() for c in cmd if c]))
        except (OSError, ValueError, IndexError):
            continue
    return out


def test_sharded_analysis_equals_one_run(cluster, reference, tmp_path):
    import shutil

    import polars as pl

    if not Path("/usr/games/stockfish").exists():
        if os.environ.get("CI"):
            pytest.fail("CI needs /usr/games/stockfish")
        pytest.skip("SKIPPED: no /usr/games/stockfish")
    ref_ds, _, _ = reference
    one, sharded = tmp_path / "one", tmp_path / "sharded"
    shutil.copytree(ref_ds, one)
    shutil.copytree(ref_ds, sharded)
    opts = ["--uci", "/usr/games/stockfish", "--nodes", "2000", "--max-games", "6"]
    run([evallab_bin(), "analyze", str(one), *opts, "--label", "sf", "--quiet"])
    finish(driver(cluster, "analyze", str(sharded), "--label", "sf", "--slices", "3", *opts))

    def rows(ds):
        keys = ["game_id", "ply", "multipv", "depth", "is_final"]
        return evallab.read_polars(ds, "analysis").drop("nps", "time_ms").sort(keys).collect()

    a, b = rows(one), rows(sharded)
    assert a.height > 100 and a.equals(b)
    chunks = json.loads((sharded / "manifest.json").read_text())["analyses"][0]["chunks"]
    assert [c["games"] for c in chunks] == [2, 2, 2]
    assert pl.Series([c["shard"]["name"] for c in chunks]).str.starts_with("analyze-sf-").all()


def kill_mid_run(proc, worker, ds, command):
    """Kills `worker` (SIGKILL, as a lost machine) while it runs a shard's
    evallab `command`, once another shard is written; (that evallab's pid,
    its shard)."""
    deadline = time.time() + 300
    while True:
        assert proc.poll() is None and time.time() < deadline, f"the {command.decode()} ended before the kill"
        running = evallab_children(worker, command)
        if running and list(ds.glob("shards/*/shard.json")):
            break
        time.sleep(0.02)
    os.kill(worker, signal.SIGKILL)
    child, cmd = running[0]
    return child, cmd[cmd.index("--shard") + 1]


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """A dataset of the demo data (264 games), ingested by one process."""
    ds = tmp_path_factory.mktemp("demo") / "ds"
    run([evallab_bin(), "ingest", "data/demo", "-o", str(ds), "--quiet"])
    return ds


def need(path, what):
    if not Path(path).exists():
        if os.environ.get("CI"):
            pytest.fail(f"CI needs {what} at {path}")
        pytest.skip(f"SKIPPED: no {what} at {path}")


MATCH = ["--uci", "/usr/games/stockfish", "--player", ".", "--mlm-depth", "9", "--slm-depths", "7..11",
         "--multipv", "4", "--moves", "10..19", "--max-games", "6"]


def match_rows(ds):
    return evallab.read_polars(ds, "match").sort(["game_id", "ply"]).collect()


@pytest.fixture(scope="module")
def one_match(demo, tmp_path_factory):
    """One `evallab match` of a copy of the demo dataset: (rows, output folder)."""
    import shutil

    need("/usr/games/stockfish", "Stockfish")
    d = tmp_path_factory.mktemp("one-match")
    shutil.copytree(demo, d / "ds")
    t = time.time()
    run([evallab_bin(), "match", str(d / "ds"), *MATCH, "--label", "m", "-o", str(d / "out"), "--quiet"])
    print(f"\none process: match {time.time() - t:.1f}s")
    return match_rows(d / "ds"), d / "out"


def same_results(a, b):
    """The match output folders hold the same results files and logs (the
    logs' date line aside: the run's first commit)."""
    names = sorted(p.relative_to(a) for p in a.rglob("*.txt")) + sorted(p.relative_to(a) for p in a.rglob("*.log"))
    assert names and names == sorted(p.relative_to(b) for p in b.rglob("*.txt")) + sorted(
        p.relative_to(b) for p in b.rglob("*.log"))
    for n in names:
        strip = lambda p: [l for l in (p / n).read_text().splitlines() if not l.startswith("Date: ")]  # noqa: E731
        assert strip(a) == strip(b), n


def test_sharded_match_equals_one_run(cluster, demo, one_match, tmp_path):
    import shutil

    rows, out = one_match
    sharded = tmp_path / "sharded"
    shutil.copytree(demo, sharded)
    finish(driver(cluster, "match", str(sharded), "--label", "m", "--slices", "3", *MATCH,
                  "-o", str(tmp_path / "sharded-out")))
    assert rows.height > 30 and rows.equals(match_rows(sharded))
    same_results(out, tmp_path / "sharded-out")
    chunks = json.loads((sharded / "manifest.json").read_text())["analyses"][0]["chunks"]
    assert [c["shard"]["name"] for c in chunks] == [f"match-m-{k:06d}" for k in (1, 2, 3)]


def test_sharded_policy_equals_one_run(cluster, demo, tmp_path, lc0_maia):
    import shutil

    lc0, weights = lc0_maia
    one, sharded = tmp_path / "one", tmp_path / "sharded"
    shutil.copytree(demo, one)
    shutil.copytree(demo, sharded)
    opts = ["--uci", str(lc0), "--weights", str(weights), "--max-games", "6", "--plies", "1..60"]
    run([evallab_bin(), "policy", str(one), *opts, "--label", "maia", "--quiet"])
    finish(driver(cluster, "policy", str(sharded), "--label", "maia", "--slices", "3", *opts))

    def rows(ds):
        return evallab.read_polars(ds, "policy").sort(["game_id", "ply", "move"]).collect()

    a = rows(one)
    assert a.height > 1000 and a.equals(rows(sharded))
    assert len(json.loads((sharded / "manifest.json").read_text())["analyses"][0]["chunks"]) == 3


def test_sharded_match_with_a_worker_killed_mid_run(demo, one_match, tmp_path_factory, tmp_path):
    """On a cluster of its own (a killed worker stays dead): a worker is killed
    while its evallab writes a shard; the task is redone elsewhere, and the
    rows and the output folder equal one run."""
    import shutil

    rows, out = one_match
    sharded = tmp_path / "sharded"
    shutil.copytree(demo, sharded)
    d = tmp_path_factory.mktemp("cluster-kill")
    run(["scripts/dask_localhost.sh", "start", str(d), "2"])
    try:
        worker = int((d / "worker-1.pid").read_text())
        proc = driver(d, "match", str(sharded), "--label", "m", "--slices", "6", *MATCH,
                      "-o", str(tmp_path / "sharded-out"))
        child, shard = kill_mid_run(proc, worker, sharded, b"match")
        log = finish(proc)
    finally:
        run(["scripts/dask_localhost.sh", "stop", str(d)])
    assert rows.equals(match_rows(sharded)), log
    same_results(out, tmp_path / "sharded-out")
    chunks = json.loads((sharded / "manifest.json").read_text())["analyses"][0]["chunks"]
    assert shard in [c["shard"]["name"] for c in chunks] and len(chunks) == 6
    print(f"killed worker-1 (pid {worker}) while its evallab match (pid {child}) wrote {shard}: "
          f"redone elsewhere, 6 shards committed, rows equal one run")


# Last: it leaves the cluster with one worker.
def test_sharded_ingest_with_a_worker_killed_mid_run(cluster, reference, tmp_path):
    _, ref_sums, _ = reference
    ds = tmp_path / "ds"
    worker = int((cluster / "worker-1.pid").read_text())
    proc = driver(cluster, "ingest", *inputs(), "-o", str(ds), "--shards", "10")
    child, shard = kill_mid_run(proc, worker, ds, b"ingest")
    out = finish(proc)
    # The worker's evallab died with it; its shard was redone elsewhere.
    assert not Path(f"/proc/{child}").exists() or "Z" in Path(f"/proc/{child}/stat").read_text().split()[2]
    runs = json.loads((ds / "manifest.json").read_text())["runs"]
    assert shard in [r["shard"]["name"] for r in runs]
    assert len(runs) == 10
    assert checksums(ds) == ref_sums, out
    print(f"killed worker-1 (pid {worker}) while its evallab (pid {child}) wrote {shard}: "
          f"redone elsewhere, 10 shards committed, checksums equal one ingest")

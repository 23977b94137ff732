"""``evallab-dask``: evallab's own work, shard by shard, scheduled by Dask.

Dask only schedules: every task runs the evallab binary on a worker, and the
results are committed by evallab's own protocol. The storage (the dataset, the
inputs, the facts folder) must be visible to every worker under the same paths
(a shared filesystem); relative input names are resolved in the driver's
working folder, which must exist on the workers too, so that the dataset
records the same names as a one-process ingest.

- ``ingest INPUT... -o DATASET``: ``evallab ingest --plan`` lists the inputs in
  order; they are cut into contiguous shards of about equal bytes; each shard is
  one task ``evallab ingest --shard NAME`` (uncommitted parts under
  ``DATASET/shards/``); then one ``evallab commit`` adds them all in one
  manifest (``--replace``: ``commit --replace``, an edited file replacing its
  earlier version). Shard names follow the input order, so the dataset's parts, and
  its rows, come in the order one ``evallab ingest`` writes them.
- ``analyze|match|policy DATASET --label L OPTIONS…`` (an engine stage): the
  selected games (in dataset order) cut into ``--slices`` contiguous slices;
  each is one task ``evallab STAGE --slice K/N --shard NAME`` (any of the
  stage's options: engine, limit, selection); then one ``evallab commit`` adds
  them as chunks of the label's run. Games already done under the label are
  skipped. ``match`` then runs once more without ``--shard``: with every game
  done it searches nothing and writes its ``-o DIR`` and statistics from the
  committed rows.
- ``facts DATASET -o DIR``: one task ``evallab facts --part N`` per ingest run
  (the map step), then ``evallab balance|calibrate|eas --facts DIR`` (the
  reduce, on the small per-game files) write ``DIR/{balance,calibrate,eas}.csv``.

Failures: a task that fails is retried (``--retries``); a task whose worker
dies is rerun elsewhere by Dask. Both are safe because a shard becomes visible
only through its ``shard.json`` and ``evallab commit`` skips shards it already
has. The evallab process of a task dies with its worker (Linux: parent-death
signal), so a killed worker leaves no writer behind.

Test-only fault injection: ``EVALLAB_DASK_FAULT=SHARD:MARKER`` in the driver's
environment makes the first attempt of the task of shard SHARD kill its
evallab process with SIGKILL once the shard's first part file appears
(mid-write) and fail; MARKER (a file path) records that the fault has fired,
so the retry runs normally.
"""

import argparse
import ctypes
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from evallab.api import _stop, binary
from evallab.manifest import manifest

FAULT_ENV = "EVALLAB_DASK_FAULT"


def _die_with_parent():
    # PR_SET_PDEATHSIG = 1: SIGKILL this child when the worker process dies.
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)
    except OSError:
        pass


def run_evallab(evallab, args, cwd, fault=None, watch=None):
    """Runs ``evallab ARGS`` in ``cwd`` (on a worker); returns (stdout, stderr).

    Raises RuntimeError with the command's stderr when it fails. ``fault``
    (a marker path) and ``watch`` (a folder) are the test-only fault: kill
    the process once a file appears in ``watch``, unless the marker exists.
    """
    preexec = _die_with_parent if sys.platform.startswith("linux") else None
    # `with` closes the pipes, also of a killed process.
    with subprocess.Popen(
        [evallab, *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=preexec,
    ) as proc:
        if fault and not os.path.exists(fault):
            Path(fault).write_text("fired\n")
            while proc.poll() is None and not (watch.is_dir() and any(watch.iterdir())):
                time.sleep(0.01)
            time.sleep(0.2)  # some rows into the parts
            proc.kill()
            raise RuntimeError(f"injected fault: killed `evallab {' '.join(args[:3])} …` mid-write")
        try:
            out, err = proc.communicate()
        except BaseException:
            # An interrupt (Ctrl-C in a local run, a cancelled task) stops the
            # binary as the API's does: SIGTERM, then SIGKILL.
            _stop(proc)
            raise
    if proc.returncode != 0:
        raise RuntimeError(f"`evallab {' '.join(args)}` exited {proc.returncode}:\n{err}")
    return out, err


def split(plan, shards):
    """Cuts the planned inputs (dicts with ``name``, ``bytes``), in order, into at
    most ``shards`` contiguous groups of about equal bytes.

    >>> plan = [{"name": n, "bytes": b} for n, b in zip("abcde", [5, 1, 1, 1, 4])]
    >>> [[i["name"] for i in s] for s in split(plan, 2)]
    [['a', 'b'], ['c', 'd', 'e']]
    >>> len(split(plan, 10))
    5
    """
    total = sum(max(i["bytes"], 1) for i in plan)
    out: list[list[dict[str, Any]]] = []
    current: list[dict[str, Any]] = []
    done = 0
    for item in plan:
        current.append(item)
        done += max(item["bytes"], 1)
        # Close a shard at each 1/shards of the bytes (the last one takes the rest).
        if done * shards >= total * (len(out) + 1) and len(out) < shards - 1:
            out.append(current)
            current = []
    if current:
        out.append(current)
    return out


class Driver:
    """Submits evallab tasks to a Dask client."""

    def __init__(self, client, evallab, retries=2):
        self.client = client
        self.evallab = evallab
        self.retries = retries
        self.cwd = os.getcwd()
        fault = os.environ.get(FAULT_ENV)
        self.fault = tuple(fault.split(":", 1)) if fault else None

    def _run(self, args, fault=None, watch=None):
        return self.client.submit(
            run_evallab, self.evallab, args, self.cwd, fault, watch, retries=self.retries, pure=False
        )

    def once(self, args):
        """One evallab command on a worker; (stdout, stderr)."""
        return self._run(args).result()

    def _commit(self, dataset, names, log, replace=False):
        """One `evallab commit` of the shards among `names` that were written (a
        task with nothing left to do, all its inputs or games already in the
        dataset, writes none); existence is checked where the storage is.
        ``replace``: `commit --replace` (an edited file replaces its earlier version)."""
        done = [self.client.submit(os.path.exists, os.path.join(dataset, "shards", n, "shard.json"), pure=False)
                for n in names]
        written = [n for n, ok in zip(names, self.client.gather(done)) if ok]
        if not written:
            log("nothing to commit: the dataset already has everything")
            return
        flags = ["--replace"] if replace else []
        log(self.once(["commit", dataset, *[a for n in written for a in ("--shard", n)], *flags])[1].strip())

    def ingest(self, inputs, dataset, shards=None, jobs=1, no_pv=False, log=print, replace=False):
        dataset = os.path.abspath(dataset)
        plan = [json.loads(line) for line in self.once(["ingest", "--plan", *inputs])[0].splitlines()]
        shards = shards or 2 * max(1, sum(self.client.nthreads().values()))
        groups = split(plan, shards)
        log(f"{len(plan)} inputs, {sum(i['bytes'] for i in plan)} bytes, in {len(groups)} shards")
        futures = []
        for n, group in enumerate(groups, 1):
            name = f"ingest-{n:06d}"
            args = ["ingest", *[i["name"] for i in group], "-o", dataset, "--shard", name, "--jobs", str(jobs)]
            if no_pv:
                args.append("--no-pv")
            fault, watch = None, None
            if self.fault and self.fault[0] == name:
                fault, watch = self.fault[1], Path(dataset, "shards", name)
            futures.append(self._run(args, fault=fault, watch=watch))
        for _, err in self.client.gather(futures):
            log(err.strip())
        self._commit(dataset, [f"ingest-{n:06d}" for n in range(1, len(groups) + 1)], log, replace)

    def stage(self, command, dataset, label, options, slices=None, log=print):
        """An engine stage (``analyze``, ``match``, ``policy``), slice by slice."""
        dataset = os.path.abspath(dataset)
        slices = slices or 4 * max(1, sum(self.client.nthreads().values()))
        safe = re.sub(r"[^A-Za-z0-9._-]", "_", label)
        names = [f"{command}-{safe}-{k:06d}" for k in range(1, slices + 1)]
        futures = []
        for k, name in enumerate(names, 1):
            args = [command, dataset, *options, "--label", label, "--slice", f"{k}/{slices}", "--shard", name, "--quiet"]
            fault, watch = None, None
            if self.fault and self.fault[0] == name:
                fault, watch = self.fault[1], Path(dataset, "shards", name)
            futures.append(self._run(args, fault=fault, watch=watch))
        self.client.gather(futures)
        log(f"{slices} slices of {command} done")
        self._commit(dataset, names, log)
        if command == "match":
            out, err = self.once([command, dataset, *options, "--label", label])
            sys.stdout.write(out)
            log(err.strip())

    def analyze(self, dataset, label, options, slices=None, log=print):
        self.stage("analyze", dataset, label, options, slices, log)

    def facts(self, dataset, out, log=print):
        dataset, out = os.path.abspath(dataset), os.path.abspath(out)
        runs = self.client.submit(manifest, dataset, pure=False).result()["runs"]
        futures = [self._run(["facts", dataset, "-o", out, "--part", str(r["part"]), "--quiet"]) for r in runs]
        self.client.gather(futures)
        log(f"facts of {len(runs)} parts in {out}")
        reduce = {
            "balance": ["balance", dataset, "--facts", out, "--format", "csv", "-o", f"{out}/balance.csv"],
            "calibrate": ["calibrate", dataset, "--facts", out, "--format", "csv", "-o", f"{out}/calibrate.csv"],
            "eas": ["eas", dataset, "--facts", out, "--format", "csv", "-o", f"{out}/eas.csv"],
        }
        for name, args in reduce.items():
            self.once(args)
            log(f"{name}: {out}/{name}.csv")


def client_for(args):
    from distributed import Client, LocalCluster

    if args.scheduler_file:
        return Client(scheduler_file=args.scheduler_file)
    if args.scheduler:
        return Client(args.scheduler)
    cluster = LocalCluster(n_workers=args.workers or os.cpu_count(), threads_per_worker=1, processes=True)
    return Client(cluster)


def main(argv=None):
    p = argparse.ArgumentParser(prog="evallab-dask", description=__doc__.split("\n\n")[0])
    p.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler, e.g. tcp://10.0.0.1:8786 [default: a local cluster]")
    p.add_argument("--scheduler-file", metavar="FILE", help="the scheduler's JSON file (dask scheduler --scheduler-file)")
    p.add_argument("--workers", type=int, help="local cluster only: worker processes [default: the cores]")
    p.add_argument("--evallab",
                   help="the evallab binary on the workers [default: $EVALLAB_BIN, else the one installed with this package, else evallab on PATH]")
    p.add_argument("--retries", type=int, default=2, help="retries of a failed task [default: 2]")
    sub = p.add_subparsers(dest="command", required=True)
    ing = sub.add_parser("ingest", help="sharded ingest, committed once")
    ing.add_argument("inputs", nargs="+")
    ing.add_argument("-o", "--output", required=True, help="dataset folder (on storage every worker sees)")
    ing.add_argument("--shards", type=int, help="number of shards [default: twice the worker threads]")
    ing.add_argument("--jobs", type=int, default=1, help="parser threads per shard [default: 1]")
    ing.add_argument("--no-pv", action="store_true")
    ing.add_argument("--replace", action="store_true",
                     help="a file ingested before with other content takes its earlier version's place (evallab commit --replace)")
    stages = {"analyze": "engine analysis", "match": "move matching", "policy": "policy priors"}
    for name, what in stages.items():
        st = sub.add_parser(name, help=f"sharded {what}, committed once",
                            description=f"Other options are evallab {name}'s (--uci, …).")
        st.add_argument("dataset")
        st.add_argument("--label", required=True, help="the run's label")
        st.add_argument("--slices", type=int, help="tasks [default: 4 × the worker threads]")
    fac = sub.add_parser("facts", help="per-part facts (map), then balance, calibrate and eas (reduce)")
    fac.add_argument("dataset")
    fac.add_argument("-o", "--output", required=True, help="facts folder (on storage every worker sees)")
    args, rest = p.parse_known_args(argv)
    if rest and args.command not in stages:
        p.error(f"unrecognized arguments: {' '.join(rest)}")
    t = time.time()
    with client_for(args) as client:
        d = Driver(client, args.evallab or binary(), args.retries)
        if args.command == "ingest":
            d.ingest(args.inputs, args.output, args.shards, args.jobs, args.no_pv, replace=args.replace)
        elif args.command in stages:
            d.stage(args.command, args.dataset, args.label, rest, args.slices)
        else:
            d.facts(args.dataset, args.output)
    print(f"evallab-dask {args.command}: {time.time() - t:.2f}s", file=sys.stderr)


if __name__ == "__main__":
    main()

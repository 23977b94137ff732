#!/usr/bin/env bash
# A real Dask cluster on this machine: one scheduler and N workers (default 2),
# separate processes listening on 127.0.0.1, one thread each, no nanny (a
# killed worker stays dead, as a lost machine would).
#
#   scripts/dask_localhost.sh start DIR [N]   # DIR/scheduler.json, DIR/*.pid, DIR/*.log
#   scripts/dask_localhost.sh stop DIR
#
# Then: evallab-dask --scheduler-file DIR/scheduler.json ingest … (README "Scaling out").
set -euo pipefail
cmd=${1:?usage: $0 start|stop DIR [WORKERS]}
dir=${2:?usage: $0 start|stop DIR [WORKERS]}
case "$cmd" in
start)
  n=${3:-2}
  mkdir -p "$dir"
  rm -f "$dir/scheduler.json"
  dask scheduler --host 127.0.0.1 --port 0 --dashboard-address 127.0.0.1:0 \
    --scheduler-file "$dir/scheduler.json" >"$dir/scheduler.log" 2>&1 &
  echo $! >"$dir/scheduler.pid"
  for _ in $(seq 100); do [ -s "$dir/scheduler.json" ] && break; sleep 0.1; done
  [ -s "$dir/scheduler.json" ] || { echo "the scheduler did not start: $dir/scheduler.log" >&2; exit 1; }
  for i in $(seq "$n"); do
    dask worker --scheduler-file "$dir/scheduler.json" --host 127.0.0.1 --nthreads 1 \
      --no-nanny --no-dashboard --name "worker-$i" >"$dir/worker-$i.log" 2>&1 &
    echo $! >"$dir/worker-$i.pid"
  done
  # Ready when the scheduler sees every worker.
  python3 - "$dir/scheduler.json" "$n" <<'PY'
import sys
from distributed import Client
with Client(scheduler_file=sys.argv[1], timeout=30) as c:
    c.wait_for_workers(int(sys.argv[2]), timeout=60)
    print(f"dask cluster: {c.scheduler.address}, workers {sorted(c.nthreads())}")
PY
  ;;
stop)
  for f in "$dir"/worker-*.pid "$dir/scheduler.pid"; do
    [ -f "$f" ] || continue
    pid=$(cat "$f")
    kill "$pid" 2>/dev/null || true
    rm -f "$f"
  done
  ;;
*)
  echo "usage: $0 start|stop DIR [WORKERS]" >&2
  exit 2
  ;;
esac

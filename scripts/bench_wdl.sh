#!/usr/bin/env bash
# `evallab wdl` on a dataset (the whole TCEC archive: ingest master-archive/
# of TCEC-Chess/tcecgames), each variant its own process: wall seconds and
# peak RSS of 5 runs (GNU time), and the median. Budget (issue "x_0_5 as it
# really varies"): the pooled fit without a bootstrap under 10 s and 1 GB.
# The reference's own timings (scoreWDLstat + scoreWDL.py) come from
# scripts/wdl_compare.py.
#
#   scripts/bench_wdl.sh DATASET
set -euo pipefail
cd "$(dirname "$0")/.."
ds="${1:?usage: scripts/bench_wdl.sh DATASET}"
target="${CARGO_TARGET_DIR:-target}"
bin="${EVALLAB:-$target/release/evallab}"
[ -x "$bin" ] || cargo build --release --quiet
[ -x /usr/bin/time ] || apt-get install -y -q time >/dev/null
out=$(mktemp -d "${TMPDIR:-/tmp}/bench-wdl.XXXXXX")
trap 'rm -rf "$out"' EXIT
run() { # name, options...
  local name=$1; shift
  for i in 1 2 3 4 5; do
    /usr/bin/time -f "%e %M" -o "$out/t" "$bin" wdl "$ds" "$@" --format csv -o "$out/o.csv"
    cat "$out/t"
  done | sort -n | awk -v n="$name" '{s[NR]=$1; m[NR]=$2} END {
    peak=0; for (i in m) if (m[i]>peak) peak=m[i];
    printf "| %-40s | %6.2f | %6.2f | %6.2f | %7.0f |\n", n, s[1], s[3], s[5], peak/1024 }'
}
echo "| wdl variant | min s | median s | max s | peak MB |"
echo "|---|---|---|---|---|"
run "pooled (optimizeProbability, powell)"
run "pooled, fitDensity" --fitting fitDensity
run "pooled, newton" --solver newton
run "--by season,engine" --by season,engine

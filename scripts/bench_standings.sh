#!/usr/bin/env bash
# Standings, crosstable (long and wide) and opening statistics of a dataset
# (the whole TCEC archive: ingest master-archive/ of TCEC-Chess/tcecgames),
# each as its own process, with hyperfine (3 warm-ups, 10 runs): mean wall
# seconds. Target (issue 30): each under 5 s on the whole archive.
#
#   scripts/bench_standings.sh DATASET
set -euo pipefail
cd "$(dirname "$0")/.."
ds="${1:?usage: scripts/bench_standings.sh DATASET}"
target="${CARGO_TARGET_DIR:-target}"
bin="${EVALLAB:-$target/release/evallab}"
[ -x "$bin" ] || cargo build --release --quiet
command -v hyperfine >/dev/null || { echo "hyperfine is needed" >&2; exit 1; }
out=$(mktemp -d "${TMPDIR:-/tmp}/bench-standings.XXXXXX")
trap 'rm -rf "$out"' EXIT
hyperfine -N -w 3 -r 10 --export-markdown "$out/table.md" \
  -n standings "$bin standings $ds --format csv -o $out/s.csv" \
  -n "standings --by all" "$bin standings $ds --by all --format csv -o $out/a.csv" \
  -n crosstable "$bin crosstable $ds --format csv -o $out/x.csv" \
  -n "crosstable --wide" "$bin crosstable $ds --wide --format csv -o $out/w.csv" \
  -n opening-stats "$bin opening-stats $ds --format csv -o $out/o.csv" >/dev/null
cat "$out/table.md"

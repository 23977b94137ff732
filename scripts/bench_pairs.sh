#!/usr/bin/env bash
# Whole-process timings of `evallab pairs` and `evallab engine-stats` on an
# ingested dataset (read only: outputs go to a temporary folder), with
# hyperfine: mean ± σ wall seconds of 5 runs after a warm-up.
#
#   scripts/bench_pairs.sh DATASET     (e.g. the whole TCEC archive ingested)
set -euo pipefail
cd "$(dirname "$0")/.."
ds="${1:?usage: scripts/bench_pairs.sh DATASET}"
target="${CARGO_TARGET_DIR:-target}"
bin="${EVALLAB:-$target/release/evallab}"
[ -f "$ds/manifest.json" ] || { echo "no dataset at $ds" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
[ -x "$bin" ] || cargo build --release --quiet

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
hyperfine -N -w 1 -r 5 --export-markdown "$work/table.md" \
  -n "pairs --by all" "$bin pairs $ds --by all --format csv -o $work/1.csv" \
  -n "pairs (per event) --sprt 0,5" "$bin pairs $ds --sprt 0,5 --format csv -o $work/2.csv" \
  -n "pairs --openings" "$bin pairs $ds --openings --format csv -o $work/3.csv" \
  -n "engine-stats" "$bin engine-stats $ds --format csv -o $work/4.csv" \
  -n "engine-stats --phase --by event" "$bin engine-stats $ds --phase --by event --format csv -o $work/5.csv" \
  -n "engine-stats --time-usage" "$bin engine-stats $ds --time-usage --format csv -o $work/6.csv" \
  > /dev/null 2>&1
cat "$work/table.md"

#!/usr/bin/env bash
# Puzzles from CSV to the chosen model, wall time per stage: ingest, analyze
# (Stockfish, 20,000 nodes, MultiPV 5, --all-depths, 2 jobs), policy (lc0 +
# Maia-1900), the line features, the nested cross-validation with the model
# saved, and its predictions: pipelines/difficulty.toml's settings. Every
# position of every line is analysed and priced, in game order.
#
#   STOCKFISH=/usr/games/stockfish LC0=…/lc0 WEIGHTS=…/maia-1900.pb.gz \
#     scripts/bench_difficulty.sh [PUZZLES_CSV]   (default ../shared/puzzles/lichess_puzzles_sample.csv)
# (scripts/install_lc0.sh prints LC0 and WEIGHTS.)
set -euo pipefail
cd "$(dirname "$0")/.."
csv="${1:-../shared/puzzles/lichess_puzzles_sample.csv}"
target="${CARGO_TARGET_DIR:-target}"
bin="${EVALLAB:-$target/release/evallab}"
: "${STOCKFISH:=/usr/games/stockfish}" "${LC0:?set LC0=path to lc0}" "${WEIGHTS:?set WEIGHTS=maia weights}"
[ -f "$csv" ] || { echo "no puzzles at $csv" >&2; exit 1; }
[ -x "$bin" ] || cargo build --release --quiet

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ds="$work/ds"
total=0
stage() {
  local name=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  "$@" > "$work/$name.out"
  t1=$(date +%s.%N)
  local s
  s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  total=$(awk -v a="$total" -v b="$s" 'BEGIN { printf "%.1f", a + b }')
  echo "| $name | $s |"
}
echo "| stage | wall s |"
echo "|---|---:|"
stage ingest "$bin" ingest "$csv" -o "$ds" --quiet
stage analyze "$bin" analyze "$ds" --uci "$STOCKFISH" --nodes 20000 --multipv 5 --all-depths \
  --plies 1..40 --jobs 2 --label sf20k5 --quiet
stage policy "$bin" policy "$ds" --uci "$LC0" --weights "$WEIGHTS" --plies 1..40 --jobs 2 \
  --label maia-1900 --quiet
d=("$bin" difficulty "$ds" --analysis sf20k5 --policy maia-1900 --format csv)
stage features "${d[@]}" --puzzles
stage models "${d[@]}" --models --save-model "$work/model.json"
stage predict "${d[@]}" --predict "$work/model.json"
echo "| total | $total |"

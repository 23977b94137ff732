#!/usr/bin/env bash
# Whole-process analysis benchmark: `evallab analyze` beside the minimal UCI
# driver scripts/uci_baseline.py (same positions, engine, options and limit),
# with 1 and 2 jobs, in one run (one job: the two take turns in blocks of
# BLOCK games). Also checks the acceptance properties: the
# --jobs 1 and --jobs 2 tables hold the same rows, and so does a run killed
# with SIGKILL halfway and resumed.
#
#   scripts/bench_analyze.sh [INPUT] [NODES] [MULTIPV]
#       defaults: ../shared/tcec/TCEC_Season_9_-_Superfinal.pgn.zst (100 games),
#       20000 nodes, MultiPV 3; ENGINE=/usr/games/stockfish
#   ONLY=jobs1 scripts/bench_analyze.sh   only the one-job overhead (the blocks)
#
# Prints wall seconds and positions/s per run, the engine's own nps, the
# overhead of evallab against the baseline and the 1 -> 2 jobs speed-up.
set -euo pipefail
cd "$(dirname "$0")/.."
input="${1:-../shared/tcec/TCEC_Season_9_-_Superfinal.pgn.zst}"
nodes="${2:-20000}"
multipv="${3:-3}"
engine="${ENGINE:-/usr/games/stockfish}"
target="${CARGO_TARGET_DIR:-target}"
bin="${EVALLAB:-$target/release/evallab}"
[ -x "$engine" ] || { echo "no engine at $engine (apt-get install stockfish)" >&2; exit 1; }
[ -x "$bin" ] || cargo build --release --quiet

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" ingest "$input" -o "$work/base" --quiet
settings=(--uci "$engine" --nodes "$nodes" --multipv "$multipv" --label bench)
analyze() { # dataset, extra options...
  local ds=$1; shift
  "$bin" analyze "$ds" "${settings[@]}" "$@"
}
fresh() { rm -rf "$work/$1"; cp -r "$work/base" "$work/$1"; echo "$work/$1"; }
# The analysis rows (timings dropped), sorted, hashed: the table's content.
checksum() {
  python3 - "$1" <<'EOF'
import hashlib, sys
import polars as pl
sys.path.insert(0, "python")
from evallab import parts
df = (pl.read_parquet(parts(sys.argv[1], "analysis"))
      .drop("nps", "time_ms")
      .sort("game_id", "ply", "depth", "multipv", "is_final"))
print(len(df), hashlib.sha256(df.write_csv().encode()).hexdigest()[:16])
EOF
}

declare -A pps
run() { # name, log, command...
  local name=$1 log=$2; shift 2
  local t0 t1
  t0=$(date +%s.%N)
  "$@" > "$log" 2>&1 || { cat "$log"; exit 1; }
  t1=$(date +%s.%N)
  local secs pos
  secs=$(echo "$t1 - $t0" | bc)
  pos=$(grep -oE '(positions|analysed [0-9]+ games \([0-9]+ already done\),) [0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
  pps[$name]=$(echo "scale=2; $pos / $secs" | bc)
  printf "%-28s %8.1f s %7d positions %8.2f positions/s\n" "$name" "$secs" "$pos" "${pps[$name]}"
}

echo "every position of $input, nodes $nodes, MultiPV $multipv, Threads 1, Hash 64, engine $engine"
a2=$(fresh a2); a1=$(fresh a1)
only="${ONLY:-}"
if [ "$only" != jobs1 ]; then
  run "evallab --jobs 2" "$work/a2.log" analyze "$a2" --jobs 2
  grep -oE 'engine [0-9]+ nps' "$work/a2.log" || true
  run "baseline --jobs 2" "$work/b2.log" python3 scripts/uci_baseline.py "$work/base" \
    --engine "$engine" --nodes "$nodes" --multipv "$multipv" --jobs 2
fi

# One job: this shared machine's speed drifts by several per cent over minutes,
# more than the overhead measured. So the two drivers take turns, block by
# block (BLOCK games each, alternating who goes first), and their times are
# summed: the drift hits both alike. evallab resumes its analysis each block
# (--max-games grows), which the checksum below also covers.
games=$(python3 -c "import sys; sys.path.insert(0, 'python'); import polars as pl; from evallab import parts; print(pl.scan_parquet(parts(sys.argv[1], 'games')).select(pl.len()).collect().item())" "$work/base")
block="${BLOCK:-20}"
declare -A secs=() count=()
timed() { # name, command...: adds the wall seconds and positions to the name's sums
  local name=$1; shift
  local t0 t1 pos
  t0=$(date +%s.%N)
  "$@" > "$work/block.log" 2>&1 || { cat "$work/block.log"; exit 1; }
  t1=$(date +%s.%N)
  pos=$(grep -oE '(positions|analysed [0-9]+ games \([0-9]+ already done\),) [0-9]+' "$work/block.log" | grep -oE '[0-9]+$' | tail -1)
  secs[$name]=$(echo "${secs[$name]:-0} + $t1 - $t0" | bc)
  count[$name]=$(( ${count[$name]:-0} + pos ))
}
for ((from = 0, k = 0; from < games; from += block, k++)); do
  e1=(timed "evallab --jobs 1" "$bin" analyze "$a1" "${settings[@]}" --jobs 1 --max-games $((from + block)))
  b1=(timed "baseline --jobs 1" python3 scripts/uci_baseline.py "$work/base" --engine "$engine" \
    --nodes "$nodes" --multipv "$multipv" --jobs 1 --skip-games "$from" --max-games "$block")
  if ((k % 2 == 0)); then "${e1[@]}"; "${b1[@]}"; else "${b1[@]}"; "${e1[@]}"; fi
done
for name in "evallab --jobs 1" "baseline --jobs 1"; do
  pps[$name]=$(echo "scale=2; ${count[$name]} / ${secs[$name]}" | bc)
  printf "%-28s %8.1f s %7d positions %8.2f positions/s (blocks of %d games, taking turns)\n" \
    "$name" "${secs[$name]}" "${count[$name]}" "${pps[$name]}" "$block"
done

if [ "$only" = jobs1 ]; then
  echo "evallab / baseline, --jobs 1: $(echo "scale=3; ${pps[evallab --jobs 1]} / ${pps[baseline --jobs 1]}" | bc)"
  echo "--jobs 1 content (rows, sha256 of the sorted rows without nps/time_ms): $(checksum "$a1")"
  exit 0
fi

# Killed halfway (SIGKILL), then resumed.
k=$(fresh k)
half=$(echo "$(grep -oE 'in [0-9.]+s' "$work/a2.log" | grep -oE '[0-9.]+') / 2" | bc)
# The binary itself in the background (a function would be a subshell, and
# SIGKILL would leave evallab running).
"$bin" analyze "$k" "${settings[@]}" --jobs 2 --commit-every 5 --quiet &
pid=$!
sleep "$half"
kill -9 "$pid"; wait "$pid" 2>/dev/null || true
echo "killed after ${half}s: $(python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print(sum(c['games'] for a in m.get('analyses',[]) for c in a['chunks']), 'games committed')" "$k/manifest.json")"
analyze "$k" --jobs 2 2>&1 | tail -1

echo "content (rows, sha256 of the sorted rows without nps/time_ms):"
echo "  --jobs 2         $(checksum "$a2")"
echo "  --jobs 1         $(checksum "$a1")"
echo "  killed, resumed  $(checksum "$k")"
echo "evallab / baseline, --jobs 1: $(echo "scale=3; ${pps[evallab --jobs 1]} / ${pps[baseline --jobs 1]}" | bc)"
echo "evallab / baseline, --jobs 2: $(echo "scale=3; ${pps[evallab --jobs 2]} / ${pps[baseline --jobs 2]}" | bc)"
echo "evallab --jobs 2 / --jobs 1:  $(echo "scale=3; ${pps[evallab --jobs 2]} / ${pps[evallab --jobs 1]}" | bc)"
echo "baseline --jobs 2 / --jobs 1: $(echo "scale=3; ${pps[baseline --jobs 2]} / ${pps[baseline --jobs 1]}" | bc)"
echo "agreement of the archive with the --jobs 2 analysis:"
"$bin" agreement "$a2" --by engine

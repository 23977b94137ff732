#!/usr/bin/env bash
# Whole-process analysis benchmark: `evallab analyze` beside the minimal UCI
# driver scripts/uci_baseline.py (same positions, engine, options and limit),
# with 1 and 2 jobs, in one run. Also checks the acceptance properties: the
# --jobs 1 and --jobs 2 tables hold the same rows, and so does a run killed
# with SIGKILL halfway and resumed.
#
#   scripts/bench_analyze.sh [INPUT] [NODES] [MULTIPV]
#       defaults: ../shared/tcec/TCEC_Season_9_-_Superfinal.pgn.zst (100 games),
#       20000 nodes, MultiPV 3; ENGINE=/usr/games/stockfish
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
settings=(--engine "$engine" --nodes "$nodes" --multipv "$multipv" --label bench)
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
run "evallab --jobs 2" "$work/a2.log" analyze "$a2" --jobs 2
grep -oE 'engine [0-9]+ nps' "$work/a2.log" || true
run "evallab --jobs 1" "$work/a1.log" analyze "$a1" --jobs 1
run "baseline --jobs 2" "$work/b2.log" python3 scripts/uci_baseline.py "$work/base" \
  --engine "$engine" --nodes "$nodes" --multipv "$multipv" --jobs 2
run "baseline --jobs 1" "$work/b1.log" python3 scripts/uci_baseline.py "$work/base" \
  --engine "$engine" --nodes "$nodes" --multipv "$multipv" --jobs 1

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

#!/usr/bin/env bash
# Whole-process ingest benchmark: evallab on the TCEC archive (zstd and plain,
# 1 and 2 jobs, with and without PV) beside `pgn-extract -r` (Debian), which
# parses and validates the same plain PGN, all in one run.
#
#   scripts/bench_ingest.sh [ARCHIVE_DIR]     (default ../shared/tcec; .pgn.zst or plain .pgn)
#   EVALLAB_BEFORE=/path/to/old/evallab scripts/bench_ingest.sh
#
# Prints a table: wall and CPU seconds, peak RSS, plies/s, plies/s per CPU
# second (the per-core rate), MB/s of decompressed PGN and the dataset's size.
# With EVALLAB_BEFORE, every evallab row runs the old binary right before the
# new one (A B A B …), so that both see the same machine load.
#
# The floor rows time, each alone and on one core, the parts that any ingest
# writing these tables must do (crates/evallab-pgn/examples/floor.rs): validate
# the moves (pgn-reader + shakmaty, the yardstick), hash the inputs (sha256),
# evallab's parser without its writer, and compress the PV column's bytes with
# `zstd -1` (as shipped) and `lz4 -1` (the fastest codec Parquet has), when
# those tools are installed.
#
# BENCH_X4=1 adds the 1 -> 2 jobs speed-up and peak RSS on the plain archive
# concatenated 4x into one file (a few minutes more, 1.7 GB of temp space).
#
# BENCH_REPEAT=N (default 3) runs the whole table N times, interleaved, and
# prints each row's fastest run: on a shared virtual machine the same binary
# varied by ±25 % from run to run, and the fastest run is the one least
# disturbed by its neighbours.
# PYTHON=/path/to/python (default python3, which needs polars) reads the
# outputs back at the end (scripts/scan_moves.py); without polars that step is
# skipped with a note.
set -euo pipefail
cd "$(dirname "$0")/.."
archive="${1:-../shared/tcec}"
target="${CARGO_TARGET_DIR:-target}"
bin="${EVALLAB:-$target/release/evallab}"
before="${EVALLAB_BEFORE:-}"
repeat="${BENCH_REPEAT:-3}"
[ -d "$archive" ] || { echo "no archive at $archive" >&2; exit 1; }
export PATH="$PATH:/usr/games"  # Debian installs pgn-extract there
command -v pgn-extract >/dev/null || apt-get install -y -q pgn-extract >/dev/null
[ -x /usr/bin/time ] || apt-get install -y -q time >/dev/null
[ -x "$bin" ] || cargo build --release --quiet
cargo build --release --quiet -p evallab-pgn --example floor
floor="$target/release/examples/floor"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
scripts/plain_archive.sh "$archive" "$work/plain"
mb=$(du -cb "$work"/plain/*.pgn | tail -1 | awk '{printf "%.1f", $1/1e6}')

# One warm-up read so that every run sees the files in the page cache.
cat "$archive"/* "$work"/plain/*.pgn > /dev/null
# The archive as given: zstd (../shared/tcec) or plain (master-archive/).
kind=plain
compgen -G "$archive/*.zst" > /dev/null && kind=zst

plies=""
names=()
declare -A best
run() { # name, command...: one run; keeps the row's fastest
  local name=$1; shift
  rm -rf "$work/ds"
  /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$@" > /dev/null 2> "$work/err" || { cat "$work/err"; exit 1; }
  read -r wall user sys rss < "$work/t"
  if [ -z "$plies" ] && [ -f "$work/ds/manifest.json" ]; then
    plies=$(python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print(sum(i['plies'] for r in m['runs'] for i in r['inputs']))" "$work/ds/manifest.json")
  fi
  local out="-"
  [ -d "$work/ds" ] && out=$(du -sb "$work/ds" | awk '{printf "%.1f", $1/1e6}')
  [ -n "${best[$name]+x}" ] || names+=("$name")
  if [ -z "${best[$name]+x}" ] || awk -v a="$wall" -v b="${best[$name]%% *}" 'BEGIN { exit !(a < b) }'; then
    best[$name]="$wall $user $sys $rss $out"
  fi
}
# An evallab row: the old binary (EVALLAB_BEFORE) first, then the new one;
# a leading `taskset` pins the process to core 0.
row() { # name, evallab arguments...
  local name=$1; shift
  local prefix=()
  [ "$1" = taskset ] && { prefix=(taskset -c 0); shift; }
  if [ -n "$before" ]; then
    run "before: $name" "${prefix[@]}" "$before" ingest --quiet --overwrite -o "$work/ds" "$@"
  fi
  run "$name" "${prefix[@]}" "$bin" ingest --quiet --overwrite -o "$work/ds" "$@"
}

# The PV column's bytes, back to back, for the codecs' floor rows.
"$floor" pv "$work"/plain/*.pgn > "$work/pv.bin" 2> /dev/null
codecs=()
command -v zstd > /dev/null && codecs+=("zstd -1")
command -v lz4 > /dev/null && codecs+=("lz4 -1")

for _ in $(seq "$repeat"); do
  # One core for the whole process (reader, parser and writer threads share
  # it): the baseline for the 1 -> 2 core speed-up.
  row "evallab $kind (as given) --jobs 1, 1 core" taskset "$archive" --jobs 1
  row "evallab $kind (as given) --jobs 1"         "$archive" --jobs 1
  row "evallab $kind (as given) --jobs 2"         "$archive" --jobs 2
  row "evallab plain --jobs 1, 1 core"   taskset "$work/plain" --jobs 1
  row "evallab plain --jobs 2"           "$work/plain" --jobs 2
  row "evallab plain --jobs 2 --no-pv"   "$work/plain" --jobs 2 --no-pv
  run "pgn-extract -r (plain, 1 core)" taskset -c 0 pgn-extract -r -s "$work"/plain/*.pgn
  run "floor: validate (pgn-reader + shakmaty)" taskset -c 0 "$floor" validate "$work"/plain/*.pgn
  run "floor: sha256 of the inputs" taskset -c 0 "$floor" hash "$work"/plain/*.pgn
  run "floor: evallab parse, no writer" taskset -c 0 "$floor" parse "$work"/plain/*.pgn
  for c in "${codecs[@]}"; do
    # shellcheck disable=SC2086 # "zstd -1" is a command and its option
    run "floor: $c of the PV bytes" taskset -c 0 $c -q -c "$work/pv.bin"
  done
done

# BENCH_X4=1: the 1 -> 2 jobs speed-up and the peak RSS on the plain archive
# concatenated 4x into one file (1.7 GB in the temp folder): one input, so its
# hashing and its memory bound are on the critical path. Same interleaving.
if [ -n "${BENCH_X4:-}" ]; then
  for _ in 1 2 3 4; do cat "$work"/plain/*.pgn; done > "$work/x4.pgn"
  cat "$work/x4.pgn" > /dev/null
  for _ in $(seq "$repeat"); do
    for j in 2 1; do
      pin=()
      [ "$j" = 1 ] && pin=(taskset -c 0)
      [ -n "$before" ] && run "x4 before --jobs $j" "${pin[@]}" "$before" ingest --quiet --overwrite -o "$work/ds" "$work/x4.pgn" --jobs "$j"
      run "x4 new --jobs $j" "${pin[@]}" "$bin" ingest --quiet --overwrite -o "$work/ds" "$work/x4.pgn" --jobs "$j"
    done
  done
  rm -f "$work/x4.pgn"
fi

echo "fastest of $repeat runs per row"
printf "%-42s %7s %7s %8s %12s %12s %8s %8s\n" run wall_s cpu_s rss_MB plies/s plies/cpu_s MB/s out_MB
for name in "${names[@]}"; do
  [ "${name#x4 }" = "$name" ] || continue
  read -r wall user sys rss out <<< "${best[$name]}"
  awk -v n="$name" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" -v p="$plies" -v mb="$mb" -v o="$out" 'BEGIN {
    c = u + s; printf "%-42s %7.2f %7.2f %8.0f %12.0f %12.0f %8.1f %8s\n", n, w, c, r/1024, p/w, p/c, mb/w, o }'
done
echo "plies: $plies; decompressed PGN: $mb MB; PV bytes: $(du -b "$work/pv.bin" | awk '{printf "%.1f", $1/1e6}') MB"
if [ -n "${BENCH_X4:-}" ]; then
  echo
  echo "the plain archive concatenated 4x into one file (--jobs 1 pinned to one core); fastest of $repeat"
  printf "%-8s %10s %10s %8s %12s %12s\n" binary j1_wall_s j2_wall_s speedup j1_rss_MB j2_rss_MB
  for b in ${before:+before} new; do
    read -r w1 _ _ r1 _ <<< "${best[x4 $b --jobs 1]}"
    read -r w2 _ _ r2 _ <<< "${best[x4 $b --jobs 2]}"
    awk -v b="$b" -v w1="$w1" -v w2="$w2" -v r1="$r1" -v r2="$r2" 'BEGIN {
      printf "%-8s %10.2f %10.2f %8.2f %12.0f %12.0f\n", b, w1, w2, w1/w2, r1/1024, r2/1024 }'
  done
fi

# Read speed of the output (the archive as given, --jobs 2): the old binary's and the new one's.
echo
outputs=()
for b in ${before:+"$before"} "$bin"; do
  out="$work/out$((${#outputs[@]} + 1))"
  "$b" ingest --quiet --overwrite -o "$out" "$archive" --jobs 2 > /dev/null
  outputs+=("$out")
done
# polars from $PYTHON (default python3): a machine without it gets a note, not
# a traceback after the whole table.
py="${PYTHON:-python3}"
if "$py" -c "import polars" 2>/dev/null; then
  "$py" scripts/scan_moves.py "${outputs[@]}"
  echo "(${outputs[*]##*/}: ${before:+EVALLAB_BEFORE, }the new binary)"
else
  echo "read speed skipped: $py has no polars (PYTHON=/path/to/python with polars)"
fi

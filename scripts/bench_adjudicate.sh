#!/usr/bin/env bash
# Whole-process adjudication benchmark on the TCEC archive: one rule set over
# the full corpus dataset (each preset, best of 3) and a 40-point sweep
# (tcec.draw.score 5..50 x tcec.draw.movecount 3..6), targets < 2 s and < 20 s; and
# the peak RSS of a 1- and a 234-setting clock sweep (within 1.5x of each other).
#
#   scripts/bench_adjudicate.sh [ARCHIVE_DIR]     (default ../shared/tcec)
#
# Ingests the archive into a temporary dataset first (not timed).
set -euo pipefail
cd "$(dirname "$0")/.."
archive="${1:-../shared/tcec}"
target="${CARGO_TARGET_DIR:-target}"
bin="${EVALLAB:-$target/release/evallab}"
[ -d "$archive" ] || { echo "no archive at $archive" >&2; exit 1; }
[ -x /usr/bin/time ] || apt-get install -y -q time >/dev/null
[ -x "$bin" ] || cargo build --release --quiet

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" ingest "$archive" -o "$work/ds" --quiet
cat "$work"/ds/*/*.parquet > /dev/null  # page cache warm for every run

best() { # name, runs, command...
  local name=$1 runs=$2; shift 2
  local b=""
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -o "$work/t" "$@" > /dev/null 2> "$work/err" || { cat "$work/err"; exit 1; }
    read -r wall rss < "$work/t"
    if [ -z "$b" ] || awk -v a="$wall" -v b="${b% *}" 'BEGIN {exit !(a < b)}'; then b="$wall $rss"; fi
  done
  printf '%-34s %7.2f s wall  %6.0f MB peak RSS\n' "$name" "${b% *}" "$(awk -v r="${b#* }" 'BEGIN {print r/1024}')"
}

echo "adjudication on $(nproc) cores, $archive"
for r in tcec cutechess terra; do
  best "one rule set ($r), full corpus" 3 "$bin" adjudicate "$work/ds" --rules "$r"
done
best "40-point sweep (tcec draw rule)" 1 "$bin" adjudicate "$work/ds" --rules tcec \
  --sweep tcec.draw.score=5..50:5 --sweep tcec.draw.movecount=3..6:1
# Memory must not grow with the grid: the clock sweep of pipelines/tcec-archive.toml
# (234 settings) against one setting of it, in the same run.
best "clock sweep, 1 setting" 1 "$bin" adjudicate "$work/ds" --rules tcec --check-clocks \
  --sweep tcec.draw.score=5..5:1
best "clock sweep, 234 settings" 1 "$bin" adjudicate "$work/ds" --rules tcec --check-clocks \
  --sweep tcec.draw.score=5..30:1 --sweep tcec.draw.movenumber=1..41:5

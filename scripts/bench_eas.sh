#!/usr/bin/env bash
# Whole-process EAS labels benchmark: the TCEC archive ingested once into a
# dataset, then `evallab eas --relabel` five times (the labels of every game,
# computed afresh and stored), with the labels' own time as evallab reports it
# and the process's wall and CPU seconds (CPU time is what to compare on a busy
# machine) and peak RSS.
#
#   scripts/bench_eas.sh [ARCHIVE_DIR]     (default ../shared/tcec)
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
echo "| run | labels s | games | games/s | process wall s | process CPU s | peak RSS MB |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for run in 1 2 3 4 5; do
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$bin" eas "$work/ds" --relabel --format csv \
    > /dev/null 2> "$work/err"
  read -r games secs < <(sed -n 's/^eas labels: \([0-9]*\) games in \([0-9.]*\)s.*/\1 \2/p' "$work/err")
  read -r wall user sys rss < "$work/time"
  awk -v r="$run" -v s="$secs" -v g="$games" -v w="$wall" -v c="$user" -v k="$sys" -v m="$rss" \
    'BEGIN { printf "| %d | %.2f | %d | %.0f | %.2f | %.2f | %.0f |\n", r, s, g, g / s, w, c + k, m / 1024 }'
done

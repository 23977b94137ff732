#!/usr/bin/env bash
# Where ingest's CPU time goes, per stage: `perf record` (the cpu-clock
# software event: this machine's VMs have no hardware counters) of one
# single-threaded ingest of the plain (decompressed) archive, its samples
# summed by the symbol classes of scripts/profile_stages.py.
#
#   scripts/profile_ingest.sh [ARCHIVE_DIR]   (default ../shared/tcec)
#   EVALLAB=/path/to/evallab                   (default: the release binary)
#
# The release binary keeps its symbols (strip = "debuginfo"), which is all a
# flat profile needs; inlined functions count in their caller. The wheel's
# build (maturin, as CI runs it) strips the same file: cargo then links it again.
set -euo pipefail
cd "$(dirname "$0")/.."
archive="${1:-../shared/tcec}"
target="${CARGO_TARGET_DIR:-target}"
bin="${EVALLAB:-$target/release/evallab}"
if [ -z "${EVALLAB:-}" ]; then cargo build --release --quiet; fi
# wc reads nm's whole output: `grep -q` would close the pipe early, and under
# pipefail nm's SIGPIPE would then read as "no symbols".
if [ "$(nm "$bin" 2>/dev/null | wc -l)" -eq 0 ]; then
  echo "$bin has no symbols (stripped): the profile would name no function" >&2
  exit 2
fi
command -v perf >/dev/null || apt-get install -y -q linux-perf >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
scripts/plain_archive.sh "$archive" "$work/plain"
/usr/bin/time -f "%U user s, %S sys s, %M KB peak" -o "$work/t" \
  perf record -q -e cpu-clock -F 1999 -o "$work/perf.data" \
  "$bin" ingest "$work/plain" -o "$work/ds" --quiet --jobs 1 >/dev/null
echo "evallab ingest --jobs 1 of $(du -sh "$work/plain" | cut -f1) plain PGN: $(cat "$work/t")"
perf report -i "$work/perf.data" --no-children --sort symbol --stdio 2>/dev/null |
  python3 scripts/profile_stages.py

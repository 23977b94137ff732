#!/usr/bin/env bash
# Fuzzes evallab-pgn with cargo-fuzz (libFuzzer): each target (comment, split,
# game) runs for SECONDS (default 30) from its committed seeds fuzz/seeds/TARGET
# and the live corpus fuzz/corpus/TARGET (gitignored, grows across runs).
#
#   scripts/fuzz.sh [SECONDS]
#
# Installs cargo-fuzz if it is missing. cargo-fuzz passes nightly-only flags
# (-Zsanitizer=address and others) to rustc: on a stable toolchain
# RUSTC_BOOTSTRAP=1 lets it do so. A crash stops the run with exit code 1 and
# leaves its input in fuzz/artifacts/TARGET/ (replay it with
# `RUSTC_BOOTSTRAP=1 cargo fuzz run TARGET fuzz/artifacts/TARGET/crash-…`).
# The fuzz build has its own target dir (fuzz/target, or $FUZZ_TARGET_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-30}"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
export RUSTC_BOOTSTRAP=1
# cargo-fuzz reads CARGO_TARGET_DIR; the main crate's one is not wanted here.
export CARGO_TARGET_DIR="${FUZZ_TARGET_DIR:-$PWD/fuzz/target}"
targets=(comment split game)
cargo fuzz build
status=0
for t in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$t"
  log="fuzz/corpus/$t.log"
  echo "== fuzz $t for ${secs}s (log: $log)"
  if ! cargo fuzz run "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
      -max_total_time="$secs" -print_final_stats=1 >"$log" 2>&1; then
    status=1
    grep -E -A15 'panicked|ERROR: |SUMMARY' "$log" | head -40 || true
    echo "!! $t crashed: input in fuzz/artifacts/$t/"
  fi
  grep -E '^stat::(number_of_executed_units|new_units_added|peak_rss_mb)' "$log" || true
done
exit "$status"

#!/usr/bin/env bash
# Fuzzes evallab-pgn with cargo-fuzz (libFuzzer): each target (comment, split,
# game) runs for SECONDS (default 30) from its committed seeds fuzz/seeds/TARGET
# and the live corpus fuzz/corpus/TARGET (gitignored, grows across runs).
#
#   scripts/fuzz.sh [SECONDS]
#
# Installs cargo-fuzz if it is missing. cargo-fuzz passes nightly-only flags
# (-Z…) to rustc: on a stable toolchain RUSTC_BOOTSTRAP=1 lets it do so. A
# crash makes the script exit 1 (after the other targets) and leaves its input
# in fuzz/artifacts/TARGET/; replay it with
# `RUSTC_BOOTSTRAP=1 cargo fuzz run -s none TARGET fuzz/artifacts/TARGET/crash-…`.
# The fuzz build has its own target dir (fuzz/target, or $FUZZ_TARGET_DIR).
#
# No sanitizer by default (FUZZ_SANITIZER=address for ASan): the crate is safe
# Rust, and ASan's allocator makes the splitter's 1 MiB buffers so slow that
# split runs ~15x fewer inputs. Overflow checks and debug assertions stay on.
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-30}"
# (Not into CI's CARGO_TARGET_DIR: cargo install would build there.)
command -v cargo-fuzz >/dev/null || env -u CARGO_TARGET_DIR cargo install cargo-fuzz --locked
export RUSTC_BOOTSTRAP=1
# cargo-fuzz reads CARGO_TARGET_DIR; the main crate's one is not wanted here.
export CARGO_TARGET_DIR="${FUZZ_TARGET_DIR:-$PWD/fuzz/target}"
sanitizer="${FUZZ_SANITIZER:-none}"
targets=(comment split game)
cargo fuzz build -s "$sanitizer"
status=0
for t in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$t"
  log="fuzz/corpus/$t.log"
  echo "== fuzz $t for ${secs}s (log: $log)"
  if ! cargo fuzz run -s "$sanitizer" "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
      -max_total_time="$secs" -print_final_stats=1 >"$log" 2>&1; then
    status=1
    grep -E -A15 'panicked|ERROR: |SUMMARY' "$log" | head -40 || true
    echo "!! $t crashed: input in fuzz/artifacts/$t/"
  fi
  grep -E '^stat::(number_of_executed_units|new_units_added|peak_rss_mb)' "$log" || true
done
exit "$status"

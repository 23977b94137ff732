#!/usr/bin/env bash
# `evallab ratings` on a whole dataset (the TCEC archive, ~2,000 engine names
# in 169 connectivity groups, so --each-group), 1,000 replays, timed whole
# process with GNU time: wall, CPU, peak RSS. Budget (issue 30): under 5 s
# wall on the 2-core machine.
#
#   scripts/bench_ratings.sh DATASET [EXTRA OPTIONS...]
#
# Runs twice: with Ordo's redraw rule (--redraws 100, the default) and
# with every replay rated as drawn (--redraws 0); see docs/guide/ratings.md.
set -euo pipefail
cd "$(dirname "$0")/.."
ds="${1:?usage: scripts/bench_ratings.sh DATASET [OPTIONS...]}"
shift
target="${CARGO_TARGET_DIR:-target}"
bin="${EVALLAB:-$target/release/evallab}"
[ -x /usr/bin/time ] || apt-get install -y -q time >/dev/null
[ -x "$bin" ] || cargo build --release --quiet
out=$(mktemp -d "${TMPDIR:-/tmp}/bench-ratings.XXXXXX")
trap 'rm -rf "$out"' EXIT
printf '| redraws | wall s | CPU s | peak RSS MB | groups | engines rated |\n|---|---|---|---|---|---|\n'
for redraws in 0 100; do
  /usr/bin/time -f '%e %U %S %M' -o "$out/time" \
    "$bin" ratings "$ds" --each-group --bootstrap 1000 --redraws "$redraws" \
    --format csv -o "$out/r.csv" "$@"
  read -r wall user sys rss < "$out/time"
  groups=$(($(wc -l < "$out/r.summary.csv") - 1))
  rated=$(awk -F, 'NR > 1 && $3 != ""' "$out/r.csv" | wc -l)
  printf '| %s | %s | %.2f | %d | %d | %d |\n' "$redraws" "$wall" "$(echo "$user + $sys" | bc)" \
    $((rss / 1024)) "$groups" "$rated"
done

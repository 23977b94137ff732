#!/usr/bin/env bash
# Whole-archive benchmark: every step of pipelines/tcec-archive.toml and
# pipelines/tcec-superfinals.toml, each as its own process, on a folder of PGN
# (the whole TCEC archive: `master-archive/` of TCEC-Chess/tcecgames), and on
# that archive concatenated 2x and 4x (each copy's events renamed so they stay
# distinct: the first number of the Event tag gets the copy's prefix,
# "TCEC Season 9 - Superfinal" -> "TCEC Season 2009 - Superfinal").
#
#   scripts/bench_archive.sh DIR                 (copies: 1 2 4)
#   BENCH_COPIES="1" scripts/bench_archive.sh DIR
#
# Prints one table: per copy count, pipeline and step, the wall and CPU
# seconds and the peak RSS of that step's process (GNU time), then each
# pipeline's totals. Budget (issue 27): every step under 2 GB peak RSS on the
# archive, under 4 GB on the 4x archive; the whole 1x run under 10 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
archive="${1:?usage: scripts/bench_archive.sh DIR}"
copies="${BENCH_COPIES:-1 2 4}"
target="${CARGO_TARGET_DIR:-target}"
bin="${EVALLAB:-$target/release/evallab}"
[ -d "$archive" ] || { echo "no archive at $archive" >&2; exit 1; }
[ -x /usr/bin/time ] || apt-get install -y -q time >/dev/null
[ -x "$bin" ] || cargo build --release --quiet

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-archive.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Copy k of the archive as plain PGN, events renamed for k > 1.
make_copy() { # k, dir
  local k=$1 dir=$2 f name
  mkdir -p "$dir"
  for f in "$archive"/*.pgn "$archive"/*.pgn.zst; do
    [ -e "$f" ] || continue
    name=$(basename "${f%.zst}")
    case "$f" in *.zst) zstd -q -d -c "$f" ;; *) cat "$f" ;; esac |
      if [ "$k" = 1 ]; then cat; else
        sed -E "s/^\[Event \"([^0-9\"]*)([0-9]+)/[Event \"\1${k}00\2/; t; s/^\[Event \"([^\"]*)\"/[Event \"\1 copy $k\"/"
      fi > "$dir/${k}_$name"
  done
}

rows="$work/rows"
printf '%-6s %-12s %-4s %-11s %9s %9s %9s\n' copies pipeline step command wall_s cpu_s rss_MB > "$rows"
for n in $copies; do
  input="$work/archive-$n"
  for k in $(seq "$n"); do make_copy "$k" "$input"; done
  cat "$input"/* > /dev/null  # page cache warm
  for spec in tcec-archive tcec-superfinals; do
    ds="$work/ds-$n-$spec"
    mapfile -t steps < <("$bin" run "pipelines/$spec.toml" --set input="$input" \
      --set dataset="$ds" --set out="$ds/out" --dry-run --force 2>/dev/null)
    i=0
    for line in "${steps[@]}"; do
      i=$((i + 1))
      words=${line#evallab }
      /usr/bin/time -f "%e %U %S %M" -o "$work/t" bash -c "exec \"\$0\" $words" "$bin" \
        > "$work/step.out" 2> "$work/step.err" || {
        echo "step $i of $spec ($n copies) failed: $line" >&2
        tail -20 "$work/step.err" >&2
        exit 1
      }
      read -r wall user sys rss < "$work/t"
      printf '%-6s %-12s %-4s %-11s %9.2f %9.2f %9.0f\n' "${n}x" "${spec#tcec-}" "$i" \
        "${words%% *}" "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}')" \
        "$(awk -v r="$rss" 'BEGIN {print r / 1024}')" >> "$rows"
    done
  done
  rm -rf "$input" "$work"/ds-"$n"-*
done

cat "$rows"
echo
awk 'NR > 1 { k = $1 " " $2; w[k] += $5; c[k] += $6; if ($7 > m[k]) m[k] = $7; if (!(k in o)) { o[k] = ++n; key[n] = k } }
     END { printf "%-19s %9s %9s %9s\n", "totals", "wall_s", "cpu_s", "max_rss_MB";
           for (i = 1; i <= n; i++) printf "%-19s %9.2f %9.2f %9.0f\n", key[i], w[key[i]], c[key[i]], m[key[i]] }' "$rows"

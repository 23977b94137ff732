#!/usr/bin/env bash
# The archive's .pgn.zst files decompressed into DIR (the benchmarks' plain
# input, as pgn-extract reads it), its plain .pgn files linked there (the
# whole TCEC archive, master-archive/, is plain), then read once so that the
# page cache holds them.
#
#   scripts/plain_archive.sh ARCHIVE_DIR DIR
set -euo pipefail
archive=$1 out=$2
mkdir -p "$out"
shopt -s nullglob
for f in "$archive"/*.pgn.zst; do
  zstd -q -d -f "$f" -o "$out/$(basename "${f%.zst}")"
done
for f in "$archive"/*.pgn; do
  ln -f "$f" "$out/" 2>/dev/null || cp "$f" "$out/"
done
files=("$out"/*.pgn)
[ ${#files[@]} -gt 0 ] || { echo "no .pgn or .pgn.zst files in $archive" >&2; exit 1; }
cat "$out"/*.pgn > /dev/null

#!/usr/bin/env bash
# The archive's .pgn.zst files decompressed into DIR (the benchmarks' plain
# input, as pgn-extract reads it), then read once so that the page cache
# holds them.
#
#   scripts/plain_archive.sh ARCHIVE_DIR DIR
set -euo pipefail
archive=$1 out=$2
mkdir -p "$out"
for f in "$archive"/*.pgn.zst; do
  zstd -q -d -f "$f" -o "$out/$(basename "${f%.zst}")"
done
cat "$out"/*.pgn > /dev/null

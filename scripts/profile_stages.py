#!/usr/bin/env python3
"""Sum a flat `perf report --sort symbol --stdio` (on stdin) by ingest stage.

Each symbol goes to the first stage whose pattern it matches (most specific
first); what matches none is `other`, and the largest of those are listed so
that the classes can be kept complete. The stages follow the data: read and
decompress, split into games, tags, movetext lexer, SAN to move (shakmaty),
position key, comment dialects, the row builders (Arrow), Parquet encoding,
Parquet compression (zstd), checksums, then allocation and copies, the kernel.
"""

from __future__ import annotations

import re
import sys

STAGES: list[tuple[str, str]] = [
    ("decompress input (zstd/gzip/bzip2)", r"^(ZSTD_decompress|ZSTD_decodeSeq|ZSTD_buildFSETable|HUF_decompress|HUF_readStats|ZSTD_createDCtx|ZSTD_decompressContinue|inflate|BZ2_|flate2)"),
    ("compress Parquet pages (zstd)", r"^(ZSTD_|HUF_|HIST_|FSE_)"),
    ("split into games", r"evallab_pgn::split::"),
    ("tags", r"evallab_pgn::tags::"),
    ("movetext lexer", r"evallab_pgn::movetext::"),
    ("position key (Zobrist)", r"zobrist"),
    ("SAN to move, legality (shakmaty)", r"^(shakmaty::|<shakmaty::)"),
    ("comment dialects", r"evallab_pgn::comment::"),
    ("game state, batch", r"evallab_pgn::game::"),
    ("row builders (evallab -> Arrow)", r"^(arrow_|<arrow_|<evallab::ingest::tables|evallab::ingest::tables|arrow_buffer|<dyn arrow_array)"),
    ("Parquet encoding, statistics", r"^(parquet::|<parquet::)"),
    ("checksums (sha256)", r"sha2::"),
    ("UTF-8 checks, byte search", r"^(core::str::|memchr::|<core::str)"),
    ("allocation", r"^(_int_malloc|_int_free|malloc|cfree|free|realloc|_int_realloc|unlink_chunk|malloc_consolidate|__libc_)"),
    ("copies, fills (memmove/memset)", r"^__mem(move|set|cpy|cmp)"),
    ("kernel (read, write, page faults)", r"^(_raw_|clear_page|exc_page|do_|__handle_mm|handle_mm|copy_|_copy_|filemap|unmap|mas_|memcg|charge_|__alloc|get_page|next_uptodate|__rmqueue|percpu|__folio|irqentry|kmem_|mpage_|__list|finish_task|__rcu|folio|ext4|blk|__x64|entry_|syscall|native_|vfs_|ksys_|__rq|page_|lru|shmem|xas_|zap|tlb|release_pages|rmqueue|__mod|__lruvec|up_|down_|rw_)"),
    ("rayon, threads", r"rayon|crossbeam|std::thread"),
    ("Rust collections", r"^(<alloc::|alloc::|core::ptr::drop_in_place|<core::|core::|hashbrown|ahash)"),
]


def main() -> None:
    sums: dict[str, float] = {name: 0.0 for name, _ in STAGES}
    other: dict[str, float] = {}
    total = 0.0
    for line in sys.stdin:
        m = re.match(r"\s*([0-9.]+)%\s+\[[.k]\]\s+(.*\S)\s*$", line)
        if not m:
            continue
        pct, sym = float(m.group(1)), m.group(2)
        sym = re.sub(r"\s+-\s+-\s*$", "", sym).strip()
        total += pct
        for name, pattern in STAGES:
            if re.search(pattern, sym):
                sums[name] += pct
                break
        else:
            other[sym] = other.get(sym, 0.0) + pct
    rest = sum(other.values())
    print("| stage | share of CPU samples |")
    print("|---|---:|")
    for name, _ in STAGES:
        if sums[name] >= 0.05:
            print(f"| {name} | {sums[name]:.1f} % |")
    print(f"| other | {rest:.1f} % |")
    print(f"| (samples read) | {total:.1f} % |")
    if other:
        print("\nlargest `other` symbols:", file=sys.stderr)
        for sym, pct in sorted(other.items(), key=lambda kv: -kv[1])[:8]:
            print(f"  {pct:5.2f} %  {sym[:100]}", file=sys.stderr)


if __name__ == "__main__":
    main()

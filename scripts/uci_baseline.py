#!/usr/bin/env python3
"""The least a program can do to analyse a dataset's positions with a UCI engine.

The peer of `evallab analyze` in scripts/bench_analyze.sh: the same games (by
event regex), the same positions (before every ply, from each game's start
position, `ucinewgame` per game), the same engine, options and `go` limit, one
engine process per job taking whole games; it parses nothing but waits for
`bestmove`. Prints one line: positions, seconds, positions/s.

    scripts/uci_baseline.py DATASET --engine /usr/games/stockfish \
        --event 'Season 9 Superfinal' --nodes 20000 --multipv 3 --jobs 2
"""

import argparse
import multiprocessing
import re
import subprocess
import sys
import time
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))
from evallab import parts  # noqa: E402


def games(dataset, event):
    g = pl.scan_parquet(parts(dataset, "games")).select("game_id", "event", "start_fen", "variant")
    if event:
        g = g.filter(pl.col("event").fill_null("").str.contains(event))
    g = g.collect()
    m = (
        pl.scan_parquet(parts(dataset, "moves"))
        .select("game_id", "ply", "uci")
        .join(g.lazy().select("game_id"), on="game_id", how="semi")
        .sort("game_id", "ply")
        .group_by("game_id", maintain_order=True)
        .agg(pl.col("uci"))
        .collect()
    )
    moves = dict(zip(m["game_id"], m["uci"]))
    return [
        (fen, variant == "chess960", list(moves.get(gid, [])))
        for gid, fen, variant in zip(g["game_id"], g["start_fen"], g["variant"])
    ]


ENGINE = None  # this process's engine: [Popen, chess960 setting]


def start(engine, options):
    global ENGINE
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    ENGINE = [p, False]
    send("uci")
    wait("uciok")
    for name, value in options:
        send(f"setoption name {name} value {value}")


def send(s):
    ENGINE[0].stdin.write(s + "\n")


def wait(prefix):
    for line in ENGINE[0].stdout:
        if line.startswith(prefix):
            return line
    raise RuntimeError(f"engine exited before {prefix}")


def game(args):
    go, (fen, is960, moves) = args
    if is960 != ENGINE[1]:
        send(f"setoption name UCI_Chess960 value {'true' if is960 else 'false'}")
        ENGINE[1] = is960
    send("ucinewgame")
    send("isready")
    wait("readyok")
    begin = f"fen {fen}" if fen else "startpos"
    for ply in range(len(moves)):
        send(f"position {begin} moves {' '.join(moves[:ply])}".rstrip())
        send(go)
        wait("bestmove")
    return len(moves)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dataset")
    ap.add_argument("--engine", required=True)
    ap.add_argument("--event")
    ap.add_argument("--nodes", type=int, required=True)
    ap.add_argument("--multipv", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--skip-games", type=int, default=0, help="leave out the first N games (dataset order)")
    ap.add_argument("--max-games", type=int, help="only the first N games (dataset order, after --skip-games)")
    a = ap.parse_args()
    if a.event:
        re.compile(a.event)
    todo = games(a.dataset, a.event)[a.skip_games :]
    todo = todo[: a.max_games]
    options = [("Threads", a.threads), ("Hash", a.hash), ("MultiPV", a.multipv)]
    go = f"go nodes {a.nodes}"
    # One engine per process; each takes the next game when it is free, as
    # evallab's workers do. The engines start before the clock does.
    with multiprocessing.Pool(a.jobs, initializer=start, initargs=(a.engine, options)) as pool:
        pool.map(time.sleep, [0.2] * a.jobs, chunksize=1)
        t = time.perf_counter()
        n = sum(pool.imap_unordered(game, [(go, g) for g in todo], chunksize=1))
        secs = time.perf_counter() - t
    print(f"positions {n} seconds {secs:.2f} positions/s {n / secs:.2f}")


if __name__ == "__main__":
    main()

"""Check `evallab standings` against Ordo: points and games per engine, event
by event.

    ORDO=/path/to/ordo python3 scripts/standings_vs_ordo.py EVALLAB DATASET INPUT...

DATASET must be the ingest of the INPUTs (PGN files or folders of *.pgn,
*.pgn.zst, *.pgn.gz).
The games of the INPUTs are split by their Event tag (a game starts at a
line `[Event `; games of one event in several files go together, as
`evallab standings --by event` groups them), and Ordo rates each event alone:

    ordo -q -G -p EVENT.pgn -c EVENT.csv

POINTS and PLAYED do not depend on the rating model, so none is fitted
(`-W -D` loop without end on a small match without a draw, such as a
5-game TCEC Cup match). `-G` makes Ordo rate a pool that is not connected
instead of stopping;
Ordo prints every player with at least one finished game (it rates players
with all wins or all losses apart, but prints them) and ignores `*` games,
as the standings do. The CSV's POINTS and PLAYED are compared with
`EVALLAB standings DATASET --format csv` (points, games); engines with no
finished game are left out on both sides. Prints the number of events and
engines checked and every mismatch (with the rejected games of the
dataset), and exits 1 on a mismatch. Games whose Result tag is not a
result (the ingest rejects them) are left out of Ordo's input and listed
with the dataset's reject rows.
"""
import csv
import gzip
import io
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

import polars as pl

EVENT_RE = re.compile(rb'^\[Event "(.*)"\]\s*$')
RESULT_RE = re.compile(rb'^\[Result "(.*)"\]\s*$')
RESULTS = {b"1-0", b"0-1", b"1/2-1/2", b"*"}


def pgn_files(inputs):
    for p in inputs:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                yield from (os.path.join(root, n) for n in sorted(names)
                            if n.endswith((".pgn", ".pgn.zst", ".pgn.gz")))
        else:
            yield p


def open_pgn(path):
    """The file's lines as bytes; .zst through the zstd tool, .gz with gzip."""
    if path.endswith(".zst"):
        return io.BytesIO(subprocess.run(["zstd", "-q", "-d", "-c", path],
                                         capture_output=True, check=True).stdout)
    if path.endswith(".gz"):
        return gzip.open(path, "rb")
    return open(path, "rb")


def split_by_event(inputs):
    """{event name (str): PGN bytes of its games}, {event: games left out}.

    A game whose Result tag is none of 1-0, 0-1, 1/2-1/2, * is left out (Ordo
    stops at it; evallab's ingest rejects it, see the `rejects` table)."""
    events, dropped = defaultdict(list), defaultdict(int)

    def add(event, game):
        result = next((m.group(1) for m in map(RESULT_RE.match, game) if m), None)
        if result in RESULTS:
            events[event].extend(game)
        else:
            dropped[event] += 1

    for path in pgn_files(inputs):
        event, game = None, []
        with open_pgn(path) as f:
            for line in f:
                m = EVENT_RE.match(line) if line.startswith(b"[Event ") else None
                if m:
                    if event is not None:
                        add(event, game)
                    event, game = m.group(1).decode("utf-8", "replace"), []
                game.append(line)
        if event is not None:
            add(event, game)
    return {e: b"".join(lines) for e, lines in events.items()}, dropped


def ordo(ordo_bin, workdir, i, pgn):
    src = os.path.join(workdir, f"event{i}.pgn")
    out = os.path.join(workdir, f"event{i}.csv")
    with open(src, "wb") as f:
        f.write(pgn)
    try:
        run = subprocess.run([ordo_bin, "-q", "-G", "-p", src, "-c", out],
                             capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return None, "timed out after 120 s"
    if run.returncode != 0 or not os.path.exists(out):
        return None, run.stderr.strip()
    with open(out, newline="", encoding="utf-8", errors="replace") as f:
        rows = list(csv.DictReader(f))
    return {r["PLAYER"]: (float(r["POINTS"]), int(r["PLAYED"])) for r in rows}, None


def main():
    if len(sys.argv) < 4 or "ORDO" not in os.environ:
        sys.exit(__doc__)
    evallab, dataset, inputs = sys.argv[1], sys.argv[2], sys.argv[3:]
    ordo_bin = os.environ["ORDO"]
    out = subprocess.run([evallab, "standings", dataset, "--format", "csv"],
                         capture_output=True, check=True).stdout
    ours = defaultdict(dict)
    for r in pl.read_csv(io.BytesIO(out), infer_schema_length=0).iter_rows(named=True):
        if int(r["games"]) > 0:
            ours[r["event"]][r["engine"]] = (float(r["points"]), int(r["games"]))
    rejects = pl.read_parquet(os.path.join(dataset, "rejects", "*.parquet"))
    events, dropped = split_by_event(inputs)
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        names = sorted(events)
        results = list(pool.map(lambda x: ordo(ordo_bin, tmp, *x),
                                ((i, events[e]) for i, e in enumerate(names))))
    checked_events = checked_engines = 0
    mismatches = []
    for event, (theirs, err) in zip(names, results):
        if theirs is None:
            theirs = {}
            if event in ours:
                mismatches.append((event, f"ordo failed: {err}"))
                continue
        mine = ours.get(event, {})
        if not theirs and not mine:
            continue  # no finished game: nothing for either to print
        checked_events += 1
        bad = []
        for engine in sorted(set(theirs) | set(mine)):
            checked_engines += 1
            if theirs.get(engine) != mine.get(engine):
                bad.append(f"  {engine}: ordo {theirs.get(engine)} evallab {mine.get(engine)}")
        if bad:
            rej = rejects.filter(pl.col("event") == event)
            why = [f"  reject: game {r['game_number']} of {r['source_file']} ({r['white']} - "
                   f"{r['black']}): {r['reason']}" for r in rej.iter_rows(named=True)]
            mismatches.append((event, "\n".join(bad + why)))
    missing = sorted(set(ours) - set(names))
    for event in missing:
        mismatches.append((event, "  in the dataset, not in the inputs"))
    print(f"{len(events)} events in the inputs; {checked_events} events and "
          f"{checked_engines} (event, engine) rows compared; {len(mismatches)} events differ")
    print(f"{sum(dropped.values())} games without a valid Result tag left out; "
          f"{rejects.height} games rejected by the ingest")
    for event, n in sorted(dropped.items()):
        rej = rejects.filter(pl.col("event") == event)
        print(f"  {event}: {n} left out; rejected: "
              + "; ".join(f"game {r['game_number']} of {os.path.basename(r['source_file'])}: {r['reason']}"
                          for r in rej.iter_rows(named=True)))
    for event, text in mismatches:
        print(f"{event}:\n{text}")
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""evallab's opening names against the table README's rule, played by python-chess.

    scripts/openings_check.py DATASET [--table DIR] [--evallab BIN]

The Lichess chess-openings README: classify a game by playing it backwards
until a named position is found. This script does that independently of
evallab: python-chess plays each line of the table (its EPD names the line;
the first line of a position keeps it, as in evallab) and every game of
DATASET from its start (`games.start_fen`, the moves' `uci`), then walks back
from the final position to the first named one. Each standard game's
(eco, opening, opening_ply) must equal DATASET/derived/openings.parquet (run
`evallab openings DATASET --table DIR` first, or pass --evallab to run it).

It also counts the games where the former rule (the deepest line whose final
position the game reaches, the first ply it does) names another line, and
checks that every game of the openings table has a name or a reason
(`unclassified`), printing the counts per reason.

Exit status 1 on any difference.
"""

import argparse
import subprocess
import sys
from collections import Counter
from pathlib import Path

import chess
import polars as pl

sys.path.insert(0, str(Path(__file__).parent))
from table_checksums import parts  # noqa: E402

Named = tuple[str, str, int]  # eco, name, the line's plies


def read_table(folder: Path) -> dict[str, Named]:
    """Each named position (EPD) of the table's *.tsv files, in name order."""
    named: dict[str, Named] = {}
    for path in sorted(folder.glob("*.tsv")):
        lines = path.read_text().splitlines()
        assert lines[0] == "eco\tname\tpgn", path
        for row in lines[1:]:
            if not row.strip():
                continue
            eco, name, pgn = row.split("\t")
            board = chess.Board()
            plies = 0
            for tok in pgn.split():
                if tok[0].isdigit() and tok.endswith("."):
                    continue
                board.push_san(tok)
                plies += 1
            named.setdefault(board.epd(), (eco, name, plies))
    return named


def classify(board: chess.Board, ucis: list[str], named: dict[str, Named]):
    """(backwards, deepest): the README's (eco, name, ply) and the former rule's."""
    epds = [board.epd()]
    for u in ucis:
        board.push_uci(u)
        epds.append(board.epd())
    backwards = None
    for ply in range(len(epds) - 1, -1, -1):
        if epds[ply] in named:
            eco, name, _ = named[epds[ply]]
            backwards = (eco, name, ply)
            break
    deepest = None  # (line plies, -first ply) is the former order
    first: dict[str, int] = {}
    for ply, epd in enumerate(epds):
        if epd in named and epd not in first:
            first[epd] = ply
    for epd, ply in first.items():
        eco, name, depth = named[epd]
        if deepest is None or (depth, ply) > (deepest[3], deepest[2]):
            deepest = (eco, name, ply, depth)
    return backwards, deepest and deepest[:3]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", type=Path)
    ap.add_argument("--table", type=Path, default=Path("../shared/openings"))
    ap.add_argument("--evallab", help="run `BIN openings DATASET --table DIR` first")
    a = ap.parse_args()
    if a.evallab:
        subprocess.run([a.evallab, "openings", str(a.dataset), "--table", str(a.table)],
                       check=True, stdout=subprocess.DEVNULL)
    named = read_table(a.table)
    ours = pl.read_parquet(a.dataset / "derived" / "openings.parquet")
    games = pl.read_parquet(parts(a.dataset, "games"), columns=["game_id", "variant", "start_fen"])
    moves = (
        pl.scan_parquet(parts(a.dataset, "moves"))
        .select("game_id", "ply", "uci")
        .sort("game_id", "ply")
        .group_by("game_id", maintain_order=True)
        .agg("uci")
        .collect()
    )
    df = games.join(moves, on="game_id", how="left").join(ours, on="game_id", how="left")

    bad = checked = changed = 0
    reasons: Counter[str] = Counter()
    for row in df.iter_rows(named=True):
        if (row["opening"] is None) == (row["unclassified"] is None):
            bad += 1
            print(f"game {row['game_id']}: name {row['opening']!r} and reason {row['unclassified']!r}")
        reasons[row["unclassified"] or "named"] += 1
        if row["variant"] != "standard":
            continue
        board = chess.Board(row["start_fen"] or chess.STARTING_FEN)
        backwards, deepest = classify(board, row["uci"] or [], named)
        checked += 1
        got = (row["eco"], row["opening"], row["opening_ply"]) if row["eco"] else None
        if got != backwards:
            bad += 1
            print(f"game {row['game_id']}: evallab {got}, python-chess {backwards}")
        if (deepest and deepest[:2]) != (backwards and backwards[:2]):
            changed += 1
            if changed <= 10:
                print(f"  the former rule differs, game {row['game_id']}: deepest {deepest}, "
                      f"backwards {backwards}")
    print(f"{len(named)} named positions; {checked - bad}/{checked} standard games equal to "
          f"the README's rule; the former rule (deepest line) names {changed} of them otherwise")
    for reason, n in sorted(reasons.items(), key=lambda r: -r[1]):
        print(f"  {n:>6}  {reason}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""evallab's Chess960 start positions (Scharnagl numbers) against python-chess's.

    scripts/chess960_check.py DATASET [--evallab BIN]

(a) Every number: a PGN of 960 games, one per SP, each starting from
    python-chess's `Board.from_chess960_pos(n)`, is ingested by evallab into a
    temporary dataset and classified (`evallab openings`, with an empty
    table); each game's `chess960_sp_white`/`_black` must be n and its name
    `Chess960 SP n ARRANGEMENT`.
(b) Every Chess960 game of DATASET (`evallab openings` run on it): each side's
    SP in DATASET/derived/openings.parquet must be python-chess's
    `chess960_pos()` of a board set up with that side's back rank on both
    sides (so Double Fischer Random games, whose sides differ, are checked
    side by side); null when python-chess finds no position. Games of other
    variants must have null SPs.

Exit status 1 on any difference.
"""

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import chess
import polars as pl

sys.path.insert(0, str(Path(__file__).parent))
from table_checksums import parts  # noqa: E402

SP = ["chess960_sp_white", "chess960_sp_black"]


def side_sp(rank: str | None) -> int | None:
    """python-chess's SP of a back rank (upper case, files a to h)."""
    if rank is None:
        return None
    fen = f"{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w KQkq - 0 1"
    try:
        return chess.Board(fen, chess960=True).chess960_pos()
    except ValueError:
        return None


def back_ranks(fen: str | None) -> list[str | None]:
    """White's and Black's back ranks of a start FEN, in upper case, when full."""
    board = chess.Board(fen or chess.STARTING_FEN, chess960=True)
    out = []
    for rank, colour in ((0, chess.WHITE), (7, chess.BLACK)):
        pieces = [board.piece_at(chess.square(f, rank)) for f in range(8)]
        full = all(p is not None and p.color == colour for p in pieces)
        out.append("".join(p.symbol().upper() for p in pieces) if full else None)
    return out


def openings(evallab: str, dataset: Path, table: Path) -> pl.DataFrame:
    subprocess.run([evallab, "openings", str(dataset), "--table", str(table)],
                   check=True, stdout=subprocess.DEVNULL)
    return pl.read_parquet(dataset / "derived" / "openings.parquet")


def games(dataset: Path) -> pl.DataFrame:
    return pl.concat([pl.read_parquet(f, columns=["game_id", "round", "variant", "start_fen"])
                      for f in parts(dataset, "games")])


def every_number(evallab: str, tmp: Path) -> int:
    pgn = tmp / "960.pgn"
    with pgn.open("w") as f:
        for n in range(960):
            fen = chess.Board.from_chess960_pos(n).fen()
            f.write(f'[Event "SP {n}"]\n[Round "{n}"]\n[Result "*"]\n[Variant "chess960"]\n'
                    f'[SetUp "1"]\n[FEN "{fen}"]\n\n*\n\n')
    table = tmp / "empty.tsv"
    table.write_text("eco\tname\tpgn\n")
    ds = tmp / "ds"
    subprocess.run([evallab, "ingest", str(pgn), "-o", str(ds), "--quiet"], check=True)
    df = games(ds).join(openings(evallab, ds, table), on="game_id")
    bad = 0
    for row in df.iter_rows(named=True):
        n = int(row["round"])
        rank = chess.Board.from_chess960_pos(n).fen().split()[0].split("/")[7]
        want = (n, n, f"Chess960 SP {n} {rank}")
        got = (row[SP[0]], row[SP[1]], row["opening"])
        if got != want:
            bad += 1
            print(f"SP {n}: evallab {got}, python-chess {want}")
    print(f"(a) arrangements: {960 - bad}/960 equal ({len(df)} games read back)")
    return bad + (960 - len(df))


def dataset_games(dataset: Path) -> int:
    df = games(dataset).join(pl.read_parquet(dataset / "derived" / "openings.parquet"),
                             on="game_id")
    bad = checked = 0
    for row in df.iter_rows(named=True):
        if row["variant"] == "chess960":
            want = tuple(side_sp(r) for r in back_ranks(row["start_fen"]))
            checked += 1
        else:
            want = (None, None)
        got = (row[SP[0]], row[SP[1]])
        if got != want:
            bad += 1
            print(f"game {row['game_id']}: evallab {got}, python-chess {want}")
    named = df.filter(pl.col("opening").str.starts_with("Chess960 SP ")).height
    print(f"(b) {dataset}: {checked - bad}/{checked} Chess960 games equal "
          f"({named} named by SP; {df.height} games)")
    return bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", type=Path)
    ap.add_argument("--evallab", default="evallab", help="the evallab binary")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bad = every_number(a.evallab, Path(tmp))
    bad += dataset_games(a.dataset)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

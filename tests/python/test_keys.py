"""The Polyglot keys of `moves.position_key` and `games.start_key` against
python-chess's `chess.polyglot.zobrist_hash`, on every position of the dataset
(`.ci/run` ingests data/demo and data/fixtures for it).

The keys are stored as i64 holding the u64's bits: ``reinterpret`` gives the
u64 back in polars.
"""

import os
from pathlib import Path

import chess
import chess.polyglot
import polars as pl

import evallab

DATASET = Path(os.environ.get("EVALLAB_DATASET", "target/ci-dataset"))


def test_keys_equal_python_chess_on_every_position():
    games = (
        evallab.read_polars(DATASET, "games")
        .select("game_id", "start_fen", "variant", pl.col("start_key").reinterpret(signed=False))
        .collect()
    )
    moves = (
        evallab.read_polars(DATASET, "moves")
        .select("game_id", "ply", "uci", pl.col("position_key").reinterpret(signed=False))
        .sort("game_id", "ply")
        .collect()
    )
    by_game = {g: (list(f["uci"]), list(f["position_key"])) for (g,), f in moves.group_by("game_id")}
    positions = 0
    for game_id, fen, variant, start_key in games.iter_rows():
        board = chess.Board(fen or chess.STARTING_FEN, chess960=variant == "chess960")
        assert start_key == chess.polyglot.zobrist_hash(board), (game_id, fen)
        ucis, keys = by_game.get(game_id, ([], []))
        for ply, (uci, key) in enumerate(zip(ucis, keys), 1):
            board.push_uci(uci)
            assert key == chess.polyglot.zobrist_hash(board), (game_id, ply, board.fen())
        positions += 1 + len(ucis)
    assert positions == games.height + moves.height > 10_000

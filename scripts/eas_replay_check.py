"""Spot-check EAS sacrifice levels by replaying a game with python-chess, with
an independent, simplified reading of the rule: the winner behind by >= k units
(1/3/3/5/9) for 8 consecutive positions while keeping a queen and 3 pawns. It
ignores the 12-ply pure-pawn rule and the full-set exclusion, so its level-1 ply
can be earlier than evallab's; the highest level should agree.

    python3 scripts/eas_replay_check.py ARCHIVE.pgn[.zst] ROUND [WHITE-SUBSTRING]
"""
import io
import subprocess
import sys

import chess
import chess.pgn

ROLES = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)


def counts(board, color):
    return [len(board.pieces(r, color)) for r in ROLES]


def units(c):
    return sum(n * v for n, v in zip(c, (1, 3, 3, 5, 9)))


def level(game, white):
    board = game.board()
    seq = [board.copy()]
    for move in game.mainline_moves():
        board.push(move)
        seq.append(board.copy())
    me, op = (chess.WHITE, chess.BLACK) if white else (chess.BLACK, chess.WHITE)
    first = {}
    for k in range(1, 6):
        run = 0
        for i, pos in enumerate(seq):
            own, opp = counts(pos, me), counts(pos, op)
            ok = units(opp) - units(own) >= k and own[4] >= 1 and own[0] >= 3
            run = run + 1 if ok else 0
            if run == 8 and k not in first:
                first[k] = i - 7
    return max(first, default=0), first


path, rnd = sys.argv[1], sys.argv[2]
who = sys.argv[3] if len(sys.argv) > 3 else ""
raw = subprocess.run(["zstdcat", "-f", path], capture_output=True, check=True).stdout
text = io.StringIO(raw.decode("utf-8", "replace"))
while (g := chess.pgn.read_game(text)) is not None:
    if g.headers["Round"] == rnd and who in g.headers["White"]:
        won_white = g.headers["Result"] == "1-0"
        lvl, first = level(g, won_white)
        print(f"{path.split('/')[-1]} round {rnd}: {g.headers['White']} - {g.headers['Black']} "
              f"{g.headers['Result']}: winner's level {lvl}, first plies {first}")

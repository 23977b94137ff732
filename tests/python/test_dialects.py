"""Each eval-comment dialect and UCI movetext, ingested by evallab and read by
python-chess: the same games, the same moves and the same evals (issue 29).

python-chess reads the moves and `[%eval …]`; the other dialects' evals are
read here from its comment text with a regex per dialect, and normalised by
the rules the README states (White POV centipawns, mates in full moves, a
mate in plies is ceil(n/2) moves, `d=1` with 0.00 is a placeholder, beyond
±1000 pawns or ±32767 moves to mate absurd). Prints one row per dialect: games, plies and usable
evals on both sides.

    EVALLAB_BIN=target/release/evallab python3 -m pytest -s tests/python/test_dialects.py

The binary: the wheel's, or $EVALLAB_BIN: evallab.api.binary().
"""

import io
import math
import re
import shutil
import subprocess
from pathlib import Path

import chess.pgn
import polars as pl
import pytest
from evallab.api import binary

ROOT = Path(__file__).resolve().parents[2]
TCEC = ROOT.parent / "shared" / "tcec"
# Real files of the archive (skipped without ../shared/tcec): eras E and B,
# a Chess960 league, and era A's ChessBase.
TCEC_ARCHIVE = [
    str(TCEC / f"{n}.pgn.zst")
    for n in ["TCEC_Cup_10_Final", "TCEC_Season_1_-_Division_3", "TCEC_Season_20_-_Frc3_League_D"]
]
CHESSBASE_ARCHIVE = [str(TCEC / "TCEC_Match_1.pgn.zst")]

# Dialect -> its files.
DIALECTS = {
    "TCEC": ["data/fixtures/tcec.pgn", "data/fixtures/tcec_ev.pgn"],
    "TCEC archive": TCEC_ARCHIVE,
    "cutechess": ["data/fixtures/cutechess.pgn"],
    "fastchess": ["tests/data/fastchess.pgn"],
    "lichess": ["data/fixtures/lichess.pgn"],
    "ChessBase": ["data/fixtures/chessbase.pgn"],
    "ChessBase arch.": CHESSBASE_ARCHIVE,
    "UCI movetext": ["tests/data/uci.pgn"],
}


def pgn_text(path):
    if path.endswith(".zst"):
        return subprocess.run(["zstd", "-dc", path], check=True, capture_output=True).stdout.decode()
    return Path(ROOT / path).read_text(encoding="utf-8", errors="replace")


# --- evals from comment text, one regex per dialect -------------------------

TCEC_WV = re.compile(r"(?:^|[\s,])wv=([^,\s]+)")
TCEC_EV = re.compile(r"(?:^|[\s,])ev=([^,\s]+)")
TCEC_D = re.compile(r"(?:^|[\s,])d=(\d+)")
SLASH = re.compile(r"^\s*([-+]?[\d.\s]*\d|[-+]?M\d+|[-+]?#-?\d+)\s*/\s*(\d+)(?:\s+([^\s,]+))?")


def raw_eval(comment, white_moved):
    """(kind, cp, mate) of a comment, or None when it holds no eval."""
    text = comment.strip()
    if text.startswith("[%") or "[%eval" in text:
        return None  # python-chess's own node.eval() reads these
    m = SLASH.match(text)
    if m:
        token, depth, time = m.group(1), int(m.group(2)), m.group(3)
        # cutechess and fastchess: the mover's POV, time in seconds with `s`;
        # ChessBase: White's POV, whole seconds.
        mover_pov = time is None or time.endswith("s")
        sign = -1 if (mover_pov and not white_moved) else 1
        return normalise(re.sub(r"\s", "", token), sign, depth)
    wv = TCEC_WV.search(text) or TCEC_EV.search(text)
    if wv:
        d = TCEC_D.search(text)
        return normalise(wv.group(1), 1, int(d.group(1)) if d else None)
    return None


def normalise(token, sign, depth):
    neg = token.startswith("-")
    body = token.lstrip("+-")
    s = -1 if neg else 1
    if body.startswith("M") or body.startswith("#"):
        n = int(body[1:])
        moves = sign * s * (math.ceil(n / 2) if body.startswith("M") else n)
        # Beyond the i16 column: absurd, not clamped.
        return ("mate", None, moves) if abs(moves) <= 32767 else ("absurd", None, None)
    pawns = sign * s * float(body)
    if depth == 1 and pawns == 0.0:
        return ("placeholder", None, None)
    if abs(pawns) > 1000:
        return ("absurd", None, None)
    return ("cp", round(pawns * 100), None)


def python_chess_games(paths):
    """Per game: its UCI moves and each move's (kind, cp, mate) or None."""
    games = []
    for path in paths:
        handle = io.StringIO(pgn_text(path))
        while (game := chess.pgn.read_game(handle)) is not None:
            moves, evals = [], []
            for node in game.mainline():
                moves.append(node.move.uci())
                score = node.eval()
                if score is not None:
                    w = score.white()
                    evals.append(("mate", None, w.mate()) if w.is_mate() else ("cp", w.score(), None))
                else:
                    evals.append(raw_eval(node.comment, node.turn() == chess.BLACK))
            games.append((moves, evals))
    return games


def evallab_games(paths, tmp):
    out = tmp / "ds"
    inputs = [p if Path(p).is_absolute() else str(ROOT / p) for p in paths]
    subprocess.run([binary(), "ingest", *inputs, "-o", str(out), "--quiet"], check=True)
    order = {p: i for i, p in enumerate(inputs)}
    games = pl.read_parquet(str(out / "games" / "*.parquet"))
    games = games.with_columns(pl.col("source_file").replace_strict(order).alias("input"))
    games = games.sort("input", "game_number")
    moves = pl.read_parquet(str(out / "moves" / "*.parquet"))
    rejects = pl.read_parquet(str(out / "rejects" / "*.parquet"))
    by_game = {k[0]: v.sort("ply") for k, v in moves.group_by("game_id")}
    result = []
    for g in games.iter_rows(named=True):
        m = by_game.get(g["game_id"])
        rows = [] if m is None else list(m.select("uci", "eval_kind", "eval_cp", "mate").iter_rows())
        result.append((g["game_number"], [r[0] for r in rows], [r[1:] for r in rows]))
    return result, rejects.height


TABLE = []


@pytest.fixture(scope="module", autouse=True)
def print_table():
    yield
    head = f"{'dialect':<14} {'games':>11} {'plies':>13} {'evals':>13}   (evallab / python-chess)"
    print("\n" + head)
    for name, g, p, e in TABLE:
        print(f"{name:<14} {g[0]:>5} / {g[1]:<5} {p[0]:>6} / {p[1]:<6} {e[0]:>6} / {e[1]:<6}")


@pytest.mark.parametrize("dialect", DIALECTS)
def test_same_moves_and_evals_as_python_chess(dialect, tmp_path):
    paths = DIALECTS[dialect]
    if any(p.endswith(".zst") for p in paths):
        if not all(Path(p).exists() for p in paths):
            pytest.skip(f"{paths} not found")
        if not shutil.which("zstd"):
            pytest.skip("no zstd to decompress the archive for python-chess")
    ours, rejects = evallab_games(paths, tmp_path)
    theirs = python_chess_games(paths)
    assert rejects == 0, dialect
    assert len(ours) == len(theirs), dialect
    plies = evals_ours = evals_theirs = 0
    for (number, moves, evals), (py_moves, py_evals) in zip(ours, theirs):
        assert moves == py_moves, f"{dialect} game {number}"
        for ply, (kind, cp, mate) in enumerate(evals):
            theirs_eval = py_evals[ply]
            if kind in ("cp", "mate"):
                evals_ours += 1
                assert theirs_eval == (kind, cp, mate), f"{dialect} game {number} ply {ply + 1}"
            elif theirs_eval is not None:
                # Read, but not usable: the same verdict on both sides.
                assert theirs_eval[0] == kind, f"{dialect} game {number} ply {ply + 1}"
            evals_theirs += theirs_eval is not None and theirs_eval[0] in ("cp", "mate")
        plies += len(moves)
    py_plies = sum(len(m) for m, _ in theirs)
    assert plies == py_plies
    assert evals_ours == evals_theirs
    TABLE.append((dialect, (len(ours), len(theirs)), (plies, py_plies), (evals_ours, evals_theirs)))


def test_uci_movetext_is_its_san_twin(tmp_path):
    ours, _ = evallab_games(DIALECTS["UCI movetext"], tmp_path)
    (_, uci_moves, uci_evals), (_, san_moves, san_evals) = ours
    assert uci_moves == san_moves and uci_evals == san_evals


def test_latency_column_and_schema_version(tmp_path):
    out = tmp_path / "ds"
    subprocess.run([binary(), "ingest", str(ROOT / "tests/data/fastchess.pgn"), "-o", str(out), "--quiet"], check=True)
    moves = pl.read_parquet(str(out / "moves" / "*.parquet")).sort("game_id", "ply")
    assert moves.schema["latency_ms"] == pl.Int64
    names = moves.columns
    assert names.index("latency_ms") == names.index("ponder_hit") + 1
    first = moves.filter(pl.col("pv") == "f8c5 d1h5").row(0, named=True)
    assert (first["latency_ms"], first["time_left_ms"], first["nodes"]) == (3, 9488, 523411)
    schema = subprocess.run([binary(), "schema"], check=True, capture_output=True, text=True).stdout
    assert schema.startswith("schema version 4")

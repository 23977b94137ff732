#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Generate evallab's demo PGN archives by playing real Stockfish games.

A round robin between Stockfish at four strengths (Skill Level 5, 10, 15 and
full strength) is played at a fixed node budget per move.  Every pairing plays
each of its openings (a few book moves from the ECO list below) with both
colours.  Every engine move carries its search info, and the games are split
over two files, one per comment dialect that evallab ingests:

  demo_tcec.pgn.zst       TCEC style  {d=.., sd=.., mt=.., ..., wv=0.35, ..., mb=+0+0+0+0+0,}
  demo_cutechess.pgn.gz   cutechess-cli style  {+0.35/21 0.031s}

Requirements: Python 3.11, `pip install chess zstandard`, and Debian's
stockfish package (`apt-get install stockfish`, binary /usr/games/stockfish).

Regenerate (from the repository root):

    python3 data/generate_demo.py --seed 1

Output is deterministic given --seed except for one thing: Stockfish's
Skill Level picks its weakened move with a PRNG seeded from the clock, so the
games involving a limited player differ from run to run.  Clocks are
simulated from node counts (not wall time) so they do not add noise.
"""
import argparse
import gzip
import itertools
import multiprocessing
import random
import time
from pathlib import Path

import chess
import chess.engine
import zstandard

STOCKFISH = "/usr/games/stockfish"
# (name, Skill Level or None for full strength, invented Elo for the tags)
PLAYERS = [("Stockfish L5", 5, 2150), ("Stockfish L10", 10, 2550),
           ("Stockfish L15", 15, 2950), ("Stockfish Full", None, 3450)]
BASE_TIME_MS, INC_MS, TIME_CONTROL = 10_000, 100, "10+0.1"
SIM_NPS = 900_000        # speed of the simulated hardware that turns nodes into ms
DRAW_AFTER_PLY, DRAW_PLIES, DRAW_CP = 80, 10, 10   # TCEC-like draw rule
WIN_PLIES, WIN_CP = 6, 1000                         # TCEC-like win rule
MATE_CP = 100_000

OPENINGS = [  # (ECO, name, book moves in SAN)
    ("B90", "Sicilian, Najdorf", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6"),
    ("B33", "Sicilian, Sveshnikov", "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 Nf6 Nc3 e5"),
    ("B22", "Sicilian, Alapin", "e4 c5 c3 Nf6 e5 Nd5"),
    ("C65", "Ruy Lopez, Berlin defence", "e4 e5 Nf3 Nc6 Bb5 Nf6"),
    ("C84", "Ruy Lopez, closed", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7"),
    ("C54", "Giuoco Piano", "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6"),
    ("C42", "Petrov's defence", "e4 e5 Nf3 Nf6 Nxe5 d6 Nf3 Nxe4"),
    ("C45", "Scotch game", "e4 e5 Nf3 Nc6 d4 exd4 Nxd4"),
    ("C33", "King's gambit accepted", "e4 e5 f4 exf4"),
    ("C18", "French, Winawer", "e4 e6 d4 d5 Nc3 Bb4 e5 c5 a3 Bxc3+ bxc3"),
    ("C11", "French, classical", "e4 e6 d4 d5 Nc3 Nf6"),
    ("C02", "French, advance", "e4 e6 d4 d5 e5 c5 c3 Nc6"),
    ("B12", "Caro-Kann, advance", "e4 c6 d4 d5 e5 Bf5"),
    ("B19", "Caro-Kann, classical", "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5 Ng3 Bg6 h4 h6"),
    ("B01", "Scandinavian", "e4 d5 exd5 Qxd5 Nc3 Qa5"),
    ("B07", "Pirc defence", "e4 d6 d4 Nf6 Nc3 g6"),
    ("B06", "Modern defence", "e4 g6 d4 Bg7 Nc3 d6"),
    ("B02", "Alekhine's defence", "e4 Nf6 e5 Nd5 d4 d6"),
    ("D37", "Queen's gambit declined", "d4 d5 c4 e6 Nc3 Nf6 Nf3 Be7"),
    ("D27", "Queen's gambit accepted", "d4 d5 c4 dxc4 Nf3 Nf6 e3 e6 Bxc4 c5"),
    ("D17", "Slav, Czech variation", "d4 d5 c4 c6 Nf3 Nf6 Nc3 dxc4 a4 Bf5"),
    ("D85", "Gruenfeld, exchange", "d4 Nf6 c4 g6 Nc3 d5 cxd5 Nxd5 e4 Nxc3 bxc3"),
    ("E97", "King's Indian, classical", "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3 O-O Be2 e5 O-O Nc6"),
    ("E32", "Nimzo-Indian, classical", "d4 Nf6 c4 e6 Nc3 Bb4 Qc2"),
    ("E15", "Queen's Indian", "d4 Nf6 c4 e6 Nf3 b6 g3 Ba6"),
    ("E04", "Catalan, open", "d4 Nf6 c4 e6 g3 d5 Bg2 dxc4 Nf3"),
    ("A57", "Benko gambit", "d4 Nf6 c4 c5 d5 b5"),
    ("A87", "Dutch, Leningrad", "d4 f5 g3 Nf6 Bg2 g6 Nf3 Bg7"),
    ("D02", "London system", "d4 d5 Nf3 Nf6 Bf4 e6 e3 c5"),
    ("A45", "Trompowsky attack", "d4 Nf6 Bg5 Ne4"),
    ("A29", "English, four knights", "c4 e5 Nc3 Nf6 Nf3 Nc6 g3"),
    ("A34", "English, symmetrical", "c4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7"),
    ("A07", "King's Indian attack", "Nf3 d5 g3 Nf6 Bg2 c6 O-O Bg4"),
    ("A02", "Bird's opening", "f4 d5 Nf3 Nf6"),
]

_engines = {}  # per process: player name -> engine


def engine_options(skill):
    opts = {"Threads": 1, "Hash": 16}
    if skill is not None:
        opts["Skill Level"] = skill
    return opts


def start_engines():
    for name, skill, _ in PLAYERS:
        eng = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
        eng.configure(engine_options(skill))
        _engines[name] = eng


def mover_score(score):
    """(centipawns for adjudication, eval token) from the mover's POV.

    A UCI `mate N` counts moves; both TCEC and cutechess print plies, so a mate
    the mover delivers in N moves is 2N-1 plies and being mated in N is 2N."""
    if score.is_mate():
        m = score.mate()
        plies = 2 * m - 1 if m > 0 else -2 * m
        return (MATE_CP - plies if m > 0 else plies - MATE_CP), ("+" if m > 0 else "-", plies)
    return score.score(), None


def material(board):
    diffs = [len(board.pieces(pt, chess.WHITE)) - len(board.pieces(pt, chess.BLACK))
             for pt in (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)]
    return "".join(f"{d:+d}" for d in diffs)


def play_game(spec):
    """Play one game; return everything both writers need (plain data, picklable)."""
    idx, white, black, (eco, opening, book), nodes, seed, max_plies = spec
    rng = random.Random(f"{seed}-{idx}")  # per game, so --jobs does not change results
    board, plies = chess.Board(), []
    for san in book.split():
        plies.append({"san": san, "book": True})
        board.push_san(san)
    clock = {chess.WHITE: BASE_TIME_MS, chess.BLACK: BASE_TIME_MS}
    nps = {c: SIM_NPS * rng.uniform(0.85, 1.15) for c in clock}
    draw_run = win_run = win_sign = 0
    result = reason = None
    while result is None:
        mover = board.turn
        name = white if mover == chess.WHITE else black
        play = _engines[name].play(board, chess.engine.Limit(nodes=nodes),
                                   info=chess.engine.INFO_ALL, game=(idx, name))
        info, move = play.info, play.move
        if info.get("pv", [None])[0] != move:
            # Skill Level swaps in a weaker move after the search, so the last info line
            # describes a move that was not played. Search the played move alone so the
            # comment's score and PV belong to it, as they would for a genuinely weak engine.
            info = _engines[name].analyse(board, chess.engine.Limit(nodes=nodes),
                                          root_moves=[move], info=chess.engine.INFO_ALL,
                                          game=(idx, name))
        pv = info.get("pv") or [move]
        cp, mate = mover_score(info["score"].relative)
        pv_san, tmp = [], board.copy(stack=False)
        for m in pv:
            pv_san.append(tmp.san(m))
            tmp.push(m)
        n = info.get("nodes", nodes)
        mt = max(1, round(n * 1000 / (nps[mover] * rng.uniform(0.95, 1.05))))
        clock[mover] += INC_MS - mt
        san = board.san(move)
        board.push(move)
        # TCEC rules look at the eval printed for each ply, i.e. alternately both engines.
        wcp = cp if mover == chess.WHITE else -cp
        draw_run = draw_run + 1 if len(plies) >= DRAW_AFTER_PLY and abs(wcp) <= DRAW_CP else 0
        sign = (wcp > 0) - (wcp < 0)
        if abs(wcp) >= WIN_CP:
            win_run, win_sign = (win_run + 1 if sign == win_sign else 1), sign
        else:
            win_run = win_sign = 0
        plies.append({"san": san, "book": False, "cp": cp, "mate": mate, "wcp": wcp,
                      "d": info.get("depth", 0), "sd": info.get("seldepth", 0),
                      "n": n, "mt": mt, "tl": clock[mover], "pv": pv_san,
                      "h": info.get("hashfull", 0), "tb": info.get("tbhits", 0),
                      "R50": 50 - board.halfmove_clock // 2, "mb": material(board),
                      "Rd": DRAW_PLIES - draw_run if draw_run else -11,
                      "Rr": WIN_PLIES - win_run if win_run else -11})
        if board.is_checkmate():
            result, reason = ("1-0" if mover == chess.WHITE else "0-1"), "mate"
        elif board.is_stalemate():
            result, reason = "1/2-1/2", "stalemate"
        elif board.is_insufficient_material():
            result, reason = "1/2-1/2", "material"
        elif board.is_repetition(3):
            result, reason = "1/2-1/2", "threefold"
        elif board.halfmove_clock >= 100:
            result, reason = "1/2-1/2", "fifty"
        elif win_run >= WIN_PLIES:
            result, reason = ("1-0" if win_sign > 0 else "0-1"), "adj_win"
        elif draw_run >= DRAW_PLIES:
            result, reason = "1/2-1/2", "adj_draw"
        elif len(plies) >= max_plies:
            result, reason = "1/2-1/2", "cap"
    return {"idx": idx, "white": white, "black": black, "eco": eco, "opening": opening,
            "plies": plies, "result": result, "reason": reason}


# reason -> (TCEC Termination, TCEC TerminationDetails, cutechess description)
ENDINGS = {
    "mate": ("normal", "{w} mates", "{w} mates"),
    "stalemate": ("normal", "Stalemate", "Draw by stalemate"),
    "material": ("normal", "Insufficient material", "Draw by insufficient mating material"),
    "threefold": ("normal", "3-Fold repetition", "Draw by 3-fold repetition"),
    "fifty": ("normal", "Fifty moves rule", "Draw by fifty moves rule"),
    "adj_win": ("adjudication", "TCEC win rule", "{w} wins by adjudication"),
    "adj_draw": ("adjudication", "TCEC draw rule", "Draw by adjudication"),
    "cap": ("adjudication", "Max moves rule", "Draw by adjudication"),
}


def ending(g, i):
    winner = "White" if g["result"] == "1-0" else "Black"
    return ENDINGS[g["reason"]][i].format(w=winner)


def duration(g):
    s = sum(p.get("mt", 0) for p in g["plies"]) // 1000 + 1  # + engine start-up
    return f"{s // 3600:02d}:{s % 3600 // 60:02d}:{s % 60:02d}"


def tcec_comment(p):
    if p["book"]:
        return "book"
    if p["mate"]:
        sign, plies = p["mate"]
        wv = f"{'' if p['wcp'] > 0 else '-'}M{plies}"
    else:
        wv = f"{p['wcp'] / 100:.2f}" if p["wcp"] else "0.00"
    pd = f" pd={p['pv'][1]}," if len(p["pv"]) > 1 else ""
    s = p["n"] * 1000 // p["mt"]
    return (f"d={p['d']}, sd={p['sd']},{pd} mt={p['mt']}, tl={p['tl']}, s={s}, n={p['n']}, "
            f"pv={' '.join(p['pv'])}, tb={p['tb']}, h={p['h'] / 10:.1f}, ph=0.0, wv={wv}, "
            f"R50={p['R50']}, Rd={p['Rd']}, Rr={p['Rr']}, mb={p['mb']},")


def cutechess_comment(p):
    if p["book"]:
        return "book"
    if p["mate"]:
        score = f"{p['mate'][0]}M{p['mate'][1]}"
    else:
        score = f"{p['cp'] / 100:+.2f}" if p["cp"] else "0.00"
    t = p["mt"]  # cutechess shows more decimals the shorter the move took
    secs = f"{t / 1000:.{3 if t < 100 else 2 if t < 1000 else 1 if t < 10000 else 0}f}s"
    return f"{score}/{p['d']} {secs}"


def movetext(g, comment, pregame=None):
    tokens = [f"{{{pregame}}}"] if pregame else []
    for i, p in enumerate(g["plies"]):
        if i % 2 == 0:
            tokens.append(f"{i // 2 + 1}.")
        tokens.append(p["san"])
        tokens.append(f"{{{comment(p)}}}")
    tokens.append(g["result"])
    lines, line = [], ""
    for tok in tokens:  # wrap at 80 columns between tokens, as PGN exporters do
        if line and len(line) + 1 + len(tok) > 80:
            lines.append(line)
            line = tok
        else:
            line = f"{line} {tok}" if line else tok
    return "\n".join(lines + [line])


def tags_text(tags):
    return "".join(f'[{k} "{v}"]\n' for k, v in tags)


def write_tcec(games, date):
    elo = {name: e for name, _, e in PLAYERS}
    skill = {name: s for name, s, _ in PLAYERS}
    out = []
    for k, g in enumerate(games):
        opts = [" ".join(f"{o}={v};" for o, v in
                         {"Protocol": "uci", **engine_options(skill[g[c]])}.items())
                for c in ("white", "black")]
        tags = [("Event", "evallab demo round robin (TCEC style)"), ("Site", "evallab"),
                ("Date", date), ("Round", f"{k // 12 + 1}.{k % 12 + 1}"),
                ("White", g["white"]), ("Black", g["black"]), ("Result", g["result"]),
                ("ECO", g["eco"]), ("Opening", g["opening"]), ("GameDuration", duration(g)),
                ("WhiteElo", elo[g["white"]]), ("BlackElo", elo[g["black"]]),
                ("TimeControl", TIME_CONTROL), ("PlyCount", len(g["plies"])),
                ("Termination", ending(g, 0)), ("TerminationDetails", ending(g, 1))]
        pregame = f"WhiteEngineOptions: {opts[0]}, BlackEngineOptions: {opts[1]}"
        out.append(tags_text(tags) + "\n" + movetext(g, tcec_comment, pregame) + "\n\n")
    return "".join(out)


def write_cutechess(games, date):
    out = []
    for k, g in enumerate(games):
        tags = [("Event", "evallab demo round robin (cutechess style)"), ("Site", "?"),
                ("Date", date), ("Round", k + 1), ("White", g["white"]),
                ("Black", g["black"]), ("Result", g["result"]), ("ECO", g["eco"]),
                ("GameDuration", duration(g)), ("Opening", g["opening"]),
                ("PlyCount", len(g["plies"]))]
        if g["reason"] in ("adj_win", "adj_draw", "cap"):
            tags.append(("Termination", "adjudication"))
        tags.append(("TimeControl", TIME_CONTROL))
        # cutechess appends the result description to the last move's comment
        last = g["plies"][-1]
        base = cutechess_comment
        comment = lambda p: base(p) + (f", {ending(g, 2)}" if p is last else "")
        out.append(tags_text(tags) + "\n" + movetext(g, comment) + "\n\n")
    return "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "demo")
    ap.add_argument("--games-per-pairing", type=int, default=44,
                    help="even; each opening is played with both colours")
    ap.add_argument("--nodes", type=int, default=20_000, help="node limit per move")
    ap.add_argument("--max-plies", type=int, default=200)
    ap.add_argument("--date", default="2024.06.01", help="PGN Date tag (fixed for diffs)")
    ap.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    args = ap.parse_args()
    slots = args.games_per_pairing // 2
    if not 1 <= slots <= len(OPENINGS):
        ap.error(f"--games-per-pairing must be 2..{2 * len(OPENINGS)}")
    for _, _, book in OPENINGS:  # fail fast on a typo in the book
        b = chess.Board()
        for san in book.split():
            b.push_san(san)

    rng = random.Random(args.seed)
    pairings = list(itertools.combinations([p[0] for p in PLAYERS], 2))
    openings = {pair: rng.sample(OPENINGS, slots) for pair in pairings}
    # Slot-major order: a "round" is one opening slot for all 6 pairings, both colours.
    # Even slots go to the TCEC file, odd ones to the cutechess file.
    specs = []
    for s in range(slots):
        for a, b in pairings:
            for w, bl in ((a, b), (b, a)):
                specs.append((len(specs), w, bl, openings[(a, b)][s], args.nodes,
                              args.seed, args.max_plies))

    t0 = time.time()
    with multiprocessing.Pool(args.jobs, initializer=start_engines) as pool:
        games = []
        for g in pool.imap(play_game, specs):
            games.append(g)
            if len(games) % 12 == 0:
                print(f"{len(games)}/{len(specs)} games, {time.time() - t0:.0f}s", flush=True)
    per_round = 2 * len(pairings)
    tcec = [g for g in games if (g["idx"] // per_round) % 2 == 0]
    cute = [g for g in games if (g["idx"] // per_round) % 2 == 1]

    args.out.mkdir(parents=True, exist_ok=True)
    data = write_tcec(tcec, args.date).encode()
    (args.out / "demo_tcec.pgn.zst").write_bytes(zstandard.ZstdCompressor(level=19).compress(data))
    with open(args.out / "demo_cutechess.pgn.gz", "wb") as f:
        # mtime=0 and no file name in the header keep the .gz byte-identical across runs
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0, compresslevel=9) as z:
            z.write(write_cutechess(cute, args.date).encode())
    print(f"{len(tcec)} TCEC + {len(cute)} cutechess games in {time.time() - t0:.0f}s "
          f"-> {args.out}")


if __name__ == "__main__":
    main()

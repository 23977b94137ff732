"""Compare evallab's EAS labels with pgn-extract (the reference's matcher), pattern
file by pattern file, game by game.

    python3 scripts/eas_oracle.py EVALLAB DATASET INPUT.pgn[.zst]...

DATASET must hold exactly the INPUTs (ingested by `EVALLAB ingest INPUT... -o DATASET`);
its labels are computed afresh (`eas --relabel`).
For each vendored pattern file the batch uses, pgn-extract runs over all the input
games (`-y FILE`, `-z no_endgame_draws`), and for the early pass over the games cut
with `--plylimit early_limit+8` (early_limit from `EVALLAB eas DATASET`). Games are
identified by (Event, Round, White, Black, Result). Prints a markdown table of the
counts of games matched per file by both tools and exits 1 if any game differs.

pgn-extract is $PGN_EXTRACT (default /usr/games/pgn-extract). Since August 2022
pgn-extract also tries the final position of a game; older versions (Debian's
19.04) stop before it, so for those every game gets a null move appended
(`--allownullmoves`): the final position is then tried as the position before it.
Versions before 2022 also miscount promotions and (before 2024) set-up positions
with Black to move; the reference's batch runs a current one.
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

import polars as pl

PGN_EXTRACT = os.environ.get("PGN_EXTRACT", "/usr/games/pgn-extract")
PATTERNS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "eas-patterns")
SAC = ["1_pawnsac", "2_pawnsac", "3_pawnsac", "4_pawnsac", "5_pawnsac", "queensac"]
TAGS = ("Event", "Round", "White", "Black", "Result")
TAG_RE = re.compile(r'^\[(\w+) "(.*)"\]\s*$')


def read_input(path: str) -> str:
    if path.endswith(".zst"):
        raw = subprocess.run(["zstd", "-dc", path], check=True, capture_output=True).stdout
    else:
        raw = open(path, "rb").read()
    return raw.decode("utf-8", errors="replace")


def keys_of(pgn_path: str) -> collections.Counter:
    """The (Event, Round, White, Black, Result) of every game in a PGN file."""
    keys = collections.Counter()
    tags = {}
    with open(pgn_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = TAG_RE.match(line)
            if m:
                tags[m.group(1)] = m.group(2)
            elif line.strip() and tags:
                keys[tuple(tags.get(t, "") for t in TAGS)] += 1
                tags = {}
    return keys


def pgn_extract(args: list, src: str, out: str) -> collections.Counter:
    subprocess.run([PGN_EXTRACT, "-s", "--allownullmoves", *args, "-o", out, src], check=True, capture_output=True)
    return keys_of(out)


RESULT_RE = re.compile(r"(1-0|0-1|1/2-1/2|\*)\s*$")


def version() -> str:
    r = subprocess.run([PGN_EXTRACT, "--version"], capture_output=True, text=True)
    return (r.stdout + r.stderr).strip()


def old_version() -> bool:
    return int(re.search(r"v(\d+)-", version()).group(1)) < 22


def with_null_move(src: str, dst: str) -> None:
    """Games without comments, NAGs or variations, movetext on one line, a null
    move before the result (only for pgn-extract before 22.08)."""
    norm = dst + ".norm"
    subprocess.run([PGN_EXTRACT, "-s", "-C", "-N", "-V", "-w", "1000000", "-o", norm, src], check=True, capture_output=True)
    with open(norm, encoding="utf-8", errors="replace") as f, open(dst, "w", encoding="utf-8") as out:
        for line in f:
            if OLD and line.strip() and not line.startswith("["):
                line = RESULT_RE.sub(lambda m: "-- " + m.group(1), line.rstrip("\n")) + "\n"
            out.write(line)


OLD = old_version()


def main() -> int:
    evallab, dataset, inputs = sys.argv[1], sys.argv[2], sys.argv[3:]
    eas = subprocess.run([evallab, "eas", dataset, "--relabel", "--format", "csv"], check=True, capture_output=True, text=True)
    early_limit = int(re.search(r"early_limit = (\d+)", eas.stderr).group(1))
    labels = pl.read_parquet(os.path.join(dataset, "derived", "eas_labels.parquet"))
    key = lambda df: collections.Counter(tuple(r) for r in df.select([pl.col(t.lower()).fill_null("") for t in TAGS]).rows())
    rows, differ = [], False
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "raw.pgn")
        with open(raw, "w", encoding="utf-8") as f:
            for p in inputs:
                f.write(read_input(p))
                f.write("\n")
        out = os.path.join(tmp, "out.pgn")
        src = os.path.join(tmp, "all.pgn")
        with_null_move(raw, src)
        all_games = keys_of(src)
        rows.append(("games (evallab ingested, pgn-extract read)", labels.height, sum(all_games.values()), None, None))
        checks = []
        for s, side in enumerate(["white", "black"]):
            bits = pl.col(["w_sac_match", "b_sac_match"][s])
            for k, name in enumerate(SAC):
                checks.append((f"-y {name}_{side}", ["-y" + os.path.join(PATTERNS, f"{name}_{side}")], (bits // (1 << k)) % 2 == 1))
        checks.append(("-z no_endgame_draws", ["-z" + os.path.join(PATTERNS, "no_endgame_draws")], pl.col("endgame")))
        for name, args, expr in checks:
            ours = key(labels.filter(expr))
            theirs = pgn_extract(args, src, out)
            rows.append((name, sum(ours.values()), sum(theirs.values()), ours - theirs, theirs - ours))
        # The early pass: cut every game after ply early_limit + 8, match level 1 again.
        limit = early_limit + 8
        cut, cut_null = os.path.join(tmp, "cut.pgn"), os.path.join(tmp, "cut_null.pgn")
        subprocess.run([PGN_EXTRACT, "-s", "--plylimit", str(limit), "-o", cut, raw], check=True, capture_output=True)
        with_null_move(cut, cut_null)
        for s, side in enumerate(["white", "black"]):
            ply = pl.col(["w_sac1_ply", "b_sac1_ply"][s])
            ours = key(labels.filter(ply.is_not_null() & (ply <= limit)))
            theirs = pgn_extract(["-y" + os.path.join(PATTERNS, f"1_pawnsac_{side}")], cut_null, out)
            rows.append((f"--plylimit {limit}, then -y 1_pawnsac_{side}", sum(ours.values()), sum(theirs.values()), ours - theirs, theirs - ours))
    print(f"{version()}{' (a null move appended to every game)' if OLD else ''}; early_limit = {early_limit} plies (cut after ply {early_limit + 8})\n")
    print("| pattern pass | evallab | pgn-extract | equal |")
    print("|---|---:|---:|---|")
    for name, a, b, only_ours, only_theirs in rows:
        same = a == b if only_ours is None else not only_ours and not only_theirs
        print(f"| {name} | {a} | {b} | {'yes' if same else 'NO'} |")
        if only_ours is not None and not same:
            differ = True
            for k in list(only_ours)[:5]:
                print(f"|   only evallab: {k} | | | |")
            for k in list(only_theirs)[:5]:
                print(f"|   only pgn-extract: {k} | | | |")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())

# ---
# jupyter:
#   jupytext:
#     cell_metadata_filter: tags,-all
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 07 · Adjudication: resign and draw rules replayed
#
# `evallab adjudicate` replays a rule set over every game (`adjudication.md`; README
# "Adjudication"): at which ply the rule would have ended the game, with which
# result, and whether that agrees with the recorded result. The demo pipeline runs
# the `cutechess` preset (`-resign movecount=3 score=1000`, `-draw movenumber=40
# movecount=8 score=10`, plus the 50-move rule, threefold repetition and dead
# material) per engine and a sweep of its draw rule; the notebook runs both through
# the Python API (`evallab.Dataset.adjudicate`, the command's `--format parquet`
# frame).
#
# Here the preset is re-implemented in plain Python over the `moves` table, and
# its per-engine numbers are asserted equal to the command's; then the same for
# the `fastchess` preset (fishtest's rules, counted as fastchess counts them).

# %% tags=["parameters"]
import os

DATASET = os.environ.get("EVALLAB_DATASET", "../demo-dataset")

# %%
from IPython.display import display
import matplotlib.pyplot as plt
import polars as pl

import evallab  # the binary and its API (pip install .)

pl.Config.set_tbl_rows(30)
pl.Config.set_tbl_cols(30)
pl.Config.set_tbl_width_chars(200)

ds = evallab.Dataset(DATASET)
summary = ds.adjudicate(rules="cutechess", by="engine")
sweep = ds.adjudicate(rules="cutechess", sweep=["draw.score=0..40:10", "draw.movecount=2..8:2"])
games = ds.scan("games").collect()
# Only the columns the replay reads: the whole table (PVs and comments) would
# be gigabytes on a large archive.
moves = (
    ds.scan("moves")
    .select(
        "game_id", "ply", "side", "san", "uci", "is_book", "eval_cp", "mate", "is_mate",
        "dead_material", "repetition", "halfmove_clock", "move_number",
    )
    .sort("game_id", "ply")
    .collect()
)
display(summary)

# %% [markdown]
# ## The cutechess preset in Python
#
# Own evals are centipawns from the mover's point of view (mates ±(10⁶ − n));
# book moves and moves without an eval are unknown. Per ply, in order: the
# board's own draws (dead material, threefold, 50 moves), then the draw rule
# (a capture or pawn move resets the count and is then counted; an unknown eval
# resets it), then the resign rule (movecount own moves at or below −score).
# cutechess's board also counts a rook move that gives up a castling right as
# irreversible (the FIDE halfmove clock does not): `rook_rights` keeps those
# rights from the start position (X-FEN `KQkq`: the outermost rooks).

# %%
MATE = 1_000_000
CUTECHESS = {"gui": "cutechess", "draw": (40, 8, 10), "resign": (3, 1000)}


def own_eval(r):
    if r["is_book"]:
        return None
    if r["eval_cp"] is not None:
        e = r["eval_cp"]
    elif r["mate"] is not None:
        m = r["mate"]
        e = MATE - m if m >= 0 else -MATE - m
    else:
        return None
    return e if r["side"] == "w" else -e


def rook_rights(fen):
    """The squares ("a1", …) of the rooks that may castle in a start position."""
    if fen is None:
        return {"a1", "h1", "a8", "h8"}
    board, _, castling = fen.split()[:3]
    ranks = board.split("/")
    out = set()
    for color, rank, digit in (("w", ranks[7], "1"), ("b", ranks[0], "8")):
        row = "".join("." * int(ch) if ch.isdigit() else ch for ch in rank)
        rook, king = ("R", "K") if color == "w" else ("r", "k")
        k = row.find(king)
        for ch in castling:
            # "-": no castling rights (as in many FEN starts of the TCEC archive).
            if ch == "-" or ch.isupper() != (color == "w"):
                continue
            files = [i for i, p in enumerate(row) if p == rook]
            side = {"k": [i for i in files if i > k], "q": [i for i in files if i < k]}.get(ch.lower())
            if side is None:  # Shredder-FEN: the rook's file
                side = [ord(ch.lower()) - ord("a")]
            if side:
                i = max(side) if ch.lower() == "k" else min(side)
                out.add("abcdefgh"[i] + digit)
    return out


def replay(rows, fen=None, rules=CUTECHESS):
    """First firing (ply, result) of a one-sided preset in one game's plies."""
    (draw_n, draw_c, draw_s), (resign_c, resign_s) = rules["draw"], rules["resign"]
    fast = rules["gui"] == "fastchess"
    draw, resign = 0, {"w": 0, "b": 0}
    rights = rook_rights(fen)
    for r in rows:
        ply, e, s = r["ply"], own_eval(r), r["side"]
        if not r["is_mate"] and (r["dead_material"] or r["repetition"] >= 3 or r["halfmove_clock"] >= 100):
            return ply, "1/2-1/2"
        frm, to = r["uci"][:2], r["uci"][2:4]
        if r["san"].startswith(("K", "O-O")):
            rights -= {sq for sq in rights if sq[1] == ("1" if s == "w" else "8")}
            gives_up = False
        else:
            gives_up = r["san"].startswith("R") and frm in rights
            rights -= {frm, to}
        # fastchess resets on its halfmove clock only, and its move floor is the
        # board's full move number - 1 (= ply // 2 from the standard start).
        if r["halfmove_clock"] == 0 or (gives_up and not fast):
            draw = 0
        moves_done = r["move_number"] - (s == "w") if fast else ply // 2
        if e is None:
            draw = 0
            resign[s] = 0
        else:
            draw = draw + 1 if abs(e) <= draw_s else 0
            resign[s] = resign[s] + 1 if e <= -resign_s else 0
            drawn = moves_done >= draw_n and draw >= 2 * draw_c
            resigned = resign[s] >= resign_c
            # cutechess asks the draw rule first, fastchess the resign rule.
            for rule in ("resign", "draw") if fast else ("draw", "resign"):
                if rule == "draw" and drawn:
                    return ply, "1/2-1/2"
                if rule == "resign" and resigned:
                    return ply, "0-1" if s == "w" else "1-0"
        if r["is_mate"]:
            return None
    return None


fens = dict(games.select("game_id", "start_fen").iter_rows())


def fires_of(rules):
    fires = []
    for (gid,), g in moves.group_by(["game_id"], maintain_order=True):
        f = replay(g.iter_rows(named=True), fens.get(gid), rules)
        fires.append({"game_id": gid, "fire_ply": f and f[0], "rule_result": f and f[1]})
    return pl.DataFrame(fires, schema={"game_id": pl.Int64, "fire_ply": pl.Int64, "rule_result": pl.String})


adjudicated = pl.any_horizontal(
    pl.col(c).str.contains(r"(?i)adjudicat|TCEC (draw|win) rule|TB").fill_null(False)
    for c in ("termination", "termination_details")
)


def per_engine_of(fires):
    out = (
        games.filter(pl.col("plies") > 0)
        .join(fires, on="game_id", how="left")
        .with_columns(
            verdict=pl.when(~pl.col("result").is_in(["1-0", "0-1", "1/2-1/2"]))
            .then(pl.lit("censored"))
            .when(pl.col("fire_ply").is_not_null())
            .then(pl.when(pl.col("rule_result") == pl.col("result")).then(pl.lit("agree")).otherwise(pl.lit("wrong")))
            .when(adjudicated)
            .then(pl.lit("censored"))
            .otherwise(pl.lit("none"))
        )
        .with_columns(plies_saved=pl.when(pl.col("verdict") == "agree").then(pl.col("plies").cast(pl.Int64) - pl.col("fire_ply")).otherwise(0))
    )
    return (
        pl.concat([out.with_columns(engine=pl.col("white")), out.with_columns(engine=pl.col("black"))])
        .group_by("engine")
        .agg(
            pl.len().alias("games_nb"),
            pl.col("fire_ply").is_not_null().sum().alias("fired_nb"),
            (pl.col("verdict") == "agree").sum().alias("agree_nb"),
            (pl.col("verdict") == "wrong").sum().alias("wrong_nb"),
            (pl.col("verdict") == "censored").sum().alias("censored_nb"),
            pl.col("plies_saved").sum().alias("plies_saved_nb"),
        )
    )


def compare(summary, per_engine, name):
    cmp = summary.join(per_engine, on="engine", how="full", coalesce=True).sort("engine")
    display(cmp.select("engine", "games", "games_nb", "fired", "fired_nb", "agree", "agree_nb", "wrong", "wrong_nb", "plies_saved", "plies_saved_nb"))
    assert cmp.height == summary.height == per_engine.height
    for c in ("games", "fired", "agree", "wrong", "censored", "plies_saved"):
        assert (cmp[c] == cmp[f"{c}_nb"]).all(), f"{c} differs"
    print(f"the {name} preset's per-engine numbers reproduced")


compare(summary, per_engine_of(fires_of(CUTECHESS)), "cutechess")

# %% [markdown]
# ## fishtest's rules, counted as fastchess counts them
#
# The `fastchess` preset is fishtest's `-resign movecount=3 score=600 -draw
# movenumber=34 movecount=8 score=20` with `gui = "fastchess"`: the draw count
# resets on the halfmove clock only (not on a rook move that gives up a castling
# right), its move floor is the board's move number, and the resign rule is asked
# first (`docs/definitions/adjudication.md`, reading 9; checked against fastchess's
# own matches in `tests/it/fastchess.rs`). The same Python replay with those
# switches gives the command's numbers.

# %%
FASTCHESS = {"gui": "fastchess", "draw": (34, 8, 20), "resign": (3, 600)}
fishtest = ds.adjudicate(rules="fastchess", by="engine")
compare(fishtest, per_engine_of(fires_of(FASTCHESS)), "fastchess")

# %% [markdown]
# ## The sweep: plies saved against wrong results
#
# Each point is one setting of the draw rule; a director picks the point that saves
# most plies at an acceptable number of wrong results (`adjudicate --plot` draws the
# same chart as SVG).

# %%
keys = [c for c in sweep.columns if "." in c]
fig, ax = plt.subplots(figsize=(7, 4.5))
ax.scatter(sweep["wrong"], sweep["saved_pct"])
for row in sweep.iter_rows(named=True):
    ax.annotate(" ".join(f"{k.split('.')[-1]}={row[k]:g}" for k in keys), (row["wrong"], row["saved_pct"]), fontsize=7)
ax.set_xlabel("wrong results (games)")
ax.set_ylabel("plies saved (%)")
ax.set_title("cutechess draw rule sweep (demo)")
plt.show()
display(sweep.sort("saved_pct", descending=True).head(10))

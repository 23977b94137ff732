#!/usr/bin/env bash
# Same outputs: proves that a change of evallab's architecture changed no number
# (issue 28: "every command's output byte-identical before/after on the demo
# dataset and the shared corpus").
#
#   scripts/same_outputs.sh OLD_BIN NEW_BIN [WORKDIR]
#   TCEC=DIR  the corpus (default ../shared/tcec beside the repo, else /work/shared/tcec)
#   STOCKFISH=PATH  the engine of the engine stages (default /usr/games/stockfish)
#   SKIP_CORPUS=1  the demo part only (half a minute instead of 4-5 minutes on 2 cores)
#   STRICT=1  outputs equal but for float rounding count as differences (below)
#   POLARS_MAX_THREADS=N  polars threads of evallab (default here: 1, see below)
#
# Each binary runs the same commands (below: demo_cases, stats_cases, corpus_cases) in a folder of
# its own, WORKDIR/old and WORKDIR/new (default WORKDIR: a new /tmp/same-outputs.*,
# kept for inspection). Both folders have identical relative paths: the inputs
# are the repo's data/ (copied) and a symlink `tcec` to the corpus, and every
# command runs with its folder as the working directory and relative paths only
# (the engine's /usr/games/stockfish is the same absolute path on both sides). So
# outputs that embed a path (manifest inputs, source_file, reports, pipeline
# state) must be equal as they are; scripts/same_outputs.py also replaces an
# absolute path of the side folder by `<side>`, and says so if it ever had to.
#
# What is run, on each dataset:
#   demo    = data/demo, then data/fixtures as a second ingest run (two parts;
#             rejects from malformed.pgn), then data/demo again (skipped);
#   corpus  = the 282 TCEC archive files (13,904 games and 1 reject), one ingest run.
#   ingest (and --plan), inspect, schema (all and each table), balance (--by each,
#   --event/--engine/--family filters, every --format), calibrate (--by, --toml,
#   --plot, a seeded bootstrap), relevance (--x05, --x05 the calibrate TOML,
#   --by, --moves-out), eas (v6, v5, --games with --pgn), adjudicate (each preset,
#   a rules file, --set, sweeps with a plot, --games, --check-clocks on the
#   corpus), facts and the reduce path (balance/calibrate/eas --facts), annotate,
#   calc (each mode), report (HTML); on the demo dataset the engine stages with
#   Stockfish at small node and depth limits and --threads 1: analyze (two
#   labels), agreement on them, relevance/annotate --analysis, match; and
#   `evallab run pipelines/demo.toml` twice (the second run skips most steps);
#   on the corpus also pipelines/tcec-archive.toml and tcec-superfinals.toml.
#   Not run: policy and ease (they need lc0 and a Maia net), commit/--shard (the
#   distributed path; its tests compare it with a plain run).
#
# Compared (scripts/same_outputs.py; its docstring has the details): every
# file either side wrote and every command's stdout and exit code. Datasets:
# manifest.json without volatile fields (times, seconds, tool_version) and
# each table by the sha256 of its rows, in manifest order or else sorted (Parquet bytes may differ in
# metadata such as the tool version; `analysis`'s nps/time_ms are wall-clock
# and dropped); other Parquet by rows in order; everything else by sha256
# (after `evallab VERSION` and the match logs' run date are masked). One line
# per comparison, `same` or `DIFF`, then `N same, M differ`; the exit status is
# non-zero on any difference. Stderr (timings, progress) is compared too, with
# durations and rates masked, but only listed, as information.
#
# Known nondeterminism of evallab itself (2877d09): `relevance`'s per-engine
# summary sums floats in a parallel polars group-by (summary_partial), so two
# runs of the same binary on the same dataset can differ in the last digits
# (relative ~1e-15), and where a report rounds such a mean (0.1475 -> 0.147 or
# 0.148) the HTML differs visibly. So this script runs evallab with polars on
# one thread (POLARS_MAX_THREADS=1 unless set): the sums then come out the same
# on every run, and the comparison can demand identical bytes. The engines and
# ingest keep their --jobs. With more polars threads, a file equal but for float
# rounding (text around the numbers identical, integers equal, floats within a
# relative 1e-9) is reported `same~` and listed at the end; STRICT=1 makes it a
# difference. (Fixed after 2877d09: relevance sums its losses exactly, in
# nano-pawns, so a newer binary gives the same bytes on any thread count; one
# thread stays the default so that old binaries compare too.)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: scripts/same_outputs.sh OLD_BIN NEW_BIN [WORKDIR]"
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
old_bin=$(readlink -f "$1") new_bin=$(readlink -f "$2")
for b in "$old_bin" "$new_bin"; do [ -x "$b" ] || { echo "not an executable: $b" >&2; exit 2; }; done
work=${3:-$(mktemp -d "${TMPDIR:-/tmp}/same-outputs.XXXXXX")}
work=$(mkdir -p "$work" && cd "$work" && pwd)
tcec=${TCEC:-}
if [ -z "$tcec" ]; then
  for d in "$repo/../shared/tcec" /work/shared/tcec; do [ -d "$d" ] && { tcec=$(cd "$d" && pwd); break; }; done
fi
stockfish=${STOCKFISH:-/usr/games/stockfish}
[ -x "$stockfish" ] || { echo "no engine at $stockfish (apt-get install stockfish)" >&2; exit 2; }
if [ "${SKIP_CORPUS:-}" != 1 ] && [ ! -d "$tcec" ]; then
  echo "no corpus (set TCEC=DIR, or SKIP_CORPUS=1)" >&2; exit 2
fi
python3 -c 'import polars' 2>/dev/null || { echo "needs polars: pip install polars pyarrow" >&2; exit 2; }
export POLARS_MAX_THREADS=${POLARS_MAX_THREADS:-1}

# ---------------------------------------------------------------------------
# One side: the folder, its inputs, and the command runner.
side="" bin=""
c() { # NAME ARGS...: `evallab ARGS` in the side's folder; stdout, stderr and exit code to out/NAME.{out,err,rc}
  local name=$1 rc=0
  shift
  mkdir -p "$side/out/$(dirname "$name")"
  (cd "$side" && exec "$bin" "$@" > "out/$name.out" 2> "out/$name.err") || rc=$?
  echo "$rc" > "$side/out/$name.rc"
}

demo_cases() {
  local sf=$stockfish fam=(--family '^Stockfish L1[05]$=Stockfish L1x')
  # Data in.
  c demo/ingest-demo ingest data/demo -o demo --jobs 2
  c demo/ingest-fixtures ingest data/fixtures -o demo --jobs 2
  c demo/ingest-again ingest data/demo -o demo --jobs 2
  c demo/ingest-plan ingest --plan data/demo data/fixtures
  c demo/ingest-nopv ingest data/demo -o demo-nopv --jobs 1 --no-pv --batch-mib 1 --quiet
  c demo/ingest-strict ingest data/fixtures -o demo-strict --strict --quiet
  c demo/inspect inspect demo
  c schema schema
  for t in games moves rejects analysis analysis_failures eas_labels relevance_moves; do c "schema-$t" schema "$t"; done
  # calc: no dataset.
  c calc-limits calc --limits
  c calc-limits-x05 calc --x05 0.9 --limits
  c calc-from-to calc --x05 0.62 --from 0.3 --to -1.25
  c calc-eval calc --eval 1.7
  c calc-eval-neg calc --x05 0.5 --eval -0.45
  for s in '!?' '!' '!!' '?!' '?' '??'; do
    c "calc-inverse-econ8-$(printf %s "$s" | tr '!?' 'xq')" calc --inverse 0.4 "$s" --scheme econ8
  done
  c calc-inverse-gen20 calc --x05 0.8 --inverse -0.2 '?' --scheme gen20
  stats_cases demo demo 'round robin' 'Stockfish L1' '^Stockfish Full$' "${fam[@]}"
  c demo/adjudicate-file adjudicate demo --rules data/adjudication/cutechess.toml --by engine --format csv
  c demo/adjudicate-set adjudicate demo --rules cutechess --set draw.score=20 --set resign.movecount=5 --by event,engine --format csv
  c demo/adjudicate-games adjudicate demo --rules cutechess --games wrong --pgn out/demo/adjudicate-wrong.pgn
  c demo/annotate-event annotate demo --event 'TCEC style' -o out/demo/annotate-tcec.pgn
  c demo/annotate-schemes annotate demo --event 'Fixture' --x05 0.8 --position-scheme seven-equal --move-scheme gen20 -o out/demo/annotate-fixtures.pgn
  # Engine stages: Stockfish, --threads 1, node and depth limits (reproducible).
  c demo/analyze-sf analyze demo --engine "$sf" --nodes 1000 --multipv 2 --max-games 6 --jobs 2 --threads 1 --label sf-1k
  c demo/analyze-sf-again analyze demo --engine "$sf" --nodes 1000 --multipv 2 --max-games 6 --jobs 2 --threads 1 --label sf-1k
  c demo/analyze-depth analyze demo --engine "$sf" --depth 6 --all-depths --event 'cutechess' --player 'L5' --plies 9..40 --skip-book --max-games 3 --jobs 1 --quiet
  c demo/inspect-analysed inspect demo
  c demo/agreement agreement demo --analysis sf-1k
  c demo/agreement-engine agreement demo --analysis sf-1k --by engine --format csv --moves-out out/demo/agreement-moves.parquet
  c demo/agreement-season agreement demo --analysis stockfish-depth6-mpv1 --by season,engine --format json "${fam[@]}"
  c demo/agreement-filter agreement demo --analysis sf-1k --engine Full --event TCEC --format parquet -o out/demo/agreement.parquet
  c demo/relevance-analysis relevance demo --analysis sf-1k --x05 out/demo/x05.toml --format csv --moves-out out/demo/relevance-ref-moves.parquet
  c demo/annotate-analysis annotate demo --event 'TCEC style' --analysis sf-1k -o out/demo/annotate-ref.pgn
  c demo/match match demo --player . --engine "$sf" --mlm-depth 6 --slm-depths 4..8 --multipv 4 --moves 10..19 --max-games 2 --jobs 2 --label sf-match -o out/demo/match --format csv --stats out/demo/match.csv
  c demo/match-player match demo --player 'L15' --engine "$sf" --mlm-depth 5 --slm-depths 3..6 --final-depth 7 --multipv 3 --moves 12..16 --skip-book --event cutechess --max-games 2 --by event,player --bootstrap 100 --seed 3 -o out/demo/match-l15
  c demo/match-by-game match demo --player . --engine "$sf" --mlm-depth 6 --slm-depths 4..8 --multipv 4 --moves 10..19 --max-games 2 --jobs 2 --label sf-match --by game,player --format json -o out/demo/match-again
  c demo/report-analysed report demo -o out/demo/report-analysed --x05 out/demo/x05.toml
  # The quick-start pipeline, twice (the second run skips every step), and its plan.
  c demo/run-dry run pipelines/demo.toml --set dataset=pipe --set out=pipe/results --set engine="$sf" --dry-run
  c demo/run run pipelines/demo.toml --set dataset=pipe --set out=pipe/results --set engine="$sf"
  c demo/run-again run pipelines/demo.toml --set dataset=pipe --set out=pipe/results --set engine="$sf"
}

corpus_cases() {
  local fam=(--family '^Stockfish=Stockfish' --family '^Houdini=Houdini' --family '^Komodo=Komodo' --family '^(LCZero|Lc0|Leela)=Leela')
  c corpus/ingest-plan ingest --plan tcec
  c corpus/ingest ingest tcec -o corpus --jobs 2
  c corpus/inspect inspect corpus
  stats_cases corpus corpus 'Superfinal$' '^Stockfish' '^Komodo' "${fam[@]}"
  c corpus/adjudicate-clocks adjudicate corpus --rules tcec --check-clocks --format csv -o out/corpus/adjudicate-clocks.csv
  c corpus/adjudicate-clocks-stdout adjudicate corpus --rules tcec --check-clocks --event 'Season 1[0-3] - Superfinal'
  c corpus/adjudicate-clocks-sweep adjudicate corpus --rules tcec --check-clocks --event 'Season 2[2-9]' \
    --sweep tcec.draw.score=5..30:5 --sweep tcec.draw.movenumber=1..41:20 --format csv -o out/corpus/adjudicate-derived.csv
  c corpus/adjudicate-clocks-wrong adjudicate corpus --rules tcec --check-clocks --games wrong --event 'Superfinal' --format csv
  c corpus/adjudicate-tcec-event adjudicate corpus --rules tcec --by event --format csv
  c corpus/annotate annotate corpus --event 'Season 9 - Superfinal' -o out/corpus/annotate-s9.pgn
  # The shipped corpus pipelines on the same dataset (their ingest step skips every input).
  c corpus/run-archive run pipelines/tcec-archive.toml --set input=tcec --set dataset=corpus --set out=out/corpus/archive
  c corpus/run-superfinals run pipelines/tcec-superfinals.toml --set input=tcec --set dataset=corpus --set out=out/corpus/superfinals
}

# The statistics every dataset gets. DS NAME EVENT_RE ENGINE_RE ENGINE_RE2 FAMILY_ARGS...
stats_cases() {
  local ds=$1 n=$2 ev=$3 en=$4 en2=$5
  shift 5
  local fam=("$@") o="out/$n"
  c "$n/balance" balance "$ds"
  c "$n/balance-engine" balance "$ds" --by engine --format csv
  c "$n/balance-season" balance "$ds" --by season,engine --format json
  c "$n/balance-event" balance "$ds" --event "$ev" --format ndjson
  c "$n/balance-engine-re" balance "$ds" --by engine --engine "$en" --format csv
  c "$n/balance-family" balance "$ds" --by engine "${fam[@]}" --format csv
  c "$n/balance-parquet" balance "$ds" --event "$ev" "${fam[@]}" --format parquet -o "$o/balance.parquet"
  c "$n/balance-csv-file" balance "$ds" --format csv -o "$o/balance.csv"
  c "$n/calibrate" calibrate "$ds" --format csv --toml "$o/x05.toml"
  c "$n/calibrate-table" calibrate "$ds" --engine "$en"
  c "$n/calibrate-event" calibrate "$ds" --by event,engine --event "$ev" --format csv --toml "$o/x05-event.toml"
  c "$n/calibrate-season" calibrate "$ds" --by season,engine --format json
  c "$n/calibrate-boot" calibrate "$ds" --event "$ev" "${fam[@]}" --bootstrap 200 --seed 42 --level 0.9 \
    --format csv -o "$o/calibrate-boot.csv" --toml "$o/x05-family.toml" --plot "$o/calibration.svg"
  c "$n/calibrate-parquet" calibrate "$ds" --engine "$en2" --bootstrap 50 --seed 7 --format parquet -o "$o/calibrate.parquet"
  c "$n/relevance" relevance "$ds" --format csv
  c "$n/relevance-x05" relevance "$ds" --x05 0.8 --by event,engine --event "$ev" --moves-out "$o/relevance-x05-moves.parquet" --format csv
  c "$n/relevance-from" relevance "$ds" --x05 "$o/x05.toml" --format csv -o "$o/relevance.csv" --moves-out "$o/relevance-moves.parquet"
  c "$n/relevance-family" relevance "$ds" --x05 "$o/x05-family.toml" "${fam[@]}" --event "$ev" --by event,engine --format json --moves-out "$o/relevance-family-moves.parquet"
  c "$n/eas" eas "$ds"
  c "$n/eas-csv" eas "$ds" --format csv -o "$o/eas.csv"
  c "$n/eas-v5" eas "$ds" --rules v5 --event "$ev" --format json
  c "$n/eas-hard-avg" eas "$ds" --hard-avg 60 --engine "$en" --format csv
  c "$n/eas-games" eas "$ds" --engine "$en" --games short --format csv --pgn "$o/eas-short.pgn"
  c "$n/eas-games-sac" eas "$ds" --engine "$en" --games sac1 --format csv
  c "$n/eas-relabel" eas "$ds" --relabel --format csv
  for rules in cutechess tcec terra; do
    c "$n/adjudicate-$rules" adjudicate "$ds" --rules "$rules"
    c "$n/adjudicate-$rules-engine" adjudicate "$ds" --rules "$rules" --by engine --event "$ev" --format csv
  done
  c "$n/adjudicate-event-engine" adjudicate "$ds" --rules cutechess --by event,engine "${fam[@]}" --format json
  c "$n/adjudicate-sweep" adjudicate "$ds" --rules cutechess --sweep draw.score=0..40:10 --sweep draw.movecount=2..8:2 \
    --format csv -o "$o/adjudicate-sweep.csv" --plot "$o/adjudicate-sweep.svg"
  c "$n/adjudicate-sweep-tcec" adjudicate "$ds" --rules tcec --event "$ev" --sweep tcec.draw.score=5..50:15 --format csv
  c "$n/adjudicate-games" adjudicate "$ds" --rules terra --games agree --engine "$en" --format csv
  # The map step and the statistics reduced from it.
  c "$n/facts" facts "$ds" -o "$o/facts"
  c "$n/balance-facts" balance "$ds" --facts "$o/facts" --format csv
  c "$n/calibrate-facts" calibrate "$ds" --facts "$o/facts" --format csv
  c "$n/eas-facts" eas "$ds" --facts "$o/facts" --format csv
  c "$n/report" report "$ds" -o "$o/report" --event "$ev" --x05 "$o/x05.toml"
  c "$n/report-family" report "$ds" -o "$o/report-family" --event "$ev" --games 3 --x05 "$o/x05-family.toml" "${fam[@]}"
  c "$n/report-x05" report "$ds" -o "$o/report-x05" --x05 0.7 --games 1
  c "$n/inspect-end" inspect "$ds"
}

run_side() { # NAME BIN
  side="$work/$1" bin=$2
  rm -rf "$side"
  mkdir -p "$side/data" "$side/pipelines" "$side/out"
  cp -r "$repo/data/demo" "$repo/data/fixtures" "$repo/data/adjudication" "$side/data/"
  cp "$repo"/pipelines/{demo,tcec-archive,tcec-superfinals}.toml "$side/pipelines/"
  [ -z "$tcec" ] || ln -s "$tcec" "$side/tcec"
  local t0=$SECONDS
  demo_cases
  local t1=$SECONDS
  [ "${SKIP_CORPUS:-}" = 1 ] || corpus_cases
  echo "$1: $("$bin" --version) ($bin): demo $((t1 - t0)) s, corpus $((SECONDS - t1)) s" >&2
}

start=$SECONDS
echo "same outputs in $work (corpus: ${tcec:-none}${SKIP_CORPUS:+, skipped}; POLARS_MAX_THREADS=$POLARS_MAX_THREADS)" >&2
run_side old "$old_bin"
run_side new "$new_bin"
t_cmp=$SECONDS
rc=0
python3 "$repo/scripts/same_outputs.py" "$work/old" "$work/new" \
  --version-old "$("$old_bin" --version | awk '{print $2}')" \
  --version-new "$("$new_bin" --version | awk '{print $2}')" ${STRICT:+--strict} || rc=$?
echo "wall time: $((SECONDS - start)) s (comparison $((SECONDS - t_cmp)) s); outputs kept in $work" >&2
exit "$rc"

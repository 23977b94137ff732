"""The Python API (evallab.api) against the binary it wraps.

Each statistic method must return exactly the frame of its command run with
`--format parquet` (the same options written as the command line, by hand);
the engine jobs add what the CLI adds; errors carry the CLI's exit kind and
message; every method takes exactly its command's options.

Run with EVALLAB_DATASET pointing at a dataset of data/demo and data/fixtures
(`.ci/run` ingests it), and the evallab wheel installed (or EVALLAB_BIN set).
The module works on a copy, which it gives an analysis (Stockfish, from PATH or
/usr/games), a match run and a policy file derived from the analysis.
"""

from __future__ import annotations

import doctest
import errno
import gc
import inspect
import json
import os
import pydoc
import re
import shutil
import signal
import subprocess
import threading
import time
import warnings
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import evallab
import evallab.api
from evallab.api import binary
from evallab.errors import DatasetError, EvallabError, InputDataError, UsageError

ROOT = Path(__file__).resolve().parents[2]
SOURCE = Path(os.environ.get("EVALLAB_DATASET", "target/ci-dataset"))
STOCKFISH = shutil.which("stockfish") or "/usr/games/stockfish"
DEMO_EVENT = "^evallab demo round robin"  # data/demo's events


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([binary(), *args], capture_output=True, text=True, check=False)


def cli_frame(tmp: Path, command: str, dataset: Path, *args: str) -> pl.DataFrame:
    out = tmp / f"{command}.parquet"
    r = cli(command, str(dataset), *args, "--format", "parquet", "-o", str(out))
    assert r.returncode == 0, r.stderr
    return pl.read_parquet(out)


@pytest.fixture(scope="module")
def ds(tmp_path_factory: pytest.TempPathFactory) -> evallab.Dataset:
    if not (SOURCE / "manifest.json").exists():
        pytest.fail(f"no dataset at {SOURCE}; set EVALLAB_DATASET")
    copy = tmp_path_factory.mktemp("api") / "ds"
    shutil.copytree(SOURCE, copy)
    d = evallab.Dataset(copy)
    d.analyze(uci=STOCKFISH, depth=6, multipv=3, max_games=6, jobs=2, label="sf", quiet=True)
    return d


@pytest.fixture(scope="module")
def policy_file(ds: evallab.Dataset, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Priors for the analysis' lines (0.6, 0.3, 0.1 by rank): ease needs a
    policy, and lc0 is not on every machine."""
    path = tmp_path_factory.mktemp("policy") / "policy.parquet"
    (
        ds.scan("analysis")
        .filter(pl.col("is_final"))
        .select(
            "game_id",
            "ply",
            pl.col("pv").str.split(" ").list.first().alias("move"),
            pl.col("multipv").replace_strict({1: 0.6, 2: 0.3, 3: 0.1}, return_dtype=pl.Float64).alias("prior"),
        )
        .collect()
        .write_parquet(path)
    )
    return path


# (method, keyword arguments, the same as command-line options)
CASES = [
    ("balance", {}, []),
    ("balance", {"by": "engine", "family": ["^Stockfish=Stockfish"]}, ["--by", "engine", "--family", "^Stockfish=Stockfish"]),
    ("calibrate", {"bootstrap": 20, "seed": 3}, ["--bootstrap", "20", "--seed", "3"]),
    ("wdl", {"min_positions": 10}, ["--min-positions", "10"]),
    ("wdl", {"by": "engine", "fitting": "fitDensity", "min_positions": 10}, ["--by", "engine", "--fitting", "fitDensity", "--min-positions", "10"]),
    ("relevance", {"by": "engine"}, ["--by", "engine"]),
    ("relevance", {"analysis": "sf", "x05": 0.8}, ["--analysis", "sf", "--x05", "0.8"]),
    ("eas", {}, []),
    ("eas", {"rules": "v5", "event": "demo"}, ["--rules", "v5", "--event", "demo"]),
    ("agreement", {"analysis": "sf", "by": "engine"}, ["--analysis", "sf", "--by", "engine"]),
    ("adjudicate", {"rules": "cutechess", "by": "engine"}, ["--rules", "cutechess", "--by", "engine"]),
    (
        "adjudicate",
        {"rules": "cutechess", "sweep": ["draw.score=0..40:20", "draw.movecount=2..8:6"]},
        ["--rules", "cutechess", "--sweep", "draw.score=0..40:20", "--sweep", "draw.movecount=2..8:6"],
    ),
    ("ratings", {"event": DEMO_EVENT, "bootstrap": 50}, ["--event", DEMO_EVENT, "--bootstrap", "50"]),
    ("ratings", {"each_group": True}, ["--each-group"]),
    ("ratings", {"event": DEMO_EVENT, "bootstrap": 50, "solver": "ordo"},
     ["--event", DEMO_EVENT, "--bootstrap", "50", "--solver", "ordo"]),
    ("standings", {"by": "engine", "terminations": True}, ["--by", "engine", "--terminations"]),
    ("crosstable", {"wide": True}, ["--wide"]),
    ("pairs", {"sprt": "0,5"}, ["--sprt", "0,5"]),
    # Values that start with `-` (clap reads `--sprt -3,1` as two options).
    ("pairs", {"sprt": "-3,1"}, ["--sprt=-3,1"]),
    ("ratings", {"event": DEMO_EVENT, "bootstrap": 50, "white": -10, "average": -100},
     ["--event", DEMO_EVENT, "--bootstrap", "50", "--white=-10", "--average=-100"]),
    ("opening_stats", {}, []),
    ("engine_stats", {"phase": True}, ["--phase"]),
]


@pytest.mark.parametrize(("method", "kwargs", "args"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_method_returns_the_cli_frame(ds: evallab.Dataset, tmp_path: Path, method: str, kwargs: dict, args: list) -> None:
    got = getattr(ds, method)(**kwargs)
    want = cli_frame(tmp_path, method.replace("_", "-"), ds.path, *args)
    assert got.height > 0, f"{method}: an empty frame compares equal too easily"
    assert_frame_equal(got, want)


def test_inspect_returns_every_section_and_verifies_the_parts(ds: evallab.Dataset, tmp_path: Path) -> None:
    got = ds.inspect()
    assert list(got) == ["events", "analyses", "dialects", "inputs", "rejects", "repeated", "tables", "variants"]
    assert_frame_equal(got["events"], cli_frame(tmp_path, "inspect", ds.path))
    games = ds.scan("games").collect()
    tables = dict(got["tables"].iter_rows())
    assert tables["games"] == games.height == got["events"]["games"].sum() == got["dialects"]["games"].sum()
    assert tables["moves"] == got["events"]["plies"].sum() == ds.scan("moves").select(pl.len()).collect().item()
    assert got["rejects"].height == tables["rejects"] == got["events"]["rejects"].sum()
    # The fixture's analysis (analyze(..., label="sf") above): one row.
    assert got["analyses"]["label"].to_list() == ["sf"]
    # The manifest's inputs, with the games' own counts.
    inputs = [i for r in ds.runs for i in r["inputs"]]
    assert got["inputs"]["sha256"].to_list() == [i["sha256"] for i in inputs]
    per_file = games.group_by("source_sha256").len()
    assert dict(zip(got["inputs"]["sha256"], got["inputs"]["games"])) == dict(per_file.iter_rows())
    parts = ds.inspect(verify=True)["parts"]
    on_disk = {str(Path(p).relative_to(ds.path)): Path(p).stat().st_size for t in ds.tables for p in ds.parts(t)}
    assert dict(zip(parts["part"], parts["bytes"])) == on_disk
    assert parts["status"].unique().to_list() == ["as committed"]
    # A part changed after its commit (same size: only the hash sees it).
    part = ds.path / parts["part"][0]
    copy = tmp_path / "ds"
    shutil.copytree(ds.path, copy)
    changed = copy / parts["part"][0]
    data = bytearray(part.read_bytes())
    data[100] ^= 1
    changed.write_bytes(bytes(data))
    with pytest.raises(DatasetError, match=f"1 part\\(s\\) differ from what was committed: {parts['part'][0]}"):
        evallab.Dataset(copy).inspect(verify=True)


@pytest.mark.parametrize("bands", [[], [0.5, 0.8]])
def test_ease_returns_the_cli_frame(ds: evallab.Dataset, policy_file: Path, tmp_path: Path, bands: list) -> None:
    got = ds.ease(analysis="sf", policy_file=policy_file, top=3, bands=bands)
    args = ["--analysis", "sf", "--policy-file", str(policy_file), "--top", "3"]
    args += ["--bands", ",".join(map(str, bands))] if bands else []
    want = cli_frame(tmp_path, "ease", ds.path, *args)
    assert got.height > 0
    assert_frame_equal(got, want)


def test_policy_adds_the_clis_rows_and_ease_reads_them(ds: evallab.Dataset, lc0_maia: tuple[Path, Path], tmp_path: Path) -> None:
    lc0, weights = lc0_maia
    cli_copy = tmp_path / "cli"
    shutil.copytree(SOURCE, cli_copy)
    ds.policy(uci=lc0, weights=weights, max_games=2, plies="1..30", label="maia", quiet=True)
    r = cli("policy", str(cli_copy), "--uci", str(lc0), "--weights", str(weights), "--max-games", "2",
            "--plies", "1..30", "--label", "maia", "--quiet")  # fmt: skip
    assert r.returncode == 0, r.stderr

    def rows(d: Path) -> pl.DataFrame:
        return evallab.Dataset(d).scan("policy").sort("game_id", "ply", "move").collect()

    assert rows(ds.path).height > 100
    assert_frame_equal(rows(ds.path), rows(cli_copy))
    got = ds.ease(analysis="sf", policy="maia", top=3)
    assert got.height > 0
    assert_frame_equal(got, cli_frame(tmp_path, "ease", ds.path, "--analysis", "sf", "--policy", "maia", "--top", "3"))


def test_negative_values_are_values_not_options(ds: evallab.Dataset) -> None:
    """`white=-10` reaches the binary as the value -10 (not as an option `-1`)."""
    tables = ds.statistic_tables("ratings", event=DEMO_EVENT, bootstrap=0, white=-10, average=-100)
    assert tables["summary"]["white_advantage"].to_list() == [-10.0]
    ratings = tables["ratings"]["rating"]
    assert ratings.len() == 4 and abs(ratings.mean() - -100) < 0.01  # type: ignore[operator]
    pairs = ds.pairs(sprt="-3,1", event=DEMO_EVENT)
    assert pairs.height > 0 and pairs["llr"].is_not_null().all(), pairs.columns


def test_side_tables_are_returned_by_name(ds: evallab.Dataset, tmp_path: Path) -> None:
    tables = ds.statistic_tables("ratings", event=DEMO_EVENT, bootstrap=50)
    assert list(tables) == ["ratings", "summary"]
    cli_frame(tmp_path, "ratings", ds.path, "--event", DEMO_EVENT, "--bootstrap", "50")
    assert_frame_equal(tables["summary"], pl.read_parquet(tmp_path / "ratings.summary.parquet"))


def test_messages_name_the_returned_frames_not_the_deleted_folder(
    ds: evallab.Dataset, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`adjudicate --check-clocks` says where its detail tables are: through
    the API, in the returned frames (the temporary folder it wrote them to is
    gone when the call returns)."""
    tables = ds.statistic_tables("adjudicate", rules="tcec", check_clocks=True)
    err = capsys.readouterr().err
    assert list(tables) == ["adjudicate", "causes", "eras", "exceptions", "rule-ends"]
    assert (
        'details in the frames "causes", "eras", "exceptions", "rule-ends" of ds.statistic_tables("adjudicate", ...)\n'
        in err
    ), err
    assert "evallab-" not in err and "out." not in err, err
    cli_frame(tmp_path, "adjudicate", ds.path, "--rules", "tcec", "--check-clocks")
    for name in ("eras", "exceptions"):
        assert_frame_equal(tables[name], pl.read_parquet(tmp_path / f"adjudicate.{name}.parquet"))
    assert tables["exceptions"].height > 0


def test_match_returns_the_cli_statistics(ds: evallab.Dataset, tmp_path: Path) -> None:
    opts = ["--player", ".", "--mlm-depth", "4", "--slm-depths", "3..5", "--multipv", "3",
            "--moves", "10..14", "--max-games", "2", "--label", "mm", "--output", str(tmp_path / "cli")]  # fmt: skip
    got = ds.match(uci=STOCKFISH, player=".", mlm_depth=4, slm_depths="3..5", multipv=3, moves="10..14",
                   max_games=2, label="mm", quiet=True, output=tmp_path / "api")  # fmt: skip
    assert "mm" in ds.labels and "match" in ds.tables
    # The run is complete: the CLI resumes it with nothing left and reports the same statistics.
    out = tmp_path / "match.parquet"
    r = cli("match", str(ds.path), "--uci", STOCKFISH, *opts, "-q", "--format", "parquet", "--stats", str(out))
    assert r.returncode == 0, r.stderr
    assert got.height > 0
    assert_frame_equal(got, pl.read_parquet(out))


def _children(pid: int) -> set[int]:
    """The child processes of `pid` (Linux's /proc), e.g. analyze's engines."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found |= {int(c) for c in (task / "children").read_text().split()}
        except OSError:
            pass
    return found


def _gone(pid: int, seconds: float = 10.0) -> bool:
    """Whether process `pid` has ended (or is a zombie) within `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[-1].startswith(("Z", "X")):
                return True
        except OSError:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


@pytest.fixture
def popens(monkeypatch: pytest.MonkeyPatch) -> list[subprocess.Popen[str]]:
    """The processes the API starts, as it starts them."""
    started: list[subprocess.Popen[str]] = []

    class Recorded(subprocess.Popen):  # type: ignore[type-arg]
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[call-overload]
            started.append(self)

    monkeypatch.setattr(evallab.api.subprocess, "Popen", Recorded)
    return started


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="SKIPPED: needs Linux's /proc")
def test_an_interrupt_stops_the_binary_and_its_engines(tmp_path: Path, popens: list[subprocess.Popen[str]]) -> None:
    """Jupyter's interrupt is a SIGINT to the kernel alone (the binary does
    not get it): the API stops the binary itself, at once even while it
    prints nothing (quiet=True) and polars (imported) handles SIGINT, and
    with it go its engines and its lock on the dataset."""
    copy = tmp_path / "ds"
    shutil.copytree(SOURCE, copy)
    d = evallab.Dataset(copy)
    engines: set[int] = set()
    sent: list[float] = []

    def interrupt() -> None:
        # Once the analysis runs (its engine started), interrupt the main
        # thread as Jupyter does.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (popens and _children(popens[0].pid)):
            time.sleep(0.05)
        time.sleep(1.0)
        engines.update(_children(popens[0].pid) if popens else ())
        sent.append(time.monotonic())
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)

    timer = threading.Thread(target=interrupt)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            d.analyze(uci=STOCKFISH, depth=99, max_games=1, jobs=1, label="slow", quiet=True)
    finally:
        timer.join()
    assert sent and time.monotonic() - sent[0] < 10, "the interrupt was not taken at once"
    [proc] = popens
    assert proc.returncode == -signal.SIGTERM, proc.returncode  # the API's SIGTERM ended it
    assert _gone(proc.pid, 0)
    assert engines, "no engine had started"
    assert all(_gone(e) for e in engines), f"engines {engines} outlived the binary"
    # The lock is free: the next job on the dataset runs.
    d.analyze(uci=STOCKFISH, depth=1, max_games=1, jobs=1, label="after", quiet=True)
    assert "after" in d.labels


def test_an_error_in_the_relay_stops_the_binary(
    ds: evallab.Dataset, tmp_path: Path, popens: list[subprocess.Popen[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object) -> str:
        raise RuntimeError("the progress bar broke")

    monkeypatch.setattr(evallab.api, "_relay", broken)
    with pytest.raises(RuntimeError, match="progress bar broke"):
        ds.report(output=tmp_path / "report")
    [proc] = popens
    assert proc.returncode == -signal.SIGTERM, proc.returncode
    assert _gone(proc.pid, 0)


def test_tables_and_labels_come_from_the_manifest(ds: evallab.Dataset) -> None:
    m = ds.manifest
    assert ds.labels == [r["label"] for r in m["analyses"]]
    assert ds.tables[:3] == ["games", "moves", "rejects"] and "analysis" in ds.tables
    games = sum(i["games"] for r in m["runs"] for i in r["inputs"])
    assert ds.scan("games").select(pl.len()).collect().item() == games
    with pytest.raises(KeyError, match="no committed files of table 'openings'.*games, moves"):
        ds.scan("openings")


def test_ingest_reports_progress_and_returns_the_dataset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = evallab.Dataset(SOURCE).runs[0]["inputs"]
    first = Path(games[0]["path"])  # relative to the folder CI ingests from: the repository's root
    new = evallab.ingest(first if first.is_absolute() else Path.cwd() / first, tmp_path / "new")
    err = capsys.readouterr().err
    # The progress lines are drawn as a bar, not passed through; the summary is.
    assert '{"progress"' not in err
    assert re.search(r"ingest: +100\.0% \(\d+/\d+ bytes\)|ingest: 100%", err), err
    assert f"ingested 1 file: {games[0]['games']} games" in err
    assert new.scan("games").select(pl.len()).collect().item() == games[0]["games"]


def test_remove_takes_an_input_out(tmp_path: Path) -> None:
    """The dataset without an input is the dataset ingested without it, row
    for row; a dry run and a name that means no input change nothing."""
    demo = sorted((ROOT / "data" / "demo").glob("*.pgn*"))
    both = evallab.ingest(demo, tmp_path / "both", quiet=True)
    alone = evallab.ingest(demo[1], tmp_path / "alone", quiet=True)
    before = both.manifest
    both.remove(demo[0], dry_run=True)
    with pytest.raises(UsageError, match="no input"):
        both.remove("no-such-file.pgn")
    assert both.manifest == before
    sha = next(i["sha256"] for r in before["runs"] for i in r["inputs"] if i["path"] == str(demo[0]))
    assert both.remove(sha[:12]) is both
    assert [i["path"] for r in both.runs for i in r["inputs"]] == [str(demo[1])]
    for table in ("games", "moves", "rejects"):
        got, want = (d.scan(table).collect() for d in (both, alone))
        assert got.height == want.height and (table == "rejects" or got.height > 0)
        key = ["game_id", "ply"] if table == "moves" else ["game_id"]
        assert_frame_equal(got.sort(key), want.sort(key))


def test_report_and_annotate_write_their_files_as_the_cli_does(
    ds: evallab.Dataset, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = ds.report(output=tmp_path / "report", event="^Fixture", trajectories=1)
    err = capsys.readouterr().err
    # The report's steps are drawn as a bar titled `report`, not passed through.
    assert '{"progress"' not in err and re.search(r"report: +100\.0% \(\d+/\d+ steps\)|report: 100%", err), err
    assert page == tmp_path / "report" / "index.html"
    html = page.read_text()
    cli("report", str(ds.path), "-o", str(tmp_path / "cli"), "--event", "^Fixture", "--trajectories", "1")
    assert html == (tmp_path / "cli" / "index.html").read_text()
    assert '<section id="e0" class=event><h2>Fixture' in html
    # The old keyword still works, with a warning.
    with pytest.warns(DeprecationWarning, match=r"report\(games=\) is deprecated: use trajectories="):
        ds.report(output=tmp_path / "old", event="^Fixture TCEC$", games=1)  # type: ignore[call-arg]
    pgn = ds.annotate(output=tmp_path / "a.pgn", event="^Fixture TCEC$", move_scheme="gen12")
    cli("annotate", str(ds.path), "-o", str(tmp_path / "b.pgn"), "--event", "^Fixture TCEC$", "--move-scheme", "gen12")
    assert pgn.read_text() == (tmp_path / "b.pgn").read_text() and '[Event "Fixture TCEC"]' in pgn.read_text()
    with pytest.raises(UsageError, match="--move-scheme"):
        ds.annotate(output=tmp_path / "c.pgn", move_scheme="tcec")


def test_errors_carry_the_exit_kind_and_message(ds: evallab.Dataset, tmp_path: Path) -> None:
    with pytest.raises(UsageError) as e:
        ds.balance(by="nope")
    assert e.value.exit_code == 2 and e.value.exit_kind == "usage" and "nope" in str(e.value)
    with pytest.raises(UsageError, match="--event"):
        ds.balance(event="(")
    # A regex that matches no event is an error too, naming the nearest events.
    with pytest.raises(UsageError, match=r"--event: `Fixture TCCE` matches none of the \d+ events .*`Fixture TCEC`"):
        ds.standings(event="Fixture TCCE")
    with pytest.raises(InputDataError, match="not identified") as e2:
        ds.ratings()  # data/fixtures' engines are not connected to the demo's
    assert e2.value.exit_code == 4 and e2.value.command[1:3] == ["ratings", str(ds.path)]
    broken = tmp_path / "broken"
    shutil.copytree(SOURCE, broken)
    Path(evallab.parts(broken, "moves")[0]).unlink()  # a listed part is gone
    with pytest.raises(DatasetError) as e3:
        evallab.Dataset(broken).balance()
    message = cli("balance", str(broken)).stderr.removeprefix("evallab: error: ").strip()
    assert e3.value.exit_code == 6 and str(e3.value) == message and "part-" in message
    assert issubclass(UsageError, EvallabError)
    with pytest.raises(TypeError, match="output options"):
        ds.statistic("balance", format="csv")


def test_dataset_init_says_what_it_does() -> None:
    doc = pydoc.render_doc(evallab.Dataset.__init__)
    assert "Initialize self" not in doc and "Opens the dataset folder" in doc and "NotADatasetError" in doc


def test_a_folder_that_is_no_dataset_raises_a_dataset_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    for path, missing in ((tmp_path / "nope", "no such folder"), (tmp_path, "no manifest.json"),
                          (tmp_path / "file", "not a folder")):  # fmt: skip
        with pytest.raises(DatasetError) as e:
            evallab.Dataset(path)
        assert str(e.value) == f"{path}: not an evallab dataset ({missing}); create one with evallab.ingest(INPUTS, OUTPUT)"
        assert isinstance(e.value, EvallabError) and e.value.exit_code == 6 and e.value.exit_kind == "dataset"
        # Code written when it was a FileNotFoundError still catches it.
        assert isinstance(e.value, FileNotFoundError) and e.value.errno == errno.ENOENT
        assert e.value.path == str(path) and e.value.command == []  # type: ignore[attr-defined]
    with pytest.raises(FileNotFoundError, match="nope: not an evallab dataset"):
        evallab.manifest(tmp_path / "nope")


def test_usage_errors_read_as_python_not_as_the_cli(ds: evallab.Dataset) -> None:
    """A usage error's message is clap's error and its tips, each option
    named with its keyword; not the usage text, which shows options the API
    sets itself (`--format`, `--output`). The whole stderr stays in `.stderr`."""
    with pytest.raises(UsageError) as e:
        ds.ease(analysis="sf")  # no policy
    assert str(e.value) == "the following required arguments were not provided:\n  --policy <LABEL> (Python: policy=)"
    assert "Usage: evallab ease" in e.value.stderr and "--format <FORMAT>" in e.value.stderr
    with pytest.raises(UsageError) as e:
        ds.balance(by="nope")
    assert str(e.value) == (
        "invalid value 'nope' for '--by <BY>' (Python: by=)\n  [possible values: engine, event,engine, season,engine]"
    )
    with pytest.raises(UsageError) as e:
        ds.statistic("balance", byy="engine")
    assert str(e.value) == (
        "unexpected argument '--byy' found (Python: byy=)\n\n  tip: a similar argument exists: '--by' (Python: by=)"
    )
    # The binary's own usage errors name their options' keywords too.
    with pytest.raises(UsageError) as e:
        ds.balance(event="(")
    assert str(e.value).startswith("--event: ") and str(e.value).endswith(" (Python: event=)"), str(e.value)


def test_a_long_jobs_usage_error_is_shown_once(ds: evallab.Dataset, capsys: pytest.CaptureFixture[str]) -> None:
    """A long job shows the binary's lines as they come, but not clap's usage
    error: that is the exception's message (and its usage text is nobody's)."""
    with pytest.raises(UsageError) as e:
        ds.analyze(uci=STOCKFISH, depth=3, nodes=5, label="never")
    assert str(e.value) == (
        "the argument '--depth <DEPTH>' cannot be used with '--nodes <NODES>' (Python: depth=, nodes=)"
    )
    assert capsys.readouterr().err == ""
    with pytest.raises(UsageError) as e:
        evallab.ingest(ROOT / "data/demo", ds.path.parent / "never", batch_mib=-1)
    assert str(e.value).startswith("invalid value '-1' for '--batch-mib <BATCH_MIB>'"), str(e.value)
    assert str(e.value).endswith("(Python: batch_mib=)") and capsys.readouterr().err == ""


def test_openings_classifies_every_game_and_feeds_opening_stats(ds: evallab.Dataset, tmp_path: Path) -> None:
    table = ROOT.parent / "shared" / "openings"
    if not table.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"CI needs the opening table at {table}")
        pytest.skip(f"SKIPPED: no opening table at {table}")
    got = ds.openings(table=table)
    games = ds.scan("games").select("game_id").collect()
    assert sorted(got["game_id"]) == sorted(games["game_id"])
    # Every game has a name or the reason it has none, never both.
    assert (got["opening"].is_null() == got["unclassified"].is_not_null()).all()
    assert got["opening"].is_not_null().sum() > 0
    by_position = ds.opening_stats(source="classified")
    assert_frame_equal(by_position, cli_frame(tmp_path, "opening-stats", ds.path, "--source", "classified"))
    assert by_position["games"].sum() <= games.height


def cli_options(command: str) -> set[str]:
    """Every option of `evallab COMMAND`, as keyword names: the binary's own
    list (`evallab __commands`), not what `--help` shows."""
    return {a["name"] for a in commands()[command]["args"] if not a["positional"]}


# The output options, which the API sets itself (`output` is a keyword where
# it is a file for people: the tests below).
SET_BY_API = {"format", "output", "explain", "stats"}
# The options of a command its function does not take, and why: nothing else
# may be left out (a list for every command hid ingest's `--plan` from all).
NOT_KEYWORDS = {
    "ingest": {
        "plan": "prints the inputs and writes nothing (a distributed ingest's first step): "
        "evallab.api.run(['ingest', '--plan', *inputs]) returns its JSON lines, as evallab.cluster reads them",
    },
}


def keywords_of(command: str, *, output: bool = False) -> set[str]:
    """The keywords of the function of `command`: its options but the output
    ones (`output=`, when it is a file for people) and its NOT_KEYWORDS."""
    set_by_api = SET_BY_API - {"output"} if output else SET_BY_API
    return cli_options(command) - set_by_api - set(NOT_KEYWORDS.get(command, {}))


def test_options_left_out_are_options_of_their_commands() -> None:
    for command, why in NOT_KEYWORDS.items():
        assert set(why) <= cli_options(command), f"{command}: {set(why) - cli_options(command)} are no options of it"
    assert SET_BY_API <= set().union(*(cli_options(c) for c in commands()))
METHODS = ["inspect", "balance", "calibrate", "wdl", "relevance", "eas", "ease", "difficulty", "agreement", "adjudicate",
           "ratings", "standings", "crosstable", "pairs", "opening_stats", "openings", "engine_stats", "analyze", "policy",
           "match", "report", "annotate", "remove"]  # fmt: skip


# The commands without a `Dataset` method, and why: a new command must be
# one or the other (the test below), so that the API cannot fall behind.
NOT_METHODS = {
    "ingest": "evallab.ingest(), a module function (it makes the dataset)",
    "commit": "evallab.cluster (the shards of a distributed ingest)",
    "facts": "evallab.cluster (the map step of a distributed balance, calibrate, eas)",
    "schema": "printed schemas: scan(table).collect_schema()",
    "calc": "a calculator of single values, no dataset",
    "run": "a pipeline spec: evallab.api.run(['run', SPEC])",
}


def test_every_command_has_a_method_or_a_reason() -> None:
    names = {c.replace("-", "_") for c in commands()}
    assert names == set(METHODS) | set(NOT_METHODS), (names ^ (set(METHODS) | set(NOT_METHODS)))
    assert not set(METHODS) & set(NOT_METHODS)


@pytest.mark.parametrize("method", METHODS)
def test_methods_take_the_commands_options(method: str) -> None:
    # A command's positionals but the dataset are the method's first parameters.
    positional = {a["name"] for a in commands()[method.replace("_", "-")]["args"] if a["positional"]} - {"dataset"}
    params = set(inspect.signature(getattr(evallab.Dataset, method)).parameters) - {"self"}
    assert positional <= params, f"{method}: {positional - params}"
    params -= positional
    # `match -o DIR` is the run's folder, not the statistics (`--stats`);
    # `report` and `annotate` write no table, only their `-o` file.
    assert params == keywords_of(method.replace("_", "-"), output=method in ("match", "report", "annotate"))


def test_renamed_keywords_are_the_commands_renamed_options() -> None:
    """The API's old keywords are the binary's renamed options, each read as
    the new one (a percentage as a fraction)."""
    import evallab.api

    renamed = {
        c: {old: (r["name"], r["percent"]) for old, r in desc["renamed"].items()}
        for c, desc in commands().items()
        if desc["renamed"] and c.replace("-", "_") in METHODS
    }
    assert evallab.api._RENAMED == renamed


def test_old_keywords_still_work_with_a_warning(ds: evallab.Dataset) -> None:
    with pytest.warns(DeprecationWarning) as warned:
        old = ds.ratings(event=DEMO_EVENT, simulations=20, confidence=90)
    # One warning per old keyword, each naming its new one.
    assert sorted(str(w.message) for w in warned if w.category is DeprecationWarning) == [
        "ratings(confidence=) is deprecated: use level=",
        "ratings(simulations=) is deprecated: use bootstrap=",
    ]
    assert_frame_equal(old, ds.ratings(event=DEMO_EVENT, bootstrap=20, level=0.9))


def test_calls_close_the_binarys_pipes(ds: evallab.Dataset) -> None:
    """A call leaves no pipe of its process open (an unclosed stderr pipe
    was a ResourceWarning at the next garbage collection)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ds.standings(event=DEMO_EVENT)
        with pytest.raises(UsageError):
            ds.standings(event="(")
        gc.collect()
    assert [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)] == []


def commands() -> dict[str, dict]:
    """The binary's own description of every command (`evallab __commands`)."""
    return {c["name"]: c for c in json.loads(cli("__commands").stdout)}


# A Python annotation for each kind of option (`evallab __commands`' "kind").
KIND_TYPES = {"flag": "bool", "int": "int", "float": "float", "str": "str", "choice": "str", "path": "PathLike",
              "pawns-or-path": "float", "name-or-path": "str"}  # fmt: skip


@pytest.mark.parametrize("method", METHODS)
def test_methods_type_and_require_as_the_command_does(method: str) -> None:
    """The drift test: every option's required-ness and type in the method's
    signature are the flag's (a required flag has no default; an integer flag
    is `int`, a repeated one a `Sequence`, a flag `bool`)."""
    params = inspect.signature(getattr(evallab.Dataset, method)).parameters
    for a in commands()[method.replace("_", "-")]["args"]:
        if a["positional"] or a["name"] not in params:
            continue
        p = params[a["name"]]
        where = f"{method}({a['name']}=...)"
        assert (p.default is inspect.Parameter.empty) == a["required"], f"{where}: required is {a['required']}"
        ann = str(p.annotation)
        if a["repeated"]:
            assert ann.startswith("Sequence["), f"{where}: {ann} for a repeated option"
            continue
        want = KIND_TYPES[a["kind"]]
        first = ann.split("|")[0].strip()
        assert first == want or (a["kind"] == "choice" and first == "str"), f"{where}: {ann}, the flag is {a['kind']}"


def test_match_without_a_player_fails_as_the_cli_does(ds: evallab.Dataset) -> None:
    with pytest.raises(TypeError, match="player"):
        ds.match(uci=STOCKFISH)  # type: ignore[call-arg]
    assert cli("match", str(ds.path), "--uci", STOCKFISH, "-o", "/tmp/x").returncode == 2


def test_ingest_takes_the_commands_options() -> None:
    params = set(inspect.signature(evallab.ingest).parameters) - {"inputs"}
    assert params == keywords_of("ingest", output=True)


def test_docstring_examples() -> None:
    """The examples that need no dataset (the others are marked SKIP)."""
    import evallab.api
    import evallab.errors
    import evallab.order

    for module in (evallab.api, evallab.errors, evallab.order):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, module.__name__


# The docstrings whose examples need a dataset (marked SKIP above): run on
# the demo's games by the test below, or not, with why. A new one must be in
# one of the two lists, so that no example goes unchecked unnoticed.
DEMO_EXAMPLES = {
    "evallab.api", "evallab.api.Dataset.scan", "evallab.api.Dataset.statistic_tables",
    "evallab.api.Dataset.statistic", "evallab.api.Dataset.balance", "evallab.api.Dataset.calibrate",
    "evallab.api.Dataset.ratings", "evallab.api.Dataset.inspect",
}  # fmt: skip
NOT_RUN = {
    "evallab.api.Dataset": "the demo pipeline's dataset: its engine runs (sf-1k, sf-match) are the pipeline's",
    "evallab.api.Dataset.analyze": "a long job: what it shows is on stderr, with timings",
    "evallab.api.ingest": "a long job: what it shows is on stderr, with timings",
    "evallab.api.Dataset.report": "writes a report (test_report_and_annotate_write_their_files_as_the_cli_does)",
    "evallab.api.Dataset.annotate": "writes a PGN (test_report_and_annotate_write_their_files_as_the_cli_does)",
    "evallab.api.Dataset.wdl": "shows no output (a bootstrap of seconds)",
    "evallab.api.Dataset.remove": "changes the dataset the other examples read (test_remove_takes_an_input_out)",
}


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder as the examples expect it: `data/` (the repository's) and
    `demo-dataset`, the games of data/demo."""
    folder = tmp_path_factory.mktemp("examples")
    (folder / "data").symlink_to(ROOT / "data")
    evallab.ingest(ROOT / "data" / "demo", folder / "demo-dataset", quiet=True)
    return folder


def run_examples(tests: list[doctest.DocTest]) -> None:
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        for example in test.examples:
            example.options.pop(doctest.SKIP, None)
        test.globs.update(evallab=evallab, pl=pl, ds=evallab.Dataset("demo-dataset"))
        runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
    assert sum(len(t.examples) for t in tests) == runner.tries


def test_docstring_examples_run_on_the_demo(demo_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The API's examples that need a dataset, on the demo's games: each shows
    what the call returns there."""
    monkeypatch.chdir(demo_folder)
    found = {t.name: t for t in doctest.DocTestFinder().find(evallab.api) if t.examples}
    need_data = {name for name, t in found.items() if any(e.options.get(doctest.SKIP) for e in t.examples)}
    assert need_data == DEMO_EXAMPLES | set(NOT_RUN), need_data ^ (DEMO_EXAMPLES | set(NOT_RUN))
    run_examples([found[name] for name in sorted(DEMO_EXAMPLES)])


def test_the_guides_examples_run_on_the_demo(demo_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/guide/python.md's `>>>` examples (its `text` blocks), on the demo's games."""
    monkeypatch.chdir(demo_folder)
    guide = ROOT / "docs/guide/python.md"
    text = guide.read_text()
    parser = doctest.DocTestParser()
    tests = []
    for m in re.finditer(r"^```text\n(>>> .*?)^```", text, re.M | re.S):
        line = text.count("\n", 0, m.start(1))
        tests.append(parser.get_doctest(m.group(1), {}, f"docs/guide/python.md:{line + 1}", str(guide), line))
    assert len(tests) == 2 and any("ratings()" in e.source for t in tests for e in t.examples)
    run_examples(tests)


@pytest.fixture(scope="module")
def puzzles(lc0_maia: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> evallab.Dataset:
    """The fixture's 40 Lichess puzzles with a short analysis and Maia's priors."""
    lc0, weights = lc0_maia
    d = evallab.ingest(ROOT / "data/fixtures/lichess_puzzles.csv", tmp_path_factory.mktemp("puzzles") / "ds", quiet=True)
    d.analyze(uci=STOCKFISH, nodes=2000, multipv=5, all_depths=True, plies="1..40", jobs=2, label="sf", quiet=True)
    d.policy(uci=lc0, weights=weights, plies="1..40", label="maia", quiet=True)
    return d


@pytest.mark.parametrize(
    ("kwargs", "args"),
    [
        ({"bootstrap": 50}, ["--bootstrap", "50"]),
        ({"puzzles": True}, ["--puzzles"]),
        ({"models": True, "folds": 3, "inner_folds": 2}, ["--models", "--folds", "3", "--inner-folds", "2"]),
        ({"models": True, "breakdown": "band", "folds": 3}, ["--models", "--breakdown", "band", "--folds", "3"]),
    ],
)
def test_difficulty_returns_the_cli_frame(puzzles: evallab.Dataset, tmp_path: Path, kwargs: dict, args: list) -> None:
    got = puzzles.difficulty(analysis="sf", policy="maia", **kwargs)
    want = cli_frame(tmp_path, "difficulty", puzzles.path, "--analysis", "sf", "--policy", "maia", *args)
    assert got.height > 0
    assert_frame_equal(got, want)

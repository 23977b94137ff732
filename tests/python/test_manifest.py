"""`evallab.manifest` against the manifest's JSON schema.

docs/reference/manifest.schema.json is what `evallab schema --manifest-json`
prints; a Rust test in src/cli/schema.rs checks its keys against the types that
write manifest.json. Here: manifests the binary writes validate against it (an ingest;
an ingest shard and an engine-run shard committed, when Stockfish is there),
and every key `evallab.manifest` reads is one the schema declares.

Run with EVALLAB_DATASET pointing at a dataset written by `evallab ingest`;
the binary is the wheel's, or $EVALLAB_BIN: evallab.api.binary().
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

from evallab.manifest import engine_run, engine_runs, files, inputs, manifest, parts, run_files  # noqa: E402
from evallab.api import binary as evallab_bin  # noqa: E402
from evallab.errors import DatasetError  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "docs" / "reference" / "manifest.schema.json"
DATASET = Path(os.environ.get("EVALLAB_DATASET", "target/ci-dataset"))
STOCKFISH = Path("/usr/games/stockfish")


@pytest.fixture(scope="module")
def validator():
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def properties(schema, *path):
    """The property names the schema declares at `path` (`[]` steps into an array's items)."""
    node = schema

    def resolve(n):
        while "$ref" in n:
            n = schema["$defs"][n["$ref"].rsplit("/", 1)[1]]
        return n

    for step in path:
        node = resolve(node)
        node = node["items"] if step == "[]" else node["properties"][step]
    return set(resolve(node).get("properties", {}))


def test_ingested_manifest_validates(validator):
    if not (DATASET / "manifest.json").exists():
        pytest.fail(f"no dataset at {DATASET}; set EVALLAB_DATASET")
    m = manifest(DATASET)
    validator.validate(m)
    assert inputs(m) and all(Path(p).is_file() for p in parts(DATASET, "games"))


def test_the_keys_the_module_reads_are_in_the_schema():
    """`files`, `run_files`, `inputs`, `engine_runs`, `engine_run`: the keys they read."""
    schema = json.loads(SCHEMA.read_text())
    assert {"runs", "analyses", "sums"} <= properties(schema)
    assert schema["properties"]["sums"]["additionalProperties"] == {"$ref": "#/$defs/PartSum"}
    assert "bytes" in schema["$defs"]["PartSum"]["properties"]
    assert {"part", "files", "inputs"} <= properties(schema, "runs", "[]")
    assert {"games", "plies", "sha256", "path"} <= properties(schema, "runs", "[]", "inputs", "[]")
    assert {"label", "stage", "chunks"} <= properties(schema, "analyses", "[]")
    assert {"files", "part"} <= properties(schema, "analyses", "[]", "chunks", "[]")


def test_legacy_engine_runs_are_not_what_evallab_writes(validator):
    """Manifests from before the `stage`/`settings` layout still read (here and in
    evallab), but the schema describes what evallab writes now."""
    legacy = json.loads((REPO / "src/dataset/testdata/manifest-before-engine-runs.json").read_text())
    assert not validator.is_valid(legacy)
    assert files(legacy, "games") == ["games/part-000001.parquet"]
    assert engine_run(legacy, engine_runs(legacy)[0]["label"])["chunks"]
    with pytest.raises(KeyError, match="no engine run"):
        engine_run(legacy, "nope")


def test_runs_without_files_read_as_one_part_per_base_table():
    assert run_files({"part": 7}) == {t: f"{t}/part-000007.parquet" for t in ("games", "moves", "rejects")}


def test_sharded_ingest_and_engine_run_manifests_validate(validator, tmp_path):
    """An ingest shard and an `analyze` shard, committed: runs and chunks with
    their `shard` records, an engine run with its settings."""
    binary = evallab_bin()
    if not Path(binary).is_file():
        pytest.fail(f"no evallab binary at {binary}; set EVALLAB_BIN or CARGO_TARGET_DIR")
    if not STOCKFISH.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"CI needs {STOCKFISH}")
        pytest.skip(f"SKIPPED: no {STOCKFISH}")
    ds = tmp_path / "ds"

    def run(*args):
        subprocess.run([binary, *map(str, args)], cwd=REPO, check=True, capture_output=True)

    run("ingest", "data/fixtures/cutechess.pgn", "-o", ds, "--shard", "i1", "--quiet")
    run("commit", ds)
    run("analyze", ds, "--uci", STOCKFISH, "--nodes", 200, "--max-games", 1, "--plies", "1..4",
        "--label", "sf", "--slice", "1/1", "--shard", "a1", "--quiet")
    run("commit", ds)
    m = manifest(ds)
    validator.validate(m)
    assert m["runs"][0]["shard"]["name"] == "i1"
    sf = engine_run(m, "sf")
    assert sf["stage"] == "analyze" and sf["chunks"][0]["shard"]["name"] == "a1"
    assert parts(ds, "analysis") == [str(ds / f) for f in files(m, "analysis")]
    shutil.rmtree(ds)


def test_a_part_cut_after_its_commit_is_named(tmp_path):
    """`parts` checks each part's size against the manifest's record, as
    evallab does: a cut part is a DatasetError naming it."""
    binary = evallab_bin()
    if not Path(binary).is_file():
        pytest.fail(f"no evallab binary at {binary}; set EVALLAB_BIN or CARGO_TARGET_DIR")
    ds = tmp_path / "ds"
    subprocess.run([binary, "ingest", "data/fixtures/tcec.pgn", "-o", str(ds), "--quiet"], cwd=REPO, check=True)
    moves = parts(ds, "moves")
    assert len(moves) == 1
    data = Path(moves[0]).read_bytes()
    Path(moves[0]).write_bytes(data[:-10])
    with pytest.raises(DatasetError, match=rf"moves/part-000001.parquet \({len(data) - 10} bytes, committed with {len(data)}\)"):
        parts(ds, "moves")
    assert len(parts(ds, "games")) == 1


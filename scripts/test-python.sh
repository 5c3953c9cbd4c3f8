#!/usr/bin/env bash
# Build the Python package into a cached virtual environment and run its tests.
#
#   scripts/test-python.sh [PYTEST ARGS...]
#
# The environment lives in $CARGO_TARGET_DIR/py-venv (default target/py-venv).
# The first run creates it and installs the build and test dependencies from
# PyPI (pyproject.toml's ranges); later runs only rebuild the extension
# (cargo's incremental cache) and reinstall it, without touching the network.
# Set PYTHON to choose the interpreter (default python3, >= 3.9).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
venv="$target/py-venv"
py="${PYTHON:-python3}"

if [[ ! -x "$venv/bin/python" ]]; then
    echo "creating $venv"
    "$py" -m venv "$venv"
fi
vpy="$venv/bin/python"
# the build backend runs the `maturin` binary of the environment
export VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH"
stamp="$venv/.deps-installed"
if [[ ! -f "$stamp" || python/pyproject.toml -nt "$stamp" ]]; then
    # build backend (used without build isolation below, so no network on reruns)
    # and the test extras
    "$vpy" -m pip install -q "maturin>=1.5,<2" "tqdm>=4,<5"
    "$vpy" -m pip install -q "./python[test]" --no-build-isolation
    touch "$stamp"
else
    "$vpy" -m pip install -q --no-deps --no-build-isolation --force-reinstall ./python
fi

# the command-line binary the tests compare with
if [[ -z "${FRICTION_CLI:-}" ]]; then
    cargo build -q -p friction-cli
fi

"$vpy" -m pytest python/tests -q "$@"

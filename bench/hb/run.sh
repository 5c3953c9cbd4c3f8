#!/usr/bin/env bash
# Issue 28 benchmark: `friction frf` against pyharm-os on the same SDOF Jenkins
# FRF, and `friction frf` on a 10-body chain with 5 Jenkins joints.
# Makes (or reuses) a virtual environment under target/bench-hb-venv with the
# pinned pyharm-os and numpy of requirements.txt, then runs frf_vs_pyharm.py.
# The friction executable: $FRICTION, else `friction` on PATH, else
# target/release/friction (build it with `cargo build --release -p friction-cli`
# or `cargo install --path crates/friction-cli`). Extra arguments go to the script
# (e.g. --runs 5).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="$root/target/bench-hb-venv"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
# (in $venv: importing pyHarm writes ./.pyHarm/context.json)
if ! (cd "$venv" && bin/python -c "import pyHarm, numpy" 2>/dev/null); then
    "$venv/bin/pip" install -q -r "$here/requirements.txt"
fi
exe="${FRICTION:-}"
if [ -z "$exe" ]; then
    if command -v friction >/dev/null; then exe="$(command -v friction)"; else exe="$root/target/release/friction"; fi
fi
if [ ! -x "$exe" ]; then
    echo "run.sh: no friction executable at '$exe' (set FRICTION=/path/to/friction)" >&2
    exit 2
fi
echo "uptime: $(uptime)"
exec "$venv/bin/python" "$here/frf_vs_pyharm.py" --friction "$exe" "$@"

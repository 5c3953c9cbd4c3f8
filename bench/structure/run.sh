#!/usr/bin/env bash
# Issue 44 benchmark: a 1,000-DOF bar (1,000 linear elements, consistent
# mass, Rayleigh damping) with 50 Jenkins dampers, written by
# make_model.py under $CARGO_TARGET_DIR/bench-structure (default
# target/bench-structure; not committed), through `friction frf` (H = 3,
# 256 samples, 150-500 Hz), `friction nnm` (30 amplitudes, H = 3 and 1), `friction run`
# (1 s) and pyharm-os's frf of the same matrices, alternating in one run.
# The venv target/bench-hb-venv (bench/hb/requirements.txt's pinned
# pyharm-os) is made when missing. The friction executable: $FRICTION, else
# target/release/friction (`cargo build --release -p friction-cli`).
# Extra arguments go to bench.py (--rounds N, --timeout S, --no-pyharm), for both models.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
venv="${BENCH_VENV:-$target/bench-hb-venv}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
if ! (cd "$venv" && bin/python -c "import pyHarm, numpy, scipy" 2>/dev/null); then
    "$venv/bin/pip" install -q -r "$root/bench/hb/requirements.txt"
fi
exe="${FRICTION:-$target/release/friction}"
if [ ! -x "$exe" ]; then
    echo "run.sh: no friction executable at '$exe' (set FRICTION=/path/to/friction)" >&2
    exit 2
fi
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, uptime: $(uptime)"
# issue 44's model, and a fifth of it (200 DOFs, 10 dampers) that pyharm-os finishes
for size in "1000 50" "200 10"; do
    ne="${size% *}"; nj="${size#* }"
    model="$target/bench-structure/e$ne"
    python3 "$here/make_model.py" "$model" --elements "$ne" --joints "$nj"
    "$venv/bin/python" "$here/bench.py" --friction "$exe" --model "$model" "$@"
done

#!/usr/bin/env bash
# The comparison suite in one run: builds the Rust side (release) and the
# Python package, runs both sides one after the other, and prints the
# markdown ratio table (bench/compare/README.md).
#
#   bench/compare/run.sh [--rounds 3] [--alternate 1] [--quick] [--sizes 16,64,256,1024] [--budget 60]
#
# --alternate K: run the engine side and the peers' side K times in turn
# (engine, peers, engine, peers, ...) and report the medians over the K
# passes: a shared machine's speed swings between runs, and alternating
# exposes both sides to the same swings.
#
# The compiled peers (compiled.py: numba, numbalsoda, scikit-sundae) are
# installed from PyPI into the same environment; one that cannot be installed
# is reported in the table as "not installed", never left out silently.
#
# Python: the test environment $CARGO_TARGET_DIR/py-venv (scripts/test-python.sh)
# if it has SciPy, else $CARGO_TARGET_DIR/bench-venv, created here with NumPy,
# SciPy and maturin from PyPI. The friction package is (re)installed into it.
# The JSON of both sides is kept in $CARGO_TARGET_DIR/bench-compare/.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
target="$CARGO_TARGET_DIR"

rounds=3
alternate=1
args=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --alternate) alternate="$2"; shift 2 ;;
        --quick) args+=(--quick); shift ;;
        --sizes|--budget) args+=("$1" "$2"); shift 2 ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done

venv="$target/py-venv"
if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c "import scipy, numpy" 2>/dev/null; then
    venv="$target/bench-venv"
    if [[ ! -x "$venv/bin/python" ]]; then
        echo "creating $venv" >&2
        "${PYTHON:-python3}" -m venv "$venv"
    fi
    if ! "$venv/bin/python" -c "import scipy, numpy, maturin" 2>/dev/null; then
        "$venv/bin/python" -m pip install -q numpy scipy "maturin>=1.5,<2"
    fi
fi
vpy="$venv/bin/python"
# the compiled peers (numbalsoda has no wheel: pip builds it, about 2 min)
if ! "$vpy" -c "import numba, numbalsoda, sksundae" 2>/dev/null; then
    "$vpy" -m pip install -q numba numbalsoda scikit-sundae \
        || echo "warning: could not install every compiled peer; the table says which is missing" >&2
fi

echo "building (release)" >&2
cargo build -q --release --manifest-path bench/compare/Cargo.toml
VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" \
    "$vpy" -m pip install -q --no-deps --no-build-isolation --force-reinstall ./python

out="$target/bench-compare"
mkdir -p "$out"
rust=() peers=()
for ((pass = 1; pass <= alternate; pass++)); do
    echo "pass $pass of $alternate: the engine and Radau5 ($rounds rounds)" >&2
    "$target/release/friction-bench" --rounds "$rounds" "${args[@]}" > "$out/rust.$pass.json"
    echo "pass $pass of $alternate: SciPy, NumPy and the compiled peers ($rounds rounds)" >&2
    "$vpy" bench/compare/peers.py --rounds "$rounds" "${args[@]}" > "$out/peers.$pass.json"
    rust+=("$out/rust.$pass.json") peers+=("$out/peers.$pass.json")
done

echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -m), $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $("$vpy" -c 'import numpy, scipy, sys; print(f"Python {sys.version.split()[0]}, NumPy {numpy.__version__}, SciPy {scipy.__version__}")')$("$vpy" -c 'import importlib.metadata as m
for p in ("numba", "numbalsoda", "scikit-sundae"):
    try:
        print(f", {p} {m.version(p)}", end="")
    except m.PackageNotFoundError:
        print(f", {p} not installed", end="")')"
echo
"$vpy" bench/compare/report.py "$(IFS=,; echo "${rust[*]}")" "$(IFS=,; echo "${peers[*]}")"

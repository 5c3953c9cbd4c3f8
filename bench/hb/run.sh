#!/usr/bin/env bash
# Issue 28 benchmark: `friction frf` against pyharm-os on the same SDOF Jenkins
# FRF, and `friction frf` on a 10-body chain with 5 Jenkins joints; then issue
# 45's: against pyharm-os on an oscillator against a unilateral penalty stop.
# Makes (or reuses) a virtual environment under target/bench-hb-venv with the
# pinned pyharm-os and numpy of requirements.txt, then runs frf_vs_pyharm.py
# and frf_gap_vs_pyharm.py (`--only jenkins` or `--only gap`, first: one of them).
# The friction executable: $FRICTION, else `friction` on PATH, else
# target/release/friction (build it with `cargo build --release -p friction-cli`
# or `cargo install --path crates/friction-cli`). Extra arguments go to the scripts
# (e.g. --runs 5, --harmonics H: both; --no-chain, --ds-max DS: frf_vs_pyharm.py
# only; --gap-ds-max DS: frf_gap_vs_pyharm.py only).
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
only=""
if [ "${1:-}" = "--only" ]; then
    only="${2:-}"
    case "$only" in jenkins|gap) ;; *) echo "run.sh: --only jenkins|gap" >&2; exit 2 ;; esac
    shift 2
fi
jenkins_args=() gap_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --no-chain|--ds-max=*) jenkins_args+=("$1"); shift ;;
        --gap-ds-max=*) gap_args+=("$1"); shift ;;
        --ds-max) jenkins_args+=("$1" "$2"); shift 2 ;;
        --gap-ds-max) gap_args+=("$1" "$2"); shift 2 ;;
        *) jenkins_args+=("$1"); gap_args+=("$1"); shift ;;
    esac
done
echo "uptime: $(uptime)"
if [ "$only" != gap ]; then
    "$venv/bin/python" "$here/frf_vs_pyharm.py" --friction "$exe" "${jenkins_args[@]}"
fi
if [ "$only" != jenkins ]; then
    [ -n "$only" ] || echo
    "$venv/bin/python" "$here/frf_gap_vs_pyharm.py" --friction "$exe" "${gap_args[@]}"
fi

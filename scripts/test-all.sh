#!/usr/bin/env bash
# The one test command (README "Two commands"; .ci/run calls it after fmt,
# clippy and cargo doc): every Rust test, including the C and Fortran examples
# of friction-capi (gfortran is installed with apt-get when missing), then the
# Python package's tests in a virtual environment cached under target/.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace
if [ -x scripts/test-python.sh ]; then
    scripts/test-python.sh
fi

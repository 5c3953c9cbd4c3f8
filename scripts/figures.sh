#!/usr/bin/env bash
# Makes every image in docs/ again, each from the command the README shows
# beside it (or, for the two that need more than the CLI, from the test
# that makes it). Each recipe below is the image, the command and the file
# the command writes.
#
#   scripts/figures.sh              every recipe at the README's size, in this
#                                   checkout (outputs under out/), then the
#                                   images copied into docs/. `friction` on
#                                   PATH, else a release build by cargo. The
#                                   Python map and the explorer's screenshot
#                                   need the test environment of
#                                   scripts/test-python.sh (target/py-venv,
#                                   chromium): run that first.
#   scripts/figures.sh --quick DIR  the CLI's recipes at a small size (fewer
#                                   models and amplitudes) into DIR,
#                                   docs/ untouched; fails naming any image not
#                                   made or any image of docs/ without a
#                                   recipe. crates/friction-cli/tests/figures.rs
#                                   runs it. The Python map and the screenshot
#                                   are made by their tests there
#                                   (python/tests/test_examples.py runs
#                                   stick_slip_map.py at a small size,
#                                   python/tests/test_serve_browser.py takes
#                                   the screenshot).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
quick=""
if [[ "${1:-}" == "--quick" ]]; then
    quick="${2:?usage: scripts/figures.sh --quick DIR}"
    mkdir -p "$quick"
    quick="$(cd "$quick" && pwd)"
elif [[ $# -gt 0 ]]; then
    echo "usage: scripts/figures.sh [--quick DIR]" >&2
    exit 2
fi

if command -v friction >/dev/null 2>&1; then
    F=friction
else
    (cd "$root" && cargo build --release -q -p friction-cli)
    F="${CARGO_TARGET_DIR:-$root/target}/release/friction"
fi

# where the commands run and write out/
if [[ -n "$quick" ]]; then
    work="$quick/work"
    rm -rf "$work"
    mkdir -p "$work"
    cp -r "$root/examples" "$work/"
else
    work="$root"
fi
cd "$work"

# image | command (at the README's size) | command in quick mode (empty: the same) | file written
recipes=(
    "lugre_stick_slip.png|$F run||out/lugre_stick_slip/plot.png"
    "analyze_loops.png|$F run examples/iwan_loops.toml && $F analyze out/iwan_loops/timeseries.csv --kind loops||out/iwan_loops/timeseries_analysis/loops.png"
    "analyze_stribeck.png|$F run examples/lugre_sweep.toml && $F analyze out/lugre_sweep/timeseries.csv --kind stribeck --v-min 3e-4 --bins 20||out/lugre_sweep/timeseries_analysis/stribeck.png"
    "analyze_transient.png|$F run examples/jointed_decay.toml && $F analyze out/jointed_decay/timeseries.csv --kind transient||out/jointed_decay/timeseries_analysis/transient.png"
    "compare_stiction.png|$F compare --out out/compare|$F compare --models coulomb,lugre,dahl --no-clutch --out out/compare|out/compare/plots/stiction.png"
    "fit_example.png|$F fit --model lugre --data examples/data/lugre_loops.csv --fix sigma1,sigma2,exponent --validate-from 0.25 --out out/fit||out/fit/fit.png"
    "tune_iwan4_dissipation.png|$F tune --model iwan4 --param fs --params kt=1e8 --target-model coulomb --target-params fc=1 --amplitude 1e-7 --frequency 331 --out out/tune||out/tune/tune.png"
    "frf_jointed.png|$F frf examples/jointed_frf.toml --force shaker --f-min 150 --f-max 320 --out out/frf||out/frf/frf.png"
    "nnm_jointed.png|$F nnm examples/jointed_frf.toml --amplitudes 1e-8:1e-2:31 --out out/nnm|$F nnm examples/jointed_frf.toml --amplitudes 1e-8:1e-2:5 --out out/nnm|out/nnm/backbone.png"
    "sandia_frf_levels.png|sh examples/sandia_joints.sh $F||out/sandia/frf/frf.png"
    "sandia_backbones.png|||out/sandia/nnm/backbone.png"
)
# made by the Python test environment (not in quick mode)
python_made=("python_stick_slip_map.png" "serve.png")

# every image of docs/ has a recipe
known=" ${python_made[*]} "
for r in "${recipes[@]}"; do known+="${r%%|*} "; done
missing=0
for f in "$root"/docs/*.png; do
    b="$(basename "$f")"
    if [[ "$known" != *" $b "* ]]; then
        echo "docs/$b has no recipe in scripts/figures.sh" >&2
        missing=1
    fi
done

for r in "${recipes[@]}"; do
    IFS='|' read -r image full small file <<<"$r"
    cmd="$full"
    if [[ -n "$quick" && -n "$small" ]]; then cmd="$small"; fi
    if [[ -n "$cmd" ]]; then
        echo "+ $cmd"
        bash -c "$cmd" >/dev/null
    fi
    if [[ ! -s "$file" ]]; then
        echo "$image: $file was not written" >&2
        missing=1
        continue
    fi
    if [[ -n "$quick" ]]; then
        cp "$file" "$quick/$image"
    else
        cp "$file" "$root/docs/$image"
    fi
done

if [[ -z "$quick" ]]; then
    target="${CARGO_TARGET_DIR:-$root/target}"
    vpy="$target/py-venv/bin/python"
    if [[ ! -x "$vpy" ]]; then
        echo "python_stick_slip_map.png and serve.png need $vpy: run scripts/test-python.sh first" >&2
        exit 1
    fi
    "$vpy" "$root/examples/python/stick_slip_map.py" --out "$root/docs/python_stick_slip_map.png"
    (cd "$root" && "$vpy" -m pytest -q python/tests/test_serve_browser.py)
    cp "$target/serve-screenshot.png" "$root/docs/serve.png"
else
    echo "not made in quick mode: ${python_made[*]} (python/tests make them)"
fi
exit "$missing"

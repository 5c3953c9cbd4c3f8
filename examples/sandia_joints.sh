#!/bin/sh
# The Sandia friction-model study's result, retold in the frequency domain:
# a bolted joint softens and damps a structure's resonance as the load
# grows, and joint models that dissipate alike at one amplitude part at the
# others (the study's Figures 8 and 9: frequency and damping against load,
# differently for each model).
#
# 1. The frequency response of examples/jointed_frf.toml (an Iwan joint,
#    FS = 1 N, KT = 1e5 N/m, χ = -0.5, β = 0.1) at four force levels:
#    the resonance falls from 245 Hz (0.05 N) to 189 Hz (2 N, gross slip).
# 2. Five joint models tuned by `friction tune` to dissipate per cycle what
#    that Iwan joint dissipates under a slip of 20 µm at 200 Hz
#    (1.718e-5 J), each keeping the Iwan joint's stiffness of 1e5 N/m:
#      jenkins   fs   = 0.2447
#      dahl      fc   = 0.2447
#      bouc_wen  beta = 1.905e5  (gamma = 2e5, n = 1: sliding force 0.256 N)
#      lugre     fc   = 0.2449   (fs = 0.3, no viscous terms)
# 3. The backbones (frequency and damping ratio against amplitude) of the
#    first mode with each joint model, by `friction nnm --tuned`.
# Coulomb friction (set-valued stick) and the elasto-plastic model are left
# out: `friction nnm` does not treat the first yet (`friction frf` does, by
# the dynamic Lagrangian method), and harmonic balance refuses the second,
# whose elastic presliding state keeps whatever offset it starts with.
#
# Usage: sh examples/sandia_joints.sh [friction binary]
# Without an argument it uses `friction` on PATH (after `cargo install --path
# crates/friction-cli --locked`), else builds and runs it with cargo.
# Writes out/sandia/frf (frf.csv, frf.png), out/sandia/tune_*.json and
# out/sandia/nnm (backbone.csv for the Iwan joint, backbone_1..4.csv,
# backbone.png).
set -e
if [ -n "$1" ]; then
  F=$1
elif command -v friction >/dev/null 2>&1; then
  F=friction
else
  F="cargo run --release -q --manifest-path $(dirname "$0")/../Cargo.toml -p friction-cli --"
fi
S=$(dirname "$0")/jointed_frf.toml
O=out/sandia
mkdir -p $O
$F frf $S --force shaker --f-min 150 --f-max 320 --levels 0.05,0.2,0.5,2 --out $O/frf
A="--target-model iwan4 --target-params fs=1,kt=1e5,chi=-0.5,beta=0.1,n=100 --amplitude 2e-5 --frequency 200"
$F tune --model jenkins --param fs --params kt=1e5,fs=0.5 $A --json $O/tune_jenkins.json
$F tune --model dahl --param fc --params sigma0=1e5,fc=0.5 $A --json $O/tune_dahl.json
$F tune --model bouc_wen --param beta --params a=1,k=1e5,beta=2e5,gamma=2e5,n=1 $A --json $O/tune_bouc_wen.json
$F tune --model lugre --param fc --params sigma0=1e5,sigma1=0,sigma2=0,fc=0.2,fs=0.3 $A --json $O/tune_lugre.json
$F nnm $S --amplitudes 2e-7:2e-3:17 --body base --out $O/nnm \
  --tuned $O/tune_jenkins.json --tuned $O/tune_dahl.json --tuned $O/tune_bouc_wen.json --tuned $O/tune_lugre.json

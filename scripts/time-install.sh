#!/usr/bin/env bash
# Times what the README's install command costs a newcomer: a fresh clone of
# this repository (HEAD) and an empty target directory, then
#   cargo install --path crates/friction-cli --locked
# into a temporary root. Crates already in ~/.cargo/registry are not
# downloaded again (a first-ever install also downloads them).
#
# Prints the wall time, the CPU time (user + system of every compiler), how
# long the build script's second compile of the FMU library ran (from the
# first to the last file it wrote under TARGET/fmu-embed; it runs alongside
# the main build, see crates/friction-cli/build.rs), and checks that the
# installed command exports an FMU. Run it on an idle machine: the figure
# counts the other loads on the cores. Everything is deleted afterwards.
#
# Usage: scripts/time-install.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git clone -q "$root" "$work/src"
export CARGO_TARGET_DIR="$work/target"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC')"
TIMEFORMAT='%R %U %S'
times=$( { time (cd "$work/src" && cargo install -q --path crates/friction-cli --locked --root "$work/root" \
    >"$work/log" 2>&1) ; } 2>&1 ) || { tail -20 "$work/log"; exit 1; }
read -r wall user sys <<<"$times"
span() {
    find "$1" -type f -printf '%T@\n' | sort -n | awk 'NR==1{a=$1} {b=$1} END{printf "%.0f", b-a}'
}
awk -v w="$wall" -v u="$user" -v s="$sys" \
    'BEGIN { printf "cargo install: %.0f s wall (%.1f min), %.0f s CPU\n", w, w / 60, u + s }'
echo "the FMU library's second compile (build script): $(span "$CARGO_TARGET_DIR/fmu-embed") s, alongside"
"$work/root/bin/friction" fmu --out "$work/check.fmu" >/dev/null
echo "installed friction fmu: wrote an FMU of $(stat -c %s "$work/check.fmu") bytes"

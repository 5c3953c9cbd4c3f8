"""Issue 28: `friction frf` against pyharm-os on the same SDOF Jenkins FRF.

Both codes trace the steady-state frequency response of the oscillator of
bench/hb/sdof_jenkins.toml (m = 1 kg, k = 1e4 N/m, c = 5 N s/m, Jenkins
kt = 1e4 N/m and slip force fs = 1 N to the ground, forced by 0.5 sin(wt) N)
from F_MIN to F_MAX Hz by harmonic balance with the same number of harmonics H
and time samples per period, each with its own pseudo-arclength continuation.
Printed side by side: wall time (three runs each; the friction CLI timed as a
process, start-up included; pyharm-os timed as a process too, and its solve
alone as it reports it), the resonance peak (amplitude of the fundamental and
its frequency) and the fundamental amplitude at common frequencies
(interpolated on each branch), with the relative difference. Both are also
checked at H = 1 against the describing-function equation of the Jenkins
element (Caughey 1960, bilinear hysteresis), an independent closed form.

Then `friction frf` alone on bench/hb/chain10_jenkins5.toml (10 bodies, 5
Jenkins joints) is timed against the issue's 1 s goal.

Usage: run through bench/hb/run.sh (which makes the virtual environment), or
  python frf_vs_pyharm.py [--friction PATH] [--runs N] [--harmonics H]
"""

import argparse
import json
import math
import os
import sys

import numpy as np

import common
from common import fundamental, pyharm_solve, rel, run_friction, spread

HERE = os.path.dirname(os.path.abspath(__file__))

# The oscillator, in SI units: must match sdof_jenkins.toml.
M, K, C, KT, FS, F0 = 1.0, 1e4, 5.0, 1e4, 1.0, 0.5
F_MIN, F_MAX = 5.0, 35.0
SAMPLES = 256  # time samples per period, both codes
COMMON_F = [8.0, 12.0, 15.0, 18.0, 20.0, 25.0, 30.0]  # Hz, away from the peak's fold


# ---------------------------------------------------------------- pyharm-os side

def pyharm_input(h, samples, ds_max):
    """The oscillator as a pyharm-os input dictionary (one node, one dof)."""
    node = {"sub": [0]}
    conn = lambda **kw: {**kw, "connect": dict(node), "dirs": [0]}  # noqa: E731 (to the ground)
    return {
        "system": {"type": "Base", "nh": h, "nti": samples, "adim": {"status": False, "lc": 1.0, "wc": 1.0}},
        "substructures": {"sub": {"type": "onlydofs", "nnodes": 1, "ndofs": 1, "nmodes": 0, "matching": [0]}},
        "connectors": {
            "mass": conn(type="GOElement", dto=2, xo=1, k=M),
            "spring": conn(type="LinearSpring", k=K),
            "damper": conn(type="LinearDamper", k=C),
            "jenkins": conn(type="Jenkins", k=KT, mu=1.0, N0=FS),
            "force": conn(type="SinusForcing", amp=F0),
        },
        "analysis": {
            "frf": {
                "study": "frf",
                "puls_inf": 2 * math.pi * F_MIN,
                "puls_sup": 2 * math.pi * F_MAX,
                "ds0": ds_max / 4,
                "ds_max": ds_max,
                "ds_min": 1e-8,
                "verbose": False,
            }
        },
    }


def pyharm_worker(h, samples, ds_max, out):
    """Runs pyharm-os once in this process; writes f, amplitude and timings to `out` (JSON)."""
    ana, ic_is, _, timings = pyharm_solve(pyharm_input(h, samples, ds_max))
    f, a = [], []
    for sol in ana.SolList:
        if not sol.flag_accepted:
            continue
        f.append(float(sol.x[-1]) / (2 * math.pi))
        a.append(fundamental(sol, ic_is))
    with open(out, "w") as fh:
        json.dump({"f": f, "a": a, **timings}, fh)


def run_pyharm(h, samples, ds_max):
    """pyharm-os in a fresh interpreter (as a user runs it): wall time and its results."""
    return common.run_pyharm(__file__, h, samples, ds_max)


# ---------------------------------------------------------------- comparison

def branch_at(f, a, f0):
    """Amplitude at f0 on a branch (f, a), linearly interpolated on the first segment
    crossing f0 (the branch is single-valued away from the fold); None if none does."""
    for i in range(len(f) - 1):
        lo, hi = sorted((f[i], f[i + 1]))
        if lo <= f0 <= hi and hi > lo:
            t = (f0 - f[i]) / (f[i + 1] - f[i])
            return a[i] + t * (a[i + 1] - a[i])
    return None


def df_balance(a, f_hz):
    """|Z(A, w)| A / F0 - 1: the relative residual of the describing-function equation of the
    oscillator with the Jenkins element (Caughey 1960), Z = k - m w^2 + Kr(A) + i (c w + Ki(A))."""
    w = 2 * math.pi * f_hz
    xs = FS / KT
    if a <= xs:
        kr, ki = KT, 0.0
    else:
        beta = math.acos(1 - 2 * xs / a)
        kr = KT / math.pi * (beta - math.sin(2 * beta) / 2)
        ki = 4 * FS * (a - xs) / (math.pi * a * a)
    return abs(complex(K - M * w * w + kr, C * w + ki)) * a / F0 - 1


def describing_function_amplitude(f_hz):
    """First-harmonic amplitude at f_hz by the describing-function equation, solved by bisection
    in log A from the first sign change upward (the branch is single-valued for this damping:
    one root from 15 to 30 Hz, checked on a 20000-point grid)."""
    grid = np.geomspace(1e-9, 1e-1, 400)
    lo = grid[0]
    for hi in grid[1:]:
        if df_balance(hi, f_hz) > 0:
            break
        lo = hi
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        lo, hi = (lo, mid) if df_balance(mid, f_hz) > 0 else (mid, hi)
    return math.sqrt(lo * hi)


def describing_function_peak():
    """Largest first-harmonic amplitude of the describing-function branch and its frequency
    (golden-section search on f between 15 and 30 Hz)."""
    lo, hi = 15.0, 30.0
    g = (math.sqrt(5) - 1) / 2
    for _ in range(80):
        m1, m2 = hi - g * (hi - lo), lo + g * (hi - lo)
        if describing_function_amplitude(m1) > describing_function_amplitude(m2):
            hi = m2
        else:
            lo = m1
    f = (lo + hi) / 2
    return describing_function_amplitude(f), f


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--friction", default=os.environ.get("FRICTION", "friction"), help="friction executable")
    ap.add_argument("--runs", type=int, default=3, help="repetitions of every timing (default 3)")
    ap.add_argument("--harmonics", type=int, default=5, help="H for the comparison (default 5)")
    ap.add_argument("--ds-max", type=float, default=2.0,
                    help="pyharm-os arclength step cap (rad/s-dominated; default 2.0)")
    ap.add_argument("--no-chain", action="store_true", help="skip the 10-body chain timing")
    ap.add_argument("--pyharm-worker", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.pyharm_worker:
        h, samples, ds_max, out = args.pyharm_worker
        pyharm_worker(int(h), int(samples), float(ds_max), out)
        return

    import importlib.metadata as md
    print(f"pyharm-os {md.version('pyharm-os')}, numpy {np.__version__}, friction {args.friction}")
    print(f"load: {os.getloadavg()}")
    sdof = os.path.join(HERE, "sdof_jenkins.toml")
    h = args.harmonics

    # 1. describing-function check at H = 1 (both codes, one run each)
    print("\n== H = 1 against the describing function (Caughey 1960) ==")
    fr1 = run_friction(args.friction, sdof, "p", F_MIN, F_MAX, 1, SAMPLES)
    ff1 = [float(r["f"]) for r in fr1["rows"]]
    fa1 = [float(r["a.m"]) for r in fr1["rows"]]
    py1 = run_pyharm(1, SAMPLES, args.ds_max)
    print(f"{'f [Hz]':>8} {'DF A [m]':>12} {'friction':>12} {'rel':>9} {'pyharm-os':>12} {'rel':>9}")
    worst1 = {"friction": 0.0, "pyharm-os": 0.0}
    for f0 in COMMON_F:
        ref = describing_function_amplitude(f0)
        af = branch_at(ff1, fa1, f0)
        ap_ = branch_at(py1["f"], py1["a"], f0)
        worst1["friction"] = max(worst1["friction"], abs(rel(af, ref)))
        worst1["pyharm-os"] = max(worst1["pyharm-os"], abs(rel(ap_, ref)))
        print(f"{f0:8.2f} {ref:12.5e} {af:12.5e} {rel(af, ref):+9.2e} {ap_:12.5e} {rel(ap_, ref):+9.2e}")
    print(f"worst |rel| vs DF at these frequencies: friction {worst1['friction']:.2e}, "
          f"pyharm-os {worst1['pyharm-os']:.2e} (includes linear interpolation between continuation points)")
    res_f = max(abs(df_balance(a, f)) for f, a in zip(ff1, fa1))
    res_p = max(abs(df_balance(a, f)) for f, a in zip(py1["f"], py1["a"]))
    print(f"worst relative residual of the DF equation over every continuation point (no interpolation): "
          f"friction {res_f:.2e} ({len(ff1)} points), pyharm-os {res_p:.2e} ({len(py1['f'])} points)")
    a_pk, f_pk = describing_function_peak()
    i_f1, i_p1 = int(np.argmax(fa1)), int(np.argmax(py1["a"]))
    print(f"peak: DF {a_pk:.5e} m at {f_pk:.3f} Hz; friction {fa1[i_f1]:.5e} m ({rel(fa1[i_f1], a_pk):+.2e}) "
          f"at {ff1[i_f1]:.3f} Hz; pyharm-os {py1['a'][i_p1]:.5e} m ({rel(py1['a'][i_p1], a_pk):+.2e}) "
          f"at {py1['f'][i_p1]:.3f} Hz (largest continuation point)")

    # 2. the comparison at H
    print(f"\n== SDOF Jenkins FRF, H = {h}, {SAMPLES} samples/period, {F_MIN}-{F_MAX} Hz, {args.runs} runs ==")
    fr_runs = [run_friction(args.friction, sdof, "p", F_MIN, F_MAX, h, SAMPLES) for _ in range(args.runs)]
    py_runs = [run_pyharm(h, SAMPLES, args.ds_max) for _ in range(args.runs)]
    fr, py = fr_runs[-1], py_runs[-1]
    ff = [float(r["f"]) for r in fr["rows"]]
    fa = [float(r["a.m"]) for r in fr["rows"]]
    i_f, i_p = int(np.argmax(fa)), int(np.argmax(py["a"]))
    t_fr = [r["wall_s"] for r in fr_runs]
    t_py = [r["wall_s"] for r in py_runs]
    t_py_solve = [r["solve_s"] for r in py_runs]
    print(f"{'':34} {'friction':>14} {'pyharm-os':>14} {'rel diff':>10}")
    print(f"{'continuation points':34} {len(ff):>14d} {len(py['f']):>14d}")
    print(f"{'peak amplitude a1 [m]':34} {fa[i_f]:14.6e} {py['a'][i_p]:14.6e} {rel(fa[i_f], py['a'][i_p]):+10.2e}")
    print(f"{'peak frequency [Hz]':34} {ff[i_f]:14.4f} {py['f'][i_p]:14.4f} {rel(ff[i_f], py['f'][i_p]):+10.2e}")
    for f0 in COMMON_F:
        af, ap_ = branch_at(ff, fa, f0), branch_at(py["f"], py["a"], f0)
        print(f"{f'a1 at {f0:g} Hz [m]':34} {af:14.6e} {ap_:14.6e} {rel(af, ap_):+10.2e}")
    print(f"wall time, process (friction incl. start-up; pyharm-os incl. interpreter, imports, JIT cache load):")
    print(f"  friction   {spread(t_fr)}")
    print(f"  pyharm-os  {spread(t_py)}   (import {np.median([r['import_s'] for r in py_runs]):.2f} s, "
          f"build {np.median([r['build_s'] for r in py_runs]):.3f} s, solve {spread(t_py_solve)})")
    print(f"  speed-up: {np.median(t_py) / np.median(t_fr):.1f}x on the process, "
          f"{np.median(t_py_solve) / np.median(t_fr):.1f}x against pyharm-os's solve alone")
    if "timings" in fr["summary"]:
        print(f"  friction summary.json timings: {fr['summary']['timings']}")
    else:
        print("  (friction's summary.json has no timings field)")

    # 3. 10 bodies, 5 joints
    if args.no_chain:
        return
    chain = os.path.join(HERE, "chain10_jenkins5.toml")
    for hc, label in ((h, f"H = {h}"), (None, "default H (doubled from 3 until converged)")):
        print(f"\n== friction frf, 10-body chain with 5 Jenkins joints, 20-400 Hz, {label}, {args.runs} runs ==")
        ch_runs = [run_friction(args.friction, chain, "shaker", 20.0, 400.0, hc, None) for _ in range(args.runs)]
        s = ch_runs[-1]["summary"]
        t_ch = [r["wall_s"] for r in ch_runs]
        print(f"points {s['points']}, H = {s['harmonics']} (H -> 2H change {s['h_to_2h_relative_change']:.1e}), "
              f"{s['samples']} samples/period; wall {spread(t_ch)}; "
              f"per 200 points {np.median(t_ch) * 200 / s['points']:.3f} s; every run under 1 s: {max(t_ch) < 1.0}")

if __name__ == "__main__":
    main()
    if "--pyharm-worker" not in sys.argv:
        print(f"\nload at the end: {os.getloadavg()}")

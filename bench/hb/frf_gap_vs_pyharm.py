"""Issue 45: `friction frf` against pyharm-os on an oscillator against a unilateral penalty stop.

Both codes trace the steady-state frequency response of the oscillator of
bench/hb/sdof_gap.toml by harmonic balance with the same number of harmonics H
and the same time samples per period (alternating frequency-time), each with
its own pseudo-arclength continuation, from F_MIN to F_MAX Hz.

The system, in SI units (must match sdof_gap.toml):
  m x'' + c x' + k x + kg max(0, x - G) = F0 sin(w t)
m = 1 kg, k = 1e4 N/m, c = 10 N s/m, kg = 1e5 N/m, G = 2e-4 m, F0 = 1 N.
x is the body's displacement, positive along +x; the stop is on the +x side.
* friction: a [[gap]] between ["m", "ground"] with length -G: penetration
  p = length - (x_ground - x_m) = x - G, in contact while p > 0, pushing the
  first member (m) along -x with kg p (exponent 1, damping 0).
* pyharm-os 1.2.2: a `PenaltyUnilateralGap` connected to the node's dof 0 and
  the ground (dirs [0], g = G, k = kg): on the relative displacement
  d = x_slave - x_master = x, residual term kg (d - g) where d >= g
  (PenalGapResidual in pyHarm/Elements/NodeToNodeElements/PenaltyUnilateralGap.py),
  a term of the internal forces as `LinearSpring`'s k x: the same restoring
  force kg max(0, x - G). The force is SinusForcing (amp F0: F0 sin(w t)),
  the mass GOElement (dto = 2, k = m), LinearSpring (k) and LinearDamper (c).
At the stop (x = G) the contact force is continuous (kg (x - G) starts from
0) and its slope jumps; the response opens and closes every period once its
amplitude exceeds G (about 11.5 Hz up to a fold near 22.4 Hz).

Why not friction under the gap's normal load: pyharm-os's `Penalty3D` (a
penalty gap along its first direction and its `Jenkins` in the two others)
keeps the stick stiffness k_t fixed while the capacity follows the normal
force, where our `jenkins` with `normal_stiffness` scales both with the load;
and, as read in pyharm-os 1.2.2's source, its friction force is multiplied by
(f_n - N0 <= 0), which with N0 = 0 (the gap form) is zero while in contact,
and with N0 > 0 (the preloaded form) keeps the capacity mu N0 once the contact
opens. No law of it is exactly ours there, so the gap alone is compared.

Printed side by side: the resonance peak (the largest continuation point of
each, and the vertex of the parabola through it and its two neighbours), the
fundamental amplitude at common frequencies (ours interpolated linearly onto
pyharm-os's points, on the same monotone piece of the branch, away from the
turning points), with relative differences, and wall times (runs alternating
between the codes; friction as a process, start-up and writing its files
included; pyharm-os as a process too, and its solve alone as it reports it).

Usage: run through bench/hb/run.sh (which makes the virtual environment), or
  python frf_gap_vs_pyharm.py [--friction PATH] [--runs N] [--harmonics H] [--gap-ds-max DS]
"""

import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

import common
from common import fundamental, pyharm_solve, rel, run_friction, spread

HERE = os.path.dirname(os.path.abspath(__file__))

# The oscillator, in SI units: must match sdof_gap.toml.
M, K, C, KG, G, F0 = 1.0, 1e4, 10.0, 1e5, 2e-4, 1.0
F_MIN, F_MAX = 10.0, 35.0
SAMPLES = 256  # time samples per period, both codes
FIXED_F = [12.0, 15.0, 18.0, 20.0, 22.0, 25.0, 30.0]  # Hz; 20 and 22 on the upper (first) piece
# pyharm-os's scales (its `adim` option). In metres and rad/s its arclength is all frequency
# (x ~ 1e-4 m against w ~ 100 rad/s): with adim off (ds_max 2) its continuation reached the fold at
# 22.4357 Hz and stalled there, steps shrinking (half of its 101 points there); in x / G and w / w0
# both are O(1).
LC, WC = G, math.sqrt(K / M)
TURN_MARGIN = 0.1  # Hz: points this close to a turning point of either branch are not compared
ENGINE_F = [15.0, 18.0]  # Hz: the time-domain engine from rest to a steady state (unique response there)
ENGINE_T_END, ENGINE_DT = 3.0, 2e-5  # s: 15 decay times 1 / (zeta w0) = 0.2 s; output step


# ---------------------------------------------------------------- pyharm-os side

def pyharm_input(h, samples, ds_max):
    """The oscillator as a pyharm-os input dictionary (one node, one dof), in pyharm-os's
    dimensionless variables x / LC and w / WC (its `adim` option: every element's coefficients
    are scaled by it, the unknowns are x / LC and w / WC, the forces stay in N)."""
    node = {"sub": [0]}
    conn = lambda **kw: {**kw, "connect": dict(node), "dirs": [0]}  # noqa: E731 (to the ground)
    return {
        "system": {"type": "Base", "nh": h, "nti": samples, "adim": {"status": True, "lc": LC, "wc": WC}},
        "substructures": {"sub": {"type": "onlydofs", "nnodes": 1, "ndofs": 1, "nmodes": 0, "matching": [0]}},
        "connectors": {
            "mass": conn(type="GOElement", dto=2, xo=1, k=M),
            "spring": conn(type="LinearSpring", k=K),
            "damper": conn(type="LinearDamper", k=C),
            "stop": conn(type="PenaltyUnilateralGap", g=G, k=KG),
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
    """Runs pyharm-os once in this process; writes f, amplitude, the fraction of the period
    in contact at every point, and timings to `out` (JSON)."""
    ana, ic_is, dynop, timings = pyharm_solve(pyharm_input(h, samples, ds_max))
    ft = dynop["ft"]  # harmonics -> time samples
    f, a, closed = [], [], []
    for sol in ana.SolList:
        if not sol.flag_accepted:
            continue
        f.append(float(sol.x[-1]) * WC / (2 * math.pi))
        a.append(fundamental(sol, ic_is) * LC)
        closed.append(float(np.mean(sol.x[:-1] @ ft >= G / LC)))
    with open(out, "w") as fh:
        json.dump({"f": f, "a": a, "closed": closed, **timings}, fh)


def run_pyharm(h, samples, ds_max):
    """pyharm-os in a fresh interpreter (as a user runs it): wall time and its results."""
    return common.run_pyharm(__file__, h, samples, ds_max)


# ---------------------------------------------------------------- comparison

def pieces(f):
    """Index ranges [i0, i1] of the monotone pieces of a branch in frequency, and the
    frequencies of its turning points."""
    turns = [i for i in range(1, len(f) - 1) if (f[i] - f[i - 1]) * (f[i + 1] - f[i]) < 0]
    bounds = [0] + turns + [len(f) - 1]
    return [(bounds[j], bounds[j + 1]) for j in range(len(bounds) - 1)], [f[i] for i in turns]


def piece_at(f, a, piece, f0):
    """Amplitude at f0 on one monotone piece of a branch (linear interpolation); None if outside."""
    i0, i1 = piece
    for i in range(i0, i1):
        lo, hi = sorted((f[i], f[i + 1]))
        if lo <= f0 <= hi and hi > lo:
            t = (f0 - f[i]) / (f[i + 1] - f[i])
            return a[i] + t * (a[i + 1] - a[i])
    return None


def peak(f, a):
    """The largest point (f, a), and the vertex of the parabola a(f) through it and its neighbours."""
    i = int(np.argmax(a))
    fi, ai = f[i], a[i]
    if 0 < i < len(f) - 1:
        c2, c1, c0 = np.polyfit(f[i - 1:i + 2], a[i - 1:i + 2], 2)
        if c2 < 0:
            fv = -c1 / (2 * c2)
            return (fi, ai), (fv, c0 - c1 * c1 / (4 * c2))
    return (fi, ai), (fi, ai)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--friction", default=os.environ.get("FRICTION", "friction"), help="friction executable")
    ap.add_argument("--runs", type=int, default=3, help="repetitions of every timing (default 3)")
    ap.add_argument("--harmonics", type=int, default=5, help="H for the comparison (default 5)")
    ap.add_argument("--gap-ds-max", type=float, default=0.1,
                    help="pyharm-os arclength step cap, in its dimensionless x / G and w / w0 (default 0.1)")
    ap.add_argument("--pyharm-worker", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.pyharm_worker:
        h, samples, ds_max, out = args.pyharm_worker
        pyharm_worker(int(h), int(samples), float(ds_max), out)
        return

    import importlib.metadata as md
    print(f"pyharm-os {md.version('pyharm-os')}, numpy {np.__version__}, friction {args.friction}")
    print(f"load: {os.getloadavg()}")
    scen = os.path.join(HERE, "sdof_gap.toml")
    h = args.harmonics

    print(f"\n== SDOF against a unilateral penalty stop (m {M} kg, k {K:g} N/m, c {C:g} N s/m, "
          f"kg {KG:g} N/m at G {G:g} m, F0 {F0:g} N), H = {h}, {SAMPLES} samples/period, "
          f"{F_MIN}-{F_MAX} Hz, {args.runs} runs each, alternating ==")
    fr_runs, py_runs = [], []
    for _ in range(args.runs):
        fr_runs.append(run_friction(args.friction, scen, "p", F_MIN, F_MAX, h, SAMPLES))
        py_runs.append(run_pyharm(h, SAMPLES, args.gap_ds_max))
    fr, py = fr_runs[-1], py_runs[-1]
    ff = [float(r["f"]) for r in fr["rows"]]
    fa = [float(r["a.m"]) for r in fr["rows"]]
    pf, pa = py["f"], py["a"]
    (ff_pk, fa_pk), (ff_v, fa_v) = peak(ff, fa)
    (pf_pk, pa_pk), (pf_v, pa_v) = peak(pf, pa)
    f_pieces, f_turns = pieces(ff)
    p_pieces, p_turns = pieces(pf)
    print(f"{'':40} {'friction':>14} {'pyharm-os':>14} {'rel diff':>10}")
    print(f"{'continuation points':40} {len(ff):>14d} {len(pf):>14d}")
    print(f"{'turning points [Hz]':40} {', '.join(f'{t:.3f}' for t in f_turns):>14} "
          f"{', '.join(f'{t:.3f}' for t in p_turns):>14}")
    print(f"{'peak a1, largest point [m]':40} {fa_pk:14.6e} {pa_pk:14.6e} {rel(fa_pk, pa_pk):+10.2e}")
    print(f"{'  its frequency [Hz]':40} {ff_pk:14.4f} {pf_pk:14.4f} {rel(ff_pk, pf_pk):+10.2e}")
    print(f"{'peak a1, parabola through 3 points [m]':40} {fa_v:14.6e} {pa_v:14.6e} {rel(fa_v, pa_v):+10.2e}")
    print(f"{'  its frequency [Hz]':40} {ff_v:14.4f} {pf_v:14.4f} {rel(ff_v, pf_v):+10.2e}")
    i_pk = int(np.argmax(pa))
    print(f"pyharm-os: fraction of the period against the stop at its peak point {py['closed'][i_pk]:.3f}, "
          f"largest over the branch {max(py['closed']):.3f}")
    for f0 in FIXED_F:
        # below the fold: the first piece (the upper branch where there are three); above: the last
        j = 0 if f0 <= max(f_turns + p_turns + [F_MIN]) else -1
        af = piece_at(ff, fa, f_pieces[j], f0)
        ap_ = piece_at(pf, pa, p_pieces[j], f0)
        if af is None or ap_ is None:
            print(f"{f'a1 at {f0:g} Hz [m]':40} {'-':>14} {'-':>14}")
            continue
        print(f"{f'a1 at {f0:g} Hz [m]':40} {af:14.6e} {ap_:14.6e} {rel(af, ap_):+10.2e}")
    # ours interpolated onto every pyharm-os point away from the turning points of either branch:
    # of ours' segments that cross its frequency, the one nearest in amplitude (in the fold's band
    # the branch has three values: this picks the same piece without relying on point order)
    turns = f_turns + p_turns
    diffs = []
    for x, y in zip(pf, pa):
        if any(abs(x - t) < TURN_MARGIN for t in turns):
            continue
        cands = [piece_at(ff, fa, pc, x) for pc in f_pieces]
        cands = [c for c in cands if c is not None]
        if cands:
            af = min(cands, key=lambda c: abs(c - y))
            diffs.append((abs(rel(af, y)), x))
    d = sorted(diffs)
    print(f"ours interpolated onto pyharm-os's points (> {TURN_MARGIN} Hz from turning points, nearest piece): "
          f"{len(d)} points, |rel| median {d[len(d) // 2][0]:.2e}, largest {d[-1][0]:.2e} at {d[-1][1]:.3f} Hz")

    # ours solved at exactly pyharm-os's frequencies. The two codes solve the same discrete
    # equations (same harmonics, samples, law), so what remains is the solvers' tolerances, and the
    # interpolated differences above are interpolation. Where the response is unique (outside the
    # fold's band): `friction frf` from f to f (1 + 1e-9), its first row solved at f from the linear
    # response, or where Newton's method does not converge from there, the last row of the branch
    # from F_MIN continued up to f. On the upper piece inside the band: the last row of the branch
    # from F_MIN continued up to f (it reaches f first on that piece). pyharm-os's middle (unstable)
    # piece is not compared this way.
    lo, hi = min(turns) - TURN_MARGIN, max(turns) + TURN_MARGIN
    p0 = set(range(p_pieces[0][0], p_pieces[0][1] + 1))

    def ours_exact(x, upper):
        r = None if upper else run_friction(args.friction, scen, "p", x, x * (1 + 1e-9), h, SAMPLES, check=False)
        if r is not None:
            row = r["rows"][0]
        else:
            row = run_friction(args.friction, scen, "p", F_MIN, x, h, SAMPLES)["rows"][-1]
        assert abs(float(row["f"]) - x) <= 1e-9 * x, (row["f"], x)
        return float(row["a.m"])

    exact = []
    for i, (x, y) in enumerate(zip(pf, pa)):
        if not F_MIN <= x <= F_MAX:
            continue
        if not lo <= x <= hi:
            exact.append((abs(rel(ours_exact(x, False), y)), x, "unique"))
        elif i in p0 and x < max(turns) - TURN_MARGIN:
            exact.append((abs(rel(ours_exact(x, True), y)), x, "upper"))
    for kind in ("unique", "upper"):
        e = sorted(v for v in exact if v[2] == kind)
        if e:
            print(f"ours solved at pyharm-os's frequencies, {kind} {'(outside' if kind == 'unique' else '(inside'} "
                  f"{lo:.2f}-{hi:.2f} Hz), no interpolation: {len(e)} points, |rel| median {e[len(e) // 2][0]:.2e}, "
                  f"largest {e[-1][0]:.2e} at {e[-1][1]:.3f} Hz")
    a_at_ppk = ours_exact(pf_pk, True)
    print(f"at pyharm-os's largest point ({pf_pk:.4f} Hz): ours {a_at_ppk:.6e} m, pyharm-os {pa_pk:.6e} m "
          f"({rel(a_at_ppk, pa_pk):+.2e})")
    # the peak of the discrete equations both solve: golden-section search on the upper piece. Near
    # the peak that curve is saw-toothed (measured on 2026-11-30, 0.002 Hz apart from 22.25 to 22.33 Hz:
    # teeth 0.016 to 0.02 Hz apart rising by up to 6e-4 of the amplitude within 0.004 Hz, as the stop's
    # contact takes in one more of the 256 samples per period), so this is the top of one tooth, the
    # highest of that scan
    gl, gh = ff_pk - 0.15, min(ff_pk + 0.15, max(turns) - 0.01)
    g = (math.sqrt(5) - 1) / 2
    for _ in range(25):
        m1, m2 = gh - g * (gh - gl), gl + g * (gh - gl)
        if ours_exact(m1, True) > ours_exact(m2, True):
            gh = m2
        else:
            gl = m1
    f_true = (gl + gh) / 2
    a_true = ours_exact(f_true, True)
    print(f"peak of the discrete equations (golden section, 25 steps on the upper piece): {a_true:.6e} m at "
          f"{f_true:.4f} Hz; largest point: friction {rel(fa_pk, a_true):+.2e} in a1, {rel(ff_pk, f_true):+.2e} "
          f"in f; pyharm-os {rel(pa_pk, a_true):+.2e} in a1, {rel(pf_pk, f_true):+.2e} in f")

    t_fr = [r["wall_s"] for r in fr_runs]
    t_py = [r["wall_s"] for r in py_runs]
    t_py_solve = [r["solve_s"] for r in py_runs]
    print("wall time, process (friction incl. start-up; pyharm-os incl. interpreter, imports, JIT cache load):")
    print(f"  friction   {spread(t_fr)}")
    print(f"  pyharm-os  {spread(t_py)}   (import {np.median([r['import_s'] for r in py_runs]):.2f} s, "
          f"build {np.median([r['build_s'] for r in py_runs]):.3f} s, solve {spread(t_py_solve)}; "
          f"its timetosolve {np.median([r['pyharm_timetosolve_s'] for r in py_runs]):.3f} s)")
    print(f"  speed-up: {np.median(t_py) / np.median(t_fr):.1f}x on the process, "
          f"{np.median(t_py_solve) / np.median(t_fr):.1f}x against pyharm-os's solve alone")
    # against the time-domain engine: `friction run` from rest for ENGINE_T_END s, the first
    # harmonic of x over the last period, and the HB amplitude at H and at H = 20 (1024 samples)
    print(f"against the time-domain engine (friction run from rest, {ENGINE_T_END:g} s, first harmonic of the "
          "last period; HB at f by the branch from F_MIN):")
    for f0 in ENGINE_F:
        with tempfile.TemporaryDirectory() as d:
            subprocess.run([args.friction, "run", scen, "--set", f"solver.t_end={ENGINE_T_END}", "--set",
                            f"solver.output_dt={ENGINE_DT}", "--set", f"force.p.value.frequency={f0}", "--out", d],
                           check=True, stdout=subprocess.DEVNULL)
            with open(os.path.join(d, "timeseries.csv")) as fh:
                rows = list(csv.DictReader(line for line in fh if not line.startswith("#")))
        t = np.array([float(r["t"]) for r in rows])
        x = np.array([float(r["x.m"]) for r in rows])
        last = t >= ENGINE_T_END - 1.0 / f0 - 1e-12
        cs = [2 * f0 * np.trapezoid(x[last] * fn(2 * np.pi * f0 * t[last]), t[last]) for fn in (np.cos, np.sin)]
        a_td = math.hypot(*cs)
        a_h = float(run_friction(args.friction, scen, "p", F_MIN, f0, h, SAMPLES)["rows"][-1]["a.m"])
        a_20 = float(run_friction(args.friction, scen, "p", F_MIN, f0, 20, 1024)["rows"][-1]["a.m"])
        print(f"  {f0:g} Hz: engine {a_td:.6e} m; HB H = {h} (both codes) {a_h:.6e} m ({rel(a_h, a_td):+.2e}); "
              f"HB H = 20, 1024 samples {a_20:.6e} m ({rel(a_20, a_td):+.2e})")
    s = fr["summary"]
    print(f"  friction: H -> 2H change of the peak {s['h_to_2h_relative_change']:.1e}, "
          f"{s['unstable_points']} of {s['points']} points unstable (pyharm-os assesses no stability here)")


if __name__ == "__main__":
    main()
    if "--pyharm-worker" not in sys.argv:
        print(f"\nload at the end: {os.getloadavg()}")

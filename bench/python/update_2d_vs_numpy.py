"""2-D (two tangential directions) Model.update against vectorised NumPy, 10^5 contacts.

Times Model.update with slips of shape (n, 2) for coulomb, jenkins, lugre and
iwan4 (100 elements), and, in the same run over the same slip history, a
vectorised NumPy implementation of the same 2-D LuGre and Jenkins updates:

    LuGre (vector bristle law, exact at constant velocity):
        s = |du|, g = fc + (fs - fc) exp(-(s/dt/vs)^2)
        z' = zss + (z - zss) exp(-sigma0 s / g),  zss = (du/s) g / sigma0   (z' = z for s = 0)
        F  = N (sigma0 z' + sigma1 (v - sigma0 |v| z' / g) + sigma2 v)
    Jenkins (radial return, theta = 1):
        e = u - sl; if kt|e| > fs: sl = u - (fs/kt) e/|e|;  F = N kt (u - sl), clamped to |F| <= N fs

The forces of both sides are checked to agree.

    python bench/python/update_2d_vs_numpy.py [--n 100000] [--steps 20]
"""

import argparse
import os
import time

import numpy as np

import friction


def numpy_lugre(p, dt, du, normal, z, out):
    s = np.hypot(du[:, 0], du[:, 1])
    speed = s / dt
    g = p["fc"] + (p["fs"] - p["fc"]) * np.exp(-((speed / p["vs"]) ** 2))
    s0 = p["sigma0"]
    with np.errstate(invalid="ignore", divide="ignore"):
        n = np.where(s[:, None] > 0.0, du / s[:, None], 0.0)
    zss = n * (g / s0)[:, None]
    e = np.exp(-s0 * s / g)[:, None]
    z[:] = zss + (z - zss) * e
    v = du / dt
    f = s0 * z + p["sigma1"] * (v - (s0 * speed / g)[:, None] * z) + p["sigma2"] * v
    return np.multiply(normal[:, None], f, out=out)


def numpy_jenkins(kt, fs, du, normal, u, sl, out):
    u += du
    e = u - sl
    r = np.hypot(e[:, 0], e[:, 1])
    slip = kt * r > fs
    with np.errstate(invalid="ignore", divide="ignore"):
        sl[:] = np.where(slip[:, None], u - (fs / kt) * e / r[:, None], sl)
    g = kt * (u - sl)
    gm = np.hypot(g[:, 0], g[:, 1])
    with np.errstate(invalid="ignore", divide="ignore"):
        g = np.where((gm > fs)[:, None], fs * g / gm[:, None], g)
    return np.multiply(normal[:, None], g, out=out)


def time_steps(step, slips, clock):
    for du in slips[:3]:  # warm-up
        step(du)
    ts = []
    for du in slips:
        t0 = clock()
        step(du)
        ts.append(clock() - t0)
    return float(np.median(ts))


def measure(n: int, steps: int, clock=time.perf_counter) -> dict:
    rng = np.random.default_rng(12)
    dt = 1e-4
    slips = [rng.normal(0.0, 2e-6, (n, 2)) for _ in range(steps)]
    normal = rng.uniform(0.5, 2.0, n)
    out = {}
    for name, params in [("coulomb", {}), ("jenkins", {}), ("lugre", {}), ("iwan4", {"n": 100})]:
        m = friction.Model(name, **params)
        st = m.init(n, dim=2)
        f = np.zeros((n, 2))
        out[name] = time_steps(lambda du: m.update(dt, du, normal, st, out=f), slips, clock)
    # NumPy LuGre, checked against Model.update on the same history
    p = {q["name"]: q["default"] for q in friction.describe("lugre")["parameters"]}
    m = friction.Model("lugre")
    st, f_r = m.init(n, dim=2), np.zeros((n, 2))
    z, f_n = np.zeros((n, 2)), np.zeros((n, 2))
    for du in slips:
        m.update(dt, du, normal, st, out=f_r)
        numpy_lugre(p, dt, du, normal, z, f_n)
    lugre_diff = float(np.max(np.abs(f_r - f_n)) / np.max(np.abs(f_n)))
    z = np.zeros((n, 2))
    out["numpy_lugre"] = time_steps(lambda du: numpy_lugre(p, dt, du, normal, z, f_n), slips, clock)
    # NumPy Jenkins
    kt, fs = 1e5, 1.0
    m = friction.Model("jenkins", kt=kt, fs=fs)
    st, f_r = m.init(n, dim=2), np.zeros((n, 2))
    u, sl, f_n = np.zeros((n, 2)), np.zeros((n, 2)), np.zeros((n, 2))
    for du in slips:
        m.update(dt, du, normal, st, out=f_r)
        numpy_jenkins(kt, fs, du, normal, u, sl, f_n)
    jenkins_diff = float(np.max(np.abs(f_r - f_n)) / np.max(np.abs(f_n)))
    u, sl = np.zeros((n, 2)), np.zeros((n, 2))
    out["numpy_jenkins"] = time_steps(lambda du: numpy_jenkins(kt, fs, du, normal, u, sl, f_n), slips, clock)
    assert lugre_diff < 1e-9 and jenkins_diff < 1e-9, (lugre_diff, jenkins_diff)
    out["lugre_diff"], out["jenkins_diff"] = lugre_diff, jenkins_diff
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--steps", type=int, default=20)
    args = ap.parse_args()
    n = args.n
    m = measure(n, args.steps)
    print(f"{n} planar contacts, median of {args.steps} steps, {os.cpu_count()} cores")
    for k in ["coulomb", "jenkins", "lugre", "iwan4", "numpy_lugre", "numpy_jenkins"]:
        print(f"{k:14s} {m[k] * 1e3:8.2f} ms/step  ({n / m[k] / 1e6:7.2f} M contact updates/s)")
    print(f"speed-up over NumPy: lugre {m['numpy_lugre'] / m['lugre']:.1f}x, "
          f"jenkins {m['numpy_jenkins'] / m['jenkins']:.1f}x; "
          f"force differences {m['lugre_diff']:.1e}, {m['jenkins_diff']:.1e}")


if __name__ == "__main__":
    main()

"""Model.update against the same update in vectorised NumPy, 10^6 LuGre contacts.

Both compute the exact LuGre update at constant slip velocity over a step
(Canudas de Wit, Olsson, Åström, Lischinsky 1995; the closed form of friction_models::update):

    v   = du / dt,  g = fc + (fs - fc) exp(-(v/vs)^2)
    z'  = zss + (z - zss) exp(-sigma0 |du| / g),  zss = sign(du) g / sigma0   (z' = z for du = 0)
    F   = N (sigma0 z' + sigma1 (v - sigma0 |v| z' / g) + sigma2 v)

NumPy keeps t, x, z as three arrays (its most favourable layout); Model.update
keeps the interleaved [t, x, z] state of finite-element codes. Both are timed in
the same run over the same slip history, both write the forces into an array
kept across steps (`out=`, as a time loop would), and the forces are checked
to agree.

    python bench/python/update_vs_numpy.py [--n 1000000] [--steps 20]

bench/compare/peers.py calls measure() with CPU time as the clock.
"""

import argparse
import os
import time

import numpy as np

import friction


def numpy_update(p, dt, du, normal, t, x, z, out):
    t += dt
    x += du
    v = du / dt
    g = p["fc"] + (p["fs"] - p["fc"]) * np.exp(-((v / p["vs"]) ** 2))
    s0 = p["sigma0"]
    length = g / s0
    zss = np.sign(du) * length
    z[:] = np.where(du != 0.0, zss + (z - zss) * np.exp(-np.abs(du) / length), z)
    zdot = v - s0 * np.abs(v) * z / g
    return np.multiply(normal, s0 * z + p["sigma1"] * zdot + p["sigma2"] * v, out=out)


#: Untimed warm-up of each side before its timed steps [s].
WARM_S = 0.2


def measure(n: int, steps: int, clock=time.perf_counter) -> dict:
    """Times Model.update and numpy_update on the same slip history (median
    of `steps` steps, by `clock`) and checks that the forces agree."""
    p = {q["name"]: q["default"] for q in friction.describe("lugre")["parameters"]}
    assert p.get("shape", "exponential") in ("exponential", "gaussian") and p.get("exponent", 2.0) == 2.0
    model = friction.Model("lugre")
    rng = np.random.default_rng(11)
    dt = 1e-4
    slips = [rng.normal(0.0, 2e-6, n) for _ in range(steps)]
    normal = rng.uniform(0.5, 2.0, n)

    # both sides write the forces into an array kept across steps (out=),
    # as a time loop would
    f_rust, f_np = np.zeros(n), np.zeros(n)
    # untimed warm-up on scratch states for WARM_S seconds, as criterion
    # does: on the 2-core virtual machine of the measurements the second
    # core idles while NumPy runs on one, and for about 50 ms after that
    # Model.update took 1.3 ms per call instead of 0.7 ms (10^5 contacts)
    warm = model.init(n)
    t_warm = clock()
    while clock() - t_warm < WARM_S:
        for du in slips[:5]:
            model.update(dt, du, normal, warm, out=f_rust)
    state = model.init(n)
    t_rust = []
    for du in slips:
        t0 = clock()
        model.update(dt, du, normal, state, out=f_rust)
        t_rust.append(clock() - t0)

    t, x, z = np.zeros(n), np.zeros(n), np.zeros(n)
    t_warm = clock()
    while clock() - t_warm < WARM_S:
        for du in slips[:5]:
            numpy_update(p, dt, du, normal, t, x, z, f_np)
    t, x, z = np.zeros(n), np.zeros(n), np.zeros(n)
    t_np = []
    for du in slips:
        t0 = clock()
        numpy_update(p, dt, du, normal, t, x, z, f_np)
        t_np.append(clock() - t0)

    err = np.max(np.abs(f_rust - f_np)) / np.max(np.abs(f_np))
    assert err < 1e-9, err
    return {"rust_s": float(np.median(t_rust)), "numpy_s": float(np.median(t_np)), "force_diff": float(err)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--steps", type=int, default=20)
    args = ap.parse_args()
    n = args.n
    m = measure(n, args.steps)
    r, q, err = m["rust_s"], m["numpy_s"], m["force_diff"]
    print(f"{n} LuGre contacts, median of {args.steps} steps, {os.cpu_count()} cores")
    print(f"Model.update      {r * 1e3:8.2f} ms/step  ({n / r / 1e6:6.1f} M contacts/s)")
    print(f"vectorised NumPy  {q * 1e3:8.2f} ms/step  ({n / q / 1e6:6.1f} M contacts/s)")
    print(f"speed-up {q / r:.1f}x; largest force difference {err:.1e} of the largest force")


if __name__ == "__main__":
    main()

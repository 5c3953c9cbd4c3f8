"""The SciPy/NumPy side of the comparison suite (bench/compare/README.md).

Solves the problems of the Rust side (src/main.rs) with the same equations,
tolerances and output grids, and prints one JSON document:

    {"side": "python", "rounds": R, "results": [{"case", "solver", "cpu_s", "steps", "error", ...}]}

`cpu_s` is the median over the rounds of `time.process_time()` for one run
(for the batch updates, of `time.perf_counter()`: wall clock on all cores).
Errors are measured against references computed here, in the same run
(never stored): LuGre and the chains against LSODA at rtol 1e-12, the free
decay against its closed form.

What each peer solves:
  lugre_stick_slip   examples/lugre_stick_slip.toml as an ODE in [x, v, z]:
                     odeint (LSODA, dense exact Jacobian) and
                     solve_ivp(method="Radau", exact Jacobian), rtol 1e-6.
  coulomb_free_decay examples/coulomb_free_decay.toml: solve_ivp(method="DOP853")
                     per half period, ended by an event at v = 0, where the
                     stick test |k x| <= Fs decides whether the mass stops
                     for good; rtol 1e-9.
  chain_*            the chains of src/main.rs (chain_text), state ordered per
                     mass [x, v(, z)] so that the Jacobian is banded: odeint
                     (LSODA) with ml/mu (banded finite-difference Jacobian).
  batch_*            Model.update of the Python package against vectorised
                     NumPy: LuGre through bench/python/update_vs_numpy.py,
                     Iwan-4 with 100 elements (+1 Dirac element) here.
  compiled peers     compiled.py (issue 31): numbalsoda, scikit-sundae's
                     CVODE, numba kernels, and the engine's LuGre sweep;
                     a peer that is not installed gets a "not installed" row.

    python bench/compare/peers.py [--rounds 3] [--quick] [--sizes 16,64,256,1024] [--budget 60] [--no-compiled]
"""

import argparse
import json
import os
import statistics
import sys
import time

import numpy as np
from scipy.integrate import odeint, solve_ivp

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

from common import (  # noqa: E402  (after the path set-up above)
    FC, FS, K, LUGRE_ATOL, LUGRE_ERROR, RATE, S0, S1, S2, VS, fastest_at_error, timed,
)


def g(v):
    return FC + (FS - FC) * np.exp(-((v / VS) ** 2))


def lugre_rhs(t, y):
    x, v, z = y
    gv = g(v)
    dz = v - S0 * abs(v) * z / gv
    f = S0 * z + S1 * dz + S2 * v
    return np.array([v, K * (RATE * t - x) - f, dz])


def lugre_jac(t, y):
    x, v, z = y
    e = np.exp(-((v / VS) ** 2))
    gv = FC + (FS - FC) * e
    dg = (FS - FC) * e * (-2.0 * v / VS**2)
    ddz_dv = 1.0 - S0 * z * (np.sign(v) * gv - abs(v) * dg) / gv**2
    ddz_dz = -S0 * abs(v) / gv
    return np.array(
        [
            [0.0, 1.0, 0.0],
            [-K, -(S1 * ddz_dv + S2), -(S0 + S1 * ddz_dz)],
            [0.0, ddz_dv, ddz_dz],
        ]
    )


def case_lugre(rounds, res):
    grid = np.arange(4001) * 0.005  # t_end 20, output_dt 0.005
    y0 = np.zeros(3)
    rtol, hmax = 1e-6, 0.05

    def lsoda(rtol, atol, hmax=hmax):
        y, info = odeint(lugre_rhs, y0, grid, Dfun=lugre_jac, tfirst=True, rtol=rtol, atol=atol,
                         hmax=hmax, mxstep=10**7, full_output=True)
        assert info["message"].startswith("Integration successful"), info["message"]
        return y[:, 0], int(info["nst"][-1])

    def radau():
        sol = solve_ivp(lugre_rhs, (0.0, grid[-1]), y0, method="Radau", jac=lugre_jac, rtol=rtol,
                        atol=LUGRE_ATOL, max_step=hmax, dense_output=True)
        assert sol.success, sol.message
        return sol.sol(grid)[0], len(sol.t) - 1

    x_ref, ref_steps = lsoda(1e-12, LUGRE_ATOL * 1e-6)
    cpu, (x, steps) = timed(rounds, lambda: lsoda(rtol, LUGRE_ATOL))
    res.append({"case": "lugre_stick_slip", "solver": "SciPy odeint (LSODA, dense exact Jacobian)",
                "cpu_s": cpu, "steps": steps, "error": float(np.max(np.abs(x - x_ref))), "rtol": rtol})
    cpu, (x, steps) = timed(rounds, radau)
    res.append({"case": "lugre_stick_slip", "solver": "SciPy solve_ivp Radau (exact Jacobian)",
                "cpu_s": cpu, "steps": steps, "error": float(np.max(np.abs(x - x_ref))), "rtol": rtol})
    # At the goal's accuracy (atol scaled with rtol), with the example's
    # largest step and without one (None; odeint's 0), as on the engine's side
    def at(r, h):
        return lsoda(r, LUGRE_ATOL * r / rtol, h or 0.0)

    def row(r, h):
        cpu, (x, steps) = timed(rounds, lambda: at(r, h))
        return {"case": "lugre_at_error", "solver": "SciPy odeint (LSODA, dense exact Jacobian)",
                "cpu_s": cpu, "steps": steps, "error": float(np.max(np.abs(x - x_ref))), "rtol": r,
                "max_step": h, "error_goal": LUGRE_ERROR}

    best = fastest_at_error((hmax, None), lambda r, h: np.max(np.abs(at(r, h)[0] - x_ref)), row)
    if best is not None:
        res.append(best)
    every = np.arange(0, 4001, 200)  # every 1 s
    res.append({"case": "lugre_stick_slip", "solver": "reference LSODA rtol 1e-12", "steps": ref_steps,
                "samples": [[float(grid[k]), float(x_ref[k])] for k in every]})
    return grid, x_ref


# ------------------------------------------------------------------ case 2
def decay_exact(t, m, k, fc, fs, x0):
    """Closed form: half periods of harmonic motion about ±fc/k, each ending
    at rest; the mass stays at the first rest where |k x| <= fs."""
    w = np.sqrt(k / m)
    half = np.pi / w
    x, t0 = x0, 0.0
    while True:
        if abs(k * x) <= fs:
            return x
        c = np.sign(x) * fc / k
        if t <= t0 + half:
            return c + (x - c) * np.cos(w * (t - t0))
        x = 2.0 * c - x
        t0 += half


def case_decay(rounds, res):
    m, k, fc, fs, x0, t_end = 1.0, 100.0, 0.981, 0.981, 0.1, 2.5
    grid = np.arange(2501) * 0.001
    rtol, atol = 1e-9, np.array([1e-12, 1e-12])

    def run():
        t0, y = 0.0, np.array([x0, 0.0])
        xs = np.empty_like(grid)
        steps = 0
        while True:
            if abs(k * y[0]) <= fs:  # sticks for good
                xs[grid >= t0] = y[0]
                return xs, steps
            s = -np.sign(y[0])  # direction of sliding; friction pushes with -s fc

            def rhs(t, y, s=s):
                return [y[1], (-k * y[0] - s * fc) / m]

            def stop(t, y, s=s):
                return y[1]

            stop.terminal, stop.direction = True, -s
            sol = solve_ivp(rhs, (t0, t_end), y, method="DOP853", rtol=rtol, atol=atol, events=stop,
                            dense_output=True)
            assert sol.success, sol.message
            steps += len(sol.t) - 1
            t1 = sol.t[-1]
            sel = (grid >= t0) & (grid <= t1)
            xs[sel] = sol.sol(grid[sel])[0]
            if sol.status == 0:  # reached t_end sliding
                return xs, steps
            t0, y = t1, np.array([sol.y_events[0][0][0], 0.0])

    cpu, (xs, steps) = timed(max(rounds, 5), run)
    exact = np.array([decay_exact(t, m, k, fc, fs, x0) for t in grid])
    res.append({"case": "coulomb_free_decay", "solver": "SciPy solve_ivp DOP853 + stop events",
                "cpu_s": cpu, "steps": steps, "error": float(np.max(np.abs(xs - exact))),
                "final_error": float(abs(xs[-1] - exact[-1])), "rtol": rtol})


# ------------------------------------------------------------------ case 3
def chain_rhs(lugre, n):
    per = 3 if lugre else 2
    kk = 100.0

    def rhs(t, y):
        y = y.reshape(n, per)
        x, v = y[:, 0], y[:, 1]
        left = np.empty(n)
        left[0] = RATE * t
        left[1:] = x[:-1]
        f = kk * (left - x)
        f[:-1] += kk * (x[1:] - x[:-1])
        dy = np.empty((n, per))
        dy[:, 0] = v
        if lugre:
            z = y[:, 2]
            dz = v - S0 * np.abs(v) * z / g(v)
            dy[:, 2] = dz
            fr = S0 * z + S1 * dz + S2 * v
        else:
            fr = np.tanh(1000.0 * v)
        dy[:, 1] = f - fr
        return dy.ravel()

    return rhs


def chain_lsoda(lugre, n, grid, rtol, scale=1.0):
    per = 3 if lugre else 2
    atol = np.tile(LUGRE_ATOL[:per], n) * scale
    # per mass [x, v(, z)]: dv_i depends on x_{i-1} and x_{i+1}
    ml, mu = (4, 2) if lugre else (3, 1)
    y, info = odeint(chain_rhs(lugre, n), np.zeros(per * n), grid, tfirst=True, rtol=rtol, atol=atol,
                     ml=ml, mu=mu, mxstep=10**7, full_output=True)
    assert info["message"].startswith("Integration successful"), info["message"]
    return y[:, ::per], int(info["nst"][-1])


def case_chains(rounds, sizes, budget, res):
    t_end = 2.0
    grid = np.arange(201) * 0.01
    for model in ("lugre", "coulomb_tanh"):
        lugre = model == "lugre"
        skip = False
        for n in sizes:
            case = f"chain_{model}_{n}"
            if skip:
                res.append({"case": case, "solver": "SciPy odeint (LSODA banded)",
                            "skipped": f"a smaller chain took longer than {budget} s"})
                continue
            cpu, (x, steps) = timed(rounds, lambda: chain_lsoda(lugre, n, grid, 1e-6))
            error = None
            if n == 16:
                x_ref, _ = chain_lsoda(lugre, n, grid, 1e-12, 1e-6)
                error = float(np.max(np.abs(x - x_ref)))
            res.append({"case": case, "solver": "SciPy odeint (LSODA banded)", "cpu_s": cpu, "steps": steps,
                        "error": error, "n": n, "model": model, "t_end": t_end, "cpu_per_sim_s": cpu / t_end})
            if cpu > budget:
                skip = True


# ------------------------------------------------------------------ case 4
def iwan4_elements(fs=1.0, kt=1e5, chi=-0.5, beta=0.1, n=100):
    """Segalman's four-parameter Iwan model discretised as in
    friction_models::models::iwan4 (exact bin integrals of the power law on
    geometric bins, plus the Dirac element): stiffnesses k_j, slip
    displacements phi_j."""
    c = beta + (chi + 1.0) / (chi + 2.0)
    pm = fs * (1.0 + beta) / (kt * c)
    kc = kt / (1.0 + beta)
    fcc = kc * pm * (chi + 1.0) / (chi + 2.0)
    if n == 1:
        edges = np.array([0.0, 1.0])
    else:
        xi1 = max(float(n) ** (-max(1.0 / (chi + 1.0), 2.0)), 1e-12)
        edges = np.concatenate([[0.0], xi1 ** ((n - np.arange(1, n + 1)) / (n - 1))])
        edges[n] = 1.0
    k = kc * (edges[1:] ** (chi + 1.0) - edges[:-1] ** (chi + 1.0))
    f = fcc * (edges[1:] ** (chi + 2.0) - edges[:-1] ** (chi + 2.0))
    phi = f / k
    if beta > 0.0:
        k, phi = np.append(k, beta * kc), np.append(phi, pm)
    return k, phi


def iwan_numpy_update(k, phi, du, normal, u, s, out):
    """One step of n Iwan contacts: u (n,) total slip, s (n, m) slider
    positions; F = sum_j k_j clamp(u - s_j, -phi_j, phi_j), written into out."""
    u += du
    e = np.clip(u[:, None] - s, -phi, phi)
    s[:] = u[:, None] - e
    return np.multiply(normal, e @ k, out=out)


def batch_iwan(n, steps, rounds):
    import friction
    import update_vs_numpy

    model = friction.Model("iwan4", n=100)
    k, phi = iwan4_elements(n=100)
    rng = np.random.default_rng(23)
    dt = 1e-4
    slips = [rng.normal(0.0, 5e-6, n) for _ in range(steps)]
    normal = rng.uniform(0.5, 2.0, n)
    t_rust, t_np = [], []
    # both sides write the forces into an array kept across steps (out=).
    # Every round of Model.update comes before NumPy's: after a matrix
    # product OpenBLAS's threads spin, waiting for more work, and took the
    # cores from Model.update's threads when the rounds alternated (0.9 ms
    # per step instead of 0.6; NumPy's time is the same either way). Both
    # sides warm up untimed first (see update_vs_numpy.measure).
    f_rust, f_np = np.zeros(n), np.zeros(n)
    warm = model.init(n)
    t_warm = time.perf_counter()
    while time.perf_counter() - t_warm < update_vs_numpy.WARM_S:
        for du in slips[:5]:
            model.update(dt, du, normal, warm, out=f_rust)
    for _ in range(rounds):
        state = model.init(n)
        for du in slips:
            t0 = time.perf_counter()
            model.update(dt, du, normal, state, out=f_rust)
            t_rust.append(time.perf_counter() - t0)
    u, s = np.zeros(n), np.zeros((n, len(k)))
    t_warm = time.perf_counter()
    while time.perf_counter() - t_warm < update_vs_numpy.WARM_S:
        for du in slips[:5]:
            iwan_numpy_update(k, phi, du, normal, u, s, f_np)
    for _ in range(rounds):
        u, s = np.zeros(n), np.zeros((n, len(k)))
        for du in slips:
            t0 = time.perf_counter()
            iwan_numpy_update(k, phi, du, normal, u, s, f_np)
            t_np.append(time.perf_counter() - t0)
    diff = float(np.max(np.abs(f_rust - f_np)) / np.max(np.abs(f_np)))
    assert diff < 1e-9, diff
    return statistics.median(t_rust), statistics.median(t_np), diff


def case_batch(rounds, quick, res):
    import update_vs_numpy

    steps = 5 if quick else 20
    for n in ([10_000] if quick else [100_000, 1_000_000]):
        # wall-clock: the goal is set "on two cores", and Model.update
        # spreads its contacts over both (its CPU time is the sum over them)
        runs = [update_vs_numpy.measure(n, steps, clock=time.perf_counter) for _ in range(rounds)]
        r = statistics.median(m["rust_s"] for m in runs)
        q = statistics.median(m["numpy_s"] for m in runs)
        case = f"batch_lugre_{n}"
        res.append({"case": case, "solver": "friction Model.update", "cpu_s": r, "n": n, "per": "step",
                    "error": max(m["force_diff"] for m in runs)})
        res.append({"case": case, "solver": "NumPy vectorised", "cpu_s": q, "n": n, "per": "step"})
    n = 1_000 if quick else 10_000
    r, q, diff = batch_iwan(n, steps, rounds)
    case = f"batch_iwan4_100_{n}"
    res.append({"case": case, "solver": "friction Model.update", "cpu_s": r, "n": n, "per": "step", "error": diff})
    res.append({"case": case, "solver": "NumPy vectorised", "cpu_s": q, "n": n, "per": "step"})


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="one round, smallest sizes (smoke test)")
    ap.add_argument("--sizes", default="16,64,256,1024")
    ap.add_argument("--budget", type=float, default=60.0)
    ap.add_argument("--no-batch", action="store_true", help="skip case 4 (needs the friction package)")
    ap.add_argument("--no-compiled", action="store_true",
                    help="skip the compiled peers of compiled.py (numbalsoda, scikit-sundae, numba)")
    a = ap.parse_args()
    rounds = 1 if a.quick else a.rounds
    sizes = [16] if a.quick else [int(s) for s in a.sizes.split(",")]
    res = []
    grid, x_ref = case_lugre(rounds, res)
    case_decay(rounds, res)
    case_chains(rounds, sizes, a.budget, res)
    if not a.no_batch:
        case_batch(rounds, a.quick, res)
    if not a.no_compiled:
        import compiled

        compiled.run_all(rounds, a.quick, sizes, a.budget, res, grid, x_ref, chain_lsoda, decay_exact,
                         batch=not a.no_batch)
    json.dump({"side": "python", "rounds": rounds, "results": res}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()

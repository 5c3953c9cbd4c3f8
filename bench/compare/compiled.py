"""The compiled peers of the comparison suite (issue 31): numbalsoda's LSODA
with a numba `cfunc` right-hand side, SUNDIALS CVODE through scikit-sundae
(`sksundae`) with numba-compiled right-hand sides, and a numba
`@njit(parallel=True)` LuGre batch kernel. peers.py calls `run_all`.

Every peer solves the equations of peers.py (same parameters, output grids
and absolute tolerances where the peer takes a vector of them) and is timed
after its compilation (numba compiles on first call; each case calls its
solver once, untimed, before the timed rounds). A package that is not
installed gives one row per case with `"skipped": "not installed: ..."`,
never a silent gap.

What each peer solves:
  lugre_at_error      numbalsoda LSODA (finite-difference Jacobian, one atol
                      for all states: each of peers.py's three, scaled with
                      rtol, the fastest that reaches the error kept; no
                      maximum step: numbalsoda has none) and CVODE
                      BDF with the dense linear solver (its finite-difference
                      Jacobian; the example's max_step 0.05 and none, the
                      faster kept, as for the engine), each at the loosest
                      rtol of the ladder reaching 1e-5 m.
  chain_*             CVODE BDF with the banded linear solver (bandwidths
                      as LSODA's in peers.py, finite-difference banded
                      Jacobian), rtol 1e-6, per simulated second.
  coulomb_free_decay  CVODE Adams with a root at v = 0 (terminal), restarted
                      per half period; the stick test |k x| <= Fs decides
                      whether the mass stops for good; rtol 1e-9.
  sweep_lugre_fc      1,000 LuGre runs, fc on np.linspace(0.5, 1.5, 1000)
                      (0.5 to 1.5 of the example's fc = 1), x(20 s) of each
                      within 1e-5 m of numbalsoda LSODA at rtol 1e-12;
                      numbalsoda in a numba `prange` loop (2 threads) against
                      the engine's `friction.sweep` (the core of
                      `friction sweep`, on rayon's threads), each at the
                      loosest rtol of the ladder whose worst point is within
                      1e-5 m (the engine with the example's max_step and
                      without, the faster kept); wall clock for both (both
                      use the 2 cores).
  batch_lugre_*       numba @njit(parallel=True) LuGre update (the closed
                      form of bench/python/update_vs_numpy.py) against
                      Model.update, wall clock, same slips.
"""

import math
import os
import statistics
import time

import numpy as np

# numba's parallel loops on its "workqueue" threads unless told otherwise: on
# this 2-core machine, shared with compiling engineers, its OpenMP layer took
# 12 ms per parallel call whatever the size (its threads' barrier waits a
# scheduler slice), workqueue 0.5 ms at 10^4 contacts
os.environ.setdefault("NUMBA_THREADING_LAYER", "workqueue")

from common import FC, FS, K, LUGRE_ATOL, LUGRE_ERROR, RATE, S0, S1, S2, VS, fastest_at_error, timed

SWEEP_N = 1000
#: numbalsoda's single absolute tolerance at rtol 1e-6: the example's state,
#: velocity and position tolerances, each tried (the fastest that reaches the
#: error is kept)
ATOL_CHOICES = tuple(sorted(float(a) for a in LUGRE_ATOL))
SWEEP_FC = (0.5, 1.5)


def missing(name):
    try:
        __import__(name)
        return None
    except ImportError as e:  # reported in the table, never dropped
        return f"not installed: {name} ({e})"


# ------------------------------------------------------------------ numba kernels
def _kernels():
    """Compiles (lazily) the numba functions; imported only when numba is."""
    import numba as nb
    from numbalsoda import lsoda, lsoda_sig

    @nb.cfunc(lsoda_sig)
    def lugre_cf(t, u, du, p):
        # p[0] = fc, p[1] counts the evaluations
        v, z = u[1], u[2]
        fc = p[0]
        gv = fc + (FS - fc) * math.exp(-((v / VS) ** 2))
        dz = v - S0 * abs(v) * z / gv
        du[0] = v
        du[1] = K * (RATE * t - u[0]) - (S0 * z + S1 * dz + S2 * v)
        du[2] = dz
        p[1] += 1.0

    addr = lugre_cf.address

    @nb.njit(parallel=True)
    def sweep(fcs, t_eval, rtol, atol):
        n = fcs.shape[0]
        out = np.empty(n)
        ok = np.empty(n, dtype=np.bool_)
        for i in nb.prange(n):
            data = np.array([fcs[i], 0.0])
            u0 = np.zeros(3)
            usol, success = lsoda(addr, u0, t_eval, data=data, rtol=rtol, atol=atol, mxstep=10**7)
            out[i] = usol[-1, 0]
            ok[i] = success
        return out, ok

    @nb.njit(cache=False)
    def lugre_rhs(t, y, yp):
        v, z = y[1], y[2]
        gv = FC + (FS - FC) * math.exp(-((v / VS) ** 2))
        dz = v - S0 * abs(v) * z / gv
        yp[0] = v
        yp[1] = K * (RATE * t - y[0]) - (S0 * z + S1 * dz + S2 * v)
        yp[2] = dz

    @nb.njit(cache=False)
    def chain_rhs(t, y, yp, per, lugre):
        n = y.shape[0] // per
        kk = 100.0
        for i in range(n):
            x = y[per * i]
            v = y[per * i + 1]
            left = RATE * t if i == 0 else y[per * (i - 1)]
            f = kk * (left - x)
            if i + 1 < n:
                f += kk * (y[per * (i + 1)] - x)
            if lugre:
                z = y[per * i + 2]
                gv = FC + (FS - FC) * math.exp(-((v / VS) ** 2))
                dz = v - S0 * abs(v) * z / gv
                yp[per * i + 2] = dz
                fr = S0 * z + S1 * dz + S2 * v
            else:
                fr = math.tanh(1000.0 * v)
            yp[per * i] = v
            yp[per * i + 1] = f - fr

    @nb.njit(parallel=True, fastmath=False)
    def lugre_batch(fc, fs, vs, s0, s1, s2, dt, du, normal, t, x, z, out):
        for i in nb.prange(du.shape[0]):
            d = du[i]
            t[i] += dt
            x[i] += d
            v = d / dt
            g = fc + (fs - fc) * math.exp(-((v / vs) ** 2))
            length = g / s0
            if d != 0.0:
                zss = math.copysign(length, d)
                z[i] = zss + (z[i] - zss) * math.exp(-abs(d) / length)
            zdot = v - s0 * abs(v) * z[i] / g
            out[i] = normal[i] * (s0 * z[i] + s1 * zdot + s2 * v)

    @nb.njit
    def decay_rhs(y, yp, k, fc, m, s):
        yp[0] = y[1]
        yp[1] = (-k * y[0] - s * fc) / m

    return {"decay_rhs": decay_rhs, "lsoda": lsoda, "lugre_addr": addr, "sweep": sweep, "lugre_rhs": lugre_rhs,
            "chain_rhs": chain_rhs, "lugre_batch": lugre_batch}


def per_call(f, args, calls=20000):
    """Median CPU time of one call of f(*args) from Python [s]."""
    f(*args)
    times = []
    for _ in range(5):
        t0 = time.process_time()
        for _ in range(calls):
            f(*args)
        times.append((time.process_time() - t0) / calls)
    return statistics.median(times)


# ------------------------------------------------------------------ LuGre, one run
def case_lugre(kern, rounds, grid, x_ref, res):
    y0 = np.zeros(3)
    if kern is None or isinstance(kern, str):
        for solver in ("numbalsoda LSODA", "CVODE BDF dense"):
            res.append({"case": "lugre_at_error", "solver": solver, "skipped": kern})
        return

    lsoda, addr = kern["lsoda"], kern["lugre_addr"]

    def nb_run(r, a0):
        data = np.array([FC, 0.0])
        usol, ok = lsoda(addr, y0, grid, data=data, rtol=r, atol=a0 * r / 1e-6, mxstep=10**7)
        assert ok, f"numbalsoda failed at rtol {r}"
        return usol[:, 0], int(data[1])

    # numbalsoda takes one atol for all states: each of the example's three
    # (state, velocity, position; scaled with rtol) with the loosest rtol of
    # the ladder that reaches the error, the fastest of the three kept
    def nb_row(r, a0):
        cpu, (x, nfev) = timed(max(rounds, 5), lambda: nb_run(r, a0))
        return {"case": "lugre_at_error", "solver": "numbalsoda LSODA (numba cfunc)", "cpu_s": cpu,
                "steps": None, "rhs_evals": nfev, "error": float(np.max(np.abs(x - x_ref))),
                "rtol": r, "atol": a0 * r / 1e-6, "error_goal": LUGRE_ERROR}

    best = fastest_at_error(ATOL_CHOICES, lambda r, a0: np.max(np.abs(nb_run(r, a0)[0] - x_ref)), nb_row)
    res.append(best or {"case": "lugre_at_error", "solver": "numbalsoda LSODA", "skipped": "no rtol of the ladder"})

    skip = missing("sksundae")
    if skip:
        res.append({"case": "lugre_at_error", "solver": "CVODE BDF dense", "skipped": skip})
        return
    import sksundae as sun

    rhs_nb = kern["lugre_rhs"]

    def rhs(t, y, yp):
        rhs_nb(t, y, yp)

    def cv_run(r, h_max):
        # h_max None: no largest step (the run's 20 s)
        h_max = h_max or float(grid[-1])
        # CVODE's own finite-difference Jacobian: with the exact one through
        # a second Python callback the run took longer (38 against 29 ms)
        s = sun.cvode.CVODE(rhs, method="BDF", linsolver="dense", rtol=r,
                            atol=LUGRE_ATOL * r / 1e-6, max_step=h_max, max_num_steps=10**7)
        sol = s.solve(grid, y0)
        assert sol.success, sol.message
        return sol.y[:, 0], sol.nfev

    yp = np.zeros(3)
    call_s = per_call(rhs, (0.5, np.array([0.01, 0.05, 1e-6]), yp))
    # with the example's largest step and without one, as on the engine's side
    def cv_row(r, h_max):
        cpu, (x, nfev) = timed(max(rounds, 5), lambda: cv_run(r, h_max))
        return {"case": "lugre_at_error", "solver": "CVODE BDF dense (scikit-sundae, numba RHS)",
                "cpu_s": cpu, "steps": None, "rhs_evals": int(nfev), "rhs_call_s": call_s,
                "error": float(np.max(np.abs(x - x_ref))), "rtol": r, "max_step": h_max,
                "error_goal": LUGRE_ERROR}

    best = fastest_at_error((0.05, None), lambda r, h: np.max(np.abs(cv_run(r, h)[0] - x_ref)), cv_row)
    if best is not None:
        res.append(best)


# ------------------------------------------------------------------ chains
def _chain_callback(crhs, per, lugre):
    """CVODE's callback f(t, y, yp) (sksundae checks the arity) into the
    numba kernel."""

    def rhs(t, y, yp):
        crhs(t, y, yp, per, lugre)

    return rhs


def case_chains(kern, rounds, sizes, budget, res, chain_lsoda):
    t_end = 2.0
    grid = np.arange(201) * 0.01
    skip = kern if isinstance(kern, str) else missing("sksundae")
    for model in ("lugre", "coulomb_tanh"):
        lugre = model == "lugre"
        per = 3 if lugre else 2
        ml, mu = (4, 2) if lugre else (3, 1)
        over = None
        for n in sizes:
            case = f"chain_{model}_{n}"
            if skip or over:
                res.append({"case": case, "solver": "CVODE BDF banded", "skipped": skip or over})
                continue
            import sksundae as sun

            crhs = kern["chain_rhs"]

            rhs = _chain_callback(crhs, per, lugre)

            atol = np.tile(LUGRE_ATOL[:per], n)

            def run(n=n, rhs=rhs, atol=atol):
                s = sun.cvode.CVODE(rhs, method="BDF", linsolver="band", lband=ml, uband=mu, rtol=1e-6,
                                    atol=atol, max_num_steps=10**7)
                sol = s.solve(grid, np.zeros(per * n))
                assert sol.success, sol.message
                return sol.y[:, ::per], sol.nfev

            run()  # numba compiles the kernel for this signature
            cpu, (x, nfev) = timed(rounds, run)
            call_s = per_call(rhs, (0.5, np.full(per * n, 1e-3), np.zeros(per * n)), calls=2000)
            error = None
            if n == 16:
                x_ref, _ = chain_lsoda(lugre, n, grid, 1e-12, 1e-6)
                error = float(np.max(np.abs(x - x_ref)))
            res.append({"case": case, "solver": "CVODE BDF banded (scikit-sundae, numba RHS)", "cpu_s": cpu,
                        "steps": None, "rhs_evals": int(nfev), "rhs_call_s": call_s, "error": error, "n": n,
                        "model": model, "t_end": t_end, "cpu_per_sim_s": cpu / t_end})
            if cpu > budget:
                over = f"a smaller chain took longer than {budget} s"


# ------------------------------------------------------------------ free decay
def case_decay(kern, rounds, res, decay_exact):
    skip = kern if isinstance(kern, str) else missing("sksundae")
    if skip:
        res.append({"case": "coulomb_free_decay", "solver": "CVODE Adams + roots", "skipped": skip})
        return
    import sksundae as sun

    m, k, fc, fs, x0, t_end = 1.0, 100.0, 0.981, 0.981, 0.1, 2.5
    grid = np.arange(2501) * 0.001
    sgn = [1.0]

    drhs = kern["decay_rhs"]

    def rhs(t, y, yp):
        drhs(y, yp, k, fc, m, sgn[0])

    def stop(t, y, ev):
        ev[0] = y[1]

    def run():
        t0, y = 0.0, np.array([x0, 0.0])
        xs = np.empty_like(grid)
        xs[0] = x0
        nfev = 0
        while True:
            if abs(k * y[0]) <= fs:  # sticks for good
                xs[grid >= t0] = y[0]
                return xs, nfev
            sgn[0] = -np.sign(y[0])  # direction of sliding
            stop.terminal, stop.direction = [True], [int(-sgn[0])]
            sel = grid > t0
            tspan = np.concatenate([[t0], grid[sel]])
            s = sun.cvode.CVODE(rhs, method="Adams", rtol=1e-9, atol=1e-12, eventsfn=stop, num_events=1,
                                max_num_steps=10**7)
            sol = s.solve(tspan, y)
            assert sol.success, sol.message
            nfev += sol.nfev
            ts = sol.t[1:]
            got = len(ts)
            idx = np.nonzero(sel)[0][:got]
            if sol.t_events is None:  # reached t_end sliding
                xs[idx] = sol.y[1:, 0]
                return xs, nfev
            te = float(sol.t_events[0])
            keep = ts < te
            xs[idx[keep]] = sol.y[1:, 0][keep]
            t0, y = te, np.array([float(sol.y_events[0][0]), 0.0])

    run()
    cpu, (xs, nfev) = timed(max(rounds, 5), run)
    exact = np.array([decay_exact(t, m, k, fc, fs, x0) for t in grid])
    res.append({"case": "coulomb_free_decay", "solver": "CVODE Adams + roots (scikit-sundae)", "cpu_s": cpu,
                "steps": None, "rhs_evals": int(nfev), "error": float(np.max(np.abs(xs - exact))), "rtol": 1e-9})


# ------------------------------------------------------------------ sweep
def case_sweep(kern, rounds, res, quick):
    import tomllib

    import friction

    n = 50 if quick else SWEEP_N
    fcs = np.linspace(SWEEP_FC[0] * FC, SWEEP_FC[1] * FC, n)
    grid = np.array([0.0, 20.0])
    case = f"sweep_lugre_fc_{n}"
    if isinstance(kern, str):
        res.append({"case": case, "solver": "numbalsoda LSODA in numba prange", "skipped": kern})
        kern = None
    from scipy.integrate import odeint

    def one(fc):
        def rhs(t, y):
            gv = fc + (FS - fc) * np.exp(-((y[1] / VS) ** 2))
            dz = y[1] - S0 * abs(y[1]) * y[2] / gv
            return [y[1], K * (RATE * t - y[0]) - (S0 * y[2] + S1 * dz + S2 * y[1]), dz]

        return odeint(rhs, np.zeros(3), grid, tfirst=True, rtol=1e-12, atol=LUGRE_ATOL * 1e-6, hmax=0.05,
                      mxstep=10**7)[-1, 0]

    if kern is not None:
        ref, ok = kern["sweep"](fcs, grid, 1e-12, 1e-17)
        assert ok.all()
        # the reference checked at 5 points against SciPy's LSODA (another code)
        pts = np.linspace(0, n - 1, 5).astype(int)
        ref_check = float(max(abs(one(fcs[i]) - ref[i]) for i in pts))
    else:  # the reference without numba: SciPy's LSODA at rtol 1e-12 on each point
        ref = np.array([one(fc) for fc in fcs])
        ref_check = None
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    with open(os.path.join(root, "examples", "lugre_stick_slip.toml"), "rb") as f:
        base = tomllib.load(f)

    def scenario(r, max_step):
        s = {**base, "solver": dict(base["solver"])}
        s["solver"]["rtol"] = r
        # None: no largest step (the whole run)
        s["solver"]["max_step"] = max_step or base["solver"]["t_end"]
        s["solver"]["atol"] = {k: v * r / 1e-6 for k, v in base["solver"]["atol"].items()}
        s["solver"]["output_dt"] = 20.0
        return s

    def engine(r, max_step):
        out = friction.sweep(scenario(r, max_step), {"contact.c.fc": list(fcs)}, ["final.x.m", "stats.steps"], progress=False)
        return np.asarray(out["final.x.m"], dtype=float), np.asarray(out["stats.steps"], dtype=float)

    def wall(rounds, f):
        times = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            out = f()
            times.append(time.perf_counter() - t0)
        return statistics.median(times), out

    rows = []

    # the engine with the example's largest step and without one, as for the
    # single run; wall clock on both sides
    def engine_row(r, h_max):
        t, (x, steps) = wall(max(rounds, 3), lambda: engine(r, h_max))
        return {"case": case, "solver": "friction.sweep (rayon, 2 threads)", "cpu_s": t, "wall": True,
                "steps": int(steps.sum()), "error": float(np.max(np.abs(x - ref))), "rtol": r,
                "max_step": h_max, "n": n, "ref_check": ref_check}

    best = fastest_at_error((base["solver"]["max_step"], None),
                            lambda r, h: np.max(np.abs(engine(r, h)[0] - ref)), engine_row)
    if best is not None:
        rows.append(best)
    if kern is not None:
        def nb_sweep(r, a0):
            return kern["sweep"](fcs, grid, r, a0 * r / 1e-6)

        def nb_error(r, a0):
            x, ok = nb_sweep(r, a0)
            return np.max(np.abs(x - ref)) if ok.all() else np.inf

        def nb_row(r, a0):
            t, (x, ok) = wall(max(rounds, 3), lambda: nb_sweep(r, a0))
            return {"case": case, "solver": "numbalsoda LSODA in numba prange (2 threads)", "cpu_s": t,
                    "wall": True, "steps": None, "error": float(np.max(np.abs(x - ref))), "rtol": r,
                    "atol": a0 * r / 1e-6, "n": n}

        best = fastest_at_error(ATOL_CHOICES, nb_error, nb_row)
        rows.append(best or {"case": case, "solver": "numbalsoda LSODA in numba prange", "skipped": "no rtol"})
    res.extend(rows)


# ------------------------------------------------------------------ batch
def case_batch(kern, rounds, quick, res):
    sizes = [10_000] if quick else [100_000, 1_000_000]
    for n in sizes:
        case = f"batch_lugre_{n}"
        if isinstance(kern, str):
            res.append({"case": case, "solver": "numba parallel kernel", "skipped": kern})
            continue
        import friction
        import update_vs_numpy

        p = {q["name"]: q["default"] for q in friction.describe("lugre")["parameters"]}
        model = friction.Model("lugre")
        rng = np.random.default_rng(11)
        dt, steps = 1e-4, (5 if quick else 20)
        slips = [rng.normal(0.0, 2e-6, n) for _ in range(steps)]
        normal = rng.uniform(0.5, 2.0, n)
        kb = kern["lugre_batch"]
        args = (p["fc"], p["fs"], p["vs"], p["sigma0"], p["sigma1"], p["sigma2"], dt)
        f_rust, f_nb = np.zeros(n), np.zeros(n)
        t_r, t_n = [], []
        for _ in range(rounds):
            state = model.init(n)
            t0w = time.perf_counter()
            while time.perf_counter() - t0w < update_vs_numpy.WARM_S:
                model.update(dt, slips[0], normal, model.init(n), out=f_rust)
            for du in slips:
                t0 = time.perf_counter()
                model.update(dt, du, normal, state, out=f_rust)
                t_r.append(time.perf_counter() - t0)
            tt, xx, zz = np.zeros(n), np.zeros(n), np.zeros(n)
            t0w = time.perf_counter()
            while time.perf_counter() - t0w < update_vs_numpy.WARM_S:
                kb(*args, slips[0], normal, np.zeros(n), np.zeros(n), np.zeros(n), f_nb)
            for du in slips:
                t0 = time.perf_counter()
                kb(*args, du, normal, tt, xx, zz, f_nb)
                t_n.append(time.perf_counter() - t0)
        diff = float(np.max(np.abs(f_rust - f_nb)) / np.max(np.abs(f_nb)))
        assert diff < 1e-9, diff
        res.append({"case": case, "solver": "numba @njit(parallel=True)", "cpu_s": statistics.median(t_n), "n": n,
                    "per": "step", "error": diff, "friction_s": statistics.median(t_r)})


def run_all(rounds, quick, sizes, budget, res, lugre_grid, lugre_ref, chain_lsoda, decay_exact, batch=True):
    """Every compiled peer's rows, appended to `res`."""
    kern = missing("numba") or missing("numbalsoda")
    if kern is None:
        kern = _kernels()
    case_lugre(kern, rounds, lugre_grid, lugre_ref, res)
    case_decay(kern, rounds, res, decay_exact)
    case_chains(kern, rounds, sizes, budget, res, chain_lsoda)
    case_sweep(kern, rounds, res, quick)
    if batch:
        case_batch(kern, rounds, quick, res)

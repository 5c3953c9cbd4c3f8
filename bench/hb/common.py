"""What the benchmarks against pyharm-os share: running each code as a process
(pyharm-os in a fresh interpreter as a user runs it, `friction frf` as the
installed command), pyharm-os's solve with its timings, and the printing of
times and relative differences.

Used by frf_vs_pyharm.py and frf_gap_vs_pyharm.py (bench/hb/run.sh runs both).
"""

import csv
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np


def pyharm_solve(inp):
    """pyharm-os on the input dictionary `inp` in this process: its analysis `frf`, the
    indices of the fundamental's cosine and sine in a solution, its dynamic operators,
    and the timings (import, build, solve, pyharm-os's own time to solve, steps)."""
    import warnings
    warnings.filterwarnings("ignore", module="numba")  # NumbaPerformanceWarning while compiling
    warnings.filterwarnings("ignore", message=".*contiguous arrays")  # the same, attributed to pyHarm
    t0 = time.perf_counter()
    import logging
    import pyHarm
    t_import = time.perf_counter() - t0
    logging.disable(logging.CRITICAL)
    t1 = time.perf_counter()
    maestro = pyHarm.Maestro(inp)
    t_build = time.perf_counter() - t1
    t2 = time.perf_counter()
    maestro.operate()
    t_solve = time.perf_counter() - t2
    ana = maestro.nls["frf"]
    edf = maestro.system.expl_dofs
    ic = edf.index[(edf["harm"] == 1) & (edf["cs"] == "c")][0]
    is_ = edf.index[(edf["harm"] == 1) & (edf["cs"] == "s")][0]
    timings = {"import_s": t_import, "build_s": t_build, "solve_s": t_solve,
               "pyharm_timetosolve_s": ana.timetosolve, "steps": len(ana.SolList)}
    return ana, (ic, is_), maestro.system.dynop, timings


def fundamental(sol, ic_is):
    """Amplitude of the fundamental of a pyharm-os solution, in its own units."""
    ic, is_ = ic_is
    return float(math.hypot(sol.x[ic], sol.x[is_]))


def run_pyharm(script, h, samples, ds_max):
    """pyharm-os in a fresh interpreter (as a user runs it): `script --pyharm-worker H SAMPLES
    DS_MAX OUT` writes its results as JSON to OUT; returns them with the wall time."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "pyharm.json")
        t0 = time.perf_counter()
        # cwd: pyHarm writes its kernel state to ./.pyHarm/context.json
        subprocess.run([sys.executable, os.path.abspath(script), "--pyharm-worker", str(h), str(samples),
                        str(ds_max), out], check=True, cwd=d)
        wall = time.perf_counter() - t0
        with open(out) as fh:
            r = json.load(fh)
    r["wall_s"] = wall
    return r


def run_friction(exe, scenario, force, f_min, f_max, h, samples, check=True):
    """`friction frf` as a process: wall time (start-up and writing its files included), its
    frf.csv rows and summary.json; `h` or `samples` None: the command's own choice. None if
    it failed and not `check`."""
    with tempfile.TemporaryDirectory() as d:
        cmd = [exe, "frf", scenario, "--force", force, "--f-min", str(f_min), "--f-max", str(f_max),
               "--out", d, "--svg"]
        if h is not None:
            cmd += ["--harmonics", str(h)]
        if samples is not None:
            cmd += ["--samples", str(samples)]
        t0 = time.perf_counter()
        done = subprocess.run(cmd, check=check, stdout=subprocess.DEVNULL,
                              stderr=None if check else subprocess.DEVNULL)
        wall = time.perf_counter() - t0
        if done.returncode != 0:
            return None
        with open(os.path.join(d, "frf.csv")) as fh:
            rows = list(csv.DictReader(fh))
        with open(os.path.join(d, "summary.json")) as fh:
            summary = json.load(fh)
    return {"wall_s": wall, "rows": rows, "summary": summary}


def spread(xs):
    """Median and range of wall times."""
    return f"{np.median(xs):.3f} s (min {min(xs):.3f}, max {max(xs):.3f})"


def rel(a, b):
    """Relative difference of a from b."""
    return (a - b) / b

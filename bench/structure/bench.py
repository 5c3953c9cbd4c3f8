#!/usr/bin/env python3
"""Issue 44's speed benchmark: a 1,000-DOF bar with 50 Jenkins
dampers (make_model.py) through `friction frf`, `friction nnm` and
`friction run` (the release binary) and the same frequency response through
pyharm-os (its `substructure` takes the matrices), alternating in one run.

    bench.py --friction EXE --model DIR [--rounds 1] [--timeout 600] [--no-pyharm]

Each case runs as its own process (start-up included in its wall time);
a case past --timeout seconds is stopped and reported so.
"""

import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile
import time

F_MIN, F_MAX = 150.0, 500.0  # Hz, through the first mode (250 Hz with the dampers slipping)
H, SAMPLES = 3, 256  # harmonics and time samples, both codes
KT, FS, FORCE, ALPHA, BETA = 1e5, 1.0, 10.0, 10.0, 1e-6  # as make_model.py writes them


def brief(err):
    """An error message's first 200 and last 200 characters (where it failed, and why)."""
    err = err.strip()
    return err if len(err) <= 420 else err[:200] + " [...] " + err[-200:]


def timed(cmd, timeout, cwd=None):
    """(wall seconds, completed process or None when stopped at the timeout)."""
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - t0, None
    return time.perf_counter() - t0, p


# ---------------------------------------------------------------- friction side

def layout(model):
    """(DOFs, the tip's DOF, the dampers' DOFs) of make_model.py's model.json."""
    with open(os.path.join(model, "model.json")) as fh:
        m = json.load(fh)
    return m["dofs"], m["tip_dof"], m["joint_dofs"]


def friction_frf(exe, model, timeout):
    with tempfile.TemporaryDirectory() as d:
        cmd = [exe, "frf", os.path.join(model, "scenario.toml"), "--force", "shaker", "--f-min", str(F_MIN),
               "--f-max", str(F_MAX), "--harmonics", str(H), "--samples", str(SAMPLES), "--out", d, "--svg"]
        wall, p = timed(cmd, timeout)
        if p is None or p.returncode != 0:
            return {"wall": wall, "ok": False, "note": "timeout" if p is None else brief(p.stderr)}
        with open(os.path.join(d, "frf.csv")) as fh:
            rows = list(csv.DictReader(fh))
        col = f"a.beam:{layout(model)[1]}"
        f = [float(r["f"]) for r in rows]
        a = [float(r[col]) for r in rows]
        i = max(range(len(a)), key=a.__getitem__)
        return {"wall": wall, "ok": True, "points": len(rows), "peak_f": f[i], "peak_a": a[i], "f": f, "a": a}


def friction_nnm(exe, model, timeout, h=H):
    with tempfile.TemporaryDirectory() as d:
        cmd = [exe, "nnm", os.path.join(model, "scenario.toml"), "--amplitudes", "1e-6:1e-2:30", "--harmonics",
               str(h), "--out", d, "--svg"]
        wall, p = timed(cmd, timeout)
        if p is None or p.returncode != 0:
            return {"wall": wall, "ok": False, "note": "timeout" if p is None else brief(p.stderr)}
        with open(os.path.join(d, "backbone.csv")) as fh:
            rows = list(csv.DictReader(fh))
        return {"wall": wall, "ok": True, "points": len(rows), "f0": float(rows[0]["f"]), "f1": float(rows[-1]["f"])}


def friction_run(exe, model, timeout):
    with tempfile.TemporaryDirectory() as d:
        cmd = [exe, "run", os.path.join(model, "scenario.toml"), "--out", d]
        wall, p = timed(cmd, timeout)
        if p is None or p.returncode != 0:
            return {"wall": wall, "ok": False, "note": "timeout" if p is None else brief(p.stderr)}
        return {"wall": wall, "ok": True}


# ---------------------------------------------------------------- pyharm-os side

def pyharm_input(model):
    import numpy as np
    import scipy.io
    m = np.asarray(scipy.io.mmread(os.path.join(model, "M.mtx")).todense())
    k = np.asarray(scipy.io.mmread(os.path.join(model, "K.mtx")).todense())
    c = ALPHA * m + BETA * k
    _, tip, joints = layout(model)
    con = {}
    for i, node in enumerate(joints):
        con[f"d{i + 1}"] = {"type": "Jenkins", "connect": {"beam": [node]}, "dirs": [0], "k": KT, "mu": 1.0,
                            "N0": FS}
    con["shaker"] = {"type": "SinusForcing", "connect": {"beam": [tip]}, "dirs": [0], "amp": FORCE}
    return {
        "system": {"type": "Base", "nh": H, "nti": SAMPLES, "adim": {"status": False, "lc": 1.0, "wc": 1.0}},
        "substructures": {"beam": {"type": "substructure", "ndofs": 1, "nmodes": 0,
                                   "matrix": {"M": m, "K": k, "C": c}}},
        "connectors": con,
        "analysis": {"frf": {"study": "frf", "puls_inf": 2 * math.pi * F_MIN, "puls_sup": 2 * math.pi * F_MAX,
                             "ds0": 1.0, "ds_max": 5.0, "ds_min": 1e-8, "verbose": False,
                             "reductors": [{"type": "NLdofs"}]}},
    }


def pyharm_worker(model, out):
    import logging
    import warnings
    warnings.filterwarnings("ignore")
    import pyHarm
    logging.disable(logging.CRITICAL)
    t0 = time.perf_counter()
    maestro = pyHarm.Maestro(pyharm_input(model))
    maestro.operate()
    solve = time.perf_counter() - t0
    edf = maestro.system.expl_dofs
    tip = edf[(edf["harm"] == 1) & (edf["dof_num"] == 0) & (edf["node_num"] == layout(model)[1])].index
    f, a = [], []
    for sol in maestro.nls["frf"].SolList:
        if sol.flag_accepted:
            f.append(float(sol.x[-1]) / (2 * math.pi))
            a.append(float(math.hypot(*[sol.x[j] for j in tip])))
    with open(out, "w") as fh:
        json.dump({"f": f, "a": a, "solve_s": solve}, fh)


def pyharm_frf(model, timeout):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "pyharm.json")
        env = dict(os.environ, HOME=d, PYHARM_CONTEXT_FILE=os.path.join(d, "context.json"))
        t0 = time.perf_counter()
        try:
            p = subprocess.run([sys.executable, os.path.abspath(__file__), "--pyharm-worker", model, out], cwd=d,
                               env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"wall": time.perf_counter() - t0, "ok": False, "note": "timeout"}
        wall = time.perf_counter() - t0
        if p.returncode != 0:
            return {"wall": wall, "ok": False, "note": brief(p.stderr)}
        with open(out) as fh:
            r = json.load(fh)
    i = max(range(len(r["a"])), key=r["a"].__getitem__)
    return {"wall": wall, "ok": True, "points": len(r["f"]), "peak_f": r["f"][i], "peak_a": r["a"][i],
            "f": r["f"], "a": r["a"]}


# ---------------------------------------------------------------- table

def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--pyharm-worker":
        return pyharm_worker(sys.argv[2], sys.argv[3])
    ap = argparse.ArgumentParser()
    ap.add_argument("--friction", required=True)
    ap.add_argument("--model", required=True)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--no-pyharm", action="store_true")
    a = ap.parse_args()
    dofs, _, joints = layout(a.model)
    print(f"model {a.model}: {dofs} DOFs, {len(joints)} Jenkins dampers", flush=True)
    cases = [("friction frf (H=3)", lambda: friction_frf(a.friction, a.model, a.timeout))]
    if not a.no_pyharm:
        cases.append(("pyharm-os frf (H=3, NLdofs)", lambda: pyharm_frf(a.model, a.timeout)))
    # H = 3 meets the bar's 1:3 internal resonance (its free modes are at 1:3:5) as the joints slip;
    # H = 1 has no third harmonic to meet it with
    cases += [("friction nnm (30 amplitudes, H=3)", lambda: friction_nnm(a.friction, a.model, a.timeout)),
              ("friction nnm (30 amplitudes, H=1)", lambda: friction_nnm(a.friction, a.model, a.timeout, 1)),
              ("friction run (1 s)", lambda: friction_run(a.friction, a.model, a.timeout))]
    results = {name: [] for name, _ in cases}
    for r in range(a.rounds):
        for name, fn in cases:  # alternating: every case once per round
            res = fn()
            results[name].append(res)
            print(f"round {r + 1}: {name}: {res['wall']:.2f} s{'' if res['ok'] else ' FAILED: ' + res['note']}",
                  flush=True)
    print()
    print("| case | wall time [s] (median) | result |")
    print("|---|---|---|")
    for name, rs in results.items():
        walls = sorted(x["wall"] for x in rs)
        med = walls[len(walls) // 2]
        last = rs[-1]
        if not last["ok"]:
            what = f"did not finish: {last['note']}"
        elif "peak_f" in last:
            what = f"{last['points']} points, tip peak {last['peak_a']:.5e} m at {last['peak_f']:.3f} Hz"
        elif "f0" in last:
            what = f"{last['points']} amplitudes, {last['f0']:.3f} -> {last['f1']:.3f} Hz"
        else:
            what = "1 s simulated"
        print(f"| {name} | {med:.2f} | {what} |")
    fr, py = results[cases[0][0]][-1], results.get("pyharm-os frf (H=3, NLdofs)", [{"ok": False}])[-1]
    if fr["ok"] and py["ok"]:
        print(f"\ntip peak: friction {fr['peak_a']:.6e} m at {fr['peak_f']:.4f} Hz, pyharm-os {py['peak_a']:.6e} m "
              f"at {py['peak_f']:.4f} Hz (amplitudes {abs(fr['peak_a'] / py['peak_a'] - 1):.2e} apart; each traced "
              "on its own points)")


if __name__ == "__main__":
    main()

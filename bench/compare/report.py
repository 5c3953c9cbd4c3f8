"""Markdown ratio table from the two JSON documents of one run.

    python bench/compare/report.py RUST.json PEERS.json
    python bench/compare/report.py R1.json,R2.json,R3.json P1.json,P2.json,P3.json

With several documents per side (run.sh --alternate K: the passes of the two
sides in turn), every time is the median over the passes; steps and errors
are the last pass's (the runs are deterministic).

ratio = peer CPU time / friction CPU time (above 1: friction is faster).
Errors are each solver's own, against the reference of its side (Radau5 at
rtol 1e-12 on the Rust side, LSODA at rtol 1e-12 on the SciPy side; the
closed form for the free decay); the two references are compared too.
"""

import json
import math
import re
import statistics
import sys


def setting(r):
    """A run's tolerance, and its largest step where the search chose one:
    the example's, or none (`max_step` null)."""
    s = f"rtol {r['rtol']:.0e}"
    if "max_step" in r:
        s += ", no h_max" if r["max_step"] is None else f", h_max {r['max_step']:g} s"
    return s


def fmt_t(s):
    if s is None:
        return "-"
    if s < 1e-3:
        return f"{s * 1e6:.0f} µs"
    if s < 1.0:
        return f"{s * 1e3:.2f} ms"
    return f"{s:.2f} s"


def fmt_e(e):
    return "-" if e is None else f"{e:.1e}"


def fit_exponent(points):
    """Least-squares slope of log(time) against log(N)."""
    pts = [(math.log(n), math.log(t)) for n, t in points if t and t > 0]
    if len(pts) < 2:
        return None
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    return sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx


TIME_KEYS = ("cpu_s", "cpu_per_sim_s", "friction_s")


def load(arg):
    """The results of the comma-separated documents in `arg`, times replaced
    by their medians over the documents."""
    docs = [json.load(open(p))["results"] for p in arg.split(",")]
    last = docs[-1]
    for r in last:
        for key in TIME_KEYS:
            vals = [d.get(key) for doc in docs for d in doc
                    if d["case"] == r["case"] and d["solver"] == r["solver"] and d.get(key) is not None]
            if r.get(key) is not None and vals:
                r[key] = statistics.median(vals)
        r["passes"] = len(docs)
    return last


def main():
    rust = load(sys.argv[1])
    peers = load(sys.argv[2])

    def find(rows, case, solver_start):
        for r in rows:
            if r["case"] == case and r["solver"].startswith(solver_start):
                return r
        return None

    out = ["| case | friction | peer | ratio | errors (friction / peer) | goal met? |", "|---|---|---|---|---|---|"]

    def row(label, f, p, goal_text, goal, key="cpu_s", steps=True, pkey=None):
        pkey = pkey or key
        if f is None or p is None or f.get(key) is None or p.get(pkey) is None:
            why = (f or {}).get("skipped") or (p or {}).get("skipped") or "not run"
            out.append(f"| {label} | - | - | - | - | {goal_text + ': ' if goal_text else ''}{why} |")
            return None
        if f.get("failure"):
            m = re.search(r"at t = ([0-9.eE+-]+)", f["failure"])
            reached = f"t = {float(m.group(1)):.2g} s" if m else "?"
            why = "wall-clock budget" if "max_wall" in f["failure"] else f["failure"].split("; state:")[0]
            out.append(
                f"| {label} | did not finish: {reached} of {f.get('t_end')} s in {fmt_t(f['cpu_s'])} CPU "
                f"({why}) | {fmt_t(p[pkey])} | - | - | {goal_text + ': ' if goal_text else ''}no |"
            )
            return None
        ratio = p[pkey] / f[key]
        fs = f" ({f['steps']} steps)" if steps and f.get("steps") is not None else ""
        ps = f" ({p['steps']} steps)" if steps and p.get("steps") is not None else ""
        if p.get("steps") is None and p.get("rhs_evals"):
            # compiled peers: evaluations, and the CPU time per evaluation
            # (the whole run's, solver included) beside the callback's own
            per = p[pkey] * (p.get("t_end") or 1.0) / p["rhs_evals"] if key == "cpu_per_sim_s" else p[pkey] / p["rhs_evals"]
            cb = f", callback {p['rhs_call_s'] * 1e6:.1f} µs" if p.get("rhs_call_s") else ""
            ps = f" ({p['rhs_evals']} evals, {per * 1e6:.2f} µs/eval{cb})"
            if f.get("rhs_evals") and f.get("steps") is not None and steps:
                # the engine's side alike, so that the costs per evaluation compare
                fper = (f[key] * (f.get("t_end") or 1.0) if key == "cpu_per_sim_s" else f[key]) / f["rhs_evals"]
                fs = f" ({f['steps']} steps, {f['rhs_evals']} evals, {fper * 1e6:.2f} µs/eval)"
        met = "-" if goal is None else ("yes" if goal(ratio) else "no")
        out.append(
            f"| {label} | {fmt_t(f[key])}{fs} | {fmt_t(p[key])}{ps} | {ratio:.1f}x | "
            f"{fmt_e(f.get('error'))} / {fmt_e(p.get('error'))} | {goal_text + ': ' if goal_text else ''}{met} |"
        )
        return ratio

    eng = find(rust, "lugre_stick_slip", "friction")
    row("LuGre stick-slip, rtol 1e-6 — vs SciPy LSODA (odeint)", eng,
        find(peers, "lugre_stick_slip", "SciPy odeint"), "", None)
    row("LuGre stick-slip, rtol 1e-6 — vs Radau5 (Rust, differential-equations)", eng,
        find(rust, "lugre_stick_slip", "Radau5"), "", None)
    row("LuGre stick-slip, rtol 1e-6 — vs SciPy solve_ivp Radau", eng,
        find(peers, "lugre_stick_slip", "SciPy solve_ivp Radau"), "(no goal)", None)
    # the goal's set-up: each solver at the loosest rtol of the ladder that
    # reaches an error of 1e-5 m
    eng = find(rust, "lugre_at_error", "friction")

    def tol(label, f, p):
        if f and p and p.get("rtol") is not None:
            return f"{label} ({setting(f)} / {setting(p)})"
        return label

    p = find(peers, "lugre_at_error", "SciPy odeint")
    row(tol("LuGre stick-slip at error <= 1e-5 — vs SciPy LSODA", eng, p), eng, p, ">= 50x", lambda r: r >= 50)
    p = find(rust, "lugre_at_error", "Radau5")
    row(tol("LuGre stick-slip at error <= 1e-5 — vs Radau5 (Rust)", eng, p), eng, p, "faster", lambda r: r > 1)
    # issue 31: 2x over the best compiled peer
    two = ("2x (issue 31)", lambda r: r >= 2)
    p = find(peers, "lugre_at_error", "numbalsoda")
    row(tol("LuGre stick-slip at error <= 1e-5 — vs numbalsoda LSODA (numba cfunc)", eng, p), eng, p, *two)
    p = find(peers, "lugre_at_error", "CVODE BDF dense")
    row(tol("LuGre stick-slip at error <= 1e-5 — vs CVODE BDF dense (scikit-sundae)", eng, p), eng, p, *two)
    row("Coulomb free decay, exact stick, rtol 1e-9 — vs SciPy DOP853 + events",
        find(rust, "coulomb_free_decay", "friction"), find(peers, "coulomb_free_decay", "SciPy"),
        ">= 100x", lambda r: r >= 100)
    row("Coulomb free decay, exact stick, rtol 1e-9 — vs CVODE Adams + roots (scikit-sundae)",
        find(rust, "coulomb_free_decay", "friction"), find(peers, "coulomb_free_decay", "CVODE"),
        "far ahead (issue 31), read as >= 10x", lambda r: r >= 10)

    sizes = sorted({r["n"] for r in rust if r["case"].startswith("chain_") and "n" in r}
                   | {int(r["case"].rsplit("_", 1)[1]) for r in rust if r["case"].startswith("chain_")})
    for model in ("lugre", "coulomb_tanh"):
        fpts, ppts = [], []
        for n in sizes:
            f = find(rust, f"chain_{model}_{n}", "friction")
            p = find(peers, f"chain_{model}_{n}", "SciPy")
            goal_text, goal = ("at N=256 >= 2x", lambda r: r >= 2) if n == 256 else ("", None)
            row(f"chain {model} N={n}, per simulated s — vs LSODA banded", f, p, goal_text, goal,
                key="cpu_per_sim_s")
            if f and f.get("cpu_per_sim_s") and not f.get("failure"):
                fpts.append((n, f["cpu_per_sim_s"]))
            if p and p.get("cpu_per_sim_s"):
                ppts.append((n, p["cpu_per_sim_s"]))
            c = find(peers, f"chain_{model}_{n}", "CVODE")
            if c is not None:
                goal_text, goal = ("2x (issue 31)", lambda r: r >= 2) if n in (256, 1024) else ("", None)
                row(f"chain {model} N={n}, per simulated s — vs CVODE BDF banded (scikit-sundae)", f, c,
                    goal_text, goal, key="cpu_per_sim_s")
        ef, ep = fit_exponent(fpts), fit_exponent(ppts)
        met = "-" if ef is None else ("yes" if ef <= 1.2 else "no")
        out.append(
            f"| chain {model}: exponent of time ~ N^a (N = {', '.join(str(n) for n, _ in fpts)}) | "
            f"a = {'-' if ef is None else f'{ef:.2f}'} | a = {'-' if ep is None else f'{ep:.2f}'} | | | a <= 1.2: {met} |"
        )
    cpts = []
    for n in sizes:
        f = find(rust, f"chain_coulomb_{n}", "friction")
        if f and f.get("cpu_per_sim_s") is not None:
            if not f.get("failure"):
                cpts.append((n, f["cpu_per_sim_s"]))
            out.append(
                f"| chain coulomb (true stick) N={n}, per simulated s | {fmt_t(f['cpu_per_sim_s'])} "
                f"({f['steps']} steps, {f.get('events')} events) | (no peer) | | - | {'failed: ' + f['failure'].split('; state:')[0] if f.get('failure') else ''} |"
            )
    ec = fit_exponent(cpts)
    if ec is not None:
        out.append(f"| chain coulomb (true stick): exponent a | a = {ec:.2f} | | | | (info) |")

    for r in peers:
        if r["case"].startswith("batch_") and r["solver"].startswith("friction"):
            case = r["case"]
            p = find(peers, case, "NumPy")
            if case.startswith("batch_lugre"):
                label, goal_text, goal = f"batch LuGre, {r['n']:.0e} contacts, per step (wall clock, 2 cores) — vs NumPy", ">= 4x", lambda x: x >= 4
            else:
                label, goal_text, goal = (f"batch Iwan-4 (100 elements), {r['n']:.0e} contacts, per step (wall clock, 2 cores) — vs NumPy",
                                          ">= 10x", lambda x: x >= 10)
            row(label, r, p, goal_text, goal, steps=False)

    for r in peers:
        if r["case"].startswith("sweep_") and r["solver"].startswith("friction"):
            p = find(peers, r["case"], "numbalsoda")
            row(f"sweep of {r['n']} LuGre runs over fc, x(20 s) error <= 1e-5, wall clock, 2 cores — vs numbalsoda "
                f"in numba prange" + (f" ({setting(r)} / {setting(p)})" if p and p.get("rtol") else ""),
                r, p, "2x (issue 31)", lambda x: x >= 2)
    for r in peers:
        if r["case"].startswith("batch_lugre") and r["solver"].startswith("numba"):
            f = {"cpu_s": r.get("friction_s"), "error": r.get("error")} if r.get("friction_s") else None
            row(f"batch LuGre, {r['n']:.0e} contacts, per step (wall clock, 2 cores) — vs numba @njit(parallel=True)",
                f, r, ">= 3x (issue 31)", lambda x: x >= 3, steps=False)

    print("\n".join(out))
    rs = find(rust, "lugre_stick_slip", "reference")
    ps = find(peers, "lugre_stick_slip", "reference")
    if rs and ps:
        d = max(abs(a[1] - b[1]) for a, b in zip(rs["samples"], ps["samples"]))
        print(f"\nLuGre references (Radau5 rtol 1e-12 in Rust, LSODA rtol 1e-12 in SciPy) differ by at most "
              f"{d:.1e} m at t = 0, 1, ..., 20 s.")
    sw = [r for r in peers if r["case"].startswith("sweep_") and r.get("ref_check") is not None]
    if sw:
        print(f"Sweep reference (numbalsoda LSODA rtol 1e-12) against SciPy's LSODA at rtol 1e-12 at 5 grid points: "
              f"at most {sw[0]['ref_check']:.1e} m apart.")
    print("Batch errors: largest force difference between Model.update and NumPy (resp. the numba kernel), relative "
          "to the largest force.")
    print("Compiled peers without steps: their right-hand-side evaluations and the run's CPU time per evaluation "
          "(the engine's beside them alike: its network evaluations, Jacobian products not counted); "
          "scikit-sundae's callback: one call of its Python callback into the numba kernel, timed from Python.")


if __name__ == "__main__":
    main()

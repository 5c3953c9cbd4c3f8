#!/usr/bin/env python3
"""Writes the benchmark structure of issue 44: a bar of 1,000 linear finite
elements (consistent mass; fixed at x = 0, free at the tip: 1,000 DOFs) as
MatrixMarket files, and the scenario that puts 50 Jenkins friction dampers
between every 20th node and the ground, and a shaker at the tip.

    python3 make_model.py DIR [--elements 1000] [--joints 50]

Standard library only (pyHarm's side reads the same files with scipy).

Bar: EA = 1e6 N, rho A = 1 kg/m, 1 m; element of length h: stiffness
EA/h [1 -1; -1 1], consistent mass rho A h/6 [2 1; 1 2]. First mode of
the free bar at 250 Hz (a quarter wave), higher with the dampers stuck.
Rayleigh damping C = alpha M + beta K, alpha = 10 1/s, beta = 1e-6 s.
Each damper: jenkins, kt = 1e5 N/m, fs = 1 (N at normal = 1); the shaker
10 N at the tip. (A cantilever of 500 Euler-Bernoulli elements was tried
first: its stiffness spans 1e13 between the rotations and deflections of
2 mm elements, and the full balance's Newton iterations could not bring its
residual to the tolerance, 1e-10 of the force; the condensed one could on a
200-element cantilever, not through the resonance on the 500-element one.)
"""

import os
import sys

EA, RHOA, L = 1e6, 1.0, 1.0
ALPHA, BETA = 10.0, 1e-6
KT, FS, FORCE = 1e5, 1.0, 10.0


def matrices(ne):
    """The upper triangles of M and K as {(i, j): value}, 0-based; DOF i is node i + 1 (node 0 fixed)."""
    h = L / ne
    m, k = {}, {}
    for e in range(ne):
        dofs = [e - 1, e]  # element e joins nodes e and e + 1
        for a in range(2):
            for b in range(2):
                i, j = dofs[a], dofs[b]
                if i < 0 or j < 0 or i > j:
                    continue
                m[(i, j)] = m.get((i, j), 0.0) + RHOA * h / 6.0 * (2.0 if a == b else 1.0)
                k[(i, j)] = k.get((i, j), 0.0) + EA / h * (1.0 if a == b else -1.0)
    return ne, m, k


def write_mtx(path, n, entries, what):
    with open(path, "w") as fh:
        fh.write("%%MatrixMarket matrix coordinate real symmetric\n")
        fh.write(f"% {what} of the benchmark bar (bench/structure/make_model.py)\n")
        fh.write(f"{n} {n} {len(entries)}\n")
        # symmetric MatrixMarket: the lower triangle, 1-based
        for (i, j), v in sorted(entries.items()):
            fh.write(f"{j + 1} {i + 1} {v:.17e}\n")


def scenario(ne, joints):
    tip = ne - 1
    step = ne // joints
    dofs = [step * (i + 1) - 1 for i in range(joints)]
    lines = ['name = "bar"', "", "[[structure]]", 'name = "beam"', 'mass = "M.mtx"', 'stiffness = "K.mtx"',
             f"rayleigh = [{ALPHA}, {BETA}]", "", "[[force]]", 'name = "shaker"', f'on = "beam:{tip}"',
             f'value = {{ type = "sine", amplitude = {FORCE}, frequency = 300.0 }}', ""]
    for i, d in enumerate(dofs):
        lines += ["[[contact]]", f'name = "d{i + 1}"', f'between = ["beam:{d}", "ground"]', 'model = "jenkins"',
                  f"params = {{ kt = {KT}, fs = {FS} }}", ""]
    lines += ["[solver]", "t_end = 1.0", "output_dt = 1e-4", ""]
    return "\n".join(lines), tip, dofs


def main():
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help") or args[0].startswith("-"):
        sys.exit(__doc__)
    out = args[0]
    ne = int(args[args.index("--elements") + 1]) if "--elements" in args else 1000
    joints = int(args[args.index("--joints") + 1]) if "--joints" in args else 50
    os.makedirs(out, exist_ok=True)
    n, m, k = matrices(ne)
    write_mtx(os.path.join(out, "M.mtx"), n, m, "mass [kg]")
    write_mtx(os.path.join(out, "K.mtx"), n, k, "stiffness [N/m]")
    text, tip, dofs = scenario(ne, joints)
    with open(os.path.join(out, "scenario.toml"), "w") as fh:
        fh.write(text)
    with open(os.path.join(out, "model.json"), "w") as fh:
        fh.write(f'{{"dofs": {n}, "tip_dof": {tip}, "joint_dofs": {dofs}}}\n')
    print(f"{out}: {n} DOFs, {joints} Jenkins dampers at DOFs {dofs[0]}..{dofs[-1]}, shaker at beam:{tip}")


if __name__ == "__main__":
    main()

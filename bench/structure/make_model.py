#!/usr/bin/env python3
"""Writes the benchmark structure of issue 44: a steel cantilever of 500
Euler-Bernoulli beam elements (consistent mass, 2 DOFs a node: deflection
w and rotation theta; clamped at x = 0, so 1,000 DOFs) as MatrixMarket
files, and the scenario that puts 50 Jenkins friction dampers between its
deflection DOFs (every 10th node) and the ground and a shaker at the tip.

    python3 make_model.py DIR [--elements 500] [--joints 50]

Standard library only (pyHarm's side reads the same files with scipy).

Beam: 1 m, 20 mm x 20 mm steel (E = 210 GPa, rho = 7850 kg/m^3):
EI = 2800 N m^2, rho A = 3.14 kg/m, first bending mode 16.7 Hz free of the
dampers. Element of length h (Przemieniecki 1968, ch. 5; or any FE text):

    K_e = EI/h^3 [[12, 6h, -12, 6h], [6h, 4h^2, -6h, 2h^2], [-12, -6h, 12, -6h], [6h, 2h^2, -6h, 4h^2]]
    M_e = rho A h/420 [[156, 22h, 54, -13h], [22h, 4h^2, 13h, -3h^2], [54, 13h, 156, -22h], [-13h, -3h^2, -22h, 4h^2]]

DOF 2(i-1) is the deflection of node i (1..ne), 2(i-1)+1 its rotation.
Rayleigh damping C = alpha M + beta K with alpha = 1 1/s, beta = 1e-5 s.
Each damper: jenkins, kt = 1e3 N/m, fs = 0.05 (N at normal = 1); the shaker
2 N at the tip's deflection DOF.
"""

import os
import sys

E, RHO, B, L = 210e9, 7850.0, 0.02, 1.0
EI = E * B ** 4 / 12.0
RHOA = RHO * B * B
ALPHA, BETA = 1.0, 1e-5
KT, FS, FORCE = 1e3, 0.05, 2.0


def matrices(ne):
    """The upper triangles of M and K as {(i, j): value}, 0-based, clamped node 0 removed."""
    h = L / ne
    ke = [[12, 6 * h, -12, 6 * h], [6 * h, 4 * h * h, -6 * h, 2 * h * h],
          [-12, -6 * h, 12, -6 * h], [6 * h, 2 * h * h, -6 * h, 4 * h * h]]
    me = [[156, 22 * h, 54, -13 * h], [22 * h, 4 * h * h, 13 * h, -3 * h * h],
          [54, 13 * h, 156, -22 * h], [-13 * h, -3 * h * h, -22 * h, 4 * h * h]]
    kf, mf = EI / h ** 3, RHOA * h / 420.0
    m, k = {}, {}
    for e in range(ne):
        # element e joins nodes e and e + 1; node 0 (clamped) has no DOFs
        dofs = [2 * (e - 1), 2 * (e - 1) + 1, 2 * e, 2 * e + 1]
        for a in range(4):
            for b in range(4):
                i, j = dofs[a], dofs[b]
                if i < 0 or j < 0 or i > j:
                    continue
                m[(i, j)] = m.get((i, j), 0.0) + mf * me[a][b]
                k[(i, j)] = k.get((i, j), 0.0) + kf * ke[a][b]
    return 2 * ne, m, k


def write_mtx(path, n, entries, what):
    with open(path, "w") as fh:
        fh.write("%%MatrixMarket matrix coordinate real symmetric\n")
        fh.write(f"% {what} of the benchmark cantilever (bench/structure/make_model.py)\n")
        fh.write(f"{n} {n} {len(entries)}\n")
        # symmetric MatrixMarket: the lower triangle, 1-based
        for (i, j), v in sorted(entries.items(), key=lambda e: (e[0][0], e[0][1])):
            fh.write(f"{j + 1} {i + 1} {v:.17e}\n")


def scenario(ne, joints):
    tip = 2 * (ne - 1)
    step = ne // joints
    nodes = [step * (i + 1) for i in range(joints)]
    lines = [
        'name = "cantilever"',
        "",
        "[[structure]]",
        'name = "beam"',
        'mass = "M.mtx"',
        'stiffness = "K.mtx"',
        f"rayleigh = [{ALPHA}, {BETA}]",
        "",
        "[[force]]",
        'name = "shaker"',
        f'on = "beam:{tip}"',
        f"value = {{ type = \"sine\", amplitude = {FORCE}, frequency = 20.0 }}",
        "",
    ]
    for i, node in enumerate(nodes):
        lines += [
            "[[contact]]",
            f'name = "d{i + 1}"',
            f'between = ["beam:{2 * (node - 1)}", "ground"]',
            'model = "jenkins"',
            f"params = {{ kt = {KT}, fs = {FS} }}",
            "",
        ]
    lines += ["[solver]", "t_end = 1.0", "output_dt = 1e-3", ""]
    return "\n".join(lines), tip, [2 * (n - 1) for n in nodes]


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    out = args[0]
    ne = int(args[args.index("--elements") + 1]) if "--elements" in args else 500
    joints = int(args[args.index("--joints") + 1]) if "--joints" in args else 50
    os.makedirs(out, exist_ok=True)
    n, m, k = matrices(ne)
    write_mtx(os.path.join(out, "M.mtx"), n, m, "mass [kg]")
    write_mtx(os.path.join(out, "K.mtx"), n, k, "stiffness [N/m]")
    text, tip, dofs = scenario(ne, joints)
    with open(os.path.join(out, "cantilever.toml"), "w") as fh:
        fh.write(text)
    print(f"{out}: {n} DOFs, {joints} Jenkins dampers at DOFs {dofs[0]}..{dofs[-1]}, shaker at beam:{tip}")


if __name__ == "__main__":
    main()

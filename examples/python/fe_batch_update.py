"""A finite-element-style batch update: 10^6 LuGre contacts of one contact patch.

An explicit or implicit finite-element code with frictional contact calls a
friction law once per contact node and time step with the node's slip
increment and normal load, and keeps the law's state between calls. Here a
circular patch of 10^6 nodes carries a Hertzian pressure p(r) = p0 sqrt(1 - r²)
and slips tangentially as u(r, t) = u0 (0.2 + r) sin(2 π f t) (a fretting
test): the rim slips most. Every step updates all nodes at once through
friction.Model.update (all cores, no Python loop over nodes), and the
dissipated energy per cycle, Σ ∮ F du, is accumulated per node.

For nodes whose slip amplitude is many presliding lengths g/σ0 (LuGre;
Canudas de Wit, Olsson, Åström, Lischinsky 1995), LuGre behaves as Coulomb friction and a cycle
dissipates close to 4 N μ u0 (μ the kinetic level, slightly more from the
Stribeck peak and damping); nodes with amplitudes of a few presliding
lengths dissipate less (partial slip). The script prints both.

    python examples/python/fe_batch_update.py [--n 1000000] [--steps 400]

Set FRICTION_EXAMPLE_SMALL=1 for 10^4 nodes (used by the tests).
"""

import argparse
import os
import time

import numpy as np

import friction


def main() -> None:
    small = os.environ.get("FRICTION_EXAMPLE_SMALL") == "1"
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000 if small else 1_000_000, help="contact nodes")
    ap.add_argument("--steps", type=int, default=100 if small else 400, help="steps per cycle")
    ap.add_argument("--cycles", type=int, default=2)
    args = ap.parse_args()

    n, f = args.n, 10.0  # nodes, frequency [Hz]
    rng = np.random.default_rng(2024)
    r = np.sqrt(rng.random(n))  # nodes uniformly over the unit disc
    normal = 1.0 - r ** 2  # Hertzian p0 sqrt(1 - r^2), per node area, N
    normal = np.sqrt(normal) * 0.01
    u0 = 2e-4 * (0.2 + r)  # slip amplitude [m]
    model = friction.Model("lugre")  # defaults: sigma0 = 1e5 N/m, fc = 1, fs = 1.5 (per unit load)
    state = model.init(n)
    dt = 1.0 / (f * args.steps)
    u_prev = np.zeros(n)
    force = np.zeros(n)
    energy = np.zeros(n)
    t0 = time.perf_counter()
    for k in range(1, args.cycles * args.steps + 1):
        u = u0 * np.sin(2 * np.pi * f * k * dt)
        du = u - u_prev
        new = model.update(dt, du, normal, state)
        if k > args.steps:  # the last cycles, after the virgin loading
            energy += 0.5 * (force + new) * du
        force, u_prev = new, u
    wall = time.perf_counter() - t0
    nsteps = args.cycles * args.steps
    print(f"{n} contacts x {nsteps} steps in {wall:.2f} s: "
          f"{n * nsteps / wall / 1e6:.1f} million contact updates per second")
    e_cycle = energy / (args.cycles - 1)
    coulomb = 4 * normal * 1.0 * u0  # 4 N fc u0
    big = u0 > 1.5e-4
    print(f"dissipated per cycle: {e_cycle.sum():.4e} J over the patch")
    print(f"gross-slip nodes (u0 > 0.15 mm, {big.sum()}): energy / (4 N fc u0) = "
          f"{np.median(e_cycle[big] / coulomb[big]):.3f} (median)")
    assert np.all(np.isfinite(e_cycle)) and np.all(e_cycle[big] > 0)
    # gross slip: each node dissipates the Coulomb loop 4 N fc u0 per cycle
    # (LuGre's bristle compliance takes a little from it)
    ratio = np.median(e_cycle[big] / coulomb[big])
    assert abs(ratio - 1.0) < 0.01, f"gross-slip dissipation {ratio:.4f} of 4 N fc u0"


if __name__ == "__main__":
    main()

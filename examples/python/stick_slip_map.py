"""Where does stick-slip vanish? A map over pulling speed and spring stiffness.

The LuGre stick-slip scenario (examples/lugre_stick_slip.toml; Canudas de Wit,
Olsson, Åström and Lischinsky 1995): a unit mass pulled through a spring whose
far end moves at a constant speed. The Stribeck dip of the friction force
(static 1.5 N, kinetic 1 N, Stribeck speed 1 mm/s) makes the motion
stick-slip at low speed and soft springs; faster pulling or a stiffer spring
gives steady sliding. The sweep runs every (speed, stiffness) pair in
parallel and measures the stick-slip amplitude as the peak-to-peak velocity
of the mass over the second half of each run, relative to the pulling
speed; the heat map shows the boundary where it drops to zero.

    python examples/python/stick_slip_map.py [--out stick_slip_map.png] [--n 14]

Set FRICTION_EXAMPLE_SMALL=1 for a 3 x 3 map (used by the tests).
"""

import argparse
import os
import pathlib
import time

import numpy as np

import friction

HERE = pathlib.Path(__file__).resolve().parent
SCENARIO = HERE.parent / "lugre_stick_slip.toml"


def main() -> None:
    small = os.environ.get("FRICTION_EXAMPLE_SMALL") == "1"
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="out/python/stick_slip_map.png")
    ap.add_argument("--n", type=int, default=3 if small else 14, help="grid points per axis")
    args = ap.parse_args()

    speeds = np.logspace(-3, 0, args.n)  # pulling speed [m/s]
    stiffness = np.logspace(0, 3, args.n)  # spring stiffness [N/m]
    # every (speed, stiffness) pair, zipped with its own run length: a stick
    # phase lasts about (Fs - Fc + Fs - Fc) / (k v) = 1 / (k v) seconds, so each
    # run covers ten of those (and at least 60 s, for the start-up transient,
    # damped by sigma2 = 0.4 N s/m with a time constant of 5 s, to die out)
    v, k = (a.ravel() for a in np.meshgrid(speeds, stiffness, indexing="ij"))
    t_end = np.maximum(60.0, 10.0 / (k * v))
    if small:
        t_end = np.minimum(t_end, 100.0)
    t0 = time.perf_counter()
    res = friction.sweep(
        SCENARIO,
        {"driver.puller.motion.rate": v, "spring.spring0.stiffness": k,
         "solver.t_end": t_end, "solver.output_dt": t_end / 4000, "solver.max_step": t_end / 2000},
        ["ptp.v.m[50%:]", "min.v.m[50%:]"],
        zip=True,
    )
    wall = time.perf_counter() - t0
    amp = np.asarray(res["ptp.v.m[50%:]"], dtype=float).reshape(args.n, args.n)
    # relative to the pulling speed: steady sliding ~0, stick-slip >= 1 (the mass stops, then overtakes)
    rel = amp / speeds[:, None]
    print(f"{args.n * args.n} runs in {wall:.1f} s")
    for i, sp in enumerate(speeds[::-1]):
        row = " ".join("S" if rel[args.n - 1 - i, j] > 0.1 else "." for j in range(args.n))
        print(f"v = {sp:8.2e} m/s  {row}")
    print("S: stick-slip (peak-to-peak velocity of the mass > 0.1 v over the second half), "
          f".: steady sliding; columns: stiffness {stiffness[0]:.3g} .. {stiffness[-1]:.3g} N/m")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 5.5))
    from matplotlib.colors import LogNorm
    shown = np.maximum(rel, 1e-3)  # steady sliding: ~0, drawn at the floor of the log scale
    im = ax.pcolormesh(stiffness, speeds, shown, shading="nearest", cmap="viridis",
                       norm=LogNorm(vmin=1e-3, vmax=max(shown.max(), 1e-2)))
    ax.contour(stiffness, speeds, rel, levels=[0.1], colors="white", linewidths=1.5)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("spring stiffness k [N/m]")
    ax.set_ylabel("pulling speed v [m/s]")
    ax.set_title("LuGre stick-slip: peak-to-peak velocity / v\n(white: boundary where stick-slip vanishes)")
    fig.colorbar(im, ax=ax, label="stick-slip amplitude (peak-to-peak v_m) / v")
    fig.tight_layout()
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()

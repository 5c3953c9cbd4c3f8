"""Where does stick-slip vanish? A map over pulling speed and spring stiffness.

The LuGre stick-slip scenario (examples/lugre_stick_slip.toml; Canudas de Wit,
Olsson, Åström and Lischinsky 1995): a unit mass pulled through a spring whose
far end moves at a constant speed. The Stribeck dip of the friction force
(static 1.5 N, kinetic 1 N, Stribeck speed 1 mm/s) makes the motion
stick-slip at low speed and soft springs; faster pulling or a stiffer spring
gives steady sliding. The sweep runs every (speed, stiffness) pair in
parallel and measures the stick-slip amplitude as the peak-to-peak velocity
of the mass over the second half of each run; the heat map shows the
boundary where it drops to zero.

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
    t_end = 8.0 if small else 20.0
    t0 = time.perf_counter()
    res = friction.sweep(
        SCENARIO,
        {"driver.puller.motion.rate": speeds, "spring.spring0.stiffness": stiffness,
         "solver.t_end": [t_end], "solver.output_dt": [t_end / 2000]},
        [f"ptp.v.m[{t_end / 2}:]", "events.stuck"],
    )
    wall = time.perf_counter() - t0
    amp = np.asarray(res[f"ptp.v.m[{t_end / 2}:]"], dtype=float).reshape(args.n, args.n)
    stuck = np.asarray(res["events.stuck"], dtype=float).reshape(args.n, args.n)
    # relative to the pulling speed: steady sliding has amplitude ~0, stick-slip ~ 2 v
    rel = amp / speeds[:, None]
    print(f"{args.n * args.n} runs in {wall:.1f} s")
    for i, v in enumerate(speeds):
        row = " ".join("S" if rel[i, j] > 0.1 else "." for j in range(args.n))
        print(f"v = {v:8.2e} m/s  {row}")
    print("S: stick-slip (peak-to-peak velocity > 0.1 v), .: steady sliding; columns: stiffness "
          f"{stiffness[0]:.3g} .. {stiffness[-1]:.3g} N/m")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 5.5))
    im = ax.pcolormesh(stiffness, speeds, rel, shading="nearest", cmap="viridis")
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
    print(f"wrote {out} ({int(np.sum(stuck > 0))} of {stuck.size} runs stick at least once)")


if __name__ == "__main__":
    main()

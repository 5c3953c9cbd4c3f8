"""Fit LuGre to the shipped loops data set and plot data against fit.

examples/data/lugre_loops.csv holds the friction force of a LuGre contact
(sigma0 = 1e5 N/m, fc = 1 N, fs = 1.5 N, vs = 1 mm/s; Canudas de Wit et al.
1995) driven along loops of growing amplitude, with 0.01 N of noise. The fit
holds the damping terms and the Stribeck exponent, identifies the four other
parameters on t < 0.25 s, and validates on the rest: the same as

    friction fit --model lugre --data examples/data/lugre_loops.csv --fix sigma1,sigma2,exponent --validate-from 0.25

    python examples/python/fit_lugre.py [--out fit_lugre.png]
"""

import argparse
import pathlib

import numpy as np

import friction

HERE = pathlib.Path(__file__).resolve().parent
DATA = HERE.parent / "data" / "lugre_loops.csv"
TRUE = {"sigma0": 1e5, "fc": 1.0, "fs": 1.5, "vs": 1e-3}


def load(path):
    """The columns of a data CSV (`#` comment lines, then a header) by name."""
    with open(path) as fh:
        lines = [ln for ln in fh if ln.strip() and not ln.startswith("#")]
    names = lines[0].strip().split(",")
    data = np.loadtxt(lines[1:], delimiter=",", ndmin=2)
    return {n: data[:, i] for i, n in enumerate(names)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="out/python/fit_lugre.png")
    args = ap.parse_args()

    d = load(DATA)
    r = friction.fit("lugre", d["t"], x=d["x"], f=d["F"], fix=("sigma1", "sigma2", "exponent"),
                     validate_from=0.25)
    print(f"{'parameter':<8} {'true':>10} {'fitted':>12} {'stderr':>10}  95 % interval")
    for name, p in r["params"].items():
        print(f"{name:<8} {TRUE[name]:>10.4g} {p['value']:>12.6g} {p['stderr']:>10.3g}  "
              f"[{p['ci95'][0]:.6g}, {p['ci95'][1]:.6g}]")
    print(f"rms {r['rms']:.4g} N on t < 0.25 s, validation rms {r['validation']['rms']:.4g} N")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a1, a2) = plt.subplots(2, 1, figsize=(8, 7))
    a1.plot(d["t"], d["F"], ".", ms=3, label="data")
    a1.plot(d["t"], r["f_fit"], "-", label="LuGre fit")
    a1.axvline(0.25, color="grey", ls="--", label="validation from")
    a1.set_xlabel("t [s]")
    a1.set_ylabel("F [N]")
    a1.legend()
    a2.plot(d["x"] * 1e3, d["F"], ".", ms=3, label="data")
    a2.plot(d["x"] * 1e3, r["f_fit"], "-", label="fit")
    a2.set_xlabel("x [mm]")
    a2.set_ylabel("F [N]")
    a2.legend()
    fig.suptitle("LuGre identified from examples/data/lugre_loops.csv")
    fig.tight_layout()
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()

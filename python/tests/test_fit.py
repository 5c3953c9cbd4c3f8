"""fit() and analyze(): the shipped data set's parameters, closed-form loops."""

import json
import subprocess

import numpy as np
import pytest

import friction

TRUE = {"sigma0": 1e5, "fc": 1.0, "fs": 1.5, "vs": 1e-3}


def load(path):
    """The columns of a data CSV (`#` comment lines, then a header) by name."""
    with open(path) as fh:
        lines = [ln for ln in fh if ln.strip() and not ln.startswith("#")]
    names = lines[0].strip().split(",")
    data = np.loadtxt(lines[1:], delimiter=",", ndmin=2)
    return {n: data[:, i] for i, n in enumerate(names)}


def test_fit_recovers_the_lugre_data_set(root, cli, tmp_path):
    # examples/data/lugre_loops.csv: LuGre with sigma0=1e5, fc=1, fs=1.5, vs=1e-3 plus noise 0.01 N
    path = root / "examples" / "data" / "lugre_loops.csv"
    d = load(path)
    r = friction.fit("lugre", d["t"], x=d["x"], f=d["F"], fix=("sigma1", "sigma2", "exponent"),
                     validate_from=0.25)
    for name, true in TRUE.items():
        p = r["params"][name]
        assert p["ci95"][0] <= true <= p["ci95"][1], (name, p)
        assert abs(p["value"] / true - 1) < 0.02
    assert r["rms"] < 0.011 and r["validation"]["rms"] < 0.011
    assert r["f_fit"].shape == d["t"].shape
    # the same numbers as `friction fit --json`
    out = tmp_path / "fit.json"
    subprocess.run([cli, "fit", "--model", "lugre", "--data", str(path), "--fix", "sigma1,sigma2,exponent",
                    "--validate-from", "0.25", "--json", str(out)], check=True, capture_output=True)
    ref = json.loads(out.read_text())
    for name in TRUE:
        assert r["params"][name]["value"] == pytest.approx(ref["params"][name]["value"], rel=1e-9)
        assert r["params"][name]["stderr"] == pytest.approx(ref["params"][name]["stderr"], rel=1e-6)


def test_fit_stribeck_curve_direct(root):
    d = load(root / "examples" / "data" / "stribeck_curve.csv")
    r = friction.fit("stribeck", d["t"], v=d["v"], f=d["F"])
    for name, true in {"fc": 1.0, "fs": 1.5, "vs": 0.01, "kv": 0.4}.items():
        lo, hi = r["params"][name]["ci95"]
        assert lo <= true <= hi, name


def test_analyze_loops_coulomb_closed_form():
    # Coulomb friction along x = a sin(2 pi t): each cycle dissipates 4 Fc a
    fc, a = 0.8, 2e-3
    t = np.linspace(0, 5, 20001)
    x = a * np.sin(2 * np.pi * t)
    v = 2 * np.pi * a * np.cos(2 * np.pi * t)
    f = fc * np.sign(v)
    res = friction.analyze(t, x, f, kind="loops")
    closed = [c for c in res["cycles"] if c["closed"]]
    assert len(closed) >= 3
    for c in closed:
        assert c["energy"] == pytest.approx(4 * fc * a, rel=1e-3)


def test_analyze_transient_linear_oscillator():
    wn, zeta = 2 * np.pi * 5, 0.02
    wd = wn * np.sqrt(1 - zeta ** 2)
    t = np.arange(0, 5, 1e-3)
    x = np.exp(-zeta * wn * t) * np.cos(wd * t)
    res = friction.analyze(t, x, kind="transient")
    assert res["points"]
    for p in res["points"]:
        assert p["zeta"] == pytest.approx(zeta, rel=1e-3)
        assert p["omega_d"] == pytest.approx(wd, rel=1e-3)

"""A contact that rubs in a plane (bodies of dim 3 with ``normal_stiffness``)
from Python and through an FMU: its columns ``Fx``, ``Fy``, ``N`` against a
closed form (a regularised map, and ``coulomb`` held exactly on its friction
disk), the refusals, and the FMU against ``friction run``."""

import pathlib
import subprocess

import numpy as np
import pytest

import friction

ROOT = pathlib.Path(__file__).resolve().parents[2]
SPATIAL = ROOT / "examples" / "spatial_joint.toml"


def test_a_puck_sliding_in_the_plane_slows_at_fc_g_along_its_velocity():
    # 2 kg at 0.5 m/s along (3, 4)/5 on a penalty floor under its weight,
    # regularised Coulomb friction saturated at these speeds: it slows at
    # Fc g along its velocity, and the force is Fc N against it
    m, kn, fc, v0, g = 2.0, 1e5, 0.5, 0.5, 9.81
    d = {
        "name": "puck",
        "body": [{"name": "m", "mass": m, "dim": 3, "x0": [0.0, 0.0, -m * g / kn],
                  "v0": [0.6 * v0, 0.8 * v0, 0.0]}],
        "force": [{"name": "w", "on": "m", "direction": "z", "value": -m * g}],
        "contact": [{"name": "c", "between": ["m", "ground"], "model": "coulomb_tanh",
                     "params": {"fc": fc, "ktanh": 1e6}, "normal_stiffness": kn, "gap": 0.0}],
        "solver": {"t_end": 0.08, "output_dt": 0.004, "rtol": 1e-10},
    }
    r = friction.simulate(d)
    t = r.t
    s = v0 * t - 0.5 * fc * g * t * t
    np.testing.assert_allclose(r.columns["x.m"], 0.6 * s, atol=1e-12)
    np.testing.assert_allclose(r.columns["y.m"], 0.8 * s, atol=1e-12)
    n = r.columns["N.c"]
    np.testing.assert_allclose(n, m * g, rtol=1e-9)
    np.testing.assert_allclose(r.columns["Fx.c"], -0.6 * fc * n, rtol=1e-9)
    np.testing.assert_allclose(r.columns["Fy.c"], -0.8 * fc * n, rtol=1e-9)
    assert r.units["Fx.c"] == "N" and r.units["svy.c"] == "m/s"
    assert np.all(r.columns["state.c"] == 2.0)


def test_a_coulomb_puck_in_the_plane_stops_at_v0_over_mu_g_and_stays_exactly_at_rest():
    # `coulomb` in the plane is held exactly on its friction disk: the puck
    # slows at mu g along (3, 4)/5, arrives at rest at v0 / (mu g) (one
    # event) and stays there with no force and no creep
    m, kn, mu, v0, g = 2.0, 1e5, 0.5, 0.5, 9.81
    d = {
        "name": "puck",
        "body": [{"name": "m", "mass": m, "dim": 3, "x0": [0.0, 0.0, -m * g / kn],
                  "v0": [0.6 * v0, 0.8 * v0, 0.0]}],
        "force": [{"name": "w", "on": "m", "direction": "z", "value": -m * g}],
        "contact": [{"name": "c", "between": ["m", "ground"], "model": "coulomb",
                     "params": {"fc": mu}, "normal_stiffness": kn, "gap": 0.0}],
        "solver": {"t_end": 0.2, "output_dt": 0.002, "rtol": 1e-9},
    }
    r = friction.simulate(d)
    ts = v0 / (mu * g)
    arrivals = [e for e in r.events if e["contact"] == "c" and e["to"] == "stuck"]
    assert len(arrivals) == 1 and abs(arrivals[0]["t"] - ts) < 1e-9 * ts, r.events
    t = r.t
    tc = np.minimum(t, ts)
    s = v0 * tc - 0.5 * mu * g * tc * tc
    np.testing.assert_allclose(r.columns["x.m"], 0.6 * s, atol=1e-9)
    np.testing.assert_allclose(r.columns["y.m"], 0.8 * s, atol=1e-9)
    rest = t > ts * (1 + 1e-9)
    assert rest.sum() > 10
    assert np.all(np.abs(r.columns["vx.m"][rest]) < 1e-14)
    assert np.all(np.abs(r.columns["Fx.c"][rest]) < 1e-12)
    assert np.all(r.columns["state.c"][rest] == 1.0)


def test_plane_contacts_a_disk_cannot_hold_are_refused_with_the_reason():
    def two(model):
        return {
            "name": "bad",
            "body": [{"name": "a", "mass": 1.0, "dim": 3}, {"name": "b", "mass": 1.0, "dim": 3}],
            "contact": [{"name": "top", "between": ["a", "b"], "model": "coulomb",
                         "normal_stiffness": 1e5, "gap": 0.0},
                        {"name": "floor", "between": ["b", "ground"], "model": model,
                         "normal_stiffness": 1e5, "gap": 0.0}],
            "solver": {"t_end": 0.1},
        }
    with pytest.raises(ValueError, match="also held by contact"):
        friction.simulate(two("coulomb"))
    with pytest.raises(ValueError, match="stick band"):
        friction.simulate(two("karnopp"))
    friction.simulate(two("coulomb_tanh"))
    d = two("coulomb_tanh")
    d["solver"]["method"] = "bdf"
    with pytest.raises(ValueError, match="friction disk"):
        friction.simulate(d)


def _fmu_against_run(cli, tmp_path, text, tolerances):
    """The FMU of scenario `text` under FMPy against `friction run` at the
    FMU's output times, column by column; returns FMPy's result."""
    fmpy = pytest.importorskip("fmpy")
    scenario = tmp_path / "scenario.toml"
    scenario.write_text(text)
    fmu = tmp_path / "scenario.fmu"
    r = subprocess.run([cli, "fmu", str(scenario), "-o", str(fmu)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    res = fmpy.simulate_fmu(str(fmu), output_interval=0.01)
    r = subprocess.run([cli, "run", str(scenario), "--out", str(tmp_path / "run")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    with open(tmp_path / "run" / "timeseries.csv") as f:
        lines = [ln for ln in f if not ln.startswith("#")]
    cols = lines[0].strip().split(",")
    data = np.loadtxt(lines[1:], delimiter=",", ndmin=2)
    csv = {c: data[:, i] for i, c in enumerate(cols)}
    idx = np.searchsorted(csv["t"], res["time"] - 1e-9)
    np.testing.assert_allclose(csv["t"][idx], res["time"], atol=1e-9)
    for c, tol in tolerances:
        diff = np.abs(csv[c][idx] - res[c]).max()
        assert diff < tol, (c, diff)
    return res


def test_spatial_joint_fmu_matches_friction_run(cli, tmp_path):
    text = SPATIAL.read_text().replace("t_end = 1.0", "t_end = 0.3").replace("rtol = 1e-8", "rtol = 1e-10")
    _fmu_against_run(cli, tmp_path, text,
                     [("x.m", 1e-7), ("y.m", 1e-7), ("z.m", 1e-9), ("N.j", 1e-4), ("Fx.j", 1e-3), ("Fy.j", 1e-3)])


def test_plane_stick_slip_fmu_matches_friction_run(cli, tmp_path):
    # the friction disk inside an FMU: the same stick and slip as `friction run`
    text = (ROOT / "examples" / "plane_stick_slip.toml").read_text().replace("t_end = 3.0", "t_end = 1.0")
    res = _fmu_against_run(cli, tmp_path, text, [("x.m", 1e-6), ("y.m", 1e-6), ("Fx.c", 1e-3), ("Fy.c", 1e-3)])
    assert np.any(res["state.c"] == 1.0) and np.any(res["state.c"] == 2.0)

"""simulate(): the command line's results, closed forms, the shapes of a Result."""

import csv
import json
import math
import subprocess

import numpy as np
import pytest

import friction


def read_csv(path):
    with open(path, newline="") as fh:
        # the first line is a `# units: ...` comment
        rows = [r for r in csv.reader(fh) if r and not r[0].startswith("#")]
    return rows[0], np.array([[float(x) for x in r] for r in rows[1:]])


def test_default_scenario_equals_cli_csv(root, cli, tmp_path):
    # `friction run` without a file runs the embedded LuGre stick-slip scenario
    subprocess.run([cli, "run", "--out", str(tmp_path)], check=True, capture_output=True)
    names, data = read_csv(tmp_path / "timeseries.csv")
    r = friction.simulate(root / "examples" / "lugre_stick_slip.toml")
    assert list(r.columns) == names
    assert r.data.shape == data.shape
    for i, n in enumerate(names):
        np.testing.assert_allclose(r.columns[n], data[:, i], rtol=1e-12, atol=1e-12 * np.abs(data[:, i]).max())
    with open(tmp_path / "summary.json") as fh:
        summary = json.load(fh)
    for key in ("name", "status", "final", "events", "energy"):
        assert r.summary[key] == summary[key]
    assert {k: v for k, v in r.summary["stats"].items() if k != "wall_time_s"} == \
        {k: v for k, v in summary["stats"].items() if k != "wall_time_s"}
    assert r.events == summary["events"]


def test_coulomb_free_decay_stops_at_closed_form(root):
    # m = 1, k = 100, Fc = Fs = 0.981, x0 = 0.1: the amplitude drops by 2 Fc/k per
    # half period; after five half periods (t = pi/2) the mass stays at x = -0.0019
    r = friction.simulate(root / "examples" / "coulomb_free_decay.toml")
    x = r.columns["x.m"]
    assert abs(x[-1] + 0.0019) < 1e-9
    after = r.t >= math.pi / 2 + 1e-3
    assert np.all(np.abs(x[after] + 0.0019) < 1e-9)
    assert np.all(r.columns["v.m"][after] == 0.0)
    assert r.events[-1]["to"] == "stuck"
    assert abs(r.events[-1]["t"] - math.pi / 2) < 1e-6


def test_dict_and_text_give_the_same_result(root):
    text = (root / "examples" / "coulomb_free_decay.toml").read_text()
    d = {
        "name": "coulomb_free_decay",
        "body": [{"name": "m", "mass": 1.0, "x0": 0.1}],
        "spring": [{"between": ["m", "ground"], "stiffness": 100.0}],
        "contact": [{"name": "c", "between": ["m", "ground"], "model": "coulomb",
                     "params": {"fc": 0.981, "fs": 0.981}}],
        "solver": {"t_end": 2.5, "output_dt": 0.001, "rtol": 1e-9,
                   "atol": {"position": 1e-12, "velocity": 1e-12}},
    }
    a, b = friction.simulate(text), friction.simulate(d)
    assert np.array_equal(a.data, b.data)
    assert a.summary["energy"] == b.summary["energy"]


def test_result_views_and_pandas(root):
    r = friction.simulate(root / "examples" / "coulomb_free_decay.toml")
    assert r.t is r.columns["t"] or np.shares_memory(r.t, r.data)
    assert all(np.shares_memory(v, r.data) for v in r.columns.values())
    with pytest.raises(ValueError):
        r.t[0] = 1.0  # read-only views
    pd = pytest.importorskip("pandas")
    df = r.to_pandas()
    assert isinstance(df, pd.DataFrame) and list(df.columns) == list(r.columns)
    assert r.summary["status"] == "ok" and r.failure is None


def test_failed_integration_carries_the_partial_result(root):
    text = (root / "examples" / "lugre_stick_slip.toml").read_text().replace(
        "max_step = 0.05", "max_step = 0.05\nmax_steps = 50")
    with pytest.raises(friction.SimulationError) as e:
        friction.simulate(text)
    res = e.value.result
    assert isinstance(res, friction.Result)
    assert res.summary["partial"] is True and res.summary["status"] == "failed"
    assert 0 < len(res.t) and res.t[-1] < 20.0


def test_units_and_slip_columns(root):
    r = friction.simulate(root / "examples" / "coupled_clutches.toml")
    assert r.units["t"] == "s"
    assert r.units["x.J1"] == "rad" and r.units["v.J1"] == "rad/s"
    assert r.units["F.clutch1"] == "N m"
    # the slip of a clutch is the difference of its inertias' angles
    np.testing.assert_array_equal(r.columns["sv.clutch1"], r.columns["v.J1"] - r.columns["v.J2"])
    assert set(r.units) == set(r.columns)

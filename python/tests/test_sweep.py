"""sweep(): closed forms, and a Dask cluster gives the local results bit for bit."""

import math

import numpy as np
import pytest

import friction


def coulomb_rest(x0, fc, k):
    """Where a Coulomb oscillator released from x0 (Fs = Fc) stops: the amplitude
    drops by 2 Fc/k per half period until it is within Fc/k of the spring's rest."""
    a, s = x0, 1.0
    while a > fc / k:
        a, s = a - 2 * fc / k, -s
    return s * a


def test_sweep_final_position_closed_form(root):
    fcs = [0.3, 0.6, 0.981, 1.7, 2.9]
    df = friction.sweep(root / "examples" / "coulomb_free_decay.toml", {"contact.c.fc": fcs, "contact.c.fs": fcs, "solver.t_end": [8.0] * len(fcs)},
                        ["final.x.m", "events.stuck", "energy.dissipated.c", "ptp.x.m[80%:]"], zip=True,
                        progress=False)
    for i, fc in enumerate(fcs):
        xf = coulomb_rest(0.1, fc, 100.0)
        assert df["final.x.m"][i] == pytest.approx(xf, abs=1e-8)
        # the dissipated energy is the spring energy lost
        assert df["energy.dissipated.c"][i] == pytest.approx(0.5 * 100 * (0.1 ** 2 - xf ** 2), rel=1e-6)
        assert df["events.stuck"][i] >= 1
        assert df["ptp.x.m[80%:]"][i] == 0.0  # at rest for good over the last 20 % of t_end
    assert all(e == "" for e in df["error"])


def test_sweep_product_order_and_paths(root):
    df = friction.sweep(root / "examples" / "coulomb_free_decay.toml",
                        {"body.m.mass": [1.0, 4.0], "spring.spring0.stiffness": [100.0, 400.0],
                         "solver.t_end": [0.2]},
                        ["final.t", "max.x.m", "min.v.m", "events.count"], progress=False)
    assert list(df["body.m.mass"]) == [1.0, 1.0, 4.0, 4.0]
    assert list(df["spring.spring0.stiffness"]) == [100.0, 400.0, 100.0, 400.0]
    assert np.all(df["final.t"] == 0.2)
    assert np.all(df["max.x.m"] == 0.1)
    # the first swing's peak speed, (x0 - Fc/k) sqrt(k/m), is reached within 0.2 s for these
    for m, k, vmin in zip(df["body.m.mass"], df["spring.spring0.stiffness"], df["min.v.m"]):
        w = math.sqrt(k / m)
        if math.pi / (2 * w) < 0.2:
            assert vmin == pytest.approx(-(0.1 - 0.981 / k) * w, rel=1e-3)


def test_sweep_on_dask_equals_local(root):
    distributed = pytest.importorskip("distributed")
    # fc up to the scenario's fs = 0.981
    grid = {"contact.c.fc": np.linspace(0.1, 0.95, 20), "body.m.mass": np.linspace(0.5, 5.0, 10)}
    metrics = ["final.x.m", "max.F.c", "min.v.m", "energy.dissipated.c", "events.stuck", "events.count"]
    sc = root / "examples" / "coulomb_free_decay.toml"
    local = friction.sweep(sc, grid, metrics, progress=False)
    assert len(local) == 200
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster) as client:
        remote = friction.sweep(sc, grid, metrics, client=client, progress=False)
    for c in list(grid) + metrics:
        assert np.array_equal(np.asarray(local[c]), np.asarray(remote[c])), c
    assert list(local["error"]) == list(remote["error"])


def test_cli_sweep_gives_the_python_numbers(root, cli, tmp_path):
    """`friction sweep` and friction.sweep run the same engine: identical numbers, bit for bit."""
    import csv
    import subprocess

    sc = root / "examples" / "coulomb_free_decay.toml"
    metrics = ["final.x.m", "max.F.c", "events.stuck", "energy.dissipated.c", "mean.v.m[50%:]"]
    out = tmp_path / "results.csv"
    cmd = [cli, "sweep", str(sc), "--grid", "contact.c.fc=0.1:0.95:4", "--grid", "body.m.mass=0.5,2,5",
           "-o", str(out)]
    for m in metrics:
        cmd += ["--metric", m]
    subprocess.run(cmd, check=True, capture_output=True)
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    df = friction.sweep(sc, {"contact.c.fc": np.linspace(0.1, 0.95, 4), "body.m.mass": [0.5, 2.0, 5.0]},
                        metrics, progress=False)
    assert len(rows) == len(df) == 12
    for c in ["contact.c.fc", "body.m.mass"] + metrics:
        from_cli = np.array([float(r[c]) for r in rows])
        assert np.array_equal(from_cli, np.asarray(df[c], dtype=float)), c
    assert [r["error"] for r in rows] == list(df["error"])


def test_prepared_grid_in_slices_equals_the_grid_run_at_once(root):
    """The local path parses each point once (sweep_prepare) and runs it in slices:
    any slicing gives the numbers of sweep_chunk (the Dask path), bit for bit."""
    from friction import _friction

    text = (root / "examples" / "coulomb_free_decay.toml").read_text()
    paths = ["contact.c.fc", "body.m.mass"]
    values = np.array([[fc, m] for fc in (0.2, 0.5, 0.9) for m in (0.5, 2.0)])
    metrics = ["final.x.m", "max.F.c", "events.stuck"]
    prepared = _friction.sweep_prepare(text, "decay.toml", str(root / "examples"), paths, values, metrics)
    assert len(prepared) == 6
    whole, errs = _friction.sweep_chunk(text, "decay.toml", str(root / "examples"), paths, values, metrics)
    a, ea = prepared.run(0, 2)
    b, eb = prepared.run(2, 6)
    assert np.array_equal(np.vstack([a, b]), whole) and ea + eb == errs == [""] * 6
    assert prepared.run(3, 3)[0].shape == (0, 3)
    with pytest.raises(ValueError, match="valid 0 <= start <= stop <= 6"):
        prepared.run(4, 7)
    # a bad point is refused when prepared, naming it
    with pytest.raises(friction.ScenarioError, match="grid point 1"):
        _friction.sweep_prepare(text, "decay.toml", ".", paths, np.array([[0.2, 1.0], [-1.0, 1.0]]), metrics)

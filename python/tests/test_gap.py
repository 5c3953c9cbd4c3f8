"""A compliant one-sided contact ([[gap]], Modelica's ElastoGap) from a dict scenario."""

import math

import numpy as np

import friction


def test_gap_from_a_dict_bounces_for_half_a_period(root):
    # 2 kg at 1 m/s onto an undamped linear gap of 800 N/m at x = 0: in contact for
    # half a period pi sqrt(m/c) = pi/20 s, 0.05 m deep, out again at 1 m/s
    m, c, v0, x0 = 2.0, 800.0, -1.0, 0.5
    w = math.sqrt(c / m)
    t1, half = x0 / -v0, math.pi / w
    d = {
        "name": "gap_bounce",
        "body": [{"name": "m", "mass": m, "x0": x0, "v0": v0}],
        "gap": [{"name": "floor", "between": ["ground", "m"], "stiffness": c}],
        "solver": {"t_end": t1 + half + 0.3, "output_dt": 1e-4, "rtol": 1e-12, "atol": 1e-14},
    }
    r = friction.simulate(d)
    x, f = r.columns["x.m"], r.columns["F.floor"]
    assert r.units["F.floor"] == "N"
    assert np.all(f >= 0.0)
    assert np.all(f[x > 0.0] == 0.0)
    assert abs(x.min() - v0 / w) < 1e-7
    assert abs(r.columns["v.m"][-1] + v0) < 1e-8
    # out of contact at t1 + half, then at 1 m/s up to the last row
    assert abs(x[-1] - (r.t[-1] - t1 - half)) < 1e-8
    assert r.summary["energy"]["gaps"] == {"floor": r.summary["energy"]["gaps"]["floor"]}
    assert abs(r.summary["energy"]["residual"]) < 1e-9


def test_a_puck_of_dim_2_on_a_penalty_floor_rubs_off_two_mu_vy():
    # a body of two coordinates thrown at (1, -1) m/s onto a floor whose penalty is
    # its contact's normal load (normal_stiffness): in contact pi sqrt(m/kn), out
    # again at (1 - 2 mu, 1) m/s; N >= 0 and F = -mu N on every row
    m, kn, mu = 0.5, 2e4, 0.3
    d = {
        "name": "puck",
        "body": [{"name": "m", "mass": m, "dim": 2, "x0": [0.0, 0.01], "v0": [1.0, -1.0]}],
        "contact": [
            {
                "name": "c",
                "between": ["m", "ground"],
                "model": "coulomb",
                "params": {"fc": mu},
                "normal_stiffness": kn,
                "gap": 0.0,
            }
        ],
        "solver": {"t_end": 0.05, "output_dt": 1e-4, "rtol": 1e-9},
    }
    r = friction.simulate(d)
    n, f = r.columns["N.c"], r.columns["F.c"]
    assert r.units["N.c"] == "N" and r.units["vy.m"] == "m/s"
    assert np.all(n >= 0.0)
    assert np.allclose(f, -mu * n, rtol=0.0, atol=1e-9)
    assert abs(r.columns["vx.m"][-1] - (1.0 - 2.0 * mu)) < 1e-8
    assert abs(r.columns["vy.m"][-1] - 1.0) < 1e-8
    closed = [e for e in r.summary["events"] if e["contact"] == "gap:c.normal"]
    assert [e["to"] for e in closed] == ["closed", "open"]
    assert abs(closed[1]["t"] - closed[0]["t"] - math.pi * math.sqrt(m / kn)) < 1e-10
    # its state: 0 exactly while the floor is open, 2 (sliding) while it presses
    s = r.columns["state.c"]
    assert r.units["state.c"] == "1"
    assert np.array_equal(s == 0.0, n == 0.0) and set(np.unique(s)) == {0.0, 2.0}


def test_an_inclined_spring_from_a_dict_oscillates_along_its_direction():
    # 2 kg of dim 2 on one spring along [3, 4] (k = 800 N/m): along e = (0.6, 0.8) it
    # oscillates at sqrt(k/m), across it it drifts at its initial speed
    m, k = 2.0, 800.0
    x0, v0 = np.array([0.1, 0.05]), np.array([0.2, -0.1])
    d = {
        "name": "tilted",
        "body": [{"name": "m", "mass": m, "dim": 2, "x0": list(x0), "v0": list(v0)}],
        "spring": [{"name": "k", "between": ["ground", "m"], "stiffness": k, "direction": [3, 4]}],
        "solver": {"t_end": 1.0, "output_dt": 0.01, "rtol": 1e-11, "atol": 1e-13},
    }
    r = friction.simulate(d)
    e, n = np.array([0.6, 0.8]), np.array([-0.8, 0.6])
    w, t = math.sqrt(k / m), r.t
    p = x0 @ e * np.cos(w * t) + v0 @ e / w * np.sin(w * t)
    q = x0 @ n + v0 @ n * t
    assert np.max(np.abs(r.columns["x.m"] - (p * e[0] + q * n[0]))) < 1e-9
    assert np.max(np.abs(r.columns["y.m"] - (p * e[1] + q * n[1]))) < 1e-9

"""Thermal nodes from a dict scenario: temperatures and heat flows as columns."""

import math

import friction


def test_driven_contact_heats_a_capacity_as_the_closed_form():
    # a Coulomb contact driven at 0.4 m/s under 250 N (fc 0.3): P = 30 W into a
    # 120 J/K capacity with 2.5 W/K to a 293.15 K ambient:
    # T(t) = Ta + (P/G) (1 - exp(-G t / C))
    fc, n, v, c, g, ta = 0.3, 250.0, 0.4, 120.0, 2.5, 293.15
    d = {
        "driver": [{"name": "w", "motion": {"type": "ramp", "rate": v}}],
        "contact": [
            {"name": "c", "between": ["w", "ground"], "model": "coulomb", "params": {"fc": fc},
             "normal": n, "heat": "pad"},
        ],
        "thermal": [{"name": "pad", "capacity": c, "T0": ta}, {"name": "air", "fixed": ta}],
        "conduction": [{"name": "pad-air", "between": ["pad", "air"], "conductance": g}],
        "solver": {"t_end": 200.0, "output_dt": 1.0, "rtol": 1e-12},
    }
    r = friction.simulate(d)
    p = fc * n * v
    assert r.units["T.pad"] == "K" and r.units["Q.pad-air"] == "W"
    for t, temp, q in zip(r.t[1:], r.columns["T.pad"][1:], r.columns["Q.pad-air"][1:]):
        rise = p / g * (1.0 - math.exp(-g * t / c))
        assert abs((temp - ta) - rise) < 1e-9 * rise
        assert abs(q - g * (temp - ta)) < 1e-9 * p
    heat = r.summary["energy"]["thermal"]
    assert abs(heat["pad"] + heat["air"] - p * 200.0) < 1e-8 * p * 200.0


def test_temperature_laws_in_the_dict_form_follow_the_linear_odes_closed_form():
    # stribeck with fc and fs linear in T, driven at v near its Stribeck
    # velocity: F = A + B (T - Tr), so C dT/dt = N v (A + B (T - Tr)) - G (T - Ta)
    # is linear: T(t) = T* + (Ta - T*) exp(beta t). The laws as nested dicts:
    # a linear law for fc, a table for fs (the same line over the run).
    v, n, c, g, ta, tr, vs = 0.012, 5000.0, 20.0, 0.2, 293.15, 293.15, 0.01
    ac, bc, a_s, bs = 0.3, -2e-4, 0.5, -3e-4
    fs_at = lambda t: a_s + bs * (t - tr)
    d = {
        "driver": [{"name": "w", "motion": {"type": "ramp", "rate": v}}],
        "contact": [
            {"name": "c", "between": ["w", "ground"], "model": "stribeck", "normal": n, "heat": "pad",
             "params": {"fc": {"ref": tr, "value": ac, "slope": bc},
                        "fs": {"at": [[250.0, fs_at(250.0)], [600.0, fs_at(600.0)]]}, "vs": vs}},
        ],
        "thermal": [{"name": "pad", "capacity": c, "T0": ta}, {"name": "air", "fixed": ta}],
        "conduction": [{"name": "pad-air", "between": ["pad", "air"], "conductance": g}],
        "solver": {"t_end": 200.0, "output_dt": 1.0, "rtol": 1e-12},
    }
    r = friction.simulate(d)
    phi = math.exp(-((v / vs) ** 2))
    a, b = ac + (a_s - ac) * phi, bc + (bs - bc) * phi
    beta = (n * v * b - g) / c
    t_star = -((n * v * (a - b * tr) + g * ta) / c) / beta
    for t, temp, f in zip(r.t[1:], r.columns["T.pad"][1:], r.columns["F.c"][1:]):
        exact = t_star + (ta - t_star) * math.exp(beta * t)
        assert abs(temp - exact) < 1e-9 * (exact - ta)
        assert abs(f + n * (a + b * (temp - tr))) < 1e-9 * n * a
    # a law leaving the valid range is refused naming the parameter
    d["contact"][0]["params"]["vs"] = {"ref": 300.0, "value": 0.01, "slope": -1e-4}
    try:
        friction.simulate(d)
    except Exception as e:  # noqa: BLE001 - the message is what is checked
        assert "`vs` = 0 at T = 400 K" in str(e), str(e)
    else:
        raise AssertionError("a law taking vs to 0 was accepted")

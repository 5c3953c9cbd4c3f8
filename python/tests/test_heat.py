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

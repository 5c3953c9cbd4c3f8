"""Composed signals given in a scenario dict: sum, product, window and the periodic signals."""

import math

import numpy as np
import pytest

import friction


def free_body(value):
    return {
        "name": "burst",
        "body": [{"name": "m", "mass": 2.0}],
        "force": [{"name": "f", "on": "m", "value": value}],
        "solver": {"t_end": 1.0, "output_dt": 0.001, "rtol": 1e-12,
                   "atol": {"position": 1e-14, "velocity": 1e-13}},
    }


def test_windowed_sine_force_from_a_dict_matches_the_closed_form():
    # F = 200 sin(100 t) for t < 0.5, 0 after, on m = 2: v = (200 / (100 m)) (1 - cos 100 t), then constant
    burst = {"type": "window", "start": 0.0, "end": 0.5,
             "inner": {"type": "sine", "amplitude": 200.0, "frequency": 100.0 / (2.0 * math.pi)}}
    r = friction.simulate(free_body(burst))
    t, x, v = r.t, r.columns["x.m"], r.columns["v.m"]
    tt = np.minimum(t, 0.5)
    v_cf = 1.0 * (1.0 - np.cos(100.0 * tt))
    x_cf = (tt - np.sin(100.0 * tt) / 100.0) + (1.0 - math.cos(50.0)) * np.maximum(t - 0.5, 0.0)
    assert np.max(np.abs(v - v_cf)) < 1e-7
    assert np.max(np.abs(x - x_cf)) < 1e-8


def test_sum_of_a_product_and_a_pulse_train_from_a_dict():
    # F = 3 t sin(2 pi t) + pulse train (4 on the first 0.1 s of every 0.25 s): the impulse
    # up to T is 3 (sin(2 pi T) / (4 pi^2) - T cos(2 pi T) / (2 pi)) + 4 * 0.1 per started
    # period (four of them for 0.85 <= T < 1); v(T) = impulse / m at the last row's T
    value = {"type": "sum", "terms": [
        {"type": "product", "factors": [{"type": "ramp", "rate": 3.0}, {"type": "sine", "amplitude": 1.0,
                                                                          "frequency": 1.0}]},
        {"type": "pulse_train", "amplitude": 4.0, "period": 0.25, "duty": 0.4},
    ]}
    r = friction.simulate(free_body(value))
    T = r.t[-1]
    assert 0.85 <= T <= 1.0
    w = 2.0 * math.pi
    impulse = 3.0 * (math.sin(w * T) / w**2 - T * math.cos(w * T) / w) + 1.6
    assert r.columns["v.m"][-1] == pytest.approx(impulse / 2.0, abs=1e-8)


def test_bad_composition_in_a_dict_names_the_key_and_the_range():
    with pytest.raises(friction.ScenarioError) as e:
        friction.simulate(free_body({"type": "sum", "terms": []}))
    assert "`terms` has 0 entries; valid: 1 to 256" in str(e.value)
    with pytest.raises(friction.ScenarioError) as e:
        friction.simulate(free_body({"type": "window", "start": 0.5, "end": 0.2, "inner": 1.0}))
    assert "`end` = 0.2 must be greater than `start` = 0.5" in str(e.value)

"""Model.update in two tangential directions (arrays of shape (n, 2)) against closed forms."""

import math

import numpy as np
import pytest

import friction


def test_jenkins_on_a_circle_lags_by_acos_d_over_r():
    # A Jenkins element (spring kt, slider of strength fs) driven around a
    # circle of radius R > d = fs/kt: at steady state |F| = fs, and the force
    # makes the angle acos(d/R) with the position (the slider circles at
    # radius sqrt(R^2 - d^2), the spring tangent to its circle). Each contact
    # has its own radius; 20,000 steps per turn leave a lag of order 1e-4.
    kt, fs = 1e5, 1.0
    d = fs / kt
    m = friction.Model("jenkins", kt=kt, fs=fs)
    radii = np.array([1.5, 2.0, 4.0]) * d
    n = len(radii)
    s = m.init(n, dim=2)
    assert s.shape == (n, m.state_len_2d) == (n, 5)
    per = 20_000
    out = np.empty((n, 2))
    for _ in range(100):  # out along x to the orbit
        m.update(1e-5, np.column_stack([radii / 100, np.zeros(n)]), 1.0, s, out=out)
    for k in range(1, 3 * per + 1):
        a0, a1 = 2 * math.pi * (k - 1) / per, 2 * math.pi * k / per
        du = np.outer(radii, [math.cos(a1) - math.cos(a0), math.sin(a1) - math.sin(a0)])
        F = m.update(1e-5, du, 1.0, s, out=out)
    pos = np.column_stack([radii, np.zeros(n)])  # three full turns: back on the x axis
    mag = np.hypot(F[:, 0], F[:, 1])
    angle = np.arccos(np.sum(F * pos, axis=1) / (mag * radii))
    np.testing.assert_allclose(mag, fs, rtol=1e-12)
    np.testing.assert_allclose(angle, np.arccos(d / radii), atol=1e-3)


def test_lugre_at_constant_velocity_in_any_direction():
    # |F| = g(|v|) + sigma2 |v| along v, g the Gaussian Stribeck curve.
    p = dict(sigma0=1e5, sigma1=316.0, sigma2=0.4, fc=1.0, fs=1.5, vs=1e-3)
    m = friction.Model("lugre", **p)
    speed = np.array([2e-4, 1e-3, 5e-2])
    angle = np.array([0.4, 2.5, -1.0])
    dt = 5e-3  # 2000 steps: the slowest contact slides 2 mm, over a hundred g/sigma0
    du = np.column_stack([speed * dt * np.cos(angle), speed * dt * np.sin(angle)])
    s = m.init(3, dim=2)
    for _ in range(2000):
        F = m.update(dt, du, 2.0, s)
    g = p["fc"] + (p["fs"] - p["fc"]) * np.exp(-((speed / p["vs"]) ** 2))
    exact = 2.0 * (g + p["sigma2"] * speed)
    np.testing.assert_allclose(F[:, 0], exact * np.cos(angle), rtol=1e-12)
    np.testing.assert_allclose(F[:, 1], exact * np.sin(angle), rtol=1e-12)


def test_axis_path_equals_the_1d_update_and_zero_across():
    m = friction.Model("iwan4", n=30)
    rng = np.random.default_rng(4)
    du = rng.uniform(-3e-6, 3e-6, size=(200, 8))
    s1, s2 = m.init(8), m.init(8, dim=2)
    for row in du:
        f1 = m.update(1e-4, row, 1.5, s1)
        f2 = m.update(1e-4, np.column_stack([np.zeros(8), row]), 1.5, s2)
        assert np.array_equal(f2[:, 1], f1)
        assert np.all(f2[:, 0] == 0.0)


def test_models_without_a_vector_form_and_bad_shapes_raise():
    m = friction.Model("magic_formula")
    with pytest.raises(ValueError, match="magic_formula.*no 2-D"):
        m.init(3, dim=2)
    with pytest.raises(ValueError, match="magic_formula"):
        m.update(1e-3, np.zeros((3, 2)), 1.0, np.zeros((3, 4)))
    c = friction.Model("coulomb")
    with pytest.raises(ValueError, match="dim"):
        c.init(3, dim=3)
    s = c.init(3, dim=2)
    with pytest.raises(ValueError, match=r"\(n,\) or \(n, 2\)"):
        c.update(1e-3, np.zeros((3, 3)), 1.0, s)
    with pytest.raises(ValueError, match="state_len_2d"):
        c.update(1e-3, np.zeros((3, 2)), 1.0, c.init(3))
    with pytest.raises(ValueError, match=r"expected \(3, 2\)"):
        c.update(1e-3, np.zeros((3, 2)), 1.0, s, out=np.zeros(3))
    with pytest.raises(ValueError, match="not finite"):
        c.update(1e-3, np.array([[0.0, 0.0], [np.nan, 0.0], [0.0, 0.0]]), 1.0, s)
    out = np.zeros((3, 2))
    F = c.update(1e-3, np.array([[3e-6, 4e-6], [0.0, 0.0], [0.0, -1e-6]]), 2.0, s, out=out)
    assert F is out
    np.testing.assert_allclose(F, [[1.2, 1.6], [0.0, 0.0], [0.0, -2.0]], rtol=1e-15)


def test_dahl_and_bouc_wen_in_the_plane():
    # Dahl (exponent 1) from rest at constant velocity in any direction
    # follows its first loading branch F = Fc (1 - exp(-sigma0 s / Fc)) along
    # v, s the slip distance; Bouc-Wen slides at its 1-D sliding force
    # kj (A/(beta + gamma))^(1/n) along v, in every direction.
    angle = np.array([0.3, 2.0, -2.6])
    e = np.column_stack([np.cos(angle), np.sin(angle)])
    sigma0, fc, h = 3e4, 0.7, 2e-6
    m = friction.Model("dahl", sigma0=sigma0, fc=fc)
    s = m.init(3, dim=2)
    assert s.shape == (3, 5)
    for k in range(1, 101):
        F = m.update(1e-3, h * e, 1.0, s)
        exact = fc * (1.0 - math.exp(-sigma0 * h * k / fc))
        np.testing.assert_allclose(F, exact * e, rtol=0, atol=1e-12 * fc)
    b = friction.Model("bouc_wen", n=2.0, beta=7e9, gamma=3e9, k=1e5)
    s = b.init(3, dim=2)
    for _ in range(200):
        F = b.update(1e-3, 5e-6 * e, 1.0, s)
    np.testing.assert_allclose(F, 1e5 * math.sqrt(1.0 / 1e10) * e, rtol=0, atol=1e-6)
    with pytest.raises(ValueError, match="elasto_plastic.*no 2-D"):
        friction.Model("elasto_plastic").init(3, dim=2)

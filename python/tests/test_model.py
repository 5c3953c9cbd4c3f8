"""Model.update against closed forms."""

import math

import numpy as np
import pytest

import friction


def test_jenkins_loop_dissipation_closed_form():
    # A Jenkins element (spring kt, slider of strength f) driven around the
    # closed cycle u0 -> -u0 -> u0 dissipates 4 f (u0 - f/kt) once u0 > f/kt.
    # Each contact gets its own amplitude; the kinks fall on the step grid, so
    # the trapezoidal loop integral is exact up to rounding.
    kt, f = 1e5, 1.0
    m = friction.Model("jenkins", kt=kt, fs=f)
    amps = np.array([2e-5, 5e-5, 1e-4, 4e-4])
    nsteps = 2000
    s = m.init(len(amps))
    du = amps / nsteps
    dt = 1e-3
    # virgin loading to +u0
    for _ in range(nsteps):
        F = m.update(dt, du, 1.0, s)
    energy = np.zeros_like(amps)
    for direction in (-1.0, 1.0):
        for _ in range(2 * nsteps):
            F_new = m.update(dt, direction * du, 1.0, s)
            energy += 0.5 * (F + F_new) * direction * du
            F = F_new
    np.testing.assert_allclose(energy, 4 * f * (amps - f / kt), rtol=1e-9)
    np.testing.assert_allclose(s[:, 1], amps, rtol=1e-12)  # x in the state [t, x, ...]


def test_coulomb_force_is_normal_times_fc_sign():
    fc = 0.7
    m = friction.Model("coulomb", fc=fc)
    du = np.array([1e-3, -2e-6, 0.0, 5.0, -1e-9])
    normal = np.array([1.0, 2.5, 3.0, 0.0, 10.0])
    s = m.init(len(du))
    F = m.update(1e-3, du, normal, s)
    np.testing.assert_array_equal(F, normal * fc * np.sign(du))


def test_lugre_settles_on_its_stribeck_curve():
    # at constant v, LuGre's force tends to g(v) + sigma2 v, g = fc + (fs - fc) exp(-(v/vs)^2)
    fc, fs, vs, s2 = 1.0, 1.5, 1e-3, 0.4
    m = friction.Model("lugre", fc=fc, fs=fs, vs=vs, sigma2=s2)
    v = np.array([1e-4, 5e-4, 1e-3, -2e-3, 1e-2])
    st = m.init(len(v))
    dt = 0.1
    for _ in range(50):
        F = m.update(dt, v * dt, 2.0, st)
    g = fc + (fs - fc) * np.exp(-(v / vs) ** 2)
    np.testing.assert_allclose(F, 2.0 * (g * np.sign(v) + s2 * v), rtol=1e-9)
    assert m.method == "exact" and m.state_len == 3


def test_many_contacts_equal_one_by_one():
    m = friction.Model("lugre")
    rng = np.random.default_rng(7)
    n = 1000
    du = rng.normal(0, 1e-5, n)
    s = m.init(n)
    F = m.update(1e-3, du, 1.0, s)
    for i in (0, 17, 999):
        si = m.init(1)
        Fi = m.update(1e-3, du[i:i + 1], 1.0, si)
        assert Fi[0] == F[i]
        assert np.array_equal(si[0], s[i])


def test_update_into_out_equals_the_returned_forces():
    # `out=` gives the same forces and states as a fresh array, bit for bit,
    # and is itself the result; its memory is reused across steps
    for model, kw in (("lugre", {}), ("iwan4", {"n": 50})):
        m = friction.Model(model, **kw)
        rng = np.random.default_rng(3)
        n = 5000
        s1, s2 = m.init(n), m.init(n)
        out = np.full(n, np.nan)
        for _ in range(5):
            du = rng.normal(0, 2e-6, n)
            normal = rng.uniform(0.5, 2.0, n)
            f1 = m.update(1e-4, du, normal, s1)
            f2 = m.update(1e-4, du, normal, s2, out=out)
            assert f2 is out
            assert np.array_equal(f1, out)
            assert np.array_equal(s1, s2)


def test_update_out_is_checked():
    m = friction.Model("coulomb")
    s = m.init(3)
    with pytest.raises(ValueError, match=r"`out` has shape \(4,\), expected \(3,\)"):
        m.update(1e-3, np.zeros(3), 1.0, s, out=np.zeros(4))
    with pytest.raises(TypeError, match="`out` must have dtype float64"):
        m.update(1e-3, np.zeros(3), 1.0, s, out=np.zeros(3, dtype=np.float32))
    with pytest.raises(TypeError, match="numpy.ndarray"):
        m.update(1e-3, np.zeros(3), 1.0, s, out=[0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="C-contiguous"):
        m.update(1e-3, np.zeros(3), 1.0, s, out=np.zeros(6)[::2])
    du = np.zeros(3)
    with pytest.raises(ValueError, match="share memory"):
        m.update(1e-3, du, 1.0, s, out=du)
    before = s.copy()
    with pytest.raises(ValueError, match="not finite"):
        m.update(1e-3, np.array([0.0, np.nan, 0.0]), 1.0, s, out=np.zeros(3))
    assert np.array_equal(s, before)


def test_describe_and_models():
    ids = friction.models()
    assert {"coulomb", "lugre", "jenkins", "maxwell_slip"} <= set(ids)
    d = friction.describe("lugre")
    assert d["id"] == "lugre" and d["family"] == "continuous state"
    p = {q["name"]: q for q in d["parameters"]}
    assert p["sigma0"]["unit"] == "N/m" and p["sigma0"]["default"] == 1e5
    assert p["sigma0"]["range"] == "(0, inf)"
    for i in ids:
        text = repr(friction.describe(i))
        assert "seed 0" not in text, i
    assert "Canudas de Wit" in d["sources"]

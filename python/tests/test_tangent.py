"""Model.update(..., tangent=True): the consistent tangent for implicit codes.

The tangent is checked against central differences of the update itself
(seeded random states in stick and slip), its shapes in 1-D and 2-D, the
forces and states against the plain update bit for bit, and its misuse
against exceptions naming the argument.
"""

import numpy as np
import pytest

import friction


def _history(m, rng, n, dt, dim=1, steps=6):
    """States after a seeded random slip history (micro-slip to gross slip)."""
    s = m.init(n, dim=dim)
    for _ in range(steps):
        mag = 10.0 ** rng.uniform(-8, -4, size=n)
        du = mag * rng.choice([-1.0, 1.0], size=n)
        if dim == 2:
            a = rng.uniform(0, 2 * np.pi, size=n)
            du = np.column_stack([mag * np.cos(a), mag * np.sin(a)])
        m.update(dt, du, 1.0, s)
    return s


@pytest.mark.parametrize("model_id", ["jenkins", "lugre", "dahl", "iwan4", "stribeck_tanh", "elasto_plastic"])
def test_tangent_1d_equals_central_differences_of_the_update(model_id):
    m = friction.Model(model_id)
    rng = np.random.default_rng(46)
    n, dt = 40, 1e-3
    s0 = _history(m, rng, n, dt)
    du = 10.0 ** rng.uniform(-8, -4, size=n) * rng.choice([-1.0, 1.0], size=n)
    normal = rng.uniform(0.5, 2.0, size=n)
    s = s0.copy()
    f, k, dn = m.update(dt, du, normal, s, tangent=True)
    assert f.shape == k.shape == dn.shape == (n,)
    s_plain = s0.copy()
    f_plain = m.update(dt, du, normal, s_plain)
    assert np.array_equal(f, f_plain) and np.array_equal(s, s_plain)
    np.testing.assert_allclose(dn * normal, f, rtol=1e-12, atol=1e-300)

    def force(u):
        return m.update(dt, u, normal, s0.copy())

    h = 1e-4 * np.abs(du)
    fd = (force(du + h) - force(du - h)) / (2 * h)
    fwd = (force(du + 0.01 * h) - force(du)) / (0.01 * h)
    bwd = (force(du) - force(du - 0.01 * h)) / (0.01 * h)
    # errors on the scale of the tangent, or of the stick stiffness (the
    # tangent at a zero increment) where the tangent is small: the
    # differences' rounding, and for the implicit update its own tolerance
    _, k0, _ = m.update(dt, np.zeros(n), normal, s0.copy(), tangent=True)
    if m.method == "implicit":
        tol, scale = 1e-3, np.maximum(np.abs(fd), np.abs(k0))
    else:
        tol, scale = 1e-5, np.maximum(np.abs(fd), 1e-6 * np.abs(k0).max())
    # away from a kink (an element reaching its slip force within the
    # difference step, where the one-sided slopes part) the central
    # difference; at a kink one of the one-sided slopes
    smooth = np.abs(fwd - bwd) <= 1e-3 * scale
    assert np.all(np.abs(k - fd)[smooth] <= tol * scale[smooth]), (k[smooth], fd[smooth])
    one_sided = np.minimum(np.abs(k - fwd), np.abs(k - bwd))
    assert np.all(one_sided[~smooth] <= 1e-3 * scale[~smooth])
    assert smooth.sum() >= n // 2


@pytest.mark.parametrize("model_id", ["jenkins", "lugre", "coulomb", "iwan4", "bouc_wen"])
def test_tangent_2d_shapes_and_central_differences(model_id):
    m = friction.Model(model_id)
    rng = np.random.default_rng(462)
    n, dt = 20, 1e-3
    s0 = _history(m, rng, n, dt, dim=2)
    mag = 10.0 ** rng.uniform(-8, -4, size=n)
    a = rng.uniform(0, 2 * np.pi, size=n)
    du = np.column_stack([mag * np.cos(a), mag * np.sin(a)])
    s = s0.copy()
    f, k, dn = m.update(dt, du, 2.0, s, tangent=True)
    assert f.shape == (n, 2) and k.shape == (n, 2, 2) and dn.shape == (n, 2)
    s_plain = s0.copy()
    assert np.array_equal(m.update(dt, du, 2.0, s_plain), f) and np.array_equal(s, s_plain)
    for b in range(2):
        h = np.zeros((n, 2))
        h[:, b] = 1e-4 * mag
        fp = m.update(dt, du + h, 2.0, s0.copy())
        fm = m.update(dt, du - h, 2.0, s0.copy())
        fd = (fp - fm) / (2 * h[:, b:b + 1])
        err = np.hypot(*(k[:, :, b] - fd).T)
        scale = np.maximum(np.hypot(*fd.T), 1e-6 * np.max(np.abs(k)))
        # elements reaching their disk within the step make a few kinks;
        # most contacts are smooth there
        assert np.mean(err <= 1e-5 * scale) >= 0.8, (model_id, b, err / scale)


def test_tangent_misuse_raises_naming_the_argument():
    m = friction.Model("jenkins")
    s = m.init(2)
    with pytest.raises(TypeError, match="`tangent`"):
        m.update(1e-3, [1e-6, 1e-6], 1.0, s, tangent="yes")
    with pytest.raises(ValueError, match="`out`"):
        m.update(1e-3, [1e-6, 1e-6], 1.0, s, out=np.empty(2), tangent=True)
    with pytest.raises(ValueError, match="`dt`"):
        m.update(-1.0, [1e-6, 1e-6], 1.0, s, tangent=True)
    # bouc_wen's 2-D tangent, once refused, is given: from rest along x
    # the elastic start, kj A along the slip and across it
    b = friction.Model("bouc_wen")
    _, k, _ = b.update(1e-3, np.array([[1e-9, 0.0]]), 1.0, b.init(1, dim=2), tangent=True)
    assert np.all(np.isfinite(k)) and k[0, 0, 0] > 0.9e5 and k[0, 1, 1] > 0.9e5

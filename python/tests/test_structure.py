"""``[[structure]]`` from Python: the matrices of a scenario dict given as
SciPy sparse matrices or NumPy arrays, against the same structure typed as
bodies and springs."""

import numpy as np
import pytest
import scipy.sparse as sp

import friction


def _chain(mass, k):
    """Three masses ground - k - a - k - b - k - c, a Jenkins joint on b,
    a damper and the shaker on c: as bodies and springs."""
    return {
        "name": "chain",
        "body": [{"name": n, "mass": mass} for n in "abc"],
        "spring": [{"between": ["a", "ground"], "stiffness": k}, {"between": ["b", "a"], "stiffness": k},
                   {"between": ["c", "b"], "stiffness": k}],
        "damper": [{"between": ["c", "ground"], "coefficient": 2.0}],
        "contact": [{"name": "j", "between": ["b", "ground"], "model": "jenkins",
                     "params": {"kt": 1e4, "fs": 0.5}}],
        "force": [{"name": "p", "on": "c", "value": {"type": "sine", "amplitude": 1.0, "frequency": 1.0}}],
        "solver": {"t_end": 1.0},
    }


def _as_matrices(mass, k, dense):
    m = sp.diags([mass] * 3).tocsr()
    kk = sp.diags([[-k] * 2, [2 * k, 2 * k, k], [-k] * 2], [-1, 0, 1]).tocsr()
    if dense:
        m, kk = m.toarray(), kk.toarray()
    return {
        "name": "chain",
        "structure": [{"name": "s", "mass": m, "stiffness": kk}],
        "damper": [{"between": ["s:2", "ground"], "coefficient": 2.0}],
        "contact": [{"name": "j", "between": ["s:1", "ground"], "model": "jenkins",
                     "params": {"kt": 1e4, "fs": 0.5}}],
        "force": [{"name": "p", "on": "s:2", "value": {"type": "sine", "amplitude": 1.0, "frequency": 1.0}}],
        "solver": {"t_end": 1.0},
    }


@pytest.mark.parametrize("dense", [False, True])
def test_structure_from_scipy_matrices_gives_the_bodies_frf(dense):
    a = friction.frf(_chain(0.5, 2e4), "p", 10.0, 60.0, harmonics=5)
    b = friction.frf(_as_matrices(0.5, 2e4, dense), "p", 10.0, 60.0, harmonics=5)
    assert list(b.columns)[:3] == ["f", "a.s:1", "a.s:2"]
    np.testing.assert_allclose(b.columns["f"], a.columns["f"], rtol=1e-10)
    np.testing.assert_allclose(b.columns["a.s:2"], a.columns["a.c"], rtol=1e-10)


def test_an_asymmetric_matrix_is_refused_with_the_key():
    s = _as_matrices(0.5, 2e4, True)
    s["structure"][0]["stiffness"][0, 1] = -1.5e4
    with pytest.raises(friction.ScenarioError, match="not symmetric"):
        friction.frf(s, "p", 10.0, 60.0)


@pytest.mark.parametrize("dense", [False, True])
def test_simulate_on_scipy_matrices_runs_as_the_bodies(dense):
    """``friction.simulate`` on the structure: the DOFs something names are
    columns ``x.s:1``, ``v.s:2``, ..., and the run follows the bodies' to the
    tolerance (not the same bits: ``K x`` rounds otherwise than the springs)."""
    solver = {"t_end": 0.2, "output_dt": 1e-3, "rtol": 1e-12, "atol": 1e-15}
    a = friction.simulate({**_chain(0.5, 2e4), "solver": solver})
    b = friction.simulate({**_as_matrices(0.5, 2e4, dense), "solver": solver})
    assert [c for c in b.columns if c.startswith(("x.", "v."))] == ["x.s:1", "v.s:1", "x.s:2", "v.s:2"]
    for x, y in [("x.b", "x.s:1"), ("v.c", "v.s:2"), ("F.j", "F.j")]:
        scale = np.max(np.abs(a.columns[x]))
        np.testing.assert_allclose(b.columns[y], a.columns[x], rtol=0, atol=1e-9 * scale)


def test_simulate_holds_a_coulomb_joint_at_a_structure_dof_as_at_the_body():
    """A Coulomb joint (stick and slip) on the structure's DOF runs like the
    same joint on the body: the sticking and slipping instants and the
    joint's force agree to the tolerance."""
    solver = {"t_end": 0.5, "output_dt": 1e-3, "rtol": 1e-12, "atol": 1e-15}
    joint = {"model": "coulomb", "params": {"fc": 0.3, "fs": 0.4}}
    a, b = _chain(0.5, 2e4), _as_matrices(0.5, 2e4, False)
    a["contact"][0].update(joint)
    b["contact"][0].update(joint)
    for s in (a, b):
        s["force"][0]["value"]["frequency"] = 8.0
        s["solver"] = solver
    ra, rb = friction.simulate(a), friction.simulate(b)
    assert len(ra.events) == len(rb.events) >= 4
    for x, y in [("x.b", "x.s:1"), ("v.b", "v.s:1"), ("F.j", "F.j")]:
        scale = np.max(np.abs(ra.columns[x]))
        np.testing.assert_allclose(rb.columns[y], ra.columns[x], rtol=0, atol=1e-9 * scale)

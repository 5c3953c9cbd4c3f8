"""The engine's own integrators against an independent one: SciPy's Radau
(Hairer and Wanner's Radau IIA of order 5, in SciPy's implementation) on the
LuGre stick-slip example, written out here from the model's equations
(Canudas de Wit, Olsson, Astrom, Lischinsky 1995, "A new model for control
of systems with friction", IEEE TAC 40(3), eqs. 2-4), so neither the
engine's Radau5 nor its BDF is checked against itself."""

import math

import numpy as np
import pytest

import friction

scipy_integrate = pytest.importorskip("scipy.integrate")

# examples/lugre_stick_slip.toml: a unit mass pulled through a 2 N/m spring
# whose far end moves at 0.1 m/s, on a LuGre contact with a Gaussian
# Stribeck curve
M, K, RATE = 1.0, 2.0, 0.1
S0, S1, S2, FC, FS, VS = 1e5, 316.22776601683796, 0.4, 1.0, 1.5, 1e-3
T_END = 10.0  # the first break-away (about 7.5 s), a slip and a re-stick


def lugre_rhs(t, y):
    x, v, z = y
    g = FC + (FS - FC) * math.exp(-((v / VS) ** 2))
    dz = v - S0 * abs(v) * z / g
    f = S0 * z + S1 * dz + S2 * v
    return [v, (K * (RATE * t - x) - f) / M, dz]


def lugre_jac(t, y):
    x, v, z = y
    e = math.exp(-((v / VS) ** 2))
    g = FC + (FS - FC) * e
    dg = (FS - FC) * e * (-2.0 * v / VS**2)
    sv = math.copysign(1.0, v) if v != 0.0 else 0.0
    ddz_dv = 1.0 - S0 * z * (sv * g - abs(v) * dg) / g**2
    ddz_dz = -S0 * abs(v) / g
    return [
        [0.0, 1.0, 0.0],
        [-K / M, -(S1 * ddz_dv + S2) / M, -(S0 + S1 * ddz_dz) / M],
        [0.0, ddz_dv, ddz_dz],
    ]


@pytest.fixture(scope="module")
def reference():
    sol = scipy_integrate.solve_ivp(
        lugre_rhs, (0.0, T_END), [0.0, 0.0, 0.0], method="Radau", jac=lugre_jac,
        rtol=1e-11, atol=[1e-13, 1e-12, 1e-16], dense_output=True,
    )
    assert sol.success, sol.message
    return sol


def scenario(root, method):
    text = (root / "examples" / "lugre_stick_slip.toml").read_text()
    head = text[: text.index("[solver]")]
    return head + (
        f'[solver]\nt_end = {T_END}\noutput_dt = 0.01\nmethod = "{method}"\nrtol = 1e-10\n'
        "atol = { position = 1e-13, velocity = 1e-12, state = 1e-16 }\nmax_step = 0.05\n"
    )


@pytest.mark.parametrize("method", ["radau5", "bdf"])
def test_engine_integrators_follow_scipy_radau_through_stick_slip(root, reference, method):
    r = friction.simulate(scenario(root, method))
    assert r.summary["status"] == "ok", r.summary
    x, v, z = reference.sol(r.t)
    # the break-away happened and the mass moved: the comparison spans stick and slip
    assert np.ptp(r.columns["v.m"]) > 0.05
    err_x = np.max(np.abs(r.columns["x.m"] - x))
    err_v = np.max(np.abs(r.columns["v.m"] - v))
    # the force column (the contact's force on the mass, opposing the
    # slip) against the model's force from the reference's states
    g = FC + (FS - FC) * np.exp(-((v / VS) ** 2))
    dz = v - S0 * np.abs(v) * z / g
    f = S0 * z + S1 * dz + S2 * v
    err_f = np.max(np.abs(r.columns["F.c"] + f))
    print(f"{method}: max |dx| {err_x:.2e} m, |dv| {err_v:.2e} m/s, |dF| {err_f:.2e} N")
    # measured: radau5 1.4e-10 m, 2.4e-10 m/s, 3.5e-8 N; bdf 1.2e-8 m,
    # 2.1e-8 m/s, 3.1e-6 N (about seven times below these bounds)
    tol_x, tol_v, tol_f = {"radau5": (1e-9, 2e-9, 3e-7), "bdf": (1e-7, 2e-7, 3e-5)}[method]
    assert err_x < tol_x, err_x
    assert err_v < tol_v, err_v
    assert err_f < tol_f, err_f

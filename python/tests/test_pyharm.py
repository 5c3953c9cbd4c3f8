"""friction.frf against pyHarm (PyPI ``pyharm-os``, an independent harmonic
balance code, Safran; https://gitlab.com/drti/pyharm), on the coupled joint
of ``examples/coupled_joint.toml`` (issue 45).

The body (1 kg, dim 2) on springs kx = ky = 1e4 N/m and an inclined spring
of 5e3 N/m along (1, 1)/sqrt(2) that turns its motion along x into motion
along y, dampers of 10 N s/m along x and y, pressed by 20 N onto a floor of
normal stiffness 1e5 N/m and forced along x by F sin(2 pi f t).

pyHarm has no element with our normal-following Jenkins law (force
N(t) kt (u - w), w a play operator of half-width fs/kt on u, N(t) = max(0,
kn (g0 - y))): its ``Penalty3D`` keeps the stick stiffness k_t fixed while
the capacity follows N(t) (the slider's play mu N(t)/k_t then changes with
the load), and it needs two tangential directions (and, as read in the
source of 1.2.2, its friction force is multiplied by f_n <= 0 in its gap
form, so zero in contact, and keeps the capacity mu N0 once the contact
opens in its preloaded form). So the two laws the
joint is made of are compared where both codes state them exactly, each in
the coupled 2-DOF body, and the joint's own law where its load does not move:

* the floor: a unilateral penalty. Ours, a ``[[gap]]`` between ``ground``
  and the body along y, F = kn max(0, -y) pushing the body up; pyHarm's
  ``PenaltyUnilateralGap`` (force k (d - g) while d >= g, on the relative
  displacement d) with g = 0 on d = -y (a coordinate system whose second
  axis is -y). Same law: kn max(0, -y). Without friction and at F = 10 N the
  body leaves the floor near the x resonance (17.7 Hz): the compared points
  run from contact all through the period (5 to 16.9 Hz) to the floor open
  for 37 % of it (17.65 Hz).
* the joint under a constant normal load N = 20 N, with the floor on: ours a
  ``jenkins`` contact (kt = 2e4 1/m, fs = 0.3, ``normal = 20``): force
  N kt (u - w), w the play of half-width fs/kt on u; pyHarm's ``Jenkins``
  with k = N kt = 4e5 N/m, mu = 0.3, N0 = 20 N: force k (u - z), z the
  slider that moves when |k (u - z)| reaches mu N0, i.e. a play of
  half-width mu N0 / k = fs/kt on u. Same law: stiffness N kt, capacity
  N fs = 6 N, the same play. At F = 60 N the joint slips every period; the
  floor stays closed up to 10.6 Hz and opens for part of the period at the
  last point (11.37 Hz), where the joint, its load held, rubs on.
* the joint of coupled_joint.toml itself (``normal_stiffness = 1e5``,
  N(t) = max(0, kn (0 - y))) where its load stays at rest: without the
  inclined spring nothing moves the body along y, so N = kn 20 / (ky + kn)
  = 18.18 N all through the period; against pyHarm's floor and ``Jenkins``
  with N0 = 18.18 N (k = N0 kt). Same law at that load.

Both codes are run at the same harmonics (0 to H = 9) and the same number of
time samples per period (256) for the nonlinear forces (alternating
frequency-time): they solve the same discrete equations. pyHarm traces its
own branch (its default arc-length continuation); we solve ``friction.frf``
at each of a handful of its frequencies (the first row of a range starting
there, or where Newton's method does not converge from the linear response
there, the last row of our own branch continued up to it) and compare the
fundamental amplitudes of x and y.

Measured (pyHarm 1.2.2): the largest relative difference of the amplitudes
is 2.7e-9 for the floor (|y| at 17.65 Hz, the floor open 37 % of the
period) and 1.3e-9 for the joint (|y| at 11.37 Hz, where the floor also
opens, 12 % of the period), and 6.1e-12 for the joint at its load at rest
(|x_1|): the two codes' solutions of the same equations,
to pyHarm's solver tolerance (scipy's hybr, xtol 1.5e-8). The bound, 1e-8,
is held just above them. Beyond 17.65 Hz the comparison stops: pyHarm's
continuation stalls at 18.56 Hz (its steps shrinking to nothing), ours from
5 Hz fails near 17.6 Hz (where the floor starts to open; solved from the
linear response there, the point is pyHarm's), and at 18.45 Hz our solution
from the linear response is another than pyHarm's (|y_1| 71 % apart).

The three tests take about 4 s once numba has cached pyHarm's compiled
functions (in pyHarm's __pycache__); the first run after installing pyHarm
compiles them: about 45 s on a busy 2-core machine.
"""

import numpy as np
import pytest

import friction

# numba's remarks while it compiles pyHarm's functions (the first run only)
pytestmark = pytest.mark.filterwarnings("ignore:.*is faster on contiguous arrays")

H = 9
SAMPLES = 256

KX = KY = 1e4
KD = 5e3
C = 10.0
PRESS = 20.0
KN = 1e5
KT, FS, N0 = 2e4, 0.3, 20.0


def _ours(force, joint, coupled=True):
    d = {
        "name": "coupled_joint_parts",
        "body": [{"name": "m", "mass": 1.0, "dim": 2}],
        "spring": [
            {"name": "kx", "between": ["m", "ground"], "stiffness": KX},
            {"name": "ky", "between": ["m", "ground"], "stiffness": KY, "direction": "y"},
            {"name": "tilted", "between": ["m", "ground"], "stiffness": KD, "direction": [1.0, 1.0]},
        ],
        "damper": [
            {"name": "cx", "between": ["m", "ground"], "coefficient": C},
            {"name": "cy", "between": ["m", "ground"], "coefficient": C, "direction": "y"},
        ],
        "force": [
            {"name": "press", "on": "m", "direction": "y", "value": -PRESS},
            {"name": "p", "on": "m", "value": {"type": "sine", "amplitude": force, "frequency": 10.0}},
        ],
        "gap": [{"name": "floor", "between": ["ground", "m"], "stiffness": KN, "direction": "y"}],
        "solver": {"t_end": 1.0},
    }
    if joint == "normal_stiffness":
        # the joint of coupled_joint.toml: its load the floor's penalty, max(0, kn (0 - y))
        del d["gap"]
        d["contact"] = [{"name": "j", "between": ["m", "ground"], "model": "jenkins",
                         "params": {"kt": KT, "fs": FS}, "normal_stiffness": KN, "gap": 0.0}]
    elif joint:
        d["contact"] = [{"name": "j", "between": ["m", "ground"], "model": "jenkins",
                         "params": {"kt": KT, "fs": FS}, "normal": N0}]
    if not coupled:
        d["spring"] = d["spring"][:2]
    return d


def _theirs(force, joint, coupled=True, load=N0):
    con = {
        "M": {"type": "GOMatrix", "connect": "m", "dto": 2, "matrix": np.eye(2)},
        "kx": {"type": "LinearSpring", "connect": {"m": [0]}, "dirs": [0], "k": KX},
        "ky": {"type": "LinearSpring", "connect": {"m": [0]}, "dirs": [1], "k": KY},
        "tilted": {"type": "LinearSpring", "connect": {"m": [0]}, "dirs": [0], "k": KD,
                   "coordinatesystem": "tilted"},
        "cx": {"type": "LinearDamper", "connect": {"m": [0]}, "dirs": [0], "k": C},
        "cy": {"type": "LinearDamper", "connect": {"m": [0]}, "dirs": [1], "k": C},
        "press": {"type": "GOForcing", "connect": {"m": [0]}, "dirs": [1], "ho": 0, "dto": 0, "amp": -PRESS},
        # amp (cos(phi) cos(w t) + sin(phi) sin(w t)): a sine
        "p": {"type": "GOForcing", "connect": {"m": [0]}, "dirs": [0], "ho": 1, "dto": 0, "amp": force,
              "phi": np.pi / 2},
        # on d = -y (the axis "down"): force KN d while d >= 0
        "floor": {"type": "PenaltyUnilateralGap", "connect": {"m": [0]}, "dirs": [1],
                  "coordinatesystem": "down", "g": 0.0, "k": KN},
    }
    if joint:
        con["j"] = {"type": "Jenkins", "connect": {"m": [0]}, "dirs": [0], "k": load * KT, "mu": FS, "N0": load}
    if not coupled:
        del con["tilted"]
    return {
        "coordinates": {"tilted": [[1.0, 1.0], [-1.0, 1.0]], "down": [[1.0, 0.0], [0.0, -1.0]]},
        "system": {"type": "Base", "nh": H, "nti": SAMPLES},
        "substructures": {"m": {"type": "onlydofs", "nnodes": 1, "ndofs": 2}},
        "connectors": con,
    }


@pytest.fixture(scope="module")
def pyharm(tmp_path_factory):
    # pyHarm writes a settings file under $HOME/.pyHarm when imported and a
    # kernel state file (./.pyHarm/context.json unless PYHARM_CONTEXT_FILE)
    # whenever a Maestro is built: both into a temporary directory
    home = tmp_path_factory.mktemp("pyharm")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(home))
        mp.setenv("PYHARM_CONTEXT_FILE", str(home / "context.json"))
        yield pytest.importorskip("pyHarm")


def _branch(pyharm, force, joint, f_lo, f_hi, **kw):
    """pyHarm's branch from f_lo to f_hi [Hz]: rows (f, |x_1|, |y_1|, the
    fraction of the period the floor is open (y > 0) on the 256 samples)."""
    d = _theirs(force, joint, **kw)
    d["analysis"] = {"frf": {"study": "frf", "puls_inf": 2 * np.pi * f_lo, "puls_sup": 2 * np.pi * f_hi,
                             "ds0": 1.0, "ds_max": 5.0, "ds_min": 1e-6, "verbose": False}}
    m = pyharm.Maestro(d)
    m.operate()
    edf = m.system.expl_dofs
    y = np.flatnonzero(edf.dof_num == 1)  # y's harmonics, in pyHarm's order (0; 1 c, s; 2 c, s; ...)
    ix = [edf[(edf.harm == 1) & (edf.dof_num == 0) & (edf.cs == cs)].index[0] for cs in "cs"]
    iy = [edf[(edf.harm == 1) & (edf.dof_num == 1) & (edf.cs == cs)].index[0] for cs in "cs"]
    ft = m.system.dynop["ft"]  # harmonics -> time samples
    rows = [(s.x[-1] / (2 * np.pi), np.hypot(*s.x[ix]), np.hypot(*s.x[iy]), np.mean(s.x[y] @ ft > 0.0))
            for s in m.nls["frf"].SolList if s.flag_accepted]
    return np.array(rows)


def _at(rows, freqs):
    """The rows of a branch nearest each frequency in freqs (the branch's own points)."""
    return np.array([rows[np.argmin(np.abs(rows[:, 0] - f))] for f in freqs])


def _ours_at(scen, f, f_lo):
    """Our (|x_1|, |y_1|) at f [Hz]: the first point of a branch from f (solved
    there from the linear response); where Newton's method does not converge
    from there (the joint at 10.0 Hz does not: it stalls at a residual of
    4e-3), the last point of our branch from f_lo, continued up to f."""
    try:
        r, i = friction.frf(scen, "p", f, f * (1.0 + 1e-9), harmonics=H, samples=SAMPLES), 0
    except ValueError:
        r, i = friction.frf(scen, "p", f_lo, f, harmonics=H, samples=SAMPLES), -1
    assert r.columns["f"][i] == f
    return r.columns["a.m.x"][i], r.columns["a.m.y"][i]


def _compare(pyharm, force, joint, f_lo, f_hi, freqs, coupled=True, load=N0):
    """Rows (f, our |x_1| / theirs - 1, the same of |y_1|, the fraction of
    the period the floor is open, their |x_1|) at pyHarm's points nearest freqs."""
    theirs = _at(_branch(pyharm, force, bool(joint), f_lo, f_hi, coupled=coupled, load=load), freqs)
    scen = _ours(force, joint, coupled)
    out = []
    for f, ax, ay, opened in theirs:
        x, y = _ours_at(scen, f, f_lo)
        out.append((f, x / ax - 1.0, y / ay - 1.0, opened, ax))
    return np.array(out)


def test_floor_leaving_coupled_body_is_pyharms(pyharm):
    d = _compare(pyharm, 10.0, False, 5.0, 18.5, [5.0, 10.0, 15.0, 17.0, 17.6])
    # from the floor closed all through the period to open for part of it
    assert d[0, 3] == 0.0 and d[-1, 3] > 0.3, d
    assert np.abs(d[:, 1:3]).max() < 1e-8, d


def test_joint_under_constant_load_on_the_floor_is_pyharms(pyharm):
    d = _compare(pyharm, 60.0, True, 5.0, 11.5, [5.0, 7.0, 9.0, 10.5, 11.3])
    # the joint slips every period: x swings over many times the play fs/kt
    assert (d[:, 4] > 100 * FS / KT).all(), d
    assert np.abs(d[:, 1:3]).max() < 1e-8, d


def test_normal_stiffness_joint_at_its_load_at_rest_is_pyharms(pyharm):
    # coupled_joint's own joint, without the inclined spring: nothing moves
    # the body along y, its load stays at rest, kn 20 / (ky + kn)
    load = KN * PRESS / (KY + KN)
    d = _compare(pyharm, 60.0, "normal_stiffness", 5.0, 12.0, [5.0, 7.0, 9.0, 10.5, 11.5],
                 coupled=False, load=load)
    assert (d[:, 4] > 100 * FS / KT).all(), d
    # |x_1| only: y (so the load) stays at rest in both, |y_1| ~ 1e-20 m
    assert np.abs(d[:, 1]).max() < 1e-8, d

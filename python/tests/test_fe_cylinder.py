"""The scikit-fem client of the tangent (examples/fe/cylinder.py): a
plane-strain cylinder pressed onto a rigid flat and sheared, its contact
nodes' friction from Model.update(..., tangent=True) inside the Newton loop.

Against Johnson (1985, Contact Mechanics, sec. 4.3 and 7.1): the contact
half-width of Hertz, a = sqrt(4 P R / (pi E*)), and the stick zone of
Cattaneo-Mindlin, c = a sqrt(1 - Q / (mu P)), each within the mesh spacing at
the contact. Newton's method with the consistent tangent takes at most 6
iterations per load step; without the friction tangent it does not converge
in the first shear step within 25 iterations (or takes more than three times
as many).
"""

import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _example():
    spec = importlib.util.spec_from_file_location("fe_cylinder", ROOT / "examples" / "fe" / "cylinder.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_cylinder_reproduces_hertz_and_cattaneo_mindlin_with_few_newton_iterations():
    ex = _example()
    res, alt = ex.main()
    h = res["h"]
    ratio = res["Q"] / (ex.MU * res["P"])
    assert 0.3 < ratio < 0.9, ratio  # partial slip
    assert abs(res["a_fe"] - res["a_hertz"]) <= h, (res["a_fe"], res["a_hertz"], h)
    assert abs(res["c_fe"] - res["c_mindlin"]) <= h, (res["c_fe"], res["c_mindlin"], h)
    # the stick zone is a proper part of the contact
    assert 0.2 * res["a_fe"] < res["c_fe"] < res["a_fe"] - 2 * h
    its = res["iterations_press"] + res["iterations_shear"]
    assert all(i is not None and i <= 6 for i in its), its
    first = alt["iterations_shear"][0] if alt["iterations_shear"] else None
    assert first is None or first > 3 * res["iterations_shear"][0], alt

"""Bad input raises Python exceptions with clear messages, never a crash."""

import numpy as np
import pytest

import friction

BASE = """
[[body]]
name = "m"
mass = {mass}
x0 = 0.1
[[spring]]
between = ["m", "ground"]
stiffness = 100.0
[[contact]]
name = "c"
between = ["m", "ground"]
model = "{model}"
params = {{ fc = {fc} }}
[solver]
t_end = 0.5
"""


def scen(mass=1.0, model="coulomb", fc=1.0):
    return BASE.format(mass=mass, model=model, fc=fc)


def test_unknown_key_names_key_and_line():
    with pytest.raises(friction.ScenarioError) as e:
        friction.simulate(scen().replace("x0 = 0.1", "x0 = 0.1\ncolour = 3"))
    msg = str(e.value)
    assert "colour" in msg and "<string>:" in msg


def test_out_of_range_value_names_key_value_range_line():
    with pytest.raises(friction.ScenarioError) as e:
        friction.simulate(scen(mass=-2.0))
    msg = str(e.value)
    assert "`mass` = -2" in msg and "(0, inf)" in msg and "<string>:4" in msg
    assert isinstance(e.value, ValueError)


def test_out_of_range_model_parameter():
    with pytest.raises(friction.ScenarioError) as e:
        friction.simulate(scen(fc=-1.0))
    assert "fc" in str(e.value) and "-1" in str(e.value)


def test_unknown_model():
    with pytest.raises(friction.ScenarioError, match="unknown model"):
        friction.simulate(scen(model="nonesuch"))
    with pytest.raises(ValueError, match="unknown model `nonesuch`"):
        friction.Model("nonesuch")
    with pytest.raises(ValueError, match="unknown model"):
        friction.describe("nonesuch")


def test_model_parameters_checked():
    with pytest.raises(ValueError, match="sigma0"):
        friction.Model("lugre", sigma0=-1.0)
    with pytest.raises(ValueError, match="bogus"):
        friction.Model("lugre", bogus=1.0)


def test_missing_file_and_wrong_type():
    with pytest.raises(friction.ScenarioError, match="no_such_file.toml"):
        friction.simulate("no_such_file.toml")
    with pytest.raises(TypeError):
        friction.simulate(42)
    with pytest.raises(TypeError, match="cannot use a value of type"):
        friction.simulate({"body": [{"name": "m", "mass": object()}]})


def test_update_wrong_dtype_shape_nan():
    m = friction.Model("coulomb")
    s = m.init(3)
    with pytest.raises(TypeError, match="slip_increment"):
        m.update(1e-3, ["a", "b", "c"], 1.0, s)
    with pytest.raises(TypeError, match="float64"):
        m.update(1e-3, np.zeros(3), 1.0, s.astype(np.float32))
    with pytest.raises(ValueError, match="shape"):
        m.update(1e-3, np.zeros(4), 1.0, s)
    with pytest.raises(ValueError, match="shapes must match"):
        m.update(1e-3, np.zeros(3), np.ones(2), s)
    with pytest.raises(ValueError, match="not finite"):
        m.update(1e-3, np.array([0.0, np.nan, 0.0]), 1.0, s)
    with pytest.raises(ValueError, match="negative"):
        m.update(1e-3, np.zeros(3), -np.ones(3), s)
    with pytest.raises(ValueError, match="dt"):
        m.update(0.0, np.zeros(3), 1.0, s)
    with pytest.raises(TypeError):
        m.init("3")


def test_fit_and_analyze_inputs():
    t = np.linspace(0, 1, 50)
    with pytest.raises(ValueError, match="shapes must match"):
        friction.fit("coulomb", t, v=np.ones(49), f=np.ones(50))
    with pytest.raises(ValueError, match="not finite"):
        friction.fit("coulomb", t, v=np.where(t > 0.5, np.nan, 1.0), f=np.ones(50))
    with pytest.raises(ValueError, match="unknown model"):
        friction.fit("nonesuch", t, v=np.ones(50), f=np.ones(50))
    with pytest.raises(TypeError, match="float64"):
        friction.analyze(t, np.array(["x"] * 50, dtype=object), np.ones(50))
    with pytest.raises(ValueError, match="kind"):
        friction.analyze(t, t, t, kind="wiggles")
    with pytest.raises(ValueError, match="increase"):
        friction.analyze(t[::-1].copy(), np.sin(t), np.sin(t))


def test_sweep_inputs(root):
    sc = root / "examples" / "coulomb_free_decay.toml"
    with pytest.raises(ValueError, match="metric `final.x.nobody`"):
        friction.sweep(sc, {"contact.c.fc": [1.0]}, ["final.x.nobody"], progress=False)
    with pytest.raises(friction.ScenarioError, match="no contact named \"d\""):
        friction.sweep(sc, {"contact.d.fc": [1.0]}, ["final.x.m"], progress=False)
    with pytest.raises(friction.ScenarioError) as e:
        friction.sweep(sc, {"body.m.mass": [1.0, -1.0]}, ["final.x.m"], progress=False)
    assert "grid point 1" in str(e.value) and "body.m.mass = -1" in str(e.value) and "(0, inf)" in str(e.value)
    with pytest.raises(ValueError, match="not finite"):
        friction.sweep(sc, {"body.m.mass": [np.nan]}, ["final.x.m"], progress=False)
    with pytest.raises(ValueError, match="equal length"):
        friction.sweep(sc, {"body.m.mass": [1, 2], "contact.c.fc": [1]}, ["final.x.m"], zip=True, progress=False)


def test_message_is_the_command_lines(cli, tmp_path):
    import subprocess
    path = tmp_path / "bad.toml"
    path.write_text(scen(mass=-2.0))
    p = subprocess.run([cli, "run", str(path), "--out", str(tmp_path / "out")], capture_output=True, text=True)
    assert p.returncode == 2
    with pytest.raises(friction.ScenarioError) as e:
        friction.simulate(path)
    assert p.stderr.strip() == f"error: {e.value}"


def test_each_model_call_names_itself(root):
    """A panic in the core surfaces as RuntimeError("internal error in NAME: ...
    (please report this)"), NAME the binding's call that failed: each method
    of `_friction.Model` names itself (the 2-D and tangent calls said
    `Model.init` / `Model.update`). No input is known to make the core panic,
    and a Rust test of the binding would have to link libpython
    (python/Cargo.toml), so this reads the binding's source: every call name
    written in a method of `impl Model` is `Model.<that method>`."""
    import re
    src = (root / "python" / "src" / "model.rs").read_text()
    body = src[src.index("impl Model {"):]
    named = {}
    for m in re.finditer(r"\n    fn (\w+)\b(.*?)\n    }\n", body, re.S):
        method = m.group(1)
        for name in re.findall(r'"(Model(?:\.\w+)?)"', m.group(2)):
            assert name == ("Model" if method == "new" else f"Model.{method}"), (method, name)
            named[method] = name
    # every call that computes in the core names itself
    assert set(named) == {"new", "init", "update", "init_2d", "update_2d", "update_tangent", "update_2d_tangent"}
    for method in named:
        assert hasattr(friction._friction.Model, "__new__" if method == "new" else method)


def test_a_dict_scenario_error_names_its_key_without_a_line_of_text_it_never_wrote():
    """A scenario given as a dict is written as TOML text on the way in; an
    error used to cite a line of that text (``<dict>:5:``), which the caller
    never saw. It names the key path, the value and the range, no line."""
    bad = {"body": [{"name": "m", "mass": 1.0}],
           "contact": [{"name": "c", "between": ["m", "ground"], "model": "lugre",
                        "params": {"fc": -1.0}}],
           "solver": {"t_end": 0.1}}
    with pytest.raises(friction.ScenarioError) as e:
        friction.simulate(bad)
    msg = str(e.value)
    assert msg.startswith("<dict>: ") and "fc" in msg and "-1" in msg and "(0, inf)" in msg, msg
    bad["contact"][0]["params"]["fc"] = 1.0
    bad["body"][0]["mass"] = -1.0
    with pytest.raises(friction.ScenarioError) as e:
        friction.frf(bad, force="p", f_min=1.0, f_max=2.0)
    assert str(e.value).startswith("<dict>: ") and "mass" in str(e.value), str(e.value)
    with pytest.raises(friction.ScenarioError) as e:
        friction.sweep(bad, {"contact.c.fc": [1.0]}, ["final.x.m"], progress=False)
    assert str(e.value).startswith("<dict>: ") and "mass" in str(e.value), str(e.value)

"""FMU export (`friction fmu`), checked with a real FMI client: FMPy.

Every exported FMU must pass FMPy's validation (schema, variable names, model
structure, start values, units), run in `fmpy.simulate_fmu`, and give what
`friction run` gives on the same scenario; an input driven from FMPy must
give what the equivalent schedule gives; bad use must fail with fmi2Error and
a logged message, never crash the process.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

fmpy = pytest.importorskip("fmpy")
from fmpy.validation import validate_fmu  # noqa: E402
from fmpy.fmi2 import FMU2Slave  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
CONTACT = ROOT / "examples" / "fmu_contact_lugre.toml"
LUGRE = ROOT / "examples" / "lugre_stick_slip.toml"


def export(cli, scenario, out, fmi=None):
    args = [cli, "fmu"] + ([str(scenario)] if scenario else []) + ["-o", str(out)]
    args += ["--fmi", fmi] if fmi else []
    r = subprocess.run(args, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return out


def run_csv(cli, scenario, out_dir):
    r = subprocess.run([cli, "run", str(scenario), "--out", str(out_dir)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    # a `# units: ...` comment line, then the header
    with open(out_dir / "timeseries.csv") as f:
        lines = [ln for ln in f if not ln.startswith("#")]
    cols = lines[0].strip().split(",")
    data = np.loadtxt(lines[1:], delimiter=",", ndmin=2)
    return {c: data[:, i] for i, c in enumerate(cols)}


def at(csv, times):
    """Rows of a run's CSV at the given times (which are among its output times)."""
    idx = np.searchsorted(csv["t"], times - 1e-9)
    assert np.allclose(csv["t"][idx], times, atol=1e-9, rtol=0)
    return idx


@pytest.fixture(scope="module")
def fmus(cli, tmp_path_factory):
    d = tmp_path_factory.mktemp("fmu")
    tight = d / "lugre_tight.toml"
    # the default scenario at tight tolerances, for a comparison at solver tolerance
    text = LUGRE.read_text()
    text = re.sub(r"(?m)^rtol = .*$", "rtol = 1e-9", text)
    text = re.sub(r"(?m)^atol = .*$", "atol = 1e-12", text)
    tight.write_text(text)
    return {
        "dir": d,
        "default": export(cli, None, d / "default.fmu"),
        "contact": export(cli, CONTACT, d / "contact.fmu"),
        "contact3": export(cli, CONTACT, d / "contact3.fmu", fmi="3"),
        "default3": export(cli, None, d / "default3.fmu", fmi="3"),
        "tight": export(cli, tight, d / "tight.fmu"),
        "tight_toml": tight,
    }


def test_exported_fmus_pass_fmpy_validation(fmus):
    for k in ("default", "contact", "tight"):
        assert validate_fmu(str(fmus[k])) == [], k


def test_model_description_lists_outputs_inputs_and_parameters(fmus):
    md = fmpy.read_model_description(str(fmus["contact"]))
    assert md.fmiVersion == "2.0"
    assert md.coSimulation.canHandleVariableCommunicationStepSize
    assert float(md.defaultExperiment.stopTime) == 5.0
    by = {v.name: v for v in md.modelVariables}
    assert by["v_slip"].causality == "input" and float(by["v_slip"].start) == 0.01
    for out in ("x.slider", "v.slider", "F.c", "z.c.0"):
        assert by[out].causality == "output"
    p = by["c.sigma0"]
    assert p.causality == "parameter" and p.variability == "fixed"
    assert float(p.start) == 1e5 and p.unit == "N/m"
    # a parameter the scenario leaves at the registry's default is there too
    assert float(by["c.vs2"].start) == 0.01


def test_default_scenario_fmu_matches_friction_run(cli, fmus, tmp_path):
    """The embedded default (LuGre stick-slip, 20 s, rtol 1e-6) through FMPy
    and through `friction run`. The FMU's steps end at every communication
    point, the run's do not: two discretisations, each accurate to about
    rtol per step, whose differences grow through three stick-slip cycles
    (a break-away shifted by δt moves the force by dF/dt·δt). Measured: 4e-5 m,
    7e-5 m/s, 1.2e-2 N; at rtol 1e-9 (next test) they shrink a thousandfold."""
    r = fmpy.simulate_fmu(str(fmus["default"]), output_interval=0.01)
    csv = run_csv(cli, LUGRE, tmp_path / "run")
    i = at(csv, r["time"])
    assert r["time"][-1] == pytest.approx(20.0)
    assert np.abs(csv["x.m"][i] - r["x.m"]).max() < 2e-4
    assert np.abs(csv["v.m"][i] - r["v.m"]).max() < 2e-4
    assert np.abs(csv["F.c"][i] - r["F.c"]).max() < 5e-2
    # and the FMU does move: stick-slip, the mass about 1.27 m on at t = 20
    assert r["x.m"][-1] == pytest.approx(csv["x.m"][-1], abs=2e-4)
    assert r["x.m"][-1] > 1.0


def test_fmu_matches_friction_run_to_solver_tolerance(cli, fmus, tmp_path):
    """Same scenario at rtol 1e-9, atol 1e-12 (FMPy's tolerance left to the
    FMU): measured 3e-8 m, 5e-8 m/s, 9e-6 N over 20 s."""
    r = fmpy.simulate_fmu(str(fmus["tight"]), output_interval=0.01)
    csv = run_csv(cli, fmus["tight_toml"], tmp_path / "run")
    i = at(csv, r["time"])
    # the README's figures (within 5e-8 m and 2e-5 N); the differences are
    # the co-simulation's restarts at each communication point, so they are
    # not zero either
    dx = np.abs(csv["x.m"][i] - r["x.m"]).max()
    dv = np.abs(csv["v.m"][i] - r["v.m"]).max()
    df = np.abs(csv["F.c"][i] - r["F.c"]).max()
    assert 0 < dx < 5e-8, dx
    assert dv < 1e-7, dv
    assert 0 < df < 2e-5, df


def test_fmpy_input_gives_the_equivalent_schedule(cli, fmus, tmp_path):
    """The contact FMU's slip velocity driven from FMPy: +1 cm/s for 1 s,
    -1 cm/s for 2 s, +1 cm/s for 1 s, then at rest, sampled at every
    communication point (0.01 s) and held over each step, is the `points`
    schedule [0, 0.01, -0.01, 0] m at 0.01 m/s in `friction run`. At the
    three instants where the velocity jumps, FMPy reads the outputs before it
    sets the new input, while the CSV row holds the new velocity: those
    instants are compared for the position only."""
    dt, s = 0.01, 0.01
    t = np.arange(501) * dt  # the communication points FMPy will use
    v = np.where(t < 1.0, s, np.where(t < 3.0, -s, np.where(t < 4.0, s, 0.0)))
    u = np.array(list(zip(t, v)), dtype=[("time", np.float64), ("v_slip", np.float64)])
    r = fmpy.simulate_fmu(str(fmus["contact"]), input=u, output_interval=dt)

    eq = tmp_path / "equivalent.toml"
    text = CONTACT.read_text()
    text = re.sub(
        r"(?m)^motion = .*$",
        'motion = { type = "points", points = [0.0, 0.01, -0.01, 0.0], speed = 0.01 }',
        text,
    )
    eq.write_text(text)
    csv = run_csv(cli, eq, tmp_path / "run")
    i = at(csv, r["time"])
    assert np.abs(csv["x.slider"][i] - r["x.slider"]).max() < 1e-9
    jump = np.isin(np.round(r["time"], 9), [1.0, 3.0, 4.0])
    assert jump.sum() == 3
    k = ~jump
    assert np.abs(csv["v.slider"][i][k] - r["v.slider"][k]).max() < 1e-12
    assert np.abs(csv["F.c"][i][k] - r["F.c"][k]).max() < 1e-5
    # the force follows the motion: Fc + σ2 v against forward sliding, and
    # after the reversals the full loop (about -1.004 N and +1.004 N)
    assert r["F.c"][90] == pytest.approx(-1.004, abs=1e-3)
    assert r["F.c"][250] == pytest.approx(1.004, abs=1e-3)


def test_input_sets_the_force_of_a_stuck_body(tmp_path, cli):
    """A force input on a body held by Coulomb friction: below Fs it stays,
    above it breaks away at the communication point where the input rises
    (the input change is a breakpoint that re-decides stick and slip)."""
    sc = tmp_path / "push.toml"
    sc.write_text(
        'name = "push"\n[[body]]\nname = "m"\nmass = 2.0\n'
        '[[force]]\nname = "f"\non = "m"\nvalue = { type = "input", name = "push", start = 0.0 }\n'
        '[[contact]]\nname = "c"\nbetween = ["m", "ground"]\nmodel = "coulomb"\nparams = { fc = 1.0 }\n'
        "[solver]\nt_end = 2.0\n"
    )
    fmu = export(cli, sc, tmp_path / "push.fmu")
    assert validate_fmu(str(fmu)) == []
    t = np.arange(21) * 0.1  # the communication points
    f = np.where(t < 1.0, 0.5, 3.0)
    u = np.array(list(zip(t, f)), dtype=[("time", np.float64), ("push", np.float64)])
    r = fmpy.simulate_fmu(str(fmu), input=u, output_interval=0.1)
    held = r["time"] <= 1.0 + 1e-9
    assert held.sum() == 11
    assert np.all(r["v.m"][held] == 0.0)  # stuck (exactly) while 0.5 N < Fc
    # from t = 1 the body slides at (3 - 1) / 2 = 1 m/s²
    assert r["v.m"][-1] == pytest.approx(1.0, abs=1e-9)
    assert r["x.m"][-1] == pytest.approx(0.5, abs=1e-9)


def slave(fmu_path, name="i"):
    md = fmpy.read_model_description(str(fmu_path))
    d = fmpy.extract(str(fmu_path))
    s = FMU2Slave(
        guid=md.guid, unzipDirectory=d, modelIdentifier=md.coSimulation.modelIdentifier, instanceName=name
    )
    return md, d, s


def test_bad_use_returns_an_error_and_logs_why(fmus, capfd):
    md, d, s = slave(fmus["contact"])
    vr = {v.name: v.valueReference for v in md.modelVariables}
    try:
        s.instantiate()
        # a parameter out of its valid range: refused, with the range
        with pytest.raises(Exception, match="fmi2SetReal failed"):
            s.setReal([vr["c.sigma0"]], [-1.0])
        out = capfd.readouterr().out
        assert "c.sigma0" in out and "-1" in out and "(0, inf)" in out, out
        s.reset()
        s.setupExperiment(startTime=0.0)
        s.enterInitializationMode()
        s.exitInitializationMode()
        # an unknown value reference
        with pytest.raises(Exception, match="fmi2GetReal failed"):
            s.getReal([9999])
        assert "unknown value reference 9999" in capfd.readouterr().out
        s.reset()
        s.setupExperiment(startTime=0.0)
        s.enterInitializationMode()
        s.exitInitializationMode()
        # setting an output
        with pytest.raises(Exception, match="fmi2SetReal failed"):
            s.setReal([vr["F.c"]], [1.0])
        assert "is an output" in capfd.readouterr().out
        s.reset()
        s.setupExperiment(startTime=0.0)
        s.enterInitializationMode()
        s.exitInitializationMode()
        s.doStep(currentCommunicationPoint=0.0, communicationStepSize=4.5)
        # past the stop time (5 s)
        with pytest.raises(Exception, match="fmi2DoStep failed"):
            s.doStep(currentCommunicationPoint=4.5, communicationStepSize=1.0)
        assert "past the stop time 5" in capfd.readouterr().out
        # the error state refuses further steps, and reset recovers
        with pytest.raises(Exception, match="fmi2DoStep failed"):
            s.doStep(currentCommunicationPoint=4.5, communicationStepSize=0.1)
        s.reset()
        s.setupExperiment(startTime=0.0)
        s.enterInitializationMode()
        s.exitInitializationMode()
        s.doStep(currentCommunicationPoint=0.0, communicationStepSize=5.0)
        assert s.getReal([vr["x.slider"]])[0] == pytest.approx(0.05, abs=1e-12)
        s.terminate()
    finally:
        s.freeInstance()
        shutil.rmtree(d, ignore_errors=True)


def test_wrong_guid_and_missing_scenario_refuse_instantiation(fmus, capfd):
    md, d, s = slave(fmus["contact"])
    try:
        s.guid = "{00000000-0000-0000-0000-000000000000}"
        with pytest.raises(Exception):
            s.instantiate()
        assert "does not match the packed scenario" in capfd.readouterr().out
        os.remove(os.path.join(d, "resources", "scenario.toml"))
        s.guid = md.guid
        with pytest.raises(Exception):
            s.instantiate()
        assert "cannot read the packed scenario" in capfd.readouterr().out
    finally:
        shutil.rmtree(d, ignore_errors=True)


def readme_section():
    text = (ROOT / "README.md").read_text()
    start = text.index("## FMU export")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def test_readme_fmu_commands_run_as_written(tmp_path, cli):
    """The README's export command and five-line FMPy script, exactly as
    written, from the repository root (the FMU lands in out/, which git
    ignores), with the built `friction` on PATH as the README's set-up has it."""
    sec = readme_section()
    sh = re.search(r"```sh\n(.*?)```", sec, re.S).group(1).strip()
    py = re.search(r"```python\n(.*?)```", sec, re.S).group(1)
    assert len(py.strip().splitlines()) == 5
    env = dict(os.environ, PATH=os.path.dirname(os.path.abspath(cli)) + os.pathsep + os.environ["PATH"])
    r = subprocess.run(sh, shell=True, cwd=ROOT, capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([sys.executable, "-c", py], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    # the script prints the friction force at the end: sliding backwards at
    # 1 cm/s, +(Fc + σ2 v) = 1.004 N
    assert float(r.stdout.strip().splitlines()[-1]) == pytest.approx(1.004, abs=1e-3)


def test_fmi3_exports_pass_fmpy_validation_and_give_the_fmi2_results(fmus):
    """`friction fmu --fmi 3`: FMPy validates the FMI 3.0 export and
    simulates it; both versions drive the same instance code, so with the
    same input on the same communication grid the results are identical
    (the default scenario over 20 s of stick-slip, and the contact FMU
    driven through its input)."""
    for k in ("default3", "contact3"):
        assert validate_fmu(str(fmus[k])) == [], k
    md = fmpy.read_model_description(str(fmus["contact3"]))
    assert md.fmiVersion == "3.0"
    assert md.coSimulation.canGetAndSetFMUstate and md.coSimulation.canSerializeFMUstate
    r2 = fmpy.simulate_fmu(str(fmus["default"]), output_interval=0.01)
    r3 = fmpy.simulate_fmu(str(fmus["default3"]), output_interval=0.01)
    assert len(r3) == len(r2) == 2001
    for name in ("time", "x.m", "v.m", "F.c"):
        assert np.array_equal(r2[name], r3[name]), name
    assert r3["x.m"][-1] > 1.0  # it moved: stick-slip over 20 s
    t = np.arange(301) * 0.01
    v = 0.01 * np.sign(np.sin(2 * np.pi * t / 1.2) + 1e-12)
    u = np.array(list(zip(t, v)), dtype=[("time", np.float64), ("v_slip", np.float64)])
    a = fmpy.simulate_fmu(str(fmus["contact"]), input=u, output_interval=0.01, stop_time=3.0)
    b = fmpy.simulate_fmu(str(fmus["contact3"]), input=u, output_interval=0.01, stop_time=3.0)
    for name in ("x.slider", "F.c"):
        assert np.array_equal(a[name], b[name]), name
    assert a["F.c"].min() < -1.0 < 1.0 < a["F.c"].max()


def _rollback(s, get, set_u, vr, step):
    """Save at t = 0.5, step on with a changing input, restore, step again:
    the outputs of both continuations; and the serialised state."""
    for k in range(10):
        set_u(0.012 * np.sin(0.45 * k))
        step(0.05 * k, 0.05)
    state = s.getFMUState() if hasattr(s, "getFMUState") else s.getFMUstate()
    runs = []
    for _ in range(2):
        if runs:
            (s.setFMUState if hasattr(s, "setFMUState") else s.setFMUstate)(state)
        rows = []
        for k in range(10, 25):
            set_u(0.012 * np.sin(0.45 * k))
            step(0.05 * k, 0.05)
            rows.append(get(vr))
        runs.append(np.array(rows))
    ser = (s.serializeFMUState if hasattr(s, "serializeFMUState") else s.serializeFMUstate)(state)
    return runs, ser


@pytest.mark.parametrize("key", ["contact", "contact3"])
def test_fmu_state_rollback_is_bit_for_bit(fmus, key):
    """A master that rolls back steps (FMPy's get/set/serialise FMU state
    calls): restored, the run continues bit for bit as it did the first
    time; the serialised state, read into a fresh instance, too."""
    md = fmpy.read_model_description(str(fmus[key]))
    d = fmpy.extract(str(fmus[key]))
    vr = {v.name: v.valueReference for v in md.modelVariables}
    outs = [vr[n] for n in ("x.slider", "v.slider", "F.c", "z.c.0")]
    v3 = md.fmiVersion == "3.0"

    def make(name):
        if v3:
            from fmpy.fmi3 import FMU3Slave

            s = FMU3Slave(
                guid=md.instantiationToken,
                unzipDirectory=d,
                modelIdentifier=md.coSimulation.modelIdentifier,
                instanceName=name,
            )
            s.instantiate()
            s.enterInitializationMode(startTime=0.0)
            s.exitInitializationMode()
            return s, s.getFloat64, lambda x: s.setFloat64([vr["v_slip"]], [x])
        s = FMU2Slave(
            guid=md.guid, unzipDirectory=d, modelIdentifier=md.coSimulation.modelIdentifier, instanceName=name
        )
        s.instantiate()
        s.setupExperiment(startTime=0.0)
        s.enterInitializationMode()
        s.exitInitializationMode()
        return s, s.getReal, lambda x: s.setReal([vr["v_slip"]], [x])

    s, get, set_u = make("a")
    g = None
    try:

        def step(t, h):
            s.doStep(currentCommunicationPoint=t, communicationStepSize=h)

        (first, second), ser = _rollback(s, get, set_u, outs, step)
        assert np.array_equal(first, second)
        assert np.ptp(first[:, 0]) > 1e-4  # the slider moved over the continuation
        g, get_g, set_g = make("b")
        if v3:
            st = g.deserializeFMUState(ser)
            g.setFMUState(st)
        else:
            st = g.deSerializeFMUstate(ser)
            g.setFMUstate(st)
        rows = []
        for k in range(10, 25):
            set_g(0.012 * np.sin(0.45 * k))
            g.doStep(currentCommunicationPoint=0.05 * k, communicationStepSize=0.05)
            rows.append(get_g(outs))
        assert np.array_equal(np.array(rows), first)
    finally:
        s.freeInstance()
        if g is not None:
            g.freeInstance()
        shutil.rmtree(d, ignore_errors=True)


def test_a_body_of_dim_2_with_an_inclined_spring_and_a_floor_matches_friction_run(cli, tmp_path):
    """examples/coupled_joint.toml (a body of dim 2, an inclined spring, a
    Jenkins joint under the floor's penalty load that opens for a fifth of
    each period) through FMPy and through `friction run`: its coordinates
    x.m, y.m, the load N.j and the state state.j are outputs, and agree to
    the co-simulation's restarts at each communication point (measured:
    1.1e-8 m, 3.4e-9 m, 2.1e-4 N of loads up to 45 N; the state exactly
    wherever the load is 0 in both or clearly positive in both)."""
    scenario = ROOT / "examples" / "coupled_joint.toml"
    fmu = export(cli, scenario, tmp_path / "coupled.fmu")
    assert validate_fmu(str(fmu)) == []
    md = fmpy.read_model_description(str(fmu))
    by = {v.name: v for v in md.modelVariables}
    for out in ("x.m", "y.m", "vx.m", "vy.m", "N.j", "state.j"):
        assert by[out].causality == "output", out
    r = fmpy.simulate_fmu(str(fmu), output_interval=0.01)
    csv = run_csv(cli, scenario, tmp_path / "run")
    i = at(csv, r["time"])
    assert r["time"][-1] == pytest.approx(2.0)
    dx = np.abs(csv["x.m"][i] - r["x.m"]).max()
    dy = np.abs(csv["y.m"][i] - r["y.m"]).max()
    dn = np.abs(csv["N.j"][i] - r["N.j"]).max()
    print(f"coupled joint FMU against run: x {dx:.2e} m, y {dy:.2e} m, N {dn:.2e} N")
    assert dx < 1e-7 and dy < 3e-8 and dn < 2e-3, (dx, dy, dn)
    # open rows in both, and the same state wherever the load is clearly 0 or not
    s_run, s_fmu = csv["state.j"][i], r["state.j"]
    n_run, n_fmu = csv["N.j"][i], r["N.j"]
    clear = ((n_run == 0) & (n_fmu == 0)) | ((n_run > 1e-3) & (n_fmu > 1e-3))
    assert clear.sum() > 180, clear.sum()
    assert np.array_equal(s_run[clear], s_fmu[clear])
    assert (s_fmu == 0.0).sum() > 20 and (s_fmu == 2.0).sum() > 20

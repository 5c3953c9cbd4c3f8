"""friction.frf and friction.nnm against the command line's frf.csv and
backbone.csv (the same numbers: every value equal after the files' rounding
to 11 significant digits, the summaries equal), and bad arguments refused
with ValueError naming them."""

import csv
import json
import subprocess

import numpy as np
import pytest

import friction


def _read(path):
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    return rows[0], [[float(v) for v in r] for r in rows[1:]]


def _same_as_csv(columns, path):
    head, rows = _read(path)
    assert list(columns) == head
    for j, name in enumerate(head):
        py = columns[name]
        assert len(py) == len(rows), name
        for i, r in enumerate(rows):
            if name == "stable":
                assert bool(py[i]) == (r[j] == 1.0), (name, i)
            else:
                # the CLI writes {:.10e}: Python's value rounded the same way is the file's, bit for bit
                assert float(f"{py[i]:.10e}") == r[j], (name, i, py[i], r[j])


def test_frf_is_the_cli_frf_csv_bit_for_bit(root, cli, tmp_path):
    scen = root / "examples" / "jointed_frf.toml"
    out = tmp_path / "frf"
    subprocess.run([cli, "frf", str(scen), "--force", "shaker", "--f-min", "150", "--f-max", "320",
                    "--out", str(out)], check=True, capture_output=True)
    r = friction.frf(scen, "shaker", 150.0, 320.0)
    _same_as_csv(r.columns, out / "frf.csv")
    assert r.columns["stable"].dtype == bool
    assert r.summary == json.loads((out / "summary.json").read_text())
    assert r.summary["harmonics"] == 3
    # the resonance between the joint's gross-slip and stuck linear frequencies (188 and 263 Hz)
    top = r.columns["f"][np.argmax(r.columns["a.tip"])]
    assert 188.0 < top < 263.0


def test_nnm_is_the_cli_backbone_csv_bit_for_bit(root, cli, tmp_path):
    scen = root / "examples" / "jointed_frf.toml"
    out = tmp_path / "nnm"
    subprocess.run([cli, "nnm", str(scen), "--amplitudes", "1e-8:1e-2:7", "--out", str(out)],
                   check=True, capture_output=True)
    # --amplitudes A1:A2:N is A1 (A2/A1)^(i/(N-1)), as numpy.geomspace up to rounding: take the CLI's
    amps = [1e-8 * (1e-2 / 1e-8) ** (i / 6) for i in range(7)]
    r = friction.nnm(scen, amps)
    _same_as_csv(r.columns, out / "backbone.csv")
    assert r.summary == json.loads((out / "summary.json").read_text())
    # the frequency falls from the stuck towards the gross-slip linear frequency
    f = r.columns["f"]
    assert np.all(np.diff(f) < 0) and f[0] < 263.0 and f[-1] > 188.0


@pytest.mark.parametrize("call, name", [
    (lambda s: friction.frf(s, "shaker", -1.0, 320.0), "f_min"),
    (lambda s: friction.frf(s, "shaker", 300.0, 150.0), "f_max"),
    (lambda s: friction.frf(s, "shaker", 150.0, 320.0, harmonics=0), "harmonics"),
    (lambda s: friction.frf(s, "shaker", 150.0, 320.0, samples=2), "samples"),
    (lambda s: friction.frf(s, "shaker", 150.0, 320.0, dlft_penalty=0.0), "dlft_penalty"),
    (lambda s: friction.nnm(s, [1e-6, -1e-5]), "amplitudes"),
    (lambda s: friction.nnm(s, [1e-6], mode=0), "mode"),
    (lambda s: friction.nnm(s, [1e-6], harmonics=1000), "harmonics"),
])
def test_bad_arguments_raise_value_error_naming_them(root, call, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        call(root / "examples" / "jointed_frf.toml")


def test_unknown_force_and_body_are_refused_with_the_names_there_are(root):
    scen = root / "examples" / "jointed_frf.toml"
    with pytest.raises(ValueError, match="shaker"):
        friction.frf(scen, "shakr", 150.0, 320.0)
    with pytest.raises(ValueError, match="tip"):
        friction.nnm(scen, [1e-6], body="tp")


COULOMB_SDOF = """
name = "coulomb_sdof"
[[body]]
name = "m"
mass = 1.0
[[spring]]
between = ["m", "ground"]
stiffness = 1e4
[[damper]]
between = ["m", "ground"]
coefficient = 5.0
[[contact]]
name = "dry"
between = ["m", "ground"]
model = "coulomb"
params = { fc = 0.2 }
[[force]]
name = "p"
on = "m"
value = { type = "sine", amplitude = 1.0, frequency = 10.0 }
[solver]
t_end = 1.0
"""


def test_dlft_penalty_reaches_the_method_from_python_as_from_the_cli(cli, tmp_path):
    """Den Hartog's oscillator above resonance (30 Hz): the penalty of the
    dynamic Lagrangian method changes the truncation error, so the response
    with 1e10 N/m differs from the default's; Python's is the CLI's with
    --dlft-penalty, bit for bit."""
    scen = tmp_path / "coulomb_sdof.toml"
    scen.write_text(COULOMB_SDOF)
    out = tmp_path / "frf"
    args = ["--harmonics", "15", "--samples", "8192"]
    subprocess.run([cli, "frf", str(scen), "--force", "p", "--f-min", "29.5", "--f-max", "30", *args,
                    "--dlft-penalty", "1e10", "--out", str(out)], check=True, capture_output=True)
    r = friction.frf(scen, "p", 29.5, 30.0, harmonics=15, samples=8192, dlft_penalty=1e10)
    _same_as_csv(r.columns, out / "frf.csv")
    d = friction.frf(scen, "p", 29.5, 30.0, harmonics=15, samples=8192)
    assert abs(d.columns["peak.m"][-1] / r.columns["peak.m"][-1] - 1.0) > 1e-4


def test_nnm_without_amplitudes_spans_a_tenth_to_100_times_the_first_slip():
    # a Jenkins joint (kt = 1e4 N/m, fs = 1 N) beside a 1e4 N/m spring: it starts to slip at
    # fs/kt = 1e-4 m in the stuck mode, so the default amplitudes run from 1e-5 to 1e-2 m
    d = {
        "name": "jenkins_sdof",
        "body": [{"name": "m", "mass": 1.0}],
        "spring": [{"between": ["m", "ground"], "stiffness": 1e4}],
        "contact": [{"name": "j", "between": ["m", "ground"], "model": "jenkins",
                     "params": {"kt": 1e4, "fs": 1.0}}],
    }
    # no "solver" table: nnm integrates nothing
    r = friction.nnm(d)
    a, f = r.columns["a.m"], r.columns["f"]
    assert len(a) == 30
    assert abs(a[0] - 1e-5) < 1e-18 and abs(a[-1] - 1e-2) < 1e-15
    # stuck: sqrt(2e4)/2pi; at 100 times the slip onset close to the spring alone, sqrt(1e4)/2pi
    assert abs(f[0] - np.sqrt(2e4) / (2 * np.pi)) < 1e-9 * f[0]
    assert abs(f[-1] - np.sqrt(1e4) / (2 * np.pi)) < 2e-3 * f[-1]


def test_frf_of_a_coulomb_contact_in_a_plane_is_the_cli_s_and_warns_where_fs_exceeds_fc(root, cli, tmp_path):
    """examples/plane_coulomb_joint.toml, a `coulomb` joint rubbing in a
    plane under a floor's load (the dynamic Lagrangian method in x and y):
    Python's response is the CLI's, bit for bit, with no warning at Fs = Fc;
    with Fs > Fc both say that the method may start the slip early (a
    RuntimeWarning, and `warnings` in the summary naming the contact)."""
    example = (root / "examples" / "plane_coulomb_joint.toml").read_text()
    assert "params = { fc = 0.3 }" in example
    args = ["--harmonics", "7", "--samples", "512"]
    for fs, warned in [(None, False), (0.4, True)]:
        text = example if fs is None else example.replace("{ fc = 0.3 }", f"{{ fc = 0.3, fs = {fs} }}")
        scen = tmp_path / f"coulomb_plane_{warned}.toml"
        scen.write_text(text)
        out = tmp_path / f"frf_{warned}"
        p = subprocess.run([cli, "frf", str(scen), "--force", "px", "--f-min", "11.5", "--f-max", "12.5", *args,
                            "--out", str(out)], check=True, capture_output=True, text=True)
        if warned:
            with pytest.warns(RuntimeWarning, match='"j"'):
                r = friction.frf(scen, "px", 11.5, 12.5, harmonics=7, samples=512)
        else:
            r = friction.frf(scen, "px", 11.5, 12.5, harmonics=7, samples=512)
        _same_as_csv(r.columns, out / "frf.csv")
        cli_summary = json.loads((out / "summary.json").read_text())
        assert r.summary["warnings"] == cli_summary["warnings"]
        assert (len(r.summary["warnings"]) == 1) == warned, r.summary["warnings"]
        assert ("warning: contact \"j\"" in p.stderr) == warned, p.stderr
        assert r.columns["a.m.x"].max() > 0.0


def test_nnm_of_a_coulomb_joint_in_a_plane_is_the_cli_s_from_its_held_mode(root, cli, tmp_path):
    """examples/plane_coulomb_joint.toml's backbone (`coulomb` held in x and y at
    rest): Python's is the CLI's bit for bit, starting at the stuck mode normal
    to the floor, sqrt((kz + kxz/2 + kn)/m)/(2 pi), and falling as it slips."""
    scen = root / "examples" / "plane_coulomb_joint.toml"
    out = tmp_path / "nnm"
    subprocess.run([cli, "nnm", str(scen), "--out", str(out)], check=True, capture_output=True)
    r = friction.nnm(scen)
    _same_as_csv(r.columns, out / "backbone.csv")
    assert r.summary == json.loads((out / "summary.json").read_text())
    f = r.columns["f"]
    stuck = np.sqrt(1e4 + 2.5e3 + 1e5) / (2 * np.pi)
    assert abs(f[0] / stuck - 1.0) < 1e-8 and f[-1] < 0.52 * stuck
    assert np.all(np.diff(f) <= 1e-9 * f[:-1])

"""The comparison suite's SciPy/NumPy side stays runnable: bench/compare/peers.py
--quick (one round, smallest chain, small batches; a few seconds, and about a
minute more where the compiled peers are installed: numba compiles their
kernels). SciPy
comes with the package's test extras. The compiled peers (numba, numbalsoda,
scikit-sundae) are not in the test extras (numbalsoda has no wheel and takes
pip about 2 minutes to build): where they are installed (bench/compare/run.sh
installs them) their rows must reach the suite's accuracy; where not, each
of their cases must say "not installed" instead of vanishing."""

import importlib.util
import json
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def quick():
    """The results of one `peers.py --quick` run (with the compiled peers
    where installed: numba compiles their kernels first, about a minute)."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "compare" / "peers.py"), "--quick"],
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    ).stdout
    return json.loads(out)["results"]


def test_peers_quick(quick):
    res = quick
    cases = {r["case"] for r in res}
    assert {"lugre_stick_slip", "coulomb_free_decay", "chain_lugre_16", "chain_coulomb_tanh_16"} <= cases
    assert any(c.startswith("batch_lugre_") for c in cases) and any(c.startswith("batch_iwan4_") for c in cases)
    for r in res:
        if r.get("error") is not None:
            # each solver within a few hundred tolerances of its reference
            assert r["error"] < 1e-3, r


COMPILED = {
    "lugre_at_error": ("numbalsoda", "CVODE BDF dense"),
    "coulomb_free_decay": ("CVODE Adams",),
    "chain_lugre_16": ("CVODE BDF banded",),
    "chain_coulomb_tanh_16": ("CVODE BDF banded",),
    "sweep_lugre_fc_50": ("numbalsoda",),
    "batch_lugre_10000": ("numba",),
}


def test_compiled_peers_reported_and_accurate(quick):
    res = quick
    have = all(importlib.util.find_spec(m) for m in ("numba", "numbalsoda", "sksundae"))
    for case, solvers in COMPILED.items():
        for solver in solvers:
            rows = [r for r in res if r["case"] == case and r["solver"].startswith(solver)]
            assert len(rows) == 1, (case, solver, rows)
            r = rows[0]
            if not have:
                assert r["skipped"].startswith("not installed"), r
                continue
            assert r.get("cpu_s", 0) > 0, r
            if case in ("lugre_at_error",) or case.startswith("sweep_"):
                # the ladder's target: 1e-5 m against the reference
                assert r["error"] <= 1e-5, r
            elif case.startswith("batch_"):
                # the same closed form as Model.update, relative force difference
                assert r["error"] < 1e-9, r
            elif case == "coulomb_free_decay":
                # rtol 1e-9 against the closed form
                assert r["error"] < 1e-7, r
            else:
                # rtol 1e-6 against LSODA at rtol 1e-12
                assert r["error"] < 1e-5, r
    if have:
        sweep = [r for r in res if r["case"] == "sweep_lugre_fc_50" and r["solver"].startswith("friction")]
        assert len(sweep) == 1 and sweep[0]["error"] <= 1e-5, sweep
        # the sweep's reference agrees with SciPy's LSODA (another code)
        assert sweep[0]["ref_check"] < 1e-7, sweep

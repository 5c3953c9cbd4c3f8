"""The comparison suite's SciPy/NumPy side stays runnable: bench/compare/peers.py
--quick (one round, smallest chain, small batches; a few seconds). SciPy
comes with the package's test extras."""

import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_peers_quick():
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "compare" / "peers.py"), "--quick"],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    res = json.loads(out)["results"]
    cases = {r["case"] for r in res}
    assert {"lugre_stick_slip", "coulomb_free_decay", "chain_lugre_16", "chain_coulomb_tanh_16"} <= cases
    assert any(c.startswith("batch_lugre_") for c in cases) and any(c.startswith("batch_iwan4_") for c in cases)
    for r in res:
        if r.get("error") is not None:
            # each solver within a few hundred tolerances of its reference
            assert r["error"] < 1e-3, r

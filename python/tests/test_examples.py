"""Every example script runs (small sizes), so none can rot."""

import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "examples" / "python").glob("*.py"))


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_example_runs(script, tmp_path):
    pytest.importorskip("matplotlib")
    env = dict(os.environ, FRICTION_EXAMPLE_SMALL="1", MPLBACKEND="Agg")
    args = [sys.executable, str(script)]
    if script.name != "fe_batch_update.py":
        args += ["--out", str(tmp_path / (script.stem + ".png"))]
    p = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    if "--out" in args:
        assert (tmp_path / (script.stem + ".png")).stat().st_size > 1000


def test_bench_runs_small():
    p = subprocess.run([sys.executable, str(ROOT / "bench" / "python" / "update_vs_numpy.py"), "--n", "20000",
                        "--steps", "3"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "speed-up" in p.stdout

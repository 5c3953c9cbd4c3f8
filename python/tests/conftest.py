"""Shared fixtures: the repository root and the command-line binary."""

import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def root() -> pathlib.Path:
    return ROOT


@pytest.fixture(scope="session")
def cli() -> str:
    """The `friction` binary: $FRICTION_CLI, else target/{debug,release}/friction, else built with cargo."""
    env = os.environ.get("FRICTION_CLI")
    if env:
        return env
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    for prof in ("debug", "release"):
        p = target / prof / "friction"
        if p.exists():
            return str(p)
    if shutil.which("cargo") is None:
        pytest.skip("no friction binary and no cargo to build it")
    subprocess.run(["cargo", "build", "-q", "-p", "friction-cli"], cwd=ROOT, check=True)
    return str(target / "debug" / "friction")

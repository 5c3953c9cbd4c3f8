"""Every Python code block of README.md runs as written, in a scratch copy of
the repository's examples (the blocks read `examples/...`), so the README's
Python session cannot rot (crates/friction-cli/tests/readme.rs does the same
for the shell blocks)."""

import pathlib
import re
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def python_blocks(text):
    """The bodies of the ```python blocks of a Markdown text, with their first line numbers."""
    out = []
    for m in re.finditer(r"^```python\n(.*?)^```", text, flags=re.S | re.M):
        out.append((text[: m.start()].count("\n") + 2, m.group(1)))
    return out


def test_block_extraction():
    md = "x\n```python\nimport friction\n```\n```sh\nfriction run\n```\n```python\n1 + 1\n```\n"
    assert python_blocks(md) == [(3, "import friction\n"), (9, "1 + 1\n")]


def test_every_readme_python_block_runs(tmp_path, cli):
    blocks = python_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    assert blocks, "README.md has no python block"
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    # the FMPy script reads the FMU that the README's `friction fmu` command
    # (the shell block before it) exports
    subprocess.run([cli, "fmu", "examples/fmu_contact_lugre.toml", "-o", "out/contact.fmu"], cwd=tmp_path,
                   check=True, capture_output=True)
    for line, code in blocks:
        script = tmp_path / f"readme_{line}.py"
        script.write_text(code, encoding="utf-8")
        p = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True,
                           timeout=600)
        assert p.returncode == 0, f"README.md:{line}:\n{p.stdout}{p.stderr}"

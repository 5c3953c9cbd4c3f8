"""Matrices of ``[[structure]]`` given in a scenario dict as SciPy sparse
matrices or NumPy arrays: written as MatrixMarket files (``coordinate real
general``, every stored value, 17 significant digits: read back bit for bit)
and replaced by their paths, so that the Rust reader checks them as it
checks a file (square, symmetric, finite, the mass positive definite).

The files go into one directory per process, named by the SHA-256 of their
text, so a matrix passed twice is written once.
"""

import hashlib
import os
import tempfile
from typing import Any, Dict, Optional

_DIR: Optional[str] = None

#: The keys of ``[[structure]]`` that name a matrix file.
MATRIX_KEYS = ("mass", "stiffness", "damping")


def _directory() -> str:
    global _DIR
    if _DIR is None:
        _DIR = tempfile.mkdtemp(prefix="friction-matrices-")
    return _DIR


def _mtx(a: Any, what: str) -> str:
    """The MatrixMarket text of a SciPy sparse matrix or a 2-D array."""
    import numpy as np

    if hasattr(a, "tocoo"):
        coo = a.tocsr().tocoo()  # duplicates summed, as SciPy means them
        rows, cols, vals, shape = coo.row, coo.col, coo.data.astype(float), coo.shape
    else:
        arr = np.asarray(a, dtype=float)
        if arr.ndim != 2:
            raise ValueError(f"{what}: expected a 2-D array or a SciPy sparse matrix, found {arr.ndim} dimensions")
        rows, cols = np.nonzero(arr)
        vals, shape = arr[rows, cols], arr.shape
    lines = [f"%%MatrixMarket matrix coordinate real general\n% {what}\n{shape[0]} {shape[1]} {len(vals)}\n"]
    lines.extend(f"{i + 1} {j + 1} {v!r}\n" for i, j, v in zip(rows.tolist(), cols.tolist(), vals.tolist()))
    return "".join(lines)


def with_matrix_files(scenario: Dict[str, Any]) -> Dict[str, Any]:
    """``scenario`` with every ``[[structure]]`` matrix that is not a path
    written to a file and replaced by the file's path."""
    structures = scenario.get("structure")
    if not isinstance(structures, list):
        return scenario
    out = []
    for s in structures:
        if not isinstance(s, dict):
            out.append(s)
            continue
        s = dict(s)
        for key in MATRIX_KEYS:
            v = s.get(key)
            if v is None or isinstance(v, (str, os.PathLike)):
                continue
            text = _mtx(v, f"structure {s.get('name')!r} `{key}`")
            path = os.path.join(_directory(), hashlib.sha256(text.encode()).hexdigest()[:20] + ".mtx")
            if not os.path.exists(path):
                with open(path, "w", encoding="ascii") as fh:
                    fh.write(text)
            s[key] = path
        out.append(s)
    return {**scenario, "structure": out}

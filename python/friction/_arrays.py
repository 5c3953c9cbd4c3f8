"""Argument conversion shared by the wrappers: float64 arrays with clear errors."""

from typing import Any, Optional

import numpy as np


def as_f64(name: str, value: Any, ndim: int = 1, allow_nan: bool = False) -> np.ndarray:
    """`value` as a C-contiguous float64 array of `ndim` dimensions (no copy when it already is one)."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"`{name}` must be an array of numbers, found {type(value).__name__}")
    try:
        a = np.ascontiguousarray(value, dtype=np.float64)
    except (TypeError, ValueError) as e:
        kind = getattr(getattr(value, "dtype", None), "name", type(value).__name__)
        raise TypeError(f"`{name}` must be an array of numbers; cannot convert {kind} to float64 ({e})") from None
    if a.ndim != ndim:
        raise ValueError(f"`{name}` must be {ndim}-dimensional, found shape {a.shape}")
    if not allow_nan:
        bad = ~np.isfinite(a)
        if bad.any():
            i = int(np.flatnonzero(bad.ravel())[0])
            raise ValueError(f"`{name}`[{i}] = {a.ravel()[i]} is not finite")
    return a


def opt_f64(name: str, value: Optional[Any], n: Optional[int] = None) -> Optional[np.ndarray]:
    """Like :func:`as_f64` for an optional 1-D array; checks the length `n` when given."""
    if value is None:
        return None
    a = as_f64(name, value)
    if n is not None and a.shape[0] != n:
        raise ValueError(f"`{name}` has {a.shape[0]} values, `t` has {n}: the shapes must match")
    return a


def as_float(name: str, value: Any) -> float:
    """A finite Python float."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"`{name}` must be a number, found {type(value).__name__}") from None
    if not np.isfinite(x):
        raise ValueError(f"`{name}` = {x} is not finite")
    return x

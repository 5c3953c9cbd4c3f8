"""Identification and analysis: :func:`fit` and :func:`analyze`."""

import json
from typing import Any, Dict, Iterable, Mapping, Optional

import numpy as np

from . import _friction
from ._arrays import as_f64, as_float, opt_f64


def fit(model: str, t: Any, x: Any = None, v: Any = None, f: Any = None, normal: Any = None,
        fix: Iterable[str] = (), params_init: Optional[Mapping[str, Any]] = None,
        validate_from: Optional[float] = None, free: Optional[Iterable[str]] = None,
        starts: int = 1, seed: int = 0) -> Dict[str, Any]:
    """Fit the parameters of ``model`` to measured friction forces.

    The same identification as ``friction fit``: bounded Levenberg-Marquardt
    inside each parameter's valid range, starting from values estimated from
    the data, with standard errors and 95 % confidence intervals (Student t).

    Parameters
    ----------
    model : str
        Model id (:func:`friction.models`).
    t : array_like
        Sample times [s], strictly increasing.
    x, v : array_like, optional
        Displacement [m] and/or velocity [m/s] of the slip (at least one).
    f : array_like
        Measured friction force [N] in the models' convention: opposing the
        motion, positive while sliding forward (the ``F.NAME`` column of a
        simulation is ``-F``).
    normal : array_like, optional
        Normal load; the model force is multiplied by it (force parameters
        are then friction coefficients).
    fix : iterable of str
        Parameters held at their starting value (``"sigma1"``, ``"elements"``).
    params_init : dict, optional
        Starting (or held) values by name; element rows as ``"elements[0].k"``.
    validate_from : float, optional
        Fit on ``t < validate_from`` only and report the RMS on the rest.
    free : iterable of str, optional
        Fit exactly these parameters.
    starts, seed : int
        Multi-start: number of starts and the seed of their perturbations.

    Returns
    -------
    dict
        ``params`` ({name: {"value", "stderr", "ci95": [lo, hi], "unit"}}),
        ``rms``, ``n``, ``dof``, ``held``, ``notes``, ``correlation``,
        ``validation`` ({"from", "n", "rms"} or None), ``converged``, ``stop``,
        ``model_params`` (the complete fitted parameters, for
        :class:`friction.Model`), ``evaluator``, and ``f_fit`` (the fitted
        force at every sample, a NumPy array).

    Bad data (times not increasing, NaN, shapes that differ) and parameters
    the data cannot determine raise ``ValueError`` naming them.
    """
    if not isinstance(model, str):
        raise TypeError(f"`model` must be a model id (str), found {type(model).__name__}")
    if f is None:
        raise ValueError("`f` (the measured friction force) is required")
    ta = as_f64("t", t)
    n = ta.shape[0]
    xa, va, fa, na = (opt_f64("x", x, n), opt_f64("v", v, n), opt_f64("f", f, n), opt_f64("normal", normal, n))
    if xa is None and va is None:
        raise ValueError("give the motion: `x` (displacement) and/or `v` (velocity)")
    if isinstance(fix, str):
        fix = [fix]
    if isinstance(free, str):
        free = [free]
    vf = None if validate_from is None else as_float("validate_from", validate_from)
    if params_init is not None and not isinstance(params_init, Mapping):
        raise TypeError(f"`params_init` must be a dict, found {type(params_init).__name__}")
    for name, val in (("starts", starts), ("seed", seed)):
        if isinstance(val, bool) or not isinstance(val, (int, np.integer)) or val < (1 if name == "starts" else 0):
            raise ValueError(f"`{name}` = {val!r} is out of range; valid range integer >= {1 if name == 'starts' else 0}")
    report, f_fit = _friction.fit_json(
        model, ta, xa, va, fa, na, [str(s) for s in fix], None if free is None else [str(s) for s in free],
        None if params_init is None else dict(params_init), vf, int(starts), int(seed))
    out = json.loads(report)
    out["f_fit"] = np.asarray(f_fit)
    return out


def analyze(t: Any, x: Any = None, f: Any = None, kind: str = "loops", v: Any = None,
            **options: Any) -> Dict[str, Any]:
    """Analyse a time series: hysteresis loops, a Stribeck curve or a decay.

    The same analyses as ``friction analyze``. Forces in the models'
    convention (negate a simulation's ``F.NAME`` column).

    Parameters
    ----------
    t : array_like
        Sample times [s], strictly increasing.
    x, f, v : array_like
        Displacement, friction force, velocity; which are needed depends on
        ``kind``.
    kind : {"loops", "stribeck", "transient"}
        ``"loops"`` (t, x, f): cycles with their dissipated energy ``energy``
        (∮ F dx), equivalent damping ``zeta_eq`` and ``c_eq``, secant
        stiffness, the backbone curve and the virgin curve;
        options ``reversal_tol``, ``closure_tol``.
        ``"stribeck"`` (t, v or x, f): the steady-state friction-velocity curve
        per direction; options ``bins``, ``log_bins``, ``v_min``, ``v_max``,
        ``max_accel``, ``settle``, ``min_count``.
        ``"transient"`` (t, x): frequency and damping against amplitude of a
        free decay; option ``reversal_tol``.

    Returns
    -------
    dict
        ``{"cycles", "closed", "backbone", "virgin"}``, ``{"points"}`` or
        ``{"extrema", "points"}``.
    """
    allowed = {
        "loops": {"reversal_tol", "closure_tol"},
        "stribeck": {"bins", "log_bins", "v_min", "v_max", "max_accel", "settle", "min_count"},
        "transient": {"reversal_tol"},
    }
    if kind not in allowed:
        raise ValueError(f"kind = {kind!r} is not valid; valid: 'loops', 'stribeck', 'transient'")
    unknown = set(options) - allowed[kind]
    if unknown:
        raise ValueError(f"unknown option(s) {sorted(unknown)} for kind={kind!r}; valid: {sorted(allowed[kind])}")
    ta = as_f64("t", t)
    n = ta.shape[0]
    xa, va, fa = opt_f64("x", x, n), opt_f64("v", v, n), opt_f64("f", f, n)
    return json.loads(_friction.analyze_json(kind, ta, xa, va, fa, **options))

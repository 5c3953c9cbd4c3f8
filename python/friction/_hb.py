"""Harmonic balance: :func:`frf` (frequency response) and :func:`nnm` (nonlinear modes)."""

import json
import numbers
import warnings
from typing import Any, Dict, Optional, Sequence

import numpy as np

from . import _friction
from ._arrays import as_float
from ._frames import to_frame
from ._simulate import Scenario, _source


class HbResult:
    """The result of :func:`frf` or :func:`nnm`.

    Attributes
    ----------
    columns : dict of str to numpy.ndarray
        Exactly the columns of ``frf.csv`` / ``backbone.csv`` written by the
        command line, at full precision (the files round to 11 digits);
        ``stable`` is a bool array.
    summary : dict
        Exactly ``summary.json`` of ``friction frf`` / ``friction nnm``.
    """

    def __init__(self, names: Sequence[str], data: Sequence[Sequence[float]], summary_json: str):
        self.columns: Dict[str, np.ndarray] = {}
        for n, c in zip(names, data):
            a = np.asarray(c, dtype=np.float64)
            self.columns[n] = a != 0.0 if n == "stable" else a
        self.summary: Dict[str, Any] = json.loads(summary_json)

    def to_pandas(self):
        """The columns as a pandas DataFrame.

        Raises ImportError with an explanation when pandas is not installed.
        """
        return to_frame(self.columns, "HbResult.to_pandas")

    def __repr__(self) -> str:
        n = len(next(iter(self.columns.values()))) if self.columns else 0
        return f"<friction.HbResult {self.summary.get('scenario')!r}: {n} rows, columns {list(self.columns)}>"


def _count(name: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not lo <= value <= hi:
        raise ValueError(f"`{name}` = {value!r} is out of range; valid range integer in [{lo}, {hi}]")
    return int(value)


def _positive(name: str, value: Any, unit: str) -> float:
    x = as_float(name, value)
    if not x > 0.0:
        raise ValueError(f"`{name}` = {x} is out of range; valid range (0, inf) {unit}")
    return x


def frf(scenario: Scenario, force: str, f_min: float, f_max: float, harmonics: Optional[int] = None,
        samples: Optional[int] = None, dlft_penalty: Optional[float] = None) -> HbResult:
    """The frequency response under a harmonic force, by harmonic balance.

    The same computation as ``friction frf``: the periodic steady state under
    the scenario's ``sine`` force ``force`` (its frequency swept from
    ``f_min`` to ``f_max``), every body's displacement a Fourier series of H
    harmonics, each contact's force from its own time-domain law over the
    period (alternating frequency-time), traced by pseudo-arclength
    continuation through turning points; stability by the Floquet
    multipliers of the motion linearised about the periodic solution, or,
    when every contact is an elastic-perfectly plastic Masing operator, by
    incremental passivity (``summary["stability"]`` says which).

    Parameters
    ----------
    scenario : str, os.PathLike or dict
        As for :func:`friction.simulate`.
    force : str
        Name of the ``sine`` force whose frequency is swept.
    f_min, f_max : float
        The frequency range [Hz], ``0 < f_min < f_max``.
    harmonics : int, optional
        Number of harmonics H in [1, 256]; default: doubled from 3 until the
        largest peak changes by less than 1e-3 from H to 2H.
    samples : int, optional
        Time samples per period for the contacts, in [8, 1000000]; default
        ``max(256, 8 (2H + 1))``.
    dlft_penalty : float, optional
        The penalty [N/m] of the dynamic Lagrangian method that keeps a
        ``coulomb`` contact's stick exact (Nacivet et al. 2003), > 0; default
        100 times the largest stiffness. A larger penalty shortens the stick
        the method's time samples put at each reversal (a smaller truncation
        error off resonance) and needs more ``samples`` to resolve it.

    Returns
    -------
    HbResult
        ``columns``: ``f`` [Hz]; per body ``a.NAME`` (fundamental amplitude
        [m]), ``phase.NAME`` [rad], ``peak.NAME`` (largest |x| over the
        period [m]); ``stable`` (bool). ``summary``: harmonics used, their
        H -> 2H change, points, the peak of every body, and ``warnings``:
        what the response cannot vouch for (a ``coulomb`` contact with
        Fs > Fc, whose slip the dynamic Lagrangian method may start early),
        each also issued as a ``RuntimeWarning``.

    Bad arguments raise ``ValueError`` naming them; a contact harmonic
    balance cannot treat (set-valued stick other than ``coulomb``) raises
    ``ValueError`` saying why.

    >>> r = frf("examples/jointed_frf.toml", "shaker", 150.0, 320.0)   # doctest: +SKIP
    >>> r.summary["harmonics"]                                          # doctest: +SKIP
    3
    """
    if not isinstance(force, str):
        raise TypeError(f"`force` must be the name of a force (str), found {type(force).__name__}")
    lo = _positive("f_min", f_min, "Hz")
    hi = as_float("f_max", f_max)
    if not hi > lo:
        raise ValueError(f"`f_max` = {hi} is out of range; valid range (f_min = {lo}, inf) Hz")
    h = None if harmonics is None else _count("harmonics", harmonics, 1, 256)
    n = None if samples is None else _count("samples", samples, 8, 1_000_000)
    eps = None if dlft_penalty is None else _positive("dlft_penalty", dlft_penalty, "N/m")
    text, file, d = _source(scenario)
    r = HbResult(*_friction.frf_table(text, file, d, force, lo, hi, h, n, eps))
    for w in r.summary.get("warnings", []):
        warnings.warn(w, RuntimeWarning, stacklevel=2)
    return r


def nnm(scenario: Scenario, amplitudes: Optional[Sequence[float]] = None, body: Optional[str] = None, mode: int = 1,
        harmonics: int = 5, samples: Optional[int] = None) -> HbResult:
    """The backbone of a nonlinear mode: frequency and damping against amplitude.

    The same computation as ``friction nnm``: the extended periodic motion
    concept (Krack 2015, "Nonlinear modal analysis of nonconservative
    systems: extension of the periodic motion concept", Computers &
    Structures 154): a negative mass-proportional damping makes the damped
    free motion periodic; harmonic balance finds it at each prescribed
    fundamental amplitude of ``body``, from the linear mode ``mode`` with
    every contact stuck. A ``coulomb`` contact loaded at rest holds its
    members together there (the constrained mode; ``mode`` counts the free
    directions) and keeps its stick exact by the dynamic Lagrangian method.
    ``sine`` forces are left out.

    Parameters
    ----------
    scenario : str, os.PathLike or dict
        As for :func:`friction.simulate`.
    amplitudes : sequence of float, optional
        Fundamental amplitudes of ``body`` [m], each > 0, in the order
        followed (``numpy.geomspace(1e-8, 1e-2, 31)`` is ``--amplitudes
        1e-8:1e-2:31``); default: 30 from a tenth to 100 times the amplitude
        at which the first contact starts to slip in the stuck linear mode,
        as ``friction nnm`` without ``--amplitudes``.
    body : str, optional
        The body whose amplitude is prescribed; default: the one moving most
        in the mode.
    mode : int
        The mode, 1-based in ascending linear frequency with every contact stuck.
    harmonics : int
        Number of harmonics H in [1, 256] (default 5).
    samples : int, optional
        Time samples per period for the contacts, in [8, 1000000].

    Returns
    -------
    HbResult
        ``columns``: ``a.BODY`` [m], ``f`` [Hz], ``zeta`` (modal damping
        ratio), ``energy_per_cycle`` [J]. ``summary``: the stuck linear mode,
        the frequency range, the largest damping ratio.

    Bad arguments raise ``ValueError`` naming them.
    """
    if isinstance(amplitudes, (str, bytes)):
        raise TypeError("`amplitudes` must be a sequence of numbers [m]")
    try:
        amps = np.atleast_1d(np.asarray([] if amplitudes is None else amplitudes, dtype=np.float64))
    except (TypeError, ValueError):
        raise TypeError("`amplitudes` must be a sequence of numbers [m]") from None
    if amplitudes is not None and (amps.ndim != 1 or amps.size == 0):
        raise ValueError(f"`amplitudes` must be a non-empty 1-D sequence, found shape {amps.shape}")
    bad = ~(np.isfinite(amps) & (amps > 0.0))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"`amplitudes`[{i}] = {amps[i]} is out of range; valid range (0, inf) m")
    if body is not None and not isinstance(body, str):
        raise TypeError(f"`body` must be a body's name (str), found {type(body).__name__}")
    m = _count("mode", mode, 1, 1_000_000)
    h = _count("harmonics", harmonics, 1, 256)
    n = None if samples is None else _count("samples", samples, 8, 1_000_000)
    text, file, d = _source(scenario)
    return HbResult(*_friction.nnm_table(text, file, d, amps.tolist(), body, m, h, n))

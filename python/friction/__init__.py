"""friction: friction models and the simulation of mechanical systems with friction.

The same Rust core as the ``friction`` command, with NumPy arrays in and out.

- :func:`models`, :func:`describe`: the model catalogue (equations, parameters
  with unit, valid range and default, states, sources).
- :func:`simulate`: run a scenario (a TOML file, TOML text or a dict of the
  same shape) and get a :class:`Result` with the time series as arrays, the
  summary (``summary.json``) and the event log.
- :class:`Model`: the per-step update of many contacts at once, for
  finite-element codes and custom integrators.
- :func:`fit`, :func:`analyze`: parameter identification with confidence
  intervals; hysteresis loops, Stribeck curves and decays.
- :func:`frf`, :func:`nnm`: the frequency response under harmonic forcing and
  the backbones of nonlinear modes, by harmonic balance (an :class:`HbResult`
  with the columns of ``frf.csv`` / ``backbone.csv`` and the summary).
- :func:`sweep`: a scenario over a grid of parameter values, evaluated by
  named metrics, on local threads or on a ``dask.distributed`` cluster.

Bad input raises :class:`ScenarioError` (a ``ValueError``), ``ValueError`` or
``TypeError`` with a message naming the key, the value and the valid range;
a failed integration raises :class:`SimulationError` carrying the partial
result.

Force sign (one convention, as in the command-line tool and the Rust crates):
a friction force ``F`` is the model's, opposing the slip of the contact's
first member relative to its second and positive while it slides forward;
``Model.update``, ``fit`` and ``analyze`` use it. The time series column
``F.NAME`` of a simulation (and the sweep metrics on it) is the force the
contact exerts on its first member, which is ``-F``.
"""

from ._errors import ScenarioError, SimulationError
from ._catalogue import models, describe
from ._simulate import Result, simulate
from ._model import Model
from ._analysis import fit, analyze
from ._sweep import sweep
from ._hb import HbResult, frf, nnm

__all__ = [
    "ScenarioError",
    "SimulationError",
    "models",
    "describe",
    "Result",
    "simulate",
    "Model",
    "fit",
    "analyze",
    "sweep",
    "HbResult",
    "frf",
    "nnm",
]

__version__ = "0.1.0"

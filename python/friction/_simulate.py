"""Running a scenario: :func:`simulate` and its :class:`Result`."""

import json
import os
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

import numpy as np

from . import _friction, _structure
from ._errors import ScenarioError, SimulationError
from ._frames import to_frame

Scenario = Union[str, "os.PathLike[str]", Mapping[str, Any]]


class Result:
    """The result of :func:`simulate`.

    Attributes
    ----------
    t : numpy.ndarray
        Output times [s], shape (rows,).
    columns : dict of str to numpy.ndarray
        The time series, exactly the columns of ``timeseries.csv`` written by
        ``friction run``: ``t``, ``x.NAME`` and ``v.NAME`` of bodies and
        drivers, ``F.NAME`` (the force a contact exerts on its first member,
        which opposes that member's slip), ``s.NAME`` and ``sv.NAME`` (the
        contact's slip and slip velocity, first member minus second: what its
        model sees), ``z.NAME.k`` (internal states).
        Each is a read-only view into :attr:`data`, without copies.
    units : dict of str to str
        The unit of every column (``summary["units"]``): ``s``, ``m``,
        ``m/s``, ``N``, or ``rad``, ``rad/s``, ``N m`` for rotational parts.
    data : numpy.ndarray
        All columns as one (rows, columns) array.
    summary : dict
        Exactly ``summary.json`` of ``friction run``: name, status, final
        values, events, solver statistics, the energy balance.
    events : list of dict
        Stick/slip transitions, each ``{"t", "contact", "from", "to"}``.
    failure : str or None
        Why the run stopped early (then the rows end there), else None.
    """

    def __init__(self, names: List[str], data: np.ndarray, summary: Dict[str, Any],
                 events: List[Dict[str, Any]], failure: Optional[str]):
        data.setflags(write=False)
        self.data = data
        self.columns: Dict[str, np.ndarray] = {n: data[:, i] for i, n in enumerate(names)}
        self.t = self.columns["t"]
        self.summary = summary
        self.units: Dict[str, str] = dict(summary.get("units", {}))
        self.events = events
        self.failure = failure

    def to_pandas(self):
        """The time series as a pandas DataFrame (one column per series).

        Raises ImportError with an explanation when pandas is not installed.
        """
        return to_frame(self.columns, "Result.to_pandas")

    def __repr__(self) -> str:
        return (f"<friction.Result {self.summary.get('name')!r}: {len(self.t)} rows, "
                f"{len(self.columns)} columns, {len(self.events)} events, "
                f"status {self.summary.get('status')!r}>")


def _source(scenario: Scenario) -> Tuple[Union[str, dict], str, str]:
    """(TOML text or a dict, file name for messages, directory for relative
    table files). A dict goes to the engine as the scenario's table, with no
    TOML text written from it."""
    if isinstance(scenario, Mapping):
        # structure matrices as SciPy sparse matrices or arrays become files
        return _structure.with_matrix_files(dict(scenario)), "<dict>", "."
    if isinstance(scenario, os.PathLike) or (
            isinstance(scenario, str) and "\n" not in scenario and "=" not in scenario):
        path = os.fspath(scenario)
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except OSError as e:
            raise ScenarioError(f"{path}: {e.strerror or e}") from None
        return text, path, os.path.dirname(path) or "."
    if isinstance(scenario, str):
        return scenario, "<string>", "."
    raise TypeError(
        "scenario must be a path (str or os.PathLike), TOML text or a dict, "
        f"found {type(scenario).__name__}")


def _result(names, data, summary_json, events, failure) -> Result:
    ev = [{"t": t, "contact": c, "from": a, "to": b} for (t, c, a, b) in events]
    return Result(list(names), data, json.loads(summary_json), ev, failure)


def simulate(scenario: Scenario) -> Result:
    """Run a scenario and return its :class:`Result`.

    Parameters
    ----------
    scenario : str, os.PathLike or dict
        A scenario file's path, its TOML text, or a dict of the same shape
        (``{"body": [{"name": "m", "mass": 1.0}], "solver": {"t_end": 1.0}, ...}``;
        see the README's "Scenario files"). A str is read as a path unless it
        holds a newline or ``=``.

    Raises
    ------
    ScenarioError
        The scenario is invalid; the message is the command line's, naming
        the file, the line, the key, the value and the valid range.
    SimulationError
        The integration failed; ``err.result`` holds the partial
        :class:`Result` (rows up to the failure; None if the solver could
        not start).

    The GIL is released while the engine runs, so threads can simulate in
    parallel.

    >>> r = simulate("examples/coulomb_free_decay.toml")   # doctest: +SKIP
    >>> round(r.columns["x.m"][-1], 6)                      # doctest: +SKIP
    -0.0019
    """
    text, file, d = _source(scenario)
    try:
        res = _result(*_friction.simulate_text(text, file, d))
    except SimulationError as e:
        e.result = None
        raise
    if res.failure is not None:
        err = SimulationError(res.failure)
        err.result = res
        raise err
    return res

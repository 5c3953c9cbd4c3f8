"""Parameter sweeps on local threads or a Dask cluster: :func:`sweep`."""

import math
import os
from typing import Any, Dict, List, Mapping, Sequence, Tuple, Union

import numpy as np

from . import _friction
from ._frames import to_frame
from ._simulate import Scenario, _source


def _grid(grid: Mapping[str, Sequence[float]], zip_: bool) -> Tuple[List[str], np.ndarray]:
    if not isinstance(grid, Mapping) or not grid:
        raise ValueError("`grid` must be a non-empty dict of dotted path -> list of values")
    paths, cols = [], []
    for k, vals in grid.items():
        if not isinstance(k, str):
            raise TypeError(f"grid keys must be dotted paths (str), found {k!r}")
        try:
            a = np.asarray(vals, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"grid[{k!r}] must be a list of numbers") from None
        a = np.atleast_1d(a)
        if a.ndim != 1 or a.size == 0:
            raise ValueError(f"grid[{k!r}] must be a non-empty 1-D list of numbers, found shape {a.shape}")
        bad = ~np.isfinite(a)
        if bad.any():
            raise ValueError(f"grid[{k!r}][{int(np.flatnonzero(bad)[0])}] = {a[bad][0]} is not finite")
        paths.append(k)
        cols.append(a)
    # the grid of `friction sweep` (friction_sim::sweep::grid_rows)
    values = _friction.grid_rows(paths, [c.tolist() for c in cols], zip_)
    return paths, np.ascontiguousarray(values)


def _run_chunk(text: str, file: str, d: str, paths: List[str], values: np.ndarray,
               metrics: List[str]) -> Tuple[np.ndarray, List[str]]:
    """Run one chunk of grid points (on this process's threads); used locally and by Dask workers."""
    return _friction.sweep_chunk(text, file, d, paths, values, metrics)


def _chunks(n: int, size: int) -> List[slice]:
    return [slice(i, min(i + size, n)) for i in range(0, n, size)]


def sweep(scenario: Scenario, grid: Mapping[str, Sequence[float]], metrics: Union[str, Sequence[str]],
          zip: bool = False, client: Any = None, progress: bool = True):
    """Run ``scenario`` over a grid of parameter values and evaluate metrics on each run.

    Parameters
    ----------
    scenario : str, os.PathLike or dict
        As for :func:`friction.simulate`.
    grid : dict of str to list of float
        Dotted paths into the scenario and their values:
        ``"contact.c.fc"`` (parameter ``fc`` of the contact named ``c``; also
        ``"contact.c.normal"``), ``"body.m.mass"``, ``"body.m.x0"``,
        ``"spring.spring0.stiffness"`` (unnamed springs, dampers, forces and
        contacts by their default names ``spring0``, ``damper0``, ``force0``,
        ``c0``), ``"driver.puller.motion.rate"``, ``"stop.m.max"`` (stops by
        their body), ``"solver.t_end"``.
    metrics : str or list of str
        ``final.COL``, ``max.COL``, ``min.COL``, ``mean.COL`` (time average),
        ``ptp.COL`` (max - min) of a time series column (``x.m``, ``v.m``,
        ``F.c``, ``z.c.0``), optionally over a window ``[t0:t1]`` of times or
        percentages of ``t_end`` (``ptp.v.m[10:]``, ``ptp.v.m[50%:]``); a run
        with no row in the window gives NaN (``F.NAME`` is the force on the
        contact's first member, ``-F`` of the model's convention); ``energy.dissipated.NAME`` (∫ F v dt of a contact
        or damper), ``energy.dissipated`` (total), ``energy.residual``;
        ``events.count``, ``events.stuck`` (stick events; also
        ``events.forward``, ``events.backward``, ``events.free``);
        ``stats.steps``, ``stats.rejected_steps``, ``stats.rhs_evaluations``.
    zip : bool
        False: the full product of the lists (the first key varies slowest);
        True: the lists side by side (equal lengths).
    client : dask.distributed.Client, optional
        Without a client the runs are spread over local threads (rayon, GIL
        released). With one, chunks of the grid are scattered to the
        cluster's workers, each of which imports ``friction`` and runs its
        chunk; the results are gathered. Both give the same numbers bit for
        bit (each run is deterministic and independent).
    progress : bool
        Show progress: a tqdm bar when tqdm is installed (local threads), or
        Dask's progress bar (with a client).

    Returns
    -------
    pandas.DataFrame, or dict of str to numpy.ndarray without pandas
        One row per run: the grid values, the metrics (NaN where a run
        failed), and ``error`` (empty, or why the run failed).

    Every grid point is checked before anything runs: an invalid value
    raises :class:`friction.ScenarioError` naming the grid point, the key,
    the value and the valid range; an unknown metric raises ``ValueError``
    listing the valid ones.
    """
    text, file, d = _source(scenario)
    if isinstance(metrics, str):
        metrics = [metrics]
    metrics = list(metrics)
    if not metrics or not all(isinstance(m, str) for m in metrics):
        raise ValueError("`metrics` must be a non-empty list of metric names (str)")
    paths, values = _grid(grid, bool(zip))
    n = values.shape[0]
    if client is None:
        # every point parsed and checked once, its system kept for the run
        prepared = _friction.sweep_prepare(text, file, d, paths, values, metrics)
        ncpu = os.cpu_count() or 1
        size = max(2 * ncpu, math.ceil(n / 20))
        parts = _chunks(n, size)
        bar = None
        if progress:
            try:
                from tqdm.auto import tqdm
                bar = tqdm(total=n, desc="sweep", unit="run")
            except ImportError:
                bar = None
        outs = []
        try:
            for s in parts:
                outs.append(prepared.run(s.start, s.stop))
                if bar is not None:
                    bar.update(s.stop - s.start)
        finally:
            if bar is not None:
                bar.close()
    else:
        _friction.sweep_check(text, file, d, paths, values, metrics)
        nworkers = max(1, len(client.scheduler_info().get("workers", {})))
        size = max(1, math.ceil(n / (4 * nworkers)))
        parts = _chunks(n, size)
        chunks = client.scatter([values[s] for s in parts])
        futures = client.map(_run_chunk, [text] * len(parts), [file] * len(parts), [d] * len(parts),
                             [paths] * len(parts), chunks, [metrics] * len(parts), pure=False)
        if progress:
            from distributed import progress as dask_progress
            dask_progress(futures)
        outs = client.gather(futures)
    res = np.concatenate([o[0] for o in outs], axis=0) if outs else np.empty((0, len(metrics)))
    errors = [e for o in outs for e in o[1]]
    table: Dict[str, Any] = {p: values[:, i] for i, p in enumerate(paths)}
    for j, m in enumerate(metrics):
        table[m] = res[:, j]
    table["error"] = np.array(errors, dtype=object)
    return to_frame(table)

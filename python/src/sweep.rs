//! Parameter sweeps from Python: the grid paths, metrics and parallel runs
//! are those of [`friction_sim::sweep`] (the engine `friction sweep` uses
//! too); this module converts arrays and errors.

use std::path::Path;

use friction_sim::sweep::Sweep;
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors::py_err;

fn prepare(
    text: &Bound<'_, PyAny>,
    file: &str,
    dir: &str,
    paths: Vec<String>,
    metrics: &[String],
) -> PyResult<Sweep> {
    // a base scenario error keeps the exception type and fields of friction.simulate
    let doc = crate::sim::document(text, file)?;
    doc.validate(Path::new(dir)).map_err(py_err)?;
    Sweep::from_document(doc, Path::new(dir), paths, metrics).map_err(py_err)
}

/// The sweep of the arguments every sweep function takes and its grid
/// points (one row per run), handed to `f` under the panic guard.
#[allow(clippy::too_many_arguments)]
fn with_sweep<T>(
    text: &Bound<'_, PyAny>,
    file: &str,
    dir: &str,
    paths: Vec<String>,
    values: PyReadonlyArray2<'_, f64>,
    metrics: &[String],
    f: impl FnOnce(Sweep, Vec<Vec<f64>>) -> PyResult<T>,
) -> PyResult<T> {
    let rows: Vec<Vec<f64>> = values.as_array().outer_iter().map(|r| r.to_vec()).collect();
    crate::guard("sweep", || f(prepare(text, file, dir, paths, metrics)?, rows))
}

/// Check every grid point and metric before running anything: each point's
/// scenario must be valid, each metric known. Raises `ScenarioError` naming
/// the grid point, or `ValueError` for a metric.
#[pyfunction]
pub fn sweep_check(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    file: &str,
    dir: &str,
    paths: Vec<String>,
    values: PyReadonlyArray2<'_, f64>,
    metrics: Vec<String>,
) -> PyResult<()> {
    with_sweep(text, file, dir, paths, values, &metrics, |sweep, rows| {
        py.detach(|| sweep.check(&rows)).map_err(py_err)
    })
}

/// Run the grid points `values` (one row per run, one column per path) in
/// parallel and evaluate `metrics` on each run. Returns `(results, errors)`:
/// a (runs, metrics) float64 array (NaN where a run failed before a metric
/// could be evaluated) and one string per run, empty when the run succeeded.
#[pyfunction]
pub fn sweep_chunk<'py>(
    py: Python<'py>,
    text: &Bound<'_, PyAny>,
    file: &str,
    dir: &str,
    paths: Vec<String>,
    values: PyReadonlyArray2<'py, f64>,
    metrics: Vec<String>,
) -> PyResult<(Bound<'py, numpy::PyArray2<f64>>, Vec<String>)> {
    let results = with_sweep(text, file, dir, paths, values, &metrics, |sweep, rows| {
        Ok(py.detach(|| sweep.run(&rows, &|| {})))
    })?;
    to_arrays(py, results, metrics.len())
}

/// The grid points of `friction sweep` ([`friction_sim::sweep::grid_rows`]):
/// the product of the columns (the first varying slowest) or, with `zip`,
/// the columns side by side; one row per run. Raises `ValueError` when the
/// grid is empty or, with `zip`, the lengths differ.
#[pyfunction]
pub fn grid_rows<'py>(
    py: Python<'py>,
    paths: Vec<String>,
    columns: Vec<Vec<f64>>,
    zip: bool,
) -> PyResult<Bound<'py, numpy::PyArray2<f64>>> {
    let n = paths.len();
    let cols: Vec<(String, Vec<f64>)> = paths.into_iter().zip(columns).collect();
    let rows = friction_sim::sweep::grid_rows(&cols, zip).map_err(PyValueError::new_err)?;
    let flat: Vec<f64> = rows.into_iter().flatten().collect();
    let m = flat.len() / n.max(1);
    PyArray1::from_vec(py, flat).reshape([m, n])
}

/// A grid parsed and checked once ([`sweep_prepare`]): every point's system,
/// run in slices of the grid so that a progress bar can follow. The local
/// path of `friction.sweep`; the values are those of `sweep_chunk`, bit for
/// bit.
#[pyclass(module = "friction._friction", frozen)]
pub struct PreparedSweep {
    sweep: Sweep,
    systems: Vec<friction_sim::System>,
    metrics: usize,
}

#[pymethods]
impl PreparedSweep {
    /// Number of grid points.
    fn __len__(&self) -> usize {
        self.systems.len()
    }

    /// Run the points `start..stop` in parallel: `(results, errors)` as
    /// `sweep_chunk` returns them.
    fn run<'py>(
        &self,
        py: Python<'py>,
        start: usize,
        stop: usize,
    ) -> PyResult<(Bound<'py, numpy::PyArray2<f64>>, Vec<String>)> {
        let n = self.systems.len();
        if start > stop || stop > n {
            return Err(PyValueError::new_err(format!(
                "points {start}..{stop}: valid 0 <= start <= stop <= {n} (the number of grid points)"
            )));
        }
        let systems = &self.systems[start..stop];
        let results = crate::detached(py, "sweep", || Ok(self.sweep.run_systems(systems, &|| {})))?;
        to_arrays(py, results, self.metrics)
    }
}

/// Parse and check every grid point once and keep their systems; raises as
/// `sweep_check` does.
#[pyfunction]
pub fn sweep_prepare(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    file: &str,
    dir: &str,
    paths: Vec<String>,
    values: PyReadonlyArray2<'_, f64>,
    metrics: Vec<String>,
) -> PyResult<PreparedSweep> {
    with_sweep(text, file, dir, paths, values, &metrics, |sweep, rows| {
        let systems = py.detach(|| sweep.prepare(&rows)).map_err(py_err)?;
        Ok(PreparedSweep { sweep, systems, metrics: metrics.len() })
    })
}

/// The results of a slice of runs as a (runs, metrics) array and the errors.
fn to_arrays<'py>(
    py: Python<'py>,
    results: Vec<(Vec<f64>, String)>,
    nm: usize,
) -> PyResult<(Bound<'py, numpy::PyArray2<f64>>, Vec<String>)> {
    let n = results.len();
    let mut flat = Vec::with_capacity(n * nm);
    let mut errors = Vec::with_capacity(n);
    for (v, e) in results {
        flat.extend(v);
        errors.push(e);
    }
    let arr = PyArray1::from_vec(py, flat).reshape([n, nm])?;
    Ok((arr, errors))
}

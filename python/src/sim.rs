//! `simulate`: a scenario (text or dict) through the engine, the result as arrays.

use std::path::Path;

use friction_sim::{output, scenario, simulate_flat};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::errors::py_err;

/// A scenario as `friction._simulate._source` passes it: its TOML text,
/// or a dict shaped like a scenario file. The text is read with its lines
/// (`file` names it in messages); the dict becomes the scenario's table as
/// it is (no TOML text is written from it), so its errors name `file`
/// (`<dict>`) and the key path without a line.
pub fn document(scenario: &Bound<'_, PyAny>, file: &str) -> PyResult<scenario::Document> {
    if let Ok(d) = scenario.cast::<PyDict>() {
        return Ok(scenario::Document::from_table(crate::convert::to_table(d, "")?, file));
    }
    let text: String = scenario.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "a scenario must be TOML text or a dict, found {}",
            scenario.get_type().name().map(|n| n.to_string()).unwrap_or_default()
        ))
    })?;
    scenario::Document::read(&text, file).map_err(py_err)
}

/// Run the scenario `text` with the GIL released. Returns `(columns, data,
/// summary_json, events, failure)`: `data` a (rows, columns) float64 array
/// (moved into NumPy without a copy), `summary_json` exactly
/// `friction_sim::output::summary`, `events` a list of
/// `(t, contact, from, to)`, `failure` None or the reason the run stopped.
#[pyfunction]
pub fn simulate_text<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
    file: &str,
    dir: &str,
) -> PyResult<Bound<'py, PyTuple>> {
    let doc = document(text, file)?;
    let res = crate::detached(py, "simulate", || {
        let sys = doc.validate(Path::new(dir)).map_err(py_err)?;
        // the rows in one block: moved into NumPy as they are
        let out = simulate_flat(&sys).map_err(py_err)?;
        let summary = output::summary_flat(&sys, &out).to_string();
        Ok((sys, out, summary))
    })?;
    let (_, out, summary) = res;
    let (nr, nc) = (out.n_rows(), out.columns.len());
    let events: Vec<(f64, String, String, String)> =
        out.events.iter().map(|e| (e.t, e.contact.clone(), e.from.clone(), e.to.clone())).collect();
    let data = PyArray1::from_vec(py, out.data).reshape([nr, nc])?;
    (out.columns, data, summary, events, out.failure).into_pyobject(py)
}

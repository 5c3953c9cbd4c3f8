//! `simulate`: a scenario's text through the engine, the result as arrays.

use std::path::Path;

use friction_sim::{output, scenario, simulate_flat, SimError, System};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::errors::py_err;

/// The name `friction._simulate._source` gives a scenario passed as a dict:
/// its text is written from the dict (`to_toml`), so its lines mean nothing
/// to the caller.
const DICT: &str = "<dict>";

/// Read a scenario's text (`file` names it in messages). A dict's scenario
/// ([`DICT`]) is read as its table alone, so that its errors name the key
/// path without a line of the text written from it.
pub fn document(text: &str, file: &str) -> Result<scenario::Document, SimError> {
    let doc = scenario::Document::read(text, file)?;
    Ok(if file == DICT { scenario::Document::from_table(doc.table().clone(), file) } else { doc })
}

/// Parse and check a scenario's text (`file` names it in messages, `dir`
/// resolves relative table files).
pub fn parse(text: &str, file: &str, dir: &str) -> Result<System, SimError> {
    document(text, file)?.validate(Path::new(dir))
}

/// Run the scenario `text` with the GIL released. Returns `(columns, data,
/// summary_json, events, failure)`: `data` a (rows, columns) float64 array
/// (moved into NumPy without a copy), `summary_json` exactly
/// `friction_sim::output::summary`, `events` a list of
/// `(t, contact, from, to)`, `failure` None or the reason the run stopped.
#[pyfunction]
pub fn simulate_text<'py>(
    py: Python<'py>,
    text: &str,
    file: &str,
    dir: &str,
) -> PyResult<Bound<'py, PyTuple>> {
    let res = crate::detached(py, "simulate", || {
        let sys = parse(text, file, dir).map_err(py_err)?;
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

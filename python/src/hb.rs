//! `frf` and `nnm`: harmonic balance of a scenario's text, the results as
//! the columns and the summary of `friction frf` / `friction nnm`
//! (friction_hb::table), so both give the same numbers.

use friction_hb::frf::{frf, FrfOptions};
use friction_hb::nnm::{nnm, NnmOptions};
use friction_hb::table::{frf_columns, frf_summary, nnm_columns, nnm_summary, Columns};
use std::path::Path;

use pyo3::prelude::*;

use crate::errors::py_err;

type Table = (Vec<String>, Vec<Vec<f64>>, String);

fn split(cols: Columns, summary: serde_json::Value) -> Table {
    let (names, data) = cols.into_iter().unzip();
    (names, data, summary.to_string())
}

/// The frequency response of the scenario `text` under its force `force`;
/// returns `(column names, columns, summary_json)`.
#[pyfunction]
#[pyo3(signature = (text, file, dir, force, f_min, f_max, harmonics=None, samples=None, dlft_penalty=None))]
#[allow(clippy::too_many_arguments)]
pub fn frf_table(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    file: &str,
    dir: &str,
    force: &str,
    f_min: f64,
    f_max: f64,
    harmonics: Option<usize>,
    samples: Option<usize>,
    dlft_penalty: Option<f64>,
) -> PyResult<Table> {
    let doc = crate::sim::document(text, file)?.with_default_solver();
    crate::detached(py, "frf", || {
        let sys = doc.validate(Path::new(dir)).map_err(py_err)?;
        let opts = FrfOptions { f_min, f_max, harmonics, samples, dlft_penalty, ..Default::default() };
        let r = frf(&sys, force, &opts).map_err(py_err)?;
        Ok(split(frf_columns(&r), frf_summary(&r, &sys.name, force, &opts)))
    })
}

/// The backbone of a nonlinear mode of the scenario `text`; returns
/// `(column names, columns, summary_json)`.
#[pyfunction]
#[pyo3(signature = (text, file, dir, amplitudes, body=None, mode=1, harmonics=5, samples=None))]
#[allow(clippy::too_many_arguments)]
pub fn nnm_table(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    file: &str,
    dir: &str,
    amplitudes: Vec<f64>,
    body: Option<String>,
    mode: usize,
    harmonics: usize,
    samples: Option<usize>,
) -> PyResult<Table> {
    let doc = crate::sim::document(text, file)?.with_default_solver();
    crate::detached(py, "nnm", || {
        let sys = doc.validate(Path::new(dir)).map_err(py_err)?;
        let opts = NnmOptions { body, mode, amplitudes, harmonics, samples, ..Default::default() };
        let r = nnm(&sys, &opts).map_err(py_err)?;
        Ok(split(nnm_columns(&r), nnm_summary(&r, &sys.name)))
    })
}

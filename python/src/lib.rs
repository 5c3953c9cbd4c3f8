//! `friction._friction`: the compiled part of the Python package `friction`.
//!
//! A thin binding: it converts Python values to the Rust core's types and
//! the core's errors to Python exceptions, and owns nothing else. The
//! pure-Python package `friction` (python/friction/) wraps these functions
//! with docstrings, argument checks and pandas/Dask conveniences.
//!
//! Every entry point catches panics (`guard`) so that a defect in the core
//! raises a Python `RuntimeError` naming the call instead of aborting the
//! interpreter, and releases the GIL while it computes (`detached`, the
//! guard inside the release).

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

mod analysis;
mod convert;
mod describe;
mod errors;
mod hb;
mod model;
mod sim;
mod sweep;

create_exception!(
    _friction,
    ScenarioError,
    PyValueError,
    "A scenario that cannot be read: the message names the key, the value, the valid range and the line."
);
create_exception!(
    _friction,
    SimulationError,
    PyRuntimeError,
    "An integration that failed; `.result` holds the partial result (None if the solver could not start)."
);

pub(crate) use errors::{detached, guard};

#[pymodule]
fn _friction(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ScenarioError", py.get_type::<ScenarioError>())?;
    m.add("SimulationError", py.get_type::<SimulationError>())?;
    m.add_function(wrap_pyfunction!(describe::models, m)?)?;
    m.add_function(wrap_pyfunction!(describe::describe_json, m)?)?;
    m.add_function(wrap_pyfunction!(sim::simulate_text, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_chunk, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_check, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_prepare, m)?)?;
    m.add_class::<sweep::PreparedSweep>()?;
    m.add_function(wrap_pyfunction!(sweep::grid_rows, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::fit_json, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::analyze_json, m)?)?;
    m.add_function(wrap_pyfunction!(hb::frf_table, m)?)?;
    m.add_function(wrap_pyfunction!(hb::nnm_table, m)?)?;
    m.add_class::<model::Model>()?;
    Ok(())
}

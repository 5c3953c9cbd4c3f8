//! Every error of the core as a Python exception, in one table, and the guard
//! that keeps a Rust panic from crossing into Python.
//!
//! | Rust error | Python exception |
//! |---|---|
//! | `SimError::Solver` (an integration that failed) | `friction.SimulationError` (a `RuntimeError`) |
//! | any other `SimError` (a scenario that cannot be read) | `friction.ScenarioError` (a `ValueError`) |
//! | `SweepError::Scenario` | `friction.ScenarioError` |
//! | `SweepError::Metric` | `ValueError` |
//! | `AnalysisError::Sim` | as `SimError` |
//! | any other `AnalysisError`, `UpdateError`, `ModelError` | `ValueError` |
//! | a panic | `RuntimeError` ("internal error in ...: please report this") |

use std::panic::{catch_unwind, AssertUnwindSafe};

use friction_analysis::AnalysisError;
use friction_models::update::UpdateError;
use friction_models::ModelError;
use friction_sim::sweep::SweepError;
use friction_sim::SimError;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::{ScenarioError, SimulationError};

/// An error of the core that has a Python exception (the module's table).
pub(crate) trait ToPyErr {
    /// The exception.
    fn to_py(&self) -> PyErr;
}

impl ToPyErr for SimError {
    fn to_py(&self) -> PyErr {
        match self {
            SimError::Solver { .. } => SimulationError::new_err(self.to_string()),
            _ => ScenarioError::new_err(self.to_string()),
        }
    }
}

impl ToPyErr for SweepError {
    fn to_py(&self) -> PyErr {
        match self {
            SweepError::Scenario(m) => ScenarioError::new_err(m.clone()),
            SweepError::Metric(m) => PyValueError::new_err(m.clone()),
        }
    }
}

impl ToPyErr for AnalysisError {
    fn to_py(&self) -> PyErr {
        match self {
            AnalysisError::Sim(s) => s.to_py(),
            e => PyValueError::new_err(e.to_string()),
        }
    }
}

impl ToPyErr for UpdateError {
    fn to_py(&self) -> PyErr {
        PyValueError::new_err(self.to_string())
    }
}

impl ToPyErr for ModelError {
    fn to_py(&self) -> PyErr {
        PyValueError::new_err(self.to_string())
    }
}

/// The Python exception of a core error (for `map_err`).
pub(crate) fn py_err<E: ToPyErr>(e: E) -> PyErr {
    e.to_py()
}

/// Run `f`, turning a panic into a Python `RuntimeError`.
pub(crate) fn guard<T>(what: &str, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => {
            let msg = friction_models::error::panic_message(p.as_ref());
            Err(PyRuntimeError::new_err(format!("internal error in {what}: {msg} (please report this)")))
        }
    }
}

/// Run `f` with the GIL released, under [`guard`]: the one way an entry
/// point computes without holding the GIL (the guard inside the release,
/// where the core runs, so no panic reaches pyo3).
pub(crate) fn detached<T: Send>(
    py: Python<'_>,
    what: &str,
    f: impl FnOnce() -> PyResult<T> + Send,
) -> PyResult<T> {
    py.detach(|| guard(what, f))
}

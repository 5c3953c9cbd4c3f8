//! `Model`: the per-step update of many contacts
//! (`friction_models::update`), over NumPy arrays without copies.

use friction_models::update::{self, planar};
use friction_models::{build, AnyModel};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyReadwriteArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::py_err;

/// One update of every contact over rayon's pool, the GIL released, a
/// panic reported as one in `what`.
#[allow(clippy::too_many_arguments)]
fn step(
    py: Python<'_>,
    what: &str,
    model: &AnyModel,
    dt: f64,
    du: &[f64],
    normal: &[f64],
    state: &mut [f64],
    force: &mut [f64],
) -> PyResult<()> {
    crate::detached(py, what, || update::update_par(model, dt, du, normal, state, force).map_err(py_err))
}

/// One 2-D update (two tangential directions) over rayon's pool, the GIL
/// released, a panic reported as one in `what`.
#[allow(clippy::too_many_arguments)]
fn step_2d(
    py: Python<'_>,
    what: &str,
    model: &AnyModel,
    dt: f64,
    du: &[f64],
    normal: &[f64],
    state: &mut [f64],
    force: &mut [f64],
) -> PyResult<()> {
    crate::detached(py, what, || planar::update_2d_par(model, dt, du, normal, state, force).map_err(py_err))
}

/// The outputs of one update with its tangent: forces, `dforce/dslip`,
/// `dforce/dnormal`.
type Tangent<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<f64>>);

/// One update with its consistent tangent (1-D, or 2-D when `planar`) over
/// rayon's pool, the GIL released; `k` holds 1 (4 in 2-D) and `dn` 1 (2)
/// values per contact; a panic reported as one in `what`.
#[allow(clippy::too_many_arguments)]
fn step_tangent(
    py: Python<'_>,
    what: &str,
    model: &AnyModel,
    planar: bool,
    dt: f64,
    du: &[f64],
    normal: &[f64],
    state: &mut [f64],
    force: &mut [f64],
    k: &mut [f64],
    dn: &mut [f64],
) -> PyResult<()> {
    crate::detached(py, what, || {
        if planar {
            planar::update_2d_tangent_par(model, dt, du, normal, state, force, Some(k), Some(dn))
        } else {
            update::update_tangent_par(model, dt, du, normal, state, force, Some(k), Some(dn))
        }
        .map_err(py_err)
    })
}

/// A friction model with its parameters, updated step by step for many
/// contacts at once (the interface of finite-element user subroutines).
#[pyclass(module = "friction._friction", frozen)]
pub struct Model {
    model: AnyModel,
    #[pyo3(get)]
    id: String,
    #[pyo3(get)]
    state_len: usize,
}

#[pymethods]
impl Model {
    #[new]
    #[pyo3(signature = (id, params=None))]
    fn new(id: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        crate::guard("Model", || {
            let table = match params {
                Some(p) => crate::convert::to_table(p, "")?,
                None => toml::Table::new(),
            };
            let map = friction_sim::scenario::toml_to_params(&table);
            let model = build(id, &map).map_err(py_err)?;
            let state_len = update::state_len(&model);
            Ok(Model { model, id: id.to_string(), state_len })
        })
    }

    /// The update used for this model: "direct", "exact" or "implicit".
    #[getter]
    fn method(&self) -> &'static str {
        update::method(&self.model).name()
    }

    /// Relaxed states at rest for `n` contacts, shape (n, state_len).
    fn init<'py>(&self, py: Python<'py>, n: usize) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let len = self.state_len;
        let mut s = vec![0.0; n * len];
        crate::guard("Model.init", || update::init(&self.model, &mut s).map_err(py_err))?;
        PyArray1::from_vec(py, s).reshape([n, len])
    }

    /// Advance every contact by one step; `state` (n, state_len) float64,
    /// C-contiguous, is updated in place; returns the forces (n,), written
    /// into `out` when given (then no allocation). When the state update
    /// of some contacts does not converge (models with the generic implicit
    /// update), every other contact is still advanced, the failing ones keep
    /// their states with NaN forces, and the exception names the first.
    #[pyo3(signature = (dt, slip_increment, normal, state, out=None))]
    fn update<'py>(
        &self,
        py: Python<'py>,
        dt: f64,
        slip_increment: PyReadonlyArray1<'py, f64>,
        normal: PyReadonlyArray1<'py, f64>,
        mut state: PyReadwriteArray2<'py, f64>,
        out: Option<Bound<'py, PyArray1<f64>>>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let du = slip_increment.as_slice()?;
        let nn = normal.as_slice()?;
        let st = state.as_slice_mut()?;
        let out = match out {
            Some(a) => a,
            None => PyArray1::zeros(py, du.len(), false),
        };
        {
            let mut force = out.try_readwrite()?;
            step(py, "Model.update", &self.model, dt, du, nn, st, force.as_slice_mut()?)?;
        }
        Ok(out)
    }

    /// Doubles of 2-D state per contact; ValueError naming the model and
    /// why when it has no 2-D form.
    #[getter]
    fn state_len_2d(&self) -> PyResult<usize> {
        planar::state_len_2d(&self.model).map_err(py_err)
    }

    /// Relaxed 2-D states at rest for `n` contacts, shape (n, state_len_2d).
    fn init_2d<'py>(&self, py: Python<'py>, n: usize) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let len = self.state_len_2d()?;
        let mut s = vec![0.0; n * len];
        crate::guard("Model.init_2d", || planar::init_2d(&self.model, &mut s).map_err(py_err))?;
        PyArray1::from_vec(py, s).reshape([n, len])
    }

    /// Advance every planar contact by one step: `slip_increment` (n, 2),
    /// `state` (n, state_len_2d) updated in place; returns the forces (n, 2),
    /// written into `out` when given.
    #[pyo3(signature = (dt, slip_increment, normal, state, out=None))]
    fn update_2d<'py>(
        &self,
        py: Python<'py>,
        dt: f64,
        slip_increment: PyReadonlyArray2<'py, f64>,
        normal: PyReadonlyArray1<'py, f64>,
        mut state: PyReadwriteArray2<'py, f64>,
        out: Option<Bound<'py, PyArray2<f64>>>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let du = slip_increment.as_slice()?;
        let nn = normal.as_slice()?;
        let st = state.as_slice_mut()?;
        let out = match out {
            Some(a) => a,
            None => PyArray2::zeros(py, [nn.len(), 2], false),
        };
        {
            let mut force = out.try_readwrite()?;
            step_2d(py, "Model.update_2d", &self.model, dt, du, nn, st, force.as_slice_mut()?)?;
        }
        Ok(out)
    }

    /// [`Model::update`] with the consistent tangent: returns flat arrays
    /// of the forces (n), `dforce/dslip` (n) and `dforce/dnormal` (n).
    fn update_tangent<'py>(
        &self,
        py: Python<'py>,
        dt: f64,
        slip_increment: PyReadonlyArray1<'py, f64>,
        normal: PyReadonlyArray1<'py, f64>,
        mut state: PyReadwriteArray2<'py, f64>,
    ) -> PyResult<Tangent<'py>> {
        let (du, nn, st) = (slip_increment.as_slice()?, normal.as_slice()?, state.as_slice_mut()?);
        let n = du.len();
        let (mut f, mut k, mut dn) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        step_tangent(
            py,
            "Model.update_tangent",
            &self.model,
            false,
            dt,
            du,
            nn,
            st,
            &mut f,
            &mut k,
            &mut dn,
        )?;
        Ok((PyArray1::from_vec(py, f), PyArray1::from_vec(py, k), PyArray1::from_vec(py, dn)))
    }

    /// [`Model::update_2d`] with the consistent tangent: returns flat arrays
    /// of the forces (2n), `dforce/dslip` (4n, row-major 2 × 2 per contact)
    /// and `dforce/dnormal` (2n).
    fn update_2d_tangent<'py>(
        &self,
        py: Python<'py>,
        dt: f64,
        slip_increment: PyReadonlyArray2<'py, f64>,
        normal: PyReadonlyArray1<'py, f64>,
        mut state: PyReadwriteArray2<'py, f64>,
    ) -> PyResult<Tangent<'py>> {
        let (du, nn, st) = (slip_increment.as_slice()?, normal.as_slice()?, state.as_slice_mut()?);
        let n = nn.len();
        let (mut f, mut k, mut dn) = (vec![0.0; 2 * n], vec![0.0; 4 * n], vec![0.0; 2 * n]);
        step_tangent(
            py,
            "Model.update_2d_tangent",
            &self.model,
            true,
            dt,
            du,
            nn,
            st,
            &mut f,
            &mut k,
            &mut dn,
        )?;
        Ok((PyArray1::from_vec(py, f), PyArray1::from_vec(py, k), PyArray1::from_vec(py, dn)))
    }

    fn __repr__(&self) -> String {
        format!("Model('{}', state_len={})", self.id, self.state_len)
    }
}

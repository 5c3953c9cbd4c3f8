//! `fit` and `analyze`: friction-analysis over NumPy arrays, results as JSON
//! text (turned into dicts by the Python layer).

use friction_analysis::analysis::loops::{analyze_loops, LoopOptions};
use friction_analysis::analysis::stribeck::{stribeck_curve, StribeckOptions};
use friction_analysis::analysis::transient::{transient_decay, TransientOptions};
use friction_analysis::data::Series;
use friction_analysis::fit::{fit, parse_params, FitOptions};
use numpy::PyReadonlyArray1;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::json;

use crate::errors::py_err;

fn vec(a: Option<PyReadonlyArray1<'_, f64>>) -> Option<Vec<f64>> {
    a.map(|a| a.as_array().to_vec())
}

/// `k=v,...` text of a dict of starting values, for `parse_params`.
fn init_text(d: &Bound<'_, PyDict>) -> PyResult<String> {
    let t = crate::convert::to_table(d, "params_init")?;
    let mut items = Vec::new();
    for (k, v) in &t {
        let s = match v {
            toml::Value::Float(x) => format!("{x:?}"),
            toml::Value::Integer(i) => i.to_string(),
            toml::Value::Boolean(b) => b.to_string(),
            toml::Value::String(s) => s.clone(),
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "`params_init.{k}`: give a number, bool or string; name element rows as `elements[i].k`"
                )))
            }
        };
        items.push(format!("{k}={s}"));
    }
    Ok(items.join(","))
}

/// Fit `model` to the samples; returns `(report_json, f_fit)`.
#[pyfunction]
#[pyo3(signature = (model, t, x, v, f, normal, fix, free, params_init, validate_from, starts, seed))]
#[allow(clippy::too_many_arguments)]
pub fn fit_json(
    py: Python<'_>,
    model: &str,
    t: PyReadonlyArray1<'_, f64>,
    x: Option<PyReadonlyArray1<'_, f64>>,
    v: Option<PyReadonlyArray1<'_, f64>>,
    f: PyReadonlyArray1<'_, f64>,
    normal: Option<PyReadonlyArray1<'_, f64>>,
    fix: Vec<String>,
    free: Option<Vec<String>>,
    params_init: Option<&Bound<'_, PyDict>>,
    validate_from: Option<f64>,
    starts: usize,
    seed: u64,
) -> PyResult<(String, Vec<f64>)> {
    let init = match params_init {
        Some(d) => init_text(d)?,
        None => String::new(),
    };
    let (t, x, v, f, n) = (t.as_array().to_vec(), vec(x), vec(v), f.as_array().to_vec(), vec(normal));
    let model = model.to_string();
    crate::detached(py, "fit", || {
        let series = Series::new("<arrays>", t, x, v, Some(f), n).map_err(py_err)?;
        let init = parse_params(&model, &init).map_err(py_err)?;
        let opts = FitOptions {
            model: model.clone(),
            init,
            fix,
            free,
            validate_from,
            starts,
            seed,
            ..Default::default()
        };
        let r = fit(&series, &opts, None).map_err(py_err)?;
        Ok((r.to_json().to_string(), r.f_fit.clone()))
    })
}

/// Analyse samples: `kind` = "loops" (t, x, F), "stribeck" (t, v, F) or
/// "transient" (t, x); returns the analysis as JSON text.
#[pyfunction]
#[pyo3(signature = (kind, t, x, v, f, reversal_tol=None, closure_tol=None, bins=None, log_bins=None, v_min=None, v_max=None, max_accel=None, settle=None, min_count=None))]
#[allow(clippy::too_many_arguments)]
pub fn analyze_json(
    py: Python<'_>,
    kind: &str,
    t: PyReadonlyArray1<'_, f64>,
    x: Option<PyReadonlyArray1<'_, f64>>,
    v: Option<PyReadonlyArray1<'_, f64>>,
    f: Option<PyReadonlyArray1<'_, f64>>,
    reversal_tol: Option<f64>,
    closure_tol: Option<f64>,
    bins: Option<usize>,
    log_bins: Option<bool>,
    v_min: Option<f64>,
    v_max: Option<f64>,
    max_accel: Option<f64>,
    settle: Option<f64>,
    min_count: Option<usize>,
) -> PyResult<String> {
    let (t, x, v, f) = (t.as_array().to_vec(), vec(x), vec(v), vec(f));
    let need = |a: &Option<Vec<f64>>, name: &str| -> PyResult<Vec<f64>> {
        a.clone().ok_or_else(|| PyValueError::new_err(format!("kind=\"{kind}\" needs `{name}`")))
    };
    let kind = kind.to_string();
    match kind.as_str() {
        "loops" => {
            let (x, f) = (need(&x, "x")?, need(&f, "f")?);
            let mut o = LoopOptions::default();
            o.reversal_tol = reversal_tol.unwrap_or(o.reversal_tol);
            o.closure_tol = closure_tol.unwrap_or(o.closure_tol);
            crate::detached(py, "analyze", || {
                let a = analyze_loops(&t, &x, &f, &o).map_err(py_err)?;
                let closed = a.cycles.iter().filter(|c| c.closed).count();
                Ok(json!({"cycles": a.cycles, "closed": closed, "backbone": a.backbone, "virgin": a.virgin})
                    .to_string())
            })
        }
        "stribeck" => {
            let f = need(&f, "f")?;
            let v = match (v, &x) {
                (Some(v), _) => v,
                (None, Some(x)) => Series::new("<arrays>", t.clone(), Some(x.clone()), None, None, None)
                    .map_err(py_err)?
                    .velocity()
                    .ok_or_else(|| PyValueError::new_err("kind=\"stribeck\" needs `v` or `x`"))?,
                (None, None) => return Err(PyValueError::new_err("kind=\"stribeck\" needs `v` or `x`")),
            };
            let mut o = StribeckOptions::default();
            o.bins = bins.unwrap_or(o.bins);
            o.log_bins = log_bins.unwrap_or(o.log_bins);
            o.v_min = v_min.or(o.v_min);
            o.v_max = v_max.or(o.v_max);
            o.max_accel = max_accel.or(o.max_accel);
            o.settle = settle.unwrap_or(o.settle);
            o.min_count = min_count.unwrap_or(o.min_count);
            crate::detached(py, "analyze", || {
                let p = stribeck_curve(&t, &v, &f, &o).map_err(py_err)?;
                Ok(json!({"points": p}).to_string())
            })
        }
        "transient" => {
            let x = need(&x, "x")?;
            let mut o = TransientOptions::default();
            o.reversal_tol = reversal_tol.unwrap_or(o.reversal_tol);
            crate::detached(py, "analyze", || {
                let a = transient_decay(&t, &x, &o).map_err(py_err)?;
                Ok(json!({"extrema": a.extrema, "points": a.points}).to_string())
            })
        }
        other => Err(PyValueError::new_err(format!(
            "kind = \"{other}\" is not valid; valid: \"loops\", \"stribeck\", \"transient\""
        ))),
    }
}

//! What a fit takes and gives: its options, progress reports, the fitted
//! parameters with their errors and intervals, the validation, and the
//! result's JSON form.

use std::path::Path;

use friction_models::{ParamMap, ParamValue};
use friction_sim::drive::DriveSettings;
use serde_json::{json, Value};

use crate::error::AnalysisError;
use crate::lm::LmOptions;

use super::evaluate::*;

/// Options of [`fit`](crate::fit::fit).
#[derive(Debug, Clone)]
pub struct FitOptions {
    /// Model id.
    pub model: String,
    /// Starting values and held values (anything not given: the data-informed
    /// guess of [`initial_guess`](crate::fit::initial_guess) if [`FitOptions::guess`], else the model default).
    pub init: ParamMap,
    /// Parameters held at their starting value (names as in [`FitParam::name`];
    /// a rows name like `elements` holds all its entries).
    pub fix: Vec<String>,
    /// If given, exactly these parameters are fitted (same naming).
    pub free: Option<Vec<String>>,
    /// Number of starts (>= 1): the first from the starting values, the others
    /// from random perturbations of them (θ ± ln 3 for log-scaled parameters,
    /// ± 1 for logistic ones, ± 50 % for unbounded ones). Default 1.
    pub starts: usize,
    /// Seed of the perturbations of multi-start. Default 0.
    pub seed: u64,
    /// Fit on `t < validate_from` only, and report the RMS on the rest.
    pub validate_from: Option<f64>,
    /// Number of elements to guess for `maxwell_slip` / `gms` when no rows
    /// are given. Default 3.
    pub elements: usize,
    /// Fill parameters not in `init` from [`initial_guess`](crate::fit::initial_guess). Default true.
    pub guess: bool,
    /// Levenberg-Marquardt options; its `fd_step` and `fd_scale` are set by
    /// [`fit`](crate::fit::fit) (see [`FitOptions::fd_step`]).
    pub lm: LmOptions,
    /// Finite-difference step in θ (relative for log-scaled parameters);
    /// `None`: 1e-6 for the direct and sequential evaluators (exact up to
    /// rounding), 1e-3 for the engine (whose results carry the integration
    /// error, see [`FitOptions::auto_tolerance`]).
    pub fd_step: Option<f64>,
    /// Engine settings for models integrated by the engine.
    pub drive: DriveSettings,
    /// For the engine: replace the tolerances of [`FitOptions::drive`] by a
    /// relative tolerance of 1e-8 and an absolute tolerance of the contact
    /// states of 1e-10 times the smallest peak magnitude of a state along the
    /// data (at the starting parameters, [`state_tolerance`]), so that
    /// states of 1e-5 m are resolved as well as forces of 1 N. The model
    /// force is then accurate to about 1e-8 relative, far below measurement
    /// noise, and finite differences with a step of 1e-3 see no integration
    /// noise (at rtol 1e-6 the variable-order BDF's noise made the two GMS
    /// element stiffnesses look collinear). Default true.
    pub auto_tolerance: bool,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            model: String::new(),
            init: ParamMap::new(),
            fix: vec![],
            free: None,
            starts: 1,
            seed: 0,
            validate_from: None,
            elements: 3,
            guess: true,
            lm: LmOptions::default(),
            fd_step: None,
            drive: DriveSettings::default(),
            auto_tolerance: true,
        }
    }
}

/// A fitted parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct FitParam {
    /// Name (`fc`, `elements[1].k`).
    pub name: String,
    /// Unit.
    pub unit: String,
    /// Estimate.
    pub value: f64,
    /// Standard error.
    pub stderr: f64,
    /// 95 % confidence interval `value ± t(0.975, dof) stderr`, clipped to the valid range.
    pub ci95: [f64; 2],
}

/// The validation part of a fit.
#[derive(Debug, Clone, PartialEq)]
pub struct Validation {
    /// Fit on `t < from`, validation on `t >= from`.
    pub from: f64,
    /// Number of validation samples.
    pub n: usize,
    /// RMS of the residual on the validation samples \[N\].
    pub rms: f64,
}

/// What [`fit`](crate::fit::fit) reports while it works.
#[derive(Debug, Clone, Copy)]
pub struct FitProgress {
    /// Which start (0-based).
    pub start: usize,
    /// Number of starts.
    pub starts: usize,
    /// Iteration of that start.
    pub iteration: usize,
    /// Its residual RMS \[N\].
    pub rms: f64,
}

/// The result of [`fit`](crate::fit::fit).
#[derive(Debug, Clone)]
pub struct FitResult {
    /// Model id.
    pub model: String,
    /// The fitted parameters.
    pub params: Vec<FitParam>,
    /// Real parameters held (fixed, at a bound, or without effect), with their values.
    pub held: Vec<(String, f64)>,
    /// Notes (parameters held because they do not affect the force, ...).
    pub notes: Vec<String>,
    /// The complete parameters of the fitted model (for [`friction_models::build`]).
    pub param_map: ParamMap,
    /// Residual RMS on the fitted samples \[N\].
    pub rms: f64,
    /// Number of fitted samples.
    pub n: usize,
    /// Degrees of freedom `n - m`.
    pub dof: usize,
    /// Correlation matrix of the fitted parameters.
    pub correlation: Vec<Vec<f64>>,
    /// Smallest singular value of the Jacobian with unit columns (1 for
    /// orthogonal effects, 0 for a combination of parameters without effect;
    /// see [`MIN_SINGULAR_VALUE`](crate::fit::MIN_SINGULAR_VALUE)).
    pub min_singular_value: f64,
    /// Iterations of the best start.
    pub iterations: usize,
    /// Model evaluations over all starts.
    pub evaluations: usize,
    /// Whether the best start converged.
    pub converged: bool,
    /// Why the best start stopped.
    pub stop: String,
    /// Which start gave the best fit (0 = the starting values).
    pub best_start: usize,
    /// Number of starts.
    pub starts: usize,
    /// Validation on the samples after [`FitOptions::validate_from`].
    pub validation: Option<Validation>,
    /// How the force was computed.
    pub evaluator: Evaluator,
    /// Times of the whole record \[s\].
    pub t: Vec<f64>,
    /// Displacement of the whole record \[m\].
    pub x: Vec<f64>,
    /// Velocity of the whole record [m/s].
    pub v: Vec<f64>,
    /// Measured force \[N\].
    pub f_data: Vec<f64>,
    /// Fitted model force over the whole record \[N\].
    pub f_fit: Vec<f64>,
}

impl FitResult {
    /// The parameter `name`, if fitted.
    pub fn param(&self, name: &str) -> Option<&FitParam> {
        self.params.iter().find(|p| p.name == name)
    }

    /// The JSON report: `{"model", "params": {NAME: {"value", "stderr",
    /// "ci95": [lo, hi], "unit"}}, "rms", "n", "dof", "held", "correlation",
    /// "validation", "converged", ...}`.
    pub fn to_json(&self) -> Value {
        let mut params = serde_json::Map::new();
        for p in &self.params {
            params.insert(
                p.name.clone(),
                json!({"value": p.value, "stderr": p.stderr, "ci95": [p.ci95[0], p.ci95[1]], "unit": p.unit}),
            );
        }
        let held: serde_json::Map<String, Value> =
            self.held.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
        json!({
            "model": self.model,
            "params": params,
            "rms": self.rms,
            "n": self.n,
            "dof": self.dof,
            "held": held,
            "notes": self.notes,
            "correlation": self.correlation,
            "min_singular_value": self.min_singular_value,
            "validation": self.validation.as_ref().map(|v| json!({"from": v.from, "n": v.n, "rms": v.rms})),
            "converged": self.converged,
            "stop": self.stop,
            "iterations": self.iterations,
            "evaluations": self.evaluations,
            "starts": self.starts,
            "best_start": self.best_start,
            "evaluator": self.evaluator.name(),
            "model_params": param_map_json(&self.param_map),
        })
    }

    /// Write `t,x,v,F,F_fit,residual` as CSV.
    pub fn write_csv(&self, path: &Path) -> Result<(), AnalysisError> {
        let mut s = String::from("t,x,v,F,F_fit,residual\n");
        for i in 0..self.t.len() {
            s += &format!(
                "{},{},{},{},{},{}\n",
                self.t[i],
                self.x[i],
                self.v[i],
                self.f_data[i],
                self.f_fit[i],
                self.f_fit[i] - self.f_data[i]
            );
        }
        std::fs::write(path, s)
            .map_err(|e| AnalysisError::Io { path: path.display().to_string(), message: e.to_string() })
    }
}

pub(super) fn percentile(mut v: Vec<f64>, q: f64) -> f64 {
    v.retain(|x| x.is_finite());
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let k = ((v.len() - 1) as f64 * q).round() as usize;
    v[k.min(v.len() - 1)]
}

/// A [`ParamMap`] as JSON (numbers, booleans, strings, lists, tables).
pub fn param_map_json(map: &ParamMap) -> Value {
    fn one(v: &ParamValue) -> Value {
        match v {
            ParamValue::Num(x) => json!(x),
            ParamValue::Bool(b) => json!(b),
            ParamValue::Str(s) => json!(s),
            ParamValue::List(l) => Value::Array(l.iter().map(one).collect()),
            ParamValue::Table(t) => param_map_json(t),
        }
    }
    Value::Object(map.iter().map(|(k, v)| (k.clone(), one(v))).collect())
}

//! Parameter identification: fit any model of the registry to measured
//! friction forces under a measured motion, with standard errors and 95 %
//! confidence intervals.
//!
//! # Problem
//! ```text
//! data       t_i, x_i and/or v_i, F_i (optionally N_i),  i = 1..n
//! model      F̂_i(p) = N_i · F_model(p; motion up to t_i)     (N_i = 1 without an N column)
//! estimate   p̂ = argmin Σ (F̂_i(p) - F_i)²  over the free parameters, inside their valid ranges
//! errors     Cov(p̂) = s² (JᵀJ)⁻¹,  s² = Σ r_i² / (n - m),  J = ∂F̂/∂p at p̂   (m free parameters)
//! CI 95 %    p̂_j ± t(0.975, n - m) · se_j,  se_j = sqrt(Cov_jj)    (clipped to the valid range)
//! ```
//! The force convention is the models' ([`friction_models::Input`]): `F`
//! opposes the motion, positive while sliding forward (`v > 0`). A force
//! measured on the moving body is `-F`; negate it before fitting. With an
//! `N` column the model force is multiplied by the normal load, so the fitted
//! force parameters are per unit normal load (friction coefficients).
//!
//! # How the model force is computed
//! - models without state or memory (static maps, the sliding curve of
//!   set-valued models, wrappers of them): `F_i = N_i F(t_i, x_i, v_i)`
//!   directly, with the measured velocity (or the central difference of `x`);
//!   no ODE is solved. A set-valued model at exactly `v = 0` gives 0, as a
//!   driven contact without a body does in the engine.
//! - rate-independent hysteresis operators (`maxwell_slip`, `jenkins`,
//!   `iwan4`, `iwan5`): the operator is stepped from sample to sample
//!   ([`FrictionModel::force`], then [`FrictionModel::accept`]). Between
//!   samples the motion is taken linear, so this is exact.
//! - every other model: [`friction_sim::drive::drive`], the engine driving
//!   the contact along `x(t)` linear between samples (times shifted to start
//!   at 0), with [`DriveSettings`]. If the engine fails with
//!   `method = auto` (the implicit solvers fail on the switching element
//!   rates of `gms`), the run is repeated with the explicit `tsit45`.
//!
//! # Parameters, bounds and transforms
//! Fitted parameters are the real parameters of the model (by name, e.g.
//! `fc`) and, for models with element rows (`maxwell_slip`, `gms`), the row
//! entries named `elements[i].k`, `elements[i].fmax` (the number of elements
//! is fixed: set it with initial values or [`FitOptions::elements`]). The GMS
//! fractions `elements[i].alpha` must sum to 1 and are never fitted.
//! Integer, choice, boolean and inner-model parameters are held.
//!
//! Free by default: every such real parameter not in [`FitOptions::fix`]
//! whose starting value is not on a closed bound of its range (so `kv = 0`
//! of `stribeck` is held at 0 unless freed or given a positive start) and
//! that changes the force at the start (a parameter of an unused Stribeck
//! shape is held, with a note). A parameter named in [`FitOptions::free`]
//! that does not affect the force is an error naming it.
//!
//! The search runs in transformed coordinates θ that keep every parameter
//! inside its valid range ([`friction_models::Range`]):
//! `p = lo + e^θ` for ranges `(lo, inf)` (a log scale for positive scale
//! parameters), `p = hi - e^θ` for `(-inf, hi)`, the logistic
//! `p = lo + (hi - lo)/(1 + e^-θ)` for finite ranges, `p = θ` for unbounded
//! ones. Force parameters (unit `N`) are also boxed to
//! `[1e-6, 100] · max|F/N|` of the data (projected LM in θ). Standard errors
//! and intervals are given for the parameters themselves (delta method:
//! `J_p = J_θ / (dp/dθ)`), not for θ.
//!
//! The Jacobian is by forward finite differences ([`crate::lm`]); the
//! engine's adjoint/forward sensitivities are not used (they are not exposed
//! by `friction_sim::drive`, and the hysteresis operators' discrete memory
//! would need event sensitivities).

use std::collections::BTreeSet;
use std::path::Path;

use friction_models::{build, info, AnyModel, Family, FrictionModel, Input, ParamKind, ParamMap, ParamValue};
use friction_sim::drive::{drive, drive_outcome, DriveSettings};
use friction_sim::schedule::Schedule;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde_json::{json, Value};

use crate::data::{Series, MIN_SAMPLES};
use crate::error::AnalysisError;
use crate::lm::{self, LmOptions, LmProgress};

/// The smallest singular value of the unit-column Jacobian at the optimum
/// below which the parameters are declared not identifiable (a variance
/// inflation above 1000: two parameters whose effects on the force have a
/// cosine above 0.999).
pub const MIN_SINGULAR_VALUE: f64 = 0.0316;

/// The rate-independent hysteresis operators that are stepped sample by
/// sample instead of integrated by the engine.
pub const SEQUENTIAL_MODELS: &[&str] = &["maxwell_slip", "jenkins", "iwan4", "iwan5"];

/// How the model force along the data is computed (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evaluator {
    /// `F = N F(t, x, v)` sample by sample: models without state or memory.
    Direct,
    /// Rate-independent hysteresis operator stepped from sample to sample.
    Sequential,
    /// The engine ([`friction_sim::drive::drive`]).
    Engine,
}

impl Evaluator {
    /// The evaluator for `model`.
    pub fn for_model(model: &AnyModel) -> Evaluator {
        if model.n_states() == 0 && model.n_memory() == 0 {
            Evaluator::Direct
        } else if model.n_states() == 0 && SEQUENTIAL_MODELS.contains(&model.info().id) {
            Evaluator::Sequential
        } else {
            Evaluator::Engine
        }
    }

    /// Short name (`direct`, `sequential`, `engine`).
    pub fn name(self) -> &'static str {
        match self {
            Evaluator::Direct => "direct",
            Evaluator::Sequential => "sequential",
            Evaluator::Engine => "engine",
        }
    }
}

/// A sampled relative motion (and normal load) along which a model is driven.
#[derive(Debug, Clone, PartialEq)]
pub struct Motion {
    /// Times \[s\], strictly increasing.
    pub t: Vec<f64>,
    /// Displacement \[m\].
    pub x: Vec<f64>,
    /// Velocity [m/s].
    pub v: Vec<f64>,
    /// Normal load \[N\], if any (otherwise 1).
    pub n: Option<Vec<f64>>,
}

impl Motion {
    /// The motion of a data series: `x` (or the integral of `v`), `v` (or the
    /// central difference of `x`), and `N`.
    pub fn from_series(s: &Series) -> Result<Motion, AnalysisError> {
        let (Some(x), Some(v)) = (s.displacement(), s.velocity()) else {
            return Err(AnalysisError::Data {
                file: s.source.clone(),
                line: Some(1),
                message: "no displacement `x` or velocity `v` column: the motion is needed to compute the model force"
                    .into(),
            });
        };
        if let Some(n) = &s.n {
            if let Some(i) = n.iter().position(|n| *n < 0.0) {
                return Err(AnalysisError::Data {
                    file: s.source.clone(),
                    line: None,
                    message: format!(
                        "column `N`: normal load {} at sample {} (t = {}) is negative; it must be >= 0",
                        n[i],
                        i + 1,
                        s.t[i]
                    ),
                });
            }
        }
        Ok(Motion { t: s.t.clone(), x, v, n: s.n.clone() })
    }

    /// The first `k` samples.
    pub fn head(&self, k: usize) -> Motion {
        Motion {
            t: self.t[..k].to_vec(),
            x: self.x[..k].to_vec(),
            v: self.v[..k].to_vec(),
            n: self.n.as_ref().map(|n| n[..k].to_vec()),
        }
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.t.len()
    }

    /// Whether there are no samples.
    pub fn is_empty(&self) -> bool {
        self.t.is_empty()
    }
}

/// The model-convention friction force of `model` along `motion` at its
/// sample times (see the module docs for the three evaluators).
///
/// ```
/// use friction_analysis::fit::{model_force, Motion};
/// use friction_models::{build, ParamMap};
/// let m = build("maxwell_slip", &friction_analysis::fit::parse_params("maxwell_slip",
///     "elements[0].k=1e5,elements[0].fmax=1").unwrap()).unwrap();
/// let t: Vec<f64> = (0..=40).map(|i| i as f64).collect();
/// let x: Vec<f64> = t.iter().map(|t| 1e-6 * if *t <= 20.0 { *t } else { 40.0 - t }).collect();
/// let motion = Motion { v: vec![0.0; 41], t, x, n: None };
/// let f = model_force(&m, &motion, &Default::default()).unwrap();
/// assert!((f[5] - 0.5).abs() < 1e-12);  // k x = 1e5 * 5e-6, below the slip force
/// assert!((f[20] - 1.0).abs() < 1e-12); // slipping at fmax
/// assert!((f[30] - -0.0).abs() < 1e-9); // unloaded by 2 fmax / k = 2e-5 from the turn
/// ```
pub fn model_force(
    model: &AnyModel,
    motion: &Motion,
    settings: &DriveSettings,
) -> Result<Vec<f64>, AnalysisError> {
    let n = motion.len();
    let load = |i: usize| motion.n.as_ref().map_or(1.0, |n| n[i].max(0.0));
    match Evaluator::for_model(model) {
        Evaluator::Direct => Ok((0..n)
            .map(|i| load(i) * model.force(&Input::new(motion.t[i], motion.x[i], motion.v[i]), &[], &[]))
            .collect()),
        Evaluator::Sequential => {
            let mut mem = vec![0.0; model.n_memory()];
            let mut z: Vec<f64> = vec![];
            let mut out = Vec::with_capacity(n);
            for i in 0..n {
                let inp = Input::new(motion.t[i], motion.x[i], motion.v[i]);
                if i == 0 {
                    model.init(&inp, &mut z, &mut mem);
                }
                out.push(load(i) * model.force(&inp, &z, &mem));
                model.accept(&inp, &mut z, &mut mem);
            }
            Ok(out)
        }
        Evaluator::Engine => {
            let t0 = motion.t[0];
            let t: Vec<f64> = motion.t.iter().map(|t| t - t0).collect();
            let f = drive(model.clone(), &t, &motion.x, motion.n.as_deref(), settings)?;
            debug_assert_eq!(f.len(), n);
            Ok(f)
        }
    }
}

/// Parse `k=v,k=v,...` parameter assignments for model `id` into a
/// [`ParamMap`]: numbers, `true`/`false`, strings (choices), and element
/// rows as `elements[i].COLUMN=value` (rows must be complete and
/// contiguous from 0).
///
/// ```
/// let p = friction_analysis::fit::parse_params("lugre", "sigma0=2e5, shape=tustin").unwrap();
/// assert_eq!(p["sigma0"], friction_models::ParamValue::Num(2e5));
/// ```
pub fn parse_params(id: &str, text: &str) -> Result<ParamMap, AnalysisError> {
    let mut map = ParamMap::new();
    let mi = model_info(id)?;
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let Some((k, v)) = item.split_once('=') else {
            return Err(AnalysisError::Model(format!("`{item}`: expected NAME=VALUE")));
        };
        set_param(mi, &mut map, k.trim(), v.trim())?;
    }
    // rows must be complete
    for spec in mi.params {
        if let (ParamKind::Rows { columns, .. }, Some(ParamValue::List(rows))) =
            (spec.kind, map.get(spec.name))
        {
            for (i, row) in rows.iter().enumerate() {
                if let ParamValue::List(cells) = row {
                    for (j, c) in cells.iter().enumerate() {
                        if matches!(c, ParamValue::Num(x) if x.is_nan()) {
                            return Err(AnalysisError::Model(format!(
                                "{id}: `{}[{i}].{}` is missing (each row needs {})",
                                spec.name,
                                columns[j],
                                columns.join(", ")
                            )));
                        }
                    }
                }
            }
        }
    }
    Ok(map)
}

pub(crate) fn model_info(id: &str) -> Result<&'static friction_models::ModelInfo, AnalysisError> {
    info(id).ok_or_else(|| {
        AnalysisError::Model(format!(
            "unknown model `{id}`; known models: {}",
            friction_models::all().iter().map(|m| m.id).collect::<Vec<_>>().join(", ")
        ))
    })
}

/// Set one parameter `key` (a name or `ROWS[i].COLUMN`) from its text `value`.
fn set_param(
    mi: &'static friction_models::ModelInfo,
    map: &mut ParamMap,
    key: &str,
    value: &str,
) -> Result<(), AnalysisError> {
    let bad = |msg: String| AnalysisError::Model(format!("{}: `{key}={value}`: {msg}", mi.id));
    let valid = || mi.params.iter().map(|p| p.name).collect::<Vec<_>>().join(", ");
    if let Some((name, rest)) = key.split_once('[') {
        let spec = mi
            .params
            .iter()
            .find(|p| p.name == name)
            .ok_or_else(|| bad(format!("no parameter `{name}`; parameters are {}", valid())))?;
        let ParamKind::Rows { columns, .. } = spec.kind else {
            return Err(bad(format!("`{name}` has no rows")));
        };
        let (idx, col) = rest.split_once("].").ok_or_else(|| {
            bad(format!("expected {name}[INDEX].COLUMN with COLUMN one of {}", columns.join(", ")))
        })?;
        let i: usize = idx.trim().parse().map_err(|_| bad(format!("`{idx}` is not an element index")))?;
        let j = columns
            .iter()
            .position(|c| *c == col.trim())
            .ok_or_else(|| bad(format!("no column `{col}`; columns are {}", columns.join(", "))))?;
        let x: f64 = value.parse().map_err(|_| bad("not a number".into()))?;
        let entry = map.entry(name.to_string()).or_insert_with(|| ParamValue::List(vec![]));
        let ParamValue::List(rows) = entry else { return Err(bad("not a list".into())) };
        if i > rows.len() {
            return Err(bad(format!("element {i} given before element {}", rows.len())));
        }
        if i == rows.len() {
            rows.push(ParamValue::List(vec![ParamValue::Num(f64::NAN); columns.len()]));
        }
        if let ParamValue::List(cells) = &mut rows[i] {
            cells[j] = ParamValue::Num(x);
        }
        return Ok(());
    }
    let spec = mi
        .params
        .iter()
        .find(|p| p.name == key)
        .ok_or_else(|| bad(format!("no parameter `{key}`; parameters are {}", valid())))?;
    let v = match spec.kind {
        ParamKind::Real { .. } | ParamKind::OptionalReal { .. } | ParamKind::Integer { .. } => {
            ParamValue::Num(value.parse().map_err(|_| bad("not a number".into()))?)
        }
        ParamKind::Bool { .. } => match value {
            "true" => ParamValue::Bool(true),
            "false" => ParamValue::Bool(false),
            _ => return Err(bad("expected true or false".into())),
        },
        ParamKind::Choice { .. } => ParamValue::Str(value.to_string()),
        ParamKind::Rows { columns, .. } => {
            return Err(bad(format!("give rows as {key}[i].{}=...", columns[0])));
        }
        ParamKind::Model { .. } => ParamValue::Str(value.to_string()),
    };
    map.insert(key.to_string(), v);
    Ok(())
}

/// A map from a parameter transform to the search coordinate θ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Transform {
    /// `p = θ`.
    Identity,
    /// `p = lo + e^θ`.
    Log {
        /// Lower bound.
        lo: f64,
    },
    /// `p = hi - e^θ`.
    NegLog {
        /// Upper bound.
        hi: f64,
    },
    /// `p = lo + (hi - lo) / (1 + e^-θ)`.
    Logistic {
        /// Lower bound.
        lo: f64,
        /// Upper bound.
        hi: f64,
    },
}

impl Transform {
    /// The transform keeping a parameter inside `[lo, hi]`.
    pub fn for_range(lo: f64, hi: f64) -> Transform {
        match (lo.is_finite(), hi.is_finite()) {
            (true, true) => Transform::Logistic { lo, hi },
            (true, false) => Transform::Log { lo },
            (false, true) => Transform::NegLog { hi },
            (false, false) => Transform::Identity,
        }
    }
    /// p(θ).
    pub fn to_param(self, th: f64) -> f64 {
        match self {
            Transform::Identity => th,
            Transform::Log { lo } => lo + th.exp(),
            Transform::NegLog { hi } => hi - th.exp(),
            Transform::Logistic { lo, hi } => lo + (hi - lo) / (1.0 + (-th).exp()),
        }
    }
    /// θ(p); p must lie strictly inside the range.
    pub fn to_theta(self, p: f64) -> f64 {
        match self {
            Transform::Identity => p,
            Transform::Log { lo } => (p - lo).ln(),
            Transform::NegLog { hi } => (hi - p).ln(),
            Transform::Logistic { lo, hi } => ((p - lo) / (hi - p)).ln(),
        }
    }
    /// dp/dθ at θ.
    pub fn dp_dtheta(self, th: f64) -> f64 {
        match self {
            Transform::Identity => 1.0,
            Transform::Log { .. } => th.exp(),
            Transform::NegLog { .. } => -th.exp(),
            Transform::Logistic { lo, hi } => {
                let s = 1.0 / (1.0 + (-th).exp());
                (hi - lo) * s * (1.0 - s)
            }
        }
    }
}

/// Where a fitted parameter lives in the [`ParamMap`].
#[derive(Debug, Clone, PartialEq)]
enum Target {
    Scalar(String),
    Row { param: String, row: usize, col: usize },
}

/// One adjustable parameter.
#[derive(Debug, Clone)]
pub(crate) struct Slot {
    pub(crate) name: String,
    pub(crate) unit: &'static str,
    target: Target,
    pub(crate) tr: Transform,
    /// valid range (natural units)
    pub(crate) lo: f64,
    pub(crate) hi: f64,
    /// search box in θ
    pub(crate) th_lo: f64,
    pub(crate) th_hi: f64,
}

impl Slot {
    /// Restrict the search to `[blo, bhi]` (natural units) inside the valid range.
    pub(crate) fn set_box(&mut self, blo: f64, bhi: f64) {
        let (a, b) = match self.tr {
            Transform::Log { lo } => ((blo - lo).max(0.0).ln().max(-700.0), (bhi - lo).ln().min(700.0)),
            Transform::NegLog { hi } => ((hi - bhi).max(0.0).ln().max(-700.0), (hi - blo).ln().min(700.0)),
            Transform::Logistic { .. } => (self.tr.to_theta(blo).max(-40.0), self.tr.to_theta(bhi).min(40.0)),
            Transform::Identity => (blo, bhi),
        };
        let (a, b) = (a.min(b), a.max(b));
        self.th_lo = if a.is_nan() { -700.0 } else { a };
        self.th_hi = if b.is_nan() { 700.0 } else { b };
    }
    /// θ of a starting value `x`, moved strictly inside the range and into the box.
    pub(crate) fn theta_start(&self, x: f64) -> f64 {
        let inside = if x <= self.lo {
            self.lo + 1e-6 * (1.0 + self.lo.abs())
        } else if x >= self.hi {
            self.hi - 1e-6 * (1.0 + self.hi.abs())
        } else {
            x
        };
        self.tr.to_theta(inside).clamp(self.th_lo, self.th_hi)
    }
    pub(crate) fn get(&self, map: &ParamMap) -> Option<f64> {
        match &self.target {
            Target::Scalar(k) => match map.get(k) {
                Some(ParamValue::Num(x)) => Some(*x),
                _ => None,
            },
            Target::Row { param, row, col } => match map.get(param) {
                Some(ParamValue::List(rows)) => match rows.get(*row) {
                    Some(ParamValue::List(c)) => match c.get(*col) {
                        Some(ParamValue::Num(x)) => Some(*x),
                        _ => None,
                    },
                    _ => None,
                },
                _ => None,
            },
        }
    }
    pub(crate) fn set(&self, map: &mut ParamMap, x: f64) {
        match &self.target {
            Target::Scalar(k) => {
                map.insert(k.clone(), ParamValue::Num(x));
            }
            Target::Row { param, row, col } => {
                if let Some(ParamValue::List(rows)) = map.get_mut(param) {
                    if let Some(ParamValue::List(c)) = rows.get_mut(*row) {
                        c[*col] = ParamValue::Num(x);
                    }
                }
            }
        }
    }
}

/// The real-valued, adjustable parameters of model `mi` given the complete
/// starting map `map` (scalars by name, rows as `NAME[i].COLUMN`), with
/// their default-held flag (a value on a closed bound).
pub(crate) fn candidate_slots(mi: &'static friction_models::ModelInfo, map: &ParamMap) -> Vec<(Slot, bool)> {
    let mut out = vec![];
    let mk = |name: String, unit, target, range: friction_models::Range| Slot {
        name,
        unit,
        target,
        tr: Transform::for_range(range.lo, range.hi),
        lo: range.lo,
        hi: range.hi,
        th_lo: f64::NEG_INFINITY,
        th_hi: f64::INFINITY,
    };
    for spec in mi.params {
        match spec.kind {
            ParamKind::Real { range, .. } | ParamKind::OptionalReal { range } => {
                if matches!(spec.kind, ParamKind::OptionalReal { .. }) && !map.contains_key(spec.name) {
                    continue;
                }
                let s = mk(spec.name.to_string(), spec.unit, Target::Scalar(spec.name.to_string()), range);
                let at_bound = s.get(map).is_some_and(|x| {
                    (range.lo_closed && x == range.lo) || (range.hi_closed && x == range.hi)
                });
                out.push((s, at_bound));
            }
            ParamKind::Rows { columns, range } => {
                if let Some(ParamValue::List(rows)) = map.get(spec.name) {
                    for i in 0..rows.len() {
                        for (j, c) in columns.iter().enumerate() {
                            let name = format!("{}[{i}].{c}", spec.name);
                            let unit: &'static str = spec.unit.split(", ").nth(j).unwrap_or(spec.unit);
                            let s = mk(
                                name,
                                unit,
                                Target::Row { param: spec.name.to_string(), row: i, col: j },
                                range,
                            );
                            // GMS fractions must sum to 1: never free
                            out.push((s, *c == "alpha"));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Options of [`fit`].
#[derive(Debug, Clone)]
pub struct FitOptions {
    /// Model id.
    pub model: String,
    /// Starting values and held values (anything not given: the data-informed
    /// guess of [`initial_guess`] if [`FitOptions::guess`], else the model default).
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
    /// Fill parameters not in `init` from [`initial_guess`]. Default true.
    pub guess: bool,
    /// Levenberg-Marquardt options; its `fd_step` and `fd_scale` are set by
    /// [`fit`] (see [`FitOptions::fd_step`]).
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

/// What [`fit`] reports while it works.
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

/// The result of [`fit`].
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
    /// see [`MIN_SINGULAR_VALUE`]).
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

    /// Plot data against fit into a PNG: the force against time (top) and
    /// against displacement, or against velocity for models without memory
    /// (bottom); a validation split is marked.
    pub fn plot(&self, path: &Path) -> Result<(), AnalysisError> {
        crate::fitplot::plot(self, path)
    }
}

fn percentile(mut v: Vec<f64>, q: f64) -> f64 {
    v.retain(|x| x.is_finite());
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let k = ((v.len() - 1) as f64 * q).round() as usize;
    v[k.min(v.len() - 1)]
}

/// A data-informed starting point for model `id`: every entry it can
/// estimate from the force levels and the motion.
///
/// - sliding samples: the force along the motion and, when a pre-sliding
///   stiffness is seen, more than three pre-sliding lengths `fs/k` from the
///   last reversal;
/// - `fc`, `kv`/`sigma2`: intercept and slope of `|F|` against `|v|` on the
///   fastest 30 % of the sliding samples (the slope only for memoryless
///   models, whose data are a static curve);
/// - `fs`: the 98th percentile of `|F|` (for `iwan4`/`iwan5`: the macro-slip force);
/// - `vs` (memoryless models only): the slowest sliding speed at which
///   `|F| - kv |v|` has fallen below `fc + (fs - fc)/e`;
/// - `sigma0`, `kt`, `k` (`bouc_wen`, with `beta = gamma` from the sliding
///   force), element stiffnesses: the pre-sliding slope `dF/dx` from the
///   start of the record (relaxed) up to a third of the peak force;
/// - `elements` of `maxwell_slip`: `n` elements of equal stiffness with slip
///   displacements spread geometrically over the pre-sliding range; of
///   `gms`: equal fractions `1/n` and stiffnesses in the ratio `1 : 2 : ... : n`
///   (elements that start alike would stay alike).
///
/// ```
/// use friction_analysis::data::Series;
/// // a Coulomb level of 2 N plus 0.5 N s/m, sampled at speeds 0.1..1 m/s
/// let v: Vec<f64> = (0..40).map(|i| 0.1 + i as f64 * 0.025).collect();
/// let f: Vec<f64> = v.iter().map(|v| 2.0 + 0.5 * v).collect();
/// let t: Vec<f64> = (0..40).map(|i| i as f64).collect();
/// let s = Series::new("demo", t, None, Some(v), Some(f), None).unwrap();
/// let g = friction_analysis::fit::initial_guess("coulomb_viscous", &s, 3);
/// let friction_models::ParamValue::Num(fc) = g["fc"] else { panic!() };
/// assert!((fc - 2.0).abs() < 1e-9);
/// ```
pub fn initial_guess(id: &str, s: &Series, elements: usize) -> ParamMap {
    let mut g = ParamMap::new();
    let (Some(f), Some(v), Some(x)) = (&s.f, s.velocity(), s.displacement()) else { return g };
    let f: Vec<f64> = match &s.n {
        Some(n) => f.iter().zip(n).map(|(f, n)| if *n > 0.0 { f / n } else { 0.0 }).collect(),
        None => f.clone(),
    };
    let fmax = percentile(f.iter().map(|f| f.abs()).collect(), 0.98);
    if fmax.is_nan() || fmax <= 0.0 {
        return g;
    }
    // pre-sliding slope from the relaxed start
    let (x0, f0) = (x[0], f[0]);
    let mut sxx = 0.0;
    let mut sxy = 0.0;
    for i in 1..x.len() {
        if (f[i] - f0).abs() > fmax / 3.0 {
            if sxx == 0.0 {
                let dx = x[i] - x0;
                sxx = dx * dx;
                sxy = dx * (f[i] - f0);
            }
            break;
        }
        let dx = x[i] - x0;
        sxx += dx * dx;
        sxy += dx * (f[i] - f0);
    }
    let k0 = if sxx > 0.0 && sxy > 0.0 { sxy / sxx } else { f64::NAN };
    // sliding samples: force along the motion, and (when a pre-sliding
    // stiffness is seen) more than three pre-sliding lengths from the last reversal
    // memoryless models are fitted to static curves, where the speed
    // dependence can be read off; for dynamic records only the force levels
    // and the stiffness are guessed (the viscous slope and Stribeck velocity
    // keep their defaults)
    let static_curve = info(id).is_some_and(|m| matches!(m.family, Family::StaticMap | Family::SetValued));
    let d0 = if k0.is_finite() && !static_curve { 3.0 * fmax / k0 } else { 0.0 };
    let mut x_rev = x[0];
    let mut sliding = vec![false; x.len()];
    for i in 0..x.len() {
        if i > 0 && v[i] * v[i - 1] < 0.0 {
            x_rev = x[i - 1];
        }
        sliding[i] = v[i] != 0.0 && f[i] * v[i] > 0.0 && (x[i] - x_rev).abs() > d0;
    }
    let sl: Vec<(f64, f64)> =
        (0..x.len()).filter(|&i| sliding[i]).map(|i| (v[i].abs(), f[i].abs())).collect();
    // Coulomb level and viscous slope: regression of |F| on |v| over the fastest 30 % of the sliding samples
    let vcut = percentile(sl.iter().map(|p| p.0).collect(), 0.7);
    let pts: Vec<(f64, f64)> = sl.iter().copied().filter(|p| p.0 >= vcut).collect();
    let (mut fc, mut kv) = (percentile(f.iter().map(|f| f.abs()).collect(), 0.5), 0.0);
    if pts.len() >= 3 {
        let n = pts.len() as f64;
        let (sx, sy) = (pts.iter().map(|p| p.0).sum::<f64>(), pts.iter().map(|p| p.1).sum::<f64>());
        let sxx: f64 = pts.iter().map(|p| p.0 * p.0).sum();
        let sxy: f64 = pts.iter().map(|p| p.0 * p.1).sum();
        let det = n * sxx - sx * sx;
        let vmax = pts.iter().map(|p| p.0).fold(0.0, f64::max);
        let vmin = pts.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
        // a slope only when the speeds differ by 20 % or more
        if static_curve && det > 1e-12 * n * sxx && vmax > 1.2 * vmin {
            kv = ((n * sxy - sx * sy) / det).max(0.0);
            if kv * vmax > 0.5 * fmax {
                kv = 0.0;
            }
        }
        fc = (sy - kv * sx) / n;
        if fc.is_nan() || fc <= 0.0 {
            fc = sy / n;
            kv = 0.0;
        }
    }
    let fs = fmax.max(fc);
    // vs: the slowest sliding speed at which |F| - kv|v| has fallen below fc + (fs - fc)/e
    let level = fc + (fs - fc) / std::f64::consts::E;
    let mut sl: Vec<(f64, f64)> = sl.iter().map(|p| (p.0, p.1 - kv * p.0)).collect();
    sl.sort_by(|a, b| a.0.total_cmp(&b.0));
    let vmin = sl.first().map_or(1e-3, |p| p.0);
    let vmax = sl.last().map_or(1.0, |p| p.0);
    let vs = sl.iter().find(|p| p.1 < level).map_or(vmin, |p| p.0).clamp(1e-3 * vmax, vmax);
    let vs = if static_curve { vs } else { f64::NAN };
    let xamp = percentile(x.iter().map(|x| (x - x0).abs()).collect(), 1.0);
    let num = |x: f64| ParamValue::Num(x);
    let fs_key = matches!(id, "iwan4" | "iwan5");
    let spec_names: BTreeSet<&str> =
        info(id).map(|m| m.params.iter().map(|p| p.name).collect()).unwrap_or_default();
    let put = |g: &mut ParamMap, k: &str, x: f64| {
        if spec_names.contains(k) && x.is_finite() && x > 0.0 {
            g.insert(k.to_string(), num(x));
        }
    };
    match id {
        "bouc_wen" => {
            if k0.is_finite() {
                put(&mut g, "k", k0);
                put(&mut g, "a", 1.0);
                put(&mut g, "beta", 0.5 * k0 / fmax);
                put(&mut g, "gamma", 0.5 * k0 / fmax);
                put(&mut g, "n", 1.0);
            }
        }
        "maxwell_slip" | "gms" => {
            let k = if k0.is_finite() { k0 } else { 2.0 * fmax / xamp.max(1e-300) };
            let n = elements.max(1);
            let d0 = fmax / k; // displacement at which a single spring would reach fmax
            let mut rows = vec![];
            for i in 0..n {
                // slip displacements from d0/4 to 2 d0, geometric
                let r = if n > 1 { i as f64 / (n - 1) as f64 } else { 0.5 };
                let d = 0.25 * d0 * 8f64.powf(r);
                let ki = k / n as f64;
                rows.push((ki, ki * d));
            }
            let fsum: f64 = rows.iter().map(|r| r.1).sum();
            let val = |a: f64, b: f64| ParamValue::List(vec![num(a), num(b)]);
            let list = if id == "gms" {
                // equal fractions; stiffnesses 1 : 2 : ... : n so that the elements differ
                let w = |i: usize| 2.0 * (i + 1) as f64 / (n * (n + 1)) as f64;
                (0..n).map(|i| val(k * w(i), 1.0 / n as f64)).collect()
            } else {
                rows.iter().map(|r| val(r.0, r.1 * fmax / fsum)).collect()
            };
            g.insert("elements".into(), ParamValue::List(list));
            put(&mut g, "fc", fc);
            put(&mut g, "fs", fs);
            put(&mut g, "vs", vs);
            put(&mut g, "sigma2", kv);
        }
        _ => {
            put(&mut g, "fc", if id == "dahl" { fmax } else { fc });
            put(&mut g, "fs", fs);
            if fs_key {
                put(&mut g, "fs", fmax);
            }
            put(&mut g, "vs", vs);
            put(&mut g, "kv", kv);
            put(&mut g, "sigma2", kv);
            put(&mut g, "sigma0", k0);
            put(&mut g, "kt", k0);
        }
    }
    g
}

/// Fit the parameters of a model to a data series; see the module docs.
///
/// ```
/// use friction_analysis::{data::Series, fit::{fit, FitOptions}};
/// // exact Coulomb-viscous data F = 1.5 sign(v) + 0.3 v, plus a small deterministic ripple
/// let t: Vec<f64> = (0..50).map(|i| i as f64 * 0.1).collect();
/// let v: Vec<f64> = t.iter().map(|t| (1.3 * t).sin()).collect();
/// let f: Vec<f64> = v.iter().enumerate()
///     .map(|(i, v)| 1.5 * v.signum() + 0.3 * v + 0.01 * (i as f64 * 2.1).sin()).collect();
/// let s = Series::new("demo", t, None, Some(v), Some(f), None).unwrap();
/// let opts = FitOptions {
///     model: "coulomb_tanh".into(),
///     init: friction_analysis::fit::parse_params("coulomb_tanh", "kv=0.1").unwrap(), // kv = 0 would be held
///     fix: vec!["ktanh".into()],
///     ..Default::default()
/// };
/// let r = fit(&s, &opts, None).unwrap();
/// let fc = r.param("fc").unwrap();
/// assert!((fc.value - 1.5).abs() < 0.02 && fc.ci95[0] < fc.value && fc.value < fc.ci95[1]);
/// ```
pub fn fit(
    series: &Series,
    opts: &FitOptions,
    progress: Option<&(dyn Fn(&FitProgress) + Sync)>,
) -> Result<FitResult, AnalysisError> {
    let mi = model_info(&opts.model)?;
    let id = mi.id;
    if mi.family == Family::Wrapper && (opts.init.keys().any(|k| k.starts_with("inner."))) {
        return Err(AnalysisError::Model(format!(
            "{id}: fitting the inner model's parameters is not supported"
        )));
    }
    let Some(f_all) = series.f.clone() else {
        return Err(AnalysisError::Data {
            file: series.source.clone(),
            line: Some(1),
            message: "no force column `F`: there is nothing to fit".into(),
        });
    };
    let motion_all = Motion::from_series(series)?;
    // the fitted part
    let n_fit = match opts.validate_from {
        Some(tv) => {
            let k = series.t.iter().take_while(|t| **t < tv).count();
            if series.len() - k < 2 {
                return Err(AnalysisError::Data {
                    file: series.source.clone(),
                    line: None,
                    message: format!(
                        "--validate-from {tv}: {} samples at t >= {tv}; at least 2 are needed (data end at t = {})",
                        series.len() - k,
                        series.t[series.len() - 1]
                    ),
                });
            }
            k
        }
        None => series.len(),
    };
    if n_fit < MIN_SAMPLES {
        return Err(AnalysisError::Data {
            file: series.source.clone(),
            line: None,
            message: format!("{n_fit} samples to fit; at least {MIN_SAMPLES} are needed"),
        });
    }
    let motion = motion_all.head(n_fit);
    let f_data = f_all[..n_fit].to_vec();

    // starting map: user values, then guesses, then defaults
    let mut start = ParamMap::new();
    if opts.guess {
        // guesses only for parameters that will be fitted
        start = initial_guess(id, series, opts.elements);
        start.retain(|k, _| {
            let named = |list: &[String]| list.iter().any(|f| f == k || f.starts_with(&format!("{k}[")));
            !named(&opts.fix) && opts.free.as_ref().is_none_or(|free| named(free) || k == "elements")
        });
    }
    if opts.init.contains_key("elements") {
        start.remove("elements");
    }
    for (k, v) in &opts.init {
        start.insert(k.clone(), v.clone());
    }
    // a guess may violate a cross-parameter constraint (e.g. fs >= fc): fall back per key
    if build(id, &start).is_err() {
        let mut repaired = opts.init.clone();
        for (k, v) in &start {
            if repaired.contains_key(k) {
                continue;
            }
            let mut trial = repaired.clone();
            trial.insert(k.clone(), v.clone());
            if build(id, &trial).is_ok() {
                repaired = trial;
            }
        }
        start = repaired;
    }
    // fill defaults of every real parameter so that slots can read them
    for spec in mi.params {
        if let ParamKind::Real { default: Some(d), .. } = spec.kind {
            start.entry(spec.name.to_string()).or_insert(ParamValue::Num(d));
        }
    }
    let model0 = build(id, &start)?;
    let evaluator = Evaluator::for_model(&model0);
    let mut lm_opts = opts.lm.clone();
    lm_opts.fd_step = opts.fd_step.unwrap_or(if evaluator == Evaluator::Engine { 1e-3 } else { 1e-6 });
    let mut drive_settings = opts.drive.clone();
    if evaluator == Evaluator::Engine && opts.auto_tolerance {
        drive_settings.rtol = 1e-8;
        drive_settings.atol_state = state_tolerance(&model0, &motion, &opts.drive, 1e-10);
    }
    let drive_settings = &drive_settings;

    // choose the free parameters
    let cands = candidate_slots(mi, &start);
    let all_names: Vec<String> = cands.iter().map(|c| c.0.name.clone()).collect();
    let matches = |pattern: &str, name: &str| {
        name == pattern || name.strip_prefix(pattern).is_some_and(|rest| rest.starts_with('['))
    };
    let check_names = |list: &[String], what: &str| -> Result<(), AnalysisError> {
        for k in list {
            if !all_names.iter().any(|n| matches(k, n)) {
                return Err(AnalysisError::Model(format!(
                    "{id}: {what} `{k}` is not an adjustable parameter; adjustable: {}",
                    all_names.join(", ")
                )));
            }
        }
        Ok(())
    };
    check_names(&opts.fix, "--fix")?;
    let explicit = opts.free.is_some();
    if let Some(free) = &opts.free {
        check_names(free, "--free")?;
        for k in free {
            if k.ends_with(".alpha") {
                return Err(AnalysisError::Model(format!(
                    "gms: `{k}`: the element fractions alpha must sum to 1 and cannot be fitted; free the stiffnesses elements[i].k"
                )));
            }
        }
    }
    let mut slots = vec![];
    let mut held = vec![];
    for (s, at_bound) in cands {
        let fixed = opts.fix.iter().any(|k| matches(k, &s.name));
        let free = match &opts.free {
            Some(list) => list.iter().any(|k| matches(k, &s.name)) && !fixed,
            None => !fixed && !at_bound,
        };
        if free && !s.name.ends_with(".alpha") {
            slots.push(s);
        } else if let Some(x) = s.get(&start) {
            held.push((s.name.clone(), x));
        }
    }
    if slots.is_empty() {
        return Err(AnalysisError::Model(format!("{id}: no parameter left to fit")));
    }

    // data box for force parameters, θ box
    let fscale = percentile(
        f_data
            .iter()
            .enumerate()
            .map(|(i, f)| (f / motion.n.as_ref().map_or(1.0, |n| n[i].max(1e-300))).abs())
            .collect(),
        1.0,
    );
    for s in &mut slots {
        let (mut blo, mut bhi) = (s.lo, s.hi);
        if s.unit == "N" && fscale > 0.0 {
            blo = blo.max(1e-6 * fscale);
            bhi = bhi.min(100.0 * fscale);
        }
        s.set_box(blo, bhi);
    }
    let mut theta0: Vec<f64> = slots.iter().map(|s| s.theta_start(s.get(&start).unwrap_or(1.0))).collect();

    let map_of = |th: &[f64]| -> ParamMap {
        let mut m = start.clone();
        for (s, t) in slots.iter().zip(th) {
            s.set(&mut m, s.tr.to_param(*t));
        }
        m
    };
    let residuals = |th: &[f64]| -> Option<Vec<f64>> {
        let model = build(id, &map_of(th)).ok()?;
        let fm = model_force(&model, &motion, drive_settings).ok()?;
        Some(fm.iter().zip(&f_data).map(|(a, b)| a - b).collect())
    };
    let r0 = match residuals(&theta0) {
        Some(r) => r,
        None => {
            // report why
            let model = build(id, &map_of(&theta0))?;
            model_force(&model, &motion, drive_settings)?;
            return Err(AnalysisError::Model(format!("{id}: the model cannot be evaluated at the start")));
        }
    };
    // parameters without any effect at the start
    let hi: Vec<f64> = slots.iter().map(|s| s.th_hi).collect();
    lm_opts.fd_scale = Some(
        slots
            .iter()
            .zip(&theta0)
            .map(|(s, t)| if s.tr == Transform::Identity && *t != 0.0 { t.abs() } else { 1.0 })
            .collect(),
    );
    let mut j0 =
        lm::jacobian(&residuals, &theta0, &r0, &hi, &lm_opts).map_err(|e| lm_error(id, &slots, e))?;
    let fnorm = f_data.iter().map(|f| f * f).sum::<f64>().sqrt().max(1e-300);
    let mut notes = vec![];
    let mut keep = vec![];
    for (j, s) in slots.iter().enumerate() {
        let effect = j0.column(j).norm() * lm_opts.fd_step;
        if effect <= 1e-13 * fnorm {
            if explicit {
                return Err(AnalysisError::Model(format!(
                    "{id}: parameter `{}` does not affect the force with these data ({}); it cannot be identified: fix it (--fix {})",
                    s.name,
                    why_no_effect(mi.family, series),
                    s.name
                )));
            }
            notes.push(format!("`{}` held: it does not affect the force with these data", s.name));
        } else {
            keep.push(j);
        }
    }
    if keep.len() < slots.len() {
        for (j, s) in slots.iter().enumerate() {
            if !keep.contains(&j) {
                held.push((s.name.clone(), s.get(&start).unwrap_or(f64::NAN)));
            }
        }
        slots = keep.iter().map(|&j| slots[j].clone()).collect();
        theta0 = keep.iter().map(|&j| theta0[j]).collect();
        j0 = j0.select_columns(&keep);
        let scale = lm_opts.fd_scale.take().unwrap_or_default();
        lm_opts.fd_scale = Some(keep.iter().map(|&j| scale[j]).collect());
        if slots.is_empty() {
            return Err(AnalysisError::Model(format!(
                "{id}: no parameter affects the force with these data ({})",
                why_no_effect(mi.family, series)
            )));
        }
    }
    let m = slots.len();
    if n_fit <= m {
        return Err(AnalysisError::Data {
            file: series.source.clone(),
            line: None,
            message: format!(
                "{n_fit} samples for {m} free parameters; more samples than parameters are needed"
            ),
        });
    }
    let lo: Vec<f64> = slots.iter().map(|s| s.th_lo).collect();
    let hi: Vec<f64> = slots.iter().map(|s| s.th_hi).collect();
    let map_of = |th: &[f64]| -> ParamMap {
        let mut m = start.clone();
        for (s, t) in slots.iter().zip(th) {
            s.set(&mut m, s.tr.to_param(*t));
        }
        m
    };
    let residuals = |th: &[f64]| -> Option<Vec<f64>> {
        let model = build(id, &map_of(th)).ok()?;
        let fm = model_force(&model, &motion, drive_settings).ok()?;
        Some(fm.iter().zip(&f_data).map(|(a, b)| a - b).collect())
    };

    // starts
    let starts = opts.starts.max(1);
    let mut thetas = vec![theta0.clone()];
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    for _ in 1..starts {
        let th: Vec<f64> = slots
            .iter()
            .zip(&theta0)
            .map(|(s, t)| {
                let u: f64 = rng.random_range(-1.0..1.0);
                let d = match s.tr {
                    Transform::Log { .. } | Transform::NegLog { .. } => u * 3f64.ln(),
                    Transform::Logistic { .. } => u,
                    Transform::Identity => 0.5 * u * t.abs().max(1e-12),
                };
                (t + d).clamp(s.th_lo, s.th_hi)
            })
            .collect();
        thetas.push(th);
    }
    let results: Vec<Result<lm::LmResult, lm::LmError>> = thetas
        .par_iter()
        .enumerate()
        .map(|(k, th)| {
            let cb = |p: &LmProgress| {
                if let Some(pr) = progress {
                    pr(&FitProgress {
                        start: k,
                        starts,
                        iteration: p.iteration,
                        rms: (p.ssr / n_fit as f64).sqrt(),
                    });
                }
            };
            // the first start begins where the residuals and Jacobian are known
            let known = (k == 0).then(|| (r0.clone(), j0.clone()));
            lm::minimize_from(&residuals, th, known, &lo, &hi, &lm_opts, Some(&cb))
        })
        .collect();
    let evaluations: usize = results.iter().filter_map(|r| r.as_ref().ok()).map(|r| r.evaluations).sum();
    let mut best: Option<(usize, lm::LmResult)> = None;
    let mut first_err = None;
    for (k, r) in results.into_iter().enumerate() {
        match r {
            Ok(r) => {
                if best.as_ref().is_none_or(|b| r.ssr < b.1.ssr) {
                    best = Some((k, r));
                }
            }
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    let Some((best_start, res)) = best else {
        return Err(lm_error(id, &slots, first_err.unwrap_or(lm::LmError::InitialPoint)));
    };

    // statistics in the natural parameters: J_p = J_θ / (dp/dθ)
    let dpdth: Vec<f64> = slots.iter().zip(&res.theta).map(|(s, t)| s.tr.dp_dtheta(*t)).collect();
    let mut jp = res.jacobian.clone();
    for j in 0..m {
        let c = jp.column(j) / dpdth[j];
        jp.set_column(j, &c);
    }
    let at = || -> String {
        let at: Vec<String> = slots
            .iter()
            .zip(&res.theta)
            .map(|(s, t)| format!("{}={:.4e}", s.name, s.tr.to_param(*t)))
            .collect();
        format!(
            " (at the end point of the search: {}, rms {:.4e} N; if these values are implausible, \
             give starting values with --params-init or try --starts N)",
            at.join(", "),
            (res.ssr / n_fit as f64).sqrt()
        )
    };
    let (cov, min_sv) = lm::covariance(&jp, res.ssr, MIN_SINGULAR_VALUE).map_err(|(v, _)| {
        AnalysisError::Model(format!("{}{}", not_identifiable(id, &slots, &v, series, mi.family), at()))
    })?;
    let dof = n_fit - m;
    let tq = lm::t_quantile(0.975, dof as f64);
    // a positive scale parameter whose 95 % interval reaches its bound is not determined
    for (j, s) in slots.iter().enumerate() {
        let se = cov[(j, j)].max(0.0).sqrt();
        let p = s.tr.to_param(res.theta[j]);
        if let Transform::Log { lo } = s.tr {
            if tq * se >= p - lo {
                return Err(AnalysisError::Model(format!(
                    "{id}: parameter `{}` is not determined by these data: {} = {p:.4e} ± {se:.3e} {}, its 95 % \
                     interval reaches the bound {lo} ({}); fix it at a known value (--fix {} with --params-init){}",
                    s.name,
                    s.name,
                    s.unit,
                    why_no_effect(mi.family, series),
                    s.name,
                    at()
                )));
            }
        }
    }
    let values: Vec<f64> = slots.iter().zip(&res.theta).map(|(s, t)| s.tr.to_param(*t)).collect();
    let params: Vec<FitParam> = slots
        .iter()
        .enumerate()
        .map(|(j, s)| {
            let se = cov[(j, j)].max(0.0).sqrt();
            let (a, b) = (values[j] - tq * se, values[j] + tq * se);
            FitParam {
                name: s.name.clone(),
                unit: s.unit.to_string(),
                value: values[j],
                stderr: se,
                ci95: [a.max(s.lo), b.min(s.hi)],
            }
        })
        .collect();
    let correlation: Vec<Vec<f64>> =
        (0..m).map(|a| (0..m).map(|b| cov[(a, b)] / (cov[(a, a)] * cov[(b, b)]).sqrt()).collect()).collect();
    let param_map = map_of(&res.theta);
    let model = build(id, &param_map)?;
    let f_fit = if n_fit < series.len() {
        model_force(&model, &motion_all, drive_settings)?
    } else {
        res.residuals.iter().zip(&f_data).map(|(r, f)| r + f).collect()
    };
    let validation = opts.validate_from.map(|from| {
        let nv = series.len() - n_fit;
        let ss: f64 = (n_fit..series.len()).map(|i| (f_fit[i] - f_all[i]).powi(2)).sum();
        Validation { from, n: nv, rms: (ss / nv as f64).sqrt() }
    });
    held.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(FitResult {
        model: id.to_string(),
        params,
        held,
        notes,
        param_map,
        rms: (res.ssr / n_fit as f64).sqrt(),
        n: n_fit,
        dof,
        correlation,
        min_singular_value: min_sv,
        iterations: res.iterations,
        evaluations,
        converged: res.stop.converged(),
        stop: format!("{:?}", res.stop),
        best_start,
        starts,
        validation,
        evaluator,
        t: series.t.clone(),
        x: motion_all.x.clone(),
        v: motion_all.v.clone(),
        f_data: f_all,
        f_fit,
    })
}

/// The absolute tolerance for the states of `model` driven along `motion`:
/// `factor` times the smallest peak magnitude of its continuous states (from
/// a run at `settings`), but not above `settings.atol_state`.
pub fn state_tolerance(model: &AnyModel, motion: &Motion, settings: &DriveSettings, factor: f64) -> f64 {
    let t0 = motion.t[0];
    let t: Vec<f64> = motion.t.iter().map(|t| t - t0).collect();
    let normal = match &motion.n {
        Some(n) => Schedule::Table { t: t.clone(), v: n.clone() },
        None => Schedule::Constant { value: 1.0 },
    };
    let run = drive_outcome(
        model.clone(),
        Schedule::Table { t: t.clone(), v: motion.x.clone() },
        normal,
        &t,
        settings,
    );
    let Ok(out) = run else { return settings.atol_state };
    let mut smallest = f64::INFINITY;
    for k in 0..model.n_states() {
        if let Some(c) = out.col(&format!("z.c.{k}")) {
            let peak = out.rows.iter().map(|r| r[c].abs()).fold(0.0, f64::max);
            if peak > 0.0 && peak.is_finite() {
                smallest = smallest.min(peak);
            }
        }
    }
    if smallest.is_finite() {
        settings.atol_state.min(factor * smallest).max(1e-300)
    } else {
        settings.atol_state
    }
}

fn why_no_effect(family: Family, s: &Series) -> String {
    let motion = if s.x.is_some() { "displacement" } else { "velocity (integrated to a displacement)" };
    match family {
        Family::StaticMap | Family::SetValued => "the speeds in the data do not exercise it".to_string(),
        _ => format!("the {motion} in the data does not exercise it"),
    }
}

fn lm_error(id: &str, slots: &[Slot], e: lm::LmError) -> AnalysisError {
    match e {
        lm::LmError::InitialPoint => {
            AnalysisError::Model(format!("{id}: the model cannot be evaluated at the start"))
        }
        lm::LmError::Jacobian { index } => AnalysisError::Model(format!(
            "{id}: the model cannot be evaluated near `{}`; its sensitivity is undefined there",
            slots[index].name
        )),
    }
}

/// The error for a rank-deficient Jacobian with null direction `v`.
fn not_identifiable(id: &str, slots: &[Slot], v: &[f64], s: &Series, family: Family) -> AnalysisError {
    let big: Vec<usize> = (0..v.len()).filter(|&j| v[j].abs() > 0.2).collect();
    if big.len() == 1 {
        let name = &slots[big[0]].name;
        AnalysisError::Model(format!(
            "{id}: parameter `{name}` cannot be identified: it has (almost) no effect on the force with these data ({}); fix it (--fix {name})",
            why_no_effect(family, s)
        ))
    } else {
        let names: Vec<String> = big.iter().map(|&j| format!("`{}`", slots[j].name)).collect();
        AnalysisError::Model(format!(
            "{id}: parameters {} cannot be identified separately: only a combination of them affects the force with these data; fix all but one of them (--fix)",
            names.join(", ")
        ))
    }
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

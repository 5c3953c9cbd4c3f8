//! The model force along measured data: the evaluators (static map,
//! hysteresis operator stepped sample by sample, or the engine driving the
//! contact), the motion between samples, and parameter text and maps.

use friction_models::{info, AnyModel, FrictionModel, Input, ParamKind, ParamMap, ParamValue};
use friction_sim::drive::{drive, drive_outcome, DriveSettings};
use friction_sim::schedule::Schedule;

use crate::data::Series;
use crate::error::AnalysisError;

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

//! Tuning: choose some parameters of a model so that its energy dissipated
//! per cycle under a harmonic displacement `x = u0 sin(2π f t)` (or its
//! whole hysteresis loop) matches a target, at one or several amplitudes.
//!
//! This is the calibration step of the Sandia friction-model study (section 3.1):
//! every model was tuned so that under `u0 sin(ω t)` with `u0 = 1e-7 m` at
//! the joint's frequency 331 Hz it dissipates as much per cycle as the
//! reference, Coulomb friction with `μc = 1` (its meta-Coulomb factor
//! `μm N` scales every model alike and drops out). Coulomb dissipates
//! `D = 4 μc u0 = 4e-7 J` per unit `μm N` per cycle.
//!
//! # Method
//! ```text
//! x(t) = u0 sin(2π f t),  t in [0, cycles / f],   samples_per_cycle samples per period
//! D(u0) = ∮ F dx = ∫ F v dt over the last period (trapezoid on the samples;
//!         relative error about (2π/samples)²/12, 8e-7 with the default 2000)
//! energy objective: r_k = (D_model(u0_k) - D_target(u0_k)) / D_target(u0_k)
//! loop objective:   r_k,i = (F_model(t_i) - F_target(t_i)) / max|F_target|  over the last period
//! solved by the bounded Levenberg-Marquardt of crate::lm, in the transformed
//! coordinates of crate::fit (log scale for positive parameters)
//! ```
//! The earlier periods let a model settle on its steady loop from the relaxed
//! start (3 periods by default). The energy objective needs at least as many
//! amplitudes as tuned parameters. The force is computed as in
//! [`crate::fit::model_force`] (directly, stepped, or by the engine along the
//! exact sine).

use friction_models::{build, AnyModel, ParamKind, ParamMap, ParamValue};
use friction_sim::drive::{drive_outcome, DriveSettings};
use friction_sim::schedule::Schedule;
use serde_json::{json, Value};

use crate::error::AnalysisError;
use crate::fit::{candidate_slots, model_force, model_info, Evaluator, Motion, Slot};
use crate::lm::{self, LmOptions};

/// One steady cycle of a model under `x = u0 sin(2π f t)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Cycle {
    /// Amplitude u0 \[m\].
    pub amplitude: f64,
    /// Times of the last period \[s\].
    pub t: Vec<f64>,
    /// Displacement \[m\].
    pub x: Vec<f64>,
    /// Velocity [m/s].
    pub v: Vec<f64>,
    /// Model-convention force \[N\].
    pub f: Vec<f64>,
    /// Energy dissipated in the period, `∫ F v dt` \[J\].
    pub dissipation: f64,
}

/// How a harmonic cycle is sampled.
#[derive(Debug, Clone)]
pub struct CycleSettings {
    /// Frequency f \[Hz\].
    pub frequency: f64,
    /// Periods simulated; the last one is measured. Default 3.
    pub cycles: usize,
    /// Samples per period (a multiple of 4 puts samples on the turning
    /// points, where Coulomb-like forces jump). Default 2000.
    pub samples_per_cycle: usize,
    /// Engine settings for models integrated by the engine.
    pub drive: DriveSettings,
    /// For the engine: lower the absolute tolerance of the states to 1e-9
    /// times their smallest peak over a coarse first period (see
    /// [`crate::fit::state_tolerance`]), so that bristle deflections of
    /// 1e-8 m are resolved. Default true.
    pub auto_tolerance: bool,
}

impl Default for CycleSettings {
    fn default() -> Self {
        CycleSettings {
            frequency: 331.0,
            cycles: 3,
            samples_per_cycle: 2000,
            auto_tolerance: true,
            drive: DriveSettings::default(),
        }
    }
}

/// The last of `settings.cycles` periods of `model` driven by
/// `x = amplitude sin(2π f t)`, with its dissipation.
///
/// ```
/// use friction_analysis::tune::{cycle, CycleSettings};
/// let coulomb = friction_models::build("coulomb", &Default::default()).unwrap(); // Fc = 1 N
/// let c = cycle(&coulomb, 1e-7, &CycleSettings::default()).unwrap();
/// assert!((c.dissipation / 4e-7 - 1.0).abs() < 2e-6); // D = 4 Fc u0
/// ```
pub fn cycle(model: &AnyModel, amplitude: f64, settings: &CycleSettings) -> Result<Cycle, AnalysisError> {
    if !(amplitude > 0.0 && amplitude.is_finite()) {
        return Err(AnalysisError::Model(format!("amplitude {amplitude} must be > 0")));
    }
    let f = settings.frequency;
    if !(f > 0.0 && f.is_finite()) {
        return Err(AnalysisError::Model(format!("frequency {f} must be > 0")));
    }
    let m = settings.samples_per_cycle.max(8);
    let cycles = settings.cycles.max(1);
    let n = cycles * m + 1;
    let w = 2.0 * std::f64::consts::PI * f;
    let t: Vec<f64> = (0..n).map(|k| k as f64 / (m as f64 * f)).collect();
    let x: Vec<f64> = t.iter().map(|t| amplitude * (w * t).sin()).collect();
    let v: Vec<f64> = t.iter().map(|t| amplitude * w * (w * t).cos()).collect();
    let force = match Evaluator::for_model(model) {
        Evaluator::Direct | Evaluator::Sequential => model_force(
            model,
            &Motion { t: t.clone(), x: x.clone(), v: v.clone(), n: None },
            &settings.drive,
        )?,
        Evaluator::Engine => {
            let mut ds = settings.drive.clone();
            if settings.auto_tolerance {
                ds.atol_state = tolerance(model, amplitude, settings);
            }
            let motion = Schedule::Sine { amplitude, frequency: f, phase: 0.0, offset: 0.0 };
            let out = drive_outcome(model.clone(), motion, Schedule::Constant { value: 1.0 }, &t, &ds)?;
            let i = out.col("F.c").unwrap_or(3);
            out.rows.iter().map(|r| -r[i]).collect()
        }
    };
    let s = (cycles - 1) * m;
    let (t, x, v, fv) = (t[s..].to_vec(), x[s..].to_vec(), v[s..].to_vec(), force[s..].to_vec());
    let mut d = 0.0;
    for k in 0..m {
        d += 0.5 * (fv[k] * v[k] + fv[k + 1] * v[k + 1]) * (t[k + 1] - t[k]);
    }
    Ok(Cycle { amplitude, t, x, v, f: fv, dissipation: d })
}

/// The calibrated absolute state tolerance of `model` under `amplitude`
/// (1e-9 times the smallest state peak over one coarsely sampled period).
fn tolerance(model: &AnyModel, amplitude: f64, settings: &CycleSettings) -> f64 {
    let f = settings.frequency;
    let w = 2.0 * std::f64::consts::PI * f;
    let t: Vec<f64> = (0..=64).map(|k| k as f64 / (64.0 * f)).collect();
    let x = t.iter().map(|t| amplitude * (w * t).sin()).collect();
    let v = t.iter().map(|t| amplitude * w * (w * t).cos()).collect();
    crate::fit::state_tolerance(model, &Motion { t: t.clone(), x, v, n: None }, &settings.drive, 1e-9)
}

/// The settings of `settings` with the tolerance of `model` calibrated
/// once at the smallest amplitude (and automatic calibration off).
fn calibrated(model: &AnyModel, amplitudes: &[f64], settings: &CycleSettings) -> CycleSettings {
    let mut s = settings.clone();
    if settings.auto_tolerance && Evaluator::for_model(model) == Evaluator::Engine {
        let a = amplitudes.iter().copied().fold(f64::INFINITY, f64::min);
        s.drive.atol_state = tolerance(model, a, settings);
        s.auto_tolerance = false;
    }
    s
}

/// What a model is tuned to.
#[derive(Debug, Clone)]
pub enum TuneTarget {
    /// The cycles of a reference model (id and parameters).
    Model {
        /// Reference model id.
        id: String,
        /// Its parameters.
        params: ParamMap,
    },
    /// Given dissipations per cycle \[J\], one per amplitude (or one for all).
    Energy(Vec<f64>),
}

/// What is matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Objective {
    /// The energy dissipated per cycle at every amplitude.
    Energy,
    /// The whole force-displacement loop at every amplitude (needs a target model).
    Loop,
}

/// Options of [`tune`].
#[derive(Debug, Clone)]
pub struct TuneOptions {
    /// Model id.
    pub model: String,
    /// Starting values of the tuned parameters and values of the others.
    pub params: ParamMap,
    /// The parameters to tune (names as in [`crate::fit::FitParam::name`]).
    pub tune: Vec<String>,
    /// The target.
    pub target: TuneTarget,
    /// Amplitudes u0 \[m\].
    pub amplitudes: Vec<f64>,
    /// What is matched.
    pub objective: Objective,
    /// How the cycles are sampled (frequency included).
    pub cycle: CycleSettings,
    /// Levenberg-Marquardt options.
    pub lm: LmOptions,
}

/// One amplitude of a tuning result.
#[derive(Debug, Clone, PartialEq)]
pub struct TunePoint {
    /// Amplitude u0 \[m\].
    pub amplitude: f64,
    /// Target dissipation per cycle \[J\].
    pub target: f64,
    /// The tuned model's dissipation per cycle \[J\].
    pub achieved: f64,
    /// Dissipation of the model with its starting parameters \[J\].
    pub initial: f64,
}

/// The result of [`tune`].
#[derive(Debug, Clone)]
pub struct TuneResult {
    /// Model id.
    pub model: String,
    /// The tuned parameters and their values.
    pub tuned: Vec<(String, f64)>,
    /// The complete parameters of the tuned model.
    pub param_map: ParamMap,
    /// Per amplitude: target and achieved dissipation.
    pub points: Vec<TunePoint>,
    /// Root-mean-square of the objective's relative residuals.
    pub residual: f64,
    /// Whether the solver converged.
    pub converged: bool,
    /// The tuned cycles (for plots).
    pub cycles: Vec<Cycle>,
    /// The target cycles, when the target is a model.
    pub target_cycles: Vec<Cycle>,
}

impl TuneResult {
    /// The JSON report.
    pub fn to_json(&self, opts: &TuneOptions) -> Value {
        let tuned: serde_json::Map<String, Value> =
            self.tuned.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
        let target = match &opts.target {
            TuneTarget::Model { id, params } => {
                json!({"model": id, "params": crate::fit::param_map_json(params)})
            }
            TuneTarget::Energy(e) => json!({"energy": e}),
        };
        json!({
            "model": self.model,
            "tuned": tuned,
            "params": crate::fit::param_map_json(&self.param_map),
            "target": target,
            "objective": match opts.objective { Objective::Energy => "energy", Objective::Loop => "loop" },
            "frequency": opts.cycle.frequency,
            "points": self.points.iter().map(|p| json!({
                "amplitude": p.amplitude,
                "target": p.target,
                "achieved": p.achieved,
                "initial": p.initial,
                "relative_error": p.achieved / p.target - 1.0,
            })).collect::<Vec<_>>(),
            "residual": self.residual,
            "converged": self.converged,
        })
    }
}

/// Tune the chosen parameters of a model to a target dissipation per cycle
/// or loop; see the module docs.
///
/// ```
/// use friction_analysis::tune::{tune, TuneOptions, TuneTarget, Objective, CycleSettings};
/// use friction_analysis::fit::parse_params;
/// // the Sandia friction-model study: a Jenkins element of stiffness 1e8 N/m dissipating as much as Coulomb (μc = 1) at 1e-7 m
/// let opts = TuneOptions {
///     model: "jenkins".into(),
///     params: parse_params("jenkins", "kt=1e8").unwrap(),
///     tune: vec!["fs".into()],
///     target: TuneTarget::Model { id: "coulomb".into(), params: parse_params("coulomb", "fc=1").unwrap() },
///     amplitudes: vec![1e-7],
///     objective: Objective::Energy,
///     cycle: CycleSettings::default(),
///     lm: Default::default(),
/// };
/// let r = tune(&opts).unwrap();
/// // closed form: 4 φ (u0 - φ/kt) = 4 u0  =>  φ = (10 - √60)/2 N (the smaller root)
/// assert!((r.tuned[0].1 - (10.0 - 60f64.sqrt()) / 2.0).abs() < 1e-5);
/// ```
pub fn tune(opts: &TuneOptions) -> Result<TuneResult, AnalysisError> {
    let mi = model_info(&opts.model)?;
    let id = mi.id;
    if opts.amplitudes.is_empty() {
        return Err(AnalysisError::Model("no amplitude given".into()));
    }
    for a in &opts.amplitudes {
        if !(*a > 0.0 && a.is_finite()) {
            return Err(AnalysisError::Model(format!("amplitude {a} must be > 0")));
        }
    }
    if opts.tune.is_empty() {
        return Err(AnalysisError::Model(format!("{id}: no parameter to tune")));
    }
    // complete starting map
    let mut start = opts.params.clone();
    for spec in mi.params {
        if let ParamKind::Real { default: Some(d), .. } = spec.kind {
            start.entry(spec.name.to_string()).or_insert(ParamValue::Num(d));
        }
    }
    let model0 = build(id, &start)?;
    let cands = candidate_slots(mi, &start);
    let mut slots: Vec<Slot> = vec![];
    for k in &opts.tune {
        match cands.iter().find(|c| c.0.name == *k) {
            Some(c) => slots.push(c.0.clone()),
            None => {
                return Err(AnalysisError::Model(format!(
                    "{id}: `{k}` is not a tunable parameter; tunable: {}",
                    cands.iter().map(|c| c.0.name.clone()).collect::<Vec<_>>().join(", ")
                )))
            }
        }
    }
    for s in &mut slots {
        let (lo, hi) = (s.lo, s.hi);
        s.set_box(lo, hi);
    }
    // targets
    let mut target_cycles = vec![];
    let targets: Vec<f64> = match &opts.target {
        TuneTarget::Model { id: tid, params } => {
            let tm = build(tid, params)?;
            let settings = calibrated(&tm, &opts.amplitudes, &opts.cycle);
            for a in &opts.amplitudes {
                target_cycles.push(cycle(&tm, *a, &settings)?);
            }
            target_cycles.iter().map(|c| c.dissipation).collect()
        }
        TuneTarget::Energy(e) => {
            if opts.objective == Objective::Loop {
                return Err(AnalysisError::Model("the loop objective needs a target model".into()));
            }
            match e.len() {
                1 => vec![e[0]; opts.amplitudes.len()],
                n if n == opts.amplitudes.len() => e.clone(),
                n => {
                    return Err(AnalysisError::Model(format!(
                        "{n} target energies for {} amplitudes; give one, or one per amplitude",
                        opts.amplitudes.len()
                    )))
                }
            }
        }
    };
    for (a, d) in opts.amplitudes.iter().zip(&targets) {
        if !(*d > 0.0 && d.is_finite()) {
            return Err(AnalysisError::Model(format!(
                "target dissipation {d} J at amplitude {a} m: it must be > 0 (the target does not dissipate)"
            )));
        }
    }
    if opts.objective == Objective::Energy && slots.len() > opts.amplitudes.len() {
        return Err(AnalysisError::Model(format!(
            "{} parameters cannot be tuned to the dissipation at {} amplitude(s): give at least as many amplitudes as parameters, or use the loop objective",
            slots.len(),
            opts.amplitudes.len()
        )));
    }
    let map_of = |th: &[f64]| -> ParamMap {
        let mut m = start.clone();
        for (s, t) in slots.iter().zip(th) {
            s.set(&mut m, s.tr.to_param(*t));
        }
        m
    };
    let settings = calibrated(&model0, &opts.amplitudes, &opts.cycle);
    let cycles_of = |model: &AnyModel| -> Result<Vec<Cycle>, AnalysisError> {
        opts.amplitudes.iter().map(|a| cycle(model, *a, &settings)).collect()
    };
    let residuals = |th: &[f64]| -> Option<Vec<f64>> {
        let model = build(id, &map_of(th)).ok()?;
        let cs = cycles_of(&model).ok()?;
        Some(match opts.objective {
            Objective::Energy => cs.iter().zip(&targets).map(|(c, d)| c.dissipation / d - 1.0).collect(),
            Objective::Loop => {
                let mut r = vec![];
                for (c, tc) in cs.iter().zip(&target_cycles) {
                    let scale = tc.f.iter().fold(0.0f64, |m, f| m.max(f.abs())).max(1e-300);
                    r.extend(c.f.iter().zip(&tc.f).map(|(a, b)| (a - b) / scale));
                }
                r
            }
        })
    };
    let initial = cycles_of(&model0)?;
    let theta0: Vec<f64> = slots.iter().map(|s| s.theta_start(s.get(&start).unwrap_or(1.0))).collect();
    let lo: Vec<f64> = slots.iter().map(|s| s.th_lo).collect();
    let hi: Vec<f64> = slots.iter().map(|s| s.th_hi).collect();
    let mut lm_opts = opts.lm.clone();
    lm_opts.ftol = lm_opts.ftol.min(1e-12);
    lm_opts.fd_step = if Evaluator::for_model(&model0) == Evaluator::Engine { 1e-4 } else { 1e-6 };
    lm_opts.fd_scale = Some(
        slots
            .iter()
            .zip(&theta0)
            .map(|(s, t)| if s.tr == crate::fit::Transform::Identity && *t != 0.0 { t.abs() } else { 1.0 })
            .collect(),
    );
    let res = lm::minimize(&residuals, &theta0, &lo, &hi, &lm_opts, None).map_err(|e| match e {
        lm::LmError::InitialPoint => {
            AnalysisError::Model(format!("{id}: the model cannot be evaluated at the start"))
        }
        lm::LmError::Jacobian { index } => {
            AnalysisError::Model(format!("{id}: the model cannot be evaluated near `{}`", slots[index].name))
        }
    })?;
    // a tuned parameter that changes nothing
    for (j, s) in slots.iter().enumerate() {
        if res.jacobian.column(j).norm() == 0.0 {
            return Err(AnalysisError::Model(format!(
                "{id}: `{}` does not change the dissipation at these amplitudes; it cannot be tuned",
                s.name
            )));
        }
    }
    let param_map = map_of(&res.theta);
    let model = build(id, &param_map)?;
    let cycles = cycles_of(&model)?;
    let points = opts
        .amplitudes
        .iter()
        .enumerate()
        .map(|(k, a)| TunePoint {
            amplitude: *a,
            target: targets[k],
            achieved: cycles[k].dissipation,
            initial: initial[k].dissipation,
        })
        .collect();
    Ok(TuneResult {
        model: id.to_string(),
        tuned: slots.iter().zip(&res.theta).map(|(s, t)| (s.name.clone(), s.tr.to_param(*t))).collect(),
        param_map,
        points,
        residual: (res.ssr / res.residuals.len() as f64).sqrt(),
        converged: res.stop.converged(),
        cycles,
        target_cycles,
    })
}

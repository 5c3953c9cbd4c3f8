//! Drive one contact along a prescribed (for example measured) motion and
//! return its friction force at given times: the building block of
//! identification and of virtual experiments.

use friction_models::AnyModel;

use crate::engine::{simulate, Outcome};
use crate::error::SimError;
use crate::system::schedule::Schedule;
use crate::system::{Contact, Driver, Member, Method, SolverSettings, System};

/// How to integrate a driven contact.
#[derive(Debug, Clone)]
pub struct DriveSettings {
    /// Integration method.
    pub method: Method,
    /// Relative tolerance.
    pub rtol: f64,
    /// Absolute tolerance of the contact's internal states.
    pub atol_state: f64,
    /// Wall-clock limit of each run \[s\] (the scenario's `[solver] max_wall`);
    /// `None`: no limit.
    pub max_wall: Option<f64>,
}

impl Default for DriveSettings {
    /// BDF, not `auto` (which picks Radau5 for a driven contact): the
    /// identification's finite-difference sensitivities and its checks of
    /// what the data determine were set and tested on BDF. On Radau5 a LuGre
    /// fit to steady sliding drove σ0 to 1.8e11 N/m, where the bristle force
    /// σ0 z is dominated by the integration error of z (about 1e-11 m against
    /// an absolute tolerance of 1e-12), and reported it determined to 5e-6
    /// (the test `bristle_stiffness_is_not_identifiable_from_steady_sliding`
    /// of friction-analysis).
    fn default() -> Self {
        DriveSettings { method: Method::Bdf, rtol: 1e-7, atol_state: 1e-12, max_wall: None }
    }
}

/// Simulate `model` between a driver moving along `motion` and the ground,
/// with normal load `normal`, and return the outcome sampled at `times`
/// (increasing, starting at 0).
pub fn drive_outcome(
    model: AnyModel,
    motion: Schedule,
    normal: Schedule,
    times: &[f64],
    settings: &DriveSettings,
) -> Result<Outcome, SimError> {
    let t_end = *times.last().ok_or_else(|| SimError::Input {
        file: "<drive>".into(),
        line: None,
        message: "no sample times".into(),
    })?;
    if t_end.is_nan() || t_end <= 0.0 {
        return Err(SimError::Input {
            file: "<drive>".into(),
            line: None,
            message: format!("last time {t_end} must be > 0"),
        });
    }
    let sys = System {
        name: "drive".into(),
        bodies: vec![],
        drivers: vec![Driver { name: "u".into(), motion, kind: Default::default() }],
        springs: vec![],
        dampers: vec![],
        forces: vec![],
        contacts: vec![Contact {
            name: "c".into(),
            between: [Member::Driver(0), Member::Ground],
            model,
            normal,
            normal_gap: None,
        }],
        gaps: vec![],
        stops: vec![],
        inclined_springs: vec![],
        planes: vec![],
        thermal: Default::default(),
        structures: vec![],
        solver: SolverSettings {
            method: settings.method,
            linear_algebra: crate::system::LinearAlgebra::Auto,
            t_end,
            output_dt: None,
            output_times: Some(times.to_vec()),
            rtol: settings.rtol,
            atol_position: 1e-12,
            atol_velocity: 1e-12,
            atol_state: settings.atol_state,
            max_step: t_end,
            max_steps: 10_000_000,
            max_wall: settings.max_wall,
            states: crate::system::StateColumns::Auto,
            columns: None,
            max_output_bytes: crate::system::DEFAULT_MAX_OUTPUT_BYTES,
        },
    };
    let out = simulate(&sys)?;
    if let Some(f) = &out.failure {
        return Err(SimError::Solver { t: out.last("t"), cause: f.clone(), state: String::new() });
    }
    Ok(out)
}

/// The friction force `F` (model convention: opposing the motion, positive
/// when sliding forward) of `model` driven along the sampled displacement
/// `x(t)` (linear between samples), at the sample times `t` (t\[0\] = 0).
///
/// ```
/// use friction_models::{build, ParamMap};
/// let model = build("coulomb_tanh", &ParamMap::new()).unwrap();
/// let t: Vec<f64> = (0..=100).map(|i| i as f64 * 0.01).collect();
/// let x: Vec<f64> = t.iter().map(|t| 0.1 * t).collect();
/// let f = friction_sim::drive::drive(model, &t, &x, None, &Default::default()).unwrap();
/// assert!((f[50] - 1.0).abs() < 1e-9); // tanh(1000 * 0.1) = 1
/// assert!((f[100] - 1.0).abs() < 1e-9); // the last sample still moves
/// ```
pub fn drive(
    model: AnyModel,
    t: &[f64],
    x: &[f64],
    normal: Option<&[f64]>,
    settings: &DriveSettings,
) -> Result<Vec<f64>, SimError> {
    let motion = Schedule::Table { t: t.to_vec(), v: x.to_vec() };
    let normal = match normal {
        Some(n) => Schedule::Table { t: t.to_vec(), v: n.to_vec() },
        None => Schedule::Constant { value: 1.0 },
    };
    let out = drive_outcome(model, motion, normal, t, settings)?;
    let i = out.col("F.c").unwrap_or(3);
    Ok(out.rows.iter().map(|r| -r[i]).collect())
}

//! The two rigs every experiment is built on: a contact driven along a
//! prescribed displacement (no body: the force is read off the model), and a
//! body of mass m on the contact pushed by an external force (the engine's
//! true stick/slip applies).

use std::cell::RefCell;

use friction_models::{AnyModel, FrictionModel, Input};
use friction_sim::drive::{drive_outcome, DriveSettings};
use friction_sim::scenario::{Body, Contact, Damper, Force, Member, Method, SolverSettings, System};
use friction_sim::schedule::Schedule;
use friction_sim::{simulate, Outcome, SimError};

use crate::error::AnalysisError;

/// Remarks gathered while an experiment runs (methods that failed before
/// another finished), added to the figure's detail.
#[derive(Debug, Default)]
pub(crate) struct Notes(RefCell<Vec<String>>);

impl Notes {
    pub(crate) fn push(&self, s: String) {
        self.0.borrow_mut().push(s);
    }
    pub(crate) fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.borrow_mut())
    }
}

/// The methods tried in turn: `auto` first; when it fails (the implicit
/// methods' Newton iteration fails at the kinks of several models), the
/// other implicit methods, then the explicit `tsit45`.
pub(crate) const METHODS: [Method; 4] = [Method::Auto, Method::Esdirk34, Method::TrBdf2, Method::Tsit45];

/// The first 200 characters of an error message.
pub(crate) fn short(msg: &str) -> String {
    match msg.char_indices().nth(200) {
        Some((i, _)) => format!("{}...", &msg[..i]),
        None => msg.to_string(),
    }
}

/// Run `f` with each of [`METHODS`] until one succeeds (a run that exhausts
/// its step budget is not retried); failures go to `notes`.
fn with_fallback<T>(
    notes: &Notes,
    mut f: impl FnMut(Method) -> Result<T, AnalysisError>,
) -> Result<T, AnalysisError> {
    let mut errs = vec![];
    for m in METHODS {
        match f(m) {
            Ok(x) => {
                if !errs.is_empty() {
                    notes.push(format!("{} (after {})", m.name(), errs.join("; ")));
                }
                return Ok(x);
            }
            Err(e) => {
                let budget = e.to_string().contains("max_steps");
                errs.push(format!("{} failed: {}", m.name(), short(&e.to_string())));
                // a step budget exhausted is the problem's, not the method's
                if budget {
                    break;
                }
            }
        }
    }
    Err(AnalysisError::Model(errs.join("; ")))
}

/// The friction force (model convention: opposing the motion, positive when
/// sliding forward) of `model` driven along `motion`, at `times` (`times[0] = 0`).
pub(crate) fn driven(
    model: &AnyModel,
    motion: Schedule,
    times: &[f64],
    rtol: f64,
    notes: &Notes,
) -> Result<Vec<f64>, AnalysisError> {
    with_fallback(notes, |method| driven_with(model, motion.clone(), times, rtol, method))
}

fn driven_with(
    model: &AnyModel,
    motion: Schedule,
    times: &[f64],
    rtol: f64,
    method: Method,
) -> Result<Vec<f64>, AnalysisError> {
    let settings = DriveSettings { method, rtol, atol_state: 1e-12, max_wall: None };
    let out = drive_outcome(model.clone(), motion, Schedule::Constant { value: 1.0 }, times, &settings)?;
    let i = out.col("F.c").ok_or_else(|| AnalysisError::Model("no column F.c".into()))?;
    if out.rows.len() != times.len() {
        return Err(AnalysisError::Sim(SimError::Solver {
            t: out.last("t"),
            cause: format!("{} rows for {} output times", out.rows.len(), times.len()),
            state: String::new(),
        }));
    }
    Ok(out.rows.iter().map(|r| -r[i]).collect())
}

/// Step budget of a body experiment: a run that needs more accepted steps
/// fails (and the next method is tried).
pub const BODY_MAX_STEPS: usize = 1_000_000;

/// A body on the contact: mass, initial speed, dashpot to the ground.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rig {
    /// Mass [kg].
    pub mass: f64,
    /// Initial speed [m/s].
    pub v0: f64,
    /// Dashpot to the ground [N s/m] (none if 0).
    pub damper: f64,
}

/// A body `m` (see [`Rig`]) on contact `c` (to the ground), pushed by
/// `forces`, simulated to `t_end` with output every `dt`. With `partial_ok`
/// a run stopped by the step budget returns what it computed (the caller
/// checks that it covers what it needs).
pub(crate) fn body_run(
    model: &AnyModel,
    forces: Vec<Schedule>,
    rig: Rig,
    (t_end, dt, rtol): (f64, f64, f64),
    partial_ok: bool,
    notes: &Notes,
) -> Result<Outcome, AnalysisError> {
    let Rig { mass, v0, damper } = rig;
    let mut sys = System {
        name: "body".into(),
        bodies: vec![Body {
            name: "m".into(),
            mass,
            x0: 0.0,
            v0,
            kind: Default::default(),
            axis: Default::default(),
        }],
        drivers: vec![],
        springs: vec![],
        dampers: if damper > 0.0 {
            vec![Damper { name: "d".into(), between: [Member::Body(0), Member::Ground], coefficient: damper }]
        } else {
            vec![]
        },
        forces: forces
            .into_iter()
            .enumerate()
            .map(|(i, value)| Force { name: format!("P{i}"), on: 0, value })
            .collect(),
        contacts: vec![Contact {
            name: "c".into(),
            between: [Member::Body(0), Member::Ground],
            model: model.clone(),
            normal: Schedule::Constant { value: 1.0 },
            normal_gap: None,
        }],
        gaps: vec![],
        stops: vec![],
        inclined_springs: vec![],
        planes: vec![],
        thermal: Default::default(),
        structures: vec![],
        solver: SolverSettings {
            method: Method::Auto,
            linear_algebra: friction_sim::scenario::LinearAlgebra::Auto,
            t_end,
            output_dt: Some(dt),
            output_times: None,
            rtol,
            atol_position: 1e-13,
            atol_velocity: 1e-12,
            atol_state: 1e-12,
            max_step: t_end / 100.0,
            max_steps: BODY_MAX_STEPS,
            max_wall: None,
            states: friction_sim::scenario::StateColumns::Auto,
            columns: None,
            max_output_bytes: friction_sim::scenario::DEFAULT_MAX_OUTPUT_BYTES,
        },
    };
    with_fallback(notes, |method| {
        sys.solver.method = method;
        let out = simulate(&sys)?;
        if let Some(f) = &out.failure {
            if partial_ok && f.contains("max_steps") {
                notes.push(format!(
                    "{} stopped by the step budget at t = {:.4} s",
                    method.name(),
                    out.last("t")
                ));
                return Ok(out);
            }
            return Err(AnalysisError::Sim(SimError::Solver {
                t: out.last("t"),
                cause: f.clone(),
                state: String::new(),
            }));
        }
        Ok(out)
    })
}

/// Why a body cannot be simulated at rest on this contact, if it cannot.
#[derive(Debug, Clone, PartialEq)]
pub enum AtRest {
    /// The force or a state's rate jumps across v = 0 and the model has no
    /// stick machinery: a body at rest chatters (the step size collapses).
    Jump(String),
    /// The force is continuous but steeper at rest than any solver can take.
    Steep(String),
}

impl AtRest {
    /// The explanation.
    pub fn text(&self) -> &str {
        match self {
            AtRest::Jump(s) | AtRest::Steep(s) => s,
        }
    }
}

/// Largest slope dF/dv at rest a body experiment is attempted with [N s/m].
pub const MAX_REST_SLOPE: f64 = 1e12;

/// Check the model at rest (its initial state) for what makes a body
/// starting at rest impossible to integrate: the force or a rate changes
/// between v = ±1e-15 m/s by more than half its change between v = ±1e-12
/// m/s (a jump, as sign(v) gives), or dF/dv over ±1e-15 m/s exceeds
/// [`MAX_REST_SLOPE`]. Set-valued models (a maximum static force) stick
/// through the engine's mode machine and pass.
pub fn at_rest(model: &AnyModel) -> Option<AtRest> {
    if model.max_static(&vec![0.0; model.n_states()], &vec![0.0; model.n_memory()]).is_some() {
        return None;
    }
    let mut z = vec![0.0; model.n_states()];
    let mut mem = vec![0.0; model.n_memory()];
    model.init(&Input::new(0.0, 0.0, 0.0), &mut z, &mut mem);
    let f = |v: f64| model.force(&Input::new(0.0, 0.0, v), &z, &mem);
    let r = |v: f64| {
        let mut dz = vec![0.0; z.len()];
        model.rates(&Input::new(0.0, 0.0, v), &z, &mem, &mut dz);
        dz
    };
    let (e1, e2) = (1e-12, 1e-15);
    let (df1, df2) = ((f(e1) - f(-e1)).abs(), (f(e2) - f(-e2)).abs());
    if df2 > 0.0 && df2 > 0.95 * df1 {
        return Some(AtRest::Jump(format!(
            "the force jumps by {df2:.3e} N across v = 0 and the model has no stick machinery: a body at rest chatters"
        )));
    }
    let (r1p, r1m, r2p, r2m) = (r(e1), r(-e1), r(e2), r(-e2));
    for k in 0..z.len() {
        let (d1, d2) = ((r1p[k] - r1m[k]).abs(), (r2p[k] - r2m[k]).abs());
        if d2 > 0.0 && d2 > 0.95 * d1 {
            return Some(AtRest::Jump(format!(
                "the rate of state {k} jumps by {d2:.3e} across v = 0 and the model has no stick machinery: a body at rest chatters"
            )));
        }
    }
    let slope = df2 / (2.0 * e2);
    if slope > MAX_REST_SLOPE {
        return Some(AtRest::Steep(format!(
            "dF/dv at rest is about {slope:.1e} N s/m (> {MAX_REST_SLOPE:.0e}): no solver integrates a body starting at rest"
        )));
    }
    None
}

/// Position along a piecewise linear path through `points` after a path
/// length `s` (clamped to the ends).
pub(crate) fn path_x(points: &[f64], s: f64) -> f64 {
    let mut left = s.max(0.0);
    for w in points.windows(2) {
        let len = (w[1] - w[0]).abs();
        if left <= len {
            return w[0] + (w[1] - w[0]).signum() * left;
        }
        left -= len;
    }
    *points.last().unwrap_or(&0.0)
}

/// Linear interpolation of `y(x)` on a table with increasing `x` (held at the ends).
pub(crate) fn interp(xs: &[f64], ys: &[f64], x: f64) -> f64 {
    let n = xs.len();
    if n == 0 {
        return f64::NAN;
    }
    if x <= xs[0] {
        return ys[0];
    }
    if x >= xs[n - 1] {
        return ys[n - 1];
    }
    let i = xs.partition_point(|&a| a <= x) - 1;
    let w = (x - xs[i]) / (xs[i + 1] - xs[i]);
    ys[i] + w * (ys[i + 1] - ys[i])
}

/// Mean of `y` over the samples with `t` in `[a, b]`.
pub(crate) fn window_mean(t: &[f64], y: &[f64], a: f64, b: f64) -> f64 {
    let (mut s, mut n) = (0.0, 0usize);
    for (ti, yi) in t.iter().zip(y) {
        if *ti >= a && *ti <= b {
            s += yi;
            n += 1;
        }
    }
    if n == 0 {
        f64::NAN
    } else {
        s / n as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_and_interpolation() {
        let p = [0.0, 1.0, -1.0, 0.5];
        assert_eq!(path_x(&p, 0.5), 0.5);
        assert_eq!(path_x(&p, 2.5), -0.5);
        assert_eq!(path_x(&p, 4.25), 0.25);
        assert_eq!(path_x(&p, 100.0), 0.5);
        assert_eq!(interp(&[0.0, 1.0, 3.0], &[0.0, 2.0, 0.0], 2.0), 1.0);
        assert_eq!(window_mean(&[0.0, 1.0, 2.0, 3.0], &[1.0, 2.0, 3.0, 4.0], 1.0, 2.0), 2.5);
    }
}

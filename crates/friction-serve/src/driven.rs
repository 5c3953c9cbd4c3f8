//! One contact driven along a prescribed slip within the server's
//! wall-clock limit: what `POST /api/response` computes.
//!
//! [`friction_sim::drive::drive_outcome`] and
//! [`friction_analysis::tune::cycle`] have no wall-clock limit; the
//! functions here build the same driven system (a driver moving along the
//! prescribed motion against the ground, unit normal load) with
//! `[solver] max_wall` set to the time left of the request's [`Deadline`],
//! so that the engine itself stops at the limit. The numbers are those of
//! the functions they mirror, bit for bit (tested).

use std::time::Instant;

use axum::http::StatusCode;
use friction_analysis::fit::{state_tolerance, Evaluator, Motion};
use friction_analysis::tune::{cycle, Cycle, CycleSettings};
use friction_models::AnyModel;
use friction_sim::drive::DriveSettings;
use friction_sim::system::{Contact, Driver, LinearAlgebra, DEFAULT_MAX_OUTPUT_BYTES};
use friction_sim::{Member, Outcome, Schedule, SolverSettings, StateColumns, System};

use crate::error::{ApiError, ApiResult};

/// The wall-clock budget of one request: `cap` seconds from its start.
#[derive(Debug, Clone, Copy)]
pub struct Deadline {
    start: Instant,
    /// The limit \[s\] (the server's `--max-wall`).
    pub cap: f64,
}

impl Deadline {
    /// A budget of `cap` seconds starting now.
    pub fn new(cap: f64) -> Self {
        Deadline { start: Instant::now(), cap }
    }

    /// Seconds left, or the limit's error for the part `what` when none are.
    pub fn remaining(&self, what: &str) -> ApiResult<f64> {
        let left = self.cap - self.start.elapsed().as_secs_f64();
        if left > 0.0 {
            Ok(left)
        } else {
            Err(self.exceeded(what, ""))
        }
    }

    /// The error of a part `what` stopped by the limit (503, naming the
    /// limit and the option that sets it), `detail` the engine's message.
    pub fn exceeded(&self, what: &str, detail: &str) -> ApiError {
        let detail = if detail.is_empty() { String::new() } else { format!(" ({detail})") };
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: format!(
                "{what}: stopped at the server's wall-clock limit of {} s per request (`friction serve \
                 --max-wall`){detail}; ask for fewer samples, cycles or points, or a longer limit",
                self.cap
            ),
        }
    }

    /// The error of part `what` for an engine message: the limit's error
    /// when the limit was reached (or the engine refused the run against
    /// it), 400 with the message otherwise.
    pub fn classify(&self, what: &str, message: &str) -> ApiError {
        if message.contains("max_wall") || self.start.elapsed().as_secs_f64() >= self.cap {
            self.exceeded(what, message)
        } else {
            ApiError::bad(format!("{what}: {message}"))
        }
    }
}

/// [`friction_sim::drive::drive_outcome`] with unit normal load, stopped at
/// `deadline` (the part `what` named in its errors).
pub fn drive_within(
    model: &AnyModel,
    motion: Schedule,
    times: &[f64],
    settings: &DriveSettings,
    deadline: &Deadline,
    what: &str,
) -> ApiResult<Outcome> {
    let t_end = times.last().copied().unwrap_or(0.0);
    if t_end.is_nan() || t_end <= 0.0 {
        return Err(ApiError::internal(format!("{what}: last time {t_end} must be > 0")));
    }
    let mut solver = SolverSettings::with_t_end(t_end);
    solver.method = settings.method;
    solver.linear_algebra = LinearAlgebra::Auto;
    solver.output_dt = None;
    solver.output_times = Some(times.to_vec());
    solver.rtol = settings.rtol;
    solver.atol_position = 1e-12;
    solver.atol_velocity = 1e-12;
    solver.atol_state = settings.atol_state;
    solver.max_step = t_end;
    solver.max_steps = 10_000_000;
    solver.max_wall = Some(deadline.remaining(what)?);
    solver.states = StateColumns::Auto;
    solver.columns = None;
    solver.max_output_bytes = DEFAULT_MAX_OUTPUT_BYTES;
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
            model: model.clone(),
            normal: Schedule::Constant { value: 1.0 },
        }],
        gaps: vec![],
        stops: vec![],
        solver,
    };
    let out = friction_sim::simulate(&sys).map_err(|e| deadline.classify(what, &e.to_string()))?;
    if let Some(f) = &out.failure {
        return Err(deadline.classify(what, f));
    }
    Ok(out)
}

/// [`friction_analysis::tune::cycle`] (the last of `settings.cycles`
/// periods of `x = amplitude sin(2π f t)`) stopped at `deadline`.
/// Models evaluated without the engine (static maps, hysteresis operators)
/// take a time proportional to the number of samples, bounded by the
/// route's checks; the engine's runs stop at the limit.
pub fn cycle_within(
    model: &AnyModel,
    amplitude: f64,
    settings: &CycleSettings,
    deadline: &Deadline,
) -> ApiResult<Cycle> {
    const WHAT: &str = "loop";
    if Evaluator::for_model(model) != Evaluator::Engine {
        deadline.remaining(WHAT)?;
        let c = cycle(model, amplitude, settings).map_err(|e| ApiError::bad(format!("{WHAT}: {e}")))?;
        deadline.remaining(WHAT)?;
        return Ok(c);
    }
    let f = settings.frequency;
    let m = settings.samples_per_cycle.max(8);
    let cycles = settings.cycles.max(1);
    let n = cycles * m + 1;
    let w = 2.0 * std::f64::consts::PI * f;
    let t: Vec<f64> = (0..n).map(|k| k as f64 / (m as f64 * f)).collect();
    let x: Vec<f64> = t.iter().map(|t| amplitude * (w * t).sin()).collect();
    let v: Vec<f64> = t.iter().map(|t| amplitude * w * (w * t).cos()).collect();
    let mut ds = settings.drive.clone();
    if settings.auto_tolerance {
        // as tune::cycle: 1e-9 of the smallest state peak over a coarse period
        let tc: Vec<f64> = (0..=64).map(|k| k as f64 / (64.0 * f)).collect();
        let xc = tc.iter().map(|t| amplitude * (w * t).sin()).collect();
        let vc = tc.iter().map(|t| amplitude * w * (w * t).cos()).collect();
        deadline.remaining(WHAT)?;
        ds.atol_state =
            state_tolerance(model, &Motion { t: tc.clone(), x: xc, v: vc, n: None }, &settings.drive, 1e-9);
    }
    let motion = Schedule::Sine { amplitude, frequency: f, phase: 0.0, offset: 0.0 };
    let out = drive_within(model, motion, &t, &ds, deadline, WHAT)?;
    let i = out.col("F.c").unwrap_or(3);
    let force: Vec<f64> = out.rows.iter().map(|r| -r[i]).collect();
    let s = (cycles - 1) * m;
    let (t, x, v, fv) = (t[s..].to_vec(), x[s..].to_vec(), v[s..].to_vec(), force[s..].to_vec());
    let mut d = 0.0;
    for k in 0..m {
        d += 0.5 * (fv[k] * v[k] + fv[k + 1] * v[k + 1]) * (t[k + 1] - t[k]);
    }
    Ok(Cycle { amplitude, t, x, v, f: fv, dissipation: d })
}

#[cfg(test)]
mod tests {
    use super::*;
    use friction_models::{build, ParamMap};

    /// The capped loop is tune::cycle's, bit for bit, for a model the
    /// engine integrates (LuGre) and one it does not (Coulomb).
    #[test]
    fn the_capped_loop_equals_tune_cycle_bit_for_bit() {
        let settings = CycleSettings { frequency: 2.0, samples_per_cycle: 200, ..Default::default() };
        for id in ["lugre", "coulomb", "dahl"] {
            let m = build(id, &ParamMap::new()).unwrap();
            let want = cycle(&m, 1e-3, &settings).unwrap();
            let got = cycle_within(&m, 1e-3, &settings, &Deadline::new(600.0)).unwrap();
            assert_eq!(got.f.len(), want.f.len(), "{id}");
            for (a, b) in got.f.iter().zip(&want.f) {
                assert_eq!(a.to_bits(), b.to_bits(), "{id}: {a} != {b}");
            }
            assert_eq!(got.dissipation.to_bits(), want.dissipation.to_bits(), "{id}");
        }
    }

    /// A request whose budget is spent gets the limit's error, naming it.
    #[test]
    fn a_spent_budget_names_the_limit() {
        let d = Deadline { start: Instant::now() - std::time::Duration::from_secs(2), cap: 1.0 };
        let e = d.remaining("curve").unwrap_err();
        assert_eq!(e.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            e.message.starts_with("curve: stopped at the server's wall-clock limit of 1 s"),
            "{}",
            e.message
        );
    }
}

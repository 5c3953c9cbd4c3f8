//! One contact driven along a prescribed slip within the server's
//! wall-clock limit: what `POST /api/response` computes.
//!
//! [`friction_sim::drive::drive_outcome`] and
//! [`friction_analysis::tune::cycle`] run with the drive settings'
//! `max_wall` set to the time left of the request's [`Deadline`], so that
//! the engine itself stops at the limit; the numbers are theirs.

use std::time::Instant;

use axum::http::StatusCode;
use friction_analysis::tune::{cycle, Cycle, CycleSettings};
use friction_models::AnyModel;
use friction_sim::drive::{drive_outcome, DriveSettings};
use friction_sim::{Outcome, Schedule};

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
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "{what}: stopped at the server's wall-clock limit of {} s per request (`friction serve \
                 --max-wall`){detail}; ask for fewer samples, cycles or points, or a longer limit",
                self.cap
            ),
        )
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
    let ds = DriveSettings { max_wall: Some(deadline.remaining(what)?), ..settings.clone() };
    drive_outcome(model.clone(), motion, Schedule::Constant { value: 1.0 }, times, &ds)
        .map_err(|e| deadline.classify(what, &e.to_string()))
}

/// [`friction_analysis::tune::cycle`] (the last of `settings.cycles`
/// periods of `x = amplitude sin(2π f t)`) stopped at `deadline`: each run
/// of the engine stops at the time left when the loop starts. Models
/// evaluated without the engine (static maps, hysteresis operators) take a
/// time proportional to the number of samples, bounded by the route's
/// checks.
pub fn cycle_within(
    model: &AnyModel,
    amplitude: f64,
    settings: &CycleSettings,
    deadline: &Deadline,
) -> ApiResult<Cycle> {
    const WHAT: &str = "loop";
    let mut s = settings.clone();
    s.drive.max_wall = Some(deadline.remaining(WHAT)?);
    let c = cycle(model, amplitude, &s).map_err(|e| deadline.classify(WHAT, &e.to_string()))?;
    deadline.remaining(WHAT)?;
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use friction_models::{build, ParamMap};

    /// A wall limit that is not reached leaves the loop tune::cycle's, bit
    /// for bit, for models the engine integrates (LuGre, Dahl) and one it
    /// does not (Coulomb).
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

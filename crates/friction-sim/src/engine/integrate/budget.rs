//! The wall-clock budget of a run (`[solver] max_wall`): a run that would
//! clearly exceed it is refused after a short pilot, with its estimate,
//! instead of burning the whole budget for a partial result.
//!
//! # The rule
//! The pilot lasts `min(PILOT_FRACTION * max_wall, PILOT_MAX_S)` seconds of
//! the loop (2 % of the budget or 0.5 s, whichever is less) and at least
//! [`PILOT_STEPS`] accepted steps. At its end, once, the wall time to
//! `t_end` is extrapolated from the rate of simulated time over wall time
//! in the pilot:
//! ```text
//! estimate = setup + (elapsed - setup) * (t_end - t_start) / (t - t_start)
//! ```
//! (`setup`: the wall time before the loop's first step). The run is
//! refused when `estimate > REFUSE_FACTOR * max_wall` (2x). The factor is
//! there because the rate is not constant: a stiff transient at the start
//! makes the pilot slow and a later stick phase can make it fast (or the
//! reverse), so only a clear excess is refused; a run estimated within 2x
//! of its budget runs, and stops at `max_wall` with its partial result as
//! before.
//!
//! The clock is read every [`CLOCK_EVERY`] passes of the loop, not every
//! step.

use std::time::Instant;

use crate::system::duration_text;

/// The pilot's share of `max_wall`.
pub(crate) const PILOT_FRACTION: f64 = 0.02;
/// The pilot's longest duration [s].
pub(crate) const PILOT_MAX_S: f64 = 0.5;
/// The fewest accepted steps of a pilot.
pub(crate) const PILOT_STEPS: usize = 20;
/// How far over `max_wall` the estimate must be for a refusal.
pub(crate) const REFUSE_FACTOR: f64 = 2.0;
/// The loop reads the clock once every this many passes.
pub(crate) const CLOCK_EVERY: u32 = 8;

/// What the budget says after a look at the clock.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Verdict {
    /// Go on.
    Go,
    /// The estimate to `t_end` exceeds the budget clearly: the message says
    /// by how much and what to change.
    Refuse(String),
    /// `max_wall` has passed.
    Spent(f64),
}

/// The clock of one run's loop.
pub(crate) struct Budget {
    start: Instant,
    max_wall: Option<f64>,
    t_start: f64,
    t_end: f64,
    /// Wall time at the loop's start [s].
    setup: f64,
    pilot_done: bool,
    passes: u32,
}

impl Budget {
    /// The budget of a run started at `start` (the wall clock) and `t_start`
    /// (simulated), the loop about to begin.
    pub(crate) fn new(start: Instant, max_wall: Option<f64>, t_start: f64, t_end: f64) -> Self {
        let setup = start.elapsed().as_secs_f64();
        Budget { start, max_wall, t_start, t_end, setup, pilot_done: false, passes: 0 }
    }

    /// Whether this pass of the loop reads the clock (every
    /// [`CLOCK_EVERY`]-th).
    pub(crate) fn tick(&mut self) -> bool {
        self.passes = self.passes.wrapping_add(1);
        self.passes.is_multiple_of(CLOCK_EVERY)
    }

    /// The wall time since the run started [s].
    pub(crate) fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// The verdict at wall time `elapsed`, simulated time `t` after `steps`
    /// accepted steps.
    pub(crate) fn check(&mut self, elapsed: f64, t: f64, steps: usize) -> Verdict {
        let Some(w) = self.max_wall else { return Verdict::Go };
        if elapsed > w {
            return Verdict::Spent(w);
        }
        if self.pilot_done {
            return Verdict::Go;
        }
        let pilot = (PILOT_FRACTION * w).min(PILOT_MAX_S);
        if elapsed - self.setup < pilot || steps < PILOT_STEPS {
            return Verdict::Go;
        }
        self.pilot_done = true;
        match estimate(self.setup, elapsed, self.t_start, t, self.t_end) {
            Some(est) if est > REFUSE_FACTOR * w => Verdict::Refuse(format!(
                "refused after a pilot of {:.2} s: at the pilot's rate ({:.3e} s simulated in {:.2} s of wall time) \
                 the run to t_end = {} s would take about {} of wall time, more than {REFUSE_FACTOR}x \
                 max_wall = {w} s; raise `[solver] max_wall` (or `--max-wall`) to at least {:.0} s, shorten \
                 t_end, or soften what makes the steps small",
                elapsed - self.setup,
                t - self.t_start,
                elapsed - self.setup,
                self.t_end,
                duration_text(est),
                (1.2 * est).ceil()
            )),
            _ => Verdict::Go,
        }
    }
}

/// The wall time to `t_end` extrapolated from the rate between the loop's
/// start (`setup` s, `t_start`) and now (`elapsed` s, `t`); `None` before
/// any simulated time has passed.
pub(crate) fn estimate(setup: f64, elapsed: f64, t_start: f64, t: f64, t_end: f64) -> Option<f64> {
    let done = t - t_start;
    if done.is_finite() && done > 0.0 && elapsed.is_finite() {
        Some(setup + (elapsed - setup).max(0.0) * (t_end - t_start) / done)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimate_extrapolates_the_loop_rate_not_the_setup() {
        // 1 s of set-up, then 0.1 s of simulated time in 0.5 s: 10 s to go
        // at 5 s per simulated second, plus the set-up
        let e = estimate(1.0, 1.5, 0.0, 0.1, 1.0).unwrap();
        assert!((e - 6.0).abs() < 1e-12, "{e}");
        assert_eq!(estimate(0.0, 1.0, 0.0, 0.0, 1.0), None);
    }

    #[test]
    fn refusal_only_after_the_pilot_and_only_clearly_over() {
        let start = Instant::now();
        let mut b = Budget::new(start, Some(10.0), 0.0, 100.0);
        b.setup = 0.0;
        // before the pilot's 0.2 s (2 % of 10 s): go, whatever the rate
        assert_eq!(b.check(0.1, 1e-6, 1000), Verdict::Go);
        // enough time but too few steps: go
        assert_eq!(b.check(0.3, 1e-6, 5), Verdict::Go);
        // estimate 0.3 * 100 / 1.0 = 30 s > 2 x 10 s: refused, with the estimate
        match b.check(0.3, 1.0, 50) {
            Verdict::Refuse(m) => assert!(m.contains("about 30 s") && m.contains("max_wall = 10 s"), "{m}"),
            v => panic!("{v:?}"),
        }
        // 0.3 * 100 / 2 = 15 s < 20 s: runs (the pilot is checked once)
        let mut b = Budget::new(start, Some(10.0), 0.0, 100.0);
        b.setup = 0.0;
        assert_eq!(b.check(0.3, 2.0, 50), Verdict::Go);
        assert_eq!(b.check(0.4, 2.0, 60), Verdict::Go);
        assert_eq!(b.check(10.5, 50.0, 600), Verdict::Spent(10.0));
    }
}

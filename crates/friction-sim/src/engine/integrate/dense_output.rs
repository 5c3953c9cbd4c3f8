//! The engine's own methods (Radau5, Rodas5P, bdf5, DOP853) as
//! [`Stepper`]s, written once: a method with a dense output over its last
//! accepted step ([`DenseOutput`]) and its own step ([`OwnMethod`]) is a
//! [`Stepper`] by the impl here, whose stop time, interpolation within the
//! last step, output rows, move back to an event and restart from a new
//! state follow from the dense output alone. Generic, no trait objects:
//! each method's code is compiled for it as before.

use crate::engine::integrate::stepper::{write_rows, MethodStats, Stepper, Stop};
use crate::engine::network::Engine;

/// A method whose last accepted step has a dense output: where a time lies
/// in the step ([`DenseOutput::point`]), and each state's value there from
/// the step's coefficients ([`DenseOutput::value`]).
pub(crate) trait DenseOutput {
    /// Where a time lies in the last step, as [`DenseOutput::value`] takes
    /// it (the dense output's weights there).
    type Point: Copy;
    /// The dense output's coefficients as [`DenseOutput::value`] reads them.
    type Coeffs<'a>
    where
        Self: 'a;

    /// The last accepted step: its start, its length (0: none since the
    /// (re)start) and its end, the current time.
    fn last_step(&self) -> (f64, f64, f64);
    /// The state at the step's end.
    fn end_state(&self) -> &[f64];
    /// The point of `tq` (within the last step).
    fn point(&self, tq: f64) -> Self::Point;
    /// The coefficients of the first `upto` states or more (computed now if
    /// the method computes them on demand); only after a step.
    fn coeffs(&self, upto: usize) -> Self::Coeffs<'_>;
    /// State `i`'s dense output at the point `p`.
    fn value(c: &Self::Coeffs<'_>, p: &Self::Point, i: usize) -> f64;
    /// The first `out.len()` states at the point `p` into `out`: state by
    /// state as [`DenseOutput::value`] gives them, unless the method has a
    /// faster loop for the same values.
    fn values(c: &Self::Coeffs<'_>, p: &Self::Point, out: &mut [f64]) {
        for (i, o) in out.iter_mut().enumerate() {
            *o = Self::value(c, p, i);
        }
    }
    /// The dense output at `tq` (within the last step) into `out` (as many
    /// states as it holds); before any step, the state itself.
    fn dense_at(&self, tq: f64, out: &mut [f64]) {
        let (_, h, _) = self.last_step();
        if h == 0.0 {
            out.copy_from_slice(&self.end_state()[..out.len()]);
            return;
        }
        let c = self.coeffs(out.len());
        let p = self.point(tq);
        Self::values(&c, &p, out);
    }
    /// The stop time, no step goes past it.
    fn stop_time(&mut self) -> &mut f64;
    /// The state at the step's end and a spare vector of its size.
    fn states(&mut self) -> (&mut Vec<f64>, &mut Vec<f64>);
    /// After a new state at `t`: no history.
    fn reset(&mut self, t: f64);
}

/// One of the engine's own methods: its step and counters. With its dense
/// output it is a [`Stepper`] (the impl below).
pub(crate) trait OwnMethod: DenseOutput {
    /// How many output rows [`Stepper::dense_rows`] writes at a time (the
    /// `K` of [`write_rows`]: 2 or 4).
    const ROWS_AT_ONCE: usize;
    /// [`Stepper::interpolate_states`] interpolates the states asked for
    /// only (`false`: the whole state, as by default).
    const STATES_ONLY: bool;
    /// [`Stepper::step`].
    fn step(&mut self) -> Result<Stop, String>;
    /// [`Stepper::stats`].
    fn stats(&self) -> MethodStats;
}

impl<M: OwnMethod> Stepper for M {
    fn t(&self) -> f64 {
        self.last_step().2
    }
    fn y(&self) -> &[f64] {
        self.end_state()
    }
    /// A stop time not after the current time is refused.
    fn set_stop_time(&mut self, t: f64) -> Result<(), String> {
        let (_, _, now) = self.last_step();
        if t <= now {
            return Err(format!("stop time {t} is not after the current time {now}"));
        }
        *self.stop_time() = t;
        Ok(())
    }
    fn step(&mut self) -> Result<Stop, String> {
        OwnMethod::step(self)
    }
    /// `t` within the last step give or take 1e-12 (relative).
    fn interpolate(&self, t: f64, y: &mut [f64]) -> Result<(), String> {
        let (t_prev, _, t_end) = self.last_step();
        let tol = 1e-12 * (1.0 + t_end.abs());
        if t < t_prev - tol || t > t_end + tol {
            return Err(format!("time {t} outside the last step [{t_prev}, {t_end}]"));
        }
        self.dense_at(t, y);
        Ok(())
    }
    fn interpolate_states(&self, t: f64, y: &mut [f64], m: usize) -> Result<(), String> {
        if M::STATES_ONLY {
            let n = self.end_state().len();
            self.interpolate(t, &mut y[..m.min(n)])
        } else {
            self.interpolate(t, y)
        }
    }
    /// The rows as [`DenseOutput::dense_at`] evaluates them, for their
    /// columns only (the coefficients of the states they read), by
    /// [`write_rows`]; not before a step (the loop's row by row path).
    fn dense_rows(&self, ts: &[f64], cols: &[Option<usize>], out: &mut Vec<f64>) -> bool {
        let (_, h, t) = self.last_step();
        if h == 0.0 {
            return false;
        }
        let c = self.coeffs(cols.iter().flatten().map(|&i| i + 1).max().unwrap_or(0));
        let (y, point) = (self.end_state(), |tq| self.point(tq));
        let value = |p: &M::Point, i| M::value(&c, p, i);
        match M::ROWS_AT_ONCE {
            4 => write_rows::<4, _>(ts, cols, out, t, y, point, value),
            _ => write_rows::<2, _>(ts, cols, out, t, y, point, value),
        }
        true
    }
    fn move_back(&mut self, t: f64) -> Result<(), String> {
        let mut y = std::mem::take(self.states().1);
        self.interpolate(t, &mut y)?;
        let (state, spare) = self.states();
        *spare = std::mem::replace(state, y);
        self.reset(t);
        Ok(())
    }
    fn restart(&mut self, engine: &Engine<'_>, t: f64, y: &[f64]) {
        engine.jac.borrow_mut().invalidate();
        self.states().0.copy_from_slice(y);
        self.reset(t);
    }
    fn stats(&self) -> MethodStats {
        OwnMethod::stats(self)
    }
}

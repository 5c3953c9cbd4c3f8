//! The engine's own methods (Radau5, Rodas5P, bdf5, DOP853) as
//! [`Stepper`]s, written once: a method with a dense output over its last
//! accepted step ([`DenseOutput`], the step in a [`LastStep`]) and its own
//! step ([`OwnMethod`]) is a [`Stepper`] by the impl here, whose stop time,
//! interpolation within the last step, output rows, move back to an event
//! and restart from a new state follow from the dense output alone.
//! Generic, no trait objects: each method's code is compiled for it as
//! before.

use crate::engine::integrate::root_search::RootSearch;
use crate::engine::integrate::stepper::{write_rows, MethodStats, Stepper, Stop};
use crate::engine::network::Engine;

/// The last accepted step of a method, the state at its end, the stop time
/// and the search for event roots in the step, as every own method keeps
/// them.
pub(crate) struct LastStep {
    /// the current time, the step's end
    pub t: f64,
    /// the state at `t`
    pub y: Vec<f64>,
    /// the step's start and length (0: none since the (re)start)
    pub t_prev: f64,
    pub h_prev: f64,
    /// no step goes past it
    pub tstop: f64,
    /// a spare state of the same size (where a move back interpolates)
    pub ymid: Vec<f64>,
    /// the event roots at the step's end and the search's buffers
    pub roots: RootSearch,
}

impl LastStep {
    /// At `t0` in `y0`, no step yet, no stop time; `roots` the search's
    /// buffers.
    pub(crate) fn new(t0: f64, y0: &[f64], roots: RootSearch) -> Self {
        LastStep {
            t: t0,
            y: y0.to_vec(),
            t_prev: t0,
            h_prev: 0.0,
            tstop: f64::INFINITY,
            ymid: vec![0.0; y0.len()],
            roots,
        }
    }

    /// A new start at `t` (the state set by the caller): no step yet.
    pub(crate) fn restart_at(&mut self, t: f64) {
        self.t = t;
        self.t_prev = t;
        self.h_prev = 0.0;
    }
}

/// [`DenseOutput::last`] and [`DenseOutput::last_mut`] of a method that
/// keeps its [`LastStep`] in the field `last` (inside its `impl DenseOutput`).
macro_rules! last_step_in_field {
    () => {
        fn last(&self) -> &$crate::engine::integrate::dense_output::LastStep {
            &self.last
        }
        fn last_mut(&mut self) -> &mut $crate::engine::integrate::dense_output::LastStep {
            &mut self.last
        }
    };
}
pub(crate) use last_step_in_field;

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

    /// The last accepted step and the state at its end.
    fn last(&self) -> &LastStep;
    /// The same, to change.
    fn last_mut(&mut self) -> &mut LastStep;
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
        let last = self.last();
        if last.h_prev == 0.0 {
            out.copy_from_slice(&last.y[..out.len()]);
            return;
        }
        let c = self.coeffs(out.len());
        let p = self.point(tq);
        Self::values(&c, &p, out);
    }
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
        self.last().t
    }
    fn y(&self) -> &[f64] {
        &self.last().y
    }
    /// A stop time not after the current time is refused.
    fn set_stop_time(&mut self, t: f64) -> Result<(), String> {
        let last = self.last_mut();
        if t <= last.t {
            return Err(format!("stop time {t} is not after the current time {}", last.t));
        }
        last.tstop = t;
        Ok(())
    }
    fn step(&mut self) -> Result<Stop, String> {
        OwnMethod::step(self)
    }
    /// `t` within the last step give or take 1e-12 (relative).
    fn interpolate(&self, t: f64, y: &mut [f64]) -> Result<(), String> {
        let last = self.last();
        let tol = 1e-12 * (1.0 + last.t.abs());
        if t < last.t_prev - tol || t > last.t + tol {
            return Err(format!("time {t} outside the last step [{}, {}]", last.t_prev, last.t));
        }
        self.dense_at(t, y);
        Ok(())
    }
    fn interpolate_states(&self, t: f64, y: &mut [f64], m: usize) -> Result<(), String> {
        if M::STATES_ONLY {
            let n = self.last().y.len();
            self.interpolate(t, &mut y[..m.min(n)])
        } else {
            self.interpolate(t, y)
        }
    }
    /// The rows as [`DenseOutput::dense_at`] evaluates them, for their
    /// columns only (the coefficients of the states they read), by
    /// [`write_rows`]; not before a step (the loop's row by row path).
    fn dense_rows(&self, ts: &[f64], cols: &[Option<usize>], out: &mut Vec<f64>) -> bool {
        let last = self.last();
        if last.h_prev == 0.0 {
            return false;
        }
        let c = self.coeffs(cols.iter().flatten().map(|&i| i + 1).max().unwrap_or(0));
        let point = |tq| self.point(tq);
        let value = |p: &M::Point, i| M::value(&c, p, i);
        match M::ROWS_AT_ONCE {
            4 => write_rows::<4, _>(ts, cols, out, last.t, &last.y, point, value),
            _ => write_rows::<2, _>(ts, cols, out, last.t, &last.y, point, value),
        }
        true
    }
    fn move_back(&mut self, t: f64) -> Result<(), String> {
        let mut y = std::mem::take(&mut self.last_mut().ymid);
        self.interpolate(t, &mut y)?;
        let last = self.last_mut();
        last.ymid = std::mem::replace(&mut last.y, y);
        self.reset(t);
        Ok(())
    }
    fn restart(&mut self, engine: &Engine<'_>, t: f64, y: &[f64]) {
        engine.jac.borrow_mut().invalidate();
        self.last_mut().y.copy_from_slice(y);
        self.reset(t);
    }
    fn stats(&self) -> MethodStats {
        OwnMethod::stats(self)
    }
}

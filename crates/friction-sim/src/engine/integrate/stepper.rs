//! What the integration loop asks of a method (`Stepper`): one step at a
//! time up to a stop time, the step's dense output, a move back to an event,
//! a restart from a new state; implemented for diffsol's solvers
//! (`Diffsol`) and for the engine's own Radau IIA ([`crate::engine::integrate::radau`]),
//! DOP853 ([`crate::engine::integrate::dop853`]), Rodas5P and bdf5, whose
//! shared parts are in [`crate::engine::integrate::dense_output`].

use std::marker::PhantomData;

use diffsol::{OdeEquations, OdeSolverMethod, OdeSolverStopReason};

use crate::engine::linalg::host::Host;
use crate::engine::network::Engine;

/// Why a step ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Stop {
    /// An accepted step short of the stop time.
    Step,
    /// The stop time reached exactly.
    AtStopTime,
    /// Root `idx` of [`Engine::roots`] crossed zero at time `t` (the
    /// solver's state is still at the end of the step).
    Root(f64, usize),
}

/// The counters of a method.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct MethodStats {
    pub steps: usize,
    pub rejected: usize,
    pub newton_iterations: usize,
    pub newton_failures: usize,
    pub factorisations: usize,
    /// The Newton matrix is sparse (bdf5's band), whatever the run's
    /// `linear_algebra` setting chose for diffsol's methods.
    pub sparse: bool,
}

/// One integration method as the loop of [`crate::engine::integrate::main_loop`] drives it.
pub(crate) trait Stepper {
    /// Time of the last accepted step.
    fn t(&self) -> f64;
    /// State at [`Stepper::t`].
    fn y(&self) -> &[f64];
    /// No step goes past `t`; the step that reaches it ends on it.
    fn set_stop_time(&mut self, t: f64) -> Result<(), String>;
    /// One step.
    fn step(&mut self) -> Result<Stop, String>;
    /// The state at `t` within the last step, into `y`.
    fn interpolate(&self, t: f64, y: &mut [f64]) -> Result<(), String>;
    /// The first `m` states at `t` within the last step into `y[..m]`
    /// (`y` holds the whole state; the rest may be left as it was): the
    /// output rows read no energy quadrature. By default the whole state.
    fn interpolate_states(&self, t: f64, y: &mut [f64], m: usize) -> Result<(), String> {
        let _ = m;
        self.interpolate(t, y)
    }
    /// Output rows of states only, appended to `out`: one row per time of
    /// `ts` (ascending, within the last step), its values `cols` (`Some(i)`:
    /// state `i`, one before the energy quadratures; `None`: the time). A
    /// time within 1e-15 (relative) of the step's end takes the end state
    /// itself, as the loop's row by row interpolation does. `false`: not
    /// offered, `out` untouched (the loop then interpolates row by row).
    /// The engine's own methods write the rows directly, evaluating their
    /// dense output for the columns only, the same values to the bit.
    fn dense_rows(&self, ts: &[f64], cols: &[Option<usize>], out: &mut Vec<f64>) -> bool {
        let _ = (ts, cols, out);
        false
    }
    /// Move the state back to `t` within the last step (an event).
    fn move_back(&mut self, t: f64) -> Result<(), String>;
    /// Continue from `y` at `t` (new modes or memory): no history, a fresh
    /// Jacobian, the root functions re-armed.
    fn restart(&mut self, engine: &Engine<'_>, t: f64, y: &[f64]);
    /// The counters so far.
    fn stats(&self) -> MethodStats;
}

/// Append one row per time of `ts` to `out` ([`Stepper::dense_rows`]):
/// a time within 1e-15 (relative) of the step's end `t` takes the values of
/// its state `y`; any other row's column of state `i` is `value(&p, i)` with
/// `p = point(tq)` (the dense output's weights at the row's time). Rows are
/// written `K` at a time, the same operations on each, which the compiler
/// packs into vectors: the same bits as one at a time (no fused
/// multiply-add is formed). On CPUs with AVX2 the loop is compiled a second
/// time for it and chosen at run time.
pub(crate) fn write_rows<const K: usize, P: Copy>(
    ts: &[f64],
    cols: &[Option<usize>],
    out: &mut Vec<f64>,
    t: f64,
    y: &[f64],
    point: impl Fn(f64) -> P,
    value: impl Fn(&P, usize) -> f64,
) {
    let w = cols.len();
    if w == 0 {
        return;
    }
    let start = out.len();
    out.resize(start + ts.len() * w, 0.0);
    let block = &mut out[start..];
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports the feature the function is compiled for.
        unsafe { rows_avx2::<K, P>(ts, cols, block, t, y, point, value) };
        return;
    }
    rows_in::<K, P>(ts, cols, block, t, y, point, value);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn rows_avx2<const K: usize, P: Copy>(
    ts: &[f64],
    cols: &[Option<usize>],
    block: &mut [f64],
    t: f64,
    y: &[f64],
    point: impl Fn(f64) -> P,
    value: impl Fn(&P, usize) -> f64,
) {
    rows_in::<K, P>(ts, cols, block, t, y, point, value);
}

/// [`write_rows`] into the rows' block.
#[inline(always)]
fn rows_in<const K: usize, P: Copy>(
    ts: &[f64],
    cols: &[Option<usize>],
    block: &mut [f64],
    t: f64,
    y: &[f64],
    point: impl Fn(f64) -> P,
    value: impl Fn(&P, usize) -> f64,
) {
    let w = cols.len();
    let at_end = |tq: f64, r: &mut [f64]| {
        if (tq - t).abs() <= 1e-15 * (1.0 + t.abs()) {
            for (o, c) in r.iter_mut().zip(cols) {
                *o = c.map_or(tq, |i| y[i]);
            }
        }
    };
    let mut groups = block.chunks_exact_mut(K * w);
    for (rows, tt) in groups.by_ref().zip(ts.chunks_exact(K)) {
        // plain loops over the K rows (`std::array::from_fn` was sometimes
        // left out of line, a call per value: free decay 69 -> 82 µs)
        let mut ps = [point(tt[0]); K];
        for k in 1..K {
            ps[k] = point(tt[k]);
        }
        for (j, c) in cols.iter().enumerate() {
            let mut v = [0.0; K];
            for k in 0..K {
                v[k] = match *c {
                    None => tt[k],
                    Some(i) => value(&ps[k], i),
                };
            }
            for (k, &x) in v.iter().enumerate() {
                rows[k * w + j] = x;
            }
        }
        for (k, r) in rows.chunks_exact_mut(w).enumerate() {
            at_end(tt[k], r);
        }
    }
    let rest = groups.into_remainder();
    for (r, &tq) in rest.chunks_exact_mut(w).zip(&ts[ts.len() - ts.len() % K..]) {
        let p = point(tq);
        for (o, c) in r.iter_mut().zip(cols) {
            *o = c.map_or(tq, |i| value(&p, i));
        }
        at_end(tq, r);
    }
}

/// A diffsol solver as a [`Stepper`].
pub(crate) struct Diffsol<'a, Eqn: OdeEquations, S> {
    solver: S,
    /// interpolated states, allocated once
    yi: std::cell::RefCell<Eqn::V>,
    /// why the solver cannot go on (it panicked inside a step)
    broken: Option<String>,
    _eqn: PhantomData<&'a Eqn>,
}

impl<'a, Eqn, S> Diffsol<'a, Eqn, S>
where
    Eqn: OdeEquations<T = f64> + 'a,
    Eqn::V: Host,
    S: OdeSolverMethod<'a, Eqn>,
{
    pub(crate) fn new(solver: S) -> Self {
        let yi = std::cell::RefCell::new(solver.state().y.clone());
        Diffsol { solver, yi, broken: None, _eqn: PhantomData }
    }
}

impl<'a, Eqn, S> Stepper for Diffsol<'a, Eqn, S>
where
    Eqn: OdeEquations<T = f64> + 'a,
    Eqn::V: Host,
    S: OdeSolverMethod<'a, Eqn>,
{
    fn t(&self) -> f64 {
        self.solver.state().t
    }
    fn y(&self) -> &[f64] {
        self.solver.state().y.host()
    }
    fn set_stop_time(&mut self, t: f64) -> Result<(), String> {
        self.solver.set_stop_time(t).map_err(|e| e.to_string())
    }
    fn step(&mut self) -> Result<Stop, String> {
        if let Some(why) = &self.broken {
            return Err(why.clone());
        }
        let t0 = self.solver.state().t;
        // diffsol's root finder unwraps its interpolation, which panics when
        // the secant search leaves the step (esdirk34 on stiff gaps:
        // `InterpolationTimeOutsideCurrentStep`): caught here and reported as
        // the run's failure; the solver is not stepped again after it
        let solver = &mut self.solver;
        let res = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| solver.step()));
        match res {
            Ok(Ok(OdeSolverStopReason::RootFound(t, idx))) => Ok(Stop::Root(t, idx)),
            Ok(Ok(OdeSolverStopReason::TstopReached)) => Ok(Stop::AtStopTime),
            Ok(Ok(OdeSolverStopReason::InternalTimestep)) => Ok(Stop::Step),
            Ok(Err(e)) => Err(e.to_string()),
            Err(p) => {
                let msg = p
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| p.downcast_ref::<&str>().copied())
                    .unwrap_or("no message");
                let why = format!(
                    "the solver (diffsol) failed inside the step from t = {t0} ({msg}); try another \
                     `method` (radau5, bdf) or a smaller `max_step`"
                );
                self.broken = Some(why.clone());
                Err(why)
            }
        }
    }
    fn interpolate(&self, t: f64, y: &mut [f64]) -> Result<(), String> {
        let mut yi = self.yi.borrow_mut();
        self.solver.interpolate_inplace(t, &mut yi).map_err(|e| e.to_string())?;
        y.copy_from_slice(yi.host());
        Ok(())
    }
    fn move_back(&mut self, t: f64) -> Result<(), String> {
        self.solver.state_mut_back(t).map_err(|e| e.to_string())
    }
    fn restart(&mut self, engine: &Engine<'_>, t: f64, y: &[f64]) {
        engine.jac.borrow_mut().invalidate();
        let st = self.solver.state_mut();
        *st.t = t;
        engine.rhs(t, y, st.dy.host_mut());
        st.y.host_mut().copy_from_slice(y);
    }
    fn stats(&self) -> MethodStats {
        let s = self.solver.get_statistics();
        MethodStats {
            steps: s.number_of_steps,
            rejected: s.number_of_error_test_failures,
            newton_iterations: s.number_of_nonlinear_solver_iterations,
            newton_failures: s.number_of_nonlinear_solver_fails,
            factorisations: s.number_of_linear_solver_setups,
            sparse: false,
        }
    }
}

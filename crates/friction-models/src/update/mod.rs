//! Per-step updates of many contacts: the interface of finite-element user
//! subroutines (and of the C library and the Python package built on it).
//!
//! The caller owns one state vector per contact (see [`layout`]:
//! `[t, x, z (n_states), mem (n_memory)]`, [`state_len`] doubles). [`init`]
//! fills it with relaxed states at rest; [`update`] advances `n` contacts over
//! one step of length `dt` in which contact `i` slips by `slip_increment[i]`
//! at the constant velocity `v = slip_increment[i] / dt` under the normal load
//! `normal[i]`, and writes `force[i] = normal[i] · F` at the end of the step,
//! `F` being the model's force (positive opposes positive slip). With a
//! normal load of 1 the force is in the model's own units; with the actual
//! normal load the model's force parameters act as friction coefficients.
//!
//! ```
//! use friction_models::{build, ParamMap};
//! use friction_models::update::{init, state_len, update};
//! let m = build("lugre", &ParamMap::new()).unwrap();
//! let n = 2;
//! let mut state = vec![0.0; n * state_len(&m)];
//! init(&m, &mut state).unwrap();
//! let mut force = [0.0; 2];
//! // both contacts slide 1 mm at 1 cm/s, the second under twice the load
//! update(&m, 0.1, &[1e-3, 1e-3], &[1.0, 2.0], &mut state, &mut force).unwrap();
//! // after 1 mm (many g/σ0 = 1e-5 m) LuGre sits on its Stribeck curve g(v) + σ2 v
//! assert!((force[0] - (1.0 + 0.4 * 0.01)).abs() < 1e-9);
//! assert!((force[1] - 2.0 * force[0]).abs() < 1e-12);
//! ```
//!
//! Contacts that slide in a plane (two tangential slip components, a node of
//! a 3-D finite-element contact) have the same contract in [`planar`].
//!
//! # How each model is updated
//!
//! Every update is stable for any `dt > 0`: explicit finite-element codes
//! take steps of nanoseconds, implicit ones of seconds.
//!
//! | models | update | accuracy against the ODE solution at constant v |
//! |---|---|---|
//! | static maps: `viscous`, `coulomb_sat`, `coulomb_tanh`, `power_viscous`, `stribeck_sat`, `stribeck_tanh`, `magic_formula`, `bliman_tire` | `F(v)` at the step's velocity | exact |
//! | set-valued: `coulomb`, `coulomb_viscous`, `stribeck`, `stribeck_exp`, `table`, `classical`, `karnopp`, `freewheel` | the sliding force `F(v)` at the step's velocity; for a zero slip increment (`v = 0` exactly) the model's rest value, 0: the caller owns stick (it knows the forces that hold the contact; the maximum static force is [`FrictionModel::max_static`]) | exact while sliding |
//! | hysteresis operators: `maxwell_slip`, `jenkins`, `iwan4`, `iwan5`, `bristle` | slip set to `x + Δu`, memory updated by [`FrictionModel::accept`] (for `maxwell_slip` and `iwan4` fused with the force into one pass over the elements, the same to the bit) | exact (rate independent; the slip within a step is monotone) |
//! | `hess_soom` (time-delayed friction memory) | time and slip set to the step's end, history updated by `accept` once per step | the model's own discrete history, sampled once per step |
//! | `lugre` | exact exponential relaxation `z' = zss + (z - zss) exp(-σ0 |Δu| / g(v))`, `zss = sign(v) g(v)/σ0` | exact: 1e-15 after 1000 steps |
//! | `dahl` with exponent 1 | exact `F' = Fss + (F - Fss) exp(-σ0 |Δu| / Fc)`, `Fss = sign(v) Fc` | exact |
//! | `dankowicz` | exact `z' = zss + (z - zss) exp(-|Δu| / δ)`, `zss = sign(v) δ` | exact |
//! | every other model with continuous states: `dahl` (exponent != 1), `stribeck_dankowicz`, `elasto_plastic`, `bouc_wen`, `bliman_sorine`, `friction_lag`, `rate_state`, `leuven`, `gms`, `armstrong`, `reset_integrator`, and the wrappers `stochastic`, `meta_coulomb` around a stateful model | generic: sub-stepped, extrapolated backward Euler (L-stable, second order) on a finite-difference Jacobian, see [`implicit`] | local error per sub-step below `1e-6` of the state (plus `1e-15` absolute); see below |
//!
//! Measured along a loop 0 → 1 mm → -1 mm → 1 mm at 1 cm/s in 1 ms steps
//! (default parameters), the largest force error against RK4 with 10,000
//! sub-steps per step, relative to the largest force of the loop: `lugre`,
//! `dahl`, `dankowicz` below 1e-12 (the reference's own error);
//! `stribeck_dankowicz`, `elasto_plastic`, `bouc_wen`, `bliman_sorine`,
//! `friction_lag`, `rate_state`, `leuven`, `stochastic`, `meta_coulomb`
//! 1e-7 to 9e-7; `reset_integrator` 1.7e-5 and `gms` 4e-5, limited by the
//! reference's overshoot at their kinks; `armstrong` 6.8e-6, the
//! reference's own error (6.8e-7 against RK4 with 100,000 sub-steps; its
//! break-away located at its instant within the step, its stop at the
//! step's start, where the velocity changes: see `break_away`). When the
//! slip velocity varies within a step (a ramp), the update takes the step's
//! mean velocity: the states converge as `dt²`, the force (through its
//! velocity terms) as `dt`.
//!
//! Wrappers without continuous states (`meta_coulomb` around a static map)
//! are updated like their family. [`method`] tells which update a model gets.
//!
//! # Speed
//! The contact loop allocates nothing and is monomorphised: the model's
//! [`AnyModel`] variant is matched once per call, and a generic loop runs
//! over the contacts for that concrete model type. LuGre with the
//! exponential Stribeck curve (exponent 2 or 1) runs a vectorised kernel
//! (blocks of contacts, a polynomial `exp`, AVX2 + FMA when the CPU has them;
//! see `lugre_batch`), equal to the per-contact update up to rounding. The generic implicit
//! update allocates one work buffer per call (per chunk in [`update_par`]).
//! [`update_par`] spreads chunks of contacts over rayon's thread pool.

mod break_away;
pub(crate) mod exact;
pub mod implicit;
mod inputs;
pub mod layout;
mod lugre_batch;
pub mod planar;
mod slider_batch;
pub mod tangent;

pub use layout::Layout;
pub use tangent::update_tangent;
#[cfg(feature = "rayon")]
pub use tangent::update_tangent_par;

use thiserror::Error;

use crate::model::{FrictionModel, Input};
use crate::registry::AnyModel;
use exact::{DahlExact, DankowiczExact, Direct, LuGreExact};
use implicit::{Implicit, Switch};
use layout::Z;

/// Everything that can go wrong in [`init`] and [`update`]. Nothing is
/// changed when the arguments are refused.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum UpdateError {
    /// A slice of the wrong length.
    #[error("`{argument}` has {len} values, expected {expected} ({n} contacts{per})")]
    Length {
        /// Which argument.
        argument: &'static str,
        /// Its length.
        len: usize,
        /// The length it must have.
        expected: usize,
        /// Number of contacts (the length of `slip_increment`).
        n: usize,
        /// `" × state_len = ..."` for the state, empty otherwise.
        per: String,
    },
    /// The step length is not finite or not positive.
    #[error("`dt` = {dt} is invalid: the step length must be finite and > 0")]
    Step {
        /// The step length given.
        dt: f64,
    },
    /// A slip increment or normal load that is NaN or infinite, or a slip
    /// velocity `slip_increment / dt` that overflows.
    #[error("contact {contact}: `{argument}` = {value} is not finite")]
    NonFinite {
        /// Contact index.
        contact: usize,
        /// Which argument.
        argument: &'static str,
        /// The value.
        value: f64,
    },
    /// A negative normal load.
    #[error("contact {contact}: `normal` = {value} is negative; valid range [0, inf)")]
    NegativeNormal {
        /// Contact index.
        contact: usize,
        /// The value.
        value: f64,
    },
    /// The generic implicit update could not advance some contacts (a
    /// state equation gave non-finite rates, or needed more than
    /// [`implicit::MAX_SUBSTEPS`] sub-steps). Every other contact was
    /// advanced over the step and its force written; each failing contact
    /// keeps its state as it was on entry, and its force is set to NaN. The
    /// same in the serial and the parallel update. An FE code that cuts the
    /// increment back restores its own copy of the states, as for any other
    /// failure.
    #[error(
        "model `{model}`, contact {contact}: the state update did not converge at t = {t} within the step \
         dt = {dt} ({failed} contact(s) failed; they keep their states from before the step and their \
         forces are NaN; every other contact was advanced)"
    )]
    NoConvergence {
        /// Model id.
        model: &'static str,
        /// The first failing contact's index.
        contact: usize,
        /// That contact's time where its sub-steps stopped.
        t: f64,
        /// The step length.
        dt: f64,
        /// How many contacts failed.
        failed: usize,
    },
    /// A tangent was asked of an update that has none. Nothing is changed.
    /// No update of this version returns it (`bouc_wen`'s 2-D update, which
    /// did, has its tangent); kept for callers that match on it.
    #[error("model `{model}`: the update has no consistent tangent: {reason}")]
    NoTangent {
        /// Model id.
        model: &'static str,
        /// Why.
        reason: &'static str,
    },
    /// The model has no isotropic form in two tangential directions
    /// ([`planar`]).
    #[error("model `{model}` has no 2-D (two tangential directions) form: {reason}")]
    NoPlanarForm {
        /// Model id.
        model: &'static str,
        /// Why.
        reason: &'static str,
    },
}

/// How [`update`] advances a model's contacts (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// No continuous state: static maps, set-valued friction, hysteresis
    /// operators; the force at the step's end and `accept`. Exact.
    Direct,
    /// A closed-form solution of the state equation at constant velocity.
    Exact,
    /// The generic sub-stepped L-stable implicit update ([`implicit`]).
    Implicit,
}

impl Method {
    /// Short lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            Method::Direct => "direct",
            Method::Exact => "exact",
            Method::Implicit => "implicit",
        }
    }
}

/// The update [`update`] uses for `m`.
pub fn method(m: &AnyModel) -> Method {
    match m {
        AnyModel::LuGre(_) | AnyModel::Dankowicz(_) => Method::Exact,
        AnyModel::Dahl(d) if d.params().exponent == 1.0 => Method::Exact,
        _ if m.n_states() == 0 => Method::Direct,
        _ => Method::Implicit,
    }
}

/// Doubles of state per contact: `2 + n_states + n_memory` (see [`layout`]).
pub fn state_len(m: &AnyModel) -> usize {
    Layout::of(m).len()
}

/// Relaxed initial states at rest (`t = 0`, `x = 0`, `v = 0`) for
/// `state.len() / state_len(m)` contacts.
///
/// ```
/// use friction_models::{build, ParamMap};
/// let m = build("jenkins", &ParamMap::new()).unwrap();
/// let mut s = vec![f64::NAN; 3 * friction_models::update::state_len(&m)];
/// friction_models::update::init(&m, &mut s).unwrap();
/// assert!(s.iter().all(|&v| v == 0.0));
/// assert!(friction_models::update::init(&m, &mut s[..5]).is_err());
/// ```
pub fn init(m: &AnyModel, state: &mut [f64]) -> Result<(), UpdateError> {
    let l = Layout::of(m);
    let len = l.len();
    if !state.len().is_multiple_of(len) {
        return Err(UpdateError::Length {
            argument: "state",
            len: state.len(),
            expected: state.len() / len * len,
            n: state.len() / len,
            per: format!(" × state_len = {len}, a multiple of {len}"),
        });
    }
    let rest = Input::new(0.0, 0.0, 0.0);
    for st in state.chunks_exact_mut(len) {
        st.fill(0.0);
        let (z, mem) = st[Z..].split_at_mut(l.n_states);
        m.init(&rest, z, mem);
    }
    Ok(())
}

/// Advance `n = slip_increment.len()` contacts over one step of length `dt`
/// (see the module documentation), writing the end-of-step forces
/// `normal[i] · F` into `force`.
///
/// `normal` and `force` have `n` values, `state` `n · state_len(m)`.
/// Arguments are checked before anything is changed: a length mismatch, a
/// non-finite or non-positive `dt`, a non-finite slip increment or normal
/// load, or a negative normal load is refused with an [`UpdateError`]
/// naming the contact, the argument and the value.
///
/// ```
/// use friction_models::{build, ParamMap};
/// use friction_models::update::{init, update, UpdateError};
/// let m = build("coulomb", &ParamMap::new()).unwrap();
/// let mut s = [0.0; 4];
/// init(&m, &mut s).unwrap();
/// let mut f = [0.0; 2];
/// update(&m, 1e-3, &[1e-6, -1e-6], &[10.0, 10.0], &mut s, &mut f).unwrap();
/// assert_eq!(f, [10.0, -10.0]);
/// let e = update(&m, 1e-3, &[1e-6, 0.0], &[10.0, -1.0], &mut s, &mut f).unwrap_err();
/// assert_eq!(e, UpdateError::NegativeNormal { contact: 1, value: -1.0 });
/// ```
pub fn update(
    m: &AnyModel,
    dt: f64,
    slip_increment: &[f64],
    normal: &[f64],
    state: &mut [f64],
    force: &mut [f64],
) -> Result<(), UpdateError> {
    let a = Args::checked(m, dt, slip_increment, normal, state, force, false)?;
    dispatch(m, a, false)
}

/// [`update`] with the contacts spread over rayon's thread pool in chunks;
/// the same results, bit for bit.
#[cfg(feature = "rayon")]
pub fn update_par(
    m: &AnyModel,
    dt: f64,
    slip_increment: &[f64],
    normal: &[f64],
    state: &mut [f64],
    force: &mut [f64],
) -> Result<(), UpdateError> {
    let a = Args::checked(m, dt, slip_increment, normal, state, force, true)?;
    dispatch(m, a, true)
}

/// A failed step of one contact, at the contact's time `t`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StepFailure {
    pub t: f64,
}

/// One way to advance one contact over one step; monomorphised per model.
pub(crate) trait Stepper: Sync {
    /// Work space, created once per call (or chunk).
    type Scratch;
    /// A fresh work space.
    fn scratch(&self) -> Self::Scratch;
    /// Advance one contact's state `st` by `dt` and slip `du`; the model's
    /// force `F`. On failure `st` is left as it was on entry.
    fn step(&self, s: &mut Self::Scratch, dt: f64, du: f64, st: &mut [f64]) -> Result<f64, StepFailure>;
}

/// The checked arguments of one update.
struct Args<'a> {
    dt: f64,
    du: &'a [f64],
    normal: &'a [f64],
    state: &'a mut [f64],
    force: &'a mut [f64],
    len: usize,
    model: &'static str,
}

impl<'a> Args<'a> {
    fn checked(
        m: &AnyModel,
        dt: f64,
        du: &'a [f64],
        normal: &'a [f64],
        state: &'a mut [f64],
        force: &'a mut [f64],
        par: bool,
    ) -> Result<Self, UpdateError> {
        let n = du.len();
        let len = state_len(m);
        let length = |argument, got: usize, expected, per: String| {
            if got == expected {
                Ok(())
            } else {
                Err(UpdateError::Length { argument, len: got, expected, n, per })
            }
        };
        length("normal", normal.len(), n, String::new())?;
        length("force", force.len(), n, String::new())?;
        length("state", state.len(), n * len, format!(" × state_len {len}"))?;
        inputs::check_motion::<1>(dt, du, normal, par)?;
        Ok(Args { dt, du, normal, state, force, len, model: m.info().id })
    }
}

/// Match the model's variant once, then run the monomorphised loop.
fn dispatch(m: &AnyModel, a: Args<'_>, par: bool) -> Result<(), UpdateError> {
    macro_rules! generic {
        ($x:expr) => {{
            let l = Layout::of($x);
            if l.n_states == 0 {
                run(&Direct { m: $x, n_memory: l.n_memory }, a, par)
            } else {
                run(&Implicit { m: $x, l, switch: None }, a, par)
            }
        }};
    }
    use AnyModel as A;
    match m {
        A::LuGre(x) => match lugre_batch::Kernel::new(x) {
            Some(k) => run_slices(a, par, |dt, du, normal, state, force| {
                k.run(dt, du, normal, state, force);
                Ok(())
            }),
            None => run(&LuGreExact::new(x), a, par),
        },
        A::Dankowicz(x) => run(&DankowiczExact(x), a, par),
        A::Dahl(x) if x.params().exponent == 1.0 => run(&DahlExact(x), a, par),
        A::Dahl(x) => generic!(x),
        A::Coulomb(x) => generic!(x),
        A::Viscous(x) => generic!(x),
        A::CoulombViscous(x) => generic!(x),
        A::PowerViscous(x) => generic!(x),
        A::CoulombSat(x) => generic!(x),
        A::CoulombTanh(x) => generic!(x),
        A::Stribeck(x) => generic!(x),
        A::StribeckSat(x) => generic!(x),
        A::StribeckTanh(x) => generic!(x),
        A::StribeckExp(x) => generic!(x),
        A::Table(x) => generic!(x),
        A::Classical(x) => generic!(x),
        A::Karnopp(x) => generic!(x),
        A::Freewheel(x) => generic!(x),
        A::StribeckDankowicz(x) => generic!(x),
        A::ElastoPlastic(x) => generic!(x),
        A::BoucWen(x) => generic!(x),
        A::BlimanSorine(x) => generic!(x),
        A::FrictionLag(x) => generic!(x),
        A::RateState(x) => generic!(x),
        A::Leuven(x) => generic!(x),
        A::Gms(x) => {
            let switch =
                |end: &Input, dt: f64, za: &[f64], z: &mut [f64], mem: &[f64], s: Option<&mut [f64]>| {
                    x.return_to_slip(end, dt, za, z, mem, s)
                };
            run(&Implicit { m: x, l: Layout::of(x), switch: Some(Switch::Surface(&switch)) }, a, par)
        }
        A::Armstrong(x) => run(&Implicit { m: x, l: Layout::of(x), switch: Some(Switch::Event(x)) }, a, par),
        A::MaxwellSlip(x) => sliders(x.sliders(), a, par),
        A::Jenkins(x) => generic!(x),
        A::Iwan4(x) => sliders(x.sliders(), a, par),
        A::Iwan5(x) => generic!(x),
        A::ResetIntegrator(x) => generic!(x),
        A::Bristle(x) => generic!(x),
        A::HessSoom(x) => generic!(x),
        A::MagicFormula(x) => generic!(x),
        A::BlimanTire(x) => generic!(x),
        A::Stochastic(x) => generic!(x),
        A::MetaCoulomb(x) => generic!(x),
    }
}

/// State values per chunk in [`update_par`] (2,048 contacts of three
/// values: LuGre): chunks of a size in memory rather than in contacts, so
/// that contacts with many states (Iwan-4 with 100 elements: 103 values)
/// still make enough chunks to share between the threads (10^4 of them made
/// 5 chunks of 2,048, three on one thread and two on the other).
#[cfg(feature = "rayon")]
const CHUNK_VALUES: usize = 6144;

/// The spring-slider kernel ([`slider_batch`]) over all contacts.
fn sliders(sl: &crate::sliders::Sliders, a: Args<'_>, par: bool) -> Result<(), UpdateError> {
    run_slices(a, par, |dt, du, normal, state, force| {
        slider_batch::run(sl, dt, du, normal, state, force);
        Ok(())
    })
}

fn run<S: Stepper>(s: &S, a: Args<'_>, par: bool) -> Result<(), UpdateError> {
    let len = a.len;
    run_slices(a, par, |dt, du, normal, state, force| update_slice(s, dt, du, normal, state, force, len))
}

/// The first failing contact of a slice (its index in the slice), its
/// time, and how many contacts of the slice failed.
type SliceFailure = (usize, f64, usize);

/// Run `slice` over all contacts, or over chunks of [`CHUNK_VALUES`] state
/// values on rayon's pool when `par`; `slice` advances every contact it can
/// and returns the failures (see [`UpdateError::NoConvergence`]): the same
/// states, forces and error either way.
fn run_slices<F>(a: Args<'_>, par: bool, slice: F) -> Result<(), UpdateError>
where
    F: Fn(f64, &[f64], &[f64], &mut [f64], &mut [f64]) -> Result<(), SliceFailure> + Sync,
{
    let (dt, model) = (a.dt, a.model);
    let error =
        |(contact, t, failed): SliceFailure| UpdateError::NoConvergence { model, contact, t, dt, failed };
    #[cfg(feature = "rayon")]
    if par {
        use rayon::prelude::*;
        let len = a.len;
        let chunk = (CHUNK_VALUES / len.max(1)).max(16);
        // every chunk runs to its end; the failures are merged (the lowest
        // failing contact, the total count), whatever the threads' order
        let failure = a
            .state
            .par_chunks_mut(chunk * len.max(1))
            .zip(a.force.par_chunks_mut(chunk))
            .enumerate()
            .filter_map(|(c, (state, force))| {
                let lo = c * chunk;
                let hi = lo + force.len();
                slice(dt, &a.du[lo..hi], &a.normal[lo..hi], state, force)
                    .err()
                    .map(|(i, t, n)| (lo + i, t, n))
            })
            .reduce_with(|x, y| {
                let first = if x.0 <= y.0 { x } else { y };
                (first.0, first.1, x.2 + y.2)
            });
        return failure.map_or(Ok(()), |f| Err(error(f)));
    }
    let _ = par;
    slice(a.dt, a.du, a.normal, a.state, a.force).map_err(error)
}

/// The contact loop for one concrete stepper; allocates only the stepper's
/// work space, once.
#[inline]
fn update_slice<S: Stepper>(
    s: &S,
    dt: f64,
    du: &[f64],
    normal: &[f64],
    state: &mut [f64],
    force: &mut [f64],
    len: usize,
) -> Result<(), SliceFailure> {
    let mut work = s.scratch();
    let mut failure: Option<SliceFailure> = None;
    for (i, ((st, f), (&u, &nf))) in
        state.chunks_exact_mut(len).zip(force.iter_mut()).zip(du.iter().zip(normal)).enumerate()
    {
        match s.step(&mut work, dt, u, st) {
            Ok(fm) => *f = nf * fm,
            // the stepper leaves a failing contact's state as it was
            Err(e) => {
                *f = f64::NAN;
                failure = Some(failure.map_or((i, e.t, 1), |(j, t, n)| (j, t, n + 1)));
            }
        }
    }
    failure.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests;

//! The algorithmic consistent tangent of the 1-D update: the derivative of
//! each contact's returned force with respect to this step's slip increment
//! and normal load, the state at the start of the step held fixed — what an
//! implicit finite-element code needs in its Newton iteration (Abaqus/Standard
//! FRIC's `DDTDDG` and `DDTDDP`).
//!
//! [`update_tangent`] writes the same states and forces as [`update`](super::update),
//! bit for bit (it runs the plain update), and beside them
//!
//! ```text
//! dforce_dslip[i]   = d force[i] / d slip_increment[i] = normal[i] · dF/dΔu
//! dforce_dnormal[i] = d force[i] / d normal[i]         = F
//! ```
//!
//! No model's state depends on the normal load (the update passes the model
//! only the slip; `force = normal · F`), so `dforce_dnormal` is the model's
//! force `F` itself, computed by the per-contact update (for LuGre with the
//! exponential Stribeck curve the plain update uses a vectorised kernel whose
//! `exp` differs from libm's by up to 2 ulp: `dforce_dnormal` then equals
//! `force / normal` to rounding).
//!
//! # The tangent of each update
//! All analytical (from the models' own partial derivatives,
//! [`FrictionModel::partials`]), none a difference of the update:
//!
//! | models | tangent `dF/dΔu` |
//! |---|---|
//! | static maps | `(∂F/∂v)(v) / dt` (+ `∂F/∂x`) at the step's velocity `v = Δu/dt` |
//! | set-valued (`coulomb`, `stribeck`, ...) | while sliding (`Δu != 0`) the derivative of the sliding force `(∂F/∂v)/dt` (0 for `coulomb`: the jump at `v = 0` is the caller's stick); for a zero increment 0, the derivative of the rest value: the stick stiffness is the caller's (a penalty) |
//! | hysteresis operators (`jenkins`, `iwan4`, `iwan5`, `maxwell_slip`, `bristle`) and `hess_soom` | `∂F/∂x` with the memory at the start of the step: the return-mapping tangent, each element's stiffness `k` while it sticks over the step, 0 for an element that slips (Simo & Hughes 1998, Computational Inelasticity, ch. 1; Wriggers 2006, Computational Contact Mechanics, ch. 5). For a zero increment the same partial derivative: an element left exactly at its slip limit by the last step counts as sticking or sliding as the model's test of its memory decides (for spring-slider elements as the rounding of the last slip left it), a value between the loading (continued slip) and the unloading (elastic) tangents; `hess_soom`'s force jumps at rest (the sign of its delayed velocity), and it returns 0 there as the set-valued models do |
//! | `lugre`, `dahl` (exponent 1), `dankowicz` | the derivative of the exact exponential update (below) |
//! | every other model with continuous states | forward sensitivity of the sub-stepped backward-Euler update ([`super::implicit`]) |
//!
//! The exact updates relax `z' = zss + (z - zss) e`, `zss = s A`,
//! `e = exp(-|Δu| / L)`, `s = sign(Δu)` (LuGre: `A = L = g(v)/σ0`; Dahl:
//! `A = Fc`, `L = Fc/σ0`; Dankowicz: `A = L = δ`), so
//!
//! ```text
//! dz'/dΔu = s A' (1 - e) + (z - s A) e (-s/L + |Δu| L'/L²),   A' = dA/dΔu, L' = dL/dΔu = (dL/dv)/dt
//! dF/dΔu  = ∂F/∂z dz'/dΔu + ∂F/∂x + (∂F/∂v)/dt               (partials at the end of the step)
//! ```
//!
//! At a zero increment the update is not differentiable (the `|Δu|` in the
//! relaxation): the tangent returned is the mean of the two one-sided
//! derivatives, `dz'/dΔu = A/L` (the bristle's elastic stick, `σ0` for
//! LuGre's force) and `∂F/∂v` the mean of its values at `v = ±0`.
//!
//! The generic implicit update carries `S = dz/dΔu` through its accepted
//! sub-steps: each backward-Euler solution `w = z + h g(t + h, x + v h, w, v)`
//! gives `(I - h ∂g/∂z) S_w = S_z + h (∂g/∂x dx/dΔu + ∂g/∂v / dt)` with the
//! partials at `w`, the Richardson extrapolation `2 z2 - z1` gives
//! `2 S2 - S1`, and finally `dF/dΔu = ∂F/∂z S + ∂F/∂x + (∂F/∂v)/dt`. This is
//! the derivative of the algorithm with its sequence of sub-steps held (the
//! sub-step lengths are piecewise constant in `Δu`); memory changed by
//! [`FrictionModel::accept`] (mode switches) is held as a discrete event,
//! except `armstrong`'s break-away (below).
//! A state that `accept` sets (the reset integrator's stop at `±z0`) gets
//! sensitivity 0 there.
//!
//! A `gms` element that reaches its slip force `α_i g(v)` within a sub-step
//! switches the branch of its state equation (its rate falls from `v` to
//! the slip law's, 0 on the slip surface `k_i z_i = α_i g(v) sign(v)`): the
//! update returns it to that surface at the sub-step's end (where the exact
//! motion stays, instead of leaving it past the surface by up to `v h`, an
//! overshoot that moved with the sub-steps rather than with `Δu`), and its
//! sensitivity jumps as the forward sensitivity of a switched system does,
//! `S⁺ = S⁻ + (g⁻ - g⁺) dτ*/dΔu` at the crossing time `τ*` (Hiskens & Pai
//! 2000, IEEE Trans. Circuits Syst. I 47(2)), which leaves
//! `S⁺ = α_i sign(v) g'(v) / (k_i dt)`, the derivative of the slip force the
//! element then holds. In a step with a switch the tangent is then the
//! derivative of the whole update (its differences move the switch with
//! `Δu`); at the increment that brings an element exactly to its slip force
//! at the end of the step the update has a kink, and the tangent is one of
//! its one-sided derivatives (tested). At a zero increment the implicit models' tangent is
//! taken with the models' partials at `v = 0` as they define them.
//!
//! An `armstrong` contact that breaks away (stick to slide) within a
//! sub-step does so at the instant `t*` its spring's force `σ0 (x - xa)`
//! reaches the break-away level `Fc + Fs(γ, td)` (rising with the dwell
//! time), located by Newton's method, and its slide keeps the stiction
//! `Fs(γ, t* - t_stick)` of that instant, not of the sub-step's end (an
//! instant that moved with the step-size control, not with `Δu`); a stop
//! is recorded at the step's start, where the velocity changes. Its lagged
//! velocity is continuous there (no saltation of the state), and the
//! tangent carries the memory's jump: `dFs/dΔu` through `dt*/dΔu` from
//! `ψ(t*) = 0` (see `break_away`), and the final partials are taken with
//! the memory the break-away left. In steps with a break-away the tangent
//! is then the derivative of the whole update (measured against its central
//! differences at 153 random steps with a break-away, from rest or after a
//! reversal: within 3.0e-5 of the larger of the differences and `1e-6 σ0`,
//! the lagged velocity's own integration error; 7.6e-10 without lag; 2.2e-2
//! of `σ0` and up to 5.4 times the sliding tangent before). At the
//! increment that brings the contact to the threshold exactly at the step's
//! end the force jumps, from the spring's `Fc + Fs` to the sliding level
//! `(Fc + Fs L(w)) sign(v) + kv v` (unless `kv |v| = Fs (1 - L(w))`): no
//! derivative exists there, and on either side the tangent is the
//! one-sided derivative (tested).
//!
//! # Limits
//! - `bristle`'s bonds snap and re-form at seeded random places: the force
//!   jumps there and has no derivative. Between jumps, in steps with snaps
//!   or without, the force is `Σ σ0 (x - b_i)` and the tangent `N σ0` is its
//!   derivative (tested against central differences over windows with no
//!   snap: within 1e-6 and the rounding of the differences).
//!
//! # Cost
//! The tangent pass runs before the plain update, from the states at the
//! start of the step, on a copy of one contact's state at a time (one work
//! buffer per call or chunk, nothing per contact). It repeats the step's
//! arithmetic: about twice the plain update for direct and exact models, and
//! two to three times for the implicit ones (the sub-steps with their
//! sensitivities).
//!
//! ```
//! use friction_models::{build, ParamMap};
//! use friction_models::update::{init, state_len, update_tangent};
//! let m = build("jenkins", &ParamMap::new()).unwrap(); // kt = 1e5, fs = 1
//! let mut s = vec![0.0; 2 * state_len(&m)];
//! init(&m, &mut s).unwrap();
//! let (mut f, mut k, mut dn) = ([0.0; 2], [0.0; 2], [0.0; 2]);
//! // the first contact sticks (kt · 1 µm = 0.1 < fs), the second slips
//! update_tangent(&m, 1e-3, &[1e-6, 1e-4], &[2.0, 2.0], &mut s, &mut f, Some(&mut k), Some(&mut dn))
//!     .unwrap();
//! assert_eq!(k, [2.0 * 1e5, 0.0]);
//! assert_eq!(dn, [f[0] / 2.0, f[1] / 2.0]);
//! ```

use super::exact::{DahlExact, DankowiczExact, Direct, LuGreExact};
use super::implicit::{Implicit, Sens, Switch, Work};
use super::layout::{Layout, T, X, Z};
use super::{dispatch, Args, StepFailure, Stepper, UpdateError};
use crate::model::partials::Partials;
use crate::model::{sign, Family, FrictionModel, Input};
use crate::models::{dahl::Dahl, dankowicz::Dankowicz, lugre::LuGre};
use crate::registry::AnyModel;

/// [`update`](super::update), and the tangent of every contact's force (see
/// the module documentation): `dforce_dslip[i] = d force[i]/d
/// slip_increment[i]` and `dforce_dnormal[i] = d force[i]/d normal[i]`, each
/// of `n` values, `None` when not wanted. The states and forces written are
/// those of [`update`](super::update), bit for bit.
///
/// Errors as [`update`](super::update), and a tangent slice whose length is
/// not `n` is refused with [`UpdateError::Length`] naming it. A contact
/// whose implicit update fails gets NaN forces and tangents (see
/// [`UpdateError::NoConvergence`]).
#[allow(clippy::too_many_arguments)]
pub fn update_tangent(
    m: &AnyModel,
    dt: f64,
    slip_increment: &[f64],
    normal: &[f64],
    state: &mut [f64],
    force: &mut [f64],
    dforce_dslip: Option<&mut [f64]>,
    dforce_dnormal: Option<&mut [f64]>,
) -> Result<(), UpdateError> {
    with_tangent(m, dt, slip_increment, normal, state, force, dforce_dslip, dforce_dnormal, false)
}

/// [`update_tangent`] with the contacts spread over rayon's thread pool in
/// chunks; the same results, bit for bit.
#[cfg(feature = "rayon")]
#[allow(clippy::too_many_arguments)]
pub fn update_tangent_par(
    m: &AnyModel,
    dt: f64,
    slip_increment: &[f64],
    normal: &[f64],
    state: &mut [f64],
    force: &mut [f64],
    dforce_dslip: Option<&mut [f64]>,
    dforce_dnormal: Option<&mut [f64]>,
) -> Result<(), UpdateError> {
    with_tangent(m, dt, slip_increment, normal, state, force, dforce_dslip, dforce_dnormal, true)
}

/// Check a tangent output's length: `per` values per contact.
pub(crate) fn check_out(
    argument: &'static str,
    out: &Option<&mut [f64]>,
    n: usize,
    per: usize,
) -> Result<(), UpdateError> {
    match out {
        Some(o) if o.len() != per * n => Err(UpdateError::Length {
            argument,
            len: o.len(),
            expected: per * n,
            n,
            per: if per == 1 { String::new() } else { format!(" × {per}") },
        }),
        _ => Ok(()),
    }
}

#[allow(clippy::too_many_arguments)]
fn with_tangent(
    m: &AnyModel,
    dt: f64,
    du: &[f64],
    normal: &[f64],
    state: &mut [f64],
    force: &mut [f64],
    dfds: Option<&mut [f64]>,
    dfdn: Option<&mut [f64]>,
    par: bool,
) -> Result<(), UpdateError> {
    let n = du.len();
    check_out("dforce_dslip", &dfds, n, 1)?;
    check_out("dforce_dnormal", &dfdn, n, 1)?;
    let a = Args::checked(m, dt, du, normal, state, force, par)?;
    if dfds.is_some() || dfdn.is_some() {
        let out = Out { dt, du, normal, state: &*a.state, len: a.len, dfds, dfdn };
        tangent_dispatch(m, out, par);
    }
    dispatch(m, a, par)
}

/// F and dF/dΔu of one contact, from its state at the start of the step
/// (left unchanged); monomorphised per model.
trait Tangent: Sync {
    /// Work space, created once per call (or chunk).
    type Scratch;
    /// A fresh work space.
    fn scratch(&self) -> Self::Scratch;
    /// The model's force at the end of the step and its derivative with
    /// respect to the slip increment.
    fn tangent(&self, s: &mut Self::Scratch, dt: f64, du: f64, st: &[f64])
        -> Result<(f64, f64), StepFailure>;
}

/// The tangent pass's inputs and outputs.
struct Out<'a> {
    dt: f64,
    du: &'a [f64],
    normal: &'a [f64],
    state: &'a [f64],
    len: usize,
    dfds: Option<&'a mut [f64]>,
    dfdn: Option<&'a mut [f64]>,
}

/// Models without continuous states: the partials at the end of the step
/// with the memory of its start.
struct DirectT<'a, M> {
    m: &'a M,
    l: Layout,
    set_valued: bool,
}

impl<M: FrictionModel + Sync> Tangent for DirectT<'_, M> {
    type Scratch = (Vec<f64>, Partials);
    fn scratch(&self) -> Self::Scratch {
        (vec![0.0; self.l.len()], Partials::new(0))
    }
    fn tangent(
        &self,
        s: &mut Self::Scratch,
        dt: f64,
        du: f64,
        st: &[f64],
    ) -> Result<(f64, f64), StepFailure> {
        let (buf, p) = s;
        buf.copy_from_slice(st);
        let f = Direct { m: self.m, n_memory: self.l.n_memory }.step(&mut (), dt, du, buf)?;
        let mem = &st[self.l.mem()];
        let (t, x) = (st[T] + dt, st[X] + du);
        if du != 0.0 {
            self.m.partials(&Input::new(t, x, du / dt), &[], mem, p);
            return Ok((f, p.df_dx + p.df_dv / dt));
        }
        if self.set_valued {
            return Ok((f, 0.0));
        }
        // the mean of the one-sided derivatives at v = ±0
        self.m.partials(&Input::new(t, x, 0.0), &[], mem, p);
        let (dx, dv) = (p.df_dx, p.df_dv);
        self.m.partials(&Input::new(t, x, -0.0), &[], mem, p);
        Ok((f, 0.5 * (dx + p.df_dx) + 0.5 * (dv + p.df_dv) / dt))
    }
}

/// The three models with an exact exponential update.
enum Relaxing<'a> {
    LuGre(LuGreExact<'a>, &'a LuGre),
    Dahl(&'a Dahl),
    Dankowicz(&'a Dankowicz),
}

impl Relaxing<'_> {
    /// `A`, `L` and their derivatives with respect to `Δu` (see the module
    /// documentation).
    fn lengths(&self, v: f64, dt: f64) -> (f64, f64, f64, f64) {
        match self {
            Relaxing::LuGre(_, m) => {
                let p = m.params();
                let l = m.g(v) / p.sigma0;
                let dl = (p.fs - p.fc) * p.shape.dphi(v, p.vs) / (p.sigma0 * dt);
                (l, l, dl, dl)
            }
            Relaxing::Dahl(m) => (m.params().fc, m.params().fc / m.params().sigma0, 0.0, 0.0),
            Relaxing::Dankowicz(m) => (m.params().delta, m.params().delta, 0.0, 0.0),
        }
    }
}

impl Tangent for Relaxing<'_> {
    type Scratch = ([f64; 3], Partials);
    fn scratch(&self) -> Self::Scratch {
        ([0.0; 3], Partials::new(1))
    }
    fn tangent(
        &self,
        s: &mut Self::Scratch,
        dt: f64,
        du: f64,
        st: &[f64],
    ) -> Result<(f64, f64), StepFailure> {
        let (buf, p) = s;
        buf.copy_from_slice(&st[..3]);
        let f = match self {
            Relaxing::LuGre(e, _) => e.step(&mut (), dt, du, buf)?,
            Relaxing::Dahl(m) => DahlExact(m).step(&mut (), dt, du, buf)?,
            Relaxing::Dankowicz(m) => DankowiczExact(m).step(&mut (), dt, du, buf)?,
        };
        let v = du / dt;
        let (z, zn) = (st[Z], buf[Z]);
        let (a, l, da, dl) = self.lengths(v, dt);
        let end = Input::new(buf[T], buf[X], v);
        let m: &dyn FrictionModel = match self {
            Relaxing::LuGre(_, m) => *m,
            Relaxing::Dahl(m) => *m,
            Relaxing::Dankowicz(m) => *m,
        };
        m.partials(&end, &[zn], &[], p);
        let (dfdz, dfdx) = (p.df_dz[0], p.df_dx);
        let (dz, dfdv) = if du != 0.0 {
            let s = sign(du);
            let e = (-du.abs() / l).exp();
            (s * da * (1.0 - e) + (z - s * a) * e * (-s / l + du.abs() * dl / (l * l)), p.df_dv)
        } else {
            let dv = p.df_dv;
            m.partials(&Input::new(buf[T], buf[X], -0.0), &[zn], &[], p);
            (a / l, 0.5 * (dv + p.df_dv))
        };
        Ok((f, dfdz * dz + dfdx + dfdv / dt))
    }
}

/// The generic implicit update with its forward sensitivity.
struct ImplicitT<'a, M>(Implicit<'a, M>);

impl<M: FrictionModel + Sync> Tangent for ImplicitT<'_, M> {
    type Scratch = (Work, Sens, Vec<f64>);
    fn scratch(&self) -> Self::Scratch {
        (self.0.scratch(), Sens::new(self.0.l), vec![0.0; self.0.l.len()])
    }
    fn tangent(
        &self,
        s: &mut Self::Scratch,
        dt: f64,
        du: f64,
        st: &[f64],
    ) -> Result<(f64, f64), StepFailure> {
        let (work, sens, buf) = s;
        buf.copy_from_slice(st);
        self.0.advance(work, dt, du, buf, Some(sens))
    }
}

/// Match the model's variant once, then run the monomorphised tangent pass.
fn tangent_dispatch(m: &AnyModel, o: Out<'_>, par: bool) {
    macro_rules! generic {
        ($x:expr) => {{
            let l = Layout::of($x);
            if l.n_states == 0 {
                let set_valued = $x.info().family == Family::SetValued;
                run(&DirectT { m: $x, l, set_valued }, o, par)
            } else {
                run(&ImplicitT(Implicit { m: $x, l, switch: None }), o, par)
            }
        }};
    }
    use AnyModel as A;
    match m {
        A::LuGre(x) => run(&Relaxing::LuGre(LuGreExact::new(x), x), o, par),
        A::Dankowicz(x) => run(&Relaxing::Dankowicz(x), o, par),
        A::Dahl(x) if x.params().exponent == 1.0 => run(&Relaxing::Dahl(x), o, par),
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
            run(
                &ImplicitT(Implicit { m: x, l: Layout::of(x), switch: Some(Switch::Surface(&switch)) }),
                o,
                par,
            )
        }
        A::Armstrong(x) => {
            run(&ImplicitT(Implicit { m: x, l: Layout::of(x), switch: Some(Switch::Event(x)) }), o, par)
        }
        A::MaxwellSlip(x) => generic!(x),
        A::Jenkins(x) => generic!(x),
        A::Iwan4(x) => generic!(x),
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

/// One slice of contacts: writes `normal · dF/dΔu` and `F` (NaN for a
/// contact whose step fails).
#[allow(clippy::too_many_arguments)]
fn slice<S: Tangent>(
    s: &S,
    dt: f64,
    du: &[f64],
    normal: &[f64],
    state: &[f64],
    len: usize,
    mut dfds: Option<&mut [f64]>,
    mut dfdn: Option<&mut [f64]>,
) {
    let mut work = s.scratch();
    for (i, (st, (&u, &nf))) in state.chunks_exact(len).zip(du.iter().zip(normal)).enumerate() {
        let (f, d) = s.tangent(&mut work, dt, u, st).unwrap_or((f64::NAN, f64::NAN));
        if let Some(o) = dfds.as_deref_mut() {
            o[i] = nf * d;
        }
        if let Some(o) = dfdn.as_deref_mut() {
            o[i] = f;
        }
    }
}

/// `o` in chunks of `chunk` values (`n` chunks of `None` when absent).
#[cfg(feature = "rayon")]
pub(crate) fn split(o: Option<&mut [f64]>, chunk: usize, n: usize) -> Vec<Option<&mut [f64]>> {
    match o {
        Some(o) => o.chunks_mut(chunk).map(Some).collect(),
        None => (0..n).map(|_| None).collect(),
    }
}

fn run<S: Tangent>(s: &S, o: Out<'_>, par: bool) {
    let Out { dt, du, normal, state, len, dfds, dfdn } = o;
    #[cfg(feature = "rayon")]
    if par {
        use rayon::prelude::*;
        let chunk = (super::CHUNK_VALUES / len.max(1)).max(16);
        let n_chunks = du.len().div_ceil(chunk);
        let (a, b) = (split(dfds, chunk, n_chunks), split(dfdn, chunk, n_chunks));
        a.into_par_iter().zip(b).enumerate().for_each(|(c, (a, b))| {
            let lo = c * chunk;
            let hi = (lo + chunk).min(du.len());
            slice(s, dt, &du[lo..hi], &normal[lo..hi], &state[lo * len..hi * len], len, a, b);
        });
        return;
    }
    let _ = par;
    slice(s, dt, du, normal, state, len, dfds, dfdn);
}

#[cfg(test)]
mod tests;

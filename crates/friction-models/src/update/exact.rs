//! Closed-form updates: the exact solution of a model's state equation over
//! one step at constant slip velocity.
//!
//! For the three first-order models below the state relaxes exponentially,
//! in slip distance, to its steady value:
//!
//! ```text
//! LuGre:        z' = zss + (z - zss) exp(-σ0 |Δu| / g(v)),   zss = sign(v) g(v)/σ0
//! Dahl (i = 1): F' = Fss + (F - Fss) exp(-σ0 |Δu| / Fc),     Fss = sign(v) Fc
//! Dankowicz:    z' = zss + (z - zss) exp(-|Δu| / δ),          zss = sign(v) δ
//! ```
//!
//! (`exp(-σ0 |v| dt / g)` written with the slip increment `|Δu| = |v| dt`,
//! which the caller gives exactly.) The force is then the model's own force at
//! the end of the step, so it is exact up to rounding for any step length.

use super::layout::{T, X, Z};
use super::{StepFailure, Stepper};
use crate::model::{sign, FrictionModel, Input};
use crate::models::lugre::{self, LuGre};
use crate::models::{dahl::Dahl, dankowicz::Dankowicz};

/// `zss + (z - zss) exp(-|du| / length)`: exponential relaxation in slip.
#[inline(always)]
fn relax(z: f64, zss: f64, du: f64, length: f64) -> f64 {
    zss + (z - zss) * (-du.abs() / length).exp()
}

/// Advance `t` and `x`, returning the input at the end of the step.
#[inline(always)]
fn advance(st: &mut [f64], dt: f64, du: f64) -> Input {
    st[T] += dt;
    st[X] += du;
    Input::new(st[T], st[X], du / dt)
}

/// Exact update of the LuGre bristle state.
pub(crate) struct LuGreExact<'a> {
    m: &'a LuGre,
    /// `1/σ0`, so that the hot loop divides only by `dt`, `vs` and `g`.
    inv_sigma0: f64,
}

impl<'a> LuGreExact<'a> {
    pub fn new(m: &'a LuGre) -> Self {
        LuGreExact { m, inv_sigma0: 1.0 / m.params().sigma0 }
    }
}

impl Stepper for LuGreExact<'_> {
    type Scratch = ();
    fn scratch(&self) {}
    #[inline(always)]
    fn step(&self, _: &mut (), dt: f64, du: f64, st: &mut [f64]) -> Result<f64, StepFailure> {
        let inp = advance(st, dt, du);
        // the relaxation rate σ0/g per metre of slip is shared with the force
        let p = self.m.params();
        let v = inp.v;
        let g = self.m.g(v);
        let rate = p.sigma0 / g;
        let z = if du != 0.0 {
            let zss = sign(du) * g * self.inv_sigma0;
            lugre::bristle_step::<false>(st[Z], zss, (-du.abs() * rate).exp())
        } else {
            st[Z]
        };
        st[Z] = z;
        let zdot = lugre::bristle_rate_per_slip(v, v.abs(), z, rate);
        Ok(lugre::bristle_force(p.sigma0, p.sigma1, p.sigma2, z, zdot, v))
    }
}

/// Exact update of Dahl's model with exponent 1.
pub(crate) struct DahlExact<'a>(pub &'a Dahl);

impl Stepper for DahlExact<'_> {
    type Scratch = ();
    fn scratch(&self) {}
    #[inline(always)]
    fn step(&self, _: &mut (), dt: f64, du: f64, st: &mut [f64]) -> Result<f64, StepFailure> {
        let inp = advance(st, dt, du);
        if du != 0.0 {
            let p = self.0.params();
            st[Z] = relax(st[Z], sign(du) * p.fc, du, p.fc / p.sigma0);
        }
        Ok(self.0.force(&inp, &st[Z..Z + 1], &[]))
    }
}

/// Exact update of Dankowicz's micro-slip state.
pub(crate) struct DankowiczExact<'a>(pub &'a Dankowicz);

impl Stepper for DankowiczExact<'_> {
    type Scratch = ();
    fn scratch(&self) {}
    #[inline(always)]
    fn step(&self, _: &mut (), dt: f64, du: f64, st: &mut [f64]) -> Result<f64, StepFailure> {
        let inp = advance(st, dt, du);
        if du != 0.0 {
            let d = self.0.params().delta;
            st[Z] = relax(st[Z], sign(du) * d, du, d);
        }
        Ok(self.0.force(&inp, &st[Z..Z + 1], &[]))
    }
}

/// Models without continuous states: static maps, set-valued friction and
/// rate-independent hysteresis operators. The slip and time are set to the
/// end of the step, [`FrictionModel::accept`] updates the discrete memory
/// (exact for a monotone slip within the step), and the force is the model's
/// force there.
pub(crate) struct Direct<'a, M> {
    pub m: &'a M,
    pub n_memory: usize,
}

impl<M: FrictionModel + Sync> Stepper for Direct<'_, M> {
    type Scratch = ();
    fn scratch(&self) {}
    #[inline(always)]
    fn step(&self, _: &mut (), dt: f64, du: f64, st: &mut [f64]) -> Result<f64, StepFailure> {
        let inp = advance(st, dt, du);
        let mem = &mut st[Z..Z + self.n_memory];
        self.m.accept(&inp, &mut [], mem);
        Ok(self.m.force(&inp, &[], mem))
    }
}

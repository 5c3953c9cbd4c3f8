//! The bi-directional Bouc-Wen model in its rotation-invariant form,
//! integrated by the generic L-stable update in the frame of the slip.
//!
//! ```text
//! dz/dt = A v - |z|^(n-2) (β |z·v| + γ z·v) z        F = kj z       (z, v, F vectors)
//!       = A v - (β |c| + γ c) |z|^n ẑ,   ẑ = z/|z|, c = ẑ·v          (0 at z = 0)
//! in 1-D: A v - (β |v| sign(z) + γ v) |z|^n, the `bouc_wen` model
//! ```
//!
//! Park, Wen & Ang 1986 ("Random vibration of hysteretic systems under
//! bi-directional ground motions", Earthquake Eng. Struct. Dyn. 14) couple
//! the two directions through the deflection: each component relaxes with a
//! rate in `z` times a bilinear form of `z` and `v`. As it is usually written
//! (with n = 2), its β term is `β (|ẋ z_x| + |ẏ z_y|) z`, which depends on the
//! orientation of the x and y axes (for `z` along (1, 1), `v` along (1, -1)
//! it is `β |v| |z|² / √2 · (…) ≠ 0`, but 0 once the axes are turned by 45°):
//! an isotropic contact cannot have it. This update uses the invariant
//! `β |z·v|` in its place; the two agree whenever `ẋ z_x` and `ẏ z_y` have
//! the same sign (in particular on any path along one axis, where both are
//! the 1-D Bouc-Wen law), and the γ term `γ (z·v) z` is Park, Wen & Ang's.
//! As in their model, `|z|` in steady sliding is the 1-D ultimate value
//! `z_u = (A/(β + γ))^(1/n)` in every direction (the interaction curve is a
//! circle): on a circular orbit of radius `R` the deflection settles at
//! `|z| = z_u`, lagging the velocity by `asin(z_u / (A R))` (tested).
//!
//! # Integration
//! The model is rate independent, so a step is a path of length `s = |Δu|`
//! along the fixed direction `e = Δu/|Δu|`. The state is turned into the
//! frame of `e` (`z_par = z·e`, `z_perp = z·e⊥`), advanced there by the
//! generic sub-stepped, extrapolated backward-Euler update of the 1-D models
//! (`update::implicit`: L-stable, stable for any step, local error below
//! `1e-6` of the state) with the velocity `+|v|` along the first axis, and
//! turned back. Its error test is taken on the frame's components, which do
//! not depend on the orientation of the path, so a rotated path gives the
//! rotated forces up to the stop of Newton's iteration (at 1e-3 of the
//! tolerance, on residuals that differ by rounding between a path and its
//! rotation): measured within 5e-10 of the largest force. The update allocates
//! one work buffer per call (per chunk in the parallel update), like the 1-D
//! implicit update.
//!
//! On a path along +x the frame is the identity and the arithmetic is the
//! 1-D update's: the same bits. Along -x the 1-D update integrates with a
//! negative velocity and the mirrored state, where its one-sided difference
//! Jacobian steps the other way: the forces agree to the integrator's
//! tolerance (measured within 2e-9 of the sliding force, tested at 1e-6).

use super::super::implicit::{Implicit, Sens, Work};
use super::super::layout::Layout;
use super::super::{SliceFailure, StepFailure, Stepper};
use super::{M, T, X, Y};
use crate::model::{FrictionModel, Input, ModelInfo};
use crate::models::bouc_wen::{BoucWenParams, INFO};

const LEN: usize = M + 2;

/// The state equation in the frame of the slip: velocity `(v, 0)`, `v >= 0`
/// the slip speed, state `(z_par, z_perp)`.
struct Framed<'a>(&'a BoucWenParams);

impl FrictionModel for Framed<'_> {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn n_states(&self) -> usize {
        2
    }
    /// Not used: the force is taken from the state in the plane.
    fn force(&self, _inp: &Input, z: &[f64], _mem: &[f64]) -> f64 {
        self.0.k * z[0]
    }
    fn rates(&self, inp: &Input, z: &[f64], _mem: &[f64], dz: &mut [f64]) {
        let p = self.0;
        let v = inp.v;
        let r = (z[0] * z[0] + z[1] * z[1]).sqrt();
        if r == 0.0 {
            dz[0] = p.a * v;
            dz[1] = 0.0;
            return;
        }
        let (ux, uy) = (z[0] / r, z[1] / r);
        let c = ux * v;
        // as the 1-D law: |z| itself for n = 1, no 0^(negative) for n < 1
        let zn = if p.n == 1.0 { r } else { r.powf(p.n) };
        let k = (p.beta * c.abs() + p.gamma * c) * zn;
        dz[0] = p.a * v - k * ux;
        dz[1] = -(k * uy);
    }
    /// With `v >= 0` the rates are `g = A v e₁ - v φ(z) z`,
    /// `φ = (β |z₁| + γ z₁) |z|^(n-2)`, so
    ///
    /// ```text
    /// ∂g/∂v = A e₁ - φ z
    /// ∂g/∂z = -v (φ I + z ∇φᵀ),   ∇φ = (β sign z₁ + γ) |z|^(n-2) e₁ + (n - 2) φ z / |z|²
    /// ```
    ///
    /// At `z = 0` (the limit along `+e₁`, where a slip along `+e₁` takes the
    /// state): `∂g/∂z = -v (β + γ) I` for `n = 1`, `0` for `n > 1`.
    fn partials(&self, inp: &Input, z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        let q = self.0;
        let v = inp.v;
        p.df_dx = 0.0;
        p.df_dv = 0.0;
        p.df_dz[0] = q.k;
        p.df_dz[1] = 0.0;
        p.dg_dx[0] = 0.0;
        p.dg_dx[1] = 0.0;
        let r2 = z[0] * z[0] + z[1] * z[1];
        if r2 == 0.0 {
            let d = if q.n == 1.0 { -v * (q.beta + q.gamma) } else { 0.0 };
            p.dg_dz.copy_from_slice(&[d, 0.0, 0.0, d]);
            p.dg_dv[0] = q.a;
            p.dg_dv[1] = 0.0;
            return;
        }
        let rn2 = if q.n == 2.0 { 1.0 } else { r2.sqrt().powf(q.n - 2.0) };
        let s1 = if z[0] < 0.0 { -1.0 } else { 1.0 };
        let phi = (q.beta * z[0].abs() + q.gamma * z[0]) * rn2;
        let grad =
            [(q.beta * s1 + q.gamma) * rn2 + (q.n - 2.0) * phi * z[0] / r2, (q.n - 2.0) * phi * z[1] / r2];
        for (i, &zi) in z.iter().enumerate().take(2) {
            for (j, &gj) in grad.iter().enumerate() {
                let delta = if i == j { phi } else { 0.0 };
                p.dg_dz[2 * i + j] = -v * (delta + zi * gj);
            }
        }
        p.dg_dv[0] = q.a - phi * z[0];
        p.dg_dv[1] = -phi * z[1];
    }
}

/// Update the contacts (`[t, x, y, zx, zy]` each); inputs checked by the
/// caller. A contact whose implicit update fails keeps its state and gets a
/// NaN force, and the others go on; the failures are returned as the first
/// failing contact's index, its time and the count.
pub(super) fn run(
    p: &BoucWenParams,
    dt: f64,
    du: &[f64],
    normal: &[f64],
    state: &mut [f64],
    force: &mut [f64],
) -> Result<(), SliceFailure> {
    let framed = Framed(p);
    let stepper = Implicit { m: &framed, l: Layout { n_states: 2, n_memory: 0 }, switch: None };
    let mut work = stepper.scratch();
    let mut failure: Option<SliceFailure> = None;
    for (i, ((st, f), (u, &nf))) in state
        .chunks_exact_mut(LEN)
        .zip(force.chunks_exact_mut(2))
        .zip(du.chunks_exact(2).zip(normal))
        .enumerate()
    {
        let s = (u[0] * u[0] + u[1] * u[1]).sqrt();
        if s != 0.0 {
            let (ex, ey) = (u[0] / s, u[1] / s);
            let (zx, zy) = (st[M], st[M + 1]);
            // [t, x, z_par, z_perp] for the 1-D layout of the generic update
            let mut local = [st[T], 0.0, ex * zx + ey * zy, ex * zy - ey * zx];
            if let Err(e) = stepper.step(&mut work, dt, s, &mut local) {
                // the contact keeps its state; its force is NaN (as in 1-D)
                f[0] = f64::NAN;
                f[1] = f64::NAN;
                failure = Some(failure.map_or((i, e.t, 1), |(j, t, n)| (j, t, n + 1)));
                continue;
            }
            let (zp, zq) = (local[2], local[3]);
            st[M] = ex * zp - ey * zq;
            st[M + 1] = ey * zp + ex * zq;
        }
        st[T] += dt;
        st[X] += u[0];
        st[Y] += u[1];
        f[0] = nf * (p.k * st[M]);
        f[1] = nf * (p.k * st[M + 1]);
    }
    failure.map_or(Ok(()), Err)
}

/// Work space of the 2-D tangent: the implicit update's and that of its
/// sensitivity to the slip length and to the starting state (one per call
/// or chunk, nothing per contact).
pub(super) struct TangentWork {
    work: Work,
    sens: Sens,
}

impl TangentWork {
    pub(super) fn new(p: &BoucWenParams) -> Self {
        let l = Layout { n_states: 2, n_memory: 0 };
        TangentWork { work: Implicit { m: &Framed(p), l, switch: None }.scratch(), sens: Sens::with_start(l) }
    }
}

/// The force (unit normal load) and its 2 × 2 derivative with respect to
/// the slip increment `u` (row-major) of one contact from its state `st`
/// (left unchanged), by the arithmetic of [`run`].
///
/// The update is `z' = R(e) ζ(s, R(e)ᵀ z)` with `s = |Δu|`, `e = Δu/s`,
/// `R(e) = [e, e⊥]` and `ζ(s, ζ₀)` the implicit update in the frame. The
/// forward sensitivity of that update ([`Sens::with_start`]) gives
/// `∂ζ/∂s` and `Φ = ∂ζ/∂ζ₀` through every accepted sub-step; with
/// `∂e/∂Δu = P/s`, `P = I - e eᵀ`, and `∂e⊥/∂Δu = J P/s` (`J` the quarter
/// turn):
///
/// ```text
/// dζ₀/dΔu = [zᵀ P; (Jᵀz)ᵀ P] / s
/// dζ/dΔu  = ∂ζ/∂s eᵀ + Φ dζ₀/dΔu
/// dz'/dΔu = e dζ_par/dΔu + e⊥ dζ_perp/dΔu + (ζ_par P + ζ_perp J P) / s
/// dF/dΔu  = kj dz'/dΔu
/// ```
///
/// At a zero increment (not differentiable: the direction of the slip is
/// undefined) the mean of the one-sided derivatives along `±d`, which the
/// `β` term leaves: `kj (A I - γ |z|^(n-2) z zᵀ)`.
pub(super) fn tangent(
    p: &BoucWenParams,
    tw: &mut TangentWork,
    dt: f64,
    u: &[f64],
    st: &[f64],
) -> Result<([f64; 2], [f64; 4]), StepFailure> {
    let (zx, zy) = (st[M], st[M + 1]);
    let s = (u[0] * u[0] + u[1] * u[1]).sqrt();
    if s == 0.0 {
        let r2 = zx * zx + zy * zy;
        let g =
            if r2 == 0.0 { 0.0 } else { p.gamma * if p.n == 2.0 { 1.0 } else { r2.sqrt().powf(p.n - 2.0) } };
        let kk =
            [p.k * (p.a - g * zx * zx), -p.k * g * zx * zy, -p.k * g * zy * zx, p.k * (p.a - g * zy * zy)];
        return Ok(([1.0 * (p.k * zx), 1.0 * (p.k * zy)], kk));
    }
    let stepper = Implicit { m: &Framed(p), l: Layout { n_states: 2, n_memory: 0 }, switch: None };
    let (ex, ey) = (u[0] / s, u[1] / s);
    let mut local = [st[T], 0.0, ex * zx + ey * zy, ex * zy - ey * zx];
    stepper.advance(&mut tw.work, dt, s, &mut local, Some(&mut tw.sens))?;
    let (zp, zq) = (local[2], local[3]);
    let f = [1.0 * (p.k * (ex * zp - ey * zq)), 1.0 * (p.k * (ey * zp + ex * zq))];
    let ds = tw.sens.column(0);
    let (phi_p, phi_q) = (tw.sens.column(1), tw.sens.column(2));
    // the projection across the slip, row-major
    let pp = [1.0 - ex * ex, -ex * ey, -ey * ex, 1.0 - ey * ey];
    let e = [ex, ey];
    let mut kk = [0.0; 4];
    for d in 0..2 {
        let (p0, p1) = (pp[d], pp[2 + d]);
        // d(z·e)/dΔu_d and d(z·e⊥)/dΔu_d
        let dzp0 = (zx * p0 + zy * p1) / s;
        let dzq0 = (zy * p0 - zx * p1) / s;
        let dzp = ds[0] * e[d] + phi_p[0] * dzp0 + phi_q[0] * dzq0;
        let dzq = ds[1] * e[d] + phi_p[1] * dzp0 + phi_q[1] * dzq0;
        kk[d] = p.k * (ex * dzp - ey * dzq + (zp * p0 - zq * p1) / s);
        kk[2 + d] = p.k * (ey * dzp + ex * dzq + (zp * p1 + zq * p0) / s);
    }
    Ok((f, kk))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::partials::{partials_by_differences, Partials};
    use rand::{RngExt, SeedableRng};

    /// The frame's analytic partials (which the 2-D tangent's sensitivity
    /// uses) against central differences of its rates, for n = 1, 1.5, 2
    /// at seeded random states of either sign and slip speeds.
    #[test]
    fn framed_partials_equal_differences_of_the_rates() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4608);
        for n in [1.0, 1.5, 2.0] {
            let p = BoucWenParams { a: 0.9, beta: 3e4, gamma: 2e4, n, k: 1e5 };
            let zu = (p.a / (p.beta + p.gamma)).powf(1.0 / n);
            let m = Framed(&p);
            let (mut got, mut want) = (Partials::new(2), Partials::new(2));
            let mut worst = 0.0f64;
            for _ in 0..200 {
                let z = [rng.random_range(-1.5..1.5) * zu, rng.random_range(-1.5..1.5) * zu];
                let v = 10f64.powf(rng.random_range(-6.0..-1.0));
                let inp = Input::new(0.0, 0.0, v);
                m.partials(&inp, &z, &[], &mut got);
                partials_by_differences(&m, &inp, &z, &[], 1e-9 * zu, &mut want);
                // ∂g/∂z scaled by v |z|^(n-1) (its size), ∂g/∂v by A
                let sz = v * (p.beta + p.gamma) * (z[0].hypot(z[1])).powf(n - 1.0);
                for i in 0..4 {
                    let e = (got.dg_dz[i] - want.dg_dz[i]).abs() / sz;
                    worst = worst.max(e);
                    assert!(e < 1e-6, "n {n} z {z:?} v {v}: dg/dz {:?} vs {:?}", got.dg_dz, want.dg_dz);
                }
                for i in 0..2 {
                    let e = (got.dg_dv[i] - want.dg_dv[i]).abs() / p.a;
                    assert!(e < 1e-6, "n {n} z {z:?} v {v}: dg/dv {:?} vs {:?}", got.dg_dv, want.dg_dv);
                }
            }
            eprintln!("n {n}: worst {worst:.1e}");
        }
    }
}

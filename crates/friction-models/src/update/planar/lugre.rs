//! The vector LuGre law, integrated exactly at constant velocity.
//!
//! ```text
//! dz/dt = v - σ0 |v| z / g(|v|),    F = σ0 z + σ1 dz/dt + σ2 v      (z, v, F vectors)
//! ```
//!
//! (Velenis, Tsiotras, Canudas de Wit & Sorine 2005, eq. 7, with isotropic
//! σ0, σ1, σ2; Canudas de Wit, Olsson, Åström & Lischinsky 1995 in 1-D.)
//! Over a step at constant `v` both components relax with the same rate
//! `σ0 |v| / g` towards `zss = (v/|v|) g/σ0`, so
//!
//! ```text
//! z' = zss + (z - zss) exp(-σ0 |Δu| / g(|v|))
//! ```
//!
//! exactly, for any step. The arithmetic is the 1-D update's (the
//! vectorised kernel's polynomial `exp` and fused multiply-adds for the
//! exponential Stribeck curves, the per-contact update's otherwise), so a
//! path along one axis gives the 1-D forces bit for bit. The law's rate,
//! force and exact step are the functions of [`crate::models::lugre`] that
//! the model and the 1-D updates call.

use super::super::lugre_batch::{exp_nonpositive, fma, Kernel};
use super::{M, T, X, Y};
use crate::models::lugre::{self, LuGre};

const LEN: usize = M + 2;

/// Update the contacts (`[t, x, y, zx, zy]` each); inputs checked by the caller.
pub(super) fn run(m: &LuGre, dt: f64, du: &[f64], normal: &[f64], state: &mut [f64], force: &mut [f64]) {
    let Some(k) = Kernel::new(m) else {
        return run_libm(m, dt, du, normal, state, force);
    };
    // the same choice of fused multiply-adds as the 1-D kernel
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU supports the features the function is compiled for.
        unsafe { run_fma(&k, dt, du, normal, state, force) };
        return;
    }
    run_kernel::<false>(&k, dt, du, normal, state, force);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn run_fma(k: &Kernel, dt: f64, du: &[f64], normal: &[f64], state: &mut [f64], force: &mut [f64]) {
    run_kernel::<true>(k, dt, du, normal, state, force);
}

#[inline(always)]
fn run_kernel<const FMA: bool>(
    k: &Kernel,
    dt: f64,
    du: &[f64],
    normal: &[f64],
    state: &mut [f64],
    force: &mut [f64],
) {
    for ((st, f), (u, &nf)) in
        state.chunks_exact_mut(LEN).zip(force.chunks_exact_mut(2)).zip(du.chunks_exact(2).zip(normal))
    {
        st[T] += dt;
        st[X] += u[0];
        st[Y] += u[1];
        let s = (u[0] * u[0] + u[1] * u[1]).sqrt();
        let speed = s / dt;
        let r = (speed * k.inv_vs).abs();
        let phi = exp_nonpositive::<FMA>(if k.squared { -(r * r) } else { -r });
        let g = fma::<FMA>(k.dfs, phi, k.fc);
        let rate = k.sigma0 / g;
        let e = exp_nonpositive::<FMA>(-s * rate);
        let zmag = g * k.inv_sigma0;
        for c in 0..2 {
            let n = if s == 0.0 { 0.0 } else { u[c] / s };
            let zss = zmag * n;
            let zn = lugre::bristle_step::<FMA>(st[M + c], zss, e);
            st[M + c] = zn;
            let v = u[c] / dt;
            let zdot = lugre::bristle_rate_per_slip(v, speed, zn, rate);
            f[c] = nf * lugre::bristle_force(k.sigma0, k.sigma1, k.sigma2, zn, zdot, v);
        }
    }
}

/// Other Stribeck shapes: the per-contact exact update's arithmetic.
fn run_libm(m: &LuGre, dt: f64, du: &[f64], normal: &[f64], state: &mut [f64], force: &mut [f64]) {
    let p = m.params();
    let inv_sigma0 = 1.0 / p.sigma0;
    for ((st, f), (u, &nf)) in
        state.chunks_exact_mut(LEN).zip(force.chunks_exact_mut(2)).zip(du.chunks_exact(2).zip(normal))
    {
        st[T] += dt;
        st[X] += u[0];
        st[Y] += u[1];
        let s = (u[0] * u[0] + u[1] * u[1]).sqrt();
        let speed = s / dt;
        let g = m.g(speed);
        let rate = p.sigma0 / g;
        let e = (-s * rate).exp();
        for c in 0..2 {
            if s != 0.0 {
                // `(v/|v|) g / σ0` in this order, as this path always rounded
                // it (the kernel above forms `(g/σ0) (v/|v|)`; the two
                // differ off the axes, so neither is changed)
                let zss = (u[c] / s) * g * inv_sigma0;
                st[M + c] = lugre::bristle_step::<false>(st[M + c], zss, e);
            }
            let (z, v) = (st[M + c], u[c] / dt);
            let zdot = lugre::bristle_rate_per_slip(v, speed, z, rate);
            f[c] = nf * lugre::bristle_force(p.sigma0, p.sigma1, p.sigma2, z, zdot, v);
        }
    }
}

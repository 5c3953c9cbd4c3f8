//! The 2-D updates without continuous states: isotropic maps along the slip
//! direction, and spring-slider elements by radial return.
//!
//! ```text
//! isotropic map:  F = F₁(|v|) v/|v|   (0 for a zero slip increment)
//! radial return of one element (stiffness k, slip deflection φ, slider s):
//!   e = u - s;  if |e| > φ:  s ← u - φ e/|e|          (the slider is dragged)
//!   F = k (u - s), radially clamped to |F| <= k φ
//! ```
//!
//! The radial return is the exact solution of the associated flow rule of
//! an elastic-perfectly-plastic element in the plane for a slip increment
//! taken along a straight line (Simo & Hughes 1998, sec. 2.2 and 3.3:
//! for the isotropic yield disk the closest-point projection is radial). The
//! arithmetic is that of the 1-D elements written per component (the unit
//! vector `e/|e|` is `±1` exactly on an axis), so a path along one axis gives
//! the 1-D forces bit for bit.

use super::{M, T, X, Y};
use crate::model::{FrictionModel, Input};
use crate::registry::AnyModel;
use crate::sliders::Sliders;

/// `|(a, b)|`; `sqrt(a²)` is `|a|` exactly (no hypot: it is a slow libm
/// call, and the arguments here are slips and forces far from overflow).
#[inline(always)]
fn norm(a: f64, b: f64) -> f64 {
    (a * a + b * b).sqrt()
}

/// Advance `t, x, y`; returns `(x, y)` at the step's end.
#[inline(always)]
fn advance(st: &mut [f64], dt: f64, u: &[f64]) -> (f64, f64) {
    st[T] += dt;
    st[X] += u[0];
    st[Y] += u[1];
    (st[X], st[Y])
}

/// Isotropic maps: the 1-D force at the speed `|v|`, along `v/|v|`.
pub(super) fn radial(
    m: &AnyModel,
    dt: f64,
    du: &[f64],
    normal: &[f64],
    state: &mut [f64],
    force: &mut [f64],
) {
    for ((st, f), (u, &nf)) in
        state.chunks_exact_mut(M).zip(force.chunks_exact_mut(2)).zip(du.chunks_exact(2).zip(normal))
    {
        advance(st, dt, u);
        let s = norm(u[0], u[1]);
        if s == 0.0 {
            f[0] = 0.0;
            f[1] = 0.0;
            continue;
        }
        let f1 = m.force(&Input::new(st[T], 0.0, s / dt), &[], &[]);
        f[0] = nf * (f1 * (u[0] / s));
        f[1] = nf * (f1 * (u[1] / s));
    }
}

/// Jenkins with θ = 1 (strength `fs`, stiffness `kt`); state `[t, x, y, sx, sy]`.
pub(super) fn jenkins(
    kt: f64,
    fs: f64,
    dt: f64,
    du: &[f64],
    normal: &[f64],
    state: &mut [f64],
    force: &mut [f64],
) {
    for ((st, f), (u, &nf)) in
        state.chunks_exact_mut(M + 2).zip(force.chunks_exact_mut(2)).zip(du.chunks_exact(2).zip(normal))
    {
        let (x, y) = advance(st, dt, u);
        // a Jenkins element is an Iwan element of stiffness kt and slip
        // deflection fs/kt: the trial force beyond the disk returns the
        // slider radially (branch-free, see `element`)
        let (mut sx, mut sy) = (st[M], st[M + 1]);
        let (tx, ty) = (kt * (x - sx), kt * (y - sy));
        let r = norm(tx, ty);
        let slip = r > fs;
        let (nx, ny) = (x - fs * (tx / r) / kt, y - fs * (ty / r) / kt);
        sx = if slip { nx } else { sx };
        sy = if slip { ny } else { sy };
        st[M] = sx;
        st[M + 1] = sy;
        // the force of the returned element, clamped to the disk (rounding)
        let (gx, gy) = (kt * (x - sx), kt * (y - sy));
        let g = norm(gx, gy);
        let over = g > fs;
        let (cx, cy) = (fs * (gx / g), fs * (gy / g));
        f[0] = nf * if over { cx } else { gx };
        f[1] = nf * if over { cy } else { gy };
    }
}

/// Parallel elements (Iwan-4, Maxwell-slip), each a 2-D Jenkins element;
/// state `[t, x, y, sx_0 .. sx_{m-1}, sy_0 .. sy_{m-1}]`. The force sums in
/// four interleaved partial sums, in the order of the 1-D kernel.
pub(super) fn elements(
    sl: &Sliders,
    len: usize,
    dt: f64,
    du: &[f64],
    normal: &[f64],
    state: &mut [f64],
    force: &mut [f64],
) {
    // the same arithmetic either way (no fused multiply-adds); AVX2 gives the
    // four-lane sums and selects of `elements_kernel` one instruction each
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports the feature the function is compiled for.
        unsafe { elements_avx2(sl, len, dt, du, normal, state, force) };
        return;
    }
    elements_kernel(sl, len, dt, du, normal, state, force);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn elements_avx2(
    sl: &Sliders,
    len: usize,
    dt: f64,
    du: &[f64],
    normal: &[f64],
    state: &mut [f64],
    force: &mut [f64],
) {
    elements_kernel(sl, len, dt, du, normal, state, force);
}

/// One element's radial return and its clamped force: the new slider
/// position and the force per unit stiffness. Branch-free (both outcomes
/// computed, one selected) so that four elements run side by side; the
/// selected values are those of the branching form.
#[inline(always)]
fn element(x: f64, y: f64, phi: f64, sx: &mut f64, sy: &mut f64) -> (f64, f64) {
    let (ex, ey) = (x - *sx, y - *sy);
    let r = norm(ex, ey);
    let slip = r > phi;
    let (nx, ny) = (x - phi * (ex / r), y - phi * (ey / r));
    *sx = if slip { nx } else { *sx };
    *sy = if slip { ny } else { *sy };
    let (dx, dy) = (x - *sx, y - *sy);
    let d = norm(dx, dy);
    let over = d > phi;
    let (cx, cy) = (phi * (dx / d), phi * (dy / d));
    (if over { cx } else { dx }, if over { cy } else { dy })
}

#[inline(always)]
fn elements_kernel(
    sl: &Sliders,
    len: usize,
    dt: f64,
    du: &[f64],
    normal: &[f64],
    state: &mut [f64],
    force: &mut [f64],
) {
    let (k, phi) = sl.arrays();
    let m = k.len();
    let full = m - m % 4;
    for ((st, f), (u, &nf)) in
        state.chunks_exact_mut(len).zip(force.chunks_exact_mut(2)).zip(du.chunks_exact(2).zip(normal))
    {
        let (x, y) = advance(st, dt, u);
        let (sx, sy) = st[M..M + 2 * m].split_at_mut(m);
        let mut ax = [0.0; 4];
        let mut ay = [0.0; 4];
        // element j adds to partial sum j % 4: four lanes side by side, then
        // the remainder
        for (((kq, pq), xq), yq) in k[..full]
            .chunks_exact(4)
            .zip(phi[..full].chunks_exact(4))
            .zip(sx[..full].chunks_exact_mut(4))
            .zip(sy[..full].chunks_exact_mut(4))
        {
            for l in 0..4 {
                let (cx, cy) = element(x, y, pq[l], &mut xq[l], &mut yq[l]);
                ax[l] += kq[l] * cx;
                ay[l] += kq[l] * cy;
            }
        }
        for j in full..m {
            let (cx, cy) = element(x, y, phi[j], &mut sx[j], &mut sy[j]);
            ax[j - full] += k[j] * cx;
            ay[j - full] += k[j] * cy;
        }
        f[0] = nf * ((ax[0] + ax[1]) + (ax[2] + ax[3]));
        f[1] = nf * ((ay[0] + ay[1]) + (ay[2] + ay[3]));
    }
}

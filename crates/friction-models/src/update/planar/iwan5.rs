//! Mignolet's five-parameter Iwan model with θ = 1 in the plane: every
//! element a 2-D elastic-perfectly-plastic (Jenkins) element, by radial
//! return, written in the arithmetic of the 1-D Mignolet element.
//!
//! ```text
//! element j (stiffness k_j, strength f_j = k_j φ_j, slider s_j, a vector):
//!   trial force  t = k_j (u - s_j);  if |t| > f_j:  s_j ← u - (f_j t/|t|) / k_j
//!   force        F_j = k_j (u - s_j), radially clamped to |F_j| <= f_j (rounding)
//! F = Σ_j F_j, summed in element order
//! ```
//!
//! With θ = 1 the five-parameter model is Segalman's four-parameter one
//! (`iwan4`) and each element is Iwan's (1966) spring-slider; in the plane
//! each becomes the isotropic element of Simo & Hughes 1998 (sec. 2.2, 3.3),
//! as for `iwan4` (`sliders.rs`). The 1-D Mignolet element keeps the force
//! `f_j` and sets its slider at `x - f_j/k_j` (not `x - φ_j`), and the 1-D
//! update sums the element forces one after the other; both are kept here, so
//! that a path along one axis gives the 1-D `iwan5` forces bit for bit. The
//! slip flags of the 1-D memory only matter for θ < 1 (they decide whether a
//! slider keeps sliding at its dynamic strength), so the 2-D state holds the
//! slider positions only. θ < 1 has no vector form here (see the module
//! documentation).

use super::{M, T, X, Y};
use crate::models::iwan4::IwanElement;

/// `|(a, b)|` (`sqrt(a²)` is `|a|` exactly, as in `sliders.rs`).
#[inline(always)]
fn norm(a: f64, b: f64) -> f64 {
    (a * a + b * b).sqrt()
}

/// Update the contacts (`[t, x, y, sx_0 .. sx_{m-1}, sy_0 .. sy_{m-1}]` each);
/// inputs checked by the caller.
pub(super) fn run(
    el: &[IwanElement],
    dt: f64,
    du: &[f64],
    normal: &[f64],
    state: &mut [f64],
    force: &mut [f64],
) {
    let m = el.len();
    for ((st, f), (u, &nf)) in
        state.chunks_exact_mut(M + 2 * m).zip(force.chunks_exact_mut(2)).zip(du.chunks_exact(2).zip(normal))
    {
        st[T] += dt;
        st[X] += u[0];
        st[Y] += u[1];
        let (x, y) = (st[X], st[Y]);
        let (sx, sy) = st[M..].split_at_mut(m);
        // the sum of f64 starts at -0.0, as `Iterator::sum` in the 1-D force
        let (mut fx, mut fy) = (-0.0, -0.0);
        for (e, (sx, sy)) in el.iter().zip(sx.iter_mut().zip(sy.iter_mut())) {
            let (k, fs) = (e.k, e.fmax());
            let (tx, ty) = (k * (x - *sx), k * (y - *sy));
            let r = norm(tx, ty);
            if r > fs {
                *sx = x - fs * (tx / r) / k;
                *sy = y - fs * (ty / r) / k;
            }
            let (gx, gy) = (k * (x - *sx), k * (y - *sy));
            let g = norm(gx, gy);
            let (cx, cy) = if g > fs { (fs * (gx / g), fs * (gy / g)) } else { (gx, gy) };
            fx += cx;
            fy += cy;
        }
        f[0] = nf * fx;
        f[1] = nf * fy;
    }
}

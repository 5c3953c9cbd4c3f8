//! The algorithmic consistent tangent of the 2-D update: per contact the
//! 2 × 2 derivative of the returned force vector with respect to the step's
//! slip increment vector, and its derivative with respect to the normal
//! load, the state at the start of the step held fixed (see
//! [`super::super::tangent`] for the 1-D contract).
//!
//! ```text
//! dforce_dslip[4i..4i+4]   = normal[i] · [dFx/dΔx, dFx/dΔy, dFy/dΔx, dFy/dΔy]   (row-major)
//! dforce_dnormal[2i..2i+2] = (Fx, Fy)
//! ```
//!
//! With the slip direction `e = Δu/|Δu|`, `s = |Δu|`, `P = I - e eᵀ` (the
//! projection across the slip):
//!
//! | form | tangent |
//! |---|---|
//! | isotropic maps `F = F₁(|v|) e` | `F₁'(|v|)/dt e eᵀ + F₁(|v|)/s P`: the sliding curve's slope along the slip, the rotation of the force across it; for a zero increment `F₁'(0)/dt I` (the mean over directions), and 0 for the set-valued laws (`coulomb`, `stribeck`, ...: the stick stiffness is the caller's) |
//! | Jenkins, and every element of `iwan4`, `maxwell_slip`, `iwan5` | the return-mapping tangent of the elastic-perfectly-plastic element: `k I` while the trial force `t = k (u - s)` is inside the disk `|t| <= φ`, else `k (φ/|t|) (I - n nᵀ)`, `n = t/|t|` (Simo & Hughes 1998, Computational Inelasticity, sec. 3.3; Wriggers 2006, Computational Contact Mechanics, sec. 5.2), summed over the elements |
//! | `dahl` (exponent 1), `dankowicz`: `w' = a e (1 - E) + w E`, `E = exp(-s/L)` | `dw'/dΔu = a (1 - E)/s P - (w - a e) E eᵀ / L`, times the force gain; for a zero increment `a/L I` (the mean over directions) |
//! | `lugre`: the same with `a = L = g(|v|)/σ0`, and `F = σ0 z' + σ1 (v - |v| z'/L) + σ2 v` | the derivative of that exact update, `g'` from the Stribeck curve; for a zero increment `(σ0 + (σ1 + σ2)/dt) I` |
//! | `bouc_wen`: `z' = R(e) ζ(s, R(e)ᵀ z)`, `ζ` the implicit update in the frame `R(e) = [e, e⊥]` of the slip | the forward sensitivity of the sub-stepped update to the slip length and to the starting state (`Φ = ∂ζ/∂ζ₀`), with the turn of the frame: `kj (e dζ_par + e⊥ dζ_perp + (ζ_par P + ζ_perp J P)/s)`, `dζ = ∂ζ/∂s eᵀ + Φ [zᵀP; (Jᵀz)ᵀP]/s` (`J` the quarter turn); for a zero increment the mean of the one-sided derivatives, `kj (A I - γ |z|^(n-2) z zᵀ)`. Like the 1-D implicit tangent it holds the sub-steps' lengths: against differences of `update_2d` within 5.2e-4 (typically 1e-6) |
//!
//! The forces and states written are those of
//! [`update_2d`](super::update_2d), bit for bit (it runs that update after
//! the tangent pass); `dforce_dnormal` is the model's force from the same
//! arithmetic on a copy of each contact's state.
//!
//! ```
//! use friction_models::{build, ParamMap};
//! use friction_models::update::planar::{init_2d, state_len_2d, update_2d_tangent};
//! let m = build("jenkins", &ParamMap::new()).unwrap(); // kt = 1e5, fs = 1
//! let mut s = vec![0.0; state_len_2d(&m).unwrap()];
//! init_2d(&m, &mut s).unwrap();
//! let (mut f, mut k) = ([0.0; 2], [0.0; 4]);
//! // slipping along x: stiff across (kt φ/|t|), nothing along the slip
//! update_2d_tangent(&m, 1e-3, &[1e-4, 0.0], &[1.0], &mut s, &mut f, Some(&mut k), None).unwrap();
//! assert_eq!(k[0], 0.0);
//! assert!((k[3] - 1e5 * 1.0 / (1e5 * 1e-4)).abs() < 1e-9);
//! ```

use super::super::tangent::check_out;
use super::super::UpdateError;
use super::{bouc_wen, checked, run_slice, Form, M, T, X, Y};
use crate::model::partials::Partials;
use crate::model::{Family, FrictionModel, Input};
use crate::registry::AnyModel;

/// [`update_2d`](super::update_2d), and the tangent of every contact's
/// force (see the module documentation): `dforce_dslip` of `4n` values
/// (row-major 2 × 2 per contact), `dforce_dnormal` of `2n`, `None` when not
/// wanted. The states and forces written are those of
/// [`update_2d`](super::update_2d), bit for bit. Errors as
/// [`update_2d`](super::update_2d); a tangent slice of the wrong length is
/// refused naming it. A contact whose implicit update fails (`bouc_wen`)
/// gets NaN forces and tangents.
#[allow(clippy::too_many_arguments)]
pub fn update_2d_tangent(
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

/// [`update_2d_tangent`] with the contacts spread over rayon's thread pool
/// in chunks; the same results, bit for bit.
#[cfg(feature = "rayon")]
#[allow(clippy::too_many_arguments)]
pub fn update_2d_tangent_par(
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
    let n = normal.len();
    let (f, len) = checked(m, dt, du, normal, state, force, par)?;
    check_out("dforce_dslip", &dfds, n, 4)?;
    check_out("dforce_dnormal", &dfdn, n, 2)?;
    if dfds.is_some() || dfdn.is_some() {
        let set_valued = m.info().family == Family::SetValued;
        let t = Tangent2 { f: &f, len, set_valued };
        run(&t, dt, du, normal, state, dfds, dfdn, par);
    }
    if par {
        #[cfg(feature = "rayon")]
        return super::update_2d_par(m, dt, du, normal, state, force);
    }
    super::update_2d(m, dt, du, normal, state, force)
}

/// The 2-D tangent of one form.
struct Tangent2<'a> {
    f: &'a Form<'a>,
    len: usize,
    set_valued: bool,
}

/// `k` times the return-mapping tangent of one elastic-perfectly-plastic
/// element (slider `(sx, sy)` at the start, strength `k φ`), added to `kk`.
#[inline(always)]
fn add_element(kk: &mut [f64; 4], k: f64, phi: f64, x: f64, y: f64, sx: f64, sy: f64) {
    let (ex, ey) = (x - sx, y - sy);
    let r = (ex * ex + ey * ey).sqrt();
    if r <= phi {
        kk[0] += k;
        kk[3] += k;
    } else {
        let (nx, ny) = (ex / r, ey / r);
        let c = k * phi / r;
        kk[0] += c * (1.0 - nx * nx);
        kk[1] -= c * nx * ny;
        kk[2] -= c * nx * ny;
        kk[3] += c * (1.0 - ny * ny);
    }
}

impl Tangent2<'_> {
    /// `F` (model units) and `dF/dΔu` of one contact from its state `st` at
    /// the start of the step; `buf` is a copy's work space.
    fn contact(
        &self,
        p: &mut Partials,
        buf: &mut [f64],
        bw: &mut Option<bouc_wen::TangentWork>,
        dt: f64,
        u: &[f64],
        st: &[f64],
    ) -> ([f64; 2], [f64; 4]) {
        if let Form::BoucWen(q) = *self.f {
            // created at the slice's first contact, reused for the others
            let w = bw.get_or_insert_with(|| bouc_wen::TangentWork::new(q));
            return bouc_wen::tangent(q, w, dt, u, st).unwrap_or(([f64::NAN; 2], [f64::NAN; 4]));
        }
        buf.copy_from_slice(st);
        let mut f = [0.0; 2];
        // the force by the update's own arithmetic, on the copy
        let _ = run_slice(self.f, self.len, dt, u, &[1.0], buf, &mut f);
        let s = (u[0] * u[0] + u[1] * u[1]).sqrt();
        let (ex, ey) = if s == 0.0 { (0.0, 0.0) } else { (u[0] / s, u[1] / s) };
        // e eᵀ and the projection across the slip, row-major
        let ee = [ex * ex, ex * ey, ey * ex, ey * ey];
        let pp = [1.0 - ee[0], -ee[1], -ee[2], 1.0 - ee[3]];
        let (x, y) = (st[X] + u[0], st[Y] + u[1]);
        let mut kk = [0.0; 4];
        match *self.f {
            Form::Radial(m) => {
                let t = st[T] + dt;
                if s != 0.0 {
                    let w = s / dt;
                    m.partials(&Input::new(t, 0.0, w), &[], &[], p);
                    let f1 = m.force(&Input::new(t, 0.0, w), &[], &[]);
                    for i in 0..4 {
                        kk[i] = p.df_dv / dt * ee[i] + f1 / s * pp[i];
                    }
                } else if !self.set_valued {
                    m.partials(&Input::new(t, 0.0, 0.0), &[], &[], p);
                    let a = p.df_dv;
                    m.partials(&Input::new(t, 0.0, -0.0), &[], &[], p);
                    let d = 0.5 * (a + p.df_dv) / dt;
                    kk = [d, 0.0, 0.0, d];
                }
            }
            Form::Jenkins { kt, fs } => add_element(&mut kk, kt, fs / kt, x, y, st[M], st[M + 1]),
            Form::Sliders(sl) => {
                let (k, phi) = sl.arrays();
                let n = k.len();
                for j in 0..n {
                    add_element(&mut kk, k[j], phi[j], x, y, st[M + j], st[M + n + j]);
                }
            }
            Form::Iwan5(el) => {
                let n = el.len();
                for (j, e) in el.iter().enumerate() {
                    add_element(&mut kk, e.k, e.fmax() / e.k, x, y, st[M + j], st[M + n + j]);
                }
            }
            Form::Relax(r) => {
                let (wx, wy) = (st[M], st[M + 1]);
                if s == 0.0 {
                    let d = r.gain * r.a / r.l;
                    kk = [d, 0.0, 0.0, d];
                } else {
                    let e = (-s / r.l).exp();
                    let (qx, qy) = (wx - r.a * ex, wy - r.a * ey);
                    let q = [qx * ex, qx * ey, qy * ex, qy * ey];
                    for i in 0..4 {
                        kk[i] = r.gain * (r.a * (1.0 - e) / s * pp[i] - q[i] * e / r.l);
                    }
                }
            }
            Form::LuGre(m) => {
                // the derivative of the law's exact step and force (the
                // functions of `crate::models::lugre`), written out: its
                // terms are not the law's own (`σ2 δ/dt` rounds as `(σ2 δ)/dt`)
                let pr = m.params();
                let (s0, s1, s2) = (pr.sigma0, pr.sigma1, pr.sigma2);
                if s == 0.0 {
                    let d = s0 + (s1 + s2) / dt;
                    kk = [d, 0.0, 0.0, d];
                } else {
                    let w = s / dt;
                    let g = m.g(w);
                    let dg = (pr.fs - pr.fc) * pr.shape.dphi(w, pr.vs);
                    let l = g / s0;
                    // dL/ds along the slip
                    let dl = dg / (s0 * dt);
                    let e = (-s / l).exp();
                    // dE/du_d = de · e_d
                    let de = e * (-1.0 / l + s * dl / (l * l));
                    let z = [st[M], st[M + 1]];
                    let zn = [buf[M], buf[M + 1]];
                    let dir = [ex, ey];
                    // d(w/L)/du_d = dwl · e_d
                    let dwl = s0 / dt * (1.0 / g - s * dg / (dt * g * g));
                    let wl = w / l;
                    for c in 0..2 {
                        for d in 0..2 {
                            let delta = if c == d { 1.0 } else { 0.0 };
                            let dzss = dl * dir[d] * dir[c] + l * pp[2 * c + d] / s;
                            let dz = dzss * (1.0 - e) + (z[c] - l * dir[c]) * de * dir[d];
                            kk[2 * c + d] = s0 * dz
                                + s1 * (delta / dt - dwl * dir[d] * zn[c] - wl * dz)
                                + s2 * delta / dt;
                        }
                    }
                }
            }
            // its own pass, above
            Form::BoucWen(_) => {}
        }
        (f, kk)
    }
}

#[allow(clippy::too_many_arguments)]
fn slice(
    t: &Tangent2<'_>,
    dt: f64,
    du: &[f64],
    normal: &[f64],
    state: &[f64],
    mut dfds: Option<&mut [f64]>,
    mut dfdn: Option<&mut [f64]>,
) {
    let mut buf = vec![0.0; t.len];
    let mut p = Partials::new(0);
    let mut bw = None;
    for (i, (st, (u, &nf))) in state.chunks_exact(t.len).zip(du.chunks_exact(2).zip(normal)).enumerate() {
        let (f, kk) = t.contact(&mut p, &mut buf, &mut bw, dt, u, st);
        if let Some(o) = dfds.as_deref_mut() {
            for (o, k) in o[4 * i..4 * i + 4].iter_mut().zip(kk) {
                *o = nf * k;
            }
        }
        if let Some(o) = dfdn.as_deref_mut() {
            o[2 * i..2 * i + 2].copy_from_slice(&f);
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn run(
    t: &Tangent2<'_>,
    dt: f64,
    du: &[f64],
    normal: &[f64],
    state: &[f64],
    dfds: Option<&mut [f64]>,
    dfdn: Option<&mut [f64]>,
    par: bool,
) {
    #[cfg(feature = "rayon")]
    if par {
        use super::super::tangent::split;
        use rayon::prelude::*;
        let chunk = (6144 / t.len).max(16);
        let n = normal.len();
        let n_chunks = n.div_ceil(chunk);
        let (a, b) = (split(dfds, 4 * chunk, n_chunks), split(dfdn, 2 * chunk, n_chunks));
        a.into_par_iter().zip(b).enumerate().for_each(|(c, (a, b))| {
            let lo = c * chunk;
            let hi = (lo + chunk).min(n);
            slice(t, dt, &du[2 * lo..2 * hi], &normal[lo..hi], &state[lo * t.len..hi * t.len], a, b);
        });
        return;
    }
    let _ = par;
    slice(t, dt, du, normal, state, dfds, dfdn);
}

#[cfg(test)]
mod tests;

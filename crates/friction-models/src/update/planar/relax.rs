//! Dahl (exponent 1) and Dankowicz in the plane: a vector state that relaxes,
//! in slip distance, towards a fixed length along the slip direction,
//! integrated exactly at constant velocity.
//!
//! ```text
//! Dahl, i = 1:  dF/dt = σ0 (v - |v| F / Fc)            F = F
//! Dankowicz:    dz/dt = v - |v| z / δ                  F = (Fmax/δ) z
//! both:  dw/ds = e - w / L,  s the slip distance, e = v/|v|, w -> L e
//! over a step at constant v (slip Δu, s = |Δu|):
//!   w' = wss + (w - wss) exp(-s / L),   wss = a e
//!   Dahl: a = Fc, L = Fc/σ0;   Dankowicz: a = δ, L = δ
//! ```
//!
//! This is the vector bristle law of LuGre (Velenis, Tsiotras, Canudas de
//! Wit & Sorine 2005, eq. 7) with a constant `g = Fc` and no damping: Dahl's
//! model is LuGre's rate-independent limit (Canudas de Wit, Olsson, Åström &
//! Lischinsky 1995, sec. 2: σ1 = σ2 = 0, g = Fc; Olsson 1996 eq. 2.12 in
//! 1-D), and Dankowicz's is Dahl's with σ0 = Fmax/δ (Andersson, Söderberg &
//! Björklund 2007, after eq. 18). The state is the bristle deflection (a
//! vector in the plane); its length approaches `a` and never exceeds it from
//! a relaxed start. Dahl with another exponent has no vector form here (see
//! the module documentation).
//!
//! On a path along one axis `e = (±1, 0)` exactly, and the arithmetic is the
//! 1-D exact update's (`update::exact`): the same bits.

use super::{M, T, X, Y};

const LEN: usize = M + 2;

/// The relaxation: the steady length `a`, the relaxation length `l` and the
/// force per unit state `gain`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Relax {
    pub a: f64,
    pub l: f64,
    pub gain: f64,
}

impl Relax {
    /// Dahl with exponent 1 (`F` is the state).
    pub fn dahl(p: &crate::models::dahl::DahlParams) -> Self {
        Relax { a: p.fc, l: p.fc / p.sigma0, gain: 1.0 }
    }

    /// Dankowicz (`F = (Fmax/δ) z`).
    pub fn dankowicz(p: &crate::models::dankowicz::DankowiczParams) -> Self {
        Relax { a: p.delta, l: p.delta, gain: p.fc / p.delta }
    }
}

/// Update the contacts (`[t, x, y, wx, wy]` each); inputs checked by the caller.
pub(super) fn run(r: Relax, dt: f64, du: &[f64], normal: &[f64], state: &mut [f64], force: &mut [f64]) {
    for ((st, f), (u, &nf)) in
        state.chunks_exact_mut(LEN).zip(force.chunks_exact_mut(2)).zip(du.chunks_exact(2).zip(normal))
    {
        st[T] += dt;
        st[X] += u[0];
        st[Y] += u[1];
        let s = (u[0] * u[0] + u[1] * u[1]).sqrt();
        if s != 0.0 {
            let e = (-s / r.l).exp();
            for c in 0..2 {
                let wss = (u[c] / s) * r.a;
                st[M + c] = wss + (st[M + c] - wss) * e;
            }
        }
        // Dahl's force is its state: `1.0 * w` is `w` exactly
        f[0] = nf * (r.gain * st[M]);
        f[1] = nf * (r.gain * st[M + 1]);
    }
}

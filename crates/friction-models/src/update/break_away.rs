//! `armstrong`'s break-away located within a sub-step of the generic
//! implicit update ([`super::implicit`]), and its sensitivity.
//!
//! A stuck Armstrong contact breaks away (stick to slide) where its spring's
//! force `σ0 (x - xa)` reaches the break-away level `Fc + Fs(γ, td)`, which
//! rises with the dwell time `td = t - t_stick`, and the slide keeps the
//! stiction `Fs(γ, td*)` of that instant. [`FrictionModel::accept`] tests
//! the threshold at the end of a sub-step and freezes the stiction of that
//! end: an instant that moves with the step-size control, not with `Δu`
//! alone, so the update was a discontinuous function of the increment in
//! steps with a break-away and its tangent missed the derivative of the
//! instant. Here the break-away is put at its instant `t*` within the
//! sub-step that crosses the threshold.
//!
//! Within a step the slip velocity `v` is constant and, with `s = sign(v)`,
//!
//! ```text
//! ψ(t) = s σ0 (x(t) - xa) - Fc - Fs(γ, t - t_stick),   x(t) = x0 + v (t - t0)
//! Fs(γ, td) = Fs,a + (Fs,ss - Fs,a) td / (td + γ)
//! ```
//!
//! is linear minus concave (`Fs,a <= Fs,ss`): convex, so from a start with
//! `ψ <= 0` it crosses 0 upwards at most once, with `ψ'(t*) > 0`, and
//! Newton's method from the sub-step's end (where `ψ > 0`) converges to
//! `t*` from above, monotonically. A contact already past the threshold at
//! the sub-step's start breaks away there.
//!
//! The lagged velocity `w`, the model's only state, follows `dw/dt =
//! (v - w)/τL` whatever the mode: the break-away leaves it and its
//! sensitivity continuous (no saltation, `g⁻ = g⁺`), and only the memory
//! jumps. Its new stiction's sensitivity is that of a reset at a state-
//! dependent instant (Hiskens & Pai 2000, IEEE Trans. Circuits Syst. I
//! 47(2)), with `τ* = t* - t0`:
//!
//! ```text
//! dt*/dΔu         = -(s σ0 τ*/dt - ∂Fs/∂Fs,a dFs,a/dΔu) / (σ0 |v| - ∂Fs/∂td)
//! dFs,slide/dΔu   = ∂Fs/∂Fs,a dFs,a/dΔu + ∂Fs/∂td dt*/dΔu
//! ∂Fs/∂Fs,a = γ/(td + γ),   ∂Fs/∂td = (Fs,ss - Fs,a) γ/(td + γ)²
//! ```
//!
//! and the sliding force `(Fc + Fs,slide L(w)) d + Fv v` at the step's end
//! adds `d L(w) dFs,slide/dΔu` to the tangent.
//!
//! A stop (a sliding contact whose velocity is reversed or zero) happens
//! where the velocity changes, at the step's start, which is the start of
//! the first sub-step: it is recorded there (`t_stick = t0`, `Fs,a =
//! Fs,slide L(w(t0))`) rather than at the first sub-step's end, so that a
//! break-away later in the same step (the contact reversed) counts its dwell
//! from the instant it stopped. With lag `w(t0)` is the state at the step's
//! start (sensitivity 0); without, `w = v` and `dFs,a/dΔu = Fs,slide
//! L'(v)/dt`.

use super::implicit::Event;
use crate::model::{sign, FrictionModel, Input};
use crate::models::armstrong::{Armstrong, ANCHOR, FS_A, FS_SLIDE, MODE, T_STICK};

/// Newton iterations locating the break-away (it converges in a few; the
/// bound only guards against a stall).
const MAX_NEWTON: usize = 64;

impl Armstrong {
    /// The Lorentzian `L(w) = 1/(1 + (w/vs)²)` and its derivative.
    fn lorentz(&self, w: f64) -> (f64, f64) {
        let vs = self.params().vs;
        let l = 1.0 / (1.0 + (w / vs).powi(2));
        (l, -2.0 * w / (vs * vs) * l * l)
    }

    /// `∂Fs/∂Fs,a` and `∂Fs/∂td` of [`ArmstrongParams::stiction`](crate::models::armstrong::ArmstrongParams::stiction) at `td`.
    fn stiction_partials(&self, fs_a: f64, td: f64) -> (f64, f64) {
        let p = self.params();
        if td <= 0.0 {
            // held at td = 0 before the stick (its right-hand rate is kept)
            return (1.0, (p.fs_ss() - fs_a) / p.gamma);
        }
        let q = p.gamma / (td + p.gamma);
        (q, (p.fs_ss() - fs_a) * q / (td + p.gamma))
    }

    /// The instant within `[start.t, end.t]` at which a stuck contact moving
    /// in direction `s` reaches its break-away level, as the offset from
    /// `start.t` (0 when it is past the level at the start already).
    fn break_away_offset(&self, start: &Input, h: f64, s: f64, mem: &[f64]) -> f64 {
        let p = self.params();
        let (x_rel, v) = (start.x - mem[ANCHOR], start.v);
        let td0 = start.t - mem[T_STICK];
        let psi = |dl: f64| s * p.sigma0 * (x_rel + v * dl) - p.fc - p.stiction(mem[FS_A], td0 + dl);
        if psi(0.0) > 0.0 {
            return 0.0;
        }
        let mut dl = h;
        for _ in 0..MAX_NEWTON {
            let slope = p.sigma0 * v.abs() - self.stiction_partials(mem[FS_A], td0 + dl).1;
            let next = (dl - psi(dl) / slope).clamp(0.0, h);
            // from above, monotonically, until rounding stalls it
            let descends = slope > 0.0 && next < dl;
            if !descends {
                break;
            }
            dl = next;
        }
        dl
    }
}

impl Event for Armstrong {
    fn accept_within(
        &self,
        t0: f64,
        dt: f64,
        start: &Input,
        end: &Input,
        za: &[f64],
        z: &mut [f64],
        mem: &mut [f64],
        mut dmem: Option<&mut [f64]>,
    ) {
        let p = self.params();
        let v = end.v;
        if mem[MODE] != 0.0 && v * mem[MODE] <= 0.0 {
            // a stop, where the velocity changed: at the step's start
            let w = self.lagged(start, za);
            let (l, dl) = self.lorentz(w);
            if let Some(dm) = dmem.as_deref_mut() {
                let dw = if p.tau_l > 0.0 { 0.0 } else { 1.0 / dt };
                dm[FS_A] = dm[FS_SLIDE] * l + mem[FS_SLIDE] * dl * dw;
            }
            mem[MODE] = 0.0;
            mem[T_STICK] = start.t;
            mem[FS_A] = mem[FS_SLIDE] * l;
        }
        if mem[MODE] == 0.0 {
            // the test of `accept` at the sub-step's end, with its operations
            let f_pre = p.sigma0 * (end.x - mem[ANCHOR]);
            let fs_now = p.stiction(mem[FS_A], end.t - mem[T_STICK]);
            if f_pre.abs() > p.fc + fs_now && v * f_pre > 0.0 {
                let s = sign(f_pre);
                let dl = self.break_away_offset(start, end.t - start.t, s, mem);
                let td = start.t + dl - mem[T_STICK];
                let fs_star = p.stiction(mem[FS_A], td);
                if let Some(dm) = dmem {
                    let (da, dtd) = self.stiction_partials(mem[FS_A], td);
                    let dt_star = if dl > 0.0 {
                        let tau = start.t - t0 + dl;
                        -(s * p.sigma0 * tau / dt - da * dm[FS_A]) / (p.sigma0 * v.abs() - dtd)
                    } else {
                        0.0
                    };
                    dm[FS_SLIDE] = da * dm[FS_A] + dtd * dt_star;
                }
                mem[MODE] = s;
                mem[FS_SLIDE] = fs_star;
            }
        }
        // the slide's anchor at the sub-step's end, or the stuck contact's
        // memory unchanged (`accept` finds no break-away left to record)
        self.accept(end, z, mem);
    }

    fn dforce_dmem(&self, end: &Input, z: &[f64], mem: &[f64], dmem: &[f64]) -> f64 {
        let d = mem[MODE];
        if d != 0.0 && end.v * d > 0.0 {
            d * self.lorentz(self.lagged(end, z)).0 * dmem[FS_SLIDE]
        } else {
            0.0
        }
    }
}

//! The dynamic Lagrangian frequency-time method (DLFT) for a contact with
//! true Coulomb stick (model `coulomb`): harmonic balance keeps the stick
//! exact instead of regularising it.
//!
//! Nacivet, Pierre, Thouverez, Jezequel 2003, "A dynamic Lagrangian
//! frequency-time method for the vibration of dry-friction-damped systems",
//! J. Sound Vib. 265, 201-219 (eqs. 14-24).
//!
//! # Equations
//! The balance of the contact's degrees of freedom is
//! `Z(ω) X + B Λ = F_ext`. The force the contact must carry for the linear
//! part to balance is the Lagrange multiplier
//! ```text
//! Λ_u = B⁺ (F_ext - Z(ω) X)        (one body against the ground: row i of F_ext - Z X;
//!                                     two bodies: half the difference of their rows)
//! Λ   = Λ_u + ε (X_rel - X̂_rel)    (the DLFT contact force, in frequency)
//! ```
//! and its time samples are predicted and corrected sample by sample
//! (`x = x_rel(t_n)`, `λ_u = λ_u(t_n)`, `x̂` the corrected displacement):
//! ```text
//! λ_stick = λ_u + ε (x_n - x̂_{n-1})            (prediction: stick, x̂_n = x̂_{n-1})
//! |λ_stick| <= L  :  λ_n = λ_stick, x̂_n = x̂_{n-1}          (stick)
//! otherwise       :  λ_n = N Fc λ_stick/|λ_stick|,
//!                    x̂_n = x_n - (λ_n - λ_u)/ε              (slip, correction to the limit)
//! L = N Fs after a stuck sample, N Fc after a slipping one
//! N = 0 (open)    :  λ_n = 0, x̂_n = x_n + λ_u/ε             (the corrected motion follows)
//! ```
//!
//! The same holds in a plane, with `x`, `x̂` and `λ` the vectors of the
//! two tangential directions and `|·|` their length (the friction disk),
//! and with a normal load `N` that follows a gap sample by sample. While
//! the contact is open it carries no force and its corrected motion follows
//! the motion, so a contact that closes again sticks where it lands (the
//! force it then carries is the multiplier's change since it closed) or
//! slides if it lands moving; the limit after an open sample is `N Fc`.
//! over as many periods as it takes `λ` to repeat (x̂ starts at the rest
//! position 0: a structure that came to its steady state from rest). The
//! coefficients of `λ` are `Λ`. Substituted in the balance, the equations
//! become `ε (X_rel - X̂_rel) = 0` (and the balance of the other rows): a
//! solution has `X̂ = X` in every retained harmonic, where the corrected
//! motion is the motion itself and `λ` is the exact Coulomb force (stick
//! wherever the multiplier stays inside the disk, `|λ| = N Fc` with the
//! sign of the velocity in slip). The exact (all-harmonics) solution does
//! not depend on the penalty `ε` \[N/m\], which shapes the path of Newton's
//! iterations. At finite H it is not exact: the samples of `x̂` keep
//! harmonics above H, and the stick/slip decision near a reversal sees the
//! Gibbs ripple of the truncated multiplier, so the truncated solution
//! depends on ε through its truncation error. Measured on Den Hartog's
//! oscillator at 13 Hz (tests/hb_dlft.rs), the peaks with ε = k and 100 k
//! differ by 2.1e-2, 9.0e-3, 2.8e-3, 6.2e-4 at H = 7, 15, 31, 63, both
//! converging to the exact amplitude; not 1e-10.
//!
//! # Harmonics and the penalty
//! The contact force is discontinuous (a jump of 2 N Fc at each reversal):
//! its coefficients decay as 1/k and the peak converges slowly in H. Near
//! each reversal the samples also stick for a moment: the prediction
//! `λ_u + ε (x_n - x̂_{n-1})` takes about `sqrt(4 N Fc / (ε a))` (`a` the
//! acceleration there) to cross from one slip limit to the other, which
//! delays the jump. Away from resonance that is most of the error. On Den
//! Hartog's oscillator (Ff/F0 = 0.2, tests/hb_dlft.rs), at H = 63:
//!
//! | ε | samples | 8 Hz | 15.9 Hz (resonance) | 20 Hz | 30 Hz |
//! |---|---|---|---|---|---|
//! | 100 k (the default) | 2048 | 3.2e-4 | 2.3e-6 | 4.8e-3 | 6.1e-3 |
//! | 1e6 k (1e10 N/m) | 8192 | 5.5e-5 | 3.5e-6 | 4.2e-4 | 7.7e-4 |
//!
//! A larger penalty needs the samples to resolve its shorter stick (ε =
//! 1e10 N/m with 2048 samples does not converge at 30 Hz), and makes
//! Newton's path harder, which is why it is not the default: give
//! `--dlft-penalty` and `--samples` ([`super::frf::FrfOptions`]) for the
//! accuracy off resonance. `friction frf`'s H -> 2H check is made at the
//! largest response only: off resonance a `coulomb` contact may need more
//! harmonics than it chooses (give `--harmonics`).
//!
//! # Fs > Fc
//! Once the force has passed `N Fc`, a slip that starts goes on. The
//! samples of a stuck contact's prediction carry the truncated motion's
//! ripple times ε, which can cross `N Fs` before the force itself does, and
//! the balance then has a solution that slips early, one `friction run`
//! does not reach from it. Measured against the engine's steady state
//! (tests/hb_planes.rs, tests/hb_gaps.rs): a joint in a plane at 10 N,
//! Fs = 0.4 and Fc = 0.3, 1.7 % of its slip's amplitude at H = 31 and
//! 1.6 % at H = 63 (0.34 % with Fs = Fc); a joint on a floor at 7 N, 5.7 %
//! at H = 31 (1.9 % with Fs = Fc). `friction frf` says so for every such
//! contact ([`super::frf::cautions`]). Taking the stuck limit after a
//! slipping sample whose motion turned back (an arrival) did not change
//! the plane's solution (1e-12).
//!
//! Only `coulomb` is treated (its `fs` >= `fc` as the model defines it).
//! Two DLFT contacts may not share a body (their multipliers would depend
//! on each other); that is refused by [`super::structure::Structure`].

use friction_models::{FrictionModel, Input};
use friction_sim::AnyModel;

use super::harmonics::Grid;
use super::harmonics::{repeats, MAX_PERIODS};

/// Whether `model` is evaluated by the dynamic Lagrangian method.
pub fn is_dlft(model: &AnyModel) -> bool {
    model.info().id == "coulomb"
}

/// The slip force `Fc` and the stick limit `Fs` of a `coulomb` model (per
/// unit normal load, as the model defines them).
pub fn limits(model: &AnyModel) -> (f64, f64) {
    let fc = model.force(&Input::new(0.0, 0.0, 1.0), &[], &[]).abs();
    let fs = model.max_static(&[], &[]).unwrap_or(fc).max(fc);
    (fc, fs)
}

/// Work arrays of one DLFT contact (allocated once): one tangential
/// direction, or two for a contact that rubs in a plane.
#[derive(Debug, Clone)]
pub struct ContactDlft {
    /// The tangential directions (1, or 2 in a plane).
    axes: usize,
    /// The relative displacement's samples, axis by axis (`axes × N`).
    x: Vec<f64>,
    /// The multiplier's samples, axis by axis.
    lu: Vec<f64>,
    /// The contact force's samples, axis by axis.
    lam: Vec<f64>,
    prev: Vec<f64>,
    /// Periods run by the last evaluation.
    pub periods: usize,
    /// Whether the last evaluation reached the periodic steady state.
    pub settled: bool,
}

impl ContactDlft {
    /// Work arrays on `grid` for `axes` tangential directions (1 or 2).
    pub fn new(grid: &Grid, axes: usize) -> Self {
        let z = || vec![0.0; axes * grid.n];
        ContactDlft { axes, x: z(), lu: z(), lam: z(), prev: z(), periods: 0, settled: true }
    }

    /// The tangential directions this contact's arrays hold.
    pub fn axes(&self) -> usize {
        self.axes
    }

    /// The force samples of the last evaluation (one period, axis by axis) \[N\].
    #[cfg(test)]
    pub fn force_samples(&self) -> &[f64] {
        &self.lam
    }

    /// The coefficients `out` of the contact force λ \[N\] (on the first
    /// member, against its motion; `axes × (2H + 1)`, axis by axis) for the
    /// relative displacement of coefficients `rel` and the multiplier
    /// `lam_u` (coefficients of the force the linear balance asks of the
    /// contact; both axis by axis), slip force `fc` and stick limit `fs`
    /// per unit load, the normal load's samples `load` \[N\] (negative ones
    /// count as 0: the contact is open there) and penalty `eps` \[N/m\].
    #[allow(clippy::too_many_arguments)]
    pub fn eval(
        &mut self,
        grid: &Grid,
        rel: &[f64],
        lam_u: &[f64],
        (fc, fs): (f64, f64),
        load: &[f64],
        eps: f64,
        out: &mut [f64],
    ) {
        let (n, l, axes) = (grid.n, grid.len(), self.axes);
        for a in 0..axes {
            grid.synth(&rel[a * l..(a + 1) * l], &mut self.x[a * n..(a + 1) * n]);
            grid.synth(&lam_u[a * l..(a + 1) * l], &mut self.lu[a * n..(a + 1) * n]);
        }
        let mut xh = [0.0; 2];
        let mut stuck = true;
        self.settled = false;
        for p in 0..MAX_PERIODS {
            for i in 0..n {
                let nl = load[i].max(0.0);
                let mut pred = [0.0; 2];
                for a in 0..axes {
                    pred[a] = self.lu[a * n + i] + eps * (self.x[a * n + i] - xh[a]);
                }
                let mag = if axes == 1 { pred[0].abs() } else { pred[0].hypot(pred[1]) };
                let limit = nl * if stuck { fs } else { fc };
                if nl > 0.0 && mag <= limit {
                    for a in 0..axes {
                        self.lam[a * n + i] = pred[a];
                    }
                    stuck = true;
                } else {
                    // slip to the limit along the prediction; open (no
                    // load): no force, the corrected motion follows
                    for a in 0..axes {
                        // (pred/mag is exactly ±1 along one direction)
                        let lam = if nl > 0.0 { nl * fc * (pred[a] / mag) } else { 0.0 };
                        self.lam[a * n + i] = lam;
                        xh[a] = self.x[a * n + i] - (lam - self.lu[a * n + i]) / eps;
                    }
                    stuck = false;
                }
            }
            self.periods = p + 1;
            if p > 0 && repeats(&self.lam, &self.prev) {
                self.settled = true;
                break;
            }
            self.prev.copy_from_slice(&self.lam);
        }
        for a in 0..axes {
            grid.analyse(&self.lam[a * n..(a + 1) * n], &mut out[a * l..(a + 1) * l]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use friction_sim::{build_model, ParamMap, ParamValue};

    /// A multiplier inside the disk and a motion with no harmonics: the
    /// contact sticks at rest and carries exactly the multiplier; one that
    /// leaves the disk: the force never exceeds Fc and is ±Fc where the
    /// multiplier is largest.
    #[test]
    fn stick_carries_the_multiplier_and_slip_saturates_at_fc() {
        let grid = Grid::new(2, 64);
        let mut c = ContactDlft::new(&grid, 1);
        let mut out = [0.0; 5];
        let load = [1.0; 64];
        c.eval(&grid, &[0.0; 5], &[0.0, 0.5, 0.0, 0.0, 0.0], (1.0, 1.0), &load, 1e3, &mut out);
        assert!((out[1] - 0.5).abs() < 1e-12 && out[0].abs() < 1e-12, "{out:?}");
        c.eval(&grid, &[0.0; 5], &[0.0, 5.0, 0.0, 0.0, 0.0], (1.0, 1.0), &load, 1e3, &mut out);
        let f = c.force_samples();
        assert!(f.iter().all(|v| v.abs() <= 1.0 + 1e-12), "{f:?}");
        assert!((f[0] - 1.0).abs() < 1e-12 && (f[32] + 1.0).abs() < 1e-12, "{f:?}");
    }

    /// In a plane: a multiplier turning on a circle of radius 0.5 inside
    /// the disk of radius 1 is carried exactly (stick, no motion); one of
    /// radius 5 gives a force of magnitude Fc N at every sample, turning
    /// with the multiplier at a constant angle to it; where the load falls
    /// to 0 (the second half of the period) the force is 0, the corrected
    /// motion follows the motion there, and the contact sticks again from
    /// its first loaded sample, where it landed: its force the multiplier's
    /// change since the last open sample, `λu(τ) - λu(τ_63)`.
    #[test]
    fn in_a_plane_the_force_sticks_inside_the_disk_slides_on_its_rim_and_vanishes_open() {
        let grid = Grid::new(2, 64);
        let mut c = ContactDlft::new(&grid, 2);
        let mut out = [0.0; 10];
        let load = [2.0; 64];
        // λu = r (cos τ, sin τ): x coefficients [0, r, 0, ..], y [0, 0, r, ..]
        let lu = |r: f64| [0.0, r, 0.0, 0.0, 0.0, 0.0, 0.0, r, 0.0, 0.0];
        c.eval(&grid, &[0.0; 10], &lu(0.5), (0.5, 0.6), &load, 1e3, &mut out);
        assert!((out[1] - 0.5).abs() < 1e-12 && (out[7] - 0.5).abs() < 1e-12, "{out:?}");
        c.eval(&grid, &[0.0; 10], &lu(5.0), (0.5, 0.6), &load, 1e3, &mut out);
        let f = c.force_samples();
        // the rim, and a constant angle to the multiplier (the motion is the
        // same at every sample up to a rotation), less than a right angle
        let lag = |i: usize| {
            let tau = 2.0 * std::f64::consts::PI * i as f64 / 64.0;
            (tau.cos() * f[64 + i] - tau.sin() * f[i]).atan2(tau.cos() * f[i] + tau.sin() * f[64 + i])
        };
        for i in 0..64 {
            let (fx, fy) = (f[i], f[64 + i]);
            assert!((fx.hypot(fy) - 1.0).abs() < 1e-12, "sample {i}: |F| = {}", fx.hypot(fy));
            assert!((lag(i) - lag(0)).abs() < 1e-9, "sample {i}: lag {} against {}", lag(i), lag(0));
        }
        assert!(lag(0).abs() < std::f64::consts::FRAC_PI_2, "lag {}", lag(0));
        let half: Vec<f64> = (0..64).map(|i| if i < 32 { 2.0 } else { 0.0 }).collect();
        c.eval(&grid, &[0.0; 10], &lu(0.5), (0.5, 0.6), &half, 1e3, &mut out);
        let f = c.force_samples();
        for i in 0..64 {
            let tau = 2.0 * std::f64::consts::PI * i as f64 / 64.0;
            let t63 = 2.0 * std::f64::consts::PI * 63.0 / 64.0;
            let want = if i < 32 {
                [0.5 * (tau.cos() - t63.cos()), 0.5 * (tau.sin() - t63.sin())]
            } else {
                [0.0; 2]
            };
            assert!((f[i] - want[0]).abs() < 1e-12 && (f[64 + i] - want[1]).abs() < 1e-12, "sample {i}");
        }
    }

    /// `coulomb` with fs > fc: stick limit fs, slip force fc.
    #[test]
    fn limits_read_the_model() {
        let mut m = ParamMap::new();
        m.insert("fc".into(), ParamValue::Num(2.0));
        m.insert("fs".into(), ParamValue::Num(3.0));
        let model = build_model("coulomb", &m).unwrap();
        assert!(is_dlft(&model));
        assert_eq!(limits(&model), (2.0, 3.0));
    }
}

//! `bouc_wen`: the Bouc-Wen smooth hysteresis model in its friction form
//! (restoring force carried by the hysteretic variable only).
//!
//! # Equations
//! ```text
//! dz/dt = A v - β |v| |z|^(n-1) z - γ v |z|^n        (Wen 1976 notation)
//! F = kj z                                          (friction form: c = 0 in the Sandia friction-model study eq. 15)
//! loading   (z v > 0): dz/dx = A - (β + γ) |z|^n
//! unloading (z v < 0): dz/dx = A + (β - γ) |z|^n
//! sliding force: |F| -> Fu = kj (A / (β + γ))^(1/n)
//! Bouc (n = 1, γ = 0): dz/dx = A - β sign(v) z, Dahl's i = 1 branch with σ0 = kj A, Fc = kj A/β
//! the Sandia friction-model study eq. 16 writes dz/dt = {A - [α sgn(z v) - β'] |z|^n} v: α = β here, β' = -γ here
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | A | `a` | - | (0, inf) | 1 | initial slope dz/dx at z = 0 |
//! | β | `beta` | 1/m^n | [0, inf) | 50000 | hysteretic (dissipative) shape coefficient; beta + gamma > 0 |
//! | γ | `gamma` | 1/m^n | (-inf, inf) | 50000 | non-hysteretic shape coefficient; beta + gamma > 0 |
//! | n | `n` | - | (0, inf) | 1 | sharpness of the pre-sliding to sliding transition |
//! | kj | `k` | N/m | (0, inf) | 100000 | force scale: F = kj z (initial stiffness kj A) |
//!
//! With the defaults the contact has an initial stiffness of 1e5 N/m and a
//! sliding force of 1 N, reached after a pre-sliding distance of order 1e-5 m.
//!
//! # States
//! `z[0] = z`, the hysteretic displacement \[m\]; starts at 0 (relaxed contact).
//! For `β + γ > 0` the set |z| <= (A/(β + γ))^(1/n) is invariant.
//!
//! # Choices
//! The Sandia friction-model study (eq. 15) gives the structural restoring force
//! `F = kj [c u + (1 - c) z]`. The elastic part `c kj u` grows without bound
//! with the absolute displacement, which a friction contact in gross sliding
//! cannot do, so this model takes the friction form `c = 0`: `F = kj z`.
//! The shape coefficients follow Wen's usual notation (`beta` multiplies the
//! `|v|` term and alone makes the loop dissipative: the unloading slope exceeds
//! the loading slope by `2 β |z|^n`). `β = 0` gives a non-hysteretic nonlinear
//! spring. The parameter name `beta` is also used by `iwan4`/`iwan5` with an
//! unrelated meaning (the exponent of the Iwan slip-force density).
//!
//! # Sources
//! the Sandia friction-model study, section 1.5, eqs. 15-17 (Bouc-Wen and the Bouc
//! special case); Y.K. Wen, "Method for random vibration of hysteretic
//! systems", J. Eng. Mech. Div. ASCE 102(2), 1976; R. Bouc, "Forced
//! vibrations of mechanical systems with hysteresis", Proc. 4th Conf. on
//! Nonlinear Oscillations, Prague, 1967.

use crate::error::ModelError;
use crate::model::{sign, Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamMap, ParamReader, ParamSpec, Range};

/// Static description of `bouc_wen`.
pub static INFO: ModelInfo = ModelInfo {
    id: "bouc_wen",
    summary: "Bouc-Wen smooth hysteresis dz/dt = A v - β|v||z|^(n-1)z - γ v|z|^n, F = kj z",
    family: Family::ContinuousState,
    equations: "dz/dt = A v - β |v| |z|^(n-1) z - γ v |z|^n        (Wen 1976 notation)
F = kj z                                          (friction form: c = 0 in the Sandia friction-model study eq. 15)
loading   (z v > 0): dz/dx = A - (β + γ) |z|^n
unloading (z v < 0): dz/dx = A + (β - γ) |z|^n
sliding force: |F| -> Fu = kj (A / (β + γ))^(1/n)
Bouc (n = 1, γ = 0): dz/dx = A - β sign(v) z, Dahl's i = 1 branch with σ0 = kj A, Fc = kj A/β
the Sandia friction-model study eq. 16 writes dz/dt = {A - [α sgn(z v) - β'] |z|^n} v: α = β here, β' = -γ here",
    params: &[
        ParamSpec::real("a", "A", "-", 1.0, Range::POSITIVE, "initial slope dz/dx at z = 0"),
        ParamSpec::real(
            "beta",
            "β",
            "1/m^n",
            5e4,
            Range::NON_NEGATIVE,
            "hysteretic (dissipative) shape coefficient; beta + gamma > 0",
        ),
        ParamSpec::real(
            "gamma",
            "γ",
            "1/m^n",
            5e4,
            Range::ANY,
            "non-hysteretic shape coefficient; beta + gamma > 0",
        ),
        ParamSpec::real(
            "n",
            "n",
            "-",
            1.0,
            Range::POSITIVE,
            "sharpness of the pre-sliding to sliding transition",
        ),
        ParamSpec::real(
            "k",
            "kj",
            "N/m",
            1e5,
            Range::POSITIVE,
            "force scale: F = kj z (initial stiffness kj A)",
        ),
    ],
    states: "z[0] = z, the hysteretic displacement [m]",
    sources: "the Sandia friction-model study sec. 1.5 eqs. 15-17; Wen 1976; Bouc 1967",
};

/// Parameters of [`BoucWen`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoucWenParams {
    /// Initial slope `A` of z against x [-].
    pub a: f64,
    /// Hysteretic shape coefficient `β` [1/m^n].
    pub beta: f64,
    /// Non-hysteretic shape coefficient `γ` [1/m^n].
    pub gamma: f64,
    /// Exponent `n` [-].
    pub n: f64,
    /// Force scale `kj` [N/m].
    pub k: f64,
}

impl Default for BoucWenParams {
    fn default() -> Self {
        BoucWenParams { a: 1.0, beta: 5e4, gamma: 5e4, n: 1.0, k: 1e5 }
    }
}

impl BoucWenParams {
    /// Check every parameter against its range and `β + γ > 0` (bounded z).
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "a", self.a)?;
        check(&INFO, "beta", self.beta)?;
        check(&INFO, "gamma", self.gamma)?;
        check(&INFO, "n", self.n)?;
        check(&INFO, "k", self.k)?;
        if self.beta + self.gamma <= 0.0 {
            return Err(ModelError::Constraint {
                model: INFO.id,
                name: "gamma",
                value: self.gamma,
                message: format!(
                    "beta + gamma must be > 0 (beta = {}), otherwise z grows without bound in sliding",
                    self.beta
                ),
            });
        }
        Ok(())
    }

    /// The ultimate (sliding) value of |z|, `(A / (β + γ))^(1/n)` \[m\].
    pub fn z_ultimate(&self) -> f64 {
        (self.a / (self.beta + self.gamma)).powf(1.0 / self.n)
    }

    /// The sliding force `Fu = kj (A / (β + γ))^(1/n)` \[N\].
    pub fn sliding_force(&self) -> f64 {
        self.k * self.z_ultimate()
    }
}

/// The Bouc-Wen model (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input, models::bouc_wen::{BoucWen, BoucWenParams}};
/// let m = BoucWen::new(BoucWenParams::default()).unwrap();
/// // sliding force kj A / (β + γ) = 1e5 / 1e5 = 1 N
/// assert!((m.params().sliding_force() - 1.0).abs() < 1e-12);
/// let mut dz = [0.0];
/// // at z = 0 the slope dz/dx is A, so dz/dt = A v
/// m.rates(&Input::new(0.0, 0.0, 0.5), &[0.0], &[], &mut dz);
/// assert_eq!(dz[0], 0.5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoucWen {
    p: BoucWenParams,
}

impl BoucWen {
    /// A validated model.
    pub fn new(p: BoucWenParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(BoucWen { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = BoucWenParams {
            a: r.real("a")?,
            beta: r.real("beta")?,
            gamma: r.real("gamma")?,
            n: r.real("n")?,
            k: r.real("k")?,
        };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &BoucWenParams {
        &self.p
    }
}

impl FrictionModel for BoucWen {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn state_quantity(&self, k: usize) -> crate::model::Quantity {
        use crate::model::Quantity as Q;
        if k == 0 {
            Q::Displacement
        } else {
            Q::Unknown
        }
    }
    fn n_states(&self) -> usize {
        1
    }
    fn force(&self, _inp: &Input, z: &[f64], _mem: &[f64]) -> f64 {
        self.p.k * z[0]
    }
    fn rates(&self, inp: &Input, z: &[f64], _mem: &[f64], dz: &mut [f64]) {
        let v = inp.v;
        let zz = z[0];
        // |z|^(n-1) z written as sign(z) |z|^n: no 0^(negative) for n < 1
        let zn = if self.p.n == 1.0 { zz.abs() } else { zz.abs().powf(self.p.n) };
        dz[0] = self.p.a * v - (self.p.beta * v.abs() * sign(zz) + self.p.gamma * v) * zn;
    }
    /// g = A v - (β |v| sign(z) + γ v) |z|^n, F = kj z:
    /// ∂g/∂z = -n |z|^(n-1) (β |v| + γ v sign(z)), ∂g/∂v = A - (β sign(v) sign(z) + γ) |z|^n;
    /// ∂F/∂z = kj. At z = 0 and v = 0 the right-hand sides (sign = +1); at
    /// z = 0 with n != 1, 0 (exact for n > 1; n < 1 has an infinite slope there).
    fn partials(&self, inp: &Input, z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        let (v, zz, n) = (inp.v, z[0], self.p.n);
        let sz = if zz < 0.0 { -1.0 } else { 1.0 };
        let sv = if v < 0.0 { -1.0 } else { 1.0 };
        let (zn, dzn) = if n == 1.0 {
            (zz.abs(), 1.0)
        } else if zz == 0.0 {
            (0.0, 0.0)
        } else {
            (zz.abs().powf(n), n * zz.abs().powf(n - 1.0))
        };
        p.df_dx = 0.0;
        p.df_dv = 0.0;
        p.df_dz[0] = self.p.k;
        p.dg_dx[0] = 0.0;
        p.dg_dz[0] = -dzn * (self.p.beta * v.abs() + self.p.gamma * v * sz);
        p.dg_dv[0] = self.p.a - (self.p.beta * sv * sign(zz) + self.p.gamma) * zn;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{drive, force_at_end, work, Path};

    /// Bouc's special case (n = 1, γ = 0; the Sandia friction-model study eq. 17) is linear in z on
    /// each monotone branch: z = sign(v) A/β + (z_r - sign(v) A/β) exp(-β |x - x_r|)
    /// from the last reversal (x_r, z_r). Check the virgin branch and the
    /// unloading branch, which crosses z = 0, against this closed form.
    #[test]
    fn bouc_special_case_matches_its_closed_form() {
        let p = BoucWenParams { a: 0.8, beta: 2e4, gamma: 0.0, n: 1.0, k: 5e4 };
        let m = BoucWen::new(p).unwrap();
        let (x1, x2) = (1.2e-4, -1.5e-4);
        let rec = drive(&m, &Path::points(&[0.0, x1, x2], 1e-3), 2e-5);
        let rev = rec.iter().position(|r| r.x >= x1 - 1e-15).unwrap();
        let branch = |x: f64, xr: f64, zr: f64, s: f64| {
            let zs = s * p.a / p.beta;
            zs + (zr - zs) * (-p.beta * (x - xr).abs()).exp()
        };
        let zr = branch(x1, 0.0, 0.0, 1.0);
        let mut worst: f64 = 0.0;
        for r in &rec {
            let z = if r.t <= rec[rev].t { branch(r.x, 0.0, 0.0, 1.0) } else { branch(r.x, x1, zr, -1.0) };
            worst = worst.max((r.f - p.k * z).abs());
        }
        assert!(worst < 1e-7 * p.k * p.a / p.beta, "worst deviation {worst} N");
        // the unloading branch really crossed zero and approached the far asymptote
        assert!(rec.last().unwrap().f < -0.9 * p.k * p.a / p.beta);
    }

    /// With γ != 0 and n = 1 the virgin branch is still exponential, with rate
    /// β + γ: F = Fu (1 - exp(-(β + γ) x)).
    #[test]
    fn virgin_branch_with_gamma_is_exponential_with_rate_beta_plus_gamma() {
        let p = BoucWenParams { a: 1.0, beta: 3e4, gamma: -1e4, n: 1.0, k: 1e5 };
        let m = BoucWen::new(p).unwrap();
        let rec = drive(&m, &Path::points(&[0.0, 2e-4], 1e-2), 2e-4);
        for r in &rec {
            let exact = p.sliding_force() * (1.0 - (-(p.beta + p.gamma) * r.x).exp());
            assert!((r.f - exact).abs() < 1e-7, "x {} F {} exact {exact}", r.x, r.f);
        }
    }

    /// In long unidirectional sliding the force tends to kj (A/(β+γ))^(1/n)
    /// for any exponent, and never exceeds it.
    #[test]
    fn sliding_force_is_the_ultimate_value_for_any_exponent() {
        for n in [0.5, 1.0, 2.0, 5.0] {
            let p = BoucWenParams { a: 1.0, beta: 6e4, gamma: 4e4, n, k: 1e5 };
            let m = BoucWen::new(p).unwrap();
            let zu = p.z_ultimate();
            let rec = drive(&m, &Path::points(&[0.0, 60.0 * zu], 1e-3), 0.02 * zu / 1e-3);
            let fu = p.sliding_force();
            assert!(rec.iter().all(|r| r.f <= fu * (1.0 + 1e-9)), "n = {n}");
            let f = force_at_end(&rec);
            assert!((f - fu).abs() < 1e-3 * fu, "n = {n}: {f} vs {fu}");
        }
    }

    /// Rate independence: the same F-x loop at speeds 1e-4 and 1 m/s.
    #[test]
    fn same_loop_at_two_speeds() {
        let m = BoucWen::new(BoucWenParams { n: 2.0, beta: 6e9, gamma: 2e9, ..Default::default() }).unwrap();
        let pts = [0.0, 3e-5, -2e-5, 1e-5];
        // the same number of steps per segment at both speeds (dx = 2.1e-7 m)
        let slow = drive(&m, &Path::points(&pts, 1e-4), 2.1e-3);
        let fast = drive(&m, &Path::points(&pts, 1.0), 2.1e-7);
        assert_eq!(slow.len(), fast.len());
        for (a, b) in slow.iter().zip(&fast) {
            assert!((a.x - b.x).abs() < 1e-15);
            assert!((a.f - b.f).abs() < 1e-9, "x {}: {} vs {}", a.x, a.f, b.f);
        }
    }

    /// A closed displacement cycle dissipates energy when β > 0 (for several
    /// shapes), and dissipates none when β = 0: the model is then a
    /// non-hysteretic nonlinear spring.
    #[test]
    fn closed_loops_dissipate_only_with_beta() {
        // shape coefficients as fractions of zu^-n, so that zu = 1e-5 m for every n
        let shaped = |bf: f64, gf: f64, n: f64| {
            let s = 1e-5f64.powf(-n);
            BoucWen::new(BoucWenParams { beta: bf * s, gamma: gf * s, n, ..Default::default() }).unwrap()
        };
        let amp = 4e-5;
        let cycle = Path::points(&[0.0, amp, -amp, amp], 1e-3);
        let loop_work = |m: &BoucWen| {
            let rec = drive(m, &cycle, 1e-5);
            let n0 = rec.iter().position(|r| r.x >= amp - 1e-15).unwrap();
            work(&rec[n0..])
        };
        for (bf, gf, n) in
            [(0.5, 0.5, 1.0), (0.8, 0.2, 1.0), (1.0, 0.0, 2.0), (0.4, 0.6, 3.0), (0.9, 0.1, 0.7)]
        {
            let m = shaped(bf, gf, n);
            let w = loop_work(&m);
            let fu = m.params().sliding_force();
            assert!(w > 0.5 * fu * amp, "beta {bf} gamma {gf} n {n}: loop work {w}");
            assert!(w < 4.0 * fu * amp, "beta {bf} gamma {gf} n {n}: loop work {w}");
        }
        let w = loop_work(&shaped(0.0, 1.0, 1.0));
        assert!(w.abs() < 1e-10, "beta = 0: loop work {w}");
    }

    /// Odd symmetry: F(-v, -z) = -F(v, z) and the rates flip sign, and a
    /// mirrored displacement history gives the mirrored force history.
    #[test]
    fn odd_symmetry() {
        let s = 1e-5f64.powf(-1.7);
        let m = BoucWen::new(BoucWenParams { n: 1.7, gamma: -0.2 * s, beta: 0.9 * s, ..Default::default() })
            .unwrap();
        let (mut d1, mut d2) = ([0.0], [0.0]);
        for (v, z) in [(0.3, 2e-6), (-1.0, 7e-6), (2.0, -3e-6), (0.0, 1e-6), (1e-3, 0.0)] {
            m.rates(&Input::new(0.0, 0.0, v), &[z], &[], &mut d1);
            m.rates(&Input::new(0.0, 0.0, -v), &[-z], &[], &mut d2);
            assert_eq!(d1[0], -d2[0]);
            let f = m.force(&Input::new(0.0, 0.0, v), &[z], &[]);
            assert_eq!(f, -m.force(&Input::new(0.0, 0.0, -v), &[-z], &[]));
        }
        let a = drive(&m, &Path::points(&[0.0, 3e-5, -1e-5], 1e-3), 1e-5);
        let b = drive(&m, &Path::points(&[0.0, -3e-5, 1e-5], 1e-3), 1e-5);
        for (ra, rb) in a.iter().zip(&b) {
            assert!((ra.f + rb.f).abs() < 1e-12);
        }
    }

    /// β + γ <= 0 would let z grow without bound and is refused.
    #[test]
    fn unbounded_shape_is_refused() {
        let e = BoucWen::new(BoucWenParams { beta: 1e4, gamma: -1e4, ..Default::default() }).unwrap_err();
        assert!(matches!(e, ModelError::Constraint { name: "gamma", .. }), "{e}");
    }
}

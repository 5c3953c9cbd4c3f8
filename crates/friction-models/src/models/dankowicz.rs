//! `dankowicz`: Dankowicz's micro-slip model, a first-order state equation
//! whose force is a spring on a deflection that saturates at δ.
//!
//! # Equations
//! ```text
//! dz/dt = v (1 - (z/δ) sign(v))
//! F = (Fmax/δ) z
//! rate independent: dz/dx = 1 - (z/δ) sign(v); |z| <= δ is invariant
//! first loading from z = 0: z(x) = δ (1 - exp(-x/δ)), F -> Fmax after a few δ
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | Fmax | `fc` | N | (0, inf) | 1 | maximum friction force (the Coulomb sliding force) |
//! | δ | `delta` | m | (0, inf) | 0.00001 | micro-slip displacement before gross slip |
//!
//! The default δ = 1e-5 m is the value of Andersson, Söderberg, Björklund 2007, Table 1.
//!
//! # States
//! `z[0] = z`, the micro-slip (help) variable \[m\]; starts at 0 (relaxed
//! contact). A branch approaches ±δ and never crosses it. For very small
//! displacements the model is a linear spring of stiffness Fmax/δ without
//! damping (Andersson, Söderberg, Björklund 2007, Fig. 6). With σ0 = Fmax/δ it is the same model as
//! `dahl` with exponent 1 (Andersson, Söderberg, Björklund 2007, after eq. 18).
//!
//! # Sources
//! Andersson, Söderberg, Björklund 2007, eqs. 13-15;
//! H. Dankowicz, "On the modeling of dynamic friction phenomena",
//! ZAMM 79(6), 399-409, 1999.

use crate::error::ModelError;
use crate::model::{sign, Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamMap, ParamReader, ParamSpec, Range};

/// Static description of `dankowicz`.
pub static INFO: ModelInfo = ModelInfo {
    id: "dankowicz",
    summary: "Dankowicz micro-slip model dz/dt = v (1 - z/δ sgn v), F = Fmax z/δ (rate independent)",
    family: Family::ContinuousState,
    equations: "dz/dt = v (1 - (z/δ) sign(v))
F = (Fmax/δ) z
rate independent: dz/dx = 1 - (z/δ) sign(v); |z| <= δ is invariant
first loading from z = 0: z(x) = δ (1 - exp(-x/δ)), F -> Fmax after a few δ",
    params: &[
        ParamSpec::real(
            "fc",
            "Fmax",
            "N",
            1.0,
            Range::POSITIVE,
            "maximum friction force (the Coulomb sliding force)",
        ),
        ParamSpec::real(
            "delta",
            "δ",
            "m",
            1e-5,
            Range::POSITIVE,
            "micro-slip displacement before gross slip",
        ),
    ],
    states: "z[0] = z, the micro-slip variable [m], |z| <= δ",
    sources: "Andersson, Söderberg, Björklund 2007 eqs. 13-15; Dankowicz 1999",
};

/// Parameters of [`Dankowicz`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DankowiczParams {
    /// Maximum friction force `Fmax` \[N\].
    pub fc: f64,
    /// Micro-slip displacement `δ` \[m\].
    pub delta: f64,
}

impl Default for DankowiczParams {
    fn default() -> Self {
        DankowiczParams { fc: 1.0, delta: 1e-5 }
    }
}

impl DankowiczParams {
    /// Check every parameter against its range.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "fc", self.fc)?;
        check(&INFO, "delta", self.delta)
    }
}

/// `(∂g/∂z, ∂g/∂v)` of the micro-slip law g = v (1 - (z/δ) sign(v)) = v - |v| z/δ
/// (at v = 0 the right-hand side), shared with `stribeck_dankowicz`.
#[inline]
pub(crate) fn micro_slip_partials(v: f64, z: f64, delta: f64) -> (f64, f64) {
    let sv = if v < 0.0 { -1.0 } else { 1.0 };
    (-v.abs() / delta, 1.0 - sv * z / delta)
}

/// Dankowicz's micro-slip model (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::dankowicz::{Dankowicz, DankowiczParams};
/// let m = Dankowicz::new(DankowiczParams { fc: 2.0, delta: 1e-5 }).unwrap();
/// // at z = δ/2, moving forward, z grows at half the sliding speed
/// let mut dz = [0.0];
/// m.rates(&Input::new(0.0, 0.0, 0.1), &[0.5e-5], &[], &mut dz);
/// assert!((dz[0] - 0.05).abs() < 1e-15);
/// // and the force is half of Fmax
/// assert!((m.force(&Input::new(0.0, 0.0, 0.1), &[0.5e-5], &[]) - 1.0).abs() < 1e-12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dankowicz {
    p: DankowiczParams,
}

impl Dankowicz {
    /// A validated model.
    pub fn new(p: DankowiczParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(Dankowicz { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = DankowiczParams { fc: r.real("fc")?, delta: r.real("delta")? };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &DankowiczParams {
        &self.p
    }
}

impl FrictionModel for Dankowicz {
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
        self.p.fc / self.p.delta * z[0]
    }
    fn rates(&self, inp: &Input, z: &[f64], _mem: &[f64], dz: &mut [f64]) {
        dz[0] = inp.v * (1.0 - z[0] / self.p.delta * sign(inp.v));
    }
    /// g = v - |v| z/δ, F = (Fmax/δ) z: ∂g/∂z = -|v|/δ, ∂g/∂v = 1 - sign(v) z/δ
    /// (at v = 0 the right-hand side), ∂F/∂z = Fmax/δ.
    fn partials(&self, inp: &Input, z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        let (dg_dz, dg_dv) = micro_slip_partials(inp.v, z[0], self.p.delta);
        p.df_dx = 0.0;
        p.df_dv = 0.0;
        p.df_dz[0] = self.p.fc / self.p.delta;
        p.dg_dx[0] = 0.0;
        p.dg_dz[0] = dg_dz;
        p.dg_dv[0] = dg_dv;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::dahl::{Dahl, DahlParams};
    use crate::testing::{drive, force_at_end, work, Path};

    fn model() -> Dankowicz {
        Dankowicz::new(DankowiczParams { fc: 1.2, delta: 2e-5 }).unwrap()
    }

    /// From a relaxed contact a monotone displacement follows the exponential
    /// branch z(x) = δ (1 - exp(-x/δ)), i.e. F = Fmax (1 - exp(-x/δ)); both
    /// directions.
    #[test]
    fn first_loading_branch_is_the_exponential_closed_form() {
        let m = model();
        let (fc, d) = (m.params().fc, m.params().delta);
        for end in [1e-4, -1e-4] {
            let rec = drive(&m, &Path::points(&[0.0, end], 1e-3), 1e-4);
            let mut worst: f64 = 0.0;
            for r in &rec {
                let z = d * (1.0 - (-r.x.abs() / d).exp()) * r.x.signum();
                worst = worst.max((r.z[0] - z).abs() / d).max((r.f - fc * z / d).abs() / fc);
            }
            assert!(worst < 1e-7, "end {end}: worst relative deviation {worst}");
            // saturated: after 5 δ the force is within exp(-5) of Fmax
            assert!((rec.last().unwrap().f.abs() - fc).abs() < fc * (-4.9f64).exp());
        }
    }

    /// After a reversal at (x_r, z_r) the branch is
    /// z = -δ + (z_r + δ) exp(-(x_r - x)/δ): the micro-slip restarts from the
    /// reversal point, not from zero.
    #[test]
    fn unloading_branch_after_reversal_is_exponential() {
        let m = model();
        let d = m.params().delta;
        let rec = drive(&m, &Path::points(&[0.0, 1.5e-5, -6e-5], 1e-3), 1e-4);
        let rev = rec.iter().position(|r| r.x >= 1.5e-5 * (1.0 - 1e-9)).unwrap();
        let (xr, zr) = (rec[rev].x, rec[rev].z[0]);
        assert!(zr > 0.0 && zr < d);
        for r in &rec[rev..] {
            let exact = -d + (zr + d) * (-(xr - r.x) / d).exp();
            assert!((r.z[0] - exact).abs() < 1e-7 * d, "x {} z {} exact {exact}", r.x, r.z[0]);
        }
    }

    /// Rate independence: the same force at the end of the same displacement
    /// history traversed at 1e-4 m/s and at 0.1 m/s, and the same loop work.
    #[test]
    fn same_loop_at_two_speeds() {
        let m = model();
        let pts = [0.0, 3e-5, -1e-5, 2e-5, -4e-5];
        // steps of 1e-6 m in both runs, the same number per segment, so the samples coincide in x
        let slow = drive(&m, &Path::points(&pts, 1e-4), 1.0001e-2);
        let fast = drive(&m, &Path::points(&pts, 1e-1), 1.0001e-5);
        assert!((force_at_end(&slow) - force_at_end(&fast)).abs() < 1e-8);
        let (ws, wf) = (work(&slow), work(&fast));
        assert!((ws - wf).abs() < 1e-9 * ws.abs(), "{ws} vs {wf}");
    }

    /// Closed loops dissipate: small loops (amplitude < δ, nearly elastic)
    /// dissipate little but a positive amount; a large loop (A = 50 δ)
    /// dissipates close to the Coulomb value 4 Fmax A, and never more.
    #[test]
    fn closed_loops_dissipate() {
        let m = model();
        let (fc, d) = (m.params().fc, m.params().delta);
        for a in [0.3 * d, 2.0 * d, 50.0 * d] {
            let rec = drive(&m, &Path::points(&[0.0, a, -a, a], 1e-3), a / 200.0 / 1e-3);
            // the closed loop a -> -a -> a
            let top = rec.iter().position(|r| r.x >= a * (1.0 - 1e-9)).unwrap();
            let w = work(&rec[top..]);
            assert!(w > 0.0, "A = {a}: loop work {w}");
            assert!(w < 4.0 * fc * a, "A = {a}: {w} exceeds the Coulomb loop");
            if a > 10.0 * d {
                assert!(w > 0.9 * 4.0 * fc * a, "A = {a}: {w}");
            }
        }
    }

    /// Andersson, Söderberg, Björklund 2007 states that Dahl's model with i = 1 equals Dankowicz's; with
    /// σ0 = Fmax/δ both give the same force along an arbitrary path.
    #[test]
    fn equals_dahl_with_unit_exponent() {
        let m = model();
        let p = m.params();
        let dahl = Dahl::new(DahlParams { sigma0: p.fc / p.delta, fc: p.fc, exponent: 1.0 }).unwrap();
        let path = Path::points(&[0.0, 2.5e-5, -1e-5, 7e-6, -6e-5], 2e-3);
        let a = drive(&m, &path, 1e-4);
        let b = drive(&dahl, &path, 1e-4);
        for (ra, rb) in a.iter().zip(&b) {
            assert!((ra.f - rb.f).abs() < 1e-9, "x {}: {} vs {}", ra.x, ra.f, rb.f);
        }
    }

    /// F(-v, -z) = -F(v, z) and the rates are odd too.
    #[test]
    fn odd_symmetry() {
        let m = model();
        let mut a = [0.0];
        let mut b = [0.0];
        for v in [-2.0, -1e-3, 0.0, 1e-6, 0.5] {
            for z in [-2e-5, -7e-6, 0.0, 3e-6, 1.9e-5] {
                let f = m.force(&Input::new(0.0, 0.0, v), &[z], &[]);
                let g = m.force(&Input::new(0.0, 0.0, -v), &[-z], &[]);
                m.rates(&Input::new(0.0, 0.0, v), &[z], &[], &mut a);
                m.rates(&Input::new(0.0, 0.0, -v), &[-z], &[], &mut b);
                assert_eq!(f, -g);
                assert_eq!(a[0], -b[0]);
            }
        }
    }
}

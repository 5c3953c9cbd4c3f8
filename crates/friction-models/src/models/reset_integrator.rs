//! `reset_integrator`: Haessig and Friedland's reset-integrator model, a
//! single elastic bond whose strain stops growing at rupture.
//!
//! # Equations
//! ```text
//! dz/dt = 0   if (v > 0 and z >= z0) or (v < 0 and z <= -z0)
//! dz/dt = v   otherwise
//! F = (1 + a(z)) σ0 z + σ1 dz/dt,    a(z) = a if |z| < z0, 0 otherwise
//! sticking (|z| < z0): F = (1 + a) σ0 z + σ1 v, up to the break-away force Fs = (1 + a) σ0 z0
//! slipping (z = ±z0):  F = σ0 z0 sign(z) = Fc (the damping term vanishes with dz/dt)
//! ```
//!
//! Olsson writes the sliding level as an arbitrary function of velocity
//! `σ0(v)`; here it is the constant `σ0`, so the sliding force is the
//! Coulomb level `Fc = σ0 z0` and the break-away force is `Fs = (1 + a) Fc`
//! (for a Stribeck-shaped sliding curve use another model of the library).
//! On a reversal from slipping the bond is intact again (`|z| < z0`), so the
//! force steps back from `Fc` to about `Fs` and then decreases along the
//! sticking line: the model's stiction is a property of the bond, not of rest.
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | σ0 | `sigma0` | N/m | (0, inf) | 100000 | bond stiffness; the sliding force is σ0 z0 |
//! | z0 | `z0` | m | (0, inf) | 0.00001 | bond deflection at rupture, where the integrator stops |
//! | a | `a` | - | [0, inf) | 0.5 | stiction factor: the intact bond is (1 + a) times stiffer, Fs = (1 + a) σ0 z0 |
//! | σ1 | `sigma1` | N s/m | [0, inf) | 0 | damping of the intact bond (inactive while slipping) |
//!
//! # States
//! `z[0] = z`, the bond deflection \[m\]; starts at 0 (relaxed). `|z| <= z0` is
//! invariant; [`FrictionModel::accept`] projects a solver's overshoot across
//! the rupture back onto `±z0`.
//!
//! # Sources
//! Olsson 1996, "The Reset Integrator Model", eq. 2.15;
//! D.A. Haessig, B. Friedland, "On the modeling and simulation of friction",
//! J. Dyn. Sys. Meas. Control 113, 354-362, 1991.

use crate::error::ModelError;
use crate::model::{Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamMap, ParamReader, ParamSpec, Range};

/// Static description of `reset_integrator`.
pub static INFO: ModelInfo = ModelInfo {
    id: "reset_integrator",
    summary:
        "Haessig-Friedland reset integrator: one elastic bond, strain frozen at rupture, stiction factor a",
    family: Family::ContinuousState,
    equations: "dz/dt = 0   if (v > 0 and z >= z0) or (v < 0 and z <= -z0)
dz/dt = v   otherwise
F = (1 + a(z)) σ0 z + σ1 dz/dt,    a(z) = a if |z| < z0, 0 otherwise
sticking (|z| < z0): F = (1 + a) σ0 z + σ1 v, up to the break-away force Fs = (1 + a) σ0 z0
slipping (z = ±z0):  F = σ0 z0 sign(z) = Fc (the damping term vanishes with dz/dt)",
    params: &[
        ParamSpec::real(
            "sigma0",
            "σ0",
            "N/m",
            1e5,
            Range::POSITIVE,
            "bond stiffness; the sliding force is σ0 z0",
        ),
        ParamSpec::real(
            "z0",
            "z0",
            "m",
            1e-5,
            Range::POSITIVE,
            "bond deflection at rupture, where the integrator stops",
        ),
        ParamSpec::real(
            "a",
            "a",
            "-",
            0.5,
            Range::NON_NEGATIVE,
            "stiction factor: the intact bond is (1 + a) times stiffer, Fs = (1 + a) σ0 z0",
        ),
        ParamSpec::real(
            "sigma1",
            "σ1",
            "N s/m",
            0.0,
            Range::NON_NEGATIVE,
            "damping of the intact bond (inactive while slipping)",
        ),
    ],
    states: "z[0] = z, the bond deflection [m], |z| <= z0",
    sources: "Olsson 1996 eq. 2.15; Haessig and Friedland 1991",
};

/// Parameters of [`ResetIntegrator`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResetIntegratorParams {
    /// Bond stiffness `σ0` [N/m].
    pub sigma0: f64,
    /// Rupture deflection `z0` \[m\].
    pub z0: f64,
    /// Stiction factor `a` [-].
    pub a: f64,
    /// Bond damping `σ1` [N s/m].
    pub sigma1: f64,
}

impl Default for ResetIntegratorParams {
    fn default() -> Self {
        ResetIntegratorParams { sigma0: 1e5, z0: 1e-5, a: 0.5, sigma1: 0.0 }
    }
}

impl ResetIntegratorParams {
    /// Check every parameter against its range.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "sigma0", self.sigma0)?;
        check(&INFO, "z0", self.z0)?;
        check(&INFO, "a", self.a)?;
        check(&INFO, "sigma1", self.sigma1)
    }
}

/// The reset-integrator model (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::reset_integrator::{ResetIntegrator, ResetIntegratorParams};
/// let m = ResetIntegrator::new(ResetIntegratorParams::default()).unwrap();
/// // intact bond at half the rupture deflection: (1 + a) σ0 z
/// assert!((m.force(&Input::new(0.0, 0.0, 0.0), &[5e-6], &[]) - 0.75).abs() < 1e-12);
/// // ruptured and slipping: σ0 z0
/// assert!((m.force(&Input::new(0.0, 0.0, 1.0), &[1e-5], &[]) - 1.0).abs() < 1e-12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResetIntegrator {
    p: ResetIntegratorParams,
}

impl ResetIntegrator {
    /// A validated model.
    pub fn new(p: ResetIntegratorParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(ResetIntegrator { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = ResetIntegratorParams {
            sigma0: r.real("sigma0")?,
            z0: r.real("z0")?,
            a: r.real("a")?,
            sigma1: r.real("sigma1")?,
        };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &ResetIntegratorParams {
        &self.p
    }

    /// `dz/dt`: the velocity, or zero once the bond has ruptured in the direction of motion.
    #[inline]
    fn zdot(&self, v: f64, z: f64) -> f64 {
        if self.ruptured(v, z) {
            0.0
        } else {
            v
        }
    }

    /// Whether the bond has ruptured in the direction of motion (dz/dt = 0).
    #[inline]
    fn ruptured(&self, v: f64, z: f64) -> bool {
        (v > 0.0 && z >= self.p.z0) || (v < 0.0 && z <= -self.p.z0)
    }

    /// The spring stiffness factor `1 + a(z)`: `1 + a` for the intact bond, 1 once ruptured.
    #[inline]
    fn stiffness(&self, z: f64) -> f64 {
        if z.abs() < self.p.z0 {
            1.0 + self.p.a
        } else {
            1.0
        }
    }
}

impl FrictionModel for ResetIntegrator {
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
    fn force(&self, inp: &Input, z: &[f64], _mem: &[f64]) -> f64 {
        let p = &self.p;
        let z = z[0];
        self.stiffness(z) * p.sigma0 * z + p.sigma1 * self.zdot(inp.v, z)
    }
    fn rates(&self, inp: &Input, z: &[f64], _mem: &[f64], dz: &mut [f64]) {
        dz[0] = self.zdot(inp.v, z[0]);
    }
    /// g = 0 on the ruptured branch ((v > 0, z >= z0) or (v < 0, z <= -z0)),
    /// else g = v: ∂g/∂v = 0 or 1, ∂g/∂z = 0 (the branches are constant in z);
    /// F = (1 + a(z)) σ0 z + σ1 g: ∂F/∂z = (1 + a(z)) σ0, ∂F/∂v = σ1 ∂g/∂v.
    /// At v = 0 the code takes g = v, so ∂g/∂v = 1; at |z| = z0 the slipping
    /// stiffness σ0 (a(z) = 0 there).
    fn partials(&self, inp: &Input, z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        let rp = &self.p;
        let dg_dv = if self.ruptured(inp.v, z[0]) { 0.0 } else { 1.0 };
        p.df_dx = 0.0;
        p.df_dv = rp.sigma1 * dg_dv;
        p.df_dz[0] = self.stiffness(z[0]) * rp.sigma0;
        p.dg_dx[0] = 0.0;
        p.dg_dz[0] = 0.0;
        p.dg_dv[0] = dg_dv;
    }
    fn accept(&self, _inp: &Input, z: &mut [f64], _mem: &mut [f64]) {
        z[0] = z[0].clamp(-self.p.z0, self.p.z0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{drive, work, Path};

    fn model(sigma1: f64) -> ResetIntegrator {
        ResetIntegrator::new(ResetIntegratorParams { sigma0: 2e4, z0: 5e-5, a: 0.6, sigma1 }).unwrap()
    }

    /// While the bond is intact the force is linear in the displacement from
    /// rest, (1 + a) σ0 x, plus the bond damping σ1 v.
    #[test]
    fn sticking_force_is_linear_in_displacement() {
        for sigma1 in [0.0, 30.0] {
            let m = model(sigma1);
            let p = *m.params();
            let v = 1e-3;
            let rec = drive(&m, &Path::points(&[0.0, 0.9 * p.z0], v), 1e-3);
            for r in &rec[1..] {
                let exact = (1.0 + p.a) * p.sigma0 * r.x + sigma1 * v;
                assert!((r.f - exact).abs() < 1e-9, "x {}: {} vs {exact}", r.x, r.f);
            }
        }
    }

    /// The force never exceeds the break-away level (1 + a) σ0 z0 + σ1 |v|;
    /// once the bond has ruptured it is exactly σ0 z0, whatever the speed.
    #[test]
    fn rupture_bounds_the_force_and_slipping_force_is_sigma0_z0() {
        let m = model(30.0);
        let p = *m.params();
        for v in [1e-4, 1e-2] {
            let rec = drive(&m, &Path::points(&[0.0, 4.0 * p.z0], v), 1e-2 * p.z0 / v);
            let bound = (1.0 + p.a) * p.sigma0 * p.z0 + p.sigma1 * v;
            assert!(rec.iter().all(|r| r.f <= bound + 1e-12));
            for r in rec.iter().filter(|r| r.x > 1.05 * p.z0) {
                assert!((r.f - p.sigma0 * p.z0).abs() < 1e-12, "v {v} x {}: {}", r.x, r.f);
                assert_eq!(r.z[0], p.z0);
            }
        }
    }

    /// Odd symmetry F(-v, -z) = -F(v, z), and dz/dt likewise, on a grid that
    /// includes rest and the rupture deflection itself.
    #[test]
    fn odd_symmetry() {
        let m = model(30.0);
        let z0 = m.params().z0;
        let mut dz1 = [0.0];
        let mut dz2 = [0.0];
        for z in [0.0, 0.3 * z0, -0.7 * z0, z0, -z0] {
            for v in [0.0, 1e-3, -2.0] {
                let f = m.force(&Input::new(0.0, 0.0, v), &[z], &[]);
                let g = m.force(&Input::new(0.0, 0.0, -v), &[-z], &[]);
                assert_eq!(f, -g, "z {z} v {v}");
                m.rates(&Input::new(0.0, 0.0, v), &[z], &[], &mut dz1);
                m.rates(&Input::new(0.0, 0.0, -v), &[-z], &[], &mut dz2);
                assert_eq!(dz1[0], -dz2[0]);
            }
        }
    }

    /// A cycle between ±A (A > z0) at speed v dissipates exactly
    /// 4 σ0 z0 (A - z0) + 4 σ1 v z0: the spring part of the intact branch from
    /// -z0 to z0 is conservative, the slipping strokes of length 2(A - z0) each
    /// dissipate σ0 z0 per unit length, and the damper acts over 2 z0 per stroke.
    #[test]
    fn cycle_dissipation_matches_closed_form() {
        for sigma1 in [0.0, 30.0] {
            let m = model(sigma1);
            let p = *m.params();
            let (amp, v) = (3.0 * p.z0, 1e-3);
            let rec = drive(&m, &Path::points(&[0.0, amp, -amp, amp], v), 1e-4 * amp / v);
            let first = rec.iter().position(|r| (r.x - amp).abs() < 1e-12 * amp).unwrap();
            let w = work(&rec[first..]);
            let exact = 4.0 * p.sigma0 * p.z0 * (amp - p.z0) + 4.0 * sigma1 * v * p.z0;
            assert!((w - exact).abs() < 1e-4 * exact, "σ1 {sigma1}: work {w} vs {exact}");
        }
    }
}

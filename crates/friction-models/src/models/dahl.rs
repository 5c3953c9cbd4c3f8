//! `dahl`: Dahl's model in its general form with exponent i.
//!
//! # Equations
//! ```text
//! dF/dx = σ0 |1 - (F/Fc) sign(v)|^i sign(1 - (F/Fc) sign(v))
//! dF/dt = dF/dx · v
//! state z = F; i = 1 gives the simplified form dF/dt = σ0 (1 - (F/Fc) sign(v)) v
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | σ0 | `sigma0` | N/m | (0, inf) | 100000 | rest stiffness, slope dF/dx at F = 0 |
//! | Fc | `fc` | N | (0, inf) | 1 | Coulomb friction force, the asymptote of F |
//! | i | `exponent` | - | (0, inf) | 1 | shape exponent of the hysteresis branches |
//!
//! # States
//! `z[0] = F`, the friction force \[N\]; starts at 0 (relaxed contact).
//! |F| <= Fc is invariant: a branch approaches ±Fc and never crosses it.
//!
//! # Sources
//! Andersson, Söderberg, Björklund 2007 eqs. 16-18; Olsson 1996 eq. 2.12; Al-Bender (Fundamentals of friction modeling), Dahl;
//! P.R. Dahl, "A solid friction model", Aerospace Corp. TOR-158(3107-18), 1968.

use crate::error::ModelError;
use crate::model::{Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamMap, ParamReader, ParamSpec, Range};

/// Static description of `dahl`.
pub static INFO: ModelInfo = ModelInfo {
    id: "dahl",
    summary: "Dahl's rate-independent model dF/dx = σ0 |1 - F/Fc sgn v|^i sgn(..), general exponent",
    family: Family::ContinuousState,
    equations: "dF/dx = σ0 |1 - (F/Fc) sign(v)|^i sign(1 - (F/Fc) sign(v))
dF/dt = dF/dx · v
state z = F; i = 1 gives the simplified form dF/dt = σ0 (1 - (F/Fc) sign(v)) v",
    params: &[
        ParamSpec::real("sigma0", "σ0", "N/m", 1e5, Range::POSITIVE, "rest stiffness, slope dF/dx at F = 0"),
        ParamSpec::real("fc", "Fc", "N", 1.0, Range::POSITIVE, "Coulomb friction force, the asymptote of F"),
        ParamSpec::real(
            "exponent",
            "i",
            "-",
            1.0,
            Range::POSITIVE,
            "shape exponent of the hysteresis branches",
        ),
    ],
    states: "z[0] = F, the friction force [N]",
    sources: "Andersson, Söderberg, Björklund 2007 eqs. 16-18; Olsson 1996 eq. 2.12; Dahl 1968",
};

/// Parameters of [`Dahl`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DahlParams {
    /// Rest stiffness `σ0` [N/m].
    pub sigma0: f64,
    /// Coulomb force `Fc` \[N\].
    pub fc: f64,
    /// Exponent `i` [-].
    pub exponent: f64,
}

impl Default for DahlParams {
    fn default() -> Self {
        DahlParams { sigma0: 1e5, fc: 1.0, exponent: 1.0 }
    }
}

impl DahlParams {
    /// Check every parameter against its range.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "sigma0", self.sigma0)?;
        check(&INFO, "fc", self.fc)?;
        check(&INFO, "exponent", self.exponent)
    }
}

/// Dahl's model (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input, models::dahl::{Dahl, DahlParams}};
/// let m = Dahl::new(DahlParams::default()).unwrap();
/// let mut dz = [0.0];
/// // at F = 0 the slope dF/dx is sigma0
/// m.rates(&Input::new(0.0, 0.0, 2.0), &[0.0], &[], &mut dz);
/// assert_eq!(dz[0], 2.0 * 1e5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dahl {
    p: DahlParams,
}

impl Dahl {
    /// A validated model.
    pub fn new(p: DahlParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(Dahl { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = DahlParams { sigma0: r.real("sigma0")?, fc: r.real("fc")?, exponent: r.real("exponent")? };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &DahlParams {
        &self.p
    }

    /// The branch shape ψ(u) = |u|^i sign(u) at u = 1 - (F/Fc) s, and dψ/du
    /// (0 at u = 0 for i != 1: exact for i > 1, a finite stand-in for the
    /// infinite slope of i < 1).
    #[inline]
    fn shape(&self, f: f64, s: f64) -> (f64, f64) {
        let u = 1.0 - f / self.p.fc * s;
        let i = self.p.exponent;
        if i == 1.0 {
            (u, 1.0)
        } else {
            let d = if u == 0.0 { 0.0 } else { i * u.abs().powf(i - 1.0) };
            (u.abs().powf(i) * u.signum(), d)
        }
    }
}

impl FrictionModel for Dahl {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn state_quantity(&self, k: usize) -> crate::model::Quantity {
        use crate::model::Quantity as Q;
        if k == 0 {
            Q::Force
        } else {
            Q::Unknown
        }
    }
    fn n_states(&self) -> usize {
        1
    }
    fn force(&self, _inp: &Input, z: &[f64], _mem: &[f64]) -> f64 {
        z[0]
    }
    fn rates(&self, inp: &Input, z: &[f64], _mem: &[f64], dz: &mut [f64]) {
        let s = if inp.v > 0.0 {
            1.0
        } else if inp.v < 0.0 {
            -1.0
        } else {
            dz[0] = 0.0;
            return;
        };
        dz[0] = self.p.sigma0 * self.shape(z[0], s).0 * inp.v;
    }
    /// g = σ0 ψ(u) v, u = 1 - z sign(v)/Fc, ψ(u) = |u|^i sign(u):
    /// ∂g/∂z = -σ0 ψ'(u) |v| / Fc, ∂g/∂v = σ0 ψ(u) (sign(v) constant off v = 0;
    /// at v = 0 the right-hand side, sign(v) = +1); F = z.
    fn partials(&self, inp: &Input, z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        let v = inp.v;
        let (shape, dshape) = self.shape(z[0], if v < 0.0 { -1.0 } else { 1.0 });
        p.df_dx = 0.0;
        p.df_dv = 0.0;
        p.df_dz[0] = 1.0;
        p.dg_dx[0] = 0.0;
        p.dg_dv[0] = self.p.sigma0 * shape;
        // g vanishes for every z at v = 0
        p.dg_dz[0] = -self.p.sigma0 * dshape * v.abs() / self.p.fc;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{drive, Path};

    /// Under a monotone displacement from a relaxed state, the i = 1 branch is
    /// F(x) = Fc (1 - exp(-σ0 x / Fc)): check the simulated force against it.
    #[test]
    fn first_loading_branch_is_the_exponential_closed_form() {
        let p = DahlParams { sigma0: 2e4, fc: 1.5, exponent: 1.0 };
        let m = Dahl::new(p).unwrap();
        let path = Path::points(&[0.0, 3e-4], 1e-3);
        let rec = drive(&m, &path, 1e-4);
        let mut worst: f64 = 0.0;
        for r in &rec {
            let exact = p.fc * (1.0 - (-p.sigma0 * r.x / p.fc).exp());
            worst = worst.max((r.f - exact).abs());
        }
        assert!(worst < 1e-6 * p.fc, "worst deviation {worst}");
    }

    /// After a reversal at force F_r, the unloading branch is
    /// F = -Fc + (F_r + Fc) exp(-σ0 (x_r - x) / Fc).
    #[test]
    fn unloading_branch_after_reversal_is_exponential() {
        let p = DahlParams { sigma0: 1e4, fc: 1.0, exponent: 1.0 };
        let m = Dahl::new(p).unwrap();
        let path = Path::points(&[0.0, 1e-4, -2e-4], 1e-3);
        let rec = drive(&m, &path, 2e-4);
        let rev = rec.iter().position(|r| r.x >= 1e-4 - 1e-15).unwrap();
        let (xr, fr) = (rec[rev].x, rec[rev].f);
        for r in &rec[rev..] {
            let exact = -p.fc + (fr + p.fc) * (-p.sigma0 * (xr - r.x) / p.fc).exp();
            assert!((r.f - exact).abs() < 1e-6, "x {} F {} exact {exact}", r.x, r.f);
        }
    }

    /// The force never exceeds Fc in magnitude for any exponent, and a
    /// closed displacement cycle dissipates energy.
    #[test]
    fn bounded_by_fc_and_cycles_dissipate() {
        for exponent in [0.5, 1.0, 2.0] {
            let m = Dahl::new(DahlParams { sigma0: 1e4, fc: 1.0, exponent }).unwrap();
            let path = Path::points(&[0.0, 5e-4, -5e-4, 5e-4], 1e-3);
            let rec = drive(&m, &path, 1e-4);
            assert!(rec.iter().all(|r| r.f.abs() <= 1.0 + 1e-9));
            let n0 = rec.iter().position(|r| r.t >= 0.5).unwrap();
            let w = crate::testing::work(&rec[n0..]);
            assert!(w > 0.0, "exponent {exponent}: loop work {w}");
        }
    }

    /// Rate independence: the same F-x path at two speeds.
    #[test]
    fn same_loop_at_two_speeds() {
        let m = Dahl::new(DahlParams { sigma0: 1e4, fc: 1.0, exponent: 2.0 }).unwrap();
        let slow = drive(&m, &Path::points(&[0.0, 4e-4, -4e-4], 1e-4), 1e-3);
        let fast = drive(&m, &Path::points(&[0.0, 4e-4, -4e-4], 1e-1), 1e-6);
        let f_slow = crate::testing::force_at_end(&slow);
        let f_fast = crate::testing::force_at_end(&fast);
        assert!((f_slow - f_fast).abs() < 1e-6, "{f_slow} vs {f_fast}");
    }
}

//! `bliman_sorine`: the Bliman-Sorine models, linear systems in the sliding
//! distance s: first order (equal to Dahl's i = 1 model) and second order
//! (a friction peak after the start of motion).
//!
//! # Equations
//! ```text
//! s = ∫ |v| dt,  v_s = dx/ds = sign(v)
//! dZ/ds = A Z + B v_s,   F = C Z          (in time: dZ/dt = |v| A Z + B v)
//! order 1: A = -σ0/Fc,  B = σ0/Fc,  C = Fc       (Dahl i = 1: dF/dt = σ0 (v - |v| F/Fc))
//! order 2: A = diag(-σ0/(η (Fc + ΔF)), -σ0/ΔF),  B = [σ0/(η (Fc + ΔF)), -σ0/ΔF]ᵀ,
//!          C = [Fc + ΔF, ΔF],  0 < η < ΔF/(Fc + ΔF)
//! from rest, sliding forward: F(s) = Fc - (Fc + ΔF) exp(-s/L1) + ΔF exp(-s/L2),
//!   L1 = η (Fc + ΔF)/σ0 < L2 = ΔF/σ0; peak at s* = ln(1/η) / (1/L1 - 1/L2)
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | Fc | `fc` | N | (0, inf) | 1 | Coulomb friction force, the steady sliding force |
//! | σ0 | `sigma0` | N/m | (0, inf) | 100000 | stiffness scale (order 1: rest stiffness dF/dx) |
//! | ΔF | `df` | N | (0, inf) | 0.5 | order 2: the fast branch rises towards Fc + ΔF, the slow one subtracts ΔF |
//! | η | `eta` | - | (0, 1) | 0.1 | order 2: fast/slow length ratio factor, 0 < eta < df/(fc + df) |
//! | order | `order` | - | 1 | 2 | "2" | model order: 1 (Dahl) or 2 (friction peak), as an integer or a string |
//!
//! # States
//! Order 1: `z[0] = Z`, F = Fc Z. Order 2: `z[0] = Z1`, `z[1] = Z2`,
//! F = (Fc + ΔF) Z1 + ΔF Z2. All dimensionless, starting at 0 (relaxed);
//! |Z1| <= 1 and |Z2| <= 1 are invariant, and in steady sliding Z1 -> sign(v),
//! Z2 -> -sign(v).
//!
//! # Choices
//! The seed's extraction prints the first diagonal entry of A as
//! `-σ0/σ(Fc + ΔF)` and `v_s = sgn(dv/dt)`; the constraint stated right after
//! it, `0 < η < ΔF/(Fc + ΔF)`, is exactly the condition for the fast branch
//! (length L1) to be faster than the slow one (L2) and for the peak to rise
//! above Fc, so the factor is η, and `v_s = dx/ds = sign(v)`. The
//! parameterisation (σ0, Fc, ΔF, η) is Olsson's; Bliman and Sorine (1995) use
//! an equivalent one with the two branch lengths. `df` and `eta` are ignored
//! for order 1. As Olsson notes, the peak appears only after a start from
//! rest (or a reversal), not when slowing down: it is the dynamic-model
//! equivalent of stiction, not a Stribeck effect.
//!
//! # Sources
//! Olsson 1996 (ch. 2), eqs. 2.16-2.18; P.-A. Bliman and M. Sorine,
//! "Easy-to-use realistic dry friction models for automatic control",
//! Proc. 3rd European Control Conference, Rome, 1995, pp. 3788-3794.

use crate::error::ModelError;
use crate::model::{Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamKind, ParamMap, ParamReader, ParamSpec, ParamValue, Range};

/// Static description of `bliman_sorine`.
pub static INFO: ModelInfo = ModelInfo {
    id: "bliman_sorine",
    summary: "Bliman-Sorine: linear system in the sliding distance, order 1 (Dahl) or 2 (friction peak)",
    family: Family::ContinuousState,
    equations: "s = ∫ |v| dt,  v_s = dx/ds = sign(v)
dZ/ds = A Z + B v_s,   F = C Z          (in time: dZ/dt = |v| A Z + B v)
order 1: A = -σ0/Fc,  B = σ0/Fc,  C = Fc       (Dahl i = 1: dF/dt = σ0 (v - |v| F/Fc))
order 2: A = diag(-σ0/(η (Fc + ΔF)), -σ0/ΔF),  B = [σ0/(η (Fc + ΔF)), -σ0/ΔF]ᵀ,
         C = [Fc + ΔF, ΔF],  0 < η < ΔF/(Fc + ΔF)
from rest, sliding forward: F(s) = Fc - (Fc + ΔF) exp(-s/L1) + ΔF exp(-s/L2),
  L1 = η (Fc + ΔF)/σ0 < L2 = ΔF/σ0; peak at s* = ln(1/η) / (1/L1 - 1/L2)",
    params: &[
        ParamSpec::real(
            "fc",
            "Fc",
            "N",
            1.0,
            Range::POSITIVE,
            "Coulomb friction force, the steady sliding force",
        ),
        ParamSpec::real(
            "sigma0",
            "σ0",
            "N/m",
            1e5,
            Range::POSITIVE,
            "stiffness scale (order 1: rest stiffness dF/dx)",
        ),
        ParamSpec::real(
            "df",
            "ΔF",
            "N",
            0.5,
            Range::POSITIVE,
            "order 2: the fast branch rises towards Fc + ΔF, the slow one subtracts ΔF",
        ),
        ParamSpec::real(
            "eta",
            "η",
            "-",
            0.1,
            Range::open(0.0, 1.0),
            "order 2: fast/slow length ratio factor, 0 < eta < df/(fc + df)",
        ),
        ParamSpec {
            name: "order",
            symbol: "order",
            unit: "-",
            kind: ParamKind::Choice { default: "2", options: &["1", "2"] },
            doc: "model order: 1 (Dahl) or 2 (friction peak), as an integer or a string",
        },
    ],
    states: "order 1: z[0] = Z (F = Fc Z); order 2: z = [Z1, Z2] (F = (Fc + ΔF) Z1 + ΔF Z2); dimensionless",
    sources: "Olsson 1996 eqs. 2.16-2.18; Bliman and Sorine 1995",
};

/// Parameters of [`BlimanSorine`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BlimanSorineParams {
    /// Coulomb force `Fc` \[N\].
    pub fc: f64,
    /// Stiffness scale `σ0` [N/m].
    pub sigma0: f64,
    /// Peak amplitude parameter `ΔF` \[N\] (order 2).
    pub df: f64,
    /// Length ratio factor `η` [-] (order 2).
    pub eta: f64,
    /// Model order, 1 or 2.
    pub order: u8,
}

impl Default for BlimanSorineParams {
    fn default() -> Self {
        BlimanSorineParams { fc: 1.0, sigma0: 1e5, df: 0.5, eta: 0.1, order: 2 }
    }
}

impl BlimanSorineParams {
    /// Check every parameter against its range, the order, and for order 2
    /// `η < ΔF/(Fc + ΔF)`.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "fc", self.fc)?;
        check(&INFO, "sigma0", self.sigma0)?;
        check(&INFO, "df", self.df)?;
        check(&INFO, "eta", self.eta)?;
        if self.order != 1 && self.order != 2 {
            return Err(ModelError::Constraint {
                model: INFO.id,
                name: "order",
                value: self.order as f64,
                message: "must be 1 or 2".into(),
            });
        }
        let eta_max = self.df / (self.fc + self.df);
        if self.order == 2 && self.eta >= eta_max {
            return Err(ModelError::Constraint {
                model: INFO.id,
                name: "eta",
                value: self.eta,
                message: format!(
                    "must be < df/(fc + df) = {eta_max} for the second-order model (fast branch faster than slow)"
                ),
            });
        }
        Ok(())
    }

    /// Order 2: the lengths `(L1, L2)` \[m\] of the fast and slow branches.
    pub fn lengths(&self) -> (f64, f64) {
        (self.eta * (self.fc + self.df) / self.sigma0, self.df / self.sigma0)
    }
}

/// The Bliman-Sorine model (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::bliman_sorine::{BlimanSorine, BlimanSorineParams};
/// let m = BlimanSorine::new(BlimanSorineParams::default()).unwrap();
/// assert_eq!(m.n_states(), 2);
/// // in steady forward sliding Z = [1, -1] and F = (Fc + ΔF) - ΔF = Fc
/// let f = m.force(&Input::new(0.0, 0.0, 0.1), &[1.0, -1.0], &[]);
/// assert!((f - 1.0).abs() < 1e-12);
/// let mut dz = [0.0; 2];
/// m.rates(&Input::new(0.0, 0.0, 0.1), &[1.0, -1.0], &[], &mut dz);
/// assert_eq!(dz, [0.0, 0.0]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BlimanSorine {
    p: BlimanSorineParams,
}

impl BlimanSorine {
    /// A validated model.
    pub fn new(p: BlimanSorineParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(BlimanSorine { p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        // `order = 1` (an integer) means the same as `order = "1"`
        let mut values = values.clone();
        if let Some(ParamValue::Num(x)) = values.get("order") {
            if *x == 1.0 || *x == 2.0 {
                values.insert("order".into(), ParamValue::Str(format!("{x}")));
            } else {
                return Err(ModelError::WrongType {
                    model: INFO.id,
                    name: "order".into(),
                    expected: "1 or 2 (an integer or a string)".into(),
                    found: format!("{x}"),
                });
            }
        }
        let values = &values;
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let p = BlimanSorineParams {
            fc: r.real("fc")?,
            sigma0: r.real("sigma0")?,
            df: r.real("df")?,
            eta: r.real("eta")?,
            order: if r.choice("order")? == "1" { 1 } else { 2 },
        };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &BlimanSorineParams {
        &self.p
    }
}

impl FrictionModel for BlimanSorine {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn state_quantity(&self, k: usize) -> crate::model::Quantity {
        use crate::model::Quantity as Q;
        if k < self.n_states() {
            Q::Dimensionless
        } else {
            Q::Unknown
        }
    }
    fn n_states(&self) -> usize {
        self.p.order as usize
    }
    fn force(&self, _inp: &Input, z: &[f64], _mem: &[f64]) -> f64 {
        let p = &self.p;
        if p.order == 1 {
            p.fc * z[0]
        } else {
            (p.fc + p.df) * z[0] + p.df * z[1]
        }
    }
    fn rates(&self, inp: &Input, z: &[f64], _mem: &[f64], dz: &mut [f64]) {
        let p = &self.p;
        let (v, av) = (inp.v, inp.v.abs());
        if p.order == 1 {
            dz[0] = p.sigma0 / p.fc * (v - av * z[0]);
        } else {
            let (l1, l2) = p.lengths();
            dz[0] = (v - av * z[0]) / l1;
            dz[1] = -(v + av * z[1]) / l2;
        }
    }
    /// Linear in Z: order 1, g = (σ0/Fc)(v - |v| Z): ∂g/∂Z = -σ0 |v|/Fc,
    /// ∂g/∂v = (σ0/Fc)(1 - sign(v) Z), ∂F/∂Z = Fc; order 2, g1 = (v - |v| Z1)/L1,
    /// g2 = -(v + |v| Z2)/L2: ∂g1/∂Z1 = -|v|/L1, ∂g2/∂Z2 = -|v|/L2,
    /// ∂g1/∂v = (1 - sign(v) Z1)/L1, ∂g2/∂v = -(1 + sign(v) Z2)/L2,
    /// ∂F/∂Z = [Fc + ΔF, ΔF]. At v = 0 the right-hand side (sign(v) = +1).
    fn partials(&self, inp: &Input, z: &[f64], _mem: &[f64], p: &mut crate::model::partials::Partials) {
        let bp = &self.p;
        let (av, sv) = (inp.v.abs(), if inp.v < 0.0 { -1.0 } else { 1.0 });
        p.df_dx = 0.0;
        p.df_dv = 0.0;
        p.dg_dx.fill(0.0);
        if bp.order == 1 {
            let c = bp.sigma0 / bp.fc;
            p.df_dz[0] = bp.fc;
            p.dg_dz[0] = -c * av;
            p.dg_dv[0] = c * (1.0 - sv * z[0]);
        } else {
            let (l1, l2) = bp.lengths();
            p.df_dz[0] = bp.fc + bp.df;
            p.df_dz[1] = bp.df;
            p.dg_dz[0] = -av / l1;
            p.dg_dz[1] = 0.0;
            p.dg_dz[2] = 0.0;
            p.dg_dz[3] = -av / l2;
            p.dg_dv[0] = (1.0 - sv * z[0]) / l1;
            p.dg_dv[1] = -(1.0 + sv * z[1]) / l2;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::dahl::{Dahl, DahlParams};
    use crate::testing::{drive, force_at_end, work, Path};

    fn order1(fc: f64, sigma0: f64) -> BlimanSorine {
        BlimanSorine::new(BlimanSorineParams { fc, sigma0, order: 1, ..Default::default() }).unwrap()
    }

    /// The first-order model is Dahl's i = 1 model: from rest its force is
    /// F = Fc (1 - exp(-σ0 x / Fc)), and along a loop with reversals it gives
    /// the same force as the `dahl` model.
    #[test]
    fn first_order_is_the_dahl_branch() {
        let (fc, sigma0) = (1.5, 2e4);
        let m = order1(fc, sigma0);
        let rec = drive(&m, &Path::points(&[0.0, 3e-4], 1e-3), 1e-4);
        for r in &rec {
            let exact = fc * (1.0 - (-sigma0 * r.x / fc).exp());
            assert!((r.f - exact).abs() < 1e-6 * fc, "x {} F {} exact {exact}", r.x, r.f);
        }
        let dahl = Dahl::new(DahlParams { sigma0, fc, exponent: 1.0 }).unwrap();
        let path = Path::points(&[0.0, 1e-4, -5e-5, 2e-4], 1e-3);
        let (a, b) = (drive(&m, &path, 1e-4), drive(&dahl, &path, 1e-4));
        for (ra, rb) in a.iter().zip(&b) {
            assert!((ra.f - rb.f).abs() < 1e-9, "x {}: {} vs dahl {}", ra.x, ra.f, rb.f);
        }
    }

    /// The second-order model started from rest overshoots Fc: the force is
    /// the difference of two exponentials in s, with its maximum at
    /// s* = ln(1/η)/(1/L1 - 1/L2) of value Fc + exp(-s*/L2)(ΔF - η(Fc + ΔF)),
    /// and then settles to Fc.
    #[test]
    fn second_order_shows_the_closed_form_friction_peak() {
        let p = BlimanSorineParams { fc: 1.0, sigma0: 2e4, df: 0.6, eta: 0.15, order: 2 };
        let m = BlimanSorine::new(p).unwrap();
        let (l1, l2) = p.lengths();
        let s_star = (1.0 / p.eta).ln() / (1.0 / l1 - 1.0 / l2);
        let f_star = p.fc + (-s_star / l2).exp() * (p.df - p.eta * (p.fc + p.df));
        let closed = |s: f64| p.fc - (p.fc + p.df) * (-s / l1).exp() + p.df * (-s / l2).exp();
        let ds = l1 / 200.0;
        let rec = drive(&m, &Path::points(&[0.0, 30.0 * l2], 1e-2), ds / 1e-2);
        for r in &rec {
            assert!((r.f - closed(r.x)).abs() < 1e-7, "x {} F {} closed {}", r.x, r.f, closed(r.x));
        }
        let peak = rec.iter().max_by(|a, b| a.f.total_cmp(&b.f)).unwrap();
        assert!((peak.x - s_star).abs() <= ds, "peak at {} vs s* = {s_star}", peak.x);
        assert!((peak.f - f_star).abs() < 1e-6, "peak {} vs {f_star}", peak.f);
        assert!(f_star > p.fc + 0.05, "the peak must rise clearly above Fc: {f_star}");
        assert!((force_at_end(&rec) - p.fc).abs() < 1e-9);
    }

    /// Rate independence: the same loop at speeds 1e-4 and 1 m/s (order 2).
    #[test]
    fn same_loop_at_two_speeds() {
        let m = BlimanSorine::new(BlimanSorineParams::default()).unwrap();
        let pts = [0.0, 4e-5, -2e-5, 3e-5];
        // the same number of steps per segment at both speeds (dx = 2.1e-8 m)
        let slow = drive(&m, &Path::points(&pts, 1e-4), 2.1e-4);
        let fast = drive(&m, &Path::points(&pts, 1.0), 2.1e-8);
        assert_eq!(slow.len(), fast.len());
        for (a, b) in slow.iter().zip(&fast) {
            assert!((a.f - b.f).abs() < 1e-9, "x {}: {} vs {}", a.x, a.f, b.f);
        }
    }

    /// Closed displacement cycles dissipate energy for both orders, and the
    /// states stay in [-1, 1].
    #[test]
    fn closed_loops_dissipate() {
        for order in [1, 2] {
            let m = BlimanSorine::new(BlimanSorineParams { order, ..Default::default() }).unwrap();
            for amp in [2e-6, 1e-4] {
                let rec = drive(&m, &Path::points(&[0.0, amp, -amp, amp], 1e-3), amp / 1e-3 / 2000.0);
                assert!(rec.iter().all(|r| r.z.iter().all(|z| z.abs() <= 1.0 + 1e-12)));
                let n0 = rec.iter().position(|r| r.x >= amp - 1e-18).unwrap();
                let w = work(&rec[n0..]);
                assert!(w > 0.0, "order {order} amplitude {amp}: loop work {w}");
            }
        }
    }

    /// Odd symmetry: F(-v, -Z) = -F(v, Z), rates flip sign.
    #[test]
    fn odd_symmetry() {
        for order in [1, 2] {
            let m = BlimanSorine::new(BlimanSorineParams { order, ..Default::default() }).unwrap();
            let n = m.n_states();
            let z = [0.3, -0.7][..n].to_vec();
            let zm: Vec<f64> = z.iter().map(|x| -x).collect();
            let (mut d1, mut d2) = (vec![0.0; n], vec![0.0; n]);
            for v in [-2.0, -1e-3, 0.0, 0.5] {
                m.rates(&Input::new(0.0, 0.0, v), &z, &[], &mut d1);
                m.rates(&Input::new(0.0, 0.0, -v), &zm, &[], &mut d2);
                assert!(d1.iter().zip(&d2).all(|(a, b)| *a == -*b));
                let f = m.force(&Input::new(0.0, 0.0, v), &z, &[]);
                assert_eq!(f, -m.force(&Input::new(0.0, 0.0, -v), &zm, &[]));
            }
        }
    }

    /// η >= ΔF/(Fc + ΔF) gives no peak (the "fast" branch would be the slower
    /// one) and is refused for order 2; order 1 ignores η.
    #[test]
    fn eta_too_large_is_refused_for_order_two_only() {
        let p = BlimanSorineParams { fc: 1.0, df: 0.5, eta: 0.4, order: 2, sigma0: 1e5 };
        let e = BlimanSorine::new(p).unwrap_err();
        assert!(matches!(e, ModelError::Constraint { name: "eta", .. }), "{e}");
        assert!(BlimanSorine::new(BlimanSorineParams { order: 1, ..p }).is_ok());
        let mut map = ParamMap::new();
        map.insert("order".into(), crate::params::ParamValue::Str("3".into()));
        assert!(BlimanSorine::from_params(&map).is_err());
    }

    /// `order = 1` is the natural way to write the order; it used to be
    /// refused because the order was a string choice only. Integers 1 and 2
    /// build the same model as "1" and "2"; other numbers are refused with
    /// the valid choices.
    #[test]
    fn bliman_sorine_order_as_an_integer_is_accepted() {
        for (num, text) in [(1.0, "1"), (2.0, "2")] {
            let mut a = ParamMap::new();
            a.insert("order".into(), ParamValue::Num(num));
            let mut b = ParamMap::new();
            b.insert("order".into(), ParamValue::Str(text.into()));
            let (ma, mb) = (BlimanSorine::from_params(&a).unwrap(), BlimanSorine::from_params(&b).unwrap());
            assert_eq!(ma.params(), mb.params());
            assert_eq!(ma.n_states(), num as usize);
        }
        let mut c = ParamMap::new();
        c.insert("order".into(), ParamValue::Num(3.0));
        let e = BlimanSorine::from_params(&c).unwrap_err().to_string();
        assert!(e.contains("order") && e.contains("1 or 2") && e.contains('3'), "{e}");
    }
}

//! `gms`: the Generalized Maxwell-Slip model of Al-Bender, Lampaert and
//! Swevers: Maxwell-slip elements whose sliders obey a rate-state law, so
//! that the model has pre-sliding hysteresis with non-local memory, a
//! Stribeck curve and friction lag.
//!
//! # Equations
//! ```text
//! element i (i = 1..N): spring k_i, deflection z_i, element force F_i = k_i z_i
//!   sticking: dz_i/dt = v
//!     until F_i reaches α_i s(v) in the direction of v; then slipping
//!   slipping: dF_i/dt = sign(v) C (α_i - F_i/s(v)), i.e. dz_i/dt = (C/k_i) (α_i sign(v) - k_i z_i/g(v))
//!     until v reverses or stops; then sticking
//! s(v) = g(v) sign(v),   g(v) = Fc + (Fs - Fc) φ(v),   Σ α_i = 1
//! F = Σ (k_i z_i + σ1_i dz_i/dt) + σ2 v,   σ1_i = σ1 k_i / Σ k_j
//! steady state at constant v: F_i = α_i s(v), F = g(v) sign(v) + σ2 v
//! all elements slipping: d(Σ F_i)/dt = sign(v) C (1 - Σ F_i / s(v))   (friction lag)
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | [k_i, α_i] | `elements` | N/m, - | (0, inf) | required | element stiffnesses and fractions α_i of the Stribeck force (Σ α_i = 1), one row per element |
//! | Fc | `fc` | N | (0, inf) | 1 | Coulomb friction force |
//! | Fs | `fs` | N | (0, inf) | 1.5 | static (break-away) friction force |
//! | vs | `vs` | m/s | (0, inf) | 0.001 | Stribeck velocity |
//! | C | `c` | N/s | (0, inf) | 100 | attraction rate of the slipping element forces towards α_i s(v) |
//! | σ1 | `sigma1` | N s/m | [0, inf) | 0 | micro-damping, shared over the elements in proportion to k_i |
//! | σ2 | `sigma2` | N s/m | [0, inf) | 0.4 | viscous friction coefficient |
//! | φ | `shape` | - | exponential | tustin | gaussian | lorentzian | two_exponential | "exponential" | Stribeck curve shape (see friction_models::shape) |
//! | i | `exponent` | - | (0, inf) | 2 | Stribeck exponent of the exponential shape |
//! | vs2 | `vs2` | m/s | (0, inf) | 0.01 | second Stribeck velocity (two_exponential shape) |
//! | w | `shape_weight` | - | [0, 1] | 0.5 | weight of the first exponential (two_exponential shape) |
//!
//! Choices made here (documented because the sources leave them open):
//! - `elements = [[k, alpha], ...]` follows the `maxwell_slip` layout, with
//!   the fraction α_i in place of a slip force: element i slips at α_i s(v),
//!   so at low speed the elements are Maxwell-slip elements with
//!   fmax_i = α_i Fs. The α_i must sum to 1 (to 1e-6), so that the steady
//!   state is the Stribeck curve itself; a different sum is refused rather
//!   than silently rescaled.
//! - The slip law is written for the element force, dF_i/dt = sign(v) C
//!   (α_i - F_i/s(v)), as in Al-Bender et al. 2005; so C is in N/s and the
//!   lag time constant is g(v)/C, the same for every element, and the sum of
//!   the elements obeys the friction-lag law of Al-Bender (Fundamentals of friction modeling), Fig. 8.
//! - One micro-damping coefficient σ1 is shared in proportion to the
//!   stiffnesses, so that while all elements stick the contact is the spring
//!   Σ k_i in parallel with the damper σ1 (as LuGre's σ0, σ1). σ1 = 0 by
//!   default, the model of the 2005 paper.
//! - C = 100 N/s (lag time constant about 10 ms for Fc = 1 N) is an
//!   illustrative default, not from a source; the Stribeck numbers are the
//!   LuGre defaults of Canudas de Wit, Olsson, Åström, Lischinsky 1995.
//!
//! # States
//! Continuous `z[i] = z_i`, the element deflections \[m\], start at 0.
//! Discrete memory `mem[i]`, the element modes: 0 sticking, +1 slipping
//! forward, -1 slipping backward; changed only in `accept` (stick -> slip
//! once |F_i| >= α_i g(v) with F_i in the direction of v; slip -> stick when
//! sign(v) differs from the mode). `rates` and `force` are pure: a sticking
//! element that reaches its slip force within a step already follows the
//! slip law (so its force does not overshoot), and a slipping element whose
//! velocity has reversed already sticks, before `accept` records the change.
//! The per-step update (`friction_models::update`) also returns an element
//! that reached its slip force within one of its sub-steps to the slip
//! surface `k_i z_i = α_i g(v) sign(v)`, where the exact motion at the
//! step's constant velocity stays (the slip law's rate is 0 there), instead
//! of leaving it past the surface by up to `v h` of that sub-step.
//!
//! # Switches as events
//! The two transitions of an element (Al-Bender, Lampaert, Swevers 2005;
//! Lampaert, Al-Bender, Swevers 2003) are events of the engine, so that the
//! modes change at the switching instant itself, not at the end of a step:
//! a sticking element reaching its slip force α_i s(v) is a change of sign
//! of its turning-point function ([`FrictionModel::turns`], the margin
//! α_i g(v) - k_i z_i sign(v) as the slip law's rate); a slipping element sticking again when v
//! reverses is a reversal event ([`FrictionModel::turns_at_reversals`]).
//! Once recorded at the switch, a slipping element keeps slipping while
//! s(v) changes (friction lag), however long the step.
//!
//! # Sources
//! Al-Bender (Fundamentals of friction modeling), Al-Bender, "Fundamentals of friction modeling", Generalized
//! Maxwell-Slip model and Fig. 13; F. Al-Bender, V. Lampaert, J. Swevers,
//! "The generalized Maxwell-slip model: a novel model for friction simulation
//! and compensation", IEEE TAC 50(11), 1883-1887, 2005; V. Lampaert,
//! F. Al-Bender, J. Swevers, "A generalized Maxwell-slip friction model
//! appropriate for control purposes", PhysCon 2003.

use crate::error::ModelError;
use crate::model::{sign, Family, FrictionModel, Input, ModelInfo};
use crate::models::lugre::check_shape;
use crate::models::maxwell_slip::check_elements;
use crate::params::{check, ParamKind, ParamMap, ParamReader, ParamSpec, Range};
use crate::shape::{self, StribeckShape};

/// Static description of `gms`.
pub static INFO: ModelInfo = ModelInfo {
    id: "gms",
    summary: "Generalized Maxwell-Slip: Maxwell-slip elements with a rate-state slip law (Stribeck, lag, hysteresis)",
    family: Family::ContinuousState,
    equations: "element i (i = 1..N): spring k_i, deflection z_i, element force F_i = k_i z_i
  sticking: dz_i/dt = v
    until F_i reaches α_i s(v) in the direction of v; then slipping
  slipping: dF_i/dt = sign(v) C (α_i - F_i/s(v)), i.e. dz_i/dt = (C/k_i) (α_i sign(v) - k_i z_i/g(v))
    until v reverses or stops; then sticking
s(v) = g(v) sign(v),   g(v) = Fc + (Fs - Fc) φ(v),   Σ α_i = 1
F = Σ (k_i z_i + σ1_i dz_i/dt) + σ2 v,   σ1_i = σ1 k_i / Σ k_j
steady state at constant v: F_i = α_i s(v), F = g(v) sign(v) + σ2 v
all elements slipping: d(Σ F_i)/dt = sign(v) C (1 - Σ F_i / s(v))   (friction lag)",
    params: &[
        ParamSpec {
            name: "elements",
            symbol: "[k_i, α_i]",
            unit: "N/m, -",
            kind: ParamKind::Rows { columns: &["k", "alpha"], range: Range::POSITIVE },
            doc: "element stiffnesses and fractions α_i of the Stribeck force (Σ α_i = 1), one row per element",
        },
        ParamSpec::real("fc", "Fc", "N", 1.0, Range::POSITIVE, "Coulomb friction force"),
        ParamSpec::real("fs", "Fs", "N", 1.5, Range::POSITIVE, "static (break-away) friction force"),
        ParamSpec::real("vs", "vs", "m/s", 0.001, Range::POSITIVE, "Stribeck velocity"),
        ParamSpec::real(
            "c",
            "C",
            "N/s",
            100.0,
            Range::POSITIVE,
            "attraction rate of the slipping element forces towards α_i s(v)",
        ),
        ParamSpec::real(
            "sigma1",
            "σ1",
            "N s/m",
            0.0,
            Range::NON_NEGATIVE,
            "micro-damping, shared over the elements in proportion to k_i",
        ),
        ParamSpec::real("sigma2", "σ2", "N s/m", 0.4, Range::NON_NEGATIVE, "viscous friction coefficient"),
        shape::SHAPE,
        shape::EXPONENT,
        shape::VS2,
        shape::WEIGHT,
    ],
    states: "z[i] = z_i, element deflections [m]; mem[i] = mode of element i (0 stick, ±1 slip)",
    sources: "Al-Bender (Fundamentals of friction modeling), GMS; Al-Bender, Lampaert, Swevers 2005; Lampaert, Al-Bender, Swevers 2003",
};

/// One GMS element.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GmsElement {
    /// Stiffness `k_i` [N/m].
    pub k: f64,
    /// Fraction `α_i` of the Stribeck force carried by this element [-].
    pub alpha: f64,
}

/// Parameters of [`Gms`].
#[derive(Debug, Clone, PartialEq)]
pub struct GmsParams {
    /// The elements (at least one; the fractions sum to 1).
    pub elements: Vec<GmsElement>,
    /// Coulomb force `Fc` \[N\].
    pub fc: f64,
    /// Static force `Fs` \[N\].
    pub fs: f64,
    /// Stribeck velocity `vs` [m/s].
    pub vs: f64,
    /// Attraction rate `C` [N/s].
    pub c: f64,
    /// Micro-damping `σ1` [N s/m], shared in proportion to the stiffnesses.
    pub sigma1: f64,
    /// Viscous coefficient `σ2` [N s/m].
    pub sigma2: f64,
    /// Stribeck shape φ.
    pub shape: StribeckShape,
}

impl Default for GmsParams {
    /// The documented defaults with no elements (`elements` is required).
    fn default() -> Self {
        GmsParams {
            elements: Vec::new(),
            fc: 1.0,
            fs: 1.5,
            vs: 0.001,
            c: 100.0,
            sigma1: 0.0,
            sigma2: 0.4,
            shape: StribeckShape::Exponential { exponent: 2.0 },
        }
    }
}

impl GmsParams {
    /// Check every parameter against its range, at least one element, and Σ α_i = 1.
    pub fn validate(&self) -> Result<(), ModelError> {
        check_elements(&INFO, self.elements.iter().map(|e| [e.k, e.alpha]), " and Σ alpha = 1")?;
        let sum: f64 = self.elements.iter().map(|e| e.alpha).sum();
        if (sum - 1.0).abs() > 1e-6 {
            return Err(ModelError::Constraint {
                model: INFO.id,
                name: "elements",
                value: sum,
                message: "the fractions alpha of the elements must sum to 1 (this is their sum)".into(),
            });
        }
        check(&INFO, "fc", self.fc)?;
        check(&INFO, "fs", self.fs)?;
        check(&INFO, "vs", self.vs)?;
        check(&INFO, "c", self.c)?;
        check(&INFO, "sigma1", self.sigma1)?;
        check(&INFO, "sigma2", self.sigma2)?;
        check_shape(&INFO, &self.shape)
    }
}

/// The Generalized Maxwell-Slip model (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::gms::{Gms, GmsElement, GmsParams};
/// let m = Gms::new(GmsParams {
///     elements: vec![GmsElement { k: 1e4, alpha: 0.25 }, GmsElement { k: 2e4, alpha: 0.75 }],
///     ..Default::default()
/// })
/// .unwrap();
/// // both elements slipping forward at their share of the Stribeck force: steady state
/// let v = 0.01;
/// let z = [0.25 * m.g(v) / 1e4, 0.75 * m.g(v) / 2e4];
/// let mem = [1.0, 1.0];
/// let mut dz = [0.0; 2];
/// m.rates(&Input::new(0.0, 0.0, v), &z, &mem, &mut dz);
/// assert!(dz.iter().all(|d| d.abs() < 1e-12));
/// let f = m.force(&Input::new(0.0, 0.0, v), &z, &mem);
/// assert!((f - (m.g(v) + 0.4 * v)).abs() < 1e-12);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Gms {
    p: GmsParams,
    /// σ1 / Σ k_i, the damping per unit of element stiffness.
    damping_per_k: f64,
}

impl Gms {
    /// A validated model.
    pub fn new(p: GmsParams) -> Result<Self, ModelError> {
        p.validate()?;
        let ktot: f64 = p.elements.iter().map(|e| e.k).sum();
        Ok(Gms { damping_per_k: p.sigma1 / ktot, p })
    }

    /// Build from user parameters.
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let rows = r.rows("elements")?.unwrap_or_default();
        let p = GmsParams {
            elements: rows.iter().map(|row| GmsElement { k: row[0], alpha: row[1] }).collect(),
            fc: r.real("fc")?,
            fs: r.real("fs")?,
            vs: r.real("vs")?,
            c: r.real("c")?,
            sigma1: r.real("sigma1")?,
            sigma2: r.real("sigma2")?,
            shape: StribeckShape::read(&r)?,
        };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &GmsParams {
        &self.p
    }

    /// The Stribeck curve magnitude `g(v) = Fc + (Fs - Fc) φ(v)` \[N\] (s(v) = g(v) sign(v)).
    pub fn g(&self, v: f64) -> f64 {
        self.p.shape.level(self.p.fc, self.p.fs, self.p.vs, v)
    }

    /// dz_i/dt of one element with deflection `z` and recorded mode `mode`.
    #[inline]
    fn element_rate(&self, e: &GmsElement, v: f64, g: f64, z: f64, mode: f64) -> f64 {
        let s = sign(v);
        if s == 0.0 {
            return 0.0;
        }
        if Self::slipping(e, s, g, z, mode) {
            self.p.c / e.k * (e.alpha * s - e.k * z / g)
        } else {
            v
        }
    }

    /// Whether an element moving in direction `s != 0` slips: slipping in the
    /// direction of motion, or a sticking element at its slip force.
    #[inline]
    fn slipping(e: &GmsElement, s: f64, g: f64, z: f64, mode: f64) -> bool {
        mode == s || (sign(z) == s && e.k * z.abs() >= e.alpha * g)
    }

    /// The return to the slip surface at the end of a sub-step of the
    /// per-step update (`crate::update`, velocity `v = Δu/dt` constant over
    /// the step), before [`FrictionModel::accept`]: an element that was on
    /// the stick branch at the sub-step's start (`za`) and is past its slip
    /// force at its end (`z`) reached that force within the sub-step, where
    /// its rate fell from `v` to the slip law's, which is 0 on the surface
    /// `z_i = α_i g(v) s / k_i` (`s = sign(v)`): the exact motion stays
    /// there, and so does the update (`z_i` is set to it, not left past it
    /// by up to `v h`). The sensitivity `S_i = dz_i/dΔu`, when given, jumps
    /// there as the saltation of the forward sensitivity at a switch of the
    /// state equation, `S⁺ = S⁻ + (v - 0) dτ*/dΔu` with the crossing time
    /// from `k_i z_i(τ*) s = α_i g(v)`, `dτ*/dΔu = (α_i s g'(v)/(k_i dt) -
    /// S⁻)/v`, which leaves `S⁺ = α_i s g'(v) / (k_i dt)`: the derivative of
    /// the slip force the element holds.
    pub(crate) fn return_to_slip(
        &self,
        end: &Input,
        dt: f64,
        za: &[f64],
        z: &mut [f64],
        mem: &[f64],
        mut s: Option<&mut [f64]>,
    ) {
        let v = end.v;
        let d = sign(v);
        if d == 0.0 {
            return;
        }
        let g = self.g(v);
        for (i, ((e, (&a, zi)), &mode)) in
            self.p.elements.iter().zip(za.iter().zip(z.iter_mut())).zip(mem).enumerate()
        {
            if Self::slipping(e, d, g, a, mode) || !Self::slipping(e, d, g, *zi, mode) {
                continue;
            }
            let mut on = e.alpha * g * d / e.k;
            // on the slip side of the surface to rounding, as accept tests it
            while e.k * on.abs() < e.alpha * g {
                on += d * on.abs() * f64::EPSILON;
            }
            *zi = on;
            if let Some(s) = s.as_deref_mut() {
                let dg = self.p.shape.dlevel(self.p.fc, self.p.fs, self.p.vs, v);
                s[i] = e.alpha * d * dg / (e.k * dt);
            }
        }
    }

    /// `(∂g_i/∂z_i, ∂g_i/∂v)` of [`Gms::element_rate`] on the branch it takes,
    /// `dg = g'(v)`: slipping, g_i = (C/k_i)(α_i sign(v) - k_i z_i/g(v)):
    /// (-C/g, C z_i g'/g²); sticking, g_i = v: (0, 1); at v = 0, g_i = 0: (0, 0).
    #[inline]
    fn element_partials(&self, e: &GmsElement, v: f64, g: f64, dg: f64, z: f64, mode: f64) -> (f64, f64) {
        let s = sign(v);
        if s == 0.0 {
            (0.0, 0.0)
        } else if Self::slipping(e, s, g, z, mode) {
            (-self.p.c / g, self.p.c * z * dg / (g * g))
        } else {
            (0.0, 1.0)
        }
    }
}

impl FrictionModel for Gms {
    fn turns_at_reversals(&self) -> bool {
        true
    }
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn state_quantity(&self, k: usize) -> crate::model::Quantity {
        use crate::model::Quantity as Q;
        let n = self.p.elements.len();
        if k < n {
            Q::Displacement
        } else if k < 2 * n {
            Q::Dimensionless
        } else {
            Q::Unknown
        }
    }
    fn n_states(&self) -> usize {
        self.p.elements.len()
    }
    fn n_memory(&self) -> usize {
        self.p.elements.len()
    }
    fn init(&self, _inp: &Input, z: &mut [f64], mem: &mut [f64]) {
        z.fill(0.0);
        mem.fill(0.0);
    }
    fn force(&self, inp: &Input, z: &[f64], mem: &[f64]) -> f64 {
        let g = self.g(inp.v);
        let mut f = self.p.sigma2 * inp.v;
        for ((e, &zi), &mode) in self.p.elements.iter().zip(z).zip(mem) {
            f += e.k * zi;
            if self.damping_per_k > 0.0 {
                f += self.damping_per_k * e.k * self.element_rate(e, inp.v, g, zi, mode);
            }
        }
        f
    }
    fn rates(&self, inp: &Input, z: &[f64], mem: &[f64], dz: &mut [f64]) {
        let g = self.g(inp.v);
        for (((e, &zi), &mode), d) in self.p.elements.iter().zip(z).zip(mem).zip(dz.iter_mut()) {
            *d = self.element_rate(e, inp.v, g, zi, mode);
        }
    }
    /// Elements are independent: ∂g/∂z is diagonal, with (∂g_i/∂z_i, ∂g_i/∂v)
    /// from `Gms::element_partials`; F = Σ (k_i z_i + σ1_i g_i) + σ2 v:
    /// ∂F/∂z_i = k_i + σ1_i ∂g_i/∂z_i, ∂F/∂v = σ2 + Σ σ1_i ∂g_i/∂v,
    /// σ1_i = σ1 k_i/Σ k_j. Nothing depends on x.
    fn partials(&self, inp: &Input, z: &[f64], mem: &[f64], p: &mut crate::model::partials::Partials) {
        let v = inp.v;
        let n = self.p.elements.len();
        let g = self.g(v);
        let dg = self.p.shape.dlevel(self.p.fc, self.p.fs, self.p.vs, v);
        p.df_dx = 0.0;
        p.df_dv = self.p.sigma2;
        p.dg_dz.fill(0.0);
        p.dg_dx.fill(0.0);
        for (i, ((e, &zi), &mode)) in self.p.elements.iter().zip(z).zip(mem).enumerate() {
            let (dzz, dzv) = self.element_partials(e, v, g, dg, zi, mode);
            let damping = self.damping_per_k * e.k;
            p.dg_dz[i * n + i] = dzz;
            p.dg_dv[i] = dzv;
            p.df_dz[i] = e.k + damping * dzz;
            p.df_dv += damping * dzv;
        }
    }
    /// One turning-point function per element, a rate: while it sticks, the
    /// slip law's rate in the direction of motion, C (α_i g(v) - k_i z_i
    /// sign(v)) / (k_i g(v)), its margin to the slip force α_i g(v) as a
    /// velocity, which crosses zero where the element starts to slip; while
    /// it slips, -C α_i / k_i (it sticks again at a reversal of v, located
    /// by the reversal events).
    fn n_turns(&self) -> usize {
        self.p.elements.len()
    }
    fn turns(&self, inp: &Input, z: &[f64], mem: &[f64], g: &mut [f64]) {
        let s = sign(inp.v);
        let gv = self.g(inp.v);
        for (((e, &zi), &mode), gi) in self.p.elements.iter().zip(z).zip(mem).zip(g.iter_mut()) {
            *gi = if mode == 0.0 {
                self.p.c * (e.alpha * gv - s * (e.k * zi)) / (e.k * gv)
            } else {
                -self.p.c * e.alpha / e.k
            };
        }
    }
    fn accept(&self, inp: &Input, z: &mut [f64], mem: &mut [f64]) {
        let s = sign(inp.v);
        let g = self.g(inp.v);
        for ((e, &zi), mode) in self.p.elements.iter().zip(z.iter()).zip(mem.iter_mut()) {
            if *mode != 0.0 && *mode != s {
                *mode = 0.0;
            }
            if *mode == 0.0 && s != 0.0 && sign(zi) == s && e.k * zi.abs() >= e.alpha * g {
                *mode = s;
            }
        }
    }
}

#[cfg(test)]
mod tests;

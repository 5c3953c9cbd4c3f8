//! `meta_coulomb`: the Sandia "meta-Coulomb" scaling of any inner model by
//! a meta coefficient of friction, optionally in the stabilised form that
//! never lets the force drive the motion.
//!
//! # Equations
//! ```text
//! plain      (the Sandia friction-model study eq. 33): F = μm Ff
//! stabilised (the Sandia friction-model study eq. 34): F = μm |Ff| sign(v)
//! Ff = F_inner(x, v, z_inner): the inner model's force, of order 1
//! max static force (set-valued inner models): μm Fs_inner
//! the normal load N and the stuck-contact force Fstick are the simulator's (see Choices)
//! ```
//!
//! # Parameters
//! | symbol | field | unit | valid range | default | meaning |
//! |---|---|---|---|---|---|
//! | Ff | `inner` | - | a model table | "dahl" | the inner (hysteretic) friction model |
//! | μm | `mu` | - | [0, inf) | 0.5 | meta coefficient of friction |
//! | - | `stabilised` | - | true or false | false | use F = μm |Ff| sign(v) (eq. 34) instead of μm Ff (eq. 33) |
//!
//! # States
//! Those of the inner model: `z` and `mem` are passed through unchanged.
//!
//! # Choices
//! The Sandia friction-model study writes `Ft = min[Fstick, (μm N) Ff sgn(u̇)]` (eq. 33) and
//! `Ft = min[Fstick, (μm N) |Ff| sgn(u̇)]` (eq. 34), with Ft a magnitude whose
//! direction opposes the slip. Here the force is signed (positive against
//! v > 0, see [`crate::model::Input`]), so `Ff sgn(u̇)` of eq. 33 with its magnitude
//! convention is the signed `Ff` itself. Two parts are not applied here:
//! - the normal load N: the simulator scales every contact's force by its
//!   time-varying normal load, so this wrapper multiplies by μm only;
//! - Fstick, the force that would keep the contact from slipping: it
//!   depends on the rest of the system, so the simulator's stick/slip
//!   handling caps the force with it (for set-valued inner models through
//!   [`FrictionModel::max_static`], which returns μm times the inner one).
//!
//! The stabilised form makes `F v >= 0` always: the elastic spring-back of a
//! hysteretic inner model after a reversal (where `Ff v < 0`) is mirrored into
//! dissipation, and at `v = 0` the force is 0, so a state model no longer
//! holds a load at rest by itself. Models made of viscous and Coulomb parts
//! only are unchanged by it.
//!
//! # Sources
//! the Sandia friction-model study, section 2, eqs. 33-34 and Figure 3.

use crate::error::ModelError;
use crate::model::{sign, Family, FrictionModel, Input, ModelInfo};
use crate::params::{check, ParamKind, ParamMap, ParamReader, ParamSpec, Range};
use crate::registry::AnyModel;

/// Static description of `meta_coulomb`.
pub static INFO: ModelInfo = ModelInfo {
    id: "meta_coulomb",
    summary: "meta-Coulomb scaling F = μm Ff of an inner model, optionally stabilised F = μm |Ff| sign(v)",
    family: Family::Wrapper,
    equations: "plain      (the Sandia friction-model study eq. 33): F = μm Ff
stabilised (the Sandia friction-model study eq. 34): F = μm |Ff| sign(v)
Ff = F_inner(x, v, z_inner): the inner model's force, of order 1
max static force (set-valued inner models): μm Fs_inner
the normal load N and the stuck-contact force Fstick are the simulator's (see Choices)",
    params: &[
        ParamSpec {
            name: "inner",
            symbol: "Ff",
            unit: "-",
            kind: ParamKind::Model { default: "dahl" },
            doc: "the inner (hysteretic) friction model",
        },
        ParamSpec::real("mu", "μm", "-", 0.5, Range::NON_NEGATIVE, "meta coefficient of friction"),
        ParamSpec {
            name: "stabilised",
            symbol: "-",
            unit: "-",
            kind: ParamKind::Bool { default: false },
            doc: "use F = μm |Ff| sign(v) (eq. 34) instead of μm Ff (eq. 33)",
        },
    ],
    states: "the inner model's z and mem, unchanged",
    sources: "the Sandia friction-model study sec. 2 eqs. 33-34",
};

/// The id of the default inner model (from the `inner` entry of [`INFO`]).
fn default_inner_id() -> &'static str {
    match INFO.params[0].kind {
        ParamKind::Model { default } => default,
        _ => unreachable!("the first parameter of `meta_coulomb` is the inner model"),
    }
}

/// Parameters of [`MetaCoulomb`].
#[derive(Debug, Clone)]
pub struct MetaCoulombParams {
    /// The inner friction model giving `Ff`.
    pub inner: Box<AnyModel>,
    /// Meta coefficient of friction `μm` [-].
    pub mu: f64,
    /// Whether to use the stabilised form (eq. 34).
    pub stabilised: bool,
}

impl Default for MetaCoulombParams {
    /// The table's defaults, with the default inner model and its defaults.
    fn default() -> Self {
        MetaCoulombParams {
            inner: Box::new(
                crate::registry::build(default_inner_id(), &ParamMap::new())
                    .expect("the default inner model builds from its defaults"),
            ),
            mu: 0.5,
            stabilised: false,
        }
    }
}

impl MetaCoulombParams {
    /// Check every parameter against its range.
    pub fn validate(&self) -> Result<(), ModelError> {
        check(&INFO, "mu", self.mu)
    }
}

/// The meta-Coulomb wrapper (see the module documentation).
///
/// ```
/// use friction_models::{FrictionModel, Input};
/// use friction_models::models::meta_coulomb::{MetaCoulomb, MetaCoulombParams};
/// // default inner model: dahl, whose force is its state z[0]
/// let plain = MetaCoulomb::new(MetaCoulombParams { mu: 0.3, ..Default::default() }).unwrap();
/// let stab = MetaCoulomb::new(MetaCoulombParams { mu: 0.3, stabilised: true, ..Default::default() }).unwrap();
/// // just after a reversal: moving backwards (v < 0) with a positive elastic force
/// let inp = Input::new(0.0, 0.0, -0.1);
/// assert!((plain.force(&inp, &[0.8], &[]) - 0.24).abs() < 1e-15);
/// assert!((stab.force(&inp, &[0.8], &[]) + 0.24).abs() < 1e-15);
/// ```
#[derive(Debug, Clone)]
pub struct MetaCoulomb {
    p: MetaCoulombParams,
}

impl MetaCoulomb {
    /// A validated model.
    pub fn new(p: MetaCoulombParams) -> Result<Self, ModelError> {
        p.validate()?;
        Ok(MetaCoulomb { p })
    }

    /// Build from user parameters (the inner model through the registry).
    pub fn from_params(values: &ParamMap) -> Result<Self, ModelError> {
        let r = ParamReader::new(INFO.id, INFO.params, values);
        let (id, inner_params) = r.model_table("inner")?;
        let p = MetaCoulombParams {
            inner: Box::new(crate::registry::build(&id, &inner_params)?),
            mu: r.real("mu")?,
            stabilised: r.boolean("stabilised")?,
        };
        r.finish()?;
        Self::new(p)
    }

    /// The parameters.
    pub fn params(&self) -> &MetaCoulombParams {
        &self.p
    }

    /// The inner model.
    pub fn inner(&self) -> &AnyModel {
        &self.p.inner
    }
}

impl FrictionModel for MetaCoulomb {
    fn info(&self) -> &'static ModelInfo {
        &INFO
    }
    fn state_quantity(&self, k: usize) -> crate::model::Quantity {
        use crate::model::Quantity as Q;
        // the inner model's force is normalised (of order 1)
        match self.p.inner.state_quantity(k) {
            Q::Force => Q::Dimensionless,
            q => q,
        }
    }
    fn n_states(&self) -> usize {
        self.p.inner.n_states()
    }
    fn n_memory(&self) -> usize {
        self.p.inner.n_memory()
    }
    fn init(&self, inp: &Input, z: &mut [f64], mem: &mut [f64]) {
        self.p.inner.init(inp, z, mem);
    }
    fn force(&self, inp: &Input, z: &[f64], mem: &[f64]) -> f64 {
        let ff = self.p.inner.force(inp, z, mem);
        if self.p.stabilised {
            self.p.mu * ff.abs() * sign(inp.v)
        } else {
            self.p.mu * ff
        }
    }
    fn rates(&self, inp: &Input, z: &[f64], mem: &[f64], dz: &mut [f64]) {
        self.p.inner.rates(inp, z, mem, dz);
    }
    /// The states are the inner model's, so its partials fill `p` and the
    /// force rows are scaled: plain, ∂F = μm ∂Ff; stabilised,
    /// F = μm |Ff| sign(v): ∂F = μm sign(Ff) sign(v) ∂Ff (at Ff = 0 the
    /// right-hand side, sign(Ff) = +1; at v = 0, where F = 0 for every x and z,
    /// all force partials 0). The rates are the inner model's.
    fn partials(&self, inp: &Input, z: &[f64], mem: &[f64], p: &mut crate::model::partials::Partials) {
        self.p.inner.partials(inp, z, mem, p);
        let scale = if self.p.stabilised {
            let ff = self.p.inner.force(inp, z, mem);
            let sf = if ff < 0.0 { -1.0 } else { 1.0 };
            self.p.mu * sf * sign(inp.v)
        } else {
            self.p.mu
        };
        p.df_dx *= scale;
        p.df_dv *= scale;
        for d in p.df_dz.iter_mut() {
            *d *= scale;
        }
    }
    fn accept(&self, inp: &Input, z: &mut [f64], mem: &mut [f64]) {
        self.p.inner.accept(inp, z, mem);
    }
    fn max_static(&self, z: &[f64], mem: &[f64]) -> Option<f64> {
        self.p.inner.max_static(z, mem).map(|fs| self.p.mu * fs)
    }
    fn static_range(&self, z: &[f64], mem: &[f64]) -> Option<(f64, f64)> {
        self.p.inner.static_range(z, mem).map(|(lo, hi)| (self.p.mu * lo, self.p.mu * hi))
    }
    fn stick_band(&self) -> f64 {
        self.p.inner.stick_band()
    }
    fn turns_at_reversals(&self) -> bool {
        self.p.inner.turns_at_reversals()
    }
    fn n_turns(&self) -> usize {
        self.p.inner.n_turns()
    }
    fn turns(&self, inp: &Input, z: &[f64], mem: &[f64], g: &mut [f64]) {
        self.p.inner.turns(inp, z, mem, g);
    }
    fn is_stiff(&self) -> bool {
        self.p.inner.is_stiff()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::coulomb::{Coulomb, CoulombParams};
    use crate::models::dahl::{Dahl, DahlParams};
    use crate::models::maxwell_slip::{Element, MaxwellSlip, MaxwellSlipParams};
    use crate::params::ParamValue;
    use crate::testing::{drive, work, Path};

    fn dahl() -> Dahl {
        Dahl::new(DahlParams { sigma0: 1e4, fc: 1.0, exponent: 1.0 }).unwrap()
    }

    fn wrap(inner: AnyModel, mu: f64, stabilised: bool) -> MetaCoulomb {
        MetaCoulomb::new(MetaCoulombParams { inner: Box::new(inner), mu, stabilised }).unwrap()
    }

    /// The plain form is the inner force times μm, exactly, along a loop of a
    /// state model and of a hysteresis operator; the states and memory evolve
    /// as without the wrapper; the maximum static force scales by μm too.
    #[test]
    fn plain_form_scales_by_mu_exactly() {
        let mu = 0.37;
        let path = Path::points(&[0.0, 3e-4, -1e-4, 2e-4], 1e-3);
        let d = dahl();
        let (w, i) = (drive(&wrap(AnyModel::Dahl(d), mu, false), &path, 1e-4), drive(&d, &path, 1e-4));
        for (rw, ri) in w.iter().zip(&i) {
            assert_eq!(rw.z, ri.z);
            assert_eq!(rw.f, mu * ri.f);
        }
        let ms = MaxwellSlip::new(MaxwellSlipParams {
            elements: vec![Element { k: 1e4, fmax: 0.3 }, Element { k: 3e3, fmax: 0.5 }],
        })
        .unwrap();
        let (w, i) = (
            drive(&wrap(AnyModel::MaxwellSlip(ms.clone()), mu, false), &path, 1e-4),
            drive(&ms, &path, 1e-4),
        );
        for (rw, ri) in w.iter().zip(&i) {
            assert_eq!(rw.f, mu * ri.f);
        }
        let c = Coulomb::new(CoulombParams { fc: 2.0, fs: Some(2.5) }).unwrap();
        let m = wrap(AnyModel::Coulomb(c), mu, false);
        assert_eq!(m.max_static(&[], &[]), Some(mu * 2.5));
        assert_eq!(m.force(&Input::new(0.0, 0.0, -1.0), &[], &[]), -mu * 2.0);
    }

    /// Just after a reversal an elastic inner model (Dahl) still pushes the
    /// old way: with the plain form F v < 0 there (the contact releases
    /// stored energy), while the stabilised form keeps F v >= 0 at every
    /// sample, and keeps |F| = μm |Ff|.
    #[test]
    fn stabilised_form_never_drives_the_motion() {
        let mu = 0.5;
        let path = Path::points(&[0.0, 3e-4, -3e-4, 3e-4], 1e-3);
        let plain = drive(&wrap(AnyModel::Dahl(dahl()), mu, false), &path, 4e-5);
        let stab = drive(&wrap(AnyModel::Dahl(dahl()), mu, true), &path, 4e-5);
        let driving = plain.iter().filter(|r| r.f * r.v < 0.0).count();
        assert!(driving > 10, "the plain form should have F v < 0 after reversals: {driving} samples");
        assert!(stab.iter().all(|r| r.f * r.v >= 0.0));
        for (rs, rp) in stab.iter().zip(&plain) {
            assert!((rs.f.abs() - rp.f.abs()).abs() < 1e-15);
        }
        // the mirrored spring-back makes the stabilised loop dissipate more
        let n0 = plain.iter().position(|r| r.x >= 3e-4 - 1e-15).unwrap();
        let (wp, ws) = (work(&plain[n0..]), work(&stab[n0..]));
        assert!(wp > 0.0 && ws > wp, "plain {wp}, stabilised {ws}");
    }

    /// For a Coulomb inner model the stabilised form changes nothing (seed
    /// 003: viscous and Coulomb models map onto themselves).
    #[test]
    fn stabilised_form_leaves_coulomb_unchanged() {
        let c = AnyModel::Coulomb(Coulomb::new(CoulombParams { fc: 1.2, fs: None }).unwrap());
        let (p, s) = (wrap(c.clone(), 0.4, false), wrap(c, 0.4, true));
        for v in [-3.0, -1e-9, 0.0, 1e-9, 2.0] {
            let inp = Input::new(0.0, 0.0, v);
            assert_eq!(p.force(&inp, &[], &[]), s.force(&inp, &[], &[]));
        }
    }

    /// Built from a parameter table with an inner model and its parameters.
    #[test]
    fn builds_from_a_table() {
        let mut inner_params = ParamMap::new();
        inner_params.insert("fc".into(), ParamValue::Num(2.0));
        let mut inner = ParamMap::new();
        inner.insert("model".into(), ParamValue::Str("coulomb".into()));
        inner.insert("params".into(), ParamValue::Table(inner_params));
        let mut p = ParamMap::new();
        p.insert("inner".into(), ParamValue::Table(inner));
        p.insert("mu".into(), ParamValue::Num(0.25));
        p.insert("stabilised".into(), ParamValue::Bool(true));
        let m = MetaCoulomb::from_params(&p).unwrap();
        assert_eq!(m.force(&Input::new(0.0, 0.0, 1.0), &[], &[]), 0.5);
        p.insert("mu".into(), ParamValue::Num(-0.1));
        assert!(MetaCoulomb::from_params(&p).is_err());
    }
}

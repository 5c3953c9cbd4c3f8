//! Friction in two tangential directions in continuous time: the rates and
//! forces of a contact that slides in a plane, with their exact partial
//! derivatives, for integrators (the engine's contacts between bodies of
//! dim 3). The per-step updates of [`crate::update::planar`] are these
//! laws integrated over a step at constant velocity.
//!
//! Two forms are lifted from a model's own 1-D functions, so no law is
//! written twice:
//!
//! ```text
//! radial maps (F = F₁(|v|) v/|v|):   F_i = F₁(s) e_i,          s = |v|, e = v/s
//! bristle laws (LuGre, Dahl i = 1, Dankowicz), affine in the state:
//!   dz_i/dt = r₁(s, z_i) + a (v_i - s)
//!   F_i     = f₁(s, z_i) + b (v_i - s)
//! ```
//!
//! `f₁`, `r₁` are the model's 1-D force and rate at the slip speed `s`
//! (`FrictionModel::force`, `FrictionModel::rates`), `a`, `b` the
//! coefficients of the velocity (not of its magnitude) in the 1-D rate and
//! force: LuGre `a = 1`, `b = σ1 + σ2` (its vector law, Velenis, Tsiotras,
//! Canudas de Wit & Sorine 2005, "Dynamic tyre friction models for combined
//! longitudinal and lateral vehicle motion", Vehicle System Dynamics 43(1),
//! eq. 7 with isotropic σ0, σ1, σ2: `dz/dt = v - σ0 |v| z / g(|v|)`,
//! `F = σ0 z + σ1 dz/dt + σ2 v`); Dahl with exponent 1 `a = σ0`, `b = 0`
//! (`dF/dt = σ0 (v - |v| F / Fc)`, LuGre's rate-independent limit, Canudas
//! de Wit, Olsson, Åström & Lischinsky 1995, sec. 2); Dankowicz `a = 1`,
//! `b = 0` (`dz/dt = v - |v| z / δ`, `F = (Fmax/δ) z`). Because the 1-D laws
//! are affine in the state, `r₁(s, z_i) - a s` is `-s c(s) z_i`, and the
//! lifted law is the vector law exactly.
//!
//! A third form is Jenkins' element (θ = 1) in the plane, the continuous
//! flow rule of the radial return of [`crate::update::planar`]: its state is
//! the spring's deflection `d` (slip minus slider), `F = kt d`, and with
//! `r = Fs / kt` the radius of the disk it may not leave,
//!
//! ```text
//! stuck   (|d| < r, or unloading):     dd/dt = v
//! sliding (|d| = r and e·v > 0):       dd/dt = v - e (e·v) |d|/r,   e = d/|d|
//! ```
//!
//! (J.C. Simo and T.J.R. Hughes 1998, *Computational Inelasticity*, ch. 1-2,
//! rate-independent plasticity with the isotropic yield surface `|kt d| =
//! Fs`). On the rim the factor `|d|/r` is 1 and the rule is the flow rule;
//! off it by an integration error, `d|d|/dt = (e·v)(1 - |d|/r)` pulls the
//! deflection back onto the rim at the rate of the slip, so the force's
//! magnitude does not drift from `Fs` over long slides. Which branch holds is a mode the integrator keeps
//! ([`PlaneLaw::eval_in`], [`PlaneLaw::switch`]): the engine ends its steps
//! where `|d|` reaches `r` and where `e·v` turns negative, as it does at
//! the reversals of the 1-D element.
//!
//! The forces are per unit normal load, in the 1-D sign convention: `F`
//! points along the slip and opposes it when applied to the first member.
//!
//! # Which models
//! | models | form | states |
//! |---|---|---|
//! | `viscous`, `power_viscous`, `coulomb_sat`, `coulomb_tanh`, `stribeck_sat`, `stribeck_tanh` | radial | none |
//! | `lugre`, `dahl` (exponent 1), `dankowicz` | bristle | `zx, zy` |
//! | `jenkins` (θ = 1) | slider, with a mode | `dx, dy` (the deflection) |
//!
//! Others answer [`plane_law`] with the reason: set-valued maps (`coulomb`,
//! `stribeck`, ...: their stick on the friction disk is a constraint, which
//! the engine imposes exactly, [`friction_disk`]); the parallel slider
//! models (`iwan4`, `maxwell_slip`, `iwan5`) and
//! `bouc_wen`, whose vector forms are per-step updates
//! ([`crate::update::planar`]) but not continuous-time laws here yet; and
//! every model without an isotropic vector form
//! ([`crate::update::planar::planar_form`]).
//!
//! ```
//! use friction_models::{build, ParamMap};
//! use friction_models::plane::plane_law;
//! let m = build("coulomb_tanh", &ParamMap::new()).unwrap();
//! let law = plane_law(&m).unwrap();
//! // sliding along (3, 4) m/s: |F| = F₁(5) along the slip
//! let f = law.eval(&m, 0.0, [3.0, 4.0], &[], None);
//! let f1 = friction_models::FrictionModel::force(&m, &friction_models::Input::new(0.0, 0.0, 5.0), &[], &[]);
//! assert!((f[0] - 0.6 * f1).abs() < 1e-15 && (f[1] - 0.8 * f1).abs() < 1e-15);
//! // a set-valued model says why it has no such law
//! let e = plane_law(&build("coulomb", &ParamMap::new()).unwrap()).unwrap_err();
//! assert!(e.contains("friction disk"));
//! ```

use crate::model::partials::Partials;
use crate::model::{FrictionModel, Input};
use crate::registry::AnyModel;

/// How a model rubs in the plane in continuous time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PlaneLaw {
    /// `F = F₁(|v|) v/|v|`, no state.
    Radial,
    /// A bristle law affine in its one state, lifted to a state per
    /// direction: `a`, `b` the coefficients of `v` in the rate and force.
    Bristle {
        /// The coefficient of the velocity in the 1-D rate.
        a: f64,
        /// The coefficient of the velocity in the 1-D force.
        b: f64,
    },
    /// Jenkins' element (θ = 1): `F = kt d`, the deflection `d` held in the
    /// disk `|d| <= fs / kt`; stuck or sliding is a mode.
    Jenkins {
        /// The stiffness per unit load `kt` [1/m].
        kt: f64,
        /// The strength per unit load `Fs` [-].
        fs: f64,
    },
}

/// The law's partial derivatives at one point, per unit normal load:
/// `[i][j]` is `∂(row i)/∂(column j)`, i, j in (x, y).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PlanePartials {
    /// ∂F_i/∂v_j.
    pub df_dv: [[f64; 2]; 2],
    /// ∂F_i/∂z_j (zero for radial maps).
    pub df_dz: [[f64; 2]; 2],
    /// ∂(dz_i/dt)/∂v_j.
    pub dg_dv: [[f64; 2]; 2],
    /// ∂(dz_i/dt)/∂z_j.
    pub dg_dz: [[f64; 2]; 2],
}

/// Work space of one law's partials (the 1-D model's, allocated once).
#[derive(Debug, Clone)]
pub struct PlaneWork {
    p: Partials,
}

impl PlaneWork {
    /// The work space for `law`.
    pub fn new(law: &PlaneLaw) -> Self {
        PlaneWork { p: Partials::new(law.n_states() / 2) }
    }
}

/// The continuous-time law of `m` in the plane, or why it has none (the
/// reason, naming what to use instead).
pub fn plane_law(m: &AnyModel) -> Result<PlaneLaw, String> {
    use AnyModel as A;
    if let Err(reason) = crate::update::planar::planar_form(m) {
        return Err(format!("it has no isotropic vector form: {reason}"));
    }
    let n = m.n_states();
    if m.max_static(&vec![0.0; n], &vec![0.0; m.n_memory()]).is_some() {
        return Err("it is set-valued at rest: its stick on the friction disk (both tangential \
                    directions held, |F| <= Fs N) is a constraint, not a law ([`friction_disk`]); use \
                    a regularised map (`coulomb_tanh`, `coulomb_sat`, `stribeck_tanh`, `stribeck_sat`) \
                    or a bristle law (`lugre`, `dahl`, `dankowicz`) where a law is needed"
            .into());
    }
    match m {
        A::Viscous(_)
        | A::PowerViscous(_)
        | A::CoulombSat(_)
        | A::CoulombTanh(_)
        | A::StribeckSat(_)
        | A::StribeckTanh(_) => Ok(PlaneLaw::Radial),
        A::LuGre(x) => Ok(PlaneLaw::Bristle { a: 1.0, b: x.params().sigma1 + x.params().sigma2 }),
        A::Dahl(x) => Ok(PlaneLaw::Bristle { a: x.params().sigma0, b: 0.0 }),
        A::Dankowicz(_) => Ok(PlaneLaw::Bristle { a: 1.0, b: 0.0 }),
        // θ = 1 (`planar_form` refused the others)
        A::Jenkins(j) => Ok(PlaneLaw::Jenkins { kt: j.params().kt, fs: j.params().fs }),
        _ => Err(format!(
            "its vector form (`{}`) is a per-step update of the C, Fortran and Python faces \
             (parallel sliders or Bouc-Wen), not yet a continuous-time law of the engine; use \
             `jenkins` (one slider), `lugre`, `dahl` or a regularised map (`coulomb_tanh`)",
            m.info().id
        )),
    }
}

/// The friction disk of a set-valued model rubbing in the plane: the radius
/// per unit normal load `Fs` within which a stuck contact's force stays,
/// for an integrator that holds the stick exactly (both tangential
/// directions as a constraint, `|F| <= Fs N`, the engine's contacts between
/// bodies of dim 3). While the contact slides its force is the radial map
/// `F = F₁(|v|) v/|v|` of the model's sliding force ([`PlaneLaw::Radial`]),
/// the isotropic Coulomb law of the plane (Jean 1999, "The non-smooth
/// contact dynamics method", Comput. Methods Appl. Mech. Engrg. 177, sec.
/// 3: the force in the disk, on its rim opposite to the slip).
///
/// `Err` with the reason for a model that is not set-valued (it has a law:
/// [`plane_law`]), one whose stick band, states or memory the disk does not
/// carry (`karnopp`, the elasto-plastic and reset-integrator models), a
/// one-way range, or one without an isotropic vector form.
///
/// ```
/// use friction_models::{build, ParamMap, ParamValue};
/// use friction_models::plane::friction_disk;
/// let mut p = ParamMap::new();
/// p.insert("fs".into(), ParamValue::Num(0.5));
/// p.insert("fc".into(), ParamValue::Num(0.4));
/// assert_eq!(friction_disk(&build("stribeck", &p).unwrap()), Ok(0.5));
/// assert!(friction_disk(&build("coulomb_tanh", &ParamMap::new()).unwrap()).is_err());
/// ```
pub fn friction_disk(m: &AnyModel) -> Result<f64, String> {
    if let Err(reason) = crate::update::planar::planar_form(m) {
        return Err(format!("it has no isotropic vector form: {reason}"));
    }
    let id = m.info().id;
    let (nz, nm) = (m.n_states(), m.n_memory());
    let Some((lo, hi)) = m.static_range(&vec![0.0; nz], &vec![0.0; nm]) else {
        return Err(format!("`{id}` is not set-valued at rest: it has a law in the plane"));
    };
    if nz > 0 || nm > 0 {
        return Err(format!(
            "`{id}` keeps a presliding state, which the friction disk of the engine does not carry;              use `coulomb` or `stribeck` (exact stick) or `jenkins` (an elastic slider)"
        ));
    }
    if m.stick_band() > 0.0 {
        return Err(format!(
            "`{id}` sticks inside a velocity band, which has no exact form on the friction disk; use              `coulomb` or `stribeck` (exact stick)"
        ));
    }
    if lo != -hi || !(hi >= 0.0 && hi.is_finite()) {
        return Err(format!("`{id}` holds a one-way range [{lo}, {hi}], not a disk"));
    }
    Ok(hi)
}

/// The slip speed and direction (`e = 0` at rest).
#[inline]
fn speed(v: [f64; 2]) -> (f64, [f64; 2]) {
    let s = v[0].hypot(v[1]);
    if s > 0.0 {
        (s, [v[0] / s, v[1] / s])
    } else {
        (0.0, [0.0, 0.0])
    }
}

impl PlaneLaw {
    /// The number of continuous states in the plane (`zx, zy`, or none).
    pub fn n_states(&self) -> usize {
        match self {
            PlaneLaw::Radial => 0,
            PlaneLaw::Bristle { .. } | PlaneLaw::Jenkins { .. } => 2,
        }
    }

    /// Whether the law has a mode (stuck or sliding) that the integrator
    /// keeps: Jenkins' element.
    pub fn has_mode(&self) -> bool {
        matches!(self, PlaneLaw::Jenkins { .. })
    }

    /// The function whose root ends the current mode at slip velocity `v`
    /// and deflection `z` (positive while the mode holds): stuck, the room
    /// left in the disk widened by a relative 1e-9, `r (1 + 1e-9) - |d|`, so
    /// that an element stuck on the rim (where it stopped sliding) starts on
    /// the positive side; sliding, the loading `e·v`. `None` for laws
    /// without a mode.
    pub fn switch(&self, v: [f64; 2], z: &[f64], sliding: bool) -> Option<f64> {
        let PlaneLaw::Jenkins { kt, fs } = *self else { return None };
        let (s, e) = speed([z[0], z[1]]);
        Some(if sliding { e[0] * v[0] + e[1] * v[1] } else { (fs / kt) * (1.0 + 1e-9) - s })
    }

    /// The radius `r = Fs / kt` of Jenkins' disk (`None` for other laws).
    pub fn radius(&self) -> Option<f64> {
        match *self {
            PlaneLaw::Jenkins { kt, fs } => Some(fs / kt),
            _ => None,
        }
    }

    /// Whether Jenkins' element slides at `v`, `z` by the state alone: on
    /// the rim of its disk (to a relative 1e-9) and loading. The engine
    /// keeps the mode instead, switching at the roots of [`PlaneLaw::switch`].
    pub fn sliding_at(&self, v: [f64; 2], z: &[f64]) -> bool {
        let PlaneLaw::Jenkins { kt, fs } = *self else { return false };
        let (s, e) = speed([z[0], z[1]]);
        s >= (fs / kt) * (1.0 - 1e-9) && e[0] * v[0] + e[1] * v[1] > 0.0
    }

    /// The force per unit load at slip velocity `v` and states `z`, and
    /// with `dz` the states' rates; `m` is the model the law was made from.
    /// Jenkins' element slides where [`PlaneLaw::sliding_at`] says so.
    pub fn eval(&self, m: &AnyModel, t: f64, v: [f64; 2], z: &[f64], dz: Option<&mut [f64]>) -> [f64; 2] {
        let sliding = self.sliding_at(v, z);
        self.eval_in(m, t, v, z, dz, sliding)
    }

    /// [`PlaneLaw::eval`] with Jenkins' element in the mode `sliding`.
    pub fn eval_in(
        &self,
        m: &AnyModel,
        t: f64,
        v: [f64; 2],
        z: &[f64],
        dz: Option<&mut [f64]>,
        sliding: bool,
    ) -> [f64; 2] {
        let (s, e) = speed(v);
        let inp = Input::new(t, 0.0, s);
        match *self {
            PlaneLaw::Radial => {
                let f1 = m.force(&inp, &[], &[]);
                [f1 * e[0], f1 * e[1]]
            }
            PlaneLaw::Bristle { a, b } => {
                let mut f = [0.0; 2];
                let mut g = [0.0; 2];
                for i in 0..2 {
                    let mut r = [0.0];
                    f[i] = m.force_and_rates(&inp, &z[i..i + 1], &[], &mut r) + b * (v[i] - s);
                    g[i] = r[0] + a * (v[i] - s);
                }
                if let Some(dz) = dz {
                    dz[..2].copy_from_slice(&g);
                }
                f
            }
            PlaneLaw::Jenkins { kt, fs } => {
                if let Some(dz) = dz {
                    // sliding: v - e (e·v) |d|/r, the rim attracting (see the module)
                    let (len, e) = speed([z[0], z[1]]);
                    let ev = if sliding { (e[0] * v[0] + e[1] * v[1]) * len * kt / fs } else { 0.0 };
                    dz[0] = v[0] - e[0] * ev;
                    dz[1] = v[1] - e[1] * ev;
                }
                [kt * z[0], kt * z[1]]
            }
        }
    }

    /// The partial derivatives per unit load at `v`, `z` into `out`
    /// (Jenkins' element in the mode [`PlaneLaw::sliding_at`] gives).
    pub fn partials(
        &self,
        m: &AnyModel,
        t: f64,
        v: [f64; 2],
        z: &[f64],
        w: &mut PlaneWork,
        out: &mut PlanePartials,
    ) {
        let sliding = self.sliding_at(v, z);
        self.partials_in(m, t, v, z, w, out, sliding);
    }

    /// [`PlaneLaw::partials`] with Jenkins' element in the mode `sliding`.
    #[allow(clippy::too_many_arguments)]
    pub fn partials_in(
        &self,
        m: &AnyModel,
        t: f64,
        v: [f64; 2],
        z: &[f64],
        w: &mut PlaneWork,
        out: &mut PlanePartials,
        sliding: bool,
    ) {
        let (s, e) = speed(v);
        let inp = Input::new(t, 0.0, s);
        *out = PlanePartials::default();
        match *self {
            PlaneLaw::Radial => {
                m.partials(&inp, &[], &[], &mut w.p);
                let d1 = w.p.df_dv;
                if s > 0.0 {
                    // F₁' e eᵀ + (F₁/s)(I - e eᵀ)
                    let f1 = m.force(&inp, &[], &[]);
                    let q = f1 / s;
                    for i in 0..2 {
                        for j in 0..2 {
                            let eij = e[i] * e[j];
                            out.df_dv[i][j] = d1 * eij + q * (if i == j { 1.0 } else { 0.0 } - eij);
                        }
                    }
                } else {
                    // at rest F₁(s)/s -> F₁'(0): the slope in every direction
                    out.df_dv = [[d1, 0.0], [0.0, d1]];
                }
            }
            PlaneLaw::Bristle { a, b } => {
                for i in 0..2 {
                    m.partials(&inp, &z[i..i + 1], &[], &mut w.p);
                    let p = &w.p;
                    for (j, &ej) in e.iter().enumerate() {
                        let d = if i == j { 1.0 } else { 0.0 };
                        out.df_dv[i][j] = p.df_dv * ej + b * (d - ej);
                        out.dg_dv[i][j] = p.dg_dv[0] * ej + a * (d - ej);
                    }
                    out.df_dz[i][i] = p.df_dz[0];
                    out.dg_dz[i][i] = p.dg_dz[0];
                }
            }
            PlaneLaw::Jenkins { kt, fs } => {
                out.df_dz = [[kt, 0.0], [0.0, kt]];
                out.dg_dv = [[1.0, 0.0], [0.0, 1.0]];
                let (s, e) = speed([z[0], z[1]]);
                if sliding && s > 0.0 {
                    // dd/dt = v - (d·v) d / (r |d|): ∂/∂v = I - (|d|/r) e eᵀ,
                    // ∂/∂d = -[e vᵀ + (e·v)(I - e eᵀ)] / r
                    let ir = kt / fs;
                    let ev = e[0] * v[0] + e[1] * v[1];
                    for i in 0..2 {
                        for j in 0..2 {
                            let p = if i == j { 1.0 } else { 0.0 } - e[i] * e[j];
                            out.dg_dv[i][j] = if i == j { 1.0 } else { 0.0 } - s * ir * e[i] * e[j];
                            out.dg_dz[i][j] = -(e[i] * v[j] + ev * p) * ir;
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{build, ParamMap};

    const LAWS: [&str; 9] = [
        "viscous",
        "power_viscous",
        "coulomb_sat",
        "coulomb_tanh",
        "stribeck_sat",
        "stribeck_tanh",
        "lugre",
        "dahl",
        "dankowicz",
    ];

    fn model(id: &str) -> (AnyModel, PlaneLaw) {
        let m = build(id, &ParamMap::new()).unwrap();
        let law = plane_law(&m).unwrap_or_else(|e| panic!("{id}: {e}"));
        (m, law)
    }

    /// A state of the model's scale (a fraction of its steady deflection).
    fn states(m: &AnyModel, law: &PlaneLaw) -> Vec<f64> {
        if law.n_states() == 0 {
            return vec![];
        }
        // the 1-D steady state at a speed well into sliding
        let mut z = [0.0];
        let mut r = [0.0];
        for _ in 0..200_000 {
            m.rates(&Input::new(0.0, 0.0, 1e-2), &z, &[], &mut r);
            z[0] += 1e-7 * r[0];
        }
        vec![0.6 * z[0], -0.3 * z[0]]
    }

    /// Along ±x the law is the 1-D model's, and nothing happens across.
    #[test]
    fn along_an_axis_the_plane_law_is_the_1d_law_and_zero_across() {
        for id in LAWS {
            let (m, law) = model(id);
            let z = states(&m, &law);
            for v in [3e-3, -3e-3, 0.7, -0.7] {
                let zx: Vec<f64> = z.iter().take(1).copied().collect();
                let zz = if z.is_empty() { vec![] } else { vec![z[0], 0.0] };
                let mut g = [0.0; 2];
                let f = law.eval(&m, 0.0, [v, 0.0], &zz, Some(&mut g[..law.n_states()]));
                let inp = Input::new(0.0, 0.0, v);
                let f1 = m.force(&inp, &zx, &[]);
                let tol = 1e-12 * f1.abs().max(1.0);
                assert!((f[0] - f1).abs() <= tol, "{id} v = {v}: {} vs {f1}", f[0]);
                assert!(f[1].abs() <= tol, "{id} v = {v}: across {}", f[1]);
                if law.n_states() == 2 {
                    let mut r = [0.0];
                    m.rates(&inp, &zx, &[], &mut r);
                    assert!((g[0] - r[0]).abs() <= 1e-12 * r[0].abs().max(1.0), "{id} v = {v}: rate");
                    assert!(g[1].abs() <= 1e-12 * r[0].abs().max(1.0), "{id}: rate across {}", g[1]);
                }
            }
        }
    }

    /// Rotating the slip and the states rotates the force and the rates.
    #[test]
    fn a_rotated_slip_gives_the_rotated_force() {
        for id in LAWS {
            let (m, law) = model(id);
            let z = states(&m, &law);
            let v = [2e-3, -1e-3];
            let mut g = [0.0; 2];
            let f = law.eval(&m, 0.0, v, &z, Some(&mut g[..law.n_states()]));
            for th in [0.3f64, 2.0, -1.1] {
                let (c, s) = (th.cos(), th.sin());
                let rot = |a: [f64; 2]| [c * a[0] - s * a[1], s * a[0] + c * a[1]];
                let zr: Vec<f64> = if z.is_empty() { vec![] } else { rot([z[0], z[1]]).to_vec() };
                let mut gr = [0.0; 2];
                let fr = law.eval(&m, 0.0, rot(v), &zr, Some(&mut gr[..law.n_states()]));
                let (fe, ge) = (rot(f), rot(g));
                let scale = f[0].hypot(f[1]).max(1e-300);
                for i in 0..2 {
                    assert!((fr[i] - fe[i]).abs() <= 1e-12 * scale, "{id} θ = {th}: F {fr:?} vs {fe:?}");
                    let gs = g[0].hypot(g[1]).max(1e-300);
                    assert!((gr[i] - ge[i]).abs() <= 1e-11 * gs, "{id} θ = {th}: rates {gr:?} vs {ge:?}");
                }
            }
        }
    }

    /// The partials equal central differences of the force and rates.
    #[test]
    fn partials_match_differences() {
        for id in LAWS {
            let (m, law) = model(id);
            let mut w = PlaneWork::new(&law);
            let z = states(&m, &law);
            let nz = law.n_states();
            for v in [[2e-3, -1e-3], [-0.4, 0.9]] {
                let mut p = PlanePartials::default();
                law.partials(&m, 0.0, v, &z, &mut w, &mut p);
                let at = |v: [f64; 2], z: &[f64]| {
                    let mut g = [0.0; 2];
                    let f = law.eval(&m, 0.0, v, z, Some(&mut g[..nz]));
                    (f, g)
                };
                for j in 0..2 {
                    let h = 1e-6 * v[j].abs();
                    let (mut vp, mut vm) = (v, v);
                    vp[j] += h;
                    vm[j] -= h;
                    let ((fp, gp), (fm, gm)) = (at(vp, &z), at(vm, &z));
                    for i in 0..2 {
                        let df = (fp[i] - fm[i]) / (2.0 * h);
                        let dg = (gp[i] - gm[i]) / (2.0 * h);
                        let tf = 1e-5 * (df.abs() + p.df_dv[i][j].abs()) + 1e-9;
                        assert!(
                            (p.df_dv[i][j] - df).abs() <= tf,
                            "{id} {v:?}: dF{i}/dv{j} {} vs {df}",
                            p.df_dv[i][j]
                        );
                        let tg = 1e-5 * (dg.abs() + p.dg_dv[i][j].abs()) + 1e-9;
                        assert!(
                            (p.dg_dv[i][j] - dg).abs() <= tg,
                            "{id} {v:?}: dg{i}/dv{j} {} vs {dg}",
                            p.dg_dv[i][j]
                        );
                    }
                    if nz == 2 {
                        let h = 1e-6 * z[j].abs();
                        let (mut zp, mut zm) = (z.clone(), z.clone());
                        zp[j] += h;
                        zm[j] -= h;
                        let ((fp, gp), (fm, gm)) = (at(v, &zp), at(v, &zm));
                        for i in 0..2 {
                            let df = (fp[i] - fm[i]) / (2.0 * h);
                            let dg = (gp[i] - gm[i]) / (2.0 * h);
                            assert!((p.df_dz[i][j] - df).abs() <= 1e-5 * df.abs().max(1.0), "{id}: dF/dz");
                            assert!((p.dg_dz[i][j] - dg).abs() <= 1e-5 * dg.abs().max(1.0), "{id}: dg/dz");
                        }
                    }
                }
            }
        }
    }

    /// Integrated at constant velocity (RK4, fine steps) the bristle laws
    /// give the forces of the exact per-step update `update_2d`.
    #[test]
    fn integrated_at_constant_velocity_the_law_is_the_exact_update() {
        use crate::update::planar::{init_2d, state_len_2d, update_2d};
        for id in ["lugre", "dahl", "dankowicz"] {
            let (m, law) = model(id);
            let v = [1.5e-3, 2.0e-3];
            let dt = 2e-3;
            // exact update over dt
            let mut st = vec![0.0; state_len_2d(&m).unwrap()];
            init_2d(&m, &mut st).unwrap();
            let mut fx = [0.0; 2];
            update_2d(&m, dt, &[v[0] * dt, v[1] * dt], &[1.0], &mut st, &mut fx).unwrap();
            // RK4 of the continuous law
            let n = 20_000;
            let h = dt / n as f64;
            let mut z = [0.0; 2];
            let rate = |z: &[f64; 2]| {
                let mut g = [0.0; 2];
                law.eval(&m, 0.0, v, z, Some(&mut g));
                g
            };
            for _ in 0..n {
                let k1 = rate(&z);
                let k2 = rate(&[z[0] + 0.5 * h * k1[0], z[1] + 0.5 * h * k1[1]]);
                let k3 = rate(&[z[0] + 0.5 * h * k2[0], z[1] + 0.5 * h * k2[1]]);
                let k4 = rate(&[z[0] + h * k3[0], z[1] + h * k3[1]]);
                for i in 0..2 {
                    z[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
                }
            }
            let f = law.eval(&m, 0.0, v, &z, None);
            let scale = fx[0].hypot(fx[1]);
            for i in 0..2 {
                assert!((f[i] - fx[i]).abs() <= 1e-8 * scale, "{id}: {f:?} vs exact {fx:?}");
            }
        }
    }

    /// Models without a continuous plane law say why.
    #[test]
    fn models_without_a_plane_law_name_the_reason() {
        for (id, why) in [
            ("coulomb", "friction disk"),
            ("stribeck", "friction disk"),
            ("iwan4", "per-step update"),
            ("magic_formula", "anisotropic"),
        ] {
            let e = plane_law(&build(id, &ParamMap::new()).unwrap()).unwrap_err();
            assert!(e.contains(why), "{id}: {e}");
        }
    }

    /// Jenkins' element in the plane: sliding along x on the rim, then
    /// pulled along y, its deflection turns towards y as the tractrix of
    /// the slip, `sin θ = tanh(w t / r)` (r = Fs/kt), with |F| = Fs all
    /// along; stuck, its force is the elastic `kt d`; the partials of both
    /// modes against differences.
    #[test]
    fn jenkins_in_the_plane_turns_its_deflection_as_the_closed_form_and_has_exact_partials() {
        let (m, law) = model("jenkins");
        let PlaneLaw::Jenkins { kt, fs } = law else { panic!("{law:?}") };
        let r = fs / kt;
        let w = 3e-3;
        let v = [0.0, w];
        let mut d = [r, 0.0];
        let h = 1e-8;
        let rate = |d: &[f64; 2]| {
            let mut g = [0.0; 2];
            law.eval_in(&m, 0.0, v, d, Some(&mut g), true);
            g
        };
        let n = 20_000;
        for _ in 0..n {
            let k1 = rate(&d);
            let k2 = rate(&[d[0] + 0.5 * h * k1[0], d[1] + 0.5 * h * k1[1]]);
            let k3 = rate(&[d[0] + 0.5 * h * k2[0], d[1] + 0.5 * h * k2[1]]);
            let k4 = rate(&[d[0] + h * k3[0], d[1] + h * k3[1]]);
            for i in 0..2 {
                d[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
            }
        }
        let t = n as f64 * h;
        let sin = (w * t / r).tanh();
        assert!((d[1] / r - sin).abs() < 1e-9, "sin θ = {} against tanh(w t / r) = {sin}", d[1] / r);
        let f = law.eval_in(&m, 0.0, v, &d, None, true);
        assert!((f[0].hypot(f[1]) - fs).abs() < 1e-9 * fs, "|F| = {} against Fs = {fs}", f[0].hypot(f[1]));
        assert!(law.sliding_at(v, &d) && law.switch(v, &d, true).unwrap() > 0.0);
        // stuck inside the disk: the elastic force, the slip into the deflection
        let inside = [0.3 * r, -0.2 * r];
        let mut g = [0.0; 2];
        let f = law.eval(&m, 0.0, [1e-3, 2e-3], &inside, Some(&mut g));
        assert_eq!((f, g), ([kt * inside[0], kt * inside[1]], [1e-3, 2e-3]));
        assert!(!law.sliding_at([1e-3, 2e-3], &inside));
        let mut wk = PlaneWork::new(&law);
        for (sliding, d, v) in [(true, [0.6 * r, 0.8 * r], [2e-3, -1e-3]), (false, inside, [2e-3, -1e-3])] {
            let mut p = PlanePartials::default();
            law.partials_in(&m, 0.0, v, &d, &mut wk, &mut p, sliding);
            let at = |v: [f64; 2], d: [f64; 2]| {
                let mut g = [0.0; 2];
                let f = law.eval_in(&m, 0.0, v, &d, Some(&mut g), sliding);
                (f, g)
            };
            for j in 0..2 {
                let (hv, hd) = (1e-6 * w, 1e-6 * r);
                let (mut vp, mut vm, mut dp, mut dm) = (v, v, d, d);
                vp[j] += hv;
                vm[j] -= hv;
                dp[j] += hd;
                dm[j] -= hd;
                let ((_, gvp), (_, gvm)) = (at(vp, d), at(vm, d));
                let ((fdp, gdp), (fdm, gdm)) = (at(v, dp), at(v, dm));
                for i in 0..2 {
                    let dgv = (gvp[i] - gvm[i]) / (2.0 * hv);
                    let dgd = (gdp[i] - gdm[i]) / (2.0 * hd);
                    let dfd = (fdp[i] - fdm[i]) / (2.0 * hd);
                    assert!((p.dg_dv[i][j] - dgv).abs() < 1e-6, "sliding {sliding}: dg{i}/dv{j}");
                    assert!(
                        (p.dg_dz[i][j] - dgd).abs() < 1e-6 * (1.0 + dgd.abs()),
                        "sliding {sliding}: dg{i}/dd{j} {} vs {dgd}",
                        p.dg_dz[i][j]
                    );
                    assert!((p.df_dz[i][j] - dfd).abs() < 1e-6 * kt, "sliding {sliding}: dF{i}/dd{j}");
                }
            }
        }
    }
}

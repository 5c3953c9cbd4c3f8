//! Friction in two tangential directions: the per-step update of contacts
//! that slide in a plane (a node of a 3-D finite-element contact, as in
//! Abaqus' VFRIC, which hands over two tangential slip increments per node).
//!
//! The contract mirrors the one-dimensional one of [`super`]: the caller owns
//! one state vector per contact, [`init_2d`] fills it with relaxed states at
//! rest and [`update_2d`] advances `n` contacts over one step of length `dt`
//! in which contact `i` slips by `(Δx, Δy) = (slip_increment[2i],
//! slip_increment[2i + 1])` at constant velocity under the normal load
//! `normal[i]`, writing `(force[2i], force[2i + 1]) = normal[i] · F`, `F`
//! the model's force vector (it opposes the slip, as in 1-D).
//!
//! ```
//! use friction_models::{build, ParamMap};
//! use friction_models::update::planar::{init_2d, state_len_2d, update_2d};
//! let m = build("coulomb", &ParamMap::new()).unwrap();
//! let n = 1;
//! let mut state = vec![0.0; n * state_len_2d(&m).unwrap()];
//! init_2d(&m, &mut state).unwrap();
//! let mut force = [0.0; 2];
//! // slide by (3, 4) µm under a normal load of 10: |F| = 10 Fc along the slip
//! update_2d(&m, 1e-3, &[3e-6, 4e-6], &[10.0], &mut state, &mut force).unwrap();
//! assert!((force[0] - 6.0).abs() < 1e-12 && (force[1] - 8.0).abs() < 1e-12);
//! // a model without an isotropic vector form says so
//! let e = state_len_2d(&build("magic_formula", &ParamMap::new()).unwrap()).unwrap_err();
//! assert!(e.to_string().contains("magic_formula"));
//! ```
//!
//! # State layout
//! ```text
//! state of one contact = [t, x, y, model values ...]      (state_len_2d doubles)
//! t     the contact's time [s];  x, y  the accumulated slip [m]
//! ```
//! The model values are listed per model below. All states start at 0
//! (relaxed, at rest, sliders at the origin).
//!
//! # The vector forms
//! | models | 2-D form | model values |
//! |---|---|---|
//! | isotropic maps `viscous`, `power_viscous`, `coulomb`, `coulomb_viscous`, `coulomb_sat`, `coulomb_tanh`, `stribeck`, `stribeck_sat`, `stribeck_tanh`, `stribeck_exp` | `F = F₁(|v|) v/|v|`, `F₁` the 1-D force at the speed `|v|` (the regularised maps `sat`, `tanh` of `|v|` along `v/|v|`); for a zero slip increment the rest value 0: the caller owns stick, as in 1-D | none |
//! | `jenkins` (θ = 1) | radial return of a 2-D elastic-perfectly-plastic element: stuck inside the disk `|kt (u - s)| <= φ`, on its rim the slider is returned radially | `sx, sy` |
//! | `iwan4`, `maxwell_slip` | every element a 2-D Jenkins element (radial return) | `sx_0 .. sx_{m-1}, sy_0 .. sy_{m-1}` |
//! | `lugre` | the vector bristle law `dz/dt = v - σ0 |v| z / g(|v|)`, `F = σ0 z + σ1 dz/dt + σ2 v`, integrated exactly at constant velocity | `zx, zy` |
//! | `dahl` (exponent 1), `dankowicz` | the same bristle law with a constant `g`: `dF/dt = σ0 (v - |v| F / Fc)` (Dahl), `dz/dt = v - |v| z / δ`, `F = (Fmax/δ) z` (Dankowicz), integrated exactly | `Fx, Fy` (Dahl), `zx, zy` (Dankowicz) |
//! | `iwan5` (θ = 1) | every element a 2-D Jenkins element (radial return), in the arithmetic of the 1-D Mignolet element | `sx_0 .. sx_{m-1}, sy_0 .. sy_{m-1}` |
//! | `bouc_wen` | the rotation-invariant bi-directional law `dz/dt = A v - |z|^(n-2) (β |z·v| + γ z·v) z`, `F = kj z` (Park, Wen & Ang 1986 with `β |z·v|` for their axis-bound β term), by the generic implicit update in the frame of the slip | `zx, zy` |
//!
//! Sources: the isotropic Coulomb law and its return mapping on the
//! friction disk: J.C. Simo, T.J.R. Hughes, *Computational Inelasticity*,
//! Springer 1998, ch. 1-2 (radial return), and P. Wriggers, *Computational
//! Contact Mechanics*, 2nd ed., Springer 2006, sec. 5.2 (the friction cone
//! and its return mapping). The vector LuGre law: E. Velenis, P. Tsiotras,
//! C. Canudas de Wit, M. Sorine, "Dynamic tyre friction models for combined
//! longitudinal and lateral vehicle motion", Vehicle System Dynamics 43(1),
//! 2005, eq. 7 with isotropic parameters (σ0, σ1, σ2 scalars); Iwan's
//! parallel elements: W.D. Iwan 1966, each element the 2-D radial return.
//! Dahl and Dankowicz: the LuGre law above with `g = Fc` and no damping
//! (Canudas de Wit, Olsson, Åström & Lischinsky 1995, sec. 2, Dahl as the
//! rate-independent limit of LuGre; Andersson, Söderberg & Björklund 2007,
//! after eq. 18, Dankowicz as Dahl with σ0 = Fmax/δ). Bouc-Wen: Y.J. Park,
//! Y.K. Wen, A.H.-S. Ang, "Random vibration of hysteretic systems under
//! bi-directional ground motions", Earthquake Eng. Struct. Dyn. 14, 1986,
//! with the change explained in its file (`bouc_wen.rs`).
//!
//! On a path along one axis every 2-D update gives the 1-D update's force
//! bit for bit and zero across (tested; `bouc_wen` along -x to the implicit
//! update's tolerance, see its file), and a path rotated by any angle gives
//! the rotated forces.
//!
//! # Without a 2-D form
//! The other models answer [`UpdateError::NoPlanarForm`] naming the model
//! and the reason (see [`planar_form`]): tyre maps (`magic_formula`,
//! `bliman_tire`) are anisotropic by construction; `table` and `freewheel`
//! may be asymmetric in the sign of `v`; Jenkins and `iwan5` with θ < 1
//! (Mignolet's drop from static to dynamic strength is a 1-D rule: after a
//! reversal in the plane there is no accepted choice of when a slider falls
//! back to its static strength); `dahl` with exponent != 1 (its branch shape
//! `|1 - (F/Fc) sign(v)|^i` has several inequivalent extensions to the
//! plane, `|e - F/Fc|^i` or `(1 - F·e/Fc)^i` among them, and no accepted
//! one); `elasto_plastic` (Dupont, Hayward, Armstrong & Altpeter 2002 switch
//! α(z, v) on the signs of z and v; in the plane the bristle can move
//! across its deflection, z·v = 0 with |z| > z_ba, where the switch jumps
//! between 0 and its transition value, and we know of no published vector
//! form that settles it); `gms`, `leuven`, `rate_state` and the other
//! state models have no vector form implemented here (they are not guessed).
//!
//! # Speed
//! One pass over the contacts, allocation-free (`bouc_wen`: one work buffer
//! per call, or per chunk, as the 1-D implicit update); [`update_2d_par`]
//! spreads chunks of contacts over rayon's pool (the same bits). A
//! `bouc_wen` contact whose implicit update fails gives
//! [`UpdateError::NoConvergence`] as in 1-D: every other contact advanced,
//! the failing ones keep their states with NaN forces.

mod bouc_wen;
mod iwan5;
mod lugre;
mod relax;
mod sliders;
mod tangent;

pub use tangent::update_2d_tangent;
#[cfg(feature = "rayon")]
pub use tangent::update_2d_tangent_par;

use super::{SliceFailure, UpdateError};
use crate::model::FrictionModel;
use crate::registry::AnyModel;

/// Index of the contact's time `t` in its 2-D state.
pub const T: usize = 0;
/// Index of the accumulated slip `x`.
pub const X: usize = 1;
/// Index of the accumulated slip `y`.
pub const Y: usize = 2;
/// Index of the first model value.
pub const M: usize = 3;

/// How a model moves in the plane.
enum Form<'a> {
    /// `F = F₁(|v|) v/|v|`.
    Radial(&'a AnyModel),
    /// Jenkins with θ = 1: stiffness and strength.
    Jenkins { kt: f64, fs: f64 },
    /// Parallel spring-slider elements.
    Sliders(&'a crate::sliders::Sliders),
    /// The vector LuGre law.
    LuGre(&'a crate::models::lugre::LuGre),
    /// Dahl (exponent 1) and Dankowicz: exact vector relaxation.
    Relax(relax::Relax),
    /// Iwan-5 with θ = 1: 2-D Mignolet (Jenkins) elements.
    Iwan5(&'a [crate::models::iwan4::IwanElement]),
    /// The rotation-invariant bi-directional Bouc-Wen law.
    BoucWen(&'a crate::models::bouc_wen::BoucWenParams),
}

/// The 2-D form of `m`, or why it has none.
fn form(m: &AnyModel) -> Result<Form<'_>, &'static str> {
    use AnyModel as A;
    match m {
        A::Viscous(_)
        | A::PowerViscous(_)
        | A::Coulomb(_)
        | A::CoulombViscous(_)
        | A::CoulombSat(_)
        | A::CoulombTanh(_)
        | A::Stribeck(_)
        | A::StribeckSat(_)
        | A::StribeckTanh(_)
        | A::StribeckExp(_) => Ok(Form::Radial(m)),
        A::Jenkins(j) if j.params().theta == 1.0 => Ok(Form::Jenkins { kt: j.params().kt, fs: j.params().fs }),
        A::Jenkins(_) => Err("the Mignolet drop from static to dynamic strength (theta < 1) has no accepted isotropic vector form; use theta = 1"),
        A::Iwan4(x) => Ok(Form::Sliders(x.sliders())),
        A::MaxwellSlip(x) => Ok(Form::Sliders(x.sliders())),
        A::LuGre(x) => Ok(Form::LuGre(x)),
        A::Dahl(x) if x.params().exponent == 1.0 => Ok(Form::Relax(relax::Relax::dahl(x.params()))),
        A::Dahl(_) => Err("its branch shape |1 - (F/Fc) sign(v)|^i with exponent i != 1 has several inequivalent extensions to the plane and no accepted one; use exponent = 1 (the vector bristle law)"),
        A::Dankowicz(x) => Ok(Form::Relax(relax::Relax::dankowicz(x.params()))),
        A::Iwan5(x) if x.params().theta == 1.0 => Ok(Form::Iwan5(x.elements())),
        A::Iwan5(_) => Err("the Mignolet drop from static to dynamic strength (theta < 1) has no accepted isotropic vector form; use theta = 1"),
        A::BoucWen(x) => Ok(Form::BoucWen(x.params())),
        A::ElastoPlastic(_) => Err("its switch alpha(z, v) (Dupont et al. 2002) is defined by the signs of z and v; in the plane the bristle can move across its deflection (z.v = 0, |z| > z_ba), where the switch has no accepted extension (no published vector form)"),
        A::MagicFormula(_) | A::BlimanTire(_) => {
            Err("a tyre characteristic is anisotropic (longitudinal and lateral slip differ), not an isotropic friction law")
        }
        A::Table(_) | A::Freewheel(_) => Err("its force may differ for positive and negative slip, so no isotropic form follows from it"),
        A::Classical(_) | A::Karnopp(_) => {
            Err("its stick band is a 1-D velocity switch; use `coulomb` or `stribeck` (rest value 0, the caller owns stick) or `jenkins`")
        }
        _ => Err("no isotropic vector form is implemented for this model (the literature has none accepted, or it is not yet implemented here)"),
    }
}

/// `Ok(())` when `m` has a 2-D form, else the reason it has none.
///
/// ```
/// use friction_models::{build, ParamMap};
/// let m = build("rate_state", &ParamMap::new()).unwrap();
/// assert!(friction_models::update::planar::planar_form(&m).is_err());
/// ```
pub fn planar_form(m: &AnyModel) -> Result<(), &'static str> {
    form(m).map(|_| ())
}

fn no_form(m: &AnyModel, reason: &'static str) -> UpdateError {
    UpdateError::NoPlanarForm { model: m.info().id, reason }
}

/// Doubles of 2-D state per contact (see the module documentation), or
/// [`UpdateError::NoPlanarForm`] naming the model and why it has none.
pub fn state_len_2d(m: &AnyModel) -> Result<usize, UpdateError> {
    Ok(M + match form(m).map_err(|r| no_form(m, r))? {
        Form::Radial(_) => 0,
        Form::Jenkins { .. } => 2,
        Form::Sliders(s) => 2 * s.len(),
        Form::LuGre(_) => 2,
        Form::Relax(_) => 2,
        Form::Iwan5(e) => 2 * e.len(),
        Form::BoucWen(_) => 2,
    })
}

/// Relaxed initial 2-D states at rest (all zero) for
/// `state.len() / state_len_2d(m)` contacts.
///
/// ```
/// use friction_models::{build, ParamMap};
/// use friction_models::update::planar::{init_2d, state_len_2d};
/// let m = build("jenkins", &ParamMap::new()).unwrap();
/// let mut s = vec![f64::NAN; 2 * state_len_2d(&m).unwrap()];
/// init_2d(&m, &mut s).unwrap();
/// assert!(s.iter().all(|&v| v == 0.0));
/// assert!(init_2d(&m, &mut s[..3]).is_err());
/// ```
pub fn init_2d(m: &AnyModel, state: &mut [f64]) -> Result<(), UpdateError> {
    let len = state_len_2d(m)?;
    if !state.len().is_multiple_of(len) {
        return Err(UpdateError::Length {
            argument: "state",
            len: state.len(),
            expected: state.len() / len * len,
            n: state.len() / len,
            per: format!(" × state_len_2d = {len}, a multiple of {len}"),
        });
    }
    state.fill(0.0);
    Ok(())
}

/// Advance `n = normal.len()` planar contacts over one step of length `dt`
/// (see the module documentation). `slip_increment` and `force` hold `2n`
/// values (x, y interleaved per contact), `state` `n · state_len_2d(m)`.
/// The arguments are checked before anything changes, as in
/// [`update`](super::update).
///
/// ```
/// use friction_models::{build, ParamMap};
/// use friction_models::update::planar::{init_2d, state_len_2d, update_2d};
/// let m = build("jenkins", &ParamMap::new()).unwrap(); // kt = 1e5, fs = 1
/// let mut s = vec![0.0; state_len_2d(&m).unwrap()];
/// init_2d(&m, &mut s).unwrap();
/// let mut f = [0.0; 2];
/// // 3 µm, 4 µm: inside the disk (|kt u| = 0.5 < fs), elastic
/// update_2d(&m, 1e-3, &[3e-6, 4e-6], &[1.0], &mut s, &mut f).unwrap();
/// assert!((f[0] - 0.3).abs() < 1e-12 && (f[1] - 0.4).abs() < 1e-12);
/// // further along the same direction: on the rim, |F| = fs
/// update_2d(&m, 1e-3, &[3e-5, 4e-5], &[1.0], &mut s, &mut f).unwrap();
/// assert!((f[0].hypot(f[1]) - 1.0).abs() < 1e-12);
/// ```
pub fn update_2d(
    m: &AnyModel,
    dt: f64,
    slip_increment: &[f64],
    normal: &[f64],
    state: &mut [f64],
    force: &mut [f64],
) -> Result<(), UpdateError> {
    let (f, len) = checked(m, dt, slip_increment, normal, state, force, false)?;
    run_slice(&f, len, dt, slip_increment, normal, state, force).map_err(|(contact, t, failed)| {
        UpdateError::NoConvergence { model: m.info().id, contact, t, dt, failed }
    })
}

/// [`update_2d`] with the contacts spread over rayon's thread pool in
/// chunks; the same results, bit for bit.
#[cfg(feature = "rayon")]
pub fn update_2d_par(
    m: &AnyModel,
    dt: f64,
    slip_increment: &[f64],
    normal: &[f64],
    state: &mut [f64],
    force: &mut [f64],
) -> Result<(), UpdateError> {
    use rayon::prelude::*;
    let (f, len) = checked(m, dt, slip_increment, normal, state, force, true)?;
    let chunk = (6144 / len).max(16);
    // every chunk runs to its end; the failures are merged (the lowest
    // failing contact, the total count), whatever the threads' order
    let failure = state
        .par_chunks_mut(chunk * len)
        .zip(force.par_chunks_mut(2 * chunk))
        .zip(slip_increment.par_chunks(2 * chunk).zip(normal.par_chunks(chunk)))
        .enumerate()
        .filter_map(|(c, ((st, fo), (du, nf)))| {
            run_slice(&f, len, dt, du, nf, st, fo).err().map(|(i, t, n)| (c * chunk + i, t, n))
        })
        .reduce_with(|x, y| {
            let first = if x.0 <= y.0 { x } else { y };
            (first.0, first.1, x.2 + y.2)
        });
    match failure {
        Some((contact, t, failed)) => {
            Err(UpdateError::NoConvergence { model: m.info().id, contact, t, dt, failed })
        }
        None => Ok(()),
    }
}

/// Check the arguments: the form, the lengths, then the motion inputs as
/// the 1-D update does ([`super::inputs`]).
fn checked<'m>(
    m: &'m AnyModel,
    dt: f64,
    du: &[f64],
    normal: &[f64],
    state: &[f64],
    force: &[f64],
    par: bool,
) -> Result<(Form<'m>, usize), UpdateError> {
    let f = form(m).map_err(|r| no_form(m, r))?;
    let len = state_len_2d(m)?;
    let n = normal.len();
    let length = |argument, got: usize, expected, per: String| {
        if got == expected {
            Ok(())
        } else {
            Err(UpdateError::Length { argument, len: got, expected, n, per })
        }
    };
    length("slip_increment", du.len(), 2 * n, " × 2 (x, y)".to_string())?;
    length("force", force.len(), 2 * n, " × 2 (x, y)".to_string())?;
    length("state", state.len(), n * len, format!(" × state_len_2d {len}"))?;
    super::inputs::check_motion::<2>(dt, du, normal, par)?;
    Ok((f, len))
}

/// One pass over checked contacts; a contact whose implicit update failed
/// (its index in the slice, its time) stops the pass.
fn run_slice(
    f: &Form<'_>,
    len: usize,
    dt: f64,
    du: &[f64],
    normal: &[f64],
    state: &mut [f64],
    force: &mut [f64],
) -> Result<(), SliceFailure> {
    match *f {
        Form::Radial(m) => sliders::radial(m, dt, du, normal, state, force),
        Form::Jenkins { kt, fs } => sliders::jenkins(kt, fs, dt, du, normal, state, force),
        Form::Sliders(s) => sliders::elements(s, len, dt, du, normal, state, force),
        Form::LuGre(m) => lugre::run(m, dt, du, normal, state, force),
        Form::Relax(r) => relax::run(r, dt, du, normal, state, force),
        Form::Iwan5(e) => iwan5::run(e, dt, du, normal, state, force),
        Form::BoucWen(p) => return bouc_wen::run(p, dt, du, normal, state, force),
    }
    Ok(())
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_forms;

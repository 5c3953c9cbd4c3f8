//! The consistent tangent for implicit finite-element codes (Abaqus/Standard
//! FRIC's `DDTDDG` and `DDTDDP`, CalculiX, a Newton loop): the update with,
//! beside the forces, the derivative of each contact's force with respect to
//! its slip increment and its normal load, the state at the start of the
//! step held fixed. See `friction_models::update::tangent` and
//! `friction_models::update::planar` (`update_2d_tangent`) for what each
//! model's tangent is.

use std::ffi::c_int;

use friction_models::update::{self, planar};

use crate::{guard_code, update_args, update_failure, Failure, FrictionModel};

/// `len` values at `p`, or `None` for NULL (not wanted).
///
/// # Safety
/// `p` is NULL or points to `len` valid values, not aliased.
unsafe fn out_arg<'a>(p: *mut f64, len: usize) -> Option<&'a mut [f64]> {
    if p.is_null() {
        None
    } else if len == 0 {
        Some(&mut [])
    } else {
        Some(std::slice::from_raw_parts_mut(p, len))
    }
}

fn times(n: usize, k: usize) -> Result<usize, Failure> {
    n.checked_mul(k).ok_or_else(|| Failure::argument(format!("`n` = {n} contacts × {k} overflows")))
}

/// [`friction_model_update`](crate::friction_model_update), and its
/// consistent tangent: `dforce_dslip[i] = d force[i] / d slip_increment[i]`
/// (`n` doubles; Abaqus' `DDTDDG`) and `dforce_dnormal[i] = d force[i] / d
/// normal[i]` (`n` doubles; `DDTDDP`, the model's force per unit normal
/// load), the state at the start of the step held fixed. Either tangent
/// pointer may be NULL: not wanted. States and forces are those of
/// `friction_model_update`, bit for bit.
///
/// The tangent is analytical: the return-mapping (elastic in stick, 0 in
/// slip) tangent of Jenkins, Iwan and Maxwell-slip elements, the derivative
/// of the exact exponential updates of LuGre, Dahl and Dankowicz, the
/// sliding curve's slope `dF/dv / dt` of static maps and of set-valued laws
/// while sliding (0 for a zero increment: the caller owns stick), and the
/// forward sensitivity of the implicit update for the other state models.
/// Errors and codes as `friction_model_update`.
///
/// # Safety
/// As [`friction_model_update`](crate::friction_model_update); `dforce_dslip`
/// and `dforce_dnormal` are NULL or point to `n` doubles that overlap no
/// other argument.
#[no_mangle]
pub unsafe extern "C" fn friction_model_update_tangent(
    m: *const FrictionModel,
    n: usize,
    dt: f64,
    slip_increment: *const f64,
    normal: *const f64,
    state: *mut f64,
    force: *mut f64,
    dforce_dslip: *mut f64,
    dforce_dnormal: *mut f64,
) -> c_int {
    guard_code(|| {
        let (m, du, normal, state, force) = update_args(m, n, slip_increment, normal, state, force)?;
        let (ks, kn) = (out_arg(dforce_dslip, n), out_arg(dforce_dnormal, n));
        update::update_tangent(&m.model, dt, du, normal, state, force, ks, kn)
            .map_err(|e| update_failure(m, e))
    })
}

/// [`friction_model_update_tangent`] with the contacts spread over a thread
/// pool (rayon); the same results, bit for bit.
///
/// # Safety
/// As [`friction_model_update_tangent`].
#[no_mangle]
pub unsafe extern "C" fn friction_model_update_tangent_parallel(
    m: *const FrictionModel,
    n: usize,
    dt: f64,
    slip_increment: *const f64,
    normal: *const f64,
    state: *mut f64,
    force: *mut f64,
    dforce_dslip: *mut f64,
    dforce_dnormal: *mut f64,
) -> c_int {
    guard_code(|| {
        let (m, du, normal, state, force) = update_args(m, n, slip_increment, normal, state, force)?;
        let (ks, kn) = (out_arg(dforce_dslip, n), out_arg(dforce_dnormal, n));
        update::update_tangent_par(&m.model, dt, du, normal, state, force, ks, kn)
            .map_err(|e| update_failure(m, e))
    })
}

/// [`friction_model_update_2d`](crate::friction_model_update_2d), and its
/// consistent tangent: `dforce_dslip` holds 4 doubles per contact, the
/// row-major 2 × 2 matrix `dFx/dsx, dFx/dsy, dFy/dsx, dFy/dsy` of the force
/// vector's derivative with respect to the slip increment vector, and
/// `dforce_dnormal` 2 per contact, the model's force vector per unit normal
/// load. Either may be NULL: not wanted. States and forces are those of
/// `friction_model_update_2d`, bit for bit. In slip the elements' tangent
/// is the radial return's, `k (φ/|t|) (I - n nᵀ)`: nothing along the slip,
/// stiff across it. `bouc_wen`'s is the forward sensitivity of its implicit
/// update in the frame of the slip, with the turn of that frame.
///
/// # Safety
/// As [`friction_model_update_2d`](crate::friction_model_update_2d);
/// `dforce_dslip` is NULL or points to `4n` doubles, `dforce_dnormal` NULL
/// or `2n`, overlapping no other argument.
#[no_mangle]
pub unsafe extern "C" fn friction_model_update_2d_tangent(
    m: *const FrictionModel,
    n: usize,
    dt: f64,
    slip_increment: *const f64,
    normal: *const f64,
    state: *mut f64,
    force: *mut f64,
    dforce_dslip: *mut f64,
    dforce_dnormal: *mut f64,
) -> c_int {
    guard_code(|| {
        let (m, du, normal, state, force) =
            crate::planar::args_2d(m, n, slip_increment, normal, state, force)?;
        let (ks, kn) = (out_arg(dforce_dslip, times(n, 4)?), out_arg(dforce_dnormal, times(n, 2)?));
        planar::update_2d_tangent(&m.model, dt, du, normal, state, force, ks, kn)
            .map_err(|e| update_failure(m, e))
    })
}

/// [`friction_model_update_2d_tangent`] with the contacts spread over a
/// thread pool (rayon); the same results, bit for bit.
///
/// # Safety
/// As [`friction_model_update_2d_tangent`].
#[no_mangle]
pub unsafe extern "C" fn friction_model_update_2d_tangent_parallel(
    m: *const FrictionModel,
    n: usize,
    dt: f64,
    slip_increment: *const f64,
    normal: *const f64,
    state: *mut f64,
    force: *mut f64,
    dforce_dslip: *mut f64,
    dforce_dnormal: *mut f64,
) -> c_int {
    guard_code(|| {
        let (m, du, normal, state, force) =
            crate::planar::args_2d(m, n, slip_increment, normal, state, force)?;
        let (ks, kn) = (out_arg(dforce_dslip, times(n, 4)?), out_arg(dforce_dnormal, times(n, 2)?));
        planar::update_2d_tangent_par(&m.model, dt, du, normal, state, force, ks, kn)
            .map_err(|e| update_failure(m, e))
    })
}

//! The 2-D contract: friction in two tangential directions (a node of a
//! 3-D finite-element contact), beside the 1-D one. Slip increments and
//! forces are interleaved `x, y` per contact; see
//! `friction_models::update::planar` for the state layout and the vector
//! form of each model.

use std::ffi::c_int;

use friction_models::update::planar;

use crate::{guard, guard_code, model_arg, slice_arg, slice_mut_arg, update_failure, Failure, FrictionModel};

/// Doubles of 2-D state per contact, `[t, x, y, model values]`; 0 when
/// the model has no 2-D form, with [`friction_last_error`](crate::friction_last_error)
/// naming the model and why (code `FRICTION_ERR_MODEL`), or when `m` is NULL.
///
/// # Safety
/// `m` is NULL or a live pointer from [`friction_model_new`](crate::friction_model_new).
#[no_mangle]
pub unsafe extern "C" fn friction_model_state_len_2d(m: *const FrictionModel) -> usize {
    guard(0, || {
        let m = model_arg(m)?;
        planar::state_len_2d(&m.model).map_err(|e| update_failure(m, e))
    })
}

/// Fill `state` (`n * friction_model_state_len_2d(m)` doubles) with relaxed
/// 2-D states at rest for `n` contacts.
///
/// # Safety
/// `m` is a live model; `state` points to `n * state_len_2d` doubles (or is
/// NULL with `n = 0`).
#[no_mangle]
pub unsafe extern "C" fn friction_model_init_2d(m: *const FrictionModel, n: usize, state: *mut f64) -> c_int {
    guard_code(|| {
        let m = model_arg(m)?;
        let len = state_len_2d_of(m, n)?;
        let state = slice_mut_arg(state, len, "state")?;
        planar::init_2d(&m.model, state).map_err(|e| update_failure(m, e))
    })
}

fn state_len_2d_of(m: &FrictionModel, n: usize) -> Result<usize, Failure> {
    let per = planar::state_len_2d(&m.model).map_err(|e| update_failure(m, e))?;
    n.checked_mul(per)
        .ok_or_else(|| Failure::argument(format!("`n` = {n} contacts × state_len_2d {per} overflows")))
}

/// Advance `n` contacts sliding in a plane over one step of length `dt`:
/// contact `i` slips by `(slip_increment[2i], slip_increment[2i+1])` (at
/// constant velocity) under the normal load `normal[i] >= 0`; writes the
/// friction force vector at the end of the step into `(force[2i],
/// force[2i+1])`, `normal[i]` times the model's force, which opposes the
/// slip (the sign convention of `friction_model_update`). On a path along
/// one axis the forces are those of `friction_model_update`, bit for bit.
///
/// Stable for any `dt > 0`. Arguments are checked before anything changes
/// (`FRICTION_ERR_ARGUMENT` naming the contact, argument and value); a
/// model without a 2-D form gives `FRICTION_ERR_MODEL`.
///
/// # Safety
/// `m` is a live model; `slip_increment` and `force` point to `2n`
/// doubles, `normal` to `n` and `state` to `n * state_len_2d` (any may be
/// NULL when `n = 0`); `state` and `force` do not overlap each other or the
/// inputs.
#[no_mangle]
pub unsafe extern "C" fn friction_model_update_2d(
    m: *const FrictionModel,
    n: usize,
    dt: f64,
    slip_increment: *const f64,
    normal: *const f64,
    state: *mut f64,
    force: *mut f64,
) -> c_int {
    guard_code(|| {
        let (m, du, normal, state, force) = args_2d(m, n, slip_increment, normal, state, force)?;
        planar::update_2d(&m.model, dt, du, normal, state, force).map_err(|e| update_failure(m, e))
    })
}

/// [`friction_model_update_2d`] with the contacts spread over a thread pool
/// (rayon); the same results, bit for bit.
///
/// # Safety
/// As [`friction_model_update_2d`].
#[no_mangle]
pub unsafe extern "C" fn friction_model_update_2d_parallel(
    m: *const FrictionModel,
    n: usize,
    dt: f64,
    slip_increment: *const f64,
    normal: *const f64,
    state: *mut f64,
    force: *mut f64,
) -> c_int {
    guard_code(|| {
        let (m, du, normal, state, force) = args_2d(m, n, slip_increment, normal, state, force)?;
        planar::update_2d_par(&m.model, dt, du, normal, state, force).map_err(|e| update_failure(m, e))
    })
}

/// # Safety
/// As [`friction_model_update_2d`].
pub(crate) unsafe fn args_2d<'a>(
    m: *const FrictionModel,
    n: usize,
    slip_increment: *const f64,
    normal: *const f64,
    state: *mut f64,
    force: *mut f64,
) -> Result<crate::UpdateArgs<'a>, Failure> {
    let m = model_arg(m)?;
    let len = state_len_2d_of(m, n)?;
    let two_n =
        n.checked_mul(2).ok_or_else(|| Failure::argument(format!("`n` = {n} contacts × 2 overflows")))?;
    Ok((
        m,
        slice_arg(slip_increment, two_n, "slip_increment")?,
        slice_arg(normal, n, "normal")?,
        slice_mut_arg(state, len, "state")?,
        slice_mut_arg(force, two_n, "force")?,
    ))
}

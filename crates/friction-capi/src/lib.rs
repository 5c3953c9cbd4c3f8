//! # friction-capi
//!
//! The C interface of the friction models, in the shape of the per-node
//! contact algorithm of explicit finite-element codes and of Abaqus'
//! VFRIC/FRIC user subroutines: the caller owns one state vector per contact
//! (as an FE code keeps `STATEV` per integration point) and the library holds
//! no per-contact memory. The header `include/friction.h` is generated from
//! this file by cbindgen (see `cbindgen.toml`; a test checks it is current).
//!
//! ```text
//! FrictionModel *m = friction_model_new("lugre", "sigma0 = 1e5\nfc = 0.3\nfs = 0.4");
//! size_t len = friction_model_state_len(m);        // doubles per contact
//! friction_model_init(m, n, state);                 // relaxed, at rest
//! friction_model_update(m, n, dt, du, normal, state, force);  // every step
//! friction_model_free(m);
//! ```
//!
//! Implicit codes (Abaqus/Standard's FRIC, CalculiX, a Newton loop) call
//! `friction_model_update_tangent` (and `friction_model_update_2d_tangent`)
//! instead: the same states and forces, and the derivative of each force
//! with respect to the slip increment and the normal load (FRIC's `DDTDDG`
//! and `DDTDDP`); a NULL tangent pointer means "not wanted".
//!
//! ```text
//! friction_model_update_tangent(m, n, dt, du, normal, state, force, dforce_dslip, dforce_dnormal);
//! ```
//!
//! Contacts sliding in a plane (3-D contact, two tangential slip components)
//! use `friction_model_state_len_2d`, `friction_model_init_2d` and
//! `friction_model_update_2d`, slips and forces interleaved `x, y` per
//! contact (see `friction_models::update::planar`).
//!
//! The state of one contact is `[t, x, z (n_states), mem (n_memory)]`: its
//! time, its accumulated slip, the model's continuous states and its discrete
//! memory (see `friction_models::update::layout`). Each model's update
//! (exact, closed-form or L-stable implicit, stable for any step) and its
//! accuracy are documented in `friction_models::update`.
//!
//! Rules of the interface:
//! - every function catches panics (`FRICTION_ERR_PANIC`), checks its
//!   pointers, and returns `FRICTION_OK` (0) or a `FRICTION_ERR_*` code;
//!   functions returning a pointer return NULL on failure;
//! - the message of the last failure on the calling thread is
//!   [`friction_last_error`]; it names the model, the parameter or argument,
//!   the value and the valid range;
//! - the caller owns every array it passes; arrays must not overlap.
#![warn(missing_docs)]

use std::cell::RefCell;
use std::ffi::{c_char, c_int, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;

mod planar;
pub use planar::{
    friction_model_init_2d, friction_model_state_len_2d, friction_model_update_2d,
    friction_model_update_2d_parallel,
};
mod tangent;
pub use tangent::{
    friction_model_update_2d_tangent, friction_model_update_2d_tangent_parallel,
    friction_model_update_tangent, friction_model_update_tangent_parallel,
};

use friction_models::update::{self, UpdateError};
use friction_models::FrictionModel as _;
use friction_models::{AnyModel, ModelInfo, ParamMap};

/// Success.
pub const FRICTION_OK: c_int = 0;
/// A bad argument: a NULL pointer, a length or value out of range, a
/// non-finite number, invalid UTF-8 or TOML.
pub const FRICTION_ERR_ARGUMENT: c_int = 1;
/// An unknown model id, or a model parameter that is unknown, missing, of
/// the wrong type or out of its valid range.
pub const FRICTION_ERR_MODEL: c_int = 2;
/// An internal error (a Rust panic caught at the boundary): please report it.
pub const FRICTION_ERR_PANIC: c_int = 3;
/// The state update of some contacts did not converge (the generic
/// implicit update gave up, see
/// `friction_models::update::UpdateError::NoConvergence`): every other
/// contact was advanced; each failing contact keeps its state from before
/// the call and gets a NaN force; the message names the first one and the
/// count.
pub const FRICTION_ERR_NUMERIC: c_int = 4;

/// A validated friction model: immutable parameters, shared by any number of
/// contacts and threads. Create with [`friction_model_new`], release with
/// [`friction_model_free`].
pub struct FrictionModel {
    model: AnyModel,
}

impl FrictionModel {
    /// The wrapped model.
    pub fn model(&self) -> &AnyModel {
        &self.model
    }
}

/// A failure: its code and message.
struct Failure {
    code: c_int,
    message: String,
}

impl Failure {
    fn argument(message: impl Into<String>) -> Self {
        Failure { code: FRICTION_ERR_ARGUMENT, message: message.into() }
    }
}

thread_local! {
    static LAST_ERROR: RefCell<(c_int, CString)> = RefCell::new((FRICTION_OK, CString::default()));
}

fn set_error(code: c_int, message: &str) {
    let c = CString::new(message.replace('\0', "?")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = (code, c));
}

/// Run `f` with the last error cleared, catching panics; on failure record
/// the message and return `fallback`.
fn guard<T>(fallback: T, f: impl FnOnce() -> Result<T, Failure>) -> T {
    set_error(FRICTION_OK, "");
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => {
            set_error(e.code, &e.message);
            fallback
        }
        Err(payload) => {
            let what = friction_models::error::panic_message(payload.as_ref());
            set_error(FRICTION_ERR_PANIC, &format!("internal error (please report it): {what}"));
            fallback
        }
    }
}

/// [`guard`] for functions returning a status code: `FRICTION_OK` or the
/// code of the failure.
fn guard_code(f: impl FnOnce() -> Result<(), Failure>) -> c_int {
    guard((), f);
    friction_last_error_code()
}

/// A C string argument as UTF-8.
///
/// # Safety
/// `p` is NULL or a NUL-terminated string.
unsafe fn str_arg<'a>(p: *const c_char, name: &str) -> Result<&'a str, Failure> {
    if p.is_null() {
        return Err(Failure::argument(format!("`{name}` is NULL")));
    }
    CStr::from_ptr(p).to_str().map_err(|e| Failure::argument(format!("`{name}` is not valid UTF-8: {e}")))
}

/// The model behind a handle.
///
/// # Safety
/// `m` is NULL or a pointer from [`friction_model_new`] not yet freed.
unsafe fn model_arg<'a>(m: *const FrictionModel) -> Result<&'a FrictionModel, Failure> {
    m.as_ref().ok_or_else(|| Failure::argument("the model handle `m` is NULL"))
}

/// A slice of `len` values at `p` (NULL allowed when `len` is 0).
///
/// # Safety
/// `p` points to `len` valid values, or `len` is 0.
unsafe fn slice_arg<'a>(p: *const f64, len: usize, name: &str) -> Result<&'a [f64], Failure> {
    if len == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(Failure::argument(format!("`{name}` is NULL but must hold {len} values")));
    }
    Ok(std::slice::from_raw_parts(p, len))
}

/// A mutable slice of `len` values at `p` (NULL allowed when `len` is 0).
///
/// # Safety
/// `p` points to `len` valid values, not aliased, or `len` is 0.
unsafe fn slice_mut_arg<'a>(p: *mut f64, len: usize, name: &str) -> Result<&'a mut [f64], Failure> {
    if len == 0 {
        return Ok(&mut []);
    }
    if p.is_null() {
        return Err(Failure::argument(format!("`{name}` is NULL but must hold {len} values")));
    }
    Ok(std::slice::from_raw_parts_mut(p, len))
}

/// Parse the body of a TOML table into model parameters (what
/// [`friction_model_new`] does with `params_toml`).
///
/// ```
/// use friction_models::ParamValue;
/// let p = friction_capi::parse_params("fc = 0.3\nn = 50\nelements = [[1e4, 0.2]]").unwrap();
/// assert_eq!(p["fc"], ParamValue::Num(0.3));
/// assert_eq!(p["n"], ParamValue::Num(50.0));
/// assert!(friction_capi::parse_params("fc = ").unwrap_err().contains("not valid TOML"));
/// ```
pub fn parse_params(body: &str) -> Result<ParamMap, String> {
    let table: toml::Table = body.parse().map_err(|e| format!("`params_toml` is not valid TOML: {e}"))?;
    Ok(friction_models::params::from_toml(&table))
}

/// Create a validated model.
///
/// `model_id` is a registry id (`"lugre"`, `"jenkins"`, ... see
/// [`friction_models_list`]); `params_toml` is the body of a TOML table,
/// e.g. `"sigma0 = 1e5\nfc = 1.0"`, or NULL or empty for the defaults.
/// Returns NULL on failure (`FRICTION_ERR_ARGUMENT` for NULL or invalid
/// text, `FRICTION_ERR_MODEL` for an unknown model or a bad parameter; the
/// message names the model, the parameter, its value and valid range).
///
/// # Safety
/// `model_id` and `params_toml` are NULL or NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn friction_model_new(
    model_id: *const c_char,
    params_toml: *const c_char,
) -> *mut FrictionModel {
    guard(std::ptr::null_mut(), || {
        let id = str_arg(model_id, "model_id")?;
        let params = if params_toml.is_null() {
            ParamMap::new()
        } else {
            parse_params(str_arg(params_toml, "params_toml")?).map_err(Failure::argument)?
        };
        let model = friction_models::build(id, &params)
            .map_err(|e| Failure { code: FRICTION_ERR_MODEL, message: e.to_string() })?;
        Ok(Box::into_raw(Box::new(FrictionModel { model })))
    })
}

/// Release a model; NULL is ignored.
///
/// # Safety
/// `m` is NULL or a pointer from [`friction_model_new`], freed only once.
#[no_mangle]
pub unsafe extern "C" fn friction_model_free(m: *mut FrictionModel) {
    guard((), || {
        if !m.is_null() {
            drop(Box::from_raw(m));
        }
        Ok(())
    })
}

/// Doubles of state per contact: `2 + n_states + n_memory`, laid out as
/// `[t, x, z (n_states), mem (n_memory)]` (the contact's time, its
/// accumulated slip, the model's continuous states and discrete memory).
/// 0 if `m` is NULL.
///
/// # Safety
/// `m` is NULL or a live pointer from [`friction_model_new`].
#[no_mangle]
pub unsafe extern "C" fn friction_model_state_len(m: *const FrictionModel) -> usize {
    guard(0, || Ok(update::state_len(&model_arg(m)?.model)))
}

/// Fill `state` (`n * friction_model_state_len(m)` doubles) with relaxed
/// initial states at rest (t = 0, x = 0, v = 0) for `n` contacts.
///
/// # Safety
/// `m` is a live model; `state` points to `n * state_len` doubles (or is
/// NULL with `n = 0`).
#[no_mangle]
pub unsafe extern "C" fn friction_model_init(m: *const FrictionModel, n: usize, state: *mut f64) -> c_int {
    guard_code(|| {
        let m = model_arg(m)?;
        let len = state_len_of(m, n)?;
        let state = slice_mut_arg(state, len, "state")?;
        update::init(&m.model, state).map_err(|e| update_failure(m, e))
    })
}

fn state_len_of(m: &FrictionModel, n: usize) -> Result<usize, Failure> {
    let per = update::state_len(&m.model);
    n.checked_mul(per)
        .ok_or_else(|| Failure::argument(format!("`n` = {n} contacts × state_len {per} overflows")))
}

fn update_failure(m: &FrictionModel, e: UpdateError) -> Failure {
    let code = match e {
        UpdateError::NoConvergence { .. } => FRICTION_ERR_NUMERIC,
        UpdateError::NoPlanarForm { .. } | UpdateError::NoTangent { .. } => FRICTION_ERR_MODEL,
        _ => FRICTION_ERR_ARGUMENT,
    };
    Failure { code, message: format!("model `{}`: {e}", m.model.info().id) }
}

/// Advance `n` contacts over one step of length `dt` in which contact `i`
/// slips by `slip_increment[i]` (at the constant velocity
/// `slip_increment[i] / dt`) under the normal load `normal[i] >= 0`;
/// writes the friction force at the end of the step,
/// `force[i] = normal[i] * F` (positive opposes positive slip), and
/// advances `state` (`n * state_len` doubles).
///
/// Stable for any `dt > 0`. Arguments are checked before anything changes:
/// NULL arrays, a non-positive or non-finite `dt`, a non-finite slip or
/// normal load, or a negative normal load give `FRICTION_ERR_ARGUMENT`
/// with the contact index, the argument and the value in the message.
///
/// A contact whose state update does not converge (`FRICTION_ERR_NUMERIC`,
/// only models with the generic implicit update) does not stop the others:
/// every other contact is advanced and its force written, each failing
/// contact keeps its state as on entry and its force is NaN, and the
/// message names the first failing contact and how many failed. The
/// parallel variant gives the same states, forces and message.
///
/// # Safety
/// `m` is a live model; `slip_increment`, `normal` and `force` point to `n`
/// doubles and `state` to `n * state_len` doubles (any may be NULL when
/// `n = 0`); `state` and `force` do not overlap each other or the inputs.
#[no_mangle]
pub unsafe extern "C" fn friction_model_update(
    m: *const FrictionModel,
    n: usize,
    dt: f64,
    slip_increment: *const f64,
    normal: *const f64,
    state: *mut f64,
    force: *mut f64,
) -> c_int {
    guard_code(|| {
        let (m, du, normal, state, force) = update_args(m, n, slip_increment, normal, state, force)?;
        update::update(&m.model, dt, du, normal, state, force).map_err(|e| update_failure(m, e))
    })
}

/// [`friction_model_update`] with the contacts spread over a thread pool
/// (rayon); the same results, bit for bit, failures included.
///
/// # Safety
/// As [`friction_model_update`].
#[no_mangle]
pub unsafe extern "C" fn friction_model_update_parallel(
    m: *const FrictionModel,
    n: usize,
    dt: f64,
    slip_increment: *const f64,
    normal: *const f64,
    state: *mut f64,
    force: *mut f64,
) -> c_int {
    guard_code(|| {
        let (m, du, normal, state, force) = update_args(m, n, slip_increment, normal, state, force)?;
        update::update_par(&m.model, dt, du, normal, state, force).map_err(|e| update_failure(m, e))
    })
}

type UpdateArgs<'a> = (&'a FrictionModel, &'a [f64], &'a [f64], &'a mut [f64], &'a mut [f64]);

/// # Safety
/// As [`friction_model_update`].
unsafe fn update_args<'a>(
    m: *const FrictionModel,
    n: usize,
    slip_increment: *const f64,
    normal: *const f64,
    state: *mut f64,
    force: *mut f64,
) -> Result<UpdateArgs<'a>, Failure> {
    let m = model_arg(m)?;
    let len = state_len_of(m, n)?;
    Ok((
        m,
        slice_arg(slip_increment, n, "slip_increment")?,
        slice_arg(normal, n, "normal")?,
        slice_mut_arg(state, len, "state")?,
        slice_mut_arg(force, n, "force")?,
    ))
}

/// The message of the last failure on the calling thread ("" if the last
/// call succeeded). Never NULL; valid until the next call of this library
/// on the same thread.
#[no_mangle]
pub extern "C" fn friction_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().1.as_ptr())
}

/// The code of the last failure on the calling thread (`FRICTION_OK` if the
/// last call succeeded).
#[no_mangle]
pub extern "C" fn friction_last_error_code() -> c_int {
    LAST_ERROR.with(|e| e.borrow().0)
}

fn id_strings() -> &'static [CString] {
    static IDS: OnceLock<Vec<CString>> = OnceLock::new();
    IDS.get_or_init(|| {
        friction_models::all().iter().map(|m| CString::new(m.id).unwrap_or_default()).collect()
    })
}

/// The catalogue: returns the number of models and writes up to `cap` of
/// their ids (static strings, valid for the life of the program) into
/// `ids`, in registry order. Call with `ids = NULL, cap = 0` to count.
///
/// # Safety
/// `ids` is NULL or points to `cap` writable pointers.
#[no_mangle]
pub unsafe extern "C" fn friction_models_list(ids: *mut *const c_char, cap: usize) -> usize {
    guard(0, || {
        let all = id_strings();
        if !ids.is_null() {
            for (k, id) in all.iter().take(cap).enumerate() {
                *ids.add(k) = id.as_ptr();
            }
        }
        Ok(all.len())
    })
}

/// A JSON description of model `model_id` (a static string, valid for the
/// life of the program): `id`, `family`, `summary`, `equations`,
/// `parameters` (name, symbol, unit, kind, required, range, min, max,
/// min_inclusive, max_inclusive, default (a JSON value, null when
/// required), default_text, description and doc (the same text), options,
/// columns), `states`, `n_states`, `n_memory`, `state_layout`, `update`
/// (how `friction_model_update` advances it), `update_method`, `sources`,
/// `references` (key, cite, full) and `load_parameter`: the catalogue of
/// every face (Python's `describe`, `friction models ID --json`), whose
/// schema is `docs/model.schema.json`. NULL with `FRICTION_ERR_MODEL` for
/// an unknown id.
///
/// # Safety
/// `model_id` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn friction_model_describe(model_id: *const c_char) -> *const c_char {
    static DESCRIPTIONS: OnceLock<Vec<CString>> = OnceLock::new();
    guard(std::ptr::null(), || {
        let id = str_arg(model_id, "model_id")?;
        let all = friction_models::all();
        let descriptions = DESCRIPTIONS
            .get_or_init(|| all.iter().map(|m| CString::new(describe(m)).unwrap_or_default()).collect());
        match all.iter().position(|m| m.id == id) {
            Some(k) => Ok(descriptions[k].as_ptr()),
            None => Err(Failure {
                code: FRICTION_ERR_MODEL,
                message: format!(
                    "unknown model `{id}`; known models: {}",
                    all.iter().map(|m| m.id).collect::<Vec<_>>().join(", ")
                ),
            }),
        }
    })
}

/// A model's text with every in-text citation ("Dahl 1968") followed by the
/// full reference (authors, year, title, venue) from
/// [`friction_models::references`].
pub fn cite(text: &str) -> String {
    friction_models::references::expand(text)
}

/// The JSON description returned by [`friction_model_describe`]: the
/// catalogue's ([`friction_models::catalogue`], schema in
/// `docs/model.schema.json`), the same as Python's and the CLI's.
pub fn describe(m: &ModelInfo) -> String {
    friction_models::catalogue::describe(m).to_json()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A panic inside a guarded call becomes FRICTION_ERR_PANIC with its
    /// message, and the next call clears it.
    #[test]
    fn a_panic_is_caught_and_reported_with_code_three() {
        let code = guard_code(|| panic!("boom"));
        assert_eq!(code, FRICTION_ERR_PANIC);
        assert_eq!(friction_last_error_code(), FRICTION_ERR_PANIC);
        let msg = unsafe { CStr::from_ptr(friction_last_error()) }.to_str().unwrap().to_string();
        assert!(msg.contains("boom"), "{msg}");
        assert_eq!(guard_code(|| Ok(())), FRICTION_OK);
        assert_eq!(unsafe { CStr::from_ptr(friction_last_error()) }.to_bytes(), b"");
    }

    /// Users see full references: every model's sources expand to at least
    /// one entry with a title.
    #[test]
    fn sources_cite_full_references() {
        for m in friction_models::all() {
            let s = cite(m.sources);
            assert!(!s.to_lowercase().contains("seed"), "{}: {s}", m.id);
            assert!(s.len() > m.sources.len() + 20, "{}: no reference expanded in {s}", m.id);
        }
    }
}

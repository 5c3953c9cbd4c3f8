//! The 2-D C interface (two tangential directions) called from Rust: the
//! same results as the Rust API, and models without a 2-D form or bad
//! arguments refused with their codes and a message naming the model or
//! argument.

use std::ffi::{CStr, CString};
use std::ptr::{null, null_mut};

use friction_capi::*;
use friction_models::update::planar;

fn last_error() -> String {
    unsafe { CStr::from_ptr(friction_last_error()) }.to_str().unwrap().to_string()
}

fn new(id: &str, params: &str) -> *mut FrictionModel {
    let (id, params) = (CString::new(id).unwrap(), CString::new(params).unwrap());
    unsafe { friction_model_new(id.as_ptr(), params.as_ptr()) }
}

/// A Jenkins contact dragged diagonally through the C calls: on the rim of
/// the friction disk the force is N fs along the slip, like the Rust API
/// (serial and parallel, bit for bit).
#[test]
fn update_2d_through_c_equals_the_rust_api() {
    let m = new("jenkins", "kt = 1e5\nfs = 0.3");
    assert!(!m.is_null(), "{}", last_error());
    let len = unsafe { friction_model_state_len_2d(m) };
    assert_eq!(len, 5, "{}", last_error());
    let n = 3;
    let mut state = vec![f64::NAN; n * len];
    assert_eq!(unsafe { friction_model_init_2d(m, n, state.as_mut_ptr()) }, FRICTION_OK);
    let mut state_par = state.clone();
    let du = [3e-6, 4e-6, -1e-6, 0.0, 0.0, 0.0];
    let normal = [2.0, 1.0, 5.0];
    let (mut force, mut force_par) = ([0.0; 6], [0.0; 6]);
    for _ in 0..10 {
        let code = unsafe {
            friction_model_update_2d(
                m,
                n,
                1e-3,
                du.as_ptr(),
                normal.as_ptr(),
                state.as_mut_ptr(),
                force.as_mut_ptr(),
            )
        };
        assert_eq!(code, FRICTION_OK, "{}", last_error());
        let code = unsafe {
            friction_model_update_2d_parallel(
                m,
                n,
                1e-3,
                du.as_ptr(),
                normal.as_ptr(),
                state_par.as_mut_ptr(),
                force_par.as_mut_ptr(),
            )
        };
        assert_eq!(code, FRICTION_OK, "{}", last_error());
    }
    // 50 µm along (3, 4)/5, far beyond fs/kt = 3 µm: |F| = N fs along the slip
    assert!(
        (force[0] - 2.0 * 0.3 * 0.6).abs() < 1e-12 && (force[1] - 2.0 * 0.3 * 0.8).abs() < 1e-12,
        "{force:?}"
    );
    assert!((force[2] + 0.3).abs() < 1e-12 && force[3] == 0.0, "{force:?}");
    assert_eq!(&force[4..], &[0.0, 0.0]);
    assert_eq!((&state, &force), (&state_par, &force_par));
    let rust = friction_models::build("jenkins", &parse_params("kt = 1e5\nfs = 0.3").unwrap()).unwrap();
    let mut s = vec![0.0; n * len];
    planar::init_2d(&rust, &mut s).unwrap();
    let mut f = [0.0; 6];
    for _ in 0..10 {
        planar::update_2d(&rust, 1e-3, &du, &normal, &mut s, &mut f).unwrap();
    }
    assert_eq!((s, f), (state, force));
    unsafe { friction_model_free(m) };
}

/// A model without a 2-D form: state length 0 with FRICTION_ERR_MODEL and
/// a message naming the model and the reason; init and update refuse too.
#[test]
fn models_without_a_2d_form_are_refused_with_the_reason() {
    let m = new("magic_formula", "");
    assert!(!m.is_null(), "{}", last_error());
    assert_eq!(unsafe { friction_model_state_len_2d(m) }, 0);
    assert_eq!(friction_last_error_code(), FRICTION_ERR_MODEL);
    let msg = last_error();
    assert!(msg.contains("magic_formula") && msg.contains("no 2-D"), "{msg}");
    let mut state = [0.0; 8];
    assert_eq!(unsafe { friction_model_init_2d(m, 1, state.as_mut_ptr()) }, FRICTION_ERR_MODEL);
    let (du, normal, mut force) = ([0.0; 2], [1.0], [0.0; 2]);
    let code = unsafe {
        friction_model_update_2d(
            m,
            1,
            1e-3,
            du.as_ptr(),
            normal.as_ptr(),
            state.as_mut_ptr(),
            force.as_mut_ptr(),
        )
    };
    assert_eq!(code, FRICTION_ERR_MODEL);
    unsafe { friction_model_free(m) };
    assert_eq!(unsafe { friction_model_state_len_2d(null()) }, 0);
    assert_eq!(friction_last_error_code(), FRICTION_ERR_ARGUMENT);
}

/// NULL arrays, a bad step and non-finite slips are refused with
/// FRICTION_ERR_ARGUMENT naming the argument (and the contact).
#[test]
fn bad_2d_update_arguments_are_refused_with_their_codes() {
    let m = new("lugre", "");
    let len = unsafe { friction_model_state_len_2d(m) };
    let mut state = vec![0.0; 2 * len];
    assert_eq!(unsafe { friction_model_init_2d(m, 2, state.as_mut_ptr()) }, FRICTION_OK);
    let normal = [1.0, 1.0];
    let mut force = [0.0; 4];
    let code = unsafe {
        friction_model_update_2d(m, 2, 1e-3, null(), normal.as_ptr(), state.as_mut_ptr(), force.as_mut_ptr())
    };
    assert_eq!(code, FRICTION_ERR_ARGUMENT);
    assert!(last_error().contains("slip_increment"), "{}", last_error());
    let du = [0.0, 0.0, f64::INFINITY, 0.0];
    let code = unsafe {
        friction_model_update_2d(
            m,
            2,
            1e-3,
            du.as_ptr(),
            normal.as_ptr(),
            state.as_mut_ptr(),
            force.as_mut_ptr(),
        )
    };
    assert_eq!(code, FRICTION_ERR_ARGUMENT);
    assert!(
        last_error().contains("contact 1") && last_error().contains("slip_increment"),
        "{}",
        last_error()
    );
    let du = [0.0; 4];
    let code = unsafe {
        friction_model_update_2d(
            m,
            2,
            -1.0,
            du.as_ptr(),
            normal.as_ptr(),
            state.as_mut_ptr(),
            force.as_mut_ptr(),
        )
    };
    assert_eq!(code, FRICTION_ERR_ARGUMENT);
    assert!(last_error().contains("dt"), "{}", last_error());
    let code = unsafe {
        friction_model_update_2d(m, 2, 1e-3, du.as_ptr(), normal.as_ptr(), state.as_mut_ptr(), null_mut())
    };
    assert_eq!(code, FRICTION_ERR_ARGUMENT);
    assert!(last_error().contains("force"), "{}", last_error());
    unsafe { friction_model_free(m) };
}

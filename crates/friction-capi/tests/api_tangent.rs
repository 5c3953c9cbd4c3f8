//! The tangent through the C interface equals the Rust API's bit for bit
//! (forces, states and both tangents, 1-D and 2-D, serial and parallel);
//! NULL tangent pointers mean "not wanted"; misuse returns its code.

use std::ffi::{CStr, CString};
use std::ptr::null_mut;

use friction_capi::*;
use friction_models::update::planar::{init_2d, state_len_2d, update_2d_tangent};
use friction_models::update::{init, state_len, update_tangent};
use rand::{RngExt, SeedableRng};

fn last_error() -> String {
    unsafe { CStr::from_ptr(friction_last_error()) }.to_str().unwrap().to_string()
}

fn new(id: &str) -> *mut FrictionModel {
    let (id, params) = (CString::new(id).unwrap(), CString::new("").unwrap());
    unsafe { friction_model_new(id.as_ptr(), params.as_ptr()) }
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// Seeded random slips of either sign from micro-slip to gross slip, some zero.
fn slips(rng: &mut rand_chacha::ChaCha8Rng, n: usize) -> Vec<f64> {
    (0..n)
        .map(|_| {
            if rng.random_range(0..8) == 0 {
                0.0
            } else {
                rng.random_range(-1.0..1.0) * 10f64.powf(rng.random_range(-9.0..-3.0))
            }
        })
        .collect()
}

#[test]
fn tangent_through_c_equals_the_rust_api_bit_for_bit() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4604);
    for id in
        ["lugre", "jenkins", "iwan4", "maxwell_slip", "coulomb", "stribeck_tanh", "elasto_plastic", "dahl"]
    {
        let params = if id == "maxwell_slip" { "elements = [[4e4, 0.2], [1e4, 0.5]]" } else { "" };
        let (cid, cp) = (CString::new(id).unwrap(), CString::new(params).unwrap());
        let m = unsafe { friction_model_new(cid.as_ptr(), cp.as_ptr()) };
        assert!(!m.is_null(), "{id}: {}", last_error());
        let rust = friction_models::build(id, &parse_params(params).unwrap()).unwrap();
        let n = 64;
        let normal: Vec<f64> = (0..n).map(|_| rng.random_range(0.0..2.0)).collect();
        for par in [false, true] {
            let mut sc = vec![0.0; n * state_len(&rust)];
            init(&rust, &mut sc).unwrap();
            let mut sr = sc.clone();
            for _ in 0..5 {
                let du = slips(&mut rng, n);
                let (mut fc, mut kc, mut nc) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
                let (mut fr, mut kr, mut nr) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
                let f =
                    if par { friction_model_update_tangent_parallel } else { friction_model_update_tangent };
                let code = unsafe {
                    f(
                        m,
                        n,
                        1e-3,
                        du.as_ptr(),
                        normal.as_ptr(),
                        sc.as_mut_ptr(),
                        fc.as_mut_ptr(),
                        kc.as_mut_ptr(),
                        nc.as_mut_ptr(),
                    )
                };
                assert_eq!(code, FRICTION_OK, "{id}: {}", last_error());
                update_tangent(&rust, 1e-3, &du, &normal, &mut sr, &mut fr, Some(&mut kr), Some(&mut nr))
                    .unwrap();
                assert_eq!(bits(&sc), bits(&sr), "{id}: states");
                assert_eq!(bits(&fc), bits(&fr), "{id}: forces");
                assert_eq!(bits(&kc), bits(&kr), "{id}: dforce_dslip");
                assert_eq!(bits(&nc), bits(&nr), "{id}: dforce_dnormal");
            }
        }
        // NULL tangents: the plain update
        let mut s = vec![0.0; n * state_len(&rust)];
        init(&rust, &mut s).unwrap();
        let (du, mut f) = (slips(&mut rng, n), vec![0.0; n]);
        let code = unsafe {
            friction_model_update_tangent(
                m,
                n,
                1e-3,
                du.as_ptr(),
                normal.as_ptr(),
                s.as_mut_ptr(),
                f.as_mut_ptr(),
                null_mut(),
                null_mut(),
            )
        };
        assert_eq!(code, FRICTION_OK, "{}", last_error());
        unsafe { friction_model_free(m) };
    }
}

#[test]
fn tangent_2d_through_c_equals_the_rust_api_bit_for_bit() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4605);
    for id in ["lugre", "jenkins", "iwan4", "coulomb", "dankowicz", "iwan5", "bouc_wen"] {
        let m = new(id);
        let rust = friction_models::build(id, &parse_params("").unwrap()).unwrap();
        let n = 40;
        let len = state_len_2d(&rust).unwrap();
        let normal: Vec<f64> = (0..n).map(|_| rng.random_range(0.0..2.0)).collect();
        for par in [false, true] {
            let mut sc = vec![0.0; n * len];
            init_2d(&rust, &mut sc).unwrap();
            let mut sr = sc.clone();
            for _ in 0..5 {
                let du = slips(&mut rng, 2 * n);
                let (mut fc, mut kc, mut nc) = (vec![0.0; 2 * n], vec![0.0; 4 * n], vec![0.0; 2 * n]);
                let (mut fr, mut kr, mut nr) = (vec![0.0; 2 * n], vec![0.0; 4 * n], vec![0.0; 2 * n]);
                let f = if par {
                    friction_model_update_2d_tangent_parallel
                } else {
                    friction_model_update_2d_tangent
                };
                let code = unsafe {
                    f(
                        m,
                        n,
                        1e-3,
                        du.as_ptr(),
                        normal.as_ptr(),
                        sc.as_mut_ptr(),
                        fc.as_mut_ptr(),
                        kc.as_mut_ptr(),
                        nc.as_mut_ptr(),
                    )
                };
                assert_eq!(code, FRICTION_OK, "{id}: {}", last_error());
                update_2d_tangent(&rust, 1e-3, &du, &normal, &mut sr, &mut fr, Some(&mut kr), Some(&mut nr))
                    .unwrap();
                assert_eq!(bits(&sc), bits(&sr), "{id}: states");
                assert_eq!(bits(&fc), bits(&fr), "{id}: forces");
                assert_eq!(bits(&kc), bits(&kr), "{id}: dforce_dslip");
                assert_eq!(bits(&nc), bits(&nr), "{id}: dforce_dnormal");
            }
        }
        unsafe { friction_model_free(m) };
    }
}

/// Misuse: a NULL model and a bad step, each with its code and a message
/// naming it; nothing is changed. bouc_wen's 2-D tangent, once refused,
/// succeeds and equals the Rust API's bit for bit.
#[test]
fn tangent_misuse_returns_its_code_and_names_it() {
    let (du, normal) = ([1e-6], [1.0]);
    let (mut s, mut f, mut k) = ([0.0; 5], [0.0; 2], [0.0; 4]);
    let code = unsafe {
        friction_model_update_tangent(
            std::ptr::null(),
            1,
            1e-3,
            du.as_ptr(),
            normal.as_ptr(),
            s.as_mut_ptr(),
            f.as_mut_ptr(),
            k.as_mut_ptr(),
            null_mut(),
        )
    };
    assert_eq!(code, FRICTION_ERR_ARGUMENT);
    assert!(last_error().contains("`m` is NULL"), "{}", last_error());
    let m = new("jenkins");
    let code = unsafe {
        friction_model_update_tangent(
            m,
            1,
            -1.0,
            du.as_ptr(),
            normal.as_ptr(),
            s.as_mut_ptr(),
            f.as_mut_ptr(),
            k.as_mut_ptr(),
            null_mut(),
        )
    };
    assert_eq!(code, FRICTION_ERR_ARGUMENT);
    assert!(last_error().contains("`dt` = -1"), "{}", last_error());
    unsafe { friction_model_free(m) };
    let m = new("bouc_wen");
    let du2 = [1e-6, 0.0];
    let code = unsafe {
        friction_model_update_2d_tangent(
            m,
            1,
            1e-3,
            du2.as_ptr(),
            normal.as_ptr(),
            s.as_mut_ptr(),
            f.as_mut_ptr(),
            k.as_mut_ptr(),
            null_mut(),
        )
    };
    assert_eq!(code, FRICTION_OK, "{}", last_error());
    let rust = friction_models::build("bouc_wen", &parse_params("").unwrap()).unwrap();
    let (mut sr, mut fr, mut kr) = ([0.0; 5], [0.0; 2], [0.0; 4]);
    update_2d_tangent(&rust, 1e-3, &du2, &normal, &mut sr, &mut fr, Some(&mut kr), None).unwrap();
    assert_eq!((bits(&s), bits(&f), bits(&k)), (bits(&sr), bits(&fr), bits(&kr)));
    // from rest along x: the elastic start, kj A along the slip
    assert!(k[0] > 0.0 && k[0].is_finite(), "{k:?}");
    unsafe { friction_model_free(m) };
}

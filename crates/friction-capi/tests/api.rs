//! The C interface called from Rust: results equal the Rust update API,
//! and every misuse returns its code with a message naming the model, the
//! parameter or argument, the value and the valid range.

use std::ffi::{c_char, CStr, CString};
use std::ptr::{null, null_mut};

use friction_capi::*;

fn last_error() -> String {
    unsafe { CStr::from_ptr(friction_last_error()) }.to_str().unwrap().to_string()
}

fn new(id: &str, params: &str) -> *mut FrictionModel {
    let (id, params) = (CString::new(id).unwrap(), CString::new(params).unwrap());
    unsafe { friction_model_new(id.as_ptr(), params.as_ptr()) }
}

/// A LuGre contact sliding at constant speed through the C calls lands on
/// the Stribeck curve g(v) + σ2 v scaled by the normal load, like the Rust API.
#[test]
fn update_through_c_equals_the_rust_api() {
    let m = new("lugre", "sigma0 = 1e5\nfc = 0.3\nfs = 0.4");
    assert!(!m.is_null(), "{}", last_error());
    let len = unsafe { friction_model_state_len(m) };
    assert_eq!(len, 3);
    let mut state = vec![f64::NAN; 2 * len];
    assert_eq!(unsafe { friction_model_init(m, 2, state.as_mut_ptr()) }, FRICTION_OK);
    let (du, normal, mut force) = ([1e-4, -1e-4], [10.0, 20.0], [0.0; 2]);
    for _ in 0..10 {
        let code = unsafe {
            friction_model_update(
                m,
                2,
                1e-2,
                du.as_ptr(),
                normal.as_ptr(),
                state.as_mut_ptr(),
                force.as_mut_ptr(),
            )
        };
        assert_eq!(code, FRICTION_OK, "{}", last_error());
    }
    // v = 1e-2 m/s = 10 vs: g = fc; F = N (fc + σ2 v)
    assert!((force[0] - 10.0 * (0.3 + 0.4 * 1e-2)).abs() < 1e-9, "{force:?}");
    assert!((force[1] + 20.0 * (0.3 + 0.4 * 1e-2)).abs() < 1e-9, "{force:?}");
    let rust =
        friction_models::build("lugre", &parse_params("sigma0 = 1e5\nfc = 0.3\nfs = 0.4").unwrap()).unwrap();
    let mut s = vec![0.0; 2 * len];
    friction_models::update::init(&rust, &mut s).unwrap();
    let mut f = [0.0; 2];
    for _ in 0..10 {
        friction_models::update::update_par(&rust, 1e-2, &du, &normal, &mut s, &mut f).unwrap();
    }
    assert_eq!((s, f), (state, force));
    unsafe { friction_model_free(m) };
}

/// Bad parameters: NULL with FRICTION_ERR_MODEL and the model, parameter,
/// value and range in the message; bad TOML and NULL ids: FRICTION_ERR_ARGUMENT.
#[test]
fn bad_models_and_parameters_are_refused_with_their_codes() {
    assert!(new("lugre", "sigma0 = -1").is_null());
    assert_eq!(friction_last_error_code(), FRICTION_ERR_MODEL);
    assert_eq!(
        last_error(),
        "model `lugre`: parameter `sigma0` = -1 is out of range; valid range (0, inf) N/m"
    );
    assert!(new("lugre", "sigma9 = 1").is_null());
    assert!(last_error().contains("has no parameter `sigma9`"), "{}", last_error());
    assert!(new("no_such_model", "").is_null());
    assert_eq!(friction_last_error_code(), FRICTION_ERR_MODEL);
    assert!(last_error().starts_with("unknown model `no_such_model`; known models: coulomb"));
    assert!(new("lugre", "sigma0 = [").is_null());
    assert_eq!(friction_last_error_code(), FRICTION_ERR_ARGUMENT);
    assert!(last_error().contains("not valid TOML"), "{}", last_error());
    assert!(unsafe { friction_model_new(null(), null()) }.is_null());
    assert_eq!(last_error(), "`model_id` is NULL");
    // NULL or empty parameters mean the defaults; rows and integers convert
    let id = CString::new("iwan4").unwrap();
    let m = unsafe { friction_model_new(id.as_ptr(), null()) };
    assert!(!m.is_null());
    assert_eq!(unsafe { friction_model_state_len(m) }, 2 + 101);
    unsafe { friction_model_free(m) };
    let m = new("maxwell_slip", "elements = [[1e4, 0.2], [2e4, 0.5]]");
    assert_eq!(unsafe { friction_model_state_len(m) }, 4);
    unsafe { friction_model_free(m) };
    assert_eq!(friction_last_error_code(), FRICTION_OK);
}

/// Misused updates: NULL handle or arrays, bad dt, negative normal load.
#[test]
fn bad_update_arguments_are_refused_with_their_codes() {
    let m = new("jenkins", "");
    let mut state = [0.0; 8];
    let (du, normal, mut force) = ([1e-6, 0.0], [1.0, -3.0], [0.0; 2]);
    let mut call = |m, dt, du: *const f64, st: *mut f64| unsafe {
        friction_model_update(m, 2, dt, du, normal.as_ptr(), st, force.as_mut_ptr())
    };
    assert_eq!(call(null(), 1e-3, du.as_ptr(), state.as_mut_ptr()), FRICTION_ERR_ARGUMENT);
    assert!(last_error().contains("handle `m` is NULL"));
    assert_eq!(call(m, 1e-3, null(), state.as_mut_ptr()), FRICTION_ERR_ARGUMENT);
    assert_eq!(last_error(), "`slip_increment` is NULL but must hold 2 values");
    assert_eq!(call(m, 0.0, du.as_ptr(), state.as_mut_ptr()), FRICTION_ERR_ARGUMENT);
    assert!(last_error().contains("`dt` = 0 is invalid"), "{}", last_error());
    assert_eq!(call(m, 1e-3, du.as_ptr(), state.as_mut_ptr()), FRICTION_ERR_ARGUMENT);
    assert_eq!(last_error(), "model `jenkins`: contact 1: `normal` = -3 is negative; valid range [0, inf)");
    assert_eq!(state, [0.0; 8]);
    assert_eq!(unsafe { friction_model_init(m, 2, null_mut()) }, FRICTION_ERR_ARGUMENT);
    assert_eq!(unsafe { friction_model_state_len(null()) }, 0);
    assert_eq!(friction_last_error_code(), FRICTION_ERR_ARGUMENT);
    // n = 0 accepts NULL arrays
    let code = unsafe { friction_model_update(m, 0, 1e-3, null(), null(), null_mut(), null_mut()) };
    assert_eq!(code, FRICTION_OK);
    unsafe { friction_model_free(m) };
    unsafe { friction_model_free(null_mut()) };
}

/// The catalogue lists every registry model, and each description is JSON
/// with the documented fields and cites papers, not document numbers.
#[test]
fn catalogue_lists_and_describes_every_model() {
    let n = unsafe { friction_models_list(null_mut(), 0) };
    assert_eq!(n, friction_models::all().len());
    let mut ids: Vec<*const c_char> = vec![null(); n + 3];
    assert_eq!(unsafe { friction_models_list(ids.as_mut_ptr(), 2) }, n);
    assert!(ids[2].is_null());
    unsafe { friction_models_list(ids.as_mut_ptr(), n + 3) };
    for &p in &ids[..n] {
        let id = unsafe { CStr::from_ptr(p) }.to_str().unwrap();
        let d = unsafe { friction_model_describe(p) };
        assert!(!d.is_null(), "{id}");
        let json = unsafe { CStr::from_ptr(d) }.to_str().unwrap();
        let v: serde_json::Value =
            serde_json::from_str(json).unwrap_or_else(|e| panic!("{id}: not JSON ({e}): {json}"));
        for key in [
            "id",
            "family",
            "summary",
            "equations",
            "parameters",
            "states",
            "state_layout",
            "update",
            "sources",
            "references",
        ] {
            assert!(v.get(key).is_some(), "{id}: {key} missing in {json}");
        }
        assert_eq!(v["id"], id);
        for p in v["parameters"].as_array().unwrap() {
            for key in ["name", "symbol", "unit", "kind", "range", "default", "doc", "description"] {
                assert!(p.get(key).is_some(), "{id}: parameter {key} missing in {p}");
            }
        }
        // the same description as the catalogue's, which Python and the CLI print
        let cat = serde_json::to_value(friction_models::catalogue::describe_id(id).unwrap()).unwrap();
        assert_eq!(v, cat, "{id}");
        assert!(!json.to_lowercase().contains("seed 0"), "{id}: {json}");
    }
    let lugre_id = ids[..n]
        .iter()
        .copied()
        .find(|&p| unsafe { CStr::from_ptr(p) }.to_bytes() == b"lugre")
        .expect("lugre is listed");
    let lugre = unsafe { CStr::from_ptr(friction_model_describe(lugre_id)) }.to_str().unwrap();
    let lugre: serde_json::Value = serde_json::from_str(lugre).unwrap();
    assert!(lugre["sources"].as_str().unwrap().contains("Canudas de Wit"), "{lugre}");
    let sigma0 = lugre["parameters"].as_array().unwrap().iter().find(|p| p["name"] == "sigma0").unwrap();
    assert_eq!(sigma0["default"], 1e5);
    assert_eq!(sigma0["unit"], "N/m");
    assert_eq!(
        (sigma0["min"].as_f64(), sigma0["max"].is_null(), &sigma0["min_inclusive"]),
        (Some(0.0), true, &serde_json::json!(false))
    );
    assert_eq!(lugre["update_method"], "exact");
    let bad = CString::new("nope").unwrap();
    assert!(unsafe { friction_model_describe(bad.as_ptr()) }.is_null());
    assert_eq!(friction_last_error_code(), FRICTION_ERR_MODEL);
}

/// A contact whose update does not converge (its state poisoned with NaN):
/// FRICTION_ERR_NUMERIC naming it and the count, the other contacts
/// advanced, the failing one untouched with a NaN force; the parallel call
/// the same.
#[test]
fn numeric_failure_advances_the_other_contacts_and_names_the_first() {
    let m = new("bouc_wen", "");
    assert!(!m.is_null(), "{}", last_error());
    let len = unsafe { friction_model_state_len(m) };
    let mut start = vec![0.0; 3 * len];
    assert_eq!(unsafe { friction_model_init(m, 3, start.as_mut_ptr()) }, FRICTION_OK);
    start[2 * len - 1] = f64::NAN; // contact 1
    let (du, normal) = ([1e-6, 2e-6, 3e-6], [1.0, 2.0, 3.0]);
    let mut results = Vec::new();
    for par in [false, true] {
        let (mut state, mut force) = (start.clone(), [0.0; 3]);
        let (d, n, s, f) = (du.as_ptr(), normal.as_ptr(), state.as_mut_ptr(), force.as_mut_ptr());
        let code = unsafe {
            if par {
                friction_model_update_parallel(m, 3, 1e-3, d, n, s, f)
            } else {
                friction_model_update(m, 3, 1e-3, d, n, s, f)
            }
        };
        assert_eq!(code, FRICTION_ERR_NUMERIC, "{}", last_error());
        let msg = last_error();
        assert!(msg.contains("contact 1") && msg.contains("1 contact(s) failed"), "{msg}");
        assert!(force[1].is_nan() && force[0] > 0.0 && force[2] > 0.0, "{force:?}");
        assert_eq!(
            state[len..2 * len].iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            start[len..2 * len].iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
        assert!(state[0] > 0.0 && state[2 * len] > 0.0, "contacts 0 and 2 advanced in time: {state:?}");
        results.push((state.iter().map(|x| x.to_bits()).collect::<Vec<_>>(), force.map(f64::to_bits)));
    }
    assert_eq!(results[0], results[1]);
    unsafe { friction_model_free(m) };
}

//! Identification beyond coverage: the evaluators agree with the engine,
//! validation on held-out data, multi-start, and clear errors for data or
//! parameters that cannot be fitted.

use friction_analysis::data::Series;
use friction_analysis::fit::{fit, model_force, parse_params, Evaluator, FitOptions, Motion};
use friction_analysis::synth::{growing_sine, measure, velocity_sweep};
use friction_models::build;

fn opts(model: &str, init: &str, free: Option<&[&str]>) -> FitOptions {
    FitOptions {
        model: model.into(),
        init: parse_params(model, init).unwrap(),
        free: free.map(|f| f.iter().map(|s| s.to_string()).collect()),
        guess: false,
        ..Default::default()
    }
}

/// Rate-independent operators are stepped sample by sample instead of being
/// integrated; along a piecewise-linear motion both give the same force, so
/// the stepped force must equal the engine's (friction_sim::drive) to
/// rounding, through many reversals and nested loops.
#[test]
fn stepped_hysteresis_operators_agree_with_the_engine() {
    let m = growing_sine(1e-5, 5.0, 1.0, 250);
    for (id, p) in [
        (
            "maxwell_slip",
            "elements[0].k=5e4,elements[0].fmax=0.2,elements[1].k=3e4,elements[1].fmax=0.4,\
             elements[2].k=2e4,elements[2].fmax=0.5",
        ),
        ("iwan4", "fs=1,kt=1e5,chi=-0.5,beta=0.2,n=50"),
        ("iwan5", "fs=1,kt=1e5,chi=-0.3,beta=0.1,theta=0.8,n=20"),
        ("jenkins", "kt=1e5,fs=0.8,theta=0.7"),
    ] {
        let model = build(id, &parse_params(id, p).unwrap()).unwrap();
        assert_eq!(Evaluator::for_model(&model), Evaluator::Sequential, "{id}");
        let stepped = model_force(&model, &m, &Default::default()).unwrap();
        let engine = friction_sim::drive::drive(model, &m.t, &m.x, None, &Default::default()).unwrap();
        // the engine's last sample sees the motion held after the table: compare all before it
        let diff =
            stepped.iter().zip(&engine).take(m.t.len() - 1).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        let scale = stepped.iter().fold(0.0f64, |a, f| a.max(f.abs()));
        assert!(scale > 0.3, "{id}: the motion must load the contact, peak {scale}");
        assert!(diff <= 1e-9 * scale, "{id}: stepped and engine forces differ by {diff:e}");
    }
}

/// Fitting on t < T and validating on the rest: on data from the model
/// itself the validation RMS estimates the noise (here 0.005 N) and the
/// parameters are recovered from the first two thirds alone.
#[test]
fn validation_on_held_out_data_estimates_the_noise() {
    let id = "maxwell_slip";
    let truth = "elements[0].k=5e4,elements[0].fmax=0.2,elements[1].k=3e4,elements[1].fmax=0.4";
    let m = growing_sine(1e-5, 6.0, 1.0, 300);
    let data = measure(id, &parse_params(id, truth).unwrap(), &m, 0.005, 11, &Default::default()).unwrap();
    let mut o =
        opts(id, "elements[0].k=6e4,elements[0].fmax=0.15,elements[1].k=2e4,elements[1].fmax=0.5", None);
    o.validate_from = Some(0.66);
    let r = fit(&data, &o, None).unwrap();
    let v = r.validation.as_ref().unwrap();
    assert_eq!(v.n + r.n, 300);
    assert!(r.t[r.n - 1] < 0.66 && r.t[r.n] >= 0.66);
    assert!((v.rms / 0.005 - 1.0).abs() < 0.2, "validation rms {}", v.rms);
    assert!((r.rms / 0.005 - 1.0).abs() < 0.2, "fit rms {}", r.rms);
    for (name, t) in
        [("elements[0].k", 5e4), ("elements[0].fmax", 0.2), ("elements[1].k", 3e4), ("elements[1].fmax", 0.4)]
    {
        let p = r.param(name).unwrap();
        assert!((p.value - t).abs() < 4.0 * p.stderr, "{name}: {} ± {}", p.value, p.stderr);
    }
    // the fitted curve covers the whole record
    assert_eq!(r.f_fit.len(), 300);
}

/// Multi-start is reproducible for a given seed and never worse than the
/// single start it includes.
#[test]
fn multi_start_is_reproducible_and_no_worse() {
    let id = "stribeck";
    let m = velocity_sweep(1e-4, 0.3, 120);
    let data = measure(
        id,
        &parse_params(id, "fc=1,fs=1.5,vs=0.01,kv=0.4").unwrap(),
        &m,
        0.02,
        5,
        &Default::default(),
    )
    .unwrap();
    let mut o = opts(id, "fc=0.7,fs=2,vs=0.03,kv=0.2", Some(&["fc", "fs", "vs", "kv"]));
    let one = fit(&data, &o, None).unwrap();
    o.starts = 6;
    o.seed = 42;
    let a = fit(&data, &o, None).unwrap();
    let b = fit(&data, &o, None).unwrap();
    assert!(a.rms <= one.rms * (1.0 + 1e-12));
    assert_eq!(a.best_start, b.best_start);
    assert_eq!(a.params, b.params);
    assert_eq!(a.starts, 6);
}

/// Bouc-Wen with n = 1: scaling z by c maps (A, kj) to (c A, kj / c) with the
/// same force, so A and kj cannot both be fitted; the error names them.
#[test]
fn a_product_of_parameters_is_refused_naming_both() {
    let id = "bouc_wen";
    let truth = "a=1,beta=6e4,gamma=4e4,n=1,k=1e5";
    let data = measure(
        id,
        &parse_params(id, truth).unwrap(),
        &growing_sine(1e-5, 3.0, 1.0, 60),
        0.01,
        1,
        &Default::default(),
    )
    .unwrap();
    let e = fit(&data, &opts(id, truth, Some(&["a", "k", "beta", "gamma"])), None).unwrap_err().to_string();
    assert!(e.contains("`a`") && e.contains("`k`") && e.contains("cannot be identified"), "{e}");
}

/// Steady sliding (one sample every 50 ms at constant speeds of 1-5 cm/s)
/// never shows the bristle transient, which lasts about g/(σ0 |v|) <= 1 ms:
/// σ0 of LuGre is then not identifiable and the error says so by name.
#[test]
fn bristle_stiffness_is_not_identifiable_from_steady_sliding() {
    let id = "lugre";
    let truth = "sigma0=1e5,fc=1,fs=1.5,vs=1e-3,sigma1=0";
    let mut m = velocity_sweep(1e-2, 5e-2, 16);
    let dt = 0.05;
    for i in 0..m.t.len() {
        m.t[i] *= dt;
        m.x[i] = if i == 0 { 0.0 } else { m.x[i - 1] + m.v[i] * dt };
    }
    let data = measure(id, &parse_params(id, truth).unwrap(), &m, 0.01, 1, &Default::default()).unwrap();
    let e = fit(&data, &opts(id, truth, Some(&["sigma0", "fc", "sigma2"])), None).unwrap_err().to_string();
    assert!(e.contains("`sigma0`") && e.contains("not determined"), "{e}");
}

/// A parameter of an unused Stribeck shape has no effect at all: asked for
/// explicitly it is an error naming it; by default it is held with a note.
#[test]
fn a_parameter_without_effect_is_named() {
    let id = "stribeck";
    let m = velocity_sweep(1e-4, 0.3, 60);
    let data = measure(id, &parse_params(id, "kv=0.4").unwrap(), &m, 0.02, 1, &Default::default()).unwrap();
    let e = fit(&data, &opts(id, "kv=0.4", Some(&["fc", "vs2"])), None).unwrap_err().to_string();
    assert!(e.contains("`vs2`") && e.contains("does not affect"), "{e}");
    let r = fit(&data, &opts(id, "kv=0.4", None), None).unwrap();
    assert!(r.param("vs2").is_none() && r.notes.iter().any(|n| n.contains("vs2")));
    assert!(r.held.iter().any(|(k, v)| k == "vs2" && *v == 0.01));
}

/// Bad data and bad requests get errors that say what is wrong.
#[test]
fn bad_data_and_requests_are_refused_clearly() {
    let t: Vec<f64> = (0..12).map(|i| i as f64).collect();
    let x: Vec<f64> = t.iter().map(|t| 1e-6 * t).collect();
    let f: Vec<f64> = vec![0.1; 12];
    let ms = "elements[0].k=1e5,elements[0].fmax=1";
    // no force column
    let s = Series::new("d.csv", t.clone(), Some(x.clone()), None, None, None).unwrap();
    let e = fit(&s, &opts("maxwell_slip", ms, None), None).unwrap_err().to_string();
    assert!(e.contains("d.csv") && e.contains("`F`"), "{e}");
    // no motion
    let s = Series::new("d.csv", t.clone(), None, None, Some(f.clone()), None).unwrap();
    let e = fit(&s, &opts("maxwell_slip", ms, None), None).unwrap_err().to_string();
    assert!(e.contains("`x`") && e.contains("`v`"), "{e}");
    // more parameters than samples: 6 elements, 12 parameters, 12 samples
    let many: Vec<String> =
        (0..6).map(|i| format!("elements[{i}].k=1e5,elements[{i}].fmax={}", 0.1 * (i + 1) as f64)).collect();
    let xs: Vec<f64> = t.iter().map(|t| 1e-6 * (t * 2.0).sin() * t).collect();
    let s = Series::new("d.csv", t.clone(), Some(xs), None, Some(f.clone()), None).unwrap();
    let e = fit(&s, &opts("maxwell_slip", &many.join(","), None), None).unwrap_err().to_string();
    assert!(e.contains("12 samples") && e.contains("parameters"), "{e}");
    // negative normal load
    let mut n = vec![1.0; 12];
    n[4] = -2.0;
    let s = Series::new("d.csv", t.clone(), Some(x.clone()), None, Some(f.clone()), Some(n)).unwrap();
    let e = fit(&s, &opts("maxwell_slip", ms, None), None).unwrap_err().to_string();
    assert!(e.contains("`N`") && e.contains("-2") && e.contains("sample 5"), "{e}");
    // validation leaves nothing to validate
    let s = Series::new("d.csv", t.clone(), Some(x.clone()), None, Some(f.clone()), None).unwrap();
    let mut o = opts("maxwell_slip", ms, None);
    o.validate_from = Some(11.0);
    let e = fit(&s, &o, None).unwrap_err().to_string();
    assert!(e.contains("validate") && e.contains("at least 2"), "{e}");
    // unknown names
    let e =
        fit(&s, &FitOptions { model: "nope".into(), ..Default::default() }, None).unwrap_err().to_string();
    assert!(e.contains("unknown model `nope`"), "{e}");
    let mut o = opts("maxwell_slip", ms, None);
    o.fix = vec!["fc".into()];
    let e = fit(&s, &o, None).unwrap_err().to_string();
    assert!(e.contains("`fc`") && e.contains("elements[0].k"), "{e}");
    let e = parse_params("lugre", "sigma0").unwrap_err().to_string();
    assert!(e.contains("NAME=VALUE"), "{e}");
    let e = parse_params("maxwell_slip", "elements[0].k=1").unwrap_err().to_string();
    assert!(e.contains("elements[0].fmax") && e.contains("missing"), "{e}");
}

/// Forces with a normal-load column are the model force times N: fitting a
/// Coulomb-viscous curve measured under a varying load recovers the
/// coefficients per unit load.
#[test]
fn normal_load_scales_the_model_force() {
    let id = "coulomb_tanh";
    let mut m: Motion = velocity_sweep(1e-2, 1.0, 80);
    let n: Vec<f64> = (0..80).map(|i| 10.0 + 5.0 * (i as f64 * 0.37).sin()).collect();
    m.n = Some(n.clone());
    let p = parse_params(id, "fc=0.3,kv=0.05,ktanh=1e4").unwrap();
    let data = measure(id, &p, &m, 0.01, 3, &Default::default()).unwrap();
    // the model force is N times the unit-load force
    let unit =
        model_force(&build(id, &p).unwrap(), &Motion { n: None, ..m.clone() }, &Default::default()).unwrap();
    let loaded = model_force(&build(id, &p).unwrap(), &m, &Default::default()).unwrap();
    for i in 0..80 {
        assert!((loaded[i] - n[i] * unit[i]).abs() < 1e-12);
    }
    let r = fit(&data, &opts(id, "fc=0.5,kv=0.1,ktanh=1e4", Some(&["fc", "kv"])), None).unwrap();
    let (fc, kv) = (r.param("fc").unwrap(), r.param("kv").unwrap());
    assert!((fc.value - 0.3).abs() < 4.0 * fc.stderr && fc.stderr < 0.01, "fc {fc:?}");
    assert!((kv.value - 0.05).abs() < 4.0 * kv.stderr && kv.stderr < 0.01, "kv {kv:?}");
}

/// The shipped example data sets are what their generator
/// (`cargo run -p friction-analysis --example make_fit_data`) writes.
#[test]
fn shipped_example_data_are_reproducible() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/data");
    for set in friction_analysis::synth::example_sets() {
        let made = set.series().unwrap();
        let path = dir.join(format!("{}.csv", set.name));
        let shipped = friction_analysis::data::read_csv(&path, &Default::default()).unwrap();
        assert_eq!(made.len(), shipped.len(), "{}", set.name);
        let (a, b) = (made.f.unwrap(), shipped.f.unwrap());
        let d = a.iter().zip(&b).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        assert!(d < 1e-6, "{}: regenerated forces differ by {d:e}", set.name);
        let dx = made
            .x
            .unwrap()
            .iter()
            .zip(shipped.x.as_ref().unwrap())
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(dx < 1e-15, "{}: {dx:e}", set.name);
    }
}

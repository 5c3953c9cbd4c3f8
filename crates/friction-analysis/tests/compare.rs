//! The property table by measurement: what the experiments must give for
//! models whose behaviour is known in closed form (Olsson's Table 2.1,
//! Olsson 1996, and the models' own equations), and the Daniel 2014 clutch.

use friction_analysis::compare::clutch::{compare_clutch, ClutchVariant};
use friction_analysis::compare::{
    at_rest, figures_csv, measure_model, properties_csv, AtRest, ModelRow, Property, Settings, Verdict,
};
use friction_models::{ParamMap, ParamValue};

fn row(id: &str) -> ModelRow {
    measure_model(id, &Settings::default()).unwrap_or_else(|e| panic!("{id}: {e}"))
}

fn check(r: &ModelRow, p: Property, v: Verdict) {
    let f = r.figure(p);
    assert_eq!(f.verdict, v, "{} {}: figure {} ({})", r.id, p, f.value, f.detail);
}

/// Coulomb: set-valued, so a body under half its break-away force stays
/// exactly put, the break-away force is Fs = Fc = 1 N at any force rate, and
/// there is no pre-sliding: the driven force is Fc from the first 1e-9 m.
/// Its relay-type loop is the same at every speed.
#[test]
fn coulomb_has_stiction_and_no_presliding() {
    let r = row("coulomb");
    check(&r, Property::Stiction, Verdict::Yes);
    assert_eq!(r.figure(Property::Stiction).value, 0.0);
    check(&r, Property::Presliding, Verdict::No);
    check(&r, Property::Stribeck, Verdict::No);
    check(&r, Property::VaryingBreakaway, Verdict::No);
    let b = r.curves.breakaway.as_ref().unwrap();
    assert!((b.force[0] - 1.0).abs() < 1e-9 && (b.force[1] - 1.0).abs() < 1e-9, "{:?}", b.force);
    check(&r, Property::RateIndependent, Verdict::Yes);
    check(&r, Property::NonlocalMemory, Verdict::No);
    check(&r, Property::Lag, Verdict::No);
}

/// Dahl (exponent 1): virgin curve F = Fc (1 - exp(-σ0 x / Fc)), so
/// x½ = (Fc/σ0) ln 2 = 6.931e-6 m; steady force Fc at every speed (no
/// Stribeck fall); rate independent. Its memory is local: after an inner
/// loop the ascending branch is F = Fc - C exp(-σ0 x/Fc) with another C than
/// the outer branch, and the gap, largest at x1, is computed here from the
/// branch equations.
#[test]
fn dahl_presliding_in_closed_form_and_local_memory() {
    let r = row("dahl");
    check(&r, Property::Stribeck, Verdict::No);
    check(&r, Property::Presliding, Verdict::Yes);
    let xh = (1e-5f64) * 2f64.ln();
    let m = r.figure(Property::Presliding).value;
    assert!((m - xh).abs() < 2e-3 * xh, "x_half {m} vs {xh}");
    check(&r, Property::RateIndependent, Verdict::Yes);
    check(&r, Property::Stiction, Verdict::Yes);
    check(&r, Property::Lag, Verdict::No);
    check(&r, Property::NonlocalMemory, Verdict::No);

    // Dahl branches (σ0 = 1e5, Fc = 1): up from (xr, fr): Fc - (Fc - fr) e^{-k (x - xr)}, down: -Fc + (Fc + fr) e^{-k (xr - x)}
    let k = 1e5;
    let up = |xr: f64, fr: f64, x: f64| 1.0 - (1.0 - fr) * (-k * (x - xr)).exp();
    let down = |xr: f64, fr: f64, x: f64| -1.0 + (1.0 + fr) * (-k * (xr - x)).exp();
    let mem = r.curves.memory.as_ref().unwrap();
    let a = mem.amplitude;
    assert!((a - 2.0 * m).abs() < 1e-15);
    let (x1, x2) = (0.4 * a, -0.4 * a);
    let f_a = up(0.0, 0.0, a);
    let f_ma = down(a, f_a, -a);
    let f_a2 = up(-a, f_ma, a);
    let f_ma2 = down(a, f_a2, -a);
    let f_x1 = up(-a, f_ma2, x1);
    let f_x2 = down(x1, f_x1, x2);
    let gap = (up(x2, f_x2, x1) - up(-a, f_ma, x1)).abs();
    let range = up(-a, f_ma, a) - down(a, f_a2, -a);
    let expected = gap / range;
    assert!(
        (mem.closure - expected).abs() < 0.02 * expected,
        "closure {} vs closed form {expected}",
        mem.closure
    );
}

/// LuGre: steady force g(v) + σ2 v with g = Fc + (Fs - Fc) exp(-(v/vs)²),
/// so the Stribeck figure is the largest fall of that curve on the grid of
/// speeds over its largest value; a bristle spring gives pre-sliding; the
/// bristle dynamics give lag and a break-away force that depends on the
/// force rate (Canudas de Wit, Olsson, Åström, Lischinsky 1995); σ1 and the Stribeck curve make
/// its loops rate dependent.
#[test]
fn lugre_stribeck_in_closed_form_presliding_lag() {
    let s = Settings::default();
    let r = row("lugre");
    check(&r, Property::Stribeck, Verdict::Yes);
    let f = |v: f64| 1.0 + 0.5 * (-(v / 1e-3f64).powi(2)).exp() + 0.4 * v;
    let fs: Vec<f64> = s.steady_velocities.iter().map(|&v| f(v)).collect();
    let fmax = fs.iter().cloned().fold(0.0, f64::max);
    let mut drop = 0.0f64;
    for i in 0..fs.len() {
        for j in i + 1..fs.len() {
            drop = drop.max(fs[i] - fs[j]);
        }
    }
    let m = r.figure(Property::Stribeck).value;
    assert!((m - drop / fmax).abs() < 2e-3, "Stribeck figure {m} vs {}", drop / fmax);
    check(&r, Property::Presliding, Verdict::Yes);
    check(&r, Property::Lag, Verdict::Yes);
    check(&r, Property::VaryingBreakaway, Verdict::Yes);
    check(&r, Property::RateIndependent, Verdict::No);
    check(&r, Property::Stiction, Verdict::Yes);
}

/// Maxwell-slip: F(x) = Σ min(k_i x, f_i) on the virgin curve, so with the
/// comparison's elements (k = 4e4, 3e4, 2e4, 1e4 N/m, f_i = 0.25 N) the half
/// force 0.5 N is reached at 5e-6 m, where every element still sticks. It is
/// the textbook rate-independent operator with non-local memory (Masing).
#[test]
fn maxwell_slip_rate_independent_with_nonlocal_memory() {
    let r = row("maxwell_slip");
    check(&r, Property::RateIndependent, Verdict::Yes);
    check(&r, Property::NonlocalMemory, Verdict::Yes);
    assert!(r.figure(Property::NonlocalMemory).value < 1e-3);
    check(&r, Property::Presliding, Verdict::Yes);
    let m = r.figure(Property::Presliding).value;
    assert!((m - 5e-6).abs() < 1e-9, "x_half {m}");
    check(&r, Property::Stribeck, Verdict::No);
    check(&r, Property::Lag, Verdict::No);
    check(&r, Property::Stiction, Verdict::Yes);
}

/// A regularised Coulomb law holds no load: under half its break-away force
/// the body creeps at the speed where tanh(k v) + c v/Fc balances the load.
#[test]
fn coulomb_tanh_creeps() {
    let r = row("coulomb_tanh");
    check(&r, Property::Stiction, Verdict::No);
    assert!(r.figure(Property::Stiction).value > 1e-4, "{}", r.figure(Property::Stiction).detail);
}

/// Models whose force or state rate jumps at v = 0 without stick machinery,
/// or which are too steep at rest, are recognised before a body is put on
/// them: hess_soom's force jumps by 2 g(0) = 2 Fs = 2 N.
#[test]
fn models_that_cannot_hold_a_body_at_rest_are_recognised() {
    let b = |id: &str| friction_analysis::compare::build_model(id).unwrap();
    match at_rest(&b("hess_soom")) {
        Some(AtRest::Jump(s)) => assert!(s.contains("2.000e0"), "{s}"),
        other => panic!("hess_soom: {other:?}"),
    }
    assert!(matches!(at_rest(&b("friction_lag")), Some(AtRest::Jump(_))));
    assert!(matches!(at_rest(&b("rate_state")), Some(AtRest::Steep(_))));
    for id in ["coulomb", "karnopp", "lugre", "dahl", "coulomb_tanh", "maxwell_slip"] {
        assert_eq!(at_rest(&b(id)), None, "{id}");
    }
}

/// The CSV files: a row per model, a column per property, the cells what the
/// figures decided.
#[test]
fn csv_rows_match_the_figures() {
    let rows = vec![row("coulomb"), row("viscous")];
    let p = properties_csv(&rows);
    let lines: Vec<&str> = p.lines().collect();
    assert_eq!(
        lines[0],
        "model,stribeck,varying_breakaway,presliding,lag,nonlocal_memory,rate_independent,stiction,time_ms,steps"
    );
    assert!(lines[1].starts_with("coulomb,no,no,no,no,no,yes,yes,"), "{}", lines[1]);
    assert!(lines[2].starts_with("viscous,no,no,no,no,no,no,no,"), "{}", lines[2]);
    let f = figures_csv(&rows);
    assert_eq!(f.lines().count(), 1 + 2 * 9);
    assert!(f.lines().next().unwrap().starts_with("model,property,figure,unit,threshold,verdict"));
}

fn clutch() -> friction_sim::System {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/clutch.toml");
    friction_sim::scenario::load(&path).unwrap()
}

/// Daniel 2014: the true stick/slip clutch is exact in its locked phase (zero
/// slip, speeds on the closed form); tanh creeps there at the slip speed
/// where its force equals the torque the lock needs, atanh((10 + 5 w)/50)/k,
/// which is computed here from the closed-form speed w(t).
#[test]
fn clutch_true_stick_is_exact_and_tanh_creeps_at_the_closed_form_slip() {
    let k = 1e3;
    let mut p = ParamMap::new();
    p.insert("fc".into(), ParamValue::Num(50.0));
    p.insert("ktanh".into(), ParamValue::Num(k));
    let variants = vec![
        ClutchVariant { label: "coulomb".into(), model: None, params: ParamMap::new() },
        ClutchVariant { label: "tanh".into(), model: Some("coulomb_tanh".into()), params: p },
    ];
    let (setup, runs) = compare_clutch(&clutch(), &variants).unwrap();
    let tl = setup.lock_time().unwrap();
    let tau = tl - 1.0;
    assert!((15.0 - 30.0 * tau + 5.0 * (-10.0 * tau).exp()).abs() < 1e-10);
    let c = &runs[0].0;
    assert_eq!(c.locked_slip, 0.0);
    assert!(c.locked_speed_error < 1e-6, "{}", c.locked_speed_error);
    assert!(c.lock_time_error.abs() < 1e-6, "{}", c.lock_time_error);
    let (row, out) = &runs[1];
    let t = out.series("t");
    let mid = 0.5 * (tl + 2.0);
    let (mut sum, mut n) = (0.0, 0);
    for &ti in &t {
        if ti >= mid && ti < 2.0 {
            let w = setup.speeds(ti).0;
            sum += (setup.locked_torque(w) / 50.0).atanh() / k;
            n += 1;
        }
    }
    let expected = sum / n as f64;
    assert!((row.locked_slip - expected).abs() < 0.02 * expected, "slip {} vs {expected}", row.locked_slip);
    assert!(row.locked_speed_error > 1e-4 && row.locked_speed_error < 1e-3);
}

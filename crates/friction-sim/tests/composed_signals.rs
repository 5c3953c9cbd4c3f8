//! Signals that compose (`sum`, `product`, `window`) and the periodic
//! signals (`pulse_train`, `square`, `sawtooth`), checked against closed
//! forms: their values and rates at seeded random times, their breakpoints,
//! a free body under a windowed sine force, a body carried by a driver whose
//! motion is a product, and the messages of bad tables.

use std::f64::consts::PI;
use std::path::Path;

use friction_sim::schedule::{Schedule, MAX_DEPTH};
use friction_sim::{scenario, simulate, Outcome};
use rand::{RngExt, SeedableRng};

fn sched(text: &str) -> Schedule {
    let t: toml::Table = toml::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    Schedule::from_toml(&t, "s", Path::new(".")).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn run(text: &str) -> Outcome {
    let sys = scenario::parse(text, "s.toml", Path::new(".")).unwrap_or_else(|e| panic!("{e}"));
    let out = simulate(&sys).unwrap_or_else(|e| panic!("{e}"));
    assert!(out.failure.is_none(), "{:?}", out.failure);
    out
}

fn close(a: (f64, f64, f64), b: (f64, f64, f64), tol: f64) -> bool {
    let ok = |x: f64, y: f64| (x - y).abs() <= tol * (1.0 + y.abs());
    ok(a.0, b.0) && ok(a.1, b.1) && ok(a.2, b.2)
}

/// A sum and a product, and a window of a sum of a product, against their
/// closed forms (value, first and second derivative; the product by the
/// product rule written out by hand) at 2000 seeded random times.
#[test]
fn sum_product_and_nesting_match_closed_forms_at_random_times() {
    let sine = "{ type = \"sine\", amplitude = 1.5, frequency = 2.0, phase = 0.3, offset = 0.2 }";
    let ramp = "{ type = \"ramp\", rate = 0.7, offset = -0.1, start = 0.4 }";
    let sum = sched(&format!("type = \"sum\"\nterms = [{sine}, {ramp}, 2.5]"));
    let product = sched(&format!("type = \"product\"\nfactors = [{sine}, {ramp}, 3]"));
    let nested = sched(&format!(
        "type = \"window\"\nstart = 0.25\nend = 1.75\n\
         inner = {{ type = \"sum\", terms = [{{ type = \"product\", factors = [{sine}, {ramp}] }}, {sine}] }}"
    ));
    let w = 2.0 * PI * 2.0;
    // sine: s = 0.2 + 1.5 sin(w t + 0.3)
    let s = |t: f64| {
        let a = w * t + 0.3;
        (0.2 + 1.5 * a.sin(), 1.5 * w * a.cos(), -1.5 * w * w * a.sin())
    };
    // ramp: r = -0.1 + 0.7 max(t - 0.4, 0)
    let r = |t: f64| if t >= 0.4 { (-0.1 + 0.7 * (t - 0.4), 0.7, 0.0) } else { (-0.1, 0.0, 0.0) };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(26);
    for _ in 0..2000 {
        let t: f64 = rng.random_range(0.0..2.0);
        let (a, b) = (s(t), r(t));
        let want_sum = (a.0 + b.0 + 2.5, a.1 + b.1, a.2 + b.2);
        assert!(close(sum.eval(t), want_sum, 1e-13), "sum at {t}: {:?} vs {want_sum:?}", sum.eval(t));
        let p = (a.0 * b.0, a.1 * b.0 + a.0 * b.1, a.2 * b.0 + 2.0 * a.1 * b.1 + a.0 * b.2);
        let want_product = (3.0 * p.0, 3.0 * p.1, 3.0 * p.2);
        assert!(close(product.eval(t), want_product, 1e-13), "product at {t}: {:?}", product.eval(t));
        let want_nested =
            if (0.25..1.75).contains(&t) { (p.0 + a.0, p.1 + a.1, p.2 + a.2) } else { (0.0, 0.0, 0.0) };
        assert!(close(nested.eval(t), want_nested, 1e-13), "nested at {t}: {:?}", nested.eval(t));
    }
    // the window is closed at its start and open at its end
    assert_eq!(nested.eval(1.75), (0.0, 0.0, 0.0));
    let (a, b) = (s(0.25), r(0.25));
    let inside =
        (a.0 * b.0 + a.0, a.1 * b.0 + a.0 * b.1 + a.1, a.2 * b.0 + 2.0 * a.1 * b.1 + a.0 * b.2 + a.2);
    assert!(close(nested.eval(0.25), inside, 1e-13), "{:?} vs {inside:?}", nested.eval(0.25));
    // breakpoints: the ramp's start (inside the window) and the window's edges, sorted
    assert_eq!(sum.breakpoints(2.0), vec![0.4]);
    assert_eq!(product.breakpoints(2.0), vec![0.4]);
    assert_eq!(nested.breakpoints(2.0), vec![0.25, 0.4, 1.75]);
    assert_eq!(nested.breakpoints(1.0), vec![0.25, 0.4]);
    // an inner breakpoint outside the window is dropped (the signal is 0 there)
    let late = sched(&format!("type = \"window\"\nstart = 0.5\nend = 1.0\ninner = {ramp}"));
    assert_eq!(late.breakpoints(2.0), vec![0.5, 1.0]);
}

/// Square, sawtooth and pulse trains: values at random times against the
/// closed forms written with `rem_euclid`, the edges as breakpoints, and at
/// every breakpoint the value after the jump (no step can straddle it).
#[test]
fn periodic_signals_values_periods_and_breakpoints() {
    let square =
        sched("type = \"square\"\namplitude = 2.0\nperiod = 0.4\nduty = 0.25\noffset = 1.0\nstart = 0.1");
    let saw = sched("type = \"sawtooth\"\namplitude = 2.0\nperiod = 0.5\noffset = -1.0\nstart = 0.2");
    let train = sched("type = \"pulse_train\"\namplitude = 5.0\nperiod = 0.3\nduty = 0.5\nstart = -0.05");
    let sq = |t: f64| {
        if t < 0.1 {
            1.0
        } else if (t - 0.1).rem_euclid(0.4) < 0.1 {
            3.0
        } else {
            -1.0
        }
    };
    let sw = |t: f64| if t < 0.2 { -1.0 } else { -1.0 + 2.0 * (t - 0.2).rem_euclid(0.5) / 0.5 };
    let tr = |t: f64| if (t + 0.05).rem_euclid(0.3) < 0.15 { 5.0 } else { 0.0 };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut n = 0;
    while n < 3000 {
        let t: f64 = rng.random_range(0.0..3.0);
        // away from the edges, where rem_euclid and the edge formula may round apart
        let near = |start: f64, p: f64, f: &[f64]| {
            let ph = (t - start).rem_euclid(p) / p;
            f.iter().any(|&e| (ph - e).abs() < 1e-9 || (ph - e - 1.0).abs() < 1e-9)
        };
        if near(0.1, 0.4, &[0.0, 0.25]) || near(0.2, 0.5, &[0.0]) || near(-0.05, 0.3, &[0.0, 0.5]) {
            continue;
        }
        n += 1;
        assert_eq!(square.eval(t), (sq(t), 0.0, 0.0), "square at {t}");
        let (x, v, a) = saw.eval(t);
        assert!((x - sw(t)).abs() < 1e-12, "sawtooth at {t}: {x} vs {}", sw(t));
        assert_eq!((v, a), (if t < 0.2 { 0.0 } else { 4.0 }, 0.0), "sawtooth rate at {t}");
        assert_eq!(train.eval(t), (tr(t), 0.0, 0.0), "pulse train at {t}");
    }
    // the breakpoints are the edges: square from 0.1 every 0.4 and 0.1 later
    let b = square.breakpoints(1.0);
    let want = [0.1, 0.2, 0.5, 0.6, 0.9];
    assert_eq!(b.len(), want.len(), "{b:?}");
    assert!(b.iter().zip(want).all(|(x, y)| (x - y).abs() < 1e-15), "{b:?}");
    let b = saw.breakpoints(1.5);
    assert_eq!(b.len(), 3, "{b:?}");
    assert!(b.iter().zip([0.2, 0.7, 1.2]).all(|(x, y)| (x - y).abs() < 1e-15), "{b:?}");
    // a train begun before t = 0: its first edges at 0.1 (fall) and 0.25 (rise)
    let b = train.breakpoints(0.7);
    assert!(b.iter().zip([0.1, 0.25, 0.4, 0.55]).all(|(x, y)| (x - y).abs() < 1e-15), "{b:?}");
    assert_eq!(b.len(), 4, "{b:?}");
    // the value at a breakpoint is the value after the jump, the one just before differs
    for s in [&square, &saw, &train] {
        for &t in &s.breakpoints(3.0) {
            let before = s.value(t - 1e-12);
            let at = s.value(t);
            let after = s.value(t + 1e-12);
            assert!((at - after).abs() < 1e-9, "{s:?}: at {t}: {at} vs {after} just after");
            // a jump of the value, or of the rate (the sawtooth's start)
            let rate_jump = (s.eval(t).1 - s.eval(t - 1e-12).1).abs();
            assert!((at - before).abs() > 0.5 || rate_jump > 0.5, "{s:?}: no jump at the breakpoint {t}");
        }
    }
    // many periods: the edges stay on the grid (no drift of a running sum)
    let fast = sched("type = \"square\"\namplitude = 1.0\nperiod = 1e-3");
    let b = fast.breakpoints(10.0);
    assert_eq!(b.len(), 19_999, "{}", b.len());
    assert!(b.iter().enumerate().all(|(i, &t)| (t - (i + 1) as f64 * 5e-4).abs() < 1e-14));
}

/// A free body (m = 2) under the force window(0, 0.5, 200 sin(100 t)): for
/// t < 0.5 v = (200 / (100 m)) (1 - cos 100 t) and x = (2/m)(t - sin(100 t) / 100),
/// then it coasts at v(0.5). 0.5 is a breakpoint: the run stops there exactly.
#[test]
fn windowed_sine_force_gives_the_closed_form_motion_of_a_free_body() {
    let f = 100.0 / (2.0 * PI);
    let text = format!(
        "[[body]]\nname = \"m\"\nmass = 2.0\n\
         [[force]]\non = \"m\"\n\
         value = {{ type = \"window\", start = 0.0, end = 0.5, inner = {{ type = \"sine\", amplitude = 200.0, frequency = {f:?} }} }}\n\
         [solver]\nt_end = 1.0\noutput_dt = 0.001\nrtol = 1e-12\natol = {{ position = 1e-14, velocity = 1e-13 }}\n"
    );
    let out = run(&text);
    let m = 2.0;
    let v_cf = |t: f64| 200.0 / (100.0 * m) * (1.0 - (100.0 * t.min(0.5)).cos());
    let x_cf = |t: f64| {
        let tt = t.min(0.5);
        200.0 / (100.0 * m) * (tt - (100.0 * tt).sin() / 100.0) + v_cf(0.5) * (t - 0.5).max(0.0)
    };
    let (ts, xs, vs) = (out.series("t"), out.series("x.m"), out.series("v.m"));
    assert!(ts.len() > 900);
    let (mut ex, mut ev) = (0.0f64, 0.0f64);
    for i in 0..ts.len() {
        ex = ex.max((xs[i] - x_cf(ts[i])).abs());
        ev = ev.max((vs[i] - v_cf(ts[i])).abs());
    }
    eprintln!("windowed sine: max |x - closed form| = {ex:e} m, max |v - closed form| = {ev:e} m/s");
    assert!(ex < 1e-8, "x error {ex}");
    assert!(ev < 1e-7, "v error {ev}");
    // after the window the velocity is constant, exactly
    let after: Vec<f64> = ts.iter().zip(&vs).filter(|(t, _)| **t > 0.5).map(|(_, v)| *v).collect();
    assert!(after.iter().all(|v| (v - after[0]).abs() < 1e-12), "velocity drifts after the window");
}

/// A body on a driver whose motion is the product 0.1 t · sin(2π 2 t), held
/// by a strong Coulomb contact: it stays stuck, so it moves with the driver
/// and the contact's holding force is m a(t), the product rule's second
/// derivative. The driver's velocity column is the product rule's first.
#[test]
fn driver_moved_by_a_composed_motion_has_the_product_rule_rates() {
    let text = "[[driver]]\nname = \"belt\"\n\
                motion = { type = \"product\", factors = [{ type = \"ramp\", rate = 0.1 }, { type = \"sine\", amplitude = 1.0, frequency = 2.0 }] }\n\
                [[body]]\nname = \"m\"\nmass = 3.0\n\
                [[contact]]\nname = \"c\"\nbetween = [\"m\", \"belt\"]\nmodel = \"coulomb\"\nparams = { fc = 1000.0 }\n\
                [solver]\nt_end = 2.0\noutput_dt = 0.01\nrtol = 1e-10\natol = { position = 1e-12, velocity = 1e-12 }\n";
    let out = run(text);
    let w = 4.0 * PI;
    let x = |t: f64| 0.1 * t * (w * t).sin();
    let v = |t: f64| 0.1 * (w * t).sin() + 0.1 * t * w * (w * t).cos();
    let a = |t: f64| 0.2 * w * (w * t).cos() - 0.1 * t * w * w * (w * t).sin();
    let ts = out.series("t");
    let (xd, vd, xm, fc) = (out.series("x.belt"), out.series("v.belt"), out.series("x.m"), out.series("F.c"));
    let (mut e_x, mut e_v, mut e_m, mut e_f) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    // the sign of F.c is the contact's convention: fixed by the first sample with a force
    let i0 = (1..ts.len()).find(|&i| a(ts[i]).abs() > 1.0).unwrap();
    let sign = (fc[i0] / (3.0 * a(ts[i0]))).signum();
    for i in 1..ts.len() {
        let t = ts[i];
        e_x = e_x.max((xd[i] - x(t)).abs());
        e_v = e_v.max((vd[i] - v(t)).abs());
        e_m = e_m.max((xm[i] - x(t)).abs());
        e_f = e_f.max((fc[i] - sign * 3.0 * a(t)).abs());
    }
    eprintln!("product motion: driver x {e_x:e}, v {e_v:e}; body x {e_m:e}; holding force {e_f:e} N");
    assert!(e_x < 1e-14 && e_v < 1e-13, "driver x {e_x}, v {e_v}");
    assert!(e_m < 1e-8, "body leaves the belt by {e_m}");
    assert!(e_f < 1e-6 * 3.0 * w * w * 0.2, "holding force off by {e_f}");
    assert!(out.events.iter().all(|e| e.to == "stuck"), "{:?}", out.events);
}

/// A scenario given as a Python dict is written as TOML by `toml::to_string`
/// (python/src/convert.rs), where nested tables become `[force.value]`
/// sections and arrays of tables `[[force.value.terms]]`: that text parses
/// to the same composed schedule as the inline form.
#[test]
fn composed_schedules_survive_the_dict_to_toml_path() {
    let inline = "[[body]]\nname = \"m\"\nmass = 1.0\n[[force]]\non = \"m\"\n\
                  value = { type = \"window\", end = 0.5, inner = { type = \"sum\", terms = [\
                  { type = \"product\", factors = [{ type = \"sine\", amplitude = 2.0, frequency = 3.0 }, 4.0] }, \
                  { type = \"square\", amplitude = 1.0, period = 0.1 }] } }\n\
                  [solver]\nt_end = 1.0\n";
    let table: toml::Table = toml::from_str(inline).unwrap();
    let written = toml::to_string(&table).unwrap();
    let a = scenario::parse(inline, "a.toml", Path::new(".")).unwrap();
    let b = scenario::parse(&written, "<dict>", Path::new(".")).unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(a.forces[0].value, b.forces[0].value, "{written}");
    assert!(matches!(a.forces[0].value, Schedule::Window { .. }));
}

fn refused(value: &str) -> String {
    let text = format!(
        "[[body]]\nname = \"m\"\nmass = 1.0\n\n[[force]]\nname = \"f\"\non = \"m\"\nvalue = {value}\n[solver]\nt_end = 1.0\n"
    );
    let e = scenario::parse(&text, "s.toml", Path::new(".")).unwrap_err().to_string();
    assert!(e.starts_with("s.toml:8: "), "not on line 8: {e}");
    e
}

/// Bad composed and periodic tables are refused with the file, the line,
/// the key (with its path inside the composition), the value and the valid
/// range.
#[test]
fn bad_compositions_name_file_line_key_value_and_range() {
    let e = refused("{ type = \"sum\", terms = [] }");
    assert!(e.contains("force \"f\" value: `terms` has 0 entries; valid: 1 to 256"), "{e}");
    let e = refused("{ type = \"product\", factors = 3.0 }");
    assert!(e.contains("`factors` must be an array") && e.contains("3.0"), "{e}");
    let e = refused("{ type = \"window\", start = 0.5, end = 0.5, inner = 1.0 }");
    assert!(e.contains("`end` = 0.5 must be greater than `start` = 0.5; valid range (0.5, inf)"), "{e}");
    let e = refused("{ type = \"window\", start = 0.5, end = 0.2, inner = 1.0 }");
    assert!(e.contains("`end` = 0.2") && e.contains("(0.5, inf)"), "{e}");
    let e = refused("{ type = \"window\", end = 0.2 }");
    assert!(e.contains("missing key `inner`"), "{e}");
    let e = refused("{ type = \"square\", amplitude = 1.0, period = -0.1 }");
    assert!(e.contains("`period` = -0.1 is out of range; valid range (0, inf)"), "{e}");
    let e =
        refused("{ type = \"sum\", terms = [1.0, { type = \"sawtooth\", amplitude = 1.0, period = 0 }] }");
    assert!(e.contains("value.terms[1]: `period` = 0 is out of range; valid range (0, inf)"), "{e}");
    let e = refused("{ type = \"pulse_train\", amplitude = 1.0, period = 0.1, duty = 1.0 }");
    assert!(e.contains("`duty` = 1 is out of range; valid range (0, 1)"), "{e}");
    let e = refused("{ type = \"window\", end = 1.0, inner = { type = \"sinus\", amplitude = 1.0 } }");
    assert!(
        e.contains("value.inner: unknown type \"sinus\"") && e.contains("sine") && e.contains("window"),
        "{e}"
    );
    let e = refused("{ type = \"sum\", terms = [{ type = \"constant\", valu = 1.0 }] }");
    assert!(e.contains("value.terms[0]: unknown key `valu`") && e.contains("valid keys: type, value"), "{e}");
    let e = refused("{ type = \"sum\", terms = [\"x\"] }");
    assert!(e.contains("value.terms[0]: expected a finite number or a schedule table, found \"x\""), "{e}");
    let e = refused("{ type = \"sum\", terms = [{ type = \"input\", name = \"u\", start = 0.0 }] }");
    assert!(e.contains("value.terms[0]: an input cannot be part of a sum"), "{e}");
    // too deep: 17 windows
    let mut v = "1.0".to_string();
    for _ in 0..=MAX_DEPTH {
        v = format!("{{ type = \"window\", end = 1.0, inner = {v} }}");
    }
    let e = refused(&v);
    assert!(e.contains("nested 17 levels deep; valid: at most 16 levels"), "{e}");
    // 16 levels are fine
    let mut v = "1.0".to_string();
    for _ in 0..MAX_DEPTH - 1 {
        v = format!("{{ type = \"window\", end = 1.0, inner = {v} }}");
    }
    let ok = format!(
        "[[body]]\nname = \"m\"\nmass = 1.0\n[[force]]\non = \"m\"\nvalue = {v}\n[solver]\nt_end = 1.0\n"
    );
    scenario::parse(&ok, "s.toml", Path::new(".")).unwrap();
    // absurdly many edges for the run
    let e = refused("{ type = \"square\", amplitude = 1.0, period = 1e-7 }");
    assert!(e.contains("jumps about") && e.contains("at most 1000000 edges"), "{e}");
    // a product that overflows is refused by the finiteness check
    let e = refused("{ type = \"product\", factors = [1e200, 1e200] }");
    assert!(e.contains("not finite"), "{e}");
}

//! Every selectable integration method (`[solver] method`) on two closed
//! forms: a viscously damped oscillator (no events) and a Coulomb free decay
//! (stick-slip events, exact stop). `tr_bdf2` and `esdirk34` are chosen by
//! no `auto` rule, so these are the runs that hold them.

use friction_sim::{scenario, simulate, Outcome};

const METHODS: [&str; 8] = ["bdf", "tr_bdf2", "esdirk34", "tsit45", "radau5", "dop853", "rodas5p", "bdf5"];

fn run(text: &str) -> Outcome {
    let sys = scenario::parse(text, "every_method.toml", std::path::Path::new(".")).unwrap();
    let out = simulate(&sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    out
}

/// m x'' + c x' + k x = 0 with m = 1 kg, k = 100 N/m, c = 2 N s/m
/// (ζ = 0.1), x(0) = 0.1 m, v(0) = 0: every row against
/// x(t) = e^{-ζωt} (x0 cos ωd t + ζω x0/ωd sin ωd t).
#[test]
fn every_method_follows_the_damped_oscillator_to_its_tolerance() {
    let (k, c, x0) = (100.0_f64, 2.0_f64, 0.1_f64);
    let w = k.sqrt();
    let zeta = c / (2.0 * w);
    let wd = w * (1.0 - zeta * zeta).sqrt();
    let exact = |t: f64| (-zeta * w * t).exp() * (x0 * (wd * t).cos() + zeta * w * x0 / wd * (wd * t).sin());
    for m in METHODS {
        let out = run(&format!(
            "[[body]]\nname = \"m\"\nmass = 1.0\nx0 = {x0}\n[[spring]]\nbetween = [\"m\", \"ground\"]\nstiffness = {k}\n\
             [[damper]]\nbetween = [\"m\", \"ground\"]\ncoefficient = {c}\n\
             [solver]\nt_end = 2.0\noutput_dt = 0.01\nmethod = \"{m}\"\nrtol = 1e-9\natol = 1e-12\n"
        ));
        assert_eq!(out.stats.method, m);
        let (t, x) = (out.series("t"), out.series("x.m"));
        assert_eq!(t.len(), 201);
        let err = t.iter().zip(&x).map(|(&t, &x)| (x - exact(t)).abs()).fold(0.0, f64::max);
        // a tolerance of 1e-9 relative on a 0.1 m amplitude; the low-order
        // implicit methods are allowed a decade more
        let tol = if matches!(m, "tr_bdf2" | "esdirk34" | "bdf") { 1e-6 } else { 1e-7 };
        assert!(err < tol, "{m}: largest error {err:e} m");
        assert!(err > 0.0, "{m}: an exact match of every row would mean the closed form was not checked");
    }
}

/// m = 1 kg, k = 100 N/m, Coulomb fc = 0.981 N (N = 1), x(0) = 0.1 m:
/// each half period (π/ω) the amplitude falls by 2 d, d = fc/k, until it is
/// within d; then the mass sticks for good (Den Hartog 1931).
#[test]
fn every_method_stops_the_coulomb_free_decay_where_the_closed_form_does() {
    let (k, fc, x0) = (100.0_f64, 0.981_f64, 0.1_f64);
    let d = fc / k;
    let (mut a, mut halves) = (x0, 0);
    while a.abs() > d {
        a = -(a.abs() - 2.0 * d) * a.signum();
        halves += 1;
    }
    let t_stop = halves as f64 * std::f64::consts::PI / k.sqrt();
    for m in METHODS {
        let out = run(&format!(
            "[[body]]\nname = \"m\"\nmass = 1.0\nx0 = {x0}\n[[spring]]\nbetween = [\"m\", \"ground\"]\nstiffness = {k}\n\
             [[contact]]\nname = \"c\"\nbetween = [\"m\", \"ground\"]\nmodel = \"coulomb\"\nparams = {{ fc = {fc} }}\n\
             [solver]\nt_end = 3.0\nmethod = \"{m}\"\nrtol = 1e-9\natol = 1e-12\n"
        ));
        assert_eq!(out.stats.method, m);
        assert!((out.last("x.m") - a).abs() < 1e-6, "{m}: stops at {} m, closed form {a} m", out.last("x.m"));
        assert_eq!(out.last("v.m"), 0.0, "{m}: creeps after the stop");
        let stuck: Vec<_> = out.events.iter().filter(|e| e.to == "stuck").collect();
        let last = stuck.last().expect("a stop event");
        assert!((last.t - t_stop).abs() < 1e-5, "{m}: sticks at {} s, closed form {t_stop} s", last.t);
        // every reversal before the stop is a momentary stop, not a stick
        assert_eq!(stuck.len(), 1, "{m}: {:?}", out.events);
    }
}

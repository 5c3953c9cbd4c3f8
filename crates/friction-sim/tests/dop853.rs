//! The engine's DOP853 (`method = "dop853"`, Hairer's dop853.f: Dormand and
//! Prince's pair of order 8(5,3) with a dense output of order 7) against
//! closed forms: the harmonic oscillator (order of the steps, accuracy of
//! the dense output between steps) and the Coulomb free decay with true
//! stick (events on the dense output).

use std::f64::consts::PI;
use std::path::{Path, PathBuf};

use friction_sim::engine::Engine;
use friction_sim::scenario::Method;
use friction_sim::{scenario, simulate, Outcome, System};

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name)
}

fn run(sys: &System) -> Outcome {
    let out = simulate(sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    out
}

/// A 1 kg mass on a 100 N/m spring from x = 0.1 m at rest: x = 0.1 cos(10 t),
/// two seconds (about three periods), steps limited by the tolerance only.
fn oscillator(rtol: f64, output_dt: f64) -> Outcome {
    let text = format!(
        r#"
[[body]]
name = "m"
mass = 1.0
x0 = 0.1
[[spring]]
between = ["m", "ground"]
stiffness = 100.0
[solver]
method = "dop853"
t_end = 2.0
max_step = 2.0
output_dt = {output_dt:e}
rtol = {rtol:e}
atol = {:e}
"#,
        rtol * 1e-1
    );
    run(&scenario::parse(&text, "oscillator.toml", Path::new(".")).unwrap())
}

/// Largest |x - 0.1 cos(10 t)| over the rows.
fn oscillator_error(out: &Outcome) -> f64 {
    let (t, x) = (out.series("t"), out.series("x.m"));
    t.iter().zip(&x).map(|(t, x)| (x - 0.1 * (10.0 * t).cos()).abs()).fold(0.0, f64::max)
}

/// The steps follow the tolerance as an eighth-order method's do: four
/// decades of rtol cost about 10^(4/8) = 3.2 times the steps (a fifth-order
/// method needs 10^(4/5) = 6.3 times), and the error at the step ends falls
/// with the tolerance, staying within a few tolerances of the amplitude.
#[test]
fn dop853_steps_grow_as_an_eighth_order_method_and_error_follows_rtol() {
    let coarse = oscillator(1e-6, 2.0);
    let fine = oscillator(1e-10, 2.0);
    assert_eq!(coarse.stats.method, "dop853");
    let (ec, ef) = (oscillator_error(&coarse), oscillator_error(&fine));
    let ratio = fine.stats.steps as f64 / coarse.stats.steps as f64;
    println!(
        "rtol 1e-6: {} steps, error {ec:.2e}; rtol 1e-10: {} steps, error {ef:.2e}; ratio {ratio:.2}",
        coarse.stats.steps, fine.stats.steps
    );
    assert!((2.5..4.5).contains(&ratio), "steps {} -> {}", coarse.stats.steps, fine.stats.steps);
    assert!(ec < 1e-6 * 0.1 * 10.0, "error {ec:e} at rtol 1e-6");
    assert!(ef < 1e-10 * 0.1 * 10.0, "error {ef:e} at rtol 1e-10");
    assert!(ef < ec / 1000.0, "errors {ec:e} and {ef:e}");
}

/// Between the steps (an output every millisecond, tens of outputs per
/// step) the dense output of order 7 is about as accurate as the steps'
/// ends: a cubic Hermite interpolant on the same steps would be off by
/// h^4/384 max|x''''| = 4e-6 m at rtol 1e-10 (58 steps of 34 ms).
#[test]
fn dop853_dense_output_between_steps_matches_the_closed_form() {
    for rtol in [1e-7, 1e-10] {
        let ends = oscillator(rtol, 2.0);
        let dense = oscillator(rtol, 1e-3);
        assert_eq!(dense.rows.len(), 2001);
        let (ee, ed) = (oscillator_error(&ends), oscillator_error(&dense));
        println!(
            "rtol {rtol:e}: {} steps, error at the step ends {ee:.2e}, between them {ed:.2e}",
            dense.stats.steps
        );
        assert!(dense.stats.steps * 10 < dense.rows.len(), "{} steps", dense.stats.steps);
        assert!(ed < rtol && ed < 3.0 * ee, "rtol {rtol:e}: {ed:e} between the steps, {ee:e} at their ends");
    }
}

/// The Coulomb free decay (m = 1 kg, k = 100 N/m, Fc = Fs = 0.981 N, x(0) =
/// 0.1 m): each half period the mass swings about +-Fc/k, the amplitude
/// dropping by 2 Fc/k; it reverses at k pi/10 and sticks for good at pi/2,
/// x = -0.0019 m. Every row (one per millisecond, from the dense output)
/// against that piecewise closed form.
fn free_decay_closed_form(t: f64) -> f64 {
    let (a, half) = (0.00981, PI / 10.0);
    let k = ((t / half).floor() as usize).min(5);
    if k == 5 {
        return -0.0019;
    }
    // the turning point k and the centre of the swing after it
    let xk = (0.1 - 2.0 * a * k as f64) * if k.is_multiple_of(2) { 1.0 } else { -1.0 };
    let c = a * xk.signum();
    c + (xk - c) * (10.0 * (t - k as f64 * half)).cos()
}

#[test]
fn dop853_free_decay_follows_the_closed_form_reverses_at_k_pi_over_10_and_sticks_at_pi_over_2() {
    let mut sys = scenario::load(&example("coulomb_free_decay.toml")).unwrap();
    sys.solver.method = Method::Dop853;
    let out = run(&sys);
    assert_eq!(out.stats.method, "dop853");
    let stick = out.events.iter().find(|e| e.to == "stuck" && e.t > 0.0).expect("no stick event");
    let reversals: Vec<_> = out.events.iter().filter(|e| e.t > 0.0 && e.to != "stuck").collect();
    println!("stick at {:.3e} from pi/2, {} steps", stick.t - PI / 2.0, out.stats.steps);
    assert!((stick.t - PI / 2.0).abs() < 1e-9, "stick at {}", stick.t);
    assert_eq!(out.events.iter().filter(|e| e.t > stick.t).count(), 0, "events after the final stick");
    assert_eq!(reversals.len(), 4);
    for (k, e) in reversals.iter().enumerate() {
        let expect = (k + 1) as f64 * PI / 10.0;
        println!("reversal {k} at {:.3e} from k pi/10", e.t - expect);
        assert!((e.t - expect).abs() < 1e-9, "reversal {k} at {} (expected {expect})", e.t);
    }
    let (t, x, v) = (out.series("t"), out.series("x.m"), out.series("v.m"));
    assert_eq!(t.len(), 2501);
    let err = t.iter().zip(&x).map(|(&t, x)| (x - free_decay_closed_form(t)).abs()).fold(0.0, f64::max);
    println!("largest error against the closed form {err:.2e} m");
    assert!(err < 1e-9, "error {err:e} m");
    for i in 0..t.len() {
        if t[i] > stick.t {
            assert_eq!(x[i], x[x.len() - 1], "creep while stuck at t = {}", t[i]);
            assert_eq!(v[i], 0.0, "velocity not exactly zero while stuck at t = {}", t[i]);
        }
    }
    assert!((out.last("x.m") + 0.0019).abs() < 1e-9);
}

/// `auto` without stiff contacts: DOP853 for Coulomb contacts (events of
/// stick and slip), Tsitouras 5(4) when a contact's hysteresis turns at
/// reversals (Iwan-4: slip elements kink the equations between events).
#[test]
fn auto_is_dop853_for_coulomb_networks_and_tsit45_for_iwan_hysteresis() {
    for (name, method) in [
        ("coulomb_free_decay.toml", "dop853"),
        ("three_mass_chain.toml", "dop853"),
        ("iwan_loops.toml", "tsit45"),
    ] {
        let mut sys = scenario::load(&example(name)).unwrap();
        sys.solver.method = Method::Auto;
        assert_eq!(run(&sys).stats.method, method, "{name}");
    }
}

/// Largest difference of the position columns of two runs on the same
/// output times.
fn max_dx(a: &Outcome, b: &Outcome) -> f64 {
    assert_eq!(a.rows.len(), b.rows.len());
    let cols: Vec<usize> =
        a.columns.iter().enumerate().filter(|(_, c)| c.starts_with("x.")).map(|(i, _)| i).collect();
    a.rows
        .iter()
        .zip(&b.rows)
        .flat_map(|(r, s)| cols.iter().map(move |&i| (r[i] - s[i]).abs()))
        .fold(0.0, f64::max)
}

/// Every example `auto` integrates with an explicit method runs with DOP853,
/// has the events Tsitouras 5(4) finds, agrees with its positions and
/// balances its energy.
#[test]
fn every_explicit_example_runs_with_dop853_and_agrees_with_tsit45() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("toml"))
        .collect();
    paths.sort();
    let mut compared = 0;
    for path in &paths {
        let name = path.file_name().unwrap().to_string_lossy();
        let mut sys = scenario::load(path).unwrap();
        sys.solver.method = Method::Auto;
        if !["dop853", "tsit45"].contains(&Engine::new(&sys).run().unwrap().stats.method.as_str()) {
            continue;
        }
        sys.solver.method = Method::Dop853;
        let d = run(&sys);
        sys.solver.method = Method::Tsit45;
        let t = run(&sys);
        assert_eq!(d.events.len(), t.events.len(), "{name}: events {:?} vs {:?}", d.events, t.events);
        let scale = d
            .columns
            .iter()
            .enumerate()
            .filter(|(_, c)| c.starts_with("x."))
            .flat_map(|(i, _)| d.rows.iter().map(move |row| row[i].abs()))
            .fold(0.0, f64::max);
        let dx = max_dx(&d, &t);
        println!(
            "{name}: dop853 vs tsit45 {dx:.2e} of {scale:.2e}; steps {} vs {}",
            d.stats.steps, t.stats.steps
        );
        // measured: at most 6.4e-6 of the scale (the Iwan-4 joint's decay),
        // 5e-10 m on the Coulomb examples at rtol 1e-9
        assert!(dx <= 2e-5 * scale, "{name}: dop853 and tsit45 differ by {dx:e} (positions up to {scale:e})");
        let e = &d.energy;
        let diss = e.contacts.iter().map(|c| c.1).sum::<f64>()
            + e.dampers.iter().map(|c| c.1).sum::<f64>()
            + e.gaps.iter().map(|c| c.1).sum::<f64>()
            + e.impacts;
        let s = diss.abs().max(e.work_forces.abs() + e.work_drivers.abs()).max(1e-12);
        assert!(e.residual.abs() < 1e-6 * s, "{name}: energy residual {} of {s}", e.residual);
        compared += 1;
    }
    assert!(compared >= 8, "{compared} examples integrated explicitly");
}

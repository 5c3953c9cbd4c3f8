//! The engine's Radau IIA method (`method = "radau5"`, Hairer and Wanner's
//! RADAU5) against closed forms, against BDF on every example, and as the
//! `auto` choice for small smooth stiff networks (the LuGre stick-slip set-up
//! of Canudas de Wit et al. 1995).

use std::path::{Path, PathBuf};

use friction_sim::scenario::Method;
use friction_sim::{scenario, simulate, Outcome, System};

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name)
}

fn load(name: &str, method: Method) -> System {
    let mut sys = scenario::load(&example(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    sys.solver.method = method;
    sys
}

fn run(sys: &System) -> Outcome {
    let out = simulate(sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    out
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

fn viscous(rtol: f64) -> Outcome {
    let text = format!(
        r#"
name = "viscous"
[[body]]
name = "m"
mass = 2.0
x0 = 0.05
[[spring]]
between = ["m", "ground"]
stiffness = 50.0
[[contact]]
name = "c"
between = ["m", "ground"]
model = "viscous"
params = {{ kv = 1.2 }}
[solver]
method = "radau5"
t_end = 3.0
output_dt = 0.01
rtol = {rtol:e}
atol = {:e}
"#,
        rtol * 1e-2
    );
    run(&scenario::parse(&text, "viscous.toml", Path::new(".")).unwrap())
}

/// A mass-spring with a viscous contact: Radau5 follows the underdamped
/// closed form, and its error falls with the tolerance as a fifth-order
/// method's should (three decades of rtol: more than two decades of error).
#[test]
fn radau5_follows_the_viscous_oscillator_closed_form_and_converges() {
    let (m, k, c, x0) = (2.0f64, 50.0f64, 1.2f64, 0.05f64);
    let wn = (k / m).sqrt();
    let zeta = c / (2.0 * (k * m).sqrt());
    let wd = wn * (1.0 - zeta * zeta).sqrt();
    let err = |out: &Outcome| {
        let t = out.series("t");
        let x = out.series("x.m");
        (0..t.len())
            .map(|i| {
                let exact =
                    x0 * (-zeta * wn * t[i]).exp() * ((wd * t[i]).cos() + zeta * wn / wd * (wd * t[i]).sin());
                (x[i] - exact).abs()
            })
            .fold(0.0, f64::max)
    };
    let coarse = viscous(1e-6);
    let fine = viscous(1e-9);
    assert_eq!(coarse.stats.method, "radau5");
    let (e6, e9) = (err(&coarse), err(&fine));
    println!(
        "error at rtol 1e-6: {e6:.2e} ({} steps), 1e-9: {e9:.2e} ({} steps)",
        coarse.stats.steps, fine.stats.steps
    );
    assert!(e9 < 1e-9, "error {e9:e} at rtol 1e-9");
    assert!(e9 < e6 / 100.0, "errors {e6:e} and {e9:e}");
    assert!(fine.stats.steps > coarse.stats.steps);
}

/// Coulomb free decay with Radau5: the reversals at k π/10, true stick at
/// π/2 with the velocity exactly zero and no creep (events located on the
/// collocation polynomial).
#[test]
fn radau5_free_decay_reverses_at_multiples_of_pi_over_10_and_sticks_at_pi_over_2() {
    let out = run(&load("coulomb_free_decay.toml", Method::Radau5));
    assert_eq!(out.stats.method, "radau5");
    let stick = out.events.iter().find(|e| e.to == "stuck" && e.t > 0.0).expect("no stick event");
    assert!((stick.t - std::f64::consts::FRAC_PI_2).abs() < 1e-7, "stick at {}", stick.t);
    assert_eq!(out.events.iter().filter(|e| e.t > stick.t).count(), 0, "events after the final stick");
    let reversals: Vec<_> = out.events.iter().filter(|e| e.t > 0.0 && e.to != "stuck").collect();
    assert_eq!(reversals.len(), 4);
    for (k, e) in reversals.iter().enumerate() {
        let expect = (k + 1) as f64 * std::f64::consts::PI / 10.0;
        assert!((e.t - expect).abs() < 1e-7, "reversal {k} at {} (expected {expect})", e.t);
    }
    let (t, x, v) = (out.series("t"), out.series("x.m"), out.series("v.m"));
    for i in 0..t.len() {
        if t[i] > stick.t + 1e-6 {
            assert!((x[i] + 0.0019).abs() < 1e-9, "x = {} at t = {}", x[i], t[i]);
            assert_eq!(v[i], 0.0, "velocity not exactly zero while stuck at t = {}", t[i]);
        }
    }
}

/// Daniel's (2014) clutch with Radau5: locks once, at the closed-form time
/// (15 - 30 τ + 5 exp(-10 τ) = 0, τ = t - 1), and opens at t = 2.
#[test]
fn radau5_clutch_locks_at_the_closed_form_time() {
    let mut tau: f64 = 0.5;
    for _ in 0..50 {
        let f = 15.0 - 30.0 * tau + 5.0 * (-10.0 * tau).exp();
        tau -= f / (-30.0 - 50.0 * (-10.0 * tau).exp());
    }
    let out = run(&load("clutch.toml", Method::Radau5));
    let locks: Vec<_> = out.events.iter().filter(|e| e.to == "stuck" && e.t > 0.0).collect();
    assert_eq!(locks.len(), 1, "events: {:?}", out.events);
    assert!((locks[0].t - (1.0 + tau)).abs() < 1e-7, "lock at {} vs {}", locks[0].t, 1.0 + tau);
    let opens: Vec<_> = out.events.iter().filter(|e| e.t > 0.0 && e.from == "stuck").collect();
    assert_eq!(opens.len(), 1);
    assert!((opens[0].t - 2.0).abs() < 1e-12);
}

/// The LuGre stick-slip example: `auto` picks Radau5, whose positions stay
/// within 1e-5 m of a reference (Radau5 at rtol 1e-12, absolute tolerances
/// a millionth) where BDF at the same tolerances strays further.
#[test]
fn lugre_stick_slip_auto_is_radau5_within_1e_5_of_the_reference() {
    let auto = run(&load("lugre_stick_slip.toml", Method::Auto));
    assert_eq!(auto.stats.method, "radau5");
    let bdf = run(&load("lugre_stick_slip.toml", Method::Bdf));
    let mut fine = load("lugre_stick_slip.toml", Method::Radau5);
    fine.solver.rtol = 1e-12;
    fine.solver.atol_position *= 1e-6;
    fine.solver.atol_velocity *= 1e-6;
    fine.solver.atol_state *= 1e-6;
    let reference = run(&fine);
    let (e_radau, e_bdf) = (max_dx(&auto, &reference), max_dx(&bdf, &reference));
    println!(
        "radau5 {e_radau:.2e} m in {} steps, bdf {e_bdf:.2e} m in {} steps",
        auto.stats.steps, bdf.stats.steps
    );
    assert!(e_radau <= 1e-5, "radau5 error {e_radau:e}");
    assert!(e_radau < e_bdf, "radau5 {e_radau:e} vs bdf {e_bdf:e}");
    assert!(auto.stats.steps < bdf.stats.steps);
}

/// Every example runs with Radau5, balances its energy, has the events BDF
/// finds, and agrees with BDF's positions to the examples' tolerances (with
/// a contact held on a friction disk, which BDF is refused, with Rodas5P).
#[test]
fn every_example_runs_with_radau5_and_agrees_with_bdf() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("toml"))
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 15);
    for name in &names {
        let r = run(&load(name, Method::Radau5));
        let disk = ["plane_stick_slip.toml", "plane_coulomb_joint.toml"].contains(&name.as_str());
        let b = run(&load(name, if disk { Method::Rodas5p } else { Method::Bdf }));
        assert_eq!(r.stats.method, "radau5");
        assert_eq!(r.events.len(), b.events.len(), "{name}: events {:?} vs {:?}", r.events, b.events);
        let scale = r
            .columns
            .iter()
            .enumerate()
            .filter(|(_, c)| c.starts_with("x."))
            .flat_map(|(i, _)| r.rows.iter().map(move |row| row[i].abs()))
            .fold(0.0, f64::max);
        let dx = max_dx(&r, &b);
        println!(
            "{name}: radau5 vs bdf {dx:.2e} of {scale:.2e}; steps {} vs {}",
            r.stats.steps, b.stats.steps
        );
        assert!(
            dx <= 1e-3 * scale + 1e-9,
            "{name}: radau5 and bdf differ by {dx:e} (positions up to {scale:e})"
        );
        let e = &r.energy;
        let diss = e.contacts.iter().map(|c| c.1).sum::<f64>()
            + e.dampers.iter().map(|c| c.1).sum::<f64>()
            + e.gaps.iter().map(|c| c.1).sum::<f64>()
            + e.impacts;
        let s = diss.abs().max(e.work_forces.abs() + e.work_drivers.abs()).max(1e-12);
        assert!(e.residual.abs() < 1e-3 * s, "{name}: energy residual {} of {s}", e.residual);
    }
}

/// Radau5 has dense linear algebra only: asking for sparse is refused with
/// the key, the value and what to use instead.
#[test]
fn radau5_with_sparse_linear_algebra_is_refused() {
    let text = "[[body]]\nname = \"m\"\nmass = 1.0\n[solver]\nt_end = 1.0\nmethod = \"radau5\"\nlinear_algebra = \"sparse\"\n";
    let err = scenario::parse(text, "s.toml", Path::new(".")).unwrap_err().to_string();
    for part in ["s.toml", "linear_algebra", "sparse", "radau5", "bdf"] {
        assert!(err.contains(part), "`{part}` missing from: {err}");
    }
}

/// `auto` keeps to a BDF where Radau5 was measured slower, two masses on
/// LuGre contacts (6 states; 0.56 against 0.45 ms for diffsol's bdf), now
/// the engine's bdf5 (release CLI, best of seven with the default rows:
/// bdf5 3.10, bdf 3.42, radau5 3.24 ms), and picks Radau5 for one.
#[test]
fn auto_picks_a_bdf_for_two_lugre_masses_and_radau5_for_one() {
    let mut text = String::from(
        "name = \"two\"\n[[driver]]\nname = \"pull\"\nmotion = { type = \"ramp\", rate = 0.1 }\n",
    );
    for (i, prev) in [(0, "pull"), (1, "m0")] {
        text += &format!(
            "[[body]]\nname = \"m{i}\"\nmass = 1.0\n[[spring]]\nbetween = [\"{prev}\", \"m{i}\"]\nstiffness = 100.0\n\
             [[contact]]\nname = \"c{i}\"\nbetween = [\"m{i}\", \"ground\"]\nmodel = \"lugre\"\n"
        );
    }
    text += "[solver]\nt_end = 0.5\n";
    let sys = scenario::parse(&text, "two.toml", Path::new(".")).unwrap();
    assert_eq!(run(&sys).stats.method, "bdf5");
    let one = text.split("[[body]]\nname = \"m1\"").next().unwrap().to_string() + "[solver]\nt_end = 0.5\n";
    let sys = scenario::parse(&one, "one.toml", Path::new(".")).unwrap();
    assert_eq!(run(&sys).stats.method, "radau5");
}

/// A LuGre contact driven through sampled positions whose speed jumps at
/// every sample (constant speeds of alternating sign, from rest), with the
/// tiny absolute tolerance identification uses: Radau5 starts each piece
/// from the slope just after the jump. It used to take the slope before it,
/// its error estimate then stayed proportional to the step, and the run
/// failed at t = 0 with the step below its minimum.
#[test]
fn radau5_driven_through_speed_jumps_does_not_fail_at_the_first_step() {
    use friction_sim::drive::{drive, DriveSettings};
    use friction_sim::{AnyModel, LuGreParams};
    let dt = 0.05;
    let t: Vec<f64> = (0..16).map(|k| k as f64 * dt).collect();
    let mut x = vec![0.0];
    let mut v = vec![0.0];
    for k in 1..16 {
        v.push(if k % 2 == 1 { -1.0 } else { 1.0 } * (0.01 + 0.04 * k as f64 / 15.0));
        x.push(x[k - 1] + v[k] * dt);
    }
    let settings = DriveSettings { method: Method::Radau5, rtol: 1e-8, atol_state: 1e-20, max_wall: None };
    let model = AnyModel::try_from(LuGreParams::default()).unwrap();
    let f = drive(model.clone(), &t, &x, None, &settings).expect("radau5");
    let b = drive(model, &t, &x, None, &DriveSettings::default()).expect("bdf");
    // a sample's row is the end of the piece before it (the left limit of
    // the speed's jump there), where the bristles have settled (their time
    // constant g/(σ0 |v|) <= 1 ms against 50 ms): the steady force
    // F = sgn(v) (Fc + (Fs - Fc) exp(-(v/vs)²)) + σ2 v, the Stribeck term
    // below 1e-70 at these speeds (>= 1.27 cm/s against vs = 1 mm/s)
    for k in 1..16 {
        let exact = v[k].signum() * (1.0 + 0.5 * (-(v[k] / 1e-3).powi(2)).exp()) + 0.4 * v[k];
        assert!((f[k] - exact).abs() < 1e-6, "sample {k}: radau5 {} exact {exact}", f[k]);
        // BDF at its default tolerances (rtol 1e-7, atol 1e-12 m on z):
        // the damping term σ1 ż magnifies z's error by σ1 σ0 |v| / Fc ~ 1e6
        assert!((b[k] - exact).abs() < 1e-4, "sample {k}: bdf {} exact {exact}", b[k]);
    }
}

//! Closed-form checks of the simulation engine: true stick in a Coulomb free
//! decay, the Daniel 2014 clutch, a viscously damped oscillator, event times
//! under tolerance refinement, and the energy balance.

use std::path::{Path, PathBuf};

use friction_sim::{scenario, simulate, Outcome, System};

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name)
}

fn load(name: &str) -> System {
    scenario::load(&example(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn run(sys: &System) -> Outcome {
    let out = simulate(sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    out
}

fn dissipated(out: &Outcome) -> f64 {
    out.energy.contacts.iter().map(|c| c.1).sum::<f64>()
        + out.energy.dampers.iter().map(|c| c.1).sum::<f64>()
        + out.energy.gaps.iter().map(|c| c.1).sum::<f64>()
        + out.energy.impacts
}

/// A mass on a spring with Coulomb friction released from x0 = 0.1: each half
/// period π/ω the amplitude drops by 2 Fc/k, so after five half periods
/// (t = π/2) it sits at x = -0.0019 where the spring force 0.19 N < Fs and it
/// must stay there exactly: no creep, no further events.
#[test]
fn coulomb_free_decay_stops_at_pi_over_2_and_never_creeps() {
    let out = run(&load("coulomb_free_decay.toml"));
    let stick = out.events.iter().find(|e| e.to == "stuck" && e.t > 0.0).expect("no stick event");
    assert!((stick.t - std::f64::consts::FRAC_PI_2).abs() < 1e-7, "stick at {}", stick.t);
    assert_eq!(out.events.iter().filter(|e| e.t > stick.t).count(), 0, "events after the final stick");
    // every turning point in between is a reversal at a multiple of π/10
    let reversals: Vec<_> = out.events.iter().filter(|e| e.t > 0.0 && e.to != "stuck").collect();
    assert_eq!(reversals.len(), 4);
    for (k, e) in reversals.iter().enumerate() {
        let expect = (k + 1) as f64 * std::f64::consts::PI / 10.0;
        assert!((e.t - expect).abs() < 1e-7, "reversal {k} at {} (expected {expect})", e.t);
    }
    let t = out.series("t");
    let x = out.series("x.m");
    let v = out.series("v.m");
    for i in 0..t.len() {
        if t[i] > stick.t + 1e-6 {
            assert!((x[i] + 0.0019).abs() < 1e-9, "x = {} at t = {}", x[i], t[i]);
            assert_eq!(v[i], 0.0, "velocity not exactly zero while stuck at t = {}", t[i]);
        }
    }
    // the friction force on the mass while stuck balances the spring force 100 * 0.0019
    assert!((out.last("F.c") + 0.19).abs() < 1e-8);
    let diss = dissipated(&out);
    // all the initial spring energy minus what is left is dissipated
    let expected = 0.5 * 100.0 * (0.1f64.powi(2) - 0.0019f64.powi(2));
    assert!((diss - expected).abs() < 1e-6 * expected, "dissipated {diss} vs {expected}");
    assert!(out.energy.residual.abs() < 1e-7 * diss, "residual {}", out.energy.residual);
}

/// Lock time of the clutch: 15 - 30 τ + 5 exp(-10 τ) = 0 with τ = t - 1.
fn clutch_lock_time() -> f64 {
    let mut tau: f64 = 0.5;
    for _ in 0..50 {
        let f = 15.0 - 30.0 * tau + 5.0 * (-10.0 * tau).exp();
        let df = -30.0 - 50.0 * (-10.0 * tau).exp();
        tau -= f / df;
    }
    1.0 + tau
}

/// Daniel's (2014) clutch: slips from t = 1, locks once at the closed-form time,
/// opens at t = 2; speeds at 3 s from the piecewise closed form.
#[test]
fn clutch_locks_once_at_the_closed_form_time_and_opens_at_2() {
    let out = run(&load("clutch.toml"));
    let tl = clutch_lock_time();
    // disengaged (normal load 0) until t = 1: free, no events; then it engages sliding
    assert_eq!(out.events[0].t, 1.0, "events: {:?}", out.events);
    assert_eq!((out.events[0].from.as_str(), out.events[0].to.as_str()), ("free", "forward"));
    let later: Vec<_> = out.events.iter().filter(|e| e.t > 0.0).collect();
    let locks: Vec<_> = later.iter().filter(|e| e.to == "stuck").collect();
    assert_eq!(locks.len(), 1, "events: {:?}", out.events);
    assert!((locks[0].t - tl).abs() < 1e-7, "lock at {} vs {tl}", locks[0].t);
    let opens: Vec<_> = later.iter().filter(|e| e.from == "stuck").collect();
    assert_eq!(opens.len(), 1);
    assert!((opens[0].t - 2.0).abs() < 1e-12);
    // closed form: sliding 1 <= t < tl, locked tl <= t < 2 (2 w' = 20 - 10 w), open after
    let tau = tl - 1.0;
    let w_lock = 20.0 - 30.0 * tau;
    let w2s = 2.0 + (w_lock - 2.0) * (-5.0 * (2.0 - tl)).exp();
    let w1_end = w2s + 20.0;
    let w2_end = w2s * (-10.0f64).exp();
    assert!((out.last("v.j1") - w1_end).abs() < 1e-6, "{} vs {w1_end}", out.last("v.j1"));
    assert!((out.last("v.j2") - w2_end).abs() < 1e-6, "{} vs {w2_end}", out.last("v.j2"));
    // while locked the relative speed is exactly zero and the torque below capacity
    let (t, v1, v2, f) = (out.series("t"), out.series("v.j1"), out.series("v.j2"), out.series("F.clutch"));
    for i in 0..t.len() {
        if t[i] > tl + 1e-6 && t[i] < 2.0 - 1e-6 {
            assert_eq!(v1[i], v2[i], "slip while locked at t = {}", t[i]);
            // the clutch holds j1 back with the torque j2 needs: 10 + 5 w
            assert!(f[i].abs() <= 50.0 && (f[i] + (10.0 + 5.0 * v2[i])).abs() < 1e-6);
        }
    }
    let diss = dissipated(&out);
    assert!(out.energy.residual.abs() < 1e-7 * diss, "residual {} of {diss}", out.energy.residual);
}

/// Event times converge as the tolerance is refined: the lock time at
/// rtol = 1e-5 and 1e-10 agree to well within the looser tolerance.
#[test]
fn event_times_are_stable_under_tolerance_refinement() {
    let tl = clutch_lock_time();
    let mut times = vec![];
    for rtol in [1e-5, 1e-7, 1e-10] {
        let mut sys = load("clutch.toml");
        sys.solver.rtol = rtol;
        sys.solver.atol_velocity = rtol * 1e-2;
        sys.solver.atol_position = rtol * 1e-2;
        let out = run(&sys);
        let lock: Vec<_> = out.events.iter().filter(|e| e.to == "stuck" && e.t > 0.0).map(|e| e.t).collect();
        assert_eq!(lock.len(), 1, "rtol {rtol}: {:?}", out.events);
        times.push(lock[0]);
    }
    assert!((times[0] - tl).abs() < 1e-4, "{times:?}");
    assert!((times[2] - tl).abs() < 1e-8, "{times:?}");
    assert!((times[2] - tl).abs() <= (times[0] - tl).abs() + 1e-12);
}

/// A mass-spring with a viscous friction contact: the underdamped closed form.
#[test]
fn viscous_oscillator_matches_closed_form() {
    let text = r#"
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
params = { kv = 1.2 }
[solver]
t_end = 3.0
output_dt = 0.01
rtol = 1e-10
atol = 1e-12
"#;
    let sys = scenario::parse(text, "viscous.toml", Path::new(".")).unwrap();
    let out = run(&sys);
    let (m, k, c, x0) = (2.0f64, 50.0f64, 1.2f64, 0.05f64);
    let wn = (k / m).sqrt();
    let zeta = c / (2.0 * (k * m).sqrt());
    let wd = wn * (1.0 - zeta * zeta).sqrt();
    let t = out.series("t");
    let x = out.series("x.m");
    for i in 0..t.len() {
        let exact = x0 * (-zeta * wn * t[i]).exp() * ((wd * t[i]).cos() + zeta * wn / wd * (wd * t[i]).sin());
        assert!((x[i] - exact).abs() < 1e-7, "t = {}: {} vs {exact}", t[i], x[i]);
    }
    let diss = dissipated(&out);
    assert!(out.energy.residual.abs() < 1e-6 * diss);
}

/// Two bodies stuck to each other and to the ground by two Coulomb contacts
/// form redundant constraints; the stuck forces must still be consistent
/// (the total balances the applied force, each within its limit) and nothing moves.
#[test]
fn redundant_stuck_contacts_share_the_load_consistently() {
    let text = r#"
[[body]]
name = "a"
mass = 1.0
[[body]]
name = "b"
mass = 1.0
[[force]]
on = "a"
value = 3.0
[[contact]]
name = "ab"
between = ["a", "b"]
model = "coulomb"
params = { fc = 10.0 }
[[contact]]
name = "ag"
between = ["a", "ground"]
model = "coulomb"
params = { fc = 2.0 }
[[contact]]
name = "bg"
between = ["b", "ground"]
model = "coulomb"
params = { fc = 2.0 }
[solver]
t_end = 1.0
"#;
    let sys = scenario::parse(text, "redundant.toml", Path::new(".")).unwrap();
    let out = run(&sys);
    // (the pseudo-inverse of the redundant set leaves round-off, nothing more)
    assert!(out.last("x.a").abs() < 1e-15 && out.last("x.b").abs() < 1e-15);
    let (ag, bg, ab) = (out.last("F.ag"), out.last("F.bg"), out.last("F.ab"));
    // columns are forces on the first member: on a 3 + ag + ab = 0, on b -ab + bg = 0
    assert!((3.0 + ag + ab).abs() < 1e-12 && (bg - ab).abs() < 1e-12, "ag {ag} bg {bg} ab {ab}");
    assert!(ag.abs() <= 2.0 + 1e-12 && bg.abs() <= 2.0 + 1e-12);
    // a larger force breaks both ground contacts loose while a and b stay stuck together
    let text2 = text.replace("value = 3.0", "value = 5.0");
    let sys = scenario::parse(&text2, "redundant.toml", Path::new(".")).unwrap();
    let out = run(&sys);
    let (xa, xb) = (out.last("x.a"), out.last("x.b"));
    // together: 2 a = 5 - 2 - 2, x = 0.25 t^2
    assert!((xa - 0.25).abs() < 1e-9 && (xb - 0.25).abs() < 1e-9, "xa {xa} xb {xb}");
}

/// Every example shipped in examples/ loads, runs without failure, and keeps
/// its energy balance residual small compared with what it dissipated.
#[test]
fn every_example_runs_and_balances_energy() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        let sys = scenario::load(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let out = simulate(&sys).unwrap();
        assert!(out.failure.is_none(), "{}: {:?}", p.display(), out.failure);
        let e = &out.energy;
        let scale = dissipated(&out).abs().max(e.work_forces.abs() + e.work_drivers.abs()).max(1e-12);
        assert!(e.residual.abs() < 1e-3 * scale, "{}: residual {} vs scale {scale}", p.display(), e.residual);
        n += 1;
    }
    assert!(n >= 3);
}

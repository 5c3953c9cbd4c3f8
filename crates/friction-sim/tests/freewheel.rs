//! The one-way clutch (`freewheel` model) against the closed form of a
//! wheel driven through it by a crank of prescribed speed
//! (examples/freewheel_crank.toml): locked, the wheel follows the crank and
//! the clutch carries J dω_d/dt + c ω_d; overrunning, the wheel coasts as
//! ω0 exp(-(c/J)(t - t0)) and the clutch carries nothing.

use std::path::Path;

use friction_sim::{scenario, simulate};

const J: f64 = 0.5;
const C: f64 = 0.25;

fn crank(t: f64) -> (f64, f64) {
    let w = std::f64::consts::PI;
    (1.0 + 2.0 * (w * t).sin(), 2.0 * w * (w * t).cos())
}

/// The wheel's speed and the clutch torque at the times `ts`, by the phases
/// of the closed form: lock while J a_d + c ω_d >= 0, coast until the crank
/// catches up; each switch located by bisection to 1e-14 s.
fn reference(ts: &[f64]) -> Vec<(f64, f64)> {
    let lock_torque = |t: f64| {
        let (w, a) = crank(t);
        J * a + C * w
    };
    let bisect = |f: &dyn Fn(f64) -> f64, mut a: f64, mut b: f64| {
        for _ in 0..200 {
            let m = 0.5 * (a + b);
            if (f(a) > 0.0) == (f(m) > 0.0) {
                a = m;
            } else {
                b = m;
            }
            if b - a < 1e-14 {
                break;
            }
        }
        0.5 * (a + b)
    };
    // phases: (start, locked?, ω at start)
    let mut phases = vec![(0.0, true, 1.0)];
    let (h, t_end) = (1e-3, 6.5);
    loop {
        let &(t0, locked, w0) = phases.last().unwrap();
        let f: Box<dyn Fn(f64) -> f64> = if locked {
            Box::new(lock_torque)
        } else {
            Box::new(move |t: f64| w0 * (-(C / J) * (t - t0)).exp() - crank(t).0)
        };
        let mut t = t0 + 1e-9;
        while t < t_end && f(t + h) > 0.0 {
            t += h;
        }
        if t >= t_end {
            break;
        }
        let ts = bisect(&*f, t, t + h);
        let w = if locked { crank(ts).0 } else { w0 * (-(C / J) * (ts - t0)).exp() };
        phases.push((ts, !locked, w));
    }
    ts.iter()
        .map(|&t| {
            let &(t0, locked, w0) = phases.iter().rev().find(|p| p.0 <= t).unwrap();
            if locked {
                (crank(t).0, lock_torque(t))
            } else {
                (w0 * (-(C / J) * (t - t0)).exp(), 0.0)
            }
        })
        .collect()
}

/// The wheel's speed and the clutch torque of the freewheel example at every
/// output row, against the closed form: 1e-7 rad/s and 1e-6 N m (rows
/// within 1e-6 s of a switch skipped for the torque); the wheel never turns
/// slower than the crank, and the clutch never pulls it back.
#[test]
fn a_freewheel_locks_and_overruns_as_the_closed_form_says() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/freewheel_crank.toml");
    let sys = scenario::load(&path).unwrap();
    let out = simulate(&sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    let t = out.series("t");
    let w = out.series("v.wheel");
    let wd = out.series("v.crank");
    let f = out.series("F.clutch");
    let want = reference(&t);
    let mut coasting = 0;
    for r in 0..t.len() {
        assert!((w[r] - want[r].0).abs() < 1e-7, "t = {}: ω = {}, want {}", t[r], w[r], want[r].0);
        assert!(w[r] >= wd[r] - 1e-9, "t = {}: wheel {} slower than the crank {}", t[r], w[r], wd[r]);
        assert!(f[r] >= -1e-9, "t = {}: the clutch pulls: {}", t[r], f[r]);
        if want[r].1 == 0.0 {
            coasting += 1;
        }
        let near_switch = out.events.iter().any(|e| (e.t - t[r]).abs() < 1e-6);
        if !near_switch {
            assert!((f[r] - want[r].1).abs() < 1e-6, "t = {}: torque {}, want {}", t[r], f[r], want[r].1);
        }
    }
    assert!(coasting > 50 && coasting < t.len() - 50, "{coasting} coasting rows of {}", t.len());
    let switches = out.events.iter().filter(|e| e.contact == "clutch").count();
    assert!(switches >= 4, "{:?}", out.events);
}

/// A freewheel with drag and a finite lock capacity, in a bundle with a
/// Coulomb contact (both between a body and the ground): pushed in the
/// free direction, the pair holds up to drag + Fc; pushed the other way up
/// to lock + Fc; the shares follow the minimum-norm rule within each
/// one-sided range.
#[test]
fn a_freewheel_beside_a_contact_holds_within_its_one_sided_range() {
    for (push, fw, c) in [(0.3, -0.1, -0.2), (-0.3, 0.15, 0.15), (-2.4, 1.9, 0.5)] {
        let text = format!(
            r#"
[[body]]
name = "m"
mass = 1.0
[[force]]
on = "m"
value = {push}
[[contact]]
name = "fw"
between = ["m", "ground"]
model = "freewheel"
params = {{ free = "forward", fd = 0.1, fl = 2.0 }}
[[contact]]
name = "c"
between = ["m", "ground"]
model = "coulomb"
params = {{ fc = 0.5 }}
[solver]
t_end = 1.0
output_dt = 0.5
"#
        );
        let sys = scenario::parse(&text, "freewheel.toml", Path::new(".")).unwrap();
        let out = simulate(&sys).unwrap();
        assert_eq!(out.last("x.m"), 0.0, "push {push}");
        assert!((out.last("F.fw") - fw).abs() < 1e-12, "push {push}: F.fw = {}", out.last("F.fw"));
        assert!((out.last("F.c") - c).abs() < 1e-12, "push {push}: F.c = {}", out.last("F.c"));
    }
}

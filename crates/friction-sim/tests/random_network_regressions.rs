//! The random networks of issue 50 that broke the engine, each shrunk to a
//! small scenario and named by its symptom. Each run must keep every
//! invariant of the property test (`support/random_net.rs`: no panic, stuck
//! forces within capacity and sliding ones on their curve at every row,
//! bodies at rest in balance with stops only pushing, the energy balance
//! closed, no chatter, no failure), and some assert the physics of the case
//! in closed form besides.

#[path = "support/random_net.rs"]
mod random_net;

use std::path::Path;

use friction_sim::{scenario, simulate, Outcome};

/// Every invariant of the property test holds for `text`.
fn assert_invariants(text: &str) {
    match random_net::check_text(text) {
        Err(e) => panic!("not a valid scenario: {e}"),
        Ok(Some(v)) => panic!("{v}\n{text}"),
        Ok(None) => {}
    }
}

fn run(text: &str) -> Outcome {
    let sys = scenario::parse(text, "regression.toml", Path::new(".")).unwrap();
    let out = simulate(&sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    out
}

/// Issue 50's case 1 (the conveyor belt of stick-slip textbooks): one body
/// pushed by 0.8 N, held by the ground (fc 1.0) and by a driver (fc 0.3)
/// whose ramp starts at 1 s. Both stuck, the body is held by the ground and
/// the driver at once: a loop of stuck rows, which panicked (index out of
/// bounds in constraints.rs). Until 1 s both hold it (0.8 N, the driver's
/// contact at most 0.3 N of it); at 1 s the driver moves off at 0.1 m/s and
/// drags the body with 0.3 N: 1.1 N beyond the ground's 1.0 N, the body
/// slides with a = 0.1 m/s² until it reaches the belt's speed at 2 s, then
/// rides on it (the belt's contact carries 0.2 N).
#[test]
fn body_held_by_ground_and_driver_does_not_panic() {
    let text = r#"
name = "held_by_ground_and_driver"
[[driver]]
name = "d"
motion = { type = "ramp", rate = 0.1, start = 1.0 }
[[body]]
name = "m"
mass = 1.0
[[force]]
on = "m"
value = 0.8
[[contact]]
name = "a"
between = ["m", "ground"]
model = "coulomb"
params = { fc = 1.0 }
[[contact]]
name = "b"
between = ["m", "d"]
model = "coulomb"
params = { fc = 0.3 }
[solver]
t_end = 3.0
rtol = 1e-9
"#;
    assert_invariants(text);
    let out = run(text);
    let (t, x) = (out.series("t"), out.series("x.m"));
    let (fa, fb) = (out.series("F.a"), out.series("F.b"));
    for r in 0..t.len() {
        let (t, x, a, b) = (t[r], x[r], fa[r], fb[r]);
        assert!(a.abs() <= 1.0 + 1e-9 && b.abs() <= 0.3 + 1e-9, "t = {t}: F.a = {a}, F.b = {b}");
        if t < 1.0 {
            assert_eq!(x, 0.0, "t = {t}");
            assert!((a + b + 0.8).abs() < 1e-9, "t = {t}: F.a + F.b = {}", a + b);
        } else if t > 1.0 + 1e-6 && t < 2.0 - 1e-6 {
            assert!((x - 0.05 * (t - 1.0).powi(2)).abs() < 1e-7, "t = {t}: x = {x}");
            assert!((a + 1.0).abs() < 1e-9 && (b - 0.3).abs() < 1e-9, "t = {t}: F.a = {a}, F.b = {b}");
        } else if t > 2.0 + 1e-6 {
            assert!((x - 0.05 - 0.1 * (t - 2.0)).abs() < 1e-7, "t = {t}: x = {x}");
            assert!((a + 1.0).abs() < 1e-9 && (b - 0.2).abs() < 1e-9, "t = {t}: F.a = {a}, F.b = {b}");
        }
    }
}

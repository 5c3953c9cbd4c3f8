//! Loops of stuck rows through several bodies (issue 50; issue 43, item 7):
//! a body held by the ground and a driver at once, a ring of stuck contacts.
//! Their forces are statically indeterminate; the engine takes the split of
//! least norm within every contact's capacity (docs/scenario.md, "Redundant
//! contacts") and breaks the loop away the instant no such split remains.
//! Each test checks every output row against a split computed by hand and
//! the motion against its closed form.

use std::path::Path;

use friction_sim::{scenario, simulate, Outcome};

fn run(text: &str) -> Outcome {
    let sys = scenario::parse(text, "stuck_loops.toml", Path::new(".")).unwrap();
    let out = simulate(&sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    out
}

fn col(out: &Outcome, name: &str) -> Vec<f64> {
    let j = out.col(name).unwrap_or_else(|| panic!("no column {name}"));
    out.rows.iter().map(|r| r[j]).collect()
}

/// Issue 50's smallest panic (`index out of bounds` in the tree walk: the
/// driver, a second anchor, was taken for a body): one body pushed by 0.8 N,
/// held by a ground contact (Fs 1.0) and a contact to a driver at rest
/// (0.3) until the driver's ramp starts at 1 s.
/// - t < 1: both stuck; the least-norm split within the capacities: the
///   driver's contact at its capacity 0.3, the ground's the other 0.5 (the
///   minimum-norm split without the capacities gave 0.4 each);
/// - 1 < t < 2: the driver moves at 0.1 m/s, its contact slides and pulls
///   the body forward by 0.3; the ground contact cannot hold 1.1 > 1.0, so the
///   body slides with a = 0.8 + 0.3 - 1.0 = 0.1 m/s²;
/// - t > 2: the body reaches the driver's speed and sticks to it; the driver's
///   contact holds 1.0 - 0.8 = 0.2 <= 0.3.
#[test]
fn body_held_by_ground_and_driver_does_not_panic_and_splits_within_capacities() {
    let out = run(r#"
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
output_dt = 0.01
"#);
    let (t, x, v) = (col(&out, "t"), col(&out, "x.m"), col(&out, "v.m"));
    let (fa, fb) = (col(&out, "F.a"), col(&out, "F.b"));
    for k in 0..t.len() {
        let tk = t[k];
        let (xe, ve, fae, fbe) = if tk < 1.0 {
            (0.0, 0.0, -0.5, -0.3)
        } else if tk < 2.0 {
            (0.05 * (tk - 1.0).powi(2), 0.1 * (tk - 1.0), -1.0, 0.3)
        } else {
            (0.05 + 0.1 * (tk - 2.0), 0.1, -1.0, 0.2)
        };
        // rows at the instants of the jumps carry either side's value
        if (tk - 1.0).abs() < 1e-9 || (tk - 2.0).abs() < 1e-6 {
            continue;
        }
        assert!((x[k] - xe).abs() < 1e-7 && (v[k] - ve).abs() < 1e-7, "t {tk}: x {} v {}", x[k], v[k]);
        assert!(
            (fa[k] - fae).abs() < 1e-9 && (fb[k] - fbe).abs() < 1e-9,
            "t {tk}: F.a {} F.b {}",
            fa[k],
            fb[k]
        );
        assert!(fa[k].abs() <= 1.0 + 1e-12 && fb[k].abs() <= 0.3 + 1e-12);
    }
    assert!(out.warnings.iter().any(|w| w.contains("close a loop")), "{:?}", out.warnings);
}

/// A ring of stuck contacts: m1 and m2 each on a ground contact (Fs 1.0),
/// joined by a weak contact (0.1); m1 pushed by 0.5 + 0.5 t. The least-norm
/// split of the loop: the weak contact at its capacity (unclamped it would
/// carry a third of the push), m1's ground contact the rest, m2's ground
/// contact the weak one's 0.1. The loop can hold m1 with 1.0 + 0.1 = 1.1 N:
/// it breaks away at t = 1.2 s exactly, and m1 slides with a = 0.5 t - 0.6,
/// v = 0.25 (t - 1.2)², while m2 stays stuck.
#[test]
fn ring_of_stuck_contacts_never_exceeds_a_capacity_and_breaks_away_on_time() {
    let out = run(r#"
name = "ring"
[[body]]
name = "m1"
mass = 1.0
[[body]]
name = "m2"
mass = 2.0
[[force]]
on = "m1"
value = { type = "ramp", rate = 0.5, offset = 0.5 }
[[contact]]
name = "c1"
between = ["m1", "ground"]
model = "coulomb"
params = { fc = 1.0 }
[[contact]]
name = "c2"
between = ["m2", "ground"]
model = "coulomb"
params = { fc = 1.0 }
[[contact]]
name = "c12"
between = ["m1", "m2"]
model = "coulomb"
params = { fc = 0.1 }
[solver]
t_end = 2.0
output_dt = 0.01
"#);
    let (t, v1, v2) = (col(&out, "t"), col(&out, "v.m1"), col(&out, "v.m2"));
    let (f1, f2, f12) = (col(&out, "F.c1"), col(&out, "F.c2"), col(&out, "F.c12"));
    for k in 0..t.len() {
        let tk = t[k];
        let push = 0.5 + 0.5 * tk;
        if tk < 1.2 - 1e-9 {
            assert!((f12[k] + 0.1).abs() < 1e-9, "t {tk}: F.c12 {}", f12[k]);
            assert!((f1[k] + push - 0.1).abs() < 1e-9, "t {tk}: F.c1 {}", f1[k]);
            assert!((f2[k] + 0.1).abs() < 1e-9, "t {tk}: F.c2 {}", f2[k]);
            assert_eq!(v1[k], 0.0);
        } else if tk > 1.2 + 1e-9 {
            assert!((v1[k] - 0.25 * (tk - 1.2).powi(2)).abs() < 1e-7, "t {tk}: v.m1 {}", v1[k]);
            assert!((f1[k] + 1.0).abs() < 1e-12 && (f12[k] + 0.1).abs() < 1e-12);
        }
        assert_eq!(v2[k], 0.0, "m2 stays stuck");
        assert!(f1[k].abs() <= 1.0 + 1e-12 && f2[k].abs() <= 1.0 + 1e-12 && f12[k].abs() <= 0.1 + 1e-12);
    }
    let brk = out.events.iter().find(|e| e.contact == "c1" && e.from == "stuck").expect("c1 breaks away");
    // the break-away root sits a relative 1e-9 above N Fs (so that a
    // contact stuck at its limit starts on the positive side): 1e-9 N at
    // 0.5 N/s is 2e-9 s
    assert!((brk.t - 1.2).abs() < 3e-9, "break-away at {}", brk.t);
}

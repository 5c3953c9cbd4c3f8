//! A contact whose normal load is a gap's force (`normal_gap`): the
//! friction's capacity follows the motion of a body pressed onto a
//! compliant floor, and lifting off takes the friction away (issue 45's
//! first step: separation and a varying normal load in the time domain).

use std::path::Path;

use friction_sim::{scenario, simulate, Outcome, SimError, SolverSettings, System};

fn run(text: &str) -> Outcome {
    let sys = scenario::parse(text, "normal_gap.toml", Path::new(".")).unwrap();
    let out = simulate(&sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    out
}

/// A 2 kg block resting on a floor of stiffness c at its static
/// penetration m g / c, pushed sideways by a force rising at r N/s: it
/// sticks until the push reaches Fs m g, at t* = Fs m g / r, as with the
/// load m g given as a constant; every stuck row within the capacity.
#[test]
fn a_block_resting_on_a_compliant_floor_breaks_away_at_fs_m_g() {
    let (m, g, c, fs, r) = (2.0, 9.81, 1e5, 0.4, 2.0);
    let floor = |normal: &str| {
        format!(
            r#"
[[body]]
name = "block"
mass = {m}
[[body]]
name = "block_y"
mass = {m}
x0 = {y0:e}
[[force]]
name = "gravity"
on = "block_y"
value = {w}
[[force]]
name = "push"
on = "block"
value = {{ type = "ramp", rate = {r} }}
[[gap]]
name = "floor"
between = ["ground", "block_y"]
stiffness = {c:e}
damping = 50.0
[[contact]]
name = "c"
between = ["block", "ground"]
model = "coulomb"
params = {{ fc = 0.3, fs = {fs} }}
{normal}
[solver]
t_end = 5.0
output_dt = 0.01
"#,
            y0 = -m * g / c,
            w = -m * g,
        )
    };
    let t_star = fs * m * g / r;
    let breakaway = |out: &Outcome| {
        out.events.iter().find(|e| e.contact == "c" && e.from == "stuck").map(|e| e.t).expect("breaks away")
    };
    let by_gap = run(&floor("normal_gap = \"floor\""));
    let given = run(&floor(&format!("normal = {}", m * g)));
    let (a, b) = (breakaway(&by_gap), breakaway(&given));
    // (the break-away margin is 1e-9 of the capacity: docs/scenario.md)
    assert!((a - t_star).abs() < 2e-9 * t_star, "break-away at {a} s, closed form {t_star} s");
    assert!((a - b).abs() < 1e-9, "by the gap {a} s, with the load given {b} s");
    // stuck rows: the contact carries the push, within Fs N
    let (t, f, n) = (by_gap.series("t"), by_gap.series("F.c"), by_gap.series("F.floor"));
    for ((&t, &f), &n) in t.iter().zip(&f).zip(&n) {
        assert!((n - m * g).abs() < 1e-6 * m * g, "t = {t}: floor force {n}");
        if t < t_star {
            assert!((f + r * t).abs() < 1e-9 * (1.0 + r * t), "t = {t}: stuck force {f}, push {}", r * t);
            assert!(f.abs() <= fs * n * (1.0 + 1e-9), "t = {t}: {f} beyond Fs N = {}", fs * n);
        }
    }
}

/// examples/bouncing_block.toml: thrown sideways onto the floor, the block
/// bounces. At every row the friction force is Fc times the floor's force
/// against the slip (0 in flight), the block sticks once it stops, each
/// bounce takes Fc J / m off the sliding speed (J the bounce's impulse,
/// from the vertical velocity and gravity over the bounce), and the
/// energy balance closes. Its `state.c` is 0 exactly where the load is 0,
/// 1 (stuck) only at rest, 2 otherwise, and all three occur.
#[test]
fn a_bouncing_block_carries_fc_times_the_floor_force_and_none_in_flight() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/bouncing_block.toml");
    let mut sys = scenario::load(&path).unwrap();
    let fc = 0.3;
    // rows at every event too, to read each bounce's velocities
    let first = simulate(&sys).unwrap();
    let mut times: Vec<f64> = (0..=600).map(|k| k as f64 * 1e-3).collect();
    times.extend(first.events.iter().map(|e| e.t));
    times.sort_by(f64::total_cmp);
    times.dedup();
    sys.solver.output_times = Some(times);
    let out = simulate(&sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    let (v, f, n) = (out.series("v.block"), out.series("F.c"), out.series("F.floor"));
    // the contact's load column N.c is the floor's force (normal = 1)
    assert_eq!(out.series("N.c"), n, "N.c against F.floor");
    let units = friction_sim::units::column_units(&sys);
    let col = out.columns.iter().position(|c| c == "N.c").unwrap();
    assert_eq!(units[col], "N");
    // state.c: 0 exactly where the load is 0, 1 (stuck) only at rest, 2 otherwise
    let state = out.series("state.c");
    assert_eq!(units[out.columns.iter().position(|c| c == "state.c").unwrap()], "1");
    let mut seen = [0; 3];
    for ((&s, &n), &v) in state.iter().zip(&n).zip(&v) {
        assert_eq!(s == 0.0, n == 0.0, "state {s} with load {n}");
        assert!(s != 1.0 || v == 0.0, "stuck at v = {v}");
        seen[s as usize] += 1;
    }
    assert!(seen.iter().all(|&k| k > 10), "rows open, stuck, sliding: {seen:?}");
    let mut flying = 0;
    for ((&v, &f), &n) in v.iter().zip(&f).zip(&n) {
        if n == 0.0 {
            flying += 1;
            assert_eq!(f, 0.0, "a force in flight");
        } else if v.abs() > 1e-9 {
            assert!(
                (f + fc * n * v.signum()).abs() <= 1e-9 * (1.0 + n),
                "sliding: F = {f}, Fc N = {}",
                fc * n
            );
        }
    }
    assert!(flying > 300, "{flying} rows in flight");
    // each bounce while sliding: the sliding speed's drop is Fc / m times
    // the impulse, m (Δv_y + g Δt)
    let (m, g) = (sys.bodies[0].mass, 9.81);
    let t = out.series("t");
    let vy = out.series("v.block_y");
    let at = |te: f64| t.iter().position(|&x| x == te).expect("a row at the event");
    // the contact's phases: engaged by the floor's force turning positive,
    // free where it falls to zero
    let phases: Vec<&friction_sim::Event> = out.events.iter().filter(|e| e.contact == "c").collect();
    let mut bounces = 0;
    for w in phases.windows(2) {
        let (a, b) = (w[0], w[1]);
        if (a.from.as_str(), a.to.as_str(), b.from.as_str(), b.to.as_str())
            != ("free", "forward", "forward", "free")
        {
            continue;
        }
        let (i, j) = (at(a.t), at(b.t));
        let impulse = m * (vy[j] - vy[i] + g * (b.t - a.t));
        let drop = v[i] - v[j];
        assert!(
            (drop - fc * impulse / m).abs() < 1e-6,
            "bounce at {}: drop {drop}, Fc J / m {}",
            a.t,
            fc * impulse / m
        );
        bounces += 1;
    }
    assert_eq!(bounces, 4, "bounces while sliding");
    assert_eq!(*v.last().unwrap(), 0.0, "stopped");
    let e = &out.energy;
    assert!(e.residual.abs() < 1e-6 * e.dissipated_total(), "energy residual {}", e.residual);
}

/// `normal_gap` naming no gap is refused with the contact, the key's line
/// and the gaps there are; the builder gives the same message.
#[test]
fn a_normal_gap_naming_no_gap_is_refused() {
    let text = r#"
[[body]]
name = "b"
mass = 1.0
[[gap]]
name = "floor"
between = ["ground", "b"]
stiffness = 1e3
[[contact]]
name = "c"
between = ["b", "ground"]
model = "coulomb"
normal_gap = "flor"
[solver]
t_end = 1.0
"#;
    let e = scenario::parse(text, "bad.toml", Path::new(".")).unwrap_err();
    let SimError::Input { line, message, .. } = &e else { panic!("{e:?}") };
    assert_eq!(*line, Some(13), "{e}");
    assert!(message.contains("`normal_gap` = \"flor\" names no gap (gaps: floor)"), "{message}");
    let b = System::builder("b")
        .body("b", 1.0)
        .gap("floor", ("ground", "b"), friction_sim::GapSpec::new(1e3))
        .contact("c", ("b", "ground"), friction_models::CoulombParams::default())
        .normal_gap("c", "flor")
        .solver(SolverSettings::with_t_end(1.0))
        .build()
        .unwrap_err();
    assert!(b.to_string().contains("`normal_gap` = \"flor\" names no gap (gaps: floor)"), "{b}");
}

//! Exact stick/slip at any scale (the regressions of the engine issue, each
//! named by its symptom): many contacts changing mode at once, coupled
//! contacts, turning points of hysteresis contacts inside a step, and
//! disengaged contacts.

use friction_sim::scenario::parse;
use friction_sim::{simulate, Outcome};
use std::f64::consts::PI;
use std::fmt::Write;
use std::path::Path;

fn run_text(text: &str) -> Outcome {
    let sys = parse(text, "test.toml", Path::new(".")).unwrap();
    let out = simulate(&sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    out
}

/// `n` separate unit masses at rest, each pushed by `f` on its own Coulomb
/// contact of capacity `fc`; optionally joined by springs into a chain.
fn pushed_masses(n: usize, f: f64, fc: f64, spring: Option<f64>) -> String {
    let mut s = String::from("name = \"pushed\"\n");
    for i in 0..n {
        writeln!(s, "[[body]]\nname = \"m{i}\"\nmass = 1.0").unwrap();
        writeln!(s, "[[force]]\nname = \"p{i}\"\non = \"m{i}\"\nvalue = {f:?}").unwrap();
        writeln!(s, "[[contact]]\nname = \"c{i}\"\nbetween = [\"m{i}\", \"ground\"]\nmodel = \"coulomb\"\nparams = {{ fc = {fc:?} }}").unwrap();
        if let (Some(k), true) = (spring, i > 0) {
            writeln!(
                s,
                "[[spring]]\nname = \"k{i}\"\nbetween = [\"m{}\", \"m{i}\"]\nstiffness = {k:?}",
                i - 1
            )
            .unwrap();
        }
    }
    s.push_str("[solver]\nt_end = 1.0\noutput_dt = 0.1\nrtol = 1e-9\natol = { position = 1e-12, velocity = 1e-12 }\n");
    s
}

/// Thirteen masses pushed by 1 N against 0.5 N all slide: x(1) = 0.25 m.
/// The old enumeration froze them all (more than 12 contacts at once).
#[test]
fn thirteen_overloaded_masses_slide_instead_of_freezing() {
    let out = run_text(&pushed_masses(13, 1.0, 0.5, None));
    for i in 0..13 {
        let x = out.last(&format!("x.m{i}"));
        assert!((x - 0.25).abs() < 1e-6, "m{i}: x(1) = {x}");
        // the contact carries exactly its capacity, never more
        let f = out.series(&format!("F.c{i}"));
        assert!(f.iter().all(|f| f.abs() <= 0.5 * (1.0 + 1e-12)), "c{i}: {f:?}");
    }
    assert!(out.events.iter().all(|e| e.to != "stuck"), "{:?}", out.events);
    assert_eq!(out.stats.lcp_max_size, 1, "separate masses are separate problems");
}

/// A chain of 64 masses joined by springs, every contact overloaded at the
/// same instant: everything slides together, x(1) = 0.25 m, springs idle.
#[test]
fn overloaded_chain_of_64_slides_with_the_closed_form() {
    let out = run_text(&pushed_masses(64, 1.0, 0.5, Some(1e3)));
    for i in 0..64 {
        let x = out.last(&format!("x.m{i}"));
        assert!((x - 0.25).abs() < 1e-6, "m{i}: x(1) = {x}");
    }
    assert!(out.events.iter().all(|e| e.to != "stuck"));
}

/// A chain of 64 masses each held by 2 N against a push of 1 N stays stuck
/// exactly, with every contact carrying exactly the push.
#[test]
fn underloaded_chain_of_64_stays_exactly_stuck() {
    let out = run_text(&pushed_masses(64, 1.0, 2.0, Some(1e3)));
    for i in 0..64 {
        assert_eq!(out.last(&format!("x.m{i}")), 0.0);
        assert!((out.last(&format!("F.c{i}")) + 1.0).abs() < 1e-12);
    }
}

/// A stack of `n` unit masses, contact k between mass k and the one below
/// (mass 0 on the ground) with capacity `cap(k)`; the top is pushed by `f`.
fn stack(n: usize, f: f64, cap: impl Fn(usize) -> f64) -> String {
    let mut s = String::from("name = \"stack\"\n");
    for k in 0..n {
        writeln!(s, "[[body]]\nname = \"m{k}\"\nmass = 1.0").unwrap();
        let below = if k == 0 { "ground".to_string() } else { format!("m{}", k - 1) };
        writeln!(s, "[[contact]]\nname = \"c{k}\"\nbetween = [\"m{k}\", \"{below}\"]\nmodel = \"coulomb\"\nparams = {{ fc = {:?} }}", cap(k)).unwrap();
    }
    writeln!(s, "[[force]]\nname = \"push\"\non = \"m{}\"\nvalue = {f:?}", n - 1).unwrap();
    s.push_str("[solver]\nt_end = 1.0\noutput_dt = 0.1\nrtol = 1e-9\natol = { position = 1e-12, velocity = 1e-12 }\n");
    s
}

/// Twenty coupled contacts (a stack, each contact sharing its bodies with
/// the next): the weakest one slips, the others stick, as statics says.
#[test]
fn coupled_stack_of_20_slips_only_at_its_weakest_contact() {
    // weakest at the top: only the top mass moves, a = (1.5 - 1)/1
    let out = run_text(&stack(20, 1.5, |k| 1.0 + 0.1 * (19 - k) as f64));
    assert!((out.last("x.m19") - 0.25).abs() < 1e-6, "top x = {}", out.last("x.m19"));
    for k in 0..19 {
        assert_eq!(out.last(&format!("x.m{k}")), 0.0, "m{k} moved");
    }
    // weakest at the bottom: the whole stack slides as one, a = 0.5 / 20
    let out = run_text(&stack(20, 1.5, |k| 1.0 + 0.1 * k as f64));
    for k in 0..20 {
        let x = out.last(&format!("x.m{k}"));
        assert!((x - 0.5 * 0.5 / 20.0).abs() < 1e-7, "m{k}: x = {x}");
    }
    assert!(out.stats.lcp_max_size >= 20, "the stack is one coupled problem");
}

/// Energy per cycle of a contact driven by `u0 sin(2π f t)` with the
/// default solver settings: the difference of two runs two cycles apart,
/// both ending at the top of a cycle.
fn dissipation_per_cycle(model: &str, params: &str, u0: f64) -> f64 {
    let f = 10.0;
    let e = |cycles: f64| {
        let text = format!(
            "[[driver]]\nname = \"u\"\nmotion = {{ type = \"sine\", amplitude = {u0:?}, frequency = {f:?} }}\n\
             [[contact]]\nname = \"j\"\nbetween = [\"u\", \"ground\"]\nmodel = \"{model}\"\nparams = {params}\n\
             [solver]\nt_end = {:?}\n",
            (cycles + 0.25) / f
        );
        run_text(&text).energy.contacts[0].1
    };
    (e(3.0) - e(1.0)) / 2.0
}

/// Jenkins under a sine with default settings (max step t_end/10): a
/// reversal inside a step used to be lost. Closed form 4 f (u0 - f/k).
#[test]
fn jenkins_loop_keeps_its_turning_points_with_default_steps() {
    let (k, fs, u0) = (1e4, 1.0, 1e-3);
    let d = dissipation_per_cycle("jenkins", &format!("{{ kt = {k:?}, fs = {fs:?} }}"), u0);
    let exact = 4.0 * fs * (u0 - fs / k);
    assert!((d - exact).abs() < 5e-3 * exact, "jenkins: {d} vs {exact}");
}

/// Maxwell-slip: Σ 4 f_i (u0 - f_i/k_i) over the elements that slip.
#[test]
fn maxwell_slip_loop_keeps_its_turning_points_with_default_steps() {
    let el = [(1e4, 0.2), (2e4, 0.5), (5e3, 1.0), (1e3, 2.0)];
    let u0 = 1.5e-3;
    let p = el.iter().map(|(k, f)| format!("[{k:?}, {f:?}]")).collect::<Vec<_>>().join(", ");
    let d = dissipation_per_cycle("maxwell_slip", &format!("{{ elements = [{p}] }}"), u0);
    let exact: f64 = el.iter().filter(|(k, f)| f / k < u0).map(|(k, f)| 4.0 * f * (u0 - f / k)).sum();
    assert!((d - exact).abs() < 5e-3 * exact, "maxwell_slip: {d} vs {exact}");
}

/// Iwan 4 (N = 200 elements) in micro-slip against Segalman's closed form
/// D = 4 R a^(χ+3) / ((χ+2)(χ+3)) (Segalman 2005, J. Appl. Mech. 72).
#[test]
fn iwan4_loop_matches_segalman_with_default_steps() {
    let (fs, kt, chi, beta): (f64, f64, f64, f64) = (1.0, 1e4, -0.5, 0.1);
    let c = beta + (chi + 1.0) / (chi + 2.0);
    let phi_max = fs * (1.0 + beta) / (kt * c);
    let r = fs * (chi + 1.0) / (phi_max.powf(chi + 2.0) * c);
    for a in [0.1 * phi_max, 0.5 * phi_max] {
        let d = dissipation_per_cycle(
            "iwan4",
            &format!("{{ fs = {fs:?}, kt = {kt:?}, chi = {chi:?}, beta = {beta:?}, n = 200 }}"),
            a,
        );
        let exact = 4.0 * r * a.powf(chi + 3.0) / ((chi + 2.0) * (chi + 3.0));
        assert!((d - exact).abs() < 5e-3 * exact, "iwan4 a = {a}: {d} vs {exact}");
    }
}

/// Two bodies at rest joined by a contact without normal load (a clutch
/// before it engages) gave up to a million stick/slip events.
#[test]
fn disengaged_contact_between_resting_bodies_gives_no_events() {
    let text = r#"
[[body]]
name = "a"
mass = 1.0
[[body]]
name = "b"
mass = 1.0
[[contact]]
name = "clutch"
between = ["a", "b"]
model = "coulomb"
params = { fc = 10.0 }
normal = 0.0
[solver]
t_end = 10.0
"#;
    let out = run_text(text);
    assert!(out.events.is_empty(), "{:?}", out.events);
    assert!(out.stats.steps < 100, "{} steps", out.stats.steps);
}

/// A negative normal schedule (a clamped-sine actuator) means disengaged:
/// the contact carries no force while it is negative, and engagement and
/// release happen at the zero crossings.
#[test]
fn negative_normal_load_disengages_at_the_zero_crossings() {
    // a 1 kg mass moving at 1 m/s, braked by a contact engaged by
    // sin(2π 0.5 t) (positive on 0 < t < 1): the mass slows as
    // dv/dt = -fc sin(π t) while engaged, fc = 1
    let text = r#"
[[body]]
name = "m"
mass = 1.0
v0 = 1.0
[[contact]]
name = "brake"
between = ["m", "ground"]
model = "coulomb"
params = { fc = 1.0 }
normal = { type = "sine", amplitude = 1.0, frequency = 0.5, offset = -0.0 }
[solver]
t_end = 1.8
output_dt = 0.01
rtol = 1e-10
atol = { position = 1e-12, velocity = 1e-12 }
"#;
    let out = run_text(text);
    // engaged 0 < t < 1: Δv = -∫ sin(π t) dt = -2/π; free on 1 < t < 2
    let v_end = 1.0 - 2.0 / std::f64::consts::PI;
    assert!((out.last("v.m") - v_end).abs() < 1e-8, "v = {} vs {v_end}", out.last("v.m"));
    let f = out.series("F.brake");
    let t = out.series("t");
    for (ti, fi) in t.iter().zip(&f) {
        if *ti > 1.0 + 1e-9 {
            assert_eq!(*fi, 0.0, "force {fi} at t = {ti} while disengaged");
        }
    }
    let frees: Vec<_> = out.events.iter().filter(|e| e.to == "free").collect();
    assert_eq!(frees.len(), 1, "{:?}", out.events);
    assert!((frees[0].t - 1.0).abs() < 1e-9, "released at {}", frees[0].t);
}

/// The Modelica Standard Library's CoupledClutches set-up: every lock and
/// unlock is one event, the clutches engage and release at the schedule's
/// instants, and a locked clutch has exactly zero slip.
#[test]
fn coupled_clutches_lock_and_unlock_once_each_without_chattering() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/coupled_clutches.toml");
    let sys = friction_sim::scenario::load(&path).unwrap();
    let out = simulate(&sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    // the README's figure: 13 events in 3 s, one per engagement, lock or unlock
    assert_eq!(out.events.len(), 13, "{:?}", out.events);
    for name in ["clutch1", "clutch2", "clutch3"] {
        let ev: Vec<_> = out.events.iter().filter(|e| e.contact == name).collect();
        for w in ev.windows(2) {
            assert_eq!(w[0].to, w[1].from, "{name}: inconsistent log {:?}", ev);
            assert!(w[1].t - w[0].t > 1e-3, "{name} chatters: {:?}", ev);
        }
    }
    let at = |name: &str, to: &str| {
        out.events.iter().find(|e| e.contact == name && e.to == to).map(|e| e.t).unwrap_or(f64::NAN)
    };
    assert!((at("clutch3", "free") - 0.9).abs() < 1e-12);
    assert!((at("clutch1", "free") - 2.5).abs() < 1e-9, "clutch1 released at {}", at("clutch1", "free"));
    let lock2 = at("clutch2", "stuck");
    // until clutch 2 locks, clutch 3 holds J3 and J4 together (inertia 2),
    // clutch 1 slides forward with torque fc N1 = 10 sin(0.4 π t) and
    // clutch 2 from 0.4 s with 10 N m: ω2 = (25/π)(1 - cos 0.4πt) - 10 (t - 0.4),
    // ω34 = 5 (t - 0.4); the lock is where they meet (bisection)
    let gap = |t: f64| 25.0 / PI * (1.0 - (0.4 * PI * t).cos()) - 15.0 * (t - 0.4);
    let (mut lo, mut hi) = (0.45, 0.6);
    assert!(gap(lo) > 0.0 && gap(hi) < 0.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if gap(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    assert!((lock2 - lo).abs() < 1e-8, "clutch2 locks at {lock2}, closed form {lo}");
    // clutch 2 never unlocks after it locked: J2 and J3 turn exactly together
    assert!(out.events.iter().all(|e| !(e.contact == "clutch2" && e.from == "stuck")));
    let (t, v2, v3) = (out.series("t"), out.series("v.J2"), out.series("v.J3"));
    for i in 0..t.len() {
        if t[i] > lock2 + 1e-9 {
            assert_eq!(v2[i], v3[i], "slip in the locked clutch 2 at t = {}", t[i]);
        }
    }
    // released clutch 3 carries nothing: J4 coasts at its speed at 0.9 s
    let v4 = out.series("v.J4");
    let i09 = t.iter().position(|&x| x > 0.9 + 1e-9).unwrap();
    assert!(v4[i09..].iter().all(|&v| v == v4[i09]));
}

/// Ten thousand Iwan elements used to become ten thousand CSV columns held
/// in memory; by default (more than 64 state columns) states are left out,
/// and `states = "all"` or a list of contacts asks for them.
#[test]
fn ten_thousand_element_joint_keeps_its_states_out_of_the_output_by_default() {
    let text = |states: &str| {
        format!(
            "[[driver]]\nname = \"u\"\nmotion = {{ type = \"sine\", amplitude = 1e-5, frequency = 10.0 }}\n\
             [[contact]]\nname = \"j\"\nbetween = [\"u\", \"ground\"]\nmodel = \"iwan4\"\nparams = {{ n = 10000 }}\n\
             [solver]\nt_end = 0.01\noutput_dt = 1e-3\n{states}"
        )
    };
    let out = run_text(&text(""));
    assert_eq!(out.columns, ["t", "x.u", "v.u", "F.j", "s.j", "sv.j"]);
    let out = run_text(&text("states = \"all\"\n"));
    assert!(out.columns.len() > 10_000, "{} columns", out.columns.len());
    assert_eq!(out.rows[0].len(), out.columns.len());
}

/// A long run streams every row to the sink while memory keeps a thinned
/// copy with the last row.
#[test]
fn streamed_run_hands_every_row_to_the_sink_and_keeps_a_bounded_copy() {
    let text = "[[body]]\nname = \"m\"\nmass = 1.0\nv0 = 1.0\n[solver]\nt_end = 10.0\noutput_dt = 1e-4\n";
    let sys = parse(text, "t.toml", Path::new(".")).unwrap();
    let mut streamed: Vec<Vec<f64>> = Vec::new();
    let out = friction_sim::engine::simulate_streaming(
        &sys,
        &mut |r| {
            streamed.push(r.to_vec());
            Ok(())
        },
        None,
    )
    .unwrap();
    assert_eq!(streamed.len(), 100_001);
    assert_eq!(out.stats.rows, 100_001);
    assert!(out.rows.len() <= 2 * friction_sim::engine::KEPT_ROWS, "{} rows kept", out.rows.len());
    assert!(out.rows.len() >= friction_sim::engine::KEPT_ROWS / 2, "{} rows kept", out.rows.len());
    assert_eq!(out.rows.last(), streamed.last());
    assert!((out.last("x.m") - 10.0).abs() < 1e-9);
    // the kept rows are every stride-th streamed row (the stride a power of
    // two), then the last one, values unchanged: a free mass at 1 m/s, x = t
    let stride = 100_000 / (out.rows.len() - 2);
    assert!(stride.is_power_of_two(), "stride {stride}");
    for (k, r) in out.rows[..out.rows.len() - 1].iter().enumerate() {
        assert_eq!(r, &streamed[k * stride], "kept row {k}");
        assert!((r[1] - r[0]).abs() < 1e-9, "kept row {k}: x {} at t {}", r[1], r[0]);
    }
}

//! Regression tests, each named after the symptom it guards against.

use std::path::Path;

use friction_sim::{scenario, simulate, Outcome};

fn run(text: &str) -> Outcome {
    let sys = scenario::parse(text, "regression.toml", Path::new(".")).unwrap();
    let out = simulate(&sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    out
}

/// A stuck Coulomb contact under a force ramping smoothly through Fs must
/// break away exactly when the force reaches Fs (here t = 1 s), and then the
/// mass accelerates as (t - 1) / m, so x(3) = 2³/6. The bug: the root at
/// |λ| = N Fs fired but the stick/slip decision kept the contact stuck, and the
/// mass never moved.
#[test]
fn stuck_contact_breaks_away_when_a_ramped_force_reaches_fs() {
    let out = run(r#"
[[body]]
name = "m"
mass = 1.0
[[force]]
on = "m"
value = { type = "ramp", rate = 1.0 }
[[contact]]
name = "c"
between = ["m", "ground"]
model = "coulomb"
params = { fc = 1.0 }
[solver]
t_end = 3.0
output_dt = 0.5
rtol = 1e-9
"#);
    let ev: Vec<_> = out.events.iter().filter(|e| e.t > 0.0).collect();
    assert_eq!(ev.len(), 1, "{:?}", out.events);
    assert!((ev[0].t - 1.0).abs() < 1e-8 && ev[0].to == "forward");
    assert!((out.last("x.m") - 8.0 / 6.0).abs() < 1e-7, "x(3) = {}", out.last("x.m"));
}

/// Two identical bodies reach their stops in the same instant; both must
/// bounce (restitution 0.5), not only the one whose root the root finder
/// reported. The bug: the second body passed through its stop.
#[test]
fn simultaneous_stop_impacts_are_all_handled() {
    let out = run(r#"
[[body]]
name = "a"
mass = 1.0
v0 = 0.15
[[body]]
name = "b"
mass = 1.0
v0 = 0.15
[[stop]]
body = "a"
min = -0.03
max = 0.03
restitution = 0.5
[[stop]]
body = "b"
min = -0.03
max = 0.03
restitution = 0.5
[solver]
t_end = 0.5
output_dt = 0.05
rtol = 1e-9
atol = { position = 1e-12, velocity = 1e-12 }
"#);
    // impact at 0.2 s, then back at 0.075 m/s for 0.3 s
    for b in ["a", "b"] {
        assert!((out.last(&format!("x.{b}")) - (0.03 - 0.075 * 0.3)).abs() < 1e-9, "{b}");
        assert!((out.last(&format!("v.{b}")) + 0.075).abs() < 1e-12, "{b}");
    }
    assert_eq!(out.events.iter().filter(|e| e.to == "bounce").count(), 2);
}

/// A mass sliding against Coulomb friction into a plastic stop (restitution
/// 0) comes to rest on it: the impact stops the mass, so the sliding contact
/// must come to rest too and stick; friction must not push the mass back off
/// the stop. Impact at x = 0.03 when 0.2 t - 0.1 t² = 0.03.
#[test]
fn plastic_impact_brings_a_sliding_contact_to_rest() {
    let out = run(r#"
[[body]]
name = "m"
mass = 1.0
v0 = 0.2
[[contact]]
name = "c"
between = ["m", "ground"]
model = "coulomb"
params = { fc = 0.2 }
[[stop]]
body = "m"
max = 0.03
restitution = 0.0
[solver]
t_end = 1.0
output_dt = 0.05
rtol = 1e-9
atol = { position = 1e-12, velocity = 1e-12 }
"#);
    let t_hit = (0.2 - (0.04f64 - 0.012).sqrt()) / 0.2;
    let stick = out.events.iter().find(|e| e.contact == "c" && e.to == "stuck").unwrap();
    assert!((stick.t - t_hit).abs() < 1e-8, "{} vs {t_hit}", stick.t);
    assert_eq!(out.last("v.m"), 0.0);
    assert_eq!(out.last("x.m"), 0.03);
}

/// A long BDF run with many velocity reversals of a steep regularised model
/// must not stop on diffsol's run-long count of Newton failures (it did at
/// t = 3.4 s of 20).
#[test]
fn long_bdf_run_with_many_reversals_does_not_fail() {
    let out = run(r#"
[[driver]]
name = "wall"
motion = { type = "sine", amplitude = 0.02, frequency = 2.3873241463784303 }
[[body]]
name = "m"
mass = 1.0
[[spring]]
between = ["m", "wall"]
stiffness = 100.0
[[contact]]
name = "c"
between = ["m", "ground"]
model = "coulomb_sat"
params = { fc = 0.981, ksat = 1000.0 }
[solver]
t_end = 20.0
output_dt = 0.01
method = "bdf"
"#);
    assert!((out.last("t") - 20.0).abs() < 1e-12);
    let e = &out.energy;
    let diss: f64 = e.contacts.iter().map(|c| c.1).sum();
    assert!(e.residual.abs() < 1e-3 * diss, "residual {} of {diss}", e.residual);
}

/// A Karnopp contact breaking away starts inside its zero-velocity band; the
/// root that marks the band's edge then fires as the body speeds *out* of the
/// band, which must not count as arriving at rest. The bug: the contact stuck
/// again at once, and the step size collapsed (200 000 steps for 0.13 s).
/// Here Fs = 1 N is reached by the 0.1 N/s ramp at t = 10 s.
#[test]
fn karnopp_break_away_leaves_its_band_without_sticking_again() {
    let out = run(r#"
[[body]]
name = "m"
mass = 0.01
[[force]]
on = "m"
value = { type = "ramp", rate = 0.1 }
[[contact]]
name = "c"
between = ["m", "ground"]
model = "karnopp"
[solver]
t_end = 11.0
max_steps = 20000
"#);
    let ev: Vec<_> = out.events.iter().filter(|e| e.t > 0.0).collect();
    assert_eq!(ev.len(), 1, "{:?}", out.events);
    assert!((ev[0].t - 10.0).abs() < 1e-6, "break-away at {}", ev[0].t);
    // after break-away: m a = 0.1 t - 1, so v(11) = (0.05 (t² - 100) - (t - 10)) / m at t = 11
    let v_exact = (0.05 * (121.0 - 100.0) - 1.0) / 0.01;
    assert!((out.last("v.m") - v_exact).abs() < 1e-3, "{} vs {v_exact}", out.last("v.m"));
}

/// A wrapper around a model with continuous states (stochastic noise on
/// LuGre) must build into a system: the engine asked the model for its
/// maximum static force with empty state slices, and the wrapper panicked.
#[test]
fn wrapper_with_inner_states_runs_in_a_system() {
    let out = run(r#"
[[body]]
name = "m"
mass = 1.0
[[force]]
on = "m"
value = 2.0
[[contact]]
name = "c"
between = ["m", "ground"]
model = "stochastic"
params = { std = 0.01, frequency = 50.0, inner = { model = "lugre" } }
[solver]
t_end = 1.0
output_dt = 1e-4
"#);
    // impulse and momentum: m v(1) = ∫ (2 N + F.c) dt over the rows (F.c
    // is the force on the body), so the force column is the one that moved it
    let (t, f, v) = (out.series("t"), out.series("F.c"), out.series("v.m"));
    let impulse: f64 = (1..t.len()).map(|i| (t[i] - t[i - 1]) * (4.0 + f[i] + f[i - 1]) / 2.0).sum();
    assert!((impulse - v[v.len() - 1]).abs() < 1e-4, "impulse {impulse} vs momentum {}", v[v.len() - 1]);
    // the noise (0.01 N about 50 Hz) moves the result of plain LuGre by no
    // more than its integral, about A sqrt(2M) / (2π f_min) = 5e-4 m/s
    let plain = run(r#"
[[body]]
name = "m"
mass = 1.0
[[force]]
on = "m"
value = 2.0
[[contact]]
name = "c"
between = ["m", "ground"]
model = "lugre"
[solver]
t_end = 1.0
output_dt = 1e-4
"#);
    let dv = (out.last("v.m") - plain.last("v.m")).abs();
    assert!(dv < 1e-3 && dv > 0.0, "noise moved v(1) by {dv}");
    // a 2 N push against a 1 N Coulomb level: it slides
    assert!(plain.last("v.m") > 0.5);
}

/// A hopeless run (tanh-regularised Coulomb with ktanh = 1e9 on a 1 kg,
/// 100 N/m oscillator) used to run for minutes without a word: it stops at
/// the step budget, and the message names what made the steps small. (With
/// the exact Jacobian the run needs about 1,100 steps, so the budget here is
/// 200; the next test checks the whole run.)
#[test]
fn hopeless_stiff_run_stops_at_the_step_budget_naming_the_stiff_parts() {
    assert_eq!(friction_sim::scenario::DEFAULT_MAX_STEPS, 1_000_000);
    let text = steep_tanh(200);
    let sys = scenario::parse(&text, "regression.toml", Path::new(".")).unwrap();
    let out = simulate(&sys).unwrap();
    let f = out.failure.expect("the run must stop at the budget");
    for needle in ["max_steps = 200", "spring `k`", "smallest mass `m`", "contact `c` (`coulomb_tanh`)"] {
        assert!(f.contains(needle), "missing {needle:?} in: {f}");
    }
}

/// Steep regularisation used to crawl: a finite-difference Jacobian of
/// tanh(1e9 v) is wrong near v = 0, so every step near rest failed Newton.
/// With the models' exact partial derivatives the same oscillator finishes
/// in under 2,000 steps, comes to rest at the spring's zero (the free decay
/// of Coulomb friction 0.5 N on 100 N/m from 0.1 m loses 0.02 m per cycle
/// and ends at 0 after exactly five cycles), and dissipates all of its
/// 0.5 J.
#[test]
fn steep_tanh_regularisation_no_longer_crawls() {
    let text = steep_tanh(2000);
    let sys = scenario::parse(&text, "regression.toml", Path::new(".")).unwrap();
    let out = simulate(&sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    assert!(out.stats.steps < 2000, "{} steps", out.stats.steps);
    assert!(out.last("x.m").abs() < 1e-5, "x = {}", out.last("x.m"));
    let e = &out.energy;
    let dissipated: f64 = e.contacts.iter().map(|c| c.1).sum();
    assert!((dissipated - 0.5).abs() < 1e-4, "dissipated {dissipated} J");
}

/// A 1 kg mass on a 100 N/m spring released from 0.1 m against
/// tanh-regularised Coulomb friction (0.5 N, ktanh = 1e9), 10 s.
fn steep_tanh(max_steps: u32) -> String {
    format!(
        r#"
[[body]]
name = "m"
mass = 1.0
x0 = 0.1
[[spring]]
name = "k"
between = ["m", "ground"]
stiffness = 100.0
[[contact]]
name = "c"
between = ["m", "ground"]
model = "coulomb_tanh"
params = {{ fc = 0.5, ktanh = 1e9 }}
[solver]
t_end = 10.0
max_steps = {max_steps}
"#
    )
}

/// Smooth contacts (here a tanh-regularised Coulomb law) can never reverse a
/// set-valued sliding mode, yet every accepted step evaluated the whole
/// network once more to look for such a reversal: a quarter of a chain's
/// evaluations. Now the evaluations are the Newton iterations, the output
/// rows and a few at the start; the new Newton and factorisation counts are
/// reported, and explicit methods report none.
#[test]
fn smooth_contacts_cost_no_extra_evaluation_per_step() {
    let chain = |method: &str| {
        let mut s = String::from("[[driver]]\nname = \"pull\"\nmotion = { type = \"ramp\", rate = 0.1 }\n");
        for i in 0..3 {
            let prev = if i == 0 { "pull".to_string() } else { format!("m{}", i - 1) };
            s += &format!(
                "[[body]]\nname = \"m{i}\"\nmass = 1.0\n[[spring]]\nbetween = [\"{prev}\", \"m{i}\"]\nstiffness = 100.0\n\
                 [[contact]]\nname = \"c{i}\"\nbetween = [\"m{i}\", \"ground\"]\nmodel = \"coulomb_tanh\"\n\
                 params = {{ fc = 1.0, ktanh = 1000.0 }}\n"
            );
        }
        s + &format!("[solver]\nt_end = 2.0\noutput_dt = 0.01\nmethod = \"{method}\"\n")
    };
    let out = run(&chain("bdf"));
    let st = &out.stats;
    assert!(st.steps > 50, "{st:?}");
    assert!(st.newton_iterations >= st.steps, "{st:?}");
    assert!(
        st.factorisations >= 1 && st.factorisations <= st.steps + st.rejected + st.newton_failures + 1,
        "{st:?}"
    );
    assert!(st.rhs_evals <= st.newton_iterations + st.rows + 10, "{st:?}");
    let out = run(&chain("tsit45"));
    let st = &out.stats;
    assert_eq!((st.newton_iterations, st.factorisations, st.newton_failures), (0, 0, 0), "{st:?}");
}

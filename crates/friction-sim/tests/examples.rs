//! The example scenarios of `examples/` run as physics checks. Each test loads
//! one example, simulates it and compares what it shows with numbers computed
//! here independently: closed forms where they exist (Coulomb half-cycles, Den
//! Hartog's steady state, Masing's rules, Dahl branches, the Hess-Soom delay, a
//! linear damper), else a fixed-step integration of the same equations. Every
//! test also checks that the energy balance residual is small compared with the
//! energy the example dissipates.

use std::f64::consts::PI;
use std::path::Path;

use friction_sim::{scenario, simulate, Outcome};

fn run(name: &str) -> Outcome {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name);
    let sys = scenario::load(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let out = simulate(&sys).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(out.failure.is_none(), "{name}: {:?}", out.failure);
    out
}

/// Energy dissipated (and, for elastic contact models, stored) in contacts,
/// dampers and impacts.
fn dissipated(out: &Outcome) -> f64 {
    out.energy.contacts.iter().map(|c| c.1).sum::<f64>()
        + out.energy.dampers.iter().map(|c| c.1).sum::<f64>()
        + out.energy.gaps.iter().map(|c| c.1).sum::<f64>()
        + out.energy.impacts
}

/// Work in = stored + dissipated, to `rel` of what was dissipated.
fn assert_energy_balance(name: &str, out: &Outcome, rel: f64) {
    let diss = dissipated(out);
    assert!(diss > 0.0, "{name}: nothing dissipated ({diss})");
    assert!(
        out.energy.residual.abs() < rel * diss,
        "{name}: energy residual {} vs dissipated {diss}",
        out.energy.residual
    );
}

/// Linear interpolation of column `col` at time `t`.
fn at(out: &Outcome, col: &str, t: f64) -> f64 {
    let ts = out.series("t");
    let ys = out.series(col);
    let i = ts.partition_point(|&s| s <= t).clamp(1, ts.len() - 1);
    let (t0, t1) = (ts[i - 1], ts[i]);
    ys[i - 1] + (ys[i] - ys[i - 1]) * (t - t0) / (t1 - t0)
}

fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |m, x| m.max(x.abs()))
}

fn max_abs_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).fold(0.0, |m, (x, y)| m.max((x - y).abs()))
}

/// Half the peak-to-peak range of column `col` over `t0 <= t <= t1`.
fn half_range(out: &Outcome, col: &str, t0: f64, t1: f64) -> f64 {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for (t, x) in out.series("t").into_iter().zip(out.series(col)) {
        if t >= t0 && t <= t1 {
            lo = lo.min(x);
            hi = hi.max(x);
        }
    }
    0.5 * (hi - lo)
}

/// Times where column `col` changes sign (linear interpolation).
fn zero_crossings(out: &Outcome, col: &str) -> Vec<f64> {
    let t = out.series("t");
    let y = out.series(col);
    let mut z = Vec::new();
    for i in 1..t.len() {
        if y[i - 1] * y[i] < 0.0 {
            z.push(t[i - 1] + (t[i] - t[i - 1]) * y[i - 1] / (y[i - 1] - y[i]));
        }
    }
    z
}

// ---------------------------------------------------------------- Andersson, Söderberg, Björklund 2007, 1-DOF system

const FC: f64 = 0.981; // μ m g
const K: f64 = 100.0;
const DELTA: f64 = 1e-5;
const REGULARISED: [&str; 4] = ["coulomb_sat", "coulomb_tanh", "stribeck_sat", "stribeck_tanh"];

/// Small step (0.5 N < Fc): true stick holds the mass exactly still and the
/// micro-slip models settle within a few δ, while the regularised models creep
/// on towards the wall (Andersson, Söderberg, Björklund 2007 section 2.3). coulomb_sat never leaves its
/// linear band |v| < 1/ksat here, so it is exactly the linear damper
/// c = Fc ksat = 981 N s/m, whose step response is known in closed form.
#[test]
fn andersson_small_step_regularised_models_drift_while_stick_and_micro_slip_hold() {
    let out = run("andersson_step_small.toml");
    let (t1, t2) = (5.0, 10.0);
    let drift = |b: &str| at(&out, &format!("x.{b}"), t2) - at(&out, &format!("x.{b}"), t1);

    for b in ["coulomb", "stribeck"] {
        assert_eq!(max_abs(&out.series(&format!("x.{b}"))), 0.0, "{b} moved");
        // the stuck contact carries the whole spring force k 0.005 (on the mass: -0.5 N)
        let f = out.series(&format!("F.{b}"));
        assert!(f.iter().all(|f| (f + 0.5).abs() < 1e-12), "{b}: stuck force not -0.5 N");
    }
    for b in REGULARISED {
        assert!(drift(b) > 5e-4, "{b} drifted only {} m in [{t1}, {t2}] s", drift(b));
    }
    assert!(drift("lugre").abs() < 1e-12, "lugre drifted {}", drift("lugre"));
    for b in ["dankowicz", "dahl"] {
        assert!(drift(b).abs() < 2.0 * DELTA, "{b} drifted {}", drift(b));
    }
    // the velocity-weakening g(v) of eq. 20 keeps its micro-slip ringing alive: it
    // ratchets more than Dankowicz, still half an order below the regularised models
    let sd = drift("stribeck_dankowicz").abs();
    assert!(sd < 2e-4 && sd > drift("dankowicz").abs(), "stribeck_dankowicz drifted {sd}");
    // Dahl (i = 1, σ0 = Fc/δ) is the Dankowicz equation (Andersson, Söderberg, Björklund 2007 after eq. 18)
    assert!(max_abs_diff(&out.series("x.dahl"), &out.series("x.dankowicz")) < 1e-10);

    // coulomb_sat: m x'' + c x' + k x = k X0 from rest, overdamped
    assert!(max_abs(&out.series("v.coulomb_sat")) < 1e-3, "left the linear band of sat");
    let (c, x0) = (FC * 1000.0, 0.005);
    let disc = (c * c - 4.0 * K).sqrt();
    let (r1, r2) = ((-c + disc) / 2.0, (-c - disc) / 2.0);
    let exact = |t: f64| x0 * (1.0 - (r2 * (r1 * t).exp() - r1 * (r2 * t).exp()) / (r2 - r1));
    let ts = out.series("t");
    let xs = out.series("x.coulomb_sat");
    let err = ts.iter().zip(&xs).fold(0.0f64, |m, (&t, &x)| m.max((x - exact(t)).abs()));
    assert!(err < 1e-7, "coulomb_sat differs from the linear damper by {err} m");

    assert_energy_balance("andersson_step_small", &out, 1e-4);
}

/// Large step (5 N): the true-stick Coulomb mass makes three half-cycles of
/// π/10 s about centres shifted by ±Fc/k and stops for good at t = 3π/10 with
/// x = 0.05 - 0.00886 m; the regularised models creep on afterwards.
#[test]
fn andersson_large_step_coulomb_stops_at_the_closed_form_position_and_others_creep() {
    let out = run("andersson_step_large.toml");
    // closed form: amplitude about the wall drops by 2 Fc/k per half period
    let d = FC / K;
    let mut u: f64 = -0.05; // x - x0 at rest
    let mut half_cycles = 0;
    while u.abs() > d {
        u = -u.signum() * (u.abs() - 2.0 * d);
        half_cycles += 1;
    }
    assert_eq!(half_cycles, 3);
    let x_final = 0.05 + u;
    let t_stop = half_cycles as f64 * PI / 10.0;

    let ev: Vec<_> = out.events.iter().filter(|e| e.contact == "coulomb" && e.t > 0.0).collect();
    assert_eq!(ev.len(), 3, "{ev:?}");
    for (k, e) in ev.iter().enumerate() {
        assert!((e.t - (k + 1) as f64 * PI / 10.0).abs() < 1e-7, "coulomb event {k} at {}", e.t);
    }
    assert_eq!(ev[2].to, "stuck");
    assert!((out.last("x.coulomb") - x_final).abs() < 1e-9, "{} vs {x_final}", out.last("x.coulomb"));
    for ((t, x), v) in out.series("t").into_iter().zip(out.series("x.coulomb")).zip(out.series("v.coulomb")) {
        if t > t_stop + 1e-6 {
            assert_eq!(v, 0.0, "coulomb not at rest at t = {t}");
            assert!((x - x_final).abs() < 1e-9);
        }
    }
    // all the spring energy lost went into the Coulomb contact
    let coulomb_work = out.energy.contacts.iter().find(|c| c.0 == "coulomb").unwrap().1;
    let expected = 0.5 * K * (0.05f64.powi(2) - u * u);
    assert!((coulomb_work - expected).abs() < 1e-6 * expected, "{coulomb_work} vs {expected}");

    for b in REGULARISED {
        let drift = out.last(&format!("x.{b}")) - at(&out, &format!("x.{b}"), 5.0);
        assert!(drift > 1e-3, "{b} drifted only {drift} m in [5, 10] s");
    }
    assert_energy_balance("andersson_step_large", &out, 1e-4);
}

/// Den Hartog's steady state of the Coulomb-damped, spring-driven oscillator:
/// X = A sqrt(1/(1 - β²)² - (r tan(π/(2β))/β)²), r = Fc/(k A). Started on that
/// orbit, the true-stick mass slides without a stop, reverses every half
/// period, and every other model stays within a few per cent of it.
#[test]
fn andersson_sine_coulomb_follows_den_hartog_and_all_models_agree_in_sliding() {
    let out = run("andersson_sine.toml");
    let (a, beta): (f64, f64) = (0.02, 1.5);
    let r = FC / (K * a);
    let x_dh =
        a * (1.0 / (1.0 - beta * beta).powi(2) - (r * (PI / (2.0 * beta)).tan() / beta).powi(2)).sqrt();
    let half_period = PI / 15.0;

    let ev: Vec<_> = out.events.iter().filter(|e| e.contact == "coulomb").collect();
    assert!(ev.iter().all(|e| e.to != "stuck" || e.t == 0.0), "coulomb stuck: {ev:?}");
    let reversals: Vec<_> = ev.iter().filter(|e| e.t > 0.0).collect();
    assert!(reversals.len() >= 40);
    for (k, e) in reversals.iter().enumerate() {
        let expect = (k + 1) as f64 * half_period;
        assert!((e.t - expect).abs() < 1e-8, "reversal {k} at {} (expected {expect})", e.t);
    }
    // amplitude over the last two periods, sampled every 1 ms (a peak is missed by
    // at most a (0.5 ms)² / 2, a few 1e-5 of X)
    let period = 2.0 * half_period;
    let t_end = out.last("t");
    let amp = half_range(&out, "x.coulomb", t_end - 2.0 * period, t_end);
    assert!((amp / x_dh - 1.0).abs() < 1e-4, "coulomb amplitude {amp} vs Den Hartog {x_dh}");
    for b in [
        "coulomb_sat",
        "coulomb_tanh",
        "stribeck",
        "stribeck_sat",
        "stribeck_tanh",
        "dankowicz",
        "dahl",
        "lugre",
        "stribeck_dankowicz",
    ] {
        let amp = half_range(&out, &format!("x.{b}"), t_end - 2.0 * period, t_end);
        assert!((amp / x_dh - 1.0).abs() < 0.06, "{b}: amplitude {amp} vs {x_dh}");
    }
    assert!(max_abs_diff(&out.series("x.dahl"), &out.series("x.dankowicz")) < 1e-10);
    assert_energy_balance("andersson_sine", &out, 1e-4);
}

/// Chirp of the wall with k A = 0.5 N < Fc up to 100 Hz: true stick never
/// moves; the regularised models follow the wall beyond the micro-slip range;
/// the micro-slip models stay within it, Dankowicz ringing near its linear
/// micro-slip resonance sqrt((k + Fc/δ)/m)/(2π) = 49.9 Hz and LuGre damped.
#[test]
fn andersson_chirp_stick_holds_micro_slip_rings_below_its_resonance() {
    let out = run("andersson_chirp.toml");
    let wall = out.series("x.wall");
    for b in ["coulomb", "stribeck"] {
        assert_eq!(max_abs(&out.series(&format!("x.{b}"))), 0.0, "{b} moved");
        let f = out.series(&format!("F.{b}"));
        assert!(max_abs_diff(&f, &wall.iter().map(|w| -K * w).collect::<Vec<_>>()) < 1e-12);
    }
    for b in REGULARISED {
        let m = max_abs(&out.series(&format!("x.{b}")));
        assert!(m > 4.0 * DELTA, "{b}: max |x| = {m}");
    }
    for b in ["dankowicz", "dahl", "lugre", "stribeck_dankowicz"] {
        let m = max_abs(&out.series(&format!("x.{b}")));
        assert!(m < 2.0 * DELTA, "{b}: max |x| = {m}");
    }
    assert!(max_abs_diff(&out.series("x.dahl"), &out.series("x.dankowicz")) < 1e-10);

    // velocity envelope in 0.2 s windows; the chirp frequency at time t is 10 t Hz
    let f_n = ((K + FC / DELTA) / 1.0f64).sqrt() / (2.0 * PI);
    let envelope = |col: &str| -> (f64, f64) {
        (0..50)
            .map(|k| (half_range(&out, col, 0.2 * k as f64, 0.2 * (k + 1) as f64), 0.2 * k as f64 + 0.1))
            .fold((0.0, 0.0), |best, w| if w.0 > best.0 { w } else { best })
    };
    let (peak_d, t_d) = envelope("v.dankowicz");
    let f_peak = 10.0 * t_d;
    assert!(f_peak > 30.0 && f_peak < f_n, "dankowicz rings most at {f_peak} Hz (f_n = {f_n})");
    let (peak_l, _) = envelope("v.lugre");
    assert!(peak_l < 0.5 * peak_d, "lugre {peak_l} vs dankowicz {peak_d}");
    assert_energy_balance("andersson_chirp", &out, 1e-4);
}

// ---------------------------------------------------------------- Andersson, Söderberg, Björklund 2007, eqs. 14-15

/// X'' = (X0 - X) - C Z, Z' = X'(1 - Z sign X'): a small step keeps Z tiny, the
/// contact is a linear spring C and the body rings with period 2π/sqrt(1 + C);
/// a step of 5 C slides the body (|Z| reaches 1) and it ends within |X0 - X| <= C.
#[test]
fn dankowicz_nondimensional_small_step_rings_at_sqrt_one_plus_c() {
    let out = run("dankowicz_nondimensional.toml");
    for c in [1.0f64, 10.0, 100.0, 1000.0] {
        let s = format!("s{c}");
        let z = max_abs(&out.series(&format!("z.{s}.0")));
        assert!(z < 2e-3, "{s}: max |Z| = {z}");
        // turning points (V = 0) are half a period apart
        let zc = zero_crossings(&out, &format!("v.{s}"));
        assert!(zc.len() >= 10, "{s}: {} turning points", zc.len());
        let period = 2.0 * (zc[zc.len() - 1] - zc[0]) / (zc.len() - 1) as f64;
        let expected = 2.0 * PI / (1.0 + c).sqrt();
        assert!((period / expected - 1.0).abs() < 1e-6, "{s}: period {period} vs {expected}");

        let l = format!("l{c}");
        let z = max_abs(&out.series(&format!("z.{l}.0")));
        assert!(z > 0.99, "{l}: no macro-sliding, max |Z| = {z}");
        let t_end = out.last("t");
        let (ts, xs) = (out.series("t"), out.series(&format!("x.{l}")));
        let late: Vec<f64> = ts.iter().zip(&xs).filter(|(t, _)| **t > t_end - 5.0).map(|(_, x)| *x).collect();
        let mean = late.iter().sum::<f64>() / late.len() as f64;
        assert!((5.0 * c - mean).abs() <= c, "{l}: rests at {mean}, more than C from X0 = {}", 5.0 * c);
    }
    assert_energy_balance("dankowicz_nondimensional", &out, 1e-6);
}

// ---------------------------------------------------------------- several contacts

/// Olsson's two interfaces (Olsson 1996 Fig. 2.12): the force on the lower block
/// decides the upper interface's state and back; the engine's joint choice
/// must give the closed-form sequence (see the example's header).
#[test]
fn olsson_two_interfaces_follow_the_closed_form_sequence() {
    let out = run("olsson_two_interfaces.toml");
    let g = 9.81;
    let (fc1, fc2, f) = (0.2 * 2.0 * g, 0.1 * g, 6.0);
    // phase 1: both slide
    let (a1, a2) = (f - fc1 - fc2, fc2);
    assert!((f - fc1) / 2.0 > fc2, "the blocks could move together");
    let (mut x1, mut v1, mut x2, mut v2): (f64, f64, f64, f64) = (0.5 * a1, a1, 0.5 * a2, a2);
    // phase 2: F off, m1 still faster
    let (b1, b2) = (-fc1 - fc2, fc2);
    let tau = (v1 - v2) / (b2 - b1);
    let t_eq = 1.0 + tau;
    x1 += v1 * tau + 0.5 * b1 * tau * tau;
    x2 += v2 * tau + 0.5 * b2 * tau * tau;
    v1 += b1 * tau;
    v2 += b2 * tau;
    assert!((v1 - v2).abs() < 1e-12);
    // phase 3: sticking together would need fc1/2 > fc2 from the upper interface
    assert!(fc1 / 2.0 > fc2);
    let (c1, c2) = (-fc1 + fc2, -fc2);
    let t1 = t_eq - v1 / c1;
    let t2 = t_eq - v2 / c2;
    x1 += -v1 * v1 / (2.0 * c1);
    x2 += -v2 * v2 / (2.0 * c2);

    let expect = [
        (0.0, "ground", "forward"),
        (0.0, "between", "backward"),
        (t_eq, "between", "forward"),
        (t1, "ground", "stuck"),
        (t2, "between", "stuck"),
    ];
    assert_eq!(out.events.len(), expect.len(), "{:?}", out.events);
    for (e, (t, c, to)) in out.events.iter().zip(expect) {
        assert!((e.t - t).abs() < 1e-7 && e.contact == c && e.to == to, "{e:?}, expected {t} {c} {to}");
    }
    assert!((out.last("x.m1") - x1).abs() < 1e-8, "x1 {} vs {x1}", out.last("x.m1"));
    assert!((out.last("x.m2") - x2).abs() < 1e-8, "x2 {} vs {x2}", out.last("x.m2"));
    // once stuck to the ground, m1 has exactly zero velocity, even while m2 slides on it
    for ((t, va), vb) in out.series("t").into_iter().zip(out.series("v.m1")).zip(out.series("v.m2")) {
        if t > t1 + 1e-6 {
            assert_eq!(va, 0.0, "m1 moves at t = {t}");
        }
        if t > t2 + 1e-6 {
            assert_eq!(vb, 0.0, "m2 moves at t = {t}");
        }
    }
    // the pushing force's work ends up dissipated
    assert!((dissipated(&out) - f * at(&out, "x.m1", 1.0)).abs() < 1e-8);
    assert_energy_balance("olsson_two_interfaces", &out, 1e-9);
}

/// Mode of each of the chain's contacts over time, rebuilt from the event log.
fn mode_timeline(out: &Outcome, names: &[&str]) -> Vec<(f64, Vec<String>)> {
    let mut modes: Vec<String> = vec!["forward".into(); names.len()];
    let mut timeline = vec![(0.0, modes.clone())];
    for e in &out.events {
        if let Some(i) = names.iter().position(|n| *n == e.contact) {
            modes[i] = e.to.clone();
            timeline.push((e.t, modes.clone()));
        }
    }
    timeline
}

/// Three masses in a row, each on its own Coulomb contact: they stick one by
/// one, m1 reverses instead of sticking, then sticks. The sliding phases are
/// checked against an independent fixed-step RK4 integration; every stuck
/// contact has exactly zero velocity and a force within ±Fs.
#[test]
fn three_mass_chain_sticks_and_slips_in_several_combinations() {
    let out = run("three_mass_chain.toml");
    let names = ["c1", "c2", "c3"];
    let fs = [0.1 * 9.81, 0.2 * 9.81, 0.3 * 9.81];
    let timeline = mode_timeline(&out, &names);
    let mixed: Vec<_> = timeline
        .iter()
        .filter(|(_, m)| m.iter().any(|s| s == "stuck") && m.iter().any(|s| s != "stuck"))
        .map(|(_, m)| m.clone())
        .collect();
    assert!(mixed.len() >= 3, "stuck/sliding combinations: {mixed:?}");
    let last = &timeline.last().unwrap().1;
    assert!(last.iter().all(|s| s == "stuck"), "not all stuck at the end: {last:?}");

    // while stuck: velocity exactly zero and |F| <= Fs at every output row
    let t = out.series("t");
    for (i, name) in names.iter().enumerate() {
        let v = out.series(&format!("v.m{}", i + 1));
        let f = out.series(&format!("F.{name}"));
        for (k, (t0, m)) in timeline.iter().enumerate() {
            if m[i] != "stuck" {
                continue;
            }
            let t1 = timeline.get(k + 1).map_or(f64::INFINITY, |e| e.0);
            for j in 0..t.len() {
                if t[j] > t0 + 1e-9 && t[j] < t1 - 1e-9 {
                    assert_eq!(v[j], 0.0, "{name} stuck but v = {} at t = {}", v[j], t[j]);
                    assert!(f[j].abs() <= fs[i] * (1.0 + 1e-9), "{name}: |F| = {} > Fs at {}", f[j], t[j]);
                }
            }
        }
    }

    // independent RK4 of the sliding phases: all forward until m3 stops, then
    // m3 held while m1, m2 slide forward until m2 stops
    let k = 10.0;
    let fc = fs;
    let accel = |x: &[f64; 3], held: &[bool; 3]| -> [f64; 3] {
        let s12 = k * (x[1] - x[0] - 0.5);
        let s23 = k * (x[2] - x[1] - 0.5);
        let f = [s12 - fc[0], -s12 + s23 - fc[1], -s23 - fc[2]];
        [0, 1, 2].map(|i| if held[i] { 0.0 } else { f[i] })
    };
    let mut x = [0.0, 0.5, 1.0];
    let mut v = [1.0, 0.8, 0.6];
    let mut time = 0.0;
    let h = 1e-6;
    let mut stops = Vec::new();
    let mut held = [false; 3];
    while stops.len() < 2 {
        let step = |x: &[f64; 3], v: &[f64; 3], held: &[bool; 3]| -> ([f64; 3], [f64; 3]) {
            let k1x = *v;
            let k1v = accel(x, held);
            let x2 = [0, 1, 2].map(|i| x[i] + 0.5 * h * k1x[i]);
            let v2 = [0, 1, 2].map(|i| v[i] + 0.5 * h * k1v[i]);
            let k2v = accel(&x2, held);
            let x3 = [0, 1, 2].map(|i| x[i] + 0.5 * h * v2[i]);
            let v3 = [0, 1, 2].map(|i| v[i] + 0.5 * h * k2v[i]);
            let k3v = accel(&x3, held);
            let x4 = [0, 1, 2].map(|i| x[i] + h * v3[i]);
            let v4 = [0, 1, 2].map(|i| v[i] + h * k3v[i]);
            let k4v = accel(&x4, held);
            (
                [0, 1, 2].map(|i| x[i] + h / 6.0 * (k1x[i] + 2.0 * v2[i] + 2.0 * v3[i] + v4[i])),
                [0, 1, 2].map(|i| v[i] + h / 6.0 * (k1v[i] + 2.0 * k2v[i] + 2.0 * k3v[i] + k4v[i])),
            )
        };
        let (xn, vn) = step(&x, &v, &held);
        for i in 0..3 {
            if !held[i] && vn[i] <= 0.0 {
                // linear interpolation of the stop inside the step
                let t_stop = time + h * v[i] / (v[i] - vn[i]);
                stops.push((i, t_stop));
                held[i] = true;
            }
        }
        (x, v, time) = (xn, vn, time + h);
        for i in 0..3 {
            if held[i] {
                v[i] = 0.0;
            }
        }
    }
    assert_eq!(stops.iter().map(|s| s.0).collect::<Vec<_>>(), vec![2, 1], "stop order {stops:?}");
    for (i, t_stop) in stops {
        let e = out
            .events
            .iter()
            .find(|e| e.contact == names[i] && e.to == "stuck")
            .unwrap_or_else(|| panic!("{} never sticks", names[i]));
        assert!((e.t - t_stop).abs() < 1e-8, "{} sticks at {} (RK4: {t_stop})", names[i], e.t);
    }
    assert_energy_balance("three_mass_chain", &out, 1e-6);
}

// ---------------------------------------------------------------- Al-Bender (Fundamentals of friction modeling), pre-sliding

/// Masing's rules and wiping-out on the simulated Maxwell-slip F-x data, rate
/// independence between the two speeds, and the Dahl branches, whose inner
/// loop does not close (no non-local memory).
#[test]
fn presliding_inner_loop_masing_wiping_out_and_rate_independence() {
    let out = run("presliding_inner_loop.toml");
    let elements = [(2e5, 0.5), (1e5, 0.5), (5e4, 0.5), (2.5e4, 0.5)];
    let phi = |x: f64| elements.iter().map(|(k, f): &(f64, f64)| (k * x).min(*f)).sum::<f64>();
    let (a, b, c, d) = (2e-5, -1e-5, 1e-5, -2e-5);
    let speed = 1e-4;
    let (ta, tb, tc, td) = (a / speed, (2.0 * a - b) / speed, (2.0 * a - 2.0 * b + c) / speed, 1.0);
    let fa = phi(a);
    let fb = fa - 2.0 * phi((a - b) / 2.0);
    let fc = fb + 2.0 * phi((c - b) / 2.0);
    // Masing: virgin curve, then every branch is the virgin curve scaled by two;
    // after the inner loop closes at B the branch from A goes on (wiping-out)
    let masing = |t: f64| -> f64 {
        if t <= ta {
            phi(speed * t)
        } else if t <= tb {
            fa - 2.0 * phi((t - ta) * speed / 2.0)
        } else if t <= tc {
            fb + 2.0 * phi((t - tb) * speed / 2.0)
        } else {
            let x = (c - (t - tc) * speed).max(d);
            if x >= b {
                fc - 2.0 * phi((c - x) / 2.0)
            } else {
                fa - 2.0 * phi((a - x) / 2.0)
            }
        }
    };
    let ts = out.series("t");
    // F.NAME is the force on the slider: minus the model's friction force
    let f_slow = out.series("F.maxwell");
    let err = ts.iter().zip(&f_slow).fold(0.0f64, |m, (&t, &f)| m.max((-f - masing(t)).abs()));
    assert!(err < 1e-9, "Maxwell-slip differs from Masing's rules by {err} N");
    // the wiping-out point: B reached again at t = tc + (c - b)/speed with F = F_B
    let t_back = tc + (c - b) / speed;
    assert!((-at(&out, "F.maxwell", t_back) - fb).abs() < 1e-9);
    assert!((-out.last("F.maxwell") - (fa - 2.0 * phi((a - d) / 2.0))).abs() < 1e-9);
    assert!(td > t_back);

    // rate independence: the fast slider (100 times faster) at t/100
    let f_fast = out.series("F.maxwell_fast");
    let mut worst = 0.0f64;
    for (i, &t) in ts.iter().enumerate() {
        if t <= 1.0 / 100.0 + 1e-12 {
            worst = worst.max((f_fast[i] - at(&out, "F.maxwell", 100.0 * t)).abs());
        }
    }
    assert!(worst < 1e-9, "rate dependence {worst} N");

    // Dahl, i = 1: exponential branches from each reversal
    let (s0, fcd) = (1e5, 2.0);
    let branch = |f_r: f64, dist: f64, dir: f64| dir * fcd + (f_r - dir * fcd) * (-s0 * dist / fcd).exp();
    let da = branch(0.0, a, 1.0);
    let db = branch(da, a - b, -1.0);
    let dc = branch(db, c - b, 1.0);
    let dahl = |t: f64| -> f64 {
        if t <= ta {
            branch(0.0, speed * t, 1.0)
        } else if t <= tb {
            branch(da, (t - ta) * speed, -1.0)
        } else if t <= tc {
            branch(db, (t - tb) * speed, 1.0)
        } else {
            branch(dc, ((t - tc) * speed).min(c - d), -1.0)
        }
    };
    let f_dahl = out.series("F.dahl");
    let err = ts.iter().zip(&f_dahl).fold(0.0f64, |m, (&t, &f)| m.max((-f - dahl(t)).abs()));
    assert!(err < 1e-5, "Dahl differs from its closed form by {err} N");
    let gap = (-at(&out, "F.dahl", t_back) - db).abs();
    assert!(gap > 0.1, "the Dahl inner loop closed ({gap} N)");
    assert_energy_balance("presliding_inner_loop", &out, 1e-6);
}

// ---------------------------------------------------------------- Olsson 1996, dynamics

/// Hess-Soom is a pure time delay of the Stribeck term: F(t) = g(v(t - τ)) +
/// kv v(t), a loop in the F-v plane, higher on acceleration; LuGre lags too.
#[test]
fn frictional_lag_force_is_higher_accelerating_than_decelerating() {
    let out = run("frictional_lag.toml");
    let w = 2.0 * PI * 5.0;
    let v = |t: f64| 0.02 + 0.015 * (w * t).sin();
    let g = |u: f64| 0.2 + 0.8 / (1.0 + (u / 0.01).powi(2));
    let tau = 0.01;
    let ts = out.series("t");
    let f_hs = out.series("F.hess_soom");
    let err = ts
        .iter()
        .zip(&f_hs)
        .filter(|(t, _)| **t > tau)
        .fold(0.0f64, |m, (&t, &f)| m.max((-f - (g(v(t - tau)) + 10.0 * v(t))).abs()));
    assert!(err < 1e-4, "Hess-Soom differs from the delayed curve by {err} N");

    // at the bias velocity: accelerating at t = k/5 s, decelerating at t = k/5 + 0.1 s
    let steady = g(0.02) + 10.0 * 0.02;
    for k in [3.0, 4.0] {
        let (t_acc, t_dec) = (k / 5.0, k / 5.0 + 0.1);
        assert!((at(&out, "v.slider_hs", t_acc) - 0.02).abs() < 1e-9);
        assert!((at(&out, "v.slider_hs", t_dec) - 0.02).abs() < 1e-9);
        let hs_acc = -at(&out, "F.hess_soom", t_acc);
        let hs_dec = -at(&out, "F.hess_soom", t_dec);
        assert!((hs_acc - (g(v(t_acc - tau)) + 0.2)).abs() < 1e-4);
        assert!((hs_dec - (g(v(t_dec - tau)) + 0.2)).abs() < 1e-4);
        assert!(hs_acc - hs_dec > 0.1, "Hess-Soom loop {hs_acc} / {hs_dec}");
        let lu_acc = -at(&out, "F.lugre", t_acc);
        let lu_dec = -at(&out, "F.lugre", t_dec);
        assert!(lu_acc > steady && steady > lu_dec, "LuGre {lu_acc} / {steady} / {lu_dec}");
        assert!(lu_acc - lu_dec > 0.1, "LuGre loop {lu_acc} / {lu_dec}");
    }
    assert_energy_balance("frictional_lag", &out, 1e-6);
}

/// Break-away force (applied force when v first exceeds vs) against the rate
/// of force application: LuGre gives Fs in the slow limit and a force that
/// decreases monotonically as the rate grows.
#[test]
fn breakaway_force_of_lugre_decreases_with_the_rate_of_force_application() {
    let out = run("breakaway_rate.toml");
    let rates = [0.1, 0.3, 1.0, 3.0, 10.0];
    let mut fb = Vec::new();
    for rate in rates {
        let name = format!("r{rate}").replace('.', "p");
        let t = out.series("t");
        let v = out.series(&format!("v.{name}"));
        let i = v.iter().position(|&v| v > 1e-3).unwrap_or_else(|| panic!("{name} never breaks away"));
        let t_b = t[i - 1] + (t[i] - t[i - 1]) * (1e-3 - v[i - 1]) / (v[i] - v[i - 1]);
        fb.push(rate * t_b);
    }
    let fs = 1.5;
    assert!((fb[0] / fs - 1.0).abs() < 0.01, "slow break-away {} vs Fs", fb[0]);
    for w in fb.windows(2) {
        assert!(w[1] < w[0], "break-away forces not decreasing: {fb:?}");
    }
    assert!(fb[4] < 0.9 * fs, "{fb:?}");
    assert_energy_balance("breakaway_rate", &out, 1e-6);
}

/// Stick-slip between hard stops: both masses start stuck at x = 0 and break
/// away together when the spring force 100 · 0.05 sin(π t / 2) reaches
/// Fs = 1.5 N, i.e. at t = (2/π) asin(0.3); neither ever leaves its range; the
/// plastic one rests on its stops, the bouncy one rebounds; no contact force
/// ever exceeds Fs; the impacts dissipate energy and the balance holds.
#[test]
fn stick_slip_stops_break_away_on_time_and_stay_within_the_stops() {
    let out = run("stick_slip_stops.toml");
    let t_break = 2.0 / PI * 0.3f64.asin();
    for name in ["plastic", "bouncy"] {
        let first = out.events.iter().find(|e| e.contact == name && e.t > 0.0).unwrap();
        assert_eq!((first.from.as_str(), first.to.as_str()), ("stuck", "forward"), "{name}");
        assert!((first.t - t_break).abs() < 1e-7, "{name} breaks away at {} (expected {t_break})", first.t);
        let f = out.series(&format!("F.{name}"));
        assert!(max_abs(&f) <= 1.5 * (1.0 + 1e-8), "{name}: |F| up to {}", max_abs(&f));
    }
    for (name, lim) in [("plastic", 0.03), ("bouncy", 0.025)] {
        let x = out.series(&format!("x.{name}"));
        assert!(max_abs(&x) <= lim + 1e-12, "{name} leaves its range: {}", max_abs(&x));
        // it does reach both stops
        assert!(
            x.iter().any(|v| (v - lim).abs() < 1e-12) && x.iter().any(|v| (v + lim).abs() < 1e-12),
            "{name}"
        );
    }
    let has = |c: &str, to: &str| out.events.iter().any(|e| e.contact == c && e.to == to);
    assert!(has("stop:plastic", "at_max") && has("stop:plastic", "at_min"));
    assert!(has("stop:bouncy", "bounce"));
    assert!(!has("stop:plastic", "bounce"), "restitution 0 must not bounce");
    assert!(out.energy.impacts > 0.0);
    assert_energy_balance("stick_slip_stops", &out, 1e-6);
}

/// The contact FMU's scenario run without a master: the velocity input holds
/// its start value, 1 cm/s, so the slider slides steadily and the LuGre force
/// settles at -(Fc + (Fs - Fc) exp(-(v/vs)²) + σ2 v) = -1.004 N (the Stribeck
/// term is e^-100); the position is the integral of the input.
#[test]
fn fmu_contact_lugre_slides_at_the_start_velocity() {
    let out = run("fmu_contact_lugre.toml");
    assert!((out.last("v.slider") - 0.01).abs() < 1e-15);
    assert!((out.last("x.slider") - 0.05).abs() < 1e-12);
    assert!((out.last("F.c") + 1.004).abs() < 1e-9, "{}", out.last("F.c"));
}

/// The output rows carry the force the contact model gives for the row's
/// own slip velocity and bristle state: on the LuGre stick-slip example
/// (Canudas de Wit et al. 1995 parameters, Gaussian Stribeck curve), every
/// row's `F.c` is `-(σ0 z + σ1 ż + σ2 v)` with `ż = v - σ0 |v| z / g(v)`,
/// computed here from `sv.c` and `z.c.0`. Rows are written from the contact
/// forces alone when nothing is held; this catches a row whose force came
/// from another state, time or mode than its own.
#[test]
fn lugre_rows_carry_the_model_force_of_their_own_state() {
    let out = run("lugre_stick_slip.toml");
    let (s0, s1, s2, fc, fs, vs) = (1e5, 316.227_766_016_837_96, 0.4, 1.0, 1.5, 0.001);
    let (fi, vi, zi) = (out.col("F.c").unwrap(), out.col("sv.c").unwrap(), out.col("z.c.0").unwrap());
    let mut sliding = 0;
    for r in &out.rows {
        let (v, z) = (r[vi], r[zi]);
        let g = fc + (fs - fc) * (-(v / vs) * (v / vs)).exp();
        let f = s0 * z + s1 * (v - s0 * v.abs() * z / g) + s2 * v;
        assert!((r[fi] + f).abs() <= 1e-9 * (1.0 + f.abs()), "t = {}: F.c = {}, model {}", r[0], r[fi], -f);
        sliding += usize::from(v.abs() > vs);
    }
    // both regimes are in the rows: slips well above vs and rests below it
    assert!(sliding > 100 && sliding + 100 < out.rows.len(), "{sliding} of {} rows sliding", out.rows.len());
}

/// Rows written while a contact is held come from the full evaluation of the
/// network: once the Coulomb free decay has stopped for good (t > π/2), the
/// stuck contact's force `F.c` balances the spring, `F.c = k x` (k = 100
/// N/m), and the mass does not move.
#[test]
fn stuck_rows_carry_the_holding_force() {
    let out = run("coulomb_free_decay.toml");
    let (fi, xi, vi) = (out.col("F.c").unwrap(), out.col("x.m").unwrap(), out.col("v.m").unwrap());
    let stuck: Vec<&Vec<f64>> = out.rows.iter().filter(|r| r[0] > PI / 2.0 + 0.01).collect();
    assert!(stuck.len() > 500, "{} rows after the stop", stuck.len());
    for r in stuck {
        assert_eq!(r[vi], 0.0, "t = {}: v = {}", r[0], r[vi]);
        assert!(
            (r[fi] - 100.0 * r[xi]).abs() <= 1e-12,
            "t = {}: F.c = {}, k x = {}",
            r[0],
            r[fi],
            100.0 * r[xi]
        );
        assert!(r[fi].abs() > 0.1, "t = {}: F.c = {} (the spring holds 0.19 N)", r[0], r[fi]);
    }
}

/// The torque burst and pulsing brake (composed signals): the rotor follows
/// ω = 200 (1 - cos 100 t) during the burst `window(0, 0.5, 200 sin(100 t))`,
/// coasts at ω1 = 200 (1 - cos 50) until the `pulse_train` brake engages at
/// t = 1 s, decelerates at Fc / J = 50 rad/s² only on the engaged half of
/// each 0.1 s period, and stops at t = 1.2 + (J ω1 / Fc - 0.1) = 1.240136 s,
/// at the closed-form angle, for good.
#[test]
fn torque_burst_brake_spins_up_coasts_and_stops_on_the_third_brake_pulse() {
    let out = run("torque_burst_brake.toml");
    let w1 = 200.0 * (1.0 - 50f64.cos());
    let th05 = 200.0 * (0.5 - 50f64.sin() / 100.0);
    let (ts, ws, ths) = (out.series("t"), out.series("v.rotor"), out.series("x.rotor"));
    for t in [0.123f64, 0.3, 0.45] {
        let w = 200.0 * (1.0 - (100.0 * t).cos());
        let th = 200.0 * (t - (100.0 * t).sin() / 100.0);
        let i = ts.iter().position(|&s| (s - t).abs() < 1e-9).expect("a row every 1 ms");
        assert!((ws[i] - w).abs() < 1e-7, "ω at {t}: {} vs {w}", ws[i]);
        assert!((ths[i] - th).abs() < 1e-8, "θ at {t}: {} vs {th}", ths[i]);
    }
    // coasting between the burst and the brake
    assert!((at(&out, "v.rotor", 0.75) - w1).abs() < 1e-8, "coast {}", at(&out, "v.rotor", 0.75));
    assert!((at(&out, "x.rotor", 1.0) - (th05 + 0.5 * w1)).abs() < 1e-7);
    // speed after the first engaged half period: ω1 - 50 · 0.05
    assert!((at(&out, "v.rotor", 1.075) - (w1 - 2.5)).abs() < 1e-7, "{}", at(&out, "v.rotor", 1.075));
    // the stop
    let tau = 0.01 * w1 / 0.5;
    let t_stop = 1.2 + (tau - 0.1);
    let stop =
        out.events.iter().find(|e| e.contact == "brake" && e.to == "stuck" && e.t > 1.0).expect("no stop");
    assert!((stop.t - t_stop).abs() < 1e-7, "stops at {} (closed form {t_stop})", stop.t);
    let d = tau - 0.1;
    let th_stop = th05 + w1 * 0.5 // coast to t = 1
        + (w1 * 0.05 - 25.0 * 0.05 * 0.05) + (w1 - 2.5) * 0.05 // first pulse and gap
        + ((w1 - 2.5) * 0.05 - 25.0 * 0.05 * 0.05) + (w1 - 5.0) * 0.05 // second pulse and gap
        + ((w1 - 5.0) * d - 25.0 * d * d); // stopping within the third pulse
    eprintln!(
        "torque burst: stop at {} s (closed form {t_stop}), angle {} rad (closed form {th_stop})",
        stop.t,
        out.last("x.rotor")
    );
    assert!((out.last("x.rotor") - th_stop).abs() < 1e-6, "final angle {} vs {th_stop}", out.last("x.rotor"));
    assert_eq!(out.last("v.rotor"), 0.0);
    let (ts, vs) = (out.series("t"), out.series("v.rotor"));
    assert!(
        ts.iter().zip(&vs).filter(|(t, _)| **t > t_stop + 1e-6).all(|(_, v)| *v == 0.0),
        "moves after the stop"
    );
}

/// The ball on a compliant floor: free fall to the first contact at
/// sqrt(2 h / g) on the closed form x = h - g t²/2, a force never negative
/// and 0 off the floor, bounces each lower than the last, rest at the static
/// penetration (m g / c)^(1/n), and the energy the floor's damping took is
/// the potential energy lost less what the floor stores.
#[test]
fn ball_on_compliant_floor_falls_bounces_lower_and_rests_at_the_static_penetration() {
    let out = run("ball_on_compliant_floor.toml");
    let (m, g, h, c, n): (f64, f64, f64, f64, f64) = (0.1, 9.81, 0.05, 1e6, 1.5);
    let t_hit = (2.0 * h / g).sqrt();
    let (t, x, f) = (out.series("t"), out.series("x.ball"), out.series("F.floor"));
    let mut worst: f64 = 0.0;
    for (&t, &x) in t.iter().zip(&x) {
        if t < t_hit {
            worst = worst.max((x - (h - 0.5 * g * t * t)).abs());
        }
    }
    assert!(worst < 1e-10, "free fall off by {worst:e}");
    let first = t.iter().zip(&f).find(|(_, &f)| f > 0.0).map(|(t, _)| *t).unwrap();
    assert!(first >= t_hit && first < t_hit + 1e-4, "first contact at {first}, closed form {t_hit}");
    assert!(f.iter().all(|&f| f >= 0.0), "a pulling force");
    assert!(x.iter().zip(&f).all(|(&x, &f)| x < 0.0 || f == 0.0), "a force off the floor");
    // the apexes of the flights, each lower than the last
    let apexes: Vec<f64> = (1..x.len() - 1)
        .filter(|&i| x[i] > 0.0 && x[i] >= x[i - 1] && x[i] > x[i + 1] && t[i] > t_hit)
        .map(|i| x[i])
        .collect();
    assert!(apexes.len() >= 3, "apexes {apexes:?}");
    assert!(apexes.windows(2).all(|w| w[1] < w[0]) && apexes[0] < h, "apexes {apexes:?}");
    let delta = (m * g / c).powf(1.0 / n);
    let x_end = out.last("x.ball");
    assert!((x_end + delta).abs() < 1e-6 * delta, "rest at {x_end}, closed form {}", -delta);
    assert!((out.last("F.floor") - m * g).abs() < 1e-6 * m * g);
    let e = &out.energy;
    let diss: f64 = e.gaps.iter().map(|g| g.1).sum();
    let stored = c * delta.powf(n + 1.0) / (n + 1.0);
    let want = m * g * (h + delta) - stored;
    assert!((diss - want).abs() < 1e-6 * want, "dissipated {diss}, closed form {want}");
    assert_energy_balance("ball_on_compliant_floor", &out, 1e-9);
}

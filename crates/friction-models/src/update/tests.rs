//! Physics checks of the per-step update against closed forms and fine
//! reference integrations.

use super::*;
use crate::models::iwan4::{Iwan4, Iwan4Params};
use crate::models::jenkins::{Jenkins, JenkinsParams};
use crate::models::lugre::{LuGre, LuGreParams};
use crate::models::maxwell_slip::{Element, MaxwellSlip, MaxwellSlipParams};
use crate::params::{ParamMap, ParamValue};
use crate::registry::build;

fn params(kv: &[(&str, f64)]) -> ParamMap {
    kv.iter().map(|(k, v)| (k.to_string(), ParamValue::Num(*v))).collect()
}

fn fresh(m: &AnyModel, n: usize) -> Vec<f64> {
    let mut s = vec![0.0; n * state_len(m)];
    init(m, &mut s).unwrap();
    s
}

/// Drive one contact through slip increments `du` (steps of `dt`), unit
/// normal load; the forces at the step ends.
fn run_one(m: &AnyModel, dt: f64, du: &[f64]) -> Vec<f64> {
    let mut s = fresh(m, 1);
    let mut f = [0.0];
    du.iter()
        .map(|&u| {
            update(m, dt, &[u], &[1.0], &mut s, &mut f).unwrap();
            f[0]
        })
        .collect()
}

/// LuGre at constant velocity from a relaxed bristle: z follows
/// z(x) = sign(v) (g/σ0)(1 - exp(-σ0|x|/g)) and F = σ0 z + σ1 (v - σ0|v|z/g) + σ2 v.
/// A thousand small updates (and one large one) land on it to rounding.
#[test]
fn lugre_many_small_steps_equal_the_exact_constant_velocity_solution() {
    let p = LuGreParams::default();
    let m = AnyModel::LuGre(LuGre::new(p).unwrap());
    let lg = LuGre::new(p).unwrap();
    for v in [2e-4, -1e-3, 5e-2] {
        let g = lg.g(v);
        let dist = 5.0 * g / p.sigma0;
        for steps in [1usize, 1000] {
            let dt = dist / v.abs() / steps as f64;
            let mut s = fresh(&m, 1);
            let mut f = [0.0];
            let mut worst: f64 = 0.0;
            for k in 1..=steps {
                update(&m, dt, &[v * dt], &[1.0], &mut s, &mut f).unwrap();
                let x = (k as f64 * v * dt).abs();
                let z = v.signum() * g / p.sigma0 * (1.0 - (-p.sigma0 * x / g).exp());
                let exact = p.sigma0 * z + p.sigma1 * (v - p.sigma0 * v.abs() * z / g) + p.sigma2 * v;
                worst = worst.max((s[2] - z).abs() / (g / p.sigma0)).max((f[0] - exact).abs() / g);
            }
            println!("lugre v {v:e}, {steps} steps: worst relative error {worst:e}");
            assert!(worst < 1e-12, "v {v} steps {steps}: {worst}");
        }
    }
}

/// Reference: classical RK4 on the LuGre state with a prescribed velocity
/// `v(t)`, `n` steps over `[0, t_end]`; the state and force at t_end.
fn lugre_rk4(m: &LuGre, v: impl Fn(f64) -> f64, t_end: f64, n: usize) -> (f64, f64) {
    let h = t_end / n as f64;
    let rate = |t: f64, z: f64| {
        let mut d = [0.0];
        m.rates(&Input::new(t, 0.0, v(t)), &[z], &[], &mut d);
        d[0]
    };
    let mut z = 0.0;
    for k in 0..n {
        let t = k as f64 * h;
        let k1 = rate(t, z);
        let k2 = rate(t + 0.5 * h, z + 0.5 * h * k1);
        let k3 = rate(t + 0.5 * h, z + 0.5 * h * k2);
        let k4 = rate(t + h, z + h * k3);
        z += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
    }
    (z, m.force(&Input::new(t_end, 0.0, v(t_end)), &[z], &[]))
}

/// Over a velocity ramp through zero, v = v0 (2t/T - 1), the update holds
/// the velocity constant within each step at its mean Δu/dt (exact for the
/// slip, the midpoint value of v), so it approximates the ODE; its state
/// error against a fine RK4 integration (2e6 steps) falls as dt² (measured:
/// 1.2e-3, 1.2e-5, 1.2e-7, 1.2e-9 of g/σ0 for 10 to 10,000 steps). The force
/// takes the step's mean velocity in its σ1 and σ2 terms, so it converges
/// as dt.
#[test]
fn lugre_update_over_a_velocity_ramp_converges_to_rk4() {
    let p = LuGreParams::default();
    let lg = LuGre::new(p).unwrap();
    let m = AnyModel::LuGre(lg);
    let (v0, t_end) = (2e-3, 0.05);
    let v = |t: f64| v0 * (2.0 * t / t_end - 1.0);
    let x = |t: f64| v0 * (t * t / t_end - t);
    let (z_ref, f_ref) = lugre_rk4(&lg, v, t_end, 2_000_000);
    let scale = p.fs / p.sigma0;
    let mut errs = vec![];
    for steps in [10usize, 100, 1000, 10000] {
        let dt = t_end / steps as f64;
        let mut s = fresh(&m, 1);
        let mut f = [0.0];
        for k in 0..steps {
            let du = x((k + 1) as f64 * dt) - x(k as f64 * dt);
            update(&m, dt, &[du], &[1.0], &mut s, &mut f).unwrap();
        }
        let e = (s[2] - z_ref).abs() / scale;
        println!("lugre ramp, {steps} steps: state error {e:.3e} (of g/σ0), force {} vs RK4 {f_ref}", f[0]);
        errs.push(e);
    }
    for w in errs.windows(2) {
        assert!(w[1] < 0.02 * w[0], "errors do not fall as dt²: {errs:?}");
    }
    assert!(errs[2] < 1e-6 && errs[3] < 1e-8, "{errs:?}");
}

/// Stiff bristles and huge steps: σ0 = 1e8 N/m and dt = 10 s, reversing
/// every step. The exact update cannot overshoot: z stays within g/σ0 and
/// the force is the steady Stribeck value g(v) sign(v) + σ2 v at once.
#[test]
fn lugre_update_is_stable_for_ten_second_steps_with_stiff_bristles() {
    let p = LuGreParams { sigma0: 1e8, sigma1: 1e4, ..Default::default() };
    let lg = LuGre::new(p).unwrap();
    let m = AnyModel::LuGre(lg);
    let mut s = fresh(&m, 1);
    let mut f = [0.0];
    for k in 0..20 {
        let v = if k % 2 == 0 { 1e-3 } else { -3e-3 };
        update(&m, 10.0, &[10.0 * v], &[1.0], &mut s, &mut f).unwrap();
        let steady = lg.g(v) * v.signum() + p.sigma2 * v;
        assert!(s[2].abs() <= p.fs / p.sigma0, "z {}", s[2]);
        assert!((f[0] - steady).abs() < 1e-9, "step {k}: {} vs {steady}", f[0]);
    }
}

/// The generic implicit update is stable too: elasto-plastic friction with
/// σ0 = 1e8 N/m under 10 s steps stays bounded and settles on its steady
/// sliding force g(v) sign(v) + σ2 v.
#[test]
fn generic_update_is_stable_for_ten_second_steps_with_stiff_bristles() {
    let m = build("elasto_plastic", &params(&[("sigma0", 1e8), ("sigma1", 1e4)])).unwrap();
    assert_eq!(method(&m), Method::Implicit);
    let mut s = fresh(&m, 1);
    let mut f = [0.0];
    for k in 0..10 {
        let v: f64 = if k % 2 == 0 { 1e-3 } else { -3e-3 };
        update(&m, 10.0, &[10.0 * v], &[1.0], &mut s, &mut f).unwrap();
        // g(v) = Fc + (Fs - Fc) exp(-(v/vs)^2), vs = 1e-3
        let g = 1.0 + 0.5 * (-(v / 1e-3).powi(2)).exp();
        let steady = g * v.signum() + 0.4 * v;
        // the state is within the tolerance 1e-6 z of z_ss; the force's
        // sensitivity to z is σ0 (1 - σ1|v|/g), 30 σ0 here: ~3e-5 at most
        assert!((f[0] - steady).abs() < 5e-5, "step {k}: {} vs {steady}", f[0]);
    }
}

/// Slip increments of `u0 sin(2π k / steps)`, `cycles` periods.
fn sine_increments(u0: f64, steps: usize, cycles: usize) -> (Vec<f64>, Vec<f64>) {
    let u: Vec<f64> = (0..=steps * cycles)
        .map(|k| u0 * (2.0 * std::f64::consts::PI * k as f64 / steps as f64).sin())
        .collect();
    (u.windows(2).map(|w| w[1] - w[0]).collect(), u)
}

/// Work of the force along the slip over the last cycle (trapezoidal rule).
fn last_cycle_work(u: &[f64], f: &[f64], steps: usize) -> f64 {
    let n = f.len();
    (n - steps..n).map(|k| 0.5 * (f[k] + if k > 0 { f[k - 1] } else { 0.0 }) * (u[k + 1] - u[k])).sum()
}

/// Jenkins (elastic-perfectly-plastic) under u = u0 sin(ωt): every force
/// lies on the closed-form loop (elastic lines of slope k between the
/// plateaus ±f, reversal at ±u0), and the loop dissipates
/// 4 f (u0 - f/k) per cycle; the same for any dt (rate independence).
#[test]
fn jenkins_loop_under_sine_slip_matches_the_closed_form() {
    let (k, fs) = (1e5, 1.0);
    let m = AnyModel::Jenkins(Jenkins::new(JenkinsParams { kt: k, fs, theta: 1.0 }).unwrap());
    let u0 = 5.0 * fs / k;
    let steps = 4000;
    let (du, u) = sine_increments(u0, steps, 2);
    for dt in [1e-6, 10.0] {
        let f = run_one(&m, dt, &du);
        for (j, &fj) in f.iter().enumerate().skip(steps / 4) {
            let (uj, up) = (u[j + 1], u[j]);
            // past the first peak the loop is branch-wise: descending from +u0
            // (F = f - k (u0 - u)) or ascending from -u0 (F = -f + k (u + u0)), clamped
            let exact = if uj < up { (fs - k * (u0 - uj)).max(-fs) } else { (-fs + k * (uj + u0)).min(fs) };
            assert!((fj - exact).abs() < 1e-9, "dt {dt} step {j}: F {fj} vs {exact}");
        }
        let w = last_cycle_work(&u, &f, steps);
        let exact = 4.0 * fs * (u0 - fs / k);
        println!("jenkins dissipation per cycle {w:.6e}, closed form {exact:.6e}");
        assert!((w - exact).abs() < 1e-3 * exact, "dt {dt}: {w} vs {exact}");
    }
}

/// Maxwell-slip: each element slipping (u0 > f_i/k_i) dissipates
/// 4 f_i (u0 - f_i/k_i) per cycle, the others nothing; the sum is checked
/// for an amplitude where three of five elements slip.
#[test]
fn maxwell_slip_dissipation_per_cycle_is_the_sum_over_slipping_elements() {
    let elements: Vec<Element> = (1..=5).map(|i| Element { k: 1e4, fmax: 0.2 * i as f64 }).collect();
    let u0 = 6.5e-5; // slip displacements f_i/k_i = 2e-5 .. 1e-4
    let exact: f64 =
        elements.iter().filter(|e| u0 > e.fmax / e.k).map(|e| 4.0 * e.fmax * (u0 - e.fmax / e.k)).sum();
    let m = AnyModel::MaxwellSlip(MaxwellSlip::new(MaxwellSlipParams { elements }).unwrap());
    let steps = 8000;
    let (du, u) = sine_increments(u0, steps, 2);
    let f = run_one(&m, 1e-4, &du);
    let w = last_cycle_work(&u, &f, steps);
    println!("maxwell_slip dissipation per cycle {w:.6e}, closed form {exact:.6e}");
    assert!((w - exact).abs() < 1e-3 * exact, "{w} vs {exact}");
}

/// Iwan-4 (Segalman 2005): micro-slip dissipation per cycle of amplitude a
/// is D(a) = 4 R a^(χ+3)/((χ+2)(χ+3)); with 200 elements the update's loop
/// matches it to 0.5 % at a = 1e-2 and 1e-1 φmax.
#[test]
fn iwan4_micro_slip_dissipation_matches_segalman() {
    let p = Iwan4Params { fs: 1.0, kt: 1e4, chi: -0.5, beta: 0.1, n: 200 };
    let m = AnyModel::Iwan4(Iwan4::new(p).unwrap());
    let (r, _) = p.density();
    for rel in [1e-2, 1e-1] {
        let a = rel * p.phi_max();
        // triangle loop 0 → a → -a → a, a/1000 per step
        let per = 1000;
        let mut du = vec![a / per as f64; per];
        du.extend(vec![-a / per as f64; 2 * per]);
        du.extend(vec![a / per as f64; 2 * per]);
        let f = run_one(&m, 1e-3, &du);
        let w: f64 = (per..du.len()).map(|k| 0.5 * (f[k] + f[k - 1]) * du[k]).sum();
        let exact = 4.0 * r * a.powf(p.chi + 3.0) / ((p.chi + 2.0) * (p.chi + 3.0));
        println!("iwan4 a = {rel} φmax: dissipation {w:.6e}, Segalman {exact:.6e}");
        assert!((w - exact).abs() < 5e-3 * exact, "a {a}: {w} vs {exact}");
    }
}

/// Coulomb: F = N fc sign(v) for any slip increment, and 0 (the rest value;
/// the caller owns stick) when the contact does not slip.
#[test]
fn coulomb_force_is_normal_times_fc_times_sign_of_slip() {
    let m = build("coulomb", &params(&[("fc", 0.3)])).unwrap();
    assert_eq!(method(&m), Method::Direct);
    let mut s = fresh(&m, 4);
    let mut f = [0.0; 4];
    update(&m, 1e-2, &[1e-9, -2.0, 0.0, 5.0], &[100.0, 20.0, 7.0, 0.0], &mut s, &mut f).unwrap();
    assert_eq!(f, [30.0, -6.0, 0.0, 0.0]);
    assert_eq!(s[..2], [1e-2, 1e-9]);
}

/// Dahl with exponent 1 and Dankowicz have exact updates: one step of any
/// length lands on their exponential branches F = Fmax (1 - exp(-x/L)).
#[test]
fn dahl_and_dankowicz_exact_updates_follow_their_branches() {
    let dahl = build("dahl", &params(&[("sigma0", 2e4), ("fc", 1.5)])).unwrap();
    let dank = build("dankowicz", &params(&[("fc", 1.2), ("delta", 2e-5)])).unwrap();
    assert_eq!((method(&dahl), method(&dank)), (Method::Exact, Method::Exact));
    for (m, fmax, len) in [(&dahl, 1.5, 1.5 / 2e4), (&dank, 1.2, 2e-5)] {
        for x in [3e-5, -1e-4] {
            let f = run_one(m, 1.0, &[x])[0];
            let exact = fmax * x.signum() * (1.0 - (-x.abs() / len).exp());
            assert!((f - exact).abs() < 1e-14, "{}: {f} vs {exact}", m.info().id);
        }
    }
    let dahl2 = build("dahl", &params(&[("exponent", 2.0)])).unwrap();
    assert_eq!(method(&dahl2), Method::Implicit);
}

/// Reference for [`run_one`]: the same steps (constant velocity within
/// each), integrated by classical RK4 with `sub` sub-steps per step and
/// `accept` after each, from the same initial state.
fn rk4_reference(m: &AnyModel, dt: f64, du: &[f64], sub: usize) -> Vec<f64> {
    let l = Layout::of(m);
    let mut st = fresh(m, 1);
    let (z, mem) = st[Z..].split_at_mut(l.n_states);
    let n = l.n_states;
    let (mut k1, mut k2, mut k3, mut k4, mut tmp) =
        (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let h = dt / sub as f64;
    let (mut t, mut x) = (0.0, 0.0);
    let mut out = vec![];
    for &u in du {
        let v = u / dt;
        let (t0, x0) = (t, x);
        for j in 0..sub {
            let ta = t0 + j as f64 * h;
            let xa = x0 + v * j as f64 * h;
            let i1 = Input::new(ta, xa, v);
            let i2 = Input::new(ta + 0.5 * h, xa + 0.5 * v * h, v);
            let i4 =
                if j + 1 == sub { Input::new(t0 + dt, x0 + u, v) } else { Input::new(ta + h, xa + v * h, v) };
            m.rates(&i1, z, mem, &mut k1);
            (0..n).for_each(|i| tmp[i] = z[i] + 0.5 * h * k1[i]);
            m.rates(&i2, &tmp, mem, &mut k2);
            (0..n).for_each(|i| tmp[i] = z[i] + 0.5 * h * k2[i]);
            m.rates(&i2, &tmp, mem, &mut k3);
            (0..n).for_each(|i| tmp[i] = z[i] + h * k3[i]);
            m.rates(&i4, &tmp, mem, &mut k4);
            (0..n).for_each(|i| z[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]));
            m.accept(&i4, z, mem);
        }
        t = t0 + dt;
        x = x0 + u;
        out.push(m.force(&Input::new(t, x, v), z, mem));
    }
    out
}

/// Every registry model with continuous states (default parameters) along
/// a loop 0 → 1 mm → -1 mm → 1 mm at 1 cm/s in 1 ms steps (100 per leg;
/// for LuGre's defaults each step slips one g/σ0), against RK4 with 10,000
/// sub-steps per step on the same piecewise-constant velocity. The exact
/// updates agree to the reference's own error, the generic update to its
/// tolerance. Errors are relative to the largest force of the loop.
#[test]
fn generic_update_matches_fine_rk4_for_every_stateful_model() {
    let (a, v, dt): (f64, f64, f64) = (1e-3, 1e-2, 1e-3);
    let per_leg = (a / v / dt).round() as usize;
    let mut du = vec![v * dt; per_leg];
    du.extend(vec![-v * dt; 2 * per_leg]);
    du.extend(vec![v * dt; 2 * per_leg]);
    let mut worst_all: f64 = 0.0;
    for info in crate::registry::all() {
        let rows = |r: &[[f64; 2]]| {
            let list =
                r.iter().map(|row| ParamValue::List(row.iter().map(|&x| ParamValue::Num(x)).collect()));
            ParamMap::from([("elements".to_string(), ParamValue::List(list.collect()))])
        };
        let p = match info.id {
            "gms" => rows(&[[4e4, 0.2], [2e4, 0.3], [1e4, 0.5]]),
            "leuven" => rows(&[[4e4, 0.2], [2e4, 0.3], [1e4, 0.4], [5e3, 0.6]]),
            "table" => table_points(),
            _ => ParamMap::new(),
        };
        // models that need parameters without defaults and have no state are skipped
        let Ok(m) = build(info.id, &p) else { continue };
        if m.n_states() == 0 {
            continue;
        }
        let reference = rk4_reference(&m, dt, &du, 10_000);
        let f = run_one(&m, dt, &du);
        let scale = reference.iter().map(|r| r.abs()).fold(0.0, f64::max);
        let err = f.iter().zip(&reference).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max) / scale;
        println!("{:20} {:8} max force error {err:.2e} of {scale:.3}", info.id, method(&m).name());
        if info.id == "armstrong" {
            // its break-away is located at its instant within the step and a
            // stop recorded at the step's start: measured 6.8e-6 (4.3e-4
            // when both were recorded at the end of a sub-step), the
            // reference's own error (it records a stop at the end of its
            // first 0.1 µs sub-step, where the lagged velocity, and with it
            // Fs,a, has moved on): 6.1e-6 against RK4 with 100,000
            // sub-steps, which the update matches to 6.8e-7
            assert!(err < 1e-5, "armstrong: {err:e}");
        } else if info.id == "reset_integrator" || info.id == "gms" {
            // kinks: the reference's RK4 steps overshoot the reset
            // integrator's stop at z0, or a gms element's slip limit, by up
            // to v h = 1e-9 m (1e-4 z0, 2e-5 of the gms limit); the update's
            // sub-steps by at most 1e-6 of the state
            assert!(err < 1e-4, "{}: {err:e}", info.id);
        } else {
            worst_all = worst_all.max(err);
        }
    }
    assert!(worst_all < 2e-6, "worst {worst_all:e}");
}

/// Bad arguments are refused before anything changes, with the contact,
/// argument and value in the message.
#[test]
fn bad_arguments_are_refused_with_a_message_naming_them() {
    let m = build("lugre", &ParamMap::new()).unwrap();
    let mut s = fresh(&m, 2);
    let before = s.clone();
    let mut f = [0.0; 2];
    let e = update(&m, 1e-3, &[0.0, 1.0], &[1.0], &mut s, &mut f).unwrap_err();
    assert!(e.to_string().contains("`normal` has 1 values, expected 2"), "{e}");
    let e = update(&m, 1e-3, &[0.0, 1.0], &[1.0, 1.0], &mut s[..5], &mut f).unwrap_err();
    assert!(e.to_string().contains("`state` has 5 values, expected 6"), "{e}");
    for dt in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let e = update(&m, dt, &[0.0, 1.0], &[1.0, 1.0], &mut s, &mut f).unwrap_err();
        assert!(matches!(e, UpdateError::Step { .. }), "{e}");
        assert!(e.to_string().contains(&format!("`dt` = {dt}")), "{e}");
    }
    let e = update(&m, 1e-3, &[0.0, f64::NAN], &[1.0, 1.0], &mut s, &mut f).unwrap_err();
    assert!(e.to_string().starts_with("contact 1: `slip_increment` = NaN"), "{e}");
    let e = update(&m, 1e-300, &[0.0, 1e10], &[1.0, 1.0], &mut s, &mut f).unwrap_err();
    assert!(e.to_string().contains("slip velocity"), "{e}");
    let e = update(&m, 10.0, &[0.0, f64::INFINITY], &[1.0, 1.0], &mut s, &mut f).unwrap_err();
    assert!(e.to_string().starts_with("contact 1: `slip_increment` = inf"), "{e}");
    let e = update(&m, 1e-3, &[0.0, 0.0], &[f64::INFINITY, 1.0], &mut s, &mut f).unwrap_err();
    assert_eq!(e.to_string(), "contact 0: `normal` = inf is not finite");
    let e = update(&m, 1e-3, &[0.0, 0.0], &[1.0, -2.0], &mut s, &mut f).unwrap_err();
    assert_eq!(e.to_string(), "contact 1: `normal` = -2 is negative; valid range [0, inf)");
    assert_eq!(s, before);
    assert!(init(&m, &mut s[..4]).is_err());
}

/// The parallel update gives the same bits as the serial one.
#[cfg(feature = "rayon")]
#[test]
fn parallel_update_equals_serial_update() {
    for id in ["lugre", "jenkins", "elasto_plastic"] {
        let m = build(id, &ParamMap::new()).unwrap();
        let n = 5000;
        let du: Vec<f64> = (0..n).map(|i| 1e-6 * ((i as f64) * 0.37).sin()).collect();
        let normal: Vec<f64> = (0..n).map(|i| 1.0 + (i % 7) as f64).collect();
        let (mut s1, mut s2) = (fresh(&m, n), fresh(&m, n));
        let (mut f1, mut f2) = (vec![0.0; n], vec![0.0; n]);
        for _ in 0..3 {
            update(&m, 1e-4, &du, &normal, &mut s1, &mut f1).unwrap();
            update_par(&m, 1e-4, &du, &normal, &mut s2, &mut f2).unwrap();
        }
        assert_eq!(s1, s2);
        assert_eq!(f1, f2);
    }
}

/// The fused slider updates of Iwan-4 and Maxwell-slip give the same bits
/// as the models' own `accept` and `force` (the generic direct update).
#[test]
fn fused_slider_updates_equal_accept_then_force() {
    let iwan = AnyModel::Iwan4(Iwan4::new(Iwan4Params { n: 30, ..Default::default() }).unwrap());
    let elements: Vec<Element> = (1..=5).map(|i| Element { k: 1e4, fmax: 0.2 * i as f64 }).collect();
    let maxwell = AnyModel::MaxwellSlip(MaxwellSlip::new(MaxwellSlipParams { elements }).unwrap());
    for m in [&iwan, &maxwell] {
        let l = Layout::of(m);
        let (du, _) = sine_increments(3e-5, 200, 2);
        let mut s = fresh(m, 1);
        let mut reference = s.clone();
        let mut f = [0.0];
        for &u in &du {
            update(m, 1e-3, &[u], &[1.0], &mut s, &mut f).unwrap();
            let r = &mut reference;
            r[0] += 1e-3;
            r[1] += u;
            let inp = Input::new(r[0], r[1], u / 1e-3);
            m.accept(&inp, &mut [], &mut r[l.mem()]);
            assert_eq!(f[0], m.force(&inp, &[], &r[l.mem()]), "{}", m.info().id);
            assert_eq!(s, reference);
        }
    }
}

/// Elements of the generalised Maxwell-slip model stick (dz/dt = v) until
/// their force reaches α s(v), then slip with a rate that vanishes at that
/// limit: the state equation has a kink there, where backward Euler has no
/// solution. The extrapolated explicit fallback used to throw the state back
/// below the limit on every sub-step, so the element never switched to
/// slipping and the update gave up after 100,000 sub-steps. Now a contact
/// slid at 1 cm/s well past every element's limit settles on the Stribeck
/// force g(v) + σ2 v, in a handful of sub-steps per step.
#[test]
fn gms_element_reaching_its_slip_limit_does_not_stall_the_update() {
    let rows = [[4e4, 0.2], [2e4, 0.3], [1e4, 0.5]];
    let list = rows.iter().map(|r| ParamValue::List(r.iter().map(|&x| ParamValue::Num(x)).collect()));
    let m =
        build("gms", &ParamMap::from([("elements".to_string(), ParamValue::List(list.collect()))])).unwrap();
    let f = run_one(&m, 1e-3, &[1e-5; 200]);
    // g(0.01) = 1 + 0.5 exp(-100) = 1 to rounding; C/g = 100/s: relaxed after 0.2 s
    assert!((f[199] - (1.0 + 0.4 * 0.01)).abs() < 1e-6, "{}", f[199]);
}

/// The reset integrator stops its state at ±z0 (dz/dt = 0 beyond): another
/// kink without a backward-Euler solution. Sliding past it, the update
/// reaches the sliding force σ0 z0 = Fc without giving up.
#[test]
fn reset_integrator_reaching_its_stop_does_not_stall_the_update() {
    let m = build("reset_integrator", &ParamMap::new()).unwrap();
    let f = run_one(&m, 1e-3, &[1e-5; 100]);
    let g = run_one(&m, 1e-3, &[-1e-5; 100]);
    assert!(f[99] > 0.0 && (f[99] + g[99]).abs() < 1e-12, "{} {}", f[99], g[99]);
    let fc = f[99];
    assert!(f[50..].iter().all(|x| (x - fc).abs() < 1e-6 * fc), "{:?}", &f[50..55]);
}

/// Every registry model (defaults; element tables where required) takes
/// steps of 1 ns, 1 ms and 10 s under seeded random slips, reversals and
/// rests: the update is stable for any step. Every force is finite and
/// within the envelope of the forces the same model gives on the same path
/// taken in steps twenty times shorter (an unstable or overshooting large
/// step leaves it; the envelope of the model's own finer solution is the
/// scale, from LuGre's σ1 transients of hundreds of newtons to a viscous
/// law's fraction of one).
#[test]
fn every_model_is_stable_for_steps_from_nanoseconds_to_seconds() {
    use rand::{RngExt, SeedableRng};
    let rows = |r: &[[f64; 2]]| {
        let list = r.iter().map(|row| ParamValue::List(row.iter().map(|&x| ParamValue::Num(x)).collect()));
        ParamMap::from([("elements".to_string(), ParamValue::List(list.collect()))])
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(10);
    for info in crate::registry::all() {
        let p = match info.id {
            "gms" => rows(&[[4e4, 0.2], [2e4, 0.3], [1e4, 0.5]]),
            "leuven" | "maxwell_slip" => rows(&[[4e4, 0.2], [2e4, 0.3], [1e4, 0.4], [5e3, 0.6]]),
            "table" => table_points(),
            // its default lock (1e9 N, effectively rigid) is its force
            // scale in the locked direction: a lock of the others' scale
            "freewheel" => ParamMap::from([("fl".to_string(), ParamValue::Num(2.0))]),
            _ => ParamMap::new(),
        };
        let m = build(info.id, &p).unwrap_or_else(|e| panic!("{}: {e}", info.id));
        for dt in [1e-9, 1e-3, 10.0] {
            // speeds from 1e-7 to 1 m/s, either sign, and some rests
            let v: Vec<f64> = (0..200)
                .map(|k| {
                    if k % 17 == 0 {
                        0.0
                    } else {
                        rng.random_range(-1.0..1.0) * 10f64.powi(rng.random_range(-7..1))
                    }
                })
                .collect();
            const FINE: usize = 20;
            let (mut s, mut fine_s) = (fresh(&m, 1), fresh(&m, 1));
            let (mut f, mut g) = ([0.0], [0.0]);
            let mut envelope = 0.0f64;
            let mut coarse = Vec::with_capacity(v.len());
            for (k, &vk) in v.iter().enumerate() {
                update(&m, dt, &[vk * dt], &[1.0], &mut s, &mut f)
                    .unwrap_or_else(|e| panic!("{} dt {dt} step {k}: {e}", info.id));
                assert!(f[0].is_finite(), "{} dt {dt} step {k}: F = {}", info.id, f[0]);
                coarse.push(f[0]);
                for j in 0..FINE {
                    let h = dt / FINE as f64;
                    update(&m, h, &[vk * h], &[1.0], &mut fine_s, &mut g)
                        .unwrap_or_else(|e| panic!("{} dt {dt} step {k}.{j}: {e}", info.id));
                    envelope = envelope.max(g[0].abs());
                }
            }
            let worst = coarse.iter().fold(0.0f64, |a, x| a.max(x.abs()));
            assert!(
                worst <= 1.05 * envelope + 1e-12,
                "{} dt {dt}: |F| up to {worst:e}, beyond the finer path's envelope {envelope:e}",
                info.id
            );
        }
    }
}

/// `points` of a Stribeck-like `table` model: 1.5 at rest, 1 from 1 cm/s.
fn table_points() -> ParamMap {
    let pts = [[0.0, 1.5], [0.01, 1.0], [1.0, 1.0]];
    let list = pts.iter().map(|row| ParamValue::List(row.iter().map(|&x| ParamValue::Num(x)).collect()));
    ParamMap::from([("points".to_string(), ParamValue::List(list.collect()))])
}

/// A contact whose implicit update fails (here a state poisoned with NaN)
/// used to stop the call there: the contacts after it were left behind,
/// and in the parallel update which ones depended on the threads. Now every
/// other contact is advanced exactly as without the failing ones, each
/// failing contact keeps its state with a NaN force, and the serial and
/// parallel calls give the same states, forces and error.
#[test]
fn failing_contact_leaves_the_others_advanced_and_itself_untouched() {
    let m = build("bouc_wen", &ParamMap::new()).unwrap();
    assert_eq!(method(&m), Method::Implicit);
    let len = state_len(&m);
    // enough contacts for several parallel chunks
    let n = 3 * (CHUNK_VALUES / len).max(16) + 7;
    let poisoned = [n - 5, 10, n / 2];
    let du: Vec<f64> = (0..n).map(|i| 1e-6 * (1.0 + (i % 13) as f64)).collect();
    let normal = vec![1.0; n];
    let mut clean = fresh(&m, n);
    // a first step so the states are not all at rest
    let mut f_clean = vec![0.0; n];
    update(&m, 1e-3, &du, &normal, &mut clean, &mut f_clean).unwrap();
    let mut start = clean.clone();
    for &p in &poisoned {
        start[p * len + len - 1] = f64::NAN;
    }
    update(&m, 1e-3, &du, &normal, &mut clean, &mut f_clean).unwrap();
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let mut results = Vec::new();
    for par in [false, true] {
        let (mut s, mut f) = (start.clone(), vec![0.0; n]);
        let e = if par {
            update_par(&m, 1e-3, &du, &normal, &mut s, &mut f)
        } else {
            update(&m, 1e-3, &du, &normal, &mut s, &mut f)
        };
        match e {
            Err(UpdateError::NoConvergence { contact, failed, .. }) => {
                assert_eq!((contact, failed), (10, 3), "par {par}");
            }
            other => panic!("par {par}: {other:?}"),
        }
        for i in 0..n {
            let (st, st0) = (&s[i * len..(i + 1) * len], &start[i * len..(i + 1) * len]);
            if poisoned.contains(&i) {
                assert_eq!(bits(st), bits(st0), "par {par}: failing contact {i} was changed");
                assert!(f[i].is_nan(), "par {par}: failing contact {i} has force {}", f[i]);
            } else {
                assert_eq!(bits(st), bits(&clean[i * len..(i + 1) * len]), "par {par}: contact {i}");
                assert_eq!(f[i].to_bits(), f_clean[i].to_bits(), "par {par}: contact {i}");
            }
        }
        results.push((bits(&s), bits(&f)));
    }
    assert!(results[0] == results[1], "serial and parallel differ");
}

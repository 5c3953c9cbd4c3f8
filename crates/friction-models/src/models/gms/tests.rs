//! The GMS model's tests: the steady state on the Stribeck curve, frictional
//! lag, pre-sliding against Maxwell slip, dissipation, odd symmetry, and the
//! refused element fractions.

use super::*;
use crate::models::maxwell_slip::{Element, MaxwellSlip, MaxwellSlipParams};
use crate::testing::{drive, work, Path};
use rand::{RngExt, SeedableRng};

fn params() -> GmsParams {
    let alphas = [0.1, 0.15, 0.2, 0.25, 0.3];
    let ks = [3e4, 2e4, 1.5e4, 1e4, 0.8e4];
    GmsParams {
        elements: alphas.iter().zip(ks).map(|(&alpha, k)| GmsElement { k, alpha }).collect(),
        ..Default::default()
    }
}

/// The Stribeck curve from its definition (Gaussian), independently of the model.
fn stribeck(p: &GmsParams, v: f64) -> f64 {
    p.fc + (p.fs - p.fc) * (-(v / p.vs).powi(2)).exp()
}

/// Run at piecewise-constant velocity (segments of (v, duration)), RK4
/// with `accept` after each step; calls `each(t, f, z, mem)` after each step.
fn run(m: &Gms, segments: &[(f64, f64)], dt: f64, mut each: impl FnMut(f64, f64, &[f64], &[f64])) {
    let n = m.n_states();
    let (mut z, mut mem) = (vec![0.0; n], vec![0.0; n]);
    m.init(&Input::new(0.0, 0.0, segments[0].0), &mut z, &mut mem);
    let (mut t, mut x) = (0.0, 0.0);
    let (mut k1, mut k2, mut k3, mut k4, mut tmp) =
        (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    for &(v, duration) in segments {
        let steps = (duration / dt).ceil() as usize;
        let h = duration / steps as f64;
        for _ in 0..steps {
            let at = |c: f64| Input::new(t + c * h, x + c * h * v, v);
            m.rates(&at(0.0), &z, &mem, &mut k1);
            (0..n).for_each(|j| tmp[j] = z[j] + 0.5 * h * k1[j]);
            m.rates(&at(0.5), &tmp, &mem, &mut k2);
            (0..n).for_each(|j| tmp[j] = z[j] + 0.5 * h * k2[j]);
            m.rates(&at(0.5), &tmp, &mem, &mut k3);
            (0..n).for_each(|j| tmp[j] = z[j] + h * k3[j]);
            m.rates(&at(1.0), &tmp, &mem, &mut k4);
            (0..n).for_each(|j| z[j] += h / 6.0 * (k1[j] + 2.0 * k2[j] + 2.0 * k3[j] + k4[j]));
            t += h;
            x += h * v;
            let inp = Input::new(t, x, v);
            m.accept(&inp, &mut z, &mut mem);
            each(t, m.force(&inp, &z, &mem), &z, &mem);
        }
    }
}

/// After a change of velocity (faster, slower, reversed) the force
/// settles on the Stribeck curve g(v) sign(v) + σ2 v of the new velocity,
/// with every element slipping; the micro-damping leaves no trace.
#[test]
fn steady_state_is_the_stribeck_curve() {
    let p = GmsParams { sigma1: 30.0, ..params() };
    let m = Gms::new(p.clone()).unwrap();
    for (v1, v2) in [(0.01, 2e-4), (2e-4, 0.01), (0.01, -5e-4), (-2e-3, 1e-4), (-1e-4, -0.02)] {
        let (mut f, mut modes) = (0.0, vec![]);
        run(&m, &[(v1, 0.5), (v2, 1.5)], 2e-4, |_, ff, _, mem| {
            f = ff;
            modes = mem.to_vec();
        });
        let curve = stribeck(&p, v2) * v2.signum() + p.sigma2 * v2;
        assert!((f - curve).abs() < 1e-9, "{v1} -> {v2}: F = {f}, curve {curve}");
        assert!(modes.iter().all(|&s| s == v2.signum()), "{modes:?}");
    }
}

/// Friction lag: after a velocity change within the same direction every
/// element stays slipping (the memory), so the total element force
/// relaxes with the time constant g(v2)/C:
/// Σ F_i(t) = s(v2) + (s(v1) - s(v2)) exp(-C t / g(v2)).
/// A model that re-stuck the elements when s(v) rose would instead load
/// them at the rate k_i v2.
#[test]
fn friction_lag_after_a_velocity_step() {
    let p = params();
    let m = Gms::new(p.clone()).unwrap();
    for (v1, v2) in [(0.01, 2e-4), (2e-4, 0.01), (-0.01, -3e-4)] {
        let (g1, g2) = (stribeck(&p, v1), stribeck(&p, v2));
        let t1 = 1.0;
        let mut worst: f64 = 0.0;
        run(&m, &[(v1, t1), (v2, 0.1)], 1e-4, |t, f, _, _| {
            if t > t1 + 1e-9 {
                let tau = g2 / p.c;
                let exact = (g2 + (g1 - g2) * (-(t - t1) / tau).exp()) * v2.signum() + p.sigma2 * v2;
                worst = worst.max((f - exact).abs());
            }
        });
        assert!(worst < 1e-8, "{v1} -> {v2}: worst deviation {worst}");
    }
}

/// At low speed (v << vs, so s(v) is constant) the pre-sliding loops are
/// those of the Maxwell-slip model with fmax_i = α_i g(v): virgin curve,
/// Masing reversal branches, an inner loop; compared step by step.
#[test]
fn presliding_matches_maxwell_slip_at_low_speed() {
    let p = GmsParams { sigma2: 0.0, ..params() };
    let m = Gms::new(p.clone()).unwrap();
    let v = 1e-5;
    let g = stribeck(&p, v);
    let ms = MaxwellSlip::new(MaxwellSlipParams {
        elements: p.elements.iter().map(|e| Element { k: e.k, fmax: e.alpha * g }).collect(),
    })
    .unwrap();
    let path = Path::points(&[0.0, 4e-5, -2e-5, 3e-5, -1e-5, 3.5e-5, -5e-5], v);
    let a = drive(&m, &path, 5e-9 / v);
    let b = drive(&ms, &path, 5e-9 / v);
    let worst = a.iter().zip(&b).map(|(ra, rb)| (ra.f - rb.f).abs()).fold(0.0, f64::max);
    assert!(worst < 3e-4 * g, "worst deviation from Maxwell-slip {worst}");
    // the loops are not trivial: some elements slipped, some did not
    let fmax = a.iter().map(|r| r.f.abs()).fold(0.0, f64::max);
    assert!(fmax > 0.5 * g && fmax < 0.99 * g, "{fmax}");
}

/// Closed loops dissipate, in pre-sliding and in gross sliding; the
/// gross-sliding loop at constant speed is close to 4 A (g(v) + σ2 v).
#[test]
fn closed_loops_dissipate() {
    let m = Gms::new(GmsParams { sigma1: 20.0, ..params() }).unwrap();
    let p = m.params().clone();
    for (a, v) in [(2e-5f64, 1e-4f64), (1e-3, 1e-2)] {
        let rec = drive(&m, &Path::points(&[0.0, a, -a, a], v), a / 2000.0 / v);
        let top = rec.iter().position(|r| r.x >= a * (1.0 - 1e-9)).unwrap();
        let w = work(&rec[top..]);
        assert!(w > 0.0, "A {a}: loop work {w}");
        if a > 1e-4 {
            let coulomb = 4.0 * a * (stribeck(&p, v) + p.sigma2 * v);
            assert!((w - coulomb).abs() < 0.05 * coulomb, "A {a}: {w} vs {coulomb}");
        }
    }
}

/// F(-v, -z, -mem) = -F(v, z, mem) and the rates are odd, at seeded random
/// points with random modes.
#[test]
fn odd_symmetry() {
    let m = Gms::new(GmsParams { sigma1: 10.0, ..params() }).unwrap();
    let n = m.n_states();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let (mut a, mut b) = (vec![0.0; n], vec![0.0; n]);
    for _ in 0..300 {
        let v = rng.random_range(-1.0..1.0) * 10f64.powi(rng.random_range(-6..1));
        let z: Vec<f64> = (0..n).map(|_| rng.random_range(-6e-5..6e-5)).collect();
        let mem: Vec<f64> = (0..n).map(|_| rng.random_range(-1i32..=1) as f64).collect();
        let zn: Vec<f64> = z.iter().map(|x| -x).collect();
        let memn: Vec<f64> = mem.iter().map(|x| -x).collect();
        let f = m.force(&Input::new(0.0, 0.0, v), &z, &mem);
        let g = m.force(&Input::new(0.0, 0.0, -v), &zn, &memn);
        assert!((f + g).abs() <= 1e-14 * f.abs().max(1.0), "v {v}: {f} vs {g}");
        m.rates(&Input::new(0.0, 0.0, v), &z, &mem, &mut a);
        m.rates(&Input::new(0.0, 0.0, -v), &zn, &memn, &mut b);
        assert!(a.iter().zip(&b).all(|(x, y)| x == &-y));
    }
}

/// The fractions must sum to 1; the message names `elements` and the sum.
#[test]
fn fractions_not_summing_to_one_are_refused() {
    let mut p = params();
    p.elements[0].alpha = 0.2;
    let e = Gms::new(p).unwrap_err();
    assert!(matches!(e, ModelError::Constraint { name: "elements", .. }), "{e}");
    assert!(e.to_string().contains("1.1"), "{e}");
}

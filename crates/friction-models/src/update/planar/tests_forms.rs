//! Closed forms of the 2-D Dahl, Dankowicz, Bouc-Wen and Iwan-5 updates.

use super::tests::{num, params, run_2d};
use super::*;
use crate::models::iwan4::Iwan4Params;
use crate::models::iwan5::{Iwan5, Iwan5Params};
use crate::params::ParamMap;
use crate::registry::build;
use crate::update::{init, state_len, update};
use std::f64::consts::TAU;

/// Increments that go out along x to (r, 0) in 100 steps, then `turns`
/// times counter-clockwise round the circle of radius `r` (`per` chords per
/// turn); and the circle's tangent at the end (the last chord's direction
/// lags it by half a chord's angle, π/per).
fn circle(r: f64, per: usize, turns: usize) -> (Vec<[f64; 2]>, [f64; 2]) {
    let pos = |k: usize| {
        let a = TAU * k as f64 / per as f64;
        [r * a.cos(), r * a.sin()]
    };
    let mut du = vec![[r / 100.0, 0.0]; 100];
    for k in 1..=turns * per {
        let (p, q) = (pos(k), pos(k - 1));
        du.push([p[0] - q[0], p[1] - q[1]]);
    }
    let p = pos(turns * per);
    (du, [-p[1] / r, p[0] / r])
}

/// The angle from `a` to `b`, positive counter-clockwise.
fn angle(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] * b[1] - a[1] * b[0]).atan2(a[0] * b[0] + a[1] * b[1])
}

/// Dahl (exponent 1) from rest at constant velocity in any direction:
/// F(s) = Fc (1 - exp(-σ0 s / Fc)) along v at every slip distance s (the
/// first loading branch of the 1-D model, now along v), so |F| -> Fc.
#[test]
fn dahl_at_constant_velocity_follows_its_first_branch_along_v() {
    let (sigma0, fc) = (3e4, 0.7);
    let m = build("dahl", &params(&[("sigma0", num(sigma0)), ("fc", num(fc))])).unwrap();
    for angle in [0.3, 2.0, -2.6] {
        let (c, s) = (f64::cos(angle), f64::sin(angle));
        let h = 2e-6;
        let f = run_2d(&m, 1e-3, &vec![[h * c, h * s]; 400], 1.0);
        for (k, fk) in f.iter().enumerate() {
            let exact = fc * (1.0 - (-sigma0 * h * (k + 1) as f64 / fc).exp());
            assert!((fk[0] - exact * c).abs() < 1e-12 * fc, "{angle} step {k}: {fk:?} vs {exact}");
            assert!((fk[1] - exact * s).abs() < 1e-12 * fc, "{angle} step {k}: {fk:?} vs {exact}");
        }
        let last = f[f.len() - 1];
        assert!((last[0].hypot(last[1]) - fc).abs() < 1e-9 * fc);
    }
}

/// The vector bristle law `dw/ds = e - w/L` on a circle of radius R settles
/// where the deflection turns with the velocity: |w| = L / sqrt(1 + (L/R)²),
/// lagging the velocity by atan(L/R). For Dahl w = F L / Fc (L = Fc/σ0), for
/// Dankowicz F = (Fmax/δ) w (L = δ). The chords of the discrete path
/// (20,000 per turn) change the circle's curvature by O(1e-8); at least 40 L
/// of slip settle the start to exp(-40).
#[test]
fn dahl_and_dankowicz_on_a_circle_settle_on_the_closed_form() {
    let (sigma0, fc) = (1e5, 1.0);
    let dahl = build("dahl", &params(&[("sigma0", num(sigma0)), ("fc", num(fc))])).unwrap();
    let delta = 2e-5;
    let dank = build("dankowicz", &params(&[("fc", num(fc)), ("delta", num(delta))])).unwrap();
    for (m, l) in [(&dahl, fc / sigma0), (&dank, delta)] {
        for r in [0.5 * l, 2.0 * l, 10.0 * l] {
            // at least 40 relaxation lengths of slip: settled to exp(-40)
            let turns = (40.0 * l / (TAU * r)).ceil().max(3.0) as usize;
            let (du, v) = circle(r, 20_000, turns);
            let f = run_2d(m, 1e-5, &du, 1.0);
            let fl = f[f.len() - 1];
            let exact = fc / (1.0 + (l / r).powi(2)).sqrt();
            let mag = fl[0].hypot(fl[1]);
            let lag = -angle(v, fl);
            println!(
                "{} R = {} L: |F| {mag:.9} (closed form {exact:.9}), lag {lag:.6} rad ({:.6})",
                m.info().id,
                r / l,
                (l / r).atan()
            );
            assert!((mag - exact).abs() < 1e-8 * fc, "{} R {r}: |F| {mag} vs {exact}", m.info().id);
            assert!((lag - (l / r).atan()).abs() < 1e-6, "{} R {r}: lag {lag}", m.info().id);
        }
    }
}

/// Bouc-Wen at constant velocity in any direction slides at its 1-D sliding
/// force `Fu = kj (A/(β + γ))^(1/n)` along v.
#[test]
fn bouc_wen_at_constant_velocity_slides_at_fu_along_v() {
    for p in [ParamMap::new(), params(&[("n", num(2.0)), ("beta", num(7e9)), ("gamma", num(3e9))])] {
        let m = build("bouc_wen", &p).unwrap();
        let AnyModel::BoucWen(b) = &m else { unreachable!() };
        let fu = b.params().sliding_force();
        for angle in [0.7, -2.2] {
            let (c, s) = (f64::cos(angle), f64::sin(angle));
            let f = run_2d(&m, 1e-3, &vec![[5e-6 * c, 5e-6 * s]; 200], 1.0);
            let fl = f[f.len() - 1];
            assert!(
                (fl[0] - fu * c).abs() < 1e-6 * fu && (fl[1] - fu * s).abs() < 1e-6 * fu,
                "{p:?} {angle}: {fl:?}"
            );
        }
    }
}

/// Bouc-Wen on a circular orbit of radius R: in the frame turning with the
/// velocity e (curvature 1/R), z = p e + q e⊥ is steady when
/// -q/R = A - h p and p/R = -h q, h = |z|^(n-2) (β|p| + γ p): so
/// |z|^n = A/(β + γ), the 1-D ultimate value z_u in every direction (the
/// circular interaction curve of Park, Wen & Ang), lagging the velocity by
/// asin(z_u / (A R)). 20,000 chords per turn; the implicit update's
/// tolerance is 1e-6.
#[test]
fn bouc_wen_on_a_circle_keeps_the_ultimate_deflection_and_lags_by_asin() {
    let cases = [
        ParamMap::new(),
        params(&[("n", num(2.0)), ("beta", num(7e9)), ("gamma", num(3e9))]),
        params(&[("n", num(1.5)), ("beta", num(2e7)), ("gamma", num(-1e7)), ("a", num(0.8))]),
    ];
    for p in cases {
        let m = build("bouc_wen", &p).unwrap();
        let AnyModel::BoucWen(b) = &m else { unreachable!() };
        let bp = *b.params();
        let zu = bp.z_ultimate();
        for rel in [1.5, 4.0] {
            let r = rel * zu / bp.a;
            let (du, v) = circle(r, 20_000, 3);
            let f = run_2d(&m, 1e-5, &du, 1.0);
            let fl = f[f.len() - 1];
            let z = fl[0].hypot(fl[1]) / bp.k;
            let lag = -angle(v, fl);
            let exact = (zu / (bp.a * r)).asin();
            println!(
                "bouc_wen {p:?} R = {rel} z_u/A: |z|/z_u {:.8}, lag {lag:.6} rad (closed form {exact:.6})",
                z / zu
            );
            assert!((z / zu - 1.0).abs() < 1e-7, "{p:?} R {r}: |z| {z} vs {zu}");
            assert!((lag - exact).abs() < 1e-5, "{p:?} R {r}: lag {lag} vs {exact}");
        }
    }
}

/// Iwan-5 (θ = 1) under a unidirectional path along a line at 30° with
/// reversals and an inner loop: the force along the line is the 1-D loop
/// of `iwan5` on the same scalar path, and the force across it is nil (to
/// the rounding of the direction cosines, 1e-12 of FS).
#[test]
fn iwan5_along_a_line_gives_its_1d_loop() {
    let p4 = Iwan4Params { fs: 1.5, kt: 2e4, chi: -0.6, beta: 0.3, n: 80 };
    let m = AnyModel::Iwan5(Iwan5::new(Iwan5Params { iwan4: p4, theta: 1.0 }).unwrap());
    let pm = p4.phi_max();
    let mut path = Vec::new();
    for (a, b) in [(0.0, 0.5), (0.5, -0.2), (-0.2, 0.1), (0.1, -1.5), (-1.5, 0.3)] {
        let steps = 200;
        path.extend(std::iter::repeat_n((b - a) * pm / steps as f64, steps));
    }
    let (c, s) = (f64::cos(TAU / 12.0), f64::sin(TAU / 12.0));
    let du: Vec<[f64; 2]> = path.iter().map(|&u| [u * c, u * s]).collect();
    let f2 = run_2d(&m, 1e-3, &du, 1.0);
    let mut s1 = vec![0.0; state_len(&m)];
    init(&m, &mut s1).unwrap();
    let mut f1 = [0.0];
    let mut worst: f64 = 0.0;
    for (k, (&u, f)) in path.iter().zip(&f2).enumerate() {
        update(&m, 1e-3, &[u], &[1.0], &mut s1, &mut f1).unwrap();
        let along = f[0] * c + f[1] * s;
        let across = -f[0] * s + f[1] * c;
        worst = worst.max((along - f1[0]).abs());
        assert!(across.abs() < 1e-12 * p4.fs, "step {k}: across {across}");
    }
    println!("iwan5 along 30°: largest difference from the 1-D loop {worst:.1e}");
    assert!(worst < 1e-12 * p4.fs, "{worst}");
}

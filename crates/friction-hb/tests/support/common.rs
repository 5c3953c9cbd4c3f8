//! Helpers shared by the tests of harmonic balance with gaps, in planes and
//! of nonlinear modes (`hb_gaps.rs`, `hb_grazing.rs`, `hb_planes.rs`,
//! `hb_nnm.rs`, `hb_nnm_coulomb.rs`): a scenario from text, the motion of
//! harmonic coefficients, an engine's last period against it, a 2x2
//! eigenproblem in closed form and logarithmic amplitudes.

use friction_sim::{scenario, Outcome, System};

/// The scenario of `text`.
#[allow(dead_code)]
pub fn parse(text: &str) -> System {
    scenario::parse(text, "hb_test.toml", std::path::Path::new(".")).unwrap()
}

/// x(t) and v(t) of coefficients `c` (2H + 1: mean, then cos and sin of each harmonic).
#[allow(dead_code)]
pub fn synth(c: &[f64], w: f64, t: f64) -> (f64, f64) {
    let h = (c.len() - 1) / 2;
    let mut x = c[0];
    let mut v = 0.0;
    for k in 1..=h {
        let (a, b, kw) = (c[2 * k - 1], c[2 * k], k as f64 * w);
        x += a * (kw * t).cos() + b * (kw * t).sin();
        v += kw * (b * (kw * t).cos() - a * (kw * t).sin());
    }
    (x, v)
}

/// An engine's run `out` against the harmonic balance over its last
/// period (its last 201 rows): per column of `cols` (its name and the
/// balance's value at time t), the largest difference and the balance's
/// range over that period.
#[allow(dead_code)]
pub fn last_period(out: &Outcome, cols: &[(&str, &dyn Fn(f64) -> f64)]) -> Vec<(String, f64, f64)> {
    let t = out.series("t");
    let last = t.len() - 201;
    cols.iter()
        .map(|(col, hb)| {
            let e = out.series(col);
            let (mut worst, mut lo, mut hi) = (0.0_f64, f64::INFINITY, f64::NEG_INFINITY);
            for i in last..t.len() {
                let v = hb(t[i]);
                worst = worst.max((e[i] - v).abs());
                lo = lo.min(v);
                hi = hi.max(v);
            }
            (col.to_string(), worst, hi - lo)
        })
        .collect()
}

/// The two angular frequencies of `det(K - ω² M) = 0` for a diagonal M, in
/// closed form.
#[allow(dead_code)]
pub fn eig2(m1: f64, m2: f64, k11: f64, k12: f64, k22: f64) -> [f64; 2] {
    let (a, b, c) = (m1 * m2, -(m1 * k22 + m2 * k11), k11 * k22 - k12 * k12);
    let d = (b * b - 4.0 * a * c).sqrt();
    [((-b - d) / (2.0 * a)).sqrt(), ((-b + d) / (2.0 * a)).sqrt()]
}

/// `n` amplitudes spaced logarithmically from `a1` to `a2`.
#[allow(dead_code)]
pub fn log_space(a1: f64, a2: f64, n: usize) -> Vec<f64> {
    (0..n).map(|i| a1 * (a2 / a1).powf(i as f64 / (n - 1) as f64)).collect()
}

//! Helpers shared by the tests of harmonic balance with gaps and in planes
//! (`hb_gaps.rs`, `hb_grazing.rs`, `hb_planes.rs`): a scenario from text and
//! the motion of harmonic coefficients.

use friction_sim::{scenario, System};

/// The scenario of `text`.
pub fn parse(text: &str) -> System {
    scenario::parse(text, "hb_test.toml", std::path::Path::new(".")).unwrap()
}

/// x(t) and v(t) of coefficients `c` (2H + 1: mean, then cos and sin of each harmonic).
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

//! Frequency responses through grazing, where a gap's least penetration
//! over the period reaches 0 and the sampled branch turns at every sample
//! entering or leaving contact: a zero-clearance stop at its resonance and
//! examples/coupled_joint.toml lifting off its floor, each branch reaching
//! its end (with the samples per period raised where it stopped before)
//! and its points there against the engine started on them.

#[path = "support/common.rs"]
mod common;
#[path = "support/gaps.rs"]
mod gaps;

use std::f64::consts::PI;

use common::{last_period, parse, synth};
use friction_hb::frf::{frf, Frf, FrfOptions, FrfPoint};
use friction_sim::simulate;
use gaps::coupled_at;

/// The largest |engine - HB| over the last of `periods` periods at `f` Hz of
/// each column `cols[k]` (coordinate k of the coefficients `c`, 2H + 1 each),
/// relative to the HB's range there, the engine started on the HB's motion
/// (`text(x0, v0)`, one row per 1/200 of the period).
fn against_engine(c: &[f64], f: f64, cols: &[&str], text: impl Fn(&[f64], &[f64]) -> String) -> Vec<f64> {
    let (w, l) = (2.0 * PI * f, c.len() / cols.len());
    let (x0, v0): (Vec<f64>, Vec<f64>) = c.chunks(l).map(|ck| synth(ck, w, 0.0)).unzip();
    let out = simulate(&parse(&text(&x0, &v0))).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    let hb: Vec<Box<dyn Fn(f64) -> f64 + '_>> =
        (0..cols.len()).map(|k| Box::new(move |t| synth(&c[k * l..(k + 1) * l], w, t).0) as _).collect();
    let pairs: Vec<(&str, &dyn Fn(f64) -> f64)> =
        cols.iter().zip(&hb).map(|(c, f)| (*c, f.as_ref())).collect();
    last_period(&out, &pairs).into_iter().map(|(_, worst, range)| worst / range).collect()
}

/// The point of `r`'s branch nearest to `f` Hz.
fn nearest(r: &Frf, f: f64) -> &FrfPoint {
    r.points.iter().min_by(|a, b| (a.f - f).abs().total_cmp(&(b.f - f).abs())).unwrap()
}

/// `bench/hb/sdof_gap.toml` with its stop at zero clearance and 2 N s/m:
/// 1 kg on 1e4 N/m pushed back by 1e5 N/m while x > 0, a bilinear
/// oscillator (resonance 24.46 Hz), forced by 1 N. At 256 samples its
/// branch stopped at 24.4899 Hz, past the peak (24.46 Hz): one sample's
/// share of the stop (1e5/256 = 390 N/m) outweighs the damping's c ω =
/// 308 N/m there, and the sampled branch turns by a finite angle at every
/// sample that enters or leaves contact (measured: the corrector cycling,
/// its residual alternating 2.6e-6, 5.4e-6, or converging 3 to 9 steps from
/// its predictor). The response now doubles the samples where a branch
/// stops: 10 to 35 Hz at 1024 samples (and H = 12). Its points near
/// 24.2 Hz, 24.49 Hz and 24.7 Hz against the engine started on them and
/// run 30 periods at rtol 1e-10: x over the last period within 1 % of its
/// range (measured: at most 3.5e-4, at 24.49 Hz).
#[test]
fn a_branch_through_grazing_reaches_f_max_instead_of_stopping() {
    let text = |f: f64, x0: f64, v0: f64| {
        format!(
            r#"name = "graze"
[[body]]
name = "m"
mass = 1.0
x0 = {x0:e}
v0 = {v0:e}
[[spring]]
between = ["m", "ground"]
stiffness = 1e4
[[damper]]
between = ["m", "ground"]
coefficient = 2.0
[[gap]]
name = "stop"
between = ["m", "ground"]
stiffness = 1e5
length = 0.0
[[force]]
name = "p"
on = "m"
value = {{ type = "sine", amplitude = 1.0, frequency = {f} }}
[solver]
t_end = {t_end}
output_dt = {dt:e}
rtol = 1e-10
atol = 1e-12
"#,
            t_end = 30.0 / f,
            dt = 1.0 / f / 200.0
        )
    };
    let r = frf(
        &parse(&text(20.0, 0.0, 0.0)),
        "p",
        &FrfOptions { f_min: 10.0, f_max: 35.0, ..Default::default() },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.points.last().unwrap().f, 35.0);
    assert_eq!((r.samples, r.harmonics), (1024, 12));
    // the peak, which the branch at 256 samples passed before it stopped
    let top = r.points.iter().max_by(|a, b| a.amplitude[0].total_cmp(&b.amplitude[0])).unwrap();
    assert!((top.f - 24.46).abs() < 0.01, "peak at {} Hz", top.f);
    for f in [24.2, 24.49, 24.7] {
        let p = nearest(&r, f);
        assert!((p.f - f).abs() < 0.02, "no point near {f} Hz: {}", p.f);
        let rel = against_engine(&p.coefficients, p.f, &["x.m"], |x, v| text(p.f, x[0], v[0]));
        eprintln!("f = {} Hz, amplitude {:e} m: engine - HB {rel:?} of the range", p.f, p.amplitude[0]);
        assert!(rel[0] < 1e-2, "at {} Hz the engine differs by {rel:?} of the range", p.f);
    }
}

/// examples/coupled_joint.toml at 20 N: at 256 samples its branch stopped
/// at 16.3535 Hz, where the body begins to lift off the floor (the
/// corrector cycling, its residual alternating 6e-9, 4.6e-5, 4.1e-6, or
/// converging 21 to 23 steps from its predictor). Doubled to 512 samples
/// the branch from 10 Hz reaches 20 Hz; its points near 15.9 Hz (on the
/// floor all period), 16.35 Hz and 17 Hz (off it for part of the period)
/// against the engine started on them and run 20 periods: x and y within
/// 1 % of their ranges (measured: at most 4.2e-3, y at 17 Hz).
#[test]
fn a_coupled_joint_lifting_off_at_20_n_is_traced_past_16_35_hz_instead_of_stopping() {
    let text = |f: f64, x0: [f64; 2], v0: [f64; 2]| coupled_at(20.0, f, x0, v0, 20.0, 200);
    let r = frf(
        &parse(&text(10.0, [0.0; 2], [0.0; 2])),
        "p",
        &FrfOptions { f_min: 10.0, f_max: 20.0, ..Default::default() },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.points.last().unwrap().f, 20.0);
    assert_eq!(r.samples, 512);
    for f in [16.0, 16.35, 17.0] {
        let p = nearest(&r, f);
        assert!((p.f - f).abs() < 0.2, "no point near {f} Hz: {}", p.f);
        let rel = against_engine(&p.coefficients, p.f, &["x.m", "y.m"], |x, v| {
            text(p.f, [x[0], x[1]], [v[0], v[1]])
        });
        let l = p.coefficients.len() / 2;
        let w = 2.0 * PI * p.f;
        let top = (0..200)
            .map(|i| synth(&p.coefficients[l..], w, i as f64 / 200.0 / p.f).0)
            .fold(f64::MIN, f64::max);
        eprintln!("f = {} Hz: engine - HB {rel:?} of the ranges, largest y {top:e} m", p.f);
        // on the floor all period below 16.35 Hz, off it for part of it above
        // (at 16.3476 Hz, 512 samples, it just lifts: y up to 2.5e-6 m)
        if f != 16.35 {
            assert_eq!(top > 0.0, f > 16.35, "at {} Hz the largest y is {top:e} m", p.f);
        }
        assert!(rel.iter().all(|&e| e < 1e-2), "at {} Hz the engine differs by {rel:?} of the ranges", p.f);
    }
}

//! Synthetic measurements: a model driven along a designed motion, with
//! seeded Gaussian noise on the force. Used to check identification
//! (parameters known) and to make the example data sets.

use friction_models::{build, ParamMap};
use friction_sim::drive::DriveSettings;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::data::Series;
use crate::error::AnalysisError;
use crate::fit::{model_force, Motion};

/// Displacement `x = d (0.2 + 4.8 t/T) sin(2π cycles t/T)` on `n` samples over
/// `[0, T]`: loops of growing amplitude, from a fifth of `d` to five times
/// `d`. With `d` the pre-sliding distance (Fc/σ0, say) the early loops stay
/// in pre-sliding and the late ones slide, at speeds up to about
/// `10 π d cycles / T`.
///
/// ```
/// let m = friction_analysis::synth::growing_sine(1e-5, 4.0, 1.0, 200);
/// assert_eq!(m.t.len(), 200);
/// let peak = m.x.iter().cloned().fold(0.0, f64::max);
/// assert!(peak > 4e-5 && peak < 5e-5); // the last crest, at t/T = 5.25/6
/// ```
pub fn growing_sine(d: f64, cycles: f64, duration: f64, n: usize) -> Motion {
    let w = 2.0 * std::f64::consts::PI * cycles / duration;
    let t: Vec<f64> = (0..n).map(|i| duration * i as f64 / (n - 1) as f64).collect();
    let amp = |t: f64| d * (0.2 + 4.8 * t / duration);
    let x = t.iter().map(|&t| amp(t) * (w * t).sin()).collect();
    let v = t.iter().map(|&t| 4.8 * d / duration * (w * t).sin() + amp(t) * w * (w * t).cos()).collect();
    Motion { t, x, v, n: None }
}

/// Velocities for a static (Stribeck) curve: `n` samples, alternating in
/// sign, with magnitudes spread logarithmically over `[vmin, vmax]`; one
/// sample per second, `x` the running sum.
pub fn velocity_sweep(vmin: f64, vmax: f64, n: usize) -> Motion {
    let t: Vec<f64> = (0..n).map(|i| i as f64).collect();
    let v: Vec<f64> = (0..n)
        .map(|i| {
            let r = i as f64 / (n - 1) as f64;
            let s = if i % 2 == 0 { 1.0 } else { -1.0 };
            s * vmin * (vmax / vmin).powf(r)
        })
        .collect();
    let mut x = vec![0.0; n];
    for i in 1..n {
        x[i] = x[i - 1] + v[i];
    }
    Motion { t, x, v, n: None }
}

/// Standard normal deviates (Box-Muller) from a seeded ChaCha8 generator.
pub fn gaussian(seed: u64, n: usize) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(n + 1);
    while out.len() < n {
        let u1: f64 = 1.0 - rng.random::<f64>(); // (0, 1]
        let u2: f64 = rng.random::<f64>();
        let r = (-2.0 * u1.ln()).sqrt();
        let a = 2.0 * std::f64::consts::PI * u2;
        out.push(r * a.cos());
        out.push(r * a.sin());
    }
    out.truncate(n);
    out
}

/// The series measured on model `id` with `params` along `motion`: the model
/// force plus Gaussian noise of standard deviation `noise` [N] (seeded).
pub fn measure(
    id: &str,
    params: &ParamMap,
    motion: &Motion,
    noise: f64,
    seed: u64,
    settings: &DriveSettings,
) -> Result<Series, AnalysisError> {
    let model = build(id, params)?;
    let f = model_force(&model, motion, settings)?;
    let e = gaussian(seed, f.len());
    let f = f.iter().zip(&e).map(|(f, e)| f + noise * e).collect();
    Series::new(
        &format!("<synthetic {id}>"),
        motion.t.clone(),
        Some(motion.x.clone()),
        Some(motion.v.clone()),
        Some(f),
        motion.n.clone(),
    )
}

/// Write a series as CSV with columns `t,x,v,F` (and `N` if present).
pub fn write_csv(s: &Series, path: &std::path::Path, comment: &str) -> Result<(), AnalysisError> {
    let mut out = String::new();
    for line in comment.lines() {
        out += &format!("# {line}\n");
    }
    out += if s.n.is_some() { "t,x,v,F,N\n" } else { "t,x,v,F\n" };
    for i in 0..s.len() {
        let col = |c: &Option<Vec<f64>>| c.as_ref().map_or(f64::NAN, |c| c[i]);
        out += &format!("{:e},{:e},{:e},{:e}", s.t[i], col(&s.x), col(&s.v), col(&s.f));
        if let Some(n) = &s.n {
            out += &format!(",{:e}", n[i]);
        }
        out += "\n";
    }
    std::fs::write(path, out)
        .map_err(|e| AnalysisError::Io { path: path.display().to_string(), message: e.to_string() })
}

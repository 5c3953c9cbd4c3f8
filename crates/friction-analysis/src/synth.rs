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
/// force plus Gaussian noise of standard deviation `noise` \[N\] (seeded).
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

/// One of the example data sets shipped in `examples/data/`.
#[derive(Debug, Clone)]
pub struct ExampleSet {
    /// File stem (`examples/data/NAME.csv`).
    pub name: &'static str,
    /// Model id.
    pub model: &'static str,
    /// True parameters, as `k=v,...`.
    pub params: &'static str,
    /// What it shows and how to fit it.
    pub comment: &'static str,
    /// The motion.
    pub motion: Motion,
    /// Noise standard deviation \[N\].
    pub noise: f64,
    /// Noise seed.
    pub seed: u64,
}

impl ExampleSet {
    /// The series (engine models integrated with tight tolerances).
    pub fn series(&self) -> Result<Series, AnalysisError> {
        let params = crate::fit::parse_params(self.model, self.params)?;
        let m = build(self.model, &params)?;
        let ds = DriveSettings {
            rtol: 1e-9,
            atol_state: crate::fit::state_tolerance(&m, &self.motion, &DriveSettings::default(), 1e-10),
            ..Default::default()
        };
        measure(self.model, &params, &self.motion, self.noise, self.seed, &ds)
    }
}

/// The example data sets of `examples/data/` (written by
/// `cargo run -p friction-analysis --example make_fit_data`).
pub fn example_sets() -> Vec<ExampleSet> {
    vec![
        ExampleSet {
            name: "stribeck_curve",
            model: "stribeck",
            params: "fc=1,fs=1.5,vs=0.01,kv=0.4,exponent=2",
            comment: "Static Stribeck curve: (v, F) pairs at speeds 1e-4..0.3 m/s of both signs, noise 0.02 N.\n\
                      friction fit --model stribeck --data examples/data/stribeck_curve.csv",
            motion: velocity_sweep(1e-4, 0.3, 150),
            noise: 0.02,
            seed: 1,
        },
        ExampleSet {
            name: "dahl_loops",
            model: "dahl",
            params: "sigma0=1e5,fc=1,exponent=1.5",
            comment: "Dahl hysteresis loops of growing amplitude (2e-6..5e-5 m), noise 0.01 N.\n\
                      friction fit --model dahl --data examples/data/dahl_loops.csv",
            motion: growing_sine(1e-5, 6.0, 1.0, 300),
            noise: 0.01,
            seed: 2,
        },
        ExampleSet {
            name: "lugre_loops",
            model: "lugre",
            params: "sigma0=1e5,fc=1,fs=1.5,vs=1e-3",
            comment: "LuGre (other parameters at their defaults) along loops of growing amplitude at speeds up to\n\
                      5e-3 m/s: pre-sliding and the Stribeck curve, noise 0.01 N.\n\
                      friction fit --model lugre --data examples/data/lugre_loops.csv --fix sigma1,sigma2,exponent --validate-from 0.25",
            motion: growing_sine(1e-5, 6.0, 0.375, 300),
            noise: 0.01,
            seed: 3,
        },
        ExampleSet {
            name: "maxwell_slip_loop",
            model: "maxwell_slip",
            params: "elements[0].k=5e4,elements[0].fmax=0.2,elements[1].k=3e4,elements[1].fmax=0.4,\
                     elements[2].k=2e4,elements[2].fmax=0.5",
            comment: "Pre-sliding loops of a 3-element Maxwell-slip model (slip displacements 4e-6, 1.3e-5, 2.5e-5 m), noise 0.005 N.\n\
                      friction fit --model maxwell_slip --data examples/data/maxwell_slip_loop.csv --elements 3",
            motion: growing_sine(1e-5, 6.0, 1.0, 300),
            noise: 0.005,
            seed: 4,
        },
        ExampleSet {
            name: "gms_loop",
            model: "gms",
            params: "elements[0].k=4e4,elements[0].alpha=0.5,elements[1].k=6e4,elements[1].alpha=0.5,fc=1,fs=1.5,vs=1e-3",
            comment: "Slow pre-sliding loops (speeds below 4e-5 m/s = 0.04 vs) of a 2-element GMS model, noise 0.005 N.\n\
                      friction fit --model gms --data examples/data/gms_loop.csv --elements 2 --free elements,fs",
            motion: growing_sine(1e-5, 4.0, 40.0, 300),
            noise: 0.005,
            seed: 5,
        },
    ]
}

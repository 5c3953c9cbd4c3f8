//! A small reference driver for checking models along prescribed motions.
//!
//! [`drive`] integrates a model's continuous states with the classical
//! fixed-step fourth-order Runge-Kutta method along a [`Path`], lands exactly
//! on the path's corners, and calls [`FrictionModel::accept`] once per step.
//! It exists so that model tests and doc examples need no ODE library; real
//! simulations go through the `friction-sim` crate's adaptive solvers.

use crate::model::{FrictionModel, Input};

/// A prescribed relative motion x(t), v(t).
#[derive(Debug, Clone)]
pub enum Path {
    /// Piecewise linear through turning points at constant speed, starting at the first point at t = 0.
    Points {
        /// Turning points \[m\].
        points: Vec<f64>,
        /// Speed [m/s].
        speed: f64,
    },
    /// `x = offset + amplitude sin(2π f t)`, for `cycles` periods.
    Sine {
        /// Amplitude \[m\].
        amplitude: f64,
        /// Frequency \[Hz\].
        frequency: f64,
        /// Number of periods.
        cycles: f64,
    },
    /// Prescribed velocity `v = bias + amplitude sin(2π f t)`, x from its integral, for `duration` s.
    VelocitySine {
        /// Mean velocity [m/s].
        bias: f64,
        /// Velocity amplitude [m/s].
        amplitude: f64,
        /// Frequency \[Hz\].
        frequency: f64,
        /// Duration \[s\].
        duration: f64,
    },
}

impl Path {
    /// Piecewise linear through `points` at `speed`.
    pub fn points(points: &[f64], speed: f64) -> Self {
        Path::Points { points: points.to_vec(), speed }
    }

    /// Times at which the motion has a corner (always includes 0 and the end).
    pub fn breakpoints(&self) -> Vec<f64> {
        match self {
            Path::Points { points, speed } => {
                let mut t = vec![0.0];
                for w in points.windows(2) {
                    let last = *t.last().unwrap();
                    t.push(last + (w[1] - w[0]).abs() / speed);
                }
                t
            }
            Path::Sine { frequency, cycles, .. } => vec![0.0, cycles / frequency],
            Path::VelocitySine { duration, .. } => vec![0.0, *duration],
        }
    }

    /// Position and velocity at time `t`.
    pub fn at(&self, t: f64) -> (f64, f64) {
        match self {
            Path::Points { points, speed } => {
                let bp = self.breakpoints();
                for (i, w) in bp.windows(2).enumerate() {
                    if t <= w[1] || i == bp.len() - 2 {
                        let dir = (points[i + 1] - points[i]).signum();
                        let tt = (t - w[0]).min(w[1] - w[0]);
                        return (points[i] + dir * speed * tt, dir * speed);
                    }
                }
                (points[0], 0.0)
            }
            Path::Sine { amplitude, frequency, .. } => {
                let w = 2.0 * std::f64::consts::PI * frequency;
                (amplitude * (w * t).sin(), amplitude * w * (w * t).cos())
            }
            Path::VelocitySine { bias, amplitude, frequency, .. } => {
                let w = 2.0 * std::f64::consts::PI * frequency;
                (bias * t + amplitude / w * (1.0 - (w * t).cos()), bias + amplitude * (w * t).sin())
            }
        }
    }
}

/// One recorded sample of [`drive`].
#[derive(Debug, Clone)]
pub struct Sample {
    /// Time \[s\].
    pub t: f64,
    /// Displacement \[m\].
    pub x: f64,
    /// Velocity [m/s].
    pub v: f64,
    /// Friction force \[N\].
    pub f: f64,
    /// Continuous states.
    pub z: Vec<f64>,
}

/// Drive `model` along `path` with steps of at most `dt`, recording every step.
///
/// Within a segment between corners the velocity used is the one just inside
/// the segment, so direction reversals happen exactly at step boundaries.
pub fn drive<M: FrictionModel>(model: &M, path: &Path, dt: f64) -> Vec<Sample> {
    let nz = model.n_states();
    let mut z = vec![0.0; nz];
    let mut mem = vec![0.0; model.n_memory()];
    let (x0, v0) = path.at(0.0);
    model.init(&Input::new(0.0, x0, v0), &mut z, &mut mem);
    let mut out = Vec::new();
    let bp = path.breakpoints();
    let f0 = model.force(&Input::new(0.0, x0, v0), &z, &mem);
    out.push(Sample { t: 0.0, x: x0, v: v0, f: f0, z: z.clone() });
    let (mut k1, mut k2, mut k3, mut k4, mut tmp) =
        (vec![0.0; nz], vec![0.0; nz], vec![0.0; nz], vec![0.0; nz], vec![0.0; nz]);
    for seg in bp.windows(2) {
        let (ta, tb) = (seg[0], seg[1]);
        let n = ((tb - ta) / dt).ceil().max(1.0) as usize;
        let h = (tb - ta) / n as f64;
        // evaluate the path strictly inside the segment so corners are one-sided
        let eval = |t: f64| {
            let tc = t.clamp(ta + 1e-12 * (tb - ta), tb - 1e-12 * (tb - ta));
            let (_, v) = path.at(tc);
            let (x, _) = path.at(t);
            Input::new(t, x, v)
        };
        for k in 0..n {
            let t = ta + k as f64 * h;
            let i1 = eval(t);
            let i2 = eval(t + 0.5 * h);
            let i4 = eval(t + h);
            model.rates(&i1, &z, &mem, &mut k1);
            for j in 0..nz {
                tmp[j] = z[j] + 0.5 * h * k1[j];
            }
            model.rates(&i2, &tmp, &mem, &mut k2);
            for j in 0..nz {
                tmp[j] = z[j] + 0.5 * h * k2[j];
            }
            model.rates(&i2, &tmp, &mem, &mut k3);
            for j in 0..nz {
                tmp[j] = z[j] + h * k3[j];
            }
            model.rates(&i4, &tmp, &mem, &mut k4);
            for j in 0..nz {
                z[j] += h / 6.0 * (k1[j] + 2.0 * k2[j] + 2.0 * k3[j] + k4[j]);
            }
            model.accept(&i4, &mut z, &mut mem);
            let f = model.force(&i4, &z, &mem);
            out.push(Sample { t: i4.t, x: i4.x, v: i4.v, f, z: z.clone() });
        }
    }
    out
}

/// Work done against friction, `∫ F dx`, by the trapezoidal rule (positive = dissipated).
pub fn work(rec: &[Sample]) -> f64 {
    rec.windows(2).map(|w| 0.5 * (w[0].f + w[1].f) * (w[1].x - w[0].x)).sum()
}

/// The force at the last sample.
pub fn force_at_end(rec: &[Sample]) -> f64 {
    rec.last().map(|s| s.f).unwrap_or(0.0)
}

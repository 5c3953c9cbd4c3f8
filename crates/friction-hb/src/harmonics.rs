//! Real Fourier coefficients of a periodic signal and the discrete
//! transforms between them and equally spaced samples over one period: the
//! "frequency" and "time" halves of the alternating frequency-time method.
//!
//! ```text
//! x(τ) = a0 + Σ_{k=1..H} ( a_k cos(k τ) + b_k sin(k τ) ),   τ = ω t ∈ [0, 2π)
//! coefficients stored as [a0, a1, b1, a2, b2, ..., aH, bH]   (2H + 1 values)
//! samples τ_n = 2π n / N, n = 0..N-1, N > 2H
//! a0 = (1/N) Σ x_n,  a_k = (2/N) Σ x_n cos(k τ_n),  b_k = (2/N) Σ x_n sin(k τ_n)
//! ```
//!
//! The last two lines are exact for a trigonometric polynomial of degree
//! below N/2 and are the least-squares projection of any other sample set.

use std::f64::consts::PI;

use nalgebra::DMatrix;

/// Most periods run to reach the periodic steady state of a contact's
/// memory or state before its evaluation reports it has not settled.
pub const MAX_PERIODS: usize = 400;

/// Relative change of a periodic signal from one period to the next below
/// which it is taken as periodic.
pub const PERIODIC_TOL: f64 = 1e-11;

/// The position and velocity at time `t` of the motion of coefficients `c`
/// (mean, then the cosine and sine of each of `h` harmonics) at angular
/// frequency `omega`: the synthesis at any instant, between samples.
pub fn motion_at(c: &[f64], h: usize, omega: f64, t: f64) -> (f64, f64) {
    let (mut x, mut v) = (c[0], 0.0);
    for k in 1..=h {
        let (a, b) = (c[2 * k - 1], c[2 * k]);
        let (s, co) = (k as f64 * omega * t).sin_cos();
        x += a * co + b * s;
        v += k as f64 * omega * (b * co - a * s);
    }
    (x, v)
}

/// One period's samples equal the previous period's, to [`PERIODIC_TOL`]
/// of the largest.
pub fn repeats(f: &[f64], prev: &[f64]) -> bool {
    let scale = f.iter().fold(0.0f64, |m, x| m.max(x.abs())).max(1e-300);
    f.iter().zip(prev).all(|(a, b)| (a - b).abs() <= PERIODIC_TOL * scale)
}

/// The sampling grid of a period and its cosine/sine tables.
#[derive(Debug, Clone)]
pub struct Grid {
    /// Number of harmonics H.
    pub h: usize,
    /// Number of samples N per period.
    pub n: usize,
    /// `cos(k τ_n)` at `[k * n + i]`, k = 0..=H.
    cos: Vec<f64>,
    /// `sin(k τ_n)` at `[k * n + i]`, k = 0..=H.
    sin: Vec<f64>,
}

impl Grid {
    /// A grid of `n` samples for `h` harmonics; `n` is raised to `2h + 1`
    /// when smaller.
    ///
    /// ```
    /// use friction_hb::harmonics::Grid;
    /// let g = Grid::new(2, 16);
    /// // x = 1 + 2 cos τ - 3 sin 2τ, sampled and transformed back
    /// let c = [1.0, 2.0, 0.0, 0.0, -3.0];
    /// let mut x = vec![0.0; g.n];
    /// g.synth(&c, &mut x);
    /// let mut back = [0.0; 5];
    /// g.analyse(&x, &mut back);
    /// for (a, b) in c.iter().zip(back) { assert!((a - b).abs() < 1e-14); }
    /// ```
    pub fn new(h: usize, n: usize) -> Self {
        let n = n.max(2 * h + 1);
        let mut cos = vec![0.0; (h + 1) * n];
        let mut sin = vec![0.0; (h + 1) * n];
        for k in 0..=h {
            for i in 0..n {
                // reduce k i mod n first: exact angles for large k i
                let tau = 2.0 * PI * ((k * i) % n) as f64 / n as f64;
                cos[k * n + i] = tau.cos();
                sin[k * n + i] = tau.sin();
            }
        }
        Grid { h, n, cos, sin }
    }

    /// Number of coefficients, `2H + 1`.
    pub fn len(&self) -> usize {
        2 * self.h + 1
    }

    /// Always false: a grid has at least the mean.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Samples `x[i] = x(τ_i)` of the coefficients `c`.
    pub fn synth(&self, c: &[f64], x: &mut [f64]) {
        let n = self.n;
        x[..n].fill(c[0]);
        for k in 1..=self.h {
            let (a, b) = (c[2 * k - 1], c[2 * k]);
            if a == 0.0 && b == 0.0 {
                continue;
            }
            let (cs, sn) = (&self.cos[k * n..(k + 1) * n], &self.sin[k * n..(k + 1) * n]);
            for i in 0..n {
                x[i] += a * cs[i] + b * sn[i];
            }
        }
    }

    /// Samples of the derivative `dx/dτ` (multiply by ω for a time derivative).
    pub fn synth_derivative(&self, c: &[f64], x: &mut [f64]) {
        let n = self.n;
        x[..n].fill(0.0);
        for k in 1..=self.h {
            let (a, b) = (c[2 * k - 1], c[2 * k]);
            if a == 0.0 && b == 0.0 {
                continue;
            }
            let kf = k as f64;
            let (cs, sn) = (&self.cos[k * n..(k + 1) * n], &self.sin[k * n..(k + 1) * n]);
            for i in 0..n {
                x[i] += kf * (b * cs[i] - a * sn[i]);
            }
        }
    }

    /// The matrix of [`Grid::analyse`], `(2H + 1) × N`: its product with
    /// a matrix whose columns are sample sets is their coefficients, column
    /// by column (one matrix product in place of a transform per column).
    ///
    /// ```
    /// use friction_hb::harmonics::Grid;
    /// let g = Grid::new(2, 16);
    /// let x: Vec<f64> = (0..16).map(|i| (i as f64 * 0.7).sin() + 0.1 * i as f64).collect();
    /// let mut c = [0.0; 5];
    /// g.analyse(&x, &mut c);
    /// let m = g.analysis_matrix() * nalgebra::DVector::from_column_slice(&x);
    /// for (a, b) in c.iter().zip(m.iter()) { assert!((a - b).abs() < 1e-14); }
    /// ```
    pub fn analysis_matrix(&self) -> DMatrix<f64> {
        let n = self.n;
        let inv = 1.0 / n as f64;
        DMatrix::from_fn(self.len(), n, |r, i| {
            if r == 0 {
                inv
            } else {
                let k = r.div_ceil(2);
                let t = if r % 2 == 1 { &self.cos } else { &self.sin };
                2.0 * inv * t[k * n + i]
            }
        })
    }

    /// Coefficients `c` of the samples `x` (the discrete Fourier transform).
    pub fn analyse(&self, x: &[f64], c: &mut [f64]) {
        let n = self.n;
        let inv = 1.0 / n as f64;
        c[0] = x[..n].iter().sum::<f64>() * inv;
        for k in 1..=self.h {
            let (cs, sn) = (&self.cos[k * n..(k + 1) * n], &self.sin[k * n..(k + 1) * n]);
            let (mut a, mut b) = (0.0, 0.0);
            for i in 0..n {
                a += x[i] * cs[i];
                b += x[i] * sn[i];
            }
            c[2 * k - 1] = 2.0 * a * inv;
            c[2 * k] = 2.0 * b * inv;
        }
    }
}

/// Amplitude `sqrt(a_k² + b_k²)` of harmonic `k >= 1` in `c`.
pub fn amplitude(c: &[f64], k: usize) -> f64 {
    c[2 * k - 1].hypot(c[2 * k])
}

/// Phase φ of harmonic `k >= 1` written as `A cos(k τ - φ)` (so `a_k = A
/// cos φ`, `b_k = A sin φ`) \[rad\]; against a force `F sin τ` a linear
/// oscillator far below resonance has φ = π/2, at resonance φ = π.
pub fn phase(c: &[f64], k: usize) -> f64 {
    c[2 * k].atan2(c[2 * k - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The derivative of the samples is the sample of the derivative: a
    /// trigonometric polynomial differentiated by hand.
    #[test]
    fn derivative_of_a_trigonometric_polynomial() {
        let g = Grid::new(3, 32);
        let c = [0.5, 1.0, -2.0, 0.0, 0.3, 0.7, 0.0];
        let mut d = vec![0.0; g.n];
        g.synth_derivative(&c, &mut d);
        for (i, di) in d.iter().enumerate() {
            let t = 2.0 * PI * i as f64 / g.n as f64;
            let exact =
                -(t.sin()) - 2.0 * t.cos() + 2.0 * 0.3 * (2.0 * t).cos() - 3.0 * 0.7 * (3.0 * t).sin();
            assert!((di - exact).abs() < 1e-13, "{i}: {di} vs {exact}");
        }
    }
}

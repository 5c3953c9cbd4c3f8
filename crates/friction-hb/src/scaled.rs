//! The periodic steady state at one frequency: the balance scaled for
//! Newton's method and the continuation (`R(x, ω)/F` in `y = [x/xs, ω/ωs]`),
//! and its solution from a guess, or from the rest on the gaps
//! ([`solve_at`], [`solve_problem`], reached as `hb::frf::solve_at`).

use std::f64::consts::PI;

use nalgebra::DMatrix;

use super::continuation::{newton_fixed, Equations};
use super::problem::Problem;
use super::structure::Structure;
use friction_analysis::AnalysisError;

/// The scaled equations `R(x, ω)/F` in `y = [x/xs, ω/ωs]`.
pub(super) struct Scaled<'a> {
    pub(super) p: &'a mut Problem,
    pub(super) xs: f64,
    pub(super) ws: f64,
    pub(super) fs: f64,
    pub(super) x: Vec<f64>,
}

impl<'a> Scaled<'a> {
    pub(super) fn new(p: &'a mut Problem, ws: f64) -> Self {
        let n = p.n();
        let xs = p.xscale;
        let fs = p.s.force_amplitude.abs().max(1e-300);
        Scaled { p, xs, ws, fs, x: vec![0.0; n] }
    }
    pub(super) fn unscale(&mut self, y: &[f64]) -> f64 {
        let n = self.x.len();
        for i in 0..n {
            self.x[i] = y[i] * self.xs;
        }
        y[n] * self.ws
    }
}

impl Equations for Scaled<'_> {
    fn n(&self) -> usize {
        self.x.len()
    }
    fn eval(&mut self, y: &[f64], r: &mut [f64]) {
        let w = self.unscale(y);
        self.p.residual(&self.x, w, r);
        r.iter_mut().for_each(|v| *v /= self.fs);
    }
    fn jac(&mut self, y: &[f64], j: &mut DMatrix<f64>) {
        let w = self.unscale(y);
        // in place, column by column (a copy of the whole matrix cost 6 %
        // of the 10-body chain's frequency response)
        self.p.jacobian(&self.x, w, j);
        let n = self.x.len();
        for (c, mut col) in j.column_iter_mut().enumerate() {
            col *= if c == n { self.ws } else { self.xs } / self.fs;
        }
    }
    /// A positive frequency: the equations are even in ω up to the sign of
    /// the damping, and a corrector may otherwise land on the mirror image
    /// of the branch at -ω.
    fn admissible(&self, y: &[f64]) -> bool {
        y[self.x.len()] > 0.0
    }
    fn squared_norm_search(&self) -> bool {
        !self.p.s.gaps.is_empty()
    }
}

/// The periodic steady state of `s` at the single frequency `f` \[Hz\] with
/// `h` harmonics and `n` samples, from the coefficients `guess` (zeros when
/// `None`; a guess with fewer harmonics is padded). Returns the
/// coefficients of every body.
pub fn solve_at(
    s: &Structure,
    f: f64,
    h: usize,
    n: usize,
    guess: Option<&[f64]>,
) -> Result<Vec<f64>, AnalysisError> {
    let mut p = Problem::new(s.clone(), h, n);
    solve_problem(&mut p, f, guess)
}

/// [`solve_at`] for a problem already set up (its harmonics, samples and
/// settings, such as the dynamic Lagrangian penalty [`Problem::epsilon`]).
pub fn solve_problem(p: &mut Problem, f: f64, guess: Option<&[f64]>) -> Result<Vec<f64>, AnalysisError> {
    let ws = 2.0 * PI * f;
    let (nn, dofs, h) = (p.n(), p.s.dofs(), p.grid.h);
    let mut sc = Scaled::new(p, ws);
    let mut y = vec![0.0; nn + 1];
    y[nn] = 1.0;
    if let Some(g) = guess {
        pad(g, dofs, h, &mut y);
        y[..nn].iter_mut().for_each(|v| *v /= sc.xs);
    } else if let Some(rest) = super::gaps::resting(&sc.p.s) {
        // resting on its gaps, not just touching them
        let l = 2 * h + 1;
        for (d, x) in rest.iter().enumerate() {
            y[d * l] = x / sc.xs;
        }
    }
    newton_fixed(&mut sc, &mut y, 1e-10, 60)?;
    Ok(y[..nn].iter().map(|v| v * sc.xs).collect())
}

/// Copy coefficients of any number of harmonics into `y`'s layout for `h`.
fn pad(g: &[f64], dofs: usize, h: usize, y: &mut [f64]) {
    let lg = g.len() / dofs;
    let l = 2 * h + 1;
    for d in 0..dofs {
        for j in 0..l.min(lg) {
            y[d * l + j] = g[d * lg + j];
        }
    }
}

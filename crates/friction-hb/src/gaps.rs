//! Gaps and varying normal loads in the alternating frequency-time
//! evaluation: each gap's force over the period from the samples of its
//! members' relative motion, and a contact's force under the load of its
//! `normal_gap`, sample by sample.
//!
//! ```text
//! s_n, ṡ_n  ←  coefficients of x_second - x_first       (synthesis, ṡ = ω ds/dτ)
//! P_n = law(s_n, ṡ_n)   (c p^e + d ṗ in contact, its damping limited, 0 open; p = length - s)
//! contact under that gap:  F_n = normal P_n F_model,n  →  coefficients (analysis)
//! ```
//!
//! The law is the engine's ([`friction_sim::system::Gap::law`]), so the
//! normal load opens (P = 0: no friction) and closes with the motion, and
//! the friction model's state follows the slip through the open part of
//! the period as it does in the engine (its force scaled by the load). The
//! Jacobian of a problem with gaps is taken by forward differences of the
//! residual (the penalty's kink moves with the motion), and the stability
//! of its solutions is not assessed ([`super::floquet::unassessed`]).

use super::harmonics::Grid;
use super::structure::{HbGap, Structure};

/// The rest position of `s` with every gap closed and linear (its spring
/// constant `c`, contact at `length`) and every contact stuck: the mean a
/// Newton solve starts from when a structure rests on a gap (from zero the
/// gap is just open, its force and slope zero, the Jacobian singular).
/// `None` without gaps, or if that stiffness is singular.
pub fn resting(s: &Structure) -> Option<Vec<f64>> {
    if s.gaps.is_empty() {
        return None;
    }
    // (a contact under a gap's load taken as under its `normal` alone: the
    // start that the Newton solves of `tests/hb_gaps.rs` converge from)
    s.rest_with(&s.stiffness_at_normal())
}

/// The force samples of every gap over one period (work arrays kept).
#[derive(Debug, Clone)]
pub struct GapSamples {
    rel: Vec<f64>,
    s: Vec<f64>,
    v: Vec<f64>,
    /// Per gap, its force `P_n >= 0` at every sample.
    pub p: Vec<Vec<f64>>,
}

impl GapSamples {
    /// Work arrays for `gaps` on `grid`.
    pub fn new(gaps: &[HbGap], grid: &Grid) -> Self {
        GapSamples {
            rel: vec![0.0; grid.len()],
            s: vec![0.0; grid.n],
            v: vec![0.0; grid.n],
            p: vec![vec![0.0; grid.n]; gaps.len()],
        }
    }

    /// Every gap's force samples at coefficients `x` (`2H + 1` per degree
    /// of freedom) and angular frequency `omega`.
    pub fn eval(&mut self, gaps: &[HbGap], grid: &Grid, x: &[f64], omega: f64) {
        for (g, p) in gaps.iter().zip(&mut self.p) {
            Self::relative(&mut self.rel, &mut self.s, &mut self.v, g, grid, x);
            for n in 0..grid.n {
                p[n] = g.gap.law(self.s[n], omega * self.v[n]).force;
            }
        }
    }
}

/// A gap's linearisation along the periodic motion, sample by sample:
/// its force `P` and the law's slopes `∂P/∂(x2 - x1)`, `∂P/∂(v2 - v1)` on
/// the branch in force ([`friction_sim::system::Gap::law`]; zero where
/// the gap is open or its damping's limit holds the force).
#[derive(Debug, Clone, Default)]
pub struct GapTangent {
    /// `P` at each sample \[N\].
    pub p: Vec<f64>,
    /// `∂P/∂(x2 - x1)` at each sample \[N/m\].
    pub ds: Vec<f64>,
    /// `∂P/∂(v2 - v1)` at each sample \[N s/m\].
    pub dv: Vec<f64>,
}

impl GapSamples {
    /// Gap `g`'s relative coefficients `x2 - x1` at `x` into `rel`, and
    /// their samples `s` and derivative in the phase `v` (`d/dτ`, τ = ωt).
    fn relative(rel: &mut [f64], s: &mut [f64], v: &mut [f64], g: &HbGap, grid: &Grid, x: &[f64]) {
        let l = grid.len();
        for j in 0..l {
            let a = g.first.map_or(0.0, |i| x[i * l + j]);
            let b = g.second.map_or(0.0, |i| x[i * l + j]);
            rel[j] = b - a;
        }
        grid.synth(rel, s);
        grid.synth_derivative(rel, v);
    }

    /// Every gap's [`GapTangent`] at coefficients `x` and angular frequency
    /// `omega` into `out` (one per gap, resized to the grid).
    pub fn tangents(&mut self, gaps: &[HbGap], grid: &Grid, x: &[f64], omega: f64, out: &mut [GapTangent]) {
        for (g, t) in gaps.iter().zip(out.iter_mut()) {
            Self::relative(&mut self.rel, &mut self.s, &mut self.v, g, grid, x);
            t.p.resize(grid.n, 0.0);
            t.ds.resize(grid.n, 0.0);
            t.dv.resize(grid.n, 0.0);
            for n in 0..grid.n {
                let f = g.gap.law(self.s[n], omega * self.v[n]);
                (t.p[n], t.ds[n], t.dv[n]) = (f.force, f.d_srel, f.d_vrel);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use friction_sim::system::Gap;
    use friction_sim::Member;

    /// A linear gap closed by a mean penetration larger than the motion's
    /// amplitude stays closed: its force's coefficients are those of the
    /// spring `c (length - s)`; opened for part of the period its mean
    /// force is the half-sine's.
    #[test]
    fn a_gap_closed_all_period_is_a_spring_and_half_open_a_clipped_sine() {
        let grid = Grid::new(3, 64);
        let gap = Gap {
            name: "g".into(),
            between: [Member::Ground, Member::Body(0)],
            length: 0.0,
            stiffness: 100.0,
            damping: 0.0,
            exponent: 1.0,
        };
        let gaps = [HbGap { first: None, second: Some(0), gap }];
        let mut w = GapSamples::new(&gaps, &grid);
        let (mut x, mut c) = (vec![0.0; grid.len()], vec![0.0; grid.len()]);
        // x = -0.02 + 0.01 cos τ: always in contact, P = 100 (0.02 - 0.01 cos τ)
        x[0] = -0.02;
        x[1] = 0.01;
        w.eval(&gaps, &grid, &x, 3.0);
        grid.analyse(&w.p[0], &mut c);
        assert!((c[0] - 2.0).abs() < 1e-12 && (c[1] + 1.0).abs() < 1e-12, "{c:?}");
        // x = 0.01 cos τ: in contact half the period, P = max(0, -c x): mean c A / π
        x[0] = 0.0;
        w.eval(&gaps, &grid, &x, 3.0);
        grid.analyse(&w.p[0], &mut c);
        let want = 100.0 * 0.01 / std::f64::consts::PI;
        assert!((c[0] - want).abs() < 1e-3 * want, "mean {} against {want}", c[0]);
    }
}

//! The extended periodic motion's parts of a [`Problem`] (`friction nnm`,
//! Krack 2015): the fictitious damping `-ξ M` in its linear part (a
//! condensed problem's modal receptance, `super::condensed_nnm`), its
//! column of the Jacobian, and its energy per cycle. In a file of its own
//! so that the condensed receptance sits below the problem that holds it.

use std::sync::Arc;

use super::condensed_nnm::{FreeReceptance, Linear};
use super::problem::Problem;

impl Problem {
    /// Balance the extended periodic motion: a condensed problem's linear
    /// part takes the fictitious damping `-ξ M` ([`Problem::xi`]) in its
    /// modal receptance (see `super::condensed_nnm`); a full one takes it in its damping
    /// matrix without this.
    pub fn free_motion(&mut self) {
        if let Some(Linear::Forced(_)) = &self.lin {
            if let Some(m) = &self.s.condensed {
                self.lin = Some(Linear::Free(Box::new(FreeReceptance::new(Arc::clone(m), self.grid.h))));
            }
        }
    }

    /// Add `∂r/∂ξ` at coefficients `x` and angular frequency `omega` to
    /// `col` (the damping `-ξ M` in harmonic k adds `-kω M b_k` to the rows
    /// of `a_k` and `kω M a_k` to those of `b_k`; condensed, the modal
    /// receptance's derivative).
    /// With a dynamic Lagrangian contact, whose force is the one the rest
    /// of the balance (and so `-ξ M`) asks of it while it sticks, the whole
    /// column by a forward difference of the residual in ξ.
    pub fn add_xi_column(&mut self, x: &[f64], omega: f64, col: &mut [f64]) {
        let xi = self.xi;
        if self.has_dlft() {
            let (mut r0, mut r1) = (std::mem::take(&mut self.r0), std::mem::take(&mut self.r1));
            self.residual(x, omega, &mut r0);
            let dxi = 1e-7 * omega.max(xi.abs());
            self.xi = xi + dxi;
            self.residual(x, omega, &mut r1);
            self.xi = xi;
            for (c, (a, b)) in col.iter_mut().zip(r0.iter().zip(&r1)) {
                *c += (b - a) / dxi;
            }
            (self.r0, self.r1) = (r0, r1);
            return;
        }
        if let Some(Linear::Free(f)) = &mut self.lin {
            return f.add_xi_column(x, omega, xi, col);
        }
        let (nd, l, h) = (self.s.dofs(), self.grid.len(), self.grid.h);
        for d in 0..nd {
            for e in 0..nd {
                let m = self.s.m[(d, e)];
                for k in 1..=h {
                    let wk = k as f64 * omega;
                    let (a, bk) = (x[e * l + 2 * k - 1], x[e * l + 2 * k]);
                    col[d * l + 2 * k - 1] += -wk * m * bk;
                    col[d * l + 2 * k] += wk * m * a;
                }
            }
        }
    }

    /// The energy dissipated per cycle by `ξ M ẋ` (with `ξ` = [`Problem::xi`]),
    /// `ξ π ω Σ_k k² (a_kᵀ M a_k + b_kᵀ M b_k)` over every DOF of the
    /// structure (condensed: from the modal amplitudes, see `super::condensed_nnm`).
    pub fn fictitious_energy(&mut self, x: &[f64], omega: f64) -> f64 {
        let xi = self.xi;
        if let Some(Linear::Free(f)) = &mut self.lin {
            return f.energy(x, omega, xi);
        }
        let (nd, l, h) = (self.s.dofs(), self.grid.len(), self.grid.h);
        let mut sum = 0.0;
        for k in 1..=h {
            for d in 0..nd {
                for e in 0..nd {
                    let m = self.s.m[(d, e)];
                    let (i, j) = (d * l + 2 * k - 1, e * l + 2 * k - 1);
                    sum += (k * k) as f64 * m * (x[i] * x[j] + x[i + 1] * x[j + 1]);
                }
            }
        }
        xi * std::f64::consts::PI * omega * sum
    }
}

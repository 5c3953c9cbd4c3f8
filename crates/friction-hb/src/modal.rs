//! The modal data of a structure condensed onto its retained DOFs
//! ([`super::condensed`]): its own file, below both the structure that
//! keeps it and the condensation that makes and reads it.

use nalgebra::DMatrix;

/// The modal data of a condensed structure (shared by its clones).
#[derive(Debug)]
pub struct Modal {
    /// DOFs of the uncondensed structure.
    pub full: usize,
    /// The uncondensed index of each retained coordinate.
    pub keep: Vec<usize>,
    /// Rows `keep` of the stiffness-normalised modes `Ψ`, r × n.
    pub(super) phi: DMatrix<f64>,
    /// `μ_j = 1/ω_j²` (`Ψᵀ M Ψ`'s diagonal).
    pub(super) lam: Vec<f64>,
    /// Modal damping `d_j` (`Ψᵀ C Ψ`'s diagonal).
    pub(super) damp: Vec<f64>,
    /// The static condensed stiffness `D_0`.
    pub(super) d0: DMatrix<f64>,
    /// The uncondensed structure's largest diagonal stiffness with every
    /// contact stuck (`Structure::stuck_stiffness`) and largest diagonal
    /// mass: the scales of `Problem::new`, kept so that the condensed
    /// balance is scaled, and so traced, as the full one.
    pub scales: (f64, f64),
}

impl Modal {
    /// Whether the linear part is passive: `M` positive definite (its
    /// Cholesky succeeded), `K` and `C` positive semi-definite (every `λ_j`
    /// and `d_j` at least 0; `Ψ` is invertible).
    pub fn passive(&self) -> bool {
        let cmax = self.damp.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        self.damp.iter().all(|&c| c >= -1e-12 * cmax) && self.lam.iter().all(|&l| l >= 0.0)
    }
}

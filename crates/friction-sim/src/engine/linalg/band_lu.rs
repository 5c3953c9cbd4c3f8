//! The linear solver of large implicit runs: a band LU with partial
//! pivoting (LAPACK's `dgbtf2`/`dgbtrs`) after a reverse Cuthill-McKee
//! ordering, when that ordering makes the matrix narrow; faer's sparse LU
//! (fill-reducing ordering) otherwise.
//!
//! Networks of contacts are mostly chains and trees of bodies, whose
//! Newton matrices `I - h γ J` the ordering turns into a few diagonals
//! (after [`crate::engine::linalg::reduce`] has eliminated positions and single bristle
//! states where the pattern allows: then one velocity per body is left);
//! unknowns coupled to nothing else (the energy quadratures) are solved on
//! their own. Measured on chains (BDF, 2 s, whole run), faer's sparse LU
//! against this: LuGre, 256 masses 101 against 80 ms, 1,024 masses 301
//! against 228 ms; tanh-regularised Coulomb, 256 masses 32 against 24 ms,
//! 1,024 masses 89 against 62 ms. The solves are bound by the latency of
//! the substitutions (about 7 ns per unknown), not by arithmetic. Written
//! here because no maintained crate offers a band LU for diffsol's sparse
//! matrices.

use diffsol::{FaerContext, FaerSparseLU, FaerSparseMat, FaerVec, MatrixCommon};
use diffsol_la::error::{LaError, LinearSolverError};
use diffsol_la::{LinearOp, LinearSolver, Matrix};

use crate::engine::linalg::band::Band;
use crate::engine::linalg::host::Host;
use crate::engine::linalg::reduce::Reduced;

/// Band LU or faer's sparse LU, chosen from the pattern in `set_sparsity`.
#[derive(Default)]
pub struct BandOrSparseLu {
    kind: Option<Kind>,
}

enum Kind {
    /// The matrix diffsol fills, and its band form.
    Band(FaerSparseMat<f64>, Box<Band>),
    /// The matrix diffsol fills, reduced (see [`crate::engine::linalg::reduce`]).
    Reduced(FaerSparseMat<f64>, Box<Reduced>),
    Sparse(Box<FaerSparseLU<f64>>),
}

impl LinearSolver<FaerSparseMat<f64>> for BandOrSparseLu {
    fn set_linearisation<C: LinearOp<T = f64, V = FaerVec<f64>, M = FaerSparseMat<f64>, C = FaerContext>>(
        &mut self,
        op: &C,
    ) {
        match self.kind.as_mut().expect("set_sparsity comes first") {
            Kind::Band(a, b) => {
                op.matrix_inplace(a);
                b.factor(a.inner()[0].val());
            }
            Kind::Reduced(a, r) => {
                op.matrix_inplace(a);
                r.factor(a.inner()[0].val());
            }
            Kind::Sparse(s) => s.set_linearisation(op),
        }
    }

    fn set_sparsity<C: LinearOp<T = f64, V = FaerVec<f64>, M = FaerSparseMat<f64>, C = FaerContext>>(
        &mut self,
        op: &C,
    ) {
        let a = FaerSparseMat::new_from_sparsity(op.nrows(), op.ncols(), op.sparsity(), *op.context());
        if let Some(r) = Reduced::new(&a) {
            self.kind = Some(Kind::Reduced(a, Box::new(r)));
            return;
        }
        self.kind = Some(match Band::new(&a) {
            Some(b) => Kind::Band(a, Box::new(b)),
            None => {
                let mut s = FaerSparseLU::default();
                s.set_sparsity(op);
                Kind::Sparse(Box::new(s))
            }
        });
    }

    fn solve_in_place(&self, x: &mut FaerVec<f64>) -> Result<(), LaError> {
        match self.kind.as_ref() {
            Some(Kind::Band(_, b)) => b.solve(x.host_mut(), false),
            Some(Kind::Reduced(_, r)) => r.solve(x.host_mut(), false),
            Some(Kind::Sparse(s)) => s.solve_in_place(x),
            None => Err(LaError::from(LinearSolverError::LuNotInitialized)),
        }
    }

    fn solve_transpose_in_place(&self, x: &mut FaerVec<f64>) -> Result<(), LaError> {
        match self.kind.as_ref() {
            Some(Kind::Band(_, b)) => b.solve(x.host_mut(), true),
            Some(Kind::Reduced(_, r)) => r.solve(x.host_mut(), true),
            Some(Kind::Sparse(s)) => s.solve_transpose_in_place(x),
            None => Err(LaError::from(LinearSolverError::LuNotInitialized)),
        }
    }
}

//! Dense LU with partial pivoting in work arrays allocated once, for the
//! Newton and continuation solves of harmonic balance.
//!
//! faer's `PartialPivLu::new` copies the matrix and splits it into L and
//! U: three n × n allocations per solve. At n = 300 each is larger than the
//! allocator's mmap threshold, so every solve also zeroes fresh pages; on
//! the 10-body chain at H = 12 (bench/hb/chain10_jenkins5.toml) page faults
//! and memset were a fifth of the whole frequency response under perf.
//! Here faer's in-place factorisation and solve run on buffers kept
//! between calls.

use dyn_stack::{MemBuffer, MemStack, StackReq};
use faer::linalg::lu::partial_pivoting::{factor, solve};
use faer::perm::PermRef;
use faer::{MatMut, MatRef};

use super::linalg::PAR;
use nalgebra::DMatrix;

/// The LU factors of one n × n matrix and the work arrays to solve with them.
pub struct DenseLu {
    n: usize,
    k: usize,
    lu: Vec<f64>,
    fwd: Vec<usize>,
    bwd: Vec<usize>,
    mem: MemBuffer,
}

impl std::fmt::Debug for DenseLu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DenseLu").field("n", &self.n).finish_non_exhaustive()
    }
}

impl Clone for DenseLu {
    fn clone(&self) -> Self {
        let mut c = DenseLu::with_columns(self.n, self.k);
        c.lu.copy_from_slice(&self.lu);
        c.fwd.copy_from_slice(&self.fwd);
        c.bwd.copy_from_slice(&self.bwd);
        c
    }
}

impl DenseLu {
    /// Work arrays for n × n matrices and one right-hand side.
    pub fn new(n: usize) -> Self {
        Self::with_columns(n, 1)
    }

    /// Work arrays for n × n matrices and up to `k` right-hand sides at once.
    pub fn with_columns(n: usize, k: usize) -> Self {
        let req = StackReq::any_of(&[
            factor::lu_in_place_scratch::<usize, f64>(n, n, PAR, Default::default()),
            solve::solve_in_place_scratch::<usize, f64>(n, k, PAR),
        ]);
        DenseLu { n, k, lu: vec![0.0; n * n], fwd: vec![0; n], bwd: vec![0; n], mem: MemBuffer::new(req) }
    }

    /// Factorise the n × n matrix `a` (its first n columns, which may be
    /// more); false when it is singular or not finite.
    /// (A zero first pivot is exchanged: the test below.)
    pub fn factor(&mut self, a: &DMatrix<f64>) -> bool {
        let n = self.n;
        self.lu.copy_from_slice(&a.as_slice()[..n * n]);
        let m = MatMut::from_column_major_slice_mut(&mut self.lu, n, n);
        factor::lu_in_place(
            m,
            &mut self.fwd,
            &mut self.bwd,
            PAR,
            MemStack::new(&mut self.mem),
            Default::default(),
        );
        (0..n).all(|i| {
            let d = self.lu[i * n + i];
            d != 0.0 && d.is_finite()
        })
    }

    /// Solve in place with the last factors (`b` becomes `a⁻¹ b`); false
    /// when the solution is not finite.
    pub fn solve(&mut self, b: &mut [f64]) -> bool {
        self.solve_columns(b, 1)
    }

    /// [`DenseLu::solve`] for `k` right-hand sides, the columns of the
    /// column-major n × k matrix `b` (at most the `k` of
    /// [`DenseLu::with_columns`]).
    pub fn solve_columns(&mut self, b: &mut [f64], k: usize) -> bool {
        let n = self.n;
        assert!(k <= self.k, "DenseLu: {k} right-hand sides, work arrays for {}", self.k);
        let lu = MatRef::from_column_major_slice(&self.lu, n, n);
        let perm = PermRef::new_checked(&self.fwd, &self.bwd, n);
        let rhs = MatMut::from_column_major_slice_mut(&mut b[..n * k], n, k);
        solve::solve_in_place(lu, lu, perm, rhs, PAR, MemStack::new(&mut self.mem));
        b[..n * k].iter().all(|v| v.is_finite())
    }
}

#[cfg(test)]
mod tests {
    use super::DenseLu;
    use nalgebra::DMatrix;

    #[test]
    fn a_zero_first_pivot_is_exchanged_and_a_singular_matrix_refused() {
        let a = DMatrix::from_row_slice(2, 2, &[0.0, 2.0, 1.0, 1.0]);
        let mut lu = DenseLu::new(2);
        assert!(lu.factor(&a));
        let mut b = [2.0, 3.0];
        assert!(lu.solve(&mut b));
        assert!((b[0] - 2.0).abs() < 1e-15 && (b[1] - 1.0).abs() < 1e-15);
        assert!(!lu.factor(&DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 4.0])));
    }
}

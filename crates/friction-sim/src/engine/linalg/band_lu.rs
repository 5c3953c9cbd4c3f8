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

use std::cell::RefCell;
use std::rc::Rc;

use diffsol::{FaerContext, FaerSparseLU, FaerSparseMat, FaerVec, MatrixCommon};
use diffsol_la::error::{LaError, LinearSolverError};
use diffsol_la::{LinearOp, LinearSolver, Matrix};

use crate::engine::linalg::band::Band;
use crate::engine::linalg::host::Host;
use crate::engine::linalg::reduce::Reduced;

thread_local! {
    /// The mass rows of the run being set up on this thread
    /// ([`MassRows`]): diffsol makes its solvers by `Default`, so the
    /// engine leaves them here for `set_sparsity` to take
    /// ([`with_mass_rows`]).
    static MASS_ROWS: RefCell<Option<Rc<MassRows>>> = const { RefCell::new(None) };
}

/// Run `f` with `rows` as the mass rows of every solver made meanwhile
/// on this thread (`None` afterwards, whatever `f` returns).
pub(crate) fn with_mass_rows<R>(rows: Option<MassRows>, f: impl FnOnce() -> R) -> R {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            MASS_ROWS.with(|m| *m.borrow_mut() = None);
        }
    }
    MASS_ROWS.with(|m| *m.borrow_mut() = rows.map(Rc::new));
    let _reset = Reset;
    f()
}

/// The rows of a Newton matrix given in force form
/// (`crate::engine::network::scaled_rows`): the solver factors `P - hγ P J`
/// from diffsol's `I - hγ P J` by adding `P - I`, and solves with `P b`;
/// `P` is the identity but for the mass entries here (state indices, both
/// triangles).
#[derive(Debug, Clone)]
pub(crate) struct MassRows {
    /// the rows `P` changes
    rows: Vec<usize>,
    /// `(position in rows, position in rows, M entry)`
    entries: Vec<(usize, usize, f64)>,
    /// the state indices of the entries
    pub(crate) at: Vec<(usize, usize)>,
}

impl MassRows {
    pub(crate) fn new(entries: Vec<(usize, usize, f64)>) -> Self {
        let mut rows: Vec<usize> = entries.iter().map(|e| e.0).collect();
        rows.sort_unstable();
        rows.dedup();
        let pos = |r: usize| rows.binary_search(&r).expect("a mass entry's column is one of its rows");
        let at = entries.iter().map(|&(r, c, _)| (r, c)).collect();
        let entries = entries.iter().map(|&(r, c, v)| (pos(r), pos(c), v)).collect();
        MassRows { rows, entries, at }
    }

    /// `x ← P x`.
    pub(crate) fn apply(&self, x: &mut [f64], scratch: &mut Vec<f64>) {
        scratch.clear();
        scratch.extend(self.rows.iter().map(|&r| x[r]));
        for &r in &self.rows {
            x[r] = 0.0;
        }
        for &(pr, pc, v) in &self.entries {
            x[self.rows[pr]] += v * scratch[pc];
        }
    }

    /// The positions in `a`'s values (CSC) of the entries.
    fn slots(&self, a: &FaerSparseMat<f64>) -> Vec<usize> {
        let m = &a.inner()[0];
        let (cp, ri) = (m.symbolic().col_ptr(), m.symbolic().row_idx());
        self.at
            .iter()
            .map(|&(r, c)| {
                let col = &ri[cp[c]..cp[c + 1]];
                cp[c] + col.binary_search(&r).expect("the mass entries are in the Jacobian's pattern")
            })
            .collect()
    }

    /// Add `P - I` to the values `vals` at `slots`.
    fn add_to(&self, slots: &[usize], vals: &mut [f64]) {
        for ((&(r, c), &(_, _, v)), &k) in self.at.iter().zip(&self.entries).zip(slots) {
            vals[k] += if r == c { v - 1.0 } else { v };
        }
    }
}

/// diffsol's operator with `P - I` added to its matrix (for faer's sparse LU).
struct WithMass<'a, C> {
    op: &'a C,
    rows: &'a MassRows,
}

impl<C: LinearOp<T = f64, V = FaerVec<f64>, M = FaerSparseMat<f64>, C = FaerContext>> LinearOp
    for WithMass<'_, C>
{
    type T = f64;
    type V = FaerVec<f64>;
    type M = FaerSparseMat<f64>;
    type C = FaerContext;
    fn nrows(&self) -> usize {
        self.op.nrows()
    }
    fn ncols(&self) -> usize {
        self.op.ncols()
    }
    fn context(&self) -> &FaerContext {
        self.op.context()
    }
    fn matrix_inplace(&self, y: &mut FaerSparseMat<f64>) {
        self.op.matrix_inplace(y);
        let slots = self.rows.slots(y);
        let vals = y.inner_mut()[0].val_mut();
        self.rows.add_to(&slots, vals);
    }
    fn sparsity(&self) -> Option<<FaerSparseMat<f64> as Matrix>::Sparsity> {
        self.op.sparsity()
    }
}

/// Band LU or faer's sparse LU, chosen from the pattern in `set_sparsity`.
#[derive(Default)]
pub struct BandOrSparseLu {
    kind: Option<Kind>,
    /// The mass rows of a force-form run, and their slots in the matrix of
    /// the band kinds.
    mass: Option<(Rc<MassRows>, Vec<usize>)>,
    scratch: RefCell<Vec<f64>>,
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
        let mass = self.mass.as_ref();
        let add = |a: &mut FaerSparseMat<f64>| {
            if let Some((rows, slots)) = mass {
                rows.add_to(slots, a.inner_mut()[0].val_mut());
            }
        };
        match self.kind.as_mut().expect("set_sparsity comes first") {
            Kind::Band(a, b) => {
                op.matrix_inplace(a);
                add(a);
                b.factor(a.inner()[0].val());
            }
            Kind::Reduced(a, r) => {
                op.matrix_inplace(a);
                add(a);
                r.factor(a.inner()[0].val());
            }
            Kind::Sparse(s) => match mass {
                Some((rows, _)) => s.set_linearisation(&WithMass { op, rows }),
                None => s.set_linearisation(op),
            },
        }
    }

    fn set_sparsity<C: LinearOp<T = f64, V = FaerVec<f64>, M = FaerSparseMat<f64>, C = FaerContext>>(
        &mut self,
        op: &C,
    ) {
        let a = FaerSparseMat::new_from_sparsity(op.nrows(), op.ncols(), op.sparsity(), *op.context());
        self.mass = MASS_ROWS.with(|m| m.borrow().clone()).map(|rows| {
            let slots = rows.slots(&a);
            (rows, slots)
        });
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
        // (P N) x = P b
        if let Some((rows, _)) = &self.mass {
            rows.apply(x.host_mut(), &mut self.scratch.borrow_mut());
        }
        match self.kind.as_ref() {
            Some(Kind::Band(_, b)) => b.solve(x.host_mut(), false),
            Some(Kind::Reduced(_, r)) => r.solve(x.host_mut(), false),
            Some(Kind::Sparse(s)) => s.solve_in_place(x),
            None => Err(LaError::from(LinearSolverError::LuNotInitialized)),
        }
    }

    fn solve_transpose_in_place(&self, x: &mut FaerVec<f64>) -> Result<(), LaError> {
        let r = match self.kind.as_ref() {
            Some(Kind::Band(_, b)) => b.solve(x.host_mut(), true),
            Some(Kind::Reduced(_, r)) => r.solve(x.host_mut(), true),
            Some(Kind::Sparse(s)) => s.solve_transpose_in_place(x),
            None => Err(LaError::from(LinearSolverError::LuNotInitialized)),
        };
        // Nᵀ x = b: (P N)ᵀ z = b, x = P z (P symmetric)
        if let Some((rows, _)) = &self.mass {
            rows.apply(x.host_mut(), &mut self.scratch.borrow_mut());
        }
        r
    }
}

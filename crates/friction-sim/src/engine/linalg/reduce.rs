//! Elimination, before the band LU, of the unknowns coupled to one other
//! only: a body's position (its row of the Newton matrix `I - h γ J` holds 1
//! and `-h γ` at its velocity, from x' = v) and a single bristle state
//! (LuGre's z couples to its own slip velocity alone). What is left, for a
//! chain its velocities, is solved by the band LU of [`crate::engine::linalg::band_lu`]: a
//! chain's Newton system of 2 (tanh) or 3 (LuGre) unknowns per mass and
//! bandwidth 4 or 6 becomes one unknown per mass, tridiagonal.
//!
//! Block elimination without pivoting on the eliminated unknowns: their
//! pivots are 1 (positions) and `1 + h γ σ0 |v| / g(v)` (LuGre), never small;
//! the reduced matrix `M_vv + h γ (...)` is the velocity form implicit
//! multibody codes solve. Unknown `i` is eliminated when its row holds its
//! diagonal and exactly one other entry, at an unknown `j` that is kept;
//! then `x_i = (b_i - M_ij x_j) / M_ii` and every row `r` with an entry at
//! `i` gets `M_rj -= M_ri M_ij / M_ii`.
//!
//! Measured on chains of 256 masses (BDF, 2 s, whole run): LuGre 65 -> 60
//! ms, tanh-regularised Coulomb 19.0 -> 17.0 ms; the substitutions of the
//! tridiagonal rest stay latency bound (10 % of the tanh chain's time).

use std::cell::RefCell;

use diffsol::{FaerContext, FaerSparseMat, MatrixCommon};
use diffsol_la::error::{LaError, LinearSolverError};
use diffsol_la::Matrix;

use crate::engine::linalg::band::Band;

/// An eliminated unknown.
struct Elim {
    /// The unknown, and the one unknown its row couples to.
    i: usize,
    j: usize,
    /// Positions in the matrix's values of `(i, i)` and `(i, j)`.
    d: usize,
    o: usize,
}

/// An entry `(r, c)` of a kept row at an eliminated column.
struct Via {
    /// Position of `(r, c)` in the matrix's values.
    src: usize,
    /// The row (in the full system), and the eliminated unknown's index in
    /// [`Reduced::elim`].
    r: usize,
    k: usize,
    /// Position of `(r, j)` (j: the partner of `c`) in the reduced values.
    dst: usize,
}

/// The Newton matrix with its single-coupled unknowns eliminated, the rest
/// in band form.
pub(crate) struct Reduced {
    elim: Vec<Elim>,
    /// Entries between kept unknowns: (position in the values, position in
    /// the reduced values).
    direct: Vec<(usize, usize)>,
    via: Vec<Via>,
    band: Band,
    /// The reduced matrix's values (CSC order of its pattern).
    rvals: Vec<f64>,
    /// Per eliminated unknown: 1 / M_ii and M_ij / M_ii.
    rpiv: Vec<f64>,
    ratio: Vec<f64>,
    /// Per [`Via`] entry: M_rc.
    via_val: Vec<f64>,
    singular: bool,
    /// Work space: one value per eliminated unknown.
    work: RefCell<Vec<f64>>,
}

impl Reduced {
    /// The reduced form of `a`'s pattern, or `None` when nothing can be
    /// eliminated or the rest is too wide for the band LU.
    pub(crate) fn new(a: &FaerSparseMat<f64>) -> Option<Self> {
        let m = &a.inner()[0];
        let n = m.ncols();
        let (cp, ri) = (m.symbolic().col_ptr(), m.symbolic().row_idx());
        // per row: the diagonal's position and the off-diagonal entries
        let mut diag = vec![None; n];
        let mut rows: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
        for j in 0..n {
            for (p, &i) in ri[cp[j]..cp[j + 1]].iter().enumerate() {
                if i == j {
                    diag[i] = Some(cp[j] + p);
                } else {
                    rows[i].push((j, cp[j] + p));
                }
            }
        }
        // 1: eliminated, 2: kept because an eliminated unknown couples to it
        let mut state = vec![0u8; n];
        let mut elim = Vec::new();
        for i in 0..n {
            if state[i] != 0 || rows[i].len() != 1 {
                continue;
            }
            let (j, o) = rows[i][0];
            let Some(d) = diag[i] else { continue };
            if state[j] == 1 {
                continue;
            }
            state[i] = 1;
            state[j] = 2;
            elim.push(Elim { i, j, d, o });
        }
        if elim.is_empty() {
            return None;
        }
        let mut k_of = vec![usize::MAX; n];
        for (k, e) in elim.iter().enumerate() {
            k_of[e.i] = k;
        }
        let kept: Vec<usize> = (0..n).filter(|&i| state[i] != 1).collect();
        let mut inv = vec![usize::MAX; n];
        for (r, &old) in kept.iter().enumerate() {
            inv[old] = r;
        }
        // the reduced pattern: kept-kept entries and the fill (r, j)
        let mut direct_ij = Vec::new();
        let mut via_ij = Vec::new();
        for c in 0..n {
            for (p, &r) in ri[cp[c]..cp[c + 1]].iter().enumerate() {
                if state[r] == 1 {
                    continue;
                }
                let src = cp[c] + p;
                if state[c] == 1 {
                    let k = k_of[c];
                    via_ij.push((src, r, k, (inv[r], inv[elim[k].j])));
                } else {
                    direct_ij.push((src, (inv[r], inv[c])));
                }
            }
        }
        let mut idx: Vec<(usize, usize)> =
            direct_ij.iter().map(|d| d.1).chain(via_ij.iter().map(|v| v.3)).collect();
        idx.sort_unstable_by_key(|&(i, j)| (j, i));
        idx.dedup();
        let nk = kept.len();
        let zeros = vec![0.0; idx.len()];
        let red = FaerSparseMat::try_from_triplets(nk, nk, idx, zeros, FaerContext::default()).ok()?;
        let mut band = Band::new(&red)?;
        // the band solves on the full vector: its unknowns renamed to the
        // full system's (no gather into a reduced vector and back)
        band.rename(&kept);
        let rm = &red.inner()[0];
        let (rcp, rri) = (rm.symbolic().col_ptr(), rm.symbolic().row_idx());
        let pos = |(i, j): (usize, usize)| -> usize {
            let col = &rri[rcp[j]..rcp[j + 1]];
            rcp[j] + col.binary_search(&i).expect("entry of the reduced pattern")
        };
        let direct = direct_ij.into_iter().map(|(src, ij)| (src, pos(ij))).collect();
        let via: Vec<Via> =
            via_ij.into_iter().map(|(src, r, k, ij)| Via { src, r, k, dst: pos(ij) }).collect();
        let ne = elim.len();
        Some(Reduced {
            rvals: vec![0.0; rri.len()],
            rpiv: vec![0.0; ne],
            ratio: vec![0.0; ne],
            via_val: vec![0.0; via.len()],
            work: RefCell::new(vec![0.0; ne]),
            elim,
            direct,
            via,
            band,
            singular: false,
        })
    }

    /// Eliminate and factor the rest, from the matrix's values (CSC order of
    /// the pattern given to [`Reduced::new`]).
    pub(crate) fn factor(&mut self, vals: &[f64]) {
        self.singular = false;
        for (k, e) in self.elim.iter().enumerate() {
            let d = vals[e.d];
            if d == 0.0 || !d.is_finite() {
                self.singular = true;
            }
            self.rpiv[k] = 1.0 / d;
            self.ratio[k] = vals[e.o] / d;
        }
        self.rvals.fill(0.0);
        for &(src, dst) in &self.direct {
            self.rvals[dst] += vals[src];
        }
        for (v, val) in self.via.iter().zip(&mut self.via_val) {
            *val = vals[v.src];
            self.rvals[v.dst] -= *val * self.ratio[v.k];
        }
        self.band.factor(&self.rvals);
    }

    /// Solve `A x = b` (or `A^T x = b`) in place.
    pub(crate) fn solve(&self, b: &mut [f64], transpose: bool) -> Result<(), LaError> {
        if self.singular {
            return Err(LaError::from(LinearSolverError::LuSolveFailed));
        }
        let mut guard = self.work.borrow_mut();
        let t = &mut guard[..];
        if !transpose {
            // x_i = (b_i - M_ij x_j) / M_ii; rows at i: b_r -= M_ri b_i / M_ii
            for ((tk, e), p) in t.iter_mut().zip(&self.elim).zip(&self.rpiv) {
                *tk = b[e.i] * p;
            }
            for (v, val) in self.via.iter().zip(&self.via_val) {
                b[v.r] -= val * t[v.k];
            }
            self.band.solve(b, false)?;
            for ((e, tk), q) in self.elim.iter().zip(t.iter()).zip(&self.ratio) {
                b[e.i] = tk - q * b[e.j];
            }
        } else {
            // A = [D E; F G] (eliminated first): S^T x2 = b2 - E^T D^-1 b1,
            // x1 = D^-1 (b1 - F^T x2), S = G - F D^-1 E
            for (e, q) in self.elim.iter().zip(&self.ratio) {
                b[e.j] -= q * b[e.i];
            }
            self.band.solve(b, true)?;
            t.fill(0.0);
            for (v, val) in self.via.iter().zip(&self.via_val) {
                t[v.k] += val * b[v.r];
            }
            for ((e, tk), p) in self.elim.iter().zip(t.iter()).zip(&self.rpiv) {
                b[e.i] = (b[e.i] - tk) * p;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use diffsol::{FaerContext, FaerSparseMat, MatrixCommon};
    use diffsol_la::Matrix;
    use nalgebra::{DMatrix, DVector};

    use super::Reduced;
    use crate::engine::linalg::band::tests::next;

    /// The Newton matrix `I - c J` of a chain of `n` masses in the engine's
    /// layout `[x (n), v (n), z (n if lugre), quadratures (n + 2)]`: springs
    /// between neighbours, a contact per mass (LuGre: z couples to its v),
    /// random coefficients of the physical signs.
    fn chain(n: usize, lugre: bool, c: f64, seed: u64) -> (Vec<(usize, usize, f64)>, usize) {
        let mut s = seed;
        let nz = if lugre { n } else { 0 };
        let total = 2 * n + nz + n + 2;
        let mut t = Vec::new();
        for i in 0..total {
            t.push((i, i, 1.0));
        }
        for i in 0..n {
            let (x, v) = (i, n + i);
            t.push((x, v, -c));
            // dv/dx: springs to the neighbours, k/m about 100
            let k = 100.0 * (1.5 + next(&mut s));
            t.push((v, x, c * 2.0 * k));
            for nb in [i.wrapping_sub(1), i + 1] {
                if nb < n {
                    t.push((v, nb, -c * k));
                }
            }
            // dv/dv: contact damping
            t.push((v, v, c * 300.0 * (1.5 + next(&mut s))));
            if lugre {
                let z = 2 * n + i;
                t.push((v, z, c * 1e5 * (1.5 + next(&mut s))));
                t.push((z, v, -c * (1.0 + next(&mut s))));
                t.push((z, z, c * 1e5 * (1.5 + next(&mut s))));
            }
        }
        (t, total)
    }

    fn mat(t: &[(usize, usize, f64)], n: usize) -> (FaerSparseMat<f64>, DMatrix<f64>) {
        let mut d = DMatrix::zeros(n, n);
        for &(i, j, v) in t {
            d[(i, j)] += v;
        }
        // the pattern of the summed entries
        let mut idx: Vec<(usize, usize)> = t.iter().map(|&(i, j, _)| (i, j)).collect();
        idx.sort_unstable();
        idx.dedup();
        let val = idx.iter().map(|&(i, j)| d[(i, j)]).collect();
        (FaerSparseMat::try_from_triplets(n, n, idx, val, FaerContext::default()).unwrap(), d)
    }

    /// Positions and LuGre states are eliminated, the velocities and the
    /// quadratures kept; the solution satisfies the full system in both
    /// directions, for small and large steps.
    #[test]
    fn reduced_solve_satisfies_the_full_chain_system() {
        for (n, lugre, c, seed) in
            [(1, true, 1e-3, 1), (5, false, 1e-2, 2), (40, true, 1e-4, 3), (40, true, 0.5, 4)]
        {
            let (t, total) = chain(n, lugre, c, seed);
            let (a, d) = mat(&t, total);
            let mut r = Reduced::new(&a).expect("a chain reduces");
            assert_eq!(r.elim.len(), if lugre { 2 * n } else { n }, "n {n}");
            assert!(r.elim.iter().all(|e| e.j >= n && e.j < 2 * n), "partners are velocities");
            r.factor(a.inner()[0].val());
            let mut s = seed + 10;
            for transpose in [false, true] {
                let b: Vec<f64> = (0..total).map(|_| next(&mut s)).collect();
                let mut x = b.clone();
                r.solve(&mut x, transpose).unwrap();
                let m = if transpose { d.transpose() } else { d.clone() };
                let res = &m * DVector::from_vec(x.clone()) - DVector::from_vec(b);
                let scale = x.iter().fold(1.0f64, |a, v| a.max(v.abs()));
                assert!(
                    res.amax() < 1e-9 * scale,
                    "n {n}, c {c}, transpose {transpose}: residual {}",
                    res.amax()
                );
            }
        }
    }

    /// Nothing single-coupled: no reduction (the band LU alone).
    #[test]
    fn a_matrix_without_single_couplings_is_not_reduced() {
        let t = [
            (0, 0, 2.0),
            (0, 1, 1.0),
            (0, 2, 1.0),
            (1, 0, 1.0),
            (1, 1, 2.0),
            (1, 2, 1.0),
            (2, 0, 1.0),
            (2, 1, 1.0),
            (2, 2, 2.0),
        ];
        let (a, _) = mat(&t, 3);
        assert!(Reduced::new(&a).is_none());
    }

    /// A zero pivot on an eliminated unknown is refused, not divided by.
    #[test]
    fn a_zero_eliminated_pivot_is_refused() {
        let t = [(0, 0, 0.0), (0, 1, 1.0), (1, 0, 1.0), (1, 1, 2.0)];
        let (a, _) = mat(&t, 2);
        let mut r = Reduced::new(&a).unwrap();
        r.factor(a.inner()[0].val());
        assert!(r.solve(&mut [1.0, 1.0], false).is_err());
    }
}

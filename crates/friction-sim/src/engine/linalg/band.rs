//! A band matrix and its LU with partial pivoting (LAPACK's
//! `dgbtf2`/`dgbtrs`), after a reverse Cuthill-McKee ordering
//! ([`crate::engine::linalg::ordering`]) of the unknowns; unknowns coupled to nothing else
//! stand alone on the diagonal. The solver of [`crate::engine::linalg::band_lu`] and the
//! reduced systems of [`crate::engine::linalg::reduce`] factor with it.

use diffsol::{FaerSparseMat, MatrixCommon};
use diffsol_la::error::{LaError, LinearSolverError};

use crate::engine::linalg::ordering::reverse_cuthill_mckee;

/// The widest band (lower plus upper bandwidth after the ordering) solved
/// as a band; wider matrices go to faer's sparse LU.
pub(crate) const BAND_MAX: usize = 32;

/// A band matrix in LAPACK's factorisation layout: column `j` holds rows
/// `j - kl - ku ..= j + kl` in `ldab = 2 kl + ku + 1` slots, element
/// `(i, j)` at `j * ldab + kl + ku + i - j`; the top `kl` slots receive the
/// fill-in of the row interchanges.
#[derive(Debug, Clone)]
pub(crate) struct Band {
    /// Unknowns in the band (the others stand alone on the diagonal).
    n: usize,
    kl: usize,
    ku: usize,
    ldab: usize,
    /// `perm[new] = old` for the unknowns of the band.
    perm: Vec<usize>,
    /// Unknowns coupled to no other (the energy quadratures), their
    /// diagonal entries and its reciprocals.
    alone: Vec<usize>,
    diag: Vec<f64>,
    rdiag: Vec<f64>,
    /// Slot of each stored entry of the matrix (CSC order): in `ab` below
    /// `ab.len()`, in `diag` above.
    slot: Vec<usize>,
    ab: Vec<f64>,
    ipiv: Vec<usize>,
    /// Reciprocals of the pivots (a product in the back substitution instead
    /// of a division: its latency bounds the solve).
    rpiv: Vec<f64>,
    /// A zero pivot was met in the last factorisation.
    singular: bool,
    /// The last factorisation swapped rows.
    swapped: bool,
    /// Without swaps, the factors row by row for the substitutions:
    /// `lrows[i kl + t - 1] = L(i, i - t)`, `urows[c kv + k - 1] = U(c, c + k)`
    /// (zero outside the matrix).
    lrows: Vec<f64>,
    urows: Vec<f64>,
    work: std::cell::RefCell<Vec<f64>>,
}

impl Band {
    /// The band form of `a`'s pattern, or `None` when wider than [`BAND_MAX`].
    pub(crate) fn new(a: &FaerSparseMat<f64>) -> Option<Self> {
        let m = &a.inner()[0];
        let n = m.ncols();
        let (cp, ri) = (m.symbolic().col_ptr(), m.symbolic().row_idx());
        let mut adj = vec![Vec::new(); n];
        for j in 0..n {
            for &i in &ri[cp[j]..cp[j + 1]] {
                if i != j {
                    adj[i].push(j);
                    adj[j].push(i);
                }
            }
        }
        // (i, j) and (j, i) both stored: each neighbour once
        for l in &mut adj {
            l.sort_unstable();
            l.dedup();
        }
        let alone: Vec<usize> = (0..n).filter(|&i| adj[i].is_empty()).collect();
        let perm: Vec<usize> =
            reverse_cuthill_mckee(&adj).into_iter().filter(|&i| !adj[i].is_empty()).collect();
        // position in the band, or in `alone` (offset by n)
        let mut inv = vec![0; n];
        for (new, &old) in perm.iter().enumerate() {
            inv[old] = new;
        }
        for (k, &old) in alone.iter().enumerate() {
            inv[old] = n + k;
        }
        let (mut kl, mut ku) = (0, 0);
        for &j in &perm {
            for &i in &ri[cp[j]..cp[j + 1]] {
                let (pi, pj) = (inv[i], inv[j]);
                kl = kl.max(pi.saturating_sub(pj));
                ku = ku.max(pj.saturating_sub(pi));
            }
        }
        if kl + ku > BAND_MAX {
            return None;
        }
        let ldab = 2 * kl + ku + 1;
        let nband = perm.len();
        let mut slot = Vec::with_capacity(ri.len());
        for j in 0..n {
            for &i in &ri[cp[j]..cp[j + 1]] {
                let (pi, pj) = (inv[i], inv[j]);
                slot.push(if pj >= n { ldab * nband + pj - n } else { pj * ldab + kl + ku + pi - pj });
            }
        }
        Some(Band {
            n: nband,
            diag: vec![0.0; alone.len()],
            rdiag: vec![0.0; alone.len()],
            alone,
            kl,
            ku,
            ldab,
            perm,
            slot,
            ab: vec![0.0; ldab * nband],
            ipiv: vec![0; nband],
            rpiv: vec![0.0; nband],
            singular: false,
            swapped: false,
            lrows: vec![0.0; nband * kl],
            urows: vec![0.0; nband * (kl + ku)],
            work: std::cell::RefCell::new(vec![0.0; nband + 2 * kl + ku]),
        })
    }

    /// Rename the unknowns: unknown `k` of the matrix given to [`Band::new`]
    /// is `names[k]` of the vectors [`Band::solve`] is given (which may be
    /// longer: the other entries are left alone).
    pub(crate) fn rename(&mut self, names: &[usize]) {
        for k in self.perm.iter_mut().chain(self.alone.iter_mut()) {
            *k = names[*k];
        }
    }

    /// Scatter the matrix's values (CSC order of the pattern given to
    /// [`Band::new`]) into the band and factor it (`dgbtf2`).
    pub(crate) fn factor(&mut self, vals: &[f64]) {
        let (n, kl, ku, ldab) = (self.n, self.kl, self.ku, self.ldab);
        let kv = kl + ku;
        let ab = &mut self.ab;
        ab.fill(0.0);
        let nab = ab.len();
        for (&s, &v) in self.slot.iter().zip(vals) {
            if s < nab {
                ab[s] = v;
            } else {
                self.diag[s - nab] = v;
            }
        }
        self.singular = self.diag.contains(&0.0);
        self.swapped = false;
        for (r, d) in self.rdiag.iter_mut().zip(&self.diag) {
            *r = 1.0 / d;
        }
        // last column reached by the row interchanges so far
        let mut ju = 0;
        for j in 0..n {
            let km = kl.min(n - 1 - j);
            let col = j * ldab + kv;
            let mut jp = 0;
            let mut best = ab[col].abs();
            for t in 1..=km {
                if ab[col + t].abs() > best {
                    best = ab[col + t].abs();
                    jp = t;
                }
            }
            self.ipiv[j] = j + jp;
            if ab[col + jp] == 0.0 {
                self.singular = true;
                continue;
            }
            ju = ju.max((j + ku + jp).min(n - 1));
            if jp != 0 {
                self.swapped = true;
                for c in j..=ju {
                    ab.swap(c * ldab + kv + j + jp - c, c * ldab + kv + j - c);
                }
            }
            let r = 1.0 / ab[col];
            self.rpiv[j] = r;
            for t in 1..=km {
                ab[col + t] *= r;
            }
            for c in j + 1..=ju {
                let ajc = ab[c * ldab + kv + j - c];
                if ajc != 0.0 {
                    let dst = c * ldab + kv + j - c;
                    for t in 1..=km {
                        ab[dst + t] -= ab[col + t] * ajc;
                    }
                }
            }
        }
        for i in 0..n {
            if !self.swapped {
                for t in 1..=kl.min(i) {
                    self.lrows[i * kl + t - 1] = ab[(i - t) * ldab + kv + t];
                }
            }
            for k in 1..=kv.min(n - 1 - i) {
                self.urows[i * kv + k - 1] = ab[(i + k) * ldab + kv - k];
            }
        }
    }

    /// Whether the last factorisation took no row interchange and every
    /// pivot is positive: for a symmetric matrix, that it is positive
    /// definite (its pivots are then those of `L D Lᵀ`).
    pub(crate) fn pivots_positive(&self) -> bool {
        !self.singular
            && !self.swapped
            && self.rpiv[..self.n].iter().all(|&r| r > 0.0)
            && self.diag.iter().all(|&d| d > 0.0)
    }

    /// Solve `A x = b` (or `A^T x = b`) in place (`dgbtrs`).
    pub(crate) fn solve(&self, b: &mut [f64], transpose: bool) -> Result<(), LaError> {
        if self.singular {
            return Err(LaError::from(LinearSolverError::LuSolveFailed));
        }
        let (n, kl, ldab) = (self.n, self.kl, self.ldab);
        let kv = kl + self.ku;
        let ab = &self.ab[..];
        let (ipiv, rpiv) = (&self.ipiv[..], &self.rpiv[..]);
        let mut guard = self.work.borrow_mut();
        let w = &mut guard[..];
        // unknowns from `w[off]`, zeros before and after (for the row-by-row
        // substitutions)
        let off = if transpose { 0 } else { kl };
        w.fill(0.0);
        for (wi, &old) in w[off..].iter_mut().zip(&self.perm) {
            *wi = b[old];
        }
        // column `c` of the band: rows `c - kv ..= c + kl` at `c * ldab ..`.
        // The substitutions are bound by latency, each unknown waiting for
        // the one before: row by row, with the sums over the older unknowns
        // apart from the newest one's term, they run faster than by columns
        // (measured 5.4 against 7.1 µs per solve at 768 unknowns, kl = ku = 3).
        if !transpose {
            let (lr, ur) = (&self.lrows[..], &self.urows[..]);
            if self.swapped {
                // the row swaps interleave with the elimination: by columns
                let w = &mut w[kl..kl + n];
                for j in 0..n.saturating_sub(1) {
                    let l = ipiv[j];
                    if l != j {
                        w.swap(l, j);
                    }
                    let km = kl.min(n - 1 - j);
                    let col = j * ldab + kv;
                    let (head, tail) = w.split_at_mut(j + 1);
                    let wj = head[j];
                    for (x, a) in tail[..km].iter_mut().zip(&ab[col + 1..col + 1 + km]) {
                        *x -= a * wj;
                    }
                }
            } else {
                let mut prev = 0.0;
                for i in 0..n {
                    let l = &lr[i * kl..(i + 1) * kl];
                    let mut acc = 0.0;
                    for (t, a) in l.iter().enumerate().skip(1) {
                        acc += a * w[kl + i - t - 1];
                    }
                    let s = w[kl + i] - acc - l.first().map_or(0.0, |a| a * prev);
                    w[kl + i] = s;
                    prev = s;
                }
            }
            let mut prev = 0.0;
            for c in (0..n).rev() {
                let u = &ur[c * kv..(c + 1) * kv];
                let mut acc = 0.0;
                for (k, a) in u.iter().enumerate().skip(1) {
                    acc += a * w[kl + c + k + 1];
                }
                prev = (w[kl + c] - acc - u.first().map_or(0.0, |a| a * prev)) * rpiv[c];
                w[kl + c] = prev;
            }
        } else {
            for c in 0..n {
                let col = c * ldab + kv;
                let lo = c.saturating_sub(kv);
                let s: f64 = w[lo..c].iter().zip(&ab[col - (c - lo)..col]).map(|(x, a)| a * x).sum();
                w[c] = (w[c] - s) * rpiv[c];
            }
            for j in (0..n.saturating_sub(1)).rev() {
                let km = kl.min(n - 1 - j);
                let col = j * ldab + kv;
                let s: f64 =
                    w[j + 1..j + 1 + km].iter().zip(&ab[col + 1..col + 1 + km]).map(|(x, a)| a * x).sum();
                w[j] -= s;
                let l = ipiv[j];
                if l != j {
                    w.swap(l, j);
                }
            }
        }
        for (new, &old) in self.perm.iter().enumerate() {
            b[old] = w[off + new];
        }
        for (&i, r) in self.alone.iter().zip(&self.rdiag) {
            b[i] *= r;
        }
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use diffsol::{FaerContext, FaerSparseMat, MatrixCommon};
    use diffsol_la::Matrix;
    use nalgebra::{DMatrix, DVector};

    use super::{Band, BAND_MAX};

    /// xorshift64*: a seeded generator without a dependency (uniform in
    /// [-0.5, 0.5)).
    pub(crate) fn next(s: &mut u64) -> f64 {
        *s ^= *s >> 12;
        *s ^= *s << 25;
        *s ^= *s >> 27;
        (s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    }

    /// A chain-like system in scrambled order: unknown `order[k]` couples to
    /// `order[k ± 1]` and `order[k + 2]`, with diagonals of size `diag` (small:
    /// partial pivoting must swap rows), plus `alone` unknowns with only a
    /// diagonal.
    fn system(n: usize, alone: usize, diag: f64, seed: u64) -> (Vec<(usize, usize, f64)>, usize) {
        let mut s = seed;
        let total = n + alone;
        let mut order: Vec<usize> = (0..total).collect();
        for i in (1..total).rev() {
            let j = ((next(&mut s) + 0.5) * (i + 1) as f64) as usize % (i + 1);
            order.swap(i, j);
        }
        let mut t = Vec::new();
        for k in 0..n {
            let i = order[k];
            t.push((i, i, diag * (1.0 + next(&mut s))));
            for d in [1usize, 2] {
                if k + d < n {
                    t.push((i, order[k + d], next(&mut s)));
                }
            }
            if k >= 1 {
                t.push((i, order[k - 1], 1.0 + next(&mut s)));
            }
        }
        for k in n..total {
            let i = order[k];
            t.push((i, i, 2.0 + next(&mut s)));
        }
        (t, total)
    }

    fn mat(t: &[(usize, usize, f64)], n: usize) -> FaerSparseMat<f64> {
        let idx = t.iter().map(|&(i, j, _)| (i, j)).collect();
        let val = t.iter().map(|&(_, _, v)| v).collect();
        FaerSparseMat::try_from_triplets(n, n, idx, val, FaerContext::default()).unwrap()
    }

    fn dense(t: &[(usize, usize, f64)], n: usize) -> DMatrix<f64> {
        let mut m = DMatrix::zeros(n, n);
        for &(i, j, v) in t {
            m[(i, j)] += v;
        }
        m
    }

    #[test]
    fn band_lu_solves_like_a_dense_lu_in_both_directions() {
        let cases = [
            (2, 0, 0.01, 1),
            (3, 1, 0.01, 2),
            (40, 0, 0.01, 3),
            (300, 100, 0.01, 4),
            (3, 1, 10.0, 5),
            (300, 100, 10.0, 6),
        ];
        for (n, alone, diag, seed) in cases {
            let (t, total) = system(n, alone, diag, seed);
            let a = mat(&t, total);
            let mut band = Band::new(&a).expect("a chain is narrow");
            // every unknown once, in the band or alone (the pattern stores
            // (i, j) and (j, i): a neighbour listed twice must not be
            // ordered twice)
            let mut all: Vec<usize> = band.perm.iter().chain(&band.alone).copied().collect();
            all.sort_unstable();
            assert_eq!(all, (0..total).collect::<Vec<_>>());
            assert!(band.kl + band.ku <= 6, "bandwidth {} + {}", band.kl, band.ku);
            assert_eq!(band.alone.len(), alone);
            band.factor(a.inner()[0].val());
            // small diagonals need row swaps (a column-by-column forward
            // substitution), large ones none (row by row)
            assert_eq!(band.swapped, diag < 1.0, "n {n}, diagonal {diag}");
            let m = dense(&t, total);
            let mut s = seed + 100;
            for transpose in [false, true] {
                let b: Vec<f64> = (0..total).map(|_| next(&mut s)).collect();
                let mut x = b.clone();
                band.solve(&mut x, transpose).unwrap();
                let mm = if transpose { m.transpose() } else { m.clone() };
                let r = &mm * DVector::from_vec(x.clone()) - DVector::from_vec(b.clone());
                let scale = x.iter().fold(1.0f64, |a, v| a.max(v.abs()));
                assert!(r.amax() < 1e-10 * scale, "n {n}, transpose {transpose}: residual {}", r.amax());
            }
        }
    }

    /// A hub coupled both ways to three others: each neighbour is stored
    /// twice in the pattern ((i, j) and (j, i)) and must be ordered once.
    #[test]
    fn a_hub_coupled_both_ways_is_ordered_once_and_solved() {
        let mut t = vec![(0, 0, 4.0)];
        for k in 1..4 {
            t.extend([(k, k, 3.0 + k as f64), (0, k, 1.0), (k, 0, -1.0)]);
        }
        let a = mat(&t, 4);
        let mut band = Band::new(&a).unwrap();
        let mut perm = band.perm.clone();
        perm.sort_unstable();
        assert_eq!(perm, vec![0, 1, 2, 3]);
        band.factor(a.inner()[0].val());
        let b = [1.0, 2.0, 3.0, 4.0];
        let mut x = b;
        band.solve(&mut x, false).unwrap();
        let r = dense(&t, 4) * DVector::from_row_slice(&x) - DVector::from_row_slice(&b);
        assert!(r.amax() < 1e-12, "residual {}", r.amax());
    }

    #[test]
    fn wide_patterns_are_left_to_the_sparse_lu_and_singular_ones_refused() {
        let n = BAND_MAX + 2;
        let t: Vec<_> = (0..n).flat_map(|i| (0..n).map(move |j| (i, j, 1.0))).collect();
        let a = mat(&t, n);
        assert!(Band::new(&a).is_none());
        // a zero pivot in the band, and a zero alone on the diagonal
        for t in [vec![(0, 0, 0.0), (0, 1, 1.0), (1, 0, 0.0), (1, 1, 1.0)], vec![(0, 0, 1.0), (1, 1, 0.0)]] {
            let a = mat(&t, 2);
            let mut band = Band::new(&a).unwrap();
            band.factor(a.inner()[0].val());
            assert!(band.solve(&mut [1.0, 1.0], false).is_err());
        }
    }
}

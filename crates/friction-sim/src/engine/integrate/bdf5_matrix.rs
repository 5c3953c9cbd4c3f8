//! The Newton matrix `I - c J` of [`crate::engine::integrate::bdf5`]:
//! dense ([`crate::engine::linalg::small_lu`]) for a small network, and
//! for a larger one the band LU of [`crate::engine::linalg::band`] (after a
//! reverse Cuthill-McKee ordering: a chain of bodies is then a few
//! diagonals), after the elimination of positions and single bristle
//! states where the pattern allows ([`crate::engine::linalg::reduce`], as
//! for diffsol's methods: a chain's velocities alone are left), its Jacobian from one exact product per colour of columns
//! (Curtis, Powell and Reid 1974: [`crate::engine::integrate::coloring`]'s
//! greedy colours), on the pattern the network gives
//! (`Engine::jacobian_pattern`). A pattern too wide for the band
//! (`BAND_MAX`) stays dense.

use std::collections::BTreeSet;

use diffsol::{FaerContext, FaerSparseMat, MatrixCommon};
use diffsol_la::Matrix;

use crate::engine::integrate::coloring::greedy_colors;
use crate::engine::integrate::rosenbrock::RosProblem;
use crate::engine::linalg::band::Band;
use crate::engine::linalg::reduce::Reduced;
use crate::engine::linalg::small_lu;

/// `I - c J` of the `m` read states, and its factors.
pub(crate) enum NewtonMatrix {
    /// Row-major `J` and `LU` of `I - c J`, `m × m`.
    Dense { m: usize, jac: Vec<f64>, lu: Vec<f64>, piv: Vec<usize> },
    /// The band form.
    Band(Box<Banded>),
}

/// The sparse LU: a band, after eliminations where the pattern allows.
enum Lu {
    Band(Box<Band>),
    Reduced(Box<Reduced>),
}

/// `I - c J` on a sparse pattern, factored as a band.
pub(crate) struct Banded {
    band: Lu,
    /// row of each stored entry (CSC order), and each column's first entry
    rows: Vec<usize>,
    col_ptr: Vec<usize>,
    /// whether each entry is on the diagonal
    diag: Vec<bool>,
    /// the columns of each colour
    colors: Vec<Vec<usize>>,
    /// `J` and `I - c J` per entry
    jvals: Vec<f64>,
    vals: Vec<f64>,
    /// a seed and a product, of the whole state
    u: Vec<f64>,
    du: Vec<f64>,
}

/// The pattern of `I - c J` (its entries in CSC order) and its band LU.
type Banding = (FaerSparseMat<f64>, Vec<(usize, usize)>, Lu);

/// The pattern of `I - c J` on the `m` read states (the diagonal added), its
/// entries in CSC order, and its band LU; `None` when too wide.
fn banded(m: usize, pattern: Vec<(usize, usize)>) -> Option<Banding> {
    let mut set: BTreeSet<(usize, usize)> = pattern.into_iter().filter(|&(i, j)| i < m && j < m).collect();
    set.extend((0..m).map(|i| (i, i)));
    // CSC order: by column, then row
    let mut idx: Vec<(usize, usize)> = set.into_iter().collect();
    idx.sort_unstable_by_key(|&(i, j)| (j, i));
    let zeros = vec![0.0; idx.len()];
    let a = FaerSparseMat::try_from_triplets(m, m, idx.clone(), zeros, FaerContext::default()).ok()?;
    // the band of the whole pattern only where nothing can be eliminated
    let band = match Reduced::new(&a) {
        Some(r) => Lu::Reduced(Box::new(r)),
        None => Lu::Band(Box::new(Band::new(&a)?)),
    };
    Some((a, idx, band))
}

impl NewtonMatrix {
    /// The matrix of `m` read states of `n`: banded on `pattern` (entries
    /// `(row, column)` of `J`, any order) when given and narrow enough,
    /// dense otherwise.
    pub(crate) fn new(m: usize, n: usize, pattern: Option<Vec<(usize, usize)>>) -> Self {
        let dense =
            || NewtonMatrix::Dense { m, jac: vec![0.0; m * m], lu: vec![0.0; m * m], piv: vec![0; m] };
        let Some((a, idx, band)) = pattern.and_then(|p| banded(m, p)) else { return dense() };
        let inner = &a.inner()[0];
        let (cp, ri) = (inner.symbolic().col_ptr().to_vec(), inner.symbolic().row_idx().to_vec());
        let diag = (0..m).flat_map(|j| ri[cp[j]..cp[j + 1]].iter().map(move |&i| i == j)).collect();
        let color = greedy_colors(m, &idx);
        let ncolors = color.iter().copied().max().unwrap_or(0);
        let mut colors = vec![Vec::new(); ncolors];
        for (j, &c) in color.iter().enumerate() {
            colors[c - 1].push(j);
        }
        let ne = ri.len();
        NewtonMatrix::Band(Box::new(Banded {
            band,
            rows: ri,
            col_ptr: cp,
            diag,
            colors,
            jvals: vec![0.0; ne],
            vals: vec![0.0; ne],
            u: vec![0.0; n],
            du: vec![0.0; n],
        }))
    }

    /// Whether the `m` read states of `pattern` (as for [`NewtonMatrix::new`])
    /// take the band form: a matrix too wide for it stays dense, `m²`
    /// numbers and a dense factorisation.
    pub(crate) fn fits_band(m: usize, pattern: Vec<(usize, usize)>) -> bool {
        banded(m, pattern).is_some()
    }

    /// Whether the band form is used.
    pub(crate) fn is_band(&self) -> bool {
        matches!(self, NewtonMatrix::Band(_))
    }

    /// `J` at `(t, y)`: column by column (dense) or one product per colour
    /// (band). `u` and `du` are scratch vectors of the whole state.
    pub(crate) fn jacobian<P: RosProblem>(
        &mut self,
        p: &P,
        t: f64,
        y: &[f64],
        u: &mut [f64],
        du: &mut [f64],
    ) {
        match self {
            NewtonMatrix::Dense { m, jac, .. } => {
                let m = *m;
                u.fill(0.0);
                for j in 0..m {
                    u[j] = 1.0;
                    p.jvp(t, y, u, du);
                    u[j] = 0.0;
                    for i in 0..m {
                        jac[i * m + j] = du[i];
                    }
                }
            }
            NewtonMatrix::Band(b) => {
                let b = &mut **b;
                for cols in &b.colors {
                    b.u.fill(0.0);
                    for &j in cols {
                        b.u[j] = 1.0;
                    }
                    p.jvp(t, y, &b.u, &mut b.du);
                    // columns of one colour share no row: each entry is its
                    // column's share of the product
                    for &j in cols {
                        for e in b.col_ptr[j]..b.col_ptr[j + 1] {
                            b.jvals[e] = b.du[b.rows[e]];
                        }
                    }
                }
            }
        }
    }

    /// Factor `I - c J`; `Err` when singular.
    pub(crate) fn factor(&mut self, c: f64) -> Result<(), ()> {
        match self {
            NewtonMatrix::Dense { m, jac, lu, piv } => {
                let m = *m;
                for i in 0..m {
                    for j in 0..m {
                        let e = if i == j { 1.0 } else { 0.0 };
                        lu[i * m + j] = e - c * jac[i * m + j];
                    }
                }
                small_lu::factor(lu, m, piv).map_err(|_| ())
            }
            NewtonMatrix::Band(b) => {
                for ((v, &j), &d) in b.vals.iter_mut().zip(&b.jvals).zip(&b.diag) {
                    *v = if d { 1.0 } else { 0.0 } - c * j;
                }
                match &mut b.band {
                    Lu::Band(l) => l.factor(&b.vals),
                    Lu::Reduced(l) => l.factor(&b.vals),
                }
                Ok(())
            }
        }
    }

    /// Solve `(I - c J) x = b` in place (`b` of the read states); `Err`
    /// when the factorisation was singular.
    pub(crate) fn solve(&self, b: &mut [f64]) -> Result<(), ()> {
        match self {
            NewtonMatrix::Dense { m, lu, piv, .. } => {
                small_lu::solve(lu, *m, piv, b);
                Ok(())
            }
            NewtonMatrix::Band(bd) => match &bd.band {
                Lu::Band(l) => l.solve(b, false),
                Lu::Reduced(l) => l.solve(b, false),
            }
            .map_err(|_| ()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::integrate::root_search::RootSearch;

    /// `y' = A y` with a fixed sparse `A` (a chain: tridiagonal blocks).
    struct Lin {
        n: usize,
        a: Vec<(usize, usize, f64)>,
    }

    impl RosProblem for Lin {
        fn read(&self, n: usize) -> usize {
            n
        }
        fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
            self.jvp(t, y, y, dy)
        }
        fn jvp(&self, _: f64, _: &[f64], v: &[f64], jv: &mut [f64]) {
            jv[..self.n].fill(0.0);
            for &(i, j, x) in &self.a {
                jv[i] += x * v[j];
            }
        }
        fn time_dependent(&self) -> bool {
            false
        }
        fn nroots(&self) -> usize {
            0
        }
        fn roots(&self, _: f64, _: &[f64], _: &mut [f64]) {}
        fn first_root(
            &self,
            _: &mut RootSearch,
            _: f64,
            _: f64,
            _: &[f64],
            _: impl Fn(f64, &mut [f64]),
        ) -> Option<(f64, usize)> {
            None
        }
    }

    /// The band form (coloured Jacobian, band LU after the reordering)
    /// solves the same systems as the dense form, to rounding, on a chain's
    /// pattern listed in a scrambled order.
    #[test]
    fn the_band_form_solves_what_the_dense_form_solves() {
        let n = 60;
        let mut a = Vec::new();
        // a chain of n / 3 bodies (x, v, z): neighbours coupled
        for k in 0..n / 3 {
            let (x, v, z) = (3 * k, 3 * k + 1, 3 * k + 2);
            a.push((x, v, 1.0));
            a.push((v, x, -200.0 - k as f64));
            a.push((v, v, -0.5));
            a.push((v, z, -1e5));
            a.push((z, v, 1.0 + 0.01 * k as f64));
            a.push((z, z, -300.0));
            if k + 1 < n / 3 {
                a.push((v, x + 3, 100.0));
                a.push((v + 3, x, 100.0));
            }
        }
        let p = Lin { n, a: a.clone() };
        let mut pattern: Vec<(usize, usize)> = a.iter().map(|&(i, j, _)| (i, j)).collect();
        pattern.reverse();
        let mut band = NewtonMatrix::new(n, n, Some(pattern));
        let mut dense = NewtonMatrix::new(n, n, None);
        assert!(band.is_band() && !dense.is_band());
        let y = vec![0.0; n];
        let (mut u, mut du) = (vec![0.0; n], vec![0.0; n]);
        band.jacobian(&p, 0.0, &y, &mut u, &mut du);
        dense.jacobian(&p, 0.0, &y, &mut u, &mut du);
        for c in [1e-3, 0.1] {
            band.factor(c).unwrap();
            dense.factor(c).unwrap();
            let rhs: Vec<f64> = (0..n).map(|i| ((i * 7919) % 13) as f64 - 6.0).collect();
            let (mut xb, mut xd) = (rhs.clone(), rhs.clone());
            band.solve(&mut xb).unwrap();
            dense.solve(&mut xd).unwrap();
            let scale = xd.iter().fold(0.0f64, |s, x| s.max(x.abs()));
            let diff = xb.iter().zip(&xd).fold(0.0f64, |s, (a, b)| s.max((a - b).abs()));
            assert!(diff <= 1e-12 * scale, "c {c}: {diff:e} of {scale:e}");
        }
    }
}

//! The Jacobian of implicit runs assembled from a few exact products: the
//! columns that share no row get one colour and are seeded together, one
//! product per colour (Curtis, Powell and Reid 1974, "On the estimation of
//! sparse Jacobian matrices", J. Inst. Math. Appl. 13, 117-119).
//!
//! Why not diffsol's `JacobianColoring`, which does the same: its greedy
//! pass (`color_graph_greedy`) clears a flag array of the system's size for
//! every column, which is quadratic in the number of states: a quarter of
//! the run of a chain of 10^5 LuGre bodies went there, and 10^6 bodies
//! would have spent minutes before the first step. This pass stamps the
//! colours of a column's neighbours with the column's number instead of
//! clearing, so it costs the sum over rows of (entries in the row)^2,
//! linear in the size of a network. The colours are those of diffsol's
//! greedy pass (each column in turn, the smallest colour no earlier column
//! sharing a row has), so the products and the Jacobian are the same.

use std::cell::RefCell;

use diffsol::matrix::sparsity::MatrixSparsity;
use diffsol::{Matrix, Vector, VectorIndex};

/// The colour (from 1) of each of the `n` columns of the pattern `nz`
/// (row, column): greedily in column order, the smallest colour that no
/// earlier column sharing a row with it has.
pub(crate) fn greedy_colors(n: usize, nz: &[(usize, usize)]) -> Vec<usize> {
    let nrows = nz.iter().map(|&(i, _)| i + 1).max().unwrap_or(0);
    let mut by_row: Vec<Vec<usize>> = vec![Vec::new(); nrows];
    let mut by_col: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(i, j) in nz {
        by_row[i].push(j);
        by_col[j].push(i);
    }
    let mut color = vec![0usize; n];
    // stamp[c] == j + 1: colour c is taken by a neighbour of column j
    let mut stamp: Vec<usize> = vec![0; 2];
    for j in 0..n {
        for &i in &by_col[j] {
            for &k in &by_row[i] {
                if k < j {
                    let c = color[k];
                    if c >= stamp.len() {
                        stamp.resize(c + 1, 0);
                    }
                    stamp[c] = j + 1;
                }
            }
        }
        let mut c = 1;
        while c < stamp.len() && stamp[c] == j + 1 {
            c += 1;
        }
        color[j] = c;
    }
    color
}

/// Per colour: where its entries go in the matrix, the rows of the product
/// they come from, and the columns seeded.
pub(crate) struct Coloring<M: Matrix> {
    dst: Vec<<M::V as Vector>::Index>,
    src: Vec<<M::V as Vector>::Index>,
    input: Vec<<M::V as Vector>::Index>,
    seed: RefCell<M::V>,
    product: RefCell<M::V>,
}

impl<M: Matrix<T = f64>> Coloring<M> {
    /// The colouring of `sparsity`, whose entries are `nz`.
    pub(crate) fn new(sparsity: &M::Sparsity, nz: &[(usize, usize)], ctx: M::C) -> Self {
        let colors = greedy_colors(sparsity.ncols(), nz);
        let ncolors = colors.iter().copied().max().unwrap_or(0);
        // the entries of each colour in the pattern's order
        let mut groups: Vec<Vec<(usize, usize)>> = vec![Vec::new(); ncolors];
        for &(i, j) in nz {
            groups[colors[j] - 1].push((i, j));
        }
        let (mut dst, mut src, mut input) = (Vec::new(), Vec::new(), Vec::new());
        for g in groups.into_iter().filter(|g| !g.is_empty()) {
            let rows: Vec<usize> = g.iter().map(|e| e.0).collect();
            let mut cols: Vec<usize> = g.iter().map(|e| e.1).collect();
            cols.sort_unstable();
            cols.dedup();
            dst.push(sparsity.get_index(&g, ctx.clone()));
            src.push(<M::V as Vector>::Index::from_vec(rows, ctx.clone()));
            input.push(<M::V as Vector>::Index::from_vec(cols, ctx.clone()));
        }
        Coloring {
            dst,
            src,
            input,
            seed: RefCell::new(M::V::zeros(sparsity.ncols(), ctx.clone())),
            product: RefCell::new(M::V::zeros(sparsity.nrows(), ctx)),
        }
    }

    /// The Jacobian of `op` at (t, x) into `y` (whose pattern is the
    /// colouring's): one product per colour.
    pub(crate) fn jacobian_inplace(&self, mul: impl Fn(&M::V, &mut M::V), y: &mut M) {
        let mut seed = self.seed.borrow_mut();
        let mut product = self.product.borrow_mut();
        for c in 0..self.dst.len() {
            seed.assign_at_indices(&self.input[c], 1.0);
            mul(&seed, &mut product);
            y.set_data_with_indices(&self.dst[c], &self.src[c], &product);
            seed.assign_at_indices(&self.input[c], 0.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::greedy_colors;
    use rand::{RngExt, SeedableRng};

    /// The greedy pass as diffsol writes it (a flag array cleared per
    /// column), for the comparison.
    fn reference(n: usize, nz: &[(usize, usize)]) -> Vec<usize> {
        let mut color = vec![0usize; n];
        for j in 0..n {
            let mut taken = vec![false; n + 1];
            for &(i, k) in nz {
                if k < j && nz.iter().any(|&(i2, j2)| i2 == i && j2 == j) {
                    taken[color[k]] = true;
                }
            }
            color[j] = (1..=n).find(|&c| !taken[c]).unwrap_or(1);
        }
        color
    }

    fn valid(n: usize, nz: &[(usize, usize)], color: &[usize]) -> bool {
        // no two columns of one colour share a row
        let nrows = nz.iter().map(|e| e.0 + 1).max().unwrap_or(0);
        (0..nrows).all(|i| {
            let mut seen = std::collections::HashSet::new();
            let cols: std::collections::BTreeSet<usize> =
                nz.iter().filter(|e| e.0 == i).map(|e| e.1).collect();
            cols.iter().all(|&j| j < n && seen.insert(color[j]))
        })
    }

    #[test]
    fn colours_equal_diffsols_greedy_pass_on_a_chain_and_random_patterns() {
        // a chain's pattern: tridiagonal blocks of (x, v, z) per body
        let n = 60;
        let mut chain = Vec::new();
        for i in 0..n {
            for d in [-3i64, -1, 0, 1, 3] {
                let j = i as i64 + d;
                if (0..n as i64).contains(&j) {
                    chain.push((i, j as usize));
                }
            }
        }
        let c = greedy_colors(n, &chain);
        assert_eq!(c, reference(n, &chain));
        assert!(valid(n, &chain, &c));
        assert!(*c.iter().max().unwrap() <= 7, "{c:?}");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(31);
        for _ in 0..20 {
            let n = rng.random_range(1..40);
            let nz: Vec<(usize, usize)> = (0..rng.random_range(0..4 * n))
                .map(|_| (rng.random_range(0..n), rng.random_range(0..n)))
                .collect();
            let c = greedy_colors(n, &nz);
            assert_eq!(c, reference(n, &nz), "pattern {nz:?}");
            assert!(valid(n, &nz, &c));
        }
    }
}

//! Bandwidth-reducing ordering of a sparse symmetric pattern (reverse
//! Cuthill-McKee: E. Cuthill and J. McKee 1969, "Reducing the bandwidth of
//! sparse symmetric matrices", Proc. 24th ACM National Conference), for the
//! band LU of [`crate::engine::linalg::band_lu`]: chains and trees of bodies become a few
//! diagonals.

/// Reverse Cuthill-McKee ordering of the symmetric pattern `adj`
/// (neighbours of each vertex, each once): `perm[new] = old`. Each
/// connected part starts from a vertex of least degree, neighbours are
/// visited by increasing degree.
pub(crate) fn reverse_cuthill_mckee(adj: &[Vec<usize>]) -> Vec<usize> {
    let n = adj.len();
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut by_degree: Vec<usize> = (0..n).collect();
    by_degree.sort_by_key(|&i| adj[i].len());
    let mut nbrs = Vec::new();
    for &s in &by_degree {
        if seen[s] {
            continue;
        }
        seen[s] = true;
        let mut head = order.len();
        order.push(s);
        while head < order.len() {
            let v = order[head];
            head += 1;
            nbrs.clear();
            nbrs.extend(adj[v].iter().copied().filter(|&w| !seen[w]));
            nbrs.sort_unstable_by_key(|&w| (adj[w].len(), w));
            for &w in &nbrs {
                seen[w] = true;
                order.push(w);
            }
        }
    }
    order.reverse();
    order
}

#[cfg(test)]
mod tests {
    use super::reverse_cuthill_mckee;

    #[test]
    fn reverse_cuthill_mckee_gives_a_path_bandwidth_one() {
        // a path 0-5-2-4-1-3 numbered out of order
        let path = [0, 5, 2, 4, 1, 3];
        let mut adj = vec![Vec::new(); 6];
        for w in path.windows(2) {
            adj[w[0]].push(w[1]);
            adj[w[1]].push(w[0]);
        }
        let perm = reverse_cuthill_mckee(&adj);
        let mut inv = [0usize; 6];
        for (new, &old) in perm.iter().enumerate() {
            inv[old] = new;
        }
        for w in path.windows(2) {
            assert_eq!(inv[w[0]].abs_diff(inv[w[1]]), 1, "{perm:?}");
        }
    }
}

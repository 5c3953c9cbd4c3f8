//! A fixed-fixed bar of linear finite elements with consistent mass, and
//! its closed-form eigenvalues: the reference structure of the structure
//! tests (friction-sim's and friction-analysis's, which include this file).

use std::f64::consts::PI;

use friction_sim::structure::SymMatrix;

/// A fixed-fixed bar of `ne` linear elements (EA = 1e6 N, ρA = 1 kg/m,
/// length 1 m): its `ne - 1` interior nodes, consistent mass
/// ρAh/6 [2 1; 1 2] and stiffness EA/h [1 -1; -1 1] per element.
pub fn bar(ne: usize) -> (SymMatrix, SymMatrix) {
    let (ea, rho_a, h) = (1e6, 1.0, 1.0 / ne as f64);
    let n = ne - 1;
    let (mut m, mut k) = (Vec::new(), Vec::new());
    for i in 0..n {
        m.push((i, i, 4.0 * rho_a * h / 6.0));
        k.push((i, i, 2.0 * ea / h));
        if i + 1 < n {
            m.push((i, i + 1, rho_a * h / 6.0));
            k.push((i, i + 1, -ea / h));
        }
    }
    (SymMatrix::from_upper(n, m), SymMatrix::from_upper(n, k))
}

/// The closed-form eigenvalues ω_k² of a fixed-fixed bar of `ne` linear
/// elements of length h with consistent mass:
/// (12 EA / (ρA h²)) sin²(θ/2) / (3 - 2 sin²(θ/2)), θ = kπ/ne.
pub fn bar_eigenvalue(ne: usize, h: f64, k: usize) -> f64 {
    let s2 = (k as f64 * PI / ne as f64 / 2.0).sin().powi(2);
    12.0 * 1e6 / h / h * s2 / (3.0 - 2.0 * s2)
}

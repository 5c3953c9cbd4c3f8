//! Craig-Bampton reduction (`reduce = { keep, modes }`) against the full
//! model: exact with every interior mode kept, a Rayleigh-Ritz upper bound
//! within the residual bound with a few, and the fixed-interface modes of
//! the sparse subspace iteration against the closed form.

#[path = "support/fe_bar.rs"]
mod fe_bar;

use fe_bar::{bar, bar_eigenvalue};

use friction_sim::structure::modal::modes;
use friction_sim::structure::reduce::craig_bampton;
use friction_sim::structure::SymMatrix;
use nalgebra::{DMatrix, DVector};

/// With every interior mode kept the Craig-Bampton transformation is square
/// and invertible: the reduced model's eigenvalues are the full model's
/// (computed here by the dense eigensolver), to 1e-10 relative.
#[test]
fn all_interior_modes_kept_reproduce_the_full_model() {
    let (m, k) = bar(30);
    let keep = [3, 17, 28];
    let red = craig_bampton(&m, &k, &keep, 29 - keep.len()).unwrap();
    let (full, _) = modes(&k.to_dense(), &m.to_dense()).unwrap();
    let (reduced, _) = modes(&red.stiffness.to_dense(), &red.mass.to_dense()).unwrap();
    assert_eq!(reduced.len(), full.len());
    for (a, b) in full.iter().zip(&reduced) {
        assert!((a - b).abs() <= 1e-10 * a, "full {a} reduced {b}");
    }
}

/// With K fixed-interface modes the reduction is a Rayleigh-Ritz
/// approximation: each reduced eigenvalue λ̃_j is an upper bound of the full
/// model's λ_j (Poincaré separation), and the Krylov-Bogoliubov bound on its
/// Ritz vector x (Mx-normalised, lifted to the full DOFs by T) puts λ_j
/// within ‖M^-1/2 (K x - λ̃ M x)‖ below it (Parlett 1998, "The symmetric
/// eigenvalue problem", Theorem 4.5.1). The first mode is also close: with
/// 6 modes its relative error is below 1e-3.
#[test]
fn few_modes_bound_the_low_modes_from_above_within_the_residual_bound() {
    let (m, k) = bar(60);
    let keep = [20, 40];
    let red = craig_bampton(&m, &k, &keep, 6).unwrap();
    let (md, kd) = (m.to_dense(), k.to_dense());
    let (full, _) = modes(&kd, &md).unwrap();
    let (lam, y) = modes(&red.stiffness.to_dense(), &red.mass.to_dense()).unwrap();
    let t = DMatrix::from_fn(59, 8, |i, j| red.t[(i, j)]);
    let minv = md.clone().try_inverse().unwrap();
    for j in 0..4 {
        let x: DVector<f64> = &t * y.column(j);
        let r = &kd * &x - &md * &x * lam[j];
        let eps = (r.transpose() * &minv * &r)[(0, 0)].sqrt();
        assert!(lam[j] >= full[j] * (1.0 - 1e-12), "mode {j}: {} below {}", lam[j], full[j]);
        assert!(lam[j] - full[j] <= eps, "mode {j}: error {} past the bound {eps}", lam[j] - full[j]);
    }
    let more = craig_bampton(&m, &k, &keep, 12).unwrap();
    let (lam12, _) = modes(&more.stiffness.to_dense(), &more.mass.to_dense()).unwrap();
    for j in 0..4 {
        assert!(lam12[j] <= lam[j] * (1.0 + 1e-12) && lam12[j] >= full[j] * (1.0 - 1e-12), "mode {j}");
    }
    // (here the first mode's error falls from 1.1e-3 to 1.7e-4 relative)
    assert!(lam12[0] < lam[0], "{} {} {}", full[0], lam[0], lam12[0]);
}

/// An interior of 998 DOFs (past the dense limit) takes the sparse subspace
/// iteration: a bar of 1000 elements held at its middle node splits into two
/// fixed-fixed bars of 500 elements, whose eigenvalues (each twice) are
/// known in closed form; the 6 lowest fixed-interface eigenvalues match
/// them to 1e-9.
#[test]
fn subspace_iteration_finds_the_closed_form_interior_modes_with_multiplicity() {
    let (m, k) = bar(1000);
    let red = craig_bampton(&m, &k, &[499], 6).unwrap();
    let h = 1e-3;
    for (j, l) in red.interior_eigenvalues.iter().enumerate() {
        let exact = bar_eigenvalue(500, h, j / 2 + 1);
        assert!((l - exact).abs() <= 1e-9 * exact, "mode {j}: {l} vs {exact}");
    }
}

#[test]
fn bad_reductions_are_refused_with_the_reason() {
    let (m, k) = bar(10);
    assert!(craig_bampton(&m, &k, &[9], 1).unwrap_err().contains("past the 9 DOFs"));
    assert!(craig_bampton(&m, &k, &[1, 1], 1).unwrap_err().contains("twice"));
    assert!(craig_bampton(&m, &k, &[1], 9).unwrap_err().contains("more than the 8 interior DOFs"));
    // a free-free bar held nowhere: the interior stiffness is singular
    let free = SymMatrix::from_upper(2, vec![(0, 0, 1.0), (0, 1, -1.0), (1, 1, 1.0)]);
    let (mm, kk) = (SymMatrix::diagonal(&[1.0, 1.0, 1.0]), SymMatrix::combine(1.0, &free, 0.0, &free));
    let three = SymMatrix::from_upper(3, kk.upper().to_vec());
    assert!(craig_bampton(&mm, &three, &[2], 1).unwrap_err().contains("rigid-body"));
}

/// A model of 10^5 DOFs: a 100,000-DOF bar reduced to 2 kept DOFs and 10
/// modes (the sparse path: subspace iteration on the interior block's
/// Cholesky factor). Its lowest fixed-interface eigenvalue is the closed
/// form of the longest of the three segments the kept nodes 33,333 and
/// 66,666 leave (33,335 elements) to 1e-9 (measured 8e-11). The wall time
/// is printed (`--nocapture`), not asserted: 5.0 s in the test profile.
#[test]
fn a_100k_dof_bar_reduces_to_its_closed_form_lowest_interior_mode() {
    let (m, k) = bar(100_001);
    let t0 = std::time::Instant::now();
    let red = craig_bampton(&m, &k, &[33_332, 66_665], 10).unwrap();
    let dt = t0.elapsed();
    let exact = bar_eigenvalue(33_335, 1.0 / 100_001.0, 1);
    let rel = (red.interior_eigenvalues[0] - exact).abs() / exact;
    println!(
        "100,000 DOFs -> {} (2 kept + 10 modes) in {dt:?}; lowest interior eigenvalue {} vs closed form {exact} \
         (relative {rel:.1e})",
        red.mass.n(),
        red.interior_eigenvalues[0],
    );
    assert_eq!(red.mass.n(), 12);
    assert!(rel < 1e-9, "lowest interior eigenvalue {} vs {exact}: {rel:.1e}", red.interior_eigenvalues[0]);
}

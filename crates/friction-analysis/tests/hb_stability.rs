//! Hill's method against closed forms: the Floquet exponents of any
//! periodic response of a linear structure are the eigenvalues of its
//! state matrix, whatever the forcing frequency and the number of harmonics.

use friction_analysis::hb::frf::solve_at;
use friction_analysis::hb::problem::Problem;
use friction_analysis::hb::stability::{floquet_exponents, is_stable};
use friction_analysis::hb::structure::Structure;
use friction_sim::{Ground, Schedule, SolverSettings, System};
use nalgebra::DMatrix;

/// A damped two-body chain forced at 5, 20 (near the first mode) and 60 Hz
/// with 3 harmonics: Hill's method selects, among its 4 (2H + 1) = 28
/// eigenvalues, exactly the 4 eigenvalues of [0 I; -M⁻¹K -M⁻¹C] (to 1e-8
/// of their modulus), and calls the response stable; with the dampers'
/// signs flipped (negative damping: the same periodic response exists under
/// the force, but every free motion grows) the exponents are again the
/// state matrix's, now in the right half-plane, and the response unstable.
#[test]
fn linear_chain_floquet_exponents_are_the_state_matrix_eigenvalues() {
    for sign in [1.0, -1.0] {
        linear_chain(sign);
    }
}

fn linear_chain(sign: f64) {
    let (m1, m2, k1, k2, c1, c2) = (1.0, 0.5, 2e4, 1e4, 3.0 * sign, 1.5 * sign);
    let sys = System::builder("chain")
        .body("a", m1)
        .body("b", m2)
        .spring("k1", ("a", Ground), k1)
        .spring("k2", ("b", "a"), k2)
        .damper("c1", ("a", Ground), c1.abs())
        .damper("c2", ("b", "a"), c2.abs())
        .force("p", "b", Schedule::Sine { amplitude: 2.0, frequency: 1.0, phase: 0.0, offset: 0.0 })
        .solver(SolverSettings::with_t_end(1.0))
        .build()
        .unwrap();
    let a = DMatrix::from_row_slice(
        4,
        4,
        &[
            0.0,
            0.0,
            1.0,
            0.0,
            0.0,
            0.0,
            0.0,
            1.0,
            -(k1 + k2) / m1,
            k2 / m1,
            -(c1 + c2) / m1,
            c2 / m1,
            k2 / m2,
            -k2 / m2,
            c2 / m2,
            -c2 / m2,
        ],
    );
    let mut exact: Vec<(f64, f64)> = a.complex_eigenvalues().iter().map(|z| (z.re, z.im)).collect();
    exact.sort_by(|p, q| p.0.total_cmp(&q.0).then(p.1.total_cmp(&q.1)));
    let mut s = Structure::from_system(&sys, "p").unwrap();
    s.c *= sign;
    for f in [5.0, 20.0, 60.0] {
        let x = solve_at(&s, f, 3, 64, None).unwrap();
        let mut p = Problem::new(s.clone(), 3, 64);
        let w = 2.0 * std::f64::consts::PI * f;
        let mut e = floquet_exponents(&mut p, &x, w).unwrap();
        assert_eq!(e.len(), 4);
        e.sort_by(|p, q| p.0.total_cmp(&q.0).then(p.1.total_cmp(&q.1)));
        for (got, want) in e.iter().zip(&exact) {
            let scale = want.0.hypot(want.1);
            assert!(
                (got.0 - want.0).abs() < 1e-8 * scale && (got.1 - want.1).abs() < 1e-8 * scale,
                "f = {f} Hz: {got:?} vs {want:?} (all: {e:?} vs {exact:?})"
            );
        }
        assert_eq!(is_stable(&e, w), sign > 0.0, "{e:?}");
    }
}

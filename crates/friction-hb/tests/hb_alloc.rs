//! The harmonic-balance Jacobian (finite differences in each contact's
//! coefficients, called at every Newton iteration of every point of a
//! branch) allocated a copy of the coefficients per call; it must allocate
//! nothing once the problem is built. A counting global allocator sees
//! every allocation of this test binary (one test: no other thread runs).

use friction_hb::problem::Problem;
use friction_hb::structure::Structure;
use friction_sim::{Ground, JenkinsParams, Schedule, SolverSettings, System};
use nalgebra::DMatrix;

#[path = "../../friction-sim/tests/support/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations_of;

#[test]
fn hb_jacobian_and_residual_allocate_nothing() {
    let jenkins = System::builder("jenkins")
        .body("m", 1.0)
        .spring("k", ("m", Ground), 1e4)
        .damper("c", ("m", Ground), 5.0)
        .contact("j", ("m", Ground), JenkinsParams { kt: 1e4, fs: 1.0, theta: 1.0 })
        .force("p", "m", Schedule::Sine { amplitude: 1.0, frequency: 10.0, phase: 0.0, offset: 0.0 })
        .solver(SolverSettings::with_t_end(1.0))
        .build()
        .unwrap();
    // true Coulomb stick: the dynamic Lagrangian AFT and its Jacobian by differences
    let coulomb = System::builder("coulomb")
        .body("m", 1.0)
        .spring("k", ("m", Ground), 1e4)
        .damper("c", ("m", Ground), 5.0)
        .contact("dry", ("m", Ground), friction_sim::CoulombParams { fc: 0.2, fs: None })
        .force("p", "m", Schedule::Sine { amplitude: 1.0, frequency: 10.0, phase: 0.0, offset: 0.0 })
        .solver(SolverSettings::with_t_end(1.0))
        .build()
        .unwrap();
    let iwan = friction_sim::scenario::load(std::path::Path::new("../../examples/jointed_frf.toml")).unwrap();
    for (sys, force) in [(&jenkins, "p"), (&coulomb, "p"), (&iwan, "shaker")] {
        let s = Structure::from_system(sys, force).unwrap();
        let mut p = Problem::new(s, 5, 256);
        let n = p.n();
        // a motion that slips: 1 mm in the fundamental, some third harmonic
        let mut x = vec![0.0; n];
        for (i, v) in x.iter_mut().enumerate() {
            *v = match i % 11 {
                1 => 1e-3,
                2 => 3e-4,
                5 => 1e-5,
                _ => 0.0,
            };
        }
        let mut jac = DMatrix::zeros(n, n + 1);
        let mut r = vec![0.0; n];
        p.jacobian(&x, 60.0, &mut jac);
        p.residual(&x, 60.0, &mut r);
        let (allocations, ()) = allocations_of(|| {
            p.jacobian(&x, 62.0, &mut jac);
            p.residual(&x, 62.0, &mut r);
        });
        assert_eq!(allocations, 0, "{}: {allocations} allocations in one Jacobian and residual", sys.name);
        assert!(jac.iter().all(|v| v.is_finite()) && jac.iter().any(|v| *v != 0.0));
    }
}

//! `bdf5` on plain systems of equations with closed forms or a published
//! reference (the problems of Rodas5P's tests): a stiff linear system, a
//! damped rotation through the dense output, a nonlinear non-autonomous
//! problem, Robertson's chemical kinetics; and what the method is for,
//! CVODE's iteration count: about one evaluation per step.

use super::*;
use crate::engine::integrate::rosenbrock::tests::{
    riccati, riccati_exact, robertson, rotation, rotation_exact, stiff_linear, stiff_linear_exact,
};
use crate::engine::integrate::stepper::Stepper;

/// Steps to `t_end`; the largest error at the steps' ends against `exact`
/// and, with `dense`, at the quarter, half and three-quarter points of
/// every step on the dense output.
fn run<P: RosProblem>(b: &mut Bdf5<'_, P>, t_end: f64, exact: impl Fn(f64) -> Vec<f64>, dense: bool) -> f64 {
    b.set_stop_time(t_end).unwrap();
    let mut worst: f64 = 0.0;
    let mut y = vec![0.0; b.n];
    loop {
        let stop = b.step().unwrap();
        let ex = exact(b.last.t);
        for (a, e) in b.last.y.iter().zip(&ex) {
            worst = worst.max((a - e).abs());
        }
        if dense {
            for f in [0.25, 0.5, 0.75] {
                let tq = b.last.t_prev + f * (b.last.t - b.last.t_prev);
                b.interpolate(tq, &mut y).unwrap();
                for (a, e) in y.iter().zip(exact(tq)) {
                    worst = worst.max((a - e).abs());
                }
            }
        }
        if stop == Stop::AtStopTime {
            return worst;
        }
    }
}

/// The stiff linear system (eigenvalues -1 and -1000) follows its closed
/// form to about the tolerance, the error falling with it, in a number of
/// steps no explicit method could take (about 1,000 for stability alone),
/// with CVODE's iteration: under 1.5 evaluations of the equations per step
/// (SciPy's and diffsol's BDF need at least two) and far fewer
/// factorisations than steps.
#[test]
fn stiff_linear_system_follows_its_closed_form_in_about_one_iteration_a_step() {
    let p = stiff_linear();
    let mut prev = f64::INFINITY;
    for rtol in [1e-4, 1e-6, 1e-8] {
        let mut b = Bdf5::new(&p, 0.0, &[1.0, 0.0], 1e-6, 2.0, rtol, vec![rtol; 2], None);
        let worst = run(&mut b, 2.0, |t| stiff_linear_exact(t).to_vec(), false);
        let s = b.stats();
        let per_step = s.newton_iterations as f64 / (s.steps + s.rejected) as f64;
        println!(
            "rtol {rtol:e}: error {worst:.2e}, {} steps, {} rejected, {per_step:.2} iterations a step, {} LU, order {}",
            s.steps, s.rejected, s.factorisations, b.order
        );
        assert!(worst < 20.0 * rtol, "rtol {rtol:e}: error {worst:e}");
        assert!(worst < prev);
        assert!(s.steps < 600, "{} steps", s.steps);
        assert!(per_step < 1.5, "{per_step} iterations a step");
        assert!(s.factorisations * 3 < s.steps, "{} factorisations for {} steps", s.factorisations, s.steps);
        prev = worst;
    }
}

/// A damped rotation (no stiffness; the oscillation checks the formulas of
/// every order and the rescaling of the differences) and a nonlinear,
/// non-autonomous problem: the solution and the dense output within the
/// step follow the closed forms to about the tolerance.
#[test]
fn rotation_and_riccati_follow_their_closed_forms_on_the_dense_output_too() {
    for rtol in [1e-5, 1e-8] {
        let p = rotation();
        let mut b = Bdf5::new(&p, 0.0, &[1.0, 0.0], 1e-6, 10.0, rtol, vec![rtol; 2], None);
        let worst = run(&mut b, 10.0, |t| rotation_exact(t).to_vec(), true);
        println!("rotation rtol {rtol:e}: error {worst:.2e}, {} steps, order {}", b.stats().steps, b.order);
        assert!(worst < 30.0 * rtol, "rotation rtol {rtol:e}: error {worst:e}");
        let p = riccati();
        let mut b = Bdf5::new(&p, 0.0, &[1.0], 1e-6, 5.0, rtol, vec![rtol], None);
        let worst = run(&mut b, 5.0, |t| riccati_exact(t).to_vec(), true);
        println!("riccati rtol {rtol:e}: error {worst:.2e}, {} steps", b.stats().steps);
        assert!(worst < 30.0 * rtol, "riccati rtol {rtol:e}: error {worst:e}");
    }
}

/// The method reaches its highest orders on a smooth problem at a tight
/// tolerance (a BDF stuck at low order would need many more steps).
#[test]
fn a_smooth_problem_at_a_tight_tolerance_is_integrated_at_order_four_or_five() {
    let p = rotation();
    let mut b = Bdf5::new(&p, 0.0, &[1.0, 0.0], 1e-6, 10.0, 1e-10, vec![1e-10; 2], None);
    b.set_stop_time(10.0).unwrap();
    let mut highest = 0;
    while b.step().unwrap() != Stop::AtStopTime {
        highest = highest.max(b.order);
    }
    println!("{} steps, highest order {highest}", b.stats().steps);
    assert!(highest >= 4, "highest order {highest}");
}

/// Robertson's problem at t = 40 against the reference of Rodas5P's test
/// (SciPy 1.17's Radau at rtol 1e-12, atol 1e-16; the digits of Hairer and
/// Wanner's *Solving ODEs II* agree); the linear invariant `y1 + y2 + y3 = 1`
/// holds to rounding, as for any linear multistep method with a Newton
/// matrix whose columns sum as the equations' do.
#[test]
fn robertson_at_40_matches_the_reference() {
    let reference = [0.7158270687194137, 9.185534764558203e-6, 0.2841637457458199];
    let p = robertson();
    for (rtol, tol) in [(1e-6, 2e-4), (1e-10, 2e-8)] {
        let atol = vec![rtol * 1e-4; 3];
        let mut b = Bdf5::new(&p, 0.0, &[1.0, 0.0, 0.0], 1e-6, 40.0, rtol, atol, None);
        b.set_stop_time(40.0).unwrap();
        while b.step().unwrap() != Stop::AtStopTime {}
        let rel: Vec<f64> = b.last.y.iter().zip(reference).map(|(a, r)| ((a - r) / r).abs()).collect();
        let s = b.stats();
        println!(
            "rtol {rtol:e}: {:?}, relative errors {rel:?}, {} steps, {} iterations, {} LU",
            b.last.y, s.steps, s.newton_iterations, s.factorisations
        );
        assert!(rel.iter().all(|&e| e < tol), "rtol {rtol:e}: {rel:?}");
        assert!((b.last.y.iter().sum::<f64>() - 1.0).abs() < 1e-12, "mass not conserved");
    }
}

/// Moving back to a time within the last step (an event) and going on
/// gives the closed form again: the history restarts at order 1 from the
/// interpolated state.
#[test]
fn after_moving_back_into_a_step_the_solution_goes_on_along_the_closed_form() {
    let p = rotation();
    let mut b = Bdf5::new(&p, 0.0, &[1.0, 0.0], 1e-6, 10.0, 1e-8, vec![1e-8; 2], None);
    b.set_stop_time(10.0).unwrap();
    while b.last.t < 3.0 {
        b.step().unwrap();
    }
    let back = 0.5 * (b.last.t_prev + b.last.t);
    b.move_back(back).unwrap();
    assert_eq!(b.last.t, back);
    assert_eq!(b.order, 1);
    let worst = run(&mut b, 10.0, |t| rotation_exact(t).to_vec(), false);
    assert!(worst < 3e-7, "error {worst:e}");
}

//! Dense and sparse linear algebra solve the same equations: on a chain of
//! LuGre contacts (sparse by default) and on stick-slip with true stick
//! (dense by default), forcing the other choice changes the motion only
//! within the tolerances, and the run reports which one it used.

use std::fmt::Write;
use std::path::Path;

use friction_sim::scenario::chain::chain_text;
use friction_sim::scenario::{self, LinearAlgebra};
use friction_sim::simulate;

/// `n` unit masses joined by springs, each on its own contact to the
/// ground, the first pulled through a spring by a driver at 0.1 m/s.
fn chain(n: usize, contact: &str) -> String {
    chain_text(n, contact) + "[solver]\nt_end = 3.0\noutput_dt = 0.1\nrtol = 1e-8\n"
}

fn compare(text: &str, default: &str, other: LinearAlgebra, tol: f64) {
    let mut sys = scenario::parse(text, "chain.toml", Path::new(".")).unwrap();
    let a = simulate(&sys).unwrap();
    assert!(a.failure.is_none(), "{:?}", a.failure);
    assert_eq!(a.stats.linear_algebra, default);
    sys.solver.linear_algebra = other;
    let b = simulate(&sys).unwrap();
    assert!(b.failure.is_none(), "{:?}", b.failure);
    assert_eq!(b.stats.linear_algebra, other.name());
    assert_eq!(a.rows.len(), b.rows.len());
    let mut worst = 0.0f64;
    for (ra, rb) in a.rows.iter().zip(&b.rows) {
        for (k, col) in a.columns.iter().enumerate() {
            if col.starts_with("x.") || col.starts_with("v.") {
                worst = worst.max((ra[k] - rb[k]).abs());
            }
        }
    }
    assert!(worst < tol, "positions and velocities differ by {worst:e}");
    // the motion is not trivial: the far end of the chain has moved
    assert!(a.last(&a.columns[1]).abs() > 1e-3);
}

#[test]
fn sparse_and_dense_give_the_same_chain_of_lugre_contacts() {
    let lugre = "model = \"lugre\"\nparams = { fc = 1.0, fs = 1.5, vs = 0.001 }";
    compare(&chain(20, lugre), "sparse", LinearAlgebra::Dense, 1e-5);
}

#[test]
fn sparse_and_dense_give_the_same_stick_slip_with_true_stick() {
    let coulomb = "model = \"coulomb\"\nparams = { fc = 1.0, fs = 1.2 }";
    let mut text = chain(4, coulomb);
    // stiff enough that auto picks an implicit method
    text = text.replace("rtol = 1e-8\n", "rtol = 1e-8\nmethod = \"bdf\"\n");
    compare(&text, "sparse", LinearAlgebra::Dense, 1e-6);
}

/// A hub joined by springs to 4 and to 40 masses, each on a LuGre contact:
/// with 4 the band LU solves it (a tree, not a chain), with 40 no ordering
/// makes the Jacobian a narrow band and faer's sparse LU does; the motion
/// is the dense one.
#[test]
fn sparse_and_dense_give_the_same_stars_of_lugre_contacts() {
    for masses in [4, 40] {
        compare(&star(masses), "sparse", LinearAlgebra::Dense, 1e-5);
    }
}

fn star(masses: usize) -> String {
    let mut s = String::from(
        "[[driver]]\nname = \"pull\"\nmotion = { type = \"ramp\", rate = 0.1 }\n\
         [[body]]\nname = \"hub\"\nmass = 2.0\n[[spring]]\nbetween = [\"pull\", \"hub\"]\nstiffness = 100.0\n",
    );
    for i in 0..masses {
        writeln!(
            s,
            "[[body]]\nname = \"m{i}\"\nmass = 1.0\n[[spring]]\nbetween = [\"hub\", \"m{i}\"]\nstiffness = {}\n\
             [[contact]]\nname = \"c{i}\"\nbetween = [\"m{i}\", \"ground\"]\nmodel = \"lugre\"\n\
             params = {{ fc = {}, fs = 1.5, vs = 0.001 }}",
            50.0 + i as f64,
            0.5 + 0.01 * i as f64
        )
        .unwrap();
    }
    s.push_str("[solver]\nt_end = 3.0\noutput_dt = 0.1\nrtol = 1e-8\n");
    s
}

/// A network of 28,002 states runs implicitly (its Jacobian's pattern
/// comes from the structure; diffsol's probe of every column would have
/// held about 24 n² bytes, 19 GB, and the run used to be refused), and it
/// moves as the explicit method moves it.
#[test]
fn implicit_run_of_a_large_network_needs_no_quadratic_probe() {
    let lugre = "model = \"lugre\"\nparams = { fc = 1.0, fs = 1.5, vs = 0.001 }";
    let text = chain(7000, lugre)
        .replace("t_end = 3.0\noutput_dt = 0.1\nrtol = 1e-8", "t_end = 2e-3\noutput_dt = 1e-3\nrtol = 1e-6");
    let mut sys = scenario::parse(&text, "chain.toml", Path::new(".")).unwrap();
    sys.solver.method = scenario::Method::Bdf;
    let a = simulate(&sys).unwrap();
    assert!(a.failure.is_none(), "{:?}", a.failure);
    assert_eq!((a.stats.linear_algebra.as_str(), a.stats.method.as_str()), ("sparse", "bdf"));
    sys.solver.method = scenario::Method::Tsit45;
    let b = simulate(&sys).unwrap();
    assert!(b.failure.is_none(), "{:?}", b.failure);
    let (xa, xb) = (a.last("x.m0"), b.last("x.m0"));
    // the pulled mass has moved, by the same amount under both methods
    assert!(xa > 1e-9, "x.m0 = {xa:e}");
    assert!((xa - xb).abs() < 1e-3 * xa.abs(), "bdf {xa:e}, tsit45 {xb:e}");
}

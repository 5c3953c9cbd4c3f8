//! A scenario with one `[[structure]]` whose matrices are written as
//! MatrixMarket files beside it, in a scratch folder of the test binary:
//! shared by the structure tests of the time domain (included by path).

use std::path::PathBuf;

use friction_sim::structure::{matrix_market, SymMatrix};
use friction_sim::{scenario, simulate, Outcome, System};

/// The scratch folder `NAME` of this test binary.
pub fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A scenario `name` (in the scratch folder `dir`) with structure
/// `structure` of matrices `m`, `k` and the keys `extra` in its table, then
/// `rest`, loaded from its folder.
pub fn with_structure(
    dir: &str,
    name: &str,
    structure: &str,
    m: &SymMatrix,
    k: &SymMatrix,
    extra: &str,
    rest: &str,
) -> System {
    let d = scratch(dir);
    std::fs::write(d.join("M.mtx"), matrix_market::write(m, "mass")).unwrap();
    std::fs::write(d.join("K.mtx"), matrix_market::write(k, "stiffness")).unwrap();
    let text = format!(
        "name = \"{name}\"\n[[structure]]\nname = \"{structure}\"\nmass = \"M.mtx\"\nstiffness = \"K.mtx\"\n{extra}\n{rest}\n"
    );
    std::fs::write(d.join("s.toml"), &text).unwrap();
    scenario::load(&d.join("s.toml")).unwrap()
}

/// The run of `sys`, which must not fail.
pub fn run(sys: &System) -> Outcome {
    let out = simulate(sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    out
}

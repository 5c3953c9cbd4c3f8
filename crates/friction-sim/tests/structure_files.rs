//! `[[structure]]`: bad matrix files refused with the file, the line and
//! the value; DOF names checked; the builder giving the parser's messages;
//! the time-domain engine refusing stick at a DOF rather than running it wrong.

use std::path::PathBuf;

use friction_sim::structure::{Damping, SymMatrix};
use friction_sim::{SolverSettings, StructureSpec, System};

fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("structure_files_{name}"));
    std::fs::create_dir_all(&d).unwrap();
    d
}

const K_OK: &str = "%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 2.0\n2 1 -1.0\n2 2 2.0\n";
const M_OK: &str = "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 1.0\n2 2 1.0\n";

/// Load a scenario with structure `beam` reading `mass` and `stiffness`
/// (texts written to files), plus `extra`; the error text, or "ok".
fn load(name: &str, mass: &str, stiffness: &str, extra: &str) -> String {
    let d = scratch(name);
    std::fs::write(d.join("M.mtx"), mass).unwrap();
    std::fs::write(d.join("K.mtx"), stiffness).unwrap();
    let text = format!(
        "name = \"s\"\n[[structure]]\nname = \"beam\"\nmass = \"M.mtx\"\nstiffness = \"K.mtx\"\n{extra}\n[solver]\nt_end = 1.0\n"
    );
    std::fs::write(d.join("s.toml"), text).unwrap();
    match friction_sim::scenario::load(&d.join("s.toml")) {
        Ok(_) => "ok".into(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn good_files_load_and_bad_ones_name_file_line_and_value() {
    assert_eq!(load("ok", M_OK, K_OK, ""), "ok");
    let e = load("nan", M_OK, &K_OK.replace("2 2 2.0", "2 2 NaN"), "");
    assert!(e.contains("K.mtx:5:") && e.contains("NaN"), "{e}");
    let e = load("past", M_OK, &K_OK.replace("2 1 -1.0", "3 1 -1.0"), "");
    assert!(e.contains("K.mtx:4:") && e.contains("(3, 1)"), "{e}");
    let general = "%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 2\n1 2 -1\n2 1 -1.5\n2 2 2\n";
    let e = load("asym", M_OK, general, "");
    assert!(e.contains("K.mtx:4:") && e.contains("not symmetric") && e.contains("-1.5e0"), "{e}");
    let rect = "%%MatrixMarket matrix coordinate real general\n2 3 1\n1 1 2\n";
    let e = load("rect", M_OK, rect, "");
    assert!(e.contains("K.mtx:2:") && e.contains("2 x 3, not square"), "{e}");
    // indefinite mass: eigenvalues 3 and -1
    let indefinite = "%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 1\n2 1 2\n2 2 1\n";
    let e = load("indef", indefinite, K_OK, "");
    assert!(e.contains("M.mtx") && e.contains("not positive definite"), "{e}");
    let three = "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 1\n2 2 1\n3 3 1\n";
    let e = load("size", three, K_OK, "");
    assert!(e.contains("3 x 3") && e.contains("2 x 2"), "{e}");
}

#[test]
fn dof_names_are_checked_where_members_are_named() {
    let spring = |to: &str| format!("[[spring]]\nbetween = [\"{to}\", \"ground\"]\nstiffness = 1.0");
    assert_eq!(load("dof_ok", M_OK, K_OK, &spring("beam:1")), "ok");
    let e = load("dof_past", M_OK, K_OK, &spring("beam:2"));
    assert!(
        e.contains("s.toml:7:") && e.contains("index 2 is past the 2 DOFs") && e.contains("0 to 1"),
        "{e}"
    );
    let e = load("dof_unknown", M_OK, K_OK, &spring("bean:0"));
    assert!(e.contains("unknown structure \"bean\"") && e.contains("beam"), "{e}");
    let e = load("dof_bare", M_OK, K_OK, &spring("beam"));
    assert!(e.contains("\"beam:INDEX\""), "{e}");
    let e = load("dof_index", M_OK, K_OK, &spring("beam:x"));
    assert!(e.contains("0-based index"), "{e}");
    let e = load("watch", M_OK, K_OK, "watch = [4]");
    assert!(e.contains("s.toml:6:") && e.contains("`watch` index 4"), "{e}");
    let e = load("stop", M_OK, K_OK, "[[stop]]\nbody = \"beam:0\"\nmax = 1.0");
    assert!(e.contains("stops on a structure's DOF are not supported"), "{e}");
    let e = load("force_ok", M_OK, K_OK, "[[force]]\non = \"beam:1\"\nvalue = 1.0");
    assert_eq!(e, "ok");
    let e = load("rayleigh", M_OK, K_OK, "rayleigh = [1.0, -2.0]");
    assert!(e.contains("beta = -2"), "{e}");
}

#[test]
fn the_builder_takes_matrices_and_gives_the_parsers_messages() {
    let m = SymMatrix::diagonal(&[1.0, 1.0]);
    let k = SymMatrix::from_upper(2, vec![(0, 0, 2.0), (0, 1, -1.0), (1, 1, 2.0)]);
    let spec = StructureSpec {
        name: "beam".into(),
        mass: m,
        stiffness: k,
        damping: Damping::None,
        watch: vec![],
        reduce: None,
    };
    let sys = System::builder("b")
        .structure(spec.clone())
        .spring("k", ("beam:0", "ground"), 1.0)
        .force("p", "beam:1", 1.0)
        .solver(SolverSettings::with_t_end(1.0))
        .build()
        .unwrap();
    assert_eq!(sys.structures[0].loads[0].on, 1);
    let e = System::builder("b")
        .structure(spec)
        .spring("k", ("beam:5", "ground"), 1.0)
        .solver(SolverSettings::with_t_end(1.0))
        .build()
        .unwrap_err()
        .to_string();
    assert!(e.contains("index 5 is past the 2 DOFs of structure \"beam\""), "{e}");
}

/// A structure runs in the time domain, with a set-valued contact or a
/// presliding joint at one of its DOFs (`tests/structure_stick.rs` checks
/// the stick against closed forms).
#[test]
fn a_set_valued_contact_on_a_structure_dof_runs_in_the_time_domain() {
    assert_eq!(load("run", M_OK, K_OK, ""), "ok");
    let sys = friction_sim::scenario::load(&scratch("run").join("s.toml")).unwrap();
    friction_sim::simulate(&sys).unwrap();
    let contact = |model: &str| {
        format!("[[contact]]\nname = \"j\"\nbetween = [\"beam:1\", \"ground\"]\nmodel = \"{model}\"")
    };
    assert_eq!(load("run_coulomb", M_OK, K_OK, &contact("coulomb")), "ok");
    let sys = friction_sim::scenario::load(&scratch("run_coulomb").join("s.toml")).unwrap();
    let out = friction_sim::simulate(&sys).unwrap();
    assert!(out.failure.is_none(), "{:?}", out.failure);
    assert_eq!(load("run_jenkins", M_OK, K_OK, &contact("jenkins")), "ok");
    let sys = friction_sim::scenario::load(&scratch("run_jenkins").join("s.toml")).unwrap();
    friction_sim::simulate(&sys).unwrap();
}

/// A reduced structure keeps the names of its kept DOFs, refuses the others
/// by name, writes its reduced matrices when asked, and those read back are
/// the matrices it uses.
#[test]
fn a_reduced_structure_names_its_kept_dofs_and_writes_its_matrices() {
    let n = 12;
    let diag = |v: f64| (0..n).map(|i| format!("{} {} {v}\n", i + 1, i + 1)).collect::<String>();
    let off = (1..n).map(|i| format!("{} {} -1.0\n", i + 1, i)).collect::<String>();
    let m = format!("%%MatrixMarket matrix coordinate real symmetric\n{n} {n} {n}\n{}", diag(1.0));
    let k =
        format!("%%MatrixMarket matrix coordinate real symmetric\n{n} {n} {}\n{}{off}", 2 * n - 1, diag(2.0));
    let red = "reduce = { keep = [2, 9], modes = 3, write = \"reduced\" }\nwatch = [9]";
    let spring = |to: &str| format!("{red}\n[[spring]]\nbetween = [\"{to}\", \"ground\"]\nstiffness = 1.0");
    assert_eq!(load("reduced", &m, &k, &spring("beam:9")), "ok");
    let sys = friction_sim::scenario::load(&scratch("reduced").join("s.toml")).unwrap();
    let s = &sys.structures[0];
    assert_eq!((s.n(), s.dofs.clone(), s.watch.clone()), (5, vec![2, 9], vec![1]));
    assert_eq!(sys.springs[0].between[0], friction_sim::Member::Dof { structure: 0, index: 1 });
    let text = std::fs::read_to_string(scratch("reduced").join("reduced/mass.mtx")).unwrap();
    let back = friction_sim::structure::matrix_market::parse(&text, "mass.mtx")
        .unwrap()
        .into_symmetric("m")
        .unwrap();
    assert_eq!(back, s.mass);
    let e = load("reduced_other", &m, &k, &spring("beam:4"));
    assert!(e.contains("DOF 4 is not kept by the reduction") && e.contains("2, 9"), "{e}");
}

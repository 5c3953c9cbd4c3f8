//! The CalculiX example (`examples/fe_beam/`): the matrices CalculiX wrote
//! (`*FREQUENCY, SOLVER=MATRIXSTORAGE`) have, by our dense eigensolver,
//! the eigenfrequencies CalculiX printed for the same mesh (`beam_modes.dat`)
//! to its printed digits; and CalculiX (the Debian package `calculix-ccx`,
//! installed with apt-get when missing) run afresh writes the same matrices.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use friction_sim::structure::{modal::modes, read_matrix, SymMatrix};

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/fe_beam")
}

/// CalculiX's `ccx`, installed with apt-get when missing.
fn ccx() {
    static READY: OnceLock<()> = OnceLock::new();
    READY.get_or_init(|| {
        let present = || Command::new("which").arg("ccx").output().is_ok_and(|o| o.status.success());
        if present() {
            return;
        }
        let apt = |args: &[&str]| {
            Command::new("apt-get")
                .args(args)
                .env("DEBIAN_FRONTEND", "noninteractive")
                .status()
                .is_ok_and(|s| s.success())
        };
        if !apt(&["install", "-y", "calculix-ccx"]) {
            apt(&["update"]);
            apt(&["install", "-y", "calculix-ccx"]);
        }
        assert!(
            present(),
            "ccx is missing and `apt-get install -y calculix-ccx` did not install it; install CalculiX \
             (calculix-ccx) to run the finite-element example"
        );
    });
}

/// The eigenfrequencies [Hz] and their printed text in a CalculiX `.dat`
/// file's "E I G E N V A L U E   O U T P U T" table (column CYCLES/TIME).
fn ccx_frequencies(dat: &Path) -> Vec<(f64, String)> {
    let text = std::fs::read_to_string(dat).unwrap();
    let table = text.split("E I G E N V A L U E   O U T P U T").nth(1).unwrap();
    let table = table.split("P A R T I C I P A T I O N").next().unwrap();
    table
        .lines()
        .filter_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            (t.len() == 5 && t[0].parse::<usize>().is_ok()).then(|| (t[3].parse().unwrap(), t[3].to_string()))
        })
        .collect()
}

/// Half a unit of the last printed digit of `0.6757050E+02`.
fn half_ulp(text: &str) -> f64 {
    let (mantissa, exp) = text.split_once('E').unwrap();
    let digits = mantissa.split('.').nth(1).unwrap().len() as i32;
    0.5 * 10f64.powi(exp.parse::<i32>().unwrap() - digits)
}

fn our_frequencies(dir: &Path) -> (SymMatrix, SymMatrix, Vec<f64>) {
    let (m, labels) = read_matrix(&dir.join("beam.mas"), "mass").unwrap();
    let (k, _) = read_matrix(&dir.join("beam.sti"), "stiffness").unwrap();
    assert_eq!(labels.map(|l| l.len()), Some(360));
    let (lam, _) = modes(&k.to_dense(), &m.to_dense()).unwrap();
    let f = lam.iter().map(|l| l.sqrt() / (2.0 * std::f64::consts::PI)).collect();
    (m, k, f)
}

/// The checked-in matrices against the checked-in eigenfrequencies of
/// CalculiX: the first 8 agree to the printed 7 digits.
#[test]
fn imported_calculix_matrices_have_calculix_eigenfrequencies_to_its_printed_digits() {
    let (_, _, ours) = our_frequencies(&example());
    let theirs = ccx_frequencies(&example().join("beam_modes.dat"));
    assert_eq!(theirs.len(), 8);
    for (i, (f, text)) in theirs.iter().enumerate() {
        let d = (ours[i] - f).abs();
        assert!(
            d <= half_ulp(text),
            "mode {}: ours {} Hz, CalculiX {text} (difference {d:e})",
            i + 1,
            ours[i]
        );
    }
}

/// CalculiX run afresh on `beam.inp` and `beam_modes.inp` (in a scratch
/// copy) writes matrices equal to the checked-in ones to 1e-12 of the
/// largest entry, and eigenfrequencies that ours of its matrices match.
#[test]
fn calculix_run_afresh_writes_the_checked_in_matrices() {
    ccx();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fe_beam");
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["beam.inp", "beam_modes.inp", "make_matrices.sh"] {
        std::fs::copy(example().join(f), dir.join(f)).unwrap();
    }
    let st = Command::new("bash").arg(dir.join("make_matrices.sh")).status().unwrap();
    assert!(st.success(), "make_matrices.sh failed");
    let (m, k, ours) = our_frequencies(&dir);
    let (m0, k0, _) = our_frequencies(&example());
    for (a, b) in [(&m, &m0), (&k, &k0)] {
        let (da, db) = (a.to_dense(), b.to_dense());
        assert!((&da - &db).amax() <= 1e-12 * db.amax(), "regenerated matrix differs");
    }
    for (i, (f, text)) in ccx_frequencies(&dir.join("beam_modes.dat")).iter().enumerate() {
        assert!((ours[i] - f).abs() <= half_ulp(text), "mode {}: {} vs {text}", i + 1, ours[i]);
    }
}

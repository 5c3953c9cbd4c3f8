//! Inputs that exhausted the command line (issue 43): periodic signals
//! begun long before t = 0, and the set-up of huge scenarios. Each test is
//! named by its symptom; none asserts a speed.

use std::path::PathBuf;

mod common;
use common::friction;

fn tmp(name: &str) -> PathBuf {
    common::tmp("input-limits", name)
}

/// A mass on a spring pushed by the force `value`, over 3 s.
fn pushed(value: &str) -> String {
    format!(
        "name = \"pushed\"\n[[body]]\nname = \"m\"\nmass = 1.0\n[[spring]]\nbetween = [\"m\", \"ground\"]\n\
         stiffness = 100.0\n[[force]]\nname = \"f\"\non = \"m\"\nvalue = {value}\n\
         [solver]\nt_end = 3.0\noutput_dt = 0.01\n"
    )
}

/// Run `text` with `friction run`, returning (exit code, stderr, the CSV).
fn run(name: &str, text: &str) -> (i32, String, String) {
    let d = tmp(name);
    let f = d.join("s.toml");
    std::fs::write(&f, text).unwrap();
    let out = d.join("out");
    let o = friction()
        .args(["run", f.to_str().unwrap(), "--out", out.to_str().unwrap(), "--svg"])
        .output()
        .unwrap();
    let csv = std::fs::read_to_string(out.join("timeseries.csv")).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&d);
    (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stderr).into_owned(), csv)
}

/// Symptom: a 704-byte scenario whose force is a sawtooth with
/// `start = -1e20` grew `friction run` to gigabytes and aborted it
/// ("memory allocation of 8589934592 bytes failed" in the breakpoints).
/// Now it runs to its end, t = 3 s.
#[test]
fn sawtooth_starting_at_minus_1e20_runs_in_bounded_memory() {
    let (code, err, csv) =
        run("saw", &pushed("{ type = \"sawtooth\", amplitude = 1.0, period = 1.0, start = -1e20 }"));
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("panicked") && !err.contains("memory allocation"), "{err}");
    let rows = csv.lines().count();
    assert!(rows > 300, "{rows} rows");
    let last_t: f64 =
        csv.lines().last().and_then(|l| l.split(',').next()).and_then(|t| t.parse().ok()).unwrap();
    assert!((last_t - 3.0).abs() < 1e-12, "the run stopped at t = {last_t}");
}

/// Symptom: the same with a square wave and `start = -1e16` (above 2^53,
/// where `k += 1.0` no longer changes `k`).
#[test]
fn square_starting_at_minus_1e16_runs_in_bounded_memory() {
    let (code, err, _) =
        run("square", &pushed("{ type = \"square\", amplitude = 1.0, period = 1.0, start = -1e16 }"));
    assert_eq!(code, 0, "{err}");
    // a pulse train inside a sum inside a window, begun at -1e300: the same closed form
    let (code, err, _) = run(
        "nested",
        &pushed(
            "{ type = \"window\", end = 2.5, inner = { type = \"sum\", terms = [1.0, \
             { type = \"pulse_train\", amplitude = 1.0, period = 0.25, start = -1e300 }] } }",
        ),
    );
    assert_eq!(code, 0, "{err}");
}

/// Symptom: one body with 10^5 Coulomb contacts printed "preparing" and was
/// still running after 60 s (the engine solves contacts that stick
/// together as one dense block: 10^5² values, 75 GiB, then aborted). Now it
/// is refused up front with the estimate and the option that raises the limit.
#[test]
fn one_body_with_1e5_contacts_is_refused_up_front_with_its_estimate() {
    let mut text = String::from(
        "name = \"many\"\n[[body]]\nname = \"m\"\nmass = 1.0\n[[spring]]\nbetween = [\"m\", \"ground\"]\n\
         stiffness = 100.0\n",
    );
    for i in 0..100_000 {
        text += &format!(
            "[[contact]]\nname = \"c{i}\"\nbetween = [\"m\", \"ground\"]\nmodel = \"coulomb\"\nparams = {{ fc = 1e-5 }}\n"
        );
    }
    text += "[solver]\nt_end = 0.1\noutput_dt = 0.01\nstates = \"none\"\n";
    let (code, err, csv) = run("contacts", &text);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("100000 contacts and stops that can stick") && err.contains("74.5 GiB"), "{err}");
    assert!(err.contains("--max-stuck-rows = 2048") && err.contains("raise --max-stuck-rows"), "{err}");
    assert!(csv.is_empty(), "output written");
}

/// Symptom: 5 x 10^6 output rows took 19 s with no word of their size. Now
/// the size is said before the first step (here the run is then cut short
/// by --max-wall, which writes a partial result: exit status 1).
#[test]
fn five_million_output_rows_are_announced_before_the_run() {
    let d = tmp("rows");
    let f = d.join("rows.toml");
    std::fs::write(
        &f,
        "[[body]]\nname = \"m\"\nmass = 1.0\nv0 = 1.0\n[solver]\nt_end = 5000.0\noutput_dt = 0.001\n",
    )
    .unwrap();
    let out = d.join("out");
    let o = friction()
        .args(["run", f.to_str().unwrap(), "--out", out.to_str().unwrap(), "--svg", "--max-wall", "0.2"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.code() == Some(0) || o.status.code() == Some(1), "{err}");
    assert!(err.contains("output: about 5000001 rows × 3 columns = 114.4 MiB of values"), "{err}");
    assert!(err.contains("max_output_bytes = 4.0 GiB"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Symptom: `friction frf --harmonics 256 --samples 1000000` (both inside
/// the documented ranges) aborted on a 2 GB allocation. The README's figure:
/// on `examples/jointed_frf.toml` the check at H = 512 would need about
/// 30.8 GiB, and the run is refused before anything is allocated.
#[test]
fn frf_with_256_harmonics_and_a_million_samples_is_refused_with_the_readme_figure() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let d = tmp("frf256");
    let o = friction()
        .args(["frf", root.join("examples/jointed_frf.toml").to_str().unwrap()])
        .args(["--force", "shaker", "--f-min", "100", "--f-max", "300", "--harmonics", "256"])
        .args(["--samples", "1000000", "--out", d.join("out").to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("about 30.8 GiB of work arrays") && err.contains("raise --max-memory"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

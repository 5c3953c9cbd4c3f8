//! `friction analyze` on the shipped examples' outputs and on user CSVs:
//! closed-form checks of what it writes, and refusal of bad data.

use std::f64::consts::PI;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn friction() -> Command {
    Command::new(env!("CARGO_BIN_EXE_friction"))
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("friction-analyze-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(format!("{name}.toml"))
}

/// Run a shipped example into a temporary directory; return its timeseries.csv.
fn run_example(name: &str) -> PathBuf {
    let d = tmp(name);
    let o = friction()
        .args(["run", example(name).to_str().unwrap(), "--out"])
        .arg(d.join("run"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    d.join("run/timeseries.csv")
}

fn analyze(file: &Path, out: &Path, extra: &[&str]) -> Output {
    friction().arg("analyze").arg(file).arg("--out").arg(out).args(extra).output().unwrap()
}

/// Rows of a CSV as maps from column name to text.
fn table(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let head: Vec<String> = lines.next().unwrap().split(',').map(str::to_string).collect();
    lines.map(|l| head.iter().cloned().zip(l.split(',').map(str::to_string)).collect()).collect()
}

fn num(row: &std::collections::HashMap<String, String>, k: &str) -> f64 {
    row[k].parse().unwrap()
}

/// The Iwan joint of examples/iwan_loops.toml, in micro-slip below
/// φmax = 25.4 µm, dissipates D(a) = 4 R a^(χ+3)/((χ+2)(χ+3)) per cycle. The
/// run's F.joint is the force on the driver, which analyze negates by
/// default so that loops dissipate; kept as is the loop integrals are negative.
#[test]
fn iwan_loops_example_dissipates_the_segalman_closed_form() {
    let csv = run_example("iwan_loops");
    let out = csv.parent().unwrap().join("an");
    let o = analyze(&csv, &out, &["--kind", "loops"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (fs, kt, chi, beta): (f64, f64, f64, f64) = (1.0, 1e5, -0.5, 0.1);
    let q = beta + (chi + 1.0) / (chi + 2.0);
    let phi_max = fs * (1.0 + beta) / (kt * q);
    let r = fs * (chi + 1.0) / (phi_max.powf(chi + 2.0) * q);
    let rows = table(&out.join("cycles.csv"));
    assert_eq!(rows.len(), 10);
    let closed: Vec<_> = rows.iter().filter(|r| r["closed"] == "true").collect();
    assert_eq!(closed.len(), 6);
    for row in closed {
        let a = num(row, "amplitude");
        let e = num(row, "energy");
        if a < phi_max {
            let d = 4.0 * r * a.powf(chi + 3.0) / ((chi + 2.0) * (chi + 3.0));
            assert!((e / d - 1.0).abs() < 0.02, "a = {a:e}: E_d = {e:e}, D(a) = {d:e}");
        } else {
            // macro-slip: the loop tip is FS
            assert!((num(row, "f_tip") - fs).abs() < 1e-6);
        }
    }
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("analysis.json")).unwrap()).unwrap();
    // the joint's force is paired with its own slip (u against the ground)
    assert_eq!(summary["columns"]["x"], "s.joint");
    assert_eq!(summary["columns"]["F"], "F.joint");
    assert_eq!(summary["columns"]["force_negated"], true);
    assert!(out.join("loops.png").exists() && out.join("backbone.csv").exists());
    let out2 = csv.parent().unwrap().join("as_is");
    let o = analyze(&csv, &out2, &["--kind", "loops", "--force-sign", "as-is"]);
    assert!(o.status.success());
    assert!(table(&out2.join("cycles.csv")).iter().all(|r| num(r, "energy") < 0.0));
    // kept as is, the loops generate energy: a warning says so
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("warning: loops: the dissipated energy per cycle is negative"));
}

/// examples/jointed_decay.toml: as the joint sticks more the frequency rises
/// towards sqrt((k + KT)/m)/2π = 318.3 Hz and the damping falls.
#[test]
fn jointed_decay_example_frequency_drops_and_damping_rises_with_amplitude() {
    let csv = run_example("jointed_decay");
    let out = csv.parent().unwrap().join("an");
    let o = analyze(&csv, &out, &["--kind", "transient", "--svg"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = table(&out.join("transient.csv"));
    assert!(rows.len() > 40);
    let f_stuck = (2e5f64 / 0.05).sqrt() / (2.0 * PI);
    for w in rows.windows(2) {
        // time order: amplitude falls, frequency rises, damping falls
        assert!(num(&w[1], "amplitude") < num(&w[0], "amplitude"));
        assert!(num(&w[1], "frequency") > num(&w[0], "frequency"));
        assert!(num(&w[1], "zeta") < num(&w[0], "zeta"));
        assert!(num(&w[1], "frequency") < f_stuck);
    }
    assert!(out.join("transient.svg").exists() && !out.join("transient.png").exists());
}

/// examples/lugre_sweep.toml: the Stribeck curve of the sweep is LuGre's
/// steady state sign(v) g(|v|) + σ2 v, g = Fc + (Fs - Fc) exp(-(v/vs)²).
#[test]
fn lugre_sweep_example_recovers_the_steady_state_curve() {
    let csv = run_example("lugre_sweep");
    let out = csv.parent().unwrap().join("an");
    let o = analyze(&csv, &out, &["--kind", "stribeck", "--v-min", "3e-4", "--bins", "20"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = table(&out.join("stribeck.csv"));
    assert_eq!(rows.len(), 40);
    for row in &rows {
        let v = num(row, "v");
        let g = 1.0 + 0.5 * (-(v / 1e-3).powi(2)).exp();
        let expected = v.signum() * g + 0.4 * v;
        assert!((num(row, "F") - expected).abs() < 0.01, "v = {v:e}: F = {} vs {expected}", row["F"]);
    }
}

/// A user's CSV with columns t, x, F (Coulomb friction Fc = 3 N along
/// x = a sin 2πt): kept as is, E_d = 4 Fc a; in auto mode the decay analysis,
/// which finds a steady oscillation (ζ = 0), runs too.
#[test]
fn user_csv_columns_are_read_by_name_and_not_negated() {
    let d = tmp("user");
    let mut text = String::from("# a comment line\nt,x,F\n");
    for i in 0..=3000 {
        let t = i as f64 * 1e-3;
        let (x, v) = (0.02 * (2.0 * PI * t).sin(), (2.0 * PI * t).cos());
        text.push_str(&format!("{t},{x},{}\n", 3.0 * v.signum()));
    }
    let f = d.join("meas.csv");
    std::fs::write(&f, text).unwrap();
    let o = friction().arg("analyze").arg(&f).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = d.join("meas_analysis");
    for row in table(&out.join("cycles.csv")) {
        assert!((num(&row, "energy") - 4.0 * 3.0 * 0.02).abs() < 1e-4, "{row:?}");
    }
    for row in table(&out.join("transient.csv")) {
        assert!(num(&row, "zeta").abs() < 1e-6 && (num(&row, "frequency") - 1.0).abs() < 1e-5);
    }
    assert!(out.join("stribeck.png").exists());
}

/// Bad data and options: exit status 2, a message naming the file, line and
/// column (or option and valid range), and no output directory.
#[test]
fn bad_data_is_refused_with_file_line_and_column() {
    let d = tmp("bad");
    let good: String =
        (0..20).map(|i| format!("{},{},{}\n", i as f64 * 0.1, (i as f64).sin(), 1.0)).collect();
    let cases: Vec<(&str, String, Vec<&str>, Vec<&str>)> = vec![
        ("nan", format!("t,x,F\n{good}2.0,NaN,1\n"), vec![], vec![":22", "`x`", "not finite"]),
        ("order", format!("t,x,F\n{good}1.0,0,1\n"), vec![], vec![":22", "increase strictly"]),
        ("few", "t,x,F\n0,0,0\n1,1,1\n".into(), vec![], vec!["2 samples"]),
        ("text", format!("t,x,F\n{good}2.0,abc,1\n"), vec![], vec![":22", "`abc` is not a number"]),
        ("col", format!("t,x,F\n{good}"), vec!["--x", "pos"], vec![":1", "no column `pos`", "t, x, F"]),
        (
            "nocycle",
            "t,x,F\n".to_string() + &(0..20).map(|i| format!("{i},{i},1\n")).collect::<String>(),
            vec!["--kind", "loops"],
            vec!["loops", "no complete cycle"],
        ),
        (
            "noforce",
            format!("t,x\n{}", (0..20).map(|i| format!("{i},{i}\n")).collect::<String>()),
            vec!["--kind", "stribeck"],
            vec!["stribeck", "needs a velocity (or displacement) and a force"],
        ),
        (
            "tol",
            format!("t,x,F\n{good}"),
            vec!["--reversal-tol", "0.7"],
            vec!["--reversal-tol", "0.7", "(0, 0.5)"],
        ),
        ("missing", String::new(), vec![], vec!["missing.csv", "cannot read"]),
    ];
    for (name, text, extra, needles) in cases {
        let f = d.join(format!("{name}.csv"));
        if name != "missing" {
            std::fs::write(&f, text).unwrap();
        }
        let out = d.join(format!("{name}_out"));
        let o = analyze(&f, &out, &extra);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(name == "tol" || err.contains(&format!("{name}.csv")), "{name}: file not named in {err}");
        for n in needles {
            assert!(err.contains(n), "{name}: `{n}` not in {err}");
        }
        assert!(!out.exists(), "{name}: output written");
    }
}

/// Issue: on a two-body run `analyze` paired `x.base` (an absolute
/// position) with `F.interface` (the force between the two bodies) and
/// reported a negative dissipated energy with exit 0. By default it now pairs
/// the contact's force with its own slip `s.interface`, and the energy it
/// finds equals the engine's own dissipation of that contact; paired by hand
/// with the wrong column, it warns and names the columns.
#[test]
fn contact_between_two_bodies_is_analysed_on_its_own_slip_and_negative_dissipation_warns() {
    let d = tmp("two-body");
    let scenario = d.join("two_body.toml");
    std::fs::write(
        &scenario,
        r#"name = "two-body"
[[driver]]
name = "base"
motion = { type = "sine", amplitude = 0.01, frequency = 2.0 }
[[body]]
name = "top"
mass = 1.0
[[spring]]
between = ["top", "ground"]
stiffness = 400.0
[[contact]]
name = "interface"
between = ["top", "base"]
model = "lugre"
params = { fc = 2.0, fs = 2.5 }
[solver]
t_end = 2.0
output_dt = 2e-4
"#,
    )
    .unwrap();
    let o = friction().arg("run").arg(&scenario).arg("--out").arg(d.join("run")).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = d.join("run/timeseries.csv");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("run/summary.json")).unwrap()).unwrap();
    assert_eq!(summary["units"]["s.interface"], "m");
    assert_eq!(summary["units"]["F.interface"], "N");
    let dissipated = summary["energy"]["contacts"]["interface"].as_f64().unwrap();

    let out = d.join("an");
    let o = analyze(&csv, &out, &["--kind", "loops"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!stderr.contains("warning"), "{stderr}");
    let an: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("analysis.json")).unwrap()).unwrap();
    assert_eq!(an["columns"]["x"], "s.interface");
    assert_eq!(an["columns"]["v"], "sv.interface");
    let rows = table(&out.join("cycles.csv"));
    assert!(rows.len() >= 3, "{} cycles", rows.len());
    let mut sum = 0.0;
    for r in &rows {
        let e = num(r, "energy");
        assert!(e > 0.0, "cycle energy {e}");
        sum += e;
    }
    // the cycles cover most of the 2 s run (4 periods): their energies add
    // up to at most the engine's dissipation, and most of it
    assert!(sum <= dissipated * 1.001 && sum > 0.5 * dissipated, "cycles {sum} J, engine {dissipated} J");

    let out2 = d.join("an2");
    let o = analyze(&csv, &out2, &["--kind", "loops", "--x", "x.base", "--f", "F.interface"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("warning: loops: the dissipated energy per cycle is negative")
            && stderr.contains("x = `x.base`, F = `F.interface` (negated)")
            && stderr.contains("--x s.interface --v sv.interface"),
        "{stderr}"
    );
    let an: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out2.join("analysis.json")).unwrap()).unwrap();
    assert_eq!(an["warnings"].as_array().unwrap().len(), 1);
}

//! `friction frf`: the frequency response written as a user reads it
//! (frf.csv, summary.json, the plot), and bad input refused with the
//! option, the value and the valid range.

mod common;
use common::friction;

const SDOF: &str = r#"
name = "sdof_frf"
[[body]]
name = "m"
mass = 1.0
[[spring]]
between = ["m", "ground"]
stiffness = 1e4
[[damper]]
between = ["m", "ground"]
coefficient = 4.0
[[force]]
name = "shaker"
on = "m"
value = { type = "sine", amplitude = 1.0, frequency = 10.0 }
[solver]
t_end = 1.0
"#;

fn write(name: &str, text: &str) -> std::path::PathBuf {
    let d = common::tmp("frf-cli", name);
    let f = d.join("s.toml");
    std::fs::write(&f, text).unwrap();
    f
}

/// A damped linear oscillator: every row of frf.csv carries the closed-form
/// amplitude F / sqrt((k - m ω²)² + (c ω)²) to 1e-8, and the largest row sits
/// at the resonance sqrt(1 - 2ζ²) f_n (to the spacing of the points, 2 %).
#[test]
fn frf_of_a_linear_oscillator_is_the_closed_form_and_peaks_at_resonance() {
    let f = write("linear", SDOF);
    let out = f.parent().unwrap().join("out");
    let o = friction()
        .args(["frf", f.to_str().unwrap(), "--force", "shaker", "--f-min", "5", "--f-max", "30"])
        .args(["--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut rd = csv::Reader::from_path(out.join("frf.csv")).unwrap();
    let head: Vec<String> = rd.headers().unwrap().iter().map(str::to_string).collect();
    assert_eq!(head, ["f", "a.m", "phase.m", "peak.m", "stable"]);
    let rows: Vec<Vec<f64>> =
        rd.records().map(|r| r.unwrap().iter().map(|v| v.parse().unwrap()).collect()).collect();
    assert!(rows.len() > 30, "{} rows", rows.len());
    for r in &rows {
        let w = 2.0 * std::f64::consts::PI * r[0];
        let exact = 1.0 / ((1e4 - w * w).powi(2) + (4.0 * w).powi(2)).sqrt();
        assert!((r[1] / exact - 1.0).abs() < 1e-8, "f = {}: {} vs {exact}", r[0], r[1]);
        // a linear system has no higher harmonics: the peak is the amplitude
        assert!((r[3] / r[1] - 1.0).abs() < 1e-6, "{r:?}");
        // a damped linear system is stable everywhere
        assert_eq!(r[4], 1.0, "{r:?}");
    }
    assert!((rows[0][0] - 5.0).abs() < 1e-9 && (rows[rows.len() - 1][0] - 30.0).abs() < 1e-9);
    let top = rows.iter().max_by(|a, b| a[1].total_cmp(&b[1])).unwrap();
    let zeta = 4.0 / (2.0 * (1e4f64).sqrt());
    let f_peak = (1e4f64).sqrt() / (2.0 * std::f64::consts::PI) * (1.0 - 2.0 * zeta * zeta).sqrt();
    assert!((top[0] / f_peak - 1.0).abs() < 2e-2, "{} vs {f_peak}", top[0]);
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert!(s["harmonics"].as_u64().unwrap() >= 1);
    assert!(s["h_to_2h_relative_change"].as_f64().unwrap() < 1e-3);
    assert!(out.join("frf.png").exists());
}

/// Bad ranges and an unknown force are refused with exit code 2 and a
/// message naming the option, the value and the valid range (or the
/// forces there are).
#[test]
fn frf_refuses_bad_ranges_and_unknown_forces() {
    let f = write("bad", SDOF);
    let out = f.parent().unwrap().join("out");
    for (args, needle) in [
        (vec!["--force", "shaker", "--f-min", "30", "--f-max", "5"], "--f-max = 5"),
        (vec!["--force", "shaker", "--f-min", "-1", "--f-max", "5"], "--f-min = -1"),
        (vec!["--force", "shakr", "--f-min", "5", "--f-max", "30"], "shaker"),
        (
            vec!["--force", "shaker", "--f-min", "5", "--f-max", "30", "--dlft-penalty", "0"],
            "0 is out of range; valid range (0, inf) N/m",
        ),
    ] {
        let o = friction()
            .args(["frf", f.to_str().unwrap()])
            .args(&args)
            .args(["--out", out.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(needle), "{args:?}: {e}");
    }
}

/// The README's figures for `examples/jointed_frf.toml` under 0.5 N: the
/// resonance at 219 Hz lies between the linear frequencies of the joint
/// stuck (kt added to the base's spring: 263 Hz) and in gross slip (188
/// Hz), computed here from the 2x2 eigenproblem; H = 3 converged to < 1e-4.
#[test]
fn jointed_example_resonates_between_its_stuck_and_slipping_linear_frequencies() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = common::tmp("frf-cli", "jointed").join("out");
    let o = friction()
        .args(["frf", root.join("examples/jointed_frf.toml").to_str().unwrap()])
        .args(["--force", "shaker", "--f-min", "150", "--f-max", "320", "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // the lower root of det(K - ω² M) = 0, M = diag(0.05, 0.02) kg
    let f1 = |k11: f64| {
        let (m1, m2, k22, k12) = (0.05, 0.02, 4e5, -4e5);
        let (a, b, c) = (m1 * m2, k11 * m2 + k22 * m1, k11 * k22 - k12 * k12);
        let lam = (b - (b * b - 4.0 * a * c).sqrt()) / (2.0 * a);
        lam.sqrt() / (2.0 * std::f64::consts::PI)
    };
    let (stuck, slip) = (f1(1e5 + 4e5 + 1e5), f1(1e5 + 4e5));
    assert!((stuck - 263.0).abs() < 0.5 && (slip - 188.0).abs() < 0.5, "{stuck} {slip}");
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(s["harmonics"].as_u64(), Some(3), "{s}");
    assert!(s["h_to_2h_relative_change"].as_f64().unwrap() < 1e-4, "{s}");
    for b in s["bodies"].as_array().unwrap() {
        let at = b["at_f"].as_f64().unwrap();
        assert!(at > slip && at < stuck, "{b}");
        assert!((at - 219.0).abs() < 1.5, "{b}: the README says 219 Hz");
    }
}

fn csv_rows(path: &std::path::Path) -> (Vec<String>, Vec<Vec<f64>>) {
    let mut rd = csv::Reader::from_path(path).unwrap();
    let head = rd.headers().unwrap().iter().map(str::to_string).collect();
    let rows = rd.records().map(|r| r.unwrap().iter().map(|v| v.parse().unwrap()).collect()).collect();
    (head, rows)
}

/// `--levels`: one response per force amplitude, stacked under a first
/// column `F`. A linear oscillator's receptance |X|/F is the closed form at
/// every level (to 1e-8), and the level equal to the scenario's own force
/// gives the rows of a plain run bit for bit.
#[test]
fn levels_stack_responses_and_a_linear_receptance_is_one_curve() {
    let f = write("levels", SDOF);
    let d = f.parent().unwrap();
    let run = |extra: &[&str], out: &str| {
        let o = friction()
            .args(["frf", f.to_str().unwrap(), "--force", "shaker", "--f-min", "5", "--f-max", "30"])
            .args(extra)
            .args(["--out", d.join(out).to_str().unwrap()])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        csv_rows(&d.join(out).join("frf.csv"))
    };
    let (head, rows) = run(&["--levels", "0.5,1,4"], "levels");
    assert_eq!(head, ["F", "f", "a.m", "phase.m", "peak.m", "stable"]);
    let (_, plain) = run(&[], "plain");
    for level in [0.5, 1.0, 4.0] {
        let at: Vec<&Vec<f64>> = rows.iter().filter(|r| r[0] == level).collect();
        assert!(at.len() > 30, "F = {level}: {} rows", at.len());
        for r in &at {
            let w = 2.0 * std::f64::consts::PI * r[1];
            let exact = 1.0 / ((1e4 - w * w).powi(2) + (4.0 * w).powi(2)).sqrt();
            assert!((r[2] / level / exact - 1.0).abs() < 1e-8, "F = {level}, f = {}: {}", r[1], r[2] / level);
        }
        if level == 1.0 {
            let same: Vec<Vec<f64>> = at.iter().map(|r| r[1..].to_vec()).collect();
            assert_eq!(same, plain);
        }
    }
    // a level out of range, and a force that is not there
    for (args, needle) in [
        (vec!["--levels", "0.5,-1"], "-1 is out of range; valid range (0, inf) N"),
        (vec!["--levels", "0.5,abc"], "`abc` is not a number"),
    ] {
        let o = friction()
            .args(["frf", f.to_str().unwrap(), "--force", "shaker", "--f-min", "5", "--f-max", "30"])
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(needle), "{args:?}: {e}");
    }
    let o = friction()
        .args([
            "frf",
            f.to_str().unwrap(),
            "--force",
            "nope",
            "--f-min",
            "5",
            "--f-max",
            "30",
            "--levels",
            "1",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("--levels 1") && e.contains("nope"), "{e}");
}

/// The Sandia study's finding (its Figures 8 and 9), as
/// `examples/sandia_joints.sh` shows it: under a growing force the jointed
/// structure's resonance moves down, from near the stuck frequency (263 Hz)
/// towards the gross-slip one (188 Hz), at every step (the README's figures:
/// 245, 232, 218 and 189 Hz at 0.05, 0.2, 0.5 and 2 N); the receptance's
/// peak falls while the joint slips partly (more damping) and rises again in
/// gross slip, where the joint's dissipation grows only as the amplitude.
#[test]
fn levels_move_the_jointed_resonance_down_as_the_load_grows() {
    let d = common::tmp("frf-cli", "sandia");
    let scen = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/jointed_frf.toml");
    let o = friction()
        .args(["frf", scen.to_str().unwrap(), "--force", "shaker", "--f-min", "150", "--f-max", "320"])
        .args(["--levels", "0.05,0.2,0.5,2", "--out", d.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (head, rows) = csv_rows(&d.join("frf.csv"));
    let (fc, ac) =
        (head.iter().position(|h| h == "f").unwrap(), head.iter().position(|h| h == "a.base").unwrap());
    let tops: Vec<(f64, f64)> = [0.05, 0.2, 0.5, 2.0]
        .iter()
        .map(|&level| {
            let top = rows.iter().filter(|r| r[0] == level).max_by(|a, b| a[ac].total_cmp(&b[ac])).unwrap();
            (top[fc], top[ac] / level)
        })
        .collect();
    for (k, want) in [245.2, 232.4, 218.5, 188.9].iter().enumerate() {
        assert!((tops[k].0 - want).abs() < 0.5, "level {k}: resonance at {} Hz, README {want}", tops[k].0);
    }
    assert!(tops.windows(2).all(|w| w[1].0 < w[0].0), "{tops:?}");
    assert!(tops[1].1 < tops[0].1 && tops[2].1 < tops[1].1 && tops[3].1 > tops[2].1, "{tops:?}");
    assert!(tops[3].0 > 188.0 && tops[0].0 < 263.2, "{tops:?}");
    let _ = std::fs::remove_dir_all(d);
}

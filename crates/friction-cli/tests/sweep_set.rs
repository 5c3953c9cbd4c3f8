//! `friction sweep` and `friction run --set`: closed forms, the CSV layout,
//! the product and zip orders, exit codes, and the fs < fc warning.

use std::path::Path;

mod common;
use common::friction;

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name).display().to_string()
}

/// Where a Coulomb oscillator released from x0 (Fs = Fc) stops: the amplitude
/// drops by 2 Fc/k per half period until it is within Fc/k of the spring's rest.
fn coulomb_rest(x0: f64, fc: f64, k: f64) -> f64 {
    let (mut a, mut s) = (x0, 1.0);
    while a > fc / k {
        a -= 2.0 * fc / k;
        s = -s;
    }
    s * a
}

fn csv(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r.records().map(|x| x.unwrap().iter().map(String::from).collect()).collect();
    (header, rows)
}

#[test]
fn sweep_final_positions_match_the_coulomb_closed_form() {
    let d = common::tmp("sweep", "closed-form");
    let out = d.join("results.csv");
    let o = friction()
        .args(["sweep", &example("coulomb_free_decay.toml")])
        .args(["--grid", "contact.c.fc=0.3:0.9:3", "--grid", "contact.c.fs=0.3:0.9:3", "--zip"])
        .args(["--grid", "solver.t_end=8"])
        .args(["--metric", "final.x.m", "--metric", "events.stuck", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
    // --zip needs equal lengths: give t_end three times
    let o = friction()
        .args(["sweep", &example("coulomb_free_decay.toml")])
        .args(["--grid", "contact.c.fc=0.3:0.9:3", "--grid", "contact.c.fs=0.3:0.9:3", "--zip"])
        .args(["--grid", "solver.t_end=8,8,8"])
        .args(["--metric", "final.x.m", "--metric", "events.stuck", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let (h, rows) = csv(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(h, ["contact.c.fc", "contact.c.fs", "solver.t_end", "final.x.m", "events.stuck", "error"]);
    assert_eq!(rows.len(), 3);
    for (row, fc) in rows.iter().zip([0.3, 0.6, 0.9]) {
        let got: f64 = row[0].parse().unwrap();
        assert!((got - fc).abs() < 1e-15, "{row:?}");
        let x: f64 = row[3].parse().unwrap();
        assert!((x - coulomb_rest(0.1, fc, 100.0)).abs() < 1e-8, "fc = {fc}: {x}");
        assert!(row[4].parse::<f64>().unwrap() >= 1.0);
        assert_eq!(row[5], "");
    }
}

#[test]
fn sweep_product_order_first_key_slowest_to_stdout() {
    let o = friction()
        .args(["sweep", &example("coulomb_free_decay.toml")])
        .args(["--grid", "body.m.mass=1,4", "--grid", "spring.spring0.stiffness=100,400"])
        .args(["--grid", "solver.t_end=0.2", "--metric", "final.t", "--metric", "max.x.m"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let (_, rows) = csv(&String::from_utf8(o.stdout).unwrap());
    let keys: Vec<(&str, &str)> = rows.iter().map(|r| (r[0].as_str(), r[1].as_str())).collect();
    assert_eq!(keys, [("1.0", "100.0"), ("1.0", "400.0"), ("4.0", "100.0"), ("4.0", "400.0")]);
    assert!(rows.iter().all(|r| r[3] == "0.2"), "{rows:?}");
    // released from x0 = 0.1 at rest, the largest position is the start
    assert!(rows.iter().all(|r| r[4] == "0.1"), "{rows:?}");
}

#[test]
fn sweep_reports_failed_runs_with_exit_1_and_nan() {
    // max_steps = 1 cannot reach t_end: every run fails, the CSV says why
    let o = friction()
        .args(["sweep", &example("coulomb_free_decay.toml")])
        .args(["--grid", "solver.max_steps=1,2", "--metric", "final.x.m"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("2 of 2 runs failed"));
    let (_, rows) = csv(&String::from_utf8(o.stdout).unwrap());
    assert!(rows.iter().all(|r| !r[2].is_empty()), "{rows:?}");
}

#[test]
fn run_set_overrides_reach_the_result() {
    let d = common::tmp("sweep", "set");
    let out = d.join("out");
    let o = friction()
        .args(["run", &example("coulomb_free_decay.toml"), "--out"])
        .arg(&out)
        .args(["--set", "solver.t_end=8", "--set", "contact.c.fc=0.6", "--set", "contact.c.fs=0.6"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(s["final"]["t"].as_f64(), Some(8.0));
    let x = s["final"]["x.m"].as_f64().unwrap();
    assert!((x - coulomb_rest(0.1, 0.6, 100.0)).abs() < 1e-8, "{x}");
}

#[test]
fn stribeck_peak_below_coulomb_level_warns_on_stderr_and_runs() {
    let d = common::tmp("sweep", "warn");
    let out = d.join("out");
    let o = friction()
        .args(["run", &example("lugre_stick_slip.toml"), "--out"])
        .arg(&out)
        .args(["--set", "solver.t_end=0.5", "--set", "contact.c.fs=0.5"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning: contact \"c\": model `lugre`: the Stribeck peak `fs` = 0.5 is below the Coulomb level `fc` = 1"),
        "{err}"
    );
    assert!(out.join("summary.json").is_file());
    // no warning for the file as written
    let o = friction()
        .args(["run", &example("lugre_stick_slip.toml"), "--out"])
        .arg(&out)
        .args(["--set", "solver.t_end=0.5"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&o.stderr).contains("warning"));
}

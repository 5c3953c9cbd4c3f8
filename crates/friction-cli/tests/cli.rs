//! The command line as a user meets it: listing models, running scenarios,
//! and refusing bad input with file, line, key, value and valid range.

use std::path::PathBuf;

mod common;
use common::{friction, BASE};

fn tmp(name: &str) -> PathBuf {
    common::tmp("cli-test", name)
}

/// Run a scenario text; return (exit code, stderr, output dir).
fn run_text(name: &str, text: &str) -> (i32, String, PathBuf) {
    let d = tmp(name);
    let f = d.join("s.toml");
    std::fs::write(&f, text).unwrap();
    let out = d.join("out");
    let o = friction().args(["run", f.to_str().unwrap(), "--out", out.to_str().unwrap()]).output().unwrap();
    (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stderr).to_string(), out)
}

#[test]
fn models_lists_every_id_and_describes_one() {
    let o = friction().arg("models").output().unwrap();
    assert!(o.status.success());
    let s = String::from_utf8(o.stdout).unwrap();
    assert_eq!(s.lines().count(), friction_models::all().len());
    for m in friction_models::all() {
        assert!(s.lines().any(|l| l.starts_with(&format!("{} ", m.id))), "{} missing", m.id);
    }
    let o = friction().args(["models", "lugre"]).output().unwrap();
    let s = String::from_utf8(o.stdout).unwrap();
    for needle in ["sigma0", "N/m", "(0, inf)", "100000", "Canudas"] {
        assert!(s.contains(needle), "`{needle}` not in:\n{s}");
    }
    let o = friction().args(["models", "nope"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// `--json` prints the catalogue every face shares (the C library's
/// `friction_model_describe`, Python's `describe`), parsed back equal.
#[test]
fn models_json_is_the_shared_catalogue() {
    let o = friction().args(["models", "--json"]).output().unwrap();
    assert!(o.status.success());
    let all: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let want = serde_json::to_value(friction_models::catalogue::catalogue()).unwrap();
    assert_eq!(all, want);
    assert_eq!(all.as_array().unwrap().len(), friction_models::all().len());
    let o = friction().args(["models", "iwan4", "--json"]).output().unwrap();
    assert!(o.status.success());
    let one: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(one["id"], "iwan4");
    assert_eq!(one, want.as_array().unwrap().iter().find(|d| d["id"] == "iwan4").unwrap().clone());
    let o = friction().args(["models", "nope", "--json"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_good_scenario_writes_csv_summary_and_plot() {
    let (code, err, out) = run_text("good", BASE);
    assert_eq!(code, 0, "{err}");
    let csv = std::fs::read_to_string(out.join("timeseries.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next().unwrap(), "# units: s, m, m/s, N, m, m/s, N"); // Dahl's state is a force
    assert_eq!(lines.next().unwrap(), "t,x.slider,v.slider,F.c,s.c,sv.c,z.c.0");
    assert_eq!(csv.lines().count(), 2 + 501);
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["status"], "ok");
    // the slider ends moving backwards: the contact pushes it forwards
    assert!(summary["final"]["F.c"].as_f64().unwrap() > 0.0);
    assert!(summary["energy"]["residual_relative"].as_f64().unwrap() < 1e-3);
    assert_eq!(summary["units"]["F.c"], "N");
    let png = std::fs::read(out.join("plot.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
}

/// `run --svg` writes the plot as SVG, with units on the axes.
#[test]
fn run_with_svg_writes_an_svg_plot_with_units_on_the_axes() {
    let d = std::env::temp_dir().join(format!("friction-cli-svg-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    let o = friction().args(["run", "--svg", "--out"]).arg(&d).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("plot.svg"));
    let svg = std::fs::read_to_string(d.join("plot.svg")).unwrap();
    assert!(!d.join("plot.png").exists());
    for label in ["position x [m]", "velocity v [m/s]", "friction force F [N]", "time t [s]", "F.c [N]"] {
        assert!(svg.contains(label), "`{label}` not in the SVG");
    }
    assert!(!svg.contains("e0<") && !svg.contains("-0<"), "unclean tick labels");
    let _ = std::fs::remove_dir_all(&d);
}

/// Each bad input names the file and line, the key, the value and the range,
/// exits with status 2 and writes nothing.
#[test]
fn bad_input_is_refused_with_location_value_and_range() {
    let cases: Vec<(&str, String, Vec<&str>)> = vec![
        (
            "range",
            BASE.replace("sigma0 = 1e5", "sigma0 = -3.0"),
            vec!["s.toml:9", "sigma0", "-3", "(0, inf)"],
        ),
        (
            "unknown_param",
            BASE.replace("exponent = 1.0", "exponnent = 1.0"),
            vec!["s.toml:9", "exponnent", "exponent"],
        ),
        ("unknown_model", BASE.replace("\"dahl\"", "\"dhal\""), vec!["s.toml:8", "dhal", "lugre"]),
        ("motion", BASE.replace("speed = 1e-4", "speed = 0.0"), vec!["s.toml:4", "speed", "0", "(0, inf)"]),
        (
            "member",
            BASE.replace("[\"slider\", \"ground\"]", "[\"slidr\", \"ground\"]"),
            vec!["s.toml:7", "slidr"],
        ),
        ("t_end", BASE.replace("t_end = 0.5", "t_end = -1"), vec!["s.toml:11", "t_end", "-1", "(0, inf)"]),
        ("syntax", BASE.replace("name = \"c\"", "name = c\""), vec!["s.toml:6"]),
        ("unknown_key", BASE.replace("[solver]", "[solver]\nfoo = 1"), vec!["s.toml:11", "foo"]),
    ];
    for (name, text, needles) in cases {
        let (code, err, out) = run_text(name, &text);
        assert_eq!(code, 2, "{name}: exit {code}, stderr {err}");
        for n in needles {
            assert!(err.contains(n), "{name}: `{n}` not in: {err}");
        }
        assert!(!err.contains("panicked"), "{name}: {err}");
        assert!(!out.exists(), "{name}: output written for bad input");
    }
}

/// A run that cannot finish (here: a step budget far too small) stops with
/// an error naming the time, the cause and the state, exits with status 1,
/// and writes what it had, marked as partial.
#[test]
fn a_failed_run_writes_a_partial_result_marked_as_such() {
    let text = BASE.replace("[solver]", "[solver]\nmax_steps = 60");
    let (code, err, out) = run_text("partial", &text);
    assert_eq!(code, 1, "{err}");
    for needle in ["t = ", "max_steps = 60", "z.c.0 = ", "partial"] {
        assert!(err.contains(needle), "`{needle}` not in: {err}");
    }
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["status"], "failed");
    assert_eq!(summary["partial"], true);
    assert!(summary["error"].as_str().unwrap().contains("max_steps"));
    let t_last = summary["final"]["t"].as_f64().unwrap();
    assert!(t_last > 0.0 && t_last < 0.5, "partial run ended at {t_last}");
}

/// `friction compare` writes the property table, its figures, the plots and
/// the clutch comparison; the verdicts of Coulomb and Dahl are the ones their
/// equations give (stiction without pre-sliding; pre-sliding, rate
/// independent, no Stribeck fall).
#[test]
fn compare_writes_the_table_figures_plots_and_clutch() {
    let d = tmp("compare");
    let out = d.join("cmp");
    let o = friction()
        .args(["compare", "--models", "coulomb,dahl", "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(out.join("properties.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[1].starts_with("coulomb,no,no,no,no,no,yes,yes,"), "{}", lines[1]);
    assert!(lines[2].starts_with("dahl,no,no,yes,no,no,yes,yes,"), "{}", lines[2]);
    for f in [
        "figures.csv",
        "properties.md",
        "clutch.csv",
        "clutch.md",
        "clutch.png",
        "plots/coulomb.png",
        "plots/stiction.png",
    ] {
        assert!(out.join(f).is_file(), "missing {f}");
    }
    let clutch = std::fs::read_to_string(out.join("clutch.csv")).unwrap();
    assert!(clutch.lines().nth(1).unwrap().starts_with("coulomb (true stick/slip),coulomb,"), "{clutch}");
}

/// An unknown model id is refused, naming it, with status 2, and nothing is written.
#[test]
fn compare_refuses_an_unknown_model() {
    let d = tmp("compare-bad");
    let out = d.join("cmp");
    let o = friction()
        .args(["compare", "--models", "coulomb,nosuch", "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("unknown model `nosuch`") && err.contains("--models"), "{err}");
    assert!(!out.exists());
}

/// `friction schema` prints the checked-in JSON Schema and `--markdown` the
/// checked-in reference page (both kept current by friction-sim's tests).
#[test]
fn schema_prints_the_checked_in_reference() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let o = friction().arg("schema").output().unwrap();
    assert!(o.status.success());
    let printed: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("docs/scenario.schema.json")).unwrap())
            .unwrap();
    assert_eq!(printed, file);
    // a parameter is a number in its range, or a temperature law
    let sigma0 = &printed["definitions"]["params_lugre"]["properties"]["sigma0"]["anyOf"];
    assert!(sigma0[0]["exclusiveMinimum"] == 0.0, "{sigma0}");
    assert!(sigma0[1]["$ref"] == "#/definitions/temperature_law", "{sigma0}");
    let o = friction().args(["schema", "--markdown"]).output().unwrap();
    assert!(o.status.success());
    let md = std::fs::read_to_string(root.join("docs/scenario.md")).unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim_end(), md.trim_end());
}

/// `friction models lugre` cites papers by author and year and ends with
/// their full references (title, journal), never the internal document numbers.
#[test]
fn models_prints_full_references() {
    let o = friction().args(["models", "lugre"]).output().unwrap();
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success());
    assert!(s.contains("Sources: Andersson, Söderberg, Björklund 2007 eq. 19"), "{s}");
    assert!(s.contains("Friction models for sliding dry, boundary and mixed lubricated contacts. Tribology International 40"), "{s}");
    assert!(
        s.contains(
            "A new model for control of systems with friction. IEEE Transactions on Automatic Control 40(3)"
        ),
        "{s}"
    );
    assert!(!s.to_lowercase().contains("seed"), "{s}");
}

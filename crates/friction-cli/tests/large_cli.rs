//! Large inputs at the command line (issue 31): a long run says how far it
//! is and how long it will take, in logs too (stderr not a terminal); a run
//! far longer than its `--max-wall` is refused after a pilot with its
//! estimate; `analyze` reports reading a large CSV.

use std::path::PathBuf;

mod common;
use common::friction;
use friction_sim::scenario::chain::chain_text;

fn tmp(name: &str) -> PathBuf {
    common::tmp("large-cli", name)
}

/// A chain of `n` LuGre masses pulled through springs, to `t_end`.
fn chain(n: usize, t_end: f64) -> String {
    String::from("name = \"chain\"\n")
        + &chain_text(n, "model = \"lugre\"\nparams = { fc = 1.0, fs = 1.5, vs = 0.001 }")
        + &format!("[solver]\nt_end = {t_end}\noutput_dt = 0.1\nstates = \"none\"\n")
}

/// Symptom: a batch run of minutes wrote nothing to its log until the end
/// (the bar exists only on a terminal). With stderr a pipe, a line
/// `progress: t = ... (P %) ..., about ... remaining` comes every
/// `--progress-every` seconds; the run (100 LuGre masses over 30 s) lasts
/// about 2 s here, so with a line every 0.2 s at least one appears.
#[test]
fn log_of_a_long_run_says_how_far_and_how_long() {
    let d = tmp("progress");
    let f = d.join("chain.toml");
    std::fs::write(&f, chain(100, 30.0)).unwrap();
    let o = friction()
        .args(["run", f.to_str().unwrap(), "--out", d.join("out").to_str().unwrap(), "--svg"])
        .args(["--progress-every", "0.2"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("progress: t = ")).collect();
    assert!(!lines.is_empty(), "no progress line in:\n{err}");
    for l in &lines {
        assert!(l.contains(" s of 3.0000e1 s (") && l.contains("%)") && l.contains("events"), "{l}");
        assert!(l.contains("remaining") || l.contains("estimating"), "{l}");
    }
    // the percentages rise and stay within [0, 100]
    let pct: Vec<f64> = lines
        .iter()
        .map(|l| l.split(" (").nth(1).unwrap().split(" %").next().unwrap().parse().unwrap())
        .collect();
    assert!(pct.windows(2).all(|w| w[0] <= w[1]) && pct.iter().all(|p| (0.0..=100.0).contains(p)), "{pct:?}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Symptom: `--max-wall 2` on a run needing hours spent the 2 s and wrote a
/// partial result at a tiny fraction of t_end, without the estimate. Now
/// it is refused after the pilot (exit 1, partial result written), naming
/// the estimate and the option to raise.
#[test]
fn run_far_beyond_max_wall_is_refused_with_its_estimate() {
    let d = tmp("refuse");
    let f = d.join("chain.toml");
    std::fs::write(&f, chain(100, 1e5)).unwrap();
    let out = d.join("out");
    let o = friction()
        .args(["run", f.to_str().unwrap(), "--out", out.to_str().unwrap(), "--svg", "--max-wall", "2"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("refused after a pilot") && err.contains("would take about"), "{err}");
    assert!(err.contains("max_wall = 2 s") && err.contains("--max-wall"), "{err}");
    let summary = std::fs::read_to_string(out.join("summary.json")).unwrap();
    assert!(summary.contains("\"partial\": true"), "{summary}");
    let _ = std::fs::remove_dir_all(&d);
}

/// `--progress-every` is checked like every option: name, value, range.
#[test]
fn progress_every_out_of_range_is_refused() {
    let o = friction().args(["run", "--progress-every", "0"]).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--progress-every") && err.contains("(0, inf)"), "{err}");
}

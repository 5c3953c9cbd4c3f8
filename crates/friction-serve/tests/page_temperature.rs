//! The explorer's page draws a temperature panel for a run whose columns
//! include `T.NODE`, and hides it for one without: `assets/app.js` run by
//! node (`tests/page/run_page.js`, a minimal DOM of its own) against a
//! server in this process, the examples loaded and run through the page's
//! own controls. Node.js is part of the machine the tests run on
//! (v20 here); without it the test fails and says so.

use std::path::Path;
use std::process::Command;

/// A server in this process; its base URL.
fn server() -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    std::thread::spawn(move || friction_serve::serve_blocking(l, Default::default()).unwrap());
    format!("http://{addr}")
}

/// What the page drew for `example` (the JSON of `run_page.js`).
fn page(base: &str, example: &str) -> serde_json::Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/page/run_page.js");
    let out = Command::new("node").arg(script).arg(base).arg(example).output().unwrap();
    assert!(out.status.success(), "{example}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_run_with_temperatures_gets_a_temperature_panel_and_one_without_none() {
    assert!(
        Command::new("node").arg("--version").output().is_ok(),
        "node is not on the PATH: install Node.js (`apt-get install nodejs`) to run the page's JavaScript"
    );
    let base = server();
    // the downhill brake: one heated node (discs) and the ambient (air)
    let p = page(&base, "downhill_brake");
    assert!(p["status"].as_str().unwrap().starts_with("ok"), "{}", p["status"]);
    assert_eq!(p["temp_hidden"], false);
    let temp = p["plots"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|q| q["el"] == "plot-temp")
        .expect("no temperature plot");
    assert_eq!(temp["labels"], serde_json::json!(["T.discs", "T.air"]));
    // the panel plots the run's temperature columns as they came
    for n in ["T.discs", "T.air"] {
        assert_eq!(temp["columns"][n], p["run"][n], "{n}");
    }
    let discs: Vec<f64> =
        p["run"]["T.discs"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    assert!(
        discs[discs.len() - 1] > discs[0] + 200.0,
        "the discs heat: {:?}",
        (discs[0], discs[discs.len() - 1])
    );
    // the main plot does not carry them unless chosen
    let run = p["plots"].as_array().unwrap().iter().rev().find(|q| q["el"] == "plot-run").unwrap();
    assert!(run["labels"].as_array().unwrap().iter().all(|l| !l.as_str().unwrap().starts_with("T.")));
    // a run without thermal nodes: no panel
    let p = page(&base, "lugre_stick_slip");
    assert_eq!(p["temp_hidden"], true);
    assert!(p["plots"]
        .as_array()
        .unwrap()
        .iter()
        .all(|q| q["el"] != "plot-temp" || q["labels"] == serde_json::json!([])));
}

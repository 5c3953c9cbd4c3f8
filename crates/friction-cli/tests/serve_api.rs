//! `friction serve`'s HTTP API against the command line: a server on an
//! ephemeral port in this process (and the `friction serve` binary), a raw
//! HTTP/1.1 client. The numbers of `POST /api/run` are those of `friction
//! run`'s `timeseries.csv` bit for bit, those of `POST /api/sweep` those of
//! `friction sweep`; bad input gives the command line's message; nothing
//! outside the application is served.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};

mod common;
use common::{friction, tmp};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// A server in this process with limits `opts`; its address.
fn server(opts: friction_serve::ServeOptions) -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    std::thread::spawn(move || friction_serve::serve_blocking(l, opts).unwrap());
    addr
}

fn default_server() -> &'static str {
    static ADDR: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ADDR.get_or_init(|| server(Default::default()))
}

/// One request (`path` sent exactly as written): (status, content type, body).
fn request(addr: &str, method: &str, path: &str, ctype: &str, body: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let ctype = head
        .lines()
        .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-type:").map(|v| v.trim().to_string()))
        .unwrap_or_default();
    (status, ctype, body.to_string())
}

fn get(path: &str) -> (u16, String, String) {
    request(default_server(), "GET", path, "text/plain", "")
}

fn post(path: &str, ctype: &str, body: &str) -> (u16, serde_json::Value) {
    let (s, _, b) = request(default_server(), "POST", path, ctype, body);
    (s, serde_json::from_str(&b).unwrap_or_else(|e| panic!("{e}: {b}")))
}

/// The numbers of the JSON array `"NAME":[...]` as written, parsed by
/// Rust's exact `str::parse` (serde_json's default float parsing is
/// best-effort, not correctly rounded).
fn raw_array(json: &str, name: &str) -> Vec<f64> {
    let key = format!("\"{name}\":[");
    let start = json.find(&key).unwrap_or_else(|| panic!("no array {name}")) + key.len();
    let end = start + json[start..].find(']').unwrap();
    json[start..end].split(',').map(|x| if x == "null" { f64::NAN } else { x.parse().unwrap() }).collect()
}

/// The CLI's CSV: names and columns.
fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<f64>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let names: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    let mut cols = vec![vec![]; names.len()];
    for l in lines {
        for (j, x) in l.split(',').enumerate() {
            cols[j].push(x.parse::<f64>().unwrap());
        }
    }
    (names, cols)
}

/// The message `friction ARGS` prints after `error: ` (exit 2).
fn cli_error(args: &[&str], dir: &Path) -> String {
    let o = friction().args(args).current_dir(dir).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    let e = String::from_utf8_lossy(&o.stderr).to_string();
    e.lines().find_map(|l| l.strip_prefix("error: ")).unwrap_or_else(|| panic!("{e}")).to_string()
}

#[test]
fn models_lists_every_model_and_describes_one() {
    let (s, ct, body) = get("/api/models");
    assert_eq!((s, ct.as_str()), (200, "application/json"));
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    let ids: Vec<&str> = v.as_array().unwrap().iter().map(|m| m["id"].as_str().unwrap()).collect();
    let cli = friction().arg("models").output().unwrap();
    let cli_ids: Vec<String> = String::from_utf8_lossy(&cli.stdout)
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    assert_eq!(ids, cli_ids);
    assert!(ids.len() >= 36, "{}", ids.len());
    let (s, _, body) = get("/api/models/lugre");
    assert_eq!(s, 200);
    let m: serde_json::Value = serde_json::from_str(&body).unwrap();
    let sigma0 = m["parameters"].as_array().unwrap().iter().find(|p| p["name"] == "sigma0").unwrap();
    assert_eq!(sigma0["unit"], "N/m");
    assert!(m["equations"].as_str().unwrap().contains("dz/dt"), "{}", m["equations"]);
    assert!(!m["references"].as_array().unwrap().is_empty());
    // the same description as `friction models lugre --json` (the shared catalogue)
    let cli = friction().args(["models", "lugre", "--json"]).output().unwrap();
    let cli: serde_json::Value = serde_json::from_slice(&cli.stdout).unwrap();
    assert_eq!(m, cli);
}

#[test]
fn an_unknown_model_is_404_with_the_cli_message() {
    let (s, _, body) = get("/api/models/lugree");
    assert_eq!(s, 404);
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["error"].as_str().unwrap(), cli_error(&["models", "lugree"], &root()));
}

#[test]
fn run_equals_the_cli_csv_bit_for_bit() {
    let dir = tmp("serve", "run");
    for name in ["coulomb_free_decay", "lugre_stick_slip"] {
        let file = format!("examples/{name}.toml");
        let out = dir.join(name);
        let o = friction().args(["run", &file, "--out"]).arg(&out).current_dir(root()).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let (names, cols) = read_csv(&out.join("timeseries.csv"));
        let text = std::fs::read_to_string(root().join(&file)).unwrap();
        let (s, _, body) = request(default_server(), "POST", "/api/run", "application/toml", &text);
        assert_eq!(s, 200, "{body}");
        let v: serde_json::Value = serde_json::from_str(&body).unwrap();
        let got: Vec<&str> = v["names"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
        assert_eq!(got, names);
        for (j, n) in names.iter().enumerate() {
            let col = raw_array(&body, n);
            assert_eq!(col.len(), cols[j].len(), "{name} {n}");
            for (i, (a, b)) in col.iter().zip(&cols[j]).enumerate() {
                assert_eq!(a.to_bits(), b.to_bits(), "{name} {n} row {i}: {a} != {b}");
            }
        }
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
        assert_eq!(v["summary"]["events"], summary["events"], "{name}");
        assert_eq!(v["summary"]["stats"]["steps"], summary["stats"]["steps"], "{name}");
        assert_eq!(v["units"]["x.m"], "m");
    }
    // the same scenario as a JSON table gives the same numbers
    let text = std::fs::read_to_string(root().join("examples/coulomb_free_decay.toml")).unwrap();
    let table: toml::Table = text.parse().unwrap();
    let (s, _, body) = request(
        default_server(),
        "POST",
        "/api/run",
        "application/json",
        &serde_json::to_string(&table).unwrap(),
    );
    assert_eq!(s, 200, "{body}");
    let (names, cols) = read_csv(&dir.join("coulomb_free_decay/timeseries.csv"));
    let x = names.iter().position(|n| n == "x.m").unwrap();
    assert_eq!(raw_array(&body, "x.m"), cols[x]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_scenarios_give_the_cli_message_with_key_line_and_range() {
    let dir = tmp("serve", "bad");
    let cases = [
        ("range.toml", common::BASE.replace("fc = 1.0", "fc = -1.0")),
        ("syntax.toml", common::BASE.replace("t_end = 0.5", "t_end = ")),
        ("unknown.toml", common::BASE.replace("model = \"dahl\"", "model = \"dahll\"")),
        ("solver.toml", common::BASE.replace("t_end = 0.5", "t_end = -0.5")),
    ];
    for (file, text) in &cases {
        std::fs::write(dir.join(file), text).unwrap();
        let want = cli_error(&["run", file], &dir);
        let (s, v) = post(&format!("/api/run?name={file}"), "application/toml", text);
        assert_eq!(s, 400, "{file}: {v}");
        assert_eq!(v["error"].as_str().unwrap(), want, "{file}");
    }
    // the range case names the key, its line and the valid range
    let (_, v) = post("/api/run?name=range.toml", "application/toml", &cases[0].1);
    let m = v["error"].as_str().unwrap();
    assert!(m.starts_with("range.toml:9:") && m.contains("fc") && m.contains("valid range"), "{m}");
    // an override as `--set` gives its message too
    let body = serde_json::json!({"toml": common::BASE, "set": {"contact.c.fc": -2.0}});
    let (s, v) = post("/api/run", "application/json", &body.to_string());
    assert_eq!(s, 400);
    assert!(v["error"].as_str().unwrap().starts_with("set contact.c.fc=-2: "), "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_scenario_that_reads_a_file_is_refused() {
    let text = common::BASE.replace(
        "motion = { type = \"points\", points = [0.0, 2e-5, -1e-5], speed = 1e-4 }",
        "motion = { type = \"table\", file = \"/etc/passwd\" }",
    );
    let (s, v) = post("/api/run", "application/toml", &text);
    assert_eq!(s, 400);
    let m = v["error"].as_str().unwrap();
    assert!(m.contains("cannot read files") && !m.contains("root:"), "{m}");
    // a structure's matrix files: its reader's messages would quote the file
    let text = format!(
        "{}[[structure]]\nname = \"s\"\nmass = \"/etc/passwd\"\nstiffness = \"/etc/passwd\"\n",
        common::BASE
    );
    let (s, v) = post("/api/run", "application/toml", &text);
    assert_eq!(s, 400);
    let m = v["error"].as_str().unwrap();
    assert!(m.contains("[[structure]]") && m.contains("cannot read files") && !m.contains("root:"), "{m}");
}

#[test]
fn an_output_over_the_servers_limit_is_refused_with_the_numbers() {
    let addr = server(friction_serve::ServeOptions { max_values: 1000, ..Default::default() });
    let text = std::fs::read_to_string(root().join("examples/coulomb_free_decay.toml")).unwrap();
    let (s, _, body) = request(&addr, "POST", "/api/run", "application/toml", &text);
    assert_eq!(s, 413, "{body}");
    assert!(body.contains("2501 rows") && body.contains("limit of 1000 values"), "{body}");
}

#[test]
fn sweep_equals_the_cli_sweep() {
    let dir = tmp("serve", "sweep");
    let file = root().join("examples/coulomb_free_decay.toml");
    let grid = "spring.spring0.stiffness=50:150:3";
    let metric = ["final.x.m", "events.stuck"];
    let out = dir.join("sweep.csv");
    let o = friction()
        .args(["sweep"])
        .arg(&file)
        .args(["--grid", grid, "--metric", metric[0], "--metric", metric[1], "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(&out).unwrap();
    let body = serde_json::json!({
        "toml": std::fs::read_to_string(&file).unwrap(), "grid": [grid], "metric": metric,
    });
    let (s, _, text) = request(default_server(), "POST", "/api/sweep", "application/json", &body.to_string());
    assert_eq!(s, 200, "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    for (k, line) in csv.lines().skip(1).enumerate() {
        let f: Vec<&str> = line.split(',').collect();
        let k_spring: f64 = f[0].parse().unwrap();
        assert_eq!(v["points"][k][0].as_f64().unwrap(), k_spring);
        for m in 0..2 {
            let want: f64 = f[1 + m].parse().unwrap();
            // serde_json prints the shortest round-trip text, as the CSV's `{:?}`
            let got = v["values"][k][m].to_string();
            assert_eq!(got.parse::<f64>().unwrap().to_bits(), want.to_bits(), "point {k} metric {m}");
        }
    }
    // a bad grid gives the CLI's message
    let bad = serde_json::json!({"toml": "", "grid": ["contact.c.fc=1:0"], "metric": ["final.x.m"]});
    let (s, v) = post("/api/sweep", "application/json", &bad.to_string());
    assert_eq!(s, 400);
    let want = cli_error(
        &["sweep", "examples/coulomb_free_decay.toml", "--grid", "contact.c.fc=1:0", "--metric", "final.x.m"],
        &root(),
    );
    assert_eq!(v["error"].as_str().unwrap(), want);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn response_gives_coulomb_loop_dissipation_and_lugre_steady_curve() {
    // Coulomb friction under x = A sin(2π f t) dissipates 4 Fc A per cycle
    let body = serde_json::json!({
        "model": "coulomb", "params": {"fc": 2.0},
        "loop": {"amplitude": 1e-3, "frequency": 1.0, "samples": 400},
    });
    let (s, v) = post("/api/response", "application/json", &body.to_string());
    assert_eq!(s, 200, "{v}");
    let d = v["loop"]["dissipation"].as_f64().unwrap();
    assert!((d / 8e-3 - 1.0).abs() < 1e-3, "{d}");
    // a LuGre contact swept slowly to 10 mm/s settles on its Stribeck curve:
    // F = Fc + (Fs - Fc) exp(-(v/vs)²) + σ2 v = 1 + 0.4 * 0.01 at the peak velocity
    let body = serde_json::json!({"model": "lugre", "curve": {"v_max": 0.01, "duration": 100.0}});
    let (s, v) = post("/api/response", "application/json", &body.to_string());
    assert_eq!(s, 200, "{v}");
    let vs: Vec<f64> = v["curve"]["v"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    let fs: Vec<f64> = v["curve"]["F"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    let k = vs.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).unwrap().0;
    assert!((vs[k] - 0.01).abs() < 1e-6, "{}", vs[k]);
    assert!((fs[k] - 1.004).abs() < 1e-3 * 1.004, "{}", fs[k]);
    // and backwards the force changes sign
    let k = vs.iter().enumerate().min_by(|a, b| a.1.total_cmp(b.1)).unwrap().0;
    assert!((fs[k] + 1.004).abs() < 1e-3 * 1.004, "{}", fs[k]);
}

/// The model page's friction-velocity curve was a slow sine sweep, which for
/// LuGre shows the lag of its bristle state (a small hysteresis), not the
/// steady state it is labelled as. `kind = "steady"` holds each velocity of
/// the grid until the force settles: for LuGre that is F = g(v) + σ2 v,
/// g(v) = Fc + (Fs - Fc) exp(-(v/vs)²) (Canudas de Wit, Olsson, Åström and
/// Lischinsky 1995, eq. 5 and 8); for Coulomb-viscous F = Fc sign(v) + kv v.
#[test]
fn the_steady_curve_is_the_closed_form_steady_state_not_a_sweep() {
    let steady = |model: &str, params: serde_json::Value| {
        let body = serde_json::json!({
            "model": model, "params": params,
            "curve": {"kind": "steady", "v_min": 1e-4, "v_max": 1.0, "points": 9},
        });
        let (s, v) = post("/api/response", "application/json", &body.to_string());
        assert_eq!(s, 200, "{v}");
        let c = &v["curve"];
        assert_eq!(c["kind"], "steady");
        assert!(c["unsettled"].as_array().unwrap().is_empty(), "{}", c["unsettled"]);
        let vs: Vec<f64> = c["v"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        let fs: Vec<f64> = c["F"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        (vs, fs)
    };
    let (fc, fs_, vs_, s2) = (0.8, 2.0, 0.01, 0.1);
    let (v, f) = steady("lugre", serde_json::json!({"fc": fc, "fs": fs_, "vs": vs_, "sigma2": s2}));
    // the grid: 9 log-spaced magnitudes per sign, 1e-4 to 1, both signs
    assert_eq!(v.len(), 18);
    assert_eq!((v[0], v[8], v[9], v[17]), (-1.0, -1e-4, 1e-4, 1.0));
    let mut worst: f64 = 0.0;
    for (v, f) in v.iter().zip(&f) {
        let want = v.signum() * (fc + (fs_ - fc) * (-(v / vs_).powi(2)).exp()) + s2 * v;
        worst = worst.max((f / want - 1.0).abs());
    }
    eprintln!("LuGre steady curve: largest relative error against g(v) + sigma2 v: {worst:e}");
    assert!(worst < 1e-9, "LuGre's steady curve is off its closed form by {worst:e}");
    // the old sweep near the Stribeck velocity lags the steady state: this
    // test tells the two apart
    let body = serde_json::json!({"model": "lugre", "params": {"fc": fc, "fs": fs_, "vs": vs_, "sigma2": s2},
        "curve": {"v_max": 0.02, "duration": 0.05, "samples": 400}});
    let (s, sw) = post("/api/response", "application/json", &body.to_string());
    assert_eq!(s, 200, "{sw}");
    let sv: Vec<f64> = sw["curve"]["v"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    let sf: Vec<f64> = sw["curve"]["F"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    let off = sv.iter().zip(&sf).filter(|(v, _)| v.abs() > 1e-3).fold(0.0f64, |m, (v, f)| {
        let want = v.signum() * (fc + (fs_ - fc) * (-(v / vs_).powi(2)).exp()) + s2 * v;
        m.max((f / want - 1.0).abs())
    });
    assert!(off > 1e-6, "the sweep matched the steady state to {off:e}: the test cannot tell them apart");
    let (v, f) = steady("coulomb_viscous", serde_json::json!({"fc": 1.5, "kv": 0.3}));
    for (v, f) in v.iter().zip(&f) {
        let want = 1.5 * v.signum() + 0.3 * v;
        assert!((f / want - 1.0).abs() < 1e-12, "v = {v}: {f} != {want}");
    }
    // a bad kind or a sweep's key on a steady curve is refused, naming it
    let body = serde_json::json!({"model": "lugre", "curve": {"kind": "stedy", "v_max": 1.0}});
    let (s, v) = post("/api/response", "application/json", &body.to_string());
    assert_eq!(s, 400);
    assert!(v["error"].as_str().unwrap().contains("curve.kind = \"stedy\""), "{v}");
    let body = serde_json::json!({"model": "lugre", "curve": {"kind": "steady", "v_max": 1.0, "v_min": 2.0}});
    let (s, v) = post("/api/response", "application/json", &body.to_string());
    assert_eq!(s, 400);
    assert_eq!(v["error"], "curve.v_min = 2 is out of range; valid range (0, 1] m/s");
}

/// Every model's steady curve is answered: each velocity settled, or
/// listed as unsettled with its reason (never a silent wrong point), or
/// the request stopped at the server's wall-clock limit (never a hang).
#[test]
fn every_models_steady_curve_settles_or_says_why_not() {
    let addr = server(friction_serve::ServeOptions { max_wall: 3.0, ..Default::default() });
    let (_, _, body) = get("/api/models");
    let models: serde_json::Value = serde_json::from_str(&body).unwrap();
    let mut report = vec![];
    for m in models.as_array().unwrap() {
        let id = m["id"].as_str().unwrap();
        let body = serde_json::json!({"model": id, "curve": {"kind": "steady", "v_min": 1e-5, "v_max": 0.1, "points": 5}});
        eprintln!("steady curve of {id}");
        let (s, _, text) = request(&addr, "POST", "/api/response", "application/json", &body.to_string());
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        if s == 503 {
            assert!(v["error"].as_str().unwrap().contains("wall-clock limit of 3 s"), "{id}: {v}");
            report.push(format!("{id}: stopped at the wall-clock limit"));
            continue;
        }
        if s == 400 && v["error"].as_str().unwrap().contains("is required") {
            report.push(format!("{id}: skipped, a parameter has no default"));
            continue;
        }
        assert_eq!(s, 200, "{id}: {v}");
        let c = &v["curve"];
        let settled: Vec<bool> =
            c["settled"].as_array().unwrap().iter().map(|b| b.as_bool().unwrap()).collect();
        let unsettled = c["unsettled"].as_array().unwrap();
        assert_eq!(settled.len(), 10, "{id}");
        assert_eq!(settled.iter().filter(|s| !**s).count(), unsettled.len(), "{id}");
        for (k, ok) in settled.iter().enumerate() {
            assert_eq!(c["F"][k].is_null(), !ok, "{id} point {k}");
            if *ok {
                assert!(c["F"][k].as_f64().unwrap().is_finite(), "{id} point {k}");
            }
        }
        for u in unsettled {
            assert!(!u["reason"].as_str().unwrap().is_empty(), "{id}: {u}");
        }
        if !unsettled.is_empty() {
            report.push(format!("{id}: {} of 10 unsettled ({})", unsettled.len(), unsettled[0]["reason"]));
        }
    }
    eprintln!("steady curves of {} models; not settled: {report:?}", models.as_array().unwrap().len());
}

/// A response whose work is longer than the server's wall-clock limit used
/// to run to its end (only `/api/run` was bounded): each part now stops at
/// the limit and the request gets 503 naming it.
#[test]
fn a_response_longer_than_the_wall_limit_stops_with_a_message_naming_it() {
    let addr = server(friction_serve::ServeOptions { max_wall: 0.001, ..Default::default() });
    let long_loop = serde_json::json!({
        "model": "lugre", "loop": {"amplitude": 1e-3, "frequency": 1.0, "cycles": 20, "samples": 20000},
    });
    let long_curve = serde_json::json!({
        "model": "lugre", "curve": {"v_max": 1.0, "duration": 1000.0, "samples": 20000},
    });
    for (part, body) in [("loop", long_loop), ("curve", long_curve)] {
        let (s, _, text) = request(&addr, "POST", "/api/response", "application/json", &body.to_string());
        assert_eq!(s, 503, "{part}: {}", &text[..text.len().min(300)]);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let m = v["error"].as_str().unwrap();
        assert!(
            m.starts_with(&format!("{part}: stopped at the server's wall-clock limit of 0.001 s"))
                && m.contains("--max-wall"),
            "{m}"
        );
    }
    // the same requests under the default limit are answered
    let (s, v) = post(
        "/api/response",
        "application/json",
        &serde_json::json!({"model": "lugre", "loop": {"amplitude": 1e-3, "frequency": 1.0, "cycles": 2, "samples": 400}})
            .to_string(),
    );
    assert_eq!(s, 200, "{v}");
}

#[test]
fn response_refuses_bad_parameters_with_the_scenario_message() {
    let dir = tmp("serve", "resp");
    let body = serde_json::json!({"model": "dahl", "params": {"fc": -1.0}, "loop": {"amplitude": 1e-4, "frequency": 1.0}});
    let (s, v) = post("/api/response", "application/json", &body.to_string());
    assert_eq!(s, 400);
    let m = v["error"].as_str().unwrap();
    std::fs::write(dir.join("range.toml"), common::BASE.replace("fc = 1.0", "fc = -1.0")).unwrap();
    let cli = cli_error(&["run", "range.toml"], &dir);
    assert!(m.contains("`fc` = -1 is out of range; valid range"), "{m}");
    assert!(cli.ends_with(m.split_once(": ").map(|x| x.1).unwrap_or(m)), "{cli}\n{m}");
    let body = serde_json::json!({"model": "dahl", "loop": {"amplitude": -1.0, "frequency": 1.0}});
    let (s, v) = post("/api/response", "application/json", &body.to_string());
    assert_eq!(s, 400);
    assert_eq!(v["error"], "loop.amplitude = -1 is out of range; valid range (0, inf) m");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_reports_progress_and_can_be_cancelled() {
    // a LuGre stick-slip run long enough to be caught running
    let text = std::fs::read_to_string(root().join("examples/lugre_stick_slip.toml"))
        .unwrap()
        .replace("t_end = 20.0", "t_end = 100000.0")
        .replace("output_dt = 0.005", "output_dt = 1.0");
    let runner = std::thread::spawn(move || post("/api/run?id=long-one", "application/toml", &text));
    let mut seen = None;
    for _ in 0..600 {
        let (s, _, b) = get("/api/progress/long-one");
        if s == 200 {
            let p: serde_json::Value = serde_json::from_str(&b).unwrap();
            if p["t"].as_f64().unwrap() > 0.0 {
                seen = Some(p);
                break;
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let p = seen.expect("the run never reported progress");
    assert_eq!(p["t_end"], 100000.0);
    let (s, _, _) = request(default_server(), "POST", "/api/cancel/long-one", "text/plain", "");
    assert_eq!(s, 200);
    let (s, v) = runner.join().unwrap();
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["summary"]["partial"], true);
    assert_eq!(v["summary"]["error"], "cancelled by the user");
    let t = v["columns"]["t"].as_array().unwrap();
    assert!(t.last().unwrap().as_f64().unwrap() < 100000.0);
    // a poll or a cancel racing the end of the run is answered, not 404
    // (the page logged the 404 as a console error)
    let (s, _, b) = get("/api/progress/long-one");
    assert_eq!(s, 200, "{b}");
    let p: serde_json::Value = serde_json::from_str(&b).unwrap();
    assert_eq!(p["finished"], true);
    // the time the integration reached, at or past the last output row
    let (reached, last_row) = (p["t"].as_f64().unwrap(), t.last().unwrap().as_f64().unwrap());
    assert!(reached >= last_row && reached < 100000.0, "{reached} {last_row}");
    let (s, _, b) = request(default_server(), "POST", "/api/cancel/long-one", "text/plain", "");
    assert_eq!(s, 200, "{b}");
    let c: serde_json::Value = serde_json::from_str(&b).unwrap();
    assert_eq!((c["cancelled"].clone(), c["finished"].clone()), (false.into(), true.into()));
    // an id never started is still 404
    let (s, _, _) = get("/api/progress/never-started");
    assert_eq!(s, 404);
    let (s, _, _) = request(default_server(), "POST", "/api/cancel/never-started", "text/plain", "");
    assert_eq!(s, 404);
}

/// A sweep of many runs used to give no sign of life until its end and
/// could not be stopped: it now reports the grid points done on
/// `/api/progress/{id}` and stops on `/api/cancel/{id}`, returning the
/// points done and the others marked cancelled.
#[test]
fn a_sweep_reports_progress_and_can_be_cancelled() {
    let text = std::fs::read_to_string(root().join("examples/lugre_stick_slip.toml")).unwrap();
    let body = serde_json::json!({
        "toml": text, "grid": ["contact.c.params.fs=1.2:2.0:40", "contact.c.params.sigma2=0.1:0.5:50"],
        "metric": ["max.v.m"],
    });
    let runner =
        std::thread::spawn(move || post("/api/sweep?id=long-sweep", "application/json", &body.to_string()));
    let done = |p: &serde_json::Value| p["done"].as_u64().unwrap();
    let mut seen: Vec<serde_json::Value> = vec![];
    for _ in 0..2400 {
        let (s, _, b) = get("/api/progress/long-sweep");
        if s == 200 {
            let p: serde_json::Value = serde_json::from_str(&b).unwrap();
            if done(&p) > 0 && seen.last().is_none_or(|q| done(&p) > done(q)) {
                seen.push(p);
            }
            if seen.len() >= 2 {
                break;
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    assert!(seen.len() >= 2, "the sweep's progress never increased: {seen:?}");
    assert_eq!(seen[0]["kind"], "sweep");
    assert_eq!(seen[0]["total"], 2000);
    let (s, _, _) = request(default_server(), "POST", "/api/cancel/long-sweep", "text/plain", "");
    assert_eq!(s, 200);
    let (s, v) = runner.join().unwrap();
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["cancelled"], true);
    let n = v["done"].as_u64().unwrap() as usize;
    assert!(n >= done(&seen[1]) as usize && n < 2000, "{n}");
    let errors = v["errors"].as_array().unwrap();
    let values = v["values"].as_array().unwrap();
    assert_eq!((errors.len(), values.len()), (2000, 2000));
    // the points done have their metric, the others are marked cancelled
    let cancelled: Vec<bool> = errors.iter().map(|e| e == "cancelled by the user").collect();
    assert_eq!(cancelled.iter().filter(|c| !**c).count(), n);
    for (k, c) in cancelled.iter().enumerate() {
        assert_eq!(values[k][0].is_null(), *c, "point {k}: {} {}", values[k], errors[k]);
    }
    let (s, _, b) = get("/api/progress/long-sweep");
    assert_eq!(s, 200, "{b}");
    let p: serde_json::Value = serde_json::from_str(&b).unwrap();
    assert_eq!((p["finished"].clone(), p["done"].as_u64()), (true.into(), Some(n as u64)));
}

/// The compare view takes the parameter sets `friction tune` writes: a
/// Jenkins element tuned to dissipate as much per cycle as Coulomb (μc = 1)
/// at 1e-7 m, 331 Hz comes back as two entries whose loops, computed by
/// `/api/response` at the tune's sine, dissipate the same energy: 4 Fc u0.
#[test]
fn compare_takes_a_tune_result_and_its_loops_dissipate_alike() {
    let dir = tmp("serve", "tune");
    let out = dir.join("tune.json");
    let o = friction()
        .args([
            "tune",
            "--model",
            "jenkins",
            "--param",
            "fs",
            "--params",
            "kt=1e8",
            "--target-model",
            "coulomb",
        ])
        .args(["--target-params", "fc=1", "--amplitude", "1e-7", "--frequency", "331", "--json"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    let file: serde_json::Value = serde_json::from_str(&text).unwrap();
    let (s, v) = post("/api/compare/tune", "application/json", &text);
    assert_eq!(s, 200, "{v}");
    let e = v["entries"].as_array().unwrap();
    assert_eq!(e.len(), 2, "{v}");
    assert_eq!((e[0]["model"].as_str(), e[1]["model"].as_str()), (Some("jenkins"), Some("coulomb")));
    assert_eq!(e[0]["params"], file["params"]);
    assert_eq!((v["amplitudes"][0].as_f64(), v["frequency"].as_f64()), (Some(1e-7), Some(331.0)));
    let mut d = vec![];
    for x in e {
        let body = serde_json::json!({"model": x["model"], "params": x["params"],
            "loop": {"amplitude": 1e-7, "frequency": 331.0, "samples": 2000}});
        let (s, r) = post("/api/response", "application/json", &body.to_string());
        assert_eq!(s, 200, "{r}");
        d.push(r["loop"]["dissipation"].as_f64().unwrap());
    }
    // the tuned loop is the one tune measured, and it matches the target's 4 Fc u0
    let achieved = file["points"][0]["achieved"].as_f64().unwrap();
    assert!((d[0] / achieved - 1.0).abs() < 1e-12, "{} != {achieved}", d[0]);
    assert!((d[1] / 4e-7 - 1.0).abs() < 1e-6, "{}", d[1]);
    assert!((d[0] / d[1] - 1.0).abs() < 1e-4, "{d:?}");
    // a hand-edited file with a bad parameter gets the model's message
    let bad = text.replacen("\"kt\": 100000000.0", "\"kt\": -1.0", 1);
    assert_ne!(bad, text, "{text}");
    let (s, v) = post("/api/compare/tune", "application/json", &bad);
    assert_eq!(s, 400);
    let m = v["error"].as_str().unwrap();
    assert!(m.starts_with("tune result: `params`: ") && m.contains("kt") && m.contains("valid range"), "{m}");
    let (s, v) = post("/api/compare/tune", "application/json", "{\"model\": \"jenkins\"}");
    assert_eq!(s, 400);
    assert!(v["error"].as_str().unwrap().contains("friction tune --json"), "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn only_the_embedded_files_are_served() {
    let (s, ct, body) = get("/");
    assert_eq!((s, ct.as_str()), (200, "text/html; charset=utf-8"));
    assert!(body.contains("friction explorer"));
    let (s, ct, _) = get("/assets/vendor/uplot/uPlot.iife.min.js");
    assert_eq!((s, ct.as_str()), (200, "text/javascript; charset=utf-8"));
    for path in [
        "/nope",
        "/api/nope",
        "/../etc/passwd",
        "/../../../../etc/passwd",
        "/%2e%2e/Cargo.toml",
        "/%2E%2E/%2E%2E/etc/passwd",
        "/assets/..%2fCargo.toml",
        "/assets/../Cargo.toml",
        "/assets/%2e%2e/%2e%2e/Cargo.toml",
        "/assets/app.js/../../Cargo.toml",
        "/Cargo.toml",
        "/examples/lugre_stick_slip.toml",
    ] {
        let (s, _, body) = get(path);
        assert_eq!(s, 404, "{path}: {body}");
        assert!(!body.contains("[package]") && !body.contains("root:"), "{path}");
    }
    let (s, _, body) = get("/api/examples/lugre_stick_slip");
    assert_eq!(s, 200);
    assert!(body.contains("lugre_stick_slip"));
    let (s, _, _) = get("/api/examples/..%2f..%2fCargo.toml");
    assert_eq!(s, 404);
}

#[test]
fn the_serve_command_prints_its_url_and_serves() {
    let mut child = friction()
        .args(["serve", "--port", "0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.trim().strip_prefix("friction serve: ").unwrap_or_else(|| panic!("{line}"));
    let addr = url.strip_prefix("http://").unwrap().trim_end_matches('/').to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    let (s, _, body) = request(&addr, "GET", "/api/models", "text/plain", "");
    child.kill().unwrap();
    let _ = child.wait();
    assert_eq!(s, 200);
    assert!(body.contains("\"lugre\""));
    // bad options are refused with the valid values
    assert!(cli_error(&["serve", "--host", "localhost:x"], &root()).contains("--host"));
    assert!(cli_error(&["serve", "--max-wall", "0"], &root()).contains("valid range (0, inf)"));
}

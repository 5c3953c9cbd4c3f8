//! `friction fit` and `friction tune` as a user meets them: the shipped
//! example data sets are fitted with the commands written in their headers
//! and give back the parameters they were made from; the Sandia friction-model study tuning
//! script reaches its target; bad input is refused with exit status 2 and
//! nothing written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn friction() -> Command {
    Command::new(env!("CARGO_BIN_EXE_friction"))
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("friction-fit-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The `friction fit ...` command and the true parameters written in a data file's header.
fn header(path: &Path) -> (Vec<String>, String, BTreeMap<String, f64>, f64) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut cmd = vec![];
    let mut model = String::new();
    let mut truth = BTreeMap::new();
    let mut noise = 0.0;
    for line in text.lines().take_while(|l| l.starts_with('#')) {
        let l = line.trim_start_matches('#').trim();
        if let Some(rest) = l.strip_prefix("friction fit ") {
            cmd = rest.split_whitespace().map(str::to_string).collect();
        }
        if let Some(rest) = l.strip_prefix("model ") {
            let (m, rest) = rest.split_once(" with ").unwrap();
            model = m.to_string();
            let (params, rest) = rest.split_once("; noise sd ").unwrap();
            noise = rest.split_whitespace().next().unwrap().parse().unwrap();
            for kv in params.split(',') {
                let (k, v) = kv.split_once('=').unwrap();
                truth.insert(k.to_string(), v.parse().unwrap());
            }
        }
    }
    (cmd, model, truth, noise)
}

/// Every example data set, fitted with the command in its header, gives
/// parameters within 4 standard errors of the values it was made from (with
/// standard errors below 10 % of the values), a residual RMS within 15 % of
/// the noise, and, where the command validates, a validation RMS within 25 %
/// of the noise. Elements of Maxwell-slip and GMS models may come out in
/// another order: they are compared sorted by stiffness.
#[test]
fn example_data_sets_give_back_their_parameters() {
    let dir = root().join("examples/data");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 5, "{files:?}");
    for f in files {
        let (cmd, model, truth, noise) = header(&f);
        assert!(!cmd.is_empty() && !truth.is_empty(), "{}: no command or truth in the header", f.display());
        let json = tmp(&model).join("fit.json");
        let out = friction()
            .current_dir(root())
            .arg("fit")
            .args(&cmd)
            .args(["--json", json.to_str().unwrap()])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{}: {stderr}", f.display());
        let r: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(r["model"], model.as_str());
        let params = r["params"].as_object().unwrap();
        // (name, value, stderr) of the scalars, and the element rows sorted by k
        let mut rows: BTreeMap<usize, BTreeMap<String, (f64, f64)>> = BTreeMap::new();
        for (name, p) in params {
            let (v, se) = (p["value"].as_f64().unwrap(), p["stderr"].as_f64().unwrap());
            let ci = p["ci95"].as_array().unwrap();
            assert!(ci[0].as_f64().unwrap() <= v && v <= ci[1].as_f64().unwrap(), "{model} {name}");
            if let Some(rest) = name.strip_prefix("elements[") {
                let (i, col) = rest.split_once("].").unwrap();
                rows.entry(i.parse().unwrap()).or_default().insert(col.to_string(), (v, se));
                continue;
            }
            let t = truth[name];
            assert!(se < 0.1 * t.abs(), "{model} {name}: stderr {se} for {v}");
            assert!((v - t).abs() < 4.0 * se, "{model} {name}: {v} ± {se}, true {t}");
        }
        if !rows.is_empty() {
            let mut fitted: Vec<&BTreeMap<String, (f64, f64)>> = rows.values().collect();
            fitted.sort_by(|a, b| a["k"].0.total_cmp(&b["k"].0));
            let n = fitted.len();
            let mut true_rows: Vec<BTreeMap<String, f64>> = vec![BTreeMap::new(); n];
            for (k, v) in &truth {
                if let Some(rest) = k.strip_prefix("elements[") {
                    let (i, col) = rest.split_once("].").unwrap();
                    true_rows[i.parse::<usize>().unwrap()].insert(col.to_string(), *v);
                }
            }
            true_rows.sort_by(|a, b| a["k"].total_cmp(&b["k"]));
            for (fr, tr) in fitted.iter().zip(&true_rows) {
                for (col, (v, se)) in fr.iter() {
                    let t = tr[col];
                    assert!(
                        (v - t).abs() < 4.0 * se && *se < 0.05 * t,
                        "{model} element {col}: {v} ± {se}, true {t}"
                    );
                }
            }
        }
        let rms = r["rms"].as_f64().unwrap();
        assert!((rms / noise - 1.0).abs() < 0.15, "{model}: rms {rms}, noise {noise}");
        if cmd.iter().any(|a| a == "--validate-from") {
            let v = r["validation"]["rms"].as_f64().unwrap();
            assert!((v / noise - 1.0).abs() < 0.25, "{model}: validation rms {v}");
            assert!(r["validation"]["n"].as_u64().unwrap() > 0);
        }
    }
}

/// `--out DIR` writes the report, the data against the fit, and the picture.
#[test]
fn out_dir_has_json_csv_and_plot() {
    let d = tmp("out");
    let out = friction()
        .current_dir(root())
        .args([
            "fit",
            "--model",
            "maxwell_slip",
            "--data",
            "examples/data/maxwell_slip_loop.csv",
            "--elements",
            "3",
        ])
        .args(["--out", d.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("elements[2].fmax") && stdout.contains("95% CI"), "{stdout}");
    let csv = std::fs::read_to_string(d.join("fit.csv")).unwrap();
    assert_eq!(csv.lines().next().unwrap(), "t,x,v,F,F_fit,residual");
    assert_eq!(csv.lines().count(), 301);
    let png = std::fs::read(d.join("fit.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("fit.json")).unwrap()).unwrap();
    assert_eq!(j["params"].as_object().unwrap().len(), 6);
}

/// Bad data and requests: exit status 2, a message naming what is wrong
/// (file and line for data), and neither the JSON nor the output directory written.
#[test]
fn bad_input_is_refused_and_nothing_written() {
    let d = tmp("bad");
    let good: String =
        (0..20).map(|i| format!("{},{},{}\n", i as f64 * 0.01, 1e-6 * i as f64, 0.1)).collect();
    let cases: Vec<(&str, String, Vec<&str>, Vec<&str>)> = vec![
        ("order", format!("t,x,F\n{good}0.05,0,0\n"), vec![], vec!["order.csv:22", "increase strictly"]),
        ("nan", format!("t,x,F\n{good}0.5,NaN,0\n"), vec![], vec!["nan.csv:22", "`x`", "not finite"]),
        ("few", "t,x,F\n0,0,0\n1,1,1\n".to_string(), vec![], vec!["few.csv", "2 samples"]),
        (
            "noforce",
            "t,x\n".to_string()
                + &good.lines().map(|l| l.rsplit_once(',').unwrap().0.to_string() + "\n").collect::<String>(),
            vec![],
            vec!["noforce.csv", "`F`"],
        ),
        ("model", format!("t,x,F\n{good}"), vec!["--model", "nope"], vec!["unknown model `nope`"]),
        ("fix", format!("t,x,F\n{good}"), vec!["--fix", "zzz"], vec!["`zzz`", "adjustable"]),
        ("init", format!("t,x,F\n{good}"), vec!["--params-init", "fc"], vec!["NAME=VALUE"]),
        ("range", format!("t,x,F\n{good}"), vec!["--params-init", "fc=-1"], vec!["fc", "-1"]),
    ];
    for (name, text, extra, needles) in cases {
        let f = d.join(format!("{name}.csv"));
        std::fs::write(&f, text).unwrap();
        let json = d.join(format!("{name}.json"));
        let outdir = d.join(format!("{name}-out"));
        let mut args: Vec<&str> =
            vec!["fit", "--data", f.to_str().unwrap(), "--json", json.to_str().unwrap()];
        args.extend(["--out", outdir.to_str().unwrap()]);
        if !extra.contains(&"--model") {
            args.extend(["--model", "dahl"]);
        }
        args.extend(extra);
        let o = friction().args(&args).output().unwrap();
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {e}");
        for n in needles {
            assert!(e.contains(n), "{name}: `{n}` not in `{e}`");
        }
        assert!(!json.exists() && !outdir.exists(), "{name}: output written");
    }
    // a model that cannot be identified from these data: A and kj of Bouc-Wen enter as a product
    let json = d.join("bw.json");
    let o = friction()
        .current_dir(root())
        .args([
            "fit",
            "--model",
            "bouc_wen",
            "--data",
            "examples/data/dahl_loops.csv",
            "--free",
            "a,k,beta,gamma",
        ])
        .args(["--params-init", "n=1,k=1e5,beta=5e4,gamma=5e4", "--json", json.to_str().unwrap()])
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("`a`") && e.contains("`k`") && e.contains("cannot be identified"), "{e}");
    assert!(!json.exists());
}

/// Every line of examples/tune_dissipation_per_cycle.sh (the calibration of the Sandia friction-model study to
/// Coulomb's 4 μc u0 per cycle) reaches its target to 1e-6 and exits 0; the
/// Jenkins line gives the closed-form root (10 - √60)/2.
#[test]
fn dissipation_tuning_script_reaches_its_target() {
    let script = std::fs::read_to_string(root().join("examples/tune_dissipation_per_cycle.sh")).unwrap();
    let common: Vec<String> = script
        .lines()
        .find_map(|l| l.strip_prefix("A=\""))
        .unwrap()
        .trim_end_matches('"')
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let lines: Vec<&str> = script.lines().filter(|l| l.starts_with("$F tune ")).collect();
    assert_eq!(lines.len(), 7);
    for (k, line) in lines.iter().enumerate() {
        let args: Vec<String> = line
            .trim_start_matches("$F ")
            .split_whitespace()
            .flat_map(|a| if a == "$A" { common.clone() } else { vec![a.to_string()] })
            .collect();
        let json = tmp(&format!("tune{k}")).join("t.json");
        let o = friction().args(&args).args(["--json", json.to_str().unwrap()]).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{line}: {}", String::from_utf8_lossy(&o.stderr));
        let r: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        let p = &r["points"][0];
        assert!((p["target"].as_f64().unwrap() / 4e-7 - 1.0).abs() < 2e-6, "{line}");
        assert!(p["relative_error"].as_f64().unwrap().abs() < 1e-6, "{line}: {p}");
        if args[2] == "jenkins" {
            let fs = r["tuned"]["fs"].as_f64().unwrap();
            assert!((fs - (10.0 - 60f64.sqrt()) / 2.0).abs() < 1e-5, "{fs}");
        }
    }
}

/// `friction tune` refuses what it cannot do, with status 2.
#[test]
fn tune_bad_input_is_refused() {
    let base = ["tune", "--model", "dahl", "--amplitude", "1e-7", "--frequency", "331"];
    for (extra, needle) in [
        (vec!["--param", "nope", "--target-model", "coulomb"], "`nope`"),
        (
            vec!["--param", "fc", "--target-model", "coulomb", "--target-energy", "1e-7"],
            "cannot be used with",
        ),
        (vec!["--param", "fc"], "--target-model"),
        (vec!["--param", "fc,sigma0", "--target-model", "coulomb"], "at least as many amplitudes"),
        (vec!["--param", "fc", "--target-energy", "abc"], "`abc` is not a number"),
        (vec!["--param", "fc", "--target-model", "zzz"], "unknown model `zzz`"),
    ] {
        let o = friction().args(base).args(&extra).output().unwrap();
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {e}");
        assert!(e.contains(needle), "{extra:?}: `{needle}` not in `{e}`");
    }
}

//! `friction compare`: the property table (which model shows which friction
//! phenomenon, by measurement) and the Daniel 2014 clutch comparison.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;

use friction_analysis::compare::{self, clutch, Settings};
use friction_analysis::AnalysisError;
use friction_sim::scenario;
use indicatif::{ProgressBar, ProgressStyle};

/// The clutch of Daniel 2014, the system of the clutch comparison.
const CLUTCH: &str = include_str!("../../../examples/clutch.toml");

/// Parse `--models a,b,c` (all models when absent).
fn model_ids(models: Option<&str>) -> Result<Vec<String>, AnalysisError> {
    let ids: Vec<String> = match models {
        None => friction_models::all().iter().map(|m| m.id.to_string()).collect(),
        Some(list) => {
            let mut ids: Vec<String> = vec![];
            for id in list.split(',').map(str::trim) {
                if id.is_empty() {
                    return Err(AnalysisError::Model(format!("--models \"{list}\": empty model id")));
                }
                if !ids.iter().any(|x| x == id) {
                    ids.push(id.to_string());
                }
            }
            ids
        }
    };
    compare::check_ids(&ids).map_err(|e| AnalysisError::Model(format!("--models: {e}")))?;
    Ok(ids)
}

fn bar(n: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(n);
    if let Ok(style) = ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} {msg}") {
        pb.set_style(style.progress_chars("=> "));
    }
    pb
}

/// Run `friction compare`. Bad input: exit status 2 and nothing written.
pub fn run(models: Option<&str>, out: Option<&Path>, clutch_too: bool) -> ExitCode {
    let ids = match model_ids(models) {
        Ok(ids) => ids,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let base = match scenario::parse(CLUTCH, "<embedded examples/clutch.toml>", Path::new(".")) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let dir = out.map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("out/compare"));
    let settings = Settings::default();
    let pb = bar(2 * ids.len() as u64 + u64::from(clutch_too));
    let pb_lock = Mutex::new(pb.clone());
    let progress = |msg: &str| {
        if let Ok(pb) = pb_lock.lock() {
            pb.set_message(msg.to_string());
            pb.inc(1);
        }
    };
    let rows = match compare::compare(&ids, &settings, &progress) {
        Ok(r) => r,
        Err(e) => {
            pb.finish_and_clear();
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let mut files = match compare::write_report(&rows, &settings, &dir, true) {
        Ok(f) => f,
        Err(e) => {
            pb.finish_and_clear();
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let mut clutch_rows = vec![];
    if clutch_too {
        pb.set_message("clutch");
        match clutch::write_clutch(&base, &dir) {
            Ok((r, f)) => {
                clutch_rows = r;
                files.extend(f);
            }
            Err(e) => {
                pb.finish_and_clear();
                eprintln!("error: clutch comparison: {e}");
                return ExitCode::from(1);
            }
        }
        pb.inc(1);
    }
    pb.finish_and_clear();
    print!("{}", compare::properties_csv(&rows).replace(',', "  "));
    for r in &clutch_rows {
        println!(
            "clutch {:<28} {:>7} steps {:>9.1} ms  locked-phase speed error {:.3e} rad/s",
            r.label, r.steps, r.time_ms, r.locked_speed_error
        );
    }
    println!("wrote {} files into {}", files.len(), dir.display());
    let failed: Vec<_> = rows.iter().filter(|r| r.failed()).collect();
    if !failed.is_empty() {
        for r in failed {
            for f in r.figures.iter().filter(|f| f.verdict == compare::Verdict::Error) {
                eprintln!("error: {} {}: {}", r.id, f.property, f.detail);
            }
            if let Some(e) = &r.cost_error {
                eprintln!("error: {} cost: {e}", r.id);
            }
        }
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

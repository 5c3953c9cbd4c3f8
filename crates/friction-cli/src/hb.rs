//! `friction frf`: the frequency response of a scenario under one of its
//! `sine` forces, by harmonic balance with continuation in frequency.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use friction_analysis::AnalysisError;
use friction_hb::budget::{self, Limits};
use friction_hb::frf::{frf_within, Frf, FrfOptions, StabilityVerdict};
use friction_hb::overlay::{plot_frf_levels, FrfLevels};
use friction_hb::plot::plot_frf;
use friction_hb::table::{csv, frf_columns, frf_summary};

use crate::variants;

/// Arguments of `friction frf`.
#[derive(Args, Debug)]
pub struct FrfArgs {
    /// Scenario TOML file.
    pub file: PathBuf,
    /// Name of the force (a `sine` schedule) whose frequency is swept.
    #[arg(long)]
    pub force: String,
    /// Lowest frequency (Hz).
    #[arg(long, allow_negative_numbers = true)]
    pub f_min: f64,
    /// Highest frequency (Hz).
    #[arg(long, allow_negative_numbers = true)]
    pub f_max: f64,
    /// Number of harmonics (default: doubled from 3 until the peak changes by less than 1e-3 from H to 2H).
    #[arg(long, allow_negative_numbers = true, value_parser = crate::count(1, 256))]
    pub harmonics: Option<u64>,
    /// Time samples per period for the contacts (default: max(256, 8 (2H + 1))).
    #[arg(long, allow_negative_numbers = true, value_parser = crate::count(8, 1_000_000))]
    pub samples: Option<u64>,
    /// The penalty (N/m) of the dynamic Lagrangian method for a `coulomb` contact (default: 100 times
    /// the largest stiffness). Larger shortens the stick it puts at each reversal: give more --samples.
    #[arg(long, allow_negative_numbers = true, value_parser = positive_penalty)]
    pub dlft_penalty: Option<f64>,
    /// Condense the linear part onto the contacts' DOFs by the modal receptance (`true`), or balance
    /// every DOF (`false`); default: condensed above 100 DOFs when the damping is diagonal in the modes.
    #[arg(long, value_name = "true|false")]
    pub condense: Option<bool>,
    /// Output directory (default: out/NAME-frf).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write the plot as SVG (frf.svg) instead of PNG (frf.png).
    #[arg(long)]
    pub svg: bool,
    /// Override a number of the scenario, as `friction run --set` (repeatable).
    #[arg(long, value_name = "PATH=VALUE")]
    pub set: Vec<String>,
    /// Amplitudes of the force (N), one response each: frf.csv gains a first column `F` and the
    /// plot shows the receptance |X|/F of the forced body at every level.
    #[arg(long, value_name = "F1,F2,..", value_delimiter = ',', allow_hyphen_values = true, value_parser = positive)]
    pub levels: Vec<f64>,
    /// Refuse a solve whose work arrays would exceed BYTES (estimated from the harmonics, samples and
    /// bodies before anything is allocated; default 4 GiB).
    #[arg(long, value_name = "BYTES", default_value_t = budget::DEFAULT_MAX_MEMORY, allow_negative_numbers = true, value_parser = crate::limit("bytes"))]
    pub max_memory: f64,
    /// Refuse a solve whose Newton iterations would each take more than OPERATIONS (estimated
    /// likewise; default 1e11).
    #[arg(long, value_name = "OPERATIONS", default_value_t = budget::DEFAULT_MAX_WORK, allow_negative_numbers = true, value_parser = crate::limit("operations"))]
    pub max_work: f64,
}

/// A force level: a finite number > 0.
fn positive(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        Ok(x) => Err(format!("{x} is out of range; valid range (0, inf) N")),
        Err(_) => Err(format!("`{s}` is not a number")),
    }
}

/// A penalty: a finite number > 0.
fn positive_penalty(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        Ok(x) => Err(format!("{x} is out of range; valid range (0, inf) N/m")),
        Err(_) => Err(format!("`{s}` is not a number")),
    }
}

/// Run `friction frf`.
pub fn run(a: &FrfArgs) -> ExitCode {
    match go(a) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn io(p: &std::path::Path) -> impl Fn(std::io::Error) -> AnalysisError + '_ {
    move |e| AnalysisError::Io { path: p.display().to_string(), message: e.to_string() }
}

fn options(a: &FrfArgs) -> FrfOptions {
    FrfOptions {
        f_min: a.f_min,
        f_max: a.f_max,
        harmonics: a.harmonics.map(|h| h as usize),
        samples: a.samples.map(|n| n as usize),
        dlft_penalty: a.dlft_penalty,
        condense: a.condense,
        ..Default::default()
    }
}

fn limits(a: &FrfArgs) -> Limits {
    Limits { max_memory: a.max_memory, max_work: a.max_work }
}

fn go(a: &FrfArgs) -> Result<(), AnalysisError> {
    if !a.levels.is_empty() {
        return levels(a);
    }
    let sys = variants::load(&a.file, &a.set)?;
    let opts = options(a);
    let r = frf_within(&sys, &a.force, &opts, &limits(a))?;
    let dir = a.out.clone().unwrap_or_else(|| PathBuf::from(format!("out/{}-frf", sys.name)));
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let csv_path = dir.join("frf.csv");
    std::fs::write(&csv_path, csv(&frf_columns(&r))).map_err(io(&csv_path))?;
    let summary = frf_summary(&r, &sys.name, &a.force, &opts);
    for w in &r.warnings {
        eprintln!("warning: {w}");
    }
    let json_path = dir.join("summary.json");
    std::fs::write(&json_path, serde_json::to_string_pretty(&summary).unwrap_or_default())
        .map_err(io(&json_path))?;
    let plot = dir.join(if a.svg { "frf.svg" } else { "frf.png" });
    plot_frf(&r, &plot)?;
    println!("{}", line(&sys.name, a, &r));
    if let StabilityVerdict::Unassessed(why) = &r.stability {
        println!("{why}: the `stable` column is 1 unassessed");
    }
    println!(
        "wrote {}, summary.json, {}",
        csv_path.display(),
        plot.file_name().unwrap_or_default().to_string_lossy()
    );
    Ok(())
}

fn line(name: &str, a: &FrfArgs, r: &Frf) -> String {
    format!(
        "{}: {} points from {} to {} Hz, H = {} harmonics ({} samples per period; H -> 2H change {:.1e})",
        name,
        r.points.len(),
        a.f_min,
        a.f_max,
        r.harmonics,
        r.samples,
        r.h_change
    )
}

/// `--levels`: one response per force amplitude, stacked in frf.csv under
/// a first column `F`, the receptances of the forced body in one plot.
fn levels(a: &FrfArgs) -> Result<(), AnalysisError> {
    let opts = options(a);
    let mut runs: Vec<(f64, Frf)> = Vec::new();
    let mut summaries = Vec::new();
    let mut name = String::new();
    let mut body = 0;
    for &level in &a.levels {
        let sys = variants::at_level(&a.file, &a.set, &a.force, level)?;
        let r = frf_within(&sys, &a.force, &opts, &limits(a))?;
        println!("F = {level} N: {}", line(&sys.name, a, &r));
        let mut s = frf_summary(&r, &sys.name, &a.force, &opts);
        s["F"] = serde_json::json!(level);
        for w in &r.warnings {
            eprintln!("warning: F = {level} N: {w}");
        }
        summaries.push(s);
        if let Some(f) = sys.forces.iter().find(|f| f.name == a.force) {
            body = f.on;
        }
        // a force on a structure's DOF: that DOF's place among the written ones
        for st in &sys.structures {
            if let Some(f) = st.loads.iter().find(|f| f.name == a.force) {
                let name = st.coordinate_name(f.on);
                body = r.bodies.iter().position(|b| *b == name).unwrap_or(0);
            }
        }
        name = sys.name;
        runs.push((level, r));
    }
    let dir = a.out.clone().unwrap_or_else(|| PathBuf::from(format!("out/{name}-frf")));
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let mut cols = vec![("F".to_string(), Vec::new())];
    for (level, r) in &runs {
        let c = frf_columns(r);
        if cols.len() == 1 {
            cols.extend(c.iter().map(|(n, _)| (n.clone(), Vec::new())));
        }
        cols[0].1.extend(std::iter::repeat_n(*level, r.points.len()));
        for (k, (_, v)) in c.into_iter().enumerate() {
            cols[k + 1].1.extend(v);
        }
    }
    let csv_path = dir.join("frf.csv");
    std::fs::write(&csv_path, csv(&cols)).map_err(io(&csv_path))?;
    let summary = serde_json::json!({"scenario": name, "force": a.force, "levels": summaries});
    let json_path = dir.join("summary.json");
    std::fs::write(&json_path, serde_json::to_string_pretty(&summary).unwrap_or_default())
        .map_err(io(&json_path))?;
    let plot = dir.join(if a.svg { "frf.svg" } else { "frf.png" });
    plot_frf_levels(FrfLevels { levels: &runs, body }, &plot)?;
    println!(
        "wrote {}, summary.json, {}",
        csv_path.display(),
        plot.file_name().unwrap_or_default().to_string_lossy()
    );
    Ok(())
}

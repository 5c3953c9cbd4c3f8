//! `friction frf`: the frequency response of a scenario under one of its
//! `sine` forces, by harmonic balance with continuation in frequency.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use friction_analysis::hb::frf::{frf, FrfOptions};
use friction_analysis::hb::plot::plot_frf;
use friction_analysis::hb::table::{csv, frf_columns, frf_summary};
use friction_analysis::AnalysisError;

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
    /// Output directory (default: out/NAME-frf).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write the plot as SVG (frf.svg) instead of PNG (frf.png).
    #[arg(long)]
    pub svg: bool,
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

fn go(a: &FrfArgs) -> Result<(), AnalysisError> {
    let sys = friction_sim::scenario::load(&a.file)?;
    let opts = FrfOptions {
        f_min: a.f_min,
        f_max: a.f_max,
        harmonics: a.harmonics.map(|h| h as usize),
        samples: a.samples.map(|n| n as usize),
        ..Default::default()
    };
    let r = frf(&sys, &a.force, &opts)?;
    let dir = a.out.clone().unwrap_or_else(|| PathBuf::from(format!("out/{}-frf", sys.name)));
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let csv_path = dir.join("frf.csv");
    std::fs::write(&csv_path, csv(&frf_columns(&r))).map_err(io(&csv_path))?;
    let summary = frf_summary(&r, &sys.name, &a.force, &opts);
    let json_path = dir.join("summary.json");
    std::fs::write(&json_path, serde_json::to_string_pretty(&summary).unwrap_or_default())
        .map_err(io(&json_path))?;
    let plot = dir.join(if a.svg { "frf.svg" } else { "frf.png" });
    plot_frf(&r, &plot)?;
    println!(
        "{}: {} points from {} to {} Hz, H = {} harmonics ({} samples per period; H -> 2H change {:.1e})",
        sys.name,
        r.points.len(),
        a.f_min,
        a.f_max,
        r.harmonics,
        r.samples,
        r.h_change
    );
    println!(
        "wrote {}, summary.json, {}",
        csv_path.display(),
        plot.file_name().unwrap_or_default().to_string_lossy()
    );
    Ok(())
}

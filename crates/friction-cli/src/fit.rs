//! `friction fit`: identify a model's parameters from a measured CSV.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use friction_analysis::data::{read_csv_with_progress, Columns};
use friction_analysis::fit::{fit, parse_params, FitOptions, FitProgress, FitResult};
use friction_analysis::AnalysisError;
use indicatif::{ProgressBar, ProgressStyle};

/// Arguments of `friction fit`.
#[derive(Args, Debug)]
pub struct FitArgs {
    /// Model id (see `friction models`).
    #[arg(long)]
    pub model: String,
    /// Data CSV with a header: `t` and any of `x` (displacement), `v`
    /// (velocity), `F` (friction force, positive when sliding forward), `N`
    /// (normal load); `#` starts a comment line.
    #[arg(long)]
    pub data: PathBuf,
    /// Starting (and held) values, e.g. `sigma0=1e5,fc=1` or
    /// `elements[0].k=5e4,elements[0].fmax=0.2,...`.
    #[arg(long, value_name = "k=v,...")]
    pub params_init: Option<String>,
    /// Parameters held at their starting value (a rows name like `elements` holds every entry).
    #[arg(long, value_name = "k,...")]
    pub fix: Option<String>,
    /// Fit exactly these parameters (default: every real parameter that is not
    /// fixed, not on a closed bound of its range, and affects the force).
    #[arg(long, value_name = "k,...")]
    pub free: Option<String>,
    /// Write the JSON report here.
    #[arg(long, value_name = "OUT.json")]
    pub json: Option<PathBuf>,
    /// Write fit.json, fit.csv (t, x, v, F, F_fit, residual) and fit.png into DIR.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Fit on t < T only and report the RMS on the rest.
    #[arg(long, value_name = "T", allow_negative_numbers = true)]
    pub validate_from: Option<f64>,
    /// Number of starts: the first from the starting values, the others perturbed at random.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = crate::count(1, 1000))]
    pub starts: u64,
    /// Seed of the multi-start perturbations.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = crate::count(0, u64::MAX))]
    pub seed: u64,
    /// Number of elements for maxwell_slip / gms when no rows are given.
    #[arg(long, default_value_t = 3, allow_negative_numbers = true, value_parser = crate::count(1, 100))]
    pub elements: u64,
    /// Do not estimate starting values from the data (use the model defaults).
    #[arg(long)]
    pub no_guess: bool,
    /// Read signals from other columns, e.g. `x=x.slider,F=F.c` (note that a
    /// `friction run` F.NAME column is -F of the fit's convention).
    #[arg(long, value_name = "sig=COL,...")]
    pub columns: Option<String>,
}

fn list(s: &Option<String>) -> Vec<String> {
    s.as_deref()
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

fn columns(spec: &Option<String>) -> Result<Columns, AnalysisError> {
    let mut c = Columns::default();
    for item in list(spec) {
        let Some((k, v)) = item.split_once('=') else {
            return Err(AnalysisError::Model(format!("--columns: `{item}`: expected SIGNAL=COLUMN")));
        };
        let v = Some(v.trim().to_string());
        match k.trim() {
            "t" => c.t = v,
            "x" => c.x = v,
            "v" => c.v = v,
            "F" => c.f = v,
            "N" => c.n = v,
            other => {
                return Err(AnalysisError::Model(format!(
                    "--columns: unknown signal `{other}`; signals are t, x, v, F, N"
                )))
            }
        }
    }
    Ok(c)
}

fn write(path: &Path, text: &str) -> Result<(), AnalysisError> {
    std::fs::write(path, text)
        .map_err(|e| AnalysisError::Io { path: path.display().to_string(), message: e.to_string() })
}

fn print_report(r: &FitResult, data: &Path) {
    println!(
        "{} fitted to {} ({} samples, {} parameters, {} evaluator, {} iterations, {}, best of {} start(s))",
        r.model,
        data.display(),
        r.n,
        r.params.len(),
        r.evaluator.name(),
        r.iterations,
        if r.converged { "converged" } else { "NOT converged" },
        r.starts
    );
    println!("  {:<18} {:>13} {:>11} {:>29}  unit", "parameter", "value", "stderr", "95% CI");
    for p in &r.params {
        println!(
            "  {:<18} {:>13.6e} {:>11.3e} [{:>12.5e}, {:>12.5e}]  {}",
            p.name, p.value, p.stderr, p.ci95[0], p.ci95[1], p.unit
        );
    }
    if !r.held.is_empty() {
        let held: Vec<String> = r.held.iter().map(|(k, v)| format!("{k}={v}")).collect();
        println!("  held: {}", held.join(", "));
    }
    for n in &r.notes {
        println!("  note: {n}");
    }
    println!("  residual rms {:.6e} N", r.rms);
    if let Some(v) = &r.validation {
        println!("  validation (t >= {}): rms {:.6e} N on {} samples", v.from, v.rms, v.n);
    }
}

/// Run `friction fit`; exit status 2 on bad input, 1 if the fit did not converge.
pub fn run(a: &FitArgs) -> ExitCode {
    match fit_cmd(a) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn fit_cmd(a: &FitArgs) -> Result<bool, AnalysisError> {
    let cols = columns(&a.columns)?;
    // reading: bytes read of the file's size (a bar on a terminal, else a
    // line every 10 s); fitting: the iterations below
    let size = std::fs::metadata(&a.data).map_or(0, |m| m.len());
    let mut reporter = crate::progress::Reporter::new("read", "MB", size as f64, 10.0);
    let series = read_csv_with_progress(&a.data, &cols, &mut |r, _| reporter.report(r as f64, ""))?;
    reporter.finish();
    if let Some(tv) = a.validate_from {
        if !tv.is_finite() {
            return Err(AnalysisError::Model(format!("--validate-from {tv}: not a finite time")));
        }
    }
    let opts = FitOptions {
        model: a.model.clone(),
        init: match &a.params_init {
            Some(s) => parse_params(&a.model, s)?,
            None => Default::default(),
        },
        fix: list(&a.fix),
        free: a.free.as_ref().map(|_| list(&a.free)),
        starts: a.starts as usize,
        seed: a.seed,
        validate_from: a.validate_from,
        elements: a.elements as usize,
        guess: !a.no_guess,
        ..Default::default()
    };
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} fit {msg} [{elapsed}]")
            .unwrap_or(ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(Duration::from_millis(120));
    // on a terminal the spinner; otherwise a line every 10 s
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let started = std::time::Instant::now();
    let last_line = std::sync::Mutex::new(0.0f64);
    let cb = |p: &FitProgress| {
        let msg =
            format!("start {}/{}: iteration {}, rms {:.4e} N", p.start + 1, p.starts, p.iteration, p.rms);
        let w = started.elapsed().as_secs_f64();
        if let Ok(mut last) = last_line.lock() {
            if !terminal && w - *last >= 10.0 {
                eprintln!("progress: fit {msg}, {} elapsed", crate::progress::duration_text(w));
                *last = w;
            }
        }
        bar.set_message(msg);
    };
    let res = fit(&series, &opts, Some(&cb));
    bar.finish_and_clear();
    // a fit refused for what the data lack (constant data, no parameter
    // exercised) names the data file
    let data = a.data.display().to_string();
    let r = res.map_err(|e| match e {
        AnalysisError::Model(m) if !m.contains(&data) => AnalysisError::Model(format!("--data {data}: {m}")),
        e => e,
    })?;
    print_report(&r, &a.data);
    let json = serde_json::to_string_pretty(&r.to_json()).unwrap_or_default();
    if let Some(dir) = &a.out {
        std::fs::create_dir_all(dir)
            .map_err(|e| AnalysisError::Io { path: dir.display().to_string(), message: e.to_string() })?;
        write(&dir.join("fit.json"), &json)?;
        r.write_csv(&dir.join("fit.csv"))?;
        r.plot(&dir.join("fit.png"))?;
        println!("wrote {}/fit.json, fit.csv, fit.png", dir.display());
    }
    if let Some(p) = &a.json {
        write(p, &json)?;
        println!("wrote {}", p.display());
    }
    if !r.converged {
        eprintln!(
            "warning: the fit did not converge ({}); the results are those of the last iteration",
            r.stop
        );
    }
    Ok(r.converged)
}

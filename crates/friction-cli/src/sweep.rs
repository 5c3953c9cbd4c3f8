//! `friction sweep`: a scenario over a grid of parameter values on the local
//! cores, each run reduced to metrics, written as CSV. The engine is
//! `friction_sim::sweep`, the one the Python package's `friction.sweep` uses.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use friction_sim::sweep::{grid_rows, grid_values, Sweep};

/// Arguments of `friction sweep`.
#[derive(Args)]
pub struct SweepArgs {
    /// Scenario TOML file.
    file: PathBuf,
    /// A grid key and its values, repeatable: PATH=A:B:N (N values from A to B,
    /// both included) or PATH=V1,V2,... (PATH as in `--set`: contact.c.fc,
    /// body.m.mass, spring.spring0.stiffness, solver.t_end, ...).
    #[arg(long, value_name = "PATH=VALUES", required = true)]
    grid: Vec<String>,
    /// A metric, repeatable: final|max|min|mean|ptp.COLUMN (window `[t0:t1]` optional),
    /// energy.dissipated[.NAME], energy.residual, events.count, events.MODE,
    /// stats.steps|rejected_steps|rhs_evaluations.
    #[arg(long, value_name = "METRIC", required = true)]
    metric: Vec<String>,
    /// Pair the grid lists side by side (equal lengths) instead of their full
    /// product (the first key varies slowest).
    #[arg(long)]
    zip: bool,
    /// Output CSV (default: standard output).
    #[arg(short = 'o', long, value_name = "FILE.csv")]
    out: Option<PathBuf>,
}

fn fail(msg: String) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

/// Run `friction sweep`: exit 0 when every run succeeded, 1 when some failed
/// (their metrics are NaN and the `error` column says why), 2 for bad input.
pub fn run(a: &SweepArgs) -> ExitCode {
    let mut cols = Vec::new();
    for g in &a.grid {
        let Some((path, spec)) = g.split_once('=') else {
            return fail(format!("--grid {g}: expected PATH=A:B:N or PATH=V1,V2,..."));
        };
        match grid_values(spec) {
            Ok(v) => cols.push((path.trim().to_string(), v)),
            Err(e) => return fail(format!("--grid {g}: {e}")),
        }
    }
    let rows = match grid_rows(&cols, a.zip) {
        Ok(r) => r,
        Err(e) => return fail(format!("--grid: {e}")),
    };
    let text = match std::fs::read_to_string(&a.file) {
        Ok(t) => t,
        Err(e) => return fail(format!("{}: {e}", a.file.display())),
    };
    let dir = a.file.parent().map(PathBuf::from).unwrap_or_default();
    let paths: Vec<String> = cols.iter().map(|(p, _)| p.clone()).collect();
    let sweep = match Sweep::new(&text, &a.file.display().to_string(), &dir, paths.clone(), &a.metric) {
        Ok(s) => s,
        Err(e) => return fail(e.to_string()),
    };
    // every point parsed and checked once, before anything runs
    let systems = match sweep.prepare(&rows) {
        Ok(s) => s,
        Err(e) => return fail(e.to_string()),
    };
    let bar = if std::io::stderr().is_terminal() {
        let b = indicatif::ProgressBar::new(rows.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} runs [{elapsed} < {eta}]")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let results = sweep.run_systems(&systems, &|| bar.inc(1));
    bar.finish_and_clear();

    let sink: Box<dyn std::io::Write> = match &a.out {
        Some(p) => match std::fs::File::create(p) {
            Ok(f) => Box::new(f),
            Err(e) => return fail(format!("{}: {e}", p.display())),
        },
        None => Box::new(std::io::stdout()),
    };
    let mut w = csv::Writer::from_writer(sink);
    let header: Vec<&str> = paths
        .iter()
        .map(String::as_str)
        .chain(a.metric.iter().map(String::as_str))
        .chain(["error"])
        .collect();
    let write = |w: &mut csv::Writer<Box<dyn std::io::Write>>| -> csv::Result<()> {
        w.write_record(&header)?;
        for (row, (vals, err)) in rows.iter().zip(&results) {
            // `{:?}` prints the shortest text that reads back to the same f64 (1e-11, not 0.00000000001)
            let mut rec: Vec<String> = row.iter().chain(vals).map(|x| format!("{x:?}")).collect();
            rec.push(err.clone());
            w.write_record(&rec)?;
        }
        w.flush()?;
        Ok(())
    };
    if let Err(e) = write(&mut w) {
        return fail(format!(
            "{}: {e}",
            a.out.as_ref().map(|p| p.display().to_string()).unwrap_or("stdout".into())
        ));
    }
    let failed = results.iter().filter(|(_, e)| !e.is_empty()).count();
    if let Some(p) = &a.out {
        eprintln!("wrote {} ({} runs, {failed} failed)", p.display(), rows.len());
    }
    if failed > 0 {
        eprintln!("error: {failed} of {} runs failed; see the `error` column", rows.len());
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

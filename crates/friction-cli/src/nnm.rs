//! `friction nnm`: the backbone of a nonlinear mode (frequency and damping
//! against amplitude) by harmonic balance and the extended periodic motion
//! concept (Krack 2015).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use friction_analysis::AnalysisError;
use friction_hb::budget::{self, Limits};
use friction_hb::nnm::{nnm_within, Nnm, NnmOptions};
use friction_hb::overlay::{plot_backbones, Backbones};
use friction_hb::plot::plot_nnm;
use friction_hb::table::{csv, nnm_columns, nnm_summary};
use friction_models::FrictionModel;

use crate::variants::{self, Tuned};

/// Arguments of `friction nnm`.
#[derive(Args, Debug)]
pub struct NnmArgs {
    /// Scenario TOML file.
    pub file: PathBuf,
    /// The body (or a structure's DOF, NAME:INDEX) whose fundamental amplitude is prescribed (default: the one moving most in the mode).
    #[arg(long)]
    pub body: Option<String>,
    /// The mode, 1-based in ascending linear frequency with every contact stuck.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = crate::count(1, 1_000_000))]
    pub mode: u64,
    /// Amplitudes A1:A2:N (m): N amplitudes spaced logarithmically from A1 to A2
    /// (default: 30 from a tenth to 100 times the amplitude at which the first
    /// contact starts to slip in the stuck linear mode).
    #[arg(long, allow_hyphen_values = true, value_parser = parse_amplitudes)]
    pub amplitudes: Option<Amplitudes>,
    /// Number of harmonics.
    #[arg(long, default_value_t = 5, allow_negative_numbers = true, value_parser = crate::count(1, 256))]
    pub harmonics: u64,
    /// Time samples per period for the contacts (default: max(256, 8 (2H + 1))).
    #[arg(long, allow_negative_numbers = true, value_parser = crate::count(8, 1_000_000))]
    pub samples: Option<u64>,
    /// Condense the linear part onto the contacts' DOFs and the prescribed body by the modal receptance
    /// (`true`), or balance every DOF (`false`); default: condensed above 100 DOFs when the damping is
    /// diagonal in the modes.
    #[arg(long, value_name = "true|false")]
    pub condense: Option<bool>,
    /// Output directory (default: out/NAME-nnm).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write the plot as SVG (backbone.svg) instead of PNG (backbone.png).
    #[arg(long)]
    pub svg: bool,
    /// Override a number of the scenario, as `friction run --set` (repeatable).
    #[arg(long, value_name = "PATH=VALUE")]
    pub set: Vec<String>,
    /// A `friction tune --json` result (repeatable): the backbone again with the contact given its
    /// model and parameters, written to backbone_N.csv and drawn with the scenario's own.
    #[arg(long, value_name = "TUNE.json")]
    pub tuned: Vec<PathBuf>,
    /// The contact that `--tuned` replaces (needed when the scenario has several).
    #[arg(long, value_name = "NAME")]
    pub contact: Option<String>,
    /// Refuse a solve whose work arrays would exceed BYTES (estimated from the harmonics, samples and
    /// bodies before anything is allocated; default 4 GiB).
    #[arg(long, value_name = "BYTES", default_value_t = budget::DEFAULT_MAX_MEMORY, allow_negative_numbers = true, value_parser = crate::limit("bytes"))]
    pub max_memory: f64,
    /// Refuse a solve whose Newton iterations would each take more than OPERATIONS (estimated
    /// likewise; default 1e11).
    #[arg(long, value_name = "OPERATIONS", default_value_t = budget::DEFAULT_MAX_WORK, allow_negative_numbers = true, value_parser = crate::limit("operations"))]
    pub max_work: f64,
}

/// The amplitudes of `--amplitudes A1:A2:N`.
#[derive(Debug, Clone)]
pub struct Amplitudes(pub Vec<f64>);

fn parse_amplitudes(s: &str) -> Result<Amplitudes, String> {
    let parts: Vec<&str> = s.split(':').collect();
    let form = "expected A1:A2:N (amplitudes in m, 0 < A1, A2; N an integer >= 1, N >= 2 when A1 != A2)";
    let [a1, a2, n] = parts[..] else { return Err(format!("`{s}`: {form}")) };
    let num = |v: &str, name: &str| -> Result<f64, String> {
        match v.trim().parse::<f64>() {
            Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
            Ok(x) => Err(format!("{name} = {x} is out of range; valid range (0, inf) m")),
            Err(_) => Err(format!("{name} = `{v}` is not a number; {form}")),
        }
    };
    let (a1, a2) = (num(a1, "A1")?, num(a2, "A2")?);
    let n = match n.trim().parse::<i64>() {
        Ok(n) if (1..=100_000).contains(&n) => n as usize,
        Ok(n) => return Err(format!("N = {n} is out of range; valid range [1, 100000]")),
        Err(_) => return Err(format!("N = `{n}` is not an integer; {form}")),
    };
    if n == 1 && a1 != a2 {
        return Err(format!("N = 1 with A1 = {a1} != A2 = {a2}; give N >= 2 or A1 = A2"));
    }
    if n == 1 {
        return Ok(Amplitudes(vec![a1]));
    }
    Ok(Amplitudes((0..n).map(|i| a1 * (a2 / a1).powf(i as f64 / (n - 1) as f64)).collect()))
}

/// Run `friction nnm`.
pub fn run(a: &NnmArgs) -> ExitCode {
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

fn go(a: &NnmArgs) -> Result<(), AnalysisError> {
    let sys = variants::load(&a.file, &a.set)?;
    // every --tuned file and its scenario checked before any work
    let tuned: Vec<Tuned> = a.tuned.iter().map(|f| variants::read_tuned(f)).collect::<Result<_, _>>()?;
    let variants: Vec<_> = tuned
        .iter()
        .map(|t| variants::with_model(&a.file, &a.set, a.contact.as_deref(), t))
        .collect::<Result<_, _>>()?;
    let opts = NnmOptions {
        body: a.body.clone(),
        mode: a.mode as usize,
        amplitudes: a.amplitudes.as_ref().map_or_else(Vec::new, |a| a.0.clone()),
        harmonics: a.harmonics as usize,
        samples: a.samples.map(|n| n as usize),
        condense: a.condense,
    };
    let limits = Limits { max_memory: a.max_memory, max_work: a.max_work };
    let r = nnm_within(&sys, &opts, &limits)?;
    let dir = a.out.clone().unwrap_or_else(|| PathBuf::from(format!("out/{}-nnm", sys.name)));
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let csv_path = dir.join("backbone.csv");
    std::fs::write(&csv_path, csv(&nnm_columns(&r))).map_err(io(&csv_path))?;
    let mut summary = nnm_summary(&r, &sys.name);
    println!("{}", line(&sys.name, &r));
    // the tuned models: the same mode and body as the scenario's own
    let opts = NnmOptions { body: Some(r.body.clone()), ..opts };
    let mut entries = vec![(format!("{} (as in the scenario)", model_of(&sys, a.contact.as_deref())), r)];
    let mut tuned_summaries = Vec::new();
    for (k, (t, s)) in tuned.iter().zip(&variants).enumerate() {
        let rt = nnm_within(s, &opts, &limits).map_err(|e| match e {
            AnalysisError::Model(m) => AnalysisError::Model(format!("--tuned {}: {m}", t.file.display())),
            e => e,
        })?;
        let p = dir.join(format!("backbone_{}.csv", k + 1));
        std::fs::write(&p, csv(&nnm_columns(&rt))).map_err(io(&p))?;
        println!("{}: {}", t.label(), line(&sys.name, &rt));
        let mut ts = nnm_summary(&rt, &sys.name);
        ts["tuned"] = serde_json::json!({
            "file": t.file.display().to_string(), "model": t.model, "params": t.params, "csv": p.file_name().map(|n| n.to_string_lossy().into_owned()),
        });
        tuned_summaries.push(ts);
        entries.push((t.label(), rt));
    }
    if !tuned.is_empty() {
        summary["tuned"] = serde_json::json!(tuned_summaries);
    }
    let json_path = dir.join("summary.json");
    std::fs::write(&json_path, serde_json::to_string_pretty(&summary).unwrap_or_default())
        .map_err(io(&json_path))?;
    let plot = dir.join(if a.svg { "backbone.svg" } else { "backbone.png" });
    if entries.len() == 1 {
        plot_nnm(&entries[0].1, &plot)?;
    } else {
        plot_backbones(Backbones { entries: &entries }, &plot)?;
    }
    println!(
        "wrote {}{}, summary.json, {}",
        csv_path.display(),
        if tuned.is_empty() { String::new() } else { format!(", backbone_1..{}.csv", tuned.len()) },
        plot.file_name().unwrap_or_default().to_string_lossy()
    );
    Ok(())
}

/// The model id of the contact `--tuned` replaces (or the only one).
fn model_of(sys: &friction_sim::scenario::System, contact: Option<&str>) -> String {
    let c = match contact {
        Some(n) => sys.contacts.iter().find(|c| c.name == n),
        None => sys.contacts.first(),
    };
    c.map_or_else(|| "no contact".into(), |c| c.model.info().id.to_string())
}

fn line(name: &str, r: &Nnm) -> String {
    let (first, last) = (&r.points[0], &r.points[r.points.len() - 1]);
    format!(
        "{}: mode {} of {} ({} amplitudes, H = {}): {:.4} Hz, ζ = {:.3e} at {:.3e} m; {:.4} Hz, ζ = {:.3e} at \
         {:.3e} m (linear, stuck: {:.4} Hz)",
        name,
        r.mode,
        r.body,
        r.points.len(),
        r.harmonics,
        first.f,
        first.zeta,
        first.amplitude,
        last.f,
        last.zeta,
        last.amplitude,
        r.linear_f
    )
}

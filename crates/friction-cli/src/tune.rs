//! `friction tune`: tune parameters of a model to a target dissipation per
//! cycle (or a target loop) under `x = u0 sin(2π f t)`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use friction_analysis::fit::parse_params;
use friction_analysis::tune::{tune, CycleSettings, Objective, TuneOptions, TuneTarget};
use friction_analysis::AnalysisError;

/// What `friction tune` matches.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum ObjectiveArg {
    /// The energy dissipated per cycle at every amplitude.
    Energy,
    /// The whole force-displacement loop at every amplitude (needs --target-model).
    Loop,
}

/// Arguments of `friction tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Model id to tune.
    #[arg(long)]
    pub model: String,
    /// The parameters to tune, e.g. `fc` or `fs,kt`.
    #[arg(long, value_name = "NAME[,NAME]")]
    pub param: String,
    /// Values of the model's other parameters and starting values of the tuned ones.
    #[arg(long, value_name = "k=v,...")]
    pub params: Option<String>,
    /// Reference model whose dissipation (or loop) is the target.
    #[arg(
        long,
        value_name = "REF",
        conflicts_with = "target_energy",
        required_unless_present = "target_energy"
    )]
    pub target_model: Option<String>,
    /// Parameters of the reference model.
    #[arg(long, value_name = "k=v,...", requires = "target_model")]
    pub target_params: Option<String>,
    /// Target dissipation per cycle (J): one value, or one per amplitude.
    #[arg(long, value_name = "E[,E..]", allow_hyphen_values = true)]
    pub target_energy: Option<String>,
    /// Displacement amplitudes u0 (m).
    #[arg(long, value_name = "U0[,U0..]", allow_hyphen_values = true)]
    pub amplitude: String,
    /// Frequency (Hz).
    #[arg(long, allow_negative_numbers = true)]
    pub frequency: f64,
    /// What is matched.
    #[arg(long, value_enum, default_value_t = ObjectiveArg::Energy)]
    pub objective: ObjectiveArg,
    /// Periods simulated (the last one is measured).
    #[arg(long, default_value_t = 3, allow_negative_numbers = true, value_parser = crate::count(1, 1000))]
    pub cycles: u64,
    /// Samples per period.
    #[arg(long, default_value_t = 2000, allow_negative_numbers = true, value_parser = crate::count(8, 1_000_000))]
    pub samples: u64,
    /// Write the JSON report here.
    #[arg(long, value_name = "OUT.json")]
    pub json: Option<PathBuf>,
    /// Write tune.json and tune.png (target and tuned loops) into DIR.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// A comma-separated list of numbers, each in (0, inf).
fn numbers(flag: &str, s: &str) -> Result<Vec<f64>, AnalysisError> {
    let v: Vec<f64> = s
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|x| {
            let v = x.parse::<f64>().map_err(|_| {
                AnalysisError::Model(format!("option {flag}: `{x}` is not a number; valid range (0, inf)"))
            })?;
            if v.is_finite() && v > 0.0 {
                Ok(v)
            } else {
                Err(AnalysisError::Model(format!("option {flag}: {v} is out of range; valid range (0, inf)")))
            }
        })
        .collect::<Result<_, _>>()?;
    if v.is_empty() {
        return Err(AnalysisError::Model(format!("option {flag}: no value given; valid range (0, inf)")));
    }
    Ok(v)
}

/// Bytes per sample of the arrays one simulated loop needs at once: time,
/// displacement, velocity and force (8 bytes each), their copies for the
/// model evaluation and the measured period, and an engine output row
/// (`t, x, v, F` and states, with its vector header): 160 bytes is a safe
/// upper estimate for every model.
const TUNE_BYTES_PER_SAMPLE: f64 = 160.0;

/// The documented limit of `friction tune`'s work arrays: 4 GiB.
const TUNE_MAX_BYTES: f64 = 4.0 * 1024.0 * 1024.0 * 1024.0;

/// Run `friction tune`; exit status 2 on bad input, 1 if the target was not reached.
pub fn run(a: &TuneArgs) -> ExitCode {
    match tune_cmd(a) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn tune_cmd(a: &TuneArgs) -> Result<bool, AnalysisError> {
    let amplitudes = numbers("--amplitude", &a.amplitude)?;
    if !(a.frequency > 0.0 && a.frequency.is_finite()) {
        return Err(AnalysisError::Model(format!(
            "option --frequency: {} is out of range; valid range (0, inf) Hz",
            a.frequency
        )));
    }
    let tune_names: Vec<String> =
        a.param.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect();
    let mut once: Vec<&str> = Vec::new();
    for k in &tune_names {
        if once.contains(&k.as_str()) {
            return Err(AnalysisError::Model(format!(
                "option --param {}: `{k}` is given twice; name each parameter to tune once",
                a.param
            )));
        }
        once.push(k);
    }
    let samples = a.cycles as f64 * a.samples as f64;
    let bytes = samples * TUNE_BYTES_PER_SAMPLE;
    if bytes > TUNE_MAX_BYTES {
        return Err(AnalysisError::Model(format!(
            "--cycles {} × --samples {} = {samples:.0} samples per simulated loop would need about {} of \
             work arrays ({} bytes per sample), more than the limit of 4 GiB; lower --samples or --cycles",
            a.cycles,
            a.samples,
            friction_sim::scenario::human_bytes(bytes),
            TUNE_BYTES_PER_SAMPLE
        )));
    }
    let target = match (&a.target_model, &a.target_energy) {
        (Some(id), _) => TuneTarget::Model {
            id: id.clone(),
            params: match &a.target_params {
                Some(s) => parse_params(id, s)?,
                None => Default::default(),
            },
        },
        (None, Some(e)) => TuneTarget::Energy(numbers("--target-energy", e)?),
        (None, None) => return Err(AnalysisError::Model("give --target-model or --target-energy".into())),
    };
    let opts = TuneOptions {
        model: a.model.clone(),
        params: match &a.params {
            Some(s) => parse_params(&a.model, s)?,
            None => Default::default(),
        },
        tune: tune_names,
        target,
        amplitudes,
        objective: match a.objective {
            ObjectiveArg::Energy => Objective::Energy,
            ObjectiveArg::Loop => Objective::Loop,
        },
        cycle: CycleSettings {
            frequency: a.frequency,
            cycles: a.cycles as usize,
            samples_per_cycle: a.samples as usize,
            ..Default::default()
        },
        lm: Default::default(),
    };
    let r = tune(&opts)?;
    let tuned: Vec<String> = r.tuned.iter().map(|(k, v)| format!("{k} = {v:.8e}")).collect();
    println!("{} tuned at {} Hz: {}", r.model, a.frequency, tuned.join(", "));
    println!(
        "  {:>12} {:>14} {:>14} {:>14} {:>11}",
        "u0 [m]", "target [J]", "tuned [J]", "start [J]", "rel. error"
    );
    let mut reached = true;
    for p in &r.points {
        let err = p.achieved / p.target - 1.0;
        reached &= err.abs() <= 1e-3;
        println!(
            "  {:>12.4e} {:>14.6e} {:>14.6e} {:>14.6e} {:>11.2e}",
            p.amplitude, p.target, p.achieved, p.initial, err
        );
    }
    let json = serde_json::to_string_pretty(&r.to_json(&opts)).unwrap_or_default();
    let write = |p: &std::path::Path, text: &str| {
        std::fs::write(p, text)
            .map_err(|e| AnalysisError::Io { path: p.display().to_string(), message: e.to_string() })
    };
    if let Some(dir) = &a.out {
        std::fs::create_dir_all(dir)
            .map_err(|e| AnalysisError::Io { path: dir.display().to_string(), message: e.to_string() })?;
        write(&dir.join("tune.json"), &json)?;
        r.plot(&dir.join("tune.png"))?;
        println!("wrote {}/tune.json, tune.png", dir.display());
    }
    if let Some(p) = &a.json {
        write(p, &json)?;
        println!("wrote {}", p.display());
    }
    if !reached && opts.objective == Objective::Energy {
        eprintln!(
            "warning: the target dissipation is not reached to 0.1 % (rms relative residual {:.2e}): \
             the tuned parameters may have hit a bound, or the model cannot dissipate that much",
            r.residual
        );
        return Ok(false);
    }
    Ok(true)
}

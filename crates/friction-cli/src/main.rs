//! `friction`: list friction models and run scenario files.

mod analyze;
mod compare;
mod fit;
mod fmu;
mod hb;
mod nnm;
mod progress;
mod serve;
mod sweep;
mod tune;
mod variants;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Print a line to stdout, ignoring a closed pipe (`friction models | head`).
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

use friction_models::{all, info, FrictionModel, ParamKind};
use friction_plot::PlotFormat;
use friction_sim::{scenario, SimError};

/// From this many bodies and contacts, `friction run` says it is preparing
/// them (their set-up takes a noticeable time).
const LARGE_SYSTEM: usize = 100_000;

/// The default of `friction run --max-stuck-rows`: the most contacts and
/// stops that can stick together in one cluster of bodies.
const MAX_STUCK_ROWS: u64 = 2048;

/// From this many output rows, `friction run` says up front how large its
/// output will be (5 million rows took 19 s to write without a word).
const LARGE_OUTPUT_ROWS: f64 = 1e6;

/// The scenario `friction run` runs when no file is given (LuGre stick-slip,
/// Canudas de Wit, Olsson, Åström, Lischinsky 1995).
const DEFAULT_SCENARIO: &str = include_str!("../../../examples/lugre_stick_slip.toml");

#[derive(Parser)]
#[command(
    name = "friction",
    version,
    about = "Friction models and simulation of mechanical systems with friction"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// List every model id, or describe one model (equations, parameters, sources).
    Models {
        /// Model id to describe.
        id: Option<String>,
        /// Print the catalogue's JSON description (schema: docs/model.schema.json), of one
        /// model or, without an id, an array of every model.
        #[arg(long)]
        json: bool,
    },
    /// Print the JSON Schema (draft-07) of the scenario format, for editors and validators
    /// (docs/scenario.schema.json); with --markdown the reference page docs/scenario.md.
    Schema {
        /// Print the reference page (Markdown) instead of the JSON Schema.
        #[arg(long)]
        markdown: bool,
    },
    /// Run a scenario file (without FILE: the embedded LuGre stick-slip scenario).
    Run {
        /// Scenario TOML file.
        file: Option<PathBuf>,
        /// Output directory (default: out/NAME, NAME the scenario name). The result replaces
        /// it only when complete; a second run into the same directory is refused
        /// while the first runs.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Stop the run after SECONDS of wall-clock time, with a partial result
        /// (overrides `[solver] max_wall`; > 0).
        #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
        max_wall: Option<f64>,
        /// Write the plot as SVG (plot.svg) instead of PNG (plot.png).
        #[arg(long)]
        svg: bool,
        /// Override a number of the scenario before it is checked, repeatable:
        /// PATH=VALUE with PATH solver.KEY or SECTION.NAME.KEY (contact.c.fc is the
        /// parameter fc of contact c, body.m.mass, spring.spring0.stiffness, ...).
        #[arg(long = "set", value_name = "PATH=VALUE", allow_hyphen_values = true)]
        set: Vec<String>,
        /// When stderr is not a terminal, print a line `progress: t = ...` (simulated time,
        /// percent, estimated time remaining) every SECONDS of wall time (> 0; on a terminal
        /// a bar shows the same after the first second).
        #[arg(long, value_name = "SECONDS", default_value_t = 10.0, allow_negative_numbers = true)]
        progress_every: f64,
        /// Refuse a scenario with more than N contacts and stops that can stick together in one
        /// cluster of bodies (the engine solves them as one dense block: N² values, about N³
        /// operations per solve); default 2048.
        #[arg(long, value_name = "N", default_value_t = MAX_STUCK_ROWS, allow_negative_numbers = true, value_parser = count(1, u64::MAX))]
        max_stuck_rows: u64,
    },
    /// Run a scenario over a grid of parameter values on the local cores and write
    /// metrics of every run as CSV.
    Sweep(sweep::SweepArgs),
    /// Analyse a run's output or measured data: hysteresis loops, Stribeck curve, free decay.
    Analyze(analyze::AnalyzeArgs),
    /// Fit a model's parameters to measured data (CSV: t and x and/or v, F, optionally N).
    Fit(fit::FitArgs),
    /// Export a scenario as an FMI 2.0 (linux64) or, with --fmi 3, FMI 3.0 (x86_64-linux) Co-Simulation FMU for other simulators (without FILE: the embedded LuGre stick-slip scenario).
    Fmu(fmu::FmuArgs),
    /// Frequency response under a `sine` force by harmonic balance with continuation in frequency.
    Frf(hb::FrfArgs),
    /// Backbone of a nonlinear mode (frequency and damping against amplitude) by the extended periodic motion concept.
    Nnm(nnm::NnmArgs),
    /// Tune parameters of a model to a target dissipation per cycle (or loop) under u0 sin(2π f t).
    Tune(tune::TuneArgs),
    /// Serve the explorer of every model and scenario in the browser (and its JSON API)
    /// on http://127.0.0.1:PORT/.
    Serve(serve::ServeArgs),
    /// Measure which model shows which friction phenomenon (Olsson 1996, Table 2.1) and compare clutch models (two inertias coupled by a clutch).
    Compare {
        /// Comma-separated model ids (default: every model).
        #[arg(long)]
        models: Option<String>,
        /// Output directory (default: out/compare).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Skip the clutch comparison.
        #[arg(long)]
        no_clutch: bool,
    },
}

/// A parser for an integer option in `[lo, hi]` that refuses anything else
/// (negative numbers included) with the valid range.
pub(crate) fn count(
    lo: u64,
    hi: u64,
) -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync + 'static {
    move |s: &str| {
        let range =
            if hi == u64::MAX { format!("integer >= {lo}") } else { format!("integer in [{lo}, {hi}]") };
        match s.trim().parse::<i128>() {
            Ok(n) if n >= lo as i128 && n <= hi as i128 => Ok(n as u64),
            Ok(n) => Err(format!("{n} is out of range; valid: {range}")),
            Err(_) => Err(format!("`{s}` is not an integer; valid: {range}")),
        }
    }
}

/// A parser for a limit: a number > 0 (`inf` for none), e.g. `--max-memory 8e9`.
pub(crate) fn limit(
    unit: &'static str,
) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    move |s: &str| match s.trim().parse::<f64>() {
        Ok(x) if x > 0.0 => Ok(x),
        Ok(x) => Err(format!("{x} is out of range; valid range (0, inf] {unit}")),
        Err(_) => Err(format!("`{s}` is not a number; valid range (0, inf] {unit}")),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.cmd {
        Cmd::Models { id, json } => models(id.as_deref(), json),
        Cmd::Schema { markdown } => {
            if markdown {
                say!("{}", friction_sim::scenario_schema::markdown().trim_end());
            } else {
                let schema = friction_sim::scenario_schema::json_schema();
                say!("{}", serde_json::to_string_pretty(&schema).unwrap_or_default());
            }
            ExitCode::SUCCESS
        }
        Cmd::Analyze(args) => analyze::main(args),
        Cmd::Fit(a) => fit::run(&a),
        Cmd::Tune(a) => tune::run(&a),
        Cmd::Frf(a) => hb::run(&a),
        Cmd::Nnm(a) => nnm::run(&a),
        Cmd::Fmu(a) => fmu::main(&a, DEFAULT_SCENARIO),
        Cmd::Compare { models, out, no_clutch } => {
            compare::run(models.as_deref(), out.as_deref(), !no_clutch)
        }
        Cmd::Sweep(a) => sweep::run(&a),
        Cmd::Serve(a) => serve::run(&a),
        Cmd::Run { file, out, max_wall, svg, set, progress_every, max_stuck_rows } => {
            let limits = RunLimits { progress_every, max_stuck_rows };
            match run(file.as_deref(), out.as_deref(), max_wall, svg, &set, limits) {
                Ok(code) => code,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            }
        }
    }
}

fn models(id: Option<&str>, json: bool) -> ExitCode {
    match id {
        None if json => {
            let all = friction_models::catalogue::catalogue();
            say!("{}", serde_json::to_string_pretty(&all).expect("the catalogue serialises"));
            ExitCode::SUCCESS
        }
        None => {
            for m in all() {
                say!("{:<20} {:<20} {}", m.id, m.family.name(), m.summary);
            }
            ExitCode::SUCCESS
        }
        Some(id) => match info(id) {
            None => {
                let ids: Vec<_> = all().iter().map(|m| m.id).collect();
                match friction_models::suggest::nearest(id, ids.iter().copied()) {
                    Some(near) => eprintln!(
                        "error: unknown model `{id}`; did you mean `{near}`? (`friction models` lists every id)"
                    ),
                    None => eprintln!("error: unknown model `{id}`; known models: {}", ids.join(", ")),
                }
                ExitCode::from(2)
            }
            Some(m) if json => {
                say!(
                    "{}",
                    serde_json::to_string_pretty(&friction_models::catalogue::describe(m))
                        .expect("serialises")
                );
                ExitCode::SUCCESS
            }
            Some(m) => {
                say!("{} — {}\nfamily: {}\n", m.id, m.summary, m.family.name());
                say!("Equations:\n{}\n", indent(m.equations));
                say!("Parameters:");
                say!(
                    "  {:<14} {:<8} {:<10} {:<28} {:<12} meaning",
                    "name",
                    "symbol",
                    "unit",
                    "valid range",
                    "default"
                );
                for p in m.params {
                    let range = p.range_text();
                    let def = match p.kind {
                        ParamKind::Rows { columns, .. } => format!("required [{}]", columns.join(", ")),
                        _ => p.default_text(),
                    };
                    say!(
                        "  {:<14} {:<8} {:<10} {:<28} {:<12} {}",
                        p.name,
                        p.symbol,
                        p.unit,
                        range,
                        def,
                        p.doc
                    );
                }
                say!("\nStates: {}\nSources: {}", m.states, m.sources);
                for r in friction_models::references::cited_in(m.sources) {
                    say!("  - {}: {}", r.cite, r.full());
                }
                let own = friction_models::LOAD_PARAMS.iter().find(|(id, _)| *id == m.id).map(|(_, k)| *k);
                say!(
                    "Load: a scenario contact's `normal` N(t) multiplies this force and the maximum static force; \
                     the parameters are the values at N = 1{}",
                    own.map(|k| format!("; `{k}` is the same load: set it or the contact's `normal`, not both"))
                        .unwrap_or_default()
                );
                ExitCode::SUCCESS
            }
        },
    }
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("  {l}")).collect::<Vec<_>>().join("\n")
}

/// `--set PATH=VALUE` options as (path, value), refusing a malformed one.
fn overrides(set: &[String]) -> Result<Vec<(String, f64)>, SimError> {
    let bad = |s: &str, why: String| SimError::Input {
        file: "command line".into(),
        line: None,
        message: format!("--set {s}: {why}"),
    };
    set.iter()
        .map(|s| {
            let (path, value) =
                s.split_once('=').ok_or_else(|| bad(s, "expected PATH=VALUE (contact.c.fc=0.8)".into()))?;
            match value.trim().parse::<f64>() {
                Ok(x) if x.is_finite() => Ok((path.trim().to_string(), x)),
                _ => Err(bad(s, format!("`{}` is not a finite number", value.trim()))),
            }
        })
        .collect()
}

/// The scenario of `friction run`, with `--set` overrides applied before
/// validation; an error caused by an override names it. With
/// `frequency_domain` (`frf`, `nnm`) it needs no `[solver]` table
/// ([`scenario::Document::with_default_solver`]).
pub(crate) fn load_scenario(
    file: Option<&Path>,
    set: &[String],
    frequency_domain: bool,
) -> Result<scenario::System, SimError> {
    let over = overrides(set)?;
    let (text, name, dir) = match file {
        Some(f) => (
            std::fs::read_to_string(f)
                .map_err(|e| SimError::Io { path: f.display().to_string(), source: e })?,
            f.display().to_string(),
            f.parent().map(Path::to_path_buf).unwrap_or_default(),
        ),
        None => {
            (DEFAULT_SCENARIO.to_string(), "<embedded lugre_stick_slip.toml>".to_string(), PathBuf::from("."))
        }
    };
    let doc = scenario::Document::read(&text, &name)?;
    let doc = if frequency_domain { doc.with_default_solver() } else { doc };
    doc.validate_with(&dir, &over).map_err(|(blame, e)| match (blame, e) {
        (Some(k), SimError::Input { message, .. }) => {
            SimError::Input { file: format!("--set {}", set[k]), line: None, message }
        }
        (_, e) => e,
    })
}

/// The options of `friction run` that bound its work.
struct RunLimits {
    progress_every: f64,
    max_stuck_rows: u64,
}

/// The largest cluster of rows that can stick together: contacts whose
/// model has a static force (and no internal state) on at least one body,
/// and stops, grouped by the bodies they share (the blocks the engine
/// solves densely when they stick). Returns (rows, bodies) of the largest.
fn stuck_cluster(sys: &scenario::System) -> (usize, usize) {
    let nb = sys.bodies.len();
    let mut parent: Vec<usize> = (0..nb).collect();
    fn find(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    let body = |m: &scenario::Member| match m {
        scenario::Member::Body(i) => Some(*i),
        _ => None,
    };
    let mut rows_at: Vec<usize> = Vec::new();
    for c in &sys.contacts {
        let (z, mem) = (vec![0.0; c.model.n_states()], vec![0.0; c.model.n_memory()]);
        let can_stick = c.model.n_states() == 0 && c.model.max_static(&z, &mem).is_some();
        let (a, b) = (body(&c.between[0]), body(&c.between[1]));
        match (can_stick, a, b) {
            (true, Some(i), Some(j)) => {
                let (ri, rj) = (find(&mut parent, i), find(&mut parent, j));
                parent[ri] = rj;
                rows_at.push(i);
            }
            (true, Some(i), None) | (true, None, Some(i)) => rows_at.push(i),
            _ => {}
        }
    }
    rows_at.extend(sys.stops.iter().map(|s| s.body));
    let (mut rows, mut bodies) = (vec![0usize; nb], vec![0usize; nb]);
    for i in 0..nb {
        let r = find(&mut parent, i);
        bodies[r] += 1;
    }
    for i in rows_at {
        let r = find(&mut parent, i);
        rows[r] += 1;
    }
    (0..nb).map(|r| (rows[r], bodies[r])).max().unwrap_or((0, 0))
}

fn run(
    file: Option<&Path>,
    out: Option<&Path>,
    max_wall: Option<f64>,
    svg: bool,
    set: &[String],
    limits: RunLimits,
) -> Result<ExitCode, SimError> {
    let RunLimits { progress_every, max_stuck_rows } = limits;
    if !(progress_every.is_finite() && progress_every > 0.0) {
        return Err(SimError::Input {
            file: "command line".into(),
            line: None,
            message: format!(
                "option --progress-every: {progress_every} is out of range; valid range (0, inf) seconds"
            ),
        });
    }
    if let Some(w) = max_wall {
        if !(w.is_finite() && w > 0.0) {
            return Err(SimError::Input {
                file: "command line".into(),
                line: None,
                message: format!("option --max-wall: {w} is out of range; valid range (0, inf) seconds"),
            });
        }
    }
    let mut sys = load_scenario(file, set, false)?;
    for w in sys.warnings() {
        eprintln!("warning: {w}");
    }
    if max_wall.is_some() {
        sys.solver.max_wall = max_wall;
    }
    let dir = match out {
        Some(o) => o.to_path_buf(),
        None => {
            // the name passed scenario::check_name; a single plain component
            // keeps the default output inside out/
            let one_component = matches!(
                Path::new(&sys.name).components().collect::<Vec<_>>().as_slice(),
                [std::path::Component::Normal(_)]
            );
            if !one_component {
                return Err(SimError::Input {
                    file: file.map(|f| f.display().to_string()).unwrap_or_default(),
                    line: None,
                    message: format!("scenario name {:?} cannot be used as a directory under out/", sys.name),
                });
            }
            PathBuf::from("out").join(&sys.name)
        }
    };
    // rows stream to the CSV as they are computed; progress with the
    // estimated time remaining (a bar on a terminal, else a line every
    // `progress_every` seconds)
    let t_end = sys.solver.t_end;
    let (nb, nc) = (sys.bodies.len(), sys.contacts.len());
    let (stuck_rows, stuck_bodies) = stuck_cluster(&sys);
    if stuck_rows as u64 > max_stuck_rows {
        let n = stuck_rows as f64;
        return Err(SimError::Input {
            file: file.map(|f| f.display().to_string()).unwrap_or_default(),
            line: None,
            message: format!(
                "{stuck_rows} contacts and stops that can stick act on one cluster of {stuck_bodies} bodies: \
                 when they stick the engine solves them as one dense block of {stuck_rows}² values ({}) in \
                 about {n:.0}³ = {:.1e} operations per solve, more than the limit --max-stuck-rows = \
                 {max_stuck_rows}; merge parallel \
                 contacts into one (their forces add), or raise --max-stuck-rows",
                scenario::human_bytes(8.0 * n * n),
                n * n * n
            ),
        });
    }
    if nb + nc >= LARGE_SYSTEM {
        eprintln!("preparing {nb} bodies and {nc} contacts ...");
    }
    if let Some(rows) = sys.solver.output_rows().filter(|&r| r >= LARGE_OUTPUT_ROWS) {
        // said before the first step: writing millions of rows takes a
        // while after the integration too (the CSV and the plot)
        let cols = sys.output_columns() as f64;
        eprintln!(
            "output: about {rows:.0} rows × {cols:.0} columns = {} of values (limit [solver] max_output_bytes = {}); \
             raise output_dt or set `columns` for a smaller one",
            scenario::human_bytes(rows * cols * 8.0),
            scenario::human_bytes(sys.solver.max_output_bytes as f64)
        );
    }
    let mut reporter = progress::Reporter::new("t", "s", t_end, progress_every);
    let mut progress = |t: f64, events: usize| reporter.report(t, &format!(", {events} events"));
    let format = if svg { PlotFormat::Svg } else { PlotFormat::Png };
    let res = friction_plot::run_to_dir(&sys, &dir, format, Some(&mut progress));
    reporter.finish();
    let res = res?;
    let e = &res.energy;
    say!(
        "{}: t_end = {} s, {} rows, {} events, {} steps ({} rejected), {} rhs evaluations, {:.3} s [{}]",
        sys.name,
        sys.solver.t_end,
        res.stats.rows,
        res.events.len(),
        res.stats.steps,
        res.stats.rejected,
        res.stats.rhs_evals,
        res.stats.wall_time,
        res.stats.method
    );
    let diss: f64 =
        e.contacts.iter().map(|c| c.1).sum::<f64>() + e.dampers.iter().map(|c| c.1).sum::<f64>() + e.impacts;
    let diss = diss + e.gaps.iter().map(|g| g.1).sum::<f64>();
    say!("energy: dissipated {diss:.6e} J, balance residual {:.3e} J", e.residual);
    say!("wrote {}/timeseries.csv, summary.json, plot.{}", dir.display(), if svg { "svg" } else { "png" });
    if let Some(f) = &res.failure {
        eprintln!("error: {f}\n(partial result written, marked \"partial\": true in summary.json)");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

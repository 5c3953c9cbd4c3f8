//! `friction analyze`: hysteresis loops, Stribeck curve and free-decay
//! frequency and damping of a run's output or of measured data.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use friction_analysis::analysis::{
    analyze_loops, plot_loops, plot_stribeck, plot_transient, stribeck_curve, transient_decay, LoopAnalysis,
    LoopOptions, PlotFormat, StribeckOptions, StribeckPoint, TransientAnalysis, TransientOptions,
    DEFAULT_REVERSAL_TOL,
};
use friction_analysis::data::{read_csv_with_progress, Columns, Series};
use serde_json::{json, Value};

/// Which analysis to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Kind {
    /// Every analysis the columns allow; those that find nothing (no cycle, no decay) are skipped.
    Auto,
    /// Hysteresis loops F(x): cycles, dissipated energy, equivalent damping, backbone.
    Loops,
    /// Steady-state friction against velocity from a sweep.
    Stribeck,
    /// Frequency and damping ratio against amplitude of a free decay x(t).
    Transient,
}

/// How to read the sign of the force column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ForceSign {
    /// Negate columns named `F.NAME` (a `friction run` output: the force on the first member), keep others.
    Auto,
    /// The column already opposes the motion (positive when x increases).
    AsIs,
    /// The column is the force on the moving member: negate it.
    Negate,
}

/// Arguments of `friction analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// CSV file with a header row: a `friction run` timeseries.csv or measured data.
    pub file: PathBuf,
    /// Time column [default: t].
    #[arg(long, value_name = "COL")]
    pub t: Option<String>,
    /// Displacement column [default: x, else the slip s.NAME of the force's contact, else the first x.NAME].
    #[arg(long, value_name = "COL")]
    pub x: Option<String>,
    /// Velocity column [default: v, else sv.NAME with s.NAME, else v.NAME of the displacement's NAME; else derived from x].
    #[arg(long, value_name = "COL")]
    pub v: Option<String>,
    /// Friction force column [default: F, else the first F.NAME].
    #[arg(long, value_name = "COL")]
    pub f: Option<String>,
    /// Analysis to run.
    #[arg(long, value_enum, default_value = "auto")]
    pub kind: Kind,
    /// Sign of the force column (analyses use forces opposing the motion).
    #[arg(long, value_enum, default_value = "auto")]
    pub force_sign: ForceSign,
    /// Output directory [default: <FILE's directory>/<FILE's stem>_analysis].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write SVG plots instead of PNG.
    #[arg(long)]
    pub svg: bool,
    /// Reversal band as a fraction of the displacement range (0 < tol < 0.5); raise it for noisy data.
    #[arg(long, default_value_t = DEFAULT_REVERSAL_TOL, allow_negative_numbers = true)]
    pub reversal_tol: f64,
    /// Stribeck: velocity bins per direction.
    #[arg(long, default_value_t = 30, allow_negative_numbers = true, value_parser = parse_bins)]
    pub bins: usize,
    /// Stribeck: linear velocity bins (default logarithmic).
    #[arg(long)]
    pub linear_bins: bool,
    /// Stribeck: smallest |v| binned [m/s] (default 1e-3 max|v|, 0 with --linear-bins).
    #[arg(long, allow_negative_numbers = true)]
    pub v_min: Option<f64>,
    /// Stribeck: largest |v| binned [m/s] (default max|v|).
    #[arg(long, allow_negative_numbers = true)]
    pub v_max: Option<f64>,
    /// Stribeck: samples with |dv/dt| above this are not steady [m/s²].
    #[arg(long, allow_negative_numbers = true)]
    pub max_accel: Option<f64>,
    /// Stribeck: seconds after the start and after an unsteady sample before samples count again.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub settle: f64,
}

/// `--bins`: an integer in [1, 100000], refused with that range otherwise.
fn parse_bins(s: &str) -> Result<usize, String> {
    match s.trim().parse::<i64>() {
        Ok(n) if (1..=100_000).contains(&n) => Ok(n as usize),
        Ok(n) => Err(format!("{n} is out of range; valid: integer in [1, 100000]")),
        Err(_) => Err(format!("`{s}` is not an integer; valid: integer in [1, 100000]")),
    }
}

/// Bad input (exit status 2) or a failure to write (exit status 1).
enum Failure {
    Input(String),
    Output(String),
}

/// Run `friction analyze`.
pub fn main(args: AnalyzeArgs) -> ExitCode {
    match analyze(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(m)) => {
            eprintln!("error: {m}");
            ExitCode::from(2)
        }
        Err(Failure::Output(m)) => {
            eprintln!("error: {m}");
            ExitCode::from(1)
        }
    }
}

/// The results to write, computed before anything is written.
struct Results {
    loops: Option<LoopAnalysis>,
    stribeck: Option<Vec<StribeckPoint>>,
    transient: Option<TransientAnalysis>,
    skipped: Vec<(&'static str, String)>,
}

fn analyze(args: &AnalyzeArgs) -> Result<(), Failure> {
    check_options(args)?;
    let file = args.file.display().to_string();
    let header = read_header(&args.file).map_err(Failure::Input)?;
    let cols = resolve_columns(args, &header);
    // reading: bytes read of the file's size (a bar on a terminal, else a
    // line every 10 s)
    let size = fs::metadata(&args.file).map_or(0, |m| m.len());
    let mut reporter = crate::progress::Reporter::new("read", "MB", size as f64, 10.0);
    let mut series = read_csv_with_progress(&args.file, &cols, &mut |r, _| reporter.report(r as f64, ""))
        .map_err(|e| Failure::Input(e.to_string()))?;
    reporter.finish();
    let negate = match args.force_sign {
        ForceSign::Auto => cols.f.as_deref().is_some_and(|c| c.starts_with("F.")),
        ForceSign::AsIs => false,
        ForceSign::Negate => true,
    };
    // the force negated in place: the data is held once
    if negate {
        for v in series.f.iter_mut().flatten() {
            *v = -*v;
        }
    }
    let force = series.f.as_deref();
    let res = compute(args, &series, &cols, force, &file)?;
    let dir = args.out.clone().unwrap_or_else(|| default_out(&args.file));
    write(args, &series, force, &cols, negate, &res, &dir)
}

fn check_options(a: &AnalyzeArgs) -> Result<(), Failure> {
    let bad = |opt: &str, val: String, range: &str| {
        Err(Failure::Input(format!("option --{opt}: {val} is out of range; valid: {range}")))
    };
    if !(a.reversal_tol > 0.0 && a.reversal_tol < 0.5) {
        return bad("reversal-tol", a.reversal_tol.to_string(), "(0, 0.5)");
    }
    if a.bins == 0 || a.bins > 100_000 {
        return bad("bins", a.bins.to_string(), "integer in [1, 100000]");
    }
    for (name, v) in [("v-min", a.v_min), ("v-max", a.v_max), ("max-accel", a.max_accel)] {
        if let Some(v) = v {
            if !(v.is_finite() && v >= 0.0) {
                return bad(name, v.to_string(), "[0, inf)");
            }
        }
    }
    if !(a.settle.is_finite() && a.settle >= 0.0) {
        return bad("settle", a.settle.to_string(), "[0, inf)");
    }
    if let (Some(lo), Some(hi)) = (a.v_min, a.v_max) {
        if lo >= hi {
            return bad("v-min", lo.to_string(), &format!("below --v-max {hi}"));
        }
    }
    Ok(())
}

/// The header row: the first line that is neither empty nor a `#` comment.
fn read_header(path: &Path) -> Result<Vec<String>, String> {
    let f = fs::File::open(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    for line in BufReader::new(f).lines() {
        let line = line.map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        return Ok(l.split(',').map(|c| c.trim().trim_matches('"').to_string()).collect());
    }
    Err(format!("{}: no header row", path.display()))
}

/// Columns to read: the user's choice, else `t`, `x`, `v`, `F`; else, for a
/// `friction run` output, a contact's force `F.NAME` (the first, or the one
/// given with `--f`) with its own slip `s.NAME` and slip velocity `sv.NAME`
/// (the quantities its model sees); else the first `x.NAME` and `F.NAME`
/// and `v.NAME` of the same NAME as the displacement.
fn resolve_columns(a: &AnalyzeArgs, header: &[String]) -> Columns {
    let has = |c: &str| header.iter().any(|h| h == c);
    let first = |p: &str| header.iter().find(|h| h.starts_with(p)).cloned();
    let f = a.f.clone().or_else(|| if has("F") { Some("F".into()) } else { first("F.") });
    if a.x.is_none() && a.v.is_none() && !has("x") && !has("v") {
        if let Some(contact) = f.as_deref().and_then(|f| f.strip_prefix("F.")) {
            let (s, sv) = (format!("s.{contact}"), format!("sv.{contact}"));
            if has(&s) {
                let v = has(&sv).then_some(sv);
                return Columns {
                    t: Some(a.t.clone().unwrap_or_else(|| "t".into())),
                    x: Some(s),
                    v,
                    f,
                    n: None,
                };
            }
        }
    }
    let x = a.x.clone().or_else(|| if has("x") { Some("x".into()) } else { first("x.") });
    let v = a.v.clone().or_else(|| {
        if has("v") {
            return Some("v".into());
        }
        match x.as_deref().and_then(|x| x.strip_prefix("x.")) {
            Some(name) if has(&format!("v.{name}")) => Some(format!("v.{name}")),
            Some(_) => None,
            None if x.is_none() => first("v."),
            None => None,
        }
    });
    Columns { t: Some(a.t.clone().unwrap_or_else(|| "t".into())), x, v, f, n: None }
}

/// A loop whose dissipated energy is negative (beyond rounding) means the
/// force and displacement columns do not belong together (a passive contact
/// cannot generate energy): the message names the columns paired.
fn negative_dissipation(a: &LoopAnalysis, cols: &Columns, negated: bool) -> Option<String> {
    let scale = a.cycles.iter().map(|c| c.energy.abs()).fold(0.0, f64::max);
    let worst = a.cycles.iter().min_by(|p, q| p.energy.total_cmp(&q.energy))?;
    if worst.energy >= -1e-9 * scale || worst.energy >= 0.0 {
        return None;
    }
    let x = cols.x.as_deref().unwrap_or("?");
    let f = cols.f.as_deref().unwrap_or("?");
    let hint = match x.strip_prefix("x.") {
        Some(_) => match f.strip_prefix("F.") {
            Some(c) => format!(
                " `{x}` is an absolute position; pair the contact's force with its own slip: --x s.{c} --v sv.{c}"
            ),
            None => String::new(),
        },
        None => String::new(),
    };
    Some(format!(
        "loops: the dissipated energy per cycle is negative (E_d = {:.3e} J in cycle {}): a passive contact \
         cannot generate energy, so the columns do not belong together or the force sign is wrong. Paired: \
         x = `{x}`, F = `{f}`{}.{hint} See --x, --f and --force-sign.",
        worst.energy,
        worst.index,
        if negated { " (negated)" } else { "" }
    ))
}

fn default_out(file: &Path) -> PathBuf {
    let stem = file.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_else(|| "data".into());
    file.parent().unwrap_or(Path::new(".")).join(format!("{stem}_analysis"))
}

/// In auto mode a failing analysis is skipped with its reason; asked for by
/// name its failure is an error.
fn keep<T>(
    args: &AnalyzeArgs,
    file: &str,
    name: &'static str,
    r: Result<T, String>,
    skipped: &mut Vec<(&'static str, String)>,
) -> Result<Option<T>, Failure> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(m) if args.kind == Kind::Auto => {
            skipped.push((name, m));
            Ok(None)
        }
        Err(m) => Err(Failure::Input(format!("{file}: {name}: {m}"))),
    }
}

/// A library error without its `<samples>: ` prefix (the CLI names the file itself).
fn strip(e: friction_analysis::AnalysisError) -> String {
    let s = e.to_string();
    s.strip_prefix("<samples>: ").map(str::to_string).unwrap_or(s)
}

fn columns_text(c: &Columns) -> String {
    let mut parts = Vec::new();
    for (role, col) in [("t", &c.t), ("x", &c.x), ("v", &c.v), ("F", &c.f)] {
        if let Some(col) = col {
            parts.push(format!("{role} = `{col}`"));
        }
    }
    parts.join(", ")
}

fn compute(
    args: &AnalyzeArgs,
    s: &Series,
    cols: &Columns,
    force: Option<&[f64]>,
    file: &str,
) -> Result<Results, Failure> {
    // the columns read are borrowed; only a missing one is derived
    let x: Option<Cow<[f64]>> =
        s.x.as_deref().map(Cow::Borrowed).or_else(|| s.displacement().map(Cow::Owned));
    let v: Option<Cow<[f64]>> = s.v.as_deref().map(Cow::Borrowed).or_else(|| s.velocity().map(Cow::Owned));
    let want = |k: Kind| args.kind == Kind::Auto || args.kind == k;
    let missing = |what: &str| format!("needs {what}; columns read: {}", columns_text(cols));
    let mut skipped = Vec::new();
    let mut loops = None;
    if want(Kind::Loops) {
        let r = match (&x, force) {
            (Some(x), Some(f)) => {
                let o = LoopOptions { reversal_tol: args.reversal_tol, ..Default::default() };
                analyze_loops(&s.t, x, f, &o).map_err(strip)
            }
            _ => Err(missing("a displacement (or velocity) and a force column")),
        };
        loops = keep(args, file, "loops", r, &mut skipped)?;
    }
    let mut stribeck = None;
    if want(Kind::Stribeck) {
        let r = match (&v, force) {
            (Some(v), Some(f)) => {
                let o = StribeckOptions {
                    bins: args.bins,
                    log_bins: !args.linear_bins,
                    v_min: args.v_min,
                    v_max: args.v_max,
                    max_accel: args.max_accel,
                    settle: args.settle,
                    min_count: 1,
                };
                stribeck_curve(&s.t, v, f, &o).map_err(strip)
            }
            _ => Err(missing("a velocity (or displacement) and a force column")),
        };
        stribeck = keep(args, file, "stribeck", r, &mut skipped)?;
    }
    let mut transient = None;
    if want(Kind::Transient) {
        let r = match &x {
            Some(x) => {
                transient_decay(&s.t, x, &TransientOptions { reversal_tol: args.reversal_tol }).map_err(strip)
            }
            None => Err(missing("a displacement (or velocity) column")),
        };
        transient = keep(args, file, "transient", r, &mut skipped)?;
    }
    if loops.is_none() && stribeck.is_none() && transient.is_none() {
        let why: Vec<String> = skipped.iter().map(|(n, m)| format!("{n}: {m}")).collect();
        return Err(Failure::Input(format!("{file}: nothing to analyse ({})", why.join("; "))));
    }
    Ok(Results { loops, stribeck, transient, skipped })
}

fn opt(v: Option<f64>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

fn cycles_csv(a: &LoopAnalysis) -> String {
    let mut s = String::from(
        "cycle,t_start,t_end,period,x_max,x_min,x_center,amplitude,f_at_max,f_at_min,f_tip,f_amplitude,\
         k_sec,energy,strain_energy,zeta_eq,c_eq,closure,closed\n",
    );
    for c in &a.cycles {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            c.index,
            c.t_start,
            c.t_end,
            c.period,
            c.x_max,
            c.x_min,
            c.x_center,
            c.amplitude,
            c.f_at_max,
            c.f_at_min,
            c.f_tip,
            c.f_amplitude,
            c.k_sec,
            c.energy,
            c.strain_energy,
            opt(c.zeta_eq),
            c.c_eq,
            c.closure,
            c.closed
        );
    }
    s
}

fn backbone_csv(a: &LoopAnalysis) -> String {
    let mut s = String::from("amplitude,f_tip\n");
    for p in &a.backbone {
        let _ = writeln!(s, "{},{}", p[0], p[1]);
    }
    s
}

fn stribeck_csv(p: &[StribeckPoint]) -> String {
    let mut s = String::from("direction,speed_lo,speed_hi,v,F,F_std,count\n");
    for q in p {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{}",
            q.direction, q.speed_lo, q.speed_hi, q.v, q.f, q.f_std, q.count
        );
    }
    s
}

fn transient_csv(a: &TransientAnalysis) -> String {
    let mut s = String::from("t,amplitude,period,frequency,omega_d,omega_n,log_decrement,zeta,zeta_energy\n");
    for p in &a.points {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{}",
            p.t,
            p.amplitude,
            p.period,
            p.frequency,
            p.omega_d,
            opt(p.omega_n),
            p.log_decrement,
            p.zeta,
            p.zeta_energy
        );
    }
    s
}

fn span(vals: impl Iterator<Item = f64>) -> (f64, f64) {
    vals.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)))
}

fn write(
    args: &AnalyzeArgs,
    s: &Series,
    force: Option<&[f64]>,
    cols: &Columns,
    negated: bool,
    res: &Results,
    dir: &Path,
) -> Result<(), Failure> {
    let out = |e: String| Failure::Output(e);
    fs::create_dir_all(dir).map_err(|e| out(format!("{}: {e}", dir.display())))?;
    let put = |name: &str, text: String| -> Result<(), Failure> {
        let p = dir.join(name);
        fs::write(&p, text).map_err(|e| out(format!("{}: {e}", p.display())))
    };
    let format = if args.svg { PlotFormat::Svg } else { PlotFormat::Png };
    let ext = format.extension();
    let file = args.file.display().to_string();
    // the file and its directory (a run's output is always timeseries.csv)
    let short: PathBuf = args.file.iter().rev().take(2).collect::<Vec<_>>().into_iter().rev().collect();
    let title = |what: &str| format!("{what}: {}", short.display());
    let mut written = Vec::new();
    let mut summary = serde_json::Map::new();
    let mut warnings: Vec<String> = Vec::new();
    summary.insert("file".into(), json!(file));
    summary.insert(
        "columns".into(),
        json!({"t": cols.t, "x": cols.x, "v": cols.v, "F": cols.f, "force_negated": negated}),
    );
    if let Some(a) = &res.loops {
        let (x, f) = (s.displacement().unwrap_or_default(), force.unwrap_or_default());
        put("cycles.csv", cycles_csv(a))?;
        put("backbone.csv", backbone_csv(a))?;
        let plot = format!("loops.{ext}");
        plot_loops(&x, f, a, &dir.join(&plot), format, &title("hysteresis loops"))
            .map_err(|e| out(e.to_string()))?;
        written.extend(["cycles.csv".to_string(), "backbone.csv".into(), plot]);
        let closed: Vec<_> = a.cycles.iter().filter(|c| c.closed).collect();
        let pool = if closed.is_empty() { a.cycles.iter().collect() } else { closed.clone() };
        let (lo, hi) = span(pool.iter().map(|c| c.amplitude));
        let (elo, ehi) = span(pool.iter().map(|c| c.energy));
        let zeta = match span(pool.iter().filter_map(|c| c.zeta_eq)) {
            (zlo, zhi) if zlo <= zhi => format!("ζ_eq {zlo:.3e} .. {zhi:.3e}"),
            _ => "ζ_eq undefined (tip force <= 0)".into(),
        };
        println!(
            "loops: {} cycles ({} closed), amplitude {lo:.3e} .. {hi:.3e} m, E_d {elo:.3e} .. {ehi:.3e} J, {zeta}",
            a.cycles.len(),
            closed.len()
        );
        summary.insert(
            "loops".into(),
            json!({"cycles": a.cycles, "closed": closed.len(), "backbone": a.backbone}),
        );
        if let Some(w) = negative_dissipation(a, cols, negated) {
            eprintln!("warning: {w}");
            warnings.push(w);
        }
    }
    if let Some(p) = &res.stribeck {
        put("stribeck.csv", stribeck_csv(p))?;
        let plot = format!("stribeck.{ext}");
        plot_stribeck(p, &dir.join(&plot), format, &title("Stribeck curve"))
            .map_err(|e| out(e.to_string()))?;
        written.extend(["stribeck.csv".to_string(), plot]);
        let (lo, hi) = span(p.iter().map(|q| q.v.abs()));
        println!("stribeck: {} bins, |v| {lo:.3e} .. {hi:.3e} m/s", p.len());
        summary.insert("stribeck".into(), json!({"points": p}));
    }
    if let Some(a) = &res.transient {
        let x = s.displacement().unwrap_or_default();
        put("transient.csv", transient_csv(a))?;
        let plot = format!("transient.{ext}");
        plot_transient(&s.t, &x, a, &dir.join(&plot), format, &title("free decay"))
            .map_err(|e| out(e.to_string()))?;
        written.extend(["transient.csv".to_string(), plot]);
        let (flo, fhi) = span(a.points.iter().map(|p| p.frequency));
        let (zlo, zhi) = span(a.points.iter().map(|p| p.zeta));
        println!(
            "transient: {} points (one per cycle), frequency {flo:.4} .. {fhi:.4} Hz, ζ {zlo:.3e} .. {zhi:.3e}",
            a.points.len()
        );
        summary.insert("transient".into(), json!({"extrema": a.extrema, "points": a.points}));
    }
    let skipped: serde_json::Map<String, Value> =
        res.skipped.iter().map(|(n, m)| (n.to_string(), json!(m))).collect();
    for (n, m) in &res.skipped {
        println!("{n}: skipped ({m})");
    }
    summary.insert("skipped".into(), Value::Object(skipped));
    summary.insert("warnings".into(), json!(warnings));
    put("analysis.json", serde_json::to_string_pretty(&Value::Object(summary)).unwrap_or_default())?;
    written.push("analysis.json".into());
    println!("wrote {}/{{{}}}", dir.display(), written.join(", "));
    Ok(())
}

//! Parameter sweeps: a scenario run over a grid of values of dotted paths,
//! each run reduced to named metrics, in parallel on rayon's threads. The
//! engine of `friction sweep` and of the Python package's `friction.sweep`;
//! the same paths set single values in `friction run --set`.
//!
//! # Paths
//! ```text
//! SECTION.NAME.KEY[.KEY..]   an element of an array of tables ([[body]], [[driver]],
//!                            [[spring]], [[damper]], [[force]], [[contact]], [[gap]],
//!                            [[stop]]) by its name (springs, dampers, forces, contacts
//!                            and gaps without a name by their default name spring0,
//!                            c0, g0, ...;
//!                            stops by their body); for a contact, a KEY that is not
//!                            one of name, between, model, params, normal is a model
//!                            parameter: contact.c.fc = contact.c.params.fc
//! solver.KEY                 a solver setting (t_end, output_dt, rtol, max_step, ...)
//! ```
//! A value replaces an integer setting (max_steps) when it is integral.
//!
//! # Metrics
//! ```text
//! final.COL, max.COL, min.COL, mean.COL (time average, trapezoidal), ptp.COL (max - min)
//!     COL a column of the time series (x.m, v.m, F.c, z.c.0); an optional
//!     window [t0:t1] (either bound may be left out; a bound written N% is N
//!     percent of the run's t_end) restricts the rows: ptp.v.m[10:], ptp.v.m[50%:]
//! energy.dissipated.NAME   ∫ F v dt of contact (or damper, or gap's damping) NAME [J]
//! energy.dissipated        the total dissipated energy (summary.json's dissipated_total) [J]
//! energy.residual          the energy balance residual [J]
//! events.count             number of logged transitions
//! events.MODE              transitions into MODE (stuck, forward, backward, free): events.stuck
//!                          counts the stick events
//! stats.steps, stats.rejected_steps, stats.rhs_evaluations
//! ```

use rayon::prelude::*;

use crate::engine::columns;
use crate::engine::{Energy, Event, FlatOutcome, Stats};
#[doc(no_inline)]
pub use crate::scenario::overrides::{apply, parse_with_overrides, point_table};
use crate::{scenario, simulate_flat, Outcome, SimError, System};

/// A window bound: a time, or a fraction of `t_end`.
#[derive(Debug, Clone, Copy)]
enum Edge {
    Abs(f64),
    Rel(f64),
}

impl Edge {
    fn at(self, t_end: f64) -> f64 {
        match self {
            Edge::Abs(t) => t,
            Edge::Rel(f) => f * t_end,
        }
    }
}

/// A parsed metric.
#[derive(Debug, Clone)]
enum MetricKind {
    /// `col`: the column's name, found in the run's columns (a sweep keeps
    /// only the columns its metrics read).
    Column {
        op: String,
        col: String,
        from: Edge,
        to: Edge,
    },
    Dissipated(Option<String>),
    Residual,
    EventCount,
    EventsInto(String),
    Stat(String),
}

const MODES: [&str; 5] = ["stuck", "forward", "backward", "free", "smooth"];
const STATS: [&str; 3] = ["steps", "rejected_steps", "rhs_evaluations"];

fn parse_metric(m: &str, sys: &System) -> Result<MetricKind, String> {
    let bad = |why: String| Err(format!("metric `{m}`: {why}"));
    let (op, rest) = m.split_once('.').unwrap_or((m, ""));
    match op {
        "final" | "max" | "min" | "mean" | "ptp" => {
            let (col, from, to) = match rest.strip_suffix(']').and_then(|r| r.rsplit_once('[')) {
                Some((c, w)) => {
                    let Some((a, b)) = w.split_once(':') else {
                        return bad(format!("window `[{w}]` must be [t0:t1]"));
                    };
                    let num = |s: &str, d: f64| -> Result<Edge, String> {
                        let s = s.trim();
                        let x = |t: &str| {
                            t.parse::<f64>()
                                .ok()
                                .filter(|x| !x.is_nan())
                                .ok_or_else(|| format!("metric `{m}`: `{s}` is not a number or a percentage"))
                        };
                        if s.is_empty() {
                            Ok(Edge::Abs(d))
                        } else if let Some(p) = s.strip_suffix('%') {
                            Ok(Edge::Rel(x(p.trim())? / 100.0))
                        } else {
                            Ok(Edge::Abs(x(s)?))
                        }
                    };
                    (c, num(a, f64::NEG_INFINITY)?, num(b, f64::INFINITY)?)
                }
                None => (rest, Edge::Abs(f64::NEG_INFINITY), Edge::Abs(f64::INFINITY)),
            };
            if let (Edge::Abs(a), Edge::Abs(b)) | (Edge::Rel(a), Edge::Rel(b)) = (from, to) {
                if a > b {
                    return bad(format!("the window [{a}:{b}] is empty"));
                }
            }
            let cols = columns(sys);
            match cols.iter().position(|c| c == col) {
                Some(_) => Ok(MetricKind::Column { op: op.into(), col: col.to_string(), from, to }),
                None => bad(format!(
                    "no column `{col}`{}; columns: {}",
                    friction_models::suggest::did_you_mean(col, cols.iter().map(String::as_str)),
                    cols.join(", ")
                )),
            }
        }
        "energy" => match rest {
            "dissipated" => Ok(MetricKind::Dissipated(None)),
            "residual" => Ok(MetricKind::Residual),
            r if r.starts_with("dissipated.") => {
                let name = &r["dissipated.".len()..];
                let known: Vec<&str> = sys
                    .contacts
                    .iter()
                    .map(|c| c.name.as_str())
                    .chain(sys.dampers.iter().map(|d| d.name.as_str()))
                    .chain(sys.gaps.iter().map(|g| g.name.as_str()))
                    .collect();
                if known.contains(&name) {
                    Ok(MetricKind::Dissipated(Some(name.into())))
                } else {
                    bad(format!("no contact, damper or gap \"{name}\"; known: {}", known.join(", ")))
                }
            }
            _ => bad("valid: energy.dissipated, energy.dissipated.NAME, energy.residual".into()),
        },
        "events" => match rest {
            "count" => Ok(MetricKind::EventCount),
            r if MODES.contains(&r) => Ok(MetricKind::EventsInto(r.into())),
            _ => bad(format!("valid: events.count, events.{}", MODES.join(", events."))),
        },
        "stats" if STATS.contains(&rest) => Ok(MetricKind::Stat(rest.into())),
        _ => bad("valid: final|max|min|mean|ptp.COLUMN[t0:t1], energy.dissipated[.NAME], energy.residual, \
             events.count, events.MODE, stats.steps|rejected_steps|rhs_evaluations"
            .into()),
    }
}

/// A column metric over the rows whose time lies in `[from, to]`, in one
/// pass (the rows of a run, kept as vectors or in one block): the same
/// operations in the same order as over a list of the rows, so the value
/// does not depend on how the rows were kept.
fn column_metric<'r>(op: &str, col: usize, from: f64, to: f64, rows: impl Iterator<Item = &'r [f64]>) -> f64 {
    let (mut n, mut first_t, mut last) = (0usize, 0.0, (0.0, 0.0));
    let (mut lo, mut hi, mut area) = (f64::INFINITY, f64::NEG_INFINITY, 0.0);
    for r in rows.filter(|r| r[0] >= from && r[0] <= to) {
        let (t, v) = (r[0], r[col]);
        if n == 0 {
            first_t = t;
        } else {
            // mean: time average by the trapezoidal rule
            area += 0.5 * (last.1 + v) * (t - last.0);
        }
        lo = lo.min(v);
        hi = hi.max(v);
        last = (t, v);
        n += 1;
    }
    if n == 0 {
        return f64::NAN;
    }
    match op {
        "final" => last.1,
        "max" => hi,
        "min" => lo,
        "ptp" => hi - lo,
        _ if n == 1 => last.1,
        _ => area / (last.0 - first_t),
    }
}

/// What a metric reads of a run, however its rows were kept.
struct RunView<'o, R> {
    columns: &'o [String],
    rows: R,
    energy: &'o Energy,
    events: &'o [Event],
    stats: &'o Stats,
}

fn eval_metric<'r, R: Iterator<Item = &'r [f64]>>(m: &MetricKind, sys: &System, run: RunView<'_, R>) -> f64 {
    let energy = run.energy;
    match m {
        MetricKind::Column { op, col, from, to } => match run.columns.iter().position(|c| c == col) {
            Some(i) => column_metric(op, i, from.at(sys.solver.t_end), to.at(sys.solver.t_end), run.rows),
            None => f64::NAN,
        },
        MetricKind::Dissipated(None) => energy.dissipated_total(),
        MetricKind::Dissipated(Some(name)) => energy
            .contacts
            .iter()
            .chain(energy.dampers.iter())
            .chain(energy.gaps.iter())
            .find(|(n, _)| n == name)
            .map(|(_, w)| *w)
            .unwrap_or(f64::NAN),
        MetricKind::Residual => energy.residual,
        MetricKind::EventCount => run.events.len() as f64,
        MetricKind::EventsInto(mode) => run.events.iter().filter(|e| &e.to == mode).count() as f64,
        MetricKind::Stat(s) => match s.as_str() {
            "steps" => run.stats.steps as f64,
            "rejected_steps" => run.stats.rejected as f64,
            _ => run.stats.rhs_evals as f64,
        },
    }
}

/// A metric parsed against a system's columns, contacts and dampers.
#[derive(Debug, Clone)]
pub struct Metric {
    name: String,
    kind: MetricKind,
}

impl Metric {
    /// Parse metric `m` (see the module documentation) for `sys`; the error
    /// names the metric and lists the valid forms or columns.
    pub fn parse(m: &str, sys: &System) -> Result<Metric, String> {
        Ok(Metric { name: m.to_string(), kind: parse_metric(m, sys)? })
    }

    /// The metric as written.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its value on the run `out` of `sys` (NaN when a window holds no row
    /// or the run has not the column; a sweep refuses such a point first).
    pub fn eval(&self, sys: &System, out: &Outcome) -> f64 {
        let rows = out.rows.iter().map(Vec::as_slice);
        eval_metric(
            &self.kind,
            sys,
            RunView {
                columns: &out.columns,
                rows,
                energy: &out.energy,
                events: &out.events,
                stats: &out.stats,
            },
        )
    }

    /// Its value on the run `out` of `sys` whose rows are kept in one block
    /// (equal to [`Metric::eval`] on the same run).
    pub fn eval_flat(&self, sys: &System, out: &FlatOutcome) -> f64 {
        let view = RunView {
            columns: &out.columns,
            rows: out.rows(),
            energy: &out.energy,
            events: &out.events,
            stats: &out.stats,
        };
        eval_metric(&self.kind, sys, view)
    }
}

/// The values of one grid key from the command line: `A:B:N` (N values
/// from A to B, evenly spaced, both ends included; N >= 1, N = 1 gives A)
/// or a comma-separated list `1,2,4`.
///
/// ```
/// use friction_sim::sweep::grid_values;
/// assert_eq!(grid_values("0.8:1.2:3").unwrap(), vec![0.8, 1.0, 1.2]);
/// assert_eq!(grid_values("1,2,4").unwrap(), vec![1.0, 2.0, 4.0]);
/// assert!(grid_values("1:2:0").is_err());
/// ```
pub fn grid_values(spec: &str) -> Result<Vec<f64>, String> {
    let num = |s: &str| -> Result<f64, String> {
        match s.trim().parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(x),
            _ => Err(format!("`{}` is not a finite number", s.trim())),
        }
    };
    let parts: Vec<&str> = spec.split(':').collect();
    match parts.as_slice() {
        [a, b, n] => {
            let (a, b) = (num(a)?, num(b)?);
            let n: usize = match n.trim().parse::<usize>() {
                Ok(n) if n >= 1 => n,
                _ => return Err(format!("`{}` is not a count; valid: integer >= 1 (A:B:N)", n.trim())),
            };
            if n == 1 {
                return Ok(vec![a]);
            }
            // the same values as numpy.linspace(a, b, n)
            let step = (b - a) / (n - 1) as f64;
            Ok((0..n).map(|i| if i + 1 == n { b } else { a + i as f64 * step }).collect())
        }
        [list] => list.split(',').map(num).collect(),
        _ => Err(format!("`{spec}` is not A:B:N or a comma-separated list of numbers")),
    }
}

/// The grid points: the full product of the columns (the first key varies
/// slowest, as `itertools.product`), or with `zip` the columns side by
/// side (equal lengths). One row per run, one value per key.
pub fn grid_rows(cols: &[(String, Vec<f64>)], zip: bool) -> Result<Vec<Vec<f64>>, String> {
    if cols.is_empty() || cols.iter().any(|(_, c)| c.is_empty()) {
        return Err("the grid needs at least one key with at least one value".into());
    }
    if zip {
        let n = cols[0].1.len();
        if cols.iter().any(|(_, c)| c.len() != n) {
            let lens: Vec<String> = cols.iter().map(|(p, c)| format!("{p}: {}", c.len())).collect();
            return Err(format!("zip needs lists of equal length, found {}", lens.join(", ")));
        }
        return Ok((0..n).map(|i| cols.iter().map(|(_, c)| c[i]).collect()).collect());
    }
    let mut rows = vec![vec![]];
    for (_, c) in cols {
        rows = rows
            .iter()
            .flat_map(|r: &Vec<f64>| c.iter().map(move |x| [r.as_slice(), &[*x]].concat()))
            .collect();
    }
    Ok(rows)
}

/// `path = value, ...` of one grid point, for messages.
pub fn describe_point(paths: &[String], row: &[f64]) -> String {
    paths.iter().zip(row).map(|(p, v)| format!("{p} = {v}")).collect::<Vec<_>>().join(", ")
}

/// Why a sweep cannot start.
#[derive(Debug)]
pub enum SweepError {
    /// The base scenario or a grid point is invalid (the point's index and
    /// the message naming it, its key, value and valid range).
    Scenario(String),
    /// A metric is unknown.
    Metric(String),
}

impl std::fmt::Display for SweepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SweepError::Scenario(m) | SweepError::Metric(m) => f.write_str(m),
        }
    }
}

/// A scenario prepared for a sweep: its TOML table (read once; every grid
/// point edits a copy and validates it once), the grid keys and the parsed
/// metrics.
#[derive(Debug, Clone)]
pub struct Sweep {
    base: scenario::Document,
    dir: std::path::PathBuf,
    paths: Vec<String>,
    metrics: Vec<Metric>,
    /// The columns the metrics read: the only ones a sweep's runs keep.
    keep: Vec<String>,
}

impl Sweep {
    /// Read scenario `text` (`file` names it in messages, `dir` resolves
    /// its relative table files) and parse `metrics` against it.
    pub fn new(
        text: &str,
        file: &str,
        dir: &std::path::Path,
        paths: Vec<String>,
        metrics: &[String],
    ) -> Result<Sweep, SweepError> {
        let base = scenario::Document::read(text, file).map_err(|e| SweepError::Scenario(e.to_string()))?;
        Sweep::from_document(base, dir, paths, metrics)
    }

    /// [`Sweep::new`] on a scenario already read (a table without text, for
    /// one, whose errors name no line).
    pub fn from_document(
        base: scenario::Document,
        dir: &std::path::Path,
        paths: Vec<String>,
        metrics: &[String],
    ) -> Result<Sweep, SweepError> {
        let sys = base.validate(dir).map_err(|e| SweepError::Scenario(e.to_string()))?;
        let metrics: Vec<Metric> = metrics
            .iter()
            .map(|m| Metric::parse(m, &sys))
            .collect::<Result<_, _>>()
            .map_err(SweepError::Metric)?;
        let mut keep: Vec<String> = Vec::new();
        for m in &metrics {
            if let MetricKind::Column { col, .. } = &m.kind {
                if !keep.contains(col) {
                    keep.push(col.clone());
                }
            }
        }
        Ok(Sweep { base, dir: dir.to_path_buf(), paths, metrics, keep })
    }

    /// The system of one grid point: the base table with the point's
    /// values, validated once; an error at a key the grid set names the
    /// file without a line, else with the line of the file's own error.
    pub fn system(&self, _i: usize, row: &[f64]) -> Result<System, String> {
        let set: Vec<(String, f64)> = self.paths.iter().cloned().zip(row.iter().copied()).collect();
        self.base.validate_with(&self.dir, &set).map_err(|(blame, e)| match (blame, e) {
            // the file holds the old value: its name without a line (the
            // caller names the point's keys and values)
            (Some(_), SimError::Input { file, message, .. }) => format!("{file}: {message}"),
            (_, e) => e.to_string(),
        })
    }

    /// The system of one grid point as a sweep runs it: `[solver] columns`
    /// narrowed to `t` and the columns the metrics read, so the rows no
    /// metric looks at are not computed (a LuGre stick-slip run whose
    /// metric reads x interpolates x alone at its 4,001 output times, and
    /// evaluates no contact for them). The values kept are those of the
    /// full run, bit for bit.
    /// A point whose run lacks a column a metric reads (a grid key that
    /// changes the number of a model's states, say) is refused here, naming
    /// the metric and the columns it has, rather than giving NaN.
    fn run_system(&self, i: usize, row: &[f64]) -> Result<System, String> {
        let mut sys = self.system(i, row)?;
        if !self.keep.is_empty() {
            let cols = columns(&sys);
            for m in &self.metrics {
                if let MetricKind::Column { col, .. } = &m.kind {
                    if !cols.contains(col) {
                        return Err(format!(
                            "metric `{}` reads column `{col}`, which this point's run does not have{}; columns: {}",
                            m.name,
                            friction_models::suggest::did_you_mean(col, cols.iter().map(String::as_str)),
                            cols.join(", ")
                        ));
                    }
                }
            }
        }
        sys.solver.columns = Some(self.keep.clone());
        Ok(sys)
    }

    /// Check every grid point (in parallel) before running anything; the
    /// error names the first bad point, its values and what is wrong.
    pub fn check(&self, rows: &[Vec<f64>]) -> Result<(), SweepError> {
        self.prepare(rows).map(|_| ())
    }

    /// The system of every grid point, parsed once and checked (in
    /// parallel) before anything runs, its `[solver] columns` narrowed to
    /// the columns the metrics read; the error names the first bad point,
    /// its values and what is wrong. Run them with [`Sweep::run_systems`].
    pub fn prepare(&self, rows: &[Vec<f64>]) -> Result<Vec<System>, SweepError> {
        rows.par_iter()
            .enumerate()
            .map(|(i, row)| self.run_system(i, row).map_err(|e| (i, e)))
            .collect::<Result<_, _>>()
            .map_err(|(i, e)| {
                SweepError::Scenario(format!(
                    "grid point {i} ({}): {e}",
                    describe_point(&self.paths, &rows[i])
                ))
            })
    }

    /// Run every grid point on rayon's threads and evaluate the metrics:
    /// per point the metric values (NaN where the run failed before a
    /// metric could be evaluated) and an error, empty when the run
    /// succeeded. `done` is called once per finished point (for a progress
    /// bar). Each run is deterministic, so the numbers do not depend on the
    /// number of threads. Each point is parsed here; after
    /// [`Sweep::prepare`], [`Sweep::run_systems`] runs its systems without
    /// parsing them again.
    pub fn run(&self, rows: &[Vec<f64>], done: &(dyn Fn() + Sync)) -> Vec<(Vec<f64>, String)> {
        rows.par_iter()
            .enumerate()
            .map(|(i, row)| {
                let sys = self.run_system(i, row);
                let r = self.run_point(sys.as_ref().map_err(String::clone));
                done();
                r
            })
            .collect()
    }

    /// [`Sweep::run`] on the systems [`Sweep::prepare`] returned (in the
    /// order of the grid's rows): the same values, without parsing each
    /// point a second time.
    pub fn run_systems(&self, systems: &[System], done: &(dyn Fn() + Sync)) -> Vec<(Vec<f64>, String)> {
        // one point per task: the runs' lengths differ widely (stick-slip
        // against steady sliding), so rayon's work stealing balances them
        systems
            .par_iter()
            .with_max_len(1)
            .map(|sys| {
                let r = self.run_point(Ok(sys));
                done();
                r
            })
            .collect()
    }

    /// One point: its system, the run (rows kept in one block, no
    /// allocation per row), the metrics; a failure or panic becomes the
    /// point's error with NaN metrics.
    fn run_point(&self, system: Result<&System, String>) -> (Vec<f64>, String) {
        let nm = self.metrics.len();
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(
            || -> Result<(Vec<f64>, String), String> {
                let sys = system?;
                let out = simulate_flat(sys).map_err(|e: SimError| e.to_string())?;
                let vals = self.metrics.iter().map(|m| m.eval_flat(sys, &out)).collect();
                Ok((vals, out.failure.clone().unwrap_or_default()))
            },
        ));
        match run {
            Ok(Ok(r)) => r,
            Ok(Err(e)) => (vec![f64::NAN; nm], e),
            Err(p) => (
                vec![f64::NAN; nm],
                format!(
                    "internal error (panic) in this run: {}",
                    friction_models::error::panic_message(p.as_ref())
                ),
            ),
        }
    }
}

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
#[doc(no_inline)]
pub use crate::scenario::overrides::{apply, parse_with_overrides, point_text};
use crate::{output, scenario, simulate, Outcome, SimError, System};

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
    Column { op: String, col: usize, from: Edge, to: Edge },
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
                Some(i) => Ok(MetricKind::Column { op: op.into(), col: i, from, to }),
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

fn eval_metric(m: &MetricKind, sys: &System, out: &Outcome) -> f64 {
    match m {
        MetricKind::Column { op, col, from, to } => {
            let (from, to) = (from.at(sys.solver.t_end), to.at(sys.solver.t_end));
            let rows: Vec<&Vec<f64>> = out.rows.iter().filter(|r| r[0] >= from && r[0] <= to).collect();
            if rows.is_empty() {
                return f64::NAN;
            }
            let vals = rows.iter().map(|r| r[*col]);
            match op.as_str() {
                "final" => rows[rows.len() - 1][*col],
                "max" => vals.fold(f64::NEG_INFINITY, f64::max),
                "min" => vals.fold(f64::INFINITY, f64::min),
                "ptp" => {
                    let (lo, hi) =
                        vals.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
                    hi - lo
                }
                _ => {
                    // mean: time average by the trapezoidal rule
                    if rows.len() == 1 {
                        return rows[0][*col];
                    }
                    let mut s = 0.0;
                    for w in rows.windows(2) {
                        s += 0.5 * (w[0][*col] + w[1][*col]) * (w[1][0] - w[0][0]);
                    }
                    s / (rows[rows.len() - 1][0] - rows[0][0])
                }
            }
        }
        MetricKind::Dissipated(None) => {
            output::summary(sys, out)["energy"]["dissipated_total"].as_f64().unwrap_or(f64::NAN)
        }
        MetricKind::Dissipated(Some(name)) => out
            .energy
            .contacts
            .iter()
            .chain(out.energy.dampers.iter())
            .chain(out.energy.gaps.iter())
            .find(|(n, _)| n == name)
            .map(|(_, w)| *w)
            .unwrap_or(f64::NAN),
        MetricKind::Residual => out.energy.residual,
        MetricKind::EventCount => out.events.len() as f64,
        MetricKind::EventsInto(mode) => out.events.iter().filter(|e| &e.to == mode).count() as f64,
        MetricKind::Stat(s) => match s.as_str() {
            "steps" => out.stats.steps as f64,
            "rejected_steps" => out.stats.rejected as f64,
            _ => out.stats.rhs_evals as f64,
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

    /// Its value on the run `out` of `sys` (NaN when a window holds no row).
    pub fn eval(&self, sys: &System, out: &Outcome) -> f64 {
        eval_metric(&self.kind, sys, out)
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

/// A scenario prepared for a sweep: its TOML table, the grid keys and the
/// parsed metrics.
#[derive(Debug, Clone)]
pub struct Sweep {
    base: toml::Table,
    dir: std::path::PathBuf,
    paths: Vec<String>,
    metrics: Vec<Metric>,
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
        let base: toml::Table = toml::from_str(text)
            .map_err(|e| SweepError::Scenario(format!("{file}: {}", e.message().trim())))?;
        let sys = scenario::parse(text, file, dir).map_err(|e| SweepError::Scenario(e.to_string()))?;
        let metrics = metrics
            .iter()
            .map(|m| Metric::parse(m, &sys))
            .collect::<Result<_, _>>()
            .map_err(SweepError::Metric)?;
        Ok(Sweep { base, dir: dir.to_path_buf(), paths, metrics })
    }

    /// The system of one grid point.
    pub fn system(&self, i: usize, row: &[f64]) -> Result<System, String> {
        let text = point_text(&self.base, &self.paths, row)?;
        scenario::parse(&text, &format!("<grid point {i}>"), &self.dir).map_err(|e| e.to_string())
    }

    /// Check every grid point (in parallel) before running anything; the
    /// error names the first bad point, its values and what is wrong.
    pub fn check(&self, rows: &[Vec<f64>]) -> Result<(), SweepError> {
        rows.par_iter()
            .enumerate()
            .try_for_each(|(i, row)| self.system(i, row).map(|_| ()).map_err(|e| (i, e)))
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
    /// number of threads.
    pub fn run(&self, rows: &[Vec<f64>], done: &(dyn Fn() + Sync)) -> Vec<(Vec<f64>, String)> {
        let nm = self.metrics.len();
        rows.par_iter()
            .enumerate()
            .map(|(i, row)| {
                let run = std::panic::catch_unwind(|| -> Result<(Vec<f64>, String), String> {
                    let sys = self.system(i, row)?;
                    let out = simulate(&sys).map_err(|e: SimError| e.to_string())?;
                    let vals = self.metrics.iter().map(|m| m.eval(&sys, &out)).collect();
                    Ok((vals, out.failure.clone().unwrap_or_default()))
                });
                done();
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
            })
            .collect()
    }
}

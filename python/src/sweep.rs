//! Parameter sweeps: a scenario run over a grid of values of dotted paths,
//! each run reduced to named metrics, in parallel on rayon's threads.
//!
//! # Paths
//! ```text
//! SECTION.NAME.KEY[.KEY..]   an element of an array of tables ([[body]], [[driver]],
//!                            [[spring]], [[damper]], [[force]], [[contact]], [[stop]])
//!                            by its name (springs, dampers, forces and contacts
//!                            without a name by their default name spring0, c0, ...;
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
//! energy.dissipated.NAME   ∫ F v dt of contact (or damper) NAME [J]
//! energy.dissipated        the total dissipated energy (summary.json's dissipated_total) [J]
//! energy.residual          the energy balance residual [J]
//! events.count             number of logged transitions
//! events.MODE              transitions into MODE (stuck, forward, backward, free): events.stuck
//!                          counts the stick events
//! stats.steps, stats.rejected_steps, stats.rhs_evaluations
//! ```

use friction_sim::engine::columns;
use friction_sim::{output, simulate, Outcome, System};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::sim::parse;
use crate::ScenarioError;

const ARRAYS: [&str; 7] = ["body", "driver", "spring", "damper", "force", "contact", "stop"];
const CONTACT_KEYS: [&str; 5] = ["name", "between", "model", "params", "normal"];

/// The name an element of `section` is found by.
fn element_name(section: &str, i: usize, t: &toml::Table) -> Option<String> {
    let key = if section == "stop" { "body" } else { "name" };
    if let Some(toml::Value::String(s)) = t.get(key) {
        return Some(s.clone());
    }
    match section {
        "spring" | "damper" | "force" => Some(format!("{section}{i}")),
        "contact" => Some(format!("c{i}")),
        _ => None,
    }
}

/// Set the value at dotted `path` in the scenario table `root`.
pub fn apply(root: &mut toml::Table, path: &str, value: f64) -> Result<(), String> {
    let parts: Vec<&str> = path.split('.').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err(format!("grid key `{path}`: empty component"));
    }
    let (table, keys): (&mut toml::Table, &[&str]) = if ARRAYS.contains(&parts[0]) {
        if parts.len() < 3 {
            return Err(format!("grid key `{path}`: expected {}.NAME.KEY", parts[0]));
        }
        let section = parts[0];
        let Some(toml::Value::Array(items)) = root.get_mut(section) else {
            return Err(format!("grid key `{path}`: the scenario has no [[{section}]]"));
        };
        let mut known = Vec::new();
        let mut found = None;
        for (i, it) in items.iter_mut().enumerate() {
            let toml::Value::Table(t) = it else { continue };
            let name = element_name(section, i, t);
            if name.as_deref() == Some(parts[1]) {
                found = Some(t);
                break;
            }
            known.extend(name);
        }
        let Some(t) = found else {
            return Err(format!(
                "grid key `{path}`: no {section} named \"{}\"; known: {}",
                parts[1],
                known.join(", ")
            ));
        };
        if section == "contact" && !CONTACT_KEYS.contains(&parts[2]) {
            let p = t.entry("params").or_insert_with(|| toml::Value::Table(toml::Table::new()));
            let toml::Value::Table(p) = p else {
                return Err(format!("grid key `{path}`: the contact's `params` is not a table"));
            };
            (p, &parts[2..])
        } else {
            (t, &parts[2..])
        }
    } else if parts[0] == "solver" {
        if parts.len() < 2 {
            return Err(format!("grid key `{path}`: expected solver.KEY"));
        }
        let s = root.entry("solver").or_insert_with(|| toml::Value::Table(toml::Table::new()));
        let toml::Value::Table(s) = s else {
            return Err(format!("grid key `{path}`: [solver] is not a table"));
        };
        (s, &parts[1..])
    } else {
        return Err(format!(
            "grid key `{path}`: the first component must be one of {}, solver",
            ARRAYS.join(", ")
        ));
    };
    let mut t = table;
    for (k, key) in keys.iter().enumerate() {
        if k + 1 == keys.len() {
            let v = match t.get(*key) {
                Some(toml::Value::Integer(_)) if value.fract() == 0.0 && value.abs() < 9e15 => {
                    toml::Value::Integer(value as i64)
                }
                Some(toml::Value::String(_)) | Some(toml::Value::Array(_)) | Some(toml::Value::Table(_)) => {
                    return Err(format!("grid key `{path}`: the value there is not a number"));
                }
                _ => toml::Value::Float(value),
            };
            t.insert(key.to_string(), v);
        } else {
            let next = t.entry(key.to_string()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
            match next {
                toml::Value::Table(n) => t = n,
                _ => return Err(format!("grid key `{path}`: `{key}` is not a table")),
            }
        }
    }
    Ok(())
}

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
enum Metric {
    Column { op: String, col: usize, from: Edge, to: Edge },
    Dissipated(Option<String>),
    Residual,
    EventCount,
    EventsInto(String),
    Stat(String),
}

const MODES: [&str; 5] = ["stuck", "forward", "backward", "free", "smooth"];
const STATS: [&str; 3] = ["steps", "rejected_steps", "rhs_evaluations"];

fn parse_metric(m: &str, sys: &System) -> Result<Metric, String> {
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
                Some(i) => Ok(Metric::Column { op: op.into(), col: i, from, to }),
                None => bad(format!("no column `{col}`; columns: {}", cols.join(", "))),
            }
        }
        "energy" => match rest {
            "dissipated" => Ok(Metric::Dissipated(None)),
            "residual" => Ok(Metric::Residual),
            r if r.starts_with("dissipated.") => {
                let name = &r["dissipated.".len()..];
                let known: Vec<&str> = sys
                    .contacts
                    .iter()
                    .map(|c| c.name.as_str())
                    .chain(sys.dampers.iter().map(|d| d.name.as_str()))
                    .collect();
                if known.contains(&name) {
                    Ok(Metric::Dissipated(Some(name.into())))
                } else {
                    bad(format!("no contact or damper \"{name}\"; known: {}", known.join(", ")))
                }
            }
            _ => bad("valid: energy.dissipated, energy.dissipated.NAME, energy.residual".into()),
        },
        "events" => match rest {
            "count" => Ok(Metric::EventCount),
            r if MODES.contains(&r) => Ok(Metric::EventsInto(r.into())),
            _ => bad(format!("valid: events.count, events.{}", MODES.join(", events."))),
        },
        "stats" if STATS.contains(&rest) => Ok(Metric::Stat(rest.into())),
        _ => bad("valid: final|max|min|mean|ptp.COLUMN[t0:t1], energy.dissipated[.NAME], energy.residual, \
             events.count, events.MODE, stats.steps|rejected_steps|rhs_evaluations"
            .into()),
    }
}

fn eval_metric(m: &Metric, sys: &System, out: &Outcome) -> f64 {
    match m {
        Metric::Column { op, col, from, to } => {
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
        Metric::Dissipated(None) => {
            output::summary(sys, out)["energy"]["dissipated_total"].as_f64().unwrap_or(f64::NAN)
        }
        Metric::Dissipated(Some(name)) => out
            .energy
            .contacts
            .iter()
            .chain(out.energy.dampers.iter())
            .find(|(n, _)| n == name)
            .map(|(_, w)| *w)
            .unwrap_or(f64::NAN),
        Metric::Residual => out.energy.residual,
        Metric::EventCount => out.events.len() as f64,
        Metric::EventsInto(mode) => out.events.iter().filter(|e| &e.to == mode).count() as f64,
        Metric::Stat(s) => match s.as_str() {
            "steps" => out.stats.steps as f64,
            "rejected_steps" => out.stats.rejected as f64,
            _ => out.stats.rhs_evals as f64,
        },
    }
}

/// The scenario text of one grid point.
fn point_text(base: &toml::Table, paths: &[String], row: &[f64]) -> Result<String, String> {
    let mut t = base.clone();
    for (p, v) in paths.iter().zip(row) {
        apply(&mut t, p, *v)?;
    }
    toml::to_string(&t).map_err(|e| e.to_string())
}

fn base_table(text: &str, file: &str) -> PyResult<toml::Table> {
    toml::from_str(text).map_err(|e| ScenarioError::new_err(format!("{file}: {}", e.message().trim())))
}

fn describe_point(paths: &[String], row: &[f64]) -> String {
    paths.iter().zip(row).map(|(p, v)| format!("{p} = {v}")).collect::<Vec<_>>().join(", ")
}

/// Check every grid point and metric before running anything: each point's
/// scenario must be valid, each metric known. Raises `ScenarioError` naming
/// the grid point, or `ValueError` for a metric.
#[pyfunction]
pub fn sweep_check(
    py: Python<'_>,
    text: &str,
    file: &str,
    dir: &str,
    paths: Vec<String>,
    values: PyReadonlyArray2<'_, f64>,
    metrics: Vec<String>,
) -> PyResult<()> {
    let vals = values.as_array().to_owned();
    crate::guard("sweep", || {
        let base = base_table(text, file)?;
        let sys = parse(text, file, dir).map_err(|e| crate::sim::py_err(&e))?;
        for m in &metrics {
            parse_metric(m, &sys).map_err(PyValueError::new_err)?;
        }
        py.detach(|| {
            let rows: Vec<Vec<f64>> = vals.outer_iter().map(|r| r.to_vec()).collect();
            rows.par_iter().enumerate().try_for_each(|(i, row)| -> Result<(), (usize, String)> {
                let text = point_text(&base, &paths, row).map_err(|e| (i, e))?;
                parse(&text, &format!("<grid point {i}>"), dir).map(|_| ()).map_err(|e| (i, e.to_string()))
            })
        })
        .map_err(|(i, e)| {
            let row: Vec<f64> = vals.row(i).to_vec();
            ScenarioError::new_err(format!("grid point {i} ({}): {e}", describe_point(&paths, &row)))
        })
    })
}

/// Run the grid points `values` (one row per run, one column per path) in
/// parallel and evaluate `metrics` on each run. Returns `(results, errors)`:
/// a (runs, metrics) float64 array (NaN where a run failed before a metric
/// could be evaluated) and one string per run, empty when the run succeeded.
#[pyfunction]
pub fn sweep_chunk<'py>(
    py: Python<'py>,
    text: &str,
    file: &str,
    dir: &str,
    paths: Vec<String>,
    values: PyReadonlyArray2<'py, f64>,
    metrics: Vec<String>,
) -> PyResult<(Bound<'py, numpy::PyArray2<f64>>, Vec<String>)> {
    let vals = values.as_array().to_owned();
    let nm = metrics.len();
    let results = crate::guard("sweep", || {
        let base = base_table(text, file)?;
        let sys0 = parse(text, file, dir).map_err(|e| crate::sim::py_err(&e))?;
        let parsed: Vec<Metric> = metrics
            .iter()
            .map(|m| parse_metric(m, &sys0))
            .collect::<Result<_, _>>()
            .map_err(PyValueError::new_err)?;
        let rows: Vec<Vec<f64>> = vals.outer_iter().map(|r| r.to_vec()).collect();
        Ok(py.detach(|| {
            rows.par_iter()
                .enumerate()
                .map(|(i, row)| {
                    let run = std::panic::catch_unwind(|| -> Result<(Vec<f64>, String), String> {
                        let text = point_text(&base, &paths, row)?;
                        let sys =
                            parse(&text, &format!("<grid point {i}>"), dir).map_err(|e| e.to_string())?;
                        let out = simulate(&sys).map_err(|e| e.to_string())?;
                        let vals = parsed.iter().map(|m| eval_metric(m, &sys, &out)).collect();
                        Ok((vals, out.failure.clone().unwrap_or_default()))
                    });
                    match run {
                        Ok(Ok(r)) => r,
                        Ok(Err(e)) => (vec![f64::NAN; nm], e),
                        Err(_) => (vec![f64::NAN; nm], "internal error (panic) in this run".into()),
                    }
                })
                .collect::<Vec<_>>()
        }))
    })?;
    let n = results.len();
    let mut flat = Vec::with_capacity(n * nm);
    let mut errors = Vec::with_capacity(n);
    for (v, e) in results {
        flat.extend(v);
        errors.push(e);
    }
    let arr = PyArray1::from_vec(py, flat).reshape([n, nm])?;
    Ok((arr, errors))
}

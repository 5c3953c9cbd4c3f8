//! `POST /api/run`: one scenario run, as `friction run` runs it (the same
//! parsing, the same engine and settings, so the same numbers as its
//! `timeseries.csv`), returned as columns; `GET /api/progress/{id}` and
//! `POST /api/cancel/{id}` for a run in progress.

use std::path::Path;
use std::sync::Arc;

use axum::extract::{Path as UrlPath, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Json;
use friction_sim::engine::Engine;
use friction_sim::{output, units, SimError, System};
use serde::Deserialize;
use serde_json::{json, Value};

use super::{refuse_files, scenario_body};
use crate::error::{ApiError, ApiResult};
use crate::{AppState, RunHandle, RunLookup};

/// The query of `POST /api/run`.
#[derive(Debug, Deserialize)]
pub struct RunQuery {
    /// The run's id, for progress and cancel (default: a fresh random id).
    pub id: Option<String>,
    /// The file name messages give (default `scenario.toml`).
    pub name: Option<String>,
}

/// Parse a scenario as `friction run FILE --set ...` does, `file` naming it
/// in messages; an error caused by an override names it.
pub fn parse(text: &str, file: &str, set: &[(String, f64)]) -> ApiResult<System> {
    refuse_files(text, file)?;
    friction_sim::scenario::overrides::parse_with_overrides(text, file, Path::new("."), set).map_err(
        |(blame, e)| match (blame, e) {
            (Some(k), SimError::Input { message, .. }) => {
                ApiError::bad(format!("set {}={}: {message}", set[k].0, set[k].1))
            }
            (_, e) => ApiError::bad(e.to_string()),
        },
    )
}

/// A scenario given as a table (a JSON body), validated as it is: its
/// errors name `file` and the key, without a line.
pub fn parse_table(table: toml::Table, file: &str) -> ApiResult<System> {
    super::refuse_table_files(&table, file)?;
    friction_sim::scenario::Document::from_table(table, file)
        .validate(Path::new("."))
        .map_err(|e| ApiError::bad(e.to_string()))
}

/// Removes a run from the registry when its request ends, and cancels it
/// when the request is dropped first (the browser closed the connection).
pub(crate) struct Registered<'a> {
    pub(crate) state: &'a AppState,
    pub(crate) id: String,
    pub(crate) handle: Arc<RunHandle>,
}

impl Drop for Registered<'_> {
    fn drop(&mut self) {
        self.handle.cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        self.state.end_run(&self.id);
    }
}

/// Why a run stopped early on the server's side.
pub(crate) const CANCELLED: &str = "cancelled by the user";

/// Bytes of memory per output value while a run's answer is built: the
/// number (8) and its JSON text (at most 24).
pub const BYTES_PER_VALUE: usize = 32;

/// The memory estimate of `values` output values, in MB, for messages.
pub(crate) fn megabytes(values: f64) -> String {
    format!("{:.0} MB", (values * BYTES_PER_VALUE as f64 / 1e6).ceil())
}

/// Refuse (413, before the run) a run of `sys` whose output rows are known
/// beforehand and whose values (rows x columns) would pass `max_values`.
pub fn check_output(sys: &System, max_values: usize) -> ApiResult<()> {
    let nc = friction_sim::engine::columns(sys).len().max(1);
    let rows = match (&sys.solver.output_times, sys.solver.output_dt) {
        (Some(ts), _) => Some(ts.len() as f64 + 1.0),
        (None, Some(dt)) => Some((sys.solver.t_end / dt).floor() + 1.0),
        (None, None) => None,
    };
    match rows {
        Some(rows)
            if !matches!(
                (rows * nc as f64).partial_cmp(&(max_values as f64)),
                Some(std::cmp::Ordering::Less | std::cmp::Ordering::Equal)
            ) =>
        {
            Err(too_many(rows, nc, max_values))
        }
        _ => Ok(()),
    }
}

/// The answer of `POST /api/run` for one run of `sys` under `id`, as JSON
/// text: `{columns: {NAME: [...]}, id, names, summary, units}`, stopped
/// when `handle` is cancelled or the output passes `max_values`. The
/// columns are written straight from the rows (no JSON tree of them), so
/// that a run takes about [`BYTES_PER_VALUE`] bytes per value.
pub fn run_json(sys: &System, handle: &RunHandle, max_values: usize, id: &str) -> ApiResult<Vec<u8>> {
    check_output(sys, max_values)?;
    let engine = Engine::new(sys);
    let names = friction_sim::engine::columns(sys);
    let unit = units::column_units(sys);
    let nc = names.len().max(1);
    let mut data: Vec<f64> = Vec::new();
    let mut over = false;
    let mut sink = |row: &[f64]| -> Result<(), SimError> {
        if handle.cancelled() {
            return Err(SimError::Input { file: sys.name.clone(), line: None, message: CANCELLED.into() });
        }
        if data.len() + row.len() > max_values {
            over = true;
            return Err(SimError::Input {
                file: sys.name.clone(),
                line: None,
                message: "output over the server's limit".into(),
            });
        }
        // -0 written as 0, as in timeseries.csv
        data.extend(row.iter().map(|&x| x + 0.0));
        Ok(())
    };
    let mut progress = |t: f64, events: usize| handle.report(t, events);
    let res = engine.run_with(Some(&mut sink), Some(&mut progress));
    if over {
        return Err(too_many(f64::NAN, nc, max_values));
    }
    let out = res.map_err(|e| ApiError::bad(e.to_string()))?;
    let mut summary = output::summary(sys, &out);
    if handle.cancelled() {
        summary["error"] = json!(CANCELLED);
    }
    let rest = json!({
        "id": id,
        "names": names,
        "units": names.iter().zip(&unit).map(|(c, u)| (c.clone(), json!(u))).collect::<serde_json::Map<_, _>>(),
        "summary": summary,
    });
    let internal = |e: serde_json::Error| ApiError::internal(format!("writing the answer: {e}"));
    let n = data.len() / nc;
    let mut w: Vec<u8> = Vec::with_capacity(data.len() * 20 + 4096);
    w.extend_from_slice(b"{\"columns\":{");
    for (j, name) in names.iter().enumerate() {
        if j > 0 {
            w.push(b',');
        }
        serde_json::to_writer(&mut w, name).map_err(internal)?;
        w.extend_from_slice(b":[");
        for i in 0..n {
            if i > 0 {
                w.push(b',');
            }
            serde_json::to_writer(&mut w, &data[i * nc + j]).map_err(internal)?;
        }
        w.push(b']');
    }
    w.extend_from_slice(b"},");
    let rest = serde_json::to_vec(&rest).map_err(internal)?;
    // `rest` is an object of four keys: its text without the opening brace
    w.extend_from_slice(rest.get(1..).unwrap_or(b"}"));
    Ok(w)
}

fn too_many(rows: f64, nc: usize, max_values: usize) -> ApiError {
    let what = if rows.is_finite() {
        format!("{rows} rows x {nc} columns, about {} in memory", megabytes(rows * nc as f64))
    } else {
        format!("more rows x {nc} columns")
    };
    ApiError::too_large(format!(
        "the output ({what}) is over the server's limit of {max_values} values; \
         raise [solver] output_dt, shorten t_end or choose fewer [solver] columns (or run it with `friction run`)"
    ))
}

/// `POST /api/run`: `{id, names, units, columns: {NAME: [...]}, summary}`.
/// The request waits for a job slot ([`AppState::job_slot`]); the
/// scenario is parsed and run on a blocking thread, which keeps the slot
/// until it ends.
pub async fn run(
    State(state): State<Arc<AppState>>,
    Query(q): Query<RunQuery>,
    headers: HeaderMap,
    body: String,
) -> ApiResult<Response> {
    let slot = state.job_slot().await?;
    let file = q.name.unwrap_or_else(|| "scenario.toml".into());
    let cap = state.opts.max_wall;
    let max_values = state.opts.max_values;
    let (parsed, slot) = tokio::task::spawn_blocking(move || {
        let parsed = scenario_body(&headers, &body).and_then(|b| {
            let mut sys = match b.table {
                Some(t) => parse_table(t, &file)?,
                None => parse(&b.text, &file, &b.set)?,
            };
            sys.solver.max_wall = Some(sys.solver.max_wall.map_or(cap, |w| w.min(cap)));
            check_output(&sys, max_values)?;
            Ok(sys)
        });
        (parsed, slot)
    })
    .await
    .map_err(|e| ApiError::internal(format!("reading the scenario stopped: {e}")))?;
    let sys = parsed?;
    let (id, handle) = state.start_run(q.id, sys.solver.t_end)?;
    let reg = Registered { state: &state, id: id.clone(), handle: handle.clone() };
    let task = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        run_json(&sys, &handle, max_values, &id)
    });
    let res = task.await.map_err(|e| ApiError::internal(format!("the run stopped: {e}")))?;
    drop(reg);
    Ok(([(header::CONTENT_TYPE, "application/json")], res?).into_response())
}

/// `GET /api/progress/{id}`: `{id, kind: "run", t, t_end, events, finished}`
/// of a run, `{id, kind: "sweep", done, total, finished}` of a sweep (grid
/// points finished and in all). `finished` is true for one of the last
/// [`crate::FINISHED_KEPT`] to end, with its last progress, so that a poll
/// racing the end of its run is not answered 404; an id never started (or
/// long forgotten) is 404.
pub async fn progress(
    State(state): State<Arc<AppState>>,
    UrlPath(id): UrlPath<String>,
) -> ApiResult<Json<Value>> {
    let (h, finished) = match state.lookup(&id) {
        Some(RunLookup::Running(h)) => (h, false),
        Some(RunLookup::Finished(h)) => (h, true),
        None => return Err(ApiError::not_found(format!("no run `{id}` in progress"))),
    };
    if h.is_sweep() {
        return Ok(Json(
            json!({"id": id, "kind": "sweep", "done": h.points_done(), "total": h.points, "finished": finished}),
        ));
    }
    let (t, events) = h.progress();
    Ok(Json(
        json!({"id": id, "kind": "run", "t": t, "t_end": h.t_end, "events": events, "finished": finished}),
    ))
}

/// `POST /api/cancel/{id}`: stop a run in progress at its next output row
/// (a sweep: start no further grid point; those running finish) and answer
/// `{id, cancelled: true}`; a run that has just finished gets
/// `{id, cancelled: false, finished: true}`.
pub async fn cancel(
    State(state): State<Arc<AppState>>,
    UrlPath(id): UrlPath<String>,
) -> ApiResult<Json<Value>> {
    match state.lookup(&id) {
        Some(RunLookup::Running(h)) => {
            h.cancel.store(true, std::sync::atomic::Ordering::Relaxed);
            Ok(Json(json!({"id": id, "cancelled": true})))
        }
        Some(RunLookup::Finished(_)) => Ok(Json(json!({"id": id, "cancelled": false, "finished": true}))),
        None => Err(ApiError::not_found(format!("no run `{id}` in progress"))),
    }
}

//! `POST /api/sweep`: a scenario over a grid of parameter values, each run
//! reduced to metrics, as `friction sweep` does it (the same grid syntax,
//! metrics, checks and messages; `friction_sim::sweep`'s engine).
//!
//! A sweep registered under `?id=ID` reports its progress on `GET
//! /api/progress/{id}` (`{kind: "sweep", done, total}`) and stops on `POST
//! /api/cancel/{id}`: no further grid point starts, the points running
//! finish, and the answer has the points done, the others with NaN (null)
//! metrics and the error "cancelled by the user", and `cancelled: true`.

use std::path::Path;
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::Json;
use friction_sim::sweep::{grid_rows, grid_values, Sweep};
use serde::Deserialize;
use serde_json::{json, Value};

use super::refuse_files;
use super::run::{Registered, CANCELLED};
use crate::error::{ApiError, ApiResult};
use crate::{AppState, RunHandle};

/// The body of `POST /api/sweep`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SweepRequest {
    /// The scenario's TOML text.
    pub toml: String,
    /// The file name messages give (default `scenario.toml`).
    #[serde(default)]
    pub name: Option<String>,
    /// Grid keys and values: `PATH=A:B:N` or `PATH=V1,V2,...` (`--grid`).
    pub grid: Vec<String>,
    /// Metrics (`--metric`): `max.v.m[50%:]`, `events.stuck`, ...
    pub metric: Vec<String>,
    /// Pair the grid lists instead of taking their product (`--zip`).
    #[serde(default)]
    pub zip: bool,
}

/// The query of `POST /api/sweep`.
#[derive(Debug, Deserialize)]
pub struct SweepQuery {
    /// The sweep's id, for progress and cancel (default: a fresh random id).
    pub id: Option<String>,
}

/// A sweep request read and its grid checked: (scenario text, file name,
/// paths, metrics, grid rows).
type Checked = (String, String, Vec<String>, Vec<String>, Vec<Vec<f64>>);

/// The request read, its grid built and held to the server's limit.
fn read_request(body: &str, max: usize) -> ApiResult<Checked> {
    let req: SweepRequest =
        serde_json::from_str(body).map_err(|e| ApiError::bad(format!("request body: {e}")))?;
    let file = req.name.clone().unwrap_or_else(|| "scenario.toml".into());
    if req.grid.is_empty() {
        return Err(ApiError::bad(
            "the following required arguments were not provided: --grid <PATH=VALUES>",
        ));
    }
    if req.metric.is_empty() {
        return Err(ApiError::bad("the following required arguments were not provided: --metric <METRIC>"));
    }
    let mut cols = Vec::new();
    for g in &req.grid {
        let Some((path, spec)) = g.split_once('=') else {
            return Err(ApiError::bad(format!("--grid {g}: expected PATH=A:B:N or PATH=V1,V2,...")));
        };
        let v = grid_values(spec).map_err(|e| ApiError::bad(format!("--grid {g}: {e}")))?;
        cols.push((path.trim().to_string(), v));
    }
    let rows = grid_rows(&cols, req.zip).map_err(|e| ApiError::bad(format!("--grid: {e}")))?;
    if rows.len() > max {
        return Err(ApiError::too_large(format!(
            "--grid: {} grid points are over the server's limit of {max}; use `friction sweep` for larger grids",
            rows.len()
        )));
    }
    refuse_files(&req.toml, &file)?;
    let paths: Vec<String> = cols.iter().map(|(p, _)| p.clone()).collect();
    Ok((req.toml, file, paths, req.metric, rows))
}

/// Refuse (413, before any point runs) a sweep one of whose runs would
/// keep more than `max_values` output values (its rows known beforehand):
/// each point's rows stay in memory until its metrics are computed, on
/// every core at once.
fn check_points(systems: &[friction_sim::System], paths: &[String], max_values: usize) -> ApiResult<()> {
    for (k, sys) in systems.iter().enumerate() {
        let Some(rows) = sys.solver.output_rows() else { continue };
        let nc = friction_sim::engine::columns(sys).len().max(1);
        let values = rows * nc as f64;
        // NaN counts as too many
        if !matches!(
            values.partial_cmp(&(max_values as f64)),
            Some(std::cmp::Ordering::Less | std::cmp::Ordering::Equal)
        ) {
            return Err(ApiError::too_large(format!(
                "grid point {} ({}): its run's output ({rows} rows x {nc} columns, about {} in memory) is \
                 over the server's limit of {max_values} values per run; raise [solver] output_dt, \
                 shorten t_end, or use `friction sweep`",
                k + 1,
                paths.join(", "),
                super::run::megabytes(values)
            )));
        }
    }
    Ok(())
}

/// `POST /api/sweep`: `{id, paths, metrics, points: [[grid values]], values:
/// [[metric values]], errors: [...], done, cancelled}`, one entry per grid
/// point, the first key varying slowest (as the rows of `friction sweep`'s
/// CSV). The request waits for a job slot ([`AppState::job_slot`]); it is
/// read and run on blocking threads, which keep the slot until they end.
pub async fn sweep(
    State(state): State<Arc<AppState>>,
    Query(q): Query<SweepQuery>,
    body: String,
) -> ApiResult<Json<Value>> {
    let slot = state.job_slot().await?;
    let max = state.opts.max_points;
    let (checked, slot) = tokio::task::spawn_blocking(move || (read_request(&body, max), slot))
        .await
        .map_err(|e| ApiError::internal(format!("reading the sweep stopped: {e}")))?;
    let (text, file, paths, metrics, rows) = checked?;
    let cap = state.opts.max_wall;
    let max_values = state.opts.max_values;
    let (id, handle) = state.register(q.id, RunHandle::for_sweep(rows.len()))?;
    let reg = Registered { state: &state, id: id.clone(), handle: handle.clone() };
    let res = tokio::task::spawn_blocking(move || -> ApiResult<Value> {
        let _slot = slot;
        let sweep = Sweep::new(&text, &file, Path::new("."), paths.clone(), &metrics)
            .map_err(|e| ApiError::bad(e.to_string()))?;
        sweep.check(&rows).map_err(|e| ApiError::bad(e.to_string()))?;
        let mut systems = sweep.prepare(&rows).map_err(|e| ApiError::bad(e.to_string()))?;
        // each run bounded by the server's wall-clock limit (or the
        // scenario's own when shorter), set on the validated systems
        for s in &mut systems {
            s.solver.max_wall = Some(s.solver.max_wall.map_or(cap, |w| w.min(cap)));
        }
        check_points(&systems, &paths, max_values)?;
        let results = run_cancellable(&sweep, &systems, &handle, metrics.len());
        let cancelled = handle.cancelled();
        Ok(json!({
            "done": handle.points_done(),
            "cancelled": cancelled,
            "paths": paths,
            "metrics": metrics,
            "points": rows,
            "values": results.iter().map(|(v, _)| v.clone()).collect::<Vec<_>>(),
            "errors": results.iter().map(|(_, e)| e.clone()).collect::<Vec<_>>(),
        }))
    })
    .await
    .map_err(|e| ApiError::internal(format!("the sweep stopped: {e}")))?;
    drop(reg);
    let mut v = res?;
    v["id"] = json!(id);
    Ok(Json(v))
}

/// One grid point's metric values and error (empty when it ran).
type PointResult = (Vec<f64>, String);

/// The sweep's points on as many threads as the machine has, one point at
/// a time per thread (`Sweep::run_systems` on one system: the same numbers
/// as `friction sweep`), counted on `handle`; once `handle` is cancelled no
/// further point starts, and those not run get NaN metrics and the error
/// "cancelled by the user".
fn run_cancellable(
    sweep: &Sweep,
    systems: &[friction_sim::System],
    handle: &RunHandle,
    nm: usize,
) -> Vec<PointResult> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let n = systems.len();
    let results: Vec<Mutex<Option<PointResult>>> = (0..n).map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let threads = crate::cores().min(n.max(1));
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n || handle.cancelled() {
                    break;
                }
                let r = sweep.run_systems(&systems[i..=i], &|| ()).pop();
                *results[i].lock().unwrap_or_else(|e| e.into_inner()) = r;
                handle.point_done();
            });
        }
    });
    results
        .into_iter()
        .map(|r| {
            r.into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .unwrap_or_else(|| (vec![f64::NAN; nm], CANCELLED.to_string()))
        })
        .collect()
}

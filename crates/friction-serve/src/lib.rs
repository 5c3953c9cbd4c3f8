//! # friction-serve
//!
//! `friction serve`: a local web application to explore every friction
//! model and scenario in the browser, and the JSON API behind it. The
//! numbers are the command line's (the same parsing, the same engine, the
//! same checks), and so are the error messages.
//!
//! # Routes
//! ```text
//! GET  /api/models               every model id with its family and one-line summary
//! GET  /api/models/{id}          one model: equations, parameters (symbol, unit, range, default), states, sources
//! GET  /api/examples             the shipped example scenarios (names and first comment line)
//! GET  /api/examples/{name}      one example's TOML text
//! GET  /api/schema               the scenario format: {json: JSON Schema, markdown: reference}
//! POST /api/run[?id=ID&name=N]   run a scenario (TOML body, or JSON: a scenario table or {"toml": TEXT})
//!                                -> {names, columns: {t: [...], ...}, units, summary}
//! GET  /api/progress/{id}        {kind: "run", t, t_end, events, finished} of a run,
//!                                {kind: "sweep", done, total, finished} of a sweep
//!                                (finished: one of the last 256 to end; never started: 404)
//! POST /api/cancel/{id}          stop a running run or sweep (its partial result is returned to its caller)
//! POST /api/sweep[?id=ID]        {toml, grid: ["PATH=A:B:N", ...], metric: [...], zip} as `friction sweep`
//! POST /api/response             one contact under a prescribed slip: a hysteresis loop under
//!                                x = A sin(2π f t), the steady-state friction-velocity curve
//!                                (or that of a slow velocity sweep) and the stick-slip example,
//!                                within the server's wall-clock limit
//! POST /api/compare/tune         a `friction tune --json` result -> its parameter sets (tuned model,
//!                                target model) for the compare view
//! GET  /  and /assets/...        the page (HTML, CSS, JS, uPlot), embedded in the binary
//! ```
//! Bad input gives 400 with `{"error": MESSAGE}`, MESSAGE being what
//! `friction` prints after `error: `; unknown paths give 404, and nothing
//! but the embedded files is ever served. A scenario sent to the server may
//! not read files (a `file` key is refused). Runs are bounded by their
//! `[solver] max_wall`, the server's [`ServeOptions::max_wall`] and
//! [`ServeOptions::max_values`], and each runs on a blocking thread, so
//! that several tabs can run at once.
//!
//! ```no_run
//! let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
//! println!("http://{}/", listener.local_addr().unwrap());
//! friction_serve::serve_blocking(listener, friction_serve::ServeOptions::default()).unwrap();
//! ```
#![warn(missing_docs)]

pub mod assets;
pub mod driven;
pub mod error;
pub mod examples;
pub mod routes;
pub mod steady;

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::routing::{get, post};
use axum::Router;

pub use error::{ApiError, ApiResult};

/// Server-wide limits.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// Longest wall-clock time of one run or sweep \[s\]; a scenario's own
    /// `[solver] max_wall` applies when it is shorter. Default 60 s.
    pub max_wall: f64,
    /// Most output values (rows times columns) of one run; a run that would
    /// produce more is refused (413) with the numbers. Default 2,000,000
    /// (about 40 MB of JSON).
    pub max_values: usize,
    /// Most grid points of one sweep. Default 2,500.
    pub max_points: usize,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions { max_wall: 60.0, max_values: 2_000_000, max_points: 2_500 }
    }
}

/// A run or a sweep in progress, as the progress and cancel routes see it.
#[derive(Debug)]
pub struct RunHandle {
    /// Set to stop the run at its next output row (a sweep: to start no
    /// further grid point).
    pub cancel: AtomicBool,
    /// The time reached (f64 bits).
    t: AtomicU64,
    /// Events so far.
    events: AtomicUsize,
    /// The run's end time \[s\] (0 for a sweep).
    pub t_end: f64,
    /// A sweep's grid points finished so far.
    done: AtomicUsize,
    /// A sweep's number of grid points (0 for a run).
    pub points: usize,
}

impl RunHandle {
    /// A handle for a run to `t_end`.
    pub fn new(t_end: f64) -> Self {
        RunHandle {
            cancel: AtomicBool::new(false),
            t: AtomicU64::new(0f64.to_bits()),
            events: AtomicUsize::new(0),
            t_end,
            done: AtomicUsize::new(0),
            points: 0,
        }
    }

    /// A handle for a sweep of `points` grid points.
    pub fn for_sweep(points: usize) -> Self {
        RunHandle { points, ..RunHandle::new(0.0) }
    }

    /// Whether this is a sweep's handle.
    pub fn is_sweep(&self) -> bool {
        self.points > 0
    }

    /// Count one finished grid point of a sweep.
    pub fn point_done(&self) {
        self.done.fetch_add(1, Ordering::Relaxed);
    }

    /// A sweep's grid points finished so far.
    pub fn points_done(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }

    /// Record the time reached and the events so far.
    pub fn report(&self, t: f64, events: usize) {
        self.t.store(t.to_bits(), Ordering::Relaxed);
        self.events.store(events, Ordering::Relaxed);
    }

    /// The time reached and the events so far.
    pub fn progress(&self) -> (f64, usize) {
        (f64::from_bits(self.t.load(Ordering::Relaxed)), self.events.load(Ordering::Relaxed))
    }

    /// Whether the run was asked to stop.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// What every route shares: the limits and the runs in progress.
#[derive(Debug, Default)]
pub struct AppState {
    /// The server's limits.
    pub opts: ServeOptions,
    runs: Mutex<HashMap<String, Arc<RunHandle>>>,
    /// The last [`FINISHED_KEPT`] runs and sweeps to finish, newest last,
    /// so that a progress poll or a cancel arriving just after the end
    /// is answered `finished` rather than 404.
    finished: Mutex<VecDeque<(String, Arc<RunHandle>)>>,
    next_id: AtomicUsize,
}

/// How many finished runs the progress route still knows.
pub const FINISHED_KEPT: usize = 256;

/// Where a run stands, for the progress and cancel routes.
#[derive(Debug, Clone)]
pub enum RunLookup {
    /// In progress.
    Running(Arc<RunHandle>),
    /// Finished recently (its last progress is kept).
    Finished(Arc<RunHandle>),
}

impl AppState {
    /// A state with limits `opts`.
    pub fn new(opts: ServeOptions) -> Self {
        AppState { opts, ..Default::default() }
    }

    /// Register a run under `id` (a fresh `run-N` when `None`); refused
    /// when a run of that id is in progress.
    pub fn start_run(&self, id: Option<String>, t_end: f64) -> ApiResult<(String, Arc<RunHandle>)> {
        self.register(id, RunHandle::new(t_end))
    }

    /// Register a run or sweep of handle `h` under `id` (a fresh `run-N`
    /// when `None`); refused when one of that id is in progress.
    pub fn register(&self, id: Option<String>, h: RunHandle) -> ApiResult<(String, Arc<RunHandle>)> {
        let id = id.unwrap_or_else(|| format!("run-{}", self.next_id.fetch_add(1, Ordering::Relaxed)));
        if id.is_empty()
            || id.len() > 64
            || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(ApiError::bad(format!(
                "run id `{id}`: valid ids are 1 to 64 letters, digits, `-` or `_`"
            )));
        }
        let mut runs = self.runs.lock().unwrap_or_else(|e| e.into_inner());
        if runs.contains_key(&id) {
            return Err(ApiError {
                status: axum::http::StatusCode::CONFLICT,
                message: format!("a run with id `{id}` is in progress"),
            });
        }
        let h = Arc::new(h);
        runs.insert(id.clone(), h.clone());
        // an id used again is no longer a finished one
        self.finished.lock().unwrap_or_else(|e| e.into_inner()).retain(|(f, _)| *f != id);
        Ok((id, h))
    }

    /// The run `id` in progress.
    pub fn run(&self, id: &str) -> Option<Arc<RunHandle>> {
        self.runs.lock().unwrap_or_else(|e| e.into_inner()).get(id).cloned()
    }

    /// The run `id`, in progress or among the last [`FINISHED_KEPT`] to finish.
    pub fn lookup(&self, id: &str) -> Option<RunLookup> {
        if let Some(h) = self.run(id) {
            return Some(RunLookup::Running(h));
        }
        let fin = self.finished.lock().unwrap_or_else(|e| e.into_inner());
        fin.iter().rev().find(|(f, _)| f == id).map(|(_, h)| RunLookup::Finished(h.clone()))
    }

    /// The run `id` finished: out of the runs in progress, into the
    /// finished ones (the oldest of which is forgotten past [`FINISHED_KEPT`]).
    pub fn end_run(&self, id: &str) {
        let h = self.runs.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
        if let Some(h) = h {
            let mut fin = self.finished.lock().unwrap_or_else(|e| e.into_inner());
            fin.retain(|(f, _)| f != id);
            fin.push_back((id.to_string(), h));
            while fin.len() > FINISHED_KEPT {
                fin.pop_front();
            }
        }
    }
}

/// The application: every API route and the embedded page.
pub fn router(opts: ServeOptions) -> Router {
    let state = Arc::new(AppState::new(opts));
    Router::new()
        .route("/api/models", get(routes::models::list))
        .route("/api/models/{id}", get(routes::models::one))
        .route("/api/examples", get(examples::list))
        .route("/api/examples/{name}", get(examples::one))
        .route("/api/schema", get(examples::schema))
        .route("/api/run", post(routes::run::run))
        .route("/api/progress/{id}", get(routes::run::progress))
        .route("/api/cancel/{id}", post(routes::run::cancel))
        .route("/api/sweep", post(routes::sweep::sweep))
        .route("/api/response", post(routes::response::response))
        .route("/api/compare/tune", post(routes::tuned::tuned))
        .fallback(assets::serve_asset)
        .with_state(state)
}

/// Serve the application on `listener` until the process ends (a
/// multi-threaded tokio runtime of its own; the heavy work runs on its
/// blocking threads).
pub fn serve_blocking(listener: std::net::TcpListener, opts: ServeOptions) -> std::io::Result<()> {
    listener.set_nonblocking(true)?;
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        axum::serve(listener, router(opts)).await
    })
}

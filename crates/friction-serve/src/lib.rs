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
//! but the embedded files is ever served. Every error, the router's own
//! (404, 405, 413) included, has that form. A scenario sent to the server
//! may not read files (a `file` key is refused). Runs are bounded by their
//! `[solver] max_wall`, the server's [`ServeOptions::max_wall`] and
//! [`ServeOptions::max_values`], and each is parsed and runs on a blocking
//! thread, so that several tabs can run at once.
//!
//! # Threat model
//! The server is for the browser of the machine it runs on: no web page of
//! another site open in that browser may drive it, and no client may
//! exhaust it ([`guard`] has the details).
//! ```text
//! Host          must name the address served: 127.0.0.1, localhost, [::1] with its
//!               port (or the --host address; on 0.0.0.0 any IP address) -> else 403
//!               (DNS rebinding)
//! Origin        a request that changes state (not GET, HEAD, OPTIONS) whose Origin,
//!               or without one Referer, is another site -> 403; neither: served
//! run ids       128 random bits from the OS's CSPRNG, hex ([`fresh_id`])
//! jobs          runs, sweeps, /api/response: max_jobs at once (default: one per
//!               core), max_queued waiting (32), then 503 + Retry-After: 2
//! output        max_values per run and per sweep point (2,000,000, about 64 MB
//!               while the answer is built): refused with 413 and the estimate
//!               before the run when its rows are known, stopped there otherwise
//! body          max_body (2 MiB) -> 413; within body_timeout (30 s) -> else 408
//! headers       within header_timeout (5 s) from when the server waits for them,
//!               else the connection is closed; max_connections (256) open at once
//! ```
//! There is no authentication and no TLS: anyone who reaches the port can
//! use the server (which is why `friction serve --host 0.0.0.0` warns).
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
pub mod guard;
pub mod routes;
/// The steady friction-velocity curve of a model: physics, so it lives in
/// `friction_analysis::analysis::steady`; here at its former path.
pub use friction_analysis::analysis::steady;

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use axum::routing::{get, post};
use axum::Router;

pub use error::{ApiError, ApiResult};

/// Server-wide limits.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// Longest wall-clock time of one run or sweep \[s\]; a scenario's own
    /// `[solver] max_wall` applies when it is shorter. Default 60 s.
    pub max_wall: f64,
    /// Most output values (rows times columns) of one run, and of each run
    /// of a sweep; a run whose rows are known beforehand (`output_dt`,
    /// `output_times`) and would produce more is refused (413) with the
    /// numbers and its memory estimate before it starts, one that is not
    /// stops there. Default 2,000,000 (16 MB of numbers, about 40 MB of
    /// JSON).
    pub max_values: usize,
    /// Most grid points of one sweep. Default 2,500.
    pub max_points: usize,
    /// Most runs, sweeps and `/api/response` computations at once (each
    /// sweep runs its points on every core). Default: the number of cores.
    pub max_jobs: usize,
    /// Most such requests waiting for a slot; past it a request gets 503
    /// with `Retry-After` ([`RETRY_AFTER_S`]). Default 32.
    pub max_queued: usize,
    /// Largest request body \[bytes\] (413 past it). Default 2 MiB.
    pub max_body: usize,
    /// Time a client has to send a request's headers (from the moment the
    /// server waits for them, an idle kept-alive connection included); a
    /// connection that has not sent them is closed. Default 5 s.
    pub header_timeout: std::time::Duration,
    /// Time a client has to send a request's body (408 past it). Default 30 s.
    pub body_timeout: std::time::Duration,
    /// Most open connections; further ones wait to be accepted. Default 256.
    pub max_connections: usize,
}

/// The `Retry-After` of a 503 for a full queue \[s\].
pub const RETRY_AFTER_S: u64 = 2;

/// The number of cores (1 when unknown).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |p| p.get())
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            max_wall: 60.0,
            max_values: 2_000_000,
            max_points: 2_500,
            max_jobs: cores(),
            max_queued: 32,
            max_body: 2 << 20,
            header_timeout: std::time::Duration::from_secs(5),
            body_timeout: std::time::Duration::from_secs(30),
            max_connections: 256,
        }
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

/// What every route shares: the limits, the address served, the job
/// slots and the runs in progress.
#[derive(Debug)]
pub struct AppState {
    /// The server's limits.
    pub opts: ServeOptions,
    /// The address the server listens on (what `Host` must name).
    pub local: SocketAddr,
    runs: Mutex<HashMap<String, Arc<RunHandle>>>,
    /// The last [`FINISHED_KEPT`] runs and sweeps to finish, newest last,
    /// so that a progress poll or a cancel arriving just after the end
    /// is answered `finished` rather than 404.
    finished: Mutex<VecDeque<(String, Arc<RunHandle>)>>,
    jobs: Arc<Semaphore>,
    queued: AtomicUsize,
}

/// A job slot ([`AppState::job_slot`]), given back when dropped.
pub type JobSlot = OwnedSemaphorePermit;

/// Counts one request waiting for a slot while it lives.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A fresh run id: 128 random bits from the operating system's CSPRNG, in
/// hex (32 characters).
pub fn fresh_id() -> ApiResult<String> {
    let mut b = [0u8; 16];
    getrandom::fill(&mut b).map_err(|e| ApiError::internal(format!("no random run id: {e}")))?;
    Ok(b.iter().map(|x| format!("{x:02x}")).collect())
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
    /// A state with limits `opts` for a server listening on `local`.
    pub fn new(opts: ServeOptions, local: SocketAddr) -> Self {
        AppState {
            jobs: Arc::new(Semaphore::new(opts.max_jobs.max(1))),
            opts,
            local,
            runs: Mutex::default(),
            finished: Mutex::default(),
            queued: AtomicUsize::new(0),
        }
    }

    /// A slot for one run, sweep or computation: at once when one of
    /// [`ServeOptions::max_jobs`] is free, after a wait in the queue
    /// otherwise, and 503 with `Retry-After` when
    /// [`ServeOptions::max_queued`] requests are waiting already.
    pub async fn job_slot(&self) -> ApiResult<JobSlot> {
        if let Ok(p) = self.jobs.clone().try_acquire_owned() {
            return Ok(p);
        }
        let busy = || {
            ApiError::busy(
                format!(
                    "the server is busy: {} runs, sweeps or computations at once (one per core) and {} \
                     waiting; try again in {RETRY_AFTER_S} s",
                    self.opts.max_jobs.max(1),
                    self.opts.max_queued
                ),
                RETRY_AFTER_S,
            )
        };
        if self.queued.fetch_add(1, Ordering::Relaxed) >= self.opts.max_queued {
            self.queued.fetch_sub(1, Ordering::Relaxed);
            return Err(busy());
        }
        let _w = Waiting(&self.queued);
        self.jobs.clone().acquire_owned().await.map_err(|_| busy())
    }

    /// Register a run under `id` (a fresh random id when `None`); refused
    /// when a run of that id is in progress.
    pub fn start_run(&self, id: Option<String>, t_end: f64) -> ApiResult<(String, Arc<RunHandle>)> {
        self.register(id, RunHandle::new(t_end))
    }

    /// Register a run or sweep of handle `h` under `id` (a fresh random
    /// id, [`fresh_id`], when `None`); refused when one of that id is in
    /// progress.
    pub fn register(&self, id: Option<String>, h: RunHandle) -> ApiResult<(String, Arc<RunHandle>)> {
        let id = match id {
            Some(id) => id,
            None => fresh_id()?,
        };
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
            return Err(ApiError::new(
                axum::http::StatusCode::CONFLICT,
                format!("a run with id `{id}` is in progress"),
            ));
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

/// The application: every API route and the embedded page, for a server
/// listening on `local`, behind [`guard::guard`] (the Host and Origin
/// checks, the body's limits, errors as JSON).
pub fn router(opts: ServeOptions, local: SocketAddr) -> Router {
    let max_body = opts.max_body;
    let state = Arc::new(AppState::new(opts, local));
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
        .layer(axum::extract::DefaultBodyLimit::max(max_body))
        .layer(axum::middleware::from_fn_with_state(state.clone(), guard::guard))
        .with_state(state)
}

/// Serve the application on `listener` until the process ends (a
/// multi-threaded tokio runtime of its own; the heavy work runs on its
/// blocking threads).
pub fn serve_blocking(listener: std::net::TcpListener, opts: ServeOptions) -> std::io::Result<()> {
    listener.set_nonblocking(true)?;
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(async move { serve(tokio::net::TcpListener::from_std(listener)?, opts).await })
}

/// Serve the application on `listener` (HTTP/1.1), each connection given
/// [`ServeOptions::header_timeout`] to send each request's headers, at most
/// [`ServeOptions::max_connections`] open at once.
pub async fn serve(listener: tokio::net::TcpListener, opts: ServeOptions) -> std::io::Result<()> {
    let local = listener.local_addr()?;
    let conns = Arc::new(Semaphore::new(opts.max_connections.max(1)));
    let header_timeout = opts.header_timeout;
    let app = router(opts, local);
    loop {
        let permit = conns.clone().acquire_owned().await.map_err(std::io::Error::other)?;
        let stream = match listener.accept().await {
            Ok((s, _)) => s,
            // out of file descriptors and the like: the connections open
            // end in time (their header timeout)
            Err(_) => {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let svc = hyper_util::service::TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let mut b = hyper::server::conn::http1::Builder::new();
            b.timer(hyper_util::rt::TokioTimer::new()).header_read_timeout(header_timeout);
            let _ = b.serve_connection(hyper_util::rt::TokioIo::new(stream), svc).await;
            drop(permit);
        });
    }
}

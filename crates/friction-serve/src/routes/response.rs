//! `POST /api/response`: one contact under a prescribed slip, the fast path
//! behind the model pages.
//!
//! ```text
//! loop:        x(t) = A sin(2π f t), `cycles` periods, the last one returned
//!              (friction_analysis::tune::cycle: x, v, F and ∮ F dx)
//! curve, kind = "steady": for each v of a grid (both signs, log-spaced
//!              magnitudes from v_min to v_max) the force the contact settles
//!              on at constant slip velocity v (crate::steady)
//! curve, kind = "sweep" (the default):
//!              v(t) = V sin(2π t / T) over one period T (a slow velocity sweep
//!              from 0 to V, back through 0 to -V and to 0): F against v, the
//!              quasi-steady friction-velocity (Stribeck) curve when T is long
//!              against the model's time constants
//! stick_slip:  the shipped scenario examples/lugre_stick_slip.toml (a unit mass
//!              pulled through a 2 N/m spring at 0.1 m/s) with this contact
//! ```
//! Each request is bounded by the server's wall-clock limit (`friction
//! serve --max-wall`, [`crate::ServeOptions::max_wall`]) over all its
//! parts: a part that reaches it stops and the request gets 503 with a
//! message naming the limit ([`crate::driven::Deadline`]).
//!
//! `F` is the model's force (opposing the slip, positive while sliding
//! forward), except in `stick_slip`, whose `F.c` is the scenario column
//! (the force on the mass). The parameters are checked by the same
//! `friction_models::build` as a scenario's `params`, with its messages.

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use friction_analysis::tune::CycleSettings;
use friction_models::AnyModel;
use friction_sim::drive::DriveSettings;
use friction_sim::schedule::Schedule;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::driven::{cycle_within, drive_within, Deadline};
use crate::error::{ApiError, ApiResult};
use crate::steady::{steady_force, velocity_grid};
use crate::AppState;

/// A sine of slip for the hysteresis loop.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoopRequest {
    /// Amplitude A \[m\], > 0.
    pub amplitude: f64,
    /// Frequency f \[Hz\], > 0.
    pub frequency: f64,
    /// Periods simulated, the last one returned (1 to 20; default 3).
    #[serde(default)]
    pub cycles: Option<f64>,
    /// Samples per period (8 to 20000; default 400).
    #[serde(default)]
    pub samples: Option<f64>,
}

/// The friction-velocity curve: the steady state velocity by velocity
/// (`kind = "steady"`), or a slow velocity sweep (`kind = "sweep"`, the
/// default, as before `kind` existed).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CurveRequest {
    /// `"sweep"` (default) or `"steady"`.
    #[serde(default)]
    pub kind: Option<String>,
    /// Peak velocity V [m/s], > 0 (steady: the largest magnitude).
    pub v_max: f64,
    /// Steady: the smallest magnitude [m/s], in (0, v_max] (default v_max / 1000).
    #[serde(default)]
    pub v_min: Option<f64>,
    /// Steady: velocities per sign, log-spaced (1 to 2000; default 40).
    #[serde(default)]
    pub points: Option<f64>,
    /// Sweep: period T of the sweep \[s\], > 0 (default 10).
    #[serde(default)]
    pub duration: Option<f64>,
    /// Sweep: samples over the period (8 to 20000; default 800).
    #[serde(default)]
    pub samples: Option<f64>,
}

/// The body of `POST /api/response`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResponseRequest {
    /// Model id.
    pub model: String,
    /// Parameters, as a scenario contact's `params` table (missing ones take
    /// their defaults).
    #[serde(default)]
    pub params: serde_json::Map<String, Value>,
    /// The hysteresis loop to compute, if any.
    #[serde(default, rename = "loop")]
    pub loop_: Option<LoopRequest>,
    /// The friction-velocity curve to compute, if any.
    #[serde(default)]
    pub curve: Option<CurveRequest>,
    /// Whether to run the stick-slip scenario with this contact.
    #[serde(default)]
    pub stick_slip: bool,
}

/// `key = x` checked against `(lo, hi]`-style bounds, with the message
/// naming the key, the value and the valid range.
fn check(key: &str, x: f64, lo: f64, lo_closed: bool, hi: f64, unit: &str) -> ApiResult<f64> {
    let ok = x.is_finite() && (if lo_closed { x >= lo } else { x > lo }) && x <= hi;
    if ok {
        return Ok(x);
    }
    let l = if lo_closed { '[' } else { '(' };
    let h = if hi.is_infinite() { "inf)".to_string() } else { format!("{hi}]") };
    Err(ApiError::bad(format!("{key} = {x} is out of range; valid range {l}{lo}, {h} {unit}")))
}

fn count(key: &str, x: Option<f64>, default: usize, lo: usize, hi: usize) -> ApiResult<usize> {
    match x {
        None => Ok(default),
        Some(x) if x.fract() == 0.0 && x >= lo as f64 && x <= hi as f64 => Ok(x as usize),
        Some(x) => Err(ApiError::bad(format!("{key} = {x} is out of range; valid: integer in [{lo}, {hi}]"))),
    }
}

/// The model of a request, checked as a scenario's contact is.
pub fn model_of(id: &str, params: &serde_json::Map<String, Value>) -> ApiResult<(AnyModel, toml::Table)> {
    let table: toml::Table = serde_json::from_value(Value::Object(params.clone()))
        .map_err(|e| ApiError::bad(format!("params: {e}")))?;
    let map = friction_sim::scenario::toml_to_params(&table);
    let model = friction_models::build(id, &map).map_err(|e| ApiError::bad(e.to_string()))?;
    Ok((model, table))
}

fn loop_of(model: &AnyModel, r: &LoopRequest, deadline: &Deadline) -> ApiResult<Value> {
    let a = check("loop.amplitude", r.amplitude, 0.0, false, f64::INFINITY, "m")?;
    let f = check("loop.frequency", r.frequency, 0.0, false, f64::INFINITY, "Hz")?;
    let settings = CycleSettings {
        frequency: f,
        cycles: count("loop.cycles", r.cycles, 3, 1, 20)?,
        samples_per_cycle: count("loop.samples", r.samples, 400, 8, 20_000)?,
        ..CycleSettings::default()
    };
    let c = cycle_within(model, a, &settings, deadline)?;
    Ok(json!({"t": c.t, "x": c.x, "v": c.v, "F": c.f, "dissipation": c.dissipation}))
}

fn curve_of(model: &AnyModel, r: &CurveRequest, deadline: &Deadline) -> ApiResult<Value> {
    let vmax = check("curve.v_max", r.v_max, 0.0, false, f64::INFINITY, "m/s")?;
    match r.kind.as_deref().unwrap_or("sweep") {
        "sweep" => {
            for (key, given) in [("v_min", r.v_min.is_some()), ("points", r.points.is_some())] {
                if given {
                    return Err(ApiError::bad(format!(
                        "curve.{key} applies to kind = \"steady\" only (this curve is a sweep)"
                    )));
                }
            }
        }
        "steady" => return steady_of(model, r, vmax, deadline),
        k => {
            return Err(ApiError::bad(format!(
                "curve.kind = \"{k}\" is not a curve kind; valid: \"steady\", \"sweep\""
            )))
        }
    }
    let period = check("curve.duration", r.duration.unwrap_or(10.0), 0.0, false, f64::INFINITY, "s")?;
    let n = count("curve.samples", r.samples, 800, 8, 20_000)?;
    let times: Vec<f64> = (0..=n).map(|k| period * k as f64 / n as f64).collect();
    let motion = Schedule::VelocitySine { bias: 0.0, amplitude: vmax, frequency: 1.0 / period, offset: 0.0 };
    let out = drive_within(model, motion, &times, &DriveSettings::default(), deadline, "curve")?;
    let (iv, i_f) = match (out.col("sv.c"), out.col("F.c")) {
        (Some(a), Some(b)) => (a, b),
        _ => return Err(ApiError::internal("the driven contact has no sv.c or F.c column")),
    };
    Ok(json!({
        "t": out.rows.iter().map(|r| r[0]).collect::<Vec<_>>(),
        "v": out.rows.iter().map(|r| r[iv]).collect::<Vec<_>>(),
        "F": out.rows.iter().map(|r| -r[i_f]).collect::<Vec<_>>(),
    }))
}

/// The steady-state curve ([`crate::steady`]): `{kind: "steady", v, F,
/// settled, steps, unsettled: [{v, F, reason}]}`, `F` null where the force
/// did not settle.
fn steady_of(model: &AnyModel, r: &CurveRequest, vmax: f64, deadline: &Deadline) -> ApiResult<Value> {
    for (key, given) in [("duration", r.duration.is_some()), ("samples", r.samples.is_some())] {
        if given {
            return Err(ApiError::bad(format!(
                "curve.{key} applies to kind = \"sweep\" only (this curve is steady: use v_min, v_max, points)"
            )));
        }
    }
    let vmin = check("curve.v_min", r.v_min.unwrap_or(vmax / 1000.0), 0.0, false, vmax, "m/s")?;
    let n = count("curve.points", r.points, 40, 1, 2000)?;
    let mut pts = Vec::with_capacity(2 * n);
    for v in velocity_grid(vmin, vmax, n) {
        deadline.remaining("curve")?;
        pts.push(steady_force(model, v, &|| deadline.remaining("curve").is_err()));
    }
    deadline.remaining("curve")?;
    Ok(json!({
        "kind": "steady",
        "v": pts.iter().map(|p| p.v).collect::<Vec<_>>(),
        "F": pts.iter().map(|p| if p.settled { json!(p.force) } else { Value::Null }).collect::<Vec<_>>(),
        "settled": pts.iter().map(|p| p.settled).collect::<Vec<_>>(),
        "steps": pts.iter().map(|p| p.steps).collect::<Vec<_>>(),
        "unsettled": pts.iter().filter(|p| !p.settled)
            .map(|p| json!({"v": p.v, "F": if p.force.is_finite() { json!(p.force) } else { Value::Null }, "reason": p.reason}))
            .collect::<Vec<_>>(),
    }))
}

/// The stick-slip scenario with the contact `model` = `params`.
fn stick_slip_of(id: &str, params: toml::Table, deadline: &Deadline) -> ApiResult<Value> {
    let base = crate::examples::find("lugre_stick_slip").unwrap_or_default();
    let mut t: toml::Table = base.parse().map_err(|e| ApiError::internal(format!("{e}")))?;
    let contact = t
        .get_mut("contact")
        .and_then(|c| c.as_array_mut())
        .and_then(|a| a.first_mut())
        .and_then(|c| c.as_table_mut())
        .ok_or_else(|| ApiError::internal("lugre_stick_slip.toml has no contact"))?;
    contact.insert("model".into(), toml::Value::String(id.into()));
    contact.insert("params".into(), toml::Value::Table(params));
    // the edited table is validated as it is (no TOML text is written)
    let mut sys = friction_sim::scenario::Document::from_table(t, "examples/lugre_stick_slip.toml")
        .validate(std::path::Path::new("."))
        .map_err(|e| ApiError::bad(e.to_string()))?;
    sys.solver.max_wall = Some(deadline.remaining("stick_slip")?);
    let out = friction_sim::simulate(&sys).map_err(|e| deadline.classify("stick_slip", &e.to_string()))?;
    if let Some(f) = out.failure.as_deref().filter(|f| f.contains("max_wall")) {
        return Err(deadline.exceeded("stick_slip", f));
    }
    let col = |name: &str| out.col(name).map(|i| out.rows.iter().map(|r| r[i]).collect::<Vec<_>>());
    Ok(json!({
        "t": col("t"), "x.m": col("x.m"), "v.m": col("v.m"), "F.c": col("F.c"),
        "events": out.events.iter().map(|e| json!({"t": e.t, "contact": e.contact, "from": e.from, "to": e.to})).collect::<Vec<_>>(),
        "error": out.failure,
    }))
}

/// `POST /api/response`: `{model, loop: {t, x, v, F, dissipation}, curve:
/// {t, v, F}, stick_slip: {t, x.m, v.m, F.c, events, error}}`, each present
/// when asked for. The request waits for a job slot
/// ([`AppState::job_slot`]); it is read and computed on a blocking thread,
/// which keeps the slot until it ends.
pub async fn response(State(state): State<Arc<AppState>>, body: String) -> ApiResult<Json<Value>> {
    let slot = state.job_slot().await?;
    let deadline = Deadline::new(state.opts.max_wall);
    let res = tokio::task::spawn_blocking(move || -> ApiResult<Value> {
        let _slot = slot;
        let req: ResponseRequest =
            serde_json::from_str(&body).map_err(|e| ApiError::bad(format!("request body: {e}")))?;
        let (model, table) = model_of(&req.model, &req.params)?;
        let mut v = json!({"model": req.model});
        if let Some(l) = &req.loop_ {
            v["loop"] = loop_of(&model, l, &deadline)?;
        }
        if let Some(c) = &req.curve {
            v["curve"] = curve_of(&model, c, &deadline)?;
        }
        if req.stick_slip {
            v["stick_slip"] = stick_slip_of(&req.model, table, &deadline)?;
        }
        Ok(v)
    })
    .await
    .map_err(|e| ApiError::internal(format!("the computation stopped: {e}")))?;
    res.map(Json)
}

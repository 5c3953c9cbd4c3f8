//! `POST /api/response`: one contact under a prescribed slip, the fast path
//! behind the model pages.
//!
//! ```text
//! loop:        x(t) = A sin(2π f t), `cycles` periods, the last one returned
//!              (friction_analysis::tune::cycle: x, v, F and ∮ F dx)
//! curve:       v(t) = V sin(2π t / T) over one period T (a slow velocity sweep
//!              from 0 to V, back through 0 to -V and to 0): F against v, the
//!              quasi-steady friction-velocity (Stribeck) curve when T is long
//!              against the model's time constants
//! stick_slip:  the shipped scenario examples/lugre_stick_slip.toml (a unit mass
//!              pulled through a 2 N/m spring at 0.1 m/s) with this contact
//! ```
//! `F` is the model's force (opposing the slip, positive while sliding
//! forward), except in `stick_slip`, whose `F.c` is the scenario column
//! (the force on the mass). The parameters are checked by the same
//! `friction_models::build` as a scenario's `params`, with its messages.

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use friction_analysis::tune::{cycle, CycleSettings};
use friction_models::AnyModel;
use friction_sim::drive::{drive_outcome, DriveSettings};
use friction_sim::schedule::Schedule;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::{ApiError, ApiResult};
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

/// A slow velocity sweep for the friction-velocity curve.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CurveRequest {
    /// Peak velocity V [m/s], > 0.
    pub v_max: f64,
    /// Period T of the sweep \[s\], > 0 (default 10).
    #[serde(default)]
    pub duration: Option<f64>,
    /// Samples over the period (8 to 20000; default 800).
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

fn loop_of(model: &AnyModel, r: &LoopRequest) -> ApiResult<Value> {
    let a = check("loop.amplitude", r.amplitude, 0.0, false, f64::INFINITY, "m")?;
    let f = check("loop.frequency", r.frequency, 0.0, false, f64::INFINITY, "Hz")?;
    let settings = CycleSettings {
        frequency: f,
        cycles: count("loop.cycles", r.cycles, 3, 1, 20)?,
        samples_per_cycle: count("loop.samples", r.samples, 400, 8, 20_000)?,
        ..CycleSettings::default()
    };
    let c = cycle(model, a, &settings).map_err(|e| ApiError::bad(e.to_string()))?;
    Ok(json!({"t": c.t, "x": c.x, "v": c.v, "F": c.f, "dissipation": c.dissipation}))
}

fn curve_of(model: &AnyModel, r: &CurveRequest) -> ApiResult<Value> {
    let vmax = check("curve.v_max", r.v_max, 0.0, false, f64::INFINITY, "m/s")?;
    let period = check("curve.duration", r.duration.unwrap_or(10.0), 0.0, false, f64::INFINITY, "s")?;
    let n = count("curve.samples", r.samples, 800, 8, 20_000)?;
    let times: Vec<f64> = (0..=n).map(|k| period * k as f64 / n as f64).collect();
    let motion = Schedule::VelocitySine { bias: 0.0, amplitude: vmax, frequency: 1.0 / period, offset: 0.0 };
    let out = drive_outcome(
        model.clone(),
        motion,
        Schedule::Constant { value: 1.0 },
        &times,
        &DriveSettings::default(),
    )
    .map_err(|e| ApiError::bad(e.to_string()))?;
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

/// The stick-slip scenario with the contact `model` = `params`.
fn stick_slip_of(id: &str, params: toml::Table, max_wall: f64) -> ApiResult<Value> {
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
    let text = toml::to_string(&t).map_err(|e| ApiError::internal(e.to_string()))?;
    let mut sys =
        friction_sim::scenario::parse(&text, "examples/lugre_stick_slip.toml", std::path::Path::new("."))
            .map_err(|e| ApiError::bad(e.to_string()))?;
    sys.solver.max_wall = Some(max_wall);
    let out = friction_sim::simulate(&sys).map_err(|e| ApiError::bad(e.to_string()))?;
    let col = |name: &str| out.col(name).map(|i| out.rows.iter().map(|r| r[i]).collect::<Vec<_>>());
    Ok(json!({
        "t": col("t"), "x.m": col("x.m"), "v.m": col("v.m"), "F.c": col("F.c"),
        "events": out.events.iter().map(|e| json!({"t": e.t, "contact": e.contact, "from": e.from, "to": e.to})).collect::<Vec<_>>(),
        "error": out.failure,
    }))
}

/// `POST /api/response`: `{model, loop: {t, x, v, F, dissipation}, curve:
/// {t, v, F}, stick_slip: {t, x.m, v.m, F.c, events, error}}`, each present
/// when asked for.
pub async fn response(State(state): State<Arc<AppState>>, body: String) -> ApiResult<Json<Value>> {
    let req: ResponseRequest =
        serde_json::from_str(&body).map_err(|e| ApiError::bad(format!("request body: {e}")))?;
    let (model, table) = model_of(&req.model, &req.params)?;
    let max_wall = state.opts.max_wall;
    let res = tokio::task::spawn_blocking(move || -> ApiResult<Value> {
        let mut v = json!({"model": req.model});
        if let Some(l) = &req.loop_ {
            v["loop"] = loop_of(&model, l)?;
        }
        if let Some(c) = &req.curve {
            v["curve"] = curve_of(&model, c)?;
        }
        if req.stick_slip {
            v["stick_slip"] = stick_slip_of(&req.model, table, max_wall)?;
        }
        Ok(v)
    })
    .await
    .map_err(|e| ApiError::internal(format!("the computation stopped: {e}")))?;
    res.map(Json)
}

//! The shipped example scenarios (`examples/*.toml`), embedded so that the
//! page can open them without the repository.

use axum::extract::Path;
use axum::Json;
use serde_json::{json, Value};

use crate::error::{ApiError, ApiResult};

/// Every shipped example: (name, TOML text).
pub const EXAMPLES: &[(&str, &str)] = &[
    ("andersson_chirp", include_str!("../../../examples/andersson_chirp.toml")),
    ("andersson_sine", include_str!("../../../examples/andersson_sine.toml")),
    ("andersson_step_large", include_str!("../../../examples/andersson_step_large.toml")),
    ("andersson_step_small", include_str!("../../../examples/andersson_step_small.toml")),
    ("ball_on_compliant_floor", include_str!("../../../examples/ball_on_compliant_floor.toml")),
    ("breakaway_rate", include_str!("../../../examples/breakaway_rate.toml")),
    ("clutch", include_str!("../../../examples/clutch.toml")),
    ("coulomb_free_decay", include_str!("../../../examples/coulomb_free_decay.toml")),
    ("clutch_fade", include_str!("../../../examples/clutch_fade.toml")),
    ("coupled_clutches", include_str!("../../../examples/coupled_clutches.toml")),
    ("dankowicz_nondimensional", include_str!("../../../examples/dankowicz_nondimensional.toml")),
    ("downhill_brake", include_str!("../../../examples/downhill_brake.toml")),
    ("fmu_contact_lugre", include_str!("../../../examples/fmu_contact_lugre.toml")),
    ("freewheel_crank", include_str!("../../../examples/freewheel_crank.toml")),
    ("frictional_lag", include_str!("../../../examples/frictional_lag.toml")),
    ("iwan_loops", include_str!("../../../examples/iwan_loops.toml")),
    ("jointed_decay", include_str!("../../../examples/jointed_decay.toml")),
    ("jointed_frf", include_str!("../../../examples/jointed_frf.toml")),
    ("lugre_stick_slip", include_str!("../../../examples/lugre_stick_slip.toml")),
    ("lugre_sweep", include_str!("../../../examples/lugre_sweep.toml")),
    ("olsson_two_interfaces", include_str!("../../../examples/olsson_two_interfaces.toml")),
    ("presliding_inner_loop", include_str!("../../../examples/presliding_inner_loop.toml")),
    ("stick_slip_stops", include_str!("../../../examples/stick_slip_stops.toml")),
    ("three_mass_chain", include_str!("../../../examples/three_mass_chain.toml")),
    ("torque_burst_brake", include_str!("../../../examples/torque_burst_brake.toml")),
];

/// The example `name`.
pub fn find(name: &str) -> Option<&'static str> {
    EXAMPLES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The first comment line of a scenario, without its `# `.
fn first_comment(text: &str) -> &str {
    text.lines().find_map(|l| l.strip_prefix('#')).map(str::trim).unwrap_or("")
}

/// `GET /api/examples`: `[{name, title}]`.
pub async fn list() -> Json<Value> {
    Json(json!(EXAMPLES
        .iter()
        .map(|(n, t)| json!({"name": n, "file": format!("examples/{n}.toml"), "title": first_comment(t)}))
        .collect::<Vec<_>>()))
}

/// `GET /api/examples/{name}`: `{name, file, toml}`.
pub async fn one(Path(name): Path<String>) -> ApiResult<Json<Value>> {
    let name = name.strip_suffix(".toml").unwrap_or(&name);
    match find(name) {
        Some(t) => Ok(Json(json!({"name": name, "file": format!("examples/{name}.toml"), "toml": t}))),
        None => Err(ApiError::not_found(format!(
            "no example `{name}`; examples: {}",
            EXAMPLES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
        ))),
    }
}

/// `GET /api/schema`: the scenario format as `friction schema` prints it:
/// `{json: the JSON Schema, markdown: the reference page}`.
pub async fn schema() -> Json<Value> {
    Json(json!({
        "json": friction_sim::scenario_schema::json_schema(),
        "markdown": friction_sim::scenario_schema::markdown(),
    }))
}

//! The model catalogue as data: one serialisable description of every model,
//! the same for every face (the C library's `friction_model_describe`, the
//! Python package's `describe`, `friction models ID --json` and the web
//! explorer's `GET /api/models/{id}`).
//!
//! A [`ModelDescription`] serialises (serde) to a JSON object with these
//! fields; the schema is the repository's `docs/model.schema.json`
//! (generated from these types by [`json_schema`], a test keeps it current):
//!
//! | field | type | meaning |
//! |---|---|---|
//! | `id` | string | the model id of scenario files |
//! | `family` | string | `static map`, `set-valued stick`, `continuous state`, `hysteresis operator`, `wrapper` |
//! | `summary` | string | one line |
//! | `equations` | string | plain text, the block of the model's documentation |
//! | `parameters` | array of [`ParamDescription`] | in the order of the model's table |
//! | `states` | string | what the continuous states and the memory are |
//! | `n_states`, `n_memory` | integer or null | the counts with default parameters (null when the model has no default) |
//! | `state_layout` | string | the per-contact state vector of the per-step update |
//! | `update` | string | how the per-step update advances it ([`update_text`]) |
//! | `update_method` | string or null | `direct`, `exact` or `implicit` with default parameters |
//! | `sources` | string | the papers, by author and year, each followed by its full entry in brackets |
//! | `references` | array of [`ReferenceEntry`] | the bibliography entries cited by `sources` |
//! | `load_parameter` | string or null | the model's own normal-load parameter ([`crate::LOAD_PARAMS`]) |
//!
//! Every text cites papers by author and year with the full entry
//! ([`crate::references::expand`]).
//!
//! ```
//! let d = friction_models::catalogue::describe_id("lugre").unwrap();
//! assert_eq!(d.family, "continuous state");
//! let sigma0 = d.parameters.iter().find(|p| p.name == "sigma0").unwrap();
//! assert_eq!((sigma0.unit, sigma0.min, sigma0.max), ("N/m", Some(0.0), None));
//! let json = serde_json::to_value(&d).unwrap();
//! assert_eq!(json["parameters"][0]["default"], serde_json::json!(1e5)); // σ0 in N/m
//! assert!(json["sources"].as_str().unwrap().contains("Canudas de Wit"));
//! ```

use serde::Serialize;

use crate::model::{Family, ModelInfo};
use crate::params::{ParamKind, ParamSpec};
use crate::registry::{all, build, info, AnyModel};
use crate::{references, FrictionModel, ParamMap};

/// The description of one model (see the module documentation for the JSON).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ModelDescription {
    /// The model id used in scenario files.
    pub id: &'static str,
    /// Behavioural family ([`Family::name`]).
    pub family: &'static str,
    /// One-line description.
    pub summary: String,
    /// The equations, as plain text.
    pub equations: String,
    /// The parameter table.
    pub parameters: Vec<ParamDescription>,
    /// What the internal states are.
    pub states: String,
    /// Continuous states with default parameters (`None` when the model has
    /// no default parameter set).
    pub n_states: Option<usize>,
    /// Discrete memory values with default parameters.
    pub n_memory: Option<usize>,
    /// The per-contact state vector of [`crate::update`].
    pub state_layout: &'static str,
    /// How [`crate::update::update`] advances the model ([`update_text`]).
    pub update: &'static str,
    /// [`crate::update::Method::name`] with default parameters.
    pub update_method: Option<&'static str>,
    /// The sources, with each citation followed by its full entry.
    pub sources: String,
    /// The bibliography entries the sources cite.
    pub references: Vec<ReferenceEntry>,
    /// The model's own normal-load parameter, if it has one.
    pub load_parameter: Option<&'static str>,
}

/// One parameter of a [`ModelDescription`].
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ParamDescription {
    /// Parameter name (the key in a scenario's `params` table).
    pub name: &'static str,
    /// Mathematical symbol.
    pub symbol: &'static str,
    /// SI unit.
    pub unit: &'static str,
    /// `real`, `optional real`, `integer`, `bool`, `choice`, `rows`, `model`.
    pub kind: &'static str,
    /// Whether a value must be given (no default).
    pub required: bool,
    /// The valid range as text (`(0, inf)`, `integer >= 1`, `a | b`).
    pub range: String,
    /// Lower bound of a numeric range (`None`: unbounded or not numeric).
    pub min: Option<f64>,
    /// Upper bound of a numeric range (`None`: unbounded or not numeric).
    pub max: Option<f64>,
    /// Whether `min` itself is valid.
    pub min_inclusive: bool,
    /// Whether `max` itself is valid.
    pub max_inclusive: bool,
    /// The default as a value: a number, a boolean, a string, or null when
    /// the parameter is required or absent unless given.
    pub default: DefaultValue,
    /// The default as the documentation prints it (`0.3`, `"stribeck"`,
    /// `required`, `none`).
    pub default_text: String,
    /// What the parameter means, with full references.
    pub description: String,
    /// The same text as `description` (the C library's original key).
    pub doc: String,
    /// The valid choices of a `choice` parameter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options: Option<&'static [&'static str]>,
    /// The columns of each row of a `rows` parameter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub columns: Option<&'static [&'static str]>,
}

/// A parameter's default value.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum DefaultValue {
    /// A real default.
    Real(f64),
    /// An integer default.
    Integer(u64),
    /// A boolean default.
    Bool(bool),
    /// A choice or inner model id.
    Text(&'static str),
    /// No default (required, or absent unless given): JSON null.
    None,
}

/// One bibliography entry ([`references::Reference`]).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ReferenceEntry {
    /// Stable key (`canudas1995`).
    pub key: &'static str,
    /// The in-text citation (authors and year).
    pub cite: &'static str,
    /// The full entry on one line.
    pub full: String,
}

/// The per-contact state vector of the per-step update ([`crate::update::layout`]).
pub const STATE_LAYOUT: &str = "[t, x, z (n_states), mem (n_memory)]";

/// How [`crate::update::update`] advances the model `m` (the text of the
/// table in [`crate::update`]'s documentation).
///
/// ```
/// let lugre = friction_models::info("lugre").unwrap();
/// assert!(friction_models::catalogue::update_text(lugre).starts_with("exact"));
/// ```
pub fn update_text(m: &ModelInfo) -> &'static str {
    match m.id {
        "lugre" | "dankowicz" => "exact: closed-form relaxation of the state at constant slip velocity",
        "dahl" => "exact for exponent = 1 (closed-form relaxation), implicit otherwise",
        _ => match m.family {
            Family::StaticMap => "direct: F(v) at the step's velocity",
            Family::SetValued => {
                "direct: the sliding force F(v) at the step's velocity, 0 for a zero slip increment (the caller owns stick)"
            }
            Family::Hysteresis => "direct: exact rate-independent update of the memory at the step's end",
            Family::ContinuousState => {
                "implicit: sub-stepped, extrapolated backward Euler (L-stable), local error 1e-6"
            }
            Family::Wrapper => "as its inner model: direct without continuous states, implicit with",
        },
    }
}

fn kind_name(k: &ParamKind) -> &'static str {
    match k {
        ParamKind::Real { .. } => "real",
        ParamKind::OptionalReal { .. } => "optional real",
        ParamKind::Integer { .. } => "integer",
        ParamKind::Bool { .. } => "bool",
        ParamKind::Choice { .. } => "choice",
        ParamKind::Rows { .. } => "rows",
        ParamKind::Model { .. } => "model",
    }
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// The description of one parameter.
pub fn describe_param(p: &ParamSpec) -> ParamDescription {
    let (min, max, min_inclusive, max_inclusive) = match p.kind {
        ParamKind::Real { range, .. } | ParamKind::OptionalReal { range } | ParamKind::Rows { range, .. } => {
            (finite(range.lo), finite(range.hi), range.lo_closed, range.hi_closed)
        }
        ParamKind::Integer { min, max, .. } => {
            (Some(min as f64), (max != u64::MAX).then_some(max as f64), true, true)
        }
        _ => (None, None, false, false),
    };
    let (default, required) = match p.kind {
        ParamKind::Real { default: Some(d), .. } => (DefaultValue::Real(d), false),
        ParamKind::Real { default: None, .. } | ParamKind::Rows { .. } => (DefaultValue::None, true),
        ParamKind::OptionalReal { .. } => (DefaultValue::None, false),
        ParamKind::Integer { default, .. } => (DefaultValue::Integer(default), false),
        ParamKind::Bool { default } => (DefaultValue::Bool(default), false),
        ParamKind::Choice { default, .. } | ParamKind::Model { default } => {
            (DefaultValue::Text(default), false)
        }
    };
    let description = references::expand(p.doc);
    ParamDescription {
        name: p.name,
        symbol: p.symbol,
        unit: p.unit,
        kind: kind_name(&p.kind),
        required,
        range: p.range_text(),
        min,
        max,
        min_inclusive,
        max_inclusive,
        default,
        default_text: p.default_text(),
        doc: description.clone(),
        description,
        options: match p.kind {
            ParamKind::Choice { options, .. } => Some(options),
            _ => None,
        },
        columns: match p.kind {
            ParamKind::Rows { columns, .. } => Some(columns),
            _ => None,
        },
    }
}

/// The description of model `m`.
pub fn describe(m: &ModelInfo) -> ModelDescription {
    let built: Option<AnyModel> = build(m.id, &ParamMap::new()).ok();
    ModelDescription {
        id: m.id,
        family: m.family.name(),
        summary: references::expand(m.summary),
        equations: references::expand(m.equations),
        parameters: m.params.iter().map(describe_param).collect(),
        states: references::expand(m.states),
        n_states: built.as_ref().map(|b| b.n_states()),
        n_memory: built.as_ref().map(|b| b.n_memory()),
        state_layout: STATE_LAYOUT,
        update: update_text(m),
        update_method: built.as_ref().map(|b| crate::update::method(b).name()),
        sources: references::expand(m.sources),
        references: references::cited_in(m.sources)
            .into_iter()
            .map(|r| ReferenceEntry { key: r.key, cite: r.cite, full: r.full() })
            .collect(),
        load_parameter: crate::LOAD_PARAMS.iter().find(|(id, _)| *id == m.id).map(|(_, k)| *k),
    }
}

impl ModelDescription {
    /// The description as one line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a description serialises")
    }
}

/// The description of the model with id `id`, `None` for an unknown id.
pub fn describe_id(id: &str) -> Option<ModelDescription> {
    info(id).map(describe)
}

/// Every model's description, in the registry's order.
pub fn catalogue() -> Vec<ModelDescription> {
    all().iter().map(|m| describe(m)).collect()
}

/// The JSON Schema of a [`ModelDescription`] (the file `docs/model.schema.json`).
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(ModelDescription);
    serde_json::to_string_pretty(&schema).expect("a schema serialises") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The update text agrees with the update the model really gets.
    #[test]
    fn update_text_names_the_method_the_update_uses() {
        for d in catalogue() {
            let Some(method) = d.update_method else { continue };
            if d.family == "wrapper" || d.id == "dahl" {
                continue;
            }
            assert!(d.update.starts_with(method), "{}: `{}` but the update is {method}", d.id, d.update);
        }
        let dahl = describe_id("dahl").unwrap();
        assert_eq!(dahl.update_method, Some("exact"), "dahl's default exponent is 1");
    }

    /// Numeric bounds, defaults and the text range say the same thing.
    #[test]
    fn bounds_agree_with_the_range_text_and_hold_the_default() {
        for d in catalogue() {
            for p in &d.parameters {
                if let Some(lo) = p.min {
                    assert!(p.range.contains(&format!("{lo}")), "{}.{}: {lo} vs {}", d.id, p.name, p.range);
                }
                if let Some(hi) = p.max {
                    assert!(p.range.contains(&format!("{hi}")), "{}.{}: {hi} vs {}", d.id, p.name, p.range);
                }
                if let DefaultValue::Real(x) = p.default {
                    let lo_ok = p.min.is_none_or(|lo| if p.min_inclusive { x >= lo } else { x > lo });
                    let hi_ok = p.max.is_none_or(|hi| if p.max_inclusive { x <= hi } else { x < hi });
                    assert!(lo_ok && hi_ok, "{}.{}: default {x} outside {}", d.id, p.name, p.range);
                }
                assert_eq!(p.doc, p.description);
            }
            assert!(!d.references.is_empty(), "{}: no reference", d.id);
            assert!(!d.sources.to_lowercase().contains("seed 0"), "{}", d.id);
        }
    }

    /// The JSON carries the keys every face documents, with null for an
    /// unbounded side and for a required default.
    #[test]
    fn json_has_the_documented_keys() {
        let v = serde_json::to_value(describe_id("maxwell_slip").unwrap()).unwrap();
        for key in [
            "id",
            "family",
            "summary",
            "equations",
            "parameters",
            "states",
            "state_layout",
            "update",
            "update_method",
            "sources",
            "references",
            "load_parameter",
            "n_states",
            "n_memory",
        ] {
            assert!(v.get(key).is_some(), "{key} missing");
        }
        let rows = v["parameters"].as_array().unwrap().iter().find(|p| p["kind"] == "rows").unwrap();
        assert!(rows["default"].is_null() && rows["required"] == true && rows["columns"].is_array());
        let exp = serde_json::to_value(describe_id("stribeck_exp").unwrap()).unwrap();
        assert_eq!(exp["load_parameter"], "normal");
    }

    /// `docs/model.schema.json` is the schema of these types (regenerate it
    /// with `FRICTION_WRITE_SCHEMA=1 cargo test --workspace --lib catalogue`).
    #[test]
    fn model_schema_file_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/model.schema.json");
        let now = json_schema();
        if std::env::var_os("FRICTION_WRITE_SCHEMA").is_some() {
            std::fs::write(path, &now).unwrap();
        }
        let file = std::fs::read_to_string(path).unwrap_or_default();
        assert!(file == now, "{path} is stale: regenerate it with FRICTION_WRITE_SCHEMA=1 cargo test --workspace --lib catalogue");
    }
}

//! The scenario schema as a JSON Schema (draft-07), generated from the
//! tables of [`super`].

use friction_models::{ParamKind, ParamSpec, Range};
use serde_json::{json, Map, Value};

use super::*;
use crate::system::MAX_NAME_LEN;

fn bounds(v: &mut Map<String, Value>, lo: Option<(f64, bool)>, hi: Option<(f64, bool)>) {
    if let Some((x, incl)) = lo.filter(|(x, _)| x.is_finite()) {
        v.insert(if incl { "minimum" } else { "exclusiveMinimum" }.into(), json!(x));
    }
    if let Some((x, incl)) = hi.filter(|(x, _)| x.is_finite()) {
        v.insert(if incl { "maximum" } else { "exclusiveMaximum" }.into(), json!(x));
    }
}

/// A bound of a range: the value and whether it is allowed.
type Bound = Option<(f64, bool)>;

fn range_bounds(r: Range) -> (Bound, Bound) {
    (Some((r.lo, r.lo_closed)), Some((r.hi, r.hi_closed)))
}

fn name_schema() -> Value {
    json!({
        "type": "string",
        "pattern": format!("^[A-Za-z0-9_-][A-Za-z0-9_.-]{{0,{}}}$", MAX_NAME_LEN - 1),
    })
}

fn schedule_table_schema() -> Value {
    let types: Vec<&str> = SCHEDULES.iter().map(|s| s.name).collect();
    let all_of: Vec<Value> = SCHEDULES
        .iter()
        .map(|s| {
            let mut props = Map::new();
            props.insert("type".into(), json!({ "const": s.name }));
            let mut required = vec!["type"];
            for k in s.keys {
                let mut p = match k.name {
                    "points" => json!({ "type": "array", "items": { "type": "number" }, "minItems": 2 }),
                    "file" => json!({ "type": "string" }),
                    "name" => name_schema(),
                    "quantity" => json!({ "enum": ["value", "velocity"], "default": "value" }),
                    "terms" | "factors" => json!({
                        "type": "array",
                        "items": { "oneOf": [{ "type": "number" }, { "$ref": "#/definitions/schedule" }] },
                        "minItems": 1,
                        "maxItems": crate::system::schedule::MAX_TERMS,
                    }),
                    "inner" => {
                        json!({ "oneOf": [{ "type": "number" }, { "$ref": "#/definitions/schedule" }] })
                    }
                    _ => {
                        let mut m = Map::new();
                        m.insert("type".into(), json!("number"));
                        bounds(&mut m, k.lo, k.hi);
                        if let Some(d) = k.default {
                            m.insert("default".into(), json!(d));
                        }
                        Value::Object(m)
                    }
                };
                let unit = if k.unit.is_empty() { String::new() } else { format!(" [{}]", k.unit) };
                p["description"] = json!(format!("{}{unit}", k.doc));
                props.insert(k.name.into(), p);
                if k.default.is_none() {
                    required.push(k.name);
                }
            }
            json!({
                "if": { "properties": { "type": { "const": s.name } }, "required": ["type"] },
                "then": {
                    "description": s.formula,
                    "properties": props,
                    "required": required,
                    "additionalProperties": false,
                },
            })
        })
        .collect();
    json!({
        "type": "object",
        "description": "a schedule: a prescribed signal of time (see the `type`s)",
        "properties": { "type": { "enum": types, "description": "the kind of signal" } },
        "required": ["type"],
        "allOf": all_of,
    })
}

fn key_schema(k: &Key) -> Value {
    let mut v = match k.kind {
        Kind::Name => name_schema(),
        Kind::Text => json!({ "type": "string" }),
        Kind::Number { lo, hi } => {
            let mut m = Map::new();
            m.insert("type".into(), json!("number"));
            bounds(&mut m, lo, hi);
            Value::Object(m)
        }
        Kind::Integer { min } => json!({ "type": "integer", "minimum": min }),
        Kind::Member | Kind::Body => json!({ "type": "string" }),
        Kind::Pair | Kind::NodePair => {
            json!({ "type": "array", "items": { "type": "string" }, "minItems": 2, "maxItems": 2 })
        }
        Kind::Signal => json!({ "oneOf": [{ "type": "number" }, { "$ref": "#/definitions/schedule" }] }),
        Kind::ScheduleTable => json!({ "$ref": "#/definitions/schedule" }),
        Kind::Choice(c) => json!({ "enum": c }),
        Kind::Model => json!({ "enum": friction_models::all().iter().map(|m| m.id).collect::<Vec<_>>() }),
        Kind::Params => json!({ "type": "object" }),
        Kind::Atol => json!({ "oneOf": [
            { "type": "number", "exclusiveMinimum": 0 },
            { "type": "object", "additionalProperties": false, "properties": {
                "position": { "type": "number", "exclusiveMinimum": 0 },
                "velocity": { "type": "number", "exclusiveMinimum": 0 },
                "state": { "type": "number", "exclusiveMinimum": 0 } } },
        ] }),
        Kind::States => json!({ "oneOf": [
            { "enum": ["auto", "all", "none"] },
            { "type": "array", "items": { "type": "string" } },
        ] }),
        Kind::Columns => json!({ "type": "array", "items": { "type": "string" } }),
        Kind::File => json!({ "type": "string" }),
        Kind::NumberPair => json!({
            "type": "array", "items": { "type": "number", "minimum": 0 }, "minItems": 2, "maxItems": 2
        }),
        Kind::Ratios => json!({ "oneOf": [
            { "type": "number", "minimum": 0 },
            { "type": "array", "items": { "type": "number", "minimum": 0 }, "minItems": 1 }
        ] }),
        Kind::Indices => json!({ "type": "array", "items": { "type": "integer", "minimum": 0 } }),
        Kind::Coordinates => json!({ "oneOf": [
            { "type": "number" },
            { "type": "array", "items": { "type": "number" }, "minItems": 2, "maxItems": 3 }
        ] }),
        Kind::Direction => json!({ "oneOf": [
            { "enum": ["x", "y", "z"] },
            { "type": "array", "items": { "type": "number" }, "minItems": 2, "maxItems": 3 }
        ] }),
        Kind::Reduce => json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["keep", "modes"],
            "properties": {
                "keep": { "type": "array", "items": { "type": "integer", "minimum": 0 }, "minItems": 1 },
                "modes": { "type": "integer", "minimum": 0 },
                "write": { "type": "string" }
            }
        }),
    };
    let mut d = k.doc.to_string();
    if !k.unit.is_empty() && k.unit != "-" {
        d.push_str(&format!(" [{}]", k.unit));
    }
    if !k.default.is_empty() {
        d.push_str(&format!("; default {}", k.default));
    }
    if let Value::Object(m) = &mut v {
        m.insert("description".into(), json!(d));
        if let Ok(x) = k.default.parse::<f64>() {
            if matches!(k.kind, Kind::Number { .. } | Kind::Signal) {
                m.insert("default".into(), json!(x));
            }
        }
        if let Kind::Integer { .. } = k.kind {
            if let Ok(x) = k.default.parse::<i64>() {
                m.insert("default".into(), json!(x));
            }
        }
        if let Kind::Choice(_) | Kind::States | Kind::Direction = k.kind {
            if let Some(s) = k.default.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
                m.insert("default".into(), json!(s));
            }
        }
    }
    v
}

/// The JSON Schema of one model parameter.
pub fn param_schema(p: &ParamSpec) -> Value {
    let mut m = Map::new();
    match p.kind {
        ParamKind::Real { default, range } => {
            m.insert("type".into(), json!("number"));
            let (lo, hi) = range_bounds(range);
            bounds(&mut m, lo, hi);
            if let Some(d) = default {
                m.insert("default".into(), json!(d));
            }
        }
        ParamKind::OptionalReal { range } => {
            m.insert("type".into(), json!("number"));
            let (lo, hi) = range_bounds(range);
            bounds(&mut m, lo, hi);
        }
        ParamKind::Integer { default, min, max } => {
            m.insert("type".into(), json!("integer"));
            m.insert("minimum".into(), json!(min));
            if max != u64::MAX {
                m.insert("maximum".into(), json!(max));
            }
            m.insert("default".into(), json!(default));
        }
        ParamKind::Bool { default } => {
            m.insert("type".into(), json!("boolean"));
            m.insert("default".into(), json!(default));
        }
        ParamKind::Choice { default, options } => {
            m.insert("enum".into(), json!(options));
            m.insert("default".into(), json!(default));
        }
        ParamKind::Rows { columns, range } => {
            let mut item = Map::new();
            item.insert("type".into(), json!("number"));
            let (lo, hi) = range_bounds(range);
            bounds(&mut item, lo, hi);
            m.insert("type".into(), json!("array"));
            m.insert(
                "items".into(),
                json!({ "type": "array", "items": item, "minItems": columns.len(), "maxItems": columns.len() }),
            );
        }
        ParamKind::Model { default } => {
            m.insert("type".into(), json!("object"));
            m.insert(
                "properties".into(),
                json!({
                    "model": { "enum": friction_models::all().iter().map(|m| m.id).collect::<Vec<_>>() },
                    "params": { "type": "object" },
                }),
            );
            m.insert("required".into(), json!(["model"]));
            m.insert("additionalProperties".into(), json!(false));
            m.insert("default".into(), json!({ "model": default }));
        }
    }
    let unit = if p.unit.is_empty() || p.unit == "-" { String::new() } else { format!(" [{}]", p.unit) };
    m.insert(
        "description".into(),
        json!(format!("{} ({}){unit}; range {}", p.doc, p.symbol, p.range_text())),
    );
    Value::Object(m)
}

pub(super) fn is_required(p: &ParamSpec) -> bool {
    matches!(p.kind, ParamKind::Real { default: None, .. } | ParamKind::Rows { .. })
}

/// A parameter as a function of the temperature of the contact's heat node
/// (`crate::system::thermal::TempLaw`): a table or a linear law.
fn temperature_law_schema() -> Value {
    let pair = json!({ "type": "array", "items": { "type": "number" }, "minItems": 2, "maxItems": 2 });
    json!({
        "description": "the parameter as a function of the temperature of the contact's `heat` node: \
                        piecewise linear through [T, value] pairs (T strictly increasing, held beyond \
                        the ends), or value + slope (T - ref), held at 0 from below; every value it takes \
                        from 0 to 1e6 K must be in the parameter's valid range",
        "oneOf": [
            {
                "type": "object",
                "properties": { "at": { "type": "array", "items": pair, "minItems": 2 } },
                "required": ["at"],
                "additionalProperties": false,
            },
            {
                "type": "object",
                "properties": {
                    "ref": { "type": "number", "exclusiveMinimum": 0 },
                    "value": { "type": "number" },
                    "slope": { "type": "number" },
                },
                "required": ["ref", "value", "slope"],
                "additionalProperties": false,
            },
        ],
    })
}

/// The JSON Schema (draft-07) of a scenario file, read as JSON (TOML tables
/// become objects, arrays of tables arrays of objects).
pub fn json_schema() -> Value {
    let mut defs = Map::new();
    defs.insert("schedule".into(), schedule_table_schema());
    defs.insert("temperature_law".into(), temperature_law_schema());
    let mut model_rules = vec![];
    for m in friction_models::all() {
        let mut props: Map<String, Value> =
            m.params.iter().map(|p| (p.name.to_string(), param_schema(p))).collect();
        // a parameter that may follow a temperature (`crate::system::thermal::TempLaw`)
        for p in crate::system::thermal::temperature_params(m.id) {
            if let Some(v) = props.get_mut(*p) {
                *v = json!({ "anyOf": [v.take(), { "$ref": "#/definitions/temperature_law" }] });
            }
        }
        let required: Vec<&str> = m.params.iter().filter(|p| is_required(p)).map(|p| p.name).collect();
        defs.insert(
            format!("params_{}", m.id),
            json!({
                "type": "object",
                "description": format!("parameters of `{}`: {}", m.id, m.summary),
                "properties": props,
                "required": required,
                "additionalProperties": false,
            }),
        );
        model_rules.push(json!({
            "if": { "properties": { "model": { "const": m.id } }, "required": ["model"] },
            "then": { "properties": { "params": { "$ref": format!("#/definitions/params_{}", m.id) } } },
        }));
    }
    let mut top = Map::new();
    let mut top_required = vec![];
    for t in TABLES {
        let props: Map<String, Value> = t.keys.iter().map(|k| (k.name.to_string(), key_schema(k))).collect();
        let required: Vec<&str> = t.keys.iter().filter(|k| k.required).map(|k| k.name).collect();
        if t.name.is_empty() {
            top.extend(props);
            continue;
        }
        let mut obj = json!({
            "type": "object",
            "description": t.doc,
            "properties": props,
            "required": required,
            "additionalProperties": false,
        });
        if t.name == "contact" {
            obj["allOf"] = json!(model_rules);
        }
        let v = if t.array { json!({ "type": "array", "description": t.doc, "items": obj }) } else { obj };
        top.insert(t.name.to_string(), v);
        if t.required {
            top_required.push(t.name);
        }
    }
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://github.com/friction/friction/docs/scenario.schema.json",
        "title": "friction scenario",
        "description": "A scenario file of the friction toolkit (`friction run FILE`); generated by `friction schema`.",
        "type": "object",
        "properties": top,
        "required": top_required,
        "additionalProperties": false,
        "definitions": defs,
    })
}

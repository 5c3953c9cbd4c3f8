//! The FMU's interface from a scenario: its variables (outputs, inputs,
//! parameters) with their value references, and the scenario rebuilt with
//! parameters set by the master.
//!
//! Value references are assigned in this order, from 0:
//! - outputs: every column of `friction run`'s `timeseries.csv` but `t`
//!   (from [`friction_sim::engine::columns`]: `x.NAME`, `v.NAME`, `F.NAME`,
//!   internal states `z.NAME.k`, ...);
//! - inputs: every `type = "input"` schedule, in the order of
//!   [`System::inputs`];
//! - parameters: every real parameter of every contact's model
//!   (`CONTACT.PARAM`), in file order, then the registry's order; optional
//!   parameters only when the scenario sets them. Integer, boolean, choice,
//!   table and inner-model parameters, and parameters given as a
//!   temperature law, are not FMU variables;
//! - thermal parameters: every thermal node's `NODE.capacity` and
//!   `NODE.T0`, or `NODE.fixed` (an ambient's temperature), then every
//!   conduction's `NAME.conductance`, in file order.
//!
//! Thermal nodes' temperatures `T.NODE` and conductions' heat flows
//! `Q.NAME` are outputs like every column.

use std::collections::HashSet;
use std::path::Path;

use friction_models::params::ParamKind;
use friction_models::FrictionModel;
use friction_sim::scenario::{Document, System};

/// What a variable is.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// Output column `i` of a row (`t` is column 0, so `i >= 1`).
    Output(usize),
    /// Input `i` of [`System::inputs`].
    Input(usize),
    /// Real parameter `param` of contact `contact` (index into `System::contacts`).
    Parameter {
        /// Contact index.
        contact: usize,
        /// Parameter name in the scenario's `params` table.
        param: String,
    },
    /// A thermal parameter (a node's capacity, initial or fixed
    /// temperature, a conduction's conductance) at its override path
    /// (`thermal.NODE.capacity`, `conduction.NAME.conductance`; see
    /// `friction_sim::sweep`).
    Thermal {
        /// The override path.
        path: String,
    },
}

impl Kind {
    /// Whether the variable is a parameter (of a contact's model or of the
    /// thermal network).
    pub fn is_parameter(&self) -> bool {
        matches!(self, Kind::Parameter { .. } | Kind::Thermal { .. })
    }
}

/// One FMU variable (all are `Real`).
#[derive(Debug, Clone, PartialEq)]
pub struct Variable {
    /// Name (`x.m`, `v_slip`, `c.fc`).
    pub name: String,
    /// Value reference.
    pub vr: u32,
    /// Output, input or parameter.
    pub kind: Kind,
    /// Start value (inputs and parameters).
    pub start: Option<f64>,
    /// Unit (parameters: from the model registry; `None` when dimensionless
    /// or unknown).
    pub unit: Option<String>,
    /// One-line description.
    pub description: String,
}

/// The variables of the FMU of `sys`; `raw` is the scenario file as a TOML
/// table (for the parameter values the scenario sets). Refuses two
/// variables with the same name (an input named like an output column).
///
/// The parameters' start values come from `raw`, the
/// [`Document`]'s table, and not from
/// `sys`: a validated model keeps its parameters as the typed fields of its
/// own struct (`AnyModel` has one variant per model and no map back to the
/// names), so the scenario's table is the one parameter map there is. A
/// master's change edits a copy of that table at `contact.NAME.params.PARAM`
/// and validates it once ([`with_overrides`]), as `--set`, the sweeps and
/// `friction serve` do; no TOML text is written.
pub fn variables(sys: &System, raw: &toml::Table) -> Result<Vec<Variable>, String> {
    let mut vars = Vec::new();
    let cols = friction_sim::engine::columns(sys);
    for (i, c) in cols.iter().enumerate().skip(1) {
        vars.push(Variable {
            name: c.clone(),
            vr: 0,
            kind: Kind::Output(i),
            start: None,
            unit: None,
            description: column_description(c),
        });
    }
    for (i, u) in sys.inputs().iter().enumerate() {
        let what = match u.quantity {
            friction_sim::schedule::InputQuantity::Value => "input signal (value; a driver's position)",
            friction_sim::schedule::InputQuantity::Velocity => "input rate (a driver's velocity)",
        };
        vars.push(Variable {
            name: u.name.clone(),
            vr: 0,
            kind: Kind::Input(i),
            start: Some(u.start),
            unit: None,
            description: format!("{what}, held between communication points"),
        });
    }
    let raw_contacts = raw.get("contact").and_then(|c| c.as_array());
    for (ci, ct) in sys.contacts.iter().enumerate() {
        let info = ct.model.info();
        let given =
            raw_contacts.and_then(|a| a.get(ci)).and_then(|c| c.get("params")).and_then(|p| p.as_table());
        for spec in info.params {
            // a parameter following a temperature (`fc = { at = ... }`) is
            // not a constant the master could set
            if given.and_then(|g| g.get(spec.name)).is_some_and(toml::Value::is_table) {
                continue;
            }
            let value = given.and_then(|g| g.get(spec.name)).and_then(|v| match v {
                toml::Value::Float(x) => Some(*x),
                toml::Value::Integer(i) => Some(*i as f64),
                _ => None,
            });
            let start = match spec.kind {
                ParamKind::Real { default, .. } => value.or(default),
                ParamKind::OptionalReal { .. } => value,
                _ => None,
            };
            let Some(start) = start else { continue };
            let unit = (spec.unit != "-" && !spec.unit.is_empty()).then(|| spec.unit.to_string());
            vars.push(Variable {
                name: format!("{}.{}", ct.name, spec.name),
                vr: 0,
                kind: Kind::Parameter { contact: ci, param: spec.name.to_string() },
                start: Some(start),
                unit,
                description: format!(
                    "{} ({}, model {}): {}; valid range {}",
                    spec.name,
                    spec.symbol,
                    info.id,
                    spec.doc,
                    spec.range_text()
                ),
            });
        }
    }
    thermal_parameters(sys, &mut vars);
    let mut seen = HashSet::new();
    for (i, v) in vars.iter_mut().enumerate() {
        v.vr = i as u32;
        if !seen.insert(v.name.clone()) {
            return Err(format!(
                "two FMU variables are named \"{}\" (an input, an output column or a parameter \
                 CONTACT.PARAM); rename the input or the member",
                v.name
            ));
        }
    }
    Ok(vars)
}

/// The thermal network's parameters into `vars`: per node its capacity and
/// initial temperature, or its fixed temperature; per conduction its
/// conductance.
fn thermal_parameters(sys: &System, vars: &mut Vec<Variable>) {
    use friction_sim::system::thermal::NodeKind;
    let mut push = |name: String, path: String, start: f64, unit: &str, description: String| {
        vars.push(Variable {
            name,
            vr: 0,
            kind: Kind::Thermal { path },
            start: Some(start),
            unit: Some(unit.to_string()),
            description,
        });
    };
    for n in &sys.thermal.nodes {
        let what = format!("thermal node {}", n.name);
        match n.kind {
            NodeKind::Capacity { capacity, t0 } => {
                push(
                    format!("{}.capacity", n.name),
                    format!("thermal.{}.capacity", n.name),
                    capacity,
                    "J/K",
                    format!("heat capacity of {what}; valid range (0, inf)"),
                );
                push(
                    format!("{}.T0", n.name),
                    format!("thermal.{}.T0", n.name),
                    t0,
                    "K",
                    format!("initial temperature of {what}; valid range (0, inf)"),
                );
            }
            NodeKind::Fixed { temperature } => push(
                format!("{}.fixed", n.name),
                format!("thermal.{}.fixed", n.name),
                temperature,
                "K",
                format!("fixed temperature of {what} (an ambient); valid range (0, inf)"),
            ),
        }
    }
    for c in &sys.thermal.conductions {
        push(
            format!("{}.conductance", c.name),
            format!("conduction.{}.conductance", c.name),
            c.conductance,
            "W/K",
            format!("thermal conductance of conduction {}; valid range [0, inf)", c.name),
        );
    }
}

fn column_description(c: &str) -> String {
    let (prefix, rest) = c.split_once('.').unwrap_or((c, ""));
    match prefix {
        "x" => format!("position of {rest} (m or rad)"),
        "v" => format!("velocity of {rest} (m/s or rad/s)"),
        "F" => format!("friction force of contact {rest} on its first member (N or N m)"),
        "z" => format!("internal state {rest} of a contact"),
        _ => format!("column {c} of friction run's timeseries.csv"),
    }
}

/// The scenario `doc` with parameter values set: `overrides` holds
/// `(contact index, parameter, value)`, applied through the one override
/// path of the sweeps and `friction run --set`
/// ([`friction_sim::scenario::Document::validate_with`], key
/// `contact.NAME.params.PARAM`); `base` is the scenario as written (for the
/// contacts' names). Validated once, as a scenario file is (out of range:
/// the error names the parameter, the value and the valid range); `dir`
/// resolves table files.
pub fn with_parameters(
    doc: &Document,
    dir: &Path,
    base: &System,
    overrides: &[(usize, String, f64)],
) -> Result<System, String> {
    let mut paths = Vec::with_capacity(overrides.len());
    for (ci, name, value) in overrides {
        let c = base.contacts.get(*ci).ok_or_else(|| format!("{}: no contact[{ci}]", doc.file()))?;
        paths.push((format!("contact.{}.params.{name}", c.name), *value));
    }
    with_overrides(doc, dir, &paths)
}

/// The scenario `doc` (read once) with values set at override paths
/// (`thermal.NODE.capacity`, `contact.NAME.params.PARAM`, ...) in a copy
/// of its table, validated once as a scenario file is.
pub fn with_overrides(doc: &Document, dir: &Path, paths: &[(String, f64)]) -> Result<System, String> {
    doc.validate_with(dir, paths).map_err(|(_, e)| match e {
        friction_sim::SimError::Input { message, .. } => format!("{}: {message}", doc.file()),
        other => other.to_string(),
    })
}

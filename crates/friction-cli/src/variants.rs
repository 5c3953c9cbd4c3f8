//! Variants of a scenario for `friction frf` and `friction nnm`: the
//! `--set PATH=VALUE` overrides of `friction run`, the swept force at other
//! amplitudes (`frf --levels`), and one contact given the model and
//! parameters of a `friction tune` result (`nnm --tuned FILE.json`).

use std::path::{Path, PathBuf};

use friction_sim::scenario::{self, System};
use friction_sim::SimError;

/// The scenario `file` with the `--set` overrides `set` applied.
pub fn load(file: &Path, set: &[String]) -> Result<System, SimError> {
    crate::load_scenario(Some(file), set, true)
}

/// The scenario with the `sine` force `force` at amplitude `level` \[N\].
pub fn at_level(file: &Path, set: &[String], force: &str, level: f64) -> Result<System, SimError> {
    let mut all = set.to_vec();
    all.push(format!("force.{force}.value.amplitude={level}"));
    crate::load_scenario(Some(file), &all, true).map_err(|e| match e {
        SimError::Input { file: f, line, message } if f.starts_with("--set force.") => {
            SimError::Input { file: format!("--levels {level} (force \"{force}\")"), line, message }
        }
        e => e,
    })
}

/// A model and its parameters from the JSON `friction tune --json` writes.
#[derive(Debug, Clone)]
pub struct Tuned {
    /// The file read.
    pub file: PathBuf,
    /// Model id.
    pub model: String,
    /// Every parameter, the tuned ones at their tuned values.
    pub params: toml::Table,
    /// The tuned parameters, `name = value`, for labels.
    pub tuned: Vec<String>,
}

impl Tuned {
    /// A label for plots and messages: `jenkins (fs = 0.2447)`.
    pub fn label(&self) -> String {
        format!("{} ({})", self.model, self.tuned.join(", "))
    }
}

/// Read a `friction tune` result.
pub fn read_tuned(file: &Path) -> Result<Tuned, SimError> {
    let bad = |message: String| SimError::Input {
        file: format!("--tuned {}", file.display()),
        line: None,
        message,
    };
    let text = std::fs::read_to_string(file)
        .map_err(|e| SimError::Io { path: file.display().to_string(), source: e })?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        bad(format!("invalid JSON: {e} (expected the file `friction tune --json OUT` writes)"))
    })?;
    let model = v.get("model").and_then(|m| m.as_str()).ok_or_else(|| {
        bad("`model` must be a model id (a string); expected the file `friction tune --json OUT` writes"
            .into())
    })?;
    let obj = v
        .get("params")
        .and_then(|p| p.as_object())
        .ok_or_else(|| bad("`params` must be an object".into()))?;
    let mut params = toml::Table::new();
    for (k, x) in obj {
        let t = match x {
            serde_json::Value::Number(n) => toml::Value::Float(n.as_f64().unwrap_or(f64::NAN)),
            serde_json::Value::String(s) => toml::Value::String(s.clone()),
            serde_json::Value::Bool(b) => toml::Value::Boolean(*b),
            other => return Err(bad(format!("`params.{k}` = {other} must be a number or a string"))),
        };
        params.insert(k.clone(), t);
    }
    let tuned = v
        .get("tuned")
        .and_then(|t| t.as_object())
        .map(|t| t.iter().map(|(k, x)| format!("{k} = {:.4}", x.as_f64().unwrap_or(f64::NAN))).collect())
        .unwrap_or_default();
    Ok(Tuned { file: file.to_path_buf(), model: model.to_string(), params, tuned })
}

/// The scenario `file` (with `set` applied) whose contact `contact` (the
/// only contact when `None`) has the model and parameters of `t`.
pub fn with_model(file: &Path, set: &[String], contact: Option<&str>, t: &Tuned) -> Result<System, SimError> {
    // the scenario as written and overridden must be valid first
    let base = load(file, set)?;
    let name = match contact {
        Some(c) => {
            if !base.contacts.iter().any(|k| k.name == c) {
                let names: Vec<&str> = base.contacts.iter().map(|k| k.name.as_str()).collect();
                return Err(SimError::Input {
                    file: "command line".into(),
                    line: None,
                    message: format!(
                        "--contact {c}: no such contact in {}; its contacts: {names:?}",
                        file.display()
                    ),
                });
            }
            c.to_string()
        }
        None => match &base.contacts[..] {
            [one] => one.name.clone(),
            many => {
                return Err(SimError::Input {
                    file: "command line".into(),
                    line: None,
                    message: format!(
                        "--tuned needs --contact NAME: {} has {} contacts ({:?})",
                        file.display(),
                        many.len(),
                        many.iter().map(|k| k.name.as_str()).collect::<Vec<_>>()
                    ),
                })
            }
        },
    };
    let text = std::fs::read_to_string(file)
        .map_err(|e| SimError::Io { path: file.display().to_string(), source: e })?;
    let label = format!("--tuned {}", t.file.display());
    let bad = |message: String| SimError::Input { file: label.clone(), line: None, message };
    let mut table: toml::Table = toml::from_str(&text).map_err(|e| bad(e.to_string()))?;
    // the overrides as `friction run` reads them (finite numbers, or the
    // message naming the argument), applied before the contact is replaced
    for (path, x) in crate::overrides(set)? {
        scenario::overrides::apply(&mut table, &path, x).map_err(bad)?;
    }
    let entry = table
        .get_mut("contact")
        .and_then(|c| c.as_array_mut())
        .and_then(|a| a.iter_mut().find(|c| c.get("name").and_then(|n| n.as_str()) == Some(name.as_str())))
        .and_then(|c| c.as_table_mut())
        .ok_or_else(|| bad(format!("contact \"{name}\" is not a [[contact]] table of {}", file.display())))?;
    entry.insert("model".into(), toml::Value::String(t.model.clone()));
    entry.insert("params".into(), toml::Value::Table(t.params.clone()));
    let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
    // `frf` and `nnm` need no [solver]
    scenario::set_default_solver(&mut table);
    // the edited table is validated as it is (no TOML text is written)
    let doc = scenario::Document::from_table(table, &file.display().to_string());
    doc.validate(&dir).map_err(|e| match e {
        SimError::Input { message, .. } => {
            bad(format!("contact \"{name}\" as model `{}`: {message}", t.model))
        }
        e => e,
    })
}

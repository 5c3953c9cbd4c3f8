//! Overrides of a scenario's numbers by dotted paths (`friction run --set`,
//! the grid of `friction sweep`, the FMU's parameters), applied to the
//! scenario's TOML table before it is validated once
//! ([`Document::validate_with`]).
//!
//! ```text
//! SECTION.NAME.KEY[.KEY..]   an element of an array of tables by its name
//!                            (contact.c.fc = contact.c.params.fc)
//! solver.KEY                 a solver setting (t_end, output_dt, rtol, ...)
//! ```
//! See `crate::sweep` for the whole path syntax.

use crate::error::SimError;
use crate::scenario::Document;
use crate::system::System;

const ARRAYS: [&str; 10] =
    ["body", "driver", "spring", "damper", "force", "contact", "gap", "stop", "thermal", "conduction"];
const CONTACT_KEYS: [&str; 5] = ["name", "between", "model", "params", "normal"];
/// Settings of the scenario format that must be TOML integers.
const INTEGER_KEYS: [&str; 1] = ["max_steps"];

/// The name an element of `section` is found by.
fn element_name(section: &str, i: usize, t: &toml::Table) -> Option<String> {
    let key = if section == "stop" { "body" } else { "name" };
    if let Some(toml::Value::String(s)) = t.get(key) {
        return Some(s.clone());
    }
    match section {
        "spring" | "damper" | "force" => Some(format!("{section}{i}")),
        "contact" => Some(format!("c{i}")),
        "gap" => Some(format!("g{i}")),
        "conduction" => Some(format!("conduction{i}")),
        _ => None,
    }
}

/// Set the value at dotted `path` in the scenario table `root`.
///
/// ```
/// let mut t: toml::Table = "[[contact]]\nname = \"c\"\nparams = { fc = 1.0 }\n".parse().unwrap();
/// friction_sim::scenario::overrides::apply(&mut t, "contact.c.fc", 2.0).unwrap();
/// assert_eq!(t["contact"][0]["params"]["fc"].as_float(), Some(2.0));
/// ```
pub fn apply(root: &mut toml::Table, path: &str, value: f64) -> Result<(), String> {
    place(root, path, value).map(|_| ())
}

/// Where [`place`] set a value: the element (section and index; `None`
/// for `[solver]`) and the keys inside it (`["params", "fc"]`).
pub(crate) struct Placed {
    pub(crate) element: Option<(String, usize)>,
    pub(crate) keys: Vec<String>,
}

/// [`apply`], saying where the value went.
pub(crate) fn place(root: &mut toml::Table, path: &str, value: f64) -> Result<Placed, String> {
    let parts: Vec<&str> = path.split('.').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err(format!("grid key `{path}`: empty component"));
    }
    let mut element = None;
    let mut in_params = false;
    let (table, keys): (&mut toml::Table, Vec<&str>) = if ARRAYS.contains(&parts[0]) {
        if parts.len() < 3 {
            return Err(format!("grid key `{path}`: expected {}.NAME.KEY", parts[0]));
        }
        let section = parts[0];
        let Some(toml::Value::Array(items)) = root.get_mut(section) else {
            return Err(format!("grid key `{path}`: the scenario has no [[{section}]]"));
        };
        // names may hold dots (`contact.joint.left.fc`): the element is the
        // one whose name is the longest prefix of the rest followed by a dot
        let rest = &path[section.len() + 1..];
        let mut known = Vec::new();
        let mut found: Option<(usize, usize)> = None;
        for (i, it) in items.iter().enumerate() {
            let toml::Value::Table(t) = it else { continue };
            let Some(name) = element_name(section, i, t) else { continue };
            let fits =
                rest.len() > name.len() && rest.starts_with(&name) && rest[name.len()..].starts_with('.');
            if fits && found.is_none_or(|(_, l)| name.len() > l) {
                found = Some((i, name.len()));
            }
            known.push(name);
        }
        let Some((i, len)) = found else {
            return Err(format!(
                "grid key `{path}`: no {section} named \"{}\"{}; known: {}",
                parts[1],
                friction_models::suggest::did_you_mean(parts[1], known.iter().map(String::as_str)),
                known.join(", ")
            ));
        };
        let Some(toml::Value::Table(t)) = items.get_mut(i) else {
            return Err(format!("grid key `{path}`: [[{section}]] {i} is not a table"));
        };
        let keys: Vec<&str> = rest[len + 1..].split('.').collect();
        element = Some((section.to_string(), i));
        if section == "contact" && !CONTACT_KEYS.contains(&keys[0]) {
            let p = t.entry("params").or_insert_with(|| toml::Value::Table(toml::Table::new()));
            let toml::Value::Table(p) = p else {
                return Err(format!("grid key `{path}`: the contact's `params` is not a table"));
            };
            in_params = true;
            (p, keys)
        } else {
            (t, keys)
        }
    } else if parts[0] == "solver" {
        if parts.len() < 2 {
            return Err(format!("grid key `{path}`: expected solver.KEY"));
        }
        let s = root.entry("solver").or_insert_with(|| toml::Value::Table(toml::Table::new()));
        let toml::Value::Table(s) = s else {
            return Err(format!("grid key `{path}`: [solver] is not a table"));
        };
        (s, parts[1..].to_vec())
    } else {
        return Err(format!(
            "grid key `{path}`: the first component must be one of {}, solver{}",
            ARRAYS.join(", "),
            friction_models::suggest::did_you_mean(parts[0], ARRAYS.iter().copied().chain(["solver"]))
        ));
    };
    let placed = Placed {
        element,
        keys: in_params
            .then_some("params")
            .into_iter()
            .chain(keys.iter().copied())
            .map(String::from)
            .collect(),
    };
    let mut t = table;
    for (k, key) in keys.iter().enumerate() {
        if k + 1 == keys.len() {
            let v = match t.get(*key) {
                // an integer setting, also when the file leaves it out (max_steps)
                Some(toml::Value::Integer(_)) | None
                    if value.fract() == 0.0
                        && value.abs() < 9e15
                        && (t.get(*key).is_some() || INTEGER_KEYS.contains(key)) =>
                {
                    toml::Value::Integer(value as i64)
                }
                Some(toml::Value::String(_)) | Some(toml::Value::Array(_)) | Some(toml::Value::Table(_)) => {
                    return Err(format!("grid key `{path}`: the value there is not a number"));
                }
                _ => toml::Value::Float(value),
            };
            t.insert(key.to_string(), v);
        } else {
            let next = t.entry(key.to_string()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
            match next {
                toml::Value::Table(n) => t = n,
                _ => return Err(format!("grid key `{path}`: `{key}` is not a table")),
            }
        }
    }
    Ok(placed)
}

/// The scenario table of one grid point: `base` with `row[k]` at `paths[k]`.
pub fn point_table(base: &toml::Table, paths: &[String], row: &[f64]) -> Result<toml::Table, String> {
    let mut t = base.clone();
    for (p, v) in paths.iter().zip(row) {
        apply(&mut t, p, *v)?;
    }
    Ok(t)
}

/// Read scenario `text` with `overrides` (grid paths and values, as
/// `friction run --set PATH=VALUE`) applied before validation. On error,
/// the index of the override to blame (the one that set the value the
/// error is at) and the error; `None` when the file is invalid without
/// any override (the error then names its file and line). The scenario is
/// read once and validated once ([`Document::validate_with`]): the override
/// to blame is the one that set the key the error is at.
///
/// ```
/// use friction_sim::sweep::parse_with_overrides;
/// let text = "[[body]]\nname = \"m\"\nmass = 1.0\n[solver]\nt_end = 1.0\n";
/// let dir = std::path::Path::new(".");
/// let sys = parse_with_overrides(text, "s.toml", dir, &[("body.m.mass".into(), 2.0)]).unwrap();
/// assert_eq!(sys.bodies[0].mass, 2.0);
/// let (blame, _) = parse_with_overrides(text, "s.toml", dir, &[("body.m.mass".into(), -2.0)]).unwrap_err();
/// assert_eq!(blame, Some(0));
/// ```
pub fn parse_with_overrides(
    text: &str,
    file: &str,
    dir: &std::path::Path,
    overrides: &[(String, f64)],
) -> Result<System, (Option<usize>, SimError)> {
    Document::read(text, file).map_err(|e| (None, e))?.validate_with(dir, overrides)
}

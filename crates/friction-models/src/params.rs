//! Named, documented, validated parameters.
//!
//! Every model declares its parameters as a static table of [`ParamSpec`]s
//! (name, symbol, unit, valid range, default, meaning). User input arrives as a
//! map from names to [`ParamValue`]s; a [`ParamReader`] reads it against the
//! table, fills in defaults, checks ranges and refuses unknown names.

use std::collections::BTreeMap;
use std::fmt;

use crate::error::ModelError;

/// A parameter value as it comes from a scenario file or a program.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamValue {
    /// A real number (integers are accepted where reals are expected).
    Num(f64),
    /// A boolean flag.
    Bool(bool),
    /// A string (choice parameters, model ids).
    Str(String),
    /// A list (for example `elements = [[k, fmax], ...]`).
    List(Vec<ParamValue>),
    /// A table (for example an inner model `{ model = "lugre", params = {..} }`).
    Table(ParamMap),
}

/// A map of parameter names to values.
pub type ParamMap = BTreeMap<String, ParamValue>;

impl ParamValue {
    /// Short description of the kind of value, for error messages.
    pub fn kind(&self) -> String {
        match self {
            ParamValue::Num(x) => format!("the number {x}"),
            ParamValue::Bool(b) => format!("the boolean {b}"),
            ParamValue::Str(s) => format!("the string \"{s}\""),
            ParamValue::List(_) => "a list".to_string(),
            ParamValue::Table(_) => "a table".to_string(),
        }
    }
}

impl From<f64> for ParamValue {
    fn from(x: f64) -> Self {
        ParamValue::Num(x)
    }
}
impl From<bool> for ParamValue {
    fn from(b: bool) -> Self {
        ParamValue::Bool(b)
    }
}
impl From<&str> for ParamValue {
    fn from(s: &str) -> Self {
        ParamValue::Str(s.to_string())
    }
}

/// Model parameters from a TOML table, the one conversion every face uses (a
/// scenario's `params`, the C library's `params_toml`, Python's dicts):
/// floats and integers become numbers, arrays lists, tables tables.
///
/// ```
/// use friction_models::{params::from_toml, ParamValue};
/// let t: toml::Table = "fc = 0.3\nn = 50\nelements = [[1e4, 0.2]]".parse().unwrap();
/// let p = from_toml(&t);
/// assert_eq!(p["fc"], ParamValue::Num(0.3));
/// assert_eq!(p["n"], ParamValue::Num(50.0));
/// assert_eq!(p["elements"], ParamValue::List(vec![ParamValue::List(vec![1e4.into(), 0.2.into()])]));
/// ```
pub fn from_toml(t: &toml::Table) -> ParamMap {
    t.iter().map(|(k, v)| (k.clone(), value_from_toml(v))).collect()
}

fn value_from_toml(v: &toml::Value) -> ParamValue {
    match v {
        toml::Value::Float(x) => ParamValue::Num(*x),
        toml::Value::Integer(i) => ParamValue::Num(*i as f64),
        toml::Value::Boolean(b) => ParamValue::Bool(*b),
        toml::Value::String(s) => ParamValue::Str(s.clone()),
        toml::Value::Array(a) => ParamValue::List(a.iter().map(value_from_toml).collect()),
        toml::Value::Table(t) => ParamValue::Table(from_toml(t)),
        toml::Value::Datetime(d) => ParamValue::Str(d.to_string()),
    }
}

/// A closed, open or half-open interval of valid values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Range {
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
    /// Whether `lo` itself is allowed.
    pub lo_closed: bool,
    /// Whether `hi` itself is allowed.
    pub hi_closed: bool,
}

impl Range {
    /// `[lo, hi]`.
    pub const fn closed(lo: f64, hi: f64) -> Self {
        Range { lo, hi, lo_closed: true, hi_closed: true }
    }
    /// `(lo, hi)`.
    pub const fn open(lo: f64, hi: f64) -> Self {
        Range { lo, hi, lo_closed: false, hi_closed: false }
    }
    /// `(0, inf)`: strictly positive.
    pub const POSITIVE: Range = Range::open(0.0, f64::INFINITY);
    /// `[0, inf)`: non-negative.
    pub const NON_NEGATIVE: Range = Range { lo: 0.0, hi: f64::INFINITY, lo_closed: true, hi_closed: false };
    /// `(-inf, inf)`: any finite number.
    pub const ANY: Range = Range::open(f64::NEG_INFINITY, f64::INFINITY);
    /// `[0, 1]`.
    pub const UNIT: Range = Range::closed(0.0, 1.0);

    /// Whether `x` is finite and inside the range.
    pub fn contains(&self, x: f64) -> bool {
        if !x.is_finite() {
            return false;
        }
        let lo_ok = if self.lo_closed { x >= self.lo } else { x > self.lo };
        let hi_ok = if self.hi_closed { x <= self.hi } else { x < self.hi };
        lo_ok && hi_ok
    }
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let l = if self.lo_closed { '[' } else { '(' };
        let r = if self.hi_closed { ']' } else { ')' };
        let num = |x: f64| {
            if x == f64::INFINITY {
                "inf".to_string()
            } else if x == f64::NEG_INFINITY {
                "-inf".to_string()
            } else {
                format!("{x}")
            }
        };
        write!(f, "{l}{}, {}{r}", num(self.lo), num(self.hi))
    }
}

/// What kind of value a parameter takes, with its default and valid range.
#[derive(Debug, Clone, Copy)]
pub enum ParamKind {
    /// A real number; `default: None` means the parameter is required.
    Real {
        /// Default value, or `None` if the parameter must be given.
        default: Option<f64>,
        /// Valid range.
        range: Range,
    },
    /// An optional real number that is absent unless given.
    OptionalReal {
        /// Valid range.
        range: Range,
    },
    /// A non-negative integer (counts, seeds).
    Integer {
        /// Default value.
        default: u64,
        /// Smallest valid value.
        min: u64,
        /// Largest valid value.
        max: u64,
    },
    /// A boolean flag.
    Bool {
        /// Default value.
        default: bool,
    },
    /// One of a fixed set of strings.
    Choice {
        /// Default choice.
        default: &'static str,
        /// All valid choices.
        options: &'static [&'static str],
    },
    /// A list of rows of reals, each row with the given columns (e.g. `[[k, fmax], ...]`).
    Rows {
        /// Names of the columns of a row.
        columns: &'static [&'static str],
        /// Valid range of every entry.
        range: Range,
    },
    /// An inner model: a table `{ model = "ID", params = { ... } }`.
    Model {
        /// Default inner model id.
        default: &'static str,
    },
}

/// The description of one parameter of a model. The table of these is a
/// public contract: names never change.
#[derive(Debug, Clone, Copy)]
pub struct ParamSpec {
    /// Field name as used in scenario files (`fc`, `sigma0`, ...).
    pub name: &'static str,
    /// Symbol in the equations (`Fc`, `σ0`, ...).
    pub symbol: &'static str,
    /// SI unit (`N`, `N/m`, `m/s`, `-`, ...).
    pub unit: &'static str,
    /// Kind, default and valid range.
    pub kind: ParamKind,
    /// One-line meaning.
    pub doc: &'static str,
}

impl ParamSpec {
    /// A real parameter with a default.
    pub const fn real(
        name: &'static str,
        symbol: &'static str,
        unit: &'static str,
        default: f64,
        range: Range,
        doc: &'static str,
    ) -> Self {
        ParamSpec { name, symbol, unit, kind: ParamKind::Real { default: Some(default), range }, doc }
    }

    /// Human-readable valid range.
    pub fn range_text(&self) -> String {
        match self.kind {
            ParamKind::Real { range, .. }
            | ParamKind::OptionalReal { range }
            | ParamKind::Rows { range, .. } => range.to_string(),
            ParamKind::Integer { min, max, .. } => {
                if max == u64::MAX {
                    format!("integer >= {min}")
                } else {
                    format!("integer in [{min}, {max}]")
                }
            }
            ParamKind::Bool { .. } => "true or false".to_string(),
            ParamKind::Choice { options, .. } => options.join(" | "),
            ParamKind::Model { .. } => "a model table".to_string(),
        }
    }

    /// Human-readable default.
    pub fn default_text(&self) -> String {
        match self.kind {
            ParamKind::Real { default: Some(d), .. } => format!("{d}"),
            ParamKind::Real { default: None, .. } => "required".to_string(),
            ParamKind::OptionalReal { .. } => "none".to_string(),
            ParamKind::Integer { default, .. } => format!("{default}"),
            ParamKind::Bool { default } => format!("{default}"),
            ParamKind::Choice { default, .. } => format!("\"{default}\""),
            ParamKind::Rows { .. } => "required".to_string(),
            ParamKind::Model { default } => format!("\"{default}\""),
        }
    }

    /// The row of this parameter in a model's doc-comment parameter table:
    /// `| symbol | `name` | unit | range | default | meaning |`.
    pub fn doc_row(&self) -> String {
        format!(
            "| {} | `{}` | {} | {} | {} | {} |",
            self.symbol,
            self.name,
            self.unit,
            self.range_text(),
            self.default_text(),
            self.doc
        )
    }
}

/// Reads user parameters against a model's [`ParamSpec`] table.
///
/// Call the typed getters for every parameter, then [`ParamReader::finish`],
/// which refuses names that were given but never read.
pub struct ParamReader<'a> {
    model: &'static str,
    specs: &'static [ParamSpec],
    values: &'a ParamMap,
}

impl<'a> ParamReader<'a> {
    /// A reader for the model `model` with parameter table `specs`.
    pub fn new(model: &'static str, specs: &'static [ParamSpec], values: &'a ParamMap) -> Self {
        ParamReader { model, specs, values }
    }

    /// The model id this reader is for.
    pub fn model(&self) -> &'static str {
        self.model
    }

    fn spec(&self, name: &str) -> &'static ParamSpec {
        self.specs
            .iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("model `{}` reads undeclared parameter `{name}`", self.model))
    }

    fn wrong(&self, name: &str, expected: &str, v: &ParamValue) -> ModelError {
        ModelError::WrongType {
            model: self.model,
            name: name.to_string(),
            expected: expected.to_string(),
            found: v.kind(),
        }
    }

    /// A real parameter (its default if absent), checked against its range.
    pub fn real(&self, name: &str) -> Result<f64, ModelError> {
        let spec = self.spec(name);
        let ParamKind::Real { default, range } = spec.kind else {
            panic!("parameter `{name}` of `{}` is not declared Real", self.model)
        };
        let x = match self.values.get(name) {
            Some(ParamValue::Num(x)) => *x,
            Some(v) => return Err(self.wrong(name, "a number", v)),
            None => match default {
                Some(d) => d,
                None => {
                    return Err(ModelError::MissingParam {
                        model: self.model,
                        name: spec.name,
                        unit: spec.unit,
                        range: range.to_string(),
                    })
                }
            },
        };
        check_range(self.model, spec, x)?;
        Ok(x)
    }

    /// An optional real parameter: `None` if absent.
    pub fn optional_real(&self, name: &str) -> Result<Option<f64>, ModelError> {
        let spec = self.spec(name);
        match self.values.get(name) {
            Some(ParamValue::Num(x)) => {
                check_range(self.model, spec, *x)?;
                Ok(Some(*x))
            }
            Some(v) => Err(self.wrong(name, "a number", v)),
            None => Ok(None),
        }
    }

    /// An integer parameter (counts, seeds).
    pub fn integer(&self, name: &str) -> Result<u64, ModelError> {
        let spec = self.spec(name);
        let ParamKind::Integer { default, min, max } = spec.kind else {
            panic!("parameter `{name}` of `{}` is not declared Integer", self.model)
        };
        match self.values.get(name) {
            None => Ok(default),
            Some(ParamValue::Num(x)) => {
                if x.fract() != 0.0 || *x < min as f64 || *x > max as f64 {
                    return Err(ModelError::OutOfRange {
                        model: self.model,
                        name: name.to_string(),
                        value: *x,
                        range: spec.range_text(),
                        unit: spec.unit,
                    });
                }
                Ok(*x as u64)
            }
            Some(v) => Err(self.wrong(name, "an integer", v)),
        }
    }

    /// A boolean parameter.
    pub fn boolean(&self, name: &str) -> Result<bool, ModelError> {
        let spec = self.spec(name);
        let ParamKind::Bool { default } = spec.kind else {
            panic!("parameter `{name}` of `{}` is not declared Bool", self.model)
        };
        match self.values.get(name) {
            None => Ok(default),
            Some(ParamValue::Bool(b)) => Ok(*b),
            Some(v) => Err(self.wrong(name, "true or false", v)),
        }
    }

    /// A choice parameter; returns one of the declared options.
    pub fn choice(&self, name: &str) -> Result<&'static str, ModelError> {
        let spec = self.spec(name);
        let ParamKind::Choice { default, options } = spec.kind else {
            panic!("parameter `{name}` of `{}` is not declared Choice", self.model)
        };
        match self.values.get(name) {
            None => Ok(default),
            Some(ParamValue::Str(s)) => {
                options.iter().copied().find(|o| o == s).ok_or_else(|| ModelError::WrongType {
                    model: self.model,
                    name: name.to_string(),
                    expected: format!("one of {}", options.join(" | ")),
                    found: format!("\"{s}\""),
                })
            }
            Some(v) => Err(self.wrong(name, &format!("one of {}", options.join(" | ")), v)),
        }
    }

    /// A list of rows, each with the declared number of columns, every entry in range.
    /// Returns `None` if the parameter is absent.
    pub fn rows(&self, name: &str) -> Result<Option<Vec<Vec<f64>>>, ModelError> {
        let spec = self.spec(name);
        let ParamKind::Rows { columns, range } = spec.kind else {
            panic!("parameter `{name}` of `{}` is not declared Rows", self.model)
        };
        let expected = format!("a list of [{}] rows", columns.join(", "));
        let Some(v) = self.values.get(name) else { return Ok(None) };
        let ParamValue::List(rows) = v else { return Err(self.wrong(name, &expected, v)) };
        let mut out = Vec::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate() {
            let ParamValue::List(cells) = row else {
                return Err(self.wrong(&format!("{name}[{i}]"), &expected, row));
            };
            if cells.len() != columns.len() {
                return Err(ModelError::WrongType {
                    model: self.model,
                    name: format!("{name}[{i}]"),
                    expected: format!("{} numbers [{}]", columns.len(), columns.join(", ")),
                    found: format!("{} entries", cells.len()),
                });
            }
            let mut r = Vec::with_capacity(cells.len());
            for (j, c) in cells.iter().enumerate() {
                let ParamValue::Num(x) = c else {
                    return Err(self.wrong(&format!("{name}[{i}][{j}]"), "a number", c));
                };
                if !range.contains(*x) {
                    return Err(ModelError::OutOfRange {
                        model: self.model,
                        name: format!("{name}[{i}].{}", columns[j]),
                        value: *x,
                        range: range.to_string(),
                        unit: spec.unit,
                    });
                }
                r.push(*x);
            }
            out.push(r);
        }
        Ok(Some(out))
    }

    /// An inner model table `{ model = "ID", params = { ... } }`: returns the id
    /// and the inner parameter map (empty if absent).
    pub fn model_table(&self, name: &str) -> Result<(String, ParamMap), ModelError> {
        let spec = self.spec(name);
        let ParamKind::Model { default } = spec.kind else {
            panic!("parameter `{name}` of `{}` is not declared Model", self.model)
        };
        let expected = "a table { model = \"ID\", params = { ... } }";
        match self.values.get(name) {
            None => Ok((default.to_string(), ParamMap::new())),
            Some(ParamValue::Str(id)) => Ok((id.clone(), ParamMap::new())),
            Some(ParamValue::Table(t)) => {
                for k in t.keys() {
                    if k != "model" && k != "params" {
                        return Err(ModelError::UnknownParam {
                            model: self.model,
                            name: format!("{name}.{k}"),
                            valid: format!("{name}.model, {name}.params"),
                        });
                    }
                }
                let id = match t.get("model") {
                    Some(ParamValue::Str(s)) => s.clone(),
                    None => default.to_string(),
                    Some(v) => return Err(self.wrong(&format!("{name}.model"), "a model id string", v)),
                };
                let params = match t.get("params") {
                    Some(ParamValue::Table(p)) => p.clone(),
                    None => ParamMap::new(),
                    Some(v) => return Err(self.wrong(&format!("{name}.params"), "a table", v)),
                };
                Ok((id, params))
            }
            Some(v) => Err(self.wrong(name, expected, v)),
        }
    }

    /// Refuse any given name that is not a declared parameter.
    pub fn finish(&self) -> Result<(), ModelError> {
        for k in self.values.keys() {
            if !self.specs.iter().any(|s| s.name == k) {
                return Err(ModelError::UnknownParam {
                    model: self.model,
                    name: k.clone(),
                    valid: self.specs.iter().map(|s| s.name).collect::<Vec<_>>().join(", "),
                });
            }
        }
        Ok(())
    }
}

/// Check a real value against the declared range of parameter `spec`.
pub fn check_range(model: &'static str, spec: &ParamSpec, x: f64) -> Result<(), ModelError> {
    let range = match spec.kind {
        ParamKind::Real { range, .. } | ParamKind::OptionalReal { range } | ParamKind::Rows { range, .. } => {
            range
        }
        _ => return Ok(()),
    };
    if range.contains(x) {
        Ok(())
    } else {
        Err(ModelError::OutOfRange {
            model,
            name: spec.name.to_string(),
            value: x,
            range: range.to_string(),
            unit: spec.unit,
        })
    }
}

/// Check the real parameter `name` of a model against its declared range
/// (for `validate()` of parameter structs built in code).
pub fn check(info: &crate::ModelInfo, name: &str, x: f64) -> Result<(), ModelError> {
    let spec = info
        .params
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("model `{}` has no parameter `{name}`", info.id));
    check_range(info.id, spec, x)
}

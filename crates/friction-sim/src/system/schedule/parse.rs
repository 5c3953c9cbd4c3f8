//! Schedules from TOML tables (a scenario's `motion`, `value`, `normal`),
//! with the key path, value and valid range in every error, and tables of
//! samples read from files.

use super::*;

impl Schedule {
    /// Parse from a TOML table; `what` names the table in error messages
    /// (the parts of a composed schedule as `what.terms[1]`, `what.inner`).
    pub fn from_toml(tab: &toml::Table, what: &str, base_dir: &Path) -> Result<Schedule, String> {
        Self::from_toml_at(tab, what, base_dir, 1)
    }

    /// A part of a composed schedule: a number (a constant) or a table, at
    /// nesting level `depth`.
    fn part_from_toml(
        v: &toml::Value,
        what: &str,
        base_dir: &Path,
        depth: usize,
    ) -> Result<Schedule, String> {
        match v {
            toml::Value::Float(x) if x.is_finite() => Ok(Schedule::Constant { value: *x }),
            toml::Value::Integer(i) => Ok(Schedule::Constant { value: *i as f64 }),
            toml::Value::Table(t) => Self::from_toml_at(t, what, base_dir, depth),
            other => Err(format!("{what}: expected a finite number or a schedule table, found {other}")),
        }
    }

    /// [`Schedule::from_toml`] at nesting level `depth` (1: the signal itself).
    fn from_toml_at(
        tab: &toml::Table,
        what: &str,
        base_dir: &Path,
        depth: usize,
    ) -> Result<Schedule, String> {
        if depth > MAX_DEPTH {
            return Err(format!(
                "{what}: schedules nested {depth} levels deep; valid: at most {MAX_DEPTH} levels of \
                 sum, product and window"
            ));
        }
        let ty = match tab.get("type") {
            Some(toml::Value::String(s)) => s.as_str(),
            Some(v) => return Err(format!("{what}: `type` must be a string, found {v}")),
            None => return Err(format!("{what}: missing key `type` (one of {})", TYPES.join(", "))),
        };
        let allowed: &[&str] = match ty {
            "constant" => &["value"],
            "step" => &["amplitude", "at", "offset"],
            "ramp" => &["rate", "offset", "start"],
            "sine" => &["amplitude", "frequency", "phase", "offset"],
            "chirp" => &["amplitude", "f0", "f1", "duration", "offset"],
            "points" => &["points", "speed"],
            "velocity_sine" => &["bias", "amplitude", "frequency", "offset"],
            "pulse" => &["value", "from", "to", "base"],
            "haversine" => &["amplitude", "duration", "start"],
            "table" => &["file"],
            "input" => &["name", "start", "quantity", "offset"],
            "pulse_train" | "square" => &["amplitude", "period", "duty", "offset", "start"],
            "sawtooth" => &["amplitude", "period", "offset", "start"],
            "sum" => &["terms"],
            "product" => &["factors"],
            "window" => &["start", "end", "inner"],
            other => {
                return Err(format!(
                    "{what}: unknown type \"{other}\"{}; valid types: {}",
                    friction_models::suggest::did_you_mean(other, TYPES.iter().copied()),
                    TYPES.join(", ")
                ))
            }
        };
        for k in tab.keys() {
            if k != "type" && !allowed.contains(&k.as_str()) {
                return Err(format!(
                    "{what}: unknown key `{k}` for type \"{ty}\"{}; valid keys: type, {}",
                    friction_models::suggest::did_you_mean(k, allowed.iter().copied()),
                    allowed.join(", ")
                ));
            }
        }
        let num = |k: &str, default: Option<f64>, lo: f64, lo_open: bool| -> Result<f64, String> {
            let x = match tab.get(k) {
                Some(toml::Value::Float(x)) => *x,
                Some(toml::Value::Integer(i)) => *i as f64,
                Some(v) => return Err(format!("{what}: `{k}` must be a number, found {v}")),
                None => match default {
                    Some(d) => d,
                    None => return Err(format!("{what}: missing key `{k}` (type \"{ty}\")")),
                },
            };
            let ok = x.is_finite() && if lo_open { x > lo } else { x >= lo };
            if !ok {
                let l = if lo_open { "(" } else { "[" };
                let lo_s = if lo == f64::NEG_INFINITY { "-inf".to_string() } else { lo.to_string() };
                return Err(format!("{what}: `{k}` = {x} is out of range; valid range {l}{lo_s}, inf)"));
            }
            Ok(x)
        };
        let any = f64::NEG_INFINITY;
        let list = |k: &str| -> Result<Vec<Schedule>, String> {
            let a = match tab.get(k) {
                Some(toml::Value::Array(a)) => a,
                Some(v) => {
                    return Err(format!("{what}: `{k}` must be an array of schedules or numbers, found {v}"))
                }
                None => return Err(format!("{what}: missing key `{k}` (type \"{ty}\")")),
            };
            if a.is_empty() || a.len() > MAX_TERMS {
                return Err(format!(
                    "{what}: `{k}` has {} entries; valid: 1 to {MAX_TERMS} schedules or numbers",
                    a.len()
                ));
            }
            a.iter()
                .enumerate()
                .map(|(i, v)| Self::part_from_toml(v, &format!("{what}.{k}[{i}]"), base_dir, depth + 1))
                .collect()
        };
        let periodic = |with_duty: bool| -> Result<(f64, f64, f64, f64, f64), String> {
            let amplitude = num("amplitude", None, any, true)?;
            let period = num("period", None, 0.0, true)?;
            let duty = if with_duty { num("duty", Some(0.5), 0.0, true)? } else { 0.0 };
            if duty >= 1.0 {
                return Err(format!("{what}: `duty` = {duty} is out of range; valid range (0, 1)"));
            }
            let offset = num("offset", Some(0.0), any, true)?;
            let start = num("start", Some(0.0), any, true)?;
            Ok((amplitude, period, duty, offset, start))
        };
        if ty == "input" && depth > 1 {
            return Err(format!(
                "{what}: an input cannot be part of a sum, product or window (an FMU input is a whole \
                 signal); valid: a top-level `value`, `normal` or `motion` (a force that is an input plus \
                 a known signal is two [[force]] tables on the same body)"
            ));
        }
        Ok(match ty {
            "pulse_train" | "square" => {
                let (amplitude, period, duty, offset, start) = periodic(true)?;
                if ty == "square" {
                    Schedule::Square { amplitude, period, duty, offset, start }
                } else {
                    Schedule::PulseTrain { amplitude, period, duty, offset, start }
                }
            }
            "sawtooth" => {
                let (amplitude, period, _, offset, start) = periodic(false)?;
                Schedule::Sawtooth { amplitude, period, offset, start }
            }
            "sum" => Schedule::Sum { terms: list("terms")? },
            "product" => Schedule::Product { factors: list("factors")? },
            "window" => {
                let start = num("start", Some(0.0), 0.0, false)?;
                let end = num("end", None, 0.0, true)?;
                if end <= start {
                    return Err(format!(
                        "{what}: `end` = {end} must be greater than `start` = {start}; valid range ({start}, inf)"
                    ));
                }
                let inner = match tab.get("inner") {
                    Some(v) => Self::part_from_toml(v, &format!("{what}.inner"), base_dir, depth + 1)?,
                    None => return Err(format!("{what}: missing key `inner` (type \"window\")")),
                };
                Schedule::Window { start, end, inner: Box::new(inner) }
            }
            "constant" => Schedule::Constant { value: num("value", None, any, true)? },
            "step" => Schedule::Step {
                amplitude: num("amplitude", None, any, true)?,
                at: num("at", Some(0.0), 0.0, false)?,
                offset: num("offset", Some(0.0), any, true)?,
            },
            "ramp" => Schedule::Ramp {
                rate: num("rate", None, any, true)?,
                offset: num("offset", Some(0.0), any, true)?,
                start: num("start", Some(0.0), 0.0, false)?,
            },
            "sine" => Schedule::Sine {
                amplitude: num("amplitude", None, any, true)?,
                frequency: num("frequency", None, 0.0, true)?,
                phase: num("phase", Some(0.0), any, true)?,
                offset: num("offset", Some(0.0), any, true)?,
            },
            "chirp" => Schedule::Chirp {
                amplitude: num("amplitude", None, any, true)?,
                f0: num("f0", None, 0.0, false)?,
                f1: num("f1", None, 0.0, false)?,
                duration: num("duration", None, 0.0, true)?,
                offset: num("offset", Some(0.0), any, true)?,
            },
            "points" => {
                let pts = match tab.get("points") {
                    Some(toml::Value::Array(a)) => a
                        .iter()
                        .map(|v| match v {
                            toml::Value::Float(x) if x.is_finite() => Ok(*x),
                            toml::Value::Integer(i) => Ok(*i as f64),
                            other => {
                                Err(format!("{what}: `points` entries must be finite numbers, found {other}"))
                            }
                        })
                        .collect::<Result<Vec<_>, _>>()?,
                    Some(v) => {
                        return Err(format!("{what}: `points` must be an array of numbers, found {v}"))
                    }
                    None => return Err(format!("{what}: missing key `points` (type \"points\")")),
                };
                if pts.len() < 2 {
                    return Err(format!("{what}: `points` needs at least 2 entries, found {}", pts.len()));
                }
                Schedule::Points { points: pts, speed: num("speed", None, 0.0, true)? }
            }
            "velocity_sine" => Schedule::VelocitySine {
                bias: num("bias", Some(0.0), any, true)?,
                amplitude: num("amplitude", None, any, true)?,
                frequency: num("frequency", None, 0.0, true)?,
                offset: num("offset", Some(0.0), any, true)?,
            },
            "pulse" => {
                let from = num("from", None, 0.0, false)?;
                let to = num("to", None, 0.0, false)?;
                if to <= from {
                    return Err(format!("{what}: `to` = {to} must be greater than `from` = {from}"));
                }
                Schedule::Pulse {
                    value: num("value", None, any, true)?,
                    from,
                    to,
                    base: num("base", Some(0.0), any, true)?,
                }
            }
            "haversine" => Schedule::Haversine {
                amplitude: num("amplitude", None, any, true)?,
                duration: num("duration", None, 0.0, true)?,
                start: num("start", Some(0.0), 0.0, false)?,
            },
            "input" => {
                let name = match tab.get("name") {
                    Some(toml::Value::String(s)) => s.clone(),
                    Some(v) => return Err(format!("{what}: `name` must be a string, found {v}")),
                    None => return Err(format!("{what}: missing key `name` (type \"input\")")),
                };
                crate::system::check_name(&name).map_err(|e| format!("{what}: `name`: {e}"))?;
                let quantity = match tab.get("quantity") {
                    None => InputQuantity::Value,
                    Some(toml::Value::String(s)) if s == "value" => InputQuantity::Value,
                    Some(toml::Value::String(s)) if s == "velocity" => InputQuantity::Velocity,
                    Some(v) => {
                        return Err(format!(
                            "{what}: `quantity` = {v} is not valid; valid: \"value\", \"velocity\""
                        ))
                    }
                };
                if quantity == InputQuantity::Value && tab.contains_key("offset") {
                    return Err(format!(
                        "{what}: `offset` is the initial signal of a `quantity = \"velocity\"` input; \
                         a \"value\" input starts at `start`"
                    ));
                }
                let start = num("start", None, any, true)?;
                let offset = num("offset", Some(0.0), any, true)?;
                Schedule::Input(InputSignal::new(&name, start, quantity, offset))
            }
            _ => {
                let file = match tab.get("file") {
                    Some(toml::Value::String(s)) => s.clone(),
                    Some(v) => return Err(format!("{what}: `file` must be a string, found {v}")),
                    None => return Err(format!("{what}: missing key `file` (type \"table\")")),
                };
                let path = base_dir.join(&file);
                let (t, v) = read_table(&path).map_err(|e| format!("{what}: {e}"))?;
                Schedule::Table { t, v }
            }
        })
    }
}

/// Valid schedule types.
pub const TYPES: &[&str] = &[
    "constant",
    "step",
    "ramp",
    "sine",
    "chirp",
    "points",
    "velocity_sine",
    "pulse",
    "haversine",
    "table",
    "input",
    "pulse_train",
    "square",
    "sawtooth",
    "sum",
    "product",
    "window",
];

/// Read a two-column CSV (header row, then `t, value` rows).
pub fn read_table(path: &Path) -> Result<(Vec<f64>, Vec<f64>), String> {
    let mut rdr = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_path(path)
        .map_err(|e| format!("cannot read table file {}: {e}", path.display()))?;
    let (mut t, mut v) = (Vec::new(), Vec::new());
    for (i, rec) in rdr.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| format!("{}:{line}: {e}", path.display()))?;
        if rec.len() < 2 {
            return Err(format!(
                "{}:{line}: expected 2 columns (t, value), found {}",
                path.display(),
                rec.len()
            ));
        }
        let parse = |s: &str, col: &str| -> Result<f64, String> {
            let x: f64 = s
                .parse()
                .map_err(|_| format!("{}:{line}: column `{col}`: `{s}` is not a number", path.display()))?;
            if !x.is_finite() {
                return Err(format!("{}:{line}: column `{col}`: {x} is not finite", path.display()));
            }
            Ok(x)
        };
        let ti = parse(&rec[0], "t")?;
        if let Some(&last) = t.last() {
            if ti <= last {
                return Err(format!(
                    "{}:{line}: time {ti} is not greater than the previous {last}; times must increase strictly",
                    path.display()
                ));
            }
        }
        t.push(ti);
        v.push(parse(&rec[1], "value")?);
    }
    if t.len() < 2 {
        return Err(format!("{}: a table needs at least 2 rows, found {}", path.display(), t.len()));
    }
    Ok((t, v))
}

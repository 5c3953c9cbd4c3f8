//! A model parameter as a function of the temperature of its contact's
//! heat node ([`TempLaw`]): how a scenario writes it, its value and slope,
//! and which models and parameters may take one.

/// A model parameter as a function of temperature, `{ at = [[T1, v1], [T2,
/// v2], ...] }` or `{ ref = T0, value = v0, slope = dv/dT }` in a contact's
/// `params`, evaluated at the temperature of the contact's `heat` node
/// inside the integration (its slope enters the Jacobian).
///
/// Covered: `fc` of the `coulomb` model without `fs` (Fs = Fc), the
/// friction coefficient of a clutch or brake. Its force `Fc sign(v)` is
/// linear in `fc`, so the contact is built with `fc = 1` and its load
/// `N(t)` (which scales the force and the maximum static force) is
/// multiplied by `fc(T)`: exact, and the stick/slip logic sees the capacity
/// `N(t) fc(T)`. A table is held constant beyond its end points (Modelica's
/// `CombiTable1Ds` with `extrapolation = HoldLastPoint`); a linear law
/// whose value would fall below 0 is held at 0 (the contact then transmits
/// no force), so the value never leaves the valid range of `fc`.
#[derive(Debug, Clone, PartialEq)]
pub enum TempLaw {
    /// Piecewise linear through `(T, value)` points, T strictly increasing \[K\].
    Table(Vec<(f64, f64)>),
    /// `value + slope (T - reference)`, held at 0 from below.
    Linear {
        /// Reference temperature \[K\].
        reference: f64,
        /// The value at the reference temperature.
        value: f64,
        /// dv/dT per kelvin.
        slope: f64,
    },
}

impl TempLaw {
    /// The value and its slope dv/dT at temperature `t`.
    #[inline]
    pub fn eval(&self, t: f64) -> (f64, f64) {
        match self {
            TempLaw::Linear { reference, value, slope } => {
                let v = value + slope * (t - reference);
                if v > 0.0 {
                    (v, *slope)
                } else {
                    (0.0, 0.0)
                }
            }
            TempLaw::Table(p) => {
                let (first, last) = (p[0], p[p.len() - 1]);
                if t <= first.0 {
                    return (first.1, 0.0);
                }
                if t >= last.0 {
                    return (last.1, 0.0);
                }
                // the segment holding t (tables are short: a linear search)
                let k = p.iter().position(|q| q.0 > t).unwrap_or(p.len() - 1);
                let (a, b) = (p[k - 1], p[k]);
                let s = (b.1 - a.1) / (b.0 - a.0);
                (a.1 + s * (t - a.0), s)
            }
        }
    }

    /// The values the law takes at its breakpoints (a table's points, a
    /// linear law's reference value): between them it is linear, so these
    /// bound it.
    pub fn values(&self) -> Vec<f64> {
        match self {
            TempLaw::Table(p) => p.iter().map(|q| q.1).collect(),
            TempLaw::Linear { value, .. } => vec![*value],
        }
    }

    /// The law as the scenario writes it.
    pub fn to_toml(&self) -> toml::Value {
        let mut t = toml::Table::new();
        match self {
            TempLaw::Table(p) => {
                let rows = p.iter().map(|&(a, b)| toml::Value::Array(vec![a.into(), b.into()])).collect();
                t.insert("at".into(), toml::Value::Array(rows));
            }
            TempLaw::Linear { reference, value, slope } => {
                t.insert("ref".into(), (*reference).into());
                t.insert("value".into(), (*value).into());
                t.insert("slope".into(), (*slope).into());
            }
        }
        toml::Value::Table(t)
    }

    /// Read a law from the TOML value of parameter `param`; `Ok(None)` when
    /// it is not a table with the key `at` or `ref` (a plain number, or a
    /// model's own table-valued parameter).
    pub fn from_toml(v: &toml::Value, param: &str) -> Result<Option<TempLaw>, String> {
        let toml::Value::Table(t) = v else { return Ok(None) };
        if !(t.contains_key("at") || t.contains_key("ref")) {
            return Ok(None);
        }
        let num = |v: &toml::Value| v.as_float().or_else(|| v.as_integer().map(|i| i as f64));
        let bad = |m: String| Err(format!("`{param}`: {m}"));
        if let Some(at) = t.get("at") {
            if t.len() != 1 {
                return bad("a table `{ at = [[T1, v1], [T2, v2], ...] }` has no other key".into());
            }
            let Some(rows) = at.as_array() else {
                return bad("`at` must be an array of [T, value] pairs".into());
            };
            let mut p = Vec::with_capacity(rows.len());
            for r in rows {
                let pair =
                    r.as_array().filter(|a| a.len() == 2).and_then(|a| Some((num(&a[0])?, num(&a[1])?)));
                let Some((temp, val)) = pair else {
                    return bad(format!("`at`: {r} is not a [T, value] pair of numbers"));
                };
                if !(temp.is_finite() && temp > 0.0 && val.is_finite()) {
                    return bad(format!(
                        "`at`: [{temp}, {val}] needs a temperature in (0, inf) K and a finite value"
                    ));
                }
                if let Some(&(prev, _)) = p.last() {
                    if temp <= prev {
                        return bad(format!(
                            "`at`: the temperatures must increase strictly; {temp} K follows {prev} K"
                        ));
                    }
                }
                p.push((temp, val));
            }
            if p.len() < 2 {
                return bad(format!("`at` needs at least 2 [T, value] pairs, found {}", p.len()));
            }
            return Ok(Some(TempLaw::Table(p)));
        }
        let keys = ["ref", "value", "slope"];
        if let Some(k) = t.keys().find(|k| !keys.contains(&k.as_str())) {
            return bad(format!(
                "unknown key `{k}`: a temperature law is `{{ at = [[T1, v1], ...] }}` or \
                 `{{ ref = T0, value = v0, slope = dv/dT }}`"
            ));
        }
        let get = |k: &str| match t.get(k).map(num) {
            Some(Some(x)) if x.is_finite() => Ok(x),
            Some(_) => Err(format!("`{param}`: `{k}` must be a finite number")),
            None => Err(format!("`{param}`: missing key `{k}` of the linear law {{ ref, value, slope }}")),
        };
        let (reference, value, slope) = (get("ref")?, get("value")?, get("slope")?);
        if reference <= 0.0 {
            return bad(format!("`ref` = {reference} K is out of range; valid range (0, inf)"));
        }
        Ok(Some(TempLaw::Linear { reference, value, slope }))
    }
}

/// The parameters of a model that may take a temperature law, as the
/// scenario's `params` table would give them (`coulomb`: `fc`, and `fs`
/// when set); empty for other models (their laws are refused by [`take_law`]).
pub(crate) fn model_params_toml(m: &friction_models::AnyModel) -> toml::Table {
    let mut t = toml::Table::new();
    if let friction_models::AnyModel::Coulomb(c) = m {
        t.insert("fc".into(), toml::Value::Float(c.params().fc));
        if let Some(fs) = c.params().fs {
            t.insert("fs".into(), toml::Value::Float(fs));
        }
    }
    t
}

/// The message for a temperature law on a contact without a heat node.
pub(crate) const LAW_NEEDS_HEAT: &str =
    "a parameter depends on temperature: the contact needs `heat = \"NODE\"`, the node whose temperature it follows";

/// The models and parameters that may depend on temperature ([`TempLaw`]).
pub const TEMPERATURE_PARAMS: &[(&str, &str)] = &[("coulomb", "fc")];

/// Take a temperature law out of a contact's `params` (model `model`):
/// `Ok(None)` when there is none; else the parameters to build the model
/// with (the law's parameter set to 1, the load then scaled by the law) and
/// the law, each of whose values was checked against the model's valid
/// range (the message names the parameter).
pub(crate) fn take_law(model: &str, params: &toml::Table) -> Result<Option<(toml::Table, TempLaw)>, String> {
    let mut found = None;
    for (k, v) in params {
        if let Some(law) = TempLaw::from_toml(v, k)? {
            if found.is_some() {
                return Err(format!("`{k}`: only one parameter of a contact may depend on temperature"));
            }
            found = Some((k.clone(), law));
        }
    }
    let Some((param, law)) = found else { return Ok(None) };
    if !TEMPERATURE_PARAMS.contains(&(model, param.as_str())) || params.contains_key("fs") {
        return Err(format!(
            "`{param}`: a temperature-dependent parameter is supported for `fc` of the `coulomb` model \
             (without `fs`) so far, not `{param}` of `{model}`"
        ));
    }
    for v in law.values() {
        let mut p = params.clone();
        p.insert(param.clone(), toml::Value::Float(v));
        friction_models::build(model, &friction_models::params::from_toml(&p))
            .map_err(|e| format!("`{param}` at a temperature of its law: {e}"))?;
    }
    let mut p = params.clone();
    p.insert(param, toml::Value::Float(1.0));
    Ok(Some((p, law)))
}

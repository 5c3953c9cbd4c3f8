//! A model parameter as a function of the temperature of its contact's
//! heat node ([`TempLaw`]): how a scenario writes it, its value and slope,
//! which models and parameters may take one ([`temperature_params`]), and
//! the check of a contact's laws against its model's valid ranges
//! ([`check_laws`]) at every temperature.

/// A model parameter as a function of temperature, `{ at = [[T1, v1], [T2,
/// v2], ...] }` or `{ ref = T0, value = v0, slope = dv/dT }` in a contact's
/// `params`, evaluated at the temperature of the contact's `heat` node
/// inside the integration (its slope enters the Jacobian).
///
/// Any parameter of [`temperature_params`] may take one, several of one
/// contact at once. Two ways of following it, chosen when the system is
/// built (`crate::system::thermal::Thermal`):
///
/// - `fc` of the `coulomb` model without `fs` (Fs = Fc, the friction
///   coefficient of a clutch or brake): its force `Fc sign(v)` is linear in
///   `fc`, so the contact is built with `fc = 1` and its load `N(t)` (which
///   scales the force and the maximum static force) is multiplied by
///   `fc(T)`: exact, and the stick/slip logic sees the capacity `N(t) fc(T)`.
/// - every other parameter: the contact's model is set to the laws' values
///   at the current temperature in each evaluation of the equations
///   (`friction_models::AnyModel::with_reals`, no allocation), so its force,
///   state rates, maximum static force and stick band all follow the
///   temperature; the Jacobian's temperature column holds `∂F/∂T` and
///   `∂(dz/dt)/∂T`, each `Σ_p (∂/∂p)(dp/dT)` with `∂/∂p` a central
///   difference in `p` (step `1e-7 max(|p|, 1e-6)`) and `dp/dT` the law's
///   slope.
///
/// A table is held constant beyond its end points (Modelica's
/// `CombiTable1Ds` with `extrapolation = HoldLastPoint`); a linear law
/// whose value would fall below 0 is held at 0. Every value a contact's
/// laws take is checked against its model's valid ranges and constraints
/// ([`check_laws`]).
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

    /// Whether the law has the same value at every temperature (its slope
    /// is 0 everywhere: nothing for the Jacobian).
    pub fn is_constant(&self) -> bool {
        match self {
            TempLaw::Table(p) => p.iter().all(|q| q.1 == p[0].1),
            TempLaw::Linear { slope, .. } => *slope == 0.0,
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

/// The parameters of model `id` that may depend on temperature: its plain
/// real parameters (`friction_models::retune::settable`), not the shape
/// parameters of a Stribeck curve, integers, choices, rows or inner models.
pub fn temperature_params(id: &str) -> &'static [&'static str] {
    friction_models::retune::settable(id)
}

/// The message for a temperature law on a contact without a heat node.
pub(crate) const LAW_NEEDS_HEAT: &str =
    "a parameter depends on temperature: the contact needs `heat = \"NODE\"`, the node whose temperature it follows";

/// The highest temperature the laws are checked up to \[K\].
pub const LAW_CHECK_MAX: f64 = 1e6;

/// A contact's temperature laws as taken out of its `params`.
#[derive(Debug, Clone)]
pub(crate) struct TakenLaws {
    /// The parameters to build the model with: `fc = 1` for the load's
    /// law, each model law's value at its first check temperature.
    pub params: toml::Table,
    /// `fc` of `coulomb` without `fs`: a law on the load.
    pub load: Option<TempLaw>,
    /// The laws on the model's parameters (parameter, law).
    pub model: Vec<(String, TempLaw)>,
}

/// Take the temperature laws out of a contact's `params` (model `model`):
/// `Ok(None)` when there is none; else the parameters to build the model
/// with and the laws. The caller checks the model laws against the built
/// model with [`check_laws`].
pub(crate) fn take_laws(model: &str, params: &toml::Table) -> Result<Option<TakenLaws>, String> {
    let mut laws = Vec::new();
    for (k, v) in params {
        if let Some(law) = TempLaw::from_toml(v, k)? {
            laws.push((k.clone(), law));
        }
    }
    // no laws, or an unknown model (its build names it)
    if laws.is_empty() || friction_models::info(model).is_none() {
        return Ok(None);
    }
    let allowed = temperature_params(model);
    for (param, _) in &laws {
        if !allowed.contains(&param.as_str()) {
            let list = if allowed.is_empty() { "none".to_string() } else { allowed.join(", ") };
            return Err(format!(
                "`{param}` of `{model}` may not depend on temperature; the parameters of `{model}` \
                 that may: {list}"
            ));
        }
    }
    let mut p = params.clone();
    if model == "coulomb" && laws.len() == 1 && laws[0].0 == "fc" && !params.contains_key("fs") {
        let Some((param, law)) = laws.pop() else { return Ok(None) };
        for v in law.values() {
            let mut q = params.clone();
            q.insert(param.clone(), toml::Value::Float(v));
            friction_models::build(model, &friction_models::params::from_toml(&q))
                .map_err(|e| format!("`{param}` at a temperature of its law: {e}"))?;
        }
        p.insert(param, toml::Value::Float(1.0));
        return Ok(Some(TakenLaws { params: p, load: Some(law), model: Vec::new() }));
    }
    // the model at every temperature its laws are checked at (as
    // [`check_laws`]), built from the file's parameters; it is built with
    // the values at the first
    let temps = check_temperatures(&laws);
    for &temp in &temps {
        let mut q = params.clone();
        for (param, law) in &laws {
            q.insert(param.clone(), toml::Value::Float(law.eval(temp).0));
        }
        if let Err(e) = friction_models::build(model, &friction_models::params::from_toml(&q)) {
            let (param, law) = laws.iter().find(|(q, _)| Some(q.as_str()) == e.param()).unwrap_or(&laws[0]);
            return Err(format!(
                "`{param}` = {} at T = {temp} K (its temperature law): {e}",
                law.eval(temp).0
            ));
        }
    }
    for (param, law) in &laws {
        p.insert(param.clone(), toml::Value::Float(law.eval(temps[0]).0));
    }
    Ok(Some(TakenLaws { params: p, load: None, model: laws }))
}

/// The temperatures between which every law of `laws` is linear: 0 K, the
/// tables' points, the linear laws' reference and the temperature where
/// one reaches 0 (and is held there), and [`LAW_CHECK_MAX`]; sorted.
pub fn check_temperatures(laws: &[(String, TempLaw)]) -> Vec<f64> {
    let mut t = vec![0.0, LAW_CHECK_MAX];
    for (_, law) in laws {
        match law {
            TempLaw::Table(p) => t.extend(p.iter().map(|q| q.0)),
            TempLaw::Linear { reference, value, slope } => {
                t.push(*reference);
                if *slope != 0.0 {
                    t.push(reference - value / slope);
                }
            }
        }
    }
    t.retain(|x| (0.0..=LAW_CHECK_MAX).contains(x));
    t.sort_by(f64::total_cmp);
    t.dedup();
    t
}

/// `base` with every law of `laws` at temperature `temp`: `None` when a
/// parameter is not settable, else the model's own check.
#[inline]
pub(crate) fn model_at(
    base: &friction_models::AnyModel,
    laws: &[(String, TempLaw)],
    temp: f64,
) -> Option<Result<friction_models::AnyModel, friction_models::ModelError>> {
    base.with_reals(laws.iter().map(|(p, l)| (p.as_str(), l.eval(temp).0)))
}

/// Check a contact's laws on its model `base`: every parameter settable,
/// and the model valid with the laws' values at every temperature of
/// [`check_temperatures`]. Between two of them every parameter is linear in
/// the temperature, so a range, or a linear constraint between parameters
/// (`fs >= fc`), that holds at both holds between them: the laws are valid
/// at every temperature from 0 to [`LAW_CHECK_MAX`]. The message names the
/// parameter, its value, the temperature and the valid range.
pub fn check_laws(
    base: &friction_models::AnyModel,
    laws: &[(String, TempLaw)],
) -> Result<(), (String, String)> {
    use friction_models::FrictionModel;
    if laws.is_empty() {
        return Ok(());
    }
    let id = base.info().id;
    let allowed = temperature_params(id);
    if let Some((p, _)) = laws.iter().find(|(p, _)| !allowed.contains(&p.as_str())) {
        let list = if allowed.is_empty() { "none".to_string() } else { allowed.join(", ") };
        return Err((
            p.clone(),
            format!(
                "`{p}` of `{id}` may not depend on temperature; the parameters of `{id}` that may: {list}"
            ),
        ));
    }
    for temp in check_temperatures(laws) {
        if let Some(Err(e)) = model_at(base, laws, temp) {
            // the parameter the model's check names, if it has a law
            let (p, law) = match laws.iter().find(|(p, _)| Some(p.as_str()) == e.param()) {
                Some((p, l)) => (p, l),
                None => (&laws[0].0, &laws[0].1),
            };
            return Err((
                p.clone(),
                format!("`{p}` = {} at T = {temp} K (its temperature law): {e}", law.eval(temp).0),
            ));
        }
    }
    Ok(())
}

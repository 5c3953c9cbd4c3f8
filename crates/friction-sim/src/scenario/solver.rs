//! The `[solver]` table: its keys as read from the file, and the solver
//! settings they give (the defaults that follow from `t_end`; the ranges
//! are checked by the system's own checks, shared with the builder).

use super::spanned::Spanned;
use serde::Deserialize;

use super::locate::Src;
use super::*;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSolver {
    t_end: f64,
    output_dt: Option<f64>,
    output: Option<String>,
    method: Option<String>,
    linear_algebra: Option<String>,
    rtol: Option<f64>,
    atol: Option<toml::Value>,
    max_step: Option<f64>,
    max_steps: Option<i64>,
    max_wall: Option<f64>,
    states: Option<toml::Value>,
    columns: Option<toml::Value>,
    max_output_bytes: Option<f64>,
}

pub(super) fn solver_settings(s: &Spanned<RawSolver>, src: &Src<'_>) -> Result<SolverSettings, SimError> {
    let span = s.span();
    let s = s.get_ref();
    let bad = |key: &str, msg: String| src.err(src.key_at(span.clone(), key), format!("[solver] {msg}"));
    // the ranges are checked by builder::check_solver, shared with the builder;
    // here: what only a file can get wrong, and the defaults that follow from t_end
    if !(s.t_end.is_finite() && s.t_end > 0.0) {
        return Err(bad("t_end", format!("`t_end` = {} is out of range; valid range (0, inf)", s.t_end)));
    }
    let output_dt = match (&s.output_dt, &s.output) {
        (Some(_), Some(_)) => {
            return Err(bad("output", "give either `output_dt` or `output = \"steps\"`, not both".into()))
        }
        (Some(dt), None) => Some(*dt),
        (None, Some(o)) if o == "steps" => None,
        (None, Some(o)) => {
            return Err(bad(
                "output",
                format!("`output` = \"{o}\" is not valid; the only value is \"steps\""),
            ))
        }
        (None, None) => Some(s.t_end / 1000.0),
    };
    const METHODS: [&str; 9] =
        ["auto", "bdf", "tr_bdf2", "esdirk34", "tsit45", "radau5", "dop853", "rodas5p", "bdf5"];
    let method = match s.method.as_deref().unwrap_or("auto") {
        "auto" => Method::Auto,
        "bdf" => Method::Bdf,
        "tr_bdf2" => Method::TrBdf2,
        "esdirk34" => Method::Esdirk34,
        "tsit45" => Method::Tsit45,
        "radau5" => Method::Radau5,
        "dop853" => Method::Dop853,
        "rodas5p" => Method::Rodas5p,
        "bdf5" => Method::Bdf5,
        other => {
            return Err(bad(
                "method",
                format!(
                    "`method` = \"{other}\" is not valid{}; valid: {}",
                    friction_models::suggest::did_you_mean(other, METHODS),
                    METHODS.join(", ")
                ),
            ))
        }
    };
    const ALGEBRAS: [&str; 3] = ["auto", "dense", "sparse"];
    let linear_algebra = match s.linear_algebra.as_deref().unwrap_or("auto") {
        "auto" => LinearAlgebra::Auto,
        "dense" => LinearAlgebra::Dense,
        "sparse" => LinearAlgebra::Sparse,
        other => {
            return Err(bad(
                "linear_algebra",
                format!(
                    "`linear_algebra` = \"{other}\" is not valid{}; valid: {}",
                    friction_models::suggest::did_you_mean(other, ALGEBRAS),
                    ALGEBRAS.join(", ")
                ),
            ))
        }
    };
    if matches!(method, Method::Radau5 | Method::Rodas5p) && linear_algebra == LinearAlgebra::Sparse {
        return Err(bad(
            "linear_algebra",
            format!(
                "`linear_algebra` = \"sparse\" is not available with `method` = \"{}\" (dense LU only, meant \
                 for small networks); use \"auto\" or \"dense\", or `method` = \"bdf\" for large networks",
                method.name()
            ),
        ));
    }
    let (mut ap, mut av, mut az) = (1e-9, 1e-9, 1e-10);
    match &s.atol {
        None => {}
        Some(toml::Value::Float(x)) => (ap, av, az) = (*x, *x, *x),
        Some(toml::Value::Table(t)) => {
            for (k, v) in t {
                let x = match v {
                    toml::Value::Float(x) => *x,
                    toml::Value::Integer(i) => *i as f64,
                    other => return Err(bad("atol", format!("`atol.{k}` must be a number, found {other}"))),
                };
                match k.as_str() {
                    "position" => ap = x,
                    "velocity" => av = x,
                    "state" => az = x,
                    _ => {
                        return Err(bad(
                            "atol",
                            format!("unknown key `atol.{k}`; valid: position, velocity, state"),
                        ))
                    }
                }
            }
        }
        Some(other) => return Err(bad("atol", format!("`atol` must be a number or a table, found {other}"))),
    }
    let max_steps = s.max_steps.unwrap_or(DEFAULT_MAX_STEPS as i64);
    if max_steps < 1 {
        return Err(bad(
            "max_steps",
            format!("`max_steps` = {max_steps} is out of range; valid range integer >= 1"),
        ));
    }
    let states = match &s.states {
        None => StateColumns::Auto,
        Some(toml::Value::String(x)) if x == "auto" => StateColumns::Auto,
        Some(toml::Value::String(x)) if x == "all" => StateColumns::All,
        Some(toml::Value::String(x)) if x == "none" => StateColumns::None,
        Some(toml::Value::Array(a)) => StateColumns::Names(
            a.iter()
                .map(|v| match v {
                    toml::Value::String(n) => Ok(n.clone()),
                    other => Err(bad("states", format!("`states` entries must be contact names (strings), found {other}"))),
                })
                .collect::<Result<_, _>>()?,
        ),
        Some(other) => {
            return Err(bad(
                "states",
                format!("`states` = {other} is not valid; valid: \"auto\", \"all\", \"none\" or a list of contact names"),
            ))
        }
    };
    let columns = match &s.columns {
        None => None,
        Some(toml::Value::Array(a)) => Some(
            a.iter()
                .map(|v| match v {
                    toml::Value::String(n) => Ok(n.clone()),
                    other => Err(bad(
                        "columns",
                        format!("`columns` entries must be column names (strings), found {other}"),
                    )),
                })
                .collect::<Result<_, _>>()?,
        ),
        Some(other) => {
            return Err(bad(
                "columns",
                format!(
                    "`columns` = {other} is not valid; give a list of column names, e.g. [\"x.m\", \"F.c\"]"
                ),
            ))
        }
    };
    let max_output_bytes = match s.max_output_bytes {
        None => DEFAULT_MAX_OUTPUT_BYTES,
        Some(b) if b.is_finite() && b >= 1.0 && b <= u64::MAX as f64 => b as u64,
        Some(b) => {
            return Err(bad(
                "max_output_bytes",
                format!("`max_output_bytes` = {b} is out of range; valid range [1, 1.8e19] bytes"),
            ))
        }
    };
    let settings = SolverSettings {
        method,
        linear_algebra,
        t_end: s.t_end,
        output_dt,
        output_times: None,
        rtol: s.rtol.unwrap_or(1e-6),
        atol_position: ap,
        atol_velocity: av,
        atol_state: az,
        max_step: s.max_step.unwrap_or(s.t_end / 10.0),
        max_steps: max_steps as usize,
        max_wall: s.max_wall,
        states,
        columns,
        max_output_bytes,
    };
    checks::check_solver(&settings).map_err(|e| match e.key {
        Some(k) => src.err(src.key_at(span.clone(), k), e.message),
        None => src.err(src.line_of(span.start), e.message),
    })?;
    Ok(settings)
}

/// The horizon over which a scenario without `[solver]` has its schedules
/// checked in the frequency domain \[s\].
pub const FREQUENCY_DOMAIN_T_END: f64 = 1.0;

/// `text` with `[solver] t_end = 1` appended where it has no `[solver]`
/// table: `friction frf`, `friction nnm` and Python's `frf` and `nnm`
/// integrate nothing and need no solver settings (their schedules are
/// checked over [`FREQUENCY_DOMAIN_T_END`]). Text that does not parse is
/// returned as it is, for the parser to report; appended at the end, the
/// table moves no line of the file. A scenario read once into a
/// [`Document`](super::Document) takes
/// [`Document::with_default_solver`](super::Document::with_default_solver)
/// instead, which edits its table and writes no text.
///
/// ```
/// use friction_sim::scenario::with_default_solver;
/// let text = "[[body]]\nname = \"m\"\nmass = 1.0\n";
/// let sys = friction_sim::scenario::parse(&with_default_solver(text), "s.toml", ".".as_ref()).unwrap();
/// assert_eq!(sys.solver.t_end, 1.0);
/// assert_eq!(with_default_solver("[solver]\nt_end = 3.0\n"), "[solver]\nt_end = 3.0\n");
/// ```
pub fn with_default_solver(text: &str) -> std::borrow::Cow<'_, str> {
    match toml::from_str::<toml::Table>(text) {
        Ok(t) if !t.contains_key("solver") => {
            format!("{text}\n[solver]\nt_end = {FREQUENCY_DOMAIN_T_END:?}\n").into()
        }
        _ => text.into(),
    }
}

/// [`with_default_solver`] on a scenario's table: a `[solver]` with
/// `t_end = FREQUENCY_DOMAIN_T_END` added where it has none (for a table
/// that is validated as it is, `Document::from_table`).
///
/// ```
/// let mut t: toml::Table = "[[body]]\nname = \"m\"\nmass = 1.0\n".parse().unwrap();
/// friction_sim::scenario::set_default_solver(&mut t);
/// assert_eq!(t["solver"]["t_end"].as_float(), Some(friction_sim::scenario::FREQUENCY_DOMAIN_T_END));
/// let mut own: toml::Table = "[solver]\nt_end = 3.0\n".parse().unwrap();
/// friction_sim::scenario::set_default_solver(&mut own);
/// assert_eq!(own["solver"]["t_end"].as_float(), Some(3.0));
/// ```
pub fn set_default_solver(t: &mut toml::Table) {
    if !t.contains_key("solver") {
        let mut solver = toml::Table::new();
        solver.insert("t_end".into(), toml::Value::Float(FREQUENCY_DOMAIN_T_END));
        t.insert("solver".into(), toml::Value::Table(solver));
    }
}

//! The scenario file format (a public contract: extend it, never break it)
//! and its translation into a validated [`System`].
//!
//! ```toml
//! name = "dahl-triangle"
//! [[driver]]            # a point whose position is prescribed
//! name = "slider"
//! kind = "translational"   # or "rotational"
//! motion = { type = "points", points = [0.0, 2e-5, -1e-5], speed = 1e-4 }
//! [[body]]              # a mass (or a rotational inertia)
//! name = "m"
//! kind = "translational"   # or "rotational": angle [rad], torque [N m], inertia [kg m²]
//! mass = 1.0
//! x0 = 0.0
//! v0 = 0.0
//! # dim = 2 (or 3): a body with coordinates x, y (z), x0 = [x, y], v0 = [vx, vy];
//! # columns x.NAME, y.NAME, vx.NAME, vy.NAME; springs, dampers, forces, gaps and
//! # stops take direction = "x" | "y" | "z" (x by default)
//! [[spring]]            # force on the first member k (x2 - x1 - length)
//! between = ["m", "slider"]
//! stiffness = 100.0
//! [[damper]]            # force on the first member c (v2 - v1)
//! between = ["m", "ground"]
//! coefficient = 1.0
//! [[force]]             # an external force (schedule, see friction_sim::schedule)
//! on = "m"
//! value = { type = "constant", value = 1.0 }
//! [[contact]]           # a frictional contact between two of: bodies, drivers, "ground"
//! name = "c"
//! between = ["slider", "ground"]
//! model = "dahl"
//! params = { sigma0 = 1e5, fc = 1.0, exponent = 1.0 }
//! normal = 1.0          # or a schedule table; scales the force and the maximum static force
//! # between bodies of dim 2: normal_stiffness = KN, gap = G0 make the normal load
//! # N = max(0, KN (G0 - y)), y the first member's y relative to the second's
//! # (column N.NAME); the contact rubs along x and is open where N = 0
//! # any schedule may be an FMU input, set by a co-simulation master (friction fmu);
//! # friction run holds `start`. quantity = "value" (default: for a driver its position)
//! # or "velocity" (the driver's velocity, its position integrated from `offset`):
//! #   motion = { type = "input", name = "v_slip", start = 0.0, quantity = "velocity" }
//! [[gap]]               # a compliant one-sided contact (Modelica's ElastoGap): pushes the
//! name = "floor"        # members apart while x2 - x1 < length, with c p^n plus damping
//! between = ["ground", "m"]   # d (v1 - v2) limited to that spring force (it never pulls);
//! length = 0.0          # p = length - (x2 - x1) is the penetration
//! stiffness = 1e5
//! damping = 10.0
//! exponent = 1.0
//! [[stop]]              # hard end stops of a body
//! body = "m"
//! min = -0.1
//! max = 0.1
//! restitution = 0.0
//! [[structure]]         # a linear structure from finite-element matrices (crate::structure);
//! name = "beam"         # its DOFs are the members "beam:INDEX" (0-based), for frf and nnm
//! mass = "beam.mas"     # MatrixMarket (.mtx) or CalculiX (.sti, .mas), relative to this file
//! stiffness = "beam.sti"
//! rayleigh = [0.0, 1e-5]   # or damping = "C.mtx", or modal_damping = 0.01
//! reduce = { keep = [337], modes = 6 }   # optional Craig-Bampton reduction
//! [solver]
//! t_end = 1.0
//! output_dt = 1e-4      # or output = "steps"
//! method = "auto"       # auto | bdf | tr_bdf2 | esdirk34 | tsit45 | radau5 | dop853 | rodas5p |
//!                       # bdf5 (auto: when no contact is stiff dop853, or tsit45 if a contact's
//!                       # hysteresis turns at reversals (Iwan, Jenkins, Maxwell slip, GMS); radau5
//!                       # for a stiff network of at most 3 states (one body, or driven contacts)
//!                       # without stick, stop or reversal events; bdf5 for a larger one without
//!                       # them (bdf with a [[structure]]); bdf otherwise. On the LuGre stick-slip
//!                       # example radau5 takes 0.75 ms at an error of 2e-7 m, bdf 1.2 ms at
//!                       # 4e-5 m, tr_bdf2 1.7, esdirk34 2.0, tsit45 25x the steps; on the
//!                       # Coulomb free decay (rtol 1e-9) dop853 59 steps (it controls its error
//!                       # at a tenth of rtol and atol), tsit45 276 steps and 0.37 ms, bdf 0.45,
//!                       # radau5 0.65; on the Iwan-4 joint's decay tsit45 4.9 ms, dop853 9.6)
//! linear_algebra = "auto"   # auto | dense | sparse (auto: sparse from 12 states)
//! rtol = 1e-6
//! atol = { position = 1e-9, velocity = 1e-8, state = 1e-10 }   # or one number
//! max_step = 0.01
//! max_steps = 1000000  # a run that needs more accepted steps stops with a partial result,
//!                      # saying which parts made the steps small (a hopeless run stops in seconds)
//! max_wall = 60.0       # optional: wall-clock seconds after which a run stops, partial (refused
//!                      # after a short pilot if its estimate is over twice this)
//! states = "all"        # internal-state columns z.NAME.k: "all" | "none" | ["contact", ...]
//! columns = ["x.m", "F.c"]   # optional: only these output columns (t always first)
//! max_output_bytes = 4294967296   # refuse a run whose output would be larger (default 4 GiB)
//! ```
//!
//! # Names
//!
//! The scenario `name` and the name of every body, driver, contact, spring,
//! damper and force use the character set of [`check_name`]: ASCII letters,
//! digits, `_`, `-` and `.`; not empty, not starting with `.`, at most
//! [`MAX_NAME_LEN`] characters. Names become CSV column names (`x.NAME`,
//! `F.NAME`) and the default output directory `out/NAME`, which therefore
//! can never leave `out/`.
//!
//! # Loads and signals
//!
//! Every signal (a driver's motion, a force's value, a contact's `normal`)
//! must be finite over the whole run; for every schedule type the smallest
//! and largest value over `[0, t_end]` follow from its parameters, and a
//! signal that is NaN, infinite or overflows there is refused at load time.
//!
//! **A contact's `normal` scales the model's force.** `normal` is the factor
//! N(t) that multiplies both the model's friction force and its maximum
//! static force; a model's parameters (`fc`, `fs`, `sigma0`, ...) are those
//! at N = 1. A model with a load parameter of its own (`stribeck_exp.normal`,
//! `rate_state.fn_load`) must not double it: give the load either in the
//! contact's `normal` (recommended: it can vary in time) or in the model's
//! parameter, never both, or N would enter squared. A contact that sets both
//! to values other than 1 is refused.
//!
//! **A negative `normal` means a disengaged contact.** A clutch actuator
//! such as `max(0, sin)` is commonly written as a sine whose negative half
//! lifts the plates apart: where N(t) <= 0 the contact transmits no friction
//! force (it is free), it does not push. Negative values are therefore
//! accepted; only non-finite ones are refused.
//!
//! # Output size
//!
//! Before a run, the output is estimated as rows × columns × 8 bytes (rows
//! from `t_end / output_dt` or `output_times`; columns: `t`, position and
//! velocity of every body and driver, the force, slip and slip velocity of
//! every contact, the
//! internal-state columns chosen by `states`, and the force of every gap). A run whose estimate exceeds
//! `max_output_bytes` ([`DEFAULT_MAX_OUTPUT_BYTES`], 4 GiB, by default) is
//! refused with the estimate; raise `output_dt`, shorten `t_end`, set
//! `states = "none"`, or raise `max_output_bytes`.

use std::path::Path;

use friction_models::ParamMap;

use crate::error::SimError;
use crate::system::checks::{self, Names};
use crate::system::inclined::{self, SpringDirection};
use crate::system::planar;
use crate::system::schedule::Schedule;
use crate::system::Invalid;

pub mod chain;
mod document;
pub use document::Document;
mod locate;
pub mod overrides;
mod raw;
pub mod schema;
mod solver;
mod spanned;
pub use solver::{set_default_solver, with_default_solver, FREQUENCY_DOMAIN_T_END};
mod thermal;

use locate::Src;
use raw::*;
use solver::solver_settings;
use spanned::Spanned;

// The system's types, at the paths this module has always given them.
#[doc(no_inline)]
pub use crate::system::{
    check_name, human_bytes, Axis, Body, Contact, Damper, Driver, Force, Gap, GapForce, Kind, LinearAlgebra,
    Member, Method, SolverSettings, Spring, StateColumns, Stop, System, AUTO_STATE_COLUMNS,
    DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_MAX_STEPS, MAX_NAME_LEN,
};

/// Read a scenario file.
pub fn load(path: &Path) -> Result<System, SimError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| SimError::Io { path: path.display().to_string(), source: e })?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    parse(&text, &path.display().to_string(), &dir)
}

/// Parse scenario text; `file` names it in errors, `dir` resolves relative
/// table files: the text read as TOML, then validated ([`Document`]).
pub fn parse(text: &str, file: &str, dir: &Path) -> Result<System, SimError> {
    Document::read(text, file)?.validate(dir)
}

/// The scenario's tables validated into a [`System`]; every error names
/// the file and the line of its key (or, for a value an override set, is
/// blamed on that override: [`Src::err`]).
fn system(raw: &RawFile, src: &Src<'_>) -> Result<System, SimError> {
    let file = src.file.as_str();
    let _ = &raw.description;

    let solver = match &raw.solver {
        None => {
            return Err(SimError::Input {
                file: file.into(),
                line: None,
                message: "missing table [solver] with at least `t_end`".into(),
            })
        }
        Some(s) => solver_settings(s, src)?,
    };
    let t_end = solver.t_end;
    let name = match &raw.name {
        None => "scenario".to_string(),
        Some(n) => {
            check_name(n).map_err(|m| src.err(src.top_key_line("name"), format!("`name`: {m}")))?;
            n.clone()
        }
    };

    // every check below is shared with the builder (crate::builder), which
    // gives the same messages; here they gain the file and line
    let at = |span: &std::ops::Range<usize>, e: Invalid| match e.key {
        Some(k) => src.err(src.key_at(span.clone(), k), e.message),
        None => src.err(src.line_of(span.start), e.message),
    };
    let mut names = Names::new();

    let mut input_names = std::collections::HashSet::new();
    let mut drivers = Vec::new();
    for (i, d) in raw.driver.iter().enumerate() {
        let span = d.span();
        let d = d.get_ref();
        names.add(&d.name, Member::Driver(i)).map_err(|e| at(&span, e))?;
        let what = format!("driver \"{}\" motion", d.name);
        let motion = Schedule::from_toml(&d.motion, &what, &src.dir)
            .and_then(|m| m.check_finite(&what, t_end).map(|()| m))
            .and_then(|m| unique_input(&mut input_names, &m, &what).map(|()| m))
            .map_err(|m| src.err(src.key_at(span.clone(), "motion"), m))?;
        drivers.push(Driver { name: d.name.clone(), motion, kind: d.kind });
    }
    let mut bodies = Vec::new();
    for b in &raw.body {
        let span = b.span();
        let b = b.get_ref();
        let what = format!("body \"{}\"", b.name);
        let dim = usize::try_from(b.dim.unwrap_or(1)).unwrap_or(usize::MAX);
        let coord = |v: &Option<toml::Value>, key: &'static str| {
            planar::coordinates(v.as_ref(), dim, key, &what).map_err(|e| at(&span, e))
        };
        let (x0, v0) = (coord(&b.x0, "x0")?, coord(&b.v0, "v0")?);
        let parts = planar::check_body_dim(&b.name, b.mass, b.dim.unwrap_or(1), &x0, &v0)
            .map_err(|e| at(&span, e))?;
        names
            .add_body(&b.name, (bodies.len()..bodies.len() + parts.len()).collect())
            .map_err(|e| at(&span, e))?;
        if b.kind.rotational() && parts.len() > 1 {
            return Err(at(
                &span,
                Invalid::at(
                    "kind",
                    format!(
                        "{what}: a rotational body has one coordinate (an angle); `dim` is for translation"
                    ),
                ),
            ));
        }
        bodies.extend(parts.into_iter().map(|mut p| {
            p.kind = b.kind;
            p
        }));
    }

    let mut structures = structures(&raw.structure, src, &mut names)?;

    let (mut springs, mut inclined_springs) = (Vec::new(), Vec::new());
    for (i, s) in raw.spring.iter().enumerate() {
        let span = s.span();
        let s = s.get_ref();
        let name = s.name.clone().unwrap_or_else(|| format!("spring{i}"));
        let what = format!("spring \"{name}\"");
        match inclined::spring_direction(s.direction.as_ref(), &what).map_err(|e| at(&span, e))? {
            SpringDirection::Axis(axis) => springs.push(
                checks::check_spring(&names, &name, &s.between, s.stiffness, s.length, axis)
                    .map_err(|e| at(&span, e))?,
            ),
            SpringDirection::Vector(e) => inclined_springs.push(
                inclined::check_inclined(&names, &name, &s.between, s.stiffness, s.length, &e)
                    .map_err(|e| at(&span, e))?,
            ),
        }
    }
    let mut dampers = Vec::new();
    for (i, s) in raw.damper.iter().enumerate() {
        let span = s.span();
        let s = s.get_ref();
        let name = s.name.clone().unwrap_or_else(|| format!("damper{i}"));
        let axis = planar::direction(s.direction.as_deref(), &format!("damper \"{name}\""))
            .map_err(|e| at(&span, e))?;
        dampers.push(
            checks::check_damper(&names, &name, &s.between, s.coefficient, axis).map_err(|e| at(&span, e))?,
        );
    }
    let mut forces = Vec::new();
    for (i, f) in raw.force.iter().enumerate() {
        let span = f.span();
        let f = f.get_ref();
        let name = f.name.clone().unwrap_or_else(|| format!("force{i}"));
        let axis = planar::direction(f.direction.as_deref(), &format!("force \"{name}\""))
            .map_err(|e| at(&span, e))?;
        let on = checks::check_force_target(&names, &name, &f.on, axis).map_err(|e| at(&span, e))?;
        let what = format!("force \"{name}\" value");
        let value = schedule_value(&f.value, &what, src, t_end)
            .and_then(|m| unique_input(&mut input_names, &m, &what).map(|()| m))
            .map_err(|m| src.err(src.key_at(span.clone(), "value"), m))?;
        match on {
            Ok(on) => forces.push(Force { name, on, value }),
            // a force on a structure's DOF: one of its loads
            Err((s, on)) => structures[s].loads.push(Force { name, on, value }),
        }
    }
    let mut contacts = Vec::new();
    let mut laws = Vec::new();
    let mut contact_names = std::collections::HashSet::new();
    for (i, c) in raw.contact.iter().enumerate() {
        let span = c.span();
        let c = c.get_ref();
        let name = c.name.clone().unwrap_or_else(|| format!("c{i}"));
        checks::check_contact_name(&mut contact_names, &name).map_err(|e| at(&span, e))?;
        let what = format!("contact \"{name}\"");
        let between = names.pair(&c.between, &what).map_err(|e| at(&span, e))?;
        // temperature laws (`fc = { at = ... }`): `fc` of `coulomb` builds
        // the model with fc = 1, the others with their first values
        let law = crate::system::thermal::take_laws(&c.model, &c.params)
            .map_err(|m| src.err(src.key_at(span.clone(), "params"), format!("{what}: {m}")))?;
        let params = toml_to_params(law.as_ref().map_or(&c.params, |l| &l.params));
        let model = friction_models::build(&c.model, &params).map_err(|e| {
            let (param, message) = checks::model_invalid(i, &what, &e);
            let line = match &param {
                Some(p) => src.key_at(span.clone(), p.split(['.', '[']).next().unwrap_or(p)),
                None => src.key_at(span.clone(), "model"),
            };
            src.err(line, message)
        })?;
        let normal = match &c.normal {
            None => Schedule::Constant { value: 1.0 },
            Some(v) => schedule_value(v, &format!("{what} `normal`"), src, t_end)
                .and_then(|m| unique_input(&mut input_names, &m, &format!("{what} `normal`")).map(|()| m))
                .map_err(|m| src.err(src.key_at(span.clone(), "normal"), m))?,
        };
        checks::check_load(&model, &normal, &what).map_err(|e| at(&span, e))?;
        if let Some(l) = law {
            crate::system::thermal::check_laws(&model, &l.model)
                .map_err(|(p, m)| src.err(src.key_at(span.clone(), &p), format!("{what}: {m}")))?;
            laws.push((i, span.clone(), l));
        }
        contacts.push(Contact { name, between, model, normal, normal_gap: None });
    }
    let mut stops = Vec::new();
    for s in &raw.stop {
        let span = s.span();
        let s = s.get_ref();
        let min = s.min.unwrap_or(f64::NEG_INFINITY);
        let max = s.max.unwrap_or(f64::INFINITY);
        let axis = planar::direction(s.direction.as_deref(), &format!("stop on \"{}\"", s.body))
            .map_err(|e| at(&span, e))?;
        stops.push(
            checks::check_stop(&names, &bodies, &s.body, min, max, s.restitution, axis)
                .map_err(|e| at(&span, e))?,
        );
    }
    let mut gaps = Vec::new();
    for (i, g) in raw.gap.iter().enumerate() {
        let span = g.span();
        let g = g.get_ref();
        let name = g.name.clone().unwrap_or_else(|| format!("g{i}"));
        let axis = planar::direction(g.direction.as_deref(), &format!("gap \"{name}\""))
            .map_err(|e| at(&span, e))?;
        let raw_gap = checks::RawGap {
            name: &name,
            between: &g.between,
            length: g.length,
            stiffness: g.stiffness,
            damping: g.damping,
            exponent: g.exponent,
            axis,
        };
        gaps.push(checks::check_gap(&names, &mut contact_names, raw_gap).map_err(|e| at(&span, e))?);
    }
    // a contact's normal load from a gap's force: its own gap
    // (`normal_stiffness`) or a named one (`normal_gap`)
    let mut planes = Vec::new();
    for (i, c) in raw.contact.iter().enumerate() {
        let span = c.span();
        let r = c.get_ref();
        if let Some((g, lateral)) = planar::contact_normal(
            &names,
            &mut contact_names,
            &contacts[i].name,
            &r.between,
            r.normal_stiffness,
            r.gap,
            r.normal_gap.is_some(),
        )
        .map_err(|e| at(&span, e))?
        {
            contacts[i].normal_gap = Some(gaps.len());
            gaps.push(g);
            if let Some(lateral) = lateral {
                planes.push(planar::plane(&contacts[i], i, lateral).map_err(|e| at(&span, e))?);
            }
        }
        if let Some(g) = &c.get_ref().normal_gap {
            contacts[i].normal_gap = Some(
                checks::check_normal_gap(&contacts[i], &gaps, g)
                    .map_err(|m| src.err(src.key_at(span.clone(), "normal_gap"), m))?,
            );
        }
    }

    let thermal = thermal::thermal(&raw.thermal, &raw.conduction, &heat_refs(raw), laws, src)?;
    let sys = System {
        name,
        bodies,
        drivers,
        springs,
        dampers,
        forces,
        contacts,
        gaps,
        stops,
        solver,
        thermal,
        structures,
        inclined_springs,
        planes,
    };
    crate::system::units::check_kinds(&sys).map_err(|(link, i, e)| {
        let span = match link {
            crate::system::units::Link::Spring => raw.spring[i].span(),
            crate::system::units::Link::Damper => raw.damper[i].span(),
            crate::system::units::Link::Contact => raw.contact[i].span(),
            // a contact's own normal gap (`normal_stiffness`) is that contact's
            crate::system::units::Link::Gap => match raw.gap.get(i) {
                Some(g) => g.span(),
                None => {
                    raw.contact[sys.contacts.iter().position(|c| c.normal_gap == Some(i)).unwrap_or(0)].span()
                }
            },
        };
        at(&span, e)
    })?;
    planar::check_planes(&sys).map_err(|(c, e)| at(&raw.contact[c].span(), e))?;
    if let Some(s) = &raw.solver {
        let span = s.span();
        checks::check_states(&sys).map_err(|e| at(&span, e))?;
        checks::check_columns(&sys).map_err(|e| at(&span, e))?;
        sys.check_output_size().map_err(|m| src.err(src.key_at(span.clone(), "t_end"), m))?;
    }
    Ok(sys)
}

/// The `heat` keys of contacts, dampers and gaps.
fn heat_refs(raw: &RawFile) -> Vec<thermal::HeatRef<'_>> {
    use crate::system::thermal::Dissipator as D;
    let c =
        raw.contact.iter().enumerate().map(|(i, c)| (D::Contact(i), c.span(), c.get_ref().heat.as_deref()));
    let d = raw.damper.iter().enumerate().map(|(i, c)| (D::Damper(i), c.span(), c.get_ref().heat.as_deref()));
    let g = raw.gap.iter().enumerate().map(|(i, c)| (D::Gap(i), c.span(), c.get_ref().heat.as_deref()));
    c.chain(d).chain(g).filter_map(|(e, span, h)| h.map(|h| (e, span, h))).collect()
}

/// Read every `[[structure]]` and register its DOFs as members; a matrix
/// file's fault names that file and its line, a key's the scenario's line.
fn structures(
    raw: &[Spanned<crate::structure::parse::RawStructure>],
    src: &Src<'_>,
    names: &mut Names,
) -> Result<Vec<crate::structure::Structure>, SimError> {
    use crate::structure::parse::{from_raw, Refused};
    let mut out = Vec::new();
    for (i, r) in raw.iter().enumerate() {
        let span = r.span();
        let at = |e: Invalid| match e.key {
            Some(k) => src.err(src.key_at(span.clone(), k), e.message),
            None => src.err(src.line_of(span.start), e.message),
        };
        let s = from_raw(r.get_ref(), &src.dir).map_err(|e| match e {
            Refused::Key(e) => at(e),
            Refused::File(e) => SimError::Input { file: e.file, line: e.line, message: e.message },
        })?;
        names.add_structure(&s.name, i, s.dofs.clone()).map_err(at)?;
        out.push(s);
    }
    Ok(out)
}

/// Refuse a second input of the same name.
fn unique_input(
    names: &mut std::collections::HashSet<String>,
    s: &Schedule,
    what: &str,
) -> Result<(), String> {
    if let Some(u) = s.input() {
        if !names.insert(u.name.clone()) {
            return Err(format!(
                "{what}: input name \"{}\" is used twice; every input of a scenario needs its own name",
                u.name
            ));
        }
    }
    Ok(())
}

/// A number or a schedule table, checked to be finite over `[0, t_end]`.
fn schedule_value(v: &toml::Value, what: &str, src: &Src<'_>, t_end: f64) -> Result<Schedule, String> {
    let s = match v {
        toml::Value::Float(x) => Schedule::Constant { value: *x },
        toml::Value::Integer(i) => Schedule::Constant { value: *i as f64 },
        toml::Value::Table(t) => Schedule::from_toml(t, what, &src.dir)?,
        other => return Err(format!("{what}: expected a number or a schedule table, found {other}")),
    };
    checks::check_signal(&s, what, t_end)?;
    Ok(s)
}

/// Convert a TOML table to model parameters ([`friction_models::params::from_toml`]).
pub fn toml_to_params(t: &toml::Table) -> ParamMap {
    friction_models::params::from_toml(t)
}

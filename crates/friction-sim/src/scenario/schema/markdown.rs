//! The scenario reference page `docs/scenario.md`, generated from the
//! tables of [`super`].

use friction_models::ParamKind;

use super::json::is_required;
use super::*;
use crate::system::{DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_MAX_STEPS};

fn cell(s: &str) -> String {
    if s.is_empty() {
        "".into()
    } else {
        s.replace('|', "\\|")
    }
}

/// The reference's section on statically indeterminate stuck forces.
const REDUNDANT: &str = "## Redundant contacts\n\n\
While contacts stick and stops rest, their forces follow from the statics of the bodies they hold. \
Where more than one of them joins the same two members (two contacts holding one body to the ground, a \
contact beside a resting stop, the plates of a clutch pack between two shafts), the statics give only \
their sum: the split is not unique. The engine then splits by one rule, and names the set in the run's \
`warnings` (summary.json) once:\n\n\
1. stops push first: a sum that the resting stops can push (towards the body's side of the limit) is \
shared equally by them, and the contacts beside them carry nothing;\n\
2. otherwise the contacts carry it all, by the minimum-norm forces within their capacities N Fs \
(minimise Σ λ² subject to Σ λ = the sum and |λ_j| <= N_j Fs_j): equal shares, each contact clamped at \
its capacity and the others sharing the rest. A stop never pulls and no contact carries more than its \
capacity.\n\n\
The set holds while the sum stays within the contacts' summed capacity (on the side the stops cannot \
push); the instant it reaches it is a break-away event, where the stick/slip decision (a box LCP over \
all contacts and stops at rest) lets them slide and the stops release. A loop of stuck rows through \
several bodies (a body held by the ground and a driver at once, a ring of stuck contacts, two blocks \
stuck together each on its own stop) is split by the same principle: the forces of least norm \
(minimise Σ λ²) that balance every body with each contact within its capacity and each stop pushing \
(solved exactly by Goldfarb and Idnani's dual active-set method, 1983). The loop holds while such a \
split exists; the instant none does, the contacts the split holds at their capacity break away (the \
same stick/slip decision).\n\n";

/// The reference page `docs/scenario.md`.
pub fn markdown() -> String {
    let mut m = String::new();
    m.push_str(
        "# The scenario format\n\n\
         <!-- Generated from crates/friction-sim/src/scenario/schema.rs by \
         `FRICTION_BLESS=1 cargo test --workspace --test scenario_schema`; do not edit by hand. -->\n\n\
         A scenario is a TOML file that `friction run FILE` simulates. This page lists every table and key; \
         `friction schema` prints the same as a JSON Schema (checked in as \
         [`scenario.schema.json`](scenario.schema.json)) for completion and validation in editors. Units are \
         SI; positions are in m (a body's position, a driver's motion, a spring's length).\n\n\
         A key that is not listed is refused with its line and the valid keys. Every number is checked against \
         its range when the file is loaded; the message names the file, the line, the key, the value and the \
         valid range.\n\n",
    );
    m.push_str("```toml\n");
    m.push_str(EXAMPLE);
    m.push_str("```\n\n");
    for t in TABLES {
        if t.name.is_empty() {
            m.push_str("## Top level\n\n");
        } else if t.array {
            m.push_str(&format!("## `[[{}]]`\n\n", t.name));
        } else {
            m.push_str(&format!("## `[{}]`\n\n", t.name));
        }
        let how = match (t.array, t.required) {
            (true, _) => " Any number of them, in any order.",
            (false, true) if !t.name.is_empty() => " Required.",
            _ => "",
        };
        m.push_str(&format!("{}{how}\n\n", t.doc));
        m.push_str("| key | type | unit | default | valid range | required | description |\n");
        m.push_str("| --- | --- | --- | --- | --- | --- | --- |\n");
        for k in t.keys {
            m.push_str(&format!(
                "| `{}` | {} | {} | {} | {} | {} | {} |\n",
                k.name,
                k.kind.type_text(),
                cell(k.unit),
                cell(k.default),
                cell(&k.kind.range_text()),
                if k.required { "yes" } else { "no" },
                cell(k.doc)
            ));
        }
        m.push('\n');
    }
    m.push_str(&format!(
        "The defaults of `max_steps` ({DEFAULT_MAX_STEPS}) and `max_output_bytes` ({DEFAULT_MAX_OUTPUT_BYTES}) are \
         the constants `DEFAULT_MAX_STEPS` and `DEFAULT_MAX_OUTPUT_BYTES` of `friction_sim::scenario`.\n\n"
    ));
    m.push_str(REDUNDANT);
    m.push_str(
        "## Schedules\n\n\
         A driver's `motion`, a force's `value` and a contact's `normal` are signals of time. A plain number is \
         the shorthand for a constant (`value = 2.0` is `value = { type = \"constant\", value = 2.0 }`; a \
         driver's `motion` must be a table). A table names its `type`; `u` is the unit of the signal (m for a \
         motion, N for a force, - for a normal-load factor). Every signal must stay finite over [0, t_end].\n\n",
    );
    m.push_str(&format!(
        "Signals compose: `sum`, `product` and `window` take other schedules (or numbers, as constants) as \
         parts, nested up to {} levels (a window of a sum of a product is 3), at most {} terms or factors \
         each. Every part is evaluated at the simulation time t. The rates of a composed signal (a driver's \
         velocity and acceleration) follow from its parts' (a product's by the product rule), and its \
         breakpoints, where the integrator stops and restarts, are the union of its parts', the window \
         edges and every edge of a periodic part, so no step straddles a jump. An `input` cannot be a \
         part. A torque `200 sin(100 t)` for t < 0.5 and 0 after:\n\n\
         ```toml\nvalue = {{ type = \"window\", end = 0.5, inner = {{ type = \"sine\", amplitude = 200.0, \
         frequency = 15.915494309189533 }} }}\n```\n\n\
         The periodic signals `pulse_train`, `square` and `sawtooth` follow Modelica.Blocks.Sources.Pulse \
         and Modelica.Blocks.Sources.SawTooth (Modelica Standard Library 4.0): `offset` before `start`, \
         `duty` = Modelica's `width` / 100, a finite number of periods (Modelica's `nperiod`) is a \
         `window`. At most {:.0} edges of periodic signals per schedule in [0, t_end].\n\n",
        crate::system::schedule::MAX_DEPTH,
        crate::system::schedule::MAX_TERMS,
        crate::system::schedule::MAX_EDGES,
    ));
    for s in SCHEDULES {
        m.push_str(&format!("### `{}`\n\n{}\n\n", s.name, s.formula));
        m.push_str("| key | unit | default | valid range | description |\n| --- | --- | --- | --- | --- |\n");
        for k in s.keys {
            let hi = match k.hi {
                Some((x, true)) => format!("{x}]"),
                Some((x, false)) => format!("{x})"),
                None => "inf)".to_string(),
            };
            let range = match (k.name, k.lo) {
                ("points", _) => "finite numbers, at least 2".to_string(),
                ("file", _) => String::new(),
                ("name", _) => "a name, unique among inputs".to_string(),
                ("quantity", _) => "\"value\" \\| \"velocity\"".to_string(),
                ("terms" | "factors", _) => format!("1 to {} entries", crate::system::schedule::MAX_TERMS),
                ("inner", _) => "a schedule or a number".to_string(),
                ("end", _) => "(start, inf)".to_string(),
                (_, Some((x, true))) => format!("[{x}, {hi}"),
                (_, Some((x, false))) => format!("({x}, {hi}"),
                (_, None) => format!("(-inf, {hi}"),
            };
            let default = match k.name {
                "quantity" => "\"value\"".to_string(),
                _ => k.default.map(|d| format!("{d}")).unwrap_or_else(|| "required".into()),
            };
            m.push_str(&format!(
                "| `{}` | {} | {} | {} | {} |\n",
                k.name,
                k.unit,
                default,
                range,
                cell(k.doc)
            ));
        }
        m.push_str(&format!("\nExample: `{}`\n\n", s.example));
    }
    m.push_str(
        "## Models\n\n\
         A contact's `model` is one of the ids below and its `params` table holds that model's parameters \
         (`friction models ID` prints the equations and the literature). Every force parameter is the value at \
         a normal load N = 1: the contact's `normal` multiplies it.\n\n",
    );
    for info in friction_models::all() {
        m.push_str(&format!("### `{}`\n\n{} ({}).\n\n", info.id, info.summary, info.family.name()));
        if info.params.is_empty() {
            m.push_str("No parameters.\n\n");
            continue;
        }
        m.push_str("| key | symbol | unit | default | valid range | required | description |\n");
        m.push_str("| --- | --- | --- | --- | --- | --- | --- |\n");
        for p in info.params {
            let def = match p.kind {
                ParamKind::Rows { columns, .. } => format!("rows [{}]", columns.join(", ")),
                _ => p.default_text(),
            };
            m.push_str(&format!(
                "| `{}` | {} | {} | {} | {} | {} | {} |\n",
                p.name,
                cell(p.symbol),
                cell(p.unit),
                cell(&def),
                cell(&p.range_text()),
                if is_required(p) { "yes" } else { "no" },
                cell(p.doc)
            ));
        }
        m.push('\n');
    }
    m
}

/// The example at the top of the reference page: every table once.
pub const EXAMPLE: &str = r#"name = "example"
description = "a slider drags a mass over a LuGre contact"

[[driver]]
name = "slider"
motion = { type = "ramp", rate = 0.1 }   # x(t) = 0.1 t [m]

[[body]]
name = "m"
mass = 1.0
x0 = 0.0

[[spring]]
between = ["m", "slider"]
stiffness = 2.0
length = 0.0

[[damper]]
between = ["m", "ground"]
coefficient = 0.01

[[force]]
on = "m"
value = { type = "pulse", value = 0.5, from = 5.0, to = 6.0 }

[[contact]]
name = "c"
between = ["m", "ground"]
model = "lugre"
params = { fc = 1.0, fs = 1.5, vs = 0.001 }
normal = 1.0

[[gap]]
name = "bumper"
between = ["m", "ground"]
length = -4.0     # contact while 0 - x.m < -4: a compliant bumper beyond x = 4
stiffness = 1e4
damping = 10.0

[[stop]]
body = "m"
min = -1.0
max = 5.0

[solver]
t_end = 20.0
output_dt = 0.01
"#;
